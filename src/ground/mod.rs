//! Spanned AST to ground program.
//!
//! The stages, each in its own module:
//! 1. [`bounds`]: variables that comparisons confine to a range are bound
//!    by it (clingo 5.6's safety); [`compile`] orders the passes that
//!    rewrite each statement into compiled rules ([`compiled`]): head forms,
//!    unpooling, conditional literals, anonymous variables and arithmetic
//!    ([`rewrite`]), constants replaced and variables numbered ([`lower`]),
//!    safety checked ([`safety`]);
//! 2. the predicate dependency graph is split into strongly connected
//!    components ([`crate::graph`]);
//! 3. [`instantiate`]: each component is grounded bottom-up, semi-naively
//!    (relations, joins, rule instances, aggregates, conditionals);
//! 4. [`simplify`]: facts are propagated and atoms renumbered densely.

pub(crate) mod assignments;
mod bounds;
mod compile;
mod compiled;
mod eval;
mod facts;
pub mod incremental;
mod instantiate;
mod lower;
mod predicates;
#[cfg(test)]
mod print;
pub mod program;
mod rewrite;
mod safety;
mod shown;
pub use shown::occurring_signatures;
mod simplify;
#[cfg(test)]
mod tests;

use crate::diagnostics::{Diagnostic, Span};
use crate::graph::tarjan;
use crate::progress::Counters;
use crate::symbols::{SymId, SymbolData, SymbolTable};
use crate::syntax::ast::{
    self, CmpOp, ProjectTarget, Signature, Statement, StatementKind, Term, TermKind,
};
use compile::Compiler;
use compiled::{CElement, CHead, CLit, CRule};
use instantiate::{AtomTable, Grounded, Instantiator};
use predicates::{PredId, Predicates};
use program::{AtomId, Body, CostLevel, GroundProgram, WeightedElement};
use rustc_hash::{FxHashMap, FxHashSet};
use simplify::Simplifier;
use std::sync::atomic::{AtomicBool, Ordering};

/// What the output shows, from `#show` and `#hide` directives.
#[derive(Clone, Default)]
struct ShowConfig {
    /// Any `#show p/n.`, `#show.` or a bare `#hide.` hides atoms by default.
    hide_by_default: bool,
    shown: FxHashSet<Signature>,
    hidden: FxHashSet<Signature>,
}

impl ShowConfig {
    fn shows(&self, signature: &Signature) -> bool {
        if signature.name.starts_with('#') {
            return false; // auxiliary predicates
        }
        self.shown.contains(signature)
            || (!self.hide_by_default && !self.hidden.contains(signature))
    }
}

/// A call of one program part with its arguments: clingo's `("step", [3])`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PartCall {
    pub name: String,
    pub args: Vec<i32>,
}

/// What a run grounds: groups of part calls grounded one after another, as
/// clingo's successive `ground` calls are (a group sees the atoms of the
/// groups before it, never those of later ones), and the atoms assigned
/// true (externals), facts of the last group.
pub struct Parts {
    pub groups: Vec<Vec<PartCall>>,
    pub assigned_true: Vec<ast::Atom>,
    /// The parts (name, arity) that other groundings of the same run call:
    /// not reported as never grounded.
    pub called_elsewhere: Vec<(&'static str, usize)>,
}

impl Parts {
    /// A single run: the part `base`, as clingo grounds without a script.
    pub fn base() -> Parts {
        Parts {
            groups: vec![vec![PartCall {
                name: "base".to_string(),
                args: Vec::new(),
            }]],
            assigned_true: Vec::new(),
            called_elsewhere: Vec::new(),
        }
    }

    fn calls(&self, name: &str, arity: usize) -> bool {
        self.groups
            .iter()
            .flatten()
            .any(|call| call.name == name && call.args.len() == arity)
    }

    fn called_in_run(&self, name: &str, arity: usize) -> bool {
        self.calls(name, arity) || self.called_elsewhere.contains(&(name, arity))
    }
}

/// Each statement's program part: its name and the parameters its
/// `#program` directive names (each file starts in `base`, as in clingo).
pub fn statement_parts(statements: &[Statement]) -> Vec<(&str, &[String])> {
    let mut sections: Vec<(&str, &[String])> = Vec::with_capacity(statements.len());
    let mut section: (&str, &[String]) = ("base", &[]);
    let mut file = None;
    for statement in statements {
        if file.replace(statement.span.file) != Some(statement.span.file) {
            section = ("base", &[]);
        }
        if let StatementKind::Program { name, params } = &statement.kind {
            section = (name, params);
        }
        sections.push(section);
    }
    sections
}

/// Grounds the part `base` of a program. `overrides` are `-c name=value`
/// constants from the command line, which take precedence over `#const`.
/// Returns the program, or `None` when there were errors, and every message.
pub fn ground(
    statements: &[Statement],
    overrides: &[(String, Term)],
) -> (Option<GroundProgram>, Vec<Diagnostic>) {
    ground_parts(statements, overrides, &Parts::base(), &Counters::default())
}

/// Grounds the program parts that `parts` calls, as [`ground`] does `base`,
/// publishing the atoms and rules ground so far in `counters`.
pub fn ground_parts(
    statements: &[Statement],
    overrides: &[(String, Term)],
    parts: &Parts,
    counters: &Counters,
) -> (Option<GroundProgram>, Vec<Diagnostic>) {
    Grounding::single(overrides, counters).ground(statements, parts)
}

/// A run's grounding. Kept across the calls of clingo's incremental mode
/// ([`Grounding::incremental`]), each call grounds only the groups of
/// parts that no call before it grounded, into the atoms and rules ground
/// so far, as clingo's successive `ground` calls do, and its program is
/// simplified from all of them: step N grounds one group, not N. The atoms
/// a call assigns true (`query(k)`) are inputs of its last group, as
/// clingo's `#external`: true in that call's program, false in the later
/// ones'.
pub struct Grounding<'c> {
    overrides: &'c [(String, Term)],
    counters: &'c Counters,
    /// Set by whoever runs the grounding (the time limit, a signal): the
    /// call then ends at once, and what it ground is not a program.
    stop: &'c AtomicBool,
    /// Whether later calls build on this one's grounding (which each call
    /// then copies to simplify), else handed to simplification whole.
    kept: bool,
    /// Made by the first call.
    run: Option<Run<'c>>,
    /// What the last call's program is made of, beside what was ground.
    last: Option<LastCall>,
}

