//! Why a program has no answer set: a minimal set of its statements whose
//! conjunction (with the statements that are not blamed) has none.
//!
//! For users: `docs/explain.md`. Each statement that may be
//! blamed gets an activation atom `#explain(i)` of a reserved predicate
//! (users cannot write a name starting with `#`): [`guard`] adds it to the
//! statement's body and a choice `{#explain(i)}.` after it, so a fact `p.`
//! becomes `p :- #explain(i).` and a constraint holds only when its atom is
//! true. This is an AST-to-AST transform: the grounder, the translation
//! and the solver see an ordinary program, whose answer sets with exactly
//! the atoms `#explain(i)` of a set `S` true are those of the program
//! holding just the statements of `S` (and the unblamed ones). Completion,
//! loop formulas and ranking are correct for the guarded program as a
//! whole, hence for every such subset; the normal path never runs this.
//!
//! [`minimal_unsatisfiable`] solves under assumptions on the activation
//! atoms, takes varisat's failed core and shrinks it by deletion until it
//! is minimal (Marques-Silva, ISMVL 2010). Plain data in, plain data out:
//! statements in, statements out; a ground program in, statement numbers
//! out.

use crate::diagnostics::{Diagnostic, FileId, Span};
use crate::ground::program::{AtomId, GroundProgram};
use crate::ground::statement_parts;
use crate::solve::{Enumerator, SolveOptions};
use crate::syntax::ast::{
    Atom, BodyElement, ChoiceElement, Head, Literal, Naf, Statement, StatementKind, Term, TermKind,
};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use varisat_formula::{ExtendFormula, Lit};

/// The reserved predicate of the activation atoms.
const ACTIVATION_PREDICATE: &str = "#explain";

/// Which statements may be blamed (`--explain=SCOPE`); the others are hard.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scope {
    /// Every rule, fact and constraint.
    All,
    /// Facts only (`p(1..3).`): the encoding's rules are hard, as when
    /// asking which givens of a puzzle contradict each other. When some
    /// input files hold facts only (instances), only their facts are
    /// blamed: the facts of an encoding (`n(1..9).`, `col(1).`) are part
    /// of it, and without them every program is trivially contradictory
    /// (a choice of exactly one colour out of none).
    Facts,
    /// Rules and constraints only: the facts are hard.
    Rules,
}

/// A program whose blamable statements are guarded by activation atoms.
pub struct Guarded {
    pub statements: Vec<Statement>,
    /// The span of each blamed statement, by activation number.
    pub blamed: Vec<Span>,
}

/// Whether a statement is a fact as written: one unconditional positive
/// atom (possibly with pools or intervals) and no body.
fn is_fact(statement: &Statement) -> bool {
    matches!(&statement.kind, StatementKind::Rule { head: Head::Disjunction(disjuncts), body }
        if body.is_empty()
            && matches!(disjuncts.as_slice(), [d] if d.naf == Naf::Positive && d.condition.is_empty()))
}

/// The files whose facts `--explain=facts` blames: those without rules
/// other than facts (instances), or every file when there are none.
fn fact_files(statements: &[Statement]) -> Vec<FileId> {
    let mut encodings: Vec<FileId> = (statements.iter())
        .filter(|s| matches!(s.kind, StatementKind::Rule { .. }) && !is_fact(s))
        .map(|s| s.span.file)
        .collect();
    encodings.sort_unstable();
    encodings.dedup();
    let mut files: Vec<FileId> = statements.iter().map(|s| s.span.file).collect();
    files.sort_unstable();
    files.dedup();
    let instances: Vec<FileId> = (files.iter())
        .filter(|f| encodings.binary_search(f).is_err())
        .copied()
        .collect();
    if instances.is_empty() {
        files
    } else {
        instances
    }
}

/// The statements with every one `scope` blames guarded by its activation
/// atom. Only rules (facts, constraints, choices, disjunctions, head
/// aggregates) of the part `base`, which a single run grounds, are blamed:
/// directives (`#show`, `#const`, `#include`, `#external`, `#edge`, ...)
/// are hard, and optimize statements never make a program unsatisfiable.
pub fn guard(statements: &[Statement], scope: Scope) -> Guarded {
    let mut guarded = Guarded {
        statements: Vec::with_capacity(statements.len()),
        blamed: Vec::new(),
    };
    let fact_files = fact_files(statements);
    let blames = |fact: bool, file: FileId| match scope {
        Scope::All => true,
        Scope::Facts => fact && fact_files.contains(&file),
        Scope::Rules => !fact,
    };
    for (statement, (part, _)) in statements.iter().zip(statement_parts(statements)) {
        let file = statement.span.file;
        match &statement.kind {
            StatementKind::Facts(facts) if part == "base" && blames(true, file) => {
                for fact in facts.statements(file) {
                    guarded.add_guarded(&fact);
                }
            }
            StatementKind::Rule { .. } if part == "base" && blames(is_fact(statement), file) => {
                guarded.add_guarded(statement)
            }
            _ => guarded.statements.push(statement.clone()),
        }
    }
    guarded
}

