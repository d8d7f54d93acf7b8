//! What a `solve` run prints as it goes: [`Progress`], the output's state
//! (its format, what is held back, failed writes to standard output, which
//! stop the run) apart from its [`Record`] of what the run found, which the
//! summary reports; and [`CallReport`], which prints the search's events
//! into it.

use super::args::{Config, Quiet};
use super::output::{
    self, Blamed, ConsequenceSummary, Format, Interruption, JsonDocument, OptimizationSummary,
    Outcome, Sizes, Style, Summary, Timings, Witness,
};
use super::write::{Stdout, stdout_failure, stdout_writer};
use super::{pictures, status};
use crate::progress::Counters;
use crate::solve::AnswerSet;
use crate::solve::driver::{Consequences, Event, Found, Report};
use crate::solve::optimize::OptMode;
use crate::symbols::{SymId, SymbolTable};
use rustc_hash::FxHashMap;
use std::cell::RefCell;
use std::fmt::Write as _;
use std::io::Write;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The output of a `solve` run: how it is printed and what is printed so
/// far, and the record of what the run found, which the summary reports
/// (an interrupted run's too).
pub(super) struct Progress {
    pub(super) style: Style,
    /// What the progress line on a terminal shows.
    pub(super) counters: Arc<Counters>,
    quiet: Quiet,
    inputs: Vec<String>,
    /// The JSON document written so far, with `--outf=2`.
    json: JsonDocument,
    /// The last model of the JSON output, written when the next one comes
    /// or the call ends: brave and cautious consequences are added to it
    /// first.
    unwritten: Option<Witness>,
    /// The last model, with its number, when `--quiet=1` holds it back for
    /// the end of the run.
    held: Option<(usize, Witness)>,
    /// The first failed write to standard output: nothing more is
    /// written, and the run stops (see [`Progress::output_failure`]).
    output_error: Option<std::io::Error>,
    pictures: pictures::PictureWriter,
    /// The `--grid` table of the model in `held`.
    held_grid: Option<String>,
    /// Why a picture could not be written: the run stops.
    pub(super) picture_error: Option<pictures::PictureError>,
    pub(super) record: Record,
    symbol_texts: SymbolTexts,
}

/// The text of each symbol of a call's answer sets printed, kept from its
/// second answer set on: an enumeration prints the same symbols again and
/// again, and formatting each anew was most of printing them. A single
/// answer set, perhaps of hundreds of thousands of atoms, is written as it
/// is formatted.
#[derive(Default)]
struct SymbolTexts {
    /// Answer sets of the call so far.
    answers: usize,
    /// Where each symbol's text is in `texts`.
    spans: FxHashMap<SymId, (u32, u32)>,
    texts: String,
}

impl SymbolTexts {
    /// Formats those of `shown` not formatted yet.
    fn render(&mut self, shown: &[SymId], symbols: &SymbolTable) {
        for &symbol in shown {
            if !self.spans.contains_key(&symbol) {
                let start = self.texts.len() as u32;
                write!(self.texts, "{}", symbols.display(symbol)).expect("a String takes any text");
                self.spans.insert(symbol, (start, self.texts.len() as u32));
            }
        }
    }

    /// The text of `symbol`, formatted by [`SymbolTexts::render`].
    fn text(&self, symbol: SymId) -> &str {
        let (start, end) = self.spans[&symbol];
        &self.texts[start as usize..end as usize]
    }

    /// The texts of `answer`'s symbols, from the cache from the call's
    /// second answer set on.
    fn atoms(&mut self, answer: &AnswerSet, symbols: &SymbolTable) -> Vec<String> {
        self.answers += 1;
        if self.answers == 1 {
            return answer.atoms(symbols);
        }
        self.render(&answer.shown, symbols);
        (answer.shown.iter())
            .map(|&s| self.text(s).to_owned())
            .collect()
    }
}

