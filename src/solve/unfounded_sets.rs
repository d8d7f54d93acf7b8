//! The unfounded-set check on a partial assignment, as clasp propagates it
//! (Gebser, Kaufmann and Schaub, "Conflict-driven answer set solving: from
//! theory to practice", AIJ 187, 2012, section 5), independent of the SAT
//! solver that runs the completion: a backend reports its assignment
//! through [`Assignment`] and its decision levels through
//! [`UnfoundedSets::new_level`] and [`UnfoundedSets::backtrack`], and sets
//! the atoms that [`UnfoundedSets::check`] finds unfounded false (as a
//! propagator of the solver seam, [`crate::solve::unfounded_propagator`]).
//!
//! Given the partial assignment `A`:
//! 1. `D` = the atoms on cycles derivable through support bodies not false
//!    in `A`, from atoms off the cycles (always founded here: the
//!    completion decides them);
//! 2. `U` = the cyclic atoms neither false nor in `D`: an unfounded set;
//! 3. for the lowest strongly connected component `C` of the positive
//!    dependency graph that `U` meets, each external body of `U ∩ C` is
//!    false or has a false positive atom. Those literals are the reason of
//!    `¬a` for every `a ∈ U ∩ C`, or, when `a` is true, a conflict
//!    `¬a ∨ ⋁ external`; the higher components follow once these are
//!    propagated;
//! 4. `U ∩ C` is split into the smaller unfounded sets it holds, each with
//!    the reason of its own external bodies (clasp's loop nogoods are of
//!    such sets), so that one atom's reason does not name the bodies of
//!    all the others.
//!
//! `D` is kept between checks as source pointers (see [`UnfoundedSets`]).
//!
//! A recursive aggregate supports its atom as clasp's weight-constraint
//! bodies do in its source-pointer analysis: when the parts that atoms of
//! its component raise can hold with only the rising elements whose
//! condition is not false and whose atoms of the component are founded,
//! the other elements taken from the assignment (see
//! [`AggregateSupport`]).
//!
//! Normal programs, choices, shifted head-cycle-free disjunctions and
//! monotone recursive aggregates are covered; the callers refuse
//! components that are not head-cycle-free or hold a non-monotone
//! aggregate (those need the minimality check).

use crate::graph::{self, csr};
use crate::ground::program::{AggregateValue, AtomId, Direction, GroundProgram};
use crate::syntax::ast::CmpOp;
use crate::translate::{self, BodyId, Cond, Translation};
use varisat::{CnfFormula, Lit, Var};

/// Why a program is outside the check.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unsupported(pub &'static str);

/// The completion of `program` (lazy translation) for a backend to search
/// with the check, or why the check does not cover it.
pub fn completion(program: &GroundProgram) -> Result<(CnfFormula, Translation), Unsupported> {
    let mut formula = CnfFormula::new();
    let translation = translate::translate(program, &mut formula)
        .map_err(|_| Unsupported("the translation failed"))?;
    covers(&translation)?;
    Ok((formula, translation))
}

/// Whether the check covers the program of `translation` (lazy): every
/// component is head-cycle-free, and every recursive aggregate monotone.
pub fn covers(translation: &Translation) -> Result<(), Unsupported> {
    if !translation.minimality().is_empty() {
        return Err(Unsupported(
            "a component is not head-cycle-free or holds a non-monotone aggregate",
        ));
    }
    Ok(())
}

/// The clause excluding `model` (one value per atom) from the next
/// answer sets: the atoms' literals, each negated where the model has it
/// true.
pub fn blocking_clause(translation: &Translation, model: &[bool]) -> Vec<Lit> {
    (model.iter().enumerate())
        .map(|(a, &value)| translation.atom_lit(AtomId(a as u32)) ^ value)
        .collect()
}

/// What a backend shows the check of its search: the values of the
/// variables [`UnfoundedSets::variables`] names, and its trail (the
/// literals made true, in order; the check reads only the part past what
/// it read before, down to the last backtrack).
pub trait Assignment {
    /// The value of `lit`, `None` while unassigned.
    fn value(&self, lit: Lit) -> Option<bool>;
    fn trail_len(&self) -> usize;
    fn trail(&self, index: usize) -> Lit;
}

/// What [`UnfoundedSets::check`] found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// No atom that is not false is unfounded.
    Founded,
    /// The atoms of [`UnfoundedSets::unfounded`] (none true) are unfounded
    /// because the literals of [`UnfoundedSets::reason`] are true: each
    /// unassigned one is to be set false, with the clause `¬a ∨ ⋁ ¬reason`.
    Unfounded,
    /// As `Unfounded`, but this atom is true: the clause `¬atom ∨ ⋁
    /// ¬reason` is false.
    Conflict(Lit),
}

/// Counters of one search.
#[derive(Clone, Debug, Default)]
pub struct SearchStats {
    pub cyclic_atoms: usize,
    pub recursive_aggregates: usize,
    pub checks: u64,
    pub unfounded_propagations: u64,
    pub unfounded_conflicts: u64,
    pub conflicts: u64,
    pub decisions: u64,
}

const NOT_CYCLIC: u32 = u32::MAX;
const NO_SOURCE: u32 = u32::MAX;
const INACTIVE: u32 = u32::MAX;
const NOT_IN_GROUP: u32 = u32::MAX;
const NO_AGGREGATE: u32 = u32::MAX;

/// When a support body is false.
#[derive(Clone, Copy, Debug)]
enum BodyCond {
    /// The empty body: never.
    Never,
    /// A body with `a` and `not a`: always.
    Always,
    /// When this literal is false, or one of the body's literals is.
    Lit(Lit),
    /// Never simply false: the recursive aggregate of this index supports
    /// its atom by a count ([`UnfoundedSets::count_aggregate`]).
    Aggregate(u32),
}

