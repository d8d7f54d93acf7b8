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

// ---------------------------------------------------------------------------
// The command line

#[test]
fn dimacs_cli_errors_exit_65_without_output() {
    let out = asp2sat(&["dimacs", "fixtures/cli/syntax_error.lp"], None);
    assert_eq!(out.code, Some(65));
    assert!(out.stdout.is_empty());
    assert!(
        out.stderr
            .contains("fixtures/cli/syntax_error.lp:3:1-2: error: syntax error"),
        "{}",
        out.stderr
    );
    let out = asp2sat(&["dimacs", "fixtures/cli/unsafe.lp"], None);
    assert_eq!(out.code, Some(65));
    assert!(
        out.stderr.contains("error: unsafe variables in:"),
        "{}",
        out.stderr
    );
    let out = asp2sat(&["dimacs", "no/such/file.lp"], None);
    assert_eq!(out.code, Some(65));
    let out = asp2sat(&["dimacs", "-c", "9=x", "-"], Some("a."));
    assert_eq!(out.code, Some(65));
    // Not head-cycle-free: rejected like solve does.
    let out = asp2sat(&["dimacs", "-"], Some("a | b. a :- b. b :- a."));
    assert_eq!(out.code, Some(65));
    assert!(out.stderr.contains("not head-cycle-free"), "{}", out.stderr);
    assert!(out.stdout.is_empty());
}

#[test]
fn dimacs_cli_output_file_is_written_atomically() {
    let dir = scratch("dimacs/cli");
    let target = dir.join("out.cnf");
    let _ = std::fs::remove_file(&target);
    let stdout = asp2sat(&["dimacs", "-c", "n=3", "-"], Some("p(1..n). {q}."));
    assert_eq!(stdout.code, Some(0), "{}", stdout.stderr);
    let out = asp2sat(
        &["dimacs", "-c", "n=3", "-", "-o", target.to_str().unwrap()],
        Some("p(1..n). {q}."),
    );
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    assert!(out.stdout.is_empty());
    assert_eq!(std::fs::read_to_string(&target).unwrap(), stdout.stdout);
    let cnf = parse_dimacs(&stdout.stdout);
    let names: Vec<&str> = cnf.table.iter().map(|(_, n)| n.as_str()).collect();
    assert_eq!(names, ["q", "p(1)", "p(2)", "p(3)"]);
    assert_eq!(enumerate(&cnf, 10).unwrap().decoded.len(), 2);

    // A failing run leaves the previous file as it was.
    let out = asp2sat(
        &["dimacs", "-", "-o", target.to_str().unwrap()],
        Some("p(X) :- q."),
    );
    assert_eq!(out.code, Some(65));
    assert_eq!(std::fs::read_to_string(&target).unwrap(), stdout.stdout);
    // No temporary files are left behind.
    let leftovers: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".tmp"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");

    // An output in a directory that does not exist: exit 74, nothing written.
    let missing = dir.join("missing").join("out.cnf");
    let out = asp2sat(
        &["dimacs", "-", "-o", missing.to_str().unwrap()],
        Some("a."),
    );
    assert_eq!(out.code, Some(74), "{}", out.stderr);
    assert!(out.stderr.contains("could not write"), "{}", out.stderr);
    assert!(!missing.exists());
}

/// The CNF `dimacs` prints on standard output for `program`.
fn exported(program: &str) -> String {
    let out = asp2sat(&["dimacs", "-"], Some(program));
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    out.stdout
}

#[test]
fn dimacs_cli_output_to_a_device_writes_into_it() {
    use std::os::unix::fs::FileTypeExt;
    let is_device = || {
        std::fs::metadata("/dev/null")
            .unwrap()
            .file_type()
            .is_char_device()
    };
    assert!(is_device());
    let out = asp2sat(&["dimacs", "-", "-o", "/dev/null"], Some("{a}."));
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    assert!(is_device(), "-o /dev/null replaced the device");
    // /dev/stdout is the pipe the test reads.
    let out = asp2sat(&["dimacs", "-", "-o", "/dev/stdout"], Some("{a}."));
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    assert_eq!(out.stdout, exported("{a}."));
}

#[test]
fn dimacs_cli_output_through_a_symlink_updates_its_target() {
    let dir = scratch("dimacs/symlink");
    let (target, link) = (dir.join("target.cnf"), dir.join("link.cnf"));
    let _ = std::fs::remove_file(&link);
    std::fs::write(&target, "old").unwrap();
    std::os::unix::fs::symlink("target.cnf", &link).unwrap();
    let out = asp2sat(&["dimacs", "-", "-o", link.to_str().unwrap()], Some("{a}."));
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    let metadata = std::fs::symlink_metadata(&link).unwrap();
    assert!(metadata.file_type().is_symlink(), "the link was replaced");
    assert_eq!(std::fs::read_link(&link).unwrap(), Path::new("target.cnf"));
    assert_eq!(std::fs::read_to_string(&target).unwrap(), exported("{a}."));
}

#[test]
fn dimacs_cli_output_to_a_fifo_writes_into_it() {
    use std::os::unix::fs::FileTypeExt;
    let dir = scratch("dimacs/fifo");
    let fifo = dir.join("out.cnf");
    let _ = std::fs::remove_file(&fifo);
    let made = Command::new("mkfifo").arg(&fifo).status();
    assert!(made.is_ok_and(|s| s.success()), "mkfifo failed");
    let (send, received) = std::sync::mpsc::channel();
    let reader = fifo.clone();
    std::thread::spawn(move || {
        let _ = send.send(std::fs::read_to_string(reader));
    });
    let out = asp2sat(&["dimacs", "-", "-o", fifo.to_str().unwrap()], Some("{a}."));
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    let file_type = std::fs::symlink_metadata(&fifo).unwrap().file_type();
    assert!(file_type.is_fifo(), "the FIFO was replaced");
    let read = received
        .recv_timeout(Duration::from_secs(10))
        .expect("the reader received nothing");
    assert_eq!(read.unwrap(), exported("{a}."));
}

#[test]
fn dimacs_cli_stats_go_to_stderr() {
    let program = "{a}. b :- a. a :- b. c :- b. 1 { x; y; z } 2.";
    let plain = asp2sat(&["dimacs", "-"], Some(program));
    let stats = asp2sat(&["dimacs", "--stats", "-"], Some(program));
    assert_eq!(plain.code, Some(0));
    assert_eq!(stats.code, Some(0));
    assert_eq!(
        plain.stdout, stats.stdout,
        "--stats leaves the CNF as it is"
    );
    assert!(plain.stderr.is_empty(), "{}", plain.stderr);
    for key in [
        "Atoms",
        "Rules",
        "Variables",
        "Clauses",
        "  Completion",
        "  Ranking",
        "  Cardinality",
        "Ranked",
    ] {
        assert!(stats.stderr.contains(key), "{key}:\n{}", stats.stderr);
    }
    assert!(stats.stderr.contains("Tight        : no"));
    let cnf = parse_dimacs(&stats.stdout);
    // {a} twice (a b c or nothing) times 1..2 of x, y, z (6).
    assert_eq!(enumerate(&cnf, 100).unwrap().decoded.len(), 12);
}
