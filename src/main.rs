use std::alloc::{GlobalAlloc, Layout, System};
use std::io::Write;

/// Deeply nested input recurses through the parser and grounder; a large
/// stack keeps that within the limits the parser enforces. Where it cannot
/// be mapped (`ulimit -v`), a smaller one is taken, down to the main
/// thread's own.
const STACK_SIZES: [usize; 3] = [512 << 20, 64 << 20, 16 << 20];

/// clingo's exit code when memory runs out (`std::bad_alloc`).
const EXIT_OUT_OF_MEMORY: i32 = 33;

/// The system allocator, but an allocation that fails ends the run as
/// clingo's does, with a message and exit code 33, instead of an abort.
struct ReportingAllocator;

// SAFETY: every call is passed on to the system allocator unchanged.
unsafe impl GlobalAlloc for ReportingAllocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let pointer = unsafe { System.alloc(layout) };
        if pointer.is_null() {
            out_of_memory(layout.size());
        }
        pointer
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        let pointer = unsafe { System.alloc_zeroed(layout) };
        if pointer.is_null() {
            out_of_memory(layout.size());
        }
        pointer
    }

    unsafe fn dealloc(&self, pointer: *mut u8, layout: Layout) {
        unsafe { System.dealloc(pointer, layout) }
    }

    unsafe fn realloc(&self, pointer: *mut u8, layout: Layout, size: usize) -> *mut u8 {
        let moved = unsafe { System.realloc(pointer, layout, size) };
        if moved.is_null() {
            out_of_memory(size);
        }
        moved
    }
}

#[global_allocator]
static ALLOCATOR: ReportingAllocator = ReportingAllocator;

/// Reports the failed allocation without allocating: the digits are
/// written into a buffer on the stack, and standard error is unbuffered.
fn out_of_memory(size: usize) -> ! {
    let mut digits = [0u8; 20];
    let mut start = digits.len();
    let mut rest = size;
    loop {
        start -= 1;
        digits[start] = b'0' + (rest % 10) as u8;
        rest /= 10;
        if rest == 0 {
            break;
        }
    }
    let mut stderr = std::io::stderr().lock();
    let _ = stderr.write_all(b"*** ERROR: (asp2sat): out of memory: an allocation of ");
    let _ = stderr.write_all(&digits[start..]);
    let _ = stderr.write_all(b" bytes failed\n");
    std::process::exit(EXIT_OUT_OF_MEMORY);
}

/// glibc's allocator, tuned once before the first allocation. By default
/// it serves blocks from 128 KiB up by `mmap`, raising that threshold only
/// as such blocks are freed, and hands the heap's free top back to the
/// system past twice that: clingo's incremental mode, which builds and
/// frees a program and a search every step, then touches fresh pages over
/// and over (160 steps of a walk: 190,000 page faults, a third of the run,
/// for a peak of 36 MB). Blocks up to 4 MiB now come from the heap, and up
/// to 256 MiB of its free top is kept for reuse; larger blocks are still
/// mapped, and given back whole when freed, so peak memory barely moves.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn tune_allocator() {
    const MMAP_THRESHOLD: libc::c_int = 4 << 20;
    const TRIM_THRESHOLD: libc::c_int = 256 << 20;
    // SAFETY: mallopt only sets the allocator's parameters; a value it
    // refuses leaves the default in place.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, MMAP_THRESHOLD);
        libc::mallopt(libc::M_TRIM_THRESHOLD, TRIM_THRESHOLD);
    }
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn tune_allocator() {}

/// The largest of [`STACK_SIZES`] that can be mapped now: a limit on
/// virtual memory, or strict overcommit, may refuse it. `None` when none
/// can.
fn stack_size() -> Option<usize> {
    STACK_SIZES.into_iter().find(|&size| {
        // SAFETY: a new private anonymous mapping, unmapped at once; the
        // stack is mapped by `stacker` with the same protection.
        unsafe {
            let probe = libc::mmap(
                std::ptr::null_mut(),
                size,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                -1,
                0,
            );
            probe != libc::MAP_FAILED && libc::munmap(probe, size) == 0
        }
    })
}

fn main() {
    tune_allocator();
    // The main thread runs on a stack of its own making: no other thread
    // is started, and a run of a few milliseconds stays single-threaded.
    // Exiting from there skips tearing that stack down: the operating
    // system reclaims it at once.
    let run = || std::process::exit(i32::from(asp2sat::cli::main()));
    let _panicked = std::panic::catch_unwind(|| match stack_size() {
        Some(size) => stacker::grow(size, run),
        None => run(),
    });
    std::process::exit(1); // reached only after a panic, its message printed
}
