//! Solves a DIMACS CNF (as `asp2sat dimacs` writes it) with one SAT
//! backend and prints its verdict, the time of the search alone and the
//! time of reading and loading: the measurement of the backends of the
//! solver seam (as `--solver` names them) on the same formulas.
//!
//! `cargo run --release --example cnf_solve -- varisat|cadical|batsat FILE.cnf`

use asp2sat::solve::SearchTuning;
use asp2sat::solve::backend::{Backend, SatResult, new_solver};
use std::time::Instant;
use varisat::CnfFormula;

/// The verdict of a backend on a formula: `None` when it was interrupted.
fn solve(backend: Backend, formula: &CnfFormula) -> Option<bool> {
    let mut solver = new_solver(backend, &SearchTuning::default());
    for _ in 0..formula.var_count() {
        solver.new_var();
    }
    for clause in formula.iter() {
        solver.add_clause(clause);
    }
    match solver.solve(&[]) {
        SatResult::Satisfiable => Some(true),
        SatResult::Unsatisfiable => Some(false),
        SatResult::Interrupted | SatResult::BudgetSpent => None,
    }
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
    let Some(&backend) = Backend::ALL.iter().find(|b| b.name() == backend) else {
        eprintln!("backend {backend}: unknown or not built (features cadical, batsat)");
        std::process::exit(2);
    };
    let searched = Instant::now();
    let verdict = solve(backend, &formula);
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
