//! Spanned AST to ground program.

pub mod program;
