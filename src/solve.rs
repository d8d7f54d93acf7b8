//! CNF to answer sets.
//!
//! The [`Enumerator`] translates the ground program into one SAT solver,
//! behind the seam of [`backend::SatSolver`], of the backend chosen for
//! the program ([`backend::Backend::for_translation`]), and keeps that
//! solver for the whole run: loop formulas of non-tight programs and the
//! clauses of the enumeration are added between calls, so learned clauses
//! are kept.
//!
//! - Tight programs: every model of the completion is an answer set.
//! - Non-tight programs: on a backend that takes a propagator, the
//!   unfounded-set check runs inside the search
//!   ([`unfounded_propagator`]) where it covers the program. Otherwise a
//!   model with unfounded atoms is cut away by its
//!   loop formulas and the solver is called again; in components that are
//!   not head-cycle-free or hold a non-monotone recursive aggregate, a
//!   second solver searches for unfounded sets ([`minimality`]) once the
//!   linear check finds none; or, with
//!   [`TranslationMode::Eager`], the exact translation with a level ranking
//!   has no such models in the first place.
//! - Enumeration ([`backtracking`]): answer sets are told apart by the
//!   atom variables (every other variable is determined by the atoms, so
//!   each answer set is found once), or, with `project`, by the `#project`
//!   atoms or else the shown symbols, so each visible set is reported once;
//!   a depth-first walk over them, with unit propagation of its own and
//!   the solver for the subtrees it does not settle, finds each answer set
//!   once without a clause to exclude it.
//!
//! The searches built on the enumerator sit beside it: [`optimize`],
//! [`explain`] and the threads of `-t` ([`portfolio`]).

pub mod backend;
mod backtracking;
pub mod driver;
pub mod explain;
mod formula;
pub mod optimize;
mod options;
pub mod portfolio;
mod propagators;
pub mod steps;
pub mod unfounded_propagator;
pub mod unfounded_sets;
pub mod weight_constraints;

use crate::diagnostics::Diagnostic;
use crate::ground::program::{AtomId, Direction, GroundProgram, Head};
use crate::progress::Counters;
use crate::symbols::{SymId, SymbolTable};
use crate::translate::analysis::Analysis;
use crate::translate::{self, ClauseWriter, Translation, TranslationStats, loops, minimality};
use backend::SatResult;
use backtracking::{Backtracking, Propagator, Step};
use formula::{Formula, Written, translate_into};
use propagators::{CollectedModels, GIVE_UP_DECIDING, ModelCollector, Propagators, TrailRecorder};
use std::cell::RefCell;
use std::rc::Rc;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};
use varisat_formula::{ExtendFormula, Lit, Var};
use weight_constraints::WeightConstraints;

pub use options::{SearchTuning, SolveOptions, SumMode, TranslationMode};

/// The visible part of an answer set.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct AnswerSet {
    /// The true shown atoms' symbols and the true show terms, distinct,
    /// sorted by clingo's term order.
    pub shown: Vec<SymId>,
}

impl AnswerSet {
    /// Each symbol as clingo prints it, in order.
    pub fn atoms(&self, symbols: &SymbolTable) -> Vec<String> {
        self.shown
            .iter()
            .map(|&s| symbols.display(s).to_string())
            .collect()
    }

    /// The symbols separated by spaces, as clingo prints an answer.
    pub fn render(&self, symbols: &SymbolTable) -> String {
        self.atoms(symbols).join(" ")
    }
}

#[derive(Clone, Copy, Debug, Default)]
pub struct SolveStats {
    /// Variables of the solver (all from the translation).
    pub variables: usize,
    /// Clauses added to the solver: translation, loop formulas, enumeration.
    pub clauses: usize,
    pub translation: TranslationStats,
    pub tight: bool,
    /// The program has at most one answer set (no choices, disjunctions or
    /// negative bodies), so the search ends at its first model.
    pub deterministic: bool,
    /// Answer sets reported so far.
    pub models: usize,
    /// Candidate models rejected because they had unfounded atoms.
    pub loop_rounds: usize,
    pub loop_clauses: usize,
    /// Calls to the SAT solver.
    pub sat_calls: usize,
    /// Conflicts of the SAT solver's searches ([`backend::SatSolver::conflicts`]).
    pub conflicts: u64,
    pub translate_time: Duration,
    /// The SAT solver of the search (`None` before one is chosen).
    pub backend: Option<backend::Backend>,
    /// The unfounded-set check runs inside the search (non-tight programs
    /// it covers, on a backend that takes a propagator).
    pub unfounded_check: bool,
}

/// A search's conflict budget ran out before it decided
/// ([`Enumerator::find_until`]).
#[derive(Debug)]
pub(crate) struct BudgetSpent;

