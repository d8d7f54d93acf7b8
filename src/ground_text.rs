//! The ground program as text, in the syntax of `clingo --text`
//! (`asp2sat ground`, `asp2sat solve --text`). Pure: renders into any
//! [`std::io::Write`] the caller gives.
//!
//! What is printed is the program after simplification: facts propagated,
//! literals on facts and underivable atoms removed. It is a program clingo
//! reads back with the same visible answer sets. Where clingo's own `--text`
//! output is not input, the input form is printed instead:
//!
//! ```text
//! p(1).                    facts
//! a:-b,not c.              normal rules, positive body literals first
//! a;b:-c.                  disjunctions
//! 1{a;b:c,not d}2:-e.      choices, bounds and conditions as written
//!                          (clingo prints `#delayed` for bounded ones)
//! _agg(0):-2<=#sum{1,0:q(1);2,1:q(2)}<=4.
//!                          the atom standing for a body aggregate
//! :-a,b.                   constraints; `:-.` for one with an empty body
//! #minimize{2@1,0:a;-1@0,1:b,not c}.
//!                          the objective, per priority level, each element
//!                          a tuple of its own
//! #show p/1.               the shown signatures, when some atom is hidden
//! #show.                   ... or this, when no atom is shown
//! #show t:a.               `#show t : body.` instances
//! ```
//!
//! Auxiliary atoms of the grounder (`#proj1(X)` for the projection in
//! `not p(X,_)`) are printed with `_` in place of the `#` (`_proj1(X)`), a
//! name clingo accepts; they are never shown. Auxiliary facts are left out:
//! no rule mentions a fact, so they say nothing. A body aggregate is an
//! auxiliary atom `#agg(k)` defined by one rule with the aggregate as its
//! body: each element's tuple is its weight and its position, so that
//! elements never merge; `#count` is printed as `#sum`, and `#min`/`#max`
//! over the ranks in term order that the grounder gives their weights
//! (`#min` as `#max` of negated ranks), which compare as the weights do.
//!
//! The order is deterministic and does not depend on the order in which
//! the grounder derived anything:
//! 1. facts, in clingo's term order;
//! 2. the aggregate atoms' definitions, by atom;
//! 3. rules, by their head atoms in term order (the rules for one atom
//!    together: normal rules, then disjunctions, then choices), then by
//!    their bodies; constraints last;
//! 4. the objective, one `#minimize` per priority level from the highest,
//!    its elements by weight and conditions;
//! 5. `#edge (u,v):a.` per edge of `#edge` directives, by its atom;
//! 6. `#show` signatures sorted by name, arity and sign, then `#show` terms
//!    in term order.
//!
//! Inside a rule, head atoms, body literals (positive, then negative),
//! choice elements and their conditions are each in term order.

use crate::ground::program::{
    AggregateDefinition, AggregateValue, Atom, AtomId, Body, GroundProgram, Head, Rule,
};
use crate::symbols::SymId;
use std::cmp::Ordering;
use std::collections::BTreeSet;
use std::io::{self, Write};

/// Writes `program` in clingo's `--text` syntax, in the order described in
/// the module documentation.
pub fn write(out: &mut impl Write, program: &GroundProgram) -> io::Result<()> {
    let text = Printer::new(program);
    let mut facts: Vec<Rank> = program
        .atom_ids()
        .filter(|&a| program.is_fact(a) && !text.is_auxiliary(a))
        .map(|a| text.rank[a.index()])
        .collect();
    facts.sort_unstable();
    for fact in facts {
        text.atom(out, fact)?;
        out.write_all(b".\n")?;
    }

    let mut aggregates: Vec<&AggregateDefinition> = program.aggregates.iter().collect();
    aggregates.sort_by_key(|a| text.rank[a.atom.index()]);
    for aggregate in aggregates {
        text.aggregate(out, aggregate)?;
    }

    let mut rules: Vec<RankedRule> = program.rules.iter().map(|r| text.ranked(r)).collect();
    rules.sort_by(RankedRule::compare);
    for rule in &rules {
        text.rule(out, rule)?;
    }

    text.objective(out)?;
    text.edges(out)?;
    text.show(out, &rules)
}

