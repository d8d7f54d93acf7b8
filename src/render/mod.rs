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

pub use kara::{is_vis_atom, vis_signatures};

/// The SVG document drawn by the `vis*` atoms among `atoms`, and one
/// warning per `vis*` atom that could not be drawn, naming it, or that
/// there is none to draw.
pub fn svg(symbols: &SymbolTable, atoms: &[SymId]) -> (String, Vec<String>) {
    let mut scene = kara::scene(symbols, atoms);
    if !atoms.iter().any(|&atom| is_vis_atom(symbols, atom)) {
        let none = "no vis* atom to draw: the picture is empty".to_string();
        scene.warnings.push(none);
    }
    (svg::document(&scene), scene.warnings)
}