/// The stop flag of a grounding that nothing stops.
static NEVER_STOPPED: AtomicBool = AtomicBool::new(false);

/// How a program holds the atoms its call assigns true (`query(k)`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Assigned {
    /// As facts: the call's own program.
    Facts,
    /// Each free, by a choice `{a}.`: a program whose clauses hold in the
    /// later calls' programs too, where `a` is false (see
    /// [`crate::solve::steps`]).
    Open,
}

/// What [`Grounding::ground_call`] keeps for [`Grounding::program`].
struct LastCall {
    directives: Directives,
    assigned: Vec<(PredId, SymId)>,
    /// Its groups defined only atoms new to them (no rule or fact for an
    /// atom ground before).
    modular: bool,
}

/// What [`Grounding`] keeps between calls.
struct Run<'c> {
    preds: Predicates,
    consts: FxHashMap<String, SymId>,
    /// The constants used but defined nowhere, each reported once.
    undefined_consts: FxHashMap<String, Span>,
    /// It owns the symbols.
    grounder: Instantiator<'c>,
    /// The groups ground so far: as called, and as compiled.
    called: Vec<Vec<PartCall>>,
    compiled: Vec<CompiledGroup>,
}

/// What the new groups of a call ([`Grounding::ground_new_groups`]) give:
/// what the directives say, the atoms assigned true, whether the groups
/// defined only atoms new to them, and the messages.
type NewGroups = (Directives, Vec<(PredId, SymId)>, bool, Vec<Diagnostic>);

