//! The search of one solver call, as the options ask for it: a [`Plan`]
//! derived once from them says what a call searches for (answer sets, an
//! optimum, brave or cautious consequences) and on how many threads, and
//! [`solve_call`] runs it, telling the caller what it finds as [`Event`]s
//! through [`Report`]. The caller prints; nothing here does I/O.

use super::optimize::{OptMode, Optimizer, Strategy};
use super::portfolio::{self, Parallel, Threads};
use super::{AnswerSet, Enumerator, SearchTuning, SolveOptions, SolveStats, TranslationMode};
use crate::diagnostics::Diagnostic;
use crate::ground::incremental::StepResult;
use crate::ground::program::GroundProgram;
use crate::progress::{Counters, Stage};
use crate::symbols::SymId;
use crate::translate::Cond;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// What is enumerated (clingo's `--enum-mode`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Consequences {
    /// Answer sets.
    None,
    Brave,
    Cautious,
}

/// The search the options ask for, the same for every solver call.
#[derive(Clone, Copy, Debug)]
pub struct Plan {
    /// `-n` as given: 0 for all; when not given, 1, or all for an
    /// optimizing search ([`CallPlan::models`]).
    pub models: Option<usize>,
    /// Report each distinct set of shown symbols once ([`SolveOptions`]).
    pub project: bool,
    pub translation: TranslationMode,
    pub tuning: SearchTuning,
    pub parallel: Parallel,
    pub consequences: Consequences,
    pub opt_mode: OptMode,
    pub opt_strategy: Strategy,
}

/// How one call searches its program ([`Plan::call`]).
#[derive(Clone, Copy, Debug)]
pub struct CallPlan {
    /// The program has an objective that is not ignored: answer sets are
    /// reported with their costs.
    pub optimizing: bool,
    /// It searches for an optimum (`--opt-mode=opt` or `optN`).
    pub to_optimum: bool,
    /// How many answer sets: 0 for all. An optimizing search goes on to
    /// the optimum unless `-n` stops it, as clingo's.
    pub models: usize,
    pub threads: Threads,
    options: SolveOptions,
    plan: Plan,
}

impl Plan {
    /// The search of a call over `program`.
    pub fn call(&self, program: &GroundProgram) -> CallPlan {
        let optimizing = !program.costs.is_empty() && self.opt_mode != OptMode::Ignore;
        let to_optimum = optimizing && matches!(self.opt_mode, OptMode::Opt | OptMode::OptN);
        let models = self.models.unwrap_or(usize::from(!to_optimum));
        let listing_consequences = self.consequences != Consequences::None;
        // Only an enumeration walks over answer sets: an optimization to one
        // optimum, or consequences, ask for them one call at a time.
        let walks = !(listing_consequences || (to_optimum && self.opt_mode == OptMode::Opt));
        CallPlan {
            optimizing,
            to_optimum,
            models,
            threads: portfolio::threads(
                self.parallel,
                portfolio::Search {
                    models,
                    optimum: to_optimum,
                    consequences: listing_consequences,
                },
            ),
            options: SolveOptions {
                max_models: if walks { models } else { 1 },
                project: self.project,
                translation: self.translation,
                tuning: self.tuning,
                // Consequences read the shown atoms' variables.
                unread: !listing_consequences,
            },
            plan: *self,
        }
    }
}

/// What a search tells its caller, in order.
pub enum Event<'a> {
    /// The program is translated (in this time); the search begins.
    Searching { translate_time: Duration },
    /// An answer set, or an approximation of the consequences.
    Answer(Found<'a>),
    /// The last answer set reported is optimal.
    OptimumProven,
    /// The optimal answer sets follow, numbered from 1 again (`optN`).
    OptimalFollow,
    /// Optimal answer sets reported so far (`optN`; 1 for `opt`).
    Optimal(usize),
    /// `--opt-mode=enum`: whether every answer set was reported (clingo's
    /// `OPTIMUM FOUND` then).
    Enumerated { exhausted: bool },
    /// The last consequences reported are exact.
    ConsequencesExact,
}

