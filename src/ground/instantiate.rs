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

use super::compiled::{CAggregate, CAtom, CElement, CHead, CLit, CRule};
use super::eval::{CTerm, compare};
use super::predicates::{PredId, Predicates};
use super::safety::{bind_step, literal_terms, placeable};
use crate::diagnostics::Span;
use crate::ground::program::{
    AggregateDefinition, AggregateValue, AtomId, Atoms, Body, ChoiceElement, CountBounds, Head,
    Rule, ShowTerm, WeightedElement, absorb_certain,
};
use crate::progress::Counters;
use crate::symbols::{NameId, SymId, SymbolData, SymbolTable, hash_step};
use crate::syntax::ast::AggregateFunction;
use crate::syntax::ast::{CmpOp, Naf};
use hashbrown::HashTable;
use rustc_hash::{FxBuildHasher, FxHashMap, FxHashSet};
use std::cmp::Ordering;
use std::hash::BuildHasher;

/// The atoms of one predicate that grounding has derived so far, in order.
#[derive(Default)]
struct Relation {
    members: Vec<u32>,
    /// `members[..stable_end]` were seen by every rule of the component;
    /// `members[stable_end..recent_end]` are new in the current round;
    /// later members become visible in the next round.
    stable_end: usize,
    recent_end: usize,
    complete: bool,
    /// The indexes join plans asked for; a plan refers to one by its
    /// position here, so a join step looks up nothing but its key.
    indexes: Vec<Index>,
}

/// Member positions of a relation by their values at the bound argument
/// positions `mask`.
struct Index {
    mask: u64,
    positions: FxHashMap<Box<[SymId]>, Vec<u32>>,
}

/// Every ground atom mentioned so far, derived or not.
#[derive(Default)]
pub struct AtomTable {
    pub syms: Vec<SymId>,
    pub preds: Vec<PredId>,
    /// Some rule instance has the atom in its head.
    pub defined: Vec<bool>,
    /// Certainly true.
    pub fact: Vec<bool>,
    /// An input of the program (`#external`), defined by no rule of its own.
    pub input: Vec<bool>,
    by_sym: FxHashMap<SymId, u32>,
}

impl AtomTable {
    fn get_or_insert(&mut self, sym: SymId, pred: PredId) -> u32 {
        if let Some(&a) = self.by_sym.get(&sym) {
            return a;
        }
        let a = self.syms.len() as u32;
        self.syms.push(sym);
        self.preds.push(pred);
        self.defined.push(false);
        self.fact.push(false);
        self.input.push(false);
        self.by_sym.insert(sym, a);
        a
    }

    /// The auxiliary atom `name(k)` of `pred`, defined (it gets its rules or
    /// definition from the table that numbers it).
    fn auxiliary(
        &mut self,
        symbols: &mut SymbolTable,
        name: NameId,
        pred: PredId,
        k: usize,
    ) -> u32 {
        let number = symbols.number(k as i32);
        let sym = symbols.function_of(name, &[number], false);
        let atom = self.get_or_insert(sym, pred);
        self.defined[atom as usize] = true;
        atom
    }

    fn reserve(&mut self, additional: usize) {
        self.syms.reserve(additional);
        self.preds.reserve(additional);
        self.defined.reserve(additional);
        self.fact.reserve(additional);
        self.by_sym.reserve(additional);
    }

    pub fn find(&self, sym: SymId) -> Option<u32> {
        self.by_sym.get(&sym).copied()
    }

    pub fn len(&self) -> usize {
        self.syms.len()
    }
}

/// Grounds compiled rules into rules over [`AtomTable`] indices.
pub struct Instantiator<'s> {
    pub symbols: &'s mut SymbolTable,
    /// Where the atoms and rules ground so far are published.
    counters: &'s Counters,
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

/// What a group of parts starts from ([`Instantiator::begin_group`]).
pub struct GroupStart {
    rules: usize,
    defined: Vec<bool>,
    fact: Vec<bool>,
}

/// The atoms standing for ground aggregates; equal aggregates share one.
pub struct AggregateAtoms {
    pred: PredId,
    name: NameId,
    pub definitions: Vec<AggregateDefinition>,
    index: FxHashMap<AggregateKey, u32>,
}

/// The atoms `#disjunct(k)` that stand for conditional disjuncts `a : c1 |
/// .. | a : cn` of one atom whose conditions are not certain, one per
/// distinct `(a, [c1, .., cn])`.
pub struct DisjunctAtoms {
    pred: PredId,
    name: NameId,
    index: FxHashMap<(u32, Vec<Body>), u32>,
}

impl DisjunctAtoms {
    /// The atom for `atom` under any of `conditions` (sorted), and whether
    /// it is new.
    fn atom(
        &mut self,
        symbols: &mut SymbolTable,
        atoms: &mut AtomTable,
        atom: u32,
        conditions: &[Body],
    ) -> (u32, bool) {
        let key = (atom, conditions.to_vec());
        if let Some(&d) = self.index.get(&key) {
            return (d, false);
        }
        let d = atoms.auxiliary(symbols, self.name, self.pred, self.index.len());
        self.index.insert(key, d);
        (d, true)
    }
}

/// The atoms `#not(k)` that stand for `not a` in a double negation `not
/// not a` (as `not #not(k)`), one per atom `a`, each defined by `#not(k) :-
/// not a.` when the grounding is finished.
pub struct NegationAtoms {
    pred: PredId,
    name: NameId,
    /// `(a, #not(k))`, in order of `k`.
    complements: Vec<(u32, u32)>,
    index: FxHashMap<u32, u32>,
}

impl NegationAtoms {
    /// The atom standing for `not atom`.
    fn atom(&mut self, symbols: &mut SymbolTable, atoms: &mut AtomTable, atom: u32) -> u32 {
        if let Some(&complement) = self.index.get(&atom) {
            return complement;
        }
        let complement = atoms.auxiliary(symbols, self.name, self.pred, self.complements.len());
        self.index.insert(atom, complement);
        self.complements.push((atom, complement));
        complement
    }
}

/// The atoms `#impl(k)` that stand for the instances `c → l` of conditional
/// literals whose condition is recursive (`a :- l : c.` with `c` depending
/// on `a`), one per distinct implication. `x ↔ (c → l)` is defined by the
/// rules of the rewriting of nested implications (Cabalar, Pearce and
/// Valverde, "Reducing propositional theories in equilibrium logic to
/// logic programs", EPIA 2005), strongly equivalent in the logic of
/// here-and-there to `(c → l) → x`: `x :- l.`, `x :- not
/// c_j.` and `x | c_j :- not not l.` for every literal `c_j` of `c` (for a
/// negated `c_j = not d`, `x :- not not d.` and `x :- not not l, not not
/// d.`). `l` with several alternative bodies is first an atom `g :- l_a.`
/// of its own.
pub struct ImplicationAtoms {
    pred: PredId,
    name: NameId,
    /// The rules defining the atoms, added when the grounding is finished.
    rules: Vec<(Head, Body, Span)>,
    index: FxHashMap<(Vec<Body>, Body), u32>,
    /// Atoms numbered so far (the `g` of some implications too).
    numbered: usize,
}

impl ImplicationAtoms {
    /// The atom standing for `condition → (l_1 ∨ .. ∨ l_n)`, the `l_a`
    /// being the bodies `literal` (none: `l` never holds).
    fn atom(
        &mut self,
        symbols: &mut SymbolTable,
        atoms: &mut AtomTable,
        negations: &mut NegationAtoms,
        key: (Vec<Body>, Body),
        origin: Span,
    ) -> u32 {
        if let Some(&atom) = self.index.get(&key) {
            return atom;
        }
        let numbered = &mut self.numbered;
        let mut fresh = |atoms: &mut AtomTable, symbols: &mut SymbolTable| {
            *numbered += 1;
            atoms.auxiliary(symbols, self.name, self.pred, *numbered - 1)
        };
        let x = AtomId(fresh(atoms, symbols));
        let (literal, condition) = &key;
        let mut define = |head: Head, body: Body| self.rules.push((head, body, origin));
        let literal = match &literal[..] {
            [] => None,
            [single] => Some(single.clone()),
            alternatives => {
                let g = AtomId(fresh(atoms, symbols));
                for alternative in alternatives {
                    define(Head::Atom(g), alternative.clone());
                }
                Some(Body::new(vec![g], Vec::new()))
            }
        };
        // `not not b` for a body `b`: `not #not(p)` for its atoms `p`, and
        // its `not n` as they are.
        let mut not_not = |body: &Body| {
            let mut neg: Vec<AtomId> = (body.pos.iter())
                .map(|p| AtomId(negations.atom(symbols, atoms, p.0)))
                .collect();
            neg.extend(body.neg.iter().copied());
            neg
        };
        let not_not_literal = literal.as_ref().map(&mut not_not);
        let not_not_condition: Vec<AtomId> = (condition.neg.iter())
            .map(|&d| AtomId(negations.atom(symbols, atoms, d.0)))
            .collect();
        if let Some(literal) = &literal {
            define(Head::Atom(x), literal.clone());
        }
        for &c in condition.pos.iter() {
            define(Head::Atom(x), Body::new(Vec::new(), vec![c]));
            if let Some(neg) = &not_not_literal {
                let head = if x < c { vec![x, c] } else { vec![c, x] };
                define(Head::Disjunction(head), Body::new(Vec::new(), neg.clone()));
            }
        }
        for &not_d in &not_not_condition {
            define(Head::Atom(x), Body::new(Vec::new(), vec![not_d]));
            if let Some(neg) = &not_not_literal {
                let mut neg = neg.clone();
                neg.push(not_d);
                define(Head::Atom(x), Body::new(Vec::new(), neg));
            }
        }
        self.index.insert(key, x.0);
        x.0
    }
}

