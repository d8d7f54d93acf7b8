//! The distinct bodies of a translation, stored flat: one pool of atoms,
//! each body its positive then its negative atoms (both sorted, distinct).
//! Interning hashes the slices, so a body costs no allocation of its own.

use super::gates::Gates;
use super::{BodyId, ClauseSink, ClauseWriter, Cond};
use crate::ground::program::{AtomId, Body};
use hashbrown::HashTable;
use rustc_hash::FxHasher;
use std::hash::Hasher;
use varisat_formula::{ExtendFormula, Lit, Var};

#[derive(Clone, Debug, Default)]
pub(crate) struct Bodies {
    pool: Vec<AtomId>,
    /// Body `i` is `pool[starts[i]..starts[i + 1]]`, negative part from
    /// `mids[i]`.
    starts: Vec<u32>,
    mids: Vec<u32>,
    conds: Vec<Cond>,
    /// The bodies by the hash of their atoms, which is computed again from
    /// the pool rather than stored: five bytes a body where a map of
    /// hashes took twenty (sudoku25x25's 560,000 bodies: 5 MB against
    /// 20 MB). Dropped by [`Bodies::freeze`].
    index: HashTable<u32>,
}

impl Bodies {
    pub(crate) fn with_capacity(bodies: usize) -> Bodies {
        let mut table = Bodies {
            starts: Vec::with_capacity(bodies + 1),
            mids: Vec::with_capacity(bodies),
            conds: Vec::with_capacity(bodies),
            index: HashTable::with_capacity(bodies),
            ..Bodies::default()
        };
        table.starts.push(0);
        table
    }

    pub(crate) fn len(&self) -> usize {
        self.conds.len()
    }

    pub(crate) fn pos(&self, body: BodyId) -> &[AtomId] {
        let i = body.index();
        &self.pool[self.starts[i] as usize..self.mids[i] as usize]
    }

    pub(crate) fn neg(&self, body: BodyId) -> &[AtomId] {
        let i = body.index();
        &self.pool[self.mids[i] as usize..self.starts[i + 1] as usize]
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
        let found = self.index.find(hash_body(pos, neg), |&candidate| {
            let id = BodyId(candidate);
            self.pos(id) == pos && self.neg(id) == neg
        });
        if let Some(&id) = found {
            return BodyId(id);
        }
        let id = self.conds.len() as u32;
        self.pool.extend_from_slice(pos);
        self.mids.push(pool_index(self.pool.len()));
        self.pool.extend_from_slice(neg);
        self.starts.push(pool_index(self.pool.len()));
        self.conds.push(define());
        let Bodies { index, .. } = self;
        let rehash = |&id: &u32| {
            let i = id as usize;
            let (start, mid, end) = (self.starts[i], self.mids[i], self.starts[i + 1]);
            hash_body(
                &self.pool[start as usize..mid as usize],
                &self.pool[mid as usize..end as usize],
            )
        };
        index.insert_unique(hash_body(pos, neg), id, rehash);
        BodyId(id)
    }

    /// Drops the interning index once no more bodies will be added.
    pub(crate) fn freeze(&mut self) {
        self.index = HashTable::new();
        self.pool.shrink_to_fit();
    }
}

fn hash_body(pos: &[AtomId], neg: &[AtomId]) -> u64 {
    let mut hasher = FxHasher::default();
    hasher.write_usize(pos.len());
    for atom in pos.iter().chain(neg) {
        hasher.write_u32(atom.0);
    }
    hasher.finish()
}

/// A position in the pool of atoms, which holds fewer than 2³² of them
/// (each is an atom of a ground rule's body).
fn pool_index(len: usize) -> u32 {
    u32::try_from(len).expect("fewer than 2^32 body atoms")
}

/// Interns bodies and defines their Tseitin variables, over the atoms'
/// variables.
pub(crate) struct BodyBuilder {
    atom_vars: Vec<Var>,
    pub(crate) bodies: Bodies,
    /// How many Tseitin variables of bodies it defined.
    pub(crate) body_variables: usize,
    /// Scratch space for conjunctions.
    pos: Vec<AtomId>,
    neg: Vec<AtomId>,
}

