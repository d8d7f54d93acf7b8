//! A [`Scene`] as an SVG document, written with the `svg` crate (which
//! escapes text and attribute values).

use super::kara::{
    DEFAULT_FONT_FAMILY, DEFAULT_FONT_SIZE, Geometry, Scene, Shape, Style, TEXT_ASCENT,
};
use svg::Document;
use svg::node::element::{
    Definitions, Ellipse, Image, Line, Marker, Path, Polygon, Rectangle, Text,
};

/// Space left around the drawing, right and below it.
const CANVAS_MARGIN: f64 = 10.0;

/// The id of the arrow head that `visarrow` lines end with.
const ARROW_HEAD: &str = "arrow-head";

/// The outline of shapes without `viscolor`.
const DEFAULT_COLOUR: &str = "black";

/// The SVG text of a scene: its shapes in painting order, on a canvas from
/// the origin (or the leftmost and topmost point, when negative) to the
/// rightmost and lowest point plus a margin.
pub fn document(scene: &Scene) -> String {
    let (min_x, min_y, max_x, max_y) = bounds(scene);
    let (left, top) = (min_x.min(0.0), min_y.min(0.0));
    let (width, height) = (
        max_x.max(0.0) - left + CANVAS_MARGIN,
        max_y.max(0.0) - top + CANVAS_MARGIN,
    );
    let mut document = Document::new()
        .set("width", width)
        .set("height", height)
        .set("viewBox", (left, top, width, height));
    let arrows = scene
        .shapes
        .iter()
        .any(|shape| matches!(shape.geometry, Geometry::Line { arrow: true, .. }));
    if arrows {
        let head = Path::new()
            .set("d", "M 0 0 L 10 5 L 0 10 z")
            .set("fill", "context-stroke");
        let marker = Marker::new()
            .set("id", ARROW_HEAD)
            .set("viewBox", (0, 0, 10, 10))
            .set("refX", 10)
            .set("refY", 5)
            .set("markerWidth", 6)
            .set("markerHeight", 6)
            .set("orient", "auto")
            .add(head);
        document = document.add(Definitions::new().add(marker));
    }
    for shape in &scene.shapes {
        document = match &shape.geometry {
            Geometry::Rect {
                x,
                y,
                width,
                height,
            } => document.add(outlined(
                Rectangle::new()
                    .set("x", *x)
                    .set("y", *y)
                    .set("width", *width)
                    .set("height", *height),
                &shape.style,
            )),
            Geometry::Ellipse {
                x,
                y,
                width,
                height,
            } => document.add(outlined(
                Ellipse::new()
                    .set("cx", x + width / 2.0)
                    .set("cy", y + height / 2.0)
                    .set("rx", width / 2.0)
                    .set("ry", height / 2.0),
                &shape.style,
            )),
            Geometry::Polygon { points } => {
                let points: Vec<String> = points.iter().map(|(x, y)| format!("{x},{y}")).collect();
                document.add(outlined(
                    Polygon::new().set("points", points.join(" ")),
                    &shape.style,
                ))
            }
            Geometry::Line { from, to, arrow } => {
                let line = Line::new()
                    .set("x1", from.0)
                    .set("y1", from.1)
                    .set("x2", to.0)
                    .set("y2", to.1)
                    .set("stroke", stroke(&shape.style))
                    .set("stroke-width", shape.style.thickness.unwrap_or(1.0));
                match arrow {
                    true => document.add(line.set("marker-end", format!("url(#{ARROW_HEAD})"))),
                    false => document.add(line),
                }
            }
            Geometry::Text { x, y, text } => document.add(text_element(*x, *y, text, &shape.style)),
            Geometry::Image { x, y, href } => document.add(
                Image::new()
                    .set("x", *x)
                    .set("y", *y)
                    .set("href", attribute(href)),
            ),
        };
    }
    let mut text = document.to_string();
    text.push('\n');
    text
}

/// A closed shape's outline (`viscolor`, black by default) and fill
/// (`visbackgroundcolor`, none by default).
fn outlined<T: svg::Node>(mut element: T, style: &Style) -> T {
    element.assign("stroke", stroke(style));
    element.assign("stroke-width", style.thickness.unwrap_or(1.0));
    element.assign(
        "fill",
        style
            .background
            .clone()
            .unwrap_or_else(|| "none".to_string()),
    );
    element
}

fn stroke(style: &Style) -> String {
    style
        .color
        .clone()
        .unwrap_or_else(|| DEFAULT_COLOUR.to_string())
}

