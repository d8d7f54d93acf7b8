//! The ground program: plain data handed from the grounder to translation.
//!
//! Atoms have dense ids `0..atoms.len()` in the order they were first
//! derived. Facts have been propagated and every body is simplified: a body
//! never mentions an atom that is a fact, and never mentions an atom that no
//! rule can derive. Facts are flagged on their [`Atom`] and have no rules:
//! most atoms of a grounding-heavy program are facts, and a rule each would
//! cost more than the rest of the program.

use crate::diagnostics::Span;
use crate::symbols::{SymId, SymbolTable};
use crate::syntax::ast::CmpOp;
use smallvec::SmallVec;
use std::sync::Arc;

/// The elements of an aggregate, shared among the aggregates over them.
pub type Elements = Arc<[WeightedElement]>;

/// Dense index of a ground atom.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct AtomId(pub u32);

impl AtomId {
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// The atoms of a body: up to four are stored inline, so the typical ground
/// rule (a constraint over two atoms) allocates nothing.
pub type Atoms = SmallVec<[AtomId; 4]>;

/// A conjunction of atoms and default-negated atoms. Both lists are sorted
/// and free of duplicates, so equal bodies compare equal.
///
/// One list holds both, the positive atoms first: 32 bytes, where a list of
/// each took 48 (a ground program's rules live until its search ends:
/// 611,537 of them in a 640-step plan).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Body {
    atoms: Atoms,
    /// Where the negative atoms start in `atoms`.
    neg_start: u32,
}

impl Body {
    pub fn new(pos: Vec<AtomId>, neg: Vec<AtomId>) -> Body {
        Body::from_slices(&pos, &neg)
    }

    /// The body of `pos` and `not neg`, sorted and without duplicates.
    pub fn from_slices(pos: &[AtomId], neg: &[AtomId]) -> Body {
        let sorted = |atoms: &[AtomId]| {
            let mut atoms = Atoms::from_slice(atoms);
            atoms.sort_unstable();
            atoms.dedup();
            atoms
        };
        Body::from_sorted(&sorted(pos), &sorted(neg))
    }

    /// The body of `pos` and `not neg`, each already sorted and distinct.
    pub fn from_sorted(pos: &[AtomId], neg: &[AtomId]) -> Body {
        debug_assert!(pos.is_sorted_by(|a, b| a < b) && neg.is_sorted_by(|a, b| a < b));
        let mut atoms = Atoms::with_capacity(pos.len() + neg.len());
        atoms.extend_from_slice(pos);
        atoms.extend_from_slice(neg);
        Body {
            atoms,
            neg_start: body_index(pos.len()),
        }
    }

    /// The positive atoms, sorted and distinct.
    pub fn pos(&self) -> &[AtomId] {
        &self.atoms[..self.neg_start as usize]
    }

    /// The default-negated atoms, sorted and distinct.
    pub fn neg(&self) -> &[AtomId] {
        &self.atoms[self.neg_start as usize..]
    }

    /// Keeps the positive atoms for which `keep_pos` holds and the negative
    /// ones for which `keep_neg` does.
    pub fn retain(
        &mut self,
        mut keep_pos: impl FnMut(AtomId) -> bool,
        mut keep_neg: impl FnMut(AtomId) -> bool,
    ) {
        let neg_start = self.neg_start as usize;
        let (mut index, mut kept_pos) = (0, 0);
        self.atoms.retain(|&mut atom| {
            let positive = index < neg_start;
            index += 1;
            let keep = if positive {
                keep_pos(atom)
            } else {
                keep_neg(atom)
            };
            kept_pos += usize::from(keep && positive);
            keep
        });
        self.neg_start = body_index(kept_pos);
    }

    /// Applies `renumber` to each atom; it must keep the order of atoms,
    /// so that both lists stay sorted.
    pub fn renumber(&mut self, renumber: impl FnMut(&mut AtomId)) {
        self.atoms.iter_mut().for_each(renumber);
    }

    pub fn is_empty(&self) -> bool {
        self.atoms.is_empty()
    }

    /// Whether the body holds in `model` (one value per atom).
    pub fn holds(&self, model: &[bool]) -> bool {
        self.pos().iter().all(|a| model[a.index()]) && !self.neg().iter().any(|a| model[a.index()])
    }

