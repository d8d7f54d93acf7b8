//! Pictures of answer sets, as plain data in and text out (only `src/cli`
//! does I/O): [`text_grid`] draws the atoms `p(R,C,V)` as a table for
//! `--grid`, and [`svg`] draws the `vis*` atoms of Kara's visualisation
//! language ([`kara`]) as an SVG document for `--render=svg` and `asp2sat
//! render`.

mod grid;
pub mod kara;
mod svg;

pub use grid::text_grid;

use crate::symbols::{SymId, SymbolTable};

/// The SVG document drawn by the `vis*` atoms among `atoms`, and one
/// warning per `vis*` atom that could not be drawn, naming it.
pub fn svg(symbols: &SymbolTable, atoms: &[SymId]) -> (String, Vec<String>) {
    let scene = kara::scene(symbols, atoms);
    (svg::document(&scene), scene.warnings)
}