/// When `body` is false, as an entry's condition; the literals whose truth
/// makes it false (its positive atoms negated, its negative atoms) into
/// `falsifiers`.
fn entry_condition(translation: &Translation, body: BodyId, falsifiers: &mut Vec<Lit>) -> BodyCond {
    match translation.body_cond(body) {
        Cond::True => BodyCond::Never,
        Cond::False => BodyCond::Always,
        Cond::Lit(l) => {
            let pos = translation.body_pos(body).iter();
            let neg = translation.body_neg(body).iter();
            falsifiers.extend(pos.map(|&p| !translation.atom_lit(p)));
            falsifiers.extend(neg.map(|&n| translation.atom_lit(n)));
            BodyCond::Lit(l)
        }
    }
}

/// A recursive aggregate as the support of its atom.
///
/// Only the parts that an atom of the aggregate's own component raises
/// (some element `Up` holds one) are read: the others hold in the
/// reduct's derivation exactly when they hold in the model, which the
/// completion's equivalence already requires. In a part read, an element
/// counts
/// - `Up`: when one of its condition bodies is not false and that body's
///   atoms of the component are founded (a positive dependency);
/// - `Down`: when a body is true (taken from the assignment, absent while
///   unknown, which only helps the part);
/// - `Both`: when a body is true; the part counts as holding while the
///   element's truth is unknown (no element's absence is then the safe
///   guess). Monotone recursive aggregates have such elements only off
///   the component.
///
/// That over-approximates the support on a partial assignment, and is
/// exact on a total one.
struct AggregateSupport {
    /// How the elements' weights make a part's value, and each weight.
    value: AggregateValue,
    weights: Vec<i64>,
    /// The parts read, each with its elements' directions.
    parts: Vec<((CmpOp, i64), Vec<Direction>)>,
    /// Per element: its condition bodies, as entries of their own (with no
    /// heads) from `first_entry` on (CSR offsets relative to it); whether
    /// it is `Up` in a part read.
    first_entry: u32,
    element_start: Vec<u32>,
    rising: Vec<bool>,
    /// Where its elements and parts begin in [`UnfoundedSets`]'s counts of
    /// a check's round (`element_round`, `part_counts`).
    first_element: u32,
    first_part: u32,
}

impl AggregateSupport {
    /// A part's value with `element` counted in, after `value` (`None`: no
    /// element counted yet).
    fn count_in(&self, value: Option<i64>, element: usize) -> i64 {
        let weight = self.weights[element];
        match self.value {
            AggregateValue::Sum => value.unwrap_or(0) + weight,
            AggregateValue::Max { .. } => value.map_or(weight, |m| m.max(weight)),
        }
    }

    /// The value of a part over the elements counted (`None`: none).
    fn value(&self, counted: Option<i64>) -> i64 {
        match self.value {
            AggregateValue::Sum => counted.unwrap_or(0),
            AggregateValue::Max { empty } => counted.unwrap_or(empty),
        }
    }

    fn element_entries(&self, element: usize) -> std::ops::Range<usize> {
        let first = self.first_entry as usize;
        first + self.element_start[element] as usize
            ..first + self.element_start[element + 1] as usize
    }
}

/// The positive dependency graph's cyclic part, a source pointer per atom,
/// and the unfounded set last found with its reason. It owns what it reads
/// of the translation, so that a backend can keep it for as long as its
/// search runs.
///
/// An atom's source is a support body, not false, whose positive atoms in
/// the atom's component have sources themselves, without cycles (clasp's
/// source pointers). A body made false takes the sources that point to it,
/// and those of every atom founded through them; only those atoms (the
/// "lost" ones) are founded anew, so a check costs what the assignment
/// changed rather than the size of the component. Backtracking only makes
/// bodies less false: the sources stay valid.
pub struct UnfoundedSets {
    /// The atoms on positive cycles, by component (Tarjan's order: a
    /// component depends only on components before it), as literals, and
    /// each one's component.
    cyclic: Vec<Lit>,
    component: Vec<u32>,
    /// An entry is a support body of some atom of a component, a recursive
    /// aggregate supporting its atom, or the condition body of such an
    /// aggregate's element (supporting no atom itself), with the atoms of
    /// that component it supports and its positive atoms in the component
    /// (both CSR), when it is false, and the literals whose truth makes it
    /// false (its positive atoms negated, its negative atoms; CSR).
    entry_cond: Vec<BodyCond>,
    head_start: Vec<usize>,
    heads: Vec<u32>,
    inside_start: Vec<usize>,
    inside: Vec<u32>,
    falsifier_start: Vec<usize>,
    falsifiers: Vec<Lit>,
    /// Per cyclic atom (CSR): its entries, and the entries of its component
    /// holding it positively.
    support_start: Vec<usize>,
    supports: Vec<u32>,
    occurrence_start: Vec<usize>,
    occurrences: Vec<u32>,
    /// Per literal (varisat's code, CSR): the entries it falsifies (or
    /// whose aggregate's support it may take).
    trigger_start: Vec<usize>,
    triggers: Vec<u32>,
    /// The recursive aggregates of the cyclic atoms.
    aggregates: Vec<AggregateSupport>,
    /// Per entry: the aggregate's entry whose element condition it is, or
    /// `NO_AGGREGATE`; whether it is a witness: it counted when that
    /// aggregate last founded its atom. A condition that is no witness
    /// cannot take the source: the witnesses still support the atom, over
    /// atoms founded before it (so the sources stay acyclic).
    element_of: Vec<u32>,
    witness: Vec<bool>,
    /// Per element condition entry: its element's index in its aggregate.
    element_index: Vec<u32>,
    /// The aggregates' counts in a check's round, so that an atom founded
    /// adds its element in once instead of the aggregate being counted
    /// again: per element, the round it was counted in as a rising one;
    /// per part, its value over the elements counted and whether an
    /// element that moves it both ways is unknown.
    element_round: Vec<u32>,
    part_counts: Vec<(Option<i64>, bool)>,
    /// Per cyclic atom: its source entry, or `NO_SOURCE`; whether it is
    /// lost (no source). `lost_list` holds the lost atoms not known false;
    /// `dropped` per decision level the lost atoms set aside because false
    /// at that level, taken back when it is undone.
    source: Vec<u32>,
    lost: Vec<bool>,
    lost_list: Vec<u32>,
    dropped: Vec<Vec<u32>>,
    /// How much of the trail the triggers were read from, and that length
    /// at each decision level's start.
    scanned: usize,
    scanned_at_level: Vec<usize>,
    /// The last unfounded set found (one component's), as atom literals,
    /// and its reason: true literals.
    group: Vec<Lit>,
    reason: Vec<Lit>,
    group_ends: Vec<usize>,
    reason_ends: Vec<usize>,
    pub stats: SearchStats,
    // Buffers reused across checks.
    missing: Vec<u32>,
    stamp: Vec<u32>,
    round: u32,
    queue: Vec<u32>,
    ready: Vec<u32>,
    /// The reason of the set being collected, before it joins `reason`.
    set_reason: Vec<Lit>,
    /// Per cyclic atom: its index in the group being split, or
    /// `NOT_IN_GROUP`; that group's edges (CSR).
    group_index: Vec<u32>,
    edge_start: Vec<usize>,
    edges: Vec<u32>,
}

