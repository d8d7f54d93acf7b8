/// Deeply nested input recurses through the parser and grounder; a large
/// stack keeps that within the limits the parser enforces.
const STACK_SIZE: usize = 512 * 1024 * 1024;

fn main() {
    let worker = std::thread::Builder::new()
        .stack_size(STACK_SIZE)
        // Exiting from the worker skips tearing down its stack and heap
        // arena: the operating system reclaims them at once.
        .spawn(|| std::process::exit(i32::from(asp2sat::cli::main())))
        .expect("the main thread can be spawned");
    let _ = worker.join();
    std::process::exit(1); // reached only if the worker panicked
}
