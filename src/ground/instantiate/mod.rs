//! Bottom-up instantiation: semi-naive evaluation with indexed joins.
//!
//! Predicates are grounded one strongly connected component of the
//! dependency graph at a time, dependencies first. Inside a component each
//! round joins at least one literal against the atoms that are new since the
//! previous round (the "recent" range of its relation) and never re-joins
//! old with old. Each join step looks its literal up in a hash index on the
//! argument positions that are bound at that point.
//!
//! Grounding computes the atoms that *may* be true. Rule instances are
//! simplified on the way: positive literals on facts are dropped, negative
//! literals on facts remove the instance, and a negative literal on an atom
//! that a completed predicate never derived is dropped.
//!
//! This module drives the rounds; the steps are in [`relations`] (the
//! atoms derived so far and their indexes), [`join`] (planning and
//! evaluating a rule's body), [`instances`] (the ground rule of one
//! binding), [`aggregates`] and [`conditionals`] (their ground forms),
//! [`auxiliary`] (the atoms grounding makes up) and [`rule_set`] (the
//! ground rules, deduplicated).

mod aggregates;
mod auxiliary;
mod conditionals;
mod instances;
mod join;
mod relations;
mod rule_set;
#[cfg(test)]
mod tests;

use super::compiled::{CHead, CLit, CRule};
use super::predicates::{PredId, Predicates};
use super::safety::literal_terms;
use crate::diagnostics::Span;
use crate::ground::Assigned;
use crate::ground::program::{
    AggregateDefinition, AtomId, Body, ChoiceElement, CountBounds, Head, ShowTerm,
};
use crate::progress::Counters;
use crate::symbols::{NameId, SymId, SymbolTable};
use auxiliary::{AggregateAtoms, DisjunctAtoms, ImplicationAtoms, NegationAtoms};
use join::Step;
use relations::Relation;
use rustc_hash::{FxHashMap, FxHashSet};
use std::sync::atomic::{AtomicBool, Ordering};

pub use relations::AtomTable;
pub use rule_set::RuleSet;
pub(in crate::ground) use rule_set::hash_body;

/// Grounds compiled rules into rules over [`AtomTable`] indices.
pub struct Instantiator<'s> {
    /// Owned, so that a run's grounding can be kept across the calls of
    /// incremental mode ([`crate::ground::Grounding`]).
    pub symbols: SymbolTable,
    /// Where the atoms and rules ground so far are published.
    counters: &'s Counters,
    /// Once set, every join ends at its next step: the grounding is cut
    /// short, and what it made so far is not a program to solve.
    stop: &'s AtomicBool,
    pred_names: Vec<NameId>,
    pred_negative: Vec<bool>,
    relations: Vec<Relation>,
    pub atoms: AtomTable,
    pub rules: RuleSet,
    pub show_terms: Vec<ShowTerm>,
    pub aggregates: AggregateAtoms,
    disjuncts: DisjunctAtoms,
    negations: NegationAtoms,
    implications: ImplicationAtoms,
    /// How often each variable occurs in the rule being planned. Nothing
    /// reads the value of one that occurs once, so the facts a join step
    /// matches that differ only there are matched once (`path(X,Z) :-
    /// path(X,_), edge(_,Z).`).
    uses: Vec<usize>,
}

/// What was ground: the atoms, the rules, the `#show` terms, the
/// aggregates' definitions and the symbols.
pub type Grounded = (
    AtomTable,
    RuleSet,
    Vec<ShowTerm>,
    Vec<AggregateDefinition>,
    SymbolTable,
);

/// Makes facts of these atoms, inputs of the grounding
/// ([`crate::ground::Grounding`]).
fn make_facts(atoms: &mut AtomTable, facts: &[(PredId, SymId)]) {
    for &(pred, sym) in facts {
        let a = atoms.get_or_insert(sym, pred) as usize;
        atoms.defined[a] = true;
        atoms.fact[a] = true;
        atoms.input[a] = false;
    }
}

/// What a group of parts starts from ([`Instantiator::begin_group`]).
pub struct GroupStart {
    rules: usize,
    defined: Vec<bool>,
    fact: Vec<bool>,
}

