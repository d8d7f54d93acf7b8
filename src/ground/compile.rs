//! AST rules to compiled rules, ready for instantiation.
//!
//! Compiling removes everything that is sugar: `#const` names are replaced by
//! their values, pools are expanded into several rules (or several choice
//! elements), intervals become binding literals `V = lo..hi` on a fresh
//! variable, anonymous variables in negative literals are projected through an
//! auxiliary predicate, and variables get dense per-rule indices. Safety is
//! checked here, with a located error per unsafe rule.

use super::eval::{CTerm, Op1, integer_binary, integer_unary};
use super::predicates::{PredId, Predicates};
use crate::diagnostics::{Diagnostic, FileId, Span};
use crate::symbols::{NameId, SymId, SymbolData, SymbolTable};
use crate::syntax::ast::{
    self, AggregateFunction, Atom, BinaryOp, BodyElement, CmpOp, Head, Literal, Naf, Term,
    TermKind, TupleEnd, UnaryOp,
};
use crate::syntax::facts::{FactTerm, Facts, NameIndex};
use rustc_hash::{FxHashMap, FxHashSet};

/// A body or condition literal over numbered variables.
#[derive(Clone, Debug)]
pub enum CLit {
    Pos(CAtom),
    Neg(CAtom),
    /// `not not a`: true when `a` is, but a negative dependency (grounded
    /// as `not a'` with `a' :- not a.`).
    NotNot(CAtom),
    Cmp(CmpOp, CTerm, CTerm),
    /// `pattern = lo..hi`: binds the pattern to each integer of the range.
    Interval(CTerm, CTerm, CTerm),
    Aggregate(Box<CAggregate>),
}

/// A body aggregate over numbered variables. Variables of the elements that
/// occur nowhere else in the rule are local to their element.
#[derive(Clone, Debug)]
pub struct CAggregate {
    /// `not` or `not not` in front of it.
    pub naf: Naf,
    pub function: AggregateFunction,
    pub elements: Vec<CAggregateElement>,
    pub guards: Vec<(CmpOp, CTerm)>,
    /// `N = #count{..}` where nothing else binds `N`: the variable the
    /// aggregate binds, once per value it can take.
    pub assigns: Option<usize>,
    /// The global variables the aggregate reads: they must be bound first.
    pub inputs: Vec<usize>,
    /// A body conditional literal `l : c`: one element per instance of `c`,
    /// with `not l` as its `unless`; it holds when no element's `c` holds
    /// without `l`. Grounding gives it the form `#sum{1,i : l; 1,i : not
    /// c_i...} >= n` over its `n` instances, where `l` stays a positive
    /// dependency (in `#count{..: c, not l} = 0` it would be a negative one,
    /// which differs when `l` is recursive).
    pub conditional: bool,
    /// A conditional literal whose condition depends on the rule's head
    /// (`a :- b : c.` with `c` depending on `a`): grounded instead as one
    /// atom per instance standing for the implication `c → b`, under which
    /// `a` is not monotone in `c`
    /// ([`super::instantiate::ImplicationAtoms`]).
    pub implication: bool,
    pub span: Span,
}

impl CAggregate {
    /// Under `not` or `not not`: its elements are no positive dependency.
    pub fn negated(&self) -> bool {
        self.naf != Naf::Positive
    }

    /// Whether an element's condition reads a predicate for which
    /// `selected` holds: positively, or also negatively with `negated`.
    pub fn reads(&self, selected: &dyn Fn(PredId) -> bool, negated: bool) -> bool {
        self.elements
            .iter()
            .flat_map(|e| &e.condition)
            .any(|l| reads(l, selected, negated))
    }

    /// Whether the literal of a conditional literal reads a predicate for
    /// which `selected` holds.
    pub fn literal_reads(&self, selected: &dyn Fn(PredId) -> bool) -> bool {
        self.elements
            .iter()
            .flat_map(|e| &e.unless)
            .any(|l| reads(l, selected, true))
    }
}

fn reads(literal: &CLit, selected: &dyn Fn(PredId) -> bool, negated: bool) -> bool {
    match literal {
        CLit::Pos(a) => selected(a.pred),
        CLit::Neg(a) | CLit::NotNot(a) => negated && selected(a.pred),
        _ => false,
    }
}

#[derive(Clone, Debug)]
pub struct CAggregateElement {
    pub terms: Vec<CTerm>,
    pub condition: Vec<CLit>,
    /// In a conditional literal `l : c` (whose element's condition is
    /// `c`): `not l` compiled, grounded once `c` is; `None` when `not l`
    /// always holds. Always `None` in other aggregates.
    pub unless: Option<CLit>,
    /// `unless` is the positive literal `l` itself, which binds variables
    /// of its own (`r :- p(X) : #true.`): as in clingo, `l` stands for the
    /// disjunction of its instances.
    pub literal_binds: bool,
    /// With `literal_binds`: the bindings of the intervals inside `l`, and
    /// the equalities that bind the arithmetic taken out of `l` (see
    /// [`separate_unbindable_arithmetic`]), evaluated after it.
    pub literal_bindings: Vec<CLit>,
    /// In a conditional literal `not not a : c`: `unless` is `not a`, and
    /// `l` holds under `not a'` with `a' :- not a.`, a negative dependency,
    /// not under `a`.
    pub literal_double_negated: bool,
}

#[derive(Clone, Debug)]
pub struct CAtom {
    pub pred: PredId,
    pub args: Vec<CTerm>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct CElement {
    pub atom: CAtom,
    pub condition: Vec<CLit>,
}

#[derive(Clone, Debug)]
pub enum CHead {
    Constraint,
    /// One atom for a normal rule; several for a disjunction, where a
    /// conditional disjunct `p(X) : q(X)` stands for the `p(X)` whose
    /// condition holds.
    Disjunction(Vec<CElement>),
    Choice {
        elements: Vec<CElement>,
        guards: Vec<(CmpOp, CTerm)>,
    },
    /// `#show t : body.`
    ShowTerm(CTerm),
    /// `#external a : body.` with the value `false` (or none): `a` is
    /// possible while grounding, as in clingo, so the rules and cost tuples
    /// that read it are kept, but no rule defines it: false unless derived.
    External(CElement),
}

#[derive(Clone, Debug)]
pub struct CRule {
    pub head: CHead,
    pub body: Vec<CLit>,
    pub num_vars: usize,
    pub span: Span,
}

impl CRule {
    /// Predicates the head defines.
    pub fn head_preds(&self) -> Vec<PredId> {
        match &self.head {
            CHead::Disjunction(disjuncts) => disjuncts.iter().map(|d| d.atom.pred).collect(),
            CHead::Choice { elements, .. } => elements.iter().map(|e| e.atom.pred).collect(),
            CHead::External(input) => vec![input.atom.pred],
            CHead::Constraint | CHead::ShowTerm(_) => Vec::new(),
        }
    }

    /// How often each variable occurs in the rule: in the body, the
    /// aggregates' elements, the head and its conditions.
    pub fn variable_uses(&self) -> Vec<usize> {
        let mut uses = vec![0usize; self.num_vars];
        let mut count = |term: &CTerm| term.for_each_var(&mut |v| uses[v] += 1);
        for literal in self.read_literals() {
            literal_terms(literal, &mut count);
            if let CLit::Aggregate(aggregate) = literal {
                for element in &aggregate.elements {
                    element.terms.iter().for_each(&mut count);
                }
            }
        }
        match &self.head {
            CHead::Constraint => {}
            CHead::ShowTerm(term) => count(term),
            CHead::External(element) => element.atom.args.iter().for_each(&mut count),
            CHead::Disjunction(elements) | CHead::Choice { elements, .. } => {
                for element in elements {
                    element.atom.args.iter().for_each(&mut count);
                }
                if let CHead::Choice { guards, .. } = &self.head {
                    guards.iter().for_each(|(_, term)| count(term));
                }
            }
        }
        uses
    }

    /// Every literal the rule reads: body, conditions of choice elements
    /// and disjuncts, and aggregate element conditions (one level:
    /// aggregates do not nest).
    pub fn read_literals(&self) -> impl Iterator<Item = &CLit> {
        let conditions: &[CElement] = match &self.head {
            CHead::Choice { elements, .. } | CHead::Disjunction(elements) => elements,
            CHead::External(element) => std::slice::from_ref(element),
            _ => &[],
        };
        let aggregated = self.body.iter().flat_map(|literal| match literal {
            CLit::Aggregate(aggregate) => aggregate
                .elements
                .iter()
                .flat_map(|e| {
                    e.condition
                        .iter()
                        .chain(&e.unless)
                        .chain(&e.literal_bindings)
                })
                .collect(),
            _ => Vec::new(),
        });
        self.body
            .iter()
            .chain(conditions.iter().flat_map(|e| e.condition.iter()))
            .chain(aggregated)
    }
}

/// The auxiliary predicate whose atoms are the cost tuples of the
/// objective: `#cost(weight, priority, terms..)`, one predicate per arity.
pub const COST_PREDICATE: &str = "#cost";

/// The auxiliary predicate of `#edge (u, v) : body.`: `#edge((u, v))` holds
/// when the edge is present.
pub const EDGE_PREDICATE: &str = "#edge";

/// The auxiliary predicate naming the atoms of `#project a : body.`:
/// `#project(a)` for each ground instance.
pub const PROJECT_PREDICATE: &str = "#project";

/// Compiles AST rules, collecting errors rather than stopping at the first.
pub struct Compiler<'a> {
    pub symbols: &'a mut SymbolTable,
    pub preds: &'a mut Predicates,
    pub consts: &'a FxHashMap<String, SymId>,
    /// The constants whose value is never defined (`#const a = a+1.`),
    /// with the span of that value: a term with one is never defined.
    pub undefined_consts: FxHashMap<String, Span>,
    /// The parameters of the program part being compiled, with their
    /// values: constants that shadow `consts`.
    pub params: Vec<(String, SymId)>,
    pub rules: Vec<CRule>,
    /// The atoms of the [`Facts`] compiled: a fact needs no rule.
    pub facts: Vec<(PredId, SymId)>,
    /// Where the first of those facts of each predicate is, for messages.
    pub fact_origins: FxHashMap<PredId, Span>,
    pub errors: Vec<Diagnostic>,
    fresh: usize,
}

/// What the names of one [`Facts`] stand for, looked up once each.
struct FactNames {
    functions: Vec<Option<NameId>>,
    constants: Vec<Option<SymId>>,
    strings: Vec<Option<SymId>>,
    /// `(name, arity, negative)` of a fact's atom and its predicate.
    predicates: Vec<(NameIndex, u16, bool, PredId)>,
}

