//! clingo's invocation and options: `solve` by default, standard input
//! named as clingo names it, `--project`, the options scripts pass to
//! clingo, `--version` and `--help`, tuning options and `--solver`.

use super::{
    Out, asp2sat, assert_stderr_has, clingo_style, json, no_panic, output, solve, text_answers,
};
use predicates::prelude::*;

#[test]
fn version_and_help() {
    asp2sat()
        .arg("--help")
        .assert()
        .success()
        .stdout(predicate::str::contains("solve"));
    asp2sat()
        .args(["solve", "--help"])
        .assert()
        .success()
        .stdout(predicate::str::contains("--project"));
}

// ---------------------------------------------------------------------------
// clingo's invocation and options

#[test]
fn solve_is_the_default_subcommand() {
    // clingo fixtures/cli/three_models.lp 0: all three, exit 30.
    let out = clingo_style(&["fixtures/cli/three_models.lp", "0"]);
    assert_eq!(out.code, Some(30), "stderr: {}", out.stderr);
    assert_eq!(text_answers(&out.stdout).len(), 3);
    // No file: standard input.
    let mut cmd = asp2sat();
    cmd.write_stdin("a.\n");
    let out = output(cmd);
    assert_eq!(out.code, Some(30), "stderr: {}", out.stderr);
    assert!(out.stdout.contains("Reading from stdin"), "{}", out.stdout);
    for version in [&["--version"][..], &["solve", "--version"], &["-v"]] {
        let out = clingo_style(version);
        assert_eq!(out.code, Some(0));
        assert!(out.stdout.starts_with("asp2sat version "), "{}", out.stdout);
    }
}

#[test]
fn standard_input_is_named_as_clingo_names_it() {
    // clingo 5.4 and 5.8: `Reading from -` (JSON `"Input": ["-"]`) when `-`
    // is named, `stdin` when no file is; messages are located at `-:L:C`.
    for (args, name) in [(&["-"][..], "-"), (&[][..], "stdin")] {
        let mut cmd = asp2sat();
        cmd.args(args).write_stdin("a.\n");
        let out = output(cmd);
        assert!(
            out.stdout.contains(&format!("\nReading from {name}\n")),
            "{}",
            out.stdout
        );
        let mut cmd = asp2sat();
        cmd.args(args).arg("--outf=2").write_stdin("a.\n");
        assert_eq!(json(&output(cmd).stdout)["Input"][0], name);
        let mut cmd = asp2sat();
        cmd.args(args).write_stdin("p(.\n");
        let out = output(cmd);
        assert!(
            out.stderr.starts_with("-:1:3-4: error: syntax error"),
            "{}",
            out.stderr
        );
    }
}

#[test]
fn project_mode_without_project_directives_projects_onto_nothing() {
    // clingo 5.4: `{a;b}. #show a/0.` with `-n 0 --project=project` has one
    // model (the projection onto no atom); `show` and `auto` two.
    for (mode, models) in [("project", "1"), ("show", "2"), ("auto", "2"), ("no", "4")] {
        asp2sat()
            .args(["-", "-n", "0", "--outf=2", &format!("--project={mode}")])
            .write_stdin("{a;b}.\n#show a/0.\n")
            .assert()
            .code(30)
            .stdout(predicate::str::contains(format!("\"Number\": {models},")));
    }
}

#[test]
fn hidden_projected_atoms_tell_answer_sets_apart() {
    // `p` is hidden and only a constraint uses it, so the simplifier would
    // unfold it away, but `#project` needs it: clingo 5.4 reports two
    // models, `p` true and `p` false, whether the directive names the
    // signature or the atom.
    for directive in ["#project p/0.", "#project p."] {
        asp2sat()
            .args(["-", "-n", "0", "--outf=2", "--project"])
            .write_stdin(format!(
                "{{a}}. p :- a. :- p, b. {{b}}. #show b/0. {directive}\n"
            ))
            .assert()
            .code(30)
            .stdout(predicate::str::contains("\"Number\": 2,"));
    }
}

