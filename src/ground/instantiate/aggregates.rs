//! Ground aggregates: the elements of a body aggregate under one binding
//! of its inputs, as a set (equal tuples once), simplified: an aggregate
//! the facts decide is true or false, an undecided one an atom `#agg(k)`
//! with its definition, one instance per value an assignment can take.

use super::Exec;
use super::auxiliary::AggregateKey;
use super::join::{ElementPlan, Step};
use crate::ground::assignments::sums_with;
use crate::ground::compiled::{CAggregate, CHead};
use crate::ground::eval::CTerm;
use crate::ground::program::{AggregateValue, Body, Elements, WeightedElement, absorb_certain};
use crate::symbols::{SymId, SymbolData, SymbolTable};
use crate::syntax::ast::AggregateFunction;
use crate::syntax::ast::{CmpOp, Naf};
use rustc_hash::FxHashMap;
use std::cmp::Ordering;

impl Exec<'_> {
    /// The tuple of an aggregate element's terms under the current binding;
    /// `None` when one is undefined.
    pub(super) fn tuple(&mut self, terms: &[CTerm]) -> Option<SymId> {
        let values = terms
            .iter()
            .map(|t| t.eval(self.symbols, &self.env))
            .collect::<Option<Vec<SymId>>>()?;
        Some(self.symbols.function("", &values, false))
    }

    /// In [`Mode::HeadsOnly`], whether every atom the rule instance can
    /// derive is known to be derived already.
    pub(super) fn heads_known(&mut self) -> bool {
        let Some(CHead::Disjunction(disjuncts)) = self.heads_only else {
            return false;
        };
        disjuncts.iter().all(|d| {
            d.condition.is_empty()
                && self
                    .atom_symbol(&d.atom)
                    .and_then(|sym| self.atoms.find(sym))
                    .is_some_and(|a| self.atoms.defined[a as usize])
        })
    }

    /// Grounds a body aggregate under the current binding: its elements,
    /// its guards, and then the rest of the body once per value it can take
    /// (an assignment) or once (a check). An aggregate decided by what
    /// grounding knows is dropped (true) or drops the instance (false);
    /// otherwise an aggregate atom stands for it.
    pub(super) fn aggregate(
        &mut self,
        aggregate: &CAggregate,
        plans: &[ElementPlan<'_>],
        steps: &[Step<'_>],
        k: usize,
        leaf: &mut dyn FnMut(&mut Self),
    ) {
        if aggregate.conditional {
            return self.conditional(aggregate, plans, steps, k, leaf);
        }
        let (pos_base, neg_base) = (self.pos.len(), self.neg.len());
        let mut found: Vec<(SymId, Body)> = Vec::new();
        for (element, plan) in aggregate.elements.iter().zip(plans) {
            self.run(&plan.condition, 0, &mut |exec| {
                // An undefined term drops the element.
                let Some(tuple) = exec.tuple(&element.terms) else {
                    return;
                };
                found.push((tuple, exec.body(pos_base, neg_base)));
            });
        }
        let mut guards = Vec::with_capacity(aggregate.guards.len());
        for (op, term) in &aggregate.guards {
            if let CTerm::Var(v) = term
                && aggregate.assigns == Some(*v)
            {
                continue;
            }
            match term.eval(self.symbols, &self.env) {
                Some(value) => guards.push((*op, value)),
                None => return, // an undefined guard drops the instance
            }
        }
        let Some(ground) = GroundAggregate::new(self.symbols, aggregate.function, found) else {
            return;
        };
        match aggregate.assigns {
            None => {
                let key = ground.with_guards(self.symbols, &guards);
                self.aggregate_literal(aggregate, aggregate.naf, key, steps, k, leaf)
            }
            Some(var) => {
                // The values are weights or the empty set's value, which
                // every weighing ranks.
                let bounds: Vec<SymId> = guards.iter().map(|&(_, bound)| bound).collect();
                let weighed = ground.weighed(self.symbols, &bounds);
                for value in ground.possible_values(self.symbols) {
                    guards.push((CmpOp::Eq, value));
                    self.env[var] = Some(value);
                    let key = weighed.with_guards(self.symbols, &guards);
                    self.aggregate_literal(aggregate, Naf::Positive, key, steps, k, leaf);
                    self.env[var] = None;
                    guards.pop();
                }
            }
        }
    }

    /// Continues with the ground aggregate `key` under `naf` in the body
    /// (`None`: its guards can never hold).
    pub(super) fn aggregate_literal(
        &mut self,
        aggregate: &CAggregate,
        naf: Naf,
        key: Option<AggregateKey>,
        steps: &[Step<'_>],
        k: usize,
        leaf: &mut dyn FnMut(&mut Self),
    ) {
        // `not not` holds when the aggregate does.
        let negated = naf == Naf::Not;
        let Some((value, elements, guards)) = key else {
            // A guard no value can satisfy (`#count{..} > a`).
            if negated {
                self.run(steps, k + 1, leaf);
            }
            return;
        };
        match decide(value, &elements, &guards) {
            Some(holds) => {
                if holds != negated {
                    self.run(steps, k + 1, leaf);
                }
            }
            None if self.heads_only.is_some() => self.run(steps, k + 1, leaf),
            None => {
                let key = (value, elements, guards);
                let mut atom = self
                    .aggregates
                    .atom(self.symbols, self.atoms, key, aggregate.span);
                // `not not A` is `not A'` with `A' :- not A.`
                if naf == Naf::NotNot {
                    atom = self.negations.atom(self.symbols, self.atoms, atom);
                }
                let negated = naf != Naf::Positive;
                let literals = if negated {
                    &mut self.neg
                } else {
                    &mut self.pos
                };
                literals.push(atom);
                self.run(steps, k + 1, leaf);
                let literals = if negated {
                    &mut self.neg
                } else {
                    &mut self.pos
                };
                literals.pop();
            }
        }
    }
}

/// The elements of one ground aggregate, grouped by tuple: clingo's set
/// semantics, where a tuple counts once whichever conditions produce it.
pub(super) struct GroundAggregate {
    pub(super) function: AggregateFunction,
    /// `(weight, conditions)` per distinct tuple: an integer for sums, any
    /// symbol for `#min` and `#max`.
    pub(super) elements: Vec<(SymId, Vec<Body>)>,
}

impl GroundAggregate {
    /// Groups `found` by tuple and takes each tuple's weight, dropping the
    /// tuples without one (a non-integer weight of a sum, as clingo does).
    pub(super) fn new(
        symbols: &mut SymbolTable,
        function: AggregateFunction,
        mut found: Vec<(SymId, Body)>,
    ) -> Option<GroundAggregate> {
        found.sort_by_key(|(tuple, _)| *tuple);
        let one = symbols.number(1);
        // Per distinct tuple: its weight, if it has one, and its conditions.
        let mut tuples: Vec<(SymId, Option<SymId>, Vec<Body>)> = Vec::new();
        for (tuple, condition) in found {
            if let Some((last, _, conditions)) = tuples.last_mut()
                && *last == tuple
            {
                if !conditions.contains(&condition) {
                    conditions.push(condition);
                }
                continue;
            }
            let first = symbols.args(tuple).first().copied();
            let weight = match function {
                AggregateFunction::Count => Some(one),
                AggregateFunction::Sum => first.filter(|&w| symbols.as_number(w).is_some()),
                AggregateFunction::SumPlus => {
                    first.filter(|&w| symbols.as_number(w).is_some_and(|n| n > 0))
                }
                AggregateFunction::Min | AggregateFunction::Max => first,
            };
            tuples.push((tuple, weight, vec![condition]));
        }
        let mut elements: Vec<(SymId, Vec<Body>)> = tuples
            .into_iter()
            .filter_map(|(_, weight, conditions)| Some((weight?, conditions)))
            .collect();
        for (_, conditions) in &mut elements {
            absorb_certain(conditions);
        }
        Some(GroundAggregate { function, elements })
    }

    pub(super) fn is_sum(&self) -> bool {
        !matches!(
            self.function,
            AggregateFunction::Min | AggregateFunction::Max
        )
    }

    /// The values an assignment `N = #agg{..}` may give `N`: for sums the
    /// sums of the subsets that contain every certain element, for `#min`
    /// and `#max` the weights no certain element beats, and the value of
    /// the empty set when no element is certain.
    pub(super) fn possible_values(&self, symbols: &mut SymbolTable) -> Vec<SymId> {
        if !self.is_sum() {
            // An element that holds for certain bounds the value: a `#min`
            // is at most its weight, a `#max` at least. Only that weight
            // and the better ones of uncertain elements remain, so that
            // `N = #min{ K : node(K), K > M }` over facts takes one value,
            // not one per element, each with an aggregate that is false.
            let better = match self.function {
                AggregateFunction::Min => Ordering::Less,
                _ => Ordering::Greater,
            };
            let certain = (self.elements.iter())
                .filter(|(_, c)| c[0].is_empty())
                .map(|&(w, _)| w)
                .reduce(|best, w| {
                    if symbols.compare(w, best) == better {
                        w
                    } else {
                        best
                    }
                });
            let mut values: Vec<SymId> = match certain {
                Some(bound) => (self.elements.iter())
                    .map(|&(w, _)| w)
                    .filter(|&w| symbols.compare(w, bound) != better.reverse())
                    .collect(),
                None => (self.elements.iter().map(|&(w, _)| w))
                    .chain([self.empty_value(symbols)])
                    .collect(),
            };
            values.sort_unstable();
            values.dedup();
            return values;
        }
        let mut sums = vec![0i64];
        for (weight, conditions) in &self.elements {
            let w = i64::from(symbols.as_number(*weight).expect("integer weights"));
            if conditions[0].is_empty() {
                sums.iter_mut().for_each(|s| *s += w);
            } else {
                sums = sums_with(&sums, w).expect("sums of 32-bit weights");
            }
        }
        sums.into_iter()
            .filter_map(|s| i32::try_from(s).ok())
            .map(|s| symbols.number(s))
            .collect()
    }

    /// `#sup` for `#min`, `#inf` for `#max`: the value of the empty set.
    pub(super) fn empty_value(&self, symbols: &mut SymbolTable) -> SymId {
        match self.function {
            AggregateFunction::Min => symbols.intern(SymbolData::Supremum),
            _ => symbols.intern(SymbolData::Infimum),
        }
    }

    /// The aggregate with integer weights (see [`AggregateValue`]), ready
    /// for guards over `bounds`, its weights and the empty set's value,
    /// the symbols its guards may compare with: the elements are ranked
    /// and merged once for all of them, as an assignment asks for one
    /// guard per value.
    pub(super) fn weighed(&self, symbols: &mut SymbolTable, bounds: &[SymId]) -> Weighed {
        let element = |weight: i64, conditions: &Vec<Body>| WeightedElement {
            value: weight,
            conditions: conditions.clone(),
        };
        if self.is_sum() {
            let elements = self
                .elements
                .iter()
                .map(|(w, c)| element(i64::from(symbols.as_number(*w).expect("integer")), c))
                .collect();
            return Weighed {
                value: AggregateValue::Sum,
                elements: merge_equal_conditions(AggregateValue::Sum, elements).into(),
                ranks: None,
            };
        }
        // Ranks in term order; `#min` becomes `#max` of negated ranks.
        let empty = self.empty_value(symbols);
        let mut ranked: Vec<SymId> = self.elements.iter().map(|(w, _)| *w).collect();
        ranked.extend_from_slice(bounds);
        ranked.push(empty);
        ranked.sort_by(|&a, &b| symbols.compare(a, b).then(a.cmp(&b)));
        ranked.dedup_by(|a, b| symbols.compare(*a, *b) == Ordering::Equal);
        let ranks = Ranks {
            ranked,
            negate: self.function == AggregateFunction::Min,
        };
        let elements = self
            .elements
            .iter()
            .map(|(w, c)| element(ranks.weight(symbols, *w), c))
            .collect();
        let value = AggregateValue::Max {
            empty: ranks.weight(symbols, empty),
        };
        Weighed {
            value,
            elements: merge_equal_conditions(value, elements).into(),
            ranks: Some(ranks),
        }
    }

    /// The aggregate with integer weights and guards (see
    /// [`AggregateValue`]); `None` when a guard can never hold.
    pub(super) fn with_guards(
        &self,
        symbols: &mut SymbolTable,
        guards: &[(CmpOp, SymId)],
    ) -> Option<AggregateKey> {
        let bounds: Vec<SymId> = guards.iter().map(|&(_, bound)| bound).collect();
        self.weighed(symbols, &bounds).with_guards(symbols, guards)
    }
}

/// A ground aggregate with integer weights ([`GroundAggregate::weighed`]).
pub(super) struct Weighed {
    value: AggregateValue,
    /// Shared by the aggregate of every guard (of every value an
    /// assignment may take).
    elements: Elements,
    /// For `#min` and `#max`: the ranks that stand for their symbols.
    ranks: Option<Ranks>,
}

/// The symbols of a `#min` or `#max` (its weights, the value of the empty
/// set and its guards' bounds) in term order: a symbol weighs its rank,
/// negated for `#min`, which becomes a `#max`.
struct Ranks {
    ranked: Vec<SymId>,
    negate: bool,
}

impl Ranks {
    fn weight(&self, symbols: &SymbolTable, symbol: SymId) -> i64 {
        let rank = (self.ranked).partition_point(|&r| symbols.compare(r, symbol) == Ordering::Less);
        if self.negate {
            -(rank as i64)
        } else {
            rank as i64
        }
    }
}

impl Weighed {
    /// The aggregate under `guards`, whose bounds are among those it was
    /// weighed for; `None` when a guard can never hold.
    pub(super) fn with_guards(
        &self,
        symbols: &SymbolTable,
        guards: &[(CmpOp, SymId)],
    ) -> Option<AggregateKey> {
        let integer_guards = match &self.ranks {
            None => {
                let mut integer_guards = Vec::new();
                for &(op, bound) in guards {
                    match symbols.get(bound) {
                        SymbolData::Number(n) => integer_guards.push((op, i64::from(n))),
                        // A sum is above #inf and below every other non-number.
                        other => {
                            let order = if matches!(other, SymbolData::Infimum) {
                                Ordering::Greater
                            } else {
                                Ordering::Less
                            };
                            if !op.holds(order) {
                                return None;
                            }
                        }
                    }
                }
                integer_guards
            }
            Some(ranks) => (guards.iter())
                .map(|&(op, bound)| {
                    let op = if ranks.negate { op.flip() } else { op };
                    (op, ranks.weight(symbols, bound))
                })
                .collect(),
        };
        Some((self.value, self.elements.clone(), integer_guards))
    }
}

/// Elements of distinct tuples that hold under the same conditions hold
/// together, so they are one element: of their summed weight in a sum (and
/// none at all when that is 0), of their greatest weight in a `#max`. This
/// keeps `#sum{-1:a; 1:a} >= 0`, which `a` cannot change, from looking
/// non-monotone, and makes encodings smaller.
pub(super) fn merge_equal_conditions(
    value: AggregateValue,
    elements: Vec<WeightedElement>,
) -> Vec<WeightedElement> {
    let mut merged: Vec<WeightedElement> = Vec::with_capacity(elements.len());
    let mut by_conditions: FxHashMap<Vec<Body>, usize> = FxHashMap::default();
    for element in elements {
        let mut key = element.conditions.clone();
        key.sort_unstable();
        match by_conditions.entry(key) {
            std::collections::hash_map::Entry::Occupied(entry) => {
                let into = &mut merged[*entry.get()];
                into.value = match value {
                    AggregateValue::Sum => into.value + element.value,
                    AggregateValue::Max { .. } => into.value.max(element.value),
                };
            }
            std::collections::hash_map::Entry::Vacant(entry) => {
                entry.insert(merged.len());
                merged.push(element);
            }
        }
    }
    if value == AggregateValue::Sum {
        merged.retain(|element| element.value != 0);
    }
    merged
}

/// Whether the aggregate holds whichever undecided elements hold: `Some`
/// when every value between the least and the greatest it can take
/// satisfies the guards, or none does.
pub(super) fn decide(
    value: AggregateValue,
    elements: &[WeightedElement],
    guards: &[(CmpOp, i64)],
) -> Option<bool> {
    let certain = |e: &&WeightedElement| e.conditions[0].is_empty();
    let (lo, hi) = match value {
        AggregateValue::Sum => {
            let base: i64 = elements.iter().filter(certain).map(|e| e.value).sum();
            let undecided = elements.iter().filter(|e| !certain(e));
            let down: i64 = undecided.clone().map(|e| e.value.min(0)).sum();
            let up: i64 = undecided.map(|e| e.value.max(0)).sum();
            (base + down, base + up)
        }
        AggregateValue::Max { empty } => {
            let lo = elements
                .iter()
                .filter(certain)
                .map(|e| e.value)
                .max()
                .unwrap_or(empty);
            let hi = elements
                .iter()
                .map(|e| e.value)
                .max()
                .unwrap_or(empty)
                .max(lo);
            (lo, hi)
        }
    };
    let mut all_hold = true;
    for &(op, bound) in guards {
        let at_lo = op.holds(lo.cmp(&bound));
        let at_hi = op.holds(hi.cmp(&bound));
        let always = match op {
            CmpOp::Eq => lo == hi && lo == bound,
            CmpOp::Ne => bound < lo || bound > hi,
            _ => at_lo && at_hi,
        };
        let never = match op {
            CmpOp::Eq => bound < lo || bound > hi,
            CmpOp::Ne => lo == hi && lo == bound,
            _ => !at_lo && !at_hi,
        };
        if never {
            return Some(false);
        }
        all_hold &= always;
    }
    all_hold.then_some(true)
}
