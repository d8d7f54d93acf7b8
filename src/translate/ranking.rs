//! Eager, exact translation of non-tight programs by level ranking:
//!
//! > Tomi Janhunen, "Representing normal programs with clauses", Proceedings
//! > of the 16th European Conference on Artificial Intelligence (ECAI 2004),
//! > pp. 358–362.
//! >
//! > Ilkka Niemelä, "Stable models and difference logic", Annals of
//! > Mathematics and Artificial Intelligence 53 (2008), pp. 313–329.
//!
//! The completion written by [`super::translate`] admits supported models
//! that are not answer sets when the positive dependency graph has cycles.
//! Here every atom `a` of a strongly connected component `C` of that graph
//! with two or more atoms gets a binary rank `lev(a)` of
//! `k = ⌈log₂(|C| + 1)⌉` bits, and:
//!
//! - a false atom has rank 0, a true atom a rank of at least 1;
//! - support: a true atom has a support body `β_r` (normal rule, shifted
//!   disjunction, or choice element `body ∧ condition`) that is true and
//!   whose positive atoms in `C` all have a lower rank:
//!   `s_r ↔ β_r ∧ ⋀_{b ∈ B⁺(r) ∩ C} lev(b) < lev(a)` and `a → ⋁ s_r`;
//! - uniqueness (Niemelä's strong ranking): for every support body,
//!   `a ∧ β_r → lev(a) ≤ 1 + max{lev(b) : b ∈ B⁺(r) ∩ C}`, with the max of
//!   the empty set 0, written as `a ∧ β_r → ⋁_b lev(a) ≤ lev(b) + 1` (or
//!   `lev(a) ≤ 1` when `B⁺(r) ∩ C` is empty).
//!
//! Together these force `lev(a) = 1 + min_r max_b lev(b)` over the true
//! support bodies, a system with exactly one solution for each answer set
//! (take the smallest rank on which two solutions differ: both are
//! determined by the same lower ranks), and its solution is the stage at
//! which the reduct derives `a` inside `C`, at most `|C|`. A supported
//! model with such a ranking has no unfounded set (the atom of lowest rank
//! in one would be derived), so the models of completion and ranking are
//! exactly the answer sets, one CNF model each.
//!
//! An aggregate atom `A` on a cycle (`super::aggregates::RecursiveAggregate`)
//! is ranked like an atom whose one rule is its aggregate: it is supported
//! when the aggregate holds with every rising atom `b` of `C` in its
//! elements ranked below it (`lev(b) < lev(A)`), and its rank is the
//! least: with `lev(A) ≥ 2` the aggregate does not hold over the atoms of
//! `C` with `lev(b) + 1 < lev(A)`.
//!
//! An atom that is its own component and depends on itself (`a :- a, B.`)
//! needs no rank: only its support bodies without `a` can support it. This
//! also makes `a :- a.`, whose completion clauses are all tautologies,
//! false.
//!
//! Comparators work on the bits with the carry of `x < y` from the least
//! significant bit up: `lt_i = maj(¬x_i, y_i, lt_{i−1})`, one Tseitin
//! variable (six clauses) per bit; `lev(b) + 1` is a ripple-carry increment
//! per atom. Every auxiliary variable is defined in both directions and
//! constants are folded, so the whole encoding is `O(k)` variables and
//! clauses per positive edge inside a component: `O(n log n)` overall.

use super::analysis::Analysis;
use super::gates::Gates;
use super::{BodyId, ClauseWriter, Cond, Translation};
use crate::ground::program::AtomId;
use rustc_hash::FxHashMap;
use varisat_formula::{ExtendFormula, Lit};

/// What the ranking added, for statistics.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RankingSummary {
    /// Components with two or more atoms, which get ranks.
    pub ranked_components: usize,
    pub ranked_atoms: usize,
    /// Rank bits over all ranked atoms.
    pub rank_bits: usize,
    /// Atoms that are their own component and depend on themselves.
    pub self_loops: usize,
}

/// Number of bits for ranks `0..=size`.
pub fn rank_width(size: usize) -> usize {
    (usize::BITS - size.leading_zeros()) as usize
}

