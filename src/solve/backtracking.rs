//! Enumeration by backtracking over the distinguishing literals, in the
//! manner of clasp's backtracking enumeration (Gebser, Kaufmann and
//! Schaub, "Solution enumeration for projected Boolean search problems",
//! CPAIOR 2009), with varisat as the oracle for the subtrees that unit
//! propagation alone does not settle.
//!
//! varisat has no interface to its decisions, and every call is a new
//! search: an answer set per call costs microseconds even when the next
//! one differs from the last in a single atom (65,536 subsets of
//! `{a(1..16)}` took 0.2 s, clingo 0.016 s). So the enumeration keeps its
//! own copy of the clauses ([`Propagator`], two watched literals) and
//! walks the tree of assignments depth first, deciding the
//! distinguishing literals in a fixed order and then the other variables:
//! a complete assignment that propagation leaves without a conflict is a
//! model, an answer set once the caller has checked it for unfounded
//! atoms. Each answer set ends the walk below it: the deepest
//! distinguishing decision not yet flipped is flipped, so every answer set
//! is found once and no clause is ever added to exclude one. A conflict
//! of the walk's propagation is analysed as a CDCL solver does (first
//! UIP): the walk learns the clause and backjumps to its asserting level,
//! but never below the deepest flipped decision, whose first branch holds
//! answer sets already reported; a conflict at that level flips. It keeps
//! at most [`LEARNED_AT_MOST`] learned clauses, forgetting the older half
//! when it has that many.
//!
//! The walk decides with the values of a *guide*, the last model the
//! oracle gave. While every decision agrees with it, the subtree holds
//! that model and propagation meets no conflict on the way down. Once a
//! flip leaves it, the walk goes on alone for [`CONFLICTS_BEFORE_ASKING`]
//! conflicts after the last answer set; then each node off the guide is
//! handed to varisat under the decisions as assumptions: a model becomes
//! the new guide, and no model closes the subtree. So a hard subtree costs
//! one call, as it would without the walk, and an easy one none.
//!
//! Without a copy of the clauses (`recording` off: a run asked for one
//! answer set, so the copy would only cost memory), every node off the
//! guide is asked: the same walk, one call per node.
//!
//! Where most subtrees off the guide are empty but propagation cannot see
//! it, the walk asks for each; the enumerator then ends the walk and
//! records solutions instead ([`Backtracking::explored`],
//! [`Propagator::implying`]).

use varisat_formula::{Lit, Var};

/// Conflicts that the walk meets on its own, after the last answer set,
/// before it asks varisat for every node off the guide. The walk learns
/// only clauses of up to [`LONGEST_LEARNED`] literals and never backjumps
/// below a flipped decision, so it may explore an empty subtree at
/// length; varisat settles it with one call of a few microseconds. Up to this many, the walk is
/// cheaper: the last colourings of a 16-cycle differ near the leaves,
/// where propagation finds the conflicts at once.
const CONFLICTS_BEFORE_ASKING: usize = 32;

/// The longest clause the walk learns from a conflict; a longer one is
/// not kept, and the walk flips the conflict's decision instead. Its
/// decisions come in a fixed order, so a conflict's clause may hold
/// hundreds of them, which no later conflict repeats and propagation
/// reads in vain (the 10-queens of gringo's examples: 1,100 literals on
/// average, 0.70 s with clauses up to 100 literals, 4.1 s with all).
const LONGEST_LEARNED: usize = 100;

/// The most learned clauses the walk keeps: each slows every propagation
/// over the literals it watches, and at this many it forgets the older
/// half. All 14,200 answer sets of the 12-queens (the bench's
/// `queens.lp`) took 4.9 s keeping all 57,000 clauses of its conflicts,
/// 0.85 s learning no more after 1,000, and take 1.15 s now (clingo 1.76
/// s). But stopping is a cliff: the corpus's `toh_bounded` took 0.08 s
/// with its 976 clauses and 0.68-0.80 s with 300 or fewer, and 0.70 s once
/// equivalent atoms shared a variable and its walk needed a few more; it
/// takes 0.11 s now. Forgetting all of them at 1,000: 1.08 and 0.24 s;
/// the older half at 500 or 2,000: 1.07 and 0.23 s, 1.30 and 0.11 s.
const LEARNED_AT_MOST: usize = 1_000;

/// A variable's value: false and true as the sign of its positive
/// literal, so that a literal is true where the value is its sign
/// ([`Propagator::is_true`]).
const FALSE: u8 = 0;
const TRUE: u8 = 1;
const UNSET: u8 = 2;

/// The reason of a decision.
const NO_REASON: u32 = u32::MAX;

/// The mark of a binary clause's watches; see [`Propagator::watches`].
const BINARY: u32 = 1 << 31;

