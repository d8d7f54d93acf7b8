//! Ground program to CNF.
//!
//! The translation is the Clark completion of the ground program (see
//! `/work/shared/design/recipes.md`, "Translation to CNF"):
//!
//! - every atom that is not a fact gets a variable of its own, in the order
//!   of atoms; the facts share one more variable, fixed true by a unit
//!   clause, and are supported by the empty body;
//! - every distinct body gets one Tseitin variable defined in both
//!   directions; a body of one literal is that literal, the empty body is
//!   true and a body with `a` and `not a` is false ([`Cond`]);
//! - a normal rule gives `body → head`, a constraint `¬body`, and every atom
//!   is implied to have a true support body (Clark's "only if" direction);
//!   choice elements give support only, a choice element with conditions is
//!   supported by `body ∧ condition`;
//! - count bounds of choice rules are encoded with Sinz's sequential counter
//!   ([`cardinality`]);
//! - disjunctions are shifted; in a component that is not head-cycle-free
//!   shifting loses answer sets, and [`minimality`] checks the models there
//!   (the exact translation refuses such components).
//!
//! Every auxiliary variable is functionally determined by the atom
//! variables, so the CNF has exactly one model per model of the completion.
//! For non-tight programs the completion has more models than the program
//! has answer sets; [`loops`] computes the loop formulas that cut the
//! unfounded ones away, lazily, one candidate model at a time.
//! [`translate_exact`] instead adds a level ranking ([`ranking`]) so that the
//! CNF's models are exactly the answer sets, one model each, and gives every
//! shown symbol a positive variable: the CNF that `asp2sat dimacs` exports.
//!
//! [`translate`] and [`translate_exact`] only write clauses into a varisat
//! [`ExtendFormula`] sink; they never call a solver.

mod acyclicity;
mod aggregates;
mod bdd;
mod bodies;
pub mod cardinality;
mod encoding;
mod gates;
pub mod loops;
pub mod minimality;
pub mod objective;
pub mod ranking;
#[cfg(test)]
pub(crate) mod testing;

use crate::diagnostics::Diagnostic;
use crate::ground::program::{AtomId, Body, Direction, GroundProgram, Head};
use crate::symbols::SymId;
use aggregates::RecursiveAggregate;
use rustc_hash::FxHashMap;
use varisat_formula::{ExtendFormula, Lit, Var};

/// The truth of a body or condition in the CNF: a literal, or a constant.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Cond {
    /// The empty body.
    True,
    /// A body containing both `a` and `not a`.
    False,
    Lit(Lit),
}

impl std::ops::Not for Cond {
    type Output = Cond;

    fn not(self) -> Cond {
        match self {
            Cond::True => Cond::False,
            Cond::False => Cond::True,
            Cond::Lit(lit) => Cond::Lit(!lit),
        }
    }
}

impl Cond {
    pub fn lit(self) -> Option<Lit> {
        match self {
            Cond::Lit(lit) => Some(lit),
            _ => None,
        }
    }

    /// The value under an assignment of the CNF variables, given as a
    /// function from variable to value.
    pub fn value(self, var_value: impl Fn(Var) -> bool) -> bool {
        match self {
            Cond::True => true,
            Cond::False => false,
            Cond::Lit(lit) => var_value(lit.var()) == lit.is_positive(),
        }
    }
}

/// Index of a distinct body in a [`Translation`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct BodyId(pub u32);

impl BodyId {
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// Sizes of the CNF by origin.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TranslationStats {
    /// One per atom that is not a fact, and one shared by all facts.
    pub atom_variables: usize,
    /// Tseitin variables of bodies with two or more literals.
    pub body_variables: usize,
    /// Element variables and registers of the sequential counters.
    pub cardinality_variables: usize,
    /// Disjunctions of several show sources for one shown symbol.
    pub show_variables: usize,
    /// Element disjunctions, BDD nodes and guard gates of body aggregates
    /// (the clauses include those defining their condition bodies).
    pub aggregate_variables: usize,
    pub aggregate_clauses: usize,
    /// Body definitions, rules, constraints and support clauses.
    pub completion_clauses: usize,
    pub cardinality_clauses: usize,
    pub show_clauses: usize,
    /// Disjunctive rules that were shifted.
    pub shifted_disjunctions: usize,
    /// Rank bits, comparators and support variables of the level ranking
    /// ([`translate_exact`] only).
    pub ranking_variables: usize,
    pub ranking_clauses: usize,
    /// Disjunctions of the conditions of cost elements.
    pub objective_variables: usize,
    pub objective_clauses: usize,
    /// Reachability variables and gates of `#edge` directives.
    pub acyclicity_variables: usize,
    pub acyclicity_clauses: usize,
}

