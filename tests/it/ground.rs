//! Grounder tests in the style of gringo's own: program text → ground text.
//!
//! Each case runs `asp2sat ground` on a small program and compares its
//! output (the ground program in clingo's `--text` syntax, or the error
//! messages and exit code) with an insta snapshot under `tests/it/snapshots/`,
//! whose header holds the program. Every case is also checked for meaning,
//! so that a snapshot cannot record a wrong grounding unnoticed:
//! - a program asp2sat grounds: clingo's answer sets of the printout, and
//!   asp2sat's of the printout and of the program, equal clingo's answer
//!   sets of the program (as multisets of visible sets);
//! - a program asp2sat rejects (exit 65): clingo rejects it too.
//!
//! Needs clingo 5.4 (`ASP2SAT_CLINGO` overrides the binary's path).

use crate::common::{
    Output, Tool, all_answers_json, asp2sat_bin, parse_json_answer, root, run, scratch, timeout,
};
use std::path::Path;

/// `asp2sat <args> -` with `program` on standard input.
fn asp2sat(args: &[&str], program: &str) -> Output {
    let args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
    run(&asp2sat_bin(), &args, &root(), Some(program), timeout())
}

/// The answer sets of `file` by `tool`, as a sorted multiset of sorted
/// sets; `Err` with the exit code and messages when the tool rejects it.
fn answer_sets(tool: Tool, file: &Path) -> Result<Vec<Vec<String>>, String> {
    // --eq=0: clingo 5.4.1's equivalence preprocessing loses answer sets of
    // some programs mixing disjunction and choice (tests/it/dimacs.rs).
    let extra: &[&str] = match tool {
        Tool::Clingo | Tool::PythonClingo => &["--eq=0"],
        Tool::Asp2sat => &[],
    };
    let output = all_answers_json(tool, &file.display().to_string(), extra);
    if !matches!(output.code, Some(20 | 30)) {
        return Err(format!("{}\n{}", output.status(), output.stderr));
    }
    Ok(parse_json_answer(&output.stdout)?.sorted())
}

/// Grounds `program`, compares the result with the snapshot `name`, then
/// checks its meaning against clingo (see the module documentation).
fn check(name: &str, program: &str) {
    let ground = asp2sat(&["ground"], program);
    let printed = match ground.code {
        Some(0) => ground.stdout.clone(),
        _ => format!("{}\n{}", ground.status(), ground.stderr),
    };
    insta::with_settings!({ description => program, omit_expression => true }, {
        insta::assert_snapshot!(name, printed);
    });

    let dir = scratch("ground");
    let original = dir.join(format!("{name}.lp"));
    std::fs::write(&original, program).unwrap();
    let expected = answer_sets(Tool::Clingo, &original);
    if ground.code != Some(0) {
        assert_eq!(ground.code, Some(65), "asp2sat ground: {}", ground.stderr);
        assert!(
            expected.is_err(),
            "asp2sat rejects the program but clingo answers {expected:?}"
        );
        return;
    }
    let expected = expected.unwrap_or_else(|e| panic!("clingo on the program: {e}"));
    let printout = dir.join(format!("{name}.ground.lp"));
    std::fs::write(&printout, &ground.stdout).unwrap();
    for (tool, file, what) in [
        (
            Tool::Clingo,
            &printout,
            "clingo's answer sets of the printout",
        ),
        (
            Tool::Asp2sat,
            &printout,
            "asp2sat's answer sets of the printout",
        ),
        (
            Tool::Asp2sat,
            &original,
            "asp2sat's answer sets of the program",
        ),
    ] {
        let answer = answer_sets(tool, file).unwrap_or_else(|e| panic!("{what}: {e}"));
        assert_eq!(answer, expected, "{what}");
    }
}

/// One `#[test]` per case: `case!(name, "program")`.
macro_rules! case {
    ($name:ident, $program:expr) => {
        #[test]
        fn $name() {
            check(stringify!($name), $program);
        }
    };
}

// Facts, rules and the order of the printout.
case!(
    facts_and_rules,
    "p(2). p(1). p(10). q(X) :- p(X), X > 1. r(X) :- q(X), not s(X). {s(10)}."
);
case!(
    terms,
    "p(\"a b\"). p(f(1,-2)). p((1,2)). p((3,)). p(b). p(-3). q(X) :- p(X)."
);

// Joins.
case!(
    join_shared_variables,
    "e(1,2). e(2,3). e(3,4). e(4,1). path2(X,Z) :- e(X,Y), e(Y,Z)."
);
case!(
    join_index_lookup,
    "{e(1,2); e(2,3); e(1,3); e(3,1)}. tri(X,Y,Z) :- e(X,Y), e(Y,Z), e(X,Z)."
);
case!(
    join_constants_and_comparisons,
    "p(1..4). q(a,1). q(b,3). r(N,X) :- q(N,X), p(Y), Y = X+1. s(X,Y) :- p(X), p(Y), X < Y, Y < 3."
);

