//! The records of a run, one per case, and what is made of them: the
//! summary a person reads, JUnit XML for CI systems, the JSON records, and
//! the per-case ratio table of two runs. Pure: text in, text out.

use super::Tool;
use super::cases::Case;
use super::child::{Exit, Finished};
use super::expectation::Baseline;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::PathBuf;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    Passed,
    /// Refused as its listing says.
    Refused,
    Failed,
    TimedOut,
    Crashed,
    OutOfMemory,
    /// Passed, but slower than the baseline by more than the factor.
    Slower,
    /// No record came back (a task of a cluster run that did not finish).
    Missing,
}

impl Status {
    pub const ALL: [Status; 8] = [
        Status::Passed,
        Status::Refused,
        Status::Failed,
        Status::TimedOut,
        Status::Crashed,
        Status::OutOfMemory,
        Status::Slower,
        Status::Missing,
    ];

    /// Whether the run as a whole fails with it.
    pub fn is_failure(self) -> bool {
        !matches!(self, Status::Passed | Status::Refused)
    }

    pub fn describe(self) -> &'static str {
        match self {
            Status::Passed => "passed",
            Status::Refused => "refused as listed",
            Status::Failed => "failed",
            Status::TimedOut => "timed out",
            Status::Crashed => "crashed",
            Status::OutOfMemory => "out of memory",
            Status::Slower => "slower",
            Status::Missing => "missing",
        }
    }
}

/// One case's run: what JSON records hold, one each.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Record {
    /// `group/name`.
    pub case: String,
    pub dir: PathBuf,
    pub args: Vec<String>,
    /// `asp2sat`, or `clingo 5.4`.
    pub tool: String,
    /// The SAT solver, or clasp.
    pub backend: String,
    pub status: Status,
    /// The difference, the refusal's reason, the end of standard error.
    pub detail: String,
    pub result: Option<String>,
    /// The answer sets printed.
    pub models: Option<usize>,
    pub costs: Option<Vec<i64>>,
    pub exit_code: Option<i32>,
    /// Wall time.
    pub seconds: f64,
    pub cpu_seconds: f64,
    /// Peak resident memory.
    pub max_rss_kb: u64,
    pub baseline: Option<Baseline>,
}

impl Record {
    /// A record of `case` before it ran.
    pub fn new(case: &Case, tool: &Tool) -> Record {
        Record {
            case: case.label(),
            dir: case.dir.clone(),
            args: case.args.clone(),
            tool: tool.name(case),
            backend: tool.backend(),
            status: Status::Missing,
            detail: String::new(),
            result: None,
            models: None,
            costs: None,
            exit_code: None,
            seconds: 0.0,
            cpu_seconds: 0.0,
            max_rss_kb: 0,
            baseline: None,
        }
    }

    pub fn with(mut self, status: Status, detail: String) -> Record {
        self.status = status;
        self.detail = detail;
        self
    }

    /// Takes the measurements of a finished run.
    pub fn measured(&mut self, finished: &Finished) {
        self.seconds = finished.wall.as_secs_f64();
        self.cpu_seconds = finished.cpu.as_secs_f64();
        self.max_rss_kb = finished.max_rss_kb;
        if let Exit::Code(code) = finished.exit {
            self.exit_code = Some(code);
        }
    }

    /// The group: the case's directory as reports name it.
    fn group(&self) -> &str {
        self.case.rsplit_once('/').map_or("", |(group, _)| group)
    }

    fn name(&self) -> &str {
        self.case
            .rsplit_once('/')
            .map_or(&self.case, |(_, name)| name)
    }
}

/// How many records have each status, in [`Status::ALL`]'s order.
pub fn tally(records: &[Record]) -> BTreeMap<Status, usize> {
    let mut counts = BTreeMap::new();
    for record in records {
        *counts.entry(record.status).or_default() += 1;
    }
    counts
}