impl TranslationStats {
    pub fn variables(&self) -> usize {
        self.atom_variables
            + self.body_variables
            + self.cardinality_variables
            + self.show_variables
            + self.aggregate_variables
            + self.ranking_variables
            + self.objective_variables
            + self.acyclicity_variables
    }

    pub fn clauses(&self) -> usize {
        self.completion_clauses
            + self.cardinality_clauses
            + self.show_clauses
            + self.aggregate_clauses
            + self.ranking_clauses
            + self.objective_clauses
            + self.acyclicity_clauses
    }
}

/// [`Translation::support_components`]: each atom's component, numbered in
/// Tarjan's order (a component depends only on components numbered lower),
/// and each component's size.
pub(crate) struct SupportComponents {
    pub(crate) component: Vec<u32>,
    pub(crate) size: Vec<usize>,
}

impl SupportComponents {
    /// Whether `atom` is alone in its component and one of its supports
    /// holds it positively (`a :- a, B.`).
    pub(crate) fn self_loop(&self, translation: &Translation, atom: AtomId) -> bool {
        self.size[self.component[atom.index()] as usize] == 1
            && (translation.supports(atom).iter()).any(|&b| translation.body_pos(b).contains(&atom))
    }
}

/// What later stages need to know about the CNF written by [`translate`].
#[derive(Clone, Debug)]
pub struct Translation {
    atom_vars: Vec<Var>,
    /// Every distinct body (rule bodies, shifted bodies, `body ∧ condition`
    /// of choice elements, show-term bodies), indexed by [`BodyId`].
    bodies: bodies::Bodies,
    /// Per atom (CSR offsets into `support_bodies`): its support bodies,
    /// sorted and distinct.
    support_start: Vec<u32>,
    support_bodies: Vec<BodyId>,
    /// Per program show term.
    show_terms: Vec<Cond>,
    /// One entry per distinct shown symbol, sorted by clingo's term order.
    shown: Vec<(SymId, Cond)>,
    tight: bool,
    /// Whether the level ranking was added ([`translate_exact`]).
    exact: bool,
    ranking: ranking::RankingSummary,
    /// Indexes for the unfounded-set computation; only for non-tight
    /// programs translated lazily.
    loop_index: Option<loops::LoopIndex>,
    /// The aggregate atoms on positive cycles, which have no support
    /// bodies, and each one's index among them.
    recursive_aggregates: Vec<RecursiveAggregate>,
    recursive_aggregate_of: FxHashMap<AtomId, u32>,
    /// The components that are not head-cycle-free, whose stability the
    /// solver checks by a search for unfounded sets.
    minimality: minimality::MinimalityCheck,
    /// The objective, one level per priority, highest first.
    costs: Vec<CostTerms>,
    stats: TranslationStats,
}

/// One priority level of the objective in the CNF: its cost is the sum of
/// the weights of the true conditions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CostTerms {
    pub priority: i64,
    pub terms: Vec<(Cond, i64)>,
}

impl CostTerms {
    /// The level as soft literals, each wanted true and its weight paid
    /// when it is false, and the cost paid whatever holds: a positive
    /// weight on a condition `c` is paid when `c` holds (the literal `¬c`);
    /// a negative one is counted as paid, and saved when `c` does not hold
    /// (the literal `c`, of the opposite weight); a certain condition's
    /// weight is paid always. The least cost of the level is that constant.
    pub fn soft_literals(&self) -> (Vec<(Lit, u64)>, i64) {
        let mut soft = Vec::new();
        let mut always = 0;
        for &(cond, weight) in &self.terms {
            match cond {
                Cond::False => {}
                Cond::True => always += weight,
                Cond::Lit(_) if weight == 0 => {}
                Cond::Lit(lit) if weight > 0 => soft.push((!lit, weight.unsigned_abs())),
                Cond::Lit(lit) => {
                    always += weight;
                    soft.push((lit, weight.unsigned_abs()));
                }
            }
        }
        (soft, always)
    }

    /// The cost under an assignment of the CNF variables.
    pub fn value(&self, var_value: impl Fn(Var) -> bool) -> i64 {
        (self.terms.iter())
            .filter(|(cond, _)| cond.value(&var_value))
            .map(|(_, weight)| weight)
            .sum()
    }
}

impl Translation {
    pub fn atom_count(&self) -> usize {
        self.atom_vars.len()
    }

    pub fn atom_var(&self, atom: AtomId) -> Var {
        self.atom_vars[atom.index()]
    }

    pub fn atom_lit(&self, atom: AtomId) -> Lit {
        self.atom_vars[atom.index()].positive()
    }

    pub fn atom_vars(&self) -> &[Var] {
        &self.atom_vars
    }

    pub fn body_count(&self) -> usize {
        self.bodies.len()
    }

    /// The positive atoms of a body, sorted.
    pub fn body_pos(&self, body: BodyId) -> &[AtomId] {
        self.bodies.pos(body)
    }

