//! Kara's visualisation language (Kloimüllner, Oetsch, Pührer, Tompits,
//! INAP 2011; Kloimüllner's thesis, TU Wien 2012): the `vis*` atoms of an
//! answer set read into a [`Scene`] of shapes at absolute coordinates.
//!
//! Elements: `visrect(E,H,W)`, `visellipse(E,H,W)`, `visline(E,X1,Y1,X2,Y2,Z)`,
//! `visarrow(E,X1,Y1,X2,Y2,Z)`, `vistext(E,T)`, `visimage(E,Path)`,
//! `vispolygon(E,X,Y,Order)` (one atom per vertex) and `visgrid(E,Rows,
//! Cols,H,W)`. Placement: `visposition(E,X,Y,Z)` (the top left corner, and
//! the depth: a higher `Z` is drawn over a lower one), `visfillgrid(G,E,R,C)`
//! (a copy of `E` in row `R`, column `C` of grid `G`, both from 1),
//! `visleft(E,F)`, `visright`, `visabove`, `visbelow` (`E` beside `F`) and
//! `visinfrontof(E,F)`, `visbehind` (`E` one level over or under `F`).
//! Properties: `viscolor(E,C)` (the outline, a line's or a text's colour),
//! `visbackgroundcolor(E,C)` (the fill), `visthickness(E,N)`,
//! `visfontfamily(E,F)`, `visfontsize(E,N)`, `visfontstyle(E,S)` and
//! `visfontweight(E,W)`. A colour is a CSS colour name, `rgb(R,G,B)` or a
//! string `"#rrggbb"`.
//!
//! An atom of another `vis*` predicate, or one whose arguments do not fit,
//! is a warning naming it, and the rest of the picture is drawn.

use crate::symbols::{SymId, SymbolData, SymbolTable};
use rustc_hash::{FxHashMap, FxHashSet};

/// Space between a grid's frame and its cells. Kara's grids leave one: the
/// seed program's grid at (8,12) has its bold box lines at x = 13 and y = 17.
pub const GRID_MARGIN: f64 = 5.0;

/// Space between an element and the one it is placed beside (`visleft`...).
pub const RELATIVE_GAP: f64 = 10.0;

/// The font size of a text without `visfontsize`.
pub const DEFAULT_FONT_SIZE: f64 = 12.0;

/// The font of a text without `visfontfamily`.
pub const DEFAULT_FONT_FAMILY: &str = "sans-serif";

/// How far below its top a text's baseline lies, in font sizes (Kara places
/// a text by its top left corner, SVG by its baseline).
pub const TEXT_ASCENT: f64 = 0.8;

/// The width of an average character, in font sizes: a text's size is
/// estimated so that grids and relative placement can make room for it.
const CHARACTER_WIDTH: f64 = 0.6;

/// The height of a line of text, in font sizes.
const LINE_HEIGHT: f64 = 1.2;

/// A drawing: shapes in the order they are painted (lowest depth first).
#[derive(Debug, Default)]
pub struct Scene {
    pub shapes: Vec<Shape>,
    /// One line per `vis*` atom that could not be drawn, naming it.
    pub warnings: Vec<String>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Shape {
    pub geometry: Geometry,
    pub style: Style,
}

/// A shape at absolute coordinates (x to the right, y downwards).
#[derive(Clone, Debug, PartialEq)]
pub enum Geometry {
    Rect {
        x: f64,
        y: f64,
        width: f64,
        height: f64,
    },
    Ellipse {
        x: f64,
        y: f64,
        width: f64,
        height: f64,
    },
    Line {
        from: (f64, f64),
        to: (f64, f64),
        arrow: bool,
    },
    Polygon {
        points: Vec<(f64, f64)>,
    },
    /// A text by its top left corner.
    Text {
        x: f64,
        y: f64,
        text: String,
    },
    Image {
        x: f64,
        y: f64,
        href: String,
    },
}

/// The properties set on an element.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Style {
    /// A CSS colour: the outline, or a text's colour.
    pub color: Option<String>,
    /// A CSS colour: the fill.
    pub background: Option<String>,
    pub thickness: Option<f64>,
    pub font_family: Option<String>,
    pub font_size: Option<f64>,
    /// A CSS `font-style`.
    pub font_style: Option<String>,
    /// A CSS `font-weight`.
    pub font_weight: Option<String>,
}

impl Style {
    fn font_size(&self) -> f64 {
        self.font_size.unwrap_or(DEFAULT_FONT_SIZE)
    }
}

