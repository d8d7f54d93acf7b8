//! `asp2sat test`, end to end: folders of cases written here, run through
//! the binary, recorded and checked; every comparison kind, the time and
//! memory limits, a crashing case, a broken encoding's diff, recording
//! (never overwriting a disagreeing expectation without `--force`), JUnit,
//! JSON records and `--compare`; recording with clingo against the
//! committed corpus; a Slurm job array on a real single-node Slurm when
//! `sbatch` is installed (`scripts/slurm-local` starts it).

use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::common::{Output, asp2sat_bin, root, run, scratch, strings};

/// A fresh folder `name` under this test crate's scratch directory.
fn folder(name: &str) -> PathBuf {
    let dir = scratch("regress").join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A program directory `dir/sub` with its files and `cases`.
fn program_dir(dir: &Path, sub: &str, files: &[(&str, &str)], cases: &str) -> PathBuf {
    let program = dir.join(sub);
    std::fs::create_dir_all(program.join("expected")).unwrap();
    for (name, text) in files {
        std::fs::write(program.join(name), text).unwrap();
    }
    std::fs::write(program.join("cases"), cases).unwrap();
    program
}

fn expect(program: &Path, case: &str, text: &str) {
    std::fs::write(program.join("expected").join(format!("{case}.json")), text).unwrap();
}

/// `asp2sat test ARGS` in `dir`.
fn asp2sat_test(dir: &Path, args: &[&str]) -> Output {
    let mut all = strings(&["test", "-j", "2"]);
    all.extend(strings(args));
    run(&asp2sat_bin(), &all, dir, None, Duration::from_secs(300))
}

const COLOUR: &str = "col(r;g;b).\n\
    { colour(N,C) : col(C) } = 1 :- node(N).\n\
    :- edge(X,Y), colour(X,C), colour(Y,C).\n\
    #show colour/2.\n";

/// The same encoding with its constraint turned round: neighbours must
/// have the same colour.
const BROKEN_COLOUR: &str = "col(r;g;b).\n\
    { colour(N,C) : col(C) } = 1 :- node(N).\n\
    :- edge(X,Y), colour(X,C), colour(Y,D), C != D.\n\
    #show colour/2.\n";

const TRIANGLE: &str = "node(1..3). edge(1,2). edge(2,3). edge(1,3).\n";

const OPTIMIZE: &str = "{ a; b; c }.\n:- not a, not b.\n\
    #minimize { 1,a : a; 1,b : b; 2,c : c }.\n";

/// A folder with a colouring and an optimization program, their
/// expectations recorded by asp2sat.
fn recorded_folder(name: &str) -> PathBuf {
    let dir = folder(name);
    program_dir(
        &dir,
        "colour",
        &[("colour.lp", COLOUR), ("triangle.lp", TRIANGLE)],
        "triangle colour.lp triangle.lp\n",
    );
    program_dir(&dir, "opt", &[("opt.lp", OPTIMIZE)], "least opt.lp\n");
    let out = asp2sat_test(&dir, &["--record", "."]);
    assert_eq!(out.code, Some(0), "{}{}", out.stdout, out.stderr);
    assert!(
        out.stdout.contains("2 cases recorded: 2 written"),
        "{}",
        out.stdout
    );
    dir
}

#[test]
fn a_broken_encoding_shows_which_answer_sets_went_missing() {
    let dir = recorded_folder("broken");
    let passed = asp2sat_test(&dir, &["."]);
    assert_eq!(passed.code, Some(0), "{}{}", passed.stdout, passed.stderr);
    assert!(
        passed.stdout.ends_with("2 passed, 0 failed\n"),
        "{}",
        passed.stdout
    );
    std::fs::write(dir.join("colour/colour.lp"), BROKEN_COLOUR).unwrap();
    let failed = asp2sat_test(&dir, &["."]);
    assert_eq!(failed.code, Some(1), "{}{}", failed.stdout, failed.stderr);
    let expected_start = "FAILED colour/triangle (";
    assert!(
        failed.stdout.starts_with(expected_start),
        "{}",
        failed.stdout
    );
    let diff = "3 answer sets where 6 are expected\n    \
        missing (1x): {colour(1,b) colour(2,g) colour(3,r)}\n    \
        missing (1x): {colour(1,b) colour(2,r) colour(3,g)}\n    \
        missing (1x): {colour(1,g) colour(2,b) colour(3,r)}\n    \
        missing (1x): {colour(1,g) colour(2,r) colour(3,b)}\n    \
        missing (1x): {colour(1,r) colour(2,b) colour(3,g)}\n    \
        ... 1 more missing\n    \
        extra (1x): {colour(1,b) colour(2,b) colour(3,b)}\n    \
        extra (1x): {colour(1,g) colour(2,g) colour(3,g)}\n    \
        extra (1x): {colour(1,r) colour(2,r) colour(3,r)}\n";
    assert!(failed.stdout.contains(diff), "{}", failed.stdout);
    assert!(
        failed.stdout.ends_with("1 passed, 1 failed\n"),
        "{}",
        failed.stdout
    );
}

#[test]
fn recording_keeps_a_disagreeing_expectation_unless_forced() {
    let dir = recorded_folder("record");
    let file = dir.join("colour/expected/triangle.json");
    let recorded = std::fs::read_to_string(&file).unwrap();
    assert!(recorded.starts_with(
        "{\n  \"kind\": \"answer_sets\",\n  \"result\": \"SATISFIABLE\",\n  \"models\": 6,"
    ));
    assert!(dir.join("colour/expected/triangle.time").is_file());
    let again = asp2sat_test(&dir, &["--record", "."]);
    assert!(again.stdout.contains("2 unchanged"), "{}", again.stdout);
    std::fs::write(dir.join("colour/colour.lp"), BROKEN_COLOUR).unwrap();
    let kept = asp2sat_test(&dir, &["--record", "-k", "colour", "."]);
    assert_eq!(kept.code, Some(1), "{}{}", kept.stdout, kept.stderr);
    assert!(kept.stdout.starts_with("DISAGREES colour/triangle (kept; --force overwrites it): 3 answer sets where 6 are expected\n    only on file (1x): {colour(1,b) colour(2,g) colour(3,r)}"), "{}", kept.stdout);
    assert_eq!(std::fs::read_to_string(&file).unwrap(), recorded);
    let forced = asp2sat_test(&dir, &["--record", "--force", "-k", "colour", "."]);
    assert_eq!(forced.code, Some(0), "{}{}", forced.stdout, forced.stderr);
    assert!(forced.stdout.starts_with("overwrote "), "{}", forced.stdout);
    assert!(
        std::fs::read_to_string(&file)
            .unwrap()
            .contains("\"models\": 3,")
    );
}

#[test]
fn optimum_costs_and_optimal_sets_are_compared() {
    let dir = recorded_folder("optimum");
    let file = dir.join("opt/expected/least.json");
    let recorded = std::fs::read_to_string(&file).unwrap();
    let optimum = "{\n  \"kind\": \"optimum\",\n  \"result\": \"OPTIMUM FOUND\",\n  \"costs\": [\n    1\n  ],\n  \"optimal_sets\": [\n    [\"a\"],\n    [\"b\"]\n  ]\n}\n";
    assert_eq!(recorded, optimum);
    std::fs::write(&file, recorded.replace("    1\n", "    0\n")).unwrap();
    let costs = asp2sat_test(&dir, &["-k", "opt", "."]);
    assert_eq!(costs.code, Some(1));
    assert!(
        costs.stdout.contains("FAILED opt/least")
            && costs
                .stdout
                .contains(": optimum [1] where [0] is expected\n"),
        "{}",
        costs.stdout
    );
    std::fs::write(&file, recorded.replace(",\n    [\"b\"]", "")).unwrap();
    let sets = asp2sat_test(&dir, &["-k", "opt", "."]);
    assert!(
        sets.stdout.contains(
            ": optimal answer sets: 2 answer sets where 1 are expected\n    extra (1x): {b}\n"
        ),
        "{}",
        sets.stdout
    );
}

#[test]
fn the_result_word_and_a_projection_are_compared() {
    let dir = folder("result");
    let program = program_dir(
        &dir,
        "words",
        &[
            ("sat.lp", "{ p(1..3) }.\nq :- p(1).\n#show q/0.\n"),
            ("fake", ""),
        ],
        "sat sat.lp\nprojected sat.lp --project=show\n",
    );
    expect(
        &program,
        "sat",
        "{\"kind\": \"result\", \"result\": \"UNSATISFIABLE\"}\n",
    );
    let recorded = asp2sat_test(&dir, &["--record", "-k", "projected", "."]);
    assert_eq!(
        recorded.code,
        Some(0),
        "{}{}",
        recorded.stdout,
        recorded.stderr
    );
    let projection = std::fs::read_to_string(program.join("expected/projected.json")).unwrap();
    assert!(projection.contains("\"models\": 2,"), "{projection}");
    let out = asp2sat_test(&dir, &["."]);
    assert_eq!(out.code, Some(1));
    assert!(
        out.stdout
            .contains(": result SATISFIABLE where UNSATISFIABLE is expected\n"),
        "{}",
        out.stdout
    );
    assert!(
        out.stdout.ends_with("1 passed, 1 failed\n"),
        "{}",
        out.stdout
    );
    // A solver that prints a projected answer set twice is caught.
    let fake = program.join("fake");
    let document = r#"{"Call": [{"Witnesses": [{"Value": ["q"]}, {"Value": ["q"]}, {"Value": []}]}], "Result": "SATISFIABLE", "Models": {"Number": 3, "More": "no"}}"#;
    write_script(&fake, &format!("echo '{document}'; exit 30"));
    let repeated = asp2sat_test(
        &dir,
        &["--binary", fake.to_str().unwrap(), "-k", "projected", "."],
    );
    assert!(
        repeated
            .stdout
            .contains(": a projection lists answer sets more than once\n    repeated (2x): {q}\n"),
        "{}",
        repeated.stdout
    );
}

fn write_script(path: &Path, body: &str) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::write(path, format!("#!/bin/sh\n{body}\n")).unwrap();
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
}

