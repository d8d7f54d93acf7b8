//! The standard streams and output files: standard output closed or
//! unwritable, standard error unwritable, the progress line on a terminal,
//! and `-o`'s file written atomically.

use super::{asp2sat, clingo_style, output, wait_within};
use crate::common;

// ---------------------------------------------------------------------------
// Standard output that cannot be written

#[test]
fn a_closed_standard_output_ends_the_enumeration_quietly() {
    // `clingo -n 0 prog.lp | head -3` on 2^40 models: clingo is ended by
    // SIGPIPE once head has its three lines; the shell reports 141.
    // The JSON document is written as the models come, as clingo writes
    // it, so it ends the same way.
    use std::io::{BufRead, Read, Write};
    use std::process::Stdio;
    for format in ["--outf=0", "--outf=2"] {
        let mut child = std::process::Command::new(common::asp2sat_bin())
            .args(["solve", "-n", "0", format, "-"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        child
            .stdin
            .take()
            .unwrap()
            .write_all(b"{ a(1..40) }.\n")
            .unwrap();
        let mut stdout = std::io::BufReader::new(child.stdout.take().unwrap());
        for _ in 0..12 {
            let mut line = String::new();
            stdout.read_line(&mut line).unwrap();
            assert!(!line.is_empty(), "{format}: standard output ended early");
        }
        drop(stdout);
        let code = wait_within(&mut child, std::time::Duration::from_secs(10));
        let mut stderr = String::new();
        child
            .stderr
            .take()
            .unwrap()
            .read_to_string(&mut stderr)
            .unwrap();
        assert!(stderr.is_empty(), "{format}: stderr: {stderr}");
        assert_eq!(code, Some(141), "{format}");
    }
}

#[test]
fn an_unwritable_standard_error_is_no_crash() {
    // Messages go to standard error; when it cannot be written (here
    // /dev/full) they are lost, and the run ends as it would have, where
    // `eprintln!` would panic with exit code 101.
    if !std::path::Path::new("/dev/full").exists() {
        return;
    }
    let cases: [(&[&str], &str, i32); 3] = [
        (&["solve", "-"], "p(.\n", 65),
        (&["solve", "-", "--seed=3"], "{ a }.\n", 10),
        (&["solve", "-", "--grid"], "a.\n", 30),
    ];
    for (args, program, expected) in cases {
        let full = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .unwrap();
        let output = std::process::Command::new(common::asp2sat_bin())
            .args(args)
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::null())
            .stderr(full)
            .spawn()
            .and_then(|mut child| {
                std::io::Write::write_all(&mut child.stdin.take().unwrap(), program.as_bytes())?;
                child.wait()
            })
            .unwrap();
        assert_eq!(output.code(), Some(expected), "{args:?}");
    }
}

#[test]
fn an_unwritable_standard_output_is_an_error() {
    // clingo 5.4 ignores the error: `clingo -n 1 prog.lp > /dev/full` exits
    // 10, and with `-n 0` enumerates for ever.
    if !std::path::Path::new("/dev/full").exists() {
        return;
    }
    let cases: [&[&str]; 5] = [
        &["solve", "-n", "0", "-"],
        &["solve", "--outf=2", "-"],
        &["solve", "--text", "-"],
        &["ground", "-"],
        &["dimacs", "-"],
    ];
    for args in cases {
        let full = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .unwrap();
        let mut child = std::process::Command::new(common::asp2sat_bin())
            .args(args)
            .stdin(std::process::Stdio::piped())
            .stdout(full)
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        std::io::Write::write_all(&mut child.stdin.take().unwrap(), b"{ a(1..40) }.\n").unwrap();
        let code = wait_within(&mut child, std::time::Duration::from_secs(10));
        let mut stderr = String::new();
        std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut stderr).unwrap();
        assert_eq!(code, Some(74), "{args:?}: {stderr}");
        assert_eq!(
            stderr,
            "asp2sat: error: could not write standard output: No space left on device (os error 28)\n",
            "{args:?}"
        );
    }
}

/// Runs asp2sat with `args` on a terminal (util-linux's `script` gives it
/// one): what the terminal received, both streams, and the exit code.
fn on_a_terminal(args: &[&str]) -> (String, Option<i32>) {
    let command = std::iter::once(common::asp2sat_bin().to_str().unwrap())
        .chain(args.iter().copied())
        .collect::<Vec<_>>()
        .join(" ");
    let out = std::process::Command::new("script")
        .args(["-qec", &command, "/dev/null"])
        .current_dir(common::root())
        .env("TERM", "xterm")
        .stdin(std::process::Stdio::null())
        .output()
        .expect("util-linux's script (Debian's bsdutils) runs a command on a terminal");
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        out.status.code(),
    )
}

