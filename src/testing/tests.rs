use super::*;
use crate::diagnostics::Span;
use crate::ground::program::{
    AggregateDefinition, AtomId, Body, GroundProgram, Head, Rule, WeightedElement,
};

/// The answer sets of a program in the tiny syntax, as sorted names.
fn answer_sets(text: &str) -> Vec<Vec<String>> {
    shown_answer_sets(&parse(text))
}

fn sets(expected: &[&[&str]]) -> Vec<Vec<String>> {
    let mut sets: Vec<Vec<String>> = expected
        .iter()
        .map(|set| set.iter().map(|s| s.to_string()).collect())
        .collect();
    sets.sort();
    sets
}

/// Each program's answer sets are derived by hand below, and agree
/// with clingo 5.4's.
#[test]
fn checker_on_hand_written_aggregate_programs() {
    let cases: &[(&str, &[&[&str]])] = &[
        // F = a, so a :- a: only the empty set.
        ("s = #count{a} >= 1. a :- s.", &[&[]]),
        // F = a | b: {a, b} is stable (b chosen, then a); {a} is not,
        // since {} satisfies a :- a | b.
        ("{b}. s = #count{a; b} >= 1. a :- s.", &[&[], &["a", "b"]]),
        // F = not a, as a :- not a: none.
        ("s = #count{a} <= 0. a :- s.", &[]),
        // F = (c -> b). The only model with a is {a, b, c}, and {c}
        // satisfies its reduct (the implication fails in {c}); {c}
        // alone has no support. None.
        ("s = #sum{1: b; -1: c} >= 0. a :- s. b :- a. c :- a.", &[]),
        // F = q, so p :- q: {} and {p, q}.
        (
            "s = #count{q} = 1. p :- s. q :- p. {q}.",
            &[&[], &["p", "q"]],
        ),
        // F = not not b: a :- not not b. b :- a.
        (
            "s = #count{not b} <= 0. a :- s. b :- a.",
            &[&[], &["a", "b"]],
        ),
        // b :- not a. a :- b: none.
        ("s = #count{a} >= 1. b :- not s. a :- b.", &[]),
        // A positive cycle through two aggregates, founded only by the
        // choice of a.
        (
            "s = #count{a} >= 1. t = #sum{2: b} > 1. b :- s. a :- t. {a}.",
            &[&[], &["a", "b"]],
        ),
        (
            "s = #count{a} >= 1. t = #count{b} >= 1. b :- s. a :- t.",
            &[&[]],
        ),
        // A choice supported only by itself.
        ("s = #count{a} >= 1. {a} :- s.", &[&[]]),
        // F = a (the max is 2 iff a holds): {b} only with the choice.
        ("s = #max{2: a; 1: b} >= 2. a :- s. {b}.", &[&[], &["b"]]),
        // Convex: a chosen makes the count 1, so b, so 2; {b} alone has
        // no support (its reduct needs the count 1 from {}).
        ("s = #count{a; b} = 1. {a}. b :- s.", &[&[]]),
        // Disjunction and an aggregate over it.
        ("a | b. s = #count{a} >= 1. c :- s.", &[&["a", "c"], &["b"]]),
        // Weights of both signs on one atom: #sum{1: a; -1: a} is 0
        // whatever a is, so s holds and a is derived.
        ("s = #sum{1: a; -1: a} >= 0. a :- s.", &[&["a"]]),
    ];
    for (text, expected) in cases {
        assert_eq!(answer_sets(text), sets(expected), "{text}");
    }
}

/// A propositional formula, to evaluate the Ferraris reduct literally.
enum Formula {
    Atom(u32),
    Not(Box<Formula>),
    And(Vec<Formula>),
    Or(Vec<Formula>),
    Implies(Box<Formula>, Box<Formula>),
}

impl Formula {
    fn holds(&self, model: u64) -> bool {
        match self {
            Formula::Atom(a) => model >> a & 1 == 1,
            Formula::Not(f) => !f.holds(model),
            Formula::And(fs) => fs.iter().all(|f| f.holds(model)),
            Formula::Or(fs) => fs.iter().any(|f| f.holds(model)),
            Formula::Implies(f, g) => !f.holds(model) || g.holds(model),
        }
    }