impl<'c> Grounding<'c> {
    /// A grounding for one call. `overrides` are `-c name=value` constants
    /// from the command line, which take precedence over `#const`.
    pub fn single(overrides: &'c [(String, Term)], counters: &'c Counters) -> Grounding<'c> {
        Grounding {
            overrides,
            counters,
            stop: &NEVER_STOPPED,
            kept: false,
            run: None,
            last: None,
        }
    }

    /// A grounding kept for the steps of incremental mode.
    pub fn incremental(overrides: &'c [(String, Term)], counters: &'c Counters) -> Grounding<'c> {
        Grounding {
            kept: true,
            ..Grounding::single(overrides, counters)
        }
    }

    /// The grounding stops once `stop` is set: a call ends at its next
    /// join step, and neither it nor a later one may give a program.
    pub fn stop_at(self, stop: &'c AtomicBool) -> Grounding<'c> {
        Grounding { stop, ..self }
    }

    /// Whether a call was cut short ([`Grounding::stop_at`]).
    pub fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// Where the atoms and rules ground so far are published.
    pub fn counters(&self) -> &'c Counters {
        self.counters
    }

    /// The program of the parts that `parts` calls, whose groups begin with
    /// those of the calls before: only the groups after them are ground.
    /// `None` when there were errors or the call was stopped
    /// ([`Grounding::stopped`]), and every message.
    pub fn ground(
        &mut self,
        statements: &[Statement],
        parts: &Parts,
    ) -> (Option<GroundProgram>, Vec<Diagnostic>) {
        match self.ground_call(statements, parts) {
            Ok(diagnostics) if self.stopped() => (None, diagnostics),
            Ok(diagnostics) => (Some(self.program(Assigned::Facts)), diagnostics),
            Err(diagnostics) => (None, diagnostics),
        }
    }

    /// Grounds the groups of the parts that `parts` calls that no call
    /// before did ([`Grounding::ground`] without the program); every
    /// message, or the messages alone after an error.
    pub fn ground_call(
        &mut self,
        statements: &[Statement],
        parts: &Parts,
    ) -> Result<Vec<Diagnostic>, Vec<Diagnostic>> {
        let (directives, assigned, modular, mut diagnostics) =
            self.ground_new_groups(statements, parts)?;
        self.last = Some(LastCall {
            directives,
            assigned,
            modular,
        });
        // Last, as gringo reports them once grounding is done.
        diagnostics.extend(shown::unmatched_show_infos(statements));
        Ok(diagnostics)
    }

    /// The program of everything ground up to the last call, simplified,
    /// with the atoms it assigns true held as `assigned` says. A grounding
    /// for one call hands everything over to it: no program follows.
    pub fn program(&mut self, assigned: Assigned) -> GroundProgram {
        debug_assert!(!self.stopped(), "a stopped grounding gives no program");
        if !self.kept {
            debug_assert_eq!(assigned, Assigned::Facts, "one call's own program");
            let run = self.run.take().expect("made by the grounding");
            let last = self.last.take().expect("made by the call");
            let grounded = run.grounder.finish_with_facts(&last.assigned);
            return simplified(grounded, &run.preds, last.directives);
        }
        let run = self.run.as_ref().expect("made by the grounding");
        let last = self.last.as_ref().expect("made by a call");
        simplified(
            run.grounder.snapshot(&last.assigned, assigned),
            &run.preds,
            last.directives.clone(),
        )
    }

    /// The atoms the last call assigns true (`query(k)`).
    pub fn assigned(&self) -> Vec<SymId> {
        let last = self.last.as_ref().expect("made by a call");
        last.assigned.iter().map(|&(_, symbol)| symbol).collect()
    }

    /// Whether the groups of the last call defined only atoms new to them:
    /// then the programs of the calls before it are those of its atoms
    /// that they hold (clingo forbids most of the rest as a redefinition).
    pub fn last_call_modular(&self) -> bool {
        self.last.as_ref().is_some_and(|last| last.modular)
    }

    /// Compiles and grounds the groups of `parts` that no call before did;
    /// the messages alone after an error.
    fn ground_new_groups(
        &mut self,
        statements: &[Statement],
        parts: &Parts,
    ) -> Result<NewGroups, Vec<Diagnostic>> {
        let mut diagnostics = Vec::new();
        let sections = statement_parts(statements);
        let directives = directives(statements, &sections, parts, &mut diagnostics);
        let done = self.run.as_ref().map_or(0, |run| run.called.len());
        assert!(
            (self.run.as_ref()).is_none_or(|run| parts.groups.get(..done) == Some(&run.called[..])),
            "a later call grounds the groups of the calls before it first"
        );
        let (mut groups, assigned) = match &mut self.run {
            None => {
                let mut symbols = SymbolTable::default();
                let mut preds = Predicates::default();
                let (consts, mut undefined_consts) = resolve_constants(
                    statements,
                    self.overrides,
                    &mut symbols,
                    &mut preds,
                    &mut diagnostics,
                );
                let Some(compiled) = compile_groups(
                    &mut Compiler::new(&mut symbols, &mut preds, &consts),
                    statements,
                    &sections,
                    parts,
                    0,
                    &mut undefined_consts,
                    &mut diagnostics,
                ) else {
                    return Err(diagnostics);
                };
                let auxiliary = [
                    preds.intern("#agg", 1, false),
                    preds.intern("#disjunct", 1, false),
                    preds.intern("#not", 1, false),
                    preds.intern("#impl", 1, false),
                ];
                let grounder =
                    Instantiator::new(symbols, &preds, (self.counters, self.stop), auxiliary);
                self.run = Some(Run {
                    preds,
                    consts,
                    undefined_consts,
                    grounder,
                    called: Vec::new(),
                    compiled: Vec::new(),
                });
                compiled
            }
            Some(run) => {
                let Some(compiled) = compile_groups(
                    &mut Compiler::new(&mut run.grounder.symbols, &mut run.preds, &run.consts),
                    statements,
                    &sections,
                    parts,
                    done,
                    &mut run.undefined_consts,
                    &mut diagnostics,
                ) else {
                    return Err(diagnostics);
                };
                run.grounder.add_predicates(&run.preds);
                compiled
            }
        };
        let run = self.run.as_mut().expect("made above");
        let declared: FxHashSet<&Signature> = statements
            .iter()
            .filter_map(|s| match &s.kind {
                StatementKind::Defined(signature) => Some(signature),
                _ => None,
            })
            .chain(&directives.declared)
            .collect();
        let all_groups: Vec<&CompiledGroup> = run.compiled.iter().chain(&groups).collect();
        diagnostics.extend(undefined_predicate_infos(
            &all_groups,
            &run.preds,
            &declared,
        ));
        for group in &mut groups {
            mark_recursive_conditions(&mut group.rules, &run.preds);
        }
        let modular = ground_groups(&mut run.grounder, &groups, &run.preds)?;
        run.called.extend_from_slice(&parts.groups[done..]);
        run.compiled.extend(groups);
        Ok((directives, assigned, modular, diagnostics))
    }
}

/// The program of what was ground, simplified, as `directives` say.
fn simplified(
    (atoms, mut rules, show_terms, aggregates, symbols): Grounded,
    preds: &Predicates,
    Directives {
        show,
        projected,
        with_edges,
        ..
    }: Directives,
) -> GroundProgram {
    // Among the rules, so that the program's own `:- p, -p.` is not repeated.
    add_strong_negation_constraints(&atoms, &symbols, &mut rules);
    let rules = rules.into_rules();

    let costs = cost_levels(&atoms, preds, &symbols);
    let shown_preds: Vec<bool> = preds
        .ids()
        .map(|p| show.shows(&preds.signature(p)))
        .collect();
    let shown = |a: usize| shown_preds[atoms.preds[a].index()];
    let projected =
        projected.map(|signatures| projected_symbols(&atoms, preds, &symbols, &signatures));
    // The hidden atoms of the program's own predicates (not `#agg`,
    // `#edge`, `#project`, ..) may be unfolded away by the simplifier,
    // unless answer sets are told apart by them (`#project`).
    let mut unfoldable: Vec<bool> = preds
        .ids()
        .map(|p| !shown_preds[p.index()] && !preds.get(p).name.starts_with('#'))
        .collect();
    for (a, pred) in atoms.preds.iter().enumerate() {
        if projected
            .as_ref()
            .is_some_and(|p| p.contains(&atoms.syms[a]))
        {
            unfoldable[pred.index()] = false;
        }
    }
    let mut program = Simplifier::new(&atoms, &unfoldable)
        .run(rules, show_terms, aggregates, costs, symbols, shown);
    if let Some(projected) = projected {
        let atoms = program
            .atom_ids()
            .filter(|&a| projected.contains(&program.symbol(a)));
        program.projection = Some(atoms.collect());
    }
    if with_edges {
        program.edges = edges(&program);
    }
    assignments::fold_assignments(&mut program);
    program
}

