//! Strongly connected components, shared by the grounder (predicate
//! dependencies) and translation (positive atom dependencies).

/// Tarjan's algorithm without recursion, so graphs with millions of nodes
/// cannot overflow the stack.
///
/// Components are returned in reverse topological order of the condensation:
/// every component comes after all components reachable from it. With edges
/// pointing from a head to what it depends on, dependencies come first.
pub fn strongly_connected_components<'a>(
    nodes: usize,
    successors: impl Fn(usize) -> &'a [u32],
) -> Vec<Vec<u32>> {
    const UNVISITED: u32 = u32::MAX;
    let mut index = vec![UNVISITED; nodes];
    let mut lowlink = vec![0u32; nodes];
    let mut on_stack = vec![false; nodes];
    let mut stack: Vec<u32> = Vec::new();
    let mut components = Vec::new();
    let mut next_index = 0u32;
    // (node, position in its successor list)
    let mut work: Vec<(u32, usize)> = Vec::new();

    for root in 0..nodes {
        if index[root] != UNVISITED {
            continue;
        }
        work.push((root as u32, 0));
        index[root] = next_index;
        lowlink[root] = next_index;
        next_index += 1;
        stack.push(root as u32);
        on_stack[root] = true;

        while let Some(&mut (node, ref mut next)) = work.last_mut() {
            let node_us = node as usize;
            let succ = successors(node_us);
            if *next < succ.len() {
                let target = succ[*next] as usize;
                *next += 1;
                if index[target] == UNVISITED {
                    index[target] = next_index;
                    lowlink[target] = next_index;
                    next_index += 1;
                    stack.push(target as u32);
                    on_stack[target] = true;
                    work.push((target as u32, 0));
                } else if on_stack[target] {
                    lowlink[node_us] = lowlink[node_us].min(index[target]);
                }
                continue;
            }
            work.pop();
            if let Some(&(parent, _)) = work.last() {
                let parent = parent as usize;
                lowlink[parent] = lowlink[parent].min(lowlink[node_us]);
            }
            if lowlink[node_us] == index[node_us] {
                let mut component = Vec::new();
                loop {
                    let member = stack.pop().expect("node is on the stack");
                    on_stack[member as usize] = false;
                    component.push(member);
                    if member == node {
                        break;
                    }
                }
                component.reverse();
                components.push(component);
            }
        }
    }
    components
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sccs(edges: &[Vec<u32>]) -> Vec<Vec<u32>> {
        let mut out = strongly_connected_components(edges.len(), |n| &edges[n]);
        for c in &mut out {
            c.sort();
        }
        out
    }

    #[test]
    fn dependencies_come_first() {
        // 0 -> 1 <-> 2 -> 3
        let edges = vec![vec![1], vec![2], vec![1, 3], vec![]];
        assert_eq!(sccs(&edges), vec![vec![3], vec![1, 2], vec![0]]);
    }

    #[test]
    fn self_loops_and_isolated_nodes() {
        let edges = vec![vec![0], vec![]];
        assert_eq!(sccs(&edges), vec![vec![0], vec![1]]);
    }

    #[test]
    fn long_chain_does_not_overflow() {
        let n = 1_000_000;
        let edges: Vec<Vec<u32>> = (0..n)
            .map(|i| if i + 1 < n { vec![i as u32 + 1] } else { vec![0] })
            .collect();
        let out = strongly_connected_components(n, |v| &edges[v]);
        assert_eq!(out.len(), 1);
        assert_eq!(out[0].len(), n);
    }
}
