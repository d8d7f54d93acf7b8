//! Recording expectations (`asp2sat test --record`): a case's answer from
//! asp2sat or a reference clingo, in one of the four kinds, and the time it
//! took as the baseline. An expectation that disagrees with the one on file
//! is reported and kept, unless forced.

use super::cases::Case;
use super::child::{self, Exit, Finished, Limits};
use super::compare::Answer;
use super::expectation::{Baseline, Expectation, MAX_LISTED};
use super::{Settings, Tool};
use std::time::Duration;

/// What recording did with a case.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Recorded {
    /// A new expectation was written.
    Written,
    /// The expectation on file is the same (the baseline was updated).
    Unchanged,
    /// The expectation on file differed and was overwritten (`--force`).
    Overwritten { old: String },
    /// The expectation on file differs; it was kept.
    Disagrees { old: String, new: String },
    /// No answer could be had.
    Failed(String),
}

impl Recorded {
    pub fn is_failure(&self) -> bool {
        matches!(self, Recorded::Disagrees { .. } | Recorded::Failed(_))
    }
}

/// One run of the tool for an expectation: its answer and time, `None` at
/// the time limit, an error when the tool did not answer.
fn answer(
    tool: &Tool,
    case: &Case,
    models: usize,
    opt_n: bool,
    limits: Limits,
) -> Result<Option<(Answer, Duration)>, String> {
    let command = tool.command(case, models, opt_n);
    let finished = child::run(&command, &case.dir, limits)?;
    // clingo 5.4 exits with 10, 20 or 30 (SAT, UNSAT, exhausted); clingo 5.8
    // of `python3 -m clingo` always with 0, telling an error by `*** ERROR`
    // and the result UNKNOWN.
    let failed = |finished: &Finished, why: &str| {
        Err(format!(
            "{} {} ended with {:?}: {why}\n{}",
            tool.name(case),
            tool.args(case).join(" "),
            finished.exit,
            finished.stderr.trim_end()
        ))
    };
    match finished.exit {
        Exit::TimedOut => return Ok(None),
        Exit::Code(0 | 10 | 20 | 30) if !finished.stderr.contains("*** ERROR") => {}
        _ => return failed(&finished, "no answer"),
    }
    if finished.stdout_cut {
        return failed(&finished, "too much output");
    }
    match Answer::parse(&finished.stdout) {
        Ok(answer) if answer.result != "UNKNOWN" => Ok(Some((answer, finished.wall))),
        Ok(_) => failed(&finished, "the result is UNKNOWN"),
        Err(e) => failed(&finished, &e),
    }
}

/// The expectation a tool gives for a case, and the time of the run the
/// check repeats: all answer sets within the time limit, else the result
/// of `-n 1`; for an optimization program the optimum and, when found in
/// time, every optimal answer set.
pub fn expectation(
    tool: &Tool,
    case: &Case,
    limits: Limits,
) -> Result<(Expectation, Duration), String> {
    let seconds = limits.time.as_secs_f64();
    let Some((all, time)) = answer(tool, case, 0, false, limits)? else {
        let (first, time) = answer(tool, case, 1, false, limits)?
            .ok_or_else(|| format!("{} found no answer in {seconds} s", tool.name(case)))?;
        return Ok((
            Expectation::Result {
                result: first.result,
            },
            time,
        ));
    };
    if let Some(costs) = all.costs {
        let mut time = time;
        let mut optimal_sets = None;
        if let Some((optimal, optimal_time)) = answer(tool, case, 0, true, limits)?
            && optimal.more == "no"
            && optimal.sets.len() <= MAX_LISTED
        {
            optimal_sets = Some(optimal.sorted_sets());
            time = optimal_time;
        }
        let result = all.result;
        let optimum = Expectation::Optimum {
            result,
            costs,
            optimal_sets,
        };
        return Ok((optimum, time));
    }
    if all.more != "no" {
        return Err(format!("{} stopped early", tool.name(case)));
    }
    let result = all.result.clone();
    if all.sets.len() > MAX_LISTED {
        let models = all.sets.len();
        return Ok((Expectation::Count { result, models }, time));
    }
    let sets = all.sorted_sets();
    Ok((Expectation::AnswerSets { result, sets }, time))
}

/// The version line of a clingo command, checked to be `version`'s.
pub fn clingo_version(command: &[String], version: &str) -> Result<String, String> {
    let mut with_flag = command.to_vec();
    with_flag.push("--version".to_string());
    let limits = Limits {
        time: Duration::from_secs(60),
        memory: None,
    };
    let finished = child::run(&with_flag, std::path::Path::new("."), limits)?;
    let first = finished
        .stdout
        .lines()
        .next()
        .unwrap_or_default()
        .to_string();
    if first.contains(&format!(" {version}.")) {
        Ok(first)
    } else {
        Err(format!(
            "{} is not clingo {version}: {first:?}",
            command.join(" ")
        ))
    }
}

/// Records the expectation of one case: written when new or the same,
/// kept and reported when it disagrees with the file unless `force`.
pub fn record(case: &Case, settings: &Settings, force: bool) -> Recorded {
    let (expectation, time) = match expectation(&settings.tool, case, settings.limits) {
        Ok(found) => found,
        Err(message) => return Recorded::Failed(message),
    };
    let path = case.expected_path("json");
    let new = expectation.render();
    let old = std::fs::read_to_string(&path).ok();
    let recorded = match old {
        None => Recorded::Written,
        Some(old) if old == new => Recorded::Unchanged,
        Some(old) if force => Recorded::Overwritten { old },
        Some(old) => return Recorded::Disagrees { old, new },
    };
    let baseline = Baseline {
        seconds: time.as_secs_f64(),
        tool: settings.tool.name(case),
    };
    let written = std::fs::create_dir_all(path.parent().expect("expected/ is a directory"))
        .and_then(|()| {
            if recorded != Recorded::Unchanged {
                std::fs::write(&path, &new)?;
            }
            std::fs::write(case.expected_path("time"), baseline.render())
        });
    match written {
        Ok(()) => recorded,
        Err(e) => Recorded::Failed(format!("{}: {e}", path.display())),
    }
}
