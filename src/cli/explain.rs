//! `--explain`'s driver: when the run found no answer set, a minimal set
//! of the statements it may blame that has none, searched on the program
//! with those statements guarded (`solve::explain`), and printed after the
//! summary.

use super::args::Config;
use super::load::Loaded;
use super::output::{self, Blamed, Outcome};
use super::report::Progress;
use super::{release_at_exit, report_errors};
use crate::diagnostics::{Diagnostic, SourceMap, Span, render_all};
use crate::ground::{Grounding, Parts};
use crate::progress::Counters;
use crate::solve::SolveOptions;
use crate::solve::explain::{Explanation, Scope};
use crate::syntax::ast::Term;
use std::io::Write;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

/// What `--explain` says when the statements it may not blame have no
/// answer set by themselves.
const EXPLAINED_BY_THE_REST: &str =
    "there is no answer set even without any of the statements --explain may blame";

/// `--explain` after the run's result: when there is no answer set, a
/// minimal set of the statements that `scope` blames that has none (in
/// source order; empty when the others have none by themselves). `None`
/// when there is nothing to explain, said on standard error, or when
/// `stop` was set before the explanation was found. `Err` holds the exit
/// code.
pub(super) fn explain(
    loaded: &Loaded,
    overrides: &[(String, Term)],
    scope: Scope,
    config: &Config,
    outcome: Outcome,
    stop: &Arc<AtomicBool>,
) -> Result<Option<Vec<Span>>, u8> {
    let nothing_to_explain = || {
        if config.warnings.shows("other") {
            stderrln!("asp2sat: info: there is nothing to explain: the program has an answer set");
        }
        Ok(None)
    };
    if outcome != Outcome::Unsatisfiable {
        return nothing_to_explain();
    }
    if config.tuning.parallel.threads > 1 && config.warnings.shows("other") {
        stderrln!(
            "asp2sat: info: -t {}: the explanation is searched on one thread",
            config.tuning.parallel.threads
        );
    }
    let guarded = crate::solve::explain::guard(&loaded.statements, scope);
    let counters = Counters::default();
    let mut grounding = Grounding::single(overrides, &counters).stop_at(stop);
    // The run's own grounding has printed the messages already.
    let (program, diagnostics) = grounding.ground(&guarded.statements, &Parts::base());
    if grounding.stopped() {
        return Ok(None);
    }
    let Some(program) = program else {
        return Err(report_errors(
            &diagnostics,
            &loaded.sources,
            "grounding stopped because of errors",
        ));
    };
    let options = SolveOptions {
        translation: config.translation,
        tuning: config.tuning.search,
        ..SolveOptions::default()
    };
    let explanation = crate::solve::explain::minimal_unsatisfiable(
        &program,
        guarded.blamed.len(),
        options,
        stop.clone(),
    );
    release_at_exit(program);
    match explanation {
        Ok(Explanation::Unsatisfiable(numbers)) => {
            Ok(Some(numbers.iter().map(|&n| guarded.blamed[n]).collect()))
        }
        Ok(Explanation::Satisfiable) => nothing_to_explain(),
        Ok(Explanation::Stopped) => Ok(None),
        Err(error) => Err(report_errors(
            &[error],
            &loaded.sources,
            "translation failed",
        )),
    }
}

/// Each statement of an explanation as the JSON output names it.
pub(super) fn located(spans: &[Span], sources: &SourceMap) -> Vec<Blamed> {
    (spans.iter())
        .map(|&span| {
            let (line, column) = sources.line_col(span.file, span.start);
            Blamed {
                file: sources.file(span.file).name.clone(),
                line,
                column,
                text: sources.text(span).to_string(),
            }
        })
        .collect()
}

/// Prints the explanation `spans` of `--explain` (see [`explain`]) after
/// the summary.
pub(super) fn print_explanation(progress: &mut Progress, spans: &[Span], sources: &SourceMap) {
    let messages = if spans.is_empty() {
        format!("info: {EXPLAINED_BY_THE_REST}\n")
    } else {
        let diagnostics: Vec<Diagnostic> = (spans.iter())
            .map(|&span| Diagnostic::info(span, "part of the reason there is no answer set"))
            .collect();
        render_all(&diagnostics, sources)
    };
    let style = progress.style;
    progress.print(|out| out.write_all(output::explanation_text(style, &messages).as_bytes()));
}
