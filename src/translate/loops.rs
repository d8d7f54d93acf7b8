//! Lazy loop formulas for non-tight programs (ASSAT: Lin and Zhao, "ASSAT:
//! computing answer sets of a logic program by SAT solvers", AIJ 2004;
//! Cmodels: Giunchiglia, Lierler and Maratea, JAR 2006).
//!
//! Given a model `M` of the completion:
//! 1. `D` = the least fixpoint of the reduct `P^M`: a support body fires
//!    when its negative part is false in `M` and its positive part is in
//!    `D`; it derives its head if the head is in `M` (for a normal rule the
//!    head is in `M` anyway, for a choice element this is the reduct's
//!    condition).
//!    Only the atoms on positive cycles are derived this way; a true atom
//!    on no cycle counts as derived from the start, since the completion
//!    supports it from below.
//! 2. `U = M \ D` is unfounded, empty exactly when `M` is an answer set.
//! 3. For each strongly connected component `L` of the support graph of `M`
//!    restricted to `U` (edges only through bodies true in `M`) whose
//!    external bodies are all false in `M`,
//!    and each `a ∈ L`, the loop formula `¬a ∨ ⋁ external bodies of L`
//!    excludes `M`. Such a component always exists when `U` is non-empty
//!    (a bottom component of `U` qualifies).
//!
//! Both steps are linear in the size of the program's cyclic part: the
//! fixpoint counts, per support body of an atom on a cycle, the positive
//! atoms not yet derived.
//!
//! An aggregate atom on a positive cycle ([`RecursiveAggregate`]) has no
//! support bodies: the fixpoint derives it when its aggregate holds over
//! the derived atoms (re-checked whenever one of its rising atoms is
//! derived), and a loop `L` containing it is supported from outside when
//! the aggregate holds with the atoms of `L` false, a condition defined by
//! new variables in the solver.

use super::aggregates::RecursiveAggregate;
use super::gates::Gates;
use super::{BodyId, Cond, Translation, normalize_clause};

use crate::graph::csr;
use crate::ground::program::AtomId;
use varisat_formula::{ExtendFormula, Lit};

/// Indexes for the fixpoint, over the atoms on a positive cycle and the
/// support bodies of those atoms alone: an atom on no cycle is founded in a
/// model of the completion as soon as the atoms below it are, so the lowest
/// unfounded atoms are always on a cycle.
#[derive(Clone, Debug)]
pub(crate) struct LoopIndex {
    /// The atoms on a positive cycle, in increasing order.
    cyclic: Vec<u32>,
    /// The support bodies of those atoms; a body is named by its position
    /// here below.
    bodies: Vec<BodyId>,
    /// Per body (CSR): the atoms on a cycle it supports.
    head_start: Vec<usize>,
    heads: Vec<u32>,
    /// Per atom (CSR, empty off the cycles): the bodies holding it
    /// positively.
    occurrence_start: Vec<usize>,
    occurrences: Vec<u32>,
    /// Per atom (CSR): the recursive aggregates it can raise.
    trigger_start: Vec<usize>,
    triggers: Vec<u32>,
}

impl LoopIndex {
    pub(crate) fn new(translation: &Translation) -> LoopIndex {
        let atoms = translation.atom_count();
        let components = translation.support_components();
        let cyclic: Vec<u32> = (0..atoms as u32)
            .filter(|&a| components.on_cycle(translation, AtomId(a)))
            .collect();
        let mut supports: Vec<(BodyId, u32)> = (cyclic.iter())
            .flat_map(|&a| translation.supports(AtomId(a)).iter().map(move |&b| (b, a)))
            .collect();
        supports.sort_unstable();
        let mut bodies: Vec<BodyId> = supports.iter().map(|&(b, _)| b).collect();
        bodies.dedup();
        let position = |body: BodyId| bodies.binary_search(&body).expect("listed") as u32;
        let head_pairs: Vec<(u32, u32)> = (supports.iter())
            .map(|&(body, atom)| (position(body), atom))
            .collect();
        let (head_start, heads) = csr(bodies.len(), &head_pairs);
        let mut on_cycle = vec![false; atoms];
        for &a in &cyclic {
            on_cycle[a as usize] = true;
        }
        let mut occurrence_pairs: Vec<(u32, u32)> = Vec::new();
        for (i, &body) in bodies.iter().enumerate() {
            let pos = translation.body_pos(body).iter();
            occurrence_pairs.extend(pos.filter(|p| on_cycle[p.index()]).map(|p| (p.0, i as u32)));
        }
        let (occurrence_start, occurrences) = csr(atoms, &occurrence_pairs);
        let mut raised: Vec<(u32, u32)> = Vec::new();
        for (i, aggregate) in translation.recursive_aggregates().iter().enumerate() {
            raised.extend(aggregate.rising_atoms(translation).map(|p| (p.0, i as u32)));
        }
        raised.sort_unstable();
        raised.dedup();
        let (trigger_start, triggers) = csr(atoms, &raised);
        LoopIndex {
            cyclic,
            bodies,
            head_start,
            heads,
            occurrence_start,
            occurrences,
            trigger_start,
            triggers,
        }
    }

