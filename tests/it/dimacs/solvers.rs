//! External SAT solvers on the exported CNF: minisat solves the Sudoku
//! CNFs, and the decoded grid is the answer set `asp2sat solve` finds;
//! cryptominisat enumerates every model of the CNF over all variables,
//! which decoded are the multiset of answer sets of `asp2sat solve -n 0`
//! and of clingo; cadical finds the CNF unsatisfiable exactly when there
//! is no answer set, and its model decodes to an answer set.

use super::{
    Cnf, HAMILTON, asp2sat, clingo, clingo_answer_sets, complete, decode, graph, grid, minisat,
    parse_dimacs, refused_as_not_head_cycle_free, required_binary, run_with, witnesses,
};
use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::path::Path;

use crate::common::generator::generate;
use crate::common::*;

// ---------------------------------------------------------------------------
// Sudoku through minisat

/// minisat's model of a CNF file, as the set of true variables.
fn minisat_model(cnf: &Path) -> Vec<bool> {
    let minisat = minisat();
    let result = cnf.with_extension("out");
    let output = run_with(
        Path::new(&minisat),
        &["-verb=0", cnf.to_str().unwrap(), result.to_str().unwrap()],
        None,
    );
    assert_eq!(
        output.code,
        Some(10),
        "minisat: {}{}",
        output.stdout,
        output.stderr
    );
    let text = std::fs::read_to_string(&result).unwrap();
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some("SAT"));
    let mut values = Vec::new();
    for n in lines.next().unwrap().split_whitespace() {
        let n: isize = n.parse().unwrap();
        if n == 0 {
            break;
        }
        let i = n.unsigned_abs() - 1;
        if values.len() <= i {
            values.resize(i + 1, false);
        }
        values[i] = n > 0;
    }
    values
}

#[test]
fn dimacs_sudoku_through_minisat() {
    let dir = scratch("dimacs/sudoku");
    for encoding in [
        "encodings/sudoku.lp",
        "encodings/sudoku_lparse.lp",
        "encodings/sudoku_dlv.dlv",
    ] {
        let name = Path::new(encoding).file_stem().unwrap().to_str().unwrap();
        let cnf_path = dir.join(format!("{name}.cnf"));
        let out = asp2sat(
            &[
                "dimacs",
                encoding,
                "fixtures/puzzle_evil.lp",
                "-o",
                cnf_path.to_str().unwrap(),
            ],
            None,
        );
        assert_eq!(out.code, Some(0), "{encoding}: {}", out.stderr);
        assert!(out.stdout.is_empty(), "-o leaves standard output empty");
        let cnf = parse_dimacs(&std::fs::read_to_string(&cnf_path).unwrap());
        let values = minisat_model(&cnf_path);
        let mut decoded: Vec<String> = cnf
            .table
            .iter()
            .filter(|(v, _)| values.get(v - 1).copied().unwrap_or(false))
            .map(|(_, name)| name.clone())
            .collect();
        decoded.sort();
        let solved = asp2sat(
            &[
                "solve",
                "-n",
                "0",
                "--outf=2",
                encoding,
                "fixtures/puzzle_evil.lp",
            ],
            None,
        );
        let expected = witnesses(&solved.stdout);
        assert_eq!(expected.len(), 1, "{encoding}: one solution");
        assert_eq!(decoded, expected[0], "{encoding}: minisat's grid");
        // A full grid: 81 cells shown.
        assert!(decoded.len() >= 81, "{encoding}: {} shown", decoded.len());
    }
}

// ---------------------------------------------------------------------------
// External SAT solvers: cryptominisat and cadical

fn cryptominisat() -> String {
    required_binary("ASP2SAT_CRYPTOMINISAT", "cryptominisat5", "cryptominisat")
}

fn cadical() -> String {
    required_binary("ASP2SAT_CADICAL", "cadical", "cadical")
}

/// A program for the external solvers, with the number of answer sets when
/// it is known.
struct SolverCase {
    name: String,
    program: String,
    answer_sets: Option<usize>,
}

fn solver_case(name: &str, program: &str, answer_sets: Option<usize>) -> SolverCase {
    SolverCase {
        name: name.to_string(),
        program: program.to_string(),
        answer_sets,
    }
}

