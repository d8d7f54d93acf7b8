//! The analysis of a ground program that the steps of the translation
//! share, computed once, before any clause is written: the strongly
//! connected components of the positive dependency graph, which of them
//! have a cycle (the program is tight when none has), the components that
//! are not head-cycle-free, and those holding a recursive aggregate that
//! atoms of its own component can both raise and lower.
//!
//! Its readers: the completion ([`super::completion`]) takes an aggregate
//! atom on a cycle as recursive; the minimality check
//! ([`super::minimality`]) covers the components that are not
//! head-cycle-free or hold a non-monotone aggregate, which the exact
//! translation refuses ([`Analysis::refusal`]); the level ranking
//! ([`super::ranking`]) ranks the atoms of the cyclic components; the loop
//! formulas ([`super::loops`]) are needed only when the program is not
//! tight. Plain data, computed from the program alone: nothing here writes
//! a clause.

use super::exclusive::ExclusiveSets;
use super::native_sums::{CLAUSE_NODES_AT_MOST, PropagatedSums};
use crate::diagnostics::Diagnostic;
use crate::graph::Components;
use crate::ground::program::{AtomId, Direction, GroundProgram, Head, Rule};
use std::collections::BTreeMap;

/// What the translation's steps need to know of the positive dependencies.
pub(crate) struct Analysis {
    /// The strongly connected components of the positive dependency graph,
    /// numbered in Tarjan's order.
    pub(crate) components: Components,
    /// Per component: how many atoms it has.
    pub(crate) size: Vec<u32>,
    /// Per component: whether it contains a cycle (two or more atoms, or an
    /// atom depending positively on itself).
    cyclic: Vec<bool>,
    /// The components that are not head-cycle-free, each with its first
    /// head cycle.
    head_cycles: BTreeMap<u32, HeadCycle>,
    /// The components with a non-monotone recursive aggregate, each with
    /// the exact translation's error for its first such aggregate.
    nonmonotone: BTreeMap<u32, Diagnostic>,
    /// The sums worth leaving to the search
    /// ([`super::native_sums::propagated_sums`]).
    propagated_sums: PropagatedSums,
    /// The atoms of choices of at most one that always apply.
    exclusive: ExclusiveSets<AtomId>,
}

/// Whether `rule` is a choice with bounds that may be encoded over the
/// sets of other choices ([`super::cardinality::encode_bounds`]).
fn counts_over_sets(rule: &Rule) -> bool {
    matches!(&rule.head, Head::Choice(choice)
        if choice.bounds.lower > 0 || choice.bounds.upper_bound().is_some())
        && !super::exclusive::is_exclusive_choice(rule)
}

impl Analysis {
    pub(crate) fn new(program: &GroundProgram) -> Analysis {
        let graph = positive_graph(program);
        let components = crate::graph::tarjan(program.atoms.len(), &graph.offsets, &graph.targets);
        let (size, cyclic) = cyclic_components(&components, &graph);
        let head_cycles = head_cycles(program, &components);
        let nonmonotone = nonmonotone_aggregates(program, &components, &cyclic);
        // Only sums, the objective and the bounds of other choices read the
        // sets.
        let exclusive = if program.aggregates.is_empty()
            && program.costs.is_empty()
            && !program.rules.iter().any(counts_over_sets)
        {
            ExclusiveSets::default()
        } else {
            ExclusiveSets::of_choices(program)
        };
        let propagated_sums =
            super::native_sums::propagated_sums(program, &exclusive, |aggregate| {
                cyclic[components.component[aggregate.atom.index()] as usize]
            });
        Analysis {
            components,
            size,
            cyclic,
            head_cycles,
            nonmonotone,
            propagated_sums,
            exclusive,
        }
    }

    /// The atoms of each choice of at most one whose body is empty
    /// ([`ExclusiveSets::of_choices`]).
    pub(crate) fn exclusive_atoms(&self) -> &ExclusiveSets<AtomId> {
        &self.exclusive
    }

    /// Whether the sum of the `index`-th aggregate is worth leaving to a
    /// search that propagates it ([`super::SumEncoding::Native`]).
    pub(crate) fn propagates_sum(&self, index: usize) -> bool {
        self.propagated_sums.worth[index]
    }

    /// Whether the `index`-th aggregate's sum, as clauses, is a network
    /// ([`super::aggregates::SumForm::Network`]): its diagram too large to
    /// write.
    pub(crate) fn sum_by_network(&self, index: usize) -> bool {
        self.propagated_sums.networks[index]
    }