#[test]
fn options_scripts_pass_to_clingo_are_accepted() {
    for args in [
        &["-V0", "fixtures/cli/three_models.lp"][..],
        &["--verbose=0", "fixtures/cli/three_models.lp"],
        &["-W", "none", "fixtures/cli/three_models.lp"],
        &["--warn=no-atom-undefined", "fixtures/cli/three_models.lp"],
        // One `--quiet` a run: clingo rejects repeated options too.
        &["--quiet=1", "fixtures/cli/three_models.lp"],
        &["-q2", "fixtures/cli/three_models.lp"],
        &["--quiet=2,2", "fixtures/cli/three_models.lp"],
        &[
            "--stats=2",
            "--project=show",
            "fixtures/cli/three_models.lp",
        ],
        &["--outf=1", "fixtures/cli/three_models.lp"],
        &["--outf=3", "fixtures/cli/three_models.lp"],
        &[
            "-t",
            "2",
            "--seed=7",
            "--configuration=jumpy",
            "fixtures/cli/three_models.lp",
        ],
        &[
            "--heuristic=Domain",
            "--sat-prepro",
            "--eq=0",
            "--fast-exit",
            "fixtures/cli/three_models.lp",
        ],
        &[
            "--rand-freq=0.1",
            "--enum-mode=record",
            "--time-limit=0",
            "fixtures/cli/three_models.lp",
        ],
        &["--mode=gringo", "fixtures/cli/three_models.lp"],
        &["--help=2"],
    ] {
        let out = clingo_style(args);
        assert!(
            matches!(out.code, Some(0 | 10 | 30)),
            "{args:?}: exit {:?}\n{}",
            out.code,
            out.stderr
        );
        no_panic(&out);
    }
    let out = clingo_style(&["--configuration=jumpy", "fixtures/cli/three_models.lp"]);
    assert_stderr_has(&out, "asp2sat: info: --configuration=jumpy has no effect");
    let out = clingo_style(&[
        "-W",
        "none",
        "--configuration=jumpy",
        "fixtures/cli/three_models.lp",
    ]);
    assert!(!out.stderr.contains("info"), "{}", out.stderr);
}

#[test]
fn restart_and_decay_options_tune_varisat_and_keep_the_answers() {
    // clasp's `--restarts=L,<n>` and `--heuristic=Vsids,<n>` set varisat's
    // Luby unit and VSIDS decay: no info line, the same answer sets (the
    // evil Sudoku's one, and all of three_models.lp).
    let sudoku = ["encodings/sudoku.lp", "fixtures/puzzle_evil.lp", "-n", "0"];
    let plain = clingo_style(&sudoku);
    for tuning in [
        &["--restarts=L,1", "--heuristic=Vsids,5"][..],
        &["-r", "luby,1000", "--heuristic", "vsids,999"],
    ] {
        let tuned = clingo_style(&[&sudoku[..], tuning].concat());
        assert_eq!(tuned.code, Some(30), "{tuning:?}: {}", tuned.stderr);
        assert_eq!(text_answers(&tuned.stdout), text_answers(&plain.stdout));
        assert_eq!(tuned.stderr, "", "{tuning:?}");
        // (Found in another order: the settings changed varisat's search.)
        let all = ["-n", "0", "fixtures/cli/three_models.lp"];
        let sorted = |out: Out| {
            let mut answers = text_answers(&out.stdout);
            answers.sort();
            answers
        };
        let tuned = clingo_style(&[&all[..], tuning].concat());
        assert_eq!(sorted(tuned), sorted(clingo_style(&all)));
    }
    // What varisat has no counterpart for keeps its one info line.
    let out = clingo_style(&[
        "--restarts=D,100,0.7",
        "--seed=3",
        "fixtures/cli/one_model.lp",
    ]);
    assert_eq!(out.code, Some(30), "{}", out.stderr);
    let infos = out
        .stderr
        .lines()
        .filter(|l| l.starts_with("asp2sat: info:"));
    assert_eq!(infos.count(), 2, "{}", out.stderr);
    assert_stderr_has(&out, "asp2sat: info: --restarts=D,100,0.7 has no effect");
    assert_stderr_has(&out, "asp2sat: info: --seed=3 has no effect");
    // clingo rejects a Luby sequence of unit 0.
    let out = clingo_style(&["--restarts=L,0", "fixtures/cli/one_model.lp"]);
    assert_stderr_has(&out, "invalid --restarts 'L,0'");
}

