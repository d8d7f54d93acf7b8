//! Ranges of variables from comparisons, as clingo 5.6's inequality solver
//! finds them: a variable that linear comparisons confine to finitely many
//! integers is bound by that range, so `p(X) :- 1 <= X <= 3.` is safe.
//!
//! The ranges join the AST as literals `X = lo..hi` beside the comparisons
//! (which still filter), in the scope where they are found: a rule's body
//! (the rule's comparisons, and its head's, which hold negated in the
//! body), or the condition of an element (of an aggregate, a conditional
//! literal, a choice, a head aggregate or a disjunction), which sees the
//! ranges of the rule. The computation is clingo's (`IESolver`, as of
//! 5.8.1), down to its rounding, so that the same programs are safe:
//! bounds are propagated through the inequalities until none improves (or
//! a budget of rounds runs out), in 128 bits, each clamped to 32 bits; a
//! variable gets a range when it is bounded on both sides and no
//! assignment `X = 5` or range `X = 1..3` of its scope, nor the enclosing
//! scope, fixes it as narrowly already.

use std::collections::BTreeMap;

use crate::syntax::ast::{
    BinaryOp, BodyElement, CmpOp, Head, Literal, Naf, ProjectTarget, StatementKind, Term, TermKind,
    UnaryOp,
};

/// The integer value of a constant, if it has one (`#const n = 3.`).
pub type Constants<'c> = &'c dyn Fn(&str) -> Option<i32>;

/// `kind` with the ranges its comparisons give, `None` when there are
/// none to add (or it is not a statement with a body that is ground).
pub fn with_ranges(kind: &StatementKind, constants: Constants<'_>) -> Option<StatementKind> {
    if !has_comparison(kind) {
        return None;
    }
    let mut kind = kind.clone();
    let added = match &mut kind {
        StatementKind::Rule { head, body } => rule(Some(head), body, constants),
        StatementKind::ShowTerm { body, .. }
        | StatementKind::External { body, .. }
        | StatementKind::Edge { body, .. }
        | StatementKind::Project(ProjectTarget::Atom { body, .. }) => rule(None, body, constants),
        StatementKind::Optimize { elements, .. } => (elements.iter_mut())
            .map(|element| rule(None, &mut element.condition, constants))
            .fold(false, |a, b| a | b),
        _ => unreachable!("has_comparison leaves other kinds out"),
    };
    added.then_some(kind)
}

/// Whether a comparison occurs in a statement with a body that is ground:
/// only a statement with one can get a range (and is worth copying).
fn has_comparison(kind: &StatementKind) -> bool {
    let in_condition = |condition: &[Literal]| {
        (condition.iter()).any(|literal| matches!(literal, Literal::Comparison { .. }))
    };
    let in_body = |body: &[BodyElement]| {
        body.iter().any(|element| match element {
            BodyElement::Literal(literal) => in_condition(std::slice::from_ref(literal)),
            BodyElement::Aggregate(aggregate) => {
                (aggregate.elements.iter()).any(|e| in_condition(&e.condition))
            }
            BodyElement::Conditional { condition, .. } => in_condition(condition),
            BodyElement::Unsupported { .. } => false,
        })
    };
    match kind {
        StatementKind::Rule { head, body } => {
            in_body(body)
                || match head {
                    Head::Comparison { .. } => true,
                    Head::Choice { elements, .. } => {
                        elements.iter().any(|e| in_condition(&e.condition))
                    }
                    Head::Aggregate { elements, .. } => {
                        elements.iter().any(|e| in_condition(&e.condition))
                    }
                    Head::Disjunction(disjuncts) => {
                        disjuncts.iter().any(|d| in_condition(&d.condition))
                    }
                    Head::Constraint => false,
                }
        }
        StatementKind::ShowTerm { body, .. }
        | StatementKind::External { body, .. }
        | StatementKind::Edge { body, .. }
        | StatementKind::Project(ProjectTarget::Atom { body, .. }) => in_body(body),
        StatementKind::Optimize { elements, .. } => elements.iter().any(|e| in_body(&e.condition)),
        _ => false,
    }
}