/// What the directives of a run say: the `#show`/`#hide` configuration,
/// the predicates declared (`#external`, atoms assigned true), the
/// signatures `#project` names (`Some` once any `#project` is called) and
/// whether `#edge` is; clingo's infos on what has no effect on the way.
#[derive(Clone)]
struct Directives {
    show: ShowConfig,
    declared: Vec<Signature>,
    projected: Option<Vec<Signature>>,
    with_edges: bool,
}

fn directives(
    statements: &[Statement],
    sections: &[(&str, &[String])],
    parts: &Parts,
    diagnostics: &mut Vec<Diagnostic>,
) -> Directives {
    let mut show = ShowConfig::default();
    let mut declared: Vec<Signature> = Vec::new();
    let mut projected: Option<Vec<Signature>> = None;
    let mut heuristic_reported = false;
    let mut external_reported = false;
    let mut with_edges = false;
    let mut uncalled_reported: FxHashSet<(&str, usize)> = FxHashSet::default();
    for (statement, &(part, params)) in statements.iter().zip(sections) {
        let span = statement.span;
        let called = parts.calls(part, params.len());
        match &statement.kind {
            StatementKind::ShowSignature(signature) => {
                show.hide_by_default = true;
                show.shown.insert(signature.clone());
            }
            StatementKind::ShowNothing | StatementKind::Hide(None) => show.hide_by_default = true,
            StatementKind::Hide(Some(signature)) => {
                show.hidden.insert(signature.clone());
            }
            StatementKind::Program { name, params }
                if !parts.called_in_run(name, params.len())
                    && uncalled_reported.insert((name, params.len())) =>
            {
                diagnostics.push(Diagnostic::info(
                    span,
                    format!(
                        "program part `{name}` is not grounded: a single run grounds `base` \
                         only, as clingo does without a script"
                    ),
                ));
            }
            StatementKind::Heuristic { .. }
                if called && !std::mem::replace(&mut heuristic_reported, true) =>
            {
                diagnostics.push(Diagnostic::info(
                    span,
                    "#heuristic directives have no effect: asp2sat has no domain \
                     heuristics (clingo ignores them too unless --heuristic=Domain)",
                ));
            }
            StatementKind::External { atom, .. } if called => {
                declared.push(atom_signature(atom));
                if !std::mem::replace(&mut external_reported, true) {
                    diagnostics.push(Diagnostic::info(
                        span,
                        "#external atoms are false unless derived, or given the value `true` \
                         or `free`: a single run assigns no external",
                    ));
                }
            }
            StatementKind::Edge { .. } if called => with_edges = true,
            StatementKind::Project(ProjectTarget::Signature(signature)) if called => {
                projected
                    .get_or_insert_with(Vec::new)
                    .push(signature.clone());
            }
            StatementKind::Project(ProjectTarget::Atom { .. }) if called => {
                projected.get_or_insert_with(Vec::new);
            }
            StatementKind::Unsupported { what } => diagnostics.push(Diagnostic::error(
                span,
                format!("{what} are not supported by asp2sat yet"),
            )),
            _ => {}
        }
    }
    declared.extend(parts.assigned_true.iter().map(atom_signature));
    Directives {
        show,
        declared,
        projected,
        with_edges,
    }
}

/// Compiled groups of parts, and the atoms the last of them assigns true.
type CompiledGroups = (Vec<CompiledGroup>, Vec<(PredId, SymId)>);

