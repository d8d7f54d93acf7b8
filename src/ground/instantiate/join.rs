//! Join planning and evaluation: a rule's literals ordered into steps
//! (most bound first, an index on the bound positions of each atom), and
//! the depth-first evaluation of those steps under a binding.
//!
//! Input: a safe compiled rule and the relations. Output: every binding
//! of the rule's variables that satisfies its body, handed to a leaf
//! (rule instances, [`super::instances`]), intervals narrowed by the
//! comparisons that follow them.

use super::relations::bound_mask;
use super::{Exec, Instantiator, Negated};
use crate::ground::compiled::{CAggregate, CAtom, CLit};
use crate::ground::eval::{CTerm, compare};
use crate::ground::predicates::PredId;
use crate::ground::safety::{bind_step, literal_terms, placeable};
use crate::symbols::SymId;
use crate::syntax::ast::CmpOp;
use rustc_hash::FxHashSet;
use std::sync::atomic::Ordering;

/// Which part of each relation a literal ranges over in one evaluation.
#[derive(Clone, Copy)]
pub(super) enum Window {
    All,
    Stable,
    Recent,
}

pub(super) enum Step<'r> {
    Match {
        atom: &'r CAtom,
        mask: u64,
        /// The relation's index on `mask` (unused when `mask` is 0).
        index: usize,
        window: Window,
        /// The positions of variables that occur nowhere else in the rule.
        ignored: u64,
    },
    Neg(&'r CAtom),
    NotNot(&'r CAtom),
    Filter(CmpOp, &'r CTerm, &'r CTerm),
    Bind {
        pattern: &'r CTerm,
        value: &'r CTerm,
    },
    Interval {
        pattern: &'r CTerm,
        lo: &'r CTerm,
        hi: &'r CTerm,
        /// For a variable pattern `V`: what the literals after it in the
        /// same conjunction say about its values.
        narrowing: Narrowing<'r>,
        /// Those literals are all that reads `V`: every value that passes
        /// them gives the same instance, so the first is tried alone.
        witness: bool,
        /// The steps after it that only say whether some values of `V` and
        /// of the variables they join it with exist (`1 < V < W`, with
        /// `W = lo..hi`), positions in the plan: every value of `V` for
        /// which they hold gives the same instances, so only the first one
        /// is tried ([`Existential::group`]).
        group: Vec<usize>,
    },
    /// `pattern` (bound) is an integer in `lo..hi`.
    InRange {
        pattern: &'r CTerm,
        lo: &'r CTerm,
        hi: &'r CTerm,
    },
    /// The variables are unbound for the steps after it (an aggregate
    /// element's local variables, bound by a join that led to it).
    Forget(Vec<usize>),
    /// A body aggregate, with one plan per element condition (and for a
    /// conditional literal, one for its `not l` after the condition).
    Aggregate {
        aggregate: &'r CAggregate,
        plans: Vec<ElementPlan<'r>>,
        /// Its elements read the component being grounded.
        recursive: bool,
    },
}

/// The literals that follow an interval `V = lo..hi` in a conjunction and
/// read `V` with everything else bound.
#[derive(Default)]
pub(super) struct Narrowing<'r> {
    /// Those that bound `V` (`V op t`, another interval of `V`), as `V op
    /// t`: the values outside those bounds are not tried.
    pub(super) clips: Vec<(CmpOp, &'r CTerm)>,
    /// Every one of them (comparisons and intervals).
    pub(super) readers: Vec<&'r CLit>,
    /// How often `V` occurs in `readers`.
    pub(super) occurrences: usize,
}

impl<'r> Narrowing<'r> {
    /// What the literals not yet `done` say about `v`, with `bound` bound.
    pub(super) fn of(v: usize, literals: &'r [CLit], done: &[bool], bound: &[bool]) -> Self {
        let is_v = |t: &CTerm| matches!(t, CTerm::Var(w) if *w == v);
        // `V < V+1` says nothing of the values of `V` on its own.
        let without_v = |t: &CTerm| {
            let mut found = false;
            t.for_each_var(&mut |w| found |= w == v);
            !found
        };
        let mut narrowing = Narrowing::default();
        for (literal, _) in literals.iter().zip(done).filter(|(_, done)| !**done) {
            let (mut occurrences, mut others_bound) = (0, true);
            literal_terms(literal, &mut |t| {
                t.for_each_var(&mut |w| {
                    occurrences += usize::from(w == v);
                    others_bound &= w == v || bound[w];
                })
            });
            if occurrences == 0 || !others_bound {
                continue;
            }
            match literal {
                CLit::Cmp(op, l, r) if is_v(l) && without_v(r) => narrowing.clips.push((*op, r)),
                CLit::Cmp(op, l, r) if is_v(r) && without_v(l) => {
                    narrowing.clips.push((op.flip(), l))
                }
                CLit::Cmp(..) => {}
                CLit::Interval(pattern, lo, hi) if is_v(pattern) && occurrences == 1 => {
                    narrowing.clips.extend([(CmpOp::Ge, lo), (CmpOp::Le, hi)])
                }
                CLit::Interval(..) => {}
                _ => continue,
            }
            narrowing.readers.push(literal);
            narrowing.occurrences += occurrences;
        }
        narrowing.clips.extend(peer_clips(v, literals, done, bound));
        narrowing.clips.retain(|(op, _)| *op != CmpOp::Ne);
        narrowing
    }
}

/// The bounds that comparisons `V op W` with another interval's variable
/// `W = lo..hi` (not yet evaluated, `lo` and `hi` bound) put on `V`: `V <
/// W` needs `V < hi`, `V > W` needs `V > lo` (`1 < 2..9 < 1..1` tries no
/// value of its middle).
fn peer_clips<'r>(
    v: usize,
    literals: &'r [CLit],
    done: &[bool],
    bound: &[bool],
) -> Vec<(CmpOp, &'r CTerm)> {
    let pending = || literals.iter().zip(done).filter(|(_, done)| !**done);
    let mut peers: Vec<(CmpOp, usize)> = Vec::new();
    for (literal, _) in pending() {
        match literal {
            CLit::Cmp(op, CTerm::Var(l), CTerm::Var(r)) if *l == v && *r != v && !bound[*r] => {
                peers.push((*op, *r))
            }
            CLit::Cmp(op, CTerm::Var(l), CTerm::Var(r)) if *r == v && *l != v && !bound[*l] => {
                peers.push((op.flip(), *l))
            }
            _ => {}
        }
    }
    let mut clips = Vec::new();
    if peers.is_empty() {
        return clips;
    }
    for (literal, _) in pending() {
        let CLit::Interval(CTerm::Var(w), lo, hi) = literal else {
            continue;
        };
        if !(lo.is_bound(bound) && hi.is_bound(bound)) {
            continue;
        }
        for &(op, _) in peers.iter().filter(|(_, peer)| peer == w) {
            match op {
                CmpOp::Lt | CmpOp::Le => clips.push((op, hi)),
                CmpOp::Gt | CmpOp::Ge => clips.push((op, lo)),
                CmpOp::Eq => clips.extend([(CmpOp::Ge, lo), (CmpOp::Le, hi)]),
                CmpOp::Ne => {}
            }
        }
    }
    clips
}