/// Adds the ranges of a rule's scope to its body, and those of each
/// element's scope to the element's condition; whether any was added.
fn rule(head: Option<&mut Head>, body: &mut Vec<BodyElement>, constants: Constants<'_>) -> bool {
    let mut scope = Scope::new(constants);
    if let Some(Head::Comparison { comparisons, .. }) = head.as_deref() {
        for c in comparisons {
            // `H | l op r :- B.` holds as `H :- B, not l op r.`
            scope.comparison(&c.lhs, c.op.negate(), &c.rhs);
        }
    }
    for element in body.iter() {
        if let BodyElement::Literal(literal) = element {
            scope.literal(literal);
        }
    }
    let (bounds, ranges) = scope.solve(&Bounds::new());
    let mut added = !ranges.is_empty();
    body.extend(ranges.into_iter().map(BodyElement::Literal));
    let mut conditions: Vec<&mut Vec<Literal>> = Vec::new();
    for element in body.iter_mut() {
        match element {
            BodyElement::Aggregate(aggregate) => {
                conditions.extend(aggregate.elements.iter_mut().map(|e| &mut e.condition))
            }
            BodyElement::Conditional { condition, .. } => conditions.push(condition),
            BodyElement::Literal(_) | BodyElement::Unsupported { .. } => {}
        }
    }
    match head {
        Some(Head::Choice { elements, .. }) => {
            conditions.extend(elements.iter_mut().map(|e| &mut e.condition))
        }
        Some(Head::Aggregate { elements, .. }) => {
            conditions.extend(elements.iter_mut().map(|e| &mut e.condition))
        }
        Some(Head::Disjunction(disjuncts) | Head::Comparison { disjuncts, .. }) => {
            conditions.extend(disjuncts.iter_mut().map(|d| &mut d.condition))
        }
        Some(Head::Constraint) | None => {}
    }
    for condition in conditions {
        let mut scope = Scope::new(constants);
        for literal in condition.iter() {
            scope.literal(literal);
        }
        let (_, ranges) = scope.solve(&bounds);
        added |= !ranges.is_empty();
        condition.extend(ranges);
    }
    added
}

/// What is known of a variable: integer bounds on either side.
#[derive(Clone, Copy, Default)]
struct Range {
    lower: Option<i32>,
    upper: Option<i32>,
}

type Bounds = BTreeMap<String, Range>;

impl Range {
    /// The bound that a term with `coefficient` reaches its largest value
    /// at: the upper one for a positive coefficient.
    fn largest(&self, coefficient: i64) -> Option<i32> {
        if coefficient > 0 {
            self.upper
        } else {
            self.lower
        }
    }

    fn refine_lower(&mut self, value: i32) -> bool {
        let narrower = self.lower.is_none_or(|lower| value > lower);
        if narrower {
            self.lower = Some(value);
        }
        narrower
    }

    fn refine_upper(&mut self, value: i32) -> bool {
        let narrower = self.upper.is_none_or(|upper| value < upper);
        if narrower {
            self.upper = Some(value);
        }
        narrower
    }

    fn refine(&mut self, other: Range) {
        if let Some(lower) = other.lower {
            self.refine_lower(lower);
        }
        if let Some(upper) = other.upper {
            self.refine_upper(upper);
        }
    }

    fn bounded(&self) -> Option<(i32, i32)> {
        Some((self.lower?, self.upper?))
    }

    /// Whether this range is worth a literal beside `known`, what fixes
    /// the variable already: bounded, and narrower on some side.
    fn improves(&self, known: Option<&Range>) -> bool {
        let Some((lower, upper)) = self.bounded() else {
            return false;
        };
        match known.map(Range::bounded) {
            None => true,
            Some(None) => false,
            Some(Some((known_lower, known_upper))) => known_lower < lower || upper < known_upper,
        }
    }
}

/// `Σ cᵢ·xᵢ + constant`, the coefficients by variable in order of first
/// occurrence.
#[derive(Clone, Default)]
struct Linear {
    terms: Vec<(String, i64)>,
    constant: i64,
}