/// Enumerates the answer sets of a ground program, one per call.
pub struct Enumerator {
    translation: Translation,
    formula: Formula,
    options: SolveOptions,
    exhausted: bool,
    /// An answer set found by [`Enumerator::has_more`], not yet reported.
    pending: Option<AnswerSet>,
    stats: SolveStats,
    /// Value of every variable in the last model, by variable index.
    values: Vec<bool>,
    /// Value of every atom in the last model.
    atom_values: Vec<bool>,
    backtracking: Backtracking,
    /// The support terms of the minimality check's loop formulas, defined
    /// once in the solver.
    support_terms: minimality::SupportTerms,
    /// Where the loop-formula rounds are published ([`Enumerator::report_to`]).
    counters: Arc<Counters>,
    /// A search was interrupted ([`Enumerator::interrupt_on`]): a search
    /// that found nothing since proves nothing.
    interrupted: bool,
    /// The flag the solver stops at, which the enumeration's walk reads
    /// too: it finds answer sets without calling the solver.
    stop: Option<Arc<AtomicBool>>,
    /// The weight constraints inside the search, and their place among the
    /// solver's propagators: on a backend that takes a propagator, for the
    /// sums the translation left to the search and for a program with an
    /// objective (the bounds of its linear search).
    weights: Option<SearchWeights>,
    /// Levels of the objective held at most at a cost by weight
    /// constraints inside the search, which the walk's copy of the clauses
    /// lacks ([`Enumerator::bound_level_inside`]).
    levels_bounded_inside: Vec<(usize, i64)>,
    /// Subtrees of the walk the solver found empty.
    refuted_asks: usize,
    /// The walk has handed the enumeration to the solver
    /// ([`Enumerator::take_over_from_the_walk`]).
    recording_answer_sets: bool,
    /// The empty subtrees after which it does, in all and per answer set
    /// reported ([`RECORD_AFTER`]).
    record_after: (usize, usize),
    /// The distinguishing literals of the solver's last model in the order
    /// it assigned them, where a [`TrailRecorder`] tells.
    solver_trail: Option<Rc<RefCell<Vec<Lit>>>>,
    /// Backtracks without a model after which a [`ModelCollector`] leaves
    /// the decisions to the solver ([`GIVE_UP_DECIDING`]).
    give_up_deciding: usize,
    /// The answer sets a [`ModelCollector`] found inside one search, where
    /// one enumerates.
    collected: Option<Rc<RefCell<CollectedModels>>>,
    /// The shown symbols of the answer set being read ([`Enumerator::answer_set`]).
    shown_buffer: Vec<SymId>,
}

/// The walk hands the enumeration to the solver ([`Enumerator::record_next`])
/// once the solver has found this many of its subtrees empty, and twice as
/// many as the answer sets reported: then the walk costs more searches than
/// recording would, one per answer set. gringo's 10-queens (724 answer
/// sets) met 8,880 empty subtrees; unblock's inst2 921 for 358 answer
/// sets; the other enumerations of the corpus under 100.
const RECORD_AFTER: usize = 256;

/// Where the answer sets will be collected inside one search
/// ([`Enumerator::collect_next`]), the walk hands over after this many
/// empty subtrees instead of [`RECORD_AFTER`] (once it has reported
/// [`COLLECT_AFTER_MODELS`] answer sets): gringo's 10-queens 0.066 ->
/// 0.047 s, unblock's inst2 0.268 -> 0.213 s (0.24 s after 1, 4 or 8).
const COLLECT_AFTER: usize = 16;

/// The walk hands over after [`COLLECT_AFTER`] empty subtrees only once
/// it has reported this many answer sets. Before that, the enumeration
/// may be a hard search with few answer sets, which CaDiCaL would search
/// again from the clauses: `sicherman_dice` in the corpus (2 answer sets)
/// 1.44 s handed over after 16 empty subtrees, 0.54 s on varisat; no
/// other case of the corpus moved.
const COLLECT_AFTER_MODELS: usize = 4;

/// Where the unfounded-set check is inside the search, the walk hands
/// over after this many empty subtrees instead of [`RECORD_AFTER`], once
/// they are [`CHECKED_PER_ANSWER_SET`] times the answer sets reported.
/// Each of its questions is then a search under a few hundred assumptions
/// that the check follows level by level, as dear as a search from the
/// root: the Labyrinth's first 50 answer sets (17 empty subtrees each)
/// took 41.9 s, now 11.6 s (clingo 1.55 s). With 2 per answer set the
/// reified `many` example's optimal answer sets (corpus
/// `many_most_diverse`, 3 each) took 9% longer; Hamiltonian cycles, whose
/// walk meets no empty subtree, do not change (fixtures/bench/ANALYSIS.md,
/// "batsat's cost per conflict").
const CHECKED_RECORD_AFTER: usize = 16;
const CHECKED_PER_ANSWER_SET: usize = 4;

/// The most answer sets one search collects ([`Enumerator::collect_next`]):
/// they are kept until reported, each as its observed literals.
const COLLECTED_PER_SEARCH: usize = 256;

/// The walk's questions move from varisat to CaDiCaL after this many
/// empty subtrees ([`Enumerator::switch_oracle`]): below it, CaDiCaL's
/// set-up costs more than varisat's calls (the corpus's unblock3: 0.27 s
/// on varisat, 0.51 s on CaDiCaL).
const ORACLE_SWITCH_AFTER: usize = 2_000;

/// The weight constraints inside a search, and their place among its
/// propagators.
struct SearchWeights {
    constraints: Rc<RefCell<WeightConstraints>>,
    propagators: Rc<RefCell<Propagators>>,
    member: usize,
}

