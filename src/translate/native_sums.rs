//! Sums left to the search: `v ↔ Σ wᵢ·xᵢ ≥ k` handed over as data, for a
//! solver that propagates weight constraints inside its search
//! (`crate::solve::weight_constraints`, as clasp propagates its weight
//! constraints), instead of the clauses of an interval BDD
//! ([`super::bdd::SumAtLeast`]), whose size is the product of the number
//! of elements and the range of the sum (bin packing's 15 capacity
//! constraints over 60 items: 36,016 variables and 134,235 clauses).
//!
//! Each bound asked of a sum is a fresh variable `v`, defined by one
//! [`ReifiedSum`] and by no clause: the translation never calls the
//! solver, and a consumer of its clauses that cannot take the sums must
//! not be given a translation that holds any (the translation writes them
//! as clauses when asked to, [`super::SumEncoding::Clauses`]).

use super::Cond;
use super::cardinality::counter_registers;
use super::encoding::{AtLeast, PositiveTerms};
use super::exclusive::ExclusiveSets;
use super::gates::Gates;
use super::sorting;
use crate::ground::program::{
    AggregateDefinition, AggregateValue, AtomId, GroundProgram, Head, element_lists,
};
use crate::syntax::ast::CmpOp;
use rustc_hash::FxHashMap;
use varisat_formula::{ExtendFormula, Lit};

/// A sum is left to the search when its diagram would have at least this
/// many nodes (four clauses each), by [`diagram_size`]. Below it the
/// clauses cost little and a CDCL solver learns over their nodes; above
/// it, on bin packing (fixtures/bench/ANALYSIS.md), propagating wins by
/// far: binpacking/20, 20 elements and a bound of 101 per sum, about 2,000
/// nodes each, is already as fast so.
const PROPAGATED_NODES: u64 = 1_000;

/// Per aggregate of `program`, whether its sum is worth leaving to the
/// search: a `#sum` (not on a positive cycle, `on_cycle`) whose elements'
/// weights differ, over elements no other aggregate has, with a large
/// diagram. A `#count` stays clauses: a weight constraint of equal weights
/// is what CDCL learns least over (domination/60, unsatisfiable: 0.04 s
/// as clauses, 12 s propagated), as the optimizer found for its bounds; so
/// do the sums of an assignment (`S = #sum{..}`, one aggregate per value of
/// `S`), whose bounds share one diagram's nodes and would each be a
/// constraint of their own (a 16-item knapsack: 7.9 s as clauses, over 15 s
/// propagated). The diagram's size counts a level per choice of at most
/// one ([`ExclusiveSets`]): over those the diagram is small and propagates
/// what the weight constraint cannot (a Survo puzzle's row sums over cells
/// of one value each: 0.07 s as clauses, 1.3 s propagated). Past
/// [`CLAUSE_NODES_AT_MOST`] nodes, any sum or count is worth it, and so
/// are the bounds of a choice past as many registers.
pub(crate) fn propagated_sums(
    program: &GroundProgram,
    exclusive: &ExclusiveSets<AtomId>,
    on_cycle: impl Fn(&AggregateDefinition) -> bool,
) -> PropagatedSums {
    let lists = element_lists(&program.aggregates);
    let mut sharing = vec![0usize; program.aggregates.len()];
    for &list in &lists {
        sharing[list] += 1;
    }
    // In the translation's order: the choices' counters (registers), then
    // the sums' diagrams (nodes), each with its inputs.
    let choice_sizes: Vec<Option<(u64, usize)>> = (program.rules.iter())
        .map(|rule| match &rule.head {
            Head::Choice(choice) => {
                let (n, bounds) = (choice.elements.len(), choice.bounds);
                let upper = bounds.upper_bound().map(|u| u as usize);
                Some((counter_registers(n, bounds.lower as usize, upper), n))
            }
            _ => None,
        })
        .collect();
    let sum_sizes: Vec<Option<(u64, usize)>> = (program.aggregates.iter())
        .map(|definition| {
            (definition.value == AggregateValue::Sum).then(|| {
                (
                    diagram_size(definition, exclusive),
                    definition.elements.len(),
                )
            })
        })
        .collect();
    let mut nodes = 0u64;
    let mut add = |size: u64, worth: bool| {
        if worth {
            nodes = nodes.saturating_add(size);
        }
        worth
    };
    let worth = (program.aggregates.iter().zip(&lists).zip(&sum_sizes))
        .map(|((definition, &list), size)| match *size {
            Some((size, _)) if !on_cycle(definition) => {
                let differ = sharing[list] == 1 && weights_differ(definition);
                let worth = differ && size >= PROPAGATED_NODES;
                add(size, worth || too_large(size))
            }
            _ => false,
        })
        .collect();
    // A choice's bounds are a counter, left to the search only where it
    // would not fit ("at least 5,000 of 10,000": 50 million registers).
    let choices = (choice_sizes.iter())
        .map(|size| size.is_some_and(|(registers, _)| add(registers, too_large(registers))))
        .collect();
    // Written as clauses all the same, the counters and diagrams pass
    // `WRITTEN_NODES_AT_MOST` together; the large ones after that are
    // networks, where those are smaller.
    let mut written = 0u64;
    let mut network = |size: &Option<(u64, usize)>| {
        size.is_some_and(|(size, inputs)| {
            written = written.saturating_add(size);
            every_large()
                || (size >= PROPAGATED_NODES
                    && written > WRITTEN_NODES_AT_MOST
                    && size > 8 * sorting::comparators(inputs))
        })
    };
    let network_choices = choice_sizes.iter().map(&mut network).collect();
    let networks = sum_sizes.iter().map(&mut network).collect();
    PropagatedSums {
        worth,
        choices,
        networks,
        network_choices,
        nodes,
    }
}

