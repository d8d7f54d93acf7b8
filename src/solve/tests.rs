//! The enumerator's tests: answer sets against the brute-force checker on
//! random programs, with every backend and translation.

use super::*;
use crate::testing::{
    Rng, head_cycle_free, parse, random_program, random_program_with_aggregates,
    random_program_with_exclusive_sums, random_program_with_recursive_aggregates,
    recursive_aggregates, shown_of, stable_models,
};

/// Every answer set, sorted, found by the walk over the copy of the
/// clauses; checked against the walk without it (one solver call per
/// node off the last model), which a run asked for one answer set
/// uses when asked for more.
fn all(program: &GroundProgram, project: bool) -> Vec<Vec<SymId>> {
    let enumerate = |max_models: usize| {
        let options = SolveOptions {
            max_models,
            project,
            ..SolveOptions::default()
        };
        let mut enumerator = Enumerator::new(program, options).unwrap();
        enumerator.set_max_models(0);
        let mut sets: Vec<Vec<SymId>> = enumerator.by_ref().map(|a| a.shown).collect();
        assert!(enumerator.exhausted());
        assert!(enumerator.next_answer_set().is_none());
        sets.sort();
        sets
    };
    let sets = enumerate(0);
    assert_eq!(sets, enumerate(1), "the walk without a copy of the clauses");
    // The walk's oracle switched to CaDiCaL (no switch where the program
    // needs more than clauses, or without CaDiCaL).
    let switched = changed_after_first(program, project, |enumerator| {
        enumerator.switch_oracle();
    });
    assert_eq!(sets, switched, "the oracle switched");
    let recorded = changed_after_first(program, project, Enumerator::take_over_at_next_question);
    assert_eq!(sets, recorded, "the walk handed over to solution recording");
    let undecided = changed_after_first(program, project, Enumerator::take_over_leaving_decisions);
    assert_eq!(sets, undecided, "solution recording, the solver deciding");
    sets
}

/// Every answer set, sorted, the enumerator changed by `change` after the
/// first, and its walk asking at every conflict from then on: the oracle
/// switched ([`Enumerator::switch_oracle`]), or the walk handing over to
/// solution recording at its next question
/// ([`Enumerator::take_over_from_the_walk`]).
fn changed_after_first(
    program: &GroundProgram,
    project: bool,
    change: impl FnOnce(&mut Enumerator),
) -> Vec<Vec<SymId>> {
    let options = SolveOptions {
        project,
        ..SolveOptions::default()
    };
    let mut enumerator = Enumerator::new(program, options).unwrap();
    let mut sets: Vec<Vec<SymId>> = enumerator
        .next_answer_set()
        .into_iter()
        .map(|a| a.shown)
        .collect();
    change(&mut enumerator);
    enumerator.backtracking.ask_at_every_conflict();
    sets.extend(enumerator.by_ref().map(|a| a.shown));
    assert!(enumerator.exhausted());
    sets.sort();
    sets
}

fn brute_force(program: &GroundProgram, project: bool) -> Vec<Vec<SymId>> {
    let mut sets: Vec<Vec<SymId>> = stable_models(program)
        .into_iter()
        .map(|m| shown_of(program, m))
        .collect();
    sets.sort();
    if project {
        sets.dedup();
    }
    sets
}

/// Answer sets as strings, e.g. `["", "a b"]`.
fn answers(text: &str) -> Vec<String> {
    let program = parse(text);
    let options = SolveOptions::default();
    let mut found: Vec<String> = Enumerator::new(&program, options)
        .unwrap()
        .map(|a| a.render(&program.symbols))
        .collect();
    found.sort();
    assert_eq!(found, {
        let mut expected: Vec<String> = brute_force(&program, false)
            .iter()
            .map(|s| AnswerSet { shown: s.clone() }.render(&program.symbols))
            .collect();
        expected.sort();
        expected
    });
    found
}

/// Every backend, with its defaults and with the extremes of the
/// settings the command line accepts (a restart after every conflict,
/// the fastest decay, and the most frequent reductions of learned
/// clauses varisat takes: the portfolio's settings), finds the answer
/// sets of random programs, disjunctive ones among them (the
/// minimality check's tester is of the same backend).
#[test]
fn every_backend_and_tuning_finds_the_same_answer_sets() {
    let automatic = std::iter::once(None);
    for backend in automatic.chain(backend::Backend::ALL.iter().copied().map(Some)) {
        let tuned = SearchTuning {
            backend,
            sums: SumMode::Auto,
            vsids_decay: Some(0.5),
            luby_restart_unit: Some(1),
            reduce_locals_interval: Some(1),
            reduce_mids_interval: Some(1),
        };
        let plain = SearchTuning {
            backend,
            ..SearchTuning::default()
        };
        let mut rng = Rng::new(12);
        for round in 0..300 {
            let program = random_program(&mut rng, 8, round % 2 == 1);
            let expected = brute_force(&program, false);
            for tuning in [plain, tuned] {
                let options = SolveOptions {
                    tuning,
                    ..SolveOptions::default()
                };
                let mut found: Vec<Vec<SymId>> = (Enumerator::new(&program, options).unwrap())
                    .map(|a| a.shown)
                    .collect();
                found.sort();
                assert_eq!(found, expected, "{tuning:?}, round {round}");
            }
        }
    }
}