/// An atom under `not` or `not not`, as grounding knows it.
enum Negated {
    /// A term of the atom is undefined: the literal drops the instance.
    Undefined,
    Fact,
    /// Its predicate is complete and no rule derives the atom.
    Underivable,
    /// It may or may not hold: the literal stays in the rule.
    Open(u32),
}

/// Per rule of `rules` (the rules ground last, the constraints among
/// them), its instances' numbers of positive and negative atoms when no
/// other instance, of it or of another of the rules, can have the same
/// body: [`CRule::distinct_instances`], where no other constraint of
/// `rules` reads as many atoms of each predicate (and sign) as it does, or
/// reads the predicate in an aggregate. (A fact can take literals out of
/// an instance: `:- p(R1,C,V), p(R2,C,V), box(R1,C,B), box(R2,C,B), R1 <
/// R2.` repeats instances of `:- p(R1,C,V), p(R2,C,V), R1 < R2.`) Nor
/// `:- p(X), -p(X).` over `complementary` predicates: grounding adds that
/// constraint for every such pair of atoms.
fn unrepeated_instances(
    rules: &[&CRule],
    complementary: impl Fn(PredId, PredId) -> bool,
) -> Vec<Option<(usize, usize)>> {
    let reads: Vec<Option<PredicatesRead>> = (rules.iter())
        .map(|rule| matches!(rule.head, CHead::Constraint).then(|| PredicatesRead::of(rule)))
        .collect();
    let mut readers: FxHashMap<PredId, Vec<usize>> = FxHashMap::default();
    for (i, read) in reads.iter().enumerate() {
        for pred in read.iter().flat_map(PredicatesRead::predicates) {
            let list = readers.entry(pred).or_default();
            if list.last() != Some(&i) {
                list.push(i);
            }
        }
    }
    (rules.iter().enumerate())
        .map(|(i, rule)| {
            let counts = rule.distinct_instances()?;
            let read = reads[i].as_ref()?;
            if let [(true, a), (true, b)] = read.atoms[..]
                && complementary(a, b)
            {
                return None;
            }
            // A rule that can repeat one of its instances reads each of
            // its predicates: the least read one has the fewest readers.
            // (Without atoms, every constraint could repeat its `:- .`.)
            let candidates = (read.atoms.iter())
                .map(|&(_, pred)| &readers[&pred])
                .min_by_key(|list| list.len())?;
            let repeated = (candidates.iter())
                .filter(|&&j| j != i)
                .any(|&j| reads[j].as_ref().is_some_and(|other| other.covers(read)));
            (!repeated).then_some(counts)
        })
        .collect()
}

/// The predicates a constraint reads: in atom literals, with their sign
/// (`not` and `not not` alike), once per literal and sorted; and in
/// aggregates, where an instance may hold their atoms any number of times.
struct PredicatesRead {
    atoms: Vec<(bool, PredId)>,
    aggregated: Vec<PredId>,
}

impl PredicatesRead {
    fn of(rule: &CRule) -> PredicatesRead {
        let mut atoms = Vec::new();
        let mut aggregated = Vec::new();
        for literal in &rule.body {
            match literal {
                CLit::Pos(atom) => atoms.push((true, atom.pred)),
                CLit::Neg(atom) | CLit::NotNot(atom) => atoms.push((false, atom.pred)),
                CLit::Aggregate(aggregate) => {
                    for element in &aggregate.elements {
                        let literals = (element.condition.iter())
                            .chain(&element.unless)
                            .chain(&element.literal_bindings);
                        for literal in literals {
                            if let CLit::Pos(atom) | CLit::Neg(atom) | CLit::NotNot(atom) = literal
                            {
                                aggregated.push(atom.pred);
                            }
                        }
                    }
                }
                CLit::Cmp(..) | CLit::Interval(..) => {}
            }
        }
        atoms.sort_unstable();
        aggregated.sort_unstable();
        aggregated.dedup();
        PredicatesRead { atoms, aggregated }
    }

    fn predicates(&self) -> impl Iterator<Item = PredId> + '_ {
        (self.atoms.iter().map(|&(_, pred)| pred)).chain(self.aggregated.iter().copied())
    }

    /// Whether an instance of this rule, some of its literals taken out,
    /// can hold the atoms of an instance of `other`: as many literals of
    /// each of `other`'s predicates and signs, or the predicate in an
    /// aggregate.
    fn covers(&self, other: &PredicatesRead) -> bool {
        (other.atoms.chunk_by(|a, b| a == b)).all(|group| {
            let (sign, pred) = group[0];
            let own = (self.atoms.iter())
                .filter(|&&read| read == (sign, pred))
                .count();
            own >= group.len() || self.aggregated.binary_search(&pred).is_ok()
        })
    }
}