#[test]
fn time_and_memory_limits_and_a_crash_are_reported_not_fatal() {
    let dir = folder("limits");
    let program = program_dir(
        &dir,
        "limits",
        &[
            ("many.lp", "{ a(1..30) }.\n"),
            ("big.lp", "p(1..3000).\nq(X,Y) :- p(X), p(Y).\n"),
            ("fine.lp", "a.\n"),
            ("crash.lp", "b.\n"),
        ],
        "many many.lp\nbig big.lp\nfine fine.lp\ncrash crash.lp\n",
    );
    expect(
        &program,
        "many",
        "{\"kind\": \"count\", \"result\": \"SATISFIABLE\", \"models\": 1073741824}\n",
    );
    expect(
        &program,
        "big",
        "{\"kind\": \"result\", \"result\": \"SATISFIABLE\"}\n",
    );
    for case in ["fine", "crash"] {
        let atom = if case == "fine" { "a" } else { "b" };
        let sets = format!("[[\"{atom}\"]]");
        expect(
            &program,
            case,
            &format!(
                "{{\"kind\": \"answer_sets\", \"result\": \"SATISFIABLE\", \"answer_sets\": {sets}}}\n"
            ),
        );
    }
    // asp2sat itself, except that a run on crash.lp dies of a segfault.
    let wrapper = dir.join("crashing-asp2sat");
    let real = asp2sat_bin();
    write_script(
        &wrapper,
        &format!(
            "case \"$*\" in *crash.lp*) kill -SEGV $$;; esac\nexec '{}' \"$@\"",
            real.display()
        ),
    );
    let out = asp2sat_test(
        &dir,
        &[
            "--binary",
            wrapper.to_str().unwrap(),
            "--timeout",
            "1",
            "--memory-limit",
            "100",
            "--junit",
            "junit.xml",
            ".",
        ],
    );
    assert_eq!(out.code, Some(1), "{}{}", out.stdout, out.stderr);
    let lines: Vec<&str> = out.stdout.lines().collect();
    assert!(
        lines[0].starts_with("TIMED OUT limits/many (")
            && lines[0].ends_with("): killed at the time limit of 1 s"),
        "{}",
        out.stdout
    );
    assert!(
        lines[1].starts_with("OUT OF MEMORY limits/big (")
            && lines[1].contains("): *** ERROR: (asp2sat): out of memory: an allocation of "),
        "{}",
        out.stdout
    );
    assert!(
        lines[2].starts_with("CRASHED limits/crash (")
            && lines[2].ends_with("): killed by signal 11 (SIGSEGV)"),
        "{}",
        out.stdout
    );
    assert!(
        out.stdout
            .contains(": 1 passed, 0 failed, 1 timed out, 1 crashed, 1 out of memory\n"),
        "{}",
        out.stdout
    );
    let xml = std::fs::read_to_string(dir.join("junit.xml")).unwrap();
    let document = roxmltree::Document::parse(&xml).unwrap();
    let suite = document.root_element();
    assert_eq!(suite.attribute("tests"), Some("4"));
    assert_eq!(suite.attribute("failures"), Some("1"));
    assert_eq!(suite.attribute("errors"), Some("2"));
    let kinds: Vec<(&str, &str)> = (document.descendants())
        .filter(|node| node.has_tag_name("failure") || node.has_tag_name("error"))
        .map(|node| (node.tag_name().name(), node.attribute("type").unwrap()))
        .collect();
    assert_eq!(
        kinds,
        [
            ("failure", "timed_out"),
            ("error", "out_of_memory"),
            ("error", "crashed")
        ]
    );
}

