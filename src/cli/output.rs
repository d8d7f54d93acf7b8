//! clingo's output formats: text (`--outf=0`) and JSON (`--outf=2`).
//!
//! Pure formatting: these functions return strings or write into any
//! `std::io::Write` the caller gives; [`super`] decides where output goes.

use crate::solve::optimize::OptMode;
use crate::symbols::DisplaySymbol;
use std::fmt::Write as _;
use std::io;
use std::time::Duration;

pub const VERSION_LINE: &str = concat!("asp2sat version ", env!("CARGO_PKG_VERSION"));

/// How the search ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Stopped after the requested number of models; more may exist.
    Satisfiable,
    /// Every answer set was enumerated (at least one).
    Exhausted,
    Unsatisfiable,
    /// Interrupted (time limit) before the search finished.
    Unknown,
}

impl Outcome {
    /// clingo's exit code: 10 model found, 20 unsatisfiable, 30 search
    /// exhausted with models; +1 when interrupted; 0 when unknown.
    pub fn exit_code(self, models: usize, interrupted: bool) -> u8 {
        let base = match self {
            Outcome::Satisfiable => 10,
            Outcome::Exhausted => 30,
            Outcome::Unsatisfiable => 20,
            Outcome::Unknown if models > 0 => 10,
            Outcome::Unknown => 0,
        };
        base + u8::from(interrupted)
    }

    fn result(self, models: usize) -> &'static str {
        match self {
            Outcome::Satisfiable | Outcome::Exhausted => "SATISFIABLE",
            Outcome::Unsatisfiable => "UNSATISFIABLE",
            Outcome::Unknown if models > 0 => "SATISFIABLE",
            Outcome::Unknown => "UNKNOWN",
        }
    }

    fn more(self) -> bool {
        matches!(self, Outcome::Satisfiable | Outcome::Unknown)
    }
}

/// Wall-clock times of the run, for the summary.
#[derive(Clone, Copy, Debug, Default)]
pub struct Timings {
    pub parse: Duration,
    pub ground: Duration,
    pub translate: Duration,
    pub solve: Duration,
    pub first_model: Option<Duration>,
    /// Time spent after the last model proving there are no more.
    pub unsat: Duration,
    pub total: Duration,
    /// The process's processor time (user and system).
    pub cpu: Duration,
}

/// Sizes for `--stats`, and the SAT solver that searched.
#[derive(Clone, Copy, Debug, Default)]
pub struct Sizes {
    /// `--solver`'s name.
    pub solver: &'static str,
    pub atoms: usize,
    pub rules: usize,
    pub variables: usize,
    pub clauses: usize,
    pub loop_rounds: usize,
    /// The conflicts of the SAT solver that answered the call, over all its
    /// searches (those of the solver kept across incremental steps: every
    /// step's so far).
    pub conflicts: u64,
}

/// `--outf`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Text,
    /// The ASP competition's: `ANSWER`, `COST`, `OPTIMUM`, `INCONSISTENT`,
    /// everything else a `%` comment.
    Competition,
    Json,
    Nothing,
}

/// `--verbose`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verbosity {
    /// `-V0`: the models and the result only.
    Quiet,
    Normal,
}

/// How the text formats print.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Style {
    pub format: Format,
    pub verbosity: Verbosity,
}

impl Style {
    /// A line of clingo's own (header, summary): `% ` in front in the
    /// competition format; `None` when it is not printed.
    fn comment(self) -> Option<&'static str> {
        match (self.format, self.verbosity) {
            (Format::Text, Verbosity::Normal) => Some(""),
            (Format::Competition, _) => Some("% "),
            _ => None,
        }
    }
}

/// clingo's header, before grounding: its version and the inputs.
pub fn write_header(out: &mut impl io::Write, style: Style, inputs: &[String]) -> io::Result<()> {
    match style.comment() {
        Some(prefix) => writeln!(
            out,
            "{prefix}{VERSION_LINE}\n{prefix}{}",
            reading_line(inputs)
        ),
        None => Ok(()),
    }
}