/// A search stopped at its model limit (`-n 1`, `-n 2`) is exhausted only
/// when no other answer set exists, with every backend; and on programs
/// with choices it is exhausted often enough (the solver fixed the answer
/// set) for the check to mean something.
#[test]
fn a_search_exhausted_at_its_model_limit_has_no_other_answer_set() {
    for &backend in backend::Backend::ALL {
        let tuning = SearchTuning {
            backend: Some(backend),
            ..SearchTuning::default()
        };
        let mut rng = Rng::new(31);
        let mut exhausted_with_choices = 0;
        for round in 0..400 {
            let program = random_program(&mut rng, 8, round % 2 == 1);
            let expected = brute_force(&program, false).len();
            for max_models in [1, 2] {
                let options = SolveOptions {
                    tuning,
                    max_models,
                    ..SolveOptions::default()
                };
                let mut enumerator = Enumerator::new(&program, options).unwrap();
                let found = enumerator.by_ref().count();
                assert_eq!(
                    found,
                    expected.min(max_models),
                    "{backend:?}, round {round}"
                );
                if enumerator.exhausted() {
                    assert_eq!(found, expected, "{backend:?}, round {round}: {program:?}");
                    exhausted_with_choices +=
                        usize::from(found == max_models && !enumerator.stats().deterministic);
                }
            }
        }
        assert!(
            exhausted_with_choices > 50,
            "{backend:?}: {exhausted_with_choices} exhausted at the limit with choices"
        );
    }
}

#[test]
fn solve_matches_brute_force_on_random_programs() {
    let mut rng = Rng::new(2024);
    let (mut compared, mut disjunctive, mut with_loops, mut nontrivial) = (0, 0, 0, 0);
    let mut with_equivalents = 0;
    for round in 0..7000 {
        let program = random_program(&mut rng, 8, round % 2 == 1);
        disjunctive += usize::from(!head_cycle_free(&program));
        let expected = brute_force(&program, false);
        assert_eq!(all(&program, false), expected, "round {round}: {program:?}");
        assert_eq!(
            all(&program, true),
            brute_force(&program, true),
            "round {round}"
        );
        let mut enumerator = Enumerator::new(&program, SolveOptions::default()).unwrap();
        enumerator.by_ref().for_each(drop);
        if enumerator.stats().loop_rounds > 0 {
            with_loops += 1;
        }
        if expected.len() > 1 {
            nontrivial += 1;
        }
        with_equivalents += usize::from(enumerator.stats().translation.equivalent_atoms > 0);
        compared += 1;
    }
    // The generator covers what it should.
    assert!(
        compared > 5000 && disjunctive > 100,
        "{compared} compared, {disjunctive} not head-cycle-free"
    );
    assert!(with_loops > 1000, "{with_loops} with loop formulas");
    assert!(nontrivial > 1000, "{nontrivial} with several answer sets");
    assert!(
        with_equivalents > 500,
        "{with_equivalents} with atoms sharing a variable"
    );
}

/// Ground aggregates (not recursive) against the brute-force checker,
/// which evaluates them in each candidate model.
#[test]
fn solve_matches_brute_force_with_aggregates() {
    let mut rng = Rng::new(2027);
    let (mut compared, mut nontrivial) = (0, 0);
    for round in 0..3000 {
        let program = random_program_with_aggregates(&mut rng, 7);
        if !head_cycle_free(&program) {
            continue;
        }
        let expected = brute_force(&program, false);
        assert_eq!(all(&program, false), expected, "round {round}: {program:?}");
        if expected.len() > 1 {
            nontrivial += 1;
        }
        compared += 1;
    }
    assert!(compared > 2000, "{compared} compared");
    assert!(nontrivial > 500, "{nontrivial} with several answer sets");
}

