//! A seeded mutation fuzzer: programs from `encodings/` and `fixtures/`
//! (every `.lp`/`.dlv` file under 10 KB) are mutated (bytes flipped, ranges
//! deleted or repeated, ASP tokens and nasty literals inserted, lines spliced
//! in from other programs, deep nesting, long chains) and run through
//! `asp2sat solve` (and every fourth one through `dimacs`). Every run must
//! end with an answer (exit 10, 20, 30) or a located input error (exit 65,
//! `file:L:C: error:`), or be stopped by `--time-limit` while searching (a
//! hard instance). A panic, a signal, an unlocated error, or a run still
//! grounding at the time limit where clingo's grounder finishes in time (a
//! runaway of asp2sat's own) fails the test; where clingo cannot read the
//! program at all (gringo 3's forms), a slow grounding has no judge and is
//! counted apart. Failing inputs are kept in target/tmp/fuzz.
//!
//! Environment:
//!   ASP2SAT_FUZZ_CASES  number of mutants (default 2000)
//!   ASP2SAT_FUZZ_SEED   seed of the first one (default 1); mutant i has seed
//!                       ASP2SAT_FUZZ_SEED + i
//!   ASP2SAT_FUZZ_LIMIT  seconds a run may take (default 5)

use crate::common::{
    Rng, asp2sat_bin, clingo_bin, env_u64, parallel_map, root, run, scratch, threads,
};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Inserted at random places: the tokens of every dialect, and literals
/// that stress the lexer, the grounder and the limits.
const TOKENS: &[&str] = &[
    "(",
    ")",
    "{",
    "}",
    "[",
    "]",
    ":-",
    ":~",
    ".",
    ",",
    ";",
    ":",
    "|",
    " v ",
    "not ",
    "not not ",
    "-",
    "X",
    "_",
    "Y'",
    "a",
    "\"",
    "\"s\"",
    "%",
    "%*",
    "*%",
    "#count{",
    "#sum{",
    "#sum+{",
    "#min{",
    "#max{",
    "#show ",
    "#show.",
    "#hide.",
    "#const n=",
    "#include \"",
    "#program p.",
    "#external ",
    "#minimize{",
    "#inf",
    "#sup",
    "#true",
    "#false",
    "@f(",
    "&",
    "=",
    "==",
    "!=",
    "<",
    ">=",
    ":=",
    "+",
    "*",
    "**",
    "/0",
    "\\",
    "..",
    "1..2147483647",
    "2147483647",
    "-2147483648",
    "4294967296",
    "0x1F",
    "0b101",
    "0o17",
    "1/0",
    "~",
    "?",
    "^",
    "\u{e9}",
    "\0",
    "\r\n",
    "\t",
    "p(X) : q(X)",
    "1 { a; b } 2",
    "N = #count{ X : p(X) }",
];

/// The seed programs: every `.lp` and `.dlv` file under 10 KB.
fn seeds() -> Vec<Vec<u8>> {
    let mut files = Vec::new();
    let mut pending = vec![root().join("encodings"), root().join("fixtures")];
    while let Some(dir) = pending.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                pending.push(path);
            } else if path.extension().is_some_and(|e| e == "lp" || e == "dlv")
                && entry.metadata().is_ok_and(|m| m.len() < 10_000)
            {
                files.push(path);
            }
        }
    }
    files.sort();
    files
        .iter()
        .map(|f| std::fs::read(f).expect("a seed file"))
        .collect()
}

/// Numbers that stress arithmetic and bounds.
const NUMBERS: &[&str] = &["0", "1", "-1", "2", "7", "100", "2147483647", "-2147483648"];

/// A place to edit: mostly just after a space or punctuation, so that
/// most mutants still parse and reach the grounder.
fn position(text: &[u8], rng: &mut Rng) -> usize {
    let at = rng.below(text.len() + 1);
    if rng.chance(0.3) {
        return at;
    }
    (at..text.len())
        .find(|&i| i > 0 && b" ,;(){}:".contains(&text[i - 1]))
        .unwrap_or(at)
}

