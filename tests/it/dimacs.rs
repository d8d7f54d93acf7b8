//! `asp2sat dimacs`: the exported CNF has exactly one model per answer set.
//!
//! - Round trip on random programs (tests/it/common/generator.rs, the
//!   differential test's generator) and on non-tight families (Hamiltonian
//!   cycles, reachability, head-cycle-free disjunction): every model of the
//!   exported CNF is enumerated in process with varisat, blocking over all
//!   variables (so two models for one answer set would be counted twice),
//!   decoded through the `c <var> <atom>` table and compared, as a multiset,
//!   with `asp2sat solve -n 0`, with `asp2sat solve --translation=eager` and
//!   with clingo (`--eq=0`, see [`round_trip`]); the models projected to
//!   the `c p show` variables are compared with `asp2sat solve --project`.
//! - Size: the CNF of Hamiltonian cycles on grids grows near n log n.
//! - minisat solves the exported Sudoku CNFs and the decoded grid is the
//!   answer set `asp2sat solve` finds.
//! - External solvers on random programs, Hamiltonian cycles, disjunction,
//!   hidden atoms, unsatisfiable programs and Sudokus with several
//!   solutions: cryptominisat enumerates every model of the CNF over all
//!   variables (`--maxsol`, comments and so `c ind` removed), which decoded are the
//!   multiset of answer sets of `asp2sat solve -n 0` and of clingo; cadical
//!   finds the CNF unsatisfiable exactly when there is no answer set, and
//!   its model decodes to an answer set.
//! - The command line: errors, `-o` written atomically, `--stats` on stderr.
//!
//! The external solvers and the command line are modules of their own; the
//! runs, the reading of DIMACS and the round trip they share are here.
//!
//! Environment:
//!   ASP2SAT_DIMACS_CASES  number of random programs (default 200)
//!   ASP2SAT_DIMACS_SEED   seed of the first one (default 1); program i has
//!                         seed ASP2SAT_DIMACS_SEED + i
//!   ASP2SAT_CLINGO        the clingo binary (default `clingo`)
//!   ASP2SAT_MINISAT       the minisat binary (default `minisat`)
//!   ASP2SAT_CMS_CASES     random programs through cryptominisat (default 100)
//!   ASP2SAT_CMS_SEED      seed of the first one (default 1)
//!   ASP2SAT_CADICAL_CASES random programs through cadical (default 200)
//!   ASP2SAT_CADICAL_SEED  seed of the first one (default 1001)
//!   ASP2SAT_CRYPTOMINISAT the cryptominisat binary (default `cryptominisat5`)
//!   ASP2SAT_CADICAL       the cadical binary (default `cadical`)
//!
//! clingo (Debian package `gringo`), minisat (package `minisat`),
//! cryptominisat5 (package `cryptominisat`) and cadical (package `cadical`)
//! must be installed (scripts/install-test-deps); without them these tests
//! fail with a message saying so.

mod command_line;
mod solvers;

use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

use crate::common::generator::generate;
use crate::common::*;
use varisat::{ExtendFormula, Lit, Solver, Var};

// ---------------------------------------------------------------------------
// Running programs

/// How long one run of asp2sat, clingo or minisat may take.
const LIMIT: Duration = Duration::from_secs(120);

/// Runs `program args` in the repository root with `stdin`; fails the test
/// when it does not finish within [`LIMIT`].
#[track_caller]
fn run_with(program: &Path, args: &[&str], stdin: Option<&str>) -> Output {
    let out = run(program, &strings(args), &root(), stdin, LIMIT);
    assert!(
        !out.timed_out,
        "{} {args:?} did not finish within {LIMIT:?}",
        program.display()
    );
    out
}

fn asp2sat(args: &[&str], stdin: Option<&str>) -> Output {
    run_with(&asp2sat_bin(), args, stdin)
}

/// A required external binary: `env` overrides `name`; fails the test with
/// the Debian package to install when it is missing.
fn required_binary(env: &str, name: &str, package: &str) -> String {
    let binary = std::env::var(env).unwrap_or_else(|_| name.to_string());
    let found = Command::new(&binary)
        .arg("--help")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok();
    assert!(
        found,
        "`{binary}` is not installed: this test needs it (Debian package `{package}`: \
         apt-get install {package}), or set {env} to its path"
    );
    binary
}

fn clingo() -> String {
    required_binary("ASP2SAT_CLINGO", "clingo", "gringo")
}

fn minisat() -> String {
    required_binary("ASP2SAT_MINISAT", "minisat", "minisat")
}