/// An atom's position in clingo's term order: atoms compare as their ranks.
type Rank = u32;

/// A body with each polarity's atoms as sorted ranks.
#[derive(Default, PartialEq, Eq, PartialOrd, Ord)]
struct RankedBody {
    pos: Vec<Rank>,
    neg: Vec<Rank>,
}

/// One element of a choice head: its atom and its conditions, sorted. An
/// unconditional element has one, empty, condition; an element without
/// conditions never holds.
#[derive(PartialEq, Eq, PartialOrd, Ord)]
struct RankedElement {
    atom: Rank,
    conditions: Vec<RankedBody>,
}

/// A rule with every atom replaced by its rank, in printing order.
struct RankedRule<'p> {
    rule: &'p Rule,
    /// The head atoms (a choice's element atoms), sorted; empty for a
    /// constraint.
    heads: Vec<Rank>,
    /// Choice elements, sorted by atom; empty for other rules.
    elements: Vec<RankedElement>,
    body: RankedBody,
}

impl RankedBody {
    fn is_empty(&self) -> bool {
        self.pos.is_empty() && self.neg.is_empty()
    }
}

impl RankedRule<'_> {
    fn kind(&self) -> u8 {
        match self.rule.head {
            Head::Atom(_) => 0,
            Head::Disjunction(_) => 1,
            Head::Choice(_) => 2,
            Head::Constraint => 3,
        }
    }

    /// The printing order: constraints after every rule with a head, rules
    /// by head atoms, kind and body. Rules equal in all of these (choices
    /// that differ only in bounds or conditions) keep the grounder's order.
    fn compare(a: &RankedRule, b: &RankedRule) -> Ordering {
        let is_constraint = |r: &RankedRule| matches!(r.rule.head, Head::Constraint);
        is_constraint(a)
            .cmp(&is_constraint(b))
            .then_with(|| a.heads.cmp(&b.heads))
            .then_with(|| a.kind().cmp(&b.kind()))
            .then_with(|| a.elements.cmp(&b.elements))
            .then_with(|| a.body.cmp(&b.body))
    }
}

struct Printer<'p> {
    program: &'p GroundProgram,
    /// Each atom's rank, by atom id.
    rank: Vec<Rank>,
    /// The atom of each rank.
    by_rank: Vec<AtomId>,
}

