//! Rule instances: the ground rule for one binding of a rule's body, its
//! head atoms derived (new members of their relations once the evaluation
//! is over), choice elements and bounds, `#show` terms.
//!
//! Invariant: positive literals on facts are dropped from bodies, an
//! instance with a negative literal on a fact is dropped, and bodies are
//! sorted and distinct.

use super::auxiliary::MAX_DISJUNCT_CONSTRAINTS;
use super::join::Step;
use super::{Exec, Output};
use crate::diagnostics::Span;
use crate::ground::compiled::{CAtom, CElement, CHead, CRule};
use crate::ground::eval::CTerm;
use crate::ground::predicates::PredId;
use crate::ground::program::{
    AtomId, Atoms, Body, ChoiceElement, CountBounds, Head, ShowTerm, absorb_certain,
};
use crate::symbols::SymbolData;
use crate::syntax::ast::CmpOp;

impl Exec<'_> {
    /// Evaluates a head atom and records it as derived.
    pub(super) fn derive(&mut self, atom: &CAtom, output: &mut Output) -> Option<u32> {
        let sym = self.atom_symbol(atom)?;
        let a = self.atoms.get_or_insert(sym, atom.pred);
        self.mark_derived(a, atom.pred, output);
        Some(a)
    }

    /// Records the atom `a` of `pred` as derived: new members join their
    /// relation once the evaluation is over.
    pub(super) fn mark_derived(&mut self, a: u32, pred: PredId, output: &mut Output) {
        if !self.atoms.defined[a as usize] {
            self.atoms.defined[a as usize] = true;
            output.new_members.push((pred, a));
        }
    }

    /// The body built since `pos_from` and `neg_from`, sorted and distinct.
    pub(super) fn body(&self, pos_from: usize, neg_from: usize) -> Body {
        let atoms = |ids: &[u32]| ids.iter().map(|&a| AtomId(a)).collect::<Atoms>();
        Body::from_slices(&atoms(&self.pos[pos_from..]), &atoms(&self.neg[neg_from..]))
    }

    /// Produces the ground rule `atom :- body.` of a normal rule (a
    /// disjunction of one unconditional atom) for the current binding: the
    /// common case, without the disjunction's general grouping of heads.
    pub(super) fn emit_atom(&mut self, atom: &CAtom, span: Span, output: &mut Output) {
        // An undefined head term drops the instance.
        let Some(sym) = self.atom_symbol(atom) else {
            return;
        };
        let a = self.atoms.get_or_insert(sym, atom.pred);
        if self.atoms.fact[a as usize] {
            return; // already satisfied
        }
        self.mark_derived(a, atom.pred, output);
        if self.heads_only.is_some() {
            return;
        }
        if self.pos.is_empty() && self.neg.is_empty() {
            // A fact is a flag on its atom, never a rule.
            self.atoms.fact[a as usize] = true;
            return;
        }
        output.rule(Head::Atom(AtomId(a)), self.rule_body(), span);
    }

    /// The whole rule body, sorted and distinct, in reused buffers: most
    /// instances of symmetric constraints are duplicates that need no
    /// allocation of their own.
    pub(super) fn rule_body(&mut self) -> (&[AtomId], &[AtomId]) {
        let sorted = |out: &mut Vec<AtomId>, atoms: &[u32]| {
            out.clear();
            out.extend(atoms.iter().map(|&a| AtomId(a)));
            out.sort_unstable();
            out.dedup();
        };
        sorted(&mut self.scratch_pos, &self.pos);
        sorted(&mut self.scratch_neg, &self.neg);
        (&self.scratch_pos, &self.scratch_neg)
    }

    /// Produces the ground rule for the current binding of the body.
    pub(super) fn emit(
        &mut self,
        rule: &CRule,
        element_plans: &[Vec<Step<'_>>],
        output: &mut Output,
    ) {
        let span = rule.span;
        match &rule.head {
            CHead::Constraint => {
                let unrepeated = self.unrepeated;
                let (pos, neg) = self.rule_body();
                if unrepeated == Some((pos.len(), neg.len())) {
                    output.rules.push_distinct_constraint(pos, neg, span);
                } else {
                    output.rule(Head::Constraint, (pos, neg), span);
                }
            }
            CHead::External(input) => {
                if let Some(a) = self.derive(&input.atom, output) {
                    self.atoms.input[a as usize] = true;
                }
            }
            CHead::ShowTerm(term) => {
                if let Some(term) = term.eval(self.symbols, &self.env) {
                    let body = self.body(0, 0);
                    output.show_terms.push(ShowTerm { term, body });
                }
            }
            CHead::Disjunction(disjuncts)
                if let [single] = &disjuncts[..]
                    && single.condition.is_empty() =>
            {
                self.emit_atom(&single.atom, span, output)
            }
            CHead::Disjunction(disjuncts) => {
                for disjunct in disjuncts.iter().filter(|d| d.condition.is_empty()) {
                    // An undefined head term drops the instance.
                    let Some(sym) = self.atom_symbol(&disjunct.atom) else {
                        return;
                    };
                    if let Some(a) = self.atoms.find(sym)
                        && self.atoms.fact[a as usize]
                    {
                        return; // already satisfied
                    }
                }
                // An atom undefined in an instance of a conditional
                // disjunct: the rule holds only where that condition does
                // not, as clingo reads it (`h | g(1/0) : c.` is `h :- not
                // c.`); under a certain condition, nowhere (`a(a). p(1+A) :
                // a(A).` derives nothing).
                let (pos_base, neg_base) = (self.pos.len(), self.neg.len());
                let mut voiding: Vec<Body> = Vec::new();
                for (disjunct, plan) in disjuncts.iter().zip(element_plans) {
                    if !disjunct.condition.is_empty() {
                        self.run(plan, 0, &mut |exec| {
                            if exec.atom_symbol(&disjunct.atom).is_none() {
                                voiding.push(exec.body(pos_base, neg_base));
                            }
                        });
                    }
                }
                if voiding.iter().any(Body::is_empty) {
                    return;
                }
                let mut ground: Vec<(u32, Body)> = Vec::new();
                for (disjunct, plan) in disjuncts.iter().zip(element_plans) {
                    self.ground_element(disjunct, plan, pos_base, neg_base, &mut ground, output);
                }
                if self.heads_only.is_some() {
                    return;
                }
                if ground
                    .iter()
                    .any(|(a, c)| c.is_empty() && self.atoms.fact[*a as usize])
                {
                    return; // a conditional disjunct certainly holds
                }
                // One disjunct per atom: `p : q | p : r` is `p : (q | r)`,
                // and `p | p : q` is `p`. Disjuncts of one atom under
                // several conditions would depend positively on each other
                // through it, and so not be head-cycle-free.
                ground.sort_unstable();
                ground.dedup();
                let mut heads: Vec<AtomId> = Vec::with_capacity(ground.len());
                for same_atom in ground.chunk_by(|(a, _), (b, _)| a == b) {
                    let atom = same_atom[0].0;
                    if same_atom.iter().any(|(_, condition)| condition.is_empty()) {
                        heads.push(AtomId(atom));
                        continue;
                    }
                    let conditions: Vec<Body> = same_atom.iter().map(|(_, c)| c.clone()).collect();
                    let constraints: usize = conditions
                        .iter()
                        .map(|c| c.pos().len() + c.neg().len())
                        .try_fold(1usize, |n, k| n.checked_mul(k))
                        .unwrap_or(usize::MAX);
                    if constraints <= MAX_DISJUNCT_CONSTRAINTS {
                        heads.push(self.conditional_disjunct(atom, &conditions, span, output));
                    } else {
                        for condition in conditions {
                            let condition = std::slice::from_ref(&condition);
                            heads.push(self.conditional_disjunct(atom, condition, span, output));
                        }
                    }
                }
                heads.sort_unstable();
                heads.dedup();
                // `x ↔ (c → ⊥)`, true where the condition `c` fails.
                let mark = self.pos.len();
                for condition in voiding {
                    let key = (Vec::new(), condition);
                    let fails = (self.implications).atom(
                        self.symbols,
                        self.atoms,
                        self.negations,
                        key,
                        span,
                    );
                    self.pos.push(fails);
                }
                let empty = self.pos.is_empty() && self.neg.is_empty();
                let head = match heads[..] {
                    // No disjunct's condition holds: the body must be false.
                    [] => Head::Constraint,
                    [single] if empty => {
                        // A fact is a flag on its atom, never a rule.
                        self.atoms.fact[single.index()] = true;
                        return;
                    }
                    [single] => Head::Atom(single),
                    _ => Head::Disjunction(heads),
                };
                output.rule(head, self.rule_body(), span);
                self.pos.truncate(mark);
            }
            CHead::Choice { elements, guards } => {
                let (pos_base, neg_base) = (self.pos.len(), self.neg.len());
                let mut ground: Vec<(u32, Body)> = Vec::new();
                for (element, plan) in elements.iter().zip(element_plans) {
                    self.ground_element(element, plan, pos_base, neg_base, &mut ground, output);
                }
                if self.heads_only.is_some() {
                    return;
                }
                let elements = merge_elements(ground);
                let head = match self.bounds(guards, elements.len()) {
                    // An undefined bound drops the instance, as clingo does.
                    ChoiceBounds::Undefined => return,
                    // The bounds can never hold: the body must be false.
                    ChoiceBounds::Impossible => Head::Constraint,
                    ChoiceBounds::Count(_) if elements.is_empty() => return,
                    ChoiceBounds::Count(bounds) => Head::choice(elements, bounds),
                };
                output.rule(head, self.rule_body(), span);
            }
        }
    }

    pub(super) fn ground_element(
        &mut self,
        element: &CElement,
        plan: &[Step<'_>],
        pos_base: usize,
        neg_base: usize,
        ground: &mut Vec<(u32, Body)>,
        output: &mut Output,
    ) {
        self.run(plan, 0, &mut |exec| {
            if let Some(a) = exec.derive(&element.atom, output) {
                let condition = exec.body(pos_base, neg_base);
                ground.push((a, condition));
            }
        });
    }

    /// Turns the guards into count bounds over `n` elements.
    pub(super) fn bounds(&mut self, guards: &[(CmpOp, CTerm)], n: usize) -> ChoiceBounds {
        let (mut lower, mut upper) = (0i64, i64::MAX);
        for (op, term) in guards {
            let Some(value) = term.eval(self.symbols, &self.env) else {
                return ChoiceBounds::Undefined;
            };
            // Numbers compare as numbers; #inf is below every count and any
            // other term above it (clingo's term order).
            let v: i64 = match self.symbols.get(value) {
                SymbolData::Number(v) => i64::from(v),
                SymbolData::Infimum => i64::MIN / 2,
                _ => i64::MAX / 2,
            };
            match op {
                CmpOp::Eq => {
                    lower = lower.max(v);
                    upper = upper.min(v);
                }
                CmpOp::Ge => lower = lower.max(v),
                CmpOp::Gt => lower = lower.max(v + 1),
                CmpOp::Le => upper = upper.min(v),
                CmpOp::Lt => upper = upper.min(v - 1),
                // Held by a constraint of its own (`unequal_choice`).
                CmpOp::Ne => {}
            }
        }
        let n = n as i64;
        if upper < 0 || lower > n || lower > upper {
            return ChoiceBounds::Impossible;
        }
        ChoiceBounds::Count(CountBounds {
            lower: lower.max(0) as u32,
            upper: if upper < n {
                upper as u32
            } else {
                CountBounds::UNBOUNDED
            },
        })
    }
}

/// The guards of one choice rule instance.
pub(super) enum ChoiceBounds {
    /// A guard's term is undefined (`1/0`): the instance does not exist.
    Undefined,
    /// No number of true elements satisfies the guards.
    Impossible,
    Count(CountBounds),
}

/// One element per atom: conditions of repeated atoms are alternatives.
pub(super) fn merge_elements(mut ground: Vec<(u32, Body)>) -> Vec<ChoiceElement> {
    ground.sort_by_key(|(a, _)| *a);
    let mut elements: Vec<ChoiceElement> = Vec::new();
    for (atom, condition) in ground {
        match elements.last_mut() {
            Some(last) if last.value == AtomId(atom) => {
                if !last.conditions.contains(&condition) {
                    last.conditions.push(condition);
                }
            }
            _ => elements.push(ChoiceElement {
                value: AtomId(atom),
                conditions: vec![condition],
            }),
        }
    }
    for element in &mut elements {
        absorb_certain(&mut element.conditions);
    }
    elements
}
