//! Optimization and consequences as clingo prints them: costs, optimum
//! found, brave and cautious consequences, and objectives that grounding
//! empties.

use super::{
    asp2sat, assert_stderr_has, clingo_style, json, no_panic, output, solve, text_answers,
};
use crate::common;
use serde_json::Value;

/// clingo's text output reduced to what does not depend on the order of
/// the search: the answer sets printed (each with its `Optimization:`
/// line, as a sorted multiset) and the rest with the model count and
/// times left out.
fn search_independent(stdout: &str) -> (Vec<String>, String) {
    let mut answers = Vec::new();
    let mut rest = String::new();
    let mut lines = stdout.lines().peekable();
    while let Some(line) = lines.next() {
        if line.starts_with("Answer: ") {
            let mut answer: Vec<&str> = lines.next().unwrap_or("").split_whitespace().collect();
            answer.sort_unstable();
            let mut answer = answer.join(" ");
            if let Some(costs) = lines.next_if(|l| l.starts_with("Optimization: ")) {
                answer = format!("{answer} / {costs}");
            }
            answers.push(answer);
        } else if !["Time", "CPU Time", "Reading from", "Models"]
            .iter()
            .any(|prefix| line.starts_with(prefix))
            && !line.contains(" version ")
            && !line.starts_with("Optimization: ")
        {
            rest.push_str(line);
            rest.push('\n');
        }
    }
    answers.sort();
    (answers, rest)
}