impl<'p> Printer<'p> {
    fn new(program: &'p GroundProgram) -> Printer<'p> {
        let mut by_rank: Vec<AtomId> = program.atom_ids().collect();
        program
            .symbols
            .sort_by_order(&mut by_rank, |&a| program.symbol(a));
        let mut rank = vec![0; by_rank.len()];
        for (position, atom) in by_rank.iter().enumerate() {
            rank[atom.index()] = position as Rank;
        }
        Printer {
            program,
            rank,
            by_rank,
        }
    }

    fn ranks(&self, atoms: &[AtomId]) -> Vec<Rank> {
        let mut ranks: Vec<Rank> = atoms.iter().map(|a| self.rank[a.index()]).collect();
        ranks.sort_unstable();
        ranks
    }

    fn ranked_body(&self, body: &Body) -> RankedBody {
        RankedBody {
            pos: self.ranks(body.pos()),
            neg: self.ranks(body.neg()),
        }
    }

    fn ranked<'r>(&self, rule: &'r Rule) -> RankedRule<'r> {
        let mut elements = Vec::new();
        let heads = match &rule.head {
            Head::Constraint => Vec::new(),
            Head::Atom(atom) => vec![self.rank[atom.index()]],
            Head::Disjunction(atoms) => self.ranks(atoms),
            Head::Choice(choice) => {
                elements = choice
                    .elements
                    .iter()
                    // An element without conditions never holds.
                    .filter(|element| !element.conditions.is_empty())
                    .map(|element| {
                        // An unconditional element subsumes its conditional
                        // copies.
                        let mut conditions: Vec<RankedBody> = if element.is_unconditional() {
                            vec![RankedBody::default()]
                        } else {
                            element
                                .conditions
                                .iter()
                                .map(|c| self.ranked_body(c))
                                .collect()
                        };
                        conditions.sort();
                        conditions.dedup();
                        RankedElement {
                            atom: self.rank[element.value.index()],
                            conditions,
                        }
                    })
                    .collect();
                elements.sort();
                elements.iter().map(|e| e.atom).collect()
            }
        };
        RankedRule {
            rule,
            heads,
            elements,
            body: self.ranked_body(&rule.body),
        }
    }

    /// An atom as clingo prints it; auxiliary predicates (`#proj1`) get a
    /// name clingo reads (`_proj1`).
    fn atom(&self, out: &mut impl Write, rank: Rank) -> io::Result<()> {
        let symbols = &self.program.symbols;
        let symbol = self.program.symbol(self.by_rank[rank as usize]);
        match symbols.as_function(symbol) {
            Some((name, args, false)) if symbols.name_text(name).starts_with('#') => {
                write!(out, "_{}", &symbols.name_text(name)[1..])?;
                for (i, &arg) in args.iter().enumerate() {
                    let separator = if i == 0 { "(" } else { "," };
                    write!(out, "{separator}{}", symbols.display(arg))?;
                }
                if !args.is_empty() {
                    out.write_all(b")")?;
                }
                Ok(())
            }
            _ => write!(out, "{}", symbols.display(symbol)),
        }
    }

    /// `a;b;c`, or `a,b,not c` with `separator` ",".
    fn literals(
        &self,
        out: &mut impl Write,
        separator: &[u8],
        atoms: &[Rank],
        negated: &[Rank],
    ) -> io::Result<()> {
        let literals = atoms
            .iter()
            .map(|&a| (false, a))
            .chain(negated.iter().map(|&a| (true, a)));
        for (i, (negative, atom)) in literals.enumerate() {
            if i > 0 {
                out.write_all(separator)?;
            }
            if negative {
                out.write_all(b"not ")?;
            }
            self.atom(out, atom)?;
        }
        Ok(())
    }

    fn body(&self, out: &mut impl Write, body: &RankedBody) -> io::Result<()> {
        self.literals(out, b",", &body.pos, &body.neg)
    }

    fn rule(&self, out: &mut impl Write, rule: &RankedRule) -> io::Result<()> {
        match &rule.rule.head {
            Head::Constraint => {}
            Head::Atom(_) | Head::Disjunction(_) => self.literals(out, b";", &rule.heads, &[])?,
            Head::Choice(choice) => {
                if choice.bounds.lower > 0 {
                    write!(out, "{}", choice.bounds.lower)?;
                }
                out.write_all(b"{")?;
                let mut first = true;
                // Elements with the same atom count once, so an element with
                // several conditions is written once per condition.
                for element in &rule.elements {
                    for condition in &element.conditions {
                        if !std::mem::take(&mut first) {
                            out.write_all(b";")?;
                        }
                        self.atom(out, element.atom)?;
                        if !condition.is_empty() {
                            out.write_all(b":")?;
                            self.body(out, condition)?;
                        }
                    }
                }
                out.write_all(b"}")?;
                if let Some(upper) = choice.bounds.upper_bound() {
                    write!(out, "{upper}")?;
                }
            }
        }
        let is_constraint = matches!(rule.rule.head, Head::Constraint);
        if is_constraint || !rule.rule.body.is_empty() {
            out.write_all(b":-")?;
            self.body(out, &rule.body)?;
        }
        out.write_all(b".\n")
    }

    /// The objective: per level, highest priority first, `#minimize{
    /// w@p,k : condition; .. }.` where `k` numbers the elements, so that no
    /// two merge, and each condition of an element repeats its tuple; a
    /// level without elements as `#minimize{0@p}.`, which keeps it.
    fn objective(&self, out: &mut impl Write) -> io::Result<()> {
        let mut number = 0;
        for level in &self.program.costs {
            let mut elements = Vec::new();
            for element in &level.elements {
                let mut conditions: Vec<RankedBody> = (element.conditions.iter())
                    .map(|c| self.ranked_body(c))
                    .collect();
                conditions.sort();
                elements.push((element.value, conditions));
            }
            elements.sort();
            write!(out, "#minimize{{")?;
            if elements.is_empty() {
                write!(out, "0@{}", level.priority)?;
            }
            let mut separator = "";
            for (weight, conditions) in &elements {
                for condition in conditions {
                    write!(out, "{separator}{weight}@{},{number}", level.priority)?;
                    if !condition.is_empty() {
                        out.write_all(b":")?;
                        self.body(out, condition)?;
                    }
                    separator = ";";
                }
                number += 1;
            }
            out.write_all(b"}.\n")?;
        }
        Ok(())
    }

    /// `a:-l op #agg{..} op u.`: the definition of an aggregate atom, one
    /// pair of guards per aggregate literal.
    fn aggregate(&self, out: &mut impl Write, aggregate: &AggregateDefinition) -> io::Result<()> {
        let mut elements: Vec<(i64, Vec<RankedBody>)> = aggregate
            .elements
            .iter()
            .map(|element| {
                let mut conditions: Vec<RankedBody> = element
                    .conditions
                    .iter()
                    .map(|c| self.ranked_body(c))
                    .collect();
                conditions.sort();
                conditions.dedup();
                (element.value, conditions)
            })
            .collect();
        let function = match aggregate.value {
            AggregateValue::Sum => "#sum",
            AggregateValue::Max { empty } => {
                // The value of the empty set is `empty`, clingo's is #inf:
                // they compare alike with bounds above `empty`. Otherwise an
                // element that always holds makes `empty` the least value.
                if aggregate.guards.iter().any(|&(_, bound)| bound <= empty) {
                    elements.push((empty, vec![RankedBody::default()]));
                }
                "#max"
            }
        };
        elements.sort();
        self.atom(out, self.rank[aggregate.atom.index()])?;
        if aggregate.guards.is_empty() {
            return out.write_all(b".\n");
        }
        out.write_all(b":-")?;
        for (i, guards) in aggregate.guards.chunks(2).enumerate() {
            if i > 0 {
                out.write_all(b",")?;
            }
            // `value op bound` is written `bound op' value`, as clingo does.
            let (op, bound) = guards[0];
            write!(out, "{bound}{}{function}{{", op.flip().as_str())?;
            let mut first = true;
            for (position, (weight, conditions)) in elements.iter().enumerate() {
                for condition in conditions {
                    if !std::mem::take(&mut first) {
                        out.write_all(b";")?;
                    }
                    write!(out, "{weight},{position}")?;
                    if !condition.is_empty() {
                        out.write_all(b":")?;
                        self.body(out, condition)?;
                    }
                }
            }
            out.write_all(b"}")?;
            if let Some(&(op, bound)) = guards.get(1) {
                write!(out, "{}{bound}", op.as_str())?;
            }
        }
        out.write_all(b".\n")
    }

    fn is_auxiliary(&self, atom: AtomId) -> bool {
        let symbols = &self.program.symbols;
        symbols
            .as_function(self.program.symbol(atom))
            .is_some_and(|(name, _, _)| symbols.name_text(name).starts_with('#'))
    }

    /// The atoms that the printout mentions.
    fn printed(&self, rules: &[RankedRule]) -> Vec<&'p Atom> {
        let mut printed = vec![false; self.rank.len()];
        let mut mark = |ranks: &[Rank]| {
            for &rank in ranks {
                printed[self.by_rank[rank as usize].index()] = true;
            }
        };
        for rule in rules {
            mark(&rule.heads);
            mark(&rule.body.pos);
            mark(&rule.body.neg);
            for condition in rule.elements.iter().flat_map(|e| &e.conditions) {
                mark(&condition.pos);
                mark(&condition.neg);
            }
        }
        for aggregate in &self.program.aggregates {
            printed[aggregate.atom.index()] = true;
            for body in aggregate.elements.iter().flat_map(|e| &e.conditions) {
                for atom in body.pos().iter().chain(body.neg()) {
                    printed[atom.index()] = true;
                }
            }
        }
        for show in &self.program.show_terms {
            for atom in show.body.pos().iter().chain(show.body.neg()) {
                printed[atom.index()] = true;
            }
        }
        self.program
            .atom_ids()
            .filter(|&a| printed[a.index()] || (self.program.is_fact(a) && !self.is_auxiliary(a)))
            .map(|a| &self.program.atoms[a.index()])
            .collect()
    }

    /// `#edge (u,v):a.` for each edge of `#edge` directives, present when
    /// its atom `a` holds (`#edge (u,v).` for a fact).
    fn edges(&self, out: &mut impl Write) -> io::Result<()> {
        let symbols = &self.program.symbols;
        let mut edges: Vec<(Rank, SymId, SymId, AtomId)> = (self.program.edges.iter())
            .map(|&(u, v, atom)| (self.rank[atom.index()], u, v, atom))
            .collect();
        edges.sort_unstable_by_key(|e| e.0);
        for (rank, u, v, atom) in edges {
            write!(out, "#edge ({},{})", symbols.display(u), symbols.display(v))?;
            if !self.program.is_fact(atom) {
                out.write_all(b":")?;
                self.atom(out, rank)?;
            }
            out.write_all(b".\n")?;
        }
        Ok(())
    }

    /// The `#show` statements: the signatures of the shown atoms (only when
    /// the printout mentions a hidden atom: with none, every atom is shown),
    /// then the `#show` terms. The grounder shows or hides whole signatures
    /// (`#show p/n.`, `#hide p/n.`), so the signatures of the shown atoms
    /// show exactly those atoms.
    fn show(&self, out: &mut impl Write, rules: &[RankedRule]) -> io::Result<()> {
        let program = self.program;
        let symbols = &program.symbols;
        let printed = self.printed(rules);
        if printed.iter().any(|a| !a.shown) {
            let signatures: BTreeSet<(&str, usize, bool)> = printed
                .iter()
                .filter(|a| a.shown)
                .filter_map(|a| symbols.as_function(a.symbol))
                .map(|(name, args, negative)| (symbols.name_text(name), args.len(), negative))
                .collect();
            if signatures.is_empty() {
                out.write_all(b"#show.\n")?;
            }
            for (name, arity, negative) in signatures {
                let sign = if negative { "-" } else { "" };
                writeln!(out, "#show {sign}{name}/{arity}.")?;
            }
        }

        let mut terms: Vec<(SymId, RankedBody)> = program
            .show_terms
            .iter()
            .map(|show| (show.term, self.ranked_body(&show.body)))
            .collect();
        symbols.sort_by_order(&mut terms, |&(term, _)| term);
        // Instances of one term are adjacent; order them by body.
        for same_term in terms.chunk_by_mut(|a, b| a.0 == b.0) {
            same_term.sort_by(|a, b| a.1.cmp(&b.1));
        }
        terms.dedup();
        for (term, body) in &terms {
            write!(out, "#show {}", symbols.display(*term))?;
            if !body.is_empty() {
                out.write_all(b":")?;
                self.body(out, body)?;
            }
            out.write_all(b".\n")?;
        }
        Ok(())
    }
}
