//! The seam between the searches and a SAT solver.
//!
//! Every search (enumeration, optimization, consequences, `--explain`, the
//! minimality check, the threads of `-t`) talks to its solver through
//! [`SatSolver`] alone, in varisat-formula's literals. A backend is a file
//! of this folder implementing the trait, named by [`Backend`];
//! [`new_solver`] is the one place that builds it: varisat (`varisat.rs`),
//! CaDiCaL (`cadical.rs`, cargo feature `cadical`) or batsat (`batsat.rs`,
//! cargo feature `batsat`); both features are default ones.
//! [`Backend::for_translation`] chooses among them by the program unless
//! `--solver` names one. A backend with a hook into its search takes a
//! [`Propagator`] (the unfounded-set check of non-tight programs).

#[cfg(feature = "batsat")]
pub mod batsat;
#[cfg(feature = "cadical")]
pub mod cadical;
mod varisat;

use super::{SearchTuning, optimize, unfounded_sets};
use crate::ground::program::{GroundProgram, Head};
use crate::translate::Translation;
use crate::translate::analysis::Analysis;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use varisat_formula::{Lit, Var};

/// How a call of [`SatSolver::solve`] ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SatResult {
    Satisfiable,
    /// No model, under the assumptions if any: [`SatSolver::failed_core`]
    /// says which of them.
    Unsatisfiable,
    /// The interrupt flag was set before the search decided.
    Interrupted,
    /// The conflict budget ([`SatSolver::set_conflict_budget`]) ran out
    /// before the search decided.
    BudgetSpent,
}

/// An incremental SAT solver: clauses only ever added, each call under
/// assumptions of its own.
pub trait SatSolver {
    /// A variable unused so far.
    fn new_var(&mut self) -> Var;

    /// A variable unused so far, set to `value` whenever the search
    /// decides it. A backend without such a setting ignores `value`.
    fn new_var_deciding(&mut self, value: bool) -> Var {
        let _ = value;
        self.new_var()
    }

    fn add_clause(&mut self, clause: &[Lit]);

    /// Searches for a model of the clauses with every literal of
    /// `assumptions` true.
    fn solve(&mut self, assumptions: &[Lit]) -> SatResult;

    /// After [`SatResult::Satisfiable`]: the value of every variable in a
    /// clause, as a literal each.
    fn model(&self) -> Vec<Lit>;

    /// After [`SatResult::Unsatisfiable`]: a subset of the assumptions
    /// that admits no model (empty when the clauses alone admit none).
    fn failed_core(&self) -> Vec<Lit>;

    /// From now on, a search stops with [`SatResult::Interrupted`] soon
    /// after `flag` is set, by any thread.
    fn interrupt_on(&mut self, flag: Arc<AtomicBool>);

    /// From now on, a search stops with [`SatResult::BudgetSpent`] after
    /// `budget` conflicts of its own (`None`: searches run until they
    /// decide). Conflicts, not time: the same in every run.
    fn set_conflict_budget(&mut self, budget: Option<u64>);

    /// The conflicts of all searches so far: the searches' effort, the
    /// same in every run, as time is not.
    fn conflicts(&self) -> u64;

    /// The value the clauses alone give `lit`, whatever the assumptions:
    /// `Some` once a search has proven it (it holds in every model), `None`
    /// while the solver does not know.
    fn fixed(&self, lit: Lit) -> Option<bool>;

    /// Connects `propagator` inside the search (replacing any earlier
    /// one), observing `observed`: it is told of their assignments and may
    /// propagate and add clauses over them. A backend without a hook into
    /// its search gives it back.
    fn connect_propagator(
        &mut self,
        propagator: Box<dyn Propagator>,
        _observed: &[Var],
    ) -> Result<(), Box<dyn Propagator>> {
        Err(propagator)
    }

    /// The connected propagator observes `vars` too, from the next search
    /// on (those of the weight constraints added between searches). A
    /// backend without a propagator ignores it.
    fn observe(&mut self, _vars: &[Var]) {}
}

