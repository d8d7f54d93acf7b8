//! One run of a program as a child process: in its own process group, under
//! a limit on its address space (`RLIMIT_AS`), killed at its time limit,
//! measured by `wait4` (wall and CPU time, peak resident memory). Whatever
//! the child does, crash or hang, the runner only reads its end.
//!
//! Linux starts a child's peak memory at its parent's when it execs (the
//! peak of the address space it leaves), so a runner that has read large
//! outputs would measure itself in every later case. Where the runner is
//! asp2sat, each child is therefore started by a fresh `asp2sat measure`
//! ([`measure_through`], [`measure`]), a few megabytes, as GNU time is.

use serde::{Deserialize, Serialize};
use std::io::Read;
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU64, Ordering};
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

impl Exit {
    /// The end of a process that exited with `code` or was killed by
    /// `signal`.
    fn of(code: Option<i32>, signal: Option<i32>) -> Exit {
        match (code, signal) {
            (Some(code), _) => Exit::Code(code),
            (None, Some(signal)) => Exit::Signal(signal),
            (None, None) => Exit::Code(-1),
        }
    }
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

/// The asp2sat binary that starts and measures each child, once set.
static MEASURER: OnceLock<PathBuf> = OnceLock::new();

/// From now on, children are started and measured by `binary measure`
/// (asp2sat's own hidden subcommand).
pub fn measure_through(binary: PathBuf) {
    let _ = MEASURER.set(binary);
}

/// How a child ended, as [`measure`] writes it for the runner.
#[derive(Debug, PartialEq, Serialize, Deserialize)]
struct Measured {
    code: Option<i32>,
    signal: Option<i32>,
    wall_us: u64,
    cpu_us: u64,
    max_rss_kb: u64,
}

/// `asp2sat measure REPORT -- COMMAND..`: runs the command with this
/// process's standard streams and, once it ends, writes how into the file
/// REPORT (JSON). The exit code: 0; 2 when the command cannot start, 1
/// when the report cannot be written.
pub fn measure(report: &Path, command: &[String]) -> i32 {
    let Some((program, args)) = command.split_first() else {
        return 2;
    };
    let start = Instant::now();
    let Ok(child) = Command::new(program).args(args).spawn() else {
        return 2;
    };
    // SAFETY: rusage is plain old data, all zeros is a valid value.
    let (mut status, mut usage) = (0, unsafe { std::mem::zeroed::<libc::rusage>() });
    // SAFETY: the pointers are to locals that outlive the call; the runner
    // kills the process group at the time limit, so the wait ends.
    while unsafe { libc::wait4(child.id() as libc::pid_t, &mut status, 0, &mut usage) } < 0 {
        if std::io::Error::last_os_error().kind() != std::io::ErrorKind::Interrupted {
            return 2;
        }
    }
    let status = std::process::ExitStatus::from_raw(status);
    let measured = Measured {
        code: status.code(),
        signal: status.signal(),
        wall_us: start.elapsed().as_micros() as u64,
        cpu_us: (cpu_time(&usage)).as_micros() as u64,
        max_rss_kb: usage.ru_maxrss as u64,
    };
    let written = serde_json::to_string(&measured).map(|json| std::fs::write(report, json));
    i32::from(!matches!(written, Ok(Ok(()))))
}

/// The user and system time of `usage`.
fn cpu_time(usage: &libc::rusage) -> Duration {
    let seconds = |time: libc::timeval| {
        Duration::from_secs(time.tv_sec as u64) + Duration::from_micros(time.tv_usec as u64)
    };
    seconds(usage.ru_utime) + seconds(usage.ru_stime)
}

/// Runs `command` (program, then arguments) in `dir` within `limits`. An
/// error only when it cannot be started.
pub fn run(command: &[String], dir: &Path, limits: Limits) -> Result<Finished, String> {
    let (program, args) = command.split_first().ok_or("an empty command")?;
    // Through the measurer, with a report file of this run's own.
    static RUNS: AtomicU64 = AtomicU64::new(0);
    let measurer = MEASURER.get().map(|measurer| {
        let run = RUNS.fetch_add(1, Ordering::Relaxed);
        let report = (std::env::temp_dir())
            .join(format!("asp2sat-measure-{}-{run}.json", std::process::id()));
        (measurer, report)
    });
    let mut child = match &measurer {
        Some((measurer, report)) => {
            let mut child = Command::new(measurer);
            child.arg("measure").arg(report).arg("--").arg(program);
            child
        }
        None => Command::new(program),
    };
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
        Exit::of(status.code(), status.signal())
    };
    let (stdout, stdout_cut) = stdout.join().unwrap_or_default();
    let mut finished = Finished {
        exit,
        stdout,
        stdout_cut,
        stderr: stderr.join().unwrap_or_default().0,
        wall,
        cpu: cpu_time(&usage),
        max_rss_kb: usage.ru_maxrss as u64,
    };
    if let Some((_, report)) = measurer {
        let measured = std::fs::read_to_string(&report).ok();
        let _ = std::fs::remove_file(&report);
        match measured.and_then(|json| serde_json::from_str::<Measured>(&json).ok()) {
            // Killed at the time limit: the measurer's own figures.
            _ if timed_out => {}
            Some(measured) => {
                finished.exit = Exit::of(measured.code, measured.signal);
                finished.wall = Duration::from_micros(measured.wall_us);
                finished.cpu = Duration::from_micros(measured.cpu_us);
                finished.max_rss_kb = measured.max_rss_kb;
            }
            None if finished.exit == Exit::Code(2) => {
                return Err(format!("cannot start {program}"));
            }
            None => {}
        }
    }
    Ok(finished)
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
