//! Pictures of answer sets: `--grid` tables (4×4, 9×9 and 16×16 Sudokus in
//! fixtures/render and fixtures/puzzle_evil.lp) and the SVG drawings of
//! `asp2sat render` and `solve --render=svg` from Kara's `vis*` atoms
//! (the SeaLion program of seed 000, encodings/sealion_vis.lp), parsed
//! back as XML and, when rsvg-convert is there, turned into a PNG.

use crate::common;
use assert_cmd::Command;
use std::path::Path;

fn asp2sat(args: &[&str]) -> Command {
    let mut cmd = Command::cargo_bin("asp2sat").unwrap();
    cmd.current_dir(common::root())
        .timeout(common::timeout())
        .args(args);
    cmd
}

struct Out {
    code: Option<i32>,
    stdout: String,
    stderr: String,
}

fn run(args: &[&str]) -> Out {
    run_with_input(args, "")
}

fn run_with_input(args: &[&str], input: &str) -> Out {
    let o = asp2sat(args).write_stdin(input).output().unwrap();
    Out {
        code: o.status.code(),
        stdout: String::from_utf8_lossy(&o.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&o.stderr).into_owned(),
    }
}

/// The evil puzzle's solution, as `--grid` prints it.
const EVIL_GRID: &str = "\
3 5 8 | 4 9 2 | 1 7 6
9 1 6 | 3 8 7 | 5 2 4
4 7 2 | 6 5 1 | 8 3 9
------+-------+------
2 8 9 | 7 4 3 | 6 1 5
6 3 1 | 5 2 9 | 7 4 8
7 4 5 | 1 6 8 | 2 9 3
------+-------+------
1 2 4 | 8 3 5 | 9 6 7
8 9 3 | 2 7 6 | 4 5 1
5 6 7 | 9 1 4 | 3 8 2
";

/// The digit in row `r`, column `c` (from 1) of the evil puzzle's solution.
fn evil_digit(r: usize, c: usize) -> char {
    let row: Vec<char> = EVIL_GRID
        .lines()
        .filter(|line| !line.starts_with('-'))
        .nth(r - 1)
        .unwrap()
        .chars()
        .filter(char::is_ascii_digit)
        .collect();
    row[c - 1]
}

const EVIL: &[&str] = &["encodings/sudoku.lp", "fixtures/puzzle_evil.lp"];
const EVIL_PICTURE: &[&str] = &[
    "encodings/sudoku.lp",
    "encodings/sealion_vis.lp",
    "fixtures/puzzle_evil.lp",
];

#[test]
fn grid_of_the_evil_puzzle_follows_the_answer() {
    let out = run(&[EVIL, &["--grid"]].concat());
    assert_eq!(out.code, Some(10), "{}", out.stderr);
    let lines: Vec<&str> = out.stdout.lines().collect();
    let answer = lines.iter().position(|l| *l == "Answer: 1").unwrap();
    assert!(lines[answer + 1].starts_with("paint(1,1,3) "));
    let grid: String = lines[answer + 2..answer + 13]
        .iter()
        .map(|l| format!("{l}\n"))
        .collect();
    assert_eq!(grid, EVIL_GRID);
    assert_eq!(lines[answer + 13], "SATISFIABLE");
    // Naming the predicate draws the same grid.
    let named = run(&[EVIL, &["--grid=paint/3", "-V0"]].concat());
    assert!(named.stdout.contains(EVIL_GRID));
}

#[test]
fn grid_of_a_four_by_four_sudoku() {
    let out = run(&[
        "fixtures/render/sudoku_k.lp",
        "fixtures/render/puzzle_4x4.lp",
        "--grid",
        "-V0",
    ]);
    // 30 when the solver also proves the solution unique.
    assert!(matches!(out.code, Some(10 | 30)), "{}", out.stderr);
    let expected = "2 3 | 1 4\n4 1 | 3 2\n----+----\n1 4 | 2 3\n3 2 | 4 1\n";
    let answer_line = out.stdout.lines().next().unwrap();
    assert!(answer_line.starts_with("cell(1,1,2) "));
    assert_eq!(
        out.stdout,
        format!("{answer_line}\n{expected}SATISFIABLE\n")
    );
}

