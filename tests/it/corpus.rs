//! The real-program corpus: programs taken verbatim from public sources
//! (fixtures/corpus/, see its README.md), each case run through asp2sat and
//! compared with clingo's committed answer (`expected/<case>.json`, written by
//! `asp2sat test --record --reference=clingo`, through
//! `scripts/corpus-expect`), so clingo is not needed here.
//!
//! This is `asp2sat test fixtures/corpus` (`asp2sat::regress`, the one
//! comparison of answer sets): a case that uses what asp2sat does not support
//! yet lists the located error asp2sat gives in `expected/<case>.refused`. The
//! test fails when
//! - an answer differs from clingo's (answer sets compared as multisets),
//! - a listed refusal changes its message or location,
//! - a listed refusal no longer happens: the listing must then be deleted, so
//!   that the case becomes a comparison with clingo's answer,
//! - a case without a listing is refused,
//! - a case crashes, runs out of time ([`CASE_TIME_LIMIT`]) or out of memory.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use crate::common::{asp2sat_bin, root, threads, timeout};
use asp2sat::regress::child::Limits;
use asp2sat::regress::{self, Settings, Tool, cases, report};

/// A case's time limit stops a runaway; speed is measured by `scripts/bench
/// --corpus`, not here. The slowest case (hakank/rogo2_data_20110107, an
/// optimization: 19 s alone, clingo 8-13 s) took over 60 s beside the other
/// tests on two cores.
const CASE_TIME_LIMIT: Duration = Duration::from_secs(180);

fn corpus_dir() -> PathBuf {
    root().join("fixtures").join("corpus")
}

#[test]
fn corpus_agrees_with_clingo() {
    let cases = cases::discover(&[corpus_dir()]).unwrap();
    assert!(!cases.is_empty(), "no cases under fixtures/corpus");
    let settings = Settings {
        tool: Tool::Asp2sat {
            binary: asp2sat_bin(),
            flags: Vec::new(),
        },
        limits: Limits {
            time: timeout().max(CASE_TIME_LIMIT),
            memory: None,
        },
        slower: None,
    };
    let start = Instant::now();
    let records = regress::parallel_map(
        &cases,
        threads(),
        |case| regress::check(case, &settings),
        |_| {},
    );
    let summary = report::summary(&records, start.elapsed().as_secs_f64());
    print!("{summary}");
    assert!(
        !report::any_failure(&records),
        "corpus cases failed:\n{summary}"
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
