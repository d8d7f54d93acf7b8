//! The counting encodings of the translation behind one trait, as rustsat
//! does: each encoding is a struct of its own (its paper cited in its
//! file), and one generic test checks every encoding exhaustively on small
//! inputs.
//!
//! | encoding | file | inputs |
//! |---|---|---|
//! | [`SequentialCounter`](super::cardinality::SequentialCounter) | `cardinality.rs` (Sinz 2005) | unweighted: choice bounds |
//! | [`SumAtLeast`](super::bdd::SumAtLeast) | `bdd.rs` (Abío et al. 2012; Bofill et al. 2020 over [`ExclusiveSets`](super::exclusive::ExclusiveSets)) | any integer weights: `#sum`, `#count`, the objective; choice bounds over exclusive sets |
//! | [`SortingNetwork`](super::sorting::SortingNetwork) | `sorting.rs` (Batcher 1968; Eén and Sörensson 2006) | equal weights, where the counter or diagram would be too large: choice bounds, `#count` |
//! | [`SumAdder`](super::adder::SumAdder) | `adder.rs` (Eén and Sörensson 2006) | any integer weights, where the diagram would be too large |

use super::Cond;
use super::gates::Gates;
use varisat_formula::{ExtendFormula, Lit};

/// A reified "at least": the condition `Σ wᵢ·xᵢ ≥ k` over the inputs the
/// encoding was built on, for any `k` it was built for. Every auxiliary
/// variable is defined in both directions, so each assignment of the inputs
/// extends to exactly one model (the exact export relies on it).
pub(crate) trait AtLeast {
    fn at_least<S: ExtendFormula>(&mut self, k: i64, gates: &mut Gates<S>) -> Cond;
}

/// `Σ wᵢ·cᵢ` as `Σ |wᵢ|·lᵢ + offset` over literals: the certain
/// conditions added to the offset, the impossible ones and zero weights
/// dropped, and the literal of a negative weight negated (`w·x = |w|·¬x −
/// |w|`).
pub(crate) struct PositiveTerms {
    pub(crate) terms: Vec<(Lit, u64)>,
    pub(crate) offset: i64,
    /// The greatest sum of the terms.
    pub(crate) total: u64,
}

impl PositiveTerms {
    pub(crate) fn new(weighted: &[(Cond, i64)]) -> PositiveTerms {
        let mut terms = Vec::with_capacity(weighted.len());
        let mut offset = 0;
        for &(cond, w) in weighted {
            match cond {
                Cond::False => {}
                _ if w == 0 => {}
                Cond::True => offset += w,
                Cond::Lit(x) if w < 0 => {
                    offset += w;
                    terms.push((!x, w.unsigned_abs()));
                }
                Cond::Lit(x) => terms.push((x, w as u64)),
            }
        }
        PositiveTerms {
            total: terms.iter().map(|&(_, w)| w).sum(),
            terms,
            offset,
        }
    }

