//! Golden tests: the Sudoku encodings of every dialect, the blog-post seed
//! programs and the tdoku puzzles, run through the asp2sat binary and compared
//! with what clingo 5.4 says (stored in fixtures/expected by
//! scripts/gen-fixtures, so this file needs no clingo).
//!
//! The table of cases is data: one fixtures/expected/<case>.json per case,
//! naming the files asp2sat reads, the arguments, and clingo's answer.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use crate::common::*;
use serde_json::Value;

struct Case {
    name: String,
    files: Vec<String>,
    args: Vec<String>,
    grid: String,
    givens: Option<String>,
    result: String,
    exit_code: i32,
    models: u64,
    more: String,
    complete: bool,
    answer_sets: Vec<Vec<String>>,
}

fn load_cases() -> Vec<Case> {
    let dir = root().join("fixtures/expected");
    let mut paths: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    paths.sort();
    let mut cases = Vec::new();
    for p in paths {
        let v: Value = serde_json::from_str(&std::fs::read_to_string(&p).unwrap())
            .unwrap_or_else(|e| panic!("{}: {e}", p.display()));
        let Some(name) = v["case"].as_str() else {
            continue;
        }; // tdoku_counts.json
        let strs = |k: &str| -> Vec<String> {
            v[k].as_array()
                .unwrap()
                .iter()
                .map(|s| s.as_str().unwrap().to_string())
                .collect()
        };
        cases.push(Case {
            name: name.to_string(),
            files: strs("files"),
            args: strs("args"),
            grid: v["grid_predicate"].as_str().unwrap().to_string(),
            givens: v["givens"].as_str().map(str::to_string),
            result: v["result"].as_str().unwrap().to_string(),
            exit_code: v["exit_code"].as_i64().unwrap() as i32,
            models: v["models"].as_u64().unwrap(),
            more: v["more"].as_str().unwrap().to_string(),
            complete: v["complete"].as_bool().unwrap(),
            answer_sets: v["answer_sets"]
                .as_array()
                .unwrap()
                .iter()
                .map(|w| {
                    w.as_array()
                        .unwrap()
                        .iter()
                        .map(|a| a.as_str().unwrap().to_string())
                        .collect()
                })
                .collect(),
        });
    }
    cases
}

/// The `pred(R,C,V)` facts with digit arguments in a file (the givens).
fn read_givens(path: &str, pred: &str) -> BTreeSet<(i64, i64, i64)> {
    let text = std::fs::read_to_string(root().join(path)).unwrap();
    let mut out = BTreeSet::new();
    for line in text.lines() {
        let code = line.split('%').next().unwrap();
        for stmt in code.split('.') {
            let stmt = stmt.trim();
            let (name, args) = split_atom(stmt);
            if name == pred && args.len() == 3 {
                let n: Vec<Option<i64>> = args.iter().map(|a| a.trim().parse().ok()).collect();
                if let [Some(r), Some(c), Some(v)] = n[..] {
                    out.insert((r, c, v));
                }
            }
        }
    }
    out
}

/// Check independently of clingo that an answer set's `pred/3` atoms are a
/// solved Sudoku grid that contains the givens.
fn check_grid(
    atoms: &[String],
    pred: &str,
    givens: &BTreeSet<(i64, i64, i64)>,
) -> Result<(), String> {
    let mut cell: BTreeMap<(i64, i64), i64> = BTreeMap::new();
    for a in atoms {
        let (name, args) = split_atom(a);
        if name != pred || args.len() != 3 {
            continue;
        }
        let n: Vec<i64> = args
            .iter()
            .map(|x| {
                x.parse()
                    .map_err(|_| format!("non-integer argument in {a}"))
            })
            .collect::<Result<_, _>>()?;
        if !(1..=9).contains(&n[0]) || !(1..=9).contains(&n[1]) || !(1..=9).contains(&n[2]) {
            return Err(format!("{a} is off the board"));
        }
        if let Some(old) = cell.insert((n[0], n[1]), n[2]) {
            return Err(format!(
                "cell ({},{}) holds both {old} and {}",
                n[0], n[1], n[2]
            ));
        }
    }
    if cell.len() != 81 {
        return Err(format!("{} cells filled by {pred}/3, not 81", cell.len()));
    }
    for i in 1..=9 {
        let row: BTreeSet<_> = (1..=9).map(|c| cell[&(i, c)]).collect();
        let col: BTreeSet<_> = (1..=9).map(|r| cell[&(r, i)]).collect();
        let (br, bc) = ((i - 1) / 3 * 3, (i - 1) % 3 * 3);
        let bx: BTreeSet<_> = (1..=3)
            .flat_map(|r| (1..=3).map(move |c| (br + r, bc + c)))
            .map(|k| cell[&k])
            .collect();
        if row.len() != 9 || col.len() != 9 || bx.len() != 9 {
            return Err(format!("row, column or box {i} repeats a value"));
        }
    }
    for &(r, c, v) in givens {
        if cell.get(&(r, c)) != Some(&v) {
            return Err(format!(
                "given {pred}({r},{c},{v}) is not in the answer set"
            ));
        }
    }
    Ok(())
}

