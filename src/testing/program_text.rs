//! A tiny syntax for ground programs, for tests: `a :- b, not c.`, `:- a.`,
//! `a | b :- c.`, choices and aggregate atoms (see [`parse`]).

use crate::diagnostics::Span;
use crate::ground::program::{
    AggregateDefinition, AggregateValue, Atom, AtomId, Body, ChoiceElement, CountBounds,
    GroundProgram, Head, Rule, WeightedElement,
};
use crate::syntax::ast::CmpOp;

/// Parses a ground program in a tiny syntax: `a :- b, not c.`, `:- a.`,
/// `a | b :- c.`, `1 { a; b : c, not d } 2 :- e.`, and aggregate atoms
/// defined as `s = #sum{ 2: a, not b | c; -1: d } >= 0 != 1.` (an element
/// is `weight: conditions` separated by `|`; `#count{ a; not b }` has
/// weight 1; `#max{ .. }` is `#inf` when empty), used in bodies by name.
/// Atoms are identifiers, numbered in order of appearance and all shown
/// except aggregate atoms.
pub(crate) fn parse(text: &str) -> GroundProgram {
    let mut program = GroundProgram::default();
    let tokens = tokenize(text);
    let mut p = Parser {
        tokens,
        pos: 0,
        program: &mut program,
    };
    while p.peek().is_some() {
        p.statement();
    }
    program
}

pub(crate) fn tokenize(text: &str) -> Vec<String> {
    let mut tokens = Vec::new();
    let chars: Vec<char> = text.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c.is_whitespace() {
            i += 1;
        } else if c.is_alphanumeric() || c == '_' {
            let start = i;
            while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            tokens.push(chars[start..i].iter().collect());
        } else if matches!(
            (c, chars.get(i + 1)),
            (':', Some('-')) | ('<' | '>' | '!', Some('='))
        ) {
            tokens.push(chars[i..i + 2].iter().collect());
            i += 2;
        } else {
            tokens.push(c.to_string());
            i += 1;
        }
    }
    tokens
}

pub(crate) struct Parser<'a> {
    tokens: Vec<String>,
    pos: usize,
    program: &'a mut GroundProgram,
}

impl Parser<'_> {
    fn peek(&self) -> Option<&str> {
        self.tokens.get(self.pos).map(String::as_str)
    }

    fn next(&mut self) -> String {
        let token = self.tokens[self.pos].clone();
        self.pos += 1;
        token
    }

    fn expect(&mut self, token: &str) {
        let got = self.next();
        assert_eq!(got, token, "test program syntax");
    }

    fn atom(&mut self) -> AtomId {
        let name = self.next();
        assert!(
            name.chars().next().unwrap().is_alphabetic(),
            "atom expected, got {name}"
        );
        atom_named(self.program, &name)
    }

    fn statement(&mut self) {
        if self.tokens.get(self.pos + 1).is_some_and(|t| t == "=") {
            self.aggregate_definition();
            return;
        }
        let head = match self.peek() {
            Some(":-") => Head::Constraint,
            Some("{") => self.choice(None),
            Some(t) if t.chars().all(|c| c.is_ascii_digit()) => {
                let lower = self.next().parse().unwrap();
                self.choice(Some(lower))
            }
            _ => {
                let mut heads = vec![self.atom()];
                while self.peek() == Some("|") {
                    self.next();
                    heads.push(self.atom());
                }
                if heads.len() == 1 {
                    Head::Atom(heads[0])
                } else {
                    Head::Disjunction(heads)
                }
            }
        };
        let body = if self.peek() == Some(":-") {
            self.next();
            self.body(&["."])
        } else {
            Body::default()
        };
        self.expect(".");
        self.program.rules.push(Rule {
            head,
            body,
            origin: Span::default(),
        });
    }

    fn choice(&mut self, lower: Option<u32>) -> Head {
        self.expect("{");
        let mut elements = Vec::new();
        while self.peek() != Some("}") {
            let atom = self.atom();
            let condition = if self.peek() == Some(":") {
                self.next();
                self.body(&[";", "}"])
            } else {
                Body::default()
            };
            elements.push(ChoiceElement {
                value: atom,
                conditions: vec![condition],
            });
            if self.peek() == Some(";") {
                self.next();
            }
        }
        self.expect("}");
        let upper = match self.peek() {
            Some(t) if t.chars().all(|c| c.is_ascii_digit()) => Some(self.next().parse().unwrap()),
            _ => None,
        };
        let bounds = CountBounds {
            lower: lower.unwrap_or(0),
            upper: upper.unwrap_or(CountBounds::UNBOUNDED),
        };
        Head::choice(elements, bounds)
    }

    fn number(&mut self) -> i64 {
        let negative = self.peek() == Some("-");
        if negative {
            self.next();
        }
        let magnitude: i64 = self.next().parse().expect("number");
        if negative { -magnitude } else { magnitude }
    }

    fn aggregate_definition(&mut self) {
        let atom = self.atom();
        self.program.atoms[atom.index()].shown = false;
        self.expect("=");
        self.expect("#");
        let value = match self.next().as_str() {
            "sum" | "count" => AggregateValue::Sum,
            "max" => AggregateValue::Max { empty: i64::MIN },
            other => panic!("unknown aggregate #{other}"),
        };
        self.expect("{");
        let mut elements = Vec::new();
        while self.peek() != Some("}") {
            let weighted =
                self.tokens.get(self.pos + 1).is_some_and(|t| t == ":") || self.peek() == Some("-");
            let weight = if weighted {
                let weight = self.number();
                self.expect(":");
                weight
            } else {
                1
            };
            let mut conditions = vec![self.body(&["|", ";", "}"])];
            while self.peek() == Some("|") {
                self.next();
                conditions.push(self.body(&["|", ";", "}"]));
            }
            elements.push(WeightedElement {
                value: weight,
                conditions,
            });
            if self.peek() == Some(";") {
                self.next();
            }
        }
        self.expect("}");
        let mut guards = Vec::new();
        while self.peek() != Some(".") {
            let op = self.next();
            let ops = CmpOp::ALL;
            let op = *ops.iter().find(|o| o.as_str() == op).expect("comparison");
            guards.push((op, self.number()));
        }
        self.expect(".");
        self.program.aggregates.push(AggregateDefinition {
            atom,
            value,
            elements: elements.into(),
            guards,
            origin: Span::default(),
        });
    }

    fn body(&mut self, end: &[&str]) -> Body {
        let (mut pos, mut neg) = (Vec::new(), Vec::new());
        while !end.contains(&self.peek().unwrap()) {
            if self.peek() == Some("not") {
                self.next();
                neg.push(self.atom());
            } else {
                pos.push(self.atom());
            }
            if self.peek() == Some(",") {
                self.next();
            }
        }
        Body::new(pos, neg)
    }
}

/// The atom with this name, added (shown) if it is new.
pub(crate) fn atom_named(program: &mut GroundProgram, name: &str) -> AtomId {
    let symbol = program.symbols.function(name, &[], false);
    if let Some(i) = program.atoms.iter().position(|a| a.symbol == symbol) {
        return AtomId(i as u32);
    }
    program.atoms.push(Atom {
        symbol,
        shown: true,
        fact: false,
    });
    AtomId(program.atoms.len() as u32 - 1)
}
