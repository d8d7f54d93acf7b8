//! The emission of the Clark completion, step by step over one
//! [`Analysis`] of the program (see the module doc of [`super`] for the
//! clauses themselves):
//!
//! 1. [`atom_variables`]: a variable per atom that is not a fact, shared
//!    by the atoms the completion makes equivalent ([`aliases`]), one more
//!    shared by the facts and fixed true;
//! 2. [`Completion::rules`]: constraints, and the support bodies of normal
//!    rules, shifted disjunctions and choice elements, with the
//!    cardinality constraints of choice bounds;
//! 3. [`Completion::aggregates`]: aggregate atoms defined by equivalences,
//!    those on a cycle kept apart as recursive aggregates;
//! 4. [`Completion::supports`]: `body → head` for the bodies that force
//!    their head, and `atom → ⋁ bodies` for every atom;
//! 5. [`Completion::edges`], [`Completion::show_terms`] and
//!    [`Completion::objective`]: `#edge`'s acyclicity, the show terms'
//!    conditions and the objective's levels;
//! 6. [`shown_symbols`]: one condition per shown symbol.
//!
//! Invariants: variables and clauses are created in this order, so that
//! a program's CNF is always the same; every Tseitin variable is defined in
//! both directions; each step counts what it writes in
//! [`TranslationStats`]. No step calls a solver.

use super::aggregates::{self, RecursiveAggregate, SumForm};
use super::analysis::Analysis;
use super::bodies::{Bodies, BodyBuilder};
use super::encoding::AtLeast;
use super::exclusive::{ExclusiveSets, is_exclusive_choice};
use super::native_sums::{NativeSum, ReifiedSum};
use super::unread::UnreadAtoms;
use super::{
    BodyId, ClauseSink, ClauseWriter, Cond, CostTerms, SumEncoding, Translation, TranslationStats,
    acyclicity, aliases, cardinality, gates, minimality, ranking,
};
use crate::ground::program::{
    AtomId, Body, ChoiceElement, CountBounds, GroundProgram, Head, element_lists,
};
use crate::symbols::SymId;
use rustc_hash::FxHashMap;
use std::rc::Rc;
use varisat_formula::{ExtendFormula, Lit, Var};

/// An aggregate's elements translated: per element, its conditions' bodies,
/// and the condition that one of them holds.
type ElementConds = (Vec<Vec<BodyId>>, Vec<Cond>);

