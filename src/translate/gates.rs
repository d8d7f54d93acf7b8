//! Tseitin gates over [`Cond`]s: constants fold away, and every new
//! variable is defined in both directions, so it is determined by its
//! inputs (the translation's exactness invariant).

use super::Cond;
use varisat::{ExtendFormula, Lit};

/// A condition equivalent to the conjunction of `conds`.
pub fn and<S: ExtendFormula>(conds: &[Cond], sink: &mut S) -> Cond {
    let mut lits: Vec<Lit> = Vec::with_capacity(conds.len());
    for &cond in conds {
        match cond {
            Cond::True => {}
            Cond::False => return Cond::False,
            Cond::Lit(l) => lits.push(l),
        }
    }
    lits.sort_unstable();
    lits.dedup();
    if lits.windows(2).any(|w| w[0] == !w[1]) {
        return Cond::False;
    }
    match lits[..] {
        [] => Cond::True,
        [l] => Cond::Lit(l),
        _ => {
            let gate = sink.new_var().positive();
            for &l in &lits {
                sink.add_clause(&[!gate, l]);
            }
            let mut long: Vec<Lit> = lits.iter().map(|&l| !l).collect();
            long.push(gate);
            sink.add_clause(&long);
            Cond::Lit(gate)
        }
    }
}

/// A condition equivalent to the disjunction of `conds`.
pub fn or<S: ExtendFormula>(conds: &[Cond], sink: &mut S) -> Cond {
    let negated: Vec<Cond> = conds.iter().map(|&c| !c).collect();
    !and(&negated, sink)
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
                (and(&conds, &mut writer), or(&conds, &mut writer))
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
