//! Random ground programs for property tests: normal, disjunctive and
//! choice rules, with and without aggregates (recursive ones too) and
//! costs, from a small deterministic generator ([`Rng`]).

use super::program_text::atom_named;
use crate::diagnostics::Span;
use crate::ground::program::{
    AggregateDefinition, AggregateValue, Atom, AtomId, Body, ChoiceElement, CostLevel, CountBounds,
    Elements, GroundProgram, Head, Rule, ShowTerm, WeightedElement,
};
use crate::symbols::{NameId, SymId};
use crate::syntax::ast::CmpOp;

/// xorshift64*: a small seeded generator, so failures reproduce.
pub(crate) struct Rng(u64);

impl Rng {
    pub(crate) fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1)
    }

    pub(crate) fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    pub(crate) fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    /// True with probability `percent`/100.
    pub(crate) fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }

    pub(crate) fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len())]
    }
}

/// Gives `program` an objective of one to three priority levels, whose
/// elements have weights from -3 to 3 (some shared tuples merged as the
/// grounder merges them) and conditions of up to two literals over its
/// atoms.
pub(crate) fn add_random_costs(rng: &mut Rng, program: &mut GroundProgram) {
    let atoms = program.atoms.len();
    if atoms == 0 {
        return;
    }
    let levels = 1 + rng.below(3);
    for level in 0..levels {
        let mut elements: Vec<WeightedElement> = Vec::new();
        for _ in 0..1 + rng.below(4) {
            let mut conditions = Vec::new();
            for _ in 0..1 + usize::from(rng.chance(20)) {
                let (mut pos, mut neg) = (Vec::new(), Vec::new());
                for _ in 0..rng.below(3) {
                    let atom = AtomId(rng.below(atoms) as u32);
                    if rng.chance(70) {
                        pos.push(atom)
                    } else {
                        neg.push(atom)
                    }
                }
                conditions.push(Body::new(pos, neg));
            }
            elements.push(WeightedElement {
                value: rng.below(7) as i64 - 3,
                conditions,
            });
        }
        program.costs.push(CostLevel {
            priority: (levels - level) as i64 * 2,
            elements,
        });
    }
}

/// [`random_program`] with aggregates on top, not recursive by
/// construction: up to three aggregate atoms whose elements' conditions
/// read the random program's atoms, and up to three new atoms whose rules
/// (normal, choice, with positive loops among themselves) and constraints
/// use the aggregate atoms positively and negatively.
pub(crate) fn random_program_with_aggregates(rng: &mut Rng, max_atoms: usize) -> GroundProgram {
    let mut program = random_program(rng, max_atoms, false);
    let lower = program.atoms.len();
    let condition = |rng: &mut Rng| {
        let (mut pos, mut neg) = (Vec::new(), Vec::new());
        for a in 0..lower as u32 {
            if rng.chance(25) {
                pos.push(AtomId(a));
            } else if rng.chance(10) {
                neg.push(AtomId(a));
            }
        }
        Body::new(pos, neg)
    };
    let ops = CmpOp::ALL;
    let mut aggregate_atoms = Vec::new();
    for i in 0..1 + rng.below(3) {
        let atom = atom_named(&mut program, &format!("#agg{i}"));
        program.atoms[atom.index()].shown = false;
        let elements = (0..1 + rng.below(4))
            .map(|_| WeightedElement {
                value: rng.below(7) as i64 - 3,
                conditions: (0..1 + rng.below(2)).map(|_| condition(rng)).collect(),
            })
            .collect();
        let value = if rng.chance(70) {
            AggregateValue::Sum
        } else {
            AggregateValue::Max {
                empty: rng.below(9) as i64 - 4,
            }
        };
        let guards = (0..1 + rng.below(2))
            .map(|_| (rng.pick(&ops), rng.below(7) as i64 - 3))
            .collect();
        program.aggregates.push(AggregateDefinition {
            atom,
            value,
            elements,
            guards,
            origin: Span::default(),
        });
        aggregate_atoms.push(atom);
    }
    let upper: Vec<AtomId> = (0..1 + rng.below(3))
        .map(|i| atom_named(&mut program, &format!("u{i}")))
        .collect();
    let any =
        |rng: &mut Rng, program: &GroundProgram| AtomId(rng.below(program.atoms.len()) as u32);
    for _ in 0..2 + rng.below(4) {
        let mut pos = vec![rng.pick(&aggregate_atoms)];
        let mut neg = Vec::new();
        if rng.chance(40) {
            neg.push(rng.pick(&aggregate_atoms));
        }
        if rng.chance(50) {
            pos.push(any(rng, &program));
        }
        if rng.chance(30) {
            neg.push(any(rng, &program));
        }
        let body = Body::new(pos, neg);
        let head = match rng.below(10) {
            0..=1 => Head::Constraint,
            2 => Head::choice(
                vec![ChoiceElement {
                    value: rng.pick(&upper),
                    conditions: vec![Body::default()],
                }],
                CountBounds::default(),
            ),
            _ => Head::Atom(rng.pick(&upper)),
        };
        program.rules.push(Rule {
            head,
            body,
            origin: Span::default(),
        });
    }
    program
}