    /// The default-negated atoms of a body, sorted.
    pub fn body_neg(&self, body: BodyId) -> &[AtomId] {
        self.bodies.neg(body)
    }

    /// Whether a body holds in `model` (one value per atom).
    pub fn body_holds(&self, body: BodyId, model: &[bool]) -> bool {
        self.body_pos(body).iter().all(|a| model[a.index()])
            && !self.body_neg(body).iter().any(|a| model[a.index()])
    }

    /// The literal (or constant) standing for a body.
    pub fn body_cond(&self, body: BodyId) -> Cond {
        self.bodies.cond(body)
    }

    /// The aggregate atoms on positive cycles.
    pub(crate) fn recursive_aggregates(&self) -> &[RecursiveAggregate] {
        &self.recursive_aggregates
    }

    /// The recursive aggregate that defines `atom`, if any (such an atom
    /// has no support bodies).
    pub(crate) fn recursive_aggregate(&self, atom: AtomId) -> Option<&RecursiveAggregate> {
        let &index = self.recursive_aggregate_of.get(&atom)?;
        Some(&self.recursive_aggregates[index as usize])
    }

    /// The bodies of the rules that can derive `atom`: normal rules, shifted
    /// disjunctions and, for choice elements, `body ∧ condition`.
    pub fn supports(&self, atom: AtomId) -> &[BodyId] {
        let i = atom.index();
        &self.support_bodies[self.support_start[i] as usize..self.support_start[i + 1] as usize]
    }

    /// The strongly connected components of the positive dependency graph
    /// over the support bodies: an atom depends on the positive atoms of its
    /// supports and on the atoms that can raise its recursive aggregate.
    pub(crate) fn support_components(&self) -> SupportComponents {
        let n = self.atom_count();
        let mut offsets = Vec::with_capacity(n + 1);
        let mut targets: Vec<u32> = Vec::new();
        offsets.push(0);
        for a in 0..n as u32 {
            for &body in self.supports(AtomId(a)) {
                targets.extend(self.body_pos(body).iter().map(|p| p.0));
            }
            if let Some(aggregate) = self.recursive_aggregate(AtomId(a)) {
                targets.extend(aggregate.rising_atoms(self).map(|p| p.0));
            }
            offsets.push(targets.len());
        }
        let components = crate::graph::tarjan(n, &offsets, &targets);
        let mut size = vec![0usize; components.count];
        for &c in &components.component {
            size[c as usize] += 1;
        }
        SupportComponents {
            component: components.component,
            size,
        }
    }

    /// The condition of the `index`-th show term of the program.
    pub fn show_term(&self, index: usize) -> Cond {
        self.show_terms[index]
    }

    /// Every symbol that can be shown, once, sorted by clingo's term order,
    /// with the condition under which it is shown (a shown atom, or any of
    /// the show terms for that symbol). Symbols that can never be shown are
    /// left out.
    pub fn shown(&self) -> &[(SymId, Cond)] {
        &self.shown
    }

    /// Whether the positive dependency graph is acyclic; then the models of
    /// the completion are exactly the answer sets.
    pub fn is_tight(&self) -> bool {
        self.tight
    }

    /// Whether this is the exact translation ([`translate_exact`]): its
    /// models are the answer sets, one model each, and every shown symbol's
    /// condition is a positive literal.
    pub fn is_exact(&self) -> bool {
        self.exact
    }

    /// Whether a model of the CNF can be unfounded, so that loop formulas
    /// must be checked: non-tight programs translated lazily.
    pub fn needs_loop_formulas(&self) -> bool {
        !self.tight && !self.exact
    }

    /// The stability check of the components that are not head-cycle-free
    /// (empty when every component is).
    pub fn minimality(&self) -> &minimality::MinimalityCheck {
        &self.minimality
    }

    /// What the level ranking added (all zero unless exact).
    pub fn ranking(&self) -> &ranking::RankingSummary {
        &self.ranking
    }

    pub fn stats(&self) -> &TranslationStats {
        &self.stats
    }

    /// The objective, one level per priority from the highest down; empty
    /// when the program does not optimize.
    pub fn costs(&self) -> &[CostTerms] {
        &self.costs
    }
}

/// Adds clauses to a sink after dropping duplicate literals and tautologies,
/// and counts what it adds.
pub(crate) struct ClauseWriter<'s, S> {
    sink: &'s mut S,
    vars: usize,
    clauses: usize,
    buffer: Vec<Lit>,
}

impl<'s, S: ExtendFormula> ClauseWriter<'s, S> {
    pub(crate) fn new(sink: &'s mut S) -> Self {
        ClauseWriter {
            sink,
            vars: 0,
            clauses: 0,
            buffer: Vec::new(),
        }
    }

    pub(crate) fn vars(&self) -> usize {
        self.vars
    }

