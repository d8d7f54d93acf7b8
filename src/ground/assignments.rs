//! Objectives and constraints over the values of a sum assignment, folded
//! into the sum itself.
//!
//! `value(S) :- S = #sum{ V,W : in(V,W) }.` grounds into one aggregate
//! atom per value `v` the sum can take (`#agg(k) ↔ Σ = v`, all over the
//! same elements) and `value(v) :- #agg(k).`: in every answer set exactly
//! one of them holds. Written over these atoms,
//!
//! - an objective whose weight for each value is affine in it,
//!   `f(v) = a·v + b` (`#maximize{ V : value(V) }`: `f(v) = −v`), is the
//!   sum itself: the sum's elements weighed `a·w`, and `b` paid always;
//! - constraints forbidding consecutive values of the sum (`:- weight(W),
//!   capacity(C), W > C.` for every value above `C`) are one constraint
//!   over one aggregate of at most two bounds (`:- Σ >= C+1.`).
//!
//! The value atoms are then read by nothing but the output, and the
//! translation evaluates them in each model instead of encoding the
//! diagram of every value (`crate::translate::unread`): a 16-item
//! knapsack's two assignments were 169,626 variables and 622,236 clauses.
//!
//! Input and output: a [`GroundProgram`] with the same answer sets and the
//! same cost in each; cost elements are replaced, constraints replaced by
//! others, and aggregate atoms `#agg(k)` added (with new `k`).

use crate::ground::program::{
    AggregateDefinition, AggregateValue, Atom, AtomId, Body, CostLevel, Elements, GroundProgram,
    Head, Rule, WeightedElement, element_lists,
};
use crate::syntax::ast::CmpOp;
use rustc_hash::FxHashMap;
use std::collections::BTreeMap;

/// The most values a sum's set of possible values is computed to: an
/// assignment of more values has a diagram too large to be written anyway.
const MAX_VALUES: usize = 1 << 16;

/// Folds the objective's levels and the constraints over assignment values
/// into the assignments' sums, where that is exact (see the module doc).
pub fn fold_assignments(program: &mut GroundProgram) {
    let assignments = Assignments::new(program);
    if assignments.families.is_empty() {
        return;
    }
    let mut costs = std::mem::take(&mut program.costs);
    for level in &mut costs {
        assignments.fold_objective(level);
    }
    program.costs = costs;
    let new = assignments.fold_constraints(&program.rules);
    if let Some((retired, ranges)) = new {
        add_range_constraints(program, retired, ranges);
    }
}

/// The assignments of a program: aggregates `Σ = v` grouped by their
/// elements, and the atoms that are copies of others.
struct Assignments {
    /// Per family, the elements its aggregates share.
    families: Vec<Elements>,
    /// An aggregate atom `Σ = v` of a family: the family and `v`.
    value_of: FxHashMap<AtomId, (usize, i64)>,
    /// An atom whose one rule is `a :- b.`: `b`.
    copy_of: FxHashMap<AtomId, AtomId>,
}

impl Assignments {
    fn new(program: &GroundProgram) -> Assignments {
        let mut family_of: FxHashMap<usize, usize> = FxHashMap::default();
        let mut families = Vec::new();
        let mut value_of = FxHashMap::default();
        let lists = element_lists(&program.aggregates);
        for (definition, list) in program.aggregates.iter().zip(lists) {
            let [(CmpOp::Eq, value)] = definition.guards[..] else {
                continue;
            };
            if definition.value != AggregateValue::Sum {
                continue;
            }
            let family = *family_of.entry(list).or_insert_with(|| {
                families.push(definition.elements.clone());
                families.len() - 1
            });
            value_of.insert(definition.atom, (family, value));
        }
        // Families of one aggregate are no assignment worth folding.
        let mut members = vec![0usize; families.len()];
        for &(family, _) in value_of.values() {
            members[family] += 1;
        }
        if members.iter().all(|&m| m < 2) {
            families.clear();
        }
        Assignments {
            families,
            value_of,
            copy_of: copies(program),
        }
    }