/// [`random_program`] with choices of at most one among its atoms whose
/// bodies are empty (a cell of a grid takes one value), sometimes
/// overlapping, and sums and counts over one atom each of their elements
/// (weights from -2 to 4, some atoms outside every choice, one sometimes
/// counted twice) that constraints and rules read; an objective over such
/// atoms half of the time. The diagrams of these sums have a level per
/// choice ([`crate::translate`]'s exclusive sets).
pub(crate) fn random_program_with_exclusive_sums(rng: &mut Rng, max_atoms: usize) -> GroundProgram {
    let mut program = random_program(rng, max_atoms, false);
    let lower = program.atoms.len();
    add_exclusive_choices(rng, &mut program);
    let elements = |rng: &mut Rng| -> Vec<WeightedElement> {
        let mut atoms: Vec<u32> = (0..lower as u32).filter(|_| rng.chance(70)).collect();
        if lower > 0 && rng.chance(15) {
            atoms.push(rng.below(lower) as u32);
        }
        (atoms.into_iter())
            .map(|a| WeightedElement {
                value: rng.below(7) as i64 - 2,
                conditions: vec![Body::new(vec![AtomId(a)], vec![])],
            })
            .collect()
    };
    let ops = CmpOp::ALL;
    let mut aggregates = Vec::new();
    for i in 0..1 + rng.below(3) {
        let atom = atom_named(&mut program, &format!("#agg{i}"));
        program.atoms[atom.index()].shown = false;
        let guards = (0..1 + rng.below(2))
            .map(|_| (rng.pick(&ops), rng.below(9) as i64 - 2))
            .collect();
        program.aggregates.push(AggregateDefinition {
            atom,
            value: AggregateValue::Sum,
            elements: elements(rng).into(),
            guards,
            origin: Span::default(),
        });
        aggregates.push(atom);
    }
    for i in 0..1 + rng.below(3) {
        let aggregate = rng.pick(&aggregates);
        match rng.below(5) {
            0 => push_rule(&mut program, Head::Constraint, vec![], vec![aggregate]),
            1 => push_rule(&mut program, Head::Constraint, vec![aggregate], vec![]),
            _ => {
                let head = atom_named(&mut program, &format!("s{i}"));
                push_rule(&mut program, Head::Atom(head), vec![aggregate], vec![]);
            }
        }
    }
    if rng.chance(50) {
        program.costs.push(CostLevel {
            priority: 0,
            elements: elements(rng),
        });
    }
    program
}

