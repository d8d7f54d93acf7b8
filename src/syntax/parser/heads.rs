//! Rule heads: disjunctions (`|`, `;`, DLV's `v`, `,`) of possibly
//! negated and conditional atoms, choices, head aggregates (lparse's
//! weighted lists too), and comparisons among the disjuncts.
//!
//! Invariants: a head comparison other than a plain `X = Y` moves into the
//! body negated (the rest of the head must hold when it fails); a
//! comparison among a choice's or head aggregate's elements becomes the
//! element `not #false : comparison` with a tuple of its own, and the
//! choice the head aggregate counting its elements.

use super::lexer::K;
use super::literals::{Alternatives, Chain, comparison, literal_has_variable, product};
use super::{Fail, PResult, Parser};
use crate::diagnostics::{Diagnostic, Span};
use crate::syntax::ast::{
    AggregateFunction, Atom, BodyElement, ChoiceElement, CmpOp, Guard, Head, HeadAggregateElement,
    HeadComparison, HeadLiteral, Literal, Naf, Term, TermKind, TupleEnd,
};

/// The first disjunct of a head, as far as it has been read.
enum Disjunct {
    /// A term at the given token, under its `not`s: an atom, or a
    /// comparison's left side.
    Term(Naf, usize, Term),
    Atom(Naf, Atom),
}

/// The tuple that tells a comparison among the elements of a literal set
/// or choice apart: its place `index` there and its terms, so that each
/// of its ground instances counts once, as clingo's tuple `(index, ..)`
/// does.
pub(super) fn comparison_tuple<'t>(
    index: usize,
    terms: impl Iterator<Item = &'t Term>,
    span: Span,
) -> Vec<Term> {
    let index = Term {
        kind: TermKind::Integer(index as i32),
        span,
    };
    std::iter::once(index).chain(terms.cloned()).collect()
}

/// A comparison `condition` as an element of a choice or head aggregate:
/// `not #false : condition`, which chooses nothing and counts when the
/// condition holds, as clingo moves the comparison into the condition.
fn comparison_element(
    terms: Vec<Term>,
    tuple_end: TupleEnd,
    condition: Vec<Literal>,
    span: Span,
) -> HeadAggregateElement {
    let falsity = Term {
        kind: TermKind::Constant("#false".to_owned()),
        span,
    };
    HeadAggregateElement {
        terms,
        naf: Naf::Not,
        atom: Atom {
            strong_negation: false,
            term: falsity,
            span,
        },
        condition,
        tuple_end,
        span,
    }
}

