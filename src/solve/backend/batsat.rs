//! [`SatSolver`] over batsat 0.6 (a MiniSat descendant in Rust), cargo
//! feature `batsat`. Its theory interface reads the solver's own
//! assignment and trail, so a connected [`Propagator`] is told of the
//! trail's new literals at each propagation fixpoint ([`TheoryBridge`]).
//! With the unfounded-set check inside the search it is the fastest of the
//! backends on non-tight programs (fixtures/bench/ANALYSIS.md, "Backend
//! comparison").

use super::{Propagator, SatResult, SatSolver};
use ::batsat::clause::Kind as ClauseKind;
use ::batsat::theory::EmptyTheory;
use ::batsat::{Callbacks, Lit as BLit, SolverInterface, SolverOpts, Theory, TheoryArg, lbool};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use varisat_formula::{Lit, Var};

fn to_batsat(lit: Lit) -> BLit {
    BLit::new(
        ::batsat::Var::unsafe_from_idx(lit.var().index() as u32),
        lit.is_positive(),
    )
}

fn from_batsat(lit: BLit) -> Lit {
    Lit::from_code(lit.idx() as usize)
}

/// The value of `lit` in batsat's current assignment.
fn value(acts: &TheoryArg, lit: Lit) -> Option<bool> {
    let value = acts.value(to_batsat(lit).var());
    (value != lbool::UNDEF).then_some((value == lbool::TRUE) == lit.is_positive())
}

/// batsat's callbacks: its polling for a stop, on the interrupt flag or
/// at the end of the conflict budget, and its learnt clauses counted
/// (one per conflict).
#[derive(Default)]
struct Interrupt {
    flag: Option<Arc<AtomicBool>>,
    budget: Option<u64>,
    /// Clauses learnt in the current search.
    learnt: u64,
}

impl Interrupt {
    fn budget_spent(&self) -> bool {
        self.budget.is_some_and(|budget| self.learnt >= budget)
    }
}

impl Callbacks for Interrupt {
    fn on_new_clause(&mut self, _clause: &[BLit], kind: ClauseKind) {
        if kind == ClauseKind::Learnt {
            self.learnt += 1;
        }
    }

    fn stop(&self) -> bool {
        self.budget_spent() || (self.flag.as_ref()).is_some_and(|flag| flag.load(Ordering::Relaxed))
    }
}

pub struct Batsat {
    solver: ::batsat::Solver<Interrupt>,
    /// Variables created in batsat (it needs each before its first use).
    vars: usize,
    clause: Vec<BLit>,
    assumptions: Vec<BLit>,
    /// The last model, one value per variable.
    model: Option<Vec<bool>>,
    core: Vec<Lit>,
    theory: Option<TheoryBridge>,
}

impl Default for Batsat {
    fn default() -> Batsat {
        Batsat::new()
    }
}

impl Batsat {
    pub fn new() -> Batsat {
        Batsat {
            solver: ::batsat::Solver::new(SolverOpts::default(), Interrupt::default()),
            vars: 0,
            clause: Vec::new(),
            assumptions: Vec::new(),
            model: None,
            core: Vec::new(),
            theory: None,
        }
    }

    /// Creates batsat's variables up to `var`.
    fn note_var(&mut self, var: Var) {
        while self.vars <= var.index() {
            self.solver.new_var_default();
            self.vars += 1;
        }
    }
}

impl SatSolver for Batsat {
    fn new_var(&mut self) -> Var {
        let var = Var::from_index(self.vars);
        self.note_var(var);
        var
    }

    /// batsat's fixed value for the variable, which its phase saving does
    /// not overwrite: every decision tries it (measured against a first
    /// value that phase saving later replaces in fixtures/bench/ANALYSIS.md,
    /// "Bodies tried true first").
    fn new_var_deciding(&mut self, value: bool) -> Var {
        let var = Var::from_index(self.vars);
        self.solver
            .new_var(if value { lbool::TRUE } else { lbool::FALSE }, true);
        self.vars += 1;
        var
    }

    fn add_clause(&mut self, clause: &[Lit]) {
        self.model = None;
        for &lit in clause {
            self.note_var(lit.var());
        }
        self.clause.clear();
        self.clause.extend(clause.iter().map(|&l| to_batsat(l)));
        // `false` once the clauses admit no model: every search says so.
        self.solver.add_clause_reuse(&mut self.clause);
    }

    fn conflicts(&self) -> u64 {
        self.solver.num_conflicts()
    }

    fn fixed(&self, lit: Lit) -> Option<bool> {
        if lit.index() >= self.vars {
            return None;
        }
        let value = self.solver.value_lvl_0(to_batsat(lit));
        (value != lbool::UNDEF).then_some(value == lbool::TRUE)
    }

    fn solve(&mut self, assumptions: &[Lit]) -> SatResult {
        self.model = None;
        self.core.clear();
        for &lit in assumptions {
            self.note_var(lit.var());
        }
        self.assumptions.clear();
        self.assumptions
            .extend(assumptions.iter().map(|&l| to_batsat(l)));
        self.solver.cb_mut().learnt = 0;
        let result = match &mut self.theory {
            Some(theory) => {
                theory.restart();
                self.solver.solve_limited_th(theory, &self.assumptions)
            }
            None => (self.solver).solve_limited_th(&mut EmptyTheory::new(), &self.assumptions),
        };
        if result == lbool::TRUE {
            let model = self.solver.get_model();
            self.model = Some((0..self.vars).map(|v| model[v] == lbool::TRUE).collect());
            SatResult::Satisfiable
        } else if result == lbool::FALSE {
            // batsat's core holds the negations of the failed assumptions.
            let failed = self.solver.unsat_core();
            self.core = (assumptions.iter())
                .filter(|&&lit| failed.contains(&!to_batsat(lit)))
                .copied()
                .collect();
            SatResult::Unsatisfiable
        } else if self.solver.cb_mut().budget_spent() {
            SatResult::BudgetSpent
        } else {
            SatResult::Interrupted
        }
    }