impl Enumerator {
    /// Translates the program into a fresh solver. Fails on what
    /// translation refuses.
    pub fn new(program: &GroundProgram, options: SolveOptions) -> Result<Self, Diagnostic> {
        let start = Instant::now();
        let analysis = Analysis::new(program);
        let loop_formulas = !analysis.is_tight() && options.translation == TranslationMode::Lazy;
        // Only an enumeration walks over the copy.
        let copy = Propagator::new(options.max_models != 1);
        // Sums left to the search, by default only where the solver's
        // search is the one consumer of the clauses, or where their
        // clauses would not fit in memory; never in the exact translation.
        let sums = options.tuning.sums;
        let propagated_sums = options.translation == TranslationMode::Lazy
            && match sums {
                SumMode::Auto => {
                    analysis.has_propagated_sums()
                        && ((!copy.recording() && program.costs.is_empty())
                            || analysis.sums_too_large_for_clauses())
                }
                SumMode::Clauses => false,
                SumMode::Propagate => {
                    !program.aggregates.is_empty() || analysis.has_propagated_sums()
                }
            };
        let chosen = (options.tuning.backend).or_else(|| {
            backend::Backend::before_translation(program, &analysis, loop_formulas, propagated_sums)
        });
        let (translation, mut formula, backend) = match chosen {
            Some(backend) => {
                let solver =
                    backend::new_search_solver(backend, &options.tuning, analysis.is_tight());
                let mut formula = Formula { solver, copy };
                let sums = match sums {
                    _ if !(propagated_sums && backend.propagates()) => {
                        translate::SumEncoding::Clauses
                    }
                    SumMode::Propagate => translate::SumEncoding::EveryNative,
                    _ => translate::SumEncoding::Native,
                };
                let translation = translate_into(program, &analysis, options, sums, &mut formula)?;
                (translation, formula, backend)
            }
            None => {
                // Chosen by what the translation holds: the clauses wait in
                // `written` until it is known.
                let mut written = Written::new(copy);
                let translation = translate_into(
                    program,
                    &analysis,
                    options,
                    translate::SumEncoding::Clauses,
                    &mut written,
                )?;
                let backend = backend::Backend::for_translation(&translation);
                let solver =
                    backend::new_search_solver(backend, &options.tuning, analysis.is_tight());
                let formula = written.into_formula(solver);
                (translation, formula, backend)
            }
        };
        let (unfounded_check, weights) = if backend.propagates() {
            connect_propagators(&translation, &mut formula)
        } else {
            (false, None)
        };
        let stats = SolveStats {
            variables: translation.stats().variables(),
            clauses: translation.stats().clauses(),
            translation: *translation.stats(),
            tight: translation.is_tight(),
            // Facts, positive rules, constraints and aggregates that only
            // rise with positive atoms: one answer set at most. (An
            // aggregate over `not a`, or one that falls, is a negation:
            // `a :- #count{1 : not a} <= 0.` has two.)
            deterministic: program.rules.iter().all(|rule| match rule.head {
                Head::Constraint => true,
                Head::Atom(_) => rule.body.neg().is_empty(),
                Head::Disjunction(_) | Head::Choice(_) => false,
            }) && program.aggregates.iter().all(|aggregate| {
                let parts = aggregate.parts();
                aggregate.elements.iter().all(|element| {
                    element.conditions.iter().all(|c| c.neg().is_empty())
                        && parts.iter().all(|&(op, _)| {
                            matches!(
                                aggregate.direction(op, element),
                                Direction::Up | Direction::Neither
                            )
                        })
                })
            }),
            translate_time: start.elapsed(),
            backend: Some(backend),
            unfounded_check,
            ..SolveStats::default()
        };
        let distinguishing = distinguishing_literals(program, &translation, options.project);
        Ok(Enumerator {
            backtracking: Backtracking::new(distinguishing),
            values: vec![false; stats.variables],
            atom_values: vec![false; translation.atom_count()],
            translation,
            formula,
            options,
            exhausted: false,
            pending: None,
            stats,
            support_terms: minimality::SupportTerms::default(),
            counters: Arc::default(),
            interrupted: false,
            stop: None,
            weights,
            levels_bounded_inside: Vec::new(),
            refuted_asks: 0,
            recording_answer_sets: false,
            record_after: (RECORD_AFTER, 2),
            solver_trail: None,
            give_up_deciding: GIVE_UP_DECIDING,
            collected: None,
            shown_buffer: Vec::new(),
        })
    }

    /// Adds the weight constraint `guard → Σ weight·lit ≥ bound` (no
    /// guard: always) inside the search, or, when it can never hold, the
    /// clause that the guard is false (no guard: the empty clause); `false`
    /// when the backend propagates none, and the caller writes it as
    /// clauses. Between searches only.
    pub(crate) fn add_weight_constraint(
        &mut self,
        guard: Option<Lit>,
        terms: &[(Lit, u64)],
        bound: i64,
    ) -> bool {
        let Some(weights) = self.weights.as_ref() else {
            return false;
        };
        let vars = WeightConstraints::variables(guard, terms);
        (weights.propagators.borrow_mut()).observe(weights.member, &vars);
        self.formula.solver.observe(&vars);
        let added = weights.constraints.borrow_mut().add(guard, terms, bound);
        if added == weight_constraints::Added::Unsatisfiable {
            let clause: Vec<Lit> = guard.map(|g| !g).into_iter().collect();
            self.formula.add_clause(&clause);
        }
        true
    }

    /// `guard → cost ≤ most` on `level` of the objective (its soft literals
    /// and constant, [`translate::CostTerms::soft_literals`]) as a weight
    /// constraint inside the search, where the backend propagates one
    /// (whether it does). Without a guard the bound holds for the rest of
    /// the search, and the walk, whose copy of the clauses lacks it, checks
    /// its leaves against it as against the sums left to the search: so the
    /// optimal answer sets are enumerated under the levels' optima without
    /// their clauses (asprilo's `assign-f.lp`: a diagram of 21,000
    /// variables over 600 distances, which each search after the optimum
    /// propagated).
    pub(crate) fn bound_level_inside(
        &mut self,
        guard: Option<Lit>,
        level: usize,
        (soft, always): (&[(Lit, u64)], i64),
        most: i64,
    ) -> bool {
        // The cost is `always` plus the weights of the soft literals that
        // fail: at most `most` when those that hold weigh W − (most − always).
        let total: u64 = soft.iter().map(|&(_, w)| w).sum();
        let holding = total as i64 - (most - always);
        if !self.add_weight_constraint(guard, soft, holding) {
            return false;
        }
        if guard.is_none() {
            self.levels_bounded_inside.push((level, most));
        }
        true
    }

    /// Makes `guard` false for good, and stops propagating the weight
    /// constraints it guards.
    pub(crate) fn retire_guard(&mut self, guard: Lit) {
        self.formula.add_clause(&[!guard]);
        if let Some(weights) = &self.weights {
            weights.constraints.borrow_mut().retire(guard);
        }
    }

