//! Differential test against clingo 5.4: random small non-ground programs in
//! clingo syntax, shaped like the programs people write (tests/it/common/generator.rs
//! says what they contain), solved with `-n 0 --outf=2` by clingo and by
//! asp2sat; the sets of answer sets (and their multiplicity, and the exit
//! codes 20/30) must be the same. Every program is in the language asp2sat
//! claims, so a refusal (exit 65) of a program clingo accepts is a failure.
//! Where they differ, clingo `--eq=0 --trans-ext=all` gets a second say,
//! and clingo 5.8 (`python3 -m clingo` with the same options) a third (see
//! [`clingo_without_eq`]): clingo's default preprocessing and its own
//! handling of disjunctions lose answer sets of some disjunctive programs,
//! and 5.4.1 takes `X+0` for `X` on non-integers; agreeing with either
//! opinion is a pass, counted and listed in the summary.
//!
//! Environment:
//!   ASP2SAT_DIFF_CASES  number of programs (default 300)
//!   ASP2SAT_DIFF_SEED   seed of the first program (default 1); program i has
//!                       seed ASP2SAT_DIFF_SEED + i, so one failing program is
//!                       rerun with ASP2SAT_DIFF_SEED=<its seed> ASP2SAT_DIFF_CASES=1
//!   ASP2SAT_DIFF_CLINGO_ONLY=1  only check that clingo accepts every program
//!                       (a check of the generator; asp2sat is not run)
//!   ASP2SAT_DIFF_KEEP=1 keep every program in target/tmp/differential
//!                       (failing ones are always kept)
//!   ASP2SAT_CLINGO      the clingo binary (default `clingo` on PATH)
//!
//! clingo must be installed (Debian package `gringo`); without it this test
//! fails rather than passing silently.

use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::path::PathBuf;

use crate::common::generator::{FEATURES, generate};
use crate::common::grammar;
use crate::common::incremental::{FEATURES as INCREMENTAL_FEATURES, generate_incremental};
use crate::common::*;

// ---------------------------------------------------------------------------
// Running and comparing

fn clingo_bin() -> PathBuf {
    PathBuf::from(std::env::var("ASP2SAT_CLINGO").unwrap_or_else(|_| "clingo".into()))
}

/// clingo's version line; fails the test with a clear message without clingo.
fn require_clingo() -> String {
    let bin = clingo_bin();
    let out = std::process::Command::new(&bin).arg("--version").output();
    match out {
        Ok(o) if o.status.success() => String::from_utf8_lossy(&o.stdout)
            .lines()
            .next()
            .unwrap_or("")
            .to_string(),
        Ok(o) => panic!(
            "`{} --version` failed ({}): the differential test needs clingo 5.4",
            bin.display(),
            o.status
        ),
        Err(e) => panic!(
            "clingo not found ({}: {e}).\nThe differential test compares asp2sat with clingo and cannot run without it: \
             install it with `apt-get install -y gringo` (Debian's clingo 5.4, what .ci/run does) or set ASP2SAT_CLINGO.",
            bin.display()
        ),
    }
}

/// More answer sets than this and the program is skipped (reported, not
/// compared): the generator keeps this rare.
const MAX_MODELS: u64 = 5000;

/// A generated program that clingo does not answer within this time (or
/// ASP2SAT_TEST_TIMEOUT, if shorter) is skipped: it is one whose grounding
/// never ends, such as a mutant of the corpus that dropped the bound of a
/// recursion, and a minute of waiting for it tells nothing more.
fn clingo_limit() -> std::time::Duration {
    timeout().min(std::time::Duration::from_secs(10))
}

enum Outcome {
    Pass {
        models: u64,
        /// Agrees only with the second opinion, clingo --eq=0 --trans-ext=all.
        clingo_eq_bug: bool,
    },
    Skip(String),
    /// asp2sat (exit 65) refuses a program clingo accepts: every generated
    /// program is in the language asp2sat claims, so this fails the test.
    Refused(String),
    Fail(String),
}

fn show_sets(ws: &[Vec<String>], max: usize) -> String {
    let mut s = String::new();
    for w in ws.iter().take(max) {
        let _ = writeln!(s, "    {{{}}}", w.join(", "));
    }
    if ws.len() > max {
        let _ = writeln!(s, "    ... {} more", ws.len() - max);
    }
    if ws.is_empty() {
        s += "    (none)\n";
    }
    s
}

