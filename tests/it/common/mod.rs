//! Helpers shared by the integration tests: running the asp2sat binary (and
//! clingo, minisat) with a time limit, reading clingo's `--outf=2` JSON, a
//! tiny thread pool, numbers from the environment and the random number
//! generator of the program generators. Each test crate uses only part of
//! this.
#![allow(dead_code)]

pub mod generator;
pub mod grammar;
pub mod incremental;
pub mod mutants;
pub mod reading;

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use serde_json::Value;

/// The repository root: the tests read `encodings/` and `fixtures/` from here
/// and run the binary with it as the working directory.
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

pub fn asp2sat_bin() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_asp2sat"))
}

/// A scratch directory for this test crate (under target/, kept after a run
/// so that failing inputs can be inspected).
pub fn scratch(sub: &str) -> PathBuf {
    let d = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(sub);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Seconds one run of a solver may take before it is killed and reported:
/// env `ASP2SAT_TEST_TIMEOUT`, default 60.
pub fn timeout() -> Duration {
    let secs = std::env::var("ASP2SAT_TEST_TIMEOUT")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(60);
    Duration::from_secs(secs)
}

#[derive(Debug, Clone)]
pub struct Output {
    /// `None` when killed by a signal (a crash) or by the time limit.
    pub code: Option<i32>,
    pub stdout: String,
    pub stderr: String,
    pub timed_out: bool,
    pub elapsed: Duration,
}

impl Output {
    /// One line saying how the run ended, for failure messages.
    pub fn status(&self) -> String {
        match (self.timed_out, self.code) {
            (true, _) => format!("killed after {:?} (time limit)", self.elapsed),
            (false, Some(c)) => format!("exit code {c}"),
            (false, None) => "killed by a signal (crash)".to_string(),
        }
    }
}

/// Run `program args` in `cwd` with optional stdin, within `limit`.
pub fn run(
    program: &Path,
    args: &[String],
    cwd: &Path,
    stdin: Option<&str>,
    limit: Duration,
) -> Output {
    let start = Instant::now();
    let mut child = Command::new(program)
        .args(args)
        .current_dir(cwd)
        .stdin(if stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {}: {e}", program.display()));
    // Feed stdin and drain stdout/stderr on threads so no pipe can fill up.
    let input = stdin.map(|s| s.to_string());
    let mut sin = child.stdin.take();
    let writer = std::thread::spawn(move || {
        if let (Some(mut w), Some(text)) = (sin.take(), input) {
            let _ = w.write_all(text.as_bytes());
        }
    });
    let mut so = child.stdout.take().unwrap();
    let mut se = child.stderr.take().unwrap();
    let out_t = std::thread::spawn(move || {
        let mut v = Vec::new();
        let _ = so.read_to_end(&mut v);
        v
    });
    let err_t = std::thread::spawn(move || {
        let mut v = Vec::new();
        let _ = se.read_to_end(&mut v);
        v
    });
    let mut timed_out = false;
    let status = loop {
        if let Some(st) = child.try_wait().unwrap() {
            break st;
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            timed_out = true;
            break child.wait().unwrap();
        }
        std::thread::sleep(Duration::from_millis(2));
    };
    let _ = writer.join();
    let stdout = String::from_utf8_lossy(&out_t.join().unwrap()).into_owned();
    let stderr = String::from_utf8_lossy(&err_t.join().unwrap()).into_owned();
    Output {
        code: if timed_out { None } else { status.code() },
        stdout,
        stderr,
        timed_out,
        elapsed: start.elapsed(),
    }
}

/// `asp2sat solve <args>` from the repository root.
pub fn asp2sat_solve(args: &[String], stdin: Option<&str>) -> Output {
    let mut a = vec!["solve".to_string()];
    a.extend(args.iter().cloned());
    run(&asp2sat_bin(), &a, &root(), stdin, timeout())
}

pub fn strings(xs: &[&str]) -> Vec<String> {
    xs.iter().map(|s| s.to_string()).collect()
}

/// What matters of a clingo-style `--outf=2` document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Answer {
    pub result: String,
    /// Every witness of every call, each sorted; the list in output order.
    pub witnesses: Vec<Vec<String>>,
    pub number: u64,
    pub more: String,
    /// `Models.Costs`: the cost vector of the optimum (or best model).
    pub costs: Option<Vec<i64>>,
    /// The cost vector of each witness, in the order of `witnesses`.
    pub witness_costs: Vec<Option<Vec<i64>>>,
}

impl Answer {
    /// The witnesses as a sorted multiset (sorted list of sorted lists).
    pub fn sorted(&self) -> Vec<Vec<String>> {
        let mut w = self.witnesses.clone();
        w.sort();
        w
    }

    /// The witnesses with their costs, as a sorted multiset.
    pub fn sorted_with_costs(&self) -> Vec<(Vec<String>, Option<Vec<i64>>)> {
        let mut w: Vec<_> = (self.witnesses.iter().cloned())
            .zip(self.witness_costs.iter().cloned())
            .collect();
        w.sort();
        w
    }
}

/// A JSON array of integers (clingo's `Costs`).
fn json_costs(costs: &Value) -> Result<Option<Vec<i64>>, String> {
    costs
        .as_array()
        .map(|costs| {
            costs
                .iter()
                .map(|c| c.as_i64().ok_or("a cost is not an integer".to_string()))
                .collect()
        })
        .transpose()
}

/// Parse a clingo `--outf=2` document (also the format asp2sat must print).
pub fn parse_json_answer(text: &str) -> Result<Answer, String> {
    let v: Value = serde_json::from_str(text).map_err(|e| format!("stdout is not JSON ({e})"))?;
    let result = v["Result"]
        .as_str()
        .ok_or("no \"Result\" string")?
        .to_string();
    let calls = v["Call"].as_array().ok_or("no \"Call\" array")?;
    let mut witnesses = Vec::new();
    let mut witness_costs = Vec::new();
    for call in calls {
        if let Some(ws) = call.get("Witnesses") {
            for w in ws.as_array().ok_or("\"Witnesses\" is not an array")? {
                let vals = w["Value"]
                    .as_array()
                    .ok_or("a witness has no \"Value\" array")?;
                let mut atoms: Vec<String> = vals
                    .iter()
                    .map(|a| {
                        a.as_str()
                            .map(str::to_string)
                            .ok_or("a \"Value\" entry is not a string")
                    })
                    .collect::<Result<_, _>>()?;
                atoms.sort();
                witnesses.push(atoms);
                witness_costs.push(json_costs(&w["Costs"])?);
            }
        }
    }
    let number = v["Models"]["Number"]
        .as_u64()
        .ok_or("no \"Models\".\"Number\"")?;
    let more = v["Models"]["More"]
        .as_str()
        .ok_or("no \"Models\".\"More\"")?
        .to_string();
    let costs = json_costs(&v["Models"]["Costs"])?;
    Ok(Answer {
        result,
        witnesses,
        number,
        more,
        costs,
        witness_costs,
    })
}

/// Run `f` on every item with `threads` workers; results in item order.
pub fn parallel_map<T: Sync, R: Send>(
    items: &[T],
    threads: usize,
    f: impl Fn(usize, &T) -> R + Sync,
) -> Vec<R> {
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<R>>> = Mutex::new((0..items.len()).map(|_| None).collect());
    std::thread::scope(|s| {
        for _ in 0..threads.max(1) {
            s.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::SeqCst);
                    if i >= items.len() {
                        break;
                    }
                    let r = f(i, &items[i]);
                    results.lock().unwrap()[i] = Some(r);
                }
            });
        }
    });
    results
        .into_inner()
        .unwrap()
        .into_iter()
        .map(|r| r.unwrap())
        .collect()
}

