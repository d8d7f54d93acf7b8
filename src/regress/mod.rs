//! Regression runs (`asp2sat test`): folders of cases run against their
//! recorded answers, each case a child process of its own under a time and
//! memory limit, so that a crash or a hang is reported, never taking the
//! runner down.
//!
//! - [`cases`]: the folders of cases (the corpus format of `fixtures/corpus/`);
//! - [`expectation`]: a case's recorded answer and baseline time;
//! - [`compare`]: an answer against its expectation (the project's one
//!   comparison of answer sets, as multisets);
//! - [`child`]: running a program within limits;
//! - [`record`]: writing expectations from asp2sat or a reference clingo;
//! - [`report`]: the records of a run, its summary, JUnit XML, JSON, and
//!   the comparison of two runs;
//! - [`slurm`]: a run as a Slurm job array, and its records collected.
//!
//! This module reads and writes the case folders and starts processes;
//! the pipeline's stages never do (the printing is the command line's).

pub mod cases;
pub mod child;
pub mod compare;
pub mod expectation;
pub mod record;
pub mod report;
pub mod slurm;

use cases::Case;
use child::{Exit, Finished, Limits};
use compare::Answer;
use expectation::{Baseline, Expectation};
use report::{Record, Status};
use serde::{Deserialize, Serialize};
use std::path::PathBuf;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

/// asp2sat's exit code for an input it refuses (an error in it, or what it
/// does not support).
const EXIT_REFUSED: i32 = 65;

/// clingo's (and asp2sat's) exit code when memory runs out.
const EXIT_OUT_OF_MEMORY: i32 = 33;

/// The program that answers the cases.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Tool {
    /// An asp2sat binary (`solve` is added) with flags for every case.
    Asp2sat { binary: PathBuf, flags: Vec<String> },
    /// clingo: the command for clingo 5.4, and for the directories whose
    /// `CLINGO` file names 5.8, the one for clingo 5.8.
    Clingo {
        clingo54: Vec<String>,
        clingo58: Vec<String>,
    },
}

impl Tool {
    /// The command that answers `case` with `-n models`, listing the
    /// optimal answer sets with `opt_n`.
    pub fn command(&self, case: &Case, models: usize, opt_n: bool) -> Vec<String> {
        let mut command = match self {
            Tool::Asp2sat { binary, .. } => {
                vec![binary.to_string_lossy().into_owned(), "solve".to_string()]
            }
            Tool::Clingo { .. } => self.clingo_for(case).to_vec(),
        };
        command.extend(["--outf=2".to_string(), "-n".to_string(), models.to_string()]);
        if let Tool::Asp2sat { .. } = self {
            // The statistics name the SAT solver the run chose.
            command.push("--stats".to_string());
        }
        if opt_n {
            command.extend(["--opt-mode=optN".to_string(), "--quiet=1".to_string()]);
        }
        if let Tool::Asp2sat { flags, .. } = self {
            command.extend(flags.iter().cloned());
        }
        command.extend(self.args(case).iter().cloned());
        command
    }

    /// The case's arguments for this tool: clingo's own after `|`, if any.
    pub fn args<'c>(&self, case: &'c Case) -> &'c [String] {
        match (self, &case.reference_args) {
            (Tool::Clingo { .. }, Some(reference)) => reference,
            _ => &case.args,
        }
    }

    /// The clingo command for the case's directory.
    pub fn clingo_for(&self, case: &Case) -> &[String] {
        match self {
            Tool::Clingo { clingo58, .. } if case.clingo == "5.8" => clingo58,
            Tool::Clingo { clingo54, .. } => clingo54,
            Tool::Asp2sat { .. } => &[],
        }
    }

    /// The tool's name in records.
    pub fn name(&self, case: &Case) -> String {
        match self {
            Tool::Asp2sat { .. } => "asp2sat".to_string(),
            Tool::Clingo { .. } => format!("clingo {}", case.clingo),
        }
    }

    /// The SAT solver named by asp2sat's `--solver` (`auto` when none is:
    /// a run's statistics then name the one chosen), or clasp.
    pub fn backend(&self) -> String {
        match self {
            Tool::Asp2sat { flags, .. } => {
                let named = flags.iter().enumerate().find_map(|(i, flag)| {
                    flag.strip_prefix("--solver=")
                        .map(str::to_string)
                        .or_else(|| (flag == "--solver").then(|| flags.get(i + 1).cloned())?)
                });
                named.unwrap_or_else(|| "auto".to_string())
            }
            Tool::Clingo { .. } => "clasp".to_string(),
        }
    }
}

