//! A run stopped before it ends by itself: by its time limit or by SIGINT
//! or SIGTERM, each ending with clingo's interrupted summary.
//!
//! No thread waits for the signals. Their handler only sets the stop flag
//! (and wakes a read of standard input); each stage that can run long
//! looks at the flag and ends early: the read of standard input, the
//! grounding's joins, the search. After each stage the run asks whether
//! it was stopped ([`Interrupt::noticed`]) and, if so, ends with the
//! summary. A second signal ends the process at once. A run of a few
//! milliseconds then starts no thread at all (a thread of its own cost a
//! 9×9 Sudoku a tenth of its time: fixtures/bench/ANALYSIS.md).

use super::output::Interruption;
use super::report::Progress;
use super::status;
use super::text::{Text, read_text};
use std::cell::RefCell;
use std::io::{ErrorKind, Read};
use std::os::fd::AsRawFd;
use std::os::unix::net::UnixStream;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU8, Ordering};
use std::time::Duration;

/// What stopped the run first, as [`Interrupt`] keeps it.
const NOT_STOPPED: u8 = 0;
const BY_TIME_LIMIT: u8 = 1;
const BY_SIGNAL: u8 = 2;

/// What clingo says on standard error when a signal or its time limit
/// stops a run.
const INTERRUPTED_INFO: &str = "*** Info : (asp2sat): INTERRUPTED by signal!";

/// The time limit and the signals of one run.
pub(super) struct Interrupt {
    /// Set by the time limit or a signal: the stages stop at it.
    pub(super) stop: Arc<AtomicBool>,
    /// Which of them set it first (`BY_TIME_LIMIT`, `BY_SIGNAL`).
    cause: Arc<AtomicU8>,
    /// Readable once a signal has come: wakes a read of standard input.
    wake: Option<UnixStream>,
}

/// Arms the time limit (it covers the whole run, grounding included, as
/// clingo's does) and the signals.
pub(super) fn arm(limit: Option<Duration>) -> Interrupt {
    let mut interrupt = Interrupt {
        stop: Arc::new(AtomicBool::new(false)),
        cause: Arc::new(AtomicU8::new(NOT_STOPPED)),
        wake: None,
    };
    if let Some(limit) = limit {
        let (stop, cause) = (interrupt.stop.clone(), interrupt.cause.clone());
        // The one thread, and only with a limit: it sleeps until then.
        std::thread::spawn(move || {
            std::thread::sleep(limit);
            stop_for(BY_TIME_LIMIT, &cause, &stop);
        });
    }
    match interrupt.stop_on_signals() {
        Ok(wake) => interrupt.wake = Some(wake),
        Err(e) => stderrln!("asp2sat: warning: signals will end the run without a summary: {e}"),
    }
    interrupt
}

/// Sets the stop flag for `cause`, unless something set it before.
/// Async-signal-safe: atomic stores only.
fn stop_for(cause: u8, first_cause: &AtomicU8, stop: &AtomicBool) {
    let _ = first_cause.compare_exchange(NOT_STOPPED, cause, Ordering::AcqRel, Ordering::Acquire);
    stop.store(true, Ordering::Release);
}

impl Interrupt {
    /// Stops the run on SIGINT or SIGTERM; returns the end of a socket
    /// pair that a signal makes readable. A second signal ends the process
    /// at once, should the summary not come.
    fn stop_on_signals(&self) -> std::io::Result<UnixStream> {
        use signal_hook::consts::{SIGINT, SIGTERM};
        let signalled = Arc::new(AtomicBool::new(false));
        let (wake, woken) = UnixStream::pair()?;
        for signal in [SIGINT, SIGTERM] {
            // Registered first, so that the first signal only sets the flags.
            signal_hook::flag::register_conditional_shutdown(signal, 1, signalled.clone())?;
            signal_hook::flag::register(signal, signalled.clone())?;
            let (stop, cause) = (self.stop.clone(), self.cause.clone());
            // SAFETY: the action only stores into atomics (`stop_for`),
            // which is async-signal-safe.
            unsafe {
                signal_hook::low_level::register(signal, move || {
                    stop_for(BY_SIGNAL, &cause, &stop);
                })?;
            }
            signal_hook::low_level::pipe::register(signal, woken.try_clone()?)?;
        }
        Ok(wake)
    }

    /// Whether the stop flag is set (the run may not have noticed yet).
    pub(super) fn stopped(&self) -> bool {
        self.stop.load(Ordering::Acquire)
    }

    /// Whether the run was stopped. The first time it is noticed, the
    /// progress line is erased, clingo's message printed, and the cause
    /// recorded for the summary.
    pub(super) fn noticed(&self, progress: &RefCell<Progress>) -> bool {
        let why = match self.cause.load(Ordering::Acquire) {
            BY_TIME_LIMIT => Interruption::TimeLimit,
            BY_SIGNAL => Interruption::Signal,
            _ => return false,
        };
        let mut progress = progress.borrow_mut();
        if progress.record.interrupted.is_none() {
            progress.record.interrupted = Some(why);
            status::clear();
            stderrln!("{INTERRUPTED_INFO}");
        }
        true
    }

    /// Reads standard input as [`read_text`] does, but a signal ends the
    /// read at once (with an error: the run is stopped).
    pub(super) fn read_stdin(&self) -> std::io::Result<Text> {
        match &self.wake {
            Some(wake) => read_text(WakeableStdin { wake }),
            None => read_text(std::io::stdin()),
        }
    }
}

/// Standard input, read from its descriptor (a buffer in between could
/// hold input that `poll` does not see), until it ends or `wake` becomes
/// readable.
struct WakeableStdin<'w> {
    wake: &'w UnixStream,
}

impl Read for WakeableStdin<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let pollfd = |fd| libc::pollfd {
            fd,
            events: libc::POLLIN,
            revents: 0,
        };
        let mut fds = [pollfd(libc::STDIN_FILENO), pollfd(self.wake.as_raw_fd())];
        // SAFETY: `fds` is an array of two initialised `pollfd`s.
        while unsafe { libc::poll(fds.as_mut_ptr(), 2, -1) } < 0 {
            let error = std::io::Error::last_os_error();
            if error.kind() != ErrorKind::Interrupted {
                return Err(error);
            }
        }
        if fds[1].revents != 0 {
            // Not `Interrupted`: `read_to_end` would try again, for ever.
            return Err(std::io::Error::other("stopped by a signal"));
        }
        // SAFETY: `buf` is valid for writes of `buf.len()` bytes.
        let read = unsafe { libc::read(libc::STDIN_FILENO, buf.as_mut_ptr().cast(), buf.len()) };
        usize::try_from(read).map_err(|_| std::io::Error::last_os_error())
    }
}