/// `Solving...`, before each solver call.
pub fn write_solving(out: &mut impl io::Write, style: Style) -> io::Result<()> {
    match style.comment() {
        Some(prefix) => writeln!(out, "{prefix}Solving..."),
        None => Ok(()),
    }
}

/// clingo's `Reading from`: `stdin` when no file is named, `-` when it
/// is named so.
fn reading_line(inputs: &[String]) -> String {
    match inputs {
        [] => "Reading from stdin".to_string(),
        [one] => format!("Reading from {}", shown_name(one)),
        [first, ..] => format!("Reading from {} ...", shown_name(first)),
    }
}

/// The longest file name clingo shows whole in `Reading from`.
const SHOWN_NAME_MAX: usize = 39;

/// A file's name as clingo shows it: whole up to [`SHOWN_NAME_MAX`]
/// bytes, else `...` and its last bytes, one fewer. clingo cuts at a byte,
/// perhaps inside a character; the cut here moves on to the next
/// character, so that the line stays text.
fn shown_name(name: &str) -> std::borrow::Cow<'_, str> {
    if name.len() <= SHOWN_NAME_MAX {
        return name.into();
    }
    let mut start = name.len() - (SHOWN_NAME_MAX - 1);
    while !name.is_char_boundary(start) {
        start += 1;
    }
    format!("...{}", &name[start..]).into()
}

/// An atom of an answer as [`write_answer`] writes it: its text, or its
/// symbol, formatted on the way.
pub trait AtomText {
    fn write_to(&self, out: &mut impl io::Write) -> io::Result<()>;
}

impl AtomText for &str {
    fn write_to(&self, out: &mut impl io::Write) -> io::Result<()> {
        out.write_all(self.as_bytes())
    }
}

impl AtomText for DisplaySymbol<'_> {
    fn write_to(&self, out: &mut impl io::Write) -> io::Result<()> {
        write!(out, "{self}")
    }
}

/// Writes one answer as clingo does, symbol by symbol: an answer set of a
/// grounding-heavy program has hundreds of thousands of atoms, too many to
/// render into one string first.
pub fn write_answer(
    out: &mut impl io::Write,
    style: Style,
    number: usize,
    atoms: impl Iterator<Item = impl AtomText>,
) -> io::Result<()> {
    let terminator = match style.format {
        Format::Competition => {
            writeln!(out, "% Answer: {number}\nANSWER")?;
            "."
        }
        _ if style.verbosity == Verbosity::Quiet => "",
        _ => {
            writeln!(out, "Answer: {number}")?;
            ""
        }
    };
    for (i, atom) in atoms.enumerate() {
        if i > 0 {
            out.write_all(b" ")?;
        }
        atom.write_to(out)?;
        out.write_all(terminator.as_bytes())?;
    }
    writeln!(out)
}

/// The cost vector clingo prints after a model: `Optimization: c1 .. ck`,
/// `COST c1 .. ck` in the competition format.
pub fn write_costs(out: &mut impl io::Write, style: Style, costs: &[i64]) -> io::Result<()> {
    match style.format {
        Format::Competition => writeln!(out, "COST {}", joined(costs, " ")),
        _ => writeln!(out, "Optimization: {}", joined(costs, " ")),
    }
}

/// clingo's `Consequences: [lower;upper]` after a model of
/// `--enum-mode=brave` or `cautious`: the symbols known to be consequences
/// and those that may still be.
pub fn write_consequences(
    out: &mut impl io::Write,
    (lower, upper): (usize, usize),
) -> io::Result<()> {
    writeln!(out, "Consequences: [{lower};{upper}]")
}

/// The costs separated by `separator`.
fn joined(costs: &[i64], separator: &str) -> String {
    let costs: Vec<String> = costs.iter().map(i64::to_string).collect();
    costs.join(separator)
}