impl Linear {
    fn add(&mut self, name: &str, coefficient: i64) -> Option<()> {
        match self.terms.iter_mut().find(|(n, _)| n == name) {
            Some((_, c)) => *c = c.checked_add(coefficient)?,
            None => self.terms.push((name.to_owned(), coefficient)),
        }
        Some(())
    }

    /// `self + factor·other`.
    fn plus(mut self, factor: i64, other: &Linear) -> Option<Linear> {
        for (name, coefficient) in &other.terms {
            self.add(name, factor.checked_mul(*coefficient)?)?;
        }
        self.constant = self
            .constant
            .checked_add(factor.checked_mul(other.constant)?)?;
        Some(self)
    }

    fn scaled(self, factor: i64) -> Option<Linear> {
        Linear::default().plus(factor, &self)
    }

    fn as_constant(&self) -> Option<i64> {
        self.terms.is_empty().then_some(self.constant)
    }
}

/// `Σ cᵢ·xᵢ >= bound`, sorted by variable, without zero coefficients.
struct Inequality {
    terms: Vec<(String, i64)>,
    bound: i64,
}

/// The inequalities of one scope, and what fixes its variables already.
struct Scope<'c> {
    constants: Constants<'c>,
    inequalities: Vec<Inequality>,
    fixed: Bounds,
    /// The made-up variables that stand for the values of a pool or an
    /// interval in a comparison ([`Scope::values_between`]).
    values: Vec<String>,
}

/// The linear term of the integer `value`.
fn constant(value: i64) -> Linear {
    Linear {
        terms: Vec::new(),
        constant: value,
    }
}

impl<'c> Scope<'c> {
    fn new(constants: Constants<'c>) -> Self {
        Scope {
            constants,
            inequalities: Vec::new(),
            fixed: Bounds::new(),
            values: Vec::new(),
        }
    }

    /// `term` as a linear term, if it is one: integers, constants with an
    /// integer value and variables under `+`, `-` and multiplication by
    /// an integer; a pool or interval of integers is a value between its
    /// least and greatest.
    fn linear(&mut self, term: &Term) -> Option<Linear> {
        Some(match &term.kind {
            TermKind::Integer(n) => constant((*n).into()),
            TermKind::Constant(name) => constant((self.constants)(name)?.into()),
            TermKind::Variable(name) => Linear {
                terms: vec![(name.clone(), 1)],
                constant: 0,
            },
            TermKind::Unary(UnaryOp::Minus, a) => self.linear(a)?.scaled(-1)?,
            TermKind::Binary(op @ (BinaryOp::Add | BinaryOp::Sub), a, b) => {
                let factor = if *op == BinaryOp::Add { 1 } else { -1 };
                self.linear(a)?.plus(factor, &self.linear(b)?)?
            }
            TermKind::Binary(BinaryOp::Mul, a, b) => {
                let (a, b) = (self.linear(a)?, self.linear(b)?);
                match (a.as_constant(), b.as_constant()) {
                    (Some(factor), _) => b.scaled(factor)?,
                    (_, Some(factor)) => a.scaled(factor)?,
                    _ => return None,
                }
            }
            TermKind::Interval(lo, hi) => {
                let lo = self.linear(lo)?.as_constant()?;
                let hi = self.linear(hi)?.as_constant()?;
                self.values_between(lo, hi)?
            }
            TermKind::Pool(alternatives) => {
                let mut values = Vec::with_capacity(alternatives.len());
                for alternative in alternatives {
                    values.push(self.linear(alternative)?.as_constant()?);
                }
                let (lo, hi) = (*values.iter().min()?, *values.iter().max()?);
                self.values_between(lo, hi)?
            }
            _ => return None,
        })
    }

    /// A made-up variable for a value of a pool or interval between `lo`
    /// and `hi`. clingo expands pools (into copies of the rule) and
    /// intervals (into variables over a range) before it computes bounds,
    /// so that `X > (1;4), X < 9` bounds `X` in each copy; bounds from
    /// the least and greatest value are as finite, if wider, and the
    /// comparisons still filter. It gets no range of its own.
    fn values_between(&mut self, lo: i64, hi: i64) -> Option<Linear> {
        let name = format!("#values{}", self.values.len());
        self.values.push(name.clone());
        let value = Linear {
            terms: vec![(name, 1)],
            constant: 0,
        };
        self.at_least_zero(value.clone().plus(-1, &constant(lo))?, true);
        self.at_least_zero(constant(hi).plus(-1, &value)?, true);
        Some(value)
    }