    pub(crate) fn clauses(&self) -> usize {
        self.clauses
    }
}

impl<S: ExtendFormula> ExtendFormula for ClauseWriter<'_, S> {
    fn add_clause(&mut self, lits: &[Lit]) {
        self.buffer.clear();
        self.buffer.extend_from_slice(lits);
        if normalize_clause(&mut self.buffer) {
            self.sink.add_clause(&self.buffer);
            self.clauses += 1;
        }
    }

    fn new_var(&mut self) -> Var {
        self.vars += 1;
        self.sink.new_var()
    }
}

/// Sorts a clause and drops duplicate literals. Returns false when the
/// clause is a tautology (contains a literal and its negation).
pub fn normalize_clause(lits: &mut Vec<Lit>) -> bool {
    lits.sort_unstable();
    lits.dedup();
    // `x` and `¬x` are adjacent once sorted by code.
    !lits.windows(2).any(|w| w[0] == !w[1])
}

/// Translates a ground program into clauses added to `sink`.
///
/// Never fails: components that are not head-cycle-free, or hold a
/// non-monotone recursive aggregate, are translated by their completion,
/// and [`Translation::minimality`] checks their models.
pub fn translate(
    program: &GroundProgram,
    sink: &mut impl ExtendFormula,
) -> Result<Translation, Diagnostic> {
    let mut translation = completion(program, sink, false)?;
    if !translation.tight {
        translation.loop_index = Some(loops::LoopIndex::new(&translation));
    }
    Ok(translation)
}

/// Translates a ground program into a CNF whose models correspond one to
/// one to its answer sets: the completion of [`translate`], plus the level
/// ranking of [`ranking`] for non-tight programs, plus a positive variable
/// for every shown symbol (a shown symbol whose condition is a negative
/// literal or a constant gets a new variable defined as it).
///
/// Every auxiliary variable is functionally determined by the atoms, so the
/// number of models (no projection) is the number of answer sets, and the
/// models projected to the shown symbols' variables are the distinct
/// visible sets. Fails, before writing anything, when a component is not
/// head-cycle-free or holds a non-monotone recursive aggregate.
pub fn translate_exact(
    program: &GroundProgram,
    sink: &mut impl ExtendFormula,
) -> Result<Translation, Diagnostic> {
    let mut translation = completion(program, sink, true)?;
    let mut writer = ClauseWriter::new(sink);
    if !translation.tight {
        translation.ranking = ranking::encode(&translation, &mut writer);
    }
    translation.stats.ranking_variables = writer.vars();
    translation.stats.ranking_clauses = writer.clauses();
    let (vars, clauses) = (writer.vars(), writer.clauses());
    let mut defined: rustc_hash::FxHashMap<Cond, Lit> = Default::default();
    for (_, cond) in translation.shown.iter_mut() {
        if let Cond::Lit(lit) = *cond
            && lit.is_positive()
        {
            continue;
        }
        if let Some(&lit) = defined.get(cond) {
            *cond = Cond::Lit(lit);
            continue;
        }
        // s ↔ cond
        let s = writer.new_var().positive();
        match *cond {
            Cond::True => writer.add_clause(&[s]),
            Cond::False => writer.add_clause(&[!s]),
            Cond::Lit(lit) => {
                writer.add_clause(&[!s, lit]);
                writer.add_clause(&[s, !lit]);
            }
        }
        defined.insert(*cond, s);
        *cond = Cond::Lit(s);
    }
    translation.stats.show_variables += writer.vars() - vars;
    translation.stats.show_clauses += writer.clauses() - clauses;
    translation.exact = true;
    Ok(translation)
}

