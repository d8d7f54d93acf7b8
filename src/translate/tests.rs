use super::*;
use crate::ground::program::Body;
use crate::solve::minimality_cuts;
use crate::testing::{
    Rng, cnf_models, head_cycle_free, parse, random_program,
    random_program_with_recursive_aggregates, stable_models, supported_models,
};
use varisat::{CnfFormula, Solver};

#[test]
fn translate_random_cnf_models_are_supported_models() {
    let mut rng = Rng::new(7);
    let (mut checked, mut disjunctive) = (0, 0);
    for round in 0..1500 {
        let program = random_program(&mut rng, 6, false);
        let mut formula = CnfFormula::new();
        let mut terms = minimality::SupportTerms::default();
        let translation = translate(&program, &mut formula).expect("nothing to refuse");
        disjunctive += usize::from(!head_cycle_free(&program));
        assert_eq!(translation.stats().variables(), formula.var_count());
        assert_eq!(translation.stats().clauses(), formula.len());
        let models = cnf_models(&formula, &translation);
        assert_eq!(
            models,
            supported_models(&program),
            "round {round}: {program:?}"
        );
        if translation.is_tight() {
            assert_eq!(models, stable_models(&program), "round {round}");
        }
        // Loop formulas, and those of the minimality check where the linear
        // check finds nothing, find exactly the supported models that are
        // not stable.
        let stable = stable_models(&program);
        for &m in &models {
            let values: Vec<bool> = (0..program.atoms.len()).map(|i| m >> i & 1 == 1).collect();
            let clauses = cuts(&translation, &values, &mut terms, &mut formula);
            assert_eq!(clauses.is_empty(), stable.contains(&m), "round {round}");
            // Each clause is violated by the model and holds in every answer set.
            for clause in &clauses {
                let value = |lit: &Lit, m: u64| eval_lit(&formula, &translation, m, *lit);
                assert!(clause.iter().all(|l| !value(l, m)));
                for &s in &stable {
                    assert!(clause.iter().any(|l| value(l, s)));
                }
            }
        }
        checked += 1;
    }
    assert!(checked > 1000);
    assert!(disjunctive > 15, "{disjunctive} not head-cycle-free");
}

/// The value of a literal in the unique CNF model extending an atom set.
/// Recursive aggregates: the completion's models are the supported ones,
/// and the loop formulas (with the definitions they add) cut exactly the
/// unstable ones, each valid in every answer set (and where the minimality
/// check cuts a model, its clauses are so too). Nothing is refused.
#[test]
fn translate_loop_formulas_with_recursive_aggregates() {
    let mut rng = Rng::new(2015);
    let (mut checked, mut recursive, mut nonmonotone, mut disjunctive_recursive) = (0, 0, 0, 0);
    for round in 0..1500 {
        let program = random_program_with_recursive_aggregates(&mut rng, 5);
        let mut formula = CnfFormula::new();
        let mut terms = minimality::SupportTerms::default();
        let translation = translate(&program, &mut formula).expect("nothing to refuse");
        // A checked component of a head-cycle-free program holds a
        // non-monotone recursive aggregate.
        nonmonotone +=
            usize::from(!translation.minimality().is_empty() && head_cycle_free(&program));
        let models = cnf_models(&formula, &translation);
        assert_eq!(
            models,
            supported_models(&program),
            "round {round}: {program:?}"
        );
        let stable = stable_models(&program);
        for &m in &models {
            let values: Vec<bool> = (0..program.atoms.len()).map(|i| m >> i & 1 == 1).collect();
            let clauses = cuts(&translation, &values, &mut terms, &mut formula);
            assert_eq!(
                clauses.is_empty(),
                stable.contains(&m),
                "round {round}: {program:?}"
            );
            for clause in &clauses {
                let value = |lit: &Lit, m: u64| eval_lit(&formula, &translation, m, *lit);
                assert!(clause.iter().all(|l| !value(l, m)), "round {round}");
                for &s in &stable {
                    assert!(
                        clause.iter().any(|l| value(l, s)),
                        "round {round}: {program:?}"
                    );
                }
            }
        }
        checked += 1;
        recursive += usize::from(!translation.recursive_aggregates().is_empty());
        disjunctive_recursive += usize::from(
            !translation.recursive_aggregates().is_empty() && !translation.minimality().is_empty(),
        );
    }
    assert!(checked == 1500, "{checked} checked");
    assert!(
        nonmonotone > 100,
        "{nonmonotone} with non-monotone recursive aggregates"
    );
    assert!(recursive > 400, "{recursive} with recursive aggregates");
    assert!(
        disjunctive_recursive > 50,
        "{disjunctive_recursive} with recursive aggregates in components that are not \
         head-cycle-free"
    );
}