impl Parser<'_> {
    /// A rule's head, and the body elements that its comparisons stand for
    /// (see [`Self::head_comparison`]).
    pub(super) fn head(&mut self) -> PResult<(Head, Vec<BodyElement>)> {
        let start = self.tok().start;
        let alone = |head: PResult<Head>| head.map(|head| (head, Vec::new()));
        if self.at(K::LBrace) {
            return alone(self.choice(start, Vec::new()));
        }
        if self.is_directive(&["#true", "#false"]) {
            let atom = self.boolean_atom();
            let unconditional = matches!(self.peek(), K::If | K::Dot);
            if unconditional
                && matches!(&atom.term.kind, TermKind::Constant(name) if name == "#false")
            {
                return alone(Ok(Head::Constraint));
            }
            return self.disjunction_from(start, Some(Disjunct::Atom(Naf::Positive, atom)));
        }
        if self.at(K::Not) {
            return self.disjunction_from(start, None);
        }
        if self.aggregate_at(self.pos) {
            return alone(self.head_aggregate(start, Vec::new()));
        }
        let first = self.pos;
        let term = self.term()?;
        if self.aggregate_at(self.pos) {
            // lparse's `1 { .. }` and `1 [ .. ]`: a lower bound.
            let guard = Guard {
                op: CmpOp::Ge,
                term,
            };
            return alone(if self.at(K::LBrace) {
                self.choice(start, vec![guard])
            } else {
                self.head_aggregate(start, vec![guard])
            });
        }
        if let Some(op) = comparison(self.peek())
            && self.aggregate_at(self.pos + 1)
        {
            self.bump();
            let guard = Guard {
                op: op.flip(),
                term,
            };
            return alone(if self.at(K::LBrace) {
                self.choice(start, vec![guard])
            } else {
                self.head_aggregate(start, vec![guard])
            });
        }
        let first = Disjunct::Term(Naf::Positive, first, term);
        self.disjunction_from(start, Some(first))
    }

    /// A disjunction of atoms, possibly negated or conditional, and
    /// comparisons, whose first disjunct is `first` if it is read already;
    /// also returns the body elements that its comparisons stand for.
    fn disjunction_from(
        &mut self,
        mut start: usize,
        first: Option<Disjunct>,
    ) -> PResult<(Head, Vec<BodyElement>)> {
        let mut comparisons = Vec::new();
        let mut literals = Vec::new();
        let mut body = Vec::new();
        let mut next = first;
        loop {
            let disjunct = match next.take() {
                Some(disjunct) => disjunct,
                None => self.disjunct()?,
            };
            let (naf, atom) = match disjunct {
                Disjunct::Atom(naf, atom) => (naf, atom),
                Disjunct::Term(naf, _, lhs) if comparison(self.peek()).is_some() => {
                    let chain = self.chain(naf, start, lhs)?;
                    let (conditions, end) = self.optional_condition(chain.span.end)?;
                    let conditional = conditions.iter().any(|c| !c.is_empty());
                    let span = self.span(start, end);
                    comparisons.extend(self.head_comparison(chain, conditions, span, &mut body)?);
                    if !self.disjunction_separator(conditional) {
                        break;
                    }
                    self.bump();
                    start = self.tok().start;
                    continue;
                }
                Disjunct::Term(naf, first, term) => (
                    naf,
                    self.to_atom(first, term).ok_or_else(|| self.unexpected())?,
                ),
            };
            let (conditions, end) = self.optional_condition(atom.span.end)?;
            let conditional = conditions.iter().any(|c| !c.is_empty());
            let span = self.span(start, end);
            literals.extend(conditions.into_iter().map(|condition| HeadLiteral {
                naf,
                atom: atom.clone(),
                condition,
                span,
            }));
            if !self.disjunction_separator(conditional) {
                break;
            }
            self.bump();
            start = self.tok().start;
        }
        let head = match (comparisons.is_empty(), literals.is_empty()) {
            (true, true) => Head::Constraint,
            (true, false) => Head::Disjunction(literals),
            (false, _) => Head::Comparison {
                comparisons,
                disjuncts: literals,
            },
        };
        Ok((head, body))
    }

    /// A disjunct up to what follows its first term: `#true` or `#false`,
    /// or a term that starts an atom or a comparison, under its `not`s.
    fn disjunct(&mut self) -> PResult<Disjunct> {
        let naf = self.naf();
        if self.is_directive(&["#true", "#false"]) {
            return Ok(Disjunct::Atom(naf, self.boolean_atom()));
        }
        let first = self.pos;
        Ok(Disjunct::Term(naf, first, self.term()?))
    }

    /// A comparison disjunct of a head, with its condition's alternatives
    /// (`[[]]` for none). A plain one, `X = Y` (one relation, no `not`, no
    /// condition), is returned to stay in the head. Any other holds, or
    /// leaves the rule satisfied, through the body, as in clingo: the rest of
    /// the head must hold when the comparison fails, so its negation joins
    /// `body` (`C : c` as the conditional literal `not C : c`). A condition
    /// over variables is refused (at `span`, the whole disjunct): clingo keeps
    /// one of its instances, the one it happens to ground first, so that its
    /// answer depends on the order of the facts.
    fn head_comparison(
        &mut self,
        chain: Chain,
        conditions: Alternatives,
        span: Span,
        body: &mut Vec<BodyElement>,
    ) -> PResult<Option<HeadComparison>> {
        let conditional = conditions.iter().any(|c| !c.is_empty());
        if !conditional && chain.holds() && chain.links.len() == 1 {
            let Chain {
                first,
                mut links,
                span,
                ..
            } = chain;
            let (op, rhs) = links.pop().expect("one relation");
            return Ok(Some(HeadComparison {
                lhs: first,
                op,
                rhs,
                span,
            }));
        }
        let failing = chain.negated().read();
        if !conditional {
            self.body_elements(failing, body);
            return Ok(None);
        }
        if conditions.iter().flatten().any(literal_has_variable) {
            return Err(Fail(Some(Diagnostic::error(
                span,
                "a comparison in a disjunction under a condition over variables is not \
                 supported: clingo's answer depends on the order of the condition's instances",
            ))));
        }
        self.conditionals(failing, conditions, span, body)?;
        Ok(None)
    }

    /// Whether the next token separates disjuncts: `|`, `;`, DLV's `v`, or
    /// `,` after an unconditional disjunct.
    fn disjunction_separator(&self, conditional: bool) -> bool {
        match self.peek() {
            K::Bar | K::Semi => true,
            K::Ident => self.text(self.tok()) == "v",
            K::Comma => !conditional,
            _ => false,
        }
    }

    /// `#true` or `#false` at the current token, as an atom of a
    /// disjunctive head, named so (`#true : c` holds when `c` does).
    fn boolean_atom(&mut self) -> Atom {
        let token = self.bump();
        let span = self.span(token.start, token.end);
        Atom {
            strong_negation: false,
            term: Term {
                kind: TermKind::Constant(self.text(token).to_owned()),
                span,
            },
            span,
        }
    }

    /// `{ elements }` and an optional right guard; `start` is the head's
    /// first token (a left guard may precede the brace).
    ///
    /// A choice with a comparison among its elements (`{ a; X < 3 : p(X) }
    /// >= 1`) is the head aggregate counting them all, each comparison as a
    /// [`comparison_element`] with its own tuple ([`comparison_tuple`]).
    pub(super) fn choice(&mut self, start: usize, mut guards: Vec<Guard>) -> PResult<Head> {
        self.bump(); // {
        let mut elements = Vec::new();
        let mut comparisons = Vec::new();
        if self.eat(K::RBrace).is_none() {
            for index in 0.. {
                let element_start = self.tok().start;
                let naf = self.naf();
                let conditional;
                if self.is_directive(&["#true", "#false"]) {
                    // Counted as a comparison that always or never holds.
                    let atom = self.boolean_atom();
                    let literal = Literal::Boolean {
                        naf,
                        value: matches!(&atom.term.kind, TermKind::Constant(c) if c == "#true"),
                        span: atom.span,
                    };
                    let (conditions, end) = self.optional_condition(atom.span.end)?;
                    conditional = conditions.iter().any(|c| !c.is_empty());
                    let span = self.span(element_start, end);
                    let tuple = comparison_tuple(index, std::iter::empty(), atom.span);
                    comparisons.extend(conditions.into_iter().map(|condition| {
                        let condition = std::iter::once(literal.clone()).chain(condition).collect();
                        comparison_element(tuple.clone(), TupleEnd::PoolCopy, condition, span)
                    }));
                    match self.choice_separator(conditional)? {
                        true => continue,
                        false => break,
                    }
                }
                let first = self.pos;
                let term = self.term()?;
                if comparison(self.peek()).is_some() {
                    let mut chain = self.chain(naf, element_start, term)?;
                    self.bind_ends(&mut chain);
                    let (conditions, end) = self.optional_condition(chain.span.end)?;
                    conditional = conditions.iter().any(|c| !c.is_empty());
                    let span = self.span(element_start, end);
                    let tuple = comparison_tuple(index, chain.terms(), chain.span);
                    let conditions = product(chain.read().alternatives(), &conditions);
                    comparisons.extend((conditions.into_iter()).map(|condition| {
                        comparison_element(tuple.clone(), TupleEnd::PoolCopy, condition, span)
                    }));
                } else {
                    let atom = self.to_atom(first, term).ok_or_else(|| self.unexpected())?;
                    let (conditions, end) = self.optional_condition(atom.span.end)?;
                    conditional = conditions.iter().any(|c| !c.is_empty());
                    let span = self.span(element_start, end);
                    elements.extend(conditions.into_iter().map(|condition| ChoiceElement {
                        naf,
                        atom: atom.clone(),
                        condition,
                        span,
                    }));
                }
                if !self.choice_separator(conditional)? {
                    break;
                }
            }
        }
        let mut end = self.prev_end();
        if let Some(op) = comparison(self.peek()) {
            self.bump();
            let term = self.term()?;
            end = term.span.end as usize;
            guards.push(Guard { op, term });
        } else if self.term_starts() {
            let term = self.term()?;
            end = term.span.end as usize;
            guards.push(Guard {
                op: CmpOp::Le,
                term,
            });
        }
        let span = self.span(start, end);
        if comparisons.is_empty() {
            return Ok(Head::Choice {
                guards,
                elements,
                span,
            });
        }
        let elements = elements.into_iter().map(HeadAggregateElement::from);
        Ok(Head::Aggregate {
            function: AggregateFunction::Count,
            elements: elements.chain(comparisons).collect(),
            guards,
            span,
        })
    }

    /// After a choice's element: `true` when another follows, `false` at
    /// the closing brace (both read).
    fn choice_separator(&mut self, conditional: bool) -> PResult<bool> {
        match self.peek() {
            K::Semi => {
                self.bump();
                Ok(self.eat(K::RBrace).is_none())
            }
            K::Comma if !conditional || self.gringo3 => {
                self.bump();
                Ok(true)
            }
            K::RBrace => {
                self.bump();
                Ok(false)
            }
            _ => Err(self.expected("} or ;")),
        }
    }

    /// A head aggregate after its left guard: `#count{ t : a : c; .. }` or
    /// lparse's weighted atoms `[ a = 2, .. ]` (also after `#sum`, `#min`,
    /// `#max`), with its right guard.
    fn head_aggregate(&mut self, start: usize, mut guards: Vec<Guard>) -> PResult<Head> {
        let function = match self.aggregate_function()? {
            Ok(function) => function,
            Err(what) => {
                return Err(Fail(Some(Diagnostic::error(
                    self.span(start, self.prev_end()),
                    format!("{what} are not supported by asp2sat yet"),
                ))));
            }
        };
        let elements = match (function, self.peek()) {
            (Some(_), K::LBrace) => self.head_tuple_elements()?,
            (_, K::LBrack) => {
                let mut elements = Vec::new();
                for element in self.literal_elements(true)? {
                    // A head chooses atoms: `not a` has no place in it.
                    let Some(Literal::Atom {
                        naf: Naf::Positive,
                        atom,
                    }) = element.condition.first().cloned()
                    else {
                        return Err(Fail(Some(Diagnostic::error(
                            element.span,
                            "syntax error, a head's weighted literal must be an atom",
                        ))));
                    };
                    elements.push(HeadAggregateElement {
                        terms: element.terms,
                        naf: Naf::Positive,
                        atom,
                        condition: element.condition[1..].to_vec(),
                        tuple_end: TupleEnd::Literal,
                        span: element.span,
                    });
                }
                elements
            }
            _ => return Err(self.expected("{")),
        };
        guards.extend(self.right_guard()?);
        Ok(Head::Aggregate {
            function: function.unwrap_or(AggregateFunction::Sum),
            elements,
            guards,
            span: self.span(start, self.prev_end()),
        })
    }

    /// `{ t1, .., tk : l : c; .. }` of a head aggregate, where `l` is an
    /// atom, possibly negated, or a comparison ([`comparison_element`]).
    fn head_tuple_elements(&mut self) -> PResult<Vec<HeadAggregateElement>> {
        self.braced_elements(|parser, start| {
            let terms = parser.element_terms()?;
            parser.expect(K::Colon, ":")?;
            let literal_start = parser.tok().start;
            let naf = parser.naf();
            let first = parser.pos;
            let term = parser.term()?;
            if comparison(parser.peek()).is_some() {
                let chain = parser.chain(naf, literal_start, term)?;
                let (conditions, end) = parser.clingo_condition(chain.span.end)?;
                let span = parser.span(start, end);
                let conditions = product(chain.read().alternatives(), &conditions);
                return Ok((conditions.into_iter())
                    .map(|condition| {
                        comparison_element(terms.clone(), TupleEnd::Nothing, condition, span)
                    })
                    .collect());
            }
            let atom = parser
                .to_atom(first, term)
                .ok_or_else(|| parser.unexpected())?;
            let (conditions, end) = parser.clingo_condition(atom.span.end)?;
            let span = parser.span(start, end);
            let element = |condition| HeadAggregateElement {
                terms: terms.clone(),
                naf,
                atom: atom.clone(),
                condition,
                tuple_end: TupleEnd::Nothing,
                span,
            };
            Ok(conditions.into_iter().map(element).collect())
        })
    }
}

