//! Text to spanned AST. Knows nothing of grounding.

pub mod ast;
pub mod facts;
mod parser;
pub mod pools;

pub use parser::{Dialect, Parsed, parse_in, parse_program, parse_term};