/// What the summary says about optimization, for a program that
/// optimizes (and a mode other than `ignore`).
#[derive(Clone, Debug, Default)]
pub struct OptimizationSummary {
    pub mode: OptMode,
    /// The cost vector of the last model printed.
    pub costs: Option<Vec<i64>>,
    /// Optimal answer sets printed (with `optN`; with `opt`, 1 once the
    /// optimum is proven).
    pub optimal: usize,
    /// The optimum is proven (with `enum`: every answer set was printed).
    pub proven: bool,
}

/// Why a run stopped before its search ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Interruption {
    /// `--time-limit`.
    TimeLimit,
    /// SIGINT or SIGTERM.
    Signal,
}

impl Interruption {
    /// The summary's key: `TIME LIMIT : 1` or `INTERRUPTED : 1`.
    fn key(self) -> &'static str {
        match self {
            Interruption::TimeLimit => "TIME LIMIT",
            Interruption::Signal => "INTERRUPTED",
        }
    }
}

pub struct Summary<'a> {
    pub outcome: Outcome,
    pub interrupted: Option<Interruption>,
    /// With `--enum-mode=brave` or `cautious`.
    pub consequences: Option<ConsequenceSummary>,
    pub models: usize,
    /// Solver calls: one, or one per step of incremental mode.
    pub calls: usize,
    pub timings: &'a Timings,
    pub stats: Option<&'a Sizes>,
    pub optimization: Option<&'a OptimizationSummary>,
    /// With `--explain`, when there is no answer set: the statements to
    /// blame.
    pub explanation: Option<&'a [Blamed]>,
}

/// What the summary says of brave or cautious consequences.
#[derive(Clone, Copy, Debug)]
pub struct ConsequenceSummary {
    /// `Brave` or `Cautious`.
    pub kind: &'static str,
    /// The consequences found.
    pub count: usize,
    /// The symbols that may still be consequences but are not counted:
    /// none once the search ended.
    pub open: usize,
}

/// A statement of `--explain`'s minimal set without answer sets, located
/// as the JSON output names it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Blamed {
    pub file: String,
    /// 1-based, where the statement starts.
    pub line: usize,
    pub column: usize,
    /// The statement as written.
    pub text: String,
}

/// The explanation after the summary in the text formats: the located
/// messages as they are, `%` comments in the competition format.
pub fn explanation_text(style: Style, messages: &str) -> String {
    match style.format {
        Format::Competition => messages.lines().map(|l| format!("% {l}\n")).collect(),
        Format::Text => messages.to_string(),
        Format::Json | Format::Nothing => String::new(),
    }
}

impl Summary<'_> {
    /// clingo's result line: `OPTIMUM FOUND` once the optimum is proven,
    /// even when `-n` stopped the enumeration of the optimal answer sets.
    fn result(&self) -> &'static str {
        if self.optimization().is_some_and(|o| o.proven) {
            "OPTIMUM FOUND"
        } else {
            self.outcome.result(self.models)
        }
    }

    /// The optimization lines apply: an optimizing run that found models.
    fn optimization(&self) -> Option<&OptimizationSummary> {
        self.optimization.filter(|_| self.models > 0)
    }
}

