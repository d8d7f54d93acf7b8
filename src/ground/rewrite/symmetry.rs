//! Symmetric joins: a rule that swapping two variables maps onto itself,
//! with `X != Y` between them, is ground for `X < Y` alone.
//!
//! Input: a safe compiled rule. Output: the same rule, where a variable
//! involution σ maps its head onto itself and its body onto itself (as
//! sets of literals) and swaps the two sides of a body literal `X != Y`,
//! with that literal turned into `X < Y`.
//!
//! Why it is sound: the instances θ and θ∘σ of such a rule give the same
//! ground rule (the same head, and the same set of body literals), and for
//! `θ(X) != θ(Y)` exactly one of the two has `X < Y` in clingo's total
//! order of terms. So the ground program is the same, and each such rule
//! is built once instead of twice and deduplicated. `:- paint(R,C,V),
//! paint(R,C2,V), C != C2.` (a Sudoku row) is the common case; its
//! grounding was half repeats (`sudoku.lp`, 9×9: 7% of a whole run's
//! instructions).
//!
//! Only rules whose body holds atoms, negated atoms and comparisons, under
//! a constraint or a head of unconditional atoms, are looked at: elements
//! of aggregates, conditions and choices have variables of their own.

use crate::ground::compiled::{CAtom, CHead, CLit, CRule};
use crate::ground::eval::CTerm;
use crate::syntax::ast::CmpOp;

/// Bodies longer than this are left alone: the search for σ tries every
/// literal of a predicate as the image of each.
const MAX_BODY: usize = 12;

/// Turns one `X != Y` of a symmetric rule into `X < Y`, while the rule
/// has one.
pub fn halve_symmetric_joins(rule: &mut CRule) {
    if rule.body.len() > MAX_BODY || !plain(rule) {
        return;
    }
    while let Some(index) = symmetric_inequality(rule) {
        let CLit::Cmp(op, _, _) = &mut rule.body[index] else {
            unreachable!("an inequality")
        };
        *op = CmpOp::Lt;
    }
}

/// Whether the head is a constraint or unconditional atoms, and the body
/// atoms and comparisons only.
fn plain(rule: &CRule) -> bool {
    let head = match &rule.head {
        CHead::Constraint => true,
        CHead::Disjunction(elements) => elements.iter().all(|e| e.condition.is_empty()),
        _ => false,
    };
    let body = (rule.body.iter()).all(|l| {
        matches!(
            l,
            CLit::Pos(_) | CLit::Neg(_) | CLit::NotNot(_) | CLit::Cmp(..)
        )
    });
    head && body
}

/// The index of a body literal `X != Y` whose sides an involution of the
/// rule's variables swaps, mapping the rule onto itself.
fn symmetric_inequality(rule: &CRule) -> Option<usize> {
    (0..rule.body.len()).find(|&i| match &rule.body[i] {
        CLit::Cmp(CmpOp::Ne, CTerm::Var(x), CTerm::Var(y)) if x != y => {
            let mut swap = Involution::new(rule.num_vars);
            swap.pair(*x, *y) && maps_onto_itself(rule, swap)
        }
        _ => false,
    })
}

/// A partial involution of the variables, grown as literals are matched.
#[derive(Clone)]
struct Involution(Vec<Option<usize>>);

impl Involution {
    fn new(variables: usize) -> Involution {
        Involution(vec![None; variables])
    }

    /// Makes σ(a) = b and σ(b) = a; false when σ says otherwise already.
    fn pair(&mut self, a: usize, b: usize) -> bool {
        match (self.0[a], self.0[b]) {
            (Some(image), _) => image == b,
            (None, Some(_)) => false,
            (None, None) => {
                self.0[a] = Some(b);
                self.0[b] = Some(a);
                true
            }
        }
    }

    /// Extends σ so that σ(`from`) is `to`.
    fn term(&mut self, from: &CTerm, to: &CTerm) -> bool {
        match (from, to) {
            (CTerm::Sym(a), CTerm::Sym(b)) => a == b,
            (CTerm::Var(a), CTerm::Var(b)) => self.pair(*a, *b),
            (
                CTerm::Fun { name, args },
                CTerm::Fun {
                    name: to_name,
                    args: to_args,
                },
            ) => name == to_name && self.terms(args, to_args),
            (CTerm::Unary(op, a), CTerm::Unary(to_op, b)) => op == to_op && self.term(a, b),
            (CTerm::Binary(op, a, b), CTerm::Binary(to_op, c, d)) => {
                op == to_op && self.term(a, c) && self.term(b, d)
            }
            (
                &CTerm::Linear { var, mul, add },
                &CTerm::Linear {
                    var: to_var,
                    mul: to_mul,
                    add: to_add,
                },
            ) => mul == to_mul && add == to_add && self.pair(var, to_var),
            _ => false,
        }
    }

    fn terms(&mut self, from: &[CTerm], to: &[CTerm]) -> bool {
        from.len() == to.len() && from.iter().zip(to).all(|(a, b)| self.term(a, b))
    }

    fn atom(&mut self, from: &CAtom, to: &CAtom) -> bool {
        from.pred == to.pred && self.terms(&from.args, &to.args)
    }

    /// Extends σ so that σ(`from`) is `to` (`a op b` is also `b op' a`).
    fn literal(&self, from: &CLit, to: &CLit) -> Option<Involution> {
        let mut extended = self.clone();
        let matched = match (from, to) {
            (CLit::Pos(a), CLit::Pos(b))
            | (CLit::Neg(a), CLit::Neg(b))
            | (CLit::NotNot(a), CLit::NotNot(b)) => extended.atom(a, b),
            (CLit::Cmp(op, a, b), CLit::Cmp(to_op, c, d)) => {
                let straight = op == to_op && extended.term(a, c) && extended.term(b, d);
                straight || {
                    extended = self.clone();
                    op.flip() == *to_op && extended.term(a, d) && extended.term(b, c)
                }
            }
            _ => false,
        };
        matched.then_some(extended)
    }
}

/// Whether σ extends to an involution mapping every head atom to a head
/// atom and every body literal to a body literal (so, both being finite,
/// each onto itself).
fn maps_onto_itself(rule: &CRule, swap: Involution) -> bool {
    let head: Vec<CLit> = match &rule.head {
        CHead::Disjunction(elements) => {
            elements.iter().map(|e| CLit::Pos(e.atom.clone())).collect()
        }
        _ => Vec::new(),
    };
    extend(&head, &head, &swap).is_some_and(|swap| extend(&rule.body, &rule.body, &swap).is_some())
}

/// σ extended so that the image of each of `literals` is among `targets`,
/// trying each target in turn (depth first).
fn extend(literals: &[CLit], targets: &[CLit], swap: &Involution) -> Option<Involution> {
    let Some((first, rest)) = literals.split_first() else {
        return Some(swap.clone());
    };
    (targets.iter())
        .filter_map(|target| swap.literal(first, target))
        .find_map(|extended| extend(rest, targets, &extended))
}
