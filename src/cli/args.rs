//! The command line's flags: clap parses the raw arguments into [`Args`],
//! which are validated into a [`Config`].
//!
//! clingo's invocation is accepted as it is: `solve` is the default
//! subcommand (`asp2sat [FILES] [N] [OPTIONS]`, standard input when there
//! are no files), clingo's short forms (`-V0`, `-q2`, `-W none`, `-t 2`)
//! and optional values (`--stats=2`, `--project=show`, `--help=2`) are
//! read as clingo reads them, and clingo's solver-tuning options set
//! the search of asp2sat's solver (`--solver`) where it has a counterpart,
//! and are otherwise accepted with one info line ([`TUNING_OPTIONS`]).

use super::output::{Format, Verbosity};
use super::pictures::Pictures;
use crate::solve::backend::Backend;
use crate::solve::driver::{Consequences, Plan};
use crate::solve::explain::Scope;
use crate::solve::optimize::{OptMode, Strategy};
use crate::solve::portfolio::{self, Mode, Parallel};
use crate::solve::{SearchTuning, TranslationMode};
use clap::{Parser, Subcommand};
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The exit codes, as `--help` lists them.
const EXIT_CODES: &str = "\
Exit codes of solve (clingo's): 10 an answer set was found, 20 there is \
none, 30 every answer set was found; 1 more when the search was interrupted \
(a time limit or a signal), 0 or 1 when it stopped before any result; 65 \
an error in the input; 1 an option not accepted; 74 the output could not be \
written.";

/// `solve`'s `--help` after the flags: clingo's tuning options, then the
/// exit codes.
fn solve_after_help() -> String {
    let others: Vec<String> = (TUNING_OPTIONS.iter())
        .filter(|(name, _, _)| !["restarts", "heuristic", "parallel-mode"].contains(name))
        .map(|(name, _, _)| format!("--{name}"))
        .collect();
    format!(
        "clingo's solver-tuning options, read as clingo reads them:\n  \
         -r, --restarts=L,<n>     the solver restarts on Luby's sequence with unit n \
         (CaDiCaL: in its stable mode; other sequences: no effect)\n  \
         --heuristic=Vsids[,<n>]  the solver's VSIDS decay is 0.<n> (0.95 without n; \
         from 0.5 to below 1; other heuristics: no effect)\n  \
         -t, --parallel-mode=<n>[,compete|split]  n threads from 1 to 64: compete races \
         n differently tuned searches for the first answer set, split divides the \
         answer sets among the threads (also compete's for -n other than 1)\n\
         Accepted with one info line, without effect (the solver has no counterpart; \
         asp2sat gives it no seed, so --seed has none): {}.\n\n{EXIT_CODES}",
        others.join(", ")
    )
}

#[derive(Parser, Debug)]
#[command(
    name = "asp2sat",
    version,
    disable_version_flag = true,
    about = "Ground answer set programs and solve them with a SAT solver.\n\
             Accepts clingo 4+, gringo 3/lparse and DLV syntax in one language.\n\
             `asp2sat [FILES] [N] [OPTIONS]` is `asp2sat solve`, as clingo is invoked.",
    after_help = EXIT_CODES
)]
pub struct Args {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Compute answer sets, printed as clingo prints them (the default).
    #[command(after_help = solve_after_help())]
    Solve(SolveArgs),
    /// Write a DIMACS CNF whose models are exactly the answer sets, one
    /// model each, with a symbol table and projection lines for the shown
    /// atoms.
    Dimacs(DimacsArgs),
    /// Print the ground program after simplification, in clingo's `--text`
    /// syntax (the same as `solve --text`).
    Ground(GroundArgs),
    /// Draw the `vis*` atoms of each answer set (Kara's visualisation
    /// language) as an SVG picture: to standard output for one answer set,
    /// else to the files `-o PATTERN` names (`%n`: the answer set's
    /// number). Takes solve's flags; nothing else is printed.
    Render(SolveArgs),
    /// Solve, and when there is no answer set, name a minimal set of
    /// statements that has none (the same as `solve --explain`;
    /// `--explain=facts` or `--explain=rules` blames only those).
    #[command(after_help = solve_after_help())]
    Explain(SolveArgs),
    /// Run folders of cases against their recorded answers, in parallel and
    /// each within limits, or record the answers (regression runs).
    Test(super::regress::TestArgs),
}

#[derive(clap::Args, Debug)]
pub struct GroundArgs {
    /// Input files; `-` or none reads standard input.
    pub inputs: Vec<String>,
    /// Replace `#const NAME = ...` with VALUE.
    #[arg(short = 'c', long = "const", value_name = "NAME=VALUE")]
    pub consts: Vec<String>,
}

#[derive(clap::Args, Debug)]
pub struct DimacsArgs {
    /// Input files; `-` or none reads standard input.
    pub inputs: Vec<String>,
    /// Replace `#const NAME = ...` with VALUE.
    #[arg(short = 'c', long = "const", value_name = "NAME=VALUE")]
    pub consts: Vec<String>,
    /// Write the CNF to FILE instead of standard output (a regular file
    /// atomically: a temporary file in its directory, renamed when
    /// complete).
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Print the sizes of the program and of the CNF, split by origin, to
    /// standard error.
    #[arg(long)]
    pub stats: bool,
    /// Write a weighted CNF for MaxSAT solvers (the MaxSAT Evaluation's
    /// WCNF): the same hard clauses, and one soft clause per cost element
    /// of the optimize statements, priorities folded into weights.
    #[arg(long)]
    pub wcnf: bool,
}

/// `--explain` of `solve`.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum ExplainArg {
    /// Facts, rules and constraints.
    All,
    /// Facts only: the rules are hard (which givens contradict each other).
    Facts,
    /// Rules and constraints only: the facts are hard.
    Rules,
}

