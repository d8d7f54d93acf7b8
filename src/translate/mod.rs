//! Ground program to CNF.
//!
//! The translation is the Clark completion of the ground program:
//!
//! - every atom that is not a fact gets a variable of its own, in the order
//!   of atoms, except an atom whose only rule is `a :- b.`, which shares
//!   `b`'s ([`aliases`]); the facts share one more variable, fixed true by
//!   a unit clause, and are supported by the empty body;
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
//! [`translate`] and [`translate_exact`] only write clauses into a
//! [`ClauseSink`] (varisat-formula's [`ExtendFormula`], with a hint of the
//! value a search should try first); they never call a solver.

mod acyclicity;
mod adder;
mod aggregates;
mod aliases;
pub(crate) mod analysis;
mod bdd;
mod bodies;
pub mod cardinality;
mod completion;
mod encoding;
pub(crate) mod exclusive;
mod gates;
pub mod loops;
pub mod minimality;
pub mod native_sums;
pub mod objective;
pub mod ranking;
mod sorting;
pub mod unread;

use crate::diagnostics::Diagnostic;
use crate::ground::program::{AtomId, GroundProgram};
use crate::symbols::SymId;
use aggregates::RecursiveAggregate;
use analysis::Analysis;
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

/// How [`translate`] writes the sums of body aggregates (`#sum`,
/// `#count`) and the bounds of choices.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum SumEncoding {
    /// As the clauses of interval BDDs ([`bdd`]) and counters (past ten
    /// million nodes in all, of networks: `sorting.rs`, `adder.rs`): what
    /// every consumer of the clauses can take.
    #[default]
    Clauses,
    /// Those worth it left to the search (large `#sum`s of different
    /// weights, not on a positive cycle, and any sum, count or choice
    /// bound too large for clauses: [`native_sums::propagated_sums`]),
    /// each bound a variable defined by a [`native_sums::ReifiedSum`]
    /// ([`Translation::native_sums`]) and no clause: only for a search
    /// that propagates them.
    Native,
    /// Every sum not on a positive cycle left to the search, worth it or
    /// not (for the tests of the propagated sums).
    EveryNative,
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
    /// Atoms that share an equivalent atom's variable ([`aliases`]).
    pub equivalent_atoms: usize,
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
    /// Sums left to the search ([`SumEncoding::Native`]), one per bound.
    pub native_sums: usize,
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
    /// Whether `atom` is on a positive cycle: in a component with others,
    /// or alone with a support that holds it positively (`a :- a, B.`).
    pub(crate) fn on_cycle(&self, translation: &Translation, atom: AtomId) -> bool {
        self.size[self.component[atom.index()] as usize] > 1 || translation.supports_itself(atom)
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
    /// Sets of literals at most one of which is true in every model.
    exclusive: exclusive::ExclusiveSets,
    /// The sums (and choice bounds) left to the search, whose variables no
    /// clause defines.
    native_sums: Vec<native_sums::ReifiedSum>,
    /// The atoms left out of the clauses, evaluated in each answer set.
    unread: unread::UnreadAtoms,
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

    /// Whether one of the supports of `atom` holds it positively (`a :- a,
    /// B.`).
    pub(crate) fn supports_itself(&self, atom: AtomId) -> bool {
        (self.supports(atom).iter()).any(|&b| self.body_pos(b).contains(&atom))
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
        SupportComponents {
            size: components.sizes(),
            component: components.component,
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

    /// The sums left to the search ([`SumEncoding::Native`]): every model
    /// of the clauses that is one of the program must satisfy them too.
    pub fn native_sums(&self) -> &[native_sums::ReifiedSum] {
        &self.native_sums
    }

    /// The objective, one level per priority from the highest down; empty
    /// when the program does not optimize.
    pub fn costs(&self) -> &[CostTerms] {
        &self.costs
    }

    /// Sets of literals at most one of which is true in every model, for
    /// the diagrams of sums over them.
    pub(crate) fn exclusive_sets(&self) -> &exclusive::ExclusiveSets {
        &self.exclusive
    }

    /// The atoms left out of the clauses (false in every model), which
    /// each answer set evaluates ([`translate_analyzed`] with `unread`).
    pub fn unread(&self) -> &unread::UnreadAtoms {
        &self.unread
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

impl<S: ClauseSink> ClauseWriter<'_, S> {
    /// A new variable that a search should set to `value` whenever it
    /// decides it ([`ClauseSink::new_var_deciding`]).
    pub(crate) fn new_var_deciding(&mut self, value: bool) -> Var {
        self.vars += 1;
        self.sink.new_var_deciding(value)
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

/// What the translation writes into: clauses and variables, as
/// varisat-formula's [`ExtendFormula`], and for some variables the value a
/// search should try first.
pub trait ClauseSink: ExtendFormula {
    /// A new variable that a search should set to `value` whenever it
    /// decides it. A hint: the CNF means the same without it, and a sink
    /// or a backend may ignore it (the default does).
    fn new_var_deciding(&mut self, value: bool) -> Var {
        let _ = value;
        self.new_var()
    }
}

impl ClauseSink for varisat_formula::CnfFormula {}

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
    sink: &mut impl ClauseSink,
) -> Result<Translation, Diagnostic> {
    let analysis = Analysis::new(program);
    translate_analyzed(program, &analysis, SumEncoding::Clauses, false, sink)
}

/// [`translate`], given the program's analysis (computed by a caller that
/// chooses its solver by it before any clause is written), with its sums
/// written as `sums` says, and, with `unread`, the atoms only the output
/// reads left out of the clauses ([`unread`]): a model of the CNF is then
/// an answer set once [`Translation::unread`] has evaluated them.
pub(crate) fn translate_analyzed(
    program: &GroundProgram,
    analysis: &Analysis,
    sums: SumEncoding,
    unread: bool,
    sink: &mut impl ClauseSink,
) -> Result<Translation, Diagnostic> {
    let unread = match unread {
        true => unread::UnreadAtoms::find(program),
        false => unread::UnreadAtoms::default(),
    };
    let mut translation = completion::complete(program, analysis, sums, unread, sink);
    if !analysis.is_tight() {
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
    sink: &mut impl ClauseSink,
) -> Result<Translation, Diagnostic> {
    translate_exact_analyzed(program, &Analysis::new(program), sink)
}

/// [`translate_exact`], given the program's analysis.
pub(crate) fn translate_exact_analyzed(
    program: &GroundProgram,
    analysis: &Analysis,
    sink: &mut impl ClauseSink,
) -> Result<Translation, Diagnostic> {
    if let Some(refusal) = analysis.refusal(program) {
        return Err(refusal);
    }
    let unread = unread::UnreadAtoms::default();
    let mut translation =
        completion::complete(program, analysis, SumEncoding::Clauses, unread, sink);
    let mut writer = ClauseWriter::new(sink);
    if !analysis.is_tight() {
        translation.ranking = ranking::encode(&translation, analysis, &mut writer);
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

#[cfg(test)]
mod tests;
