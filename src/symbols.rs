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
use std::rc::Rc;

/// A ground term, interned in a [`SymbolTable`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SymId(pub u32);

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum SymbolData {
    Infimum,
    Number(i32),
    /// Constants are functions with no arguments; tuples have an empty name.
    Function {
        name: Rc<str>,
        args: Box<[SymId]>,
        /// Strong negation: `-p(1)`, `-a`.
        negative: bool,
    },
    String(Rc<str>),
    Supremum,
}

/// Owns every ground term; equal terms always get the same [`SymId`].
///
/// Each term is stored once, in `data`; the hash table holds only ids, so
/// a function can be looked up from a borrowed argument slice, allocating
/// only when the term is new.
#[derive(Clone, Debug, Default)]
pub struct SymbolTable {
    data: Vec<SymbolData>,
    table: HashTable<SymId>,
    names: FxHashMap<Box<str>, Rc<str>>,
    /// Ids of the numbers `-SMALL_NUMBER_OFFSET..SMALL_NUMBERS - SMALL_NUMBER_OFFSET`.
    small_numbers: Vec<Option<SymId>>,
}

const SMALL_NUMBERS: usize = 4096;
const SMALL_NUMBER_OFFSET: i32 = 1024;

fn hash_function(name: &str, args: &[SymId], negative: bool) -> u64 {
    FxBuildHasher.hash_one((name, args, negative))
}

fn hash_data(data: &SymbolData) -> u64 {
    match data {
        SymbolData::Function {
            name,
            args,
            negative,
        } => hash_function(name, args, *negative),
        other => FxBuildHasher.hash_one(other),
    }
}

impl SymbolTable {
    pub fn intern(&mut self, data: SymbolData) -> SymId {
        if let Some(id) = self.lookup(&data) {
            return id;
        }
        self.insert_new(hash_data(&data), data)
    }

    fn insert_new(&mut self, hash: u64, data: SymbolData) -> SymId {
        let id = SymId(self.data.len() as u32);
        self.data.push(data);
        let all = &self.data;
        self.table
            .insert_unique(hash, id, |&id| hash_data(&all[id.0 as usize]));
        id
    }

    /// The id of a term interned before, without interning it.
    pub fn lookup(&self, data: &SymbolData) -> Option<SymId> {
        let all = &self.data;
        self.table
            .find(hash_data(data), |&id| all[id.0 as usize] == *data)
            .copied()
    }

    /// Interns `name(args)` without allocating when it exists already.
    pub fn function_of(&mut self, name: &Rc<str>, args: &[SymId], negative: bool) -> SymId {
        let hash = hash_function(name, args, negative);
        let all = &self.data;
        let found = self.table.find(hash, |&id| {
            matches!(&all[id.0 as usize], SymbolData::Function { name: n, args: a, negative: s }
                if **n == **name && **a == *args && *s == negative)
        });
        if let Some(&id) = found {
            return id;
        }
        self.insert_new(
            hash,
            SymbolData::Function {
                name: name.clone(),
                args: args.into(),
                negative,
            },
        )
    }

    /// Shares one allocation per distinct name.
    pub fn name(&mut self, name: &str) -> Rc<str> {
        if let Some(rc) = self.names.get(name) {
            return rc.clone();
        }
        let rc: Rc<str> = Rc::from(name);
        self.names.insert(name.into(), rc.clone());
        rc
    }

    pub fn number(&mut self, value: i32) -> SymId {
        // Small numbers are by far the most common terms: skip the hash.
        let slot = value.wrapping_add(SMALL_NUMBER_OFFSET) as u32 as usize;
        if let Some(Some(id)) = self.small_numbers.get(slot) {
            return *id;
        }
        let id = self.intern(SymbolData::Number(value));
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
        self.function_of(&name, args, negative)
    }

    pub fn string(&mut self, text: &str) -> SymId {
        let text = self.name(text);
        self.intern(SymbolData::String(text))
    }

