//! Facts as written, stored flat.
//!
//! Most of a big instance is facts such as `f(12,3).`: as AST nodes each
//! would cost a statement, a head, an atom and a tree of terms, several
//! allocations and hundreds of bytes. A run of consecutive facts whose
//! terms are numbers, constants, strings, and functions and tuples of those
//! is one [`Facts`] instead: a few words per term, in one vector. Nothing is
//! evaluated: a constant may still be a `#const` name, as in the AST.

use crate::diagnostics::{FileId, Span};
use crate::syntax::ast::{Atom, Head, HeadLiteral, Naf, Statement, StatementKind, Term, TermKind};
use hashbrown::HashTable;
use rustc_hash::FxBuildHasher;
use std::hash::BuildHasher;

/// Index of a name (or string text) in its [`Facts`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NameIndex(pub u32);

/// One node of a fact's atom, in prefix order: a function is followed by
/// its `arity` arguments.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FactTerm {
    Integer(i32),
    Constant(NameIndex),
    String(NameIndex),
    /// `name(args)` with `arity >= 1`; the fact's atom itself with any
    /// arity (0 for `p.`), `negative` for a strongly negated atom `-p(..)`.
    Function {
        name: NameIndex,
        arity: u16,
        negative: bool,
    },
    /// `(t1, .., tn)`.
    Tuple {
        arity: u16,
    },
}

/// Where one fact is: its atom's first node and its statement's bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct FactEntry {
    first_term: u32,
    start: u32,
    /// The end of the statement, its `.`, which directly follows the atom.
    end: u32,
}

/// A run of consecutive facts of one file, in source order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Facts {
    names: Vec<Box<str>>,
    terms: Vec<FactTerm>,
    entries: Vec<FactEntry>,
}

impl Facts {
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The number of nodes of all atoms: at most as many distinct terms.
    pub fn node_count(&self) -> usize {
        self.terms.len()
    }

    pub fn name(&self, name: NameIndex) -> &str {
        &self.names[name.0 as usize]
    }

    /// How many names the facts use: [`NameIndex`] values are below it.
    pub fn name_count(&self) -> usize {
        self.names.len()
    }

    /// The nodes of fact `i`'s atom in prefix order, starting with its
    /// predicate as a [`FactTerm::Function`].
    pub fn atom(&self, i: usize) -> &[FactTerm] {
        let start = self.entries[i].first_term as usize;
        let end = self
            .entries
            .get(i + 1)
            .map_or(self.terms.len(), |e| e.first_term as usize);
        &self.terms[start..end]
    }

    /// The statement `p(..).` of fact `i`, in file `file`.
    pub fn span(&self, i: usize, file: FileId) -> Span {
        let entry = self.entries[i];
        Span::new(file, entry.start as usize, entry.end as usize)
    }

    /// Fact `i` as the AST statement the parser reads it as. Its terms
    /// carry the span of the atom: a fact's terms are never the place of
    /// a message.
    pub fn statement(&self, i: usize, file: FileId) -> Statement {
        let span = self.span(i, file);
        let atom_span = Span {
            end: span.end - 1,
            ..span
        };
        let (negative, term) = self.to_term(self.atom(i), &mut 0, atom_span);
        let term_span = Span {
            start: atom_span.start + u32::from(negative),
            ..atom_span
        };
        let atom = Atom {
            strong_negation: negative,
            term: Term {
                span: term_span,
                ..term
            },
            span: atom_span,
        };
        let head = Head::Disjunction(vec![HeadLiteral {
            naf: Naf::Positive,
            atom,
            condition: Vec::new(),
            span: atom_span,
        }]);
        Statement {
            kind: StatementKind::Rule {
                head,
                body: Vec::new(),
            },
            span,
        }
    }

    /// Every fact as its AST statement.
    pub fn statements(&self, file: FileId) -> impl Iterator<Item = Statement> + '_ {
        (0..self.len()).map(move |i| self.statement(i, file))
    }

    /// The term of the nodes from `terms[*at]`, and whether it is negated.
    fn to_term(&self, terms: &[FactTerm], at: &mut usize, span: Span) -> (bool, Term) {
        let node = terms[*at];
        *at += 1;
        let args = |arity: u16, at: &mut usize| -> Vec<Term> {
            (0..arity)
                .map(|_| self.to_term(terms, at, span).1)
                .collect()
        };
        let (negative, kind) = match node {
            FactTerm::Integer(n) => (false, TermKind::Integer(n)),
            FactTerm::Constant(name) => (false, TermKind::Constant(self.name(name).into())),
            FactTerm::String(text) => (false, TermKind::String(self.name(text).into())),
            FactTerm::Function {
                name,
                arity: 0,
                negative,
            } => (negative, TermKind::Constant(self.name(name).into())),
            FactTerm::Function {
                name,
                arity,
                negative,
            } => {
                let args = args(arity, at);
                let name = self.name(name).into();
                (negative, TermKind::Function { name, args })
            }
            FactTerm::Tuple { arity } => (false, TermKind::Tuple(args(arity, at))),
        };
        (negative, Term { kind, span })
    }
}