/// An answer set as reported.
pub struct Found<'a> {
    /// Its number, from 1 in each call (again for the optimal answer sets
    /// of `optN`); `None` for the next in the run's count, which the
    /// answer sets of an enumeration continue from call to call.
    pub number: Option<usize>,
    pub answer: &'a AnswerSet,
    /// Its cost vector, for a program that optimizes.
    pub costs: Option<Vec<i64>>,
    /// With brave or cautious consequences: clingo's `[lower;upper]`, the
    /// symbols known to be consequences and those that may still be.
    pub consequences: Option<(usize, usize)>,
    /// It is known to be optimal.
    pub optimal: bool,
}

/// Where a search's events go.
pub trait Report {
    /// Takes `event`; `false` stops the search (the output failed).
    fn event(&mut self, event: Event<'_>) -> bool;
}

/// How one solver call ended.
#[derive(Clone, Copy, Debug)]
pub struct Call {
    /// Answer sets (approximations of consequences) reported.
    pub models: usize,
    /// No other answer set exists.
    pub exhausted: bool,
    /// The search was not begun: the report refused it.
    pub refused: bool,
    /// What the search did (nothing when refused).
    pub stats: SolveStats,
}

impl Call {
    pub fn result(&self) -> StepResult {
        if self.models > 0 {
            StepResult::Satisfiable
        } else {
            StepResult::Unsatisfiable
        }
    }
}

/// What a finished call leaves behind: its search, with the solver's
/// memory. Dropping it frees that memory piece by piece; a process that
/// ends next can leave it to the operating system instead, which is far
/// cheaper. Only the caller knows which (clingo's incremental mode runs
/// another call).
pub struct Leftovers {
    // Held for its memory alone.
    _search: Option<Box<Enumerator>>,
}

/// Translates and searches `program` as `call` says, reporting to
/// `report`, until the search ends or `stop` is set (then the call ends
/// with what it found so far, not exhausted). Fails on what translation
/// refuses.
pub fn solve_call(
    program: &Arc<GroundProgram>,
    call: &CallPlan,
    counters: &Arc<Counters>,
    report: &mut dyn Report,
    stop: &Arc<AtomicBool>,
) -> Result<(Call, Leftovers), Diagnostic> {
    counters.enter(Stage::Translating);
    let (options, parallel) = (call.options, call.plan.parallel);
    let search = match call.threads {
        Threads::Single(_) => Enumerator::new(program, options).map(|mut enumerator| {
            enumerator.report_to(counters.clone());
            enumerator.interrupt_on(stop.clone());
            Search::Single(Box::new(enumerator))
        })?,
        Threads::Race => Search::Race(portfolio::Race::start(
            program.clone(),
            options,
            parallel.threads,
            call.optimizing,
            counters.clone(),
            stop.clone(),
        )?),
        Threads::Split => Search::Split(Box::new(portfolio::Split::start(
            program.clone(),
            options,
            parallel.threads,
            call.optimizing,
            counters.clone(),
            stop.clone(),
        )?)),
    };
    counters.enter(Stage::Solving);
    let mut counted = Counted { report, models: 0 };
    let translate_time = search.translate_time();
    if !counted.event(Event::Searching { translate_time }) {
        let refused = Call {
            models: 0,
            exhausted: false,
            refused: true,
            stats: SolveStats::default(),
        };
        return Ok((refused, Leftovers { _search: None }));
    }
    let optimizing = call.optimizing;
    let (stats, exhausted, leftovers) = match search {
        Search::Single(enumerator) => {
            let plan = call.plan;
            let (enumerator, exhausted) = if plan.consequences != Consequences::None {
                let objective = optimizing.then_some((plan.opt_mode, plan.opt_strategy));
                consequences(*enumerator, plan.consequences, objective, &mut counted)
            } else if call.to_optimum {
                let optimizer = Optimizer::new(*enumerator, plan.opt_strategy);
                optimize(optimizer, plan.opt_mode, call.models, &mut counted)
            } else {
                let mut enumerator = *enumerator;
                let exhausted = enumerate(&mut enumerator, optimizing, &mut counted);
                (enumerator, exhausted)
            };
            let stats = enumerator.stats();
            (
                stats,
                exhausted,
                Leftovers {
                    _search: Some(Box::new(enumerator)),
                },
            )
        }
        Search::Race(race) => {
            let mut won = race.winner();
            let exhausted = enumerate(&mut won, optimizing, &mut counted);
            (won.stats, exhausted, Leftovers { _search: None })
        }
        Search::Split(mut split) => {
            let exhausted = enumerate(&mut *split, optimizing, &mut counted);
            (split.stats(), exhausted, Leftovers { _search: None })
        }
    };
    let call = Call {
        models: counted.models,
        exhausted,
        refused: false,
        stats,
    };
    Ok((call, leftovers))
}

/// The report of a call, counting the answer sets reported.
struct Counted<'r> {
    report: &'r mut dyn Report,
    models: usize,
}

