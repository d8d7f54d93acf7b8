//! A run spread over a cluster: `--slurm DIR` writes the plan (the cases
//! and settings, `plan.json`) and a Slurm job-array script (`job.sbatch`)
//! whose task `i` runs case `i` (`asp2sat test --task DIR i`) and writes its
//! record to `records/i.json`; `--collect DIR` reads the records back, a
//! case without one as missing. Any scheduler that can run `asp2sat test
//! --task DIR i` for each `i` on a shared file system serves as well (GNU
//! parallel over ssh, see docs/regression.md).

use super::cases::Case;
use super::report::{Record, Status};
use super::{Settings, check};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// What every task of a cluster run reads.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Plan {
    pub settings: Settings,
    pub cases: Vec<Case>,
}

pub const PLAN_FILE: &str = "plan.json";
pub const SCRIPT_FILE: &str = "job.sbatch";
const RECORDS_DIR: &str = "records";
const LOGS_DIR: &str = "logs";

/// Seconds a task may take beyond the case's time limit before Slurm ends
/// it: starting the runner, reading the plan, writing the record.
const TASK_MARGIN_SECONDS: u64 = 60;

/// Extra memory a task asks Slurm for beyond the case's limit, in MB: the
/// runner's own.
const TASK_MEMORY_MARGIN_MB: u64 = 256;

/// A word for the shell in single quotes.
fn shell_quote(word: &str) -> String {
    format!("'{}'", word.replace('\'', "'\\''"))
}

/// The job-array script: one task per case, each running `runner test
/// --task DIR $SLURM_ARRAY_TASK_ID` with the case's limits as the task's.
pub fn script(plan: &Plan, dir: &Path, runner: &Path, parallel: Option<usize>) -> String {
    let limits = plan.settings.limits;
    let minutes = (limits.time.as_secs() + TASK_MARGIN_SECONDS).div_ceil(60);
    let throttle = parallel.map_or(String::new(), |n| format!("%{n}"));
    let mut text = format!(
        "#!/bin/sh\n\
         # asp2sat test: {} cases as a Slurm job array, written by `asp2sat test --slurm`.\n\
         # Submit with `sbatch {}`; when it is done, `asp2sat test --collect {}`.\n\
         #SBATCH --job-name=asp2sat-test\n\
         #SBATCH --array=0-{}{throttle}\n\
         #SBATCH --ntasks=1\n\
         #SBATCH --cpus-per-task=1\n\
         #SBATCH --time={minutes}\n\
         #SBATCH --output={}/%a.out\n",
        plan.cases.len(),
        dir.join(SCRIPT_FILE).display(),
        dir.display(),
        plan.cases.len().saturating_sub(1),
        dir.join(LOGS_DIR).display(),
    );
    if let Some(bytes) = limits.memory {
        let megabytes = bytes.div_ceil(1 << 20) + TASK_MEMORY_MARGIN_MB;
        text += &format!("#SBATCH --mem={megabytes}M\n");
    }
    text += &format!(
        "exec {} test --task {} \"$SLURM_ARRAY_TASK_ID\"\n",
        shell_quote(&runner.to_string_lossy()),
        shell_quote(&dir.to_string_lossy())
    );
    text
}

/// Writes the plan and the script into `dir` (made absolute, since the
/// tasks run elsewhere): the script's path.
pub fn write(
    plan: &Plan,
    dir: &Path,
    runner: &Path,
    parallel: Option<usize>,
) -> Result<PathBuf, String> {
    let dir = std::path::absolute(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let fail = |path: &Path, e: std::io::Error| format!("{}: {e}", path.display());
    for sub in [RECORDS_DIR, LOGS_DIR] {
        std::fs::create_dir_all(dir.join(sub)).map_err(|e| fail(&dir.join(sub), e))?;
    }
    let plan_path = dir.join(PLAN_FILE);
    let text = serde_json::to_string_pretty(plan).expect("a plan is plain data");
    std::fs::write(&plan_path, text + "\n").map_err(|e| fail(&plan_path, e))?;
    let script_path = dir.join(SCRIPT_FILE);
    std::fs::write(&script_path, script(plan, &dir, runner, parallel))
        .map_err(|e| fail(&script_path, e))?;
    Ok(script_path)
}

pub fn read_plan(dir: &Path) -> Result<Plan, String> {
    let path = dir.join(PLAN_FILE);
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    serde_json::from_str(&text).map_err(|e| format!("{}: not a plan: {e}", path.display()))
}

fn record_path(dir: &Path, index: usize) -> PathBuf {
    dir.join(RECORDS_DIR).join(format!("{index}.json"))
}

/// Runs task `index` of the plan in `dir` and writes its record (through a
/// temporary file, so that a record is whole or absent).
pub fn run_task(dir: &Path, index: usize) -> Result<Record, String> {
    let plan = read_plan(dir)?;
    let case = plan
        .cases
        .get(index)
        .ok_or_else(|| format!("task {index}: the plan has {} cases", plan.cases.len()))?;
    let record = check(case, &plan.settings);
    let path = record_path(dir, index);
    let partial = path.with_extension("json.partial");
    let text = serde_json::to_string(&record).expect("a record is plain data") + "\n";
    std::fs::write(&partial, text)
        .and_then(|()| std::fs::rename(&partial, &path))
        .map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(record)
}

/// The records of the plan in `dir`, in its order; a case whose task wrote
/// none is missing.
pub fn collect(dir: &Path) -> Result<Vec<Record>, String> {
    let plan = read_plan(dir)?;
    let mut records = Vec::new();
    for (index, case) in plan.cases.iter().enumerate() {
        let path = record_path(dir, index);
        let record = match std::fs::read_to_string(&path) {
            Ok(text) => serde_json::from_str(&text)
                .map_err(|e| format!("{}: not a record: {e}", path.display()))?,
            Err(_) => {
                let log = dir.join(LOGS_DIR).join(format!("{index}.out"));
                let detail = format!("task {index} wrote no record (see {})", log.display());
                Record::new(case, &plan.settings.tool).with(Status::Missing, detail)
            }
        };
        records.push(record);
    }
    Ok(records)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::regress::Tool;
    use crate::regress::child::Limits;
    use std::time::Duration;

    #[test]
    fn the_script_asks_for_the_cases_limits() {
        let case = Case {
            dir: "/c/d".into(),
            group: "d".into(),
            name: "one".into(),
            args: vec!["p.lp".into()],
            reference_args: None,
            clingo: "5.4".into(),
        };
        let plan = Plan {
            settings: Settings {
                tool: Tool::Asp2sat {
                    binary: "/bin/asp2sat".into(),
                    flags: vec![],
                },
                limits: Limits {
                    time: Duration::from_secs(90),
                    memory: Some(1 << 30),
                },
                slower: None,
            },
            cases: vec![case.clone(), case],
        };
        let text = script(
            &plan,
            Path::new("/runs/it's"),
            Path::new("/bin/asp2sat"),
            Some(4),
        );
        assert!(text.contains("#SBATCH --array=0-1%4\n"), "{text}");
        assert!(text.contains("#SBATCH --time=3\n"), "{text}");
        assert!(text.contains("#SBATCH --mem=1280M\n"), "{text}");
        assert!(
            text.ends_with(
                "exec '/bin/asp2sat' test --task '/runs/it'\\''s' \"$SLURM_ARRAY_TASK_ID\"\n"
            ),
            "{text}"
        );
    }
}