/// The witnesses of an `--outf=2` JSON answer (asp2sat's or clingo's), each
/// sorted; the list sorted too (a multiset of answer sets).
fn witnesses(json: &str) -> Vec<Vec<String>> {
    parse_json_answer(json)
        .unwrap_or_else(|e| panic!("{e}:\n{json}"))
        .sorted()
}

// ---------------------------------------------------------------------------
// Reading DIMACS

#[derive(Debug)]
struct Cnf {
    vars: usize,
    clauses: Vec<Vec<Lit>>,
    /// `c <var> <symbol>` lines.
    table: Vec<(usize, String)>,
    show: Vec<usize>,
    ind: Vec<usize>,
}

/// Parses the exported text strictly: the header first, its counts right,
/// every literal in range, every clause closed by 0.
fn parse_dimacs(text: &str) -> Cnf {
    let mut lines = text.lines();
    let header = lines.next().expect("empty output");
    let fields: Vec<&str> = header.split_whitespace().collect();
    assert!(
        fields.len() == 4 && fields[0] == "p" && fields[1] == "cnf",
        "bad header {header:?}"
    );
    let vars: usize = fields[2].parse().unwrap();
    let count: usize = fields[3].parse().unwrap();
    let mut cnf = Cnf {
        vars,
        clauses: Vec::with_capacity(count),
        table: Vec::new(),
        show: Vec::new(),
        ind: Vec::new(),
    };
    let var_list = |rest: &str| -> Vec<usize> {
        let numbers: Vec<usize> = rest
            .split_whitespace()
            .map(|n| n.parse().unwrap())
            .collect();
        assert_eq!(numbers.last(), Some(&0), "projection line must end in 0");
        numbers[..numbers.len() - 1].to_vec()
    };
    for line in lines {
        if let Some(rest) = line.strip_prefix("c ") {
            if let Some(rest) = rest.strip_prefix("p show") {
                cnf.show.extend(var_list(rest));
            } else if let Some(rest) = rest.strip_prefix("ind") {
                cnf.ind.extend(var_list(rest));
            } else {
                let (var, name) = rest.split_once(' ').expect("c <var> <symbol>");
                let var: usize = var.parse().expect("c <var> <symbol>");
                assert!((1..=vars).contains(&var));
                cnf.table.push((var, name.to_string()));
            }
            continue;
        }
        let numbers: Vec<isize> = line
            .split_whitespace()
            .map(|n| {
                n.parse()
                    .unwrap_or_else(|_| panic!("bad clause line {line:?}"))
            })
            .collect();
        assert_eq!(numbers.last(), Some(&0), "clause not closed: {line:?}");
        let clause: Vec<Lit> = numbers[..numbers.len() - 1]
            .iter()
            .map(|&n| {
                assert!(
                    n != 0 && n.unsigned_abs() <= vars,
                    "literal {n} out of range"
                );
                Lit::from_dimacs(n)
            })
            .collect();
        cnf.clauses.push(clause);
    }
    assert_eq!(cnf.clauses.len(), count, "clause count in the header");
    let mut table_vars: Vec<usize> = cnf.table.iter().map(|&(v, _)| v).collect();
    table_vars.sort_unstable();
    table_vars.dedup();
    assert_eq!(cnf.show, table_vars, "c p show lists the table's variables");
    assert_eq!(cnf.ind, table_vars, "c ind lists the table's variables");
    cnf
}

/// What enumerating every model of a CNF found.
struct Models {
    /// The shown symbols of each model, sorted; the list sorted.
    decoded: Vec<Vec<String>>,
    /// Distinct assignments of the `c p show` variables.
    projected: usize,
}