/// The Clark completion, shown symbols and statistics; no loop index.
/// With `exact`, fails when a component is not head-cycle-free or holds a
/// non-monotone recursive aggregate ([`NOT_EXACT`]).
fn completion(
    program: &GroundProgram,
    sink: &mut impl ExtendFormula,
    exact: bool,
) -> Result<Translation, Diagnostic> {
    let atom_count = program.atoms.len();
    let graph = positive_graph(program);
    let components = crate::graph::tarjan(atom_count, &graph.offsets, &graph.targets);
    let cyclic = cyclic_components(&components, &graph);
    let tight = !cyclic.iter().any(|&c| c);
    let cycles = head_cycles(program, &components);
    if exact && let Some(cycle) = cycles.values().next() {
        return Err(Diagnostic::error(
            cycle.origin,
            format!(
                "disjunctive rule is not head-cycle-free: {}; {NOT_EXACT}",
                cycle.describe(program)
            ),
        ));
    }
    let mut nonmonotone = nonmonotone_aggregates(program, &components, &cyclic);
    if exact && let Some((_, error)) = nonmonotone.pop_first() {
        return Err(error);
    }
    // The components to check, each with whether it holds a non-monotone
    // aggregate.
    let mut checked: std::collections::BTreeMap<u32, bool> =
        cycles.keys().map(|&c| (c, false)).collect();
    checked.extend(nonmonotone.keys().map(|&c| (c, true)));
    let minimality = if checked.is_empty() {
        minimality::MinimalityCheck::default()
    } else {
        minimality::MinimalityCheck::new(program, &components, &checked)
    };
    drop(graph);
    let on_cycle = |atom: AtomId| cyclic[components.component[atom.index()] as usize];

    let mut writer = ClauseWriter::new(sink);
    let mut stats = TranslationStats::default();
    let mut atom_vars: Vec<Var> = Vec::with_capacity(atom_count);
    let mut truth = None;
    for atom in &program.atoms {
        let var = match (atom.fact, truth) {
            (true, Some(var)) => var,
            (true, None) => {
                let var = writer.new_var();
                writer.add_clause(&[var.positive()]);
                truth = Some(var);
                var
            }
            (false, _) => writer.new_var(),
        };
        atom_vars.push(var);
    }
    stats.atom_variables = writer.vars();

    let mut builder = Builder {
        atom_vars: &atom_vars,
        bodies: bodies::Bodies::with_capacity(program.rules.len() + program.show_terms.len()),
        body_variables: 0,
        card_vars: 0,
        card_clauses: 0,
        pos: Vec::new(),
        neg: Vec::new(),
    };
    let mut others: Vec<AtomId> = Vec::new();
    // (atom, body, whether the body forces the atom). A fact is supported
    // by the empty body; its variable is true already.
    let mut supports: Vec<(u32, u32, bool)> = Vec::new();
    if truth.is_some() {
        let empty = builder.intern_body(&Body::default(), &mut writer);
        for (a, atom) in program.atoms.iter().enumerate() {
            if atom.fact {
                supports.push((a as u32, empty.0, false));
            }
        }
    }
    let mut clause = Vec::new();
    for rule in &program.rules {
        match &rule.head {
            Head::Constraint => {
                clause.clear();
                clause.extend(
                    rule.body
                        .pos
                        .iter()
                        .map(|&a| !atom_vars[a.index()].positive()),
                );
                clause.extend(
                    rule.body
                        .neg
                        .iter()
                        .map(|&a| atom_vars[a.index()].positive()),
                );
                writer.add_clause(&clause);
            }
            Head::Atom(head) => {
                let body = builder.intern_body(&rule.body, &mut writer);
                supports.push((head.0, body.0, true));
            }
            Head::Disjunction(heads) => {
                stats.shifted_disjunctions += 1;
                for &head in heads {
                    others.clear();
                    others.extend(heads.iter().copied().filter(|&h| h != head));
                    let body = builder.intern_and(&rule.body, &[], &others, &mut writer);
                    supports.push((head.0, body.0, true));
                }
            }
            Head::Choice { elements, bounds } => {
                // Per element: the support bodies of its conditions.
                let mut element_bodies: Vec<Vec<BodyId>> = Vec::with_capacity(elements.len());
                for element in elements {
                    let mut ids = Vec::with_capacity(element.conditions.len());
                    for condition in &element.conditions {
                        let body = if condition.is_empty() {
                            builder.intern_body(&rule.body, &mut writer)
                        } else {
                            builder.intern_and(
                                &rule.body,
                                &condition.pos,
                                &condition.neg,
                                &mut writer,
                            )
                        };
                        supports.push((element.value.0, body.0, false));
                        ids.push(body);
                    }
                    element_bodies.push(ids);
                }
                let n = elements.len() as u32;
                let trivial = bounds.lower == 0 && bounds.upper.is_none_or(|u| u >= n);
                if !trivial {
                    let guard = builder.intern_body(&rule.body, &mut writer);
                    let guard = builder.bodies.cond(guard);
                    if guard != Cond::False {
                        let (vars, clauses) = (writer.vars(), writer.clauses());
                        let mut inputs = Vec::with_capacity(elements.len());
                        for (element, ids) in elements.iter().zip(&element_bodies) {
                            let atom = atom_vars[element.value.index()].positive();
                            if element.is_unconditional() {
                                inputs.push(atom);
                                continue;
                            }
                            let conds: Vec<Cond> =
                                ids.iter().map(|id| builder.bodies.cond(*id)).collect();
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
                            clause.clear();
                            clause.push(!e);
                            clause.extend(&lits);
                            writer.add_clause(&clause);
                            for &c in &lits {
                                writer.add_clause(&[!atom, !c, e]);
                            }
                            inputs.push(e);
                        }
                        cardinality::encode_bounds(
                            &inputs,
                            bounds.lower as usize,
                            bounds.upper.map(|u| u as usize),
                            guard,
                            &mut writer,
                        );
                        builder.card_vars += writer.vars() - vars;
                        builder.card_clauses += writer.clauses() - clauses;
                    }
                }
            }
        }
    }

    // Aggregate atoms: supported by the empty body, like a choice, and
    // defined by an equivalence with their aggregate.
    // Those on positive cycles have no support bodies: the unfounded-set
    // check, loop formulas and ranking treat them as recursive aggregates.
    let mut recursive_aggregates = Vec::new();
    let mut recursive_aggregate_of = FxHashMap::default();
    if !program.aggregates.is_empty() {
        let empty = builder.intern_body(&Body::default(), &mut writer);
        let (vars, clauses) = (writer.vars(), writer.clauses());
        let body_vars = builder.body_variables;
        for definition in &program.aggregates {
            let condition_bodies: Vec<Vec<BodyId>> = definition
                .elements
                .iter()
                .map(|element| {
                    element
                        .conditions
                        .iter()
                        .map(|c| builder.intern_body(c, &mut writer))
                        .collect()
                })
                .collect();
            let elements: Vec<Cond> = condition_bodies
                .iter()
                .map(|bodies| builder.any_body(bodies, &mut writer))
                .collect();
            let atom = atom_vars[definition.atom.index()].positive();
            aggregates::define_aggregate(definition, atom, &elements, &mut writer);
            if on_cycle(definition.atom) {
                recursive_aggregate_of.insert(definition.atom, recursive_aggregates.len() as u32);
                recursive_aggregates.push(RecursiveAggregate::new(definition, condition_bodies));
            } else {
                supports.push((definition.atom.0, empty.0, false));
            }
        }
        // Variables of condition bodies count as body variables, their
        // clauses as the aggregate's.
        stats.aggregate_variables = writer.vars() - vars - (builder.body_variables - body_vars);
        stats.aggregate_clauses = writer.clauses() - clauses;
    }

    // Supports: sorted per atom, one entry per (atom, body).
    supports.sort_unstable();
    supports.dedup_by(|later, earlier| {
        let same = later.0 == earlier.0 && later.1 == earlier.1;
        if same {
            earlier.2 |= later.2;
        }
        same
    });
    let mut support_start = vec![0u32; atom_count + 1];
    for &(atom, _, _) in &supports {
        support_start[atom as usize + 1] += 1;
    }
    for i in 0..atom_count {
        support_start[i + 1] += support_start[i];
    }
    let support_bodies: Vec<BodyId> = supports.iter().map(|s| BodyId(s.1)).collect();
    // Rules: body → head.
    for &(atom, body, forces) in &supports {
        if !forces {
            continue;
        }
        let head = atom_vars[atom as usize].positive();
        match builder.bodies.cond(BodyId(body)) {
            Cond::True => writer.add_clause(&[head]),
            Cond::False => {}
            Cond::Lit(b) => writer.add_clause(&[!b, head]),
        }
    }
    // Support: atom → ∨ bodies (recursive aggregate atoms are defined by
    // their equivalence alone).
    for (i, &var) in atom_vars.iter().enumerate() {
        if recursive_aggregate_of.contains_key(&AtomId(i as u32)) {
            continue;
        }
        let range = support_start[i] as usize..support_start[i + 1] as usize;
        clause.clear();
        clause.push(!var.positive());
        let mut always = false;
        for body in &support_bodies[range] {
            match builder.bodies.cond(*body) {
                Cond::True => always = true,
                Cond::False => {}
                Cond::Lit(b) => clause.push(b),
            }
        }
        if !always {
            writer.add_clause(&clause);
        }
    }

    // `#edge`: the present edges form an acyclic graph.
    if !program.edges.is_empty() {
        let (vars, clauses) = (writer.vars(), writer.clauses());
        let edges: Vec<(SymId, SymId, Cond)> = (program.edges.iter())
            .map(|&(u, v, atom)| (u, v, Cond::Lit(atom_vars[atom.index()].positive())))
            .collect();
        acyclicity::encode(&edges, &mut gates::Gates { sink: &mut writer });
        stats.acyclicity_variables = writer.vars() - vars;
        stats.acyclicity_clauses = writer.clauses() - clauses;
    }

    // Show terms.
    let show_terms: Vec<Cond> = program
        .show_terms
        .iter()
        .map(|term| {
            let body = builder.intern_body(&term.body, &mut writer);
            builder.bodies.cond(body)
        })
        .collect();

    // The objective: each cost element holds when one of its conditions
    // does.
    let (vars, clauses) = (writer.vars(), writer.clauses());
    let body_vars = builder.body_variables;
    let costs: Vec<CostTerms> = program
        .costs
        .iter()
        .map(|level| CostTerms {
            priority: level.priority,
            terms: level
                .elements
                .iter()
                .map(|element| {
                    let bodies: Vec<BodyId> = (element.conditions.iter())
                        .map(|c| builder.intern_body(c, &mut writer))
                        .collect();
                    (builder.any_body(&bodies, &mut writer), element.value)
                })
                .collect(),
        })
        .collect();
    stats.objective_variables = writer.vars() - vars - (builder.body_variables - body_vars);
    stats.objective_clauses = writer.clauses() - clauses;

    stats.body_variables = builder.body_variables;
    stats.cardinality_variables = builder.card_vars;
    stats.cardinality_clauses = builder.card_clauses;
    stats.completion_clauses = writer.clauses()
        - builder.card_clauses
        - stats.aggregate_clauses
        - stats.objective_clauses
        - stats.acyclicity_clauses;

    let (vars, clauses) = (writer.vars(), writer.clauses());
    let shown = shown_symbols(program, &atom_vars, &show_terms, &mut writer);
    stats.show_variables = writer.vars() - vars;
    stats.show_clauses = writer.clauses() - clauses;

    let mut bodies = builder.bodies;
    bodies.freeze();
    Ok(Translation {
        atom_vars,
        bodies,
        support_start,
        support_bodies,
        show_terms,
        shown,
        tight,
        exact: false,
        ranking: ranking::RankingSummary::default(),
        loop_index: None,
        recursive_aggregates,
        recursive_aggregate_of,
        minimality,
        costs,
        stats,
    })
}

