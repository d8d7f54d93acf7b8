//! Head forms: each head is rewritten into the few that instantiation
//! knows (a disjunction of atoms, possibly conditional; a choice with
//! guards `<`, `<=`, `=`, `>=`, `>`; a constraint; a `#show` term).
//!
//! Input: an AST head and body. Output: rules over those heads only: a
//! head aggregate, a choice with a `!=` bound or a negated element becomes
//! a choice and a constraint with a body aggregate; a negated disjunct
//! moves into the body (`not not`); a comparison in a head moves into the
//! body negated; `#true` and `#false` disjuncts are decided.

use super::super::compile::{Compiler, RuleHead};
use super::atom_literal;
use crate::diagnostics::Span;
use crate::syntax::ast::{
    self, AggregateFunction, Atom, BodyElement, Head, Literal, Naf, Term, TupleEnd,
};

impl Compiler<'_> {
    /// `:- B, not #agg{ t : a, c; .. } guards.` for the
    /// `(t, tuple_end, a, c, span)` of `elements`.
    pub fn require_aggregate<'e>(
        &mut self,
        function: AggregateFunction,
        elements: impl Iterator<Item = (Vec<Term>, TupleEnd, Naf, &'e Atom, &'e [Literal], Span)>,
        guards: &[ast::Guard],
        aggregate_span: Span,
        body: &[BodyElement],
        span: Span,
    ) {
        let elements = elements
            .map(
                |(terms, tuple_end, naf, atom, condition, element_span)| ast::AggregateElement {
                    terms,
                    tuple_end,
                    condition: std::iter::once(atom_literal(naf, atom))
                        .chain(condition.iter().cloned())
                        .collect(),
                    span: element_span,
                },
            )
            .collect();
        let aggregate = ast::Aggregate {
            naf: Naf::Not,
            function,
            elements,
            guards: guards.to_vec(),
            span: aggregate_span,
        };
        let mut constraint_body = body.to_vec();
        constraint_body.push(BodyElement::Aggregate(aggregate));
        self.compile(RuleHead::Ast(&Head::Constraint), &constraint_body, span);
    }
}
