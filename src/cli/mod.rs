//! The command line: the only module that does I/O.
//!
//! Raw flags are parsed by clap into [`Args`], validated into a [`Config`],
//! and [`solve`] drives the pipeline: read and parse every input (following
//! `#include`), ground, translate and solve, printing as clingo does.
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
            let _ = $crate::cli::RawBytes(std::io::stderr()).write_fmt(format_args!($($arg)*));
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
mod output;
mod pictures;
mod regress;
mod status;

use crate::diagnostics::{Diagnostic, FileId, SourceMap, Span, render_all};
use crate::ground::incremental::Incremental;
use crate::ground::{self, Parts, program::GroundProgram};
use crate::progress::{Counters, Stage};
use crate::solve::SolveOptions;
use crate::solve::backend::Backend;
use crate::solve::driver::{self, Call, Consequences, Event, Found, Plan, Report};
use crate::solve::explain::{Explanation, Scope};
use crate::solve::optimize::OptMode;
use crate::solve::portfolio::Threads;
use crate::symbols::SymbolTable;
use crate::syntax::ast::{Statement, StatementKind, Term};
use crate::syntax::{parse_program, parse_term};
use args::{
    Args, Command, Config, DimacsArgs, Invocation, Projection, Quiet, Warnings, parse_consts,
};
use clap::Parser;
use output::{
    Blamed, ConsequenceSummary, Format, Interruption, JsonDocument, OptimizationSummary, Outcome,
    Sizes, Style, Summary, Timings, Witness,
};
use rustc_hash::FxHashSet;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

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
    let (raw, tuning) = match args::invocation(std::env::args_os().collect()) {
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
        .map(|option| args::without_effect(option, Default::default()))
        .collect();
    let explaining = matches!(args.command, Command::Explain(_));
    let counters = Arc::new(Counters::default());
    // `test` shows a progress bar of its own.
    if !matches!(args.command, Command::Test(_)) {
        status::start(counters.clone());
    }
    let code = match args.command {
        Command::Test(test) => regress::main(&test, &tuning),
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

/// Everything read from the inputs, parsed.
struct Loaded {
    sources: SourceMap,
    statements: Vec<Statement>,
    diagnostics: Vec<Diagnostic>,
    /// The `#include <incmode>.` that asks for clingo's incremental mode.
    incremental: Option<Span>,
}

/// Reads and parses the inputs, then every file they `#include`, once each.
fn load(inputs: &[String]) -> Result<Loaded, String> {
    let mut loaded = Loaded {
        sources: SourceMap::default(),
        statements: Vec::new(),
        diagnostics: Vec::new(),
        incremental: None,
    };
    let mut seen: Vec<PathBuf> = Vec::new();
    // (name, directory of the including file, span of the `#include`).
    let mut queue: Vec<(String, Option<PathBuf>, Option<Span>)> = if inputs.is_empty() {
        vec![("-".to_string(), None, None)]
    } else {
        inputs.iter().map(|i| (i.clone(), None, None)).collect()
    };
    queue.reverse();
    while let Some((name, base, included_at)) = queue.pop() {
        let (display, path, text) = if name == "-" {
            let text = read_text(std::io::stdin())
                .map_err(|e| format!("could not read standard input: {e}"))?;
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
                            loaded.diagnostics.push(Diagnostic::error(span, message));
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
            loaded.diagnostics.push(diagnostic);
            continue;
        }
        let (statements, errors) = parse_program(&loaded.sources.file(file).text, file);
        loaded.diagnostics.extend(errors);
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
        loaded.statements.extend(statements);
    }
    Ok(loaded)
}

/// The largest input file asp2sat reads: far above real programs (a
/// million facts take 25 MB), far below what would exhaust memory.
const MAX_INPUT_BYTES: u64 = 1 << 30;

/// Reads one input file, at most [`MAX_INPUT_BYTES`] (see [`read_text`]).
/// An `#include`d file must be a regular file (`#include "/dev/zero".` is
/// an error at once); a file named on the command line may be a pipe or
/// `/dev/stdin`.
fn read_input(path: &Path, included: bool) -> std::io::Result<Text> {
    let file = std::fs::File::open(path)?;
    if included && !file.metadata()?.is_file() {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            "not a regular file",
        ));
    }
    read_text(file)
}

/// Program text as asp2sat reads it (see [`decode`]).
struct Text {
    text: String,
    /// Where in `text` lies the first thing that cannot be read, and why.
    unreadable: Option<(std::ops::Range<usize>, String)>,
}

