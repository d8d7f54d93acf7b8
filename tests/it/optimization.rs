//! Optimization against clingo: random programs shaped like the ones people
//! write (a choice over a small domain, derived atoms, a disjunction now
//! and then) with `#minimize`, `#maximize` and weak constraints in clingo's,
//! lparse's and DLV's forms, several priorities, negative weights, tuples
//! shared between statements and instances, conditions with negation and
//! aggregates, weights that are not integers, and objectives over atoms
//! that aggregate assignments define (`S = #sum{..}`, `#count`, `#min`,
//! `#max`: tests/it/common/generator.rs). Each is solved with
//! `--opt-mode=optN --quiet=1` by asp2sat's core-guided and linear search
//! in both translations (the eager one where it accepts the program) and by
//! clingo: the optimal answer sets (as a multiset), the result and the
//! optimal cost vector must be equal, and asp2sat must refuse none. Without
//! clingo, asp2sat's four runs are still compared with each other. The MaxSAT export `dimacs --wcnf`, solved by
//! RC2 (`scripts/rc2-optimum`), must give clingo's optimum and one of its
//! optimal answer sets.
//!
//! Environment: ASP2SAT_OPT_CASES (default 300) and ASP2SAT_OPT_SEED
//! (default 1) choose the programs, ASP2SAT_WCNF_CASES (default 300) those
//! of the export; ASP2SAT_CLINGO the clingo binary.

use crate::common;
use crate::common::{Answer, Rng, Tool, all_answers_json, parse_json_answer, scratch};

const OPTIMAL: &[&str] = &["--opt-mode=optN", "--quiet=1"];

/// A random optimizing program, and the same program in clingo's language
/// (clingo 5 reads neither lparse's `#minimize[..]` nor DLV's `[w:l]`).
fn random_program(seed: u64) -> (String, String) {
    let mut rng = Rng::new(seed);
    let mut text = String::from("d(1..3).\n");
    match rng.below(3) {
        0 => text.push_str("{ p(X) : d(X) }.\n"),
        1 => text.push_str(&format!("{} {{ p(X) : d(X) }} 2.\n", rng.range(0, 2))),
        _ => text.push_str("p(X) :- d(X), not q(X).\n"),
    }
    text.push_str("{ q(X) } :- d(X), not p(X).\n");
    for x in 1..=3 {
        text.push_str(&format!("w({x},{}).\n", rng.range(-3, 4)));
    }
    if rng.chance(0.5) {
        text.push_str("r(X) :- p(X), q(Y), X < Y.\nr(X) :- r(Y), d(X), X = Y + 1, not q(X).\n");
    }
    if rng.chance(0.2) {
        text.push_str("s(X) | t(X) :- q(X).\n");
    }
    if rng.chance(0.3) {
        text.push_str(&format!(":- {} {{ p(X) : d(X) }}.\n", rng.range(2, 4)));
    }
    let mut theirs = text.clone();
    for _ in 0..rng.range(1, 4) {
        let priority = match rng.below(3) {
            0 => String::new(),
            _ => format!("@{}", rng.range(0, 3)),
        };
        let statement = match rng.below(16) {
            0 => format!("#minimize {{ W{priority},X : p(X), w(X,W) }}."),
            1 => format!("#maximize {{ 1{priority},X : q(X); 2{priority} : r(1) }}."),
            2 => format!(":~ p(X), not q(X+1). [X{priority}, X]"),
            // One tuple for every instance: it counts once.
            3 => format!(":~ q(X). [1{priority}]"),
            // The same tuple in two statements and under two conditions.
            4 => format!(
                "#minimize {{ 2{priority},shared : p(1); 2{priority},shared : q(2) }}.\n\
                 #minimize {{ 2{priority},shared : r(2) }}."
            ),
            5 => {
                theirs.push_str(
                    "#minimize { 2,p(1),0 : p(1); 1,q(2),0 : q(2); -1,p(3),2 : not p(3) }.\n",
                );
                text.push_str("#minimize [ p(1) = 2, q(2), not p(3) = -1 ].\n");
                continue;
            }
            6 => {
                theirs.push_str("#maximize { 1,p(1),0 : p(1); 1,q(2),2 : not q(2) }.\n");
                text.push_str("#maximize { p(1), not q(2) }.\n");
                continue;
            }
            // DLV: every instance counts, as if its variables were in the tuple.
            7 => {
                let level = rng.range(1, 3);
                theirs.push_str(&format!(":~ p(X), w(X,W). [W@{level}, X, W]\n"));
                text.push_str(&format!(":~ p(X), w(X,W). [W:{level}]\n"));
                continue;
            }
            8 => format!(":~ #count {{ X : p(X) }} > 1. [3{priority}]"),
            9 => format!("#minimize {{ -W{priority},X : q(X), w(X,W), not r(X) }}."),
            // Costs every answer set pays, of both signs.
            10 => format!("#minimize {{ W{priority},w,X : w(X,W) }}."),
            // Not an integer: clingo ignores the tuple (another one keeps
            // the program optimizing, so that its optimum is compared).
            11 => {
                format!("#minimize {{ a{priority},X : p(X); 1@b : q(1); 1{priority},X : q(X) }}.")
            }
            _ => common::generator::aggregate_objective(&mut rng, &priority),
        };
        for program in [&mut text, &mut theirs] {
            program.push_str(&statement);
            program.push('\n');
        }
    }
    (text, theirs)
}