/// `--translation` of `solve`.
#[derive(clap::ValueEnum, Clone, Copy, Debug, Default, PartialEq, Eq)]
enum TranslationArg {
    /// Completion plus loop formulas added when a model is unfounded.
    #[default]
    Lazy,
    /// The exact CNF of `asp2sat dimacs` (level ranking): no loop formulas.
    Eager,
}

/// `--solver` of `solve`: every name, whether built in or not, so that a
/// build without one names the feature it needs.
#[derive(clap::ValueEnum, Clone, Copy, Debug, Default, PartialEq, Eq)]
enum SolverArg {
    /// Chosen by the program: batsat for non-tight programs, CaDiCaL for
    /// weight constraints, varisat for the rest.
    #[default]
    Auto,
    /// varisat, a CDCL solver in Rust.
    Varisat,
    /// CaDiCaL, in a build with the cargo feature `cadical` (a default).
    Cadical,
    /// batsat, in a build with the cargo feature `batsat` (a default).
    Batsat,
}

impl SolverArg {
    /// The backend named, `None` for the automatic choice.
    fn backend(self) -> Result<Option<Backend>, String> {
        let name = match self {
            SolverArg::Auto => return Ok(None),
            SolverArg::Varisat => "varisat",
            SolverArg::Cadical => "cadical",
            SolverArg::Batsat => "batsat",
        };
        match Backend::ALL.iter().find(|b| b.name() == name) {
            Some(&backend) => Ok(Some(backend)),
            None => Err(format!(
                "--solver={name} needs asp2sat built with the cargo feature `{name}` \
                 (a default feature: cargo build --release)"
            )),
        }
    }
}

#[derive(clap::Args, Debug)]
pub struct SolveArgs {
    /// Input files; `-` or none reads standard input. A bare number is
    /// taken as the number of models, as clingo does (`asp2sat 0 f.lp`).
    inputs: Vec<String>,
    /// Number of answer sets to compute; 0 computes all.
    #[arg(short = 'n', long = "models", value_name = "N")]
    models: Option<usize>,
    /// Replace `#const NAME = ...` with VALUE.
    #[arg(short = 'c', long = "const", value_name = "NAME=VALUE")]
    consts: Vec<String>,
    /// Output format: 0 clingo's text, 1 the ASP competition's format, 2
    /// clingo's JSON, 3 none (only the exit code tells the result).
    #[arg(long = "outf", value_name = "N", default_value_t = 0, value_parser = clap::value_parser!(u8).range(0..=3))]
    outf: u8,
    /// Print each distinct projection of the answer sets once: onto the
    /// `#project` atoms (`project`), the shown atoms (`show`), the former
    /// when there are any (`auto`, the default of a bare `--project`), or
    /// not (`no`).
    #[arg(long, value_name = "MODE", num_args = 0..=1, require_equals = true, default_missing_value = "auto")]
    project: Option<String>,
    /// What to print, as clingo's `--quiet=<models>[,<costs>[,<calls>]]`:
    /// each 0 (all), 1 (the last, or the optimal ones) or 2 (none); `-q`
    /// alone prints only the summary.
    #[arg(short = 'q', long, value_name = "LEVELS", num_args = 0..=1, require_equals = true, default_missing_value = "2")]
    quiet: Option<String>,
    /// 0 prints the answer sets and the result only, 1 (the default) also
    /// clingo's header and summary; higher levels are 1.
    #[arg(short = 'V', long, value_name = "N", num_args = 0..=1, require_equals = true, default_missing_value = "1")]
    verbose: Option<u8>,
    /// Messages to print (clingo's `-W`): `none`, `all`, or `[no-]GROUP` for
    /// the groups atom-undefined, file-included, operation-undefined,
    /// variable-unbounded, global-variable and other. Errors are always
    /// printed.
    #[arg(short = 'W', long = "warn", value_name = "WARN")]
    warn: Vec<String>,
    /// How optimize statements are used: `opt` finds an optimal answer set
    /// (printing each better one on the way), `optN` then enumerates the
    /// optimal ones, `enum` enumerates answer sets with their costs,
    /// `ignore` ignores the statements.
    #[arg(long = "opt-mode", value_name = "MODE", default_value = "opt")]
    opt_mode: String,
    /// How the optimum is searched for: `usc` (the default) is guided by
    /// unsatisfiable cores, `bb` tightens a bound after each answer set and
    /// prints each better one.
    #[arg(long = "opt-strategy", value_name = "STRATEGY", default_value = "usc")]
    opt_strategy: String,
    /// What is enumerated: answer sets (`auto`, `bt`, `record`), or the
    /// atoms true in some answer set (`brave`) or in all (`cautious`),
    /// each better approximation printed as a model.
    #[arg(
        short = 'e',
        long = "enum-mode",
        value_name = "MODE",
        default_value = "auto"
    )]
    enum_mode: String,
    /// Print the time of each stage and the size of the problem (clingo's
    /// `--stats[=N]`: any level above 0).
    #[arg(short = 's', long, value_name = "N", num_args = 0..=1, require_equals = true, default_missing_value = "1")]
    stats: Option<String>,
    /// Stop after this many seconds, reporting what was found so far, with
    /// `TIME LIMIT : 1` (0: no limit).
    #[arg(long = "time-limit", value_name = "SECONDS")]
    time_limit: Option<u64>,
    /// How non-tight programs are translated: `lazy` loop formulas or the
    /// `eager` exact CNF that `asp2sat dimacs` exports.
    #[arg(long, value_enum, value_name = "MODE", default_value_t = TranslationArg::Lazy)]
    translation: TranslationArg,
    /// The SAT solver of every search: `auto` (chosen by the program),
    /// `varisat`, `cadical` (CaDiCaL) or `batsat`.
    #[arg(long, value_enum, value_name = "NAME", default_value_t = SolverArg::Auto)]
    solver: SolverArg,
    /// Print the ground program after simplification, in clingo's `--text`
    /// syntax, instead of solving.
    #[arg(long)]
    text: bool,
    /// clingo's `--mode`: `clingo` solves, `gringo` prints the ground
    /// program (as `--text`).
    #[arg(long, value_name = "MODE", default_value = "clingo")]
    mode: String,
    /// When there is no answer set, print a minimal set of statements that
    /// has none (each located, with its text): blaming facts, rules and
    /// constraints (`all`, the default), only facts (`facts`: the rules are
    /// hard) or only rules (`rules`). Under `--outf=2` as "Explanation".
    #[arg(long, value_enum, value_name = "SCOPE", num_args = 0..=1, require_equals = true, default_missing_value = "all")]
    explain: Option<ExplainArg>,
    /// After each answer set, print its atoms NAME(Row,Column,Value) as a
    /// table, with box lines when the side is 4, 9, 16 or 25 (text output
    /// only). Without NAME/3, the one predicate of arity 3 whose rows and
    /// columns are integers.
    #[arg(long, value_name = "NAME/3", num_args = 0..=1, require_equals = true, default_missing_value = "")]
    grid: Option<String>,
    /// Draw each answer set's `vis*` atoms (Kara's visualisation language)
    /// as a picture, into the files of `-o`.
    #[arg(long, value_enum, value_name = "FORMAT")]
    render: Option<PictureFormat>,
    /// The file of each picture of `--render`; `%n` is replaced by the
    /// answer set's number (`-o answer-%n.svg`).
    #[arg(short = 'o', long = "output", value_name = "PATTERN")]
    output: Option<String>,
}

