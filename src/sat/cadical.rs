//! CaDiCaL (Armin Biere's CDCL solver, C++) through the `cadical-sys`
//! crate, which builds the CaDiCaL 3 source it bundles (a C++11 compiler is
//! needed) and binds its C++ API with `cxx`. The crate's API is CaDiCaL's
//! one to one (DIMACS integers, IPASIR-UP's callbacks); this wrapper takes
//! varisat's [`Lit`] (variable index `i` is CaDiCaL's `i + 1`), keeps the
//! last model, lists the failed assumptions, stops on an interrupt flag,
//! and connects a [`Propagator`].

use super::{Outcome, Propagator};
use cadical_sys::{CaDiCal, ExternalPropagator, Status, Terminator};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use varisat::{CnfFormula, Lit, Var};

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

/// A CaDiCaL solver over varisat's literals.
pub struct Cadical {
    solver: CaDiCal,
    interrupt: Arc<AtomicBool>,
    /// The variables CaDiCaL knows of (the largest index used, plus one).
    vars: usize,
    assumptions: Vec<i32>,
    /// The last model, one value per variable, if the last search found one.
    model: Option<Vec<bool>>,
}

impl Default for Cadical {
    fn default() -> Cadical {
        Cadical::new()
    }
}

impl Cadical {
    pub fn new() -> Cadical {
        let mut solver = CaDiCal::new();
        let interrupt = Arc::new(AtomicBool::new(false));
        solver.connect_terminator(Flag(interrupt.clone()));
        Cadical {
            solver,
            interrupt,
            vars: 0,
            assumptions: Vec::new(),
            model: None,
        }
    }

    /// The flag that stops the search: set it (from any thread) and
    /// [`Cadical::solve`] returns [`Outcome::Interrupted`] soon after. It
    /// stays set until the caller clears it.
    pub fn interrupt_handle(&self) -> Arc<AtomicBool> {
        self.interrupt.clone()
    }

    /// Sets one of CaDiCaL's options (before the first clause for most);
    /// whether the name and value were valid.
    pub fn set_option(&mut self, name: &str, value: i32) -> bool {
        self.solver.set(name, value)
    }

    /// One of CaDiCaL's statistics (`conflicts`, `decisions`, ...), `None`
    /// for an unknown name.
    pub fn statistic(&self, name: &str) -> Option<u64> {
        u64::try_from(self.solver.get_statistic_value(name)).ok()
    }

    /// Makes the variables up to index `count - 1` known to the solver, so
    /// that the model has a value for each.
    pub fn reserve_vars(&mut self, count: usize) {
        if count > self.vars {
            self.vars = count;
            self.solver.resize(count as i32);
        }
    }

    fn note_var(&mut self, var: Var) {
        self.vars = self.vars.max(var.index() + 1);
    }

    pub fn add_clause(&mut self, lits: &[Lit]) {
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

    /// The clauses of `formula`, and each of its variables.
    pub fn add_formula(&mut self, formula: &CnfFormula) {
        self.reserve_vars(formula.var_count());
        for clause in formula.iter() {
            self.add_clause(clause);
        }
    }

    /// Searches for a model in which the `assumptions` hold.
    pub fn solve(&mut self, assumptions: &[Lit]) -> Outcome {
        self.model = None;
        self.assumptions.clear();
        for &lit in assumptions {
            self.note_var(lit.var());
            self.assumptions.push(to_cadical(lit));
            self.solver.assume(to_cadical(lit));
        }
        match self.solver.solve() {
            Status::SATISFIABLE => {
                let vars = self.solver.vars().max(0) as usize;
                let model = (1..=vars as i32).map(|v| self.solver.val(v) > 0).collect();
                self.model = Some(model);
                Outcome::Sat
            }
            Status::UNSATISFIABLE => Outcome::Unsat,
            Status::UNKNOWN => Outcome::Interrupted,
        }
    }

    /// The value of `lit` in the model of the last search, `None` without
    /// one (or for a variable the solver never saw).
    pub fn value(&self, lit: Lit) -> Option<bool> {
        let model = self.model.as_ref()?;
        (model.get(lit.index())).map(|&v| v == lit.is_positive())
    }

    /// The model of the last search, one literal per variable.
    pub fn model(&self) -> Option<Vec<Lit>> {
        let model = self.model.as_ref()?;
        Some(
            (model.iter().enumerate())
                .map(|(i, &v)| Lit::from_index(i, v))
                .collect(),
        )
    }

    /// After [`Outcome::Unsat`]: the assumptions of that search that the
    /// proof used (not necessarily a minimal set; empty when the formula
    /// is unsatisfiable without them).
    pub fn failed_core(&mut self) -> Vec<Lit> {
        if self.model.is_some() || self.solver.status() != Status::UNSATISFIABLE {
            return Vec::new();
        }
        let assumptions = std::mem::take(&mut self.assumptions);
        let core = (assumptions.iter())
            .filter(|&&lit| self.solver.failed(lit))
            .map(|&lit| from_cadical(lit))
            .collect();
        self.assumptions = assumptions;
        core
    }

    /// Connects `propagator` (replacing any earlier one), observing
    /// `observed`: it sees their assignments and may propagate and add
    /// clauses over them. Call it before the first search: CaDiCaL may
    /// eliminate variables it does not know to be observed.
    pub fn connect_propagator<P: Propagator + 'static>(&mut self, propagator: P, observed: &[Var]) {
        if let Some(max) = observed.iter().map(|v| v.index() + 1).max() {
            self.reserve_vars(max);
        }
        self.solver.connect_external_propagator(Bridge {
            propagator,
            lits: Vec::new(),
            clause: Vec::new(),
            next: None,
        });
        for &var in observed {
            self.solver.add_observed_var(var.to_dimacs() as i32);
        }
    }
}