fn text_element(x: f64, y: f64, text: &str, style: &Style) -> Text {
    let size = style.font_size.unwrap_or(DEFAULT_FONT_SIZE);
    let family = style.font_family.as_deref().unwrap_or(DEFAULT_FONT_FAMILY);
    let mut element = Text::new(xml_characters(text))
        .set("x", x)
        .set("y", y + TEXT_ASCENT * size)
        .set("font-family", attribute(family))
        .set("font-size", size)
        .set("fill", stroke(style));
    if let Some(font_style) = &style.font_style {
        element = element.set("font-style", font_style.as_str());
    }
    if let Some(weight) = &style.font_weight {
        element = element.set("font-weight", weight.as_str());
    }
    if let Some(background) = &style.background {
        // SVG text has no background of its own: an outline in that colour
        // painted under the glyphs stands in for it.
        element = element
            .set("stroke", background.as_str())
            .set("stroke-width", size / 4.0)
            .set("paint-order", "stroke");
    }
    element
}

/// Text as an attribute value: the crate escapes `&`, `<` and `>` but not
/// quotes, which would end the value.
fn attribute(text: &str) -> String {
    xml_characters(text).replace('"', "'")
}

/// The characters XML 1.0 allows (ASP strings may hold control characters,
/// which no XML document can).
fn xml_characters(text: &str) -> String {
    text.chars()
        .filter(|&c| matches!(c, '\t' | '\n' | '\r') || c >= ' ')
        .filter(|&c| !matches!(c, '\u{FFFE}' | '\u{FFFF}'))
        .collect()
}

/// The smallest and largest coordinates the shapes reach.
fn bounds(scene: &Scene) -> (f64, f64, f64, f64) {
    let mut bounds = (
        f64::INFINITY,
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::NEG_INFINITY,
    );
    let mut cover = |x: f64, y: f64| {
        bounds = (
            bounds.0.min(x),
            bounds.1.min(y),
            bounds.2.max(x),
            bounds.3.max(y),
        );
    };
    for Shape { geometry, style } in &scene.shapes {
        match geometry {
            Geometry::Rect {
                x,
                y,
                width,
                height,
            }
            | Geometry::Ellipse {
                x,
                y,
                width,
                height,
            } => {
                cover(*x, *y);
                cover(x + width, y + height);
            }
            Geometry::Line { from, to, .. } => {
                cover(from.0, from.1);
                cover(to.0, to.1);
            }
            Geometry::Polygon { points } => points.iter().for_each(|&(x, y)| cover(x, y)),
            Geometry::Text { x, y, text } => {
                let (width, height) =
                    super::kara::text_size(text, style.font_size.unwrap_or(DEFAULT_FONT_SIZE));
                cover(*x, *y);
                cover(x + width, y + height);
            }
            Geometry::Image { x, y, .. } => cover(*x, *y),
        }
    }
    if bounds.0.is_finite() {
        bounds
    } else {
        (0.0, 0.0, 0.0, 0.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_is_escaped_and_quotes_leave_attributes_whole() {
        let scene = Scene {
            shapes: vec![Shape {
                geometry: Geometry::Text {
                    x: 0.0,
                    y: 0.0,
                    text: "a<b & \"c\"\u{1}".to_string(),
                },
                style: Style {
                    font_family: Some("x\" onload=\"y".to_string()),
                    ..Style::default()
                },
            }],
            warnings: Vec::new(),
        };
        let svg = document(&scene);
        let parsed = roxmltree::Document::parse(&svg).expect("well-formed XML");
        let text = parsed
            .descendants()
            .find(|n| n.has_tag_name("text"))
            .unwrap();
        // The crate puts a text's content on a line of its own; SVG drops
        // those line breaks.
        assert_eq!(text.text().map(str::trim), Some("a<b & \"c\""));
        assert_eq!(text.attribute("font-family"), Some("x' onload='y"));
        assert_eq!(text.attribute("onload"), None);
    }

    #[test]
    fn the_canvas_covers_every_shape() {
        let scene = Scene {
            shapes: vec![Shape {
                geometry: Geometry::Line {
                    from: (-5.0, 2.0),
                    to: (30.0, 40.0),
                    arrow: true,
                },
                style: Style::default(),
            }],
            warnings: Vec::new(),
        };
        let svg = document(&scene);
        assert!(svg.contains(r#"viewBox="-5 0 45 50""#), "{svg}");
        assert!(svg.contains("marker-end"));
    }
}