/// Sums and an objective over choices of at most one (diagrams with a
/// level per choice) against the brute-force checker: the answer sets by
/// the default search and on every backend, sums as clauses and, where
/// the backend can, propagated; and the optimum and optimal answer sets,
/// by linear and core-guided search. A diagram level that counts two
/// weights of one choice, or a bound of the objective over a choice that
/// is off, fails it.
#[test]
fn sums_over_exclusive_choices_match_brute_force() {
    use crate::testing::optimal_models;
    use optimize::Strategy;
    let mut rng = Rng::new(2020);
    let (mut compared, mut nontrivial, mut optima, mut over_sets) = (0, 0, 0, 0);
    for round in 0..4000 {
        let program = random_program_with_exclusive_sums(&mut rng, 7);
        if !head_cycle_free(&program) {
            continue;
        }
        over_sets += usize::from(sums_over_sets(&program));
        let context = format!("round {round}: {program:?}");
        let mut plain = program.clone();
        plain.costs.clear();
        let expected = brute_force(&plain, false);
        assert_eq!(all(&plain, false), expected, "{context}");
        for &backend in backend::Backend::ALL {
            let mut modes = vec![SumMode::Clauses];
            if backend.propagates() {
                modes.push(SumMode::Propagate);
            }
            for sums in modes {
                let mut options = SolveOptions {
                    max_models: 0,
                    ..SolveOptions::default()
                };
                options.tuning.backend = Some(backend);
                options.tuning.sums = sums;
                let mut found: Vec<Vec<SymId>> = Enumerator::new(&plain, options)
                    .unwrap()
                    .map(|a| a.shown)
                    .collect();
                found.sort();
                assert_eq!(found, expected, "{} {sums:?}, {context}", backend.name());
            }
        }
        if !program.costs.is_empty() && optimal_models(&program).is_some() {
            let strategy = match round % 3 {
                0 => Strategy::Linear,
                1 => Strategy::Core { stratify: false },
                _ => Strategy::Core { stratify: true },
            };
            for &backend in backend::Backend::ALL {
                let mut options = SolveOptions::default();
                options.tuning.backend = Some(backend);
                let enumerator = Enumerator::new(&program, options).unwrap();
                let context = format!("{} {strategy:?}, {context}", backend.name());
                optimum_of_brute_force(enumerator, strategy, &program, &context);
            }
            optima += 1;
        }
        nontrivial += usize::from(expected.len() > 1);
        compared += 1;
    }
    assert!(compared > 3000, "{compared} compared");
    assert!(nontrivial > 700, "{nontrivial} with several answer sets");
    assert!(optima > 600, "{optima} optima compared");
    assert!(
        over_sets > 1400,
        "{over_sets} with a sum over two atoms of a choice"
    );
}

/// Choices with bounds over atoms of choices of at most one, their bounds
/// as diagrams over the sets (every bound that can be, however small) and
/// as counters, with every backend: the answer sets of brute force.
#[test]
fn choice_bounds_over_exclusive_sets_match_brute_force() {
    use crate::translate::cardinality::{DIAGRAMS, GATHER, SETS_GATHER};
    let mut rng = Rng::new(2026);
    let (mut compared, mut nontrivial) = (0, 0);
    DIAGRAMS.with(|count| count.set(0));
    for round in 0..3000 {
        let program = crate::testing::random_program_with_bounds_over_sets(&mut rng, 6);
        if !head_cycle_free(&program) || program.atoms.len() > 14 {
            continue;
        }
        let context = format!("round {round}: {program:?}");
        let expected = brute_force(&program, false);
        for gather in [1, SETS_GATHER] {
            GATHER.with(|g| g.set(gather));
            for &backend in backend::Backend::ALL {
                let mut options = SolveOptions {
                    max_models: 0,
                    ..SolveOptions::default()
                };
                options.tuning.backend = Some(backend);
                let mut found: Vec<Vec<SymId>> = Enumerator::new(&program, options)
                    .unwrap()
                    .map(|a| a.shown)
                    .collect();
                found.sort();
                assert_eq!(
                    found,
                    expected,
                    "{} gather {gather}, {context}",
                    backend.name()
                );
            }
        }
        nontrivial += usize::from(expected.len() > 1);
        compared += 1;
    }
    GATHER.with(|g| g.set(SETS_GATHER));
    assert!(compared > 2300, "{compared} compared");
    assert!(nontrivial > 450, "{nontrivial} with several answer sets");
    let diagrams = DIAGRAMS.with(std::cell::Cell::get);
    assert!(diagrams > 1200, "{diagrams} bounds as diagrams");
}

/// Whether a sum or the objective of `program` has two elements of
/// positive weight, one atom each, in one choice of at most one with an
/// empty body: a diagram level over a set.
fn sums_over_sets(program: &GroundProgram) -> bool {
    let choices: Vec<Vec<AtomId>> = (program.rules.iter())
        .filter_map(|rule| match &rule.head {
            Head::Choice(choice)
                if choice.bounds.upper_bound() == Some(1) && rule.body.is_empty() =>
            {
                Some(choice.elements.iter().map(|e| e.value).collect())
            }
            _ => None,
        })
        .collect();
    let element_lists = (program.aggregates.iter())
        .map(|a| &a.elements[..])
        .chain(program.costs.iter().map(|c| &c.elements[..]));
    element_lists.into_iter().any(|elements| {
        let atoms: Vec<AtomId> = (elements.iter())
            .filter(|e| e.value > 0)
            .filter_map(|e| match &e.conditions[..] {
                [c] if c.neg().is_empty() && c.pos().len() == 1 => Some(c.pos()[0]),
                _ => None,
            })
            .collect();
        (choices.iter()).any(|choice| atoms.iter().filter(|a| choice.contains(a)).count() >= 2)
    })
}

