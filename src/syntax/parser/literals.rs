//! Literals of bodies and conditions (atoms, comparisons, `#true` and
//! `#false` under `not`s), conditions, and clingo 5.6's chains of
//! comparisons.
//!
//! A chain (`1 <= X < Y`) is kept whole as a [`Chain`] until its place
//! decides what stands for it, the way clingo rewrites it: in a body or
//! condition its comparisons ([`Read`]), negated the disjunction of the
//! negated comparisons, under a condition conditional literals. A pool or
//! interval inside a chain is bound to a made-up variable `#chainK`
//! ([`Parser::bind`]). Invariant: every chain leaves here as binary
//! comparisons; the AST has no chains.

use super::lexer::K;
use super::{Fail, PResult, Parser};
use crate::diagnostics::{Diagnostic, Span};
use crate::syntax::ast::{
    Aggregate, AggregateElement, AggregateFunction, Atom, BodyElement, CmpOp, Guard, Literal, Naf,
    Term, TermKind, TupleEnd, UnaryOp,
};
use crate::syntax::pools::{contains_pool, unpool_literal};

pub(super) fn comparison(kind: K) -> Option<CmpOp> {
    Some(match kind {
        K::Eq | K::EqEq | K::Assign => CmpOp::Eq,
        K::Ne | K::LtGt => CmpOp::Ne,
        K::Lt => CmpOp::Lt,
        K::Le => CmpOp::Le,
        K::Gt => CmpOp::Gt,
        K::Ge => CmpOp::Ge,
        _ => return None,
    })
}

/// A comparison as written, under its `not`s: `t0 op1 t1 .. opn tn`. Since
/// clingo 5.6 a chain of relations is the conjunction of the comparisons
/// of adjacent terms (`1 <= X <= 3` is `1 <= X, X <= 3`), and `not` in
/// front of it negates that conjunction. A chain is kept whole until its
/// place decides what stands for it, the way clingo rewrites it: more
/// literals of a body or condition, a disjunction, or an element written
/// once per negated comparison.
#[derive(Clone)]
pub(super) struct Chain {
    pub(super) naf: Naf,
    pub(super) first: Term,
    pub(super) links: Vec<(CmpOp, Term)>,
    /// `V = t` for each term `t` that stands for several values (a pool or
    /// an interval), which the chain has as a made-up variable `V` (see
    /// [`Parser::bind`]): `1 < (2;5) < 3` is `V = (2;5), 1 < V, V < 3`.
    /// They stand beside the comparisons.
    pub(super) bindings: Vec<Literal>,
    pub(super) span: Span,
}

impl Chain {
    /// Whether the chain is asserted (also under `not not`), not negated.
    pub(super) fn holds(&self) -> bool {
        self.naf != Naf::Not
    }

    /// The chain with its truth turned around: `not` added or taken away.
    pub(super) fn negated(self) -> Chain {
        let naf = if self.holds() {
            Naf::Not
        } else {
            Naf::Positive
        };
        Chain { naf, ..self }
    }

    /// The comparison of each pair of adjacent terms, each one `negated`
    /// (`<` as `>=`) or not.
    pub(super) fn comparisons(&self, negated: bool) -> Vec<Literal> {
        let mut lhs = &self.first;
        (self.links.iter())
            .map(|(op, rhs)| {
                let literal = Literal::Comparison {
                    naf: Naf::Positive,
                    lhs: lhs.clone(),
                    op: if negated { op.negate() } else { *op },
                    rhs: rhs.clone(),
                    span: lhs.span.to(rhs.span),
                };
                lhs = rhs;
                literal
            })
            .collect()
    }

    pub(super) fn terms(&self) -> impl Iterator<Item = &Term> {
        std::iter::once(&self.first).chain(self.links.iter().map(|(_, term)| term))
    }

