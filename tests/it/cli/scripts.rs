//! Every command line of a clingo script answers as clingo answers, read
//! as a script reads it (the exit code, the result, the models); `-t`'s
//! threads too.

use super::{assert_stderr_has, clingo_style, no_panic, text_answers};
use crate::common;
use serde_json::Value;

/// What a clingo-style run says, as a script reads it: the exit code, the
/// result word, the summary's `Models` (and `Consequences`), and the
/// answers (each sorted, in any order), from text, competition or JSON
/// output.
#[derive(Debug, PartialEq)]
struct Said {
    code: Option<i32>,
    result: Option<String>,
    models: Option<String>,
    answers: Vec<Vec<String>>,
}

fn said(code: Option<i32>, stdout: &str) -> Said {
    let summary = |key: &str| {
        stdout.lines().rev().find_map(|l| {
            let (k, v) = l.trim_start_matches("% ").split_once(':')?;
            (k.trim() == key).then(|| v.trim().to_string())
        })
    };
    let results = ["SATISFIABLE", "UNSATISFIABLE", "UNKNOWN", "OPTIMUM FOUND"];
    let mut answers: Vec<Vec<String>> = match serde_json::from_str::<Value>(stdout) {
        Ok(document) => {
            let witnesses = document["Call"][0]["Witnesses"].as_array().cloned();
            let mut answers: Vec<Vec<String>> = (witnesses.unwrap_or_default().iter())
                .map(|w| {
                    let atoms = w["Value"].as_array().unwrap().iter();
                    let mut atoms: Vec<String> =
                        atoms.map(|a| a.as_str().unwrap().to_string()).collect();
                    atoms.sort();
                    atoms
                })
                .collect();
            answers.sort();
            return Said {
                code,
                result: document["Result"].as_str().map(str::to_string),
                models: Some(document["Models"]["Number"].to_string()),
                answers,
            };
        }
        Err(_) if stdout.contains("\nANSWER\n") => {
            let lines: Vec<&str> = stdout.lines().collect();
            (lines.iter().enumerate())
                .filter(|(_, l)| **l == "ANSWER")
                .map(|(i, _)| {
                    let atoms = lines[i + 1].split_whitespace();
                    let mut atoms: Vec<String> =
                        atoms.map(|a| a.trim_end_matches('.').to_string()).collect();
                    atoms.sort();
                    atoms
                })
                .collect()
        }
        Err(_) => text_answers(stdout),
    };
    answers.sort();
    Said {
        code,
        result: (stdout.lines())
            .find(|l| results.contains(&l.trim_start_matches("% ")))
            .map(str::to_string),
        models: summary("Models").map(|m| match summary("Consequences") {
            Some(c) => format!("{m}, consequences {c}"),
            None => m,
        }),
        answers,
    }
}

#[test]
fn every_command_line_of_a_clingo_script_answers_as_clingo() {
    // Each command line issue 12 names, run by clingo 5.4 and by asp2sat
    // on the same files: the same exit code, result word, summary counts
    // and answers (in any order).
    let three = "fixtures/cli/three_models.lp";
    let unsat = "fixtures/cli/unsat.lp";
    let lines: &[&[&str]] = &[
        &[three],
        &["0", three],
        &[three, "0"],
        &["-V0", three, "0"],
        &["--verbose=0", three, "0"],
        &["-W", "none", three, "0"],
        &["--warn=no-atom-undefined", three, "0"],
        &["--quiet=1", three, "0"],
        &["-q2", three, "0"],
        &["--quiet=2,2", three, "0"],
        &["--stats=2", three, "0"],
        &["--project=show", three, "0"],
        &["--outf=1", three, "0"],
        &["--outf=2", three, "0"],
        &["--outf=3", three, "0"],
        &["--outf=1", unsat],
        &["--outf=2", unsat],
        &["-t", "2", three, "0"],
        &["--seed=3", three, "0"],
        &["--configuration=jumpy", three, "0"],
        &["--configuration", "tweety", three, "0"],
        &["--heuristic=Vsids,92", "--restarts=L,60", three, "0"],
        &["--heuristic=Berkmin", three, "0"],
        &["--sat-prepro", three, "0"],
        &["--eq=0", three, "0"],
        &["--fast-exit", three, "0"],
        &["--rand-freq=0.1", three, "0"],
        &["--enum-mode=brave", three],
        &["--enum-mode=cautious", three],
        &["--enum-mode=bt", three, "0"],
        &["--enum-mode=record", three, "0"],
        &["--time-limit=0", three, "0"],
        &[unsat],
        // Not accepted: exit 1, nothing on standard output.
        &["--frobnicate", three],
        &["--opt-mode=bogus", three],
        &["--project=bogus", three],
        &["--restarts=L,0", three],
        &["--heuristic=Vsids,x", three],
        &["-t", "0", three],
        &["-t", "65", three],
        &["--parallel-mode=2,foo", three],
        &["-t", "2,split", three, "0"],
    ];
    for args in lines {
        let theirs = std::process::Command::new(common::clingo_bin())
            .args(*args)
            .current_dir(common::root())
            .output()
            .unwrap();
        let their_stdout = String::from_utf8_lossy(&theirs.stdout);
        let mut expected = said(theirs.status.code(), &their_stdout);
        let ours = clingo_style(args);
        no_panic(&ours);
        let mut got = said(ours.code, &ours.stdout);
        if args.contains(&"--enum-mode=brave") || args.contains(&"--enum-mode=cautious") {
            // Brave and cautious consequences: the approximations on the
            // way depend on the search, the last one is exact.
            let last = |stdout: &str| text_answers(stdout).pop().into_iter().collect();
            expected.answers = last(&their_stdout);
            got.answers = last(&ours.stdout);
        }
        if args.contains(&"--quiet=1") || args.contains(&"--outf=1") {
            // The last answer set: which one is up to the search order.
            let all = said(Some(30), &clingo_style(&[three, "0"]).stdout).answers;
            assert!(got.answers.iter().all(|a| all.contains(a)), "{args:?}");
            assert_eq!(got.answers.len(), expected.answers.len(), "{args:?}");
            got.answers.clone_from(&expected.answers);
        }
        assert_eq!(got, expected, "{args:?}\n{}", ours.stdout);
        if args.contains(&"--outf=3") {
            assert_eq!(ours.stdout, "");
        }
    }
    // Printing the ground program, help and version: exit 0, as clingo.
    for args in [
        &["--text", three][..],
        &["--mode=gringo", three],
        &["--help=2"],
        &["--help"],
        &["solve", "--version"],
        &[three, "--version"],
    ] {
        let out = clingo_style(args);
        assert_eq!(out.code, Some(0), "{args:?}: {}", out.stderr);
        assert!(!out.stdout.is_empty(), "{args:?}");
    }
}