    /// Publishes the loop-formula rounds in `counters` from now on.
    pub fn report_to(&mut self, counters: Arc<Counters>) {
        self.counters = counters;
    }

    /// From now on, a search stops soon after `flag` is set: it reports no
    /// answer set then, and is not exhausted.
    pub fn interrupt_on(&mut self, flag: Arc<AtomicBool>) {
        self.formula.solver.interrupt_on(flag.clone());
        self.stop = Some(flag);
    }

    /// Whether a search was interrupted: then `None` from a search is no
    /// proof that there is no answer set (no better one, no other
    /// consequence).
    pub fn interrupted(&self) -> bool {
        self.interrupted
    }

    /// The next answer set; `None` when there are no more or `max_models`
    /// have been reported.
    pub fn next_answer_set(&mut self) -> Option<AnswerSet> {
        if self.exhausted
            || (self.options.max_models > 0 && self.stats.models >= self.options.max_models)
        {
            return None;
        }
        let answer = match self.pending.take() {
            Some(answer) => Some(answer),
            None => self.search(),
        };
        if answer.is_some() {
            self.stats.models += 1;
            if self.stats.models == self.options.max_models && !self.exhausted {
                self.exhausted = self.pending.is_none() && self.only_answer_set_left();
            }
        }
        answer
    }

    /// Whether propagation alone, without a conflict, fixed every
    /// distinguishing literal at the root to its value in the last model:
    /// then no other answer set is left to find, as clingo tells from a
    /// model found without a decision (its exit code 30). The clauses the
    /// enumeration and optimization add exclude only answer sets reported
    /// or not wanted. A search that learned the values from conflicts
    /// proves as much, but clasp's made decisions there and clingo says
    /// `1+` (exit code 10; the evil Sudoku).
    fn only_answer_set_left(&self) -> bool {
        let solver = &self.formula.solver;
        if solver.conflicts() > 0 {
            return false;
        }
        let value = |lit: Lit| self.values[lit.index()] == lit.is_positive();
        (self.backtracking.distinguishing().iter())
            .all(|&lit| solver.fixed(lit) == Some(value(lit)))
    }

    /// Whether another answer set exists, regardless of `max_models`. Finds
    /// it if needed and keeps it for [`Enumerator::next_answer_set`]; after
    /// `false` the search is exhausted.
    pub fn has_more(&mut self) -> bool {
        if self.pending.is_none() && !self.exhausted {
            self.pending = self.search();
        }
        self.pending.is_some()
    }

    /// The next answer set in [`Backtracking`]'s order.
    fn search(&mut self) -> Option<AnswerSet> {
        if self.recording_answer_sets {
            return self.record_next();
        }
        loop {
            if self
                .stop
                .as_ref()
                .is_some_and(|stop| stop.load(Ordering::Relaxed))
            {
                self.interrupted = true;
                return None;
            }
            match self.backtracking.step(&mut self.formula.copy) {
                Step::Exhausted => {
                    self.exhausted = true;
                    return None;
                }
                Step::Ask(_) if self.walk_costs_more() => {
                    self.take_over_from_the_walk();
                    return self.record_next();
                }
                Step::Ask(assumptions) => match self.stable_model(&assumptions) {
                    SatResult::Satisfiable => {
                        self.backtracking.guided(&self.values);
                        self.exhausted |= self.stats.deterministic;
                        return Some(self.answer_set());
                    }
                    SatResult::Unsatisfiable => {
                        let core = self.formula.solver.failed_core();
                        self.backtracking.refuted(&core, &mut self.formula.copy);
                        self.refuted_asks += 1;
                        if self.refuted_asks == ORACLE_SWITCH_AFTER {
                            self.switch_oracle();
                        }
                    }
                    // The walk asks the same again when called next.
                    SatResult::Interrupted => return None,
                    SatResult::BudgetSpent => unreachable!("the walk's questions have no budget"),
                },
                Step::Model => {
                    self.formula.copy.read_values(&mut self.values);
                    // The walk propagates clauses only: a leaf that breaks
                    // a sum left to the search, or a level's bound inside
                    // it, is one of its conflicts.
                    let value = |lit: Lit| self.values[lit.index()] == lit.is_positive();
                    let var_value = |var: Var| self.values[var.index()];
                    let costs = self.translation.costs();
                    if !(self.translation.native_sums().iter()).all(|sum| sum.holds(value))
                        || (self.levels_bounded_inside.iter())
                            .any(|&(level, most)| costs[level].value(var_value) > most)
                    {
                        self.backtracking.violated(&mut self.formula.copy);
                        continue;
                    }
                    self.read_atoms();
                    if self.translation.needs_loop_formulas() && self.cut_unfounded() {
                        self.backtracking.rejected(&mut self.formula.copy);
                        continue;
                    }
                    self.backtracking.accepted(&mut self.formula.copy);
                    self.exhausted |= self.stats.deterministic;
                    return Some(self.answer_set());
                }
            }
        }
    }

    /// Whether the walk has asked in vain more often than recording would
    /// search ([`RECORD_AFTER`], [`COLLECT_AFTER`], [`CHECKED_RECORD_AFTER`]).
    fn walk_costs_more(&self) -> bool {
        let (mut after, per_answer_set) = self.record_after;
        if self.oracle_switchable()
            && !self.translation.needs_loop_formulas()
            && self.stats.models >= COLLECT_AFTER_MODELS
        {
            after = after.min(COLLECT_AFTER);
        }
        let asked_in_vain = |after: usize, per_answer_set: usize| {
            self.refuted_asks >= after
                && self.refuted_asks >= per_answer_set * (self.stats.models + 1)
        };
        (self.stats.unfounded_check && asked_in_vain(CHECKED_RECORD_AFTER, CHECKED_PER_ANSWER_SET))
            || asked_in_vain(after, per_answer_set)
    }

