//! Messages in gringo's format (located, 1-based, exclusive end column),
//! inputs that once crashed asp2sat or ran away, and clingo's summary
//! after an input error.

use super::{
    asp2sat, assert_found, assert_stderr_has, clingo_style, has_located, no_panic, output,
    rejected, solve, text_answers,
};
use crate::common;
use assert_cmd::Command;

// ---------------------------------------------------------------------------
// Errors

#[test]
fn syntax_error_message() {
    let out = rejected("fixtures/cli/syntax_error.lp");
    assert!(
        has_located(
            &out.stderr,
            "fixtures/cli/syntax_error.lp",
            "error: syntax error"
        ),
        "want `fixtures/cli/syntax_error.lp:L:C-C: error: syntax error...`, got:\n{}",
        out.stderr
    );
    assert!(!out.stdout.contains("Answer:"));
}

#[test]
fn syntax_error_position_as_clingo() {
    // clingo 5.4: fixtures/cli/syntax_error.lp:3:1-2: error: syntax error, unexpected <IDENTIFIER>
    // (the missing `.` after `b :- a` is noticed at the `c` on line 3).
    let out = output(solve(&["fixtures/cli/syntax_error.lp"]));
    assert_stderr_has(
        &out,
        "fixtures/cli/syntax_error.lp:3:1-2: error: syntax error",
    );
}

#[test]
fn unsafe_variable_message() {
    // clingo 5.4:
    //   fixtures/cli/unsafe.lp:2:1-18: error: unsafe variables in:
    //     p(X):-[#inc_base];not q(X).
    //   fixtures/cli/unsafe.lp:2:3-4: note: 'X' is unsafe
    let out = rejected("fixtures/cli/unsafe.lp");
    assert_stderr_has(&out, "error: unsafe variables in:");
    assert_stderr_has(&out, "note: 'X' is unsafe");
    assert!(
        has_located(
            &out.stderr,
            "fixtures/cli/unsafe.lp",
            "error: unsafe variables in:"
        ),
        "{}",
        out.stderr
    );
    assert!(
        has_located(&out.stderr, "fixtures/cli/unsafe.lp", "note: 'X' is unsafe"),
        "{}",
        out.stderr
    );
}

#[test]
fn unsafe_variable_positions_as_clingo() {
    let out = output(solve(&["fixtures/cli/unsafe.lp"]));
    assert_stderr_has(
        &out,
        "fixtures/cli/unsafe.lp:2:1-18: error: unsafe variables in:",
    );
    assert_stderr_has(&out, "fixtures/cli/unsafe.lp:2:3-4: note: 'X' is unsafe");
}

#[test]
fn unsafe_variables_in_clingos_order() {
    // clingo 5.4 reports a rule's aggregates, the last first, before the
    // rule, and the variables of each place by name.
    let mut cmd = solve(&["-"]);
    cmd.write_stdin(
        "a(B,Y) :- #count{ C : p(C,D), not q(E) } > A, #sum { 1 : not r(F) ; 2 : s(C) } > 1.\n",
    );
    let out = output(cmd);
    let located: Vec<&str> = (out.stderr.lines())
        .filter(|line| line.starts_with("-:"))
        .collect();
    assert_eq!(
        located,
        [
            "-:1:47-83: error: unsafe variables in:",
            "-:1:64-65: note: 'F' is unsafe",
            "-:1:11-45: error: unsafe variables in:",
            "-:1:37-38: note: 'E' is unsafe",
            "-:1:1-84: error: unsafe variables in:",
            "-:1:44-45: note: 'A' is unsafe",
            "-:1:3-4: note: 'B' is unsafe",
            "-:1:5-6: note: 'Y' is unsafe",
        ]
    );
}