/// What a run has found so far, from the search's events: what its
/// summary says.
pub(super) struct Record {
    /// Solver calls started.
    pub(super) calls: usize,
    pub(super) models: usize,
    /// For a program that optimizes: what the summary says of it.
    optimization: Option<OptimizationSummary>,
    /// With `--enum-mode=brave` or `cautious`: which, the number of
    /// consequences and clingo's `[lower;upper]` of the last model (`[n;n]`
    /// once no answer set changes them).
    consequences: Option<(Consequences, usize, (usize, usize))>,
    started: Instant,
    /// When the search began and when it last found a model, so that an
    /// interrupted run reports its times too.
    pub(super) solve_started: Option<Instant>,
    pub(super) last_model: Option<Instant>,
    pub(super) timings: Timings,
    /// With `--explain`, when there is no answer set: the statements to
    /// blame, for the JSON output.
    pub(super) explanation: Option<Vec<Blamed>>,
    /// What stopped the run before it ended by itself (the time limit, a
    /// signal).
    pub(super) interrupted: Option<Interruption>,
}

impl Progress {
    /// The output of a run of `config` that has printed nothing yet.
    pub(super) fn new(config: &Config, counters: Arc<Counters>) -> Progress {
        Progress {
            style: Style {
                format: config.format,
                verbosity: config.verbosity,
            },
            counters,
            quiet: config.quiet,
            inputs: config.inputs.clone(),
            json: JsonDocument::default(),
            unwritten: None,
            held: None,
            output_error: None,
            pictures: pictures::PictureWriter::new(
                config.pictures.clone(),
                config.warnings.shows("other"),
            ),
            held_grid: None,
            picture_error: None,
            record: Record {
                calls: 0,
                models: 0,
                optimization: None,
                consequences: None,
                started: Instant::now(),
                solve_started: None,
                last_model: None,
                timings: Timings::default(),
                explanation: None,
                interrupted: None,
            },
            symbol_texts: SymbolTexts::default(),
        }
    }

    /// Prints an answer set the search found (an optimal one, which
    /// `--quiet=1` prints at once, too). Returns whether standard output
    /// still works: when not, the search should stop.
    fn answer(
        &mut self,
        Found {
            number,
            answer,
            costs,
            consequences,
            optimal,
        }: Found<'_>,
        symbols: &SymbolTable,
    ) -> bool {
        let number = number.unwrap_or(self.record.models + 1);
        self.record.models += 1;
        self.counters.found_models(self.record.models);
        self.record.last_model = Some(Instant::now());
        let solving = self.record.solve_started.unwrap_or(self.record.started);
        self.record
            .timings
            .first_model
            .get_or_insert_with(|| solving.elapsed());
        if let Some(optimization) = &mut self.record.optimization {
            optimization.costs.clone_from(&costs);
        }
        if let Err(error) = self.pictures.draw(number, answer, symbols) {
            self.picture_error = Some(error);
            return false;
        }
        let shown = |level: u8| level == 0 || (level == 1 && optimal);
        let (show_model, show_costs) = (shown(self.quiet.models), shown(self.quiet.costs));
        let holding = self.quiet.models == 1 && !optimal;
        let grid = (self.style.format == Format::Text && (show_model || holding))
            .then(|| self.pictures.grid(answer, symbols))
            .flatten();
        if holding {
            self.held_grid.clone_from(&grid);
            let atoms = answer.atoms(symbols);
            self.held = Some((
                number,
                Witness {
                    atoms,
                    costs: costs.clone(),
                    consequences,
                },
            ));
        }
        match self.style.format {
            Format::Nothing => return true,
            Format::Json => {
                if show_model {
                    let atoms = self.symbol_texts.atoms(answer, symbols);
                    self.write_unwritten();
                    self.unwritten = Some(Witness {
                        atoms,
                        costs,
                        consequences,
                    });
                }
                return self.output_error.is_none();
            }
            Format::Text | Format::Competition => {}
        }
        let writes = show_model || (show_costs && costs.is_some());
        if !writes {
            return self.output_error.is_none(); // nothing to write (`--quiet`)
        }
        let style = self.style;
        let mut texts = std::mem::take(&mut self.symbol_texts);
        texts.answers += 1;
        let cached = show_model && texts.answers > 1;
        if cached {
            texts.render(&answer.shown, symbols);
        }
        let printed = self.print(|out| {
            if show_model {
                if cached {
                    let atoms = answer.shown.iter().map(|&s| texts.text(s));
                    output::write_answer(out, style, number, atoms)?;
                } else {
                    let atoms = answer.shown.iter().map(|&s| symbols.display(s));
                    output::write_answer(out, style, number, atoms)?;
                }
                if let Some(bounds) = consequences {
                    output::write_consequences(out, bounds)?;
                }
            }
            if let Some(costs) = costs.filter(|_| show_costs) {
                output::write_costs(out, style, &costs)?;
            }
            match grid.filter(|_| show_model) {
                Some(grid) => out.write_all(grid.as_bytes()),
                None => Ok(()),
            }
        });
        self.symbol_texts = texts;
        printed
    }

