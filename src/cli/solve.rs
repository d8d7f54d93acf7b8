//! The run of `solve` (and of `explain` and `render`): the inputs read and
//! grounded, one solver call or one per step of clingo's incremental mode,
//! each `solve::driver::solve_call` with its events printed by
//! [`CallReport`], then `--explain`'s explanation and the summary.

use super::args::{Config, Projection};
use super::explain;
use super::interrupt::{self, Interrupt};
use super::load::{Loaded, ground_call, load_program, step_program};
use super::output::{self, Outcome, Sizes, Timings};
use super::report::{CallReport, Progress};
use super::{EXIT_INPUT_ERROR, pictures, release_at_exit, report_errors};
use crate::diagnostics::{Diagnostic, SourceMap};
use crate::ground::incremental::{Incremental, StepResult};
use crate::ground::{Assigned, Grounding, Parts, program::GroundProgram};
use crate::progress::Counters;
use crate::solve::SolveStats;
use crate::solve::backend::Backend;
use crate::solve::driver::{self, Call, Consequences, Event, Leftovers, Plan, Report};
use crate::solve::optimize::OptMode;
use crate::solve::portfolio::Threads;
use crate::solve::steps::StepSolver;
use crate::syntax::ast::Term;
use rustc_hash::FxHashSet;
use std::cell::RefCell;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// Solves the program of `config`, printing as clingo does; returns the
/// exit code.
pub(super) fn solve(config: Config, counters: Arc<Counters>) -> u8 {
    let progress = RefCell::new(Progress::new(&config, counters.clone()));
    warn_oversubscription(config.tuning.parallel.threads);
    let interrupt = interrupt::arm(config.time_limit);
    {
        let mut progress = progress.borrow_mut();
        let style = progress.style;
        progress.print(|out| output::write_header(out, style, &config.inputs));
    }
    let mut timings = Timings::default();
    let loaded = load_program(
        &config.inputs,
        &config.consts,
        &mut timings,
        Some(&interrupt),
    );
    let (mut loaded, overrides) = match loaded {
        _ if interrupt.noticed(&progress) => return stopped_before_solving(&progress),
        Ok(loaded) => loaded,
        Err(code) => return unknown_after_error(&progress, code),
    };
    progress.borrow_mut().record.timings.parse = timings.parse;
    let incremental = match incremental_mode(&loaded, &overrides, &config) {
        Ok(incremental) => incremental,
        Err(code) => return unknown_after_error(&progress, code),
    };
    if config.pictures.svg.is_some() {
        pictures::show_vis_atoms(&mut loaded.statements);
    }
    let steps = solve_steps(
        &mut loaded,
        &overrides,
        incremental.as_ref(),
        &config,
        (&progress, &interrupt),
        &counters,
    );
    let last = match steps {
        Ok(last) => last,
        Err(code) => return unknown_after_error(&progress, code),
    };
    let interrupted = progress.borrow().record.interrupted;
    let (outcome, sizes) = match last {
        Some((call, sizes)) => (outcome(&call, interrupted.is_some()), Some(sizes)),
        None => (Outcome::Unknown, None), // incremental mode with imax = 0
    };
    let blamed = match config.explain.filter(|_| interrupted.is_none()) {
        Some(scope) => {
            let stop = &interrupt.stop;
            match explain::explain(&loaded, &overrides, scope, &config, outcome, stop) {
                Ok(blamed) => blamed,
                Err(code) => return unknown_after_error(&progress, code),
            }
        }
        None => None,
    };
    // The time limit or a signal may have stopped the explanation.
    interrupt.noticed(&progress);
    let mut progress = progress.borrow_mut();
    let interrupted = progress.record.interrupted;
    progress.record.explanation =
        (blamed.as_ref()).map(|spans| explain::located(spans, &loaded.sources));
    let sizes = sizes.filter(|_| config.stats);
    progress.finish(outcome, sizes.as_ref(), interrupted);
    if let Some(spans) = blamed {
        explain::print_explanation(&mut progress, &spans, &loaded.sources);
    }
    if let Some(code) = progress.output_failure() {
        return code;
    }
    if let Some(error) = &progress.picture_error {
        return error.exit_code;
    }
    outcome.exit_code(progress.record.models, interrupted.is_some())
}