/// `--render`'s formats.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum PictureFormat {
    Svg,
}

impl SolveArgs {
    /// `asp2sat render`: solve's flags drawing SVG pictures, with nothing
    /// else on standard output.
    pub fn for_render(self) -> SolveArgs {
        SolveArgs {
            render: Some(PictureFormat::Svg),
            outf: 3,
            ..self
        }
    }
}

/// What to project answer sets onto (`--project`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Projection {
    No,
    /// The `#project` atoms when the program has some, else the shown ones.
    Auto,
    Show,
    Project,
}

/// Validated settings of one `solve` run.
pub struct Config {
    pub inputs: Vec<String>,
    /// `-n`: 0 for all; when not given, 1, or all for an optimizing search.
    pub models: Option<usize>,
    pub consts: Vec<(String, String)>,
    pub format: Format,
    pub verbosity: Verbosity,
    pub warnings: Warnings,
    pub project: Projection,
    pub consequences: Consequences,
    pub quiet: Quiet,
    pub opt_mode: OptMode,
    pub opt_strategy: Strategy,
    pub stats: bool,
    pub time_limit: Option<Duration>,
    pub translation: TranslationMode,
    pub text: bool,
    pub pictures: Pictures,
    /// `--explain`: which statements an unsatisfiable run blames.
    pub explain: Option<Scope>,
    /// `--solver` and clingo's tuning options: the solver's settings, and
    /// the info lines of those without effect.
    pub tuning: Tuning,
}

impl Config {
    /// The search every solver call of the run makes.
    pub fn plan(&self) -> Plan {
        Plan {
            models: self.models,
            project: self.project != Projection::No,
            translation: self.translation,
            tuning: self.tuning.search,
            parallel: self.tuning.parallel,
            consequences: self.consequences,
            opt_mode: self.opt_mode,
            opt_strategy: self.opt_strategy,
        }
    }

    /// `explaining`: run as `asp2sat explain`, where `--explain` defaults
    /// to `all`; `tuning`: clingo's tuning options, taken out before clap.
    pub fn from_args(
        args: SolveArgs,
        explaining: bool,
        tuning: &[TuningOption],
    ) -> Result<Config, String> {
        let mut models = args.models;
        let mut inputs = Vec::new();
        for input in args.inputs {
            let is_number = !input.is_empty() && input.bytes().all(|b| b.is_ascii_digit());
            if is_number && !Path::new(&input).exists() {
                if models.is_some() {
                    // clingo's words for `f.lp 2 -n 3` or `f.lp 2 3`.
                    return Err("multiple occurrences: 'models' (a bare number and -n, or two bare numbers)".into());
                }
                models = Some(
                    input
                        .parse()
                        .map_err(|_| format!("invalid number of models: {input}"))?,
                );
            } else {
                inputs.push(input);
            }
        }
        let consts = parse_consts(&args.consts)?;
        let text = args.text
            || match args.mode.as_str() {
                "clingo" => false,
                "gringo" => true,
                other => {
                    return Err(format!(
                        "--mode={other} is not supported: asp2sat runs as `clingo` (solving) or \
                         `gringo` (printing the ground program)"
                    ));
                }
            };
        let stats = match args.stats.as_deref() {
            None => false,
            Some(levels) => {
                let level = levels.split(',').next().unwrap_or_default();
                match level.parse::<u8>() {
                    Ok(level) => level > 0,
                    Err(_) => return Err(format!("invalid --stats level '{levels}'")),
                }
            }
        };
        let pictures = Pictures::from_flags(
            args.grid.as_deref(),
            args.render == Some(PictureFormat::Svg),
            args.output,
            args.outf == 3,
        )?;
        Ok(Config {
            inputs,
            models,
            consts,
            format: match args.outf {
                0 => Format::Text,
                1 => Format::Competition,
                2 => Format::Json,
                _ => Format::Nothing,
            },
            verbosity: match args.verbose {
                Some(0) => Verbosity::Quiet,
                _ => Verbosity::Normal,
            },
            warnings: Warnings::parse(&args.warn)?,
            project: match args.project.as_deref() {
                None => Projection::No,
                Some(mode) => parse_projection(mode)?,
            },
            consequences: match args.enum_mode.as_str() {
                "auto" | "bt" | "record" | "domRec" => Consequences::None,
                "brave" => Consequences::Brave,
                "cautious" => Consequences::Cautious,
                other => {
                    return Err(format!(
                        "invalid --enum-mode '{other}': expected auto, bt, record, brave or \
                         cautious"
                    ));
                }
            },
            quiet: {
                let quiet = (args.quiet.as_deref()).map_or(Ok(Quiet::default()), Quiet::parse)?;
                match args.outf {
                    // The competition format shows the last model only.
                    1 => Quiet {
                        models: quiet.models.max(1),
                        costs: quiet.costs.max(1),
                    },
                    _ => quiet,
                }
            },
            opt_mode: parse_opt_mode(&args.opt_mode)?,
            opt_strategy: parse_opt_strategy(&args.opt_strategy)?,
            stats,
            time_limit: args
                .time_limit
                .filter(|&seconds| seconds > 0)
                .map(Duration::from_secs),
            translation: match args.translation {
                TranslationArg::Lazy => TranslationMode::Lazy,
                TranslationArg::Eager => TranslationMode::Eager,
            },
            text,
            pictures,
            explain: match args.explain {
                None if explaining => Some(Scope::All),
                None => None,
                Some(ExplainArg::All) => Some(Scope::All),
                Some(ExplainArg::Facts) => Some(Scope::Facts),
                Some(ExplainArg::Rules) => Some(Scope::Rules),
            },
            tuning: Tuning::read(tuning, args.solver.backend()?)?,
        })
    }
}