    /// Whether the bounds of the `index`-th rule, a choice, as clauses, are
    /// a sorting network: its counter too large to write.
    pub(crate) fn choice_by_network(&self, index: usize) -> bool {
        self.propagated_sums.network_choices[index]
    }

    /// Whether the bounds of the `index`-th rule, a choice, are to be left
    /// to a search that propagates them: too large for clauses.
    pub(crate) fn propagates_choice(&self, index: usize) -> bool {
        self.propagated_sums.choices[index]
    }

    /// Whether some aggregate's sum, or some choice's bounds, are worth
    /// leaving to the search.
    pub(crate) fn has_propagated_sums(&self) -> bool {
        self.propagated_sums.worth.contains(&true) || self.propagated_sums.choices.contains(&true)
    }

    /// Whether the sums worth leaving to the search would be too large as
    /// clauses ([`CLAUSE_NODES_AT_MOST`]).
    pub(crate) fn sums_too_large_for_clauses(&self) -> bool {
        self.propagated_sums.nodes > CLAUSE_NODES_AT_MOST
    }

    /// Whether the positive dependency graph is acyclic: then the models
    /// of the completion are exactly the answer sets.
    pub(crate) fn is_tight(&self) -> bool {
        !self.cyclic.iter().any(|&c| c)
    }

    /// Whether every component is head-cycle-free and every recursive
    /// aggregate monotone: no component needs the minimality check, and
    /// the unfounded-set check inside the search covers the program
    /// ([`crate::solve::unfounded_sets::covers`] on its translation).
    pub(crate) fn needs_no_minimality_check(&self) -> bool {
        self.head_cycles.is_empty() && self.nonmonotone.is_empty()
    }

    /// Whether `atom` lies on a cycle of positive dependencies.
    pub(crate) fn on_cycle(&self, atom: AtomId) -> bool {
        self.cyclic[self.components.component[atom.index()] as usize]
    }

    /// Why the exact translation refuses the program, if it does: its
    /// first component that is not head-cycle-free, or else its first
    /// non-monotone recursive aggregate.
    pub(crate) fn refusal(&self, program: &GroundProgram) -> Option<Diagnostic> {
        if let Some(cycle) = self.head_cycles.values().next() {
            return Some(Diagnostic::error(
                cycle.origin,
                format!(
                    "disjunctive rule is not head-cycle-free: {}; {NOT_EXACT}",
                    cycle.describe(program)
                ),
            ));
        }
        self.nonmonotone.values().next().cloned()
    }

    /// The components the minimality check covers, each with whether it
    /// holds a non-monotone aggregate.
    pub(crate) fn checked(&self) -> BTreeMap<u32, bool> {
        let mut checked: BTreeMap<u32, bool> =
            self.head_cycles.keys().map(|&c| (c, false)).collect();
        checked.extend(self.nonmonotone.keys().map(|&c| (c, true)));
        checked
    }
}

/// The positive dependency graph in CSR form: head atom → positive body
/// atoms (for choice elements, of body and condition); aggregate atom →
/// the positive atoms of the elements that can raise one of its parts (or
/// move it both ways, which [`nonmonotone_aggregates`] finds on a
/// cycle).
struct Graph {
    offsets: Vec<usize>,
    targets: Vec<u32>,
}

fn positive_graph(program: &GroundProgram) -> Graph {
    fn edges(program: &GroundProgram, mut edge: impl FnMut(AtomId, AtomId)) {
        for rule in &program.rules {
            match &rule.head {
                Head::Constraint => {}
                Head::Atom(head) => rule.body.pos().iter().for_each(|&p| edge(*head, p)),
                Head::Disjunction(heads) => {
                    for &head in heads {
                        rule.body.pos().iter().for_each(|&p| edge(head, p));
                    }
                }
                Head::Choice(choice) => {
                    for element in &choice.elements {
                        rule.body.pos().iter().for_each(|&p| edge(element.value, p));
                        for condition in &element.conditions {
                            condition.pos().iter().for_each(|&p| edge(element.value, p));
                        }
                    }
                }
            }
        }
        for definition in &program.aggregates {
            let parts = definition.parts();
            for element in definition.elements.iter() {
                let dependency = parts.iter().any(|&(op, _)| {
                    matches!(
                        definition.direction(op, element),
                        Direction::Up | Direction::Both
                    )
                });
                if dependency {
                    for condition in &element.conditions {
                        condition
                            .pos()
                            .iter()
                            .for_each(|&p| edge(definition.atom, p));
                    }
                }
            }
        }
    }
    let n = program.atoms.len();
    let mut offsets = vec![0usize; n + 1];
    edges(program, |head, _| offsets[head.index() + 1] += 1);
    crate::graph::prefix_sums(&mut offsets);
    let mut fill = offsets.clone();
    let mut targets = vec![0u32; offsets[n]];
    edges(program, |head, body| {
        targets[fill[head.index()]] = body.0;
        fill[head.index()] += 1;
    });
    Graph { offsets, targets }
}