/// How cases are run and judged.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Settings {
    pub tool: Tool,
    pub limits: Limits,
    /// A case that passes but takes more than this factor times its
    /// recorded baseline is reported as slower.
    pub slower: Option<f64>,
}

/// Runs below this many seconds are compared with a baseline as if they
/// took this long: shorter times measure process start-up, not the search.
pub const SLOWDOWN_FLOOR: f64 = 0.1;

/// Runs `work` on every item with `jobs` threads, calling `done` with each
/// result as it comes; the results in item order.
pub fn parallel_map<T: Sync, R: Send>(
    items: &[T],
    jobs: usize,
    work: impl Fn(&T) -> R + Sync,
    done: impl Fn(&R) + Sync,
) -> Vec<R> {
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<R>>> = Mutex::new(items.iter().map(|_| None).collect());
    std::thread::scope(|scope| {
        for _ in 0..jobs.clamp(1, items.len().max(1)) {
            scope.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(item) = items.get(i) else { break };
                    let result = work(item);
                    done(&result);
                    results.lock().unwrap_or_else(|e| e.into_inner())[i] = Some(result);
                }
            });
        }
    });
    let results = results.into_inner().unwrap_or_else(|e| e.into_inner());
    results.into_iter().flatten().collect()
}

/// Reads a case's expectation; a message saying what is wrong otherwise.
pub fn read_expectation(case: &Case) -> Result<Expectation, String> {
    let path = case.expected_path("json");
    match std::fs::read_to_string(&path) {
        Ok(text) => Expectation::parse(&text).map_err(|e| format!("{}: {e}", path.display())),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Err(format!(
            "no expectation {} (write one with --record)",
            path.display()
        )),
        Err(e) => Err(format!("{}: {e}", path.display())),
    }
}

/// The listed refusal: the first error line asp2sat gives for the case.
fn read_refusal(case: &Case) -> Option<String> {
    let text = std::fs::read_to_string(case.expected_path("refused")).ok()?;
    Some(text.trim().to_string())
}

fn read_baseline(case: &Case) -> Option<Baseline> {
    let text = std::fs::read_to_string(case.expected_path("time")).ok()?;
    Baseline::parse(&text).ok()
}

/// The first line of a located error, or of standard error.
fn first_error_line(stderr: &str) -> &str {
    (stderr.lines())
        .find(|line| line.contains("error:") || line.contains("ERROR"))
        .or_else(|| stderr.lines().next())
        .unwrap_or("(nothing on standard error)")
}

/// The message of a located error line, without its location.
fn reason(error_line: &str) -> String {
    error_line
        .split_once("error: ")
        .map_or(error_line, |(_, message)| message)
        .to_string()
}

/// The last lines of standard error, for a report.
fn tail(stderr: &str) -> String {
    let lines: Vec<&str> = stderr.lines().collect();
    let start = lines.len().saturating_sub(5);
    lines[start..].join("\n")
}

/// Runs one case and judges its answer.
pub fn check(case: &Case, settings: &Settings) -> Record {
    let mut record = Record::new(case, &settings.tool);
    record.baseline = read_baseline(case);
    let expectation = match read_expectation(case) {
        Ok(expectation) => expectation,
        Err(message) => return record.with(Status::Failed, message),
    };
    // Only the result is recorded when the reference could not enumerate.
    let models = usize::from(matches!(expectation, Expectation::Result { .. }));
    let opt_n = matches!(
        expectation,
        Expectation::Optimum {
            optimal_sets: Some(_),
            ..
        }
    );
    let command = settings.tool.command(case, models, opt_n);
    let finished = match child::run(&command, &case.dir, settings.limits) {
        Ok(finished) => finished,
        Err(message) => return record.with(Status::Failed, message),
    };
    record.measured(&finished);
    let (status, detail) = judge(case, settings, &expectation, &finished, &mut record);
    let record = record.with(status, detail);
    slowdown(record, settings)
}

