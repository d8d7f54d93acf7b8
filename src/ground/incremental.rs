//! clingo's incremental mode, `#include <incmode>.`: the program parts
//! `base`, `step(t)` and `check(t)` grounded and solved for `t = 0, 1, ..`
//! until a step's result is the one the constant `istop` names ("SAT" by
//! default), at least `imin` and at most `imax` steps.
//!
//! Step `k` solves the parts `base` and `check(0)`, then `step(t)` and
//! `check(t)` for `t = 1..k`, each pair grounded after the ones before it
//! as clingo's successive `ground` calls are ([`super::Parts`]); the
//! external `query(k)` is true and the `query(t)` of earlier steps are
//! released, so false.

use super::predicates::Predicates;
use super::{PartCall, Parts, resolve_constants};
use crate::diagnostics::{Diagnostic, Span};
use crate::symbols::{SymbolData, SymbolTable};
use crate::syntax::ast::{self, Statement, Term, TermKind};

/// The result of one step's search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StepResult {
    Satisfiable,
    Unsatisfiable,
    /// Stopped before the search was decided (a time limit).
    Unknown,
}

/// The loop's constants: `imin`, `imax` and `istop`.
#[derive(Debug)]
pub struct Incremental {
    min_steps: i32,
    max_steps: Option<i32>,
    stop_on: StepResult,
    /// The `#include <incmode>.` directive, the place of the parts' and
    /// `query`'s messages.
    span: Span,
}

impl Incremental {
    /// The loop the program's (or the command line's) constants `imin`,
    /// `imax` and `istop` define.
    pub fn new(
        statements: &[Statement],
        overrides: &[(String, Term)],
        span: Span,
    ) -> Result<Incremental, Vec<Diagnostic>> {
        let mut symbols = SymbolTable::default();
        let mut errors = Vec::new();
        let (consts, _) = resolve_constants(
            statements,
            overrides,
            &mut symbols,
            &mut Predicates::default(),
            &mut errors,
        );
        if !errors.is_empty() {
            return Err(errors);
        }
        let number = |name: &str, errors: &mut Vec<Diagnostic>| {
            let value = *consts.get(name)?;
            match symbols.get(value) {
                SymbolData::Number(n) => Some(n),
                _ => {
                    errors.push(Diagnostic::error(
                        span,
                        format!(
                            "the constant `{name}` of incremental mode must be a number, not `{}`",
                            symbols.display(value)
                        ),
                    ));
                    None
                }
            }
        };
        let min_steps = number("imin", &mut errors).unwrap_or(0);
        let max_steps = number("imax", &mut errors);
        let stop_on = match consts.get("istop").map(|&s| (s, symbols.get(s))) {
            None => StepResult::Satisfiable,
            Some((_, SymbolData::String("SAT"))) => StepResult::Satisfiable,
            Some((_, SymbolData::String("UNSAT"))) => StepResult::Unsatisfiable,
            Some((_, SymbolData::String("UNKNOWN"))) => StepResult::Unknown,
            Some((value, _)) => {
                errors.push(Diagnostic::error(
                    span,
                    format!(
                        "the constant `istop` of incremental mode must be \"SAT\", \"UNSAT\" \
                         or \"UNKNOWN\", not `{}`",
                        symbols.display(value)
                    ),
                ));
                StepResult::Satisfiable
            }
        };
        if !errors.is_empty() {
            return Err(errors);
        }
        Ok(Incremental {
            min_steps,
            max_steps,
            stop_on,
            span,
        })
    }

    /// Whether step `step` is solved, after `previous`, the result of the
    /// step before it (clingo's loop condition).
    pub fn solves(&self, step: i32, previous: Option<StepResult>) -> bool {
        self.max_steps.is_none_or(|max| step < max)
            && (step < self.min_steps.max(1) || previous != Some(self.stop_on))
    }