    /// The chain as read in a body or condition: one relation without
    /// bindings is a plain [`Literal::Comparison`].
    pub(super) fn read(mut self) -> Read {
        if self.links.len() > 1 || !self.bindings.is_empty() {
            return Read::Chain(self);
        }
        let (op, rhs) = self.links.pop().expect("a comparison has a relation");
        Read::Literal(Literal::Comparison {
            naf: self.naf,
            lhs: self.first,
            op,
            rhs,
            span: self.span,
        })
    }
}

/// A literal of a body or condition as read: a chain of two relations or
/// more is kept whole ([`Chain`]).
#[derive(Clone)]
pub(super) enum Read {
    Literal(Literal),
    Chain(Chain),
}

/// The alternatives a condition stands for: one list of literals, or,
/// where `not` negates a chain, a list for each of its comparisons,
/// negated (the condition holds when one of them fails). As clingo does,
/// the element of such a condition is written once per alternative.
pub(super) type Alternatives = Vec<Vec<Literal>>;

impl Read {
    pub(super) fn alternatives(self) -> Alternatives {
        match self {
            Read::Literal(literal) => vec![vec![literal]],
            Read::Chain(chain) if chain.holds() => {
                vec![[chain.bindings.clone(), chain.comparisons(false)].concat()]
            }
            Read::Chain(chain) => (chain.comparisons(true).into_iter())
                .map(|failing| [&chain.bindings[..], &[failing]].concat())
                .collect(),
        }
    }

    /// Adds the body elements `self` stands for to `body`: a chain's
    /// bindings and comparisons, or, for a negated chain, the disjunction
    /// of its negated comparisons, each with the bindings (which it keeps
    /// to itself: the chain holds for some value of them).
    pub(super) fn into_body(self, body: &mut Vec<BodyElement>) {
        let chain = match self {
            Read::Literal(literal) => return body.push(BodyElement::Literal(literal)),
            Read::Chain(chain) => chain,
        };
        if !chain.holds() {
            let span = chain.span;
            return body.push(some_holds(Read::Chain(chain).alternatives(), span));
        }
        body.extend(chain.bindings.iter().cloned().map(BodyElement::Literal));
        let comparisons = chain.comparisons(false).into_iter();
        body.extend(comparisons.map(BodyElement::Literal));
    }

    /// Adds the body's conditional literals `self : c` for each alternative
    /// `c` of `conditions` to `body`: one per comparison of a chain (each
    /// must hold under the condition), or, for a negated chain, `#false :
    /// c, comparisons` (no instance of the condition may have them all
    /// hold). With bindings, the chain holds for some value of them where
    /// `c` does, and nothing is required where `c` fails: `c` implies the
    /// chain, which is `¬c1 ∨ .. ∨ ¬ck ∨ chain` ([`some_holds`]), so that
    /// an interval is not enumerated where `c` is false, and an empty one
    /// fails only where `c` holds, as in clingo. Under a condition over
    /// variables clingo expands the bindings once per instance of it
    /// instead, which is refused (at `span`).
    pub(super) fn conditionals(
        &self,
        conditions: Alternatives,
        span: Span,
        body: &mut Vec<BodyElement>,
    ) -> PResult<()> {
        if let Read::Chain(chain) = self
            && !chain.bindings.is_empty()
        {
            if conditions.iter().flatten().any(literal_has_variable) {
                return Err(Fail(Some(Diagnostic::error(
                    span,
                    "a chain of comparisons with a pool or an interval, as the literal of a \
                     conditional literal whose condition has variables, is not supported",
                ))));
            }
            for condition in conditions {
                let mut disjuncts: Alternatives =
                    condition.iter().map(|c| vec![negation(c)]).collect();
                disjuncts.extend(self.clone().alternatives());
                body.push(some_holds(disjuncts, span));
            }
            return Ok(());
        }
        let conditional = |literal, condition| BodyElement::Conditional {
            literal,
            condition,
            span,
        };
        for condition in conditions {
            match self {
                Read::Literal(literal) => body.push(conditional(literal.clone(), condition)),
                Read::Chain(chain) if chain.holds() => body.extend(
                    (chain.comparisons(false).into_iter())
                        .map(|comparison| conditional(comparison, condition.clone())),
                ),
                Read::Chain(chain) => {
                    let falsity = Literal::Boolean {
                        naf: Naf::Positive,
                        value: false,
                        span: chain.span,
                    };
                    let condition = [condition, chain.comparisons(false)].concat();
                    body.push(conditional(falsity, condition));
                }
            }
        }
        Ok(())
    }
}