fn show(ws: &[Vec<String>], max: usize) -> String {
    let mut s = String::new();
    for (i, w) in ws.iter().take(max).enumerate() {
        s += &format!("  [{i}] {}\n", w.join(" "));
    }
    if ws.len() > max {
        s += &format!("  ... {} more\n", ws.len() - max);
    }
    s
}

/// Run one case; Err(message) on any difference from clingo's answer.
fn check_case(case: &Case) -> Result<(), String> {
    let mut args = case.args.clone();
    args.push("--outf=2".into());
    args.extend(case.files.iter().cloned());
    let out = asp2sat_solve(&args, None);
    let cmd = format!("asp2sat solve {}", args.join(" "));
    let ctx = || format!("{cmd}\n  {}\n  stderr: {}", out.status(), out.stderr.trim());
    if out.code != Some(case.exit_code) {
        return Err(format!(
            "exit code: want {} (clingo), got: {}",
            case.exit_code,
            ctx()
        ));
    }
    let ans = parse_json_answer(&out.stdout)
        .map_err(|e| format!("{e}: {}\n  stdout: {}", ctx(), out.stdout))?;
    if ans.result != case.result {
        return Err(format!(
            "Result: want {}, got {} ({cmd})",
            case.result, ans.result
        ));
    }
    if ans.number != case.models || ans.more != case.more {
        return Err(format!(
            "Models: want {} (More: {}), got {} (More: {}) ({cmd})",
            case.models, case.more, ans.number, ans.more
        ));
    }
    if ans.witnesses.len() as u64 != case.models {
        return Err(format!(
            "{} witnesses printed but Models.Number is {} ({cmd})",
            ans.witnesses.len(),
            ans.number
        ));
    }
    if case.complete {
        let got = ans.sorted();
        if got != case.answer_sets {
            let want: BTreeSet<_> = case.answer_sets.iter().collect();
            let have: BTreeSet<_> = got.iter().collect();
            let mut msg = format!("answer sets differ from clingo's ({cmd})\n");
            for w in want.difference(&have) {
                let extra: Vec<_> = got
                    .first()
                    .map(|g| w.iter().filter(|a| !g.contains(a)).cloned().collect())
                    .unwrap_or_default();
                msg += &format!(
                    "  only clingo: {} atoms; atoms not in asp2sat's first set: {}\n",
                    w.len(),
                    extra.join(" ")
                );
            }
            for w in have.difference(&want) {
                let extra: Vec<_> = case
                    .answer_sets
                    .first()
                    .map(|g| w.iter().filter(|a| !g.contains(a)).cloned().collect())
                    .unwrap_or_default();
                msg += &format!(
                    "  only asp2sat: {} atoms; atoms not in clingo's first set: {}\n",
                    w.len(),
                    extra.join(" ")
                );
            }
            msg += &format!(
                "clingo:\n{}asp2sat:\n{}",
                show(&case.answer_sets, 3),
                show(&got, 3)
            );
            return Err(msg);
        }
    } else {
        let distinct: BTreeSet<_> = ans.witnesses.iter().collect();
        if distinct.len() != ans.witnesses.len() {
            return Err(format!("the same answer set printed twice ({cmd})"));
        }
    }
    // Independent check: every answer set is a solved grid with the givens.
    let givens = case
        .givens
        .as_deref()
        .map(|g| read_givens(g, &case.grid))
        .unwrap_or_default();
    for w in &ans.witnesses {
        check_grid(w, &case.grid, &givens)
            .map_err(|e| format!("not a Sudoku solution: {e} ({cmd})"))?;
    }
    Ok(())
}