#[test]
fn dlv_int_without_maxint_is_located() {
    // DLV refuses `#int` without a `#maxint` too; clingo has neither.
    let mut cmd = solve(&["-"]);
    cmd.write_stdin("p(1).\nq(X) :- p(Y), #int(X), X < Y.\n");
    let out = output(cmd);
    assert_eq!(out.code, Some(65), "{}", out.stderr);
    assert_stderr_has(
        &out,
        "-:2:15-22: error: DLV's #int and #succ range up to #maxint, which the program does not set to a natural number",
    );
}

#[test]
fn missing_file() {
    // clingo: "<cmd>: error: file could not be opened:\n  nonexist.lp", exit 65.
    let out = output(solve(&["fixtures/cli/no_such_file.lp"]));
    assert!(
        !matches!(out.code, Some(0) | Some(10) | Some(20) | Some(30) | None),
        "exit {:?}",
        out.code
    );
    no_panic(&out);
    assert!(
        out.stderr.contains("no_such_file.lp"),
        "the message should name the file:\n{}",
        out.stderr
    );
    assert!(!out.stdout.contains("SATISFIABLE"), "{}", out.stdout);
}

#[test]
fn unknown_option() {
    // clingo: `*** ERROR: (clingo): In context '<clingo>': unknown option:
    // 'frobnicate'`, exit 1.
    let out = output(solve(&["--frobnicate", "fixtures/cli/unsat.lp"]));
    assert_eq!(out.code, Some(1));
    no_panic(&out);
    assert_stderr_has(&out, "frobnicate");
    asp2sat().arg("frobnicate").assert().failure();
}

#[test]
fn error_in_one_of_several_files() {
    // clingo stops at the syntax error in the first file, naming it.
    let out = output(solve(&[
        "fixtures/cli/syntax_error.lp",
        "fixtures/cli/one_model.lp",
    ]));
    assert_eq!(out.code, Some(65), "stderr: {}", out.stderr);
    assert_stderr_has(&out, "fixtures/cli/syntax_error.lp:3:");
    assert!(!out.stdout.contains("Answer:"), "{}", out.stdout);
}

#[test]
fn deeply_nested_input_does_not_crash() {
    // clingo 5.4 solves all of these; asp2sat may solve them or reject them
    // with an error (exit 65), but must not crash or hang.
    let dir = common::scratch("cli");
    let d = 100_000;
    let cases = [
        (
            "parens",
            format!("p({}1{}).\n", "(".repeat(d), ")".repeat(d)),
            "p(1)",
        ),
        (
            "functions",
            format!("p({}a{}).\n", "f(".repeat(d / 10), ")".repeat(d / 10)),
            "p(f(",
        ),
        (
            "arith",
            format!(
                "p(X) :- X = {}1{}.\n",
                "(1+".repeat(d / 10),
                ")".repeat(d / 10)
            ),
            "p(",
        ),
        ("unclosed", format!("p({}1.\n", "(".repeat(d)), ""),
        (
            "braces",
            format!("{}a{}.\n", "{".repeat(d / 10), "}".repeat(d / 10)),
            "",
        ),
    ];
    for (name, text, want) in cases {
        let file = dir.join(format!("deep_{name}.lp"));
        std::fs::write(&file, text).unwrap();
        let out = output(solve(&["-n", "0", file.to_str().unwrap()]));
        no_panic(&out);
        match out.code {
            Some(30) if !want.is_empty() => assert!(
                out.stdout.contains(want),
                "{name}: {}",
                &out.stdout[..out.stdout.len().min(300)]
            ),
            Some(30) | Some(65) => {}
            other => panic!(
                "{name}: exit {other:?}; stderr: {}",
                &out.stderr[..out.stderr.len().min(500)]
            ),
        }
        if out.code == Some(65) {
            assert!(
                out.stderr.contains("error"),
                "{name}: exit 65 without a message"
            );
        }
    }
}

// ---------------------------------------------------------------------------
// Inputs that once crashed asp2sat or ran away