/// The loop formulas of the model `values` (one value per atom), or where
/// the linear check finds none, the minimality check's cuts (its tester
/// the default backend).
fn cuts(
    translation: &Translation,
    values: &[bool],
    terms: &mut minimality::SupportTerms,
    formula: &mut CnfFormula,
) -> Vec<Vec<Lit>> {
    let clauses = loops::loop_formulas(translation, values, formula);
    if !clauses.is_empty() {
        return clauses;
    }
    minimality_cuts(
        translation,
        values,
        terms,
        formula,
        crate::solve::backend::Backend::Varisat,
    )
}

fn eval_lit(formula: &CnfFormula, translation: &Translation, atoms: u64, lit: Lit) -> bool {
    let mut solver = Solver::new();
    solver.add_formula(formula);
    for (i, v) in translation.atom_vars().iter().enumerate() {
        solver.add_clause(&[v.lit(atoms >> i & 1 == 1)]);
    }
    solver.add_clause(&[lit]);
    solver.solve().unwrap()
}

#[test]
fn translate_atoms_come_first() {
    let program = parse("a :- b, c. b :- not c. {c}.");
    let mut formula = CnfFormula::new();
    let t = translate(&program, &mut formula).unwrap();
    for (i, v) in t.atom_vars().iter().enumerate() {
        assert_eq!(v.to_dimacs(), i as isize + 1);
    }
    assert!(t.is_tight());
}

#[test]
fn translate_identical_bodies_share_a_variable() {
    let program = parse("a :- b, c. d :- c, b. e :- b, not c. {b; c}.");
    let mut formula = CnfFormula::new();
    let t = translate(&program, &mut formula).unwrap();
    // Bodies {b, c} and {b, not c} get variables; {} is true.
    assert_eq!(t.stats().body_variables, 2);
    let a = t.supports(AtomId(0));
    let d = t.supports(AtomId(3));
    assert_eq!(t.body_cond(a[0]), t.body_cond(d[0]));
}

/// A sink that records the variables with a value to try first.
#[derive(Default)]
struct DecidingSink {
    formula: CnfFormula,
    deciding: Vec<(Var, bool)>,
}

impl ExtendFormula for DecidingSink {
    fn add_clause(&mut self, literals: &[Lit]) {
        self.formula.add_clause(literals);
    }

    fn new_var(&mut self) -> Var {
        self.formula.new_var()
    }
}

impl ClauseSink for DecidingSink {
    fn new_var_deciding(&mut self, value: bool) -> Var {
        let var = self.new_var();
        self.deciding.push((var, value));
        var
    }
}

#[test]
fn translate_bodies_with_negation_are_tried_true_first() {
    let program = parse("a :- b, c. e :- b, not c. f :- not b, not c. {b; c}.");
    let mut sink = DecidingSink::default();
    let t = translate(&program, &mut sink).unwrap();
    let body_var = |head: u32| match t.body_cond(t.supports(AtomId(head))[0]) {
        Cond::Lit(lit) => lit.var(),
        cond => panic!("{cond:?} is no variable"),
    };
    let (a, e, f) = (body_var(0), body_var(3), body_var(4));
    assert!(!sink.deciding.iter().any(|&(var, _)| var == a));
    assert!(sink.deciding.contains(&(e, true)));
    assert!(sink.deciding.contains(&(f, true)));
    assert_eq!(sink.deciding.len(), 2);
}

