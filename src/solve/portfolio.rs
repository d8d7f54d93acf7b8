//! Parallel search: clingo's `-t N` (`--parallel-mode=N[,compete|split]`).
//!
//! Every thread has an [`Enumerator`] of its own over the same ground
//! program (the solvers, of the one backend `--solver` chose, share
//! nothing), so N threads translate the
//! program N times and hold N solvers. Two ways to use them:
//!
//! - [`Race`] (clingo's `compete`): for the first answer set, each thread
//!   searches under a different [`SearchTuning`] (varisat has no random
//!   seed; its decay, restart unit and clause reductions change the search
//!   a lot: 6 to 80 s on one Labyrinth instance; CaDiCaL takes the decay
//!   and restart unit), and the first to answer wins. Which answer set that is depends on timing.
//! - [`Split`] (clingo's `split`): the answer sets are divided into `2^k`
//!   cubes by the values of the first `k` distinguishing literals, the
//!   threads take cubes in turn, and the answer sets come out in cube
//!   order, so the output does not depend on timing. Each cube is an
//!   enumerator of its own, restricted to the cube by unit clauses.
//!
//! A thread that lost the race, or whose cube is no longer wanted, is
//! interrupted: its solver stops at its next step (one still translating
//! stops once it searches). Nothing waits for it, detached: the caller
//! returns as soon as it has its answer. Only the caller does I/O.

use crate::diagnostics::Diagnostic;
use crate::ground::program::GroundProgram;
use crate::progress::Counters;
use crate::solve::{AnswerSet, Enumerator, SearchTuning, SolveOptions, SolveStats};
use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, mpsc};
use std::time::{Duration, Instant};
use varisat_formula::{ExtendFormula, Lit};

/// clingo's `--parallel-mode`: how many threads search, and how.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Parallel {
    /// From 1 to [`MAX_THREADS`].
    pub threads: usize,
    pub mode: Mode,
}

impl Default for Parallel {
    fn default() -> Self {
        Parallel {
            threads: 1,
            mode: Mode::Compete,
        }
    }
}

/// The most threads clingo takes.
pub const MAX_THREADS: usize = 64;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// A portfolio racing for the first answer set ([`Race`]); other
    /// searches are split.
    Compete,
    /// The search space divided by assumptions ([`Split`]).
    Split,
}

/// What one solver call searches for, as far as threads are concerned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Search {
    /// `-n`: 0 for all.
    pub models: usize,
    /// It searches for an optimum (`--opt-mode=opt` or `optN`).
    pub optimum: bool,
    /// `--enum-mode=brave` or `cautious`.
    pub consequences: bool,
}

/// How a solver call uses its threads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Threads {
    /// One thread; with the reason to tell the user, when more were asked
    /// for and could have searched.
    Single(Option<&'static str>),
    Race,
    Split,
}

/// Chooses how a search runs on `parallel`'s threads. An optimum and brave
/// or cautious consequences are sequences of searches each depending on the
/// last, on one solver.
pub fn threads(parallel: Parallel, search: Search) -> Threads {
    if parallel.threads == 1 {
        Threads::Single(None)
    } else if search.optimum {
        Threads::Single(Some("the optimization runs on one thread"))
    } else if search.consequences {
        Threads::Single(Some(
            "brave and cautious consequences are computed on one thread",
        ))
    } else if parallel.mode == Mode::Compete && search.models == 1 {
        Threads::Race
    } else {
        Threads::Split
    }
}