    /// The body with its positive atom `atom` replaced by `body`.
    pub fn unfold(&self, atom: AtomId, body: &Body) -> Body {
        let pos: Atoms = (self.pos().iter().chain(body.pos()))
            .copied()
            .filter(|&a| a != atom)
            .collect();
        let neg: Atoms = self.neg().iter().chain(body.neg()).copied().collect();
        Body::from_slices(&pos, &neg)
    }

    /// The conjunction of both bodies.
    pub fn and(&self, other: &Body) -> Body {
        Body::new(
            self.pos().iter().chain(other.pos()).copied().collect(),
            self.neg().iter().chain(other.neg()).copied().collect(),
        )
    }
}

/// Bodies are ordered by their positive atoms, then their negative ones.
impl Ord for Body {
    fn cmp(&self, other: &Body) -> std::cmp::Ordering {
        (self.pos(), self.neg()).cmp(&(other.pos(), other.neg()))
    }
}

impl PartialOrd for Body {
    fn partial_cmp(&self, other: &Body) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

/// A position among a body's atoms, of which there are fewer than 2³² (each
/// is an atom of the ground program).
fn body_index(index: usize) -> u32 {
    u32::try_from(index).expect("fewer than 2^32 atoms in a body")
}

/// A value that holds when one of its conditions holds (an empty
/// condition always does): the one shape of every conditional element of
/// the ground program. A choice element is an atom that may be chosen under
/// its conditions ([`ChoiceElement`]); an aggregate element is a weight
/// counted when one of its conditions holds ([`WeightedElement`]; clingo's
/// tuples with equal weights and conditions are one element, as conditional
/// literals and conditional disjuncts are grounded into these too).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Conditional<T> {
    pub value: T,
    pub conditions: Vec<Body>,
}

impl<T> Conditional<T> {
    pub fn is_unconditional(&self) -> bool {
        self.conditions.iter().any(Body::is_empty)
    }
}

/// Alternative conditions one of which is empty always hold: they become
/// that one empty condition, the form every unconditional element has.
pub fn absorb_certain(conditions: &mut Vec<Body>) {
    if conditions.iter().any(Body::is_empty) {
        *conditions = vec![Body::default()];
    }
}

/// An element of a ground choice head: its atom may be chosen when one of
/// its conditions holds. A choice rule never has two elements for the same
/// atom; an unconditional element has exactly one, empty, condition.
pub type ChoiceElement = Conditional<AtomId>;

/// An element of a ground aggregate: its weight counts when one of its
/// conditions holds.
pub type WeightedElement = Conditional<i64>;

/// `lower <= count <= upper` over the true elements of a choice head.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CountBounds {
    /// 0 when there is no lower bound.
    pub lower: u32,
    /// [`CountBounds::UNBOUNDED`] when there is no upper bound.
    pub upper: u32,
}

impl CountBounds {
    /// The `upper` of a head without an upper bound: no choice has this
    /// many elements.
    pub const UNBOUNDED: u32 = u32::MAX;

    /// The upper bound, if there is one.
    pub fn upper_bound(self) -> Option<u32> {
        (self.upper != Self::UNBOUNDED).then_some(self.upper)
    }
}