/// What a plan knows of the variables of its literals, to find the
/// existential groups of its intervals ([`Existential::group`]).
pub(super) struct Existential {
    /// The literals that read each variable.
    readers: Vec<Vec<usize>>,
    /// The variable occurs nowhere in the rule but in these literals, and
    /// only in comparisons and intervals of a variable.
    local: Vec<bool>,
    /// A group from it met a variable that is not local: so would any
    /// group from it later (conservatively: binding may cut the way).
    tainted: Vec<bool>,
    /// The marks of one search: variables and literals met.
    seen_var: Vec<usize>,
    seen_literal: Vec<usize>,
    search: usize,
}

impl Existential {
    /// `None` unless the literals have an interval of a variable.
    pub(super) fn of(literals: &[CLit], uses: &[usize]) -> Option<Existential> {
        if !literals
            .iter()
            .any(|l| matches!(l, CLit::Interval(CTerm::Var(_), ..)))
        {
            return None;
        }
        let n = uses.len();
        let mut readers: Vec<Vec<usize>> = vec![Vec::new(); n];
        let mut occurrences = vec![0; n];
        let mut local = vec![true; n];
        for (j, literal) in literals.iter().enumerate() {
            let kind = matches!(literal, CLit::Cmp(..) | CLit::Interval(CTerm::Var(_), ..));
            literal_terms(literal, &mut |t| {
                t.for_each_var(&mut |w| {
                    if w >= n {
                        return;
                    }
                    occurrences[w] += 1;
                    local[w] &= kind;
                    if readers[w].last() != Some(&j) {
                        readers[w].push(j);
                    }
                })
            });
        }
        for (w, local) in local.iter_mut().enumerate() {
            *local &= uses[w] == occurrences[w];
        }
        Some(Existential {
            readers,
            local,
            tainted: vec![false; n],
            seen_var: vec![0; n],
            seen_literal: vec![0; literals.len()],
            search: 0,
        })
    }