/// Remove a program that passed, unless ASP2SAT_DIFF_KEEP=1.
fn discard(file: &std::path::Path) {
    if !std::env::var("ASP2SAT_DIFF_KEEP").is_ok_and(|v| v == "1") {
        let _ = std::fs::remove_file(file);
    }
}

/// What differs between clingo's answer (`want`, from exit code `want_code`)
/// and asp2sat's; empty if nothing.
fn compare(
    want: &Answer,
    want_code: Option<i32>,
    got: &Answer,
    got_code: Option<i32>,
) -> Vec<String> {
    let mut problems = Vec::new();
    if got_code != want_code {
        problems.push(format!(
            "exit code: clingo {want_code:?}, asp2sat {got_code:?}"
        ));
    }
    if got.result != want.result {
        problems.push(format!(
            "Result: clingo {}, asp2sat {}",
            want.result, got.result
        ));
    }
    // An optimization's `Models` counts the models on the way to the
    // optimum too, which depend on the search: its witnesses are compared.
    let optimization = want.costs.is_some();
    if (got.number != want.number && !optimization) || got.more != want.more {
        problems.push(format!(
            "Models: clingo {} (More: {}), asp2sat {} (More: {})",
            want.number, want.more, got.number, got.more
        ));
    }
    let ws: BTreeSet<&Vec<String>> = want.witnesses.iter().collect();
    let gs: BTreeSet<&Vec<String>> = got.witnesses.iter().collect();
    if ws != gs {
        let only_c: Vec<Vec<String>> = ws.difference(&gs).map(|w| (*w).clone()).collect();
        let only_a: Vec<Vec<String>> = gs.difference(&ws).map(|w| (*w).clone()).collect();
        problems.push(format!(
            "answer sets differ\n  only clingo ({}):\n{}  only asp2sat ({}):\n{}",
            only_c.len(),
            show_sets(&only_c, 10),
            only_a.len(),
            show_sets(&only_a, 10)
        ));
    } else if want.sorted() != got.sorted() {
        problems.push(format!(
            "same answer sets, different multiplicity (clingo prints {} witnesses, asp2sat {}; \
             with hidden atoms a visible set repeats once per answer set)",
            want.witnesses.len(),
            got.witnesses.len()
        ));
    }
    problems
}

