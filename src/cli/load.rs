//! The inputs of a run: each file read and parsed, then every file it
//! `#include`s, once each; the constants of `-c`; and the grounding of the
//! parts a run calls, with gringo's messages printed once.

use super::args::Warnings;
use super::interrupt::Interrupt;
use super::output::Timings;
use super::text::{Text, read_input, read_text};
use super::{EXIT_INPUT_ERROR, input_error, report_errors};
use crate::diagnostics::{Diagnostic, FileId, SourceMap, Span, render_all};
use crate::ground::{Assigned, Grounding, Parts, program::GroundProgram};
use crate::progress::{Counters, Stage};
use crate::syntax::ast::{Statement, StatementKind, Term};
use crate::syntax::{Dialect, parse_in, parse_term};
use rustc_hash::FxHashSet;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Everything read from the inputs, parsed.
pub(super) struct Loaded {
    pub(super) sources: SourceMap,
    pub(super) statements: Vec<Statement>,
    pub(super) diagnostics: Vec<Diagnostic>,
    /// The `#include <incmode>.` that asks for clingo's incremental mode.
    pub(super) incremental: Option<Span>,
}

/// Reads and parses the inputs, then every file they `#include`, once each.
/// Standard input is read as `interrupt` says, when there is one. A program
/// one of whose files has a construct only gringo 3 has is read again, all
/// of it, as gringo 3 reads it ([`Dialect`]).
fn load(inputs: &[String], interrupt: Option<&Interrupt>) -> Result<Loaded, String> {
    let mut loaded = Loaded {
        sources: SourceMap::default(),
        statements: Vec::new(),
        diagnostics: Vec::new(),
        incremental: None,
    };
    let mut seen: Vec<PathBuf> = Vec::new();
    let mut pieces: Vec<Piece> = Vec::new();
    // A file with a construct only gringo 3 has makes the program gringo 3's.
    let mut gringo3 = false;
    // (name, directory of the including file, span of the `#include`).
    let mut queue: Vec<(String, Option<PathBuf>, Option<Span>)> = if inputs.is_empty() {
        vec![("-".to_string(), None, None)]
    } else {
        inputs.iter().map(|i| (i.clone(), None, None)).collect()
    };
    queue.reverse();
    while let Some((name, base, included_at)) = queue.pop() {
        let (display, path, text) = if name == "-" {
            let text = match interrupt {
                Some(interrupt) => interrupt.read_stdin(),
                None => read_text(std::io::stdin()),
            };
            let text = text.map_err(|e| format!("could not read standard input: {e}"))?;
            // Named `-` in messages, as clingo names it.
            ("-".to_string(), None, text)
        } else {
            let path = resolve(&name, base.as_deref());
            let canonical = path.canonicalize().unwrap_or_else(|_| path.clone());
            if seen.contains(&canonical) {
                continue;
            }
            seen.push(canonical);
            let text = match read_input(&path, included_at.is_some()) {
                Ok(text) => text,
                Err(e) => {
                    let message = format!("file could not be opened: {}: {e}", path.display());
                    match included_at {
                        // A failed `#include` is located at the directive.
                        Some(span) => {
                            pieces.push(Piece::Diagnostic(Diagnostic::error(span, message)));
                            continue;
                        }
                        None => return Err(message),
                    }
                }
            };
            (path.display().to_string(), Some(path), text)
        };
        let Text { text, unreadable } = text;
        let file = loaded.sources.add(display, text);
        if let Some((at, message)) = unreadable {
            // The text is not what the author wrote there: not parsed.
            let diagnostic = Diagnostic::error(Span::new(file, at.start, at.end), message);
            pieces.push(Piece::Diagnostic(diagnostic));
            continue;
        }
        let parsed = parse_in(&loaded.sources.file(file).text, file, Dialect::Clingo);
        gringo3 |= parsed.gringo3_seen;
        let statements = parsed.statements;
        let dir = path
            .as_ref()
            .and_then(|p| p.parent())
            .map(Path::to_path_buf);
        let mut includes = Vec::new();
        for statement in &statements {
            match &statement.kind {
                StatementKind::Include {
                    path,
                    library: true,
                } if path == "incmode" => {
                    loaded.incremental.get_or_insert(statement.span);
                }
                StatementKind::Include { path, .. } => includes.push((
                    path.clone(),
                    dir.clone().or_else(|| Some(PathBuf::from("."))),
                    Some(statement.span),
                )),
                _ => {}
            }
        }
        queue.extend(includes.into_iter().rev());
        pieces.push(Piece::File {
            file,
            statements,
            diagnostics: parsed.diagnostics,
        });
    }
    for piece in pieces {
        match piece {
            Piece::File {
                statements,
                diagnostics,
                ..
            } if !gringo3 => {
                loaded.diagnostics.extend(diagnostics);
                loaded.statements.extend(statements);
            }
            Piece::File { file, .. } => {
                let parsed = parse_in(&loaded.sources.file(file).text, file, Dialect::Gringo3);
                loaded.diagnostics.extend(parsed.diagnostics);
                loaded.statements.extend(parsed.statements);
            }
            Piece::Diagnostic(diagnostic) => loaded.diagnostics.push(diagnostic),
        }
    }
    Ok(loaded)
}

/// What loading met, in order: a file parsed, or a message of its own (an
/// `#include` that failed, a text that could not be read).
enum Piece {
    File {
        file: FileId,
        statements: Vec<Statement>,
        diagnostics: Vec<Diagnostic>,
    },
    Diagnostic(Diagnostic),
}