/// Unit propagation over a copy of the solver's clauses, by two watched
/// literals; a complete assignment it leaves without a conflict satisfies
/// every clause.
///
/// Clauses may be added at any time, under any assignment. Each watches
/// its two literals of highest rank (true or unset first, then false ones
/// by decreasing level), which keeps the invariant the propagation needs:
/// a watched literal is false only while the other is not, or the clause
/// is reported. A clause false when added is reported by the lowest level
/// at which it is false ([`Propagator::take_false_level`]): the subtree of
/// the decisions up to that level has no model.
#[derive(Default)]
pub(super) struct Propagator {
    /// Whether clauses are kept: only then is an assignment without
    /// conflict a model.
    recording: bool,
    literals: Vec<Lit>,
    /// Each clause's first literal in `literals`, and its length.
    clauses: Vec<(u32, u32)>,
    /// By literal code: the clauses that watch the literal, each with a
    /// literal of the clause (a blocker): while it is true, the clause is
    /// satisfied and its literals need not be read. A binary clause's
    /// blocker is its other literal, and its index is marked [`BINARY`]:
    /// its literals are never read (most of a completion's clauses).
    watches: Vec<Vec<(u32, Lit)>>,
    /// By variable: [`UNSET`], [`TRUE`] or [`FALSE`].
    values: Vec<u8>,
    /// By variable: the decision level it was assigned at.
    levels: Vec<u32>,
    /// By variable: the clause that implied it, [`NO_REASON`] for a
    /// decision (or a unit of level 0, which analysis never reads).
    reasons: Vec<u32>,
    /// By variable: marks of the conflict analysis, all false between
    /// analyses.
    seen: Vec<bool>,
    trail: Vec<Lit>,
    /// The trail's literals before this one are propagated.
    propagated: usize,
    /// Where each decision level starts on the trail.
    level_starts: Vec<usize>,
    variables: usize,
    /// A clause is false at level 0: there is no model at all.
    inconsistent: bool,
    /// The clause being added, sorted and ranked.
    buffer: Vec<Lit>,
    /// The lowest level at which a clause added is false, if one is.
    false_level: Option<usize>,
    /// The clauses learned and kept, oldest first ([`LEARNED_AT_MOST`]).
    learned: Vec<u32>,
}

impl Propagator {
    pub(super) fn new(recording: bool) -> Propagator {
        Propagator {
            recording,
            ..Propagator::default()
        }
    }

    pub(super) fn recording(&self) -> bool {
        self.recording
    }

    /// Every clause it holds (the units fixed at the root among them), to
    /// load a solver with; `None` when it keeps no clauses.
    #[cfg(feature = "cadical")]
    pub(super) fn clauses(&self) -> Option<Vec<&[Lit]>> {
        if !self.recording {
            return None;
        }
        if self.inconsistent {
            return Some(vec![&[]]);
        }
        let root = self
            .level_starts
            .first()
            .copied()
            .unwrap_or(self.trail.len());
        let units = self.trail[..root].iter().map(std::slice::from_ref);
        let clauses = (self.clauses.iter())
            .map(|&(start, len)| &self.literals[start as usize..(start + len) as usize]);
        Some(units.chain(clauses).collect())
    }

    /// Adds a clause learned from a conflict, kept until
    /// [`Propagator::forget_older_learned`].
    fn learn(&mut self, lits: &[Lit]) {
        let index = self.clauses.len();
        self.add_clause(lits);
        if self.clauses.len() > index {
            self.learned.push(index as u32);
        }
    }

    /// Stops watching the older half of the learned clauses. They follow
    /// from the others, so forgetting them is sound, and their literals
    /// stay where the conflict analysis may read them as reasons.
    fn forget_older_learned(&mut self) {
        let half = self.learned.len() / 2;
        let mut forgotten = vec![false; self.clauses.len()];
        for index in self.learned.drain(..half) {
            forgotten[index as usize] = true;
        }
        for watching in &mut self.watches {
            watching.retain(|&(index, _)| !forgotten[(index & !BINARY) as usize]);
        }
    }

    /// Takes note of a variable of the solver.
    pub(super) fn add_var(&mut self, var: Var) {
        self.variables = self.variables.max(var.index() + 1);
    }

    pub(super) fn variables(&self) -> usize {
        self.variables
    }

    /// Sizes the tables for every variable so far; they are only built
    /// at the first decision or clause, so a run that stops at its first
    /// answer set pays nothing.
    fn grow(&mut self) {
        if self.values.len() < self.variables {
            self.values.resize(self.variables, UNSET);
            self.levels.resize(self.variables, 0);
            self.reasons.resize(self.variables, NO_REASON);
            self.seen.resize(self.variables, false);
            if self.recording {
                self.watches.resize_with(2 * self.variables, Vec::new);
            }
        }
    }

    pub(super) fn add_clause(&mut self, lits: &[Lit]) {
        if !self.recording {
            // varisat takes a clause's variables as declared.
            if let Some(last) = lits.iter().map(|lit| lit.index()).max() {
                self.variables = self.variables.max(last + 1);
            }
            return;
        }
        let mut clause = std::mem::take(&mut self.buffer);
        clause.clear();
        clause.extend_from_slice(lits);
        clause.sort_unstable();
        clause.dedup();
        if !clause.windows(2).any(|pair| pair[0] == !pair[1]) {
            self.attach(&mut clause);
        }
        self.buffer = clause;
    }

