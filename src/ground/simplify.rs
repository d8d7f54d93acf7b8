//! The last grounding pass: propagates facts and underivable atoms to a
//! fixpoint, then renumbers the surviving atoms densely.
//!
//! Grounding simplifies each instance with what it knows at that moment;
//! an atom can become a fact, or turn out underivable, only later (inside a
//! recursive component, or through negation). This pass finishes the job:
//! afterwards no body mentions a fact or an atom without rules, and every
//! fact is represented by exactly one rule with an empty body.

use super::instantiate::AtomTable;
use crate::ground::program::{
    Atom, AtomId, Body, ChoiceElement, GroundProgram, Head, Rule, ShowTerm,
};
use crate::symbols::SymbolTable;

pub struct Simplifier<'a> {
    pub atoms: &'a AtomTable,
    fact: Vec<bool>,
    derivable: Vec<bool>,
}

/// What simplifying a body found.
enum Simplified {
    /// The body can never hold.
    False,
    Body(Body),
}

impl<'a> Simplifier<'a> {
    pub fn new(atoms: &'a AtomTable) -> Self {
        Simplifier {
            atoms,
            fact: atoms.fact.clone(),
            derivable: vec![false; atoms.len()],
        }
    }

    pub fn run(
        mut self,
        mut rules: Vec<Rule>,
        mut show_terms: Vec<ShowTerm>,
        symbols: SymbolTable,
        shown: impl Fn(usize) -> bool,
    ) -> GroundProgram {
        loop {
            self.recompute_derivable(&rules);
            let before = (rules.len(), self.fact.iter().filter(|&&f| f).count());
            let mut changed = false;
            rules = rules
                .into_iter()
                .filter_map(|rule| self.rule(rule, &mut changed))
                .collect();
            let after = (rules.len(), self.fact.iter().filter(|&&f| f).count());
            if !changed && before == after {
                break;
            }
        }
        show_terms = show_terms
            .into_iter()
            .filter_map(|show| match self.body(&show.body) {
                Simplified::False => None,
                Simplified::Body(body) => Some(ShowTerm { body, ..show }),
            })
            .collect();
        self.compact(rules, show_terms, symbols, shown)
    }

    fn recompute_derivable(&mut self, rules: &[Rule]) {
        self.derivable.iter_mut().for_each(|d| *d = false);
        for (a, &fact) in self.fact.iter().enumerate() {
            if fact {
                self.derivable[a] = true;
            }
        }
        for rule in rules {
            match &rule.head {
                Head::Constraint => {}
                Head::Atom(a) => self.derivable[a.index()] = true,
                Head::Disjunction(atoms) => {
                    atoms.iter().for_each(|a| self.derivable[a.index()] = true)
                }
                Head::Choice { elements, .. } => elements
                    .iter()
                    .for_each(|e| self.derivable[e.atom.index()] = true),
            }
        }
    }

    fn body(&self, body: &Body) -> Simplified {
        if body.pos.iter().any(|a| !self.derivable[a.index()])
            || body.neg.iter().any(|a| self.fact[a.index()])
        {
            return Simplified::False;
        }
        Simplified::Body(Body {
            pos: body
                .pos
                .iter()
                .copied()
                .filter(|a| !self.fact[a.index()])
                .collect(),
            neg: body
                .neg
                .iter()
                .copied()
                .filter(|a| self.derivable[a.index()])
                .collect(),
        })
    }

    /// Simplifies one rule; `None` drops it. Facts are dropped here and
    /// re-added once, at the end.
    fn rule(&mut self, rule: Rule, changed: &mut bool) -> Option<Rule> {
        let body = match self.body(&rule.body) {
            Simplified::False => return None,
            Simplified::Body(body) => body,
        };
        let head = match rule.head {
            Head::Atom(a) => {
                if self.fact[a.index()] {
                    return None;
                }
                if body.is_empty() {
                    self.fact[a.index()] = true;
                    *changed = true;
                    return None;
                }
                Head::Atom(a)
            }
            Head::Disjunction(atoms) => {
                if atoms.iter().any(|a| self.fact[a.index()]) {
                    return None;
                }
                Head::Disjunction(atoms)
            }
            Head::Choice { elements, bounds } => {
                let elements: Vec<ChoiceElement> = elements
                    .into_iter()
                    .filter_map(|e| self.element(e))
                    .collect();
                if elements.is_empty() && bounds.lower == 0 {
                    return None;
                }
                Head::Choice { elements, bounds }
            }
            Head::Constraint => Head::Constraint,
        };
        Some(Rule {
            head,
            body,
            origin: rule.origin,
        })
    }

    fn element(&self, element: ChoiceElement) -> Option<ChoiceElement> {
        let mut conditions: Vec<Body> = element
            .conditions
            .iter()
            .filter_map(|c| match self.body(c) {
                Simplified::False => None,
                Simplified::Body(b) => Some(b),
            })
            .collect();
        if conditions.is_empty() {
            return None;
        }
        if conditions.iter().any(Body::is_empty) {
            conditions = vec![Body::default()];
        }
        conditions.dedup();
        Some(ChoiceElement {
            atom: element.atom,
            conditions,
        })
    }

    /// Renumbers the atoms that are facts or have rules, in order of first
    /// derivation, and adds one rule per fact.
    fn compact(
        self,
        rules: Vec<Rule>,
        show_terms: Vec<ShowTerm>,
        symbols: SymbolTable,
        shown: impl Fn(usize) -> bool,
    ) -> GroundProgram {
        let mut new_id = vec![u32::MAX; self.atoms.len()];
        let mut atoms = Vec::new();
        for a in 0..self.atoms.len() {
            if self.derivable[a] || self.fact[a] {
                new_id[a] = atoms.len() as u32;
                atoms.push(Atom {
                    symbol: self.atoms.syms[a],
                    shown: shown(a),
                });
            }
        }
        let map = |a: AtomId| AtomId(new_id[a.index()]);
        let map_body = |b: &Body| {
            Body::new(
                b.pos.iter().map(|&a| map(a)).collect(),
                b.neg.iter().map(|&a| map(a)).collect(),
            )
        };
        let mut out_rules = Vec::with_capacity(rules.len());
        for (a, &fact) in self.fact.iter().enumerate() {
            if fact {
                out_rules.push(Rule {
                    head: Head::Atom(AtomId(new_id[a])),
                    body: Body::default(),
                    origin: Default::default(),
                });
            }
        }
        for rule in rules {
            let head = match rule.head {
                Head::Constraint => Head::Constraint,
                Head::Atom(a) => Head::Atom(map(a)),
                Head::Disjunction(atoms) => Head::Disjunction(atoms.into_iter().map(map).collect()),
                Head::Choice { elements, bounds } => Head::Choice {
                    elements: elements
                        .into_iter()
                        .map(|e| ChoiceElement {
                            atom: map(e.atom),
                            conditions: e.conditions.iter().map(map_body).collect(),
                        })
                        .collect(),
                    bounds,
                },
            };
            out_rules.push(Rule {
                head,
                body: map_body(&rule.body),
                origin: rule.origin,
            });
        }
        let show_terms = show_terms
            .into_iter()
            .map(|s| ShowTerm {
                term: s.term,
                body: map_body(&s.body),
            })
            .collect();
        GroundProgram {
            symbols,
            atoms,
            rules: out_rules,
            show_terms,
        }
    }
}