/// The search settings of thread `thread` of a race: thread 0 searches as
/// one thread would, the others vary what `base` leaves to varisat's
/// defaults (decay 0.95, restart unit 128, reductions every 15,000 and
/// 10,000 conflicts). The first variations are those that were fastest,
/// one setting at a time, on the benchmark's hard cases where the default
/// is slow (a decay of 0.8: Labyrinth 6 s against 22 s, qbf/16 0.17 s
/// against 0.48 s; 0.9 with a unit of 256: binpacking/60 0.2 s against
/// 0.5 s; fixtures/bench/ANALYSIS.md, "Parallel search"); beyond them,
/// threads cycle through them with the restart unit doubled per round, so
/// no two threads search alike.
pub fn tuning(thread: usize, base: SearchTuning) -> SearchTuning {
    if thread == 0 {
        return base;
    }
    let variations = [
        (0.8, 128, 15_000),
        (0.9, 256, 15_000),
        (0.85, 64, 5_000),
        (0.75, 512, 30_000),
    ];
    let (decay, unit, reduce) = variations[(thread - 1) % variations.len()];
    let round = ((thread - 1) / variations.len()) as u32;
    SearchTuning {
        backend: base.backend,
        sums: base.sums,
        vsids_decay: base.vsids_decay.or(Some(decay)),
        luby_restart_unit: base.luby_restart_unit.or(Some(unit << round)),
        reduce_locals_interval: base.reduce_locals_interval.or(Some(reduce)),
        reduce_mids_interval: base.reduce_mids_interval.or(Some(reduce * 2 / 3)),
    }
}

/// Big enough for the translation's deepest recursion, which the main
/// thread's large stack covers for one thread (the memory is reserved, not
/// used).
const SEARCH_STACK: usize = 256 << 20;

/// Runs `work` on a thread that nothing joins.
fn detached(work: impl FnOnce() + Send + 'static) {
    std::thread::Builder::new()
        .name("asp2sat search".to_string())
        .stack_size(SEARCH_STACK)
        .spawn(work)
        .expect("a search thread can be started");
}

/// Sets `to` once `from` is set, checking every few milliseconds until one
/// of them is: the run's stop flag passed on to the flag a race's or a
/// split's threads stop at, which their own end sets too.
fn relay(from: Arc<AtomicBool>, to: Arc<AtomicBool>) {
    std::thread::spawn(move || {
        while !to.load(Ordering::Acquire) {
            if from.load(Ordering::Acquire) {
                to.store(true, Ordering::Release);
            }
            std::thread::sleep(Duration::from_millis(5));
        }
    });
}

/// The answer of the thread that won a [`Race`].
pub struct Won {
    /// The first answer set, with its costs when asked for; `None` when
    /// there is none.
    pub answer: Option<Answer>,
    /// No other answer set exists.
    pub exhausted: bool,
    pub stats: SolveStats,
}

/// Threads racing for the first answer set ([`Race::start`]).
pub struct Race {
    results: mpsc::Receiver<Won>,
    /// Set once there is a winner: the other threads stop.
    over: Arc<AtomicBool>,
    /// How long thread 0's translation took.
    pub translate_time: Duration,
}

impl Race {
    /// Starts `threads` threads, each translating `program` into an
    /// enumerator with `options` (`max_models` 1) under the settings of
    /// [`tuning`], and returns once thread 0's translation is done, with
    /// what translation refused, if anything (every thread's translation
    /// is the same). `costs`: report the answer set's costs.
    pub fn start(
        program: Arc<GroundProgram>,
        options: SolveOptions,
        threads: usize,
        costs: bool,
        counters: Arc<Counters>,
        stop: Arc<AtomicBool>,
    ) -> Result<Race, Diagnostic> {
        let (send_translated, translated) = mpsc::channel();
        let (send_result, results) = mpsc::channel();
        let over = Arc::new(AtomicBool::new(false));
        relay(stop, over.clone());
        for thread in 0..threads {
            let (program, counters, over) = (program.clone(), counters.clone(), over.clone());
            let send_translated = (thread == 0).then(|| send_translated.clone());
            let send_result = send_result.clone();
            let options = SolveOptions {
                tuning: tuning(thread, options.tuning),
                ..options
            };
            detached(move || {
                let built = Enumerator::new(&program, options);
                if let Some(send) = send_translated {
                    let _ = send.send(built.as_ref().map(Enumerator::stats).map_err(Clone::clone));
                }
                let Ok(mut enumerator) = built else { return };
                enumerator.report_to(counters);
                enumerator.interrupt_on(over);
                let answer = enumerator.next_answer_set();
                let won = Won {
                    answer: answer.map(|answer| (answer, costs.then(|| enumerator.costs()))),
                    exhausted: enumerator.exhausted(),
                    stats: enumerator.stats(),
                };
                // The race may be over: then nobody listens.
                let _ = send_result.send(won);
            });
        }
        let translated = translated
            .recv()
            .expect("thread 0 reports its translation")?;
        Ok(Race {
            results,
            over,
            translate_time: translated.translate_time,
        })
    }

