//! Head forms: each head is rewritten into the few that instantiation
//! knows (a disjunction of atoms, possibly conditional; a choice with
//! guards `<`, `<=`, `=`, `>=`, `>`; a constraint; a `#show` term).
//!
//! Input: an AST head and body. Output: rules over those heads only: a
//! head aggregate, a choice with a `!=` bound or a negated element becomes
//! a choice and a constraint with a body aggregate; a negated disjunct
//! moves into the body (`not not`); a comparison in a head moves into the
//! body negated; `#true` and `#false` disjuncts are decided.

use super::{atom_literal, is_defined};
use crate::diagnostics::{Diagnostic, Span};
use crate::ground::compile::{BodyItem, Compiler, RuleHead, RuleShape};
use crate::syntax::ast::{
    self, AggregateFunction, Atom, BodyElement, CmpOp, Head, Literal, Naf, Term, TermKind, TupleEnd,
};
use crate::syntax::pools::{contains_pool_or_interval, product, unpool_atom, unpool_condition};

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

    pub fn negated_disjuncts(
        &mut self,
        disjuncts: &[ast::HeadLiteral],
        body: &[BodyElement],
        span: Span,
    ) {
        // A negated disjunct moves into the body negated once more:
        // `a | not b :- B.` is `a :- B, not not b.` (the reduct of
        // `not b` depends on the answer set alone).
        let mut moved = body.to_vec();
        let mut positive = Vec::new();
        for disjunct in disjuncts {
            if disjunct.naf == Naf::Positive {
                positive.push(disjunct.clone());
                continue;
            }
            if !disjunct.condition.is_empty() {
                // `not a : c` as `#conjK(V) : c`, which holds when
                // `c` does and `a` does not.
                positive.push(ast::HeadLiteral {
                    naf: Naf::Positive,
                    atom: self.conjunction(disjunct, body),
                    condition: disjunct.condition.clone(),
                    span: disjunct.span,
                });
                continue;
            }
            let naf = match disjunct.naf {
                Naf::Not => Naf::NotNot,
                _ => Naf::Not,
            };
            moved.push(BodyElement::Literal(atom_literal(naf, &disjunct.atom)));
        }
        let head = if positive.is_empty() {
            Head::Constraint
        } else {
            Head::Disjunction(positive)
        };
        self.compile(RuleHead::Ast(&head), &moved, span);
    }

    pub fn disjunction(
        &mut self,
        disjuncts: &[ast::HeadLiteral],
        body: &[BodyElement],
        bodies: &[Vec<BodyItem>],
        span: Span,
    ) {
        // `#false` (under any condition) adds nothing to a head;
        // `#true` makes the rule hold; `#true : c` holds when `c`
        // does, as a conditional disjunct of a fact `#true`.
        let named = |d: &&ast::HeadLiteral, name: &str| matches!(&d.atom.term.kind, TermKind::Constant(n) if n == name);
        if disjuncts
            .iter()
            .any(|d| d.condition.is_empty() && named(&d, "#true"))
        {
            return;
        }
        let disjuncts: Vec<&ast::HeadLiteral> =
            disjuncts.iter().filter(|d| !named(d, "#false")).collect();
        if disjuncts.is_empty() {
            return self.compile(RuleHead::Ast(&Head::Constraint), body, span);
        }
        if let Some(truth) = disjuncts.iter().find(|d| named(d, "#true")) {
            let fact = [ast::HeadLiteral {
                naf: Naf::Positive,
                atom: truth.atom.clone(),
                condition: Vec::new(),
                span,
            }];
            self.compile_one(RuleShape::Disjunction(&fact), &[], span);
        }
        // Pools in a plain disjunct make copies of the rule; in the
        // condition of a conditional one (`p(X) : q(X;Y)`), more
        // conditional disjuncts, as in a choice.
        let mut heads: Vec<Vec<ast::HeadLiteral>> = vec![Vec::new()];
        for disjunct in disjuncts {
            if disjunct.condition.is_empty() {
                let alternatives: Vec<ast::HeadLiteral> = unpool_atom(&disjunct.atom)
                    .into_iter()
                    .map(|atom| ast::HeadLiteral {
                        naf: Naf::Positive,
                        atom,
                        condition: Vec::new(),
                        span: disjunct.span,
                    })
                    .collect();
                heads = product(&heads, &alternatives);
                continue;
            }
            // clingo reads `p(1..2) : c` as the conjunction of the
            // atoms under `c`: an auxiliary atom stands for it.
            let atom = if contains_pool_or_interval(&disjunct.atom.term) {
                self.conjunction(disjunct, body)
            } else {
                disjunct.atom.clone()
            };
            let conditions = unpool_condition(&disjunct.condition);
            for head in &mut heads {
                for condition in &conditions {
                    head.push(ast::HeadLiteral {
                        naf: Naf::Positive,
                        atom: atom.clone(),
                        condition: condition.clone(),
                        span: disjunct.span,
                    });
                }
            }
        }
        for head in &heads {
            for body in bodies {
                self.compile_one(RuleShape::Disjunction(head), body, span);
            }
        }
    }

    /// `H | l op r :- B.` is `H :- B, not l op r.` (a constraint
    /// when `H` is empty).
    pub fn comparison_head(
        &mut self,
        comparisons: &[ast::HeadComparison],
        disjuncts: &[ast::HeadLiteral],
        body: &[BodyElement],
        span: Span,
    ) {
        let mut body = body.to_vec();
        body.extend(comparisons.iter().map(|c| {
            BodyElement::Literal(Literal::Comparison {
                naf: Naf::Not,
                lhs: c.lhs.clone(),
                op: c.op,
                rhs: c.rhs.clone(),
                span: c.span,
            })
        }));
        let head = if disjuncts.is_empty() {
            Head::Constraint
        } else {
            Head::Disjunction(disjuncts.to_vec())
        };
        self.compile(RuleHead::Ast(&head), &body, span);
    }

    /// Head aggregates and `!=` choice bounds are a choice rule and a
    /// constraint with a body aggregate: `#agg{ t : a : c } op k :- B.`
    /// chooses among the `a : c` and requires `#agg{ t : a, c } op k`.
    pub fn head_aggregate(
        &mut self,
        function: AggregateFunction,
        elements: &[ast::HeadAggregateElement],
        guards: &[ast::Guard],
        aggregate_span: Span,
        body: &[BodyElement],
        span: Span,
    ) {
        // An element whose tuple is undefined (or, in a sum, whose
        // weight is not an integer) is dropped, as clingo does: its
        // atom cannot be chosen either. So is an empty tuple where the
        // first term is the weight or the value (clingo's `empty tuple
        // ignored`).
        let defined = |e: &ast::HeadAggregateElement| -> Vec<Literal> {
            e.terms
                .iter()
                .enumerate()
                .map(|(i, t)| {
                    let weight = i == 0
                        && matches!(
                            function,
                            AggregateFunction::Sum | AggregateFunction::SumPlus
                        );
                    let term = if weight {
                        let zero = Term {
                            kind: TermKind::Integer(0),
                            span: t.span,
                        };
                        Term {
                            kind: TermKind::Binary(
                                ast::BinaryOp::Add,
                                Box::new(t.clone()),
                                Box::new(zero),
                            ),
                            span: t.span,
                        }
                    } else {
                        t.clone()
                    };
                    is_defined(term, t.span)
                })
                .collect()
        };
        let never = |e: &ast::HeadAggregateElement| {
            function
                .ignores_tuple(&e.terms)
                .then_some(Literal::Boolean {
                    naf: Naf::Positive,
                    value: false,
                    span: e.span,
                })
        };
        // (With a guard, the aggregate that checks it says so.)
        if guards.is_empty() && elements.iter().any(|e| never(e).is_some()) {
            (self.errors).push(Diagnostic::info(aggregate_span, "empty tuple ignored"));
        }
        let choice = Head::Choice {
            guards: Vec::new(),
            elements: (elements.iter())
                .filter(|e| e.naf == Naf::Positive)
                .map(|e| ast::ChoiceElement {
                    naf: Naf::Positive,
                    atom: e.atom.clone(),
                    condition: (e.condition.iter().cloned())
                        .chain(defined(e))
                        .chain(never(e))
                        .collect(),
                    span: e.span,
                })
                .collect(),
            span: aggregate_span,
        };
        // An undefined guard drops the instance, as in a choice
        // rule: nothing is chosen (`g = g` fails on undefined `g`).
        let mut choice_body = body.to_vec();
        choice_body.extend(
            guards
                .iter()
                .map(|g| BodyElement::Literal(is_defined(g.term.clone(), g.term.span))),
        );
        self.compile(RuleHead::Ast(&choice), &choice_body, span);
        let counted = elements.iter().map(|e| {
            (
                e.terms.clone(),
                e.tuple_end,
                e.naf,
                &e.atom,
                &e.condition[..],
                e.span,
            )
        });
        if !guards.is_empty() {
            self.require_aggregate(function, counted, guards, aggregate_span, body, span);
        }
    }

    /// A choice with a negated element is the head aggregate counting
    /// its literals: `1 { a; not b } 1` is `1 #count{ a; not b } 1`.
    pub fn negated_choice(
        &mut self,
        guards: &[ast::Guard],
        elements: &[ast::ChoiceElement],
        choice_span: Span,
        body: &[BodyElement],
        span: Span,
    ) {
        let aggregate = Head::Aggregate {
            function: AggregateFunction::Count,
            elements: (elements.iter().cloned())
                .map(ast::HeadAggregateElement::from)
                .collect(),
            guards: guards.to_vec(),
            span: choice_span,
        };
        self.compile(RuleHead::Ast(&aggregate), body, span);
    }

    /// A choice with a `!=` bound: the choice, whose `!=` bounds count
    /// nothing there (an undefined one still takes the rule away, as any
    /// bound does), and a constraint that they hold.
    pub fn unequal_choice(
        &mut self,
        guards: &[ast::Guard],
        elements: &[ast::ChoiceElement],
        choice_span: Span,
        body: &[BodyElement],
        bodies: &[Vec<BodyItem>],
        span: Span,
    ) {
        let reported = self.errors.len();
        self.choice(guards, elements, bodies, span);
        // The constraint would report the choice's error again.
        if self.errors[reported..].iter().any(Diagnostic::is_error) {
            return;
        }
        let unequal: Vec<ast::Guard> = guards
            .iter()
            .filter(|g| g.op == CmpOp::Ne)
            .cloned()
            .collect();
        let counted = elements.iter().map(|e| {
            (
                Vec::new(),
                TupleEnd::Literal,
                Naf::Positive,
                &e.atom,
                &e.condition[..],
                e.span,
            )
        });
        self.require_aggregate(
            AggregateFunction::Count,
            counted,
            &unequal,
            choice_span,
            body,
            span,
        );
    }

    /// A choice whose pools make more elements.
    pub fn choice(
        &mut self,
        guards: &[ast::Guard],
        elements: &[ast::ChoiceElement],
        bodies: &[Vec<BodyItem>],
        span: Span,
    ) {
        let mut expanded = Vec::new();
        for element in elements {
            let conditions = unpool_condition(&element.condition);
            for atom in unpool_atom(&element.atom) {
                for condition in &conditions {
                    expanded.push(ast::ChoiceElement {
                        naf: element.naf,
                        atom: atom.clone(),
                        condition: condition.clone(),
                        span: element.span,
                    });
                }
            }
        }
        for body in bodies {
            self.compile_one(RuleShape::Choice(guards, &expanded), body, span);
        }
    }
}
