//! `--explain`: the statements it names have no answer set together (with
//! the statements it may not blame), and dropping any one of them leaves a
//! program that has one. Every explanation is checked so, by running
//! asp2sat on the programs cut down to the named statements (and clingo
//! too, where it is on PATH): unsolvable Sudokus made from solvable ones
//! (`--explain=facts`: which givens contradict each other), random small
//! unsatisfiable programs (with positive loops and disjunctions), and the
//! text and JSON formats.
//!
//! Environment: ASP2SAT_EXPLAIN_CASES, the number of random programs
//! (default 150); ASP2SAT_CLINGO, the clingo binary (default `clingo`).

use crate::common::{Rng, clingo_bin, env_u64, root, scratch};
use assert_cmd::Command;
use serde_json::Value;
use std::path::{Path, PathBuf};

/// A statement an explanation names, as the JSON output locates it.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Named {
    file: String,
    line: usize,
    column: usize,
    text: String,
}

fn asp2sat() -> Command {
    Command::cargo_bin("asp2sat").expect("the binary is built")
}

/// Whether the files have an answer set, by asp2sat's exit code (and
/// clingo's, which must agree, when it is on PATH).
fn satisfiable(files: &[PathBuf]) -> bool {
    let output = asp2sat()
        .arg("-q")
        .args(files)
        .output()
        .expect("asp2sat runs");
    let answer = match output.status.code() {
        Some(10 | 30) => true,
        Some(20) => false,
        other => panic!(
            "asp2sat {files:?}: exit {other:?}\n{}",
            String::from_utf8_lossy(&output.stderr)
        ),
    };
    if let Ok(clingo) = std::process::Command::new(clingo_bin())
        .arg("-q")
        .args(files)
        .output()
    {
        let clingo_answer = match clingo.status.code() {
            Some(10 | 30) => true,
            Some(20) => false,
            other => panic!("clingo {files:?}: exit {other:?}"),
        };
        assert_eq!(answer, clingo_answer, "asp2sat and clingo on {files:?}");
    }
    answer
}

/// The statements `asp2sat explain <flags> <files> --outf=2` names; the
/// run must say there is no answer set.
fn explanation(files: &[PathBuf], flags: &[&str]) -> Vec<Named> {
    let output = asp2sat()
        .arg("explain")
        .args(flags)
        .arg("--outf=2")
        .args(files)
        .output()
        .expect("asp2sat runs");
    assert_eq!(output.status.code(), Some(20), "{files:?}");
    let document: Value = serde_json::from_slice(&output.stdout).expect("valid JSON");
    assert_eq!(document["Result"], "UNSATISFIABLE");
    (document["Explanation"].as_array().expect("an explanation"))
        .iter()
        .map(|named| Named {
            file: named["File"].as_str().unwrap().to_string(),
            line: named["Line"].as_u64().unwrap() as usize,
            column: named["Column"].as_u64().unwrap() as usize,
            text: named["Text"].as_str().unwrap().to_string(),
        })
        .collect()
}

/// One input file and the statements of it that may be blamed (by line,
/// one statement per line), the others being hard.
struct Input {
    name: String,
    lines: Vec<String>,
    blamable: Vec<bool>,
}

impl Input {
    fn new(name: &str, text: &str, blamable: impl Fn(&str) -> bool) -> Input {
        let lines: Vec<String> = text.lines().map(String::from).collect();
        let blamable = lines.iter().map(|l| blamable(l)).collect();
        Input {
            name: name.to_string(),
            lines,
            blamable,
        }
    }
}