    /// Hands the enumeration to the solver at the walk's next question:
    /// the tests of solution recording, on programs too small to need it.
    #[cfg(test)]
    pub(super) fn take_over_at_next_question(&mut self) {
        self.record_after = (0, 0);
    }

    /// Hands over as [`Enumerator::take_over_at_next_question`] does, and
    /// a [`ModelCollector`] leaves every decision to the solver.
    #[cfg(test)]
    pub(super) fn take_over_leaving_decisions(&mut self) {
        self.take_over_at_next_question();
        self.give_up_deciding = 0;
    }

    /// Ends the walk: the solver is told of the subtrees it left
    /// ([`Backtracking::explored`]), and from now on finds the answer sets
    /// itself ([`Enumerator::record_next`]).
    fn take_over_from_the_walk(&mut self) {
        for clause in self.backtracking.explored() {
            self.formula.add_clause(&clause);
        }
        // The new solver has not searched yet: a propagator can be
        // connected (CaDiCaL may eliminate variables it is not told are
        // observed).
        if self.switch_oracle() {
            let distinguishing: Vec<Var> = self.distinguishing().iter().map(|l| l.var()).collect();
            let connected = if self.translation.needs_loop_formulas() {
                let recorder = TrailRecorder::default();
                self.solver_trail = Some(recorder.last_model_trail());
                (self.formula.solver).connect_propagator(Box::new(recorder), &distinguishing)
            } else {
                // Every model is an answer set: they are collected inside
                // one search.
                let variables = self.formula.copy.variables();
                let collector =
                    ModelCollector::new(&distinguishing, variables, self.give_up_deciding);
                self.collected = Some(collector.collected());
                let mut observed = self.answer_set_vars();
                observed.extend_from_slice(&distinguishing);
                observed.sort_unstable_by_key(|var| var.index());
                observed.dedup();
                (self.formula.solver).connect_propagator(Box::new(collector), &observed)
            };
            assert!(connected.is_ok(), "CaDiCaL takes a propagator");
        }
        self.recording_answer_sets = true;
    }

    /// The next answer set by solution recording: collected inside one
    /// search where a [`ModelCollector`] was connected
    /// ([`Enumerator::collect_next`]); otherwise the solver searches
    /// from the root under every clause so far, and the answer set it
    /// finds is excluded by a clause over the fewest of its distinguishing
    /// literals that give the others by propagation in the walk's copy of
    /// the clauses, read in the order the solver assigned them where a
    /// [`TrailRecorder`] tells (the 10-queens: 22 of 221 on average), else
    /// true ones first (100).
    /// Each answer set costs a search, where the walk costs one per subtree
    /// it cannot settle; see [`RECORD_AFTER`].
    fn record_next(&mut self) -> Option<AnswerSet> {
        if let Some(collected) = self.collected.clone() {
            return self.collect_next(&collected);
        }
        match self.stable_model(&[]) {
            SatResult::Satisfiable => {}
            SatResult::Unsatisfiable => {
                self.exhausted = true;
                return None;
            }
            SatResult::Interrupted => return None,
            SatResult::BudgetSpent => unreachable!("solution recording has no budget"),
        }
        let value = |lit: Lit| self.values[lit.index()] == lit.is_positive();
        let mut model: Vec<Lit> = (self.backtracking.distinguishing().iter())
            .map(|&lit| if value(lit) { lit } else { !lit })
            .collect();
        model.sort_by_key(|lit| !lit.is_positive());
        // In the order the solver assigned them where it is known: its
        // decisions come before what they imply. (Only the literals of this
        // model: the clause must hold of its literals alone.)
        if let Some(trail) = &self.solver_trail {
            let assigned = trail.borrow();
            model.splice(0..0, assigned.iter().copied().filter(|&lit| value(lit)));
        }
        let decided = self.formula.copy.implying(&model).unwrap_or(model);
        let clause: Vec<Lit> = decided.iter().map(|&lit| !lit).collect();
        self.formula.add_clause(&clause);
        self.exhausted |= self.stats.deterministic;
        Some(self.answer_set())
    }

    /// The next answer set of those a [`ModelCollector`] finds, searching
    /// for more when none is left: up to [`COLLECTED_PER_SEARCH`] a
    /// search, or as many as are still asked for.
    fn collect_next(&mut self, collected: &RefCell<CollectedModels>) -> Option<AnswerSet> {
        if collected.borrow().models.is_empty() && !collected.borrow().complete {
            let wanted = match self.options.max_models {
                0 => COLLECTED_PER_SEARCH,
                max => max
                    .saturating_sub(self.stats.models)
                    .clamp(1, COLLECTED_PER_SEARCH),
            };
            collected.borrow_mut().limit = wanted - 1;
            self.stats.sat_calls += 1;
            match self.formula.solver.solve(&[]) {
                SatResult::Satisfiable => {
                    let exclusion = std::mem::take(&mut collected.borrow_mut().accepted_exclusion);
                    self.formula.solver.add_clause(&exclusion);
                }
                SatResult::Unsatisfiable => collected.borrow_mut().complete = true,
                // The answer sets collected before are reported first.
                SatResult::Interrupted => self.interrupted = true,
                SatResult::BudgetSpent => unreachable!("collecting searches have no budget"),
            }
        }
        let Some(model) = collected.borrow_mut().models.pop_front() else {
            self.exhausted = collected.borrow().complete;
            return None;
        };
        self.read_literals(&model);
        let mut collected = collected.borrow_mut();
        self.exhausted =
            self.stats.deterministic || (collected.models.is_empty() && collected.complete);
        if self.stats.deterministic {
            collected.models.clear();
        }
        drop(collected);
        Some(self.answer_set())
    }