/// Reads at most [`MAX_INPUT_BYTES`] of program text (see [`decode`]). An
/// editor's byte-order mark is skipped.
fn read_text(reader: impl Read) -> std::io::Result<Text> {
    use std::io::{Error, ErrorKind};
    let mut bytes = Vec::new();
    reader.take(MAX_INPUT_BYTES + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > MAX_INPUT_BYTES {
        return Err(Error::new(
            ErrorKind::InvalidData,
            format!("larger than {} MiB", MAX_INPUT_BYTES >> 20),
        ));
    }
    if bytes.starts_with("\u{feff}".as_bytes()) {
        bytes.drain(..3);
    }
    Ok(match String::from_utf8(bytes) {
        Ok(text) if !text.contains(is_raw_byte) => Text {
            text,
            unreadable: None,
        },
        Ok(text) => decode(text.as_bytes()),
        Err(e) => decode(e.as_bytes()),
    })
}

/// The first of the code points U+10FF80..=U+10FFFF (the end of the last
/// private use plane), which stand for the bytes 0x80..=0xFF of a string
/// literal that are not UTF-8: clingo reads its input as bytes and prints
/// such a string byte for byte, and so does asp2sat (see [`RawBytes`]).
/// One character per byte keeps columns as clingo counts them. In term
/// order such a byte sorts after every character that is not ASCII, where
/// clingo compares the bytes.
const RAW_BYTES: u32 = 0x10_FF80;

fn is_raw_byte(c: char) -> bool {
    u32::from(c) >= RAW_BYTES
}

/// Program text from bytes that are not all UTF-8, or that hold the code
/// points of [`RAW_BYTES`]. A byte that is not UTF-8 is kept as its code
/// point, in a string literal and in code (where the lexer reports it as
/// clingo does, each byte located), and becomes `?` in a comment (Latin-1
/// is common in old programs' comments). One of those code points in a
/// string is refused (it would be
/// printed as a byte). Only ASCII changes where the lexer is: the states follow the
/// parser's lexer (nested block comments, `#!` lines, strings that end at
/// a line's end).
fn decode(bytes: &[u8]) -> Text {
    #[derive(Clone, Copy)]
    enum State {
        Code,
        String,
        LineComment,
        BlockComment(usize),
    }
    let mut state = State::Code;
    let mut text = String::with_capacity(bytes.len());
    let mut unreadable = None;
    for chunk in bytes.utf8_chunks() {
        let mut chars = chunk.valid().chars().peekable();
        while let Some(c) = chars.next() {
            let at = text.len();
            text.push(c);
            let next = chars.peek().copied();
            let mut take_next = || text.extend(chars.next());
            state = match (state, c, next) {
                (State::Code, '%', Some('*')) => {
                    take_next();
                    State::BlockComment(1)
                }
                (State::Code, '%', _) | (State::Code, '#', Some('!')) => State::LineComment,
                (State::Code, '"', _) => State::String,
                (State::String, '\\', Some(n)) if n != '\n' && !is_raw_byte(n) => {
                    take_next();
                    State::String
                }
                (State::String, '"' | '\n', _) | (State::LineComment, '\n', _) => State::Code,
                (State::String, c, _) if is_raw_byte(c) => {
                    unreadable.get_or_insert((
                        at..text.len(),
                        format!(
                            "the character U+{:X} in a string: asp2sat reads U+{RAW_BYTES:X}..U+10FFFF \
                             as the bytes of a string that are not UTF-8",
                            u32::from(c)
                        ),
                    ));
                    State::String
                }
                (State::BlockComment(1), '*', Some('%')) => {
                    take_next();
                    State::Code
                }
                (State::BlockComment(depth), '*', Some('%')) => {
                    take_next();
                    State::BlockComment(depth - 1)
                }
                (State::BlockComment(depth), '%', Some('*')) => {
                    take_next();
                    State::BlockComment(depth + 1)
                }
                (state, _, _) => state,
            };
        }
        for &byte in chunk.invalid() {
            match state {
                // In code, the lexer's error, printed with the byte itself as
                // clingo prints it.
                State::String | State::Code => {
                    text.extend(char::from_u32(RAW_BYTES - 0x80 + u32::from(byte)))
                }
                State::LineComment | State::BlockComment(_) => text.push('?'),
            }
        }
    }
    Text { text, unreadable }
}

/// Writes text with each code point of [`RAW_BYTES`] as its byte again.
/// Each write must hold whole characters, as the writes of formatting and
/// of a `str` do.
struct RawBytes<W: Write>(W);

impl<W: Write> Write for RawBytes<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let mut rest = buf;
        // U+10FF80..=U+10FFFF is F4 8F BE 80..=F4 8F BF BF in UTF-8.
        while let Some(at) = rest.iter().position(|&b| b == 0xF4) {
            if let Some(&[_, 0x8F, third @ (0xBE | 0xBF), fourth]) = rest.get(at..at + 4) {
                self.0.write_all(&rest[..at])?;
                self.0
                    .write_all(&[0x80 | ((third & 1) << 6) | (fourth & 0x3F)])?;
                rest = &rest[at + 4..];
            } else {
                self.0.write_all(&rest[..=at])?;
                rest = &rest[at + 1..];
            }
        }
        self.0.write_all(rest)?;
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.0.flush()
    }
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

/// The errors printed at most, as clingo stops at 20 ("too many messages").
const MAX_ERRORS: usize = 20;

