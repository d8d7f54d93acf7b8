//! Answer sets by brute force over every set of atoms, straight from the
//! definitions: models, supported models, stable models (least models of
//! the reduct, aggregates under the Ferraris reduct), shown symbols and
//! costs, and the structure of a program the checks ask about
//! (head-cycle-freeness, recursive aggregates).

use crate::ground::program::{
    AggregateDefinition, AggregateValue, AtomId, Body, GroundProgram, Head,
};
use crate::symbols::SymId;
use crate::translate::Translation;
use varisat::{CnfFormula, ExtendFormula, Lit, Solver};

/// The stable models of `program`, each its shown symbols as text, sorted:
/// answer sets to compare with another way of computing them.
pub(crate) fn shown_answer_sets(program: &GroundProgram) -> Vec<Vec<String>> {
    let mut sets: Vec<Vec<String>> = (stable_models(program).into_iter())
        .map(|model| {
            let shown = shown_of(program, model).into_iter();
            let mut set: Vec<String> = shown
                .map(|s| program.symbols.display(s).to_string())
                .collect();
            set.sort();
            set
        })
        .collect();
    sets.sort();
    sets
}

/// The shown symbols of an interpretation (a bit mask over the atoms), as
/// the enumerator reports them: sorted by clingo's order, distinct.
pub(crate) fn shown_of(program: &GroundProgram, model: u64) -> Vec<SymId> {
    let mut shown: Vec<SymId> = program
        .atoms
        .iter()
        .enumerate()
        .filter(|&(i, atom)| atom.shown && model >> i & 1 == 1)
        .map(|(_, atom)| atom.symbol)
        .chain(
            program
                .show_terms
                .iter()
                .filter(|t| holds(&mask(&t.body), model))
                .map(|t| t.term),
        )
        .collect();
    shown.sort_by(|&x, &y| program.symbols.compare(x, y));
    shown.dedup();
    shown
}

#[derive(Clone, Copy)]
pub(crate) struct MaskBody {
    pos: u64,
    neg: u64,
}

/// The cost vector of a model (the atoms of `model`), highest priority
/// first.
pub(crate) fn costs_of(program: &GroundProgram, model: u64) -> Vec<i64> {
    (program.costs.iter())
        .map(|level| {
            (level.elements.iter())
                .filter(|e| e.conditions.iter().any(|c| holds(&mask(c), model)))
                .map(|e| e.value)
                .sum()
        })
        .collect()
}

/// The stable models whose cost vector is lexicographically least, and
/// that vector; `None` when there is no stable model.
pub(crate) fn optimal_models(program: &GroundProgram) -> Option<(Vec<i64>, Vec<u64>)> {
    let models = stable_models(program);
    let optimum = models.iter().map(|&m| costs_of(program, m)).min()?;
    let optimal = (models.into_iter())
        .filter(|&m| costs_of(program, m) == optimum)
        .collect();
    Some((optimum, optimal))
}

pub(crate) fn mask(body: &Body) -> MaskBody {
    let bits = |atoms: &[AtomId]| atoms.iter().fold(0u64, |m, a| m | 1 << a.0);
    MaskBody {
        pos: bits(body.pos()),
        neg: bits(body.neg()),
    }
}

pub(crate) fn holds(body: &MaskBody, model: u64) -> bool {
    body.pos & !model == 0 && body.neg & model == 0
}

/// The atoms that stand for aggregates.
pub(crate) fn aggregate_atom_mask(program: &GroundProgram) -> u64 {
    let atoms = program.aggregates.iter().map(|a| a.atom);
    atoms.fold(0, |m, a| m | 1 << a.0)
}

/// The atoms flagged as facts.
pub(crate) fn fact_mask(program: &GroundProgram) -> u64 {
    let facts = program.atoms.iter().enumerate().filter(|(_, a)| a.fact);
    facts.fold(0, |m, (i, _)| m | 1 << i)
}

/// Whether `model` satisfies every rule classically (bounds included).
pub(crate) fn is_model(program: &GroundProgram, model: u64) -> bool {
    let facts = fact_mask(program);
    facts & !model == 0
        && program
            .aggregates
            .iter()
            .all(|a| (model >> a.atom.0 & 1 == 1) == aggregate_holds(a, model))
        && program.rules.iter().all(|rule| {
            if !holds(&mask(&rule.body), model) {
                return true;
            }
            match &rule.head {
                Head::Constraint => false,
                Head::Atom(h) => model >> h.0 & 1 == 1,
                Head::Disjunction(hs) => hs.iter().any(|h| model >> h.0 & 1 == 1),
                Head::Choice(choice) => {
                    let count = choice
                        .elements
                        .iter()
                        .filter(|e| {
                            model >> e.value.0 & 1 == 1
                                && e.conditions.iter().any(|c| holds(&mask(c), model))
                        })
                        .count() as u32;
                    choice.bounds.lower <= count
                        && choice.bounds.upper_bound().is_none_or(|u| count <= u)
                }
            }
        })
}