impl UnfoundedSets {
    /// The check for the completion of `translation`, whose formula has
    /// `variables` variables.
    pub fn new(translation: &Translation, variables: usize) -> UnfoundedSets {
        let atoms = translation.atom_count();
        let components = translation.support_components();
        let on_cycle = |a: u32| components.on_cycle(translation, AtomId(a));
        let mut by_component: Vec<(u32, u32)> = (0..atoms as u32)
            .filter(|&a| on_cycle(a))
            .map(|a| (components.component[a as usize], a))
            .collect();
        by_component.sort_unstable();
        let mut local = vec![NOT_CYCLIC; atoms];
        for (i, &(_, a)) in by_component.iter().enumerate() {
            local[a as usize] = i as u32;
        }
        let cyclic: Vec<Lit> = (by_component.iter())
            .map(|&(_, a)| translation.atom_lit(AtomId(a)))
            .collect();
        let component: Vec<u32> = by_component.iter().map(|&(c, _)| c).collect();
        // Entries: (component, body) pairs with their heads in the component.
        let mut pairs: Vec<(u32, u32, u32)> = Vec::new();
        for (i, &(c, a)) in by_component.iter().enumerate() {
            for &body in translation.supports(AtomId(a)) {
                pairs.push((c, body.0, i as u32));
            }
        }
        pairs.sort_unstable();
        let mut entry_cond = Vec::new();
        let (mut head_pairs, mut inside_pairs, mut support_pairs) = (vec![], vec![], vec![]);
        let (mut occurrence_pairs, mut trigger_pairs) = (vec![], vec![]);
        let mut falsifier_start = vec![0];
        let mut falsifiers = Vec::new();
        for (k, &(c, body, head)) in pairs.iter().enumerate() {
            if k == 0 || (pairs[k - 1].0, pairs[k - 1].1) != (c, body) {
                let body = BodyId(body);
                let entry = entry_cond.len() as u32;
                for &p in translation.body_pos(body) {
                    let l = local[p.index()];
                    if l != NOT_CYCLIC && component[l as usize] == c {
                        inside_pairs.push((entry, l));
                        occurrence_pairs.push((l, entry));
                    }
                }
                let cond = entry_condition(translation, body, &mut falsifiers);
                if let BodyCond::Lit(l) = cond {
                    trigger_pairs.push(((!l).code() as u32, entry));
                }
                entry_cond.push(cond);
                falsifier_start.push(falsifiers.len());
            }
            let entry = entry_cond.len() as u32 - 1;
            head_pairs.push((entry, head));
            support_pairs.push((head, entry));
        }
        // The recursive aggregates: an entry each, then their elements'
        // condition bodies as entries without heads.
        let mut aggregates = Vec::new();
        let mut element_of = vec![NO_AGGREGATE; entry_cond.len()];
        let mut element_index = vec![0; entry_cond.len()];
        let (mut elements, mut part_count) = (0, 0);
        for (i, &(c, a)) in by_component.iter().enumerate() {
            let Some(aggregate) = translation.recursive_aggregate(AtomId(a)) else {
                continue;
            };
            let entry = entry_cond.len() as u32;
            entry_cond.push(BodyCond::Aggregate(aggregates.len() as u32));
            element_of.push(NO_AGGREGATE);
            element_index.push(0);
            falsifier_start.push(falsifiers.len());
            head_pairs.push((entry, i as u32));
            support_pairs.push((i as u32, entry));
            let in_component = |p: &AtomId| {
                let l = local[p.index()];
                (l != NOT_CYCLIC && component[l as usize] == c).then_some(l)
            };
            let parts: Vec<_> = (aggregate.parts.iter())
                .filter(|(_, directions)| {
                    (directions.iter().zip(&aggregate.conditions)).any(|(&d, bodies)| {
                        d == Direction::Up
                            && (bodies.iter()).any(|&b| {
                                translation
                                    .body_pos(b)
                                    .iter()
                                    .any(|p| in_component(p).is_some())
                            })
                    })
                })
                .cloned()
                .collect();
            let first_entry = entry_cond.len() as u32;
            let mut element_start = vec![0];
            let mut rising = Vec::new();
            for (e, bodies) in aggregate.conditions.iter().enumerate() {
                let directions = || parts.iter().map(move |(_, d)| d[e]);
                let rises = directions().any(|d| d == Direction::Up);
                let read_true =
                    directions().any(|d| matches!(d, Direction::Down | Direction::Both));
                let read_false = directions().any(|d| d == Direction::Both);
                rising.push(rises);
                for &body in bodies {
                    let body_entry = entry_cond.len() as u32;
                    for p in translation.body_pos(body) {
                        if let Some(l) = in_component(p) {
                            inside_pairs.push((body_entry, l));
                            if rises {
                                occurrence_pairs.push((l, body_entry));
                            }
                        }
                    }
                    let cond = entry_condition(translation, body, &mut falsifiers);
                    if let BodyCond::Lit(l) = cond {
                        if rises {
                            trigger_pairs.push(((!l).code() as u32, body_entry));
                        }
                        if read_false {
                            trigger_pairs.push(((!l).code() as u32, entry));
                        }
                        if read_true {
                            trigger_pairs.push((l.code() as u32, entry));
                        }
                    }
                    entry_cond.push(cond);
                    falsifier_start.push(falsifiers.len());
                    element_of.push(entry);
                    element_index.push(e as u32);
                }
                element_start.push(entry_cond.len() as u32 - first_entry);
            }
            let part_len = parts.len() as u32;
            aggregates.push(AggregateSupport {
                value: aggregate.definition.value,
                weights: (aggregate.definition.elements.iter())
                    .map(|e| e.value)
                    .collect(),
                parts,
                first_entry,
                element_start,
                first_element: elements,
                first_part: part_count,
                rising,
            });
            elements += aggregate.conditions.len() as u32;
            part_count += part_len;
        }
        occurrence_pairs.sort_unstable();
        occurrence_pairs.dedup();
        trigger_pairs.sort_unstable();
        trigger_pairs.dedup();
        let entries = entry_cond.len();
        let (head_start, heads) = csr(entries, &head_pairs);
        let (inside_start, inside) = csr(entries, &inside_pairs);
        let (support_start, supports) = csr(cyclic.len(), &support_pairs);
        let (occurrence_start, occurrences) = csr(cyclic.len(), &occurrence_pairs);
        let (trigger_start, triggers) = csr(2 * variables, &trigger_pairs);
        let stats = SearchStats {
            cyclic_atoms: cyclic.len(),
            recursive_aggregates: aggregates.len(),
            ..SearchStats::default()
        };
        UnfoundedSets {
            missing: vec![0; entries],
            stamp: vec![0; entries],
            round: 0,
            group_index: vec![NOT_IN_GROUP; cyclic.len()],
            edge_start: Vec::new(),
            edges: Vec::new(),
            source: vec![NO_SOURCE; cyclic.len()],
            lost: vec![true; cyclic.len()],
            lost_list: (0..cyclic.len() as u32).collect(),
            dropped: vec![Vec::new()],
            cyclic,
            component,
            entry_cond,
            head_start,
            heads,
            inside_start,
            inside,
            falsifier_start,
            falsifiers,
            support_start,
            supports,
            occurrence_start,
            occurrences,
            trigger_start,
            triggers,
            aggregates,
            witness: vec![false; element_of.len()],
            element_of,
            element_index,
            element_round: vec![0; elements as usize],
            part_counts: vec![(None, false); part_count as usize],
            scanned: 0,
            scanned_at_level: Vec::new(),
            group: Vec::new(),
            reason: Vec::new(),
            group_ends: Vec::new(),
            reason_ends: Vec::new(),
            stats,
            queue: Vec::new(),
            ready: Vec::new(),
            set_reason: Vec::new(),
        }
    }