/// Where one rule evaluation puts what it grounds. Rules go straight into
/// the deduplicating set; new atoms join their relations only once the
/// evaluation is over, so that the relations it reads stay unchanged.
struct Output<'o> {
    new_members: Vec<(PredId, u32)>,
    rules: &'o mut RuleSet,
    show_terms: &'o mut Vec<ShowTerm>,
}

/// What evaluating a rule produces.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    /// Ground rules (and facts, show terms).
    Rules,
    /// Ground constraints, of which those whose bodies keep this many
    /// positive and negative atoms are added without a lookup
    /// ([`unrepeated_instances`]).
    UnrepeatedConstraints(usize, usize),
    /// Only the atoms in the heads of the instances whose aggregates may
    /// hold; no aggregate atoms.
    HeadsOnly,
}

impl Output<'_> {
    fn rule(&mut self, head: Head, (pos, neg): (&[AtomId], &[AtomId]), origin: Span) {
        self.rules.insert(head, pos, neg, origin);
    }
}

impl<'s> Instantiator<'s> {
    /// `auxiliary` are the predicates `#agg/1`, `#disjunct/1`, `#not/1`
    /// and `#impl/1` of the auxiliary atoms.
    pub fn new(
        mut symbols: SymbolTable,
        preds: &Predicates,
        (counters, stop): (&'s Counters, &'s AtomicBool),
        auxiliary: [PredId; 4],
    ) -> Self {
        let [
            aggregate_pred,
            disjunct_pred,
            negation_pred,
            implication_pred,
        ] = auxiliary;
        let pred_names = preds
            .ids()
            .map(|p| symbols.name(&preds.get(p).name))
            .collect();
        let pred_negative = preds.ids().map(|p| preds.get(p).negative).collect();
        let aggregate_name = symbols.name(&preds.get(aggregate_pred).name);
        let disjunct_name = symbols.name(&preds.get(disjunct_pred).name);
        let negation_name = symbols.name(&preds.get(negation_pred).name);
        let implication_name = symbols.name(&preds.get(implication_pred).name);
        Instantiator {
            symbols,
            counters,
            stop,
            pred_names,
            pred_negative,
            relations: (0..preds.len()).map(|_| Relation::default()).collect(),
            atoms: AtomTable::default(),
            rules: RuleSet::default(),
            show_terms: Vec::new(),
            uses: Vec::new(),
            aggregates: AggregateAtoms::new(aggregate_pred, aggregate_name),
            disjuncts: DisjunctAtoms {
                pred: disjunct_pred,
                name: disjunct_name,
                index: FxHashMap::default(),
            },
            negations: NegationAtoms {
                pred: negation_pred,
                name: negation_name,
                complements: Vec::new(),
                index: FxHashMap::default(),
            },
            implications: ImplicationAtoms {
                pred: implication_pred,
                name: implication_name,
                rules: Vec::new(),
                index: FxHashMap::default(),
                numbered: 0,
            },
        }
    }

