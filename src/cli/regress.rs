//! `asp2sat test`: the flags of a regression run, its progress bar, and the
//! printing of what `crate::regress` finds.

use super::tuning::TuningOption;
use crate::regress::cases::{self, Case};
use crate::regress::child::Limits;
use crate::regress::expectation::Expectation;
use crate::regress::record::{self, Recorded};
use crate::regress::report::{self, Record};
use crate::regress::{self as regress, Settings, Tool, compare::SetDifference, slurm};
use indicatif::{ProgressBar, ProgressStyle};
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// Exit code when a case failed.
const EXIT_FAILED: u8 = 1;

/// Exit code when the run could not start: a folder or plan unreadable, a
/// reference clingo missing.
const EXIT_CANNOT_RUN: u8 = 2;

const AFTER_HELP: &str = "\
A program directory holds its files, a `cases` file (one case a line: its name, then \
the arguments of `asp2sat solve`, files relative to the directory) and `expected/` \
with each case's recorded answer (see docs/regression.md).\n\n\
Exit codes of test: 0 every case passed (or was refused as listed), 1 a case failed \
(or a recording disagreed), 2 the run could not start.";

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reference {
    /// asp2sat itself (the binary of --binary, else this one).
    Asp2sat,
    /// clingo on the PATH (--clingo), clingo 5.8 for directories whose
    /// `CLINGO` file says so (--clingo58).
    Clingo,
}

#[derive(clap::Args, Debug)]
// A flag given again overrides the earlier (`scripts/corpus-expect` gives
// `--timeout 30` before the caller's flags).
#[command(after_help = AFTER_HELP, args_override_self = true)]
pub struct TestArgs {
    /// Program directories (each with a `cases` file), or folders searched
    /// for them.
    #[arg(default_value = ".")]
    pub paths: Vec<PathBuf>,
    /// Only the cases whose `directory/name` contains PATTERN (repeatable:
    /// any of them).
    #[arg(short = 'k', long = "select", value_name = "PATTERN")]
    select: Vec<String>,
    /// Cases run at the same time (default: the number of processors).
    #[arg(short = 'j', long = "jobs", value_name = "N")]
    jobs: Option<usize>,
    /// Each case's time limit; the run is killed at it.
    #[arg(long, value_name = "SECONDS", default_value_t = 60.0)]
    timeout: f64,
    /// Each case's limit on address space (RLIMIT_AS).
    #[arg(long = "memory-limit", value_name = "MB")]
    memory_limit: Option<u64>,
    /// Report a case that passes but takes more than FACTOR times its
    /// recorded baseline (`expected/<case>.time`) as slower, a failure.
    #[arg(long, value_name = "FACTOR")]
    slower: Option<f64>,
    /// Write the expectations (and baseline times) instead of checking.
    #[arg(long)]
    record: bool,
    /// With --record: overwrite an expectation that disagrees.
    #[arg(long, requires = "record")]
    force: bool,
    /// Who answers: asp2sat, or clingo (to record its answers, or to time
    /// it against the expectations).
    #[arg(long, value_enum, value_name = "TOOL", default_value_t = Reference::Asp2sat)]
    reference: Reference,
    /// The asp2sat binary that answers (default: this one), e.g. an older
    /// version to compare with.
    #[arg(long, value_name = "PATH")]
    binary: Option<PathBuf>,
    /// The clingo 5.4 command (default: $CLINGO, else `clingo`).
    #[arg(long, value_name = "COMMAND")]
    clingo: Option<String>,
    /// The clingo 5.8 command (default: $CLINGO58, else `python3 -m clingo`).
    #[arg(long, value_name = "COMMAND")]
    clingo58: Option<String>,
    /// Write JUnit XML of the run to FILE.
    #[arg(long, value_name = "FILE")]
    junit: Option<PathBuf>,
    /// Write the run's records (one per case) as JSON to FILE.
    #[arg(long, value_name = "FILE")]
    json: Option<PathBuf>,
    /// Print the per-case ratio table of two runs' JSON records (B/A).
    #[arg(long, num_args = 2, value_names = ["A", "B"])]
    compare: Vec<PathBuf>,
    /// Write a Slurm job array for the cases into DIR instead of running
    /// them (`sbatch DIR/job.sbatch`, then --collect DIR).
    #[arg(long, value_name = "DIR", conflicts_with = "record")]
    slurm: Option<PathBuf>,
    /// With --slurm: at most N tasks of the array at once.
    #[arg(long = "array-limit", value_name = "N", requires = "slurm")]
    array_limit: Option<usize>,
    /// Run task INDEX of the plan in DIR and write its record (what each
    /// task of the job array does).
    #[arg(long, num_args = 2, value_names = ["DIR", "INDEX"])]
    task: Vec<String>,
    /// Read the records of the cluster run in DIR into the summary, JUnit
    /// and JSON of a run.
    #[arg(long, value_name = "DIR")]
    collect: Option<PathBuf>,
    /// Flags of `asp2sat solve` for every case, after `--` (e.g. `--
    /// --solver=cadical`).
    #[arg(last = true, value_name = "SOLVE_FLAGS")]
    flags: Vec<String>,
}