/// The second opinion: clingo with `--eq=0 --trans-ext=all` on the program
/// with every atom shown, each distinct answer set once, then projected onto
/// the program's `#show` signatures here. clasp's equivalence preprocessing
/// (on by default) loses answer sets of some head-cycle-free disjunctive
/// programs (clingo 5.4.1 and 5.8 alike), e.g.
///     p(2) | q(3).  p(2) | r(1).  q(3) :- r(3), p(2).  r(3) :- q(3).
///     1 { p(2) } 1 :- not r(1).
/// has the answer sets {p(2)} and {q(3), r(1), r(3)}; plain clingo prints only
/// {p(2)}. With `--eq=0` it finds both but may print one answer set many
/// times over (the same full set, so deduplicating is right).
///
/// clasp's own handling of disjunctions loses answer sets too, with `--eq=0`
/// as without; `--trans-ext=all`, which turns the disjunctions into normal
/// rules first, finds them: seed 151123 of this campaign, 5.4.1 and 5.8
/// alike (its smallest form is a case of tests/it/regressions.rs,
/// `SEMANTICS_OVER_CLINGO`).
///
/// A `#show t : B.` becomes the rule `SHOW_TERM(t) :- B.`, whose atoms give
/// back the terms after projection (the same instances: undefined
/// arithmetic drops both).
///
/// With `Tool::PythonClingo` the opinion is clingo 5.8's (exit code 0
/// whatever the result): 5.4.1 simplifies `X+0` and `X*1` to `X` even for
/// a non-integer `X` (`q(a). r(Y) :- q(X), Y = X+0.` derives `r(a)`), where
/// the term is undefined and 5.8 drops the instance.
fn clingo_without_eq(
    tool: Tool,
    text: &str,
    extra: &[String],
    file: &std::path::Path,
) -> Result<(Answer, Option<i32>), String> {
    const SHOW_TERM: &str = "asp2sat_show_term";
    let mut sigs: Vec<(String, usize)> = Vec::new();
    // A `#show p/n.` or `#show.` hides what it does not name; `#show t : B.` does not.
    let mut hiding = false;
    let mut body = String::new();
    for line in text.lines() {
        if let Some(rest) = line.strip_prefix("#show") {
            let shown = rest.trim().trim_end_matches('.').trim();
            let signature = shown
                .split_once('/')
                .and_then(|(name, arity)| Some((name.trim(), arity.trim().parse().ok()?)))
                .filter(|(name, _)| {
                    name.trim_start_matches('-')
                        .chars()
                        .all(|c| c.is_alphanumeric() || c == '_')
                });
            match signature {
                Some((name, arity)) => {
                    hiding = true;
                    sigs.push((name.to_string(), arity));
                }
                None if shown.is_empty() => hiding = true, // `#show.`
                None => match shown.split_once(" : ") {
                    Some((term, cond)) => writeln!(body, "{SHOW_TERM}({term}) :- {cond}.").unwrap(),
                    None => writeln!(body, "{SHOW_TERM}({shown}).").unwrap(),
                },
            }
        } else {
            body += line;
            body += "\n";
        }
    }
    let full = file.with_extension("all.lp");
    std::fs::write(&full, body).unwrap();
    let (bin, mut args): (std::path::PathBuf, Vec<String>) = match tool {
        Tool::PythonClingo => ("python3".into(), vec!["-m".into(), "clingo".into()]),
        _ => (clingo_bin(), Vec::new()),
    };
    let options = ["--eq=0", "--trans-ext=all", "-n", "0", "--outf=2"];
    args.extend(options.map(String::from));
    args.push(full.to_str().unwrap().into());
    args.extend(extra.iter().cloned());
    let c = run(&bin, &args, &root(), None, timeout());
    let _ = std::fs::remove_file(&full);
    let mut ans =
        parse_json_answer(&c.stdout).map_err(|e| format!("clingo --eq=0 --trans-ext=all: {e}"))?;
    let distinct: BTreeSet<Vec<String>> = ans.witnesses.drain(..).collect();
    ans.witnesses = distinct
        .into_iter()
        .map(|w| {
            let mut visible: Vec<String> = w
                .into_iter()
                .filter_map(|a| {
                    let (name, args) = split_atom(&a);
                    if name == SHOW_TERM {
                        return Some(args[0].clone());
                    }
                    let shown = !hiding || sigs.iter().any(|(n, k)| *n == name && *k == args.len());
                    shown.then_some(a)
                })
                .collect();
            visible.sort();
            visible.dedup();
            visible
        })
        .collect();
    ans.number = ans.witnesses.len() as u64;
    Ok((ans, c.code))
}

/// One generated program of a campaign: its text, the arguments both tools
/// get besides `-n 0 --outf=2 FILE`, and how to run it again alone.
struct Case {
    seed: u64,
    text: String,
    extra: &'static [&'static str],
    /// The backends (`--solver`) that solve the program besides the
    /// default choice, each to give the default's answer.
    backends: &'static [&'static str],
    repro: String,
}

/// An optimizing program is compared on its optimal answer sets, the
/// models on the way to them depending on the search.
const OPTIMAL: &[&str] = &["--opt-mode=optN", "--quiet=1"];

