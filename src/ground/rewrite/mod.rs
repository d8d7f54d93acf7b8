//! The rewritings of the AST (and of compiled rules) that compiling orders,
//! one module a pass, each stating what it takes and what it leaves:
//! [`unpool`], [`heads`], [`conditional`], [`anonymous`], [`arithmetic`],
//! [`symmetry`], and gringo 3's reading of a refused statement's pools,
//! [`conjoin`].
//! This module holds the AST they build from.

pub mod anonymous;
pub mod arithmetic;
pub mod conditional;
pub mod conjoin;
pub mod heads;
pub mod symmetry;
pub mod unpool;

#[cfg(test)]
mod tests;

use crate::diagnostics::Span;
use crate::syntax::ast::{self, Atom, CmpOp, Head, Literal, Naf, Term, TermKind};
use rustc_hash::FxHashSet;

/// `t = t`: holds exactly when `t` is defined (`1/0 = 1/0` does not), so
/// that an undefined term drops what it guards.
pub fn is_defined(term: Term, span: Span) -> Literal {
    Literal::Comparison {
        naf: Naf::Positive,
        lhs: term.clone(),
        op: CmpOp::Eq,
        rhs: term,
        span,
    }
}

/// `naf a` as a body literal. In a head, `#true` and `#false` are atoms
/// of those names (`a | not #true`), and so is the `not #false` that
/// stands for a comparison in a head aggregate: they are truth values.
pub fn atom_literal(naf: Naf, atom: &Atom) -> Literal {
    match &atom.term.kind {
        TermKind::Constant(name) if name == "#true" || name == "#false" => Literal::Boolean {
            naf,
            value: name == "#true",
            span: atom.span,
        },
        _ => Literal::Atom {
            naf,
            atom: atom.clone(),
        },
    }
}

/// The head of a rule with the one unconditional literal `naf atom`.
pub fn literal_head(naf: Naf, atom: Atom, span: Span) -> Head {
    Head::Disjunction(vec![ast::HeadLiteral {
        naf,
        atom,
        condition: Vec::new(),
        span,
    }])
}

/// The head `name(args)` of a rule defining an auxiliary atom.
pub fn auxiliary_head(name: &str, args: Vec<Term>, span: Span) -> Head {
    let term = Term {
        kind: TermKind::Function {
            name: name.to_string(),
            args,
        },
        span,
    };
    let atom = Atom {
        strong_negation: false,
        term,
        span,
    };
    literal_head(Naf::Positive, atom, span)
}

/// `term` with the constant `name` replaced by `value` wherever it occurs.
pub fn substituted(term: &Term, name: &str, value: &Term) -> Term {
    match &term.kind {
        TermKind::Constant(n) if n == name => value.clone(),
        _ => map_subterms(term, |t| substituted(t, name, value)),
    }
}

/// `term` with `f` applied to its direct subterms (the arguments of a
/// function or tuple, the operands of an operator); other terms unchanged.
pub fn map_subterms(term: &Term, mut f: impl FnMut(&Term) -> Term) -> Term {
    let kind = match &term.kind {
        TermKind::Function { name, args } => TermKind::Function {
            name: name.clone(),
            args: args.iter().map(&mut f).collect(),
        },
        TermKind::Tuple(args) => TermKind::Tuple(args.iter().map(&mut f).collect()),
        TermKind::Unary(op, a) => TermKind::Unary(*op, Box::new(f(a))),
        TermKind::Binary(op, a, b) => {
            let a = Box::new(f(a));
            TermKind::Binary(*op, a, Box::new(f(b)))
        }
        other => other.clone(),
    };
    Term {
        kind,
        span: term.span,
    }
}

/// The named variables of a literal, in order of first occurrence, added
/// to `names` if not there yet.
pub fn literal_variable_names(literal: &Literal, names: &mut Vec<String>) {
    let terms: Vec<&Term> = match literal {
        Literal::Atom { atom, .. } => vec![&atom.term],
        Literal::Comparison { lhs, rhs, .. } => vec![lhs, rhs],
        Literal::Boolean { .. } => Vec::new(),
    };
    for term in terms {
        let mut found = FxHashSet::default();
        collect_variable_names(term, &mut found);
        let mut found: Vec<String> = found.into_iter().filter(|n| !names.contains(n)).collect();
        found.sort();
        names.extend(found);
    }
}

/// Adds the names of the variables of `term`.
pub fn collect_variable_names(term: &Term, names: &mut FxHashSet<String>) {
    names.extend(term.subterms().filter_map(|term| match &term.kind {
        TermKind::Variable(name) => Some(name.clone()),
        _ => None,
    }));
}
