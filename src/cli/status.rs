//! The progress line on a terminal: a run longer than a second shows one
//! line on standard error with its stage, the atoms and rules ground so
//! far, the models found and the loop-formula rounds, redrawn a few times a
//! second from [`Counters`] by a thread of its own, and erased when the run
//! ends. Nothing is shown when standard error is not a terminal.
//!
//! There is one standard error, so there is one line, kept here for the
//! whole process: every other write to the terminal goes around it
//! ([`around_stderr`], [`around_stdout`]), so that it never ends up in the
//! middle of an answer or a message.

use crate::progress::{Counters, Snapshot, Stage};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::{IsTerminal, Write};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// How long a run goes before the line appears: most runs end sooner and
/// show nothing.
const DELAY: Duration = Duration::from_secs(1);

/// How often the line is redrawn.
const TICK: Duration = Duration::from_millis(100);

static LINE: OnceLock<StatusLine> = OnceLock::new();

struct StatusLine {
    shared: Arc<Shared>,
    /// Standard output is a terminal too: answers are written around the
    /// line as well.
    stdout_is_terminal: bool,
    /// Stops the thread that draws the line (by closing the channel).
    ticker: Mutex<Option<(mpsc::Sender<()>, JoinHandle<()>)>>,
}

/// What the thread that draws the line shares with the writers.
struct Shared {
    bar: ProgressBar,
    /// Whether the line is on the terminal. Held while the line is drawn
    /// or erased, and while anything else writes to the terminal.
    drawn: Mutex<bool>,
}

impl Shared {
    fn drawn(&self) -> MutexGuard<'_, bool> {
        self.drawn
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Draws the line with `text`, attaching the bar to the terminal
    /// again after [`Shared::erase`].
    fn draw(&self, text: String) {
        let mut drawn = self.drawn();
        if !*drawn {
            self.bar.set_draw_target(ProgressDrawTarget::stderr());
            *drawn = true;
        }
        self.bar.set_message(text);
    }

    /// Takes the line off the terminal until the next [`Shared::draw`]:
    /// the bar is detached from the terminal and the line erased by hand
    /// (back to its start, cleared), where indicatif's `suspend` would
    /// draw it again after every answer.
    fn erase(&self, drawn: &mut bool) {
        if *drawn {
            self.bar.set_draw_target(ProgressDrawTarget::hidden());
            let _ = std::io::stderr().write_all(b"\r\x1b[2K");
            *drawn = false;
        }
    }
}

/// Whether a run shows the line: standard error is a terminal that can
/// redraw a line (`TERM` set and not `dumb`, as indicatif requires).
pub fn shows_line(stderr_is_terminal: bool, term: Option<&str>) -> bool {
    stderr_is_terminal && !matches!(term, None | Some("" | "dumb"))
}

/// Starts the line for this run, reading `counters`, when standard error
/// is a terminal. Called once, before the run's first stage.
pub fn start(counters: Arc<Counters>) {
    let term = std::env::var("TERM").ok();
    if !shows_line(std::io::stderr().is_terminal(), term.as_deref()) {
        return;
    }
    // `wide_msg` cuts the line to the terminal's width: it stays one line,
    // which `erase` clears.
    let bar = ProgressBar::hidden();
    bar.set_style(ProgressStyle::with_template("{wide_msg}").expect("a valid template"));
    let shared = Arc::new(Shared {
        bar,
        drawn: Mutex::new(false),
    });
    let (stop, stopped) = mpsc::channel::<()>();
    let ticker = {
        let shared = shared.clone();
        std::thread::spawn(move || {
            let started = Instant::now();
            let mut wait = DELAY;
            while stopped.recv_timeout(wait) == Err(RecvTimeoutError::Timeout) {
                shared.draw(line(started.elapsed(), counters.snapshot()));
                wait = TICK;
            }
            shared.erase(&mut shared.drawn());
        })
    };
    let _ = LINE.set(StatusLine {
        shared,
        stdout_is_terminal: std::io::stdout().is_terminal(),
        ticker: Mutex::new(Some((stop, ticker))),
    });
}