// Recursion.
case!(
    transitive_closure,
    "e(1,2). e(2,3). e(3,1). e(3,4). t(X,Y) :- e(X,Y). t(X,Z) :- t(X,Y), e(Y,Z)."
);
case!(
    transitive_closure_over_choices,
    "{e(1,2); e(2,3); e(3,1)}. t(X,Y) :- e(X,Y). t(X,Z) :- t(X,Y), e(Y,Z)."
);
case!(
    recursion_through_arithmetic_in_body,
    "n(1..4). f(0). f(N) :- n(N), f(N-1)."
);
case!(
    recursion_through_arithmetic_body_order_swapped,
    "n(1..4). f(0). f(N) :- f(N-1), n(N)."
);
case!(
    recursion_through_arithmetic_over_choices,
    "{n(1..3)}. f(0). f(N) :- f(N-1), n(N)."
);
case!(
    recursion_through_arithmetic_in_head,
    "p(0). p(X+1) :- p(X), X < 3."
);

// Binding: assignments in either direction, inversion of linear terms,
// unification with function terms.
case!(
    binding_by_inverting_linear_terms,
    "p(1..3). q(Y') :- p(Y), Y'-1 = Y. r(Y') :- p(Y), Y = Y'-1. s(X) :- p(Y), 2*X = Y."
);
case!(
    binding_by_unification,
    "sym(f(a,1,2)). sym(f(a,2,4)). q(X) :- F = f(a,X,X+1), sym(F). r(X,Y) :- sym(f(a,X,Y)), (X,Y) = (1,Z), Z > 1."
);
case!(
    binding_inside_atom_arguments,
    "p(-2). p(-5). q(X) :- p((-(X+3))+2). r(X) :- p(-X-2)."
);
case!(
    assignment_and_interval_binding,
    "p(X) :- X = 1..3, X != 2. q(X,Y) :- p(X), Y = X*X."
);

// Intervals and pools.
case!(
    interval_in_head,
    "p(1..3). q(X,1..2) :- p(X), X > 1. r(1..0)."
);
case!(
    interval_in_body,
    "p(1). p(3). {p(4)}. q :- p(2..5). r(X) :- X = 1..3. s :- p(5..6)."
);
case!(
    pool_in_head,
    "p(1;2;3). q(a;b). r((1;2),(x;y)). s(X;Y) :- p(X), p(Y), X < Y, Y < 3."
);
case!(pool_in_body, "p(1). {p(2)}. q :- p(1;4). r :- p(2;5).");

// Safety: located errors, exit code 65.
case!(unsafe_head_variable, "p(X) :- q. q.");
case!(unsafe_negative_literal, "q(1). p :- q(X), not r(Y).");
case!(unsafe_comparison, "p :- X < 2.");
case!(
    unsafe_arithmetic_binding,
    "q(1). p(X) :- q(Y), X+Y = 2, X*Y = 1."
);

// Undefined arithmetic: the instance disappears.
case!(
    division_by_zero_in_body,
    "p(0..2). q(X) :- p(X), 4/X > 1. r(X) :- p(X), Y = 4\\X, Y > 0."
);
case!(
    arithmetic_operators,
    "p(7/2, -7/2, 7\\-2, -7\\2, 2**3, 2**-1, 1**-1, 0**0, |-3|, 5&3, 5?3, 5^3, ~5). q(0**-1)."
);
case!(negated_tuple_term, "p(-(1,2)). q(X) :- p(-X).");
case!(division_by_zero_in_head, "p(0..2). q(4/X) :- p(X).");
case!(
    arithmetic_on_constants,
    "p(a). p(1). p(\"s\"). q(X+1) :- p(X). r(X) :- p(X), X*2 > 1."
);
case!(undefined_choice_bound, "q. 1/0 { a } :- q.");
case!(
    choice_bound_on_constant,
    "n(a). n(0). X+1 { b(X) } :- n(X)."
);
case!(
    undefined_show_term,
    "p(0..1). p(a). #show 1/X : p(X). #show X+1 : p(X)."
);

// Projection of anonymous variables in negative literals.
case!(
    projection_of_anonymous_variable,
    "p(1,2). {p(2,3)}. q(1..3). r(X) :- q(X), not p(X,_)."
);
case!(
    projection_with_arithmetic,
    "d(0,2). d(1,5). q(1..4). r(X) :- q(X), not d(_,X+1)."
);
case!(
    projection_with_arithmetic_over_choices,
    "p(1,2). {d(0,2)}. q(1..2). r(X) :- q(X), not d(_,X+1)."
);

