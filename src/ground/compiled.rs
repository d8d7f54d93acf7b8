//! The compiled rule: what rewriting produces and instantiation reads.
//!
//! Invariants: no pools, no constants (their values are in), no anonymous
//! variables in negative literals (projected away); variables are numbered
//! densely per rule (`CRule::num_vars`), the variables of an element's own
//! numbered in the same space; intervals appear only as `CLit::Interval`
//! binding literals; every rule is safe.

use super::eval::CTerm;
use super::predicates::PredId;
use super::safety::literal_terms;
use crate::diagnostics::Span;
use crate::syntax::ast::{AggregateFunction, CmpOp, Naf};

/// A body or condition literal over numbered variables.
#[derive(Clone, Debug)]
pub enum CLit {
    Pos(CAtom),
    Neg(CAtom),
    /// `not not a`: true when `a` is, but a negative dependency (grounded
    /// as `not a'` with `a' :- not a.`).
    NotNot(CAtom),
    Cmp(CmpOp, CTerm, CTerm),
    /// `pattern = lo..hi`: binds the pattern to each integer of the range.
    Interval(CTerm, CTerm, CTerm),
    Aggregate(Box<CAggregate>),
}

/// A body aggregate over numbered variables. Variables of the elements that
/// occur nowhere else in the rule are local to their element.
#[derive(Clone, Debug)]
pub struct CAggregate {
    /// `not` or `not not` in front of it.
    pub naf: Naf,
    pub function: AggregateFunction,
    pub elements: Vec<CAggregateElement>,
    pub guards: Vec<(CmpOp, CTerm)>,
    /// `N = #count{..}` where nothing else binds `N`: the variable the
    /// aggregate binds, once per value it can take.
    pub assigns: Option<usize>,
    /// The global variables the aggregate reads: they must be bound first.
    pub inputs: Vec<usize>,
    /// A body conditional literal `l : c`: one element per instance of `c`,
    /// with `not l` as its `unless`; it holds when no element's `c` holds
    /// without `l`. Grounding gives it the form `#sum{1,i : l; 1,i : not
    /// c_i...} >= n` over its `n` instances, where `l` stays a positive
    /// dependency (in `#count{..: c, not l} = 0` it would be a negative one,
    /// which differs when `l` is recursive).
    pub conditional: bool,
    /// A conditional literal whose condition depends on the rule's head
    /// (`a :- b : c.` with `c` depending on `a`): grounded instead as one
    /// atom per instance standing for the implication `c → b`, under which
    /// `a` is not monotone in `c`
    /// ([`super::instantiate::auxiliary::ImplicationAtoms`]).
    pub implication: bool,
    pub span: Span,
}

impl CAggregate {
    /// Under `not` or `not not`: its elements are no positive dependency.
    pub fn negated(&self) -> bool {
        self.naf != Naf::Positive
    }

    /// Whether an element's condition reads a predicate for which
    /// `selected` holds: positively, or also negatively with `negated`.
    pub fn reads(&self, selected: &dyn Fn(PredId) -> bool, negated: bool) -> bool {
        self.elements
            .iter()
            .flat_map(|e| &e.condition)
            .any(|l| reads(l, selected, negated))
    }

    /// Whether the literal of a conditional literal reads a predicate for
    /// which `selected` holds.
    pub fn literal_reads(&self, selected: &dyn Fn(PredId) -> bool) -> bool {
        self.elements
            .iter()
            .flat_map(|e| &e.unless)
            .any(|l| reads(l, selected, true))
    }
}

pub fn reads(literal: &CLit, selected: &dyn Fn(PredId) -> bool, negated: bool) -> bool {
    match literal {
        CLit::Pos(a) => selected(a.pred),
        CLit::Neg(a) | CLit::NotNot(a) => negated && selected(a.pred),
        _ => false,
    }
}