/// Whether any case failed.
pub fn any_failure(records: &[Record]) -> bool {
    records.iter().any(|record| record.status.is_failure())
}

/// The summary after a run: each case that did not pass with what went
/// wrong, the refusals by reason, then the count of each status.
pub fn summary(records: &[Record], seconds: f64) -> String {
    let mut text = String::new();
    for record in records.iter().filter(|r| r.status.is_failure()) {
        let label = record.status.describe().to_uppercase();
        let _ = write!(text, "{label} {} ({:.2} s)", record.case, record.seconds);
        let mut lines = record.detail.lines();
        if let Some(first) = lines.next() {
            let _ = write!(text, ": {first}");
        }
        for line in lines {
            let _ = write!(text, "\n  {line}");
        }
        text.push('\n');
    }
    let mut reasons: BTreeMap<&str, usize> = BTreeMap::new();
    for record in records.iter().filter(|r| r.status == Status::Refused) {
        *reasons.entry(&record.detail).or_default() += 1;
    }
    for (reason, count) in reasons {
        let _ = writeln!(text, "refused as listed {count}x: {reason}");
    }
    let counts = tally(records);
    let parts: Vec<String> = (Status::ALL.iter())
        .filter(|status| {
            matches!(status, Status::Passed | Status::Failed) || counts.contains_key(status)
        })
        .map(|status| {
            let count = counts.get(status).copied().unwrap_or(0);
            format!("{count} {}", status.describe())
        })
        .collect();
    let _ = writeln!(
        text,
        "{} cases in {seconds:.1} s: {}",
        records.len(),
        parts.join(", ")
    );
    text
}

/// Text for XML: the five special characters escaped, and the characters
/// XML 1.0 does not allow (control characters) as U+FFFD.
fn xml_escape(text: &str) -> String {
    let mut escaped = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => escaped += "&amp;",
            '<' => escaped += "&lt;",
            '>' => escaped += "&gt;",
            '"' => escaped += "&quot;",
            '\'' => escaped += "&apos;",
            '\t' | '\n' | '\r' => escaped.push(c),
            c if (c as u32) < 0x20 || c == '\u{fffe}' || c == '\u{ffff}' => {
                escaped.push('\u{fffd}')
            }
            c => escaped.push(c),
        }
    }
    escaped
}

/// The JUnit XML element of one case.
fn junit_case(record: &Record) -> String {
    let opening = format!(
        "    <testcase classname=\"{}\" name=\"{}\" time=\"{:.3}\"",
        xml_escape(record.group()),
        xml_escape(record.name()),
        record.seconds
    );
    let first_line = record.detail.lines().next().unwrap_or_default();
    let (element, kind) = match record.status {
        Status::Passed => return format!("{opening}/>\n"),
        Status::Refused => {
            let message = xml_escape(&format!("refused as listed: {}", record.detail));
            return format!(
                "{opening}>\n      <skipped message=\"{message}\"/>\n    </testcase>\n"
            );
        }
        Status::Failed => ("failure", "failed"),
        Status::TimedOut => ("failure", "timed_out"),
        Status::Slower => ("failure", "slower"),
        Status::Crashed => ("error", "crashed"),
        Status::OutOfMemory => ("error", "out_of_memory"),
        Status::Missing => ("error", "missing"),
    };
    format!(
        "{opening}>\n      <{element} type=\"{kind}\" message=\"{}\">{}</{element}>\n    </testcase>\n",
        xml_escape(first_line),
        xml_escape(&record.detail)
    )
}

/// The counts of a JUnit suite: tests, failures, errors, skipped, time.
fn junit_counts(records: &[&Record]) -> String {
    let count = |kinds: &[Status]| records.iter().filter(|r| kinds.contains(&r.status)).count();
    let failures = count(&[Status::Failed, Status::TimedOut, Status::Slower]);
    let errors = count(&[Status::Crashed, Status::OutOfMemory, Status::Missing]);
    let time: f64 = records.iter().map(|r| r.seconds).sum();
    format!(
        "tests=\"{}\" failures=\"{failures}\" errors=\"{errors}\" skipped=\"{}\" time=\"{time:.3}\"",
        records.len(),
        count(&[Status::Refused])
    )
}

