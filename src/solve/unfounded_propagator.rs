//! The unfounded-set check of [`crate::solve::unfounded_sets`] as a
//! [`Propagator`] of the solver seam: the solver searches the completion
//! and, at each propagation fixpoint, the atoms on positive cycles that no
//! body still undecided or true can found are set false, each with the
//! loop formula of its unfounded set as the reason (clasp's source
//! pointers). The enumerator connects it for non-tight programs
//! ([`crate::solve::Enumerator`]); [`answer_sets`] is the measurement of
//! the check alone (the `unfounded_search` example).
//!
//! A propagator cannot read the solver's assignment: it is told of the
//! assignments to the variables it observes (those the check reads,
//! [`UnfoundedSets::variables`]) and keeps its own trail, undone level by
//! level as the solver backtracks. A solver tells again of the literals it
//! keeps across a backtrack (CaDiCaL's chronological backtracking), so the
//! trail is always the solver's restricted to these variables.

use super::backend::{Backend, Propagator, SatResult, new_solver};
use super::propagators::LevelTrail;
use crate::ground::program::{AtomId, GroundProgram};
use crate::solve::SearchTuning;
use crate::solve::unfounded_sets::{
    Assignment, SearchStats, UnfoundedSets, Unsupported, Verdict, blocking_clause, completion,
};
use std::cell::RefCell;
use std::rc::Rc;
use varisat_formula::Lit;

/// The observed variables' values and trail, as the check reads them.
struct View<'a> {
    values: &'a [i8],
    trail: &'a [Lit],
}

impl Assignment for View<'_> {
    fn value(&self, lit: Lit) -> Option<bool> {
        match self.values[lit.index()] {
            0 => None,
            v => Some((v > 0) == lit.is_positive()),
        }
    }

    fn trail_len(&self) -> usize {
        self.trail.len()
    }

    fn trail(&self, index: usize) -> Lit {
        self.trail[index]
    }
}

/// The check and the assignment it is told of.
pub struct UnfoundedPropagator {
    sets: UnfoundedSets,
    /// Per variable: 1 true, -1 false, 0 unassigned (as far as told).
    values: Vec<i8>,
    trail: LevelTrail,
    /// Literals found but not yet handed to the solver (the negated atoms
    /// of the last unfounded set), from `next` on.
    pending: Vec<Lit>,
    next: usize,
    /// Per variable: in `pending`. Equivalent atoms share a variable
    /// (`translate::aliases`), and an unfounded set may hold several of
    /// them, or a later set one of an earlier set's: the variable is
    /// propagated once, with the first set's reason (a later set's names
    /// the earlier atoms false, the variable itself among them).
    queued: Vec<bool>,
    /// Per variable: the true literals that implied the literal last
    /// propagated on it.
    reasons: Vec<Vec<Lit>>,
    /// The clause refusing the last model checked, if it was refused.
    refusal: Option<Vec<Lit>>,
}

impl UnfoundedPropagator {
    pub fn new(sets: UnfoundedSets, variables: usize) -> UnfoundedPropagator {
        UnfoundedPropagator {
            sets,
            values: vec![0; variables],
            trail: LevelTrail::default(),
            pending: Vec::new(),
            next: 0,
            queued: vec![false; variables],
            reasons: vec![Vec::new(); variables],
            refusal: None,
        }
    }

    pub fn stats(&self) -> &SearchStats {
        &self.sets.stats
    }

    fn value(&self, lit: Lit) -> Option<bool> {
        View {
            values: &self.values,
            trail: self.trail.lits(),
        }
        .value(lit)
    }

    fn clear_pending(&mut self) {
        for lit in self.pending.drain(..) {
            self.queued[lit.index()] = false;
        }
        self.next = 0;
    }

    /// Runs the check; the negated atoms to propagate go into `pending`,
    /// each with its reason, or the literal of a conflict is returned.
    fn check(&mut self) -> Option<Lit> {
        self.clear_pending();
        let view = View {
            values: &self.values,
            trail: self.trail.lits(),
        };
        let verdict = self.sets.check(&view);
        match verdict {
            Verdict::Founded => None,
            Verdict::Conflict(atom) => {
                let (_, reason) = (self.sets.unfounded_sets().next()).expect("a conflict's set");
                self.reasons[atom.index()].clear();
                self.reasons[atom.index()].extend_from_slice(reason);
                Some(!atom)
            }
            Verdict::Unfounded => {
                for (atoms, reason) in self.sets.unfounded_sets() {
                    for &atom in atoms {
                        if view.value(atom).is_none() && !self.queued[atom.index()] {
                            self.queued[atom.index()] = true;
                            self.reasons[atom.index()].clear();
                            self.reasons[atom.index()].extend_from_slice(reason);
                            self.pending.push(!atom);
                        }
                    }
                }
                None
            }
        }
    }
}

impl Propagator for UnfoundedPropagator {
    fn assigned(&mut self, lits: &[Lit]) {
        for &lit in lits {
            self.values[lit.index()] = if lit.is_positive() { 1 } else { -1 };
        }
        self.trail.assigned(lits);
    }

    fn new_level(&mut self) {
        self.trail.new_level();
        self.sets.new_level();
    }

    fn backtrack(&mut self, level: usize) {
        let values = &mut self.values;
        (self.trail).backtrack(level, |lit| values[lit.index()] = 0);
        self.sets.backtrack(level);
        self.clear_pending();
    }