/// The answer sets of `program` with every sum not on a positive cycle
/// propagated inside the search of `backend`: by the walk, which checks
/// the sums at its leaves (`max_models` 0), and by the solver alone, one
/// call per node (`max_models` 1, then all); and how many sums the
/// translation left to the search (every aggregate translated, read or
/// not).
#[cfg(any(feature = "batsat", feature = "cadical"))]
fn all_propagated(program: &GroundProgram, backend: backend::Backend) -> (Vec<Vec<SymId>>, usize) {
    let enumerate = |max_models: usize| {
        let mut options = SolveOptions {
            max_models,
            unread: false,
            ..SolveOptions::default()
        };
        options.tuning.backend = Some(backend);
        options.tuning.sums = SumMode::Propagate;
        let mut enumerator = Enumerator::new(program, options).unwrap();
        enumerator.set_max_models(0);
        let mut sets: Vec<Vec<SymId>> = enumerator.by_ref().map(|a| a.shown).collect();
        assert!(enumerator.exhausted());
        sets.sort();
        (sets, enumerator.stats().translation.native_sums)
    };
    let (sets, native) = enumerate(0);
    assert_eq!(sets, enumerate(1).0, "{}: the solver alone", backend.name());
    (sets, native)
}

/// Aggregates, recursive ones among them, with their sums propagated by
/// every backend that can (`--sums=propagate`), against the brute-force
/// checker: a bound off by one in the weight constraints, or a sum the
/// walk lets through unchecked, fails it.
// Only a backend with a hook into its search propagates.
#[cfg(any(feature = "batsat", feature = "cadical"))]
#[test]
fn propagated_sums_match_brute_force() {
    let mut rng = Rng::new(2025);
    let (mut compared, mut propagated, mut nontrivial) = (0, 0, 0);
    for round in 0..3000 {
        let program = if round % 3 == 2 {
            random_program_with_recursive_aggregates(&mut rng, 5)
        } else {
            random_program_with_aggregates(&mut rng, 7)
        };
        if !head_cycle_free(&program) {
            continue;
        }
        let expected = brute_force(&program, false);
        for &backend in backend::Backend::ALL.iter().filter(|b| b.propagates()) {
            let (found, native) = all_propagated(&program, backend);
            assert_eq!(
                found,
                expected,
                "{}, round {round}: {program:?}",
                backend.name()
            );
            propagated += usize::from(native > 0);
        }
        nontrivial += usize::from(expected.len() > 1);
        compared += 1;
    }
    let backends = backend::Backend::ALL
        .iter()
        .filter(|b| b.propagates())
        .count();
    assert!(compared > 2000, "{compared} compared");
    assert!(
        propagated > 1000 * backends,
        "{propagated} with sums propagated"
    );
    assert!(nontrivial > 500, "{nontrivial} with several answer sets");
}

/// Every sum, count and choice bound taken as too large for clauses
/// ([`crate::translate::native_sums::EVERY_LARGE`]), as those past a
/// million nodes or registers are: left to the search by every backend
/// that propagates, and as sorting networks and adders where they must be
/// clauses (varisat, `--sums=clauses`); against the brute-force checker.
/// A choice's bound propagated off by one, or a network's output misread,
/// fails it.
#[test]
fn sums_and_counts_too_large_for_clauses_match_brute_force() {
    use crate::translate::native_sums::EVERY_LARGE;
    EVERY_LARGE.with(|flag| flag.set(true));
    let mut rng = Rng::new(2068);
    let (mut compared, mut propagated, mut nontrivial) = (0, 0, 0);
    for round in 0..3000 {
        let program = if round % 2 == 0 {
            random_program(&mut rng, 6, false)
        } else {
            random_program_with_aggregates(&mut rng, 6)
        };
        if !head_cycle_free(&program) {
            continue;
        }
        let expected = brute_force(&program, false);
        let mut options = SolveOptions {
            unread: false,
            ..SolveOptions::default()
        };
        options.tuning.backend = Some(backend::Backend::Varisat);
        options.tuning.sums = SumMode::Clauses;
        let mut enumerator = Enumerator::new(&program, options).unwrap();
        let mut found: Vec<Vec<SymId>> = enumerator.by_ref().map(|a| a.shown).collect();
        found.sort();
        assert_eq!(found, expected, "networks, round {round}: {program:?}");
        #[cfg(any(feature = "batsat", feature = "cadical"))]
        for &backend in backend::Backend::ALL.iter().filter(|b| b.propagates()) {
            let (found, native) = all_propagated(&program, backend);
            let name = backend.name();
            assert_eq!(found, expected, "{name}, round {round}: {program:?}");
            propagated += usize::from(native > 0);
        }
        nontrivial += usize::from(expected.len() > 1);
        compared += 1;
    }
    EVERY_LARGE.with(|flag| flag.set(false));
    assert!(compared > 2000, "{compared} compared");
    assert!(nontrivial > 500, "{nontrivial} with several answer sets");
    if cfg!(any(feature = "batsat", feature = "cadical")) {
        assert!(propagated > 1000, "{propagated} with sums propagated");
    }
}

