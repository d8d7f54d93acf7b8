//! [`SatSolver`] over CaDiCaL (Armin Biere's CDCL solver, C++), cargo
//! feature `cadical`, through the `cadical-sys` crate, which builds the
//! CaDiCaL 3 source it bundles (a C++11 compiler is needed) and binds its
//! C++ API with `cxx`. The crate's API is CaDiCaL's one to one (DIMACS
//! integers, IPASIR-UP's callbacks); this wrapper takes varisat-formula's
//! [`Lit`] (variable index `i` is CaDiCaL's `i + 1`), keeps the last model
//! and failed assumptions, stops on an interrupt flag, and connects a
//! [`Propagator`] of the caller's inside the search (IPASIR-UP), which
//! only this backend has.

use super::{Propagator, SatResult, SatSolver};
use crate::solve::SearchTuning;
use cadical_sys::{CaDiCal, ExternalPropagator, Status, Terminator};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use varisat_formula::{CnfFormula, Lit, Var};

fn to_cadical(lit: Lit) -> i32 {
    lit.to_dimacs() as i32
}

fn from_cadical(lit: i32) -> Lit {
    Lit::from_dimacs(lit as isize)
}

/// The terminate callback: CaDiCaL polls it during the search.
struct Flag(Arc<AtomicBool>);

impl Terminator for Flag {
    fn terminated(&mut self) -> bool {
        self.0.load(Ordering::Relaxed)
    }
}

/// A CaDiCaL solver over varisat-formula's literals.
pub struct Cadical {
    solver: CaDiCal,
    /// The variables handed out or used (the largest index, plus one);
    /// CaDiCaL is told of them before each search.
    vars: usize,
    assumptions: Vec<i32>,
    /// The last model, one value per variable, if the last search found
    /// one and no clause came since.
    model: Option<Vec<bool>>,
    /// The failed assumptions of the last search, if it found none.
    core: Vec<Lit>,
    /// The conflicts each search may take (CaDiCaL's limit holds for one
    /// search at a time).
    budget: Option<u64>,
    /// The interrupt flag, told apart from the budget when a search stops.
    interrupt: Option<Arc<AtomicBool>>,
}

impl Cadical {
    /// A solver with CaDiCaL's defaults but for the phase and lucky phases
    /// (below) and what `tuning` sets: the
    /// VSIDS decay is its score factor (per mille, the decay of the scores
    /// of its stable mode), the Luby unit its reluctant doubling period
    /// (the Luby sequence of its stable mode's restarts); it has no
    /// counterpart of varisat's reduction intervals.
    pub fn new(tuning: &SearchTuning) -> Cadical {
        let mut cadical = Cadical {
            solver: CaDiCal::new(),
            vars: 0,
            assumptions: Vec::new(),
            model: None,
            core: Vec::new(),
            budget: None,
            interrupt: None,
        };
        // Variables false first, as varisat and clasp decide them; and no
        // lucky phases unless the program is tight
        // ([`super::new_search_solver`]). The Labyrinth's first answer set
        // took 801 loop rounds and 46 s with CaDiCaL's defaults, 616 and
        // 35 s false first, 27 and 0.5 s also without lucky phases
        // (fixtures/bench/ANALYSIS.md, "Backend comparison").
        cadical.set_option("phase", 0);
        cadical.set_option("lucky", 0);
        if let Some(decay) = tuning.vsids_decay {
            let factor = (f64::from(decay) * 1000.0).round() as i32;
            cadical.set_option("scorefactor", factor.clamp(500, 1000));
        }
        if let Some(unit) = tuning.luby_restart_unit {
            cadical.set_option("reluctantint", unit.min(2_000_000_000) as i32);
        }
        cadical
    }

    /// Sets one of CaDiCaL's options (before the first clause for most).
    pub fn set_option(&mut self, name: &str, value: i32) {
        let known = self.solver.set(name, value);
        debug_assert!(known, "CaDiCaL has an option {name} taking {value}");
    }

    /// One of CaDiCaL's statistics (`conflicts`, `decisions`, ...), `None`
    /// for an unknown name.
    pub fn statistic(&self, name: &str) -> Option<u64> {
        u64::try_from(self.solver.get_statistic_value(name)).ok()
    }

    fn note_var(&mut self, var: Var) {
        self.vars = self.vars.max(var.index() + 1);
    }

    /// The clauses of `formula`, and each of its variables.
    pub fn add_formula(&mut self, formula: &CnfFormula) {
        self.vars = self.vars.max(formula.var_count());
        for clause in formula.iter() {
            self.add_clause(clause);
        }
    }

    /// The value of `lit` in the model of the last search, `None` without
    /// one (or for a variable the solver never saw).
    pub fn value(&self, lit: Lit) -> Option<bool> {
        let model = self.model.as_ref()?;
        (model.get(lit.index())).map(|&v| v == lit.is_positive())
    }
}