#[test]
fn long_terms_ground_in_linear_time() {
    // 50,000 terms took minutes and gigabytes when unpooling copied the
    // term at every level.
    let sum = vec!["1"; 50_000].join("+");
    let mut cmd = solve(&["-"]);
    cmd.write_stdin(format!("p({sum}).\n"));
    let out = output(cmd);
    assert_found(&out);
    assert_eq!(text_answers(&out.stdout), vec![vec!["p(50000)"]]);
}

#[test]
fn a_long_chain_over_a_pool_grounds_in_linear_time() {
    // Found by the mutation fuzzer: each level copied the alternatives.
    let chain = "+1".repeat(50_000);
    let mut cmd = solve(&["-"]);
    cmd.write_stdin(format!("e((1;2){chain}).\n"));
    let out = output(cmd);
    assert_found(&out);
    assert_eq!(
        text_answers(&out.stdout),
        vec![vec!["e(50001)", "e(50002)"]]
    );
}

#[test]
fn terms_nested_a_thousand_deep_are_solved() {
    // clingo reads them; the limit was 256.
    let n = 1000;
    let nest = |open: &str, close: &str| format!("{}1{}", open.repeat(n), close.repeat(n));
    let program = [
        format!("p({}).", nest("(", ")")),
        format!("q({}).", nest("f(", ")")),
        format!("r({}).", nest("1+(", ")")),
        format!("s({}).", nest("(1,", ")")),
        format!("t({}).", nest("|", "|")),
        format!("u(X) :- q({}X{}).", "f(".repeat(n - 1), ")".repeat(n - 1)),
    ]
    .join("\n");
    for command in ["solve", "ground", "dimacs"] {
        let mut cmd = asp2sat();
        cmd.args([command, "-"]).write_stdin(program.clone());
        let out = output(cmd);
        let expected = if command == "solve" { 30 } else { 0 };
        assert_eq!(out.code, Some(expected), "{command}: {}", out.stderr);
    }
    let mut cmd = solve(&["-", "--outf=2"]);
    cmd.write_stdin(program);
    let out = output(cmd);
    for atom in ["\"p(1)\"", "\"r(1001)\"", "\"t(1)\"", "\"u(f(1))\""] {
        assert!(out.stdout.contains(atom), "{atom}");
    }
}

#[test]
fn too_deep_a_term_is_a_located_error() {
    // A million-term chain overflowed the stack (SIGABRT).
    let sum = vec!["1"; 1_000_000].join("+");
    let mut cmd = solve(&["-"]);
    cmd.write_stdin(format!("#const k = {sum}.\np(k).\n"));
    let out = output(cmd);
    assert_eq!(out.code, Some(65), "stderr: {}", out.stderr.len());
    assert!(
        out.stderr
            .starts_with("-:1:12-200013: error: term nested too deeply"),
        "stderr: {}",
        &out.stderr[..out.stderr.len().min(300)]
    );
}

#[test]
fn an_interval_in_a_body_atom_is_matched_against_the_atoms() {
    // It enumerated all 2^31 values; clingo matches x(5) at once.
    let mut cmd = solve(&["-"]);
    cmd.write_stdin("x(5). x(a). y :- x(1..2147483647).\n");
    let out = output(cmd);
    assert_found(&out);
    assert_eq!(text_answers(&out.stdout), vec![vec!["x(5)", "x(a)", "y"]]);
}

#[test]
fn an_interval_compared_is_narrowed_to_one_value_that_passes() {
    // Each took minutes, one instance per value; clingo 5.4 and 5.8 take
    // as long on the aggregate, and there answer wrongly at 2147483647,
    // where their enumeration wraps around.
    let mut cmd = solve(&["-", "0"]);
    cmd.write_stdin(
        "q(1..3). h(C) :- C = #count{ X : q(X), X > 1..2147483646 }.\n\
         s(X) :- q(X), X+1 < (1..2147483647)*2. t :- 1 < 2..2147483647 : u. {u}.\n",
    );
    let out = output(cmd);
    assert_eq!(out.code, Some(30), "{}", out.stderr);
    let mut answers = text_answers(&out.stdout);
    answers.iter_mut().for_each(|atoms| atoms.sort());
    answers.sort();
    let expected = common::sorted_sets(&[
        "q(1) q(2) q(3) h(2) s(1) s(2) s(3) t",
        "q(1) q(2) q(3) h(2) s(1) s(2) s(3) t u",
    ]);
    assert_eq!(answers, expected);
}

