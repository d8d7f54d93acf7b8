//! Safety: which variables the literals of a compiled rule bind, in the
//! grounder's order of evaluation, and clingo's located error for each place
//! with unsafe variables.
//!
//! Input: a compiled rule with numbered variables. Output: nothing changed;
//! `Err` with one diagnostic per unsafe place (the rule, or a body
//! aggregate for the variables of its elements' own), in clingo's order.

use super::compiled::{CHead, CLit, CRule};
use super::eval::CTerm;
use super::lower::Scope;
use crate::diagnostics::{Diagnostic, Span};
use crate::syntax::ast::CmpOp;
use rustc_hash::{FxHashMap, FxHashSet};

/// Whether the grounder can evaluate `literal` once `bound` are bound: a
/// positive atom once matching can bind all of its arguments' variables
/// that arithmetic hides, a comparison once both sides are bound or it is
/// an `=` that binds one side from the other.
pub fn placeable(literal: &CLit, bound: &[bool]) -> bool {
    match literal {
        CLit::Pos(atom) => atom.args.iter().all(|a| a.inputs_bound(bound)),
        CLit::Neg(atom) | CLit::NotNot(atom) => atom.args.iter().all(|a| a.is_bound(bound)),
        CLit::Cmp(op, l, r) => {
            let (lb, rb) = (l.is_bound(bound), r.is_bound(bound));
            (lb && rb)
                || (*op == CmpOp::Eq
                    && ((rb && l.inputs_bound(bound)) || (lb && r.inputs_bound(bound))))
        }
        CLit::Interval(_, lo, hi) => lo.is_bound(bound) && hi.is_bound(bound),
        CLit::Aggregate(aggregate) => aggregate.inputs.iter().all(|&v| bound[v]),
    }
}

/// Marks what the literals bind in the grounder's order of evaluation (see
/// `instantiate`'s planning): a positive atom only once all its arguments'
/// inputs are bound. Returns which literals could be placed.
pub fn placeable_fixpoint(literals: &[CLit], bound: &mut [bool]) -> Vec<bool> {
    let mut placed = vec![false; literals.len()];
    loop {
        let mut changed = false;
        for (literal, placed) in literals.iter().zip(&mut placed) {
            if *placed {
                continue;
            }
            if placeable(literal, bound) {
                *placed = true;
                bind_step(literal, bound);
                changed = true;
            }
        }
        if !changed {
            return placed;
        }
    }
}