/// Whether a diagram or counter of `size` nodes or registers is too large
/// for clauses ([`CLAUSE_NODES_AT_MOST`]).
fn too_large(size: u64) -> bool {
    every_large() || size > CLAUSE_NODES_AT_MOST
}

#[cfg(not(test))]
fn every_large() -> bool {
    false
}

#[cfg(test)]
fn every_large() -> bool {
    EVERY_LARGE.with(std::cell::Cell::get)
}

#[cfg(test)]
thread_local! {
    /// Whether this thread's tests take every sum, count and choice bound
    /// (not empty) as too large for clauses, and every one as a network
    /// where it must be clauses: the small programs of the brute-force
    /// tests then take the paths of those past a million nodes.
    pub(crate) static EVERY_LARGE: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// The sums worth leaving to the search ([`propagated_sums`]).
pub(crate) struct PropagatedSums {
    /// Per aggregate: whether its sum is worth leaving to the search: a
    /// sum of different weights with a large diagram, or any sum or count
    /// too large for clauses.
    pub worth: Vec<bool>,
    /// Per rule: whether it is a choice whose bounds are too large for
    /// clauses.
    pub choices: Vec<bool>,
    /// Per aggregate, and per rule: whether the sum, or the choice's
    /// bounds, are a network where they must be clauses.
    pub networks: Vec<bool>,
    pub network_choices: Vec<bool>,
    /// The nodes of their diagrams and the registers of those choices'
    /// counters together: what writing them as clauses would cost.
    pub nodes: u64,
}

/// Past this many nodes in all, the sums worth leaving to the search are
/// left to it even where their clauses would serve it better (under an
/// objective, or for the enumeration's walk), as they would not fit in
/// memory: the ASP Competition's Valves encoding (asptools/benchmarks)
/// has a `#sum` of 68 weights of either sign for each pair of its 34
/// pipes, 183 million nodes: its translation passed 11 GB in 80 s, long
/// after its time limit. With the sums propagated it takes 54 MB. A
/// million nodes are about two million clauses and 300 MB.
pub(crate) const CLAUSE_NODES_AT_MOST: u64 = 1_000_000;

/// Past this many diagram nodes and counter registers in all (about 40
/// million clauses and a few GB), the large sums and choice bounds that
/// must be clauses (varisat's search, `--sums=clauses`, the exact export)
/// are networks of adders or comparators instead ([`super::adder`],
/// [`super::sorting`]): far smaller, but searched worse by CDCL ("1,000 of
/// 2,000" took varisat 140,000 conflicts and 9 s over the network, 0.5 s
/// over the counter).
const WRITTEN_NODES_AT_MOST: u64 = 10_000_000;

fn weights_differ(definition: &AggregateDefinition) -> bool {
    let mut weights = (definition.elements.iter())
        .map(|e| e.value.unsigned_abs())
        .filter(|&w| w > 0);
    let first = weights.next();
    weights.any(|w| Some(w) != first)
}

/// An upper bound on the nodes of the interval diagram of a sum's guards:
/// per bound `k` asked (`Σ ≥ k`, weights made positive), each of its
/// levels (an element, or a set of elements at most one of which holds)
/// has at most `min(k, total − k + 1)` intervals, where `total` is the
/// greatest sum.
fn diagram_size(definition: &AggregateDefinition, exclusive: &ExclusiveSets<AtomId>) -> u64 {
    let weights: Vec<(i64, Option<AtomId>)> = (definition.elements.iter())
        .map(|e| match &e.conditions[..] {
            [condition] if e.value > 0 && condition.neg().is_empty() => match condition.pos()[..] {
                [atom] => (e.value, Some(atom)),
                _ => (e.value, None),
            },
            _ => (e.value, None),
        })
        .collect();
    let levels = exclusive.levels(&weights, |(_, atom)| atom);
    let total: u64 = (levels.iter())
        .map(|level| {
            level
                .iter()
                .map(|(w, _)| w.unsigned_abs())
                .max()
                .unwrap_or(0)
        })
        .sum();
    let shift: i64 = (definition.elements.iter()).map(|e| e.value.min(0)).sum();
    let nodes = |k: i64| {
        let k = k - shift;
        if k <= 0 || k as u64 > total {
            0
        } else {
            levels.len() as u64 * (k as u64).min(total - k as u64 + 1)
        }
    };
    (definition.parts().iter())
        .map(|&(op, bound)| match op {
            CmpOp::Ge => nodes(bound),
            CmpOp::Le => nodes(bound + 1),
            _ => nodes(bound) + nodes(bound + 1),
        })
        .sum()
}

/// `lit ↔ Σ weight·term ≥ bound`, over literals of the CNF, with positive
/// weights and `0 < bound ≤ Σ weight`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReifiedSum {
    pub lit: Lit,
    pub terms: Vec<(Lit, u64)>,
    pub bound: u64,
}

