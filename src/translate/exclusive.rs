//! Sets of literals of which at most one is true in every model of the
//! translation: the unconditional elements of a choice `{…} 1` (or
//! `1 {…} 1`) whose body is empty, whose bound is written as clauses of
//! the same formula.
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
use crate::ground::program::{AtomId, GroundProgram, Head, Rule};
use rustc_hash::FxHashMap;
use smallvec::SmallVec;
use std::hash::Hash;
use varisat_formula::Lit;

/// Sets of literals (or of atoms, before there are literals), at most one
/// of each true in every model.
#[derive(Clone, Debug)]
pub(crate) struct ExclusiveSets<K = Lit> {
    count: u32,
    /// The sets each member is in.
    of: FxHashMap<K, SmallVec<[u32; 2]>>,
}

impl<K> Default for ExclusiveSets<K> {
    fn default() -> Self {
        ExclusiveSets {
            count: 0,
            of: FxHashMap::default(),
        }
    }
}

impl<K: Copy + Eq + Hash> ExclusiveSets<K> {
    /// Whether no set was recorded.
    pub(crate) fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// Records that at most one of `members` is true in every model (the
    /// caller has written the clauses that say so).
    pub(crate) fn add(&mut self, members: &[K]) {
        if members.len() < 2 {
            return;
        }
        for &member in members {
            self.of.entry(member).or_default().push(self.count);
        }
        self.count += 1;
    }

    /// The same sets over `rename`'s names of the members; members
    /// renamed alike (equivalent atoms sharing a variable) become one.
    pub(crate) fn map<L: Copy + Eq + Hash>(&self, rename: impl Fn(K) -> L) -> ExclusiveSets<L> {
        let mut of: FxHashMap<L, SmallVec<[u32; 2]>> = FxHashMap::default();
        for (&member, sets) in &self.of {
            let renamed = of.entry(rename(member)).or_default();
            renamed.extend_from_slice(sets);
            renamed.sort_unstable();
            renamed.dedup();
        }
        ExclusiveSets {
            count: self.count,
            of,
        }
    }

    /// `inputs` split into levels, each a set of inputs at most one of
    /// which holds: the inputs of one recorded set (the set with the most
    /// of them first), and each other input alone. `member` names the
    /// member an input is, if any (an input of a positive weight that is
    /// one literal). An input whose member occurs twice stays alone: both
    /// count when it holds.
    pub(crate) fn levels<T: Copy>(
        &self,
        inputs: &[T],
        member: impl Fn(T) -> Option<K>,
    ) -> Vec<Vec<T>> {
        let members: Vec<Option<K>> = inputs.iter().map(|&input| member(input)).collect();
        let mut occurrences: FxHashMap<K, u32> = FxHashMap::default();
        for &m in members.iter().flatten() {
            *occurrences.entry(m).or_default() += 1;
        }
        // The inputs in each set, most first (then the earlier set).
        let mut in_set: FxHashMap<u32, Vec<usize>> = FxHashMap::default();
        for (i, m) in members.iter().enumerate() {
            let Some(m) = m.filter(|m| occurrences[m] == 1) else {
                continue;
            };
            for &set in self.of.get(&m).into_iter().flatten() {
                in_set.entry(set).or_default().push(i);
            }
        }
        let mut sets: Vec<(u32, Vec<usize>)> = in_set.into_iter().collect();
        sets.sort_unstable_by_key(|(set, inputs)| (std::cmp::Reverse(inputs.len()), *set));
        let mut placed = vec![false; inputs.len()];
        let mut levels = Vec::new();
        for (_, set) in sets {
            let level: Vec<T> = (set.iter())
                .filter(|&&i| !placed[i])
                .map(|&i| inputs[i])
                .collect();
            if level.len() >= 2 {
                set.iter().for_each(|&i| placed[i] = true);
                levels.push(level);
            }
        }
        (inputs.iter().zip(&placed))
            .filter(|(_, placed)| !**placed)
            .for_each(|(&input, _)| levels.push(vec![input]));
        levels
    }
}

impl ExclusiveSets<AtomId> {
    /// The atoms of each choice of at most one whose body is empty, its
    /// unconditional elements.
    pub(crate) fn of_choices(program: &GroundProgram) -> ExclusiveSets<AtomId> {
        let mut sets = ExclusiveSets::default();
        for rule in &program.rules {
            if let Head::Choice(choice) = &rule.head
                && is_exclusive_choice(rule)
            {
                let atoms: Vec<AtomId> = (choice.elements.iter())
                    .filter(|element| element.is_unconditional())
                    .map(|element| element.value)
                    .collect();
                sets.add(&atoms);
            }
        }
        sets
    }
}

/// Whether `rule` is a choice whose unconditional elements
/// [`ExclusiveSets::of_choices`] records as a set: at most one, empty body.
/// Its own bound must not be encoded over the sets, which it defines.
pub(crate) fn is_exclusive_choice(rule: &Rule) -> bool {
    matches!(&rule.head, Head::Choice(choice) if choice.bounds.upper_bound() == Some(1))
        && rule.body.is_empty()
}

impl ExclusiveSets {
    /// [`ExclusiveSets::levels`] of weighted literals (positive weights).
    pub(crate) fn weighted_levels(&self, weighted: &[(Cond, i64)]) -> Vec<Vec<(Cond, i64)>> {
        self.levels(weighted, |(cond, _)| cond.lit())
    }
}
