//! The seam between the searches and a SAT solver.
//!
//! Every search (enumeration, optimization, consequences, `--explain`, the
//! minimality check, the threads of `-t`) talks to its solver through
//! [`SatSolver`] alone, in varisat-formula's literals. A backend is a file
//! of this folder implementing the trait; [`new_solver`] is the one place
//! that picks it. varisat (`varisat.rs`) is the only one today.

mod varisat;

use super::SearchTuning;
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
}

/// An incremental SAT solver: clauses only ever added, each call under
/// assumptions of its own.
pub trait SatSolver {
    /// A variable unused so far.
    fn new_var(&mut self) -> Var;

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
}

/// A solver of the backend the searches use, with `tuning`.
pub fn new_solver(tuning: &SearchTuning) -> Box<dyn SatSolver> {
    Box::new(varisat::Varisat::new(tuning))
}