/// Every model of `cnf`, blocking over all variables; variables in no clause
/// are free and multiply the models. `None` when there are more than `max`.
fn enumerate(cnf: &Cnf, max: usize) -> Option<Models> {
    let mut solver = Solver::new();
    for clause in &cnf.clauses {
        solver.add_clause(clause);
    }
    let mut used = vec![false; cnf.vars];
    for clause in &cnf.clauses {
        for lit in clause {
            used[lit.var().index()] = true;
        }
    }
    let free: Vec<usize> = (0..cnf.vars).filter(|&i| !used[i]).collect();
    assert!(free.len() <= 16, "{} free variables", free.len());
    let mut decoded = Vec::new();
    let mut projections: BTreeSet<Vec<bool>> = BTreeSet::new();
    let mut values = vec![false; cnf.vars];
    while solver.solve().unwrap() {
        let model = solver.model().unwrap();
        for lit in &model {
            values[lit.var().index()] = lit.is_positive();
        }
        for bits in 0..1u64 << free.len() {
            for (k, &i) in free.iter().enumerate() {
                values[i] = bits >> k & 1 == 1;
            }
            decoded.push(decode(cnf, &values));
            projections.insert(cnf.show.iter().map(|v| values[v - 1]).collect());
            if decoded.len() > max {
                return None;
            }
        }
        let block: Vec<Lit> = (0..cnf.vars)
            .filter(|&i| used[i])
            .map(|i| Var::from_index(i).lit(!values[i]))
            .collect();
        if block.is_empty() {
            break;
        }
        solver.add_clause(&block);
    }
    decoded.sort();
    Some(Models {
        decoded,
        projected: projections.len(),
    })
}

/// clingo's answer sets of `file` (see [`witnesses`]), or why it failed.
fn clingo_answer_sets(clingo: &str, file: &str) -> Result<Vec<Vec<String>>, String> {
    // --eq=0: clingo 5.4.1's equivalence preprocessing loses answer sets of
    // some programs mixing disjunction and choice (clingo 5.8 finds them, and
    // so does clingo 5.4.1 without it).
    let output = run_with(
        Path::new(clingo),
        &["-n", "0", "--outf=2", "--eq=0", file],
        None,
    );
    if !matches!(output.code, Some(20 | 30)) {
        return Err(format!(
            "clingo exits {:?}:\n{}",
            output.code, output.stderr
        ));
    }
    Ok(witnesses(&output.stdout))
}

// ---------------------------------------------------------------------------
// The round trip

/// Whether `dimacs` refused a program with a disjunction that is not
/// head-cycle-free, located, without printing a CNF, pointing to `solve`.
fn refused_as_not_head_cycle_free(exported: &Output) -> bool {
    exported.code == Some(65)
        && exported.stdout.is_empty()
        && exported
            .stderr
            .contains(": error: disjunctive rule is not head-cycle-free: ")
        && exported.stderr.contains("`asp2sat solve`")
}

/// Why a program was not compared, or how it was.
#[derive(Debug, PartialEq, Eq)]
enum Checked {
    /// Both `solve` and `dimacs` rejected it (exit 65); a generated program
    /// never should be.
    Rejected,
    /// `solve` accepts it, and `dimacs` refuses it as not head-cycle-free:
    /// no CNF of polynomial size expresses its stability.
    NotExact,
    /// Too many answer sets to enumerate.
    TooMany,
    Compared {
        answer_sets: usize,
        tight: bool,
    },
}

const MAX_MODELS: usize = 5000;

/// Exports `program`, enumerates the CNF and compares with `asp2sat solve`
/// (lazy and eager, with and without `--project`) and, with `clingo`, with
/// clingo. Panics with the program on any difference.
fn round_trip(name: &str, program: &str, clingo: Option<&str>) -> Checked {
    let dir = scratch("dimacs/programs");
    let file = dir.join(format!("{name}.lp"));
    std::fs::write(&file, program).unwrap();
    let file = file.to_str().unwrap();
    let fail = |what: String| -> ! {
        panic!("{name}: {what}\nprogram ({file}):\n{program}");
    };
    let exported = asp2sat(&["dimacs", "--stats", file], None);
    let solved = asp2sat(&["solve", "-n", "0", "--outf=2", file], None);
    if solved.code == Some(65) {
        if exported.code != Some(65) {
            fail(format!(
                "solve rejects the program, dimacs exits {:?}",
                exported.code
            ));
        }
        if !exported.stdout.is_empty() {
            fail("dimacs printed a CNF for a rejected program".into());
        }
        return Checked::Rejected;
    }
    if refused_as_not_head_cycle_free(&exported) {
        return Checked::NotExact;
    }
    if exported.code != Some(0) {
        fail(format!(
            "dimacs exits {:?}:\n{}",
            exported.code, exported.stderr
        ));
    }
    let expected = witnesses(&solved.stdout);
    if expected.len() > MAX_MODELS {
        return Checked::TooMany;
    }
    let cnf = parse_dimacs(&exported.stdout);
    let Some(models) = enumerate(&cnf, MAX_MODELS) else {
        fail(format!(
            "the CNF has more than {MAX_MODELS} models, solve finds {}",
            expected.len()
        ));
    };
    if models.decoded != expected {
        fail(format!(
            "CNF models (decoded) differ from solve -n 0:\nCNF:   {:?}\nsolve: {:?}",
            models.decoded, expected
        ));
    }
    let eager = asp2sat(
        &["solve", "-n", "0", "--outf=2", "--translation=eager", file],
        None,
    );
    if witnesses(&eager.stdout) != expected || eager.code != solved.code {
        fail(format!(
            "solve --translation=eager differs from the default:\neager: {:?} (exit {:?})\nlazy:  {:?} (exit {:?})",
            witnesses(&eager.stdout),
            eager.code,
            expected,
            solved.code
        ));
    }
    let projected = asp2sat(&["solve", "-n", "0", "--outf=2", "--project", file], None);
    let distinct = witnesses(&projected.stdout);
    if distinct.len() != models.projected {
        fail(format!(
            "{} distinct assignments of the c p show variables, solve --project finds {}",
            models.projected,
            distinct.len()
        ));
    }
    if let Some(clingo) = clingo {
        let reference = clingo_answer_sets(clingo, file).unwrap_or_else(|e| fail(e));
        if reference != expected {
            fail(format!(
                "clingo differs:\nclingo: {reference:?}\nasp2sat: {expected:?}"
            ));
        }
    }
    let tight = exported.stderr.contains("Tight        : yes");
    Checked::Compared {
        answer_sets: expected.len(),
        tight,
    }
}