/// One error per place with unsafe variables: the rule, or a body
/// aggregate or conditional literal for variables of its elements' own
/// (clingo's locations).
pub fn check_safety(
    rule: &CRule,
    scope: &Scope,
    global: &FxHashSet<usize>,
) -> Result<(), Vec<Diagnostic>> {
    let mut bound = vec![false; rule.num_vars];
    bind_fixpoint(&rule.body, &mut bound);
    // Each unsafe variable, with the span of the place it is unsafe in.
    let mut unsafe_vars: FxHashMap<usize, Span> = FxHashMap::default();
    let mut require = |term: &CTerm, bound: &[bool], span: Span| {
        term.for_each_var(&mut |v| {
            if !bound[v] {
                let place = if global.contains(&v) { rule.span } else { span };
                unsafe_vars.entry(v).or_insert(place);
            }
        })
    };
    for literal in &rule.body {
        literal_terms(literal, &mut |t| require(t, &bound, rule.span));
        if let CLit::Aggregate(aggregate) = literal {
            // The elements see the variables the rest of the body binds, not
            // one that only this aggregate's assignment binds, nor one of the
            // rule's that only the element binds (clingo: `C` is unsafe in
            // `C = #count{ X : a(X), a(C) }`).
            let others: Vec<CLit> = (rule.body.iter())
                .filter(|other| !std::ptr::eq(*other, literal))
                .cloned()
                .collect();
            let mut outer = vec![false; rule.num_vars];
            bind_fixpoint(&others, &mut outer);
            for element in &aggregate.elements {
                let mut local = outer.clone();
                bind_fixpoint(&element.condition, &mut local);
                if element.literal_binds {
                    bind_fixpoint(element.unless.as_slice(), &mut local);
                    bind_fixpoint(&element.literal_bindings, &mut local);
                }
                for &v in global {
                    local[v] &= outer[v];
                }
                let literals = element.condition.iter().chain(&element.unless);
                for literal in literals.chain(&element.literal_bindings) {
                    literal_terms(literal, &mut |t| require(t, &local, aggregate.span));
                }
                (element.terms.iter()).for_each(|t| require(t, &local, aggregate.span));
            }
        }
    }
    match &rule.head {
        CHead::Constraint => {}
        CHead::ShowTerm(t) => require(t, &bound, rule.span),
        CHead::External(input) => {
            (input.atom.args.iter()).for_each(|t| require(t, &bound, rule.span))
        }
        CHead::Disjunction(elements) | CHead::Choice { elements, .. } => {
            if let CHead::Choice { guards, .. } = &rule.head {
                guards
                    .iter()
                    .for_each(|(_, t)| require(t, &bound, rule.span));
            }
            for element in elements {
                let mut local = bound.clone();
                bind_fixpoint(&element.condition, &mut local);
                for literal in &element.condition {
                    literal_terms(literal, &mut |t| require(t, &local, rule.span));
                }
                (element.atom.args.iter()).for_each(|t| require(t, &local, rule.span));
            }
        }
    }
    if unsafe_vars.is_empty() {
        return Ok(());
    }
    let mut vars: Vec<(usize, Span)> = unsafe_vars.into_iter().collect();
    // clingo's order: the last place first, the rule (which starts first)
    // last, and the variables of one place by name.
    vars.sort_by(|&(v, place), &(w, other)| {
        (other.start.cmp(&place.start))
            .then_with(|| scope.first[v].0.cmp(&scope.first[w].0))
            .then(v.cmp(&w))
    });
    let mut errors: Vec<Diagnostic> = Vec::new();
    for (v, place) in vars {
        if errors.last().is_none_or(|error| error.span != place) {
            errors.push(Diagnostic::error(place, "unsafe variables in:").about(rule.span));
        }
        let (name, span) = &scope.first[v];
        let shown = if name.starts_with("#anon") {
            "_"
        } else if ["#range", "#arith", "#bound"]
            .iter()
            .any(|p| name.starts_with(p))
        {
            continue;
        } else {
            name
        };
        let error = errors.pop().expect("pushed");
        errors.push(error.with_note(*span, format!("'{shown}' is unsafe")));
    }
    Err(errors)
}

pub fn literal_terms(literal: &CLit, f: &mut impl FnMut(&CTerm)) {
    match literal {
        CLit::Pos(a) | CLit::Neg(a) | CLit::NotNot(a) => a.args.iter().for_each(f),
        CLit::Cmp(_, l, r) => {
            f(l);
            f(r);
        }
        CLit::Interval(p, l, h) => {
            f(p);
            f(l);
            f(h);
        }
        // The elements have their own scopes; see `check_safety`.
        CLit::Aggregate(aggregate) => aggregate.guards.iter().for_each(|(_, t)| f(t)),
    }
}

/// Marks every variable the literals bind, in any order, until nothing
/// changes.
pub fn bind_fixpoint(literals: &[CLit], bound: &mut [bool]) {
    loop {
        let mut changed = false;
        for literal in literals {
            changed |= bind_step(literal, bound);
        }
        if !changed {
            return;
        }
    }
}

/// Binds what one literal binds given `bound`; returns whether anything new
/// was bound.
pub fn bind_step(literal: &CLit, bound: &mut [bool]) -> bool {
    let mut changed = false;
    let mut bind = |pattern: &CTerm, bound: &mut [bool]| {
        if pattern.inputs_bound(bound) {
            pattern.for_each_matchable_var(&mut |v| {
                if !bound[v] {
                    bound[v] = true;
                    changed = true;
                }
            });
        }
    };
    match literal {
        CLit::Pos(atom) => atom.args.iter().for_each(|a| bind(a, bound)),
        CLit::Cmp(CmpOp::Eq, l, r) => {
            if r.is_bound(bound) {
                bind(l, bound);
            } else if l.is_bound(bound) {
                bind(r, bound);
            }
        }
        CLit::Interval(p, lo, hi) => {
            if lo.is_bound(bound) && hi.is_bound(bound) {
                bind(p, bound);
            }
        }
        CLit::Aggregate(aggregate) => {
            if let Some(v) = aggregate.assigns
                && !bound[v]
                && aggregate.inputs.iter().all(|&i| bound[i])
            {
                bound[v] = true;
                changed = true;
            }
        }
        CLit::Neg(_) | CLit::NotNot(_) | CLit::Cmp(..) => {}
    }
    changed
}
