//! Ground terms, interned to dense `u32` ids, with clingo's total order and
//! clingo's printed form.
//!
//! A ground atom is represented by the symbol of its term: `p(1,2)` is the
//! function symbol `p` applied to `1` and `2`, and `-p(1)` carries the
//! strong-negation sign. Tuples are functions with the empty name.

use hashbrown::HashTable;
use rustc_hash::{FxBuildHasher, FxHashMap};
use std::cmp::Ordering;
use std::fmt;
use std::hash::BuildHasher;

/// A ground term, interned in a [`SymbolTable`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SymId(pub u32);

/// A function name or string, interned in a [`SymbolTable`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct NameId(u32);

/// A view of one ground term, borrowed from its [`SymbolTable`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SymbolData<'a> {
    Infimum,
    Number(i32),
    /// Constants are functions with no arguments; tuples have an empty name.
    Function {
        name: &'a str,
        args: &'a [SymId],
        /// Strong negation: `-p(1)`, `-a`.
        negative: bool,
    },
    String(&'a str),
    Supremum,
}

/// How a term is stored: 16 bytes, with a function's arguments in one
/// shared arena, so that the hundreds of thousands of atoms of a
/// grounding-heavy program cost no allocation each.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Entry {
    Infimum,
    Number(i32),
    Function {
        name: NameId,
        args_start: u32,
        arity: u32,
        negative: bool,
    },
    String(NameId),
    Supremum,
}

/// Owns every ground term; equal terms always get the same [`SymId`].
///
/// Each term is stored once, in `entries`; the hash table holds only ids,
/// its hash kept beside it (`hashes`), so a function can be looked up
/// from a borrowed argument slice, storing only when the term is new.
#[derive(Clone, Debug, Default)]
pub struct SymbolTable {
    entries: Vec<Entry>,
    args: Vec<SymId>,
    table: HashTable<SymId>,
    /// By term: its hash folded to 32 bits ([`fold`]), which growing the
    /// table reads instead of hashing every term again.
    hashes: Vec<u32>,
    names: Vec<Box<str>>,
    name_ids: FxHashMap<Box<str>, NameId>,
    /// Ids of the numbers `-SMALL_NUMBER_OFFSET..SMALL_NUMBERS - SMALL_NUMBER_OFFSET`.
    small_numbers: Vec<Option<SymId>>,
}

const SMALL_NUMBERS: usize = 4096;
const SMALL_NUMBER_OFFSET: i32 = 1024;

/// One step of the hash folded over ids, here and in the grounder's tables:
/// Fx's multiplication, then a rotation that brings the best-mixed bits of
/// the product down to the bits a hash table takes its bucket from. A fold
/// by hand, as hashing is much of the cost of looking up a term or a rule.
pub fn hash_step(hash: u64, id: u32) -> u64 {
    (hash ^ u64::from(id))
        .wrapping_mul(0xf135_7aea_2e62_a9c5)
        .rotate_left(26)
}

/// A term's 64-bit hash folded to the 32 bits the table keeps.
fn fold(hash: u64) -> u32 {
    (hash ^ (hash >> 32)) as u32
}

/// A folded hash spread over 64 bits again, for the table: its bucket from
/// the low bits and its tag from the top ones, both well mixed.
fn spread(folded: u32) -> u64 {
    hash_step(0, folded)
}

/// The hash the table places a term of hash `hash` by.
fn table_hash(hash: u64) -> u64 {
    spread(fold(hash))
}

fn hash_function(name: NameId, args: &[SymId], negative: bool) -> u64 {
    let start = hash_step(u64::from(negative), name.0);
    args.iter().fold(start, |hash, arg| hash_step(hash, arg.0))
}

/// The arguments of a stored function, in the argument arena.
fn arguments(arena: &[SymId], start: u32, arity: u32) -> &[SymId] {
    &arena[start as usize..(start + arity) as usize]
}

/// The hash of a stored term: a function's as [`hash_function`] computes it
/// from a borrowed argument slice, any other term's from its value.
fn hash_entry(entry: Entry, arena: &[SymId]) -> u64 {
    match entry {
        Entry::Function {
            name,
            args_start,
            arity,
            negative,
        } => hash_function(name, arguments(arena, args_start, arity), negative),
        other => FxBuildHasher.hash_one(other),
    }
}