// Choice rules.
case!(
    choice_with_conditions,
    "p(1..3). {q(X) : p(X), X != 2} :- r. {r}. {s(X) : p(X), not r}."
);
case!(
    choice_with_bounds,
    "p(1..3). 1 {q(X) : p(X)} 2. {a; b; c} = 2. 1 {x; y} 1 :- a. 2 {u; v; w}."
);
case!(
    choice_with_conditions_on_choices,
    "{p(1..3)}. 1 {q(X) : p(X)} 1. {r(X) : p(X), not q(X)} 1."
);
case!(choice_decided_by_facts, "a. {a; b} 1. c. 2 {c; d}.");

// Disjunction.
case!(
    disjunction,
    "a | b. c ; d :- a. p(1..2). q(X) | r(X) :- p(X). e | f :- c."
);
case!(disjunction_with_fact_head, "a. a | b. c | d :- not a.");
case!(
    disjunction_with_head_cycle,
    "d(1..3). p(X) | q(X) :- d(X). p(X) :- q(X), d(X). q(X) :- p(X), X > 1."
);
case!(
    negation_in_heads,
    "{b(1..3)}. a(X) | not b(X) :- b(X), X > 1. not a(1) :- b(1). c | not not b(2) :- not a(3)."
);
case!(
    negated_conditional_disjunct,
    "p(1..4). {r(1..4)}. q(X) : p(X), X <= 2 | not r(X) : p(X), X >= 3."
);
case!(
    double_negation_in_bodies,
    "{a(1..3)}. b(X) :- a(X), not not a(X+1). c :- not not #count{X : a(X)} >= 2. b(4) :- not not b(4)."
);
case!(
    external_atoms,
    "v(true;false;free). #external e(X) : v(X). [X] #external f. g :- f. h :- e(free)."
);
case!(
    comparison_heads,
    "{p(1..4)}. X+1 < 4 :- p(X). q(a;b). {r(X)} :- q(X). X = a :- r(X)."
);
case!(
    comparison_disjuncts,
    "{p(1..3)}. q(X) ; X < 2 :- p(X). r(X) | not p(X+1) | X > 5 :- p(X)."
);
case!(
    edge_directive,
    "node(1..3). {e(X,Y) : node(X), node(Y), X != Y}. #edge (X,Y) : e(X,Y). #edge (a,b;b,c). #edge (c,a) : e(1,2)."
);
case!(
    project_directive_and_parts,
    "#project p/1. {p(1..2)}. #program step(t). q(t). #edge (a,b;b,a). #program base. r :- p(1)."
);

// Strong negation.
case!(
    strong_negation,
    "-p(1). p(2). {p(1); -p(2); -p(3); p(3)}. q(X) :- -p(X). r(X) :- p(X), not -p(X)."
);

// `#show` forms.
case!(
    show_signatures,
    "p(1). q(1). {r(1)}. -r(2). #show p/1. #show r/1. #show -r/1."
);
case!(show_nothing, "{a}. b :- a. #show.");
// Hidden atoms that only constraints use are unfolded into them, unless
// that multiplies constraints (`u` and `w`, of two rules each, together).
case!(
    hidden_constraint_atoms_unfolded,
    "{p(1..4)}. q :- p(1). q :- p(2), not p(4). :- q, p(3). r(X) :- p(X). :- r(X), r(X+1). \
     u :- p(1). u :- p(2). w :- p(3). w :- p(4). :- u, w. #show p/1."
);
// A chain of them unfolds one link a round, for three rounds at most (as
// clasp bounds its equivalence preprocessing): `a1` and `a2` stay.
case!(
    hidden_constraint_atom_chain_unfolded_three_links,
    "{p(1..2)}. a1 :- p(1). a2 :- a1. a3 :- a2. a4 :- a3. a5 :- a4. :- a5, p(2). #show p/1."
);
case!(
    show_terms,
    "{p(1..2)}. #show. #show X : p(X). #show f(X,\"s\") : p(X), not p(3-X). #show c. #show (1,2)."
);
case!(show_terms_keep_atoms_shown, "a. {b}. #show t : b.");

