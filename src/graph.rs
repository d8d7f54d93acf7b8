//! Strongly connected components by Tarjan's algorithm, iteratively: ground
//! programs can have millions of atoms, too many for recursion. Used by the
//! grounder (predicate dependencies) and translation (positive atom
//! dependencies).

/// The component of every node. Components are numbered in the order
/// Tarjan's algorithm completes them, which is a reverse topological order:
/// every edge leads to a component with a number no larger than its source's.
#[derive(Clone, Debug)]
pub struct Components {
    pub component: Vec<u32>,
    pub count: usize,
}

impl Components {
    /// The number of nodes of each component.
    pub fn sizes(&self) -> Vec<usize> {
        let mut size = vec![0usize; self.count];
        for &c in &self.component {
            size[c as usize] += 1;
        }
        size
    }
}

const NONE: u32 = u32::MAX;

/// Components of the graph with nodes `0..n` and, for node `v`, successors
/// `targets[offsets[v]..offsets[v + 1]]`.
pub fn tarjan(n: usize, offsets: &[usize], targets: &[u32]) -> Components {
    let mut index = vec![NONE; n];
    let mut lowlink = vec![0u32; n];
    let mut component = vec![NONE; n];
    let mut stack: Vec<u32> = Vec::new();
    // (node, position of the next edge to follow)
    let mut calls: Vec<(u32, usize)> = Vec::new();
    let mut next_index = 0u32;
    let mut count = 0u32;
    for root in 0..n {
        if index[root] != NONE {
            continue;
        }
        index[root] = next_index;
        lowlink[root] = next_index;
        next_index += 1;
        stack.push(root as u32);
        calls.push((root as u32, offsets[root]));
        while let Some(top) = calls.last_mut() {
            let v = top.0 as usize;
            if top.1 < offsets[v + 1] {
                let w = targets[top.1] as usize;
                top.1 += 1;
                if index[w] == NONE {
                    index[w] = next_index;
                    lowlink[w] = next_index;
                    next_index += 1;
                    stack.push(w as u32);
                    calls.push((w as u32, offsets[w]));
                } else if component[w] == NONE {
                    // Visited and not yet in a component: on the stack.
                    lowlink[v] = lowlink[v].min(index[w]);
                }
                continue;
            }
            calls.pop();
            if let Some(&(parent, _)) = calls.last() {
                let parent = parent as usize;
                lowlink[parent] = lowlink[parent].min(lowlink[v]);
            }
            if lowlink[v] == index[v] {
                loop {
                    let w = stack.pop().expect("Tarjan stack holds the component") as usize;
                    component[w] = count;
                    if w == v {
                        break;
                    }
                }
                count += 1;
            }
        }
    }
    Components {
        component,
        count: count as usize,
    }
}

/// Turns counts at `offsets[i + 1]` into the start of each node's range:
/// `offsets[i]` becomes the sum of the counts before `i`.
pub fn prefix_sums(offsets: &mut [usize]) {
    for i in 1..offsets.len() {
        offsets[i] += offsets[i - 1];
    }
}

/// The adjacency of nodes `0..n` in the form [`tarjan`] takes: node `v`'s
/// successors (with their payload) are `targets[offsets[v]..offsets[v + 1]]`,
/// in the order of `edges`.
pub fn csr<T: Copy>(n: usize, edges: &[(u32, T)]) -> (Vec<usize>, Vec<T>) {
    let mut offsets = vec![0; n + 1];
    for &(s, _) in edges {
        offsets[s as usize + 1] += 1;
    }
    prefix_sums(&mut offsets);
    let mut sorted = edges.to_vec();
    sorted.sort_by_key(|&(s, _)| s);
    (offsets, sorted.into_iter().map(|(_, t)| t).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_cycles_and_reverse_topological_order() {
        // 0 → 1 → 2 → 1, 2 → 3, 4 alone
        let (o, t) = csr(5, &[(0, 1), (1, 2), (2, 1), (2, 3)]);
        let c = tarjan(5, &o, &t);
        assert_eq!(c.count, 4);
        assert_eq!(c.component[1], c.component[2]);
        assert!(c.component[3] < c.component[1]);
        assert!(c.component[1] < c.component[0]);
    }

    #[test]
    fn long_chain_does_not_overflow_the_stack() {
        let n = 1_000_000u32;
        let edges: Vec<(u32, u32)> = (0..n).map(|i| (i, (i + 1) % n)).collect();
        let (o, t) = csr(n as usize, &edges);
        let c = tarjan(n as usize, &o, &t);
        assert_eq!(c.count, 1);
    }

    #[test]
    fn agrees_with_reachability_on_random_graphs() {
        let mut seed = 0x9e3779b97f4a7c15u64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for _ in 0..300 {
            let n = (next() % 9) as usize + 1;
            let m = (next() % 15) as usize;
            let edges: Vec<(u32, u32)> = (0..m)
                .map(|_| ((next() % n as u64) as u32, (next() % n as u64) as u32))
                .collect();
            let (o, t) = csr(n, &edges);
            let c = tarjan(n, &o, &t);
            // reach[i][j]: j reachable from i
            let mut reach = vec![vec![false; n]; n];
            for (i, row) in reach.iter_mut().enumerate() {
                row[i] = true;
            }
            for _ in 0..n {
                for &(s, d) in &edges {
                    for row in reach.iter_mut() {
                        if row[s as usize] {
                            row[d as usize] = true;
                        }
                    }
                }
            }
            for (i, row) in reach.iter().enumerate() {
                for (j, &forward) in row.iter().enumerate() {
                    let same = forward && reach[j][i];
                    assert_eq!(same, c.component[i] == c.component[j]);
                    if forward {
                        assert!(c.component[j] <= c.component[i]);
                    }
                }
            }
        }
    }
}
