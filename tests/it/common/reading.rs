//! asp2sat on a program, clingo on its reading in clingo's language (the
//! same text, or a translation of a form clingo does not read: lparse's
//! weighted lists, DLV's `#int`), compared as multisets of answer sets in
//! every way asp2sat solves it, and by the count of its `dimacs` export.

use super::{Tool, all_answers_json, parse_json_answer};

/// What differs between clingo's answer sets and asp2sat's in each
/// translation; empty when all agree. Where plain clingo differs, clingo
/// `--eq=0 --no-gamma` gets a second say: clasp's equivalence preprocessing
/// and its gamma rules for disjunctions lose answer sets of some
/// disjunctive programs (clingo 5.4.1; 5.8 does not lose these), e.g.
/// clingo prints only the 4 answer sets with `p(1)` of
///     d(1..3). { p(X) : d(X) } 1. { q(X) } :- d(X), not p(X).
///     e(E) : d(E), p(E); e(E) : q(E), E != V :- d(V), not p(1).
/// which also has `{p(2), e(2)}` (add `:- not p(2).` and clingo finds it;
/// with `--no-gamma` it finds all 20). With `--eq=0` clingo may print one
/// answer set several times; every atom is shown here, so each distinct one
/// is kept once.
pub fn compare(
    dir: &std::path::Path,
    name: &str,
    ours: &str,
    theirs: &str,
) -> Result<Agreement, Vec<String>> {
    let ours_file = dir.join(format!("{name}.lp"));
    let theirs_file = dir.join(format!("{name}.clingo.lp"));
    std::fs::write(&ours_file, ours).unwrap();
    std::fs::write(&theirs_file, theirs).unwrap();
    let clingo = |extra: &[&str]| {
        let output = all_answers_json(Tool::Clingo, &theirs_file.to_string_lossy(), extra);
        parse_json_answer(&output.stdout)
            .map(|answer| answer.sorted())
            .map_err(|e| format!("clingo {extra:?} on `{theirs}`: {e}\n{}", output.stderr))
    };
    let failures = compare_with(&ours_file, ours, &clingo(&[]).map_err(|e| vec![e])?);
    if failures.is_empty() {
        return Ok(Agreement::Plain);
    }
    let mut expected = clingo(&["--eq=0", "--no-gamma"]).map_err(|e| vec![e])?;
    expected.dedup();
    if compare_with(&ours_file, ours, &expected).is_empty() {
        Ok(Agreement::WithoutPreprocessing)
    } else {
        Err(failures)
    }
}

/// With which clingo asp2sat agrees (see [`compare`]).
#[derive(PartialEq)]
pub enum Agreement {
    Plain,
    WithoutPreprocessing,
}

/// The ways asp2sat solves each program: both translations, and the sums
/// propagated inside the search of each backend that can
/// (`--sums=propagate`, every sum not on a positive cycle).
const MODES: &[&[&str]] = &[
    &["--translation=lazy"],
    &["--translation=eager"],
    #[cfg(feature = "cadical")]
    &["--sums=propagate", "--solver=cadical"],
    #[cfg(feature = "batsat")]
    &["--sums=propagate", "--solver=batsat"],
];

/// What differs between `expected` and asp2sat's answer sets in each of
/// [`MODES`] and the count of its `dimacs` export.
pub fn compare_with(
    ours_file: &std::path::Path,
    ours: &str,
    expected: &[Vec<String>],
) -> Vec<String> {
    let mut failures = Vec::new();
    let answer_sets = expected.len();
    // A program that is not head-cycle-free, or recurses through a
    // non-monotone aggregate, has no exact CNF: `dimacs` and the eager
    // translation refuse it, located, and `solve` checks it.
    let not_exact = "so they are not translated exactly";
    let mut exact = true;
    match ganak_count(ours_file) {
        Ok(count) if count == answer_sets => {}
        Ok(count) => failures.push(format!(
            "dimacs `{ours}`: Ganak counts {count} models, clingo has {answer_sets} answer sets"
        )),
        Err(e) if e.contains(not_exact) => exact = false,
        Err(e) => failures.push(format!("dimacs `{ours}`: {e}")),
    }
    for flags in MODES {
        let mode = flags.join(" ");
        let output = all_answers_json(Tool::Asp2sat, &ours_file.to_string_lossy(), flags);
        if !exact && *flags == ["--translation=eager"] {
            if output.code != Some(65) || !output.stderr.contains(not_exact) {
                failures.push(format!(
                    "{mode} `{ours}`: dimacs refuses it as not exact, eager does not ({})\n{}",
                    output.status(),
                    output.stderr
                ));
            }
            continue;
        }
        match parse_json_answer(&output.stdout) {
            Ok(answer) if answer.sorted() == *expected => {}
            Ok(answer) => failures.push(format!(
                "{mode} `{ours}`:\n  clingo  {expected:?}\n  asp2sat {:?}",
                answer.sorted()
            )),
            Err(e) => failures.push(format!(
                "{mode} `{ours}`: {e} ({})\n{}",
                output.status(),
                output.stderr
            )),
        }
    }
    failures
}

/// The number of models of `asp2sat dimacs file`, counted by Ganak.
fn ganak_count(file: &std::path::Path) -> Result<usize, String> {
    let count = super::export_through(file, &[], "cnf", "ganak-count")?;
    count
        .stdout
        .trim()
        .parse()
        .map_err(|_| format!("scripts/ganak-count {}:\n{}", count.status(), count.stderr))
}
