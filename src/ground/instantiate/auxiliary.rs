//! The auxiliary atoms grounding makes up, one table each: `#agg(k)` for
//! a ground aggregate, `#disjunct(k)` for conditional disjuncts of one
//! atom, `#not(k)` for `not not a`, `#impl(k)` for a recursive condition.
//!
//! Invariant: equal things share one atom (the tables are keyed by what
//! the atom stands for), and each atom is defined where it is made.

use super::relations::AtomTable;
use crate::diagnostics::Span;
use crate::ground::predicates::PredId;
use crate::ground::program::{AggregateDefinition, AggregateValue, AtomId, Body, Elements, Head};
use crate::symbols::{NameId, SymbolTable};
use crate::syntax::ast::CmpOp;
use rustc_hash::FxHashMap;
use std::sync::Arc;

/// The atoms standing for ground aggregates; equal aggregates share one.
pub struct AggregateAtoms {
    pub(super) pred: PredId,
    pub(super) name: NameId,
    pub definitions: Vec<AggregateDefinition>,
    index: FxHashMap<NumberedKey, u32>,
    /// Each distinct element list once, numbered: the definitions over
    /// equal lists share one. The list last looked up is kept, as the
    /// aggregates of an assignment's values come one after the other over
    /// one list, which is then hashed once, not once per value.
    lists: FxHashMap<Elements, u32>,
    last_list: Option<(Elements, u32)>,
}

/// The atoms `#disjunct(k)` that stand for conditional disjuncts `a : c1 |
/// .. | a : cn` of one atom whose conditions are not certain, one per
/// distinct `(a, [c1, .., cn])`.
pub struct DisjunctAtoms {
    pub(super) pred: PredId,
    pub(super) name: NameId,
    pub(super) index: FxHashMap<(u32, Vec<Body>), u32>,
}

impl DisjunctAtoms {
    /// The atom for `atom` under any of `conditions` (sorted), and whether
    /// it is new.
    pub(super) fn atom(
        &mut self,
        symbols: &mut SymbolTable,
        atoms: &mut AtomTable,
        atom: u32,
        conditions: &[Body],
    ) -> (u32, bool) {
        let key = (atom, conditions.to_vec());
        if let Some(&d) = self.index.get(&key) {
            return (d, false);
        }
        let d = atoms.auxiliary(symbols, self.name, self.pred, self.index.len());
        self.index.insert(key, d);
        (d, true)
    }
}

/// The atoms `#not(k)` that stand for `not a` in a double negation `not
/// not a` (as `not #not(k)`), one per atom `a`, each defined by `#not(k) :-
/// not a.` when the grounding is finished.
pub struct NegationAtoms {
    pub(super) pred: PredId,
    pub(super) name: NameId,
    /// `(a, #not(k))`, in order of `k`.
    pub(super) complements: Vec<(u32, u32)>,
    pub(super) index: FxHashMap<u32, u32>,
}

impl NegationAtoms {
    /// The atom standing for `not atom`.
    pub(super) fn atom(
        &mut self,
        symbols: &mut SymbolTable,
        atoms: &mut AtomTable,
        atom: u32,
    ) -> u32 {
        if let Some(&complement) = self.index.get(&atom) {
            return complement;
        }
        let complement = atoms.auxiliary(symbols, self.name, self.pred, self.complements.len());
        self.index.insert(atom, complement);
        self.complements.push((atom, complement));
        complement
    }
}

/// The atoms `#impl(k)` that stand for the instances `c → l` of conditional
/// literals whose condition is recursive (`a :- l : c.` with `c` depending
/// on `a`), one per distinct implication. `x ↔ (c → l)` is defined by the
/// rules of the rewriting of nested implications (Cabalar, Pearce and
/// Valverde, "Reducing propositional theories in equilibrium logic to
/// logic programs", EPIA 2005), strongly equivalent in the logic of
/// here-and-there to `(c → l) → x`: `x :- l.`, `x :- not
/// c_j.` and `x | c_j :- not not l.` for every literal `c_j` of `c` (for a
/// negated `c_j = not d`, `x :- not not d.` and `x :- not not l, not not
/// d.`). `l` with several alternative bodies is first an atom `g :- l_a.`
/// of its own.
pub struct ImplicationAtoms {
    pub(super) pred: PredId,
    pub(super) name: NameId,
    /// The rules defining the atoms, added when the grounding is finished.
    pub(super) rules: Vec<(Head, Body, Span)>,
    pub(super) index: FxHashMap<(Vec<Body>, Body), u32>,
    /// Atoms numbered so far (the `g` of some implications too).
    pub(super) numbered: usize,
}