/// One to four mutations of a random seed program (most often one).
fn mutant(seeds: &[Vec<u8>], rng: &mut Rng) -> Vec<u8> {
    let mut text = rng.pick(seeds).clone();
    let mutations = if rng.chance(0.5) { 1 } else { 1 + rng.below(4) };
    for _ in 0..mutations {
        let at = position(&text, rng);
        let end = (at + rng.below(40)).min(text.len());
        match rng.below(9) {
            8 => {
                // Another number in place of one.
                if let Some(start) = (at..text.len()).find(|&i| text[i].is_ascii_digit()) {
                    let stop = (start..text.len())
                        .find(|&i| !text[i].is_ascii_digit())
                        .unwrap_or(text.len());
                    let number = rng.pick(NUMBERS).as_bytes().to_vec();
                    text.splice(start..stop, number);
                }
            }
            0 => {
                text.drain(at..end);
            }
            1 => {
                let copy = text[at..end].to_vec();
                text.splice(at..at, copy);
            }
            2 if !text.is_empty() => {
                let i = rng.below(text.len());
                text[i] = rng.below(256) as u8;
            }
            3 => {
                // A line of another program.
                let other = rng.pick(seeds);
                let lines: Vec<&[u8]> = other.split(|&b| b == b'\n').collect();
                let line = (*rng.pick(&lines)).to_vec();
                text.splice(at..at, line.into_iter().chain([b'\n']));
            }
            4 => {
                let depth = 1 + rng.below(300);
                let nested = format!("{}1{}", "(".repeat(depth), ")".repeat(depth));
                text.splice(at..at, nested.into_bytes());
            }
            5 => {
                let chain = "+1".repeat(1 + rng.below(5000));
                text.splice(at..at, chain.into_bytes());
            }
            _ => {
                let token = rng.pick(TOKENS).as_bytes().to_vec();
                text.splice(at..at, token);
            }
        }
    }
    text
}

#[derive(Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Outcome {
    Answered,
    LocatedError,
    /// Stopped by the time limit while searching: a hard instance, which
    /// clingo may solve faster (a performance matter, not a defect here).
    HardSearch,
    /// Still grounding at the time limit, and so was clingo's grounder:
    /// the input is large, not asp2sat slow.
    SlowLikeClingo,
    /// Still grounding at the time limit, in a program that neither clingo
    /// reads even rewritten (gringo 3's weighted lists, `#abs`): no grounder
    /// to judge it by.
    SlowUnjudged,
    Panic,
    Signal,
    UnlocatedError,
    Runaway,
}

impl Outcome {
    fn is_failure(&self) -> bool {
        matches!(
            self,
            Outcome::Panic | Outcome::Signal | Outcome::UnlocatedError | Outcome::Runaway
        )
    }
}

/// The gringo 3 / lparse and DLV forms clingo 5 does not read, rewritten
/// line by line outside comments: `:=` as `=`, `#hide.` dropped, DLV's
/// disjunction `v` as `|` and `<>` as `!=`.
fn clingo_syntax(text: &[u8]) -> Vec<u8> {
    let text = String::from_utf8_lossy(text);
    let mut out = String::with_capacity(text.len());
    for line in text.split_inclusive('\n') {
        let (code, comment) = line.split_at(line.find('%').unwrap_or(line.len()));
        if code.trim() == "#hide." {
            out.push_str(comment);
            continue;
        }
        let code = code
            .replace(":=", "=")
            .replace("<>", "!=")
            .replace(" v ", " | ");
        // A DLV disjunct may also start its line: `v p(X)`.
        let code = match code.trim_start().strip_prefix("v ") {
            Some(rest) => format!("| {rest}"),
            None => code,
        };
        out.push_str(&code);
        out.push_str(comment);
    }
    out.into_bytes()
}

fn located(stderr: &str) -> bool {
    stderr.lines().any(|line| {
        let Some(at) = line.find(": error: ") else {
            return false;
        };
        // `file:L:C` or `file:L:C-C` or `file:L:C-L:C` before the message.
        let location = &line[..at];
        let mut parts = location.rsplit(':');
        let column = parts.next().unwrap_or("");
        let line_number = parts.next().unwrap_or("");
        column
            .split('-')
            .all(|p| !p.is_empty() && p.chars().all(|c| c.is_ascii_digit()))
            && !line_number.is_empty()
            && line_number.chars().all(|c| c.is_ascii_digit() || c == '-')
    })
}