/// clingo's `--project=<mode>[,<bt>]`.
fn parse_projection(mode: &str) -> Result<Projection, String> {
    let (name, _backtracking) = mode.split_once(',').unwrap_or((mode, ""));
    match name {
        "no" => Ok(Projection::No),
        "auto" => Ok(Projection::Auto),
        "show" => Ok(Projection::Show),
        "project" => Ok(Projection::Project),
        _ => Err(format!(
            "invalid --project '{mode}': expected show, project, auto or no"
        )),
    }
}

/// clingo's `--opt-strategy=<strategy>[,<tactics>]`.
fn parse_opt_strategy(strategy: &str) -> Result<Strategy, String> {
    match strategy.split(',').next().unwrap_or_default() {
        "bb" => Ok(Strategy::Linear),
        "usc" => Ok(Strategy::Core),
        _ => Err(format!(
            "invalid --opt-strategy '{strategy}': expected bb or usc"
        )),
    }
}

/// Which messages `-W` leaves printed, by clingo's group names.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Warnings {
    disabled: Vec<&'static str>,
}

/// clingo's message groups.
const WARNING_GROUPS: &[&str] = &[
    "atom-undefined",
    "file-included",
    "operation-undefined",
    "variable-unbounded",
    "global-variable",
    "other",
];

impl Warnings {
    fn parse(flags: &[String]) -> Result<Warnings, String> {
        let mut warnings = Warnings::default();
        for flag in flags {
            match flag.as_str() {
                "none" => warnings.disabled = WARNING_GROUPS.to_vec(),
                "all" => warnings.disabled.clear(),
                _ => {
                    let (enable, name) = match flag.strip_prefix("no-") {
                        Some(name) => (false, name),
                        None => (true, flag.as_str()),
                    };
                    let Some(&group) = WARNING_GROUPS.iter().find(|&&g| g == name) else {
                        return Err(format!(
                            "invalid --warn '{flag}': expected none, all or [no-]GROUP with \
                             GROUP one of {}",
                            WARNING_GROUPS.join(", ")
                        ));
                    };
                    warnings.disabled.retain(|&g| g != group);
                    if !enable {
                        warnings.disabled.push(group);
                    }
                }
            }
        }
        Ok(warnings)
    }

    /// Whether messages of `group` are printed.
    pub fn shows(&self, group: &str) -> bool {
        !self.disabled.contains(&group)
    }
}

/// What `--quiet` leaves printed: 0 every model (or cost vector), 1 the
/// last one (with `optN`, the optimal ones), 2 none.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Quiet {
    pub models: u8,
    pub costs: u8,
}

impl Quiet {
    /// clingo's `<models>[,<costs>[,<calls>]]`; the costs level defaults
    /// to the models level, the calls level is accepted and unused (the
    /// summary is printed once, after the last call).
    fn parse(levels: &str) -> Result<Quiet, String> {
        let parsed: Vec<u8> = levels
            .split(',')
            .map(|level| match level.trim() {
                "0" => Ok(0),
                "1" => Ok(1),
                "2" => Ok(2),
                _ => Err(format!(
                    "invalid --quiet levels '{levels}': expected up to three of 0, 1, 2 separated by commas"
                )),
            })
            .collect::<Result<_, _>>()?;
        if parsed.len() > 3 {
            return Err(format!("invalid --quiet levels '{levels}': at most three"));
        }
        Ok(Quiet {
            models: parsed[0],
            costs: parsed.get(1).copied().unwrap_or(parsed[0]),
        })
    }
}

/// clingo's `--opt-mode=<mode>`.
fn parse_opt_mode(mode: &str) -> Result<OptMode, String> {
    let (name, bounds) = mode.split_once(',').unwrap_or((mode, ""));
    if !bounds.is_empty() {
        return Err(format!(
            "--opt-mode={mode}: initial bounds are not supported by asp2sat yet"
        ));
    }
    match name {
        "opt" => Ok(OptMode::Opt),
        "optN" => Ok(OptMode::OptN),
        "enum" => Ok(OptMode::Enum),
        "ignore" => Ok(OptMode::Ignore),
        _ => Err(format!(
            "invalid --opt-mode '{mode}': expected opt, optN, enum or ignore"
        )),
    }
}

/// `-c NAME=VALUE` flags as pairs.
pub fn parse_consts(consts: &[String]) -> Result<Vec<(String, String)>, String> {
    consts
        .iter()
        .map(|c| match c.split_once('=') {
            Some((name, value)) if is_identifier(name.trim()) => {
                Ok((name.trim().to_string(), value.to_string()))
            }
            _ => Err(format!(
                "invalid constant definition '{c}': expected NAME=VALUE, e.g. -c n=9"
            )),
        })
        .collect()
}