    /// The literals not yet `done` that decide only whether some values of
    /// `v` (the variable of an interval about to be evaluated) and of the
    /// variables they join it with exist: connected to `v` through
    /// variables not `bound`, all of them local. Empty unless they join
    /// `v` with another variable (alone, `v` is a witness).
    pub(super) fn group(
        &mut self,
        v: usize,
        literals: &[CLit],
        done: &[bool],
        bound: &[bool],
    ) -> Vec<usize> {
        if v >= self.local.len() || self.tainted[v] {
            return Vec::new();
        }
        self.search += 1;
        let search = self.search;
        self.seen_var[v] = search;
        let (mut pending, mut met) = (vec![v], vec![v]);
        let mut group = Vec::new();
        while let Some(w) = pending.pop() {
            if !self.local[w] {
                met.iter().for_each(|&u| self.tainted[u] = true);
                return Vec::new();
            }
            for &j in &self.readers[w] {
                if done[j] || self.seen_literal[j] == search {
                    continue;
                }
                self.seen_literal[j] = search;
                group.push(j);
                literal_terms(&literals[j], &mut |t| {
                    t.for_each_var(&mut |u| {
                        if !bound[u] && self.seen_var[u] != search {
                            self.seen_var[u] = search;
                            pending.push(u);
                            met.push(u);
                        }
                    })
                });
            }
        }
        if met.len() < 2 {
            return Vec::new();
        }
        group
    }
}

pub(super) struct ElementPlan<'r> {
    pub(super) condition: Vec<Step<'r>>,
    /// A conditional literal's `not l`, and its plan.
    pub(super) unless: Option<(&'r CLit, Vec<Step<'r>>)>,
}