#[test]
fn optimization_output_is_clingos() {
    let dir = common::scratch("cli-optimization");
    let programs = [
        // Two priorities, #maximize and #minimize.
        "{a;b;c}. :- not a, not b.\n#minimize{1,a:a; 1,b:b; 2,c:c}.\n#maximize{1@2,c:c; 1@2,x:b}.\n",
        // Four optimal answer sets.
        "{a;b;c}. :- not a, not b.\n#minimize{1,a:a; 1,b:b}.\n",
        // No answer set.
        ":- a. :- not a. #minimize{1:b}.\n",
        // Ignored tuples, and a level whose only weight is 0.
        "{a}. #minimize{3:a; \"x\":a; 2@\"p\":a; 1@2 : a}. #minimize{0@5:a}.\n",
    ];
    let modes: [&[&str]; 7] = [
        &["--quiet=1"],
        &["-q"],
        &["--opt-mode=optN", "--quiet=1"],
        &["--opt-mode=enum", "-n", "0", "--quiet=2,2"],
        &["--opt-mode=ignore", "-n", "0", "-q"],
        &["--quiet=1", "--outf=0"],
        &[],
    ];
    let mut failures = Vec::new();
    for (i, program) in programs.iter().enumerate() {
        let file = dir.join(format!("program{i}.lp"));
        std::fs::write(&file, program).unwrap();
        for mode in modes {
            let mut args: Vec<String> = mode.iter().map(|s| s.to_string()).collect();
            args.push(file.to_string_lossy().into_owned());
            let ours = output({
                let mut cmd = solve(&[]);
                cmd.args(&args);
                cmd
            });
            let theirs = common::run(
                &common::clingo_bin(),
                &args,
                &common::root(),
                None,
                common::timeout(),
            );
            let (mut ours_answers, ours_rest) = search_independent(&ours.stdout);
            let (mut theirs_answers, theirs_rest) = search_independent(&theirs.stdout);
            if mode.is_empty() {
                // Without --quiet the improving answer sets depend on the search.
                ours_answers.clear();
                theirs_answers.clear();
            }
            if (ours.code, &ours_answers, &ours_rest)
                != (theirs.code, &theirs_answers, &theirs_rest)
            {
                failures.push(format!(
                    "{program}{mode:?}\nasp2sat exit {:?}:\n{:?}\n{ours_rest}clingo exit {:?}:\n{:?}\n{theirs_rest}",
                    ours.code, ours_answers, theirs.code, theirs_answers
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn optimization_json_is_clingos() {
    let file = common::scratch("cli-optimization").join("json.lp");
    std::fs::write(&file, "{a;b;c}. :- not a, not b.\n#minimize{1,a:a; 1,b:b; 2,c:c}.\n#maximize{1@2,c:c; 1@2,x:b}.\n").unwrap();
    let file = file.to_string_lossy().into_owned();
    let out = output({
        let mut cmd = solve(&["--outf=2", "--quiet=1"]);
        cmd.arg(&file);
        cmd
    });
    assert_eq!(out.code, Some(30));
    let v: Value = serde_json::from_str(&out.stdout).unwrap();
    // clingo 5.4: "Result": "OPTIMUM FOUND", "Models": { "Number": 2,
    // "More": "no", "Optimum": "yes", "Optimal": 1, "Costs": [ -2, 3 ] },
    // one witness { "Value": [ "b", "c" ], "Costs": [ -2, 3 ] }.
    assert_eq!(v["Result"], "OPTIMUM FOUND");
    assert_eq!(v["Models"]["Optimum"], "yes");
    assert_eq!(v["Models"]["Optimal"], 1);
    assert_eq!(v["Models"]["Costs"], serde_json::json!([-2, 3]));
    let witnesses = v["Call"][0]["Witnesses"].as_array().unwrap();
    assert_eq!(witnesses.len(), 1);
    assert_eq!(witnesses[0]["Value"], serde_json::json!(["b", "c"]));
    assert_eq!(witnesses[0]["Costs"], serde_json::json!([-2, 3]));
}

#[test]
fn brave_and_cautious_consequences() {
    // clingo --enum-mode=brave/cautious on {a;b;c}. :- a,b. d :- not c.:
    // brave a b c d, cautious none.
    let program = "{a;b;c}. :- a,b. d :- not c.\n";
    let run = |mode: &str| {
        let mut cmd = asp2sat();
        cmd.args([&format!("--enum-mode={mode}"), "--outf=2"]);
        cmd.write_stdin(program);
        let out = output(cmd);
        assert_eq!(out.code, Some(30), "stderr: {}", out.stderr);
        let document = json(&out.stdout);
        let witnesses = document["Call"][0]["Witnesses"].as_array().unwrap().clone();
        // The last approximation is exact: nothing is open.
        let last = witnesses.last().unwrap();
        assert_eq!(last["Consequences"]["Open"], 0, "{last}");
        let last = witnesses.last().unwrap()["Value"]
            .as_array()
            .unwrap()
            .clone();
        last.iter()
            .map(|v| v.as_str().unwrap().to_string())
            .collect::<Vec<_>>()
    };
    let mut brave = run("brave");
    brave.sort();
    assert_eq!(brave, ["a", "b", "c", "d"]);
    assert!(run("cautious").is_empty());
    let mut cmd = asp2sat();
    cmd.arg("--enum-mode=cautious");
    cmd.write_stdin("a. {b}. c :- a.\n");
    let out = output(cmd);
    assert!(
        out.stdout.contains("  Cautious   : yes\nConsequences : 2"),
        "{}",
        out.stdout
    );
}

/// The result line and the summary lines of clingo-style text output that
/// do not depend on the search: all but the counts of models, times and
/// the approximations on the way.
fn settled_summary(stdout: &str) -> Vec<String> {
    let result = ["SATISFIABLE", "UNSATISFIABLE", "OPTIMUM FOUND", "UNKNOWN"];
    stdout
        .lines()
        .filter(|line| {
            let key = line.split(" : ").next().unwrap_or("").trim();
            result.contains(line)
                || (line.contains(" : ")
                    && !matches!(key, "Models" | "Optimal" | "Time" | "CPU Time"))
        })
        .map(str::to_string)
        .collect()
}

/// Each model of clingo-style text output: the line after `Answer: k` (its
/// atoms), then its `Consequences: [l;u]` and `Optimization: ..` lines.
fn text_models(stdout: &str) -> Vec<Vec<String>> {
    let mut models: Vec<Vec<String>> = Vec::new();
    let mut open = false;
    for line in stdout.lines() {
        if line.starts_with("Answer: ") {
            models.push(Vec::new());
            open = true;
        } else if let Some(model) = models.last_mut().filter(|_| open) {
            open = model.is_empty()
                || line.starts_with("Consequences: ")
                || line.starts_with("Optimization: ");
            if open {
                model.push(line.to_string());
            }
        }
    }
    models
}

#[test]
fn consequences_of_an_optimizing_program_as_clingo() {
    // Optimal answer sets {a}, {b}, {a,d}, {b,d}: brave a b d, cautious none.
    let program = "{a;b;c;d}. :- not a, not b. #minimize{1,a:a; 1,b:b; 1,c:c}.\n";
    let file = common::scratch("cli-consequences").join("objective.lp");
    std::fs::write(&file, program).unwrap();
    let file = file.to_string_lossy().into_owned();
    for kind in ["--enum-mode=brave", "--enum-mode=cautious"] {
        for mode in [
            "--opt-mode=optN",
            "--opt-mode=enum",
            "--opt-mode=ignore",
            "--opt-mode=opt",
        ] {
            let args = [kind, mode, &file];
            let ours = clingo_style(&args);
            no_panic(&ours);
            let theirs = std::process::Command::new(common::clingo_bin())
                .args(args)
                .output()
                .unwrap();
            let their_stdout = String::from_utf8_lossy(&theirs.stdout);
            assert_eq!(ours.code, theirs.status.code(), "{args:?}");
            let context = format!("{args:?}\n{}", ours.stdout);
            let models = text_models(&ours.stdout);
            let last = models.last().expect("a model");
            if mode == "--opt-mode=opt" {
                // clasp's: each answer set better than the one before and
                // changing the approximation, which depends on their order.
                assert_stderr_has(&ours, "Consequences may depend on enumeration order");
                let costs: Vec<i64> = (models.iter())
                    .map(|m| m[2].trim_start_matches("Optimization: ").parse().unwrap())
                    .collect();
                assert!(costs.windows(2).all(|pair| pair[1] < pair[0]), "{context}");
                let count = last[0].split_whitespace().count();
                assert!(
                    ours.stdout.contains(&format!("Consequences : {count}\n")),
                    "{context}"
                );
                assert!(ours.stdout.contains("OPTIMUM FOUND\n"), "{context}");
                continue;
            }
            if mode == "--opt-mode=enum" {
                assert_stderr_has(
                    &ours,
                    "opt-mode=enum: No bound given, optimize statement ignored.",
                );
            }
            assert_eq!(
                settled_summary(&ours.stdout),
                settled_summary(&their_stdout),
                "{context}"
            );
            // The last approximation is exact, and its answer set's costs
            // follow it, as in clingo.
            let their_last = text_models(&their_stdout).pop().unwrap();
            let atoms = |model: &[String]| {
                let mut atoms: Vec<String> =
                    model[0].split_whitespace().map(String::from).collect();
                atoms.sort();
                atoms
            };
            assert_eq!(atoms(last), atoms(&their_last), "{context}");
            assert!(last[1].starts_with("Consequences: ["), "{context}");
            if mode == "--opt-mode=optN" {
                assert_eq!(last[2], "Optimization: 1", "{context}");
            }
        }
    }
    // JSON: each witness's consequences before its costs, the summary's
    // consequences exact; --quiet=1 shows the last approximation as exact.
    let out = clingo_style(&["--enum-mode=brave", "--opt-mode=optN", "--outf=2", &file]);
    let document = json(&out.stdout);
    let witnesses = document["Call"][0]["Witnesses"].as_array().unwrap();
    let last = witnesses.last().unwrap();
    assert_eq!(last["Value"].as_array().unwrap().len(), 3, "{}", out.stdout);
    assert_eq!(document["Models"]["Brave"], "yes");
    assert_eq!(document["Models"]["Consequences"]["True"], 3);
    assert_eq!(document["Models"]["Consequences"]["Open"], 0);
    assert_eq!(document["Models"]["Costs"][0], 1);
    let text = &out.stdout[out.stdout.rfind("\"Value\"").unwrap()..];
    assert!(
        text.find("\"Consequences\"") < text.find("\"Costs\""),
        "{}",
        out.stdout
    );
    let out = clingo_style(&["--enum-mode=brave", "--opt-mode=optN", "--quiet=1", &file]);
    assert!(
        out.stdout
            .contains("Consequences: [3;3]\nOptimization: 1\nOPTIMUM FOUND"),
        "{}",
        out.stdout
    );
}

#[test]
fn objectives_that_grounding_empties_as_clingo() {
    // clingo has an objective when grounding leaves a cost tuple, true or
    // not: then OPTIMUM FOUND (Optimization 0 when none can hold, the sum
    // of the tuples when they are facts); none when every tuple vanished.
    let programs = [
        // No objective at all.
        "{b}. a.",
        // p3 never defined: the statement vanishes.
        "{b}. a. #maximize { X@2,X : p3(X) }.",
        // p3 defined, but by no rule that grounding can apply.
        "{b}. q(1..3). p3(X) :- q(X), X > 3. #maximize { X@2,X : p3(X) }.",
        // p3(1) possible while grounding, false by a constraint: kept.
        "{b}. {p3(1)}. :- p3(1). #maximize { X@2,X : p3(X) }.",
        // A tuple that is a fact: a constant cost.
        "{b}. a. #minimize { 1@2 : a }.",
        // One level vanishes, the other stays.
        "{b}. #maximize { X@2,X : p3(X) }. #minimize { 1@1 : b }.",
        // An external is possible while grounding (false here), as in clingo.
        "{b}. #external p3(1). #maximize { X@2,X : p3(X) }.",
        "{b}. #external p3(1). [true] #maximize { X@2,X : p3(X) }.",
        ":~ p3(X), b. [X@3] {b}.",
    ];
    let dir = common::scratch("cli-emptied-objectives");
    for (index, program) in programs.iter().enumerate() {
        let file = dir.join(format!("objective{index}.lp"));
        std::fs::write(&file, program).unwrap();
        let file = file.to_string_lossy().into_owned();
        for flags in [
            &["0"][..],
            &["0", "--opt-mode=optN"],
            &["0", "--opt-mode=enum"],
            &["1"],
            &["0", "--outf=2"],
            &["0", "--opt-mode=optN", "--outf=2"],
        ] {
            let mut args = flags.to_vec();
            args.push(&file);
            let ours = clingo_style(&args);
            no_panic(&ours);
            let theirs = std::process::Command::new(common::clingo_bin())
                .args(&args)
                .output()
                .unwrap();
            let their_stdout = String::from_utf8_lossy(&theirs.stdout);
            let context = format!("{program} {flags:?}\n{}", ours.stdout);
            assert_eq!(ours.code, theirs.status.code(), "{context}");
            if flags.contains(&"--outf=2") {
                let (ours, theirs) = (json(&ours.stdout), json(&their_stdout));
                assert_eq!(ours["Result"], theirs["Result"], "{context}");
                assert_eq!(
                    ours["Models"]["Costs"], theirs["Models"]["Costs"],
                    "{context}"
                );
                assert_eq!(
                    ours["Models"]["Optimum"], theirs["Models"]["Optimum"],
                    "{context}"
                );
                continue;
            }
            assert_eq!(
                settled_summary(&ours.stdout),
                settled_summary(&their_stdout),
                "{context}"
            );
            let costs = |stdout: &str| {
                let mut costs: Vec<String> = (stdout.lines())
                    .filter(|l| l.starts_with("Optimization:"))
                    .map(String::from)
                    .collect();
                costs.sort();
                costs
            };
            // Which answer sets opt (and -n 1) report on the way to the
            // optimum depends on the search.
            let on_the_way =
                flags == ["1"] || (flags == ["0"] && their_stdout.contains("Optimization"));
            if !on_the_way {
                let mut answers = text_answers(&ours.stdout);
                answers.sort();
                let mut expected = text_answers(&their_stdout);
                expected.sort();
                assert_eq!(answers, expected, "{context}");
                assert_eq!(costs(&ours.stdout), costs(&their_stdout), "{context}");
            }
        }
    }
}