    /// The first thread's answer; the others are interrupted.
    pub fn winner(self) -> Won {
        let won = (self.results.recv()).expect("every search thread ended without an answer");
        self.over.store(true, Ordering::Release);
        won
    }
}

/// How many of the first distinguishing literals a [`Split`] search
/// assigns in its cubes: `2^k` cubes of which each of `threads` threads gets
/// at least two (for balance: cubes differ in size), and at least 8, so
/// that the output is the same for 2 to 4 threads.
fn split_literals(threads: usize) -> usize {
    (2 * threads).next_power_of_two().trailing_zeros().max(3) as usize
}

/// The literals of cube `cube` of `2^k` over the first `k`
/// distinguishing literals: the first literal is the cube number's highest
/// bit, set for the literal true. `None` when the cube sets a bit of a
/// literal the program does not have (it has fewer than `k`): that cube
/// is empty, the one with the bit clear covers its answer sets.
fn cube_literals(cube: usize, k: usize, distinguishing: &[Lit]) -> Option<Vec<Lit>> {
    let bit = |i: usize| cube >> (k - 1 - i) & 1 == 1;
    if (distinguishing.len()..k).any(bit) {
        return None;
    }
    let literals = distinguishing.iter().take(k).enumerate();
    Some(
        literals
            .map(|(i, &lit)| if bit(i) { lit } else { !lit })
            .collect(),
    )
}

/// The answer sets of a search divided into cubes ([`Split::start`]),
/// reported in cube order; within a cube, in its enumerator's order.
pub struct Split {
    queue: Arc<Queue>,
    /// Set when the reader is gone, after the queue is closed: the threads
    /// stop searching.
    unwanted: Arc<AtomicBool>,
    cubes: usize,
    /// The cube whose answer sets are reported now.
    reading: usize,
    /// Stop after this many answer sets; 0 for all.
    max_models: usize,
    reported: usize,
    /// How long the first translation took.
    pub translate_time: Duration,
    /// The program has at most one answer set.
    deterministic: bool,
    /// A cube's search was stopped (the run's stop flag): no more are read.
    stopped: bool,
    /// The stats of the finished cubes, merged.
    finished: SolveStats,
    /// The stats of the cube being read, at its last batch.
    reading_stats: SolveStats,
    /// The rest of the batch being reported.
    batch: std::vec::IntoIter<Answer>,
}

/// An answer set, with its costs when asked for.
pub type Answer = (AnswerSet, Option<Vec<i64>>);

impl Split {
    /// Starts `threads` threads on the cubes of the program's
    /// distinguishing literals (see [`split_literals`]), each cube searched
    /// by an enumerator of `program` with `options` of its own, and returns
    /// once the first translation is done, with what translation refused,
    /// if anything (every translation is the same). `costs`: report each
    /// answer set's costs.
    pub fn start(
        program: Arc<GroundProgram>,
        options: SolveOptions,
        threads: usize,
        costs: bool,
        counters: Arc<Counters>,
        stop: Arc<AtomicBool>,
    ) -> Result<Split, Diagnostic> {
        let literals = split_literals(threads);
        let cubes = 1 << literals;
        let queue = Arc::new(Queue::new(cubes, HELD_LIMIT));
        let next_cube = Arc::new(AtomicUsize::new(0));
        let unwanted = Arc::new(AtomicBool::new(false));
        relay(stop, unwanted.clone());
        let (send_translated, translated) = mpsc::channel();
        for _ in 0..threads {
            let worker = CubeWorker {
                queue: queue.clone(),
                unwanted: unwanted.clone(),
                next_cube: next_cube.clone(),
                cubes,
                literals,
                program: program.clone(),
                options,
                costs,
                counters: counters.clone(),
            };
            let send_translated = send_translated.clone();
            detached(move || worker.run(send_translated));
        }
        let translated = translated
            .recv()
            .expect("a search thread reports its translation")?;
        Ok(Split {
            queue,
            unwanted,
            cubes,
            reading: 0,
            max_models: options.max_models,
            reported: 0,
            translate_time: translated.translate_time,
            deterministic: translated.deterministic,
            stopped: false,
            finished: SolveStats::default(),
            reading_stats: SolveStats::default(),
            batch: Vec::new().into_iter(),
        })
    }