/// The most constraints `:- d, not l1, .., not ln.` (one literal of each
/// condition) a disjunct of one atom under several conditions may take;
/// beyond it, each condition gets its own disjunct.
const MAX_DISJUNCT_CONSTRAINTS: usize = 64;

/// A ground aggregate as its atom's definition holds it.
type AggregateKey = (AggregateValue, Vec<WeightedElement>, Vec<(CmpOp, i64)>);

impl AggregateAtoms {
    /// The atom for an aggregate: `#agg(k)`, of the predicate `pred`.
    fn atom(
        &mut self,
        symbols: &mut SymbolTable,
        atoms: &mut AtomTable,
        key: AggregateKey,
        origin: Span,
    ) -> u32 {
        if let Some(&atom) = self.index.get(&key) {
            return atom;
        }
        let atom = atoms.auxiliary(symbols, self.name, self.pred, self.definitions.len());
        let (value, elements, guards) = key.clone();
        self.definitions.push(AggregateDefinition {
            atom: AtomId(atom),
            value,
            elements,
            guards,
            origin,
        });
        self.index.insert(key, atom);
        atom
    }
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

/// Which part of each relation a literal ranges over in one evaluation.
#[derive(Clone, Copy)]
enum Window {
    All,
    Stable,
    Recent,
}

enum Step<'r> {
    Match {
        atom: &'r CAtom,
        mask: u64,
        /// The relation's index on `mask` (unused when `mask` is 0).
        index: usize,
        window: Window,
        /// The positions of variables that occur nowhere else in the rule.
        ignored: u64,
    },
    Neg(&'r CAtom),
    NotNot(&'r CAtom),
    Filter(CmpOp, &'r CTerm, &'r CTerm),
    Bind {
        pattern: &'r CTerm,
        value: &'r CTerm,
    },
    Interval {
        pattern: &'r CTerm,
        lo: &'r CTerm,
        hi: &'r CTerm,
        /// For a variable pattern `V`: what the literals after it in the
        /// same conjunction say about its values.
        narrowing: Narrowing<'r>,
        /// Those literals are all that reads `V`: every value that passes
        /// them gives the same instance, so the first is tried alone.
        witness: bool,
    },
    /// `pattern` (bound) is an integer in `lo..hi`.
    InRange {
        pattern: &'r CTerm,
        lo: &'r CTerm,
        hi: &'r CTerm,
    },
    /// The variables are unbound for the steps after it (an aggregate
    /// element's local variables, bound by a join that led to it).
    Forget(Vec<usize>),
    /// A body aggregate, with one plan per element condition (and for a
    /// conditional literal, one for its `not l` after the condition).
    Aggregate {
        aggregate: &'r CAggregate,
        plans: Vec<ElementPlan<'r>>,
        /// Its elements read the component being grounded.
        recursive: bool,
    },
}

/// The literals that follow an interval `V = lo..hi` in a conjunction and
/// read `V` with everything else bound.
#[derive(Default)]
struct Narrowing<'r> {
    /// Those that bound `V` (`V op t`, another interval of `V`), as `V op
    /// t`: the values outside those bounds are not tried.
    clips: Vec<(CmpOp, &'r CTerm)>,
    /// Every one of them (comparisons and intervals).
    readers: Vec<&'r CLit>,
    /// How often `V` occurs in `readers`.
    occurrences: usize,
}

impl<'r> Narrowing<'r> {
    /// What the literals not yet `done` say about `v`, with `bound` bound.
    fn of(v: usize, literals: &'r [CLit], done: &[bool], bound: &[bool]) -> Self {
        let is_v = |t: &CTerm| matches!(t, CTerm::Var(w) if *w == v);
        // `V < V+1` says nothing of the values of `V` on its own.
        let without_v = |t: &CTerm| {
            let mut found = false;
            t.for_each_var(&mut |w| found |= w == v);
            !found
        };
        let mut narrowing = Narrowing::default();
        for (literal, _) in literals.iter().zip(done).filter(|(_, done)| !**done) {
            let (mut occurrences, mut others_bound) = (0, true);
            literal_terms(literal, &mut |t| {
                t.for_each_var(&mut |w| {
                    occurrences += usize::from(w == v);
                    others_bound &= w == v || bound[w];
                })
            });
            if occurrences == 0 || !others_bound {
                continue;
            }
            match literal {
                CLit::Cmp(op, l, r) if is_v(l) && without_v(r) => narrowing.clips.push((*op, r)),
                CLit::Cmp(op, l, r) if is_v(r) && without_v(l) => {
                    narrowing.clips.push((op.flip(), l))
                }
                CLit::Cmp(..) => {}
                CLit::Interval(pattern, lo, hi) if is_v(pattern) && occurrences == 1 => {
                    narrowing.clips.extend([(CmpOp::Ge, lo), (CmpOp::Le, hi)])
                }
                CLit::Interval(..) => {}
                _ => continue,
            }
            narrowing.readers.push(literal);
            narrowing.occurrences += occurrences;
        }
        narrowing.clips.retain(|(op, _)| *op != CmpOp::Ne);
        narrowing
    }
}

struct ElementPlan<'r> {
    condition: Vec<Step<'r>>,
    /// A conditional literal's `not l`, and its plan.
    unless: Option<(&'r CLit, Vec<Step<'r>>)>,
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
    /// Only the atoms in the heads of the instances whose aggregates may
    /// hold; no aggregate atoms.
    HeadsOnly,
}

impl Output<'_> {
    fn rule(&mut self, head: Head, (pos, neg): (&[AtomId], &[AtomId]), origin: Span) {
        self.rules.insert(head, pos, neg, origin);
    }
}

/// `hash` continued by the atoms of a body `pos, not neg`, each list ended
/// by a separator that no atom id takes.
pub(super) fn hash_body(hash: u64, pos: &[AtomId], neg: &[AtomId]) -> u64 {
    let end = u32::MAX;
    hash_step(hash_atoms(hash_step(hash_atoms(hash, pos), end), neg), end)
}

fn hash_atoms(hash: u64, atoms: &[AtomId]) -> u64 {
    atoms.iter().fold(hash, |h, a| hash_step(h, a.0))
}

/// Distinct ground rules in order of first derivation; a rule's origin is
/// that of its first instance. The table holds indices into `rules`, so
/// every rule is stored once; each rule's hash is kept beside it, so that
/// growing the table does not hash every rule again.
#[derive(Default)]
pub struct RuleSet {
    pub rules: Vec<Rule>,
    hashes: Vec<u64>,
    table: HashTable<u32>,
}

impl RuleSet {
    /// The hash of a rule: its head's and then its body's atoms, each
    /// list ended by a separator that no atom id takes, folded by
    /// [`hash_step`].
    fn hash(head: &Head, pos: &[AtomId], neg: &[AtomId]) -> u64 {
        let end = u32::MAX;
        let h = match head {
            Head::Constraint => hash_step(0, end - 1),
            Head::Atom(a) => hash_step(hash_step(0, end - 2), a.0),
            Head::Disjunction(heads) => hash_step(hash_atoms(hash_step(0, end - 3), heads), end),
            Head::Choice { .. } => FxBuildHasher.hash_one(head),
        };
        hash_body(h, pos, neg)
    }

    /// The rules, the table that deduplicated them freed.
    pub fn into_rules(self) -> Vec<Rule> {
        self.rules
    }

    /// Adds `:- pos.` (sorted and distinct) unless it is there already.
    pub fn insert_constraint(&mut self, pos: &[AtomId]) {
        self.insert(Head::Constraint, pos, &[], Span::default());
    }

    /// Adds `head :- pos, not neg` (both sorted and distinct) unless it is
    /// there already; the body is only allocated for a new rule.
    fn insert(&mut self, head: Head, pos: &[AtomId], neg: &[AtomId], origin: Span) {
        let hash = Self::hash(&head, pos, neg);
        let rules = &self.rules;
        let same = |&i: &u32| {
            let other = &rules[i as usize];
            other.head == head && other.body.pos[..] == *pos && other.body.neg[..] == *neg
        };
        if self.table.find(hash, same).is_none() {
            let hashes = &self.hashes;
            self.table
                .insert_unique(hash, self.rules.len() as u32, |&i| hashes[i as usize]);
            self.hashes.push(hash);
            let body = Body {
                pos: Atoms::from_slice(pos),
                neg: Atoms::from_slice(neg),
            };
            self.rules.push(Rule { head, body, origin });
        }
    }
}