/// The messages of standard error that say a `#show`n signature has no
/// atom: each one's first line and the quoted signature under it.
fn unmatched_show_messages(stderr: &str) -> Vec<String> {
    let lines: Vec<&str> = stderr.lines().collect();
    (lines.iter().enumerate())
        .filter(|(_, line)| line.ends_with(": info: no atoms over signature occur in program:"))
        .map(|(i, line)| format!("{line}\n{}", lines.get(i + 1).unwrap_or(&"")))
        .collect()
}

#[test]
fn a_shown_signature_without_atoms_is_reported_as_clingo_reports_it() {
    let dir = common::scratch("unmatched_show");
    let programs = [
        "#show p/1.",
        // By sign, arity and name.
        "#show b/1. #show a/1. #show -a/1. #show a/0. #show a/2. #show aa/1. #show b/0.",
        // Once, at the first `#show`.
        "#show q/2.\n#show p/1. #show q/2.",
        // Occurring in a body only, in a part that is not grounded, or
        // declared: no message.
        "#show p/1. a :- p(1).",
        "#program x. p(1). #program base. #show p/1.",
        "#show p/1. #defined p/1. #show q/1. #project q/1. #show r/0. r :- #false.",
        // `-p` in a head makes `p` occur, in a body it does not.
        "#show p/1. #show -p/1. -p(1).",
        "#show p/1. :- -p(1). #show p/0. p.",
        "#show s/1. #show t/2. t(1;2,3). #show u/1. x :- #count{ X : u(X) } > 1.",
        // The atoms of a `#heuristic` occur, though it has no effect.
        "#show p/1. #show q/1. #show r/1. #heuristic p(1) : q(2). [1,true]",
    ];
    let mut reported = 0;
    for (i, program) in programs.iter().enumerate() {
        let file = dir.join(format!("p{i}.lp"));
        std::fs::write(&file, program).unwrap();
        let file = file.to_str().unwrap();
        for warn in [
            &[][..],
            &["-W", "no-other"],
            &["-W", "no-atom-undefined"],
            &["-W", "none"],
        ] {
            let args = [&[file, "-V0"][..], warn].concat();
            let theirs = std::process::Command::new(common::clingo_bin())
                .args(&args)
                .output()
                .unwrap();
            let expected = unmatched_show_messages(&String::from_utf8_lossy(&theirs.stderr));
            reported += expected.len();
            let ours = clingo_style(&args);
            assert_eq!(
                unmatched_show_messages(&ours.stderr),
                expected,
                "{program} {warn:?}:\n{}",
                ours.stderr
            );
        }
    }
    // 13 messages, printed unless `-W` switches atom-undefined off.
    assert_eq!(reported, 26);
}

/// Standard output with what differs between the tools and runs masked:
/// the version line, times and the solver's name.
fn mask_run(stdout: &str) -> String {
    times_masked(stdout)
        .replace("clingo version 5.4.1", "[version]")
        .replace(
            &format!("asp2sat version {}", env!("CARGO_PKG_VERSION")),
            "[version]",
        )
}

