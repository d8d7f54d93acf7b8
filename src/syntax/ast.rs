//! The spanned abstract syntax tree shared by every input dialect.
//!
//! One tree serves clingo 4+, gringo 3/lparse and DLV input: dialect
//! differences are resolved by the parser (`:=` becomes [`CmpOp::Eq`], `v`
//! separates disjuncts, `1 { .. } 1` becomes two [`Guard`]s). The tree knows
//! nothing of grounding: pools, intervals and constants are still here as
//! written.

use crate::diagnostics::Span;
pub use crate::syntax::facts::Facts;

/// A term as written, before any evaluation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Term {
    pub kind: TermKind,
    pub span: Span,
}

impl Term {
    /// Whether the term or a term inside it is of a kind `selected` accepts.
    pub fn contains(&self, selected: impl Fn(&TermKind) -> bool) -> bool {
        self.find(|term| selected(&term.kind)).is_some()
    }

    /// The term itself or a term inside it that `selected` accepts, the
    /// outermost first.
    pub fn find(&self, selected: impl Fn(&Term) -> bool) -> Option<&Term> {
        self.subterms().find(|term| selected(term))
    }

    /// The term itself and every term inside it, the outermost first.
    pub fn subterms(&self) -> impl Iterator<Item = &Term> {
        let mut pending = vec![self];
        std::iter::from_fn(move || {
            let term = pending.pop()?;
            match &term.kind {
                TermKind::Function { args, .. } | TermKind::Tuple(args) | TermKind::Pool(args) => {
                    pending.extend(args)
                }
                TermKind::Interval(a, b) | TermKind::Binary(_, a, b) => {
                    pending.extend([&**a, &**b])
                }
                TermKind::Unary(_, a) => pending.push(a),
                _ => {}
            }
            Some(term)
        })
    }
}

/// The name under which DLV's `#maxint = N.` is kept among the `#const`
/// definitions: no constant a program writes can have it. `#int(X)` and
/// `#succ(X,Y)` range up to it.
pub const MAXINT: &str = "#maxint";

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TermKind {
    /// An integer literal; the parser has checked that it fits an `i32`.
    Integer(i32),
    /// A lower-case identifier with no arguments: `a`, `black`.
    Constant(String),
    /// A string literal, unescaped: `"a\"b"` is stored as `a"b`.
    String(String),
    /// A named variable: `X`, `_Tmp`.
    Variable(String),
    /// The anonymous variable `_`; every occurrence is a fresh variable.
    Anonymous,
    /// `#sup` / `#inf`.
    Supremum,
    Infimum,
    /// `f(t1, ..., tn)` with n >= 1.
    Function {
        name: String,
        args: Vec<Term>,
    },
    /// `(t1, ..., tn)`: n = 0 is `()`, n = 1 is written `(t,)`. A
    /// parenthesised term `(t)` is not a tuple: the parser returns `t`.
    Tuple(Vec<Term>),
    /// Alternatives separated by `;` — `p(1;2)`, `f(-1;0;59)`, `(a;b)`.
    /// The parser hoists an argument-level pool to the enclosing function, so
    /// `f(1,2;3)` is `Pool([f(1,2), f(3)])`.
    Pool(Vec<Term>),
    /// `lo..hi`.
    Interval(Box<Term>, Box<Term>),
    Unary(UnaryOp, Box<Term>),
    Binary(BinaryOp, Box<Term>, Box<Term>),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UnaryOp {
    /// `-t`
    Minus,
    /// `~t` (bitwise complement)
    BitNot,
    /// `|t|`
    Abs,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BinaryOp {
    Add,
    Sub,
    Mul,
    /// `/`, truncating toward zero.
    Div,
    /// `\`, the remainder of truncating division.
    Mod,
    /// `**`
    Pow,
    /// `&`
    BitAnd,
    /// `?`
    BitOr,
    /// `^`
    BitXor,
}

impl BinaryOp {
    /// clingo's spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            BinaryOp::Add => "+",
            BinaryOp::Sub => "-",
            BinaryOp::Mul => "*",
            BinaryOp::Div => "/",
            BinaryOp::Mod => "\\",
            BinaryOp::Pow => "**",
            BinaryOp::BitAnd => "&",
            BinaryOp::BitOr => "?",
            BinaryOp::BitXor => "^",
        }
    }
}