/// clingo's optimal answer sets of `file`. Where clingo 5.4.1 differs
/// from asp2sat, clingo 5.8 gets a second say: 5.4.1's `optN` can report
/// an answer set that is not optimal with the optimum's costs, e.g. of
///     d(1..3). 1 { p(X) : d(X) } 2. { q(X) } :- d(X), not p(X).
///     w(1,1). w(2,0). w(3,-3). #maximize { 1@3,X : q(X) }.
///     #minimize { -W@1,X : q(X), w(X,W) }. #minimize { 1@0,X : q(X) }.
///     :~ q(X). [1@3]
/// it prints `{p(2), q(1), q(3)}` with `Optimization: -1 -1 2`, though its
/// costs are `-1 2 2`; 5.8 and asp2sat give `{p(3), q(1), q(2)}` alone.
/// On some programs 5.4.1 also never ends (it enumerates one model
/// forever): its own time limit stops it, and 5.8 answers.
fn clingo_optimum(file: &str, ours: &Answer) -> Result<Answer, String> {
    let file = file.replace(".lp", ".clingo.lp");
    let mut first = None;
    for tool in [Tool::Clingo, Tool::PythonClingo] {
        let mut flags = OPTIMAL.to_vec();
        if tool == Tool::Clingo {
            flags.push("--time-limit=5");
        }
        let output = all_answers_json(tool, &file, &flags);
        let answer = parse_json_answer(&output.stdout)
            .map_err(|e| format!("{tool:?}: {e} ({})\n{}", output.status(), output.stderr));
        if answer.as_ref().is_ok_and(|answer| same(answer, ours)) {
            return answer;
        }
        first.get_or_insert(answer);
    }
    first.expect("two opinions")
}

/// Writes program `seed` into `dir` as `seed<N>.lp`, and its clingo form
/// beside it as `seed<N>.clingo.lp` (where [`clingo_optimum`] reads it);
/// returns the program and its file.
fn write_program(dir: &std::path::Path, seed: u64) -> (String, std::path::PathBuf) {
    let (program, theirs) = random_program(seed);
    let file = dir.join(format!("seed{seed}.lp"));
    std::fs::write(&file, &program).unwrap();
    std::fs::write(dir.join(format!("seed{seed}.clingo.lp")), &theirs).unwrap();
    (program, file)
}

fn same(clingo: &Answer, ours: &Answer) -> bool {
    clingo.result == ours.result && clingo.costs == ours.costs && clingo.sorted() == ours.sorted()
}