fn classify(file: &Path, subcommand: &str, limit: Duration) -> Outcome {
    let mut args = vec![subcommand.to_string()];
    if subcommand == "solve" {
        // asp2sat's own time limit stops a long run; the harness kills
        // only a run that the limit cannot stop.
        args.extend(["-n", "3", &format!("--time-limit={}", limit.as_secs())].map(String::from));
    }
    args.push(file.to_string_lossy().into_owned());
    let out = run(
        &asp2sat_bin(),
        &args,
        &root(),
        None,
        limit + Duration::from_secs(10),
    );
    if out.stderr.contains("panicked") || out.code == Some(101) {
        return Outcome::Panic;
    }
    let interrupted = matches!(out.code, Some(1 | 11 | 21 | 31));
    if interrupted && searching(&out.stdout) {
        return Outcome::HardSearch;
    }
    if out.timed_out || interrupted {
        return judge_slow_grounding(file, limit);
    }
    match out.code {
        None => Outcome::Signal,
        // `dimacs` exits 0 when it wrote the CNF.
        Some(0 | 10 | 20 | 30) => Outcome::Answered,
        Some(65) if located(&out.stderr) => Outcome::LocatedError,
        Some(_) => Outcome::UnlocatedError,
    }
}

/// Whether an interrupted run had started its search: `Solving: 0.00s` in
/// the summary means grounding or translation was still running.
fn searching(stdout: &str) -> bool {
    stdout
        .lines()
        .find_map(|line| line.split("(Solving: ").nth(1))
        .and_then(|rest| rest.split('s').next())
        .and_then(|seconds| seconds.parse::<f64>().ok())
        .is_some_and(|seconds| seconds > 0.0)
}

/// asp2sat could not finish grounding in time: a runaway unless clingo
/// cannot either (clingo 5.8, `python3 -m clingo`, where clingo 5.4
/// cannot parse what 5.8 reads, such as comparison chains).
fn judge_slow_grounding(file: &Path, limit: Duration) -> Outcome {
    // clingo 5 reads no lparse `:=`, `#hide.` or DLV `v`: it judges a
    // mechanical rewrite (as scripts/bench does).
    let rewrite = file.with_extension("clingo.lp");
    std::fs::write(&rewrite, clingo_syntax(&std::fs::read(file).unwrap())).unwrap();
    let ground = |bin: PathBuf, mut args: Vec<String>| {
        args.extend(["--mode=gringo", "--text"].map(String::from));
        args.push(rewrite.to_string_lossy().into_owned());
        run(&bin, &args, &root(), None, limit)
    };
    let unreadable =
        |stderr: &str| stderr.contains("syntax error") || stderr.contains("lexer error");
    let mut clingo = ground(clingo_bin(), Vec::new());
    if unreadable(&clingo.stderr) {
        clingo = ground("python3".into(), vec!["-m".into(), "clingo".into()]);
    }
    let _ = std::fs::remove_file(&rewrite);
    if clingo.timed_out {
        Outcome::SlowLikeClingo
    } else if unreadable(&clingo.stderr) {
        Outcome::SlowUnjudged
    } else {
        Outcome::Runaway
    }
}

#[test]
fn mutants_never_crash_or_run_away() {
    let cases = env_u64("ASP2SAT_FUZZ_CASES", 2000);
    let first = env_u64("ASP2SAT_FUZZ_SEED", 1);
    let limit = Duration::from_secs(env_u64("ASP2SAT_FUZZ_LIMIT", 5));
    let dir = scratch("fuzz");
    let seeds = seeds();
    assert!(seeds.len() > 20, "only {} seed programs", seeds.len());
    let numbers: Vec<u64> = (first..first + cases).collect();
    let results = parallel_map(&numbers, threads(), |_, &seed| {
        let mut rng = Rng::new(seed);
        let text = mutant(&seeds, &mut rng);
        let file: PathBuf = dir.join(format!("mutant{seed}.lp"));
        std::fs::write(&file, &text).unwrap();
        let mut outcomes = vec![classify(&file, "solve", limit)];
        if seed % 4 == 0 {
            outcomes.push(classify(&file, "dimacs", limit));
        }
        let failed = outcomes.iter().any(Outcome::is_failure);
        if !failed {
            let _ = std::fs::remove_file(&file);
        }
        (seed, outcomes)
    });
    let mut counts = std::collections::BTreeMap::new();
    let mut failures = Vec::new();
    for (seed, outcomes) in &results {
        for outcome in outcomes {
            *counts.entry(format!("{outcome:?}")).or_insert(0usize) += 1;
            if outcome.is_failure() {
                failures.push(format!(
                    "mutant {seed}: {outcome:?} (target/tmp/fuzz/mutant{seed}.lp)"
                ));
            }
        }
    }
    eprintln!(
        "fuzz: {cases} mutants from {} seed programs: {counts:?}",
        seeds.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
