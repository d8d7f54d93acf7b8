//! One run of a program as a child process: in its own process group, under
//! a limit on its address space (`RLIMIT_AS`), killed at its time limit,
//! measured by `wait4` (wall and CPU time, peak resident memory). Whatever
//! the child does, crash or hang, the runner only reads its end.

use serde::{Deserialize, Serialize};
use std::io::Read;
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Limits {
    pub time: Duration,
    /// Bytes of address space, when limited.
    pub memory: Option<u64>,
}

/// How a child ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exit {
    Code(i32),
    /// Killed by a signal it did not expect (a crash).
    Signal(i32),
    /// Killed at the time limit.
    TimedOut,
}

/// The most of a stream a run keeps: beyond it the rest is read and
/// dropped (a program printing answer sets until its time limit can write
/// gigabytes).
pub const KEPT_OUTPUT: usize = 256 << 20;

#[derive(Clone, Debug)]
pub struct Finished {
    pub exit: Exit,
    pub stdout: String,
    pub stderr: String,
    /// Standard output was longer than [`KEPT_OUTPUT`] and is cut there.
    pub stdout_cut: bool,
    pub wall: Duration,
    pub cpu: Duration,
    /// Peak resident memory in kilobytes.
    pub max_rss_kb: u64,
}

/// Runs `command` (program, then arguments) in `dir` within `limits`. An
/// error only when it cannot be started.
pub fn run(command: &[String], dir: &Path, limits: Limits) -> Result<Finished, String> {
    let (program, args) = command.split_first().ok_or("an empty command")?;
    let mut child = Command::new(program);
    child
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        // Its own group, so that the time limit ends what it started too.
        .process_group(0);
    if let Some(bytes) = limits.memory {
        // SAFETY: between fork and exec only setrlimit runs, which is
        // async-signal-safe and allocates nothing.
        unsafe {
            child.pre_exec(move || {
                let limit = libc::rlimit {
                    rlim_cur: bytes as libc::rlim_t,
                    rlim_max: bytes as libc::rlim_t,
                };
                if libc::setrlimit(libc::RLIMIT_AS, &limit) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            });
        }
    }
    let start = Instant::now();
    let mut child = child
        .spawn()
        .map_err(|e| format!("cannot start {program}: {e}"))?;
    let stdout = drain(child.stdout.take());
    let stderr = drain(child.stderr.take());
    let pid = child.id() as libc::pid_t;
    let (status, usage, timed_out) = wait_within(pid, start, limits.time);
    let wall = start.elapsed();
    let exit = if timed_out {
        Exit::TimedOut
    } else {
        let status = std::process::ExitStatus::from_raw(status);
        match (status.code(), status.signal()) {
            (Some(code), _) => Exit::Code(code),
            (None, Some(signal)) => Exit::Signal(signal),
            (None, None) => Exit::Code(-1),
        }
    };
    let seconds = |time: libc::timeval| {
        Duration::from_secs(time.tv_sec as u64) + Duration::from_micros(time.tv_usec as u64)
    };
    let (stdout, stdout_cut) = stdout.join().unwrap_or_default();
    Ok(Finished {
        exit,
        stdout,
        stdout_cut,
        stderr: stderr.join().unwrap_or_default().0,
        wall,
        cpu: seconds(usage.ru_utime) + seconds(usage.ru_stime),
        max_rss_kb: usage.ru_maxrss as u64,
    })
}

/// Reads a pipe to its end on a thread of its own, so that no pipe fills:
/// its first [`KEPT_OUTPUT`] bytes, and whether there were more.
fn drain(pipe: Option<impl Read + Send + 'static>) -> std::thread::JoinHandle<(String, bool)> {
    std::thread::spawn(move || {
        let mut kept = Vec::new();
        let mut cut = false;
        if let Some(pipe) = pipe {
            let mut pipe = pipe.take(KEPT_OUTPUT as u64);
            let _ = pipe.read_to_end(&mut kept);
            cut = std::io::copy(&mut pipe.into_inner(), &mut std::io::sink()).is_ok_and(|n| n > 0);
        }
        (String::from_utf8_lossy(&kept).into_owned(), cut)
    })
}

/// Waits for the child, killing its process group at the time limit: its
/// wait status, its resource usage and whether it was killed so.
fn wait_within(pid: libc::pid_t, start: Instant, limit: Duration) -> (i32, libc::rusage, bool) {
    let mut status = 0;
    // SAFETY: rusage is plain old data, all zeros is a valid value.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let mut killed = false;
    let mut pause = Duration::from_millis(1);
    loop {
        // SAFETY: the pointers are to locals that outlive the call.
        let waited = unsafe { libc::wait4(pid, &mut status, libc::WNOHANG, &mut usage) };
        if waited == pid {
            return (status, usage, killed);
        }
        if waited < 0 && std::io::Error::last_os_error().kind() != std::io::ErrorKind::Interrupted {
            return (status, usage, killed);
        }
        if !killed && start.elapsed() >= limit {
            // SAFETY: a signal to the child's own process group.
            unsafe { libc::kill(-pid, libc::SIGKILL) };
            killed = true;
        }
        std::thread::sleep(pause);
        // Short runs are seen at once; long ones are polled less often.
        pause = (pause * 2).min(Duration::from_millis(20));
    }
}

/// A signal's name, for reports.
pub fn signal_name(signal: i32) -> String {
    let name = match signal {
        libc::SIGABRT => "SIGABRT",
        libc::SIGSEGV => "SIGSEGV",
        libc::SIGBUS => "SIGBUS",
        libc::SIGILL => "SIGILL",
        libc::SIGFPE => "SIGFPE",
        libc::SIGKILL => "SIGKILL",
        libc::SIGTERM => "SIGTERM",
        libc::SIGINT => "SIGINT",
        libc::SIGPIPE => "SIGPIPE",
        _ => return format!("signal {signal}"),
    };
    format!("signal {signal} ({name})")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shell(script: &str, limits: Limits) -> Finished {
        let command = ["sh", "-c", script].map(String::from);
        run(&command, Path::new("."), limits).unwrap()
    }

    const SECOND: Limits = Limits {
        time: Duration::from_secs(1),
        memory: None,
    };

    #[test]
    fn a_child_is_read_and_measured() {
        let done = shell("echo out; echo err >&2; exit 3", SECOND);
        assert_eq!(done.exit, Exit::Code(3));
        assert_eq!(
            (done.stdout.as_str(), done.stderr.as_str()),
            ("out\n", "err\n")
        );
        assert!(done.max_rss_kb > 0);
    }

    #[test]
    fn a_crash_and_a_hang_are_told_apart() {
        let crash = shell("kill -SEGV $$", SECOND);
        assert_eq!(crash.exit, Exit::Signal(libc::SIGSEGV));
        let limits = Limits {
            time: Duration::from_millis(200),
            memory: None,
        };
        // The sleep is a grandchild: the whole group is ended.
        let hang = shell("sleep 30; echo never", limits);
        assert_eq!(hang.exit, Exit::TimedOut);
        assert!(hang.wall < Duration::from_secs(5), "{:?}", hang.wall);
    }

    #[test]
    fn the_memory_limit_holds_in_the_child() {
        let limits = Limits {
            time: Duration::from_secs(5),
            memory: Some(64 << 20),
        };
        let done = shell("ulimit -v", limits);
        assert_eq!(done.stdout.trim(), (64 * 1024).to_string());
    }
}