/// `--solver` names the SAT solver of every search, which `--stats` and the
/// JSON's statistics name in turn; the answers are the same with each. By
/// default (`auto`) the program chooses: varisat for a small tight one,
/// batsat for a non-tight one (with the unfounded-set check inside its
/// search) and for large sums propagated inside its search, CaDiCaL for a
/// large one with disjunctions.
#[test]
fn solver_option_chooses_the_backend_and_stats_name_it() {
    let three = "fixtures/cli/three_models.lp";
    let sorted = |out: &Out| {
        let mut answers = text_answers(&out.stdout);
        answers.sort();
        answers
    };
    let named = |out: &Out, name: &str| {
        assert!(
            out.stdout.contains(&format!("\nSAT solver   : {name}\n")),
            "{name}: {}",
            out.stdout
        );
    };
    let plain = output(solve(&["-n", "0", "--stats", three]));
    named(&plain, "varisat");
    let json = output(solve(&["--outf=2", "--stats", three]));
    let document: serde_json::Value = serde_json::from_str(&json.stdout).unwrap();
    assert_eq!(document["Stats"]["SatSolver"], "varisat");
    let built = |name: &str| match name {
        "cadical" => cfg!(feature = "cadical"),
        "batsat" => cfg!(feature = "batsat"),
        _ => true,
    };
    for name in ["auto", "varisat", "cadical", "batsat"] {
        let option = format!("--solver={name}");
        let chosen = output(solve(&["-n", "0", &option, "--stats", three]));
        if !built(name) {
            // A usage error naming the feature, as for other bad options.
            assert_eq!(chosen.code, Some(1));
            assert_stderr_has(&chosen, &format!("cargo feature `{name}`"));
            continue;
        }
        let used = if name == "auto" { "varisat" } else { name };
        assert_eq!(chosen.code, Some(30), "{}", chosen.stderr);
        assert_eq!(sorted(&chosen), sorted(&plain));
        named(&chosen, used);
        let json = output(solve(&["--outf=2", "--stats", &option, three]));
        let document: serde_json::Value = serde_json::from_str(&json.stdout).unwrap();
        assert_eq!(document["Stats"]["SatSolver"], used);
    }
    if cfg!(feature = "cadical") && cfg!(feature = "batsat") {
        let non_tight = output(solve(&[
            "--stats",
            "fixtures/bench/encodings/hamilton.lp",
            "fixtures/bench/instances/hc_knight_8.lp",
        ]));
        named(&non_tight, "batsat");
        assert!(
            non_tight.stdout.contains("\nLoop rounds  : 0\n"),
            "{}",
            non_tight.stdout
        );
        let binpacking = |sums: &str| {
            output(solve(&[
                "--stats",
                sums,
                "fixtures/bench/encodings/binpacking.lp",
                "fixtures/bench/instances/binpacking_40.lp",
            ]))
        };
        // Its capacities propagated inside batsat's search, or as clauses
        // (a tight program without disjunctions: varisat).
        named(&binpacking("--sums=auto"), "batsat");
        named(&binpacking("--sums=clauses"), "varisat");
    }
    let unknown = output(solve(&["--solver=minisat", three]));
    assert_eq!(unknown.code, Some(1));
    assert_stderr_has(&unknown, "invalid value 'minisat'");
}

/// Sums whose clauses would not fit in memory are propagated inside the
/// search even where clauses serve it better (here the enumeration's walk;
/// an objective is the other case): five sums of 60 different weights stay
/// 620,000 clauses, fifteen are left to batsat, where as clauses they were
/// 1.9 million and 300 MB (the ASP Competition's Valves encoding ran out
/// of memory).
#[test]
fn sums_too_large_for_clauses_are_propagated() {
    let program = "i(1..60). j(1..n). w(I, 10 + (I*37) \\ 89) :- i(I). \
                   { in(I,J) } :- i(I), j(J). \
                   s(J) :- j(J), #sum { W,I : in(I,J), w(I,W) } >= 1500. \
                   :- j(J), not s(J).";
    let stats = |sums: usize| {
        let constant = format!("n={sums}");
        let mut cmd = solve(&["-n", "2", "--stats", "-c", &constant]);
        cmd.write_stdin(program);
        let out = output(cmd);
        assert_eq!(out.code, Some(10), "{}", out.stderr);
        solver_and_clauses(&out.stdout)
    };
    let (solver, clauses) = stats(5);
    assert!(clauses > 500_000, "{solver}, {clauses} clauses");
    if cfg!(feature = "batsat") {
        let (solver, clauses) = stats(15);
        assert_eq!(solver, "batsat");
        assert!(clauses < 1_000, "{clauses} clauses");
    }
}

/// The SAT solver and the number of clauses that `--stats` reports.
fn solver_and_clauses(stdout: &str) -> (String, u64) {
    let line = |name: &str| {
        (stdout.lines())
            .find_map(|line| line.strip_prefix(name))
            .unwrap_or_else(|| panic!("no {name} in {stdout}"))
            .trim()
            .to_string()
    };
    let clauses = line("Clauses      : ").parse().expect("a count");
    (line("SAT solver   : "), clauses)
}

