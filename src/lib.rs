//! asp2sat: Answer Set Programming through SAT.
//!
//! The pipeline is a chain of stages passing plain data, see
//! `ARCHITECTURE.md`: text → [`syntax`] (spanned AST) → [`ground`] (ground
//! program with dense atom ids) → [`translate`] (CNF clauses into any
//! varisat `ExtendFormula` sink) → [`solve`] (answer sets). Only [`cli`] does
//! I/O.

pub mod cli;
pub mod diagnostics;
mod graph;
pub mod ground;
pub mod solve;
pub mod symbols;
pub mod syntax;
pub mod translate;