/// IPASIR-UP's callbacks on a [`Propagator`]: literals translated, and the
/// reason and external clauses handed over one literal per call.
struct Bridge<P> {
    propagator: P,
    lits: Vec<Lit>,
    /// The clause being handed over, and the index of its next literal
    /// (`None`: none is).
    clause: Vec<Lit>,
    next: Option<usize>,
}

impl<P> Bridge<P> {
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

impl<P: Propagator> ExternalPropagator for Bridge<P> {
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
    use std::cell::RefCell;
    use std::rc::Rc;

    fn lit(n: isize) -> Lit {
        Lit::from_dimacs(n)
    }

    #[test]
    fn solves_and_gives_the_model() {
        let mut s = Cadical::new();
        s.add_clause(&[lit(1), lit(2)]);
        s.add_clause(&[lit(-1), lit(3)]);
        s.add_clause(&[lit(-2), lit(-3)]);
        s.add_clause(&[lit(-3)]);
        assert_eq!(s.solve(&[]), Outcome::Sat);
        assert_eq!(s.value(lit(2)), Some(true));
        assert_eq!(s.value(lit(-1)), Some(true));
        assert_eq!(s.value(lit(3)), Some(false));
        let model = s.model().unwrap();
        assert_eq!(model, vec![lit(-1), lit(2), lit(-3)]);
        s.add_clause(&[lit(-2)]);
        assert_eq!(s.value(lit(2)), None, "no model after a clause");
        assert_eq!(s.solve(&[]), Outcome::Unsat);
        assert!(s.failed_core().is_empty());
    }

    #[test]
    fn long_and_empty_clauses() {
        let mut s = Cadical::new();
        let long: Vec<Lit> = (1..=6).map(lit).collect();
        s.add_clause(&long);
        for v in 1..=5 {
            s.add_clause(&[lit(-v)]);
        }
        assert_eq!(s.solve(&[]), Outcome::Sat);
        assert_eq!(s.value(lit(6)), Some(true));
        s.reserve_vars(10);
        assert_eq!(s.solve(&[]), Outcome::Sat);
        assert!(s.value(lit(10)).is_some());
        s.add_clause(&[]);
        assert_eq!(s.solve(&[]), Outcome::Unsat);
    }

    #[test]
    fn assumptions_and_failed_core() {
        let mut s = Cadical::new();
        // 1 → 2, 2 → 3, 4 free.
        s.add_clause(&[lit(-1), lit(2)]);
        s.add_clause(&[lit(-2), lit(3)]);
        s.add_clause(&[lit(4), lit(5)]);
        assert_eq!(s.solve(&[lit(1), lit(4)]), Outcome::Sat);
        assert_eq!(s.value(lit(3)), Some(true));
        assert_eq!(s.solve(&[lit(4), lit(1), lit(-3)]), Outcome::Unsat);
        let mut core = s.failed_core();
        core.sort_by_key(|l| l.code());
        assert_eq!(core, vec![lit(1), lit(-3)]);
        // Assumptions last for one search only.
        assert_eq!(s.solve(&[]), Outcome::Sat);
        assert!(s.failed_core().is_empty());
    }