/// The end of a run stopped while its inputs were read: `UNKNOWN` and the
/// interrupted summary.
fn stopped_before_solving(progress: &RefCell<Progress>) -> u8 {
    let mut progress = progress.borrow_mut();
    let interrupted = progress.record.interrupted;
    progress.finish(Outcome::Unknown, None, interrupted);
    Outcome::Unknown.exit_code(progress.record.models, true)
}

/// clingo's warning, whatever `-W` says, when there are more threads than
/// processors. A single thread never asks: counting the processors reads
/// the cgroup's files, 0.3 ms of a run that may take 5.
fn warn_oversubscription(threads: usize) {
    if threads > 1
        && let Ok(cpus) = std::thread::available_parallelism()
        && threads > cpus.get()
    {
        stderrln!(
            "*** Warn : (asp2sat): Oversubscription: #Threads={threads} exceeds logical CPUs={cpus}."
        );
    }
}

/// clingo's incremental mode, when the program asks for it with
/// `#include <incmode>.` (its constants read). `Err` holds the exit code.
fn incremental_mode(
    loaded: &Loaded,
    overrides: &[(String, Term)],
    config: &Config,
) -> Result<Option<Incremental>, u8> {
    let incremental = match loaded.incremental {
        None => None,
        Some(span) => match Incremental::new(&loaded.statements, overrides, span) {
            Ok(incremental) => Some(incremental),
            Err(errors) => return Err(report_errors(&errors, &loaded.sources, "invalid constant")),
        },
    };
    if let (Some(span), Some(_)) = (loaded.incremental, config.explain) {
        let error = Diagnostic::error(
            span,
            "--explain explains a single program: clingo's incremental mode solves one per step",
        );
        return Err(report_errors(
            &[error],
            &loaded.sources,
            "nothing was solved",
        ));
    }
    Ok(incremental)
}

/// Grounds and solves one program, or one per step of incremental mode,
/// until the steps end or the run is interrupted; returns the last call
/// and its sizes (none when incremental mode solves no step). `Err` holds
/// the exit code.
fn solve_steps(
    loaded: &mut Loaded,
    overrides: &[(String, Term)],
    incremental: Option<&Incremental>,
    config: &Config,
    (progress, interrupt): (&RefCell<Progress>, &Interrupt),
    counters: &Counters,
) -> Result<Option<(Call, Sizes)>, u8> {
    let plan = config.plan();
    let stop = &interrupt.stop;
    let mut grounding = match incremental {
        Some(_) => Grounding::incremental(overrides, counters),
        None => Grounding::single(overrides, counters),
    }
    .stop_at(stop);
    let mut step_solver = incremental.map(|_| StepSolver::new(&config.tuning.search, stop.clone()));
    let mut printed = FxHashSet::default();
    let mut last: Option<(Call, Sizes)> = None;
    // The last call's program and search: freed when another step follows,
    // left to the process's exit after the last, as the grounding is.
    let mut kept = None;
    for step in 0.. {
        let parts = match incremental {
            None if step == 0 => Parts::base(),
            Some(incremental) if incremental.solves(step, last.as_ref().map(|c| c.0.result())) => {
                incremental.parts(step)
            }
            _ => break,
        };
        drop(kept.take());
        let ground_start = Instant::now();
        ground_call(
            &mut grounding,
            loaded,
            &parts,
            &config.warnings,
            &mut printed,
        )?;
        progress.borrow_mut().record.timings.ground += ground_start.elapsed();
        if interrupt.noticed(progress) {
            break; // what was ground is not a program
        }
        // A step after the first whose "unsatisfiable" another step follows
        // may be proven so by the solver kept across the steps; the others
        // are searched as programs of their own, so that what is reported
        // of them is as without it.
        let ask = incremental.is_some_and(|incremental| {
            step > 0 && incremental.solves(step + 1, Some(StepResult::Unsatisfiable))
        });
        if let Some(proof) = add_step_and_ask(&mut step_solver, &mut grounding, ask, progress) {
            last = Some(unsatisfiable_step(&proof, config, progress)?);
            continue;
        }
        if ask && incremental.is_some_and(|i| !i.solves(step + 1, Some(StepResult::Satisfiable))) {
            // Not proven unsatisfiable, so most likely the last step: its
            // search gets the solver's memory.
            drop(step_solver.take());
        }
        let ground_start = Instant::now();
        let mut program = step_program(&mut grounding, Assigned::Facts);
        progress.borrow_mut().record.timings.ground += ground_start.elapsed();
        if incremental.is_none() && config.explain.is_none() {
            // Never grounded again: their memory (a big instance's facts)
            // is the solver's now.
            loaded.statements = Vec::new();
        }
        project(&mut program, config.project);
        // Shared with the search threads of `-t`, which may outlive the call.
        let program = Arc::new(program);
        let (call, sizes, leftovers) = solve_call(
            &program,
            &plan,
            config,
            (progress, stop),
            &loaded.sources,
            step == 0,
        )?;
        kept = Some((program, leftovers));
        last = Some((call, sizes));
        if interrupt.noticed(progress) {
            break;
        }
    }
    release_at_exit((kept, grounding, step_solver));
    Ok(last)
}