    /// Adds a clause without repeated literals and not a tautology.
    fn attach(&mut self, clause: &mut [Lit]) {
        if let Some(last) = clause.iter().map(|lit| lit.index()).max() {
            self.variables = self.variables.max(last + 1);
        }
        self.grow();
        let rank = |lit: &Lit| match self.values[lit.index()] {
            UNSET => (1, 0),
            value if (value == TRUE) == lit.is_positive() => (2, 0),
            _ => (0, self.levels[lit.index()]),
        };
        clause.sort_by_key(|lit| std::cmp::Reverse(rank(lit)));
        let Some(&first) = clause.first() else {
            self.inconsistent = true;
            return;
        };
        if self.value(first) == Some(false) {
            let level = self.levels[first.index()] as usize;
            if level == 0 {
                self.inconsistent = true;
                return;
            }
            self.false_level = Some(self.false_level.map_or(level, |l| l.min(level)));
        }
        if clause.len() == 1 && self.level_starts.is_empty() {
            if self.value(first).is_none() {
                self.assign(first, NO_REASON);
            }
            return;
        }
        let index = self.clauses.len() as u32;
        assert!(index < BINARY, "too many clauses for a watch's index");
        self.clauses
            .push((self.literals.len() as u32, clause.len() as u32));
        self.literals.extend_from_slice(clause);
        if let [a, b] = *clause {
            self.watches[a.code()].push((index | BINARY, b));
            self.watches[b.code()].push((index | BINARY, a));
        } else {
            let blocker = clause[clause.len() - 1];
            for &watched in clause.iter().take(2) {
                self.watches[watched.code()].push((index, blocker));
            }
        }
        // Unit now: its literal follows, at the current level (which may
        // be above the level that implies it: propagation is then weaker
        // after backtracking, never wrong).
        let unit = clause.get(1).is_none_or(|&l| self.value(l) == Some(false));
        if unit && self.value(first).is_none() {
            self.assign(first, index);
        }
    }

    /// The lowest level at which a clause added since the last call is
    /// false.
    fn take_false_level(&mut self) -> Option<usize> {
        self.false_level.take()
    }

    /// Every variable's value into `values`, by variable, an unassigned
    /// one false.
    pub(super) fn read_values(&self, values: &mut Vec<bool>) {
        values.clear();
        values.extend(self.values.iter().map(|&value| value == TRUE));
        values.resize(self.variables, false);
    }

    /// A subset of `model` (literals that hold together in a model of the
    /// clauses) from which unit propagation, from the root, makes every
    /// literal of `model` true: the literals it has to decide, in the order
    /// given. `None` when propagation meets a conflict on the way (a clause
    /// that `model` breaks).
    pub(super) fn implying(&mut self, model: &[Lit]) -> Option<Vec<Lit>> {
        self.backjump(0);
        if self.inconsistent || self.propagate().is_some() {
            return None;
        }
        let mut decided = Vec::new();
        let mut consistent = true;
        for &lit in model {
            match self.value(lit) {
                Some(true) => continue,
                Some(false) => consistent = false,
                None => {
                    self.decide(lit);
                    decided.push(lit);
                    consistent = self.propagate().is_none();
                }
            }
            if !consistent {
                break;
            }
        }
        self.backjump(0);
        consistent.then_some(decided)
    }

    pub(super) fn value(&self, lit: Lit) -> Option<bool> {
        match self.values.get(lit.index()).copied().unwrap_or(UNSET) {
            UNSET => None,
            value => Some((value == TRUE) == lit.is_positive()),
        }
    }

    /// Whether `lit` is true: propagation's test, one comparison.
    #[inline]
    fn is_true(&self, lit: Lit) -> bool {
        self.values[lit.index()] == u8::from(lit.is_positive())
    }

    #[inline]
    fn is_false(&self, lit: Lit) -> bool {
        self.values[lit.index()] == u8::from(lit.is_negative())
    }

    fn level(&self) -> usize {
        self.level_starts.len()
    }

    fn assign(&mut self, lit: Lit, reason: u32) {
        self.values[lit.index()] = if lit.is_positive() { TRUE } else { FALSE };
        self.levels[lit.index()] = self.level() as u32;
        self.reasons[lit.index()] = reason;
        self.trail.push(lit);
    }

    fn decide(&mut self, lit: Lit) {
        self.grow();
        self.level_starts.push(self.trail.len());
        self.assign(lit, NO_REASON);
    }

    /// Undoes the levels above `level`.
    fn backjump(&mut self, level: usize) {
        if level >= self.level() {
            return;
        }
        let start = self.level_starts[level];
        for lit in self.trail.drain(start..) {
            self.values[lit.index()] = UNSET;
        }
        self.level_starts.truncate(level);
        self.propagated = self.propagated.min(start);
        // A clause false up to an undone level may hold now.
        self.false_level = self.false_level.filter(|&false_at| false_at <= level);
    }

