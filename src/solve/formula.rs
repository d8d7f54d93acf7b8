//! What the translation writes into on its way to the search: the
//! solver and the enumeration's copy of its clauses ([`Formula`]), or,
//! while the backend waits on what the translation holds, the clauses kept
//! until it is chosen ([`Written`]).

use super::backend::SatSolver;
use super::backtracking::Propagator;
use super::{SolveOptions, TranslationMode};
use crate::diagnostics::Diagnostic;
use crate::ground::program::GroundProgram;
use crate::translate::analysis::Analysis;
use crate::translate::{self, ClauseSink, Translation};
use varisat_formula::{CnfFormula, ExtendFormula, Lit, Var};

/// Translates `program` (of `analysis`) into `sink`, lazily (its sums as
/// `sums` says, the unread atoms left out as `options` says) or exactly.
pub(super) fn translate_into(
    program: &GroundProgram,
    analysis: &Analysis,
    options: SolveOptions,
    sums: translate::SumEncoding,
    sink: &mut impl ClauseSink,
) -> Result<Translation, Diagnostic> {
    match options.translation {
        TranslationMode::Lazy => {
            let unread = options.unread && !options.project;
            translate::translate_analyzed(program, analysis, sums, unread, sink)
        }
        TranslationMode::Eager => translate::translate_exact_analyzed(program, analysis, sink),
    }
}

/// The translation's clauses, before the solver is chosen, the
/// enumeration's copy of them, and the variables with a value to try
/// first ([`ClauseSink::new_var_deciding`]), in order.
pub(super) struct Written {
    formula: CnfFormula,
    copy: Propagator,
    deciding: Vec<(Var, bool)>,
}

impl Written {
    pub(super) fn new(copy: Propagator) -> Written {
        Written {
            formula: CnfFormula::new(),
            copy,
            deciding: Vec::new(),
        }
    }

    /// The clauses written into `solver`, its variables first, and the
    /// copy: the formula the search goes on with.
    pub(super) fn into_formula(self, mut solver: Box<dyn SatSolver>) -> Formula {
        let mut deciding = self.deciding.iter().peekable();
        for index in 0..self.formula.var_count() {
            match deciding.next_if(|(var, _)| var.index() == index) {
                Some(&(_, value)) => solver.new_var_deciding(value),
                None => solver.new_var(),
            };
        }
        for clause in self.formula.iter() {
            solver.add_clause(clause);
        }
        Formula {
            solver,
            copy: self.copy,
        }
    }
}

impl ExtendFormula for Written {
    fn add_clause(&mut self, literals: &[Lit]) {
        self.formula.add_clause(literals);
        self.copy.add_clause(literals);
    }

    fn new_var(&mut self) -> Var {
        let var = self.formula.new_var();
        self.copy.add_var(var);
        var
    }
}

impl ClauseSink for Written {
    fn new_var_deciding(&mut self, value: bool) -> Var {
        let var = self.new_var();
        self.deciding.push((var, value));
        var
    }
}

/// The solver, and the enumeration's copy of its clauses: whatever is
/// written goes into both, so the copy cannot miss a clause.
pub(crate) struct Formula {
    pub(super) solver: Box<dyn SatSolver>,
    pub(super) copy: Propagator,
}

impl ExtendFormula for Formula {
    fn add_clause(&mut self, literals: &[Lit]) {
        self.solver.add_clause(literals);
        self.copy.add_clause(literals);
    }

    fn new_var(&mut self) -> Var {
        let var = self.solver.new_var();
        self.copy.add_var(var);
        var
    }
}

impl ClauseSink for Formula {
    fn new_var_deciding(&mut self, value: bool) -> Var {
        let var = self.solver.new_var_deciding(value);
        self.copy.add_var(var);
        var
    }
}