    /// Grounds the rules defining one component's predicates to a fixpoint.
    ///
    /// A rule with a recursive aggregate (whose elements read the component
    /// positively, or a conditional literal whose literal reads it), or with
    /// a conditional disjunct whose condition reads it, cannot be grounded before the component is complete:
    /// during the fixpoint it is evaluated again in every round, over the
    /// elements known so far, and only derives the heads of the instances
    /// whose aggregates may hold (or, for an assignment, the values they may
    /// take); once the component is complete it is grounded with the
    /// aggregates' complete elements, now producing its rules. The last
    /// round sees every element, so the heads derived include all those of
    /// the final rules; atoms only earlier rounds derived are left without
    /// rules, false after simplification.
    pub fn ground_component(&mut self, component: &[PredId], rules: &[&CRule]) {
        let in_component = |p: PredId| component.contains(&p);
        let recursive: Vec<Vec<usize>> = rules
            .iter()
            .map(|r| {
                r.body
                    .iter()
                    .enumerate()
                    .filter(|(_, l)| matches!(l, CLit::Pos(a) if in_component(a.pred)))
                    .map(|(i, _)| i)
                    .collect()
            })
            .collect();
        let modes: Vec<Mode> = rules
            .iter()
            .map(|r| {
                let recursive_aggregate = r.body.iter().any(|l| {
                    matches!(l, CLit::Aggregate(a)
                        if a.reads(&in_component, false) || a.literal_reads(&in_component))
                });
                let recursive_disjunct = matches!(&r.head, CHead::Disjunction(disjuncts)
                if disjuncts.iter().flat_map(|d| &d.condition).any(|l| {
                    matches!(l, CLit::Pos(a) | CLit::Neg(a) | CLit::NotNot(a) if in_component(a.pred))
                }));
                let deferred = recursive_aggregate || recursive_disjunct;
                if deferred {
                    Mode::HeadsOnly
                } else {
                    Mode::Rules
                }
            })
            .collect();
        for (rule, &mode) in rules.iter().zip(&modes) {
            self.evaluate(rule, None, &in_component, mode);
        }
        loop {
            let mut any_recent = false;
            for &p in component {
                let rel = &mut self.relations[p.index()];
                rel.stable_end = rel.recent_end;
                rel.recent_end = rel.members.len();
                any_recent |= rel.stable_end < rel.recent_end;
            }
            if !any_recent {
                break;
            }
            for ((rule, positions), &mode) in rules.iter().zip(&recursive).zip(&modes) {
                if mode == Mode::HeadsOnly {
                    self.evaluate_changed(rule, positions, &in_component);
                    continue;
                }
                for &i in positions {
                    self.evaluate(rule, Some(i), &in_component, mode);
                }
            }
        }
        for &p in component {
            self.relations[p.index()].complete = true;
        }
        for (rule, &mode) in rules.iter().zip(&modes) {
            if mode == Mode::HeadsOnly {
                self.evaluate(rule, None, &|_| false, Mode::Rules);
            }
        }
    }

    /// Starts a group of parts whose rules define the predicates `defined`
    /// (clingo's `ground` call): every other predicate is complete, as
    /// clingo grounds a call over the atoms known before it, and an atom
    /// that a later call derives does not change the rules grounded
    /// without it.
    pub fn begin_group(&mut self, defined: &[PredId]) -> GroupStart {
        for relation in &mut self.relations {
            relation.complete = true;
        }
        for &p in defined {
            self.relations[p.index()].complete = false;
        }
        GroupStart {
            rules: self.rules.rules.len(),
            defined: self.atoms.defined.clone(),
            fact: self.atoms.fact.clone(),
        }
    }

    /// Adds facts, each atom `(pred, symbol)` certainly true. They join
    /// their relations at once: a component's rules see them as new in
    /// its first round, as they would see the atoms of its rules' first
    /// evaluation.
    pub fn add_facts(&mut self, facts: &[(PredId, SymId)]) {
        self.atoms.reserve(facts.len());
        let mut new_members = Vec::with_capacity(facts.len());
        for &(pred, symbol) in facts {
            let a = self.atoms.get_or_insert(symbol, pred);
            if !self.atoms.defined[a as usize] {
                self.atoms.defined[a as usize] = true;
                new_members.push((pred, a));
            }
            self.atoms.fact[a as usize] = true;
        }
        self.add_members(new_members);
    }

    /// The atoms the group begun at `start` defines: the heads of its rules,
    /// each with the rule's origin, and the atoms it made facts (no rule).
    /// None for the first group, which nothing was defined before.
    pub fn defined_in_group(&self, start: &GroupStart) -> Vec<(u32, Option<Span>)> {
        if start.defined.is_empty() {
            return Vec::new();
        }
        let mut defined: Vec<(u32, Option<Span>)> = Vec::new();
        for rule in &self.rules.rules[start.rules..] {
            rule.head
                .for_each_atom(|a| defined.push((a.0, Some(rule.origin))));
        }
        let new_facts = (0..start.fact.len()).filter(|&a| self.atoms.fact[a] && !start.fact[a]);
        defined.extend(new_facts.map(|a| (a as u32, None)));
        defined
    }

    /// Whether the atoms a group defines (`defined`, from
    /// [`Instantiator::defined_in_group`]) all came into being in it.
    pub fn only_new_atoms(start: &GroupStart, defined: &[(u32, Option<Span>)]) -> bool {
        defined.iter().all(|&(a, _)| a as usize >= start.fact.len())
    }