    /// Propagates the trail; the clause it finds false, if any.
    fn propagate(&mut self) -> Option<u32> {
        if !self.recording {
            return None; // no clauses to propagate
        }
        while let Some(&lit) = self.trail.get(self.propagated) {
            self.propagated += 1;
            let falsified = !lit;
            let mut watching = std::mem::take(&mut self.watches[falsified.code()]);
            let mut kept = 0;
            let mut conflict = None;
            for i in 0..watching.len() {
                let (index, blocker) = watching[i];
                if conflict.is_some() || self.is_true(blocker) {
                    watching[kept] = (index, blocker);
                    kept += 1;
                    continue;
                }
                if index & BINARY != 0 {
                    watching[kept] = (index, blocker);
                    kept += 1;
                    if self.is_false(blocker) {
                        conflict = Some(index & !BINARY);
                    } else {
                        self.assign(blocker, index & !BINARY);
                    }
                    continue;
                }
                let (start, len) = self.clauses[index as usize];
                let (start, len) = (start as usize, len as usize);
                if len == 1 {
                    conflict = Some(index);
                    watching[kept] = (index, blocker);
                    kept += 1;
                    continue;
                }
                if self.literals[start] == falsified {
                    self.literals.swap(start, start + 1);
                }
                let other = self.literals[start];
                if self.is_true(other) {
                    watching[kept] = (index, other);
                    kept += 1;
                    continue;
                }
                let replacement =
                    (start + 2..start + len).find(|&k| !self.is_false(self.literals[k]));
                if let Some(k) = replacement {
                    self.literals.swap(start + 1, k);
                    self.watches[self.literals[start + 1].code()].push((index, other));
                    continue;
                }
                watching[kept] = (index, blocker);
                kept += 1;
                if self.is_false(other) {
                    conflict = Some(index);
                } else {
                    self.assign(other, index);
                }
            }
            watching.truncate(kept);
            self.watches[falsified.code()] = watching;
            if conflict.is_some() {
                self.propagated = self.trail.len();
                return conflict;
            }
        }
        None
    }

    fn clause(&self, index: u32) -> &[Lit] {
        let (start, len) = self.clauses[index as usize];
        &self.literals[start as usize..(start + len) as usize]
    }

    /// The conflict of the clause `conflict`, false, analysed.
    ///
    /// The clause is resolved with the reasons of its literals of its
    /// highest level back to the first literal of that level that all
    /// paths from the level's decision to the conflict pass (first UIP).
    /// Every decision has no reason here, a flipped one too: the learned
    /// clause is a resolvent of clauses, so it holds whatever the walk has
    /// flipped.
    fn analyze(&mut self, conflict: u32) -> Learned {
        let level = (self.clause(conflict).iter())
            .map(|lit| self.levels[lit.index()])
            .max()
            .unwrap_or(0);
        if level == 0 {
            // No model at all: the empty clause.
            return Learned {
                clause: Vec::new(),
                conflict_level: 0,
                asserting_level: 0,
            };
        }
        let mut learned = vec![Lit::from_code(0)];
        let mut pending = 0usize;
        let mut reason = conflict;
        let mut position = self.trail.len();
        let uip = loop {
            let (start, len) = self.clauses[reason as usize];
            for k in start as usize..(start + len) as usize {
                let lit = self.literals[k];
                let var = lit.index();
                if self.seen[var] || self.levels[var] == 0 || self.value(lit) != Some(false) {
                    // The implied literal itself is true, skipped.
                    continue;
                }
                self.seen[var] = true;
                if self.levels[var] == level {
                    pending += 1;
                } else {
                    learned.push(lit);
                }
            }
            let lit = loop {
                position -= 1;
                let lit = self.trail[position];
                if self.seen[lit.index()] {
                    break lit;
                }
            };
            self.seen[lit.index()] = false;
            pending -= 1;
            if pending == 0 {
                break lit;
            }
            reason = self.reasons[lit.index()];
            debug_assert!(reason != NO_REASON, "a decision before the first UIP");
        };
        learned[0] = !uip;
        let mut asserting = 0;
        for &lit in &learned[1..] {
            self.seen[lit.index()] = false;
            asserting = asserting.max(self.levels[lit.index()] as usize);
        }
        Learned {
            clause: learned,
            conflict_level: level as usize,
            asserting_level: asserting,
        }
    }
}

/// A clause learned from a conflict.
struct Learned {
    /// The negation of the first UIP, then literals of lower levels.
    clause: Vec<Lit>,
    /// The highest level of the conflict's literals, the first UIP's.
    conflict_level: usize,
    /// The highest level of the clause's literals after the first (0 for
    /// a unit): below it the clause is not unit.
    asserting_level: usize,
}

/// What the walk needs next.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Step {
    /// A call of the solver under these assumptions (the walk's
    /// decisions); answer with [`Backtracking::guided`] and report the
    /// answer set found, or with [`Backtracking::refuted`].
    Ask(Vec<Lit>),
    /// The propagator's assignment is complete and satisfies the clauses;
    /// answer with [`Backtracking::accepted`] or, when it has unfounded
    /// atoms (whose loop formulas were added), [`Backtracking::rejected`].
    Model,
    /// No answer set is left.
    Exhausted,
}

/// A decision level of the walk.
struct Level {
    decision: Lit,
    /// The second branch: the first one is done.
    flipped: bool,
    /// Its variable is a distinguishing one.
    distinguishing: bool,
    /// The decision agrees with the guide.
    agrees: bool,
    /// The cursors as they were before the decision.
    next_distinguishing: usize,
    next_var: usize,
}

