//! Several [`Propagator`]s inside one search: a solver takes one, so the
//! unfounded-set check of a non-tight program and the weight constraints
//! of its optimization go through this one, each told only of the
//! variables it observes. And [`TrailRecorder`], which propagates nothing.

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

/// The members, in the order they propagate.
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