/// Writes to standard output; a reader gone away (`| head`) is no error
/// of the run.
fn say(text: &str) {
    let _ = std::io::stdout().write_all(text.as_bytes());
}

/// Runs `asp2sat measure` (see [`crate::regress::child::measure`]); the
/// exit code.
pub fn measure(report: &Path, command: &[String]) -> u8 {
    crate::regress::child::measure(report, command) as u8
}

/// Runs `asp2sat test`; the exit code. `tuning`: clingo's tuning options
/// taken out of the arguments, which belong to `solve`.
pub fn main(args: &TestArgs, tuning: &[TuningOption]) -> u8 {
    if !tuning.is_empty() {
        let given: Vec<&str> = tuning.iter().map(|option| option.given.as_str()).collect();
        return super::usage_error(&format!(
            "{} is a flag of solve: give solve's flags for every case after `--`",
            given.join(" ")
        ));
    }
    if let Ok(binary) = std::env::current_exe() {
        crate::regress::child::measure_through(binary);
    }
    let outcome = if let [a, b] = args.compare.as_slice() {
        compare(a, b)
    } else if let [dir, index] = args.task.as_slice() {
        task(Path::new(dir), index)
    } else if let Some(dir) = &args.collect {
        slurm::collect(dir).and_then(|records| report(args, &records, None))
    } else {
        run(args)
    };
    outcome.unwrap_or_else(|message| {
        stderrln!("asp2sat test: error: {message}");
        EXIT_CANNOT_RUN
    })
}

/// A command given as one string, split at white space.
fn command_words(given: Option<&str>, variable: &str, default: &str) -> Vec<String> {
    let text = given
        .map(str::to_string)
        .or_else(|| std::env::var(variable).ok())
        .unwrap_or_else(|| default.to_string());
    text.split_whitespace().map(str::to_string).collect()
}

fn settings(args: &TestArgs) -> Result<Settings, String> {
    let tool = match args.reference {
        Reference::Asp2sat => Tool::Asp2sat {
            binary: match &args.binary {
                Some(binary) => std::path::absolute(binary).map_err(|e| e.to_string())?,
                None => std::env::current_exe().map_err(|e| format!("asp2sat's own path: {e}"))?,
            },
            flags: args.flags.clone(),
        },
        Reference::Clingo => Tool::Clingo {
            clingo54: command_words(args.clingo.as_deref(), "CLINGO", "clingo"),
            clingo58: command_words(args.clingo58.as_deref(), "CLINGO58", "python3 -m clingo"),
        },
    };
    if args
        .slower
        .is_some_and(|factor| !(factor > 0.0 && factor.is_finite()))
    {
        return Err("--slower takes a positive factor".to_string());
    }
    if !(args.timeout > 0.0 && args.timeout.is_finite()) {
        return Err(format!(
            "--timeout {} is not a positive number of seconds",
            args.timeout
        ));
    }
    Ok(Settings {
        tool,
        limits: Limits {
            time: Duration::from_secs_f64(args.timeout),
            memory: args.memory_limit.map(|mb| mb << 20),
        },
        slower: args.slower,
    })
}