/// Checks that `named` is a minimal unsatisfiable set of the blamable
/// statements of `inputs`: written to `dir/check`, the hard statements with
/// exactly the named ones have no answer set, and without any single one of
/// them they have one. Returns how many statements were named.
fn check_minimal(dir: &Path, inputs: &[Input], named: &[Named]) -> usize {
    let dir = dir.join("check");
    std::fs::create_dir_all(&dir).unwrap();
    for n in named {
        let input = (inputs.iter())
            .find(|i| n.file.ends_with(&i.name))
            .unwrap_or_else(|| panic!("{n:?} names an unknown file"));
        assert_eq!(n.column, 1, "{n:?}");
        assert_eq!(input.lines[n.line - 1], n.text, "{n:?}");
        assert!(input.blamable[n.line - 1], "{n:?} may not be blamed");
    }
    let write = |left_out: Option<&Named>| -> Vec<PathBuf> {
        (inputs.iter())
            .map(|input| {
                let kept: Vec<&str> = (input.lines.iter().enumerate())
                    .map(|(i, line)| {
                        let is = |n: &Named| n.file.ends_with(&input.name) && n.line == i + 1;
                        let wanted = !input.blamable[i]
                            || (named.iter().any(is) && !left_out.is_some_and(is));
                        if wanted { line.as_str() } else { "" }
                    })
                    .collect();
                let path = dir.join(&input.name);
                std::fs::write(&path, kept.join("\n")).unwrap();
                path
            })
            .collect()
    };
    let files = write(None);
    assert!(
        !satisfiable(&files),
        "the named statements have an answer set: {named:?} in {dir:?}"
    );
    for left_out in named {
        let files = write(Some(left_out));
        assert!(
            satisfiable(&files),
            "{left_out:?} is not needed: {named:?} in {dir:?}"
        );
    }
    named.len()
}

/// Joel Verhagen's four puzzles, 81 characters each, `.` for an empty cell.
fn puzzles() -> Vec<Vec<Option<u8>>> {
    let text = std::fs::read_to_string(root().join("fixtures/joel_puzzles.81.txt")).unwrap();
    (text.lines())
        .map(|line| {
            (line.chars().take(81))
                .map(|c| c.to_digit(10).map(|d| d as u8))
                .collect()
        })
        .collect()
}

fn puzzle_text(cells: &[Option<u8>]) -> String {
    (cells.iter().enumerate())
        .filter_map(|(i, value)| {
            value.map(|v| format!("paint({},{},{v}).\n", i / 9 + 1, i % 9 + 1))
        })
        .collect()
}

/// Whether a value may be given in `cell` without clashing with a given of
/// its row, column or box.
fn fits(cells: &[Option<u8>], cell: usize, value: u8) -> bool {
    let (row, column) = (cell / 9, cell % 9);
    (0..81).filter(|&other| other != cell).all(|other| {
        let (r, c) = (other / 9, other % 9);
        let seen = r == row || c == column || (r / 3 == row / 3 && c / 3 == column / 3);
        !seen || cells[other] != Some(value)
    })
}

/// 50 unsolvable Sudokus, each a solvable puzzle (with one solution) with
/// one or two givens changed or added, none clashing with another given
/// in its row, column or box: `--explain=facts` names givens that
/// contradict each other under the encoding, and no fewer would. The
/// encoding (`sudoku.lp`, which has rules) is hard, its facts too.
#[test]
fn explain_unsolvable_sudokus() {
    let encoding_text = std::fs::read_to_string(root().join("encodings/sudoku.lp")).unwrap();
    let puzzles = puzzles();
    let mut rng = Rng::new(14);
    let (mut explained, mut named, mut attempts) = (0, 0, 0);
    while explained < 50 {
        attempts += 1;
        assert!(attempts < 500, "too few unsolvable puzzles made");
        let mut cells = rng.pick(&puzzles).clone();
        for _ in 0..1 + rng.below(2) {
            let cell = rng.below(81);
            let value = 1 + rng.below(9) as u8;
            if fits(&cells, cell, value) {
                cells[cell] = Some(value);
            }
        }
        let dir = scratch(&format!("sudoku-{explained}"));
        let inputs = [
            Input::new("sudoku.lp", &encoding_text, |_| false),
            Input::new("puzzle.lp", &puzzle_text(&cells), |_| true),
        ];
        let files: Vec<PathBuf> = (inputs.iter())
            .map(|input| {
                let path = dir.join(&input.name);
                std::fs::write(&path, input.lines.join("\n")).unwrap();
                path
            })
            .collect();
        if satisfiable(&files) {
            continue;
        }
        let blamed = explanation(&files, &["--explain=facts"]);
        assert!(!blamed.is_empty(), "the encoding alone has answer sets");
        named += check_minimal(&dir, &inputs, &blamed);
        explained += 1;
    }
    // Clashes through the rules, not between two givens.
    assert!(named >= 150, "{named} statements named in 50 explanations");
}