/// The rules of each group of `parts` from `from` on, every part called
/// compiled with its arguments bound to its parameters, and the atoms the
/// last group assigns true; the parts no call grounds are checked too, as
/// clingo checks them: their errors count, their rules are dropped. The
/// constants used but defined nowhere are reported once across calls
/// (`undefined_consts`); the compiler's messages join `diagnostics`, and
/// `None` follows an error among them.
fn compile_groups(
    compiler: &mut Compiler,
    statements: &[Statement],
    sections: &[(&str, &[String])],
    parts: &Parts,
    from: usize,
    undefined_consts: &mut FxHashMap<String, Span>,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<CompiledGroups> {
    let consts = compiler.consts;
    compiler.undefined_consts = std::mem::take(undefined_consts);
    let mut groups: Vec<CompiledGroup> = Vec::with_capacity(parts.groups.len() - from);
    let mut assigned = Vec::new();
    for (index, group) in parts.groups.iter().enumerate().skip(from) {
        for call in group {
            for (statement, &(part, params)) in statements.iter().zip(sections) {
                if part != call.name || params.len() != call.args.len() {
                    continue;
                }
                compiler.params = params
                    .iter()
                    .zip(&call.args)
                    .map(|(p, &v)| (p.clone(), compiler.symbols.number(v)))
                    .collect();
                let span = statement.span;
                // A part's parameter is no constant there: clingo reads it
                // as a variable that each step binds.
                let integer_constant = |name: &str| {
                    let param = compiler.params.iter().any(|(p, _)| p == name);
                    let value = consts.get(name).filter(|_| !param);
                    value.and_then(|&v| compiler.symbols.as_number(v))
                };
                let ranged = bounds::with_ranges(&statement.kind, &integer_constant);
                compile_statement(compiler, ranged.as_ref().unwrap_or(&statement.kind), span);
            }
        }
        compiler.params.clear();
        if index + 1 == parts.groups.len() {
            // Inputs of the group, true in this call's program alone
            // ([`Grounding`]).
            for atom in &parts.assigned_true {
                let Signature { name, arity, .. } = atom_signature(atom);
                assert!(
                    !atom.strong_negation,
                    "incremental mode assigns `query(k)` only"
                );
                let pred = compiler.preds.intern(&name, arity, false);
                match compiler.ground_term(&atom.term) {
                    Ok(Some(symbol)) => assigned.push((pred, symbol)),
                    Ok(None) => {}
                    Err(error) => compiler.errors.push(error),
                }
                compiler.external(atom, &[], None, atom.span);
            }
        }
        groups.push(CompiledGroup {
            rules: std::mem::take(&mut compiler.rules),
            facts: std::mem::take(&mut compiler.facts),
            fact_origins: std::mem::take(&mut compiler.fact_origins),
        });
    }
    // The parts no call grounds are still checked, as clingo checks them:
    // their errors count, their rules are dropped.
    for (statement, &(part, params)) in statements.iter().zip(sections) {
        if parts.called_in_run(part, params.len())
            || matches!(statement.kind, StatementKind::Program { .. })
        {
            continue;
        }
        let zero = compiler.symbols.number(0);
        compiler.params = params.iter().map(|p| (p.clone(), zero)).collect();
        compile_statement(compiler, &statement.kind, statement.span);
    }
    compiler.params.clear();
    compiler.rules.clear();
    compiler.facts = Default::default();
    compiler.fact_origins.clear();
    *undefined_consts = std::mem::take(&mut compiler.undefined_consts);
    diagnostics.append(&mut compiler.errors);
    (!diagnostics.iter().any(Diagnostic::is_error)).then_some((groups, assigned))
}

/// Grounds the groups one after another into `grounder`; whether each
/// defined only atoms new to it, or the errors of the first group that
/// redefines an atom an earlier one defines.
fn ground_groups(
    grounder: &mut Instantiator,
    groups: &[CompiledGroup],
    preds: &Predicates,
) -> Result<bool, Vec<Diagnostic>> {
    let mut modular = true;
    for group in groups {
        let rules = &group.rules;
        let (components, mut final_rules) = schedule(rules, preds);
        let defined: Vec<PredId> = components.iter().flat_map(|(c, _)| c.clone()).collect();
        let before = grounder.begin_group(&defined);
        grounder.add_facts(&group.facts);
        for (component, component_rules) in &components {
            // A bounded choice whose conditions depend on its own component is
            // grounded in two parts: one generator `{a} :- B, c.` per element
            // inside the component, and the rule itself once everything is
            // known, where it adds the bounds (its support equals the
            // generators').
            let mut generators = Vec::new();
            let mut ready: Vec<&CRule> = Vec::new();
            for &rule in component_rules {
                if condition_in_component(rule, component) {
                    generators.extend(element_generators(rule));
                    final_rules.push(rule);
                } else {
                    ready.push(rule);
                }
            }
            ready.extend(generators.iter());
            grounder.ground_component(component, &ready);
        }
        grounder.ground_final(&final_rules);
        let defined = grounder.defined_in_group(&before);
        let redefined = grounder.redefinitions(&before, &defined);
        if !redefined.is_empty() {
            let errors = redefined.into_iter().map(|(pred, atom, origin)| {
                let defining = || rules.iter().find(|r| r.head_preds().contains(&pred));
                let span = (origin.or_else(|| defining().map(|r| r.span)))
                    .or_else(|| group.fact_origins.get(&pred).copied());
                Diagnostic::error(
                    span.unwrap_or_default(),
                    format!("redefinition of atom `{atom}`: an earlier step defines it"),
                )
            });
            return Err(errors.collect());
        }
        modular &= Instantiator::only_new_atoms(&before, &defined);
    }
    Ok(modular)
}

/// The symbols of the atoms that `#project` directives name: every atom of
/// a projected signature, and `a` for every atom `#project(a)`
/// ([`compile::PROJECT_PREDICATE`]).
fn projected_symbols(
    atoms: &AtomTable,
    preds: &Predicates,
    symbols: &SymbolTable,
    signatures: &[Signature],
) -> FxHashSet<SymId> {
    // Per predicate: whether it is `#project` or a projected signature.
    let mut by_directive = vec![false; preds.len()];
    let mut whole = vec![false; preds.len()];
    for pred in preds.ids() {
        by_directive[pred.index()] = preds.get(pred).name == compile::PROJECT_PREDICATE;
        whole[pred.index()] = signatures.contains(&preds.signature(pred));
    }
    let mut projected = FxHashSet::default();
    for (a, &pred) in atoms.preds.iter().enumerate() {
        if by_directive[pred.index()] {
            projected.insert(symbols.args(atoms.syms[a])[0]);
        } else if whole[pred.index()] {
            projected.insert(atoms.syms[a]);
        }
    }
    projected
}

/// The edges of `#edge` directives: each atom `#edge((u, v))`
/// ([`compile::EDGE_PREDICATE`]) is the edge from `u` to `v`.
fn edges(program: &GroundProgram) -> Vec<(SymId, SymId, AtomId)> {
    let symbols = &program.symbols;
    program
        .atom_ids()
        .filter_map(|atom| {
            let (name, args, _) = symbols.as_function(program.symbol(atom))?;
            if symbols.name_text(name) != compile::EDGE_PREDICATE || args.len() != 1 {
                return None;
            }
            match symbols.as_function(args[0])? {
                (tuple, &[u, v], false) if symbols.name_text(tuple).is_empty() => {
                    Some((u, v, atom))
                }
                _ => None,
            }
        })
        .collect()
}

/// The signature of an atom as written.
fn atom_signature(atom: &ast::Atom) -> Signature {
    let (name, arity) = match &atom.term.kind {
        TermKind::Function { name, args } => (name.clone(), args.len()),
        TermKind::Constant(name) => (name.clone(), 0),
        _ => (String::new(), 0),
    };
    Signature {
        strong_negation: atom.strong_negation,
        name,
        arity,
    }
}

/// The objective: per priority, from the highest, one element per ground
/// cost tuple `#cost(w, p, ..)` ([`compile::COST_PREDICATE`]), of weight `w`,
/// holding when its atom does. A tuple whose weight or priority is not an
/// integer is ignored, as clingo does. A level with only tuples of weight
/// 0 is kept: clingo prints a cost for it.
fn cost_levels(atoms: &AtomTable, preds: &Predicates, symbols: &SymbolTable) -> Vec<CostLevel> {
    let mut levels: std::collections::BTreeMap<std::cmp::Reverse<i64>, Vec<WeightedElement>> =
        Default::default();
    for (a, &pred) in atoms.preds.iter().enumerate() {
        if preds.get(pred).name != compile::COST_PREDICATE {
            continue;
        }
        let args = symbols.args(atoms.syms[a]);
        let (Some(weight), Some(priority)) =
            (symbols.as_number(args[0]), symbols.as_number(args[1]))
        else {
            continue;
        };
        levels
            .entry(std::cmp::Reverse(i64::from(priority)))
            .or_default()
            .push(WeightedElement {
                value: i64::from(weight),
                conditions: vec![Body::from_slices(&[AtomId(a as u32)], &[])],
            });
    }
    levels
        .into_iter()
        .map(|(priority, elements)| CostLevel {
            priority: priority.0,
            elements,
        })
        .collect()
}

/// Evaluates `#const` definitions to ground terms, as gringo does: a
/// `-c name=value` override, or a definition marked `[override]`, replaces
/// the program's other definitions of that name; a name defined twice at
/// the same rank (two overrides, or two plain definitions) is an error; a
/// definition may use constants defined anywhere, and a cycle is an error.
/// A value with an operation never defined (`#const a = a+1.`) is no
/// error: the constant is returned apart, with the value's span, and each
/// term that uses it is never defined, as in clingo.
fn resolve_constants(
    statements: &[Statement],
    overrides: &[(String, Term)],
    symbols: &mut SymbolTable,
    preds: &mut Predicates,
    diagnostics: &mut Vec<Diagnostic>,
) -> (FxHashMap<String, SymId>, FxHashMap<String, Span>) {
    let program_definitions = |overriding: bool| {
        statements.iter().filter_map(move |s| match &s.kind {
            StatementKind::Const {
                name,
                value,
                overriding: o,
            } if *o == overriding => Some((name, value, s.span)),
            _ => None,
        })
    };
    let command_line = overrides.iter().map(|(n, t)| (n, t, t.span));
    let overriding: Vec<_> = command_line.chain(program_definitions(true)).collect();
    let overridden: FxHashSet<&String> = overriding.iter().map(|(name, ..)| *name).collect();
    let mut definitions: Vec<(&str, &Term, Span)> = Vec::new();
    let mut index: FxHashMap<&str, usize> = FxHashMap::default();
    for (overrides, (name, value, span)) in (overriding.iter().map(|&d| (true, d)))
        .chain(program_definitions(false).map(|d| (false, d)))
    {
        if !overrides && overridden.contains(name) {
            continue;
        }
        if let Some(&previous) = index.get(name.as_str()) {
            diagnostics.push(
                Diagnostic::error(span, "redefinition of constant:")
                    .with_note(definitions[previous].2, "constant also defined here"),
            );
            continue;
        }
        index.insert(name, definitions.len());
        definitions.push((name, value, span));
    }

    // Definitions in dependency order, by an iterative depth-first search.
    let mut values: FxHashMap<String, SymId> = FxHashMap::default();
    let mut undefined: FxHashMap<String, Span> = FxHashMap::default();
    let mut state = vec![Visit::New; definitions.len()];
    for root in 0..definitions.len() {
        let mut stack = vec![(root, constants_used(definitions[root].1, &index, root))];
        state[root] = Visit::Open;
        while let Some((current, pending)) = stack.last_mut() {
            let current = *current;
            if let Some(next) = pending.pop() {
                match state[next] {
                    Visit::New => {
                        state[next] = Visit::Open;
                        stack.push((next, constants_used(definitions[next].1, &index, next)));
                    }
                    Visit::Open => {
                        diagnostics.push(
                            Diagnostic::error(definitions[next].2, "cyclic constant definition:")
                                .with_note(definitions[current].2, "cycle involves definition:"),
                        );
                        return (values, undefined);
                    }
                    Visit::Done => {}
                }
                continue;
            }
            stack.pop();
            state[current] = Visit::Done;
            let (name, value, _) = definitions[current];
            // clingo replaces the constant in its own value once: `#const
            // a = f(a).` is `f(f(a))`, whose `a` is a symbol.
            let value = &rewrite::substituted(value, name, value);
            let mut compiler = Compiler::new(symbols, preds, &values);
            compiler.undefined_consts = undefined.clone();
            match compiler.ground_term(value) {
                Ok(Some(sym)) => {
                    values.insert(name.to_string(), sym);
                }
                // At the constant it uses that is never defined, if any.
                Ok(None) => {
                    let span = compiler.undefined_operation(value);
                    undefined.insert(name.to_string(), span.unwrap_or(value.span));
                }
                Err(e) => diagnostics.push(e),
            }
        }
    }
    (values, undefined)
}

#[derive(Clone, Copy, PartialEq)]
enum Visit {
    New,
    Open,
    Done,
}

/// The defined constants a definition's value mentions, other than itself
/// (`#const a = a.` is the symbol `a`, as in gringo).
fn constants_used(term: &Term, index: &FxHashMap<&str, usize>, own: usize) -> Vec<usize> {
    let mut used = Vec::new();
    let mut pending = vec![term];
    while let Some(term) = pending.pop() {
        match &term.kind {
            TermKind::Constant(name) => {
                if let Some(&i) = index.get(name.as_str())
                    && i != own
                {
                    used.push(i);
                }
            }
            TermKind::Function { args, .. } | TermKind::Tuple(args) | TermKind::Pool(args) => {
                pending.extend(args)
            }
            TermKind::Interval(a, b) | TermKind::Binary(_, a, b) => pending.extend([&**a, &**b]),
            TermKind::Unary(_, a) => pending.push(a),
            _ => {}
        }
    }
    used.reverse();
    used
}

/// What a group of parts grounds: its rules, and its facts as atoms with
/// the place of the first fact of each predicate.
struct CompiledGroup {
    rules: Vec<CRule>,
    facts: Vec<(PredId, SymId)>,
    fact_origins: FxHashMap<PredId, Span>,
}

/// Orders rules for grounding: the rules of each component of the predicate
/// dependency graph, dependencies first; then the rules that define nothing
/// (constraints and `#show` terms), which are grounded once all is known.
type Schedule<'r> = (Vec<(Vec<PredId>, Vec<&'r CRule>)>, Vec<&'r CRule>);