    /// Whether `smaller` satisfies the reduct `F^model`: `⊥` where
    /// `F` is false in `model`, else the connective over the reducts
    /// (`¬G` is `G → ⊥`, whose reduct is then `⊥ → ⊥`).
    fn reduct_holds(&self, model: u64, smaller: u64) -> bool {
        self.holds(model)
            && match self {
                Formula::Atom(a) => smaller >> a & 1 == 1,
                Formula::Not(_) => true,
                Formula::And(fs) => fs.iter().all(|f| f.reduct_holds(model, smaller)),
                Formula::Or(fs) => fs.iter().any(|f| f.reduct_holds(model, smaller)),
                Formula::Implies(f, g) => {
                    !f.reduct_holds(model, smaller) || g.reduct_holds(model, smaller)
                }
            }
    }
}

/// `F_A` as Ferraris defines it: for each set `I` of elements whose
/// weights violate the guards, `⋀I → ⋁(E∖I)`; an element is the
/// disjunction of its conditions.
fn aggregate_formula(aggregate: &AggregateDefinition) -> Formula {
    let element = |e: &WeightedElement| {
        let literals = |c: &Body| {
            let pos = c.pos().iter().map(|a| Formula::Atom(a.0));
            let neg = c
                .neg()
                .iter()
                .map(|a| Formula::Not(Box::new(Formula::Atom(a.0))));
            Formula::And(pos.chain(neg).collect())
        };
        Formula::Or(e.conditions.iter().map(literals).collect())
    };
    let elements = &aggregate.elements;
    let violating = (0..1u32 << elements.len()).filter(|&set| {
        let weights = elements
            .iter()
            .enumerate()
            .filter(|&(i, _)| set >> i & 1 == 1);
        !guards_hold(aggregate, weights.map(|(_, e)| e.value))
    });
    let implications = violating.map(|set| {
        let (inside, outside): (Vec<_>, Vec<_>) = elements
            .iter()
            .enumerate()
            .partition(|&(i, _)| set >> i & 1 == 1);
        let inside = inside.into_iter().map(|(_, e)| element(e));
        let outside = outside.into_iter().map(|(_, e)| element(e));
        Formula::Implies(
            Box::new(Formula::And(inside.collect())),
            Box::new(Formula::Or(outside.collect())),
        )
    });
    Formula::And(implications.collect())
}

/// The shortcut the checker takes for `F_A^M` against the reduct of
/// the formula itself, on random aggregates of every shape over four
/// atoms, in every model and every subset of it.
#[test]
fn aggregate_reduct_is_the_ferraris_reduct_of_its_formula() {
    let mut rng = Rng::new(11);
    let atoms: Vec<AtomId> = (0..4).map(AtomId).collect();
    let aggregate_atom = AtomId(4);
    let (mut checked, mut differs_from_model) = (0, 0);
    for _ in 0..1000 {
        let aggregate = random_recursive_aggregate(&mut rng, aggregate_atom, &atoms, &atoms);
        let formula = aggregate_formula(&aggregate);
        for atoms_true in 0..1u64 << 4 {
            let holds = aggregate_holds(&aggregate, atoms_true);
            assert_eq!(formula.holds(atoms_true), holds, "{aggregate:?}");
            let model = atoms_true | u64::from(holds) << aggregate_atom.0;
            let mut smaller = atoms_true;
            loop {
                let expected = formula.reduct_holds(model, smaller);
                let shortcut = aggregate_reduct_holds(&aggregate, model, smaller);
                assert_eq!(
                    shortcut, expected,
                    "{aggregate:?} in {model:b}, {smaller:b}"
                );
                differs_from_model += usize::from(holds && !expected);
                checked += 1;
                if smaller == 0 {
                    break;
                }
                smaller = (smaller - 1) & atoms_true;
            }
        }
    }
    assert!(checked > 50_000, "{checked}");
    assert!(differs_from_model > 5000, "{differs_from_model}");
}

/// On normal programs with aggregates that are not recursive, the
/// search over subsets answers exactly as the least model of the reduct
/// with the aggregate atoms as facts (the checker before recursive
/// aggregates).
#[test]
fn subset_check_agrees_with_least_model_without_recursion() {
    let mut rng = Rng::new(909);
    let (mut compared, mut nontrivial) = (0, 0);
    for round in 0..3000 {
        let program = random_program_with_aggregates(&mut rng, 7);
        let disjunctive = program
            .rules
            .iter()
            .any(|r| matches!(r.head, Head::Disjunction(_)));
        if disjunctive {
            continue;
        }
        assert!(recursive_aggregates(&program).is_empty());
        let expected = stable_models_by(&program, Minimality::LeastModel);
        let by_subsets = stable_models_by(&program, Minimality::NoSmallerModel);
        assert_eq!(by_subsets, expected, "round {round}: {program:?}");
        compared += 1;
        nontrivial += usize::from(expected.len() > 1);
    }
    assert!(compared > 2000, "{compared}");
    assert!(nontrivial > 300, "{nontrivial} with several answer sets");
}

