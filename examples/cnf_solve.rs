//! Solves a DIMACS CNF (as `asp2sat dimacs` writes it) with one SAT
//! backend and prints its verdict, the time of the search alone and the
//! time of reading and loading: the measurement of the backends on the
//! same formulas. `varisat` is always there; `cadical` (through the
//! solver seam, as `--solver` uses it) and `batsat` need their cargo
//! features.
//!
//! `cargo run --release --all-features --example cnf_solve -- varisat|cadical|batsat FILE.cnf`

use asp2sat::solve::SearchTuning;
use asp2sat::solve::backend::{Backend, SatResult, new_solver};
use std::time::Instant;
use varisat::CnfFormula;

/// A backend's verdict on a formula: `None` when it was interrupted.
type Solve = Box<dyn Fn(&CnfFormula) -> Option<bool>>;

/// The verdict of a backend of the solver seam (`--solver`).
fn seam(backend: Backend, formula: &CnfFormula) -> Option<bool> {
    let mut solver = new_solver(&SearchTuning {
        backend,
        ..SearchTuning::default()
    });
    for clause in formula.iter() {
        solver.add_clause(clause);
    }
    match solver.solve(&[]) {
        SatResult::Satisfiable => Some(true),
        SatResult::Unsatisfiable => Some(false),
        SatResult::Interrupted => None,
    }
}

#[cfg(feature = "batsat")]
fn batsat(formula: &CnfFormula) -> Option<bool> {
    use batsat::{SolverInterface, lbool};
    let mut solver = asp2sat::solve::unfounded_search::batsat_solver(formula);
    let result = solver.solve_limited(&[]);
    (result != lbool::UNDEF).then_some(result == lbool::TRUE)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [backend, path] = &args[..] else {
        eprintln!("usage: cnf_solve varisat|cadical|batsat FILE.cnf");
        std::process::exit(2);
    };
    let start = Instant::now();
    let file = std::fs::File::open(path).expect("a readable file");
    let formula =
        varisat::dimacs::DimacsParser::parse(std::io::BufReader::new(file)).expect("a DIMACS CNF");
    let read = start.elapsed();
    let seam_backend = Backend::ALL.iter().find(|b| b.name() == backend);
    let solve: Solve = match (seam_backend, backend.as_str()) {
        (Some(&seam_backend), _) => Box::new(move |formula| seam(seam_backend, formula)),
        #[cfg(feature = "batsat")]
        (None, "batsat") => Box::new(batsat),
        _ => {
            eprintln!("backend {backend}: unknown or not built (features cadical, batsat)");
            std::process::exit(2);
        }
    };
    let searched = Instant::now();
    let verdict = solve(&formula);
    let searched = searched.elapsed();
    println!(
        "{} ({} variables, {} clauses): read {read:?}, load and search {searched:?}",
        match verdict {
            Some(true) => "SATISFIABLE",
            Some(false) => "UNSATISFIABLE",
            None => "UNKNOWN",
        },
        formula.var_count(),
        formula.len()
    );
    std::process::exit(match verdict {
        Some(true) => 10,
        Some(false) => 20,
        None => 0,
    });
}
