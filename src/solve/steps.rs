//! The steps of clingo's incremental mode that have no answer set, proven
//! on one solver kept across the steps, as clingo keeps its own: each step
//! adds the clauses of what it grounded, and its query is an assumption,
//! so that what the solver learned in the steps before stays.
//!
//! A step's program is read with its query open (a choice,
//! [`crate::ground::Assigned::Open`]). Its atoms that no earlier step gave
//! a variable are new: their rules, the aggregates defining them and every
//! constraint not added before make a program of the step's own, where the
//! atoms of earlier steps it reads are free (a choice each) and its facts
//! are facts. Its completion goes into the solver over the earlier steps'
//! variables, and the query of the step before is made false, as clingo
//! releases it.
//!
//! Why the clauses hold in every later step: a step whose groups define
//! only atoms new to them ([`crate::ground::Grounding::last_call_modular`])
//! leaves the earlier steps' atoms a splitting set, so an answer set of a
//! later step is, on those atoms, an answer set of each earlier step's
//! program with its query false, which satisfies the completion written
//! for it. A step that is not modular ends the use of the solver.
//!
//! The clauses are the completion alone: no loop formulas and no
//! minimality check, so their models include every answer set and
//! possibly more. "Unsatisfiable" is proof that the step has no answer
//! set; any other result is not, and the step is searched as a program of
//! its own, as the steps where the solver is not used are.

use super::backend::{self, Backend, SatSolver};
use super::{SatResult, SearchTuning};
use crate::diagnostics::Diagnostic;
use crate::ground::program::{
    AggregateDefinition, Atom, AtomId, Body, ChoiceElement, CountBounds, GroundProgram, Head, Rule,
};
use crate::symbols::{SymId, hash_step};
use crate::translate;
use rustc_hash::{FxHashMap, FxHashSet};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use varisat::{CnfFormula, Lit, Var};

/// The solver kept across the steps, and what it holds of them.
pub struct StepSolver {
    backend: Backend,
    solver: Box<dyn SatSolver>,
    /// The variable of each atom of an earlier step that has one.
    vars: FxHashMap<SymId, Var>,
    /// Fixed true: every fact.
    true_var: Var,
    /// Every constraint added, as a hash of the symbols of its positive
    /// and of its negative body atoms. Two constraints of one hash lose
    /// the second: fewer clauses, never a wrong proof.
    constraints: FxHashSet<u64>,
    /// The queries of the last step added, made false when the next is.
    queries: Vec<Var>,
    /// A query of the last step added is false in every answer set of its
    /// program: simplification took it out.
    query_excluded: bool,
}

/// The counts of what [`StepSolver::add_step`] added.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Added {
    pub variables: usize,
    pub clauses: usize,
}

impl StepSolver {
    /// A solver of the backend `tuning` names, else varisat; the search
    /// stops soon after `stop` is set. (varisat and batsat took the
    /// 14-step `unblock3` of the corpus to 0.13-0.14 s and the 160-step walk
    /// of the bench to 0.38-0.41 s, CaDiCaL to 0.16-0.19 s and 0.43-0.46 s
    /// with 10 MB more, November 2026.)
    pub fn new(tuning: &SearchTuning, stop: Arc<AtomicBool>) -> StepSolver {
        let backend = tuning.backend.unwrap_or(Backend::Varisat);
        let mut solver = backend::new_solver(backend, tuning);
        solver.interrupt_on(stop);
        let true_var = solver.new_var();
        solver.add_clause(&[true_var.positive()]);
        StepSolver {
            backend,
            solver,
            vars: FxHashMap::default(),
            true_var,
            constraints: FxHashSet::default(),
            queries: Vec::new(),
            query_excluded: false,
        }
    }