/// [`random_program`] with aggregates that are recursive most of the time:
/// one to three aggregate atoms whose element conditions read, positively
/// and negatively, the random program's atoms and one to three new atoms
/// `u0`.. that rules over the aggregate atoms define (normal rules, choice
/// rules, constraints). On purpose, an aggregate often derives an atom it
/// reads itself (`u :- A.` with `A` counting `u`), and two aggregates often
/// form a positive cycle. Each aggregate is monotone, antimonotone, convex
/// or non-monotone in its elements (see [`random_recursive_aggregate`]).
pub(crate) fn random_program_with_recursive_aggregates(
    rng: &mut Rng,
    max_atoms: usize,
) -> GroundProgram {
    let mut program = random_program(rng, max_atoms, false);
    let upper: Vec<AtomId> = (0..1 + rng.below(3))
        .map(|i| atom_named(&mut program, &format!("u{i}")))
        .collect();
    let readable: Vec<AtomId> = program.atom_ids().collect();
    for i in 0..1 + rng.below(3) {
        let atom = atom_named(&mut program, &format!("#agg{i}"));
        program.atoms[atom.index()].shown = false;
        let aggregate = random_recursive_aggregate(rng, atom, &readable, &upper);
        program.aggregates.push(aggregate);
    }
    let aggregate_atoms: Vec<AtomId> = program.aggregates.iter().map(|a| a.atom).collect();
    let read_positively = |program: &GroundProgram, k: usize| -> Vec<AtomId> {
        let elements = &program.aggregates[k].elements;
        let conditions = elements.iter().flat_map(|e| &e.conditions);
        let mut atoms: Vec<AtomId> = conditions.flat_map(|c| c.pos().iter().copied()).collect();
        atoms.sort_unstable();
        atoms.dedup();
        atoms
    };
    let atom_or_choice = |rng: &mut Rng, atom: AtomId| {
        if rng.chance(25) {
            Head::choice(
                vec![ChoiceElement {
                    value: atom,
                    conditions: vec![Body::default()],
                }],
                CountBounds::default(),
            )
        } else {
            Head::Atom(atom)
        }
    };
    // Derive an atom that aggregate `reader` reads from aggregate `source`.
    let derive_read_atom = |rng: &mut Rng, program: &mut GroundProgram, reader, source| {
        let read = read_positively(program, reader);
        if !read.is_empty() {
            let atom = rng.pick(&read);
            let head = atom_or_choice(rng, atom);
            let mut pos = vec![aggregate_atoms[source]];
            if rng.chance(25) {
                pos.push(rng.pick(&readable));
            }
            program.rules.push(Rule {
                head,
                body: Body::new(pos, Vec::new()),
                origin: Span::default(),
            });
        }
    };
    for k in 0..aggregate_atoms.len() {
        if rng.chance(50) {
            derive_read_atom(rng, &mut program, k, k);
        }
    }
    if aggregate_atoms.len() >= 2 && rng.chance(40) {
        derive_read_atom(rng, &mut program, 0, 1);
        derive_read_atom(rng, &mut program, 1, 0);
    }
    for _ in 0..1 + rng.below(4) {
        let (mut pos, mut neg) = (Vec::new(), Vec::new());
        if rng.chance(80) {
            pos.push(rng.pick(&aggregate_atoms));
        } else {
            neg.push(rng.pick(&aggregate_atoms));
        }
        if rng.chance(40) {
            pos.push(rng.pick(&readable));
        }
        if rng.chance(25) {
            neg.push(rng.pick(&readable));
        }
        let body = Body::new(pos, neg);
        let head = match rng.below(10) {
            0..=1 => Head::Constraint,
            2..=3 => Head::choice(
                vec![ChoiceElement {
                    value: rng.pick(&readable),
                    conditions: vec![Body::new(vec![rng.pick(&readable)], Vec::new())],
                }],
                CountBounds::default(),
            ),
            4 => Head::Atom(rng.pick(&readable)),
            _ => {
                let atom = rng.pick(&upper);
                atom_or_choice(rng, atom)
            }
        };
        program.rules.push(Rule {
            head,
            body,
            origin: Span::default(),
        });
    }
    program
}

