//! The seam between the searches and a SAT solver.
//!
//! Every search (enumeration, optimization, consequences, `--explain`, the
//! minimality check, the threads of `-t`) talks to its solver through
//! [`SatSolver`] alone, in varisat-formula's literals. A backend is a file
//! of this folder implementing the trait, named by [`Backend`];
//! [`new_solver`] is the one place that builds it: varisat (`varisat.rs`,
//! the default) or CaDiCaL (`cadical.rs`, cargo feature `cadical`).

#[cfg(feature = "cadical")]
pub mod cadical;
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

/// A SAT solver the searches can use (`--solver`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Backend {
    #[default]
    Varisat,
    #[cfg(feature = "cadical")]
    Cadical,
}

impl Backend {
    /// Every backend built in.
    pub const ALL: &[Backend] = &[
        Backend::Varisat,
        #[cfg(feature = "cadical")]
        Backend::Cadical,
    ];

    /// Its name, as `--solver` takes it and `--stats` prints it.
    pub fn name(self) -> &'static str {
        match self {
            Backend::Varisat => "varisat",
            #[cfg(feature = "cadical")]
            Backend::Cadical => "cadical",
        }
    }
}

/// A solver of `tuning`'s backend, with its settings.
pub fn new_solver(tuning: &SearchTuning) -> Box<dyn SatSolver> {
    match tuning.backend {
        Backend::Varisat => Box::new(varisat::Varisat::new(tuning)),
        #[cfg(feature = "cadical")]
        Backend::Cadical => Box::new(cadical::Cadical::new(tuning)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::Ordering;

    /// On every backend, an interrupt set before or during a search stops
    /// it; the solver answers again once the flag is cleared.
    #[test]
    fn an_interrupt_stops_the_search() {
        for &backend in Backend::ALL {
            let mut solver = new_solver(&SearchTuning {
                backend,
                ..SearchTuning::default()
            });
            // The pigeonhole principle for 11 pigeons in 10 holes: no model,
            // and no proof of it by resolution in less than minutes.
            let holes = 10;
            let var: Vec<Vec<Lit>> = (0..=holes)
                .map(|_| (0..holes).map(|_| solver.new_var().positive()).collect())
                .collect();
            for pigeon in &var {
                solver.add_clause(pigeon);
            }
            for hole in 0..holes {
                for (a, first) in var.iter().enumerate() {
                    for second in &var[a + 1..] {
                        solver.add_clause(&[!first[hole], !second[hole]]);
                    }
                }
            }
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
}