impl SymbolTable {
    /// Makes room for `additional` more terms in the hash table, which is
    /// costly to grow: each growth moves every term.
    pub fn reserve(&mut self, additional: usize) {
        let hashes = &self.hashes;
        (self.table).reserve(additional, |id| spread(hashes[id.0 as usize]));
    }

    fn args_of_entry(&self, start: u32, arity: u32) -> &[SymId] {
        arguments(&self.args, start, arity)
    }

    /// Interns a term given as a view (possibly of another table).
    pub fn intern(&mut self, data: SymbolData<'_>) -> SymId {
        match data {
            SymbolData::Infimum => self.intern_entry(Entry::Infimum),
            SymbolData::Supremum => self.intern_entry(Entry::Supremum),
            SymbolData::Number(n) => self.number(n),
            SymbolData::String(text) => self.string(text),
            SymbolData::Function {
                name,
                args,
                negative,
            } => self.function(name, args, negative),
        }
    }

    fn intern_entry(&mut self, entry: Entry) -> SymId {
        let hash = hash_entry(entry, &self.args);
        let entries = &self.entries;
        let found = (self.table).find(table_hash(hash), |id| entries[id.0 as usize] == entry);
        if let Some(&id) = found {
            return id;
        }
        self.insert_new(hash, entry)
    }

    fn insert_new(&mut self, hash: u64, entry: Entry) -> SymId {
        let id = SymId(self.entries.len() as u32);
        self.entries.push(entry);
        self.hashes.push(fold(hash));
        let hashes = &self.hashes;
        (self.table).insert_unique(table_hash(hash), id, |id| spread(hashes[id.0 as usize]));
        id
    }

    /// The id of a term interned before, without interning it.
    pub fn lookup(&self, data: SymbolData<'_>) -> Option<SymId> {
        let entry = match data {
            SymbolData::Infimum => Entry::Infimum,
            SymbolData::Supremum => Entry::Supremum,
            SymbolData::Number(n) => Entry::Number(n),
            SymbolData::String(text) => Entry::String(*self.name_ids.get(text)?),
            SymbolData::Function {
                name,
                args,
                negative,
            } => return self.lookup_function(*self.name_ids.get(name)?, args, negative),
        };
        let entries = &self.entries;
        (self.table)
            .find(table_hash(hash_entry(entry, &self.args)), |id| {
                entries[id.0 as usize] == entry
            })
            .copied()
    }

    fn lookup_function(&self, name: NameId, args: &[SymId], negative: bool) -> Option<SymId> {
        self.lookup_hashed(hash_function(name, args, negative), name, args, negative)
    }

    fn lookup_hashed(
        &self,
        hash: u64,
        name: NameId,
        args: &[SymId],
        negative: bool,
    ) -> Option<SymId> {
        (self.table)
            .find(table_hash(hash), |id| {
                matches!(self.entries[id.0 as usize], Entry::Function { name: n, args_start, arity, negative: s }
                    if n == name && s == negative && self.args_of_entry(args_start, arity) == args)
            })
            .copied()
    }

    /// Interns `name(args)`, storing it only when it is new.
    pub fn function_of(&mut self, name: NameId, args: &[SymId], negative: bool) -> SymId {
        let hash = hash_function(name, args, negative);
        if let Some(id) = self.lookup_hashed(hash, name, args, negative) {
            return id;
        }
        let args_start = self.args.len() as u32;
        self.args.extend_from_slice(args);
        let entry = Entry::Function {
            name,
            args_start,
            arity: args.len() as u32,
            negative,
        };
        self.insert_new(hash, entry)
    }

    /// The id of a name (or string text), interned once.
    pub fn name(&mut self, name: &str) -> NameId {
        if let Some(&id) = self.name_ids.get(name) {
            return id;
        }
        let id = NameId(self.names.len() as u32);
        self.names.push(name.into());
        self.name_ids.insert(name.into(), id);
        id
    }

    pub fn name_text(&self, name: NameId) -> &str {
        &self.names[name.0 as usize]
    }