#[test]
fn translate_tightness() {
    let tight = |text: &str| {
        let mut formula = CnfFormula::new();
        translate(&parse(text), &mut formula).unwrap().is_tight()
    };
    assert!(tight("a :- not b. b :- not a."));
    assert!(tight("a :- b. b :- c. c."));
    assert!(!tight("a :- b. b :- a."));
    assert!(!tight("a :- a."));
    assert!(!tight("{a : b}. b :- a."));
    assert!(tight(""));
}

#[test]
fn translate_exact_rejects_disjunction_with_head_cycle() {
    let program = parse("a | b. a :- b. b :- a.");
    let mut formula = CnfFormula::new();
    assert!(translate(&program, &mut formula).is_ok());
    let mut formula = CnfFormula::new();
    let error = translate_exact(&program, &mut formula).unwrap_err();
    assert!(error.is_error());
    assert!(
        error.message.starts_with(
            "disjunctive rule is not head-cycle-free: a and b depend positively on each other;"
        ),
        "{}",
        error.message
    );
    assert!(error.message.contains("`asp2sat solve`"));
    assert_eq!(formula.var_count(), 0);
}

#[test]
fn translate_unfounded_loop() {
    let program = parse("a :- b. b :- a. c :- not d. d :- a.");
    let mut formula = CnfFormula::new();
    let t = translate(&program, &mut formula).unwrap();
    assert!(!t.is_tight());
    let model = [true, true, false, true];
    // `d` rests on the loop, unfounded too, but on no cycle itself: it is
    // founded once the loop is, so only the loop is reported.
    assert_eq!(
        loops::unfounded_atoms(&t, &model),
        vec![AtomId(0), AtomId(1)]
    );
    // The loop {a, b} has no external support: ¬a and ¬b. {d} is not a loop
    // and its external body a is true.
    let clauses = loops::loop_formulas(&t, &model, &mut formula);
    assert_eq!(
        clauses,
        vec![vec![!t.atom_lit(AtomId(0))], vec![!t.atom_lit(AtomId(1))]]
    );
    assert!(loops::loop_formulas(&t, &[false, false, true, false], &mut formula).is_empty());
}

#[test]
fn translate_external_support_in_loop_formula() {
    // {c}. a :- c. a :- b. b :- a.
    let program = parse("{c}. a :- c. a :- b. b :- a.");
    let mut formula = CnfFormula::new();
    let t = translate(&program, &mut formula).unwrap();
    let (c, a, b) = (AtomId(0), AtomId(1), AtomId(2));
    let clauses = loops::loop_formulas(&t, &[false, true, true], &mut formula);
    let c_lit = t.atom_lit(c);
    assert_eq!(clauses.len(), 2);
    for (clause, atom) in clauses.iter().zip([a, b]) {
        let mut expected = vec![!t.atom_lit(atom), c_lit];
        normalize_clause(&mut expected);
        assert_eq!(clause, &expected);
    }
}

#[test]
fn translate_shown_symbols_are_sorted_and_merged() {
    let mut program = parse("b. a :- b. {c}. d.");
    let t_sym = program.symbols.function("t", &[], false);
    let a_sym = program.symbols.function("a", &[], false);
    let one = program.symbols.number(1);
    let c = AtomId(2);
    program.atoms[3].shown = false;
    program.show_terms = vec![
        ShowTerm {
            term: t_sym,
            body: Body::new(vec![c], vec![]),
        },
        ShowTerm {
            term: a_sym,
            body: Body::new(vec![c], vec![]),
        },
        ShowTerm {
            term: one,
            body: Body::default(),
        },
    ];
    let mut formula = CnfFormula::new();
    let t = translate(&program, &mut formula).unwrap();
    let names: Vec<String> = t
        .shown()
        .iter()
        .map(|&(s, _)| program.symbols.display(s).to_string())
        .collect();
    assert_eq!(names, ["1", "a", "b", "c", "t"]);
    assert_eq!(t.shown()[0].1, Cond::True);
    // a is shown as an atom and as a term: a fresh disjunction.
    assert_eq!(t.stats().show_variables, 1);
    assert_eq!(t.show_term(0), Cond::Lit(t.atom_lit(c)));
}

use crate::ground::program::ShowTerm;
