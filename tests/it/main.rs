//! The integration tests, in one test binary: one binary links the crate
//! once, where a binary per file linked it a dozen times (most of the test
//! command's build time). Each module is one area; `cargo test --test it
//! golden::` runs one of them.

mod common;

mod aggregates;
mod cli;
mod corpus;
mod differential;
mod dimacs;
mod explain;
mod fuzz;
mod golden;
mod ground;
mod layers;
mod optimization;
mod regress;
mod regressions;
mod render;
mod syntax58;
