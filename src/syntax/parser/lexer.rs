//! Tokens, lexed on demand by nom combinators over a [`LocatedSpan`].
//!
//! Comments (`%`, nested `%* .. *%`, `#!` lines), strings with their
//! escapes, `#script .. #end` (one token) and the `<file>` of `#include`
//! are handled here. A token holds its kind and byte offsets only; its
//! text is read back from the source. Lexer errors are collected as
//! diagnostics and leave an `Error` token, on which the parser fails
//! silently, so each is reported once. Integer literals are read in
//! 32-bit two's complement, as clingo reads them ([`literal_value`]).

use nom::branch::alt;
use nom::bytes::complete::{tag, take_while, take_while1};
use nom::character::complete::{char, digit1, hex_digit1, oct_digit1, satisfy};
use nom::combinator::{recognize, value};
use nom::error::ErrorKind;
use nom::{IResult, Input as _, Parser as _};
use nom_locate::LocatedSpan;

use crate::diagnostics::{Diagnostic, FileId, Span};

type In<'a> = LocatedSpan<&'a str>;

/// Token kinds. Texts are recovered from the source through the span.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum K {
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
pub(super) struct Token {
    pub(super) kind: K,
    pub(super) start: usize,
    pub(super) end: usize,
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
pub(super) struct Lexer<'s> {
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
    pub(super) fn new(src: &'s str, file: FileId) -> Self {
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
    pub(super) fn token(&mut self, index: usize) -> Token {
        assert!(index >= self.first, "token {index} was forgotten");
        while index - self.first >= self.tokens.len() && !self.finished {
            self.lex_next();
        }
        self.tokens[(index - self.first).min(self.tokens.len() - 1)]
    }

    /// Drops the tokens before `index`.
    pub(super) fn forget_before(&mut self, index: usize) {
        let forgotten = index.saturating_sub(self.first).min(self.tokens.len());
        self.tokens.drain(..forgotten);
        self.first += forgotten;
    }

    /// Lexes the whole input; returns the lexer's errors.
    pub(super) fn finish(mut self) -> Vec<Diagnostic> {
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
    pub(super) fn push(&mut self, kind: K, start: usize, end: usize) {
        self.tokens.push(Token { kind, start, end });
        self.extendable_error = false;
    }

    pub(super) fn error(&mut self, start: usize, end: usize, message: impl Into<String>) {
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
    pub(super) fn string(&mut self, off: usize) -> usize {
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
    pub(super) fn script(&mut self, start: usize, after: usize) -> usize {
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
pub(super) fn unescape(text: &str) -> String {
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
pub(super) fn literal_value(text: &str) -> i32 {
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

#[cfg(test)]
mod tests {

    use crate::syntax::parser::print::*;

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
}