/// Adds the ranking clauses for every cyclic component of the positive
/// dependency graph (`analysis`; the program is head-cycle-free and its
/// recursive aggregates monotone, so these are the components of the
/// graph over the support bodies of `translation`) to `writer`.
pub(crate) fn encode<S: ExtendFormula>(
    translation: &Translation,
    analysis: &Analysis,
    writer: &mut ClauseWriter<S>,
) -> RankingSummary {
    let n = translation.atom_count();
    let (component, size) = (&analysis.components.component, &analysis.size);

    let mut summary = RankingSummary::default();
    let mut gates = Gates { sink: writer };
    // Rank bits, least significant first, of the atoms of ranked components.
    let mut lev: Vec<Vec<Cond>> = vec![Vec::new(); n];
    let mut ranked_seen = vec![false; size.len()];
    for a in 0..n {
        let c = component[a] as usize;
        if size[c] < 2 {
            continue;
        }
        if !ranked_seen[c] {
            ranked_seen[c] = true;
            summary.ranked_components += 1;
        }
        summary.ranked_atoms += 1;
        let k = rank_width(size[c] as usize);
        summary.rank_bits += k;
        let atom = translation.atom_lit(AtomId(a as u32));
        let bits: Vec<Cond> = (0..k)
            .map(|_| Cond::Lit(gates.sink.new_var().positive()))
            .collect();
        // False atoms have rank 0, true atoms a rank of at least 1.
        let mut nonzero = vec![!atom];
        for bit in &bits {
            let bit = bit.lit().expect("rank bits are variables");
            gates.sink.add_clause(&[atom, !bit]);
            nonzero.push(bit);
        }
        gates.sink.add_clause(&nonzero);
        lev[a] = bits;
    }

    let mut ranks = Ranks {
        lev,
        inc: FxHashMap::default(),
        lt: FxHashMap::default(),
        le_succ: FxHashMap::default(),
        low: FxHashMap::default(),
    };
    let mut support: Vec<Lit> = Vec::new();
    let mut conjuncts: Vec<Cond> = Vec::new();
    let mut unique: Vec<Lit> = Vec::new();
    for a in 0..n {
        let c = component[a];
        let id = AtomId(a as u32);
        let atom = translation.atom_lit(id);
        let self_loop = size[c as usize] == 1 && translation.supports_itself(id);
        if size[c as usize] < 2 && !self_loop {
            continue;
        }
        if self_loop {
            summary.self_loops += 1;
        }
        if let Some(aggregate) = translation.recursive_aggregate(id) {
            // s ↔ the aggregate holds over the lower-ranked atoms of C.
            let inside = |p: AtomId| component[p.index()] == c;
            let below = |p: AtomId, gates: &mut Gates<_>| {
                if inside(p) {
                    ranks.lt(gates, p, id)
                } else {
                    Cond::True
                }
            };
            match aggregate.restricted(translation, &mut gates, below) {
                Cond::True => {}
                Cond::False => gates.sink.add_clause(&[!atom]),
                Cond::Lit(s) => gates.sink.add_clause(&[!atom, s]),
            }
            // lev(A) ≥ 2 → not already over the atoms two ranks lower.
            let two_below = |p: AtomId, gates: &mut Gates<_>| {
                if inside(p) {
                    !ranks.le_succ(gates, id, p)
                } else {
                    Cond::True
                }
            };
            let early = aggregate.restricted(translation, &mut gates, two_below);
            let low = ranks.low(&mut gates, id);
            let clause = [Cond::Lit(!atom), low, !early];
            if !clause.contains(&Cond::True) {
                let lits: Vec<Lit> = clause.iter().filter_map(|c| c.lit()).collect();
                gates.sink.add_clause(&lits);
            }
            continue;
        }
        support.clear();
        support.push(!atom);
        let mut always = false;
        for &body in translation.supports(id) {
            let cond = translation.body_cond(body);
            if cond == Cond::False {
                continue;
            }
            let inside: Vec<AtomId> = internal(translation, body, component, c);
            // s_r ↔ β_r ∧ ⋀ lev(b) < lev(a)
            conjuncts.clear();
            conjuncts.push(cond);
            for &b in &inside {
                conjuncts.push(ranks.lt(&mut gates, b, id));
            }
            match gates.and(&conjuncts) {
                Cond::True => always = true,
                Cond::False => {}
                Cond::Lit(s) => support.push(s),
            }
            if self_loop || inside.contains(&id) {
                // lev(a) ≤ 1 + lev(a) holds; a self-loop has no rank.
                continue;
            }
            // a ∧ β_r → lev(a) ≤ 1 + max lev(b)
            unique.clear();
            unique.push(!atom);
            if let Cond::Lit(beta) = cond {
                unique.push(!beta);
            }
            let mut holds = false;
            let mut bound = |cond: Cond, unique: &mut Vec<Lit>| match cond {
                Cond::True => holds = true,
                Cond::False => {}
                Cond::Lit(l) => unique.push(l),
            };
            if inside.is_empty() {
                bound(ranks.low(&mut gates, id), &mut unique);
            }
            for &b in &inside {
                bound(ranks.le_succ(&mut gates, id, b), &mut unique);
            }
            if !holds {
                gates.sink.add_clause(&unique);
            }
        }
        if !always {
            gates.sink.add_clause(&support);
        }
    }
    summary
}