    /// The next answer set in cube order, with its costs when asked for;
    /// `None` when there are no more or `max_models` have been reported.
    pub fn next_answer(&mut self) -> Option<Answer> {
        if self.max_models > 0 && self.reported >= self.max_models {
            return None;
        }
        while self.reading < self.cubes {
            if let Some(answer) = self.batch.next() {
                self.reported += 1;
                return Some(answer);
            }
            match self.queue.take(self.reading) {
                Event::Answers(batch, stats) => {
                    self.batch = batch.into_iter();
                    self.reading_stats = stats;
                }
                Event::Done(stats) => {
                    self.finished = merged(self.finished, stats);
                    self.reading_stats = SolveStats::default();
                    self.reading += 1;
                    self.queue.read_from(self.reading);
                }
                Event::Stopped(stats) => {
                    self.finished = merged(self.finished, stats);
                    self.reading_stats = SolveStats::default();
                    self.stopped = true;
                    return None;
                }
                Event::Lost => panic!("a search thread panicked"),
            }
        }
        None
    }

    /// True once every cube has been searched to its end, or the one
    /// answer set of a program that has at most one is reported; never
    /// after the search was stopped.
    pub fn exhausted(&self) -> bool {
        !self.stopped && (self.reading == self.cubes || (self.deterministic && self.reported > 0))
    }

    /// The stats of the cubes read so far.
    pub fn stats(&self) -> SolveStats {
        merged(self.finished, self.reading_stats)
    }
}

impl Drop for Split {
    /// Tells the threads that nothing more is wanted: each search stops,
    /// and its thread ends when it next reports (to the closed queue).
    fn drop(&mut self) {
        self.queue.close();
        self.unwanted.store(true, Ordering::Release);
    }
}

/// The stats of two enumerators of one program, as one: the variables of
/// one (they differ only by the enumeration's), the work of both.
fn merged(a: SolveStats, b: SolveStats) -> SolveStats {
    SolveStats {
        variables: a.variables.max(b.variables),
        clauses: a.clauses + b.clauses,
        models: a.models + b.models,
        loop_rounds: a.loop_rounds + b.loop_rounds,
        loop_clauses: a.loop_clauses + b.loop_clauses,
        sat_calls: a.sat_calls + b.sat_calls,
        conflicts: a.conflicts + b.conflicts,
        translate_time: a.translate_time + b.translate_time,
        ..b
    }
}

/// A thread of a [`Split`] search: takes the next cube not taken, and
/// enumerates it.
struct CubeWorker {
    queue: Arc<Queue>,
    /// [`Split::unwanted`].
    unwanted: Arc<AtomicBool>,
    next_cube: Arc<AtomicUsize>,
    cubes: usize,
    literals: usize,
    program: Arc<GroundProgram>,
    options: SolveOptions,
    costs: bool,
    counters: Arc<Counters>,
}

