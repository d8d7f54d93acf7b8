//! The last grounding pass: propagates facts and underivable atoms to a
//! fixpoint, then renumbers the surviving atoms densely.
//!
//! Grounding simplifies each instance with what it knows at that moment;
//! an atom can become a fact, or turn out underivable, only later (inside a
//! recursive component, or through negation). This pass finishes the job:
//! afterwards no body mentions a fact or an atom without rules, and facts
//! are flagged on their atoms instead of having rules.

use super::instantiate::{AtomTable, hash_body};
use crate::diagnostics::Span;
use crate::ground::program::{
    AggregateDefinition, Atom, AtomId, Body, ChoiceElement, ChoiceHead, CostLevel, GroundProgram,
    Head, Rule, ShowTerm, absorb_certain, rewrite_elements,
};
use crate::symbols::SymbolTable;
use hashbrown::HashTable;
use hashbrown::hash_table::Entry;

pub struct Simplifier<'a> {
    pub atoms: &'a AtomTable,
    /// Per predicate: its atoms may be unfolded away (hidden atoms of the
    /// program's own predicates; see [`unfold_constraint_atoms`]).
    unfoldable: &'a [bool],
    fact: Vec<bool>,
    /// A fact, an aggregate atom, or in the head of some rule left
    /// ([`Simplifier::heads`] of them).
    derivable: Vec<bool>,
    /// By atom: the rules left whose heads hold it.
    heads: Vec<u32>,
    /// Atoms that left a head since they were last counted in `heads`.
    left_heads: Vec<AtomId>,
    /// By atom: defined by an aggregate, never by rules, so derivable.
    aggregate_atom: Vec<bool>,
    /// False in every answer set (`:- a.`, or a choice whose upper bound
    /// its facts already reach): removed from every head.
    excluded: Vec<bool>,
    /// The origin of a constraint that facts alone violate (`:- .` once
    /// simplified): the program has no answer set.
    violated: Option<Span>,
}