#[test]
fn grid_of_a_sixteen_by_sixteen_sudoku() {
    let out = run(&[
        "fixtures/render/sudoku_k.lp",
        "fixtures/render/puzzle_16x16.lp",
        "--grid",
        "-V0",
    ]);
    assert!(matches!(out.code, Some(10 | 30)), "{}", out.stderr);
    let lines: Vec<&str> = out.stdout.lines().skip(1).take(19).collect();
    let separator = "------------+-------------+-------------+------------";
    for (i, line) in lines.iter().enumerate() {
        if i % 5 == 4 {
            assert_eq!(*line, separator);
            continue;
        }
        // Cells two characters wide, boxes of four, the same length as the
        // separators.
        assert_eq!(line.len(), separator.len(), "{line}");
        assert_eq!(line.matches(" | ").count(), 3, "{line}");
    }
    // The pattern solution of the fixture: row 1 counts up from 1.
    assert_eq!(
        lines[0],
        " 1  2  3  4 |  5  6  7  8 |  9 10 11 12 | 13 14 15 16"
    );
    assert_eq!(out.stdout.lines().nth(20), Some("SATISFIABLE"));
}

#[test]
fn without_grid_atoms_one_warning_and_no_grid() {
    let out = run_with_input(&["--grid", "0"], "a. b. {c}.");
    assert_eq!(out.code, Some(30), "{}", out.stderr);
    let warnings: Vec<&str> = out
        .stderr
        .lines()
        .filter(|l| l.contains("--grid"))
        .collect();
    assert_eq!(warnings.len(), 1, "{}", out.stderr);
    assert!(warnings[0].starts_with("asp2sat: warning: --grid: no atoms"));
    assert!(!out.stdout.contains('|'));
}

#[test]
fn grid_stays_out_of_json_and_competition_output() {
    let json = run(&[EVIL, &["--grid", "--outf=2"]].concat());
    let parsed: serde_json::Value = serde_json::from_str(&json.stdout).expect("valid JSON");
    assert_eq!(parsed["Result"], "SATISFIABLE");
    let competition = run(&[EVIL, &["--grid", "--outf=1"]].concat());
    assert!(!competition.stdout.contains('|'), "{}", competition.stdout);
}

#[test]
fn a_bad_grid_choice_is_an_option_error() {
    // An invalid value: the command line is not accepted (exit 1, as
    // clingo's option errors).
    let out = run(&[EVIL, &["--grid=paint"]].concat());
    assert_eq!(out.code, Some(1));
    assert!(out.stderr.contains("expected NAME/3"), "{}", out.stderr);
}

/// A number attribute of an element.
fn number(node: roxmltree::Node, name: &str) -> f64 {
    node.attribute(name)
        .unwrap_or_else(|| panic!("{name} missing"))
        .parse()
        .unwrap()
}

fn rendered_evil_picture() -> String {
    let out = run(&[&["render"], EVIL_PICTURE].concat());
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    assert_eq!(out.stderr, "");
    out.stdout
}

