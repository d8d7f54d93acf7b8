//! Text to spanned AST for clingo 4+, gringo 3/lparse and DLV input.
//!
//! Two stages: a lexer built from nom combinators ([`lexer`]) hands out
//! tokens on demand (comments, strings, `#script .. #end` and `#include
//! <file>` are handled there), and a hand-written recursive-descent parser
//! walks them. This module holds the entry points, the [`Parser`]'s cursor
//! over the tokens and its error reporting and recovery; the grammar is
//! split by construct, each an `impl Parser` of its own:
//!
//! | module | parses |
//! |---|---|
//! | [`statements`] | a statement: rules, constraints and the directives |
//! | [`heads`] | rule heads: disjunctions, choices, head aggregates, comparisons |
//! | [`bodies`] | rule bodies and body aggregates |
//! | [`aggregates`] | what body and head aggregates share: functions, elements, guards |
//! | [`literals`] | literals and conditions, and chains of comparisons |
//! | [`terms`] | terms, by operator precedence |
//! | [`optimize`] | `#minimize`, `#maximize` and weak constraints |
//! | [`dialects`] | lparse's literal sets and weighted lists, DLV's built-ins |
//! | [`plain_facts`] | the fast path for runs of plain facts |
//!
//! Invariants: binary operator chains and lists are parsed with loops, and
//! every recursive construct (parentheses, argument lists, `|t|`, unary
//! operators) counts against [`MAX_DEPTH`], so no input can overflow the
//! stack. On a syntax error the parser records a diagnostic and skips to
//! the next statement-ending `.` (the lexer already separated `..`, strings
//! and comments), so every error of a file is reported. The AST keeps
//! pools, intervals and constants as written: the parser knows nothing of
//! grounding.

mod aggregates;
mod bodies;
mod dialects;
mod heads;
mod lexer;
mod literals;
mod optimize;
mod plain_facts;
#[cfg(test)]
mod print;
mod statements;
mod terms;

use std::cell::{Cell, RefCell};

use crate::diagnostics::{Diagnostic, FileId, Span};
use crate::syntax::ast::{Statement, StatementKind, Term, TermKind};
use crate::syntax::facts::FactsBuilder;
use lexer::{K, Lexer, Token};

/// How many parentheses, argument lists, `|..|` and unary operators may nest.
const MAX_DEPTH: usize = 1024;

/// Parses one whole file, in the dialect it is written in (a program of
/// several files is read as one: see [`Dialect`]). Every syntax error is
/// reported; statements that parsed are returned even when others failed.
/// Consecutive facts that [`Facts`](crate::syntax::ast::Facts) can hold are
/// one [`StatementKind::Facts`].
pub fn parse_program(source: &str, file: FileId) -> (Vec<Statement>, Vec<Diagnostic>) {
    let read = parse_in(source, file, Dialect::Clingo);
    if read.gringo3_seen {
        return parse_in(source, file, Dialect::Gringo3).into_parts();
    }
    read.into_parts()
}

/// How a file is read. A program with a construct clingo lacks (`#hide`,
/// `#domain`, weighted lists `[ .. ]`, `#abs`, `#mod`, ..) is gringo 3's,
/// and read again as gringo 3 reads it, because forms both have mean other
/// things there: `p(1, a;b)` is `p(1,a), p(1,b)`; `p(X;Y)` in a body or
/// condition is a conjunction; `,` ends a condition, whose literals `:`
/// joins.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    Clingo,
    Gringo3,
}

/// A file's statements and messages, read in one dialect.
pub struct Parsed {
    pub statements: Vec<Statement>,
    pub diagnostics: Vec<Diagnostic>,
    /// A construct only gringo 3 and lparse have was met: the program is
    /// to be read as [`Dialect::Gringo3`].
    pub gringo3_seen: bool,
}

impl Parsed {
    fn into_parts(self) -> (Vec<Statement>, Vec<Diagnostic>) {
        (self.statements, self.diagnostics)
    }
}

/// Parses one whole file in `dialect`, as [`parse_program`] does.
pub fn parse_in(source: &str, file: FileId, dialect: Dialect) -> Parsed {
    if let Some(refused) = aspif_refused(source, file) {
        return Parsed {
            statements: Vec::new(),
            diagnostics: vec![refused],
            gringo3_seen: false,
        };
    }
    let mut parser = Parser::new(source, file);
    parser.gringo3 = dialect == Dialect::Gringo3;
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
    let gringo3_seen = parser.gringo3_seen.get();
    let mut all = parser.lexer.into_inner().finish();
    all.append(&mut diagnostics);
    all.sort_by_key(|d| d.span.start);
    Parsed {
        statements,
        diagnostics: all,
        gringo3_seen,
    }
}

/// The error for aspif input, which asp2sat does not read.
fn aspif_refused(source: &str, file: FileId) -> Option<Diagnostic> {
    let header = aspif_header(source)?;
    let message = "aspif input (clingo's ground intermediate format, a file that starts \
                   with `asp <version>`) is not supported by asp2sat yet";
    Some(Diagnostic::error(Span::new(file, 0, header.len()), message))
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

/// A failed parse: the error to report, or `None` when the lexer already
/// reported the offending token.
struct Fail(Option<Diagnostic>);

type PResult<T> = Result<T, Fail>;

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
    /// The file is read as gringo 3 reads it ([`parse_as`]).
    gringo3: bool,
    /// A construct only gringo 3 and lparse have was met
    /// ([`Parser::gringo3_construct`]).
    gringo3_seen: Cell<bool>,
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
            gringo3: false,
            gringo3_seen: Cell::new(false),
        }
    }

    /// Notes a construct that only gringo 3 and lparse have.
    fn gringo3_construct(&self) {
        self.gringo3_seen.set(true);
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
}

#[cfg(test)]
mod tests {

    use crate::diagnostics::SourceMap;
    use crate::diagnostics::{FileId, Span};
    use crate::syntax::ast::*;
    use crate::syntax::parser::print::*;

    use crate::syntax::parser::{parse_program, parse_term};

    #[test]
    fn seed_examples() {
        // One text of every seed's forms; its `#hide.` makes it gringo 3's,
        // so `f(-1;0;..)` pools the argument (one argument: the same atoms
        // as clingo's pool of argument lists), and `#show t(X) : p(X).`
        // shows the atoms `t(X)` that hold.
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
            f(pool[-1;0;59;60;119;120;179;180]).
            visline((200+X),13,(17+X),192,(17+X),1) :- f(X).
            -p(X) :- q(X), not -r(X).
            a | b | c :- d.
            #const n=3.
            #include "other.lp".
            #show t(X) : p(X), t(X).
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
    fn aspif_input_is_refused() {
        check(
            "asp 1 0 0\n1 0 1 1 0 0\n0\n",
            "error 0..9: aspif input (clingo's ground intermediate format, a file that starts with `asp <version>`) is not supported by asp2sat yet",
        );
        // `asp` is a constant otherwise.
        check("asp. asp(1). asp :- a.", "asp. asp(1). asp :- a.");
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

    proptest::proptest! {
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
