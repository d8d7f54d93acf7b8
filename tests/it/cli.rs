//! The command line contract, checked with assert_cmd: clingo-like text and
//! JSON output, exit codes (10, 20, 30, 65), `-n`, `--project`, `-c`, stdin,
//! `#include`, and gringo-style error messages. Inputs live in fixtures/cli;
//! what clingo 5.4 prints for each is quoted in the tests. Each module is
//! one area; the runs and the readings of their output that several areas
//! share are here.

mod errors;
mod incremental;
mod inputs;
mod interruption;
mod optimization;
mod options;
mod output;
mod scripts;
mod streams;

use crate::common;
use assert_cmd::Command;
use serde_json::Value;

fn asp2sat() -> Command {
    let mut cmd = Command::cargo_bin("asp2sat").unwrap();
    cmd.current_dir(common::root()).timeout(common::timeout());
    cmd
}

fn solve(args: &[&str]) -> Command {
    let mut cmd = asp2sat();
    cmd.arg("solve").args(args);
    cmd
}

struct Out {
    code: Option<i32>,
    stdout: String,
    stderr: String,
}

fn output(mut cmd: Command) -> Out {
    let o = cmd.output().unwrap();
    Out {
        code: o.status.code(),
        stdout: String::from_utf8_lossy(&o.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&o.stderr).into_owned(),
    }
}

/// The answer sets of clingo-style text output: the line after each `Answer: k`.
fn text_answers(stdout: &str) -> Vec<Vec<String>> {
    let lines: Vec<&str> = stdout.lines().collect();
    let mut out = Vec::new();
    for (i, l) in lines.iter().enumerate() {
        if l.starts_with("Answer: ") {
            let mut atoms: Vec<String> = lines
                .get(i + 1)
                .unwrap_or(&"")
                .split_whitespace()
                .map(str::to_string)
                .collect();
            atoms.sort();
            out.push(atoms);
        }
    }
    out
}

/// The value after `Models :` (e.g. `3` or `2+`).
fn models_line(stdout: &str) -> Option<String> {
    stdout.lines().find_map(|l| {
        let (k, v) = l.split_once(':')?;
        (k.trim() == "Models").then(|| v.trim().to_string())
    })
}

/// A run that found its model(s) without being asked for all: exit 30 with
/// `Models : N` if the search was exhausted, or exit 10 with `Models : N+`.
/// Which one is up to the solver: clingo itself says `1+` / 10 for some
/// one-solution Sudokus (medium, evil) and `1` / 30 for others (easy, hard),
/// depending on whether its search happened to be exhausted.
fn assert_found(out: &Out) {
    let models = models_line(&out.stdout);
    match out.code {
        Some(30) => assert!(
            models.as_deref().is_some_and(|m| !m.ends_with('+')),
            "exit 30 but Models: {models:?}"
        ),
        Some(10) => assert!(
            models.as_deref().is_some_and(|m| m.ends_with('+')),
            "exit 10 but Models: {models:?}"
        ),
        other => panic!(
            "exit {other:?}, want 10 or 30\nstdout: {}\nstderr: {}",
            out.stdout, out.stderr
        ),
    }
}

fn json(stdout: &str) -> Value {
    serde_json::from_str(stdout).unwrap_or_else(|e| panic!("not JSON ({e}):\n{stdout}"))
}

fn no_panic(out: &Out) {
    assert!(
        !out.stderr.contains("panicked") && !out.stderr.contains("overflow"),
        "asp2sat crashed:\n{}",
        out.stderr
    );
}

/// Fails, showing the whole of stderr, unless stderr contains `text`.
#[track_caller]
fn assert_stderr_has(out: &Out, text: &str) {
    assert!(out.stderr.contains(text), "{}", out.stderr);
}

/// `asp2sat solve <file>` for a file that must be rejected: exit 65, no crash.
#[track_caller]
fn rejected(file: &str) -> Out {
    rejected_with(&[file])
}

/// `asp2sat solve <args>` that must be rejected: exit 65, no crash.
#[track_caller]
fn rejected_with(args: &[&str]) -> Out {
    let out = output(solve(args));
    assert_eq!(
        out.code,
        Some(65),
        "stdout: {}\nstderr: {}",
        out.stdout,
        out.stderr
    );
    no_panic(&out);
    out
}

/// `path:line:col-col: error: ` — gringo's format, 1-based, exclusive end column.
fn has_located(stderr: &str, path: &str, kind: &str) -> bool {
    stderr.lines().any(|l| {
        let Some(rest) = l.strip_prefix(&format!("{path}:")) else {
            return false;
        };
        let Some((loc, msg)) = rest.split_once(": ") else {
            return false;
        };
        let parts: Vec<&str> = loc.split([':', '-']).collect();
        parts.len() == 3
            && parts
                .iter()
                .all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()))
            && msg.starts_with(kind)
    })
}

/// Waits for `child` at most `limit`; kills it and fails the test after.
#[track_caller]
fn wait_within(child: &mut std::process::Child, limit: std::time::Duration) -> Option<i32> {
    let started = std::time::Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status.code();
        }
        if started.elapsed() > limit {
            let _ = child.kill();
            panic!("still running after {limit:?}");
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
}

/// `asp2sat <args>` without a subcommand, as clingo is invoked.
fn clingo_style(args: &[&str]) -> Out {
    let mut cmd = asp2sat();
    cmd.args(args);
    output(cmd)
}