    /// The family and value of the aggregate `atom` stands for, through
    /// its copies.
    fn resolve(&self, mut atom: AtomId) -> Option<(usize, i64)> {
        // Copies form no cycle that matters: a cycle of copies is no
        // aggregate, and the walk gives up after a few steps.
        for _ in 0..8 {
            if let Some(&found) = self.value_of.get(&atom) {
                return Some(found);
            }
            atom = *self.copy_of.get(&atom)?;
        }
        None
    }

    /// The family and value of a condition list that is one atom standing
    /// for an aggregate of a family.
    fn resolve_conditions(&self, conditions: &[Body]) -> Option<(usize, i64)> {
        match conditions {
            [body] if body.neg().is_empty() && body.pos().len() == 1 => self.resolve(body.pos()[0]),
            _ => None,
        }
    }

    /// Replaces the elements of `level` over each family's values by the
    /// family's elements, where their weights are affine in the values.
    fn fold_objective(&self, level: &mut CostLevel) {
        let mut groups: BTreeMap<usize, Vec<(usize, i64)>> = BTreeMap::new();
        for (i, element) in level.elements.iter().enumerate() {
            if let Some((family, value)) = self.resolve_conditions(&element.conditions) {
                groups.entry(family).or_default().push((i, value));
            }
        }
        let mut replaced = vec![false; level.elements.len()];
        let mut added = Vec::new();
        for (family, group) in groups {
            let elements = &self.families[family];
            let Some(values) = possible_values(elements) else {
                continue;
            };
            let mut weight_of: BTreeMap<i64, i128> = BTreeMap::new();
            for &(i, value) in &group {
                *weight_of.entry(value).or_default() += i128::from(level.elements[i].value);
            }
            let Some((a, b)) = affine(&values, &weight_of) else {
                continue;
            };
            let Some(scaled) = scaled(elements, a) else {
                continue;
            };
            for &(i, _) in &group {
                replaced[i] = true;
            }
            added.extend(scaled);
            if b != 0 {
                added.push(WeightedElement {
                    value: b,
                    conditions: vec![Body::default()],
                });
            }
        }
        let mut index = 0;
        level.elements.retain(|_| {
            index += 1;
            !replaced[index - 1]
        });
        level.elements.extend(added);
    }

    /// The constraints `:- v.` over each family's values that forbid runs
    /// of two or more consecutive possible values: the constraints to
    /// retire (those of the runs, and those of impossible values), and per
    /// run its family, bounds and the origin of its first constraint.
    fn fold_constraints(&self, rules: &[Rule]) -> Option<(Vec<bool>, Vec<Range>)> {
        let mut groups: BTreeMap<usize, Vec<(usize, i64)>> = BTreeMap::new();
        for (r, rule) in rules.iter().enumerate() {
            if rule.head != Head::Constraint || !rule.body.neg().is_empty() {
                continue;
            }
            if let [atom] = rule.body.pos()[..]
                && let Some((family, value)) = self.resolve(atom)
            {
                groups.entry(family).or_default().push((r, value));
            }
        }
        let mut retired = vec![false; rules.len()];
        let mut ranges = Vec::new();
        for (family, group) in groups {
            let Some(values) = possible_values(&self.families[family]) else {
                continue;
            };
            let forbidden: FxHashMap<i64, usize> = group.iter().map(|&(r, v)| (v, r)).collect();
            let runs = forbidden_runs(&values, |v| forbidden.contains_key(&v));
            if runs.iter().all(|run| run.len() < 2)
                || runs.first().map(|r| r.len()) == Some(values.len())
            {
                continue;
            }
            for &(r, value) in &group {
                let in_run = runs
                    .iter()
                    .any(|run| run.len() >= 2 && run.contains(&value));
                retired[r] = in_run || values.binary_search(&value).is_err();
            }
            for run in runs.iter().filter(|run| run.len() >= 2) {
                let (low, high) = (run[0], run[run.len() - 1]);
                let mut guards = Vec::new();
                if low > values[0] {
                    guards.push((CmpOp::Ge, low));
                }
                if high < values[values.len() - 1] {
                    guards.push((CmpOp::Le, high));
                }
                ranges.push(Range {
                    family: self.families[family].clone(),
                    guards,
                    rule: forbidden[&low],
                });
            }
        }
        (!ranges.is_empty()).then_some((retired, ranges))
    }
}

