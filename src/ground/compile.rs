//! AST rules to compiled rules, ready for instantiation: the order of the
//! passes, each in a module of its own.
//!
//! For each statement: [`super::rewrite::heads`] rewrites its head into the
//! forms instantiation knows, [`super::rewrite::unpool`] expands its pools
//! into rule copies (or more elements), [`super::lower`] numbers its
//! variables and lowers its literals (with [`super::rewrite::conditional`]
//! and [`super::rewrite::anonymous`] for conditional literals and `_`),
//! [`super::rewrite::arithmetic`] separates the arithmetic matching cannot
//! invert, [`super::safety`] checks what is left, and
//! [`super::rewrite::symmetry`] grounds a rule that a swap of variables
//! maps onto itself for one order of the pair. Errors are collected, one
//! located diagnostic each, rather than stopping at the first.

use super::compiled::{CElement, CHead, CLit, CRule};
use super::eval::CTerm;
use super::lower::{Scope, resolve_assignments};
use super::predicates::{PredId, Predicates};
use super::rewrite::arithmetic::separate_unbindable_arithmetic;
use super::rewrite::symmetry::halve_symmetric_joins;
use super::rewrite::{
    auxiliary_head, collect_variable_names, literal_head, literal_variable_names,
};
use super::safety::check_safety;
use crate::diagnostics::{Diagnostic, Span};
use crate::symbols::{SymId, SymbolTable};
use crate::syntax::ast::{
    self, Atom, BodyElement, CmpOp, Head, Literal, Naf, Term, TermKind, UnaryOp,
};
use crate::syntax::pools::{contains_pool, unpool_atom, unpool_guards, unpool_term};
use rustc_hash::{FxHashMap, FxHashSet};

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
    /// Numbers the auxiliary names made up (`#anonK`, `#conjK`, `#projK`).
    pub fresh: usize,
}

/// How far a [`Compiler`]'s output went at one point ([`Compiler::mark`]).
pub struct Mark {
    rules: usize,
    facts: usize,
    errors: usize,
}