/// A random small program, one statement per line: facts, normal rules,
/// constraints, choices and disjunctions over six atoms, with positive
/// loops and negation.
fn random_program(rng: &mut Rng) -> Vec<String> {
    const ATOMS: [&str; 6] = ["a", "b", "c", "d", "e", "f"];
    let literal = |rng: &mut Rng| {
        let atom = *rng.pick(&ATOMS);
        if rng.chance(0.3) {
            format!("not {atom}")
        } else {
            atom.to_string()
        }
    };
    let body = |rng: &mut Rng| {
        let literals: Vec<String> = (0..1 + rng.below(2)).map(|_| literal(rng)).collect();
        literals.join(", ")
    };
    (0..4 + rng.below(6))
        .map(|_| match rng.below(10) {
            0 | 1 => format!("{}.", rng.pick(&ATOMS)),
            2..=4 => format!("{} :- {}.", rng.pick(&ATOMS), body(rng)),
            5 | 6 => format!(":- {}.", body(rng)),
            7 => format!("{{{}; {}}}.", rng.pick(&ATOMS), rng.pick(&ATOMS)),
            _ => format!(
                "{} | {} :- {}.",
                rng.pick(&ATOMS),
                rng.pick(&ATOMS),
                body(rng)
            ),
        })
        .collect()
}

/// Random unsatisfiable programs, explained blaming every statement and
/// blaming facts only: each explanation is a minimal unsatisfiable set.
#[test]
fn explain_random_unsatisfiable_programs() {
    let cases = env_u64("ASP2SAT_EXPLAIN_CASES", 150);
    let mut rng = Rng::new(2010);
    let (mut explained, mut attempts, mut by_facts) = (0, 0, 0);
    while explained < cases {
        attempts += 1;
        assert!(attempts < cases * 50, "too few unsatisfiable programs made");
        let lines = random_program(&mut rng);
        let dir = scratch(&format!("random-{explained}"));
        let path = dir.join("program.lp");
        std::fs::write(&path, lines.join("\n")).unwrap();
        let files = [path];
        if satisfiable(&files) {
            continue;
        }
        let text = lines.join("\n");
        let every = Input::new("program.lp", &text, |_| true);
        check_minimal(&dir, &[every], &explanation(&files, &[]));
        let is_fact = |line: &str| !line.contains(":-") && !line.contains(['{', '|']);
        let facts = Input::new("program.lp", &text, is_fact);
        let blamed = explanation(&files, &["--explain=facts"]);
        by_facts += usize::from(!blamed.is_empty());
        check_minimal(&dir, &[facts], &blamed);
        explained += 1;
    }
    assert!(by_facts > cases as usize / 10, "{by_facts} blame facts");
}

/// Loop formulas and the minimality check under assumptions: programs
/// whose unsatisfiability needs a loop formula (the completion has a model
/// where `a` and `b` support each other; or, with `--translation=eager`,
/// the ranking) or the minimality check of a head cycle, each with one
/// minimal unsatisfiable set.
#[test]
fn explain_loops_and_disjunctions() {
    let dir = scratch("loops");
    let cases: [(&str, &[&str]); 3] = [
        (
            "a :- b.\nb :- a.\nc :- not a.\n:- c.",
            &["c :- not a.", ":- c."],
        ),
        (
            "{e}.\na :- e.\na :- b.\nb :- a.\nc :- not a.\n:- c.\n:- e.",
            &["c :- not a.", ":- c."],
        ),
        (
            "a | b.\na :- b.\nb :- a.\n:- a, b.\nc | d.",
            &["a | b.", "a :- b.", "b :- a.", ":- a, b."],
        ),
    ];
    for (text, expected) in cases {
        let path = dir.join("program.lp");
        std::fs::write(&path, text).unwrap();
        let files = [path];
        let blamed = explanation(&files, &[]);
        let texts: Vec<&str> = blamed.iter().map(|n| n.text.as_str()).collect();
        assert_eq!(texts, expected, "{text}");
        check_minimal(&dir, &[Input::new("program.lp", text, |_| true)], &blamed);
        // The exact translation's level ranking (which refuses the head
        // cycle) holds for every set of active statements too.
        if !text.contains('|') {
            let eager = explanation(&files, &["--translation=eager"]);
            assert_eq!(eager, blamed, "{text}");
        }
    }
}

