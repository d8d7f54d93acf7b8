//! Cardinality by a sorting network: Batcher's odd–even merge sort over
//! the inputs, whose `k`-th output is "at least `k` inputs are true",
//!
//! > Kenneth E. Batcher, "Sorting networks and their applications",
//! > AFIPS Spring Joint Computer Conference 1968, pp. 307–314,
//!
//! as a CNF of comparators, each `max ↔ a ∨ b` and `min ↔ a ∧ b`:
//!
//! > Niklas Eén and Niklas Sörensson, "Translating pseudo-Boolean
//! > constraints into SAT", Journal on Satisfiability, Boolean Modeling and
//! > Computation 2 (2006), pp. 1–26, section 5.2.
//!
//! The network has about `n·log²n / 4` comparators for `n` inputs, where
//! the sequential counter has a register per input and unit of the bound:
//! 10,000 inputs with bounds near 5,000 are 50 million registers and
//! 760,000 comparators. CDCL searches it far worse, though ("1,000 of
//! 2,000": 140,000 conflicts where the counter needs none), so it is
//! written only where the counters and diagrams would not fit
//! ([`super::native_sums`]). Every comparator is defined in both
//! directions, so every auxiliary variable is determined by the inputs (the
//! exact export's invariant).

use super::Cond;
use super::encoding::{AtLeast, PositiveTerms};
use super::gates::Gates;
use varisat_formula::ExtendFormula;

/// The comparators of a network over `n` inputs padded to the power of
/// two `2^p` (the padding is false, and its comparators fold away):
/// `(p² − p + 4)·2^(p − 2) − 1` (Knuth, TAOCP 3, 5.3.4, exercise 12), an
/// upper bound on what the network writes.
pub(crate) fn comparators(n: usize) -> u64 {
    let p = n.max(2).next_power_of_two().trailing_zeros() as u64;
    (p * p - p + 4) * (1u64 << p) / 4 - 1
}

/// The inputs, then (once a bound is asked) the sorted outputs, true ones
/// first; the sum it stands for is `scale` times their count plus
/// `offset`.
pub(crate) struct SortingNetwork {
    inputs: Vec<Cond>,
    scale: i64,
    offset: i64,
    outputs: Option<Vec<Cond>>,
}

impl SortingNetwork {
    /// A network counting `inputs`, written when a bound is first asked.
    pub(crate) fn new(inputs: Vec<Cond>) -> SortingNetwork {
        SortingNetwork {
            inputs,
            scale: 1,
            offset: 0,
            outputs: None,
        }
    }

    /// A network for `Σ wᵢ·xᵢ` when every weight not zero has the same
    /// magnitude (a `#count`, or a sum of equal weights), over
    /// [`PositiveTerms`].
    pub(crate) fn over_equal_weights(weighted: &[(Cond, i64)]) -> Option<SortingNetwork> {
        let mut weights = weighted.iter().map(|&(_, w)| w.abs()).filter(|&w| w > 0);
        let scale = weights.next().unwrap_or(1);
        if weights.any(|w| w != scale) {
            return None;
        }
        let sum = PositiveTerms::new(weighted);
        let mut network =
            SortingNetwork::new(sum.terms.iter().map(|&(x, _)| Cond::Lit(x)).collect());
        network.scale = scale;
        network.offset = sum.offset;
        Some(network)
    }
}

impl AtLeast for SortingNetwork {
    fn at_least<S: ExtendFormula>(&mut self, k: i64, gates: &mut Gates<S>) -> Cond {
        let inputs = &self.inputs;
        let outputs = self.outputs.get_or_insert_with(|| {
            let mut padded = inputs.clone();
            padded.resize(inputs.len().next_power_of_two(), Cond::False);
            sort(&padded, gates)
        });
        // At least `k` is a count of at least ⌈(k − offset) / scale⌉.
        let count = (k - self.offset + self.scale - 1).div_euclid(self.scale);
        match usize::try_from(count) {
            Err(_) | Ok(0) => Cond::True,
            Ok(count) => outputs.get(count - 1).copied().unwrap_or(Cond::False),
        }
    }
}

/// `xs` (of a power of two in length) sorted, true first.
fn sort<S: ExtendFormula>(xs: &[Cond], gates: &mut Gates<S>) -> Vec<Cond> {
    if xs.len() <= 1 {
        return xs.to_vec();
    }
    let (left, right) = xs.split_at(xs.len() / 2);
    let (left, right) = (sort(left, gates), sort(right, gates));
    merge(&left, &right, gates)
}

/// Two sorted sequences of the same power-of-two length merged: the odd
/// and the even positions merged apart, then one column of comparators.
fn merge<S: ExtendFormula>(a: &[Cond], b: &[Cond], gates: &mut Gates<S>) -> Vec<Cond> {
    let m = a.len();
    if m == 1 {
        return vec![gates.or(&[a[0], b[0]]), gates.and(&[a[0], b[0]])];
    }
    let stride = |xs: &[Cond], first: usize| xs.iter().skip(first).step_by(2).copied().collect();
    let odd: (Vec<Cond>, Vec<Cond>) = (stride(a, 0), stride(b, 0));
    let even: (Vec<Cond>, Vec<Cond>) = (stride(a, 1), stride(b, 1));
    let v = merge(&odd.0, &odd.1, gates);
    let w = merge(&even.0, &even.1, gates);
    let mut merged = Vec::with_capacity(2 * m);
    merged.push(v[0]);
    for i in 0..m - 1 {
        merged.push(gates.or(&[v[i + 1], w[i]]));
        merged.push(gates.and(&[v[i + 1], w[i]]));
    }
    merged.push(w[m - 1]);
    merged
}