#[test]
fn two_runs_compare_case_by_case_and_junit_lists_every_case() {
    let dir = recorded_folder("compare");
    let first = asp2sat_test(&dir, &["--json", "a.json", "--junit", "a.xml", "."]);
    assert_eq!(first.code, Some(0), "{}{}", first.stdout, first.stderr);
    let second = asp2sat_test(&dir, &["--json", "b.json", ".", "--", "--opt-strategy=bb"]);
    assert_eq!(second.code, Some(0), "{}{}", second.stdout, second.stderr);
    let records: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("a.json")).unwrap()).unwrap();
    let first_record = &records[0];
    assert_eq!(first_record["case"], "colour/triangle");
    assert_eq!(first_record["status"], "passed");
    // The SAT solver the run chose, as its statistics name it.
    assert_eq!(first_record["backend"], "varisat");
    assert_eq!(records[1]["case"], "opt/least");
    assert_eq!(records[1]["backend"], "batsat");
    assert_eq!(first_record["models"], 6);
    assert!(first_record["max_rss_kb"].as_u64().unwrap() > 0);
    let table = asp2sat_test(&dir, &["--compare", "a.json", "b.json"]);
    assert_eq!(table.code, Some(0), "{}", table.stderr);
    let lines: Vec<&str> = table.stdout.lines().collect();
    assert_eq!(lines[2], "case                 A (s)      B (s)      B/A");
    assert!(lines[3].starts_with("colour/triangle "), "{}", table.stdout);
    assert!(lines[4].starts_with("opt/least "), "{}", table.stdout);
    assert!(
        lines[5].starts_with("2 cases in both: "),
        "{}",
        table.stdout
    );
    let xml = std::fs::read_to_string(dir.join("a.xml")).unwrap();
    let document = roxmltree::Document::parse(&xml).unwrap();
    let cases: Vec<String> = (document.descendants())
        .filter(|node| node.has_tag_name("testcase"))
        .map(|node| {
            format!(
                "{}/{}",
                node.attribute("classname").unwrap(),
                node.attribute("name").unwrap()
            )
        })
        .collect();
    assert_eq!(cases, ["colour/triangle", "opt/least"]);
}