    /// The variables whose values the check reads (the cyclic atoms, their
    /// support bodies and those bodies' atoms), sorted: a backend that
    /// reports only some variables must report these.
    pub fn variables(&self) -> Vec<Var> {
        let entries = self.entry_cond.iter().filter_map(|cond| match cond {
            BodyCond::Lit(l) => Some(l.var()),
            _ => None,
        });
        let mut vars: Vec<Var> = (self.cyclic.iter().map(|l| l.var()))
            .chain(entries)
            .chain(self.falsifiers.iter().map(|l| l.var()))
            .collect();
        vars.sort_unstable_by_key(|v| v.index());
        vars.dedup();
        vars
    }

    /// The number of decision levels above the root.
    pub fn levels(&self) -> usize {
        self.scanned_at_level.len()
    }

    /// A decision level begins.
    pub fn new_level(&mut self) {
        self.scanned_at_level.push(self.scanned);
        self.dropped.push(Vec::new());
    }

    /// The levels above `level` are undone.
    pub fn backtrack(&mut self, level: usize) {
        if level >= self.scanned_at_level.len() {
            return;
        }
        self.scanned = self.scanned.min(self.scanned_at_level[level]);
        self.scanned_at_level.truncate(level);
        for atoms in self.dropped.drain(level + 1..) {
            self.lost_list.extend(atoms);
        }
    }