/// The disjunction of the conjunctions `disjuncts`, as the aggregate
/// `#count{ : l1; ..; : ln } >= 1` (its empty tuple counts once, when some
/// `li` holds), where the variables of each `li` are its own.
fn some_holds(disjuncts: Alternatives, span: Span) -> BodyElement {
    let elements = (disjuncts.into_iter())
        .map(|condition| AggregateElement {
            terms: Vec::new(),
            condition,
            tuple_end: TupleEnd::Nothing,
            span,
        })
        .collect();
    let one = Term {
        kind: TermKind::Integer(1),
        span,
    };
    BodyElement::Aggregate(Aggregate {
        naf: Naf::Positive,
        function: AggregateFunction::Count,
        elements,
        guards: vec![Guard {
            op: CmpOp::Ge,
            term: one,
        }],
        span,
    })
}

/// `not literal`, as a literal (`not not a` fails where `not a` holds).
fn negation(literal: &Literal) -> Literal {
    let mut negation = literal.clone();
    match &mut negation {
        Literal::Atom { naf, .. }
        | Literal::Comparison { naf, .. }
        | Literal::Boolean { naf, .. } => {
            *naf = match naf {
                Naf::Positive => Naf::Not,
                Naf::Not => Naf::Positive,
                Naf::NotNot => Naf::Not,
            }
        }
    }
    negation
}

/// Whether a variable (named or anonymous) occurs in `literal`.
pub(super) fn literal_has_variable(literal: &Literal) -> bool {
    let variable = |kind: &TermKind| matches!(kind, TermKind::Variable(_) | TermKind::Anonymous);
    match literal {
        Literal::Atom { atom, .. } => atom.term.contains(variable),
        Literal::Comparison { lhs, rhs, .. } => lhs.contains(variable) || rhs.contains(variable),
        Literal::Boolean { .. } => false,
    }
}

/// Each alternative of `first` followed by each of `then` (extended in
/// place when `then` has one, as it has but for a negated chain).
pub(super) fn product(first: Alternatives, then: &Alternatives) -> Alternatives {
    if let [only] = &then[..] {
        return (first.into_iter())
            .map(|mut alternative| {
                alternative.extend_from_slice(only);
                alternative
            })
            .collect();
    }
    (first.iter())
        .flat_map(|a| then.iter().map(move |b| [&a[..], b].concat()))
        .collect()
}