fn report_errors(diagnostics: &[Diagnostic], sources: &SourceMap, what: &str) -> u8 {
    let mut ordered = diagnostics.to_vec();
    ordered.sort_by_key(|d| (d.span.file, d.span.start));
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

/// The output of a `solve` run: how it is printed and what is printed so
/// far, and the record of what the run found, which the summary reports;
/// shared with the time-limit watchdog and the signal handler so that an
/// interrupted run still ends with a complete summary.
struct Progress {
    style: Style,
    /// What the progress line on a terminal shows.
    counters: Arc<Counters>,
    quiet: Quiet,
    inputs: Vec<String>,
    /// The JSON document written so far, with `--outf=2`.
    json: JsonDocument,
    /// The last model of the JSON output, written when the next one comes
    /// or the call ends: brave and cautious consequences are added to it
    /// first.
    unwritten: Option<Witness>,
    /// The last model, with its number, when `--quiet=1` holds it back for
    /// the end of the run.
    held: Option<(usize, Witness)>,
    /// The first failed write to standard output: nothing more is
    /// written, and the run stops (see [`Progress::output_failure`]).
    output_error: Option<std::io::Error>,
    pictures: pictures::PictureWriter,
    /// The `--grid` table of the model in `held`.
    held_grid: Option<String>,
    /// Why a picture could not be written: the run stops.
    picture_error: Option<pictures::PictureError>,
    record: Record,
    /// The summary is printed: nothing more is.
    finished: bool,
}

/// What a run has found so far, from the search's events: what its
/// summary says.
struct Record {
    /// Solver calls started.
    calls: usize,
    models: usize,
    /// For a program that optimizes: what the summary says of it.
    optimization: Option<OptimizationSummary>,
    /// With `--enum-mode=brave` or `cautious`: which, the number of
    /// consequences and clingo's `[lower;upper]` of the last model (`[n;n]`
    /// once no answer set changes them).
    consequences: Option<(Consequences, usize, (usize, usize))>,
    started: Instant,
    /// When the search began and when it last found a model, so that an
    /// interrupted run reports its times too.
    solve_started: Option<Instant>,
    last_model: Option<Instant>,
    timings: Timings,
    /// With `--explain`, when there is no answer set: the statements to
    /// blame, for the JSON output.
    explanation: Option<Vec<Blamed>>,
    /// The search's result once it has ended, while `--explain` works on:
    /// what an interrupted run still reports.
    settled: Option<Outcome>,
    /// What stopped the run before it ended by itself (the time limit, a
    /// signal).
    interrupted: Option<Interruption>,
}

impl Progress {
    /// Prints an answer set the search found (an optimal one, which
    /// `--quiet=1` prints at once, too). Returns whether standard output
    /// still works: when not, the search should stop.
    fn answer(
        &mut self,
        Found {
            number,
            answer,
            costs,
            consequences,
            optimal,
        }: Found<'_>,
        symbols: &SymbolTable,
    ) -> bool {
        let number = number.unwrap_or(self.record.models + 1);
        self.record.models += 1;
        self.counters.found_models(self.record.models);
        self.record.last_model = Some(Instant::now());
        let solving = self.record.solve_started.unwrap_or(self.record.started);
        self.record
            .timings
            .first_model
            .get_or_insert_with(|| solving.elapsed());
        if let Some(optimization) = &mut self.record.optimization {
            optimization.costs.clone_from(&costs);
        }
        if let Err(error) = self.pictures.draw(number, answer, symbols) {
            self.picture_error = Some(error);
            return false;
        }
        let shown = |level: u8| level == 0 || (level == 1 && optimal);
        let (show_model, show_costs) = (shown(self.quiet.models), shown(self.quiet.costs));
        let holding = self.quiet.models == 1 && !optimal;
        let grid = (self.style.format == Format::Text && (show_model || holding))
            .then(|| self.pictures.grid(answer, symbols))
            .flatten();
        if holding {
            self.held_grid.clone_from(&grid);
            let atoms = answer.atoms(symbols);
            self.held = Some((
                number,
                Witness {
                    atoms,
                    costs: costs.clone(),
                    consequences,
                },
            ));
        }
        match self.style.format {
            Format::Nothing => return true,
            Format::Json => {
                if show_model {
                    let atoms = answer.atoms(symbols);
                    self.write_unwritten();
                    self.unwritten = Some(Witness {
                        atoms,
                        costs,
                        consequences,
                    });
                }
                return self.output_error.is_none();
            }
            Format::Text | Format::Competition => {}
        }
        let writes = show_model || (show_costs && costs.is_some());
        if !writes {
            return self.output_error.is_none(); // nothing to write (`--quiet`)
        }
        let style = self.style;
        self.print(|out| {
            if show_model {
                let atoms = answer.shown.iter().map(|&s| symbols.display(s));
                output::write_answer(out, style, number, atoms)?;
                if let Some(bounds) = consequences {
                    output::write_consequences(out, bounds)?;
                }
            }
            if let Some(costs) = costs.filter(|_| show_costs) {
                output::write_costs(out, style, &costs)?;
            }
            match grid.filter(|_| show_model) {
                Some(grid) => out.write_all(grid.as_bytes()),
                None => Ok(()),
            }
        })
    }

    /// Writes to standard output unless an earlier write failed, keeping
    /// the first failure; returns whether standard output still works.
    fn print(&mut self, write: impl FnOnce(&mut Stdout) -> std::io::Result<()>) -> bool {
        if self.output_error.is_none() {
            let mut out = stdout_writer();
            let written = status::around_stdout(|| write(&mut out).and_then(|()| out.flush()));
            if let Err(e) = written {
                self.output_error = Some(e);
            }
        }
        self.output_error.is_none()
    }

    /// The exit code once a write to standard output failed (see
    /// [`stdout_failure`]).
    fn output_failure(&self) -> Option<u8> {
        self.output_error.as_ref().map(stdout_failure)
    }

    /// Once the consequences are exact: the model `--quiet=1` held back
    /// shows them as exact, as clingo's does, and so does the summary.
    fn settle_consequences(&mut self) {
        if let Some((_, count, bounds)) = &mut self.record.consequences {
            *bounds = (*count, *count);
            if let Some((_, held)) = &mut self.held {
                held.consequences = Some(*bounds);
            }
        }
    }

    /// Starts the JSON output's next solver call.
    fn begin_call(&mut self) {
        self.record.calls += 1;
        if self.style.format == Format::Json {
            self.write_unwritten();
            let text = self.json.open_call(&self.inputs);
            self.print(|out| out.write_all(text.as_bytes()));
        }
    }

    /// Writes the JSON output's last model.
    fn write_unwritten(&mut self) {
        if let Some(witness) = self.unwritten.take() {
            self.write_witness(&witness);
        }
    }

    fn write_witness(&mut self, witness: &Witness) {
        let text = self.json.witness(witness);
        self.print(|out| out.write_all(text.as_bytes()));
    }

    /// Prints what is held back and the summary; `interrupted` when the
    /// search did not end by itself.
    fn finish(
        &mut self,
        outcome: Outcome,
        sizes: Option<&Sizes>,
        interrupted: Option<Interruption>,
    ) {
        self.finished = true;
        status::clear();
        // One instant for both, so that `Solve` never exceeds `Total` when
        // the thread is preempted between two readings of the clock.
        let now = Instant::now();
        self.record.timings.total = now - self.record.started;
        self.record.timings.cpu = processor_time();
        if let Some(solve_started) = self.record.solve_started {
            self.record.timings.solve = now - solve_started;
        }
        self.finish_pictures();
        let held = self.held.take();
        match self.style.format {
            Format::Nothing => return,
            Format::Json => {
                self.write_unwritten();
                if let Some((_, witness)) = held {
                    self.write_witness(&witness);
                }
            }
            Format::Text | Format::Competition => {
                if let Some((number, witness)) = held {
                    let costs = witness.costs.filter(|_| self.quiet.costs == 1);
                    let style = self.style;
                    let grid = self.held_grid.take();
                    self.print(|out| {
                        output::write_answer(out, style, number, witness.atoms.iter())?;
                        if let Some(bounds) = witness.consequences {
                            output::write_consequences(out, bounds)?;
                        }
                        if let Some(costs) = costs {
                            output::write_costs(out, style, &costs)?;
                        }
                        out.write_all(grid.unwrap_or_default().as_bytes())
                    });
                }
            }
        }
        let summary = Summary {
            outcome,
            interrupted,
            consequences: (self.record.consequences).map(|(kind, count, (lower, upper))| {
                ConsequenceSummary {
                    kind: if kind == Consequences::Brave {
                        "Brave"
                    } else {
                        "Cautious"
                    },
                    count,
                    open: upper - lower,
                }
            }),
            models: self.record.models,
            calls: self.record.calls,
            timings: &self.record.timings,
            stats: sizes,
            optimization: self.record.optimization.as_ref(),
            explanation: self.record.explanation.as_deref(),
        };
        let text = if self.style.format == Format::Json {
            self.json.close(&self.inputs, &summary)
        } else {
            output::summary_text(&summary, self.style)
        };
        self.print(|out| out.write_all(text.as_bytes()));
    }

    /// Writes the picture held for a single file or standard output (an
    /// interrupted run too), and says why pictures could not be written.
    fn finish_pictures(&mut self) {
        match self.pictures.finish() {
            Ok(Some(svg)) => {
                self.print(|out| out.write_all(svg.as_bytes()));
            }
            Ok(None) => {}
            Err(error) => self.picture_error = self.picture_error.take().or(Some(error)),
        }
        if let Some(error) = &self.picture_error {
            stderrln!("asp2sat: error: {}", error.message);
        }
    }
}

/// Reads and parses the inputs and the `-c` constants, reporting errors as
/// gringo does. `Err` holds the exit code.
fn load_program(
    inputs: &[String],
    consts: &[(String, String)],
    timings: &mut Timings,
) -> Result<(Loaded, Vec<(String, Term)>), u8> {
    let started = Instant::now();
    let mut loaded = match load(inputs) {
        Ok(loaded) => loaded,
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

/// Grounds the parts that `parts` calls, printing the messages that are
/// not in `printed` yet (the steps of incremental mode repeat most of
/// theirs). `Err` holds the exit code.
fn ground_parts(
    loaded: &Loaded,
    overrides: &[(String, Term)],
    parts: &Parts,
    warnings: &Warnings,
    printed: &mut FxHashSet<String>,
    counters: &Counters,
) -> Result<GroundProgram, u8> {
    counters.enter(Stage::Grounding);
    let (program, diagnostics) =
        ground::ground_parts(&loaded.statements, overrides, parts, counters);
    let Some(program) = program else {
        return Err(report_errors(
            &diagnostics,
            &loaded.sources,
            "grounding stopped because of errors",
        ));
    };
    for diagnostic in diagnostics.iter().filter(|d| warnings.shows(d.group)) {
        let text = render_all(std::slice::from_ref(diagnostic), &loaded.sources);
        if !printed.contains(&text) {
            stderr!("{text}");
            printed.insert(text);
        }
    }
    // From here on, the simplified program's size.
    counters.grounded(program.atoms.len(), program.rules.len());
    Ok(program)
}

/// Reads, parses and grounds the inputs for `dimacs` and `ground`, which
/// ground one program: incremental mode, a sequence of them, is `solve`'s.
/// `Err` holds the exit code.
fn load_and_ground(
    inputs: &[String],
    consts: &[(String, String)],
    timings: &mut Timings,
    counters: &Counters,
) -> Result<(GroundProgram, SourceMap), u8> {
    let (loaded, overrides) = load_program(inputs, consts, timings)?;
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
        &loaded,
        &overrides,
        &Parts::base(),
        &Warnings::default(),
        &mut printed,
        counters,
    )?;
    timings.ground = ground_start.elapsed();
    Ok((program, loaded.sources))
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

/// Standard output, buffered, with the bytes of strings that are not UTF-8
/// as they were read.
type Stdout = RawBytes<std::io::BufWriter<std::io::StdoutLock<'static>>>;

fn stdout_writer() -> Stdout {
    RawBytes(std::io::BufWriter::with_capacity(
        1 << 16,
        std::io::stdout().lock(),
    ))
}

/// The exit code when writing standard output failed, after saying so on
/// standard error; quietly when its reader went away (`| head`), as clingo.
fn stdout_failure(e: &std::io::Error) -> u8 {
    if e.kind() == std::io::ErrorKind::BrokenPipe {
        return EXIT_BROKEN_PIPE;
    }
    stderrln!("asp2sat: error: could not write standard output: {e}");
    EXIT_OUTPUT_ERROR
}

/// Writes `-o PATH`: atomically (see [`write_atomically`]) when PATH is a
/// regular file or does not exist, and for a symbolic link to a regular
/// file, into the link's target, so that the link stays. Anything else is
/// written straight into, as a rename would replace it: a device
/// (`/dev/null`), a FIFO, a dangling link (creating its target), and the
/// links of `/dev` and `/proc` (`/dev/stdout`), which name open files, so
/// that the output goes where the shell sent it (appended after `>>`).
fn write_output(
    path: &Path,
    write: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
) -> std::io::Result<()> {
    let names_open_file = (path.starts_with("/dev") || path.starts_with("/proc"))
        && std::fs::symlink_metadata(path).is_ok_and(|m| m.is_symlink());
    match std::fs::metadata(path) {
        Ok(metadata) if metadata.is_file() && !names_open_file => {
            write_atomically(&path.canonicalize()?, write)
        }
        Err(e)
            if e.kind() == std::io::ErrorKind::NotFound
                && std::fs::symlink_metadata(path).is_err() =>
        {
            write_atomically(path, write)
        }
        _ => {
            let file = std::fs::OpenOptions::new()
                .append(true)
                .create(true)
                .open(path)?;
            let mut out = RawBytes(std::io::BufWriter::with_capacity(1 << 16, file));
            write(&mut out)?;
            out.flush()
        }
    }
}

/// Writes `path` through a temporary file in the same directory, renamed
/// over `path` once complete and synced: a failure never leaves a truncated
/// file, and the temporary file is removed, on SIGINT and SIGTERM too. It
/// is named `.NAME.PID.N.tmp`, so that a later run removes one that a
/// process killed outright left. A file replaced keeps its permissions,
/// and its owner where the process may set it.
fn write_atomically(
    path: &Path,
    write: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
) -> std::io::Result<()> {
    let name = path
        .file_name()
        .ok_or_else(|| std::io::Error::new(std::io::ErrorKind::InvalidInput, "not a file name"))?;
    let dir = match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    };
    remove_abandoned_temporaries(dir, &name.to_string_lossy());
    let replaced = std::fs::metadata(path).ok();
    let mut temporary = None;
    for attempt in 0..100u32 {
        let candidate = dir.join(format!(
            ".{}.{}.{attempt}.tmp",
            name.to_string_lossy(),
            std::process::id()
        ));
        match std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&candidate)
        {
            Ok(file) => {
                temporary = Some((candidate, file));
                break;
            }
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(e),
        }
    }
    let Some((temporary, file)) = temporary else {
        return Err(std::io::Error::new(
            std::io::ErrorKind::AlreadyExists,
            "no free temporary file name",
        ));
    };
    let signals = remove_on_signals(&temporary);
    let result = (|| {
        if let Some(replaced) = &replaced {
            use std::os::unix::fs::MetadataExt;
            file.set_permissions(replaced.permissions())?;
            // Only root may give a file away: elsewhere the owner stays ours.
            let _ = std::os::unix::fs::fchown(&file, Some(replaced.uid()), Some(replaced.gid()));
        }
        let mut out = RawBytes(std::io::BufWriter::with_capacity(1 << 16, file));
        write(&mut out)?;
        let file = out.0.into_inner().map_err(|e| e.into_error())?;
        file.sync_all()?;
        drop(file);
        std::fs::rename(&temporary, path)
    })();
    if let Ok(handle) = signals {
        handle.close();
    }
    if result.is_err() {
        let _ = std::fs::remove_file(&temporary);
    }
    result
}

/// Until the handle is closed, SIGINT or SIGTERM removes `temporary` and
/// ends the run with the shell's code for the signal.
fn remove_on_signals(temporary: &Path) -> std::io::Result<signal_hook::iterator::Handle> {
    use signal_hook::consts::{SIGINT, SIGTERM};
    let mut signals = signal_hook::iterator::Signals::new([SIGINT, SIGTERM])?;
    let handle = signals.handle();
    let temporary = temporary.to_path_buf();
    std::thread::spawn(move || {
        if let Some(signal) = signals.forever().next() {
            let _ = std::fs::remove_file(&temporary);
            std::process::exit(128 + signal);
        }
    });
    Ok(handle)
}

/// Removes the temporary files of `name` (`.NAME.PID.N.tmp`) whose process
/// no longer runs: left by a run killed while it wrote.
fn remove_abandoned_temporaries(dir: &Path, name: &str) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let prefix = format!(".{name}.");
    for entry in entries.flatten() {
        let file_name = entry.file_name();
        let Some(rest) = (file_name.to_str())
            .and_then(|f| f.strip_prefix(&prefix))
            .and_then(|f| f.strip_suffix(".tmp"))
        else {
            continue;
        };
        let Some(Ok(pid)) = rest
            .split_once('.')
            .map(|(pid, _)| pid.parse::<libc::pid_t>())
        else {
            continue;
        };
        // SAFETY: signal 0 only asks whether the process exists.
        let gone = unsafe { libc::kill(pid, 0) } != 0
            && std::io::Error::last_os_error().raw_os_error() == Some(libc::ESRCH);
        if gone {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

fn solve(config: Config, counters: Arc<Counters>) -> u8 {
    let style = Style {
        format: config.format,
        verbosity: config.verbosity,
    };
    let progress = Arc::new(Mutex::new(Progress {
        style,
        counters: counters.clone(),
        quiet: config.quiet,
        inputs: config.inputs.clone(),
        json: JsonDocument::default(),
        unwritten: None,
        held: None,
        output_error: None,
        pictures: pictures::PictureWriter::new(
            config.pictures.clone(),
            config.warnings.shows("other"),
        ),
        held_grid: None,
        picture_error: None,
        record: Record {
            calls: 0,
            models: 0,
            optimization: None,
            consequences: None,
            started: Instant::now(),
            solve_started: None,
            last_model: None,
            timings: Timings::default(),
            explanation: None,
            settled: None,
            interrupted: None,
        },
        finished: false,
    }));
    let threads = config.tuning.parallel.threads;
    if let Ok(cpus) = std::thread::available_parallelism()
        && threads > cpus.get()
    {
        // As clingo, whatever `-W` says.
        stderrln!(
            "*** Warn : (asp2sat): Oversubscription: #Threads={threads} exceeds logical CPUs={cpus}."
        );
    }
    // Set by the time limit or a signal: the search stops at it.
    let stop = Arc::new(AtomicBool::new(false));
    // The limit covers the whole run, grounding included, as clingo's does.
    if let Some(limit) = config.time_limit {
        spawn_watchdog(progress.clone(), stop.clone(), limit);
    }
    if let Err(e) = stop_on_signals(progress.clone(), stop.clone()) {
        stderrln!("asp2sat: warning: signals will end the run without a summary: {e}");
    }
    lock(&progress).print(|out| output::write_header(out, style, &config.inputs));
    let mut timings = Timings::default();
    let (mut loaded, overrides) = match load_program(&config.inputs, &config.consts, &mut timings) {
        Ok(loaded) => loaded,
        Err(code) => return unknown_after_error(&progress, code),
    };
    lock(&progress).record.timings.parse = timings.parse;
    let incremental = match loaded.incremental {
        None => None,
        Some(span) => match Incremental::new(&loaded.statements, &overrides, span) {
            Ok(incremental) => Some(incremental),
            Err(errors) => {
                let code = report_errors(&errors, &loaded.sources, "invalid constant");
                return unknown_after_error(&progress, code);
            }
        },
    };
    if let (Some(span), Some(_)) = (loaded.incremental, config.explain) {
        let error = Diagnostic::error(
            span,
            "--explain explains a single program: clingo's incremental mode solves one per step",
        );
        let code = report_errors(&[error], &loaded.sources, "nothing was solved");
        return unknown_after_error(&progress, code);
    }
    if config.pictures.svg.is_some() {
        pictures::show_vis_atoms(&mut loaded.statements);
    }
    let plan = config.plan();
    // One solver call, or one per step of incremental mode.
    let mut printed = FxHashSet::default();
    let mut last: Option<(Call, Sizes)> = None;
    for step in 0.. {
        let parts = match &incremental {
            None if step == 0 => Parts::base(),
            Some(incremental) if incremental.solves(step, last.as_ref().map(|c| c.0.result())) => {
                incremental.parts(step)
            }
            _ => break,
        };
        let ground_start = Instant::now();
        let mut program = match ground_parts(
            &loaded,
            &overrides,
            &parts,
            &config.warnings,
            &mut printed,
            &counters,
        ) {
            Ok(program) => program,
            Err(code) => return unknown_after_error(&progress, code),
        };
        lock(&progress).record.timings.ground += ground_start.elapsed();
        if incremental.is_none() && config.explain.is_none() {
            // Never grounded again: their memory (a big instance's facts)
            // is the solver's now.
            loaded.statements = Vec::new();
        }
        match config.project {
            Projection::Show => program.projection = None, // even with `#project`
            // No `#project` directive: clingo projects onto no atom at all.
            Projection::Project => _ = program.projection.get_or_insert_with(Vec::new),
            Projection::Auto | Projection::No => {}
        }
        // Shared with the search threads of `-t`, which may outlive the call.
        let program = Arc::new(program);
        let call = solve_call(
            &program,
            &plan,
            &config,
            (&progress, &stop),
            &loaded.sources,
            step == 0,
        );
        release_at_exit(program);
        match call {
            Ok(call) => last = Some(call),
            Err(code) => return unknown_after_error(&progress, code),
        }
        if lock(&progress).record.interrupted.is_some() {
            break;
        }
    }
    let interrupted = lock(&progress).record.interrupted;
    let (outcome, sizes) = match last {
        Some((call, sizes)) => (outcome(&call, interrupted.is_some()), Some(sizes)),
        None => (Outcome::Unknown, None), // incremental mode with imax = 0
    };
    lock(&progress).record.settled = Some(outcome);
    let blamed = match config.explain.filter(|_| interrupted.is_none()) {
        Some(scope) => match explain(&loaded, &overrides, scope, &config, outcome) {
            Ok(blamed) => blamed,
            Err(code) => return unknown_after_error(&progress, code),
        },
        None => None,
    };
    let mut progress = lock(&progress);
    progress.record.explanation = (blamed.as_ref()).map(|spans| located(spans, &loaded.sources));
    let sizes = sizes.filter(|_| config.stats);
    if progress.finished {
        // The time limit or a signal ended the run (in `--explain`).
        return outcome.exit_code(progress.record.models, true);
    }
    progress.finish(outcome, sizes.as_ref(), interrupted);
    if let Some(spans) = blamed {
        let messages = if spans.is_empty() {
            format!("info: {EXPLAINED_BY_THE_REST}\n")
        } else {
            let diagnostics: Vec<Diagnostic> = (spans.iter())
                .map(|&span| Diagnostic::info(span, "part of the reason there is no answer set"))
                .collect();
            render_all(&diagnostics, &loaded.sources)
        };
        let style = progress.style;
        progress.print(|out| out.write_all(output::explanation_text(style, &messages).as_bytes()));
    }
    if let Some(code) = progress.output_failure() {
        return code;
    }
    if let Some(error) = &progress.picture_error {
        return error.exit_code;
    }
    outcome.exit_code(progress.record.models, interrupted.is_some())
}

/// After an input error, clingo still ends its output as for a search
/// that found nothing: `UNKNOWN` and the summary in text, a complete JSON
/// document with one empty call. Scripts that read it must not break on
/// bad input. Other exit codes pass through.
fn unknown_after_error(progress: &Mutex<Progress>, code: u8) -> u8 {
    if code == EXIT_INPUT_ERROR {
        let mut progress = lock(progress);
        if progress.record.calls == 0 {
            progress.begin_call();
        }
        progress.finish(Outcome::Unknown, None, None);
    }
    code
}

/// What `--explain` says when the statements it may not blame have no
/// answer set by themselves.
const EXPLAINED_BY_THE_REST: &str =
    "there is no answer set even without any of the statements --explain may blame";

/// `--explain` after the run's result: when there is no answer set, a
/// minimal set of the statements that `scope` blames that has none (in
/// source order; empty when the others have none by themselves). `None`
/// when there is nothing to explain, said on standard error. `Err` holds
/// the exit code.
fn explain(
    loaded: &Loaded,
    overrides: &[(String, Term)],
    scope: Scope,
    config: &Config,
    outcome: Outcome,
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
    // The run's own grounding has printed the messages already.
    let (program, diagnostics) = ground::ground_parts(
        &guarded.statements,
        overrides,
        &Parts::base(),
        &Counters::default(),
    );
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
    let explanation =
        crate::solve::explain::minimal_unsatisfiable(&program, guarded.blamed.len(), options);
    release_at_exit(program);
    match explanation {
        Ok(Explanation::Unsatisfiable(numbers)) => {
            Ok(Some(numbers.iter().map(|&n| guarded.blamed[n]).collect()))
        }
        Ok(Explanation::Satisfiable) => nothing_to_explain(),
        Err(error) => Err(report_errors(
            &[error],
            &loaded.sources,
            "translation failed",
        )),
    }
}

/// Each statement of an explanation as the JSON output names it.
fn located(spans: &[Span], sources: &SourceMap) -> Vec<Blamed> {
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
    (progress, stop): (&Mutex<Progress>, &Arc<AtomicBool>),
    sources: &SourceMap,
    first: bool,
) -> Result<(Call, Sizes), u8> {
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
    let counters = lock(progress).counters.clone();
    let mut report = CallReport {
        progress,
        symbols: &program.symbols,
        objective: call.optimizing.then_some(config.opt_mode),
        consequences: config.consequences,
        started: Instant::now(),
    };
    let searched = driver::solve_call(program, &call, &counters, &mut report, stop);
    let call_started = report.started;
    let call = match searched {
        Ok(call) => call,
        Err(error) => return Err(report_errors(&[error], sources, "translation failed")),
    };
    let mut progress = lock(progress);
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
    };
    Ok((call, sizes))
}

/// Prints what the search of one call reports.
struct CallReport<'p> {
    progress: &'p Mutex<Progress>,
    symbols: &'p SymbolTable,
    /// The optimization mode, for a program that optimizes.
    objective: Option<OptMode>,
    consequences: Consequences,
    /// When the search began.
    started: Instant,
}

impl Report for CallReport<'_> {
    fn event(&mut self, event: Event<'_>) -> bool {
        let mut progress = lock(self.progress);
        match event {
            Event::Searching { translate_time } => {
                let style = progress.style;
                if !progress.print(|out| output::write_solving(out, style)) {
                    return false;
                }
                progress.record.timings.translate += translate_time;
                progress
                    .record
                    .solve_started
                    .get_or_insert_with(Instant::now);
                progress.begin_call();
                progress.record.optimization = self.objective.map(|mode| OptimizationSummary {
                    mode,
                    ..OptimizationSummary::default()
                });
                self.started = Instant::now();
            }
            Event::Answer(found) => {
                let (count, bounds) = (found.answer.shown.len(), found.consequences);
                if !progress.answer(found, self.symbols) {
                    return false;
                }
                if let Some(bounds) = bounds {
                    progress.record.consequences = Some((self.consequences, count, bounds));
                }
            }
            Event::OptimumProven => optimization(&mut progress).proven = true,
            Event::OptimalFollow => progress.held = None,
            Event::Optimal(count) => optimization(&mut progress).optimal = count,
            Event::Enumerated { exhausted } => {
                if let Some(optimization) = &mut progress.record.optimization {
                    optimization.proven = exhausted; // clingo's `OPTIMUM FOUND` of `enum`
                }
            }
            Event::ConsequencesExact => progress.settle_consequences(),
        }
        true
    }
}