    /// clingo's `redefinition of atom` errors: the atoms that a group
    /// defines (`defined`, from [`Instantiator::defined_in_group`]), other
    /// than as a fact, and an earlier group defined too,
    /// each with its first rule of the group (none for a fact, which has no
    /// rule).
    pub fn redefinitions(
        &self,
        start: &GroupStart,
        defined: &[(u32, Option<Span>)],
    ) -> Vec<(PredId, String, Option<Span>)> {
        let mut reported = FxHashSet::default();
        let mut redefined = Vec::new();
        let mut earlier_heads: Option<FxHashSet<u32>> = None;
        for &(a, origin) in defined {
            let a = a as usize;
            if !start.defined.get(a).copied().unwrap_or(false) || start.fact[a] {
                continue;
            }
            if self.atoms.input[a] {
                // clingo lets a later step define an external of an earlier
                // one that no rule of it defines.
                let heads = earlier_heads.get_or_insert_with(|| {
                    let mut heads = FxHashSet::default();
                    for rule in &self.rules.rules[..start.rules] {
                        rule.head.for_each_atom(|b| {
                            heads.insert(b.0);
                        });
                    }
                    heads
                });
                if !heads.contains(&(a as u32)) {
                    continue;
                }
            }
            // Auxiliary atoms (`#cost`, `#agg`, ..) stand for their
            // definition, whichever rule repeats it.
            let atom = self.symbols.display(self.atoms.syms[a]).to_string();
            if !atom.starts_with('#') && reported.insert(a) {
                redefined.push((self.atoms.preds[a], atom, origin));
            }
        }
        redefined
    }

    /// What was ground ([`Grounded`]), `facts` made facts (the atoms a
    /// call of incremental mode assigns true); the relations and their
    /// indexes are freed here, before simplification needs memory.
    pub fn finish_with_facts(mut self, facts: &[(PredId, SymId)]) -> Grounded {
        Self::add_auxiliary_rules(&mut self.rules, &self.negations, &self.implications);
        make_facts(&mut self.atoms, facts);
        (
            self.atoms,
            self.rules,
            self.show_terms,
            self.aggregates.definitions,
            self.symbols,
        )
    }

    /// What [`Instantiator::finish_with_facts`] gives, copied: the
    /// grounding is kept for more groups (the steps of incremental mode).
    /// The atoms `assigned` are facts, or with [`Assigned::Open`] each free
    /// by a choice `{a}.`.
    pub fn snapshot(&self, assigned: &[(PredId, SymId)], held: Assigned) -> Grounded {
        // Room for the rules added here and for the constraints `:- p, -p.`
        // that simplification adds, one at most per strongly negated atom.
        let negated = (self.atoms.preds.iter()).filter(|p| self.pred_negative[p.index()]);
        let additional = self.negations.complements.len()
            + self.implications.rules.len()
            + assigned.len()
            + negated.count();
        let mut rules = self.rules.clone_with_room(additional);
        Self::add_auxiliary_rules(&mut rules, &self.negations, &self.implications);
        let mut atoms = self.atoms.clone();
        match held {
            Assigned::Facts => make_facts(&mut atoms, assigned),
            Assigned::Open => {
                for &(pred, sym) in assigned {
                    let a = atoms.get_or_insert(sym, pred);
                    atoms.defined[a as usize] = true;
                    atoms.input[a as usize] = false;
                    let element = ChoiceElement {
                        value: AtomId(a),
                        conditions: vec![Body::default()],
                    };
                    let head = Head::choice(vec![element], CountBounds::default());
                    rules.insert(head, &[], &[], Span::default());
                }
            }
        }
        (
            atoms,
            rules,
            self.show_terms.clone(),
            self.aggregates.definitions.clone(),
            self.symbols.clone(),
        )
    }

    /// The rules of the auxiliary atoms that stand for `not a` and for
    /// implications, added once everything is ground.
    fn add_auxiliary_rules(
        rules: &mut RuleSet,
        negations: &NegationAtoms,
        implications: &ImplicationAtoms,
    ) {
        for &(atom, complement) in &negations.complements {
            let origin = Span::default();
            rules.insert(Head::Atom(AtomId(complement)), &[], &[AtomId(atom)], origin);
        }
        for (head, body, origin) in &implications.rules {
            rules.insert(head.clone(), body.pos(), body.neg(), *origin);
        }
    }