// Body aggregates: an auxiliary atom per aggregate, defined by one rule.
case!(
    aggregate_count_and_sum,
    "{q(1..3)}. r :- #count{X : q(X)} >= 2. s :- 2 #sum{X : q(X); -1 : q(2)} 4. :- #count{X : q(X)} > 2."
);
case!(
    aggregate_min_and_max,
    "{q(1..3)}. {r(a;b)}. s :- #max{X : q(X)} < 2. t :- #min{X : q(X); Y : r(Y)} = 2. u :- #min{X : q(X)} > 2."
);
case!(
    aggregate_of_the_empty_set,
    "{q(1..2)}. x :- #max{X : q(X)} = #inf. y :- #min{X : q(X)} = #sup. z :- #count{X : q(X)} = 0."
);
case!(
    aggregate_assignment,
    "{q(1..3)}. c(N) :- N = #count{X : q(X)}. m(M) :- M = #max{X : q(X)}."
);
case!(
    aggregate_decided_by_facts,
    "p(1..3). r :- #count{X : p(X)} = 3. s :- #sum{X : p(X)} > 10. t(S) :- S = #sum{X : p(X)}."
);

// Written as body aggregates by the grounder.
case!(
    conditional_literal_in_body,
    "{q(1..3)}. {p(1..3)}. ok :- p(X) : q(X)."
);
case!(choice_with_not_equal_bound, "{a; b; c} != 2.");
case!(
    head_aggregate,
    "q(1..3). 1 #count{X : r(X) : q(X)} 2. {s(1..3)}. #sum{X,t : t(X) : s(X)} >= 3."
);
case!(
    conditional_disjunction_over_facts,
    "q(1..3). p(X) : q(X), X > 1 | s(X) : q(X), X < 2 :- not t. {t}."
);
case!(
    conditional_disjunction_over_choices,
    "{q(1..2)}. p(X) : q(X) | r. p(1) :- r, q(2)."
);
case!(
    recursive_aggregate,
    "e(1,2;2,3;3,1). {s(1..3)}. r(X) :- s(X). r(Y) :- e(X,Y), #count{Z : r(Z), e(Z,Y)} >= 1."
);
case!(
    recursive_conditional_literal,
    "n(1..3). e(1,2;1,3;2,3). {x(1..3)}. r(X) :- x(X). r(Y) :- n(Y), r(X) : e(X,Y)."
);

// Constants.
case!(
    constants,
    "#const n = 3. #const m = n*2. #const k = f(n). p(1..n). q(m). r(k). s(X) :- p(X), X < n."
);

case!(constant_redefinition, "#const a=1. #const a=2. p(a).");
case!(constant_cycle, "#const a=b. #const b=a. p(a).");

// Simplification of negation and constraints against facts and
// underivable atoms.
case!(
    negation_against_facts,
    "p(1). r(1..2). q(X) :- r(X), not p(X). s :- not p(1). t :- not u."
);
case!(
    negation_against_choices,
    "{a}. b :- not a. c :- not b. d :- not e. e :- f."
);
case!(
    constraints,
    "{a; b; c}. :- a, b. :- not a, not b. :- c, x. :- c, not y."
);
case!(constraint_violated_by_facts, "a. b :- a. :- b.");
case!(
    positive_loop,
    "{c}. a :- b. b :- a. a :- c. d :- e. e :- d."
);

/// `solve --text` is the same as `ground`, flags included.
#[test]
fn solve_text_prints_the_ground_program() {
    let program = "#const n = 2. p(1..n). {q(X)} :- p(X). #show q/1.";
    let ground = asp2sat(&["ground", "-c", "n=3"], program);
    let solve = asp2sat(&["solve", "--text", "-c", "n=3", "0"], program);
    assert_eq!(ground.code, Some(0), "{}", ground.stderr);
    assert_eq!(solve.code, Some(0), "{}", solve.stderr);
    assert_eq!(solve.stdout, ground.stdout);
    assert!(ground.stdout.contains("\n{q(3)}.\n"), "{}", ground.stdout);
}

/// A syntax error: exit 65 and gringo's message, as for `solve`.
#[test]
fn ground_reports_syntax_errors() {
    let ground = asp2sat(&["ground"], "p(1.");
    assert_eq!(ground.code, Some(65));
    assert!(ground.stdout.is_empty());
    assert!(ground.stderr.contains("-:1:"), "{}", ground.stderr);
}

/// Standard output that cannot be written: exit 74 (`EX_IOERR`), as for
/// `dimacs`.
#[test]
fn ground_reports_a_failed_write() {
    let program = scratch("ground").join("failed_write.lp");
    std::fs::write(&program, "p(1..3).").unwrap();
    let full = std::fs::File::create("/dev/full").expect("/dev/full (Linux)");
    let output = std::process::Command::new(asp2sat_bin())
        .arg("ground")
        .arg(&program)
        .stdout(full)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(74), "{stderr}");
    assert!(
        stderr.contains("could not write standard output"),
        "{stderr}"
    );
}
