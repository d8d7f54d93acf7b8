//! Reified pseudo-Boolean constraints `Σ wᵢ·xᵢ ≥ k` as reduced ordered
//! BDDs whose nodes stand for intervals of `k`:
//!
//! > Ignasi Abío, Robert Nieuwenhuis, Albert Oliveras and Enric
//! > Rodríguez-Carbonell, "A new look at BDDs for pseudo-Boolean
//! > constraints", Journal of Artificial Intelligence Research 45 (2012),
//! > pp. 443–480.
//! >
//! > Niklas Eén and Niklas Sörensson, "Translating pseudo-Boolean
//! > constraints into SAT", Journal on Satisfiability, Boolean Modeling and
//! > Computation 2 (2006), pp. 1–26.
//!
//! Each node is a variable defined by `v ↔ lo ∨ (x ∧ hi)` in both
//! directions, so the encoding is exact: every auxiliary variable is
//! determined by the inputs. Every bound asked of one diagram shares its
//! nodes.

use super::Cond;
use super::encoding::AtLeast;
use super::gates::Gates;
use rustc_hash::FxHashMap;
use varisat_formula::ExtendFormula;

/// Reified `Σ wᵢ·xᵢ ≥ k` for any `k`, as one shared interval BDD.
///
/// Negative weights are turned positive first: `−w·x = w·¬x − w`. Then
/// `node(i, k)` means `Σ_{j ≥ i} wⱼ·xⱼ ≥ k`, and every node is valid for an
/// interval `[lo, hi]` of `k`, so nearby bounds share nodes.
pub struct SumAtLeast {
    inputs: Vec<(Cond, i64)>,
    /// Σ of the weights from input `i` on.
    suffix: Vec<i64>,
    /// What the negative weights shift every bound by.
    offset: i64,
    /// Per input: the intervals built so far, `(lo, hi, node)`.
    nodes: Vec<Vec<(i64, i64, Cond)>>,
    memo: FxHashMap<(usize, i64), (i64, i64, Cond)>,
}

impl SumAtLeast {
    pub fn new(weighted: &[(Cond, i64)]) -> SumAtLeast {
        let mut offset = 0;
        let mut inputs: Vec<(Cond, i64)> = Vec::with_capacity(weighted.len());
        for &(cond, w) in weighted {
            match cond {
                Cond::False => {}
                _ if w == 0 => {}
                _ if w < 0 => {
                    offset -= w;
                    inputs.push((!cond, -w));
                }
                _ => inputs.push((cond, w)),
            }
        }
        // Heavy inputs first keep the diagram small.
        inputs.sort_by_key(|&(_, w)| std::cmp::Reverse(w));
        let mut suffix = vec![0i64; inputs.len() + 1];
        for i in (0..inputs.len()).rev() {
            suffix[i] = suffix[i + 1] + inputs[i].1;
        }
        SumAtLeast {
            nodes: vec![Vec::new(); inputs.len()],
            inputs,
            suffix,
            offset,
            memo: FxHashMap::default(),
        }
    }

    /// `(lo, hi, node)`: the node for `Σ_{j ≥ i} ≥ k`, the same node for
    /// every bound in `[lo, hi]`.
    fn node<S: ExtendFormula>(
        &mut self,
        i: usize,
        k: i64,
        gates: &mut Gates<S>,
    ) -> (i64, i64, Cond) {
        if k <= 0 {
            return (i64::MIN / 4, 0, Cond::True);
        }
        if k > self.suffix[i] {
            return (self.suffix[i] + 1, i64::MAX / 4, Cond::False);
        }
        if let Some(&(lo, hi, cond)) = self.nodes[i]
            .iter()
            .find(|(lo, hi, _)| *lo <= k && k <= *hi)
        {
            return (lo, hi, cond);
        }
        if let Some(&found) = self.memo.get(&(i, k)) {
            return found;
        }
        let (x, w) = self.inputs[i];
        let (lo1, hi1, high) = self.node(i + 1, k - w, gates);
        let (lo0, hi0, low) = self.node(i + 1, k, gates);
        let (lo, hi) = ((lo1 + w).max(lo0), (hi1 + w).min(hi0));
        // node ↔ low ∨ (x ∧ high); low implies high (a larger bound).
        let node = if high == low {
            low
        } else {
            gates.monotone_node(x, high, low)
        };
        self.nodes[i].push((lo, hi, node));
        self.memo.insert((i, k), (lo, hi, node));
        (lo, hi, node)
    }
}

impl AtLeast for SumAtLeast {
    fn at_least<S: ExtendFormula>(&mut self, k: i64, gates: &mut Gates<S>) -> Cond {
        self.node(0, k + self.offset, gates).2
    }
}