/// What kind of rule a body belongs to, for unpooling.
enum RuleHead<'h> {
    Ast(&'h Head),
    ShowTerm(&'h Term),
}

impl<'a> Compiler<'a> {
    pub fn new(
        symbols: &'a mut SymbolTable,
        preds: &'a mut Predicates,
        consts: &'a FxHashMap<String, SymId>,
    ) -> Self {
        Compiler {
            symbols,
            preds,
            consts,
            undefined_consts: FxHashMap::default(),
            params: Vec::new(),
            rules: Vec::new(),
            facts: Vec::new(),
            fact_origins: FxHashMap::default(),
            errors: Vec::new(),
            fresh: 0,
        }
    }

    /// Interns the atoms of a run of facts of file `file` into
    /// [`Self::facts`]. Their constants are resolved as in any term.
    pub fn facts(&mut self, facts: &Facts, file: FileId) {
        let n = facts.name_count();
        let mut names = FactNames {
            functions: vec![None; n],
            constants: vec![None; n],
            strings: vec![None; n],
            predicates: Vec::new(),
        };
        let mut args = Vec::new();
        self.facts.reserve(facts.len());
        self.symbols.reserve(facts.node_count());
        for i in 0..facts.len() {
            let atom = facts.atom(i);
            let FactTerm::Function {
                name,
                arity,
                negative,
            } = atom[0]
            else {
                unreachable!("a fact's atom starts with its predicate")
            };
            let known = (names.predicates.iter())
                .find(|&&(n, a, s, _)| (n, a, s) == (name, arity, negative));
            let pred = match known {
                Some(&(.., pred)) => pred,
                None => {
                    let pred = self.preds.intern(facts.name(name), arity.into(), negative);
                    names.predicates.push((name, arity, negative, pred));
                    let origin = facts.span(i, file);
                    self.fact_origins.entry(pred).or_insert(origin);
                    pred
                }
            };
            if let Some(span) = self.undefined_in_fact(facts, atom) {
                self.operation_undefined(span);
                continue;
            }
            let mut at = 1;
            for _ in 0..arity {
                let arg = self.fact_term(facts, atom, &mut at, &mut names, &mut args);
                args.push(arg);
            }
            let name = self.function_name(facts, name, &mut names);
            let symbol = self.symbols.function_of(name, &args, negative);
            args.clear();
            self.facts.push((pred, symbol));
        }
    }

    /// The span of the value of a constant in `atom` that is never defined.
    fn undefined_in_fact(&self, facts: &Facts, atom: &[FactTerm]) -> Option<Span> {
        if self.undefined_consts.is_empty() {
            return None;
        }
        atom.iter().find_map(|term| match term {
            FactTerm::Constant(name) => self.undefined_constant(facts.name(*name)),
            _ => None,
        })
    }

    /// The term whose nodes start at `terms[*at]`; `stack` holds the
    /// arguments of the functions around it.
    fn fact_term(
        &mut self,
        facts: &Facts,
        terms: &[FactTerm],
        at: &mut usize,
        names: &mut FactNames,
        stack: &mut Vec<SymId>,
    ) -> SymId {
        let node = terms[*at];
        *at += 1;
        let (name, arity) = match node {
            FactTerm::Integer(n) => return self.symbols.number(n),
            FactTerm::Constant(name) => {
                return *names.constants[name.0 as usize]
                    .get_or_insert_with(|| self.constant(facts.name(name)));
            }
            FactTerm::String(text) => {
                return *names.strings[text.0 as usize]
                    .get_or_insert_with(|| self.symbols.string(facts.name(text)));
            }
            FactTerm::Function { name, arity, .. } => {
                (self.function_name(facts, name, names), arity)
            }
            FactTerm::Tuple { arity } => (self.symbols.name(""), arity),
        };
        let base = stack.len();
        for _ in 0..arity {
            let arg = self.fact_term(facts, terms, at, names, stack);
            stack.push(arg);
        }
        let symbol = self.symbols.function_of(name, &stack[base..], false);
        stack.truncate(base);
        symbol
    }

    fn function_name(&mut self, facts: &Facts, name: NameIndex, names: &mut FactNames) -> NameId {
        *names.functions[name.0 as usize].get_or_insert_with(|| self.symbols.name(facts.name(name)))
    }

    /// The value of the constant `name`: the part's parameter or the
    /// `#const` of that name, or else the symbol `name` itself.
    fn constant(&mut self, name: &str) -> SymId {
        match self.constant_value(name) {
            Some(value) => value,
            None => self.symbols.function(name, &[], false),
        }
    }

    /// The value of a part's parameter or a `#const` named `name`, if any.
    fn constant_value(&self, name: &str) -> Option<SymId> {
        let param = self.params.iter().find(|(p, _)| p == name);
        (param.map(|&(_, v)| v)).or_else(|| self.consts.get(name).copied())
    }

    pub fn rule(&mut self, head: &Head, body: &[BodyElement], span: Span) {
        self.compile(RuleHead::Ast(head), body, span);
    }

    /// The fact `atom.`
    pub fn fact(&mut self, atom: &ast::Atom) {
        let head = literal_head(Naf::Positive, atom.clone(), atom.span);
        self.rule(&head, &[], atom.span);
    }

    /// A cost tuple `w@p, t.. : condition` becomes the rule `#cost(w, p,
    /// t..) :- condition.`: each ground atom of `#cost` is one distinct
    /// tuple, counted when it holds ([`COST_PREDICATE`]). `#maximize`
    /// negates the weight first, so `#maximize{3:a}` and `#minimize{-3:a}`
    /// are one tuple, as in clingo.
    pub fn cost_element(&mut self, maximize: bool, element: &ast::OptimizeElement) {
        let span = element.span;
        let weight = if maximize {
            Term {
                kind: TermKind::Unary(ast::UnaryOp::Minus, Box::new(element.weight.clone())),
                span: element.weight.span,
            }
        } else {
            element.weight.clone()
        };
        let priority = element.priority.clone().unwrap_or(Term {
            kind: TermKind::Integer(0),
            span,
        });
        let mut args = vec![weight, priority];
        args.extend(element.terms.iter().cloned());
        if element.per_instance {
            let mut names = Vec::new();
            for body_element in &element.condition {
                if let BodyElement::Literal(literal) = body_element {
                    literal_variable_names(literal, &mut names);
                }
            }
            args.extend(names.into_iter().map(|name| Term {
                kind: TermKind::Variable(name),
                span,
            }));
        }
        let head = auxiliary_head(COST_PREDICATE, args, span);
        self.rule(&head, &element.condition, span);
    }

    /// `#external a : body. [value]`: with the value `true`, `a :- body.`;
    /// `free`, `{ a } :- body.`; otherwise (`false`, `release`, none) an
    /// input that is false ([`CHead::External`]): clingo in a single run.
    pub fn external(
        &mut self,
        atom: &Atom,
        body: &[BodyElement],
        value: Option<&Term>,
        span: Span,
    ) {
        let compared = |op: CmpOp, name: &str| {
            value.map(|value| {
                BodyElement::Literal(Literal::Comparison {
                    naf: Naf::Positive,
                    lhs: value.clone(),
                    op,
                    rhs: Term {
                        kind: TermKind::Constant(name.to_string()),
                        span: value.span,
                    },
                    span: value.span,
                })
            })
        };
        let valued = |op: CmpOp, names: &[&str]| {
            let mut body = body.to_vec();
            body.extend(names.iter().filter_map(|name| compared(op, name)));
            body
        };
        let choice = Head::Choice {
            guards: Vec::new(),
            elements: vec![ast::ChoiceElement {
                naf: Naf::Positive,
                atom: atom.clone(),
                condition: Vec::new(),
                span: atom.span,
            }],
            span: atom.span,
        };
        if value.is_some() {
            let fact = literal_head(Naf::Positive, atom.clone(), atom.span);
            self.rule(&fact, &valued(CmpOp::Eq, &["true"]), span);
            self.rule(&choice, &valued(CmpOp::Eq, &["free"]), span);
        }
        // The input: compiled as the choice, whose head it takes over (one
        // rule per atom of a pooled `#external p(1;2).`).
        let first = self.rules.len();
        self.rule(&choice, &valued(CmpOp::Ne, &["true", "free"]), span);
        for rule in &mut self.rules[first..] {
            if let CHead::Choice { elements, guards } = &mut rule.head
                && guards.is_empty()
                && let [element] = &mut elements[..]
            {
                rule.head = CHead::External(element.clone());
            }
        }
    }

    /// `#project a : body.` becomes `#project(a) :- a, body.`: each ground
    /// atom of it names a projected atom ([`PROJECT_PREDICATE`]).
    pub fn projected(&mut self, atom: &Atom, body: &[BodyElement], span: Span) {
        self.atom_statement(PROJECT_PREDICATE, atom, &[], body, span);
    }

    /// `#heuristic a : body. [w@p, m]` has no effect, but clingo checks its
    /// safety: `a` and the body must bind the variables of `w`, `p` and `m`.
    /// The rule `#heuristic(a, w, p, m) :- a, body.` is compiled for the
    /// check alone.
    pub fn check_heuristic(
        &mut self,
        atom: &Atom,
        body: &[BodyElement],
        modifier: &[Term],
        span: Span,
    ) {
        let (rules, facts) = (self.rules.len(), self.facts.len());
        self.atom_statement("#heuristic", atom, modifier, body, span);
        self.rules.truncate(rules);
        self.facts.truncate(facts);
    }

    /// `name(a, extra..) :- a, body.` for a statement about the atom `a`:
    /// each alternative of `a`'s pools is a statement, and each `_` in `a`
    /// one variable of the head and the body.
    fn atom_statement(
        &mut self,
        name: &str,
        atom: &Atom,
        extra: &[Term],
        body: &[BodyElement],
        span: Span,
    ) {
        for mut atom in unpool_atom(atom) {
            self.name_anonymous(&mut atom.term);
            let term = if atom.strong_negation {
                Term {
                    kind: TermKind::Unary(UnaryOp::Minus, Box::new(atom.term.clone())),
                    span: atom.span,
                }
            } else {
                atom.term.clone()
            };
            let args = std::iter::once(term).chain(extra.iter().cloned()).collect();
            let head = auxiliary_head(name, args, atom.span);
            let mut body = body.to_vec();
            body.insert(
                0,
                BodyElement::Literal(Literal::Atom {
                    naf: Naf::Positive,
                    atom: atom.clone(),
                }),
            );
            self.rule(&head, &body, span);
        }
    }

    /// `term` with each `_` a variable of its own, named as [`Self::term`]
    /// names them.
    fn name_anonymous(&mut self, term: &mut Term) {
        match &mut term.kind {
            TermKind::Anonymous => {
                self.fresh += 1;
                term.kind = TermKind::Variable(format!("#anon{}", self.fresh));
            }
            TermKind::Function { args, .. } | TermKind::Tuple(args) | TermKind::Pool(args) => {
                args.iter_mut().for_each(|a| self.name_anonymous(a))
            }
            TermKind::Interval(a, b) | TermKind::Binary(_, a, b) => {
                self.name_anonymous(a);
                self.name_anonymous(b);
            }
            TermKind::Unary(_, a) => self.name_anonymous(a),
            _ => {}
        }
    }

    /// `#edge (u, v) : body.` becomes `#edge((u, v)) :- body.`
    /// ([`EDGE_PREDICATE`]).
    pub fn edge(&mut self, pair: &Term, body: &[BodyElement], span: Span) {
        let head = auxiliary_head(EDGE_PREDICATE, vec![pair.clone()], pair.span);
        self.rule(&head, body, span);
    }

    pub fn show_term(&mut self, term: &Term, body: &[BodyElement], span: Span) {
        self.compile(RuleHead::ShowTerm(term), body, span);
    }

    fn compile(&mut self, head: RuleHead<'_>, body: &[BodyElement], span: Span) {
        // Pools in the body and in head atoms expand into rule copies; pools
        // inside an aggregate's elements into more elements.
        let mut bodies: Vec<Vec<BodyItem>> = vec![Vec::new()];
        for element in body {
            let alternatives: Vec<BodyItem> = match element {
                BodyElement::Literal(l) => unpool_literal(l)
                    .into_iter()
                    .map(BodyItem::Literal)
                    .collect(),
                BodyElement::Aggregate(a) => unpool_aggregate(a)
                    .into_iter()
                    .map(BodyItem::Aggregate)
                    .collect(),
                BodyElement::Conditional {
                    literal,
                    condition,
                    span,
                } => unpool_aggregate(&conditional_as_aggregate(literal, condition, *span))
                    .into_iter()
                    .map(BodyItem::Conditional)
                    .collect(),
                BodyElement::Unsupported { what, span } => {
                    return self.unsupported(*span, what);
                }
            };
            bodies = product(&bodies, &alternatives);
        }
        if let RuleHead::Ast(head @ (Head::Choice { guards, .. } | Head::Aggregate { guards, .. })) =
            head
            && guards.iter().any(|g| contains_pool(&g.term))
        {
            for unpooled in unpool_guards(guards) {
                let mut copy = head.clone();
                if let Head::Choice { guards, .. } | Head::Aggregate { guards, .. } = &mut copy {
                    *guards = unpooled;
                }
                self.compile(RuleHead::Ast(&copy), body, span);
            }
            return;
        }
        match head {
            RuleHead::ShowTerm(term) => {
                for term in unpool_term(term) {
                    for body in &bodies {
                        self.compile_one(RuleShape::ShowTerm(&term), body, span);
                    }
                }
            }
            RuleHead::Ast(Head::Disjunction(disjuncts))
                if disjuncts.iter().any(|d| d.naf != Naf::Positive) =>
            {
                // A negated disjunct moves into the body negated once more:
                // `a | not b :- B.` is `a :- B, not not b.` (the reduct of
                // `not b` depends on the answer set alone).
                let mut moved = body.to_vec();
                let mut positive = Vec::new();
                for disjunct in disjuncts {
                    if disjunct.naf == Naf::Positive {
                        positive.push(disjunct.clone());
                        continue;
                    }
                    if !disjunct.condition.is_empty() {
                        // `not a : c` as `#conjK(V) : c`, which holds when
                        // `c` does and `a` does not.
                        positive.push(ast::HeadLiteral {
                            naf: Naf::Positive,
                            atom: self.conjunction(disjunct, body),
                            condition: disjunct.condition.clone(),
                            span: disjunct.span,
                        });
                        continue;
                    }
                    let naf = match disjunct.naf {
                        Naf::Not => Naf::NotNot,
                        _ => Naf::Not,
                    };
                    moved.push(BodyElement::Literal(atom_literal(naf, &disjunct.atom)));
                }
                let head = if positive.is_empty() {
                    Head::Constraint
                } else {
                    Head::Disjunction(positive)
                };
                self.compile(RuleHead::Ast(&head), &moved, span);
            }
            RuleHead::Ast(Head::Disjunction(disjuncts)) => {
                // `#false` (under any condition) adds nothing to a head;
                // `#true` makes the rule hold; `#true : c` holds when `c`
                // does, as a conditional disjunct of a fact `#true`.
                let named = |d: &&ast::HeadLiteral, name: &str| matches!(&d.atom.term.kind, TermKind::Constant(n) if n == name);
                if disjuncts
                    .iter()
                    .any(|d| d.condition.is_empty() && named(&d, "#true"))
                {
                    return;
                }
                let disjuncts: Vec<&ast::HeadLiteral> =
                    disjuncts.iter().filter(|d| !named(d, "#false")).collect();
                if disjuncts.is_empty() {
                    return self.compile(RuleHead::Ast(&Head::Constraint), body, span);
                }
                if let Some(truth) = disjuncts.iter().find(|d| named(d, "#true")) {
                    let fact = [ast::HeadLiteral {
                        naf: Naf::Positive,
                        atom: truth.atom.clone(),
                        condition: Vec::new(),
                        span,
                    }];
                    self.compile_one(RuleShape::Disjunction(&fact), &[], span);
                }
                // Pools in a plain disjunct make copies of the rule; in the
                // condition of a conditional one (`p(X) : q(X;Y)`), more
                // conditional disjuncts, as in a choice.
                let mut heads: Vec<Vec<ast::HeadLiteral>> = vec![Vec::new()];
                for disjunct in disjuncts {
                    if disjunct.condition.is_empty() {
                        let alternatives: Vec<ast::HeadLiteral> = unpool_atom(&disjunct.atom)
                            .into_iter()
                            .map(|atom| ast::HeadLiteral {
                                naf: Naf::Positive,
                                atom,
                                condition: Vec::new(),
                                span: disjunct.span,
                            })
                            .collect();
                        heads = product(&heads, &alternatives);
                        continue;
                    }
                    // clingo reads `p(1..2) : c` as the conjunction of the
                    // atoms under `c`: an auxiliary atom stands for it.
                    let atom = if contains_pool_or_interval(&disjunct.atom.term) {
                        self.conjunction(disjunct, body)
                    } else {
                        disjunct.atom.clone()
                    };
                    let conditions = unpool_condition(&disjunct.condition);
                    for head in &mut heads {
                        for condition in &conditions {
                            head.push(ast::HeadLiteral {
                                naf: Naf::Positive,
                                atom: atom.clone(),
                                condition: condition.clone(),
                                span: disjunct.span,
                            });
                        }
                    }
                }
                for head in &heads {
                    for body in &bodies {
                        self.compile_one(RuleShape::Disjunction(head), body, span);
                    }
                }
            }
            // `H | l op r :- B.` is `H :- B, not l op r.` (a constraint
            // when `H` is empty).
            RuleHead::Ast(Head::Comparison {
                comparisons,
                disjuncts,
            }) => {
                let mut body = body.to_vec();
                body.extend(comparisons.iter().map(|c| {
                    BodyElement::Literal(Literal::Comparison {
                        naf: Naf::Not,
                        lhs: c.lhs.clone(),
                        op: c.op,
                        rhs: c.rhs.clone(),
                        span: c.span,
                    })
                }));
                let head = if disjuncts.is_empty() {
                    Head::Constraint
                } else {
                    Head::Disjunction(disjuncts.clone())
                };
                self.compile(RuleHead::Ast(&head), &body, span);
            }
            RuleHead::Ast(Head::Constraint) => {
                for body in &bodies {
                    self.compile_one(RuleShape::Constraint, body, span);
                }
            }
            // Head aggregates and `!=` choice bounds are a choice rule and a
            // constraint with a body aggregate: `#agg{ t : a : c } op k :- B.`
            // chooses among the `a : c` and requires `#agg{ t : a, c } op k`.
            RuleHead::Ast(Head::Aggregate {
                function,
                elements,
                guards,
                span: aggregate_span,
            }) => {
                // An element whose tuple is undefined (or, in a sum, whose
                // weight is not an integer) is dropped, as clingo does: its
                // atom cannot be chosen either.
                let defined = |e: &ast::HeadAggregateElement| -> Vec<Literal> {
                    e.terms
                        .iter()
                        .enumerate()
                        .map(|(i, t)| {
                            let weight = i == 0
                                && matches!(
                                    function,
                                    AggregateFunction::Sum | AggregateFunction::SumPlus
                                );
                            let term = if weight {
                                let zero = Term {
                                    kind: TermKind::Integer(0),
                                    span: t.span,
                                };
                                Term {
                                    kind: TermKind::Binary(
                                        ast::BinaryOp::Add,
                                        Box::new(t.clone()),
                                        Box::new(zero),
                                    ),
                                    span: t.span,
                                }
                            } else {
                                t.clone()
                            };
                            is_defined(term, t.span)
                        })
                        .collect()
                };
                let choice = Head::Choice {
                    guards: Vec::new(),
                    elements: (elements.iter())
                        .filter(|e| e.naf == Naf::Positive)
                        .map(|e| ast::ChoiceElement {
                            naf: Naf::Positive,
                            atom: e.atom.clone(),
                            condition: e.condition.iter().cloned().chain(defined(e)).collect(),
                            span: e.span,
                        })
                        .collect(),
                    span: *aggregate_span,
                };
                // An undefined guard drops the instance, as in a choice
                // rule: nothing is chosen (`g = g` fails on undefined `g`).
                let mut choice_body = body.to_vec();
                choice_body.extend(
                    guards
                        .iter()
                        .map(|g| BodyElement::Literal(is_defined(g.term.clone(), g.term.span))),
                );
                self.compile(RuleHead::Ast(&choice), &choice_body, span);
                let counted = elements.iter().map(|e| {
                    (
                        e.terms.clone(),
                        e.tuple_end,
                        e.naf,
                        &e.atom,
                        &e.condition[..],
                        e.span,
                    )
                });
                if !guards.is_empty() {
                    self.require_aggregate(*function, counted, guards, *aggregate_span, body, span);
                }
            }
            // A choice with a negated element is the head aggregate counting
            // its literals: `1 { a; not b } 1` is `1 #count{ a; not b } 1`.
            RuleHead::Ast(Head::Choice {
                guards,
                elements,
                span: choice_span,
            }) if elements.iter().any(|e| e.naf != Naf::Positive) => {
                let aggregate = Head::Aggregate {
                    function: AggregateFunction::Count,
                    elements: (elements.iter().cloned())
                        .map(ast::HeadAggregateElement::from)
                        .collect(),
                    guards: guards.clone(),
                    span: *choice_span,
                };
                self.compile(RuleHead::Ast(&aggregate), body, span);
            }
            RuleHead::Ast(Head::Choice {
                guards,
                elements,
                span: choice_span,
            }) if guards.iter().any(|g| g.op == CmpOp::Ne) => {
                let (unequal, kept): (Vec<ast::Guard>, Vec<ast::Guard>) =
                    guards.iter().cloned().partition(|g| g.op == CmpOp::Ne);
                let choice = Head::Choice {
                    guards: kept,
                    elements: elements.clone(),
                    span: *choice_span,
                };
                self.compile(RuleHead::Ast(&choice), body, span);
                let counted = elements.iter().map(|e| {
                    (
                        Vec::new(),
                        TupleEnd::Literal,
                        Naf::Positive,
                        &e.atom,
                        &e.condition[..],
                        e.span,
                    )
                });
                self.require_aggregate(
                    AggregateFunction::Count,
                    counted,
                    &unequal,
                    *choice_span,
                    body,
                    span,
                );
            }
            RuleHead::Ast(Head::Choice {
                guards, elements, ..
            }) => {
                let mut expanded = Vec::new();
                for element in elements {
                    let conditions = unpool_condition(&element.condition);
                    for atom in unpool_atom(&element.atom) {
                        for condition in &conditions {
                            expanded.push(ast::ChoiceElement {
                                naf: element.naf,
                                atom: atom.clone(),
                                condition: condition.clone(),
                                span: element.span,
                            });
                        }
                    }
                }
                for body in &bodies {
                    self.compile_one(RuleShape::Choice(guards, &expanded), body, span);
                }
            }
        }
    }

    /// `:- B, not #agg{ t : a, c; .. } guards.` for the
    /// `(t, tuple_end, a, c, span)` of `elements`.
    fn require_aggregate<'e>(
        &mut self,
        function: AggregateFunction,
        elements: impl Iterator<Item = (Vec<Term>, TupleEnd, Naf, &'e Atom, &'e [Literal], Span)>,
        guards: &[ast::Guard],
        aggregate_span: Span,
        body: &[BodyElement],
        span: Span,
    ) {
        let elements = elements
            .map(
                |(terms, tuple_end, naf, atom, condition, element_span)| ast::AggregateElement {
                    terms,
                    tuple_end,
                    condition: std::iter::once(atom_literal(naf, atom))
                        .chain(condition.iter().cloned())
                        .collect(),
                    span: element_span,
                },
            )
            .collect();
        let aggregate = ast::Aggregate {
            naf: Naf::Not,
            function,
            elements,
            guards: guards.to_vec(),
            span: aggregate_span,
        };
        let mut constraint_body = body.to_vec();
        constraint_body.push(BodyElement::Aggregate(aggregate));
        self.compile(RuleHead::Ast(&Head::Constraint), &constraint_body, span);
    }

    /// Evaluates a term that must be ground, such as a `#const` value;
    /// `None` when an operation in it is never defined (`a+1`).
    pub fn ground_term(&mut self, term: &Term) -> Result<Option<SymId>, Diagnostic> {
        let mut scope = Scope::default();
        let mut bindings = Vec::new();
        match self.term(term, &mut scope, &mut bindings)? {
            CTerm::Sym(value) if bindings.is_empty() => Ok(Some(value)),
            // Ground, but not folded to a value.
            _ if bindings.is_empty() && scope.count == 0 => Ok(None),
            _ => Err(Diagnostic::error(
                term.span,
                "a constant's value must be a ground term without variables or intervals",
            )),
        }
    }

    fn unsupported(&mut self, span: Span, what: &str) {
        self.errors.push(Diagnostic::error(
            span,
            format!("{what} are not supported by asp2sat yet"),
        ));
    }

    /// Compiles one pool-free rule.
    fn compile_one(&mut self, shape: RuleShape<'_>, body: &[BodyItem], span: Span) {
        let mut scope = Scope::default();
        let mut out_body = Vec::new();
        // Body literals first: their variables, those of aggregate guards
        // and those of the head are the rule's global variables.
        for item in body {
            if let BodyItem::Literal(literal) = item {
                match self.literal(literal, &mut scope, &mut out_body) {
                    Ok(true) => {}
                    Ok(false) => return, // a literal that is always false
                    Err(e) => return self.errors.push(e),
                }
            }
        }
        let mut global_names: FxHashSet<String> = scope.names.keys().cloned().collect();
        for item in body {
            if let BodyItem::Aggregate(aggregate) | BodyItem::Conditional(aggregate) = item {
                for guard in &aggregate.guards {
                    collect_variable_names(&guard.term, &mut global_names);
                }
            }
        }
        shape.global_variable_names(&mut global_names);
        for item in body {
            if let BodyItem::Aggregate(aggregate) | BodyItem::Conditional(aggregate) = item {
                let conditional = matches!(item, BodyItem::Conditional(_));
                match self.aggregate(
                    aggregate,
                    conditional,
                    &global_names,
                    &mut scope,
                    &mut out_body,
                ) {
                    Ok(compiled) => out_body.push(CLit::Aggregate(Box::new(compiled))),
                    Err(e) => return self.errors.push(e),
                }
            }
        }
        scope.leave_element();
        resolve_assignments(&mut out_body, &mut scope);
        let head = match shape {
            RuleShape::Constraint => CHead::Constraint,
            RuleShape::ShowTerm(term) => match self.term(term, &mut scope, &mut out_body) {
                Ok(t) => CHead::ShowTerm(t),
                Err(e) => return self.errors.push(e),
            },
            RuleShape::Disjunction(disjuncts) => {
                // A head atom whose term is never defined drops the rule.
                let undefined = |d: &ast::HeadLiteral| self.undefined_operation(&d.atom.term);
                if let Some(span) = disjuncts.iter().find_map(undefined) {
                    return self.operation_undefined(span);
                }
                let mut compiled = Vec::new();
                for d in disjuncts.iter().filter(|d| d.condition.is_empty()) {
                    match self.atom(&d.atom, &mut scope, &mut out_body) {
                        Ok(atom) => compiled.push(CElement {
                            atom,
                            condition: Vec::new(),
                        }),
                        Err(e) => return self.errors.push(e),
                    }
                }
                for d in disjuncts.iter().filter(|d| !d.condition.is_empty()) {
                    match self.element(&d.atom, &d.condition, &global_names, &mut scope) {
                        Ok(Some(element)) => compiled.push(element),
                        Ok(None) => {}
                        Err(e) => return self.errors.push(e),
                    }
                }
                CHead::Disjunction(compiled)
            }
            RuleShape::Choice(guards, elements) => {
                let mut compiled_guards = Vec::new();
                for guard in guards {
                    match self.term(&guard.term, &mut scope, &mut out_body) {
                        Ok(t) => compiled_guards.push((guard.op, t)),
                        Err(e) => return self.errors.push(e),
                    }
                }
                let mut compiled = Vec::new();
                for element in elements {
                    match self.element(&element.atom, &element.condition, &global_names, &mut scope)
                    {
                        Ok(Some(element)) => compiled.push(element),
                        Ok(None) => {}
                        Err(e) => return self.errors.push(e),
                    }
                }
                CHead::Choice {
                    elements: compiled,
                    guards: compiled_guards,
                }
            }
        };
        let mut rule = CRule {
            head,
            body: out_body,
            num_vars: scope.count,
            span,
        };
        // The rule's own variables; those made up for arithmetic taken out
        // of an element's atom are the element's.
        let global: FxHashSet<usize> = scope.names.values().copied().collect();
        separate_unbindable_arithmetic(&mut rule, &mut scope);
        if let Err(errors) = check_safety(&rule, &scope, &global) {
            return self.errors.extend(errors);
        }
        self.rules.push(rule);
    }

    /// Compiles `atom : condition` (a choice element or a conditional
    /// disjunct), whose variables that are not `globals` are local to it;
    /// `None` when the condition can never hold.
    fn element(
        &mut self,
        atom: &ast::Atom,
        condition: &[Literal],
        globals: &FxHashSet<String>,
        scope: &mut Scope,
    ) -> Result<Option<CElement>, Diagnostic> {
        if let Some(span) = self.undefined_operation(&atom.term) {
            self.operation_undefined(span);
            return Ok(None);
        }
        scope.enter_element(globals);
        let mut compiled = Vec::new();
        let mut possible = true;
        for literal in condition {
            possible &= self.literal(literal, scope, &mut compiled)?;
        }
        let atom = self.atom(atom, scope, &mut compiled)?;
        Ok(possible.then_some(CElement {
            atom,
            condition: compiled,
        }))
    }

    /// Compiles a body aggregate: guards in the rule's scope, each element in
    /// a scope of its own where only `globals` are shared with the rule. In
    /// a `conditional` literal's aggregate the last literal of each
    /// element's condition is `not l`, which becomes the element's `unless`.
    fn aggregate(
        &mut self,
        aggregate: &ast::Aggregate,
        conditional: bool,
        globals: &FxHashSet<String>,
        scope: &mut Scope,
        out: &mut Vec<CLit>,
    ) -> Result<CAggregate, Diagnostic> {
        let mut guards = Vec::new();
        for guard in &aggregate.guards {
            guards.push((guard.op, self.term(&guard.term, scope, out)?));
        }
        let mut elements = Vec::new();
        for (index, element) in aggregate.elements.iter().enumerate() {
            // An element with a term never defined is left out.
            if let Some(span) = element
                .terms
                .iter()
                .find_map(|t| self.undefined_operation(t))
            {
                self.operation_undefined(span);
                continue;
            }
            scope.enter_element(globals);
            let mut condition = Vec::new();
            let mut possible = true;
            let mut literal_tuple = Vec::new();
            let mut unless = None;
            let own = if conditional {
                literal_own_variables(&element.condition, globals)
            } else {
                Vec::new()
            };
            // An interval in `l` stands for one of its values, as a variable
            // of `l`'s own would (clingo: `q(1..2) : c` holds with `q(1)`
            // alone, and not at all with an empty or undefined interval).
            let is_interval = |k: &TermKind| matches!(k, TermKind::Interval(..));
            let interval_in_literal = conditional
                && match element.condition.last() {
                    Some(Literal::Atom { atom, .. }) => atom.term.contains(is_interval),
                    Some(Literal::Comparison {
                        naf: Naf::Positive | Naf::Not,
                        lhs,
                        rhs,
                        ..
                    }) => lhs.contains(is_interval) || rhs.contains(is_interval),
                    _ => false,
                };
            let literal_binds = !own.is_empty() || interval_in_literal;
            let literal_double_negated = conditional
                && matches!(
                    element.condition.last(),
                    Some(Literal::Atom {
                        naf: Naf::NotNot,
                        ..
                    })
                );
            let mut literal_bindings = Vec::new();
            for (i, literal) in element.condition.iter().enumerate() {
                let before = condition.len();
                let last = i + 1 == element.condition.len();
                let never_defined = (conditional && last)
                    .then(|| self.never_defined(literal))
                    .flatten();
                let bound_literal;
                let literal = match literal {
                    // `not l` of a literal that binds: `l` itself (`2..1 > 1
                    // : c` holds for none of the interval's values).
                    Literal::Atom { .. } | Literal::Comparison { .. } if literal_binds && last => {
                        bound_literal = complemented(literal);
                        &bound_literal
                    }
                    // `not l` of `l = not not a`: `not a`.
                    Literal::Atom { atom, .. } if literal_double_negated && last => {
                        &Literal::Atom {
                            naf: Naf::Not,
                            atom: atom.clone(),
                        }
                    }
                    literal => literal,
                };
                match literal {
                    // `not l` of `l = not p(X,_)`: `p(X,_)` holds for some
                    // value of `_`, which the projection of `p` says.
                    Literal::Atom {
                        naf: Naf::Positive,
                        atom,
                    } if conditional
                        && last
                        && !literal_binds
                        && has_anonymous(&atom.term)
                        && !atom.strong_negation =>
                    {
                        let projected = self.project(atom, scope, &mut condition)?;
                        condition.push(CLit::Pos(projected));
                    }
                    // `l` never holds (clingo: `p(f(X)+1) : r(X)` is false
                    // where `r` holds): no `unless`.
                    _ if never_defined.is_some() => {
                        self.operation_undefined(never_defined.expect("checked"))
                    }
                    literal => possible &= self.literal(literal, scope, &mut condition)?,
                }
                // The compiled literal is the last one pushed, after the
                // bindings of any intervals inside it.
                if i == 0 && element.tuple_end == TupleEnd::Literal {
                    literal_tuple = self.literal_tuple(index, literal, condition.last());
                }
                if conditional && i + 1 == element.condition.len() && condition.len() > before {
                    unless = condition.pop();
                    if literal_binds {
                        // The bindings of the intervals inside `l`.
                        literal_bindings = condition.split_off(before);
                    }
                }
            }
            let mut terms = element
                .terms
                .iter()
                .filter(|t| !matches!(&t.kind, TermKind::Variable(v) if own.contains(v)))
                .map(|t| self.term(t, scope, &mut condition))
                .collect::<Result<Vec<_>, _>>()?;
            terms.extend(literal_tuple);
            if possible {
                elements.push(CAggregateElement {
                    terms,
                    condition,
                    unless,
                    literal_binds,
                    literal_bindings,
                    literal_double_negated,
                });
            }
        }
        scope.leave_element();
        // Global variables read inside elements, and every guard variable.
        let global_indices: FxHashSet<usize> = globals
            .iter()
            .filter_map(|name| scope.names.get(name).copied())
            .collect();
        let mut inputs = FxHashSet::default();
        for (_, term) in &guards {
            term.for_each_var(&mut |v| {
                inputs.insert(v);
            });
        }
        for element in &elements {
            let literals = element.condition.iter().chain(&element.unless);
            for literal in literals {
                literal_terms(literal, &mut |t| {
                    t.for_each_var(&mut |v| {
                        if global_indices.contains(&v) {
                            inputs.insert(v);
                        }
                    })
                });
            }
            for term in &element.terms {
                term.for_each_var(&mut |v| {
                    if global_indices.contains(&v) {
                        inputs.insert(v);
                    }
                });
            }
        }
        let mut inputs: Vec<usize> = inputs.into_iter().collect();
        inputs.sort_unstable();
        Ok(CAggregate {
            naf: aggregate.naf,
            function: aggregate.function,
            elements,
            guards,
            assigns: None,
            inputs,
            conditional,
            implication: false,
            span: aggregate.span,
        })
    }

    /// The tuple that stands for a literal of a literal set, the `index`-th
    /// element of its (pool-free) aggregate: the atom as a term, and a
    /// number telling `a`, `not a`, `-a` ... apart; for a comparison its two
    /// sides, a number for its relation (above those of atoms) and `index`,
    /// so that each distinct ground comparison of each element counts once,
    /// as in clingo (`{2>1; 2>1}` counts two, `{2>1 : q(X)}` one).
    fn literal_tuple(
        &mut self,
        index: usize,
        literal: &Literal,
        compiled: Option<&CLit>,
    ) -> Vec<CTerm> {
        match (literal, compiled) {
            (
                Literal::Atom { naf, atom },
                Some(CLit::Pos(compiled) | CLit::Neg(compiled) | CLit::NotNot(compiled)),
            ) => {
                let name = self.preds.get(compiled.pred).name.clone();
                let term = CTerm::function(self.symbols, &name, compiled.args.clone());
                let polarity = 2 * (*naf as i32) + i32::from(atom.strong_negation);
                vec![term, CTerm::Sym(self.symbols.number(polarity))]
            }
            (Literal::Comparison { .. }, Some(CLit::Cmp(op, lhs, rhs))) => {
                let relation = self.relation_number(*op);
                let element = CTerm::Sym(self.symbols.number(index as i32));
                vec![lhs.clone(), rhs.clone(), relation, element]
            }
            // `X = 1..3`: the comparison `X = X` for each value of `X`.
            (Literal::Comparison { .. }, Some(CLit::Interval(pattern, ..))) => {
                let relation = self.relation_number(CmpOp::Eq);
                let element = CTerm::Sym(self.symbols.number(index as i32));
                vec![pattern.clone(), pattern.clone(), relation, element]
            }
            _ => Vec::new(),
        }
    }

    /// The number that tells a comparison's relation apart in a literal
    /// tuple, above the polarities of atoms.
    fn relation_number(&mut self, op: CmpOp) -> CTerm {
        let index = CmpOp::ALL
            .iter()
            .position(|&o| o == op)
            .expect("a relation");
        CTerm::Sym(self.symbols.number(8 + index as i32))
    }

    /// The span of an operation in `term` over a function, string, tuple or
    /// symbolic constant, or a division by a constant zero, which no value
    /// of its variables defines (`f(X)+1`, `a+X`, `(1..9)/0`): clingo drops
    /// the literal (and the rule or element it is in) while rewriting,
    /// before it checks safety.
    pub(super) fn undefined_operation(&self, term: &Term) -> Option<Span> {
        let constant = |t: &Term| match &t.kind {
            TermKind::Constant(name) => self.undefined_constant(name),
            _ => None,
        };
        if let Some(span) = term.find(|t| constant(t).is_some()).and_then(constant) {
            return Some(span);
        }
        let symbolic = |t: &Term| match &t.kind {
            TermKind::Function { .. } | TermKind::String(_) | TermKind::Tuple(_) => true,
            TermKind::Constant(name) => {
                (self.constant_value(name)).is_none_or(|v| self.symbols.as_number(v).is_none())
            }
            _ => false,
        };
        let undefined = term.find(|t| match &t.kind {
            TermKind::Binary(BinaryOp::Div | BinaryOp::Mod, _, b)
                if self.integer_value(b) == Some(0) =>
            {
                true
            }
            TermKind::Binary(_, a, b) => symbolic(a) || symbolic(b),
            TermKind::Unary(UnaryOp::Abs | UnaryOp::BitNot, a) => symbolic(a),
            _ => false,
        });
        undefined.map(|t| t.span)
    }

    /// The span of the value of `name`, a constant never defined.
    fn undefined_constant(&self, name: &str) -> Option<Span> {
        if self.params.iter().any(|(p, _)| p == name) {
            return None;
        }
        self.undefined_consts.get(name).copied()
    }

    /// The integer a term without variables or intervals evaluates to, if
    /// any (`1-1`, or a `#const` whose value is 0).
    fn integer_value(&self, term: &Term) -> Option<i32> {
        match &term.kind {
            TermKind::Integer(n) => Some(*n),
            TermKind::Constant(name) => self.symbols.as_number(self.constant_value(name)?),
            TermKind::Unary(op, a) => Some(integer_unary(op1(*op), self.integer_value(a)?)),
            TermKind::Binary(op, a, b) => {
                integer_binary(*op, self.integer_value(a)?, self.integer_value(b)?)
            }
            _ => None,
        }
    }

    /// The span of a term of `literal` that is never defined
    /// ([`Self::undefined_operation`]).
    fn never_defined(&self, literal: &Literal) -> Option<Span> {
        match literal {
            Literal::Atom { atom, .. } => self.undefined_operation(&atom.term),
            Literal::Comparison { lhs, rhs, .. } => {
                (self.undefined_operation(lhs)).or_else(|| self.undefined_operation(rhs))
            }
            Literal::Boolean { .. } => None,
        }
    }

    /// clingo's info on an operation that is never defined, at `span`.
    fn operation_undefined(&mut self, span: Span) {
        let mut info = Diagnostic::info(span, "operation undefined:");
        info.group = "operation-undefined";
        self.errors.push(info);
    }

    /// Compiles a literal into `out`; `Ok(false)` means it can never hold.
    fn literal(
        &mut self,
        literal: &Literal,
        scope: &mut Scope,
        out: &mut Vec<CLit>,
    ) -> Result<bool, Diagnostic> {
        if let Some(span) = self.never_defined(literal) {
            self.operation_undefined(span);
            return Ok(false);
        }
        match literal {
            Literal::Boolean { naf, value, .. } => Ok(*value != (*naf == Naf::Not)),
            Literal::Comparison {
                naf, lhs, op, rhs, ..
            } => {
                let op = if *naf == Naf::Not { op.negate() } else { *op };
                if op == CmpOp::Eq {
                    // `X = lo..hi` binds X to each value of the interval.
                    for (pattern, other) in [(lhs, rhs), (rhs, lhs)] {
                        if let TermKind::Interval(lo, hi) = &other.kind {
                            let pattern = self.term(pattern, scope, out)?;
                            let lo = self.term(lo, scope, out)?;
                            let hi = self.term(hi, scope, out)?;
                            out.push(CLit::Interval(pattern, lo, hi));
                            return Ok(true);
                        }
                    }
                }
                let lhs = self.term(lhs, scope, out)?;
                let rhs = self.term(rhs, scope, out)?;
                out.push(CLit::Cmp(op, lhs, rhs));
                Ok(true)
            }
            Literal::Atom { naf, atom } => match naf {
                Naf::Positive => {
                    let atom = self.atom(atom, scope, out)?;
                    out.push(CLit::Pos(atom));
                    Ok(true)
                }
                Naf::Not => {
                    // As in clingo, `not -p(_)` is not projected: `_` stays unsafe.
                    let atom = if has_anonymous(&atom.term) && !atom.strong_negation {
                        self.project(atom, scope, out)?
                    } else {
                        self.atom(atom, scope, out)?
                    };
                    out.push(CLit::Neg(atom));
                    Ok(true)
                }
                Naf::NotNot => {
                    let atom = self.atom(atom, scope, out)?;
                    out.push(CLit::NotNot(atom));
                    Ok(true)
                }
            },
        }
    }

    /// The atom `#conjK(V)` (`V`: the variables of the disjunct's atom) that
    /// stands for the conjunction of the literals a conditional disjunct
    /// with pools or intervals (`p(1..2) : c`) stands for in clingo, or for
    /// a negated conditional disjunct (`not p(X) : c`): each literal
    /// follows from it, and it holds when the rule's body, the condition and
    /// every literal over a defined atom do (so that it is determined by
    /// them).
    fn conjunction(&mut self, disjunct: &ast::HeadLiteral, body: &[BodyElement]) -> Atom {
        let span = disjunct.span;
        let mut names = Vec::new();
        literal_variable_names(
            &Literal::Atom {
                naf: Naf::Positive,
                atom: disjunct.atom.clone(),
            },
            &mut names,
        );
        self.fresh += 1;
        let name = format!("#conj{}", self.fresh);
        let args: Vec<Term> = names
            .into_iter()
            .map(|n| Term {
                kind: TermKind::Variable(n),
                span,
            })
            .collect();
        let conjunction = Atom {
            strong_negation: false,
            term: Term {
                kind: if args.is_empty() {
                    TermKind::Constant(name)
                } else {
                    TermKind::Function { name, args }
                },
                span,
            },
            span,
        };
        let positive = |atom: Atom| Literal::Atom {
            naf: Naf::Positive,
            atom,
        };
        let atoms = unpool_atom(&disjunct.atom);
        for atom in &atoms {
            let head = literal_head(disjunct.naf, atom.clone(), span);
            self.rule(
                &head,
                &[BodyElement::Literal(positive(conjunction.clone()))],
                span,
            );
        }
        // Each atom, for every value of its intervals that makes it defined
        // (clingo leaves the undefined ones out of the conjunction):
        // `p(4/(0..2))` as `p(4/I) : I = 0..2, 4/I = 4/I` (an interval in
        // the literal itself would make a disjunction).
        let every_atom: Vec<BodyElement> = atoms
            .into_iter()
            .map(|atom| {
                let mut condition = Vec::new();
                let term = intervals_as_conditions(&atom.term, &mut condition);
                condition.push(is_defined(term.clone(), span));
                BodyElement::Conditional {
                    literal: Literal::Atom {
                        naf: disjunct.naf,
                        atom: Atom { term, ..atom },
                    },
                    condition,
                    span,
                }
            })
            .collect();
        let definition: Vec<BodyElement> = body
            .iter()
            .cloned()
            .chain(disjunct.condition.iter().cloned().map(BodyElement::Literal))
            .chain(every_atom)
            .collect();
        let head = literal_head(Naf::Positive, conjunction.clone(), span);
        self.rule(&head, &definition, span);
        conjunction
    }

    /// `not p(t, _)` becomes `not #projK(t)` with `#projK(V) :- p(V, _).`,
    /// which is what the anonymous variable means: no `p(t, _)` at all. As
    /// in clingo, every subterm without `_` is captured by value, so the
    /// auxiliary rule is safe whatever the subterm (`not d(_, X+1)`).
    fn project(
        &mut self,
        atom: &Atom,
        scope: &mut Scope,
        out: &mut Vec<CLit>,
    ) -> Result<CAtom, Diagnostic> {
        let mut captured = Vec::new();
        let pattern = capture_anonymous_free(&atom.term, &mut captured);
        self.fresh += 1;
        let name = format!("#proj{}", self.fresh);
        let projection = |args: Vec<Term>| Atom {
            strong_negation: false,
            term: Term {
                kind: if args.is_empty() {
                    TermKind::Constant(name.clone())
                } else {
                    TermKind::Function {
                        name: name.clone(),
                        args,
                    }
                },
                span: atom.span,
            },
            span: atom.span,
        };
        let variables = (0..captured.len())
            .map(|i| Term {
                kind: TermKind::Variable(format!("#captured{i}")),
                span: atom.span,
            })
            .collect();
        let aux_body = [BodyElement::Literal(Literal::Atom {
            naf: Naf::Positive,
            atom: Atom {
                term: pattern,
                ..atom.clone()
            },
        })];
        let aux_head = literal_head(Naf::Positive, projection(variables), atom.span);
        self.rule(&aux_head, &aux_body, atom.span);
        self.atom(&projection(captured), scope, out)
    }

    fn atom(
        &mut self,
        atom: &Atom,
        scope: &mut Scope,
        out: &mut Vec<CLit>,
    ) -> Result<CAtom, Diagnostic> {
        let (name, args): (&str, &[Term]) = match &atom.term.kind {
            TermKind::Constant(name) => (name, &[]),
            TermKind::Function { name, args } => (name, args),
            _ => {
                return Err(Diagnostic::error(
                    atom.span,
                    "syntax error, expected an atom",
                ));
            }
        };
        let pred = self.preds.intern(name, args.len(), atom.strong_negation);
        let args = args
            .iter()
            .map(|a| self.term(a, scope, out))
            .collect::<Result<_, _>>()?;
        Ok(CAtom {
            pred,
            args,
            span: atom.span,
        })
    }

    /// Compiles a term; intervals inside it become fresh variables bound by
    /// literals pushed to `out`.
    fn term(
        &mut self,
        term: &Term,
        scope: &mut Scope,
        out: &mut Vec<CLit>,
    ) -> Result<CTerm, Diagnostic> {
        Ok(match &term.kind {
            TermKind::Integer(n) => CTerm::Sym(self.symbols.number(*n)),
            TermKind::String(s) => CTerm::Sym(self.symbols.string(s)),
            TermKind::Supremum => CTerm::Sym(self.symbols.intern(SymbolData::Supremum)),
            TermKind::Infimum => CTerm::Sym(self.symbols.intern(SymbolData::Infimum)),
            TermKind::Constant(name) => CTerm::Sym(self.constant(name)),
            TermKind::Variable(name) => CTerm::Var(scope.var(name, term.span)),
            TermKind::Anonymous => {
                self.fresh += 1;
                CTerm::Var(scope.var(&format!("#anon{}", self.fresh), term.span))
            }
            TermKind::Function { name, args } => {
                let args: Vec<CTerm> = args
                    .iter()
                    .map(|a| self.term(a, scope, out))
                    .collect::<Result<_, _>>()?;
                CTerm::function(self.symbols, name, args)
            }
            TermKind::Tuple(args) => {
                let args: Vec<CTerm> = args
                    .iter()
                    .map(|a| self.term(a, scope, out))
                    .collect::<Result<_, _>>()?;
                CTerm::function(self.symbols, "", args)
            }
            TermKind::Pool(_) => {
                return Err(Diagnostic::error(
                    term.span,
                    "pools are not supported in this position",
                ));
            }
            TermKind::Interval(lo, hi) => {
                self.fresh += 1;
                let var = CTerm::Var(scope.var(&format!("#range{}", self.fresh), term.span));
                let lo = self.term(lo, scope, out)?;
                let hi = self.term(hi, scope, out)?;
                out.push(CLit::Interval(var.clone(), lo, hi));
                var
            }
            TermKind::Unary(op, arg) => {
                let arg = self.term(arg, scope, out)?;
                CTerm::unary(self.symbols, op1(*op), arg)
            }
            TermKind::Binary(op, lhs, rhs) => {
                let lhs = self.term(lhs, scope, out)?;
                let rhs = self.term(rhs, scope, out)?;
                CTerm::binary(self.symbols, *op, lhs, rhs)
            }
        })
    }
}

