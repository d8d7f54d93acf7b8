//! What clingo 5.8 reads that clingo 5.4 did not, answered as clingo 5.8
//! answers it: comparison chains (`1 <= X < 3`, clingo 5.6) in every place
//! a comparison stands, variables bound by the ranges that comparisons
//! confine them to (clingo 5.6's inequality solver), integers past 32 bits
//! read in two's complement. Each program runs through the asp2sat binary
//! and through clingo 5.8 (`python3 -m clingo`); their answer sets must be
//! the same multiset, and their results (and optimal costs) the same.
//! clingo 5.4 cannot read these programs.
//!
//! Programs that clingo 5.8 reads but asp2sat refuses, with its message,
//! and programs that both refuse, follow.

use crate::common::{Tool, all_answers_json, parallel_map, parse_json_answer, scratch, threads};

/// The optimal answer sets alone, for optimization.
const OPTIMAL: &[&str] = &["--opt-mode=optN", "--quiet=1"];

/// Programs that both read, with arguments for both.
const AGREED: &[(&str, &[&str])] = &[
    // Chains in bodies: the conjunction of adjacent comparisons; `not`
    // before a chain negates the conjunction; `=` in a chain binds.
    ("p(1..4). q(X,Y,Z) :- p(X), p(Y), p(Z), X < Y < Z.", &[]),
    ("p(1..4). q(X,Y,Z) :- p(X), p(Y), p(Z), not X < Y < Z.", &[]),
    (
        "p(1..3). q(X,Y,Z) :- p(X), p(Y), p(Z), not not X < Y <= Z.",
        &[],
    ),
    ("p(1..3). q(X,Y) :- p(Y), X = Y + 1 < 3.", &[]),
    ("p(1..3). q(X,Y) :- p(Y), 0 < X = Y + 1 != 3.", &[]),
    ("p(1..3). q(X) :- p(X), 1 != X == X <> 3.", &[]),
    (
        "p(1..5). q(X) :- p(X), not 2 <= X <= 4, not X = 5 > 1.",
        &[],
    ),
    ("q :- 1 < 2 < 3. r :- 1 < 3 < 2. s :- not 1 < 3 < 2.", &[]),
    ("q :- 1 < a+1 < 3. r :- not not 1 < a+1 < 3.", &[]),
    ("{ p(1..4) }. :- p(X), p(Y), X < Y, not 1 < Y - X < 3.", &[]),
    // clingo's test lparse-IESolver: hexadecimal bounds, the second in
    // two's complement.
    (
        "p(1). p(a). q :- p(X), -0x7FFFFFFF-1 <= X <= 0x7FFFFFFF.",
        &[],
    ),
    ("p(1). p(a). q :- p(X), 0x80000000 <= X <= 0x7FFFFFFF.", &[]),
    // A pool or an interval between two relations is one value in both
    // comparisons; an anonymous variable one variable.
    (
        "q :- 1 < (0;5) < 3. r :- 1 < (0..5) < 1. s :- not 1 < (2;0) < 3.",
        &[],
    ),
    ("q :- 1 < _ < 3.", &[]),
    // An interval in a chain is one of its values, found from the bounds
    // the comparisons set, not by trying each (these took minutes); in the
    // literal of a conditional literal, where the condition holds.
    (
        "h :- not 1 < (2..2147483647) < 4 : a. i :- not 1 < (2..2147483647) < 4. \
         j :- 1 < (2..2147483647) < 4 : b. {b}.",
        &[],
    ),
    // A chain of intervals: the middle's values are tried only until one
    // has a value of the last after it (this took minutes), and none where
    // the last's bounds leave it none.
    ("h :- 1 < 2..2147483647 < 2..2147483647.", &[]),
    (
        "h :- 1 < 2..2147483647 < 2..2147483647 < 2..2147483647.",
        &[],
    ),
    (
        "h :- 1 < 2..2147483647 < 1..1. i :- 5 > 1..2147483647 > 0..2147483647.",
        &[],
    ),
    ("{r(1..3)}. g(X) :- r(X), X < 2..2147483647 < 4.", &[]),
    (
        "x(1..3). h(X) :- x(X), not X < (2..4) < 4 : a. i(X) :- x(X), X < (2..4) < 4 : a. {a}.",
        &[],
    ),
    // An empty interval fails only where the condition holds.
    (
        "h :- 1 < (5..2) < 4 : a. i :- not 1 < (x..2) < 4 : b. {a;b}.",
        &[],
    ),
    (
        "q(X) :- 0 < X = (1;2;7) < 5. r(X) :- X = (1;2) < (2;3).",
        &[],
    ),
    (
        "p(1..3). q(X) :- p(X), X < (0;5) < 3, not X < (1..4) < 2.",
        &[],
    ),
    ("p(1..2). q :- #count{ X : p(X), 1 < (X;5) < 3 } = 1.", &[]),
    (
        "q :- 1 < (0;2) < 3 : r. s :- not 1 < (0;5) < 3 : r. t :- 1 < (0;5) < 3 : r. r.",
        &[],
    ),
    ("q :- { 1 < (0;2;5) < 3 ; 0 < (1..2) < 3 } = 3.", &[]),
    ("p(0..4). q(N) :- N = { (1;2) < X < (3;4) : p(X) }.", &[]),
    (
        "p(0..4). q(N) :- N = { X < (2;4) : p(X) }. { r(X) : X = (1;3) > 2 }.",
        &[],
    ),
    ("{ 1 < (0;2) < 3 } = 1.", &[]),
    ("1 < (0;2) < 3 :- q. q.", &[]),
    ("a ; 1 < (2;0) < 3 :- q. q.", &[]),
    ("q :- 1 < (X;2) < 3.", &[]),
    // In conditions: of aggregates, conditional literals, choices,
    // head aggregates, disjunctions, optimization.
    (
        "p(1..4). r :- #count{X,Y,Z : p(X), p(Y), p(Z), X < Y < Z} = 4.",
        &[],
    ),
    (
        "p(1..4). s(N) :- N = #count{X,Y,Z : p(X), p(Y), p(Z), not X < Y < Z}.",
        &[],
    ),
    (
        "p(1..4). s(S) :- S = #sum{X : p(X), not 2 < X < 4, X != 1}.",
        &[],
    ),
    (
        "p(1..4). {c(X,Y,Z) : p(X), p(Y), p(Z), X < Y < Z} = 4.",
        &[],
    ),
    ("p(1..4). {c(X) : p(X), not 1 < X < 4} = 1.", &[]),
    ("p(1..3). ok :- q(X) : p(X), 1 < X < 3. q(2).", &[]),
    (
        "p(1..3). ok :- q(X) : p(X), not 1 < X < 3. q(1). q(3).",
        &[],
    ),
    ("p(1..3). r(X) : p(X), not 1 < X < 3 ; s.", &[]),
    (
        "p(1..3). #count{ X : r(X) : p(X), not 1 < X <= 2 } = 1.",
        &[],
    ),
    ("p(1..4). #show (X,Y) : p(X), p(Y), X < Y < 3.", &[]),
    ("p(1..4). #show X : p(X), not 1 < X < 4.", &[]),
    (
        "p(1..4). {q(X) : p(X)}. #minimize{ X : q(X), not 1 < X < 4 }. :- not q(_).",
        OPTIMAL,
    ),
    (
        "p(1..4). {q(X) : p(X)} = 2. :~ q(X), q(Y), X < Y < X + 2. [1,X]",
        OPTIMAL,
    ),
    // The literal of a conditional literal: each comparison must hold;
    // negated, they must not all hold.
    ("p(2..3). ok :- 1 < X < 4 : p(X).", &[]),
    ("p(2..4). ok :- 1 < X < 4 : p(X).", &[]),
    ("p(2..4). ok :- not 1 < X < 4 : p(X).", &[]),
    ("p(5..6). ok :- not 1 < X < 4 : p(X).", &[]),
    // In literal sets: each ground chain once.
    ("p(1..3). q :- { X < Y < 3 : p(X), p(Y) } = 1.", &[]),
    ("p(1..3). q :- { not X < Y < 3 : p(X), p(Y) } = 8.", &[]),
    (
        "p(1..3). q(N) :- N = { X < Y < 4 : p(X), p(Y); a : p(1) }. a.",
        &[],
    ),
    // In heads: the rule holds when the comparisons do, or the rest of
    // the head holds; under a condition without variables.
    ("p(1..3). X < Y < Z :- p(X), p(Y), p(Z).", &[]),
    ("1 < 2 < X :- X = 3.", &[]),
    ("a ; 1 < 2 < X :- X = (2;3).", &[]),
    (
        "a ; X < 2 < 3 :- X = (1;2). b :- X = (1;2), not X < 2 < 3.",
        &[],
    ),
    ("not 1 < X < 3 :- X = (1;3).", &[]),
    ("not 1 < X < 3 :- X = (1;2;3).", &[]),
    ("a ; not 1 < X < 3 :- X = 2.", &[]),
    ("a ; not X < 3 :- X = (2;3).", &[]),
    ("b. q. a ; not 1<2<3 : b | not 4<5<6 : c :- q.", &[]),
    ("b. c. q. a ; 1<2<3 : b | 4<6<5 : c :- q.", &[]),
    // Comparisons as the elements of choices and head aggregates: they
    // count when they hold, and choose nothing.
    ("{ a; 1 < 2 } >= 2.", &[]),
    ("{ a; 1 < 2; 2 < 3 } >= 3.", &[]),
    ("{ a; 1 < 2 < 3 } = 1.", &[]),
    ("{ a; not 1 < 2 < 3 } = 1.", &[]),
    ("p(1..3). { a; X < 2 : p(X) } = 2.", &[]),
    ("p(1..3). #count{ 1 : a ; 2 : X < 2 : p(X) } = 2.", &[]),
    (
        "p(1..3). #count{ X : a : p(X) ; X : not 1 < X < 3 : p(X) } = 3.",
        &[],
    ),
    // Variables bound by the ranges that comparisons confine them to.
    ("q(X) :- 1 <= X <= 3.", &[]),
    ("q(X) :- X >= 1, not X > 3.", &[]),
    ("q(X) :- 1 <= X+1 <= 3.", &[]),
    ("#const n = 3. q(X,Y) :- 1 <= X <= n, X <= Y <= 4.", &[]),
    ("q(X,Y) :- 1 <= X <= n, X <= Y <= 4.", &["-c", "n=3"]),
    ("q(X,Y) :- X + Y <= 3, X >= 0, Y >= 0.", &[]),
    ("q(X) :- X = 2*Y, 0 <= Y <= 3.", &[]),
    ("q(X) :- 2*X <= 7, X >= -1. r(X) :- 3*X >= 7, X <= 5.", &[]),
    ("q(X) :- X < 3, X > 5.", &[]),
    ("q(X) :- 1 <= X <= 3, X != 2.", &[]),
    ("X > 2 :- 1 <= X <= 10.", &[]),
    ("q(N) :- N = #count{ X : 1 <= X <= 5 }.", &[]),
    ("q :- r(X) : 1 <= X <= 3. r(1..3).", &[]),
    ("r(X) : 1 <= X <= 3.", &[]),
    ("2 #count { X : r(X) : 1 <= X <= 3 } 3.", &[]),
    ("{ r(X) : 1 <= X <= 2 }.", &[]),
    ("q :- 2 { r(X) : 1 <= X <= 3 } 3. { r(1..4) }.", &[]),
    ("#show X : 1 <= X <= 3.", &[]),
    ("{ q(1..4) }. #maximize{ X : q(X), 2 <= X <= 3 }.", OPTIMAL),
    (
        "p(1..3). q(X) :- #count{ Y : p(Y), Y < X } = 1, 0 < X < 5.",
        &[],
    ),
    ("r(0..1). q(X) :- 0 <= X <= 2, r(Y) : 0 <= Y <= X.", &[]),
    (
        "q(5). p(S) :- q(B), S <= B, 0 <= X <= 0x7FFFFFFF, 0 <= Y <= 0x7FFFFFFF, \
         S = 0x7FFFFFFF*X + 0x7FFFFFFF*Y.",
        &[],
    ),
    // Integers past 32 bits wrap around; uppercase hexadecimal digits.
    (
        "p(2147483648). q(-2147483649). r(99999999999999999999999). s(0xFFFFFFFF). t(0xFF,0xff).",
        &[],
    ),
    // Empty conditions in a disjunction (clingo 5.5).
    ("a :; b :; c :.", &[]),
];

