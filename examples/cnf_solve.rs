//! Solves a DIMACS CNF (as `asp2sat dimacs` writes it) with one SAT
//! backend and prints its verdict, the time of the search alone and the
//! time of reading and loading: the measurement of the backends on the
//! same formulas. `varisat` is always there; `cadical` and `batsat` need
//! their cargo features.
//!
//! `cargo run --release --all-features --example cnf_solve -- varisat|cadical|batsat FILE.cnf`

use std::time::Instant;
use varisat::CnfFormula;

fn varisat(formula: &CnfFormula) -> Option<bool> {
    let mut solver = varisat::Solver::new();
    solver.add_formula(formula);
    solver.solve().ok()
}

#[cfg(feature = "cadical")]
fn cadical(formula: &CnfFormula) -> Option<bool> {
    use asp2sat::sat::{Outcome, cadical::Cadical};
    let mut solver = Cadical::new();
    solver.add_formula(formula);
    match solver.solve(&[]) {
        Outcome::Sat => Some(true),
        Outcome::Unsat => Some(false),
        Outcome::Interrupted => None,
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
    let solve: fn(&CnfFormula) -> Option<bool> = match backend.as_str() {
        "varisat" => varisat,
        #[cfg(feature = "cadical")]
        "cadical" => cadical,
        #[cfg(feature = "batsat")]
        "batsat" => batsat,
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
