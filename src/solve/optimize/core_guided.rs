//! Core-guided search of one level of the objective (OLL, [`Strategy::Core`]),
//! by strata of weight.
//!
//! Every soft literal is assumed true (its weight not paid); each core of
//! assumptions that admits no answer set raises the lower bound by its
//! least weight, which is split off its elements, and a counter over the
//! core adds the soft condition "at most one of them is paid", then "at
//! most two", and so on, as the cores demand.
//!
//! Stratification (Ansótegui, Bonet, Gabàs and Levy, "Improving SAT-based
//! weighted MaxSAT solvers", CP 2012): only the soft literals of at least
//! a threshold weight are assumed. An answer set under them is an upper
//! bound, reported as soon as found; then the threshold falls to the next
//! stratum. Cores over heavy literals come first and raise the bound by
//! large steps, and light literals stay out of them. The level is optimal
//! once an answer set holds under every soft literal left, or costs the
//! lower bound proven. Weights that hardly repeat (the diversity of the
//! paper) are grouped into one stratum: a stratum per distinct weight
//! would take a solver call each for nothing ([`next_threshold`]).
//!
//! A soft literal heavier than the gap between the best answer set's cost
//! and the lower bound is hardened: it becomes a unit clause
//! ([`CoreGuided::harden`]).
//!
//! [`Strategy::Core`]: super::Strategy::Core

use crate::solve::{AnswerSet, Enumerator};
use crate::translate::Cond;
use crate::translate::objective::CostBound;
use rustc_hash::FxHashMap;
use varisat_formula::{ExtendFormula, Lit};

/// A stratum takes further distinct weights, from the heaviest below the
/// threshold down, until it holds this many soft literals per distinct
/// weight.
const LITERALS_PER_WEIGHT: usize = 2;