    fn triggers(&self, atom: usize) -> &[u32] {
        &self.triggers[self.trigger_start[atom]..self.trigger_start[atom + 1]]
    }

    fn heads(&self, body: usize) -> &[u32] {
        &self.heads[self.head_start[body]..self.head_start[body + 1]]
    }

    fn occurrences(&self, atom: usize) -> &[u32] {
        &self.occurrences[self.occurrence_start[atom]..self.occurrence_start[atom + 1]]
    }
}

/// The atoms on a positive cycle true in `model` (one value per atom) that
/// the reduct does not derive, with the true atoms on no cycle taken as
/// derived and the atoms of components that are not head-cycle-free as
/// founded when true. `model` should be a model of the completion; the
/// result is an unfounded set, empty exactly when no unfounded set lies
/// outside those components ([`super::minimality`] checks them): the
/// lowest unfounded atom is on a cycle, as the completion supports every
/// other true atom from below.
pub fn unfounded_atoms(translation: &Translation, model: &[bool]) -> Vec<AtomId> {
    assert_eq!(model.len(), translation.atom_count());
    let built;
    let index = match &translation.loop_index {
        Some(index) => index,
        None => {
            built = LoopIndex::new(translation);
            &built
        }
    };
    const INACTIVE: u32 = u32::MAX;
    let mut derived = model.to_vec();
    for &a in &index.cyclic {
        derived[a as usize] = false;
    }
    let mut missing = vec![INACTIVE; index.bodies.len()];
    let mut queue: Vec<u32> = Vec::new();
    let fire = |body: usize, derived: &mut Vec<bool>, queue: &mut Vec<u32>| {
        for &head in index.heads(body) {
            let h = head as usize;
            if model[h] && !derived[h] {
                derived[h] = true;
                queue.push(head);
            }
        }
    };
    let aggregates = translation.recursive_aggregates();
    let check = |aggregate: &RecursiveAggregate, derived: &mut Vec<bool>, queue: &mut Vec<u32>| {
        let a = aggregate.atom().index();
        if model[a] && !derived[a] && aggregate.holds(translation, model, |p| derived[p.index()]) {
            derived[a] = true;
            queue.push(a as u32);
        }
    };
    // Counted before any body fires: each atom derived from here on is
    // taken off the counts once, from the queue.
    for (missing, &body) in missing.iter_mut().zip(&index.bodies) {
        if !translation.body_neg(body).iter().any(|a| model[a.index()]) {
            let pos = translation.body_pos(body).iter();
            *missing = pos.filter(|p| !derived[p.index()]).count() as u32;
        }
    }
    let ready = missing.iter().enumerate().filter(|&(_, &count)| count == 0);
    for (b, _) in ready {
        fire(b, &mut derived, &mut queue);
    }
    for aggregate in aggregates {
        check(aggregate, &mut derived, &mut queue);
    }
    // The atoms of components that are not head-cycle-free are founded here
    // when true: the minimality check decides them.
    for atom in translation.minimality().atoms() {
        let a = atom.index();
        if model[a] && !derived[a] {
            derived[a] = true;
            queue.push(atom.0);
        }
    }
    while let Some(atom) = queue.pop() {
        for &i in index.triggers(atom as usize) {
            check(&aggregates[i as usize], &mut derived, &mut queue);
        }
        for &b in index.occurrences(atom as usize) {
            let b = b as usize;
            if missing[b] != INACTIVE {
                missing[b] -= 1;
                if missing[b] == 0 {
                    fire(b, &mut derived, &mut queue);
                }
            }
        }
    }
    (index.cyclic.iter())
        .filter(|&&a| model[a as usize] && !derived[a as usize])
        .map(|&a| AtomId(a))
        .collect()
}

