//! The stability check of the components that are not head-cycle-free
//! (Koch, Leone and Pfeifer, "Enhancing disjunctive logic programming
//! systems by SAT checkers", AIJ 2003; Lierler, "cmodels: SAT-based
//! disjunctive answer set solver", LPNMR 2005; clasp's tester: Gebser,
//! Kaufmann and Schaub, "Advanced conflict-driven disjunctive answer set
//! solving", IJCAI 2013).
//!
//! Shifting a disjunction `a | b :- B.` into `a :- B, not b.` and `b :- B,
//! not a.` keeps the answer sets only when no cycle of positive
//! dependencies joins two of its heads. In a component where one does, the
//! completion (over the shifted rules, which every answer set satisfies)
//! stays, but a model `M` of it is an answer set only if no non-empty set
//! `U ⊆ M` of the component's atoms is unfounded: every rule with a head
//! in `U` has a false body, a positive body atom in `U`, or a true head
//! outside `U`. Such a set, if any, is found by a SAT search of its own
//! ([`MinimalityCheck::search`]), one per component (an unfounded set
//! meets a lowest component in an unfounded set of that component alone),
//! and is cut away ([`MinimalityCheck::cut`]) by its disjunctive loop
//! formula: some atom of `U` true implies a rule with a head in `U`, no
//! positive body atom in `U`, a true body and its heads outside `U` false.
//!
//! A component with a recursive aggregate that its own atoms both raise and
//! lower is checked the same way, the aggregate under its Ferraris reduct
//! (clingo's semantics); a set found there is cut away by the nogood of
//! everything the search read.
//!
//! The head-cycle-free components keep the linear unfounded-set check of
//! [`super::loops`], which takes the atoms of these components as founded
//! when they are true.
//!
//! No CNF of polynomial size expresses this check in general (the programs
//! are Σ₂ᴾ-hard), so [`super::translate_exact`] refuses them.

use super::analysis::Analysis;
use super::gates::Gates;
use super::{BodyId, Cond, Translation, normalize_clause};
use crate::ground::program::{AtomId, Body, GroundProgram, Head};
use rustc_hash::FxHashMap;
use smallvec::SmallVec;
use varisat_formula::{CnfFormula, ExtendFormula, Lit, Var};

const UNCHECKED: u32 = u32::MAX;

/// The components that are not head-cycle-free or hold a non-monotone
/// recursive aggregate, with the rules that can derive their atoms.
#[derive(Clone, Debug, Default)]
pub struct MinimalityCheck {
    components: Vec<Component>,
}

#[derive(Clone, Debug)]
struct Component {
    atoms: Vec<AtomId>,
    rules: Vec<ComponentRule>,
    /// Its aggregate atoms, all recursive.
    aggregates: Vec<AtomId>,
    /// One of them has a part that the component's atoms both raise and
    /// lower: the search takes every element under the Ferraris reduct,
    /// and a found set is cut away by the nogood of its context (there is
    /// no loop formula of such aggregates here).
    ferraris: bool,
}

/// A rule with a head atom in the component: every head of a
/// disjunction, or one chosen atom with the body and its condition.
#[derive(Clone, Debug)]
struct ComponentRule {
    heads: SmallVec<[AtomId; 2]>,
    body: Body,
}

/// The SAT search for an unfounded set of one component: variable `i`
/// stands for `atoms[i]` staying outside the set, so that a solver deciding
/// variables false first (varisat, clasp, CaDiCaL with `phase=0`) tries the
/// atoms in the set first. A larger set has fewer external supports, so its
/// loop formula cuts away more: the saturation of qbf/12 took 637 rounds
/// with the opposite sign and takes 46 with this one.
pub struct UnfoundedSearch {
    pub formula: CnfFormula,
    pub atoms: Vec<AtomId>,
}

