//! The command line: the only module that does I/O.
//!
//! Raw flags are parsed by clap into [`Args`], validated into a [`Config`],
//! and dispatched. [`solve`](fn@solve) drives the pipeline: read and parse every input
//! (following `#include`, [`load`]), ground, translate and solve, printing
//! as clingo does ([`report`]), stopped by the time limit or a signal
//! ([`interrupt`]), explained with `--explain` ([`explain`]).
//! [`dimacs`] shares reading and grounding, then writes the exact CNF
//! (`crate::dimacs`) to standard output or to a file (a regular one
//! atomically);
//! [`ground`] (also `solve --text`) prints the ground program
//! (`crate::ground_text`).

/// `eprint!` that ignores a failing standard error (closed, or a full
/// disk) instead of panicking: a message that cannot be shown must not turn
/// a run into a crash. The progress line on a terminal is taken away
/// meanwhile.
macro_rules! stderr {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        $crate::cli::status::around_stderr(|| {
            // Bytes of the input that are not UTF-8 are printed as such.
            let _ = $crate::cli::text::RawBytes(std::io::stderr()).write_fmt(format_args!($($arg)*));
        });
    }};
}

/// [`stderr!`] with a newline, for `eprintln!`.
macro_rules! stderrln {
    ($($arg:tt)*) => {
        stderr!("{}\n", format_args!($($arg)*))
    };
}

mod args;
mod explain;
mod interrupt;
mod load;
mod output;
mod pictures;
mod regress;
mod report;
mod solve;
mod status;
mod text;
mod tuning;
mod write;

use crate::diagnostics::{Diagnostic, SourceMap, render_all};
use crate::progress::{Counters, Stage};
use args::{Args, Command, Config, DimacsArgs, Warnings, parse_consts};
use clap::Parser;
use load::load_and_ground;
use output::Timings;
use solve::solve;
use std::io::Write;
use std::sync::Arc;
use tuning::Invocation;
use write::{stdout_failure, stdout_writer, write_output};

/// Exit code for input errors (syntax, safety, unreadable files).
pub const EXIT_INPUT_ERROR: u8 = 65;

/// Exit code when the command line is not accepted (an unknown option, an
/// invalid value), as clingo's.
pub const EXIT_USAGE_ERROR: u8 = 1;

/// Exit code when the output cannot be written (sysexits' `EX_IOERR`).
pub const EXIT_OUTPUT_ERROR: u8 = 74;

/// Exit code when the reader of standard output went away (`| head`):
/// clingo is ended by SIGPIPE then, which a shell reports as 128 + 13.
/// Rust ignores SIGPIPE, so asp2sat sees the error and exits so itself.
pub const EXIT_BROKEN_PIPE: u8 = 141;

/// Entry point of the binary; returns the exit code, and the caller ends
/// the process with it right away (see [`release_at_exit`]).
pub fn main() -> u8 {
    let (raw, tuning) = match tuning::invocation(std::env::args_os().collect()) {
        Invocation::Version => {
            let _ = writeln!(std::io::stdout(), "{}", output::VERSION_LINE);
            return 0;
        }
        Invocation::Parse(raw, tuning) => (raw, tuning),
    };
    let args = match Args::try_parse_from(raw) {
        Ok(args) => args,
        Err(e) => {
            let _ = e.print();
            return if e.use_stderr() { EXIT_USAGE_ERROR } else { 0 };
        }
    };
    let report_no_effect = |messages: &[String], warnings: &Warnings| {
        for message in messages.iter().filter(|_| warnings.shows("other")) {
            stderrln!("asp2sat: info: {message}");
        }
    };
    // `dimacs` and `ground` do not search: no tuning option has an effect.
    let none_has_effect: Vec<String> = (tuning.iter())
        .map(|option| tuning::without_effect(option, Default::default()))
        .collect();
    let explaining = matches!(args.command, Command::Explain(_));
    let counters = Arc::new(Counters::default());
    // `test` shows a progress bar of its own; `measure` none.
    if !matches!(args.command, Command::Test(_) | Command::Measure(_)) {
        status::start(counters.clone());
    }
    let code = match args.command {
        Command::Test(test) => regress::main(&test, &tuning),
        Command::Measure(measure) => regress::measure(&measure.report, &measure.command),
        Command::Solve(args) | Command::Explain(args) => {
            match Config::from_args(args, explaining, &tuning) {
                Ok(config) => {
                    report_no_effect(&config.tuning.without_effect, &config.warnings);
                    if config.text {
                        ground(&config.inputs, &config.consts, &counters)
                    } else {
                        solve(config, counters)
                    }
                }
                Err(message) => usage_error(&message),
            }
        }
        Command::Render(args) => match Config::from_args(args.for_render(), false, &tuning) {
            Ok(config) => {
                report_no_effect(&config.tuning.without_effect, &config.warnings);
                pictures::render_exit_code(solve(config, counters))
            }
            Err(message) => usage_error(&message),
        },
        Command::Dimacs(args) => match parse_consts(&args.consts) {
            Ok(consts) => {
                report_no_effect(&none_has_effect, &Warnings::default());
                dimacs(&args, &consts, &counters)
            }
            Err(message) => input_error(&message),
        },
        Command::Ground(args) => match parse_consts(&args.consts) {
            Ok(consts) => {
                report_no_effect(&none_has_effect, &Warnings::default());
                ground(&args.inputs, &consts, &counters)
            }
            Err(message) => input_error(&message),
        },
    };
    status::clear();
    code
}