fn run_case(case: &Case, dir: &std::path::Path, clingo_only: bool) -> Outcome {
    let seed = case.seed;
    let file = dir.join(format!("prog_{seed}.lp"));
    std::fs::write(&file, &case.text).unwrap();
    let path = file.display().to_string();
    let mut args = vec![
        "-n".to_string(),
        "0".into(),
        "--outf=2".into(),
        path.clone(),
    ];
    args.extend(case.extra.iter().map(|a| a.to_string()));
    let repro = &case.repro;
    let head = |what: &str| {
        format!(
            "seed {seed}: {what}\n--- program ({path}) ---\n{}---\nrerun: {repro}\n",
            case.text
        )
    };

    // At most one answer set more than compared: a program with millions of
    // them would otherwise print gigabytes of JSON into this process. With
    // fewer, clingo's answer (exit code, `More: no`) is the same as with -n 0.
    let mut clingo_args = args.clone();
    clingo_args[1] = (MAX_MODELS + 1).to_string();
    let mut c = run(&clingo_bin(), &clingo_args, &root(), None, clingo_limit());
    // An objective that grounding empties is no optimization to clingo: it
    // enumerates the answer sets (`--quiet=1` would print only the last),
    // and asp2sat must do the same; compare all of them.
    if !case.extra.is_empty()
        && c.code == Some(10 | 30)
        && parse_json_answer(&c.stdout).is_ok_and(|a| a.costs.is_none())
    {
        args.truncate(4);
        clingo_args.truncate(4);
        c = run(&clingo_bin(), &clingo_args, &root(), None, clingo_limit());
    }
    if c.timed_out {
        return Outcome::Skip(format!("seed {seed}: clingo took over {:?}", c.elapsed));
    }
    if c.code == Some(10) {
        // Stopped at the limit before the search space was exhausted.
        discard(&file);
        return Outcome::Skip(format!("seed {seed}: over {MAX_MODELS} answer sets"));
    }
    if !matches!(c.code, Some(20) | Some(30)) {
        return Outcome::Fail(head(&format!(
            "clingo rejected the generated program ({}) -- a bug in the generator\n{}",
            c.status(),
            c.stderr
        )));
    }
    let want = match parse_json_answer(&c.stdout) {
        Ok(a) => a,
        Err(e) => return Outcome::Fail(head(&format!("cannot read clingo's JSON: {e}"))),
    };
    let pass = |clingo_eq_bug| Outcome::Pass {
        models: want.number,
        clingo_eq_bug,
    };
    if clingo_only {
        discard(&file);
        return pass(false);
    }

    let ours = |args: &[String]| asp2sat_solve(args, None);
    // `--stats` names the backend the default chose, which need not run twice.
    let a = ours(&[args.as_slice(), &["--stats".to_string()]].concat());
    if a.code == Some(65) {
        return Outcome::Refused(head(&format!(
            "asp2sat refused a program clingo accepts\n{}",
            a.stderr.trim_end()
        )));
    }
    let mut problems = Vec::new();
    if a.stderr.contains("panicked") {
        problems.push("asp2sat panicked".to_string());
    }
    let got = match parse_json_answer(&a.stdout) {
        Ok(g) => Some(g),
        Err(e) => {
            problems.push(format!(
                "exit code: clingo {}, asp2sat {}\nasp2sat's output is not clingo JSON: {e}\n  stdout: {}",
                c.status(),
                a.status(),
                a.stdout.trim()
            ));
            None
        }
    };
    // Every other backend answers as the default one does, whatever clingo says.
    if let Some(got) = &got {
        let chosen = sat_solver_of(&a.stdout);
        for &backend in (case.backends.iter()).filter(|&&b| Some(b) != chosen.as_deref()) {
            if let Some(problem) = backend_against_default(backend, &args, got, a.code) {
                return Outcome::Fail(head(&problem));
            }
        }
    }
    let mut second = None;
    if let Some(got) = &got {
        problems.extend(compare(&want, c.code, got, a.code));
        if !problems.is_empty() {
            let agrees = agrees_without_eq(
                case,
                &args,
                &file,
                (got, a.code),
                &ours,
                &mut problems,
                &mut second,
            );
            if agrees {
                discard(&file);
                return pass(true);
            }
        }
    }
    if problems.is_empty() {
        discard(&file);
        return pass(false);
    }
    let text = head(&problems.join("\n"));
    Outcome::Fail(failure_message(
        text,
        &want,
        second.as_ref(),
        got.as_ref(),
        &a,
    ))
}

/// Whether clingo agrees with asp2sat's answer `got` (exit code `code`)
/// once the program's equalities are read without clingo's `--eq`
/// preprocessing: clingo 5.4.1 first, its answer kept in `second` when it
/// differs, then clingo 5.8, which exits 0 whatever it finds.
fn agrees_without_eq(
    case: &Case,
    args: &[String],
    file: &std::path::Path,
    (got, code): (&Answer, Option<i32>),
    ours: &dyn Fn(&[String]) -> Output,
    problems: &mut Vec<String>,
    second: &mut Option<Answer>,
) -> bool {
    match clingo_without_eq(Tool::Clingo, &case.text, &args[4..], file) {
        Ok((want2, code2)) => {
            if compare(&want2, code2, got, code).is_empty() {
                return true;
            }
            *second = Some(want2);
        }
        Err(e) => problems.push(e),
    }
    // clingo 5.8 exits 0 whatever it finds: compare the answers.
    // Where 5.8 finds the objective empty (5.4.1 takes `1*J` for `J`
    // also when `J` is a constant, and keeps the tuple), compare
    // all answer sets, as above.
    let extra = &args[4..];
    let third = clingo_without_eq(Tool::PythonClingo, &case.text, extra, file);
    match third {
        Ok((want3, _)) if !extra.is_empty() && want3.costs.is_none() && want3.number > 0 => {
            let all = clingo_without_eq(Tool::PythonClingo, &case.text, &[], file);
            let ours = ours(&args[..4]);
            matches!((all, parse_json_answer(&ours.stdout)),
                (Ok((want3, _)), Ok(got3)) if compare(&want3, ours.code, &got3, ours.code).is_empty())
        }
        Ok((want3, _)) => compare(&want3, code, got, code).is_empty(),
        Err(_) => false,
    }
}