#[derive(Clone, Debug)]
pub struct CAggregateElement {
    pub terms: Vec<CTerm>,
    pub condition: Vec<CLit>,
    /// In a conditional literal `l : c` (whose element's condition is
    /// `c`): `not l` compiled, grounded once `c` is; `None` when `not l`
    /// always holds. Always `None` in other aggregates.
    pub unless: Option<CLit>,
    /// `unless` is the positive literal `l` itself, which binds variables
    /// of its own (`r :- p(X) : #true.`): as in clingo, `l` stands for the
    /// disjunction of its instances.
    pub literal_binds: bool,
    /// With `literal_binds`: the bindings of the intervals inside `l`, and
    /// the equalities that bind the arithmetic taken out of `l` (see
    /// [`separate_unbindable_arithmetic`]), evaluated after it.
    pub literal_bindings: Vec<CLit>,
    /// In a conditional literal `not not a : c`: `unless` is `not a`, and
    /// `l` holds under `not a'` with `a' :- not a.`, a negative dependency,
    /// not under `a`.
    pub literal_double_negated: bool,
}

#[derive(Clone, Debug)]
pub struct CAtom {
    pub pred: PredId,
    pub args: Vec<CTerm>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct CElement {
    pub atom: CAtom,
    pub condition: Vec<CLit>,
}

#[derive(Clone, Debug)]
pub enum CHead {
    Constraint,
    /// One atom for a normal rule; several for a disjunction, where a
    /// conditional disjunct `p(X) : q(X)` stands for the `p(X)` whose
    /// condition holds.
    Disjunction(Vec<CElement>),
    Choice {
        elements: Vec<CElement>,
        guards: Vec<(CmpOp, CTerm)>,
    },
    /// `#show t : body.`
    ShowTerm(CTerm),
    /// `#external a : body.` with the value `false` (or none): `a` is
    /// possible while grounding, as in clingo, so the rules and cost tuples
    /// that read it are kept, but no rule defines it: false unless derived.
    External(CElement),
}

#[derive(Clone, Debug)]
pub struct CRule {
    pub head: CHead,
    pub body: Vec<CLit>,
    pub num_vars: usize,
    pub span: Span,
}

impl CRule {
    /// Predicates the head defines.
    pub fn head_preds(&self) -> Vec<PredId> {
        match &self.head {
            CHead::Disjunction(disjuncts) => disjuncts.iter().map(|d| d.atom.pred).collect(),
            CHead::Choice { elements, .. } => elements.iter().map(|e| e.atom.pred).collect(),
            CHead::External(input) => vec![input.atom.pred],
            CHead::Constraint | CHead::ShowTerm(_) => Vec::new(),
        }
    }

    /// How often each variable occurs in the rule: in the body, the
    /// aggregates' elements, the head and its conditions.
    pub fn variable_uses(&self) -> Vec<usize> {
        let mut uses = vec![0usize; self.num_vars];
        let mut count = |term: &CTerm| term.for_each_var(&mut |v| uses[v] += 1);
        for literal in self.read_literals() {
            literal_terms(literal, &mut count);
            if let CLit::Aggregate(aggregate) = literal {
                for element in &aggregate.elements {
                    element.terms.iter().for_each(&mut count);
                }
            }
        }
        match &self.head {
            CHead::Constraint => {}
            CHead::ShowTerm(term) => count(term),
            CHead::External(element) => element.atom.args.iter().for_each(&mut count),
            CHead::Disjunction(elements) | CHead::Choice { elements, .. } => {
                for element in elements {
                    element.atom.args.iter().for_each(&mut count);
                }
                if let CHead::Choice { guards, .. } = &self.head {
                    guards.iter().for_each(|(_, term)| count(term));
                }
            }
        }
        uses
    }