fn schedule<'r>(rules: &'r [CRule], preds: &Predicates) -> Schedule<'r> {
    let mut edges: Vec<Vec<u32>> = vec![Vec::new(); preds.len()];
    for rule in rules {
        let heads = rule.head_preds();
        for &h in &heads {
            for literal in rule.read_literals() {
                if let CLit::Pos(a) | CLit::Neg(a) | CLit::NotNot(a) = literal {
                    edges[h.index()].push(a.pred.0);
                }
            }
            // The atoms of one head are grounded together.
            edges[h.index()].extend(heads.iter().map(|p| p.0));
        }
    }
    let mut offsets = vec![0];
    let mut targets = Vec::new();
    for e in &mut edges {
        e.sort_unstable();
        e.dedup();
        targets.extend_from_slice(e);
        offsets.push(targets.len());
    }
    let found = tarjan(preds.len(), &offsets, &targets);
    let component_of: Vec<usize> = found.component.iter().map(|&c| c as usize).collect();
    let mut components: Vec<Vec<u32>> = vec![Vec::new(); found.count];
    for (p, &c) in component_of.iter().enumerate() {
        components[c].push(p as u32);
    }
    let mut grouped: Vec<Vec<&CRule>> = vec![Vec::new(); components.len()];
    let mut final_rules = Vec::new();
    for rule in rules {
        match rule.head_preds().first() {
            Some(p) => grouped[component_of[p.index()]].push(rule),
            None => final_rules.push(rule),
        }
    }
    let components = components
        .into_iter()
        .zip(grouped)
        .filter(|(_, rules)| !rules.is_empty())
        .map(|(members, rules)| (members.into_iter().map(PredId).collect(), rules))
        .collect();
    (components, final_rules)
}