/// The stable models, as bit masks over the atoms (at most 63 atoms; meant
/// for a dozen or so), by the Ferraris reduct ("Logic programs with
/// propositional connectives and aggregates", TOCL 2011), which is clingo's
/// semantics ("Abstract Gringo", TPLP 2015). An aggregate atom `A` stands
/// for its formula `F_A`: the conjunction, over the sets `I` of elements
/// whose weights violate the guards, of `⋀I → ⋁(E∖I)`. A model `M` is
/// stable iff no proper subset of its atoms other than aggregate atoms
/// satisfies the reduct `P^M`:
/// the rules whose negative literals hold in `M`, without them (`not A`
/// included, true iff `F_A` is false in `M`); a choice element with
/// its atom in `M` becomes the rule `atom :- body, condition`; a positive
/// occurrence of `A` becomes `F_A^M` (see [`aggregate_reduct_holds`]).
///
/// Programs that are normal and free of aggregates take the least model of
/// their (Horn) reduct instead of the search over subsets.
pub(crate) fn stable_models(program: &GroundProgram) -> Vec<u64> {
    let disjunctive = program
        .rules
        .iter()
        .any(|r| matches!(r.head, Head::Disjunction(_)));
    let minimality = if disjunctive || !program.aggregates.is_empty() {
        Minimality::NoSmallerModel
    } else {
        Minimality::LeastModel
    };
    stable_models_by(program, minimality)
}

/// How [`stable_models_by`] checks that a model is minimal for its reduct.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Minimality {
    /// `M` is the least model of the reduct, with every aggregate atom of
    /// `M` a fact. Exact for normal programs whose aggregates are not
    /// recursive: the aggregates are then decided below the rules that use
    /// them (splitting), and the reduct is Horn.
    LeastModel,
    /// No proper subset of `M`'s atoms other than aggregate atoms satisfies
    /// the reduct, aggregates evaluated by [`aggregate_reduct_holds`].
    /// Exact for every program.
    NoSmallerModel,
}

pub(crate) fn stable_models_by(program: &GroundProgram, minimality: Minimality) -> Vec<u64> {
    let n = program.atoms.len();
    assert!(n < 64);
    let aggregate_atoms = aggregate_atom_mask(program);
    // Aggregates are not nested: no aggregate atom in an element condition.
    for element in program.aggregates.iter().flat_map(|a| a.elements.iter()) {
        for condition in element.conditions.iter().map(mask) {
            assert_eq!((condition.pos | condition.neg) & aggregate_atoms, 0);
        }
    }
    let mut stable = Vec::new();
    let mut reduct: Vec<(u64, u64)> = Vec::new();
    for model in 0..1u64 << n {
        if !is_model(program, model) {
            continue;
        }
        reduct_rules(program, model, &mut reduct);
        let is_stable = match minimality {
            Minimality::LeastModel => {
                reduct.push((0, model & aggregate_atoms));
                least_model(&reduct) == model
            }
            Minimality::NoSmallerModel => {
                // The aggregate atoms whose reduct holds in `smaller` join
                // it; the reduct's rules then read them as atoms.
                let satisfies = |smaller: u64| {
                    let with_aggregates = program
                        .aggregates
                        .iter()
                        .filter(|a| aggregate_reduct_holds(a, model, smaller))
                        .fold(smaller, |m, a| m | 1 << a.atom.0);
                    reduct.iter().all(|&(pos, heads)| {
                        pos & !with_aggregates != 0 || heads & with_aggregates != 0
                    })
                };
                let atoms = model & !aggregate_atoms;
                let mut smaller = atoms;
                let mut minimal = true;
                while smaller != 0 {
                    smaller = (smaller - 1) & atoms;
                    if satisfies(smaller) {
                        minimal = false;
                        break;
                    }
                }
                minimal
            }
        };
        if is_stable {
            stable.push(model);
        }
    }
    stable
}