/// The result and summary after the models: clingo's, the competition
/// format's result word and `%` comments, or (`-V0`) the result alone.
pub fn summary_text(s: &Summary<'_>, style: Style) -> String {
    let t = s.timings;
    let mut out = String::new();
    // `-V0 --stats` still prints the summary and the statistics, as clingo.
    let with_stats = (s.stats.is_some() && style.format == Format::Text).then_some("");
    let Some(prefix) = style.comment().or(with_stats) else {
        if style.format == Format::Text {
            let _ = writeln!(out, "{}", s.result());
        }
        return out;
    };
    let competition = style.format == Format::Competition;
    if competition {
        let word = match s.result() {
            "UNSATISFIABLE" => Some("INCONSISTENT"),
            "OPTIMUM FOUND" => Some("OPTIMUM"),
            "UNKNOWN" => Some("UNKNOWN"),
            _ => None,
        };
        if let Some(word) = word {
            let _ = writeln!(out, "{word}");
        }
        let _ = writeln!(out, "% ");
    } else {
        let _ = writeln!(out, "{}\n", s.result());
    }
    // The competition format's labels are two columns wider.
    let width = if competition { 15 } else { 13 };
    let line = |out: &mut String, label: &str, value: std::fmt::Arguments<'_>| {
        let _ = writeln!(out, "{prefix}{label:<width$}: {value}");
    };
    if let Some(interruption) = s.interrupted {
        line(&mut out, interruption.key(), format_args!("1"));
    }
    let more = if s.outcome.more() { "+" } else { "" };
    line(&mut out, "Models", format_args!("{}{more}", s.models));
    // clingo: the kind of consequences, the optimization lines, then
    // their count.
    if let Some(consequences) = s.consequences {
        let proven = if s.interrupted.is_none() {
            "yes"
        } else {
            "unknown"
        };
        line(
            &mut out,
            &format!("  {}", consequences.kind),
            format_args!("{proven}"),
        );
    }
    if let Some(optimization) = s.optimization() {
        let proven = if optimization.proven {
            "yes"
        } else {
            "unknown"
        };
        line(&mut out, "  Optimum", format_args!("{proven}"));
        // clingo prints the count of optimal answer sets only above 1.
        if optimization.mode == OptMode::OptN && optimization.optimal > 1 {
            line(
                &mut out,
                "  Optimal",
                format_args!("{}", optimization.optimal),
            );
        }
        if let Some(costs) = &optimization.costs
            && optimization.mode != OptMode::Enum
        {
            line(
                &mut out,
                "Optimization",
                format_args!("{}", joined(costs, " ")),
            );
        }
    }
    if let Some(consequences) = s.consequences {
        line(
            &mut out,
            "Consequences",
            format_args!("{}", consequences.count),
        );
    }
    line(&mut out, "Calls", format_args!("{}", s.calls.max(1)));
    line(
        &mut out,
        "Time",
        format_args!(
            "{:.3}s (Solving: {:.2}s 1st Model: {:.2}s Unsat: {:.2}s)",
            t.total.as_secs_f64(),
            t.solve.as_secs_f64(),
            t.first_model.unwrap_or_default().as_secs_f64(),
            t.unsat.as_secs_f64()
        ),
    );
    line(
        &mut out,
        "CPU Time",
        format_args!("{:.3}s", t.cpu.as_secs_f64()),
    );
    if let Some(sizes) = s.stats {
        let _ = writeln!(out, "{}", prefix.trim_end());
        line(&mut out, "SAT solver", format_args!("{}", sizes.solver));
        for (name, time) in [
            ("Parse", t.parse),
            ("Ground", t.ground),
            ("Translate", t.translate),
            ("Solve", t.solve),
        ] {
            line(&mut out, name, format_args!("{:.3}s", time.as_secs_f64()));
        }
        for (name, value) in [
            ("Conflicts", sizes.conflicts as usize),
            ("Atoms", sizes.atoms),
            ("Rules", sizes.rules),
            ("Variables", sizes.variables),
            ("Clauses", sizes.clauses),
            ("Loop rounds", sizes.loop_rounds),
        ] {
            line(&mut out, name, format_args!("{value}"));
        }
    }
    out
}

fn json_string(s: &str) -> String {
    serde_json::to_string(s).expect("strings always serialise")
}

/// A model as the JSON output lists it.
#[derive(Clone, Debug, Default)]
pub struct Witness {
    pub atoms: Vec<String>,
    /// The cost vector, for a program that optimizes.
    pub costs: Option<Vec<i64>>,
    /// With `--enum-mode=brave` or `cautious`: clingo's `[lower;upper]`.
    pub consequences: Option<(usize, usize)>,
}