impl CubeWorker {
    /// Enumerates cubes until none is left or the reader stops; reports
    /// the outcome of its first translation to `translated`.
    fn run(&self, translated: mpsc::Sender<Result<SolveStats, Diagnostic>>) {
        let mut translated = Some(translated);
        loop {
            let cube = self.next_cube.fetch_add(1, Ordering::Relaxed);
            if cube >= self.cubes {
                return;
            }
            // Reports the cube lost should this thread panic.
            let mut lost = LostOnUnwind {
                queue: &self.queue,
                cube,
                armed: true,
            };
            let built = Enumerator::new(&self.program, self.options);
            if let Some(send) = translated.take() {
                let _ = send.send(built.as_ref().map(Enumerator::stats).map_err(Clone::clone));
            }
            let Ok(mut enumerator) = built else {
                lost.armed = false; // nobody reads: translation failed
                return;
            };
            enumerator.report_to(self.counters.clone());
            enumerator.interrupt_on(self.unwanted.clone());
            let cube_literals = cube_literals(cube, self.literals, enumerator.distinguishing());
            if let Some(literals) = cube_literals {
                // In the solver and in the enumeration's copy of the clauses.
                enumerator.extend(|writer| {
                    for &literal in &literals {
                        writer.add_clause(&[literal]);
                    }
                });
                let mut batch = Batch::new(self.options.max_models);
                while let Some(answer) = enumerator.next_answer_set() {
                    let costs = self.costs.then(|| enumerator.costs());
                    let full = batch.add((answer, costs));
                    if full && !self.queue.put(cube, batch.event(&enumerator)) {
                        lost.armed = false;
                        return;
                    }
                }
                if !batch.is_empty() && !self.queue.put(cube, batch.event(&enumerator)) {
                    lost.armed = false;
                    return;
                }
            }
            lost.armed = false;
            let stopped = !enumerator.exhausted() && self.unwanted.load(Ordering::Acquire);
            let end = if stopped {
                Event::Stopped(enumerator.stats())
            } else {
                Event::Done(enumerator.stats())
            };
            if !self.queue.put(cube, end) {
                return;
            }
        }
    }
}

/// The answer sets a cube's thread has found and not yet put in the
/// queue. Handing each over on its own costs the reader a wake-up per
/// answer set, which on a busy machine is a wait for a processor: 65,538
/// colourings of a 16-cycle took 3.6 s on two threads against 0.6 s on one.
/// So a batch is put when it holds [`BATCH`] answer sets, as many as the
/// search wants (`-n`), or an answer set older than [`BATCH_AGE`], and at
/// the end of the cube.
struct Batch {
    answers: Vec<Answer>,
    limit: usize,
    /// When the oldest answer set of the batch was found.
    since: Option<Instant>,
}

/// The most answer sets a batch holds.
const BATCH: usize = 256;

/// How long an answer set waits in a batch for more, at most, when the
/// next one comes at all.
const BATCH_AGE: Duration = Duration::from_millis(50);

impl Batch {
    /// `max_models`: the search's `-n`, 0 for all.
    fn new(max_models: usize) -> Batch {
        Batch {
            answers: Vec::new(),
            limit: if max_models == 0 {
                BATCH
            } else {
                max_models.min(BATCH)
            },
            since: None,
        }
    }

    /// Adds an answer set; returns whether the batch is to be put now.
    fn add(&mut self, answer: Answer) -> bool {
        self.answers.push(answer);
        let since = *self.since.get_or_insert_with(Instant::now);
        self.answers.len() >= self.limit || since.elapsed() >= BATCH_AGE
    }

    fn is_empty(&self) -> bool {
        self.answers.is_empty()
    }

    /// The batch as an event, with `enumerator`'s stats; empties it.
    fn event(&mut self, enumerator: &Enumerator) -> Event {
        self.since = None;
        Event::Answers(std::mem::take(&mut self.answers), enumerator.stats())
    }
}

/// Puts [`Event::Lost`] for its cube when dropped armed (by a panic), so
/// that the reader does not wait for it for ever.
struct LostOnUnwind<'q> {
    queue: &'q Queue,
    cube: usize,
    armed: bool,
}

impl Drop for LostOnUnwind<'_> {
    fn drop(&mut self) {
        if self.armed {
            self.queue.lose(self.cube);
        }
    }
}

/// What a cube's thread reports.
enum Event {
    /// Answer sets and the stats of the cube's enumerator so far.
    Answers(Vec<Answer>, SolveStats),
    /// The cube is searched to its end (or to `max_models`).
    Done(SolveStats),
    /// The search was stopped before the cube's end (the run's stop flag).
    Stopped(SolveStats),
    /// Its thread panicked.
    Lost,
}