    /// Adds the clauses of the step whose program, its queries open, is
    /// `program`, and makes the queries of the step before false. The
    /// program's rules must define only atoms new to the step, or atoms of
    /// no earlier step (see the module's comment).
    pub fn add_step(
        &mut self,
        program: &GroundProgram,
        queries: &[SymId],
    ) -> Result<Added, Diagnostic> {
        for query in self.queries.drain(..) {
            self.solver.add_clause(&[query.negative()]);
        }
        let own = self.own_program(program);
        let mut formula = CnfFormula::new();
        let translation = translate::translate(&own, &mut formula)?;
        // The step's variables: its atoms' those of earlier steps, or the
        // fact variable, or new; every other variable new.
        let mut map: Vec<Option<Var>> = vec![None; formula.var_count()];
        let mut added = Added::default();
        for (a, atom) in own.atoms.iter().enumerate() {
            let var = translation.atom_var(AtomId(a as u32));
            let mapped = match (atom.fact, self.vars.get(&atom.symbol), map[var.index()]) {
                (true, _, _) => self.true_var,
                (false, Some(&known), _) => known,
                // Equivalent atoms share a variable in the translation
                // (`translate::aliases`), and here too.
                (false, None, Some(shared)) => {
                    self.vars.insert(atom.symbol, shared);
                    shared
                }
                (false, None, None) => {
                    let fresh = self.solver.new_var();
                    added.variables += 1;
                    self.vars.insert(atom.symbol, fresh);
                    fresh
                }
            };
            match map[var.index()] {
                // Two atoms of earlier steps, or one after a new atom,
                // that the step's completion makes equivalent.
                Some(earlier) if earlier != mapped => {
                    self.solver
                        .add_clause(&[earlier.negative(), mapped.positive()]);
                    self.solver
                        .add_clause(&[earlier.positive(), mapped.negative()]);
                    added.clauses += 2;
                }
                _ => map[var.index()] = Some(mapped),
            }
        }
        let mut clause = Vec::new();
        for lits in formula.iter() {
            clause.clear();
            for &lit in lits {
                let var = *map[lit.index()].get_or_insert_with(|| {
                    added.variables += 1;
                    self.solver.new_var()
                });
                clause.push(Lit::from_var(var, lit.is_positive()));
            }
            self.solver.add_clause(&clause);
            added.clauses += 1;
        }
        // A query's choice is a rule of the step's own wherever the program
        // holds the query: one without a variable is not in the program.
        self.queries = (queries.iter())
            .filter_map(|symbol| self.vars.get(symbol).copied())
            .collect();
        self.query_excluded = self.queries.len() < queries.len();
        Ok(added)
    }

    /// The backend of its solver.
    pub fn backend(&self) -> Backend {
        self.backend
    }

    /// The conflicts of the kept solver's searches so far.
    pub fn conflicts(&self) -> u64 {
        self.solver.conflicts()
    }

    /// Whether the last step added is proven to have no answer set: its
    /// queries true, the clauses admit no model. `false` also when the
    /// search was interrupted.
    pub fn unsatisfiable(&mut self) -> bool {
        if self.query_excluded {
            return true;
        }
        let assumptions: Vec<Lit> = self.queries.iter().map(|q| q.positive()).collect();
        self.solver.solve(&assumptions) == SatResult::Unsatisfiable
    }