#[test]
fn solves_flags_go_after_the_double_dash() {
    let dir = recorded_folder("flags");
    let out = asp2sat_test(&dir, &[".", "--seed=3"]);
    assert_eq!(out.code, Some(1));
    assert!(
        out.stderr
            .contains("--seed=3 is a flag of solve: give solve's flags for every case after `--`"),
        "{}",
        out.stderr
    );
}

/// Whether `command --version` runs.
fn available(command: &[&str]) -> bool {
    let (program, args) = command.split_first().unwrap();
    std::process::Command::new(program)
        .args(args)
        .arg("--version")
        .output()
        .is_ok_and(|out| out.status.success())
}

/// Recording with clingo reproduces the corpus's committed expectations:
/// a copy of some of its directories is recorded, and nothing changes.
#[test]
fn recording_with_clingo_reproduces_the_corpus() {
    if !available(&["clingo"]) {
        eprintln!("skipped: no clingo on PATH");
        return;
    }
    let dir = folder("clingo");
    let mut dirs = vec![
        "gringo-gbie",
        "aspcud",
        "clingo-tests-lparse",
        "potassco-guide",
    ];
    if available(&["python3", "-m", "clingo"]) {
        dirs.push("clingo58-tests-lparse-58");
    }
    for name in &dirs {
        let from = root().join("fixtures/corpus").join(name);
        let copied = std::process::Command::new("cp")
            .args(["-r", from.to_str().unwrap(), dir.to_str().unwrap()])
            .status()
            .unwrap();
        assert!(copied.success());
    }
    let out = asp2sat_test(
        &dir,
        &["--record", "--reference=clingo", "--timeout", "30", "."],
    );
    assert_eq!(out.code, Some(0), "{}{}", out.stdout, out.stderr);
    let last = out.stdout.lines().last().unwrap();
    assert!(
        last.contains(" cases recorded: 0 written, ")
            && last.ends_with(" unchanged, 0 overwritten, 0 disagree, 0 failed"),
        "{}",
        out.stdout
    );
    let baseline =
        std::fs::read_to_string(dir.join("gringo-gbie/expected/gbie1_sat_01.time")).unwrap();
    assert!(baseline.contains("\"tool\":\"clingo 5.4\""), "{baseline}");
}