#[cfg(test)]
mod tests {

    use crate::syntax::parser::print::*;

    #[test]
    fn disjunctions() {
        check("a v b.", "a | b.");
        check("v. v :- a. v v w.", "v. v :- a. v | w.");
        check("a v b v c :- d.", "a | b | c :- d.");
        check("a ; b | c.", "a | b | c.");
        check("a, b.", "a | b.");
        check("-a v -b(1).", "-a | -b(1).");
        check("p(X) : q(X) | r.", "p(X):q(X) | r.");
        check("a : b, c ; d :- e.", "a:b,c | d :- e.");
        check(
            "p(X) : q(X), not r(X), X < 3 :- s.",
            "p(X):q(X),not r(X),X<3 :- s.",
        );
        check("#false :- a. #false.", ":- a. .");
        check(
            "X = Y :- p(X,Y). f(X) < 3 :- q(X).",
            "X=Y :- p(X,Y). f(X)<3 :- q(X).",
        );
        // Comparisons among the disjuncts (clingo's test lp/show.lp).
        check(
            "q(k+1), k < 3. a ; not b | X != 1 ; #true :- c(X).",
            "q((k+1)) | k<3. a | not b | #true | X!=1 :- c(X).",
        );
        check("1 { not a; b : c } 1.", "choice[>=1,<=1]{not a; b:c}.");
        check(
            "2 #count{ r,X : not r(X) : p(X); q : q } 4.",
            "head#count{r,X:not r(X),p(X);q:q}>=2<=4.",
        );
        check(
            "a | not b :- c. not a. not not a; b. a; not not b : c, d; not #false.",
            "a | not b :- c. not a. not not a | b. a | not not b:c,d | not #false.",
        );
    }