/// An aggregate of one to four elements over `readable` atoms (`upper`
/// ones preferred), chosen evenly among four shapes, by how its truth
/// changes as more elements hold: monotone (`#count` or positive `#sum`
/// with `>=`/`>`, `#max` with `>=`/`>`), antimonotone (the same with
/// `<=`/`<`), convex (`=`, or a lower and an upper guard) and non-monotone
/// (`!=`; or `#sum` with weights of both signs, sometimes two elements with
/// the same condition and opposite signs). `#max` weights are ranks (the
/// empty value below them all), sometimes negated as `#min`'s are.
pub(crate) fn random_recursive_aggregate(
    rng: &mut Rng,
    atom: AtomId,
    readable: &[AtomId],
    upper: &[AtomId],
) -> AggregateDefinition {
    let condition = |rng: &mut Rng| {
        let read = |rng: &mut Rng| {
            if rng.chance(60) {
                rng.pick(upper)
            } else {
                rng.pick(readable)
            }
        };
        let (mut pos, mut neg) = (Vec::new(), Vec::new());
        if rng.chance(90) {
            pos.push(read(rng));
        } else {
            neg.push(read(rng));
        }
        if rng.chance(25) {
            pos.push(rng.pick(readable));
        }
        if rng.chance(20) {
            neg.push(rng.pick(readable));
        }
        Body::new(pos, neg)
    };
    let shape = rng.below(4);
    // One element makes every aggregate monotone or antimonotone.
    let least_elements = if shape >= 2 { 2 } else { 1 };
    let mut elements: Vec<WeightedElement> = (0..least_elements + rng.below(5 - least_elements))
        .map(|_| WeightedElement {
            value: 1,
            conditions: (0..1 + usize::from(rng.chance(20)))
                .map(|_| condition(rng))
                .collect(),
        })
        .collect();
    let (value, least, greatest) = if rng.chance(30) {
        // Ranks 1..=4 and #inf as 0; #min negates both.
        let sign = if rng.chance(30) { -1 } else { 1 };
        for e in &mut elements {
            e.value = sign * (1 + rng.below(4) as i64);
        }
        let weights = elements.iter().map(|e| e.value);
        let empty = weights.clone().min().unwrap().min(0) - i64::from(sign < 0);
        let greatest = weights.max().unwrap();
        (AggregateValue::Max { empty }, empty, greatest)
    } else {
        let mixed_signs = shape == 3 && rng.chance(70);
        let count = !mixed_signs && rng.chance(50);
        for e in &mut elements {
            e.value = match (count, mixed_signs) {
                (true, _) => 1,
                (false, false) => 1 + rng.below(3) as i64,
                (false, true) => rng.pick(&[-3, -2, -1, 1, 2, 3]),
            };
        }
        if mixed_signs && rng.chance(50) {
            let twin = elements[rng.below(elements.len())].clone();
            let weight = -twin.value.signum() * (1 + rng.below(2) as i64);
            elements.push(WeightedElement {
                value: weight,
                ..twin
            });
        }
        let least = elements.iter().map(|e| e.value.min(0)).sum();
        let greatest = elements.iter().map(|e| e.value.max(0)).sum();
        (AggregateValue::Sum, least, greatest)
    };
    // A bound where the guard decides some sets of elements but not all,
    // and now and then one just outside, where it decides them all.
    let bound = |rng: &mut Rng, op: CmpOp| {
        let (low, high) = match op {
            _ if rng.chance(10) => (least - 1, greatest + 1),
            CmpOp::Ge | CmpOp::Lt => (least + 1, greatest),
            CmpOp::Gt | CmpOp::Le => (least, greatest - 1),
            CmpOp::Eq | CmpOp::Ne => (least, greatest),
        };
        low + rng.below((high - low + 1) as usize) as i64
    };
    let guard = |rng: &mut Rng, ops: &[CmpOp]| {
        let op = rng.pick(ops);
        (op, bound(rng, op))
    };
    let (lower, upper) = ([CmpOp::Ge, CmpOp::Gt], [CmpOp::Le, CmpOp::Lt]);
    let guards = match shape {
        0 => vec![guard(rng, &lower)],
        1 => vec![guard(rng, &upper)],
        2 if rng.chance(40) => vec![guard(rng, &[CmpOp::Eq])],
        2 => {
            let ((lower_op, low), (upper_op, high)) = (guard(rng, &lower), guard(rng, &upper));
            vec![(lower_op, low.min(high)), (upper_op, low.max(high))]
        }
        _ => {
            let ops = [CmpOp::Ne, CmpOp::Eq, CmpOp::Le, CmpOp::Ge, CmpOp::Lt];
            let ops: &[CmpOp] = if matches!(value, AggregateValue::Sum) && least < 0 {
                &ops
            } else {
                &[CmpOp::Ne]
            };
            vec![guard(rng, ops)]
        }
    };
    AggregateDefinition {
        atom,
        value,
        elements: elements.into(),
        guards,
        origin: Span::default(),
    }
}

