//! Sets of literals of which at most one is true in every model of the
//! translation: the elements of a choice `{…} 1` (or `1 {…} 1`) whose body
//! always holds, whose bound is written as clauses of the same formula.
//!
//! A sum over such a set takes one of the set's weights or none, not any
//! sum of them. Diagrams over the sets ([`super::bdd::SumAtLeast`]) are
//! multi-valued decision diagrams over "which one of the set", smaller
//! and propagating more than one node per literal:
//!
//! > Miquel Bofill, Jordi Coll, Josep Suy and Mateu Villaret, "An MDD-based
//! > SAT encoding for pseudo-Boolean constraints with at-most-one
//! > relations", Artificial Intelligence Review 53 (2020), pp. 5157–5188.

use super::Cond;
use rustc_hash::FxHashMap;
use smallvec::SmallVec;
use varisat_formula::Lit;

/// Sets of literals, at most one of each true in every model.
#[derive(Clone, Debug, Default)]
pub(crate) struct ExclusiveSets {
    count: u32,
    /// The sets each literal is in.
    of: FxHashMap<Lit, SmallVec<[u32; 2]>>,
}

impl ExclusiveSets {
    /// Records that at most one of `lits` is true in every model (the
    /// caller has written the clauses that say so).
    pub(crate) fn add(&mut self, lits: &[Lit]) {
        if lits.len() < 2 {
            return;
        }
        for &lit in lits {
            self.of.entry(lit).or_default().push(self.count);
        }
        self.count += 1;
    }

    /// `weighted` (positive weights) split into levels, each a set of
    /// inputs at most one of which holds: the inputs of one recorded set
    /// (the set with the most of them first), and each other input alone.
    /// An input whose literal occurs twice stays alone: both count when
    /// it holds.
    pub(crate) fn levels(&self, weighted: &[(Cond, i64)]) -> Vec<Vec<(Cond, i64)>> {
        let mut occurrences: FxHashMap<Lit, u32> = FxHashMap::default();
        for &(cond, _) in weighted {
            if let Cond::Lit(lit) = cond {
                *occurrences.entry(lit).or_default() += 1;
            }
        }
        let groupable = |cond: Cond| match cond {
            Cond::Lit(lit) => occurrences[&lit] == 1 && self.of.contains_key(&lit),
            _ => false,
        };
        // The inputs in each set, most first (then the earlier set).
        let mut members: FxHashMap<u32, Vec<usize>> = FxHashMap::default();
        for (i, &(cond, _)) in weighted.iter().enumerate() {
            if groupable(cond) {
                for &set in &self.of[&cond.lit().expect("a literal")] {
                    members.entry(set).or_default().push(i);
                }
            }
        }
        let mut sets: Vec<(u32, Vec<usize>)> = members.into_iter().collect();
        sets.sort_unstable_by_key(|(set, inputs)| (std::cmp::Reverse(inputs.len()), *set));
        let mut placed = vec![false; weighted.len()];
        let mut levels = Vec::new();
        for (_, inputs) in sets {
            let level: Vec<(Cond, i64)> = (inputs.iter())
                .filter(|&&i| !placed[i])
                .map(|&i| weighted[i])
                .collect();
            if level.len() >= 2 {
                inputs.iter().for_each(|&i| placed[i] = true);
                levels.push(level);
            }
        }
        (weighted.iter().zip(&placed))
            .filter(|(_, placed)| !**placed)
            .for_each(|(&input, _)| levels.push(vec![input]));
        levels
    }
}
