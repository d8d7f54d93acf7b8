//! The real-program corpus: programs taken verbatim from public sources
//! (fixtures/corpus/, see its README.md), each case run through asp2sat and
//! compared with clingo's committed answer (`expected/<case>.json`, written by
//! `scripts/corpus-expect`), so clingo is not needed here.
//!
//! A case that uses what asp2sat does not support yet lists the located error
//! asp2sat gives in `expected/<case>.refused`. The test fails when
//! - an answer differs from clingo's (answer sets compared as multisets),
//! - a listed refusal changes its message or location,
//! - a listed refusal no longer happens: the listing must then be deleted, so
//!   that the case becomes a comparison with clingo's answer,
//! - a case without a listing is refused.

use crate::common;
use std::collections::BTreeMap;
use std::path::PathBuf;

use crate::common::{Output, parallel_map, parse_json_answer, root, run, threads, timeout};
use serde_json::Value;

/// One line of a program directory's `cases` file.
struct Case {
    dir: PathBuf,
    name: String,
    args: Vec<String>,
}

impl Case {
    fn label(&self) -> String {
        format!(
            "{}/{}",
            self.dir.file_name().unwrap().to_string_lossy(),
            self.name
        )
    }

    fn expected_path(&self, extension: &str) -> PathBuf {
        self.dir
            .join("expected")
            .join(format!("{}.{extension}", self.name))
    }
}

/// What clingo answered (see the kinds in scripts/corpus-expect).
enum Expected {
    AnswerSets {
        result: String,
        sets: Vec<Vec<String>>,
    },
    Count {
        result: String,
        models: usize,
    },
    Result {
        result: String,
    },
    Optimum {
        result: String,
        costs: Value,
        /// Every optimal answer set (`--opt-mode=optN`), when clingo
        /// listed them.
        optimal_sets: Option<Vec<Vec<String>>>,
    },
}

enum Outcome {
    Agree,
    /// A listed refusal, with its reason (the message without its location).
    Refused(String),
    Failed(String),
}

fn corpus_dir() -> PathBuf {
    root().join("fixtures").join("corpus")
}

fn read_cases() -> Vec<Case> {
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(corpus_dir())
        .expect("fixtures/corpus is missing")
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.join("cases").is_file())
        .collect();
    dirs.sort();
    let mut cases = Vec::new();
    for dir in dirs {
        let text = std::fs::read_to_string(dir.join("cases")).unwrap();
        for line in text.lines() {
            let line = line.split('#').next().unwrap();
            let mut words = line.split_whitespace().map(str::to_string);
            if let Some(name) = words.next() {
                cases.push(Case {
                    dir: dir.clone(),
                    name,
                    args: words.collect(),
                });
            }
        }
    }
    cases
}

fn read_expected(case: &Case) -> Expected {
    let path = case.expected_path("json");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "{}: {e} (run scripts/corpus-expect to write clingo's answer)",
            path.display()
        )
    });
    let doc: Value =
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: not JSON: {e}", path.display()));
    let result = doc["result"].as_str().expect("no result").to_string();
    match doc["kind"].as_str() {
        Some("answer_sets") => Expected::AnswerSets {
            result,
            sets: serde_json::from_value(doc["answer_sets"].clone())
                .expect("answer_sets is not a list of lists of atoms"),
        },
        Some("count") => Expected::Count {
            result,
            models: doc["models"].as_u64().expect("no models") as usize,
        },
        Some("result") => Expected::Result { result },
        Some("optimum") => Expected::Optimum {
            result,
            costs: doc["costs"].clone(),
            optimal_sets: (!doc["optimal_sets"].is_null()).then(|| {
                serde_json::from_value(doc["optimal_sets"].clone())
                    .expect("optimal_sets is not a list of lists of atoms")
            }),
        },
        other => panic!("{}: unknown kind {other:?}", path.display()),
    }
}

/// The listed refusal: asp2sat's first error line for the case.
fn read_refusal(case: &Case) -> Option<String> {
    let text = std::fs::read_to_string(case.expected_path("refused")).ok()?;
    Some(text.trim().to_string())
}

fn solve(case: &Case, expected: &Expected) -> Output {
    // Only the result is known when clingo could not enumerate in time.
    let models = if matches!(expected, Expected::Result { .. }) {
        "1"
    } else {
        "0"
    };
    let mut args: Vec<String> = ["solve", "--outf=2", "-n", models]
        .iter()
        .map(|s| s.to_string())
        .collect();
    if let Expected::Optimum {
        optimal_sets: Some(_),
        ..
    } = expected
    {
        args.extend(["--opt-mode=optN".to_string(), "--quiet=1".to_string()]);
    }
    args.extend(case.args.iter().cloned());
    run(&common::asp2sat_bin(), &args, &case.dir, None, timeout())
}