/// A random program over at most `max_atoms` atoms: normal rules,
/// constraints, facts, choice rules with and without bounds and conditions,
/// disjunctions (not always head-cycle-free) and positive loops. With
/// `vary_show`, some atoms are hidden and some show terms are added.
///
/// This generator stays apart from the text-program generator of the
/// integration tests (tests/it/common/generator.rs): it builds a
/// [`GroundProgram`] directly, bypassing the parser and the grounder, so
/// the translation, the solver and the ranking encoding are checked in
/// process against [`stable_models`], a brute force straight from the
/// definition, over every interpretation of at most `max_atoms` atoms. It
/// also writes what no text program reaches through the grounder (rules
/// that are not head-cycle-free, arbitrary ground structure), while the text
/// generator writes non-ground programs for comparison with clingo.
pub(crate) fn random_program(rng: &mut Rng, max_atoms: usize, vary_show: bool) -> GroundProgram {
    let n = 1 + rng.below(max_atoms);
    let names = ["a", "b", "c", "d", "e", "f", "g", "h", "i", "j"];
    let mut program = GroundProgram::default();
    for name in &names[..n] {
        atom_named(&mut program, name);
    }
    let atom = |rng: &mut Rng| AtomId(rng.below(n) as u32);
    let body = |rng: &mut Rng, pos_percent: u64, neg_percent: u64| {
        let (mut pos, mut neg) = (Vec::new(), Vec::new());
        for a in 0..n as u32 {
            if rng.chance(pos_percent) {
                pos.push(AtomId(a));
            } else if rng.chance(neg_percent) {
                neg.push(AtomId(a));
            }
        }
        Body::new(pos, neg)
    };
    let rules = rng.below(11);
    let add = |program: &mut GroundProgram, head: Head, body: Body| {
        program.rules.push(Rule {
            head,
            body,
            origin: Span::default(),
        })
    };
    for _ in 0..rules {
        match rng.below(20) {
            0..=7 => {
                let b = body(rng, 20, 12);
                add(&mut program, Head::Atom(atom(rng)), b);
            }
            8 => {
                let b = body(rng, 25, 15);
                if !b.is_empty() {
                    add(&mut program, Head::Constraint, b);
                }
            }
            10 => add(&mut program, Head::Atom(atom(rng)), Body::default()),
            9 | 11..=14 => {
                let mut elements: Vec<ChoiceElement> = Vec::new();
                for a in 0..n as u32 {
                    if !rng.chance(55) {
                        continue;
                    }
                    let conditions = match rng.below(20) {
                        0..=11 => vec![Body::default()],
                        12..=16 => vec![body(rng, 20, 15)],
                        17..=18 => vec![body(rng, 20, 15), body(rng, 20, 15)],
                        _ => Vec::new(),
                    };
                    elements.push(ChoiceElement {
                        value: AtomId(a),
                        conditions,
                    });
                }
                let k = elements.len();
                let bounds = if rng.chance(50) {
                    CountBounds::default()
                } else {
                    CountBounds {
                        lower: rng.below(k + 2) as u32 * u32::from(rng.chance(60)),
                        upper: if rng.chance(60) {
                            rng.below(k + 2) as u32
                        } else {
                            CountBounds::UNBOUNDED
                        },
                    }
                };
                let b = body(rng, 6, 6);
                add(&mut program, Head::choice(elements, bounds), b);
            }
            15..=16 if n >= 2 => {
                let mut heads = vec![atom(rng), atom(rng)];
                if rng.chance(30) {
                    heads.push(atom(rng));
                }
                heads.sort_unstable();
                heads.dedup();
                let b = body(rng, 15, 12);
                if heads.len() >= 2 {
                    add(&mut program, Head::Disjunction(heads), b);
                } else {
                    add(&mut program, Head::Atom(heads[0]), b);
                }
            }
            _ => {
                // A positive loop x :- y, B. y :- x.
                let (x, y) = (atom(rng), atom(rng));
                let b = body(rng, 10, 15);
                add(
                    &mut program,
                    Head::Atom(x),
                    b.and(&Body::new(vec![y], Vec::new())),
                );
                add(&mut program, Head::Atom(y), Body::new(vec![x], Vec::new()));
            }
        }
    }
    if vary_show {
        for a in program.atoms.iter_mut() {
            a.shown = rng.chance(75);
        }
        let extra = [
            program.symbols.function("t", &[], false),
            program.symbols.number(rng.below(3) as i32),
        ];
        for _ in 0..rng.below(3) {
            let term = if rng.chance(30) {
                program.atoms[rng.below(n)].symbol
            } else {
                extra[rng.below(2)]
            };
            let b = body(rng, 20, 20);
            program.show_terms.push(ShowTerm { term, body: b });
        }
    }
    program
}

