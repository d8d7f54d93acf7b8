//! Pools: every pool-free version of a term, atom, literal, condition or
//! aggregate, in clingo's order. Pools are written syntax (`p(1;2)`,
//! `(a;b)+1`, pooled guards); what an alternative stands for is the
//! reader's to say: clingo copies a rule for each pool of its body, and
//! gringo 3 conjoins a body's pooled atom (the parser's gringo 3 reading).

use crate::syntax::ast::{self, Atom, Literal, Term, TermKind, TupleEnd};

pub fn product<T: Clone>(prefixes: &[Vec<T>], alternatives: &[T]) -> Vec<Vec<T>> {
    let mut out = Vec::with_capacity(prefixes.len() * alternatives.len());
    for prefix in prefixes {
        for alt in alternatives {
            let mut v = prefix.clone();
            v.push(alt.clone());
            out.push(v);
        }
    }
    out
}

/// Every pool-free version of a term. A term without pools is returned as
/// it is, so a long term costs one walk, not one copy per level.
pub fn unpool_term(term: &Term) -> Vec<Term> {
    if contains_pool(term) {
        unpool_pooled(term)
    } else {
        vec![term.clone()]
    }
}

/// [`unpool_term`] below the pool check: the alternatives of the children
/// are moved into the results, never copied level by level, so a long
/// chain over a pool (`(a;b)+1+…+1`) stays linear.
pub fn unpool_pooled(term: &Term) -> Vec<Term> {
    let rebuild = |kind: TermKind| Term {
        kind,
        span: term.span,
    };
    let pair = |a: &Term, b: &Term, f: &dyn Fn(Box<Term>, Box<Term>) -> TermKind| {
        product_moved(unpool_pooled(a), unpool_pooled(b), |a, b| {
            rebuild(f(Box::new(a), Box::new(b)))
        })
    };
    match &term.kind {
        TermKind::Pool(alternatives) => alternatives.iter().flat_map(unpool_pooled).collect(),
        TermKind::Function { name, args } => unpool_list(args)
            .into_iter()
            .map(|args| {
                rebuild(TermKind::Function {
                    name: name.clone(),
                    args,
                })
            })
            .collect(),
        TermKind::Tuple(args) => unpool_list(args)
            .into_iter()
            .map(|args| rebuild(TermKind::Tuple(args)))
            .collect(),
        TermKind::Interval(lo, hi) => pair(lo, hi, &TermKind::Interval),
        TermKind::Binary(op, lhs, rhs) => pair(lhs, rhs, &|l, r| TermKind::Binary(*op, l, r)),
        TermKind::Unary(op, arg) => unpool_pooled(arg)
            .into_iter()
            .map(|a| rebuild(TermKind::Unary(*op, Box::new(a))))
            .collect(),
        _ => vec![term.clone()],
    }
}

/// `f(x, y)` for every pair, each `x` moved into its last pair and each `y`
/// into the pairs of the last `x`: with one alternative on a side (the
/// usual case), nothing is copied.
pub fn product_moved<T: Clone, R>(xs: Vec<T>, ys: Vec<T>, f: impl Fn(T, T) -> R) -> Vec<R> {
    let mut out = Vec::with_capacity(xs.len() * ys.len());
    let last_x = xs.len().saturating_sub(1);
    let mut ys: Vec<Option<T>> = ys.into_iter().map(Some).collect();
    for (i, x) in xs.into_iter().enumerate() {
        let mut x = Some(x);
        let last_y = ys.len().saturating_sub(1);
        for (j, y) in ys.iter_mut().enumerate() {
            let x = if j == last_y { x.take() } else { x.clone() };
            let y = if i == last_x { y.take() } else { y.clone() };
            out.push(f(x.expect("moved last"), y.expect("moved last")));
        }
    }
    out
}

/// Whether a pool occurs anywhere in `term`, found without recursion.
pub fn contains_pool(term: &Term) -> bool {
    term.contains(|kind| matches!(kind, TermKind::Pool(_)))
}

/// Whether a subterm of `term` is `Pool` or `Interval`.
pub fn contains_pool_or_interval(term: &Term) -> bool {
    term.contains(|kind| matches!(kind, TermKind::Pool(_) | TermKind::Interval(..)))
}

pub fn unpool_list(terms: &[Term]) -> Vec<Vec<Term>> {
    let mut lists = vec![Vec::with_capacity(terms.len())];
    for term in terms {
        lists = product(&lists, &unpool_term(term));
    }
    lists
}

pub fn unpool_atom(atom: &Atom) -> Vec<Atom> {
    unpool_term(&atom.term)
        .into_iter()
        .map(|term| Atom {
            strong_negation: atom.strong_negation,
            term,
            span: atom.span,
        })
        .collect()
}

pub fn unpool_literal(literal: &Literal) -> Vec<Literal> {
    match literal {
        Literal::Atom { naf, atom } => unpool_atom(atom)
            .into_iter()
            .map(|atom| Literal::Atom { naf: *naf, atom })
            .collect(),
        Literal::Comparison {
            naf,
            lhs,
            op,
            rhs,
            span,
        } => unpool_list(&[lhs.clone(), rhs.clone()])
            .into_iter()
            .map(|mut v| {
                let rhs = v.pop().expect("two terms");
                let lhs = v.pop().expect("two terms");
                Literal::Comparison {
                    naf: *naf,
                    lhs,
                    op: *op,
                    rhs,
                    span: *span,
                }
            })
            .collect(),
        Literal::Boolean { .. } => vec![literal.clone()],
    }
}

/// Every pool-free version of a condition.
pub fn unpool_condition(condition: &[Literal]) -> Vec<Vec<Literal>> {
    let mut conditions = vec![Vec::new()];
    for literal in condition {
        conditions = product(&conditions, &unpool_literal(literal));
    }
    conditions
}

/// Every pool-free version of an aggregate: pools in guards give several
/// aggregates (rule copies), pools in elements give several elements.
pub fn unpool_aggregate(aggregate: &ast::Aggregate) -> Vec<ast::Aggregate> {
    let mut elements = Vec::new();
    for element in &aggregate.elements {
        let conditions = unpool_condition(&element.condition);
        let mut copy = 0;
        for terms in unpool_list(&element.terms) {
            for condition in &conditions {
                let mut terms = terms.clone();
                if element.tuple_end == TupleEnd::PoolCopy {
                    terms.push(Term {
                        kind: TermKind::Integer(copy),
                        span: element.span,
                    });
                    copy += 1;
                }
                elements.push(ast::AggregateElement {
                    terms,
                    condition: condition.clone(),
                    tuple_end: element.tuple_end,
                    span: element.span,
                });
            }
        }
    }
    unpool_guards(&aggregate.guards)
        .into_iter()
        .map(|guards| ast::Aggregate {
            guards,
            elements: elements.clone(),
            ..aggregate.clone()
        })
        .collect()
}

/// Every combination of the alternatives of pooled guards (`(1;2) { .. }`
/// is two rules).
pub fn unpool_guards(guards: &[ast::Guard]) -> Vec<Vec<ast::Guard>> {
    let mut guard_lists = vec![Vec::new()];
    for guard in guards {
        let alternatives: Vec<ast::Guard> = unpool_term(&guard.term)
            .into_iter()
            .map(|term| ast::Guard { op: guard.op, term })
            .collect();
        guard_lists = product(&guard_lists, &alternatives);
    }
    guard_lists
}