impl<'s> Instantiator<'s> {
    /// `auxiliary` are the predicates `#agg/1`, `#disjunct/1`, `#not/1`
    /// and `#impl/1` of the auxiliary atoms.
    pub fn new(
        symbols: &'s mut SymbolTable,
        preds: &Predicates,
        counters: &'s Counters,
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
            pred_names,
            pred_negative,
            relations: (0..preds.len()).map(|_| Relation::default()).collect(),
            atoms: AtomTable::default(),
            rules: RuleSet::default(),
            show_terms: Vec::new(),
            uses: Vec::new(),
            aggregates: AggregateAtoms {
                pred: aggregate_pred,
                name: aggregate_name,
                definitions: Vec::new(),
                index: FxHashMap::default(),
            },
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

    /// clingo's `redefinition of atom` errors: the atoms that a group
    /// defines, other than as a fact, and an earlier group defined too,
    /// each with its first rule of the group (none for a fact, which has no
    /// rule).
    pub fn redefinitions(&self, start: &GroupStart) -> Vec<(PredId, String, Option<Span>)> {
        if start.defined.is_empty() {
            return Vec::new(); // the first group: nothing was defined before
        }
        let mut found: Vec<(u32, Option<Span>)> = Vec::new();
        for rule in &self.rules.rules[start.rules..] {
            rule.head
                .for_each_atom(|a| found.push((a.0, Some(rule.origin))));
        }
        let new_facts = (0..start.fact.len()).filter(|&a| self.atoms.fact[a] && !start.fact[a]);
        found.extend(new_facts.map(|a| (a as u32, None)));
        let mut reported = FxHashSet::default();
        let mut redefined = Vec::new();
        let mut earlier_heads: Option<FxHashSet<u32>> = None;
        for (a, origin) in found {
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

    /// The atoms, rules and `#show` terms grounded; the relations and their
    /// indexes are freed here, before simplification needs memory.
    pub fn finish(mut self) -> (AtomTable, RuleSet, Vec<ShowTerm>, Vec<AggregateDefinition>) {
        for &(atom, complement) in &self.negations.complements {
            let origin = Span::default();
            (self.rules).insert(Head::Atom(AtomId(complement)), &[], &[AtomId(atom)], origin);
        }
        for (head, body, origin) in std::mem::take(&mut self.implications.rules) {
            (self.rules).insert(head, &body.pos, &body.neg, origin);
        }
        (
            self.atoms,
            self.rules,
            self.show_terms,
            self.aggregates.definitions,
        )
    }

    /// Grounds rules whose body predicates are all complete (constraints and
    /// `#show` terms).
    pub fn ground_final(&mut self, rules: &[&CRule]) {
        for rule in rules {
            self.evaluate(rule, None, &|_| false, Mode::Rules);
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
            symbols: self.symbols,
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

    fn add_members(&mut self, new_members: Vec<(PredId, u32)>) {
        let mut key = Vec::new();
        for (pred, atom) in new_members {
            let rel = &mut self.relations[pred.index()];
            let position = rel.members.len() as u32;
            rel.members.push(atom);
            let args = self.symbols.args(self.atoms.syms[atom as usize]);
            for index in &mut rel.indexes {
                add_to_index(&mut index.positions, args, index.mask, position, &mut key);
            }
        }
    }

    /// Orders the literals so that each is evaluated once its inputs are
    /// bound, cheapest first, and creates the indexes the order needs.
    fn plan<'r>(
        &mut self,
        literals: &'r [CLit],
        bound: &mut [bool],
        delta: Option<usize>,
        in_component: &dyn Fn(PredId) -> bool,
    ) -> Vec<Step<'r>> {
        let mut done = vec![false; literals.len()];
        let mut steps = Vec::with_capacity(literals.len());
        // The literal over new atoms goes first when nothing else must bind
        // its inputs (`f(N-1)` binds N by inversion, `f(N*N)` cannot).
        let delta_ready = |done: &[bool], bound: &[bool]| {
            delta.filter(|&d| {
                !done[d]
                    && matches!(&literals[d], CLit::Pos(a) if a.args.iter().all(|t| t.inputs_bound(bound)))
            })
        };
        while let Some(i) = delta_ready(&done, bound).or_else(|| self.pick(literals, &done, bound))
        {
            done[i] = true;
            let step = match &literals[i] {
                CLit::Pos(atom) => {
                    // Semi-naive rule d: literal d over the new atoms, the
                    // component's literals before it over the old ones only.
                    let window = match delta {
                        Some(d) if i == d => Window::Recent,
                        Some(d) if in_component(atom.pred) && i < d => Window::Stable,
                        _ => Window::All,
                    };
                    self.match_step(atom, bound, window)
                }
                CLit::Neg(atom) => Step::Neg(atom),
                CLit::NotNot(atom) => Step::NotNot(atom),
                CLit::Cmp(op, l, r) => {
                    if *op == CmpOp::Eq && !(l.is_bound(bound) && r.is_bound(bound)) {
                        if r.is_bound(bound) {
                            Step::Bind {
                                pattern: l,
                                value: r,
                            }
                        } else {
                            Step::Bind {
                                pattern: r,
                                value: l,
                            }
                        }
                    } else {
                        Step::Filter(*op, l, r)
                    }
                }
                // Once an atom has bound the pattern (`x(1..N)` matches the
                // known `x` atoms first), the interval is a range check.
                CLit::Interval(pattern, lo, hi) if pattern.is_bound(bound) => {
                    Step::InRange { pattern, lo, hi }
                }
                CLit::Interval(pattern, lo, hi) => {
                    let narrowing = match pattern {
                        CTerm::Var(v) => Narrowing::of(*v, literals, &done, bound),
                        _ => Narrowing::default(),
                    };
                    let witness = matches!(pattern, CTerm::Var(v)
                        if self.uses.get(*v) == Some(&(1 + narrowing.occurrences)));
                    Step::Interval {
                        pattern,
                        lo,
                        hi,
                        narrowing,
                        witness,
                    }
                }
                CLit::Aggregate(aggregate) => Step::Aggregate {
                    aggregate,
                    recursive: aggregate.reads(in_component, true)
                        || aggregate.literal_reads(in_component),
                    plans: aggregate
                        .elements
                        .iter()
                        .map(|e| {
                            let mut local = bound.to_vec();
                            let condition = self.plan(&e.condition, &mut local, None, &|_| false);
                            let unless = e.unless.as_ref().map(|l| {
                                let literal = std::slice::from_ref(l);
                                let bindings = &e.literal_bindings[..];
                                // A positive atom's match binds its own
                                // variables; other literals' are bound by
                                // their intervals, which the literal narrows.
                                if let CLit::Pos(..) = l {
                                    let mut steps =
                                        self.plan(literal, &mut local, None, &|_| false);
                                    steps.extend(self.plan(bindings, &mut local, None, &|_| false));
                                    return (l, steps);
                                }
                                let before = local.clone();
                                let mut steps = self.plan(bindings, &mut local, None, &|_| false);
                                self.narrow_intervals(&mut steps, l, &before);
                                steps.extend(self.plan(literal, &mut local, None, &|_| false));
                                (l, steps)
                            });
                            ElementPlan { condition, unless }
                        })
                        .collect(),
                },
            };
            bind_step(&literals[i], bound);
            steps.push(step);
        }
        assert!(done.iter().all(|&d| d), "safety guarantees a complete plan");
        steps
    }

    /// Adds to the interval steps the comparisons of `literal`, which
    /// follows them, with a term bound `before` them.
    fn narrow_intervals<'r>(&self, steps: &mut [Step<'r>], literal: &'r CLit, before: &[bool]) {
        for step in steps {
            if let Step::Interval {
                pattern: CTerm::Var(v),
                narrowing,
                witness,
                ..
            } = step
            {
                let more = Narrowing::of(*v, std::slice::from_ref(literal), &[false], before);
                narrowing.clips.extend(more.clips);
                narrowing.readers.extend(more.readers);
                narrowing.occurrences += more.occurrences;
                *witness = self.uses.get(*v) == Some(&(1 + narrowing.occurrences));
            }
        }
    }

    /// The next literal to evaluate: checks and bindings before joins,
    /// joins with the fewest expected matches first, intervals last.
    fn pick(&mut self, literals: &[CLit], done: &[bool], bound: &[bool]) -> Option<usize> {
        let mut best: Option<(usize, (u8, usize))> = None;
        for (i, literal) in literals.iter().enumerate() {
            if done[i] {
                continue;
            }
            if !placeable(literal, bound) {
                continue;
            }
            let score = match literal {
                CLit::Neg(_) | CLit::NotNot(_) => (0, 0),
                CLit::Cmp(_, l, r) if l.is_bound(bound) && r.is_bound(bound) => (0, 0),
                CLit::Cmp(..) => (1, 0),
                CLit::Pos(a) => {
                    let mask = bound_mask(a, bound);
                    (2, self.expected_matches(a.pred, mask, a.args.len()))
                }
                CLit::Interval(..) => (3, 0),
                // An assignment binds a variable; any other aggregate is a
                // check, best made once the joins have narrowed the binding.
                CLit::Aggregate(a) => match a.assigns {
                    Some(_) => (1, 0),
                    None => (2, usize::MAX),
                },
            };
            if best.is_none_or(|(_, b)| score < b) {
                best = Some((i, score));
            }
        }
        best.map(|(i, _)| i)
    }

    fn match_step<'r>(&mut self, atom: &'r CAtom, bound: &[bool], window: Window) -> Step<'r> {
        let mask = bound_mask(atom, bound);
        let index = self.ensure_index(atom.pred, mask).unwrap_or(0);
        let mut ignored = 0;
        for (i, arg) in atom.args.iter().enumerate().take(64) {
            if let CTerm::Var(v) = arg
                && self.uses.get(*v) == Some(&1)
            {
                ignored |= 1 << i;
            }
        }
        Step::Match {
            atom,
            mask,
            index,
            window,
            ignored,
        }
    }

    /// The position of the relation's index on `mask`, built if it is new;
    /// `None` for the empty mask, which needs none.
    fn ensure_index(&mut self, pred: PredId, mask: u64) -> Option<usize> {
        let rel = &mut self.relations[pred.index()];
        if mask == 0 {
            return None;
        }
        if let Some(found) = rel.indexes.iter().position(|index| index.mask == mask) {
            return Some(found);
        }
        let mut positions: FxHashMap<Box<[SymId]>, Vec<u32>> = FxHashMap::default();
        let mut key = Vec::new();
        for (position, &a) in rel.members.iter().enumerate() {
            let args = self.symbols.args(self.atoms.syms[a as usize]);
            add_to_index(&mut positions, args, mask, position as u32, &mut key);
        }
        rel.indexes.push(Index { mask, positions });
        Some(rel.indexes.len() - 1)
    }

    /// The average number of atoms a lookup with these bound positions
    /// yields, from the index's number of distinct keys. A fully bound
    /// lookup is a check, preferred before any join.
    fn expected_matches(&mut self, pred: PredId, mask: u64, arity: usize) -> usize {
        if arity > 0 && mask == u64::MAX >> (64 - arity.min(64)) {
            return 0;
        }
        let index = self.ensure_index(pred, mask);
        let rel = &self.relations[pred.index()];
        match index {
            Some(index) => (rel.members.len()).div_ceil(rel.indexes[index].positions.len().max(1)),
            None => rel.members.len(),
        }
    }
}