impl ImplicationAtoms {
    /// The atom standing for `condition → (l_1 ∨ .. ∨ l_n)`, the `l_a`
    /// being the bodies `literal` (none: `l` never holds).
    pub(super) fn atom(
        &mut self,
        symbols: &mut SymbolTable,
        atoms: &mut AtomTable,
        negations: &mut NegationAtoms,
        key: (Vec<Body>, Body),
        origin: Span,
    ) -> u32 {
        if let Some(&atom) = self.index.get(&key) {
            return atom;
        }
        let numbered = &mut self.numbered;
        let mut fresh = |atoms: &mut AtomTable, symbols: &mut SymbolTable| {
            *numbered += 1;
            atoms.auxiliary(symbols, self.name, self.pred, *numbered - 1)
        };
        let x = AtomId(fresh(atoms, symbols));
        let (literal, condition) = &key;
        let mut define = |head: Head, body: Body| self.rules.push((head, body, origin));
        let literal = match &literal[..] {
            [] => None,
            [single] => Some(single.clone()),
            alternatives => {
                let g = AtomId(fresh(atoms, symbols));
                for alternative in alternatives {
                    define(Head::Atom(g), alternative.clone());
                }
                Some(Body::new(vec![g], Vec::new()))
            }
        };
        // `not not b` for a body `b`: `not #not(p)` for its atoms `p`, and
        // its `not n` as they are.
        let mut not_not = |body: &Body| {
            let mut neg: Vec<AtomId> = (body.pos().iter())
                .map(|p| AtomId(negations.atom(symbols, atoms, p.0)))
                .collect();
            neg.extend(body.neg().iter().copied());
            neg
        };
        let not_not_literal = literal.as_ref().map(&mut not_not);
        let not_not_condition: Vec<AtomId> = (condition.neg().iter())
            .map(|&d| AtomId(negations.atom(symbols, atoms, d.0)))
            .collect();
        if let Some(literal) = &literal {
            define(Head::Atom(x), literal.clone());
        }
        for &c in condition.pos().iter() {
            define(Head::Atom(x), Body::new(Vec::new(), vec![c]));
            if let Some(neg) = &not_not_literal {
                let head = if x < c { vec![x, c] } else { vec![c, x] };
                define(Head::Disjunction(head), Body::new(Vec::new(), neg.clone()));
            }
        }
        for &not_d in &not_not_condition {
            define(Head::Atom(x), Body::new(Vec::new(), vec![not_d]));
            if let Some(neg) = &not_not_literal {
                let mut neg = neg.clone();
                neg.push(not_d);
                define(Head::Atom(x), Body::new(Vec::new(), neg));
            }
        }
        self.index.insert(key, x.0);
        x.0
    }
}

/// The most constraints `:- d, not l1, .., not ln.` (one literal of each
/// condition) a disjunct of one atom under several conditions may take;
/// beyond it, each condition gets its own disjunct.
pub(super) const MAX_DISJUNCT_CONSTRAINTS: usize = 64;

/// A ground aggregate with its element list's number in
/// [`AggregateAtoms`]'s lists: the key of its atom.
type NumberedKey = (AggregateValue, u32, Vec<(CmpOp, i64)>);

/// A ground aggregate as its atom's definition holds it.
pub(super) type AggregateKey = (AggregateValue, Elements, Vec<(CmpOp, i64)>);

impl AggregateAtoms {
    pub(super) fn new(pred: PredId, name: NameId) -> AggregateAtoms {
        AggregateAtoms {
            pred,
            name,
            definitions: Vec::new(),
            index: FxHashMap::default(),
            lists: FxHashMap::default(),
            last_list: None,
        }
    }

    /// The atom for an aggregate: `#agg(k)`, of the predicate `pred`.
    pub(super) fn atom(
        &mut self,
        symbols: &mut SymbolTable,
        atoms: &mut AtomTable,
        key: AggregateKey,
        origin: Span,
    ) -> u32 {
        let (value, elements, guards) = key;
        let (elements, list) = self.list(elements);
        let key = (value, list, guards);
        if let Some(&atom) = self.index.get(&key) {
            return atom;
        }
        let atom = atoms.auxiliary(symbols, self.name, self.pred, self.definitions.len());
        self.definitions.push(AggregateDefinition {
            atom: AtomId(atom),
            value,
            elements,
            guards: key.2.clone(),
            origin,
        });
        self.index.insert(key, atom);
        atom
    }

    /// The shared copy of `elements`, and its number.
    fn list(&mut self, elements: Elements) -> (Elements, u32) {
        if let Some((last, number)) = &self.last_list
            && Arc::ptr_eq(last, &elements)
        {
            return (last.clone(), *number);
        }
        let found = match self.lists.get_key_value(&elements) {
            Some((shared, &number)) => (shared.clone(), number),
            None => {
                let number = self.lists.len() as u32;
                self.lists.insert(elements.clone(), number);
                (elements, number)
            }
        };
        self.last_list = Some(found.clone());
        found
    }
}