    /// The unfounded sets of the last [`Verdict::Unfounded`], in the order
    /// to propagate them, or the one of the last [`Verdict::Conflict`]:
    /// each its atoms' literals and its reason, the literals whose truth
    /// makes it unfounded (true at once for the first set; the later ones'
    /// may be negations of earlier sets' atoms).
    pub fn unfounded_sets(&self) -> impl Iterator<Item = (&[Lit], &[Lit])> {
        (0..self.group_ends.len()).map(|k| {
            let atoms = k.checked_sub(1).map_or(0, |j| self.group_ends[j])..self.group_ends[k];
            let reason = k.checked_sub(1).map_or(0, |j| self.reason_ends[j])..self.reason_ends[k];
            (&self.group[atoms], &self.reason[reason])
        })
    }

    /// The true literal that makes `entry`'s body false, if it is false
    /// (`Some(None)`: false without any literal).
    fn falsifier(&self, values: &impl Assignment, entry: usize) -> Option<Option<Lit>> {
        match self.entry_cond[entry] {
            BodyCond::Always => Some(None),
            BodyCond::Never | BodyCond::Aggregate(_) => None,
            BodyCond::Lit(l) => {
                if values.value(l) == Some(false) {
                    return Some(Some(!l));
                }
                let lits =
                    &self.falsifiers[self.falsifier_start[entry]..self.falsifier_start[entry + 1]];
                lits.iter()
                    .find(|&&l| values.value(l) == Some(true))
                    .map(|&l| Some(l))
            }
        }
    }

    /// Takes the sources that the trail's new literals falsify, and those
    /// founded through them.
    fn read_trail(&mut self, values: &impl Assignment) {
        let end = values.trail_len();
        self.scanned = self.scanned.min(end);
        let first_lost = self.lost_list.len();
        for t in self.scanned..end {
            let i = values.trail(t).code();
            for k in self.trigger_start[i]..self.trigger_start[i + 1] {
                self.take_sources(self.triggers[k]);
            }
        }
        self.scanned = end;
        let mut next = first_lost;
        while next < self.lost_list.len() {
            let atom = self.lost_list[next] as usize;
            next += 1;
            for k in self.occurrence_start[atom]..self.occurrence_start[atom + 1] {
                self.take_sources(self.occurrences[k]);
            }
        }
    }

    /// Loses the atoms whose source is `entry`.
    fn take_sources(&mut self, entry: u32) {
        let (entry, e) = match self.element_of[entry as usize] {
            NO_AGGREGATE => (entry, entry as usize),
            _ if !self.witness[entry as usize] => return,
            aggregate => (aggregate, aggregate as usize),
        };
        for k in self.head_start[e]..self.head_start[e + 1] {
            let head = self.heads[k];
            if self.source[head as usize] == entry {
                self.source[head as usize] = NO_SOURCE;
                self.lost[head as usize] = true;
                self.lost_list.push(head);
            }
        }
    }

    /// Steps 1–3 of the module's description, on the lost atoms: new
    /// sources where there are, and the lowest component's rest as the
    /// unfounded set found.
    pub fn check(&mut self, values: &impl Assignment) -> Verdict {
        self.read_trail(values);
        if self.lost_list.is_empty() {
            return Verdict::Founded;
        }
        self.stats.checks += 1;
        // Lost atoms known false wait, per level, for it to be undone.
        let level = self.dropped.len() - 1;
        let mut candidates = std::mem::take(&mut self.lost_list);
        candidates.retain(|&i| {
            let lost = self.lost[i as usize];
            let keep = lost && values.value(self.cyclic[i as usize]) != Some(false);
            if !keep && lost {
                self.dropped[level].push(i);
            }
            keep
        });
        candidates.sort_unstable();
        candidates.dedup();
        self.round = self.round.wrapping_add(1).max(1);
        self.queue.clear();
        for &atom in &candidates {
            let a = atom as usize;
            for k in self.support_start[a]..self.support_start[a + 1] {
                let entry = self.supports[k] as usize;
                if self.stamp[entry] == self.round {
                    continue;
                }
                self.stamp[entry] = self.round;
                self.missing[entry] = if let BodyCond::Aggregate(k) = self.entry_cond[entry] {
                    // 1 while it does not support: its elements are counted
                    // in as their atoms are founded (`count_in`), not down.
                    u32::from(!self.count_aggregate(values, k as usize))
                } else if self.falsifier(values, entry).is_some() {
                    INACTIVE
                } else {
                    let inside =
                        &self.inside[self.inside_start[entry]..self.inside_start[entry + 1]];
                    inside.iter().filter(|&&p| self.lost[p as usize]).count() as u32
                };
                if self.missing[entry] == 0 {
                    self.ready.push(entry as u32);
                }
            }
        }
        // Only now: the counts above are of the atoms lost when the round began.
        while let Some(entry) = self.ready.pop() {
            self.found_through(values, entry as usize);
        }
        // In the order founded, as clasp's source queue is: the sources form
        // shallow trees, and a body made false takes fewer atoms with it
        // (knight_24x24: 250,000 atoms founded anew in a run, against
        // 307,000 taking the last founded first).
        let mut next = 0;
        while next < self.queue.len() {
            let a = self.queue[next] as usize;
            next += 1;
            for k in self.occurrence_start[a]..self.occurrence_start[a + 1] {
                let occurrence = self.occurrences[k] as usize;
                let entry = match self.element_of[occurrence] {
                    NO_AGGREGATE => occurrence,
                    aggregate => aggregate as usize,
                };
                if self.stamp[entry] != self.round || self.missing[entry] == INACTIVE {
                    continue;
                }
                if let BodyCond::Aggregate(k) = self.entry_cond[entry] {
                    if self.missing[entry] == 1 && self.count_in(values, k as usize, occurrence) {
                        self.missing[entry] = 0;
                        self.found_through(values, entry);
                    }
                } else {
                    self.missing[entry] -= 1;
                    if self.missing[entry] == 0 {
                        self.found_through(values, entry);
                    }
                }
            }
        }
        candidates.retain(|&i| self.lost[i as usize]);
        if candidates.is_empty() {
            return Verdict::Founded;
        }
        // Still sorted, so by component: the lowest's unfounded atoms first.
        let lowest = self.component[candidates[0] as usize];
        let end = candidates.partition_point(|&i| self.component[i as usize] == lowest);
        let verdict = self.unfounded_set(values, &candidates[..end]);
        self.lost_list = candidates;
        verdict
    }

