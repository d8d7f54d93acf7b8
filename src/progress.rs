//! What a run has done so far, for whoever shows it (the command line's
//! progress line on a terminal): the stages publish their counts as they
//! go, with relaxed atomic stores that never wait for a reader and cost no
//! more than plain writes, and do no I/O.

use std::sync::atomic::{AtomicU8, AtomicU64, Ordering::Relaxed};

/// The stage a run is in.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Stage {
    #[default]
    Parsing,
    Grounding,
    Translating,
    Solving,
}

impl Stage {
    const ALL: [Stage; 4] = [
        Stage::Parsing,
        Stage::Grounding,
        Stage::Translating,
        Stage::Solving,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Stage::Parsing => "parsing",
            Stage::Grounding => "grounding",
            Stage::Translating => "translating",
            Stage::Solving => "solving",
        }
    }
}

/// The counts of a run, shared between the thread that works and one that
/// reads them.
#[derive(Debug, Default)]
pub struct Counters {
    stage: AtomicU8,
    atoms: AtomicU64,
    rules: AtomicU64,
    models: AtomicU64,
    loop_rounds: AtomicU64,
}

impl Counters {
    pub fn enter(&self, stage: Stage) {
        self.stage.store(stage as u8, Relaxed);
    }

    /// The ground program has `atoms` atoms and `rules` rules so far.
    pub fn grounded(&self, atoms: usize, rules: usize) {
        self.atoms.store(atoms as u64, Relaxed);
        self.rules.store(rules as u64, Relaxed);
    }

    pub fn found_models(&self, models: usize) {
        self.models.store(models as u64, Relaxed);
    }

    /// Candidate models cut away by loop formulas so far.
    pub fn loop_rounds(&self, rounds: usize) {
        self.loop_rounds.store(rounds as u64, Relaxed);
    }

    pub fn snapshot(&self) -> Snapshot {
        Snapshot {
            stage: Stage::ALL[usize::from(self.stage.load(Relaxed))],
            atoms: self.atoms.load(Relaxed),
            rules: self.rules.load(Relaxed),
            models: self.models.load(Relaxed),
            loop_rounds: self.loop_rounds.load(Relaxed),
        }
    }
}

/// The counts at one moment.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Snapshot {
    pub stage: Stage,
    pub atoms: u64,
    pub rules: u64,
    pub models: u64,
    pub loop_rounds: u64,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_snapshot_holds_what_was_published() {
        let counters = Counters::default();
        assert_eq!(counters.snapshot(), Snapshot::default());
        counters.enter(Stage::Solving);
        counters.grounded(10, 20);
        counters.found_models(3);
        counters.loop_rounds(4);
        let expected = Snapshot {
            stage: Stage::Solving,
            atoms: 10,
            rules: 20,
            models: 3,
            loop_rounds: 4,
        };
        assert_eq!(counters.snapshot(), expected);
        for stage in Stage::ALL {
            counters.enter(stage);
            assert_eq!(counters.snapshot().stage, stage);
        }
    }
}
