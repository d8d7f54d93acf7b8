//! Cardinality constraints by the sequential counter of
//!
//! > Carsten Sinz, "Towards an Optimal CNF Encoding of Boolean Cardinality
//! > Constraints", Principles and Practice of Constraint Programming (CP
//! > 2005), LNCS 3709, pp. 827–831.
//!
//! The register `r(i, j)` means "at least `j` of the first `i` inputs are
//! true". Sinz's encoding only needs the direction `r(i, j) ← …` for an
//! upper bound; here every register is defined in both directions,
//!
//! ```text
//! r(i, j) ↔ r(i−1, j) ∨ (x_i ∧ r(i−1, j−1))      (r(i−1, 0) = true, r(i−1, j) = false for j > i−1)
//! ```
//!
//! so that the registers are functionally determined by the inputs: an
//! exported CNF then has exactly one model per assignment of the inputs that
//! satisfies the bounds, and model counters count answer sets. Registers go
//! up to `j = min(n, max(lower, upper))` only: "more than `upper`" is an
//! input `x_i` with `r(i − 1, upper)` already true, one binary clause per
//! input, so the registers `r(i, upper + 1)`, false in every model, are
//! never built. `1 { … } 1` over `n` inputs costs about `4n` clauses.

use super::Cond;
use super::bdd::SumAtLeast;
use super::encoding::AtLeast;
use super::exclusive::ExclusiveSets;
use super::gates::Gates;
use super::sorting::SortingNetwork;
use varisat_formula::{ExtendFormula, Lit};

/// The registers of a sequential counter over some inputs.
#[derive(Clone, Debug)]
pub struct SequentialCounter {
    inputs: usize,
    width: usize,
    /// `rows[i][j - 1]` is `r(i + 1, j)` for `1 <= j <= min(i + 1, width)`.
    rows: Vec<Vec<Lit>>,
}

impl SequentialCounter {
    /// Defines the registers `r(i, j)` for `j <= width` (capped at the number
    /// of inputs). `r(1, 1)` is the first input itself; every other register
    /// is a new variable.
    pub fn new(inputs: &[Lit], width: usize, sink: &mut impl ExtendFormula) -> SequentialCounter {
        let n = inputs.len();
        let width = width.min(n);
        let mut rows: Vec<Vec<Lit>> = Vec::with_capacity(n);
        for (i, &x) in inputs.iter().enumerate() {
            let columns = (i + 1).min(width);
            let mut row = Vec::with_capacity(columns);
            for j in 1..=columns {
                if i == 0 {
                    row.push(x);
                    continue;
                }
                let above = &rows[i - 1];
                // r(i, j) and r(i, j − 1) in the paper's 1-based rows.
                let prev = above.get(j - 1).copied();
                let carry = if j == 1 { None } else { Some(above[j - 2]) };
                let y = sink.new_var().positive();
                match (prev, carry) {
                    (Some(p), None) => {
                        // y ↔ p ∨ x
                        sink.add_clause(&[!p, y]);
                        sink.add_clause(&[!x, y]);
                        sink.add_clause(&[!y, p, x]);
                    }
                    (Some(p), Some(c)) => {
                        // y ↔ p ∨ (x ∧ c)
                        sink.add_clause(&[!p, y]);
                        sink.add_clause(&[!x, !c, y]);
                        sink.add_clause(&[!y, p, x]);
                        sink.add_clause(&[!y, p, c]);
                    }
                    (None, Some(c)) => {
                        // y ↔ x ∧ c
                        sink.add_clause(&[!x, !c, y]);
                        sink.add_clause(&[!y, x]);
                        sink.add_clause(&[!y, c]);
                    }
                    (None, None) => unreachable!("r(i, 1) always has r(i - 1, 1) above it"),
                }
                row.push(y);
            }
            rows.push(row);
        }
        SequentialCounter {
            inputs: n,
            width,
            rows,
        }
    }

    /// "At least `j` inputs are true".
    ///
    /// # Panics
    /// When `0 < j <= inputs` and `j` exceeds the width the counter was
    /// built with.
    pub fn at_least(&self, j: usize) -> Cond {
        self.at_least_among(self.inputs, j)
    }

    /// `r(i, j)`: "at least `j` of the first `i` inputs are true".
    ///
    /// # Panics
    /// When `0 < j <= i` and `j` exceeds the width the counter was built
    /// with.
    pub fn at_least_among(&self, i: usize, j: usize) -> Cond {
        if j == 0 {
            Cond::True
        } else if j > i {
            Cond::False
        } else {
            assert!(j <= self.width, "register r({i}, {j}) was not built");
            Cond::Lit(self.rows[i - 1][j - 1])
        }
    }
}