// ---------------------------------------------------------------------------
// Random programs, from the generator shared with tests/it/differential.rs

#[test]
fn dimacs_round_trip_random_programs() {
    let clingo = clingo();
    let cases = env_u64("ASP2SAT_DIMACS_CASES", 200) as usize;
    let seed0 = env_u64("ASP2SAT_DIMACS_SEED", 1);
    let seeds: Vec<u64> = (0..cases as u64).map(|i| seed0 + i).collect();
    // At most 4 threads by default: every case runs asp2sat four times and
    // clingo once.
    let results = parallel_map(&seeds, threads_up_to(4), |_, &seed| {
        round_trip(
            &format!("random_{seed}"),
            &generate(seed).text,
            Some(&clingo),
        )
    });
    let compared = results
        .iter()
        .filter(|r| matches!(r, Checked::Compared { .. }))
        .count();
    let nontight = results
        .iter()
        .filter(|r| matches!(r, Checked::Compared { tight: false, .. }))
        .count();
    let several = results
        .iter()
        .filter(|r| matches!(r, Checked::Compared { answer_sets, .. } if *answer_sets > 1))
        .count();
    let rejected = results.iter().filter(|r| **r == Checked::Rejected).count();
    let not_exact = results.iter().filter(|r| **r == Checked::NotExact).count();
    eprintln!(
        "{cases} random programs: {compared} compared ({nontight} non-tight, {several} with \
         several answer sets), {rejected} rejected by both, {not_exact} refused by dimacs as not \
         head-cycle-free, {} with too many answer sets",
        cases - compared - rejected - not_exact
    );
    // Every generated program is in the language asp2sat claims.
    assert_eq!(
        rejected, 0,
        "asp2sat rejected {rejected} generated programs"
    );
    // The generator covers what it should.
    if cases >= 100 {
        assert!(compared * 10 >= cases * 7, "only {compared} compared");
        assert!(nontight * 4 >= cases, "only {nontight} non-tight");
        assert!(
            several * 4 >= cases,
            "only {several} with several answer sets"
        );
    }
}

// ---------------------------------------------------------------------------
// Non-tight families

const HAMILTON: &str = "\
{ cycle(X,Y) : edge(X,Y) } = 1 :- node(X).
{ cycle(X,Y) : edge(X,Y) } = 1 :- node(Y).
reached(Y) :- cycle(1,Y).
reached(Y) :- cycle(X,Y), reached(X).
:- node(Y), not reached(Y).
#show cycle/2.
";

fn graph(nodes: usize, edges: &[(usize, usize)]) -> String {
    let mut out = format!("node(1..{nodes}).\n");
    for (x, y) in edges {
        writeln!(out, "edge({x},{y}).").unwrap();
    }
    out
}

fn complete(n: usize) -> Vec<(usize, usize)> {
    (1..=n)
        .flat_map(|x| (1..=n).filter(move |&y| y != x).map(move |y| (x, y)))
        .collect()
}