    #[test]
    fn comparisons_in_heads() {
        // One relation stays in the head; a chain moves into the body
        // negated: the rest of the head holds when it fails.
        check("X < 3 :- p(X).", "X<3 :- p(X).");
        check("1 < X < 3 :- p(X).", ":- p(X), #count{:1>=X;:X>=3}>=1.");
        check(
            "a ; 1 < X < 3 | b :- p(X).",
            "a | b :- p(X), #count{:1>=X;:X>=3}>=1.",
        );
        check("not 1 < X < 3 :- p(X).", ":- p(X), 1<X, X<3.");
        check("a ; not X < 3 :- p(X).", "a :- p(X), X<3.");
        check(
            "not not 1 < X < 3 :- p(X).",
            ":- p(X), #count{:1>=X;:X>=3}>=1.",
        );
        check("X = Y ; 1 < 2 < 3.", "X=Y :- #count{:1>=2;:2>=3}>=1.");
        // Under a condition without variables: a conditional literal.
        check("a ; X < 3 : q :- p(X).", "a :- p(X), [not X<3:q].");
        check("a ; not X < 3 : q :- p(X).", "a :- p(X), [X<3:q].");
        check(
            "not 1<2<3:b | not 4<5<6:c :- q.",
            ":- q, [1<2:b], [2<3:b], [4<5:c], [5<6:c].",
        );
        check("1<2<3:b | a :- q.", "a :- q, [#false:b,1<2,2<3].");
        // Under a condition over variables, clingo keeps one instance.
        check(
            "X < 3 : p(X) ; a. b ; not 1 < X < 2 : p(X,Y) :- q.",
            "
            error 0..12: a comparison in a disjunction under a condition over variables is not supported: clingo's answer depends on the order of the condition's instances
            error 22..44: a comparison in a disjunction under a condition over variables is not supported: clingo's answer depends on the order of the condition's instances
            ",
        );
        // A comparison among a choice's elements, or a head aggregate's:
        // `not #false` under it, counted with its own tuple.
        check(
            "{ a; 1 < 2 < 3 : b } >= 1 :- q.",
            "head#count{#lit:a;1,1,2,3:not #false,1<2,2<3,b}>=1 :- q.",
        );
        check(
            "{ not 1 < (2;3) < 4 } :- q.",
            "head#count{0,1,#chain1,4:not #false,#chain1=pool[2;3],1>=#chain1;\
             0,1,#chain1,4:not #false,#chain1=pool[2;3],#chain1>=4} :- q.",
        );
        check(
            "{ X > 1 : p(X) } = 1.",
            "head#count{0,X,1:not #false,X>1,p(X)}=1.",
        );
        // So is `#true` or `#false`, which clingo 5.4 reads there too.
        check(
            "{ #true; not #true : b; a } = 2.",
            "head#count{#lit:a;0:not #false,#true;1:not #false,not #true,b}=2.",
        );
        check(
            "#count{ 1 : 1 < 2 : p ; 2 : not 1 < 2 < 3 : p } >= 1 :- q.",
            "head#count{1:not #false,1<2,p;2:not #false,1>=2,p;2:not #false,2>=3,p}>=1 :- q.",
        );
    }