/// The selected cases, each with its directory made absolute (a task of a
/// cluster run starts elsewhere).
fn selected_cases(args: &TestArgs) -> Result<Vec<Case>, String> {
    let mut found = cases::select(cases::discover(&args.paths)?, &args.select);
    if found.is_empty() {
        return Err(format!("no case matches {:?}", args.select));
    }
    for case in &mut found {
        case.dir = std::path::absolute(&case.dir).map_err(|e| e.to_string())?;
    }
    Ok(found)
}

/// Checks that each clingo the cases need is the version their
/// expectations come from.
fn check_clingo_versions(tool: &Tool, cases: &[Case]) -> Result<(), String> {
    if !matches!(tool, Tool::Clingo { .. }) {
        return Ok(());
    }
    let mut checked: Vec<&str> = Vec::new();
    for case in cases {
        if !checked.contains(&case.clingo.as_str()) {
            record::clingo_version(tool.clingo_for(case), &case.clingo)?;
            checked.push(&case.clingo);
        }
    }
    Ok(())
}

fn jobs(args: &TestArgs) -> usize {
    args.jobs
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}

/// A progress bar on standard error when it is a terminal.
fn progress_bar(total: usize) -> ProgressBar {
    let term = std::env::var("TERM").ok();
    if !super::status::shows_line(std::io::stderr().is_terminal(), term.as_deref()) {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(total as u64);
    let style = ProgressStyle::with_template("{bar:40} {pos}/{len} cases, {elapsed} {msg}")
        .expect("the template is valid");
    bar.set_style(style);
    bar.enable_steady_tick(Duration::from_millis(200));
    bar
}

fn run(args: &TestArgs) -> Result<u8, String> {
    let settings = settings(args)?;
    let cases = selected_cases(args)?;
    check_clingo_versions(&settings.tool, &cases)?;
    if let Some(dir) = &args.slurm {
        let runner = std::env::current_exe().map_err(|e| format!("asp2sat's own path: {e}"))?;
        let plan = slurm::Plan { settings, cases };
        let script = slurm::write(&plan, dir, &runner, args.array_limit)?;
        say(&format!(
            "{} cases as a job array: sbatch {}\nthen: asp2sat test --collect {}\n",
            plan.cases.len(),
            script.display(),
            dir.display()
        ));
        return Ok(0);
    }
    if args.record {
        return Ok(record_all(args, &settings, &cases));
    }
    let start = Instant::now();
    let bar = progress_bar(cases.len());
    let failed = AtomicUsize::new(0);
    let records = regress::parallel_map(
        &cases,
        jobs(args),
        |case| regress::check(case, &settings),
        |record| {
            if record.status.is_failure() {
                let failures = failed.fetch_add(1, Ordering::Relaxed) + 1;
                bar.set_message(format!("{failures} failed"));
                bar.println(format!(
                    "{} {}",
                    record.status.describe().to_uppercase(),
                    record.case
                ));
            }
            bar.inc(1);
        },
    );
    bar.finish_and_clear();
    report(args, &records, Some(start.elapsed()))
}

/// Prints the summary and writes the JUnit and JSON files of a run.
fn report(args: &TestArgs, records: &[Record], elapsed: Option<Duration>) -> Result<u8, String> {
    // A collected run's time is the sum of its cases'.
    let seconds = elapsed.map_or_else(
        || records.iter().map(|r| r.seconds).sum(),
        |e| e.as_secs_f64(),
    );
    say(&report::summary(records, seconds));
    let write = |path: &Path, text: String| {
        std::fs::write(path, text).map_err(|e| format!("{}: {e}", path.display()))
    };
    if let Some(path) = &args.junit {
        write(path, report::junit(records))?;
    }
    if let Some(path) = &args.json {
        write(path, report::json(records))?;
    }
    let _ = std::io::stdout().flush();
    Ok(if report::any_failure(records) {
        EXIT_FAILED
    } else {
        0
    })
}

/// What differs between two expectation files, for a disagreement.
fn disagreement(old: &str, new: &str) -> String {
    let (Ok(old), Ok(new)) = (Expectation::parse(old), Expectation::parse(new)) else {
        return "the file on record is not an expectation".to_string();
    };
    let listed = |e: &Expectation| match e {
        Expectation::AnswerSets { sets, .. } => Some(sets.clone()),
        Expectation::Optimum { optimal_sets, .. } => optimal_sets.clone(),
        _ => None,
    };
    if old.kind() == new.kind()
        && old.result() == new.result()
        && let (Some(on_file), Some(found)) = (listed(&old), listed(&new))
        && let Some(difference) = SetDifference::of(&on_file, &found)
    {
        return format!("{difference}")
            .replace("missing", "only on file")
            .replace("extra", "only now");
    }
    format!(
        "on file: {} {}; now: {} {}",
        old.kind(),
        old.result(),
        new.kind(),
        new.result()
    )
}

fn record_all(args: &TestArgs, settings: &Settings, cases: &[Case]) -> u8 {
    let bar = progress_bar(cases.len());
    let recorded = regress::parallel_map(
        cases,
        jobs(args),
        |case| record::record(case, settings, args.force),
        |_| bar.inc(1),
    );
    bar.finish_and_clear();
    let mut counts = [0usize; 5];
    for (case, recorded) in cases.iter().zip(&recorded) {
        let path = case.expected_path("json");
        let (slot, line) = match recorded {
            Recorded::Written => (0, format!("wrote {}", path.display())),
            Recorded::Unchanged => (1, String::new()),
            Recorded::Overwritten { old } => {
                let new = std::fs::read_to_string(&path).unwrap_or_default();
                (
                    2,
                    format!("overwrote {}: {}", path.display(), disagreement(old, &new)),
                )
            }
            Recorded::Disagrees { old, new } => (
                3,
                format!(
                    "DISAGREES {} (kept; --force overwrites it): {}",
                    case.label(),
                    disagreement(old, new)
                ),
            ),
            Recorded::Failed(message) => (4, format!("FAILED {}: {message}", case.label())),
        };
        counts[slot] += 1;
        if !line.is_empty() {
            say(&(line.replace('\n', "\n  ") + "\n"));
        }
    }
    say(&format!(
        "{} cases recorded: {} written, {} unchanged, {} overwritten, {} disagree, {} failed\n",
        cases.len(),
        counts[0],
        counts[1],
        counts[2],
        counts[3],
        counts[4]
    ));
    if recorded.iter().any(Recorded::is_failure) {
        EXIT_FAILED
    } else {
        0
    }
}

fn task(dir: &Path, index: &str) -> Result<u8, String> {
    let index: usize = index
        .parse()
        .map_err(|_| format!("--task {index}: not a task number"))?;
    let record = slurm::run_task(dir, index)?;
    say(&format!("{} {}\n", record.status.describe(), record.case));
    Ok(0)
}

fn compare(a: &Path, b: &Path) -> Result<u8, String> {
    let read = |path: &Path| {
        std::fs::read_to_string(path)
            .map_err(|e| e.to_string())
            .and_then(|text| report::parse_json(&text))
            .map_err(|e| format!("{}: {e}", path.display()))
    };
    let (a_records, b_records) = (read(a)?, read(b)?);
    say(&format!("A: {}\nB: {}\n", a.display(), b.display()));
    say(&report::compare_runs(&a_records, &b_records));
    Ok(0)
}