/// `cases` random programs from seed `seed0` on, Hamiltonian cycles on
/// complete graphs and grids, head-cycle-free disjunction, hidden atoms (two
/// answer sets with one shown set), unsatisfiable programs and Sudokus with
/// 9 and 14 solutions.
fn solver_cases(cases: u64, seed0: u64) -> Vec<SolverCase> {
    let mut out: Vec<SolverCase> = (seed0..seed0 + cases)
        .map(|seed| solver_case(&format!("random_{seed}"), &generate(seed).text, None))
        .collect();
    for (n, cycles) in [(3, 2), (4, 6), (5, 24), (6, 120)] {
        let program = format!("{HAMILTON}{}", graph(n, &complete(n)));
        out.push(solver_case(
            &format!("hc_complete_{n}"),
            &program,
            Some(cycles),
        ));
    }
    for (w, h, cycles) in [(2, 2, 2), (2, 3, 2), (3, 3, 0), (4, 4, 12)] {
        let program = format!("{HAMILTON}{}", graph(w * h, &grid(w, h)));
        out.push(solver_case(
            &format!("hc_grid_{w}x{h}"),
            &program,
            Some(cycles),
        ));
    }
    out.push(solver_case(
        "hcf_disjunction_loop",
        "d(1..3). a(X) | b(X) :- d(X), not c(X). c(X) :- a(X), e(X). e(X) :- c(X). \
         e(X) :- b(X). { c(2) }.",
        None,
    ));
    out.push(solver_case(
        "disjunction_under_loop",
        "d(1..3). p(X) | q(X) :- d(X). r(X) :- p(X). r(X) :- s(X). s(X) :- r(X), d(X). \
         s(X) :- q(X), X > 1. #show r/1. #show s/1.",
        None,
    ));
    // 8 answer sets, 2 distinct shown sets: a solver projecting onto the
    // `c ind` variables would find 2.
    out.push(solver_case(
        "hidden_atoms",
        "{ a; b; c }. #show a/0.",
        Some(8),
    ));
    out.push(solver_case("unsat_odd_loop", "a :- not a.", Some(0)));
    out.push(solver_case(
        "unsat_loop",
        "{ x }. a :- b. b :- a. :- not a.",
        Some(0),
    ));
    let encoding = std::fs::read_to_string(root().join("encodings/sudoku.lp")).unwrap();
    let givens: Vec<String> = std::fs::read_to_string(root().join("fixtures/puzzle_evil.lp"))
        .unwrap()
        .lines()
        .filter(|l| l.starts_with("paint("))
        .map(str::to_string)
        .collect();
    assert_eq!(givens.len(), 25, "fixtures/puzzle_evil.lp");
    // The evil puzzle without one of its givens.
    for (dropped, solutions) in [(0, 9), (19, 14)] {
        let mut program = encoding.clone();
        for (i, given) in givens.iter().enumerate() {
            if i != dropped {
                writeln!(program, "{given}").unwrap();
            }
        }
        out.push(solver_case(
            &format!("sudoku_evil_without_given_{}", dropped + 1),
            &program,
            Some(solutions),
        ));
        // The dropped cell set to a value no solution has there.
        if dropped == 0 {
            writeln!(program, "paint(1,3,9).").unwrap();
            out.push(solver_case("sudoku_evil_unsat", &program, Some(0)));
        }
    }
    out
}

/// What `asp2sat solve -n 0` and `asp2sat dimacs` make of a [`SolverCase`].
enum Exported {
    /// Both rejected it (exit 65).
    Rejected,
    /// Refused by `dimacs` alone, as not head-cycle-free.
    NotExact,
    Cnf {
        /// The program's file.
        file: String,
        /// The exported CNF, as printed.
        text: String,
        cnf: Cnf,
        /// `asp2sat solve -n 0`'s answer sets (see [`witnesses`]).
        expected: Vec<Vec<String>>,
    },
}

/// Writes the case's program, solves and exports it; checks what is known
/// about it (the number of answer sets, the exit codes).
fn export(dir: &str, case: &SolverCase) -> Exported {
    let (name, program) = (&case.name, &case.program);
    let file = scratch(dir).join(format!("{name}.lp"));
    std::fs::write(&file, program).unwrap();
    let file = file.to_str().unwrap().to_string();
    let solved = asp2sat(&["solve", "-n", "0", "--outf=2", &file], None);
    let exported = asp2sat(&["dimacs", &file], None);
    let context = format!("{name}\nprogram ({file}):\n{program}");
    if solved.code == Some(65) {
        assert_eq!(
            exported.code,
            Some(65),
            "solve rejects, dimacs does not: {context}"
        );
        assert!(
            case.answer_sets.is_none(),
            "rejected: {context}\n{}",
            solved.stderr
        );
        return Exported::Rejected;
    }
    if refused_as_not_head_cycle_free(&exported) {
        return Exported::NotExact;
    }
    assert_eq!(
        exported.code,
        Some(0),
        "dimacs: {}\n{context}",
        exported.stderr
    );
    let expected = witnesses(&solved.stdout);
    let code = if expected.is_empty() { 20 } else { 30 };
    assert_eq!(
        solved.code,
        Some(code),
        "solve -n 0: {}\n{context}",
        solved.stderr
    );
    if let Some(count) = case.answer_sets {
        assert_eq!(expected.len(), count, "answer sets of {context}");
    }
    let cnf = parse_dimacs(&exported.stdout);
    Exported::Cnf {
        file,
        text: exported.stdout,
        cnf,
        expected,
    }
}