/// The rules of the reduct `P^M` as (positive body, head atoms) masks:
/// facts, rules whose negative body is false in `model`, and choice
/// elements whose atom is in `model`. A positive body may contain
/// aggregate atoms; constraints are left out, since `model` satisfies them.
pub(crate) fn reduct_rules(program: &GroundProgram, model: u64, reduct: &mut Vec<(u64, u64)>) {
    reduct.clear();
    let facts = program.atoms.iter().enumerate().filter(|(_, a)| a.fact);
    reduct.extend(facts.map(|(i, _)| (0, 1 << i)));
    for rule in &program.rules {
        let body = mask(&rule.body);
        if body.neg & model != 0 {
            continue;
        }
        match &rule.head {
            Head::Constraint => {}
            Head::Atom(h) => reduct.push((body.pos, 1 << h.0)),
            Head::Disjunction(hs) => {
                reduct.push((body.pos, hs.iter().fold(0, |m, h| m | 1 << h.0)))
            }
            Head::Choice(choice) => {
                for e in choice
                    .elements
                    .iter()
                    .filter(|e| model >> e.value.0 & 1 == 1)
                {
                    for c in e.conditions.iter().map(mask) {
                        if c.neg & model == 0 {
                            reduct.push((body.pos | c.pos, 1 << e.value.0));
                        }
                    }
                }
            }
        }
    }
}

/// The least model of Horn rules (positive body, head atom) masks.
pub(crate) fn least_model(rules: &[(u64, u64)]) -> u64 {
    let mut derived = 0u64;
    loop {
        let before = derived;
        for &(pos, head) in rules {
            if pos & !derived == 0 {
                derived |= head;
            }
        }
        if derived == before {
            return derived;
        }
    }
}

/// The supported models (models of the completion, disjunctions shifted;
/// an aggregate atom, true exactly when its aggregate holds, needs no rule).
pub(crate) fn supported_models(program: &GroundProgram) -> Vec<u64> {
    let n = program.atoms.len();
    let aggregate_atoms = aggregate_atom_mask(program);
    (0..1u64 << n)
        .filter(|&model| is_model(program, model))
        .filter(|&model| {
            (0..n).filter(|&a| model >> a & 1 == 1).all(|a| {
                program.atoms[a].fact
                    || aggregate_atoms >> a & 1 == 1
                    || program.rules.iter().any(|rule| {
                        let body = mask(&rule.body);
                        holds(&body, model)
                            && match &rule.head {
                                Head::Constraint => false,
                                Head::Atom(h) => h.index() == a,
                                Head::Disjunction(hs) => {
                                    hs.iter().any(|h| h.index() == a)
                                        && hs
                                            .iter()
                                            .all(|h| h.index() == a || model >> h.0 & 1 == 0)
                                }
                                Head::Choice(choice) => choice.elements.iter().any(|e| {
                                    e.value.index() == a
                                        && e.conditions.iter().any(|c| holds(&mask(c), model))
                                }),
                            }
                    })
            })
        })
        .collect()
}

/// Whether every disjunctive rule is head-cycle-free, by reachability
/// (through aggregate atoms too, see [`positive_reach`]).
pub(crate) fn head_cycle_free(program: &GroundProgram) -> bool {
    let reach = positive_reach(program);
    program.rules.iter().all(|rule| match &rule.head {
        Head::Disjunction(hs) => hs.iter().all(|a| {
            hs.iter().all(|b| {
                a == b || reach[a.index()] >> b.0 & 1 == 0 || reach[b.index()] >> a.0 & 1 == 0
            })
        }),
        _ => true,
    })
}

/// The aggregate atoms that depend positively on themselves: through an
/// atom an element condition reads positively.
pub(crate) fn recursive_aggregates(program: &GroundProgram) -> Vec<AtomId> {
    let reach = positive_reach(program);
    let recursive = program.aggregates.iter().map(|a| a.atom);
    recursive
        .filter(|a| reach[a.index()] >> a.0 & 1 == 1)
        .collect()
}