/// `#include` paths are relative to the including file, as in gringo.
fn resolve(name: &str, base: Option<&Path>) -> PathBuf {
    let path = PathBuf::from(name);
    match base {
        Some(dir) if path.is_relative() && dir.join(&path).exists() => dir.join(path),
        _ => path,
    }
}

/// Parses `-c name=value` values as terms.
fn parse_overrides(
    consts: &[(String, String)],
    sources: &mut SourceMap,
) -> Result<Vec<(String, Term)>, Vec<Diagnostic>> {
    let mut overrides = Vec::new();
    let mut errors = Vec::new();
    for (name, value) in consts {
        // Named as gringo names it in messages: `<n=5>:1:1-2: error: ...`.
        let file: FileId = sources.add(format!("<{name}={value}>"), value.clone());
        match parse_term(value, file) {
            Ok(term) => overrides.push((name.clone(), term)),
            Err(e) => errors.push(e),
        }
    }
    if errors.is_empty() {
        Ok(overrides)
    } else {
        Err(errors)
    }
}

/// Reads and parses the inputs and the `-c` constants, reporting errors as
/// gringo does. `Err` holds the exit code; a read of standard input that
/// `interrupt` stopped reports nothing, the run ends as interrupted.
pub(super) fn load_program(
    inputs: &[String],
    consts: &[(String, String)],
    timings: &mut Timings,
    interrupt: Option<&Interrupt>,
) -> Result<(Loaded, Vec<(String, Term)>), u8> {
    let started = Instant::now();
    let mut loaded = match load(inputs, interrupt) {
        Ok(loaded) => loaded,
        Err(_) if interrupt.is_some_and(Interrupt::stopped) => {
            return Err(EXIT_INPUT_ERROR);
        }
        Err(message) => return Err(input_error(&message)),
    };
    if loaded.diagnostics.iter().any(Diagnostic::is_error) {
        return Err(report_errors(
            &loaded.diagnostics,
            &loaded.sources,
            "parsing failed",
        ));
    }
    let overrides = match parse_overrides(consts, &mut loaded.sources) {
        Ok(o) => o,
        Err(errors) => return Err(report_errors(&errors, &loaded.sources, "invalid constant")),
    };
    timings.parse = started.elapsed();
    Ok((loaded, overrides))
}

/// Grounds the parts that `parts` calls with `grounding` and returns
/// their program, printing the messages that are not in `printed` yet (the
/// steps of incremental mode repeat most of theirs). `Err` holds the exit
/// code.
pub(super) fn ground_parts(
    grounding: &mut Grounding,
    loaded: &Loaded,
    parts: &Parts,
    warnings: &Warnings,
    printed: &mut FxHashSet<String>,
) -> Result<GroundProgram, u8> {
    ground_call(grounding, loaded, parts, warnings, printed)?;
    Ok(step_program(grounding, Assigned::Facts))
}

/// [`ground_parts`] without the program, for a grounding kept across the
/// steps of incremental mode ([`step_program`] gives it).
pub(super) fn ground_call(
    grounding: &mut Grounding,
    loaded: &Loaded,
    parts: &Parts,
    warnings: &Warnings,
    printed: &mut FxHashSet<String>,
) -> Result<(), u8> {
    grounding.counters().enter(Stage::Grounding);
    let diagnostics = match grounding.ground_call(&loaded.statements, parts) {
        Ok(diagnostics) => diagnostics,
        Err(diagnostics) => {
            return Err(report_errors(
                &diagnostics,
                &loaded.sources,
                "grounding stopped because of errors",
            ));
        }
    };
    for diagnostic in diagnostics.iter().filter(|d| warnings.shows(d.group)) {
        let text = render_all(std::slice::from_ref(diagnostic), &loaded.sources);
        if !printed.contains(&text) {
            stderr!("{text}");
            printed.insert(text);
        }
    }
    Ok(())
}

/// The program of the last call of `grounding` ([`Grounding::program`]).
pub(super) fn step_program(grounding: &mut Grounding, assigned: Assigned) -> GroundProgram {
    let program = grounding.program(assigned);
    // From here on, the simplified program's size.
    (grounding.counters()).grounded(program.atoms.len(), program.rules.len());
    program
}

/// Reads, parses and grounds the inputs for `dimacs` and `ground`, which
/// ground one program: incremental mode, a sequence of them, is `solve`'s.
/// `Err` holds the exit code.
pub(super) fn load_and_ground(
    inputs: &[String],
    consts: &[(String, String)],
    timings: &mut Timings,
    counters: &Counters,
) -> Result<(GroundProgram, SourceMap), u8> {
    let (loaded, overrides) = load_program(inputs, consts, timings, None)?;
    if let Some(span) = loaded.incremental {
        let error = Diagnostic::error(
            span,
            "clingo's incremental mode grounds and solves one program per step: \
             `asp2sat solve` runs it, this command grounds a single program",
        );
        return Err(report_errors(
            &[error],
            &loaded.sources,
            "grounding stopped because of errors",
        ));
    }
    let ground_start = Instant::now();
    let mut printed = FxHashSet::default();
    let program = ground_parts(
        &mut Grounding::single(&overrides, counters),
        &loaded,
        &Parts::base(),
        &Warnings::default(),
        &mut printed,
    )?;
    timings.ground = ground_start.elapsed();
    Ok((program, loaded.sources))
}