impl Event {
    /// Roughly the memory it holds, in 4-byte words: itself, and its
    /// symbols and costs.
    fn weight(&self) -> usize {
        let words = size_of::<Event>() / 4;
        match self {
            Event::Answers(answers, _) => {
                let answer_words = size_of::<Answer>() / 4;
                let held = |(answer, costs): &Answer| {
                    answer_words + answer.shown.len() + costs.as_ref().map_or(0, |c| 2 * c.len())
                };
                words + answers.iter().map(held).sum::<usize>()
            }
            Event::Done(_) | Event::Stopped(_) | Event::Lost => words,
        }
    }
}

/// How many words ([`Event::weight`]) the queue holds before a thread
/// waits (16 MB; twice that at most, as the cube being read has a limit of
/// its own): the threads run ahead of the reader only so far.
const HELD_LIMIT: usize = 1 << 22;

/// The events of the cubes on their way to the reader, who takes them cube
/// by cube. The thread of the cube being read waits while that cube holds
/// more than [`HELD_LIMIT`], the others while all cubes together do: so
/// the reader always has an event to take when a thread waits (its cube's,
/// or its cube's thread does not wait), and memory stays bounded when the
/// reader is slower than the threads (writing every answer set).
struct Queue {
    state: Mutex<QueueState>,
    changed: Condvar,
}

struct QueueState {
    /// The events not taken yet, by cube.
    events: Vec<VecDeque<Event>>,
    /// The cube being read.
    reading: usize,
    /// The weight of the events held, by cube, and of all of them.
    held: Vec<usize>,
    held_in_all: usize,
    /// [`HELD_LIMIT`], or less in tests.
    limit: usize,
    /// The reader is gone.
    closed: bool,
    /// Threads waiting for `changed`, which is signalled only then.
    waiting: usize,
}

impl QueueState {
    /// A thread of `cube` is to wait (see [`Queue`]).
    fn full(&self, cube: usize) -> bool {
        if cube == self.reading {
            self.held[cube] > self.limit
        } else {
            self.held_in_all > self.limit
        }
    }

    fn push(&mut self, cube: usize, event: Event) {
        self.held[cube] += event.weight();
        self.held_in_all += event.weight();
        self.events[cube].push_back(event);
    }
}

impl Queue {
    fn new(cubes: usize, limit: usize) -> Queue {
        Queue {
            state: Mutex::new(QueueState {
                events: (0..cubes).map(|_| VecDeque::new()).collect(),
                reading: 0,
                held: vec![0; cubes],
                held_in_all: 0,
                limit,
                closed: false,
                waiting: 0,
            }),
            changed: Condvar::new(),
        }
    }

