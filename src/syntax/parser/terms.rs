//! Terms: numbers, constants, strings, variables, functions, tuples,
//! pools, intervals, `|t|` and the arithmetic operators, by operator
//! precedence with explicit stacks (as gringo binds them).
//!
//! Invariants: a pool inside a function's arguments is hoisted to the
//! function (`f(1;2)` is the pool `f(1);f(2)`); `-` right before an
//! integer literal is folded into it; nesting counts against
//! [`MAX_DEPTH`] and operator trees are at most [`MAX_OPERATOR_DEPTH`]
//! deep, since later stages walk terms recursively.

use super::lexer::{K, Token, literal_value, unescape};
use super::{Fail, MAX_DEPTH, PResult, Parser};
use crate::diagnostics::Diagnostic;
use crate::syntax::ast::{BinaryOp, Term, TermKind, UnaryOp};

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

/// gringo 3's operators written as directives, infix (`X #mod 3`) or
/// called (`#mod(X, 3)`): the token of clingo's operator each spells.
fn gringo3_operator(name: &str) -> Option<K> {
    Some(match name {
        "#mod" => K::Backslash,
        "#div" => K::Slash,
        "#pow" => K::Pow,
        _ => return None,
    })
}

/// Whether `name(` is a call of gringo 3's: an operator, or `#abs(t)`.
fn gringo3_call(name: &str) -> bool {
    name == "#abs" || gringo3_operator(name).is_some()
}

/// gringo 3's arguments of `f(a, b;c, d)`: `;` pools the terms beside it
/// (`f(a, (b;c), d)`), where clingo pools the argument lists around it.
// Kept out of `function`, whose frame every nested argument list adds.
#[inline(never)]
fn pooled_arguments(groups: Vec<Group>) -> Vec<Term> {
    let mut args: Vec<Term> = Vec::new();
    // The last argument is the pool the `;` before it made (`a;b;c`).
    let mut pool_open = false;
    for (index, group) in groups.into_iter().enumerate() {
        let mut terms = group.terms.into_iter();
        if index > 0 {
            let first = terms.next().expect("a group with terms");
            let last = args.pop().expect("an argument before `;`");
            let span = last.span.to(first.span);
            let alternatives = match last.kind {
                TermKind::Pool(mut alternatives) if pool_open => {
                    alternatives.push(first);
                    alternatives
                }
                _ => vec![last, first],
            };
            args.push(Term {
                kind: TermKind::Pool(alternatives),
                span,
            });
            pool_open = true;
        }
        if terms.len() > 0 {
            args.extend(terms);
            pool_open = false;
        }
    }
    args
}

/// One `;`-separated group of an argument list or tuple.
struct Group {
    pub(super) terms: Vec<Term>,
    pub(super) trailing_comma: bool,
    pub(super) start: usize,
    pub(super) end: usize,
}

impl Parser<'_> {
    pub(super) fn term_starts(&self) -> bool {
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
            K::Directive => {
                self.is_directive(&["#sup", "#supremum", "#inf", "#infimum"])
                    || (gringo3_call(self.text(self.tok()))
                        && self.peek_at(self.pos + 1) == K::LParen)
            }
            _ => false,
        }
    }

    /// A term with binary operators, parsed by operator precedence with
    /// explicit stacks (no recursion per operator). The tree it builds is
    /// at most [`MAX_OPERATOR_DEPTH`] deep: every later stage walks terms
    /// recursively.
    pub(super) fn term(&mut self) -> PResult<Term> {
        let first = self.unary()?;
        let mut operands = vec![(term_depth(&first), first)];
        let mut operators: Vec<(Infix, u8)> = Vec::new();
        while let Some((op, precedence, right)) = self.infix_ahead() {
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

    /// The infix operator ahead, if any.
    fn infix_ahead(&self) -> Option<(Infix, u8, bool)> {
        match self.peek() {
            K::Directive => {
                let kind = gringo3_operator(self.text(self.tok()))?;
                self.gringo3_construct();
                infix(kind)
            }
            kind => infix(kind),
        }
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
    pub(super) fn unary(&mut self) -> PResult<Term> {
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

    pub(super) fn integer(&self, token: Token, negative: bool, start: usize) -> Term {
        let value = self.integer_value(token, negative);
        self.term_at(TermKind::Integer(value), start, token.end)
    }

    /// The value of an integer literal, negated when `negative` (in
    /// clingo's 32-bit arithmetic: `-2147483648` is itself).
    pub(super) fn integer_value(&self, token: Token, negative: bool) -> i32 {
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
                name if gringo3_call(name) && self.peek_at(self.pos + 1) == K::LParen => {
                    return self.operator_call(token);
                }
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
    pub(super) fn function(&mut self, name_token: Token) -> PResult<Term> {
        self.enter()?;
        self.bump(); // (
        let (groups, end) = self.groups(false)?;
        self.leave();
        let name = self.text(name_token);
        let (start, end) = (name_token.start, end);
        if self.gringo3 && groups.len() > 1 && groups.iter().all(|g| !g.terms.is_empty()) {
            let kind = TermKind::Function {
                name: name.to_owned(),
                args: pooled_arguments(groups),
            };
            return Ok(self.term_at(kind, start, end));
        }
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
    pub(super) fn parenthesised(&mut self) -> PResult<Term> {
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

    /// gringo 3's `#abs(t)`, and `#mod(a, b)`, `#div(a, b)`, `#pow(a, b)`
    /// (kept out of `primary`, whose frame every nested term adds).
    #[inline(never)]
    fn operator_call(&mut self, name: Token) -> PResult<Term> {
        self.gringo3_construct();
        self.enter()?;
        self.bump(); // the directive
        self.bump(); // (
        let first = self.term()?;
        let operator = gringo3_operator(self.text(name)).and_then(infix);
        let kind = if let Some((Infix::Binary(op), ..)) = operator {
            self.expect(K::Comma, ",")?;
            let second = self.term()?;
            TermKind::Binary(op, Box::new(first), Box::new(second))
        } else {
            TermKind::Unary(UnaryOp::Abs, Box::new(first))
        };
        let close = self.expect(K::RParen, ")")?;
        self.leave();
        Ok(self.term_at(kind, name.start, close.end))
    }

    /// `|t|`, also `|t1;t2|` (a pool inside the absolute value).
    pub(super) fn absolute(&mut self) -> PResult<Term> {
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

    use crate::diagnostics::FileId;
    use crate::syntax::parser::print::*;

    use crate::syntax::parser::{parse_program, parse_term};

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
}
