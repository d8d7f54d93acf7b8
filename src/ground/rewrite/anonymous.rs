//! Anonymous variables: `_` in a negative literal is projected through an
//! auxiliary predicate (`not p(X, _)` becomes `not #projK(X)` with
//! `#projK(V) :- p(V, _).`), and so is `_` in a positive literal of a rule
//! body with other atoms, as gringo projects it: `d(N,V,W) :- m(N,_,_,E,F),
//! e(V,E), e(W,F).` is then grounded once for each `N, E, F`, not once for
//! each `m` atom. `_` in a statement about an atom is named.
//!
//! Input: an atom with `_`. Output: an atom without `_` in a negative
//! literal or a projected positive one, the auxiliary rule compiled beside;
//! elsewhere each `_` is a variable of its own, `#anonK`.

use super::{literal_head, map_subterms};
use crate::diagnostics::Diagnostic;
use crate::ground::compile::Compiler;
use crate::ground::compiled::{CAtom, CLit};
use crate::ground::lower::Scope;
use crate::syntax::ast::{Atom, BodyElement, Literal, Naf, Term, TermKind};

impl Compiler<'_> {
    /// `term` with each `_` a variable of its own, named as [`Self::term`]
    /// names them.
    pub fn name_anonymous(&mut self, term: &mut Term) {
        match &mut term.kind {
            TermKind::Anonymous => {
                self.fresh += 1;
                term.kind = TermKind::Variable(format!("#anon{}", self.fresh));
            }
            TermKind::Function { args, .. } | TermKind::Tuple(args) | TermKind::Pool(args) => {
                args.iter_mut().for_each(|a| self.name_anonymous(a))
            }
            TermKind::Interval(a, b) | TermKind::Binary(_, a, b) => {
                self.name_anonymous(a);
                self.name_anonymous(b);
            }
            TermKind::Unary(_, a) => self.name_anonymous(a),
            _ => {}
        }
    }

    /// The atom of `literal` when it is projected: a positive literal with
    /// `_` (not strongly negated, as for `not`) in a rule body of `atoms`
    /// atom literals, at least two. gringo projects those, and not the one
    /// atom of `q(X) :- p(X, _).`, whose projection would only add rules.
    pub fn projectable<'l>(&self, literal: &'l Literal, atoms: usize) -> Option<&'l Atom> {
        match literal {
            Literal::Atom {
                naf: Naf::Positive,
                atom,
            } if atoms > 1
                && has_anonymous(&atom.term)
                && !atom.strong_negation
                && self.never_defined(literal).is_none() =>
            {
                Some(atom)
            }
            _ => None,
        }
    }

    /// A positive body literal `p(t, _)` as `#projK(t)`, with
    /// `#projK(V) :- p(V, _).` ([`Self::project`]); it binds the variables
    /// of `t` as `p(t, _)` does.
    pub fn project_positive(
        &mut self,
        atom: &Atom,
        scope: &mut Scope,
        out: &mut Vec<CLit>,
    ) -> Result<bool, Diagnostic> {
        let projected = self.project(atom, scope, out)?;
        out.push(CLit::Pos(projected));
        Ok(true)
    }

    /// `not p(t, _)` becomes `not #projK(t)` with `#projK(V) :- p(V, _).`,
    /// which is what the anonymous variable means: no `p(t, _)` at all. As
    /// in clingo, every subterm without `_` is captured by value, so the
    /// auxiliary rule is safe whatever the subterm (`not d(_, X+1)`).
    pub fn project(
        &mut self,
        atom: &Atom,
        scope: &mut Scope,
        out: &mut Vec<CLit>,
    ) -> Result<CAtom, Diagnostic> {
        let mut captured = Vec::new();
        let pattern = capture_anonymous_free(&atom.term, &mut captured);
        self.fresh += 1;
        let name = format!("#proj{}", self.fresh);
        let projection = |args: Vec<Term>| Atom {
            strong_negation: false,
            term: Term {
                kind: if args.is_empty() {
                    TermKind::Constant(name.clone())
                } else {
                    TermKind::Function {
                        name: name.clone(),
                        args,
                    }
                },
                span: atom.span,
            },
            span: atom.span,
        };
        let variables = (0..captured.len())
            .map(|i| Term {
                kind: TermKind::Variable(format!("#captured{i}")),
                span: atom.span,
            })
            .collect();
        let aux_body = [BodyElement::Literal(Literal::Atom {
            naf: Naf::Positive,
            atom: Atom {
                term: pattern,
                ..atom.clone()
            },
        })];
        let aux_head = literal_head(Naf::Positive, projection(variables), atom.span);
        self.rule(&aux_head, &aux_body, atom.span);
        self.atom(&projection(captured), scope, out)
    }
}

pub fn has_anonymous(term: &Term) -> bool {
    match &term.kind {
        TermKind::Anonymous => true,
        TermKind::Function { args, .. } | TermKind::Tuple(args) | TermKind::Pool(args) => {
            args.iter().any(has_anonymous)
        }
        TermKind::Interval(a, b) | TermKind::Binary(_, a, b) => {
            has_anonymous(a) || has_anonymous(b)
        }
        TermKind::Unary(_, a) => has_anonymous(a),
        _ => false,
    }
}

/// The term with each maximal subterm free of `_` replaced by the variable
/// `#captured<i>`, where `captured[i]` is that subterm.
pub fn capture_anonymous_free(term: &Term, captured: &mut Vec<Term>) -> Term {
    if !has_anonymous(term) {
        captured.push(term.clone());
        return Term {
            kind: TermKind::Variable(format!("#captured{}", captured.len() - 1)),
            span: term.span,
        };
    }
    map_subterms(term, |t| capture_anonymous_free(t, captured))
}