/// The Clark completion of `program`, its shown symbols and statistics,
/// written into `sink`, its sums as `sums` says, without the rules and
/// aggregates of the `unread` atoms (which get no support: false); no loop
/// index, no ranking.
pub(super) fn complete<S: ClauseSink>(
    program: &GroundProgram,
    analysis: &Analysis,
    sums: SumEncoding,
    unread: UnreadAtoms,
    sink: &mut S,
) -> Translation {
    let minimality = minimality::MinimalityCheck::new(program, analysis);
    let mut writer = ClauseWriter::new(sink);
    let mut stats = TranslationStats::default();
    let representatives = aliases::representatives(program, &unread, &minimality);
    let (atom_vars, facts) = atom_variables(program, &unread, &representatives, &mut writer);
    stats.atom_variables = writer.vars();
    stats.equivalent_atoms = (representatives.iter().enumerate())
        .filter(|&(a, &r)| r as usize != a)
        .count();
    let capacity = program.rules.len() + program.show_terms.len();
    let exclusive = (analysis.exclusive_atoms()).map(|atom| atom_vars[atom.index()].positive());
    let mut completion = Completion {
        builder: BodyBuilder::new(atom_vars, Bodies::with_capacity(capacity)),
        writer,
        card_vars: 0,
        card_clauses: 0,
        supports: Vec::new(),
        native_choices: Vec::new(),
        clause: Vec::new(),
    };
    if facts {
        completion.fact_supports(program);
    }
    let choice_form = |index| {
        let native = sums != SumEncoding::Clauses && analysis.propagates_choice(index);
        SumForm::of(native, analysis.choice_by_network(index))
    };
    completion.rules(program, &unread, &exclusive, choice_form, &mut stats);
    let (recursive_aggregates, recursive_aggregate_of, mut native_sums) =
        completion.aggregates(program, analysis, sums, &exclusive, &unread, &mut stats);
    native_sums.append(&mut completion.native_choices);
    stats.native_sums = native_sums.len();
    let (support_start, support_bodies) = completion.supports(&recursive_aggregate_of, &unread);
    completion.edges(program, &mut stats);
    let show_terms = completion.show_terms(program);
    let costs = completion.objective(program, &mut stats);

    let Completion {
        builder,
        mut writer,
        card_vars,
        card_clauses,
        ..
    } = completion;
    stats.body_variables = builder.body_variables;
    stats.cardinality_variables = card_vars;
    stats.cardinality_clauses = card_clauses;
    stats.completion_clauses = writer.clauses()
        - card_clauses
        - stats.aggregate_clauses
        - stats.objective_clauses
        - stats.acyclicity_clauses;

    let (atom_vars, mut bodies) = builder.finish();
    let (vars, clauses) = (writer.vars(), writer.clauses());
    let shown = shown_symbols(program, &atom_vars, &show_terms, &mut writer);
    stats.show_variables = writer.vars() - vars;
    stats.show_clauses = writer.clauses() - clauses;
    let mut unread = unread;
    unread.locate_shown(program, &shown);

    bodies.freeze();
    Translation {
        atom_vars,
        bodies,
        support_start,
        support_bodies,
        show_terms,
        shown,
        tight: analysis.is_tight(),
        exact: false,
        ranking: ranking::RankingSummary::default(),
        loop_index: None,
        recursive_aggregates,
        recursive_aggregate_of,
        minimality,
        costs,
        exclusive,
        native_sums,
        unread,
        stats,
    }
}

/// One variable per atom in the order of atoms, the facts sharing one
/// fixed true by a unit clause, the unread atoms one fixed false, and
/// equivalent atoms their representative's ([`aliases::representatives`]);
/// and whether there are facts.
fn atom_variables<S: ExtendFormula>(
    program: &GroundProgram,
    unread: &UnreadAtoms,
    representatives: &[u32],
    writer: &mut ClauseWriter<S>,
) -> (Vec<Var>, bool) {
    let mut atom_vars: Vec<Var> = vec![Var::from_index(0); program.atoms.len()];
    let (mut truth, mut falsity) = (None, None);
    let shared = |fixed: &mut Option<Var>, value: bool, writer: &mut ClauseWriter<S>| {
        *fixed.get_or_insert_with(|| {
            let var = writer.new_var();
            writer.add_clause(&[var.lit(value)]);
            var
        })
    };
    for (a, atom) in program.atoms.iter().enumerate() {
        let var = if atom.fact {
            shared(&mut truth, true, writer)
        } else if unread.is_unread(AtomId(a as u32)) {
            shared(&mut falsity, false, writer)
        } else if representatives[a] as usize == a {
            writer.new_var()
        } else {
            continue; // its representative's, below
        };
        atom_vars[a] = var;
    }
    for (a, &representative) in representatives.iter().enumerate() {
        atom_vars[a] = atom_vars[representative as usize];
    }
    (atom_vars, truth.is_some())
}

/// The state the emission steps share.
struct Completion<'s, S> {
    builder: BodyBuilder,
    writer: ClauseWriter<'s, S>,
    /// Variables and clauses of the choice bounds' counters.
    card_vars: usize,
    card_clauses: usize,
    /// (atom, body, whether the body forces the atom).
    supports: Vec<(u32, u32, bool)>,
    /// The bounds of the choices left to the search.
    native_choices: Vec<ReifiedSum>,
    /// Scratch space for a clause.
    clause: Vec<Lit>,
}

