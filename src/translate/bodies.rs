//! The distinct bodies of a translation, stored flat: one pool of atoms,
//! each body its positive then its negative atoms (both sorted, distinct).
//! Interning hashes the slices, so a body costs no allocation of its own.

use super::{BodyId, Cond};
use crate::ground::program::AtomId;
use rustc_hash::{FxHashMap, FxHasher};
use std::hash::Hasher;

const END: u32 = u32::MAX;

#[derive(Clone, Debug, Default)]
pub(crate) struct Bodies {
    pool: Vec<AtomId>,
    /// Body `i` is `pool[starts[i]..starts[i + 1]]`, negative part from
    /// `mids[i]`.
    starts: Vec<usize>,
    mids: Vec<usize>,
    conds: Vec<Cond>,
    /// Hash → first body with that hash; `next` chains bodies that share a
    /// hash. Dropped by [`Bodies::freeze`].
    first: FxHashMap<u64, u32>,
    next: Vec<u32>,
}

impl Bodies {
    pub(crate) fn with_capacity(bodies: usize) -> Bodies {
        let mut table = Bodies {
            starts: Vec::with_capacity(bodies + 1),
            mids: Vec::with_capacity(bodies),
            conds: Vec::with_capacity(bodies),
            next: Vec::with_capacity(bodies),
            ..Bodies::default()
        };
        table.first.reserve(bodies);
        table.starts.push(0);
        table
    }

    pub(crate) fn len(&self) -> usize {
        self.conds.len()
    }

    pub(crate) fn pos(&self, body: BodyId) -> &[AtomId] {
        let i = body.index();
        &self.pool[self.starts[i]..self.mids[i]]
    }

    pub(crate) fn neg(&self, body: BodyId) -> &[AtomId] {
        let i = body.index();
        &self.pool[self.mids[i]..self.starts[i + 1]]
    }

    pub(crate) fn cond(&self, body: BodyId) -> Cond {
        self.conds[body.index()]
    }

    /// The id of the body `pos`, `not neg` (each sorted and distinct). A new
    /// body gets the condition `define` returns.
    pub(crate) fn intern(
        &mut self,
        pos: &[AtomId],
        neg: &[AtomId],
        define: impl FnOnce() -> Cond,
    ) -> BodyId {
        let mut hasher = FxHasher::default();
        hasher.write_usize(pos.len());
        for atom in pos.iter().chain(neg) {
            hasher.write_u32(atom.0);
        }
        let hash = hasher.finish();
        let mut candidate = self.first.get(&hash).copied().unwrap_or(END);
        while candidate != END {
            let id = BodyId(candidate);
            if self.pos(id) == pos && self.neg(id) == neg {
                return id;
            }
            candidate = self.next[candidate as usize];
        }
        let id = self.conds.len() as u32;
        let previous = self.first.insert(hash, id).unwrap_or(END);
        self.next.push(previous);
        self.pool.extend_from_slice(pos);
        self.mids.push(self.pool.len());
        self.pool.extend_from_slice(neg);
        self.starts.push(self.pool.len());
        self.conds.push(define());
        BodyId(id)
    }

    /// Drops the interning index once no more bodies will be added.
    pub(crate) fn freeze(&mut self) {
        self.first = FxHashMap::default();
        self.next = Vec::new();
        self.pool.shrink_to_fit();
    }
}
