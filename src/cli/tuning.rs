//! clingo's invocation rewritten to clap's ([`invocation`]), and its
//! solver-tuning options ([`TUNING_OPTIONS`]), taken out of the arguments
//! before clap parses them: `--restarts=L,<n>` and `--heuristic=Vsids,<n>`
//! set the search of asp2sat's solver (`--solver`), `-t N[,mode]` the
//! threads ([`Tuning`]), and the others are accepted with one info line
//! ([`without_effect`]).

use crate::solve::backend::Backend;
use crate::solve::portfolio::{self, Mode, Parallel};
use crate::solve::{SearchTuning, SumMode};
use std::ffi::OsString;

/// Whether one of clingo's tuning options needs a value, which clingo's
/// option parser then also takes from the next argument.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Takes {
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
pub(super) const TUNING_OPTIONS: &[(&str, Option<char>, Takes)] = &[
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
    pub fn read(
        options: &[TuningOption],
        backend: Option<Backend>,
        sums: SumMode,
    ) -> Result<Tuning, String> {
        let mut tuning = Tuning::default();
        tuning.search.backend = backend;
        tuning.search.sums = sums;
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
        "solve", "dimacs", "ground", "render", "explain", "test", "measure", "help",
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
        Tuning::read(&options, None, SumMode::Auto)
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
}
