//! Test-only support shared by the whole crate's tests (translation,
//! solving, the pipeline): small ground programs written in a tiny syntax
//! ([`parse`]) or generated at random ([`random`]), and their answer sets
//! computed by brute force straight from the definition of stable models
//! ([`brute_force`]), against which the translation and the solver are
//! checked.

mod brute_force;
mod program_text;
mod random;
mod tests;

pub(crate) use brute_force::*;
pub(crate) use program_text::{atom_named, parse};
pub(crate) use random::*;