fn op1(op: UnaryOp) -> Op1 {
    match op {
        UnaryOp::Minus => Op1::Minus,
        UnaryOp::BitNot => Op1::BitNot,
        UnaryOp::Abs => Op1::Abs,
    }
}

enum RuleShape<'s> {
    Constraint,
    ShowTerm(&'s Term),
    Disjunction(&'s [ast::HeadLiteral]),
    Choice(&'s [ast::Guard], &'s [ast::ChoiceElement]),
}

impl RuleShape<'_> {
    /// The head's variables that are global (choice elements and
    /// conditional disjuncts have their own local variables).
    fn global_variable_names(&self, names: &mut FxHashSet<String>) {
        match self {
            RuleShape::Constraint => {}
            RuleShape::ShowTerm(term) => collect_variable_names(term, names),
            RuleShape::Disjunction(disjuncts) => disjuncts
                .iter()
                .filter(|d| d.condition.is_empty())
                .for_each(|d| collect_variable_names(&d.atom.term, names)),
            RuleShape::Choice(guards, _) => guards
                .iter()
                .for_each(|g| collect_variable_names(&g.term, names)),
        }
    }
}

/// A pool-free body element.
#[derive(Clone)]
enum BodyItem {
    Literal(Literal),
    Aggregate(ast::Aggregate),
    /// A conditional literal, as the aggregate that stands for it.
    Conditional(ast::Aggregate),
}