/// Which families of element sets satisfy an aggregate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Shape {
    /// Closed under adding elements.
    Monotone,
    /// Closed under removing elements.
    Antimonotone,
    /// Every set between two satisfying ones satisfies.
    Convex,
    NonMonotone,
}

/// Whether each set of elements (a bit mask) satisfies the guards.
fn satisfying_sets(aggregate: &AggregateDefinition) -> Vec<bool> {
    let elements = &aggregate.elements;
    (0..1u32 << elements.len())
        .map(|set| {
            let weights = elements
                .iter()
                .enumerate()
                .filter(|&(i, _)| set >> i & 1 == 1);
            guards_hold(aggregate, weights.map(|(_, e)| e.value))
        })
        .collect()
}

/// The sets with a satisfying subset (`up`) or superset (`!up`).
fn closure(satisfying: &[bool], up: bool) -> Vec<bool> {
    let sets = 0..satisfying.len() as u32;
    sets.clone()
        .map(|t| {
            let related = |s: u32| if up { s & !t == 0 } else { t & !s == 0 };
            sets.clone().any(|s| satisfying[s as usize] && related(s))
        })
        .collect()
}

fn shape(aggregate: &AggregateDefinition) -> Shape {
    let satisfying = satisfying_sets(aggregate);
    let (up, down) = (closure(&satisfying, true), closure(&satisfying, false));
    if satisfying == up {
        Shape::Monotone
    } else if satisfying == down {
        Shape::Antimonotone
    } else if (0..satisfying.len()).all(|s| satisfying[s] == (up[s] && down[s])) {
        Shape::Convex
    } else {
        Shape::NonMonotone
    }
}

/// The minimal element sets among those `family` picks.
fn minimal_sets(family: &[bool]) -> Vec<u32> {
    let sets = 0..family.len() as u32;
    let picked = |s: &u32| family[*s as usize];
    sets.clone()
        .filter(picked)
        .filter(|&s| !sets.clone().filter(picked).any(|t| t != s && t & !s == 0))
        .collect()
}

/// The program with each convex aggregate atom `A` replaced by normal
/// rules (clasp's translation of convex aggregates): `A :- C, not V`
/// for each minimal satisfying element set, `C` one condition of each
/// of its elements, and `V :- C` for each minimal set no satisfying set
/// contains. `None` when some aggregate is not convex.
fn unfold_convex_aggregates(program: &GroundProgram) -> Option<GroundProgram> {
    let mut unfolded = program.clone();
    unfolded.aggregates.clear();
    for (k, aggregate) in program.aggregates.iter().enumerate() {
        if shape(aggregate) == Shape::NonMonotone {
            return None;
        }
        let violated = atom_named(&mut unfolded, &format!("#violated{k}"));
        unfolded.atoms[violated.index()].shown = false;
        let satisfying = satisfying_sets(aggregate);
        let outside: Vec<bool> = closure(&satisfying, false).iter().map(|&d| !d).collect();
        let families = [
            (
                satisfying,
                aggregate.atom,
                Body::new(Vec::new(), vec![violated]),
            ),
            (outside, violated, Body::default()),
        ];
        for (family, head, extra) in families {
            for set in minimal_sets(&family) {
                // Every combination of one condition per element.
                let mut bodies = vec![extra.clone()];
                for (i, e) in aggregate.elements.iter().enumerate() {
                    if set >> i & 1 == 1 {
                        bodies = bodies
                            .iter()
                            .flat_map(|b| e.conditions.iter().map(|c| b.and(c)))
                            .collect();
                    }
                }
                for body in bodies {
                    unfolded.rules.push(Rule {
                        head: Head::Atom(head),
                        body,
                        origin: Span::default(),
                    });
                }
            }
        }
    }
    Some(unfolded)
}