/// The text format: after the summary, each statement as a located info
/// message with its source line underlined; a statement with pools and
/// intervals is one group.
#[test]
fn explain_text_names_file_line_column_and_snippet() {
    let dir = scratch("text");
    let path = dir.join("colours.lp");
    std::fs::write(
        &path,
        "#const k = 2.\ncolour(1..k).\nnode(a;b).\n{ paint(N,C) : colour(C) } = 1 :- node(N).\n:- paint(a,C), paint(b,C).\n:- paint(a,1).\n:- paint(b,1).\n#show paint/2.\n",
    )
    .unwrap();
    let output = asp2sat()
        .current_dir(&dir)
        .args(["solve", "--explain=rules", "colours.lp"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(20));
    let stdout = String::from_utf8(output.stdout).unwrap();
    let summary = stdout.find("CPU Time").expect("the summary");
    let explained = &stdout[summary..];
    for (location, line) in [
        ("colours.lp:5:1-27", "5 | :- paint(a,C), paint(b,C)."),
        ("colours.lp:6:1-15", "6 | :- paint(a,1)."),
        ("colours.lp:7:1-15", "7 | :- paint(b,1)."),
    ] {
        let message = format!("{location}: info: part of the reason there is no answer set\n");
        assert!(explained.contains(&message), "{stdout}");
        assert!(explained.contains(line), "{stdout}");
    }
    assert!(!explained.contains("colour(1..k)"), "{stdout}");
    // Blaming facts too: `node(a;b).` is one statement, without which
    // nothing is painted.
    let output = asp2sat()
        .current_dir(&dir)
        .args(["explain", "--outf=2", "colours.lp"])
        .output()
        .unwrap();
    let document: Value = serde_json::from_slice(&output.stdout).expect("valid JSON");
    let texts: Vec<&str> = (document["Explanation"].as_array().unwrap().iter())
        .map(|n| n["Text"].as_str().unwrap())
        .collect();
    assert!(texts.contains(&"node(a;b)."), "{texts:?}");
    assert!(!texts.contains(&"#const k = 2."), "{texts:?}");
    // The competition format keeps the explanation in comments.
    let output = asp2sat()
        .current_dir(&dir)
        .args(["--explain", "--outf=1", "colours.lp"])
        .output()
        .unwrap();
    let stdout = String::from_utf8(output.stdout).unwrap();
    assert!(stdout.contains("INCONSISTENT"), "{stdout}");
    let after = &stdout[stdout.find("INCONSISTENT").unwrap()..];
    assert!(
        after.lines().skip(1).all(|l| l.starts_with('%')),
        "{stdout}"
    );
}

/// Nothing to explain on a satisfiable program (an info line, not an
/// error); the rules alone unsatisfiable under `--explain=facts` name
/// nothing; incremental mode is refused at its `#include <incmode>`.
#[test]
fn explain_satisfiable_hard_part_and_incremental() {
    let output = asp2sat()
        .args(["explain", "-"])
        .write_stdin("{a}. :- a.")
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(30));
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(
        stderr.contains("info: there is nothing to explain"),
        "{stderr}"
    );
    assert!(!stderr.contains("error"), "{stderr}");
    let output = asp2sat()
        .args(["explain", "--outf=2", "-"])
        .write_stdin("{a}. :- a.")
        .output()
        .unwrap();
    let document: Value = serde_json::from_slice(&output.stdout).expect("valid JSON");
    assert_eq!(document["Result"], "SATISFIABLE");
    assert!(document.get("Explanation").is_none());

    let output = asp2sat()
        .args(["--explain=facts", "--outf=2", "-"])
        .write_stdin("a.\n:- not b.\n")
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(20));
    let document: Value = serde_json::from_slice(&output.stdout).expect("valid JSON");
    assert_eq!(document["Explanation"], Value::Array(Vec::new()));
    let output = asp2sat()
        .args(["--explain=facts", "-V0", "-"])
        .write_stdin("a.\n:- not b.\n")
        .output()
        .unwrap();
    let stdout = String::from_utf8(output.stdout).unwrap();
    assert!(
        stdout.contains("no answer set even without any of the statements"),
        "{stdout}"
    );

    let output = asp2sat()
        .args(["explain", "-"])
        .write_stdin("#include <incmode>.\n#program step(t).\n:- t > 0.\n")
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(65));
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(
        stderr.contains("-:1:1-20: error: --explain explains a single program"),
        "{stderr}"
    );
}
