//! Optimal answer sets by linear SAT-UNSAT search (recipes.md,
//! "Optimization"), one priority level at a time from the highest.
//!
//! Each answer set found gives a cost vector `c`. While level `i` is
//! minimized, the levels above it are fixed at their optima by permanent
//! clauses `cost_j ≤ opt_j`, and the next answer set must have `cost_i <
//! c_i`, a bound guarded by a fresh assumption literal so that it can be
//! dropped: when no answer set meets it, `c_i` is the optimum of level `i`,
//! the guard is switched off for good, `cost_i ≤ c_i` becomes permanent and
//! the next level is minimized. Every answer set reported is therefore
//! lexicographically better than the one before, and the last one is
//! optimal once every level is fixed. The unfounded-set check and loop
//! formulas work as in enumeration; after the optimum, the same solver
//! enumerates the optimal answer sets (`--opt-mode=optN`).

use crate::solve::{AnswerSet, Enumerator};
use crate::translate::Cond;
use crate::translate::objective::CostBound;
use varisat::ExtendFormula;

/// Finds ever better answer sets until the optimum is proven.
pub struct Optimizer {
    enumerator: Enumerator,
    /// One per level of the objective, highest priority first.
    bounds: Vec<CostBound>,
    /// The level being minimized; the levels above it are fixed.
    level: usize,
    /// The cost vector of the best answer set so far.
    best: Option<Vec<i64>>,
    /// No better answer set exists (or none at all).
    finished: bool,
}

impl Optimizer {
    pub fn new(enumerator: Enumerator) -> Optimizer {
        let bounds = (enumerator.translation().costs().iter())
            .map(CostBound::new)
            .collect();
        Optimizer {
            enumerator,
            bounds,
            level: 0,
            best: None,
            finished: false,
        }
    }

    /// The next answer set that is better than every one before, with its
    /// cost vector; `None` once the last one is proven optimal, or when
    /// there is no answer set.
    pub fn next_better(&mut self) -> Option<(AnswerSet, Vec<i64>)> {
        while !self.finished {
            let Some(best) = &self.best else {
                return self.found(&[]).or_else(|| self.finish());
            };
            if self.level == self.bounds.len() {
                return self.finish();
            }
            let target = best[self.level];
            let bound = &mut self.bounds[self.level];
            let below = self.enumerator.extend(|sink| {
                // cost < target, under a guard that can be switched off.
                match bound.at_least(target, sink) {
                    Cond::True => None,
                    Cond::False => unreachable!("the best answer set costs {target} on this level"),
                    Cond::Lit(at_least) => {
                        let guard = sink.new_var().positive();
                        sink.add_clause(&[!guard, !at_least]);
                        Some(guard)
                    }
                }
            });
            if let Some(guard) = below
                && let Some(better) = self.found(&[guard])
            {
                return Some(better);
            }
            // No answer set is cheaper on this level: fix it at `target`.
            let bound = &mut self.bounds[self.level];
            self.enumerator.extend(|sink| {
                if let Some(guard) = below {
                    sink.add_clause(&[!guard]);
                }
                match bound.at_least(target + 1, sink) {
                    Cond::True => unreachable!("an answer set costs {target} on this level"),
                    Cond::False => {}
                    Cond::Lit(above) => sink.add_clause(&[!above]),
                }
            });
            self.level += 1;
        }
        None
    }

    fn found(&mut self, assumptions: &[varisat::Lit]) -> Option<(AnswerSet, Vec<i64>)> {
        let answer = self.enumerator.find_under(assumptions)?;
        let costs = self.enumerator.costs();
        self.best = Some(costs.clone());
        Some((answer, costs))
    }

    fn finish(&mut self) -> Option<(AnswerSet, Vec<i64>)> {
        self.finished = true;
        None
    }

    /// The cost vector of the best answer set found.
    pub fn best(&self) -> Option<&[i64]> {
        self.best.as_deref()
    }

    /// Whether the best answer set is proven optimal (or none exists).
    pub fn is_finished(&self) -> bool {
        self.finished
    }

    /// The enumerator, whose answer sets are, once [`Self::is_finished`],
    /// exactly the optimal ones: every level is fixed at its optimum.
    pub fn into_enumerator(self) -> Enumerator {
        self.enumerator
    }

    pub fn enumerator(&self) -> &Enumerator {
        &self.enumerator
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ground::program::GroundProgram;
    use crate::solve::SolveOptions;
    use crate::symbols::SymId;
    use crate::translate::testing::{
        Rng, add_random_costs, head_cycle_free, optimal_models, random_program,
        random_program_with_aggregates, shown_of,
    };

    /// What optimizing a program gives.
    struct Run {
        /// The cost vectors of the improving answer sets, in order.
        improving: Vec<Vec<i64>>,
        /// The optimal answer sets, enumerated after the proof.
        optimal: Vec<Vec<SymId>>,
        best: Option<Vec<i64>>,
    }

    fn optimize(program: &GroundProgram) -> Run {
        let options = SolveOptions {
            max_models: 0,
            ..SolveOptions::default()
        };
        let mut optimizer = Optimizer::new(Enumerator::new(program, options).unwrap());
        let mut improving = Vec::new();
        while let Some((_, costs)) = optimizer.next_better() {
            improving.push(costs);
        }
        assert!(optimizer.is_finished());
        let best = optimizer.best().map(<[i64]>::to_vec);
        let mut optimal: Vec<Vec<SymId>> = optimizer.into_enumerator().map(|a| a.shown).collect();
        optimal.sort();
        Run {
            improving,
            optimal,
            best,
        }
    }

    #[test]
    fn optimizer_matches_brute_force_on_random_programs() {
        let mut rng = Rng::new(77);
        let (mut compared, mut several_levels, mut improved) = (0, 0, 0);
        for round in 0..6000 {
            let mut program = if round % 2 == 0 {
                random_program(&mut rng, 7, false)
            } else {
                random_program_with_aggregates(&mut rng, 7)
            };
            add_random_costs(&mut rng, &mut program);
            if !head_cycle_free(&program) {
                continue;
            }
            let Run {
                improving,
                optimal,
                best,
            } = optimize(&program);
            for pair in improving.windows(2) {
                assert!(
                    pair[1] < pair[0],
                    "round {round}: not improving {improving:?}"
                );
            }
            match optimal_models(&program) {
                None => assert_eq!((improving.len(), best), (0, None), "round {round}"),
                Some((optimum, models)) => {
                    assert_eq!(best.as_ref(), Some(&optimum), "round {round}: {program:?}");
                    assert_eq!(improving.last(), Some(&optimum), "round {round}");
                    let mut expected: Vec<Vec<SymId>> =
                        models.iter().map(|&m| shown_of(&program, m)).collect();
                    expected.sort();
                    assert_eq!(optimal, expected, "round {round}: {program:?}");
                    several_levels += usize::from(optimum.len() > 1);
                    improved += usize::from(improving.len() > 1);
                }
            }
            compared += 1;
        }
        // Most programs have few answer sets: some hundreds improve at all.
        assert!(compared > 4000 && several_levels > 2000 && improved > 250);
    }
}
