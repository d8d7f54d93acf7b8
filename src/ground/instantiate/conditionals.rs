//! Conditional literals and conditional disjuncts, ground: a body `l : c`
//! holds when `l` holds for every instance of `c` (with implication atoms
//! `#impl(k)` when `c` is recursive), and the disjuncts `a : c` of one atom
//! share an auxiliary atom `#disjunct(k)`.

use super::join::{ElementPlan, Step};
use super::{Exec, Output};
use crate::diagnostics::Span;
use crate::ground::compiled::{CAggregate, CLit};
use crate::ground::program::{AggregateValue, AtomId, Body, Head, WeightedElement};
use crate::symbols::SymId;
use crate::syntax::ast::{CmpOp, Naf};
use rustc_hash::FxHashMap;

impl Exec<'_> {
    /// Grounds a conditional literal `l : c` as `#sum{1,i : l; 1,i : not
    /// c_i...} >= n` over its `n` instances whose `l` is not certain: each
    /// instance holds when `l` does or a literal of its `c` does not. A pool
    /// in `l` gives the instance one `l` per term, any of which will do (as
    /// in clingo: `:- q(1,A;2,A) : d(A).` needs `q(1,a) | q(2,a)` for each
    /// `A`); an instance is its variables' values with its condition.
    pub(super) fn conditional(
        &mut self,
        aggregate: &CAggregate,
        plans: &[ElementPlan<'_>],
        steps: &[Step<'_>],
        k: usize,
        leaf: &mut dyn FnMut(&mut Self),
    ) {
        let (pos_base, neg_base) = (self.pos.len(), self.neg.len());
        // Per instance: `None` once some `l` of it is certain, else the
        // conditions under which one holds.
        let mut instances: FxHashMap<(SymId, Body), Option<Vec<Body>>> = FxHashMap::default();
        let mut order: Vec<(SymId, Body)> = Vec::new();
        for (element, plan) in aggregate.elements.iter().zip(plans) {
            self.run(&plan.condition, 0, &mut |exec| {
                let Some(tuple) = exec.tuple(&element.terms) else {
                    return;
                };
                let condition = exec.body(pos_base, neg_base);
                // The bodies under which `l` holds: `None` when it is
                // certain, none when it never holds.
                let literal: Option<Vec<Body>> = match &plan.unless {
                    // `l` binds variables of its own (`p(X) : #true`): the
                    // disjunction of its instances, as in clingo.
                    Some((_, matches)) if element.literal_binds => {
                        let mark = (exec.pos.len(), exec.neg.len());
                        let mut bodies = Some(Vec::new());
                        exec.run(matches, 0, &mut |exec| {
                            let body = exec.body(mark.0, mark.1);
                            if body.is_empty() {
                                bodies = None; // a fact: `l` is certain
                            } else if let Some(bodies) = &mut bodies {
                                bodies.push(body);
                            }
                        });
                        bodies
                    }
                    // `l` never holds: `#false`, or a literal with an
                    // undefined term (`p(1+a)`, `not p(1+a)`), which clingo
                    // takes as false.
                    None => Some(Vec::new()),
                    Some((CLit::Neg(atom) | CLit::Pos(atom), _))
                        if exec.atom_symbol(atom).is_none() =>
                    {
                        Some(Vec::new())
                    }
                    Some((CLit::Cmp(_, lhs, rhs), _))
                        if lhs.eval(exec.symbols, &exec.env).is_none()
                            || rhs.eval(exec.symbols, &exec.env).is_none() =>
                    {
                        Some(Vec::new())
                    }
                    // `not l` grounded: no body when it cannot hold (`l` is
                    // certain), an empty one when it is certain.
                    Some((_, unless)) => {
                        let (pos_mark, neg_mark) = (exec.pos.len(), exec.neg.len());
                        let mut found = None;
                        exec.run(unless, 0, &mut |exec| {
                            found = Some(exec.body(pos_mark, neg_mark))
                        });
                        found.map(|not_literal| match not_literal.is_empty() {
                            true => Vec::new(),
                            // `l = not not a` under `not a` open: `not a'`.
                            false if element.literal_double_negated => {
                                let complements: Vec<AtomId> = (not_literal.neg().iter())
                                    .map(|&a| {
                                        AtomId(exec.negations.atom(exec.symbols, exec.atoms, a.0))
                                    })
                                    .collect();
                                vec![Body::from_slices(&[], &complements)]
                            }
                            false => {
                                vec![Body::from_slices(not_literal.neg(), not_literal.pos())]
                            }
                        })
                    }
                };
                let key = (tuple, condition);
                let entry = instances.entry(key.clone()).or_insert_with(|| {
                    order.push(key);
                    Some(Vec::new())
                });
                match (literal, entry) {
                    (None, entry) => *entry = None,
                    (Some(bodies), Some(literals)) => literals.extend(bodies),
                    (Some(_), None) => {}
                }
            });
        }
        if aggregate.implication && self.heads_only.is_none() {
            let mark = self.pos.len();
            for key in order {
                // `None`: some `l` of the instance is certain.
                let Some(mut literal) = instances.remove(&key).flatten() else {
                    continue;
                };
                let (_, condition) = key;
                literal.sort();
                literal.dedup();
                if literal.is_empty() && condition.is_empty() {
                    self.pos.truncate(mark);
                    return; // a certain condition and no `l` that can hold
                }
                let key = (literal, condition);
                let atom = (self.implications).atom(
                    self.symbols,
                    self.atoms,
                    self.negations,
                    key,
                    aggregate.span,
                );
                self.pos.push(atom);
            }
            self.run(steps, k + 1, leaf);
            self.pos.truncate(mark);
            return;
        }
        let mut elements: Vec<WeightedElement> = Vec::new();
        for key in order {
            let Some(mut conditions) = instances.remove(&key).flatten() else {
                continue;
            };
            let (_, condition) = key;
            conditions.extend(
                condition
                    .pos()
                    .iter()
                    .map(|&p| Body::from_slices(&[], &[p])),
            );
            conditions.extend(
                condition
                    .neg()
                    .iter()
                    .map(|&n| Body::from_slices(&[n], &[])),
            );
            if conditions.is_empty() {
                // A certain condition and no literal that can hold.
                return;
            }
            conditions.sort();
            conditions.dedup();
            elements.push(WeightedElement {
                value: 1,
                conditions,
            });
        }
        elements.sort_by(|a, b| a.conditions.cmp(&b.conditions));
        elements.dedup();
        let guards = vec![(CmpOp::Ge, elements.len() as i64)];
        let key = Some((AggregateValue::Sum, elements.into(), guards));
        self.aggregate_literal(aggregate, Naf::Positive, key, steps, k, leaf);
    }

    /// The atom `d` standing for the disjunct `atom : c1 | .. | atom : cn`
    /// whose conditions are not certain, defined by `d ↔ atom ∧ (c1 ∨ .. ∨
    /// cn)`: the first time, per condition `c` the rules `atom :- d, c.` and
    /// `d :- c, atom.`, and `:- d, not l1, .., not ln.` for every choice of
    /// one literal `li` of each `ci`.
    pub(super) fn conditional_disjunct(
        &mut self,
        atom: u32,
        conditions: &[Body],
        span: Span,
        output: &mut Output,
    ) -> AtomId {
        let (d, new) = self
            .disjuncts
            .atom(self.symbols, self.atoms, atom, conditions);
        if new {
            let (atom, d) = (AtomId(atom), AtomId(d));
            for condition in conditions {
                // The condition is a positive dependency of the atom, as in
                // clingo (`p : q. q :- p.` has no answer set).
                let support = condition.and(&Body::from_slices(&[d], &[]));
                output.rule(Head::Atom(atom), (support.pos(), support.neg()), span);
                let definition = condition.and(&Body::from_slices(&[atom], &[]));
                output.rule(Head::Atom(d), (definition.pos(), definition.neg()), span);
            }
            let mut violations = vec![Body::from_slices(&[d], &[])];
            for condition in conditions {
                let falsified: Vec<Body> = (condition.neg().iter())
                    .map(|&n| Body::from_slices(&[n], &[]))
                    .chain(
                        condition
                            .pos()
                            .iter()
                            .map(|&p| Body::from_slices(&[], &[p])),
                    )
                    .collect();
                violations = (violations.iter())
                    .flat_map(|v| falsified.iter().map(move |f| v.and(f)))
                    .filter(|v| !v.pos().iter().any(|p| v.neg().contains(p)))
                    .collect();
            }
            for violation in violations {
                output.rule(Head::Constraint, (violation.pos(), violation.neg()), span);
            }
        }
        AtomId(d)
    }
}
