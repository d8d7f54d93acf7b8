//! Weight constraints `g → Σ wᵢ·lᵢ ≥ k` propagated inside the search, as
//! clasp propagates its weight constraints and its minimize constraint
//! (Gebser, Kaufmann and Schaub, "Conflict-driven answer set solving: from
//! theory to practice", AIJ 187, 2012, section 6) instead of translating
//! them into clauses: the linear search of an optimization adds one bound
//! on the objective per better answer set, and each bound as a diagram of
//! clauses ([`crate::translate::bdd`]) costs the product of the objective's
//! size and its range (post_office_problem2: 336,000 clauses for a 147-atom
//! objective).
//!
//! Each constraint keeps the sum of the weights of its literals that are
//! not false (`max_sum`). With the guard `g` true (or no guard), every
//! unassigned literal whose weight exceeds the slack `max_sum − k` is
//! implied; with `max_sum < k`, `g` is false, or, with `g` true, the
//! assignment is a conflict. The reason of each is the clause of the
//! constraint's false literals, `¬g`, and the implied literal.
//!
//! A propagator is told only of the assignments to the variables it
//! observes, level by level; one it was not told of only weakens its
//! propagation (a false literal it missed counts as not false), and
//! [`Propagator::check_model`] reads the complete model, so every model it
//! approves satisfies every constraint whose guard it makes true.

use super::backend::Propagator;
use std::rc::Rc;
use varisat_formula::{Lit, Var};

/// One constraint: `guard → Σ weight·lit ≥ bound`, the terms by
/// decreasing weight, no variable twice.
struct Constraint {
    guard: Option<Lit>,
    terms: Vec<(Lit, u64)>,
    bound: u64,
    /// The sum of the weights of the terms not false, as far as told.
    max_sum: u64,
    retired: bool,
}

/// The weight constraints of one search, with the assignment they are told
/// of.
#[derive(Default)]
pub struct WeightConstraints {
    constraints: Vec<Constraint>,
    /// Per literal code: the constraints whose terms hold its negation, with
    /// the term's weight (the literal made true makes that term false).
    falsifies: Vec<Vec<(u32, u64)>>,
    /// Per literal code: the constraints this literal guards.
    guards: Vec<Vec<u32>>,
    /// Per variable: 1 true, -1 false, 0 unassigned (as far as told).
    values: Vec<i8>,
    trail: Vec<Lit>,
    level_start: Vec<usize>,
    /// Constraints whose `max_sum` fell or whose guard became true since
    /// they were last looked at.
    dirty: Vec<u32>,
    is_dirty: Vec<bool>,
    /// Literals found but not yet handed to the solver, from `next` on,
    /// each with its constraint.
    pending: Vec<(Lit, u32)>,
    next: usize,
    /// Per literal code: the reason of the literal when last propagated,
    /// or of a conflict on it (by literal, not variable: a conflict on `¬l`
    /// must leave the reason of `l`, which the solver may still ask for).
    reasons: Vec<Reason>,
    /// The clause refusing the last model checked, if it was refused.
    refusal: Option<Vec<Lit>>,
    /// Literals propagated and conflicts found, for the statistics.
    pub propagations: u64,
    pub conflicts: u64,
}

/// The reason clause of a literal propagated, or of a conflict on it.
#[derive(Clone, Default)]
enum Reason {
    /// None yet.
    #[default]
    None,
    /// The whole clause, that literal first.
    Clause(Vec<Lit>),
    /// The literal with these false ones: shared by every literal one look
    /// at a constraint implied (a count of 10,000 at its bound implies
    /// thousands at once, each over thousands of false terms).
    Implied(Rc<[Lit]>),
}

/// What adding a constraint amounts to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Added {
    /// It is propagated from now on.
    Propagated,
    /// It always holds: nothing was added.
    Trivial,
    /// It can never hold: its guard must be false (without a guard, there
    /// is no model).
    Unsatisfiable,
}