impl Guarded {
    /// Adds the rule `statement` guarded by the next activation atom.
    fn add_guarded(&mut self, statement: &Statement) {
        let StatementKind::Rule { head, body } = &statement.kind else {
            unreachable!("only rules are guarded")
        };
        let span = statement.span;
        let activation = activation_atom(self.blamed.len(), span);
        let mut body = body.clone();
        body.push(BodyElement::Literal(Literal::Atom {
            naf: Naf::Positive,
            atom: activation.clone(),
        }));
        self.statements.push(Statement {
            kind: StatementKind::Rule {
                head: head.clone(),
                body,
            },
            span,
        });
        // Right after the statement, so that it is in the same program part.
        self.statements.push(Statement {
            kind: StatementKind::Rule {
                head: Head::Choice {
                    guards: Vec::new(),
                    elements: vec![ChoiceElement {
                        naf: Naf::Positive,
                        atom: activation,
                        condition: Vec::new(),
                        span,
                    }],
                    span,
                },
                body: Vec::new(),
            },
            span,
        });
        self.blamed.push(span);
    }
}

/// `#explain(number)`, located at the statement it activates.
fn activation_atom(number: usize, span: Span) -> Atom {
    let number = i32::try_from(number).expect("fewer than 2^31 statements");
    Atom {
        strong_negation: false,
        term: Term {
            kind: TermKind::Function {
                name: ACTIVATION_PREDICATE.to_string(),
                args: vec![Term {
                    kind: TermKind::Integer(number),
                    span,
                }],
            },
            span,
        },
        span,
    }
}

/// What the solver says of a guarded program.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Explanation {
    /// It has answer sets with every statement active: nothing to explain.
    Satisfiable,
    /// The activation numbers of a minimal set of statements that has no
    /// answer set together with the statements that are not blamed, in
    /// ascending order: dropping any one of them leaves a program with an
    /// answer set. Empty when the unblamed statements alone have none.
    Unsatisfiable(Vec<usize>),
    /// The stop flag was set before the search ended: nothing is known.
    Stopped,
}

/// A search of the shrinking stopped at the stop flag.
struct Stopped;

/// A minimal unsatisfiable set of the statements of a program guarded by
/// [`guard`] with `blamed` activation atoms, grounded into `program`; its
/// searches end once `stop` is set.
pub fn minimal_unsatisfiable(
    program: &GroundProgram,
    blamed: usize,
    options: SolveOptions,
    stop: Arc<AtomicBool>,
) -> Result<Explanation, Diagnostic> {
    // Every statement in the clauses, so that each may be blamed.
    let options = SolveOptions {
        unread: false,
        ..options
    };
    let mut enumerator = Enumerator::new(program, options)?;
    enumerator.interrupt_on(stop);
    let activations = activation_literals(program, blamed, &mut enumerator);
    let mut shrinker = Shrinker {
        activations,
        enumerator,
    };
    let every: Vec<usize> = (0..blamed).collect();
    let explanation = match shrinker.unsatisfiable_core(&every) {
        Ok(None) => Explanation::Satisfiable,
        Ok(Some(core)) => match shrinker.shrink(core) {
            Ok(minimal) => Explanation::Unsatisfiable(minimal),
            Err(Stopped) => Explanation::Stopped,
        },
        Err(Stopped) => Explanation::Stopped,
    };
    Ok(explanation)
}

