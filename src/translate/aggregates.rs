//! Body aggregates: each aggregate atom is defined by an equivalence with
//! its aggregate, `a ↔ guards hold for the value of the true elements`.
//!
//! - An element is true when one of its conditions is (a Tseitin
//!   disjunction of the condition bodies).
//! - Sums (and counts) reduce every guard to reified constraints
//!   `Σ wᵢ·eᵢ ≥ k`, all guards of one aggregate sharing one interval BDD
//!   ([`super::bdd::SumAtLeast`]).
//! - `#max` (and `#min`, as the greatest negated rank) reduces every guard
//!   to "some element with weight ≥ k is true".
//!
//! An aggregate atom that is not on a positive cycle is supported like a
//! choice atom, by the empty body, its truth fixed by the equivalence. One
//! on a cycle ([`RecursiveAggregate`]) is a node of the positive
//! dependency graph: it depends on the atoms of its elements whose truth
//! can only raise it, and the unfounded-set check, loop formulas and level
//! ranking see it through [`RecursiveAggregate::holds`] and
//! [`RecursiveAggregate::restricted`].

use super::adder::SumAdder;
use super::bdd::SumAtLeast;
use super::encoding::AtLeast;
use super::exclusive::ExclusiveSets;
use super::gates::Gates;
use super::native_sums::{NativeSum, ReifiedSum};
use super::sorting::SortingNetwork;
use super::{BodyId, Cond, Translation};
use crate::ground::program::{AggregateDefinition, AggregateValue, AtomId, Direction};
use crate::syntax::ast::CmpOp;
use rustc_hash::FxHashMap;
use varisat_formula::{ExtendFormula, Lit};

/// How a sum is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum SumForm {
    /// As the clauses of an interval diagram ([`SumAtLeast`]).
    Diagram,
    /// As the clauses of a sorting network (equal weights) or of adders,
    /// where the diagram would be too large to write
    /// ([`super::native_sums::CLAUSE_NODES_AT_MOST`]).
    Network,
    /// Left to the search ([`NativeSum`]).
    Native,
}

impl SumForm {
    /// Left to the search where `native`, else a network where `network`
    /// (the diagram or counter too large), else a diagram or counter.
    pub(crate) fn of(native: bool, network: bool) -> SumForm {
        match (native, network) {
            (true, _) => SumForm::Native,
            (false, true) => SumForm::Network,
            (false, false) => SumForm::Diagram,
        }
    }
}

/// The sums defined so far in one sink, by their weighted elements: sums
/// over the same elements share one diagram or network (or one
/// [`NativeSum`]), whatever their bounds.
pub struct SharedSums<'e> {
    /// The diagrams' levels where the elements allow.
    exclusive: &'e ExclusiveSets,
    clauses: FxHashMap<Vec<(Cond, i64)>, ClauseSum>,
    /// The sums left to the search, in the order first asked for, and
    /// each one's index by its elements.
    native: Vec<NativeSum>,
    native_of: FxHashMap<Vec<(Cond, i64)>, usize>,
}

/// One sum written as clauses.
enum ClauseSum {
    Diagram(SumAtLeast),
    Network(SortingNetwork),
    Adder(SumAdder),
}

/// One sum's encoding.
enum SumEncoder<'s> {
    Clauses(&'s mut ClauseSum),
    Native(&'s mut NativeSum),
}

impl SumEncoder<'_> {
    fn at_least<S: ExtendFormula>(&mut self, k: i64, gates: &mut Gates<S>) -> Cond {
        match self {
            SumEncoder::Clauses(ClauseSum::Diagram(sum)) => sum.at_least(k, gates),
            SumEncoder::Clauses(ClauseSum::Network(sum)) => sum.at_least(k, gates),
            SumEncoder::Clauses(ClauseSum::Adder(sum)) => sum.at_least(k, gates),
            SumEncoder::Native(sum) => sum.at_least(k, gates),
        }
    }
}

impl<'e> SharedSums<'e> {
    /// Sums whose diagrams are over `exclusive`'s sets where they can be.
    pub(crate) fn new(exclusive: &'e ExclusiveSets) -> SharedSums<'e> {
        SharedSums {
            exclusive,
            clauses: FxHashMap::default(),
            native: Vec::new(),
            native_of: FxHashMap::default(),
        }
    }

    /// The sum over `weighted` in `form`; as clauses, in the form first
    /// asked of those elements (every bound shares them).
    fn of(&mut self, weighted: &[(Cond, i64)], form: SumForm) -> SumEncoder<'_> {
        if form == SumForm::Native {
            let index = *(self.native_of.entry(weighted.to_vec())).or_insert_with(|| {
                self.native.push(NativeSum::new(weighted));
                self.native.len() - 1
            });
            return SumEncoder::Native(&mut self.native[index]);
        }
        let sum = (self.clauses.entry(weighted.to_vec())).or_insert_with(|| match form {
            SumForm::Network => match SortingNetwork::over_equal_weights(weighted) {
                Some(network) => ClauseSum::Network(network),
                None => ClauseSum::Adder(SumAdder::new(weighted)),
            },
            _ => ClauseSum::Diagram(SumAtLeast::over_sets(weighted, self.exclusive)),
        });
        SumEncoder::Clauses(sum)
    }