    /// Makes room for the predicates interned since it was made or last
    /// told (the groups of a later step compile rules of their own).
    pub fn add_predicates(&mut self, preds: &Predicates) {
        for p in preds.ids().skip(self.pred_names.len()) {
            self.pred_names.push(self.symbols.name(&preds.get(p).name));
            self.pred_negative.push(preds.get(p).negative);
            self.relations.push(Relation::default());
        }
    }

    /// Whether the grounding was stopped ([`Exec::stopped`]).
    fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// Grounds rules whose body predicates are all complete (constraints and
    /// `#show` terms).
    pub fn ground_final(&mut self, rules: &[&CRule]) {
        let (names, negative) = (&self.pred_names, &self.pred_negative);
        let complementary = |a: PredId, b: PredId| {
            names[a.index()] == names[b.index()] && negative[a.index()] != negative[b.index()]
        };
        let unrepeated = unrepeated_instances(rules, complementary);
        for (rule, unrepeated) in rules.iter().zip(unrepeated) {
            let mode = match unrepeated {
                Some((pos, neg)) => Mode::UnrepeatedConstraints(pos, neg),
                None => Mode::Rules,
            };
            self.evaluate(rule, None, &|_| false, mode);
        }
    }

    /// A round of [`Mode::HeadsOnly`] for a rule with recursive aggregates
    /// or conditional disjuncts: only the instances the round's new atoms
    /// can change. Those are the semi-naive ones of the body's recursive
    /// literals and, for each recursive literal of an aggregate element's
    /// condition, the join that starts from its new atoms and goes through
    /// the element's condition to the rest of the body, with the aggregate
    /// grounded again after it. A rule with a recursive assignment or a
    /// conditional disjunct over the component is evaluated whole.
    fn evaluate_changed(
        &mut self,
        rule: &CRule,
        recursive_positions: &[usize],
        in_component: &dyn Fn(PredId) -> bool,
    ) {
        self.uses = rule.variable_uses();
        let whole = rule
            .body
            .iter()
            .any(|l| matches!(l, CLit::Aggregate(a) if a.assigns.is_some() || a.conditional))
            || matches!(&rule.head, CHead::Disjunction(disjuncts)
            if disjuncts.iter().any(|d| !d.condition.is_empty()));
        if whole {
            return self.evaluate(rule, None, in_component, Mode::HeadsOnly);
        }
        for &i in recursive_positions {
            self.evaluate(rule, Some(i), in_component, Mode::HeadsOnly);
        }
        for (j, literal) in rule.body.iter().enumerate() {
            // A negated recursive aggregate is not grounded in this mode.
            let CLit::Aggregate(aggregate) = literal else {
                continue;
            };
            if aggregate.negated() {
                continue;
            }
            for element in &aggregate.elements {
                let mut locals = Vec::new();
                for l in &element.condition {
                    literal_terms(l, &mut |t| t.for_each_var(&mut |v| locals.push(v)));
                }
                element
                    .terms
                    .iter()
                    .for_each(|t| t.for_each_var(&mut |v| locals.push(v)));
                locals.retain(|v| !aggregate.inputs.contains(v));
                locals.sort_unstable();
                locals.dedup();
                for (m, trigger) in element.condition.iter().enumerate() {
                    if !matches!(trigger, CLit::Pos(a) if in_component(a.pred)) {
                        continue;
                    }
                    // As in `evaluate`: a stopped grounding plans nothing.
                    if self.stopped() {
                        return;
                    }
                    let others = element
                        .condition
                        .iter()
                        .enumerate()
                        .filter(|&(x, _)| x != m);
                    let rest = rule.body.iter().enumerate().filter(|&(x, _)| x != j);
                    let literals: Vec<CLit> = std::iter::once(trigger)
                        .chain(others.map(|(_, l)| l))
                        .chain(rest.map(|(_, l)| l))
                        .cloned()
                        .collect();
                    let mut bound = vec![false; rule.num_vars];
                    let mut steps = self.plan(&literals, &mut bound, Some(0), in_component);
                    for &v in &locals {
                        bound[v] = false;
                    }
                    steps.push(Step::Forget(locals.clone()));
                    steps.extend(self.plan(
                        std::slice::from_ref(literal),
                        &mut bound,
                        None,
                        in_component,
                    ));
                    self.run_rule(rule, &steps, &bound, Mode::HeadsOnly);
                }
            }
        }
    }

