//! A table of plain facts (`crate::syntax::facts::Facts`, read without an
//! AST) to its atoms as (predicate, symbol) pairs: a fact needs no rule.
//!
//! Input: the facts of one file, their constants unresolved. Output:
//! `Compiler::facts` extended, each constant replaced by its value, an
//! atom with a constant never defined left out with clingo's info.

use super::compile::Compiler;
use super::predicates::PredId;
use crate::diagnostics::{FileId, Span};
use crate::symbols::{NameId, SymId};
use crate::syntax::facts::{FactTerm, Facts, NameIndex};

/// What the names of one [`Facts`] stand for, looked up once each.
pub struct FactNames {
    functions: Vec<Option<NameId>>,
    constants: Vec<Option<SymId>>,
    strings: Vec<Option<SymId>>,
    /// `(name, arity, negative)` of a fact's atom and its predicate.
    predicates: Vec<(NameIndex, u16, bool, PredId)>,
}

impl Compiler<'_> {
    /// Interns the atoms of a run of facts of file `file` into
    /// [`Self::facts`]. Their constants are resolved as in any term.
    pub fn facts(&mut self, facts: &Facts, file: FileId) {
        let n = facts.name_count();
        let mut names = FactNames {
            functions: vec![None; n],
            constants: vec![None; n],
            strings: vec![None; n],
            predicates: Vec::new(),
        };
        let mut args = Vec::new();
        self.facts.reserve(facts.len());
        self.symbols.reserve(facts.node_count());
        for i in 0..facts.len() {
            let atom = facts.atom(i);
            let FactTerm::Function {
                name,
                arity,
                negative,
            } = atom[0]
            else {
                unreachable!("a fact's atom starts with its predicate")
            };
            let known = (names.predicates.iter())
                .find(|&&(n, a, s, _)| (n, a, s) == (name, arity, negative));
            let pred = match known {
                Some(&(.., pred)) => pred,
                None => {
                    let pred = self.preds.intern(facts.name(name), arity.into(), negative);
                    names.predicates.push((name, arity, negative, pred));
                    let origin = facts.span(i, file);
                    self.fact_origins.entry(pred).or_insert(origin);
                    pred
                }
            };
            if let Some(span) = self.undefined_in_fact(facts, atom) {
                self.operation_undefined(span);
                continue;
            }
            let mut at = 1;
            for _ in 0..arity {
                let arg = self.fact_term(facts, atom, &mut at, &mut names, &mut args);
                args.push(arg);
            }
            let name = self.function_name(facts, name, &mut names);
            let symbol = self.symbols.function_of(name, &args, negative);
            args.clear();
            self.facts.push((pred, symbol));
        }
    }

    /// The span of the value of a constant in `atom` that is never defined.
    pub fn undefined_in_fact(&self, facts: &Facts, atom: &[FactTerm]) -> Option<Span> {
        if self.undefined_consts.is_empty() {
            return None;
        }
        atom.iter().find_map(|term| match term {
            FactTerm::Constant(name) => self.undefined_constant(facts.name(*name)),
            _ => None,
        })
    }

    /// The term whose nodes start at `terms[*at]`; `stack` holds the
    /// arguments of the functions around it.
    pub fn fact_term(
        &mut self,
        facts: &Facts,
        terms: &[FactTerm],
        at: &mut usize,
        names: &mut FactNames,
        stack: &mut Vec<SymId>,
    ) -> SymId {
        let node = terms[*at];
        *at += 1;
        let (name, arity) = match node {
            FactTerm::Integer(n) => return self.symbols.number(n),
            FactTerm::Constant(name) => {
                return *names.constants[name.0 as usize]
                    .get_or_insert_with(|| self.constant(facts.name(name)));
            }
            FactTerm::String(text) => {
                return *names.strings[text.0 as usize]
                    .get_or_insert_with(|| self.symbols.string(facts.name(text)));
            }
            FactTerm::Function { name, arity, .. } => {
                (self.function_name(facts, name, names), arity)
            }
            FactTerm::Tuple { arity } => (self.symbols.name(""), arity),
        };
        let base = stack.len();
        for _ in 0..arity {
            let arg = self.fact_term(facts, terms, at, names, stack);
            stack.push(arg);
        }
        let symbol = self.symbols.function_of(name, &stack[base..], false);
        stack.truncate(base);
        symbol
    }

    pub fn function_name(
        &mut self,
        facts: &Facts,
        name: NameIndex,
        names: &mut FactNames,
    ) -> NameId {
        *names.functions[name.0 as usize].get_or_insert_with(|| self.symbols.name(facts.name(name)))
    }
}
