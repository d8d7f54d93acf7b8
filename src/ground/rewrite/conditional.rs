//! Conditional literals: a body conditional literal `l : c` as the
//! aggregate `#count{ V : c, not l } = 0`, and a conditional disjunct with
//! pools or intervals, or negated (`p(1..2) : c`, `not p(X) : c`), as an
//! auxiliary conjunction atom `#conjK(V) : c`.
//!
//! Input: AST conditional literals and disjuncts. Output: aggregates whose
//! element's last literal is `not l` (which compiling makes the element's
//! `unless`), and conjunction atoms with their defining rules compiled.

use super::{is_defined, literal_head, literal_variable_names, map_subterms};
use crate::diagnostics::Span;
use crate::ground::compile::Compiler;
use crate::syntax::ast::{
    self, AggregateFunction, Atom, BodyElement, CmpOp, Literal, Naf, Term, TermKind, TupleEnd,
};
use crate::syntax::pools::unpool_atom;
use rustc_hash::FxHashSet;

impl Compiler<'_> {
    /// The atom `#conjK(V)` (`V`: the variables of the disjunct's atom) that
    /// stands for the conjunction of the literals a conditional disjunct
    /// with pools or intervals (`p(1..2) : c`) stands for in clingo, or for
    /// a negated conditional disjunct (`not p(X) : c`): each literal
    /// follows from it, and it holds when the rule's body, the condition and
    /// every literal over a defined atom do (so that it is determined by
    /// them).
    pub fn conjunction(&mut self, disjunct: &ast::HeadLiteral, body: &[BodyElement]) -> Atom {
        let span = disjunct.span;
        let mut names = Vec::new();
        literal_variable_names(
            &Literal::Atom {
                naf: Naf::Positive,
                atom: disjunct.atom.clone(),
            },
            &mut names,
        );
        self.fresh += 1;
        let name = format!("#conj{}", self.fresh);
        let args: Vec<Term> = names
            .into_iter()
            .map(|n| Term {
                kind: TermKind::Variable(n),
                span,
            })
            .collect();
        let conjunction = Atom {
            strong_negation: false,
            term: Term {
                kind: if args.is_empty() {
                    TermKind::Constant(name)
                } else {
                    TermKind::Function { name, args }
                },
                span,
            },
            span,
        };
        let positive = |atom: Atom| Literal::Atom {
            naf: Naf::Positive,
            atom,
        };
        let atoms = unpool_atom(&disjunct.atom);
        for atom in &atoms {
            let head = literal_head(disjunct.naf, atom.clone(), span);
            self.rule(
                &head,
                &[BodyElement::Literal(positive(conjunction.clone()))],
                span,
            );
        }
        // Each atom, for every value of its intervals that makes it defined
        // (clingo leaves the undefined ones out of the conjunction):
        // `p(4/(0..2))` as `p(4/I) : I = 0..2, 4/I = 4/I` (an interval in
        // the literal itself would make a disjunction).
        let every_atom: Vec<BodyElement> = atoms
            .into_iter()
            .map(|atom| {
                let mut condition = Vec::new();
                let term = intervals_as_conditions(&atom.term, &mut condition);
                condition.push(is_defined(term.clone(), span));
                BodyElement::Conditional {
                    literal: Literal::Atom {
                        naf: disjunct.naf,
                        atom: Atom { term, ..atom },
                    },
                    condition,
                    span,
                }
            })
            .collect();
        let definition: Vec<BodyElement> = body
            .iter()
            .cloned()
            .chain(disjunct.condition.iter().cloned().map(BodyElement::Literal))
            .chain(every_atom)
            .collect();
        let head = literal_head(Naf::Positive, conjunction.clone(), span);
        self.rule(&head, &definition, span);
        conjunction
    }
}

/// The variables of a conditional literal `l : c` (the element `c, not l`
/// of [`conditional_as_aggregate`]) that only its atom `l` binds: neither
/// `c` nor the rule does. Empty unless `l` is a positive atom.
pub fn literal_own_variables(element: &[Literal], globals: &FxHashSet<String>) -> Vec<String> {
    let Some((
        Literal::Atom { naf: Naf::Not, .. } | Literal::Comparison { naf: Naf::Not, .. },
        condition,
    )) = element.split_last()
    else {
        return Vec::new();
    };
    let mut bound = Vec::new();
    for literal in condition {
        literal_variable_names(literal, &mut bound);
    }
    let mut own = Vec::new();
    literal_variable_names(&element[element.len() - 1], &mut own);
    own.retain(|v| !bound.contains(v) && !globals.contains(v));
    own
}

/// The negation `not l` of a conditional literal's `l` with `naf`, and
/// back. `not not not a` is `not a`, but the element must know that its `l`
/// is `not not a`, a negative dependency: it reads `not not a` as the mark
/// (see `aggregate`).
pub fn complement(naf: Naf) -> Naf {
    match naf {
        Naf::Positive => Naf::Not,
        Naf::Not => Naf::Positive,
        Naf::NotNot => Naf::NotNot,
    }
}

/// `literal` with its negation [`complement`]ed.
pub fn complemented(literal: &Literal) -> Literal {
    let mut literal = literal.clone();
    match &mut literal {
        Literal::Atom { naf, .. }
        | Literal::Comparison { naf, .. }
        | Literal::Boolean { naf, .. } => *naf = complement(*naf),
    }
    literal
}

/// `l : c` in a body holds when `l` holds for every instance of `c`: as an
/// aggregate, no instance of `c` has `l` false, `#count{ V : c, ¬l } = 0`
/// over the variables `V` of the element.
pub fn conditional_as_aggregate(
    literal: &Literal,
    condition: &[Literal],
    span: Span,
) -> ast::Aggregate {
    let negated = complemented(literal);
    let mut names = Vec::new();
    for l in condition.iter().chain([literal]) {
        literal_variable_names(l, &mut names);
    }
    let terms = names
        .into_iter()
        .map(|name| Term {
            kind: TermKind::Variable(name),
            span,
        })
        .collect();
    ast::Aggregate {
        naf: Naf::Positive,
        function: AggregateFunction::Count,
        elements: vec![ast::AggregateElement {
            terms,
            condition: condition.iter().cloned().chain([negated]).collect(),
            tuple_end: TupleEnd::Nothing,
            span,
        }],
        guards: vec![ast::Guard {
            op: CmpOp::Eq,
            term: Term {
                kind: TermKind::Integer(0),
                span,
            },
        }],
        span,
    }
}

/// `term` with each interval `lo..hi` replaced by a new variable `#intervalI`,
/// and the conditions `#intervalI = lo..hi` that give it its values.
pub fn intervals_as_conditions(term: &Term, conditions: &mut Vec<Literal>) -> Term {
    if !matches!(term.kind, TermKind::Interval(..)) {
        return map_subterms(term, |t| intervals_as_conditions(t, conditions));
    }
    let variable = Term {
        kind: TermKind::Variable(format!("#interval{}", conditions.len())),
        span: term.span,
    };
    conditions.push(Literal::Comparison {
        naf: Naf::Positive,
        lhs: variable.clone(),
        op: CmpOp::Eq,
        rhs: term.clone(),
        span: term.span,
    });
    variable
}