    /// For a constraint whose instances have pairwise different bodies,
    /// the numbers of positive and of negative atoms in an instance's body
    /// when none of its literals was simplified away: an instance with as
    /// many distinct atoms differs from every other instance of the rule.
    /// Where no other rule can repeat it either, it needs no lookup among
    /// the rules ground before (pc of the corpus: 3.67 million instances
    /// of `:- val(X,V1), val(X,V2), V1 < V2.`, whose lookups took most of
    /// the grounding).
    ///
    /// Two instances have equal bodies when their atoms are the same set.
    /// If every variable occurs, used twice or more, as an argument (or
    /// inside one, under function symbols only) of an atom literal, the
    /// atoms of each literal determine the instance. Two literals of one
    /// predicate and sign could swap their atoms between two instances,
    /// unless a comparison `U < W` (or `>`) holds between the variables at
    /// the same argument of each: the swapped instance would need `W < U`.
    /// Any other literal but comparisons, or three literals of a
    /// predicate and sign, give `None`.
    pub fn distinct_instances(&self) -> Option<(usize, usize)> {
        if !matches!(self.head, CHead::Constraint) {
            return None;
        }
        let mut atoms: Vec<(bool, &CAtom)> = Vec::new();
        for literal in &self.body {
            match literal {
                CLit::Pos(atom) => atoms.push((true, atom)),
                CLit::Neg(atom) | CLit::NotNot(atom) => atoms.push((false, atom)),
                CLit::Cmp(..) => {}
                CLit::Interval(..) | CLit::Aggregate(_) => return None,
            }
        }
        let uses = self.variable_uses();
        let mut covered = vec![false; self.num_vars];
        for (_, atom) in &atoms {
            atom.args
                .iter()
                .for_each(|arg| mark_constructed(arg, &mut covered));
        }
        if (0..self.num_vars).any(|v| !covered[v] || uses[v] < 2) {
            return None;
        }
        for (i, &(sign, atom)) in atoms.iter().enumerate() {
            let mut twins = atoms[i + 1..]
                .iter()
                .filter(|&&(other_sign, other)| other_sign == sign && other.pred == atom.pred);
            let Some(&(_, twin)) = twins.next() else {
                continue;
            };
            let earlier = atoms[..i]
                .iter()
                .any(|&(other_sign, other)| other_sign == sign && other.pred == atom.pred);
            if earlier || twins.next().is_some() || !self.ordered(atom, twin) {
                return None;
            }
        }
        let positive = atoms.iter().filter(|(sign, _)| *sign).count();
        Some((positive, atoms.len() - positive))
    }

    /// Whether a comparison `U < W` or `U > W` of the body holds between
    /// the variables at one argument of `a` and of `b`.
    fn ordered(&self, a: &CAtom, b: &CAtom) -> bool {
        let at_one_argument = |u: usize, w: usize| {
            (a.args.iter().zip(&b.args)).any(|pair| {
                matches!(pair, (CTerm::Var(x), CTerm::Var(y)) if (*x, *y) == (u, w) || (*x, *y) == (w, u))
            })
        };
        self.body.iter().any(|literal| match literal {
            CLit::Cmp(CmpOp::Lt | CmpOp::Gt, CTerm::Var(u), CTerm::Var(w)) => {
                u != w && at_one_argument(*u, *w)
            }
            _ => false,
        })
    }

    /// Every literal the rule reads: body, conditions of choice elements
    /// and disjuncts, and aggregate element conditions (one level:
    /// aggregates do not nest).
    pub fn read_literals(&self) -> impl Iterator<Item = &CLit> {
        let conditions: &[CElement] = match &self.head {
            CHead::Choice { elements, .. } | CHead::Disjunction(elements) => elements,
            CHead::External(element) => std::slice::from_ref(element),
            _ => &[],
        };
        let aggregated = self.body.iter().flat_map(|literal| match literal {
            CLit::Aggregate(aggregate) => aggregate
                .elements
                .iter()
                .flat_map(|e| {
                    e.condition
                        .iter()
                        .chain(&e.unless)
                        .chain(&e.literal_bindings)
                })
                .collect(),
            _ => Vec::new(),
        });
        self.body
            .iter()
            .chain(conditions.iter().flat_map(|e| e.condition.iter()))
            .chain(aggregated)
    }
}

/// Marks the variables `term` determines: those it holds as itself or as
/// an argument of a function symbol, not under arithmetic.
fn mark_constructed(term: &CTerm, covered: &mut [bool]) {
    match term {
        CTerm::Var(v) => covered[*v] = true,
        CTerm::Fun { args, .. } => args.iter().for_each(|arg| mark_constructed(arg, covered)),
        CTerm::Sym(_) | CTerm::Unary(..) | CTerm::Binary(..) | CTerm::Linear { .. } => {}
    }
}