fn is_identifier(name: &str) -> bool {
    let mut chars = name.trim_start_matches('_').chars();
    chars.next().is_some_and(|c| c.is_ascii_lowercase())
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '\'')
}

/// Whether one of clingo's tuning options needs a value, which clingo's
/// option parser then also takes from the next argument.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Takes {
    /// `--seed=3` or `--seed 3`.
    Value,
    /// A value only when attached (`--sat-prepro`, `--sat-prepro=2`), or a
    /// flag (`--init-moms`, `--no-init-moms`).
    AttachedValue,
}

/// clingo's solver-tuning and grounder options, taken out of the arguments
/// before clap parses them: `--restarts=L,<n>` and `--heuristic=Vsids,<n>`
/// set the solver's search and `-t` the threads ([`Tuning`]), the others are
/// accepted, each with one info line. `(long name, short name, value)`; a short name without an
/// attached value takes the next argument as its value (`-t 2`), and a
/// `--[no-]name` flag is accepted under both names.
const TUNING_OPTIONS: &[(&str, Option<char>, Takes)] = &[
    ("configuration", None, Takes::Value),
    ("tester", None, Takes::Value),
    ("parse-ext", None, Takes::AttachedValue),
    ("parse-maxsat", None, Takes::AttachedValue),
    ("share", None, Takes::Value),
    ("learn-explicit", None, Takes::AttachedValue),
    ("sat-prepro", None, Takes::AttachedValue),
    ("trans-ext", None, Takes::Value),
    ("eq", None, Takes::Value),
    ("backprop", None, Takes::AttachedValue),
    ("supp-models", None, Takes::AttachedValue),
    ("no-ufs-check", None, Takes::AttachedValue),
    ("no-gamma", None, Takes::AttachedValue),
    ("eq-dfs", None, Takes::AttachedValue),
    ("solve-limit", None, Takes::Value),
    ("parallel-mode", Some('t'), Takes::Value),
    ("global-restarts", None, Takes::Value),
    ("distribute", None, Takes::Value),
    ("integrate", None, Takes::Value),
    ("opt-usc-shrink", None, Takes::Value),
    ("opt-heuristic", None, Takes::Value),
    ("restart-on-model", None, Takes::AttachedValue),
    ("lookahead", None, Takes::AttachedValue),
    ("heuristic", None, Takes::Value),
    ("init-moms", None, Takes::AttachedValue),
    ("score-res", None, Takes::Value),
    ("score-other", None, Takes::Value),
    ("sign-def", None, Takes::Value),
    ("sign-fix", None, Takes::AttachedValue),
    ("berk-huang", None, Takes::AttachedValue),
    ("vsids-acids", None, Takes::AttachedValue),
    ("vsids-progress", None, Takes::Value),
    ("nant", None, Takes::AttachedValue),
    ("dom-mod", None, Takes::Value),
    ("save-progress", None, Takes::AttachedValue),
    ("init-watches", None, Takes::Value),
    ("update-mode", None, Takes::Value),
    ("acyc-prop", None, Takes::AttachedValue),
    ("seed", None, Takes::Value),
    ("partial-check", None, Takes::AttachedValue),
    ("sign-def-disj", None, Takes::Value),
    ("rand-freq", None, Takes::Value),
    ("rand-prob", None, Takes::Value),
    ("no-lookback", None, Takes::AttachedValue),
    ("forget-on-step", None, Takes::Value),
    ("strengthen", None, Takes::Value),
    ("otfs", None, Takes::AttachedValue),
    ("update-lbd", None, Takes::Value),
    ("update-act", None, Takes::AttachedValue),
    ("reverse-arcs", None, Takes::AttachedValue),
    ("contraction", None, Takes::Value),
    ("loops", None, Takes::Value),
    ("restarts", Some('r'), Takes::Value),
    ("reset-restarts", None, Takes::Value),
    ("local-restarts", None, Takes::AttachedValue),
    ("counter-restarts", None, Takes::Value),
    ("block-restarts", None, Takes::Value),
    ("shuffle", None, Takes::Value),
    ("deletion", Some('d'), Takes::Value),
    ("del-grow", None, Takes::Value),
    ("del-cfl", None, Takes::Value),
    ("del-init", None, Takes::Value),
    ("del-estimate", None, Takes::AttachedValue),
    ("del-max", None, Takes::Value),
    ("del-glue", None, Takes::Value),
    ("del-on-restart", None, Takes::Value),
    ("rewrite-minimize", None, Takes::AttachedValue),
    ("keep-facts", None, Takes::AttachedValue),
    ("fast-exit", None, Takes::AttachedValue),
];

/// One of clingo's tuning options as given.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TuningOption {
    /// As written, for messages: `--seed=3`, `-t 2`.
    pub given: String,
    /// Its long name.
    name: &'static str,
    value: Option<String>,
}

/// What clingo's tuning options come to: the settings of the solver's
/// search, the threads of `-t`, and an info line for each option, or part
/// of one, that has no effect.
#[derive(Debug, Default, PartialEq)]
pub struct Tuning {
    pub search: SearchTuning,
    pub parallel: Parallel,
    pub without_effect: Vec<String>,
}

impl Tuning {
    /// Reads the options as `solve` uses them. Only the values asp2sat
    /// interprets are checked, as clingo checks them: `--restarts=L,<n>`
    /// with `n` from 1 to 2³²-1, `--heuristic=Vsids[,<n>]`,
    /// `--parallel-mode=<n>[,<mode>]`; the messages name `backend`.
    pub fn read(options: &[TuningOption], backend: Option<Backend>) -> Result<Tuning, String> {
        let mut tuning = Tuning::default();
        tuning.search.backend = backend;
        for option in options {
            let value = option.value.as_deref().unwrap_or_default();
            match option.name {
                "restarts" => tuning.restarts(&option.given, value)?,
                "heuristic" => tuning.heuristic(&option.given, value)?,
                "parallel-mode" => tuning.parallel = parse_parallel_mode(value)?,
                "seed" => tuning.without_effect.push(format!(
                    "{} has no effect: asp2sat gives {} no seed",
                    option.given,
                    solver_name(backend)
                )),
                _ => tuning.without_effect.push(without_effect(option, backend)),
            }
        }
        Ok(tuning)
    }