/// What differs between the answer of `--solver=backend` and the default
/// choice's (`by_default`, exit code `default_code`), as a problem; `None`
/// if nothing.
fn backend_against_default(
    backend: &str,
    args: &[String],
    by_default: &Answer,
    default_code: Option<i32>,
) -> Option<String> {
    let other = asp2sat_solve(&[args, &[format!("--solver={backend}")]].concat(), None);
    let differences = match parse_json_answer(&other.stdout) {
        Ok(got) => compare(by_default, default_code, &got, other.code),
        Err(e) => vec![format!(
            "the output of --solver={backend} is not clingo JSON: {e}\n  stdout: {}",
            other.stdout.trim()
        )],
    };
    (!differences.is_empty()).then(|| {
        format!(
            "--solver={backend} against the default solver (as 'clingo'):\n{}",
            differences.join("\n")
        )
    })
}

/// The SAT solver a run chose, from its `--stats` in JSON.
fn sat_solver_of(json: &str) -> Option<String> {
    let document: serde_json::Value = serde_json::from_str(json).ok()?;
    Some(document["Stats"]["SatSolver"].as_str()?.to_string())
}

/// The message of a failed case: `text`, then the answer sets of clingo
/// (`want`, and `second` of clingo without `--eq` if they differ), of
/// asp2sat (`got`), and asp2sat's messages.
fn failure_message(
    text: String,
    want: &Answer,
    second: Option<&Answer>,
    got: Option<&Answer>,
    a: &Output,
) -> String {
    let mut msg = text;
    let _ = write!(
        msg,
        "clingo ({} answer sets):\n{}",
        want.witnesses.len(),
        show_sets(&want.sorted(), 12)
    );
    if let Some(w2) = second
        && w2.sorted() != want.sorted()
    {
        let _ = write!(
            msg,
            "clingo --eq=0 --trans-ext=all, each answer set once ({} answer sets):\n{}",
            w2.witnesses.len(),
            show_sets(&w2.sorted(), 12)
        );
    }
    if let Some(got) = got {
        let _ = write!(
            msg,
            "asp2sat ({} answer sets):\n{}",
            got.witnesses.len(),
            show_sets(&got.sorted(), 12)
        );
    }
    if !a.stderr.trim().is_empty() {
        let _ = writeln!(msg, "asp2sat stderr:\n{}", a.stderr.trim_end());
    }
    msg
}

/// Each program is solved by the default choice of backend (`auto`, which
/// mixes them by program) against clingo, then by every other backend of
/// the build against the default: each backend answers every program.
/// ASP2SAT_DIFF_CASES (default 300) and ASP2SAT_DIFF_SEED (default 1)
/// choose the programs.
#[test]
fn differential_against_clingo() {
    let cases = env_u64("ASP2SAT_DIFF_CASES", 300);
    let seed0 = env_u64("ASP2SAT_DIFF_SEED", 1);
    let seeds: Vec<u64> = (0..cases).map(|i| seed0 + i).collect();
    // Regenerating is cheap and deterministic: count over every program run.
    let programs: Vec<_> = seeds.iter().map(|&s| generate(s).features).collect();
    print_feature_counts(FEATURES, &programs);
    campaign("differential", &seeds, |seed| Case {
        seed,
        text: generate(seed).text,
        extra: &[],
        backends: BACKENDS,
        repro: format!(
            "ASP2SAT_DIFF_SEED={seed} ASP2SAT_DIFF_CASES=1 cargo test --release --all-features --test it differential::differential_against_clingo"
        ),
    });
}

/// The backends of this build.
const BACKENDS: &[&str] = &[
    "varisat",
    #[cfg(feature = "cadical")]
    "cadical",
    #[cfg(feature = "batsat")]
    "batsat",
];

