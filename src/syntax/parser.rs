//! Text to spanned AST for clingo 4+, gringo 3/lparse and DLV input.
//!
//! Two stages: a lexer built from nom combinators over a
//! [`LocatedSpan`] turns the whole file into a token vector (comments,
//! strings, `#script .. #end` and `#include <file>` are handled there), and a
//! hand-written recursive-descent parser walks the tokens. Binary operator
//! chains and lists are parsed with loops, and every recursive construct
//! (parentheses, argument lists, `|t|`, unary operators) counts against
//! [`MAX_DEPTH`], so no input can overflow the stack.
//!
//! On a syntax error the parser records a diagnostic and skips to the next
//! statement-ending `.` (the lexer already separated `..`, strings and
//! comments), so every error of a file is reported.

use nom::branch::alt;
use nom::bytes::complete::{tag, take_while, take_while1};
use nom::character::complete::{char, digit1, hex_digit1, oct_digit1, satisfy};
use nom::combinator::{recognize, value};
use nom::error::ErrorKind;
use nom::{IResult, Input as _, Parser as _};
use nom_locate::LocatedSpan;
use std::cell::RefCell;

use crate::diagnostics::{Diagnostic, FileId, Span};
use crate::syntax::ast::{
    Aggregate, AggregateElement, AggregateFunction, Atom, BinaryOp, BodyElement, ChoiceElement,
    CmpOp, Guard, Head, HeadAggregateElement, HeadComparison, HeadLiteral, Literal, Naf,
    OptimizeElement, ProjectTarget, Signature, Statement, StatementKind, Term, TermKind, TupleEnd,
    UnaryOp,
};
use crate::syntax::facts::{FactTerm, FactsBuilder};

/// An lparse literal of `#minimize[..]` or `#minimize{..}` (an element of
/// [`Parser::literal_elements`]) as a cost tuple: its weight (1 when none is
/// given), then its atom and polarity, so that distinct literals count
/// apart.
fn weighted_literal(element: AggregateElement) -> OptimizeElement {
    let weight = element.terms.first().cloned().unwrap_or(Term {
        kind: TermKind::Integer(1),
        span: element.span,
    });
    let mut terms = Vec::new();
    if let Some(Literal::Atom { naf, atom }) = element.condition.first() {
        let polarity = 2 * (*naf as i32) + i32::from(atom.strong_negation);
        terms.push(atom.term.clone());
        terms.push(Term {
            kind: TermKind::Integer(polarity),
            span: atom.span,
        });
    }
    OptimizeElement {
        weight,
        priority: None,
        terms,
        condition: element
            .condition
            .into_iter()
            .map(BodyElement::Literal)
            .collect(),
        per_instance: false,
        span: element.span,
    }
}

/// How many parentheses, argument lists, `|..|` and unary operators may nest.
const MAX_DEPTH: usize = 1024;

/// How deep [`Parser::plain_fact`] nests functions; deeper ones are left to
/// the parser's general path, which reports what is too deep.
const MAX_PLAIN_DEPTH: usize = 64;

/// How deep a term's tree of binary operators may grow: `1+1+…+1` is a
/// chain as deep as it is long, and grounding walks it recursively.
const MAX_OPERATOR_DEPTH: usize = 100_000;

/// The depth of a term's tree, measured without recursion.
fn term_depth(term: &Term) -> usize {
    let mut deepest = 0;
    let mut pending = vec![(term, 1)];
    while let Some((term, depth)) = pending.pop() {
        deepest = deepest.max(depth);
        match &term.kind {
            TermKind::Function { args, .. } | TermKind::Tuple(args) | TermKind::Pool(args) => {
                pending.extend(args.iter().map(|a| (a, depth + 1)))
            }
            TermKind::Interval(a, b) | TermKind::Binary(_, a, b) => {
                pending.extend([(&**a, depth + 1), (&**b, depth + 1)])
            }
            TermKind::Unary(_, a) => pending.push((a, depth + 1)),
            _ => {}
        }
    }
    deepest
}

/// Parses one whole file. Every syntax error is reported; statements that
/// parsed are returned even when others failed. Consecutive facts that
/// [`Facts`](crate::syntax::ast::Facts) can hold are one [`StatementKind::Facts`].
pub fn parse_program(source: &str, file: FileId) -> (Vec<Statement>, Vec<Diagnostic>) {
    if let Some(header) = aspif_header(source) {
        let message = "aspif input (clingo's ground intermediate format, a file that starts \
                       with `asp <version>`) is not supported by asp2sat yet";
        let span = Span::new(file, 0, header.len());
        return (Vec::new(), vec![Diagnostic::error(span, message)]);
    }
    let mut parser = Parser::new(source, file);
    let mut diagnostics = Vec::new();
    let mut statements = Vec::new();
    let mut facts = FactsBuilder::default();
    let end_of_facts = |facts: &mut FactsBuilder, statements: &mut Vec<Statement>| {
        if !facts.is_empty() {
            let facts = facts.take();
            let span = facts.span(0, file).to(facts.span(facts.len() - 1, file));
            let kind = StatementKind::Facts(facts);
            statements.push(Statement { kind, span });
        }
    };
    while parser.peek() != K::Eof {
        parser.forget_read_tokens();
        if parser.plain_fact(&mut facts) {
            continue;
        }
        match parser.statement() {
            Ok(statement) => {
                if !facts.push(&statement) {
                    end_of_facts(&mut facts, &mut statements);
                    statements.push(statement);
                }
            }
            Err(Fail(diagnostic)) => {
                diagnostics.extend(diagnostic);
                parser.recover();
            }
        }
    }
    end_of_facts(&mut facts, &mut statements);
    let mut all = parser.lexer.into_inner().finish();
    all.append(&mut diagnostics);
    all.sort_by_key(|d| d.span.start);
    (statements, all)
}

/// The first line of an aspif file: clingo 5.6 reads a file that starts
/// with `asp`, a space and a digit as aspif.
fn aspif_header(source: &str) -> Option<&str> {
    let version = source.strip_prefix("asp ")?;
    if !version.starts_with(|c: char| c.is_ascii_digit()) {
        return None;
    }
    source.lines().next()
}

/// Parses a single term (used for `-c name=value`).
pub fn parse_term(source: &str, file: FileId) -> Result<Term, Diagnostic> {
    let mut parser = Parser::new(source, file);
    let result = parser.term().and_then(|term| {
        if parser.at(K::Eof) {
            Ok(term)
        } else {
            Err(parser.unexpected())
        }
    });
    // A lexer error comes first, wherever it is.
    if let Some(first) = parser.lexer.into_inner().finish().into_iter().next() {
        return Err(first);
    }
    result.map_err(|Fail(d)| {
        d.unwrap_or_else(|| Diagnostic::error(Span::new(file, 0, source.len()), "syntax error"))
    })
}

// ---------------------------------------------------------------------------
// Lexer
// ---------------------------------------------------------------------------

type In<'a> = LocatedSpan<&'a str>;

/// Token kinds. Texts are recovered from the source through the span.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum K {
    Ident,
    Var,
    Anon,
    Int,
    Str,
    /// `<file>` right after `#include`.
    AngleStr,
    /// `#name`
    Directive,
    /// `#script ... #end`
    Script,
    Not,
    LParen,
    RParen,
    LBrace,
    RBrace,
    LBrack,
    RBrack,
    Comma,
    Semi,
    Colon,
    If,
    Wif,
    Assign,
    Dot,
    DotDot,
    Bar,
    Plus,
    Minus,
    Star,
    Pow,
    Slash,
    Backslash,
    Question,
    Caret,
    Amp,
    Tilde,
    Eq,
    EqEq,
    Ne,
    LtGt,
    Lt,
    Le,
    Gt,
    Ge,
    At,
    /// Text the lexer already reported; the parser fails silently on it.
    Error,
    Eof,
}

#[derive(Clone, Copy, Debug)]
struct Token {
    kind: K,
    start: usize,
    end: usize,
}

fn is_id_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_' || c == '\''
}

/// Identifiers (`_*[a-z]..`), variables (`_*[A-Z]..`) and `not`.
fn name(i: In) -> IResult<In, K> {
    let (rest, text) = recognize((
        take_while(|c| c == '_'),
        satisfy(|c| c.is_ascii_alphabetic()),
        take_while(is_id_char),
    ))
    .parse(i)?;
    let text = *text.fragment();
    let first = text.trim_start_matches('_').chars().next();
    let kind = if first.is_some_and(|c| c.is_ascii_uppercase()) {
        K::Var
    } else if text == "not" {
        K::Not
    } else {
        K::Ident
    };
    Ok((rest, kind))
}

/// `_1`, `__2x`: variables made of underscores and digits.
fn underscore_var(i: In) -> IResult<In, K> {
    value(
        K::Var,
        (take_while1(|c| c == '_'), digit1, take_while(is_id_char)),
    )
    .parse(i)
}

/// An integer literal; a decimal one has no leading zero, as in clingo
/// (`01` is the two numbers `0` and `1`, a syntax error where they meet).
fn number(i: In) -> IResult<In, K> {
    value(
        K::Int,
        alt((
            recognize((tag("0x"), hex_digit1)),
            recognize((tag("0o"), oct_digit1)),
            recognize((tag("0b"), take_while1(|c| c == '0' || c == '1'))),
            tag("0"),
            digit1,
        )),
    )
    .parse(i)
}

fn directive(i: In) -> IResult<In, K> {
    value(
        K::Directive,
        (char('#'), take_while1(|c: char| c.is_ascii_lowercase())),
    )
    .parse(i)
}

/// Punctuation and operators, longest match first.
fn punct(i: In) -> IResult<In, K> {
    let bytes = i.fragment().as_bytes();
    let second = bytes.get(1).copied();
    let (kind, len) = match (bytes.first().copied(), second) {
        (Some(b':'), Some(b'-')) => (K::If, 2),
        (Some(b':'), Some(b'~')) => (K::Wif, 2),
        (Some(b':'), Some(b'=')) => (K::Assign, 2),
        (Some(b':'), _) => (K::Colon, 1),
        (Some(b'.'), Some(b'.')) => (K::DotDot, 2),
        (Some(b'.'), _) => (K::Dot, 1),
        (Some(b'*'), Some(b'*')) => (K::Pow, 2),
        (Some(b'*'), _) => (K::Star, 1),
        (Some(b'='), Some(b'=')) => (K::EqEq, 2),
        (Some(b'='), _) => (K::Eq, 1),
        (Some(b'!'), Some(b'=')) => (K::Ne, 2),
        (Some(b'<'), Some(b'>')) => (K::LtGt, 2),
        (Some(b'<'), Some(b'=')) => (K::Le, 2),
        (Some(b'<'), _) => (K::Lt, 1),
        (Some(b'>'), Some(b'=')) => (K::Ge, 2),
        (Some(b'>'), _) => (K::Gt, 1),
        (Some(b'('), _) => (K::LParen, 1),
        (Some(b')'), _) => (K::RParen, 1),
        (Some(b'{'), _) => (K::LBrace, 1),
        (Some(b'}'), _) => (K::RBrace, 1),
        (Some(b'['), _) => (K::LBrack, 1),
        (Some(b']'), _) => (K::RBrack, 1),
        (Some(b','), _) => (K::Comma, 1),
        (Some(b';'), _) => (K::Semi, 1),
        (Some(b'|'), _) => (K::Bar, 1),
        (Some(b'+'), _) => (K::Plus, 1),
        (Some(b'-'), _) => (K::Minus, 1),
        (Some(b'/'), _) => (K::Slash, 1),
        (Some(b'\\'), _) => (K::Backslash, 1),
        (Some(b'?'), _) => (K::Question, 1),
        (Some(b'^'), _) => (K::Caret, 1),
        (Some(b'&'), _) => (K::Amp, 1),
        (Some(b'~'), _) => (K::Tilde, 1),
        (Some(b'@'), _) => (K::At, 1),
        _ => return Err(nom::Err::Error(nom::error::Error::new(i, ErrorKind::Char))),
    };
    Ok((i.take_from(len), kind))
}

/// One token, dispatched on its first character.
fn token(i: In) -> IResult<In, K> {
    match i.fragment().as_bytes().first() {
        Some(c) if c.is_ascii_alphabetic() => name(i),
        Some(b'_') => alt((name, underscore_var, value(K::Anon, char('_')))).parse(i),
        Some(c) if c.is_ascii_digit() => number(i),
        Some(b'#') => directive(i),
        _ => punct(i),
    }
}

/// Lexes on demand: the parser asks for tokens by their index in the file
/// and drops those it is done with, so the tokens held at any time are
/// those of about one statement, however long the file.
struct Lexer<'s> {
    src: &'s str,
    file: FileId,
    /// Where the input not lexed yet starts.
    offset: usize,
    /// The tokens from index `first` on that are lexed and not forgotten;
    /// the last is `Eof` once the whole input is lexed.
    tokens: Vec<Token>,
    first: usize,
    finished: bool,
    diagnostics: Vec<Diagnostic>,
    /// The last token is an `Error` for a run of unexpected characters that
    /// the next unexpected character may extend.
    extendable_error: bool,
}

impl<'s> Lexer<'s> {
    fn new(src: &'s str, file: FileId) -> Self {
        Lexer {
            src,
            file,
            offset: 0,
            tokens: Vec::new(),
            first: 0,
            finished: false,
            diagnostics: Vec::new(),
            extendable_error: false,
        }
    }

    /// Token `index` of the file; `Eof` from the end of the input on.
    /// Tokens before the last [`Self::forget_before`] are gone.
    fn token(&mut self, index: usize) -> Token {
        assert!(index >= self.first, "token {index} was forgotten");
        while index - self.first >= self.tokens.len() && !self.finished {
            self.lex_next();
        }
        self.tokens[(index - self.first).min(self.tokens.len() - 1)]
    }

    /// Drops the tokens before `index`.
    fn forget_before(&mut self, index: usize) {
        let forgotten = index.saturating_sub(self.first).min(self.tokens.len());
        self.tokens.drain(..forgotten);
        self.first += forgotten;
    }

    /// Lexes the whole input; returns the lexer's errors.
    fn finish(mut self) -> Vec<Diagnostic> {
        while !self.finished {
            self.tokens.clear();
            self.lex_next();
        }
        self.diagnostics
    }

    /// Lexes at least one more token, and a run of unexpected characters
    /// after it to its end (it becomes one error token).
    fn lex_next(&mut self) {
        let before = self.tokens.len();
        while !self.finished && (self.tokens.len() == before || self.extendable_error) {
            self.lex_step();
        }
    }

    /// Skips trivia and lexes what follows: one token, or the tokens of a
    /// `#include <file>`, or `Eof`.
    fn lex_step(&mut self) {
        let src = self.src;
        let here = self.offset;
        let off = self.skip_trivia(here);
        if off > here {
            self.extendable_error = false;
        }
        if off >= src.len() {
            self.push(K::Eof, src.len(), src.len());
            self.finished = true;
            return;
        }
        let next = if src.as_bytes()[off] == b'"' {
            self.string(off)
        } else {
            match token(In::new(&src[off..])) {
                Ok((rest, kind)) => {
                    let end = off + rest.location_offset();
                    match (kind, &src[off..end]) {
                        (K::Directive, "#script") => self.script(off, end),
                        (K::Directive, "#include") => {
                            self.push(kind, off, end);
                            self.angle_file(end)
                        }
                        _ => {
                            self.push(kind, off, end);
                            end
                        }
                    }
                }
                Err(_) => self.unexpected_char(off),
            }
        };
        self.offset = next;
    }
    fn push(&mut self, kind: K, start: usize, end: usize) {
        self.tokens.push(Token { kind, start, end });
        self.extendable_error = false;
    }

    fn error(&mut self, start: usize, end: usize, message: impl Into<String>) {
        self.diagnostics
            .push(Diagnostic::error(Span::new(self.file, start, end), message));
    }

    /// Skips whitespace and comments from `off`; returns the next offset.
    fn skip_trivia(&mut self, mut off: usize) -> usize {
        let bytes = self.src.as_bytes();
        loop {
            match bytes.get(off) {
                Some(b) if b.is_ascii_whitespace() => off += 1,
                Some(b'%') if bytes.get(off + 1) == Some(&b'*') => {
                    let mut depth = 1;
                    let mut i = off + 2;
                    while depth > 0 && i < bytes.len() {
                        if bytes[i..].starts_with(b"*%") {
                            depth -= 1;
                            i += 2;
                        } else if bytes[i..].starts_with(b"%*") {
                            depth += 1;
                            i += 2;
                        } else {
                            i += 1;
                        }
                    }
                    if depth > 0 {
                        self.error(off, off + 2, "lexer error, unterminated block comment");
                        self.push(K::Error, off, bytes.len());
                        return bytes.len();
                    }
                    off = i;
                }
                // `%` line comments, and `#!` lines as gringo skips them
                Some(b'%') | Some(b'#')
                    if bytes[off] == b'%' || bytes.get(off + 1) == Some(&b'!') =>
                {
                    off = bytes[off..]
                        .iter()
                        .position(|&b| b == b'\n')
                        .map_or(bytes.len(), |p| off + p);
                }
                _ => return off,
            }
        }
    }

    /// Lexes a string starting at the `"` at `off`; returns the offset after it.
    fn string(&mut self, off: usize) -> usize {
        let mut chars = self.src[off + 1..].char_indices();
        let mut bad = false;
        while let Some((i, c)) = chars.next() {
            let at = off + 1 + i;
            match c {
                '"' => {
                    self.push(if bad { K::Error } else { K::Str }, off, at + 1);
                    return at + 1;
                }
                '\\' => match chars.next() {
                    Some((_, '"' | '\\' | 'n')) => {}
                    Some((_, '\n')) | None => break,
                    Some((_, other)) => {
                        let end = at + 1 + other.len_utf8();
                        self.error(
                            at,
                            end,
                            format!("lexer error, invalid escape sequence \\{other}"),
                        );
                        bad = true;
                    }
                },
                '\n' => break,
                _ => {}
            }
        }
        self.error(off, off + 1, "lexer error, unterminated string");
        self.push(K::Error, off, off + 1);
        off + 1
    }

    /// Records one unexpected character, merged with a directly preceding one.
    fn unexpected_char(&mut self, off: usize) -> usize {
        let len = self.src[off..].chars().next().map_or(1, char::len_utf8);
        let end = off + len;
        if self.extendable_error
            && let (Some(token), Some(diagnostic)) =
                (self.tokens.last_mut(), self.diagnostics.last_mut())
            && token.end == off
        {
            token.end = end;
            diagnostic.span.end = end as u32;
            diagnostic.message = format!("lexer error, unexpected {}", &self.src[token.start..end]);
            return end;
        }
        self.error(
            off,
            end,
            format!("lexer error, unexpected {}", &self.src[off..end]),
        );
        self.push(K::Error, off, end);
        self.extendable_error = true;
        end
    }