/// A constraint to add: the sum of `family`'s elements may not satisfy
/// `guards`; in place of the rule `rule` (its origin).
struct Range {
    family: Elements,
    guards: Vec<(CmpOp, i64)>,
    rule: usize,
}

/// Retires the constraints `retired` and adds one constraint per range,
/// over a new aggregate atom.
fn add_range_constraints(program: &mut GroundProgram, retired: Vec<bool>, ranges: Vec<Range>) {
    let name = program.symbols.name("#agg");
    let first = next_aggregate_number(program, name);
    let mut added = Vec::with_capacity(ranges.len());
    for (k, range) in (first..).zip(ranges) {
        let number = program.symbols.number(k);
        let symbol = program.symbols.function_of(name, &[number], false);
        let atom = AtomId(program.atoms.len() as u32);
        program.atoms.push(Atom {
            symbol,
            shown: false,
            fact: false,
        });
        let origin = program.rules[range.rule].origin;
        program.aggregates.push(AggregateDefinition {
            atom,
            value: AggregateValue::Sum,
            elements: range.family,
            guards: range.guards,
            origin,
        });
        added.push(Rule {
            head: Head::Constraint,
            body: Body::from_slices(&[atom], &[]),
            origin,
        });
    }
    let mut index = 0;
    program.rules.retain(|_| {
        index += 1;
        !retired[index - 1]
    });
    program.rules.extend(added);
}

/// One more than the greatest `k` of the program's atoms `#agg(k)`.
fn next_aggregate_number(program: &GroundProgram, name: crate::symbols::NameId) -> i32 {
    let symbols = &program.symbols;
    (program.atoms.iter())
        .filter_map(|atom| match symbols.as_function(atom.symbol)? {
            (n, &[k], false) if n == name => symbols.as_number(k),
            _ => None,
        })
        .max()
        .map_or(0, |k| k + 1)
}

/// The atoms whose one rule is `a :- b.` (and that head no other rule),
/// each with its `b`.
fn copies(program: &GroundProgram) -> FxHashMap<AtomId, AtomId> {
    let mut rules_of: FxHashMap<AtomId, (usize, Option<AtomId>)> = FxHashMap::default();
    for rule in &program.rules {
        let copy = match (&rule.head, rule.body.pos()) {
            (Head::Atom(_), &[b]) if rule.body.neg().is_empty() => Some(b),
            _ => None,
        };
        rule.head.for_each_atom(|a| {
            let entry = rules_of.entry(a).or_insert((0, None));
            entry.0 += 1;
            entry.1 = copy;
        });
    }
    (rules_of.into_iter())
        .filter_map(|(a, (count, copy))| Some((a, copy.filter(|_| count == 1)?)))
        .collect()
}

/// Every value the sum of `elements` might take, sorted (a superset of
/// those it can take: elements are taken as independent); `None` beyond
/// [`MAX_VALUES`] values or on an overflow.
fn possible_values(elements: &[WeightedElement]) -> Option<Vec<i64>> {
    let mut values = vec![0i64];
    for element in elements {
        if element.conditions.is_empty() {
            continue; // never holds
        }
        if element.is_unconditional() {
            let shifted: Option<Vec<i64>> = (values.iter())
                .map(|v| v.checked_add(element.value))
                .collect();
            values = shifted?;
            continue;
        }
        values = sums_with(&values, element.value)?;
        if values.len() > MAX_VALUES {
            return None;
        }
    }
    Some(values)
}