    pub fn number(&mut self, value: i32) -> SymId {
        // Small numbers are by far the most common terms: skip the hash.
        let slot = value.wrapping_add(SMALL_NUMBER_OFFSET) as u32 as usize;
        if let Some(Some(id)) = self.small_numbers.get(slot) {
            return *id;
        }
        let id = self.intern_entry(Entry::Number(value));
        if slot < SMALL_NUMBERS {
            if self.small_numbers.is_empty() {
                self.small_numbers = vec![None; SMALL_NUMBERS];
            }
            self.small_numbers[slot] = Some(id);
        }
        id
    }

    pub fn function(&mut self, name: &str, args: &[SymId], negative: bool) -> SymId {
        let name = self.name(name);
        self.function_of(name, args, negative)
    }

    pub fn string(&mut self, text: &str) -> SymId {
        let text = self.name(text);
        self.intern_entry(Entry::String(text))
    }

    pub fn get(&self, id: SymId) -> SymbolData<'_> {
        match self.entries[id.0 as usize] {
            Entry::Infimum => SymbolData::Infimum,
            Entry::Supremum => SymbolData::Supremum,
            Entry::Number(n) => SymbolData::Number(n),
            Entry::String(text) => SymbolData::String(self.name_text(text)),
            Entry::Function {
                name,
                args_start,
                arity,
                negative,
            } => SymbolData::Function {
                name: self.name_text(name),
                args: self.args_of_entry(args_start, arity),
                negative,
            },
        }
    }

    /// The name, arguments and sign of a function term (constants and
    /// tuples included); `None` for other terms.
    pub fn as_function(&self, id: SymId) -> Option<(NameId, &[SymId], bool)> {
        match self.entries[id.0 as usize] {
            Entry::Function {
                name,
                args_start,
                arity,
                negative,
            } => Some((name, self.args_of_entry(args_start, arity), negative)),
            _ => None,
        }
    }

    /// The arguments of a function term; empty for other terms.
    pub fn args(&self, id: SymId) -> &[SymId] {
        match self.entries[id.0 as usize] {
            Entry::Function {
                args_start, arity, ..
            } => self.args_of_entry(args_start, arity),
            _ => &[],
        }
    }

    pub fn as_number(&self, id: SymId) -> Option<i32> {
        match self.get(id) {
            SymbolData::Number(n) => Some(n),
            _ => None,
        }
    }

    /// clingo's total order on terms: `#inf` < numbers < constants < strings
    /// < compound terms < `#sup`. Constants compare by sign (positive first),
    /// then name; compound terms by sign, arity, name, then arguments from
    /// left to right.
    pub fn compare(&self, a: SymId, b: SymId) -> Ordering {
        if a == b {
            return Ordering::Equal;
        }
        let (da, db) = (self.get(a), self.get(b));
        let rank = self.rank(&da).cmp(&self.rank(&db));
        if rank != Ordering::Equal {
            return rank;
        }
        match (da, db) {
            (SymbolData::Number(x), SymbolData::Number(y)) => x.cmp(&y),
            (SymbolData::String(x), SymbolData::String(y)) => x.cmp(y),
            (
                SymbolData::Function {
                    name: n1,
                    args: a1,
                    negative: s1,
                },
                SymbolData::Function {
                    name: n2,
                    args: a2,
                    negative: s2,
                },
            ) => s1
                .cmp(&s2)
                .then(a1.len().cmp(&a2.len()))
                .then_with(|| n1.cmp(n2))
                .then_with(|| {
                    a1.iter()
                        .zip(a2.iter())
                        .map(|(&x, &y)| self.compare(x, y))
                        .find(|o| o.is_ne())
                        .unwrap_or(Ordering::Equal)
                }),
            _ => Ordering::Equal,
        }
    }

    /// Sorts `items` by the clingo order of their symbols (see
    /// [`SymbolTable::compare`]), ties by symbol id. For many items this is
    /// much faster than sorting with `compare`: each symbol is encoded once
    /// as a sequence of integers whose lexicographic order is the term order
    /// (names and strings replaced by their rank), and sequences compare as
    /// plain slices.
    pub fn sort_by_order<T>(&self, items: &mut [T], symbol: impl Fn(&T) -> SymId) {
        let mut by_text: Vec<u32> = (0..self.names.len() as u32).collect();
        by_text.sort_unstable_by(|&x, &y| self.names[x as usize].cmp(&self.names[y as usize]));
        let mut text_rank = vec![0u32; self.names.len()];
        for (rank, &name) in by_text.iter().enumerate() {
            text_rank[name as usize] = rank as u32;
        }
        // Sized exactly, ties read from the items: on closure/chain_1000's
        // 500,000 shown atoms these buffers are the translation's peak of
        // memory.
        let length: usize = items.iter().map(|item| self.order_len(symbol(item))).sum();
        let mut tokens: Vec<u32> = Vec::with_capacity(length);
        let mut ranges: Vec<(u32, u32)> = Vec::with_capacity(items.len());
        for item in items.iter() {
            let start = tokens.len() as u32;
            self.encode_order(symbol(item), &text_rank, &mut tokens);
            ranges.push((start, tokens.len() as u32));
        }
        let key = |i: u32| {
            let (start, end) = ranges[i as usize];
            &tokens[start as usize..end as usize]
        };
        let id = |i: u32| symbol(&items[i as usize]).0;
        let mut order: Vec<u32> = (0..items.len() as u32).collect();
        order.sort_unstable_by(|&x, &y| key(x).cmp(key(y)).then_with(|| id(x).cmp(&id(y))));
        // Apply the permutation by cycles.
        for start in 0..order.len() {
            let mut current = start;
            while order[current] as usize != start {
                let next = order[current] as usize;
                items.swap(current, next);
                order[current] = current as u32;
                current = next;
            }
            order[current] = current as u32;
        }
    }

    /// The length of a symbol's order key ([`SymbolTable::encode_order`]).
    fn order_len(&self, id: SymId) -> usize {
        match self.entries[id.0 as usize] {
            Entry::Number(_) | Entry::String(_) => 2,
            Entry::Function {
                args_start, arity, ..
            } => {
                let args = &self.args[args_start as usize..(args_start + arity) as usize];
                2 + args.iter().map(|&arg| self.order_len(arg)).sum::<usize>()
            }
            Entry::Infimum | Entry::Supremum => 1,
        }
    }

    /// Appends the order key of a symbol: a header with rank, sign and
    /// arity (in that order of significance), then the name's or string's
    /// rank, a number's offset value, or the arguments' keys.
    fn encode_order(&self, id: SymId, text_rank: &[u32], out: &mut Vec<u32>) {
        let entry = self.entries[id.0 as usize];
        let header = |negative: bool, arity: u32| {
            u32::from(self.rank(&self.get(id))) << 29
                | u32::from(negative) << 28
                | arity.min(1 << 27)
        };
        match entry {
            Entry::Number(n) => {
                out.push(header(false, 0));
                out.push(n.wrapping_sub(i32::MIN) as u32);
            }
            Entry::String(text) => {
                out.push(header(false, 0));
                out.push(text_rank[text.0 as usize]);
            }
            Entry::Function {
                name,
                args_start,
                arity,
                negative,
            } => {
                out.push(header(negative, arity));
                out.push(text_rank[name.0 as usize]);
                for i in args_start..args_start + arity {
                    self.encode_order(self.args[i as usize], text_rank, out);
                }
            }
            Entry::Infimum | Entry::Supremum => out.push(header(false, 0)),
        }
    }

    fn rank(&self, data: &SymbolData) -> u8 {
        match data {
            SymbolData::Infimum => 0,
            SymbolData::Number(_) => 1,
            SymbolData::Function { args: [], .. } => 2,
            SymbolData::String(_) => 3,
            SymbolData::Function { .. } => 4,
            SymbolData::Supremum => 5,
        }
    }

    /// The symbol as clingo prints it.
    pub fn display(&self, id: SymId) -> DisplaySymbol<'_> {
        DisplaySymbol { table: self, id }
    }

    fn write(&self, out: &mut impl fmt::Write, id: SymId) -> fmt::Result {
        match self.get(id) {
            SymbolData::Infimum => out.write_str("#inf"),
            SymbolData::Supremum => out.write_str("#sup"),
            SymbolData::Number(n) => write!(out, "{n}"),
            SymbolData::String(s) => {
                out.write_char('"')?;
                for c in s.chars() {
                    match c {
                        '"' => out.write_str("\\\"")?,
                        '\\' => out.write_str("\\\\")?,
                        '\n' => out.write_str("\\n")?,
                        c => out.write_char(c)?,
                    }
                }
                out.write_char('"')
            }
            SymbolData::Function {
                name,
                args,
                negative,
            } => {
                if negative {
                    out.write_char('-')?;
                }
                out.write_str(name)?;
                if args.is_empty() && !name.is_empty() {
                    return Ok(());
                }
                out.write_char('(')?;
                for (i, &arg) in args.iter().enumerate() {
                    if i > 0 {
                        out.write_char(',')?;
                    }
                    self.write(out, arg)?;
                }
                if name.is_empty() && args.len() == 1 {
                    out.write_char(',')?;
                }
                out.write_char(')')
            }
        }
    }
}

