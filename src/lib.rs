//! asp2sat: Answer Set Programming through SAT.
//!
//! The pipeline is a chain of stages passing plain data, see
//! `ARCHITECTURE.md`: text → [`syntax`] (spanned AST) → [`ground`] (ground
//! program with dense atom ids) → [`translate`] (CNF clauses into any
//! varisat `ExtendFormula` sink) → [`solve`] (answer sets). Only [`cli`] does
//! I/O.

pub mod cli;
pub mod diagnostics;
pub mod dimacs;
mod graph;
pub mod ground;
pub mod solve;
pub mod symbols;
pub mod syntax;
pub mod translate;

use diagnostics::{Diagnostic, SourceMap, render_all};

/// Parses, grounds and solves one program given as text, returning up to
/// `max_models` answer sets (0 for all), each as its shown atoms in clingo's
/// printed form, sorted in clingo's term order. Errors are rendered as the
/// command line renders them. `#include` is not available here: it needs
/// file I/O, which only the command line does.
pub fn answer_sets(program: &str, max_models: usize) -> Result<Vec<Vec<String>>, String> {
    let mut sources = SourceMap::default();
    let file = sources.add("<string>", program);
    let fail = |diagnostics: &[Diagnostic], sources: &SourceMap| render_all(diagnostics, sources);
    let (statements, errors) = syntax::parse_program(program, file);
    if !errors.is_empty() {
        return Err(fail(&errors, &sources));
    }
    let (ground, diagnostics) = ground::ground(&statements, &[]);
    let Some(ground) = ground else {
        return Err(fail(&diagnostics, &sources));
    };
    let options = solve::SolveOptions {
        max_models,
        ..solve::SolveOptions::default()
    };
    let mut enumerator =
        solve::Enumerator::new(&ground, options).map_err(|e| fail(&[e], &sources))?;
    let mut answers = Vec::new();
    while let Some(answer) = enumerator.next_answer_set() {
        answers.push(
            answer
                .shown
                .iter()
                .map(|&s| ground.symbols.display(s).to_string())
                .collect(),
        );
    }
    Ok(answers)
}
