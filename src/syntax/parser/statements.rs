//! Statements: rules and constraints, the directives (`#show`, `#const`,
//! `#include`, `#program`, `#external`, `#project`, `#heuristic`, `#edge`,
//! `#defined`, ..), and the statements asp2sat reads but does not
//! support, skipped to their `.` as `StatementKind::Unsupported`.
//!
//! Invariant: a statement ends at its `.` (and the modifier `[..]` after
//! it, if any); an error leaves the rest of the statement to
//! [`Parser::recover`].

use super::lexer::{K, literal_value, unescape};
use super::{Fail, PResult, Parser};
use crate::diagnostics::Diagnostic;
use crate::syntax::ast::{
    Atom, BodyElement, Head, Literal, MAXINT, Naf, ProjectTarget, Signature, Statement,
    StatementKind,
};

impl Parser<'_> {
    pub(super) fn statement(&mut self) -> PResult<Statement> {
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
    pub(super) fn finish(&mut self, start: usize, kind: StatementKind) -> PResult<Statement> {
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

    pub(super) fn rule(&mut self, start: usize) -> PResult<Statement> {
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

    pub(super) fn directive(&mut self, start: usize) -> PResult<Statement> {
        let name = self.text(self.tok());
        let unsupported = match name {
            "#show" | "#showsig" => {
                self.bump();
                let kind = if self.at(K::Dot) {
                    StatementKind::ShowNothing
                } else if self.signature_ahead() {
                    StatementKind::ShowSignature(self.signature()?)
                } else {
                    let first = self.pos;
                    let term = self.term()?;
                    let mut body = if self.eat(K::Colon).is_some() {
                        // clingo refuses an empty condition here (`#show a : .`).
                        if self.at(K::Dot) {
                            return Err(self.unexpected());
                        }
                        self.body()?
                    } else {
                        Vec::new()
                    };
                    // gringo 3 shows atoms, and only those that hold:
                    // `#show p(X) : q(X).` is clingo's `#show p(X) : q(X), p(X).`
                    if self.gringo3
                        && let Some(atom) = self.to_atom(first, term.clone())
                    {
                        let naf = Naf::Positive;
                        body.push(BodyElement::Literal(Literal::Atom { naf, atom }));
                    }
                    StatementKind::ShowTerm { term, body }
                };
                return self.finish(start, kind);
            }
            "#hide" => {
                self.gringo3_construct();
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
            "#include" => return self.include(start),
            "#program" => return self.program(start),
            "#base" | "#cumulative" | "#volatile" => {
                self.gringo3_construct();
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
            "#heuristic" => return self.heuristic(start),
            "#external" => return self.external(start),
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
            "#domain" | "#compute" | "#weight" => {
                self.gringo3_construct();
                match name {
                    "#domain" => "#domain declarations",
                    "#compute" => "#compute statements",
                    _ => "#weight declarations",
                }
            }
            "#maxint" => return self.max_int(start),
            _ => return self.rule(start),
        };
        self.bump();
        self.skip_statement(start, unsupported)
    }

    /// DLV's `#maxint = N.`: the greatest integer, kept as the constant
    /// [`MAXINT`].
    fn max_int(&mut self, start: usize) -> PResult<Statement> {
        self.bump();
        self.expect(K::Eq, "=")?;
        let value = self.term()?;
        let end = self.expect(K::Dot, ".")?.end;
        Ok(Statement {
            kind: StatementKind::Const {
                name: MAXINT.to_owned(),
                value,
                overriding: false,
            },
            span: self.span(start, end),
        })
    }

    /// `#include "file".` or `#include <file>.`
    pub(super) fn include(&mut self, start: usize) -> PResult<Statement> {
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
        self.finish(start, StatementKind::Include { path, library })
    }

    /// `#program name(p1, .., pk).`
    pub(super) fn program(&mut self, start: usize) -> PResult<Statement> {
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
        self.finish(start, StatementKind::Program { name, params })
    }

    /// `#heuristic a : body. [w@p, m]`
    pub(super) fn heuristic(&mut self, start: usize) -> PResult<Statement> {
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
        Ok(Statement {
            kind: StatementKind::Heuristic {
                atom,
                body,
                weight,
                priority,
                modifier,
            },
            span: self.span(start, end),
        })
    }

    /// `#external a : body.`, with an optional `[value]` after it.
    pub(super) fn external(&mut self, start: usize) -> PResult<Statement> {
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
        Ok(Statement {
            kind: StatementKind::External { atom, body, value },
            span: self.span(start, end),
        })
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

    pub(super) fn constant(&mut self, start: usize) -> PResult<Statement> {
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

    pub(super) fn signature(&mut self) -> PResult<Signature> {
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
}

#[cfg(test)]
mod tests {

    use crate::syntax::parser::print::*;

    #[test]
    fn directives() {
        check(
            "#show -p/1. #show p. #show -p. #show f(X) : p(X), not q. #showsig p/0.",
            "#show -p/1. #show p : . #show neg(p) : . #show f(X) : p(X), not q. #show p/0.",
        );
        // `#hide` is gringo 3's: there `#show` shows atoms that hold.
        check(
            "#show p. #show f(X) : p(X), not q. #hide p/2. #hide p(X).",
            "
            #show p : p. #show f(X) : p(X), not q, f(X). #hide p/2.
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
            ok.
            ",
            "
            #heuristic a : b. [1,true]
            #external a : b.
            #project a/1.
            #edge (a,b).
            unsupported(scripts).
            ok.
            ",
        );
    }

    #[test]
    fn dlv_maxint() {
        check("#maxint = 20. #maxint=3.", "#maxint=20. #maxint=3.");
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
}