/// [`random_program`] with a sum assignment on top, in the shape the
/// grounder writes `val(S) :- S = #sum{..}.`: an aggregate atom `#agg(k) ↔
/// Σ = v` over the same elements for each value `v` the sum may take (now
/// and then one left out), each read through a copy `val(v) :- #agg(k).`
/// (now and then with a second rule) or directly; then, each now and then, an objective level over the
/// values whose weights are affine in them (now and then one weight off,
/// or read through a cost atom `c(v) :- val(v).`), constraints forbidding
/// the values above or below a threshold (now and then one spared), a rule
/// reading a value, and two atoms on a negative cycle over a value
/// (`r1 :- val(v), not r2. r2 :- not r1.`): the shapes that
/// `crate::ground::assignments` folds and `crate::translate::unread`
/// leaves out, and those they must not.
pub(crate) fn random_program_with_assignments(rng: &mut Rng, max_atoms: usize) -> GroundProgram {
    let mut program = random_program(rng, max_atoms, false);
    let lower = program.atoms.len() as u32;
    let element = |rng: &mut Rng| {
        let conditions = match rng.below(10) {
            0 => vec![Body::default()],
            1 => vec![Body::new(vec![AtomId(rng.below(lower as usize) as u32)], vec![]); 2],
            _ => {
                let atom = AtomId(rng.below(lower as usize) as u32);
                match rng.chance(75) {
                    true => vec![Body::new(vec![atom], vec![])],
                    false => vec![Body::new(vec![], vec![atom])],
                }
            }
        };
        WeightedElement {
            value: rng.below(6) as i64 - 2,
            conditions,
        }
    };
    let mut elements: Vec<WeightedElement> = (0..3).map(|_| element(rng)).collect();
    let mut values = subset_sums(&elements);
    if values.len() > 5 {
        elements.pop();
        values = subset_sums(&elements);
    }
    // One list shared by the family, as the grounder shares it.
    let elements: Elements = elements.into();
    let mut readers: Vec<(i64, AtomId)> = Vec::new();
    for (k, &v) in values.iter().enumerate() {
        if rng.chance(8) {
            continue;
        }
        let name = program.symbols.name("#agg");
        let number = program.symbols.number(k as i32);
        let aggregate = new_atom(&mut program, name, number, false);
        program.aggregates.push(AggregateDefinition {
            atom: aggregate,
            value: AggregateValue::Sum,
            elements: elements.clone(),
            guards: vec![(CmpOp::Eq, v)],
            origin: Span::default(),
        });
        let reader = if rng.chance(75) {
            let name = program.symbols.name("val");
            let number = program.symbols.number(v as i32);
            let copy = new_atom(&mut program, name, number, rng.chance(85));
            push_rule(&mut program, Head::Atom(copy), vec![aggregate], vec![]);
            if rng.chance(10) {
                // A second rule, before or after: no longer a copy.
                let other = AtomId(rng.below(lower as usize) as u32);
                push_rule(&mut program, Head::Atom(copy), vec![other], vec![]);
                if rng.chance(50) {
                    let last = program.rules.len() - 1;
                    program.rules.swap(last - 1, last);
                }
            }
            copy
        } else {
            aggregate
        };
        readers.push((v, reader));
    }
    if !readers.is_empty() {
        add_value_readers(rng, &mut program, &readers);
    }
    program
}