/// A job array on a real single-node Slurm, started by
/// `scripts/slurm-local` when `sbatch` is installed; collected into the
/// summary of a local run.
#[test]
fn a_slurm_job_array_runs_and_is_collected() {
    let on_path = |name: &str| {
        let path = std::env::var_os("PATH").unwrap_or_default();
        std::env::split_paths(&path).any(|dir| dir.join(name).is_file())
    };
    if !on_path("sbatch") {
        eprintln!(
            "skipped: no sbatch (apt-get install slurm-wlm munge; scripts/slurm-local start)"
        );
        return;
    }
    // The script's own directory: one test cluster on the machine, started
    // once and left running.
    let slurm = PathBuf::from("/tmp/asp2sat-slurm");
    let started = run(
        &root().join("scripts/slurm-local"),
        &strings(&["start", slurm.to_str().unwrap()]),
        &root(),
        None,
        Duration::from_secs(120),
    );
    assert_eq!(
        started.code,
        Some(0),
        "scripts/slurm-local: {}{}",
        started.stdout,
        started.stderr
    );
    let conf = slurm.join("slurm.conf");
    let dir = recorded_folder("slurm");
    let out = asp2sat_test(
        &dir,
        &[
            "--slurm",
            "array",
            "--timeout",
            "30",
            "--memory-limit",
            "500",
            ".",
        ],
    );
    assert_eq!(out.code, Some(0), "{}{}", out.stdout, out.stderr);
    let submitted = std::process::Command::new("sbatch")
        .env("SLURM_CONF", &conf)
        .args(["--wait", "array/job.sbatch"])
        .current_dir(&dir)
        .output()
        .unwrap();
    assert!(
        submitted.status.success(),
        "{}",
        String::from_utf8_lossy(&submitted.stderr)
    );
    let collected = asp2sat_test(&dir, &["--collect", "array", "--junit", "array.xml"]);
    assert_eq!(
        collected.code,
        Some(0),
        "{}{}",
        collected.stdout,
        collected.stderr
    );
    assert!(
        collected.stdout.ends_with("2 passed, 0 failed\n"),
        "{}",
        collected.stdout
    );
    std::fs::remove_file(dir.join("array/records/1.json")).unwrap();
    let missing = asp2sat_test(&dir, &["--collect", "array"]);
    assert_eq!(missing.code, Some(1));
    assert!(
        missing
            .stdout
            .starts_with("MISSING opt/least (0.00 s): task 1 wrote no record"),
        "{}",
        missing.stdout
    );
}

#[test]
fn a_case_slower_than_its_baseline_by_the_factor_fails() {
    let dir = recorded_folder("slower");
    let baseline = dir.join("colour/expected/triangle.time");
    let recorded = std::fs::read_to_string(&baseline).unwrap();
    assert!(
        recorded.starts_with("{\"seconds\":") && recorded.ends_with(",\"tool\":\"asp2sat\"}\n"),
        "{recorded}"
    );
    let generous = asp2sat_test(&dir, &["--slower", "1000", "."]);
    assert_eq!(
        generous.code,
        Some(0),
        "{}{}",
        generous.stdout,
        generous.stderr
    );
    // Below 0.1 s a baseline counts as 0.1 s: a factor of 0.001 allows 0.1 ms.
    let strict = asp2sat_test(&dir, &["--slower", "0.001", "-k", "colour", "."]);
    assert_eq!(strict.code, Some(1), "{}{}", strict.stdout, strict.stderr);
    assert!(
        strict.stdout.starts_with("SLOWER colour/triangle ("),
        "{}",
        strict.stdout
    );
    assert!(
        strict.stdout.contains("x the baseline ")
            && strict.stdout.contains(" (asp2sat), more than 0.001x\n"),
        "{}",
        strict.stdout
    );
    assert!(
        strict.stdout.ends_with(": 0 passed, 0 failed, 1 slower\n"),
        "{}",
        strict.stdout
    );
}

