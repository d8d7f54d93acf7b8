//! The unfounded-set check inside the search (cargo feature `batsat`): a
//! measurement of what an external-propagator interface would give the
//! non-tight programs, whose lazy loop formulas ([`crate::solve`]) restart
//! varisat once per round.
//!
//! varisat 0.2 has no hook into its search, so this runs the completion of
//! [`crate::translate::translate`] in batsat (a MiniSat descendant in Rust
//! with a theory interface) and propagates unfounded sets as clasp does
//! (Gebser, Kaufmann and Schaub, "Conflict-driven answer set solving: from
//! theory to practice", AIJ 187, 2012, section 5): at each propagation
//! fixpoint, the atoms on positive cycles that no body still undecided or
//! true can found are set false, each with the loop formula of its
//! unfounded set as the reason.
//!
//! Given the partial assignment `A`:
//! 1. `D` = the atoms on cycles derivable through support bodies not false
//!    in `A`, from atoms off the cycles (always founded here: the
//!    completion decides them);
//! 2. `U` = the cyclic atoms neither false nor in `D`: an unfounded set;
//! 3. for the lowest strongly connected component `C` of the positive
//!    dependency graph that `U` meets, each external body of `U ∩ C` is
//!    false or has a false positive atom. Those literals are the reason of
//!    `¬a` for every `a ∈ U ∩ C`, or, when `a` is true, a conflict
//!    `¬a ∨ ⋁ external`; the higher components follow once these are
//!    propagated.
//!
//! `D` is kept between checks as source pointers (see [`UnfoundedSets`]).
//!
//! Normal programs, choices and shifted head-cycle-free disjunctions are
//! covered; recursive aggregates and components that are not head-cycle-free
//! are refused ([`Unsupported`]). Only the experiment uses it: the
//! `unfounded_search` example and the tests below.

use crate::graph::csr;
use crate::ground::program::{AtomId, GroundProgram};
use crate::translate::{self, BodyId, Cond, Translation};
use batsat::{Lit as BLit, SolverInterface, Theory, TheoryArg, Var as BVar, lbool};
use varisat_formula::{CnfFormula, Lit};

/// Why a program is outside the experiment.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unsupported(pub &'static str);

/// Counters of one search.
#[derive(Clone, Debug, Default)]
pub struct SearchStats {
    pub cyclic_atoms: usize,
    pub checks: u64,
    pub unfounded_propagations: u64,
    pub unfounded_conflicts: u64,
    pub conflicts: u64,
    pub decisions: u64,
}

fn batsat_lit(lit: Lit) -> BLit {
    BLit::new(
        BVar::unsafe_from_idx(lit.var().index() as u32),
        lit.is_positive(),
    )
}

const NOT_CYCLIC: u32 = u32::MAX;
const NO_SOURCE: u32 = u32::MAX;
const INACTIVE: u32 = u32::MAX;

/// The theory: the positive dependency graph's cyclic part, a source
/// pointer per atom, and the reasons of the literals it propagated.
///
/// An atom's source is a support body, not false, whose positive atoms in
/// the atom's component have sources themselves, without cycles (clasp's
/// source pointers). A body made false takes the sources that point to it,
/// and those of every atom founded through them; only those atoms (the
/// "lost" ones) are founded anew, so a check costs what the assignment
/// changed rather than the size of the component. Backtracking only makes
/// bodies less false: the sources stay valid.
struct UnfoundedSets<'t> {
    translation: &'t Translation,
    /// The atoms on positive cycles, by component (Tarjan's order: a
    /// component depends only on components before it), and each one's
    /// component.
    cyclic: Vec<AtomId>,
    component: Vec<u32>,
    /// Per atom: its index in `cyclic`, or `NOT_CYCLIC`.
    local: Vec<u32>,
    /// An entry is a support body of some atom of a component, with the
    /// atoms of that component it supports and its positive atoms in the
    /// component (both CSR).
    entry_body: Vec<BodyId>,
    head_start: Vec<usize>,
    heads: Vec<u32>,
    inside_start: Vec<usize>,
    inside: Vec<u32>,
    /// Per cyclic atom (CSR): its entries, and the entries of its component
    /// holding it positively.
    support_start: Vec<usize>,
    supports: Vec<u32>,
    occurrence_start: Vec<usize>,
    occurrences: Vec<u32>,
    /// Per solver literal (batsat's index, CSR): the entries it falsifies.
    trigger_start: Vec<usize>,
    triggers: Vec<u32>,
    /// Per cyclic atom: its source entry, or `NO_SOURCE`; whether it is
    /// lost (no source). `lost_list` holds the lost atoms not known false;
    /// `dropped` per decision level the lost atoms set aside because false
    /// at that level, taken back when it is undone.
    source: Vec<u32>,
    lost: Vec<bool>,
    lost_list: Vec<u32>,
    dropped: Vec<Vec<u32>>,
    /// How much of the trail the triggers were read from, and that length
    /// at each decision level's start.
    scanned: usize,
    scanned_at_level: Vec<usize>,
    /// Per solver variable: the true literals that implied the literal the
    /// theory last propagated on it.
    reasons: Vec<Vec<BLit>>,
    stats: SearchStats,
    // Buffers reused across checks.
    missing: Vec<u32>,
    stamp: Vec<u32>,
    round: u32,
    queue: Vec<u32>,
    ready: Vec<u32>,
    in_set: Vec<bool>,
    reason: Vec<BLit>,
}