/// Both directions of every edge of the w × h grid; nodes numbered row by row.
fn grid(w: usize, h: usize) -> Vec<(usize, usize)> {
    let id = |x: usize, y: usize| y * w + x + 1;
    let mut edges = Vec::new();
    for y in 0..h {
        for x in 0..w {
            if x + 1 < w {
                edges.push((id(x, y), id(x + 1, y)));
                edges.push((id(x + 1, y), id(x, y)));
            }
            if y + 1 < h {
                edges.push((id(x, y), id(x, y + 1)));
                edges.push((id(x, y + 1), id(x, y)));
            }
        }
    }
    edges
}

fn answer_sets(checked: Checked) -> usize {
    match checked {
        Checked::Compared { answer_sets, .. } => answer_sets,
        other => panic!("not compared: {other:?}"),
    }
}

#[test]
fn dimacs_round_trip_hamiltonian_cycles() {
    let clingo = clingo();
    // Complete digraphs: (n − 1)! directed Hamiltonian cycles.
    for (n, cycles) in [(3, 2), (4, 6), (5, 24), (6, 120)] {
        let program = format!("{HAMILTON}{}", graph(n, &complete(n)));
        let checked = round_trip(&format!("hc_complete_{n}"), &program, Some(&clingo));
        assert_eq!(answer_sets(checked), cycles, "K{n}");
    }
    // Grids: 2 × n has exactly 2 directed Hamiltonian cycles, 3 × 3 none.
    for (w, h, cycles) in [(2, 2, 2), (2, 3, 2), (2, 5, 2), (3, 3, 0), (4, 4, 12)] {
        let program = format!("{HAMILTON}{}", graph(w * h, &grid(w, h)));
        let checked = round_trip(&format!("hc_grid_{w}x{h}"), &program, Some(&clingo));
        assert_eq!(answer_sets(checked), cycles, "{w}x{h} grid");
    }
    // Random digraphs.
    let mut rng = Rng::new(77);
    for i in 0..12 {
        let n = 4 + rng.below(3);
        let edges: Vec<(usize, usize)> = complete(n)
            .into_iter()
            .filter(|_| rng.chance(0.55))
            .collect();
        let program = format!("{HAMILTON}{}", graph(n, &edges));
        round_trip(&format!("hc_random_{i}"), &program, Some(&clingo));
    }
}

#[test]
fn dimacs_round_trip_reachability_and_disjunction() {
    let clingo = clingo();
    let programs = [
        (
            "reach_choice",
            "node(1..4). edge(1,2). edge(2,3). edge(3,1). edge(3,4). edge(4,2).\n\
             { on(X,Y) } :- edge(X,Y).\n\
             r(1). r(Y) :- r(X), on(X,Y).\n\
             :- node(X), not r(X).",
        ),
        (
            "mutual_reach",
            "n(1..3). { e(X,Y) : n(X), n(Y), X != Y }.\n\
             p(X,Y) :- e(X,Y). p(X,Z) :- p(X,Y), p(Y,Z).\n\
             :- n(X), n(Y), X != Y, not p(X,Y).\n#show e/2.",
        ),
        (
            "hcf_disjunction_loop",
            "d(1..3). a(X) | b(X) :- d(X), not c(X). c(X) :- a(X), e(X). e(X) :- c(X). \
             e(X) :- b(X). { c(2) }.",
        ),
        (
            "disjunction_under_loop",
            "d(1..3). p(X) | q(X) :- d(X). r(X) :- p(X). r(X) :- s(X). s(X) :- r(X), d(X). \
             s(X) :- q(X), X > 1. #show r/1. #show s/1.",
        ),
        (
            "self_support",
            "a :- a. b :- a. c :- not a. {d}. a :- d, a.",
        ),
        (
            "chain_loops",
            "{ x(1..4) }. a(1) :- x(1). a(I+1) :- a(I), I < 5. a(I) :- a(I+1), x(I). \
             :- a(5), not x(2).",
        ),
    ];
    for (name, program) in programs {
        round_trip(name, program, Some(&clingo));
    }
}