impl Counted<'_> {
    fn event(&mut self, event: Event<'_>) -> bool {
        self.models += usize::from(matches!(event, Event::Answer(_)));
        self.report.event(event)
    }

    fn answer(&mut self, found: Found<'_>) -> bool {
        self.event(Event::Answer(found))
    }
}

/// A solver call's search, translated: on one thread or on those of `-t`
/// ([`portfolio`]).
enum Search {
    // Boxed, the large ones: the value moves from here into the search.
    Single(Box<Enumerator>),
    Race(portfolio::Race),
    Split(Box<portfolio::Split>),
}

impl Search {
    /// How long the (first) translation took.
    fn translate_time(&self) -> Duration {
        match self {
            Search::Single(enumerator) => enumerator.stats().translate_time,
            Search::Race(race) => race.translate_time,
            Search::Split(split) => split.translate_time,
        }
    }
}

/// Reports the brave or cautious consequences, each better approximation
/// as a model, as clingo's `--enum-mode=brave` and `cautious` do. Under an
/// objective (`objective`: its mode and strategy), as clasp: with `opt`,
/// each answer set must also cost less than the one before (approximations
/// that depend on the order of the answer sets, and `OPTIMUM FOUND` for the
/// last); with `optN`, the better answer sets up to the optimum come first,
/// then the consequences of the optimal answer sets, numbered from 1 again;
/// with `enum`, each approximation with the costs of its answer set.
/// Returns the enumerator and whether the search ended.
fn consequences(
    enumerator: Enumerator,
    kind: Consequences,
    objective: Option<(OptMode, Strategy)>,
    report: &mut Counted<'_>,
) -> (Enumerator, bool) {
    let brave = kind == Consequences::Brave;
    let shown = {
        let mut shown: Vec<_> = (enumerator.translation().shown().iter())
            .filter(|(_, cond)| *cond != Cond::False)
            .map(|&(symbol, _)| symbol)
            .collect();
        shown.sort_unstable();
        shown.dedup();
        shown.len()
    };
    let approximations = |next: &mut Approximations<'_>, report: &mut Counted<'_>| {
        report_consequences(brave, shown, next, report)
    };
    let (enumerator, ended) = match objective {
        Some((OptMode::Opt, strategy)) => {
            let mut optimizer = Optimizer::new(enumerator, strategy);
            let (reported, ended) = approximations(
                &mut |known| {
                    (optimizer.next_better_consequences(brave, known))
                        .map(|(next, costs)| (next, Some(costs)))
                },
                report,
            );
            let ended = ended && !optimizer.interrupted();
            if ended && reported > 0 {
                report.event(Event::OptimumProven);
                report.event(Event::Optimal(1));
            }
            (optimizer.into_enumerator(), ended)
        }
        Some((OptMode::OptN, strategy)) => {
            let optimizer = Optimizer::new(enumerator, strategy);
            let (mut enumerator, best) = match improve(optimizer, OptMode::OptN, 0, report) {
                (enumerator, Ok(best)) => (enumerator, best),
                (enumerator, Err(ended)) => return (enumerator, ended),
            };
            report.event(Event::OptimalFollow);
            let (optimal, ended) = approximations(
                &mut |known| {
                    (enumerator.next_consequences(brave, known, &[]))
                        .map(|next| (next, Some(best.clone())))
                },
                report,
            );
            report.event(Event::Optimal(optimal));
            (enumerator, ended)
        }
        Some((OptMode::Enum, _)) => {
            let mut enumerator = enumerator;
            let (_, ended) = approximations(
                &mut |known| {
                    let next = enumerator.next_consequences(brave, known, &[])?;
                    Some((next, Some(enumerator.costs())))
                },
                report,
            );
            report.event(Event::Enumerated { exhausted: ended });
            (enumerator, ended)
        }
        _ => {
            let mut enumerator = enumerator;
            let (_, ended) = approximations(
                &mut |known| {
                    (enumerator.next_consequences(brave, known, &[])).map(|next| (next, None))
                },
                report,
            );
            (enumerator, ended)
        }
    };
    // An interrupted search proves no approximation exact.
    let ended = ended && !enumerator.interrupted();
    if ended {
        report.event(Event::ConsequencesExact);
    }
    (enumerator, ended)
}