impl<S: ClauseSink> Completion<'_, S> {
    /// A fact is supported by the empty body; its variable is true already.
    fn fact_supports(&mut self, program: &GroundProgram) {
        let empty = self.builder.intern_body(&Body::default(), &mut self.writer);
        for (a, atom) in program.atoms.iter().enumerate() {
            if atom.fact {
                self.supports.push((a as u32, empty.0, false));
            }
        }
    }

    /// Constraints as clauses; the support bodies of normal rules, of each
    /// head of a disjunction shifted, and of choice elements, with the
    /// counters of choice bounds, in the form `choice_form` gives each rule
    /// (by index).
    fn rules(
        &mut self,
        program: &GroundProgram,
        unread: &UnreadAtoms,
        exclusive: &ExclusiveSets,
        choice_form: impl Fn(usize) -> SumForm,
        stats: &mut TranslationStats,
    ) {
        let mut others: Vec<AtomId> = Vec::new();
        for (index, rule) in program.rules.iter().enumerate() {
            match &rule.head {
                Head::Atom(head) if unread.is_unread(*head) => {}
                Head::Constraint => {
                    let atom_vars = self.builder.atom_vars();
                    self.clause.clear();
                    (self.clause).extend(
                        (rule.body.pos().iter()).map(|&a| !atom_vars[a.index()].positive()),
                    );
                    (self.clause)
                        .extend((rule.body.neg().iter()).map(|&a| atom_vars[a.index()].positive()));
                    self.writer.add_clause(&self.clause);
                }
                Head::Atom(head) => {
                    let body = self.builder.intern_body(&rule.body, &mut self.writer);
                    self.supports.push((head.0, body.0, true));
                }
                Head::Disjunction(heads) => {
                    stats.shifted_disjunctions += 1;
                    for &head in heads {
                        others.clear();
                        others.extend(heads.iter().copied().filter(|&h| h != head));
                        let body =
                            (self.builder).intern_and(&rule.body, &[], &others, &mut self.writer);
                        self.supports.push((head.0, body.0, true));
                    }
                }
                Head::Choice(choice) => {
                    let no_sets = ExclusiveSets::default();
                    let sets = if is_exclusive_choice(rule) {
                        &no_sets
                    } else {
                        exclusive
                    };
                    let bounds = (&choice.bounds, choice_form(index));
                    self.choice(&rule.body, &choice.elements, bounds, sets);
                }
            }
        }
    }

    /// A choice rule: the support bodies of each element's conditions, and
    /// its bounds unless every number of elements satisfies them, in the
    /// form `bounds.1`.
    fn choice(
        &mut self,
        body: &Body,
        elements: &[ChoiceElement],
        (bounds, form): (&CountBounds, SumForm),
        exclusive: &ExclusiveSets,
    ) {
        let mut element_bodies: Vec<Vec<BodyId>> = Vec::with_capacity(elements.len());
        for element in elements {
            let mut ids = Vec::with_capacity(element.conditions.len());
            for condition in &element.conditions {
                let support = if condition.is_empty() {
                    self.builder.intern_body(body, &mut self.writer)
                } else {
                    (self.builder).intern_and(
                        body,
                        condition.pos(),
                        condition.neg(),
                        &mut self.writer,
                    )
                };
                self.supports.push((element.value.0, support.0, false));
                ids.push(support);
            }
            element_bodies.push(ids);
        }
        let n = elements.len() as u32;
        let trivial = bounds.lower == 0 && bounds.upper_bound().is_none_or(|u| u >= n);
        if !trivial {
            let guard = self.builder.intern_body(body, &mut self.writer);
            let guard = self.builder.bodies.cond(guard);
            if guard != Cond::False {
                let bounds = (bounds, form);
                self.choice_bounds(elements, &element_bodies, bounds, guard, exclusive);
            }
        }
    }

    /// The bounds of a choice over its elements, under `guard`: an element
    /// with conditions counts as `e ↔ atom ∧ (c1 ∨ … ∨ ck)`. In the form
    /// `bounds.1`: a counter (or a diagram over exclusive sets), a sorting
    /// network, or a [`NativeSum`] left to the search.
    fn choice_bounds(
        &mut self,
        elements: &[ChoiceElement],
        element_bodies: &[Vec<BodyId>],
        (bounds, form): (&CountBounds, SumForm),
        guard: Cond,
        exclusive: &ExclusiveSets,
    ) {
        let writer = &mut self.writer;
        let (vars, clauses) = (writer.vars(), writer.clauses());
        let mut inputs = Vec::with_capacity(elements.len());
        for (element, ids) in elements.iter().zip(element_bodies) {
            let atom = self.builder.atom_vars()[element.value.index()].positive();
            if element.is_unconditional() {
                inputs.push(atom);
                continue;
            }
            let conds: Vec<Cond> = ids.iter().map(|id| self.builder.bodies.cond(*id)).collect();
            if conds.contains(&Cond::True) {
                inputs.push(atom);
                continue;
            }
            let lits: Vec<Lit> = conds.iter().filter_map(|c| c.lit()).collect();
            if lits.is_empty() {
                continue; // the element can never hold
            }
            // e ↔ atom ∧ (c1 ∨ … ∨ ck)
            let e = writer.new_var().positive();
            writer.add_clause(&[!e, atom]);
            self.clause.clear();
            self.clause.push(!e);
            self.clause.extend(&lits);
            writer.add_clause(&self.clause);
            for &c in &lits {
                writer.add_clause(&[!atom, !c, e]);
            }
            inputs.push(e);
        }
        let (lower, upper) = (bounds.lower, bounds.upper_bound());
        if form == SumForm::Native {
            let counted: Vec<(Cond, i64)> = inputs.iter().map(|&x| (Cond::Lit(x), 1)).collect();
            let mut sum = NativeSum::new(&counted);
            let mut gates = gates::Gates { sink: &mut *writer };
            let at_least = sum.at_least(i64::from(lower), &mut gates);
            let more = upper.map(|u| sum.at_least(i64::from(u) + 1, &mut gates));
            cardinality::require_bounds(Some(at_least), more, guard, writer);
            self.native_choices.extend(sum.into_reified());
        } else {
            cardinality::encode_bounds(
                &inputs,
                lower as usize,
                upper.map(|u| u as usize),
                guard,
                exclusive,
                form == SumForm::Network,
                writer,
            );
        }
        self.card_vars += writer.vars() - vars;
        self.card_clauses += writer.clauses() - clauses;
    }

    /// Aggregate atoms: defined by an equivalence with their aggregate and,
    /// off positive cycles, supported by the empty body, like a choice.
    /// Those on cycles have no support bodies: the unfounded-set check,
    /// loop formulas and ranking treat them as recursive aggregates,
    /// returned with each one's index by atom. With [`SumEncoding::Native`]
    /// the sums of the others are left to the search, and returned too.
    fn aggregates(
        &mut self,
        program: &GroundProgram,
        analysis: &Analysis,
        encoding: SumEncoding,
        exclusive: &ExclusiveSets,
        unread: &UnreadAtoms,
        stats: &mut TranslationStats,
    ) -> (
        Vec<RecursiveAggregate>,
        FxHashMap<AtomId, u32>,
        Vec<ReifiedSum>,
    ) {
        let mut recursive_aggregates = Vec::new();
        let mut recursive_aggregate_of = FxHashMap::default();
        if program.aggregates.is_empty() {
            return (recursive_aggregates, recursive_aggregate_of, Vec::new());
        }
        let (builder, writer) = (&mut self.builder, &mut self.writer);
        let empty = builder.intern_body(&Body::default(), writer);
        let (vars, clauses) = (writer.vars(), writer.clauses());
        let body_vars = builder.body_variables;
        // Aggregates over the same elements (an assignment `T = #sum{…}`
        // has one aggregate atom per value of `T`) share the elements'
        // conditions and the sums' diagrams: translated once per list
        // ([`element_lists`]), and shared by lists of the same conditions.
        let lists = element_lists(&program.aggregates);
        let mut list_conds: Vec<Option<Rc<ElementConds>>> = vec![None; program.aggregates.len()];
        let mut element_conds: FxHashMap<Vec<Vec<BodyId>>, Rc<ElementConds>> = FxHashMap::default();
        let mut sums = aggregates::SharedSums::new(exclusive);
        for (index, definition) in program.aggregates.iter().enumerate() {
            if unread.is_unread(definition.atom) {
                continue;
            }
            let shared = list_conds[lists[index]].get_or_insert_with(|| {
                let condition_bodies: Vec<Vec<BodyId>> = (definition.elements.iter())
                    .map(|element| {
                        (element.conditions.iter())
                            .map(|c| builder.intern_body(c, writer))
                            .collect()
                    })
                    .collect();
                (element_conds.entry(condition_bodies.clone()))
                    .or_insert_with(|| {
                        let conds = (condition_bodies.iter())
                            .map(|bodies| builder.any_body(bodies, writer))
                            .collect();
                        Rc::new((condition_bodies, conds))
                    })
                    .clone()
            });
            let (condition_bodies, elements) = &**shared;
            let atom = builder.atom_vars()[definition.atom.index()].positive();
            let recursive = analysis.on_cycle(definition.atom);
            let native = match encoding {
                SumEncoding::Clauses => false,
                SumEncoding::Native => analysis.propagates_sum(index),
                SumEncoding::EveryNative => !recursive,
            };
            let form = SumForm::of(native, analysis.sum_by_network(index));
            aggregates::define_aggregate(definition, atom, elements, form, &mut sums, writer);
            if recursive {
                recursive_aggregate_of.insert(definition.atom, recursive_aggregates.len() as u32);
                recursive_aggregates.push(RecursiveAggregate::new(
                    definition,
                    condition_bodies.clone(),
                ));
            } else {
                self.supports.push((definition.atom.0, empty.0, false));
            }
        }
        // Variables of condition bodies count as body variables, their
        // clauses as the aggregate's.
        stats.aggregate_variables = writer.vars() - vars - (builder.body_variables - body_vars);
        stats.aggregate_clauses = writer.clauses() - clauses;
        let native = sums.into_native();
        (recursive_aggregates, recursive_aggregate_of, native)
    }

    /// The supports sorted per atom, one entry per (atom, body), as CSR
    /// offsets and bodies; their clauses: `body → head` for the bodies
    /// that force their head, and `atom → ⋁ bodies` (recursive aggregate
    /// atoms are defined by their equivalence alone, unread atoms have
    /// neither).
    fn supports(
        &mut self,
        recursive_aggregate_of: &FxHashMap<AtomId, u32>,
        unread: &UnreadAtoms,
    ) -> (Vec<u32>, Vec<BodyId>) {
        let supports = &mut self.supports;
        supports.sort_unstable();
        supports.dedup_by(|later, earlier| {
            let same = later.0 == earlier.0 && later.1 == earlier.1;
            if same {
                earlier.2 |= later.2;
            }
            same
        });
        let atom_vars = self.builder.atom_vars();
        let atom_count = atom_vars.len();
        let mut support_start = vec![0u32; atom_count + 1];
        for &(atom, _, _) in supports.iter() {
            support_start[atom as usize + 1] += 1;
        }
        for i in 0..atom_count {
            support_start[i + 1] += support_start[i];
        }
        let support_bodies: Vec<BodyId> = supports.iter().map(|s| BodyId(s.1)).collect();
        let bodies = &self.builder.bodies;
        // Rules: body → head.
        for &(atom, body, forces) in supports.iter() {
            if !forces {
                continue;
            }
            let head = atom_vars[atom as usize].positive();
            match bodies.cond(BodyId(body)) {
                Cond::True => self.writer.add_clause(&[head]),
                Cond::False => {}
                Cond::Lit(b) => self.writer.add_clause(&[!b, head]),
            }
        }
        // Support: atom → ∨ bodies.
        for (i, &var) in atom_vars.iter().enumerate() {
            // Unread atoms share a variable fixed false already.
            let atom = AtomId(i as u32);
            if recursive_aggregate_of.contains_key(&atom) || unread.is_unread(atom) {
                continue;
            }
            let range = support_start[i] as usize..support_start[i + 1] as usize;
            self.clause.clear();
            self.clause.push(!var.positive());
            let mut always = false;
            for body in &support_bodies[range] {
                match bodies.cond(*body) {
                    Cond::True => always = true,
                    Cond::False => {}
                    Cond::Lit(b) => self.clause.push(b),
                }
            }
            if !always {
                self.writer.add_clause(&self.clause);
            }
        }
        (support_start, support_bodies)
    }

    /// `#edge`: the present edges form an acyclic graph.
    fn edges(&mut self, program: &GroundProgram, stats: &mut TranslationStats) {
        if program.edges.is_empty() {
            return;
        }
        let writer = &mut self.writer;
        let (vars, clauses) = (writer.vars(), writer.clauses());
        let atom_vars = self.builder.atom_vars();
        let edges: Vec<(SymId, SymId, Cond)> = (program.edges.iter())
            .map(|&(u, v, atom)| (u, v, Cond::Lit(atom_vars[atom.index()].positive())))
            .collect();
        acyclicity::encode(&edges, &mut gates::Gates { sink: &mut *writer });
        stats.acyclicity_variables = writer.vars() - vars;
        stats.acyclicity_clauses = writer.clauses() - clauses;
    }

    /// The condition of each show term: its body.
    fn show_terms(&mut self, program: &GroundProgram) -> Vec<Cond> {
        (program.show_terms.iter())
            .map(|term| {
                let body = self.builder.intern_body(&term.body, &mut self.writer);
                self.builder.bodies.cond(body)
            })
            .collect()
    }

    /// The objective: each cost element holds when one of its conditions
    /// does.
    fn objective(
        &mut self,
        program: &GroundProgram,
        stats: &mut TranslationStats,
    ) -> Vec<CostTerms> {
        let (builder, writer) = (&mut self.builder, &mut self.writer);
        let (vars, clauses) = (writer.vars(), writer.clauses());
        let body_vars = builder.body_variables;
        let costs: Vec<CostTerms> = (program.costs.iter())
            .map(|level| CostTerms {
                priority: level.priority,
                terms: (level.elements.iter())
                    .map(|element| {
                        let bodies: Vec<BodyId> = (element.conditions.iter())
                            .map(|c| builder.intern_body(c, writer))
                            .collect();
                        (builder.any_body(&bodies, writer), element.value)
                    })
                    .collect(),
            })
            .collect();
        stats.objective_variables = writer.vars() - vars - (builder.body_variables - body_vars);
        stats.objective_clauses = writer.clauses() - clauses;
        costs
    }
}