/// What an element is, before it is placed.
#[derive(Clone, Debug)]
enum Kind {
    Rect {
        width: f64,
        height: f64,
    },
    Ellipse {
        width: f64,
        height: f64,
    },
    /// Lines have their own coordinates and depth.
    Line {
        from: (f64, f64),
        to: (f64, f64),
        z: i64,
        arrow: bool,
    },
    Text(String),
    Image(String),
    /// Vertices sorted by their order argument (in clingo's term order).
    Polygon(Vec<(SymId, f64, f64)>),
    Grid {
        rows: usize,
        columns: usize,
        width: f64,
        height: f64,
    },
}

/// How one element relates to another.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Relation {
    Left,
    Right,
    Above,
    Below,
    InFront,
    Behind,
}

/// `visleft(E,F)` and the like: `element` placed by `reference`.
#[derive(Clone, Debug)]
struct Relative {
    element: SymId,
    relation: Relation,
    reference: SymId,
    /// The atom, for a warning.
    atom: String,
}

/// `visfillgrid(G,E,R,C)`: a copy of `element` in a cell of `grid`.
#[derive(Clone, Debug)]
struct Fill {
    grid: SymId,
    element: SymId,
    /// From 1.
    row: usize,
    column: usize,
    /// The atom, for a warning.
    atom: String,
}

/// The `vis*` atoms of an answer set, sorted by element.
#[derive(Default)]
struct Program {
    /// Elements in the order of their defining atoms.
    elements: Vec<(SymId, Kind)>,
    index: FxHashMap<SymId, usize>,
    positions: FxHashMap<SymId, (f64, f64, i64)>,
    relations: Vec<Relative>,
    /// In the atoms' order.
    fills: Vec<Fill>,
    styles: FxHashMap<SymId, Style>,
    warnings: Vec<String>,
}

/// Each `vis*` predicate this reader knows, with the form its atoms take.
const PREDICATES: &[(&str, &str)] = &[
    ("visrect", "visrect(E,Height,Width) with integer sizes"),
    (
        "visellipse",
        "visellipse(E,Height,Width) with integer sizes",
    ),
    (
        "visline",
        "visline(E,X1,Y1,X2,Y2,Z) with integer coordinates",
    ),
    (
        "visarrow",
        "visarrow(E,X1,Y1,X2,Y2,Z) with integer coordinates",
    ),
    ("vistext", "vistext(E,Text)"),
    ("visimage", "visimage(E,Path)"),
    (
        "vispolygon",
        "vispolygon(E,X,Y,Order) with integer coordinates",
    ),
    (
        "visgrid",
        "visgrid(E,Rows,Cols,Height,Width) with positive integers",
    ),
    ("visposition", "visposition(E,X,Y,Z) with integers"),
    (
        "visfillgrid",
        "visfillgrid(Grid,E,Row,Col) with rows and columns of the grid",
    ),
    ("visleft", "visleft(E,Reference)"),
    ("visright", "visright(E,Reference)"),
    ("visabove", "visabove(E,Reference)"),
    ("visbelow", "visbelow(E,Reference)"),
    ("visinfrontof", "visinfrontof(E,Reference)"),
    ("visbehind", "visbehind(E,Reference)"),
    (
        "viscolor",
        "viscolor(E,Colour) with a CSS colour name, rgb(R,G,B) or \"#rrggbb\"",
    ),
    (
        "visbackgroundcolor",
        "visbackgroundcolor(E,Colour) with a CSS colour name, rgb(R,G,B) or \"#rrggbb\"",
    ),
    ("visthickness", "visthickness(E,N) with an integer N >= 0"),
    ("visfontfamily", "visfontfamily(E,Family)"),
    ("visfontsize", "visfontsize(E,N) with an integer N > 0"),
    (
        "visfontstyle",
        "visfontstyle(E,Style) with normal, italic, oblique or bold",
    ),
    (
        "visfontweight",
        "visfontweight(E,Weight) with normal, bold or 100..900",
    ),
];

/// The predicates of the visualisation language this reader knows, with
/// their arities.
pub fn vis_signatures() -> impl Iterator<Item = (&'static str, usize)> {
    PREDICATES.iter().map(|(name, form)| {
        let arguments = &form[name.len()..form.find(')').expect("a form's arguments")];
        (*name, arguments.matches(',').count() + 1)
    })
}

/// Whether `atom` belongs to the visualisation language: a positive atom
/// whose predicate starts with `vis`.
pub fn is_vis_atom(symbols: &SymbolTable, atom: SymId) -> bool {
    matches!(
        symbols.get(atom),
        SymbolData::Function { name, negative: false, .. } if name.starts_with("vis")
    )
}