    /// What `Σ wᵢ·cᵢ ≥ k` asks of the terms: a sum of at least the bound
    /// returned, `0 < bound ≤ total`, or else the constant it is.
    pub(crate) fn bound(&self, k: i64) -> Result<u64, Cond> {
        match k - self.offset {
            bound if bound <= 0 => Err(Cond::True),
            bound if bound as u64 > self.total => Err(Cond::False),
            bound => Ok(bound as u64),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::Rng;
    use crate::translate::ClauseWriter;
    use crate::translate::adder::SumAdder;
    use crate::translate::bdd::SumAtLeast;
    use crate::translate::cardinality::SequentialCounter;
    use crate::translate::exclusive::ExclusiveSets;
    use crate::translate::sorting::SortingNetwork;
    use varisat::{CnfFormula, Lit, Solver, Var};

    /// Builds an encoding over `inputs` with their `weights`, where at
    /// most one input of each of the sets holds.
    type Build<E> = fn(&[Lit], &[i64], &ExclusiveSets, &mut CnfFormula) -> E;

    /// For every assignment of the inputs and every bound from below the
    /// least sum to above the greatest: exactly one model, in which the
    /// output is the sum's truth.
    fn check_exact<E: AtLeast>(build: Build<E>, inputs: usize, weights: &[i64]) {
        check_exact_over(build, inputs, weights, &[]);
    }

    /// [`check_exact`] where at most one input of each of `sets` holds: the
    /// formula says so, and the assignments are those where it does.
    fn check_exact_over<E: AtLeast>(
        build: Build<E>,
        inputs: usize,
        weights: &[i64],
        sets: &[Vec<usize>],
    ) {
        let mut formula = CnfFormula::new();
        let xs: Vec<Lit> = (0..inputs).map(|_| formula.new_lit()).collect();
        let mut exclusive = ExclusiveSets::default();
        for set in sets {
            let lits: Vec<Lit> = set.iter().map(|&i| xs[i]).collect();
            for (a, &p) in lits.iter().enumerate() {
                for &q in &lits[a + 1..] {
                    formula.add_clause(&[!p, !q]);
                }
            }
            exclusive.add(&lits);
        }
        let mut encoding = build(&xs, weights, &exclusive, &mut formula);
        let least: i64 = weights.iter().filter(|&&w| w < 0).sum();
        let greatest: i64 = weights.iter().filter(|&&w| w > 0).sum();
        let bounds: Vec<(i64, Cond)> = (least - 1..=greatest + 1)
            .map(|k| {
                let mut writer = ClauseWriter::new(&mut formula);
                (k, encoding.at_least(k, &mut Gates { sink: &mut writer }))
            })
            .collect();
        let all_vars: Vec<Var> = (0..formula.var_count()).map(Var::from_index).collect();
        let exclusive_hold = |assignment: u32| {
            (sets.iter()).all(|set| set.iter().filter(|&&i| assignment >> i & 1 == 1).count() <= 1)
        };
        for assignment in (0u32..1 << inputs).filter(|&a| exclusive_hold(a)) {
            let sum: i64 = (0..inputs)
                .filter(|i| assignment >> i & 1 == 1)
                .map(|i| weights[i])
                .sum();
            let fixed: Vec<Lit> = (0..inputs)
                .map(|i| xs[i].var().lit(assignment >> i & 1 == 1))
                .collect();
            let mut solver = Solver::new();
            solver.add_formula(&formula);
            solver.assume(&fixed);
            assert!(solver.solve().unwrap(), "weights {weights:?}");
            let model = solver.model().unwrap();
            for &(k, cond) in &bounds {
                let value = cond.value(|v| model.contains(&v.positive()));
                assert_eq!(value, sum >= k, "weights {weights:?} k {k} {assignment:b}");
            }
            let block: Vec<Lit> = all_vars
                .iter()
                .map(|v| v.lit(!model.contains(&v.positive())))
                .collect();
            solver.add_clause(&block);
            solver.assume(&fixed);
            assert!(!solver.solve().unwrap(), "two models: weights {weights:?}");
        }
    }

    fn bdd(
        inputs: &[Lit],
        weights: &[i64],
        exclusive: &ExclusiveSets,
        _: &mut CnfFormula,
    ) -> SumAtLeast {
        let weighted: Vec<(Cond, i64)> = inputs
            .iter()
            .zip(weights)
            .map(|(&x, &w)| (Cond::Lit(x), w))
            .collect();
        SumAtLeast::over_sets(&weighted, exclusive)
    }

    fn counter(
        inputs: &[Lit],
        _: &[i64],
        _: &ExclusiveSets,
        formula: &mut CnfFormula,
    ) -> SequentialCounter {
        SequentialCounter::new(inputs, inputs.len(), formula)
    }

    fn network(inputs: &[Lit], _: &[i64], _: &ExclusiveSets, _: &mut CnfFormula) -> SortingNetwork {
        SortingNetwork::new(inputs.iter().map(|&x| Cond::Lit(x)).collect())
    }

    fn weighted(inputs: &[Lit], weights: &[i64]) -> Vec<(Cond, i64)> {
        (inputs.iter().zip(weights))
            .map(|(&x, &w)| (Cond::Lit(x), w))
            .collect()
    }

    fn network_over_weights(
        inputs: &[Lit],
        weights: &[i64],
        _: &ExclusiveSets,
        _: &mut CnfFormula,
    ) -> SortingNetwork {
        SortingNetwork::over_equal_weights(&weighted(inputs, weights)).expect("equal weights")
    }

    fn adder(inputs: &[Lit], weights: &[i64], _: &ExclusiveSets, _: &mut CnfFormula) -> SumAdder {
        SumAdder::new(&weighted(inputs, weights))
    }

    #[test]
    fn encoding_sorting_network_is_exact() {
        for n in 0..=9 {
            check_exact(network, n, &vec![1; n]);
        }
        // Equal magnitudes of either sign, and zeros.
        let mut rng = Rng::new(1968);
        for _ in 0..200 {
            let n = 1 + rng.below(6);
            let scale = 1 + rng.below(3) as i64;
            let weights: Vec<i64> = (0..n).map(|_| scale * (rng.below(3) as i64 - 1)).collect();
            check_exact(network_over_weights, n, &weights);
        }
    }

    #[test]
    fn encoding_adder_is_exact() {
        let mut rng = Rng::new(2006);
        for n in 0..=5 {
            check_exact(adder, n, &vec![1; n]);
        }
        for _ in 0..300 {
            let n = 1 + rng.below(5);
            let weights: Vec<i64> = (0..n).map(|_| rng.below(19) as i64 - 9).collect();
            check_exact(adder, n, &weights);
        }
    }

    #[test]
    fn encoding_sequential_counter_is_exact() {
        for n in 0..=6 {
            check_exact(counter, n, &vec![1; n]);
        }
    }

    #[test]
    fn encoding_bdd_is_exact() {
        let mut rng = Rng::new(2012);
        for n in 0..=6 {
            check_exact(bdd, n, &vec![1; n]);
        }
        for _ in 0..300 {
            let n = 1 + rng.below(5);
            let weights: Vec<i64> = (0..n).map(|_| rng.below(9) as i64 - 4).collect();
            check_exact(bdd, n, &weights);
        }
    }

    /// Diagrams whose levels are sets of inputs at most one of which
    /// holds: disjoint sets, overlapping ones (an input in two, as a cell
    /// of a grid is in its row's choice and its value's), and inputs in
    /// none.
    #[test]
    fn encoding_bdd_over_exclusive_sets_is_exact() {
        let mut rng = Rng::new(2020);
        for _ in 0..400 {
            let n = 2 + rng.below(6);
            let weights: Vec<i64> = (0..n).map(|_| rng.below(9) as i64 - 3).collect();
            let mut sets: Vec<Vec<usize>> = Vec::new();
            for _ in 0..1 + rng.below(3) {
                let set: Vec<usize> = (0..n).filter(|_| rng.below(3) == 0).collect();
                sets.push(set);
            }
            check_exact_over(bdd, n, &weights, &sets);
        }
    }
}