fn report(failures: Vec<String>, total: usize, what: &str) {
    if !failures.is_empty() {
        panic!(
            "{} of {total} {what} failed:\n\n{}",
            failures.len(),
            failures.join("\n\n")
        );
    }
    println!("{total} {what} passed");
}

#[test]
fn golden_cases_match_clingo() {
    let cases = load_cases();
    assert!(
        cases.len() >= 30,
        "only {} cases in fixtures/expected: run scripts/gen-fixtures",
        cases.len()
    );
    let results = parallel_map(&cases, threads(), |_, c| {
        check_case(c).map_err(|e| format!("[{}] {e}", c.name))
    });
    let failures: Vec<String> = results.into_iter().filter_map(Result::err).collect();
    report(failures, cases.len(), "golden cases");
}

/// Every file in encodings/ is exercised by some case, with every puzzle.
#[test]
fn every_encoding_has_cases() {
    let cases = load_cases();
    let mut encs: Vec<String> = std::fs::read_dir(root().join("encodings"))
        .unwrap()
        .map(|e| format!("encodings/{}", e.unwrap().file_name().to_string_lossy()))
        .collect();
    encs.sort();
    assert!(encs.len() >= 4, "{encs:?}");
    for enc in &encs {
        for pz in ["easy", "medium", "hard", "evil"] {
            let puzzle = format!("fixtures/puzzle_{pz}.lp");
            assert!(
                cases
                    .iter()
                    .any(|c| c.files.contains(enc) && c.files.contains(&puzzle)),
                "no golden case runs {enc} with {puzzle}: add it to scripts/gen-fixtures"
            );
        }
    }
}

/// The evil puzzle has exactly one solution in every dialect, seeds included.
#[test]
fn evil_puzzle_unique_in_every_dialect() {
    let runs: Vec<(&str, Vec<&str>)> = vec![
        (
            "clingo",
            vec!["encodings/sudoku.lp", "fixtures/puzzle_evil.lp"],
        ),
        (
            "gringo 3 / lparse",
            vec!["encodings/sudoku_lparse.lp", "fixtures/puzzle_evil.lp"],
        ),
        (
            "DLV",
            vec!["encodings/sudoku_dlv.dlv", "fixtures/puzzle_evil.lp"],
        ),
        (
            "seed 000 (:=)",
            vec![
                "fixtures/seeds/000_sudoku.lp",
                "fixtures/seeds/000_puzzle_evil.lp",
            ],
        ),
        (
            "seed 001",
            vec![
                "fixtures/seeds/001_sudoku.lp",
                "fixtures/seeds/001_puzzle_evil.lp",
            ],
        ),
    ];
    let failures: Vec<String> = parallel_map(&runs, threads(), |_, (dialect, files)| {
        let mut args = strings(&["-n", "0", "--outf=2"]);
        args.extend(strings(files));
        let out = asp2sat_solve(&args, None);
        let n = parse_json_answer(&out.stdout).map(|a| (a.number, a.witnesses.len()));
        if out.code == Some(30) && n == Ok((1, 1)) {
            None
        } else {
            Some(format!(
                "{dialect}: {}, models {n:?}; stderr: {}",
                out.status(),
                out.stderr.trim()
            ))
        }
    })
    .into_iter()
    .flatten()
    .collect();
    report(failures, runs.len(), "dialects");
}

fn tdoku_rows() -> Vec<(String, u64, String)> {
    let text = std::fs::read_to_string(root().join("fixtures/tdoku/tdoku_test_puzzles.counts.tsv"))
        .unwrap();
    text.lines()
        .skip(1)
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let cols: Vec<&str> = l.split('\t').collect();
            (
                cols[0].to_string(),
                cols[1].parse().unwrap(),
                cols.get(2).unwrap_or(&"").to_string(),
            )
        })
        .collect()
}

fn grid_facts(grid: &str) -> String {
    let mut s = String::new();
    for (i, ch) in grid.chars().enumerate() {
        if let Some(d) = ch.to_digit(10).filter(|&d| d > 0) {
            s += &format!("paint({},{},{d}).\n", i / 9 + 1, i % 9 + 1);
        }
    }
    s
}

const TDOKU_ENCODINGS: [&str; 3] = [
    "encodings/sudoku.lp",
    "encodings/sudoku_lparse.lp",
    "encodings/sudoku_dlv.dlv",
];