/// The next approximation of the consequences after the last one (`None`
/// at first), with the costs of its answer set.
type Approximations<'a> =
    dyn FnMut(Option<&[SymId]>) -> Option<(Vec<SymId>, Option<Vec<i64>>)> + 'a;

/// Reports each approximation of the brave (`brave`) or cautious
/// consequences that `next` gives after the last one (with the costs of
/// its answer set), numbered from 1, until there is none or the report
/// stops: how many, and whether the approximations ended. `shown`: how
/// many symbols may be shown.
fn report_consequences(
    brave: bool,
    shown: usize,
    next: &mut Approximations<'_>,
    report: &mut Counted<'_>,
) -> (usize, bool) {
    let mut known: Option<Vec<SymId>> = None;
    let mut reported = 0;
    while let Some((approximation, costs)) = next(known.as_deref()) {
        reported += 1;
        let bounds = if brave {
            (approximation.len(), shown)
        } else {
            (0, approximation.len())
        };
        let answer = AnswerSet {
            shown: approximation,
        };
        let found = Found {
            number: Some(reported),
            answer: &answer,
            costs,
            consequences: Some(bounds),
            optimal: false,
        };
        if !report.answer(found) {
            return (reported, false);
        }
        known = Some(answer.shown);
    }
    (reported, true)
}

/// Where [`enumerate`] takes answer sets from: one enumerator, or the
/// threads of `-t` ([`portfolio`]).
trait Answers {
    /// The next answer set, with its costs when `costs`.
    fn next_answer(&mut self, costs: bool) -> Option<portfolio::Answer>;
    /// No answer set is left.
    fn exhausted(&self) -> bool;
}

impl Answers for Enumerator {
    fn next_answer(&mut self, costs: bool) -> Option<portfolio::Answer> {
        let answer = self.next_answer_set()?;
        Some((answer, costs.then(|| self.costs())))
    }

    fn exhausted(&self) -> bool {
        Enumerator::exhausted(self)
    }
}

/// The race's answer: its costs were taken by the winning thread.
impl Answers for portfolio::Won {
    fn next_answer(&mut self, _costs: bool) -> Option<portfolio::Answer> {
        self.answer.take()
    }

    fn exhausted(&self) -> bool {
        self.exhausted
    }
}

/// The split search's answers: their costs were taken by its threads.
impl Answers for portfolio::Split {
    fn next_answer(&mut self, _costs: bool) -> Option<portfolio::Answer> {
        portfolio::Split::next_answer(self)
    }

    fn exhausted(&self) -> bool {
        portfolio::Split::exhausted(self)
    }
}