    /// Gives the lost atoms that `entry` supports it as their source.
    fn found_through(&mut self, values: &impl Assignment, entry: usize) {
        for k in self.head_start[entry]..self.head_start[entry + 1] {
            let head = self.heads[k];
            let h = head as usize;
            if self.lost[h] && values.value(self.cyclic[h]) != Some(false) {
                self.lost[h] = false;
                self.source[h] = entry as u32;
                self.queue.push(head);
                if let BodyCond::Aggregate(k) = self.entry_cond[entry] {
                    self.count_witnesses(values, k as usize);
                }
            }
        }
    }

    /// Marks as witnesses the condition bodies of the `k`-th aggregate's
    /// rising elements that count as it founds its atom.
    fn count_witnesses(&mut self, values: &impl Assignment, k: usize) {
        let support = &self.aggregates[k];
        for element in 0..support.rising.len() {
            for body in support.element_entries(element) {
                self.witness[body] = support.rising[element] && self.founded_body(values, body);
            }
        }
    }

    /// Splits `group` (one component's unfounded atoms) into the smallest
    /// unfounded sets it holds, as clasp's loop nogoods are: the strongly
    /// connected components of "a body of `a`, not false, holds `p`
    /// positively" over the group, sinks first. A sink's reason is its
    /// false external bodies alone; a later set's may also name atoms of
    /// earlier sets, false once those are propagated. One set for the whole
    /// group gave every atom the external bodies of all, and the learned
    /// clauses drowned in them (fixtures/bench/ANALYSIS.md, "Non-tight
    /// cases").
    fn unfounded_set(&mut self, values: &impl Assignment, group: &[u32]) -> Verdict {
        for (k, &i) in group.iter().enumerate() {
            self.group_index[i as usize] = k as u32;
        }
        self.edge_start.clear();
        self.edge_start.push(0);
        let mut edges = std::mem::take(&mut self.edges);
        edges.clear();
        for &i in group {
            let a = i as usize;
            for k in self.support_start[a]..self.support_start[a + 1] {
                self.held_atoms(values, self.supports[k] as usize, &mut |p| {
                    let w = self.group_index[p as usize];
                    if w != NOT_IN_GROUP {
                        edges.push(w);
                    }
                });
            }
            self.edge_start.push(edges.len());
        }
        self.edges = edges;
        let sets = graph::tarjan(group.len(), &self.edge_start, &self.edges);
        let mut members: Vec<u32> = (0..group.len() as u32).collect();
        members.sort_by_key(|&k| sets.component[k as usize]);
        self.group.clear();
        self.group_ends.clear();
        self.reason.clear();
        self.reason_ends.clear();
        let mut verdict = Verdict::Unfounded;
        for set in
            members.chunk_by(|&x, &y| sets.component[x as usize] == sets.component[y as usize])
        {
            let independent = self.collect_reason(values, group, set, &sets.component);
            let conflict = (set.iter())
                .map(|&k| self.cyclic[group[k as usize] as usize])
                .find(|&atom| values.value(atom) == Some(true))
                .filter(|_| independent);
            if conflict.is_some() {
                // This set alone is the verdict: its reason holds now.
                self.group.clear();
                self.group_ends.clear();
                self.reason.clear();
                self.reason_ends.clear();
            }
            self.group
                .extend(set.iter().map(|&k| self.cyclic[group[k as usize] as usize]));
            self.group_ends.push(self.group.len());
            self.reason.extend_from_slice(&self.set_reason);
            self.reason_ends.push(self.reason.len());
            if let Some(atom) = conflict {
                self.stats.unfounded_conflicts += 1;
                verdict = Verdict::Conflict(atom);
                break;
            }
        }
        for &i in group {
            self.group_index[i as usize] = NOT_IN_GROUP;
        }
        verdict
    }

    /// Calls `each` with the atoms of the component that `entry` holds
    /// positively where it is not false (this check's verdict): a body's,
    /// or those of the bodies of an aggregate's rising elements.
    fn held_atoms(&self, values: &impl Assignment, entry: usize, each: &mut impl FnMut(u32)) {
        let inside = |e: usize| &self.inside[self.inside_start[e]..self.inside_start[e + 1]];
        if let BodyCond::Aggregate(k) = self.entry_cond[entry] {
            let support = &self.aggregates[k as usize];
            for element in (0..support.rising.len()).filter(|&e| support.rising[e]) {
                for body in support.element_entries(element) {
                    if self.falsifier(values, body).is_none() {
                        inside(body).iter().for_each(|&p| each(p));
                    }
                }
            }
        } else if !self.known_false(entry) {
            inside(entry).iter().for_each(|&p| each(p));
        }
    }

