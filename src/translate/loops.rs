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
//! 2. `U = M \ D` is unfounded, empty exactly when `M` is an answer set.
//! 3. For each strongly connected component `L` of the support graph of `M`
//!    restricted to `U` (edges only through bodies true in `M`) whose
//!    external bodies are all false in `M`,
//!    and each `a ∈ L`, the loop formula `¬a ∨ ⋁ external bodies of L`
//!    excludes `M`. Such a component always exists when `U` is non-empty
//!    (a bottom component of `U` qualifies).
//!
//! Both steps are linear in the size of the program: the fixpoint counts,
//! per body, the positive atoms not yet derived.
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

use crate::graph::prefix_sums;
use crate::ground::program::AtomId;
use varisat_formula::{ExtendFormula, Lit};

/// Indexes for the fixpoint: which atoms a body supports and which support
/// bodies contain an atom positively.
#[derive(Clone, Debug)]
pub(crate) struct LoopIndex {
    head_start: Vec<usize>,
    heads: Vec<u32>,
    occurrence_start: Vec<usize>,
    occurrences: Vec<u32>,
    /// Per atom (CSR): the recursive aggregates it can raise.
    trigger_start: Vec<usize>,
    triggers: Vec<u32>,
}

impl LoopIndex {
    pub(crate) fn new(translation: &Translation) -> LoopIndex {
        let atoms = translation.atom_count();
        let bodies = translation.body_count();
        let mut head_start = vec![0usize; bodies + 1];
        for &body in &translation.support_bodies {
            head_start[body.index() + 1] += 1;
        }
        prefix_sums(&mut head_start);
        let mut fill = head_start.clone();
        let mut heads = vec![0u32; head_start[bodies]];
        for atom in 0..atoms {
            for &body in translation.supports(AtomId(atom as u32)) {
                heads[fill[body.index()]] = atom as u32;
                fill[body.index()] += 1;
            }
        }
        let mut occurrence_start = vec![0usize; atoms + 1];
        let supporting = (0..bodies).filter(|&b| head_start[b] < head_start[b + 1]);
        for b in supporting.clone() {
            for &p in translation.body_pos(BodyId(b as u32)) {
                occurrence_start[p.index() + 1] += 1;
            }
        }
        prefix_sums(&mut occurrence_start);
        let mut fill = occurrence_start.clone();
        let mut occurrences = vec![0u32; occurrence_start[atoms]];
        for b in supporting {
            for &p in translation.body_pos(BodyId(b as u32)) {
                occurrences[fill[p.index()]] = b as u32;
                fill[p.index()] += 1;
            }
        }
        let mut raised: Vec<(u32, u32)> = Vec::new();
        for (i, aggregate) in translation.recursive_aggregates().iter().enumerate() {
            raised.extend(aggregate.rising_atoms(translation).map(|p| (p.0, i as u32)));
        }
        raised.sort_unstable();
        raised.dedup();
        let mut trigger_start = vec![0usize; atoms + 1];
        for &(atom, _) in &raised {
            trigger_start[atom as usize + 1] += 1;
        }
        prefix_sums(&mut trigger_start);
        LoopIndex {
            head_start,
            heads,
            occurrence_start,
            occurrences,
            trigger_start,
            triggers: raised.into_iter().map(|(_, i)| i).collect(),
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

/// The atoms true in `model` (one value per atom) that the reduct does not
/// derive, taking the atoms of components that are not head-cycle-free as
/// founded when true. `model` should be a model of the completion; the
/// result is empty exactly when no unfounded set lies outside those
/// components ([`super::minimality`] checks them).
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
    let mut missing = vec![INACTIVE; translation.body_count()];
    let mut derived = vec![false; model.len()];
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
    for (b, missing) in missing.iter_mut().enumerate() {
        let id = BodyId(b as u32);
        if index.heads(b).is_empty() || translation.body_neg(id).iter().any(|a| model[a.index()]) {
            continue;
        }
        let pos = translation.body_pos(id);
        *missing = pos.len() as u32;
        if pos.is_empty() {
            fire(b, &mut derived, &mut queue);
        }
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
    (0..model.len())
        .filter(|&a| model[a] && !derived[a])
        .map(|a| AtomId(a as u32))
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
    // Members of each component, by counting sort.
    let mut start = vec![0usize; components.count + 1];
    for &c in component {
        start[c as usize + 1] += 1;
    }
    prefix_sums(&mut start);
    let mut fill = start.clone();
    let mut members = vec![0u32; unfounded.len()];
    for (i, &c) in component.iter().enumerate() {
        members[fill[c as usize]] = i as u32;
        fill[c as usize] += 1;
    }

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
