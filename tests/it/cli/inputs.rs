//! The inputs of a run: `--project`, `-c`, standard input, `#include`,
//! several files, and bytes that are not UTF-8.

use super::{
    asp2sat, assert_found, assert_stderr_has, has_located, json, models_line, output, rejected,
    solve, text_answers,
};
use crate::common;
use assert_cmd::Command;

// ---------------------------------------------------------------------------
// --project, -c, stdin, #include

#[test]
fn project_prints_each_shown_set_once() {
    // {a;b}. c :- a. #show c/0.  has 4 answer sets: clingo -n 0 prints
    // {}, {}, {c}, {c}; with --project it prints {} and {c} once each.
    let out = output(solve(&["-n", "0", "fixtures/cli/project.lp"]));
    assert_eq!(out.code, Some(30), "stderr: {}", out.stderr);
    let mut all = text_answers(&out.stdout);
    all.sort();
    assert_eq!(
        all,
        vec![vec![], vec![], vec!["c".to_string()], vec!["c".to_string()]],
        "{}",
        out.stdout
    );
    assert_eq!(models_line(&out.stdout).as_deref(), Some("4"));

    let out = output(solve(&["-n", "0", "--project", "fixtures/cli/project.lp"]));
    assert_eq!(out.code, Some(30), "stderr: {}", out.stderr);
    let mut proj = text_answers(&out.stdout);
    proj.sort();
    assert_eq!(proj, vec![vec![], vec!["c".to_string()]], "{}", out.stdout);
    assert_eq!(models_line(&out.stdout).as_deref(), Some("2"));
}

#[test]
fn a_gringo3_construct_in_one_file_makes_the_program_gringo3s() {
    // The data file, read first, has no gringo 3 form of its own.
    let mut cmd = solve(&["fixtures/cli/gringo3_edges.lp", "-"]);
    cmd.write_stdin("#hide.\n#show edge(X,Y).\n");
    let out = output(cmd);
    assert_found(&out);
    assert_eq!(
        text_answers(&out.stdout),
        vec![vec!["edge(1,2)", "edge(1,3)"]]
    );
    // Without it, clingo's reading (and no `#show` pattern to apply).
    let out = output(solve(&["fixtures/cli/gringo3_edges.lp"]));
    assert_found(&out);
    assert_eq!(
        text_answers(&out.stdout),
        vec![vec!["edge(1,2)", "edge(3)"]]
    );
}

#[test]
fn statements_clingo_refuses_for_unbound_variables_read_as_gringo3() {
    // clingo: `size(R;C)` makes two rules, each with an unbound variable,
    // and `#show cell(R,C).` binds nothing. gringo 3: a conjunction, and the
    // atoms that match (all atoms stay shown: there is no `#hide.`).
    let mut cmd = solve(&["-"]);
    cmd.write_stdin("size(1..2). cell(R,C) :- size(R;C), R < C.\n#show cell(R,C).\n");
    let out = output(cmd);
    assert_found(&out);
    assert_eq!(
        text_answers(&out.stdout),
        vec![vec!["cell(1,2)", "size(1)", "size(2)"]]
    );
}

#[test]
fn const_override() {
    let out = output(solve(&["fixtures/cli/const.lp"]));
    assert_eq!(
        text_answers(&out.stdout),
        vec![vec!["p(1)", "p(2)"]],
        "{}",
        out.stderr
    );
    let out = output(solve(&["-c", "n=4", "fixtures/cli/const.lp"]));
    assert_found(&out);
    assert_eq!(
        text_answers(&out.stdout),
        vec![vec!["p(1)", "p(2)", "p(3)", "p(4)"]],
        "{}",
        out.stdout
    );
}

#[test]
fn stdin_input() {
    let mut cmd = solve(&["-"]);
    cmd.write_stdin("a. b :- a.\n");
    let out = output(cmd);
    assert_found(&out);
    assert_eq!(text_answers(&out.stdout), vec![vec!["a", "b"]]);

    let mut cmd = solve(&["-n", "0", "--outf=2", "-"]);
    cmd.write_stdin("1 { x; y } 1.\n");
    let out = output(cmd);
    assert_eq!(out.code, Some(30), "stderr: {}", out.stderr);
    assert_eq!(json(&out.stdout)["Models"]["Number"], 2);
}

#[test]
fn stdin_together_with_a_file() {
    let mut cmd = solve(&["fixtures/cli/include_part.lp", "-"]);
    cmd.write_stdin("q :- part.\n");
    let out = output(cmd);
    assert_found(&out);
    assert_eq!(text_answers(&out.stdout), vec![vec!["part", "q"]]);
}

