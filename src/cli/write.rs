//! Where the output goes: standard output, buffered, and the files of
//! `-o`, a regular one written atomically through a temporary file that
//! neither a failure nor a signal leaves behind.

use super::text::RawBytes;
use super::{EXIT_BROKEN_PIPE, EXIT_OUTPUT_ERROR};
use std::io::Write;
use std::path::Path;

/// Standard output, buffered, with the bytes of strings that are not UTF-8
/// as they were read.
pub(super) type Stdout = RawBytes<std::io::BufWriter<std::io::StdoutLock<'static>>>;

pub(super) fn stdout_writer() -> Stdout {
    RawBytes(std::io::BufWriter::with_capacity(
        1 << 16,
        std::io::stdout().lock(),
    ))
}

/// The exit code when writing standard output failed, after saying so on
/// standard error; quietly when its reader went away (`| head`), as clingo.
pub(super) fn stdout_failure(e: &std::io::Error) -> u8 {
    if e.kind() == std::io::ErrorKind::BrokenPipe {
        return EXIT_BROKEN_PIPE;
    }
    stderrln!("asp2sat: error: could not write standard output: {e}");
    EXIT_OUTPUT_ERROR
}

/// Writes `-o PATH`: atomically (see [`write_atomically`]) when PATH is a
/// regular file or does not exist, and for a symbolic link to a regular
/// file, into the link's target, so that the link stays. Anything else is
/// written straight into, as a rename would replace it: a device
/// (`/dev/null`), a FIFO, a dangling link (creating its target), and the
/// links of `/dev` and `/proc` (`/dev/stdout`), which name open files, so
/// that the output goes where the shell sent it (appended after `>>`).
pub(super) fn write_output(
    path: &Path,
    write: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
) -> std::io::Result<()> {
    let names_open_file = (path.starts_with("/dev") || path.starts_with("/proc"))
        && std::fs::symlink_metadata(path).is_ok_and(|m| m.is_symlink());
    match std::fs::metadata(path) {
        Ok(metadata) if metadata.is_file() && !names_open_file => {
            write_atomically(&path.canonicalize()?, write)
        }
        Err(e)
            if e.kind() == std::io::ErrorKind::NotFound
                && std::fs::symlink_metadata(path).is_err() =>
        {
            write_atomically(path, write)
        }
        _ => {
            let file = std::fs::OpenOptions::new()
                .append(true)
                .create(true)
                .open(path)?;
            let mut out = RawBytes(std::io::BufWriter::with_capacity(1 << 16, file));
            write(&mut out)?;
            out.flush()
        }
    }
}

/// Writes `path` through a temporary file in the same directory, renamed
/// over `path` once complete and synced: a failure never leaves a truncated
/// file, and the temporary file is removed, on SIGINT and SIGTERM too. It
/// is named `.NAME.PID.N.tmp`, so that a later run removes one that a
/// process killed outright left. A file replaced keeps its permissions,
/// and its owner where the process may set it.
fn write_atomically(
    path: &Path,
    write: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
) -> std::io::Result<()> {
    let name = path
        .file_name()
        .ok_or_else(|| std::io::Error::new(std::io::ErrorKind::InvalidInput, "not a file name"))?;
    let dir = match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    };
    remove_abandoned_temporaries(dir, &name.to_string_lossy());
    let replaced = std::fs::metadata(path).ok();
    let mut temporary = None;
    for attempt in 0..100u32 {
        let candidate = dir.join(format!(
            ".{}.{}.{attempt}.tmp",
            name.to_string_lossy(),
            std::process::id()
        ));
        match std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&candidate)
        {
            Ok(file) => {
                temporary = Some((candidate, file));
                break;
            }
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(e),
        }
    }
    let Some((temporary, file)) = temporary else {
        return Err(std::io::Error::new(
            std::io::ErrorKind::AlreadyExists,
            "no free temporary file name",
        ));
    };
    let signals = remove_on_signals(&temporary);
    let result = (|| {
        if let Some(replaced) = &replaced {
            use std::os::unix::fs::MetadataExt;
            file.set_permissions(replaced.permissions())?;
            // Only root may give a file away: elsewhere the owner stays ours.
            let _ = std::os::unix::fs::fchown(&file, Some(replaced.uid()), Some(replaced.gid()));
        }
        let mut out = RawBytes(std::io::BufWriter::with_capacity(1 << 16, file));
        write(&mut out)?;
        let file = out.0.into_inner().map_err(|e| e.into_error())?;
        file.sync_all()?;
        drop(file);
        std::fs::rename(&temporary, path)
    })();
    if let Ok(handle) = signals {
        handle.close();
    }
    if result.is_err() {
        let _ = std::fs::remove_file(&temporary);
    }
    result
}

/// Until the handle is closed, SIGINT or SIGTERM removes `temporary` and
/// ends the run with the shell's code for the signal.
fn remove_on_signals(temporary: &Path) -> std::io::Result<signal_hook::iterator::Handle> {
    use signal_hook::consts::{SIGINT, SIGTERM};
    let mut signals = signal_hook::iterator::Signals::new([SIGINT, SIGTERM])?;
    let handle = signals.handle();
    let temporary = temporary.to_path_buf();
    std::thread::spawn(move || {
        if let Some(signal) = signals.forever().next() {
            let _ = std::fs::remove_file(&temporary);
            std::process::exit(128 + signal);
        }
    });
    Ok(handle)
}

/// Removes the temporary files of `name` (`.NAME.PID.N.tmp`) whose process
/// no longer runs: left by a run killed while it wrote.
fn remove_abandoned_temporaries(dir: &Path, name: &str) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let prefix = format!(".{name}.");
    for entry in entries.flatten() {
        let file_name = entry.file_name();
        let Some(rest) = (file_name.to_str())
            .and_then(|f| f.strip_prefix(&prefix))
            .and_then(|f| f.strip_suffix(".tmp"))
        else {
            continue;
        };
        let Some(Ok(pid)) = rest
            .split_once('.')
            .map(|(pid, _)| pid.parse::<libc::pid_t>())
        else {
            continue;
        };
        // SAFETY: signal 0 only asks whether the process exists.
        let gone = unsafe { libc::kill(pid, 0) } != 0
            && std::io::Error::last_os_error().raw_os_error() == Some(libc::ESRCH);
        if gone {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}
