//! The command line's flags: clap parses the raw arguments into [`Args`],
//! which are validated into a [`Config`].
//!
//! clingo's invocation is accepted as it is: `solve` is the default
//! subcommand (`asp2sat [FILES] [N] [OPTIONS]`, standard input when there
//! are no files), clingo's short forms (`-V0`, `-q2`, `-W none`, `-t 2`)
//! and optional values (`--stats=2`, `--project=show`, `--help=2`) are
//! read as clingo reads them, and clingo's solver-tuning options set
//! the search of asp2sat's solver (`--solver`) where it has a counterpart,
//! and are otherwise accepted with one info line (see [`super::tuning`]).

use super::output::{Format, Verbosity};
use super::pictures::Pictures;
use super::tuning::{TUNING_OPTIONS, Tuning, TuningOption};
use crate::solve::backend::Backend;
use crate::solve::driver::{Consequences, Plan};
use crate::solve::explain::Scope;
use crate::solve::optimize::{OptMode, Strategy};
use crate::solve::{SumMode, TranslationMode};
use clap::{Parser, Subcommand};
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
    /// What `test` starts each case by: runs COMMAND and writes how it
    /// ended (exit, times, peak memory) into REPORT.
    #[command(hide = true)]
    Measure(MeasureArgs),
}

#[derive(clap::Args, Debug)]
pub struct MeasureArgs {
    pub report: std::path::PathBuf,
    #[arg(last = true, required = true)]
    pub command: Vec<String>,
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

/// `--sums` of `solve`.
#[derive(clap::ValueEnum, Clone, Copy, Debug, Default, PartialEq, Eq)]
enum SumsArg {
    /// Large sums of different weights propagated when one answer set is
    /// sought and nothing optimized.
    #[default]
    Auto,
    /// Every sum as clauses.
    Clauses,
    /// Every sum not on a positive cycle propagated, in every search.
    Propagate,
}

/// `--solver` of `solve`: every name, whether built in or not, so that a
/// build without one names the feature it needs.
#[derive(clap::ValueEnum, Clone, Copy, Debug, Default, PartialEq, Eq)]
enum SolverArg {
    /// Chosen by the program: batsat for non-tight programs and large
    /// sums propagated, CaDiCaL for weight constraints as clauses, varisat
    /// for the rest.
    #[default]
    Auto,
    /// varisat, a CDCL solver in Rust.
    Varisat,
    /// CaDiCaL, in a build with the cargo feature `cadical` (a default).
    Cadical,
    /// batsat, in a build with the cargo feature `batsat` (a default).
    Batsat,
}

impl SumsArg {
    fn mode(self) -> SumMode {
        match self {
            SumsArg::Auto => SumMode::Auto,
            SumsArg::Clauses => SumMode::Clauses,
            SumsArg::Propagate => SumMode::Propagate,
        }
    }
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
    /// unsatisfiable cores (`usc,oll,stratify`: heaviest costs first), `bb`
    /// tightens a bound after each answer set and prints each better one.
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
    /// Which sums of body aggregates the search propagates as weight
    /// constraints, on a solver that can (CaDiCaL, batsat): `auto`,
    /// `clauses` (none) or `propagate` (all but recursive ones).
    #[arg(long, value_enum, value_name = "MODE", default_value_t = SumsArg::Auto)]
    sums: SumsArg,
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
            tuning: Tuning::read(tuning, args.solver.backend()?, args.sums.mode())?,
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

/// clingo's `--opt-strategy=<strategy>[,<tactics>]`. Of usc's tactics
/// (`<relax>[,<opts>]`), the `stratify` option, by name or in a mask of
/// options (4), is followed; the others are accepted and ignored.
fn parse_opt_strategy(strategy: &str) -> Result<Strategy, String> {
    let mut tactics = strategy.split(',');
    match tactics.next().unwrap_or_default() {
        "bb" => Ok(Strategy::Linear),
        "usc" => {
            let mut tactics = tactics.peekable();
            // `k,<n>`: the number is the relaxation's, not a mask.
            if tactics.next() == Some("k") {
                tactics.next_if(|n| n.parse::<u32>().is_ok());
            }
            let stratify = tactics.any(|option| {
                option == "stratify" || option.parse::<u32>().is_ok_and(|mask| mask & 4 != 0)
            });
            Ok(Strategy::Core { stratify })
        }
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

#[cfg(test)]
mod tests {
    use super::*;

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

    #[test]
    fn opt_strategy_reads_the_stratify_tactic() {
        let stratify =
            |s| parse_opt_strategy(s).map(|strategy| strategy == Strategy::Core { stratify: true });
        assert_eq!(parse_opt_strategy("bb,hier"), Ok(Strategy::Linear));
        assert_eq!(stratify("usc"), Ok(false));
        assert_eq!(stratify("usc,oll,stratify"), Ok(true));
        assert_eq!(stratify("usc,oll,disjoint,stratify"), Ok(true));
        assert_eq!(stratify("usc,pmres,5"), Ok(true));
        assert_eq!(stratify("usc,oll,3"), Ok(false));
        // `k,4`: a bound of 4 on the constraints, no mask.
        assert_eq!(stratify("usc,k,4"), Ok(false));
        assert_eq!(stratify("usc,k,4,4"), Ok(true));
        assert!(parse_opt_strategy("linear").is_err());
    }
}
