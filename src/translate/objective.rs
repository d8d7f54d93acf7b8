//! Bounds on the objective for optimization: the reified condition "the
//! cost of a level is at least `k`", for any `k`, over one interval BDD per
//! level ([`SumAtLeast`]), so that the bounds of a linear search, each
//! below the last, share the diagram's nodes; and "at least `k` of these
//! conditions hold", the counter over a core in core-guided search; and
//! "the cost vector is below this one", for clasp's consequences under an
//! objective. Like
//! every encoding of the translation it only writes clauses into a sink;
//! the solving stage asks for the bounds it needs.

use super::bdd::SumAtLeast;
use super::encoding::AtLeast;
use super::gates::Gates;
use super::{Cond, CostTerms, Translation};
use varisat_formula::ExtendFormula;

/// "The cost of this level is at least `k`" for any `k`.
pub struct CostBound {
    sum: SumAtLeast,
}

impl CostBound {
    /// The bounds of `level`, over the sets of `translation` where they
    /// can be.
    pub fn new(level: &CostTerms, translation: &Translation) -> CostBound {
        CostBound {
            sum: SumAtLeast::over_sets(&level.terms, translation.exclusive_sets()),
        }
    }

    /// "At least `k` of `inputs` hold", for the cores of core-guided
    /// search.
    pub fn counting(inputs: &[Cond]) -> CostBound {
        let ones: Vec<(Cond, i64)> = inputs.iter().map(|&input| (input, 1)).collect();
        CostBound {
            sum: SumAtLeast::new(&ones),
        }
    }

    /// Whether the diagram has a level over a set of soft literals at most
    /// one of which holds.
    pub fn has_sets(&self) -> bool {
        self.sum.has_sets()
    }

    /// The condition `cost ≥ k`, defined in both directions in `sink`.
    pub fn at_least(&mut self, k: i64, sink: &mut impl ExtendFormula) -> Cond {
        self.sum.at_least(k, &mut Gates { sink })
    }
}

/// "The cost vector is lexicographically below `best`", over one bound per
/// level, highest priority first: some level costs less than in `best`,
/// and no level before it more.
pub fn below(bounds: &mut [CostBound], best: &[i64], sink: &mut impl ExtendFormula) -> Cond {
    let mut options = Vec::with_capacity(bounds.len());
    let mut none_more = Vec::with_capacity(bounds.len());
    for (bound, &cost) in bounds.iter_mut().zip(best) {
        let less = !bound.at_least(cost, sink);
        let option: Vec<Cond> = none_more.iter().copied().chain([less]).collect();
        options.push(Gates { sink: &mut *sink }.and(&option));
        none_more.push(!bound.at_least(cost + 1, sink));
    }
    Gates { sink }.or(&options)
}