/// Reads the `vis*` atoms among `atoms` into a scene; other atoms are
/// ignored.
pub fn scene(symbols: &SymbolTable, atoms: &[SymId]) -> Scene {
    let mut program = Program::default();
    for &atom in atoms {
        let SymbolData::Function {
            name,
            args,
            negative: false,
        } = symbols.get(atom)
        else {
            continue;
        };
        if !name.starts_with("vis") {
            continue;
        }
        let shown = symbols.display(atom);
        match PREDICATES.iter().find(|(known, _)| *known == name) {
            None => program.warnings.push(format!(
                "{shown}: unknown visualisation predicate {name}/{}",
                args.len()
            )),
            Some((_, form)) => {
                if let Err(problem) = program.read(symbols, name, args, &shown.to_string()) {
                    let why = problem.unwrap_or_else(|| format!("expected {form}"));
                    program.warnings.push(format!("{shown}: {why}"));
                }
            }
        }
    }
    program.lay_out()
}

/// Why an atom is not used: `None` when its arguments do not fit its
/// predicate's form, else the reason.
type Unused = Option<String>;

fn number(symbols: &SymbolTable, term: SymId) -> Result<f64, Unused> {
    symbols.as_number(term).map(f64::from).ok_or(None)
}

/// The terms of `args`, all numbers, as an array of their count.
fn numbers<const N: usize>(symbols: &SymbolTable, args: &[SymId]) -> Result<[f64; N], Unused> {
    let values: Vec<f64> = args
        .iter()
        .map(|&term| number(symbols, term))
        .collect::<Result<_, _>>()?;
    values.try_into().map_err(|_| None)
}

fn count(symbols: &SymbolTable, term: SymId) -> Result<usize, Unused> {
    symbols
        .as_number(term)
        .and_then(|n| usize::try_from(n).ok())
        .filter(|&n| n > 0)
        .ok_or(None)
}

/// A term as text: a string without its quotes, anything else as printed.
fn label(symbols: &SymbolTable, term: SymId) -> String {
    match symbols.get(term) {
        SymbolData::String(text) => text.to_string(),
        _ => symbols.display(term).to_string(),
    }
}

impl Program {
    /// Reads one atom of a known predicate.
    fn read(
        &mut self,
        symbols: &SymbolTable,
        name: &str,
        args: &[SymId],
        atom: &str,
    ) -> Result<(), Unused> {
        let id = *args.first().ok_or(None)?;
        match (name, args.len()) {
            ("visrect" | "visellipse", 3) => {
                let [height, width] = numbers(symbols, &args[1..])?;
                let kind = if name == "visrect" {
                    Kind::Rect { width, height }
                } else {
                    Kind::Ellipse { width, height }
                };
                self.define(id, kind)
            }
            ("visline" | "visarrow", 6) => {
                let [x1, y1, x2, y2, z] = numbers(symbols, &args[1..])?;
                let arrow = name == "visarrow";
                self.define(
                    id,
                    Kind::Line {
                        from: (x1, y1),
                        to: (x2, y2),
                        z: z as i64,
                        arrow,
                    },
                )
            }
            ("vistext", 2) => self.define(id, Kind::Text(label(symbols, args[1]))),
            ("visimage", 2) => self.define(id, Kind::Image(label(symbols, args[1]))),
            ("vispolygon", 4) => {
                let (x, y) = (number(symbols, args[1])?, number(symbols, args[2])?);
                match self.index.get(&id).map(|&i| &mut self.elements[i].1) {
                    Some(Kind::Polygon(vertices)) => {
                        vertices.push((args[3], x, y));
                        vertices.sort_by(|a, b| symbols.compare(a.0, b.0));
                        Ok(())
                    }
                    Some(_) => Err(Some("the element is already defined otherwise".to_string())),
                    None => self.define(id, Kind::Polygon(vec![(args[3], x, y)])),
                }
            }
            ("visgrid", 5) => {
                let (rows, columns) = (count(symbols, args[1])?, count(symbols, args[2])?);
                let [height, width] = numbers(symbols, &args[3..])?;
                self.define(
                    id,
                    Kind::Grid {
                        rows,
                        columns,
                        width,
                        height,
                    },
                )
            }
            ("visposition", 4) => {
                let [x, y, z] = numbers(symbols, &args[1..])?;
                if self.positions.contains_key(&id) {
                    return Err(Some("the element has another position".to_string()));
                }
                self.positions.insert(id, (x, y, z as i64));
                Ok(())
            }
            ("visfillgrid", 4) => {
                let (row, column) = (count(symbols, args[2])?, count(symbols, args[3])?);
                let (grid, element, atom) = (id, args[1], atom.to_string());
                self.fills.push(Fill {
                    grid,
                    element,
                    row,
                    column,
                    atom,
                });
                Ok(())
            }
            (
                "visleft" | "visright" | "visabove" | "visbelow" | "visinfrontof" | "visbehind",
                2,
            ) => {
                let relation = match name {
                    "visleft" => Relation::Left,
                    "visright" => Relation::Right,
                    "visabove" => Relation::Above,
                    "visbelow" => Relation::Below,
                    "visinfrontof" => Relation::InFront,
                    _ => Relation::Behind,
                };
                let (element, reference, atom) = (id, args[1], atom.to_string());
                self.relations.push(Relative {
                    element,
                    relation,
                    reference,
                    atom,
                });
                Ok(())
            }
            (
                "viscolor" | "visbackgroundcolor" | "visthickness" | "visfontsize"
                | "visfontfamily" | "visfontstyle" | "visfontweight",
                2,
            ) => self.read_style(symbols, name, id, args[1]),
            _ => Err(None),
        }
    }