/// The solver literal of each activation atom, by number. The grounder's
/// simplification removes an activation atom that a constraint excludes
/// (`:- #explain(i).` once the rest of the constraint's body is certain):
/// no answer set has it true, so its literal is one fixed false.
fn activation_literals(
    program: &GroundProgram,
    blamed: usize,
    enumerator: &mut Enumerator,
) -> Vec<Lit> {
    let mut atoms: Vec<Option<AtomId>> = vec![None; blamed];
    let symbols = &program.symbols;
    for atom in program.atom_ids() {
        let Some((name, [number], false)) = symbols.as_function(program.symbol(atom)) else {
            continue;
        };
        if symbols.name_text(name) != ACTIVATION_PREDICATE {
            continue;
        }
        if let Some(slot) = (symbols.as_number(*number))
            .and_then(|n| usize::try_from(n).ok())
            .and_then(|n| atoms.get_mut(n))
        {
            *slot = Some(atom);
        }
    }
    (atoms.into_iter())
        .map(|atom| match atom {
            Some(atom) => enumerator.translation().atom_lit(atom),
            None => enumerator.extend(|writer| {
                let excluded = writer.new_var().positive();
                writer.add_clause(&[!excluded]);
                excluded
            }),
        })
        .collect()
}

/// Deletion-based shrinking over one incremental solver.
///
/// The solver is the [`Enumerator`]'s, with the loop formulas and
/// minimality cuts it adds for unfounded candidates. Those clauses are
/// consequences of the whole guarded program: every answer set of it,
/// whichever activation atoms are true, satisfies every loop formula (and
/// disjunctive loop formula) of it, and the auxiliary variables they
/// introduce are defined by equivalences. The answer sets under one
/// assumption set are the guarded program's answer sets with those atoms
/// fixed, so the clauses stay valid from one assumption set to the next,
/// and learned clauses may be kept. [`Enumerator::find_under`] blocks no
/// answer set, so nothing else is added.
struct Shrinker {
    /// The activation literal of each blamed statement, by number.
    activations: Vec<Lit>,
    enumerator: Enumerator,
}

impl Shrinker {
    /// With exactly the statements `active` (ascending) of all blamed ones:
    /// `None` when the program has an answer set, else a subset of `active`
    /// that has none on its own (`active` itself when the solver's core
    /// needs some inactive statement to stay inactive: a program is not
    /// monotone, and dropping a statement can remove answer sets).
    fn unsatisfiable_core(&mut self, active: &[usize]) -> Result<Option<Vec<usize>>, Stopped> {
        let mut active_numbers = active.iter().peekable();
        let assumptions: Vec<Lit> = (self.activations.iter().enumerate())
            .map(|(number, &literal)| {
                if active_numbers.next_if_eq(&&number).is_some() {
                    literal
                } else {
                    !literal
                }
            })
            .collect();
        if self.enumerator.find_under(&assumptions).is_some() {
            return Ok(None);
        }
        if self.enumerator.interrupted() {
            return Err(Stopped);
        }
        let mut core = self.enumerator.failed_core();
        if core.iter().any(|l| l.is_negative()) {
            return Ok(Some(active.to_vec()));
        }
        // Only activations in the core: every superset of it, the core
        // alone included, is unsatisfiable.
        core.sort_unstable();
        Ok(Some(
            (active.iter().copied())
                .filter(|&n| core.binary_search(&self.activations[n]).is_ok())
                .collect(),
        ))
    }