#[test]
fn the_evil_puzzle_drawn_as_seed_000_draws_it() {
    let svg = rendered_evil_picture();
    let document = roxmltree::Document::parse(&svg).expect("well-formed SVG");
    let root = document.root_element();
    assert!(root.has_tag_name(("http://www.w3.org/2000/svg", "svg")));
    // The 81 digits: `visposition(10*X+Y,20*X,20*Y,10)` puts row X at
    // x = 20X and column Y at y = 20Y (the top of the text).
    let texts: Vec<_> = root.children().filter(|n| n.has_tag_name("text")).collect();
    assert_eq!(texts.len(), 81);
    let mut seen = std::collections::BTreeSet::new();
    for text in &texts {
        let (x, y) = (number(*text, "x"), number(*text, "y"));
        let (row, column) = ((x / 20.0) as usize, ((y - 9.6) / 20.0).round() as usize);
        assert_eq!(x, 20.0 * row as f64);
        let digit = text.text().unwrap().trim();
        assert_eq!(
            digit,
            evil_digit(row, column).to_string(),
            "row {row} column {column}"
        );
        assert!(seen.insert((row, column)));
    }
    // The grid: 81 light gray 20×20 squares from (13,17), the grid at
    // (8,12) plus its margin.
    let cells: Vec<_> = root.children().filter(|n| n.has_tag_name("rect")).collect();
    assert_eq!(cells.len(), 81);
    for cell in &cells {
        assert_eq!(cell.attribute("stroke"), Some("lightgray"));
        assert_eq!(cell.attribute("fill"), Some("white"));
        assert_eq!(
            (number(*cell, "width"), number(*cell, "height")),
            (20.0, 20.0)
        );
        let (x, y) = (number(*cell, "x") - 13.0, number(*cell, "y") - 17.0);
        assert!(x % 20.0 == 0.0 && (0.0..=160.0).contains(&x), "{x}");
        assert!(y % 20.0 == 0.0 && (0.0..=160.0).contains(&y), "{y}");
    }
    // The bold box lines: each of the four horizontal and four vertical
    // lines is two black lines side by side.
    let lines: Vec<_> = root.children().filter(|n| n.has_tag_name("line")).collect();
    assert_eq!(lines.len(), 16);
    let mut horizontal = Vec::new();
    let mut vertical = Vec::new();
    for line in &lines {
        assert_eq!(line.attribute("stroke"), Some("black"));
        let (x1, y1, x2, y2) = (
            number(*line, "x1"),
            number(*line, "y1"),
            number(*line, "x2"),
            number(*line, "y2"),
        );
        if y1 == y2 {
            assert_eq!((x1, x2), (13.0, 192.0));
            horizontal.push(y1 as i64);
        } else {
            assert_eq!(x1, x2);
            assert_eq!((y1, y2), (16.0, 197.0));
            vertical.push(x1 as i64);
        }
    }
    horizontal.sort_unstable();
    vertical.sort_unstable();
    assert_eq!(horizontal, [16, 17, 76, 77, 136, 137, 196, 197]);
    assert_eq!(vertical, [12, 13, 72, 73, 132, 133, 192, 193]);
    // Painted by depth: the grid (-1) under the lines (1, 2) under the
    // digits (10).
    let order: Vec<&str> = root
        .children()
        .filter(|n| n.is_element())
        .map(|n| n.tag_name().name())
        .collect();
    assert_eq!(order.first(), Some(&"rect"));
    assert_eq!(order[81..97].iter().filter(|&&t| t == "line").count(), 16);
    assert_eq!(order.last(), Some(&"text"));
}

#[test]
fn the_committed_picture_is_the_rendered_one() {
    let committed = std::fs::read_to_string(common::root().join("docs/evil.svg")).unwrap();
    assert!(
        committed == rendered_evil_picture(),
        "docs/evil.svg is out of date: regenerate it with `asp2sat render encodings/sudoku.lp \
         encodings/sealion_vis.lp fixtures/puzzle_evil.lp > docs/evil.svg`"
    );
}

#[test]
fn the_picture_converts_to_png() {
    let found = std::process::Command::new("rsvg-convert")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !found {
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "rsvg-convert is missing (scripts/install-test-deps installs librsvg2-bin)"
        );
        eprintln!("skipped: rsvg-convert is not installed");
        return;
    }
    let dir = common::scratch("render-png");
    let svg = dir.join("evil.svg");
    let png = dir.join("evil.png");
    std::fs::write(&svg, rendered_evil_picture()).unwrap();
    let status = std::process::Command::new("rsvg-convert")
        .arg(&svg)
        .arg("-o")
        .arg(&png)
        .status()
        .unwrap();
    assert!(status.success());
    let bytes = std::fs::read(&png).unwrap();
    assert!(bytes.starts_with(b"\x89PNG"));
    assert!(bytes.len() > 1000, "{} bytes", bytes.len());
}