    fn lock(&self) -> MutexGuard<'_, QueueState> {
        // A panicking worker never leaves the state half changed.
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn wait<'a>(&self, mut state: MutexGuard<'a, QueueState>) -> MutexGuard<'a, QueueState> {
        state.waiting += 1;
        let mut state = self.changed.wait(state).unwrap_or_else(|e| e.into_inner());
        state.waiting -= 1;
        state
    }

    fn signal(&self, state: &QueueState) {
        if state.waiting > 0 {
            self.changed.notify_all();
        }
    }

    /// Adds an event of `cube`, after waiting for room. `false` when the
    /// reader is gone.
    fn put(&self, cube: usize, event: Event) -> bool {
        let mut state = self.lock();
        while !state.closed && state.full(cube) {
            state = self.wait(state);
        }
        if state.closed {
            return false;
        }
        state.push(cube, event);
        self.signal(&state);
        true
    }

    /// Reports `cube` lost, without waiting.
    fn lose(&self, cube: usize) {
        let mut state = self.lock();
        state.push(cube, Event::Lost);
        self.signal(&state);
    }

    /// The next event of `cube`, the one being read, once there is one.
    fn take(&self, cube: usize) -> Event {
        let mut state = self.lock();
        loop {
            if let Some(event) = state.events[cube].pop_front() {
                state.held[cube] -= event.weight();
                state.held_in_all -= event.weight();
                self.signal(&state);
                return event;
            }
            state = self.wait(state);
        }
    }

    /// The reader goes on to `cube`.
    fn read_from(&self, cube: usize) {
        let mut state = self.lock();
        state.reading = cube;
        self.signal(&state);
    }

    fn close(&self) {
        let mut state = self.lock();
        state.closed = true;
        self.signal(&state);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::symbols::SymId;
    use crate::testing::{Rng, parse, random_program, shown_of, stable_models};
    use varisat_formula::Var;

    fn search(models: usize) -> Search {
        Search {
            models,
            optimum: false,
            consequences: false,
        }
    }

    #[test]
    fn plans_follow_the_mode_and_the_search() {
        let compete = Parallel {
            threads: 2,
            mode: Mode::Compete,
        };
        let split = Parallel {
            mode: Mode::Split,
            ..compete
        };
        assert_eq!(threads(compete, search(1)), Threads::Race);
        assert_eq!(threads(compete, search(0)), Threads::Split);
        assert_eq!(threads(compete, search(3)), Threads::Split);
        assert_eq!(threads(split, search(1)), Threads::Split);
        assert_eq!(
            threads(Parallel::default(), search(1)),
            Threads::Single(None)
        );
        for sequential in [
            Search {
                optimum: true,
                ..search(0)
            },
            Search {
                consequences: true,
                ..search(0)
            },
        ] {
            assert!(matches!(
                threads(split, sequential),
                Threads::Single(Some(_))
            ));
        }
    }

    #[test]
    fn race_threads_search_differently() {
        let tunings: Vec<SearchTuning> = (0..9)
            .map(|thread| tuning(thread, SearchTuning::default()))
            .collect();
        assert_eq!(tunings[0], SearchTuning::default());
        for (i, a) in tunings.iter().enumerate() {
            for b in &tunings[..i] {
                assert_ne!(a, b);
            }
            // Within the backend's ranges: it takes them.
            for &backend in crate::solve::backend::Backend::ALL {
                crate::solve::backend::new_solver(backend, a);
            }
        }
        // What the user set holds in every thread.
        let decay = SearchTuning {
            vsids_decay: Some(0.99),
            ..SearchTuning::default()
        };
        assert!((0..9).all(|thread| tuning(thread, decay).vsids_decay == Some(0.99)));
    }

    #[test]
    fn cubes_number_at_least_eight_and_two_a_thread() {
        assert_eq!(split_literals(2), 3);
        assert_eq!(split_literals(4), 3);
        assert_eq!(split_literals(5), 4);
        assert_eq!(split_literals(64), 7);
    }

    #[test]
    fn cubes_assign_the_first_literals_by_their_bits() {
        let [a, b, c, d] = [0, 1, 2, 3].map(|i| Var::from_index(i).positive());
        assert_eq!(cube_literals(0, 3, &[a, b, c, d]), Some(vec![!a, !b, !c]));
        assert_eq!(cube_literals(6, 3, &[a, b, c, d]), Some(vec![a, b, !c]));
        // Two literals: the cubes with the third bit set are empty.
        assert_eq!(cube_literals(2, 3, &[a, b]), Some(vec![!a, b]));
        assert_eq!(cube_literals(3, 3, &[a, b]), None);
        assert_eq!(cube_literals(0, 3, &[]), Some(vec![]));
        assert_eq!(cube_literals(4, 3, &[]), None);
    }

    fn program_arc(text: &str) -> Arc<GroundProgram> {
        Arc::new(parse(text))
    }

    fn split_all(program: &Arc<GroundProgram>, threads: usize, max_models: usize) -> Split {
        let options = SolveOptions {
            max_models,
            ..SolveOptions::default()
        };
        let counters = Arc::new(Counters::default());
        Split::start(
            program.clone(),
            options,
            threads,
            false,
            counters,
            Arc::default(),
        )
        .unwrap()
    }

    fn drain(split: &mut Split) -> Vec<Vec<SymId>> {
        std::iter::from_fn(|| split.next_answer())
            .map(|(answer, _)| answer.shown)
            .collect()
    }

    /// Random programs: each answer set once, in the same order for any
    /// number of threads and any run.
    #[test]
    fn split_enumerates_each_answer_set_once_in_a_fixed_order() {
        let mut rng = Rng::new(1313);
        let mut several = 0;
        for round in 0..500 {
            let program = Arc::new(random_program(&mut rng, 8, round % 2 == 1));
            let mut expected: Vec<Vec<SymId>> = (stable_models(&program).into_iter())
                .map(|m| shown_of(&program, m))
                .collect();
            expected.sort();
            several += usize::from(expected.len() > 1);
            let mut split = split_all(&program, 2, 0);
            let order = drain(&mut split);
            assert!(split.exhausted(), "round {round}");
            let mut found = order.clone();
            found.sort();
            assert_eq!(found, expected, "round {round}: {program:?}");
            for threads in [2, 3] {
                assert_eq!(drain(&mut split_all(&program, threads, 0)), order);
            }
        }
        assert!(several > 100, "{several} with several answer sets");
    }

    #[test]
    fn split_stops_at_the_limit_without_exhausting() {
        // 2^10 answer sets, several batches per cube.
        let program = program_arc("{a1}. {a2}. {a3}. {a4}. {a5}. {a6}. {a7}. {a8}. {a9}. {a10}.");
        let mut all = split_all(&program, 2, 0);
        let order = drain(&mut all);
        assert_eq!(order.len(), 1024);
        assert!(all.exhausted());
        let mut limited = split_all(&program, 2, 5);
        assert_eq!(drain(&mut limited), order[..5]);
        assert!(!limited.exhausted());
    }

    /// Threads ahead of the reader wait: the queue holds at most twice its
    /// limit and one batch more per cube, whatever the reader's pace, and
    /// the reader gets every event in cube order.
    #[test]
    fn the_queue_bounds_what_runs_ahead_of_the_reader() {
        let batch = |n: u32| {
            let answer = AnswerSet {
                shown: vec![SymId(n); 50],
            };
            Event::Answers(vec![(answer, None)], SolveStats::default())
        };
        let weight = batch(0).weight();
        let queue = Arc::new(Queue::new(3, 4 * weight));
        for cube in 0..3 {
            let queue = queue.clone();
            std::thread::spawn(move || {
                for n in 0..100 {
                    assert!(queue.put(cube, batch(100 * cube as u32 + n)));
                }
                assert!(queue.put(cube, Event::Done(SolveStats::default())));
            });
        }
        let mut read = Vec::new();
        for cube in 0..3 {
            loop {
                let held = queue.lock().held_in_all;
                assert!(held <= 2 * 4 * weight + 3 * weight, "{held}");
                std::thread::sleep(std::time::Duration::from_micros(50));
                match queue.take(cube) {
                    Event::Answers(answers, _) => read.push(answers[0].0.shown[0].0),
                    Event::Done(_) => break,
                    Event::Stopped(_) | Event::Lost => unreachable!(),
                }
            }
            queue.read_from(cube + 1);
        }
        assert_eq!(read, (0..300).collect::<Vec<u32>>());
    }

    #[test]
    fn a_race_finds_an_answer_set_or_proves_there_is_none() {
        let counters = Arc::new(Counters::default());
        let options = SolveOptions {
            max_models: 1,
            ..SolveOptions::default()
        };
        for (text, answers) in [
            ("{a}. b :- a. c :- not a.", &["a b", "c"][..]),
            ("{a}. :- a. :- not a.", &[]),
            // Non-tight: `p` and `q` need `r`.
            ("p :- q. q :- p. p :- r. {r}. :- not p.", &["p q r"]),
        ] {
            let program = program_arc(text);
            let race = Race::start(
                program.clone(),
                options,
                3,
                false,
                counters.clone(),
                Arc::default(),
            );
            let won = race.unwrap().winner();
            match won.answer {
                Some((answer, costs)) => {
                    assert!(answers.contains(&answer.render(&program.symbols).as_str()));
                    assert!(costs.is_none());
                    assert!(!won.exhausted || answers.len() == 1, "{text}");
                }
                None => {
                    assert!(answers.is_empty(), "{text}");
                    assert!(won.exhausted);
                }
            }
        }
    }
}