/// Worker threads for the data-driven tests: env `ASP2SAT_TEST_THREADS`,
/// default the number of cores.
pub fn threads() -> usize {
    threads_up_to(usize::MAX)
}

/// [`threads`], but without `ASP2SAT_TEST_THREADS` at most `max` (for tests
/// whose every case runs several solvers).
pub fn threads_up_to(max: usize) -> usize {
    std::env::var("ASP2SAT_TEST_THREADS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| {
            std::thread::available_parallelism()
                .map(|n| n.get())
                .unwrap_or(2)
                .min(max)
        })
}

/// The number in env `name`, `default` when it is not set; a value that is
/// not a number fails the test.
pub fn env_u64(name: &str, default: u64) -> u64 {
    match std::env::var(name) {
        Ok(s) => s
            .trim()
            .parse()
            .unwrap_or_else(|_| panic!("{name}={s:?} is not a number")),
        Err(_) => default,
    }
}

/// The seeds of a random test: `ASP2SAT_<NAME>_CASES` of them (default
/// `cases`) from `ASP2SAT_<SEED>_SEED` on (default 1).
pub fn seeds(name: &str, cases: u64, seed: &str) -> Vec<u64> {
    let cases = env_u64(&format!("ASP2SAT_{name}_CASES"), cases);
    let first = env_u64(&format!("ASP2SAT_{seed}_SEED"), 1);
    (first..first + cases).collect()
}