impl Default for CountBounds {
    fn default() -> Self {
        CountBounds {
            lower: 0,
            upper: Self::UNBOUNDED,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Head {
    /// `:- body.`
    Constraint,
    /// `a :- body.`; a fact when the body is empty.
    Atom(AtomId),
    /// `a1 | .. | an :- body.` with n >= 2 distinct atoms.
    Disjunction(Vec<AtomId>),
    /// `lower { elements } upper :- body.`, boxed: a head is 24 bytes, and
    /// most rules are not choices.
    Choice(Box<ChoiceHead>),
}

/// The head of a choice rule: its elements and their bounds.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ChoiceHead {
    pub elements: Vec<ChoiceElement>,
    pub bounds: CountBounds,
}

impl Head {
    /// The head `lower { elements } upper`.
    pub fn choice(elements: Vec<ChoiceElement>, bounds: CountBounds) -> Head {
        Head::Choice(Box::new(ChoiceHead { elements, bounds }))
    }

    /// Calls `f` on each atom the head can derive.
    pub fn for_each_atom(&self, mut f: impl FnMut(AtomId)) {
        match self {
            Head::Constraint => {}
            Head::Atom(a) => f(*a),
            Head::Disjunction(atoms) => atoms.iter().copied().for_each(f),
            Head::Choice(choice) => choice.elements.iter().for_each(|e| f(e.value)),
        }
    }
}

/// What an aggregate atom compares with its guards.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AggregateValue {
    /// The sum of the weights of the elements that hold (`#count`: every
    /// weight is 1).
    Sum,
    /// The greatest weight of the elements that hold, `empty` when none
    /// does. `#min` is the greatest of the negated weights; weights of
    /// `#min` and `#max` are ranks in clingo's term order.
    Max { empty: i64 },
}

/// The auxiliary atom `atom` is true exactly when the aggregate's value
/// satisfies every guard `value op bound`. It has no rules; translation
/// defines it by an equivalence.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct AggregateDefinition {
    pub atom: AtomId,
    pub value: AggregateValue,
    /// Shared by the aggregates over the same elements: an assignment
    /// `T = #count{..}` is one aggregate per value `T` may take, each over
    /// every element (hakank's bus scheduling, 3,016 values of 3,015
    /// elements: 1.4 GB when each held its own copy).
    pub elements: Elements,
    pub guards: Vec<(CmpOp, i64)>,
    /// The aggregate in the source (of its first instance), for errors.
    pub origin: Span,
}

/// How a guard's truth moves when one element becomes true.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    /// It can only become true (`#count{..} >= 2`): the element is a
    /// positive dependency, evaluated in the reduct's derivation.
    Up,
    /// It can only become false (`#count{..} <= 2`): like a negated
    /// literal, evaluated in the candidate model.
    Down,
    /// Either (`!=`, or `#max` with an empty value above the weight).
    Both,
    /// Not at all (a weight 0 in a sum).
    Neither,
}

/// Rewrites the element lists of `aggregates`, each shared list once, so
/// that the aggregates that shared a list share its rewriting.
pub fn rewrite_elements(
    aggregates: &mut [AggregateDefinition],
    mut rewrite: impl FnMut(&mut Vec<WeightedElement>),
) {
    // Keyed by address, the old lists kept alive meanwhile so that no
    // address is reused.
    let mut rewritten: rustc_hash::FxHashMap<*const WeightedElement, (Elements, Elements)> =
        rustc_hash::FxHashMap::default();
    for aggregate in aggregates {
        let (_, new) = (rewritten.entry(aggregate.elements.as_ptr())).or_insert_with(|| {
            let mut elements = aggregate.elements.to_vec();
            rewrite(&mut elements);
            (aggregate.elements.clone(), elements.into())
        });
        aggregate.elements = new.clone();
    }
}

/// Numbers the element lists of `aggregates`, equal lists alike: per
/// aggregate, the number of its list. A list the aggregates share is
/// hashed once (by its address, the aggregates borrowed meanwhile), not
/// once per aggregate.
pub fn element_lists(aggregates: &[AggregateDefinition]) -> Vec<usize> {
    let mut by_address: rustc_hash::FxHashMap<*const WeightedElement, usize> =
        rustc_hash::FxHashMap::default();
    let mut by_content: rustc_hash::FxHashMap<&[WeightedElement], usize> =
        rustc_hash::FxHashMap::default();
    (aggregates.iter())
        .map(|aggregate| {
            *(by_address.entry(aggregate.elements.as_ptr())).or_insert_with(|| {
                let next = by_content.len();
                *by_content.entry(&aggregate.elements).or_insert(next)
            })
        })
        .collect()
}

impl AggregateDefinition {
    /// The guards as parts that each move one way per element: `= k` is
    /// `>= k` and `<= k`, `> k` is `>= k+1`, `< k` is `<= k-1`; `!= k`
    /// stays. Every part holds exactly when every guard does.
    pub fn parts(&self) -> Vec<(CmpOp, i64)> {
        let mut parts = Vec::with_capacity(self.guards.len());
        for &(op, bound) in &self.guards {
            match op {
                CmpOp::Eq => parts.extend([(CmpOp::Ge, bound), (CmpOp::Le, bound)]),
                CmpOp::Gt => parts.push((CmpOp::Ge, bound + 1)),
                CmpOp::Lt => parts.push((CmpOp::Le, bound - 1)),
                _ => parts.push((op, bound)),
            }
        }
        parts
    }