    /// Moves the walk's questions (or, after it, solution recording's
    /// searches) from varisat to CaDiCaL, when the
    /// backend was chosen for the program (not by `--solver`) and nothing
    /// but clauses is in the search (no propagator, no sum left to it):
    /// the new solver gets the walk's copy of
    /// them, which holds every clause written and every core learned.
    /// varisat's failed assumptions hold most of the decisions, so the walk
    /// cannot backjump far, and its calls under assumptions cost more: the
    /// 10-queens of gringo's examples (724 answer sets) asked varisat
    /// 26,010 times in 2.4 s, and CaDiCaL 7,382 times in 0.26 s.
    fn switch_oracle(&mut self) -> bool {
        #[cfg(feature = "cadical")]
        {
            if !self.oracle_switchable() {
                return false;
            }
            let Some(clauses) = self.formula.copy.clauses() else {
                return false;
            };
            let mut solver = backend::new_solver(backend::Backend::Cadical, &self.options.tuning);
            for _ in 0..self.formula.copy.variables() {
                solver.new_var();
            }
            for clause in clauses {
                solver.add_clause(clause);
            }
            if let Some(flag) = &self.stop {
                solver.interrupt_on(flag.clone());
            }
            self.formula.solver = solver;
            self.stats.backend = Some(backend::Backend::Cadical);
            true
        }
        #[cfg(not(feature = "cadical"))]
        false
    }

    /// Whether [`Enumerator::switch_oracle`] would move the search to
    /// CaDiCaL: the backend was chosen for the program and is varisat, the
    /// walk keeps a copy of the clauses, and nothing but clauses is in the
    /// search.
    fn oracle_switchable(&self) -> bool {
        let chosen = self.options.tuning.backend.is_some();
        let clauses_only = self.weights.is_none()
            && !self.stats.unfounded_check
            && self.translation.native_sums().is_empty();
        cfg!(feature = "cadical")
            && !chosen
            && clauses_only
            && self.stats.backend == Some(backend::Backend::Varisat)
            && self.formula.copy.recording()
    }

    /// Finds an answer set under `assumptions` (literals of the solver's
    /// variables) and reads it, without blocking the answer set before it
    /// or being blocked itself: optimization tightens bounds instead.
    /// `None` when there is none under the assumptions.
    pub(crate) fn find_under(&mut self, assumptions: &[Lit]) -> Option<AnswerSet> {
        (self.stable_model(assumptions) == SatResult::Satisfiable).then(|| self.answer_set())
    }

    /// As [`Enumerator::find_under`], until the solver's conflict count
    /// ([`SolveStats::conflicts`]) reaches `until` (`None`: to the end):
    /// `Err(BudgetSpent)` if it does before the search decides.
    pub(crate) fn find_until(
        &mut self,
        assumptions: &[Lit],
        until: Option<u64>,
    ) -> Result<Option<AnswerSet>, BudgetSpent> {
        match self.stable_model_until(assumptions, until) {
            SatResult::Satisfiable => Ok(Some(self.answer_set())),
            SatResult::BudgetSpent => Err(BudgetSpent),
            SatResult::Unsatisfiable | SatResult::Interrupted => Ok(None),
        }
    }

    /// Calls the solver under `assumptions` until its model is an answer
    /// set (adding loop formulas for unfounded ones), there is none, or it
    /// is interrupted.
    fn stable_model(&mut self, assumptions: &[Lit]) -> SatResult {
        self.stable_model_until(assumptions, None)
    }

    /// As [`Enumerator::stable_model`], and with `until`, over the
    /// conflicts before the solver's count reaches it.
    fn stable_model_until(&mut self, assumptions: &[Lit], until: Option<u64>) -> SatResult {
        loop {
            if let Some(until) = until {
                let conflicts = self.formula.solver.conflicts();
                if conflicts >= until {
                    return SatResult::BudgetSpent;
                }
                self.formula
                    .solver
                    .set_conflict_budget(Some(until - conflicts));
            }
            self.stats.sat_calls += 1;
            let result = self.formula.solver.solve(assumptions);
            if until.is_some() {
                self.formula.solver.set_conflict_budget(None);
            }
            self.interrupted |= result == SatResult::Interrupted;
            if result != SatResult::Satisfiable {
                return result;
            }
            self.read_model();
            if !(self.translation.needs_loop_formulas() && self.cut_unfounded()) {
                return result;
            }
        }
    }

    /// Adds the loop formulas of the last model's unfounded atoms, or the
    /// cuts of the minimality check when it has none; whether there were
    /// any.
    fn cut_unfounded(&mut self) -> bool {
        let mut clauses =
            loops::loop_formulas(&self.translation, &self.atom_values, &mut self.formula);
        if clauses.is_empty() {
            clauses = minimality_cuts(
                &self.translation,
                &self.atom_values,
                &mut self.support_terms,
                &mut self.formula,
                self.stats
                    .backend
                    .expect("chosen when the enumerator was made"),
            );
        }
        if clauses.is_empty() {
            return false;
        }
        self.stats.loop_rounds += 1;
        self.counters.loop_rounds(self.stats.loop_rounds);
        self.stats.loop_clauses += clauses.len();
        self.stats.clauses += clauses.len();
        for clause in &clauses {
            self.formula.add_clause(clause);
        }
        true
    }