/// Interns bodies and defines their Tseitin variables.
struct Builder<'a> {
    atom_vars: &'a [Var],
    bodies: bodies::Bodies,
    body_variables: usize,
    card_vars: usize,
    card_clauses: usize,
    /// Scratch space for conjunctions.
    pos: Vec<AtomId>,
    neg: Vec<AtomId>,
}

impl Builder<'_> {
    /// The disjunction of interned bodies (a Tseitin variable when it has
    /// two or more literals).
    fn any_body<S: ExtendFormula>(&mut self, bodies: &[BodyId], sink: &mut S) -> Cond {
        let conds: Vec<Cond> = bodies.iter().map(|&b| self.bodies.cond(b)).collect();
        gates::Gates { sink }.or(&conds)
    }

    fn intern_body<S: ExtendFormula>(
        &mut self,
        body: &Body,
        writer: &mut ClauseWriter<S>,
    ) -> BodyId {
        let (atom_vars, count) = (self.atom_vars, &mut self.body_variables);
        self.bodies.intern(&body.pos, &body.neg, || {
            define(atom_vars, &body.pos, &body.neg, writer, count)
        })
    }

    /// The conjunction of `body` and the literals `pos`, `not neg`.
    fn intern_and<S: ExtendFormula>(
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
        merge(&mut self.pos, &body.pos, pos);
        merge(&mut self.neg, &body.neg, neg);
        let (atom_vars, count) = (self.atom_vars, &mut self.body_variables);
        let (pos, neg) = (&self.pos, &self.neg);
        self.bodies
            .intern(pos, neg, || define(atom_vars, pos, neg, writer, count))
    }
}