#[test]
fn refusals_must_be_the_listed_ones() {
    let dir = folder("refusals");
    let program = program_dir(
        &dir,
        "refusals",
        &[("theory.lp", "#theory t { }.\n"), ("plain.lp", "a.\n")],
        "listed theory.lp\nmoved theory.lp\nunlisted theory.lp\nsupported plain.lp\n",
    );
    let answer =
        "{\"kind\": \"answer_sets\", \"result\": \"SATISFIABLE\", \"answer_sets\": [[]]}\n";
    for case in ["listed", "moved", "unlisted"] {
        expect(&program, case, answer);
    }
    expect(
        &program,
        "supported",
        "{\"kind\": \"answer_sets\", \"result\": \"SATISFIABLE\", \"answer_sets\": [[\"a\"]]}\n",
    );
    let refusal = run(
        &asp2sat_bin(),
        &strings(&["theory.lp"]),
        &program,
        None,
        Duration::from_secs(60),
    );
    assert_eq!(refusal.code, Some(65), "{}", refusal.stderr);
    let line = refusal
        .stderr
        .lines()
        .find(|line| line.contains("error:"))
        .unwrap();
    let listing = |case: &str, text: &str| {
        std::fs::write(
            program.join("expected").join(format!("{case}.refused")),
            text,
        )
        .unwrap()
    };
    listing("listed", line);
    listing("moved", &line.replace("theory.lp:1:", "theory.lp:2:"));
    listing("supported", "plain.lp:1:1-2: error: not supported");
    let out = asp2sat_test(&dir, &["."]);
    assert_eq!(out.code, Some(1), "{}{}", out.stdout, out.stderr);
    let text = &out.stdout;
    assert!(
        text.contains("FAILED refusals/moved (")
            && text.contains("): the listed refusal changed:\n    listed: theory.lp:2:"),
        "{text}"
    );
    assert!(
        text.contains("FAILED refusals/unlisted (")
            && text.contains(&format!("): refused: {line}\n")),
        "{text}"
    );
    assert!(text.contains("FAILED refusals/supported (") && text.contains("): the listed refusal (plain.lp:1:1-2: error: not supported) no longer happens: delete "), "{text}");
    assert!(
        text.contains("; the comparison now gives: agreement\n"),
        "{text}"
    );
    assert!(
        text.ends_with(": 0 passed, 1 refused as listed, 3 failed\n"),
        "{text}"
    );
}

/// A case's peak memory is its own. Linux starts a child's peak at its
/// parent's when it execs, so a runner that has read large outputs would
/// measure itself in every later case: the runner starts each case
/// through `asp2sat measure`, a fresh process of a few megabytes.
#[test]
fn a_cases_peak_memory_is_its_own_not_the_runners() {
    use asp2sat::regress::child::{self, Exit, Limits};
    // This process as the runner, with 300 MB resident.
    let ballast = std::hint::black_box(vec![1u8; 300 << 20]);
    let limits = Limits {
        time: Duration::from_secs(20),
        memory: None,
    };
    let shell = |script: &str| {
        let command = ["sh", "-c", script].map(String::from);
        child::run(&command, Path::new("."), limits).expect("sh starts")
    };
    // Started directly, a shell's peak is the runner's.
    let direct = shell("exit 3");
    assert!(direct.max_rss_kb >= 300_000, "{}", direct.max_rss_kb);
    child::measure_through(asp2sat_bin());
    let measured = shell("exit 3");
    assert!(measured.max_rss_kb < 50_000, "{}", measured.max_rss_kb);
    assert_eq!(measured.exit, Exit::Code(3));
    assert_eq!(shell("kill -SEGV $$").exit, Exit::Signal(libc::SIGSEGV));
    let output = shell("echo out; echo err >&2");
    assert_eq!(
        (output.stdout.as_str(), output.stderr.as_str()),
        ("out\n", "err\n")
    );
    drop(ballast);
}