/// What kind of rule a body belongs to, for unpooling.
pub enum RuleHead<'h> {
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

    pub fn rule(&mut self, head: &Head, body: &[BodyElement], span: Span) {
        self.compile(RuleHead::Ast(head), body, span);
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

    /// `#edge (u, v) : body.` becomes `#edge((u, v)) :- body.`
    /// ([`EDGE_PREDICATE`]).
    pub fn edge(&mut self, pair: &Term, body: &[BodyElement], span: Span) {
        let head = auxiliary_head(EDGE_PREDICATE, vec![pair.clone()], pair.span);
        self.rule(&head, body, span);
    }

    pub fn show_term(&mut self, term: &Term, body: &[BodyElement], span: Span) {
        self.compile(RuleHead::ShowTerm(term), body, span);
    }

    pub fn compile(&mut self, head: RuleHead<'_>, body: &[BodyElement], span: Span) {
        let Some(bodies) = self.unpooled_bodies(body) else {
            return;
        };
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
                        self.show_one(&term, body, span);
                    }
                }
            }
            RuleHead::Ast(Head::Disjunction(disjuncts))
                if disjuncts.iter().any(|d| d.naf != Naf::Positive) =>
            {
                self.negated_disjuncts(disjuncts, body, span)
            }
            RuleHead::Ast(Head::Disjunction(disjuncts)) => {
                self.disjunction(disjuncts, body, &bodies, span)
            }
            RuleHead::Ast(Head::Comparison {
                comparisons,
                disjuncts,
            }) => self.comparison_head(comparisons, disjuncts, body, span),
            RuleHead::Ast(Head::Constraint) => {
                for body in &bodies {
                    self.compile_one(RuleShape::Constraint, body, span);
                }
            }
            RuleHead::Ast(Head::Aggregate {
                function,
                elements,
                guards,
                span: aggregate_span,
            }) => self.head_aggregate(*function, elements, guards, *aggregate_span, body, span),
            RuleHead::Ast(Head::Choice {
                guards,
                elements,
                span: choice_span,
            }) if elements.iter().any(|e| e.naf != Naf::Positive) => {
                self.negated_choice(guards, elements, *choice_span, body, span)
            }
            RuleHead::Ast(Head::Choice {
                guards,
                elements,
                span: choice_span,
            }) if guards.iter().any(|g| g.op == CmpOp::Ne) => {
                self.unequal_choice(guards, elements, *choice_span, body, &bodies, span)
            }
            RuleHead::Ast(Head::Choice {
                guards, elements, ..
            }) => self.choice(guards, elements, &bodies, span),
        }
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

    pub fn unsupported(&mut self, span: Span, what: &str) {
        self.errors.push(Diagnostic::error(
            span,
            format!("{what} are not supported by asp2sat yet"),
        ));
    }

    /// One pool-free `#show t : body.`. Where clingo refuses it (the body
    /// leaves variables of `t` unbound) and `t` has an atom's shape, it is
    /// gringo 3's `#show p(X).` (after `#hide.`): the atoms that hold and
    /// match `t` are shown, as `#show p(X) : body, p(X).` shows them.
    fn show_one(&mut self, term: &Term, body: &[BodyItem], span: Span) {
        let mark = self.mark();
        self.compile_one(RuleShape::ShowTerm(term), body, span);
        if !self.failed_since(&mark) {
            return;
        }
        if let Some(atom) = term_as_atom(term) {
            let mut matching = body.to_vec();
            matching.push(BodyItem::Literal(Literal::Atom {
                naf: Naf::Positive,
                atom,
            }));
            self.instead(mark, |compiler| {
                compiler.compile_one(RuleShape::ShowTerm(term), &matching, span)
            });
        }
    }

    /// Where the compiled rules, facts and messages end now.
    pub fn mark(&self) -> Mark {
        Mark {
            rules: self.rules.len(),
            facts: self.facts.len(),
            errors: self.errors.len(),
        }
    }

    /// Whether an error was reported since `mark`.
    pub fn failed_since(&self, mark: &Mark) -> bool {
        self.errors[mark.errors..].iter().any(Diagnostic::is_error)
    }

    /// What was compiled since `mark` replaced by what `compile` compiles,
    /// unless that fails too: then the first attempt stands, with its
    /// errors.
    pub fn instead(&mut self, mark: Mark, compile: impl FnOnce(&mut Self)) {
        let rules = self.rules.split_off(mark.rules);
        let facts = self.facts.split_off(mark.facts);
        let errors = self.errors.split_off(mark.errors);
        compile(self);
        if self.failed_since(&mark) {
            self.rules.truncate(mark.rules);
            self.facts.truncate(mark.facts);
            self.errors.truncate(mark.errors);
            self.rules.extend(rules);
            self.facts.extend(facts);
            self.errors.extend(errors);
        }
    }

    /// Compiles one pool-free rule.
    pub fn compile_one(&mut self, shape: RuleShape<'_>, body: &[BodyItem], span: Span) {
        let mut scope = Scope::default();
        let mut out_body = Vec::new();
        let atoms = (body.iter())
            .filter(|item| matches!(item, BodyItem::Literal(Literal::Atom { .. })))
            .count();
        // Body literals first: their variables, those of aggregate guards
        // and those of the head are the rule's global variables.
        for item in body {
            if let BodyItem::Literal(literal) = item {
                let compiled = match self.projectable(literal, atoms) {
                    Some(atom) => self.project_positive(atom, &mut scope, &mut out_body),
                    None => self.literal(literal, &mut scope, &mut out_body),
                };
                match compiled {
                    Ok(true) => {}
                    Ok(false) => return, // a literal that is always false
                    Err(e) => return self.errors.push(e),
                }
            }
        }
        // A guard's variables are the rule's, also in the elements of the
        // aggregates before it (`#count{X : p(X,Z)} = Y, #count{W : q(W)} =
        // Z` counts the `X` of `p(X,Z)` for the one `Z` assigned), so they
        // are numbered before any element is compiled.
        for item in body {
            if let BodyItem::Aggregate(aggregate) | BodyItem::Conditional(aggregate) = item {
                for term in aggregate.guards.iter().flat_map(|g| g.term.subterms()) {
                    if let TermKind::Variable(name) = &term.kind {
                        scope.var(name, term.span);
                    }
                }
            }
        }
        let mut global_names: FxHashSet<String> = scope.names.keys().cloned().collect();
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
                // A head atom whose term is never defined drops the rule;
                // a conditional one only where its condition holds, which
                // grounding finds out (`h | g(1/0) : c.` is `h :- not c.`).
                let undefined = |d: &ast::HeadLiteral| self.undefined_operation(&d.atom.term);
                let unconditional = |d: &&ast::HeadLiteral| d.condition.is_empty();
                if let Some(span) = disjuncts.iter().filter(unconditional).find_map(undefined) {
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
                    // An element whose atom is never defined is left out.
                    if let Some(span) = self.undefined_operation(&element.atom.term) {
                        self.operation_undefined(span);
                        continue;
                    }
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
        halve_symmetric_joins(&mut rule);
        self.rules.push(rule);
    }
}

/// The atom a term written where an atom may stand denotes: `p(X)` or
/// `-p(X)` (a constant has no variables to leave unbound).
fn term_as_atom(term: &Term) -> Option<Atom> {
    let (strong_negation, term) = match &term.kind {
        TermKind::Unary(UnaryOp::Minus, inner) => (true, &**inner),
        _ => (false, term),
    };
    matches!(term.kind, TermKind::Function { .. }).then(|| Atom {
        strong_negation,
        term: term.clone(),
        span: term.span,
    })
}

pub enum RuleShape<'s> {
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
pub enum BodyItem {
    Literal(Literal),
    Aggregate(ast::Aggregate),
    /// A conditional literal, as the aggregate that stands for it.
    Conditional(ast::Aggregate),
}