/// The bounds of a choice, and a `#count`, whose counters would not fit
/// ("1,500 of 3,000": 4.5 million registers; 5,000 of 10,000 took 12 GB
/// and 50 s, where clingo takes 0.07 s) are left to a search that
/// propagates them, and each answer set has exactly 1,500 atoms. Where
/// they must be clauses, past ten million registers the exact export
/// writes the choice's bounds as a sorting network (2.7 million clauses
/// for 10,000 inputs; the counter was 150 million).
#[test]
fn counts_too_large_for_clauses_are_propagated_or_sorted() {
    let choice = "1500 { x(1..3000) } 1500.";
    let count = "{ x(1..3000) }. :- #count { X : x(X) } != 1500.";
    if cfg!(feature = "batsat") {
        for program in [choice, count] {
            let mut cmd = solve(&["--stats", "-n", "1"]);
            cmd.write_stdin(program);
            let out = output(cmd);
            assert_eq!(out.code, Some(10), "{}", out.stderr);
            let (solver, clauses) = solver_and_clauses(&out.stdout);
            assert_eq!(solver, "batsat", "{program}");
            assert!(clauses < 100, "{program}: {clauses} clauses");
            let answers = text_answers(&out.stdout);
            assert_eq!(answers.len(), 1, "{program}");
            assert_eq!(answers[0].len(), 1500, "{program}");
        }
    }
    let exported = |program: &str| {
        let mut cmd = asp2sat();
        cmd.arg("dimacs").write_stdin(program);
        let out = output(cmd);
        assert_eq!(out.code, Some(0), "{}", out.stderr);
        let header = (out.stdout.lines())
            .find(|l| l.starts_with("p cnf "))
            .expect("a header");
        header
            .split_whitespace()
            .nth(3)
            .unwrap()
            .parse::<u64>()
            .unwrap()
    };
    let clauses = exported("5000 { x(1..10000) } 5001.");
    assert!(
        (1_000_000..5_000_000).contains(&clauses),
        "{clauses} clauses"
    );
    // Six sums of 120 weights up to 2,000: the first two diagrams pass ten
    // million nodes (estimated), the other four are adders: 6.7 million
    // clauses, where six diagrams were 34 million.
    let sums = "i(1..120). s(1..6). w(S,I, 1 + (I*S*7919) \\ 2003) :- i(I), s(S). \
                { x(I) : i(I) }. :- s(S), #sum { W,I : x(I), w(S,I,W) } < 60000.";
    let clauses = exported(sums);
    assert!(
        (1_000_000..10_000_000).contains(&clauses),
        "{clauses} clauses"
    );
}

/// `--stats` counts the SAT solver's conflicts, as clingo's `Conflicts`
/// line does, with every backend: seven pigeons in six holes take
/// hundreds.
#[test]
fn stats_count_the_conflicts_of_every_backend() {
    let pigeons = "p(1..7). h(1..6). 1 { in(P,H) : h(H) } 1 :- p(P). \
                   :- in(P,H), in(Q,H), P < Q.";
    let conflicts = |args: &[&str], program: &str| {
        let mut cmd = solve(args);
        cmd.write_stdin(program);
        let out = output(cmd);
        let text = (out.stdout.lines())
            .find_map(|line| line.strip_prefix("Conflicts    : "))
            .unwrap_or_else(|| panic!("no Conflicts line: {}", out.stdout));
        text.parse::<u64>().expect("a count")
    };
    for name in ["varisat", "cadical", "batsat"] {
        if (name == "cadical" && !cfg!(feature = "cadical"))
            || (name == "batsat" && !cfg!(feature = "batsat"))
        {
            continue;
        }
        let option = format!("--solver={name}");
        let proof = conflicts(&["--stats", &option], pigeons);
        assert!(proof >= 100, "{name}: {proof} conflicts for 7 pigeons");
        let mut cmd = solve(&["--stats", "--outf=2", &option]);
        cmd.write_stdin(pigeons);
        let document: serde_json::Value = serde_json::from_str(&output(cmd).stdout).expect("JSON");
        assert_eq!(document["Stats"]["Conflicts"], proof, "{name}");
    }
}

#[test]
fn more_threads_than_processors_is_warned_as_clingo_does() {
    let cpus = std::thread::available_parallelism().map_or(1, |n| n.get());
    let threads = (cpus + 1).to_string();
    let out = clingo_style(&["-t", &threads, "fixtures/cli/three_models.lp"]);
    assert_eq!(out.code, Some(10), "{}", out.stderr);
    assert!(
        out.stderr.contains(&format!(
            "Oversubscription: #Threads={threads} exceeds logical CPUs={cpus}."
        )),
        "{}",
        out.stderr
    );
    let single = clingo_style(&["-t", "1", "fixtures/cli/three_models.lp"]);
    assert!(
        !single.stderr.contains("Oversubscription"),
        "{}",
        single.stderr
    );
}