    /// Reads one style atom `name(id, value)`.
    fn read_style(
        &mut self,
        symbols: &SymbolTable,
        name: &str,
        id: SymId,
        value: SymId,
    ) -> Result<(), Unused> {
        match name {
            "viscolor" | "visbackgroundcolor" => {
                let colour = colour(symbols, value).ok_or(None)?;
                let style = self.styles.entry(id).or_default();
                if name == "viscolor" {
                    style.color = Some(colour);
                } else {
                    style.background = Some(colour);
                }
                Ok(())
            }
            "visthickness" => {
                let thickness = number(symbols, value)?;
                if thickness < 0.0 {
                    return Err(None);
                }
                self.styles.entry(id).or_default().thickness = Some(thickness);
                Ok(())
            }
            "visfontsize" => {
                let size = count(symbols, value)?;
                self.styles.entry(id).or_default().font_size = Some(size as f64);
                Ok(())
            }
            "visfontfamily" => {
                self.styles.entry(id).or_default().font_family = Some(label(symbols, value));
                Ok(())
            }
            "visfontstyle" => {
                let style = self.styles.entry(id).or_default();
                match label(symbols, value).as_str() {
                    "bold" => style.font_weight = Some("bold".to_string()),
                    plain @ ("normal" | "italic" | "oblique") => {
                        style.font_style = Some(plain.to_string());
                    }
                    _ => return Err(None),
                }
                Ok(())
            }
            "visfontweight" => {
                let weight = label(symbols, value);
                let numeric = weight
                    .parse::<u32>()
                    .is_ok_and(|w| (100..=900).contains(&w));
                if !(numeric || matches!(weight.as_str(), "normal" | "bold" | "bolder" | "lighter"))
                {
                    return Err(None);
                }
                self.styles.entry(id).or_default().font_weight = Some(weight);
                Ok(())
            }
            _ => Err(None),
        }
    }

    fn define(&mut self, id: SymId, kind: Kind) -> Result<(), Unused> {
        if self.index.contains_key(&id) {
            return Err(Some("the element is already defined".to_string()));
        }
        self.index.insert(id, self.elements.len());
        self.elements.push((id, kind));
        Ok(())
    }

    fn style(&self, id: SymId) -> Style {
        self.styles.get(&id).cloned().unwrap_or_default()
    }

    /// The width and height an element takes up.
    fn size(&self, id: SymId) -> (f64, f64) {
        let Some(&index) = self.index.get(&id) else {
            return (0.0, 0.0);
        };
        match &self.elements[index].1 {
            Kind::Rect { width, height } | Kind::Ellipse { width, height } => (*width, *height),
            Kind::Line { from, to, .. } => ((to.0 - from.0).abs(), (to.1 - from.1).abs()),
            Kind::Text(text) => text_size(text, self.style(id).font_size()),
            Kind::Image(_) => (0.0, 0.0),
            Kind::Polygon(vertices) => {
                let (xs, ys) = (vertices.iter().map(|v| v.1), vertices.iter().map(|v| v.2));
                (spread(xs), spread(ys))
            }
            Kind::Grid { .. } => {
                let (columns, rows) = self.grid_tracks(id);
                (
                    columns.iter().sum::<f64>() + 2.0 * GRID_MARGIN,
                    rows.iter().sum::<f64>() + 2.0 * GRID_MARGIN,
                )
            }
        }
    }

    /// The widths of a grid's columns and the heights of its rows: as large
    /// as the largest element filled into them, or an equal share of the
    /// grid's own size when nothing is.
    fn grid_tracks(&self, grid: SymId) -> (Vec<f64>, Vec<f64>) {
        let Some(Kind::Grid {
            rows,
            columns,
            width,
            height,
        }) = self.index.get(&grid).map(|&i| &self.elements[i].1)
        else {
            return (Vec::new(), Vec::new());
        };
        let mut column_widths = vec![None::<f64>; *columns];
        let mut row_heights = vec![None::<f64>; *rows];
        for fill in self.fills.iter().filter(|fill| fill.grid == grid) {
            let (row, column) = (fill.row, fill.column);
            let (w, h) = self.size(fill.element);
            let widest = column_widths[column - 1].get_or_insert(w);
            *widest = widest.max(w);
            let highest = row_heights[row - 1].get_or_insert(h);
            *highest = highest.max(h);
        }
        let share = |total: f64, parts: usize| total / parts as f64;
        (
            column_widths
                .iter()
                .map(|w| w.unwrap_or(share(*width, *columns)))
                .collect(),
            row_heights
                .iter()
                .map(|h| h.unwrap_or(share(*height, *rows)))
                .collect(),
        )
    }