/// A propagator inside the search (IPASIR-UP's shape, over varisat-formula's
/// literals): told of the assignments to the variables it observes and of
/// the decision levels, it may make literals true, each with a reason
/// clause asked for later, and add clauses; it approves every complete
/// assignment before it is a model.
pub trait Propagator {
    /// These literals of observed variables became true, in trail order.
    fn assigned(&mut self, lits: &[Lit]);
    /// A decision level began.
    fn new_level(&mut self);
    /// The levels above `level` were undone, with their assignments (the
    /// solver tells again of those it keeps).
    fn backtrack(&mut self, level: usize);
    /// A literal over an observed variable to make true, or `None`. A
    /// literal that is false is a conflict.
    fn propagate(&mut self) -> Option<Lit>;
    /// The reason of a literal that [`Propagator::propagate`] gave, while
    /// it is assigned: a clause holding it whose other literals are false,
    /// into `clause`.
    fn reason(&mut self, lit: Lit, clause: &mut Vec<Lit>);
    /// Whether the complete assignment `model` (of the observed variables)
    /// is accepted; if not, [`Propagator::clause`] must give a clause.
    fn check_model(&mut self, model: &[Lit]) -> bool;
    /// A clause over observed variables to add, into `clause`, or `false`.
    fn clause(&mut self, clause: &mut Vec<Lit>) -> bool;
    /// The next decision, a literal of an unassigned observed variable, or
    /// `None` to leave it to the solver. A backend without the hook never
    /// asks.
    fn decide(&mut self) -> Option<Lit> {
        None
    }
}

impl<P: Propagator> Propagator for std::rc::Rc<std::cell::RefCell<P>> {
    fn assigned(&mut self, lits: &[Lit]) {
        self.borrow_mut().assigned(lits);
    }
    fn new_level(&mut self) {
        self.borrow_mut().new_level();
    }
    fn backtrack(&mut self, level: usize) {
        self.borrow_mut().backtrack(level);
    }
    fn propagate(&mut self) -> Option<Lit> {
        self.borrow_mut().propagate()
    }
    fn reason(&mut self, lit: Lit, clause: &mut Vec<Lit>) {
        self.borrow_mut().reason(lit, clause);
    }
    fn check_model(&mut self, model: &[Lit]) -> bool {
        self.borrow_mut().check_model(model)
    }
    fn clause(&mut self, clause: &mut Vec<Lit>) -> bool {
        self.borrow_mut().clause(clause)
    }
    fn decide(&mut self) -> Option<Lit> {
        self.borrow_mut().decide()
    }
}

/// [`Propagator::clause`] of a propagator whose only clauses are the
/// refusals of [`Propagator::check_model`]: the one kept, if any, handed
/// over once.
pub(crate) fn hand_over_refusal(refusal: &mut Option<Vec<Lit>>, clause: &mut Vec<Lit>) -> bool {
    refusal
        .take()
        .map(|refused| clause.extend(refused))
        .is_some()
}

/// A model as [`SatSolver::model`] gives it: one literal per variable,
/// from its value.
#[cfg(any(feature = "cadical", feature = "batsat"))]
fn model_literals(values: &[bool]) -> Vec<Lit> {
    (values.iter().enumerate())
        .map(|(i, &v)| Lit::from_index(i, v))
        .collect()
}

/// A SAT solver the searches can use (`--solver`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    Varisat,
    #[cfg(feature = "cadical")]
    Cadical,
    #[cfg(feature = "batsat")]
    Batsat,
}

impl Backend {
    /// Every backend built in.
    pub const ALL: &[Backend] = &[
        Backend::Varisat,
        #[cfg(feature = "cadical")]
        Backend::Cadical,
        #[cfg(feature = "batsat")]
        Backend::Batsat,
    ];