impl<'t> UnfoundedSets<'t> {
    fn new(translation: &'t Translation, variables: usize) -> UnfoundedSets<'t> {
        let atoms = translation.atom_count();
        let components = translation.support_components();
        let on_cycle = |a: u32| {
            let c = components.component[a as usize];
            components.size[c as usize] > 1 || components.self_loop(translation, AtomId(a))
        };
        let mut by_component: Vec<(u32, u32)> = (0..atoms as u32)
            .filter(|&a| on_cycle(a))
            .map(|a| (components.component[a as usize], a))
            .collect();
        by_component.sort_unstable();
        let mut local = vec![NOT_CYCLIC; atoms];
        for (i, &(_, a)) in by_component.iter().enumerate() {
            local[a as usize] = i as u32;
        }
        let cyclic: Vec<AtomId> = by_component.iter().map(|&(_, a)| AtomId(a)).collect();
        let component: Vec<u32> = by_component.iter().map(|&(c, _)| c).collect();
        // Entries: (component, body) pairs with their heads in the component.
        let mut pairs: Vec<(u32, BodyId, u32)> = Vec::new();
        for (i, &a) in cyclic.iter().enumerate() {
            for &body in translation.supports(a) {
                pairs.push((component[i], body, i as u32));
            }
        }
        pairs.sort_unstable();
        let mut entry_body = Vec::new();
        let (mut head_pairs, mut inside_pairs, mut support_pairs) = (vec![], vec![], vec![]);
        let (mut occurrence_pairs, mut trigger_pairs) = (vec![], vec![]);
        for (k, &(c, body, head)) in pairs.iter().enumerate() {
            if k == 0 || (pairs[k - 1].0, pairs[k - 1].1) != (c, body) {
                let entry = entry_body.len() as u32;
                entry_body.push(body);
                for &p in translation.body_pos(body) {
                    let l = local[p.index()];
                    if l != NOT_CYCLIC && component[l as usize] == c {
                        inside_pairs.push((entry, l));
                        occurrence_pairs.push((l, entry));
                    }
                }
                if let Cond::Lit(l) = translation.body_cond(body) {
                    trigger_pairs.push(((!batsat_lit(l)).idx(), entry));
                }
            }
            let entry = entry_body.len() as u32 - 1;
            head_pairs.push((entry, head));
            support_pairs.push((head, entry));
        }
        let entries = entry_body.len();
        let (head_start, heads) = csr(entries, &head_pairs);
        let (inside_start, inside) = csr(entries, &inside_pairs);
        let (support_start, supports) = csr(cyclic.len(), &support_pairs);
        let (occurrence_start, occurrences) = csr(cyclic.len(), &occurrence_pairs);
        let (trigger_start, triggers) = csr(2 * variables, &trigger_pairs);
        let stats = SearchStats {
            cyclic_atoms: cyclic.len(),
            ..SearchStats::default()
        };
        UnfoundedSets {
            translation,
            missing: vec![0; entries],
            stamp: vec![0; entries],
            round: 0,
            in_set: vec![false; cyclic.len()],
            source: vec![NO_SOURCE; cyclic.len()],
            lost: vec![true; cyclic.len()],
            lost_list: (0..cyclic.len() as u32).collect(),
            dropped: vec![Vec::new()],
            cyclic,
            component,
            local,
            entry_body,
            head_start,
            heads,
            inside_start,
            inside,
            support_start,
            supports,
            occurrence_start,
            occurrences,
            trigger_start,
            triggers,
            scanned: 0,
            scanned_at_level: Vec::new(),
            reasons: vec![Vec::new(); variables],
            stats,
            queue: Vec::new(),
            ready: Vec::new(),
            reason: Vec::new(),
        }
    }

    fn value(acts: &TheoryArg, lit: BLit) -> lbool {
        let v = acts.value(lit.var());
        if v == lbool::UNDEF || lit.sign() {
            v
        } else {
            lbool::new(v == lbool::FALSE)
        }
    }

    /// The true literal that makes `body` false, if it is false.
    fn falsifier(&self, acts: &TheoryArg, body: BodyId) -> Option<Option<BLit>> {
        match self.translation.body_cond(body) {
            Cond::False => Some(None),
            Cond::True => None,
            Cond::Lit(l) => {
                let b = batsat_lit(l);
                if Self::value(acts, b) == lbool::FALSE {
                    return Some(Some(!b));
                }
                let pos = self.translation.body_pos(body).iter();
                let neg = self.translation.body_neg(body).iter();
                (pos.map(|&p| !batsat_lit(self.translation.atom_lit(p))))
                    .chain(neg.map(|&n| batsat_lit(self.translation.atom_lit(n))))
                    .find(|&l| Self::value(acts, l) == lbool::TRUE)
                    .map(Some)
            }
        }
    }

    fn atom_lit(&self, index: u32) -> BLit {
        batsat_lit(self.translation.atom_lit(self.cyclic[index as usize]))
    }

    /// Takes the sources that the trail's new literals falsify, and those
    /// founded through them.
    fn read_trail(&mut self, acts: &TheoryArg) {
        let trail = acts.model();
        self.scanned = self.scanned.min(trail.len());
        let first_lost = self.lost_list.len();
        for lit in &trail[self.scanned..] {
            let i = lit.idx() as usize;
            for k in self.trigger_start[i]..self.trigger_start[i + 1] {
                self.take_sources(self.triggers[k]);
            }
        }
        self.scanned = trail.len();
        let mut next = first_lost;
        while next < self.lost_list.len() {
            let atom = self.lost_list[next] as usize;
            next += 1;
            for k in self.occurrence_start[atom]..self.occurrence_start[atom + 1] {
                self.take_sources(self.occurrences[k]);
            }
        }
    }

    /// Loses the atoms whose source is `entry`.
    fn take_sources(&mut self, entry: u32) {
        let e = entry as usize;
        for k in self.head_start[e]..self.head_start[e + 1] {
            let head = self.heads[k];
            if self.source[head as usize] == entry {
                self.source[head as usize] = NO_SOURCE;
                self.lost[head as usize] = true;
                self.lost_list.push(head);
            }
        }
    }

    /// Steps 1–3 of the module's description, on the lost atoms: new
    /// sources where there are, the lowest component's rest made false.
    fn check(&mut self, acts: &mut TheoryArg) {
        self.read_trail(acts);
        if self.lost_list.is_empty() {
            return;
        }
        self.stats.checks += 1;
        // Lost atoms known false wait, per level, for it to be undone.
        let level = self.dropped.len() - 1;
        let mut candidates = std::mem::take(&mut self.lost_list);
        candidates.retain(|&i| {
            let keep = self.lost[i as usize] && Self::value(acts, self.atom_lit(i)) != lbool::FALSE;
            if !keep && self.lost[i as usize] {
                self.dropped[level].push(i);
            }
            keep
        });
        candidates.sort_unstable();
        candidates.dedup();
        self.round = self.round.wrapping_add(1).max(1);
        self.queue.clear();
        for &atom in &candidates {
            let a = atom as usize;
            for k in self.support_start[a]..self.support_start[a + 1] {
                let entry = self.supports[k] as usize;
                if self.stamp[entry] == self.round {
                    continue;
                }
                self.stamp[entry] = self.round;
                self.missing[entry] = if self.falsifier(acts, self.entry_body[entry]).is_some() {
                    INACTIVE
                } else {
                    let inside =
                        &self.inside[self.inside_start[entry]..self.inside_start[entry + 1]];
                    inside.iter().filter(|&&p| self.lost[p as usize]).count() as u32
                };
                if self.missing[entry] == 0 {
                    self.ready.push(entry as u32);
                }
            }
        }
        // Only now: the counts above are of the atoms lost when the round began.
        while let Some(entry) = self.ready.pop() {
            self.found_through(acts, entry as usize);
        }
        while let Some(atom) = self.queue.pop() {
            let a = atom as usize;
            for k in self.occurrence_start[a]..self.occurrence_start[a + 1] {
                let entry = self.occurrences[k] as usize;
                if self.stamp[entry] == self.round && self.missing[entry] != INACTIVE {
                    self.missing[entry] -= 1;
                    if self.missing[entry] == 0 {
                        self.found_through(acts, entry);
                    }
                }
            }
        }
        candidates.retain(|&i| self.lost[i as usize]);
        if candidates.is_empty() {
            return;
        }
        // Still sorted, so by component: the lowest's unfounded atoms first.
        let lowest = self.component[candidates[0] as usize];
        let end = candidates.partition_point(|&i| self.component[i as usize] == lowest);
        self.falsify(acts, &candidates[..end]);
        self.lost_list = candidates;
    }

    /// Gives the lost atoms that `entry` supports it as their source.
    fn found_through(&mut self, acts: &TheoryArg, entry: usize) {
        for k in self.head_start[entry]..self.head_start[entry + 1] {
            let head = self.heads[k];
            let h = head as usize;
            if self.lost[h] && Self::value(acts, self.atom_lit(head)) != lbool::FALSE {
                self.lost[h] = false;
                self.source[h] = entry as u32;
                self.queue.push(head);
            }
        }
    }

    /// Makes the atoms of `group` (one component's unfounded atoms) false,
    /// or raises the conflict of a true one.
    fn falsify(&mut self, acts: &mut TheoryArg, group: &[u32]) {
        for &i in group {
            self.in_set[i as usize] = true;
        }
        self.collect_reason(acts, group);
        for &i in group {
            self.in_set[i as usize] = false;
        }
        let true_atom = (group.iter())
            .map(|&i| self.atom_lit(i))
            .find(|&atom| Self::value(acts, atom) == lbool::TRUE);
        if let Some(atom) = true_atom {
            self.stats.unfounded_conflicts += 1;
            let mut clause: Vec<BLit> = self.reason.iter().map(|&l| !l).collect();
            clause.push(!atom);
            acts.raise_conflict(&clause, true);
            return;
        }
        for &i in group {
            let atom = self.atom_lit(i);
            if Self::value(acts, atom) == lbool::UNDEF {
                self.stats.unfounded_propagations += 1;
                self.reasons[atom.var().idx() as usize].clone_from(&self.reason);
                if !acts.propagate(!atom) {
                    return;
                }
            }
        }
    }

    /// The reason of `group`'s unfoundedness into `self.reason`: a true
    /// literal falsifying each of its external bodies.
    fn collect_reason(&mut self, acts: &TheoryArg, group: &[u32]) {
        self.reason.clear();
        for &i in group {
            let atom = self.cyclic[i as usize];
            for &body in self.translation.supports(atom) {
                let inside = self.translation.body_pos(body).iter().any(|p| {
                    let l = self.local[p.index()];
                    l != NOT_CYCLIC && self.in_set[l as usize]
                });
                if inside {
                    continue;
                }
                match self.falsifier(acts, body) {
                    Some(Some(lit)) => self.reason.push(lit),
                    Some(None) => {}
                    None => unreachable!("an external body of an unfounded set is false"),
                }
            }
        }
        self.reason.sort_unstable_by_key(|l| l.idx());
        self.reason.dedup();
    }
}

impl Theory for UnfoundedSets<'_> {
    fn final_check(&mut self, acts: &mut TheoryArg) {
        self.check(acts);
    }