    /// Places every element, then paints them by depth.
    fn lay_out(mut self) -> Scene {
        self.drop_unusable_fills();
        let filled: FxHashSet<SymId> = self.fills.iter().map(|fill| fill.element).collect();
        let placed = self.place();
        let mut painted: Vec<(i64, Shape)> = Vec::new();
        for (id, kind) in &self.elements {
            // An element filled into a grid is drawn there, as copies.
            if filled.contains(id) && !self.positions.contains_key(id) {
                continue;
            }
            let (x, y, z) = placed.get(id).copied().unwrap_or((0.0, 0.0, 0));
            match kind {
                Kind::Line { z: own_z, .. } => {
                    painted.extend(self.shape(*id, 0.0, 0.0).map(|s| (*own_z, s)))
                }
                Kind::Grid { .. } => self.paint_grid(*id, (x, y, z), &mut painted),
                _ => painted.extend(self.shape(*id, x, y).map(|s| (z, s))),
            }
        }
        painted.sort_by_key(|&(z, _)| z); // stable: equal depths keep the atoms' order
        Scene {
            shapes: painted.into_iter().map(|(_, shape)| shape).collect(),
            warnings: self.warnings,
        }
    }

    /// Warns of the `visfillgrid` atoms that name no grid, no element, a
    /// grid as the element (grids are not nested) or a cell outside the
    /// grid, and forgets them.
    fn drop_unusable_fills(&mut self) {
        let fills = std::mem::take(&mut self.fills);
        for fill in fills {
            let kind = |id: SymId| self.index.get(&id).map(|&i| &self.elements[i].1);
            let problem = match (kind(fill.grid), kind(fill.element)) {
                (Some(&Kind::Grid { rows, columns, .. }), Some(element)) => {
                    if matches!(element, Kind::Grid { .. }) {
                        Some("a grid is not filled into a grid".to_string())
                    } else if fill.row > rows || fill.column > columns {
                        Some(format!("the grid has {rows} rows and {columns} columns"))
                    } else {
                        None
                    }
                }
                (Some(&Kind::Grid { .. }), None) => Some("no such element".to_string()),
                _ => Some("no such grid".to_string()),
            };
            match problem {
                Some(why) => self.warnings.push(format!("{}: {why}", fill.atom)),
                None => self.fills.push(fill),
            }
        }
    }

    /// The frame of a grid (when it has colours) and a copy of each element
    /// filled into it, cell by cell.
    fn paint_grid(&self, grid: SymId, (x, y, z): (f64, f64, i64), painted: &mut Vec<(i64, Shape)>) {
        let style = self.style(grid);
        let (width, height) = self.size(grid);
        if style.color.is_some() || style.background.is_some() {
            let geometry = Geometry::Rect {
                x,
                y,
                width,
                height,
            };
            painted.push((z, Shape { geometry, style }));
        }
        let (columns, rows) = self.grid_tracks(grid);
        let offset = |tracks: &[f64], index: usize| tracks[..index - 1].iter().sum::<f64>();
        for fill in self.fills.iter().filter(|fill| fill.grid == grid) {
            let cell_x = x + GRID_MARGIN + offset(&columns, fill.column);
            let cell_y = y + GRID_MARGIN + offset(&rows, fill.row);
            painted.extend(self.shape(fill.element, cell_x, cell_y).map(|s| (z, s)));
        }
    }

    /// One element drawn with its top left corner at `(x, y)` (lines and
    /// polygons: their coordinates moved by `(x, y)`); `None` for a grid,
    /// which [`Program::paint_grid`] draws.
    fn shape(&self, id: SymId, x: f64, y: f64) -> Option<Shape> {
        let &index = self.index.get(&id)?;
        let geometry = match &self.elements[index].1 {
            Kind::Rect { width, height } => Geometry::Rect {
                x,
                y,
                width: *width,
                height: *height,
            },
            Kind::Ellipse { width, height } => Geometry::Ellipse {
                x,
                y,
                width: *width,
                height: *height,
            },
            Kind::Line {
                from, to, arrow, ..
            } => Geometry::Line {
                from: (from.0 + x, from.1 + y),
                to: (to.0 + x, to.1 + y),
                arrow: *arrow,
            },
            Kind::Text(text) => Geometry::Text {
                x,
                y,
                text: text.clone(),
            },
            Kind::Image(href) => Geometry::Image {
                x,
                y,
                href: href.clone(),
            },
            Kind::Polygon(vertices) => Geometry::Polygon {
                points: vertices.iter().map(|v| (v.1 + x, v.2 + y)).collect(),
            },
            Kind::Grid { .. } => return None,
        };
        Some(Shape {
            geometry,
            style: self.style(id),
        })
    }

