//! A run stopped before it ends by itself: by its time limit or by SIGINT
//! or SIGTERM, each ending with clingo's interrupted summary.

use super::output::{Interruption, Outcome};
use super::report::{Progress, lock};
use super::status;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// Arms the time limit (it covers the whole run, grounding included, as
/// clingo's does) and the signals; returns the flag they set, at which the
/// search stops.
pub(super) fn arm(limit: Option<Duration>, progress: &Arc<Mutex<Progress>>) -> Arc<AtomicBool> {
    let stop = Arc::new(AtomicBool::new(false));
    if let Some(limit) = limit {
        spawn_watchdog(progress.clone(), stop.clone(), limit);
    }
    if let Err(e) = stop_on_signals(progress.clone(), stop.clone()) {
        stderrln!("asp2sat: warning: signals will end the run without a summary: {e}");
    }
    stop
}

/// Stops the run when the limit passes ([`request_stop`]).
fn spawn_watchdog(progress: Arc<Mutex<Progress>>, stop: Arc<AtomicBool>, limit: Duration) {
    std::thread::spawn(move || {
        std::thread::sleep(limit);
        request_stop(&progress, &stop, Interruption::TimeLimit);
    });
}

/// What clingo says on standard error when a signal or its time limit
/// stops a run.
const INTERRUPTED_INFO: &str = "*** Info : (asp2sat): INTERRUPTED by signal!";

/// How long a stopped run may take to end by itself: the search stops at
/// once, but grounding and translation do not look at the flag.
const UNHEEDED_STOP: Duration = Duration::from_millis(500);

/// Stops the run on SIGINT or SIGTERM ([`request_stop`]). A second signal
/// ends the process at once, should the summary not come.
fn stop_on_signals(progress: Arc<Mutex<Progress>>, stop: Arc<AtomicBool>) -> std::io::Result<()> {
    use signal_hook::consts::{SIGINT, SIGTERM};
    let signalled = Arc::new(AtomicBool::new(false));
    for signal in [SIGINT, SIGTERM] {
        // Registered first, so the first signal only sets the flag.
        signal_hook::flag::register_conditional_shutdown(signal, 1, signalled.clone())?;
        signal_hook::flag::register(signal, signalled.clone())?;
    }
    let mut signals = signal_hook::iterator::Signals::new([SIGINT, SIGTERM])?;
    std::thread::spawn(move || {
        if signals.forever().next().is_some() {
            request_stop(&progress, &stop, Interruption::Signal);
        }
    });
    Ok(())
}

/// Stops the run for `why`: the search stops at `stop`, and the run ends
/// with clingo's interrupted summary, the models found so far printed
/// already. Should the run still not have ended after [`UNHEEDED_STOP`]
/// (grounding, translation), the summary is printed from here and the
/// process ends with clingo's exit code.
fn request_stop(progress: &Mutex<Progress>, stop: &AtomicBool, why: Interruption) {
    {
        let mut progress = lock(progress);
        if progress.finished {
            return;
        }
        progress.record.interrupted.get_or_insert(why);
    }
    // The progress line is not drawn again: the summary follows.
    status::clear();
    stderrln!("{INTERRUPTED_INFO}");
    stop.store(true, Ordering::Release);
    std::thread::sleep(UNHEEDED_STOP);
    let mut progress = lock(progress);
    if progress.finished {
        return;
    }
    let outcome = progress.record.settled.unwrap_or(Outcome::Unknown);
    progress.finish(outcome, None, Some(why));
    std::process::exit(i32::from(outcome.exit_code(progress.record.models, true)));
}