    /// Its name, as `--solver` takes it and `--stats` prints it.
    pub fn name(self) -> &'static str {
        match self {
            Backend::Varisat => "varisat",
            #[cfg(feature = "cadical")]
            Backend::Cadical => "cadical",
            #[cfg(feature = "batsat")]
            Backend::Batsat => "batsat",
        }
    }

    /// Whether a [`Propagator`] can take part in its searches.
    pub fn propagates(self) -> bool {
        self != Backend::Varisat
    }

    /// The backend for a program, by what its translation holds
    /// (fixtures/bench/ANALYSIS.md, "Backend comparison"):
    /// - non-tight programs the unfounded-set check covers: batsat, with
    ///   the check inside its search;
    /// - tight programs without disjunctions whose objective has a level
    ///   of different weights, or whose clauses are mostly those of weight
    ///   constraints and many: batsat, whose linear search (its bounds
    ///   propagated) proves their optima fastest;
    /// - large tight programs with disjunctions (shifted): CaDiCaL, by far
    ///   the best on their searches (the Hanoi Tower's plans, all of them:
    ///   1.65 s against varisat's 4.55 s, 33 MB against 39 MB; the DLV
    ///   Sudoku, small, stays with varisat);
    /// - the rest (tight: Sudoku, colouring, planning, and large programs
    ///   of body aggregates, whose sums the search does not take; and
    ///   components that are not head-cycle-free or hold a non-monotone
    ///   recursive aggregate, whose minimality check runs many short
    ///   searches): varisat, the fastest on them. (Large programs of body
    ///   aggregates went to CaDiCaL for bin packing, whose sums it solves
    ///   at once as clauses by its lucky phases; bin packing's sums are
    ///   propagated inside batsat now, and on the corpus's programs of that
    ///   kind CaDiCaL was the slowest of the three: fixtures/bench/ANALYSIS.md,
    ///   "Large programs of body aggregates".)
    ///
    /// A backend not built in falls back to the next in that order.
    pub fn for_translation(translation: &Translation) -> Backend {
        if translation.needs_loop_formulas() {
            return Self::non_tight(unfounded_sets::covers(translation).is_ok());
        }
        let stats = translation.stats();
        let weights = stats.aggregate_clauses + stats.objective_clauses;
        let large = stats.clauses() >= LARGE;
        let weighted = weights * WEIGHTED_SHARE > stats.clauses();
        let optimizing = !translation.costs().is_empty() && stats.shifted_disjunctions == 0;
        let different_weights = || {
            (translation.costs().iter()).any(|level| optimize::weighted(&level.soft_literals().0))
        };
        if optimizing && ((large && weighted) || different_weights()) {
            // The linear search's bounds over different weights are
            // propagated inside batsat (on varisat they are diagrams of
            // clauses), and batsat proved the optima fastest: post_office
            // 29 s against CaDiCaL's 58 s, knapsack/16 6.8 s against
            // 11.4 s, knapsack/12 0.11 s against varisat's 0.20 s.
            return Self::propagating();
        }
        Self::tight(large && stats.shifted_disjunctions > 0)
    }

    /// The backend whose search takes weight constraints best: batsat,
    /// else CaDiCaL, else varisat (which takes none: they stay clauses).
    fn propagating() -> Backend {
        (BATSAT.or(CADICAL)).unwrap_or(Backend::Varisat)
    }

    /// CaDiCaL for a tight program of a hard search (`hard`), else varisat.
    fn tight(hard: bool) -> Backend {
        if hard {
            CADICAL.unwrap_or(Backend::Varisat)
        } else {
            Backend::Varisat
        }
    }

    /// [`Self::for_translation`]'s choice where the program and its
    /// analysis decide it before any clause is written (the choice by the
    /// share of weight constraints needs the clauses): a non-tight program
    /// searched with loop formulas (`loop_formulas`), a tight one with sums
    /// worth propagating when the search can take them (`propagated_sums`:
    /// batsat, else CaDiCaL; on bin packing batsat is as fast or faster,
    /// fixtures/bench/ANALYSIS.md), or a tight one without aggregates or
    /// objective. Then the translation goes straight into the solver, and
    /// its clauses are not held twice.
    pub(crate) fn before_translation(
        program: &GroundProgram,
        analysis: &Analysis,
        loop_formulas: bool,
        propagated_sums: bool,
    ) -> Option<Backend> {
        if loop_formulas {
            Some(Self::non_tight(analysis.needs_no_minimality_check()))
        } else if propagated_sums {
            Some(Self::propagating())
        } else if program.aggregates.is_empty() && program.costs.is_empty() {
            let disjunctive =
                (program.rules.iter()).any(|r| matches!(r.head, Head::Disjunction(_)));
            Some(Self::tight(disjunctive && program.rules.len() >= LARGE))
        } else {
            None
        }
    }

    fn non_tight(check_covers: bool) -> Backend {
        let preferred: &[Option<Backend>] = if check_covers {
            &[BATSAT, CADICAL]
        } else {
            &[]
        };
        (preferred.iter().flatten().copied().next()).unwrap_or(Backend::Varisat)
    }
}

