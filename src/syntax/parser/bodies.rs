//! Rule bodies: literals, conditional literals (`l : c`), body aggregates
//! in clingo's, lparse's and DLV's forms, and the constructs asp2sat
//! reads but does not support (theory atoms, `#avg` and the like, DLV's
//! built-ins), kept as `BodyElement::Unsupported` for a located refusal
//! later.
//!
//! Invariant: a guard on the left of an aggregate is flipped to stand on
//! its right (`1 < #count{..}` is `#count{..} > 1`), so every aggregate's
//! guards read as `aggregate op term`.

use super::dialects::DLV_BUILTINS;
use super::lexer::K;
use super::literals::{Read, comparison};
use super::{PResult, Parser};
use crate::syntax::ast::{
    Aggregate, AggregateElement, AggregateFunction, BinaryOp, BodyElement, CmpOp, Guard, Literal,
    MAXINT, Naf, Term, TermKind, TupleEnd,
};

impl Parser<'_> {
    pub(super) fn body(&mut self) -> PResult<Vec<BodyElement>> {
        let mut elements = Vec::new();
        if self.at(K::Dot) {
            return Ok(elements);
        }
        loop {
            self.body_element(&mut elements)?;
            match self.peek() {
                K::Comma | K::Semi => {
                    self.bump();
                }
                K::Dot => return Ok(elements),
                _ => return Err(self.unexpected()),
            }
        }
    }

    /// DLV's `#int(t)` (`t` is an integer from 0 to `#maxint`) as `t =
    /// 0..#maxint`, and `#succ(s, t)` (`t` follows `s`) as `s = 0..#maxint,
    /// t = s+1`, where the grounder keeps `s+1` within `#maxint`.
    fn dlv_range(&mut self, start: usize) -> PResult<Vec<Literal>> {
        let token = self.bump();
        let count = if self.text(token) == "#succ" { 2 } else { 1 };
        let mut args = self.builtin_arguments(count)?.into_iter();
        let (first, second) = (args.next().expect("one argument"), args.next());
        let span = self.span(start, self.prev_end());
        let at = |kind| Term { kind, span };
        let range = at(TermKind::Interval(
            Box::new(at(TermKind::Integer(0))),
            Box::new(at(TermKind::Constant(MAXINT.to_owned()))),
        ));
        let equal = |lhs, rhs| Literal::Comparison {
            naf: Naf::Positive,
            lhs,
            op: CmpOp::Eq,
            rhs,
            span,
        };
        let mut literals = vec![equal(first.clone(), range)];
        if let Some(next) = second {
            let one = Box::new(at(TermKind::Integer(1)));
            literals.push(equal(
                next,
                at(TermKind::Binary(BinaryOp::Add, Box::new(first), one)),
            ));
        }
        Ok(literals)
    }

    /// DLV's built-ins written as predicates: `+(X,Y,Z)` is `Z = X+Y`,
    /// `*(X,Y,Z)` is `Z = X*Y`, and `<(X,Y)` (every comparison) is `X < Y`.
    /// `None`, reading nothing, where no such built-in is ahead.
    fn dlv_prefix_builtin(&mut self, naf: Naf, start: usize) -> PResult<Option<Literal>> {
        let arithmetic = match self.peek() {
            K::Plus => Some(BinaryOp::Add),
            K::Star => Some(BinaryOp::Mul),
            _ => None,
        };
        let Some(op) = comparison(self.peek()).or(arithmetic.map(|_| CmpOp::Eq)) else {
            return Ok(None);
        };
        self.bump();
        let mut args = self.builtin_arguments(if arithmetic.is_some() { 3 } else { 2 })?;
        let span = self.span(start, self.prev_end());
        let rhs = args.pop().expect("two or three arguments");
        let (lhs, rhs) = match arithmetic {
            Some(operation) => {
                let right = Box::new(args.pop().expect("three arguments"));
                let left = Box::new(args.pop().expect("three arguments"));
                (
                    rhs,
                    Term {
                        kind: TermKind::Binary(operation, left, right),
                        span,
                    },
                )
            }
            None => (args.pop().expect("two arguments"), rhs),
        };
        Ok(Some(Literal::Comparison {
            naf,
            lhs,
            op,
            rhs,
            span,
        }))
    }

    /// `(t1, .., tn)`: the `count` arguments of a DLV built-in.
    fn builtin_arguments(&mut self, count: usize) -> PResult<Vec<Term>> {
        self.expect(K::LParen, "(")?;
        let mut args = Vec::with_capacity(count);
        for i in 0..count {
            if i > 0 {
                self.expect(K::Comma, ",")?;
            }
            args.push(self.term()?);
        }
        self.expect(K::RParen, ")")?;
        Ok(args)
    }

    /// Reads one element of a body into `body`: a chain of comparisons
    /// adds one literal per comparison (see [`Read::into_body`]), and a
    /// conditional literal one per alternative of its condition.
    fn body_element(&mut self, body: &mut Vec<BodyElement>) -> PResult<()> {
        let start = self.tok().start;
        let naf = self.naf();
        if self.aggregate_at(self.pos) {
            body.push(self.body_aggregate(start, naf, None)?);
            return Ok(());
        }
        if self.at(K::Amp) {
            self.skip_theory_atom()?;
            body.push(BodyElement::Unsupported {
                what: "theory atoms".to_owned(),
                span: self.span(start, self.prev_end()),
            });
            return Ok(());
        }
        if naf == Naf::Positive && self.is_directive(&["#int", "#succ"]) {
            body.extend(self.dlv_range(start)?.into_iter().map(BodyElement::Literal));
            return Ok(());
        }
        if self.peek_at(self.pos + 1) == K::LParen
            && let Some(literal) = self.dlv_prefix_builtin(naf, start)?
        {
            body.push(BodyElement::Literal(literal));
            return Ok(());
        }
        if self.is_directive(DLV_BUILTINS) {
            self.bump();
            if self.at(K::LParen) {
                self.skip_balanced(K::RParen, ")")?;
            }
            body.push(BodyElement::Unsupported {
                what: "DLV built-in predicates".to_owned(),
                span: self.span(start, self.prev_end()),
            });
            return Ok(());
        }
        let read = match self.boolean(naf, start) {
            Some(literal) => Read::Literal(literal),
            None => {
                let first = self.pos;
                let term = self.term()?;
                let guarded = comparison(self.peek()).is_some() && self.aggregate_at(self.pos + 1);
                if guarded || self.aggregate_at(self.pos) {
                    // `t op #agg{..}` is `#agg{..} op' t`; lparse's bare
                    // `1 {..}` is a lower bound.
                    let op = match comparison(self.peek()) {
                        Some(op) => {
                            self.bump();
                            op.flip()
                        }
                        None => CmpOp::Ge,
                    };
                    body.push(self.body_aggregate(start, naf, Some(Guard { op, term }))?);
                    return Ok(());
                }
                self.finish_literal(naf, start, first, term)?
            }
        };
        if self.eat(K::Colon).is_none() {
            match self.gringo3_conjuncts(&read) {
                Some(conjuncts) => body.extend(conjuncts.into_iter().map(BodyElement::Literal)),
                None => self.body_elements(read, body),
            }
            return Ok(());
        }
        let conditions = self.condition()?;
        let span = self.span(start, self.prev_end());
        self.conditionals(read, conditions, span, body)
    }

    /// A body aggregate at the current token, with its right guard:
    /// `#count{ t : l; .. }` (clingo, DLV), a literal set `{ l : c; .. }`
    /// (clingo, lparse), or a weighted literal list `[ l = w, .. ]` (lparse,
    /// gringo 3, also after `#sum`, `#min`, `#max`).
    fn body_aggregate(
        &mut self,
        start: usize,
        naf: Naf,
        left: Option<Guard>,
    ) -> PResult<BodyElement> {
        let function = match self.aggregate_function()? {
            Ok(function) => function,
            Err(what) => {
                self.skip_aggregate_rest()?;
                return Ok(BodyElement::Unsupported {
                    what,
                    span: self.span(start, self.prev_end()),
                });
            }
        };
        let (function, elements) = match (function, self.peek()) {
            // gringo 3's `#count{ l : c, .. }` counts literals, as `{ .. }`.
            (Some(AggregateFunction::Count), K::LBrace) if self.gringo3_literal_set_ahead() => {
                (AggregateFunction::Count, self.literal_elements(false)?)
            }
            (Some(function), K::LBrace) => (function, self.tuple_elements()?),
            (None, K::LBrace) => (AggregateFunction::Count, self.literal_elements(false)?),
            (function, K::LBrack) => (
                function.unwrap_or(AggregateFunction::Sum),
                self.literal_elements(true)?,
            ),
            _ => return Err(self.expected("{")),
        };
        let mut guards: Vec<Guard> = left.into_iter().collect();
        guards.extend(self.right_guard()?);
        Ok(BodyElement::Aggregate(Aggregate {
            naf,
            function,
            elements,
            guards,
            span: self.span(start, self.prev_end()),
        }))
    }

    /// Skips the braces and right guard of an aggregate asp2sat does not
    /// support (`#avg`, `#times`, ...).
    fn skip_aggregate_rest(&mut self) -> PResult<()> {
        match self.peek() {
            K::LBrace => self.skip_balanced(K::RBrace, "}")?,
            K::LBrack => self.skip_balanced(K::RBrack, "]")?,
            _ => return Err(self.expected("{")),
        }
        if comparison(self.peek()).is_some() {
            self.bump();
            self.term()?;
        } else if self.term_starts() {
            self.term()?;
        }
        Ok(())
    }

    /// `{ t1, .., tk : l1, .., lm; .. }`; an element may lack its terms
    /// (`{ : a }` is the empty tuple) or its condition.
    fn tuple_elements(&mut self) -> PResult<Vec<AggregateElement>> {
        self.braced_elements(|parser, start| {
            let terms = parser.element_terms()?;
            let (conditions, end) = parser.clingo_condition(parser.prev_end() as u32)?;
            let span = parser.span(start, end);
            let element = |condition| AggregateElement {
                terms: terms.clone(),
                condition,
                tuple_end: TupleEnd::Nothing,
                span,
            };
            Ok(conditions.into_iter().map(element).collect())
        })
    }

    /// Skips from an opening bracket to its matching `close`, within the
    /// statement.
    fn skip_balanced(&mut self, close: K, what: &str) -> PResult<()> {
        let mut depth = 0usize;
        loop {
            match self.peek() {
                K::LBrace | K::LBrack | K::LParen => depth += 1,
                K::RBrace | K::RBrack | K::RParen => {
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        if !self.at(close) {
                            return Err(self.expected(what));
                        }
                        self.bump();
                        return Ok(());
                    }
                }
                K::Dot | K::Eof | K::Error => return Err(self.expected(what)),
                _ => {}
            }
            self.bump();
        }
    }

    /// Skips a body theory atom `&name{..} op term` up to the next `,`, `;`
    /// or `.` outside brackets.
    fn skip_theory_atom(&mut self) -> PResult<()> {
        let mut depth = 0usize;
        loop {
            match self.peek() {
                K::LBrace | K::LBrack | K::LParen => depth += 1,
                K::RBrace | K::RBrack | K::RParen => depth = depth.saturating_sub(1),
                K::Comma | K::Semi if depth == 0 => return Ok(()),
                K::Dot if depth == 0 => return Ok(()),
                K::Dot | K::Eof | K::Error => return Err(self.unexpected()),
                _ => {}
            }
            self.bump();
        }
    }
}