impl WeightConstraints {
    /// The variables every constraint over `terms` needs observed: those
    /// of its terms and its guard.
    pub fn variables(guard: Option<Lit>, terms: &[(Lit, u64)]) -> Vec<Var> {
        let mut vars: Vec<Var> = (terms.iter().map(|&(l, _)| l.var()))
            .chain(guard.map(|g| g.var()))
            .collect();
        vars.sort_unstable();
        vars.dedup();
        vars
    }

    /// Adds `guard → Σ weight·lit ≥ bound` (no guard: always). Equal
    /// variables are merged (`w₁·l + w₂·¬l = min + |w₁ − w₂|·…`), zero
    /// weights dropped. Between searches only: the solver must observe
    /// [`WeightConstraints::variables`] of it.
    pub fn add(&mut self, guard: Option<Lit>, terms: &[(Lit, u64)], bound: i64) -> Added {
        let (terms, bound) = normalized(terms, bound);
        let total: u64 = terms.iter().map(|&(_, w)| w).sum();
        if bound <= 0 {
            return Added::Trivial;
        }
        let bound = bound as u64;
        if total < bound {
            return Added::Unsatisfiable;
        }
        let index = self.constraints.len() as u32;
        let mut max_sum = total;
        for &(lit, weight) in &terms {
            self.ensure(lit.var());
            self.falsifies[(!lit).code()].push((index, weight));
            if self.value(lit) == Some(false) {
                max_sum -= weight;
            }
        }
        if let Some(guard) = guard {
            self.ensure(guard.var());
            self.guards[guard.code()].push(index);
        }
        self.constraints.push(Constraint {
            guard,
            terms,
            bound,
            max_sum,
            retired: false,
        });
        self.is_dirty.push(false);
        self.mark(index);
        Added::Propagated
    }

    /// Stops propagating the constraints guarded by `guard` (the caller
    /// makes it false for good).
    pub fn retire(&mut self, guard: Lit) {
        if guard.code() >= self.guards.len() {
            return;
        }
        for index in std::mem::take(&mut self.guards[guard.code()]) {
            let constraint = &mut self.constraints[index as usize];
            constraint.retired = true;
            for &(lit, _) in &constraint.terms {
                self.falsifies[(!lit).code()].retain(|&(c, _)| c != index);
            }
            constraint.terms = Vec::new();
        }
    }

    fn ensure(&mut self, var: Var) {
        let vars = var.index() + 1;
        if self.values.len() < vars {
            self.values.resize(vars, 0);
            self.reasons.resize(2 * vars, Reason::None);
            self.falsifies.resize(2 * vars, Vec::new());
            self.guards.resize(2 * vars, Vec::new());
        }
    }

    fn value(&self, lit: Lit) -> Option<bool> {
        match self.values.get(lit.index()).copied().unwrap_or(0) {
            0 => None,
            v => Some((v > 0) == lit.is_positive()),
        }
    }

    fn mark(&mut self, index: u32) {
        if !self.is_dirty[index as usize] {
            self.is_dirty[index as usize] = true;
            self.dirty.push(index);
        }
    }

    /// Looks at one constraint: its implied literals go into `pending`, or
    /// the false literal of a conflict is returned.
    fn examine(&mut self, index: u32) -> Option<Lit> {
        let constraint = &self.constraints[index as usize];
        if constraint.retired {
            return None;
        }
        let guard = match constraint.guard {
            Some(g) => self.value(g),
            None => Some(true),
        };
        let violated = constraint.max_sum < constraint.bound;
        if guard == Some(false) || (!violated && guard.is_none()) {
            return None;
        }
        let slack = constraint.max_sum.wrapping_sub(constraint.bound);
        // The terms are sorted by weight, heaviest first: only those
        // heavier than the slack can be implied, and the reason (every false
        // term, a pass over all of them) is built only when one is.
        let implied: Vec<Lit> = match violated {
            true => Vec::new(),
            false => (constraint.terms.iter())
                .take_while(|&&(_, w)| w > slack)
                .map(|&(l, _)| l)
                .filter(|&l| self.value(l).is_none())
                .collect(),
        };
        if !violated && implied.is_empty() {
            return None;
        }
        let mut reason: Vec<Lit> = constraint.guard.map(|g| !g).into_iter().collect();
        reason.extend(
            (constraint.terms.iter())
                .map(|&(l, _)| l)
                .filter(|&l| self.value(l) == Some(false)),
        );
        if violated {
            // `¬g` with the false terms: the guard to set false, or, with
            // the guard true, a false literal whose clause is all false.
            let lit = reason.first().copied()?;
            self.reasons[lit.code()] = Reason::Clause(reason);
            return Some(lit);
        }
        let reason: Rc<[Lit]> = reason.into();
        for lit in implied {
            self.reasons[lit.code()] = Reason::Implied(reason.clone());
            self.pending.push((lit, index));
        }
        None
    }
}

