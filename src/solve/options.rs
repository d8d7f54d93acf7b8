//! The options of a search: what the command line sets for the
//! [`super::Enumerator`] and the searches built on it.

use super::backend::Backend;

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SolveOptions {
    /// Stop after this many answer sets; 0 for all.
    pub max_models: usize,
    /// Report each distinct set of shown symbols once, or of the atoms of
    /// `#project` directives when there are some.
    pub project: bool,
    pub translation: TranslationMode,
    pub tuning: SearchTuning,
    /// The atoms only the output reads are left out of the lazy
    /// translation and evaluated in each answer set
    /// ([`crate::translate::unread`]); never with `project`. Off for a search
    /// that reads the atoms' variables themselves (consequences).
    pub unread: bool,
}

impl Default for SolveOptions {
    fn default() -> Self {
        SolveOptions {
            max_models: 0,
            project: false,
            translation: TranslationMode::default(),
            tuning: SearchTuning::default(),
            unread: true,
        }
    }
}

/// The SAT solver of the searches and its settings: those of varisat's
/// search (its `SolverConfig`) that clasp's options map onto; `None` keeps
/// the solver's default. CaDiCaL takes what it has a counterpart of
/// ([`super::backend::cadical::Cadical::new`]), batsat none.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SearchTuning {
    /// Which solver (`--solver`); `None` chooses by the program
    /// ([`Backend::for_translation`]).
    pub backend: Option<Backend>,
    /// Which sums are propagated (`--sums`).
    pub sums: SumMode,
    /// The decay of VSIDS activities, in `[0.5, 1)` (clasp's
    /// `--heuristic=Vsids,<n>`).
    pub vsids_decay: Option<f32>,
    /// The unit of Luby's restart sequence, in conflicts (clasp's
    /// `--restarts=L,<n>`).
    pub luby_restart_unit: Option<u64>,
    /// Conflicts between reductions of the learned clauses varisat keeps
    /// least (its local tier) and of those it keeps longer (its mid tier).
    pub reduce_locals_interval: Option<u64>,
    pub reduce_mids_interval: Option<u64>,
}

/// Which sums of body aggregates the search propagates as weight
/// constraints instead of their clauses (`--sums`), on a backend that
/// takes a propagator; varisat's are always clauses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum SumMode {
    /// Those worth it ([`crate::translate::native_sums`]) in a program without
    /// an objective, where the solver's search is the one consumer of the
    /// clauses (one answer set sought); the backend chosen for them. An
    /// optimum's proof is a refutation, which CDCL finds far sooner with
    /// the diagrams' nodes to learn over (fewest bins for binpacking/20:
    /// 0.17 s as clauses on CaDiCaL, 18 s propagated; clingo 12 s).
    #[default]
    Auto,
    /// None: every sum as clauses.
    Clauses,
    /// Every sum not on a positive cycle, in every search (the
    /// enumeration's walk checks them at its leaves): the tests' way to
    /// run the propagated sums on any program.
    Propagate,
}

/// How non-tight programs are translated.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum TranslationMode {
    /// The completion, with loop formulas added lazily for unfounded
    /// candidate models ([`crate::translate::translate`]).
    #[default]
    Lazy,
    /// The exact CNF that `asp2sat dimacs` exports, with a level ranking
    /// ([`crate::translate::translate_exact`]); no loop-formula rounds.
    Eager,
}
