//! Atoms that the completion makes equivalent share one variable, as
//! clasp's preprocessing merges its atom–atom equivalences (Gebser,
//! Kaufmann, Neumann and Schaub, "Advanced Preprocessing for Answer Set
//! Solving", ECAI 2008).
//!
//! An atom `a` whose only rule is `a :- b.` (one positive atom, no other
//! head, no aggregate defining it) is equivalent to `b` in every model of
//! the completion: the rule gives `b → a`, the support `a → b`. Meta-
//! encodings and derived predicates chain such rules: clingo's reified
//! many-models example goes from 1,132 variables to 640. Sharing the
//! variable drops the atom's variable and both clauses, and a search never
//! decides or propagates the two apart.
//!
//! Left apart: facts and unread atoms (they share a fixed variable
//! already), and the atoms of components the minimality check covers,
//! whose reduct it checks atom by atom.

use super::minimality::MinimalityCheck;
use super::unread::UnreadAtoms;
use crate::ground::program::{AtomId, GroundProgram, Head};

/// Per atom, the atom whose variable it shares: the one its chain of
/// `a :- b.` rules ends at (itself when it has no such rule; in a cycle of
/// them, the cycle's last joined). So each class's variable is its
/// defined atom's, created where that atom's would be: the variables keep
/// their order, without the equivalent atoms'.
pub(super) fn representatives(
    program: &GroundProgram,
    unread: &UnreadAtoms,
    minimality: &MinimalityCheck,
) -> Vec<u32> {
    let n = program.atoms.len();
    // Per atom: its definitions (rules with it in the head, aggregates
    // defining it), and the atom of its one-atom rule if it has one.
    let mut definitions = vec![0u32; n];
    let mut copies: Vec<Option<AtomId>> = vec![None; n];
    for rule in &program.rules {
        match &rule.head {
            Head::Constraint => {}
            Head::Atom(a) => {
                definitions[a.index()] += 1;
                if let ([b], []) = (rule.body.pos(), rule.body.neg()) {
                    copies[a.index()] = Some(*b);
                }
            }
            Head::Disjunction(atoms) => atoms.iter().for_each(|a| definitions[a.index()] += 2),
            Head::Choice(choice) => choice
                .elements
                .iter()
                .for_each(|e| definitions[e.value.index()] += 2),
        }
    }
    for aggregate in &program.aggregates {
        definitions[aggregate.atom.index()] += 2;
    }
    let mut apart = vec![false; n];
    for atom in minimality.atoms() {
        apart[atom.index()] = true;
    }
    for (a, atom) in program.atoms.iter().enumerate() {
        apart[a] |= atom.fact || unread.is_unread(AtomId(a as u32));
    }
    let mut parent: Vec<u32> = (0..n as u32).collect();
    for a in 0..n {
        let Some(b) = copies[a] else { continue };
        let b = b.index();
        if definitions[a] != 1 || a == b || apart[a] || apart[b] {
            continue;
        }
        let (ra, rb) = (root(&mut parent, a), root(&mut parent, b));
        if ra != rb {
            parent[ra as usize] = rb;
        }
    }
    (0..n).map(|a| root(&mut parent, a)).collect()
}

/// The root of `a`'s tree, halving the path on the way.
fn root(parent: &mut [u32], a: usize) -> u32 {
    let mut a = a;
    while parent[a] as usize != a {
        let up = parent[parent[a] as usize];
        parent[a] = up;
        a = up as usize;
    }
    a as u32
}

#[cfg(test)]
mod tests {
    use super::representatives;
    use crate::testing::parse;
    use crate::translate::analysis::Analysis;
    use crate::translate::minimality::MinimalityCheck;
    use crate::translate::unread::UnreadAtoms;

    /// The classes of more than one atom, each `a=b=…` in the order of
    /// atoms, separated by spaces.
    fn check(text: &str, expect: &str) {
        let program = parse(text);
        let minimality = MinimalityCheck::new(&program, &Analysis::new(&program));
        let roots = representatives(&program, &UnreadAtoms::default(), &minimality);
        let name = |a: usize| program.symbols.display(program.atoms[a].symbol).to_string();
        let classes: Vec<String> = (0..roots.len())
            .filter(|&r| {
                roots[r] as usize == r && roots.iter().filter(|&&x| x as usize == r).count() > 1
            })
            .map(|r| {
                let members: Vec<String> = (0..roots.len())
                    .filter(|&a| roots[a] as usize == r)
                    .map(name)
                    .collect();
                members.join("=")
            })
            .collect();
        assert_eq!(classes.join(" "), expect, "{text}");
    }

    #[test]
    fn atoms_with_one_rule_of_one_atom_join_its_class() {
        check("{c}. a :- b. b :- c.", "c=a=b");
        check("a :- b. b :- a.", "a=b");
        check("{x}. s = #sum{1: x} >= 1. t :- s.", "s=t");
        check("{c; d}. a :- c. b :- a. e :- d.", "c=a=b d=e");
    }

    #[test]
    fn other_definitions_keep_an_atom_apart() {
        // A second rule, a body of two literals or a negative one.
        check("{c; d}. a :- c. a :- d.", "");
        check("{c; d}. a :- c, d. b :- not c.", "");
        // A choice or a disjunction with the atom in its head.
        check("{a; c}. a :- c.", "");
        check("{c}. a | b :- c. a :- c.", "");
        // The components the minimality check covers.
        check("a | b. a :- b. b :- a.", "");
    }
}