/// The depth-first walk; see the module's documentation.
pub(super) struct Backtracking {
    distinguishing: Vec<Lit>,
    levels: Vec<Level>,
    /// The last model of the oracle, by variable; empty before the first.
    guide: Vec<bool>,
    /// Levels whose decision disagrees with the guide.
    off_guide: usize,
    /// Conflicts since the last answer set.
    conflicts: usize,
    /// The conflicts the walk meets alone before it asks
    /// ([`CONFLICTS_BEFORE_ASKING`]).
    patience: usize,
    /// The guide was reported as an answer set; the walk has yet to go
    /// down to it.
    descending: bool,
    /// Distinguishing literals before this one are assigned.
    next_distinguishing: usize,
    /// Variables before this one are assigned.
    next_var: usize,
    exhausted: bool,
}

impl Backtracking {
    /// The literals it tells answer sets apart by, in the order decided.
    pub(super) fn distinguishing(&self) -> &[Lit] {
        &self.distinguishing
    }

    pub(super) fn new(distinguishing: Vec<Lit>) -> Backtracking {
        Backtracking {
            distinguishing,
            levels: Vec::new(),
            guide: Vec::new(),
            off_guide: 0,
            conflicts: 0,
            patience: CONFLICTS_BEFORE_ASKING,
            descending: false,
            next_distinguishing: 0,
            next_var: 0,
            exhausted: false,
        }
    }

    /// Asks the oracle at the first conflict off the guide: the tests of
    /// the enumerator's oracles, on programs too small for the walk to
    /// need one otherwise.
    #[cfg(test)]
    pub(super) fn ask_at_every_conflict(&mut self) {
        self.patience = 0;
    }

    /// Walks on until it needs the caller.
    pub(super) fn step(&mut self, propagator: &mut Propagator) -> Step {
        if std::mem::take(&mut self.descending) {
            self.descend(propagator);
        }
        loop {
            if self.exhausted || propagator.inconsistent {
                return Step::Exhausted;
            }
            if !self.propagate(propagator) {
                continue;
            }
            // Without the clauses, the other variables are never decided
            // and a leaf is never trusted: only the guide is a model.
            let recording = propagator.recording();
            let next = self.next_unassigned(propagator, recording);
            if next.is_none() && recording {
                return Step::Model;
            }
            // A backjump leaves the guide too: its asserted literal
            // disagrees with the guide.
            let off = self.off_guide > 0 || self.conflicts > 0;
            let lost = off && (!recording || self.conflicts >= self.patience);
            let Some((var, distinguishing)) = next.filter(|_| !self.guide.is_empty() && !lost)
            else {
                return Step::Ask(self.levels.iter().map(|level| level.decision).collect());
            };
            self.decide(var, distinguishing, propagator);
        }
    }

    /// Propagates, or leaves the subtree of a conflict (found by
    /// propagation, or a clause added false); false after a conflict.
    fn propagate(&mut self, propagator: &mut Propagator) -> bool {
        if let Some(level) = propagator.take_false_level() {
            self.pop_to(level, propagator);
            self.flip(propagator);
            return false;
        }
        let Some(conflict) = propagator.propagate() else {
            return true;
        };
        self.conflicts += 1;
        // Below the deepest flipped decision, the walk would enter the
        // subtree of its first branch again, whose answer sets are
        // reported: a conflict at its level flips, unanalysed (nearly
        // every conflict of gringo's 10-queens, where the analysis of
        // clauses of a thousand decisions only cost time).
        let flipped = (self.levels.iter()).rposition(|level| level.flipped);
        let flipped = flipped.map_or(0, |i| i + 1);
        if self.levels.len() <= flipped {
            self.flip(propagator);
            return false;
        }
        let learned = propagator.analyze(conflict);
        if learned.conflict_level <= flipped || learned.clause.len() > LONGEST_LEARNED {
            self.flip(propagator);
            return false;
        }
        self.pop_to(learned.asserting_level.max(flipped), propagator);
        if propagator.learned.len() >= LEARNED_AT_MOST {
            propagator.forget_older_learned();
        }
        // Unit after the backjump: the first UIP's negation follows, at the
        // level of the deepest flipped decision when that is higher.
        propagator.learn(&learned.clause);
        false
    }

    fn decide(&mut self, var: Var, distinguishing: bool, propagator: &mut Propagator) {
        let decision = var.lit(self.guide.get(var.index()).copied().unwrap_or(false));
        self.levels.push(Level {
            decision,
            flipped: false,
            distinguishing,
            agrees: true,
            next_distinguishing: self.next_distinguishing,
            next_var: self.next_var,
        });
        propagator.decide(decision);
    }

    /// Walks down to the answer set the oracle found and the caller
    /// reported, along its distinguishing literals, and leaves it.
    fn descend(&mut self, propagator: &mut Propagator) {
        while self.propagate(propagator) {
            match self.next_unassigned(propagator, false) {
                Some((var, _)) => self.decide(var, true, propagator),
                None => return self.accepted(propagator),
            }
        }
        // A clause added since makes the answer set no model any more:
        // its subtree is left like any other conflict's.
    }