/// The strategies, translations and solvers each random program is
/// solved with (CaDiCaL and batsat in a build with their features; they
/// propagate the bounds of weighted levels inside the search).
const CONFIGURATIONS: &[&[&str]] = &[
    &["--opt-strategy=usc", "--translation=lazy"],
    &["--opt-strategy=usc", "--translation=eager"],
    &["--opt-strategy=usc,oll,stratify", "--translation=lazy"],
    &["--opt-strategy=bb", "--translation=lazy"],
    &["--opt-strategy=bb", "--translation=eager"],
    #[cfg(feature = "cadical")]
    &[
        "--opt-strategy=usc",
        "--translation=lazy",
        "--solver=cadical",
    ],
    #[cfg(feature = "cadical")]
    &[
        "--opt-strategy=bb",
        "--translation=lazy",
        "--solver=cadical",
    ],
    #[cfg(feature = "batsat")]
    &[
        "--opt-strategy=usc",
        "--translation=lazy",
        "--solver=batsat",
    ],
    #[cfg(feature = "batsat")]
    &["--opt-strategy=bb", "--translation=lazy", "--solver=batsat"],
];

/// The solvers the knapsacks are solved with.
const SOLVERS: &[&str] = &[
    "--solver=varisat",
    #[cfg(feature = "cadical")]
    "--solver=cadical",
    #[cfg(feature = "batsat")]
    "--solver=batsat",
];

/// What the exact translation says of a program it does not translate.
const NOT_EXACT: &str = "so they are not translated exactly";

/// asp2sat's optimal answer sets of `file` in each of [`CONFIGURATIONS`]
/// (the eager translation only where it accepts the program), which must
/// agree: the first one's, or what failed or differs.
fn our_optimum(file: &str) -> Result<Answer, String> {
    let mut agreed: Option<(&[&str], Answer)> = None;
    for &configuration in CONFIGURATIONS {
        let mut flags = OPTIMAL.to_vec();
        flags.extend(configuration);
        let output = all_answers_json(Tool::Asp2sat, file, &flags);
        if configuration[1] == "--translation=eager" && output.stderr.contains(NOT_EXACT) {
            continue;
        }
        let answer = parse_json_answer(&output.stdout).map_err(|e| {
            format!(
                "{configuration:?}: {e} ({})\n{}",
                output.status(),
                output.stderr
            )
        })?;
        match &agreed {
            None => agreed = Some((configuration, answer)),
            Some((first, theirs)) if !same(theirs, &answer) => {
                return Err(format!(
                    "asp2sat {first:?} {} {:?} {:?}\n  asp2sat {configuration:?} {} {:?} {:?}",
                    theirs.result,
                    theirs.costs,
                    theirs.sorted(),
                    answer.result,
                    answer.costs,
                    answer.sorted()
                ));
            }
            Some(_) => {}
        }
    }
    Ok(agreed
        .expect("the lazy translation accepts every program")
        .1)
}

/// Whether clingo can be run: without it, asp2sat's strategies and
/// translations are still compared with each other.
fn clingo_available() -> bool {
    std::process::Command::new(common::clingo_bin())
        .arg("--version")
        .output()
        .is_ok_and(|output| output.status.success())
}

#[test]
fn random_programs_have_clingos_optimum() {
    let seeds = common::seeds("OPT", 300, "OPT");
    let dir = scratch("optimization-random");
    let with_clingo = clingo_available();
    let started = std::time::Instant::now();
    let results = common::parallel_map(&seeds, common::threads(), |_, &seed| {
        let (program, file) = write_program(&dir, seed);
        let file = file.to_string_lossy();
        let ours = match our_optimum(&file) {
            Ok(answer) => answer,
            Err(e) => return (Some(format!("seed {seed}:\n{program}  {e}")), false),
        };
        if !with_clingo {
            return (None, ours.witnesses.len() > 1);
        }
        match clingo_optimum(&file, &ours) {
            Ok(clingo) if same(&clingo, &ours) => (None, ours.witnesses.len() > 1),
            Ok(clingo) => (
                Some(format!(
                    "seed {seed}:\n{program}  clingo  {} {:?} {:?}\n  asp2sat {} {:?} {:?}",
                    clingo.result,
                    clingo.costs,
                    clingo.sorted(),
                    ours.result,
                    ours.costs,
                    ours.sorted()
                )),
                false,
            ),
            Err(e) => (Some(format!("seed {seed}: {e}\n{program}")), false),
        }
    });
    let several = results.iter().filter(|r| r.1).count();
    eprintln!(
        "{} programs, {several} with several optimal answer sets, each in {} configurations{} ({:.1?})",
        results.len(),
        CONFIGURATIONS.len(),
        if with_clingo {
            " and by clingo"
        } else {
            " (no clingo)"
        },
        started.elapsed()
    );
    let failures: Vec<String> = results.into_iter().filter_map(|r| r.0).collect();
    assert!(
        failures.is_empty(),
        "{} failed:\n{}",
        failures.len(),
        failures.join("\n\n")
    );
    assert!(
        several * 5 > seeds.len(),
        "too few programs with several optima"
    );
}

