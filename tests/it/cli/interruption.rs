//! Runs stopped before they end by themselves: the time limit, SIGINT and
//! SIGTERM, and a memory limit, each reported as clingo reports it.

use super::{asp2sat, json, models_line, output, solve, wait_within};
use crate::common;

/// `--time-limit` covers grounding too. This program grounds for seconds
/// (125 million join steps) but derives nothing, so its search is instant:
/// a run that only started the clock when solving began would answer with
/// `Models : 1` and exit 30.
#[test]
fn time_limit_interrupts_grounding() {
    let mut cmd = solve(&["-q", "--time-limit=1", "-"]);
    cmd.write_stdin("n(1..500).\np(X) :- n(X), n(Y), n(Z), X+Y+Z < 0.\n");
    let out = output(cmd);
    assert_eq!(
        out.code,
        Some(1),
        "stdout: {}\nstderr: {}",
        out.stdout,
        out.stderr
    );
    // clingo: `Reading from -` is printed before grounding starts.
    assert!(
        out.stdout.contains("\nReading from -\nUNKNOWN\n"),
        "{}",
        out.stdout
    );
    assert_eq!(models_line(&out.stdout).as_deref(), Some("0+"));
}

/// An interval of 300 million values in a fact is ground one value at a
/// time: the time limit stops it between two (it took 96 s to the end of
/// the interval when only the joins looked at the limit).
#[test]
fn time_limit_interrupts_a_long_interval() {
    let mut cmd = solve(&["-q", "--time-limit=1", "-"]);
    cmd.write_stdin("p(1..300000000).\n");
    cmd.timeout(std::time::Duration::from_secs(30));
    let out = output(cmd);
    assert_eq!(out.code, Some(1), "{}\n{}", out.stdout, out.stderr);
    assert!(
        out.stdout.contains("\nTIME LIMIT   : 1\n"),
        "{}",
        out.stdout
    );
}

/// A signal while the program is read from standard input, which is still
/// open: the read ends, and so does the run, as clingo's does: `UNKNOWN`,
/// the interrupted summary, exit code 1.
#[test]
fn sigint_while_reading_standard_input_ends_the_run() {
    use std::io::BufRead;
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("asp2sat"))
        .arg("-")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdout = std::io::BufReader::new(child.stdout.take().unwrap());
    // The header is printed once the signals are armed.
    let mut lines = String::new();
    while !lines.contains("Reading from -") {
        assert!(stdout.read_line(&mut lines).unwrap() > 0, "{lines}");
    }
    // SAFETY: kill only sends a signal to the child's process id.
    unsafe { libc::kill(child.id() as i32, libc::SIGINT) };
    let code = wait_within(&mut child, std::time::Duration::from_secs(5));
    std::io::Read::read_to_string(&mut stdout, &mut lines).unwrap();
    assert_eq!(code, Some(1), "{lines}");
    assert!(lines.contains("\nUNKNOWN\n\nINTERRUPTED  : 1\n"), "{lines}");
    assert_eq!(models_line(&lines).as_deref(), Some("0+"));
    drop(child.stdin.take()); // open until here
}

#[test]
fn a_time_limit_is_reported_as_clingo_reports_it() {
    // clingo --time-limit=1 on a hard program: TIME LIMIT : 1, exit 1.
    let mut cmd = asp2sat();
    cmd.args(["--time-limit=1", "--outf=2"]);
    cmd.write_stdin(
        "p(1..14). h(1..13). 1 { in(P,H) : h(H) } 1 :- p(P). :- in(P,H), in(Q,H), P < Q.\n",
    );
    let out = output(cmd);
    assert_eq!(out.code, Some(1), "stderr: {}", out.stderr);
    let document = json(&out.stdout);
    assert_eq!(document["TIME LIMIT"], 1);
    assert_eq!(document["Result"], "UNKNOWN");
}

/// A search stopped by the time limit proves nothing: the threads of `-t`
/// (a race, a split) end with UNKNOWN as one search does, and an
/// optimization stopped under either strategy reports its best answer set
/// without `OPTIMUM FOUND` (an interrupted bound search once passed for a
/// proof that nothing is better). The search stops at the flag: the run
/// ends within a second of the limit.
#[test]
fn a_stopped_search_proves_nothing() {
    let hard = "p(1..14). h(1..13). 1 { in(P,H) : h(H) } 1 :- p(P). :- in(P,H), in(Q,H), P < Q.\n";
    for threads in [
        &["-t", "2"][..],
        &["-t", "2,split", "-n", "0"],
        &["-e", "brave"],
    ] {
        let mut cmd = asp2sat();
        cmd.args(["--time-limit=1", "--outf=2"]).args(threads);
        cmd.write_stdin(hard);
        let started = std::time::Instant::now();
        let out = output(cmd);
        assert!(started.elapsed().as_secs_f64() < 2.5, "{threads:?}");
        assert_eq!(out.code, Some(1), "{threads:?}: {}", out.stderr);
        assert_eq!(json(&out.stdout)["Result"], "UNKNOWN", "{threads:?}");
    }
    // The pigeons make every model of the knapsack costly to find.
    let mut knapsack = String::from("item(1..60).\n");
    let mut rng = common::Rng::new(5);
    for i in 1..=60 {
        let (w, v) = (1 + rng.below(40), 1 + rng.below(60));
        knapsack += &format!("w({i},{w}). v({i},{v}).\n");
    }
    knapsack += "{ in(I) : item(I) }.\n:- #sum{ W,I : in(I), w(I,W) } > 600.\n\
                 #maximize{ V,I : in(I), v(I,V) }.\n\
                 p(1..14). h(1..13). 1 { pin(P,H) : h(H) } 1 :- p(P).\n\
                 :- pin(P,H), pin(Q,H), P < Q, in(1).\n";
    for strategy in ["--opt-strategy=bb", "--opt-strategy=usc"] {
        let mut cmd = asp2sat();
        cmd.args(["--time-limit=1", "--outf=2", strategy]);
        cmd.write_stdin(knapsack.as_str());
        let out = output(cmd);
        let document = json(&out.stdout);
        assert_eq!(
            document["Result"], "SATISFIABLE",
            "{strategy}: {}",
            out.stdout
        );
        assert_eq!(document["Models"]["Optimum"], "unknown", "{strategy}");
        assert_eq!(out.code, Some(11), "{strategy}: {}", out.stderr);
    }
}