    fn partial_check(&mut self, acts: &mut TheoryArg) {
        self.check(acts);
    }

    fn create_level(&mut self) {
        self.scanned_at_level.push(self.scanned);
        self.dropped.push(Vec::new());
    }

    fn pop_levels(&mut self, n: usize) {
        let level = self.scanned_at_level.len() - n;
        self.scanned = self.scanned.min(self.scanned_at_level[level]);
        self.scanned_at_level.truncate(level);
        for atoms in self.dropped.drain(level + 1..) {
            self.lost_list.extend(atoms);
        }
    }

    fn n_levels(&self) -> usize {
        self.scanned_at_level.len()
    }

    fn explain_propagation(&mut self, p: BLit) -> &[BLit] {
        &self.reasons[p.var().idx() as usize]
    }
}

/// Up to `max_models` answer sets (0: all), each as one value per atom,
/// enumerated by blocking clauses over the atoms.
pub fn answer_sets(
    program: &GroundProgram,
    max_models: usize,
) -> Result<(Vec<Vec<bool>>, SearchStats), Unsupported> {
    let mut formula = CnfFormula::new();
    let translation = translate::translate(program, &mut formula)
        .map_err(|_| Unsupported("the translation failed"))?;
    if !translation.minimality().is_empty() {
        return Err(Unsupported("a component is not head-cycle-free"));
    }
    if !translation.recursive_aggregates().is_empty() {
        return Err(Unsupported("an aggregate is recursive"));
    }
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
    let mut theory = UnfoundedSets::new(&translation, formula.var_count());
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
        clause.extend(model.iter().enumerate().map(|(a, &value)| {
            let lit = batsat_lit(translation.atom_lit(AtomId(a as u32)));
            if value { !lit } else { lit }
        }));
        found.push(model);
        if clause.is_empty() || !solver.add_clause_reuse(&mut clause) {
            break;
        }
    }
    theory.stats.conflicts = solver.num_conflicts();
    theory.stats.decisions = solver.num_decisions();
    Ok((found, theory.stats))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::translate::testing::{
        Rng, random_program, random_program_with_aggregates, stable_models,
    };

    /// The answer sets found, as bit sets over the atoms, against the
    /// brute-force checker's; whether the unfounded-set check propagated.
    fn compare(program: &GroundProgram, round: usize) -> Option<bool> {
        let (models, stats) = answer_sets(program, 0).ok()?;
        let mut found: Vec<u64> = (models.iter())
            .map(|m| (m.iter().enumerate()).fold(0, |acc, (a, &v)| acc | (u64::from(v) << a)))
            .collect();
        found.sort_unstable();
        let mut expected = stable_models(program);
        expected.sort_unstable();
        let mut text = Vec::new();
        crate::ground_text::write(&mut text, program).expect("writing into a Vec");
        let text = String::from_utf8(text).expect("symbols are UTF-8");
        assert_eq!(found, expected, "round {round}: {text}");
        Some(stats.unfounded_propagations > 0)
    }

    /// Compares `rounds` programs of `generate`; how many were compared
    /// (not refused), and in how many the check propagated.
    fn campaign(
        seed: u64,
        rounds: usize,
        mut generate: impl FnMut(&mut Rng, usize) -> GroundProgram,
    ) -> (usize, usize) {
        let mut rng = Rng::new(seed);
        let (mut compared, mut with_propagation) = (0, 0);
        for round in 0..rounds {
            let program = generate(&mut rng, round);
            if let Some(propagated) = compare(&program, round) {
                compared += 1;
                with_propagation += usize::from(propagated);
            }
        }
        (compared, with_propagation)
    }

    /// Random programs (with loops, choices and disjunctions).
    #[test]
    fn unfounded_search_matches_brute_force() {
        let (compared, with_propagation) = campaign(2027, 20000, |rng, round| {
            random_program(rng, 8, round % 2 == 1)
        });
        assert!(
            compared > 15000 && with_propagation > 3000,
            "{compared}, {with_propagation}"
        );
    }

    /// Random programs with aggregates (the recursive ones are refused).
    #[test]
    fn unfounded_search_matches_brute_force_with_aggregates() {
        let (compared, with_propagation) =
            campaign(2028, 5000, |rng, _| random_program_with_aggregates(rng, 7));
        assert!(
            compared > 4000 && with_propagation > 700,
            "{compared}, {with_propagation}"
        );
    }
}
