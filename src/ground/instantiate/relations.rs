//! Relations: the atoms of each predicate derived so far, in order, with
//! the hash indexes join steps look them up by; and the table of every
//! ground atom.
//!
//! Invariant: a relation's members are split into stable, recent and
//! pending ranges (semi-naive evaluation); an index holds every member,
//! by its values at the bound positions of its mask.

use super::Instantiator;
use crate::ground::compiled::CAtom;
use crate::ground::predicates::PredId;
use crate::symbols::{NameId, SymId, SymbolTable};
use rustc_hash::FxHashMap;

/// The atoms of one predicate that grounding has derived so far, in order.
#[derive(Default)]
pub(super) struct Relation {
    pub(super) members: Vec<u32>,
    /// `members[..stable_end]` were seen by every rule of the component;
    /// `members[stable_end..recent_end]` are new in the current round;
    /// later members become visible in the next round.
    pub(super) stable_end: usize,
    pub(super) recent_end: usize,
    pub(super) complete: bool,
    /// The indexes join plans asked for; a plan refers to one by its
    /// position here, so a join step looks up nothing but its key.
    pub(super) indexes: Vec<Index>,
}

/// Member positions of a relation by their values at the bound argument
/// positions `mask`.
pub(super) struct Index {
    pub(super) mask: u64,
    pub(super) positions: FxHashMap<Box<[SymId]>, Vec<u32>>,
}

/// Every ground atom mentioned so far, derived or not.
#[derive(Clone, Default)]
pub struct AtomTable {
    pub syms: Vec<SymId>,
    pub preds: Vec<PredId>,
    /// Some rule instance has the atom in its head.
    pub defined: Vec<bool>,
    /// Certainly true.
    pub fact: Vec<bool>,
    /// An input of the program (`#external`), defined by no rule of its own.
    pub input: Vec<bool>,
    pub(super) by_sym: FxHashMap<SymId, u32>,
}

impl AtomTable {
    pub(super) fn get_or_insert(&mut self, sym: SymId, pred: PredId) -> u32 {
        if let Some(&a) = self.by_sym.get(&sym) {
            return a;
        }
        let a = self.syms.len() as u32;
        self.syms.push(sym);
        self.preds.push(pred);
        self.defined.push(false);
        self.fact.push(false);
        self.input.push(false);
        self.by_sym.insert(sym, a);
        a
    }

    /// The auxiliary atom `name(k)` of `pred`, defined (it gets its rules or
    /// definition from the table that numbers it).
    pub(super) fn auxiliary(
        &mut self,
        symbols: &mut SymbolTable,
        name: NameId,
        pred: PredId,
        k: usize,
    ) -> u32 {
        let number = symbols.number(k as i32);
        let sym = symbols.function_of(name, &[number], false);
        let atom = self.get_or_insert(sym, pred);
        self.defined[atom as usize] = true;
        atom
    }

    pub(super) fn reserve(&mut self, additional: usize) {
        self.syms.reserve(additional);
        self.preds.reserve(additional);
        self.defined.reserve(additional);
        self.fact.reserve(additional);
        self.by_sym.reserve(additional);
    }

    pub fn find(&self, sym: SymId) -> Option<u32> {
        self.by_sym.get(&sym).copied()
    }

    pub fn len(&self) -> usize {
        self.syms.len()
    }
}

impl Instantiator<'_> {
    pub(super) fn add_members(&mut self, new_members: Vec<(PredId, u32)>) {
        let mut key = Vec::new();
        for (pred, atom) in new_members {
            let rel = &mut self.relations[pred.index()];
            let position = rel.members.len() as u32;
            rel.members.push(atom);
            let args = self.symbols.args(self.atoms.syms[atom as usize]);
            for index in &mut rel.indexes {
                add_to_index(&mut index.positions, args, index.mask, position, &mut key);
            }
        }
    }

    /// The position of the relation's index on `mask`, built if it is new;
    /// `None` for the empty mask, which needs none.
    pub(super) fn ensure_index(&mut self, pred: PredId, mask: u64) -> Option<usize> {
        let rel = &mut self.relations[pred.index()];
        if mask == 0 {
            return None;
        }
        if let Some(found) = rel.indexes.iter().position(|index| index.mask == mask) {
            return Some(found);
        }
        let mut positions: FxHashMap<Box<[SymId]>, Vec<u32>> = FxHashMap::default();
        let mut key = Vec::new();
        for (position, &a) in rel.members.iter().enumerate() {
            let args = self.symbols.args(self.atoms.syms[a as usize]);
            add_to_index(&mut positions, args, mask, position as u32, &mut key);
        }
        rel.indexes.push(Index { mask, positions });
        Some(rel.indexes.len() - 1)
    }

    /// The average number of atoms a lookup with these bound positions
    /// yields, from the index's number of distinct keys. A fully bound
    /// lookup is a check, preferred before any join.
    pub(super) fn expected_matches(&mut self, pred: PredId, mask: u64, arity: usize) -> usize {
        if arity > 0 && mask == u64::MAX >> (64 - arity.min(64)) {
            return 0;
        }
        let index = self.ensure_index(pred, mask);
        let rel = &self.relations[pred.index()];
        match index {
            Some(index) => (rel.members.len()).div_ceil(rel.indexes[index].positions.len().max(1)),
            None => rel.members.len(),
        }
    }
}

pub(super) fn bound_mask(atom: &CAtom, bound: &[bool]) -> u64 {
    let mut mask = 0u64;
    for (i, arg) in atom.args.iter().enumerate().take(64) {
        if arg.is_bound(bound) {
            mask |= 1 << i;
        }
    }
    mask
}

/// Files the member at `position`, of arguments `args`, under its values
/// at the positions of `mask`; `key` is scratch space, so that only a new
/// key is allocated.
pub(super) fn add_to_index(
    index: &mut FxHashMap<Box<[SymId]>, Vec<u32>>,
    args: &[SymId],
    mask: u64,
    position: u32,
    key: &mut Vec<SymId>,
) {
    key.clear();
    let bound = args.iter().enumerate().take(64);
    key.extend(
        bound
            .filter(|&(i, _)| mask & (1 << i) != 0)
            .map(|(_, &s)| s),
    );
    match index.get_mut(&key[..]) {
        Some(positions) => positions.push(position),
        None => _ = index.insert(key.as_slice().into(), vec![position]),
    }
}