impl Instantiator<'_> {
    /// Orders the literals so that each is evaluated once its inputs are
    /// bound, cheapest first, and creates the indexes the order needs.
    pub(super) fn plan<'r>(
        &mut self,
        literals: &'r [CLit],
        bound: &mut [bool],
        delta: Option<usize>,
        in_component: &dyn Fn(PredId) -> bool,
    ) -> Vec<Step<'r>> {
        let mut done = vec![false; literals.len()];
        let mut steps = Vec::with_capacity(literals.len());
        let mut step_of = vec![usize::MAX; literals.len()];
        let mut existential = Existential::of(literals, &self.uses);
        // The literal over new atoms goes first when nothing else must bind
        // its inputs (`f(N-1)` binds N by inversion, `f(N*N)` cannot).
        let delta_ready = |done: &[bool], bound: &[bool]| {
            delta.filter(|&d| {
                !done[d]
                    && matches!(&literals[d], CLit::Pos(a) if a.args.iter().all(|t| t.inputs_bound(bound)))
            })
        };
        while let Some(i) = delta_ready(&done, bound).or_else(|| self.pick(literals, &done, bound))
        {
            done[i] = true;
            let step = match &literals[i] {
                CLit::Pos(atom) => {
                    // Semi-naive rule d: literal d over the new atoms, the
                    // component's literals before it over the old ones only.
                    let window = match delta {
                        Some(d) if i == d => Window::Recent,
                        Some(d) if in_component(atom.pred) && i < d => Window::Stable,
                        _ => Window::All,
                    };
                    self.match_step(atom, bound, window)
                }
                CLit::Neg(atom) => Step::Neg(atom),
                CLit::NotNot(atom) => Step::NotNot(atom),
                CLit::Cmp(op, l, r) => {
                    if *op == CmpOp::Eq && !(l.is_bound(bound) && r.is_bound(bound)) {
                        if r.is_bound(bound) {
                            Step::Bind {
                                pattern: l,
                                value: r,
                            }
                        } else {
                            Step::Bind {
                                pattern: r,
                                value: l,
                            }
                        }
                    } else {
                        Step::Filter(*op, l, r)
                    }
                }
                // Once an atom has bound the pattern (`x(1..N)` matches the
                // known `x` atoms first), the interval is a range check.
                CLit::Interval(pattern, lo, hi) if pattern.is_bound(bound) => {
                    Step::InRange { pattern, lo, hi }
                }
                CLit::Interval(pattern, lo, hi) => {
                    let narrowing = match pattern {
                        CTerm::Var(v) => Narrowing::of(*v, literals, &done, bound),
                        _ => Narrowing::default(),
                    };
                    let witness = matches!(pattern, CTerm::Var(v)
                        if self.uses.get(*v) == Some(&(1 + narrowing.occurrences)));
                    let group = match (pattern, &mut existential) {
                        (CTerm::Var(v), Some(existential)) if !witness => {
                            existential.group(*v, literals, &done, bound)
                        }
                        _ => Vec::new(),
                    };
                    Step::Interval {
                        pattern,
                        lo,
                        hi,
                        narrowing,
                        witness,
                        group,
                    }
                }
                CLit::Aggregate(aggregate) => Step::Aggregate {
                    aggregate,
                    recursive: aggregate.reads(in_component, true)
                        || aggregate.literal_reads(in_component),
                    plans: aggregate
                        .elements
                        .iter()
                        .map(|e| {
                            let mut local = bound.to_vec();
                            let condition = self.plan(&e.condition, &mut local, None, &|_| false);
                            let unless = e.unless.as_ref().map(|l| {
                                let literal = std::slice::from_ref(l);
                                let bindings = &e.literal_bindings[..];
                                // A positive atom's match binds its own
                                // variables; other literals' are bound by
                                // their intervals, which the literal narrows.
                                if let CLit::Pos(..) = l {
                                    let mut steps =
                                        self.plan(literal, &mut local, None, &|_| false);
                                    steps.extend(self.plan(bindings, &mut local, None, &|_| false));
                                    return (l, steps);
                                }
                                let before = local.clone();
                                let mut steps = self.plan(bindings, &mut local, None, &|_| false);
                                self.narrow_intervals(&mut steps, l, &before);
                                steps.extend(self.plan(literal, &mut local, None, &|_| false));
                                (l, steps)
                            });
                            ElementPlan { condition, unless }
                        })
                        .collect(),
                },
            };
            bind_step(&literals[i], bound);
            step_of[i] = steps.len();
            steps.push(step);
        }
        assert!(done.iter().all(|&d| d), "safety guarantees a complete plan");
        // The groups by the positions their literals took in the plan.
        for step in &mut steps {
            if let Step::Interval { group, .. } = step {
                group.iter_mut().for_each(|j| *j = step_of[*j]);
                group.sort_unstable();
            }
        }
        steps
    }

    /// Adds to the interval steps the comparisons of `literal`, which
    /// follows them, with a term bound `before` them.
    pub(super) fn narrow_intervals<'r>(
        &self,
        steps: &mut [Step<'r>],
        literal: &'r CLit,
        before: &[bool],
    ) {
        for step in steps {
            if let Step::Interval {
                pattern: CTerm::Var(v),
                narrowing,
                witness,
                ..
            } = step
            {
                let more = Narrowing::of(*v, std::slice::from_ref(literal), &[false], before);
                narrowing.clips.extend(more.clips);
                narrowing.readers.extend(more.readers);
                narrowing.occurrences += more.occurrences;
                *witness = self.uses.get(*v) == Some(&(1 + narrowing.occurrences));
            }
        }
    }

    /// The next literal to evaluate: checks and bindings before joins,
    /// joins with the fewest expected matches first, intervals last.
    pub(super) fn pick(
        &mut self,
        literals: &[CLit],
        done: &[bool],
        bound: &[bool],
    ) -> Option<usize> {
        let mut best: Option<(usize, (u8, usize))> = None;
        for (i, literal) in literals.iter().enumerate() {
            if done[i] {
                continue;
            }
            if !placeable(literal, bound) {
                continue;
            }
            let score = match literal {
                CLit::Neg(_) | CLit::NotNot(_) => (0, 0),
                CLit::Cmp(_, l, r) if l.is_bound(bound) && r.is_bound(bound) => (0, 0),
                CLit::Cmp(..) => (1, 0),
                CLit::Pos(a) => {
                    let mask = bound_mask(a, bound);
                    (2, self.expected_matches(a.pred, mask, a.args.len()))
                }
                CLit::Interval(..) => (3, 0),
                // An assignment binds a variable; any other aggregate is a
                // check, best made once the joins have narrowed the binding.
                CLit::Aggregate(a) => match a.assigns {
                    Some(_) => (1, 0),
                    None => (2, usize::MAX),
                },
            };
            if best.is_none_or(|(_, b)| score < b) {
                best = Some((i, score));
            }
        }
        best.map(|(i, _)| i)
    }

    pub(super) fn match_step<'r>(
        &mut self,
        atom: &'r CAtom,
        bound: &[bool],
        window: Window,
    ) -> Step<'r> {
        let mask = bound_mask(atom, bound);
        let index = self.ensure_index(atom.pred, mask).unwrap_or(0);
        let mut ignored = 0;
        for (i, arg) in atom.args.iter().enumerate().take(64) {
            if let CTerm::Var(v) = arg
                && self.uses.get(*v) == Some(&1)
            {
                ignored |= 1 << i;
            }
        }
        Step::Match {
            atom,
            mask,
            index,
            window,
            ignored,
        }
    }
}