    fn model(&self) -> Vec<Lit> {
        super::model_literals(self.model.as_ref().expect("the solver found a model"))
    }

    fn failed_core(&self) -> Vec<Lit> {
        self.core.clone()
    }

    fn interrupt_on(&mut self, flag: Arc<AtomicBool>) {
        self.solver.cb_mut().flag = Some(flag);
    }

    fn set_conflict_budget(&mut self, budget: Option<u64>) {
        self.solver.cb_mut().budget = budget;
    }

    fn connect_propagator(
        &mut self,
        propagator: Box<dyn Propagator>,
        observed: &[Var],
    ) -> Result<(), Box<dyn Propagator>> {
        if let Some(&max) = observed.iter().max_by_key(|v| v.index()) {
            self.note_var(max);
        }
        let mut watched = vec![false; self.vars];
        for var in observed {
            watched[var.index()] = true;
        }
        self.theory = Some(TheoryBridge {
            propagator,
            watched,
            told: 0,
            level_told: Vec::new(),
            clause: Vec::new(),
            explanation: Vec::new(),
            model: Vec::new(),
        });
        Ok(())
    }

    fn observe(&mut self, vars: &[Var]) {
        if let Some(&max) = vars.iter().max_by_key(|v| v.index()) {
            self.note_var(max);
        }
        if let Some(theory) = &mut self.theory {
            theory.watched.resize(self.vars, false);
            for var in vars {
                theory.watched[var.index()] = true;
            }
        }
    }
}

/// batsat's theory callbacks on a [`Propagator`]: the trail's literals over
/// observed variables are told as they come (batsat calls a check at each
/// propagation fixpoint, before it decides), and the reason clauses become
/// the true literals batsat asks for as an explanation.
struct TheoryBridge {
    propagator: Box<dyn Propagator>,
    /// Per variable: observed.
    watched: Vec<bool>,
    /// How much of batsat's trail the propagator was told of.
    told: usize,
    /// `told` when each decision level began.
    level_told: Vec<usize>,
    clause: Vec<Lit>,
    explanation: Vec<BLit>,
    model: Vec<Lit>,
}

impl TheoryBridge {
    /// A new search starts at the root, which batsat keeps: whatever was
    /// told above it is undone.
    fn restart(&mut self) {
        if !self.level_told.is_empty() {
            self.propagator.backtrack(0);
            self.told = self.level_told[0];
            self.level_told.clear();
        }
    }

    /// Tells the propagator of the trail's literals it has not seen.
    fn tell(&mut self, acts: &TheoryArg) {
        let trail = acts.model();
        if self.told >= trail.len() {
            return;
        }
        self.clause.clear();
        (self.clause).extend(
            (trail[self.told..].iter())
                .filter(|l| self.watched.get(l.var().idx() as usize) == Some(&true))
                .map(|&l| from_batsat(l)),
        );
        self.told = trail.len();
        if !self.clause.is_empty() {
            self.propagator.assigned(&self.clause);
        }
    }

    /// Hands the propagator's literals to batsat until it has none or one
    /// is a conflict; whether any was new.
    fn propagate(&mut self, acts: &mut TheoryArg) -> bool {
        let mut propagated = false;
        self.tell(acts);
        while let Some(lit) = self.propagator.propagate() {
            if value(acts, lit) == Some(true) {
                continue;
            }
            propagated = true;
            if !acts.propagate(to_batsat(lit)) {
                return true;
            }
            self.tell(acts);
        }
        propagated
    }
}

impl Theory for TheoryBridge {
    fn final_check(&mut self, acts: &mut TheoryArg) {
        if self.propagate(acts) {
            return;
        }
        self.model.clear();
        self.model
            .extend(acts.model().iter().map(|&l| from_batsat(l)));
        if !self.propagator.check_model(&self.model) {
            self.clause.clear();
            if self.propagator.clause(&mut self.clause) {
                let clause: Vec<BLit> = self.clause.iter().map(|&l| to_batsat(l)).collect();
                acts.raise_conflict(&clause, true);
            }
        }
    }

    fn partial_check(&mut self, acts: &mut TheoryArg) {
        self.propagate(acts);
    }

    fn create_level(&mut self) {
        self.level_told.push(self.told);
        self.propagator.new_level();
    }

    fn pop_levels(&mut self, n: usize) {
        let level = self.level_told.len() - n;
        self.told = self.level_told[level];
        self.level_told.truncate(level);
        self.propagator.backtrack(level);
    }

    fn n_levels(&self) -> usize {
        self.level_told.len()
    }

    fn explain_propagation(&mut self, p: BLit) -> &[BLit] {
        self.clause.clear();
        self.propagator.reason(from_batsat(p), &mut self.clause);
        self.explanation.clear();
        (self.explanation).extend(
            (self.clause.iter())
                .filter(|&&l| l != from_batsat(p))
                .map(|&l| !to_batsat(l)),
        );
        &self.explanation
    }
}