    /// After `#script`: everything up to and including `#end` is one token.
    fn script(&mut self, start: usize, after: usize) -> usize {
        match self.src[after..].find("#end") {
            Some(p) => {
                let end = after + p + 4;
                self.push(K::Script, start, end);
                end
            }
            None => {
                self.error(
                    start,
                    after,
                    "lexer error, unterminated #script (missing #end)",
                );
                self.push(K::Error, start, self.src.len());
                self.src.len()
            }
        }
    }

    /// After `#include`: lexes `<file>` as one token if present.
    fn angle_file(&mut self, after: usize) -> usize {
        let bytes = self.src.as_bytes();
        let mut off = after;
        while bytes.get(off).is_some_and(|b| matches!(b, b' ' | b'\t')) {
            off += 1;
        }
        if bytes.get(off) == Some(&b'<')
            && let Some(p) = bytes[off..].iter().position(|&b| b == b'>' || b == b'\n')
            && bytes[off + p] == b'>'
        {
            self.push(K::AngleStr, off, off + p + 1);
            return off + p + 1;
        }
        after
    }
}

/// The value of a string literal's source text, quotes included.
fn unescape(text: &str) -> String {
    let inner = text
        .strip_prefix('"')
        .and_then(|t| t.strip_suffix('"'))
        .unwrap_or(text);
    let mut out = String::with_capacity(inner.len());
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            match chars.next() {
                Some('n') => out.push('\n'),
                Some(other) => out.push(other),
                None => out.push('\\'),
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// The value of an integer literal as clingo reads it: digit by digit in
/// 32-bit two's complement, so that `0x80000000` is -2147483648 (clingo's
/// own tests rely on it) and longer literals wrap around.
fn literal_value(text: &str) -> i32 {
    let (digits, radix) = if let Some(d) = text.strip_prefix("0x") {
        (d, 16)
    } else if let Some(d) = text.strip_prefix("0o") {
        (d, 8)
    } else if let Some(d) = text.strip_prefix("0b") {
        (d, 2)
    } else {
        (text, 10)
    };
    let value = digits.chars().fold(0u32, |value, digit| {
        let digit = digit
            .to_digit(radix)
            .expect("the lexer read digits of the radix");
        value.wrapping_mul(radix).wrapping_add(digit)
    });
    value as i32
}

// ---------------------------------------------------------------------------
// Parser
// ---------------------------------------------------------------------------

/// A failed parse: the error to report, or `None` when the lexer already
/// reported the offending token.
struct Fail(Option<Diagnostic>);

type PResult<T> = Result<T, Fail>;

#[derive(Clone, Copy)]
enum Infix {
    Interval,
    Binary(BinaryOp),
}

/// Precedence (higher binds tighter) and right-associativity, as in gringo.
fn infix(kind: K) -> Option<(Infix, u8, bool)> {
    use BinaryOp::*;
    Some(match kind {
        K::DotDot => (Infix::Interval, 1, false),
        K::Caret => (Infix::Binary(BitXor), 2, false),
        K::Question => (Infix::Binary(BitOr), 3, false),
        K::Amp => (Infix::Binary(BitAnd), 4, false),
        K::Plus => (Infix::Binary(Add), 5, false),
        K::Minus => (Infix::Binary(Sub), 5, false),
        K::Star => (Infix::Binary(Mul), 6, false),
        K::Slash => (Infix::Binary(Div), 6, false),
        K::Backslash => (Infix::Binary(Mod), 6, false),
        K::Pow => (Infix::Binary(Pow), 7, true),
        _ => return None,
    })
}

/// The first disjunct of a head, as far as it has been read.
enum Disjunct {
    /// A term at the given token, under its `not`s: an atom, or a
    /// comparison's left side.
    Term(Naf, usize, Term),
    Atom(Naf, Atom),
}

fn comparison(kind: K) -> Option<CmpOp> {
    Some(match kind {
        K::Eq | K::EqEq | K::Assign => CmpOp::Eq,
        K::Ne | K::LtGt => CmpOp::Ne,
        K::Lt => CmpOp::Lt,
        K::Le => CmpOp::Le,
        K::Gt => CmpOp::Gt,
        K::Ge => CmpOp::Ge,
        _ => return None,
    })
}

/// A comparison as written, under its `not`s: `t0 op1 t1 .. opn tn`. Since
/// clingo 5.6 a chain of relations is the conjunction of the comparisons
/// of adjacent terms (`1 <= X <= 3` is `1 <= X, X <= 3`), and `not` in
/// front of it negates that conjunction. A chain is kept whole until its
/// place decides what stands for it, the way clingo rewrites it: more
/// literals of a body or condition, a disjunction, or an element written
/// once per negated comparison.
#[derive(Clone)]
struct Chain {
    naf: Naf,
    first: Term,
    links: Vec<(CmpOp, Term)>,
    /// `V = t` for each term `t` that stands for several values (a pool or
    /// an interval), which the chain has as a made-up variable `V` (see
    /// [`Parser::bind`]): `1 < (2;5) < 3` is `V = (2;5), 1 < V, V < 3`.
    /// They stand beside the comparisons.
    bindings: Vec<Literal>,
    span: Span,
}

impl Chain {
    /// Whether the chain is asserted (also under `not not`), not negated.
    fn holds(&self) -> bool {
        self.naf != Naf::Not
    }

    /// The chain with its truth turned around: `not` added or taken away.
    fn negated(self) -> Chain {
        let naf = if self.holds() {
            Naf::Not
        } else {
            Naf::Positive
        };
        Chain { naf, ..self }
    }

    /// The comparison of each pair of adjacent terms, each one `negated`
    /// (`<` as `>=`) or not.
    fn comparisons(&self, negated: bool) -> Vec<Literal> {
        let mut lhs = &self.first;
        (self.links.iter())
            .map(|(op, rhs)| {
                let literal = Literal::Comparison {
                    naf: Naf::Positive,
                    lhs: lhs.clone(),
                    op: if negated { op.negate() } else { *op },
                    rhs: rhs.clone(),
                    span: lhs.span.to(rhs.span),
                };
                lhs = rhs;
                literal
            })
            .collect()
    }

    fn terms(&self) -> impl Iterator<Item = &Term> {
        std::iter::once(&self.first).chain(self.links.iter().map(|(_, term)| term))
    }

    /// The chain as read in a body or condition: one relation without
    /// bindings is a plain [`Literal::Comparison`].
    fn read(mut self) -> Read {
        if self.links.len() > 1 || !self.bindings.is_empty() {
            return Read::Chain(self);
        }
        let (op, rhs) = self.links.pop().expect("a comparison has a relation");
        Read::Literal(Literal::Comparison {
            naf: self.naf,
            lhs: self.first,
            op,
            rhs,
            span: self.span,
        })
    }
}

/// A literal of a body or condition as read: a chain of two relations or
/// more is kept whole ([`Chain`]).
#[derive(Clone)]
enum Read {
    Literal(Literal),
    Chain(Chain),
}

/// The alternatives a condition stands for: one list of literals, or,
/// where `not` negates a chain, a list for each of its comparisons,
/// negated (the condition holds when one of them fails). As clingo does,
/// the element of such a condition is written once per alternative.
type Alternatives = Vec<Vec<Literal>>;

impl Read {
    fn alternatives(self) -> Alternatives {
        match self {
            Read::Literal(literal) => vec![vec![literal]],
            Read::Chain(chain) if chain.holds() => {
                vec![[chain.bindings.clone(), chain.comparisons(false)].concat()]
            }
            Read::Chain(chain) => (chain.comparisons(true).into_iter())
                .map(|failing| [&chain.bindings[..], &[failing]].concat())
                .collect(),
        }
    }

    /// Adds the body elements `self` stands for to `body`: a chain's
    /// bindings and comparisons, or, for a negated chain, the disjunction
    /// of its negated comparisons, each with the bindings (which it keeps
    /// to itself: the chain holds for some value of them).
    fn into_body(self, body: &mut Vec<BodyElement>) {
        let chain = match self {
            Read::Literal(literal) => return body.push(BodyElement::Literal(literal)),
            Read::Chain(chain) => chain,
        };
        if !chain.holds() {
            let span = chain.span;
            return body.push(some_holds(Read::Chain(chain).alternatives(), span));
        }
        body.extend(chain.bindings.iter().cloned().map(BodyElement::Literal));
        let comparisons = chain.comparisons(false).into_iter();
        body.extend(comparisons.map(BodyElement::Literal));
    }

    /// Adds the body's conditional literals `self : c` for each alternative
    /// `c` of `conditions` to `body`: one per comparison of a chain (each
    /// must hold under the condition), or, for a negated chain, `#false :
    /// c, comparisons` (no instance of the condition may have them all
    /// hold). With bindings, the chain holds for some value of them where
    /// `c` does, and nothing is required where `c` fails: `c` implies the
    /// chain, which is `¬c1 ∨ .. ∨ ¬ck ∨ chain` ([`some_holds`]), so that
    /// an interval is not enumerated where `c` is false, and an empty one
    /// fails only where `c` holds, as in clingo. Under a condition over
    /// variables clingo expands the bindings once per instance of it
    /// instead, which is refused (at `span`).
    fn conditionals(
        &self,
        conditions: Alternatives,
        span: Span,
        body: &mut Vec<BodyElement>,
    ) -> PResult<()> {
        if let Read::Chain(chain) = self
            && !chain.bindings.is_empty()
        {
            if conditions.iter().flatten().any(literal_has_variable) {
                return Err(Fail(Some(Diagnostic::error(
                    span,
                    "a chain of comparisons with a pool or an interval, as the literal of a \
                     conditional literal whose condition has variables, is not supported",
                ))));
            }
            for condition in conditions {
                let mut disjuncts: Alternatives =
                    condition.iter().map(|c| vec![negation(c)]).collect();
                disjuncts.extend(self.clone().alternatives());
                body.push(some_holds(disjuncts, span));
            }
            return Ok(());
        }
        let conditional = |literal, condition| BodyElement::Conditional {
            literal,
            condition,
            span,
        };
        for condition in conditions {
            match self {
                Read::Literal(literal) => body.push(conditional(literal.clone(), condition)),
                Read::Chain(chain) if chain.holds() => body.extend(
                    (chain.comparisons(false).into_iter())
                        .map(|comparison| conditional(comparison, condition.clone())),
                ),
                Read::Chain(chain) => {
                    let falsity = Literal::Boolean {
                        naf: Naf::Positive,
                        value: false,
                        span: chain.span,
                    };
                    let condition = [condition, chain.comparisons(false)].concat();
                    body.push(conditional(falsity, condition));
                }
            }
        }
        Ok(())
    }
}

/// The disjunction of the conjunctions `disjuncts`, as the aggregate
/// `#count{ : l1; ..; : ln } >= 1` (its empty tuple counts once, when some
/// `li` holds), where the variables of each `li` are its own.
fn some_holds(disjuncts: Alternatives, span: Span) -> BodyElement {
    let elements = (disjuncts.into_iter())
        .map(|condition| AggregateElement {
            terms: Vec::new(),
            condition,
            tuple_end: TupleEnd::Nothing,
            span,
        })
        .collect();
    let one = Term {
        kind: TermKind::Integer(1),
        span,
    };
    BodyElement::Aggregate(Aggregate {
        naf: Naf::Positive,
        function: AggregateFunction::Count,
        elements,
        guards: vec![Guard {
            op: CmpOp::Ge,
            term: one,
        }],
        span,
    })
}

/// `not literal`, as a literal (`not not a` fails where `not a` holds).
fn negation(literal: &Literal) -> Literal {
    let mut negation = literal.clone();
    match &mut negation {
        Literal::Atom { naf, .. }
        | Literal::Comparison { naf, .. }
        | Literal::Boolean { naf, .. } => {
            *naf = match naf {
                Naf::Positive => Naf::Not,
                Naf::Not => Naf::Positive,
                Naf::NotNot => Naf::Not,
            }
        }
    }
    negation
}

/// Whether a variable (named or anonymous) occurs in `literal`.
fn literal_has_variable(literal: &Literal) -> bool {
    let variable = |kind: &TermKind| matches!(kind, TermKind::Variable(_) | TermKind::Anonymous);
    match literal {
        Literal::Atom { atom, .. } => atom.term.contains(variable),
        Literal::Comparison { lhs, rhs, .. } => lhs.contains(variable) || rhs.contains(variable),
        Literal::Boolean { .. } => false,
    }
}

/// Each alternative of `first` followed by each of `then` (extended in
/// place when `then` has one, as it has but for a negated chain).
fn product(first: Alternatives, then: &Alternatives) -> Alternatives {
    if let [only] = &then[..] {
        return (first.into_iter())
            .map(|mut alternative| {
                alternative.extend_from_slice(only);
                alternative
            })
            .collect();
    }
    (first.iter())
        .flat_map(|a| then.iter().map(move |b| [&a[..], b].concat()))
        .collect()
}

/// The tuple that tells a comparison among the elements of a literal set
/// or choice apart: its place `index` there and its terms, so that each
/// of its ground instances counts once, as clingo's tuple `(index, ..)`
/// does.
fn comparison_tuple<'t>(
    index: usize,
    terms: impl Iterator<Item = &'t Term>,
    span: Span,
) -> Vec<Term> {
    let index = Term {
        kind: TermKind::Integer(index as i32),
        span,
    };
    std::iter::once(index).chain(terms.cloned()).collect()
}

/// A comparison `condition` as an element of a choice or head aggregate:
/// `not #false : condition`, which chooses nothing and counts when the
/// condition holds, as clingo moves the comparison into the condition.
fn comparison_element(
    terms: Vec<Term>,
    tuple_end: TupleEnd,
    condition: Vec<Literal>,
    span: Span,
) -> HeadAggregateElement {
    let falsity = Term {
        kind: TermKind::Constant("#false".to_owned()),
        span,
    };
    HeadAggregateElement {
        terms,
        naf: Naf::Not,
        atom: Atom {
            strong_negation: false,
            term: falsity,
            span,
        },
        condition,
        tuple_end,
        span,
    }
}

const AGGREGATE_FUNCTIONS: &[&str] = &[
    "#count", "#sum", "#min", "#max", "#avg", "#times", "#even", "#odd",
];

/// DLV built-in predicates such as `#int(X)`, skipped as unsupported.
const DLV_BUILTINS: &[&str] = &["#int", "#succ", "#prec", "#mod", "#rand", "#absdiff"];

/// One `;`-separated group of an argument list or tuple.
struct Group {
    terms: Vec<Term>,
    trailing_comma: bool,
    start: usize,
    end: usize,
}

struct Parser<'s> {
    src: &'s str,
    file: FileId,
    /// Lexes as the parser looks ahead (behind a `RefCell`, as looking is
    /// not changing the parse).
    lexer: RefCell<Lexer<'s>>,
    /// The index of the next token.
    pos: usize,
    depth: usize,
    /// How many variables the parser has made up (see [`Parser::bind`]).
    fresh: usize,
}

impl<'s> Parser<'s> {
    fn new(src: &'s str, file: FileId) -> Self {
        Parser {
            src,
            file,
            lexer: RefCell::new(Lexer::new(src, file)),
            pos: 0,
            depth: 0,
            fresh: 0,
        }
    }

    // --- token access -----------------------------------------------------

    fn token(&self, index: usize) -> Token {
        self.lexer.borrow_mut().token(index)
    }

    fn tok(&self) -> Token {
        self.token(self.pos)
    }

    fn peek(&self) -> K {
        self.tok().kind
    }

    fn peek_at(&self, index: usize) -> K {
        self.token(index).kind
    }

    /// Frees the tokens read, but the last one (see [`Self::prev_end`]):
    /// a new statement starts.
    fn forget_read_tokens(&mut self) {
        (self.lexer.get_mut()).forget_before(self.pos.saturating_sub(1));
    }

    fn at(&self, kind: K) -> bool {
        self.peek() == kind
    }

    fn bump(&mut self) -> Token {
        let token = self.tok();
        if token.kind != K::Eof {
            self.pos += 1;
        }
        token
    }

    fn eat(&mut self, kind: K) -> Option<Token> {
        self.at(kind).then(|| self.bump())
    }