/// tdoku's test puzzles: `-n 0` finds exactly the listed number of solutions
/// (0: UNSATISFIABLE, exit 20; n: exit 30), and the unique ones are right.
/// The encodings take turns, as in scripts/gen-fixtures, which checked every
/// count with clingo (fixtures/expected/tdoku_counts.json).
#[test]
fn tdoku_solution_counts() {
    let rows = tdoku_rows();
    assert!(rows.len() >= 40, "{} tdoku puzzles", rows.len());
    let checked: Value = serde_json::from_str(
        &std::fs::read_to_string(root().join("fixtures/expected/tdoku_counts.json")).unwrap(),
    )
    .unwrap();
    let dir = scratch("tdoku");
    for (i, (grid, count, _)) in rows.iter().enumerate() {
        let c = &checked["puzzles"][i];
        assert!(
            c["models"].as_u64() == Some(*count) && c["puzzle"].as_str() == Some(grid.as_str()),
            "fixtures/expected/tdoku_counts.json (clingo) disagrees with the tsv at puzzle {i}: run scripts/gen-fixtures"
        );
    }
    let failures: Vec<String> = parallel_map(&rows, threads(), |i, (grid, count, solution)| {
        let enc = TDOKU_ENCODINGS[i % TDOKU_ENCODINGS.len()];
        let file = dir.join(format!("tdoku_{i:02}.lp"));
        std::fs::write(&file, grid_facts(grid)).unwrap();
        let args = vec!["-n".into(), "0".into(), "--outf=2".into(), enc.into(), file.display().to_string()];
        let out = asp2sat_solve(&args, None);
        let cmd = format!("asp2sat solve {}", args.join(" "));
        let want_code = if *count == 0 { 20 } else { 30 };
        if out.code != Some(want_code) {
            return Some(format!("tdoku {i} ({count} solutions): want exit {want_code}, {} ({cmd}); stderr: {}", out.status(), out.stderr.trim()));
        }
        let ans = match parse_json_answer(&out.stdout) {
            Ok(a) => a,
            Err(e) => return Some(format!("tdoku {i}: {e} ({cmd})")),
        };
        let want_result = if *count == 0 { "UNSATISFIABLE" } else { "SATISFIABLE" };
        if ans.result != want_result || ans.number != *count || ans.witnesses.len() as u64 != *count || ans.more != "no" {
            return Some(format!(
                "tdoku {i}: want {count} models ({want_result}), got {} models, {} witnesses, {} , More {} ({cmd})",
                ans.number,
                ans.witnesses.len(),
                ans.result,
                ans.more
            ));
        }
        let distinct: BTreeSet<_> = ans.witnesses.iter().collect();
        if distinct.len() != ans.witnesses.len() {
            return Some(format!("tdoku {i}: an answer set is printed twice ({cmd})"));
        }
        let givens = read_givens(&file.display().to_string(), "paint");
        for w in &ans.witnesses {
            if let Err(e) = check_grid(w, "paint", &givens) {
                return Some(format!("tdoku {i}: not a solution: {e} ({cmd})"));
            }
        }
        if *count == 1 {
            let mut want: Vec<String> = grid_facts(solution).lines().map(|l| l.trim_end_matches('.').to_string()).collect();
            want.sort();
            if ans.witnesses[0] != want {
                return Some(format!("tdoku {i}: the unique solution differs from tdoku's ({cmd})"));
            }
        }
        None
    })
    .into_iter()
    .flatten()
    .collect();
    report(failures, rows.len(), "tdoku puzzles");
}

#[test]
fn grid_checker_rejects_bad_grids() {
    // The independent checker must be able to fail.
    let ok = read_givens("fixtures/seeds/001_page_answer.lp", "sudoku");
    let atoms: Vec<String> = ok
        .iter()
        .map(|(r, c, v)| format!("sudoku({r},{c},{v})"))
        .collect();
    assert_eq!(check_grid(&atoms, "sudoku", &ok), Ok(()));
    let mut bad = atoms.clone();
    bad.pop();
    assert!(check_grid(&bad, "sudoku", &BTreeSet::new()).is_err());
    let mut changed = atoms.clone();
    let (name, args) = split_atom(&atoms[0]);
    let v: i64 = args[2].parse().unwrap();
    changed[0] = format!("{name}({},{},{})", args[0], args[1], v % 9 + 1);
    assert!(check_grid(&changed, "sudoku", &BTreeSet::new()).is_err());
    assert!(check_grid(&atoms, "sudoku", &[(1, 1, 0)].into_iter().collect()).is_err());
    assert!(Path::new(&root().join("fixtures/puzzle_evil.lp")).exists());
}