/// The loop-formula clauses that `model` (one value per atom, a model of the
/// completion) violates; empty exactly when it is an answer set. The
/// conditions under which recursive aggregates support a loop from outside
/// are defined by new variables in `definitions` (the solver the clauses
/// are for).
pub fn loop_formulas<S: ExtendFormula>(
    translation: &Translation,
    model: &[bool],
    definitions: &mut S,
) -> Vec<Vec<Lit>> {
    let unfounded = unfounded_atoms(translation, model);
    if unfounded.is_empty() {
        return Vec::new();
    }
    const OUTSIDE: u32 = u32::MAX;
    let mut local = vec![OUTSIDE; model.len()];
    for (i, atom) in unfounded.iter().enumerate() {
        local[atom.index()] = i as u32;
    }
    let body_true = |body: BodyId| translation.body_holds(body, model);
    // How M supports U: edges from an atom to the unfounded atoms in its
    // true support bodies. Its components are the separate cycles of M
    // (several subtours of a Hamiltonian cycle, say); each gets its own
    // loop formula, where components of the whole dependency graph would
    // merge them into one weak formula and take many more rounds.
    let mut offsets = Vec::with_capacity(unfounded.len() + 1);
    let mut targets = Vec::new();
    offsets.push(0);
    for &atom in &unfounded {
        let successors = |body: BodyId, targets: &mut Vec<u32>| {
            if body_true(body) {
                for p in translation.body_pos(body) {
                    if local[p.index()] != OUTSIDE {
                        targets.push(local[p.index()]);
                    }
                }
            }
        };
        for &body in translation.supports(atom) {
            successors(body, &mut targets);
        }
        if let Some(aggregate) = translation.recursive_aggregate(atom) {
            for (bodies, rises) in aggregate.conditions.iter().zip(aggregate.element_rises()) {
                if rises {
                    bodies.iter().for_each(|&b| successors(b, &mut targets));
                }
            }
        }
        offsets.push(targets.len());
    }
    let components = crate::graph::tarjan(unfounded.len(), &offsets, &targets);
    let component = &components.component;
    // Members of each component.
    let by_component: Vec<(u32, u32)> = (component.iter().enumerate())
        .map(|(i, &c)| (c, i as u32))
        .collect();
    let (start, members) = csr(components.count, &by_component);

    let mut clauses = Vec::new();
    let mut external: Vec<BodyId> = Vec::new();
    let mut aggregates: Vec<&RecursiveAggregate> = Vec::new();
    for c in 0..components.count {
        let loop_atoms = &members[start[c]..start[c + 1]];
        let inside = |p: AtomId| {
            let i = local[p.index()];
            i != OUTSIDE && component[i as usize] == c as u32
        };
        external.clear();
        aggregates.clear();
        for &i in loop_atoms {
            let atom = unfounded[i as usize];
            for &body in translation.supports(atom) {
                if !translation.body_pos(body).iter().any(|&p| inside(p)) {
                    external.push(body);
                }
            }
            aggregates.extend(translation.recursive_aggregate(atom));
        }
        external.sort_unstable();
        external.dedup();
        let supported_from_outside = |aggregate: &&RecursiveAggregate| {
            aggregate.holds(translation, model, |p| model[p.index()] && !inside(p))
        };
        if external.iter().any(|&body| body_true(body))
            || aggregates.iter().any(supported_from_outside)
        {
            continue;
        }
        let mut disjunction: Vec<Lit> = external
            .iter()
            .filter_map(|&body| translation.body_cond(body).lit())
            .collect();
        let mut gates = Gates { sink: definitions };
        for aggregate in &aggregates {
            let outside = |p: AtomId, _: &mut Gates<S>| {
                if inside(p) { Cond::False } else { Cond::True }
            };
            match aggregate.restricted(translation, &mut gates, outside) {
                Cond::False => {}
                Cond::Lit(l) => disjunction.push(l),
                Cond::True => unreachable!("false in the model, so not a constant true"),
            }
        }
        for &i in loop_atoms {
            let mut clause = Vec::with_capacity(disjunction.len() + 1);
            clause.push(!translation.atom_lit(unfounded[i as usize]));
            clause.extend(&disjunction);
            if normalize_clause(&mut clause) {
                clauses.push(clause);
            }
        }
    }
    clauses
}