impl<'a> Simplifier<'a> {
    pub fn new(atoms: &'a AtomTable, unfoldable: &'a [bool]) -> Self {
        Simplifier {
            atoms,
            unfoldable,
            fact: atoms.fact.clone(),
            derivable: vec![false; atoms.len()],
            heads: vec![0; atoms.len()],
            left_heads: Vec::new(),
            aggregate_atom: vec![false; atoms.len()],
            excluded: vec![false; atoms.len()],
            violated: None,
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
        let (preds, unfoldable) = (&self.atoms.preds, self.unfoldable);
        let unfoldable = |a: usize| unfoldable[preds[a].index()];
        // An aggregate atom is defined by its aggregate, never by rules: it
        // is derivable, and its elements are simplified like conditions.
        for aggregate in &aggregates {
            self.aggregate_atom[aggregate.atom.index()] = true;
        }
        let mut unfolding_rounds = 0;
        loop {
            self.propagate(&mut rules);
            if let Some(origin) = self.violated {
                // The program is that constraint alone: nothing else
                // changes that it has no answer set, and translating the
                // rest took longer than grounding it (3.67 million
                // constraints in potassco-configuration/pc).
                rules = vec![Rule {
                    head: Head::Constraint,
                    body: Body::default(),
                    origin,
                }];
                show_terms.clear();
                aggregates.clear();
                costs.clear();
                self.fact.fill(false);
                self.derivable.fill(false);
                break;
            }
            show_terms.retain_mut(|show| self.body(&mut show.body));
            rewrite_elements(&mut aggregates, |elements| {
                elements.retain_mut(|e| self.conditions(&mut e.conditions));
            });
            for level in &mut costs {
                level
                    .elements
                    .retain_mut(|e| self.conditions(&mut e.conditions));
            }
            // Most programs have no unfoldable atom with rules `a :- B.`;
            // unfolded constraints may be units (`:- a.`) to propagate.
            let candidates = (rules.iter())
                .any(|rule| matches!(rule.head, Head::Atom(a) if unfoldable(a.index())));
            if !candidates || unfolding_rounds == UNFOLDING_ROUNDS {
                break;
            }
            let used = Occurrences::new(&rules, &show_terms, &aggregates, &costs, self.atoms.len());
            if !unfold_constraint_atoms(&mut rules, &used, unfoldable) {
                break;
            }
            unfolding_rounds += 1;
        }
        // Most rules may have turned into facts: give their space back
        // before the program is rebuilt.
        rules.shrink_to_fit();
        self.compact(rules, show_terms, aggregates, costs, symbols, shown)
    }

    /// Simplifies the rules to a fixpoint.
    ///
    /// An atom turns underivable the moment the last rule whose head holds
    /// it goes ([`Simplifier::heads`]), so the rules after that one in the
    /// same pass see it already: the facts of a puzzle exclude values in
    /// the choices, which drops the constraints on those values, in the
    /// same pass. A pass that learns nothing (no fact, no excluded or
    /// underivable atom) saw the same atoms throughout: the fixpoint.
    fn propagate(&mut self, rules: &mut Vec<Rule>) {
        self.heads.fill(0);
        for rule in rules.iter() {
            rule.head.for_each_atom(|a| self.heads[a.index()] += 1);
        }
        for a in 0..self.derivable.len() {
            self.derivable[a] = self.fact[a] || self.aggregate_atom[a] || self.heads[a] > 0;
        }
        loop {
            let mut changed = false;
            rules.retain_mut(|rule| {
                let kept = self.rule(rule, &mut changed);
                if !kept {
                    rule.head.for_each_atom(|a| self.left_heads.push(a));
                }
                if !self.left_heads.is_empty() {
                    changed |= self.uncount_left_heads();
                }
                kept
            });
            if !changed {
                break;
            }
        }
    }

    /// Takes the atoms of [`Simplifier::left_heads`] off their counts;
    /// whether one of them turned underivable.
    fn uncount_left_heads(&mut self) -> bool {
        let mut underivable = false;
        for a in self.left_heads.drain(..) {
            let a = a.index();
            self.heads[a] -= 1;
            if self.heads[a] == 0 && !self.fact[a] && !self.aggregate_atom[a] {
                underivable |= std::mem::replace(&mut self.derivable[a], false);
            }
        }
        underivable
    }

    /// Simplifies a body in place; `false` when it can never hold.
    #[inline]
    fn body(&self, body: &mut Body) -> bool {
        simplify_body(&self.fact, &self.derivable, body)
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
                    self.left_heads.push(a);
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
                let (excluded, left) = (&self.excluded, &mut self.left_heads);
                if atoms.iter().any(|a| excluded[a.index()]) {
                    atoms.retain(|&a| kept_or_left(!excluded[a.index()], a, left));
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
            Head::Choice(choice) => {
                let ChoiceHead { elements, bounds } = &mut **choice;
                let before = elements.len();
                let (excluded, left) = (&self.excluded, &mut self.left_heads);
                elements.retain(|e| kept_or_left(!excluded[e.value.index()], e.value, left));
                *changed |= elements.len() != before;
                let (fact, derivable) = (&self.fact, &self.derivable);
                elements.retain_mut(|e| {
                    let holds = simplify_conditions(fact, derivable, &mut e.conditions);
                    kept_or_left(holds, e.value, left)
                });
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
                    if bounds.upper_bound() == Some(facts as u32) && facts < elements.len() {
                        // The facts use up the upper bound: the others are
                        // excluded, and leave this head at once.
                        let (fact, excluded, left) =
                            (&self.fact, &mut self.excluded, &mut self.left_heads);
                        elements.retain(|e| {
                            let a = e.value;
                            excluded[a.index()] |= !fact[a.index()];
                            kept_or_left(fact[a.index()], a, left)
                        });
                        *changed = true;
                    }
                }
                !(elements.is_empty() && bounds.lower == 0)
            }
            Head::Constraint => self.constraint(rule, changed),
        }
    }

    /// `:- a.` excludes `a` (it is dropped once no head derives `a`), and
    /// `:- .` leaves the program without answer sets.
    fn constraint(&mut self, rule: &Rule, changed: &mut bool) -> bool {
        if rule.body.is_empty() {
            self.violated.get_or_insert(rule.origin);
        }
        if let ([a], []) = (rule.body.pos(), rule.body.neg())
            && !self.excluded[a.index()]
        {
            self.excluded[a.index()] = true;
            *changed = true;
        }
        true
    }