/// Optimization over programs whose sums are propagated: the optimum and
/// the optimal answer sets of the brute-force checker, by linear and
/// core-guided search (by strata or not) on every backend that
/// propagates.
// Only a backend with a hook into its search propagates.
#[cfg(any(feature = "batsat", feature = "cadical"))]
#[test]
fn propagated_sums_keep_the_optimum() {
    use crate::testing::add_random_costs;
    use optimize::Strategy;
    let mut rng = Rng::new(2026);
    let mut optimal_found = 0;
    for round in 0..1500 {
        let mut program = random_program_with_aggregates(&mut rng, 7);
        add_random_costs(&mut rng, &mut program);
        let strategy = match round % 4 {
            1 => Strategy::Core { stratify: false },
            3 => Strategy::Core { stratify: true },
            _ => Strategy::Linear,
        };
        for &backend in backend::Backend::ALL.iter().filter(|b| b.propagates()) {
            let mut options = SolveOptions::default();
            options.tuning.backend = Some(backend);
            options.tuning.sums = SumMode::Propagate;
            let enumerator = Enumerator::new(&program, options).unwrap();
            let context = format!("{}, round {round}: {program:?}", backend.name());
            optimal_found += usize::from(optimum_of_brute_force(
                enumerator, strategy, &program, &context,
            ));
        }
    }
    assert!(optimal_found > 1000, "{optimal_found} optima compared");
}

/// Optimizes with `enumerator` by `strategy` and asserts the optimum and
/// the optimal answer sets of the brute-force checker on `program`;
/// whether there was an optimum.
fn optimum_of_brute_force(
    enumerator: Enumerator,
    strategy: optimize::Strategy,
    program: &GroundProgram,
    context: &str,
) -> bool {
    use crate::testing::optimal_models;
    let mut optimizer = optimize::Optimizer::new(enumerator, strategy);
    while optimizer.next_better().is_some() {}
    let best = optimizer.best().map(<[i64]>::to_vec);
    let mut optimal: Vec<Vec<SymId>> = optimizer.into_enumerator().map(|a| a.shown).collect();
    optimal.sort();
    let Some((optimum, models)) = optimal_models(program) else {
        assert_eq!(best, None, "{context}");
        return false;
    };
    assert_eq!(best, Some(optimum), "{context}");
    let mut expected: Vec<Vec<SymId>> = models.iter().map(|&m| shown_of(program, m)).collect();
    expected.sort();
    assert_eq!(optimal, expected, "optimal, {context}");
    true
}

/// Recursive aggregates of every kind: the answer sets under the
/// Ferraris reduct, or a refusal (non-monotone recursive aggregates, and
/// disjunctions that are not head-cycle-free).
#[test]
fn solve_matches_brute_force_with_recursive_aggregates() {
    let mut rng = Rng::new(2016);
    let (mut compared, mut recursive, mut nonmonotone) = (0, 0, 0);
    for round in 0..2500 {
        let program = random_program_with_recursive_aggregates(&mut rng, 5);
        let options = SolveOptions {
            max_models: 0,
            ..SolveOptions::default()
        };
        let mut enumerator = Enumerator::new(&program, options).expect("nothing to refuse");
        nonmonotone += usize::from(
            !enumerator.translation().minimality().is_empty() && head_cycle_free(&program),
        );
        let mut sets: Vec<Vec<SymId>> = enumerator.by_ref().map(|a| a.shown).collect();
        sets.sort();
        assert_eq!(
            sets,
            brute_force(&program, false),
            "round {round}: {program:?}"
        );
        compared += 1;
        recursive += usize::from(!recursive_aggregates(&program).is_empty());
    }
    assert!(compared == 2500, "{compared} compared");
    assert!(
        nonmonotone > 150,
        "{nonmonotone} with non-monotone recursive aggregates"
    );
    assert!(recursive > 700, "{recursive} with recursive aggregates");
}

/// Atoms flagged as facts (as the grounder hands them over: no rules of
/// their own) share one variable and still count as founded inside
/// loops, in both translations.
#[test]
fn solve_flagged_facts_match_brute_force() {
    let mut rng = Rng::new(7);
    let mut with_loops = 0;
    for round in 0..2000 {
        let mut program = random_program(&mut rng, 8, false);
        for (i, atom) in program.atoms.iter_mut().enumerate() {
            atom.fact = (round + i) % 3 == 0;
        }
        let atoms = &program.atoms;
        program.rules.retain(|rule| match &rule.head {
            Head::Atom(a) => !atoms[a.index()].fact,
            Head::Disjunction(heads) => heads.iter().all(|a| !atoms[a.index()].fact),
            Head::Choice(choice) => choice.elements.iter().all(|e| !atoms[e.value.index()].fact),
            Head::Constraint => true,
        });
        if !head_cycle_free(&program) {
            continue;
        }
        let expected = brute_force(&program, false);
        assert_eq!(all(&program, false), expected, "round {round}: {program:?}");
        let eager = SolveOptions {
            max_models: 0,
            translation: TranslationMode::Eager,
            ..SolveOptions::default()
        };
        let mut found: Vec<Vec<SymId>> = Enumerator::new(&program, eager)
            .unwrap()
            .map(|a| a.shown)
            .collect();
        found.sort();
        assert_eq!(found, expected, "round {round} (eager)");
        let mut enumerator = Enumerator::new(&program, SolveOptions::default()).unwrap();
        enumerator.by_ref().for_each(drop);
        with_loops += usize::from(enumerator.stats().loop_rounds > 0);
        let facts = program.atoms.iter().filter(|a| a.fact).count();
        assert!(enumerator.stats().translation.atom_variables <= program.atoms.len() - facts + 1);
    }
    assert!(with_loops > 100, "{with_loops} with loop formulas");
}