/// A program counts as one of weight constraints when more than one in this
/// many of its clauses encode body aggregates or the objective (the
/// cardinality bounds of choices, as in Sudoku, do not count); an
/// optimizing one goes to batsat when it has at least [`LARGE`] clauses,
/// and a disjunctive one to CaDiCaL (counted before the translation: ground
/// rules): below that, CaDiCaL's set-up is most of its time.
const WEIGHTED_SHARE: usize = 4;
const LARGE: usize = 10_000;

#[cfg(feature = "batsat")]
const BATSAT: Option<Backend> = Some(Backend::Batsat);
#[cfg(not(feature = "batsat"))]
const BATSAT: Option<Backend> = None;
#[cfg(feature = "cadical")]
const CADICAL: Option<Backend> = Some(Backend::Cadical);
#[cfg(not(feature = "cadical"))]
const CADICAL: Option<Backend> = None;

/// A solver of `backend` for the search of `translation`'s program, with
/// `tuning`'s settings: [`new_solver`]'s, but for CaDiCaL's lucky phases
/// (all false, all true, ... tried before each search), on for tight
/// programs. Their models of the completion are mostly unfounded on a
/// non-tight one, each a loop round and another call (the Labyrinth: 801
/// rounds and 46 s with them, 27 and 0.5 s without), but a lucky
/// assignment is bin packing's answer set at once (binpacking/60: 0.05 s
/// with them, 0.5 s without; fixtures/bench/ANALYSIS.md).
#[cfg_attr(not(feature = "cadical"), allow(unused_variables))]
pub fn new_search_solver(
    backend: Backend,
    tuning: &SearchTuning,
    tight: bool,
) -> Box<dyn SatSolver> {
    match backend {
        #[cfg(feature = "cadical")]
        Backend::Cadical if tight => {
            let mut solver = cadical::Cadical::new(tuning);
            solver.set_option("lucky", 1);
            Box::new(solver)
        }
        _ => new_solver(backend, tuning),
    }
}