impl BodyBuilder {
    pub(crate) fn new(atom_vars: Vec<Var>, bodies: Bodies) -> BodyBuilder {
        BodyBuilder {
            atom_vars,
            bodies,
            body_variables: 0,
            pos: Vec::new(),
            neg: Vec::new(),
        }
    }

    /// Each atom's variable.
    pub(crate) fn atom_vars(&self) -> &[Var] {
        &self.atom_vars
    }

    /// The atoms' variables and the bodies.
    pub(crate) fn finish(self) -> (Vec<Var>, Bodies) {
        (self.atom_vars, self.bodies)
    }

    /// The disjunction of interned bodies (a Tseitin variable when it has
    /// two or more literals).
    pub(crate) fn any_body<S: ExtendFormula>(&mut self, bodies: &[BodyId], sink: &mut S) -> Cond {
        let conds: Vec<Cond> = bodies.iter().map(|&b| self.bodies.cond(b)).collect();
        Gates { sink }.or(&conds)
    }

    pub(crate) fn intern_body<S: ClauseSink>(
        &mut self,
        body: &Body,
        writer: &mut ClauseWriter<S>,
    ) -> BodyId {
        let (atom_vars, count) = (&self.atom_vars, &mut self.body_variables);
        self.bodies.intern(body.pos(), body.neg(), || {
            define(atom_vars, body.pos(), body.neg(), writer, count)
        })
    }

    /// The conjunction of `body` and the literals `pos`, `not neg`.
    pub(crate) fn intern_and<S: ClauseSink>(
        &mut self,
        body: &Body,
        pos: &[AtomId],
        neg: &[AtomId],
        writer: &mut ClauseWriter<S>,
    ) -> BodyId {
        let merge = |out: &mut Vec<AtomId>, a: &[AtomId], b: &[AtomId]| {
            out.clear();
            out.extend_from_slice(a);
            out.extend_from_slice(b);
            out.sort_unstable();
            out.dedup();
        };
        merge(&mut self.pos, body.pos(), pos);
        merge(&mut self.neg, body.neg(), neg);
        let (atom_vars, count) = (&self.atom_vars, &mut self.body_variables);
        let (pos, neg) = (&self.pos, &self.neg);
        self.bodies
            .intern(pos, neg, || define(atom_vars, pos, neg, writer, count))
    }
}

/// The condition of a new body: a constant, a literal, or a new Tseitin
/// variable `β ↔ l1 ∧ … ∧ lm`.
///
/// A body with a negative literal is tried true first, as clasp's sign
/// heuristic tries bodies: it agrees with the atoms' own first value,
/// false. On the ASP-competition Labyrinth, over 48 orders of its facts,
/// batsat's geometric mean went from 2.05 to 0.97 s (clingo 1.46 s);
/// positive bodies tried true first slowed the knight's tours 2.6×
/// (fixtures/bench/ANALYSIS.md, "Bodies tried true first").
fn define<S: ClauseSink>(
    atom_vars: &[Var],
    pos: &[AtomId],
    neg: &[AtomId],
    writer: &mut ClauseWriter<S>,
    body_variables: &mut usize,
) -> Cond {
    if pos.is_empty() && neg.is_empty() {
        return Cond::True;
    }
    if sorted_intersect(pos, neg) {
        return Cond::False;
    }
    let lits: Vec<Lit> = pos
        .iter()
        .map(|&a| atom_vars[a.index()].positive())
        .chain(neg.iter().map(|&a| atom_vars[a.index()].negative()))
        .collect();
    if let [lit] = lits[..] {
        return Cond::Lit(lit);
    }
    let beta = if neg.is_empty() {
        writer.new_var()
    } else {
        writer.new_var_deciding(true)
    }
    .positive();
    *body_variables += 1;
    for &lit in &lits {
        writer.add_clause(&[!beta, lit]);
    }
    let mut long: Vec<Lit> = lits.iter().map(|&l| !l).collect();
    long.push(beta);
    writer.add_clause(&long);
    Cond::Lit(beta)
}

fn sorted_intersect(a: &[AtomId], b: &[AtomId]) -> bool {
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        match a[i].cmp(&b[j]) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => return true,
        }
    }
    false
}
