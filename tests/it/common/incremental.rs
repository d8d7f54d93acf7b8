//! Random programs in clingo's incremental mode (`#include <incmode>.`),
//! shaped like the planning programs people write for it: a walk over a
//! small graph, one move a step at most, the goal checked under `query(t)`,
//! and some of: inertia, a fluent that accumulates, a count over the
//! step's atoms, a constraint between consecutive steps, a positive cycle
//! inside a step, a disjunction, strong negation, and rules of a later
//! step about an earlier step's atoms. [`FEATURES`] names them.

use std::collections::BTreeSet;

use super::Rng;
use super::generator::Program;

/// What an incremental program can hold, in the order of the summary.
pub const FEATURES: &[&str] = &[
    "imin",
    "istop UNSAT",
    "at most one move",
    "exactly one move",
    "inertia",
    "accumulated fluent",
    "count aggregate",
    "consecutive steps",
    "cycle in a step",
    "disjunction",
    "strong negation",
    "earlier step's atom",
    "external",
    "external defined later",
    "goal by fluent",
];

pub fn generate_incremental(seed: u64) -> Program {
    let mut rng = Rng::new(seed);
    let mut features = BTreeSet::new();
    let mut mark = |f: &'static str| {
        debug_assert!(FEATURES.contains(&f), "unknown feature {f}");
        features.insert(f);
    };
    let mut lines = vec![
        format!("% asp2sat incremental-mode test program, seed {seed}"),
        "#include <incmode>.".to_string(),
    ];
    lines.push(format!("#const imax = {}.", rng.range(3, 6)));
    if rng.chance(0.2) {
        mark("imin");
        lines.push(format!("#const imin = {}.", rng.range(1, 3)));
    }
    if rng.chance(0.1) {
        mark("istop UNSAT");
        lines.push("#const istop = \"UNSAT\".".to_string());
    }

    lines.push("#program base.".to_string());
    let nodes = rng.range(3, 5);
    lines.push(format!("node(1..{nodes})."));
    let mut edges = Vec::new();
    for x in 1..=nodes {
        for y in 1..=nodes {
            if x != y && rng.chance(0.4) {
                edges.push(format!("edge({x},{y})."));
            }
        }
    }
    lines.push(edges.join(" "));
    lines.push("at(1,0). seen(1,0).".to_string());
    lines.push(format!("goal({}).", rng.range(2, nodes)));
    if rng.chance(0.3) {
        lines.push(format!("blocked({}).", rng.range(2, nodes)));
    }

    lines.push("#program step(t).".to_string());
    if rng.chance(0.7) {
        mark("at most one move");
        lines.push("{ go(Y,t) : edge(X,Y), at(X,t-1) } 1.".to_string());
    } else {
        mark("exactly one move");
        lines.push("1 { go(Y,t) : node(Y) } 1.".to_string());
        lines.push(":- go(Y,t), not reach(Y,t).".to_string());
        lines.push("reach(Y,t) :- at(X,t-1), edge(X,Y).".to_string());
    }
    lines.push("at(Y,t) :- go(Y,t).".to_string());
    lines.push("moved(t) :- go(_,t).".to_string());
    if rng.chance(0.8) {
        mark("inertia");
        lines.push("at(X,t) :- at(X,t-1), not moved(t).".to_string());
    }
    lines.push(":- at(X,t), blocked(X).".to_string());
    let goal_by_fluent = rng.chance(0.4);
    if goal_by_fluent || rng.chance(0.3) {
        mark("accumulated fluent");
        lines.push("seen(X,t) :- at(X,t).".to_string());
        lines.push("seen(X,t) :- seen(X,t-1), node(X).".to_string());
    }
    if rng.chance(0.3) {
        mark("count aggregate");
        let bound = rng.range(1, 2);
        lines.push(format!(":- #count {{ X : at(X,t) }} > {bound}."));
    }
    if rng.chance(0.3) {
        mark("consecutive steps");
        lines.push(":- go(X,t), go(X,t-1).".to_string());
    }
    if rng.chance(0.25) {
        mark("cycle in a step");
        lines.push("p(X,t) :- q(X,t).".to_string());
        lines.push("q(X,t) :- p(X,t), node(X).".to_string());
        lines.push("q(X,t) :- at(X,t).".to_string());
        lines.push(":- go(X,t), not p(X,t).".to_string());
    }
    if rng.chance(0.2) {
        mark("disjunction");
        lines.push("left(t) | right(t) :- moved(t).".to_string());
        lines.push(":- left(t), go(X,t), X > 2.".to_string());
    }
    if rng.chance(0.15) {
        mark("strong negation");
        lines.push("-at(X,t) :- node(X), not at(X,t).".to_string());
    }
    if rng.chance(0.2) {
        // A step's rule about the step before's atoms: a redefinition or
        // not, by what the earlier step defined.
        mark("earlier step's atom");
        lines.push("late(t-1) :- moved(t).".to_string());
        lines.push(":- late(t), not moved(t).".to_string());
    }
    if rng.chance(0.15) {
        mark("external");
        lines.push("#external ext(t).".to_string());
        lines.push(":- ext(t), moved(t).".to_string());
    }
    if rng.chance(0.15) {
        // clingo lets a step define an external of the step before, which
        // turns the earlier step's rules about it on.
        mark("external defined later");
        lines.push("#external later(t+1).".to_string());
        lines.push(":- later(t+1), not moved(t).".to_string());
        lines.push("later(t) :- go(2,t).".to_string());
        // Grounding the earlier step took `not later(t+1)` for true.
        lines.push("ok(t) :- moved(t), not later(t+1).".to_string());
        lines.push(":- ok(t-1), go(2,t).".to_string());
        // Shown, so that no step unfolds it away.
        lines.push("#show ok/1.".to_string());
    }

    lines.push("#program check(t).".to_string());
    if goal_by_fluent {
        mark("goal by fluent");
        lines.push(":- query(t), goal(G), not seen(G,t).".to_string());
    } else {
        lines.push(":- query(t), goal(G), not at(G,t).".to_string());
    }
    lines.push("#show go/2.".to_string());
    if rng.chance(0.3) {
        lines.push("#show at/2.".to_string());
    }
    let mut text = lines.join("\n");
    text.push('\n');
    Program { text, features }
}