    /// Counts the `k`-th aggregate's elements for this round, as
    /// [`AggregateSupport`] says; whether the parts that its component
    /// raises hold with its rising elements' atoms of the component founded
    /// (not lost).
    fn count_aggregate(&mut self, values: &impl Assignment, k: usize) -> bool {
        let support = &self.aggregates[k];
        let (first_element, first_part) =
            (support.first_element as usize, support.first_part as usize);
        for e in 0..support.rising.len() {
            let founded = support.rising[e]
                && (support.element_entries(e)).any(|body| self.founded_body(values, body));
            self.element_round[first_element + e] = if founded { self.round } else { 0 };
        }
        for (part, (_, directions)) in support.parts.iter().enumerate() {
            let (mut value, mut unknown) = (None, false);
            for (e, direction) in directions.iter().enumerate() {
                let counts = match direction {
                    Direction::Up => self.element_round[first_element + e] == self.round,
                    Direction::Neither => false,
                    Direction::Down => self.element_truth(values, support, e) == Some(true),
                    Direction::Both => {
                        let truth = self.element_truth(values, support, e);
                        unknown |= truth.is_none();
                        truth == Some(true)
                    }
                };
                if counts {
                    value = Some(support.count_in(value, e));
                }
            }
            self.part_counts[first_part + part] = (value, unknown);
        }
        self.aggregate_holds(k)
    }

    /// Counts in, for this round, the element of the `k`-th aggregate whose
    /// condition is `body`, if it is not counted yet and `body` now
    /// supports it; whether the aggregate supports its atom now.
    fn count_in(&mut self, values: &impl Assignment, k: usize, body: usize) -> bool {
        let support = &self.aggregates[k];
        let e = self.element_index[body] as usize;
        let slot = support.first_element as usize + e;
        if self.element_round[slot] == self.round || !self.founded_body(values, body) {
            return false;
        }
        self.element_round[slot] = self.round;
        for (part, (_, directions)) in support.parts.iter().enumerate() {
            if directions[e] == Direction::Up {
                let count = &mut self.part_counts[support.first_part as usize + part];
                count.0 = Some(support.count_in(count.0, e));
            }
        }
        self.aggregate_holds(k)
    }

    /// Whether every part read of the `k`-th aggregate holds over its
    /// counts of this round.
    fn aggregate_holds(&self, k: usize) -> bool {
        (0..self.aggregates[k].parts.len()).all(|part| self.part_holds(k, part))
    }

    /// Whether the `part`-th part read of the `k`-th aggregate holds over
    /// its count of this round.
    fn part_holds(&self, k: usize, part: usize) -> bool {
        let support = &self.aggregates[k];
        let ((op, bound), _) = support.parts[part];
        let (value, unknown) = self.part_counts[support.first_part as usize + part];
        unknown || op.holds(support.value(value).cmp(&bound))
    }

    /// Whether an element's condition body `entry` is not false and its
    /// atoms of the component are founded.
    fn founded_body(&self, values: &impl Assignment, entry: usize) -> bool {
        self.falsifier(values, entry).is_none()
            && (self.inside[self.inside_start[entry]..self.inside_start[entry + 1]].iter())
                .all(|&p| !self.lost[p as usize])
    }

    /// The truth of an aggregate's element in the assignment: true when a
    /// condition body is, false when every one is false.
    fn element_truth(
        &self,
        values: &impl Assignment,
        support: &AggregateSupport,
        element: usize,
    ) -> Option<bool> {
        let mut bodies = support.element_entries(element);
        if bodies
            .clone()
            .any(|body| self.true_body(values, body).is_some())
        {
            Some(true)
        } else if bodies.all(|body| self.falsifier(values, body).is_some()) {
            Some(false)
        } else {
            None
        }
    }

    /// When `entry`'s body is true, the literal that makes it so (`None`
    /// inside: the empty body, true without any).
    fn true_body(&self, values: &impl Assignment, entry: usize) -> Option<Option<Lit>> {
        match self.entry_cond[entry] {
            BodyCond::Never => Some(None),
            BodyCond::Lit(l) if values.value(l) == Some(true) => Some(Some(l)),
            _ => None,
        }
    }

    /// Whether `entry`'s body was found false by this check (the entries of
    /// every candidate were looked at, and each false one marked
    /// `INACTIVE`): what [`UnfoundedSets::falsifier`] would say again.
    fn known_false(&self, entry: usize) -> bool {
        self.missing[entry] == INACTIVE
    }

    /// The reason of `set`'s unfoundedness (members by their index in
    /// `group`) into `self.set_reason`, sorted and without repeats: for
    /// each external body, a true literal falsifying it, or else the
    /// negation of an atom of an earlier set that it holds. Whether every
    /// literal is of the first kind (the reason holds already).
    fn collect_reason(
        &mut self,
        values: &impl Assignment,
        group: &[u32],
        set: &[u32],
        set_of: &[u32],
    ) -> bool {
        let mut reason = std::mem::take(&mut self.set_reason);
        reason.clear();
        let this = set_of[set[0] as usize];
        let set_index = |p: u32| {
            let w = self.group_index[p as usize];
            (w != NOT_IN_GROUP).then(|| set_of[w as usize])
        };
        let mut independent = true;
        for &member in set {
            let a = group[member as usize] as usize;
            for k in self.support_start[a]..self.support_start[a + 1] {
                let entry = self.supports[k] as usize;
                independent &= match self.entry_cond[entry] {
                    BodyCond::Aggregate(k) => {
                        self.aggregate_reason(values, k as usize, (&set_index, this), &mut reason)
                    }
                    _ => self.body_reason(values, entry, (&set_index, this), &mut reason),
                };
            }
        }
        reason.sort_unstable_by_key(|l| l.code());
        reason.dedup();
        self.set_reason = reason;
        independent
    }