#[test]
fn include_relative_to_the_including_file() {
    // clingo fixtures/cli/include_main.lp (run from the repository root)
    // finds include_part.lp next to include_main.lp: Answer: part main.
    let out = output(solve(&["fixtures/cli/include_main.lp"]));
    assert_found(&out);
    assert_eq!(text_answers(&out.stdout), vec![vec!["main", "part"]]);
}

#[test]
fn include_errors_are_located() {
    // clingo reports a missing file, and a library it does not have, as
    // `file:2:1-28: error: file could not be opened:`.
    let out = output(solve(&["fixtures/cli/include_errors.lp"]));
    assert_eq!(out.code, Some(65), "stderr: {}", out.stderr);
    assert!(
        has_located(&out.stderr, "fixtures/cli/include_errors.lp", "error")
            && out
                .stderr
                .contains("include_errors.lp:2:1-28: error: file could not be opened")
            && out
                .stderr
                .contains("include_errors.lp:3:1-26: error: file could not be opened"),
        "stderr: {}",
        out.stderr
    );
}

#[test]
fn including_a_directory_is_a_located_error() {
    // clingo 5.4 reads an included directory as an empty file; asp2sat
    // reads regular files only (see include_reads_regular_files_only).
    let dir = common::scratch("cli-include-directory");
    std::fs::create_dir_all(dir.join("sub")).unwrap();
    let main = dir.join("main.lp");
    std::fs::write(&main, "p.\n#include \"sub\".\n").unwrap();
    let out = rejected(main.to_str().unwrap());
    assert_stderr_has(
        &out,
        &format!(
            "main.lp:2:1-16: error: file could not be opened: {}: not a regular file",
            dir.join("sub").display()
        ),
    );
}

#[test]
fn an_include_cycle_reads_each_file_once() {
    // clingo 5.4 on a.lp (`#include "b.lp". a.`) and b.lp (`#include
    // "a.lp". b.`): `b.lp:1:1-17: warning: already included file`, and the
    // answer set {a, b}, exit 30.
    let dir = common::scratch("cli-include-cycle");
    std::fs::write(dir.join("a.lp"), "#include \"b.lp\".\na.\n").unwrap();
    std::fs::write(dir.join("b.lp"), "#include \"a.lp\".\nb.\n").unwrap();
    let out = output(solve(&[dir.join("a.lp").to_str().unwrap()]));
    assert_eq!(out.code, Some(30), "{}", out.stderr);
    assert_eq!(text_answers(&out.stdout), vec![vec!["a", "b"]]);
}

#[test]
fn several_files_are_one_program() {
    let out = output(solve(&[
        "-n",
        "0",
        "encodings/sudoku.lp",
        "fixtures/puzzle_evil.lp",
    ]));
    assert_eq!(out.code, Some(30), "stderr: {}", out.stderr);
    let answers = text_answers(&out.stdout);
    assert_eq!(answers.len(), 1);
    assert_eq!(answers[0].len(), 81);
    assert!(answers[0].iter().all(|a| a.starts_with("paint(")));
}

#[test]
fn include_reads_regular_files_only() {
    // #include "/dev/zero". read 8.4 GB before failing.
    let mut cmd = solve(&["-"]);
    cmd.write_stdin("#include \"/dev/zero\".\np.\n");
    let out = output(cmd);
    assert_eq!(out.code, Some(65));
    assert!(
        out.stderr
            .contains("-:1:1-22: error: file could not be opened: /dev/zero: not a regular file"),
        "stderr: {}",
        out.stderr
    );
}

/// Whether `needle` occurs in `haystack`.
fn contains_bytes(haystack: &[u8], needle: &[u8]) -> bool {
    haystack.windows(needle.len()).any(|w| w == needle)
}

#[test]
fn a_latin1_byte_in_a_string_is_printed_as_clingo_prints_it() {
    // clingo reads bytes and prints them back: for `p("caf\xe9").` its text
    // output has `p("caf\xe9")` with the one byte 0xE9, and so has its
    // JSON, escaped for JSON only: `"p(\"caf\xe9\")"`; `clingo --text` too.
    let file = common::scratch("cli-encoding").join("latin1.lp");
    std::fs::write(&file, b"p(\"caf\xe9\"). % na\xefve\n").unwrap();
    let file = file.to_str().unwrap();
    let cases: [(&[&str], &[u8]); 3] = [
        (&[], b"Answer: 1\np(\"caf\xe9\")\n"),
        (&["--outf=2"], b"\"p(\\\"caf\xe9\\\")\""),
        (&["--text"], b"p(\"caf\xe9\").\n"),
    ];
    let clingo = std::process::Command::new(common::clingo_bin())
        .arg("--version")
        .output()
        .is_ok();
    for (args, expected) in cases {
        let ours = solve(args).arg(file).output().unwrap();
        assert!(
            contains_bytes(&ours.stdout, expected),
            "asp2sat {args:?}:\n{}",
            String::from_utf8_lossy(&ours.stdout)
        );
        if clingo {
            let theirs = std::process::Command::new(common::clingo_bin())
                .args(args)
                .arg(file)
                .output()
                .unwrap();
            assert!(
                contains_bytes(&theirs.stdout, expected),
                "clingo {args:?}:\n{}",
                String::from_utf8_lossy(&theirs.stdout)
            );
        }
    }
    let cnf = asp2sat().args(["dimacs", file]).output().unwrap();
    assert!(contains_bytes(&cnf.stdout, b" p(\"caf\xe9\")\n"));
}