impl SatSolver for Cadical {
    fn new_var(&mut self) -> Var {
        let var = Var::from_index(self.vars);
        self.vars += 1;
        var
    }

    fn add_clause(&mut self, lits: &[Lit]) {
        self.model = None;
        for &lit in lits {
            self.note_var(lit.var());
        }
        match *lits {
            [] => self.solver.add(0),
            [a] => self.solver.clause1(to_cadical(a)),
            [a, b] => self.solver.clause2(to_cadical(a), to_cadical(b)),
            [a, b, c] => self
                .solver
                .clause3(to_cadical(a), to_cadical(b), to_cadical(c)),
            _ => {
                for &lit in lits {
                    self.solver.add(to_cadical(lit));
                }
                self.solver.add(0);
            }
        }
    }

    fn conflicts(&self) -> u64 {
        // -1 would say that CaDiCaL keeps no such statistic.
        u64::try_from(self.solver.get_statistic_value("conflicts")).unwrap_or(0)
    }

    fn fixed(&self, lit: Lit) -> Option<bool> {
        // 0 for a variable CaDiCaL has not seen yet, too.
        match self.solver.fixed(to_cadical(lit)) {
            0 => None,
            value => Some(value > 0),
        }
    }

    fn solve(&mut self, assumptions: &[Lit]) -> SatResult {
        self.model = None;
        self.core.clear();
        self.assumptions.clear();
        for &lit in assumptions {
            self.note_var(lit.var());
            self.assumptions.push(to_cadical(lit));
        }
        // Every variable handed out has a value in the model.
        if self.vars > self.solver.vars().max(0) as usize {
            self.solver.resize(self.vars as i32);
        }
        for &lit in &self.assumptions {
            self.solver.assume(lit);
        }
        if let Some(budget) = self.budget {
            let known = (self.solver).limit("conflicts", budget.min(i32::MAX as u64) as i32);
            debug_assert!(known, "CaDiCaL limits a search's conflicts");
        }
        match self.solver.solve() {
            Status::SATISFIABLE => {
                let vars = self.solver.vars().max(0);
                let model = (1..=vars).map(|v| self.solver.val(v) > 0).collect();
                self.model = Some(model);
                SatResult::Satisfiable
            }
            Status::UNSATISFIABLE => {
                for &lit in &self.assumptions {
                    if self.solver.failed(lit) {
                        self.core.push(from_cadical(lit));
                    }
                }
                SatResult::Unsatisfiable
            }
            Status::UNKNOWN
                if (self.interrupt.as_ref()).is_some_and(|flag| flag.load(Ordering::Relaxed)) =>
            {
                SatResult::Interrupted
            }
            Status::UNKNOWN if self.budget.is_some() => SatResult::BudgetSpent,
            Status::UNKNOWN => SatResult::Interrupted,
        }
    }

    fn model(&self) -> Vec<Lit> {
        super::model_literals(self.model.as_ref().expect("the solver found a model"))
    }

    /// The assumptions the proof used: not necessarily a minimal set.
    fn failed_core(&self) -> Vec<Lit> {
        self.core.clone()
    }

    fn interrupt_on(&mut self, flag: Arc<AtomicBool>) {
        self.interrupt = Some(flag.clone());
        self.solver.connect_terminator(Flag(flag));
    }

    fn set_conflict_budget(&mut self, budget: Option<u64>) {
        self.budget = budget;
    }

    /// Call it before the first search: CaDiCaL may eliminate variables it
    /// does not know to be observed.
    fn connect_propagator(
        &mut self,
        propagator: Box<dyn Propagator>,
        observed: &[Var],
    ) -> Result<(), Box<dyn Propagator>> {
        if let Some(&max) = observed.iter().max_by_key(|v| v.index()) {
            self.note_var(max);
            self.solver.resize(self.vars as i32);
        }
        self.solver.connect_external_propagator(Bridge {
            propagator,
            lits: Vec::new(),
            clause: Vec::new(),
            next: None,
        });
        self.observe(observed);
        Ok(())
    }

    fn observe(&mut self, vars: &[Var]) {
        if let Some(&max) = vars.iter().max_by_key(|v| v.index()) {
            self.note_var(max);
            self.solver.resize(self.vars as i32);
        }
        for &var in vars {
            self.solver.add_observed_var(var.to_dimacs() as i32);
        }
    }
}

/// IPASIR-UP's callbacks on a [`Propagator`]: literals translated, and the
/// reason and external clauses handed over one literal per call.
struct Bridge {
    propagator: Box<dyn Propagator>,
    lits: Vec<Lit>,
    /// The clause being handed over, and the index of its next literal
    /// (`None`: none is).
    clause: Vec<Lit>,
    next: Option<usize>,
}

