//! Several [`Propagator`]s inside one search: a solver takes one, so the
//! unfounded-set check of a non-tight program and the weight constraints
//! of its optimization go through this one, each told only of the
//! variables it observes. And two that propagate nothing: [`TrailRecorder`]
//! and [`ModelCollector`], for solution recording.

use super::backend::Propagator;
use std::cell::RefCell;
use std::rc::Rc;
use varisat_formula::{Lit, Var};

struct Member {
    propagator: Box<dyn Propagator>,
    /// Per variable: observed by this member.
    observed: Vec<bool>,
}

impl Member {
    fn observes(&self, var: Var) -> bool {
        self.observed.get(var.index()).copied().unwrap_or(false)
    }
}

/// The members, in the order they propagate. The decisions are left to
/// the solver: a member's [`Propagator::decide`] is never asked.
#[derive(Default)]
pub struct Propagators {
    members: Vec<Member>,
    /// Per literal code: the member that last propagated the literal (or
    /// a conflict on it), which gives its reason.
    propagated_by: Vec<u32>,
    /// The member that refused the last model checked.
    refused_by: Option<usize>,
    told: Vec<Lit>,
}

impl Propagators {
    /// Adds `propagator`, observing `observed`; it is told of the levels
    /// from the next search on (a solver backtracks to the root first).
    pub fn push(&mut self, propagator: Box<dyn Propagator>, observed: &[Var]) {
        self.members.push(Member {
            propagator,
            observed: Vec::new(),
        });
        self.observe(self.members.len() - 1, observed);
    }

    /// How many members there are.
    pub fn members(&self) -> usize {
        self.members.len()
    }

    /// Member `member` observes `vars` too.
    pub fn observe(&mut self, member: usize, vars: &[Var]) {
        let observed = &mut self.members[member].observed;
        for &var in vars {
            if observed.len() <= var.index() {
                observed.resize(var.index() + 1, false);
            }
            observed[var.index()] = true;
        }
    }
}

impl Propagator for Propagators {
    fn assigned(&mut self, lits: &[Lit]) {
        for member in &mut self.members {
            self.told.clear();
            (self.told).extend(lits.iter().filter(|l| member.observes(l.var())));
            if !self.told.is_empty() {
                member.propagator.assigned(&self.told);
            }
        }
    }

    fn new_level(&mut self) {
        for member in &mut self.members {
            member.propagator.new_level();
        }
    }

    fn backtrack(&mut self, level: usize) {
        for member in &mut self.members {
            member.propagator.backtrack(level);
        }
    }

    fn propagate(&mut self) -> Option<Lit> {
        for (i, member) in self.members.iter_mut().enumerate() {
            if let Some(lit) = member.propagator.propagate() {
                if self.propagated_by.len() <= lit.code() {
                    self.propagated_by.resize(lit.code() + 1, 0);
                }
                self.propagated_by[lit.code()] = i as u32;
                return Some(lit);
            }
        }
        None
    }

    fn reason(&mut self, lit: Lit, clause: &mut Vec<Lit>) {
        let member = self.propagated_by[lit.code()] as usize;
        self.members[member].propagator.reason(lit, clause);
    }

    fn check_model(&mut self, model: &[Lit]) -> bool {
        self.refused_by = None;
        for (i, member) in self.members.iter_mut().enumerate() {
            self.told.clear();
            (self.told).extend(model.iter().filter(|l| member.observes(l.var())));
            if !member.propagator.check_model(&self.told) {
                self.refused_by = Some(i);
                return false;
            }
        }
        true
    }

    fn clause(&mut self, clause: &mut Vec<Lit>) -> bool {
        match self.refused_by.take() {
            Some(member) => self.members[member].propagator.clause(clause),
            None => false,
        }
    }
}

/// The literals a propagator was told of ([`Propagator::assigned`]), in
/// order, by decision level: what the solver's trail holds of the
/// variables it observes.
#[derive(Default)]
pub struct LevelTrail {
    lits: Vec<Lit>,
    /// Where each decision level above the root begins in `lits`.
    level_starts: Vec<usize>,
}

impl LevelTrail {
    pub fn lits(&self) -> &[Lit] {
        &self.lits
    }

    pub fn assigned(&mut self, lits: &[Lit]) {
        self.lits.extend_from_slice(lits);
    }

    pub fn new_level(&mut self) {
        self.level_starts.push(self.lits.len());
    }