/// Hands a large value (a ground program, a solver) to the operating
/// system instead of freeing it piece by piece: the process ends right after
/// the output is written, and unmapping its memory at exit is far cheaper
/// than hundreds of thousands of `free` calls.
fn release_at_exit<T>(value: T) {
    std::mem::forget(value);
}

/// Reports an input error that has no place in the source (a file, a
/// constant of `-c`).
fn input_error(message: &str) -> u8 {
    stderrln!("asp2sat: error: {message}");
    EXIT_INPUT_ERROR
}

/// Reports a command line that is not accepted.
fn usage_error(message: &str) -> u8 {
    stderrln!("asp2sat: error: {message}");
    EXIT_USAGE_ERROR
}

/// The errors printed at most, as clingo stops at 20 ("too many messages").
const MAX_ERRORS: usize = 20;

fn report_errors(diagnostics: &[Diagnostic], sources: &SourceMap, what: &str) -> u8 {
    let mut ordered = diagnostics.to_vec();
    ordered.sort_by_key(Diagnostic::order);
    let errors = ordered.iter().filter(|d| d.is_error()).count();
    if errors > MAX_ERRORS {
        let mut shown = 0;
        ordered.retain(|d| {
            shown += usize::from(d.is_error());
            shown <= MAX_ERRORS
        });
        stderr!("{}", render_all(&ordered, sources));
        let more = errors - MAX_ERRORS;
        stderrln!("\n*** ERROR: (asp2sat): too many messages: {more} more errors not shown");
    } else {
        stderr!("{}", render_all(&ordered, sources));
        stderrln!("\n*** ERROR: (asp2sat): {what}");
    }
    EXIT_INPUT_ERROR
}

/// `asp2sat dimacs`: the exact CNF on standard output or in `-o FILE`.
fn dimacs(args: &DimacsArgs, consts: &[(String, String)], counters: &Counters) -> u8 {
    let mut timings = Timings::default();
    let (program, sources) = match load_and_ground(&args.inputs, consts, &mut timings, counters) {
        Ok(loaded) => loaded,
        Err(code) => return code,
    };
    counters.enter(Stage::Translating);
    let mut formula = varisat_formula::CnfFormula::new();
    let translation = match crate::translate::translate_exact(&program, &mut formula) {
        Ok(t) => t,
        Err(error) => return report_errors(&[error], &sources, "translation failed"),
    };
    let symbols = crate::dimacs::symbol_table(&program, &translation);
    let soft = if args.wcnf {
        match crate::dimacs::soft_clauses(&translation) {
            Ok(soft) => Some(soft),
            Err(message) => return input_error(&message),
        }
    } else {
        if !program.costs.is_empty() {
            stderrln!(
                "asp2sat: info: the CNF's models are all answer sets: the optimize statements are left out (--wcnf exports them)"
            );
        }
        None
    };
    status::clear(); // the CNF is complete: only writing is left
    let write = |out: &mut dyn Write| match &soft {
        Some(soft) => crate::dimacs::write_wcnf(out, &formula, &symbols, soft),
        None => crate::dimacs::write(out, &formula, &symbols),
    };
    let written = match &args.output {
        Some(path) => write_output(path, write).map_err(|e| {
            stderrln!("asp2sat: error: could not write {}: {e}", path.display());
            EXIT_OUTPUT_ERROR
        }),
        None => {
            let mut out = stdout_writer();
            write(&mut out)
                .and_then(|()| out.flush())
                .map_err(|e| stdout_failure(&e))
        }
    };
    if let Err(code) = written {
        return code;
    }
    if args.stats {
        stderr!("{}", crate::dimacs::stats_text(&program, &translation));
    }
    release_at_exit((program, formula, translation, symbols));
    0
}

/// `asp2sat ground` and `solve --text`: the ground program on standard
/// output. Exit code 0, 65 on input errors, 74 when standard output cannot
/// be written.
fn ground(inputs: &[String], consts: &[(String, String)], counters: &Counters) -> u8 {
    let mut timings = Timings::default();
    let (program, _) = match load_and_ground(inputs, consts, &mut timings, counters) {
        Ok(loaded) => loaded,
        Err(code) => return code,
    };
    status::clear(); // only writing is left
    let mut out = stdout_writer();
    let written = crate::ground_text::write(&mut out, &program).and_then(|()| out.flush());
    release_at_exit(program);
    match written {
        Ok(()) => 0,
        Err(e) => stdout_failure(&e),
    }
}
