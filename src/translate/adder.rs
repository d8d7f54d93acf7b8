//! Reified `Σ wᵢ·xᵢ ≥ k` by a network of adders and a comparator, after
//!
//! > Niklas Eén and Niklas Sörensson, "Translating pseudo-Boolean
//! > constraints into SAT", Journal on Satisfiability, Boolean Modeling and
//! > Computation 2 (2006), pp. 1–26, section 5.3,
//!
//! for the sums whose interval diagram would be too large to write
//! ([`super::native_sums::CLAUSE_NODES_AT_MOST`]) where the sum must be
//! clauses (varisat's search, `--sums=clauses`, the exact export). Each
//! input goes into the column of every bit set in its weight; three bits of
//! a column are added by a full adder (the sum stays, the carry goes one
//! column up), two by a half adder, until each column holds one bit of the
//! sum. A bound compares those bits from the lowest up. The network has a
//! few gates per bit of each weight, where the diagram has up to one node
//! per input and value of the sum (six sums of 120 weights up to 2,000:
//! 13.9 million diagram nodes). Unit propagation over it is weaker than
//! over the diagram: a bound is known to fail only once enough bits are.
//! Every gate is defined in both directions, so every auxiliary variable
//! is determined by the inputs (the exact export's invariant).

use super::Cond;
use super::encoding::{AtLeast, PositiveTerms};
use super::gates::Gates;
use std::collections::VecDeque;
use varisat_formula::{ExtendFormula, Lit};

/// The inputs with positive weights, then (once a bound is asked) the
/// bits of their sum, lowest first.
pub(crate) struct SumAdder {
    sum: PositiveTerms,
    bits: Option<Vec<Cond>>,
}

impl SumAdder {
    pub(crate) fn new(weighted: &[(Cond, i64)]) -> SumAdder {
        SumAdder {
            sum: PositiveTerms::new(weighted),
            bits: None,
        }
    }
}

/// The bits of `Σ wᵢ·xᵢ`, lowest first.
fn add<S: ExtendFormula>(inputs: &[(Lit, u64)], gates: &mut Gates<S>) -> Vec<Cond> {
    let mut columns: Vec<VecDeque<Cond>> = Vec::new();
    for &(x, w) in inputs {
        for bit in (0..u64::BITS as usize).filter(|&b| w >> b & 1 == 1) {
            if columns.len() <= bit {
                columns.resize(bit + 1, VecDeque::new());
            }
            columns[bit].push_back(Cond::Lit(x));
        }
    }
    let mut bits = Vec::with_capacity(columns.len() + 1);
    let mut column = 0;
    while column < columns.len() {
        let mut carries = Vec::new();
        let bits_here = &mut columns[column];
        while bits_here.len() >= 2 {
            let (a, b) = (bits_here.pop_front(), bits_here.pop_front());
            let (a, b) = (a.expect("two bits"), b.expect("two bits"));
            match bits_here.pop_front() {
                Some(c) => {
                    let sum = gates.xor(a, b);
                    bits_here.push_back(gates.xor(sum, c));
                    carries.push(gates.majority(a, b, c));
                }
                None => {
                    bits_here.push_back(gates.xor(a, b));
                    carries.push(gates.and(&[a, b]));
                }
            }
        }
        bits.push(bits_here.pop_front().unwrap_or(Cond::False));
        if !carries.is_empty() {
            if columns.len() <= column + 1 {
                columns.push(VecDeque::new());
            }
            columns[column + 1].extend(carries);
        }
        column += 1;
    }
    bits
}

impl AtLeast for SumAdder {
    fn at_least<S: ExtendFormula>(&mut self, k: i64, gates: &mut Gates<S>) -> Cond {
        let bound = match self.sum.bound(k) {
            Ok(bound) => bound,
            Err(constant) => return constant,
        };
        let terms = &self.sum.terms;
        let bits = self.bits.get_or_insert_with(|| add(terms, gates));
        // The sum's bits from the lowest up at least the bound's: a set bit
        // of the bound needs the sum's and the lower ones at least the
        // bound's; a clear bit needs either.
        let mut at_least = Cond::True;
        for (b, &bit) in bits.iter().enumerate() {
            at_least = match bound >> b & 1 {
                1 => gates.and(&[bit, at_least]),
                _ => gates.or(&[bit, at_least]),
            };
        }
        at_least
    }
}