impl Parser<'_> {
    pub(super) fn naf(&mut self) -> Naf {
        if self.eat(K::Not).is_none() {
            Naf::Positive
        } else if self.eat(K::Not).is_none() {
            Naf::Not
        } else {
            Naf::NotNot
        }
    }

    pub(super) fn boolean(&mut self, naf: Naf, start: usize) -> Option<Literal> {
        let value = match self.directive_at(self.pos)? {
            "#true" => true,
            "#false" => false,
            _ => return None,
        };
        let token = self.bump();
        Some(Literal::Boolean {
            naf,
            value,
            span: self.span(start, token.end),
        })
    }

    /// A literal of a condition: no aggregates.
    pub(super) fn literal(&mut self) -> PResult<Read> {
        let start = self.tok().start;
        let naf = self.naf();
        if let Some(literal) = self.boolean(naf, start) {
            return Ok(Read::Literal(literal));
        }
        let first = self.pos;
        let term = self.term()?;
        self.finish_literal(naf, start, first, term)
    }

    /// After a term: a comparison `term op rhs` (a chain when more
    /// relations follow) or the term as an atom.
    pub(super) fn finish_literal(
        &mut self,
        naf: Naf,
        start: usize,
        first: usize,
        lhs: Term,
    ) -> PResult<Read> {
        if comparison(self.peek()).is_some() {
            return Ok(self.chain(naf, start, lhs)?.read());
        }
        match self.to_atom(first, lhs) {
            Some(atom) => Ok(Read::Literal(Literal::Atom { naf, atom })),
            None => Err(self.unexpected()),
        }
    }

    /// The relations and terms after a comparison's first term, from
    /// `start` (its `not`s included): `op1 t1 .. opn tn`. A middle term
    /// that stands for several values is one value in both its
    /// comparisons ([`Self::bind`]).
    pub(super) fn chain(&mut self, naf: Naf, start: usize, first: Term) -> PResult<Chain> {
        let mut links = Vec::new();
        while let Some(op) = comparison(self.peek()) {
            self.bump();
            links.push((op, self.term()?));
        }
        let mut bindings = Vec::new();
        let middle = links.len() - 1;
        for (_, term) in &mut links[..middle] {
            self.bind(term, true, &mut bindings);
        }
        Ok(Chain {
            naf,
            first,
            links,
            bindings,
            span: self.span(start, self.prev_end()),
        })
    }

    /// Replaces a term of a chain that stands for several values (a pool,
    /// an interval) by a made-up variable, and adds its binding `V = t` to
    /// `bindings`, as clingo expands pools and intervals before it splits
    /// the chain: a middle term is then one value in both its comparisons
    /// (see [`Self::chain`]), and the first and last terms one value in the
    /// chain's tuple ([`Self::bind_ends`]). An anonymous variable in the
    /// `middle` is one variable there, with no binding.
    pub(super) fn bind(&mut self, term: &mut Term, middle: bool, bindings: &mut Vec<Literal>) {
        let anonymous = matches!(term.kind, TermKind::Anonymous);
        let several = |kind: &TermKind| matches!(kind, TermKind::Pool(_) | TermKind::Interval(..));
        if !(anonymous && middle || term.contains(several)) {
            return;
        }
        self.fresh += 1;
        let made_up = Term {
            kind: TermKind::Variable(format!("#chain{}", self.fresh)),
            span: term.span,
        };
        let term = std::mem::replace(term, made_up.clone());
        if !anonymous {
            let span = term.span;
            bindings.push(Literal::Comparison {
                naf: Naf::Positive,
                lhs: made_up,
                op: CmpOp::Eq,
                rhs: term,
                span,
            });
        }
    }

    /// Binds the first and last terms of a chain that stand for several
    /// values, for its tuple in a literal set or choice
    /// ([`comparison_tuple`](super::heads::comparison_tuple)): the grounder expands the pools of a tuple
    /// apart from those of the element's condition.
    pub(super) fn bind_ends(&mut self, chain: &mut Chain) {
        self.bind(&mut chain.first, false, &mut chain.bindings);
        let (_, last) = chain.links.last_mut().expect("a chain has relations");
        self.bind(last, false, &mut chain.bindings);
    }

    /// `: l1, .., ln` if present, as its alternatives (`[[]]` when
    /// absent); also returns the end of what was read, `end` without a
    /// condition.
    pub(super) fn optional_condition(&mut self, end: u32) -> PResult<(Alternatives, usize)> {
        self.optional_condition_joined(end, self.gringo3)
    }

    /// A condition of clingo's own form, `,` joining its literals in any
    /// file: a tuple's (`#count{ X : p(X), q(X) }`), which gringo 3 lacks.
    pub(super) fn clingo_condition(&mut self, end: u32) -> PResult<(Alternatives, usize)> {
        self.optional_condition_joined(end, false)
    }

    fn optional_condition_joined(
        &mut self,
        end: u32,
        colons_only: bool,
    ) -> PResult<(Alternatives, usize)> {
        if self.eat(K::Colon).is_none() {
            return Ok((vec![Vec::new()], end as usize));
        }
        let condition = self.condition_joined(colons_only)?;
        Ok((condition, self.prev_end()))
    }

    /// Condition literals separated by `,` (or gringo 3's chained `:`), as
    /// the alternatives they stand for. In a gringo 3 file only `:` joins
    /// them, and `,` ends the condition.
    pub(super) fn condition(&mut self) -> PResult<Alternatives> {
        self.condition_joined(self.gringo3)
    }

    fn condition_joined(&mut self, colons_only: bool) -> PResult<Alternatives> {
        let mut alternatives = vec![Vec::new()];
        // A `|` after the colon opens an absolute value (`: |X-2| < 1`), as
        // in clingo, never ends an empty condition.
        if matches!(self.peek(), K::Semi | K::Dot | K::RBrace | K::If | K::Eof) {
            return Ok(alternatives);
        }
        loop {
            let read = self.literal()?;
            alternatives = self.and(alternatives, read);
            if !self.condition_goes_on(colons_only) {
                return Ok(alternatives);
            }
        }
    }

    /// Reads the `:` (or, unless `colons_only`, the `,`) that joins another
    /// literal to a condition; `false` when the condition ends here.
    pub(super) fn condition_goes_on(&mut self, colons_only: bool) -> bool {
        let joins = match self.peek() {
            K::Colon => true,
            K::Comma => !colons_only,
            _ => false,
        };
        if joins {
            self.bump();
        }
        joins
    }

    /// The alternatives of a condition with `read` added to it.
    pub(super) fn and(&self, alternatives: Alternatives, read: Read) -> Alternatives {
        match self.gringo3_conjuncts(&read) {
            Some(conjuncts) => (alternatives.into_iter())
                .map(|condition| [condition, conjuncts.clone()].concat())
                .collect(),
            None => product(alternatives, &read.alternatives()),
        }
    }

    /// gringo 3's reading of an atom with a pool in a body or condition
    /// of a gringo 3 file: the conjunction of its alternatives.
    pub(super) fn gringo3_conjuncts(&self, read: &Read) -> Option<Vec<Literal>> {
        let Read::Literal(literal @ Literal::Atom { atom, .. }) = read else {
            return None;
        };
        (self.gringo3 && contains_pool(&atom.term)).then(|| unpool_literal(literal))
    }

    /// The body elements `read` stands for into `body` ([`Read::into_body`]).
    /// A negated chain's first and last terms with pools or intervals are
    /// bound too, so that an empty one leaves every disjunct false, as in
    /// clingo.
    pub(super) fn body_elements(&mut self, mut read: Read, body: &mut Vec<BodyElement>) {
        if let Read::Chain(chain) = &mut read
            && !chain.holds()
        {
            self.bind_ends(chain);
        }
        read.into_body(body)
    }

    /// `read : c` for each alternative `c` of `conditions` into `body`
    /// ([`Read::conditionals`]). A negated chain goes into the condition
    /// of `#false : c, comparisons`, where the grounder would expand a pool
    /// of its first or last term per instance of `c`: those are bound too,
    /// so that they expand into copies of the rule, as in clingo.
    pub(super) fn conditionals(
        &mut self,
        mut read: Read,
        conditions: Alternatives,
        span: Span,
        body: &mut Vec<BodyElement>,
    ) -> PResult<()> {
        if let Read::Chain(chain) = &mut read
            && !chain.holds()
        {
            self.bind_ends(chain);
        }
        read.conditionals(conditions, span, body)
    }

    /// Converts a parsed term to an atom if it is one: `p`, `p(..)`, a pool
    /// hoisted from `p(..;..)`, each possibly with a leading `-`.
    pub(super) fn to_atom(&self, first: usize, term: Term) -> Option<Atom> {
        let strong_negation = match self.peek_at(first) {
            K::Ident => false,
            K::Minus if self.peek_at(first + 1) == K::Ident => true,
            _ => return None,
        };
        let span = term.span;
        let term = if strong_negation {
            match term.kind {
                TermKind::Unary(UnaryOp::Minus, inner) => *inner,
                _ => return None,
            }
        } else {
            term
        };
        let is_predicate =
            |t: &Term| matches!(t.kind, TermKind::Constant(_) | TermKind::Function { .. });
        let ok = match &term.kind {
            TermKind::Pool(alternatives) => alternatives.iter().all(is_predicate),
            _ => is_predicate(&term),
        };
        ok.then_some(Atom {
            strong_negation,
            term,
            span,
        })
    }
}