/// Runs clingo 5.4 on `args`, as `said` reads its output.
fn clingo_said(args: &[&str]) -> Said {
    let theirs = std::process::Command::new(common::clingo_bin())
        .args(args)
        .current_dir(common::root())
        .output()
        .unwrap();
    said(
        theirs.status.code(),
        &String::from_utf8_lossy(&theirs.stdout),
    )
}

#[test]
fn threads_find_the_answer_sets_of_one_thread_and_of_clingo() {
    let dir = common::scratch("cli-threads");
    let write = |name: &str, text: &str| {
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        path.to_str().unwrap().to_string()
    };
    // Non-tight: the chosen edges reach every node from 1 (24 answer sets).
    let reach = write(
        "reach.lp",
        "node(1..5). edge(1,2). edge(2,3). edge(3,1). edge(3,4). edge(4,5). edge(5,3).\n\
         edge(2,4). edge(4,1). edge(5,1).\n\
         { in(X,Y) } :- edge(X,Y).\n\
         reach(1). reach(Y) :- reach(X), in(X,Y).\n\
         :- node(X), not reach(X).\n",
    );
    // 1,024 answer sets: several batches per cube.
    let choice = write("choice.lp", "{ a(1..10) }.\n");
    let optimize = write(
        "optimize.lp",
        "{ a(1..6) }.\n:- not a(1), not a(2).\n:- not a(3), not a(4).\n\
         #minimize { 1,X : a(X) }.\n",
    );
    let three = "fixtures/cli/three_models.lp".to_string();
    let unsat = "fixtures/cli/unsat.lp".to_string();
    for (program, extra) in [
        (&three, &["0"][..]),
        (&unsat, &[]),
        (&unsat, &["0"]),
        (&reach, &["0"]),
        (&choice, &["0"]),
        (&choice, &["-n", "700"]),
        // The optimal answer sets (the optimization runs on one thread).
        (&optimize, &["--opt-mode=optN", "--quiet=1", "0"]),
    ] {
        let args = [&[program.as_str()][..], extra].concat();
        let out = clingo_style(&args);
        let one = said(out.code, &out.stdout);
        // With `-n 700` of 1,024, which ones is up to the search order.
        let some = extra.contains(&"-n");
        let all = clingo_said(&[program, "0"]).answers;
        let mut clingo = clingo_said(&args);
        if some {
            assert!(one.answers.iter().all(|a| all.contains(a)), "{args:?}");
            clingo.answers.clone_from(&one.answers);
        }
        assert_eq!(one, clingo, "{args:?}");
        for threads in ["2", "3", "2,split"] {
            let parallel = [&args[..], &["-t", threads]].concat();
            let out = clingo_style(&parallel);
            no_panic(&out);
            let mut got = said(out.code, &out.stdout);
            if some {
                assert!(got.answers.iter().all(|a| all.contains(a)), "{parallel:?}");
                got.answers.dedup();
                assert_eq!(got.answers.len(), one.answers.len(), "{parallel:?}");
                got.answers.clone_from(&one.answers);
            }
            assert_eq!(got, one, "{parallel:?}");
            if program == &optimize {
                assert_stderr_has(&out, "the optimization runs on one thread");
            }
        }
        // A split search prints the same in every run, for 2 to 4 threads.
        let split = |threads| clingo_style(&[&args[..], &["-t", threads]].concat()).stdout;
        let first = split("2,split");
        let without_times = |stdout: &str| {
            (stdout.lines())
                .filter(|l| !l.starts_with("Time") && !l.starts_with("CPU Time"))
                .collect::<Vec<_>>()
                .join("\n")
        };
        for threads in ["2,split", "4,split", "3"] {
            assert_eq!(
                without_times(&split(threads)),
                without_times(&first),
                "{args:?} -t {threads}"
            );
        }
    }
    // The first answer set: one of clingo's, from whichever thread wins.
    for program in [&three, &reach, &choice] {
        let all = clingo_said(&[program, "0"]).answers;
        let out = clingo_style(&[program]);
        let one = said(out.code, &out.stdout);
        for threads in ["2", "4", "2,split"] {
            let out = clingo_style(&[program, "-t", threads]);
            let raced = said(out.code, &out.stdout);
            assert_eq!(raced.answers.len(), 1, "{program} -t {threads}");
            assert!(all.contains(&raced.answers[0]), "{program} -t {threads}");
            assert_eq!((raced.code, &raced.result), (one.code, &one.result));
        }
    }
}
