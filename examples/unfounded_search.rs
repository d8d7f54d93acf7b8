//! Solves the given files with the unfounded-set check inside the search
//! (`src/solve/unfounded_propagator.rs`) and prints the number of answer
//! sets found (up to N, 0 for all; default 1), the first one's atom count
//! and the search's counters: the measurement behind the choice of solver
//! for non-tight programs, on batsat (the default) or CaDiCaL.
//!
//! `cargo run --release --example unfounded_search -- [-n N] [--backend batsat|cadical] FILES`

use asp2sat::diagnostics::{SourceMap, render_all};
use asp2sat::solve::backend::Backend;
use asp2sat::solve::unfounded_propagator::answer_sets;
use asp2sat::{ground, syntax};
use std::time::Instant;

fn backend(name: &str) -> Backend {
    match Backend::ALL
        .iter()
        .find(|b| b.name() == name && b.propagates())
    {
        Some(&backend) => backend,
        None => {
            eprintln!(
                "backend {name}: takes no propagator, or not built (features batsat, cadical)"
            );
            std::process::exit(2);
        }
    }
}

fn main() {
    let start = Instant::now();
    let mut sources = SourceMap::default();
    let mut statements = Vec::new();
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let mut max_models = 1;
    let mut solve = backend(if cfg!(feature = "batsat") {
        "batsat"
    } else {
        "cadical"
    });
    loop {
        match args.first().map(String::as_str) {
            Some("-n") if args.len() >= 2 => {
                max_models = args[1].parse().expect("-n takes a number");
                args.drain(..2);
            }
            Some("--backend") if args.len() >= 2 => {
                solve = backend(&args[1]);
                args.drain(..2);
            }
            _ => break,
        }
    }
    for path in args {
        let text = std::fs::read_to_string(&path).expect("a readable UTF-8 file");
        let file = sources.add(&path, &text);
        let (parsed, errors) = syntax::parse_program(&text, file);
        if !errors.is_empty() {
            eprint!("{}", render_all(&errors, &sources));
            std::process::exit(65);
        }
        statements.extend(parsed);
    }
    let (program, diagnostics) = ground::ground(&statements, &[]);
    let Some(program) = program else {
        eprint!("{}", render_all(&diagnostics, &sources));
        std::process::exit(65);
    };
    let grounded = start.elapsed();
    match answer_sets(&program, max_models, solve) {
        Ok((models, stats)) => {
            let result = match models.first() {
                Some(model) => format!(
                    "SATISFIABLE ({} answer sets, the first with {} true atoms)",
                    models.len(),
                    model.iter().filter(|&&v| v).count()
                ),
                None => "UNSATISFIABLE".to_string(),
            };
            println!("{result}");
            println!("ground {grounded:?}, total {:?}", start.elapsed());
            println!("{stats:?}");
        }
        Err(why) => {
            eprintln!("unsupported: {}", why.0);
            std::process::exit(1);
        }
    }
}