/// A step proven to have no answer set by the solver kept across the
/// steps: its program with its query open, and what proving it took.
struct Proof {
    program: GroundProgram,
    translate_time: std::time::Duration,
    asked: Instant,
    backend: Backend,
    sizes: Sizes,
}

/// Adds the step just ground to the solver kept across the steps (given
/// up for good at a step that is not modular), and, with `ask`, whether it
/// proves that the step has no answer set.
fn add_step_and_ask(
    step_solver: &mut Option<StepSolver>,
    grounding: &mut Grounding,
    ask: bool,
    progress: &RefCell<Progress>,
) -> Option<Proof> {
    let solver = step_solver.as_mut()?;
    if !grounding.last_call_modular() {
        *step_solver = None;
        return None;
    }
    let ground_start = Instant::now();
    let program = step_program(grounding, Assigned::Open);
    progress.borrow_mut().record.timings.ground += ground_start.elapsed();
    let translate_start = Instant::now();
    let Ok(added) = solver.add_step(&program, &grounding.assigned()) else {
        *step_solver = None; // each step searched as a program of its own
        return None;
    };
    let translate_time = translate_start.elapsed();
    let asked = Instant::now();
    if !ask || !solver.unsatisfiable() {
        return None;
    }
    let sizes = Sizes {
        solver: solver.backend().name(),
        atoms: program.atoms.len(),
        rules: program.rules.len(),
        variables: added.variables,
        clauses: added.clauses,
        loop_rounds: 0,
        conflicts: solver.conflicts(),
    };
    Some(Proof {
        program,
        translate_time,
        asked,
        backend: solver.backend(),
        sizes,
    })
}

/// Reports the call of a step that `proof` shows to have no answer set as
/// the search of its program would. `Err` holds the exit code.
fn unsatisfiable_step(
    proof: &Proof,
    config: &Config,
    progress: &RefCell<Progress>,
) -> Result<(Call, Sizes), u8> {
    let optimizing = !proof.program.costs.is_empty();
    let mut report = CallReport {
        progress,
        symbols: &proof.program.symbols,
        objective: optimizing.then_some(config.opt_mode),
        consequences: config.consequences,
        started: proof.asked,
    };
    progress
        .borrow_mut()
        .record
        .solve_started
        .get_or_insert(proof.asked);
    report.event(Event::Searching {
        translate_time: proof.translate_time,
    });
    let mut progress = progress.borrow_mut();
    if let Some(code) = progress.output_failure() {
        return Err(code);
    }
    progress.record.timings.unsat = proof.asked.elapsed();
    let call = Call {
        models: 0,
        exhausted: true,
        refused: false,
        stats: SolveStats {
            backend: Some(proof.backend),
            ..SolveStats::default()
        },
    };
    Ok((call, proof.sizes))
}