/// Disjunctive loop formulas define their support terms once: equal terms
/// of later formulas reuse the variable.
#[derive(Default)]
pub struct SupportTerms(FxHashMap<Vec<Lit>, Cond>);

impl MinimalityCheck {
    /// The check of the components the analysis finds not head-cycle-free
    /// or holding a non-monotone recursive aggregate (empty when there are
    /// none).
    pub(crate) fn new(program: &GroundProgram, analysis: &Analysis) -> Self {
        let checked = analysis.checked();
        if checked.is_empty() {
            return MinimalityCheck::default();
        }
        let components_of_atoms = &analysis.components;
        let mut index = vec![UNCHECKED; components_of_atoms.count];
        let mut components = Vec::new();
        for (&c, &ferraris) in &checked {
            index[c as usize] = components.len() as u32;
            components.push(Component {
                atoms: Vec::new(),
                rules: Vec::new(),
                aggregates: Vec::new(),
                ferraris,
            });
        }
        let component_of: Vec<u32> = (components_of_atoms.component.iter())
            .map(|&c| index[c as usize])
            .collect();
        for (a, &c) in component_of.iter().enumerate() {
            if c != UNCHECKED {
                components[c as usize].atoms.push(AtomId(a as u32));
            }
        }
        for definition in &program.aggregates {
            let c = component_of[definition.atom.index()];
            if c != UNCHECKED {
                components[c as usize].aggregates.push(definition.atom);
            }
        }
        let mut rule_components: SmallVec<[u32; 2]> = SmallVec::new();
        for rule in &program.rules {
            let mut add = |heads: &[AtomId], body: &Body| {
                rule_components.clear();
                rule_components.extend(heads.iter().map(|h| component_of[h.index()]));
                rule_components.retain(|c| *c != UNCHECKED);
                rule_components.sort_unstable();
                rule_components.dedup();
                for &c in &rule_components {
                    components[c as usize].rules.push(ComponentRule {
                        heads: SmallVec::from_slice(heads),
                        body: body.clone(),
                    });
                }
            };
            match &rule.head {
                Head::Constraint => {}
                Head::Atom(head) => add(&[*head], &rule.body),
                Head::Disjunction(heads) => add(heads, &rule.body),
                Head::Choice(choice) => {
                    for element in &choice.elements {
                        for condition in &element.conditions {
                            add(&[element.value], &rule.body.and(condition));
                        }
                    }
                }
            }
        }
        MinimalityCheck { components }
    }

    /// Whether no component needs the check.
    pub fn is_empty(&self) -> bool {
        self.components.is_empty()
    }

    pub fn component_count(&self) -> usize {
        self.components.len()
    }

