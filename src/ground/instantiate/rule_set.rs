//! The ground rules, deduplicated: a rule's origin is that of its first
//! instance.

use crate::diagnostics::Span;
use crate::ground::program::{AtomId, Body, Head, Rule};
use crate::symbols::hash_step;
use hashbrown::HashTable;
use rustc_hash::FxBuildHasher;
use std::hash::BuildHasher;

/// `hash` continued by the atoms of a body `pos, not neg`, each list ended
/// by a separator that no atom id takes.
pub(in crate::ground) fn hash_body(hash: u64, pos: &[AtomId], neg: &[AtomId]) -> u64 {
    let end = u32::MAX;
    hash_step(hash_atoms(hash_step(hash_atoms(hash, pos), end), neg), end)
}

pub(super) fn hash_atoms(hash: u64, atoms: &[AtomId]) -> u64 {
    atoms.iter().fold(hash, |h, a| hash_step(h, a.0))
}

/// Distinct ground rules in order of first derivation; a rule's origin is
/// that of its first instance. The table holds indices into `rules`, so
/// every rule is stored once; each rule's hash is kept beside it, so that
/// growing the table does not hash every rule again.
#[derive(Clone, Default)]
pub struct RuleSet {
    pub rules: Vec<Rule>,
    pub(super) hashes: Vec<u64>,
    pub(super) table: HashTable<u32>,
}

impl RuleSet {
    /// The hash of a rule: its head's and then its body's atoms, each
    /// list ended by a separator that no atom id takes, folded by
    /// [`hash_step`].
    pub(super) fn hash(head: &Head, pos: &[AtomId], neg: &[AtomId]) -> u64 {
        let end = u32::MAX;
        let h = match head {
            Head::Constraint => hash_step(0, end - 1),
            Head::Atom(a) => hash_step(hash_step(0, end - 2), a.0),
            Head::Disjunction(heads) => hash_step(hash_atoms(hash_step(0, end - 3), heads), end),
            Head::Choice(_) => FxBuildHasher.hash_one(head),
        };
        hash_body(h, pos, neg)
    }

    /// A copy with room for `additional` more rules: adding them does not
    /// copy every rule once more (a step of incremental mode adds a few to
    /// a copy of everything ground).
    pub fn clone_with_room(&self, additional: usize) -> RuleSet {
        let mut rules = Vec::with_capacity(self.rules.len() + additional);
        rules.extend_from_slice(&self.rules);
        let mut hashes = Vec::with_capacity(self.hashes.len() + additional);
        hashes.extend_from_slice(&self.hashes);
        let mut table = self.table.clone();
        table.reserve(additional, |&i| hashes[i as usize]);
        RuleSet {
            rules,
            hashes,
            table,
        }
    }

    /// The rules, the table that deduplicated them freed.
    pub fn into_rules(self) -> Vec<Rule> {
        self.rules
    }

    /// Adds `:- pos.` (sorted and distinct) unless it is there already.
    pub fn insert_constraint(&mut self, pos: &[AtomId]) {
        self.insert(Head::Constraint, pos, &[], Span::default());
    }

    /// Adds `:- pos, not neg` (both sorted and distinct) without looking
    /// for it: an instance that no other instance of the constraints
    /// ground last repeats (`unrepeated_instances`). Only a rule ground
    /// elsewhere, or a head that instantiation empties, could repeat it:
    /// one clause more, where the lookup of each instance took longer
    /// than the rest of grounding.
    pub(super) fn push_distinct_constraint(
        &mut self,
        pos: &[AtomId],
        neg: &[AtomId],
        origin: Span,
    ) {
        let hash = Self::hash(&Head::Constraint, pos, neg);
        self.push(hash, Head::Constraint, pos, neg, origin);
    }

    /// Adds `head :- pos, not neg` (both sorted and distinct) unless it is
    /// there already; the body is only allocated for a new rule.
    pub(super) fn insert(&mut self, head: Head, pos: &[AtomId], neg: &[AtomId], origin: Span) {
        let hash = Self::hash(&head, pos, neg);
        let rules = &self.rules;
        let same = |&i: &u32| {
            let other = &rules[i as usize];
            other.head == head && other.body.pos() == pos && other.body.neg() == neg
        };
        if self.table.find(hash, same).is_none() {
            let hashes = &self.hashes;
            self.table
                .insert_unique(hash, self.rules.len() as u32, |&i| hashes[i as usize]);
            self.push(hash, head, pos, neg, origin);
        }
    }

    /// Appends a rule and its hash; the body is allocated here.
    fn push(&mut self, hash: u64, head: Head, pos: &[AtomId], neg: &[AtomId], origin: Span) {
        self.hashes.push(hash);
        let body = Body::from_sorted(pos, neg);
        self.rules.push(Rule { head, body, origin });
    }
}