    /// Writes to standard output unless an earlier write failed, keeping
    /// the first failure; returns whether standard output still works.
    pub(super) fn print(&mut self, write: impl FnOnce(&mut Stdout) -> std::io::Result<()>) -> bool {
        if self.output_error.is_none() {
            let mut out = stdout_writer();
            let written = status::around_stdout(|| write(&mut out).and_then(|()| out.flush()));
            if let Err(e) = written {
                self.output_error = Some(e);
            }
        }
        self.output_error.is_none()
    }

    /// The exit code once a write to standard output failed (see
    /// [`stdout_failure`]).
    pub(super) fn output_failure(&self) -> Option<u8> {
        self.output_error.as_ref().map(stdout_failure)
    }

    /// Once the consequences are exact: the model `--quiet=1` held back
    /// shows them as exact, as clingo's does, and so does the summary.
    fn settle_consequences(&mut self) {
        if let Some((_, count, bounds)) = &mut self.record.consequences {
            *bounds = (*count, *count);
            if let Some((_, held)) = &mut self.held {
                held.consequences = Some(*bounds);
            }
        }
    }

    /// Starts the JSON output's next solver call.
    pub(super) fn begin_call(&mut self) {
        self.record.calls += 1;
        // A call's symbols are its program's: another program may number
        // them otherwise.
        self.symbol_texts = SymbolTexts::default();
        if self.style.format == Format::Json {
            self.write_unwritten();
            let text = self.json.open_call(&self.inputs);
            self.print(|out| out.write_all(text.as_bytes()));
        }
    }

    /// Writes the JSON output's last model.
    fn write_unwritten(&mut self) {
        if let Some(witness) = self.unwritten.take() {
            self.write_witness(&witness);
        }
    }

    fn write_witness(&mut self, witness: &Witness) {
        let text = self.json.witness(witness);
        self.print(|out| out.write_all(text.as_bytes()));
    }

    /// Prints what is held back and the summary; `interrupted` when the
    /// search did not end by itself.
    pub(super) fn finish(
        &mut self,
        outcome: Outcome,
        sizes: Option<&Sizes>,
        interrupted: Option<Interruption>,
    ) {
        status::clear();
        // One instant for both, so that `Solve` never exceeds `Total` when
        // the thread is preempted between two readings of the clock.
        let now = Instant::now();
        self.record.timings.total = now - self.record.started;
        self.record.timings.cpu = processor_time();
        if let Some(solve_started) = self.record.solve_started {
            self.record.timings.solve = now - solve_started;
        }
        self.finish_pictures();
        let held = self.held.take();
        match self.style.format {
            Format::Nothing => return,
            Format::Json => {
                self.write_unwritten();
                if let Some((_, witness)) = held {
                    self.write_witness(&witness);
                }
            }
            Format::Text | Format::Competition => {
                if let Some((number, witness)) = held {
                    let costs = witness.costs.filter(|_| self.quiet.costs == 1);
                    let style = self.style;
                    let grid = self.held_grid.take();
                    self.print(|out| {
                        let atoms = witness.atoms.iter().map(String::as_str);
                        output::write_answer(out, style, number, atoms)?;
                        if let Some(bounds) = witness.consequences {
                            output::write_consequences(out, bounds)?;
                        }
                        if let Some(costs) = costs {
                            output::write_costs(out, style, &costs)?;
                        }
                        out.write_all(grid.unwrap_or_default().as_bytes())
                    });
                }
            }
        }
        let summary = Summary {
            outcome,
            interrupted,
            consequences: (self.record.consequences).map(|(kind, count, (lower, upper))| {
                ConsequenceSummary {
                    kind: if kind == Consequences::Brave {
                        "Brave"
                    } else {
                        "Cautious"
                    },
                    count,
                    open: upper - lower,
                }
            }),
            models: self.record.models,
            calls: self.record.calls,
            timings: &self.record.timings,
            stats: sizes,
            optimization: self.record.optimization.as_ref(),
            explanation: self.record.explanation.as_deref(),
        };
        let text = if self.style.format == Format::Json {
            self.json.close(&self.inputs, &summary)
        } else {
            output::summary_text(&summary, self.style)
        };
        self.print(|out| out.write_all(text.as_bytes()));
    }