/// The sums `values` (sorted, distinct) can take with an optional
/// element of `weight` added, sorted and distinct: a merge, linear in the
/// values (an assignment over thousands of elements has as many values);
/// `None` on an overflow.
pub(super) fn sums_with(values: &[i64], weight: i64) -> Option<Vec<i64>> {
    let mut merged = Vec::with_capacity(2 * values.len());
    let (mut i, mut j) = (0, 0);
    while i < values.len() || j < values.len() {
        let shifted = match values.get(j) {
            Some(v) => Some(v.checked_add(weight)?),
            None => None,
        };
        let next = match (values.get(i), shifted) {
            (Some(&v), Some(s)) if v <= s => {
                i += 1;
                j += usize::from(v == s);
                v
            }
            (_, Some(s)) => {
                j += 1;
                s
            }
            (Some(&v), None) => {
                i += 1;
                v
            }
            (None, None) => unreachable!("one of the lists has values left"),
        };
        if merged.last() != Some(&next) {
            merged.push(next);
        }
    }
    Some(merged)
}

/// `(a, b)` with `weight_of[v] = a·v + b` for every value of `values`
/// (all of which must have a weight), if there are such integers.
fn affine(values: &[i64], weight_of: &BTreeMap<i64, i128>) -> Option<(i64, i64)> {
    let points: Option<Vec<(i128, i128)>> = (values.iter())
        .map(|v| Some((i128::from(*v), *weight_of.get(v)?)))
        .collect();
    let points = points?;
    let (v0, f0) = *points.first()?;
    let a = match points.get(1) {
        None => 0,
        Some(&(v1, f1)) if (f1 - f0) % (v1 - v0) == 0 => (f1 - f0) / (v1 - v0),
        Some(_) => return None,
    };
    let b = f0 - a * v0;
    if !points.iter().all(|&(v, f)| a * v + b == f) {
        return None;
    }
    Some((i64::try_from(a).ok()?, i64::try_from(b).ok()?))
}

/// The elements with their weights times `a` (those of weight 0 left
/// out); `None` on an overflow.
fn scaled(elements: &[WeightedElement], a: i64) -> Option<Vec<WeightedElement>> {
    (elements.iter())
        .filter(|element| a != 0 && element.value != 0 && !element.conditions.is_empty())
        .map(|element| {
            Some(WeightedElement {
                value: element.value.checked_mul(a)?,
                conditions: element.conditions.clone(),
            })
        })
        .collect()
}

/// The maximal runs of consecutive `values` that are `forbidden`.
fn forbidden_runs(values: &[i64], forbidden: impl Fn(i64) -> bool) -> Vec<Vec<i64>> {
    let mut runs: Vec<Vec<i64>> = Vec::new();
    let mut open = false;
    for &value in values {
        match (forbidden(value), open) {
            (true, true) => runs.last_mut().expect("open").push(value),
            (true, false) => runs.push(vec![value]),
            (false, _) => {}
        }
        open = forbidden(value);
    }
    runs
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn possible_values_of_independent_elements() {
        let element = |value, conditions: Vec<Body>| WeightedElement { value, conditions };
        let maybe = || vec![Body::from_slices(&[AtomId(0)], &[])];
        let elements = [
            element(2, maybe()),
            element(3, maybe()),
            element(-1, vec![Body::default()]),
            element(7, vec![]),
        ];
        assert_eq!(possible_values(&elements), Some(vec![-1, 1, 2, 4]));
    }

    #[test]
    fn affine_weights_fit_exactly() {
        let weights = |pairs: &[(i64, i128)]| pairs.iter().copied().collect::<BTreeMap<_, _>>();
        let w = weights(&[(0, 1), (2, -3), (5, -9)]);
        assert_eq!(affine(&[0, 2, 5], &w), Some((-2, 1)));
        assert_eq!(affine(&[0, 2, 3], &w), None, "a value without a weight");
        assert_eq!(
            affine(&[0, 2, 5], &weights(&[(0, 0), (2, 1), (5, 2)])),
            None
        );
        assert_eq!(
            affine(&[0, 3], &weights(&[(0, 0), (3, 1)])),
            None,
            "a = 1/3"
        );
        assert_eq!(affine(&[4], &weights(&[(4, 7)])), Some((0, 7)));
    }

    #[test]
    fn runs_of_forbidden_values() {
        let runs = forbidden_runs(&[0, 1, 3, 4, 6, 9], |v| v != 4);
        assert_eq!(runs, vec![vec![0, 1, 3], vec![6, 9]]);
    }
}