/// One condition per distinct shown symbol: a shown atom's variable, a show
/// term's body, or a Tseitin disjunction when several sources show the
/// same symbol.
fn shown_symbols<S: ExtendFormula>(
    program: &GroundProgram,
    atom_vars: &[Var],
    show_terms: &[Cond],
    writer: &mut ClauseWriter<S>,
) -> Vec<(SymId, Cond)> {
    let mut sources: Vec<(SymId, Cond)> = program
        .atoms
        .iter()
        .zip(atom_vars)
        .filter(|(atom, _)| atom.shown)
        .map(|(atom, var)| (atom.symbol, Cond::Lit(var.positive())))
        .chain(
            program
                .show_terms
                .iter()
                .zip(show_terms)
                .map(|(term, &cond)| (term.term, cond)),
        )
        .filter(|&(_, cond)| cond != Cond::False)
        .collect();
    let symbols = &program.symbols;
    symbols.sort_by_order(&mut sources, |source| source.0);
    let mut shown = Vec::new();
    for group in sources.chunk_by(|x, y| x.0 == y.0) {
        let symbol = group[0].0;
        let mut lits: Vec<Lit> = Vec::new();
        let mut always = false;
        for &(_, cond) in group {
            match cond {
                Cond::True => always = true,
                Cond::Lit(lit) => lits.push(lit),
                Cond::False => {}
            }
        }
        lits.sort_unstable();
        lits.dedup();
        let cond = if always {
            Cond::True
        } else if let [lit] = lits[..] {
            Cond::Lit(lit)
        } else {
            // s ↔ l1 ∨ … ∨ lk
            let s = writer.new_var().positive();
            for &lit in &lits {
                writer.add_clause(&[!lit, s]);
            }
            let mut long = lits.clone();
            long.push(!s);
            writer.add_clause(&long);
            Cond::Lit(s)
        };
        shown.push((symbol, cond));
    }
    shown
}