/// Programs that clingo 5.8 reads and asp2sat refuses, with the message.
const REFUSED: &[(&str, &str)] = &[
    // clingo keeps the instance of the condition it grounds first: its
    // answer depends on the order of the facts.
    (
        "p(1..4). X >= 3 : p(X) ; a.",
        "1:10-23: error: a comparison in a disjunction under a condition over variables",
    ),
    // A pool between relations in a conditional literal: clingo expands it
    // once per instance of the condition.
    (
        "p(1..2). q :- 1 < (X;5) < 3 : p(X).",
        "1:15-35: error: a chain of comparisons with a pool or an interval, as the literal of a conditional",
    ),
    (
        "asp 1 0 0\n1 0 1 1 0 0\n4 1 a 1 1\n0\n",
        "1:1-10: error: aspif input (clingo's ground intermediate format",
    ),
];

/// Programs that both refuse, with a part of the message both print.
const BOTH_REFUSE: &[(&str, &str)] = &[
    // A range needs constant bounds on both sides.
    ("p(3). q(X) :- p(Z), 1 <= X, X < Z.", "'X' is unsafe"),
    ("q(X) :- 1 <= X.", "'X' is unsafe"),
    // A negated chain binds nothing.
    ("p(1,2). q :- not X < Y < Z, p(Y,Z).", "'X' is unsafe"),
    ("p(1,2). q :- not X = Y < Z, p(Y,Z).", "'X' is unsafe"),
    ("p(1,2). q :- X < Y < Z, p(Y,Z).", "'X' is unsafe"),
    // A program part's parameter is a variable there, not a constant.
    (
        "#include <incmode>. #const imin = 2. #program step(t). q(t,X) :- 1 <= X <= t.",
        "'X' is unsafe",
    ),
];