    /// The parts that step `step` grounds, with `query(step)` true.
    pub fn parts(&self, step: i32) -> Parts {
        let call = |name: &str, args: Vec<i32>| PartCall {
            name: name.to_string(),
            args,
        };
        let mut groups = vec![vec![call("base", Vec::new()), call("check", vec![0])]];
        for t in 1..=step {
            groups.push(vec![call("step", vec![t]), call("check", vec![t])]);
        }
        let term = |kind| Term {
            kind,
            span: self.span,
        };
        let query = term(TermKind::Function {
            name: "query".to_string(),
            args: vec![term(TermKind::Integer(step))],
        });
        Parts {
            groups,
            assigned_true: vec![ast::Atom {
                strong_negation: false,
                term: query,
                span: self.span,
            }],
            called_elsewhere: vec![("step", 1), ("check", 1)],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnostics::FileId;
    use crate::ground::{Grounding, ground_parts};
    use crate::progress::Counters;
    use crate::syntax::parse_program;
    use crate::testing::shown_answer_sets;

    /// Each step's program from the grounding kept across the steps (each
    /// step grounding its own parts, `query` an input) has the answer sets
    /// of that step ground from scratch with `query(k).` a fact of the
    /// program: with the atoms of earlier steps read under `not`, in an
    /// aggregate and in a `#show` term.
    #[test]
    fn a_kept_grounding_gives_each_step_the_answer_sets_of_one_from_scratch() {
        let text = "#program base. p(0). \
                    #program step(t). {a(t)}. p(t) :- p(t-1), a(t). \
                    q(t) :- p(t-1), not a(t), not a(t-1). \
                    #program check(t). :- query(t), not p(t), not q(t). \
                    :- query(t), #count{ T : a(T) } > 2. \
                    #show p/1. #show q/1. #show s(T) : a(T), query(t).";
        let (statements, errors) = parse_program(text, FileId(0));
        assert!(errors.is_empty(), "{errors:?}");
        let counters = Counters::default();
        let mut kept = Grounding::incremental(&[], &counters);
        let loop_settings = settings(0, None, StepResult::Satisfiable);
        let mut nonempty = 0;
        for step in 0..5 {
            let parts = loop_settings.parts(step);
            let (incremental, _) = kept.ground(&statements, &parts);
            let with_query = format!("{text} #program base. query({step}).");
            let (with_query, _) = parse_program(&with_query, FileId(0));
            let plain = Parts {
                assigned_true: Vec::new(),
                ..parts
            };
            let (from_scratch, _) = ground_parts(&with_query, &[], &plain, &counters);
            let (incremental, from_scratch) = (incremental.unwrap(), from_scratch.unwrap());
            let expected = shown_answer_sets(&from_scratch);
            nonempty += usize::from(!expected.is_empty());
            assert_eq!(shown_answer_sets(&incremental), expected, "step {step}");
        }
        assert!(nonempty >= 3, "the steps have answer sets to compare");
    }

    fn settings(min_steps: i32, max_steps: Option<i32>, stop_on: StepResult) -> Incremental {
        Incremental {
            min_steps,
            max_steps,
            stop_on,
            span: Span::default(),
        }
    }

    #[test]
    fn the_loop_stops_as_clingos() {
        let sat = StepResult::Satisfiable;
        let unsat = StepResult::Unsatisfiable;
        let until_sat = settings(0, None, sat);
        assert!(until_sat.solves(0, None));
        assert!(until_sat.solves(1, Some(unsat)));
        assert!(!until_sat.solves(1, Some(sat)));
        // imin steps are solved whatever their results.
        let at_least_three = settings(3, None, sat);
        assert!(at_least_three.solves(2, Some(sat)));
        assert!(!at_least_three.solves(3, Some(sat)));
        // imax bounds the steps: 0..imax.
        let at_most_two = settings(0, Some(2), sat);
        assert!(at_most_two.solves(1, Some(unsat)));
        assert!(!at_most_two.solves(2, Some(unsat)));
        assert!(!settings(0, Some(0), sat).solves(0, None));
        let until_unsat = settings(0, None, unsat);
        assert!(until_unsat.solves(1, Some(sat)));
        assert!(!until_unsat.solves(1, Some(unsat)));
    }
}