/// asp2sat enumerating the 2^40 answer sets of `{ a(1..40) }.` (read from
/// standard input) with `args`, well into its search.
fn enumerating_2_to_the_40(args: &[&str], stderr: std::process::Stdio) -> std::process::Child {
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("asp2sat"))
        .args(args)
        .arg("-")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(stderr)
        .spawn()
        .unwrap();
    {
        use std::io::Write;
        let mut stdin = child.stdin.take().unwrap();
        stdin.write_all(b"{ a(1..40) }.\n").unwrap();
    }
    std::thread::sleep(std::time::Duration::from_millis(700));
    child
}

#[test]
fn sigterm_completes_the_json_document_as_clingo() {
    // clingo -n 0 -q --outf=2 on 2^40 models, SIGTERM: a complete document
    // with "INTERRUPTED": 1, Result SATISFIABLE, More: yes; exit 11.
    let child =
        enumerating_2_to_the_40(&["-n", "0", "-q", "--outf=2"], std::process::Stdio::piped());
    // SAFETY: kill only sends a signal to the child's process id.
    unsafe { libc::kill(child.id() as i32, libc::SIGTERM) };
    let done = child.wait_with_output().unwrap();
    let stdout = String::from_utf8_lossy(&done.stdout);
    assert_eq!(done.status.code(), Some(11), "{stdout}");
    let document = json(&stdout);
    assert_eq!(document["INTERRUPTED"], 1);
    assert_eq!(document["Result"], "SATISFIABLE");
    assert_eq!(document["Models"]["More"], "yes");
    assert!(document["Models"]["Number"].as_u64().unwrap() > 0);
}

#[test]
fn a_second_sigint_ends_the_run_at_once() {
    // Nobody reads the output: the run blocks on a full pipe, so the
    // summary the first SIGINT asks for cannot be written. The second ends
    // the process.
    let mut child = enumerating_2_to_the_40(&["-n", "0"], std::process::Stdio::null());
    let id = child.id() as i32;
    let interrupt = || {
        // SAFETY: kill only sends a signal to the child's process id.
        unsafe { libc::kill(id, libc::SIGINT) };
    };
    interrupt();
    std::thread::sleep(std::time::Duration::from_millis(300));
    assert!(child.try_wait().unwrap().is_none(), "blocked on its output");
    interrupt();
    let code = wait_within(&mut child, std::time::Duration::from_secs(5));
    assert_eq!(code, Some(1));
}

#[test]
fn sigint_prints_the_summary_and_exits_as_clingo() {
    // clingo -n 0 -q on 2^40 models, SIGINT: INTERRUPTED : 1, exit 11.
    let child = enumerating_2_to_the_40(&["-n", "0", "-q"], std::process::Stdio::piped());
    // SAFETY: kill only sends a signal to the child's process id.
    unsafe { libc::kill(child.id() as i32, libc::SIGINT) };
    let done = child.wait_with_output().unwrap();
    let stdout = String::from_utf8_lossy(&done.stdout);
    assert_eq!(done.status.code(), Some(11), "{stdout}");
    assert!(stdout.contains("INTERRUPTED  : 1"), "{stdout}");
}

/// Under a limit on virtual memory the run starts (on a smaller stack)
/// and, when memory runs out, ends as clingo's does: a message and exit
/// code 33, not an abort.
#[test]
fn a_memory_limit_is_reported_as_clingo_does() {
    let bin = common::asp2sat_bin();
    let dir = common::scratch("cli-memory");
    let big = dir.join("big.lp");
    std::fs::write(&big, "p(1..30000000).\n").unwrap();
    let limited = |limit_kb: u32, args: &str| {
        std::process::Command::new("sh")
            .arg("-c")
            .arg(format!(
                "ulimit -v {limit_kb}; echo 'p.' | exec {} {args}",
                bin.display()
            ))
            .output()
            .unwrap()
    };
    let small = limited(500_000, "-V0");
    assert_eq!(small.status.code(), Some(30), "{small:?}");
    assert_eq!(String::from_utf8_lossy(&small.stdout), "p\nSATISFIABLE\n");
    let out = limited(1_000_000, &format!("-V0 {}", big.display()));
    assert_eq!(out.status.code(), Some(33), "{out:?}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.starts_with("*** ERROR: (asp2sat): out of memory: an allocation of "),
        "{stderr}"
    );
}