    /// clasp's `--restarts=<type>,<n>[,<args>][,<lim>]`: Luby's sequence
    /// with unit `n` (type `L`) is varisat's restart schedule, and
    /// CaDiCaL's in its stable mode (its reluctant doubling); no other is
    /// taken.
    fn restarts(&mut self, given: &str, value: &str) -> Result<(), String> {
        let solver = solver_name(self.search.backend);
        let parts: Vec<&str> = value.split(',').collect();
        if !(parts[0].eq_ignore_ascii_case("l") || parts[0].eq_ignore_ascii_case("luby")) {
            self.without_effect.push(format!(
                "{given} has no effect: only Luby's sequence is taken \
                 (--restarts=L,<n> sets the unit of {solver}'s)"
            ));
            return Ok(());
        }
        let number = |text: &str| text.parse::<u32>().ok().filter(|&n| n > 0);
        let (Some(unit), 2..=3) = (parts.get(1).and_then(|n| number(n)), parts.len()) else {
            return Err(format!(
                "invalid --restarts '{value}': expected L,<n>[,<lim>] with n and lim from 1 to {}",
                u32::MAX
            ));
        };
        if let Some(&limit) = parts.get(2) {
            if number(limit).is_none() {
                return Err(format!(
                    "invalid --restarts '{value}': the limit must be a number"
                ));
            }
            self.without_effect.push(format!(
                "{given}: the limit {limit} has no effect: {solver} repeats Luby's sequence \
                 without one"
            ));
        }
        self.search.luby_restart_unit = Some(u64::from(unit));
        Ok(())
    }

    /// clasp's `--heuristic=<heu>[,<n>]`: VSIDS with the decay `0.<n>`
    /// (0.95 when `n` is 0 or not given) is varisat's heuristic, and
    /// CaDiCaL's in its stable mode (its score factor), for the decays
    /// varisat takes; no other is taken.
    fn heuristic(&mut self, given: &str, value: &str) -> Result<(), String> {
        let solver = solver_name(self.search.backend);
        let (name, parameter) = value.split_once(',').unwrap_or((value, "0"));
        if !name.eq_ignore_ascii_case("vsids") {
            self.without_effect.push(format!(
                "{given} has no effect: only VSIDS is taken \
                 (--heuristic=Vsids,<n> sets the decay of {solver}'s)"
            ));
            return Ok(());
        }
        let Ok(parameter) = parameter.parse::<u32>() else {
            return Err(format!(
                "invalid --heuristic '{value}': expected Vsids[,<n>] with n a number"
            ));
        };
        let decay = clasp_decay(parameter);
        if (0.5..1.0).contains(&decay) {
            self.search.vsids_decay = Some(decay as f32);
        } else {
            self.without_effect.push(format!(
                "{given} has no effect: the VSIDS decay lies in [0.5, 1), and {decay} does not"
            ));
        }
        Ok(())
    }
}

/// clingo's `--parallel-mode=<n>[,compete|split]` (`-t`): `n` from 1 to
/// 64, the mode in any case (clingo takes `SPLIT`).
fn parse_parallel_mode(value: &str) -> Result<Parallel, String> {
    let (threads, mode) = value.split_once(',').unwrap_or((value, "compete"));
    let threads = threads
        .parse::<usize>()
        .ok()
        .filter(|n| (1..=portfolio::MAX_THREADS).contains(n));
    let mode = match mode.to_ascii_lowercase().as_str() {
        "compete" => Some(Mode::Compete),
        "split" => Some(Mode::Split),
        _ => None,
    };
    match (threads, mode) {
        (Some(threads), Some(mode)) => Ok(Parallel { threads, mode }),
        _ => Err(format!(
            "invalid --parallel-mode '{value}': expected <n>[,compete|split] with n from 1 to {}",
            portfolio::MAX_THREADS
        )),
    }
}

/// clasp's decay for `Vsids,<n>`: `0.<n>`, the digits of `n` after the
/// point (0.95 for 0), as clasp's `initDecay` reads it (1 and 10 are 1.0).
fn clasp_decay(n: u32) -> f64 {
    if n == 0 {
        return 0.95;
    }
    // One division, so that 92 is 0.92 and not 0.9199999999999999.
    let mut scale = 1.0;
    while f64::from(n) / scale > 1.0 {
        scale *= 10.0;
    }
    f64::from(n) / scale
}

/// The info line of a tuning option that has no counterpart in asp2sat,
/// which solves with `backend`.
pub fn without_effect(option: &TuningOption, backend: Option<Backend>) -> String {
    format!(
        "{} has no effect: it tunes clingo's solver, and asp2sat solves with {}",
        option.given,
        solver_name(backend)
    )
}

/// The SAT solver as the messages name it.
fn solver_name(backend: Option<Backend>) -> &'static str {
    backend.map_or("the SAT solver chosen for the program", Backend::name)
}

/// What the raw arguments ask for, before clap parses them.
pub enum Invocation {
    /// clap's arguments, in clingo's forms rewritten to clap's, with the
    /// tuning options taken out.
    Parse(Vec<OsString>, Vec<TuningOption>),
    /// `--version` or `-v`, anywhere.
    Version,
}