/// `terms` with each variable once and positive weights, and the bound
/// shifted by what merging a literal with its negation took out.
fn normalized(terms: &[(Lit, u64)], bound: i64) -> (Vec<(Lit, u64)>, i64) {
    let mut sorted: Vec<(Lit, u64)> = terms.iter().copied().filter(|&(_, w)| w > 0).collect();
    sorted.sort_unstable_by_key(|&(l, _)| l.code());
    let mut merged: Vec<(Lit, u64)> = Vec::with_capacity(sorted.len());
    let mut bound = bound;
    for (lit, weight) in sorted {
        match merged.last_mut() {
            Some((last, w)) if *last == lit => *w += weight,
            Some((last, w)) if *last == !lit => {
                // w·l + weight·¬l = min(w, weight) + the difference on one.
                let common = (*w).min(weight);
                bound -= common as i64;
                if *w >= weight {
                    *w -= common;
                } else {
                    *last = lit;
                    *w = weight - common;
                }
            }
            _ => merged.push((lit, weight)),
        }
    }
    merged.retain(|&(_, w)| w > 0);
    merged.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.code().cmp(&b.0.code())));
    (merged, bound)
}

impl Propagator for WeightConstraints {
    fn assigned(&mut self, lits: &[Lit]) {
        for &lit in lits {
            self.ensure(lit.var());
            if self.value(lit).is_some() {
                // Told again without a backtrack in between: counted once.
                continue;
            }
            self.values[lit.index()] = if lit.is_positive() { 1 } else { -1 };
            self.trail.push(lit);
            for i in 0..self.falsifies[lit.code()].len() {
                let (index, weight) = self.falsifies[lit.code()][i];
                self.constraints[index as usize].max_sum -= weight;
                self.mark(index);
            }
            for i in 0..self.guards[lit.code()].len() {
                let index = self.guards[lit.code()][i];
                self.mark(index);
            }
        }
    }

    fn new_level(&mut self) {
        self.level_start.push(self.trail.len());
    }

    fn backtrack(&mut self, level: usize) {
        if level < self.level_start.len() {
            for &lit in &self.trail[self.level_start[level]..] {
                self.values[lit.index()] = 0;
                for &(index, weight) in &self.falsifies[lit.code()] {
                    self.constraints[index as usize].max_sum += weight;
                }
            }
            self.trail.truncate(self.level_start[level]);
            self.level_start.truncate(level);
        }
        // The dirty constraints stay so (one added between searches is
        // looked at in the next, whose first act is a backtrack), and those
        // whose implied literals were not all handed over become so: what
        // they imply may hold below.
        for i in self.next..self.pending.len() {
            let index = self.pending[i].1;
            self.mark(index);
        }
        self.pending.clear();
        self.next = 0;
    }

    fn propagate(&mut self) -> Option<Lit> {
        loop {
            while let Some(&(lit, _)) = self.pending.get(self.next) {
                self.next += 1;
                match self.value(lit) {
                    Some(true) => {}
                    Some(false) => {
                        self.conflicts += 1;
                        return Some(lit);
                    }
                    None => {
                        self.propagations += 1;
                        return Some(lit);
                    }
                }
            }
            self.pending.clear();
            self.next = 0;
            let index = self.dirty.pop()?;
            self.is_dirty[index as usize] = false;
            if let Some(lit) = self.examine(index) {
                if self.value(lit) == Some(false) {
                    self.conflicts += 1;
                } else {
                    self.propagations += 1;
                }
                // Not looked at again until an assignment changes it: a
                // solver may ask again before it tells of this literal.
                return Some(lit);
            }
        }
    }