    /// Adds `linear >= 0`; when `fixing` and it bounds one variable alone
    /// (`X - 5 >= 0` of `X = 5`), that variable counts as fixed there.
    fn at_least_zero(&mut self, linear: Linear, fixing: bool) {
        let Some(bound) = linear.constant.checked_neg() else {
            return;
        };
        let mut terms: Vec<(String, i64)> =
            linear.terms.into_iter().filter(|&(_, c)| c != 0).collect();
        terms.sort_by(|a, b| a.0.cmp(&b.0));
        if let ([(name, coefficient @ (1 | -1))], true) = (&terms[..], fixing) {
            let fixed = self.fixed.entry(name.clone()).or_default();
            if *coefficient == 1 {
                fixed.refine_lower(clamp(bound.into()));
            } else {
                fixed.refine_upper(clamp(-i128::from(bound)));
            }
        }
        self.inequalities.push(Inequality { terms, bound });
    }

    /// The inequalities of `lhs op rhs`.
    fn comparison(&mut self, lhs: &Term, op: CmpOp, rhs: &Term) {
        if op == CmpOp::Ne {
            return;
        }
        let (Some(left), Some(right)) = (self.linear(lhs), self.linear(rhs)) else {
            return;
        };
        let one = constant(1);
        let difference = |a: Linear, b: &Linear| a.plus(-1, b);
        let inequalities = match op {
            CmpOp::Eq => {
                let fixing =
                    matches!(lhs.kind, TermKind::Variable(_)) && right.as_constant().is_some();
                let both = difference(right.clone(), &left).zip(difference(left, &right));
                if let Some((at_most, at_least)) = both {
                    self.at_least_zero(at_most, fixing);
                    self.at_least_zero(at_least, fixing);
                }
                return;
            }
            CmpOp::Lt => left.plus(1, &one).and_then(|left| difference(right, &left)),
            CmpOp::Le => difference(right, &left),
            CmpOp::Gt => right
                .plus(1, &one)
                .and_then(|right| difference(left, &right)),
            CmpOp::Ge => difference(left, &right),
            CmpOp::Ne => unreachable!("a disequality bounds nothing"),
        };
        if let Some(inequality) = inequalities {
            self.at_least_zero(inequality, false);
        }
    }

    /// The inequalities of a literal of the scope: a comparison (negated
    /// under `not`), or a range `t = lo..hi`, which fixes `t`.
    fn literal(&mut self, literal: &Literal) {
        let Literal::Comparison {
            naf, lhs, op, rhs, ..
        } = literal
        else {
            return;
        };
        if *naf == Naf::Not {
            return self.comparison(lhs, op.negate(), rhs);
        }
        let range = match (&lhs.kind, &rhs.kind) {
            (_, TermKind::Interval(lo, hi)) if *op == CmpOp::Eq => Some((lhs, lo, hi)),
            (TermKind::Interval(lo, hi), _) if *op == CmpOp::Eq => Some((rhs, lo, hi)),
            _ => None,
        };
        let Some((value, lo, hi)) = range else {
            return self.comparison(lhs, *op, rhs);
        };
        let Some(value) = self.linear(value) else {
            return;
        };
        if let Some(below) = self.linear(hi).and_then(|hi| hi.plus(-1, &value)) {
            self.at_least_zero(below, true);
        }
        if let Some(above) = self.linear(lo).and_then(|lo| value.clone().plus(-1, &lo)) {
            self.at_least_zero(above, true);
        }
    }

