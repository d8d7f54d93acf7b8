//! Optimization statements: clingo's `#minimize{ w@p, t : c }` and weak
//! constraints `:~ body. [w@p, t]`, lparse's `#minimize[ l = w ]` and
//! literal sets, DLV's `[w:l]`.
//!
//! Invariant: every form becomes `StatementKind::Optimize` with cost
//! tuples; a DLV weak constraint's tuple is marked per instance (each
//! ground instance pays), and an omitted weight or level is 1.

use super::dialects::weighted_literal;
use super::lexer::K;
use super::{PResult, Parser};
use crate::syntax::ast::{
    BodyElement, Literal, OptimizeElement, Statement, StatementKind, Term, TermKind,
};

impl Parser<'_> {
    /// `#minimize{ w@p, t.. : c; .. }.` (or `#maximize`), lparse's
    /// `#minimize[ l = w, .. ].` and its set of literals `#minimize{ l, ..
    /// }.`, each literal of weight 1.
    pub(super) fn optimize(&mut self, start: usize, maximize: bool) -> PResult<Statement> {
        self.bump();
        let elements = match self.peek() {
            K::LBrack => self.literal_elements(true)?,
            K::LBrace if self.gringo3_literal_set_ahead() || self.literal_set_ahead() => {
                self.literal_elements(false)?
            }
            K::LBrace => {
                let elements = self.optimize_elements()?;
                return self.finish(start, StatementKind::Optimize { maximize, elements });
            }
            _ => return Err(self.expected("{")),
        };
        let elements = elements.into_iter().map(weighted_literal).collect();
        self.finish(start, StatementKind::Optimize { maximize, elements })
    }

    /// `{ w@p, t1, .., tk : l1, .., lm; .. }` of `#minimize`.
    fn optimize_elements(&mut self) -> PResult<Vec<OptimizeElement>> {
        self.braced_elements(|parser, start| {
            let (weight, priority, terms) = parser.cost_tuple()?;
            let (conditions, end) = parser.clingo_condition(parser.prev_end() as u32)?;
            let span = parser.span(start, end);
            let element = |condition: Vec<Literal>| OptimizeElement {
                weight: weight.clone(),
                priority: priority.clone(),
                terms: terms.clone(),
                condition: condition.into_iter().map(BodyElement::Literal).collect(),
                per_instance: false,
                span,
            };
            Ok(conditions.into_iter().map(element).collect())
        })
    }

    /// `w@p, t1, .., tk` (`@p` and the terms optional).
    fn cost_tuple(&mut self) -> PResult<(Term, Option<Term>, Vec<Term>)> {
        let weight = self.term()?;
        let priority = match self.eat(K::At) {
            Some(_) => Some(self.term()?),
            None => None,
        };
        let mut terms = Vec::new();
        while self.eat(K::Comma).is_some() {
            terms.push(self.term()?);
        }
        Ok((weight, priority, terms))
    }

    /// `:~ body. [w@p, t..]`, or DLV's `[w:l]`, `[w:]` and `[:l]` (weight
    /// and level 1 when omitted).
    pub(super) fn weak_constraint(&mut self, start: usize) -> PResult<Statement> {
        self.bump(); // :~
        let body = if self.at(K::Dot) {
            Vec::new()
        } else {
            self.body()?
        };
        self.expect(K::Dot, ".")?;
        self.expect(K::LBrack, "[")?;
        let at = self.tok().start;
        let (weight, priority, terms, per_instance) = if self.eat(K::Colon).is_some() {
            (self.one(at), Some(self.term()?), Vec::new(), true)
        } else {
            let (weight, priority, terms) = self.cost_tuple()?;
            if priority.is_none() && terms.is_empty() && self.eat(K::Colon).is_some() {
                let level = if self.at(K::RBrack) {
                    self.one(self.tok().start)
                } else {
                    self.term()?
                };
                (weight, Some(level), terms, true)
            } else {
                (weight, priority, terms, false)
            }
        };
        let close = self.expect(K::RBrack, "]")?;
        let span = self.span(start, close.end);
        Ok(Statement {
            kind: StatementKind::Optimize {
                maximize: false,
                elements: vec![OptimizeElement {
                    weight,
                    priority,
                    terms,
                    condition: body,
                    per_instance,
                    span,
                }],
            },
            span,
        })
    }

    /// The integer 1 that an omitted weight or level stands for, at `at`.
    pub(super) fn one(&self, at: usize) -> Term {
        Term {
            kind: TermKind::Integer(1),
            span: self.span(at, at),
        }
    }
}

#[cfg(test)]
mod tests {

    use crate::diagnostics::FileId;
    use crate::syntax::parser::print::*;

    use crate::syntax::parser::parse_program;

    #[test]
    fn optimize_statements_in_every_dialect() {
        check(
            "
            :~ p(X). [X@1, X]
            :~ a, not b. [2]
            :~ a. [1:2]
            :~ a. [3:]
            :~ a. [:2]
            #minimize{X : p(X)}.
            #maximize{X@2 : p(X), not q; 1,a : q; 3}.
            #minimize [a = 1, not b = 2, c].
            #maximize { a, -b, not c }.
            ",
            "
            #minimize{X@1,X : p(X)}.
            #minimize{2 : a, not b}.
            #minimize{1@2,#each : a}.
            #minimize{3@1,#each : a}.
            #minimize{1@2,#each : a}.
            #minimize{X : p(X)}.
            #maximize{X@2 : p(X), not q; 1,a : q; 3 : }.
            #minimize{1,a,0 : a; 2,b,2 : not b; 1,c,0 : c}.
            #maximize{1,a,0 : a; 1,b,1 : -b; 1,c,2 : not c}.
            ",
        );
        // clingo's tuple `a` (not an integer weight, so ignored), and in a
        // gringo 3 file its literal `a` under the condition `b`.
        check("#minimize { a : b }.", "#minimize{a : b}.");
        check(
            "#hide. #minimize { a : b }.",
            "#hide. #minimize{1,a,0 : a, b}.",
        );
        let (statements, diagnostics) = parse_program(":~ p(X). [X@1]\n a.", FileId(0));
        assert!(diagnostics.is_empty());
        assert_eq!((statements[0].span.start, statements[0].span.end), (0, 14));
        check(
            "#minimize{1@ : a}. :~ a. [1@2 b] ok. #maximize a. ok.",
            "
            ok.
            error 13..14: syntax error, unexpected :
            error 30..31: syntax error, unexpected <IDENTIFIER>, expecting ]
            error 47..48: syntax error, unexpected <IDENTIFIER>, expecting {
            ",
        );
    }
}