/// The positive atoms of `body` in component `c`.
fn internal(translation: &Translation, body: BodyId, component: &[u32], c: u32) -> Vec<AtomId> {
    translation
        .body_pos(body)
        .iter()
        .copied()
        .filter(|b| component[b.index()] == c)
        .collect()
}

/// Ranks and the comparators built on them, each built once.
struct Ranks {
    lev: Vec<Vec<Cond>>,
    /// `lev(b) + 1`, one bit wider than `lev(b)`.
    inc: FxHashMap<u32, Vec<Cond>>,
    /// `(b, a)` → `lev(b) < lev(a)`.
    lt: FxHashMap<(u32, u32), Cond>,
    /// `(a, b)` → `lev(a) ≤ lev(b) + 1`.
    le_succ: FxHashMap<(u32, u32), Cond>,
    /// `a` → `lev(a) ≤ 1`.
    low: FxHashMap<u32, Cond>,
}

impl Ranks {
    fn lt<S: ExtendFormula>(&mut self, gates: &mut Gates<S>, b: AtomId, a: AtomId) -> Cond {
        if a == b {
            return Cond::False;
        }
        if let Some(&cond) = self.lt.get(&(b.0, a.0)) {
            return cond;
        }
        let cond = gates.less(&self.lev[b.index()], &self.lev[a.index()]);
        self.lt.insert((b.0, a.0), cond);
        cond
    }

    fn le_succ<S: ExtendFormula>(&mut self, gates: &mut Gates<S>, a: AtomId, b: AtomId) -> Cond {
        if a == b {
            return Cond::True;
        }
        if let Some(&cond) = self.le_succ.get(&(a.0, b.0)) {
            return cond;
        }
        if !self.inc.contains_key(&b.0) {
            let inc = gates.increment(&self.lev[b.index()]);
            self.inc.insert(b.0, inc);
        }
        let mut lev_a = self.lev[a.index()].clone();
        lev_a.push(Cond::False);
        let cond = !(gates.less(&self.inc[&b.0], &lev_a));
        self.le_succ.insert((a.0, b.0), cond);
        cond
    }