/// Rewrites clingo's invocation into clap's: `solve` inserted when no
/// subcommand is named, `-V0` as `--verbose=0`, `-q2` as `--quiet=2`,
/// `--help=N` as `--help`, and the options of [`TUNING_OPTIONS`] taken out.
pub fn invocation(raw: Vec<OsString>) -> Invocation {
    let mut raw = raw.into_iter();
    let program = raw.next().unwrap_or_else(|| OsString::from("asp2sat"));
    let rest: Vec<OsString> = raw.collect();
    let mut args = vec![program];
    let mut tuning = Vec::new();
    let subcommands = [
        "solve", "dimacs", "ground", "render", "explain", "test", "help",
    ];
    let named = rest
        .first()
        .and_then(|a| a.to_str())
        .is_some_and(|a| subcommands.contains(&a) || a == "-h" || a == "--help");
    if !named {
        args.push(OsString::from("solve"));
    }
    let mut pending = rest.into_iter();
    let mut operands_only = false;
    while let Some(arg) = pending.next() {
        let Some(text) = arg.to_str().filter(|_| !operands_only) else {
            args.push(arg);
            continue;
        };
        if text == "--" {
            operands_only = true;
            args.push(arg);
            continue;
        }
        if text == "--version" || text == "-v" {
            return Invocation::Version;
        }
        if text.starts_with("--help=") {
            args.push(OsString::from("--help"));
            continue;
        }
        if let Some(level) = text.strip_prefix("-V").filter(|l| !l.is_empty()) {
            args.push(OsString::from(format!("--verbose={level}")));
            continue;
        }
        if let Some(levels) = text.strip_prefix("-q").filter(|l| !l.is_empty()) {
            args.push(OsString::from(format!("--quiet={levels}")));
            continue;
        }
        if let Some(found) = tuning_option(text) {
            let mut option = TuningOption {
                given: text.to_string(),
                name: found.name,
                value: found.value,
            };
            if found.takes_next
                && let Some(value) = pending.next()
            {
                let value = value.to_string_lossy().into_owned();
                option.given = format!("{text} {value}");
                option.value = Some(value);
            }
            tuning.push(option);
            continue;
        }
        args.push(arg);
    }
    Invocation::Parse(args, tuning)
}

/// How an argument names an option of [`TUNING_OPTIONS`].
struct Found {
    name: &'static str,
    /// The value written into the argument.
    value: Option<String>,
    /// The value is the next argument (`-t 2`, `--seed 3`).
    takes_next: bool,
}