#[cfg(test)]
mod tests {

    use crate::syntax::parser::print::*;

    /// clingo 5.6's chains of relations, in every place a comparison
    /// stands, as clingo rewrites them (its tests `rewrite-comparisons`).
    #[test]
    fn comparison_chains_in_bodies_and_conditions() {
        // The conjunction of the comparisons of adjacent terms; `=` binds
        // as in a comparison of its own.
        check("q :- p(X), 1 <= X < 0x10.", "q :- p(X), 1<=X, X<16.");
        check(
            "q(X) :- p(Y), 0 < X = Y + 1 <= 3.",
            "q(X) :- p(Y), 0<X, X=(Y+1), (Y+1)<=3.",
        );
        check("q :- not not 1 < X <= 3, p(X).", "q :- 1<X, X<=3, p(X).");
        check("q :- 1 != 2 == 2 <> 3 := 3.", "q :- 1!=2, 2=2, 2!=3, 3=3.");
        // `not` before a chain: one of the comparisons fails.
        check(
            "q :- p(X), not 1 < X < 3.",
            "q :- p(X), #count{:1>=X;:X>=3}>=1.",
        );
        check(
            "q :- p(X), not 1 < X <= 2 != 3.",
            "q :- p(X), #count{:1>=X;:X>2;:2=3}>=1.",
        );
        // A condition with a negated chain: the element once per comparison.
        check(
            "q :- #count{ X : p(X), 1 < X < 3 } > 0.",
            "q :- #count{X:p(X),1<X,X<3}>0.",
        );
        check(
            "q :- #count{ X : p(X), not 1 < X < 3, r(X) } > 0.",
            "q :- #count{X:p(X),1>=X,r(X);X:p(X),X>=3,r(X)}>0.",
        );
        check(
            "q :- #sum{ X : p(X), not 1 < X < 3 : not 4 < X < 6 } > 0.",
            "q :- #sum{X:p(X),1>=X,4>=X;X:p(X),1>=X,X>=6;X:p(X),X>=3,4>=X;X:p(X),X>=3,X>=6}>0.",
        );
        check(
            "q :- r(X) : p(X), not 1 < X < 3.",
            "q :- [r(X):p(X),1>=X], [r(X):p(X),X>=3].",
        );
        check(
            "{ r(X) : p(X), not 1 < X < 3 }.",
            "choice[]{r(X):p(X),1>=X; r(X):p(X),X>=3}.",
        );
        check(
            "r(X) : p(X), not 1 < X < 3 ; s.",
            "r(X):p(X),1>=X | r(X):p(X),X>=3 | s.",
        );
        check(
            "#count{ X : r(X) : p(X), not 1 < X < 3 } = 1.",
            "head#count{X:r(X),p(X),1>=X;X:r(X),p(X),X>=3}=1.",
        );
        check(
            "#minimize{ X@2 : p(X), not 1 < X < 3 }.",
            "#minimize{X@2 : p(X), 1>=X; X@2 : p(X), X>=3}.",
        );
        check(
            ":~ p(X), not 1 < X < 3. [X]",
            "#minimize{X : p(X), #count{:1>=X;:X>=3}>=1}.",
        );
        check(
            "#show X : p(X), 1 < X < 3. #external e(X) : p(X), not 1 < X < 3.",
            "#show X : p(X), 1<X, X<3. #external e(X) : p(X), #count{:1>=X;:X>=3}>=1.",
        );
        // The literal of a conditional literal: each comparison under the
        // condition; negated, no instance of the condition has them all.
        check("q :- 1 < X < 3 : p(X).", "q :- [1<X:p(X)], [X<3:p(X)].");
        check("q :- not 1 < X < 3 : p(X).", "q :- [#false:p(X),1<X,X<3].");
        // A literal set counts each ground instance of a chain once, under
        // a tuple of its own: its place in the set and its terms.
        check(
            "q :- { a; X < Y < 3 : p(X,Y) } = 1.",
            "q :- #count{#lit:a;1,X,Y,3:X<Y,Y<3,p(X,Y)}=1.",
        );
        check(
            "q :- { not X < 2 < 3 : p(X) } = 1.",
            "q :- #count{0,X,2,3:X>=2,p(X);0,X,2,3:2>=3,p(X)}=1.",
        );
        // A single comparison is read as before.
        check(
            "q :- not X < 3, p(X), { X > 1 : p(X) } = 1.",
            "q :- not X<3, p(X), #count{#lit:X>1,p(X)}=1.",
        );
    }