/// A solver of `backend`, with `tuning`'s settings.
pub fn new_solver(backend: Backend, tuning: &SearchTuning) -> Box<dyn SatSolver> {
    match backend {
        Backend::Varisat => Box::new(varisat::Varisat::new(tuning)),
        #[cfg(feature = "cadical")]
        Backend::Cadical => Box::new(cadical::Cadical::new(tuning)),
        #[cfg(feature = "batsat")]
        Backend::Batsat => Box::new(batsat::Batsat::new()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solve::propagators::LevelTrail;
    use std::cell::RefCell;
    use std::rc::Rc;
    use std::sync::atomic::Ordering;

    /// The variables "pigeon p sits in hole h" of `holes + 1` pigeons, one
    /// row per pigeon, with the clauses that no two share a hole (that
    /// each sits somewhere is left to the caller).
    fn pigeons_in_holes(solver: &mut dyn SatSolver, holes: usize) -> Vec<Vec<Lit>> {
        let pigeons: Vec<Vec<Lit>> = (0..=holes)
            .map(|_| (0..holes).map(|_| solver.new_var().positive()).collect())
            .collect();
        for hole in 0..holes {
            for (a, first) in pigeons.iter().enumerate() {
                for second in &pigeons[a + 1..] {
                    solver.add_clause(&[!first[hole], !second[hole]]);
                }
            }
        }
        pigeons
    }

    /// A solver of `backend` with the pigeonhole principle for `holes + 1`
    /// pigeons in `holes` holes, every pigeon in some hole: no model.
    fn too_many_pigeons(backend: Backend, holes: usize) -> (Box<dyn SatSolver>, Vec<Vec<Lit>>) {
        let mut solver = new_solver(backend, &SearchTuning::default());
        let pigeons = pigeons_in_holes(&mut *solver, holes);
        for pigeon in &pigeons {
            solver.add_clause(pigeon);
        }
        (solver, pigeons)
    }

    /// On every backend, an interrupt set before or during a search stops
    /// it; the solver answers again once the flag is cleared.
    #[test]
    fn an_interrupt_stops_the_search() {
        for &backend in Backend::ALL {
            // 11 pigeons in 10 holes: no proof by resolution in less than
            // minutes.
            let (mut solver, var) = too_many_pigeons(backend, 10);
            let flag = Arc::new(AtomicBool::new(true));
            solver.interrupt_on(flag.clone());
            assert_eq!(solver.solve(&[]), SatResult::Interrupted);
            let setter = {
                let flag = flag.clone();
                flag.store(false, Ordering::Relaxed);
                std::thread::spawn(move || {
                    std::thread::sleep(std::time::Duration::from_millis(50));
                    flag.store(true, Ordering::Relaxed);
                })
            };
            let started = std::time::Instant::now();
            assert_eq!(solver.solve(&[]), SatResult::Interrupted, "{backend:?}");
            assert!(started.elapsed().as_secs() < 10, "{backend:?}");
            setter.join().unwrap();
            flag.store(false, Ordering::Relaxed);
            // Two pigeons in one hole: refuted by propagation alone.
            let (first, second) = (var[0][0], var[1][0]);
            assert_eq!(solver.solve(&[first, second]), SatResult::Unsatisfiable);
            assert!(solver.failed_core().contains(&first));
        }
    }

    /// On every backend, a conflict budget stops each search after about
    /// that many conflicts, a budget spent is told apart from an
    /// interrupt, and without a budget the search decides again.
    #[test]
    fn a_conflict_budget_stops_each_search() {
        for &backend in Backend::ALL {
            let (mut solver, _) = too_many_pigeons(backend, 7);
            solver.interrupt_on(Arc::new(AtomicBool::new(false)));
            solver.set_conflict_budget(Some(50));
            for _ in 0..2 {
                let before = solver.conflicts();
                assert_eq!(solver.solve(&[]), SatResult::BudgetSpent, "{backend:?}");
                let spent = solver.conflicts() - before;
                assert!((50..60).contains(&spent), "{backend:?}: {spent} conflicts");
            }
            solver.set_conflict_budget(None);
            assert_eq!(solver.solve(&[]), SatResult::Unsatisfiable, "{backend:?}");
        }
    }

    /// Every backend counts its conflicts, over all its searches: the
    /// pigeonhole principle for 7 pigeons in 6 holes takes hundreds.
    #[test]
    fn conflicts_add_up_over_the_searches() {
        for &backend in Backend::ALL {
            let mut solver = new_solver(backend, &SearchTuning::default());
            let pigeons = pigeons_in_holes(&mut *solver, 6);
            assert_eq!(solver.solve(&[]), SatResult::Satisfiable);
            let before = solver.conflicts();
            // Every pigeon in some hole, assumed through a guard each.
            let guards: Vec<Lit> = (pigeons.iter())
                .map(|pigeon| {
                    let guard = solver.new_var().positive();
                    let mut clause = pigeon.clone();
                    clause.push(!guard);
                    solver.add_clause(&clause);
                    guard
                })
                .collect();
            assert_eq!(solver.solve(&guards), SatResult::Unsatisfiable);
            let after = solver.conflicts();
            assert!(after > before + 50, "{backend:?}: {before} then {after}");
        }
    }

    /// batsat decides a variable as it was given to try first, the others
    /// false.
    #[cfg(feature = "batsat")]
    #[test]
    fn batsat_decides_the_value_given() {
        let mut solver = new_solver(Backend::Batsat, &SearchTuning::default());
        let plain = solver.new_var();
        let tried_true = solver.new_var_deciding(true);
        let tried_false = solver.new_var_deciding(false);
        solver.add_clause(&[
            tried_true.positive(),
            tried_false.positive(),
            plain.positive(),
        ]);
        assert_eq!(solver.solve(&[]), SatResult::Satisfiable);
        let model = solver.model();
        assert!(model.contains(&plain.negative()));
        assert!(model.contains(&tried_true.positive()));
        assert!(model.contains(&tried_false.negative()));
    }

    /// A propagator for "at most one of the observed variables is true",
    /// with its own view of the assignment: it propagates the others false
    /// once one is true (reason `¬x ∨ ¬y`), and refuses a model with two true
    /// by a clause (never, as it propagates first).
    #[derive(Default)]
    struct AtMostOne {
        vars: Vec<Var>,
        trail: LevelTrail,
        /// Per propagated variable: the true one that was its reason.
        reasons: Vec<(Var, Var)>,
        propagated: u32,
        models_checked: u32,
    }

    impl AtMostOne {
        fn value(&self, var: Var) -> Option<bool> {
            (self.trail.lits().iter().rev())
                .find(|l| l.var() == var)
                .map(|l| l.is_positive())
        }
    }

    impl Propagator for AtMostOne {
        fn assigned(&mut self, lits: &[Lit]) {
            self.trail.assigned(lits);
        }
        fn new_level(&mut self) {
            self.trail.new_level();
        }
        fn backtrack(&mut self, level: usize) {
            self.trail.backtrack(level, |_| {});
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

    /// A fresh [`AtMostOne`] over `vars`, connected to `solver`.
    fn connect_at_most_one(solver: &mut dyn SatSolver, vars: &[Var]) -> Rc<RefCell<AtMostOne>> {
        let propagator = Rc::new(RefCell::new(AtMostOne {
            vars: vars.to_vec(),
            ..AtMostOne::default()
        }));
        let connected = solver.connect_propagator(Box::new(propagator.clone()), vars);
        assert!(connected.is_ok());
        propagator
    }

    /// On every backend that takes a propagator.
    #[test]
    fn a_propagator_takes_part_in_the_search() {
        for &backend in Backend::ALL.iter().filter(|b| b.propagates()) {
            propagator_takes_part(backend);
        }
    }

    fn propagator_takes_part(backend: Backend) {
        let lit = Lit::from_dimacs;
        let mut s = new_solver(backend, &SearchTuning::default());
        let vars: Vec<Var> = (1..=5).map(Var::from_dimacs).collect();
        // At least two of 1..5 would be needed by this clause set unless
        // the propagator cuts: (1 ∨ 2), (3 ∨ 4 ∨ 5), with at most one true
        // this is unsatisfiable.
        s.add_clause(&[lit(1), lit(2)]);
        s.add_clause(&[lit(3), lit(4), lit(5)]);
        let propagator = connect_at_most_one(&mut *s, &vars);
        assert_eq!(s.solve(&[]), SatResult::Unsatisfiable);
        assert!(propagator.borrow().propagated > 0);
        // Without the second clause: one model with exactly 1 or 2 true.
        let mut s = new_solver(backend, &SearchTuning::default());
        s.add_clause(&[lit(1), lit(2)]);
        s.add_clause(&[lit(-6), lit(3)]);
        let propagator = connect_at_most_one(&mut *s, &vars);
        assert_eq!(s.solve(&[lit(6)]), SatResult::Unsatisfiable, "6 forces 3");
        assert_eq!(s.failed_core(), vec![lit(6)]);
        assert_eq!(s.solve(&[]), SatResult::Satisfiable);
        let model = s.model();
        let trues = (1..=5).filter(|&v| model.contains(&lit(v))).count();
        assert_eq!(trues, 1);
        assert!(propagator.borrow().models_checked > 0);
    }
}