/// `=`, `==` and the old `:=` are all [`CmpOp::Eq`]; `!=` and `<>` are `Ne`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CmpOp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

impl CmpOp {
    /// Every relation.
    pub const ALL: [CmpOp; 6] = [
        CmpOp::Eq,
        CmpOp::Ne,
        CmpOp::Lt,
        CmpOp::Le,
        CmpOp::Gt,
        CmpOp::Ge,
    ];

    /// `a op b` for an `a` that compares to `b` as `order`.
    pub fn holds(self, order: std::cmp::Ordering) -> bool {
        use std::cmp::Ordering::*;
        match self {
            CmpOp::Eq => order == Equal,
            CmpOp::Ne => order != Equal,
            CmpOp::Lt => order == Less,
            CmpOp::Le => order != Greater,
            CmpOp::Gt => order == Greater,
            CmpOp::Ge => order != Less,
        }
    }

    /// `a op b` as `b op' a`.
    pub fn flip(self) -> CmpOp {
        match self {
            CmpOp::Lt => CmpOp::Gt,
            CmpOp::Le => CmpOp::Ge,
            CmpOp::Gt => CmpOp::Lt,
            CmpOp::Ge => CmpOp::Le,
            other => other,
        }
    }

    /// `not a op b` as `a op' b`.
    pub fn negate(self) -> CmpOp {
        match self {
            CmpOp::Eq => CmpOp::Ne,
            CmpOp::Ne => CmpOp::Eq,
            CmpOp::Lt => CmpOp::Ge,
            CmpOp::Le => CmpOp::Gt,
            CmpOp::Gt => CmpOp::Le,
            CmpOp::Ge => CmpOp::Lt,
        }
    }

    /// clingo's spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            CmpOp::Eq => "=",
            CmpOp::Ne => "!=",
            CmpOp::Lt => "<",
            CmpOp::Le => "<=",
            CmpOp::Gt => ">",
            CmpOp::Ge => ">=",
        }
    }
}

/// A predicate atom: `p(X)`, `-p(X)` (strong negation), or a pool of atoms.
///
/// `term` is a [`TermKind::Constant`], a [`TermKind::Function`], or a
/// [`TermKind::Pool`] of those.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Atom {
    /// True for classical (strong) negation `-p(..)`.
    pub strong_negation: bool,
    pub term: Term,
    pub span: Span,
}

/// Default negation in front of a body literal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Naf {
    Positive,
    Not,
    NotNot,
}

/// A literal that may stand in a body or a condition.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Literal {
    Atom {
        naf: Naf,
        atom: Atom,
    },
    /// `lhs op rhs`; `X = expr`, `X := expr` and `X == expr` are all `Eq`.
    Comparison {
        naf: Naf,
        lhs: Term,
        op: CmpOp,
        rhs: Term,
        span: Span,
    },
    /// `#true` / `#false`, possibly negated.
    Boolean {
        naf: Naf,
        value: bool,
        span: Span,
    },
}

/// A body element: a literal, or a conditional literal `l : c1, .., cn`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BodyElement {
    Literal(Literal),
    Conditional {
        literal: Literal,
        condition: Vec<Literal>,
        span: Span,
    },
    /// `#count{..} > 2`, `N = #sum{..}`, `1 { a; b } 2`, `2 [a=1, b=2]`.
    Aggregate(Aggregate),
    /// A construct the parser recognises but asp2sat does not support yet
    /// (theory atoms, DLV built-ins). Kept so the grounder can name it in a
    /// located error instead of the parser failing on it.
    Unsupported {
        what: String,
        span: Span,
    },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AggregateFunction {
    Count,
    Sum,
    /// `#sum+`: the sum of the positive weights only.
    SumPlus,
    Min,
    Max,
}

impl AggregateFunction {
    /// Whether an element whose tuple is `terms` counts nothing: every
    /// function but `#count` reads the tuple's first term as the weight or
    /// value, and ignores the empty tuple (clingo's `empty tuple
    /// ignored`).
    pub fn ignores_tuple(self, terms: &[Term]) -> bool {
        terms.is_empty() && self != AggregateFunction::Count
    }
}

/// `t1, .., tk : l1, .., lm`: the tuple `(t1, .., tk)`, ended as
/// `tuple_end` says, is in the aggregate's set when the condition holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AggregateElement {
    pub terms: Vec<Term>,
    pub condition: Vec<Literal>,
    pub tuple_end: TupleEnd,
    pub span: Span,
}

