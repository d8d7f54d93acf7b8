//! Arithmetic: operations that no value of their variables defines, and
//! arithmetic that matching cannot invert.
//!
//! Input: AST terms (for the undefined operations) and compiled rules (for
//! the separation). Output: a literal, element or rule with an operation
//! never defined (`f(X)+1`, `a+X`, `1/0`) is dropped with clingo's info
//! `operation undefined`; in a compiled rule, no positive atom holds
//! arithmetic over variables that only the atom itself binds (`q(D-J, J)`
//! becomes `q(A, J), A = D-J`), so that every atom can be matched.

use crate::diagnostics::{Diagnostic, Span};
use crate::ground::compile::Compiler;
use crate::ground::compiled::{CHead, CLit, CRule};
use crate::ground::eval::{CTerm, Op1, integer_binary, integer_unary};
use crate::ground::lower::{Scope, op1};
use crate::ground::safety::{bind_fixpoint, placeable_fixpoint};
use crate::syntax::ast::{BinaryOp, CmpOp, Literal, Term, TermKind, UnaryOp};

impl Compiler<'_> {
    /// The span of an operation in `term` over a function, string, tuple or
    /// symbolic constant, or a division by a constant zero, which no value
    /// of its variables defines (`f(X)+1`, `a+X`, `(1..9)/0`): clingo drops
    /// the literal (and the rule or element it is in) while rewriting,
    /// before it checks safety.
    pub fn undefined_operation(&self, term: &Term) -> Option<Span> {
        let constant = |t: &Term| match &t.kind {
            TermKind::Constant(name) => self.undefined_constant(name),
            _ => None,
        };
        if let Some(span) = term.find(|t| constant(t).is_some()).and_then(constant) {
            return Some(span);
        }
        let symbolic = |t: &Term| match &t.kind {
            TermKind::Function { .. } | TermKind::String(_) | TermKind::Tuple(_) => true,
            TermKind::Constant(name) => {
                (self.constant_value(name)).is_none_or(|v| self.symbols.as_number(v).is_none())
            }
            _ => false,
        };
        let undefined = term.find(|t| match &t.kind {
            TermKind::Binary(BinaryOp::Div | BinaryOp::Mod, _, b)
                if self.integer_value(b) == Some(0) =>
            {
                true
            }
            TermKind::Binary(_, a, b) => symbolic(a) || symbolic(b),
            TermKind::Unary(UnaryOp::Abs | UnaryOp::BitNot, a) => symbolic(a),
            _ => false,
        });
        undefined.map(|t| t.span)
    }

    /// The span of the value of `name`, a constant never defined.
    pub fn undefined_constant(&self, name: &str) -> Option<Span> {
        if self.params.iter().any(|(p, _)| p == name) {
            return None;
        }
        self.undefined_consts.get(name).copied()
    }

    /// The integer a term without variables or intervals evaluates to, if
    /// any (`1-1`, or a `#const` whose value is 0).
    pub fn integer_value(&self, term: &Term) -> Option<i32> {
        match &term.kind {
            TermKind::Integer(n) => Some(*n),
            TermKind::Constant(name) => self.symbols.as_number(self.constant_value(name)?),
            TermKind::Unary(op, a) => Some(integer_unary(op1(*op), self.integer_value(a)?)),
            TermKind::Binary(op, a, b) => {
                integer_binary(*op, self.integer_value(a)?, self.integer_value(b)?)
            }
            _ => None,
        }
    }

    /// The span of a term of `literal` that is never defined
    /// ([`Self::undefined_operation`]).
    pub fn never_defined(&self, literal: &Literal) -> Option<Span> {
        match literal {
            Literal::Atom { atom, .. } => self.undefined_operation(&atom.term),
            Literal::Comparison { lhs, rhs, .. } => {
                (self.undefined_operation(lhs)).or_else(|| self.undefined_operation(rhs))
            }
            Literal::Boolean { .. } => None,
        }
    }

    /// clingo's info on an operation that is never defined, at `span`.
    pub fn operation_undefined(&mut self, span: Span) {
        let mut info = Diagnostic::info(span, "operation undefined:");
        info.group = "operation-undefined";
        self.errors.push(info);
    }
}