    /// Undoes the levels above `level`, telling `undone` of each literal
    /// they held.
    pub fn backtrack(&mut self, level: usize, undone: impl FnMut(&Lit)) {
        if let Some(&start) = self.level_starts.get(level) {
            self.lits[start..].iter().for_each(undone);
            self.lits.truncate(start);
            self.level_starts.truncate(level);
        }
    }
}

/// Keeps the solver's trail over the variables it observes, and hands over
/// the trail of each model the solver finds: its literals in the order
/// assigned, each decision before what it implies. Solution recording
/// reads it to exclude an answer set by few literals.
#[derive(Default)]
pub struct TrailRecorder {
    trail: LevelTrail,
    last_model: Rc<RefCell<Vec<Lit>>>,
}

impl TrailRecorder {
    /// Where the trail of each model found goes.
    pub fn last_model_trail(&self) -> Rc<RefCell<Vec<Lit>>> {
        self.last_model.clone()
    }
}

impl Propagator for TrailRecorder {
    fn assigned(&mut self, lits: &[Lit]) {
        self.trail.assigned(lits);
    }

    fn new_level(&mut self) {
        self.trail.new_level();
    }

    fn backtrack(&mut self, level: usize) {
        self.trail.backtrack(level, |_| {});
    }

    fn propagate(&mut self) -> Option<Lit> {
        None
    }

    fn reason(&mut self, _lit: Lit, _clause: &mut Vec<Lit>) {
        unreachable!("it propagates nothing")
    }

    fn check_model(&mut self, _model: &[Lit]) -> bool {
        let mut last_model = self.last_model.borrow_mut();
        last_model.clear();
        last_model.extend_from_slice(self.trail.lits());
        true
    }

    fn clause(&mut self, _clause: &mut Vec<Lit>) -> bool {
        false
    }
}

/// The models of one search, collected inside it: each model the solver
/// finds is kept and refused with a clause that excludes its answer set,
/// so that the search goes on from where it is instead of starting again
/// from the root for each. Until [`CollectedModels::limit`] are kept; the
/// one after it is accepted, and ends the search.
///
/// The collector makes the decisions while a distinguishing variable is
/// unassigned, in their order, false first: then unit propagation from its
/// decisions gave every distinguishing literal of the model, so that the
/// negated decisions exclude exactly the models of its answer set that the
/// solver's clauses allow, which hold in every answer set not yet excluded
/// (clasp's solution recording). The solver's own decisions, on other
/// variables, would not do: another model of the same answer set could
/// differ on them. Where the solver decided a level that assigned a
/// distinguishing variable, the clause negates the model's distinguishing
/// literals not fixed at the root instead.
///
/// A fixed order suits some searches and not others (a plan's moves,
/// decided from the first step on, meet conflict after conflict): after
/// `give_up_after` backtracks without a model ([`GIVE_UP_DECIDING`]), the
/// solver decides.
pub struct ModelCollector {
    /// The distinguishing variables, in the order they are decided.
    order: Vec<Var>,
    /// Per variable: its position in `order`, if distinguishing.
    position: Vec<u32>,
    /// Per variable: fixed at the root.
    fixed: Vec<bool>,
    /// Per variable: assigned, as the solver told.
    assigned: Vec<bool>,
    /// No variable of `order` before this position is unassigned.
    next: usize,
    trail: LevelTrail,
    /// Per decision level above the root: the collector's decision, or
    /// `None` for the solver's own; whether the level assigned a
    /// distinguishing variable.
    levels: Vec<(Option<Lit>, bool)>,
    /// The decision handed to the solver, before its level begins.
    decided: Option<Lit>,
    /// Backtracks since the last model (or the start).
    backtracks: usize,
    /// The collector decides until this many backtracks meet no model.
    give_up_after: usize,
    deciding: bool,
    refusal: Option<Vec<Lit>>,
    collected: Rc<RefCell<CollectedModels>>,
}

/// See [`ModelCollector`]. gringo's 10-queens (724 answer sets) takes
/// 0.065 s when the collector decides, 0.094 s when the solver does (and
/// 0.097 s giving up after 100 backtracks); unblock's inst2 (358 answer
/// sets, the moves of a plan) 0.46 s and 0.22 s (0.27 s giving up after
/// 200).
pub const GIVE_UP_DECIDING: usize = 200;

const NOT_DISTINGUISHING: u32 = u32::MAX;