fn bound_mask(atom: &CAtom, bound: &[bool]) -> u64 {
    let mut mask = 0u64;
    for (i, arg) in atom.args.iter().enumerate().take(64) {
        if arg.is_bound(bound) {
            mask |= 1 << i;
        }
    }
    mask
}

/// Files the member at `position`, of arguments `args`, under its values
/// at the positions of `mask`; `key` is scratch space, so that only a new
/// key is allocated.
fn add_to_index(
    index: &mut FxHashMap<Box<[SymId]>, Vec<u32>>,
    args: &[SymId],
    mask: u64,
    position: u32,
    key: &mut Vec<SymId>,
) {
    key.clear();
    let bound = args.iter().enumerate().take(64);
    key.extend(
        bound
            .filter(|&(i, _)| mask & (1 << i) != 0)
            .map(|(_, &s)| s),
    );
    match index.get_mut(&key[..]) {
        Some(positions) => positions.push(position),
        None => _ = index.insert(key.as_slice().into(), vec![position]),
    }
}

/// The state of one evaluation: the binding, and the ground body built so
/// far along the current branch of the join.
struct Exec<'a> {
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
}

impl Exec<'_> {
    fn run(&mut self, steps: &[Step<'_>], k: usize, leaf: &mut dyn FnMut(&mut Self)) {
        let Some(step) = steps.get(k) else {
            return leaf(self);
        };
        match step {
            Step::Match {
                atom,
                mask,
                index,
                window,
                ignored,
            } => {
                let relations = self.relations;
                let rel = &relations[atom.pred.index()];
                let (lo, hi) = match window {
                    Window::All => (
                        0,
                        if rel.complete {
                            rel.members.len()
                        } else {
                            rel.recent_end
                        },
                    ),
                    Window::Stable => (0, rel.stable_end),
                    Window::Recent => (rel.stable_end, rel.recent_end),
                };
                let mut seen = FxHashSet::default();
                if *mask == 0 {
                    for &member in &rel.members[lo..hi] {
                        if *ignored == 0 || self.first_of_its_kind(member, *ignored, &mut seen) {
                            self.try_member(atom, 0, member, steps, k, leaf);
                        }
                    }
                    return;
                }
                self.key.clear();
                for (i, arg) in atom.args.iter().enumerate().take(64) {
                    if mask & (1 << i) != 0 {
                        match arg.eval(self.symbols, &self.env) {
                            Some(v) => self.key.push(v),
                            None => return,
                        }
                    }
                }
                let Some(positions) = rel.indexes[*index].positions.get(&self.key[..]) else {
                    return;
                };
                let start = positions.partition_point(|&p| (p as usize) < lo);
                for &p in &positions[start..] {
                    if p as usize >= hi {
                        break;
                    }
                    let member = rel.members[p as usize];
                    if *ignored == 0 || self.first_of_its_kind(member, *ignored, &mut seen) {
                        self.try_member(atom, *mask, member, steps, k, leaf);
                    }
                }
            }
            Step::Neg(atom) => match self.negated(atom) {
                Negated::Undefined | Negated::Fact => {}
                Negated::Open(a) => {
                    self.neg.push(a);
                    self.run(steps, k + 1, leaf);
                    self.neg.pop();
                }
                Negated::Underivable => self.run(steps, k + 1, leaf),
            },
            // `not not a`: true when `a` is a fact, false when it cannot
            // be derived, otherwise `not a'` with `a' :- not a.`.
            Step::NotNot(atom) => match self.negated(atom) {
                Negated::Undefined | Negated::Underivable => {}
                Negated::Open(a) => {
                    let complement = self.negations.atom(self.symbols, self.atoms, a);
                    self.neg.push(complement);
                    self.run(steps, k + 1, leaf);
                    self.neg.pop();
                }
                Negated::Fact => self.run(steps, k + 1, leaf),
            },
            Step::Filter(op, l, r) => {
                if self.holds(*op, l, r) {
                    self.run(steps, k + 1, leaf);
                }
            }
            Step::Bind { pattern, value } => {
                let Some(v) = value.eval(self.symbols, &self.env) else {
                    return;
                };
                self.with_match(pattern, v, steps, k, leaf);
            }
            Step::Interval {
                pattern,
                lo,
                hi,
                narrowing,
                witness,
            } => {
                let Some((lo, hi)) = self.clipped_interval(lo, hi, &narrowing.clips) else {
                    return;
                };
                for n in lo..=hi {
                    let value = self.symbols.number(n);
                    if !*witness {
                        self.with_match(pattern, value, steps, k, leaf);
                    } else if self.passes(pattern, value, &narrowing.readers) {
                        self.with_match(pattern, value, steps, k, leaf);
                        break;
                    }
                }
            }
            Step::InRange { pattern, lo, hi } => {
                if self.in_range(pattern, lo, hi) {
                    self.run(steps, k + 1, leaf);
                }
            }
            Step::Forget(vars) => {
                let saved: Vec<Option<SymId>> = vars.iter().map(|&v| self.env[v].take()).collect();
                self.run(steps, k + 1, leaf);
                for (&v, value) in vars.iter().zip(saved) {
                    self.env[v] = value;
                }
            }
            // While its component grows, a negated recursive aggregate may
            // still become false: it may hold (as a negative literal over
            // the component would).
            Step::Aggregate {
                aggregate,
                recursive: true,
                ..
            } if self.heads_only.is_some() && aggregate.negated() => self.run(steps, k + 1, leaf),
            // An instance whose heads are all derived already derives
            // nothing new, whatever its aggregates: they are not grounded
            // again in every round.
            Step::Aggregate { .. } if self.heads_known() => self.run(steps, k + 1, leaf),
            Step::Aggregate {
                aggregate, plans, ..
            } => self.aggregate(aggregate, plans, steps, k, leaf),
        }
    }

    /// The values `lo..hi` under the current binding, narrowed to those
    /// that pass `clips`; `None` when a bound is not an integer or a
    /// comparison's term is undefined (no value passes).
    fn clipped_interval(
        &mut self,
        lo: &CTerm,
        hi: &CTerm,
        clips: &[(CmpOp, &CTerm)],
    ) -> Option<(i32, i32)> {
        let mut number = |t: &CTerm| {
            t.eval(self.symbols, &self.env)
                .and_then(|s| self.symbols.as_number(s))
        };
        let (mut lo, mut hi) = (i64::from(number(lo)?), i64::from(number(hi)?));
        for &(op, term) in clips {
            let value = term.eval(self.symbols, &self.env)?;
            let Some(n) = self.symbols.as_number(value).map(i64::from) else {
                // Every integer lies on the same side of any other symbol.
                let any = self.symbols.number(0);
                compare(self.symbols, op, any, value).then_some(())?;
                continue;
            };
            match op {
                CmpOp::Lt => hi = hi.min(n - 1),
                CmpOp::Le => hi = hi.min(n),
                CmpOp::Gt => lo = lo.max(n + 1),
                CmpOp::Ge => lo = lo.max(n),
                CmpOp::Eq => (lo, hi) = (lo.max(n), hi.min(n)),
                CmpOp::Ne => {}
            }
        }
        // Both stay within the original integer bounds when not empty.
        (lo <= hi).then_some((lo as i32, hi as i32))
    }

    /// Whether `l op r` holds under the current binding (not when a side is
    /// undefined).
    fn holds(&mut self, op: CmpOp, l: &CTerm, r: &CTerm) -> bool {
        let l = l.eval(self.symbols, &self.env);
        let r = r.eval(self.symbols, &self.env);
        matches!((l, r), (Some(a), Some(b)) if compare(self.symbols, op, a, b))
    }

    /// Whether `pattern` is an integer in `lo..hi` under the current binding.
    fn in_range(&mut self, pattern: &CTerm, lo: &CTerm, hi: &CTerm) -> bool {
        let mut number = |t: &CTerm| {
            t.eval(self.symbols, &self.env)
                .and_then(|s| self.symbols.as_number(s))
        };
        matches!((number(pattern), number(lo), number(hi)),
            (Some(value), Some(lo), Some(hi)) if (lo..=hi).contains(&value))
    }

    /// Whether the comparisons and intervals `readers` hold with the
    /// variable `pattern` bound to `value`.
    fn passes(&mut self, pattern: &CTerm, value: SymId, readers: &[&CLit]) -> bool {
        let CTerm::Var(v) = *pattern else {
            return true;
        };
        self.env[v] = Some(value);
        let passes = readers.iter().all(|literal| match literal {
            CLit::Cmp(op, l, r) => self.holds(*op, l, r),
            CLit::Interval(pattern, lo, hi) => self.in_range(pattern, lo, hi),
            _ => true,
        });
        self.env[v] = None;
        passes
    }

    /// The tuple of an aggregate element's terms under the current binding;
    /// `None` when one is undefined.
    fn tuple(&mut self, terms: &[CTerm]) -> Option<SymId> {
        let values = terms
            .iter()
            .map(|t| t.eval(self.symbols, &self.env))
            .collect::<Option<Vec<SymId>>>()?;
        Some(self.symbols.function("", &values, false))
    }

    /// In [`Mode::HeadsOnly`], whether every atom the rule instance can
    /// derive is known to be derived already.
    fn heads_known(&mut self) -> bool {
        let Some(CHead::Disjunction(disjuncts)) = self.heads_only else {
            return false;
        };
        disjuncts.iter().all(|d| {
            d.condition.is_empty()
                && self
                    .atom_symbol(&d.atom)
                    .and_then(|sym| self.atoms.find(sym))
                    .is_some_and(|a| self.atoms.defined[a as usize])
        })
    }

    /// Grounds a body aggregate under the current binding: its elements,
    /// its guards, and then the rest of the body once per value it can take
    /// (an assignment) or once (a check). An aggregate decided by what
    /// grounding knows is dropped (true) or drops the instance (false);
    /// otherwise an aggregate atom stands for it.
    fn aggregate(
        &mut self,
        aggregate: &CAggregate,
        plans: &[ElementPlan<'_>],
        steps: &[Step<'_>],
        k: usize,
        leaf: &mut dyn FnMut(&mut Self),
    ) {
        if aggregate.conditional {
            return self.conditional(aggregate, plans, steps, k, leaf);
        }
        let (pos_base, neg_base) = (self.pos.len(), self.neg.len());
        let mut found: Vec<(SymId, Body)> = Vec::new();
        for (element, plan) in aggregate.elements.iter().zip(plans) {
            self.run(&plan.condition, 0, &mut |exec| {
                // An undefined term drops the element.
                let Some(tuple) = exec.tuple(&element.terms) else {
                    return;
                };
                found.push((tuple, exec.body(pos_base, neg_base)));
            });
        }
        let mut guards = Vec::with_capacity(aggregate.guards.len());
        for (op, term) in &aggregate.guards {
            if let CTerm::Var(v) = term
                && aggregate.assigns == Some(*v)
            {
                continue;
            }
            match term.eval(self.symbols, &self.env) {
                Some(value) => guards.push((*op, value)),
                None => return, // an undefined guard drops the instance
            }
        }
        let Some(ground) = GroundAggregate::new(self.symbols, aggregate.function, found) else {
            return;
        };
        match aggregate.assigns {
            None => {
                let key = ground.with_guards(self.symbols, &guards);
                self.aggregate_literal(aggregate, aggregate.naf, key, steps, k, leaf)
            }
            Some(var) => {
                for value in ground.possible_values(self.symbols) {
                    guards.push((CmpOp::Eq, value));
                    self.env[var] = Some(value);
                    let key = ground.with_guards(self.symbols, &guards);
                    self.aggregate_literal(aggregate, Naf::Positive, key, steps, k, leaf);
                    self.env[var] = None;
                    guards.pop();
                }
            }
        }
    }

    /// Grounds a conditional literal `l : c` as `#sum{1,i : l; 1,i : not
    /// c_i...} >= n` over its `n` instances whose `l` is not certain: each
    /// instance holds when `l` does or a literal of its `c` does not. A pool
    /// in `l` gives the instance one `l` per term, any of which will do (as
    /// in clingo: `:- q(1,A;2,A) : d(A).` needs `q(1,a) | q(2,a)` for each
    /// `A`); an instance is its variables' values with its condition.
    fn conditional(
        &mut self,
        aggregate: &CAggregate,
        plans: &[ElementPlan<'_>],
        steps: &[Step<'_>],
        k: usize,
        leaf: &mut dyn FnMut(&mut Self),
    ) {
        let (pos_base, neg_base) = (self.pos.len(), self.neg.len());
        // Per instance: `None` once some `l` of it is certain, else the
        // conditions under which one holds.
        let mut instances: FxHashMap<(SymId, Body), Option<Vec<Body>>> = FxHashMap::default();
        let mut order: Vec<(SymId, Body)> = Vec::new();
        for (element, plan) in aggregate.elements.iter().zip(plans) {
            self.run(&plan.condition, 0, &mut |exec| {
                let Some(tuple) = exec.tuple(&element.terms) else {
                    return;
                };
                let condition = exec.body(pos_base, neg_base);
                // The bodies under which `l` holds: `None` when it is
                // certain, none when it never holds.
                let literal: Option<Vec<Body>> = match &plan.unless {
                    // `l` binds variables of its own (`p(X) : #true`): the
                    // disjunction of its instances, as in clingo.
                    Some((_, matches)) if element.literal_binds => {
                        let mark = (exec.pos.len(), exec.neg.len());
                        let mut bodies = Some(Vec::new());
                        exec.run(matches, 0, &mut |exec| {
                            let body = exec.body(mark.0, mark.1);
                            if body.is_empty() {
                                bodies = None; // a fact: `l` is certain
                            } else if let Some(bodies) = &mut bodies {
                                bodies.push(body);
                            }
                        });
                        bodies
                    }
                    // `l` never holds: `#false`, or a literal with an
                    // undefined term (`p(1+a)`, `not p(1+a)`), which clingo
                    // takes as false.
                    None => Some(Vec::new()),
                    Some((CLit::Neg(atom) | CLit::Pos(atom), _))
                        if exec.atom_symbol(atom).is_none() =>
                    {
                        Some(Vec::new())
                    }
                    Some((CLit::Cmp(_, lhs, rhs), _))
                        if lhs.eval(exec.symbols, &exec.env).is_none()
                            || rhs.eval(exec.symbols, &exec.env).is_none() =>
                    {
                        Some(Vec::new())
                    }
                    // `not l` grounded: no body when it cannot hold (`l` is
                    // certain), an empty one when it is certain.
                    Some((_, unless)) => {
                        let (pos_mark, neg_mark) = (exec.pos.len(), exec.neg.len());
                        let mut found = None;
                        exec.run(unless, 0, &mut |exec| {
                            found = Some(exec.body(pos_mark, neg_mark))
                        });
                        found.map(|not_literal| match not_literal.is_empty() {
                            true => Vec::new(),
                            // `l = not not a` under `not a` open: `not a'`.
                            false if element.literal_double_negated => {
                                let complements: Vec<AtomId> = (not_literal.neg.iter())
                                    .map(|&a| {
                                        AtomId(exec.negations.atom(exec.symbols, exec.atoms, a.0))
                                    })
                                    .collect();
                                vec![Body::from_slices(&[], &complements)]
                            }
                            false => vec![Body::from_slices(&not_literal.neg, &not_literal.pos)],
                        })
                    }
                };
                let key = (tuple, condition);
                let entry = instances.entry(key.clone()).or_insert_with(|| {
                    order.push(key);
                    Some(Vec::new())
                });
                match (literal, entry) {
                    (None, entry) => *entry = None,
                    (Some(bodies), Some(literals)) => literals.extend(bodies),
                    (Some(_), None) => {}
                }
            });
        }
        if aggregate.implication && self.heads_only.is_none() {
            let mark = self.pos.len();
            for key in order {
                // `None`: some `l` of the instance is certain.
                let Some(mut literal) = instances.remove(&key).flatten() else {
                    continue;
                };
                let (_, condition) = key;
                literal.sort();
                literal.dedup();
                if literal.is_empty() && condition.is_empty() {
                    self.pos.truncate(mark);
                    return; // a certain condition and no `l` that can hold
                }
                let key = (literal, condition);
                let atom = (self.implications).atom(
                    self.symbols,
                    self.atoms,
                    self.negations,
                    key,
                    aggregate.span,
                );
                self.pos.push(atom);
            }
            self.run(steps, k + 1, leaf);
            self.pos.truncate(mark);
            return;
        }
        let mut elements: Vec<WeightedElement> = Vec::new();
        for key in order {
            let Some(mut conditions) = instances.remove(&key).flatten() else {
                continue;
            };
            let (_, condition) = key;
            conditions.extend(condition.pos.iter().map(|&p| Body::from_slices(&[], &[p])));
            conditions.extend(condition.neg.iter().map(|&n| Body::from_slices(&[n], &[])));
            if conditions.is_empty() {
                // A certain condition and no literal that can hold.
                return;
            }
            conditions.sort();
            conditions.dedup();
            elements.push(WeightedElement {
                value: 1,
                conditions,
            });
        }
        elements.sort_by(|a, b| a.conditions.cmp(&b.conditions));
        elements.dedup();
        let guards = vec![(CmpOp::Ge, elements.len() as i64)];
        let key = Some((AggregateValue::Sum, elements, guards));
        self.aggregate_literal(aggregate, Naf::Positive, key, steps, k, leaf);
    }

    /// Continues with the ground aggregate `key` under `naf` in the body
    /// (`None`: its guards can never hold).
    fn aggregate_literal(
        &mut self,
        aggregate: &CAggregate,
        naf: Naf,
        key: Option<AggregateKey>,
        steps: &[Step<'_>],
        k: usize,
        leaf: &mut dyn FnMut(&mut Self),
    ) {
        // `not not` holds when the aggregate does.
        let negated = naf == Naf::Not;
        let Some((value, elements, guards)) = key else {
            // A guard no value can satisfy (`#count{..} > a`).
            if negated {
                self.run(steps, k + 1, leaf);
            }
            return;
        };
        match decide(value, &elements, &guards) {
            Some(holds) => {
                if holds != negated {
                    self.run(steps, k + 1, leaf);
                }
            }
            None if self.heads_only.is_some() => self.run(steps, k + 1, leaf),
            None => {
                let key = (value, elements, guards);
                let mut atom = self
                    .aggregates
                    .atom(self.symbols, self.atoms, key, aggregate.span);
                // `not not A` is `not A'` with `A' :- not A.`
                if naf == Naf::NotNot {
                    atom = self.negations.atom(self.symbols, self.atoms, atom);
                }
                let negated = naf != Naf::Positive;
                let literals = if negated {
                    &mut self.neg
                } else {
                    &mut self.pos
                };
                literals.push(atom);
                self.run(steps, k + 1, leaf);
                let literals = if negated {
                    &mut self.neg
                } else {
                    &mut self.pos
                };
                literals.pop();
            }
        }
    }

    fn with_match(
        &mut self,
        pattern: &CTerm,
        value: SymId,
        steps: &[Step<'_>],
        k: usize,
        leaf: &mut dyn FnMut(&mut Self),
    ) {
        let mark = self.trail.len();
        if pattern.matches(self.symbols, value, &mut self.env, &mut self.trail) {
            self.run(steps, k + 1, leaf);
        }
        self.undo(mark);
    }

    /// Whether `member` is the first fact this step matches with its
    /// arguments outside `ignored`; atoms that are not facts are always
    /// matched, since each is a body of its own.
    fn first_of_its_kind(
        &self,
        member: u32,
        ignored: u64,
        seen: &mut FxHashSet<Vec<SymId>>,
    ) -> bool {
        if !self.atoms.fact[member as usize] {
            return true;
        }
        let args = self.symbols.args(self.atoms.syms[member as usize]);
        let key = (args.iter().enumerate())
            .filter(|&(i, _)| i >= 64 || ignored & (1 << i) == 0)
            .map(|(_, &a)| a)
            .collect();
        seen.insert(key)
    }

    fn try_member(
        &mut self,
        atom: &CAtom,
        mask: u64,
        member: u32,
        steps: &[Step<'_>],
        k: usize,
        leaf: &mut dyn FnMut(&mut Self),
    ) {
        let mark = self.trail.len();
        let sym = self.atoms.syms[member as usize];
        let mut ok = true;
        for (i, arg) in atom.args.iter().enumerate() {
            if i < 64 && mask & (1 << i) != 0 {
                continue;
            }
            let value = self.symbols.args(sym)[i];
            if !arg.matches(self.symbols, value, &mut self.env, &mut self.trail) {
                ok = false;
                break;
            }
        }
        if ok {
            if self.atoms.fact[member as usize] {
                self.run(steps, k + 1, leaf);
            } else {
                self.pos.push(member);
                self.run(steps, k + 1, leaf);
                self.pos.pop();
            }
        }
        self.undo(mark);
    }

    fn undo(&mut self, mark: usize) {
        for v in self.trail.drain(mark..) {
            self.env[v] = None;
        }
    }

    /// The ground symbol of an atom under the current binding.
    fn atom_symbol(&mut self, atom: &CAtom) -> Option<SymId> {
        let mut args = std::mem::take(&mut self.args);
        args.clear();
        let mut defined = true;
        for a in &atom.args {
            match a.eval(self.symbols, &self.env) {
                Some(v) => args.push(v),
                None => {
                    defined = false;
                    break;
                }
            }
        }
        let p = atom.pred.index();
        let symbol = defined.then(|| {
            self.symbols
                .function_of(self.pred_names[p], &args, self.pred_negative[p])
        });
        self.args = args;
        symbol
    }

    /// What grounding knows of the atom under a negation, under the current
    /// binding.
    fn negated(&mut self, atom: &CAtom) -> Negated {
        let Some(sym) = self.atom_symbol(atom) else {
            return Negated::Undefined;
        };
        let complete = self.relations[atom.pred.index()].complete;
        match self.atoms.find(sym) {
            Some(a) if self.atoms.fact[a as usize] => Negated::Fact,
            Some(a) if self.atoms.defined[a as usize] || !complete => Negated::Open(a),
            None if !complete => Negated::Open(self.atoms.get_or_insert(sym, atom.pred)),
            _ => Negated::Underivable,
        }
    }

    /// Evaluates a head atom and records it as derived.
    fn derive(&mut self, atom: &CAtom, output: &mut Output) -> Option<u32> {
        let sym = self.atom_symbol(atom)?;
        let a = self.atoms.get_or_insert(sym, atom.pred);
        self.mark_derived(a, atom.pred, output);
        Some(a)
    }

    /// Records the atom `a` of `pred` as derived: new members join their
    /// relation once the evaluation is over.
    fn mark_derived(&mut self, a: u32, pred: PredId, output: &mut Output) {
        if !self.atoms.defined[a as usize] {
            self.atoms.defined[a as usize] = true;
            output.new_members.push((pred, a));
        }
    }

    /// The body built since `pos_from` and `neg_from`, sorted and distinct.
    fn body(&self, pos_from: usize, neg_from: usize) -> Body {
        let atoms = |ids: &[u32]| {
            let mut atoms: Atoms = ids.iter().map(|&a| AtomId(a)).collect();
            atoms.sort_unstable();
            atoms.dedup();
            atoms
        };
        Body {
            pos: atoms(&self.pos[pos_from..]),
            neg: atoms(&self.neg[neg_from..]),
        }
    }

    /// Produces the ground rule `atom :- body.` of a normal rule (a
    /// disjunction of one unconditional atom) for the current binding: the
    /// common case, without the disjunction's general grouping of heads.
    fn emit_atom(&mut self, atom: &CAtom, span: Span, output: &mut Output) {
        // An undefined head term drops the instance.
        let Some(sym) = self.atom_symbol(atom) else {
            return;
        };
        let a = self.atoms.get_or_insert(sym, atom.pred);
        if self.atoms.fact[a as usize] {
            return; // already satisfied
        }
        self.mark_derived(a, atom.pred, output);
        if self.heads_only.is_some() {
            return;
        }
        if self.pos.is_empty() && self.neg.is_empty() {
            // A fact is a flag on its atom, never a rule.
            self.atoms.fact[a as usize] = true;
            return;
        }
        output.rule(Head::Atom(AtomId(a)), self.rule_body(), span);
    }

    /// The whole rule body, sorted and distinct, in reused buffers: most
    /// instances of symmetric constraints are duplicates that need no
    /// allocation of their own.
    fn rule_body(&mut self) -> (&[AtomId], &[AtomId]) {
        let sorted = |out: &mut Vec<AtomId>, atoms: &[u32]| {
            out.clear();
            out.extend(atoms.iter().map(|&a| AtomId(a)));
            out.sort_unstable();
            out.dedup();
        };
        sorted(&mut self.scratch_pos, &self.pos);
        sorted(&mut self.scratch_neg, &self.neg);
        (&self.scratch_pos, &self.scratch_neg)
    }

    /// Produces the ground rule for the current binding of the body.
    fn emit(&mut self, rule: &CRule, element_plans: &[Vec<Step<'_>>], output: &mut Output) {
        let span = rule.span;
        match &rule.head {
            CHead::Constraint => output.rule(Head::Constraint, self.rule_body(), span),
            CHead::External(input) => {
                if let Some(a) = self.derive(&input.atom, output) {
                    self.atoms.input[a as usize] = true;
                }
            }
            CHead::ShowTerm(term) => {
                if let Some(term) = term.eval(self.symbols, &self.env) {
                    let body = self.body(0, 0);
                    output.show_terms.push(ShowTerm { term, body });
                }
            }
            CHead::Disjunction(disjuncts)
                if let [single] = &disjuncts[..]
                    && single.condition.is_empty() =>
            {
                self.emit_atom(&single.atom, span, output)
            }
            CHead::Disjunction(disjuncts) => {
                for disjunct in disjuncts.iter().filter(|d| d.condition.is_empty()) {
                    // An undefined head term drops the instance.
                    let Some(sym) = self.atom_symbol(&disjunct.atom) else {
                        return;
                    };
                    if let Some(a) = self.atoms.find(sym)
                        && self.atoms.fact[a as usize]
                    {
                        return; // already satisfied
                    }
                }
                // An undefined atom in a conditional disjunct drops the whole
                // instance too (clingo: `a(a). p(1+A) : a(A).` derives nothing).
                let mut undefined = false;
                for (disjunct, plan) in disjuncts.iter().zip(element_plans) {
                    if !disjunct.condition.is_empty() {
                        self.run(plan, 0, &mut |exec| {
                            undefined |= exec.atom_symbol(&disjunct.atom).is_none()
                        });
                    }
                }
                if undefined {
                    return;
                }
                let (pos_base, neg_base) = (self.pos.len(), self.neg.len());
                let mut ground: Vec<(u32, Body)> = Vec::new();
                for (disjunct, plan) in disjuncts.iter().zip(element_plans) {
                    self.ground_element(disjunct, plan, pos_base, neg_base, &mut ground, output);
                }
                if self.heads_only.is_some() {
                    return;
                }
                if ground
                    .iter()
                    .any(|(a, c)| c.is_empty() && self.atoms.fact[*a as usize])
                {
                    return; // a conditional disjunct certainly holds
                }
                // One disjunct per atom: `p : q | p : r` is `p : (q | r)`,
                // and `p | p : q` is `p`. Disjuncts of one atom under
                // several conditions would depend positively on each other
                // through it, and so not be head-cycle-free.
                ground.sort_unstable();
                ground.dedup();
                let mut heads: Vec<AtomId> = Vec::with_capacity(ground.len());
                for same_atom in ground.chunk_by(|(a, _), (b, _)| a == b) {
                    let atom = same_atom[0].0;
                    if same_atom.iter().any(|(_, condition)| condition.is_empty()) {
                        heads.push(AtomId(atom));
                        continue;
                    }
                    let conditions: Vec<Body> = same_atom.iter().map(|(_, c)| c.clone()).collect();
                    let constraints: usize = conditions
                        .iter()
                        .map(|c| c.pos.len() + c.neg.len())
                        .try_fold(1usize, |n, k| n.checked_mul(k))
                        .unwrap_or(usize::MAX);
                    if constraints <= MAX_DISJUNCT_CONSTRAINTS {
                        heads.push(self.conditional_disjunct(atom, &conditions, span, output));
                    } else {
                        for condition in conditions {
                            let condition = std::slice::from_ref(&condition);
                            heads.push(self.conditional_disjunct(atom, condition, span, output));
                        }
                    }
                }
                heads.sort_unstable();
                heads.dedup();
                let empty = self.pos.is_empty() && self.neg.is_empty();
                let head = match heads[..] {
                    // No disjunct's condition holds: the body must be false.
                    [] => Head::Constraint,
                    [single] if empty => {
                        // A fact is a flag on its atom, never a rule.
                        self.atoms.fact[single.index()] = true;
                        return;
                    }
                    [single] => Head::Atom(single),
                    _ => Head::Disjunction(heads),
                };
                output.rule(head, self.rule_body(), span);
            }
            CHead::Choice { elements, guards } => {
                let (pos_base, neg_base) = (self.pos.len(), self.neg.len());
                let mut ground: Vec<(u32, Body)> = Vec::new();
                for (element, plan) in elements.iter().zip(element_plans) {
                    self.ground_element(element, plan, pos_base, neg_base, &mut ground, output);
                }
                if self.heads_only.is_some() {
                    return;
                }
                let elements = merge_elements(ground);
                let head = match self.bounds(guards, elements.len()) {
                    // An undefined bound drops the instance, as clingo does.
                    ChoiceBounds::Undefined => return,
                    // The bounds can never hold: the body must be false.
                    ChoiceBounds::Impossible => Head::Constraint,
                    ChoiceBounds::Count(_) if elements.is_empty() => return,
                    ChoiceBounds::Count(bounds) => Head::Choice { elements, bounds },
                };
                output.rule(head, self.rule_body(), span);
            }
        }
    }

    /// The atom `d` standing for the disjunct `atom : c1 | .. | atom : cn`
    /// whose conditions are not certain, defined by `d ↔ atom ∧ (c1 ∨ .. ∨
    /// cn)`: the first time, per condition `c` the rules `atom :- d, c.` and
    /// `d :- c, atom.`, and `:- d, not l1, .., not ln.` for every choice of
    /// one literal `li` of each `ci`.
    fn conditional_disjunct(
        &mut self,
        atom: u32,
        conditions: &[Body],
        span: Span,
        output: &mut Output,
    ) -> AtomId {
        let (d, new) = self
            .disjuncts
            .atom(self.symbols, self.atoms, atom, conditions);
        if new {
            let (atom, d) = (AtomId(atom), AtomId(d));
            for condition in conditions {
                // The condition is a positive dependency of the atom, as in
                // clingo (`p : q. q :- p.` has no answer set).
                let support = condition.and(&Body::from_slices(&[d], &[]));
                output.rule(Head::Atom(atom), (&support.pos, &support.neg), span);
                let definition = condition.and(&Body::from_slices(&[atom], &[]));
                output.rule(Head::Atom(d), (&definition.pos, &definition.neg), span);
            }
            let mut violations = vec![Body::from_slices(&[d], &[])];
            for condition in conditions {
                let falsified: Vec<Body> = (condition.neg.iter())
                    .map(|&n| Body::from_slices(&[n], &[]))
                    .chain(condition.pos.iter().map(|&p| Body::from_slices(&[], &[p])))
                    .collect();
                violations = (violations.iter())
                    .flat_map(|v| falsified.iter().map(move |f| v.and(f)))
                    .filter(|v| !v.pos.iter().any(|p| v.neg.contains(p)))
                    .collect();
            }
            for violation in violations {
                output.rule(Head::Constraint, (&violation.pos, &violation.neg), span);
            }
        }
        AtomId(d)
    }

    fn ground_element(
        &mut self,
        element: &CElement,
        plan: &[Step<'_>],
        pos_base: usize,
        neg_base: usize,
        ground: &mut Vec<(u32, Body)>,
        output: &mut Output,
    ) {
        self.run(plan, 0, &mut |exec| {
            if let Some(a) = exec.derive(&element.atom, output) {
                let condition = exec.body(pos_base, neg_base);
                ground.push((a, condition));
            }
        });
    }

    /// Turns the guards into count bounds over `n` elements.
    fn bounds(&mut self, guards: &[(CmpOp, CTerm)], n: usize) -> ChoiceBounds {
        let (mut lower, mut upper) = (0i64, i64::MAX);
        for (op, term) in guards {
            let Some(value) = term.eval(self.symbols, &self.env) else {
                return ChoiceBounds::Undefined;
            };
            // Numbers compare as numbers; #inf is below every count and any
            // other term above it (clingo's term order).
            let v: i64 = match self.symbols.get(value) {
                SymbolData::Number(v) => i64::from(v),
                SymbolData::Infimum => i64::MIN / 2,
                _ => i64::MAX / 2,
            };
            match op {
                CmpOp::Eq => {
                    lower = lower.max(v);
                    upper = upper.min(v);
                }
                CmpOp::Ge => lower = lower.max(v),
                CmpOp::Gt => lower = lower.max(v + 1),
                CmpOp::Le => upper = upper.min(v),
                CmpOp::Lt => upper = upper.min(v - 1),
                CmpOp::Ne => unreachable!("rejected when compiling"),
            }
        }
        let n = n as i64;
        if upper < 0 || lower > n || lower > upper {
            return ChoiceBounds::Impossible;
        }
        ChoiceBounds::Count(CountBounds {
            lower: lower.max(0) as u32,
            upper: (upper < n).then_some(upper as u32),
        })
    }
}

/// The guards of one choice rule instance.
enum ChoiceBounds {
    /// A guard's term is undefined (`1/0`): the instance does not exist.
    Undefined,
    /// No number of true elements satisfies the guards.
    Impossible,
    Count(CountBounds),
}

/// One element per atom: conditions of repeated atoms are alternatives.
fn merge_elements(mut ground: Vec<(u32, Body)>) -> Vec<ChoiceElement> {
    ground.sort_by_key(|(a, _)| *a);
    let mut elements: Vec<ChoiceElement> = Vec::new();
    for (atom, condition) in ground {
        match elements.last_mut() {
            Some(last) if last.value == AtomId(atom) => {
                if !last.conditions.contains(&condition) {
                    last.conditions.push(condition);
                }
            }
            _ => elements.push(ChoiceElement {
                value: AtomId(atom),
                conditions: vec![condition],
            }),
        }
    }
    for element in &mut elements {
        absorb_certain(&mut element.conditions);
    }
    elements
}

/// The elements of one ground aggregate, grouped by tuple: clingo's set
/// semantics, where a tuple counts once whichever conditions produce it.
struct GroundAggregate {
    function: AggregateFunction,
    /// `(weight, conditions)` per distinct tuple: an integer for sums, any
    /// symbol for `#min` and `#max`.
    elements: Vec<(SymId, Vec<Body>)>,
}

impl GroundAggregate {
    /// Groups `found` by tuple and takes each tuple's weight, dropping the
    /// tuples without one (a non-integer weight of a sum, as clingo does).
    fn new(
        symbols: &mut SymbolTable,
        function: AggregateFunction,
        mut found: Vec<(SymId, Body)>,
    ) -> Option<GroundAggregate> {
        found.sort_by_key(|(tuple, _)| *tuple);
        let one = symbols.number(1);
        // Per distinct tuple: its weight, if it has one, and its conditions.
        let mut tuples: Vec<(SymId, Option<SymId>, Vec<Body>)> = Vec::new();
        for (tuple, condition) in found {
            if let Some((last, _, conditions)) = tuples.last_mut()
                && *last == tuple
            {
                if !conditions.contains(&condition) {
                    conditions.push(condition);
                }
                continue;
            }
            let first = symbols.args(tuple).first().copied();
            let weight = match function {
                AggregateFunction::Count => Some(one),
                AggregateFunction::Sum => first.filter(|&w| symbols.as_number(w).is_some()),
                AggregateFunction::SumPlus => {
                    first.filter(|&w| symbols.as_number(w).is_some_and(|n| n > 0))
                }
                AggregateFunction::Min | AggregateFunction::Max => first,
            };
            tuples.push((tuple, weight, vec![condition]));
        }
        let mut elements: Vec<(SymId, Vec<Body>)> = tuples
            .into_iter()
            .filter_map(|(_, weight, conditions)| Some((weight?, conditions)))
            .collect();
        for (_, conditions) in &mut elements {
            absorb_certain(conditions);
        }
        Some(GroundAggregate { function, elements })
    }

    fn is_sum(&self) -> bool {
        !matches!(
            self.function,
            AggregateFunction::Min | AggregateFunction::Max
        )
    }

    /// The values an assignment `N = #agg{..}` may give `N`: for sums the
    /// sums of the subsets that contain every certain element, for `#min`
    /// and `#max` the weights and the value of the empty set.
    fn possible_values(&self, symbols: &mut SymbolTable) -> Vec<SymId> {
        if !self.is_sum() {
            let mut values: Vec<SymId> = self.elements.iter().map(|(w, _)| *w).collect();
            if !self.elements.iter().any(|(_, c)| c[0].is_empty()) {
                values.push(self.empty_value(symbols));
            }
            values.sort_unstable();
            values.dedup();
            return values;
        }
        let mut sums = std::collections::BTreeSet::from([0i64]);
        for (weight, conditions) in &self.elements {
            let w = i64::from(symbols.as_number(*weight).expect("integer weights"));
            if conditions[0].is_empty() {
                sums = sums.into_iter().map(|s| s + w).collect();
            } else {
                let shifted: Vec<i64> = sums.iter().map(|s| s + w).collect();
                sums.extend(shifted);
            }
        }
        sums.into_iter()
            .filter_map(|s| i32::try_from(s).ok())
            .map(|s| symbols.number(s))
            .collect()
    }

    /// `#sup` for `#min`, `#inf` for `#max`: the value of the empty set.
    fn empty_value(&self, symbols: &mut SymbolTable) -> SymId {
        match self.function {
            AggregateFunction::Min => symbols.intern(SymbolData::Supremum),
            _ => symbols.intern(SymbolData::Infimum),
        }
    }

    /// The aggregate with integer weights and guards (see
    /// [`AggregateValue`]); `None` when a guard can never hold.
    fn with_guards(
        &self,
        symbols: &mut SymbolTable,
        guards: &[(CmpOp, SymId)],
    ) -> Option<AggregateKey> {
        let element = |weight: i64, conditions: &Vec<Body>| WeightedElement {
            value: weight,
            conditions: conditions.clone(),
        };
        if self.is_sum() {
            let elements = self
                .elements
                .iter()
                .map(|(w, c)| element(i64::from(symbols.as_number(*w).expect("integer")), c))
                .collect();
            let mut integer_guards = Vec::new();
            for &(op, bound) in guards {
                match symbols.get(bound) {
                    SymbolData::Number(n) => integer_guards.push((op, i64::from(n))),
                    // A sum is above #inf and below every other non-number.
                    other => {
                        let order = if matches!(other, SymbolData::Infimum) {
                            Ordering::Greater
                        } else {
                            Ordering::Less
                        };
                        if !op.holds(order) {
                            return None;
                        }
                    }
                }
            }
            return Some((
                AggregateValue::Sum,
                merge_equal_conditions(AggregateValue::Sum, elements),
                integer_guards,
            ));
        }
        // Ranks in term order; `#min` becomes `#max` of negated ranks.
        let empty = self.empty_value(symbols);
        let mut ranked: Vec<SymId> = self.elements.iter().map(|(w, _)| *w).collect();
        ranked.extend(guards.iter().map(|(_, b)| *b));
        ranked.push(empty);
        ranked.sort_by(|&a, &b| symbols.compare(a, b).then(a.cmp(&b)));
        ranked.dedup_by(|a, b| symbols.compare(*a, *b) == Ordering::Equal);
        let rank =
            |s: SymId| ranked.partition_point(|&r| symbols.compare(r, s) == Ordering::Less) as i64;
        let negate = self.function == AggregateFunction::Min;
        let signed = |r: i64| if negate { -r } else { r };
        let elements = self
            .elements
            .iter()
            .map(|(w, c)| element(signed(rank(*w)), c))
            .collect();
        let guards = guards
            .iter()
            .map(|&(op, b)| (if negate { op.flip() } else { op }, signed(rank(b))))
            .collect();
        let value = AggregateValue::Max {
            empty: signed(rank(empty)),
        };
        Some((value, merge_equal_conditions(value, elements), guards))
    }
}

/// Elements of distinct tuples that hold under the same conditions hold
/// together, so they are one element: of their summed weight in a sum (and
/// none at all when that is 0), of their greatest weight in a `#max`. This
/// keeps `#sum{-1:a; 1:a} >= 0`, which `a` cannot change, from looking
/// non-monotone, and makes encodings smaller.
fn merge_equal_conditions(
    value: AggregateValue,
    elements: Vec<WeightedElement>,
) -> Vec<WeightedElement> {
    let mut merged: Vec<WeightedElement> = Vec::with_capacity(elements.len());
    let mut by_conditions: FxHashMap<Vec<Body>, usize> = FxHashMap::default();
    for element in elements {
        let mut key = element.conditions.clone();
        key.sort_unstable();
        match by_conditions.entry(key) {
            std::collections::hash_map::Entry::Occupied(entry) => {
                let into = &mut merged[*entry.get()];
                into.value = match value {
                    AggregateValue::Sum => into.value + element.value,
                    AggregateValue::Max { .. } => into.value.max(element.value),
                };
            }
            std::collections::hash_map::Entry::Vacant(entry) => {
                entry.insert(merged.len());
                merged.push(element);
            }
        }
    }
    if value == AggregateValue::Sum {
        merged.retain(|element| element.value != 0);
    }
    merged
}

/// Whether the aggregate holds whichever undecided elements hold: `Some`
/// when every value between the least and the greatest it can take
/// satisfies the guards, or none does.
fn decide(
    value: AggregateValue,
    elements: &[WeightedElement],
    guards: &[(CmpOp, i64)],
) -> Option<bool> {
    let certain = |e: &&WeightedElement| e.conditions[0].is_empty();
    let (lo, hi) = match value {
        AggregateValue::Sum => {
            let base: i64 = elements.iter().filter(certain).map(|e| e.value).sum();
            let undecided = elements.iter().filter(|e| !certain(e));
            let down: i64 = undecided.clone().map(|e| e.value.min(0)).sum();
            let up: i64 = undecided.map(|e| e.value.max(0)).sum();
            (base + down, base + up)
        }
        AggregateValue::Max { empty } => {
            let lo = elements
                .iter()
                .filter(certain)
                .map(|e| e.value)
                .max()
                .unwrap_or(empty);
            let hi = elements
                .iter()
                .map(|e| e.value)
                .max()
                .unwrap_or(empty)
                .max(lo);
            (lo, hi)
        }
    };
    let mut all_hold = true;
    for &(op, bound) in guards {
        let at_lo = op.holds(lo.cmp(&bound));
        let at_hi = op.holds(hi.cmp(&bound));
        let always = match op {
            CmpOp::Eq => lo == hi && lo == bound,
            CmpOp::Ne => bound < lo || bound > hi,
            _ => at_lo && at_hi,
        };
        let never = match op {
            CmpOp::Eq => bound < lo || bound > hi,
            CmpOp::Ne => lo == hi && lo == bound,
            _ => !at_lo && !at_hi,
        };
        if never {
            return Some(false);
        }
        all_hold &= always;
    }
    all_hold.then_some(true)
}