/// How many of the programs, given by the features each uses, use each of
/// `features`.
fn feature_counts<'f>(
    features: &[&str],
    programs: impl Iterator<Item = &'f BTreeSet<&'static str>>,
) -> Vec<usize> {
    let mut counts = vec![0usize; features.len()];
    for used in programs {
        for f in used {
            counts[features.iter().position(|g| g == f).unwrap()] += 1;
        }
    }
    counts
}

/// Prints how many of the programs use each of `features`.
fn print_feature_counts(features: &[&str], programs: &[BTreeSet<&'static str>]) {
    let counts = feature_counts(features, programs.iter());
    let counts: Vec<String> = (features.iter().zip(&counts))
        .map(|(f, n)| format!("{f} {n}"))
        .collect();
    println!("  programs using each feature: {}", counts.join(", "));
}

/// The features of `features` that fewer than 50 of the programs use.
fn rare_features(features: &[&str], counts: &[usize]) -> Vec<String> {
    (features.iter().zip(counts))
        .filter(|(_, n)| **n < 50)
        .map(|(f, n)| format!("{f}: {n}"))
        .collect()
}

/// Programs in clingo's incremental mode (tests/it/common/incremental.rs),
/// compared as those of `differential_against_clingo`: the answer sets of
/// every step that has some, so a step wrongly proven to have none shows
/// as the answer sets of a later one. ASP2SAT_INC_CASES (default 200) and
/// ASP2SAT_INC_SEED (default 1) choose them.
#[test]
fn incremental_against_clingo() {
    let cases = env_u64("ASP2SAT_INC_CASES", 200);
    let seed0 = env_u64("ASP2SAT_INC_SEED", 1);
    let seeds: Vec<u64> = (0..cases).map(|i| seed0 + i).collect();
    let programs: Vec<_> = seeds
        .iter()
        .map(|&s| generate_incremental(s).features)
        .collect();
    print_feature_counts(INCREMENTAL_FEATURES, &programs);
    campaign("incremental", &seeds, |seed| Case {
        seed,
        text: generate_incremental(seed).text,
        extra: &[],
        backends: &[],
        repro: format!(
            "ASP2SAT_INC_SEED={seed} ASP2SAT_INC_CASES=1 cargo test --release --test it differential::incremental_against_clingo"
        ),
    });
}

/// The programs of the grammar-driven generator (tests/it/common/grammar.rs),
/// compared as those of `differential_against_clingo`; an optimizing one on
/// its optimal answer sets. ASP2SAT_GRAMMAR_CASES (default 300) and
/// ASP2SAT_GRAMMAR_SEED (default 1) choose them.
#[test]
fn grammar_against_clingo() {
    let seeds = grammar_seeds();
    print!("{}", grammar_coverage(&seeds).0);
    campaign("grammar", &seeds, |seed| {
        let program = grammar::generate(seed);
        Case {
            seed,
            text: program.text,
            extra: if program.optimizes { OPTIMAL } else { &[] },
            backends: &[],
            repro: format!(
                "ASP2SAT_GRAMMAR_SEED={seed} ASP2SAT_GRAMMAR_CASES=1 cargo test --release --test it differential::grammar_against_clingo"
            ),
        }
    });
}

/// Mutants of the corpus's small programs (tests/it/common/mutants.rs),
/// compared as those of `differential_against_clingo`; a mutant of an
/// optimization on its optimal answer sets. ASP2SAT_MUTANT_CASES (default
/// 150) and ASP2SAT_MUTANT_SEED (default 1) choose them.
#[test]
fn corpus_mutants_against_clingo() {
    let clingo58 = require_clingo().contains(" 5.8");
    let programs = mutants::seed_programs(clingo58);
    assert!(programs.len() > 300, "{} corpus programs", programs.len());
    let seeds = seeds("MUTANT", 150, "MUTANT");
    let made: Vec<_> = seeds
        .iter()
        .map(|&s| mutants::mutant(&programs, s))
        .collect();
    let origins: BTreeSet<&str> = made.iter().map(|m| m.origin.as_str()).collect();
    let changes: Vec<BTreeSet<&str>> = made
        .iter()
        .map(|m| m.changes.iter().copied().collect())
        .collect();
    print!(
        "mutants of {} of the corpus's {} small programs; ",
        origins.len(),
        programs.len()
    );
    print_feature_counts(mutants::CHANGES, &changes);
    campaign("mutants", &seeds, |seed| {
        let mutant = mutants::mutant(&programs, seed);
        Case {
            seed,
            text: format!("% a mutant of {}\n{}", mutant.origin, mutant.text),
            extra: if mutant.optimizes { OPTIMAL } else { &[] },
            backends: &[],
            repro: format!(
                "ASP2SAT_MUTANT_SEED={seed} ASP2SAT_MUTANT_CASES=1 cargo test --release --test it differential::corpus_mutants_against_clingo"
            ),
        }
    });
}

fn grammar_seeds() -> Vec<u64> {
    let cases = env_u64("ASP2SAT_GRAMMAR_CASES", 300);
    let seed0 = env_u64("ASP2SAT_GRAMMAR_SEED", 1);
    (0..cases).map(|i| seed0 + i).collect()
}

/// The two coverage matrices of the grammar generator over `seeds` (term
/// production by place, literal kind by place), printed, and the cells
/// that stayed empty.
fn grammar_coverage(seeds: &[u64]) -> (String, Vec<String>) {
    let (mut terms, mut literals) = (Vec::new(), Vec::new());
    for &seed in seeds {
        let program = grammar::generate(seed);
        terms.extend(program.terms);
        literals.extend(program.literals);
    }
    use grammar::{LITERAL_KINDS, LITERAL_PLACES, PLACES, PRODUCTIONS};
    let term_counts = grammar::matrix(&PRODUCTIONS, &PLACES, terms);
    let literal_counts = grammar::matrix(&LITERAL_KINDS, &LITERAL_PLACES, literals);
    let mut empty = Vec::new();
    for (production, row) in PRODUCTIONS.iter().zip(&term_counts) {
        for (place, n) in PLACES.iter().zip(row) {
            if *n == 0 {
                empty.push(format!("{production:?} in {place:?}"));
            }
        }
    }
    for (kind, row) in LITERAL_KINDS.iter().zip(&literal_counts) {
        for (place, n) in LITERAL_PLACES.iter().zip(row) {
            if *n == 0 {
                empty.push(format!("{kind:?} literal in {place:?}"));
            }
        }
    }
    let text = format!(
        "grammar coverage over {} programs: terms written, by production (rows) and place\n{}literals written, by kind and place\n{}",
        seeds.len(),
        grammar::show_matrix(&PRODUCTIONS, &PLACES, &term_counts),
        grammar::show_matrix(&LITERAL_KINDS, &LITERAL_PLACES, &literal_counts),
    );
    (text, empty)
}

/// Every cell of both matrices is written over the sample the campaign runs:
/// clingo's language allows each production in each place and each literal
/// kind in each place a literal stands.
#[test]
fn grammar_covers_every_cell() {
    let (text, empty) = grammar_coverage(&grammar_seeds());
    assert!(empty.is_empty(), "{text}cells never written: {empty:?}");
}

#[test]
fn grammar_generator_is_deterministic() {
    assert_eq!(grammar::generate(42).text, grammar::generate(42).text);
    assert_ne!(grammar::generate(42).text, grammar::generate(43).text);
}

/// Runs the programs of `seeds` through clingo and asp2sat, prints the
/// summary and fails on any refusal or difference. ASP2SAT_DIFF_CLINGO_ONLY=1
/// runs clingo alone (a check of the generator).
fn campaign(name: &str, seeds: &[u64], case: impl Fn(u64) -> Case + Sync) {
    let version = require_clingo();
    let cases = seeds.len();
    let clingo_only = std::env::var("ASP2SAT_DIFF_CLINGO_ONLY").is_ok_and(|v| v == "1");
    let dir = scratch(name);
    let start = std::time::Instant::now();
    let outcomes = parallel_map(seeds, threads(), |_, &s| {
        run_case(&case(s), &dir, clingo_only)
    });

    let (mut pass, mut unsat, mut many) = (0, 0, 0);
    let mut skips = Vec::new();
    let mut refusals = Vec::new();
    let mut fails = Vec::new();
    let mut eq_bug = Vec::new();
    for (o, seed) in outcomes.into_iter().zip(seeds) {
        match o {
            Outcome::Pass {
                models,
                clingo_eq_bug,
            } => {
                pass += 1;
                if clingo_eq_bug {
                    eq_bug.push(seed.to_string());
                }
                if models == 0 {
                    unsat += 1;
                }
                if models > 1 {
                    many += 1;
                }
            }
            Outcome::Skip(s) => skips.push(s),
            Outcome::Refused(s) => refusals.push(s),
            Outcome::Fail(s) => fails.push(s),
        }
    }
    println!(
        "{name}: {cases} programs from seed {} against {version}{} in {:.1?}: {pass} agree ({unsat} unsatisfiable, {many} with several answer sets), {} skipped, {} refused by asp2sat, {} differ",
        seeds.first().copied().unwrap_or(0),
        if clingo_only { " (clingo only)" } else { "" },
        start.elapsed(),
        skips.len(),
        refusals.len(),
        fails.len()
    );
    if !eq_bug.is_empty() {
        println!(
            "  {} of them agree with clingo --eq=0 --trans-ext=all but not with plain clingo (clasp's preprocessing or its disjunctions), seeds: {}",
            eq_bug.len(),
            eq_bug.join(" ")
        );
    }
    for s in &skips {
        println!("  skipped {s}");
    }
    let failures: Vec<&String> = refusals.iter().chain(&fails).collect();
    if !failures.is_empty() {
        // One line per failing program (its seed and first problem), then details.
        let index: Vec<String> = failures
            .iter()
            .map(|f| {
                let mut lines = f.lines();
                let first = lines.next().unwrap_or("");
                let second = lines.next().unwrap_or("");
                format!("  {first} {second}")
            })
            .collect();
        let shown: Vec<&str> = failures.iter().take(10).map(|s| s.as_str()).collect();
        panic!(
            "{} of {cases} programs refused and {} differ from clingo (failing programs are kept in {}):\n{}\n\nthe first {}:\n\n{}",
            refusals.len(),
            fails.len(),
            dir.display(),
            index.join("\n"),
            shown.len(),
            shown.join("\n")
        );
    }
    assert!(
        skips.len() * 10 <= cases,
        "too many skipped programs: {}",
        skips.len()
    );
}

/// Every feature of the incremental-mode generator is in at least 50 of
/// 1,000 programs, and a seed gives the same program every time.
#[test]
fn incremental_generator_covers_features() {
    let programs: Vec<_> = (1..=1000).map(generate_incremental).collect();
    assert_eq!(programs[41].text, generate_incremental(42).text);
    let counts = feature_counts(INCREMENTAL_FEATURES, programs.iter().map(|p| &p.features));
    let rare = rare_features(INCREMENTAL_FEATURES, &counts);
    assert!(
        rare.is_empty(),
        "features in fewer than 50 of 1000 programs: {rare:?}"
    );
}

/// The same seed gives the same program; different seeds differ.
#[test]
fn generator_is_deterministic() {
    assert_eq!(generate(42).text, generate(42).text);
    assert_ne!(generate(42).text, generate(43).text);
}

/// The generator reaches every feature the differential test is meant to
/// cover, and writes the shapes of real programs on which asp2sat once gave
/// wrong answers or wrong refusals.
#[test]
fn generator_covers_features() {
    let programs: Vec<_> = (1..=1000).map(generate).collect();
    let text: String = programs.iter().map(|p| p.text.as_str()).collect();
    let counts = feature_counts(FEATURES, programs.iter().map(|p| &p.features));
    let rare = rare_features(FEATURES, &counts);
    assert!(
        rare.is_empty(),
        "features in fewer than 50 of 1000 programs: {rare:?}"
    );
    for needle in [
        "..",
        " | ",
        "| not ",
        ", not not ",
        "} = 1",
        "\\",
        "!=",
        "#show.",
        "#show -",
        ":- ",
        "cnt(N) :- cnt(N-1), ",
        "cnt(X+1) :- cnt(X), X < ",
        "reach(Y) :- reach(X), ",
        "fib(N,A+B) :- fib(N-1,A), fib(N-2,B), N < ",
        "(_,X+1)",
        "Y'-1 = Y",
        "= Y'",
        "2*X",
        "(-(X+3))+2",
        "f(a,X,X+1) = F, sym(F)",
        "(X,Y) = T, tup(T)",
        "nt(-X)",
        "-(1,2)",
        "-f(a)",
        "X/(X-1) {",
        "**(",
        "und(a+1)",
        "#show sh(X/(X-1))",
        "pl(1..3;5)",
        "pl((1;2),(a;b))",
        "pl(X;X+1)",
        "#show f(X) : ",
        "#const k = ",
        "\"s\"",
    ] {
        assert!(
            text.contains(needle),
            "no generated program contains {needle:?}"
        );
    }
}