    /// How the part `op` (of [`Self::parts`]) moves when `element` becomes
    /// true.
    pub fn direction(&self, op: CmpOp, element: &WeightedElement) -> Direction {
        let rises = match self.value {
            AggregateValue::Sum if element.value == 0 => return Direction::Neither,
            AggregateValue::Sum => element.value > 0,
            // The first true element may lower the value from `empty`.
            AggregateValue::Max { empty } if empty > element.value => return Direction::Both,
            AggregateValue::Max { .. } => true,
        };
        match (op, rises) {
            (CmpOp::Ge | CmpOp::Gt, true) | (CmpOp::Le | CmpOp::Lt, false) => Direction::Up,
            (CmpOp::Ge | CmpOp::Gt, false) | (CmpOp::Le | CmpOp::Lt, true) => Direction::Down,
            (CmpOp::Eq | CmpOp::Ne, _) => Direction::Both,
        }
    }

    /// Whether the part `op bound` holds for the elements for which
    /// `holds(index, element)` is true.
    pub fn part_holds(
        &self,
        (op, bound): (CmpOp, i64),
        mut holds: impl FnMut(usize, &WeightedElement) -> bool,
    ) -> bool {
        let weights = self
            .elements
            .iter()
            .enumerate()
            .filter(|&(i, e)| holds(i, e))
            .map(|(_, e)| e.value);
        let value = match self.value {
            AggregateValue::Sum => weights.sum(),
            AggregateValue::Max { empty } => weights.max().unwrap_or(empty),
        };
        op.holds(value.cmp(&bound))
    }
}

/// A ground rule. The rules of a program live until its search ends (a
/// 640-step plan has 611,537), so a rule is kept to 72 bytes: a head of 24,
/// a body of 32, its origin 12.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Rule {
    pub head: Head,
    pub body: Body,
    /// The source rule this instance comes from, for located errors.
    pub origin: Span,
}

const _: () = assert!(std::mem::size_of::<Rule>() <= 72);

/// A ground atom: its symbol, whether the output shows it, and whether it
/// is a fact (true in every answer set; then no rule has it in its head).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Atom {
    pub symbol: SymId,
    pub shown: bool,
    pub fact: bool,
}

/// A ground `#show t : body.`: `term` is shown when `body` holds. Several
/// instances may show the same term.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShowTerm {
    pub term: SymId,
    pub body: Body,
}

#[derive(Clone, Debug, Default)]
pub struct GroundProgram {
    pub symbols: SymbolTable,
    pub atoms: Vec<Atom>,
    pub rules: Vec<Rule>,
    pub show_terms: Vec<ShowTerm>,
    /// The definitions of the atoms that stand for body aggregates.
    pub aggregates: Vec<AggregateDefinition>,
    /// The objective of `#minimize`, `#maximize` and weak constraints, one
    /// level per priority, from the highest priority to the lowest; empty
    /// when the program does not optimize.
    pub costs: Vec<CostLevel>,
    /// The atoms of `#project` directives, which `--project` projects the
    /// answer sets onto (`None` without such directives: the shown atoms).
    pub projection: Option<Vec<AtomId>>,
    /// The edges of `#edge` directives: `(u, v, a)` is the edge from `u` to
    /// `v`, present when the atom `a` holds. The present edges must form an
    /// acyclic graph.
    pub edges: Vec<(SymId, SymId, AtomId)>,
}

/// The cost of one priority level: the sum of the weights of the elements
/// that hold (a `#maximize` weight is negated). Cost vectors compare
/// lexicographically, highest priority first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CostLevel {
    pub priority: i64,
    pub elements: Vec<WeightedElement>,
}

impl GroundProgram {
    pub fn atom_ids(&self) -> impl Iterator<Item = AtomId> + use<> {
        (0..self.atoms.len() as u32).map(AtomId)
    }

    pub fn symbol(&self, atom: AtomId) -> SymId {
        self.atoms[atom.index()].symbol
    }

    pub fn is_fact(&self, atom: AtomId) -> bool {
        self.atoms[atom.index()].fact
    }
}