    /// The next approximation of the brave (`brave`) or cautious
    /// consequences: the shown symbols true in some (in every) answer set
    /// found so far, given `known`, the previous approximation (`None` at
    /// first). Each answer set after the first must hold a shown symbol
    /// outside `known` (brave) or lack one inside it (cautious), so the
    /// approximations grow (shrink) until no answer set improves them:
    /// then `None`, and `known` is exact. clasp's `--enum-mode=brave` and
    /// `cautious`, by iterated SAT calls; the answer set is sought under
    /// `assumptions`.
    pub fn next_consequences(
        &mut self,
        brave: bool,
        known: Option<&[SymId]>,
        assumptions: &[Lit],
    ) -> Option<Vec<SymId>> {
        if let Some(known) = known {
            let shown = self.translation.shown().to_vec();
            let mut clause = Vec::new();
            for (symbol, cond) in &shown {
                let inside = known.binary_search(symbol).is_ok();
                match cond.lit() {
                    Some(lit) if brave && !inside => clause.push(lit),
                    Some(_) if !brave && inside => {
                        // The symbol false: every condition it is shown
                        // under false.
                        let conditions: Vec<Lit> = (shown.iter())
                            .filter(|(s, _)| s == symbol)
                            .filter_map(|(_, c)| c.lit())
                            .collect();
                        let absent = self.formula.new_var().positive();
                        for condition in conditions {
                            self.formula.add_clause(&[!absent, !condition]);
                        }
                        clause.push(absent);
                    }
                    _ => {}
                }
            }
            if clause.is_empty() {
                return None;
            }
            self.formula.add_clause(&clause);
        }
        if self.stable_model(assumptions) != SatResult::Satisfiable {
            return None;
        }
        self.stats.models += 1;
        let mut model = self.answer_set().shown;
        model.sort_unstable();
        model.dedup();
        Some(match known {
            None => model,
            Some(known) if brave => {
                let mut union: Vec<SymId> = known.iter().chain(&model).copied().collect();
                union.sort_unstable();
                union.dedup();
                union
            }
            Some(known) => (known.iter())
                .filter(|s| model.binary_search(s).is_ok())
                .copied()
                .collect(),
        })
    }

    /// After [`Self::find_under`] found nothing: the assumptions that
    /// together admit no answer set (a subset of them).
    pub(crate) fn failed_core(&self) -> Vec<Lit> {
        self.formula.solver.failed_core()
    }

    /// The cost of each level of the objective in the last answer set
    /// found, highest priority first.
    pub fn costs(&self) -> Vec<i64> {
        (self.translation.costs().iter())
            .map(|level| level.value(|var| self.values.get(var.index()).copied().unwrap_or(false)))
            .collect()
    }

    /// Writes clauses into the solver (bounds of the objective) with
    /// `write`, counting what it adds.
    pub(crate) fn extend<R>(
        &mut self,
        write: impl FnOnce(&mut ClauseWriter<'_, Formula>) -> R,
    ) -> R {
        let mut writer = ClauseWriter::new(&mut self.formula);
        let result = write(&mut writer);
        self.stats.variables += writer.vars();
        self.stats.clauses += writer.clauses();
        result
    }

    fn read_model(&mut self) {
        let model = self.formula.solver.model();
        self.read_literals(&model);
        self.read_atoms();
    }

    /// The values of `model`'s literals, every other variable false (those
    /// in no clause are missing from a solver's model).
    fn read_literals(&mut self, model: &[Lit]) {
        self.values.fill(false);
        for lit in model {
            let i = lit.var().index();
            if i >= self.values.len() {
                self.values.resize(i + 1, false);
            }
            self.values[i] = lit.is_positive();
        }
    }

    fn read_atoms(&mut self) {
        for (i, value) in self.atom_values.iter_mut().enumerate() {
            *value = self.values[self.translation.atom_var(AtomId(i as u32)).index()];
        }
    }

    /// The variables [`Enumerator::answer_set`] reads: the shown symbols'
    /// conditions, and where atoms are unread, every atom (those unread
    /// atoms are evaluated from are distinguishing then, but that is the
    /// business of [`translate::unread`]).
    fn answer_set_vars(&self) -> Vec<Var> {
        let mut vars: Vec<Var> = (self.translation.shown().iter())
            .filter_map(|(_, cond)| cond.lit())
            .map(|lit| lit.var())
            .collect();
        if !self.translation.unread().is_empty() {
            vars.extend_from_slice(self.translation.atom_vars());
        }
        vars
    }

    /// The answer set of the last model, its unread atoms evaluated.
    fn answer_set(&mut self) -> AnswerSet {
        let unread = self.translation.unread();
        let unread_true = match unread.is_empty() {
            true => Vec::new(),
            false => unread.shown_true(self.translation.atom_vars(), &self.values),
        };
        // Gathered in a buffer kept across answer sets, then copied at its
        // length: one allocation an answer set rather than a growing vector's
        // several (a third of enumerating `{a(1..18)}` quietly).
        self.shown_buffer.clear();
        self.shown_buffer.extend(
            (self.translation.shown().iter().enumerate())
                .filter(|(position, (_, cond))| {
                    cond.value(|var| self.values[var.index()])
                        || unread_true.binary_search(position).is_ok()
                })
                .map(|(_, &(symbol, _))| symbol),
        );
        AnswerSet {
            shown: self.shown_buffer.clone(),
        }
    }

    /// Stops after `max_models` more answer sets are reported (0 for
    /// all), counting from now.
    pub fn set_max_models(&mut self, max_models: usize) {
        self.options.max_models = max_models + self.stats.models * usize::from(max_models > 0);
    }

    /// True once the solver has shown that no further answer set exists.
    /// Stopping at `max_models` makes the search exhausted only where
    /// propagation fixed the last answer set without a conflict (see
    /// [`Enumerator::has_more`]).
    pub fn exhausted(&self) -> bool {
        self.exhausted && self.pending.is_none()
    }

    pub fn stats(&self) -> SolveStats {
        SolveStats {
            conflicts: self.formula.solver.conflicts(),
            ..self.stats
        }
    }

    pub fn translation(&self) -> &Translation {
        &self.translation
    }

    /// The literals whose values tell answer sets apart, in the order the
    /// enumeration decides them.
    pub(crate) fn distinguishing(&self) -> &[Lit] {
        self.backtracking.distinguishing()
    }
}

impl Iterator for Enumerator {
    type Item = AnswerSet;