    /// The sums left to the search, each bound once.
    pub fn into_native(self) -> Vec<ReifiedSum> {
        (self.native.into_iter())
            .flat_map(NativeSum::into_reified)
            .collect()
    }
}

/// Defines `atom` by its aggregate, given the truth of each element; a sum
/// written in `form`.
pub(crate) fn define_aggregate<S: ExtendFormula>(
    definition: &AggregateDefinition,
    atom: Lit,
    elements: &[Cond],
    form: SumForm,
    sums: &mut SharedSums<'_>,
    sink: &mut S,
) {
    let mut gates = Gates { sink };
    let weighted: Vec<(Cond, i64)> = elements
        .iter()
        .zip(definition.elements.iter())
        .map(|(&cond, element)| (cond, element.value))
        .collect();
    match aggregate_holds(
        definition.value,
        &definition.guards,
        &weighted,
        (sums, form),
        &mut gates,
    ) {
        Cond::True => gates.sink.add_clause(&[atom]),
        Cond::False => gates.sink.add_clause(&[!atom]),
        Cond::Lit(l) => {
            gates.sink.add_clause(&[!atom, l]);
            gates.sink.add_clause(&[atom, !l]);
        }
    }
}

/// The condition that every guard holds for the value of `weighted`
/// (each element's truth and weight); a sum written in the form `sums.1`.
pub(crate) fn aggregate_holds<S: ExtendFormula>(
    value: AggregateValue,
    guards: &[(CmpOp, i64)],
    weighted: &[(Cond, i64)],
    sums: (&mut SharedSums<'_>, SumForm),
    gates: &mut Gates<S>,
) -> Cond {
    let mut holds = Vec::with_capacity(guards.len());
    match value {
        AggregateValue::Sum => {
            let mut sum = sums.0.of(weighted, sums.1);
            for &(op, bound) in guards {
                let mut at_least = |k: i64, gates: &mut Gates<S>| sum.at_least(k, gates);
                holds.push(compare(op, bound, &mut at_least, gates));
            }
        }
        AggregateValue::Max { empty } => {
            for &(op, bound) in guards {
                // max ≥ k: an element of weight ≥ k is true, or none is
                // and the empty set's value is ≥ k.
                let mut at_least = |k: i64, gates: &mut Gates<S>| {
                    let heavy: Vec<Cond> = weighted
                        .iter()
                        .filter(|(_, w)| *w >= k)
                        .map(|(c, _)| *c)
                        .collect();
                    let any_heavy = gates.or(&heavy);
                    if empty >= k {
                        let none: Vec<Cond> = weighted.iter().map(|(c, _)| !*c).collect();
                        let all_false = gates.and(&none);
                        gates.or(&[any_heavy, all_false])
                    } else {
                        any_heavy
                    }
                };
                holds.push(compare(op, bound, &mut at_least, gates));
            }
        }
    }
    gates.and(&holds)
}

/// An aggregate atom on a cycle of the positive dependency graph.
///
/// Its guards are split into parts that each move one way per element
/// ([`AggregateDefinition::parts`]). Under the Ferraris reduct (the
/// semantics of clingo, Gebser et al., "Abstract Gringo", TPLP 2015) a
/// part that only rises with the recursive atoms of its elements holds in
/// the reduct's derivation when it holds over the atoms derived so far;
/// atoms in elements that can only lower it, and negated atoms, are taken
/// from the candidate model. Translation refuses a part that both rises
/// and falls with atoms of the aggregate's own component.
#[derive(Clone, Debug)]
pub(crate) struct RecursiveAggregate {
    pub(crate) definition: AggregateDefinition,
    /// Per part: its guard and each element's direction.
    pub(crate) parts: Vec<((CmpOp, i64), Vec<Direction>)>,
    /// Per element: its condition bodies.
    pub(crate) conditions: Vec<Vec<BodyId>>,
}

impl RecursiveAggregate {
    pub(crate) fn new(definition: &AggregateDefinition, conditions: Vec<Vec<BodyId>>) -> Self {
        let parts = definition
            .parts()
            .into_iter()
            .map(|(op, bound)| {
                let directions = definition
                    .elements
                    .iter()
                    .map(|e| definition.direction(op, e))
                    .collect();
                ((op, bound), directions)
            })
            .collect();
        RecursiveAggregate {
            definition: definition.clone(),
            parts,
            conditions,
        }
    }

    pub(crate) fn atom(&self) -> AtomId {
        self.definition.atom
    }

    /// The positive atoms of element conditions that can raise some part:
    /// the aggregate atom's successors in the positive dependency graph.
    pub(crate) fn rising_atoms<'t>(
        &'t self,
        translation: &'t Translation,
    ) -> impl Iterator<Item = AtomId> + 't {
        self.conditions
            .iter()
            .zip(self.element_rises())
            .filter(|(_, rises)| *rises)
            .flat_map(move |(bodies, _)| bodies.iter())
            .flat_map(move |&b| translation.body_pos(b).iter().copied())
    }

    /// Per element: whether it can raise some part.
    pub(crate) fn element_rises(&self) -> impl Iterator<Item = bool> + '_ {
        (0..self.conditions.len()).map(|e| self.parts.iter().any(|(_, d)| d[e] == Direction::Up))
    }

    /// Whether every part holds when the atoms of rising elements have the
    /// truth `rising` and all others their truth in `model`.
    pub(crate) fn holds(
        &self,
        translation: &Translation,
        model: &[bool],
        rising: impl Fn(AtomId) -> bool,
    ) -> bool {
        self.parts.iter().all(|&(part, ref directions)| {
            self.definition.part_holds(part, |e, _| {
                self.conditions[e].iter().any(|&body| {
                    let positive = |p: &AtomId| match directions[e] {
                        Direction::Up => rising(*p),
                        _ => model[p.index()],
                    };
                    translation.body_pos(body).iter().all(positive)
                        && !translation.body_neg(body).iter().any(|n| model[n.index()])
                })
            })
        })
    }

    /// The condition that every part holds when each positive atom `p` of
    /// a rising element's condition also requires `restrict(p)`.
    pub(crate) fn restricted<S: ExtendFormula>(
        &self,
        translation: &Translation,
        gates: &mut Gates<S>,
        restrict: impl FnMut(AtomId, &mut Gates<S>) -> Cond,
    ) -> Cond {
        let body_cond = |body| translation.body_cond(body);
        self.restricted_with(translation, body_cond, false, gates, restrict)
    }

    /// [`Self::restricted`] with each condition body's truth given by
    /// `body_cond` (its value in a model, for a search of its own), and
    /// with `every_element` the positive atoms of every element restricted:
    /// the Ferraris reduct of the aggregate over the restricted atoms, for
    /// an aggregate that its own atoms both raise and lower.
    pub(crate) fn restricted_with<S: ExtendFormula>(
        &self,
        translation: &Translation,
        body_cond: impl Fn(BodyId) -> Cond,
        every_element: bool,
        gates: &mut Gates<S>,
        mut restrict: impl FnMut(AtomId, &mut Gates<S>) -> Cond,
    ) -> Cond {
        let mut parts = Vec::with_capacity(self.parts.len());
        for &(part, ref directions) in &self.parts {
            let mut weighted = Vec::with_capacity(self.conditions.len());
            for ((bodies, element), direction) in self
                .conditions
                .iter()
                .zip(self.definition.elements.iter())
                .zip(directions)
            {
                let mut alternatives = Vec::with_capacity(bodies.len());
                for &body in bodies {
                    let mut conjuncts = vec![body_cond(body)];
                    if every_element || *direction == Direction::Up {
                        for &p in translation.body_pos(body) {
                            conjuncts.push(restrict(p, gates));
                        }
                    }
                    alternatives.push(gates.and(&conjuncts));
                }
                weighted.push((gates.or(&alternatives), element.value));
            }
            parts.push(aggregate_holds(
                self.definition.value,
                &[part],
                &weighted,
                (
                    &mut SharedSums::new(&ExclusiveSets::default()),
                    SumForm::Diagram,
                ),
                gates,
            ));
        }
        gates.and(&parts)
    }
}

/// `value op bound` in terms of the monotone `value ≥ k` (integers).
fn compare<S: ExtendFormula>(
    op: CmpOp,
    bound: i64,
    at_least: &mut impl FnMut(i64, &mut Gates<S>) -> Cond,
    gates: &mut Gates<S>,
) -> Cond {
    match op {
        CmpOp::Ge => at_least(bound, gates),
        CmpOp::Gt => at_least(bound + 1, gates),
        CmpOp::Le => !at_least(bound + 1, gates),
        CmpOp::Lt => !at_least(bound, gates),
        CmpOp::Eq => {
            let (low, high) = (at_least(bound, gates), at_least(bound + 1, gates));
            gates.and(&[low, !high])
        }
        CmpOp::Ne => {
            let (low, high) = (at_least(bound, gates), at_least(bound + 1, gates));
            gates.or(&[!low, high])
        }
    }
}