impl Bridge {
    /// The next literal of the clause being handed over, 0 after the last.
    fn next_lit(&mut self) -> i32 {
        let Some(next) = self.next else { return 0 };
        match self.clause.get(next) {
            Some(&lit) => {
                self.next = Some(next + 1);
                to_cadical(lit)
            }
            None => {
                self.next = None;
                0
            }
        }
    }
}

impl ExternalPropagator for Bridge {
    fn notify_assignment(&mut self, lits: &[i32]) {
        self.lits.clear();
        self.lits.extend(lits.iter().map(|&l| from_cadical(l)));
        self.propagator.assigned(&self.lits);
    }

    fn notify_new_decision_level(&mut self) {
        self.propagator.new_level();
    }

    fn notify_backtrack(&mut self, new_level: usize) {
        self.propagator.backtrack(new_level);
    }

    fn cb_check_found_model(&mut self, model: &[i32]) -> bool {
        self.lits.clear();
        self.lits.extend(model.iter().map(|&l| from_cadical(l)));
        self.propagator.check_model(&self.lits)
    }

    fn cb_decide(&mut self) -> i32 {
        self.propagator.decide().map_or(0, to_cadical)
    }

    fn cb_propagate(&mut self) -> i32 {
        self.propagator.propagate().map_or(0, to_cadical)
    }

    fn cb_add_reason_clause_lit(&mut self, propagated_lit: i32) -> i32 {
        if self.next.is_none() {
            self.clause.clear();
            (self.propagator).reason(from_cadical(propagated_lit), &mut self.clause);
            self.next = Some(0);
        }
        self.next_lit()
    }

    fn cb_has_external_clause(&mut self, is_forgettable: &mut bool) -> bool {
        *is_forgettable = false;
        self.clause.clear();
        let has = self.propagator.clause(&mut self.clause);
        self.next = has.then_some(0);
        has
    }