#[test]
fn malformed_and_unknown_vis_atoms_are_warnings() {
    let program = r#"
        visrect(box, 20, 30). visposition(box, 5, 5, 0). viscolor(box, rgb(255,0,0)).
        visrect(bad, twenty, 30).
        visfoo(1).
        viscolor(box, nocolour).
        vistext(t, "a<b & \"c\""). visposition(t, 40, 5, 1).
        vistext(u, below). visbelow(u, t). visfontsize(u, 0).
        visleft(p, q). visleft(q, p). vistext(p, p). vistext(q, q).
        visfillgrid(nogrid, box, 1, 1).
        visellipse(e, 10, 20). visarrow(a, 0, 0, 50, 50, 2).
    "#;
    let out = run_with_input(&["render", "-"], program);
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    for atom in [
        "visrect(bad,twenty,30)",
        "visfoo(1)",
        "viscolor(box,nocolour)",
        "visfontsize(u,0)",
        "visleft(p,q)",
        "visfillgrid(nogrid,box,1,1)",
    ] {
        let line = out.stderr.lines().find(|l| l.contains(atom));
        assert!(
            line.is_some_and(|l| l.starts_with("asp2sat: warning: answer 1: ")),
            "{atom}: {}",
            out.stderr
        );
    }
    let document = roxmltree::Document::parse(&out.stdout).expect("well-formed SVG");
    let texts: Vec<_> = document
        .descendants()
        .filter(|n| n.has_tag_name("text"))
        .collect();
    let t = texts
        .iter()
        .find(|n| n.attribute("x") == Some("40"))
        .unwrap();
    assert_eq!(t.text().map(str::trim), Some("a<b & \"c\""));
    let rect = document
        .descendants()
        .find(|n| n.has_tag_name("rect"))
        .unwrap();
    assert_eq!(rect.attribute("stroke"), Some("#ff0000"));
    assert!(document.descendants().any(|n| n.has_tag_name("ellipse")));
    assert!(document.descendants().any(|n| n.has_tag_name("marker")));
}

#[test]
fn several_answer_sets_need_a_numbered_pattern() {
    let program = "{a; b}. visrect(r, 10, 10).";
    let out = run_with_input(&["render", "-n", "0", "-"], program);
    assert_eq!(out.code, Some(65));
    assert!(out.stderr.contains("%n"), "{}", out.stderr);
    assert_eq!(out.stdout, "", "no picture when it is unclear which");
    let dir = common::scratch("render-files");
    let pattern = dir.join("answer-%n.svg");
    let out = run_with_input(
        &[
            "solve",
            "-n",
            "0",
            "--render=svg",
            "-o",
            pattern.to_str().unwrap(),
            "-",
        ],
        program,
    );
    assert_eq!(out.code, Some(30), "{}", out.stderr);
    assert!(out.stdout.contains("Answer: 4"));
    for n in 1..=4 {
        let file = dir.join(format!("answer-{n}.svg"));
        roxmltree::Document::parse(&std::fs::read_to_string(&file).unwrap()).unwrap();
    }
    assert!(!Path::new(&dir.join("answer-5.svg")).exists());
}

#[test]
fn render_in_solve_needs_files() {
    let out = run(&[EVIL_PICTURE, &["--render=svg"]].concat());
    assert_eq!(out.code, Some(1));
    assert!(out.stderr.contains("-o PATTERN"), "{}", out.stderr);
}

#[test]
fn no_answer_set_to_draw() {
    let out = run_with_input(&["render", "-"], "a. :- a.");
    assert_eq!(out.code, Some(1));
    assert!(
        out.stderr.contains("no answer set to draw"),
        "{}",
        out.stderr
    );
}

#[test]
fn hidden_vis_atoms_are_drawn_and_none_is_a_warning() {
    // `#show q/2.` hides the vis atoms: SeaLion's programs draw them all
    // the same (the picture was an empty 10×10 SVG).
    let program = r#"
        {q(1..2)}. :- not 1 { q(X) }.
        #show q/1.
        vistext(t(X), X) :- q(X). visposition(t(X), 20*X, 10, 0) :- q(X).
    "#;
    let out = run_with_input(&["render", "-", "-n", "1"], program);
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    let document = roxmltree::Document::parse(&out.stdout).expect("well-formed SVG");
    assert!(
        document.descendants().any(|n| n.has_tag_name("text")),
        "{}",
        out.stdout
    );
    assert!(
        !out.stderr.contains("no atoms over signature"),
        "{}",
        out.stderr
    );
    let out = run_with_input(&["render", "-"], "a. #show a/0.");
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    assert!(
        out.stderr
            .contains("asp2sat: warning: answer 1: no vis* atom to draw"),
        "{}",
        out.stderr
    );
}