/// Marks the conditional literals whose condition depends on their rule's
/// head (`a :- b : c.` with `c` depending on `a`) as implications
/// ([`CAggregate::implication`](compiled::CAggregate)): under the Ferraris
/// reduct `a` is not monotone in `c`, which the aggregate a conditional
/// literal otherwise grounds to does not capture.
fn mark_recursive_conditions(rules: &mut [CRule], preds: &Predicates) {
    let conditional = |l: &CLit| matches!(l, CLit::Aggregate(a) if a.conditional);
    if !rules.iter().any(|r| r.body.iter().any(conditional)) {
        return; // no conditional literal: no second dependency analysis
    }
    let (components, _) = schedule(rules, preds);
    let mut component_of: FxHashMap<PredId, usize> = FxHashMap::default();
    for (c, (members, _)) in components.iter().enumerate() {
        component_of.extend(members.iter().map(|&p| (p, c)));
    }
    let mut marked: Vec<(usize, usize)> = Vec::new();
    for (r, rule) in rules.iter().enumerate() {
        let Some(&c) = rule.head_preds().first().and_then(|p| component_of.get(p)) else {
            continue;
        };
        let in_component = |p: PredId| components[c].0.contains(&p);
        for (l, literal) in rule.body.iter().enumerate() {
            if let CLit::Aggregate(aggregate) = literal
                && aggregate.conditional
                && aggregate.reads(&in_component, true)
            {
                marked.push((r, l));
            }
        }
    }
    for (r, l) in marked {
        if let CLit::Aggregate(aggregate) = &mut rules[r].body[l] {
            aggregate.implication = true;
        }
    }
}