    fn cb_add_external_clause_lit(&mut self) -> i32 {
        self.next_lit()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solve::backend::new_solver;

    fn lit(n: isize) -> Lit {
        Lit::from_dimacs(n)
    }

    #[test]
    fn solves_and_gives_the_model() {
        let mut s = Cadical::new(&SearchTuning::default());
        s.add_clause(&[lit(1), lit(2)]);
        s.add_clause(&[lit(-1), lit(3)]);
        s.add_clause(&[lit(-2), lit(-3)]);
        s.add_clause(&[lit(-3)]);
        assert_eq!(s.solve(&[]), SatResult::Satisfiable);
        assert_eq!(s.value(lit(2)), Some(true));
        assert_eq!(s.value(lit(-1)), Some(true));
        assert_eq!(s.value(lit(3)), Some(false));
        assert_eq!(s.model(), vec![lit(-1), lit(2), lit(-3)]);
        s.add_clause(&[lit(-2)]);
        assert_eq!(s.value(lit(2)), None, "no model after a clause");
        assert_eq!(s.solve(&[]), SatResult::Unsatisfiable);
        assert!(s.failed_core().is_empty());
    }

    #[test]
    fn long_and_empty_clauses() {
        let mut s = Cadical::new(&SearchTuning::default());
        let long: Vec<Lit> = (1..=6).map(lit).collect();
        s.add_clause(&long);
        for v in 1..=5 {
            s.add_clause(&[lit(-v)]);
        }
        assert_eq!(s.solve(&[]), SatResult::Satisfiable);
        assert_eq!(s.value(lit(6)), Some(true));
        // A variable handed out but in no clause has a value too.
        let fresh = s.new_var();
        assert_eq!(fresh.to_dimacs(), 7);
        assert_eq!(s.solve(&[]), SatResult::Satisfiable);
        assert_eq!(s.model().len(), 7);
        s.add_clause(&[]);
        assert_eq!(s.solve(&[]), SatResult::Unsatisfiable);
    }

    #[test]
    fn assumptions_and_failed_core() {
        let mut s = Cadical::new(&SearchTuning::default());
        // 1 → 2, 2 → 3, 4 free.
        s.add_clause(&[lit(-1), lit(2)]);
        s.add_clause(&[lit(-2), lit(3)]);
        s.add_clause(&[lit(4), lit(5)]);
        assert_eq!(s.solve(&[lit(1), lit(4)]), SatResult::Satisfiable);
        assert_eq!(s.value(lit(3)), Some(true));
        assert_eq!(
            s.solve(&[lit(4), lit(1), lit(-3)]),
            SatResult::Unsatisfiable
        );
        let mut core = s.failed_core();
        core.sort_by_key(|l| l.code());
        assert_eq!(core, vec![lit(1), lit(-3)]);
        // Assumptions last for one search only.
        assert_eq!(s.solve(&[]), SatResult::Satisfiable);
        assert!(s.failed_core().is_empty());
    }

    /// Random 3-SAT formulas near the threshold, under random assumptions,
    /// through the seam: CaDiCaL agrees with varisat on each answer, its
    /// models satisfy the clauses and assumptions, and its failed core is
    /// a subset of the assumptions that is unsatisfiable by itself.
    #[test]
    fn agrees_with_varisat_on_random_formulas() {
        use crate::solve::backend::Backend;
        use crate::testing::Rng;
        let mut rng = Rng::new(25);
        let tuning = SearchTuning::default();
        let (mut sat, mut unsat) = (0, 0);
        for round in 0..300 {
            let vars = 5 + rng.below(20);
            let clauses: Vec<Vec<Lit>> = (0..vars * 4)
                .map(|_| {
                    (0..3)
                        .map(|_| Lit::from_index(rng.below(vars), rng.below(2) == 0))
                        .collect()
                })
                .collect();
            let assumptions: Vec<Lit> = (0..rng.below(4))
                .map(|_| Lit::from_index(rng.below(vars), rng.below(2) == 0))
                .collect();
            let mut cadical = new_solver(Backend::Cadical, &tuning);
            let mut varisat = new_solver(Backend::Varisat, &tuning);
            for clause in &clauses {
                cadical.add_clause(clause);
                varisat.add_clause(clause);
            }
            let result = cadical.solve(&assumptions);
            assert_eq!(result, varisat.solve(&assumptions), "round {round}");
            if result == SatResult::Satisfiable {
                sat += 1;
                let model = cadical.model();
                let holds = |l: &Lit| model[l.index()] == *l;
                assert!(clauses.iter().all(|c| c.iter().any(holds)), "round {round}");
                assert!(assumptions.iter().all(holds), "round {round}");
            } else {
                unsat += 1;
                let core = cadical.failed_core();
                assert!(
                    core.iter().all(|l| assumptions.contains(l)),
                    "round {round}"
                );
                assert_eq!(cadical.solve(&core), SatResult::Unsatisfiable);
            }
        }
        assert!(sat > 50 && unsat > 50, "{sat} satisfiable, {unsat} not");
    }

    /// The tuning's settings are within CaDiCaL's ranges at their extremes
    /// and keep the answers.
    #[test]
    fn tuning_sets_cadicals_options() {
        for (decay, unit) in [(0.5, 1), (0.999, u64::from(u32::MAX))] {
            let tuning = SearchTuning {
                vsids_decay: Some(decay),
                luby_restart_unit: Some(unit),
                ..SearchTuning::default()
            };
            let mut s = Cadical::new(&tuning);
            s.add_clause(&[lit(1), lit(2)]);
            s.add_clause(&[lit(-1)]);
            assert_eq!(s.solve(&[]), SatResult::Satisfiable);
            assert_eq!(s.solve(&[lit(-2)]), SatResult::Unsatisfiable);
            assert_eq!(s.failed_core(), vec![lit(-2)]);
        }
    }

    /// Decides its literals, the last first, each once.
    struct Decides(Vec<Lit>);

    impl Propagator for Decides {
        fn assigned(&mut self, _lits: &[Lit]) {}
        fn new_level(&mut self) {}
        fn backtrack(&mut self, _level: usize) {}
        fn propagate(&mut self) -> Option<Lit> {
            None
        }
        fn reason(&mut self, _lit: Lit, _clause: &mut Vec<Lit>) {}
        fn check_model(&mut self, _model: &[Lit]) -> bool {
            true
        }
        fn clause(&mut self, _clause: &mut Vec<Lit>) -> bool {
            false
        }
        fn decide(&mut self) -> Option<Lit> {
            self.0.pop()
        }
    }

    /// CaDiCaL takes a propagator's decisions.
    #[test]
    fn a_propagator_decides() {
        let mut s = Cadical::new(&SearchTuning::default());
        s.add_clause(&[lit(1), lit(2), lit(3)]);
        assert_eq!(s.solve(&[]), SatResult::Satisfiable);
        assert_eq!(s.model(), vec![lit(1), lit(-2), lit(-3)], "its own");
        let mut s = Cadical::new(&SearchTuning::default());
        s.add_clause(&[lit(1), lit(2), lit(3)]);
        let observed = [Var::from_dimacs(1), Var::from_dimacs(2)];
        let decides = Decides(vec![lit(-2), lit(-1)]);
        assert!(s.connect_propagator(Box::new(decides), &observed).is_ok());
        assert_eq!(s.solve(&[]), SatResult::Satisfiable);
        assert_eq!(s.model(), vec![lit(-1), lit(-2), lit(3)]);
    }
}