/// A weight constraint `guard → Σ weight·lit ≥ bound`.
pub type Implication = (Lit, Vec<(Lit, u64)>, i64);

impl ReifiedSum {
    /// The sum as two weight constraints, each guarded by a literal:
    /// `lit → Σ w·x ≥ bound`, and `¬lit → Σ w·x ≤ bound − 1`, that is
    /// `¬lit → Σ w·¬x ≥ total − bound + 1`.
    pub fn implications(&self) -> [Implication; 2] {
        let total: u64 = self.terms.iter().map(|&(_, w)| w).sum();
        let negated = self.terms.iter().map(|&(l, w)| (!l, w)).collect();
        [
            (self.lit, self.terms.clone(), self.bound as i64),
            (!self.lit, negated, (total - self.bound + 1) as i64),
        ]
    }

    /// Whether `lit` has the sum's truth under an assignment (by literal).
    pub fn holds(&self, value: impl Fn(Lit) -> bool) -> bool {
        let sum: u64 = (self.terms.iter())
            .filter(|&&(l, _)| value(l))
            .map(|&(_, w)| w)
            .sum();
        value(self.lit) == (sum >= self.bound)
    }
}

/// Reified `Σ wᵢ·xᵢ ≥ k` for any `k`: a fresh variable per bound, each
/// with its [`ReifiedSum`]; constant where the bound decides it.
pub(crate) struct NativeSum {
    sum: PositiveTerms,
    by_bound: FxHashMap<u64, Cond>,
    reified: Vec<ReifiedSum>,
}

