//! SAT backends other than varisat, each behind a cargo feature, with one
//! shape over varisat's literals: clauses in, a search under assumptions
//! that ends [`Outcome::Sat`], [`Outcome::Unsat`] (with the failed
//! assumptions) or [`Outcome::Interrupted`] (an `Arc<AtomicBool>` set from
//! any thread), the model's values, and a [`Propagator`] of the caller's
//! inside the search.
//!
//! - [`cadical`] (feature `cadical`): CaDiCaL 3 (C++) through the
//!   `cadical-sys` crate, its propagator through IPASIR-UP;
//! - [`unfounded`] (feature `cadical`): the unfounded-set check of
//!   [`crate::solve::unfounded_sets`] as such a propagator, for non-tight programs.

pub mod cadical;
pub mod unfounded;

use varisat::Lit;

/// How a search ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    Sat,
    Unsat,
    /// The interrupt flag was set (or a limit reached) before the search
    /// decided.
    Interrupted,
}

/// A propagator inside the search (IPASIR-UP's shape, over varisat's
/// literals): told of the assignments to the variables it observes and of
/// the decision levels, it may make literals true, each with a reason
/// clause asked for later, and add clauses; it approves every complete
/// assignment before it is a model.
pub trait Propagator {
    /// These literals of observed variables became true, in trail order.
    fn assigned(&mut self, lits: &[Lit]);
    /// A decision level began.
    fn new_level(&mut self);
    /// The levels above `level` were undone, with their assignments (the
    /// solver tells again of those it keeps).
    fn backtrack(&mut self, level: usize);
    /// A literal over an observed variable to make true, or `None`. A
    /// literal that is false is a conflict.
    fn propagate(&mut self) -> Option<Lit>;
    /// The reason of a literal that [`Propagator::propagate`] gave, while
    /// it is assigned: a clause holding it whose other literals are false,
    /// into `clause`.
    fn reason(&mut self, lit: Lit, clause: &mut Vec<Lit>);
    /// Whether the complete assignment `model` (of the observed variables)
    /// is accepted; if not, [`Propagator::clause`] must give a clause.
    fn check_model(&mut self, model: &[Lit]) -> bool;
    /// A clause over observed variables to add, into `clause`, or `false`.
    fn clause(&mut self, clause: &mut Vec<Lit>) -> bool;
}

impl<P: Propagator> Propagator for std::rc::Rc<std::cell::RefCell<P>> {
    fn assigned(&mut self, lits: &[Lit]) {
        self.borrow_mut().assigned(lits);
    }
    fn new_level(&mut self) {
        self.borrow_mut().new_level();
    }
    fn backtrack(&mut self, level: usize) {
        self.borrow_mut().backtrack(level);
    }
    fn propagate(&mut self) -> Option<Lit> {
        self.borrow_mut().propagate()
    }
    fn reason(&mut self, lit: Lit, clause: &mut Vec<Lit>) {
        self.borrow_mut().reason(lit, clause);
    }
    fn check_model(&mut self, model: &[Lit]) -> bool {
        self.borrow_mut().check_model(model)
    }
    fn clause(&mut self, clause: &mut Vec<Lit>) -> bool {
        self.borrow_mut().clause(clause)
    }
}
