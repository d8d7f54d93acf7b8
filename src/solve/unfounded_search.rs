//! The unfounded-set check inside the search (cargo feature `batsat`): a
//! measurement of what an external-propagator interface would give the
//! non-tight programs, whose lazy loop formulas ([`crate::solve`]) restart
//! varisat once per round.
//!
//! varisat 0.2 has no hook into its search, so this runs the completion of
//! [`crate::translate::translate`] in batsat (a MiniSat descendant in Rust
//! with a theory interface) and propagates unfounded sets as clasp does
//! ([`crate::solve::unfounded_sets`]): at each propagation fixpoint, the atoms on
//! positive cycles that no body still undecided or true can found are set
//! false, each with the loop formula of its unfounded set as the reason.
//!
//! Normal programs, choices and shifted head-cycle-free disjunctions are
//! covered; recursive aggregates and components that are not head-cycle-free
//! are refused ([`Unsupported`]). Only the experiment uses it: the
//! `unfounded_search` example and the tests below.

use crate::ground::program::{AtomId, GroundProgram};
use crate::solve::unfounded_sets::{
    Assignment, UnfoundedSets, Verdict, blocking_clause, completion,
};
pub use crate::solve::unfounded_sets::{SearchStats, Unsupported};
use crate::translate::Translation;
use batsat::{Lit as BLit, SolverInterface, Theory, TheoryArg, Var as BVar, lbool};
use varisat_formula::{CnfFormula, Lit};

fn batsat_lit(lit: Lit) -> BLit {
    BLit::new(
        BVar::unsafe_from_idx(lit.var().index() as u32),
        lit.is_positive(),
    )
}

fn varisat_lit(lit: BLit) -> Lit {
    Lit::from_code(lit.idx() as usize)
}

/// batsat's assignment and trail as the check reads them.
struct Values<'a, 'b>(&'a TheoryArg<'b>);

impl Assignment for Values<'_, '_> {
    fn value(&self, lit: Lit) -> Option<bool> {
        let v = self.0.value(batsat_lit(lit).var());
        (v != lbool::UNDEF).then_some((v == lbool::TRUE) == lit.is_positive())
    }

    fn trail_len(&self) -> usize {
        self.0.model().len()
    }

    fn trail(&self, index: usize) -> Lit {
        varisat_lit(self.0.model()[index])
    }
}

/// The theory: the check, and the reasons of the literals it propagated.
struct UnfoundedTheory {
    sets: UnfoundedSets,
    /// Per solver variable: the true literals that implied the literal the
    /// theory last propagated on it.
    reasons: Vec<Vec<BLit>>,
}

impl UnfoundedTheory {
    fn new(translation: &Translation, variables: usize) -> UnfoundedTheory {
        UnfoundedTheory {
            sets: UnfoundedSets::new(translation, variables),
            reasons: vec![Vec::new(); variables],
        }
    }

    /// Makes the atoms of the unfounded set found false, or raises the
    /// conflict of a true one.
    fn check(&mut self, acts: &mut TheoryArg) {
        let verdict = self.sets.check(&Values(acts));
        let reason = self.sets.reason().iter().map(|&l| batsat_lit(l));
        match verdict {
            Verdict::Founded => {}
            Verdict::Conflict(atom) => {
                let mut clause: Vec<BLit> = reason.map(|l| !l).collect();
                clause.push(!batsat_lit(atom));
                acts.raise_conflict(&clause, true);
            }
            Verdict::Unfounded => {
                let reason: Vec<BLit> = reason.collect();
                let mut propagated = 0;
                for &atom in self.sets.unfounded() {
                    let atom = batsat_lit(atom);
                    if acts.value(atom.var()) == lbool::UNDEF {
                        propagated += 1;
                        self.reasons[atom.var().idx() as usize].clone_from(&reason);
                        if !acts.propagate(!atom) {
                            break;
                        }
                    }
                }
                self.sets.stats.unfounded_propagations += propagated;
            }
        }
    }
}

impl Theory for UnfoundedTheory {
    fn final_check(&mut self, acts: &mut TheoryArg) {
        self.check(acts);
    }

    fn partial_check(&mut self, acts: &mut TheoryArg) {
        self.check(acts);
    }

    fn create_level(&mut self) {
        self.sets.new_level();
    }

    fn pop_levels(&mut self, n: usize) {
        self.sets.backtrack(self.sets.levels() - n);
    }

    fn n_levels(&self) -> usize {
        self.sets.levels()
    }

    fn explain_propagation(&mut self, p: BLit) -> &[BLit] {
        &self.reasons[p.var().idx() as usize]
    }
}

/// batsat with the clauses of `formula` (and each of its variables).
pub fn batsat_solver(formula: &CnfFormula) -> batsat::BasicSolver {
    let mut solver = batsat::BasicSolver::default();
    for _ in 0..formula.var_count() {
        solver.new_var_default();
    }
    let mut clause = Vec::new();
    for lits in formula.iter() {
        clause.clear();
        clause.extend(lits.iter().map(|&l| batsat_lit(l)));
        solver.add_clause_reuse(&mut clause);
    }
    solver
}

/// Up to `max_models` answer sets (0: all), each as one value per atom,
/// enumerated by blocking clauses over the atoms.
pub fn answer_sets(
    program: &GroundProgram,
    max_models: usize,
) -> Result<(Vec<Vec<bool>>, SearchStats), Unsupported> {
    let (formula, translation) = completion(program)?;
    let mut solver = batsat_solver(&formula);
    let mut clause = Vec::new();
    let mut theory = UnfoundedTheory::new(&translation, formula.var_count());
    let mut found = Vec::new();
    while (max_models == 0 || found.len() < max_models)
        && solver.solve_limited_th(&mut theory, &[]) == lbool::TRUE
    {
        let model: Vec<bool> = (0..translation.atom_count())
            .map(|a| {
                let lit = batsat_lit(translation.atom_lit(AtomId(a as u32)));
                solver.value_lit(lit) == lbool::TRUE
            })
            .collect();
        clause.clear();
        clause.extend(
            blocking_clause(&translation, &model)
                .into_iter()
                .map(batsat_lit),
        );
        found.push(model);
        if clause.is_empty() || !solver.add_clause_reuse(&mut clause) {
            break;
        }
    }
    let mut stats = theory.sets.stats;
    stats.conflicts = solver.num_conflicts();
    stats.decisions = solver.num_decisions();
    Ok((found, stats))
}

#[cfg(test)]
mod tests {
    use crate::solve::unfounded_sets::testing::{random_programs, random_programs_with_aggregates};

    /// The answer sets of random programs (with loops, choices and
    /// disjunctions) against the brute-force checker's.
    #[test]
    fn unfounded_search_matches_brute_force() {
        random_programs(super::answer_sets);
    }

    /// The same with aggregates (the recursive ones are refused).
    #[test]
    fn unfounded_search_matches_brute_force_with_aggregates() {
        random_programs_with_aggregates(super::answer_sets);
    }
}
