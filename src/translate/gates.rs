//! Every Tseitin gate of the translation, over [`Cond`]s: constants fold
//! away, and every new variable is defined in both directions, so it is
//! determined by its inputs (the translation's exactness invariant). The
//! level ranking's comparators and the aggregates' BDDs are built from them.

use super::{Cond, normalize_clause};
use smallvec::SmallVec;
use varisat_formula::{ExtendFormula, Lit};

/// Tseitin gates with constant folding: every new variable is defined in
/// both directions.
pub(crate) struct Gates<'s, S> {
    pub(crate) sink: &'s mut S,
}

impl<S: ExtendFormula> Gates<'_, S> {
    /// `v ↔ c1 ∧ … ∧ cm`.
    pub(crate) fn and(&mut self, inputs: &[Cond]) -> Cond {
        let mut lits: Vec<Lit> = Vec::with_capacity(inputs.len());
        for &input in inputs {
            match input {
                Cond::False => return Cond::False,
                Cond::True => {}
                Cond::Lit(l) => lits.push(l),
            }
        }
        if !normalize_clause(&mut lits) {
            return Cond::False; // x ∧ ¬x
        }
        match lits[..] {
            [] => Cond::True,
            [l] => Cond::Lit(l),
            _ => {
                let v = self.sink.new_var().positive();
                for &l in &lits {
                    self.sink.add_clause(&[!v, l]);
                }
                let mut long: Vec<Lit> = lits.iter().map(|&l| !l).collect();
                long.push(v);
                self.sink.add_clause(&long);
                Cond::Lit(v)
            }
        }
    }

    /// `v ↔ low ∨ (x ∧ high)` where `low` implies `high`: a node of a
    /// monotone BDD, one variable and four clauses (Abío et al. 2012)
    /// instead of an `and` and an `or` gate.
    pub(crate) fn monotone_node(&mut self, x: Cond, high: Cond, low: Cond) -> Cond {
        match (x, high, low) {
            (Cond::Lit(x), Cond::Lit(h), Cond::Lit(l)) if h != l && x != h && x != l => {
                let v = self.sink.new_var().positive();
                self.sink.add_clause(&[!l, v]);
                self.sink.add_clause(&[!x, !h, v]);
                self.sink.add_clause(&[!v, h]);
                self.sink.add_clause(&[!v, l, x]);
                Cond::Lit(v)
            }
            _ => {
                let with_x = self.and(&[x, high]);
                self.or(&[low, with_x])
            }
        }
    }

    /// `v ↔ low ∨ (x₁ ∧ high₁) ∨ … ∨ (xₘ ∧ highₘ)` where `low` implies
    /// every `highⱼ` and at most one `xⱼ` holds in every model
    /// ([`super::exclusive::ExclusiveSets`]): a node of a monotone
    /// multi-valued diagram, one variable and `2m + 2` clauses. Its value is
    /// determined wherever at most one `xⱼ` holds.
    pub(crate) fn exclusive_node(&mut self, options: &[(Cond, Cond)], low: Cond) -> Cond {
        let options: SmallVec<[(Cond, Cond); 4]> = (options.iter())
            .filter(|&&(x, high)| high != low && x != Cond::False && high != Cond::False)
            .copied()
            .collect();
        if options.is_empty() || low == Cond::True {
            return low;
        }
        let v = Cond::Lit(self.sink.new_var().positive());
        self.clause(&[!low, v]);
        let mut some = vec![!v, low];
        for &(x, high) in &options {
            self.clause(&[!x, !high, v]);
            self.clause(&[!v, !x, high]);
            some.push(x);
        }
        self.clause(&some);
        v
    }

    /// The clause of `conds`: none when one is true, without those false.
    fn clause(&mut self, conds: &[Cond]) {
        let mut lits: SmallVec<[Lit; 4]> = SmallVec::new();
        for &cond in conds {
            match cond {
                Cond::True => return,
                Cond::False => {}
                Cond::Lit(lit) => lits.push(lit),
            }
        }
        self.sink.add_clause(&lits);
    }

    /// `v ↔ c1 ∨ … ∨ cm`.
    pub(crate) fn or(&mut self, inputs: &[Cond]) -> Cond {
        let negated: Vec<Cond> = inputs.iter().map(|&c| !c).collect();
        !self.and(&negated)
    }

    /// `v ↔ p ⊕ q`.
    pub(crate) fn xor(&mut self, p: Cond, q: Cond) -> Cond {
        match (p, q) {
            (Cond::True, x) | (x, Cond::True) => !(x),
            (Cond::False, x) | (x, Cond::False) => x,
            (Cond::Lit(p), Cond::Lit(q)) => {
                if p == q {
                    return Cond::False;
                }
                if p == !q {
                    return Cond::True;
                }
                let v = self.sink.new_var().positive();
                self.sink.add_clause(&[!v, p, q]);
                self.sink.add_clause(&[!v, !p, !q]);
                self.sink.add_clause(&[v, !p, q]);
                self.sink.add_clause(&[v, p, !q]);
                Cond::Lit(v)
            }
        }
    }

    /// `v ↔ at least two of p, q, r`.
    pub(crate) fn majority(&mut self, p: Cond, q: Cond, r: Cond) -> Cond {
        let (p, q, r) = match (p, q, r) {
            (Cond::True, x, y) | (x, Cond::True, y) | (x, y, Cond::True) => {
                return self.or(&[x, y]);
            }
            (Cond::False, x, y) | (x, Cond::False, y) | (x, y, Cond::False) => {
                return self.and(&[x, y]);
            }
            (Cond::Lit(p), Cond::Lit(q), Cond::Lit(r)) => (p, q, r),
        };
        if p == q || p == r {
            return Cond::Lit(p);
        }
        if q == r {
            return Cond::Lit(q);
        }
        if p == !q {
            return Cond::Lit(r);
        }
        if p == !r {
            return Cond::Lit(q);
        }
        if q == !r {
            return Cond::Lit(p);
        }
        let v = self.sink.new_var().positive();
        for (x, y) in [(p, q), (p, r), (q, r)] {
            self.sink.add_clause(&[!x, !y, v]);
            self.sink.add_clause(&[x, y, !v]);
        }
        Cond::Lit(v)
    }

    /// `x < y` for unsigned numbers of the same width, bits least
    /// significant first.
    pub(crate) fn less(&mut self, x: &[Cond], y: &[Cond]) -> Cond {
        assert_eq!(x.len(), y.len(), "comparator operands of one width");
        let mut carry = Cond::False;
        for (&xi, &yi) in x.iter().zip(y) {
            carry = self.majority(!(xi), yi, carry);
        }
        carry
    }

    /// `x + 1`, one bit wider than `x`.
    pub(crate) fn increment(&mut self, x: &[Cond]) -> Vec<Cond> {
        let mut carry = Cond::True;
        let mut out = Vec::with_capacity(x.len() + 1);
        for &xi in x {
            out.push(self.xor(xi, carry));
            carry = self.and(&[xi, carry]);
        }
        out.push(carry);
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::translate::ClauseWriter;
    use varisat::{CnfFormula, Solver, Var};

    /// For every assignment of three inputs (and constants mixed in), the
    /// gate's value is forced and equals the connective's.
    #[test]
    fn gates_are_equivalences() {
        for constant in [Some(Cond::True), Some(Cond::False), None] {
            let mut formula = CnfFormula::new();
            let vars: Vec<Var> = (0..3).map(|_| formula.new_var()).collect();
            let mut conds: Vec<Cond> = vars.iter().map(|v| Cond::Lit(v.positive())).collect();
            conds.push(Cond::Lit(vars[0].negative()));
            conds.extend(constant);
            let (conj, disj) = {
                let mut writer = ClauseWriter::new(&mut formula);
                let mut gates = Gates { sink: &mut writer };
                (gates.and(&conds), gates.or(&conds))
            };
            for assignment in 0u32..8 {
                let value = |c: Cond, model: &[Lit]| match c {
                    Cond::True => true,
                    Cond::False => false,
                    Cond::Lit(l) => model.contains(&l),
                };
                let mut solver = Solver::new();
                solver.add_formula(&formula);
                let fixed: Vec<Lit> = (0..3)
                    .map(|i| vars[i].lit(assignment & (1 << i) != 0))
                    .collect();
                solver.assume(&fixed);
                assert!(solver.solve().unwrap());
                let model = solver.model().unwrap();
                let truths: Vec<bool> = conds.iter().map(|&c| value(c, &model)).collect();
                assert_eq!(value(conj, &model), truths.iter().all(|&t| t));
                assert_eq!(value(disj, &model), truths.iter().any(|&t| t));
                // The gates are determined: no model with other values.
                for (gate, expected) in [
                    (conj, truths.iter().all(|&t| t)),
                    (disj, truths.iter().any(|&t| t)),
                ] {
                    if let Cond::Lit(l) = gate {
                        let mut flipped = fixed.clone();
                        flipped.push(if expected { !l } else { l });
                        solver.assume(&flipped);
                        assert!(!solver.solve().unwrap());
                    }
                }
            }
        }
    }
}