/// The models a DIMACS solver printed: `s SATISFIABLE` and the `v` lines of
/// each (every variable of the CNF assigned once), and whether the output
/// ends in `s UNSATISFIABLE` (cryptominisat's end of the enumeration).
fn solver_models(stdout: &str, vars: usize) -> (Vec<Vec<bool>>, bool) {
    let mut models: Vec<Vec<bool>> = Vec::new();
    // The model being read: its values and whether its `v` lines ended.
    let mut current: Option<(Vec<Option<bool>>, bool)> = None;
    let mut unsat = false;
    let close = |current: Option<(Vec<Option<bool>>, bool)>, models: &mut Vec<Vec<bool>>| {
        if let Some((values, ended)) = current {
            assert!(ended, "a model without its closing 0:\n{stdout}");
            let values: Option<Vec<bool>> = values.into_iter().collect();
            models.push(values.unwrap_or_else(|| panic!("a partial model:\n{stdout}")));
        }
    };
    for line in stdout.lines() {
        if line.starts_with("c ") || line == "c" || line.is_empty() {
            continue;
        }
        assert!(!unsat, "output after s UNSATISFIABLE:\n{stdout}");
        if line == "s SATISFIABLE" {
            close(current.take(), &mut models);
            current = Some((vec![None; vars], false));
        } else if line == "s UNSATISFIABLE" {
            close(current.take(), &mut models);
            unsat = true;
        } else if let Some(rest) = line.strip_prefix("v") {
            let (values, ended) = current
                .as_mut()
                .unwrap_or_else(|| panic!("a v line before s SATISFIABLE:\n{stdout}"));
            for n in rest.split_whitespace() {
                let n: isize = n.parse().unwrap_or_else(|_| panic!("bad v line {line:?}"));
                assert!(!*ended, "literals after the closing 0:\n{stdout}");
                if n == 0 {
                    *ended = true;
                    continue;
                }
                let i = n.unsigned_abs() - 1;
                assert!(i < vars, "literal {n} out of range");
                assert!(values[i].is_none(), "variable {} assigned twice", i + 1);
                values[i] = Some(n > 0);
            }
        } else {
            panic!("unexpected solver output {line:?}:\n{stdout}");
        }
    }
    close(current, &mut models);
    (models, unsat)
}

/// Panics unless `values` satisfies every clause of `cnf`.
fn check_model(cnf: &Cnf, values: &[bool], context: &str) {
    for clause in &cnf.clauses {
        assert!(
            clause
                .iter()
                .any(|lit| values[lit.var().index()] == lit.is_positive()),
            "the solver's model falsifies {clause:?}: {context}"
        );
    }
}

/// The exported CNF without its comment lines. cryptominisat reads `c ind`
/// as a sampling set and enumerates the projections onto it; without it,
/// every model over all variables (checked by the case `hidden_atoms`).
fn without_comments(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for line in text.lines().filter(|l| !l.starts_with('c')) {
        out.push_str(line);
        out.push('\n');
    }
    out
}

/// The largest number of answer sets a case may have for cryptominisat.
const MAX_CMS_MODELS: usize = 5000;

/// How a case went through cryptominisat: `None` when rejected by asp2sat or
/// with too many answer sets, else the number of answer sets (= models).
fn cms_round_trip(cms: &str, clingo: &str, case: &SolverCase) -> Option<usize> {
    let Exported::Cnf {
        file,
        text,
        cnf,
        expected,
    } = export("dimacs/cryptominisat", case)
    else {
        return None;
    };
    if expected.len() > MAX_CMS_MODELS {
        return None;
    }
    let context = format!("{}\nprogram ({file}):\n{}", case.name, case.program);
    let cnf_file = Path::new(&file).with_extension("cnf");
    std::fs::write(&cnf_file, without_comments(&text)).unwrap();
    // More than the answer sets: a CNF with an extra model shows it.
    let maxsol = (expected.len() + 10).to_string();
    let output = run_with(
        Path::new(cms),
        &[
            "--maxsol",
            &maxsol,
            "--verb",
            "0",
            cnf_file.to_str().unwrap(),
        ],
        None,
    );
    let (models, finished) = solver_models(&output.stdout, cnf.vars);
    assert!(
        finished && output.code == Some(20),
        "cryptominisat5 --maxsol {maxsol} did not end its enumeration (exit {:?}, {} models, \
         {} answer sets): {context}\n{}",
        output.code,
        models.len(),
        expected.len(),
        output.stderr
    );
    let distinct: BTreeSet<&Vec<bool>> = models.iter().collect();
    assert_eq!(distinct.len(), models.len(), "repeated models: {context}");
    let mut decoded: Vec<Vec<String>> = models
        .iter()
        .map(|values| {
            check_model(&cnf, values, &context);
            decode(&cnf, values)
        })
        .collect();
    decoded.sort();
    assert_eq!(
        models.len(),
        expected.len(),
        "CNF models (cryptominisat) != answer sets (solve -n 0): {context}"
    );
    assert_eq!(
        decoded, expected,
        "CNF models (cryptominisat, decoded) != answer sets (solve -n 0): {context}"
    );
    let reference = clingo_answer_sets(clingo, &file).unwrap_or_else(|e| panic!("{e}{context}"));
    assert_eq!(
        decoded, reference,
        "CNF models (cryptominisat, decoded) != answer sets (clingo): {context}"
    );
    Some(models.len())
}