/// Variable numbering for one rule. Element-local variables get fresh
/// indices per element.
#[derive(Default)]
struct Scope {
    names: FxHashMap<String, usize>,
    /// Saved global names while inside a choice element.
    element: Option<FxHashMap<String, usize>>,
    count: usize,
    /// First occurrence of each variable index, with its name, for messages.
    first: Vec<(String, Span)>,
}

impl Scope {
    fn var(&mut self, name: &str, span: Span) -> usize {
        if let Some(&i) = self.names.get(name) {
            // Messages point at the first occurrence in the text; the head
            // is compiled after the body. A variable of an element's own is
            // shown where it first occurs in the element's condition, then
            // its literal, as in clingo.
            let own = (self.element.as_ref()).is_some_and(|rule| !rule.contains_key(name));
            if !own && span.start < self.first[i].1.start {
                self.first[i].1 = span;
            }
            return i;
        }
        let i = self.count;
        self.count += 1;
        self.names.insert(name.to_string(), i);
        self.first.push((name.to_string(), span));
        i
    }

    /// Back to the rule's own variables after the last element.
    fn leave_element(&mut self) {
        if let Some(saved) = self.element.take() {
            self.names = saved;
        }
    }

    fn enter_element(&mut self, globals: &FxHashSet<String>) {
        let saved = self.element.get_or_insert_with(|| self.names.clone());
        self.names = saved
            .iter()
            .filter(|(n, _)| globals.contains(*n))
            .map(|(n, &i)| (n.clone(), i))
            .collect();
    }
}