impl AtLeast for SequentialCounter {
    /// # Panics
    /// When `0 < k <= inputs` and `k` exceeds the counter's width.
    fn at_least<S: ExtendFormula>(&mut self, k: i64, _: &mut Gates<S>) -> Cond {
        match usize::try_from(k) {
            Ok(k) => SequentialCounter::at_least(self, k),
            Err(_) => Cond::True,
        }
    }
}

/// Up to this many inputs, "at most one" is encoded pairwise.
const PAIRWISE_AT_MOST_ONE: usize = 6;

/// Bounds are a diagram over exclusive sets when the sets gather the
/// inputs into at most one level per this many. Where they gather fewer
/// the diagram can search far worse than the counter: 50 of 10,000 pairs
/// took varisat 23 s over the diagram, 5.1 s over the counter
/// (fixtures/bench/ANALYSIS.md, "Choice bounds over exclusive sets").
pub(crate) const SETS_GATHER: usize = 8;

#[cfg(not(test))]
fn sets_gather() -> usize {
    SETS_GATHER
}

#[cfg(test)]
fn sets_gather() -> usize {
    GATHER.with(std::cell::Cell::get)
}

#[cfg(test)]
thread_local! {
    /// [`SETS_GATHER`] in this thread's tests: 1 takes every bound over
    /// sets as a diagram, the sets small as they are.
    pub(crate) static GATHER: std::cell::Cell<usize> = const { std::cell::Cell::new(SETS_GATHER) };
    /// Bounds written as a diagram so far in this thread.
    pub(crate) static DIAGRAMS: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// The registers a counter for `lower <= #{true inputs} <= upper` over `n`
/// inputs would have: none for the bounds that [`encode_bounds`] writes
/// without one (unit clauses, a clause, pairwise exclusions).
pub(crate) fn counter_registers(n: usize, lower: usize, upper: Option<usize>) -> u64 {
    let upper = upper.filter(|&u| u < n);
    let trivial = match upper {
        None => lower <= 1 || lower >= n,
        Some(u) => u == 0 || u < lower || (u == 1 && n <= PAIRWISE_AT_MOST_ONE),
    };
    if trivial {
        return 0;
    }
    let width = lower.max(upper.map_or(0, |u| u + 1)).min(n);
    n as u64 * width as u64
}

/// Adds `guard → lower <= #{true inputs} <= upper` (`upper: None` for no
/// upper bound). Trivial bounds add nothing. Where some of the inputs form
/// sets of `exclusive` (at most one of each true, by clauses written
/// elsewhere), the count is a diagram over those sets instead of a counter;
/// otherwise a sorting network where `network` (the counter too large).
pub(crate) fn encode_bounds<S: ExtendFormula>(
    inputs: &[Lit],
    lower: usize,
    upper: Option<usize>,
    guard: Cond,
    exclusive: &ExclusiveSets,
    network: bool,
    sink: &mut S,
) {
    let n = inputs.len();
    let upper = upper.filter(|&u| u < n);
    if (lower == 0 && upper.is_none()) || guard == Cond::False {
        return;
    }
    let guarded = |sink: &mut S, lits: &[Lit]| add_guarded(sink, guard, lits);
    if lower > n || upper.is_some_and(|u| u < lower) {
        guarded(sink, &[]);
        return;
    }
    match upper {
        None if lower == 1 => return guarded(sink, inputs),
        None if lower == n => {
            for &x in inputs {
                guarded(sink, &[x]);
            }
            return;
        }
        Some(0) => {
            for &x in inputs {
                guarded(sink, &[!x]);
            }
            return;
        }
        // At most one of a few: the pairwise encoding needs no auxiliary
        // variables and propagates as well as the counter.
        Some(1) if n <= PAIRWISE_AT_MOST_ONE => {
            for (i, &x) in inputs.iter().enumerate() {
                for &y in &inputs[i + 1..] {
                    guarded(sink, &[!x, !y]);
                }
            }
            if lower == 1 {
                guarded(sink, inputs);
            }
            return;
        }
        _ => {}
    }
    // A set of inputs at most one of which holds adds one or none to the
    // count: a diagram whose levels are the sets ([`SumAtLeast::over_sets`],
    // Bofill et al.'s MDD) has one node per level and bound where the
    // counter has a register per input. Bus driver scheduling (CSPLib 22,
    // t2): at least 19 of 3,015 shifts, each in some of 125 choices of
    // exactly one, took 57,000 registers, the diagram 854 nodes.
    let diagram = (!exclusive.is_empty()).then(|| {
        let weighted: Vec<(Cond, i64)> = inputs.iter().map(|&x| (Cond::Lit(x), 1)).collect();
        SumAtLeast::over_sets(&weighted, exclusive)
    });
    if let Some(mut diagram) = diagram
        && diagram.level_count() * sets_gather() <= n
    {
        #[cfg(test)]
        DIAGRAMS.with(|count| count.set(count.get() + 1));
        let mut gates = Gates { sink: &mut *sink };
        let at_least = (lower > 0).then(|| diagram.at_least(lower as i64, &mut gates));
        let more = upper.map(|u| diagram.at_least(u as i64 + 1, &mut gates));
        return require_bounds(at_least, more, guard, sink);
    }
    let width = lower.max(upper.unwrap_or(0));
    if network {
        let mut network = SortingNetwork::new(inputs.iter().map(|&x| Cond::Lit(x)).collect());
        let mut gates = Gates { sink: &mut *sink };
        let at_least = (lower > 0).then(|| network.at_least(lower as i64, &mut gates));
        let more = upper.map(|u| network.at_least(u as i64 + 1, &mut gates));
        return require_bounds(at_least, more, guard, sink);
    }
    // The registers r(i, u + 1) would be false in every model, so they are
    // not built: "more than u" is an input x_i with r(i − 1, u) before it.
    let counter = SequentialCounter::new(inputs, width, sink);
    if lower > 0 {
        let at_least = counter.at_least(lower).lit().expect("0 < lower <= n");
        guarded(sink, &[at_least]);
    }
    if let Some(u) = upper {
        for (i, &x) in inputs.iter().enumerate().skip(u) {
            let before = counter.at_least_among(i, u).lit().expect("0 < u <= i");
            guarded(sink, &[!x, !before]);
        }
    }
}

/// Requires, under `guard`, "at least `lower`" (`at_least`) and not
/// "more than `upper`" (`more`), the conditions an encoding of the count
/// gives.
pub(crate) fn require_bounds<S: ExtendFormula>(
    at_least: Option<Cond>,
    more: Option<Cond>,
    guard: Cond,
    sink: &mut S,
) {
    for required in [at_least, more.map(|c| !c)].into_iter().flatten() {
        match required {
            Cond::True => {}
            Cond::False => add_guarded(sink, guard, &[]),
            Cond::Lit(lit) => add_guarded(sink, guard, &[lit]),
        }
    }
}

/// Adds the clause `lits ∨ ¬guard`.
fn add_guarded<S: ExtendFormula>(sink: &mut S, guard: Cond, lits: &[Lit]) {
    let mut clause: Vec<Lit> = lits.to_vec();
    if let Cond::Lit(g) = guard {
        clause.push(!g);
    }
    sink.add_clause(&clause);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::translate::ClauseWriter;
    use varisat::{CnfFormula, Solver, Var};

    /// Number of models (0, 1 or "2 or more") of `formula` with the given
    /// literals fixed.
    fn models_up_to_two(formula: &CnfFormula, fixed: &[Lit]) -> usize {
        let mut solver = Solver::new();
        solver.add_formula(formula);
        for &lit in fixed {
            solver.add_clause(&[lit]);
        }
        let mut count = 0;
        while count < 2 && solver.solve().unwrap() {
            count += 1;
            let model = solver.model().unwrap();
            let block: Vec<Lit> = model.iter().map(|&l| !l).collect();
            solver.add_clause(&block);
        }
        count
    }

    /// Every assignment of up to 6 inputs, every bound, with and without a
    /// guard, by counter and by sorting network, with and without sets of inputs at most one of which holds
    /// (their clauses written beside, as the choices of at most one write
    /// theirs): satisfiable with the inputs fixed iff the count is in range
    /// (or the guard is false) and no set has two, and then with exactly
    /// one extension.
    #[test]
    fn translate_cardinality_exhaustive() {
        DIAGRAMS.with(|count| count.set(0));
        let layouts: [&[&[usize]]; 4] = [
            &[],
            &[&[0, 1]],
            &[&[0, 1, 2], &[3, 4]],
            &[&[0, 1], &[1, 2, 5]],
        ];
        for layout in layouts {
            for n in 0..=6usize {
                for lower in 0..=n + 1 {
                    let uppers = std::iter::once(None).chain((0..=n + 1).map(Some));
                    for upper in uppers {
                        for guarded in [false, true] {
                            for gather in [1, SETS_GATHER] {
                                for network in [false, true] {
                                    let bounds = (lower, upper);
                                    check_bounds(layout, n, bounds, guarded, (gather, network));
                                }
                            }
                        }
                    }
                }
            }
        }
        // With a gather of 1, every bound over a layout with sets is a
        // diagram.
        let diagrams = DIAGRAMS.with(std::cell::Cell::get);
        assert!(diagrams > 400, "{diagrams} diagrams");
    }

    fn check_bounds(
        layout: &[&[usize]],
        n: usize,
        (lower, upper): (usize, Option<usize>),
        guarded: bool,
        (gather, network): (usize, bool),
    ) {
        let mut formula = CnfFormula::new();
        let inputs: Vec<Lit> = (0..n).map(|_| formula.new_lit()).collect();
        let guard = if guarded {
            Cond::Lit(formula.new_lit())
        } else {
            Cond::True
        };
        let sets: Vec<Vec<usize>> = (layout.iter())
            .map(|set| set.iter().copied().filter(|&i| i < n).collect())
            .collect();
        let mut exclusive = ExclusiveSets::default();
        for set in &sets {
            let members: Vec<Lit> = set.iter().map(|&i| inputs[i]).collect();
            for (k, &x) in members.iter().enumerate() {
                for &y in &members[k + 1..] {
                    formula.add_clause(&[!x, !y]);
                }
            }
            exclusive.add(&members);
        }
        GATHER.with(|g| g.set(gather));
        encode_bounds(
            &inputs,
            lower,
            upper,
            guard,
            &exclusive,
            network,
            &mut formula,
        );
        GATHER.with(|g| g.set(SETS_GATHER));
        for bits in 0..1u32 << n {
            let count = bits.count_ones() as usize;
            let in_range = lower <= count && upper.is_none_or(|u| count <= u);
            let exclusive_holds =
                (sets.iter()).all(|set| set.iter().filter(|&&i| bits >> i & 1 == 1).count() <= 1);
            let mut fixed: Vec<Lit> = (0..n)
                .map(|i| Var::from_index(i).lit(bits >> i & 1 == 1))
                .collect();
            let guard_values: &[bool] = if guarded { &[false, true] } else { &[true] };
            for &g in guard_values {
                if let Cond::Lit(lit) = guard {
                    fixed.truncate(n);
                    fixed.push(lit.var().lit(g));
                }
                let expected = usize::from(exclusive_holds && (in_range || !g));
                assert_eq!(
                    models_up_to_two(&formula, &fixed),
                    expected,
                    "sets={sets:?} gather={gather} network={network} lower={lower} upper={upper:?} bits={bits:b} guard={g}"
                );
            }
        }
    }

    /// Over a set of inputs at most one of which holds, the bounds are a
    /// diagram, without the counter's registers.
    #[test]
    fn translate_cardinality_over_sets_is_a_diagram() {
        let n = 100;
        let mut formula = CnfFormula::new();
        let inputs: Vec<Lit> = (0..n).map(|_| formula.new_lit()).collect();
        let mut exclusive = ExclusiveSets::default();
        for set in inputs.chunks(10) {
            exclusive.add(set);
        }
        encode_bounds(
            &inputs,
            5,
            Some(7),
            Cond::True,
            &exclusive,
            false,
            &mut formula,
        );
        // Ten levels, eight bounds each at most: the counter would take
        // 7 registers per input.
        assert!(formula.var_count() <= n + 10 * 8, "{}", formula.var_count());
    }

    /// The counter alone: every register equals its definition.
    #[test]
    fn translate_cardinality_registers_count() {
        for n in 1..=6usize {
            for width in 0..=n {
                let mut formula = CnfFormula::new();
                let inputs: Vec<Lit> = (0..n).map(|_| formula.new_lit()).collect();
                let counter = SequentialCounter::new(&inputs, width, &mut formula);
                for bits in 0..1u32 << n {
                    let count = bits.count_ones() as usize;
                    let fixed: Vec<Lit> = (0..n)
                        .map(|i| Var::from_index(i).lit(bits >> i & 1 == 1))
                        .collect();
                    for j in 1..=width {
                        let r = counter.at_least(j).lit().unwrap();
                        let mut with = fixed.clone();
                        with.push(r.var().lit(count < j));
                        assert_eq!(models_up_to_two(&formula, &with), 0);
                    }
                    assert_eq!(models_up_to_two(&formula, &fixed), 1);
                }
            }
        }
    }

    #[test]
    fn translate_cardinality_exactly_one_is_linear() {
        for n in [10usize, 100, 1000] {
            let mut formula = CnfFormula::new();
            let inputs: Vec<Lit> = (0..n).map(|_| formula.new_lit()).collect();
            let mut writer = ClauseWriter::new(&mut formula);
            encode_bounds(
                &inputs,
                1,
                Some(1),
                Cond::True,
                &ExclusiveSets::default(),
                false,
                &mut writer,
            );
            assert!(writer.clauses() <= 8 * n, "{} clauses", writer.clauses());
            assert!(writer.vars() <= 2 * n, "{} vars", writer.vars());
        }
    }
}
