//! `--grid`: an answer set's atoms `p(R,C,V)` as a plain-text table, row
//! `R` and column `C` holding `V`, with Sudoku's box separators when the
//! side is a square number.

use crate::symbols::{SymId, SymbolData, SymbolTable};
use std::collections::BTreeMap;

/// A cell no atom fills.
const EMPTY_CELL: &str = ".";

/// The atoms of one predicate of arity 3 whose first two arguments are
/// integers: the cells of a grid.
struct Cells<'a> {
    /// `(row, column)` to the values printed there, in the atoms' order.
    values: BTreeMap<(i32, i32), Vec<String>>,
    name: &'a str,
}

/// The grid drawn from `atoms`: those of predicate `name`/3 when given,
/// else of the one predicate of arity 3 whose atoms all have integer rows
/// and columns. `Err` says why there is no grid, as a warning line would.
pub fn text_grid(
    symbols: &SymbolTable,
    atoms: &[SymId],
    name: Option<&str>,
) -> Result<String, String> {
    let cells = match name {
        Some(name) => cells_of(symbols, atoms, name).ok_or_else(|| {
            format!("no atoms {name}(R,C,V) with integer R and C to draw as a grid")
        })?,
        None => {
            let mut candidates: Vec<&str> = Vec::new();
            for &atom in atoms {
                if let SymbolData::Function {
                    name,
                    args,
                    negative: false,
                } = symbols.get(atom)
                    && args.len() == 3
                    && !name.is_empty()
                    && !candidates.contains(&name)
                {
                    candidates.push(name);
                }
            }
            let mut grids = candidates
                .into_iter()
                .filter_map(|name| cells_of(symbols, atoms, name));
            match (grids.next(), grids.next()) {
                (Some(cells), None) => cells,
                (None, _) => {
                    return Err(
                        "no atoms p(R,C,V) with integer R and C to draw as a grid".to_string()
                    );
                }
                (Some(first), Some(second)) => {
                    return Err(format!(
                        "several predicates could be drawn as a grid ({}/3, {}/3, ...): choose \
                         one with --grid=NAME/3",
                        first.name, second.name
                    ));
                }
            }
        }
    };
    Ok(layout(&cells))
}

/// The cells of predicate `name`/3, when it has atoms and each has integer
/// first and second arguments.
fn cells_of<'a>(symbols: &SymbolTable, atoms: &[SymId], name: &'a str) -> Option<Cells<'a>> {
    let mut values: BTreeMap<(i32, i32), Vec<String>> = BTreeMap::new();
    for &atom in atoms {
        let SymbolData::Function {
            name: atom_name,
            args,
            negative: false,
        } = symbols.get(atom)
        else {
            continue;
        };
        if atom_name != name || args.len() != 3 {
            continue;
        }
        let row = symbols.as_number(args[0])?;
        let column = symbols.as_number(args[1])?;
        let value = symbols.display(args[2]).to_string();
        values.entry((row, column)).or_default().push(value);
    }
    (!values.is_empty()).then_some(Cells { values, name })
}

/// The integer square root of `side` when `side` is a square above 1: the
/// side of a Sudoku box.
fn box_side(side: usize) -> Option<usize> {
    let root = (1..side).find(|&root| root * root >= side)?;
    (root * root == side).then_some(root)
}