/// Moves arithmetic that matching cannot invert out of the positive atoms
/// that bind its variables themselves: `q(D-J,J)`, where only `q` binds
/// `J`, becomes `q(A,J), A = D-J`, as clingo rewrites it. Without this the
/// atom could never be matched, since `D-J` is evaluated before `J` has a
/// value. Arithmetic whose variables the other literals bind first stays
/// in the atom, where it selects the atom's instances by an index. Done for
/// the body, the conditions of body aggregates' elements and those of the
/// head's elements; a condition's context is the body's variables.
pub fn separate_unbindable_arithmetic(rule: &mut CRule, scope: &mut Scope) {
    separate_in(&mut rule.body, &[], scope);
    let mut body_bound = vec![false; scope.count];
    bind_fixpoint(&rule.body, &mut body_bound);
    for literal in &mut rule.body {
        if let CLit::Aggregate(aggregate) = literal {
            for element in &mut aggregate.elements {
                separate_in(&mut element.condition, &body_bound, scope);
                if element.literal_binds
                    && let Some(literal) = element.unless.take()
                {
                    let mut local = body_bound.clone();
                    local.resize(scope.count, false);
                    bind_fixpoint(&element.condition, &mut local);
                    let mut literals = vec![literal];
                    separate_in(&mut literals, &local, scope);
                    element.unless = Some(literals.remove(0));
                    element.literal_bindings.extend(literals);
                }
            }
        }
    }
    if let CHead::Disjunction(elements) | CHead::Choice { elements, .. } = &mut rule.head {
        for element in elements {
            separate_in(&mut element.condition, &body_bound, scope);
        }
    }
    rule.num_vars = scope.count;
}

/// Separates, one atom at a time, the arithmetic of the first positive atom
/// the grounder could not place after everything placeable in `literals`
/// (given the variables of `context`) has bound what it binds, until every
/// atom is placeable or none can be helped (an unsafe rule, reported by
/// [`check_safety`]).
pub fn separate_in(literals: &mut Vec<CLit>, context: &[bool], scope: &mut Scope) {
    loop {
        let mut bound = context.to_vec();
        bound.resize(scope.count, false);
        let placed = placeable_fixpoint(literals, &mut bound);
        let stuck = literals.iter().zip(&placed).position(|(literal, &placed)| {
            !placed && matches!(literal, CLit::Pos(atom) if atom.args.iter().any(|a| !a.inputs_bound(&bound)))
        });
        let Some(i) = stuck else { return };
        let CLit::Pos(atom) = &mut literals[i] else {
            unreachable!("only positive atoms are separated")
        };
        let span = atom.span;
        let mut separated = Vec::new();
        for arg in &mut atom.args {
            *arg = separate_term(arg, &bound, &mut |term| {
                let var = scope.var(&format!("#arith{}", scope.count), span);
                separated.push(CLit::Cmp(CmpOp::Eq, CTerm::Var(var), term));
                CTerm::Var(var)
            });
        }
        if separated.is_empty() {
            return;
        }
        literals.extend(separated);
    }
}

/// `term` with each maximal subterm that matching cannot bind through, and
/// whose variables are not all `bound`, replaced by `fresh(subterm)`.
pub fn separate_term(
    term: &CTerm,
    bound: &[bool],
    fresh: &mut impl FnMut(CTerm) -> CTerm,
) -> CTerm {
    match term {
        CTerm::Sym(_) | CTerm::Var(_) | CTerm::Linear { .. } => term.clone(),
        CTerm::Fun { name, args } => CTerm::Fun {
            name: *name,
            args: args
                .iter()
                .map(|a| separate_term(a, bound, fresh))
                .collect(),
        },
        CTerm::Unary(Op1::Minus, inner) => {
            CTerm::Unary(Op1::Minus, Box::new(separate_term(inner, bound, fresh)))
        }
        CTerm::Unary(..) | CTerm::Binary(..) if term.is_bound(bound) => term.clone(),
        CTerm::Unary(..) | CTerm::Binary(..) => fresh(term.clone()),
    }
}