fn tuning_option(arg: &str) -> Option<Found> {
    if let Some(long) = arg.strip_prefix("--") {
        let (name, value) = match long.split_once('=') {
            Some((name, value)) => (name, Some(value.to_string())),
            None => (long, None),
        };
        let known = |name: &str| TUNING_OPTIONS.iter().find(|(n, _, _)| *n == name);
        if let Some(&(name, _, takes)) = known(name) {
            return Some(Found {
                name,
                takes_next: value.is_none() && takes == Takes::Value,
                value,
            });
        }
        // `--no-init-moms`: a flag switched off.
        let &(name, _, _) = known(name.strip_prefix("no-")?)?;
        return Some(Found {
            name,
            value,
            takes_next: false,
        });
    }
    let mut chars = arg.strip_prefix('-')?.chars();
    let short = chars.next()?;
    let &(name, _, _) = TUNING_OPTIONS.iter().find(|(_, s, _)| *s == Some(short))?;
    let attached = chars.as_str();
    Some(Found {
        name,
        value: (!attached.is_empty()).then(|| attached.to_string()),
        takes_next: attached.is_empty(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rewritten(args: &[&str]) -> (Vec<String>, Vec<String>) {
        let raw = std::iter::once("asp2sat")
            .chain(args.iter().copied())
            .map(OsString::from)
            .collect();
        match invocation(raw) {
            Invocation::Parse(args, tuning) => (
                args.iter()
                    .skip(1)
                    .map(|a| a.to_string_lossy().into_owned())
                    .collect(),
                tuning.into_iter().map(|option| option.given).collect(),
            ),
            Invocation::Version => (vec!["--version".to_string()], Vec::new()),
        }
    }

    #[test]
    fn clingo_invocations_become_solve() {
        assert_eq!(rewritten(&["f.lp", "0"]).0, ["solve", "f.lp", "0"]);
        assert_eq!(rewritten(&[]).0, ["solve"]);
        assert_eq!(rewritten(&["dimacs", "f.lp"]).0, ["dimacs", "f.lp"]);
        assert_eq!(
            rewritten(&["-V0", "-q2", "--help=2"]).0,
            ["solve", "--verbose=0", "--quiet=2", "--help"]
        );
        assert_eq!(rewritten(&["solve", "--version"]).0, ["--version"]);
        assert_eq!(rewritten(&["f.lp", "-v"]).0, ["--version"]);
    }

    #[test]
    fn tuning_options_are_taken_out() {
        let (args, ignored) = rewritten(&[
            "-t",
            "2",
            "f.lp",
            "--seed=3",
            "--no-init-moms",
            "--sat-prepro",
            "-t4,split",
            "--eq=0",
        ]);
        assert_eq!(args, ["solve", "f.lp"]);
        assert_eq!(
            ignored,
            [
                "-t 2",
                "--seed=3",
                "--no-init-moms",
                "--sat-prepro",
                "-t4,split",
                "--eq=0"
            ]
        );
        // `--no-ufs-check` and `--no-gamma` are names of their own.
        assert_eq!(rewritten(&["--no-gamma"]).1, ["--no-gamma"]);
        // As in clingo, an option that needs a value takes the next
        // argument; one whose value is optional does not.
        let (args, taken) = rewritten(&["--configuration", "tweety", "--sat-prepro", "f.lp"]);
        assert_eq!(args, ["solve", "f.lp"]);
        assert_eq!(taken, ["--configuration tweety", "--sat-prepro"]);
        // Options asp2sat implements stay.
        assert_eq!(
            rewritten(&["-n", "0", "--stats=2", "-W", "none"]).0,
            ["solve", "-n", "0", "--stats=2", "-W", "none"]
        );
    }

    fn tuning(args: &[&str]) -> Result<Tuning, String> {
        let raw = std::iter::once("asp2sat")
            .chain(args.iter().copied())
            .map(OsString::from)
            .collect();
        let Invocation::Parse(_, options) = invocation(raw) else {
            panic!("not a run")
        };
        Tuning::read(&options, None)
    }

    #[test]
    fn restarts_and_decay_set_varisats_search() {
        let both = tuning(&["--restarts=L,100", "--heuristic=Vsids,92"]).unwrap();
        assert_eq!(both.search.luby_restart_unit, Some(100));
        assert_eq!(both.search.vsids_decay, Some(0.92));
        assert!(both.without_effect.is_empty());
        // clingo's other spellings.
        let short = tuning(&["-r", "luby,7", "--heuristic", "vsids,999"]).unwrap();
        assert_eq!(short.search.luby_restart_unit, Some(7));
        assert_eq!(short.search.vsids_decay, Some(0.999));
        assert_eq!(
            tuning(&["-rl,64"]).unwrap().search.luby_restart_unit,
            Some(64)
        );
        // clasp's default decay, 0.95.
        assert_eq!(
            tuning(&["--heuristic=Vsids"]).unwrap().search.vsids_decay,
            Some(0.95)
        );
        // Nothing asked, nothing changed.
        assert_eq!(tuning(&[]).unwrap(), Tuning::default());
    }

    #[test]
    fn tuning_without_counterpart_says_so() {
        let said = |args: &[&str]| {
            let tuning = tuning(args).unwrap();
            assert_eq!(tuning.search, SearchTuning::default(), "{args:?}");
            tuning.without_effect
        };
        for args in [
            &["--restarts=x,100,1.5"][..],
            &["--restarts=no"],
            &["--heuristic=Berkmin"],
            // clasp reads 100 as 1.0 (no decay) and 4 as 0.4: not varisat's.
            &["--heuristic=Vsids,100"],
            &["--heuristic=Vsids,4"],
            &["--seed=7"],
            &["--configuration=jumpy"],
        ] {
            let messages = said(args);
            assert_eq!(messages.len(), 1, "{args:?}");
            assert!(messages[0].starts_with(args[0]), "{messages:?}");
            assert!(messages[0].contains("has no effect"), "{messages:?}");
        }
        // The unit is used, the limit is not.
        let limited = tuning(&["--restarts=L,100,50"]).unwrap();
        assert_eq!(limited.search.luby_restart_unit, Some(100));
        assert_eq!(
            limited.without_effect,
            [
                "--restarts=L,100,50: the limit 50 has no effect: the SAT solver chosen for \
              the program repeats Luby's sequence without one"
            ]
        );
    }

    #[test]
    fn tuning_values_are_checked_as_clingo_checks_them() {
        for bad in [
            "--restarts=L",
            "--restarts=L,0",
            "--restarts=L,4294967296",
            "--restarts=L,100,x",
            "--heuristic=Vsids,x",
            "--heuristic=Vsids,95,2",
        ] {
            assert!(tuning(&[bad]).is_err(), "{bad}");
        }
        assert!(tuning(&["--restarts=L,4294967295"]).is_ok());
    }

    #[test]
    fn parallel_mode_is_read_and_checked_as_clingo_does() {
        let parallel = |args: &[&str]| tuning(args).map(|t| t.parallel);
        let threads = |threads, mode| Ok(Parallel { threads, mode });
        assert_eq!(parallel(&[]), threads(1, Mode::Compete));
        assert_eq!(parallel(&["-t", "2"]), threads(2, Mode::Compete));
        assert_eq!(parallel(&["-t4,split"]), threads(4, Mode::Split));
        assert_eq!(parallel(&["-t", "2,SPLIT"]), threads(2, Mode::Split));
        assert_eq!(
            parallel(&["--parallel-mode=64,compete"]),
            threads(64, Mode::Compete)
        );
        assert_eq!(
            parallel(&["--parallel-mode", "02"]),
            threads(2, Mode::Compete)
        );
        assert_eq!(parallel(&["-t", "1,split"]), threads(1, Mode::Split));
        // The last one counts; it is not reported as without effect.
        let both = tuning(&["-t", "3", "-t", "2"]).unwrap();
        assert_eq!(
            both.parallel,
            Parallel {
                threads: 2,
                mode: Mode::Compete
            }
        );
        assert!(both.without_effect.is_empty());
        // clingo 5.4 rejects these ("'<value>' invalid value for:
        // 'parallel-mode'", exit 1).
        for bad in ["0", "65", "-1", "x", "2,", "2,foo", "2,C", "2,split,x", ""] {
            let message = parallel(&["--parallel-mode", bad]).unwrap_err();
            assert!(
                message.starts_with(&format!("invalid --parallel-mode '{bad}'")),
                "{message}"
            );
        }
    }

    #[test]
    fn clasps_decay_reads_the_digits_after_the_point() {
        assert_eq!(clasp_decay(0), 0.95);
        assert_eq!(clasp_decay(92), 0.92);
        assert_eq!(clasp_decay(5), 0.5);
        assert_eq!(clasp_decay(999), 0.999);
        assert_eq!(clasp_decay(10), 1.0);
    }

    #[test]
    fn warnings_follow_clingos_groups() {
        let parse = |flags: &[&str]| {
            Warnings::parse(&flags.iter().map(|f| f.to_string()).collect::<Vec<_>>())
        };
        let none = parse(&["none"]).unwrap();
        assert!(!none.shows("atom-undefined") && !none.shows("other"));
        let some = parse(&["none", "atom-undefined"]).unwrap();
        assert!(some.shows("atom-undefined") && !some.shows("other"));
        let all_but = parse(&["no-atom-undefined"]).unwrap();
        assert!(!all_but.shows("atom-undefined") && all_but.shows("other"));
        assert!(parse(&["nonsense"]).is_err());
    }
}
