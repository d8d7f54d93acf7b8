//! Unpooling a rule's body, as clingo reads pools ([`crate::syntax::pools`]).
//!
//! Input: AST with pools (`p(1;2)`, `(a;b)+1`, pooled guards). Output: the
//! alternatives, in clingo's order, none with a pool: pools in a rule's
//! body and head atoms make copies of the rule, pools in an element
//! (of an aggregate or choice, a condition) more elements.

use super::conditional::conditional_as_aggregate;
use crate::ground::compile::{BodyItem, Compiler};
use crate::syntax::ast::BodyElement;
use crate::syntax::pools::{product, unpool_aggregate, unpool_literal};

impl Compiler<'_> {
    /// The pool-free versions of a rule's body: pools in the body expand
    /// into rule copies, pools inside an aggregate's elements into more
    /// elements; `None` (with the error reported) for an unsupported element.
    pub fn unpooled_bodies(&mut self, body: &[BodyElement]) -> Option<Vec<Vec<BodyItem>>> {
        let mut bodies: Vec<Vec<BodyItem>> = vec![Vec::new()];
        for element in body {
            let alternatives: Vec<BodyItem> = match element {
                BodyElement::Literal(l) => unpool_literal(l)
                    .into_iter()
                    .map(BodyItem::Literal)
                    .collect(),
                BodyElement::Aggregate(a) => unpool_aggregate(a)
                    .into_iter()
                    .map(BodyItem::Aggregate)
                    .collect(),
                BodyElement::Conditional {
                    literal,
                    condition,
                    span,
                } => unpool_aggregate(&conditional_as_aggregate(literal, condition, *span))
                    .into_iter()
                    .map(BodyItem::Conditional)
                    .collect(),
                BodyElement::Unsupported { what, span } => {
                    self.unsupported(*span, what);
                    return None;
                }
            };
            bodies = product(&bodies, &alternatives);
        }
        Some(bodies)
    }
}