/// What the summary says of the optimization of a program that optimizes.
fn optimization(progress: &mut Progress) -> &mut OptimizationSummary {
    progress.record.optimization.as_mut().expect("optimizing")
}

fn lock(progress: &Mutex<Progress>) -> std::sync::MutexGuard<'_, Progress> {
    progress
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Stops the run when the limit passes ([`request_stop`]).
fn spawn_watchdog(progress: Arc<Mutex<Progress>>, stop: Arc<AtomicBool>, limit: Duration) {
    std::thread::spawn(move || {
        std::thread::sleep(limit);
        request_stop(&progress, &stop, Interruption::TimeLimit);
    });
}

/// What clingo says on standard error when a signal or its time limit
/// stops a run.
const INTERRUPTED_INFO: &str = "*** Info : (asp2sat): INTERRUPTED by signal!";

/// How long a stopped run may take to end by itself: the search stops at
/// once, but grounding and translation do not look at the flag.
const UNHEEDED_STOP: Duration = Duration::from_millis(500);

/// Stops the run on SIGINT or SIGTERM ([`request_stop`]). A second signal
/// ends the process at once, should the summary not come.
fn stop_on_signals(progress: Arc<Mutex<Progress>>, stop: Arc<AtomicBool>) -> std::io::Result<()> {
    use signal_hook::consts::{SIGINT, SIGTERM};
    let signalled = Arc::new(AtomicBool::new(false));
    for signal in [SIGINT, SIGTERM] {
        // Registered first, so the first signal only sets the flag.
        signal_hook::flag::register_conditional_shutdown(signal, 1, signalled.clone())?;
        signal_hook::flag::register(signal, signalled.clone())?;
    }
    let mut signals = signal_hook::iterator::Signals::new([SIGINT, SIGTERM])?;
    std::thread::spawn(move || {
        if signals.forever().next().is_some() {
            request_stop(&progress, &stop, Interruption::Signal);
        }
    });
    Ok(())
}