    /// Simplifies alternative conditions; `false` when none can hold.
    fn conditions(&self, conditions: &mut Vec<Body>) -> bool {
        simplify_conditions(&self.fact, &self.derivable, conditions)
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
        let map_body = |b: &mut Body| b.renumber(map);
        let mut out_rules = rules;
        for rule in &mut out_rules {
            match &mut rule.head {
                Head::Constraint => {}
                Head::Atom(a) => map(a),
                Head::Disjunction(atoms) => atoms.iter_mut().for_each(map),
                Head::Choice(choice) => {
                    for element in &mut choice.elements {
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
        }
        rewrite_elements(&mut aggregates, |elements| {
            for element in elements {
                element.conditions.iter_mut().for_each(map_body);
            }
        });
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

/// The rounds of [`unfold_constraint_atoms`] at most, as clasp bounds its
/// equivalence preprocessing (`--eq=3` in its default configuration). Each
/// round unfolds one layer of a chain: in a plan of N steps whose hidden
/// atoms of the last step feed only constraints, the steps before them
/// become unfoldable one per round, and N rounds over the whole program
/// took a walk of 640 steps 9.7 s (clingo 1.1 s).
const UNFOLDING_ROUNDS: usize = 3;

/// How the simplified program uses each atom, for [`unfold_constraint_atoms`].
struct Occurrences {
    /// The number of rules `a :- B.` with the atom as their head.
    definitions: Vec<u32>,
    /// The number of constraints with the atom in their positive body.
    in_constraints: Vec<u32>,
    /// Used anywhere else: in another head, in a rule's body, under `not`
    /// in a constraint, in a condition, a show term or an objective, or as
    /// an aggregate atom.
    elsewhere: Vec<bool>,
}

impl Occurrences {
    fn new(
        rules: &[Rule],
        show_terms: &[ShowTerm],
        aggregates: &[AggregateDefinition],
        costs: &[CostLevel],
        atoms: usize,
    ) -> Self {
        let mut definitions = vec![0; atoms];
        let mut in_constraints = vec![0; atoms];
        let mut elsewhere = vec![false; atoms];
        let mark = |elsewhere: &mut Vec<bool>, body: &Body| {
            for a in body.pos().iter().chain(body.neg()) {
                elsewhere[a.index()] = true;
            }
        };
        for rule in rules {
            match &rule.head {
                Head::Constraint => {
                    for a in rule.body.pos() {
                        in_constraints[a.index()] += 1;
                    }
                    for a in rule.body.neg() {
                        elsewhere[a.index()] = true;
                    }
                    continue;
                }
                Head::Atom(a) => definitions[a.index()] += 1,
                Head::Disjunction(atoms) => atoms.iter().for_each(|a| elsewhere[a.index()] = true),
                Head::Choice(choice) => {
                    for element in &choice.elements {
                        elsewhere[element.value.index()] = true;
                        for condition in &element.conditions {
                            mark(&mut elsewhere, condition);
                        }
                    }
                }
            }
            mark(&mut elsewhere, &rule.body);
        }
        for show in show_terms {
            mark(&mut elsewhere, &show.body);
        }
        for aggregate in aggregates {
            elsewhere[aggregate.atom.index()] = true;
            for element in aggregate.elements.iter() {
                for condition in &element.conditions {
                    mark(&mut elsewhere, condition);
                }
            }
        }
        for element in costs.iter().flat_map(|level| &level.elements) {
            for condition in &element.conditions {
                mark(&mut elsewhere, condition);
            }
        }
        Occurrences {
            definitions,
            in_constraints,
            elsewhere,
        }
    }
}

/// Simplifies a body in place, given which atoms are facts and which
/// derivable; `false` when it can never hold.
#[inline]
fn simplify_body(fact: &[bool], derivable: &[bool], body: &mut Body) -> bool {
    if body.pos().iter().any(|a| !derivable[a.index()])
        || body.neg().iter().any(|a| fact[a.index()])
    {
        return false;
    }
    // Most bodies are already simplified: look before rewriting.
    if body.pos().iter().any(|a| fact[a.index()])
        || body.neg().iter().any(|a| !derivable[a.index()])
    {
        body.retain(|a| !fact[a.index()], |a| derivable[a.index()]);
    }
    true
}

/// Simplifies alternative conditions ([`simplify_body`]); `false` when
/// none can hold.
fn simplify_conditions(fact: &[bool], derivable: &[bool], conditions: &mut Vec<Body>) -> bool {
    conditions.retain_mut(|c| simplify_body(fact, derivable, c));
    absorb_certain(conditions);
    conditions.dedup();
    !conditions.is_empty()
}

/// `keep`, noting `atom` in `left` when it is not kept: the atom leaves a
/// head ([`Simplifier::left_heads`]).
fn kept_or_left(keep: bool, atom: AtomId, left: &mut Vec<AtomId>) -> bool {
    if !keep {
        left.push(atom);
    }
    keep
}

/// Unfolds the atoms that only constraints use (or nothing at all), of
/// the `unfoldable` ones (hidden, of the program's own predicates): a
/// constraint `:- a, C.` becomes `:- B_i, C.` for each rule `a :- B_i.` of
/// `a`, and `a` and its rules go (clasp's preprocessing eliminates such
/// atoms too). The answer sets stay the same on every other atom: `a`
/// supports no other atom, and holds exactly when one of its bodies does.
/// An atom is unfolded when that does not multiply constraints: it has one
/// rule, or at most one constraint and no other atom of several rules
/// beside it there. Unfolded constraints that repeat an earlier unfolded
/// constraint are dropped, and so are those that contain both an atom and
/// its negation. Returns whether any atom was unfolded.
fn unfold_constraint_atoms(
    rules: &mut Vec<Rule>,
    used: &Occurrences,
    unfoldable: impl Fn(usize) -> bool,
) -> bool {
    let atoms = used.definitions.len();
    let mut unfold: Vec<bool> = (0..atoms)
        .map(|a| {
            let (definitions, constraints) = (used.definitions[a], used.in_constraints[a]);
            definitions > 0
                && (definitions == 1 || constraints <= 1)
                && !used.elsewhere[a]
                && unfoldable(a)
        })
        .collect();
    // Two atoms of several rules each in one constraint would multiply it.
    for rule in rules.iter() {
        if rule.head != Head::Constraint {
            continue;
        }
        let several = |a: &&AtomId| unfold[a.index()] && used.definitions[a.index()] > 1;
        if rule.body.pos().iter().filter(several).count() > 1 {
            for a in rule.body.pos() {
                if used.definitions[a.index()] > 1 {
                    unfold[a.index()] = false;
                }
            }
        }
    }
    if !unfold.iter().any(|&u| u) {
        return false;
    }
    let mut bodies: Vec<Vec<Body>> = vec![Vec::new(); atoms];
    for rule in rules.iter_mut() {
        if let Head::Atom(a) = rule.head
            && unfold[a.index()]
        {
            bodies[a.index()].push(std::mem::take(&mut rule.body));
        }
    }
    // The unfolded constraints, in order, after the rules left in place:
    // rebuilding the whole program instead moved every rule, once a round,
    // into memory fresh to the process, and took most of the time of
    // simplifying where there are millions of constraints.
    let mut unfolded: Vec<Rule> = Vec::new();
    // Their bodies, each beside its hash. A constraint left as it was is
    // not looked up: a repeat of it costs a clause, while hashing every
    // constraint cost more than the rest of grounding.
    let mut unfolded_bodies: HashTable<(u64, usize)> = HashTable::new();
    let mut keep_unfolded = |body: Body, origin: Span| {
        if body.pos().iter().any(|a| body.neg().contains(a)) {
            return; // never holds
        }
        let h = hash_body(0, body.pos(), body.neg());
        let same = |&(other, i): &(u64, usize)| other == h && unfolded[i].body == body;
        if let Entry::Vacant(slot) = unfolded_bodies.entry(h, same, |&(other, _)| other) {
            slot.insert((h, unfolded.len()));
            unfolded.push(Rule {
                head: Head::Constraint,
                body,
                origin,
            });
        }
    };
    rules.retain_mut(|rule| match rule.head {
        Head::Atom(a) => !unfold[a.index()],
        Head::Constraint if rule.body.pos().iter().any(|a| unfold[a.index()]) => {
            let mut expanded = vec![std::mem::take(&mut rule.body)];
            while let Some(a) = expanded[0]
                .pos()
                .iter()
                .copied()
                .find(|a| unfold[a.index()])
            {
                expanded = (expanded.iter())
                    .flat_map(|partial| {
                        (bodies[a.index()].iter()).map(move |b| partial.unfold(a, b))
                    })
                    .collect();
            }
            for body in expanded {
                keep_unfolded(body, rule.origin);
            }
            false
        }
        _ => true,
    });
    rules.append(&mut unfolded);
    true
}