    fn evaluate(
        &mut self,
        rule: &CRule,
        delta: Option<usize>,
        in_component: &dyn Fn(PredId) -> bool,
        mode: Mode,
    ) {
        // Planning builds the indexes of its joins, which on the large
        // relations of a runaway grounding takes seconds: a stopped
        // grounding plans nothing more.
        if self.stopped() {
            return;
        }
        self.uses = rule.variable_uses();
        let mut bound = vec![false; rule.num_vars];
        let steps = self.plan(&rule.body, &mut bound, delta, in_component);
        self.run_rule(rule, &steps, &bound, mode);
    }

    /// Runs the planned `steps` of `rule`'s body (`bound`: the variables
    /// they bind) and grounds the head of each instance.
    fn run_rule(&mut self, rule: &CRule, steps: &[Step<'_>], bound: &[bool], mode: Mode) {
        let element_plans: Vec<Vec<Step<'_>>> = match &rule.head {
            CHead::Choice { elements, .. } | CHead::Disjunction(elements) => elements
                .iter()
                .map(|e| self.plan(&e.condition, &mut bound.to_vec(), None, &|_| false))
                .collect(),
            _ => Vec::new(),
        };
        let mut exec = Exec {
            stop: self.stop,
            symbols: &mut self.symbols,
            relations: &self.relations,
            atoms: &mut self.atoms,
            aggregates: &mut self.aggregates,
            disjuncts: &mut self.disjuncts,
            negations: &mut self.negations,
            implications: &mut self.implications,
            pred_names: &self.pred_names,
            pred_negative: &self.pred_negative,
            env: vec![None; rule.num_vars],
            trail: Vec::new(),
            pos: Vec::new(),
            neg: Vec::new(),
            key: Vec::new(),
            args: Vec::new(),
            scratch_pos: Vec::new(),
            scratch_neg: Vec::new(),
            heads_only: (mode == Mode::HeadsOnly).then_some(&rule.head),
            unrepeated: match mode {
                Mode::UnrepeatedConstraints(pos, neg) => Some((pos, neg)),
                Mode::Rules | Mode::HeadsOnly => None,
            },
        };
        let mut output = Output {
            new_members: Vec::new(),
            rules: &mut self.rules,
            show_terms: &mut self.show_terms,
        };
        let counters = self.counters;
        exec.run(steps, 0, &mut |exec| {
            exec.emit(rule, &element_plans, &mut output);
            counters.grounded(exec.atoms.len(), output.rules.rules.len());
        });
        let new_members = output.new_members;
        self.add_members(new_members);
    }
}

/// The state of one evaluation: the binding, and the ground body built so
/// far along the current branch of the join.
struct Exec<'a> {
    /// The grounding's stop flag ([`Instantiator`]).
    stop: &'a AtomicBool,
    symbols: &'a mut SymbolTable,
    relations: &'a [Relation],
    atoms: &'a mut AtomTable,
    aggregates: &'a mut AggregateAtoms,
    disjuncts: &'a mut DisjunctAtoms,
    negations: &'a mut NegationAtoms,
    implications: &'a mut ImplicationAtoms,
    pred_names: &'a [NameId],
    pred_negative: &'a [bool],
    env: Vec<Option<SymId>>,
    trail: Vec<usize>,
    pos: Vec<u32>,
    neg: Vec<u32>,
    /// Scratch space for index keys; a lookup finishes before the next.
    key: Vec<SymId>,
    /// Scratch space for the arguments of an atom being built.
    args: Vec<SymId>,
    /// Scratch space for the body of a rule instance.
    scratch_pos: Vec<AtomId>,
    scratch_neg: Vec<AtomId>,
    /// In [`Mode::HeadsOnly`], the rule's head: derive its atoms only,
    /// without rules, facts or aggregate atoms.
    heads_only: Option<&'a CHead>,
    /// [`Mode::UnrepeatedConstraints`]' counts.
    unrepeated: Option<(usize, usize)>,
}

impl Exec<'_> {}