/// The status of a finished run, and what to say about it.
fn judge(
    case: &Case,
    settings: &Settings,
    expectation: &Expectation,
    finished: &Finished,
    record: &mut Record,
) -> (Status, String) {
    let stderr = &finished.stderr;
    let code = match finished.exit {
        Exit::TimedOut => {
            let limit = settings.limits.time.as_secs_f64();
            return (
                Status::TimedOut,
                format!("killed at the time limit of {limit} s"),
            );
        }
        Exit::Signal(signal) => {
            let detail = format!("killed by {}\n{}", child::signal_name(signal), tail(stderr));
            return (Status::Crashed, detail.trim_end().to_string());
        }
        Exit::Code(EXIT_OUT_OF_MEMORY) => return (Status::OutOfMemory, tail(stderr)),
        Exit::Code(code) if stderr.contains("panicked at") => {
            return (
                Status::Crashed,
                format!("exit code {code}, a panic:\n{}", tail(stderr)),
            );
        }
        Exit::Code(code) => code,
    };
    let asp2sat = matches!(settings.tool, Tool::Asp2sat { .. });
    let listed = read_refusal(case).filter(|_| asp2sat);
    let refused = asp2sat && code == EXIT_REFUSED;
    let mut outcome = || compare_answer(case, expectation, finished, code, record);
    match (listed, refused) {
        (Some(listed), true) => {
            let now = first_error_line(stderr);
            if now.contains(&listed) {
                (Status::Refused, reason(&listed))
            } else {
                let detail =
                    format!("the listed refusal changed:\n  listed: {listed}\n  now:    {now}");
                (Status::Failed, detail)
            }
        }
        (Some(listed), false) => {
            let now = match outcome() {
                (Status::Passed, _) => "agreement".to_string(),
                (_, difference) => difference,
            };
            let detail = format!(
                "the listed refusal ({listed}) no longer happens: delete {} so that the case is \
                 compared with its expectation; the comparison now gives: {now}",
                case.expected_path("refused").display()
            );
            (Status::Failed, detail)
        }
        (None, true) => (
            Status::Failed,
            format!("refused: {}", first_error_line(stderr)),
        ),
        (None, false) => outcome(),
    }
}

/// The answer of a run that ended normally, against the expectation.
fn compare_answer(
    case: &Case,
    expectation: &Expectation,
    finished: &Finished,
    code: i32,
    record: &mut Record,
) -> (Status, String) {
    if finished.stdout_cut {
        let megabytes = child::KEPT_OUTPUT >> 20;
        let detail = format!("exit code {code}, and more than {megabytes} MiB of output");
        return (Status::Failed, detail);
    }
    let answer = match Answer::parse(&finished.stdout) {
        Ok(answer) => answer,
        Err(e) => {
            let detail = format!("exit code {code} and {e}\n{}", tail(&finished.stderr));
            return (Status::Failed, detail.trim_end().to_string());
        }
    };
    record.result = Some(answer.result.clone());
    record.models = Some(answer.sets.len());
    record.costs = answer.costs.clone();
    if let Some(solver) = &answer.sat_solver {
        record.backend = solver.clone();
    }
    match compare::compare(expectation, &answer, case.projects()) {
        None => (Status::Passed, String::new()),
        Some(difference) => (Status::Failed, difference.to_string()),
    }
}

/// A passed case that took longer than the factor allows becomes slower.
fn slowdown(record: Record, settings: &Settings) -> Record {
    let (Some(factor), Some(baseline)) = (settings.slower, &record.baseline) else {
        return record;
    };
    let allowed = factor * baseline.seconds.max(SLOWDOWN_FLOOR);
    if record.status != Status::Passed || record.seconds <= allowed {
        return record;
    }
    let detail = format!(
        "{:.3} s, {:.1}x the baseline {:.3} s ({}), more than {factor}x",
        record.seconds,
        record.seconds / baseline.seconds.max(SLOWDOWN_FLOOR),
        baseline.seconds,
        baseline.tool
    );
    record.with(Status::Slower, detail)
}
