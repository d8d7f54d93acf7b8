//! `asp2sat dimacs` on the command line: errors, `-o` written atomically
//! (into a device, a FIFO or a symbolic link's target as they are), and
//! `--stats` on standard error.

use super::{asp2sat, enumerate, parse_dimacs};
use std::path::Path;
use std::process::Command;
use std::time::Duration;

use crate::common::*;

// ---------------------------------------------------------------------------
// The command line

#[test]
fn dimacs_cli_errors_exit_65_without_output() {
    let out = asp2sat(&["dimacs", "fixtures/cli/syntax_error.lp"], None);
    assert_eq!(out.code, Some(65));
    assert!(out.stdout.is_empty());
    assert!(
        out.stderr
            .contains("fixtures/cli/syntax_error.lp:3:1-2: error: syntax error"),
        "{}",
        out.stderr
    );
    let out = asp2sat(&["dimacs", "fixtures/cli/unsafe.lp"], None);
    assert_eq!(out.code, Some(65));
    assert!(
        out.stderr.contains("error: unsafe variables in:"),
        "{}",
        out.stderr
    );
    let out = asp2sat(&["dimacs", "no/such/file.lp"], None);
    assert_eq!(out.code, Some(65));
    let out = asp2sat(&["dimacs", "-c", "9=x", "-"], Some("a."));
    assert_eq!(out.code, Some(65));
    // Not head-cycle-free: rejected like solve does.
    let out = asp2sat(&["dimacs", "-"], Some("a | b. a :- b. b :- a."));
    assert_eq!(out.code, Some(65));
    assert!(out.stderr.contains("not head-cycle-free"), "{}", out.stderr);
    assert!(out.stdout.is_empty());
}

#[test]
fn dimacs_cli_output_file_is_written_atomically() {
    let dir = scratch("dimacs/cli");
    let target = dir.join("out.cnf");
    let _ = std::fs::remove_file(&target);
    let stdout = asp2sat(&["dimacs", "-c", "n=3", "-"], Some("p(1..n). {q}."));
    assert_eq!(stdout.code, Some(0), "{}", stdout.stderr);
    let out = asp2sat(
        &["dimacs", "-c", "n=3", "-", "-o", target.to_str().unwrap()],
        Some("p(1..n). {q}."),
    );
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    assert!(out.stdout.is_empty());
    assert_eq!(std::fs::read_to_string(&target).unwrap(), stdout.stdout);
    let cnf = parse_dimacs(&stdout.stdout);
    let names: Vec<&str> = cnf.table.iter().map(|(_, n)| n.as_str()).collect();
    assert_eq!(names, ["q", "p(1)", "p(2)", "p(3)"]);
    assert_eq!(enumerate(&cnf, 10).unwrap().decoded.len(), 2);

    // A failing run leaves the previous file as it was.
    let out = asp2sat(
        &["dimacs", "-", "-o", target.to_str().unwrap()],
        Some("p(X) :- q."),
    );
    assert_eq!(out.code, Some(65));
    assert_eq!(std::fs::read_to_string(&target).unwrap(), stdout.stdout);
    // No temporary files are left behind.
    let leftovers: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".tmp"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");

    // An output in a directory that does not exist: exit 74, nothing written.
    let missing = dir.join("missing").join("out.cnf");
    let out = asp2sat(
        &["dimacs", "-", "-o", missing.to_str().unwrap()],
        Some("a."),
    );
    assert_eq!(out.code, Some(74), "{}", out.stderr);
    assert!(out.stderr.contains("could not write"), "{}", out.stderr);
    assert!(!missing.exists());
}

/// The CNF `dimacs` prints on standard output for `program`.
fn exported(program: &str) -> String {
    let out = asp2sat(&["dimacs", "-"], Some(program));
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    out.stdout
}

#[test]
fn dimacs_cli_output_to_a_device_writes_into_it() {
    use std::os::unix::fs::FileTypeExt;
    let is_device = || {
        std::fs::metadata("/dev/null")
            .unwrap()
            .file_type()
            .is_char_device()
    };
    assert!(is_device());
    let out = asp2sat(&["dimacs", "-", "-o", "/dev/null"], Some("{a}."));
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    assert!(is_device(), "-o /dev/null replaced the device");
    // /dev/stdout is the pipe the test reads.
    let out = asp2sat(&["dimacs", "-", "-o", "/dev/stdout"], Some("{a}."));
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    assert_eq!(out.stdout, exported("{a}."));
}

#[test]
fn dimacs_cli_output_through_a_symlink_updates_its_target() {
    let dir = scratch("dimacs/symlink");
    let (target, link) = (dir.join("target.cnf"), dir.join("link.cnf"));
    let _ = std::fs::remove_file(&link);
    std::fs::write(&target, "old").unwrap();
    std::os::unix::fs::symlink("target.cnf", &link).unwrap();
    let out = asp2sat(&["dimacs", "-", "-o", link.to_str().unwrap()], Some("{a}."));
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    let metadata = std::fs::symlink_metadata(&link).unwrap();
    assert!(metadata.file_type().is_symlink(), "the link was replaced");
    assert_eq!(std::fs::read_link(&link).unwrap(), Path::new("target.cnf"));
    assert_eq!(std::fs::read_to_string(&target).unwrap(), exported("{a}."));
}

#[test]
fn dimacs_cli_output_to_a_fifo_writes_into_it() {
    use std::os::unix::fs::FileTypeExt;
    let dir = scratch("dimacs/fifo");
    let fifo = dir.join("out.cnf");
    let _ = std::fs::remove_file(&fifo);
    let made = Command::new("mkfifo").arg(&fifo).status();
    assert!(made.is_ok_and(|s| s.success()), "mkfifo failed");
    let (send, received) = std::sync::mpsc::channel();
    let reader = fifo.clone();
    std::thread::spawn(move || {
        let _ = send.send(std::fs::read_to_string(reader));
    });
    let out = asp2sat(&["dimacs", "-", "-o", fifo.to_str().unwrap()], Some("{a}."));
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    let file_type = std::fs::symlink_metadata(&fifo).unwrap().file_type();
    assert!(file_type.is_fifo(), "the FIFO was replaced");
    let read = received
        .recv_timeout(Duration::from_secs(10))
        .expect("the reader received nothing");
    assert_eq!(read.unwrap(), exported("{a}."));
}

#[test]
fn dimacs_cli_stats_go_to_stderr() {
    let program = "{a}. b :- a. a :- b. c :- b. 1 { x; y; z } 2.";
    let plain = asp2sat(&["dimacs", "-"], Some(program));
    let stats = asp2sat(&["dimacs", "--stats", "-"], Some(program));
    assert_eq!(plain.code, Some(0));
    assert_eq!(stats.code, Some(0));
    assert_eq!(
        plain.stdout, stats.stdout,
        "--stats leaves the CNF as it is"
    );
    assert!(plain.stderr.is_empty(), "{}", plain.stderr);
    for key in [
        "Atoms",
        "Rules",
        "Variables",
        "Clauses",
        "  Completion",
        "  Ranking",
        "  Cardinality",
        "Ranked",
    ] {
        assert!(stats.stderr.contains(key), "{key}:\n{}", stats.stderr);
    }
    assert!(stats.stderr.contains("Tight        : no"));
    let cnf = parse_dimacs(&stats.stdout);
    // {a} twice (a b c or nothing) times 1..2 of x, y, z (6).
    assert_eq!(enumerate(&cnf, 100).unwrap().decoded.len(), 12);
}