fn product<T: Clone>(prefixes: &[Vec<T>], alternatives: &[T]) -> Vec<Vec<T>> {
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
fn unpool_term(term: &Term) -> Vec<Term> {
    if contains_pool(term) {
        unpool_pooled(term)
    } else {
        vec![term.clone()]
    }
}

/// [`unpool_term`] below the pool check: the alternatives of the children
/// are moved into the results, never copied level by level, so a long
/// chain over a pool (`(a;b)+1+…+1`) stays linear.
fn unpool_pooled(term: &Term) -> Vec<Term> {
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
fn product_moved<T: Clone, R>(xs: Vec<T>, ys: Vec<T>, f: impl Fn(T, T) -> R) -> Vec<R> {
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
fn contains_pool(term: &Term) -> bool {
    term.contains(|kind| matches!(kind, TermKind::Pool(_)))
}

/// Whether a subterm of `term` is `Pool` or `Interval`.
fn contains_pool_or_interval(term: &Term) -> bool {
    term.contains(|kind| matches!(kind, TermKind::Pool(_) | TermKind::Interval(..)))
}

fn unpool_list(terms: &[Term]) -> Vec<Vec<Term>> {
    let mut lists = vec![Vec::with_capacity(terms.len())];
    for term in terms {
        lists = product(&lists, &unpool_term(term));
    }
    lists
}

fn unpool_atom(atom: &Atom) -> Vec<Atom> {
    unpool_term(&atom.term)
        .into_iter()
        .map(|term| Atom {
            strong_negation: atom.strong_negation,
            term,
            span: atom.span,
        })
        .collect()
}

fn unpool_literal(literal: &Literal) -> Vec<Literal> {
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

/// `t = t`: holds exactly when `t` is defined (`1/0 = 1/0` does not), so
/// that an undefined term drops what it guards.
fn is_defined(term: Term, span: Span) -> Literal {
    Literal::Comparison {
        naf: Naf::Positive,
        lhs: term.clone(),
        op: CmpOp::Eq,
        rhs: term,
        span,
    }
}

/// `naf a` as a body literal. In a head, `#true` and `#false` are atoms
/// of those names (`a | not #true`), and so is the `not #false` that
/// stands for a comparison in a head aggregate: they are truth values.
fn atom_literal(naf: Naf, atom: &Atom) -> Literal {
    match &atom.term.kind {
        TermKind::Constant(name) if name == "#true" || name == "#false" => Literal::Boolean {
            naf,
            value: name == "#true",
            span: atom.span,
        },
        _ => Literal::Atom {
            naf,
            atom: atom.clone(),
        },
    }
}

/// The head of a rule with the one unconditional literal `naf atom`.
fn literal_head(naf: Naf, atom: Atom, span: Span) -> Head {
    Head::Disjunction(vec![ast::HeadLiteral {
        naf,
        atom,
        condition: Vec::new(),
        span,
    }])
}

/// The head `name(args)` of a rule defining an auxiliary atom.
fn auxiliary_head(name: &str, args: Vec<Term>, span: Span) -> Head {
    let term = Term {
        kind: TermKind::Function {
            name: name.to_string(),
            args,
        },
        span,
    };
    let atom = Atom {
        strong_negation: false,
        term,
        span,
    };
    literal_head(Naf::Positive, atom, span)
}

/// The variables of a conditional literal `l : c` (the element `c, not l`
/// of [`conditional_as_aggregate`]) that only its atom `l` binds: neither
/// `c` nor the rule does. Empty unless `l` is a positive atom.
fn literal_own_variables(element: &[Literal], globals: &FxHashSet<String>) -> Vec<String> {
    let Some((
        Literal::Atom { naf: Naf::Not, .. } | Literal::Comparison { naf: Naf::Not, .. },
        condition,
    )) = element.split_last()
    else {
        return Vec::new();
    };
    let mut bound = Vec::new();
    for literal in condition {
        literal_variable_names(literal, &mut bound);
    }
    let mut own = Vec::new();
    literal_variable_names(&element[element.len() - 1], &mut own);
    own.retain(|v| !bound.contains(v) && !globals.contains(v));
    own
}

/// The negation `not l` of a conditional literal's `l` with `naf`, and
/// back. `not not not a` is `not a`, but the element must know that its `l`
/// is `not not a`, a negative dependency: it reads `not not a` as the mark
/// (see `aggregate`).
fn complement(naf: Naf) -> Naf {
    match naf {
        Naf::Positive => Naf::Not,
        Naf::Not => Naf::Positive,
        Naf::NotNot => Naf::NotNot,
    }
}

/// `literal` with its negation [`complement`]ed.
fn complemented(literal: &Literal) -> Literal {
    let mut literal = literal.clone();
    match &mut literal {
        Literal::Atom { naf, .. }
        | Literal::Comparison { naf, .. }
        | Literal::Boolean { naf, .. } => *naf = complement(*naf),
    }
    literal
}

/// `l : c` in a body holds when `l` holds for every instance of `c`: as an
/// aggregate, no instance of `c` has `l` false, `#count{ V : c, ¬l } = 0`
/// over the variables `V` of the element.
fn conditional_as_aggregate(
    literal: &Literal,
    condition: &[Literal],
    span: Span,
) -> ast::Aggregate {
    let negated = complemented(literal);
    let mut names = Vec::new();
    for l in condition.iter().chain([literal]) {
        literal_variable_names(l, &mut names);
    }
    let terms = names
        .into_iter()
        .map(|name| Term {
            kind: TermKind::Variable(name),
            span,
        })
        .collect();
    ast::Aggregate {
        naf: Naf::Positive,
        function: AggregateFunction::Count,
        elements: vec![ast::AggregateElement {
            terms,
            condition: condition.iter().cloned().chain([negated]).collect(),
            tuple_end: TupleEnd::Nothing,
            span,
        }],
        guards: vec![ast::Guard {
            op: CmpOp::Eq,
            term: Term {
                kind: TermKind::Integer(0),
                span,
            },
        }],
        span,
    }
}

/// `term` with each interval `lo..hi` replaced by a new variable `#intervalI`,
/// and the conditions `#intervalI = lo..hi` that give it its values.
fn intervals_as_conditions(term: &Term, conditions: &mut Vec<Literal>) -> Term {
    if !matches!(term.kind, TermKind::Interval(..)) {
        return map_subterms(term, |t| intervals_as_conditions(t, conditions));
    }
    let variable = Term {
        kind: TermKind::Variable(format!("#interval{}", conditions.len())),
        span: term.span,
    };
    conditions.push(Literal::Comparison {
        naf: Naf::Positive,
        lhs: variable.clone(),
        op: CmpOp::Eq,
        rhs: term.clone(),
        span: term.span,
    });
    variable
}

/// `term` with the constant `name` replaced by `value` wherever it occurs.
pub(super) fn substituted(term: &Term, name: &str, value: &Term) -> Term {
    match &term.kind {
        TermKind::Constant(n) if n == name => value.clone(),
        _ => map_subterms(term, |t| substituted(t, name, value)),
    }
}

/// `term` with `f` applied to its direct subterms (the arguments of a
/// function or tuple, the operands of an operator); other terms unchanged.
fn map_subterms(term: &Term, mut f: impl FnMut(&Term) -> Term) -> Term {
    let kind = match &term.kind {
        TermKind::Function { name, args } => TermKind::Function {
            name: name.clone(),
            args: args.iter().map(&mut f).collect(),
        },
        TermKind::Tuple(args) => TermKind::Tuple(args.iter().map(&mut f).collect()),
        TermKind::Unary(op, a) => TermKind::Unary(*op, Box::new(f(a))),
        TermKind::Binary(op, a, b) => {
            let a = Box::new(f(a));
            TermKind::Binary(*op, a, Box::new(f(b)))
        }
        other => other.clone(),
    };
    Term {
        kind,
        span: term.span,
    }
}

/// The named variables of a literal, in order of first occurrence, added
/// to `names` if not there yet.
fn literal_variable_names(literal: &Literal, names: &mut Vec<String>) {
    let terms: Vec<&Term> = match literal {
        Literal::Atom { atom, .. } => vec![&atom.term],
        Literal::Comparison { lhs, rhs, .. } => vec![lhs, rhs],
        Literal::Boolean { .. } => Vec::new(),
    };
    for term in terms {
        let mut found = FxHashSet::default();
        collect_variable_names(term, &mut found);
        let mut found: Vec<String> = found.into_iter().filter(|n| !names.contains(n)).collect();
        found.sort();
        names.extend(found);
    }
}

/// Every pool-free version of a condition.
fn unpool_condition(condition: &[Literal]) -> Vec<Vec<Literal>> {
    let mut conditions = vec![Vec::new()];
    for literal in condition {
        conditions = product(&conditions, &unpool_literal(literal));
    }
    conditions
}

/// Every pool-free version of an aggregate: pools in guards give several
/// aggregates (rule copies), pools in elements give several elements.
fn unpool_aggregate(aggregate: &ast::Aggregate) -> Vec<ast::Aggregate> {
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
fn unpool_guards(guards: &[ast::Guard]) -> Vec<Vec<ast::Guard>> {
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

/// Adds the names of the variables of `term`.
fn collect_variable_names(term: &Term, names: &mut FxHashSet<String>) {
    let mut pending = vec![term];
    while let Some(term) = pending.pop() {
        match &term.kind {
            TermKind::Variable(name) => {
                names.insert(name.clone());
            }
            TermKind::Function { args, .. } | TermKind::Tuple(args) | TermKind::Pool(args) => {
                pending.extend(args)
            }
            TermKind::Interval(a, b) | TermKind::Binary(_, a, b) => pending.extend([&**a, &**b]),
            TermKind::Unary(_, a) => pending.push(a),
            _ => {}
        }
    }
}

/// Marks `N = #agg{..}` as an assignment when nothing but aggregates binds
/// `N`, the aggregates taken in order (a later one may use what an earlier
/// one assigns). A guard `t = #agg{..}` whose term is not a variable but has
/// unbound variables (`C+1 = #min{..}`) assigns a new variable `V`, and the
/// literal `t = V` binds the others, inverting `t` as a match does.
fn resolve_assignments(body: &mut Vec<CLit>, scope: &mut Scope) {
    let plain: Vec<CLit> = body
        .iter()
        .filter(|l| !matches!(l, CLit::Aggregate(_)))
        .cloned()
        .collect();
    let mut bound = vec![false; scope.count];
    bind_fixpoint(&plain, &mut bound);
    let mut bindings = Vec::new();
    for literal in body.iter_mut() {
        let CLit::Aggregate(aggregate) = literal else {
            continue;
        };
        if aggregate.negated() {
            continue;
        }
        let unbound = |term: &CTerm, bound: &[bool]| {
            let mut any = false;
            term.for_each_var(&mut |v| any |= v >= bound.len() || !bound[v]);
            any
        };
        let Some(guard) = aggregate
            .guards
            .iter()
            .position(|(op, term)| *op == CmpOp::Eq && unbound(term, &bound))
        else {
            continue;
        };
        let v = match &aggregate.guards[guard].1 {
            CTerm::Var(v) => *v,
            term => {
                // Only when the elements do not read the term's variables,
                // which the aggregate would then have to know first.
                let mut term_vars = Vec::new();
                term.for_each_var(&mut |v| term_vars.push(v));
                let mut read = false;
                for element in &aggregate.elements {
                    let mut note =
                        |t: &CTerm| t.for_each_var(&mut |v| read |= term_vars.contains(&v));
                    element.terms.iter().for_each(&mut note);
                    for l in element.condition.iter().chain(&element.unless) {
                        literal_terms(l, &mut note);
                    }
                }
                if read {
                    continue;
                }
                let fresh = scope.var(&format!("#assigned{}", scope.count), aggregate.span);
                bindings.push(CLit::Cmp(CmpOp::Eq, term.clone(), CTerm::Var(fresh)));
                aggregate.guards[guard].1 = CTerm::Var(fresh);
                aggregate.inputs.retain(|i| !term_vars.contains(i));
                fresh
            }
        };
        aggregate.assigns = Some(v);
        aggregate.inputs.retain(|&i| i != v);
        bound.resize(scope.count, false);
        bound[v] = true;
        bind_fixpoint(&plain, &mut bound);
    }
    body.extend(bindings);
}

fn has_anonymous(term: &Term) -> bool {
    match &term.kind {
        TermKind::Anonymous => true,
        TermKind::Function { args, .. } | TermKind::Tuple(args) | TermKind::Pool(args) => {
            args.iter().any(has_anonymous)
        }
        TermKind::Interval(a, b) | TermKind::Binary(_, a, b) => {
            has_anonymous(a) || has_anonymous(b)
        }
        TermKind::Unary(_, a) => has_anonymous(a),
        _ => false,
    }
}

/// The term with each maximal subterm free of `_` replaced by the variable
/// `#captured<i>`, where `captured[i]` is that subterm.
fn capture_anonymous_free(term: &Term, captured: &mut Vec<Term>) -> Term {
    if !has_anonymous(term) {
        captured.push(term.clone());
        return Term {
            kind: TermKind::Variable(format!("#captured{}", captured.len() - 1)),
            span: term.span,
        };
    }
    map_subterms(term, |t| capture_anonymous_free(t, captured))
}

/// Moves arithmetic that matching cannot invert out of the positive atoms
/// that bind its variables themselves: `q(D-J,J)`, where only `q` binds
/// `J`, becomes `q(A,J), A = D-J`, as clingo rewrites it. Without this the
/// atom could never be matched, since `D-J` is evaluated before `J` has a
/// value. Arithmetic whose variables the other literals bind first stays
/// in the atom, where it selects the atom's instances by an index. Done for
/// the body, the conditions of body aggregates' elements and those of the
/// head's elements; a condition's context is the body's variables.
fn separate_unbindable_arithmetic(rule: &mut CRule, scope: &mut Scope) {
    separate_in(&mut rule.body, &[], scope);
    let mut body_bound = vec![false; scope.count];
    bind_fixpoint(&rule.body, &mut body_bound);
    for literal in &mut rule.body {
        if let CLit::Aggregate(aggregate) = literal {
            for element in &mut aggregate.elements {
                separate_in(&mut element.condition, &body_bound, scope);
                if element.literal_binds
                    && let Some(literal) = element.unless.take()
                {
                    let mut local = body_bound.clone();
                    local.resize(scope.count, false);
                    bind_fixpoint(&element.condition, &mut local);
                    let mut literals = vec![literal];
                    separate_in(&mut literals, &local, scope);
                    element.unless = Some(literals.remove(0));
                    element.literal_bindings.extend(literals);
                }
            }
        }
    }
    if let CHead::Disjunction(elements) | CHead::Choice { elements, .. } = &mut rule.head {
        for element in elements {
            separate_in(&mut element.condition, &body_bound, scope);
        }
    }
    rule.num_vars = scope.count;
}

/// Separates, one atom at a time, the arithmetic of the first positive atom
/// the grounder could not place after everything placeable in `literals`
/// (given the variables of `context`) has bound what it binds, until every
/// atom is placeable or none can be helped (an unsafe rule, reported by
/// [`check_safety`]).
fn separate_in(literals: &mut Vec<CLit>, context: &[bool], scope: &mut Scope) {
    loop {
        let mut bound = context.to_vec();
        bound.resize(scope.count, false);
        let placed = placeable_fixpoint(literals, &mut bound);
        let stuck = literals.iter().zip(&placed).position(|(literal, &placed)| {
            !placed && matches!(literal, CLit::Pos(atom) if atom.args.iter().any(|a| !a.inputs_bound(&bound)))
        });
        let Some(i) = stuck else { return };
        let CLit::Pos(atom) = &mut literals[i] else {
            unreachable!("only positive atoms are separated")
        };
        let span = atom.span;
        let mut separated = Vec::new();
        for arg in &mut atom.args {
            *arg = separate_term(arg, &bound, &mut |term| {
                let var = scope.var(&format!("#arith{}", scope.count), span);
                separated.push(CLit::Cmp(CmpOp::Eq, CTerm::Var(var), term));
                CTerm::Var(var)
            });
        }
        if separated.is_empty() {
            return;
        }
        literals.extend(separated);
    }
}

/// `term` with each maximal subterm that matching cannot bind through, and
/// whose variables are not all `bound`, replaced by `fresh(subterm)`.
fn separate_term(term: &CTerm, bound: &[bool], fresh: &mut impl FnMut(CTerm) -> CTerm) -> CTerm {
    match term {
        CTerm::Sym(_) | CTerm::Var(_) | CTerm::Linear { .. } => term.clone(),
        CTerm::Fun { name, args } => CTerm::Fun {
            name: *name,
            args: args
                .iter()
                .map(|a| separate_term(a, bound, fresh))
                .collect(),
        },
        CTerm::Unary(Op1::Minus, inner) => {
            CTerm::Unary(Op1::Minus, Box::new(separate_term(inner, bound, fresh)))
        }
        CTerm::Unary(..) | CTerm::Binary(..) if term.is_bound(bound) => term.clone(),
        CTerm::Unary(..) | CTerm::Binary(..) => fresh(term.clone()),
    }
}

/// Whether the grounder can evaluate `literal` once `bound` are bound: a
/// positive atom once matching can bind all of its arguments' variables
/// that arithmetic hides, a comparison once both sides are bound or it is
/// an `=` that binds one side from the other.
pub fn placeable(literal: &CLit, bound: &[bool]) -> bool {
    match literal {
        CLit::Pos(atom) => atom.args.iter().all(|a| a.inputs_bound(bound)),
        CLit::Neg(atom) | CLit::NotNot(atom) => atom.args.iter().all(|a| a.is_bound(bound)),
        CLit::Cmp(op, l, r) => {
            let (lb, rb) = (l.is_bound(bound), r.is_bound(bound));
            (lb && rb)
                || (*op == CmpOp::Eq
                    && ((rb && l.inputs_bound(bound)) || (lb && r.inputs_bound(bound))))
        }
        CLit::Interval(_, lo, hi) => lo.is_bound(bound) && hi.is_bound(bound),
        CLit::Aggregate(aggregate) => aggregate.inputs.iter().all(|&v| bound[v]),
    }
}

/// Marks what the literals bind in the grounder's order of evaluation (see
/// `instantiate`'s planning): a positive atom only once all its arguments'
/// inputs are bound. Returns which literals could be placed.
fn placeable_fixpoint(literals: &[CLit], bound: &mut [bool]) -> Vec<bool> {
    let mut placed = vec![false; literals.len()];
    loop {
        let mut changed = false;
        for (literal, placed) in literals.iter().zip(&mut placed) {
            if *placed {
                continue;
            }
            if placeable(literal, bound) {
                *placed = true;
                bind_step(literal, bound);
                changed = true;
            }
        }
        if !changed {
            return placed;
        }
    }
}

/// One error per place with unsafe variables: the rule, or a body
/// aggregate or conditional literal for variables of its elements' own
/// (clingo's locations).
fn check_safety(
    rule: &CRule,
    scope: &Scope,
    global: &FxHashSet<usize>,
) -> Result<(), Vec<Diagnostic>> {
    let mut bound = vec![false; rule.num_vars];
    bind_fixpoint(&rule.body, &mut bound);
    // Each unsafe variable, with the span of the place it is unsafe in.
    let mut unsafe_vars: FxHashMap<usize, Span> = FxHashMap::default();
    let mut require = |term: &CTerm, bound: &[bool], span: Span| {
        term.for_each_var(&mut |v| {
            if !bound[v] {
                let place = if global.contains(&v) { rule.span } else { span };
                unsafe_vars.entry(v).or_insert(place);
            }
        })
    };
    for literal in &rule.body {
        literal_terms(literal, &mut |t| require(t, &bound, rule.span));
        if let CLit::Aggregate(aggregate) = literal {
            // The elements see the variables the rest of the body binds, not
            // one that only this aggregate's assignment binds, nor one of the
            // rule's that only the element binds (clingo: `C` is unsafe in
            // `C = #count{ X : a(X), a(C) }`).
            let others: Vec<CLit> = (rule.body.iter())
                .filter(|other| !std::ptr::eq(*other, literal))
                .cloned()
                .collect();
            let mut outer = vec![false; rule.num_vars];
            bind_fixpoint(&others, &mut outer);
            for element in &aggregate.elements {
                let mut local = outer.clone();
                bind_fixpoint(&element.condition, &mut local);
                if element.literal_binds {
                    bind_fixpoint(element.unless.as_slice(), &mut local);
                    bind_fixpoint(&element.literal_bindings, &mut local);
                }
                for &v in global {
                    local[v] &= outer[v];
                }
                let literals = element.condition.iter().chain(&element.unless);
                for literal in literals.chain(&element.literal_bindings) {
                    literal_terms(literal, &mut |t| require(t, &local, aggregate.span));
                }
                (element.terms.iter()).for_each(|t| require(t, &local, aggregate.span));
            }
        }
    }
    match &rule.head {
        CHead::Constraint => {}
        CHead::ShowTerm(t) => require(t, &bound, rule.span),
        CHead::External(input) => {
            (input.atom.args.iter()).for_each(|t| require(t, &bound, rule.span))
        }
        CHead::Disjunction(elements) | CHead::Choice { elements, .. } => {
            if let CHead::Choice { guards, .. } = &rule.head {
                guards
                    .iter()
                    .for_each(|(_, t)| require(t, &bound, rule.span));
            }
            for element in elements {
                let mut local = bound.clone();
                bind_fixpoint(&element.condition, &mut local);
                for literal in &element.condition {
                    literal_terms(literal, &mut |t| require(t, &local, rule.span));
                }
                (element.atom.args.iter()).for_each(|t| require(t, &local, rule.span));
            }
        }
    }
    if unsafe_vars.is_empty() {
        return Ok(());
    }
    let mut vars: Vec<(usize, Span)> = unsafe_vars.into_iter().collect();
    // clingo's order: the last place first, the rule (which starts first)
    // last.
    vars.sort_by_key(|&(v, place)| (std::cmp::Reverse(place.start), scope.first[v].1.start, v));
    let mut errors: Vec<Diagnostic> = Vec::new();
    for (v, place) in vars {
        if errors.last().is_none_or(|error| error.span != place) {
            errors.push(Diagnostic::error(place, "unsafe variables in:"));
        }
        let (name, span) = &scope.first[v];
        let shown = if name.starts_with("#anon") {
            "_"
        } else if ["#range", "#arith", "#bound"]
            .iter()
            .any(|p| name.starts_with(p))
        {
            continue;
        } else {
            name
        };
        let error = errors.pop().expect("pushed");
        errors.push(error.with_note(*span, format!("'{shown}' is unsafe")));
    }
    Err(errors)
}

pub fn literal_terms(literal: &CLit, f: &mut impl FnMut(&CTerm)) {
    match literal {
        CLit::Pos(a) | CLit::Neg(a) | CLit::NotNot(a) => a.args.iter().for_each(f),
        CLit::Cmp(_, l, r) => {
            f(l);
            f(r);
        }
        CLit::Interval(p, l, h) => {
            f(p);
            f(l);
            f(h);
        }
        // The elements have their own scopes; see `check_safety`.
        CLit::Aggregate(aggregate) => aggregate.guards.iter().for_each(|(_, t)| f(t)),
    }
}

/// Marks every variable the literals bind, in any order, until nothing
/// changes.
pub fn bind_fixpoint(literals: &[CLit], bound: &mut [bool]) {
    loop {
        let mut changed = false;
        for literal in literals {
            changed |= bind_step(literal, bound);
        }
        if !changed {
            return;
        }
    }
}

/// Binds what one literal binds given `bound`; returns whether anything new
/// was bound.
pub fn bind_step(literal: &CLit, bound: &mut [bool]) -> bool {
    let mut changed = false;
    let mut bind = |pattern: &CTerm, bound: &mut [bool]| {
        if pattern.inputs_bound(bound) {
            pattern.for_each_matchable_var(&mut |v| {
                if !bound[v] {
                    bound[v] = true;
                    changed = true;
                }
            });
        }
    };
    match literal {
        CLit::Pos(atom) => atom.args.iter().for_each(|a| bind(a, bound)),
        CLit::Cmp(CmpOp::Eq, l, r) => {
            if r.is_bound(bound) {
                bind(l, bound);
            } else if l.is_bound(bound) {
                bind(r, bound);
            }
        }
        CLit::Interval(p, lo, hi) => {
            if lo.is_bound(bound) && hi.is_bound(bound) {
                bind(p, bound);
            }
        }
        CLit::Aggregate(aggregate) => {
            if let Some(v) = aggregate.assigns
                && !bound[v]
                && aggregate.inputs.iter().all(|&i| bound[i])
            {
                bound[v] = true;
                changed = true;
            }
        }
        CLit::Neg(_) | CLit::NotNot(_) | CLit::Cmp(..) => {}
    }
    changed
}