/// Rows `min..=max` of the cells, columns likewise; every cell as wide as
/// the widest; several values of one cell joined by commas.
fn layout(cells: &Cells<'_>) -> String {
    let rows = cells.values.keys().map(|&(row, _)| row);
    let columns = cells.values.keys().map(|&(_, column)| column);
    let (first_row, last_row) = (rows.clone().min().unwrap_or(0), rows.max().unwrap_or(0));
    let (first_column, last_column) = (
        columns.clone().min().unwrap_or(0),
        columns.max().unwrap_or(0),
    );
    let text = |row: i32, column: i32| {
        cells
            .values
            .get(&(row, column))
            .map_or_else(|| EMPTY_CELL.to_string(), |values| values.join(","))
    };
    let width = cells
        .values
        .values()
        .map(|values| values.join(",").chars().count())
        .max()
        .unwrap_or(1);
    let height = (last_row - first_row + 1) as usize;
    let breadth = (last_column - first_column + 1) as usize;
    let boxes = box_side(height).filter(|_| height == breadth);
    let mut out = String::new();
    for (r, row) in (first_row..=last_row).enumerate() {
        if let Some(side) = boxes
            && r > 0
            && r % side == 0
        {
            out.push_str(&separator_line(side, width));
        }
        let mut line = String::new();
        for (c, column) in (first_column..=last_column).enumerate() {
            if c > 0 {
                line.push(' ');
                if boxes.is_some_and(|side| c % side == 0) {
                    line.push_str("| ");
                }
            }
            line.push_str(&format!("{:>width$}", text(row, column)));
        }
        out.push_str(&line);
        out.push('\n');
    }
    out
}

/// `------+-------+------` between two bands of boxes, matching the cell
/// lines' ` | ` between boxes.
fn separator_line(side: usize, width: usize) -> String {
    let box_width = side * width + (side - 1);
    let inner = "-".repeat(box_width + 2);
    let outer = "-".repeat(box_width + 1);
    let mut line = outer.clone();
    for _ in 1..side - 1 {
        line.push('+');
        line.push_str(&inner);
    }
    line.push('+');
    line.push_str(&outer);
    line.push('\n');
    line
}

#[cfg(test)]
mod tests {
    use super::*;

    fn atoms(symbols: &mut SymbolTable, name: &str, cells: &[(i32, i32, i32)]) -> Vec<SymId> {
        cells
            .iter()
            .map(|&(r, c, v)| {
                let args = [symbols.number(r), symbols.number(c), symbols.number(v)];
                symbols.function(name, &args, false)
            })
            .collect()
    }

    #[test]
    fn box_sides_are_the_roots_of_squares() {
        assert_eq!(box_side(4), Some(2));
        assert_eq!(box_side(9), Some(3));
        assert_eq!(box_side(16), Some(4));
        assert_eq!(box_side(25), Some(5));
        assert_eq!(box_side(1), None);
        assert_eq!(box_side(8), None);
    }

    #[test]
    fn a_four_by_four_grid_has_boxes_and_gaps() {
        let mut symbols = SymbolTable::default();
        let cells = atoms(
            &mut symbols,
            "cell",
            &[(1, 1, 1), (1, 4, 4), (4, 4, 3), (2, 2, 12)],
        );
        let grid = text_grid(&symbols, &cells, None).unwrap();
        let expected = [
            " 1  . |  .  4",
            " . 12 |  .  .",
            "------+------",
            " .  . |  .  .",
            " .  . |  .  3",
        ];
        assert_eq!(grid, expected.map(|line| format!("{line}\n")).concat());
    }

    #[test]
    fn rows_may_start_at_zero_and_grids_need_not_be_square() {
        let mut symbols = SymbolTable::default();
        let cells = atoms(&mut symbols, "at", &[(0, 0, 5), (1, 2, 6)]);
        assert_eq!(text_grid(&symbols, &cells, None).unwrap(), "5 . .\n. . 6\n");
    }

    #[test]
    fn no_grid_or_several_are_reported() {
        let mut symbols = SymbolTable::default();
        let mut both = atoms(&mut symbols, "a", &[(1, 1, 1)]);
        both.extend(atoms(&mut symbols, "b", &[(1, 1, 2)]));
        assert!(
            text_grid(&symbols, &both, None)
                .unwrap_err()
                .contains("a/3, b/3")
        );
        assert_eq!(text_grid(&symbols, &both, Some("b")).unwrap(), "2\n");
        assert!(text_grid(&symbols, &both, Some("c")).is_err());
        let text = symbols.string("x");
        let row = symbols.number(1);
        let not_a_grid = symbols.function("p", &[text, row, row], false);
        assert!(text_grid(&symbols, &[not_a_grid], None).is_err());
    }
}