impl NativeSum {
    pub(crate) fn new(weighted: &[(Cond, i64)]) -> NativeSum {
        NativeSum {
            sum: PositiveTerms::new(weighted),
            by_bound: FxHashMap::default(),
            reified: Vec::new(),
        }
    }

    /// The sums defined so far, in the order they were asked for.
    pub(crate) fn into_reified(self) -> Vec<ReifiedSum> {
        self.reified
    }
}

impl AtLeast for NativeSum {
    fn at_least<S: ExtendFormula>(&mut self, k: i64, gates: &mut Gates<S>) -> Cond {
        let bound = match self.sum.bound(k) {
            Ok(bound) => bound,
            Err(constant) => return constant,
        };
        if let Some(&cond) = self.by_bound.get(&bound) {
            return cond;
        }
        let lit = gates.sink.new_var().positive();
        self.reified.push(ReifiedSum {
            lit,
            terms: self.sum.terms.clone(),
            bound,
        });
        self.by_bound.insert(bound, Cond::Lit(lit));
        Cond::Lit(lit)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::Rng;
    use varisat_formula::{CnfFormula, Var};

    /// For random weights (negative, zero, certain and impossible elements
    /// among them) and every bound from below the least sum to above the
    /// greatest, under every assignment of the inputs: the condition of
    /// each bound, with its variable set by its reified sum, is the sum's
    /// truth; and each reified sum's two implications hold exactly when
    /// its variable has the sum's truth.
    #[test]
    fn native_sums_mean_their_bounds() {
        let mut rng = Rng::new(25);
        for _ in 0..300 {
            let mut formula = CnfFormula::new();
            let n = 1 + rng.below(5);
            let weighted: Vec<(Cond, i64)> = (0..n)
                .map(|_| {
                    let cond = match rng.below(8) {
                        0 => Cond::True,
                        1 => Cond::False,
                        _ => Cond::Lit(formula.new_var().lit(rng.chance(70))),
                    };
                    (cond, rng.below(9) as i64 - 4)
                })
                .collect();
            let inputs = formula.var_count();
            let mut sum = NativeSum::new(&weighted);
            let least: i64 = weighted.iter().map(|&(_, w)| w.min(0)).sum();
            let greatest: i64 = weighted.iter().map(|&(_, w)| w.max(0)).sum();
            let bounds: Vec<(i64, Cond)> = (least - 1..=greatest + 1)
                .map(|k| (k, sum.at_least(k, &mut Gates { sink: &mut formula })))
                .collect();
            assert_eq!(formula.len(), 0, "no clause");
            let reified = sum.into_reified();
            for assignment in 0u32..1 << inputs {
                let input = |v: Var| assignment >> v.index() & 1 == 1;
                let value = |c: Cond| c.value(input);
                let total: i64 = weighted
                    .iter()
                    .filter(|(c, _)| value(*c))
                    .map(|(_, w)| w)
                    .sum();
                // Each fresh variable set as its reified sum says.
                let defined = |l: Lit| {
                    if l.index() < inputs {
                        input(l.var()) == l.is_positive()
                    } else {
                        let r = reified.iter().find(|r| r.lit.var() == l.var()).unwrap();
                        let sum: u64 = (r.terms.iter())
                            .filter(|(t, _)| input(t.var()) == t.is_positive())
                            .map(|(_, w)| w)
                            .sum();
                        (sum >= r.bound) == l.is_positive()
                    }
                };
                for &(k, cond) in &bounds {
                    let truth = match cond {
                        Cond::Lit(l) => defined(l),
                        c => value(c),
                    };
                    assert_eq!(truth, total >= k, "{weighted:?} k {k} {assignment:b}");
                }
                for r in &reified {
                    let flipped = |l: Lit| defined(l) != (l.var() == r.lit.var());
                    for (guard, terms, bound) in r.implications() {
                        let sum: u64 = (terms.iter())
                            .filter(|&&(l, _)| defined(l))
                            .map(|(_, w)| w)
                            .sum();
                        assert!(!defined(guard) || sum as i64 >= bound);
                        assert!(!flipped(guard) || (sum as i64) < bound);
                    }
                }
            }
        }
    }
}