    fn next(&mut self) -> Option<AnswerSet> {
        self.next_answer_set()
    }
}

/// The literals whose values tell answer sets apart, in a fixed order: the
/// atoms that are not facts nor unread (every other variable of the translation is
/// determined by the atoms), or, projecting, the atoms of the `#project`
/// directives, else the conditions of the shown symbols.
fn distinguishing_literals(
    program: &GroundProgram,
    translation: &Translation,
    project: bool,
) -> Vec<Lit> {
    let candidates: Vec<Lit> = match (&program.projection, project) {
        (Some(atoms), true) => atoms.iter().map(|&a| translation.atom_lit(a)).collect(),
        (None, true) => (translation.shown().iter())
            .filter_map(|(_, cond)| cond.lit())
            .collect(),
        (_, false) => (translation.atom_vars().iter())
            .map(|var| var.positive())
            .collect(),
    };
    // Facts, true in every answer set, and variables listed already.
    let size = (translation.atom_vars().iter().map(|var| var.index() + 1))
        .chain(candidates.iter().map(|lit| lit.var().index() + 1))
        .max()
        .unwrap_or(0);
    let mut left_out = vec![false; size];
    let fact_rules = program.rules.iter().filter_map(|rule| match rule.head {
        Head::Atom(atom) if rule.body.is_empty() => Some(atom),
        _ => None,
    });
    // Unread atoms share a variable fixed false.
    let fixed = program
        .atom_ids()
        .filter(|&a| program.is_fact(a) || translation.unread().is_unread(a));
    for atom in fixed.chain(fact_rules) {
        left_out[translation.atom_var(atom).index()] = true;
    }
    (candidates.into_iter())
        .filter(|lit| !std::mem::replace(&mut left_out[lit.var().index()], true))
        .collect()
}

/// Connects the propagators a program needs to the solver of `formula`, a
/// backend that takes them: the unfounded-set check of a non-tight
/// program it covers, and the weight constraints of the sums left to the
/// search and of an objective's bounds (none yet; the objective's
/// variables observed from the start, as CaDiCaL eliminates variables it
/// does not know to be observed). Whether the check is connected, and the
/// weight constraints if they are.
fn connect_propagators(
    translation: &Translation,
    formula: &mut Formula,
) -> (bool, Option<SearchWeights>) {
    let variables = formula.copy.variables();
    let mut propagators = Propagators::default();
    let mut observed = Vec::new();
    let mut unfounded_check = false;
    if translation.needs_loop_formulas() && unfounded_sets::covers(translation).is_ok() {
        let sets = unfounded_sets::UnfoundedSets::new(translation, variables);
        let check_observes = sets.variables();
        if !check_observes.is_empty() {
            let propagator = unfounded_propagator::UnfoundedPropagator::new(sets, variables);
            propagators.push(Box::new(propagator), &check_observes);
            observed.extend(check_observes);
            unfounded_check = true;
        }
    }
    let mut weighted: Vec<Var> = (translation.costs().iter())
        .flat_map(|level| level.soft_literals().0)
        .map(|(lit, _)| lit.var())
        .collect();
    let mut weights = None;
    let sums = translation.native_sums();
    if !weighted.is_empty() || !sums.is_empty() {
        let mut constraints = WeightConstraints::default();
        for (guard, terms, bound) in sums.iter().flat_map(|sum| sum.implications()) {
            weighted.extend(WeightConstraints::variables(Some(guard), &terms));
            if constraints.add(Some(guard), &terms, bound)
                == weight_constraints::Added::Unsatisfiable
            {
                formula.add_clause(&[!guard]);
            }
        }
        let constraints = Rc::new(RefCell::new(constraints));
        weights = Some((constraints.clone(), propagators.members()));
        propagators.push(Box::new(constraints), &weighted);
        observed.extend(weighted);
    }
    if observed.is_empty() {
        return (false, None);
    }
    observed.sort_unstable();
    observed.dedup();
    let propagators = Rc::new(RefCell::new(propagators));
    let connected = (formula.solver).connect_propagator(Box::new(propagators.clone()), &observed);
    if connected.is_err() {
        // Only a backend that takes a propagator is given sums to propagate.
        assert!(sums.is_empty(), "the sums left to the search are dropped");
        return (false, None);
    }
    let weights = weights.map(|(constraints, member)| SearchWeights {
        constraints,
        propagators,
        member,
    });
    (unfounded_check, weights)
}

/// The cuts of the unfounded sets that `model` (one value per atom) has in
/// the components the minimality check covers, each component searched by
/// a solver of its own ([`minimality`]) of `backend`, written for
/// `solver`; empty when there are none.
pub(crate) fn minimality_cuts<S: ExtendFormula>(
    translation: &Translation,
    model: &[bool],
    support_terms: &mut minimality::SupportTerms,
    solver: &mut S,
    backend: backend::Backend,
) -> Vec<Vec<Lit>> {
    let check = translation.minimality();
    let mut clauses = Vec::new();
    for component in 0..check.component_count() {
        let Some(search) = check.search(translation, component, model) else {
            continue;
        };
        let mut tester = backend::new_solver(backend, &SearchTuning::default());
        for clause in search.formula.iter() {
            tester.add_clause(clause);
        }
        if tester.solve(&[]) != SatResult::Satisfiable {
            continue;
        }
        let unfounded: Vec<AtomId> = (tester.model().iter())
            .filter(|l| l.is_negative() && l.index() < search.atoms.len())
            .map(|l| search.atoms[l.index()])
            .collect();
        clauses.extend(check.cut(
            translation,
            component,
            &unfounded,
            model,
            support_terms,
            solver,
        ));
    }
    clauses
}

#[cfg(test)]
mod tests;