/// `None` when asp2sat's answer is clingo's, else what differs.
fn compare(expected: &Expected, out: &Output) -> Option<String> {
    let answer = match parse_json_answer(&out.stdout) {
        Ok(answer) => answer,
        Err(e) => return Some(format!("{} and {e}; stderr:\n{}", out.status(), out.stderr)),
    };
    let result_differs = |result: &str| {
        (answer.result != result)
            .then(|| format!("result {} where clingo says {result}", answer.result))
    };
    match expected {
        Expected::AnswerSets { result, sets } => result_differs(result).or_else(|| {
            let got = answer.sorted();
            (&got != sets).then(|| describe_difference(sets, &got))
        }),
        Expected::Count { result, models } => result_differs(result).or_else(|| {
            (answer.witnesses.len() != *models || answer.more != "no").then(|| {
                format!(
                    "{} answer sets (more: {}) where clingo finds {models}",
                    answer.witnesses.len(),
                    answer.more
                )
            })
        }),
        Expected::Result { result } => result_differs(result),
        Expected::Optimum {
            result,
            costs,
            optimal_sets,
        } => result_differs(result).or_else(|| {
            let doc: Value = serde_json::from_str(&out.stdout).unwrap();
            let got = &doc["Models"]["Costs"];
            if got != costs {
                return Some(format!("optimum {got} where clingo's is {costs}"));
            }
            let sets = optimal_sets.as_ref()?;
            let found = answer.sorted();
            (&found != sets)
                .then(|| format!("optimal answer sets: {}", describe_difference(sets, &found)))
        }),
    }
}

/// How many differing answer sets a failure message shows.
const SHOWN_DIFFERENCES: usize = 5;

/// The answer sets only one side has, counted as multisets.
fn describe_difference(expected: &[Vec<String>], got: &[Vec<String>]) -> String {
    let mut balance: BTreeMap<&Vec<String>, i64> = BTreeMap::new();
    for set in expected {
        *balance.entry(set).or_default() += 1;
    }
    for set in got {
        *balance.entry(set).or_default() -= 1;
    }
    let mut text = format!(
        "{} answer sets where clingo has {}",
        got.len(),
        expected.len()
    );
    let differing: Vec<_> = balance.iter().filter(|(_, count)| **count != 0).collect();
    for (set, count) in differing.iter().take(SHOWN_DIFFERENCES) {
        let side = if **count > 0 {
            "only clingo"
        } else {
            "only asp2sat"
        };
        text += &format!("\n  {side} ({}x): {{{}}}", count.abs(), set.join(" "));
    }
    if differing.len() > SHOWN_DIFFERENCES {
        text += &format!("\n  ... {} more", differing.len() - SHOWN_DIFFERENCES);
    }
    text
}

fn first_error_line(stderr: &str) -> &str {
    stderr
        .lines()
        .find(|line| line.contains("error:"))
        .unwrap_or("(no error line)")
}

/// The message of a located error line, without its location.
fn reason(error_line: &str) -> String {
    error_line
        .split_once("error: ")
        .map_or(error_line, |(_, message)| message)
        .to_string()
}

fn check(case: &Case) -> Outcome {
    let expected = read_expected(case);
    let refusal = read_refusal(case);
    let out = solve(case, &expected);
    let refused = out.code == Some(65);
    match (refusal, refused) {
        (Some(listed), true) => {
            let got = first_error_line(&out.stderr);
            if got.contains(&listed) {
                Outcome::Refused(reason(&listed))
            } else {
                Outcome::Failed(format!(
                    "the listed refusal changed:\n  listed: {listed}\n  now:    {got}"
                ))
            }
        }
        (Some(listed), false) => Outcome::Failed(format!(
            "the listed refusal ({listed}) no longer happens: delete {} so that the case is \
             compared with clingo; the comparison now gives: {}",
            case.expected_path("refused").display(),
            compare(&expected, &out).unwrap_or_else(|| "agreement".to_string())
        )),
        (None, true) => Outcome::Failed(format!(
            "refused a program clingo accepts: {}",
            first_error_line(&out.stderr)
        )),
        (None, false) => compare(&expected, &out).map_or(Outcome::Agree, Outcome::Failed),
    }
}

#[test]
fn corpus_agrees_with_clingo() {
    let cases = read_cases();
    assert!(!cases.is_empty(), "no cases under fixtures/corpus");
    let outcomes = parallel_map(&cases, threads(), |_, case| check(case));
    let mut agree = 0;
    let mut refusals: BTreeMap<String, usize> = BTreeMap::new();
    let mut failures = Vec::new();
    for (case, outcome) in cases.iter().zip(outcomes) {
        match outcome {
            Outcome::Agree => agree += 1,
            Outcome::Refused(reason) => *refusals.entry(reason).or_default() += 1,
            Outcome::Failed(why) => failures.push(format!("{}: {why}", case.label())),
        }
    }
    let refused: usize = refusals.values().sum();
    println!(
        "corpus: {} cases, {agree} agree with clingo, {refused} refused as listed, {} failed",
        cases.len(),
        failures.len()
    );
    for (reason, count) in &refusals {
        println!("  refused {count}x: {reason}");
    }
    assert!(
        failures.is_empty(),
        "{} of {} corpus cases failed:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}

/// Every program directory names its source: a directory without SOURCE or
/// cases fails here.
#[test]
fn corpus_directories_name_their_source() {
    for entry in std::fs::read_dir(corpus_dir()).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            for needed in ["SOURCE", "cases"] {
                assert!(
                    path.join(needed).is_file(),
                    "{} has no {needed} file",
                    path.display()
                );
            }
        }
    }
}