/// Per component: its size, and whether it contains a cycle (two or more
/// atoms, or an atom depending positively on itself).
fn cyclic_components(components: &Components, graph: &Graph) -> (Vec<u32>, Vec<bool>) {
    let mut size = vec![0u32; components.count];
    for &c in &components.component {
        size[c as usize] += 1;
    }
    let mut cyclic: Vec<bool> = size.iter().map(|&s| s > 1).collect();
    for v in 0..components.component.len() {
        if graph.targets[graph.offsets[v]..graph.offsets[v + 1]].contains(&(v as u32)) {
            cyclic[components.component[v] as usize] = true;
        }
    }
    (size, cyclic)
}

/// Why the exact translation refuses the components that need the
/// minimality check.
const NOT_EXACT: &str = "no CNF of polynomial size expresses the stability of such programs in \
                         general, so they are not translated exactly (`dimacs`, \
                         `--translation=eager`): `asp2sat solve` checks them";

/// Two heads of one disjunctive rule that depend positively on each other.
struct HeadCycle {
    origin: crate::diagnostics::Span,
    heads: (AtomId, AtomId),
}

impl HeadCycle {
    fn describe(&self, program: &GroundProgram) -> String {
        let name = |atom: AtomId| program.symbols.display(program.symbol(atom)).to_string();
        format!(
            "{} and {} depend positively on each other",
            name(self.heads.0),
            name(self.heads.1)
        )
    }
}

/// The components that are not head-cycle-free, each with its first
/// disjunctive rule with two head atoms in it (few components have one: a
/// map, not a slot per component).
fn head_cycles(program: &GroundProgram, components: &Components) -> BTreeMap<u32, HeadCycle> {
    let component = &components.component;
    let mut cycles = BTreeMap::new();
    let mut heads_by_component: Vec<(u32, AtomId)> = Vec::new();
    for rule in &program.rules {
        let Head::Disjunction(heads) = &rule.head else {
            continue;
        };
        heads_by_component.clear();
        heads_by_component.extend(heads.iter().map(|&h| (component[h.index()], h)));
        heads_by_component.sort_unstable();
        for pair in heads_by_component.windows(2) {
            if pair[0].0 == pair[1].0 && pair[0].1 != pair[1].1 {
                cycles.entry(pair[0].0).or_insert(HeadCycle {
                    origin: rule.origin,
                    heads: (pair[0].1, pair[1].1),
                });
            }
        }
    }
    cycles
}

/// The components with an aggregate on a positive cycle with a part that
/// atoms of its own component can both raise and lower, each with the
/// error the exact translation gives for its first such aggregate (its
/// stability needs the minimality check under the aggregate's Ferraris
/// reduct, which has no exact CNF of polynomial size in general).
fn nonmonotone_aggregates(
    program: &GroundProgram,
    components: &Components,
    cyclic: &[bool],
) -> BTreeMap<u32, Diagnostic> {
    let component = &components.component;
    let mut found = BTreeMap::new();
    for definition in &program.aggregates {
        let own = component[definition.atom.index()];
        if !cyclic[own as usize] || found.contains_key(&own) {
            continue;
        }
        for (op, _) in definition.parts() {
            let (mut rising, mut falling) = (None, None);
            for element in definition.elements.iter() {
                let direction = definition.direction(op, element);
                let recursive = element
                    .conditions
                    .iter()
                    .flat_map(|c| c.pos())
                    .find(|p| component[p.index()] == own);
                let Some(&atom) = recursive else {
                    continue;
                };
                if matches!(direction, Direction::Up | Direction::Both) {
                    rising.get_or_insert(atom);
                }
                if matches!(direction, Direction::Down | Direction::Both) {
                    falling.get_or_insert(atom);
                }
            }
            if let (Some(up), Some(down)) = (rising, falling) {
                let name = |atom: AtomId| program.symbols.display(program.symbol(atom)).to_string();
                let how = if up == down {
                    format!("{} can both raise and lower", name(up))
                } else {
                    format!("{} can raise and {} lower", name(up), name(down))
                };
                found.insert(
                    own,
                    Diagnostic::error(
                    definition.origin,
                    format!(
                        "non-monotone recursive aggregate: {how} one of its guards, and depends \
                         on it; {NOT_EXACT}"
                    ),
                ));
                break;
            }
        }
    }
    found
}
