//! Lowering: pool-free AST literals, atoms and terms to compiled ones over
//! numbered variables.
//!
//! Input: pool-free AST (heads already rewritten). Output: `CLit`s and
//! `CTerm`s: constants replaced by their values, variables numbered in a
//! [`Scope`] (an element's own variables apart from the rule's), intervals
//! as binding literals `V = lo..hi` on a fresh variable, body conditional
//! literals as aggregates with an `unless`, and `N = #agg{..}` marked as an
//! assignment when nothing else binds `N`.

use super::compile::Compiler;
use super::compiled::{CAggregate, CAggregateElement, CAtom, CElement, CLit};
use super::eval::{CTerm, Op1};
use super::rewrite::anonymous::has_anonymous;
use super::rewrite::conditional::{complemented, literal_own_variables};
use super::safety::{bind_fixpoint, literal_terms};
use crate::diagnostics::{Diagnostic, Span};
use crate::symbols::{SymId, SymbolData};
use crate::syntax::ast::{
    self, Atom, CmpOp, Literal, MAXINT, Naf, Term, TermKind, TupleEnd, UnaryOp,
};
use rustc_hash::{FxHashMap, FxHashSet};

impl Compiler<'_> {
    /// Compiles `atom : condition` (a choice element or a conditional
    /// disjunct), whose variables that are not `globals` are local to it;
    /// `None` when the condition can never hold.
    pub fn element(
        &mut self,
        atom: &ast::Atom,
        condition: &[Literal],
        globals: &FxHashSet<String>,
        scope: &mut Scope,
    ) -> Result<Option<CElement>, Diagnostic> {
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
    pub fn aggregate(
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
        let ignored = |e: &ast::AggregateElement| aggregate.function.ignores_tuple(&e.terms);
        if aggregate.elements.iter().any(ignored) {
            (self.errors).push(Diagnostic::info(aggregate.span, "empty tuple ignored"));
        }
        for (index, element) in aggregate.elements.iter().enumerate() {
            let ignored = ignored(element);
            if let Some(mut element) =
                self.aggregate_element(index, element, conditional, globals, scope)?
            {
                // Never grounded, but its variables must be safe all the
                // same.
                if ignored {
                    element.condition.push(self.never());
                }
                elements.push(element);
            }
        }
        scope.leave_element();
        let inputs = aggregate_inputs(globals, scope, &guards, &elements);
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

    /// Compiles the `index`-th element of a body aggregate in a scope of its
    /// own where only `globals` are shared with the rule; `None` when it is
    /// left out (a term never defined, a condition that never holds).
    fn aggregate_element(
        &mut self,
        index: usize,
        element: &ast::AggregateElement,
        conditional: bool,
        globals: &FxHashSet<String>,
        scope: &mut Scope,
    ) -> Result<Option<CAggregateElement>, Diagnostic> {
        // An element with a term never defined is left out.
        if let Some(span) = element
            .terms
            .iter()
            .find_map(|t| self.undefined_operation(t))
        {
            self.operation_undefined(span);
            return Ok(None);
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
                Literal::Atom { atom, .. } if literal_double_negated && last => &Literal::Atom {
                    naf: Naf::Not,
                    atom: atom.clone(),
                },
                // The same for `l = not not #true` (found by the grammar
                // generator's booleans: `h :- not not #true : c.` failed).
                &Literal::Boolean {
                    naf: Naf::NotNot,
                    value,
                    span,
                } if conditional && last => {
                    bound_literal = Literal::Boolean {
                        naf: Naf::Not,
                        value,
                        span,
                    };
                    &bound_literal
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
                    self.project_positive(atom, scope, &mut condition)?;
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
        Ok(possible.then_some(CAggregateElement {
            terms,
            condition,
            unless,
            literal_binds,
            literal_bindings,
            literal_double_negated,
        }))
    }

    /// The tuple that stands for a literal of a literal set, the `index`-th
    /// element of its (pool-free) aggregate: the atom as a term, and a
    /// number telling `a`, `not a`, `-a` ... apart; for a comparison its two
    /// sides, a number for its relation (above those of atoms) and `index`,
    /// so that each distinct ground comparison of each element counts once,
    /// as in clingo (`{2>1; 2>1}` counts two, `{2>1 : q(X)}` one).
    pub fn literal_tuple(
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
    pub fn relation_number(&mut self, op: CmpOp) -> CTerm {
        let index = CmpOp::ALL
            .iter()
            .position(|&o| o == op)
            .expect("a relation");
        CTerm::Sym(self.symbols.number(8 + index as i32))
    }

    /// A literal that never holds, clingo's `0 != 0`.
    fn never(&mut self) -> CLit {
        let zero = CTerm::Sym(self.symbols.number(0));
        CLit::Cmp(CmpOp::Ne, zero.clone(), zero)
    }

    /// Compiles a literal into `out`; `Ok(false)` means it can never hold.
    pub fn literal(
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
            // A false one stays, as clingo's `0 != 0`, so that the safety
            // of what it stands beside is still checked (`a(Y) :- #false.`
            // is unsafe).
            Literal::Boolean { naf, value, .. } => {
                if *value == (*naf == Naf::Not) {
                    out.push(self.never());
                }
                Ok(true)
            }
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
                let sides = [lhs, rhs];
                let lhs = self.term(lhs, scope, out)?;
                let rhs = self.term(rhs, scope, out)?;
                out.push(CLit::Cmp(op, lhs.clone(), rhs.clone()));
                // DLV's arithmetic stays within 0..#maxint: a sum or product
                // beyond it does not exist, and the comparison fails.
                if let Some(maxint) = self.max_int()
                    && *naf == Naf::Positive
                {
                    let zero = CTerm::Sym(self.symbols.number(0));
                    for (side, compiled) in sides.into_iter().zip([lhs, rhs]) {
                        if side
                            .contains(|k| matches!(k, TermKind::Binary(..) | TermKind::Unary(..)))
                        {
                            out.push(CLit::Cmp(CmpOp::Ge, compiled.clone(), zero.clone()));
                            out.push(CLit::Cmp(CmpOp::Le, compiled, CTerm::Sym(maxint)));
                        }
                    }
                }
                Ok(true)
            }
            Literal::Atom { naf, atom } => match naf {
                Naf::Positive => {
                    let atom = self.atom(atom, scope, out)?;
                    out.push(CLit::Pos(atom));
                    Ok(true)
                }
                Naf::Not | Naf::NotNot => {
                    // `not p(_)` and `not not p(_)` read whether some
                    // `p(_)` holds. As in clingo, `not -p(_)` is not
                    // projected: `_` stays unsafe.
                    let atom = if has_anonymous(&atom.term) && !atom.strong_negation {
                        self.project(atom, scope, out)?
                    } else {
                        self.atom(atom, scope, out)?
                    };
                    out.push(match naf {
                        Naf::Not => CLit::Neg(atom),
                        _ => CLit::NotNot(atom),
                    });
                    Ok(true)
                }
            },
        }
    }

    pub fn atom(
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
    pub fn term(
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
            TermKind::Constant(name) if self.undefined_constant(name).is_some() => {
                CTerm::undefined(self.symbols)
            }
            TermKind::Constant(name) if name == MAXINT && self.max_int().is_none() => {
                return Err(Diagnostic::error(
                    term.span,
                    "DLV's #int and #succ range up to #maxint, which the program does not set to a natural number (`#maxint = N.`)",
                ));
            }
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

    /// The value of the constant `name`: the part's parameter or the
    /// `#const` of that name, or else the symbol `name` itself.
    pub fn constant(&mut self, name: &str) -> SymId {
        match self.constant_value(name) {
            Some(value) => value,
            None => self.symbols.function(name, &[], false),
        }
    }

    /// DLV's `#maxint`, where the program sets it to a natural number.
    fn max_int(&self) -> Option<SymId> {
        let value = self.constant_value(MAXINT)?;
        self.symbols
            .as_number(value)
            .is_some_and(|n| n >= 0)
            .then_some(value)
    }

    /// The value of a part's parameter or a `#const` named `name`, if any.
    pub fn constant_value(&self, name: &str) -> Option<SymId> {
        let param = self.params.iter().find(|(p, _)| p == name);
        (param.map(|&(_, v)| v)).or_else(|| self.consts.get(name).copied())
    }
}

pub fn op1(op: UnaryOp) -> Op1 {
    match op {
        UnaryOp::Minus => Op1::Minus,
        UnaryOp::BitNot => Op1::BitNot,
        UnaryOp::Abs => Op1::Abs,
    }
}

/// Variable numbering for one rule. Element-local variables get fresh
/// indices per element.
#[derive(Default)]
pub struct Scope {
    pub names: FxHashMap<String, usize>,
    /// Saved global names while inside a choice element.
    element: Option<FxHashMap<String, usize>>,
    pub count: usize,
    /// First occurrence of each variable index, with its name, for messages.
    pub first: Vec<(String, Span)>,
}

impl Scope {
    pub fn var(&mut self, name: &str, span: Span) -> usize {
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
    pub fn leave_element(&mut self) {
        if let Some(saved) = self.element.take() {
            self.names = saved;
        }
    }

    pub fn enter_element(&mut self, globals: &FxHashSet<String>) {
        let saved = self.element.get_or_insert_with(|| self.names.clone());
        self.names = saved
            .iter()
            .filter(|(n, _)| globals.contains(*n))
            .map(|(n, &i)| (n.clone(), i))
            .collect();
    }
}

/// Marks `N = #agg{..}` as an assignment when nothing but aggregates binds
/// `N`, the aggregates taken in order (a later one may use what an earlier
/// one assigns). A guard `t = #agg{..}` whose term is not a variable but has
/// unbound variables (`C+1 = #min{..}`) assigns a new variable `V`, and the
/// literal `t = V` binds the others, inverting `t` as a match does.
pub fn resolve_assignments(body: &mut Vec<CLit>, scope: &mut Scope) {
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

/// The variables a body aggregate reads that must be bound first: the
/// global variables read inside its elements, and every guard variable.
fn aggregate_inputs(
    globals: &FxHashSet<String>,
    scope: &Scope,
    guards: &[(CmpOp, CTerm)],
    elements: &[CAggregateElement],
) -> Vec<usize> {
    let global_indices: FxHashSet<usize> = globals
        .iter()
        .filter_map(|name| scope.names.get(name).copied())
        .collect();
    let mut inputs = FxHashSet::default();
    for (_, term) in guards {
        term.for_each_var(&mut |v| {
            inputs.insert(v);
        });
    }
    for element in elements {
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
    inputs
}