#[test]
fn a_long_run_shows_a_progress_line_on_a_terminal_only() {
    let dir = common::scratch("progress_line");
    let file = dir.join("choice30.lp");
    std::fs::write(&file, "{a(1..30)}.").unwrap();
    let long_run = [file.to_str().unwrap(), "-n", "0", "-q", "--time-limit=2"];
    let (terminal, code) = on_a_terminal(&long_run);
    assert_eq!(code, Some(11), "{terminal}");
    // After a second: the stage, the program's size and the models so far,
    // redrawn in place ...
    let shown = terminal.matches("s solving: 30 atoms, 1 rule, ").count();
    assert!(shown >= 2, "{terminal:?}");
    // ... and erased (back to the line's start, the line cleared) before
    // the summary.
    let last = terminal.rfind("s solving: ").unwrap();
    let after = &terminal[last..];
    let erased = after.find("\r\x1b[2K").expect("the line is erased");
    assert!(!after[..erased].contains('\n'), "{after:?}");
    let rest = &after[erased + "\r\x1b[2K".len()..];
    assert!(
        !rest.contains('\x1b') && rest.contains("\nSATISFIABLE\r\n"),
        "{after:?}"
    );
    // A run shorter than a second shows nothing.
    let (terminal, _) = on_a_terminal(&["fixtures/cli/three_models.lp", "-n", "0"]);
    assert!(
        !terminal.contains("solving") && !terminal.contains('\x1b'),
        "{terminal:?}"
    );
    // Standard error not a terminal: nothing on it but what clingo says
    // when its time limit stops a run.
    let out = clingo_style(&long_run);
    assert_eq!(out.code, Some(11));
    assert_eq!(out.stderr, "*** Info : (asp2sat): INTERRUPTED by signal!\n");
    // clingo's summary of a run its time limit stopped.
    assert!(
        out.stdout.contains("\nTIME LIMIT   : 1\n"),
        "{}",
        out.stdout
    );
}

/// `dimacs -o` over an existing file keeps its permissions; a temporary
/// file that a killed run left is removed by the next run; SIGTERM while
/// writing removes the temporary file and leaves the target alone.
#[test]
fn dimacs_output_file_keeps_its_mode_and_no_temporary_file() {
    use std::os::unix::fs::PermissionsExt;
    let dir = common::scratch("cli-dimacs-file");
    let target = dir.join("out.cnf");
    std::fs::write(&target, "old\n").unwrap();
    std::fs::set_permissions(&target, std::fs::Permissions::from_mode(0o600)).unwrap();
    // No process has this pid (above the kernel's pid_max).
    let abandoned = dir.join(".out.cnf.99999999.0.tmp");
    std::fs::write(&abandoned, "left by a killed run").unwrap();
    let out = output({
        let mut cmd = asp2sat();
        cmd.args([
            "dimacs",
            "encodings/sudoku.lp",
            "fixtures/puzzle_evil.lp",
            "-o",
        ])
        .arg(&target);
        cmd
    });
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    let mode = std::fs::metadata(&target).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o600);
    assert!(
        std::fs::read_to_string(&target)
            .unwrap()
            .starts_with("p cnf ")
    );
    assert!(!abandoned.exists(), "the abandoned temporary file stays");

    // A program whose CNF takes seconds to write.
    let slow = dir.join("slow.lp");
    std::fs::write(
        &slow,
        "n(1..250). {p(X,Y)} :- n(X), n(Y), X < Y. :- p(X,Y), p(Y,Z), p(X,Z).\n",
    )
    .unwrap();
    let interrupted = dir.join("interrupted.cnf");
    let mut child = std::process::Command::new(common::asp2sat_bin())
        .arg("dimacs")
        .arg(&slow)
        .arg("-o")
        .arg(&interrupted)
        .spawn()
        .unwrap();
    let temporaries = || {
        std::fs::read_dir(&dir)
            .unwrap()
            .flatten()
            .filter(|e| {
                e.file_name()
                    .to_string_lossy()
                    .starts_with(".interrupted.cnf.")
            })
            .count()
    };
    let started = std::time::Instant::now();
    while temporaries() == 0 && started.elapsed() < std::time::Duration::from_secs(30) {
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    assert_eq!(temporaries(), 1, "no temporary file appeared");
    let killed = std::process::Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(128 + 15), "{status:?}");
    assert_eq!(temporaries(), 0, "the temporary file stays after SIGTERM");
    assert!(!interrupted.exists());
}