/// Reports the answer sets one by one (with their costs when `costs`);
/// returns whether they are exhausted.
fn enumerate(answers: &mut impl Answers, costs: bool, report: &mut Counted<'_>) -> bool {
    while let Some((answer, costs)) = answers.next_answer(costs) {
        let found = Found {
            number: None,
            answer: &answer,
            costs,
            consequences: None,
            optimal: false,
        };
        if !report.answer(found) {
            break;
        }
    }
    let exhausted = answers.exhausted();
    report.event(Event::Enumerated { exhausted });
    exhausted
}

/// Reports ever better answer sets until the optimum is proven (or `models`
/// have been reported, with `opt`), then, with `optN`, the optimal answer
/// sets (at most `models` of them). Returns the enumerator and whether the
/// search is exhausted.
fn optimize(
    optimizer: Optimizer,
    mode: OptMode,
    models: usize,
    report: &mut Counted<'_>,
) -> (Enumerator, bool) {
    let (mut enumerator, best) = match improve(optimizer, mode, models, report) {
        (enumerator, Ok(best)) => (enumerator, best),
        (enumerator, Err(ended)) => return (enumerator, ended),
    };
    if mode == OptMode::Opt {
        report.event(Event::Optimal(1));
        return (enumerator, true);
    }
    // The optimal answer sets, numbered from 1 again, as clingo does.
    enumerator.set_max_models(models);
    report.event(Event::OptimalFollow);
    let mut optimal = 0;
    while let Some(answer) = enumerator.next_answer_set() {
        optimal += 1;
        let found = Found {
            number: Some(optimal),
            answer: &answer,
            costs: Some(best.clone()),
            consequences: None,
            optimal: true,
        };
        let reported = report.answer(found);
        report.event(Event::Optimal(optimal));
        if !reported {
            break;
        }
    }
    let exhausted = enumerator.exhausted();
    (enumerator, exhausted)
}