    /// Writes the picture held for a single file or standard output (an
    /// interrupted run too), and says why pictures could not be written.
    fn finish_pictures(&mut self) {
        match self.pictures.finish() {
            Ok(Some(svg)) => {
                self.print(|out| out.write_all(svg.as_bytes()));
            }
            Ok(None) => {}
            Err(error) => self.picture_error = self.picture_error.take().or(Some(error)),
        }
        if let Some(error) = &self.picture_error {
            stderrln!("asp2sat: error: {}", error.message);
        }
    }
}

/// Prints what the search of one call reports.
pub(super) struct CallReport<'p> {
    pub(super) progress: &'p RefCell<Progress>,
    pub(super) symbols: &'p SymbolTable,
    /// The optimization mode, for a program that optimizes.
    pub(super) objective: Option<OptMode>,
    pub(super) consequences: Consequences,
    /// When the search began.
    pub(super) started: Instant,
}

impl Report for CallReport<'_> {
    fn event(&mut self, event: Event<'_>) -> bool {
        let mut progress = self.progress.borrow_mut();
        match event {
            Event::Searching { translate_time } => {
                let style = progress.style;
                if !progress.print(|out| output::write_solving(out, style)) {
                    return false;
                }
                progress.record.timings.translate += translate_time;
                progress
                    .record
                    .solve_started
                    .get_or_insert_with(Instant::now);
                progress.begin_call();
                progress.record.optimization = self.objective.map(|mode| OptimizationSummary {
                    mode,
                    ..OptimizationSummary::default()
                });
                self.started = Instant::now();
            }
            Event::Answer(found) => {
                let (count, bounds) = (found.answer.shown.len(), found.consequences);
                if !progress.answer(found, self.symbols) {
                    return false;
                }
                if let Some(bounds) = bounds {
                    progress.record.consequences = Some((self.consequences, count, bounds));
                }
            }
            Event::OptimumProven => optimization(&mut progress).proven = true,
            Event::OptimalFollow => progress.held = None,
            Event::Optimal(count) => optimization(&mut progress).optimal = count,
            Event::Enumerated { exhausted } => {
                if let Some(optimization) = &mut progress.record.optimization {
                    optimization.proven = exhausted; // clingo's `OPTIMUM FOUND` of `enum`
                }
            }
            Event::ConsequencesExact => progress.settle_consequences(),
        }
        true
    }
}

/// What the summary says of the optimization of a program that optimizes.
fn optimization(progress: &mut Progress) -> &mut OptimizationSummary {
    progress.record.optimization.as_mut().expect("optimizing")
}

/// The processor time the process has used, user and system, as clingo's
/// `CPU Time` reports it.
fn processor_time() -> Duration {
    let mut usage = std::mem::MaybeUninit::<libc::rusage>::uninit();
    // SAFETY: getrusage writes a complete `rusage` into the pointer it is
    // given and reports failure by its return value.
    let usage = unsafe {
        if libc::getrusage(libc::RUSAGE_SELF, usage.as_mut_ptr()) != 0 {
            return Duration::ZERO;
        }
        usage.assume_init()
    };
    let time = |t: libc::timeval| {
        Duration::from_secs(t.tv_sec.max(0) as u64) + Duration::from_micros(t.tv_usec.max(0) as u64)
    };
    time(usage.ru_utime) + time(usage.ru_stime)
}