/// Knapsacks maximizing the value of an atom that a `#sum` assignment
/// defines. Core-guided search once proved a lower bound from a failed core
/// that varisat had cut short (vendor/varisat/PATCHES.md) and called -8 the
/// optimum of the first (clingo: -10); the second, with nine items, took
/// minutes under core-guided search before it handed such levels to the
/// linear search.
const KNAPSACKS: &[&str] = &[
    "item(2,3). item(3,4). item(7,2). item(8,5).\n\
     {in(V,W)} :- item(V,W).\n\
     weight(S) :- S = #sum{W,V : in(V,W)}.\n\
     value(S)  :- S = #sum{V,W : in(V,W)}.\n\
     :- weight(W), W>6.\n\
     #maximize{V : value(V)}.\n",
    "item(10,5). item(40,4). item(30,6). item(50,3). item(35,7).\n\
     item(25,2). item(15,8). item(45,9). item(20,1).\n\
     {in(V,W)} :- item(V,W).\n\
     weight(S) :- S = #sum{W,V : in(V,W)}.\n\
     value(S)  :- S = #sum{V,W : in(V,W)}.\n\
     :- weight(W), W>15.\n\
     #maximize{V : value(V)}.\n",
];

/// Every solver, strategy, translation and optimization mode of asp2sat against
/// clingo on [`KNAPSACKS`]: `opt` ends with clingo's optimum, proven, on
/// one of clingo's optimal answer sets; `optN` lists clingo's optimal
/// answer sets; `enum` lists every answer set with clingo's costs.
#[test]
fn knapsacks_have_clingos_optimum_in_every_mode() {
    let dir = scratch("optimization-knapsacks");
    for (index, program) in KNAPSACKS.iter().enumerate() {
        let file = dir.join(format!("knapsack{index}.lp"));
        std::fs::write(&file, program).unwrap();
        let file = file.to_string_lossy();
        let clingo = |flags: &[&str]| {
            parse_json_answer(&all_answers_json(Tool::Clingo, &file, flags).stdout).unwrap()
        };
        let optimal = clingo(OPTIMAL);
        let every = clingo(&["--opt-mode=enum"]);
        let strategies = [
            "--opt-strategy=usc",
            "--opt-strategy=usc,oll,stratify",
            "--opt-strategy=bb",
        ];
        for (solver, strategy) in SOLVERS.iter().flat_map(|&s| strategies.map(|t| (s, t))) {
            for translation in ["--translation=lazy", "--translation=eager"] {
                let ours = |mode: &[&str]| {
                    let mut flags = vec![solver, strategy, translation];
                    flags.extend(mode);
                    let output = all_answers_json(Tool::Asp2sat, &file, &flags);
                    (parse_json_answer(&output.stdout))
                        .unwrap_or_else(|e| panic!("{flags:?}: {e}\n{}", output.stderr))
                };
                let context = format!("knapsack {index}, {solver} {strategy} {translation}");
                let best = ours(&["--opt-mode=opt"]);
                assert_eq!(
                    (best.result.as_str(), &best.costs),
                    ("OPTIMUM FOUND", &optimal.costs),
                    "{context}, opt"
                );
                let last = best.witnesses.last().expect("an answer set");
                assert!(optimal.witnesses.contains(last), "{context}, opt: {last:?}");
                assert!(same(&optimal, &ours(OPTIMAL)), "{context}, optN");
                let listed = ours(&["--opt-mode=enum"]);
                assert_eq!(listed.result, every.result, "{context}, enum");
                assert_eq!(
                    listed.sorted_with_costs(),
                    every.sorted_with_costs(),
                    "{context}, enum"
                );
            }
        }
    }
}