    pub fn get(&self, id: SymId) -> &SymbolData {
        &self.data[id.0 as usize]
    }

    pub fn as_number(&self, id: SymId) -> Option<i32> {
        match self.get(id) {
            SymbolData::Number(n) => Some(*n),
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
        let rank = self.rank(da).cmp(&self.rank(db));
        if rank != Ordering::Equal {
            return rank;
        }
        match (da, db) {
            (SymbolData::Number(x), SymbolData::Number(y)) => x.cmp(y),
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
                .cmp(s2)
                .then(a1.len().cmp(&a2.len()))
                // Names are shared: equal names are usually one allocation.
                .then_with(|| {
                    if Rc::ptr_eq(n1, n2) {
                        Ordering::Equal
                    } else {
                        n1.cmp(n2)
                    }
                })
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
        let mut text_rank: FxHashMap<&str, u32> = FxHashMap::default();
        for item in items.iter() {
            self.collect_texts(symbol(item), &mut text_rank);
        }
        let mut texts: Vec<&str> = text_rank.keys().copied().collect();
        texts.sort_unstable();
        for (rank, text) in texts.into_iter().enumerate() {
            text_rank.insert(text, rank as u32);
        }
        let mut tokens: Vec<u32> = Vec::new();
        let mut ranges: Vec<(u32, u32, u32)> = Vec::with_capacity(items.len());
        for item in items.iter() {
            let start = tokens.len() as u32;
            self.encode_order(symbol(item), &text_rank, &mut tokens);
            ranges.push((start, tokens.len() as u32, symbol(item).0));
        }
        let key = |&(start, end, _): &(u32, u32, u32)| &tokens[start as usize..end as usize];
        let mut order: Vec<u32> = (0..items.len() as u32).collect();
        order.sort_unstable_by(|&x, &y| {
            let (x, y) = (&ranges[x as usize], &ranges[y as usize]);
            key(x).cmp(key(y)).then(x.2.cmp(&y.2))
        });
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

    /// Every name and string in the symbol.
    fn collect_texts<'a>(&'a self, id: SymId, texts: &mut FxHashMap<&'a str, u32>) {
        match self.get(id) {
            SymbolData::String(text) => {
                texts.insert(text, 0);
            }
            SymbolData::Function { name, args, .. } => {
                texts.insert(name, 0);
                args.iter().for_each(|&arg| self.collect_texts(arg, texts));
            }
            _ => {}
        }
    }

    /// Appends the order key of a symbol: a header with rank, sign and
    /// arity (in that order of significance), then the name's or string's
    /// rank, a number's offset value, or the arguments' keys.
    fn encode_order(&self, id: SymId, text_rank: &FxHashMap<&str, u32>, out: &mut Vec<u32>) {
        let data = self.get(id);
        let header = |negative: bool, arity: usize| {
            u32::from(self.rank(data)) << 29 | u32::from(negative) << 28 | arity.min(1 << 27) as u32
        };
        match data {
            SymbolData::Number(n) => {
                out.push(header(false, 0));
                out.push(n.wrapping_sub(i32::MIN) as u32);
            }
            SymbolData::String(text) => {
                out.push(header(false, 0));
                out.push(text_rank[&**text]);
            }
            SymbolData::Function {
                name,
                args,
                negative,
            } => {
                out.push(header(*negative, args.len()));
                out.push(text_rank[&**name]);
                for &arg in args.iter() {
                    self.encode_order(arg, text_rank, out);
                }
            }
            SymbolData::Infimum | SymbolData::Supremum => out.push(header(false, 0)),
        }
    }

    fn rank(&self, data: &SymbolData) -> u8 {
        match data {
            SymbolData::Infimum => 0,
            SymbolData::Number(_) => 1,
            SymbolData::Function { args, .. } if args.is_empty() => 2,
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
                if *negative {
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
}