    /// Pigeonhole 11 into 10: hard enough that the search is still running
    /// when the flag is seen.
    #[test]
    fn interrupt_stops_the_search() {
        let mut s = Cadical::new();
        let (pigeons, holes) = (11isize, 10isize);
        let var = |p: isize, h: isize| p * holes + h + 1;
        for p in 0..pigeons {
            let clause: Vec<Lit> = (0..holes).map(|h| lit(var(p, h))).collect();
            s.add_clause(&clause);
        }
        for h in 0..holes {
            for p in 0..pigeons {
                for q in p + 1..pigeons {
                    s.add_clause(&[lit(-var(p, h)), lit(-var(q, h))]);
                }
            }
        }
        let flag = s.interrupt_handle();
        flag.store(true, Ordering::Relaxed);
        assert_eq!(s.solve(&[]), Outcome::Interrupted);
        let stopper = {
            let flag = flag.clone();
            flag.store(false, Ordering::Relaxed);
            std::thread::spawn(move || {
                std::thread::sleep(std::time::Duration::from_millis(50));
                flag.store(true, Ordering::Relaxed);
            })
        };
        let started = std::time::Instant::now();
        assert_eq!(s.solve(&[]), Outcome::Interrupted);
        assert!(started.elapsed().as_secs() < 10);
        stopper.join().unwrap();
    }

    /// A propagator for "at most one of the observed variables is true",
    /// with its own view of the assignment: it propagates the others false
    /// once one is true (reason `¬x ∨ ¬y`), and refuses a model with two true
    /// by a clause (never, as it propagates first).
    #[derive(Default)]
    struct AtMostOne {
        vars: Vec<Var>,
        trail: Vec<Lit>,
        level_start: Vec<usize>,
        /// Per propagated variable: the true one that was its reason.
        reasons: Vec<(Var, Var)>,
        propagated: u32,
        models_checked: u32,
    }

    impl AtMostOne {
        fn value(&self, var: Var) -> Option<bool> {
            (self.trail.iter().rev())
                .find(|l| l.var() == var)
                .map(|l| l.is_positive())
        }
    }

    impl Propagator for AtMostOne {
        fn assigned(&mut self, lits: &[Lit]) {
            self.trail.extend_from_slice(lits);
        }
        fn new_level(&mut self) {
            self.level_start.push(self.trail.len());
        }
        fn backtrack(&mut self, level: usize) {
            self.trail.truncate(self.level_start[level]);
            self.level_start.truncate(level);
        }
        fn propagate(&mut self) -> Option<Lit> {
            let one = self.vars.iter().find(|&&v| self.value(v) == Some(true))?;
            let other = (self.vars.iter()).find(|&&v| v != *one && self.value(v) != Some(false))?;
            self.propagated += 1;
            self.reasons.push((*other, *one));
            Some(other.negative())
        }
        fn reason(&mut self, lit: Lit, clause: &mut Vec<Lit>) {
            let &(_, one) = (self.reasons.iter().rev())
                .find(|&&(v, _)| v == lit.var())
                .unwrap();
            clause.extend([lit, one.negative()]);
        }
        fn check_model(&mut self, model: &[Lit]) -> bool {
            self.models_checked += 1;
            model.iter().filter(|l| l.is_positive()).count() <= 1
        }
        fn clause(&mut self, _clause: &mut Vec<Lit>) -> bool {
            false
        }
    }

    #[test]
    fn a_propagator_takes_part_in_the_search() {
        let mut s = Cadical::new();
        let vars: Vec<Var> = (1..=5).map(Var::from_dimacs).collect();
        // At least two of 1..5 would be needed by this clause set unless
        // the propagator cuts: (1 ∨ 2), (3 ∨ 4 ∨ 5), with at most one true
        // this is unsatisfiable.
        s.add_clause(&[lit(1), lit(2)]);
        s.add_clause(&[lit(3), lit(4), lit(5)]);
        let propagator = Rc::new(RefCell::new(AtMostOne {
            vars: vars.clone(),
            ..AtMostOne::default()
        }));
        s.connect_propagator(propagator.clone(), &vars);
        assert_eq!(s.solve(&[]), Outcome::Unsat);
        assert!(propagator.borrow().propagated > 0);
        // Without the second clause: one model with exactly 1 or 2 true.
        let mut s = Cadical::new();
        s.add_clause(&[lit(1), lit(2)]);
        s.add_clause(&[lit(-6), lit(3)]);
        let propagator = Rc::new(RefCell::new(AtMostOne {
            vars: vars.clone(),
            ..AtMostOne::default()
        }));
        s.connect_propagator(propagator.clone(), &vars);
        assert_eq!(s.solve(&[lit(6)]), Outcome::Unsat, "6 forces 3");
        assert_eq!(s.failed_core(), vec![lit(6)]);
        assert_eq!(s.solve(&[]), Outcome::Sat);
        let trues = (1..=5).filter(|&v| s.value(lit(v)) == Some(true)).count();
        assert_eq!(trues, 1);
        assert!(propagator.borrow().models_checked > 0);
    }
}
