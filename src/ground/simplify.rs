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
    AggregateDefinition, Atom, AtomId, Body, ChoiceElement, CostLevel, GroundProgram, Head, Rule,
    ShowTerm, absorb_certain,
};
use crate::symbols::SymbolTable;

pub struct Simplifier<'a> {
    pub atoms: &'a AtomTable,
    fact: Vec<bool>,
    derivable: Vec<bool>,
    /// False in every answer set (`:- a.`, or a choice whose upper bound
    /// its facts already reach): removed from every head.
    excluded: Vec<bool>,
}

impl<'a> Simplifier<'a> {
    pub fn new(atoms: &'a AtomTable) -> Self {
        Simplifier {
            atoms,
            fact: atoms.fact.clone(),
            derivable: vec![false; atoms.len()],
            excluded: vec![false; atoms.len()],
        }
    }

    pub fn run(
        mut self,
        mut rules: Vec<Rule>,
        mut show_terms: Vec<ShowTerm>,
        mut aggregates: Vec<AggregateDefinition>,
        mut costs: Vec<CostLevel>,
        symbols: SymbolTable,
        shown: impl Fn(usize) -> bool,
    ) -> GroundProgram {
        // An aggregate atom is defined by its aggregate, never by rules: it
        // is derivable, and its elements are simplified like conditions.
        let aggregate_atoms: Vec<AtomId> = aggregates.iter().map(|a| a.atom).collect();
        loop {
            self.recompute_derivable(&rules);
            for atom in &aggregate_atoms {
                self.derivable[atom.index()] = true;
            }
            let before = rules.len();
            let mut changed = false;
            rules.retain_mut(|rule| self.rule(rule, &mut changed));
            if !changed && rules.len() == before {
                break;
            }
        }
        // Most rules may have turned into facts: give their space back
        // before the program is rebuilt.
        rules.shrink_to_fit();
        show_terms.retain_mut(|show| self.body(&mut show.body));
        for aggregate in &mut aggregates {
            aggregate
                .elements
                .retain_mut(|e| self.conditions(&mut e.conditions));
        }
        for level in &mut costs {
            level
                .elements
                .retain_mut(|e| self.conditions(&mut e.conditions));
        }
        self.compact(rules, show_terms, aggregates, costs, symbols, shown)
    }

    fn recompute_derivable(&mut self, rules: &[Rule]) {
        self.derivable.copy_from_slice(&self.fact);
        for rule in rules {
            rule.head
                .for_each_atom(|a| self.derivable[a.index()] = true);
        }
    }

    /// Simplifies a body in place; `false` when it can never hold.
    fn body(&self, body: &mut Body) -> bool {
        if body.pos.iter().any(|a| !self.derivable[a.index()])
            || body.neg.iter().any(|a| self.fact[a.index()])
        {
            return false;
        }
        // Most bodies are already simplified: look before rewriting.
        if body.pos.iter().any(|a| self.fact[a.index()]) {
            body.pos.retain(|a| !self.fact[a.index()]);
        }
        if body.neg.iter().any(|a| !self.derivable[a.index()]) {
            body.neg.retain(|a| self.derivable[a.index()]);
        }
        true
    }