    #[test]
    fn choices_and_guards() {
        check(
            "{a}. {}. {a; b}. {a, b}. {a;}. {-a}.",
            "choice[]{a}. choice[]{}. choice[]{a; b}. choice[]{a; b}. choice[]{a}. choice[]{-a}.",
        );
        check(
            "{ p(X) : q(X), r(X) }. { p(X) : q(X); s, t }. { p(X) : q(X) : r(X) }.",
            "choice[]{p(X):q(X),r(X)}. choice[]{p(X):q(X); s; t}. choice[]{p(X):q(X),r(X)}.",
        );
        check(
            "1 {a}. {a} 2. 1 {a} 2. {a} = n. {a} >= 1. 1 <= {a}. 2 > {a}. {a} != 1.",
            "
            choice[>=1]{a}. choice[<=2]{a}. choice[>=1,<=2]{a}. choice[=n]{a}.
            choice[>=1]{a}. choice[>=1]{a}. choice[<2]{a}. choice[!=1]{a}.
            ",
        );
        check(
            "n {a} m+1. 1 <= {a} <= 2. X = {a} :- b(X). 3 < {a} > 1. N-1 >= {a}.",
            "
            choice[>=n,<=(m+1)]{a}. choice[>=1,<=2]{a}. choice[=X]{a} :- b(X).
            choice[>3,>1]{a}. choice[<=(N-1)]{a}.
            ",
        );
        check("1{a;b}1.", "choice[>=1,<=1]{a; b}.");
    }

    /// Head aggregates print as `head` and the body aggregate over each
    /// element's atom and condition.
    #[test]
    fn head_aggregates() {
        check(
            "
            #count{a : b} = 1 :- c.
            1 #sum{1,a : a; 2 : b : c, not d} :- c.
            1 [a = 1, b] 2 :- c.
            #min{ X : p(X) : q(X) } = 2.
            ",
            "
            head#count{a:b}=1 :- c.
            head#sum{1,a:a;2:b,c,not d}>=1 :- c.
            head#sum{1,#lit:a;1,#lit:b}>=1<=2 :- c.
            head#min{X:p(X),q(X)}=2.
            ",
        );
    }
}