/// Every model of the exported CNF, enumerated by cryptominisat over all
/// variables and decoded, is the multiset of answer sets of `asp2sat solve
/// -n 0` and of clingo.
#[test]
fn dimacs_round_trip_through_cryptominisat() {
    let cms = cryptominisat();
    let clingo = clingo();
    let cases = env_u64("ASP2SAT_CMS_CASES", 100);
    let seed0 = env_u64("ASP2SAT_CMS_SEED", 1);
    let cases = solver_cases(cases, seed0);
    let results = parallel_map(&cases, threads_up_to(4), |_, case| {
        cms_round_trip(&cms, &clingo, case)
    });
    let compared: Vec<usize> = results.iter().flatten().copied().collect();
    let models: usize = compared.iter().sum();
    let unsat = compared.iter().filter(|&&n| n == 0).count();
    let several = compared.iter().filter(|&&n| n > 1).count();
    eprintln!(
        "cryptominisat: {} of {} programs compared ({models} models = answer sets; {unsat} \
         unsatisfiable, {several} with several answer sets)",
        compared.len(),
        cases.len()
    );
    // Every case with a known count was compared; most random ones too.
    for (case, result) in cases.iter().zip(&results) {
        if case.answer_sets.is_some() {
            assert!(result.is_some(), "{} not compared", case.name);
        }
    }
    assert!(compared.len() * 10 >= cases.len() * 7, "too few compared");
}

/// cadical's answer on the exported CNF is asp2sat's: unsatisfiable exactly
/// when there is no answer set, and its model, decoded, is an answer set.
#[test]
fn dimacs_cadical_agrees_on_satisfiability() {
    let cadical = cadical();
    let cases = env_u64("ASP2SAT_CADICAL_CASES", 200);
    let seed0 = env_u64("ASP2SAT_CADICAL_SEED", 1001);
    let cases = solver_cases(cases, seed0);
    let results = parallel_map(&cases, threads_up_to(4), |_, case| {
        let Exported::Cnf {
            file,
            text,
            cnf,
            expected,
        } = export("dimacs/cadical", case)
        else {
            return None;
        };
        let context = format!("{}\nprogram ({file}):\n{}", case.name, case.program);
        // As exported, comments included.
        let cnf_file = Path::new(&file).with_extension("cnf");
        std::fs::write(&cnf_file, &text).unwrap();
        let output = run_with(
            Path::new(&cadical),
            &["-q", cnf_file.to_str().unwrap()],
            None,
        );
        let (models, unsat) = solver_models(&output.stdout, cnf.vars);
        if expected.is_empty() {
            assert!(
                output.code == Some(20) && unsat && models.is_empty(),
                "cadical finds the CNF satisfiable (exit {:?}), solve finds no answer set: \
                 {context}\n{}",
                output.code,
                output.stdout
            );
        } else {
            assert!(
                output.code == Some(10) && !unsat && models.len() == 1,
                "cadical does not find one model (exit {:?}), solve finds {} answer sets: \
                 {context}\n{}{}",
                output.code,
                expected.len(),
                output.stdout,
                output.stderr
            );
            check_model(&cnf, &models[0], &context);
            let shown = decode(&cnf, &models[0]);
            assert!(
                expected.binary_search(&shown).is_ok(),
                "cadical's model decodes to {shown:?}, not an answer set: {context}"
            );
        }
        Some(!expected.is_empty())
    });
    let sat = results.iter().filter(|r| **r == Some(true)).count();
    let unsat = results.iter().filter(|r| **r == Some(false)).count();
    eprintln!(
        "cadical: {} programs, {sat} satisfiable, {unsat} unsatisfiable, {} rejected by asp2sat",
        cases.len(),
        cases.len() - sat - unsat
    );
    assert!(sat * 2 >= cases.len(), "only {sat} satisfiable");
    assert!(unsat >= 5, "only {unsat} unsatisfiable");
}