pub struct DisplaySymbol<'a> {
    table: &'a SymbolTable,
    id: SymId,
}

impl fmt::Display for DisplaySymbol<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.table.write(f, self.id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The order clingo 5.4 reports for these terms (checked with `#count`).
    #[test]
    fn order_matches_clingo() {
        let mut t = SymbolTable::default();
        let a = t.function("a", &[], false);
        let b = t.function("b", &[], false);
        let one = t.number(1);
        let two = t.number(2);
        let minus_a = t.function("a", &[], true);
        let expected = vec![
            t.intern(SymbolData::Infimum),
            t.number(-1),
            one,
            t.function("", &[], false),
            a,
            t.function("aa", &[], false),
            b,
            minus_a,
            t.function("b", &[], true),
            t.string("a"),
            t.string("s"),
            t.function("", &[one], false),
            t.function("f", &[a], false),
            t.function("f", &[b], false),
            t.function("f", &[minus_a], false),
            t.function("g", &[a], false),
            t.function("", &[one, two], false),
            t.function("f", &[a, a], false),
            t.function("f", &[a], true),
            t.intern(SymbolData::Supremum),
        ];
        let mut sorted = expected.clone();
        sorted.reverse();
        sorted.sort_by(|&x, &y| t.compare(x, y));
        assert_eq!(sorted, expected);
        let mut sorted = expected.clone();
        sorted.reverse();
        t.sort_by_order(&mut sorted, |&s| s);
        assert_eq!(sorted, expected);
    }

    #[test]
    fn display_matches_clingo() {
        let mut t = SymbolTable::default();
        let one = t.number(1);
        let a = t.function("a", &[], false);
        let s = t.string("s\"x");
        let cases = [
            (t.function("", &[one], false), "(1,)"),
            (t.function("", &[], false), "()"),
            (t.function("p", &[a, one], true), "-p(a,1)"),
            (s, "\"s\\\"x\""),
            (t.number(-7), "-7"),
        ];
        for (id, text) in cases {
            assert_eq!(t.display(id).to_string(), text);
        }
    }

    /// Every term is found again, and interned once, after the table has
    /// grown many times from the hashes it keeps (and after `reserve`):
    /// the hash a growth places a term by is the one a lookup looks for.
    #[test]
    fn terms_are_found_after_the_table_grows() {
        let mut t = SymbolTable::default();
        let mut ids = Vec::new();
        for i in 0..20_000 {
            let number = t.number(i * 7 - 5_000);
            let name = if i % 3 == 0 { "p" } else { "q" };
            ids.push(t.function(name, &[number, number], i % 2 == 0));
            ids.push(t.string(&format!("s{i}")));
            if i == 10_000 {
                t.reserve(100_000);
            }
        }
        let count = t.entries.len();
        for (i, &id) in ids.iter().enumerate() {
            assert_eq!(t.lookup(t.get(id)), Some(id), "term {i}");
        }
        for i in 0..20_000 {
            let number = t.number(i * 7 - 5_000);
            let name = if i % 3 == 0 { "p" } else { "q" };
            let function = t.function(name, &[number, number], i % 2 == 0);
            assert_eq!(function, ids[2 * i as usize]);
            assert_eq!(t.string(&format!("s{i}")), ids[2 * i as usize + 1]);
        }
        assert_eq!(t.entries.len(), count, "no term stored twice");
    }
}