    fn propagate(&mut self) -> Option<Lit> {
        loop {
            while let Some(&lit) = self.pending.get(self.next) {
                self.next += 1;
                // Its reason still holds unless the solver went back
                // without telling; it may have been set since.
                let reason = &self.reasons[lit.index()];
                if self.value(lit).is_none() && reason.iter().all(|&r| self.value(r) == Some(true))
                {
                    self.sets.stats.unfounded_propagations += 1;
                    return Some(lit);
                }
            }
            if let Some(conflict) = self.check() {
                return Some(conflict);
            }
            if self.pending.is_empty() {
                return None;
            }
        }
    }

    fn reason(&mut self, lit: Lit, clause: &mut Vec<Lit>) {
        clause.push(lit);
        clause.extend(self.reasons[lit.index()].iter().map(|&r| !r));
    }

    fn check_model(&mut self, _model: &[Lit]) -> bool {
        // The trail is complete: CaDiCaL tells of every assignment first.
        let conflict = self.check().or_else(|| self.pending.first().copied());
        self.clear_pending();
        match conflict {
            None => true,
            Some(lit) => {
                let mut clause = vec![lit];
                clause.extend(self.reasons[lit.index()].iter().map(|&r| !r));
                self.refusal = Some(clause);
                false
            }
        }
    }

    fn clause(&mut self, clause: &mut Vec<Lit>) -> bool {
        super::backend::hand_over_refusal(&mut self.refusal, clause)
    }
}

/// Up to `max_models` answer sets (0: all), each as one value per atom, by
/// `backend` with the check inside its search, enumerated by blocking
/// clauses over the atoms.
pub fn answer_sets(
    program: &GroundProgram,
    max_models: usize,
    backend: Backend,
) -> Result<(Vec<Vec<bool>>, SearchStats), Unsupported> {
    let (formula, translation) = completion(program)?;
    let variables = formula.var_count();
    let mut solver = new_solver(backend, &SearchTuning::default());
    for _ in 0..variables {
        solver.new_var();
    }
    for clause in formula.iter() {
        solver.add_clause(clause);
    }
    let sets = UnfoundedSets::new(&translation, variables);
    let observed = sets.variables();
    let propagator = Rc::new(RefCell::new(UnfoundedPropagator::new(sets, variables)));
    if !observed.is_empty()
        && solver
            .connect_propagator(Box::new(propagator.clone()), &observed)
            .is_err()
    {
        return Err(Unsupported("the backend takes no propagator"));
    }
    let mut found = Vec::new();
    while (max_models == 0 || found.len() < max_models)
        && solver.solve(&[]) == SatResult::Satisfiable
    {
        let values = solver.model();
        let model: Vec<bool> = (0..translation.atom_count())
            .map(|a| {
                let lit = translation.atom_lit(AtomId(a as u32));
                values[lit.index()] == lit
            })
            .collect();
        let clause = blocking_clause(&translation, &model);
        found.push(model);
        if clause.is_empty() {
            break;
        }
        solver.add_clause(&clause);
    }
    let stats = propagator.borrow().stats().clone();
    Ok((found, stats))
}

// Only a backend with a hook into its search takes the propagator.
#[cfg(all(test, any(feature = "batsat", feature = "cadical")))]
mod tests {
    use super::UnfoundedPropagator;
    use super::answer_sets;
    use crate::solve::backend::Backend;
    use crate::solve::backend::Propagator;
    use crate::solve::unfounded_sets::testing::{
        random_programs, random_programs_with_aggregates, random_programs_with_recursive_aggregates,
    };
    use crate::solve::unfounded_sets::{UnfoundedSets, completion};
    use crate::testing::{atom_named, parse};

    /// The answer sets of random programs (with loops, choices and
    /// disjunctions) against the brute-force checker's, on every backend
    /// that takes a propagator.
    #[test]
    fn unfounded_check_matches_brute_force() {
        for &backend in Backend::ALL.iter().filter(|b| b.propagates()) {
            random_programs(&|program, n| answer_sets(program, n, backend));
        }
    }

    /// `e` shares `a`'s variable (its only rule is `e :- a.`), and `a`
    /// rests on `e` through a choice's condition. With `c` false, `{a, e}`
    /// is unfounded and splits in two, `{a}` first: `{e}`'s reason names
    /// `a` false, the shared variable itself. It is propagated once, with
    /// `{a}`'s reason; before, `{e}`'s replaced it, never held, and the
    /// check was asked again for ever.
    #[test]
    fn equivalent_atoms_of_an_unfounded_set_are_propagated_once() {
        let mut program = parse("{a : d; a : e; c; f} :- c. e :- a.");
        let (formula, translation) = completion(&program).expect("a normal program");
        let mut lit = |name| translation.atom_lit(atom_named(&mut program, name));
        let [a, c, e] = ["a", "c", "e"].map(&mut lit);
        assert_eq!(a, e);
        let sets = UnfoundedSets::new(&translation, formula.var_count());
        let mut propagator = UnfoundedPropagator::new(sets, formula.var_count());
        propagator.assigned(&[!c]);
        assert_eq!(propagator.propagate(), Some(!a));
        let mut clause = Vec::new();
        propagator.reason(!a, &mut clause);
        assert_eq!(clause, [!a, c]);
        propagator.assigned(&[!a]);
        assert_eq!(propagator.propagate(), None);
    }

    /// The same with aggregates, none recursive.
    #[test]
    fn unfounded_check_matches_brute_force_with_aggregates() {
        for &backend in Backend::ALL.iter().filter(|b| b.propagates()) {
            random_programs_with_aggregates(&|program, n| answer_sets(program, n, backend));
        }
    }

    /// The same with recursive aggregates, supports of their atoms.
    #[test]
    fn unfounded_check_matches_brute_force_with_recursive_aggregates() {
        for &backend in Backend::ALL.iter().filter(|b| b.propagates()) {
            random_programs_with_recursive_aggregates(&|program, n| {
                answer_sets(program, n, backend)
            });
        }
    }
}