    fn reason(&mut self, lit: Lit, clause: &mut Vec<Lit>) {
        match &self.reasons[lit.code()] {
            Reason::None => {}
            Reason::Clause(reason) => clause.extend_from_slice(reason),
            Reason::Implied(false_lits) => {
                clause.push(lit);
                clause.extend_from_slice(false_lits);
            }
        }
    }

    fn check_model(&mut self, model: &[Lit]) -> bool {
        let mut values = vec![0i8; self.values.len()];
        for &lit in model {
            if let Some(value) = values.get_mut(lit.index()) {
                *value = if lit.is_positive() { 1 } else { -1 };
            }
        }
        let holds = |lit: Lit| values[lit.index()] == if lit.is_positive() { 1 } else { -1 };
        for constraint in self.constraints.iter().filter(|c| !c.retired) {
            if constraint.guard.is_some_and(|g| !holds(g)) {
                continue;
            }
            let sum: u64 = (constraint.terms.iter())
                .filter(|&&(l, _)| holds(l))
                .map(|&(_, w)| w)
                .sum();
            if sum < constraint.bound {
                let mut clause: Vec<Lit> = constraint.guard.map(|g| !g).into_iter().collect();
                clause.extend(
                    (constraint.terms.iter())
                        .map(|&(l, _)| l)
                        .filter(|&l| !holds(l)),
                );
                self.refusal = Some(clause);
                return false;
            }
        }
        true
    }

    fn clause(&mut self, clause: &mut Vec<Lit>) -> bool {
        super::backend::hand_over_refusal(&mut self.refusal, clause)
    }
}

// Only a backend with a hook into its search propagates.
#[cfg(all(test, any(feature = "batsat", feature = "cadical")))]
mod tests {
    use super::*;
    use crate::solve::SearchTuning;
    use crate::solve::backend::{Backend, SatResult, SatSolver, new_solver};
    use crate::solve::propagators::Propagators;
    use crate::testing::Rng;
    use std::cell::RefCell;
    use std::rc::Rc;

    const VARS: usize = 7;

    /// A constraint of the test: guard (an index into the guards), terms
    /// and bound.
    type Spec = (Option<usize>, Vec<(Lit, u64)>, i64);

    fn holds(spec: &Spec, model: u32, guards: &[bool]) -> bool {
        let (guard, terms, bound) = spec;
        if guard.is_some_and(|g| !guards[g]) {
            return true;
        }
        let value = |l: Lit| (model >> l.index() & 1 == 1) == l.is_positive();
        let sum: u64 = terms
            .iter()
            .filter(|&&(l, _)| value(l))
            .map(|&(_, w)| w)
            .sum();
        sum as i64 >= *bound
    }

    fn random_spec(rng: &mut Rng, guards: usize) -> Spec {
        let terms = (0..1 + rng.below(6))
            .map(|_| {
                let var = Var::from_index(rng.below(VARS));
                (Lit::from_var(var, rng.chance(60)), rng.below(6) as u64)
            })
            .collect::<Vec<_>>();
        let total: u64 = terms.iter().map(|&(_, w)| w).sum();
        let guard = (guards > 0 && rng.chance(50)).then(|| rng.below(guards));
        (guard, terms, rng.below(total as usize + 3) as i64 - 1)
    }

    /// The models over the first `VARS` variables of `clauses` and the
    /// constraints, with the guards as assumed.
    fn brute_force(clauses: &[Vec<Lit>], specs: &[Spec], guards: &[bool]) -> Vec<u32> {
        (0..1u32 << VARS)
            .filter(|&m| {
                clauses.iter().all(|c| {
                    c.iter()
                        .any(|l| (m >> l.index() & 1 == 1) == l.is_positive())
                })
            })
            .filter(|&m| specs.iter().all(|s| holds(s, m, guards)))
            .collect()
    }