/// What the grounder adds to the end of an element's tuple.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TupleEnd {
    /// Nothing: `#count{ X : p(X) }`.
    Nothing,
    /// The first condition literal itself. The dialects' literal sets are
    /// written in this form: lparse's `a = 2` is `2 : a` and a body set's
    /// `l : c` is `: l, c`. The literal's atom and its negation end the
    /// tuple, so that `a` and `not a` are two tuples, and `p(1..2)` two
    /// elements, not four; a comparison also counts once per element, as in
    /// clingo (`{2>1; 2>1}` counts two).
    Literal,
    /// The number of the copy among those the element's pools expand it to:
    /// a comparison chain in a literal set or a choice counts once per copy,
    /// as in clingo (`{ 1 < (2;2) < 3 }` counts two).
    PoolCopy,
}

/// A body aggregate with its guards, normalised as [`Guard`]s are: the
/// aggregate is on the left, `1 <= #count{..}` is stored as `>= 1`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Aggregate {
    pub naf: Naf,
    pub function: AggregateFunction,
    pub elements: Vec<AggregateElement>,
    pub guards: Vec<Guard>,
    pub span: Span,
}

/// `count op term`, normalised so that the count is always on the left:
/// `1 <= { .. }` is stored as `Guard { op: Ge, .. }`, and the lparse form
/// `1 { .. } 2` as two guards `>= 1` and `<= 2`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Guard {
    pub op: CmpOp,
    pub term: Term,
}

/// `atom : condition` inside a choice head.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChoiceElement {
    /// `not a` chooses nothing; it counts towards the bounds when `a` does
    /// not hold.
    pub naf: Naf,
    pub atom: Atom,
    pub condition: Vec<Literal>,
    pub span: Span,
}

/// A disjunct of a disjunctive head, possibly conditional and negated:
/// `p(X) : q(X)`, `not p(X)`, `not not p(X)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HeadLiteral {
    pub naf: Naf,
    pub atom: Atom,
    pub condition: Vec<Literal>,
    pub span: Span,
}

/// `t1, .., tk : a : c1, .., cm` in a head aggregate: the atom `a` may be
/// chosen when the condition holds, and then contributes the tuple.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HeadAggregateElement {
    pub terms: Vec<Term>,
    /// `not a` counts when `a` does not hold, and chooses nothing.
    pub naf: Naf,
    pub atom: Atom,
    pub condition: Vec<Literal>,
    /// lparse's weighted atom `a = w`: the tuple is `w` and the atom, as in
    /// [`AggregateElement::tuple_end`].
    pub tuple_end: TupleEnd,
    pub span: Span,
}

/// A choice element as an element of the head aggregate counting the
/// choice's literals: `{ a; not b } 1` is `#count{ a; not b } 1`.
impl From<ChoiceElement> for HeadAggregateElement {
    fn from(element: ChoiceElement) -> Self {
        HeadAggregateElement {
            terms: Vec::new(),
            naf: element.naf,
            atom: element.atom,
            condition: element.condition,
            tuple_end: TupleEnd::Literal,
            span: element.span,
        }
    }
}