/// For each atom, the atoms it depends on positively, transitively: a head
/// atom on its body's and choice condition's positive atoms, an aggregate
/// atom on its element conditions' positive atoms.
pub(crate) fn positive_reach(program: &GroundProgram) -> Vec<u64> {
    let n = program.atoms.len();
    let mut reach = vec![0u64; n];
    for rule in &program.rules {
        let pos = mask(&rule.body).pos;
        match &rule.head {
            Head::Constraint => {}
            Head::Atom(h) => reach[h.index()] |= pos,
            Head::Disjunction(hs) => hs.iter().for_each(|h| reach[h.index()] |= pos),
            Head::Choice(choice) => {
                for e in &choice.elements {
                    reach[e.value.index()] |= pos;
                    for c in &e.conditions {
                        reach[e.value.index()] |= mask(c).pos;
                    }
                }
            }
        }
    }
    for aggregate in &program.aggregates {
        let conditions = aggregate.elements.iter().flat_map(|e| &e.conditions);
        reach[aggregate.atom.index()] |= conditions.fold(0, |m, c| m | mask(c).pos);
    }
    loop {
        let mut changed = false;
        for a in 0..n {
            let mut r = reach[a];
            for (b, &rb) in reach.iter().enumerate() {
                if r >> b & 1 == 1 {
                    r |= rb;
                }
            }
            if r != reach[a] {
                reach[a] = r;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    reach
}

/// Whether an aggregate holds in `model`, straight from its definition.
pub(crate) fn aggregate_holds(aggregate: &AggregateDefinition, model: u64) -> bool {
    let holding = aggregate
        .elements
        .iter()
        .filter(|e| e.conditions.iter().any(|c| holds(&mask(c), model)));
    guards_hold(aggregate, holding.map(|e| e.value))
}

/// Whether `smaller` (a subset of `model`) satisfies the Ferraris reduct
/// `F_A^M` of the aggregate's formula (see [`stable_models`]): exactly when
/// `A` holds in `model` and the guards hold for the elements with a
/// condition whose positive atoms are in `smaller` and whose negative atoms
/// are not in `model`.
///
/// Why: `F_A^M` is `⊥` unless `M ⊨ F_A`. Then each conjunct `⋀I → ⋁(E∖I)`
/// (`I` violating the guards) is true in `M`; its reduct is `⊤` when some
/// element of `I` is false in `M`, else `⋀I^M → ⋁(E∖I)^M`, where an
/// element's reduct holds in `X` iff one of its conditions holds in `M`
/// and has its positive atoms in `X`. Let `R` be the elements whose reduct
/// holds in `X`. A conjunct fails in `X` iff `I ⊆ R` and `R ∩ (E∖I) = ∅`,
/// i.e. `I = R`; so all hold iff `R` does not violate the guards. The test
/// `aggregate_reduct_is_the_ferraris_reduct_of_its_formula` checks this
/// against the formula itself.
pub(crate) fn aggregate_reduct_holds(
    aggregate: &AggregateDefinition,
    model: u64,
    smaller: u64,
) -> bool {
    let holding = aggregate.elements.iter().filter(|e| {
        e.conditions.iter().any(|c| {
            let c = mask(c);
            holds(&c, model) && c.pos & !smaller == 0
        })
    });
    model >> aggregate.atom.0 & 1 == 1 && guards_hold(aggregate, holding.map(|e| e.value))
}

/// Whether every guard holds for the aggregate's value over the `weights`
/// of the elements that hold.
pub(crate) fn guards_hold(
    aggregate: &AggregateDefinition,
    weights: impl Iterator<Item = i64>,
) -> bool {
    let value = match aggregate.value {
        AggregateValue::Sum => weights.sum(),
        AggregateValue::Max { empty } => weights.max().unwrap_or(empty),
    };
    aggregate
        .guards
        .iter()
        .all(|&(op, bound)| op.holds(value.cmp(&bound)))
}

/// Every model of the CNF over all its variables (a variable in no clause
/// is free and counts twice), projected to the atoms as bit masks; asserts
/// that no two models share a projection, i.e. the auxiliary variables are
/// determined by the atoms.
pub(crate) fn cnf_models(formula: &CnfFormula, translation: &Translation) -> Vec<u64> {
    let mut solver = Solver::new();
    solver.add_formula(formula);
    let mut models = Vec::new();
    while solver.solve().unwrap() {
        let model = solver.model().unwrap();
        // varisat leaves out variables that occur in no clause: they are free.
        let mut values: Vec<Option<bool>> = vec![None; formula.var_count()];
        for lit in &model {
            values[lit.var().index()] = Some(lit.is_positive());
        }
        let free: Vec<usize> = (0..values.len()).filter(|&i| values[i].is_none()).collect();
        assert!(free.len() < 16, "too many free variables");
        for bits in 0..1u64 << free.len() {
            for (k, &i) in free.iter().enumerate() {
                values[i] = Some(bits >> k & 1 == 1);
            }
            let atoms = translation
                .atom_vars()
                .iter()
                .enumerate()
                .fold(0u64, |m, (i, v)| {
                    m | u64::from(values[v.index()].unwrap()) << i
                });
            assert!(!models.contains(&atoms), "two CNF models for one atom set");
            models.push(atoms);
        }
        let block: Vec<Lit> = model.iter().map(|&l| !l).collect();
        solver.add_clause(&block);
    }
    models.sort_unstable();
    models
}