    /// Every model, by blocking clauses under the guards' assumptions.
    fn models(solver: &mut dyn SatSolver, assumptions: &[Lit]) -> Vec<u32> {
        let block = solver.new_var().positive();
        let mut assumptions = assumptions.to_vec();
        assumptions.push(block);
        let mut found = Vec::new();
        while solver.solve(&assumptions) == SatResult::Satisfiable {
            let model = solver.model();
            let bits = (0..VARS).fold(0u32, |m, v| m | u32::from(model[v].is_positive()) << v);
            found.push(bits);
            let mut clause: Vec<Lit> = (0..VARS).map(|v| !model[v]).collect();
            clause.push(!block);
            solver.add_clause(&clause);
        }
        solver.add_clause(&[!block]);
        found.sort_unstable();
        found
    }

    /// Random clauses and weight constraints, some guarded, added between
    /// searches as the linear search adds its bounds: every backend that
    /// propagates finds exactly the models brute force does, under every
    /// assumption of the guards.
    #[test]
    fn weight_constraints_keep_exactly_the_models_that_satisfy_them() {
        let (mut compared, mut propagations) = (0, 0);
        for round in 0..600 {
            for &backend in Backend::ALL.iter().filter(|b| b.propagates()) {
                let mut rng = Rng::new(round);
                let mut solver = new_solver(backend, &SearchTuning::default());
                let vars: Vec<Var> = (0..VARS).map(|_| solver.new_var()).collect();
                let guard_vars: Vec<Var> = (0..2).map(|_| solver.new_var()).collect();
                let mut clauses = Vec::new();
                for _ in 0..rng.below(5) {
                    let clause: Vec<Lit> = (0..1 + rng.below(3))
                        .map(|_| Lit::from_var(rng.pick(&vars), rng.chance(50)))
                        .collect();
                    solver.add_clause(&clause);
                    clauses.push(clause);
                }
                let constraints = Rc::new(RefCell::new(WeightConstraints::default()));
                let mut propagators = Propagators::default();
                propagators.push(Box::new(constraints.clone()), &vars);
                let propagators = Rc::new(RefCell::new(propagators));
                let connected = solver.connect_propagator(Box::new(propagators.clone()), &vars);
                assert!(connected.is_ok());
                let mut specs: Vec<Spec> = Vec::new();
                for _ in 0..3 {
                    let spec = random_spec(&mut rng, guard_vars.len());
                    let guard = spec.0.map(|g| guard_vars[g].positive());
                    let observed = WeightConstraints::variables(guard, &spec.1);
                    propagators.borrow_mut().observe(0, &observed);
                    solver.observe(&observed);
                    let added = constraints.borrow_mut().add(guard, &spec.1, spec.2);
                    if added == Added::Unsatisfiable {
                        // The caller makes the guard false, or has no model.
                        solver.add_clause(&guard.map(|g| !g).into_iter().collect::<Vec<_>>());
                    }
                    specs.push(spec);
                    for assumed in 0..4u32 {
                        let guards = [assumed & 1 == 1, assumed & 2 == 2];
                        let assumptions: Vec<Lit> = (guard_vars.iter().zip(guards))
                            .map(|(v, g)| Lit::from_var(*v, g))
                            .collect();
                        let expected = brute_force(&clauses, &specs, &guards);
                        let found = models(&mut *solver, &assumptions);
                        assert_eq!(
                            found,
                            expected,
                            "{} round {round}: {specs:?} over {clauses:?} under {guards:?}",
                            backend.name()
                        );
                        compared += 1;
                        propagations += constraints.borrow().propagations;
                    }
                }
            }
        }
        let backends = Backend::ALL.iter().filter(|b| b.propagates()).count() as u64;
        assert_eq!(compared, 600 * 3 * 4 * backends);
        assert!(propagations > 1000, "{propagations} propagations");
    }
}