/// clingo's `--outf=2` document, laid out as clingo lays it out and
/// written as clingo writes it, piece by piece while the run goes on: a
/// reader sees each model when it is found (`| head` ends the run), and a
/// long enumeration keeps no list of its models. Each method returns the
/// next piece of text.
#[derive(Default)]
pub struct JsonDocument {
    /// Solver calls opened so far.
    calls: usize,
    /// Models listed in the open call.
    witnesses: usize,
}

impl JsonDocument {
    /// Opens a solver call, and before the first one the document.
    pub fn open_call(&mut self, inputs: &[String]) -> String {
        let mut out = String::new();
        if self.calls == 0 {
            let _ = writeln!(out, "{{\n  \"Solver\": {},", json_string(VERSION_LINE));
            let input: Vec<String> = if inputs.is_empty() {
                vec![json_string("stdin")]
            } else {
                inputs.iter().map(|i| json_string(i)).collect()
            };
            let _ = writeln!(out, "  \"Input\": [\n    {}\n  ],", input.join(", "));
            out.push_str("  \"Call\": [\n");
        } else {
            out.push_str(self.close_call());
            out.push_str(",\n");
        }
        self.calls += 1;
        self.witnesses = 0;
        out.push_str("    {\n");
        out
    }

    fn close_call(&self) -> &'static str {
        if self.witnesses > 0 {
            "\n      ]\n    }"
        } else {
            "\n    }"
        }
    }

    /// A model of the open call.
    pub fn witness(&mut self, w: &Witness) -> String {
        let mut out = String::from(if self.witnesses == 0 {
            "      \"Witnesses\": [\n"
        } else {
            ",\n"
        });
        self.witnesses += 1;
        let mut values = Vec::new();
        for (i, atom) in w.atoms.iter().enumerate() {
            if i > 0 {
                values.extend_from_slice(b", ");
            }
            serde_json::to_writer(&mut values, atom).expect("strings always serialise");
        }
        out.push_str("        {\n          \"Value\": [\n            ");
        out.push_str(std::str::from_utf8(&values).expect("JSON is UTF-8"));
        out.push_str("\n          ]");
        if let Some((lower, upper)) = w.consequences {
            let _ = write!(
                out,
                ",\n          \"Consequences\": {{\n            \"True\": {lower},\n            \"Open\": {}\n          }}",
                upper - lower
            );
        }
        if let Some(costs) = &w.costs {
            let _ = write!(
                out,
                ",\n          \"Costs\": [\n            {}\n          ]",
                joined(costs, ", ")
            );
        }
        out.push_str("\n        }");
        out
    }

    /// The rest of the document: the summary. A run that stopped before its
    /// first call still lists one, empty.
    pub fn close(&mut self, inputs: &[String], s: &Summary<'_>) -> String {
        let mut out = String::new();
        if self.calls == 0 {
            out = self.open_call(inputs);
        }
        out.push_str(self.close_call());
        out.push_str("\n  ],\n");
        out.push_str(&json_summary(s));
        out
    }
}