/// Sums over the elements of choices of at most one, whose diagrams have
/// a level per choice (`ExclusiveSets`): the export stays one model per
/// answer set, with sets that overlap (a cell in its row's choice and its
/// value's), negative weights, a literal counted twice, and choices whose
/// body may fail (no set) beside them.
#[test]
fn dimacs_round_trip_sums_over_exclusive_choices() {
    let clingo = clingo();
    let programs = [
        (
            "survo_2x2",
            "cell(1..2,1..2). v(1..4).\n\
             1 { m(R,C,V) : v(V) } 1 :- cell(R,C).\n\
             1 { m(R,C,V) : cell(R,C) } 1 :- v(V).\n\
             :- not S #sum { V,C : m(R,C,V) } S, rs(R,S). rs(1,5). rs(2,5).",
        ),
        (
            "negative_weights_and_counts",
            "i(1..3). v(-2..2).\n\
             { x(I,V) : v(V) } 1 :- i(I).\n\
             ok :- #sum { V,I : x(I,V) } >= 1.\n\
             :- #count { I : x(I,V), V > 0 } > 2.\n\
             low :- #sum { V*V,I : x(I,V) } < 3.",
        ),
        (
            "overlapping_sets_counted_twice",
            "v(1..3).\n\
             1 { x(I,V) : v(V) } 1 :- v(I).\n\
             1 { x(I,V) : v(I) } 1 :- v(V).\n\
             t(T) :- T = #sum { V,a,I : x(I,V); V,b,I : x(I,V), I < 3 }.\n\
             :- t(T), T > 11.",
        ),
        (
            "sets_beside_guarded_choices",
            "d(1..3). {g}.\n\
             { p(X) : d(X) } 1 :- g.\n\
             { q(X) : d(X) } 1.\n\
             s :- #sum { X : p(X); 2*X,q : q(X) } >= 4.\n\
             t :- #sum { X,p : p(X); -X,q : q(X) } != 0.",
        ),
    ];
    for (name, program) in programs {
        round_trip(name, program, Some(&clingo));
    }
}

// ---------------------------------------------------------------------------
// Size

/// `(atoms, rules, variables, clauses)` of the Hamiltonian-cycle CNF of
/// `edges`.
fn sizes(name: &str, nodes: usize, edges: &[(usize, usize)]) -> (usize, usize, usize, usize) {
    let dir = scratch("dimacs/sizes");
    let file = dir.join(format!("{name}.lp"));
    std::fs::write(&file, format!("{HAMILTON}{}", graph(nodes, edges))).unwrap();
    let out = asp2sat(&["dimacs", "--stats", file.to_str().unwrap()], None);
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    let header: Vec<usize> = out
        .stdout
        .lines()
        .next()
        .unwrap()
        .split_whitespace()
        .skip(2)
        .map(|n| n.parse().unwrap())
        .collect();
    let stat = |key: &str| -> usize {
        out.stderr
            .lines()
            .find(|l| l.starts_with(key))
            .and_then(|l| l.split(':').nth(1))
            .and_then(|v| v.split_whitespace().next())
            .and_then(|v| v.parse().ok())
            .unwrap_or_else(|| panic!("no {key} in --stats:\n{}", out.stderr))
    };
    assert_eq!(stat("Variables"), header[0]);
    assert_eq!(stat("Clauses"), header[1]);
    (stat("Atoms"), stat("Rules"), header[0], header[1])
}

/// On cycles and grids of n nodes the CNF stays within a fixed multiple of
/// m log₂ m, m the size of the ground program (atoms + rules).
#[test]
fn dimacs_size_grows_near_n_log_n() {
    // (name, nodes, edges)
    type Family = (String, usize, Vec<(usize, usize)>);
    let mut families: Vec<Family> = Vec::new();
    for n in [8usize, 32, 128, 512, 2048] {
        let edges: Vec<(usize, usize)> = (1..=n).map(|x| (x, x % n + 1)).collect();
        families.push((format!("cycle_{n}"), n, edges));
    }
    for w in [3usize, 6, 12, 24, 40] {
        families.push((format!("grid_{w}x{w}"), w * w, grid(w, w)));
    }
    let mut report = String::new();
    for (name, nodes, edges) in &families {
        let (atoms, rules, vars, clauses) = sizes(name, *nodes, edges);
        let m = (atoms + rules) as f64;
        let bound = 4.0 * m * m.log2();
        writeln!(
            report,
            "{name}: {nodes} nodes, {atoms} atoms, {rules} rules -> {vars} variables, \
             {clauses} clauses ({:.2} m log m)",
            clauses as f64 / (m * m.log2())
        )
        .unwrap();
        assert!(
            (clauses as f64) <= bound,
            "{name}: {clauses} clauses > 4 m log2 m = {bound}\n{report}"
        );
    }
    eprintln!("{report}");
}

/// The shown symbols true in `values`, sorted.
fn decode(cnf: &Cnf, values: &[bool]) -> Vec<String> {
    let mut shown: Vec<String> = cnf
        .table
        .iter()
        .filter(|(v, _)| values[v - 1])
        .map(|(_, name)| name.clone())
        .collect();
    shown.sort();
    shown
}
