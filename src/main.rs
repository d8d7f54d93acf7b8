use std::process::ExitCode;

/// Deeply nested input recurses through the parser and grounder; a large
/// stack keeps that within the limits the parser enforces.
const STACK_SIZE: usize = 512 * 1024 * 1024;

fn main() -> ExitCode {
    std::thread::Builder::new()
        .stack_size(STACK_SIZE)
        .spawn(asp2sat::cli::main)
        .expect("the main thread can be spawned")
        .join()
        .unwrap_or(ExitCode::FAILURE)
}