    fn text(&self, token: Token) -> &'s str {
        &self.src[token.start..token.end]
    }

    fn directive_at(&self, index: usize) -> Option<&'s str> {
        let token = self.token(index);
        (token.kind == K::Directive).then(|| self.text(token))
    }

    fn is_directive(&self, names: &[&str]) -> bool {
        self.directive_at(self.pos)
            .is_some_and(|d| names.contains(&d))
    }

    /// End offset of the last consumed token.
    fn prev_end(&self) -> usize {
        self.pos.checked_sub(1).map_or(0, |p| self.token(p).end)
    }

    fn span(&self, start: usize, end: usize) -> Span {
        Span::new(self.file, start, end)
    }

    fn term_at(&self, kind: TermKind, start: usize, end: usize) -> Term {
        Term {
            kind,
            span: self.span(start, end),
        }
    }

    // --- errors -----------------------------------------------------------

    fn describe(&self, token: Token) -> String {
        match token.kind {
            K::Eof => "<EOF>".to_owned(),
            K::Int => "<NUMBER>".to_owned(),
            K::Ident => "<IDENTIFIER>".to_owned(),
            K::Var => "<VARIABLE>".to_owned(),
            K::Anon => "<ANONYMOUS>".to_owned(),
            K::Str | K::AngleStr => "<STRING>".to_owned(),
            K::Script => "#script".to_owned(),
            _ => self.text(token).to_owned(),
        }
    }

    fn fail_here(&self, expecting: Option<&str>) -> Fail {
        let token = self.tok();
        if token.kind == K::Error {
            return Fail(None);
        }
        let mut message = format!("syntax error, unexpected {}", self.describe(token));
        if let Some(what) = expecting {
            message.push_str(", expecting ");
            message.push_str(what);
        }
        Fail(Some(Diagnostic::error(
            self.span(token.start, token.end),
            message,
        )))
    }

    fn unexpected(&self) -> Fail {
        self.fail_here(None)
    }

    fn expected(&self, what: &str) -> Fail {
        self.fail_here(Some(what))
    }

    fn expect(&mut self, kind: K, what: &str) -> PResult<Token> {
        self.eat(kind).ok_or_else(|| self.expected(what))
    }

    fn enter(&mut self) -> PResult<()> {
        if self.depth >= MAX_DEPTH {
            return Err(self.too_deep());
        }
        self.depth += 1;
        Ok(())
    }

    fn leave(&mut self) {
        self.depth -= 1;
    }

    fn too_deep(&self) -> Fail {
        let token = self.tok();
        Fail(Some(Diagnostic::error(
            self.span(token.start, token.end),
            "term nested too deeply",
        )))
    }

    /// Skips to just after the next statement-ending `.` (and the modifier
    /// after it, if any).
    fn recover(&mut self) {
        self.depth = 0;
        loop {
            match self.peek() {
                K::Eof => return,
                K::Dot => {
                    self.bump();
                    if let Ok(Some(close)) = self.modifier_close() {
                        self.pos = close + 1;
                    }
                    return;
                }
                _ => {
                    self.bump();
                }
            }
        }
    }

    /// After a statement's `.`: the index of the `]` closing the modifier
    /// `[w@p, m]` that follows (`#heuristic`, `#external`), if one does
    /// (no statement starts with `[`); `Err` with the index of the token
    /// where an unclosed one ends.
    fn modifier_close(&self) -> Result<Option<usize>, usize> {
        let mut index = self.pos;
        if self.peek_at(index) != K::LBrack {
            return Ok(None);
        }
        loop {
            index += 1;
            match self.peek_at(index) {
                K::RBrack => return Ok(Some(index)),
                K::Dot | K::Eof | K::Error => return Err(index),
                _ => {}
            }
        }
    }

    // --- plain facts ------------------------------------------------------

    /// Reads a fact that [`Facts`](crate::syntax::ast::Facts) holds straight
    /// into `facts`, without its AST: `p(1,-2,a,"s",f(b)).` or `-p.`, the
    /// `.` right after the atom. Anything else (tuples, operators, pools,
    /// `p()`, deep nesting) leaves the position and `facts` as they were,
    /// for [`Self::statement`], which reads such a fact to the same entry
    /// of `facts`.
    fn plain_fact(&mut self, facts: &mut FactsBuilder) -> bool {
        let (start, mark) = (self.pos, facts.mark());
        if self.plain_fact_tokens(facts, mark).is_some() {
            return true;
        }
        self.pos = start;
        facts.abandon(mark);
        false
    }

    fn plain_fact_tokens(&mut self, facts: &mut FactsBuilder, mark: usize) -> Option<()> {
        let first = self.tok();
        let negative = self.eat(K::Minus).is_some();
        let name = self.eat(K::Ident)?;
        if negative && name.start != first.end {
            return None; // `- p`: the atom's term does not start at `p`
        }
        let name_index = facts.name(self.text(name));
        facts.node(FactTerm::Function {
            name: name_index,
            arity: 0,
            negative,
        });
        if self.eat(K::LParen).is_some() {
            self.plain_arguments(facts, mark, 1)?;
        }
        let atom_end = self.prev_end();
        let dot = self.eat(K::Dot)?;
        if dot.start != atom_end {
            return None;
        }
        facts.finish(mark, first.start, dot.end);
        Some(())
    }

    /// The arguments after `(` up to and including `)` of the function
    /// node at `function`: at least one, each a plain term.
    fn plain_arguments(
        &mut self,
        facts: &mut FactsBuilder,
        function: usize,
        depth: usize,
    ) -> Option<()> {
        let mut arity: u16 = 0;
        loop {
            self.plain_term(facts, depth)?;
            arity = arity.checked_add(1)?;
            if self.eat(K::Comma).is_none() {
                break;
            }
        }
        self.eat(K::RParen)?;
        facts.set_arity(function, arity);
        Some(())
    }

    /// A number (`-` before it folded in, as [`Self::unary`] does), a
    /// constant, a string or a function of those.
    fn plain_term(&mut self, facts: &mut FactsBuilder, depth: usize) -> Option<()> {
        let token = self.bump();
        let node = match token.kind {
            K::Int => FactTerm::Integer(self.integer_value(token, false)),
            K::Minus if self.at(K::Int) => {
                let digits = self.bump();
                FactTerm::Integer(self.integer_value(digits, true))
            }
            K::Str => FactTerm::String(facts.name(&unescape(self.text(token)))),
            K::Ident if self.at(K::LParen) => {
                if depth >= MAX_PLAIN_DEPTH || self.peek_at(self.pos + 1) == K::RParen {
                    return None;
                }
                self.bump();
                let function = facts.mark();
                let name = facts.name(self.text(token));
                facts.node(FactTerm::Function {
                    name,
                    arity: 0,
                    negative: false,
                });
                self.plain_arguments(facts, function, depth + 1)?;
                return Some(());
            }
            K::Ident => FactTerm::Constant(facts.name(self.text(token))),
            _ => return None,
        };
        facts.node(node);
        Some(())
    }

    // --- statements -------------------------------------------------------

    fn statement(&mut self) -> PResult<Statement> {
        self.depth = 0;
        let start = self.tok().start;
        let kind = match self.peek() {
            K::If => {
                self.bump();
                let body = self.body()?;
                StatementKind::Rule {
                    head: Head::Constraint,
                    body,
                }
            }
            K::Wif => return self.weak_constraint(start),
            K::Script => {
                self.bump();
                StatementKind::Unsupported {
                    what: "scripts".to_owned(),
                }
            }
            K::Directive => return self.directive(start),
            K::Amp => return self.skip_statement(start, "theory atoms"),
            _ => return self.rule(start),
        };
        self.finish(start, kind)
    }

    /// Expects the final `.` and builds the statement.
    fn finish(&mut self, start: usize, kind: StatementKind) -> PResult<Statement> {
        let dot = self.expect(K::Dot, ".")?;
        Ok(Statement {
            kind,
            span: self.span(start, dot.end),
        })
    }

    /// An unsupported statement: skips to its `.` and an optional `[..]`.
    fn skip_statement(&mut self, start: usize, what: &str) -> PResult<Statement> {
        loop {
            match self.peek() {
                K::Dot => break,
                K::Eof | K::Error => return Err(self.unexpected()),
                _ => {
                    self.bump();
                }
            }
        }
        let mut end = self.bump().end;
        match self.modifier_close() {
            Ok(Some(close)) => {
                self.pos = close;
                end = self.bump().end;
            }
            Ok(None) => {}
            Err(at) => {
                self.pos = at;
                return Err(self.expected("]"));
            }
        }
        Ok(Statement {
            kind: StatementKind::Unsupported {
                what: what.to_owned(),
            },
            span: self.span(start, end),
        })
    }

    fn rule(&mut self, start: usize) -> PResult<Statement> {
        let (head, from_head) = self.head()?;
        let mut body = if self.eat(K::If).is_some() {
            self.body()?
        } else if self.at(K::Dot) {
            Vec::new()
        } else {
            return Err(self.unexpected());
        };
        body.extend(from_head);
        self.finish(start, StatementKind::Rule { head, body })
    }

    fn directive(&mut self, start: usize) -> PResult<Statement> {
        let name = self.text(self.tok());
        let unsupported = match name {
            "#show" | "#showsig" => {
                self.bump();
                let kind = if self.at(K::Dot) {
                    StatementKind::ShowNothing
                } else if self.signature_ahead() {
                    StatementKind::ShowSignature(self.signature()?)
                } else {
                    let term = self.term()?;
                    let body = if self.eat(K::Colon).is_some() {
                        // clingo refuses an empty condition here (`#show a : .`).
                        if self.at(K::Dot) {
                            return Err(self.unexpected());
                        }
                        self.body()?
                    } else {
                        Vec::new()
                    };
                    StatementKind::ShowTerm { term, body }
                };
                return self.finish(start, kind);
            }
            "#hide" => {
                self.bump();
                let kind = if self.at(K::Dot) {
                    StatementKind::Hide(None)
                } else if self.signature_ahead() {
                    StatementKind::Hide(Some(self.signature()?))
                } else {
                    return self.skip_statement(start, "#hide of terms");
                };
                return self.finish(start, kind);
            }
            "#const" => return self.constant(start),
            "#include" => {
                self.bump();
                let token = self.tok();
                let (path, library) = match token.kind {
                    K::Str => (unescape(self.text(token)), false),
                    K::AngleStr => {
                        let text = self.text(token);
                        (text[1..text.len() - 1].to_owned(), true)
                    }
                    _ => return Err(self.expected("<STRING>")),
                };
                self.bump();
                return self.finish(start, StatementKind::Include { path, library });
            }
            "#program" => {
                self.bump();
                let name = self.expect(K::Ident, "<IDENTIFIER>")?;
                let mut params = Vec::new();
                if self.eat(K::LParen).is_some() && self.eat(K::RParen).is_none() {
                    loop {
                        let param = self.expect(K::Ident, "<IDENTIFIER>")?;
                        params.push(self.text(param).to_owned());
                        if self.eat(K::RParen).is_some() {
                            break;
                        }
                        self.expect(K::Comma, ", or )")?;
                    }
                }
                let name = self.text(name).to_owned();
                return self.finish(start, StatementKind::Program { name, params });
            }
            "#base" | "#cumulative" | "#volatile" => {
                self.bump();
                let mut params = Vec::new();
                if name != "#base" {
                    let param = self.expect(K::Ident, "<IDENTIFIER>")?;
                    params.push(self.text(param).to_owned());
                }
                let name = name[1..].to_owned();
                return self.finish(start, StatementKind::Program { name, params });
            }
            "#minimize" | "#minimise" => return self.optimize(start, false),
            "#maximize" | "#maximise" => return self.optimize(start, true),
            "#heuristic" => {
                self.bump();
                let (atom, body) = self.conditional_atom()?;
                self.expect(K::Dot, ".")?;
                // `[w@p, m]`
                self.expect(K::LBrack, "[")?;
                let weight = self.term()?;
                let priority = match self.eat(K::At) {
                    Some(_) => Some(self.term()?),
                    None => None,
                };
                self.expect(K::Comma, ",")?;
                let modifier = self.term()?;
                let end = self.expect(K::RBrack, "]")?.end;
                return Ok(Statement {
                    kind: StatementKind::Heuristic {
                        atom,
                        body,
                        weight,
                        priority,
                        modifier,
                    },
                    span: self.span(start, end),
                });
            }
            "#external" => {
                self.bump();
                let (atom, body) = self.conditional_atom()?;
                let dot = self.expect(K::Dot, ".")?;
                let mut end = dot.end;
                let value = if self.eat(K::LBrack).is_some() {
                    let value = self.term()?;
                    end = self.expect(K::RBrack, "]")?.end;
                    Some(value)
                } else {
                    None
                };
                return Ok(Statement {
                    kind: StatementKind::External { atom, body, value },
                    span: self.span(start, end),
                });
            }
            "#project" => {
                self.bump();
                let target = if self.signature_ahead() {
                    ProjectTarget::Signature(self.signature()?)
                } else {
                    let (atom, body) = self.conditional_atom()?;
                    ProjectTarget::Atom { atom, body }
                };
                return self.finish(start, StatementKind::Project(target));
            }
            "#edge" => {
                self.bump();
                let pair = self.term()?;
                let body = self.directive_condition()?;
                return self.finish(start, StatementKind::Edge { pair, body });
            }
            "#theory" => "#theory definitions",
            "#defined" => {
                self.bump();
                let signature = self.signature()?;
                return self.finish(start, StatementKind::Defined(signature));
            }
            "#domain" => "#domain declarations",
            "#compute" => "#compute statements",
            "#weight" => "#weight declarations",
            "#maxint" => "#maxint",
            _ => return self.rule(start),
        };
        self.bump();
        self.skip_statement(start, unsupported)
    }

    /// `a : body` in `#external` and `#project` (see
    /// [`Self::directive_condition`]).
    fn conditional_atom(&mut self) -> PResult<(Atom, Vec<BodyElement>)> {
        let first = self.pos;
        let term = self.term()?;
        let atom = self.to_atom(first, term).ok_or_else(|| self.unexpected())?;
        Ok((atom, self.directive_condition()?))
    }

    /// The optional `: body` of `#external`, `#project` and `#edge`; the
    /// body may be empty (`#external a:.`).
    fn directive_condition(&mut self) -> PResult<Vec<BodyElement>> {
        if self.eat(K::Colon).is_some() && !self.at(K::Dot) {
            self.body()
        } else {
            Ok(Vec::new())
        }
    }

    /// `#minimize{ w@p, t.. : c; .. }.` (or `#maximize`), lparse's
    /// `#minimize[ l = w, .. ].` and its set of literals `#minimize{ l, ..
    /// }.`, each literal of weight 1.
    fn optimize(&mut self, start: usize, maximize: bool) -> PResult<Statement> {
        self.bump();
        let elements = match self.peek() {
            K::LBrack => self.literal_elements(true)?,
            K::LBrace if self.literal_set_ahead() => self.literal_elements(false)?,
            K::LBrace => {
                let elements = self.optimize_elements()?;
                return self.finish(start, StatementKind::Optimize { maximize, elements });
            }
            _ => return Err(self.expected("{")),
        };
        let elements = elements.into_iter().map(weighted_literal).collect();
        self.finish(start, StatementKind::Optimize { maximize, elements })
    }

    /// Whether the braces ahead hold lparse's literals `{ a, not b, -c }`
    /// rather than clingo's cost tuples: no `:` or `@`, and every element
    /// starts like an atom (clingo would ignore such tuples, whose weights
    /// are not integers).
    fn literal_set_ahead(&self) -> bool {
        let mut depth = 0usize;
        let mut element_start = true;
        for index in self.pos + 1.. {
            let kind = self.peek_at(index);
            match kind {
                K::LParen | K::LBrace | K::LBrack => depth += 1,
                K::RParen | K::RBrack => depth = depth.saturating_sub(1),
                K::RBrace if depth == 0 => return true,
                K::RBrace => depth -= 1,
                K::Colon | K::At if depth == 0 => return false,
                K::Dot | K::Eof | K::Error => return false,
                _ => {}
            }
            if element_start {
                let starts_atom = match kind {
                    K::Ident | K::Not => true,
                    K::Minus => self.peek_at(index + 1) == K::Ident,
                    _ => false,
                };
                if !starts_atom {
                    return false;
                }
            }
            element_start = depth == 0 && matches!(kind, K::Comma | K::Semi)
                || (element_start && kind == K::Not);
        }
        false
    }

    /// `{ w@p, t1, .., tk : l1, .., lm; .. }` of `#minimize`.
    fn optimize_elements(&mut self) -> PResult<Vec<OptimizeElement>> {
        self.braced_elements(|parser, start| {
            let (weight, priority, terms) = parser.cost_tuple()?;
            let (conditions, end) = parser.optional_condition(parser.prev_end() as u32)?;
            let span = parser.span(start, end);
            let element = |condition: Vec<Literal>| OptimizeElement {
                weight: weight.clone(),
                priority: priority.clone(),
                terms: terms.clone(),
                condition: condition.into_iter().map(BodyElement::Literal).collect(),
                per_instance: false,
                span,
            };
            Ok(conditions.into_iter().map(element).collect())
        })
    }

    /// `w@p, t1, .., tk` (`@p` and the terms optional).
    fn cost_tuple(&mut self) -> PResult<(Term, Option<Term>, Vec<Term>)> {
        let weight = self.term()?;
        let priority = match self.eat(K::At) {
            Some(_) => Some(self.term()?),
            None => None,
        };
        let mut terms = Vec::new();
        while self.eat(K::Comma).is_some() {
            terms.push(self.term()?);
        }
        Ok((weight, priority, terms))
    }

    /// `:~ body. [w@p, t..]`, or DLV's `[w:l]`, `[w:]` and `[:l]` (weight
    /// and level 1 when omitted).
    fn weak_constraint(&mut self, start: usize) -> PResult<Statement> {
        self.bump(); // :~
        let body = if self.at(K::Dot) {
            Vec::new()
        } else {
            self.body()?
        };
        self.expect(K::Dot, ".")?;
        self.expect(K::LBrack, "[")?;
        let at = self.tok().start;
        let (weight, priority, terms, per_instance) = if self.eat(K::Colon).is_some() {
            (self.one(at), Some(self.term()?), Vec::new(), true)
        } else {
            let (weight, priority, terms) = self.cost_tuple()?;
            if priority.is_none() && terms.is_empty() && self.eat(K::Colon).is_some() {
                let level = if self.at(K::RBrack) {
                    self.one(self.tok().start)
                } else {
                    self.term()?
                };
                (weight, Some(level), terms, true)
            } else {
                (weight, priority, terms, false)
            }
        };
        let close = self.expect(K::RBrack, "]")?;
        let span = self.span(start, close.end);
        Ok(Statement {
            kind: StatementKind::Optimize {
                maximize: false,
                elements: vec![OptimizeElement {
                    weight,
                    priority,
                    terms,
                    condition: body,
                    per_instance,
                    span,
                }],
            },
            span,
        })
    }

    /// The integer 1 that an omitted weight or level stands for, at `at`.
    fn one(&self, at: usize) -> Term {
        Term {
            kind: TermKind::Integer(1),
            span: self.span(at, at),
        }
    }

    fn constant(&mut self, start: usize) -> PResult<Statement> {
        self.bump();
        let name = self.expect(K::Ident, "<IDENTIFIER>")?;
        self.expect(K::Eq, "=")?;
        let value = self.term()?;
        let mut end = self.expect(K::Dot, ".")?.end;
        let mut overriding = false;
        // clingo's `#const n = 3. [default]` / `[override]`
        if self.at(K::LBrack)
            && self.peek_at(self.pos + 1) == K::Ident
            && matches!(self.text(self.token(self.pos + 1)), "default" | "override")
            && self.peek_at(self.pos + 2) == K::RBrack
        {
            overriding = self.text(self.token(self.pos + 1)) == "override";
            self.pos += 2;
            end = self.bump().end;
        }
        Ok(Statement {
            kind: StatementKind::Const {
                name: self.text(name).to_owned(),
                value,
                overriding,
            },
            span: self.span(start, end),
        })
    }

    /// `[-] name / arity .` follows.
    fn signature_ahead(&self) -> bool {
        let mut i = self.pos;
        if self.peek_at(i) == K::Minus {
            i += 1;
        }
        self.peek_at(i) == K::Ident
            && self.peek_at(i + 1) == K::Slash
            && self.peek_at(i + 2) == K::Int
            && self.peek_at(i + 3) == K::Dot
    }

    fn signature(&mut self) -> PResult<Signature> {
        let strong_negation = self.eat(K::Minus).is_some();
        let name = self.expect(K::Ident, "<IDENTIFIER>")?;
        self.expect(K::Slash, "/")?;
        let arity_token = self.expect(K::Int, "<NUMBER>")?;
        let arity = usize::try_from(literal_value(self.text(arity_token))).map_err(|_| {
            Fail(Some(Diagnostic::error(
                self.span(arity_token.start, arity_token.end),
                "integer out of range",
            )))
        })?;
        Ok(Signature {
            strong_negation,
            name: self.text(name).to_owned(),
            arity,
        })
    }

    // --- heads ------------------------------------------------------------

    /// A rule's head, and the body elements that its comparisons stand for
    /// (see [`Self::head_comparison`]).
    fn head(&mut self) -> PResult<(Head, Vec<BodyElement>)> {
        let start = self.tok().start;
        let alone = |head: PResult<Head>| head.map(|head| (head, Vec::new()));
        if self.at(K::LBrace) {
            return alone(self.choice(start, Vec::new()));
        }
        if self.is_directive(&["#true", "#false"]) {
            let atom = self.boolean_atom();
            let unconditional = matches!(self.peek(), K::If | K::Dot);
            if unconditional
                && matches!(&atom.term.kind, TermKind::Constant(name) if name == "#false")
            {
                return alone(Ok(Head::Constraint));
            }
            return self.disjunction_from(start, Some(Disjunct::Atom(Naf::Positive, atom)));
        }
        if self.at(K::Not) {
            return self.disjunction_from(start, None);
        }
        if self.aggregate_at(self.pos) {
            return alone(self.head_aggregate(start, Vec::new()));
        }
        let first = self.pos;
        let term = self.term()?;
        if self.aggregate_at(self.pos) {
            // lparse's `1 { .. }` and `1 [ .. ]`: a lower bound.
            let guard = Guard {
                op: CmpOp::Ge,
                term,
            };
            return alone(if self.at(K::LBrace) {
                self.choice(start, vec![guard])
            } else {
                self.head_aggregate(start, vec![guard])
            });
        }
        if let Some(op) = comparison(self.peek())
            && self.aggregate_at(self.pos + 1)
        {
            self.bump();
            let guard = Guard {
                op: op.flip(),
                term,
            };
            return alone(if self.at(K::LBrace) {
                self.choice(start, vec![guard])
            } else {
                self.head_aggregate(start, vec![guard])
            });
        }
        let first = Disjunct::Term(Naf::Positive, first, term);
        self.disjunction_from(start, Some(first))
    }

    /// A disjunction of atoms, possibly negated or conditional, and
    /// comparisons, whose first disjunct is `first` if it is read already;
    /// also returns the body elements that its comparisons stand for.
    fn disjunction_from(
        &mut self,
        mut start: usize,
        first: Option<Disjunct>,
    ) -> PResult<(Head, Vec<BodyElement>)> {
        let mut comparisons = Vec::new();
        let mut literals = Vec::new();
        let mut body = Vec::new();
        let mut next = first;
        loop {
            let disjunct = match next.take() {
                Some(disjunct) => disjunct,
                None => self.disjunct()?,
            };
            let (naf, atom) = match disjunct {
                Disjunct::Atom(naf, atom) => (naf, atom),
                Disjunct::Term(naf, _, lhs) if comparison(self.peek()).is_some() => {
                    let chain = self.chain(naf, start, lhs)?;
                    let (conditions, end) = self.optional_condition(chain.span.end)?;
                    let conditional = conditions.iter().any(|c| !c.is_empty());
                    let span = self.span(start, end);
                    comparisons.extend(self.head_comparison(chain, conditions, span, &mut body)?);
                    if !self.disjunction_separator(conditional) {
                        break;
                    }
                    self.bump();
                    start = self.tok().start;
                    continue;
                }
                Disjunct::Term(naf, first, term) => (
                    naf,
                    self.to_atom(first, term).ok_or_else(|| self.unexpected())?,
                ),
            };
            let (conditions, end) = self.optional_condition(atom.span.end)?;
            let conditional = conditions.iter().any(|c| !c.is_empty());
            let span = self.span(start, end);
            literals.extend(conditions.into_iter().map(|condition| HeadLiteral {
                naf,
                atom: atom.clone(),
                condition,
                span,
            }));
            if !self.disjunction_separator(conditional) {
                break;
            }
            self.bump();
            start = self.tok().start;
        }
        let head = match (comparisons.is_empty(), literals.is_empty()) {
            (true, true) => Head::Constraint,
            (true, false) => Head::Disjunction(literals),
            (false, _) => Head::Comparison {
                comparisons,
                disjuncts: literals,
            },
        };
        Ok((head, body))
    }

    /// A disjunct up to what follows its first term: `#true` or `#false`,
    /// or a term that starts an atom or a comparison, under its `not`s.
    fn disjunct(&mut self) -> PResult<Disjunct> {
        let naf = self.naf();
        if self.is_directive(&["#true", "#false"]) {
            return Ok(Disjunct::Atom(naf, self.boolean_atom()));
        }
        let first = self.pos;
        Ok(Disjunct::Term(naf, first, self.term()?))
    }

    /// A comparison disjunct of a head, with its condition's alternatives
    /// (`[[]]` for none). A plain one, `X = Y` (one relation, no `not`, no
    /// condition), is returned to stay in the head. Any other holds, or
    /// leaves the rule satisfied, through the body, as in clingo: the rest of
    /// the head must hold when the comparison fails, so its negation joins
    /// `body` (`C : c` as the conditional literal `not C : c`). A condition
    /// over variables is refused (at `span`, the whole disjunct): clingo keeps
    /// one of its instances, the one it happens to ground first, so that its
    /// answer depends on the order of the facts.
    fn head_comparison(
        &mut self,
        chain: Chain,
        conditions: Alternatives,
        span: Span,
        body: &mut Vec<BodyElement>,
    ) -> PResult<Option<HeadComparison>> {
        let conditional = conditions.iter().any(|c| !c.is_empty());
        if !conditional && chain.holds() && chain.links.len() == 1 {
            let Chain {
                first,
                mut links,
                span,
                ..
            } = chain;
            let (op, rhs) = links.pop().expect("one relation");
            return Ok(Some(HeadComparison {
                lhs: first,
                op,
                rhs,
                span,
            }));
        }
        let failing = chain.negated().read();
        if !conditional {
            self.body_elements(failing, body);
            return Ok(None);
        }
        if conditions.iter().flatten().any(literal_has_variable) {
            return Err(Fail(Some(Diagnostic::error(
                span,
                "a comparison in a disjunction under a condition over variables is not \
                 supported: clingo's answer depends on the order of the condition's instances",
            ))));
        }
        self.conditionals(failing, conditions, span, body)?;
        Ok(None)
    }

    /// The body elements `read` stands for into `body` ([`Read::into_body`]).
    /// A negated chain's first and last terms with pools or intervals are
    /// bound too, so that an empty one leaves every disjunct false, as in
    /// clingo.
    fn body_elements(&mut self, mut read: Read, body: &mut Vec<BodyElement>) {
        if let Read::Chain(chain) = &mut read
            && !chain.holds()
        {
            self.bind_ends(chain);
        }
        read.into_body(body)
    }

    /// `read : c` for each alternative `c` of `conditions` into `body`
    /// ([`Read::conditionals`]). A negated chain goes into the condition
    /// of `#false : c, comparisons`, where the grounder would expand a pool
    /// of its first or last term per instance of `c`: those are bound too,
    /// so that they expand into copies of the rule, as in clingo.
    fn conditionals(
        &mut self,
        mut read: Read,
        conditions: Alternatives,
        span: Span,
        body: &mut Vec<BodyElement>,
    ) -> PResult<()> {
        if let Read::Chain(chain) = &mut read
            && !chain.holds()
        {
            self.bind_ends(chain);
        }
        read.conditionals(conditions, span, body)
    }

    /// Whether the next token separates disjuncts: `|`, `;`, DLV's `v`, or
    /// `,` after an unconditional disjunct.
    fn disjunction_separator(&self, conditional: bool) -> bool {
        match self.peek() {
            K::Bar | K::Semi => true,
            K::Ident => self.text(self.tok()) == "v",
            K::Comma => !conditional,
            _ => false,
        }
    }

    /// `#true` or `#false` at the current token, as an atom of a
    /// disjunctive head, named so (`#true : c` holds when `c` does).
    fn boolean_atom(&mut self) -> Atom {
        let token = self.bump();
        let span = self.span(token.start, token.end);
        Atom {
            strong_negation: false,
            term: Term {
                kind: TermKind::Constant(self.text(token).to_owned()),
                span,
            },
            span,
        }
    }

    /// A head aggregate after its left guard: `#count{ t : a : c; .. }` or
    /// lparse's weighted atoms `[ a = 2, .. ]` (also after `#sum`, `#min`,
    /// `#max`), with its right guard.
    fn head_aggregate(&mut self, start: usize, mut guards: Vec<Guard>) -> PResult<Head> {
        let function = match self.aggregate_function()? {
            Ok(function) => function,
            Err(what) => {
                return Err(Fail(Some(Diagnostic::error(
                    self.span(start, self.prev_end()),
                    format!("{what} are not supported by asp2sat yet"),
                ))));
            }
        };
        let elements = match (function, self.peek()) {
            (Some(_), K::LBrace) => self.head_tuple_elements()?,
            (_, K::LBrack) => {
                let mut elements = Vec::new();
                for element in self.literal_elements(true)? {
                    // A head chooses atoms: `not a` has no place in it.
                    let Some(Literal::Atom {
                        naf: Naf::Positive,
                        atom,
                    }) = element.condition.first().cloned()
                    else {
                        return Err(Fail(Some(Diagnostic::error(
                            element.span,
                            "syntax error, a head's weighted literal must be an atom",
                        ))));
                    };
                    elements.push(HeadAggregateElement {
                        terms: element.terms,
                        naf: Naf::Positive,
                        atom,
                        condition: element.condition[1..].to_vec(),
                        tuple_end: TupleEnd::Literal,
                        span: element.span,
                    });
                }
                elements
            }
            _ => return Err(self.expected("{")),
        };
        guards.extend(self.right_guard()?);
        Ok(Head::Aggregate {
            function: function.unwrap_or(AggregateFunction::Sum),
            elements,
            guards,
            span: self.span(start, self.prev_end()),
        })
    }

    /// `{ t1, .., tk : l : c; .. }` of a head aggregate, where `l` is an
    /// atom, possibly negated, or a comparison ([`comparison_element`]).
    fn head_tuple_elements(&mut self) -> PResult<Vec<HeadAggregateElement>> {
        self.braced_elements(|parser, start| {
            let terms = parser.element_terms()?;
            parser.expect(K::Colon, ":")?;
            let literal_start = parser.tok().start;
            let naf = parser.naf();
            let first = parser.pos;
            let term = parser.term()?;
            if comparison(parser.peek()).is_some() {
                let chain = parser.chain(naf, literal_start, term)?;
                let (conditions, end) = parser.optional_condition(chain.span.end)?;
                let span = parser.span(start, end);
                let conditions = product(chain.read().alternatives(), &conditions);
                return Ok((conditions.into_iter())
                    .map(|condition| {
                        comparison_element(terms.clone(), TupleEnd::Nothing, condition, span)
                    })
                    .collect());
            }
            let atom = parser
                .to_atom(first, term)
                .ok_or_else(|| parser.unexpected())?;
            let (conditions, end) = parser.optional_condition(atom.span.end)?;
            let span = parser.span(start, end);
            let element = |condition| HeadAggregateElement {
                terms: terms.clone(),
                naf,
                atom: atom.clone(),
                condition,
                tuple_end: TupleEnd::Nothing,
                span,
            };
            Ok(conditions.into_iter().map(element).collect())
        })
    }

    /// `{ e1; ..; en }`: each element parsed by `element` from its first
    /// token's offset (more than one when its condition has alternatives),
    /// `;` between them.
    fn braced_elements<T>(
        &mut self,
        mut element: impl FnMut(&mut Self, usize) -> PResult<Vec<T>>,
    ) -> PResult<Vec<T>> {
        self.bump(); // {
        let mut elements = Vec::new();
        loop {
            if self.eat(K::RBrace).is_some() {
                return Ok(elements);
            }
            let start = self.tok().start;
            elements.extend(element(self, start)?);
            self.element_separator()?;
        }
    }

    /// The guard after an aggregate's closing bracket, if any: `op t`, or
    /// lparse's bare upper bound `t`.
    fn right_guard(&mut self) -> PResult<Option<Guard>> {
        let op = match comparison(self.peek()) {
            Some(op) => {
                self.bump();
                op
            }
            None if self.term_starts() => CmpOp::Le,
            None => return Ok(None),
        };
        Ok(Some(Guard {
            op,
            term: self.term()?,
        }))
    }

    /// An aggregate element's tuple `t1, .., tk`, empty before `:`, `;`
    /// or `}`.
    fn element_terms(&mut self) -> PResult<Vec<Term>> {
        let mut terms = Vec::new();
        if matches!(self.peek(), K::Colon | K::Semi | K::RBrace) {
            return Ok(terms);
        }
        loop {
            terms.push(self.term()?);
            if self.eat(K::Comma).is_none() {
                return Ok(terms);
            }
        }
    }

    /// After an element of braces: `;` before the next one, or the `}`,
    /// which the caller takes.
    fn element_separator(&mut self) -> PResult<()> {
        match self.peek() {
            K::Semi => {
                self.bump();
                Ok(())
            }
            K::RBrace => Ok(()),
            _ => Err(self.expected("} or ;")),
        }
    }

    /// The aggregate function directive at the current token, if any:
    /// `Ok(None)` when there is none, `Err` naming an unsupported one.
    fn aggregate_function(&mut self) -> PResult<Result<Option<AggregateFunction>, String>> {
        if !self.at(K::Directive) {
            return Ok(Ok(None));
        }
        let token = self.bump();
        Ok(Ok(Some(match self.text(token) {
            "#count" => AggregateFunction::Count,
            "#sum" if self.at(K::Plus) && self.tok().start == token.end => {
                self.bump();
                AggregateFunction::SumPlus
            }
            "#sum" => AggregateFunction::Sum,
            "#min" => AggregateFunction::Min,
            "#max" => AggregateFunction::Max,
            other => return Ok(Err(format!("`{other}` aggregates"))),
        })))
    }

    /// `{ elements }` and an optional right guard; `start` is the head's
    /// first token (a left guard may precede the brace).
    ///
    /// A choice with a comparison among its elements (`{ a; X < 3 : p(X) }
    /// >= 1`) is the head aggregate counting them all, each comparison as a
    /// [`comparison_element`] with its own tuple ([`comparison_tuple`]).
    fn choice(&mut self, start: usize, mut guards: Vec<Guard>) -> PResult<Head> {
        self.bump(); // {
        let mut elements = Vec::new();
        let mut comparisons = Vec::new();
        if self.eat(K::RBrace).is_none() {
            for index in 0.. {
                let element_start = self.tok().start;
                let naf = self.naf();
                let first = self.pos;
                let term = self.term()?;
                let conditional;
                if comparison(self.peek()).is_some() {
                    let mut chain = self.chain(naf, element_start, term)?;
                    self.bind_ends(&mut chain);
                    let (conditions, end) = self.optional_condition(chain.span.end)?;
                    conditional = conditions.iter().any(|c| !c.is_empty());
                    let span = self.span(element_start, end);
                    let tuple = comparison_tuple(index, chain.terms(), chain.span);
                    let conditions = product(chain.read().alternatives(), &conditions);
                    comparisons.extend((conditions.into_iter()).map(|condition| {
                        comparison_element(tuple.clone(), TupleEnd::PoolCopy, condition, span)
                    }));
                } else {
                    let atom = self.to_atom(first, term).ok_or_else(|| self.unexpected())?;
                    let (conditions, end) = self.optional_condition(atom.span.end)?;
                    conditional = conditions.iter().any(|c| !c.is_empty());
                    let span = self.span(element_start, end);
                    elements.extend(conditions.into_iter().map(|condition| ChoiceElement {
                        naf,
                        atom: atom.clone(),
                        condition,
                        span,
                    }));
                }
                match self.peek() {
                    K::Semi => {
                        self.bump();
                        if self.eat(K::RBrace).is_some() {
                            break;
                        }
                    }
                    K::Comma if !conditional => {
                        self.bump();
                    }
                    K::RBrace => {
                        self.bump();
                        break;
                    }
                    _ => return Err(self.expected("} or ;")),
                }
            }
        }
        let mut end = self.prev_end();
        if let Some(op) = comparison(self.peek()) {
            self.bump();
            let term = self.term()?;
            end = term.span.end as usize;
            guards.push(Guard { op, term });
        } else if self.term_starts() {
            let term = self.term()?;
            end = term.span.end as usize;
            guards.push(Guard {
                op: CmpOp::Le,
                term,
            });
        }
        let span = self.span(start, end);
        if comparisons.is_empty() {
            return Ok(Head::Choice {
                guards,
                elements,
                span,
            });
        }
        let elements = elements.into_iter().map(HeadAggregateElement::from);
        Ok(Head::Aggregate {
            function: AggregateFunction::Count,
            elements: elements.chain(comparisons).collect(),
            guards,
            span,
        })
    }

    /// `: l1, .., ln` if present, as its alternatives (`[[]]` when
    /// absent); also returns the end of what was read, `end` without a
    /// condition.
    fn optional_condition(&mut self, end: u32) -> PResult<(Alternatives, usize)> {
        if self.eat(K::Colon).is_none() {
            return Ok((vec![Vec::new()], end as usize));
        }
        let condition = self.condition()?;
        Ok((condition, self.prev_end()))
    }

    /// Condition literals separated by `,` (or gringo 3's chained `:`), as
    /// the alternatives they stand for.
    fn condition(&mut self) -> PResult<Alternatives> {
        let mut alternatives = vec![Vec::new()];
        // A `|` after the colon opens an absolute value (`: |X-2| < 1`), as
        // in clingo, never ends an empty condition.
        if matches!(self.peek(), K::Semi | K::Dot | K::RBrace | K::If | K::Eof) {
            return Ok(alternatives);
        }
        loop {
            alternatives = product(alternatives, &self.literal()?.alternatives());
            if !matches!(self.peek(), K::Comma | K::Colon) {
                return Ok(alternatives);
            }
            self.bump();
        }
    }

    /// Converts a parsed term to an atom if it is one: `p`, `p(..)`, a pool
    /// hoisted from `p(..;..)`, each possibly with a leading `-`.
    fn to_atom(&self, first: usize, term: Term) -> Option<Atom> {
        let strong_negation = match self.peek_at(first) {
            K::Ident => false,
            K::Minus if self.peek_at(first + 1) == K::Ident => true,
            _ => return None,
        };
        let span = term.span;
        let term = if strong_negation {
            match term.kind {
                TermKind::Unary(UnaryOp::Minus, inner) => *inner,
                _ => return None,
            }
        } else {
            term
        };
        let is_predicate =
            |t: &Term| matches!(t.kind, TermKind::Constant(_) | TermKind::Function { .. });
        let ok = match &term.kind {
            TermKind::Pool(alternatives) => alternatives.iter().all(is_predicate),
            _ => is_predicate(&term),
        };
        ok.then_some(Atom {
            strong_negation,
            term,
            span,
        })
    }

    // --- bodies -----------------------------------------------------------

    fn body(&mut self) -> PResult<Vec<BodyElement>> {
        let mut elements = Vec::new();
        if self.at(K::Dot) {
            return Ok(elements);
        }
        loop {
            self.body_element(&mut elements)?;
            match self.peek() {
                K::Comma | K::Semi => {
                    self.bump();
                }
                K::Dot => return Ok(elements),
                _ => return Err(self.unexpected()),
            }
        }
    }

    fn naf(&mut self) -> Naf {
        if self.eat(K::Not).is_none() {
            Naf::Positive
        } else if self.eat(K::Not).is_none() {
            Naf::Not
        } else {
            Naf::NotNot
        }
    }

    /// Whether an aggregate (`{`, `[` or `#count` and friends) starts at `index`.
    fn aggregate_at(&self, index: usize) -> bool {
        matches!(self.peek_at(index), K::LBrace | K::LBrack)
            || self
                .directive_at(index)
                .is_some_and(|d| AGGREGATE_FUNCTIONS.contains(&d))
    }

    fn term_starts(&self) -> bool {
        match self.peek() {
            K::Int
            | K::Ident
            | K::Var
            | K::Anon
            | K::Str
            | K::LParen
            | K::Minus
            | K::Tilde
            | K::Bar
            | K::At => true,
            K::Directive => self.is_directive(&["#sup", "#supremum", "#inf", "#infimum"]),
            _ => false,
        }
    }

    /// Reads one element of a body into `body`: a chain of comparisons
    /// adds one literal per comparison (see [`Read::into_body`]), and a
    /// conditional literal one per alternative of its condition.
    fn body_element(&mut self, body: &mut Vec<BodyElement>) -> PResult<()> {
        let start = self.tok().start;
        let naf = self.naf();
        if self.aggregate_at(self.pos) {
            body.push(self.body_aggregate(start, naf, None)?);
            return Ok(());
        }
        if self.at(K::Amp) {
            self.skip_theory_atom()?;
            body.push(BodyElement::Unsupported {
                what: "theory atoms".to_owned(),
                span: self.span(start, self.prev_end()),
            });
            return Ok(());
        }
        if self.is_directive(DLV_BUILTINS) {
            self.bump();
            if self.at(K::LParen) {
                self.skip_balanced(K::RParen, ")")?;
            }
            body.push(BodyElement::Unsupported {
                what: "DLV built-in predicates".to_owned(),
                span: self.span(start, self.prev_end()),
            });
            return Ok(());
        }
        let read = match self.boolean(naf, start) {
            Some(literal) => Read::Literal(literal),
            None => {
                let first = self.pos;
                let term = self.term()?;
                let guarded = comparison(self.peek()).is_some() && self.aggregate_at(self.pos + 1);
                if guarded || self.aggregate_at(self.pos) {
                    // `t op #agg{..}` is `#agg{..} op' t`; lparse's bare
                    // `1 {..}` is a lower bound.
                    let op = match comparison(self.peek()) {
                        Some(op) => {
                            self.bump();
                            op.flip()
                        }
                        None => CmpOp::Ge,
                    };
                    body.push(self.body_aggregate(start, naf, Some(Guard { op, term }))?);
                    return Ok(());
                }
                self.finish_literal(naf, start, first, term)?
            }
        };
        if self.eat(K::Colon).is_none() {
            self.body_elements(read, body);
            return Ok(());
        }
        let conditions = self.condition()?;
        let span = self.span(start, self.prev_end());
        self.conditionals(read, conditions, span, body)
    }

    /// A body aggregate at the current token, with its right guard:
    /// `#count{ t : l; .. }` (clingo, DLV), a literal set `{ l : c; .. }`
    /// (clingo, lparse), or a weighted literal list `[ l = w, .. ]` (lparse,
    /// gringo 3, also after `#sum`, `#min`, `#max`).
    fn body_aggregate(
        &mut self,
        start: usize,
        naf: Naf,
        left: Option<Guard>,
    ) -> PResult<BodyElement> {
        let function = match self.aggregate_function()? {
            Ok(function) => function,
            Err(what) => {
                self.skip_aggregate_rest()?;
                return Ok(BodyElement::Unsupported {
                    what,
                    span: self.span(start, self.prev_end()),
                });
            }
        };
        let (function, elements) = match (function, self.peek()) {
            (Some(function), K::LBrace) => (function, self.tuple_elements()?),
            (None, K::LBrace) => (AggregateFunction::Count, self.literal_elements(false)?),
            (function, K::LBrack) => (
                function.unwrap_or(AggregateFunction::Sum),
                self.literal_elements(true)?,
            ),
            _ => return Err(self.expected("{")),
        };
        let mut guards: Vec<Guard> = left.into_iter().collect();
        guards.extend(self.right_guard()?);
        Ok(BodyElement::Aggregate(Aggregate {
            naf,
            function,
            elements,
            guards,
            span: self.span(start, self.prev_end()),
        }))
    }

    /// Skips the braces and right guard of an aggregate asp2sat does not
    /// support (`#avg`, `#times`, ...).
    fn skip_aggregate_rest(&mut self) -> PResult<()> {
        match self.peek() {
            K::LBrace => self.skip_balanced(K::RBrace, "}")?,
            K::LBrack => self.skip_balanced(K::RBrack, "]")?,
            _ => return Err(self.expected("{")),
        }
        if comparison(self.peek()).is_some() {
            self.bump();
            self.term()?;
        } else if self.term_starts() {
            self.term()?;
        }
        Ok(())
    }

    /// `{ t1, .., tk : l1, .., lm; .. }`; an element may lack its terms
    /// (`{ : a }` is the empty tuple) or its condition.
    fn tuple_elements(&mut self) -> PResult<Vec<AggregateElement>> {
        self.braced_elements(|parser, start| {
            let terms = parser.element_terms()?;
            let (conditions, end) = parser.optional_condition(parser.prev_end() as u32)?;
            let span = parser.span(start, end);
            let element = |condition| AggregateElement {
                terms: terms.clone(),
                condition,
                tuple_end: TupleEnd::Nothing,
                span,
            };
            Ok(conditions.into_iter().map(element).collect())
        })
    }

    /// A literal set `{ l : c; .. }` (`;` or, without conditions, `,`
    /// between elements) or, `weighted`, lparse's `[ l = w, .. ]`, where an
    /// omitted weight is 1.
    fn literal_elements(&mut self, weighted: bool) -> PResult<Vec<AggregateElement>> {
        let close = if weighted { K::RBrack } else { K::RBrace };
        self.bump(); // { or [
        let mut elements = Vec::new();
        let mut index = 0;
        loop {
            if self.eat(close).is_some() {
                return Ok(elements);
            }
            let start = self.tok().start;
            let mut read = if weighted {
                // `a = 2` is an atom and its weight, not a comparison.
                let naf = self.naf();
                let first = self.pos;
                let term = self.term()?;
                let atom = self.to_atom(first, term).ok_or_else(|| self.unexpected())?;
                Read::Literal(Literal::Atom { naf, atom })
            } else {
                self.literal()?
            };
            // `#true` and `#false` do not parse.
            if matches!(read, Read::Literal(Literal::Boolean { .. })) {
                return Err(self.unexpected());
            }
            // An atom or a comparison starts the element's condition, and
            // the grounder ends the tuple with it (a comparison counts once
            // per distinct ground comparison); a chain has its own tuple.
            let (mut terms, tuple_end) = match &mut read {
                Read::Chain(chain) => {
                    self.bind_ends(chain);
                    let tuple = comparison_tuple(index, chain.terms(), chain.span);
                    (tuple, TupleEnd::PoolCopy)
                }
                Read::Literal(_) => (Vec::new(), TupleEnd::Literal),
            };
            if weighted {
                let weight = match self.eat(K::Eq) {
                    Some(_) => self.term()?,
                    None => Term {
                        kind: TermKind::Integer(1),
                        span: self.span(start, start),
                    },
                };
                terms.push(weight);
            }
            let (conditions, end) = self.optional_condition(self.prev_end() as u32)?;
            let conditional = conditions.iter().any(|c| !c.is_empty());
            let span = self.span(start, end);
            let conditions = product(read.alternatives(), &conditions);
            elements.extend(conditions.into_iter().map(|condition| AggregateElement {
                terms: terms.clone(),
                condition,
                tuple_end,
                span,
            }));
            index += 1;
            match self.peek() {
                K::Semi => {
                    self.bump();
                }
                K::Comma if !conditional || weighted => {
                    self.bump();
                }
                k if k == close => {}
                _ => return Err(self.expected(if weighted { "] or ," } else { "} or ;" })),
            }
        }
    }

    /// Skips from an opening bracket to its matching `close`, within the
    /// statement.
    fn skip_balanced(&mut self, close: K, what: &str) -> PResult<()> {
        let mut depth = 0usize;
        loop {
            match self.peek() {
                K::LBrace | K::LBrack | K::LParen => depth += 1,
                K::RBrace | K::RBrack | K::RParen => {
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        if !self.at(close) {
                            return Err(self.expected(what));
                        }
                        self.bump();
                        return Ok(());
                    }
                }
                K::Dot | K::Eof | K::Error => return Err(self.expected(what)),
                _ => {}
            }
            self.bump();
        }
    }

    /// Skips a body theory atom `&name{..} op term` up to the next `,`, `;`
    /// or `.` outside brackets.
    fn skip_theory_atom(&mut self) -> PResult<()> {
        let mut depth = 0usize;
        loop {
            match self.peek() {
                K::LBrace | K::LBrack | K::LParen => depth += 1,
                K::RBrace | K::RBrack | K::RParen => depth = depth.saturating_sub(1),
                K::Comma | K::Semi if depth == 0 => return Ok(()),
                K::Dot if depth == 0 => return Ok(()),
                K::Dot | K::Eof | K::Error => return Err(self.unexpected()),
                _ => {}
            }
            self.bump();
        }
    }

    fn boolean(&mut self, naf: Naf, start: usize) -> Option<Literal> {
        let value = match self.directive_at(self.pos)? {
            "#true" => true,
            "#false" => false,
            _ => return None,
        };
        let token = self.bump();
        Some(Literal::Boolean {
            naf,
            value,
            span: self.span(start, token.end),
        })
    }

    /// A literal of a condition: no aggregates.
    fn literal(&mut self) -> PResult<Read> {
        let start = self.tok().start;
        let naf = self.naf();
        if let Some(literal) = self.boolean(naf, start) {
            return Ok(Read::Literal(literal));
        }
        let first = self.pos;
        let term = self.term()?;
        self.finish_literal(naf, start, first, term)
    }

    /// After a term: a comparison `term op rhs` (a chain when more
    /// relations follow) or the term as an atom.
    fn finish_literal(&mut self, naf: Naf, start: usize, first: usize, lhs: Term) -> PResult<Read> {
        if comparison(self.peek()).is_some() {
            return Ok(self.chain(naf, start, lhs)?.read());
        }
        match self.to_atom(first, lhs) {
            Some(atom) => Ok(Read::Literal(Literal::Atom { naf, atom })),
            None => Err(self.unexpected()),
        }
    }

    /// Replaces a term of a chain that stands for several values (a pool,
    /// an interval) by a made-up variable, and adds its binding `V = t` to
    /// `bindings`, as clingo expands pools and intervals before it splits
    /// the chain: a middle term is then one value in both its comparisons
    /// (see [`Self::chain`]), and the first and last terms one value in the
    /// chain's tuple ([`Self::bind_ends`]). An anonymous variable in the
    /// `middle` is one variable there, with no binding.
    fn bind(&mut self, term: &mut Term, middle: bool, bindings: &mut Vec<Literal>) {
        let anonymous = matches!(term.kind, TermKind::Anonymous);
        let several = |kind: &TermKind| matches!(kind, TermKind::Pool(_) | TermKind::Interval(..));
        if !(anonymous && middle || term.contains(several)) {
            return;
        }
        self.fresh += 1;
        let made_up = Term {
            kind: TermKind::Variable(format!("#chain{}", self.fresh)),
            span: term.span,
        };
        let term = std::mem::replace(term, made_up.clone());
        if !anonymous {
            let span = term.span;
            bindings.push(Literal::Comparison {
                naf: Naf::Positive,
                lhs: made_up,
                op: CmpOp::Eq,
                rhs: term,
                span,
            });
        }
    }

    /// Binds the first and last terms of a chain that stand for several
    /// values, for its tuple in a literal set or choice
    /// ([`comparison_tuple`]): the grounder expands the pools of a tuple
    /// apart from those of the element's condition.
    fn bind_ends(&mut self, chain: &mut Chain) {
        self.bind(&mut chain.first, false, &mut chain.bindings);
        let (_, last) = chain.links.last_mut().expect("a chain has relations");
        self.bind(last, false, &mut chain.bindings);
    }

    /// The relations and terms after a comparison's first term, from
    /// `start` (its `not`s included): `op1 t1 .. opn tn`. A middle term
    /// that stands for several values is one value in both its
    /// comparisons ([`Self::bind`]).
    fn chain(&mut self, naf: Naf, start: usize, first: Term) -> PResult<Chain> {
        let mut links = Vec::new();
        while let Some(op) = comparison(self.peek()) {
            self.bump();
            links.push((op, self.term()?));
        }
        let mut bindings = Vec::new();
        let middle = links.len() - 1;
        for (_, term) in &mut links[..middle] {
            self.bind(term, true, &mut bindings);
        }
        Ok(Chain {
            naf,
            first,
            links,
            bindings,
            span: self.span(start, self.prev_end()),
        })
    }

    // --- terms ------------------------------------------------------------

    /// A term with binary operators, parsed by operator precedence with
    /// explicit stacks (no recursion per operator). The tree it builds is
    /// at most [`MAX_OPERATOR_DEPTH`] deep: every later stage walks terms
    /// recursively.
    fn term(&mut self) -> PResult<Term> {
        let first = self.unary()?;
        let mut operands = vec![(term_depth(&first), first)];
        let mut operators: Vec<(Infix, u8)> = Vec::new();
        while let Some((op, precedence, right)) = infix(self.peek()) {
            self.bump();
            while let Some(&(top, top_precedence)) = operators.last() {
                if top_precedence > precedence || (top_precedence == precedence && !right) {
                    operators.pop();
                    self.reduce(&mut operands, top)?;
                } else {
                    break;
                }
            }
            operators.push((op, precedence));
            let operand = self.unary()?;
            operands.push((term_depth(&operand), operand));
        }
        while let Some((op, _)) = operators.pop() {
            self.reduce(&mut operands, op)?;
        }
        Ok(operands.pop().expect("an operand is always left").1)
    }

    fn reduce(&self, operands: &mut Vec<(usize, Term)>, op: Infix) -> PResult<()> {
        let (Some((rhs_depth, rhs)), Some((lhs_depth, lhs))) = (operands.pop(), operands.pop())
        else {
            unreachable!("operator stack and operand stack out of step");
        };
        let span = lhs.span.to(rhs.span);
        let depth = 1 + lhs_depth.max(rhs_depth);
        if depth > MAX_OPERATOR_DEPTH {
            return Err(Fail(Some(Diagnostic::error(
                span,
                format!(
                    "term nested too deeply (more than {MAX_OPERATOR_DEPTH} operators in a chain)"
                ),
            ))));
        }
        let kind = match op {
            Infix::Interval => TermKind::Interval(Box::new(lhs), Box::new(rhs)),
            Infix::Binary(op) => TermKind::Binary(op, Box::new(lhs), Box::new(rhs)),
        };
        operands.push((depth, Term { kind, span }));
        Ok(())
    }

    /// Prefix `-` and `~` (looped, not recursive) applied to a primary term;
    /// `-` directly before an integer literal is folded into it.
    fn unary(&mut self) -> PResult<Term> {
        let mut prefix: Vec<(UnaryOp, usize)> = Vec::new();
        loop {
            let op = match self.peek() {
                K::Minus => UnaryOp::Minus,
                K::Tilde => UnaryOp::BitNot,
                _ => break,
            };
            if self.depth + prefix.len() >= MAX_DEPTH {
                return Err(self.too_deep());
            }
            prefix.push((op, self.bump().start));
        }
        let mut term = match prefix.last() {
            Some(&(UnaryOp::Minus, start)) if self.at(K::Int) => {
                prefix.pop();
                let token = self.bump();
                self.integer(token, true, start)
            }
            _ => {
                self.depth += prefix.len();
                let primary = self.primary();
                self.depth -= prefix.len();
                primary?
            }
        };
        while let Some((op, start)) = prefix.pop() {
            let end = term.span.end as usize;
            term = self.term_at(TermKind::Unary(op, Box::new(term)), start, end);
        }
        Ok(term)
    }

    fn integer(&self, token: Token, negative: bool, start: usize) -> Term {
        let value = self.integer_value(token, negative);
        self.term_at(TermKind::Integer(value), start, token.end)
    }

    /// The value of an integer literal, negated when `negative` (in
    /// clingo's 32-bit arithmetic: `-2147483648` is itself).
    fn integer_value(&self, token: Token, negative: bool) -> i32 {
        let value = literal_value(self.text(token));
        if negative {
            value.wrapping_neg()
        } else {
            value
        }
    }

    fn primary(&mut self) -> PResult<Term> {
        let token = self.tok();
        let kind = match token.kind {
            K::Int => {
                self.bump();
                return Ok(self.integer(token, false, token.start));
            }
            K::Str => TermKind::String(unescape(self.text(token))),
            K::Var => TermKind::Variable(self.text(token).to_owned()),
            K::Anon => TermKind::Anonymous,
            K::Directive => match self.text(token) {
                "#sup" | "#supremum" => TermKind::Supremum,
                "#inf" | "#infimum" => TermKind::Infimum,
                _ => return Err(self.unexpected()),
            },
            K::Ident => {
                self.bump();
                if self.at(K::LParen) {
                    return self.function(token);
                }
                return Ok(self.term_at(
                    TermKind::Constant(self.text(token).to_owned()),
                    token.start,
                    token.end,
                ));
            }
            K::LParen => return self.parenthesised(),
            K::Bar => return self.absolute(),
            K::At if self.peek_at(self.pos + 1) == K::Ident => {
                let name = self.token(self.pos + 1);
                return Err(Fail(Some(Diagnostic::error(
                    self.span(token.start, name.end),
                    "external function calls (@f(..)) are not supported",
                ))));
            }
            _ => return Err(self.unexpected()),
        };
        self.bump();
        Ok(self.term_at(kind, token.start, token.end))
    }

    /// `name(args; args)`, hoisting a pool of argument lists to the function.
    fn function(&mut self, name_token: Token) -> PResult<Term> {
        self.enter()?;
        self.bump(); // (
        let (groups, end) = self.groups(false)?;
        self.leave();
        let name = self.text(name_token);
        let (start, end) = (name_token.start, end);
        let mut alternatives: Vec<Term> = groups
            .into_iter()
            .map(|group| {
                let kind = if group.terms.is_empty() {
                    TermKind::Constant(name.to_owned())
                } else {
                    TermKind::Function {
                        name: name.to_owned(),
                        args: group.terms,
                    }
                };
                self.term_at(kind, start, end)
            })
            .collect();
        Ok(if alternatives.len() == 1 {
            alternatives.pop().expect("one alternative")
        } else {
            self.term_at(TermKind::Pool(alternatives), start, end)
        })
    }

    /// `()`, `(t)`, `(t,)`, `(t1,t2)` and pools `(a;b)`.
    fn parenthesised(&mut self) -> PResult<Term> {
        let open = self.tok();
        self.enter()?;
        self.bump();
        if let Some(close) = self.eat(K::RParen) {
            self.leave();
            return Ok(self.term_at(TermKind::Tuple(Vec::new()), open.start, close.end));
        }
        let (groups, end) = self.groups(true)?;
        self.leave();
        let mut alternatives: Vec<Term> = groups
            .into_iter()
            .map(|mut group| {
                if group.terms.len() == 1 && !group.trailing_comma {
                    group.terms.pop().expect("one term")
                } else {
                    self.term_at(TermKind::Tuple(group.terms), group.start, group.end)
                }
            })
            .collect();
        let span = self.span(open.start, end);
        Ok(if alternatives.len() == 1 {
            let mut term = alternatives.pop().expect("one alternative");
            term.span = span;
            term
        } else {
            Term {
                kind: TermKind::Pool(alternatives),
                span,
            }
        })
    }

    /// The `;`-separated groups of `,`-separated terms up to and including
    /// `)`; returns the end of the `)`.
    fn groups(&mut self, tuple: bool) -> PResult<(Vec<Group>, usize)> {
        let mut groups = Vec::new();
        loop {
            let start = self.tok().start;
            let mut terms = Vec::new();
            let mut trailing_comma = false;
            if self.term_starts() {
                loop {
                    terms.push(self.term()?);
                    if self.eat(K::Comma).is_none() {
                        break;
                    }
                    if tuple && matches!(self.peek(), K::RParen | K::Semi) {
                        trailing_comma = true;
                        break;
                    }
                }
            }
            let end = if terms.is_empty() {
                start
            } else {
                self.prev_end()
            };
            groups.push(Group {
                terms,
                trailing_comma,
                start,
                end,
            });
            match self.peek() {
                K::Semi => {
                    self.bump();
                }
                K::RParen => return Ok((groups, self.bump().end)),
                _ => return Err(self.expected(") or ;")),
            }
        }
    }

    /// `|t|`, also `|t1;t2|` (a pool inside the absolute value).
    fn absolute(&mut self) -> PResult<Term> {
        let open = self.tok();
        self.enter()?;
        self.bump();
        let mut alternatives = vec![self.term()?];
        while self.eat(K::Semi).is_some() {
            alternatives.push(self.term()?);
        }
        let close = self.expect(K::Bar, "|")?;
        self.leave();
        let inner = if alternatives.len() == 1 {
            alternatives.pop().expect("one alternative")
        } else {
            let span = alternatives[0]
                .span
                .to(alternatives[alternatives.len() - 1].span);
            Term {
                kind: TermKind::Pool(alternatives),
                span,
            }
        };
        Ok(self.term_at(
            TermKind::Unary(UnaryOp::Abs, Box::new(inner)),
            open.start,
            close.end,
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnostics::SourceMap;
    use std::fmt::Write as _;

    // --- a compact, fully parenthesised rendering of the AST ---------------

    fn term(t: &Term) -> String {
        match &t.kind {
            TermKind::Integer(n) => n.to_string(),
            TermKind::Constant(c) => c.clone(),
            TermKind::String(s) => format!("{s:?}"),
            TermKind::Variable(v) => v.clone(),
            TermKind::Anonymous => "_".into(),
            TermKind::Supremum => "#sup".into(),
            TermKind::Infimum => "#inf".into(),
            TermKind::Function { name, args } => format!("{name}({})", terms(args, ",")),
            TermKind::Tuple(items) if items.len() == 1 => format!("({},)", term(&items[0])),
            TermKind::Tuple(items) => format!("({})", terms(items, ",")),
            TermKind::Pool(items) => format!("pool[{}]", terms(items, ";")),
            TermKind::Interval(a, b) => format!("({}..{})", term(a), term(b)),
            TermKind::Unary(op, a) => match op {
                UnaryOp::Minus => format!("neg({})", term(a)),
                UnaryOp::BitNot => format!("~({})", term(a)),
                UnaryOp::Abs => format!("|{}|", term(a)),
            },
            TermKind::Binary(op, a, b) => {
                let op = match op {
                    BinaryOp::Add => "+",
                    BinaryOp::Sub => "-",
                    BinaryOp::Mul => "*",
                    BinaryOp::Div => "/",
                    BinaryOp::Mod => "\\",
                    BinaryOp::Pow => "**",
                    BinaryOp::BitAnd => "&",
                    BinaryOp::BitOr => "?",
                    BinaryOp::BitXor => "^",
                };
                format!("({}{op}{})", term(a), term(b))
            }
        }
    }

    fn terms(ts: &[Term], sep: &str) -> String {
        ts.iter().map(term).collect::<Vec<_>>().join(sep)
    }

    fn atom(a: &Atom) -> String {
        format!(
            "{}{}",
            if a.strong_negation { "-" } else { "" },
            term(&a.term)
        )
    }

    fn naf(n: Naf) -> &'static str {
        match n {
            Naf::Positive => "",
            Naf::Not => "not ",
            Naf::NotNot => "not not ",
        }
    }

    fn literal(l: &Literal) -> String {
        match l {
            Literal::Atom { naf: n, atom: a } => format!("{}{}", naf(*n), atom(a)),
            Literal::Comparison {
                naf: n,
                lhs,
                op,
                rhs,
                ..
            } => format!("{}{}{}{}", naf(*n), term(lhs), op.as_str(), term(rhs)),
            Literal::Boolean { naf: n, value, .. } => format!("{}#{value}", naf(*n)),
        }
    }

    fn condition(c: &[Literal]) -> String {
        if c.is_empty() {
            String::new()
        } else {
            format!(":{}", c.iter().map(literal).collect::<Vec<_>>().join(","))
        }
    }

    fn body(b: &[BodyElement]) -> String {
        b.iter()
            .map(|e| match e {
                BodyElement::Literal(l) => literal(l),
                BodyElement::Conditional {
                    literal: l,
                    condition: c,
                    ..
                } => format!("[{}{}]", literal(l), condition(c)),
                BodyElement::Aggregate(a) => aggregate(a),
                BodyElement::Unsupported { what, .. } => format!("unsupported({what})"),
            })
            .collect::<Vec<_>>()
            .join(", ")
    }

    fn aggregate(a: &Aggregate) -> String {
        let function = match a.function {
            AggregateFunction::Count => "#count",
            AggregateFunction::Sum => "#sum",
            AggregateFunction::SumPlus => "#sum+",
            AggregateFunction::Min => "#min",
            AggregateFunction::Max => "#max",
        };
        let elements: Vec<String> = a
            .elements
            .iter()
            .map(|e| {
                let mut terms: Vec<String> = e.terms.iter().map(term).collect();
                if e.tuple_end == TupleEnd::Literal {
                    terms.push("#lit".to_string());
                }
                format!("{}{}", terms.join(","), condition(&e.condition))
            })
            .collect();
        let guards: String = a
            .guards
            .iter()
            .map(|g| format!("{}{}", g.op.as_str(), term(&g.term)))
            .collect();
        format!("{}{function}{{{}}}{guards}", naf(a.naf), elements.join(";"))
    }

    fn condition_body(b: &[BodyElement]) -> String {
        if b.is_empty() {
            String::new()
        } else {
            format!(" : {}", body(b))
        }
    }

    fn signature(s: &Signature) -> String {
        let neg = if s.strong_negation { "-" } else { "" };
        format!("{neg}{}/{}", s.name, s.arity)
    }

    fn statement(s: &Statement) -> String {
        match &s.kind {
            StatementKind::Facts(facts) => facts
                .statements(s.span.file)
                .map(|fact| statement(&fact))
                .collect::<Vec<_>>()
                .join("\n"),
            StatementKind::Rule { head, body: b } => {
                let head = match head {
                    Head::Constraint => String::new(),
                    Head::Comparison {
                        comparisons,
                        disjuncts,
                    } => disjuncts
                        .iter()
                        .map(|l| {
                            format!("{}{}{}", naf(l.naf), atom(&l.atom), condition(&l.condition))
                        })
                        .chain(
                            comparisons.iter().map(|c| {
                                format!("{}{}{}", term(&c.lhs), c.op.as_str(), term(&c.rhs))
                            }),
                        )
                        .collect::<Vec<_>>()
                        .join(" | "),
                    Head::Disjunction(lits) => lits
                        .iter()
                        .map(|l| {
                            format!("{}{}{}", naf(l.naf), atom(&l.atom), condition(&l.condition))
                        })
                        .collect::<Vec<_>>()
                        .join(" | "),
                    Head::Choice {
                        guards, elements, ..
                    } => {
                        let guards: String = guards
                            .iter()
                            .map(|g| format!("{}{}", g.op.as_str(), term(&g.term)))
                            .collect::<Vec<_>>()
                            .join(",");
                        let elements = elements
                            .iter()
                            .map(|e| {
                                format!(
                                    "{}{}{}",
                                    naf(e.naf),
                                    atom(&e.atom),
                                    condition(&e.condition)
                                )
                            })
                            .collect::<Vec<_>>()
                            .join("; ");
                        format!("choice[{guards}]{{{elements}}}")
                    }
                    Head::Aggregate {
                        function,
                        elements,
                        guards,
                        ..
                    } => {
                        let elements: Vec<AggregateElement> = elements
                            .iter()
                            .map(|e| AggregateElement {
                                terms: e.terms.clone(),
                                condition: std::iter::once(Literal::Atom {
                                    naf: e.naf,
                                    atom: e.atom.clone(),
                                })
                                .chain(e.condition.iter().cloned())
                                .collect(),
                                tuple_end: e.tuple_end,
                                span: e.span,
                            })
                            .collect();
                        let printed = aggregate(&Aggregate {
                            naf: Naf::Positive,
                            function: *function,
                            elements,
                            guards: guards.clone(),
                            span: Span::default(),
                        });
                        format!("head{printed}")
                    }
                };
                match (head.is_empty(), b.is_empty()) {
                    (_, true) => format!("{head}."),
                    (true, false) => format!(":- {}.", body(b)),
                    (false, false) => format!("{head} :- {}.", body(b)),
                }
            }
            StatementKind::ShowSignature(sig) => format!("#show {}.", signature(sig)),
            StatementKind::ShowNothing => "#show.".into(),
            StatementKind::ShowTerm { term: t, body: b } => {
                format!("#show {} : {}.", term(t), body(b))
            }
            StatementKind::Defined(sig) => format!("#defined {}.", signature(sig)),
            StatementKind::Hide(None) => "#hide.".into(),
            StatementKind::Hide(Some(sig)) => format!("#hide {}.", signature(sig)),
            StatementKind::Const {
                name,
                value,
                overriding,
            } => {
                let flag = if *overriding { " [override]" } else { "" };
                format!("#const {name}={}.{flag}", term(value))
            }
            StatementKind::Include {
                path,
                library: false,
            } => format!("#include {path:?}."),
            StatementKind::Include {
                path,
                library: true,
            } => format!("#include <{path}>."),
            StatementKind::Program { name, params } if params.is_empty() => {
                format!("#program {name}.")
            }
            StatementKind::Program { name, params } => {
                format!("#program {name}({}).", params.join(","))
            }
            StatementKind::Optimize { maximize, elements } => {
                let elements: Vec<String> = elements
                    .iter()
                    .map(|e| {
                        let priority = e.priority.as_ref().map(|p| format!("@{}", term(p)));
                        let terms: String =
                            e.terms.iter().map(|t| format!(",{}", term(t))).collect();
                        let each = if e.per_instance { ",#each" } else { "" };
                        format!(
                            "{}{}{terms}{each} : {}",
                            term(&e.weight),
                            priority.unwrap_or_default(),
                            body(&e.condition)
                        )
                    })
                    .collect();
                let directive = if *maximize { "#maximize" } else { "#minimize" };
                format!("{directive}{{{}}}.", elements.join("; "))
            }
            StatementKind::External {
                atom: a,
                body: b,
                value,
            } => format!(
                "#external {}{}.{}",
                atom(a),
                condition_body(b),
                value
                    .as_ref()
                    .map_or(String::new(), |v| format!(" [{}]", term(v)))
            ),
            StatementKind::Project(ProjectTarget::Atom { atom: a, body: b }) => {
                format!("#project {}{}.", atom(a), condition_body(b))
            }
            StatementKind::Project(ProjectTarget::Signature(sig)) => {
                format!("#project {}.", signature(sig))
            }
            StatementKind::Heuristic {
                atom: a,
                body: b,
                weight,
                priority,
                modifier,
            } => {
                let priority = priority.as_ref().map(|p| format!("@{}", term(p)));
                format!(
                    "#heuristic {}{}. [{}{},{}]",
                    atom(a),
                    condition_body(b),
                    term(weight),
                    priority.unwrap_or_default(),
                    term(modifier)
                )
            }
            StatementKind::Edge { pair, body: b } => {
                format!("#edge {}{}.", term(pair), condition_body(b))
            }
            StatementKind::Unsupported { what } => format!("unsupported({what})."),
        }
    }

    /// Renders statements one a line, then diagnostics as
    /// `error start..end: message`; [`check`] compares modulo whitespace.
    fn render(input: &str) -> String {
        let (statements, diagnostics) = parse_program(input, FileId(0));
        let mut out = String::new();
        for s in &statements {
            writeln!(out, "{}", statement(s)).unwrap();
        }
        for d in &diagnostics {
            writeln!(out, "error {}..{}: {}", d.span.start, d.span.end, d.message).unwrap();
        }
        out
    }

    #[track_caller]
    fn check(input: &str, expect: &str) {
        let actual = render(input);
        let normalise = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ");
        assert_eq!(
            normalise(&actual),
            normalise(expect),
            "\ninput: {input}\nactual:\n{actual}"
        );
    }

    /// Which statements are runs of facts stored flat (`F` and how many)
    /// and which are AST rules (`R`).
    fn fact_runs(input: &str) -> String {
        let (statements, diagnostics) = parse_program(input, FileId(0));
        assert!(diagnostics.is_empty(), "{diagnostics:?}");
        let kinds: Vec<String> = (statements.iter())
            .map(|s| match &s.kind {
                StatementKind::Facts(facts) => format!("F{}", facts.len()),
                _ => "R".to_owned(),
            })
            .collect();
        kinds.join(" ")
    }

    #[test]
    fn plain_facts_are_stored_flat() {
        let src = "p(1,a,\"s\\\"\",f(g(2),(3,b)),(),(c,),0x10). -q. q(-2147483648).\n\
                   r :- s. t(X). u(1;2). v(1..2). w(1+1). x(#sup). y(-a). #true. z(_).\n\
                   z(1) . z(1)%c\n. - z(1). not z(1). z(1) | z(2). z(2).";
        assert_eq!(fact_runs(src), "F3 R R R R R R R R R R R R R R F1");
        check(
            "p(1,a,\"s\\\"\",f(g(2),(3,b)),(),(c,),0x10). -q. q(-2147483648).",
            r#"p(1,a,"s\"",f(g(2),(3,b)),(),(c,),16).
               -q.
               q(-2147483648)."#,
        );
        // Each fact is the statement the parser reads, with its spans (the
        // spans of the atom's terms aside).
        let src = "a. -p(1,\"x\").\n  q(f(2)).";
        let (statements, _) = parse_program(src, FileId(2));
        let StatementKind::Facts(facts) = &statements[0].kind else {
            panic!()
        };
        assert_eq!(statements[0].span, Span::new(FileId(2), 0, src.len()));
        let mut parser = Parser::new(src, FileId(2));
        for fact in facts.statements(FileId(2)) {
            let Ok(parsed) = parser.statement() else {
                panic!()
            };
            assert_eq!(statement(&fact), statement(&parsed));
            assert_eq!(fact.span, parsed.span);
            let head_literal = |s: &Statement| match &s.kind {
                StatementKind::Rule {
                    head: Head::Disjunction(disjuncts),
                    ..
                } => disjuncts[0].clone(),
                _ => panic!(),
            };
            let (fact, parsed) = (head_literal(&fact), head_literal(&parsed));
            assert_eq!(fact.span, parsed.span);
            assert_eq!(fact.atom.span, parsed.atom.span);
            assert_eq!(fact.atom.term.span, parsed.atom.term.span);
        }
    }

    #[test]
    fn seed_examples() {
        check(
            r#"number(1..9).
square(R, C) :- number(R), number(C).
1 { numberAt(R, C, P) : number(P) } 1 :- square(R, C).
:- numberAt(R, C1, P), numberAt(R, C2, P), C1 != C2.
cubeColor(F,RC,P) :- F := (((C-1)/3)+(3*((R-1)/3))),RC:=(10*R+C),numberAt(R, C, P).
{sudoku(X,Y,N): n(N)}=1 :- x(X) ,y(Y).
subgrid(X,Y,A,B) :- x(X), x(A), y(Y), y(B),(X-1)/3 == (A-1)/3, (Y-1)/3 == (B-1)/3.
#show sudoku/3.
#hide.
#show paint/3.
place(R, C, 1)
v place(R, C, 2)
v place(R, C, 3) :- row(R), col(C).
region(REG, N) :- place(R, C, N), S1X = R-1, S2X = S1X/3, SY = C-1, Y = SY/3, X = S2X * 10, REG = X + Y.
region_set(REG) :- region(REG, _).
:- not region(REG, VAL), val(VAL), region_set(REG).
vistext(10*X+Y,Z):-numberAt(X,Y,Z).
visposition(sud,8,12,-1).
f(-1;0;59;60;119;120;179;180).
visline(200+X,13,17+X,192,17+X,1):-f(X).
-p(X) :- q(X), not -r(X).
a | b ; c :- d.
#const n = 3.
#include "other.lp".
#show t(X) : p(X).
#show.
#program base.
p("a string with \" and \\ and \n").
q(|X-Y|) :- r(X,Y).  q(X**2) :- r(X). q(X\2) :- r(X).
"#,
            r#"
            number((1..9)).
            square(R,C) :- number(R), number(C).
            choice[>=1,<=1]{numberAt(R,C,P):number(P)} :- square(R,C).
            :- numberAt(R,C1,P), numberAt(R,C2,P), C1!=C2.
            cubeColor(F,RC,P) :- F=(((C-1)/3)+(3*((R-1)/3))), RC=((10*R)+C), numberAt(R,C,P).
            choice[=1]{sudoku(X,Y,N):n(N)} :- x(X), y(Y).
            subgrid(X,Y,A,B) :- x(X), x(A), y(Y), y(B), ((X-1)/3)=((A-1)/3), ((Y-1)/3)=((B-1)/3).
            #show sudoku/3.
            #hide.
            #show paint/3.
            place(R,C,1) | place(R,C,2) | place(R,C,3) :- row(R), col(C).
            region(REG,N) :- place(R,C,N), S1X=(R-1), S2X=(S1X/3), SY=(C-1), Y=(SY/3), X=(S2X*10), REG=(X+Y).
            region_set(REG) :- region(REG,_).
            :- not region(REG,VAL), val(VAL), region_set(REG).
            vistext(((10*X)+Y),Z) :- numberAt(X,Y,Z).
            visposition(sud,8,12,-1).
            pool[f(-1);f(0);f(59);f(60);f(119);f(120);f(179);f(180)].
            visline((200+X),13,(17+X),192,(17+X),1) :- f(X).
            -p(X) :- q(X), not -r(X).
            a | b | c :- d.
            #const n=3.
            #include "other.lp".
            #show t(X) : p(X).
            #show.
            #program base.
            p("a string with \" and \\ and \n").
            q(|(X-Y)|) :- r(X,Y).
            q((X**2)) :- r(X).
            q((X\2)) :- r(X).
            "#,
        );
    }

    #[test]
    fn precedence() {
        check("p(1+2*3).", "p((1+(2*3))).");
        check("p(2**3**2).", "p((2**(3**2))).");
        check("p(-X**2).", "p((neg(X)**2)).");
        check("p(-2**2).", "p((-2**2)).");
        check("p(1-2-3).", "p(((1-2)-3)).");
        check("p(8/2/2).", "p(((8/2)/2)).");
        check("p(1..2+3).", "p((1..(2+3))).");
        check("p(1..2..3).", "p(((1..2)..3)).");
        // gringo: `^` binds weaker than `?`, which binds weaker than `&`
        check("p(1^2?3&4+5).", "p((1^(2?(3&(4+5))))).");
        check("p(1&2?3^4).", "p((((1&2)?3)^4)).");
        check("p(~X+1).", "p((~(X)+1)).");
        check("p(X*Y\\Z).", "p(((X*Y)\\Z)).");
        check("p(-(1)).", "p(neg(1)).");
        check("p(--1).", "p(neg(-1)).");
        check("p(- 2, 2-1, 2 - -1).", "p(-2,(2-1),(2--1)).");
        check("p(-f(X)).", "p(neg(f(X))).");
        check("p(|-1|+|X;Y|).", "p((|-1|+|pool[X;Y]|)).");
        check("p(||X|-1|).", "p(|(|X|-1)|).");
    }

    #[test]
    fn integers() {
        check(
            "p(2147483647). p(-2147483648). p(0x10,0b101,0o17,0).",
            "p(2147483647). p(-2147483648). p(16,5,15,0).",
        );
        // Wider literals wrap around in 32 bits, as clingo reads them.
        check(
            "p(2147483648). p(-2147483649). p(99999999999999999999999). p(0xFFFFFFFF). p(0x80000000).",
            "p(-2147483648). p(2147483647). p(-159383553). p(-1). p(-2147483648).",
        );
        check(
            "p(-0x80000000). p(0xFF,0xff).",
            "p(-2147483648). p(255,255).",
        );
        check("#show p/2147483648.", "error 8..18: integer out of range");
    }

    #[test]
    fn tuples_and_pools() {
        check(
            "p(()). p((1,)). p((1,2)). p((1)). p((a;b)). p((1,2;3)). p((1;)).",
            "p(()). p((1,)). p((1,2)). p(1). p(pool[a;b]). p(pool[(1,2);3]). p(pool[1;()]).",
        );
        check(
            "p(f(1;2)). p(X,1;Y,2). p(1;). p(). -p(1;2).",
            "p(pool[f(1);f(2)]). pool[p(X,1);p(Y,2)]. pool[p(1);p]. p. -pool[p(1);p(2)].",
        );
        check(
            "a :- p(1;2), not q(a;b).",
            "a :- pool[p(1);p(2)], not pool[q(a);q(b)].",
        );
    }

    #[test]
    fn lexical_details() {
        check(
            "%* block %* nested *% still comment *% a. % line . comment\r\nb.\r\n%*\n.*%c.",
            "a. b. c.",
        );
        check(
            "p'(x') :- _q(X'), r(_1, _, __x, _Y), s(\"\\\"\\\\\\n\", \"ä\").",
            r#"p'(x') :- _q(X'), r(_1,_,__x,_Y), s("\"\\\n","ä")."#,
        );
        check(
            "p(#sup,#inf,#supremum,#infimum).",
            "p(#sup,#inf,#sup,#inf).",
        );
        check("p ( 1 ) .\n\n\tq\n.", "p(1). q.");
        check("", "");
        check("  % only a comment", "");
    }

    #[test]
    fn disjunctions() {
        check("a v b.", "a | b.");
        check("v. v :- a. v v w.", "v. v :- a. v | w.");
        check("a v b v c :- d.", "a | b | c :- d.");
        check("a ; b | c.", "a | b | c.");
        check("a, b.", "a | b.");
        check("-a v -b(1).", "-a | -b(1).");
        check("p(X) : q(X) | r.", "p(X):q(X) | r.");
        check("a : b, c ; d :- e.", "a:b,c | d :- e.");
        check(
            "p(X) : q(X), not r(X), X < 3 :- s.",
            "p(X):q(X),not r(X),X<3 :- s.",
        );
        check("#false :- a. #false.", ":- a. .");
        check(
            "X = Y :- p(X,Y). f(X) < 3 :- q(X).",
            "X=Y :- p(X,Y). f(X)<3 :- q(X).",
        );
        // Comparisons among the disjuncts (clingo's test lp/show.lp).
        check(
            "q(k+1), k < 3. a ; not b | X != 1 ; #true :- c(X).",
            "q((k+1)) | k<3. a | not b | #true | X!=1 :- c(X).",
        );
        check("1 { not a; b : c } 1.", "choice[>=1,<=1]{not a; b:c}.");
        check(
            "2 #count{ r,X : not r(X) : p(X); q : q } 4.",
            "head#count{r,X:not r(X),p(X);q:q}>=2<=4.",
        );
        check(
            "a | not b :- c. not a. not not a; b. a; not not b : c, d; not #false.",
            "a | not b :- c. not a. not not a | b. a | not not b:c,d | not #false.",
        );
    }

    /// clingo 5.6's chains of relations, in every place a comparison
    /// stands, as clingo rewrites them (its tests `rewrite-comparisons`).
    #[test]
    fn comparison_chains_in_bodies_and_conditions() {
        // The conjunction of the comparisons of adjacent terms; `=` binds
        // as in a comparison of its own.
        check("q :- p(X), 1 <= X < 0x10.", "q :- p(X), 1<=X, X<16.");
        check(
            "q(X) :- p(Y), 0 < X = Y + 1 <= 3.",
            "q(X) :- p(Y), 0<X, X=(Y+1), (Y+1)<=3.",
        );
        check("q :- not not 1 < X <= 3, p(X).", "q :- 1<X, X<=3, p(X).");
        check("q :- 1 != 2 == 2 <> 3 := 3.", "q :- 1!=2, 2=2, 2!=3, 3=3.");
        // `not` before a chain: one of the comparisons fails.
        check(
            "q :- p(X), not 1 < X < 3.",
            "q :- p(X), #count{:1>=X;:X>=3}>=1.",
        );
        check(
            "q :- p(X), not 1 < X <= 2 != 3.",
            "q :- p(X), #count{:1>=X;:X>2;:2=3}>=1.",
        );
        // A condition with a negated chain: the element once per comparison.
        check(
            "q :- #count{ X : p(X), 1 < X < 3 } > 0.",
            "q :- #count{X:p(X),1<X,X<3}>0.",
        );
        check(
            "q :- #count{ X : p(X), not 1 < X < 3, r(X) } > 0.",
            "q :- #count{X:p(X),1>=X,r(X);X:p(X),X>=3,r(X)}>0.",
        );
        check(
            "q :- #sum{ X : p(X), not 1 < X < 3 : not 4 < X < 6 } > 0.",
            "q :- #sum{X:p(X),1>=X,4>=X;X:p(X),1>=X,X>=6;X:p(X),X>=3,4>=X;X:p(X),X>=3,X>=6}>0.",
        );
        check(
            "q :- r(X) : p(X), not 1 < X < 3.",
            "q :- [r(X):p(X),1>=X], [r(X):p(X),X>=3].",
        );
        check(
            "{ r(X) : p(X), not 1 < X < 3 }.",
            "choice[]{r(X):p(X),1>=X; r(X):p(X),X>=3}.",
        );
        check(
            "r(X) : p(X), not 1 < X < 3 ; s.",
            "r(X):p(X),1>=X | r(X):p(X),X>=3 | s.",
        );
        check(
            "#count{ X : r(X) : p(X), not 1 < X < 3 } = 1.",
            "head#count{X:r(X),p(X),1>=X;X:r(X),p(X),X>=3}=1.",
        );
        check(
            "#minimize{ X@2 : p(X), not 1 < X < 3 }.",
            "#minimize{X@2 : p(X), 1>=X; X@2 : p(X), X>=3}.",
        );
        check(
            ":~ p(X), not 1 < X < 3. [X]",
            "#minimize{X : p(X), #count{:1>=X;:X>=3}>=1}.",
        );
        check(
            "#show X : p(X), 1 < X < 3. #external e(X) : p(X), not 1 < X < 3.",
            "#show X : p(X), 1<X, X<3. #external e(X) : p(X), #count{:1>=X;:X>=3}>=1.",
        );
        // The literal of a conditional literal: each comparison under the
        // condition; negated, no instance of the condition has them all.
        check("q :- 1 < X < 3 : p(X).", "q :- [1<X:p(X)], [X<3:p(X)].");
        check("q :- not 1 < X < 3 : p(X).", "q :- [#false:p(X),1<X,X<3].");
        // A literal set counts each ground instance of a chain once, under
        // a tuple of its own: its place in the set and its terms.
        check(
            "q :- { a; X < Y < 3 : p(X,Y) } = 1.",
            "q :- #count{#lit:a;1,X,Y,3:X<Y,Y<3,p(X,Y)}=1.",
        );
        check(
            "q :- { not X < 2 < 3 : p(X) } = 1.",
            "q :- #count{0,X,2,3:X>=2,p(X);0,X,2,3:2>=3,p(X)}=1.",
        );
        // A single comparison is read as before.
        check(
            "q :- not X < 3, p(X), { X > 1 : p(X) } = 1.",
            "q :- not X<3, p(X), #count{#lit:X>1,p(X)}=1.",
        );
    }

    /// A pool or an interval between two relations is one value in both
    /// comparisons: a made-up variable bound to it, beside them, so that
    /// the pool expands into copies of the rule or element as clingo
    /// expands it before it splits the chain.
    #[test]
    fn comparison_chains_share_their_middle_terms() {
        check(
            "q :- 1 < (0;5) < 3.",
            "q :- #chain1=pool[0;5], 1<#chain1, #chain1<3.",
        );
        check(
            "q :- not 1 < 1..5 <= 2 < (3;4) != 7.",
            "q :- #count{:#chain1=(1..5),#chain2=pool[3;4],1>=#chain1;\
             :#chain1=(1..5),#chain2=pool[3;4],#chain1>2;\
             :#chain1=(1..5),#chain2=pool[3;4],2>=#chain2;\
             :#chain1=(1..5),#chain2=pool[3;4],#chain2=7}>=1.",
        );
        // An anonymous variable is one variable there, with no binding.
        check("q :- 1 < _ < 3, 0 < _.", "q :- 1<#chain1, #chain1<3, 0<_.");
        check(
            "q :- #count{ X : p(X), not 1 < (X;5) < 3 } > 0.",
            "q :- #count{X:p(X),#chain1=pool[X;5],1>=#chain1;X:p(X),#chain1=pool[X;5],#chain1>=3}>0.",
        );
        check(
            "{ 1 < (0;2) < 3 } = 1.",
            "head#count{0,1,#chain1,3:not #false,#chain1=pool[0;2],1<#chain1,#chain1<3}=1.",
        );
        // In a literal set or choice, the first and last terms too: each
        // is one value in the chain's tuple.
        check(
            "q :- { a; (1;2) < X < 3..4 : p(X) } = 1. { X > (1;2) }.",
            "q :- #count{#lit:a;1,#chain1,X,#chain2:#chain1=pool[1;2],#chain2=(3..4),\
             #chain1<X,X<#chain2,p(X)}=1.
             head#count{0,X,#chain3:not #false,#chain3=pool[1;2],X>#chain3}.",
        );
        check(
            "1 < (0;2) < 3 :- q.",
            ":- q, #count{:#chain1=pool[0;2],1>=#chain1;:#chain1=pool[0;2],#chain1>=3}>=1.",
        );
        // The literal of a conditional literal, under a condition without
        // variables: the condition implies the chain, for some value of
        // its bindings.
        check(
            "h :- 1 < (2;3) < 4 : a.",
            "h :- #count{:not a;:#chain1=pool[2;3],1<#chain1,#chain1<4}>=1.",
        );
        check(
            "h :- not 1 < (2..3) < 4 : a.",
            "h :- #count{:not a;:#chain1=(2..3),1>=#chain1;:#chain1=(2..3),#chain1>=4}>=1.",
        );
        check(
            "h :- 1 < (X;5) < 3 : p(X).",
            "error 5..25: a chain of comparisons with a pool or an interval, as the literal of a conditional literal whose condition has variables, is not supported",
        );
    }

    #[test]
    fn comparisons_in_heads() {
        // One relation stays in the head; a chain moves into the body
        // negated: the rest of the head holds when it fails.
        check("X < 3 :- p(X).", "X<3 :- p(X).");
        check("1 < X < 3 :- p(X).", ":- p(X), #count{:1>=X;:X>=3}>=1.");
        check(
            "a ; 1 < X < 3 | b :- p(X).",
            "a | b :- p(X), #count{:1>=X;:X>=3}>=1.",
        );
        check("not 1 < X < 3 :- p(X).", ":- p(X), 1<X, X<3.");
        check("a ; not X < 3 :- p(X).", "a :- p(X), X<3.");
        check(
            "not not 1 < X < 3 :- p(X).",
            ":- p(X), #count{:1>=X;:X>=3}>=1.",
        );
        check("X = Y ; 1 < 2 < 3.", "X=Y :- #count{:1>=2;:2>=3}>=1.");
        // Under a condition without variables: a conditional literal.
        check("a ; X < 3 : q :- p(X).", "a :- p(X), [not X<3:q].");
        check("a ; not X < 3 : q :- p(X).", "a :- p(X), [X<3:q].");
        check(
            "not 1<2<3:b | not 4<5<6:c :- q.",
            ":- q, [1<2:b], [2<3:b], [4<5:c], [5<6:c].",
        );
        check("1<2<3:b | a :- q.", "a :- q, [#false:b,1<2,2<3].");
        // Under a condition over variables, clingo keeps one instance.
        check(
            "X < 3 : p(X) ; a. b ; not 1 < X < 2 : p(X,Y) :- q.",
            "
            error 0..12: a comparison in a disjunction under a condition over variables is not supported: clingo's answer depends on the order of the condition's instances
            error 22..44: a comparison in a disjunction under a condition over variables is not supported: clingo's answer depends on the order of the condition's instances
            ",
        );
        // A comparison among a choice's elements, or a head aggregate's:
        // `not #false` under it, counted with its own tuple.
        check(
            "{ a; 1 < 2 < 3 : b } >= 1 :- q.",
            "head#count{#lit:a;1,1,2,3:not #false,1<2,2<3,b}>=1 :- q.",
        );
        check(
            "{ not 1 < (2;3) < 4 } :- q.",
            "head#count{0,1,#chain1,4:not #false,#chain1=pool[2;3],1>=#chain1;\
             0,1,#chain1,4:not #false,#chain1=pool[2;3],#chain1>=4} :- q.",
        );
        check(
            "{ X > 1 : p(X) } = 1.",
            "head#count{0,X,1:not #false,X>1,p(X)}=1.",
        );
        check(
            "#count{ 1 : 1 < 2 : p ; 2 : not 1 < 2 < 3 : p } >= 1 :- q.",
            "head#count{1:not #false,1<2,p;2:not #false,1>=2,p;2:not #false,2>=3,p}>=1 :- q.",
        );
    }

    #[test]
    fn aspif_input_is_refused() {
        check(
            "asp 1 0 0\n1 0 1 1 0 0\n0\n",
            "error 0..9: aspif input (clingo's ground intermediate format, a file that starts with `asp <version>`) is not supported by asp2sat yet",
        );
        // `asp` is a constant otherwise.
        check("asp. asp(1). asp :- a.", "asp. asp(1). asp :- a.");
    }

    #[test]
    fn choices_and_guards() {
        check(
            "{a}. {}. {a; b}. {a, b}. {a;}. {-a}.",
            "choice[]{a}. choice[]{}. choice[]{a; b}. choice[]{a; b}. choice[]{a}. choice[]{-a}.",
        );
        check(
            "{ p(X) : q(X), r(X) }. { p(X) : q(X); s, t }. { p(X) : q(X) : r(X) }.",
            "choice[]{p(X):q(X),r(X)}. choice[]{p(X):q(X); s; t}. choice[]{p(X):q(X),r(X)}.",
        );
        check(
            "1 {a}. {a} 2. 1 {a} 2. {a} = n. {a} >= 1. 1 <= {a}. 2 > {a}. {a} != 1.",
            "
            choice[>=1]{a}. choice[<=2]{a}. choice[>=1,<=2]{a}. choice[=n]{a}.
            choice[>=1]{a}. choice[>=1]{a}. choice[<2]{a}. choice[!=1]{a}.
            ",
        );
        check(
            "n {a} m+1. 1 <= {a} <= 2. X = {a} :- b(X). 3 < {a} > 1. N-1 >= {a}.",
            "
            choice[>=n,<=(m+1)]{a}. choice[>=1,<=2]{a}. choice[=X]{a} :- b(X).
            choice[>3,>1]{a}. choice[<=(N-1)]{a}.
            ",
        );
        check("1{a;b}1.", "choice[>=1,<=1]{a; b}.");
    }

    #[test]
    fn bodies() {
        check(
            "a :- not b, not not c, #true, not #false, not not #true.",
            "a :- not b, not not c, #true, not #false, not not #true.",
        );
        check(
            "a :- X < Y, X <= Y, X > Y, X >= Y, X != Y, X <> Y, X == Y, X := Y, X = Y, not X = Y.",
            "a :- X<Y, X<=Y, X>Y, X>=Y, X!=Y, X!=Y, X=Y, X=Y, X=Y, not X=Y.",
        );
        check("a :- b; c, d.", "a :- b, c, d.");
        check(
            "a :- b : c, d; e. a :- p(X) : q(X). a :- b :.",
            "a :- [b:c,d], e. a :- [p(X):q(X)]. a :- [b].",
        );
        check("a :- . :- .", "a. .");
        check("a :- -b, not -c(1).", "a :- -b, not -c(1).");
    }

    #[test]
    fn body_aggregates_in_every_dialect() {
        check(
            "
            a :- #count{X : p(X)} > 2, b.
            a :- N = #count{X : p(X)}, N > 1.
            a :- 1 {b;c} 2.
            a :- #sum+{X : p(X)} = 3.
            a :- not #min{X : p(X)} < 2.
            a :- 1 <= #max{X:p(X), q(1)} <= 3, c.
            a :- 2 [b=1, not c=2] 3.
            a :- X = #count{}.
            a :- {b} , c.
            a :- #sum{ W,X : w(X,W); : q }.
            a :- #min[ b = 3 ].
            a :- #int(X), #succ(X, Y).
            ",
            "
            a :- #count{X:p(X)}>2, b.
            a :- #count{X:p(X)}=N, N>1.
            a :- #count{#lit:b;#lit:c}>=1<=2.
            a :- #sum+{X:p(X)}=3.
            a :- not #min{X:p(X)}<2.
            a :- #max{X:p(X),q(1)}>=1<=3, c.
            a :- #sum{1,#lit:b;2,#lit:not c}>=2<=3.
            a :- #count{}=X.
            a :- #count{#lit:b}, c.
            a :- #sum{W,X:w(X,W);:q}.
            a :- #min{3,#lit:b}.
            a :- unsupported(DLV built-in predicates), unsupported(DLV built-in predicates).
            ",
        );
        let (statements, _) = parse_program("a :- b, not 1 <= #count{X:p(X)} 3, c.", FileId(0));
        let StatementKind::Rule { body, .. } = &statements[0].kind else {
            panic!()
        };
        let BodyElement::Aggregate(aggregate) = &body[1] else {
            panic!()
        };
        assert_eq!((aggregate.span.start, aggregate.span.end), (8, 33));
    }

    /// Head aggregates print as `head` and the body aggregate over each
    /// element's atom and condition.
    #[test]
    fn head_aggregates() {
        check(
            "
            #count{a : b} = 1 :- c.
            1 #sum{1,a : a; 2 : b : c, not d} :- c.
            1 [a = 1, b] 2 :- c.
            #min{ X : p(X) : q(X) } = 2.
            ",
            "
            head#count{a:b}=1 :- c.
            head#sum{1,a:a;2:b,c,not d}>=1 :- c.
            head#sum{1,#lit:a;1,#lit:b}>=1<=2 :- c.
            head#min{X:p(X),q(X)}=2.
            ",
        );
    }

    #[test]
    fn unsupported_statements() {
        check(
            "
            #heuristic a : b. [1, true]
            #external a : b.
            #project a/1.
            #edge (a,b).
            #script (python)
            def f(x): return x. # %* not a comment
            #end.
            #maxint = 20.
            ok.
            ",
            "
            #heuristic a : b. [1,true]
            #external a : b.
            #project a/1.
            #edge (a,b).
            unsupported(scripts).
            unsupported(#maxint).
            ok.
            ",
        );
    }

    #[test]
    fn optimize_statements_in_every_dialect() {
        check(
            "
            :~ p(X). [X@1, X]
            :~ a, not b. [2]
            :~ a. [1:2]
            :~ a. [3:]
            :~ a. [:2]
            #minimize{X : p(X)}.
            #maximize{X@2 : p(X), not q; 1,a : q; 3}.
            #minimize [a = 1, not b = 2, c].
            #maximize { a, -b, not c }.
            #minimize { a : b }.
            ",
            "
            #minimize{X@1,X : p(X)}.
            #minimize{2 : a, not b}.
            #minimize{1@2,#each : a}.
            #minimize{3@1,#each : a}.
            #minimize{1@2,#each : a}.
            #minimize{X : p(X)}.
            #maximize{X@2 : p(X), not q; 1,a : q; 3 : }.
            #minimize{1,a,0 : a; 2,b,2 : not b; 1,c,0 : c}.
            #maximize{1,a,0 : a; 1,b,1 : -b; 1,c,2 : not c}.
            #minimize{a : b}.
            ",
        );
        let (statements, diagnostics) = parse_program(":~ p(X). [X@1]\n a.", FileId(0));
        assert!(diagnostics.is_empty());
        assert_eq!((statements[0].span.start, statements[0].span.end), (0, 14));
        check(
            "#minimize{1@ : a}. :~ a. [1@2 b] ok. #maximize a. ok.",
            "
            ok.
            error 13..14: syntax error, unexpected :
            error 30..31: syntax error, unexpected <IDENTIFIER>, expecting ]
            error 47..48: syntax error, unexpected <IDENTIFIER>, expecting {
            ",
        );
    }

    #[test]
    fn clingo_extensions_outside_the_ast() {
        check(
            "&diff { a-b } <= 3 :- c. a :- &sum { x } >= 1, b. #!/usr/bin/env clingo\nok.",
            "unsupported(theory atoms). a :- unsupported(theory atoms), b. ok.",
        );
        check(
            "p(@f(1)). q :- X = @g(), r(X). ok.",
            "
            ok.
            error 2..4: external function calls (@f(..)) are not supported
            error 19..21: external function calls (@f(..)) are not supported
            ",
        );
    }

    #[test]
    fn directives() {
        check(
            "#show -p/1. #show p. #show -p. #show f(X) : p(X), not q. #showsig p/0. #hide p/2. #hide p(X).",
            "
            #show -p/1. #show p : . #show neg(p) : . #show f(X) : p(X), not q. #show p/0. #hide p/2.
            unsupported(#hide of terms).
            ",
        );
        check(
            "#const n = 3. [default] #const m = n*2. #const s = \"x\". [override]",
            "#const n=3. #const m=(n*2). #const s=\"x\". [override]",
        );
        check(
            "#include <dir/file.lp>. #include \"a\\\"b\". #program step(t, u). #program base(). #base. #cumulative t.",
            r#"#include <dir/file.lp>. #include "a\"b". #program step(t,u). #program base. #program base. #program cumulative(t)."#,
        );
        check(
            "#external p(X) : q(X). [X] #external a. #external b:. #project a:. #project p/2. #project q(X) : r(X), not s. #heuristic p : q. [1@2,level] #edge (a,b) : c.",
            "
            #external p(X) : q(X). [X] #external a. #external b. #project a. #project p/2.
            #project q(X) : r(X), not s. #heuristic p : q. [1@2,level] #edge (a,b) : c.
            ",
        );
    }

    #[test]
    fn errors_are_all_reported_and_recovered_from() {
        check(
            "a :- b(.\nc.\np(1 2).\nd :- e\nf.\ng. {a b}. #const n. .\nh.",
            "
            c.
            g.
            h.
            error 7..8: syntax error, unexpected ., expecting ) or ;
            error 16..17: syntax error, unexpected <NUMBER>, expecting ) or ;
            error 27..28: syntax error, unexpected <IDENTIFIER>
            error 36..37: syntax error, unexpected <IDENTIFIER>, expecting } or ;
            error 48..49: syntax error, unexpected ., expecting =
            error 50..51: syntax error, unexpected .
            ",
        );
        check("a :- b", "error 6..6: syntax error, unexpected <EOF>");
        // A `#heuristic` without an atom (clingo: a syntax error too).
        check(
            "#heuristic 1+. [1,true]\nok.",
            "ok. error 13..14: syntax error, unexpected .",
        );
        check(
            "p(X) :- q(X",
            "error 11..11: syntax error, unexpected <EOF>, expecting ) or ;",
        );
        check(
            "1 :- b. p(X)+1. q.",
            "q.\nerror 2..4: syntax error, unexpected :-\nerror 14..15: syntax error, unexpected .",
        );
        check(
            "a :- 1.\nb :- X.",
            "error 6..7: syntax error, unexpected .\nerror 14..15: syntax error, unexpected .",
        );
        check("a :- b, .", "error 8..9: syntax error, unexpected .");
        check(
            "p(1..2.",
            "error 6..7: syntax error, unexpected ., expecting ) or ;",
        );
        check("#foo. a.", "a.\nerror 0..4: syntax error, unexpected #foo");
        check(
            "a :- not not not b. c.",
            "c.\nerror 13..16: syntax error, unexpected not",
        );
    }

    #[test]
    fn lexer_errors() {
        check(
            "p(\"abc).\nq(\"x\").",
            "q(\"x\").\nerror 2..3: lexer error, unterminated string",
        );
        check(
            "p(\"a\\tb\"). q.",
            "q.\nerror 4..6: lexer error, invalid escape sequence \\t",
        );
        check(
            "a. %* never closed\nb.",
            "a.\nerror 3..5: lexer error, unterminated block comment",
        );
        check(
            "p(a) :- $$ q. r.",
            "r.\nerror 8..10: lexer error, unexpected $$",
        );
        check("p(ä). r.", "r.\nerror 2..4: lexer error, unexpected ä");
        check(
            "a. #script (lua) x = 1",
            "a.\nerror 3..10: lexer error, unterminated #script (missing #end)",
        );
        check("p(\"", "error 2..3: lexer error, unterminated string");
    }

    #[test]
    fn exact_spans() {
        let src = "  -p(X, f(1;2)) :- not q(X+1),\n  X = |Y|, r(X) : s(X).  % c\n{a ; b} = 1.";
        let (statements, diagnostics) = parse_program(src, FileId(3));
        assert!(diagnostics.is_empty());
        let text = |s: Span| &src[s.start as usize..s.end as usize];
        assert_eq!(statements[0].span.file, FileId(3));
        assert_eq!(
            text(statements[0].span),
            &src[2..src.find("  % c").unwrap()]
        );
        let StatementKind::Rule { head, body } = &statements[0].kind else {
            panic!()
        };
        let Head::Disjunction(lits) = head else {
            panic!()
        };
        assert_eq!(text(lits[0].span), "-p(X, f(1;2))");
        assert_eq!(text(lits[0].atom.span), "-p(X, f(1;2))");
        assert_eq!(text(lits[0].atom.term.span), "p(X, f(1;2))");
        let TermKind::Function { args, .. } = &lits[0].atom.term.kind else {
            panic!()
        };
        // the pool is hoisted to `f`, whose alternatives share its span
        assert_eq!(text(args[1].span), "f(1;2)");
        let TermKind::Pool(alternatives) = &args[1].kind else {
            panic!()
        };
        assert_eq!(text(alternatives[1].span), "f(1;2)");
        let BodyElement::Literal(Literal::Atom { atom, .. }) = &body[0] else {
            panic!()
        };
        assert_eq!(text(atom.span), "q(X+1)");
        let TermKind::Function { args, .. } = &atom.term.kind else {
            panic!()
        };
        assert_eq!(text(args[0].span), "X+1");
        let BodyElement::Literal(Literal::Comparison { span, rhs, .. }) = &body[1] else {
            panic!()
        };
        assert_eq!(text(*span), "X = |Y|");
        assert_eq!(text(rhs.span), "|Y|");
        let BodyElement::Conditional { span, .. } = &body[2] else {
            panic!()
        };
        assert_eq!(text(*span), "r(X) : s(X)");
        assert_eq!(text(statements[1].span), "{a ; b} = 1.");
        let StatementKind::Rule {
            head: Head::Choice { span, elements, .. },
            ..
        } = &statements[1].kind
        else {
            panic!()
        };
        assert_eq!(text(*span), "{a ; b} = 1");
        assert_eq!(text(elements[1].span), "b");

        let src = "p((X-1)/3, -5, - 7, (1,2), (a;b)).";
        let (statements, _) = parse_program(src, FileId(0));
        let StatementKind::Rule {
            head: Head::Disjunction(lits),
            ..
        } = &statements[0].kind
        else {
            panic!()
        };
        let TermKind::Function { args, .. } = &lits[0].atom.term.kind else {
            panic!()
        };
        let spans: Vec<&str> = args.iter().map(|a| text2(src, a.span)).collect();
        assert_eq!(spans, ["(X-1)/3", "-5", "- 7", "(1,2)", "(a;b)"]);
        let TermKind::Pool(alternatives) = &lits[0].atom.term.kind else {
            return;
        };
        panic!("unexpected pool {alternatives:?}");
    }

    fn text2(src: &str, s: Span) -> &str {
        &src[s.start as usize..s.end as usize]
    }

    #[test]
    fn rendered_like_gringo() {
        let mut sources = SourceMap::default();
        let src = "a.\nb :- c(.\n";
        let file = sources.add("e.lp", src);
        let (_, diagnostics) = parse_program(src, file);
        assert_eq!(diagnostics.len(), 1);
        let rendered = diagnostics[0].render(&sources);
        assert!(
            rendered
                .starts_with("e.lp:2:8-9: error: syntax error, unexpected ., expecting ) or ;\n"),
            "{rendered}"
        );
    }

    #[test]
    fn deep_nesting_is_an_error_not_a_crash() {
        let deep = |open: &str, n: usize| format!("p({}1).\nok.", open.repeat(n));
        for open in ["(", "-", "~", "|", "f(", "- (", "-(-"] {
            let (statements, diagnostics) = parse_program(&deep(open, 100_000), FileId(0));
            assert_eq!(statements.len(), 1, "{open}");
            assert_eq!(diagnostics.len(), 1, "{open}");
            assert_eq!(diagnostics[0].message, "term nested too deeply");
        }
        // below the limit is fine (clingo reads 300 parentheses deep)
        let src = format!("p({}1{}).", "(".repeat(1000), ")".repeat(1000));
        let (statements, diagnostics) = parse_program(&src, FileId(0));
        assert!(diagnostics.is_empty());
        assert_eq!(statements.len(), 1);
        let src = format!("p({}1).", "-".repeat(1000));
        let (_, diagnostics) = parse_program(&src, FileId(0));
        assert!(diagnostics.is_empty());
        assert!(parse_term(&"(".repeat(100_000), FileId(0)).is_err());
    }

    #[test]
    fn long_flat_inputs() {
        let facts: String = (0..200_000).map(|i| format!("p({i}).\n")).collect();
        let (statements, diagnostics) = parse_program(&facts, FileId(0));
        assert!(diagnostics.is_empty());
        let [fact_run] = &statements[..] else {
            panic!("one run of facts expected")
        };
        let StatementKind::Facts(facts) = &fact_run.kind else {
            panic!()
        };
        assert_eq!(facts.len(), 200_000);

        let body: Vec<String> = (0..10_000).map(|i| format!("q({i})")).collect();
        let src = format!("a :- {}.", body.join(", "));
        let (statements, diagnostics) = parse_program(&src, FileId(0));
        assert!(diagnostics.is_empty());
        let StatementKind::Rule { body, .. } = &statements[0].kind else {
            panic!()
        };
        assert_eq!(body.len(), 10_000);

        // A left-deep chain of 10,000 operators, parsed iteratively. Code that
        // walks the tree recursively (even the derived `Clone`) needs stack
        // to match, so this runs on a thread with room to spare.
        let src = format!("p({}).", vec!["1"; 10_000].join("+"));
        std::thread::Builder::new()
            .stack_size(64 << 20)
            .spawn(move || {
                let (statements, diagnostics) = parse_program(&src, FileId(0));
                assert!(diagnostics.is_empty());
                assert_eq!(statements.len(), 1);
            })
            .unwrap()
            .join()
            .unwrap();
    }

    #[test]
    fn parse_term_for_the_command_line() {
        let t = |s: &str| parse_term(s, FileId(0)).map(|t| term(&t));
        assert_eq!(t("3").unwrap(), "3");
        assert_eq!(t("-3").unwrap(), "-3");
        assert_eq!(t(" f(a, \"b\") ").unwrap(), "f(a,\"b\")");
        assert_eq!(t("1..n").unwrap(), "(1..n)");
        assert_eq!(t("(1;2)").unwrap(), "pool[1;2]");
        let err = parse_term("3)", FileId(0)).unwrap_err();
        assert_eq!(err.message, "syntax error, unexpected )");
        assert_eq!((err.span.start, err.span.end), (1, 2));
        assert_eq!(
            parse_term("", FileId(0)).unwrap_err().message,
            "syntax error, unexpected <EOF>"
        );
        assert_eq!(
            parse_term("\"x", FileId(0)).unwrap_err().message,
            "lexer error, unterminated string"
        );
        assert_eq!(t("4294967297").unwrap(), "1");
    }

    /// The texts [`plain_facts_read_as_the_general_path_reads_them`] tries:
    /// facts and near-facts, and pieces of about everything that makes a
    /// statement something else.
    fn fact_like_pieces() -> impl proptest::strategy::Strategy<Value = String> {
        use proptest::strategy::Strategy;
        let term = r#"(-?[0-9]{1,10}|- 7|0x1F|a|_b|"s"|"a\"b"|f\((1|b|g\(-2\))\)|X|1\+1|\(1,2\)|f\(\)|#sup)"#;
        let fact = format!(r"-? ?[pq]( ?\({term}(,{term}){{0,3}}\))?( |%c\n)?\.");
        let fact = proptest::string::string_regex(&fact).expect("a valid pattern");
        let piece = proptest::sample::select(FACT_PIECES).prop_map(str::to_owned);
        proptest::prop_oneof![3 => fact, 1 => piece]
    }

    const FACT_PIECES: &[&str] = &[
        "p",
        "q2",
        "f",
        "_g",
        "(",
        ")",
        ",",
        ".",
        "-",
        "1",
        "42",
        "0x1F",
        "2147483647",
        "2147483648",
        "\"s\"",
        "\"a\\\"b\"",
        "X",
        "+",
        ";",
        "..",
        " ",
        "\n",
        "%c\n",
        ":-",
        "|",
        "#sup",
        "()",
        "not ",
        "f(",
        "p(",
        "1)",
        "(1,2)",
    ];

    /// Each statement of `src` (each fact of a run) as `render` shows it,
    /// with its span and its head's, and the messages.
    fn statements_and_spans(statements: &[Statement], diagnostics: &[Diagnostic]) -> Vec<String> {
        let expanded = statements.iter().flat_map(|s| match &s.kind {
            StatementKind::Facts(facts) => facts.statements(s.span.file).collect(),
            _ => vec![s.clone()],
        });
        let head_span = |s: &Statement| match &s.kind {
            StatementKind::Rule {
                head: Head::Disjunction(disjuncts),
                ..
            } => disjuncts
                .iter()
                .map(|d| (d.span, d.atom.span, d.atom.term.span))
                .collect(),
            _ => Vec::new(),
        };
        let mut lines: Vec<String> = expanded
            .map(|s| format!("{} {:?} {:?}", statement(&s), s.span, head_span(&s)))
            .collect();
        lines.extend(
            diagnostics
                .iter()
                .map(|d| format!("{:?} {}", d.span, d.message)),
        );
        lines
    }

    proptest::proptest! {
        /// A fact read by the plain-fact path is the statement the general
        /// path reads, and anything else is left to the general path.
        #[test]
        fn plain_facts_read_as_the_general_path_reads_them(
            pieces in proptest::collection::vec(fact_like_pieces(), 0..30)
        ) {
            let src = pieces.concat();
            let (statements, diagnostics) = parse_program(&src, FileId(0));
            let mut parser = Parser::new(&src, FileId(0));
            let mut general = Vec::new();
            let mut messages = Vec::new();
            while parser.peek() != K::Eof {
                match parser.statement() {
                    Ok(statement) => general.push(statement),
                    Err(Fail(diagnostic)) => {
                        messages.extend(diagnostic);
                        parser.recover();
                    }
                }
            }
            messages.splice(0..0, parser.lexer.into_inner().finish());
            messages.sort_by_key(|d| d.span.start);
            proptest::prop_assert_eq!(
                statements_and_spans(&statements, &diagnostics),
                statements_and_spans(&general, &messages)
            );
        }

        #[test]
        fn never_panics_on_program_like_text(src in "[a-zA-Z0-9_ .,;:|(){}\\[\\]\"%*#+\\-/\\\\<>=!~?^&@'\n]{0,80}") {
            let _ = parse_program(&src, FileId(0));
            let _ = parse_term(&src, FileId(0));
        }

        #[test]
        fn never_panics_on_any_text(src in "\\PC{0,60}") {
            let _ = parse_program(&src, FileId(0));
            let _ = parse_term(&src, FileId(0));
        }
    }
}