/// JUnit XML as GitLab and GitHub read it: a suite per program directory,
/// a test case per case; a refusal as listed is skipped, a wrong answer, a
/// time-out or a slowdown a failure, a crash, running out of memory or a
/// missing record an error.
pub fn junit(records: &[Record]) -> String {
    let mut groups: BTreeMap<&str, Vec<&Record>> = BTreeMap::new();
    for record in records {
        groups.entry(record.group()).or_default().push(record);
    }
    let all: Vec<&Record> = records.iter().collect();
    let mut xml = format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"asp2sat test\" {}>\n",
        junit_counts(&all)
    );
    for (group, members) in groups {
        let _ = writeln!(
            xml,
            "  <testsuite name=\"{}\" {}>",
            xml_escape(group),
            junit_counts(&members)
        );
        for record in members {
            xml += &junit_case(record);
        }
        xml += "  </testsuite>\n";
    }
    xml + "</testsuites>\n"
}

/// The JSON records: an array, one record a line.
pub fn json(records: &[Record]) -> String {
    let lines: Vec<String> = (records.iter())
        .map(|record| serde_json::to_string(record).expect("a record is plain data"))
        .collect();
    if lines.is_empty() {
        return "[]\n".to_string();
    }
    format!("[\n{}\n]\n", lines.join(",\n"))
}

/// Reads [`json`]'s records back.
pub fn parse_json(text: &str) -> Result<Vec<Record>, String> {
    serde_json::from_str(text).map_err(|e| format!("not the JSON records of a run: {e}"))
}

/// Times below this count as this in a ratio (a millisecond).
const RATIO_FLOOR: f64 = 0.001;