    fn low<S: ExtendFormula>(&mut self, gates: &mut Gates<S>, a: AtomId) -> Cond {
        if let Some(&cond) = self.low.get(&a.0) {
            return cond;
        }
        let high: Vec<Cond> = self.lev[a.index()][1..].iter().map(|&b| !(b)).collect();
        let cond = gates.and(&high);
        self.low.insert(a.0, cond);
        cond
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{
        Rng, cnf_models, head_cycle_free, parse, random_program, random_program_with_aggregates,
        random_program_with_recursive_aggregates, recursive_aggregates, stable_models,
    };
    use crate::translate::translate_exact;
    use varisat::{CnfFormula, Solver, Var};

    fn check(program: &crate::ground::program::GroundProgram) -> (Vec<u64>, Translation) {
        let mut formula = CnfFormula::new();
        let translation = translate_exact(program, &mut formula).expect("head-cycle-free");
        assert!(translation.is_exact());
        assert_eq!(translation.stats().variables(), formula.var_count());
        assert_eq!(translation.stats().clauses(), formula.len());
        let models = cnf_models(&formula, &translation);
        let mut expected = stable_models(program);
        expected.sort_unstable();
        assert_eq!(models, expected, "{program:?}");
        (models, translation)
    }

    fn count(text: &str) -> usize {
        check(&parse(text)).0.len()
    }

    #[test]
    fn ranking_rank_width() {
        assert_eq!(rank_width(1), 1);
        assert_eq!(rank_width(2), 2);
        assert_eq!(rank_width(3), 2);
        assert_eq!(rank_width(4), 3);
        assert_eq!(rank_width(7), 3);
        assert_eq!(rank_width(8), 4);
    }

    #[test]
    fn ranking_tautological_rule_makes_atom_false() {
        assert_eq!(count("a :- a."), 1);
        assert_eq!(count("a :- a. b :- not a."), 1);
        assert_eq!(count("{c}. a :- a. a :- c."), 2);
        assert_eq!(count("{a}. a :- a."), 2);
    }

    #[test]
    fn ranking_positive_loops() {
        assert_eq!(count("a :- b. b :- a."), 1);
        assert_eq!(count("{c}. a :- c. a :- b. b :- a."), 2);
        assert_eq!(count("{c}. a :- b. b :- c. b :- a. c :- a."), 2);
        // Two ways to support the loop: still one ranking per answer set.
        assert_eq!(count("{c; d}. a :- c. b :- d. a :- b. b :- a."), 4);
        assert_eq!(
            count("{x}. a :- x. b :- a. c :- b. a :- c. c :- a. b :- c."),
            2
        );
    }

    #[test]
    fn ranking_choice_and_disjunction_in_loops() {
        assert_eq!(count("{a} :- b. {b} :- a."), 1);
        assert_eq!(count("{a}. {b} :- a. a :- b."), 3);
        assert_eq!(count("a | b :- c. c :- a. {c}."), 3);
        assert_eq!(count("a | b. c :- a. a :- c. c :- b. b :- d. d :- b."), 1);
    }

    /// Directed Hamiltonian cycles of complete graphs: (n − 1)! each.
    #[test]
    fn ranking_hamiltonian_cycles() {
        for n in 3..=5usize {
            let mut text = String::from("r1.\n");
            for x in 1..=n {
                let out: Vec<String> = (1..=n)
                    .filter(|&y| y != x)
                    .map(|y| format!("e{x}x{y}"))
                    .collect();
                text += &format!("1{{{}}}1.\n", out.join(";"));
                let inn: Vec<String> = (1..=n)
                    .filter(|&y| y != x)
                    .map(|y| format!("e{y}x{x}"))
                    .collect();
                for i in 0..inn.len() {
                    for j in i + 1..inn.len() {
                        text += &format!(":- {}, {}.\n", inn[i], inn[j]);
                    }
                }
                for y in (2..=n).filter(|&y| y != x) {
                    text += &format!("r{y} :- r{x}, e{x}x{y}.\n");
                }
                text += &format!(":- not r{x}.\n");
            }
            let factorial: usize = (1..n).product();
            assert_eq!(count(&text), factorial, "n = {n}");
        }
    }

    #[test]
    fn ranking_matches_stable_models_on_random_programs() {
        let mut rng = Rng::new(4242);
        let (mut checked, mut nontight, mut ranked) = (0, 0, 0);
        for round in 0..4000 {
            let program = random_program(&mut rng, 8, round % 3 == 0);
            if !head_cycle_free(&program) {
                let refused = translate_exact(&program, &mut CnfFormula::new()).is_err();
                assert!(
                    refused,
                    "round {round}: not head-cycle-free, yet translated"
                );
                continue;
            }
            let (_, translation) = check(&program);
            checked += 1;
            if !translation.is_tight() {
                nontight += 1;
            }
            if translation.ranking().ranked_atoms > 0 {
                ranked += 1;
            }
        }
        assert!(checked > 3000, "{checked}");
        assert!(nontight > 800, "{nontight} non-tight");
        assert!(ranked > 400, "{ranked} with ranks");
    }

    /// The exact translation of programs with ground aggregates: one CNF
    /// model per stable model.
    #[test]
    fn ranking_matches_stable_models_with_aggregates() {
        let mut rng = Rng::new(4343);
        let mut checked = 0;
        for _ in 0..2000 {
            let program = random_program_with_aggregates(&mut rng, 7);
            if head_cycle_free(&program) {
                check(&program);
                checked += 1;
            }
        }
        assert!(checked > 1500, "{checked}");
    }

    /// Recursive aggregates in the exact translation: one CNF model per
    /// stable model, or a refusal (non-monotone recursive aggregates, and
    /// disjunctions that are not head-cycle-free).
    #[test]
    fn ranking_matches_stable_models_with_recursive_aggregates() {
        let mut rng = Rng::new(2017);
        let (mut checked, mut ranked) = (0, 0);
        for round in 0..2000 {
            let program = random_program_with_recursive_aggregates(&mut rng, 5);
            let mut formula = CnfFormula::new();
            if translate_exact(&program, &mut formula).is_err() {
                assert!(
                    !head_cycle_free(&program) || !recursive_aggregates(&program).is_empty(),
                    "round {round}: refused {program:?}"
                );
                continue;
            }
            let (_, translation) = check(&program);
            checked += 1;
            ranked += usize::from(!translation.recursive_aggregates().is_empty());
        }
        assert!(checked > 1000, "{checked}");
        assert!(ranked > 300, "{ranked} with ranked aggregates");
    }

    /// The gates against truth tables, every variable determined.
    #[test]
    fn ranking_comparators_and_increment() {
        for width in 1..=3usize {
            let mut formula = CnfFormula::new();
            let x: Vec<Cond> = (0..width).map(|_| Cond::Lit(formula.new_lit())).collect();
            let y: Vec<Cond> = (0..width).map(|_| Cond::Lit(formula.new_lit())).collect();
            let mut writer = ClauseWriter::new(&mut formula);
            let mut gates = Gates { sink: &mut writer };
            let less = gates.less(&x, &y);
            let inc = gates.increment(&x);
            let mut y_wide = y.clone();
            y_wide.push(Cond::False);
            let le_succ = !(gates.less(&inc, &y_wide));
            for xv in 0..1usize << width {
                for yv in 0..1usize << width {
                    let mut solver = Solver::new();
                    solver.add_formula(&formula);
                    for i in 0..width {
                        solver.add_clause(&[Var::from_index(i).lit(xv >> i & 1 == 1)]);
                        solver.add_clause(&[Var::from_index(width + i).lit(yv >> i & 1 == 1)]);
                    }
                    assert!(solver.solve().unwrap());
                    let model = solver.model().unwrap();
                    let value = |c: Cond| c.value(|v| model.contains(&v.positive()));
                    assert_eq!(value(less), xv < yv, "{xv} < {yv}");
                    assert_eq!(value(le_succ), yv <= xv + 1, "{yv} <= {xv} + 1");
                    let sum = inc
                        .iter()
                        .enumerate()
                        .fold(0, |s, (i, &b)| s | usize::from(value(b)) << i);
                    assert_eq!(sum, xv + 1);
                    // Exactly one model with the inputs fixed.
                    let block: Vec<Lit> = model.iter().map(|&l| !l).collect();
                    solver.add_clause(&block);
                    assert!(!solver.solve().unwrap());
                }
            }
        }
    }

    /// The ranking of a long positive chain closed into a cycle stays near
    /// n log n.
    #[test]
    fn ranking_size_is_near_n_log_n() {
        for n in [16usize, 64, 256, 1024] {
            let mut text = String::new();
            for i in 0..n {
                text += &format!("{{x{i}}}. a{} :- a{i}, x{i}. a{i} :- x{i}.\n", (i + 1) % n);
            }
            let program = parse(&text);
            let mut formula = CnfFormula::new();
            let translation = translate_exact(&program, &mut formula).unwrap();
            let stats = translation.stats();
            let log = rank_width(n);
            assert!(
                stats.ranking_clauses <= 40 * n * log,
                "n={n}: {} ranking clauses",
                stats.ranking_clauses
            );
            assert!(stats.ranking_variables <= 8 * n * log);
        }
    }
}
