//! [`SatSolver`] over varisat 0.2 (the copy patched in `vendor/varisat`,
//! which adds its interrupt and its conflict limit).

use super::{SatResult, SatSolver};
use crate::solve::SearchTuning;
use ::varisat::config::SolverConfigUpdate;
use ::varisat::solver::SolverError;
use ::varisat::{ExtendFormula, Solver};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use varisat_formula::{Lit, Var};

pub struct Varisat {
    solver: Solver<'static>,
    /// The conflicts each search may take.
    budget: Option<u64>,
    /// Searches that ended in a model: varisat counts the step of its
    /// search loop that finds one as a conflict, too.
    models: u64,
}

impl Varisat {
    pub fn new(tuning: &SearchTuning) -> Varisat {
        let mut solver = Solver::new();
        solver
            .config(&config_update(tuning))
            .expect("the command line keeps the settings in varisat's ranges");
        Varisat {
            solver,
            budget: None,
            models: 0,
        }
    }
}

/// The settings as an update of varisat's configuration.
fn config_update(tuning: &SearchTuning) -> SolverConfigUpdate {
    let mut update = SolverConfigUpdate::new();
    update.vsids_decay = tuning.vsids_decay;
    update.luby_restart_interval_scale = tuning.luby_restart_unit;
    update.reduce_locals_interval = tuning.reduce_locals_interval;
    update.reduce_mids_interval = tuning.reduce_mids_interval;
    update
}

impl SatSolver for Varisat {
    fn new_var(&mut self) -> Var {
        self.solver.new_var()
    }

    fn add_clause(&mut self, clause: &[Lit]) {
        self.solver.add_clause(clause);
    }

    fn solve(&mut self, assumptions: &[Lit]) -> SatResult {
        self.solver.assume(assumptions);
        let limit = (self.budget).map(|budget| self.solver.conflicts() + budget);
        self.solver.set_conflict_limit(limit);
        match self.solver.solve() {
            Ok(true) => {
                self.models += 1;
                SatResult::Satisfiable
            }
            Ok(false) => SatResult::Unsatisfiable,
            Err(SolverError::Interrupted)
                if limit.is_some_and(|limit| self.solver.conflicts() >= limit) =>
            {
                SatResult::BudgetSpent
            }
            Err(SolverError::Interrupted) => SatResult::Interrupted,
            Err(error) => unreachable!("varisat writes no proof here: {error}"),
        }
    }

    fn model(&self) -> Vec<Lit> {
        self.solver.model().expect("the solver found a model")
    }

    fn failed_core(&self) -> Vec<Lit> {
        (self.solver.failed_core()).map_or_else(Vec::new, <[Lit]>::to_vec)
    }

    fn interrupt_on(&mut self, flag: Arc<AtomicBool>) {
        self.solver.set_interrupt(flag);
    }

    fn fixed(&self, lit: Lit) -> Option<bool> {
        self.solver.fixed(lit)
    }

    fn set_conflict_budget(&mut self, budget: Option<u64>) {
        self.budget = budget;
    }

    fn conflicts(&self) -> u64 {
        self.solver.conflicts() - self.models
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tuning_sets_varisats_configuration() {
        let tuning = SearchTuning {
            vsids_decay: Some(0.5),
            luby_restart_unit: Some(1),
            reduce_locals_interval: Some(1),
            reduce_mids_interval: Some(1),
            ..SearchTuning::default()
        };
        let update = config_update(&tuning);
        assert_eq!(update.vsids_decay, Some(0.5));
        assert_eq!(update.luby_restart_interval_scale, Some(1));
        assert_eq!(update.reduce_locals_interval, Some(1));
        assert_eq!(update.reduce_mids_interval, Some(1));
    }
}