    /// Every element's top left corner and depth: from `visposition`, else
    /// from its relations to elements already placed, else `(0, 0, 0)`.
    fn place(&mut self) -> FxHashMap<SymId, (f64, f64, i64)> {
        let mut placed = self.positions.clone();
        let mut pending = self.relations.clone();
        let mut depths: Vec<(SymId, i64)> = Vec::new();
        // Each round places the elements whose reference is placed: a chain
        // of n relations takes n rounds, and a cycle is never placed.
        loop {
            let before = pending.len();
            pending.retain(|relative| {
                let Some(&(x, y, z)) = placed.get(&relative.reference) else {
                    return true;
                };
                let element = relative.element;
                let (width, height) = self.size(element);
                let (reference_width, reference_height) = self.size(relative.reference);
                let absolute = self.positions.contains_key(&element);
                let place = match relative.relation {
                    Relation::InFront | Relation::Behind => {
                        let step = if relative.relation == Relation::InFront {
                            1
                        } else {
                            -1
                        };
                        depths.push((element, z + step));
                        None
                    }
                    _ if absolute => None, // `visposition` wins
                    Relation::Left => Some((x - width - RELATIVE_GAP, y)),
                    Relation::Right => Some((x + reference_width + RELATIVE_GAP, y)),
                    Relation::Above => Some((x, y - height - RELATIVE_GAP)),
                    Relation::Below => Some((x, y + reference_height + RELATIVE_GAP)),
                };
                if let Some((x, y)) = place {
                    placed.insert(element, (x, y, z));
                }
                false
            });
            if pending.len() == before {
                // References without a place of their own stand at the
                // origin; what is still pending then is a cycle.
                let unplaced: Vec<SymId> = pending
                    .iter()
                    .map(|relative| relative.reference)
                    .filter(|&reference| pending.iter().all(|r| r.element != reference))
                    .collect();
                if unplaced.is_empty() {
                    break;
                }
                for reference in unplaced {
                    placed.insert(reference, (0.0, 0.0, 0));
                }
            }
        }
        for relative in pending {
            self.warnings.push(format!(
                "{}: not used: the relations form a cycle",
                relative.atom
            ));
        }
        for (element, z) in depths {
            placed.entry(element).or_insert((0.0, 0.0, 0)).2 = z;
        }
        placed
    }
}

/// The estimated width and height of a line of text.
pub(super) fn text_size(text: &str, font_size: f64) -> (f64, f64) {
    (
        text.chars().count() as f64 * CHARACTER_WIDTH * font_size,
        LINE_HEIGHT * font_size,
    )
}

fn spread(values: impl Iterator<Item = f64> + Clone) -> f64 {
    let max = values.clone().fold(f64::NEG_INFINITY, f64::max);
    let min = values.fold(f64::INFINITY, f64::min);
    if max >= min { max - min } else { 0.0 }
}

/// A colour term as CSS: a colour name, `rgb(R,G,B)` with components
/// 0..255, or a string holding either or `#rgb`/`#rrggbb`.
fn colour(symbols: &SymbolTable, term: SymId) -> Option<String> {
    match symbols.get(term) {
        SymbolData::Function {
            name: "rgb",
            args,
            negative: false,
        } if args.len() == 3 => {
            let component = |&a: &SymId| symbols.as_number(a).filter(|c| (0..=255).contains(c));
            let [r, g, b] = [
                component(&args[0])?,
                component(&args[1])?,
                component(&args[2])?,
            ];
            Some(format!("#{r:02x}{g:02x}{b:02x}"))
        }
        SymbolData::Function {
            name,
            args: [],
            negative: false,
        } => named_colour(name),
        SymbolData::String(text) => {
            let hex = text.strip_prefix('#').filter(|digits| {
                matches!(digits.len(), 3 | 6) && digits.chars().all(|c| c.is_ascii_hexdigit())
            });
            match hex {
                Some(_) => Some(text.to_ascii_lowercase()),
                None => named_colour(text),
            }
        }
        _ => None,
    }
}

fn named_colour(name: &str) -> Option<String> {
    let lower = name.to_ascii_lowercase();
    CSS_COLOUR_NAMES
        .binary_search(&lower.as_str())
        .ok()
        .map(|_| lower)
}

