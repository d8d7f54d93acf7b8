//! The forms of lparse and gringo 3 that clingo's grammar lacks, and DLV's
//! built-ins: literal sets `{ a, not b }` and weighted literal lists
//! `[ a = 2, not b ]` (in body and head aggregates and `#minimize`), a
//! weighted literal as a cost tuple, and the names of DLV's built-in
//! predicates, which bodies skip as unsupported.
//!
//! Invariant: each literal of a set or list is an element whose tuple ends
//! with the literal itself (`TupleEnd::Literal`), so distinct literals of
//! equal weight count apart, as in lparse.

use super::heads::comparison_tuple;
use super::lexer::K;
use super::literals::{Alternatives, Read, comparison, product};
use super::{PResult, Parser};
use crate::syntax::ast::{
    AggregateElement, BodyElement, Literal, Naf, OptimizeElement, Term, TermKind, TupleEnd,
};

/// An lparse literal of `#minimize[..]` or `#minimize{..}` (an element of
/// [`Parser::literal_elements`]) as a cost tuple: its weight (1 when none is
/// given), then its atom and polarity, so that distinct literals count
/// apart.
pub(super) fn weighted_literal(element: AggregateElement) -> OptimizeElement {
    let weight = element.terms.first().cloned().unwrap_or(Term {
        kind: TermKind::Integer(1),
        span: element.span,
    });
    let mut terms = Vec::new();
    if let Some(Literal::Atom { naf, atom }) = element.condition.first() {
        let polarity = 2 * (*naf as i32) + i32::from(atom.strong_negation);
        terms.push(atom.term.clone());
        terms.push(Term {
            kind: TermKind::Integer(polarity),
            span: atom.span,
        });
    }
    OptimizeElement {
        weight,
        priority: None,
        terms,
        condition: element
            .condition
            .into_iter()
            .map(BodyElement::Literal)
            .collect(),
        per_instance: false,
        span: element.span,
    }
}

/// DLV built-in predicates such as `#int(X)`, skipped as unsupported.
pub(super) const DLV_BUILTINS: &[&str] = &["#int", "#succ", "#prec", "#mod", "#rand", "#absdiff"];