/// The objective, constraints and rules over an assignment's values of
/// [`random_program_with_assignments`].
fn add_value_readers(rng: &mut Rng, program: &mut GroundProgram, readers: &[(i64, AtomId)]) {
    if rng.chance(70) {
        let (a, b) = (rng.below(5) as i64 - 2, rng.below(5) as i64 - 2);
        let off = rng.chance(15).then(|| rng.below(readers.len()));
        let mut elements = Vec::new();
        for (i, &(v, reader)) in readers.iter().enumerate() {
            let condition = if rng.chance(20) {
                let name = program.symbols.name("c");
                let number = program.symbols.number(v as i32);
                let cost = new_atom(program, name, number, false);
                push_rule(program, Head::Atom(cost), vec![reader], vec![]);
                cost
            } else {
                reader
            };
            elements.push(WeightedElement {
                value: a * v + b + i64::from(off == Some(i)),
                conditions: vec![Body::new(vec![condition], vec![])],
            });
        }
        program.costs.push(CostLevel {
            priority: 1,
            elements,
        });
    }
    if rng.chance(60) {
        let threshold = rng.pick(readers).0;
        let above = rng.chance(50);
        let spared = rng.chance(20).then(|| rng.below(readers.len()));
        for (i, &(v, reader)) in readers.iter().enumerate() {
            if (v > threshold) == above && v != threshold && spared != Some(i) {
                push_rule(program, Head::Constraint, vec![reader], vec![]);
            }
        }
    }
    let last = program.atoms.len();
    if rng.chance(25) {
        let x = atom_named(program, "x");
        let y = AtomId(rng.below(last) as u32);
        push_rule(program, Head::Atom(x), vec![rng.pick(readers).1], vec![y]);
    }
    if rng.chance(15) {
        let (r1, r2) = (atom_named(program, "r1"), atom_named(program, "r2"));
        push_rule(program, Head::Atom(r1), vec![rng.pick(readers).1], vec![r2]);
        push_rule(program, Head::Atom(r2), vec![], vec![r1]);
    }
}