/// splitmix64: small, fast, and the same on every platform. The random
/// program generators draw from it; one seed, one program.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        let mut r = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ 0xD1B5_4A32_D192_ED03);
        r.next();
        r
    }
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    /// Uniform in 0..n.
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    /// Uniform in lo..=hi.
    pub fn range(&mut self, lo: i64, hi: i64) -> i64 {
        lo + (self.next() % (hi - lo + 1) as u64) as i64
    }
    /// True with probability `p`.
    pub fn chance(&mut self, p: f64) -> bool {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64 > 1.0 - p
    }
    pub fn pick<'a, T>(&mut self, xs: &'a [T]) -> &'a T {
        &xs[self.below(xs.len())]
    }
}

/// Split `name(a,b,c)` into its name and top-level arguments (no nesting
/// needed beyond parentheses and quotes). `-p(1)` keeps its `-` in the name.
pub fn split_atom(atom: &str) -> (String, Vec<String>) {
    let Some(open) = atom.find('(') else {
        return (atom.to_string(), vec![]);
    };
    let name = atom[..open].to_string();
    let inner = &atom[open + 1..atom.len() - 1];
    let mut args = Vec::new();
    let (mut depth, mut start, mut in_str) = (0i32, 0usize, false);
    let bytes = inner.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        if in_str {
            if c == b'\\' {
                i += 1;
            } else if c == b'"' {
                in_str = false;
            }
        } else {
            match c {
                b'"' => in_str = true,
                b'(' => depth += 1,
                b')' => depth -= 1,
                b',' if depth == 0 => {
                    args.push(inner[start..i].to_string());
                    start = i + 1;
                }
                _ => {}
            }
        }
        i += 1;
    }
    args.push(inner[start..].to_string());
    (name, args)
}

/// The clingo binary: env `ASP2SAT_CLINGO`, default `clingo` on PATH.
pub fn clingo_bin() -> PathBuf {
    std::env::var("ASP2SAT_CLINGO")
        .unwrap_or_else(|_| "clingo".to_string())
        .into()
}

/// All answer sets of `file` in `--outf=2` JSON, from asp2sat (`solve`
/// first) or from clingo, with `extra` arguments.
pub fn all_answers_json(tool: Tool, file: &str, extra: &[&str]) -> Output {
    let (bin, mut args) = match tool {
        Tool::Asp2sat => (asp2sat_bin(), vec!["solve".to_string()]),
        Tool::Clingo => (clingo_bin(), Vec::new()),
        Tool::PythonClingo => ("python3".into(), strings(&["-m", "clingo"])),
    };
    args.extend(["-n", "0", "--outf=2", file].map(String::from));
    args.extend(extra.iter().map(|s| s.to_string()));
    run(&bin, &args, &root(), None, timeout())
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tool {
    Asp2sat,
    Clingo,
    /// clingo 5.8 from PyPI (`python3 -m clingo`, always exit 0): a second
    /// opinion where clingo 5.4.1 is known to be wrong.
    PythonClingo,
}

/// Answer sets written as space-separated atoms, as a sorted multiset of
/// sorted atom lists (the form of [`Answer::sorted`]).
pub fn sorted_sets(sets: &[&str]) -> Vec<Vec<String>> {
    let mut sets: Vec<Vec<String>> = sets
        .iter()
        .map(|set| {
            let mut atoms: Vec<String> = set.split_whitespace().map(String::from).collect();
            atoms.sort();
            atoms
        })
        .collect();
    sets.sort();
    sets
}

/// Exports `file` with `asp2sat dimacs <flags> file -o <file>.<extension>`
/// and runs `scripts/<script>` on the export: the script's output, or what
/// failed.
pub fn export_through(
    file: &Path,
    flags: &[&str],
    extension: &str,
    script: &str,
) -> Result<Output, String> {
    let exported = export(file, flags, extension)?;
    Ok(run_script(script, &[exported]))
}

/// Exports `file` with `asp2sat dimacs <flags> file -o <file>.<extension>`:
/// the exported file, or what failed.
pub fn export(file: &Path, flags: &[&str], extension: &str) -> Result<PathBuf, String> {
    let exported = file.with_extension(extension);
    let mut args = strings(&["dimacs"]);
    args.extend(strings(flags));
    args.extend([
        file.to_string_lossy().into_owned(),
        "-o".to_string(),
        exported.to_string_lossy().into_owned(),
    ]);
    let export = run(&asp2sat_bin(), &args, &root(), None, timeout());
    if export.code != Some(0) {
        return Err(format!(
            "dimacs {flags:?} {}:\n{}",
            export.status(),
            export.stderr
        ));
    }
    Ok(exported)
}

/// `scripts/<script>` run on `files`.
pub fn run_script(script: &str, files: &[PathBuf]) -> Output {
    let script = root().join("scripts").join(script);
    let args: Vec<String> = (files.iter())
        .map(|f| f.to_string_lossy().into_owned())
        .collect();
    run(&script, &args, &root(), None, timeout())
}