impl Exec<'_> {
    /// Whether the grounding was stopped: then each step ends at once, and
    /// each loop over values before its next value.
    fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    pub(super) fn run(&mut self, steps: &[Step<'_>], k: usize, leaf: &mut dyn FnMut(&mut Self)) {
        if self.stopped() {
            return;
        }
        let Some(step) = steps.get(k) else {
            return leaf(self);
        };
        match step {
            Step::Match {
                atom,
                mask,
                index,
                window,
                ignored,
            } => {
                let relations = self.relations;
                let rel = &relations[atom.pred.index()];
                let (lo, hi) = match window {
                    Window::All => (
                        0,
                        if rel.complete {
                            rel.members.len()
                        } else {
                            rel.recent_end
                        },
                    ),
                    Window::Stable => (0, rel.stable_end),
                    Window::Recent => (rel.stable_end, rel.recent_end),
                };
                let mut seen = FxHashSet::default();
                if *mask == 0 {
                    for &member in &rel.members[lo..hi] {
                        if self.stopped() {
                            return;
                        }
                        if *ignored == 0 || self.first_of_its_kind(member, *ignored, &mut seen) {
                            self.try_member(atom, 0, member, steps, k, leaf);
                        }
                    }
                    return;
                }
                self.key.clear();
                for (i, arg) in atom.args.iter().enumerate().take(64) {
                    if mask & (1 << i) != 0 {
                        match arg.eval(self.symbols, &self.env) {
                            Some(v) => self.key.push(v),
                            None => return,
                        }
                    }
                }
                let Some(positions) = rel.indexes[*index].positions.get(&self.key[..]) else {
                    return;
                };
                let start = positions.partition_point(|&p| (p as usize) < lo);
                for &p in &positions[start..] {
                    if p as usize >= hi || self.stopped() {
                        break;
                    }
                    let member = rel.members[p as usize];
                    if *ignored == 0 || self.first_of_its_kind(member, *ignored, &mut seen) {
                        self.try_member(atom, *mask, member, steps, k, leaf);
                    }
                }
            }
            Step::Neg(atom) => match self.negated(atom) {
                Negated::Undefined | Negated::Fact => {}
                Negated::Open(a) => {
                    self.neg.push(a);
                    self.run(steps, k + 1, leaf);
                    self.neg.pop();
                }
                Negated::Underivable => self.run(steps, k + 1, leaf),
            },
            // `not not a`: true when `a` is a fact, false when it cannot
            // be derived, otherwise `not a'` with `a' :- not a.`.
            Step::NotNot(atom) => match self.negated(atom) {
                Negated::Undefined | Negated::Underivable => {}
                Negated::Open(a) => {
                    let complement = self.negations.atom(self.symbols, self.atoms, a);
                    self.neg.push(complement);
                    self.run(steps, k + 1, leaf);
                    self.neg.pop();
                }
                Negated::Fact => self.run(steps, k + 1, leaf),
            },
            Step::Filter(op, l, r) => {
                if self.holds(*op, l, r) {
                    self.run(steps, k + 1, leaf);
                }
            }
            Step::Bind { pattern, value } => {
                let Some(v) = value.eval(self.symbols, &self.env) else {
                    return;
                };
                self.with_match(pattern, v, steps, k, leaf);
            }
            Step::Interval {
                pattern,
                lo,
                hi,
                narrowing,
                witness,
                group,
            } => {
                let Some((lo, hi)) = self.clipped_interval(lo, hi, &narrowing.clips) else {
                    return;
                };
                for n in lo..=hi {
                    if self.stopped() {
                        return;
                    }
                    let value = self.symbols.number(n);
                    let first = if *witness {
                        self.passes(pattern, value, &narrowing.readers)
                    } else if !group.is_empty() {
                        self.exists_with(pattern, value, steps, group)
                    } else {
                        self.with_match(pattern, value, steps, k, leaf);
                        continue;
                    };
                    if first {
                        self.with_match(pattern, value, steps, k, leaf);
                        break;
                    }
                }
            }
            Step::InRange { pattern, lo, hi } => {
                if self.in_range(pattern, lo, hi) {
                    self.run(steps, k + 1, leaf);
                }
            }
            Step::Forget(vars) => {
                let saved: Vec<Option<SymId>> = vars.iter().map(|&v| self.env[v].take()).collect();
                self.run(steps, k + 1, leaf);
                for (&v, value) in vars.iter().zip(saved) {
                    self.env[v] = value;
                }
            }
            // While its component grows, a negated recursive aggregate may
            // still become false: it may hold (as a negative literal over
            // the component would).
            Step::Aggregate {
                aggregate,
                recursive: true,
                ..
            } if self.heads_only.is_some() && aggregate.negated() => self.run(steps, k + 1, leaf),
            // An instance whose heads are all derived already derives
            // nothing new, whatever its aggregates: they are not grounded
            // again in every round.
            Step::Aggregate { .. } if self.heads_known() => self.run(steps, k + 1, leaf),
            Step::Aggregate {
                aggregate, plans, ..
            } => self.aggregate(aggregate, plans, steps, k, leaf),
        }
    }

    /// The values `lo..hi` under the current binding, narrowed to those
    /// that pass `clips`; `None` when a bound is not an integer or a
    /// comparison's term is undefined (no value passes).
    pub(super) fn clipped_interval(
        &mut self,
        lo: &CTerm,
        hi: &CTerm,
        clips: &[(CmpOp, &CTerm)],
    ) -> Option<(i32, i32)> {
        let mut number = |t: &CTerm| {
            t.eval(self.symbols, &self.env)
                .and_then(|s| self.symbols.as_number(s))
        };
        let (mut lo, mut hi) = (i64::from(number(lo)?), i64::from(number(hi)?));
        for &(op, term) in clips {
            let value = term.eval(self.symbols, &self.env)?;
            let Some(n) = self.symbols.as_number(value).map(i64::from) else {
                // Every integer lies on the same side of any other symbol.
                let any = self.symbols.number(0);
                compare(self.symbols, op, any, value).then_some(())?;
                continue;
            };
            match op {
                CmpOp::Lt => hi = hi.min(n - 1),
                CmpOp::Le => hi = hi.min(n),
                CmpOp::Gt => lo = lo.max(n + 1),
                CmpOp::Ge => lo = lo.max(n),
                CmpOp::Eq => (lo, hi) = (lo.max(n), hi.min(n)),
                CmpOp::Ne => {}
            }
        }
        // Both stay within the original integer bounds when not empty.
        (lo <= hi).then_some((lo as i32, hi as i32))
    }

    /// Whether `l op r` holds under the current binding (not when a side is
    /// undefined).
    pub(super) fn holds(&mut self, op: CmpOp, l: &CTerm, r: &CTerm) -> bool {
        let l = l.eval(self.symbols, &self.env);
        let r = r.eval(self.symbols, &self.env);
        matches!((l, r), (Some(a), Some(b)) if compare(self.symbols, op, a, b))
    }

    /// Whether `pattern` is an integer in `lo..hi` under the current binding.
    pub(super) fn in_range(&mut self, pattern: &CTerm, lo: &CTerm, hi: &CTerm) -> bool {
        let mut number = |t: &CTerm| {
            t.eval(self.symbols, &self.env)
                .and_then(|s| self.symbols.as_number(s))
        };
        matches!((number(pattern), number(lo), number(hi)),
            (Some(value), Some(lo), Some(hi)) if (lo..=hi).contains(&value))
    }

    /// Whether the comparisons and intervals `readers` hold with the
    /// variable `pattern` bound to `value`.
    pub(super) fn passes(&mut self, pattern: &CTerm, value: SymId, readers: &[&CLit]) -> bool {
        let CTerm::Var(v) = *pattern else {
            return true;
        };
        self.env[v] = Some(value);
        let passes = readers.iter().all(|literal| match literal {
            CLit::Cmp(op, l, r) => self.holds(*op, l, r),
            CLit::Interval(pattern, lo, hi) => self.in_range(pattern, lo, hi),
            _ => true,
        });
        self.env[v] = None;
        passes
    }

    pub(super) fn with_match(
        &mut self,
        pattern: &CTerm,
        value: SymId,
        steps: &[Step<'_>],
        k: usize,
        leaf: &mut dyn FnMut(&mut Self),
    ) {
        let mark = self.trail.len();
        if pattern.matches(self.symbols, value, &mut self.env, &mut self.trail) {
            self.run(steps, k + 1, leaf);
        }
        self.undo(mark);
    }

    /// Whether the steps at the positions `group` hold for some values of
    /// the variables they bind, each step taken as in [`Self::run`].
    pub(super) fn exists(&mut self, steps: &[Step<'_>], group: &[usize]) -> bool {
        let Some((&first, rest)) = group.split_first() else {
            return true;
        };
        match &steps[first] {
            Step::Filter(op, l, r) => self.holds(*op, l, r) && self.exists(steps, rest),
            Step::InRange { pattern, lo, hi } => {
                self.in_range(pattern, lo, hi) && self.exists(steps, rest)
            }
            Step::Bind { pattern, value } => match value.eval(self.symbols, &self.env) {
                Some(value) => self.exists_with(pattern, value, steps, rest),
                None => false,
            },
            Step::Interval {
                pattern,
                lo,
                hi,
                narrowing,
                ..
            } => {
                let Some((lo, hi)) = self.clipped_interval(lo, hi, &narrowing.clips) else {
                    return false;
                };
                (lo..=hi).any(|n| {
                    let value = self.symbols.number(n);
                    self.exists_with(pattern, value, steps, rest)
                })
            }
            _ => unreachable!("a group has comparisons and intervals only"),
        }
    }

    /// [`Self::exists`] with `pattern` matched to `value` first.
    pub(super) fn exists_with(
        &mut self,
        pattern: &CTerm,
        value: SymId,
        steps: &[Step<'_>],
        group: &[usize],
    ) -> bool {
        let mark = self.trail.len();
        let found = pattern.matches(self.symbols, value, &mut self.env, &mut self.trail)
            && self.exists(steps, group);
        self.undo(mark);
        found
    }

    /// Whether `member` is the first fact this step matches with its
    /// arguments outside `ignored`; atoms that are not facts are always
    /// matched, since each is a body of its own.
    pub(super) fn first_of_its_kind(
        &self,
        member: u32,
        ignored: u64,
        seen: &mut FxHashSet<Vec<SymId>>,
    ) -> bool {
        if !self.atoms.fact[member as usize] {
            return true;
        }
        let args = self.symbols.args(self.atoms.syms[member as usize]);
        let key = (args.iter().enumerate())
            .filter(|&(i, _)| i >= 64 || ignored & (1 << i) == 0)
            .map(|(_, &a)| a)
            .collect();
        seen.insert(key)
    }

    pub(super) fn try_member(
        &mut self,
        atom: &CAtom,
        mask: u64,
        member: u32,
        steps: &[Step<'_>],
        k: usize,
        leaf: &mut dyn FnMut(&mut Self),
    ) {
        let mark = self.trail.len();
        let sym = self.atoms.syms[member as usize];
        let mut ok = true;
        for (i, arg) in atom.args.iter().enumerate() {
            if i < 64 && mask & (1 << i) != 0 {
                continue;
            }
            let value = self.symbols.args(sym)[i];
            if !arg.matches(self.symbols, value, &mut self.env, &mut self.trail) {
                ok = false;
                break;
            }
        }
        if ok {
            if self.atoms.fact[member as usize] {
                self.run(steps, k + 1, leaf);
            } else {
                self.pos.push(member);
                self.run(steps, k + 1, leaf);
                self.pos.pop();
            }
        }
        self.undo(mark);
    }

    pub(super) fn undo(&mut self, mark: usize) {
        for v in self.trail.drain(mark..) {
            self.env[v] = None;
        }
    }

    /// The ground symbol of an atom under the current binding.
    pub(super) fn atom_symbol(&mut self, atom: &CAtom) -> Option<SymId> {
        let mut args = std::mem::take(&mut self.args);
        args.clear();
        let mut defined = true;
        for a in &atom.args {
            match a.eval(self.symbols, &self.env) {
                Some(v) => args.push(v),
                None => {
                    defined = false;
                    break;
                }
            }
        }
        let p = atom.pred.index();
        let symbol = defined.then(|| {
            self.symbols
                .function_of(self.pred_names[p], &args, self.pred_negative[p])
        });
        self.args = args;
        symbol
    }

    /// What grounding knows of the atom under a negation, under the current
    /// binding.
    pub(super) fn negated(&mut self, atom: &CAtom) -> Negated {
        let Some(sym) = self.atom_symbol(atom) else {
            return Negated::Undefined;
        };
        let complete = self.relations[atom.pred.index()].complete;
        match self.atoms.find(sym) {
            Some(a) if self.atoms.fact[a as usize] => Negated::Fact,
            Some(a) if self.atoms.defined[a as usize] || !complete => Negated::Open(a),
            None if !complete => Negated::Open(self.atoms.get_or_insert(sym, atom.pred)),
            _ => Negated::Underivable,
        }
    }
}