/// Convex (monotone, antimonotone) aggregates, recursive or not, have
/// the answer sets of their unfolding into normal rules, which the
/// least-model check decides without aggregates: an independent check
/// of the search over subsets.
#[test]
fn convex_recursive_aggregates_match_their_unfolding() {
    let mut rng = Rng::new(31);
    let (mut compared, mut recursive, mut nontrivial) = (0, 0, 0);
    for round in 0..5000 {
        let program = random_program_with_recursive_aggregates(&mut rng, 5);
        let Some(unfolded) = unfold_convex_aggregates(&program) else {
            continue;
        };
        let original_atoms = (1u64 << program.atoms.len()) - 1;
        let mut expected: Vec<u64> = stable_models(&unfolded)
            .into_iter()
            .map(|m| m & original_atoms)
            .collect();
        expected.sort_unstable();
        let models = stable_models(&program);
        assert_eq!(models, expected, "round {round}: {program:?}");
        compared += 1;
        recursive += usize::from(!recursive_aggregates(&program).is_empty());
        nontrivial += usize::from(models.len() > 1);
    }
    assert!(compared > 3000, "{compared}");
    assert!(recursive > 2500, "{recursive} recursive");
    assert!(nontrivial > 450, "{nontrivial} with several answer sets");
}

/// The recursive generator recurses through aggregates of every shape,
/// through one aggregate deriving what it reads, through two, and into
/// choice heads; its answer sets are supported models.
#[test]
fn recursive_aggregate_generator_covers_every_shape() {
    let mut rng = Rng::new(5);
    let mut recursive_shapes = [0; 4];
    let (mut self_support, mut two_aggregate_cycles, mut recursive_choices) = (0, 0, 0);
    let (mut with_answer_sets, mut mixed_weights, mut opposite_twins) = (0, 0, 0);
    let rounds = 2000;
    for _ in 0..rounds {
        let program = random_program_with_recursive_aggregates(&mut rng, 5);
        let reach = positive_reach(&program);
        let recursive = recursive_aggregates(&program);
        for a in program
            .aggregates
            .iter()
            .filter(|a| recursive.contains(&a.atom))
        {
            recursive_shapes[shape(a) as usize] += 1;
            let weights = a.elements.iter().map(|e| e.value);
            mixed_weights +=
                usize::from(weights.clone().any(|w| w < 0) && weights.clone().any(|w| w > 0));
            opposite_twins += usize::from(a.elements.iter().any(|e| {
                let twin =
                    |f: &&WeightedElement| f.conditions == e.conditions && f.value * e.value < 0;
                a.elements.iter().any(|f| twin(&f))
            }));
        }
        let depends = |x: AtomId, y: AtomId| reach[x.index()] >> y.0 & 1 == 1;
        self_support += usize::from(program.rules.iter().any(|r| {
            let Head::Atom(h) = r.head else { return false };
            let sources = program
                .aggregates
                .iter()
                .filter(|a| r.body.pos().contains(&a.atom));
            sources.clone().any(|a| {
                a.elements
                    .iter()
                    .flat_map(|e| &e.conditions)
                    .any(|c| c.pos().contains(&h))
            })
        }));
        two_aggregate_cycles += usize::from(recursive.iter().any(|&a| {
            recursive
                .iter()
                .any(|&b| a != b && depends(a, b) && depends(b, a))
        }));
        recursive_choices += usize::from(program.rules.iter().any(|r| match &r.head {
            Head::Choice(choice) => choice.elements.iter().any(|e| {
                r.body
                    .pos()
                    .iter()
                    .any(|&a| recursive.contains(&a) && depends(a, e.value))
            }),
            _ => false,
        }));
        let stable = stable_models(&program);
        let supported = supported_models(&program);
        assert!(stable.iter().all(|m| supported.contains(m)), "{program:?}");
        with_answer_sets += usize::from(!stable.is_empty());
    }
    for shape in [
        Shape::Monotone,
        Shape::Antimonotone,
        Shape::Convex,
        Shape::NonMonotone,
    ] {
        let count = recursive_shapes[shape as usize];
        assert!(count > 250, "{count} recursive {shape:?} aggregates");
    }
    assert!(
        self_support > 1000,
        "{self_support} with u :- A, A reading u"
    );
    assert!(
        two_aggregate_cycles > 500,
        "{two_aggregate_cycles} through two aggregates"
    );
    assert!(
        recursive_choices > 700,
        "{recursive_choices} recursive choices"
    );
    assert!(
        mixed_weights > 200,
        "{mixed_weights} with weights of both signs"
    );
    assert!(
        opposite_twins > 120,
        "{opposite_twins} with one condition of both signs"
    );
    assert!(
        with_answer_sets > rounds / 2,
        "{with_answer_sets} with answer sets"
    );
}