/// The condition of a new body: a constant, a literal, or a new Tseitin
/// variable `β ↔ l1 ∧ … ∧ lm`.
fn define<S: ExtendFormula>(
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
    let beta = writer.new_var().positive();
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

/// The positive dependency graph in CSR form: head atom → positive body
/// atoms (for choice elements, of body and condition); aggregate atom →
/// the positive atoms of the elements that can raise one of its parts (or
/// move it both ways, which [`nonmonotone_aggregates`] finds on a
/// cycle).
struct Graph {
    offsets: Vec<usize>,
    targets: Vec<u32>,
}

fn positive_graph(program: &GroundProgram) -> Graph {
    fn edges(program: &GroundProgram, mut edge: impl FnMut(AtomId, AtomId)) {
        for rule in &program.rules {
            match &rule.head {
                Head::Constraint => {}
                Head::Atom(head) => rule.body.pos.iter().for_each(|&p| edge(*head, p)),
                Head::Disjunction(heads) => {
                    for &head in heads {
                        rule.body.pos.iter().for_each(|&p| edge(head, p));
                    }
                }
                Head::Choice { elements, .. } => {
                    for element in elements {
                        rule.body.pos.iter().for_each(|&p| edge(element.value, p));
                        for condition in &element.conditions {
                            condition.pos.iter().for_each(|&p| edge(element.value, p));
                        }
                    }
                }
            }
        }
        for definition in &program.aggregates {
            let parts = definition.parts();
            for element in &definition.elements {
                let dependency = parts.iter().any(|&(op, _)| {
                    matches!(
                        definition.direction(op, element),
                        Direction::Up | Direction::Both
                    )
                });
                if dependency {
                    for condition in &element.conditions {
                        condition.pos.iter().for_each(|&p| edge(definition.atom, p));
                    }
                }
            }
        }
    }
    let n = program.atoms.len();
    let mut offsets = vec![0usize; n + 1];
    edges(program, |head, _| offsets[head.index() + 1] += 1);
    crate::graph::prefix_sums(&mut offsets);
    let mut fill = offsets.clone();
    let mut targets = vec![0u32; offsets[n]];
    edges(program, |head, body| {
        targets[fill[head.index()]] = body.0;
        fill[head.index()] += 1;
    });
    Graph { offsets, targets }
}

/// Per component: whether it contains a cycle (two or more atoms, or an
/// atom depending positively on itself).
fn cyclic_components(components: &crate::graph::Components, graph: &Graph) -> Vec<bool> {
    let mut size = vec![0u32; components.count];
    for &c in &components.component {
        size[c as usize] += 1;
    }
    let mut cyclic: Vec<bool> = size.iter().map(|&s| s > 1).collect();
    for v in 0..components.component.len() {
        if graph.targets[graph.offsets[v]..graph.offsets[v + 1]].contains(&(v as u32)) {
            cyclic[components.component[v] as usize] = true;
        }
    }
    cyclic
}

/// Why the exact translation refuses the components that need the
/// minimality check.
const NOT_EXACT: &str = "no CNF of polynomial size expresses the stability of such programs in \
                         general, so they are not translated exactly (`dimacs`, \
                         `--translation=eager`): `asp2sat solve` checks them";

/// Two heads of one disjunctive rule that depend positively on each other.
struct HeadCycle {
    origin: crate::diagnostics::Span,
    heads: (AtomId, AtomId),
}

impl HeadCycle {
    fn describe(&self, program: &GroundProgram) -> String {
        let name = |atom: AtomId| program.symbols.display(program.symbol(atom)).to_string();
        format!(
            "{} and {} depend positively on each other",
            name(self.heads.0),
            name(self.heads.1)
        )
    }
}

/// The components that are not head-cycle-free, each with its first
/// disjunctive rule with two head atoms in it (few components have one: a
/// map, not a slot per component).
fn head_cycles(
    program: &GroundProgram,
    components: &crate::graph::Components,
) -> std::collections::BTreeMap<u32, HeadCycle> {
    let component = &components.component;
    let mut cycles = std::collections::BTreeMap::new();
    let mut heads_by_component: Vec<(u32, AtomId)> = Vec::new();
    for rule in &program.rules {
        let Head::Disjunction(heads) = &rule.head else {
            continue;
        };
        heads_by_component.clear();
        heads_by_component.extend(heads.iter().map(|&h| (component[h.index()], h)));
        heads_by_component.sort_unstable();
        for pair in heads_by_component.windows(2) {
            if pair[0].0 == pair[1].0 && pair[0].1 != pair[1].1 {
                cycles.entry(pair[0].0).or_insert(HeadCycle {
                    origin: rule.origin,
                    heads: (pair[0].1, pair[1].1),
                });
            }
        }
    }
    cycles
}

/// The components with an aggregate on a positive cycle with a part that
/// atoms of its own component can both raise and lower, each with the
/// error the exact translation gives for its first such aggregate (its
/// stability needs the minimality check under the aggregate's Ferraris
/// reduct, which has no exact CNF of polynomial size in general).
fn nonmonotone_aggregates(
    program: &GroundProgram,
    components: &crate::graph::Components,
    cyclic: &[bool],
) -> std::collections::BTreeMap<u32, Diagnostic> {
    let component = &components.component;
    let mut found = std::collections::BTreeMap::new();
    for definition in &program.aggregates {
        let own = component[definition.atom.index()];
        if !cyclic[own as usize] || found.contains_key(&own) {
            continue;
        }
        for (op, _) in definition.parts() {
            let (mut rising, mut falling) = (None, None);
            for element in &definition.elements {
                let direction = definition.direction(op, element);
                let recursive = element
                    .conditions
                    .iter()
                    .flat_map(|c| &c.pos)
                    .find(|p| component[p.index()] == own);
                let Some(&atom) = recursive else {
                    continue;
                };
                if matches!(direction, Direction::Up | Direction::Both) {
                    rising.get_or_insert(atom);
                }
                if matches!(direction, Direction::Down | Direction::Both) {
                    falling.get_or_insert(atom);
                }
            }
            if let (Some(up), Some(down)) = (rising, falling) {
                let name = |atom: AtomId| program.symbols.display(program.symbol(atom)).to_string();
                let how = if up == down {
                    format!("{} can both raise and lower", name(up))
                } else {
                    format!("{} can raise and {} lower", name(up), name(down))
                };
                found.insert(
                    own,
                    Diagnostic::error(
                    definition.origin,
                    format!(
                        "non-monotone recursive aggregate: {how} one of its guards, and depends \
                         on it; {NOT_EXACT}"
                    ),
                ));
                break;
            }
        }
    }
    found
}

#[cfg(test)]
mod tests;