#[cfg(test)]
thread_local! {
    /// The soft literals this thread's searches hardened, for the tests
    /// to show that they did.
    pub(super) static HARDENED: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// A soft literal: assumed true, `weight` paid when it is false. One that
/// says "fewer than `k` of a core's elements are paid" names its counter,
/// whose next output takes over when it is relaxed.
struct Soft {
    weight: u64,
    counter: Option<(usize, i64)>,
}

/// What a step of the search found.
pub(super) enum CoreStep {
    /// An answer set under a stratum's assumptions, which need not be
    /// optimal: the search goes on with the next stratum.
    Found(AnswerSet, Vec<i64>),
    /// An optimal answer set of the level, with its cost vector.
    Optimal(AnswerSet, Vec<i64>),
    /// The budget of cores is spent: every answer set costs at least this
    /// on the level.
    Stalled { lower_bound: i64 },
    /// The turn's conflicts are spent: every answer set costs at least
    /// this on the level, and the search can go on at its next turn.
    Paused { lower_bound: i64 },
    /// The search was interrupted before any of those.
    Interrupted,
}

/// The state of core-guided search on one level, kept between the answer
/// sets of its strata.
pub(super) struct CoreGuided {
    level: usize,
    softs: FxHashMap<Lit, Soft>,
    counters: Vec<CostBound>,
    lower_bound: i64,
    /// Only soft literals of at least this weight are assumed.
    threshold: u64,
    cores: usize,
    core_literals: usize,
    /// The cores (and the literals of all cores) taken before the level
    /// is handed to the linear search.
    budget: usize,
}

impl CoreGuided {
    /// The search of `level`, whose soft literals are `literals` and whose
    /// cost is at least `always`, by strata if `stratify`.
    pub(super) fn new(
        level: usize,
        literals: &[(Lit, u64)],
        always: i64,
        budget: usize,
        stratify: bool,
    ) -> Self {
        let mut search = CoreGuided {
            level,
            softs: FxHashMap::default(),
            counters: Vec::new(),
            lower_bound: always,
            threshold: u64::MAX,
            cores: 0,
            core_literals: 0,
            budget,
        };
        for &(lit, weight) in literals {
            search.add_soft(lit, weight, None);
        }
        // Without strata, every soft literal of positive weight is assumed.
        search.threshold = if stratify {
            search.next_threshold().unwrap_or(1)
        } else {
            1
        };
        search
    }

    fn add_soft(&mut self, lit: Lit, weight: u64, counter: Option<(usize, i64)>) {
        let soft = (self.softs.entry(lit)).or_insert(Soft { weight: 0, counter });
        soft.weight += weight;
    }

    /// The threshold of the stratum below the current one, over the
    /// residual weights of the soft literals not assumed yet; `None` when
    /// every soft literal of positive weight is assumed.
    fn next_threshold(&self) -> Option<u64> {
        let mut lighter: Vec<u64> = (self.softs.values())
            .map(|soft| soft.weight)
            .filter(|&weight| weight > 0 && weight < self.threshold)
            .collect();
        lighter.sort_unstable_by(|a, b| b.cmp(a));
        stratum_threshold(&lighter)
    }

    /// Searches on until an answer set, a proof of the optimum, the end of
    /// the budget, the solver's conflicts reaching `until` (the end of the
    /// turn) or an interruption; `upper` is the level's cost in the best
    /// answer set so far.
    pub(super) fn step(&mut self, enumerator: &mut Enumerator, upper: i64, until: u64) -> CoreStep {
        loop {
            self.harden(enumerator, upper);
            let mut assumptions: Vec<Lit> = (self.softs.iter())
                .filter(|(_, soft)| soft.weight > 0 && soft.weight >= self.threshold)
                .map(|(&lit, _)| lit)
                .collect();
            assumptions.sort_unstable(); // deterministic searches
            let Ok(found) = enumerator.find_until(&assumptions, Some(until)) else {
                return CoreStep::Paused {
                    lower_bound: self.lower_bound,
                };
            };
            if let Some(answer) = found {
                let costs = enumerator.costs();
                match self.next_threshold() {
                    Some(next) if costs[self.level] > self.lower_bound => {
                        self.threshold = next;
                        return CoreStep::Found(answer, costs);
                    }
                    _ => return CoreStep::Optimal(answer, costs),
                }
            }
            if enumerator.interrupted() {
                return CoreStep::Interrupted;
            }
            if self.cores == self.budget || self.core_literals >= self.budget {
                return CoreStep::Stalled {
                    lower_bound: self.lower_bound,
                };
            }
            let core = enumerator.failed_core();
            assert!(
                !core.is_empty(),
                "the levels above are fixed at costs some answer set has"
            );
            self.relax(enumerator, &core);
        }
    }

    /// Hardening (Ansótegui, Bonet, Gabàs and Levy, "Improving WPM2 for
    /// (weighted) partial MaxSAT", CP 2013; clasp's `usc` does it too).
    /// An answer set costs the lower bound plus the residual weights of the
    /// soft literals it pays, the counters' outputs included; so a soft
    /// literal heavier than `upper` minus the lower bound holds in every
    /// answer set that costs at most `upper`, the only ones the level still
    /// looks for, and it becomes a unit clause. asprilo's `assign-f.lp`,
    /// whose last level sums the distances of 600 assignments, took 0.70 s
    /// without it and 0.45 s with it.
    fn harden(&mut self, enumerator: &mut Enumerator, upper: i64) {
        let gap = upper - self.lower_bound;
        let mut heavy: Vec<Lit> = (self.softs.iter())
            .filter(|(_, soft)| soft.weight > 0 && soft.weight as i64 > gap)
            .map(|(&lit, _)| lit)
            .collect();
        heavy.sort_unstable(); // deterministic clauses
        #[cfg(test)]
        HARDENED.with(|count| count.set(count.get() + heavy.len()));
        enumerator.extend(|sink| {
            for &lit in &heavy {
                sink.add_clause(&[lit]);
            }
        });
        for lit in heavy {
            self.softs.get_mut(&lit).expect("a soft literal").weight = 0;
        }
    }

    /// Takes `core` into the search: the lower bound rises by its least
    /// weight, split off its elements, and the counters take over.
    fn relax(&mut self, enumerator: &mut Enumerator, core: &[Lit]) {
        self.cores += 1;
        self.core_literals += core.len();
        let least = (core.iter())
            .map(|lit| self.softs[lit].weight)
            .min()
            .expect("a core");
        self.lower_bound += least as i64;
        let mut relaxed = Vec::new();
        for lit in core {
            let soft = self.softs.get_mut(lit).expect("assumed");
            soft.weight -= least;
            if let Some((counter, k)) = soft.counter {
                relaxed.push((counter, k + 1));
            }
        }
        // The next output of every counter whose output was relaxed, and
        // a counter over this core: "fewer than 2 are paid".
        if core.len() > 1 {
            let paid: Vec<Cond> = core.iter().map(|&lit| Cond::Lit(!lit)).collect();
            self.counters.push(CostBound::counting(&paid));
            relaxed.push((self.counters.len() - 1, 2));
        }
        for (counter, k) in relaxed {
            let bound = &mut self.counters[counter];
            match enumerator.extend(|sink| bound.at_least(k, sink)) {
                Cond::Lit(at_least) => self.add_soft(!at_least, least, Some((counter, k))),
                // More than the core's size, or certain: nothing to
                // assume (a certain output was paid in the core).
                Cond::False | Cond::True => {}
            }
        }
    }
}

/// The threshold of the next stratum, given the weights not assumed yet,
/// heaviest first: the heaviest weight, and the weights after it until
/// the stratum holds [`LITERALS_PER_WEIGHT`] literals per distinct weight
/// (or every weight); `None` when there are none.
fn stratum_threshold(lighter: &[u64]) -> Option<u64> {
    let mut threshold = *lighter.first()?;
    let mut distinct = 0;
    for (taken, &weight) in lighter.iter().enumerate() {
        if weight < threshold || distinct == 0 {
            if distinct > 0 && taken >= LITERALS_PER_WEIGHT * distinct {
                break;
            }
            threshold = weight;
            distinct += 1;
        }
    }
    Some(threshold)
}

#[cfg(test)]
mod tests {
    use super::stratum_threshold;

    #[test]
    fn strata_group_weights_that_hardly_repeat() {
        assert_eq!(stratum_threshold(&[]), None);
        // Repeated weights: a stratum each.
        assert_eq!(stratum_threshold(&[8, 8, 8, 4, 4, 1]), Some(8));
        assert_eq!(stratum_threshold(&[4, 4, 1]), Some(4));
        // Weights seen once each: the stratum takes every weight.
        assert_eq!(stratum_threshold(&[9, 7, 5, 3]), Some(3));
        // One literal of weight 9, then three of 5: both.
        assert_eq!(stratum_threshold(&[9, 5, 5, 5, 2]), Some(5));
    }
}