/// A comparison as a disjunct of a head: `X < 3` in `p(X) ; X < 3 :- q(X).`
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HeadComparison {
    pub lhs: Term,
    pub op: CmpOp,
    pub rhs: Term,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Head {
    /// An integrity constraint: `:- body.` (also a `#false` head).
    Constraint,
    /// A disjunction with comparisons among its disjuncts (`X = Y :-
    /// body.`, `q(t+1) ; t < 3.`): when the body holds, a comparison holds
    /// or one of the `disjuncts` (possibly none) does.
    Comparison {
        comparisons: Vec<HeadComparison>,
        disjuncts: Vec<HeadLiteral>,
    },
    /// One or more disjuncts separated by `|`, `;` or DLV's `v`. A normal
    /// rule or fact has exactly one unconditional disjunct.
    Disjunction(Vec<HeadLiteral>),
    /// `{ e1; ..; en }` with zero, one or two guards. Elements are separated by
    /// `;` (clingo) or `,` (lparse), both accepted.
    Choice {
        guards: Vec<Guard>,
        elements: Vec<ChoiceElement>,
        span: Span,
    },
    /// `#count{ X : p(X) : q(X) } = 1`, lparse's `1 [a=2, b=3] 2`.
    Aggregate {
        function: AggregateFunction,
        elements: Vec<HeadAggregateElement>,
        guards: Vec<Guard>,
        span: Span,
    },
}

/// `name/arity`, with an optional `-` for strongly negated predicates.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Signature {
    pub strong_negation: bool,
    pub name: String,
    pub arity: usize,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StatementKind {
    /// `head :- body.`, a fact `head.`, or a constraint `:- body.`.
    Rule { head: Head, body: Vec<BodyElement> },
    /// Consecutive facts of numbers, constants, strings, functions and
    /// tuples (`f(1,a). g("s",(2,3)).`), stored flat; each is also
    /// available as its [`StatementKind::Rule`] ([`Facts::statement`]).
    Facts(Facts),
    /// `#show p/n.`
    ShowSignature(Signature),
    /// `#show.` — hide every atom; only `#show t : body.` terms are shown.
    ShowNothing,
    /// `#show t : body.` (the body may be empty: `#show t.`)
    ShowTerm { term: Term, body: Vec<BodyElement> },
    /// gringo 3's `#hide.` (`None`) and `#hide p/n.`
    Hide(Option<Signature>),
    /// `#defined p/n.`: the predicate may have no rules; no message for it.
    Defined(Signature),
    /// `#const name = value.`, with clingo's `[override]` (`overriding`: it
    /// takes precedence over the program's other definitions, as `-c` does)
    /// or `[default]` (the same as none).
    Const {
        name: String,
        value: Term,
        overriding: bool,
    },
    /// `#include "file".` — resolved by the command line, which does the I/O.
    /// `#include <name>.` (`library`) names one of clingo's built-in files.
    Include { path: String, library: bool },
    /// `#program name(p1, .., pk).` starts a program part (gringo 3's
    /// `#base.`, `#cumulative t.` and `#volatile t.` too); its parameters
    /// are constants bound when the part is grounded.
    Program { name: String, params: Vec<String> },
    /// `#minimize{ .. }.`, `#maximize{ .. }.` (`maximize`), or a weak
    /// constraint `:~ body. [w@p, t..]` (one element).
    Optimize {
        maximize: bool,
        elements: Vec<OptimizeElement>,
    },
    /// `#external a : body. [value]`: in a single run the atom is false
    /// unless derived, true with the value `true` and free with `free`.
    External {
        atom: Atom,
        body: Vec<BodyElement>,
        value: Option<Term>,
    },
    /// `#project a : body.` and `#project p/n.`: the atoms `--project`
    /// projects the answer sets onto.
    Project(ProjectTarget),
    /// `#edge (u, v) : body.`: the edges whose bodies hold form an acyclic
    /// graph. `pair` is the tuple `(u, v)`, possibly a pool of tuples.
    Edge { pair: Term, body: Vec<BodyElement> },
    /// `#heuristic a : body. [w@p, m]`: accepted and without effect, as in
    /// clingo without `--heuristic=Domain`; its atoms still occur in the
    /// program (for the info on `#show p/n.` without atoms), and the terms
    /// `w`, `p` and `m` must be safe.
    Heuristic {
        atom: Atom,
        body: Vec<BodyElement>,
        weight: Term,
        priority: Option<Term>,
        modifier: Term,
    },
    /// A statement the parser recognises but asp2sat does not support yet
    /// (`#script`, theory atoms, ...).
    Unsupported { what: String },
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ProjectTarget {
    Atom { atom: Atom, body: Vec<BodyElement> },
    Signature(Signature),
}

/// A cost tuple `weight@priority, terms` under a condition: an element of
/// `#minimize`/`#maximize`, or a weak constraint with its body. lparse's
/// weighted literal `a = 2` has the literal's atom and polarity among its
/// terms, so that distinct literals are distinct tuples.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OptimizeElement {
    pub weight: Term,
    /// `None` when omitted: priority 0 (level 1 in DLV's `[w:]`).
    pub priority: Option<Term>,
    pub terms: Vec<Term>,
    pub condition: Vec<BodyElement>,
    /// DLV's `[w:l]`: every ground instance of the body counts, as if the
    /// body's variables were in the tuple.
    pub per_instance: bool,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Statement {
    pub kind: StatementKind,
    /// The whole statement including its final `.`.
    pub span: Span,
}