/// The colour keywords of CSS Color Level 4, sorted.
const CSS_COLOUR_NAMES: &[&str] = &[
    "aliceblue",
    "antiquewhite",
    "aqua",
    "aquamarine",
    "azure",
    "beige",
    "bisque",
    "black",
    "blanchedalmond",
    "blue",
    "blueviolet",
    "brown",
    "burlywood",
    "cadetblue",
    "chartreuse",
    "chocolate",
    "coral",
    "cornflowerblue",
    "cornsilk",
    "crimson",
    "cyan",
    "darkblue",
    "darkcyan",
    "darkgoldenrod",
    "darkgray",
    "darkgreen",
    "darkgrey",
    "darkkhaki",
    "darkmagenta",
    "darkolivegreen",
    "darkorange",
    "darkorchid",
    "darkred",
    "darksalmon",
    "darkseagreen",
    "darkslateblue",
    "darkslategray",
    "darkslategrey",
    "darkturquoise",
    "darkviolet",
    "deeppink",
    "deepskyblue",
    "dimgray",
    "dimgrey",
    "dodgerblue",
    "firebrick",
    "floralwhite",
    "forestgreen",
    "fuchsia",
    "gainsboro",
    "ghostwhite",
    "gold",
    "goldenrod",
    "gray",
    "green",
    "greenyellow",
    "grey",
    "honeydew",
    "hotpink",
    "indianred",
    "indigo",
    "ivory",
    "khaki",
    "lavender",
    "lavenderblush",
    "lawngreen",
    "lemonchiffon",
    "lightblue",
    "lightcoral",
    "lightcyan",
    "lightgoldenrodyellow",
    "lightgray",
    "lightgreen",
    "lightgrey",
    "lightpink",
    "lightsalmon",
    "lightseagreen",
    "lightskyblue",
    "lightslategray",
    "lightslategrey",
    "lightsteelblue",
    "lightyellow",
    "lime",
    "limegreen",
    "linen",
    "magenta",
    "maroon",
    "mediumaquamarine",
    "mediumblue",
    "mediumorchid",
    "mediumpurple",
    "mediumseagreen",
    "mediumslateblue",
    "mediumspringgreen",
    "mediumturquoise",
    "mediumvioletred",
    "midnightblue",
    "mintcream",
    "mistyrose",
    "moccasin",
    "navajowhite",
    "navy",
    "oldlace",
    "olive",
    "olivedrab",
    "orange",
    "orangered",
    "orchid",
    "palegoldenrod",
    "palegreen",
    "paleturquoise",
    "palevioletred",
    "papayawhip",
    "peachpuff",
    "peru",
    "pink",
    "plum",
    "powderblue",
    "purple",
    "rebeccapurple",
    "red",
    "rosybrown",
    "royalblue",
    "saddlebrown",
    "salmon",
    "sandybrown",
    "seagreen",
    "seashell",
    "sienna",
    "silver",
    "skyblue",
    "slateblue",
    "slategray",
    "slategrey",
    "snow",
    "springgreen",
    "steelblue",
    "tan",
    "teal",
    "thistle",
    "tomato",
    "turquoise",
    "violet",
    "wheat",
    "white",
    "whitesmoke",
    "yellow",
    "yellowgreen",
];

#[cfg(test)]
mod tests {
    use super::*;

    /// The atoms `name(args)`, each argument a number, a `"string"` or a
    /// constant.
    fn atoms(symbols: &mut SymbolTable, atoms: &[(&str, &[&str])]) -> Vec<SymId> {
        atoms
            .iter()
            .map(|(name, args)| {
                let args: Vec<SymId> = args
                    .iter()
                    .map(|arg| match arg.parse::<i32>() {
                        Ok(n) => symbols.number(n),
                        Err(_) => match arg.strip_prefix('"') {
                            Some(text) => symbols.string(text.trim_end_matches('"')),
                            None => symbols.function(arg, &[], false),
                        },
                    })
                    .collect();
                symbols.function(name, &args, false)
            })
            .collect()
    }

    fn drawn(program: &[(&str, &[&str])]) -> Scene {
        let mut symbols = SymbolTable::default();
        let atoms = atoms(&mut symbols, program);
        scene(&symbols, &atoms)
    }

    #[test]
    fn grid_cells_fit_their_elements_after_the_margin() {
        let scene = drawn(&[
            ("visgrid", &["g", "2", "3", "100", "90"]),
            ("visposition", &["g", "10", "20", "0"]),
            ("visrect", &["small", "10", "10"]),
            ("visrect", &["wide", "10", "40"]),
            ("visfillgrid", &["g", "small", "1", "1"]),
            ("visfillgrid", &["g", "wide", "1", "2"]),
            ("visfillgrid", &["g", "small", "2", "3"]),
        ]);
        assert!(scene.warnings.is_empty(), "{:?}", scene.warnings);
        let corners: Vec<(f64, f64)> = scene
            .shapes
            .iter()
            .map(|shape| match shape.geometry {
                Geometry::Rect { x, y, .. } => (x, y),
                ref other => panic!("{other:?}"),
            })
            .collect();
        // Column 1 is 10 wide, column 2 40; row 1 is 10 high. Column 3 is
        // as wide as its element; row 2 too.
        assert_eq!(corners, [(15.0, 25.0), (25.0, 25.0), (65.0, 35.0)]);
    }