/// The per-case table of two runs: each one's time, the ratio B/A, and the
/// statuses where they differ; then the geometric mean of the ratios and
/// the cases only one run has.
pub fn compare_runs(a: &[Record], b: &[Record]) -> String {
    let b_by_case: BTreeMap<&str, &Record> = b.iter().map(|r| (r.case.as_str(), r)).collect();
    let a_cases: std::collections::BTreeSet<&str> = a.iter().map(|r| r.case.as_str()).collect();
    let both: Vec<(&Record, &Record)> = (a.iter())
        .filter_map(|ra| b_by_case.get(ra.case.as_str()).map(|rb| (ra, *rb)))
        .collect();
    let width = both
        .iter()
        .map(|(r, _)| r.case.len())
        .max()
        .unwrap_or(4)
        .max(4);
    let mut text = format!(
        "{:width$}  {:>9}  {:>9}  {:>7}\n",
        "case", "A (s)", "B (s)", "B/A"
    );
    let mut log_sum = 0.0;
    for (ra, rb) in &both {
        let ratio = rb.seconds.max(RATIO_FLOOR) / ra.seconds.max(RATIO_FLOOR);
        log_sum += ratio.ln();
        let _ = write!(
            text,
            "{:width$}  {:>9.3}  {:>9.3}  {:>7.2}",
            ra.case, ra.seconds, rb.seconds, ratio
        );
        if ra.status != rb.status {
            let _ = write!(
                text,
                "  A {}, B {}",
                ra.status.describe(),
                rb.status.describe()
            );
        }
        text.push('\n');
    }
    if !both.is_empty() {
        let total = |side: &dyn Fn(&(&Record, &Record)) -> f64| both.iter().map(side).sum::<f64>();
        let _ = writeln!(
            text,
            "{} cases in both: A {:.3} s, B {:.3} s in all; geometric mean of B/A {:.3}",
            both.len(),
            total(&|(ra, _)| ra.seconds),
            total(&|(_, rb)| rb.seconds),
            (log_sum / both.len() as f64).exp()
        );
    }
    let only_a = a
        .iter()
        .filter(|r| !b_by_case.contains_key(r.case.as_str()))
        .count();
    let only_b = b
        .iter()
        .filter(|r| !a_cases.contains(r.case.as_str()))
        .count();
    if only_a + only_b > 0 {
        let _ = writeln!(text, "only in A: {only_a} cases; only in B: {only_b} cases");
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(case: &str, status: Status, detail: &str, seconds: f64) -> Record {
        Record {
            case: case.to_string(),
            dir: PathBuf::from("."),
            args: vec!["p.lp".into()],
            tool: "asp2sat".into(),
            backend: "varisat".into(),
            status,
            detail: detail.to_string(),
            result: Some("SATISFIABLE".into()),
            models: Some(1),
            costs: None,
            exit_code: Some(10),
            seconds,
            cpu_seconds: seconds,
            max_rss_kb: 1000,
            baseline: None,
        }
    }

    fn sample() -> Vec<Record> {
        vec![
            record("d/a", Status::Passed, "", 0.5),
            record(
                "d/b",
                Status::Failed,
                "1 answer sets where 2 are expected\n  missing (1x): {p}",
                0.25,
            ),
            record("e/c", Status::Refused, "#theory is not supported", 0.01),
            record(
                "e/d<&>",
                Status::Crashed,
                "killed by signal 11 (SIGSEGV)\x01",
                0.1,
            ),
        ]
    }

    #[test]
    fn the_summary_shows_what_went_wrong_and_counts() {
        let text = summary(&sample(), 1.25);
        assert_eq!(
            text,
            "FAILED d/b (0.25 s): 1 answer sets where 2 are expected\n    missing (1x): {p}\n\
             CRASHED e/d<&> (0.10 s): killed by signal 11 (SIGSEGV)\x01\n\
             refused as listed 1x: #theory is not supported\n\
             4 cases in 1.2 s: 1 passed, 1 refused as listed, 1 failed, 1 crashed\n"
        );
    }

    #[test]
    fn junit_is_well_formed_with_a_suite_per_directory() {
        let xml = junit(&sample());
        let document = roxmltree::Document::parse(&xml).unwrap();
        let root = document.root_element();
        assert_eq!(root.attribute("tests"), Some("4"));
        assert_eq!(root.attribute("failures"), Some("1"));
        assert_eq!(root.attribute("errors"), Some("1"));
        assert_eq!(root.attribute("skipped"), Some("1"));
        let suites: Vec<_> = root
            .children()
            .filter(|n| n.has_tag_name("testsuite"))
            .collect();
        assert_eq!(suites.len(), 2);
        let crashed = document
            .descendants()
            .find(|n| n.attribute("name") == Some("d<&>"))
            .unwrap();
        let error = crashed
            .children()
            .find(|n| n.has_tag_name("error"))
            .unwrap();
        assert_eq!(error.text(), Some("killed by signal 11 (SIGSEGV)\u{fffd}"));
    }

    #[test]
    fn records_are_read_back() {
        let records = sample();
        assert_eq!(parse_json(&json(&records)).unwrap(), records);
        assert_eq!(json(&[]), "[]\n");
    }

    #[test]
    fn two_runs_are_compared_case_by_case() {
        let a = sample();
        let mut b = sample();
        b[0].seconds = 1.0;
        b[1].status = Status::Passed;
        b.pop();
        let table = compare_runs(&a, &b);
        let lines: Vec<&str> = table.lines().collect();
        assert_eq!(lines[0], "case      A (s)      B (s)      B/A");
        assert_eq!(lines[1], "d/a       0.500      1.000     2.00");
        assert!(lines[2].ends_with("1.00  A failed, B passed"), "{table}");
        assert!(
            lines[4].starts_with("3 cases in both: A 0.760 s, B 1.260 s"),
            "{table}"
        );
        assert_eq!(lines[5], "only in A: 1 cases; only in B: 0 cases");
    }
}
