//! Test-only: the AST printed back compactly and fully parenthesised, in
//! which the parser's tests state what they expect ([`check`]).

use crate::diagnostics::{FileId, Span};
use crate::syntax::ast::{
    Aggregate, AggregateElement, AggregateFunction, Atom, BodyElement, Head, Literal, MAXINT, Naf,
    ProjectTarget, Signature, Statement, StatementKind, Term, TermKind, TupleEnd, UnaryOp,
};
use crate::syntax::parser::parse_program;
use std::fmt::Write as _;

pub(super) fn term(t: &Term) -> String {
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
        TermKind::Binary(op, a, b) => format!("({}{}{})", term(a), op.as_str(), term(b)),
    }
}

pub(super) fn terms(ts: &[Term], sep: &str) -> String {
    ts.iter().map(term).collect::<Vec<_>>().join(sep)
}

pub(super) fn atom(a: &Atom) -> String {
    format!(
        "{}{}",
        if a.strong_negation { "-" } else { "" },
        term(&a.term)
    )
}

pub(super) fn naf(n: Naf) -> &'static str {
    match n {
        Naf::Positive => "",
        Naf::Not => "not ",
        Naf::NotNot => "not not ",
    }
}

pub(super) fn literal(l: &Literal) -> String {
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

pub(super) fn condition(c: &[Literal]) -> String {
    if c.is_empty() {
        String::new()
    } else {
        format!(":{}", c.iter().map(literal).collect::<Vec<_>>().join(","))
    }
}

pub(super) fn body(b: &[BodyElement]) -> String {
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

pub(super) fn aggregate(a: &Aggregate) -> String {
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

pub(super) fn signature(s: &Signature) -> String {
    let neg = if s.strong_negation { "-" } else { "" };
    format!("{neg}{}/{}", s.name, s.arity)
}

/// A rule's head; empty for a constraint.
fn head_text(h: &Head) -> String {
    match h {
        Head::Constraint => String::new(),
        Head::Comparison {
            comparisons,
            disjuncts,
        } => disjuncts
            .iter()
            .map(|l| format!("{}{}{}", naf(l.naf), atom(&l.atom), condition(&l.condition)))
            .chain(
                comparisons
                    .iter()
                    .map(|c| format!("{}{}{}", term(&c.lhs), c.op.as_str(), term(&c.rhs))),
            )
            .collect::<Vec<_>>()
            .join(" | "),
        Head::Disjunction(lits) => lits
            .iter()
            .map(|l| format!("{}{}{}", naf(l.naf), atom(&l.atom), condition(&l.condition)))
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
                .map(|e| format!("{}{}{}", naf(e.naf), atom(&e.atom), condition(&e.condition)))
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
    }
}

pub(super) fn statement(s: &Statement) -> String {
    match &s.kind {
        StatementKind::Facts(facts) => facts
            .statements(s.span.file)
            .map(|fact| statement(&fact))
            .collect::<Vec<_>>()
            .join("\n"),
        StatementKind::Rule { head, body: b } => {
            let head = head_text(head);
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
            match name.as_str() {
                MAXINT => format!("#maxint={}.", term(value)),
                _ => format!("#const {name}={}.{flag}", term(value)),
            }
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
                    let terms: String = e.terms.iter().map(|t| format!(",{}", term(t))).collect();
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
pub(super) fn render(input: &str) -> String {
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
pub(super) fn check(input: &str, expect: &str) {
    let actual = render(input);
    let normalise = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ");
    assert_eq!(
        normalise(&actual),
        normalise(expect),
        "\ninput: {input}\nactual:\n{actual}"
    );
}
