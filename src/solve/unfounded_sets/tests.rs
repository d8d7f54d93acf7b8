//! The check's unit tests: the sets it finds and their reasons.

use super::{Assignment, UnfoundedSets, Verdict, completion};
use crate::testing::{atom_named, parse};
use varisat::Lit;

/// An assignment given as its trail.
struct Trail(Vec<Lit>);

impl Assignment for Trail {
    fn value(&self, lit: Lit) -> Option<bool> {
        (self.0.iter())
            .find(|l| l.var() == lit.var())
            .map(|&l| l == lit)
    }

    fn trail_len(&self) -> usize {
        self.0.len()
    }

    fn trail(&self, index: usize) -> Lit {
        self.0[index]
    }
}

/// With `x`, `y` and `z` false, the component {a, b, c, d} is
/// unfounded, but as two sets: {a, b} for `x` and `z` alone, then
/// {c, d} for `y` and the falsity of `b`, on which `c`'s other body
/// rests. With `a` true the first set is the conflict, alone; with `c`
/// true there is none yet (its reason needs `b` false first).
#[test]
fn the_unfounded_atoms_split_into_the_sets_they_rest_on() {
    let text = "{x; y; z; w}. a :- b. b :- a. a :- x. b :- c, z.
                c :- d. d :- c. d :- y. c :- b, w.";
    let mut program = parse(text);
    let (formula, translation) = completion(&program).expect("a normal program");
    let mut lit = |name| translation.atom_lit(atom_named(&mut program, name));
    let [a, b, c, d, x, y, z] = ["a", "b", "c", "d", "x", "y", "z"].map(&mut lit);
    let sorted = |lits: &[Lit]| {
        let mut lits = lits.to_vec();
        lits.sort_by_key(|l| l.code());
        lits
    };
    let check = |trail: Vec<Lit>| {
        let mut sets = UnfoundedSets::new(&translation, formula.var_count());
        let verdict = sets.check(&Trail(trail));
        let found: Vec<(Vec<Lit>, Vec<Lit>)> = (sets.unfounded_sets())
            .map(|(atoms, reason)| (sorted(atoms), sorted(reason)))
            .collect();
        (verdict, found)
    };
    let falsified = vec![!x, !y, !z];
    assert_eq!(
        check(falsified.clone()),
        (
            Verdict::Unfounded,
            vec![
                (sorted(&[a, b]), sorted(&[!x, !z])),
                (sorted(&[c, d]), sorted(&[!y, !b])),
            ]
        )
    );
    let with_a = [falsified.clone(), vec![a]].concat();
    assert_eq!(
        check(with_a),
        (
            Verdict::Conflict(a),
            vec![(sorted(&[a, b]), sorted(&[!x, !z]))]
        )
    );
    let with_c = [falsified, vec![c]].concat();
    assert_eq!(check(with_c).0, Verdict::Unfounded);
}

/// A body that holds an atom of the set is no external support, false
/// or not: with `y` false, `a :- b, y.` is left out of the reason of
/// {a, b} (one set through `a :- b, w.`), which is `x`'s falsity alone.
#[test]
fn a_false_body_inside_the_set_is_not_in_its_reason() {
    let text = "{x; y; w}. a :- b, y. a :- b, w. b :- a. a :- x.";
    let mut program = parse(text);
    let (formula, translation) = completion(&program).expect("a normal program");
    let mut lit = |name| translation.atom_lit(atom_named(&mut program, name));
    let [x, y] = ["x", "y"].map(&mut lit);
    let mut sets = UnfoundedSets::new(&translation, formula.var_count());
    assert_eq!(sets.check(&Trail(vec![!x, !y])), Verdict::Unfounded);
    let reasons: Vec<&[Lit]> = sets.unfounded_sets().map(|(_, reason)| reason).collect();
    assert_eq!(reasons, vec![&[!x][..]]);
}

/// `a` and `b` rest on the sum, which `b` raises by 1, `x` by 2 and
/// `y` by 3, and `z` lowers by 2: founded while `x` or `y` may still
/// reach the bound, unfounded once both are false (their falsity the
/// reason) or once `y` is false and `z`'s truth takes `x`'s 2 away
/// (`y`'s falsity and `z`'s truth the reason; `x`, counted, is not).
/// (`not w`, unknown throughout, keeps `a` apart from `s`: an atom whose
/// only rule is `a :- s.` shares `s`'s variable, as `b` shares `a`'s.)
#[test]
fn a_recursive_aggregate_supports_its_atom_by_its_founded_elements() {
    let text = "{w; x; y; z}. s = #sum{1: b; 2: x; 3: y; -2: z} >= 2. a :- s, not w. b :- a.";
    let mut program = parse(text);
    let (formula, translation) = completion(&program).expect("a monotone aggregate");
    let mut lit = |name| translation.atom_lit(atom_named(&mut program, name));
    let [a, b, x, y, z] = ["a", "b", "x", "y", "z"].map(&mut lit);
    let check = |trail: Vec<Lit>| {
        let mut sets = UnfoundedSets::new(&translation, formula.var_count());
        let verdict = sets.check(&Trail(trail));
        let mut atoms: Vec<Lit> = Vec::new();
        let mut reason: Vec<Lit> = Vec::new();
        for (set, why) in sets.unfounded_sets() {
            atoms.extend(set.iter().filter(|l| [a, b].contains(l)));
            reason.extend_from_slice(why);
        }
        atoms.sort_by_key(|l| l.code());
        reason.sort_by_key(|l| l.code());
        (verdict, atoms, reason)
    };
    assert_eq!(check(vec![!x]).0, Verdict::Founded);
    assert_eq!(check(vec![!y]).0, Verdict::Founded);
    let mut ab = vec![a, b];
    ab.sort_by_key(|l| l.code());
    let mut both_false = vec![!x, !y];
    both_false.sort_by_key(|l| l.code());
    assert_eq!(
        check(vec![!x, !y]),
        (Verdict::Unfounded, ab.clone(), both_false)
    );
    assert_eq!(check(vec![x, !y]).0, Verdict::Founded);
    let mut y_false_z_true = vec![!y, z];
    y_false_z_true.sort_by_key(|l| l.code());
    assert_eq!(
        check(vec![x, !y, z]),
        (Verdict::Unfounded, ab, y_false_z_true)
    );
    assert_eq!(check(vec![x, !y, z, b]).0, Verdict::Conflict(b));
}