    /// The reason of a set, `this` of those `set_index` gives the group's
    /// atoms, for `entry`'s body: none when it holds an atom of the set (it
    /// is not external); a true literal that makes it false; else the
    /// negation of the atom of an earlier set it holds (sinks come first),
    /// false once that set is propagated. Whether it holds already.
    fn body_reason(
        &self,
        values: &impl Assignment,
        entry: usize,
        (set_index, this): (&impl Fn(u32) -> Option<u32>, u32),
        reason: &mut Vec<Lit>,
    ) -> bool {
        let inside = &self.inside[self.inside_start[entry]..self.inside_start[entry + 1]];
        if inside.iter().any(|&p| set_index(p) == Some(this)) {
            return true;
        }
        if let Some(lit) = self.falsifier(values, entry) {
            reason.extend(lit);
            return true;
        }
        let earlier = (inside.iter())
            .find(|&&p| set_index(p).is_some_and(|s| s < this))
            .expect("an external body of an unfounded set is false or holds an earlier set's atom");
        reason.push(!self.cyclic[*earlier as usize]);
        false
    }

    /// The reason why the `k`-th aggregate does not support its atom, into
    /// `reason`: for the first part read that fails over this round's
    /// counts, the literals that leave out its absent rising elements (as
    /// [`Self::body_reason`] for their bodies not false) and that count its
    /// true elements that lower it. Whether it holds already.
    fn aggregate_reason(
        &self,
        values: &impl Assignment,
        k: usize,
        set: (&impl Fn(u32) -> Option<u32>, u32),
        reason: &mut Vec<Lit>,
    ) -> bool {
        let support = &self.aggregates[k];
        let first_element = support.first_element as usize;
        let part = (0..support.parts.len())
            .find(|&part| !self.part_holds(k, part))
            .expect("an unfounded aggregate atom's aggregate fails a part");
        let mut independent = true;
        let (_, ref directions) = support.parts[part];
        for (e, direction) in directions.iter().enumerate() {
            let truth = || self.element_truth(values, support, e);
            let counted = match direction {
                Direction::Neither => continue,
                Direction::Up if self.element_round[first_element + e] == self.round => continue,
                Direction::Up => false,
                Direction::Down if truth() != Some(true) => continue,
                Direction::Down | Direction::Both => truth() == Some(true),
            };
            for body in support.element_entries(e) {
                if !counted {
                    independent &= self.body_reason(values, body, set, reason);
                } else if let Some(lit) = self.true_body(values, body) {
                    reason.extend(lit);
                    break;
                }
            }
        }
        independent
    }
}

/// The tests' comparison of a backend's answer sets with the brute-force
/// checker's, shared by the backends.
#[cfg(all(test, any(feature = "batsat", feature = "cadical")))]
pub(crate) mod testing {
    use super::{SearchStats, Unsupported};
    use crate::ground::program::GroundProgram;
    use crate::testing::{
        Rng, random_program, random_program_with_aggregates,
        random_program_with_recursive_aggregates, stable_models,
    };

    /// A search with the check: up to N answer sets (0: all), each one
    /// value per atom.
    pub type Search<'a> =
        &'a dyn Fn(&GroundProgram, usize) -> Result<(Vec<Vec<bool>>, SearchStats), Unsupported>;

    /// The answer sets found, as bit sets over the atoms, against the
    /// brute-force checker's; the search's counters.
    fn compare(search: Search, program: &GroundProgram, round: usize) -> Option<SearchStats> {
        let (models, stats) = search(program, 0).ok()?;
        let mut found: Vec<u64> = (models.iter())
            .map(|m| (m.iter().enumerate()).fold(0, |acc, (a, &v)| acc | (u64::from(v) << a)))
            .collect();
        found.sort_unstable();
        let mut expected = stable_models(program);
        expected.sort_unstable();
        let mut text = Vec::new();
        crate::ground_text::write(&mut text, program).expect("writing into a Vec");
        let text = String::from_utf8(text).expect("symbols are UTF-8");
        assert_eq!(found, expected, "round {round}: {text}");
        Some(stats)
    }

    /// 20,000 random programs (with loops, choices and disjunctions):
    /// most compared, and in many the check propagated.
    pub fn random_programs(search: Search) {
        let least = (15000, 3000);
        campaign(search, (2027, 20000), least, false, |rng, round| {
            random_program(rng, 8, round % 2 == 1)
        });
    }

    /// 5,000 random programs with aggregates, none recursive.
    pub fn random_programs_with_aggregates(search: Search) {
        campaign(search, (2028, 5000), (4000, 700), false, |rng, _| {
            random_program_with_aggregates(rng, 7)
        });
    }

    /// 5,000 random programs with recursive aggregates (the non-monotone
    /// ones are refused): most compared, and in many the check propagated
    /// with an aggregate as a support.
    pub fn random_programs_with_recursive_aggregates(search: Search) {
        campaign(search, (2029, 5000), (2500, 500), true, |rng, _| {
            random_program_with_recursive_aggregates(rng, 6)
        });
    }

    /// Compares `rounds` programs of `generate` from `seed`; asserts that
    /// more than `least.0` were compared (not refused), and that in more
    /// than `least.1` the check propagated (with a recursive aggregate
    /// among its supports, when `with_aggregate`).
    fn campaign(
        search: Search,
        (seed, rounds): (u64, usize),
        least: (usize, usize),
        with_aggregate: bool,
        mut generate: impl FnMut(&mut Rng, usize) -> GroundProgram,
    ) {
        let mut rng = Rng::new(seed);
        let (mut compared, mut with_propagation) = (0, 0);
        for round in 0..rounds {
            let program = generate(&mut rng, round);
            if let Some(stats) = compare(search, &program, round) {
                compared += 1;
                with_propagation += usize::from(
                    stats.unfounded_propagations > 0
                        && (stats.recursive_aggregates > 0 || !with_aggregate),
                );
            }
        }
        assert!(
            compared > least.0 && with_propagation > least.1,
            "{compared} compared, {with_propagation} with propagation"
        );
    }
}

#[cfg(test)]
mod tests;