/// A new atom `name(number)`.
fn new_atom(program: &mut GroundProgram, name: NameId, number: SymId, shown: bool) -> AtomId {
    let symbol = program.symbols.function_of(name, &[number], false);
    program.atoms.push(Atom {
        symbol,
        shown,
        fact: false,
    });
    AtomId(program.atoms.len() as u32 - 1)
}

/// One or two choices of at most one (`{…} 1` or `1 {…} 1`) with empty
/// bodies over some of `program`'s atoms, sometimes overlapping: the sets
/// of the translation's exclusive sets.
fn add_exclusive_choices(rng: &mut Rng, program: &mut GroundProgram) {
    let atoms = program.atoms.len() as u32;
    for _ in 0..1 + rng.below(2) {
        let elements: Vec<ChoiceElement> = (0..atoms)
            .filter(|_| rng.chance(60))
            .map(|a| ChoiceElement {
                value: AtomId(a),
                conditions: vec![Body::default()],
            })
            .collect();
        let bounds = CountBounds {
            lower: u32::from(rng.chance(30)),
            upper: 1,
        };
        push_rule(program, Head::choice(elements, bounds), vec![], vec![]);
    }
}

/// [`random_program`] with choices of at most one as
/// [`random_program_with_exclusive_sums`] has, and one or two choices with
/// bounds (a lower, an upper or both, from 0 to one past the elements)
/// over some of the atoms, in those sets or not: elements with a condition
/// now and then, the body empty or of one literal. Their bounds are
/// diagrams over the sets where the sets gather the elements enough
/// ([`crate::translate::cardinality::encode_bounds`]).
pub(crate) fn random_program_with_bounds_over_sets(
    rng: &mut Rng,
    max_atoms: usize,
) -> GroundProgram {
    let mut program = random_program(rng, max_atoms, false);
    add_exclusive_choices(rng, &mut program);
    let atoms = program.atoms.len();
    for _ in 0..1 + rng.below(2) {
        let mut elements: Vec<ChoiceElement> = Vec::new();
        for a in 0..atoms as u32 {
            if !rng.chance(70) {
                continue;
            }
            let condition = if rng.chance(15) {
                Body::new(vec![AtomId(rng.below(atoms) as u32)], vec![])
            } else {
                Body::default()
            };
            elements.push(ChoiceElement {
                value: AtomId(a),
                conditions: vec![condition],
            });
        }
        let n = elements.len() + 2;
        let (lower, upper) = match rng.below(3) {
            0 => (rng.below(n), None),
            1 => (0, Some(rng.below(n))),
            _ => (rng.below(n), Some(rng.below(n))),
        };
        let bounds = CountBounds {
            lower: lower as u32,
            upper: upper.map_or(CountBounds::UNBOUNDED, |u| u as u32),
        };
        let (pos, neg) = match rng.below(4) {
            0 => (vec![AtomId(rng.below(atoms) as u32)], vec![]),
            1 => (vec![], vec![AtomId(rng.below(atoms) as u32)]),
            _ => (vec![], vec![]),
        };
        push_rule(&mut program, Head::choice(elements, bounds), pos, neg);
    }
    program
}

fn push_rule(program: &mut GroundProgram, head: Head, pos: Vec<AtomId>, neg: Vec<AtomId>) {
    program.rules.push(Rule {
        head,
        body: Body::new(pos, neg),
        origin: Span::default(),
    });
}

/// The sums of the subsets of `elements`' weights (an unconditional
/// element in every subset, one without conditions in none), sorted.
fn subset_sums(elements: &[WeightedElement]) -> Vec<i64> {
    let mut sums = vec![0];
    for element in elements.iter().filter(|e| !e.conditions.is_empty()) {
        let shifted: Vec<i64> = sums.iter().map(|s| s + element.value).collect();
        if element.is_unconditional() {
            sums = shifted;
        } else {
            sums.extend(shifted);
        }
    }
    sums.sort_unstable();
    sums.dedup();
    sums
}