    /// Propagates bounds through the inequalities, from those of the
    /// enclosing scope (`parent`), until none improves; returns the bounds
    /// and the range literals the scope gets.
    fn solve(mut self, parent: &Bounds) -> (Bounds, Vec<Literal>) {
        let mut bounds = Bounds::new();
        for (name, range) in parent {
            self.fixed.entry(name.clone()).or_default().refine(*range);
            bounds.entry(name.clone()).or_default().refine(*range);
        }
        // A round that makes no variable bounded on both sides spends one
        // of a budget of rounds, renewed when one does: bounds on one side
        // alone can descend forever (`X > Y, Y >= X, X <= 1`), as clingo
        // 5.8.1 stops them (5.8.0 did not).
        let mut budget = self.inequalities.len();
        let mut changed = true;
        'propagate: while changed {
            changed = false;
            let mut bounded = false;
            for inequality in &self.inequalities {
                let mut slack = i128::from(inequality.bound);
                let mut unbounded = 0;
                for (name, coefficient) in &inequality.terms {
                    let range = bounds.entry(name.clone()).or_default();
                    match range.largest(*coefficient) {
                        Some(bound) => slack -= i128::from(*coefficient) * i128::from(bound),
                        None => unbounded += 1,
                    }
                }
                if unbounded == 0 && slack > 0 {
                    // Unsatisfiable: empty ranges.
                    for inequality in &self.inequalities {
                        for (name, _) in &inequality.terms {
                            let empty = Range {
                                lower: Some(1),
                                upper: Some(0),
                            };
                            bounds.insert(name.clone(), empty);
                        }
                    }
                    break 'propagate;
                }
                if unbounded <= 1 {
                    for (name, coefficient) in &inequality.terms {
                        let range = bounds.entry(name.clone()).or_default();
                        if tighten(range, *coefficient, slack, unbounded) {
                            changed = true;
                            bounded |= range.bounded().is_some();
                        }
                    }
                }
            }
            if bounded {
                budget = self.inequalities.len() + 1;
            } else if budget > 0 {
                budget -= 1;
            } else {
                changed = false;
            }
        }
        bounds.retain(|name, _| !self.values.contains(name));
        let mut ranges: Vec<(&String, i32, i32)> = (bounds.iter())
            .filter(|(name, range)| range.improves(self.fixed.get(*name)))
            .map(|(name, range)| {
                let (lower, upper) = range.bounded().expect("an improving range is bounded");
                (name, lower, upper)
            })
            .collect();
        // Narrowest first: the grounder takes an interval only when
        // nothing else binds, the first of equals first, so that in `S =
        // 7*X+7*Y, 0 <= X <= 1, 0 <= Y <= 1` (`S` in 0..14) it binds `X`
        // and `Y` by their ranges and then `S` by the assignment.
        ranges.sort_by_key(|&(_, lower, upper)| i64::from(upper) - i64::from(lower));
        let ranges = (ranges.into_iter())
            .map(|(name, lower, upper)| range_literal(name, lower, upper))
            .collect();
        (bounds, ranges)
    }
}

/// Narrows the range of a variable with `coefficient` in an inequality
/// whose other terms leave `slack` (its own largest value included when
/// none is `unbounded`); whether it narrowed.
fn tighten(range: &mut Range, coefficient: i64, mut slack: i128, unbounded: usize) -> bool {
    let own = range.largest(coefficient);
    match (unbounded, own) {
        (0, Some(bound)) => slack += i128::from(coefficient) * i128::from(bound),
        (0, None) => unreachable!("no term is unbounded"),
        (1, None) => {}
        _ => return false,
    }
    let positive = coefficient > 0;
    let value = clamp(divide(positive, slack, coefficient.into()));
    if positive {
        range.refine_lower(value)
    } else {
        range.refine_upper(value)
    }
}

/// `n / m` as clingo rounds it for a bound: toward zero, and one further
/// from it when inexact with signs that differ (down for a `positive`
/// coefficient, up otherwise). Not always the tightest integer bound, but
/// a sound one.
fn divide(positive: bool, n: i128, m: i128) -> i128 {
    if n == i128::MIN && m == -1 {
        return i128::MAX;
    }
    let (quotient, remainder) = (n / m, n % m);
    let inexact = remainder != 0 && (n < 0) != (m < 0);
    match (inexact, positive) {
        (true, true) => quotient - 1,
        (true, false) => quotient + 1,
        (false, _) => quotient,
    }
}

fn clamp(value: i128) -> i32 {
    value.clamp(i32::MIN.into(), i32::MAX.into()) as i32
}