/// Reports ever better answer sets until the optimum is proven (or, with
/// `opt`, `models` have been reported): the enumerator, every level fixed at
/// its optimum, and the optimum; or, when there is no optimum to go on from
/// (no answer set, or the run stopped before the proof), the enumerator and
/// whether the search ended.
fn improve(
    mut optimizer: Optimizer,
    mode: OptMode,
    models: usize,
    report: &mut Counted<'_>,
) -> (Enumerator, Result<Vec<i64>, bool>) {
    let mut found = 0;
    while let Some((answer, costs)) = optimizer.next_better() {
        found += 1;
        let better = Found {
            number: Some(found),
            answer: &answer,
            costs: Some(costs),
            consequences: None,
            optimal: false,
        };
        if !report.answer(better) || (mode == OptMode::Opt && found == models) {
            return (optimizer.into_enumerator(), Err(false));
        }
    }
    if !optimizer.is_finished() {
        return (optimizer.into_enumerator(), Err(false)); // stopped before the proof
    }
    let best = optimizer.best().map(<[i64]>::to_vec);
    let enumerator = optimizer.into_enumerator();
    let Some(best) = best else {
        return (enumerator, Err(true)); // no answer set
    };
    report.event(Event::OptimumProven);
    (enumerator, Ok(best))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{Rng, add_random_costs, optimal_models, parse};

    fn plan(models: Option<usize>, consequences: Consequences, opt_mode: OptMode) -> Plan {
        Plan {
            models,
            project: false,
            translation: TranslationMode::Lazy,
            tuning: SearchTuning::default(),
            parallel: Parallel::default(),
            consequences,
            opt_mode,
            opt_strategy: Strategy::default(),
        }
    }

    /// A program with choices and an objective over them.
    fn optimizing() -> GroundProgram {
        let mut program = parse("{a; b; c}. d :- a, not b.");
        add_random_costs(&mut Rng::new(3), &mut program);
        program
    }

    /// The one count of a call, and the enumerator's limit that follows
    /// from it: 1 by default, all towards an optimum, and one answer set a
    /// call for an optimum or consequences.
    #[test]
    fn a_call_settles_the_count_of_answer_sets() {
        let plain = parse("{a; b}.");
        let optimizing = optimizing();
        let count = |plan: Plan, program: &GroundProgram| {
            let call = plan.call(program);
            (call.models, call.options.max_models, call.to_optimum)
        };
        let none = Consequences::None;
        assert_eq!(count(plan(None, none, OptMode::Opt), &plain), (1, 1, false));
        assert_eq!(
            count(plan(Some(0), none, OptMode::Opt), &plain),
            (0, 0, false)
        );
        let brave = plan(Some(0), Consequences::Brave, OptMode::Opt);
        assert_eq!(count(brave, &plain), (0, 1, false));
        assert_eq!(
            count(plan(None, none, OptMode::Opt), &optimizing),
            (0, 1, true)
        );
        assert_eq!(
            count(plan(None, none, OptMode::OptN), &optimizing),
            (0, 0, true)
        );
        assert_eq!(
            count(plan(None, none, OptMode::Enum), &optimizing),
            (1, 1, false)
        );
        let ignored = plan(None, none, OptMode::Ignore).call(&optimizing);
        assert!(!ignored.optimizing);
    }

    /// The events of a call, as text.
    #[derive(Default)]
    struct Recorded(Vec<String>);

    impl Report for Recorded {
        fn event(&mut self, event: Event<'_>) -> bool {
            self.0.push(match event {
                Event::Searching { .. } => "searching".to_string(),
                Event::Answer(found) => format!(
                    "answer {:?} {:?} {:?} {}",
                    found.number, found.costs, found.consequences, found.optimal
                ),
                Event::OptimumProven => "proven".to_string(),
                Event::OptimalFollow => "optimal follow".to_string(),
                Event::Optimal(count) => format!("optimal {count}"),
                Event::Enumerated { exhausted } => format!("enumerated {exhausted}"),
                Event::ConsequencesExact => "exact".to_string(),
            });
            true
        }
    }

    fn run(program: GroundProgram, plan: Plan) -> (Call, Vec<String>) {
        let program = Arc::new(program);
        let mut recorded = Recorded::default();
        let call = plan.call(&program);
        let (call, _) = solve_call(
            &program,
            &call,
            &Arc::default(),
            &mut recorded,
            &Arc::default(),
        )
        .unwrap();
        (call, recorded.0)
    }

    #[test]
    fn an_enumeration_reports_each_answer_set_in_the_runs_count() {
        let (call, events) = run(
            parse("1{a; b; c}1."),
            plan(Some(0), Consequences::None, OptMode::Opt),
        );
        let answer = "answer None None None false".to_string();
        let expected = ["searching", &answer, &answer, &answer, "enumerated true"];
        assert_eq!(events, expected);
        assert_eq!((call.models, call.exhausted), (3, true));
    }

    /// `optN`: better answer sets numbered from 1, the proof, then the
    /// optimal ones numbered from 1 again, each counted.
    #[test]
    fn opt_n_reports_the_optimum_then_the_optimal_answer_sets() {
        let program = optimizing();
        let (optimum, optimal) = optimal_models(&program).expect("an answer set");
        let (call, events) = run(program, plan(None, Consequences::None, OptMode::OptN));
        let proven = events.iter().position(|e| e == "proven").unwrap();
        assert_eq!(events[0], "searching");
        for (n, better) in events[1..proven].iter().enumerate() {
            assert!(better.starts_with(&format!("answer Some({}) Some(", n + 1)));
            assert!(better.ends_with(" None false"));
        }
        assert!(proven > 1);
        assert_eq!(events[proven + 1], "optimal follow");
        let mut expected = Vec::new();
        for n in 1..=optimal.len() {
            expected.push(format!("answer Some({n}) Some({optimum:?}) None true"));
            expected.push(format!("optimal {n}"));
        }
        assert_eq!(events[proven + 2..], expected);
        assert_eq!(call.models, proven - 1 + optimal.len());
        assert!(call.exhausted);
    }
}
