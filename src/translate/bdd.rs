//! Reified pseudo-Boolean constraints `Σ wᵢ·xᵢ ≥ k` as reduced ordered
//! BDDs whose nodes stand for intervals of `k`:
//!
//! > Ignasi Abío, Robert Nieuwenhuis, Albert Oliveras and Enric
//! > Rodríguez-Carbonell, "A new look at BDDs for pseudo-Boolean
//! > constraints", Journal of Artificial Intelligence Research 45 (2012),
//! > pp. 443–480.
//! >
//! > Niklas Eén and Niklas Sörensson, "Translating pseudo-Boolean
//! > constraints into SAT", Journal on Satisfiability, Boolean Modeling and
//! > Computation 2 (2006), pp. 1–26.
//!
//! Each node is a variable defined by `v ↔ lo ∨ (x ∧ hi)` in both
//! directions, so the encoding is exact: every auxiliary variable is
//! determined by the inputs. Every bound asked of one diagram shares its
//! nodes.

use super::Cond;
use super::encoding::AtLeast;
use super::exclusive::ExclusiveSets;
use super::gates::Gates;
use smallvec::SmallVec;
use std::collections::BTreeMap;
use varisat_formula::ExtendFormula;

/// Reified `Σ wᵢ·xᵢ ≥ k` for any `k`, as one shared interval diagram.
///
/// Negative weights are turned positive first: `−w·x = w·¬x − w`. The
/// inputs come in levels, each one input or a set of inputs at most one
/// of which holds ([`ExclusiveSets`]). Then `node(i, k)` means
/// `Σ_{j ≥ i} ≥ k` over the levels from `i`, and every node is valid for
/// an interval `[lo, hi]` of `k`, so nearby bounds share nodes.
pub struct SumAtLeast {
    levels: Vec<Vec<(Cond, i64)>>,
    /// The greatest sum of the levels from `i` on.
    suffix: Vec<i64>,
    /// What the negative weights shift every bound by.
    offset: i64,
    /// Per level: the intervals built so far, `lo → (hi, node)`. The
    /// intervals of one level are disjoint (each bound has one node), so
    /// the one holding `k` is the last starting at or below it: a lookup
    /// in a diagram of millions of nodes costs a logarithm, not a scan of
    /// its level.
    nodes: Vec<BTreeMap<i64, (i64, Cond)>>,
}

impl SumAtLeast {
    /// A diagram with a level per input.
    pub fn new(weighted: &[(Cond, i64)]) -> SumAtLeast {
        Self::over_sets(weighted, &ExclusiveSets::default())
    }

    /// A diagram whose levels are the inputs of one of `exclusive`'s sets
    /// where they can be.
    pub fn over_sets(weighted: &[(Cond, i64)], exclusive: &ExclusiveSets) -> SumAtLeast {
        let mut offset = 0;
        let mut inputs: Vec<(Cond, i64)> = Vec::with_capacity(weighted.len());
        for &(cond, w) in weighted {
            match cond {
                Cond::False => {}
                _ if w == 0 => {}
                _ if w < 0 => {
                    offset -= w;
                    inputs.push((!cond, -w));
                }
                _ => inputs.push((cond, w)),
            }
        }
        let mut levels = exclusive.weighted_levels(&inputs);
        let heaviest = |level: &[(Cond, i64)]| level.iter().map(|&(_, w)| w).max().unwrap_or(0);
        // Heavy levels first keep the diagram small.
        levels.sort_by_key(|level| std::cmp::Reverse(heaviest(level)));
        let mut suffix = vec![0i64; levels.len() + 1];
        for i in (0..levels.len()).rev() {
            suffix[i] = suffix[i + 1] + heaviest(&levels[i]);
        }
        SumAtLeast {
            nodes: vec![BTreeMap::new(); levels.len()],
            levels,
            suffix,
            offset,
        }
    }

    /// Whether a level is a set of two inputs or more.
    pub fn has_sets(&self) -> bool {
        self.levels.iter().any(|level| level.len() > 1)
    }

    /// How many levels the diagram has: its inputs less those its sets
    /// gather.
    pub fn level_count(&self) -> usize {
        self.levels.len()
    }

    /// `(lo, hi, node)`: the node for `Σ_{j ≥ i} ≥ k`, the same node for
    /// every bound in `[lo, hi]`.
    fn node<S: ExtendFormula>(
        &mut self,
        i: usize,
        k: i64,
        gates: &mut Gates<S>,
    ) -> (i64, i64, Cond) {
        if k <= 0 {
            return (i64::MIN / 4, 0, Cond::True);
        }
        if k > self.suffix[i] {
            return (self.suffix[i] + 1, i64::MAX / 4, Cond::False);
        }
        if let Some((&lo, &(hi, cond))) = self.nodes[i].range(..=k).next_back()
            && k <= hi
        {
            return (lo, hi, cond);
        }
        // None of the level holds: the bound passes on; else one input
        // `x` of weight `w` holds, and the rest must reach `k − w`.
        let (mut lo, mut hi) = (i64::MIN, i64::MAX);
        let mut options: SmallVec<[(Cond, Cond); 4]> = SmallVec::new();
        for j in 0..self.levels[i].len() {
            let (x, w) = self.levels[i][j];
            let (lo1, hi1, high) = self.node(i + 1, k - w, gates);
            (lo, hi) = ((lo1 + w).max(lo), (hi1 + w).min(hi));
            options.push((x, high));
        }
        let (lo0, hi0, low) = self.node(i + 1, k, gates);
        (lo, hi) = (lo.max(lo0), hi.min(hi0));
        let node = match options[..] {
            // node ↔ low ∨ (x ∧ high); low implies high (a larger bound).
            [(_, high)] if high == low => low,
            [(x, high)] => gates.monotone_node(x, high, low),
            _ => gates.exclusive_node(&options, low),
        };
        self.nodes[i].insert(lo, (hi, node));
        (lo, hi, node)
    }
}

impl AtLeast for SumAtLeast {
    fn at_least<S: ExtendFormula>(&mut self, k: i64, gates: &mut Gates<S>) -> Cond {
        self.node(0, k + self.offset, gates).2
    }
}
