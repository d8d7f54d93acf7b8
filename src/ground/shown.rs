//! clingo's info for a `#show p/n.` whose signature no atom of the program
//! has (most often a misspelt or forgotten predicate).

use crate::diagnostics::{Diagnostic, Span};
use crate::syntax::ast::{
    Atom, BodyElement, Facts, Head, Literal, ProjectTarget, Signature, Statement, StatementKind,
    TermKind,
};
use crate::syntax::facts::FactTerm;
use rustc_hash::FxHashSet;

/// One info per signature of a `#show p/n.` over which no atom occurs
/// anywhere in the program, as gringo's `checkOutPreds` reports it: in the
/// group `atom-undefined`, at the signature's first `#show`, quoting the
/// signature, ordered by sign (positive first), arity and name.
///
/// An atom occurs wherever it is written, in any program part, grounded or
/// not; a `#defined` or `#project` signature occurs too, and so does `p/n`
/// when `-p` is in a head (gringo then adds `:- p(..), -p(..).`).
pub fn unmatched_show_infos(statements: &[Statement]) -> Vec<Diagnostic> {
    let occurring = occurring_signatures(statements);
    let mut unmatched: Vec<(&Signature, Span)> = Vec::new();
    for statement in statements {
        if let StatementKind::ShowSignature(signature) = &statement.kind
            && !occurring.contains(signature)
            && !unmatched.iter().any(|(s, _)| *s == signature)
        {
            unmatched.push((signature, statement.span));
        }
    }
    unmatched.sort_by(|(a, _), (b, _)| {
        let key = |s: &Signature| (s.strong_negation, s.arity, s.name.as_bytes().to_vec());
        key(a).cmp(&key(b))
    });
    (unmatched.into_iter())
        .map(|(signature, span)| {
            let sign = if signature.strong_negation { "-" } else { "" };
            let mut info = Diagnostic::info(span, "no atoms over signature occur in program:")
                .quoting(format!("{sign}{}/{}", signature.name, signature.arity));
            info.group = "atom-undefined";
            info
        })
        .collect()
}

/// The signatures of the atoms that occur in a program, as
/// [`unmatched_show_infos`] counts them.
pub fn occurring_signatures(statements: &[Statement]) -> FxHashSet<Signature> {
    let mut occurring = Occurring::default();
    for statement in statements {
        occurring.statement(&statement.kind);
    }
    occurring.0
}

/// The signatures of the atoms written in a program.
#[derive(Default)]
struct Occurring(FxHashSet<Signature>);

impl Occurring {
    fn statement(&mut self, kind: &StatementKind) {
        match kind {
            StatementKind::Rule { head, body } => {
                self.head(head);
                self.body(body);
            }
            StatementKind::ShowTerm { body, .. } | StatementKind::Edge { body, .. } => {
                self.body(body)
            }
            StatementKind::Optimize { elements, .. } => {
                for element in elements {
                    self.body(&element.condition);
                }
            }
            StatementKind::External { atom, body, .. } => {
                self.atom(atom, true);
                self.body(body);
            }
            StatementKind::Facts(facts) => self.facts(facts),
            StatementKind::Heuristic { atom, body, .. } => {
                self.atom(atom, false);
                self.body(body);
            }
            StatementKind::Project(ProjectTarget::Atom { atom, body }) => {
                self.atom(atom, false);
                self.body(body);
            }
            StatementKind::Project(ProjectTarget::Signature(signature))
            | StatementKind::Defined(signature) => {
                self.0.insert(signature.clone());
            }
            _ => {}
        }
    }

    fn head(&mut self, head: &Head) {
        match head {
            Head::Constraint => {}
            Head::Comparison { disjuncts, .. } | Head::Disjunction(disjuncts) => {
                for disjunct in disjuncts {
                    self.atom(&disjunct.atom, true);
                    self.literals(&disjunct.condition);
                }
            }
            Head::Choice { elements, .. } => {
                for element in elements {
                    self.atom(&element.atom, true);
                    self.literals(&element.condition);
                }
            }
            Head::Aggregate { elements, .. } => {
                for element in elements {
                    self.atom(&element.atom, true);
                    self.literals(&element.condition);
                }
            }
        }
    }

    fn body(&mut self, body: &[BodyElement]) {
        for element in body {
            match element {
                BodyElement::Literal(literal) => self.literal(literal),
                BodyElement::Conditional {
                    literal, condition, ..
                } => {
                    self.literal(literal);
                    self.literals(condition);
                }
                BodyElement::Aggregate(aggregate) => {
                    for element in &aggregate.elements {
                        self.literals(&element.condition);
                    }
                }
                BodyElement::Unsupported { .. } => {}
            }
        }
    }

    fn literals(&mut self, literals: &[Literal]) {
        for literal in literals {
            self.literal(literal);
        }
    }

    fn literal(&mut self, literal: &Literal) {
        if let Literal::Atom { atom, .. } = literal {
            self.atom(atom, false);
        }
    }

    /// The predicates of a run of facts (head atoms).
    fn facts(&mut self, facts: &Facts) {
        for i in 0..facts.len() {
            if let Some(&FactTerm::Function {
                name,
                arity,
                negative,
            }) = facts.atom(i).first()
            {
                let name = facts.name(name);
                self.signature(name, arity as usize, negative, true);
            }
        }
    }

    /// Each atom of a pool; `in_head`: a strongly negated head atom makes
    /// its positive signature occur too.
    fn atom(&mut self, atom: &Atom, in_head: bool) {
        let mut terms = vec![&atom.term];
        while let Some(term) = terms.pop() {
            let (name, arity) = match &term.kind {
                TermKind::Pool(alternatives) => {
                    terms.extend(alternatives);
                    continue;
                }
                TermKind::Function { name, args } => (name, args.len()),
                TermKind::Constant(name) => (name, 0),
                _ => continue,
            };
            self.signature(name, arity, atom.strong_negation, in_head);
        }
    }

    fn signature(&mut self, name: &str, arity: usize, strong_negation: bool, in_head: bool) {
        for strong_negation in [strong_negation, false] {
            self.0.insert(Signature {
                strong_negation,
                name: name.to_owned(),
                arity,
            });
            if !in_head {
                break;
            }
        }
    }
}
