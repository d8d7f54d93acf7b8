//! gringo 3's pools in bodies and conditions: there, `p(X;Y)` is the
//! conjunction `p(X), p(Y)`, where clingo makes a copy of the rule (or of
//! the element) for each alternative. `1 { x(R,C,V) : val(V) } 1 :-
//! size(R;C).` is safe in gringo 3 and refused by clingo, whose copies
//! bind `R` or `C` but never both.
//!
//! Input: a statement as written. Output: the same statement with each
//! such pool read as a conjunction, when it has one. Compiling falls back
//! on this reading only for a statement that clingo's reading refuses
//! ([`crate::ground::compile::Compiler::statement`]), so no program clingo
//! accepts changes meaning.
//!
//! Only a pool of atoms of one predicate with one argument is read so
//! (`size(R;C)`, as gringo 3 programs write them): the parser has hoisted
//! an argument's pool to the atom (`p(1,2;3)` is `p(1,2)` or `p(3)`), and
//! gringo 3's reading of a longer one, `p(1,(2;3))`, is lost by then.

use crate::syntax::ast::{
    BodyElement, Head, Literal, OptimizeElement, ProjectTarget, StatementKind, Term, TermKind,
};
use crate::syntax::pools::unpool_literal;

/// `kind` with its pools in bodies and conditions read as conjunctions;
/// `None` when it has none.
pub fn conjoined_pools(kind: &StatementKind) -> Option<StatementKind> {
    let mut copy = kind.clone();
    let mut conjoined = false;
    match &mut copy {
        StatementKind::Rule { head, body } => {
            head_conditions(head, &mut conjoined);
            body_elements(body, &mut conjoined);
        }
        StatementKind::ShowTerm { body, .. }
        | StatementKind::External { body, .. }
        | StatementKind::Edge { body, .. }
        | StatementKind::Heuristic { body, .. }
        | StatementKind::Project(ProjectTarget::Atom { body, .. }) => {
            body_elements(body, &mut conjoined)
        }
        StatementKind::Optimize { elements, .. } => {
            for OptimizeElement { condition, .. } in elements {
                body_elements(condition, &mut conjoined);
            }
        }
        _ => {}
    }
    conjoined.then_some(copy)
}

fn head_conditions(head: &mut Head, conjoined: &mut bool) {
    match head {
        Head::Constraint => {}
        Head::Comparison { disjuncts, .. } | Head::Disjunction(disjuncts) => {
            for disjunct in disjuncts {
                literals(&mut disjunct.condition, conjoined);
            }
        }
        Head::Choice { elements, .. } => {
            for element in elements {
                literals(&mut element.condition, conjoined);
            }
        }
        Head::Aggregate { elements, .. } => {
            for element in elements {
                literals(&mut element.condition, conjoined);
            }
        }
    }
}

fn body_elements(body: &mut Vec<BodyElement>, conjoined: &mut bool) {
    let mut read = Vec::with_capacity(body.len());
    for mut element in body.drain(..) {
        match &mut element {
            BodyElement::Literal(literal) => {
                if let Some(conjuncts) = conjuncts(literal) {
                    *conjoined = true;
                    read.extend(conjuncts.into_iter().map(BodyElement::Literal));
                    continue;
                }
            }
            BodyElement::Conditional { condition, .. } => literals(condition, conjoined),
            BodyElement::Aggregate(aggregate) => {
                for element in &mut aggregate.elements {
                    literals(&mut element.condition, conjoined);
                }
            }
            BodyElement::Unsupported { .. } => {}
        }
        read.push(element);
    }
    *body = read;
}

fn literals(condition: &mut Vec<Literal>, conjoined: &mut bool) {
    let mut read = Vec::with_capacity(condition.len());
    for literal in condition.drain(..) {
        match conjuncts(&literal) {
            Some(conjuncts) => {
                *conjoined = true;
                read.extend(conjuncts);
            }
            None => read.push(literal),
        }
    }
    *condition = read;
}

/// The literals a pooled atom's literal stands for in gringo 3.
fn conjuncts(literal: &Literal) -> Option<Vec<Literal>> {
    let Literal::Atom { atom, .. } = literal else {
        return None;
    };
    let TermKind::Pool(alternatives) = &atom.term.kind else {
        return None;
    };
    one_predicate_of_one_argument(alternatives).then(|| unpool_literal(literal))
}

/// Whether the terms are atoms of one predicate with one argument.
fn one_predicate_of_one_argument(terms: &[Term]) -> bool {
    let name = |term: &Term| match &term.kind {
        TermKind::Function { name, args } if args.len() == 1 => Some(name.clone()),
        _ => None,
    };
    let first = terms.first().and_then(name);
    first.is_some() && terms.iter().all(|term| name(term) == first)
}