/// Whether a choice element's condition reads a predicate of the component
/// that the choice defines.
fn condition_in_component(rule: &CRule, component: &[PredId]) -> bool {
    let CHead::Choice { elements, .. } = &rule.head else {
        return false;
    };
    elements.iter().flat_map(|e| &e.condition).any(
        |literal| {
            matches!(literal, CLit::Pos(a) | CLit::Neg(a) | CLit::NotNot(a) if component.contains(&a.pred))
        },
    )
}

/// `{a : c} :- B` as the unbounded rules `{a} :- B, c`, one per element.
/// Each also requires the guards to be defined (`t = t`), as the rule
/// instance with an undefined bound does not exist at all.
fn element_generators(rule: &CRule) -> Vec<CRule> {
    let CHead::Choice { elements, guards } = &rule.head else {
        return Vec::new();
    };
    let defined_guards: Vec<CLit> = guards
        .iter()
        .map(|(_, term)| CLit::Cmp(CmpOp::Eq, term.clone(), term.clone()))
        .collect();
    elements
        .iter()
        .map(|element| CRule {
            head: CHead::Choice {
                elements: vec![CElement {
                    atom: element.atom.clone(),
                    condition: Vec::new(),
                }],
                guards: Vec::new(),
            },
            body: rule
                .body
                .iter()
                .chain(&element.condition)
                .chain(&defined_guards)
                .cloned()
                .collect(),
            num_vars: rule.num_vars,
            span: rule.span,
        })
        .collect()
}

/// gringo's `info: atom does not occur in any rule head:` (where gringo
/// quotes the atom, the source line is shown), once per predicate: usually
/// a typo.
fn undefined_predicate_infos(
    groups: &[&CompiledGroup],
    preds: &Predicates,
    declared: &FxHashSet<&Signature>,
) -> Vec<Diagnostic> {
    let rules = groups.iter().flat_map(|g| &g.rules);
    let facts = groups.iter().flat_map(|g| g.fact_origins.keys().copied());
    let defined: FxHashSet<PredId> = rules
        .clone()
        .flat_map(|r| r.head_preds())
        .chain(facts)
        .collect();
    let mut reported = FxHashSet::default();
    let mut infos = Vec::new();
    for rule in rules {
        for literal in rule.read_literals() {
            if let CLit::Pos(a) | CLit::Neg(a) | CLit::NotNot(a) = literal
                && !defined.contains(&a.pred)
                && !declared.contains(&preds.signature(a.pred))
                && reported.insert(a.pred)
            {
                let mut info = Diagnostic::info(a.span, "atom does not occur in any rule head:");
                info.group = "atom-undefined";
                infos.push(info);
            }
        }
    }
    infos
}

/// `:- p(X), -p(X).` for every pair of complementary derived atoms.
fn add_strong_negation_constraints(
    atoms: &instantiate::AtomTable,
    symbols: &SymbolTable,
    rules: &mut instantiate::RuleSet,
) {
    for a in 0..atoms.len() {
        if !atoms.defined[a] {
            continue;
        }
        let Some((name, args, true)) = symbols.as_function(atoms.syms[a]) else {
            continue;
        };
        let positive = SymbolData::Function {
            name: symbols.name_text(name),
            args,
            negative: false,
        };
        if let Some(p) = symbols.lookup(positive).and_then(|s| atoms.find(s))
            && atoms.defined[p as usize]
        {
            let (a, p) = (program::AtomId(a as u32), program::AtomId(p));
            rules.insert_constraint(&[a.min(p), a.max(p)]);
        }
    }
}

/// Compiles one statement of a part into `compiler`'s rules and facts.
/// One that clingo refuses and that reads as gringo 3's, with pools in its
/// bodies and conditions as conjunctions, is compiled as gringo 3 reads it
/// ([`rewrite::conjoin`]).
fn compile_statement(compiler: &mut Compiler, kind: &StatementKind, span: Span) {
    let mark = compiler.mark();
    compile_statement_as_read(compiler, kind, span);
    if compiler.failed_since(&mark)
        && let Some(conjoined) = rewrite::conjoin::conjoined_pools(kind)
    {
        compiler.instead(mark, |compiler| {
            compile_statement_as_read(compiler, &conjoined, span)
        });
    }
}

fn compile_statement_as_read(compiler: &mut Compiler, kind: &StatementKind, span: Span) {
    match kind {
        StatementKind::Rule { head, body } => compiler.rule(head, body, span),
        StatementKind::Facts(facts) => compiler.facts(facts, span.file),
        StatementKind::ShowTerm { term, body } => compiler.show_term(term, body, span),
        StatementKind::Optimize { maximize, elements } => {
            for element in elements {
                compiler.cost_element(*maximize, element);
            }
        }
        StatementKind::External { atom, body, value } => {
            compiler.external(atom, body, value.as_ref(), span)
        }
        StatementKind::Edge { pair, body } => compiler.edge(pair, body, span),
        StatementKind::Project(ProjectTarget::Atom { atom, body }) => {
            compiler.projected(atom, body, span)
        }
        StatementKind::Heuristic {
            atom,
            body,
            weight,
            priority,
            modifier,
        } => {
            let terms = [Some(weight), priority.as_ref(), Some(modifier)];
            let terms: Vec<Term> = terms.into_iter().flatten().cloned().collect();
            compiler.check_heuristic(atom, body, &terms, span)
        }
        _ => {}
    }
}
