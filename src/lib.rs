//! asp2sat: Answer Set Programming through SAT.
//!
//! The pipeline is a chain of stages passing plain data, see
//! `ARCHITECTURE.md`: text → [`syntax`] (spanned AST) → [`ground`] (ground
//! program with dense atom ids) → [`translate`] (CNF clauses into any
//! varisat-formula `ExtendFormula` sink) → [`solve`] (answer sets). Only [`cli`] does
//! I/O.

pub mod cli;
pub mod diagnostics;
pub mod dimacs;
mod graph;
pub mod ground;
pub mod ground_text;
pub mod progress;
pub mod regress;
pub mod render;
pub mod solve;
pub mod symbols;
pub mod syntax;
#[cfg(test)]
pub(crate) mod testing;
pub mod translate;

use diagnostics::{Diagnostic, SourceMap, render_all};

/// Parses, grounds and solves one program given as text, returning up to
/// `max_models` answer sets (0 for all), each as its shown atoms in clingo's
/// printed form, sorted in clingo's term order. Errors are rendered as the
/// command line renders them. `#include` is not available here: it needs
/// file I/O, which only the command line does.
pub fn answer_sets(program: &str, max_models: usize) -> Result<Vec<Vec<String>>, String> {
    let options = solve::SolveOptions {
        max_models,
        ..solve::SolveOptions::default()
    };
    answer_sets_with(program, options)
}

/// [`answer_sets`] with every option of the solver.
pub fn answer_sets_with(
    program: &str,
    options: solve::SolveOptions,
) -> Result<Vec<Vec<String>>, String> {
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
    let mut enumerator =
        solve::Enumerator::new(&ground, options).map_err(|e| fail(&[e], &sources))?;
    let mut answers = Vec::new();
    while let Some(answer) = enumerator.next_answer_set() {
        answers.push(answer.atoms(&ground.symbols));
    }
    Ok(answers)
}

#[cfg(test)]
mod tests {
    use crate::ground::program::GroundProgram;
    use crate::testing::{Rng, random_program, shown_of, stable_models};

    /// A ground program in the input language (`asp2sat ground`'s text),
    /// so that it goes through the whole pipeline: parser, grounder,
    /// simplification, translation, solver.
    fn to_text(program: &GroundProgram) -> String {
        let mut text = Vec::new();
        crate::ground_text::write(&mut text, program).expect("writing into a Vec");
        String::from_utf8(text).expect("symbols are UTF-8")
    }

    /// Random propositional programs with hidden atoms and `#show` terms,
    /// written out as text: the answer sets of the whole pipeline equal a
    /// brute-force stable-model checker's. This also checks that the ground
    /// text means what the ground program means.
    #[test]
    fn pipeline_matches_brute_force_on_random_programs() {
        let mut rng = Rng::new(2026);
        let mut compared = 0;
        for _ in 0..3000 {
            let program = random_program(&mut rng, 7, true);
            let text = to_text(&program);
            let mut expected: Vec<Vec<String>> = stable_models(&program)
                .into_iter()
                .map(|m| {
                    shown_of(&program, m)
                        .into_iter()
                        .map(|s| program.symbols.display(s).to_string())
                        .collect()
                })
                .collect();
            let mut actual = crate::answer_sets(&text, 0).unwrap_or_else(|e| panic!("{text}\n{e}"));
            expected.sort();
            actual.sort();
            assert_eq!(actual, expected, "program:\n{text}");
            compared += 1;
        }
        assert!(compared == 3000, "only {compared} programs were compared");
    }
}