/// An optimum: the cost vector and the shown atoms of an optimal model.
type Optimum = (Vec<i64>, Vec<String>);

/// What RC2 finds for each WCNF file of `exported`, in one call of
/// `scripts/rc2-optimum` (Python and python-sat start in a sixth of a
/// second, RC2 solves such a file in far less); `None` when unsatisfiable.
fn rc2_optima(exported: &[std::path::PathBuf]) -> Vec<Result<Option<Optimum>, String>> {
    let solved = common::run_script("rc2-optimum", exported);
    let failed = |e: &dyn std::fmt::Display| {
        format!(
            "scripts/rc2-optimum {}: {e}\n{}",
            solved.status(),
            solved.stderr
        )
    };
    let mut lines = solved.stdout.lines();
    (exported.iter())
        .map(|_| {
            let line = lines
                .next()
                .ok_or_else(|| failed(&"no line for this file"))?;
            let value: serde_json::Value = serde_json::from_str(line).map_err(|e| failed(&e))?;
            if value.is_null() {
                return Ok(None);
            }
            let costs = value["costs"]
                .as_array()
                .ok_or("no costs")?
                .iter()
                .map(|c| c.as_i64().unwrap())
                .collect();
            let mut shown: Vec<String> = value["shown"]
                .as_array()
                .ok_or("no shown atoms")?
                .iter()
                .map(|a| a.as_str().unwrap().to_string())
                .collect();
            shown.sort();
            Ok(Some((costs, shown)))
        })
        .collect()
}

#[test]
fn wcnf_export_gives_clingos_optimum() {
    let seeds = common::seeds("WCNF", 300, "OPT");
    let dir = scratch("optimization-wcnf");
    // Each program solved by asp2sat and clingo and exported, in parallel;
    // then every export solved by RC2 in one call.
    let runs = common::parallel_map(&seeds, common::threads(), |_, &seed| {
        let (program, file) = write_program(&dir, seed);
        let name = file.to_string_lossy();
        let ours = parse_json_answer(&all_answers_json(Tool::Asp2sat, &name, OPTIMAL).stdout);
        let clingo = ours.and_then(|ours| clingo_optimum(&name, &ours));
        (program, clingo, common::export(&file, &["--wcnf"], "wcnf"))
    });
    let exported: Vec<_> = (runs.iter())
        .filter_map(|(_, _, wcnf)| wcnf.clone().ok())
        .collect();
    let mut optima = rc2_optima(&exported).into_iter();
    let failures: Vec<String> = (seeds.iter().zip(runs))
        .filter_map(|(seed, (program, clingo, wcnf))| {
            let found = wcnf.and_then(|_| optima.next().expect("one optimum a file"));
            let verdict = match (clingo, found) {
                (Err(e), _) | (_, Err(e)) => Some(e),
                (Ok(clingo), Ok(None)) if clingo.result == "UNSATISFIABLE" => None,
                (Ok(clingo), Ok(Some((costs, shown))))
                    if clingo.costs.as_ref() == Some(&costs)
                        && clingo.witnesses.contains(&shown) =>
                {
                    None
                }
                (Ok(clingo), Ok(found)) => Some(format!(
                    "clingo {} {:?} {:?}\n  RC2 {found:?}",
                    clingo.result,
                    clingo.costs,
                    clingo.sorted()
                )),
            };
            verdict.map(|v| format!("seed {seed}:\n{program}  {v}"))
        })
        .collect();
    assert!(
        failures.is_empty(),
        "{} failed:\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}