    /// The oracle found `model` (values by variable) under the decisions,
    /// an answer set that the caller reports: the walk follows it from
    /// here and leaves it at the next step.
    pub(super) fn guided(&mut self, model: &[bool]) {
        self.descending = true;
        self.guide.clear();
        self.guide.extend_from_slice(model);
        for level in &mut self.levels {
            level.agrees = true;
        }
        self.off_guide = 0;
    }

    /// The oracle found no model under the decisions, nor under `core`, a
    /// subset of them (its failed assumptions). Every subtree below the
    /// deepest decision of the core is empty too, so the walk leaves them
    /// all at once, as a CDCL solver backjumps; and the core's negation is
    /// a clause of the formula that the walk's copy keeps, as a CDCL solver
    /// keeps what it learns, to refute like subtrees by propagation. The
    /// 10-queens of gringo's examples (724 answer sets) asked 45,958 times
    /// without it, the cores of CaDiCaL holding 4.5 decisions on average.
    pub(super) fn refuted(&mut self, core: &[Lit], propagator: &mut Propagator) {
        let deepest = (self.levels.iter()).rposition(|level| core.contains(&level.decision));
        self.pop_to(deepest.map_or(0, |i| i + 1), propagator);
        self.flip(propagator);
        let nogood: Vec<Lit> = core.iter().map(|&l| !l).collect();
        propagator.add_clause(&nogood);
    }

    /// The complete assignment is an answer set: the walk leaves its
    /// subtree, and the subtrees of the variables after the distinguishing
    /// ones, which only hold the same answer set again.
    pub(super) fn accepted(&mut self, propagator: &mut Propagator) {
        self.conflicts = 0;
        let distinguishing = self.levels.iter().rposition(|level| level.distinguishing);
        self.pop_to(distinguishing.map_or(0, |i| i + 1), propagator);
        self.flip(propagator);
    }

    /// The complete assignment breaks a constraint the propagator does
    /// not hold (a sum left to the solver's search): a conflict.
    pub(super) fn violated(&mut self, propagator: &mut Propagator) {
        self.conflicts += 1;
        self.flip(propagator);
    }

    /// The complete assignment has unfounded atoms, and their loop
    /// formulas are in the propagator.
    pub(super) fn rejected(&mut self, propagator: &mut Propagator) {
        if propagator.false_level.is_none() {
            // The formulas hold new variables, unset: the assignment of
            // the old ones is all the subtree holds, and it is no answer
            // set whatever they are.
            self.flip(propagator);
        }
    }

    /// Clauses that exclude the subtrees the walk has left: for each
    /// flipped decision, its first branch under the decisions above it.
    /// Every answer set reported lies in one of them, and they hold no
    /// other (a branch is flipped once its answer sets are reported, or
    /// when it has none), so a search that takes over from the walk under
    /// these clauses finds each remaining answer set, and only those.
    pub(super) fn explored(&self) -> Vec<Vec<Lit>> {
        (self.levels.iter().enumerate())
            .filter(|(_, level)| level.flipped)
            .map(|(depth, level)| {
                let above = self.levels[..depth].iter().map(|above| !above.decision);
                above.chain([level.decision]).collect()
            })
            .collect()
    }

    /// The first variable to decide: a distinguishing one, in order, then
    /// with `others` any other; `None` when all are assigned.
    fn next_unassigned(&mut self, propagator: &Propagator, others: bool) -> Option<(Var, bool)> {
        while let Some(&lit) = self.distinguishing.get(self.next_distinguishing) {
            if propagator.value(lit).is_none() {
                return Some((lit.var(), true));
            }
            self.next_distinguishing += 1;
        }
        while others && self.next_var < propagator.variables() {
            let var = Var::from_index(self.next_var);
            if propagator.value(var.positive()).is_none() {
                return Some((var, false));
            }
            self.next_var += 1;
        }
        None
    }

    fn pop(&mut self, propagator: &mut Propagator) -> Option<Level> {
        let level = self.levels.pop()?;
        self.off_guide -= usize::from(!level.agrees);
        self.next_distinguishing = level.next_distinguishing;
        self.next_var = level.next_var;
        propagator.backjump(self.levels.len());
        Some(level)
    }

    fn pop_to(&mut self, depth: usize, propagator: &mut Propagator) {
        while self.levels.len() > depth {
            self.pop(propagator);
        }
    }