    /// Deletion: drops each member whose removal leaves the set
    /// unsatisfiable (narrowed further to the solver's core), keeps the
    /// others, until every member of the set has been kept against the set
    /// as it is. As programs are not monotone, a member kept against a
    /// larger set is tried again once the set has shrunk: the members are
    /// visited in a cycle from the last one removed, so a monotone program
    /// costs one call per member of the core and one per member of the
    /// result.
    fn shrink(&mut self, mut members: Vec<usize>) -> Result<Vec<usize>, Stopped> {
        // Members tried against the set as it is now, and found necessary.
        let mut necessary = vec![false; members.len()];
        let mut at = 0;
        while let Some(offset) = (0..members.len()).find(|&k| !necessary[(at + k) % members.len()])
        {
            let index = (at + offset) % members.len();
            let candidate = members[index];
            let rest: Vec<usize> = members
                .iter()
                .copied()
                .filter(|&m| m != candidate)
                .collect();
            match self.unsatisfiable_core(&rest)? {
                None => {
                    necessary[index] = true;
                    at = index + 1;
                }
                Some(smaller) => {
                    // Resume after the member just dropped.
                    at = smaller.partition_point(|&m| m < candidate);
                    necessary = vec![false; smaller.len()];
                    members = smaller;
                }
            }
        }
        Ok(members)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnostics::SourceMap;

    /// The source text of each statement of a minimal unsatisfiable set of
    /// `text` under `scope`.
    fn explain(text: &str, scope: Scope) -> Option<Vec<String>> {
        explain_files(&[text], scope)
    }

    /// [`explain`] of a program in several files.
    fn explain_files(texts: &[&str], scope: Scope) -> Option<Vec<String>> {
        let mut sources = SourceMap::default();
        let mut statements = Vec::new();
        for (i, text) in texts.iter().enumerate() {
            let file = sources.add(format!("f{i}.lp"), *text);
            let (parsed, errors) = crate::syntax::parse_program(text, file);
            assert!(errors.is_empty(), "{errors:?}");
            statements.extend(parsed);
        }
        let guarded = guard(&statements, scope);
        let (program, diagnostics) = crate::ground::ground(&guarded.statements, &[]);
        let program = program.unwrap_or_else(|| panic!("{diagnostics:?}"));
        let never = Arc::new(AtomicBool::new(false));
        match minimal_unsatisfiable(
            &program,
            guarded.blamed.len(),
            SolveOptions::default(),
            never,
        )
        .unwrap()
        {
            Explanation::Satisfiable => None,
            Explanation::Stopped => unreachable!("nothing sets the flag"),
            Explanation::Unsatisfiable(numbers) => Some(
                numbers
                    .iter()
                    .map(|&n| sources.text(guarded.blamed[n]).to_string())
                    .collect(),
            ),
        }
    }

    /// A stopped search proves nothing: a set of statements it did not
    /// refute is no explanation.
    #[test]
    fn a_stopped_explanation_blames_nothing() {
        let statements = crate::syntax::parse_program("q. :- q.", FileId(0)).0;
        let guarded = guard(&statements, Scope::All);
        let (program, _) = crate::ground::ground(&guarded.statements, &[]);
        let program = program.expect("grounds");
        let stopped = Arc::new(AtomicBool::new(true));
        let explanation = minimal_unsatisfiable(
            &program,
            guarded.blamed.len(),
            SolveOptions::default(),
            stopped,
        );
        assert_eq!(explanation.unwrap(), Explanation::Stopped);
    }

    #[test]
    fn explain_names_the_contradicting_facts() {
        let text = "p(1..3). q. r. :- p(2), r. s :- q.";
        assert_eq!(
            explain(text, Scope::All).unwrap(),
            ["p(1..3).", "r.", ":- p(2), r."]
        );
        assert_eq!(explain(text, Scope::Facts).unwrap(), ["p(1..3).", "r."]);
        assert_eq!(explain(text, Scope::Rules).unwrap(), [":- p(2), r."]);
    }

    /// Without `col/1`, no node can be coloured: blaming the encoding's
    /// facts would name a single node.
    #[test]
    fn explain_facts_of_instances_only() {
        let encoding = "col(1..2). {colour(N,C) : col(C)} = 1 :- node(N).
                        :- edge(M,N), colour(M,C), colour(N,C).";
        let instance = "node(1..3). edge(1,2). edge(2,3). edge(1,3). node(4). edge(3,4).";
        assert_eq!(
            explain_files(&[encoding, instance], Scope::Facts).unwrap(),
            ["node(1..3).", "edge(1,2).", "edge(2,3).", "edge(1,3)."]
        );
        assert_eq!(
            explain_files(&[&format!("{encoding} {instance}")], Scope::Facts).unwrap(),
            ["node(1..3)."]
        );
    }

    #[test]
    fn explain_satisfiable_has_nothing_to_explain() {
        assert_eq!(explain("{a}. :- a.", Scope::All), None);
    }

    #[test]
    fn explain_hard_part_alone_unsatisfiable() {
        // The rules contradict each other whatever the facts.
        assert_eq!(explain("a. :- not b. c.", Scope::Facts).unwrap(), [""; 0]);
    }

    #[test]
    fn explain_positive_loop_under_assumptions() {
        // `a` and `b` support each other only: unfounded without `c.`.
        let text = "a :- b. b :- a. c. a :- c. :- not a. :- c.";
        assert_eq!(explain(text, Scope::All).unwrap(), ["c.", ":- c."]);
        let text = "a :- b. b :- a. :- not a. d.";
        assert_eq!(explain(text, Scope::All).unwrap(), [":- not a."]);
    }

    #[test]
    fn explain_disjunction_with_head_cycle() {
        // The only answer set is {a, b}: minimality, under assumptions.
        let text = "a | b. a :- b. b :- a. :- a, b. x.";
        assert_eq!(
            explain(text, Scope::All).unwrap(),
            ["a | b.", "a :- b.", "b :- a.", ":- a, b."]
        );
    }
}