/// Stops the run for `why`: the search stops at `stop`, and the run ends
/// with clingo's interrupted summary, the models found so far printed
/// already. Should the run still not have ended after [`UNHEEDED_STOP`]
/// (grounding, translation), the summary is printed from here and the
/// process ends with clingo's exit code.
fn request_stop(progress: &Mutex<Progress>, stop: &AtomicBool, why: Interruption) {
    {
        let mut progress = lock(progress);
        if progress.finished {
            return;
        }
        progress.record.interrupted.get_or_insert(why);
    }
    // The progress line is not drawn again: the summary follows.
    status::clear();
    stderrln!("{INTERRUPTED_INFO}");
    stop.store(true, Ordering::Release);
    std::thread::sleep(UNHEEDED_STOP);
    let mut progress = lock(progress);
    if progress.finished {
        return;
    }
    let outcome = progress.record.settled.unwrap_or(Outcome::Unknown);
    progress.finish(outcome, None, Some(why));
    std::process::exit(i32::from(outcome.exit_code(progress.record.models, true)));
}

/// The processor time the process has used, user and system, as clingo's
/// `CPU Time` reports it.
fn processor_time() -> Duration {
    let mut usage = std::mem::MaybeUninit::<libc::rusage>::uninit();
    // SAFETY: getrusage writes a complete `rusage` into the pointer it is
    // given and reports failure by its return value.
    let usage = unsafe {
        if libc::getrusage(libc::RUSAGE_SELF, usage.as_mut_ptr()) != 0 {
            return Duration::ZERO;
        }
        usage.assume_init()
    };
    let time = |t: libc::timeval| {
        Duration::from_secs(t.tv_sec.max(0) as u64) + Duration::from_micros(t.tv_usec.max(0) as u64)
    };
    time(usage.ru_utime) + time(usage.ru_stime)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_byte_of_a_string_is_written_back_as_read() {
        let mut program = b"p(\"".to_vec();
        program.extend(0x80..=0xFF);
        program.extend(b"\\\"\xe9\xa9\"). % \xe9\n");
        let Text { text, unreadable } = decode(&program);
        assert!(unreadable.is_none());
        let mut out = RawBytes(Vec::new());
        out.write_all(text.as_bytes()).unwrap();
        let comment = program.len() - 2;
        assert_eq!(out.0[..comment], program[..comment]);
        assert_eq!(&out.0[comment..], b"?\n");
    }
}
