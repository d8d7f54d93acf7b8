//! `#edge (u, v) : body.`: the edges whose bodies hold form an acyclic
//! graph, exactly and with every new variable determined by the edges.
//!
//! Only an edge inside a strongly connected component of the possible
//! edges can lie on a cycle. Per such component, `reach(x, y)` (a path of
//! present edges from `x` to `y`) is defined by its completion
//!
//! ```text
//! reach(x, y) ↔ ⋁ over edges (x, w):  e(x, w) ∧ (w = y  or  reach(w, y))
//! ```
//!
//! and `reach(x, x)` is forbidden. On a cycle through `x` the completion
//! forces `reach(x, x)` (walking back along the cycle), so no model has a
//! cycle; on an acyclic graph the definition is well-founded, so `reach`
//! has exactly one value: the number of models is kept.

use super::Cond;
use super::gates::Gates;
use crate::symbols::SymId;
use rustc_hash::FxHashMap;
use varisat_formula::{ExtendFormula, Lit};

/// Writes the constraint for `edges` (`(u, v, present)`).
pub(crate) fn encode<S: ExtendFormula>(edges: &[(SymId, SymId, Cond)], gates: &mut Gates<S>) {
    let mut node_of: FxHashMap<SymId, u32> = FxHashMap::default();
    let mut nodes = 0u32;
    let mut node = |symbol: SymId| {
        *node_of.entry(symbol).or_insert_with(|| {
            nodes += 1;
            nodes - 1
        })
    };
    let possible: Vec<(u32, (u32, Cond))> = (edges.iter())
        .filter(|(_, _, present)| *present != Cond::False)
        .map(|&(u, v, present)| (node(u), (node(v), present)))
        .collect();
    let n = nodes as usize;
    let (offsets, out) = crate::graph::csr(n, &possible);
    let targets: Vec<u32> = out.iter().map(|&(v, _)| v).collect();
    let components = crate::graph::tarjan(n, &offsets, &targets);
    let mut members: Vec<Vec<u32>> = vec![Vec::new(); components.count];
    for (x, &c) in components.component.iter().enumerate() {
        members[c as usize].push(x as u32);
    }
    let mut local = vec![0usize; n];
    for component in &members {
        let cyclic = component.len() > 1 || {
            let x = component[0] as usize;
            targets[offsets[x]..offsets[x + 1]].contains(&component[0])
        };
        if !cyclic {
            continue;
        }
        let k = component.len();
        for (i, &x) in component.iter().enumerate() {
            local[x as usize] = i;
        }
        let same = |w: u32| {
            components.component[w as usize] == components.component[component[0] as usize]
        };
        let reach: Vec<Lit> = (0..k * k)
            .map(|_| gates.sink.new_var().positive())
            .collect();
        for (i, &x) in component.iter().enumerate() {
            let x = x as usize;
            for j in 0..k {
                let r = reach[i * k + j];
                let mut terms: Vec<Lit> = Vec::new();
                let mut certain = false;
                let steps = out[offsets[x]..offsets[x + 1]]
                    .iter()
                    .filter(|(w, _)| same(*w));
                for &(w, present) in steps {
                    let step = if local[w as usize] == j {
                        present
                    } else {
                        gates.and(&[present, Cond::Lit(reach[local[w as usize] * k + j])])
                    };
                    match step {
                        Cond::True => certain = true,
                        Cond::False => {}
                        Cond::Lit(l) => terms.push(l),
                    }
                }
                if certain {
                    gates.sink.add_clause(&[r]);
                    continue;
                }
                // reach ↔ ⋁ terms
                let mut clause = vec![!r];
                clause.extend(&terms);
                gates.sink.add_clause(&clause);
                for &t in &terms {
                    gates.sink.add_clause(&[!t, r]);
                }
            }
            gates.sink.add_clause(&[!reach[i * k + i]]);
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::solve::{SolveOptions, TranslationMode};
    use crate::testing::Rng;

    /// Whether the edges of `subset` (a bit per edge) form an acyclic graph.
    fn acyclic(edges: &[(usize, usize)], subset: u32, nodes: usize) -> bool {
        let mut indegree = vec![0; nodes];
        let present: Vec<(usize, usize)> = (edges.iter().enumerate())
            .filter(|(i, _)| subset >> i & 1 == 1)
            .map(|(_, &e)| e)
            .collect();
        for &(_, v) in &present {
            indegree[v] += 1;
        }
        let mut ready: Vec<usize> = (0..nodes).filter(|&v| indegree[v] == 0).collect();
        let mut removed = 0;
        while let Some(u) = ready.pop() {
            removed += 1;
            for &(x, v) in &present {
                if x == u {
                    indegree[v] -= 1;
                    if indegree[v] == 0 {
                        ready.push(v);
                    }
                }
            }
        }
        removed == nodes
    }

    /// Random graphs with chosen edges: the answer sets are exactly the
    /// acyclic subsets, in both translations (the eager one is what
    /// `dimacs` exports).
    #[test]
    fn edge_directives_keep_exactly_the_acyclic_subsets() {
        let mut rng = Rng::new(31);
        let mut cyclic_graphs = 0;
        for round in 0..150 {
            let nodes = 1 + rng.below(4);
            let mut edges: Vec<(usize, usize)> = Vec::new();
            for _ in 0..rng.below(8) {
                let edge = (rng.below(nodes), rng.below(nodes));
                if !edges.contains(&edge) {
                    edges.push(edge);
                }
            }
            let expected = (0..1u32 << edges.len())
                .filter(|&s| acyclic(&edges, s, nodes))
                .count();
            cyclic_graphs += usize::from(expected < 1 << edges.len());
            let choices: Vec<String> = edges.iter().map(|(u, v)| format!("e({u},{v})")).collect();
            let text = format!(
                "{{ {} }}. #edge (X,Y) : e(X,Y). n(0..{}).",
                choices.join("; "),
                nodes - 1
            );
            for translation in [TranslationMode::Lazy, TranslationMode::Eager] {
                let options = SolveOptions {
                    translation,
                    ..SolveOptions::default()
                };
                let found = crate::answer_sets_with(&text, options).unwrap();
                assert_eq!(
                    found.len(),
                    expected,
                    "round {round}, {translation:?}: {text}"
                );
            }
        }
        assert!(cyclic_graphs > 50, "{cyclic_graphs}");
    }
}