/// The eager translation finds the same answer sets (projected or not)
/// without a single loop-formula round.
#[test]
fn solve_eager_matches_lazy_on_random_programs() {
    let mut rng = Rng::new(99);
    let mut nontight = 0;
    for round in 0..3000 {
        let program = random_program(&mut rng, 8, round % 2 == 1);
        if !head_cycle_free(&program) {
            continue;
        }
        for project in [false, true] {
            let run = |translation| {
                let options = SolveOptions {
                    max_models: 0,
                    project,
                    translation,
                    ..SolveOptions::default()
                };
                let mut enumerator = Enumerator::new(&program, options).unwrap();
                let mut sets: Vec<Vec<SymId>> = enumerator.by_ref().map(|a| a.shown).collect();
                sets.sort();
                (sets, enumerator.stats())
            };
            let (lazy, _) = run(TranslationMode::Lazy);
            let (eager, stats) = run(TranslationMode::Eager);
            assert_eq!(eager, lazy, "round {round}: {program:?}");
            assert_eq!(stats.loop_rounds, 0);
            // At most one satisfiable call per answer set, and one
            // unsatisfiable call per distinguishing atom between two;
            // none after the only answer set of a program without
            // choices.
            if stats.deterministic && !eager.is_empty() {
                assert!(stats.sat_calls <= 1);
            } else {
                let atoms = program.atoms.len();
                assert!(stats.sat_calls <= (atoms + 1) * (eager.len() + 1));
            }
            if !stats.tight && !project {
                nontight += 1;
            }
        }
    }
    assert!(nontight > 500, "{nontight} non-tight programs");
}

#[test]
fn solve_positive_loop_is_unfounded() {
    assert_eq!(answers("a :- b. b :- a."), [""]);
}

#[test]
fn solve_loop_with_external_support() {
    assert_eq!(answers("{c}. a :- c. a :- b. b :- a."), ["", "a b c"]);
}

#[test]
fn solve_even_negative_loop() {
    assert_eq!(answers("a :- not b. b :- not a."), ["a", "b"]);
}

#[test]
fn solve_odd_negative_loop_has_no_answer_set() {
    assert!(answers("a :- not a.").is_empty());
    assert!(answers("a :- not b. b :- not c. c :- not a.").is_empty());
}

#[test]
fn solve_cardinality_bounds() {
    assert_eq!(answers("1{a;b;c}1."), ["a", "b", "c"]);
    assert_eq!(answers("2{a;b;c}."), ["a b", "a b c", "a c", "b c"]);
    assert_eq!(answers("{a;b;c}2.").len(), 7);
    assert_eq!(answers("{a;b;c}0."), [""]);
    assert!(answers("4{a;b;c}.").is_empty());
    assert_eq!(answers("2{a;b;c}1 :- d. {d}."), [""]);
    assert_eq!(
        answers("1{a : d; b; c : not d}1. {d}."),
        ["a d", "b", "b d", "c"]
    );
}

#[test]
fn solve_disjunction() {
    assert_eq!(answers("a | b."), ["a", "b"]);
    assert_eq!(answers("a | b. a :- b."), ["a"]);
    assert_eq!(answers("a | b | c :- d. d. :- a."), ["b d", "c d"]);
}

#[test]
fn solve_disjunction_with_head_cycles() {
    assert_eq!(answers("a | b. a :- b. b :- a."), ["a b"]);
    assert_eq!(answers("a | b. a :- b. b :- a. c :- not a."), ["a b"]);
    // Three minimal models of the positive program (clingo agrees).
    assert_eq!(
        answers("s1 | s2. s3 | s4. s1 :- s3, s4. s2 :- s4, s3. s3 :- s1, s2. s4 :- s1."),
        ["s1 s4", "s2 s3", "s2 s4"]
    );
    // Minimality over a cycle of three: {a, b, c} is the only answer.
    assert_eq!(answers("a | b | c. a :- b. b :- c. c :- a."), ["a b c"]);
    let program = parse("a | b. a :- b. b :- a.");
    let eager = SolveOptions {
        translation: TranslationMode::Eager,
        ..SolveOptions::default()
    };
    assert!(Enumerator::new(&program, eager).is_err());
}

#[test]
fn solve_empty_program_has_one_empty_answer_set() {
    assert_eq!(answers(""), [""]);
    assert_eq!(answers(":- a. a :- b."), [""]);
    assert!(answers(":- .").is_empty());
}

