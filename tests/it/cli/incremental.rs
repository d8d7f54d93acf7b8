//! Program parts and clingo's incremental mode.

use super::{
    asp2sat, assert_stderr_has, json, output, rejected, rejected_with, solve, text_answers,
};

// ---------------------------------------------------------------------------
// Program parts and clingo's incremental mode

#[test]
fn each_file_starts_in_the_part_base() {
    // clingo part_at_end.lp facts_after_part.lp: Answer: p q. The facts of
    // the second file are not in the part `step` the first one ends in.
    let out = output(solve(&[
        "-n",
        "0",
        "fixtures/cli/part_at_end.lp",
        "fixtures/cli/facts_after_part.lp",
    ]));
    assert_eq!(out.code, Some(30), "stderr: {}", out.stderr);
    assert_eq!(text_answers(&out.stdout), vec![vec!["p", "q"]]);
}

#[test]
fn incremental_mode_solves_until_a_step_is_satisfiable() {
    // clingo -n 0 incremental.lp: four calls (steps 0..3), one answer set.
    let out = output(solve(&["-n", "0", "fixtures/cli/incremental.lp"]));
    assert_eq!(out.code, Some(30), "stderr: {}", out.stderr);
    assert_eq!(
        text_answers(&out.stdout),
        vec![vec!["inc(1)", "inc(2)", "inc(3)"]]
    );
    assert_eq!(out.stdout.matches("Solving...").count(), 4);
    assert!(out.stdout.contains("Calls        : 4"), "{}", out.stdout);
    let document = json(
        &output(solve(&[
            "--outf=2",
            "-n",
            "0",
            "fixtures/cli/incremental.lp",
        ]))
        .stdout,
    );
    assert_eq!(document["Calls"], 4);
    let calls = document["Call"].as_array().expect("a list of calls");
    assert_eq!(calls.len(), 4);
    assert!(calls[..3].iter().all(|c| c.get("Witnesses").is_none()));
    assert_eq!(calls[3]["Witnesses"][0]["Value"][0], "inc(1)");
}

#[test]
fn incremental_mode_reads_imax_and_istop() {
    // clingo -c imax=2: steps 0 and 1, both unsatisfiable, exit 20.
    let out = output(solve(&["fixtures/cli/incremental.lp", "-c", "imax=2"]));
    assert_eq!(out.code, Some(20), "stderr: {}", out.stderr);
    assert!(out.stdout.contains("Calls        : 2"), "{}", out.stdout);
    // clingo -c istop="UNSAT": stops at the first unsatisfiable step.
    let out = output(solve(&[
        "fixtures/cli/incremental.lp",
        "-c",
        "istop=\"UNSAT\"",
    ]));
    assert_eq!(out.code, Some(20), "stderr: {}", out.stderr);
    assert!(out.stdout.contains("Calls        : 1"), "{}", out.stdout);
    let out = rejected_with(&["fixtures/cli/incremental.lp", "-c", "istop=sat"]);
    assert_stderr_has(&out, "incremental.lp:2:1-20: error: the constant `istop`");
}

#[test]
fn incremental_steps_see_only_the_atoms_of_earlier_steps() {
    // clingo -n 0 incremental_late.lp: Answer: a b(1) query(1). Base is
    // grounded before step 1 defines b(1), so `not b(1)` holds there.
    let out = output(solve(&["-n", "0", "fixtures/cli/incremental_late.lp"]));
    assert_eq!(out.code, Some(30), "stderr: {}", out.stderr);
    assert_eq!(
        text_answers(&out.stdout),
        vec![vec!["a", "b(1)", "query(1)"]]
    );
}

#[test]
fn incremental_redefinition_is_an_error() {
    // clingo: `*** ERROR: (clingo): redefinition of atom <'p',2>`, exit 65.
    let out = rejected("fixtures/cli/incremental_redefinition.lp");
    assert_stderr_has(
        &out,
        "incremental_redefinition.lp:5:1-12: error: redefinition of atom `p`",
    );
}

#[test]
fn dimacs_refuses_incremental_mode_at_the_include() {
    let out = output({
        let mut cmd = asp2sat();
        cmd.args(["dimacs", "fixtures/cli/incremental.lp"]);
        cmd
    });
    assert_eq!(out.code, Some(65), "stderr: {}", out.stderr);
    assert_stderr_has(
        &out,
        "incremental.lp:2:1-20: error: clingo's incremental mode",
    );
}