    /// The atoms of the components this check covers.
    pub fn atoms(&self) -> impl Iterator<Item = AtomId> + '_ {
        self.components.iter().flat_map(|c| c.atoms.iter().copied())
    }

    /// The search for a non-empty unfounded set of `component` under
    /// `model` (one value per atom): a clause per rule with a true body and
    /// no true head outside the component, saying that when its true heads
    /// in the component are all in the set, so is a positive body atom of
    /// the component; and per true aggregate atom, that it is in the set
    /// only if its aggregate fails without the set's atoms. `None` when no
    /// atom of the component is true.
    pub fn search(
        &self,
        translation: &Translation,
        component: usize,
        model: &[bool],
    ) -> Option<UnfoundedSearch> {
        let component = &self.components[component];
        let atoms: Vec<AtomId> = (component.atoms.iter())
            .copied()
            .filter(|a| model[a.index()])
            .collect();
        if atoms.is_empty() {
            return None;
        }
        // The literal of an atom of the component being in the set.
        let in_set: FxHashMap<AtomId, Lit> = (atoms.iter().enumerate())
            .map(|(i, &a)| (a, Var::from_index(i).negative()))
            .collect();
        let mut formula = CnfFormula::new();
        formula.set_var_count(atoms.len());
        let some: Vec<Lit> = atoms.iter().map(|a| in_set[a]).collect();
        formula.add_clause(&some);
        let mut clause = Vec::new();
        for rule in &component.rules {
            if !rule.body.holds(model) {
                continue;
            }
            clause.clear();
            let mut inside = false;
            let mut true_outside = false;
            for &head in rule.heads.iter().filter(|h| model[h.index()]) {
                match in_set.get(&head) {
                    Some(&l) => {
                        clause.push(!l);
                        inside = true;
                    }
                    None => true_outside = true,
                }
            }
            if !inside || true_outside {
                continue;
            }
            clause.extend(
                rule.body
                    .pos()
                    .iter()
                    .filter_map(|a| in_set.get(a))
                    .copied(),
            );
            formula.add_clause(&clause);
        }
        let body_value = |body: BodyId| {
            if translation.body_holds(body, model) {
                Cond::True
            } else {
                Cond::False
            }
        };
        for &atom in component.aggregates.iter().filter(|a| model[a.index()]) {
            let aggregate = translation
                .recursive_aggregate(atom)
                .expect("an aggregate atom on a cycle is recursive");
            let outside_set = |p: AtomId, _: &mut Gates<CnfFormula>| match in_set.get(&p) {
                Some(&l) => Cond::Lit(!l),
                None => Cond::True,
            };
            let mut gates = Gates { sink: &mut formula };
            let holds = aggregate.restricted_with(
                translation,
                body_value,
                component.ferraris,
                &mut gates,
                outside_set,
            );
            let outside = !in_set[&atom];
            match holds {
                Cond::True => formula.add_clause(&[outside]),
                Cond::False => {}
                Cond::Lit(l) => formula.add_clause(&[outside, !l]),
            }
        }
        Some(UnfoundedSearch { formula, atoms })
    }

    /// The clauses that cut away `model`, whose set `unfounded` of atoms of
    /// `component` is unfounded: its loop formula ([`Self::loop_formula`]),
    /// or in a component with a non-monotone aggregate the nogood of
    /// everything the search read: the component's atoms, and the other
    /// atoms of its rules and aggregates.
    pub fn cut<S: ExtendFormula>(
        &self,
        translation: &Translation,
        component: usize,
        unfounded: &[AtomId],
        model: &[bool],
        terms: &mut SupportTerms,
        definitions: &mut S,
    ) -> Vec<Vec<Lit>> {
        let c = &self.components[component];
        if !c.ferraris {
            return self.loop_formula(translation, component, unfounded, terms, definitions);
        }
        let mut read: Vec<AtomId> = c.atoms.clone();
        for rule in &c.rules {
            read.extend(&rule.heads);
            read.extend(rule.body.pos());
            read.extend(rule.body.neg());
        }
        for &atom in &c.aggregates {
            let aggregate = translation
                .recursive_aggregate(atom)
                .expect("an aggregate atom on a cycle is recursive");
            for &body in aggregate.conditions.iter().flatten() {
                read.extend(translation.body_pos(body));
                read.extend(translation.body_neg(body));
            }
        }
        read.sort_unstable();
        read.dedup();
        let mut clause: Vec<Lit> = (read.iter())
            .map(|&a| {
                let lit = translation.atom_lit(a);
                if model[a.index()] { !lit } else { lit }
            })
            .collect();
        if normalize_clause(&mut clause) {
            vec![clause]
        } else {
            Vec::new()
        }
    }

    /// The loop formula of `unfounded`, a set of atoms of `component`:
    /// per atom `u` of it, `¬u ∨ ⋁ (B ∧ ¬(H \ U))` over the rules with a head
    /// in `U` and no positive body atom in `U`, or the aggregate of an
    /// aggregate atom of `U` holding with the atoms of `U` false. Support
    /// terms of several literals are new variables of `definitions`, the
    /// solver the clauses are for.
    fn loop_formula<S: ExtendFormula>(
        &self,
        translation: &Translation,
        component: usize,
        unfounded: &[AtomId],
        terms: &mut SupportTerms,
        definitions: &mut S,
    ) -> Vec<Vec<Lit>> {
        let atom_lit = |atom: AtomId| translation.atom_lit(atom);
        let component = &self.components[component];
        let mut in_set = FxHashMap::default();
        for &atom in unfounded {
            in_set.insert(atom, ());
        }
        let inside = |a: &AtomId| in_set.contains_key(a);
        let mut gates = Gates { sink: definitions };
        let mut supports: Vec<Lit> = Vec::new();
        for rule in &component.rules {
            if !rule.heads.iter().any(inside) || rule.body.pos().iter().any(inside) {
                continue;
            }
            let mut lits: Vec<Lit> = (rule.body.pos().iter().map(|&a| atom_lit(a)))
                .chain(rule.body.neg().iter().map(|&a| !atom_lit(a)))
                .chain(
                    rule.heads
                        .iter()
                        .filter(|h| !inside(h))
                        .map(|&h| !atom_lit(h)),
                )
                .collect();
            if !normalize_clause(&mut lits) {
                continue; // `x ∧ ¬x`
            }
            let term = match terms.0.get(&lits) {
                Some(&term) => term,
                None => {
                    let conds: Vec<Cond> = lits.iter().map(|&l| Cond::Lit(l)).collect();
                    let term = gates.and(&conds);
                    terms.0.insert(lits, term);
                    term
                }
            };
            match term {
                Cond::True => unreachable!("a found unfounded set has no true support"),
                Cond::False => {}
                Cond::Lit(l) => supports.push(l),
            }
        }
        for &atom in component.aggregates.iter().filter(|a| inside(a)) {
            let aggregate = translation
                .recursive_aggregate(atom)
                .expect("an aggregate atom on a cycle is recursive");
            let outside = |p: AtomId, _: &mut Gates<S>| {
                if inside(&p) { Cond::False } else { Cond::True }
            };
            match aggregate.restricted(translation, &mut gates, outside) {
                Cond::True => unreachable!("a found unfounded set has no true support"),
                Cond::False => {}
                Cond::Lit(l) => supports.push(l),
            }
        }
        each_implies(
            unfounded.iter().map(|&a| atom_lit(a)),
            &supports,
            &mut gates,
        )
    }
}