/// The literal `name = lower..upper`.
fn range_literal(name: &str, lower: i32, upper: i32) -> Literal {
    let span = Default::default();
    let term = |kind| Term { kind, span };
    let interval = TermKind::Interval(
        Box::new(term(TermKind::Integer(lower))),
        Box::new(term(TermKind::Integer(upper))),
    );
    Literal::Comparison {
        naf: Naf::Positive,
        lhs: term(TermKind::Variable(name.to_owned())),
        op: CmpOp::Eq,
        rhs: term(interval),
        span,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnostics::FileId;
    use crate::syntax::parse_program;

    /// The ranges of each scope of the program's one statement, as
    /// `scope: X=lo..hi ..`, `-` when none are added.
    fn ranges(program: &str) -> String {
        let (statements, errors) = parse_program(program, FileId(0));
        assert!(errors.is_empty(), "{errors:?}");
        let constants = |name: &str| (name == "n").then_some(4);
        let Some(kind) = with_ranges(&statements[0].kind, &constants) else {
            return "-".to_owned();
        };
        let show = |literals: &mut dyn Iterator<Item = &Literal>| -> String {
            let shown: Vec<String> = literals
                .filter_map(|literal| match literal {
                    Literal::Comparison { lhs, rhs, .. } if lhs.span == Default::default() => {
                        let (TermKind::Variable(name), TermKind::Interval(lo, hi)) =
                            (&lhs.kind, &rhs.kind)
                        else {
                            unreachable!("a range is `X = lo..hi`")
                        };
                        let (TermKind::Integer(lo), TermKind::Integer(hi)) = (&lo.kind, &hi.kind)
                        else {
                            unreachable!("a range is between integers")
                        };
                        Some(format!("{name}={lo}..{hi}"))
                    }
                    _ => None,
                })
                .collect();
            shown.join(" ")
        };
        let mut scopes = Vec::new();
        let mut body_scopes = |body: &[BodyElement]| {
            let literals = body.iter().filter_map(|e| match e {
                BodyElement::Literal(literal) => Some(literal),
                _ => None,
            });
            scopes.push(format!("body: {}", show(&mut literals.into_iter())));
            for element in body {
                match element {
                    BodyElement::Aggregate(aggregate) => {
                        for e in &aggregate.elements {
                            scopes.push(format!("element: {}", show(&mut e.condition.iter())));
                        }
                    }
                    BodyElement::Conditional { condition, .. } => {
                        scopes.push(format!("element: {}", show(&mut condition.iter())));
                    }
                    _ => {}
                }
            }
        };
        match &kind {
            StatementKind::Rule { head, body } => {
                body_scopes(body);
                if let Head::Choice { elements, .. } = head {
                    for e in elements {
                        scopes.push(format!("element: {}", show(&mut e.condition.iter())));
                    }
                }
                if let Head::Disjunction(disjuncts) = head {
                    for d in disjuncts.iter().filter(|d| !d.condition.is_empty()) {
                        scopes.push(format!("element: {}", show(&mut d.condition.iter())));
                    }
                }
            }
            StatementKind::Optimize { elements, .. } => {
                for e in elements {
                    body_scopes(&e.condition);
                }
            }
            StatementKind::ShowTerm { body, .. } => body_scopes(body),
            _ => unreachable!("the tests' statements"),
        }
        scopes.join("; ")
    }

    #[test]
    fn a_variable_between_two_bounds_gets_their_range() {
        assert_eq!(ranges("q(X) :- 1 <= X <= 3."), "body: X=1..3");
        assert_eq!(ranges("q(X) :- X >= 1, not X > n."), "body: X=1..4");
        assert_eq!(ranges("q(X) :- 1 <= X+1 <= 3, p(X)."), "body: X=0..2");
        // One side only, or no linear comparison: nothing.
        assert_eq!(ranges("q(X) :- 1 <= X, p(X)."), "-");
        assert_eq!(ranges("q(X) :- 1 <= X*X <= 4, X != 2, X < m."), "-");
        // Bounds through other variables; `!=` bounds nothing.
        assert_eq!(
            ranges("q(X,Y) :- 1 <= X <= 3, X <= Y <= 4, Y != 2."),
            "body: X=1..3 Y=1..4"
        );
        assert_eq!(
            ranges("q(X,Y) :- X >= 2, Y - X >= 1, X + Y <= 100."),
            "body: X=2..97 Y=3..98"
        );
        // `X = 5` and `X = 1..3` fix their variable: only a narrower range
        // is added.
        assert_eq!(ranges("q(X) :- X = 5, X < 10."), "-");
        assert_eq!(ranges("q(X) :- X = 1..5, X < 3."), "body: X=1..2");
        // clingo's test `bug`: X=1..2, Y=0, Z=X+3*Y.
        assert_eq!(
            ranges("q(Z) :- 1 <= X <= 2, 0 <= Y <= 0, Z = X + 3*Y."),
            "body: Y=0..0 X=1..2 Z=1..2"
        );
        // A head's comparison holds negated in the body.
        assert_eq!(ranges("X > 5 :- 1 <= X <= 10."), "body: X=1..5");
    }

    #[test]
    fn bounds_are_clingos_in_128_bits_clamped_to_32() {
        // clingo's test `iesolver`: the sum is bounded by 32 bits, so each
        // variable to 0..1, and `S` gets the clamped range.
        assert_eq!(
            ranges(
                "p(S) :- q(B), S<=B, 0<=X<=0x7FFFFFFF, 0<=Y<=0x7FFFFFFF, \
                 S=0x7FFFFFFF*X+0x7FFFFFFF*Y."
            ),
            "body: X=0..1 Y=0..1 S=0..2147483647"
        );
        assert_eq!(
            ranges("q :- p(X), -0x7FFFFFFF-1 <= X <= 0x7FFFFFFF."),
            "body: X=-2147483648..2147483647"
        );
        // clingo's rounding: the lower bound of 2X >= 7 is 3, not 4.
        assert_eq!(ranges("q(X) :- 2*X >= 7, X <= 5."), "body: X=3..5");
        // Bounds that contradict each other: empty ranges.
        assert_eq!(ranges("q(X) :- X < 3, X > 5."), "body: X=1..0");
        // Bounds on one side only that descend forever stop after a
        // budget of rounds, as in clingo 5.8.1 (issue #626): no range.
        assert_eq!(ranges("q(X) :- X > Y, Y >= X, X <= 1."), "-");
        assert_eq!(
            ranges("q(X) :- X > Y, Y = X, X <= 1, Y >= -5."),
            "body: X=1..0 Y=1..0"
        );
    }

    #[test]
    fn pools_and_intervals_in_comparisons_bound_from_their_extremes() {
        assert_eq!(ranges("q(X) :- X > 1..4, X < 9."), "body: X=2..8");
        assert_eq!(ranges("q(X) :- (1;4) < X < (5;n)."), "body: X=2..4");
        assert_eq!(ranges("q(X) :- X < 2..1, X > 0."), "body: X=1..0");
        // Only pools of integers.
        assert_eq!(ranges("q(X) :- 0 < X < (1;a)."), "-");
    }

    #[test]
    fn elements_have_scopes_of_their_own() {
        assert_eq!(
            ranges("q :- #count{ X : 1 <= X <= 3 } > 0."),
            "body: ; element: X=1..3"
        );
        // The rule's ranges hold in its elements, which add only narrower
        // ones.
        assert_eq!(
            ranges("q :- 1 <= Y <= 3, #count{ X : Y <= X <= 3; Y : Y < 2 } > 0."),
            "body: Y=1..3; element: X=1..3; element: Y=1..1"
        );
        assert_eq!(
            ranges("q :- r(X) : 1 <= X <= 3."),
            "body: ; element: X=1..3"
        );
        assert_eq!(ranges("{ p(X) : 1 <= X <= 3 }."), "body: ; element: X=1..3");
        assert_eq!(ranges("p(X) : 1 <= X <= 3."), "body: ; element: X=1..3");
        assert_eq!(ranges("#minimize{ X : 1 <= X <= 3 }."), "body: X=1..3");
        assert_eq!(ranges("#show X : 1 <= X <= 3."), "body: X=1..3");
    }
}