#[cfg(test)]
mod tests {

    use crate::diagnostics::FileId;
    use crate::syntax::ast::*;
    use crate::syntax::parser::print::*;

    use crate::syntax::parser::parse_program;

    #[test]
    fn bodies() {
        check(
            "a :- not b, not not c, #true, not #false, not not #true.",
            "a :- not b, not not c, #true, not #false, not not #true.",
        );
        check(
            "a :- X < Y, X <= Y, X > Y, X >= Y, X != Y, X <> Y, X == Y, X := Y, X = Y, not X = Y.",
            "a :- X<Y, X<=Y, X>Y, X>=Y, X!=Y, X!=Y, X=Y, X=Y, X=Y, not X=Y.",
        );
        check("a :- b; c, d.", "a :- b, c, d.");
        check(
            "a :- b : c, d; e. a :- p(X) : q(X). a :- b :.",
            "a :- [b:c,d], e. a :- [p(X):q(X)]. a :- [b].",
        );
        check("a :- . :- .", "a. .");
        check("a :- -b, not -c(1).", "a :- -b, not -c(1).");
    }

    #[test]
    fn body_aggregates_in_every_dialect() {
        check(
            "
            a :- #count{X : p(X)} > 2, b.
            a :- N = #count{X : p(X)}, N > 1.
            a :- 1 {b;c} 2.
            a :- #sum+{X : p(X)} = 3.
            a :- not #min{X : p(X)} < 2.
            a :- 1 <= #max{X:p(X), q(1)} <= 3, c.
            a :- 2 [b=1, not c=2] 3.
            a :- X = #count{}.
            a :- {b} , c.
            a :- #sum{ W,X : w(X,W); : q }.
            a :- #min[ b = 3 ].
            a :- #int(X), #succ(X, Y).
            a :- not #int(X), #prec(X, Y).
            a :- +(X, 1, Y), *(X,Y,Z), <=(Z,4), not !=(X,Y).
            ",
            "
            a :- #count{X:p(X)}>2, b.
            a :- #count{X:p(X)}=N, N>1.
            a :- #count{#lit:b;#lit:c}>=1<=2.
            a :- #sum+{X:p(X)}=3.
            a :- not #min{X:p(X)}<2.
            a :- #max{X:p(X),q(1)}>=1<=3, c.
            a :- #sum{1,#lit:b;2,#lit:not c}>=2<=3.
            a :- #count{}=X.
            a :- #count{#lit:b}, c.
            a :- #sum{W,X:w(X,W);:q}.
            a :- #min{3,#lit:b}.
            a :- X=(0..#maxint), X=(0..#maxint), Y=(X+1).
            a :- unsupported(DLV built-in predicates), unsupported(DLV built-in predicates).
            a :- Y=(X+1), Z=(X*Y), Z<=4, not X!=Y.
            ",
        );
        let (statements, _) = parse_program("a :- b, not 1 <= #count{X:p(X)} 3, c.", FileId(0));
        let StatementKind::Rule { body, .. } = &statements[0].kind else {
            panic!()
        };
        let BodyElement::Aggregate(aggregate) = &body[1] else {
            panic!()
        };
        assert_eq!((aggregate.span.start, aggregate.span.end), (8, 33));
    }
}