/// The clauses `a → s1 ∨ … ∨ sk` for each `a` of `atoms`, the form of a
/// loop formula. For several atoms and supports the disjunction is named
/// once by a gate, so the solver gets one long clause and a binary clause
/// per atom instead of a long clause per atom: varisat walks every long
/// clause whenever it learns a unit, and a QBF by saturation adds its
/// formulas for hundreds of rounds (qbf/16: 0.47 s to 0.08 s). The loop
/// formulas of head-cycle-free components ([`super::loops`]) keep their
/// long clauses: named, the Labyrinth's search took 915 rounds instead of
/// 382.
fn each_implies<S: ExtendFormula>(
    atoms: impl ExactSizeIterator<Item = Lit>,
    supports: &[Lit],
    gates: &mut Gates<S>,
) -> Vec<Vec<Lit>> {
    let supports: Vec<Lit> = if atoms.len() > 1 && supports.len() > 1 {
        let conds: Vec<Cond> = supports.iter().map(|&l| Cond::Lit(l)).collect();
        match gates.or(&conds) {
            Cond::Lit(named) => vec![named],
            Cond::True => return Vec::new(),
            Cond::False => Vec::new(),
        }
    } else {
        supports.to_vec()
    };
    atoms
        .filter_map(|atom| {
            let mut clause = Vec::with_capacity(supports.len() + 1);
            clause.push(!atom);
            clause.extend(&supports);
            normalize_clause(&mut clause).then_some(clause)
        })
        .collect()
}