    /// Simplifies one rule in place; `false` drops it, as it drops every
    /// rule whose head is a fact. Sets `changed` when it learns a fact or an
    /// excluded atom, or rewrites a head.
    ///
    /// Excluded atoms leave heads: `a :- B` with `a` excluded becomes
    /// `:- B`, and an excluded choice element or disjunct is dropped. The
    /// answer sets stay the same, as none contains an excluded atom (the
    /// reduct's least or minimal models never needed the rule).
    fn rule(&mut self, rule: &mut Rule, changed: &mut bool) -> bool {
        if !self.body(&mut rule.body) {
            return false;
        }
        match &mut rule.head {
            Head::Atom(a) => {
                let a = *a;
                if self.fact[a.index()] {
                    return false;
                }
                if self.excluded[a.index()] {
                    rule.head = Head::Constraint;
                    *changed = true;
                    return self.constraint(rule, changed);
                }
                if rule.body.is_empty() {
                    self.fact[a.index()] = true;
                    *changed = true;
                    return false;
                }
                true
            }
            Head::Disjunction(atoms) => {
                if atoms.iter().any(|a| self.fact[a.index()]) {
                    return false;
                }
                let excluded = &self.excluded;
                if atoms.iter().any(|a| excluded[a.index()]) {
                    atoms.retain(|a| !excluded[a.index()]);
                    match atoms[..] {
                        [] => rule.head = Head::Constraint,
                        [a] => rule.head = Head::Atom(a),
                        _ => {}
                    }
                    *changed = true;
                    return self.rule(rule, changed);
                }
                true
            }
            Head::Choice { elements, bounds } => {
                let before = elements.len();
                let excluded = &self.excluded;
                elements.retain(|e| !excluded[e.value.index()]);
                *changed |= elements.len() != before;
                elements.retain_mut(|e| self.element(e));
                if rule.body.is_empty() && elements.iter().all(ChoiceElement::is_unconditional) {
                    let facts = elements
                        .iter()
                        .filter(|e| self.fact[e.value.index()])
                        .count();
                    if bounds.lower as usize == elements.len() {
                        // Every element must hold, and the rule supports it.
                        for e in elements.iter() {
                            self.fact[e.value.index()] = true;
                        }
                        *changed = true;
                        return false;
                    }
                    if bounds.upper == Some(facts as u32) && facts < elements.len() {
                        // The facts use up the upper bound.
                        for e in elements.iter().filter(|e| !self.fact[e.value.index()]) {
                            self.excluded[e.value.index()] = true;
                        }
                        *changed = true;
                    }
                }
                !(elements.is_empty() && bounds.lower == 0)
            }
            Head::Constraint => self.constraint(rule, changed),
        }
    }

    /// `:- a.` excludes `a` (it is dropped once no head derives `a`).
    fn constraint(&mut self, rule: &Rule, changed: &mut bool) -> bool {
        if let ([a], []) = (&rule.body.pos[..], &rule.body.neg[..])
            && !self.excluded[a.index()]
        {
            self.excluded[a.index()] = true;
            *changed = true;
        }
        true
    }

    /// Simplifies an element's conditions; `false` when none can hold.
    fn element(&self, element: &mut ChoiceElement) -> bool {
        self.conditions(&mut element.conditions)
    }

    /// Simplifies alternative conditions; `false` when none can hold.
    fn conditions(&self, conditions: &mut Vec<Body>) -> bool {
        conditions.retain_mut(|c| self.body(c));
        absorb_certain(conditions);
        conditions.dedup();
        !conditions.is_empty()
    }

    /// Renumbers the atoms that are facts or have rules, in order of first
    /// derivation.
    fn compact(
        self,
        rules: Vec<Rule>,
        mut show_terms: Vec<ShowTerm>,
        mut aggregates: Vec<AggregateDefinition>,
        mut costs: Vec<CostLevel>,
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
                        map(&mut element.value);
                        element.conditions.iter_mut().for_each(map_body);
                    }
                }
            }
            map_body(&mut rule.body);
        }
        for show in &mut show_terms {
            map_body(&mut show.body);
        }
        for aggregate in &mut aggregates {
            map(&mut aggregate.atom);
            for element in &mut aggregate.elements {
                element.conditions.iter_mut().for_each(map_body);
            }
        }
        for level in &mut costs {
            for element in &mut level.elements {
                element.conditions.iter_mut().for_each(map_body);
            }
        }
        GroundProgram {
            symbols,
            atoms,
            rules: out_rules,
            show_terms,
            aggregates,
            costs,
            projection: None,
            edges: Vec::new(),
        }
    }
}