/// Erases the line for good, once the run is over (before its summary).
pub fn clear() {
    let Some(line) = LINE.get() else {
        return;
    };
    let ticker = line.ticker.lock().map(|mut t| t.take());
    if let Ok(Some((stop, ticker))) = ticker {
        drop(stop);
        let _ = ticker.join();
    }
}

/// Runs `write`, a write to standard error, with the line taken off the
/// terminal (it comes back at the next redraw).
pub fn around_stderr<R>(write: impl FnOnce() -> R) -> R {
    match LINE.get() {
        Some(line) => around(&line.shared, write),
        None => write(),
    }
}

/// Runs `write`, a write to standard output, with the line taken off the
/// terminal when both go to it.
pub fn around_stdout<R>(write: impl FnOnce() -> R) -> R {
    match LINE.get().filter(|line| line.stdout_is_terminal) {
        Some(line) => around(&line.shared, write),
        None => write(),
    }
}

fn around<R>(shared: &Shared, write: impl FnOnce() -> R) -> R {
    let mut drawn = shared.drawn();
    shared.erase(&mut drawn);
    write()
}

/// The line's text: `3.2s solving: 1,024 atoms, 2,048 rules, 12 models,
/// 3 loop-formula rounds`; the counts a stage has not reached yet are left
/// out.
fn line(elapsed: Duration, counts: Snapshot) -> String {
    let mut text = format!("{:.1}s {}", elapsed.as_secs_f64(), counts.stage.name());
    let mut parts = Vec::new();
    if counts.stage != Stage::Parsing {
        parts.push(counted(counts.atoms, "atom"));
        parts.push(counted(counts.rules, "rule"));
    }
    if counts.stage == Stage::Solving {
        parts.push(counted(counts.models, "model"));
        if counts.loop_rounds > 0 {
            parts.push(counted(counts.loop_rounds, "loop-formula round"));
        }
    }
    if !parts.is_empty() {
        text.push_str(": ");
        text.push_str(&parts.join(", "));
    }
    text
}

/// `1 model`, `12,345 models`.
fn counted(n: u64, what: &str) -> String {
    let digits = n.to_string();
    let mut grouped = String::with_capacity(digits.len() * 4 / 3);
    for (i, digit) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            grouped.push(',');
        }
        grouped.push(digit);
    }
    let plural = if n == 1 { "" } else { "s" };
    format!("{grouped} {what}{plural}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_line_names_the_stage_and_what_it_has_reached() {
        let at = Duration::from_millis(3_240);
        let mut counts = Snapshot::default();
        assert_eq!(line(at, counts), "3.2s parsing");
        counts.stage = Stage::Grounding;
        counts.atoms = 1_234_567;
        counts.rules = 1;
        assert_eq!(line(at, counts), "3.2s grounding: 1,234,567 atoms, 1 rule");
        counts.stage = Stage::Translating;
        assert_eq!(
            line(at, counts),
            "3.2s translating: 1,234,567 atoms, 1 rule"
        );
        counts.stage = Stage::Solving;
        assert_eq!(
            line(at, counts),
            "3.2s solving: 1,234,567 atoms, 1 rule, 0 models"
        );
        counts.models = 1;
        counts.loop_rounds = 1_000;
        assert_eq!(
            line(at, counts),
            "3.2s solving: 1,234,567 atoms, 1 rule, 1 model, 1,000 loop-formula rounds"
        );
    }

    #[test]
    fn only_a_terminal_that_redraws_shows_the_line() {
        assert!(shows_line(true, Some("xterm-256color")));
        assert!(!shows_line(false, Some("xterm-256color")));
        assert!(!shows_line(true, None));
        assert!(!shows_line(true, Some("dumb")));
    }
}