impl Parser<'_> {
    /// Whether the braces ahead hold lparse's literals `{ a, not b, -c }`
    /// rather than clingo's cost tuples: no `:` or `@`, and every element
    /// starts like an atom (clingo would ignore such tuples, whose weights
    /// are not integers).
    pub(super) fn literal_set_ahead(&self) -> bool {
        let mut depth = 0usize;
        let mut element_start = true;
        for index in self.pos + 1.. {
            let kind = self.peek_at(index);
            match kind {
                K::LParen | K::LBrace | K::LBrack => depth += 1,
                K::RParen | K::RBrack => depth = depth.saturating_sub(1),
                K::RBrace if depth == 0 => return true,
                K::RBrace => depth -= 1,
                K::Colon | K::At if depth == 0 => return false,
                K::Dot | K::Eof | K::Error => return false,
                _ => {}
            }
            if element_start {
                let starts_atom = match kind {
                    K::Ident | K::Not => true,
                    K::Minus => self.peek_at(index + 1) == K::Ident,
                    _ => false,
                };
                if !starts_atom {
                    return false;
                }
            }
            element_start = depth == 0 && matches!(kind, K::Comma | K::Semi)
                || (element_start && kind == K::Not);
        }
        false
    }

    /// Whether, in a gringo 3 file, the braces ahead hold literals (`{ a(X)
    /// : p(X), b }`, which gringo 3 counts), not clingo's tuples (`{ X :
    /// p(X) }`, `{ 1@2,a : b; c }`): the first element starts like an atom,
    /// and no `;` or `@` stands between the braces. gringo 3 has no tuples
    /// there, so `:` after the literal is its condition.
    pub(super) fn gringo3_literal_set_ahead(&self) -> bool {
        let starts_atom = match self.peek_at(self.pos + 1) {
            K::Ident | K::Not | K::RBrace => true,
            K::Minus => self.peek_at(self.pos + 2) == K::Ident,
            _ => false,
        };
        if !self.gringo3 || !starts_atom {
            return false;
        }
        let mut depth = 0usize;
        for index in self.pos + 1.. {
            match self.peek_at(index) {
                K::LParen | K::LBrace | K::LBrack => depth += 1,
                K::RBrace if depth == 0 => return true,
                K::RParen | K::RBrace | K::RBrack => depth = depth.saturating_sub(1),
                K::Semi | K::At if depth == 0 => return false,
                K::Dot | K::Eof | K::Error => return false,
                _ => {}
            }
        }
        false
    }

    /// The conditions of a weighted literal after its colon, and gringo 3's
    /// weight after them (`l : c1 : c2 = w`). gringo 3 compares with `==`
    /// and assigns only a variable with `=`, so the `=` after an atom or a
    /// comparison ends the conditions, and the weight follows it.
    fn weighted_condition(&mut self) -> PResult<(Alternatives, Option<Term>, usize)> {
        let mut alternatives = vec![Vec::new()];
        loop {
            if let Some(last) = self.condition_before_weight() {
                alternatives = self.and(alternatives, Read::Literal(last));
                let weight = self.term()?;
                return Ok((alternatives, Some(weight), self.prev_end()));
            }
            let read = self.literal()?;
            alternatives = self.and(alternatives, read);
            if !self.condition_goes_on(self.gringo3) {
                return Ok((alternatives, None, self.prev_end()));
            }
        }
    }

    /// The literal ahead and the `=` after it, both read, where the literal
    /// is an atom (under `not`s) or a comparison `t1 op t2` other than `=`;
    /// otherwise nothing is read.
    fn condition_before_weight(&mut self) -> Option<Literal> {
        let (first, depth) = (self.pos, self.depth);
        let literal = self.literal_before_weight(first);
        match literal {
            Some(_) => {
                self.bump(); // =
            }
            None => (self.pos, self.depth) = (first, depth),
        }
        literal
    }

    fn literal_before_weight(&mut self, first: usize) -> Option<Literal> {
        let naf = self.naf();
        let atom_first = self.pos;
        let lhs = self.term().ok()?;
        if self.at(K::Eq) {
            let atom = self.to_atom(atom_first, lhs)?;
            return Some(Literal::Atom { naf, atom });
        }
        let op = comparison(self.peek()).filter(|_| naf == Naf::Positive)?;
        self.bump();
        let rhs = self.term().ok()?;
        self.at(K::Eq).then(|| Literal::Comparison {
            naf,
            span: self.span(self.token(first).start, self.prev_end()),
            lhs,
            op,
            rhs,
        })
    }

    /// A literal set `{ l : c; .. }` (`;` or, without conditions, `,`
    /// between elements) or, `weighted`, lparse's `[ l = w, .. ]`, where an
    /// omitted weight is 1.
    pub(super) fn literal_elements(&mut self, weighted: bool) -> PResult<Vec<AggregateElement>> {
        let close = if weighted { K::RBrack } else { K::RBrace };
        if weighted {
            self.gringo3_construct();
        }
        self.bump(); // { or [
        let mut elements = Vec::new();
        let mut index = 0;
        loop {
            if self.eat(close).is_some() {
                return Ok(elements);
            }
            let start = self.tok().start;
            let mut read = if weighted {
                // `a = 2` is an atom and its weight, not a comparison.
                let naf = self.naf();
                let first = self.pos;
                let term = self.term()?;
                let atom = self.to_atom(first, term).ok_or_else(|| self.unexpected())?;
                Read::Literal(Literal::Atom { naf, atom })
            } else {
                self.literal()?
            };
            // An atom or a comparison starts the element's condition, and
            // the grounder ends the tuple with it (a comparison counts once
            // per distinct ground comparison); a chain has its own tuple,
            // and so has `#true` or `#false` (each counts once, as clingo
            // counts `{ #true; #true }` as 2).
            let (mut terms, tuple_end) = match &mut read {
                Read::Chain(chain) => {
                    self.bind_ends(chain);
                    let tuple = comparison_tuple(index, chain.terms(), chain.span);
                    (tuple, TupleEnd::PoolCopy)
                }
                Read::Literal(Literal::Boolean { span, .. }) if !weighted => {
                    let tuple = comparison_tuple(index, std::iter::empty(), *span);
                    (tuple, TupleEnd::PoolCopy)
                }
                // lparse's weighted literals are atoms.
                Read::Literal(Literal::Boolean { .. }) => return Err(self.unexpected()),
                Read::Literal(_) => (Vec::new(), TupleEnd::Literal),
            };
            let weight = match weighted && self.eat(K::Eq).is_some() {
                true => Some(self.term()?),
                false => None,
            };
            let (conditions, weight, end) = match weight {
                None if weighted && self.eat(K::Colon).is_some() => self.weighted_condition()?,
                _ => {
                    let (conditions, end) = self.optional_condition(self.prev_end() as u32)?;
                    (conditions, weight, end)
                }
            };
            if weighted {
                terms.push(weight.unwrap_or_else(|| Term {
                    kind: TermKind::Integer(1),
                    span: self.span(start, start),
                }));
            }
            let conditional = conditions.iter().any(|c| !c.is_empty());
            let span = self.span(start, end);
            let conditions = product(read.alternatives(), &conditions);
            elements.extend(conditions.into_iter().map(|condition| AggregateElement {
                terms: terms.clone(),
                condition,
                tuple_end,
                span,
            }));
            index += 1;
            match self.peek() {
                K::Semi => {
                    self.bump();
                }
                K::Comma if !conditional || weighted || self.gringo3 => {
                    self.bump();
                }
                k if k == close => {}
                _ => return Err(self.expected(if weighted { "] or ," } else { "} or ;" })),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::syntax::parser::print::*;

    #[test]
    fn a_file_with_gringo3_constructs_reads_pools_and_commas_as_gringo3() {
        // Without one, clingo's reading: argument lists pooled, a body's
        // pool a disjunction, `,` joining condition literals.
        check(
            "p(a, b;c). q :- s(X;Y), r(X,Y). { a(X) : p(X), q(X) }.",
            "pool[p(a,b);p(c)]. q :- pool[s(X);s(Y)], r(X,Y). choice[]{a(X):p(X),q(X)}.",
        );
        // `#hide.` marks the file: pools of terms, conjunctions in bodies
        // and conditions, `,` between elements and `:` between a
        // condition's literals.
        check(
            "#hide. p(a, b;c). q :- s(X;Y), r(X,Y). { a(X) : p(X) : q(X), b }. \
             t :- u(X) : v(X;Y), w.",
            "#hide. p(a,pool[b;c]). q :- s(X), s(Y), r(X,Y). choice[]{a(X):p(X),q(X); b}. \
             t :- [u(X):v(X),v(Y)], w.",
        );
    }

    #[test]
    fn gringo3_shows_atoms_that_hold() {
        check(
            "#show p(X) : q(X). #show -r(X).",
            "#show p(X) : q(X). #show neg(r(X)) : .",
        );
        check(
            "#hide. #show p(X) : q(X). #show -r(X).",
            "#hide. #show p(X) : q(X), p(X). #show neg(r(X)) : -r(X).",
        );
    }

    #[test]
    fn booleans_in_a_literal_set_count_each_for_itself() {
        check(
            "a :- { #true; #true; not #false : b; c } >= 2.",
            "a :- #count{0:#true;1:#true;2:not #false,b;#lit:c}>=2.",
        );
    }

    #[test]
    fn a_weighted_literals_conditions_end_at_a_comma() {
        check(
            "s :- 2 [ a : b, c = 2, d : e : f = 3 ] 4.",
            "s :- #sum{1,#lit:a,b;2,#lit:c;3,#lit:d,e,f}>=2<=4.",
        );
    }

    #[test]
    fn gringo3_operators_and_weights_after_conditions() {
        check(
            "p(X) :- X = #abs(-3) + 7 #mod 3 + #div(7,2) + 2 #pow 3.",
            "p(X) :- X=(((|-3|+(7\\3))+(7/2))+(2**3)).",
        );
        check(
            "#minimize [ x(I) : c(I,C) = C ]. s(S) :- S = #sum [ x(I) : c(I,C) : C > 3 = 3 ].",
            "#minimize{C,x(I),0 : x(I), c(I,C)}. s(S) :- #sum{3,#lit:x(I),c(I,C),C>3}=S.",
        );
    }
}