    /// The program of the step's own: the rules of atoms of no earlier
    /// step, the aggregates defining them and the constraints not added
    /// before, with the earlier steps' atoms they read free, its atoms
    /// numbered anew.
    fn own_program(&mut self, program: &GroundProgram) -> GroundProgram {
        let known = |atom: AtomId| {
            let atom = &program.atoms[atom.index()];
            !atom.fact && self.vars.contains_key(&atom.symbol)
        };
        let mut own = Renumbered::new(program);
        let mut symbols = Vec::new();
        for rule in &program.rules {
            match &rule.head {
                Head::Constraint => {
                    let mut hash = 0;
                    for atoms in [rule.body.pos(), rule.body.neg()] {
                        symbols.clear();
                        symbols.extend(atoms.iter().map(|&a| program.symbol(a).0));
                        symbols.sort_unstable();
                        hash = symbols.iter().fold(hash, |h, &s| hash_step(h, s));
                        hash = hash_step(hash, u32::MAX);
                    }
                    if self.constraints.insert(hash) {
                        own.rule(rule);
                    }
                }
                head => {
                    let mut new = false;
                    head.for_each_atom(|a| new |= !known(a));
                    if new {
                        own.rule(rule);
                    }
                }
            }
        }
        for aggregate in &program.aggregates {
            if !known(aggregate.atom) {
                own.aggregate(aggregate);
            }
        }
        // The earlier steps' atoms read here are free: their clauses are
        // in the solver already.
        for a in 0..own.program.atoms.len() {
            let atom = &own.program.atoms[a];
            if !atom.fact && self.vars.contains_key(&atom.symbol) {
                own.program.rules.push(free(AtomId(a as u32)));
            }
        }
        own.program
    }
}

/// `{a}.`
fn free(atom: AtomId) -> Rule {
    let element = ChoiceElement {
        value: atom,
        conditions: vec![Body::default()],
    };
    Rule {
        head: Head::choice(vec![element], CountBounds::default()),
        body: Body::default(),
        origin: Default::default(),
    }
}

/// A program built from some of another's rules and aggregates, its atoms
/// numbered in order of first use.
struct Renumbered<'p> {
    from: &'p GroundProgram,
    /// Per atom of `from`: its number here.
    numbers: Vec<Option<AtomId>>,
    program: GroundProgram,
}

impl<'p> Renumbered<'p> {
    fn new(from: &'p GroundProgram) -> Renumbered<'p> {
        Renumbered {
            from,
            numbers: vec![None; from.atoms.len()],
            program: GroundProgram {
                symbols: from.symbols.clone(),
                ..GroundProgram::default()
            },
        }
    }

    fn atom(&mut self, atom: AtomId) -> AtomId {
        if let Some(number) = self.numbers[atom.index()] {
            return number;
        }
        let number = AtomId(self.program.atoms.len() as u32);
        let from = &self.from.atoms[atom.index()];
        self.program.atoms.push(Atom {
            symbol: from.symbol,
            shown: false,
            fact: from.fact,
        });
        self.numbers[atom.index()] = Some(number);
        number
    }

    fn body(&mut self, body: &Body) -> Body {
        let pos: Vec<AtomId> = body.pos().iter().map(|&a| self.atom(a)).collect();
        let neg: Vec<AtomId> = body.neg().iter().map(|&a| self.atom(a)).collect();
        Body::new(pos, neg)
    }

    fn bodies(&mut self, bodies: &[Body]) -> Vec<Body> {
        bodies.iter().map(|body| self.body(body)).collect()
    }

    fn rule(&mut self, rule: &Rule) {
        let head = match &rule.head {
            Head::Constraint => Head::Constraint,
            Head::Atom(a) => Head::Atom(self.atom(*a)),
            Head::Disjunction(atoms) => {
                Head::Disjunction(atoms.iter().map(|&a| self.atom(a)).collect())
            }
            Head::Choice(choice) => Head::choice(
                (choice.elements.iter())
                    .map(|e| ChoiceElement {
                        value: self.atom(e.value),
                        conditions: self.bodies(&e.conditions),
                    })
                    .collect(),
                choice.bounds,
            ),
        };
        let body = self.body(&rule.body);
        self.program.rules.push(Rule {
            head,
            body,
            origin: rule.origin,
        });
    }

    fn aggregate(&mut self, aggregate: &AggregateDefinition) {
        let atom = self.atom(aggregate.atom);
        let elements = (aggregate.elements.iter())
            .map(|e| crate::ground::program::WeightedElement {
                value: e.value,
                conditions: self.bodies(&e.conditions),
            })
            .collect();
        self.program.aggregates.push(AggregateDefinition {
            atom,
            elements,
            ..aggregate.clone()
        });
    }
}