/// The atoms `program`'s answer sets are projected onto, as `--project`
/// says.
fn project(program: &mut GroundProgram, projection: Projection) {
    match projection {
        Projection::Show => program.projection = None, // even with `#project`
        // No `#project` directive: clingo projects onto no atom at all.
        Projection::Project => _ = program.projection.get_or_insert_with(Vec::new),
        Projection::Auto | Projection::No => {}
    }
}

/// After an input error, clingo still ends its output as for a search
/// that found nothing: `UNKNOWN` and the summary in text, a complete JSON
/// document with one empty call. Scripts that read it must not break on
/// bad input. Other exit codes pass through.
fn unknown_after_error(progress: &RefCell<Progress>, code: u8) -> u8 {
    if code == EXIT_INPUT_ERROR {
        let mut progress = progress.borrow_mut();
        if progress.record.calls == 0 {
            progress.begin_call();
        }
        progress.finish(Outcome::Unknown, None, None);
    }
    code
}

/// How a finished call ended, as clingo's summary says it.
fn outcome(call: &Call, interrupted: bool) -> Outcome {
    match (call.models, call.exhausted) {
        (0, false) if interrupted => Outcome::Unknown,
        (0, _) => Outcome::Unsatisfiable,
        (_, true) => Outcome::Exhausted,
        (_, false) => Outcome::Satisfiable,
    }
}

/// Translates and searches one ground program as `plan` says, printing
/// what the search reports; `first` prints clingo's warnings before it.
/// `Err` holds the exit code.
fn solve_call(
    program: &Arc<GroundProgram>,
    plan: &Plan,
    config: &Config,
    (progress, stop): (&RefCell<Progress>, &Arc<AtomicBool>),
    sources: &SourceMap,
    first: bool,
) -> Result<(Call, Sizes, Leftovers), u8> {
    let call = plan.call(program);
    let listing_consequences = config.consequences != Consequences::None;
    if first {
        // clingo's warnings, in its words.
        if call.to_optimum && config.opt_mode == OptMode::Opt && listing_consequences {
            stderrln!(
                "*** Warn : (asp2sat): Optimization: Consequences may depend on enumeration order."
            );
        } else if call.to_optimum && config.opt_mode == OptMode::Opt && call.models > 0 {
            stderrln!(
                "*** Warn : (asp2sat): #models not 0: optimality of last model not guaranteed."
            );
        }
        if call.optimizing && config.opt_mode == OptMode::Enum {
            stderrln!(
                "*** Warn : (asp2sat): opt-mode=enum: No bound given, optimize statement ignored."
            );
        }
    }
    if let Threads::Single(Some(reason)) = call.threads
        && first
        && config.warnings.shows("other")
    {
        stderrln!("asp2sat: info: -t {}: {reason}", plan.parallel.threads);
    }
    let counters = progress.borrow().counters.clone();
    let mut report = CallReport {
        progress,
        symbols: &program.symbols,
        objective: call.optimizing.then_some(config.opt_mode),
        consequences: config.consequences,
        started: Instant::now(),
    };
    let searched = driver::solve_call(program, &call, &counters, &mut report, stop);
    let call_started = report.started;
    let (call, leftovers) = match searched {
        Ok(searched) => searched,
        Err(error) => return Err(report_errors(&[error], sources, "translation failed")),
    };
    let mut progress = progress.borrow_mut();
    if let Some(code) = progress.output_failure() {
        return Err(code);
    }
    if call.exhausted {
        let since = progress.record.last_model.filter(|&t| t >= call_started);
        progress.record.timings.unsat = since.unwrap_or(call_started).elapsed();
    }
    let sizes = Sizes {
        solver: call.stats.backend.map_or("none", Backend::name),
        atoms: program.atoms.len(),
        rules: program.rules.len(),
        variables: call.stats.variables,
        clauses: call.stats.clauses,
        loop_rounds: call.stats.loop_rounds,
        conflicts: call.stats.conflicts,
    };
    Ok((call, sizes, leftovers))
}
