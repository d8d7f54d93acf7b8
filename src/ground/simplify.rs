//! The last grounding pass: propagates facts and underivable atoms to a
//! fixpoint, then renumbers the surviving atoms densely.
//!
//! Grounding simplifies each instance with what it knows at that moment;
//! an atom can become a fact, or turn out underivable, only later (inside a
//! recursive component, or through negation). This pass finishes the job:
//! afterwards no body mentions a fact or an atom without rules, and facts
//! are flagged on their atoms instead of having rules.

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
            let before = rules.len();
            let mut new_facts = false;
            rules.retain_mut(|rule| self.rule(rule, &mut new_facts));
            if !new_facts && rules.len() == before {
                break;
            }
        }
        // Most rules may have turned into facts: give their space back
        // before the program is rebuilt.
        rules.shrink_to_fit();
        show_terms.retain_mut(|show| self.body(&mut show.body));
        self.compact(rules, show_terms, symbols, shown)
    }

    fn recompute_derivable(&mut self, rules: &[Rule]) {
        self.derivable.copy_from_slice(&self.fact);
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

    /// Simplifies a body in place; `false` when it can never hold.
    fn body(&self, body: &mut Body) -> bool {
        if body.pos.iter().any(|a| !self.derivable[a.index()])
            || body.neg.iter().any(|a| self.fact[a.index()])
        {
            return false;
        }
        body.pos.retain(|a| !self.fact[a.index()]);
        body.neg.retain(|a| self.derivable[a.index()]);
        true
    }

    /// Simplifies one rule in place; `false` drops it, as it drops every
    /// rule whose head is a fact.
    fn rule(&mut self, rule: &mut Rule, new_facts: &mut bool) -> bool {
        if !self.body(&mut rule.body) {
            return false;
        }
        match &mut rule.head {
            Head::Atom(a) => {
                if self.fact[a.index()] {
                    return false;
                }
                if rule.body.is_empty() {
                    self.fact[a.index()] = true;
                    *new_facts = true;
                    return false;
                }
                true
            }
            Head::Disjunction(atoms) => !atoms.iter().any(|a| self.fact[a.index()]),
            Head::Choice { elements, bounds } => {
                elements.retain_mut(|e| self.element(e));
                !(elements.is_empty() && bounds.lower == 0)
            }
            Head::Constraint => true,
        }
    }

    /// Simplifies an element's conditions; `false` when none can hold.
    fn element(&self, element: &mut ChoiceElement) -> bool {
        element.conditions.retain_mut(|c| self.body(c));
        if element.conditions.iter().any(Body::is_empty) {
            element.conditions = vec![Body::default()];
        }
        element.conditions.dedup();
        !element.conditions.is_empty()
    }

    /// Renumbers the atoms that are facts or have rules, in order of first
    /// derivation.
    fn compact(
        self,
        rules: Vec<Rule>,
        mut show_terms: Vec<ShowTerm>,
        symbols: SymbolTable,
        shown: impl Fn(usize) -> bool,
    ) -> GroundProgram {
        let mut new_id = vec![u32::MAX; self.atoms.len()];
        let mut atoms = Vec::new();
        for (a, id) in new_id.iter_mut().enumerate() {
            if self.derivable[a] || self.fact[a] {
                *id = atoms.len() as u32;
                atoms.push(Atom {
                    symbol: self.atoms.syms[a],
                    shown: shown(a),
                    fact: self.fact[a],
                });
            }
        }
        // Renumbering keeps the order of atoms, so sorted bodies stay sorted.
        let map = |a: &mut AtomId| *a = AtomId(new_id[a.index()]);
        let map_body = |b: &mut Body| {
            b.pos.iter_mut().for_each(map);
            b.neg.iter_mut().for_each(map);
        };
        let mut out_rules = rules;
        for rule in &mut out_rules {
            match &mut rule.head {
                Head::Constraint => {}
                Head::Atom(a) => map(a),
                Head::Disjunction(atoms) => atoms.iter_mut().for_each(map),
                Head::Choice { elements, .. } => {
                    for element in elements {
                        map(&mut element.atom);
                        element.conditions.iter_mut().for_each(map_body);
                    }
                }
            }
            map_body(&mut rule.body);
        }
        for show in &mut show_terms {
            map_body(&mut show.body);
        }
        GroundProgram {
            symbols,
            atoms,
            rules: out_rules,
            show_terms,
        }
    }
}
