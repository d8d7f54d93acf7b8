//! The fast path for plain facts: `p(1,a,"s",f(b)).` read token by token
//! straight into a [`FactsBuilder`] table, without an AST.
//!
//! Invariant: a fact this path reads is the statement the general path
//! ([`Parser::statement`]) reads, spans included, and anything it does not
//! read (tuples, operators, pools, `p()`, nesting deeper than
//! [`MAX_PLAIN_DEPTH`]) leaves the position and the table as they were.
//! The property test below checks this on random fact-like text.

use super::Parser;
use super::lexer::{K, unescape};
use crate::syntax::facts::{FactTerm, FactsBuilder};

/// How deep [`Parser::plain_fact`] nests functions; deeper ones are left to
/// the parser's general path, which reports what is too deep.
const MAX_PLAIN_DEPTH: usize = 64;

impl Parser<'_> {
    /// Reads a fact that [`Facts`](crate::syntax::ast::Facts) holds straight
    /// into `facts`, without its AST: `p(1,-2,a,"s",f(b)).` or `-p.`, the
    /// `.` right after the atom. Anything else (tuples, operators, pools,
    /// `p()`, deep nesting) leaves the position and `facts` as they were,
    /// for [`Self::statement`], which reads such a fact to the same entry
    /// of `facts`.
    pub(super) fn plain_fact(&mut self, facts: &mut FactsBuilder) -> bool {
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
}

#[cfg(test)]
mod tests {

    use crate::diagnostics::{Diagnostic, FileId, Span};
    use crate::syntax::ast::*;
    use crate::syntax::parser::lexer::K;
    use crate::syntax::parser::print::*;
    use crate::syntax::parser::{Fail, Parser, parse_program};

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
    }
}