/// The values of the time lines (text and competition format) and of the
/// JSON document's times replaced by `T`.
fn times_masked(text: &str) -> String {
    text.lines()
        .map(|line| {
            let trimmed = line.trim_start();
            let json_time = [
                "\"Total\"",
                "\"Solve\"",
                "\"Model\"",
                "\"Unsat\"",
                "\"CPU\"",
            ]
            .iter()
            .any(|key| trimmed.starts_with(key));
            if json_time {
                let (key, _) = line.split_once(':').unwrap();
                let comma = if line.ends_with(',') { "," } else { "" };
                format!("{key}: T{comma}")
            } else if ["Time", "CPU Time", "% Time", "% CPU Time"]
                .iter()
                .any(|key| trimmed.starts_with(key))
            {
                let (key, _) = line.split_once(':').unwrap();
                format!("{key}: T")
            } else {
                line.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// After any input error, standard output ends as clingo's does: `UNKNOWN`
/// and the summary in text, a complete JSON document in `--outf=2`,
/// nothing in `--outf=3`, with exit 65; a bad command line exits 1 with
/// nothing on standard output. Compared with clingo 5.4 byte for byte,
/// times and version lines apart.
#[test]
fn input_errors_end_with_clingos_unknown_summary() {
    let dir = common::scratch("cli-input-errors");
    // Relative to the root, where both run: clingo shortens a long path in
    // `Reading from`.
    let relative = |path: std::path::PathBuf| {
        let path = path.strip_prefix(common::root()).unwrap().to_path_buf();
        path.to_string_lossy().into_owned()
    };
    let write = |name: &str, text: &str| {
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        relative(path)
    };
    let unsafe_rule = write("unsafe.lp", "p(X).\n");
    let syntax = write("syntax.lp", "p(.\n");
    let fine = write("fine.lp", "a.\n");
    let missing = relative(dir.join("missing.lp"));
    let cases: [(Vec<&str>, i32); 6] = [
        (vec![&unsafe_rule], 65),
        (vec![&syntax], 65),
        (vec![&missing], 65),
        (vec![&fine, "-c", "n=("], 65),
        (vec![&fine, "2", "-n", "3"], 1),
        (vec![&fine, "--no-such-option"], 1),
    ];
    for (args, code) in &cases {
        for outf in ["--outf=0", "--outf=1", "--outf=2", "--outf=3"] {
            let mut ours = solve(args);
            ours.arg(outf);
            let ours = output(ours);
            let theirs = std::process::Command::new(common::clingo_bin())
                .args(args)
                .arg(outf)
                .current_dir(common::root())
                .output()
                .expect("clingo 5.4 (Debian package gringo) runs");
            let theirs_stdout = String::from_utf8_lossy(&theirs.stdout);
            assert_eq!(theirs.status.code(), Some(*code), "clingo {args:?} {outf}");
            assert_eq!(
                ours.code,
                Some(*code),
                "asp2sat {args:?} {outf}: {}",
                ours.stderr
            );
            assert_eq!(
                mask_run(&ours.stdout),
                mask_run(&theirs_stdout),
                "standard output of {args:?} {outf}"
            );
        }
    }
}

#[test]
fn an_operation_never_defined_is_an_info_as_in_clingo() {
    // clingo drops `p(f(X)+1).` with `info: operation undefined`, before it
    // checks safety, and `-W no-operation-undefined` silences it.
    let program = "p(f(X)+1). q.\n";
    let expected = "-:1:3-9: info: operation undefined:";
    for tool in [
        Command::cargo_bin("asp2sat").unwrap(),
        Command::new(common::clingo_bin()),
    ] {
        let mut cmd = tool;
        cmd.arg("-").write_stdin(program);
        let out = output(cmd);
        assert_eq!(out.code, Some(30), "{}", out.stderr);
        assert_eq!(text_answers(&out.stdout), vec![vec!["q"]]);
        assert_stderr_has(&out, expected);
    }
    let mut cmd = solve(&["-", "-W", "no-operation-undefined"]);
    cmd.write_stdin(program);
    let out = output(cmd);
    assert!(
        !out.stderr.contains("operation undefined"),
        "{}",
        out.stderr
    );
}