/// The JSON document's keys after `Call`.
fn json_summary(s: &Summary<'_>) -> String {
    let t = s.timings;
    let mut out = String::new();
    let _ = writeln!(out, "  \"Result\": {},", json_string(s.result()));
    if let Some(interruption) = s.interrupted {
        let _ = writeln!(out, "  \"{}\": 1,", interruption.key());
    }
    let more = if s.outcome.more() { "yes" } else { "no" };
    let _ = write!(
        out,
        "  \"Models\": {{\n    \"Number\": {},\n    \"More\": \"{more}\"",
        s.models
    );
    if let Some(consequences) = s.consequences {
        let _ = write!(
            out,
            ",\n    \"{}\": \"yes\",\n    \"Consequences\": {{\n      \"True\": {},\n      \"Open\": {}\n    }}",
            consequences.kind, consequences.count, consequences.open
        );
    }
    // clingo leaves the optimum out of the JSON of `--opt-mode=enum`.
    if let Some(optimization) = s.optimization()
        && optimization.mode != OptMode::Enum
    {
        let proven = optimization.proven;
        let _ = write!(
            out,
            ",\n    \"Optimum\": \"{}\",\n    \"Optimal\": {}",
            if proven { "yes" } else { "unknown" },
            optimization.optimal
        );
        if let Some(costs) = &optimization.costs {
            let _ = write!(
                out,
                ",\n    \"Costs\": [\n      {}\n    ]",
                joined(costs, ", ")
            );
        }
    }
    out.push_str("\n  },\n");
    let _ = writeln!(out, "  \"Calls\": {},", s.calls.max(1));
    if let Some(blamed) = s.explanation {
        let statements: Vec<String> = (blamed.iter())
            .map(|b| {
                format!(
                    "    {{\n      \"File\": {},\n      \"Line\": {},\n      \"Column\": {},\n      \"Text\": {}\n    }}",
                    json_string(&b.file),
                    b.line,
                    b.column,
                    json_string(&b.text)
                )
            })
            .collect();
        if statements.is_empty() {
            out.push_str("  \"Explanation\": [],\n");
        } else {
            let _ = writeln!(
                out,
                "  \"Explanation\": [\n{}\n  ],",
                statements.join(",\n")
            );
        }
    }
    let _ = write!(
        out,
        "  \"Time\": {{\n    \"Total\": {:.3},\n    \"Solve\": {:.3},\n    \"Model\": {:.3},\n    \"Unsat\": {:.3},\n    \"CPU\": {:.3}\n  }}",
        t.total.as_secs_f64(),
        t.solve.as_secs_f64(),
        t.first_model.unwrap_or_default().as_secs_f64(),
        t.unsat.as_secs_f64(),
        t.cpu.as_secs_f64()
    );
    if let Some(sizes) = s.stats {
        let _ = write!(
            out,
            ",\n  \"Stats\": {{\n    \"SatSolver\": {},\n    \"Parse\": {:.3},\n    \"Ground\": {:.3},\n    \"Translate\": {:.3},\n    \"Atoms\": {},\n    \"Rules\": {},\n    \"Variables\": {},\n    \"Clauses\": {},\n    \"LoopRounds\": {},\n    \"Conflicts\": {}\n  }}",
            json_string(sizes.solver),
            t.parse.as_secs_f64(),
            t.ground.as_secs_f64(),
            t.translate.as_secs_f64(),
            sizes.atoms,
            sizes.rules,
            sizes.variables,
            sizes.clauses,
            sizes.loop_rounds,
            sizes.conflicts
        );
    }
    out.push_str("\n}\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The whole document of a run whose calls found `calls`.
    fn json(inputs: &[String], calls: &[Vec<Witness>], s: &Summary<'_>) -> String {
        let mut document = JsonDocument::default();
        let mut out = String::new();
        for witnesses in calls {
            out += &document.open_call(inputs);
            for w in witnesses {
                out += &document.witness(w);
            }
        }
        out + &document.close(inputs, s)
    }

    #[test]
    fn reading_from_cuts_long_names_as_clingo_does() {
        // clingo 5.4 and 5.8 alike: whole up to 39 bytes, else the last 38.
        let name = |length: usize| format!("{}/x.lp", "b".repeat(length - 5));
        assert_eq!(
            reading_line(&[name(39)]),
            format!("Reading from {}", name(39))
        );
        assert_eq!(
            reading_line(&[name(40)]),
            format!("Reading from ...{}", name(38))
        );
        assert_eq!(
            reading_line(&[name(60), "x.lp".to_string()]),
            format!("Reading from ...{} ...", name(38))
        );
        // 21 two-byte characters: the cut moves off the middle of one.
        let wide = format!("{}/x.lp", "é".repeat(21));
        assert_eq!(
            reading_line(&[wide]),
            format!("Reading from ...{}/x.lp", "é".repeat(16))
        );
        assert_eq!(reading_line(&[]), "Reading from stdin");
    }

    #[test]
    fn exit_codes_follow_clingo() {
        assert_eq!(Outcome::Satisfiable.exit_code(1, false), 10);
        assert_eq!(Outcome::Unsatisfiable.exit_code(0, false), 20);
        assert_eq!(Outcome::Exhausted.exit_code(3, false), 30);
        assert_eq!(Outcome::Unknown.exit_code(0, true), 1);
        assert_eq!(Outcome::Unknown.exit_code(2, true), 11);
    }

    #[test]
    fn json_is_valid_and_has_clingo_shape() {
        let timings = Timings::default();
        let summary = Summary {
            outcome: Outcome::Exhausted,
            interrupted: None,
            consequences: None,
            models: 3,
            calls: 2,
            timings: &timings,
            stats: None,
            optimization: None,
            explanation: None,
        };
        let text = json(
            &["a.lp".into()],
            &[
                vec![
                    Witness {
                        atoms: vec!["a".into()],
                        costs: None,
                        consequences: None,
                    },
                    Witness {
                        atoms: vec!["a".into(), "\"s\"".into()],
                        costs: None,
                        consequences: None,
                    },
                ],
                vec![Witness {
                    atoms: vec!["b".into()],
                    costs: None,
                    consequences: Some((1, 2)),
                }],
            ],
            &summary,
        );
        let v: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(v["Call"][0]["Witnesses"][1]["Value"][1], "\"s\"");
        assert_eq!(v["Call"][1]["Witnesses"][0]["Value"][0], "b");
        assert_eq!(v["Call"][1]["Witnesses"][0]["Consequences"]["Open"], 1);
        assert_eq!(v["Calls"], 2);
        assert_eq!(v["Models"]["Number"], 3);
        assert_eq!(v["Models"]["More"], "no");
        assert_eq!(v["Result"], "SATISFIABLE");
    }

    #[test]
    fn json_without_witnesses_is_valid() {
        let timings = Timings::default();
        let summary = Summary {
            outcome: Outcome::Unsatisfiable,
            interrupted: Some(Interruption::TimeLimit),
            consequences: None,
            models: 0,
            calls: 0,
            timings: &timings,
            stats: None,
            optimization: None,
            explanation: None,
        };
        let v: serde_json::Value = serde_json::from_str(&json(&[], &[], &summary)).unwrap();
        assert!(v.get("Explanation").is_none());
        assert_eq!(v["Result"], "UNSATISFIABLE");
        assert_eq!(v["TIME LIMIT"], 1);
        assert_eq!(v["Input"][0], "stdin");
        assert_eq!(v["Call"].as_array().map(Vec::len), Some(1));
    }

    #[test]
    fn json_explanation_is_valid() {
        let timings = Timings::default();
        let blamed = [Blamed {
            file: "p.lp".into(),
            line: 3,
            column: 1,
            text: "q(\"a\").".into(),
        }];
        for explanation in [&blamed[..], &[]] {
            let summary = Summary {
                outcome: Outcome::Unsatisfiable,
                interrupted: None,
                consequences: None,
                models: 0,
                calls: 1,
                timings: &timings,
                stats: None,
                optimization: None,
                explanation: Some(explanation),
            };
            let v: serde_json::Value = serde_json::from_str(&json(&[], &[], &summary)).unwrap();
            let listed = v["Explanation"].as_array().unwrap();
            assert_eq!(listed.len(), explanation.len());
            if let Some(first) = listed.first() {
                assert_eq!(first["File"], "p.lp");
                assert_eq!(first["Line"], 3);
                assert_eq!(first["Column"], 1);
                assert_eq!(first["Text"], "q(\"a\").");
            }
        }
    }
}