    /// A pool or an interval between two relations is one value in both
    /// comparisons: a made-up variable bound to it, beside them, so that
    /// the pool expands into copies of the rule or element as clingo
    /// expands it before it splits the chain.
    #[test]
    fn comparison_chains_share_their_middle_terms() {
        check(
            "q :- 1 < (0;5) < 3.",
            "q :- #chain1=pool[0;5], 1<#chain1, #chain1<3.",
        );
        check(
            "q :- not 1 < 1..5 <= 2 < (3;4) != 7.",
            "q :- #count{:#chain1=(1..5),#chain2=pool[3;4],1>=#chain1;\
             :#chain1=(1..5),#chain2=pool[3;4],#chain1>2;\
             :#chain1=(1..5),#chain2=pool[3;4],2>=#chain2;\
             :#chain1=(1..5),#chain2=pool[3;4],#chain2=7}>=1.",
        );
        // An anonymous variable is one variable there, with no binding.
        check("q :- 1 < _ < 3, 0 < _.", "q :- 1<#chain1, #chain1<3, 0<_.");
        check(
            "q :- #count{ X : p(X), not 1 < (X;5) < 3 } > 0.",
            "q :- #count{X:p(X),#chain1=pool[X;5],1>=#chain1;X:p(X),#chain1=pool[X;5],#chain1>=3}>0.",
        );
        check(
            "{ 1 < (0;2) < 3 } = 1.",
            "head#count{0,1,#chain1,3:not #false,#chain1=pool[0;2],1<#chain1,#chain1<3}=1.",
        );
        // In a literal set or choice, the first and last terms too: each
        // is one value in the chain's tuple.
        check(
            "q :- { a; (1;2) < X < 3..4 : p(X) } = 1. { X > (1;2) }.",
            "q :- #count{#lit:a;1,#chain1,X,#chain2:#chain1=pool[1;2],#chain2=(3..4),\
             #chain1<X,X<#chain2,p(X)}=1.
             head#count{0,X,#chain3:not #false,#chain3=pool[1;2],X>#chain3}.",
        );
        check(
            "1 < (0;2) < 3 :- q.",
            ":- q, #count{:#chain1=pool[0;2],1>=#chain1;:#chain1=pool[0;2],#chain1>=3}>=1.",
        );
        // The literal of a conditional literal, under a condition without
        // variables: the condition implies the chain, for some value of
        // its bindings.
        check(
            "h :- 1 < (2;3) < 4 : a.",
            "h :- #count{:not a;:#chain1=pool[2;3],1<#chain1,#chain1<4}>=1.",
        );
        check(
            "h :- not 1 < (2..3) < 4 : a.",
            "h :- #count{:not a;:#chain1=(2..3),1>=#chain1;:#chain1=(2..3),#chain1>=4}>=1.",
        );
        check(
            "h :- 1 < (X;5) < 3 : p(X).",
            "error 5..25: a chain of comparisons with a pool or an interval, as the literal of a conditional literal whose condition has variables, is not supported",
        );
    }
}