/// Collects a run of facts, each name stored once.
#[derive(Default)]
pub struct FactsBuilder {
    facts: Facts,
    /// Indices into `facts.names`, hashed by their text.
    index: HashTable<u32>,
}

impl FactsBuilder {
    pub fn is_empty(&self) -> bool {
        self.facts.is_empty()
    }

    /// Adds the statement if it is a fact that [`Facts`] can hold (one
    /// positive atom of numbers, constants, strings, functions and tuples,
    /// its `.` right after it; not `#true.`): whether it did.
    pub fn push(&mut self, statement: &Statement) -> bool {
        let StatementKind::Rule { head, body } = &statement.kind else {
            return false;
        };
        let Head::Disjunction(disjuncts) = head else {
            return false;
        };
        let [disjunct] = &disjuncts[..] else {
            return false;
        };
        let atom = &disjunct.atom;
        let (name, args): (&str, &[Term]) = match &atom.term.kind {
            TermKind::Constant(name) => (name, &[]),
            TermKind::Function { name, args } => (name, args),
            _ => return false,
        };
        let negative = atom.strong_negation;
        // `#true.` and `#false.` are not atoms.
        let written_as_stored = !name.starts_with('#')
            && body.is_empty()
            && disjunct.naf == Naf::Positive
            && disjunct.condition.is_empty()
            && atom.span.end + 1 == statement.span.end
            && atom.span.start == statement.span.start
            && atom.term.span.start == atom.span.start + u32::from(negative)
            && u16::try_from(args.len()).is_ok()
            && args.iter().all(storable);
        if !written_as_stored {
            return false;
        }
        let first_term = self.facts.terms.len() as u32;
        let name = self.name(name);
        self.facts.terms.push(FactTerm::Function {
            name,
            arity: args.len() as u16,
            negative,
        });
        for arg in args {
            self.term(arg);
        }
        self.facts.entries.push(FactEntry {
            first_term,
            start: statement.span.start,
            end: statement.span.end,
        });
        true
    }

    /// Starts a fact read from tokens: its first node will be at the mark.
    pub fn mark(&self) -> usize {
        self.facts.terms.len()
    }

    /// Drops the nodes from `mark` on: the fact started there is not one
    /// that [`Facts`] holds.
    pub fn abandon(&mut self, mark: usize) {
        self.facts.terms.truncate(mark);
    }

    /// Appends a node of the fact being read.
    pub fn node(&mut self, node: FactTerm) {
        self.facts.terms.push(node);
    }

    /// Sets the arity of the function node at `at`, once its arguments are
    /// read.
    pub fn set_arity(&mut self, at: usize, arguments: u16) {
        if let FactTerm::Function { arity, .. } | FactTerm::Tuple { arity } =
            &mut self.facts.terms[at]
        {
            *arity = arguments;
        }
    }

    /// Ends the fact whose nodes start at `mark`: the statement `start..end`.
    pub fn finish(&mut self, mark: usize, start: usize, end: usize) {
        self.facts.entries.push(FactEntry {
            first_term: mark as u32,
            start: start as u32,
            end: end as u32,
        });
    }

    /// The facts collected, leaving the builder empty.
    pub fn take(&mut self) -> Facts {
        self.index.clear();
        std::mem::take(&mut self.facts)
    }

    fn term(&mut self, term: &Term) {
        let node = match &term.kind {
            TermKind::Integer(n) => FactTerm::Integer(*n),
            TermKind::Constant(name) => FactTerm::Constant(self.name(name)),
            TermKind::String(text) => FactTerm::String(self.name(text)),
            TermKind::Function { name, args } => FactTerm::Function {
                name: self.name(name),
                arity: args.len() as u16,
                negative: false,
            },
            TermKind::Tuple(args) => FactTerm::Tuple {
                arity: args.len() as u16,
            },
            _ => unreachable!("only storable terms are stored"),
        };
        self.facts.terms.push(node);
        if let TermKind::Function { args, .. } | TermKind::Tuple(args) = &term.kind {
            for arg in args {
                self.term(arg);
            }
        }
    }

    pub fn name(&mut self, text: &str) -> NameIndex {
        let hash = FxBuildHasher.hash_one(text);
        let names = &mut self.facts.names;
        let found = self.index.find(hash, |&i| &*names[i as usize] == text);
        if let Some(&i) = found {
            return NameIndex(i);
        }
        let i = names.len() as u32;
        names.push(text.into());
        let names = &self.facts.names;
        self.index
            .insert_unique(hash, i, |&i| FxBuildHasher.hash_one(&*names[i as usize]));
        NameIndex(i)
    }
}

/// Whether [`Facts`] can hold the term: numbers, constants, strings, and
/// functions and tuples of those. The parser bounds its depth.
fn storable(term: &Term) -> bool {
    match &term.kind {
        TermKind::Integer(_) | TermKind::Constant(_) | TermKind::String(_) => true,
        TermKind::Function { args, .. } | TermKind::Tuple(args) => {
            u16::try_from(args.len()).is_ok() && args.iter().all(storable)
        }
        _ => false,
    }
}