#[test]
fn a_stray_byte_in_code_is_a_located_lexer_error() {
    // clingo 5.4: `-:3:6-7: error: lexer error, unexpected \xe9` (the
    // byte itself), exit 65.
    let mut cmd = solve(&["-"]);
    cmd.write_stdin(b"% caf\xe9\np(\"caf\xe9\").\np(caf\xe9).\n".to_vec());
    let out = cmd.output().unwrap();
    assert_eq!(out.status.code(), Some(65));
    let expected = b"-:3:6-7: error: lexer error, unexpected \xe9\n";
    assert!(
        contains_bytes(&out.stderr, expected),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn binary_input_gets_twenty_located_errors_and_a_count_of_the_rest() {
    // An executable's first bytes: control characters, NULs and bytes that
    // are not UTF-8. clingo 5.4 prints 20 located errors, then `*** ERROR:
    // (clingo): too many messages.`, exit 65.
    let mut bytes = b"\x7fELF\x02\x01\x01".to_vec();
    bytes.extend((0..2000u32).map(|i| (i * 37 % 256) as u8));
    let file = common::scratch("cli-binary").join("binary.lp");
    std::fs::write(&file, &bytes).unwrap();
    let file = file.to_str().unwrap();
    let out = output(solve(&[file]));
    assert_eq!(out.code, Some(65));
    let located = |stderr: &str| {
        (stderr.lines())
            .filter(|l| l.starts_with(file) && l.contains(": error: "))
            .count()
    };
    assert_eq!(located(&out.stderr), 20, "{}", out.stderr);
    assert!(
        out.stderr
            .contains(&format!("{file}:1:1-2: error: lexer error"))
    );
    assert!(
        out.stderr
            .contains("*** ERROR: (asp2sat): too many messages: "),
        "{}",
        out.stderr
    );
    assert!(out.stdout.contains("UNKNOWN"));
    let mut theirs = Command::new(common::clingo_bin());
    theirs.arg(file);
    let theirs = output(theirs);
    assert_eq!(theirs.code, Some(65));
    assert_eq!(located(&theirs.stderr), 20, "{}", theirs.stderr);
}

#[test]
fn a_code_point_that_stands_for_a_byte_is_refused_in_a_string() {
    // U+10FF80..U+10FFFF stand for the bytes of strings that are not UTF-8.
    let mut cmd = solve(&["-"]);
    cmd.write_stdin("p(\"\u{10FFE9}\"). % \u{10FFE9}\n");
    let out = output(cmd);
    assert_eq!(out.code, Some(65));
    assert_stderr_has(&out, "-:1:4-5: error: the character U+10FFE9 in a string");
}

#[test]
fn a_byte_order_mark_is_skipped() {
    let mut cmd = solve(&["-"]);
    cmd.write_stdin(b"\xef\xbb\xbfp.\n".to_vec());
    let out = output(cmd);
    assert_found(&out);
    assert_eq!(text_answers(&out.stdout), vec![vec!["p"]]);
    // clingo 5.4 refuses it: `lexer error, unexpected \xef` and so on.
    let file = common::scratch("cli-encoding").join("bom.lp");
    std::fs::write(&file, b"\xef\xbb\xbfp.\n").unwrap();
    let out = output(solve(&[file.to_str().unwrap()]));
    assert_found(&out);
    assert_eq!(text_answers(&out.stdout), vec![vec!["p"]]);
}

#[test]
fn a_latin1_byte_in_a_comment_is_read() {
    let mut cmd = solve(&["-"]);
    cmd.write_stdin(b"% caf\xe9 \"au lait\n%* na\xefve %* \xe9 *% \xe9 *% p.\n".to_vec());
    let out = output(cmd);
    assert_found(&out);
    assert_eq!(text_answers(&out.stdout), vec![vec!["p"]]);
}