/// Directed Hamiltonian cycles of the complete graph on 4 nodes: 3! = 6.
#[test]
fn solve_hamiltonian_cycles() {
    let mut text = String::from("r1.\n");
    for x in 1..=4 {
        let out: Vec<String> = (1..=4)
            .filter(|&y| y != x)
            .map(|y| format!("in{x}{y}"))
            .collect();
        let inn: Vec<String> = (1..=4)
            .filter(|&y| y != x)
            .map(|y| format!("in{y}{x}"))
            .collect();
        text += &format!("1{{{}}}1.\n", out.join(";"));
        text += &format!(
            ":- not {}, {}.\n",
            inn[0],
            inn[1..]
                .iter()
                .map(|a| format!("not {a}"))
                .collect::<Vec<_>>()
                .join(", ")
        );
        text += &format!(":- {}, {}.\n", inn[0], inn[1]);
        text += &format!(":- {}, {}.\n", inn[0], inn[2]);
        text += &format!(":- {}, {}.\n", inn[1], inn[2]);
        for y in (1..=4).filter(|&y| y != x) {
            text += &format!("r{y} :- r{x}, in{x}{y}.\n");
        }
        text += &format!(":- not r{x}.\n");
    }
    let program = parse(&text);
    let mut enumerator = Enumerator::new(&program, SolveOptions::default()).unwrap();
    assert!(!enumerator.translation().is_tight());
    let found: Vec<AnswerSet> = enumerator.by_ref().collect();
    assert_eq!(found.len(), 6);
    let stats = enumerator.stats();
    assert_eq!(stats.models, 6);
    assert!(stats.loop_rounds > 0 || stats.sat_calls == 7);
    assert_eq!(found.len(), stable_models(&program).len());
}

#[test]
fn solve_enumerates_by_propagation_and_by_calls() {
    // A positive loop with external support under ten choices: the
    // walk over its own copy of the clauses finds most answer sets by
    // propagation; without the copy, each costs a call.
    let choices: Vec<String> = (1..=10).map(|i| format!("a{i}")).collect();
    let text = format!(
        "{{{}}}.\n:- a1, a2.\nb :- c.\nc :- b.\nb :- a3, not a4.\n",
        choices.join(";")
    );
    let found = answers(&text);
    assert_eq!(found.len(), 768);
    let program = parse(&text);
    let mut enumerator = Enumerator::new(&program, SolveOptions::default()).unwrap();
    assert_eq!(enumerator.by_ref().count(), 768);
    assert!(enumerator.stats().sat_calls < 768 / 8);
    let one = SolveOptions {
        max_models: 1,
        ..SolveOptions::default()
    };
    let mut enumerator = Enumerator::new(&program, one).unwrap();
    enumerator.set_max_models(0);
    assert_eq!(enumerator.by_ref().count(), 768);
    // One call finds each answer set; one more closes each empty
    // subtree beside the path to it, about two here.
    assert!(enumerator.stats().sat_calls < 4 * 768);
}

/// Where the unfounded-set check is inside the search, the walk hands
/// over to solution recording after [`CHECKED_RECORD_AFTER`] empty
/// subtrees, [`CHECKED_PER_ANSWER_SET`] for each answer set reported;
/// elsewhere after [`RECORD_AFTER`].
#[test]
fn the_walk_hands_over_early_where_the_check_is_inside_the_search() {
    let hands_over = |text: &str, refuted_asks: usize, models: usize| {
        let program = parse(text);
        let mut enumerator = Enumerator::new(&program, SolveOptions::default()).unwrap();
        enumerator.refuted_asks = refuted_asks;
        enumerator.stats.models = models;
        (
            enumerator.stats.unfounded_check,
            enumerator.walk_costs_more(),
        )
    };
    let non_tight = "a :- b. b :- a. a :- not c. c :- not a.";
    if cfg!(feature = "batsat") || cfg!(feature = "cadical") {
        assert_eq!(hands_over(non_tight, 15, 0), (true, false));
        assert_eq!(hands_over(non_tight, 16, 0), (true, true));
        assert_eq!(hands_over(non_tight, 16, 3), (true, true));
        assert_eq!(hands_over(non_tight, 16, 4), (true, false));
        assert_eq!(hands_over(non_tight, 20, 4), (true, true));
    }
    let tight = "a :- not c. c :- not a.";
    assert_eq!(hands_over(tight, 16, 0), (false, false));
    assert_eq!(hands_over(tight, RECORD_AFTER, 0), (false, true));
}