    /// Leaves the current subtree: flips the deepest decision not flipped
    /// yet, or ends the walk.
    fn flip(&mut self, propagator: &mut Propagator) {
        loop {
            let Some(level) = self.pop(propagator) else {
                self.exhausted = true;
                return;
            };
            if level.flipped {
                continue;
            }
            let decision = !level.decision;
            self.levels.push(Level {
                decision,
                flipped: true,
                agrees: false,
                ..level
            });
            self.off_guide += 1;
            propagator.decide(decision);
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::Rng;

    /// The older half of the learned clauses no longer propagates; the
    /// newer half and the clauses given do.
    #[test]
    fn forgotten_clauses_no_longer_propagate() {
        let lit = |i: usize| Var::from_index(i).positive();
        let mut propagator = Propagator::new(true);
        for i in 0..8 {
            propagator.add_var(Var::from_index(i));
        }
        propagator.add_clause(&[!lit(0), lit(1)]);
        // Learned: 0 → 2, 0 → 3 ∨ ¬4 (forgotten); 0 → 5, 0 → 6 ∨ ¬7.
        propagator.learn(&[!lit(0), lit(2)]);
        propagator.learn(&[!lit(0), lit(3), !lit(4)]);
        propagator.learn(&[!lit(0), lit(5)]);
        propagator.learn(&[!lit(0), lit(6), !lit(7)]);
        propagator.forget_older_learned();
        propagator.decide(lit(4));
        propagator.decide(lit(7));
        propagator.decide(lit(0));
        assert_eq!(propagator.propagate(), None);
        let values: Vec<Option<bool>> = (1..8).map(|i| propagator.value(lit(i))).collect();
        let expected = [
            Some(true),
            None,
            None,
            Some(true),
            Some(true),
            Some(true),
            Some(true),
        ];
        assert_eq!(values, expected);
    }

    /// An assignment of up to 32 variables, bit `i` for variable `i`.
    fn holds(lit: Lit, assignment: u32) -> bool {
        (assignment >> lit.index() & 1 == 1) == lit.is_positive()
    }

    fn satisfies(clauses: &[Vec<Lit>], assignment: u32) -> bool {
        clauses
            .iter()
            .all(|c| c.iter().any(|&l| holds(l, assignment)))
    }

    fn random_clause(rng: &mut Rng, variables: usize) -> Vec<Lit> {
        (0..1 + rng.below(3))
            .map(|_| Var::from_index(rng.below(variables)).lit(rng.chance(50)))
            .collect()
    }

    /// A subset of `assumptions`, none of them redundant, that no model of
    /// `clauses` satisfies (there is none under all of them), as a solver's
    /// failed assumptions.
    fn failed_core(clauses: &[Vec<Lit>], variables: usize, assumptions: &[Lit]) -> Vec<Lit> {
        let unsatisfiable = |core: &[Lit]| {
            !(0..1u32 << variables)
                .any(|a| satisfies(clauses, a) && core.iter().all(|&l| holds(l, a)))
        };
        let mut core = assumptions.to_vec();
        let mut i = 0;
        while i < core.len() {
            let without: Vec<Lit> = (core.iter().enumerate())
                .filter(|&(j, _)| j != i)
                .map(|(_, &l)| l)
                .collect();
            if unsatisfiable(&without) {
                core = without;
            } else {
                i += 1;
            }
        }
        core
    }

    /// A clause that `assignment` falsifies, over one to three of its
    /// variables: what a loop formula is to the model it cuts away.
    fn cut(rng: &mut Rng, variables: usize, assignment: u32) -> Vec<Lit> {
        (0..1 + rng.below(3))
            .map(|_| {
                let var = Var::from_index(rng.below(variables));
                var.lit(!holds(var.positive(), assignment))
            })
            .collect()
    }

    /// Walks over random clauses with a brute-force oracle, cutting away
    /// some of the models it finds (and some the oracle finds) by clauses
    /// added on the way, as the loop formulas of unfounded models are.
    /// Every model of the final clauses must be reported once, by its
    /// distinguishing variables, and every report must be a model of the
    /// clauses at that time. Some walks hand over to solution recording
    /// part way, under the clauses of [`Backtracking::explored`].
    fn check(seed: u64, recording: bool) {
        let mut rng = Rng::new(seed);
        let variables = 2 + rng.below(9);
        let mut clauses: Vec<Vec<Lit>> = (0..rng.below(3 * variables))
            .map(|_| random_clause(&mut rng, variables))
            .collect();
        let mut distinguishing = Vec::new();
        for i in 0..variables {
            if rng.chance(70) {
                distinguishing.push(Var::from_index(i).lit(rng.chance(50)));
            }
        }
        if rng.chance(50) {
            distinguishing.reverse();
        }
        let project =
            |a: u32| -> Vec<bool> { distinguishing.iter().map(|&l| holds(l, a)).collect() };
        let mut propagator = Propagator::new(recording);
        for i in 0..variables {
            propagator.add_var(Var::from_index(i));
        }
        for clause in &clauses {
            propagator.add_clause(clause);
        }
        let mut walk = Backtracking {
            patience: rng.below(4),
            ..Backtracking::new(distinguishing.clone())
        };
        let mut reported: Vec<Vec<bool>> = Vec::new();
        // The solver takes over at this question, if there is one.
        let mut asks_before_taking_over = rng.chance(40).then(|| rng.below(12));
        let mut steps = 0;
        loop {
            steps += 1;
            assert!(steps < 100_000, "seed {seed}: the walk does not end");
            match walk.step(&mut propagator) {
                Step::Exhausted => break,
                Step::Ask(_) if asks_before_taking_over == Some(0) => {
                    let mut excluded = walk.explored();
                    for clause in &excluded {
                        propagator.add_clause(clause);
                    }
                    // Solution recording, as the enumerator does it.
                    while let Some(a) = (0..1u32 << variables)
                        .find(|&a| satisfies(&clauses, a) && satisfies(&excluded, a))
                    {
                        let mut model: Vec<Lit> = (distinguishing.iter())
                            .map(|&l| if holds(l, a) { l } else { !l })
                            .collect();
                        model.sort_by_key(|lit| !lit.is_positive());
                        let decided = propagator.implying(&model).unwrap_or(model);
                        let block: Vec<Lit> = decided.iter().map(|&l| !l).collect();
                        propagator.add_clause(&block);
                        excluded.push(block);
                        reported.push(project(a));
                    }
                    break;
                }
                Step::Ask(assumptions) => {
                    asks_before_taking_over = asks_before_taking_over.map(|n| n - 1);
                    let found = loop {
                        let candidate = (0..1u32 << variables).find(|&a| {
                            satisfies(&clauses, a) && assumptions.iter().all(|&l| holds(l, a))
                        });
                        match candidate {
                            Some(a) if rng.chance(20) => {
                                // Often over the decisions, as a loop
                                // formula is over atoms of the model.
                                let mut clause = cut(&mut rng, variables, a);
                                if !assumptions.is_empty() && rng.chance(50) {
                                    clause.truncate(1);
                                    clause.push(!rng.pick(&assumptions));
                                }
                                propagator.add_clause(&clause);
                                clauses.push(clause);
                            }
                            other => break other,
                        }
                    };
                    match found {
                        Some(a) => {
                            let model: Vec<bool> =
                                (0..variables).map(|i| a >> i & 1 == 1).collect();
                            walk.guided(&model);
                            reported.push(project(a));
                        }
                        None => {
                            let core = failed_core(&clauses, variables, &assumptions);
                            walk.refuted(&core, &mut propagator);
                        }
                    }
                }
                Step::Model => {
                    assert!(recording, "seed {seed}: a leaf trusted without the clauses");
                    let a = (0..variables)
                        .filter(|&i| propagator.value(Var::from_index(i).positive()) == Some(true))
                        .fold(0, |a, i| a | 1 << i);
                    assert!(
                        satisfies(&clauses, a),
                        "seed {seed}: a leaf that is no model"
                    );
                    if rng.chance(20) {
                        let clause = cut(&mut rng, variables, a);
                        propagator.add_clause(&clause);
                        clauses.push(clause);
                        walk.rejected(&mut propagator);
                    } else {
                        walk.accepted(&mut propagator);
                        reported.push(project(a));
                    }
                }
            }
        }
        let mut expected: Vec<Vec<bool>> = (0..1u32 << variables)
            .filter(|&a| satisfies(&clauses, a))
            .map(project)
            .collect();
        expected.sort();
        expected.dedup();
        let mut once = reported.clone();
        once.sort();
        once.dedup();
        assert_eq!(
            once.len(),
            reported.len(),
            "seed {seed}: an answer reported twice"
        );
        // Reports cut away later were models when they were reported.
        once.retain(|p| expected.contains(p));
        assert_eq!(once, expected, "seed {seed}: models lost");
    }

    /// Propagation reaches its fixpoint: after random decisions (each
    /// propagated, the clauses added at any point), either a clause is
    /// reported false, or every clause is satisfied or keeps two
    /// unassigned literals, binary clauses as the longer ones.
    #[test]
    fn propagation_leaves_no_unit_clause() {
        let mut rng = Rng::new(7);
        let mut conflicts = 0;
        for _ in 0..3000 {
            let variables = 2 + rng.below(9);
            let mut propagator = Propagator::new(true);
            (0..variables).for_each(|i| propagator.add_var(Var::from_index(i)));
            let mut clauses = Vec::new();
            let mut conflict = false;
            for _ in 0..1 + rng.below(variables) {
                for _ in 0..rng.below(variables) {
                    let clause = random_clause(&mut rng, variables);
                    propagator.add_clause(&clause);
                    clauses.push(clause);
                }
                conflict = propagator.take_false_level().is_some() || propagator.inconsistent;
                conflict = conflict || propagator.propagate().is_some();
                if conflict {
                    break;
                }
                let Some(var) = (0..variables)
                    .map(Var::from_index)
                    .find(|&v| propagator.value(v.positive()).is_none())
                else {
                    break;
                };
                propagator.decide(var.lit(rng.chance(50)));
            }
            if conflict || propagator.propagate().is_some() {
                conflicts += 1;
                continue;
            }
            for clause in &clauses {
                let satisfied = clause.iter().any(|&l| propagator.value(l) == Some(true));
                let tautology = clause.iter().any(|&l| clause.contains(&!l));
                let open = clause.iter().filter(|&&l| propagator.value(l).is_none());
                let mut open: Vec<Lit> = open.copied().collect();
                open.sort_unstable();
                open.dedup();
                assert!(
                    satisfied || tautology || open.len() >= 2,
                    "{clause:?} unit or false"
                );
            }
        }
        assert!(conflicts > 100, "{conflicts} ended in a conflict");
    }

    #[test]
    fn walk_reports_every_model_once() {
        for seed in 0..3000 {
            check(seed, true);
            check(seed, false);
        }
    }
}
