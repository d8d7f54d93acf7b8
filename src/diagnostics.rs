//! Located messages, collected rather than thrown, and rendered in gringo's
//! format: `file:line:col-col: error: message`, followed by the offending
//! source text (drawn by annotate-snippets) and any notes.
//!
//! Spans are byte ranges into a file of the [`SourceMap`]; lines and columns
//! (1-based, end column exclusive, as gringo prints them) are computed only
//! when a message is rendered.

use annotate_snippets::{AnnotationKind, Group, Level, Renderer, Snippet};
use std::fmt::Write as _;

/// Index of a file in the [`SourceMap`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FileId(pub u32);

/// A half-open byte range `start..end` in one source file.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Span {
    pub file: FileId,
    pub start: u32,
    pub end: u32,
}

impl Span {
    pub fn new(file: FileId, start: usize, end: usize) -> Span {
        Span {
            file,
            start: start as u32,
            end: end as u32,
        }
    }

    /// The smallest span covering both (they must be in the same file).
    pub fn to(self, other: Span) -> Span {
        Span {
            file: self.file,
            start: self.start.min(other.start),
            end: self.end.max(other.end),
        }
    }
}

/// One input: its display name (standard input is `-`, as clingo names it)
/// and its text.
#[derive(Clone, Debug)]
pub struct SourceFile {
    pub name: String,
    pub text: String,
}

/// Every input the run has read, indexed by [`FileId`].
#[derive(Clone, Debug, Default)]
pub struct SourceMap {
    files: Vec<SourceFile>,
}

impl SourceMap {
    pub fn add(&mut self, name: impl Into<String>, text: impl Into<String>) -> FileId {
        self.files.push(SourceFile {
            name: name.into(),
            text: text.into(),
        });
        FileId(self.files.len() as u32 - 1)
    }

    pub fn file(&self, id: FileId) -> &SourceFile {
        &self.files[id.0 as usize]
    }

    /// The source text a span covers.
    pub fn text(&self, span: Span) -> &str {
        let text = &self.file(span.file).text;
        let end = (span.end as usize).min(text.len());
        text.get(span.start as usize..end).unwrap_or("")
    }

    /// 1-based line and column of a byte offset; columns count characters.
    pub fn line_col(&self, file: FileId, offset: u32) -> (usize, usize) {
        let text = &self.file(file).text;
        let offset = (offset as usize).min(text.len());
        let before = &text[..floor_char_boundary(text, offset)];
        let line = before.matches('\n').count() + 1;
        let line_start = before.rfind('\n').map_or(0, |i| i + 1);
        let col = before[line_start..].chars().count() + 1;
        (line, col)
    }

    /// gringo's location prefix: `file:L:C1-C2` on one line,
    /// `file:L1:C1-L2:C2` across lines.
    pub fn location(&self, span: Span) -> String {
        let name = &self.file(span.file).name;
        let (l1, c1) = self.line_col(span.file, span.start);
        let (l2, c2) = self.line_col(span.file, span.end.max(span.start));
        if l1 == l2 {
            format!("{name}:{l1}:{c1}-{c2}")
        } else {
            format!("{name}:{l1}:{c1}-{l2}:{c2}")
        }
    }
}

fn floor_char_boundary(text: &str, mut offset: usize) -> usize {
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    offset
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Severity {
    /// gringo's `info:` — harmless, e.g. an undefined arithmetic operation.
    Info,
    Warning,
    Error,
}

impl Severity {
    fn label(self) -> &'static str {
        match self {
            Severity::Info => "info",
            Severity::Warning => "warning",
            Severity::Error => "error",
        }
    }
}

/// A secondary located remark, e.g. `note: 'X' is unsafe`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Note {
    pub span: Span,
    pub message: String,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    pub severity: Severity,
    pub span: Span,
    pub message: String,
    pub notes: Vec<Note>,
    /// clingo's message group, which `-W` switches on and off (`other`
    /// unless a message belongs to one of its named groups).
    pub group: &'static str,
    /// What gringo quotes under the message, shown instead of the source
    /// lines where the source does not say it (`p/1` for a `#show` whose
    /// signature no atom has).
    pub quote: Option<String>,
    /// The statement the message is about, where it reports on a part of
    /// it: messages are printed in the order of what they are about, the
    /// messages about one statement in the order they were reported (clingo
    /// reports a rule's unsafe aggregate elements before the rule).
    pub statement: Option<Span>,
}