    #[test]
    fn empty_grid_tracks_share_the_grids_size() {
        let scene = drawn(&[
            ("visgrid", &["g", "2", "2", "60", "80"]),
            ("visbackgroundcolor", &["g", "white"]),
            ("visrect", &["r", "5", "5"]),
            ("visfillgrid", &["g", "r", "2", "2"]),
        ]);
        let frame = &scene.shapes[0].geometry;
        // Column 1 takes half of 80, row 1 half of 60; column and row 2
        // fit the 5×5 square; plus the margin on both sides.
        assert_eq!(
            *frame,
            Geometry::Rect {
                x: 0.0,
                y: 0.0,
                width: 55.0,
                height: 45.0
            }
        );
        assert_eq!(
            scene.shapes[1].geometry,
            Geometry::Rect {
                x: 45.0,
                y: 35.0,
                width: 5.0,
                height: 5.0
            }
        );
    }

    #[test]
    fn relative_placement_follows_chains_and_depth() {
        let scene = drawn(&[
            ("visrect", &["a", "10", "20"]),
            ("visposition", &["a", "100", "100", "3"]),
            ("visrect", &["b", "10", "20"]),
            ("visright", &["b", "a"]),
            ("visrect", &["c", "10", "20"]),
            ("visbelow", &["c", "b"]),
            ("visrect", &["d", "10", "20"]),
            ("visleft", &["d", "a"]),
            ("visabove", &["d", "a"]),
            ("visbehind", &["d", "a"]),
        ]);
        let corner = |shape: &Shape| match shape.geometry {
            Geometry::Rect { x, y, .. } => (x, y),
            _ => unreachable!(),
        };
        let corners: Vec<_> = scene.shapes.iter().map(corner).collect();
        // d is behind a (depth 2), so painted first; its later relation
        // (above a) wins.
        assert_eq!(
            corners,
            [
                (100.0, 80.0),
                (100.0, 100.0),
                (130.0, 100.0),
                (130.0, 120.0)
            ]
        );
    }

    #[test]
    fn cycles_and_bad_atoms_are_warned_of() {
        let scene = drawn(&[
            ("visrect", &["a", "10", "10"]),
            ("visleft", &["a", "b"]),
            ("visrect", &["b", "10", "10"]),
            ("visleft", &["b", "a"]),
            ("visrect", &["a", "5", "5"]),
            ("visrect", &["c", "x", "5"]),
            ("viscolor", &["c", "\"#12345\""]),
            ("visfillgrid", &["a", "b", "1", "1"]),
            ("vistable", &["t"]),
        ]);
        let expected = [
            "visrect(a,5,5): the element is already defined",
            "visrect(c,x,5): expected visrect(E,Height,Width) with integer sizes",
            "viscolor(c,\"#12345\"): expected viscolor(E,Colour) with a CSS colour name, \
             rgb(R,G,B) or \"#rrggbb\"",
            "vistable(t): unknown visualisation predicate vistable/1",
            "visfillgrid(a,b,1,1): no such grid",
            "visleft(a,b): not used: the relations form a cycle",
            "visleft(b,a): not used: the relations form a cycle",
        ];
        assert_eq!(scene.warnings, expected);
        assert_eq!(scene.shapes.len(), 2);
    }

    #[test]
    fn polygons_follow_their_order_and_colours_are_css() {
        let scene = drawn(&[
            ("vispolygon", &["p", "0", "0", "1"]),
            ("vispolygon", &["p", "10", "10", "3"]),
            ("vispolygon", &["p", "10", "0", "2"]),
            ("visposition", &["p", "5", "5", "0"]),
            ("visbackgroundcolor", &["p", "\"#ABCDEF\""]),
            ("viscolor", &["p", "DarkRed"]),
        ]);
        let shape = &scene.shapes[0];
        assert_eq!(
            shape.geometry,
            Geometry::Polygon {
                points: vec![(5.0, 5.0), (15.0, 5.0), (15.0, 15.0)]
            }
        );
        assert_eq!(shape.style.background.as_deref(), Some("#abcdef"));
        assert_eq!(shape.style.color.as_deref(), Some("darkred"));
        assert!(CSS_COLOUR_NAMES.windows(2).all(|pair| pair[0] < pair[1]));
    }
}