/// What a [`ModelCollector`] hands over.
#[derive(Default)]
pub struct CollectedModels {
    /// Each model kept (refused or accepted), as its literals of the
    /// observed variables, in the order found.
    pub models: std::collections::VecDeque<Vec<Lit>>,
    /// How many models to refuse before accepting one.
    pub limit: usize,
    /// The clause excluding the answer set of the model accepted last.
    pub accepted_exclusion: Vec<Lit>,
    /// The search found every model: none is left after those kept.
    pub complete: bool,
}

impl ModelCollector {
    /// A collector over `variables` variables deciding `distinguishing` in
    /// order until `give_up_after` backtracks meet no model. It must
    /// observe the distinguishing variables, and the models it hands over
    /// hold the variables it observes.
    pub fn new(distinguishing: &[Var], variables: usize, give_up_after: usize) -> ModelCollector {
        let mut position = vec![NOT_DISTINGUISHING; variables];
        for (i, var) in distinguishing.iter().enumerate() {
            position[var.index()] = i as u32;
        }
        ModelCollector {
            order: distinguishing.to_vec(),
            position,
            fixed: vec![false; variables],
            assigned: vec![false; variables],
            next: 0,
            trail: LevelTrail::default(),
            levels: Vec::new(),
            decided: None,
            backtracks: 0,
            give_up_after,
            deciding: give_up_after > 0,
            refusal: None,
            collected: Rc::default(),
        }
    }

    /// Where the models go.
    pub fn collected(&self) -> Rc<RefCell<CollectedModels>> {
        self.collected.clone()
    }

    fn distinguishing(&self, lit: &Lit) -> bool {
        self.position[lit.index()] != NOT_DISTINGUISHING
    }

    /// The clause excluding the answer set of `model`.
    fn exclusion(&self, model: &[Lit]) -> Vec<Lit> {
        let highest = self
            .levels
            .iter()
            .rposition(|&(_, distinguishing)| distinguishing);
        let levels = &self.levels[..highest.map_or(0, |level| level + 1)];
        match levels
            .iter()
            .map(|&(decision, _)| decision)
            .collect::<Option<Vec<Lit>>>()
        {
            Some(decisions) => decisions.into_iter().map(|lit| !lit).collect(),
            None => (model.iter())
                .filter(|lit| self.distinguishing(lit) && !self.fixed[lit.index()])
                .map(|&lit| !lit)
                .collect(),
        }
    }
}

impl Propagator for ModelCollector {
    fn assigned(&mut self, lits: &[Lit]) {
        for lit in lits {
            self.assigned[lit.index()] = true;
        }
        let distinguishing = lits.iter().any(|lit| self.distinguishing(lit));
        match self.levels.last_mut() {
            None => lits.iter().for_each(|lit| self.fixed[lit.index()] = true),
            Some(level) => level.1 |= distinguishing,
        }
        self.trail.assigned(lits);
    }

    fn new_level(&mut self) {
        self.levels.push((self.decided.take(), false));
        self.trail.new_level();
    }

    fn backtrack(&mut self, level: usize) {
        let (assigned, position, next) = (&mut self.assigned, &self.position, &mut self.next);
        self.trail.backtrack(level, |lit| {
            assigned[lit.index()] = false;
            *next = (*next).min(position[lit.index()] as usize);
        });
        self.levels.truncate(level);
        self.backtracks += 1;
        self.deciding &= self.backtracks < self.give_up_after;
    }

    fn propagate(&mut self) -> Option<Lit> {
        None
    }

    fn reason(&mut self, _lit: Lit, _clause: &mut Vec<Lit>) {
        unreachable!("it propagates nothing")
    }

    fn check_model(&mut self, model: &[Lit]) -> bool {
        self.backtracks = 0;
        let exclusion = self.exclusion(model);
        let mut collected = self.collected.borrow_mut();
        collected.models.push_back(model.to_vec());
        if collected.models.len() > collected.limit {
            collected.accepted_exclusion = exclusion;
            return true;
        }
        self.refusal = Some(exclusion);
        false
    }

    fn clause(&mut self, clause: &mut Vec<Lit>) -> bool {
        super::backend::hand_over_refusal(&mut self.refusal, clause)
    }

    fn decide(&mut self) -> Option<Lit> {
        self.decided = None;
        if !self.deciding {
            return None;
        }
        while let Some(&var) = self.order.get(self.next) {
            if !self.assigned[var.index()] {
                self.decided = Some(var.negative());
                return self.decided;
            }
            self.next += 1;
        }
        None
    }
}