fn write_cases(name: &str, programs: impl Iterator<Item = &'static str>) -> Vec<String> {
    let dir = scratch(name);
    (programs.enumerate())
        .map(|(i, program)| {
            let file = dir.join(format!("case{i}.lp"));
            std::fs::write(&file, program).unwrap();
            file.to_string_lossy().into_owned()
        })
        .collect()
}

#[test]
fn answers_equal_clingo_5_8s() {
    let files = write_cases("syntax58", AGREED.iter().map(|&(program, _)| program));
    let cases: Vec<_> = AGREED.iter().zip(&files).collect();
    let failures: Vec<String> = parallel_map(&cases, threads(), |_, &(&(program, extra), file)| {
        let answers = [Tool::Asp2sat, Tool::PythonClingo].map(|tool| {
            let output = all_answers_json(tool, file, extra);
            parse_json_answer(&output.stdout)
                .map_err(|e| format!("{tool:?}: {e} ({})\n{}", output.status(), output.stderr))
        });
        match answers {
            [Ok(ours), Ok(theirs)] if theirs.result == "UNKNOWN" => {
                Some(format!("clingo 5.8 does not read `{program}`: {ours:?}"))
            }
            [Ok(ours), Ok(theirs)]
                if (ours.result.as_str(), ours.sorted(), &ours.costs)
                    == (theirs.result.as_str(), theirs.sorted(), &theirs.costs) =>
            {
                None
            }
            [Ok(ours), Ok(theirs)] => Some(format!(
                "`{program}` {extra:?}:\n  clingo 5.8: {} {:?} {:?}\n  asp2sat:    {} {:?} {:?}",
                theirs.result,
                theirs.sorted(),
                theirs.costs,
                ours.result,
                ours.sorted(),
                ours.costs
            )),
            [ours, theirs] => Some(format!(
                "`{program}` {extra:?}:\n  {:?}\n  {:?}",
                ours.err(),
                theirs.err()
            )),
        }
    })
    .into_iter()
    .flatten()
    .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn refusals_are_located_errors() {
    let files = write_cases(
        "syntax58-refused",
        REFUSED.iter().map(|&(program, _)| program),
    );
    let mut failures = Vec::new();
    for (&(program, message), file) in REFUSED.iter().zip(&files) {
        let ours = all_answers_json(Tool::Asp2sat, file, &[]);
        if ours.code != Some(65) || !ours.stderr.contains(message) {
            failures.push(format!(
                "`{program}`: expected exit 65 and `{message}`, got {}:\n{}",
                ours.status(),
                ours.stderr
            ));
        }
        let theirs = parse_json_answer(&all_answers_json(Tool::PythonClingo, file, &[]).stdout);
        if !theirs.is_ok_and(|answer| answer.result != "UNKNOWN") {
            failures.push(format!("clingo 5.8 does not read `{program}` either"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn both_refuse_unsafe_variables() {
    let files = write_cases(
        "syntax58-unsafe",
        BOTH_REFUSE.iter().map(|&(program, _)| program),
    );
    let mut failures = Vec::new();
    for (&(program, message), file) in BOTH_REFUSE.iter().zip(&files) {
        for tool in [Tool::Asp2sat, Tool::PythonClingo] {
            let output = all_answers_json(tool, file, &[]);
            // clingo 5.8 from PyPI exits 0 whatever happened.
            let refused = tool == Tool::PythonClingo || output.code == Some(65);
            if !refused || !output.stderr.contains(message) {
                failures.push(format!(
                    "{tool:?} on `{program}`: expected `{message}`, got {}:\n{}",
                    output.status(),
                    output.stderr
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