#[test]
fn solve_max_models_and_exhaustion() {
    let program = parse("{a; b}.");
    let options = SolveOptions {
        max_models: 2,
        ..SolveOptions::default()
    };
    let mut enumerator = Enumerator::new(&program, options).unwrap();
    assert!(enumerator.next_answer_set().is_some());
    assert!(enumerator.next_answer_set().is_some());
    assert!(enumerator.next_answer_set().is_none());
    assert!(!enumerator.exhausted());
    assert_eq!(enumerator.stats().models, 2);

    // A program without choices is exhausted at its first model.
    let program = parse("a. b :- a. :- c.");
    let options = SolveOptions {
        max_models: 1,
        ..SolveOptions::default()
    };
    let mut enumerator = Enumerator::new(&program, options).unwrap();
    assert!(enumerator.next_answer_set().is_some());
    assert!(enumerator.exhausted());
    assert!(!enumerator.has_more());
    assert!(enumerator.next_answer_set().is_none());
    assert_eq!(enumerator.stats().sat_calls, 1);

    // With a choice that propagation settles, so is a program with
    // choices (clingo: found without a decision).
    let program = parse("{a}. :- not a.");
    let mut enumerator = Enumerator::new(&program, options).unwrap();
    assert!(enumerator.next_answer_set().is_some());
    assert!(enumerator.exhausted());

    // Where it does not, only a search can tell.
    let program = parse("{a; b}. :- not a, not b. :- not a, b. :- a, not b.");
    let mut enumerator = Enumerator::new(&program, options).unwrap();
    assert!(enumerator.next_answer_set().is_some());
    assert!(!enumerator.exhausted());
    assert!(!enumerator.has_more());
    assert!(enumerator.exhausted());
    assert!(enumerator.next_answer_set().is_none());

    // has_more keeps the answer set it finds for next_answer_set.
    let program = parse("1{a; b}1.");
    let mut enumerator = Enumerator::new(&program, SolveOptions::default()).unwrap();
    assert!(enumerator.has_more());
    assert!(enumerator.has_more());
    assert_eq!(enumerator.stats().models, 0);
    let first = enumerator.next_answer_set().unwrap();
    assert!(enumerator.has_more());
    assert!(!enumerator.exhausted());
    let second = enumerator.next_answer_set().unwrap();
    assert_ne!(first, second);
    assert!(!enumerator.has_more());
    assert!(enumerator.exhausted());
    assert_eq!(enumerator.stats().models, 2);
}

#[test]
fn solve_projection_reports_each_visible_set_once() {
    let mut program = parse("{a; b}. c :- a. c :- b.");
    for atom in program.atoms.iter_mut() {
        atom.shown = program.symbols.display(atom.symbol).to_string() == "c";
    }
    let render = |sets: Vec<Vec<SymId>>| -> Vec<String> {
        sets.into_iter()
            .map(|s| AnswerSet { shown: s }.render(&program.symbols))
            .collect()
    };
    assert_eq!(render(all(&program, false)), ["", "c", "c", "c"]);
    assert_eq!(render(all(&program, true)), ["", "c"]);
}

#[test]
fn solve_stats_count_clauses() {
    let program = parse("a :- b. b :- a. {a}.");
    let mut enumerator = Enumerator::new(&program, SolveOptions::default()).unwrap();
    let found: Vec<AnswerSet> = enumerator.by_ref().collect();
    assert_eq!(found.len(), 2);
    let stats = enumerator.stats();
    assert!(!stats.tight);
    // The enumeration excludes no answer set by a clause.
    assert_eq!(
        stats.clauses,
        stats.translation.clauses() + stats.loop_clauses
    );
    // `b` shares `a`'s variable: its only rule is `b :- a.`
    assert_eq!(stats.variables, 1 + stats.translation.body_variables);
}

/// Sum assignments whose values an objective, constraints and rules read
/// ([`crate::testing::random_program_with_assignments`]), folded into
/// their sums ([`crate::ground::assignments`]) and translated with the
/// atoms only the output reads left out ([`translate::unread`]): the
/// answer sets (by the walk, and of the exact translation), the optimum
/// and the optimal answer sets (linear and core-guided search) of the
/// brute-force checker on the program as written.
#[test]
fn folded_assignments_keep_answer_sets_and_optimum() {
    use crate::ground::assignments::fold_assignments;
    use crate::testing::random_program_with_assignments;
    use optimize::Strategy;
    let mut rng = Rng::new(2028);
    let (mut objectives, mut constraints, mut unread, mut optima) = (0, 0, 0, 0);
    for round in 0..800 {
        let program = random_program_with_assignments(&mut rng, 4);
        let mut folded = program.clone();
        fold_assignments(&mut folded);
        objectives += usize::from(folded.costs != program.costs);
        constraints += usize::from(folded.aggregates.len() > program.aggregates.len());
        let context = format!("round {round}: {program:?}");
        let expected = brute_force(&program, false);
        assert_eq!(brute_force(&folded, false), expected, "folded, {context}");
        assert_eq!(all(&folded, false), expected, "{context}");
        let exact = SolveOptions {
            translation: TranslationMode::Eager,
            ..SolveOptions::default()
        };
        // The exact translation refuses what is not head-cycle-free.
        if let Ok(enumerator) = Enumerator::new(&folded, exact) {
            let mut found: Vec<Vec<SymId>> = enumerator.map(|a| a.shown).collect();
            found.sort();
            assert_eq!(found, expected, "exact, {context}");
        }
        let enumerator = Enumerator::new(&folded, SolveOptions::default()).unwrap();
        unread += usize::from(enumerator.translation().unread().count() > 0);
        if program.costs.is_empty() {
            continue;
        }
        let strategy = match round % 2 {
            0 => Strategy::Linear,
            _ => Strategy::Core { stratify: false },
        };
        optima += usize::from(optimum_of_brute_force(
            enumerator, strategy, &program, &context,
        ));
    }
    assert!(objectives > 150, "{objectives} objectives folded");
    assert!(constraints > 100, "{constraints} with constraints folded");
    assert!(unread > 300, "{unread} with unread atoms");
    assert!(optima > 200, "{optima} optima compared");
}