impl Diagnostic {
    pub fn error(span: Span, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            severity: Severity::Error,
            span,
            message: message.into(),
            notes: Vec::new(),
            group: "other",
            quote: None,
            statement: None,
        }
    }

    pub fn info(span: Span, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            severity: Severity::Info,
            ..Diagnostic::error(span, message)
        }
    }

    pub fn with_note(mut self, span: Span, message: impl Into<String>) -> Diagnostic {
        self.notes.push(Note {
            span,
            message: message.into(),
        });
        self
    }

    /// The message with `text` quoted under it, as gringo quotes it.
    pub fn quoting(mut self, text: impl Into<String>) -> Diagnostic {
        self.quote = Some(text.into());
        self
    }

    /// The message, ordered among others as one about `statement`.
    pub fn about(mut self, statement: Span) -> Diagnostic {
        self.statement = Some(statement);
        self
    }

    /// Where the message stands among others: see [`Diagnostic::statement`].
    pub fn order(&self) -> (FileId, u32) {
        let span = self.statement.unwrap_or(self.span);
        (span.file, span.start)
    }

    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }

    /// Renders the message as gringo does, with the offending source drawn
    /// underneath (or its quoted text) and one `note:` line per note; a note whose message ends
    /// in `:` is followed by its source text, as gringo quotes it.
    pub fn render(&self, sources: &SourceMap) -> String {
        let mut out = format!(
            "{}: {}: {}\n",
            sources.location(self.span),
            self.severity.label(),
            self.message
        );
        match &self.quote {
            Some(quote) => {
                let _ = writeln!(out, "  {quote}");
            }
            None => out.push_str(&snippet(sources, self.span, self.severity)),
        }
        for note in &self.notes {
            let _ = writeln!(
                out,
                "{}: note: {}",
                sources.location(note.span),
                note.message
            );
            if note.message.ends_with(':') {
                let _ = writeln!(out, "  {}", sources.text(note.span));
            }
        }
        out
    }
}

/// The source lines of `span` with the span underlined.
fn snippet(sources: &SourceMap, span: Span, severity: Severity) -> String {
    let file = sources.file(span.file);
    let text = &file.text;
    let start = floor_char_boundary(text, (span.start as usize).min(text.len()));
    let end = floor_char_boundary(text, (span.end as usize).clamp(start, text.len()));
    let level = match severity {
        Severity::Error => Level::ERROR,
        Severity::Warning => Level::WARNING,
        Severity::Info => Level::INFO,
    };
    let report = &[Group::with_level(level).element(
        Snippet::source(text.as_str())
            .fold(true)
            .annotation(AnnotationKind::Primary.span(start..end)),
    )];
    let mut rendered = Renderer::plain().render(report);
    rendered.push('\n');
    rendered
}

/// Renders every diagnostic in source order (file, then position),
/// separated by blank lines as gringo does.
pub fn render_all(diagnostics: &[Diagnostic], sources: &SourceMap) -> String {
    let mut ordered: Vec<&Diagnostic> = diagnostics.iter().collect();
    ordered.sort_by_key(|d| d.order());
    ordered
        .into_iter()
        .map(|d| d.render(sources))
        .collect::<Vec<_>>()
        .join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn location_uses_gringo_columns() {
        let mut sources = SourceMap::default();
        let file = sources.add("e.lp", "a.\nb :- c(.\n");
        let span = Span::new(file, 10, 11);
        assert_eq!(sources.location(span), "e.lp:2:8-9");
        assert_eq!(sources.text(span), ".");
    }

    #[test]
    fn multi_line_location() {
        let mut sources = SourceMap::default();
        let file = sources.add("m.lp", "a :-\n  b.\n");
        assert_eq!(sources.location(Span::new(file, 0, 9)), "m.lp:1:1-2:5");
    }

    #[test]
    fn render_all_orders_by_position() {
        let mut sources = SourceMap::default();
        let file = sources.add("o.lp", "a :- b(.\nc :- d(.\n");
        let late = Diagnostic::error(Span::new(file, 16, 17), "second");
        let early = Diagnostic::error(Span::new(file, 7, 8), "first");
        let rendered = render_all(&[late, early], &sources);
        assert!(rendered.find("first").unwrap() < rendered.find("second").unwrap());
    }

    #[test]
    fn render_shows_header_snippet_and_notes() {
        let mut sources = SourceMap::default();
        let file = sources.add("u.lp", "p(X) :- q.\n");
        let rendered = Diagnostic::error(Span::new(file, 0, 10), "unsafe variables in:")
            .with_note(Span::new(file, 2, 3), "'X' is unsafe")
            .render(&sources);
        assert!(rendered.starts_with("u.lp:1:1-11: error: unsafe variables in:\n"));
        assert!(rendered.contains("p(X) :- q."));
        assert!(rendered.ends_with("u.lp:1:3-4: note: 'X' is unsafe\n"));
        let quoted = Diagnostic::error(Span::new(file, 0, 2), "cyclic:")
            .with_note(Span::new(file, 2, 3), "involves:")
            .render(&sources);
        assert!(
            quoted.ends_with("u.lp:1:3-4: note: involves:\n  X\n"),
            "{quoted}"
        );
    }
}
