//! The grammar-driven generator of the differential test
//! (`grammar_against_clingo` in tests/it/differential.rs): each statement is
//! built around one cell of a matrix, a term production in a place of the
//! language, and every term and literal written is counted in the matrices
//! the test prints. The test fails when a cell stays empty over its sample,
//! so what the generator covers is read off the matrix, not remembered.
//!
//! - Term productions ([`Production`]): variable, number, constant, string,
//!   arithmetic (`X+1`, `D-J`, `2*X`, `-X`, `|X-2|`, `X\2`, `X/2`, `X**2`),
//!   function, tuple, interval and pool.
//! - Places ([`Place`]): the arguments of a positive, a negated and a
//!   strongly negated body atom, the sides of a comparison, a rule's head,
//!   a disjunct, a choice element, a head aggregate's element (atom and
//!   tuple), the atom of a body aggregate's element,
//!   an element's tuple, a condition (of a conditional literal, a choice
//!   element or a disjunct), a conditional literal's own atom, a minimize
//!   element's tuple and condition, a `#show` term and its condition, and
//!   the bound of a body aggregate, a choice or a head aggregate.
//! - Literal kinds ([`LiteralKind`]: atom, `not`, `not not`, strong
//!   negation, comparison, `#true` and `#false`) in every place a literal
//!   stands ([`LiteralPlace`]).
//!
//! clingo's language allows every production in every place (an interval or
//! a pool in an argument stands for several atoms or elements; a weight that
//! is not an integer makes clingo drop its tuple); only safety restricts
//! where a variable may first occur. Atoms that bind variables of their own
//! also use them in their other arguments' arithmetic (`q(X-J,J)`, where
//! only `q` binds `J`), the shape clingo rewrites to `q(A,J), A = X-J`.
//! Objectives also go over atoms that aggregates define (`S = #sum{..}`),
//! over several priorities, with negative weights.

use super::Rng;
use std::fmt::Write as _;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Production {
    Variable,
    Number,
    Constant,
    String,
    Arithmetic,
    Function,
    Tuple,
    Interval,
    Pool,
}

pub const PRODUCTIONS: [Production; 9] = [
    Production::Variable,
    Production::Number,
    Production::Constant,
    Production::String,
    Production::Arithmetic,
    Production::Function,
    Production::Tuple,
    Production::Interval,
    Production::Pool,
];

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Place {
    Body,
    Negated,
    StrongNegated,
    Comparison,
    Head,
    Disjunction,
    ChoiceElement,
    HeadAggregate,
    AggregateElement,
    AggregateTuple,
    Condition,
    ConditionalLiteral,
    MinimizeTuple,
    MinimizeCondition,
    ShowTerm,
    ShowCondition,
    /// The bound of a body aggregate, a choice or a head aggregate, on
    /// either side, with any comparison.
    Bound,
}

pub const PLACES: [Place; 17] = [
    Place::Body,
    Place::Negated,
    Place::StrongNegated,
    Place::Comparison,
    Place::Head,
    Place::Disjunction,
    Place::ChoiceElement,
    Place::HeadAggregate,
    Place::AggregateElement,
    Place::AggregateTuple,
    Place::Condition,
    Place::ConditionalLiteral,
    Place::MinimizeTuple,
    Place::MinimizeCondition,
    Place::ShowTerm,
    Place::ShowCondition,
    Place::Bound,
];

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LiteralKind {
    Atom,
    Negated,
    DoubleNegated,
    StrongNegated,
    Comparison,
    /// `#true` or `#false`, under no, one or two `not`s.
    Boolean,
}

pub const LITERAL_KINDS: [LiteralKind; 6] = [
    LiteralKind::Atom,
    LiteralKind::Negated,
    LiteralKind::DoubleNegated,
    LiteralKind::StrongNegated,
    LiteralKind::Comparison,
    LiteralKind::Boolean,
];

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LiteralPlace {
    Body,
    AggregateCondition,
    ConditionalCondition,
    ChoiceCondition,
    HeadAggregateCondition,
    DisjunctCondition,
    MinimizeCondition,
    ShowCondition,
    /// The literal `l` of a conditional literal `l : c`.
    ConditionalLiteral,
    /// An element `l : c` of a body literal set `{ l : c; .. } op k`.
    SetElement,
    /// An element of a choice that is not a positive atom: `{ not a }`,
    /// `{ X < 2 : p(X) }`.
    ChoiceLiteral,
}

pub const LITERAL_PLACES: [LiteralPlace; 11] = [
    LiteralPlace::Body,
    LiteralPlace::AggregateCondition,
    LiteralPlace::ConditionalCondition,
    LiteralPlace::ChoiceCondition,
    LiteralPlace::HeadAggregateCondition,
    LiteralPlace::DisjunctCondition,
    LiteralPlace::MinimizeCondition,
    LiteralPlace::ShowCondition,
    LiteralPlace::ConditionalLiteral,
    LiteralPlace::SetElement,
    LiteralPlace::ChoiceLiteral,
];

pub struct Program {
    pub text: String,
    /// Every term written, by production and place.
    pub terms: Vec<(Production, Place)>,
    /// Every literal written beside the rule's binder, by kind and place.
    pub literals: Vec<(LiteralKind, LiteralPlace)>,
    /// The program optimizes: compare the optimal answer sets.
    pub optimizes: bool,
}

/// The predicates bodies read, with their arities: numbers (`d`, `e` and
/// the guessed `p`, `q`), mixed terms (`u`, `w`), and strongly negated `p`.
const READ: &[(&str, usize)] = &[("d", 1), ("e", 2), ("p", 1), ("q", 2), ("u", 1), ("w", 2)];

/// Variables the binder of a rule binds, and the binder's text.
const BINDERS: &[(&str, &[&str])] = &[
    ("d(X)", &["X"]),
    ("p(X)", &["X"]),
    ("d(X), d(Y)", &["X", "Y"]),
    ("q(X,Y)", &["X", "Y"]),
    ("e(X,Y)", &["X", "Y"]),
    ("u(X)", &["X"]),
    ("w(X,Y)", &["X", "Y"]),
];

struct Gen {
    rng: Rng,
    text: String,
    terms: Vec<(Production, Place)>,
    literals: Vec<(LiteralKind, LiteralPlace)>,
    optimizes: bool,
    /// Numbers the predicates the statements define.
    next: usize,
}

/// Statements per program, each around one cell of the term matrix.
const STATEMENTS: usize = 3;

/// The comparisons of literals and bounds.
const COMPARISONS: [&str; 6] = ["<", "<=", "=", "!=", ">", ">="];

/// The aggregate functions of a body.
const BODY_FUNCTIONS: [&str; 5] = ["#count", "#sum", "#sum+", "#min", "#max"];

/// Those of a head: no `#sum+`, whose negative weights clingo 5.4 and 5.8
/// add in a head aggregate (tests/it/regressions.rs,
/// `SEMANTICS_OVER_CLINGO`).
const HEAD_FUNCTIONS: [&str; 4] = ["#count", "#sum", "#min", "#max"];

pub fn generate(seed: u64) -> Program {
    let mut g = Gen {
        rng: Rng::new(seed),
        text: String::new(),
        terms: Vec::new(),
        literals: Vec::new(),
        optimizes: false,
        next: 0,
    };
    g.preamble();
    // The statements' cells go round the matrix with the seed, so that any
    // run of consecutive seeds fills every cell once it holds enough.
    let cells = PLACES.len() * PRODUCTIONS.len();
    for i in 0..STATEMENTS {
        let cell = (seed as usize % cells * STATEMENTS + i) % cells;
        let place = PLACES[cell % PLACES.len()];
        let production = PRODUCTIONS[cell / PLACES.len()];
        g.statement(place, production);
    }
    Program {
        text: g.text,
        terms: g.terms,
        literals: g.literals,
        optimizes: g.optimizes,
    }
}

impl Gen {
    /// A `#const` now and then, facts over numbers and mixed terms, and a
    /// few guessed atoms.
    fn preamble(&mut self) {
        // The constant `c` of the terms, now and then a number, or a
        // value no term defines, which takes away what holds it.
        match self.rng.below(4) {
            0 => self.text.push_str("#const c = 2.\n"),
            1 => self.text.push_str("#const c = f(1)+1.\n"),
            _ => {}
        }
        self.text.push_str("d(1..3).\n");
        let pairs = ["e(1,2).", "e(2,1).", "e(2,3).", "e(3,3).", "e(1,1)."];
        for pair in pairs {
            if self.rng.chance(0.6) {
                self.text.push_str(pair);
            }
        }
        self.text.push_str("e(3,1).\n");
        self.text
            .push_str("u(1). u(a). u(\"x\"). u(f(1)). u((1,a)). u(-1).\n");
        self.text
            .push_str("w(1,a). w(2,f(1)). w(3,\"x\"). w(f(2),(1,a)). w((2,b),3).\n");
        self.text.push_str("{ p(X) : d(X) }.\n");
        if self.rng.chance(0.5) {
            self.text.push_str("{ q(X,Y) : e(X,Y), X <= Y }.\n");
        } else {
            self.text.push_str("q(X,Y) :- e(X,Y), p(X).\n");
        }
        if self.rng.chance(0.4) {
            self.text.push_str("-p(X) :- d(X), not p(X), X != 2.\n");
        }
    }

    fn fresh(&mut self, name: &str) -> String {
        self.next += 1;
        format!("{name}{}", self.next)
    }

    fn binder(&mut self) -> (String, Vec<String>) {
        let (text, vars) = *self.rng.pick(BINDERS);
        (
            text.to_string(),
            vars.iter().map(|v| v.to_string()).collect(),
        )
    }

    /// A term of `production` over the bound `vars`, counted at `place`.
    fn term(&mut self, production: Production, place: Place, vars: &[String]) -> String {
        self.terms.push((production, place));
        let var = |g: &mut Gen| g.rng.pick(vars).clone();
        let simple = |g: &mut Gen| match g.rng.below(3) {
            0 => g.rng.pick(vars).clone(),
            1 => g.rng.range(-1, 3).to_string(),
            _ => g.rng.pick(&["a", "b"]).to_string(),
        };
        match production {
            Production::Variable => var(self),
            Production::Number => self.rng.range(-1, 4).to_string(),
            Production::Constant => self.rng.pick(&["a", "b", "c"]).to_string(),
            Production::String => self.rng.pick(&["\"x\"", "\"y z\""]).to_string(),
            Production::Arithmetic => {
                let a = var(self);
                let b = var(self);
                let c = self.rng.range(1, 3);
                match self.rng.below(12) {
                    0 => format!("{a}+{c}"),
                    1 => format!("{a}-{c}"),
                    2 => format!("{c}*{a}"),
                    3 => format!("-{a}"),
                    4 => format!("|{a}-{c}|"),
                    5 => format!("{a}\\{c}"),
                    6 => format!("{a}/{c}"),
                    7 => format!("{a}**2"),
                    8 => format!("{c}-{a}"),
                    9 => format!("{a}-{b}"),
                    10 => format!("{a}+{b}-{c}"),
                    _ => format!("{c}+{c}"),
                }
            }
            Production::Function => {
                let t = simple(self);
                match self.rng.below(3) {
                    0 => format!("f({t})"),
                    1 => format!("g({t},a)"),
                    _ => format!("f({})", self.term(Production::Arithmetic, place, vars)),
                }
            }
            Production::Tuple => {
                let t = simple(self);
                match self.rng.below(3) {
                    0 => format!("({t},a)"),
                    1 => format!("({t},{})", simple(self)),
                    _ => format!("({t},)"),
                }
            }
            Production::Interval => {
                let a = var(self);
                match self.rng.below(4) {
                    0 => "1..2".to_string(),
                    1 => format!("{a}..{a}+1"),
                    // Empty for some values.
                    2 => format!("{a}..1"),
                    _ => format!("0..{a}"),
                }
            }
            Production::Pool => {
                let t = simple(self);
                let u = simple(self);
                format!("({t};{u})")
            }
        }
    }

    /// Arguments for an atom of `arity`: the first is `production`, the
    /// others are drawn at random; all over `vars`.
    fn arguments(
        &mut self,
        production: Production,
        place: Place,
        arity: usize,
        vars: &[String],
    ) -> String {
        let mut args = vec![self.term(production, place, vars)];
        for _ in 1..arity {
            let other = *self.rng.pick(&PRODUCTIONS);
            args.push(self.term(other, place, vars));
        }
        if arity > 1 && self.rng.chance(0.5) {
            args.swap(0, 1);
        }
        args.join(",")
    }

    /// A positive atom that binds `local` itself (as a plain argument) and
    /// reads it, with the rule's `vars`, in its other argument's term of
    /// `production`: `q(X-J,J)`. Without `local`, an atom over `vars`.
    fn binding_atom(
        &mut self,
        production: Production,
        place: Place,
        vars: &[String],
        local: Option<&str>,
    ) -> String {
        let (pred, arity) = *self.rng.pick(READ);
        let Some(local) = local else {
            let args = self.arguments(production, place, arity, vars);
            return format!("{pred}({args})");
        };
        self.terms.push((Production::Variable, place));
        if arity == 1 {
            return format!("{pred}({local})");
        }
        // Intervals and pools do not bind: their variables come from the rule.
        let reads_local = !matches!(production, Production::Interval | Production::Pool);
        let mut scope = vars.to_vec();
        if reads_local {
            scope.push(local.to_string());
        }
        let other = self.term(production, place, &scope);
        match self.rng.chance(0.5) {
            true => format!("{pred}({other},{local})"),
            false => format!("{pred}({local},{other})"),
        }
    }

    /// A literal of a random kind in `at`, whose atom carries a term of
    /// `production` at `place`; `local`, if any, is bound by it (then it is
    /// a positive atom).
    fn literal(
        &mut self,
        production: Production,
        place: Place,
        at: LiteralPlace,
        vars: &[String],
        local: Option<&str>,
    ) -> String {
        if local.is_some() {
            self.literals.push((LiteralKind::Atom, at));
            return self.binding_atom(production, place, vars, local);
        }
        let kind = *self.rng.pick(&LITERAL_KINDS);
        self.literals.push((kind, at));
        match kind {
            LiteralKind::Atom => self.binding_atom(production, place, vars, None),
            LiteralKind::Negated => {
                format!("not {}", self.binding_atom(production, place, vars, None))
            }
            LiteralKind::DoubleNegated => {
                format!(
                    "not not {}",
                    self.binding_atom(production, place, vars, None)
                )
            }
            LiteralKind::StrongNegated => {
                format!("-p({})", self.term(production, place, vars))
            }
            LiteralKind::Comparison => {
                let op = *self.rng.pick(&COMPARISONS);
                let lhs = self.term(production, place, vars);
                let rhs = self.term(Production::Variable, place, vars);
                format!("{lhs} {op} {rhs}")
            }
            LiteralKind::Boolean => {
                let sign = *self.rng.pick(&["", "not ", "not not "]);
                let value = *self.rng.pick(&["#true", "#false"]);
                format!("{sign}{value}")
            }
        }
    }

    /// A condition that binds `local`: its binding atom, and now and then a
    /// second literal of any kind over the rule's variables and `local`.
    fn condition(
        &mut self,
        production: Production,
        place: Place,
        at: LiteralPlace,
        vars: &[String],
        local: &str,
    ) -> String {
        let binding = self.literal(production, place, at, vars, Some(local));
        if self.rng.chance(0.3) {
            return binding;
        }
        let other = *self.rng.pick(&PRODUCTIONS);
        let literal = self.literal(other, place, at, &scope_with(vars, local), None);
        format!("{binding}, {literal}")
    }

    /// Half the time ` : c` for an element, with `c` a condition in `at`
    /// that binds `J`; otherwise nothing.
    fn maybe_condition(&mut self, at: LiteralPlace, vars: &[String]) -> String {
        if !self.rng.chance(0.5) {
            return String::new();
        }
        let production = *self.rng.pick(&PRODUCTIONS);
        let condition = self.condition(production, Place::Condition, at, vars, "J");
        format!(" : {condition}")
    }

    /// An element `l` or `l : c` of a literal set or choice in `at`, its
    /// literal carrying a term of `production`; `c` binds `J`, which `l`
    /// may read.
    fn set_element(&mut self, production: Production, at: LiteralPlace, vars: &[String]) -> String {
        let condition_at = match at {
            LiteralPlace::ChoiceLiteral => LiteralPlace::ChoiceCondition,
            _ => LiteralPlace::AggregateCondition,
        };
        let condition = self.maybe_condition(condition_at, vars);
        let scope = match condition.is_empty() {
            true => vars.to_vec(),
            false => scope_with(vars, "J"),
        };
        let literal = self.literal(production, Place::AggregateElement, at, &scope, None);
        format!("{literal}{condition}")
    }

    fn statement(&mut self, place: Place, production: Production) {
        let (binder, vars) = self.binder();
        let h = self.fresh("h");
        let local = self.rng.chance(0.5).then_some("J");
        let mut scope = vars.clone();
        scope.extend(local.map(String::from));
        let frame = StatementFrame {
            production,
            place,
            h,
            binder,
            vars,
            scope,
            local,
        };
        let StatementFrame {
            h, binder, vars, ..
        } = &frame;
        let x = &vars[0];
        let text = match place {
            Place::Body => {
                let at = LiteralPlace::Body;
                let literal = self.literal(production, place, at, vars, local);
                format!("{h}({x}) :- {binder}, {literal}.")
            }
            Place::Negated | Place::StrongNegated => self.negated_statement(&frame),
            Place::Comparison => {
                self.literals
                    .push((LiteralKind::Comparison, LiteralPlace::Body));
                let op = *self.rng.pick(&COMPARISONS);
                let lhs = self.term(production, place, vars);
                let other = *self.rng.pick(&PRODUCTIONS);
                let rhs = self.term(other, place, vars);
                format!("{h}({x}) :- {binder}, {lhs} {op} {rhs}.")
            }
            Place::Head => {
                let arity = self.rng.range(1, 2) as usize;
                let args = self.arguments(production, place, arity, vars);
                format!("{h}({args}) :- {binder}.")
            }
            Place::Disjunction => {
                let a = self.arguments(production, place, 1, vars);
                let other = *self.rng.pick(&PRODUCTIONS);
                let b = self.arguments(other, place, 2, vars);
                let condition = self.maybe_condition(LiteralPlace::DisjunctCondition, vars);
                format!("{h}({a}) | {h}b({b}){condition} :- {binder}.")
            }
            Place::ChoiceElement => self.choice_statement(&frame),
            Place::HeadAggregate => self.head_aggregate_statement(&frame),
            Place::AggregateElement | Place::AggregateTuple => self.aggregate_statement(&frame),
            Place::Condition => self.condition_statement(&frame),
            Place::ConditionalLiteral => {
                let at = LiteralPlace::ConditionalCondition;
                let other = *self.rng.pick(&PRODUCTIONS);
                let condition = self.condition(other, Place::Condition, at, vars, "J");
                let inner = scope_with(vars, "J");
                let at = LiteralPlace::ConditionalLiteral;
                let literal = self.literal(production, place, at, &inner, None);
                format!("{h}({x}) :- {binder}, {literal} : {condition}.")
            }
            Place::MinimizeTuple | Place::MinimizeCondition => self.minimize_statement(&frame),
            Place::ShowTerm => {
                let term = self.term(production, place, vars);
                format!("#show {term} : {binder}.")
            }
            Place::Bound => self.bound_statement(&frame),
            Place::ShowCondition => {
                let at = LiteralPlace::ShowCondition;
                let condition = self.literal(production, place, at, vars, local);
                let shown = local.unwrap_or(x);
                format!("#show ({x},{shown}) : {binder}, {condition}.")
            }
        };
        writeln!(self.text, "{text}").unwrap();
    }

    fn negated_statement(&mut self, frame: &StatementFrame) -> String {
        let (h, binder, vars) = (&frame.h, &frame.binder, &frame.vars);
        let (production, place) = (frame.production, frame.place);
        let x = &vars[0];
        let (kind, sign) = match (place, self.rng.chance(0.5)) {
            (Place::StrongNegated, _) => (LiteralKind::StrongNegated, "-"),
            (_, true) => (LiteralKind::Negated, "not "),
            (_, false) => (LiteralKind::DoubleNegated, "not not "),
        };
        self.literals.push((kind, LiteralPlace::Body));
        let atom = match place {
            Place::StrongNegated => format!("p({})", self.term(production, place, vars)),
            _ => self.binding_atom(production, place, vars, None),
        };
        format!("{h}({x}) :- {binder}, {sign}{atom}.")
    }

    fn choice_statement(&mut self, frame: &StatementFrame) -> String {
        let (h, binder, vars) = (&frame.h, &frame.binder, &frame.vars);
        let (production, place) = (frame.production, frame.place);
        let arity = self.rng.range(1, 2) as usize;
        let args = self.arguments(production, place, arity, vars);
        let bounds = match self.rng.below(3) {
            0 => ("", ""),
            1 => ("", " 1"),
            _ => ("1 ", ""),
        };
        let condition = self.maybe_condition(LiteralPlace::ChoiceCondition, vars);
        let mut elements = format!("{h}({args}){condition}");
        // Now and then literals beside the atom, one of them twice:
        // each element counts for itself.
        if self.rng.chance(0.4) {
            let other = *self.rng.pick(&PRODUCTIONS);
            let literal = self.set_element(other, LiteralPlace::ChoiceLiteral, vars);
            let again = if self.rng.chance(0.3) {
                literal.clone()
            } else {
                String::new()
            };
            for element in [literal, again].iter().filter(|e| !e.is_empty()) {
                write!(elements, "; {element}").unwrap();
            }
        }
        format!("{}{{ {elements} }}{} :- {binder}.", bounds.0, bounds.1)
    }

    /// `#sum{ W,T : h(..) : c } >= k :- B.`: the atom's arguments and
    /// the tuple over the rule's variables and `J`, which `c` binds (now
    /// and then empty).
    fn head_aggregate_statement(&mut self, frame: &StatementFrame) -> String {
        let (h, binder, vars) = (&frame.h, &frame.binder, &frame.vars);
        let (production, place) = (frame.production, frame.place);
        let at = LiteralPlace::HeadAggregateCondition;
        let other = *self.rng.pick(&PRODUCTIONS);
        let condition = self.condition(other, Place::Condition, at, vars, "J");
        let inner = scope_with(vars, "J");
        let arity = self.rng.range(1, 2) as usize;
        let args = self.arguments(production, place, arity, &inner);
        let function = *self.rng.pick(&HEAD_FUNCTIONS);
        let op = *self.rng.pick(&COMPARISONS);
        let bound = self.rng.range(-1, 3);
        // Now and then the empty tuple: one tuple for all the elements of
        // a count, ignored by the other functions.
        let tuple = match self.rng.chance(0.15) {
            true => String::new(),
            false => format!("{},J", self.term(production, place, &inner)),
        };
        format!("{function}{{ {tuple} : {h}({args}) : {condition} }} {op} {bound} :- {binder}.")
    }

    fn aggregate_statement(&mut self, frame: &StatementFrame) -> String {
        let (h, binder, vars, scope) = (&frame.h, &frame.binder, &frame.vars, &frame.scope);
        let (production, place, local) = (frame.production, frame.place, frame.local);
        let x = &vars[0];
        let at = LiteralPlace::AggregateCondition;
        let (atom_production, tuple_production) = match place {
            Place::AggregateElement => (production, *self.rng.pick(&PRODUCTIONS)),
            _ => (*self.rng.pick(&PRODUCTIONS), production),
        };
        let condition = self.literal(atom_production, Place::AggregateElement, at, vars, local);
        let first = self.term(tuple_production, Place::AggregateTuple, scope);
        let second = self.term(Production::Variable, Place::AggregateTuple, scope);
        let function = *self.rng.pick(&BODY_FUNCTIONS);
        let element = format!("{first},{second} : {condition}");
        match self.rng.below(4) {
            // A literal set, one of its elements now and then twice:
            // each element counts for itself (`{2>1; 2>1}` is two).
            3 => {
                let at = LiteralPlace::SetElement;
                let mut elements = vec![self.set_element(atom_production, at, vars)];
                if self.rng.chance(0.3) {
                    elements.push(elements[0].clone());
                }
                if self.rng.chance(0.5) {
                    let other = *self.rng.pick(&PRODUCTIONS);
                    elements.push(self.set_element(other, at, vars));
                }
                let op = *self.rng.pick(&COMPARISONS);
                let bound = self.rng.range(0, 3);
                let elements = elements.join("; ");
                format!("{h}({x}) :- {binder}, {{ {elements} }} {op} {bound}.")
            }
            0 => {
                let op = *self.rng.pick(&COMPARISONS);
                let bound = self.rng.range(-1, 3);
                format!("{h}({x}) :- {binder}, {function}{{ {element} }} {op} {bound}.")
            }
            1 => format!("{h}({x}) :- {binder}, {x} <= {function}{{ {element} }}."),
            // An atom the aggregate defines, sometimes the objective.
            _ => {
                let defined = format!("{h}({x},S) :- {binder}, S = {function}{{ {element} }}.");
                if self.rng.chance(0.4) {
                    self.optimizes = true;
                    let sense = *self.rng.pick(&["#minimize", "#maximize"]);
                    let priority = self.rng.range(0, 2);
                    format!("{defined}\n{sense} {{ S@{priority},{x} : {h}({x},S) }}.")
                } else {
                    defined
                }
            }
        }
    }

    /// A term of the cell's production bounding a body aggregate, a
    /// choice or a head aggregate.
    fn bound_statement(&mut self, frame: &StatementFrame) -> String {
        let (h, binder, vars) = (&frame.h, &frame.binder, &frame.vars);
        let x = &vars[0];
        let bound = self.term(frame.production, frame.place, vars);
        let op = *self.rng.pick(&COMPARISONS);
        let left = self.rng.chance(0.3);
        let guarded = |counted: String| match left {
            true => format!("{bound} {op} {counted}"),
            false => format!("{counted} {op} {bound}"),
        };
        match self.rng.below(3) {
            0 => {
                let function = *self.rng.pick(&BODY_FUNCTIONS);
                let aggregate = guarded(format!("{function}{{ J : p(J) }}"));
                format!("{h}({x}) :- {binder}, {aggregate}.")
            }
            1 => {
                let choice = guarded(format!("{{ {h}({x},J) : d(J) }}"));
                format!("{choice} :- {binder}.")
            }
            _ => {
                let function = *self.rng.pick(&HEAD_FUNCTIONS);
                let aggregate = guarded(format!("{function}{{ J : {h}({x},J) : d(J) }}"));
                format!("{aggregate} :- {binder}.")
            }
        }
    }

    fn condition_statement(&mut self, frame: &StatementFrame) -> String {
        let (h, binder, vars) = (&frame.h, &frame.binder, &frame.vars);
        let (production, place) = (frame.production, frame.place);
        let x = &vars[0];
        let local = "J";
        match self.rng.below(3) {
            0 => {
                let at = LiteralPlace::ConditionalCondition;
                let condition = self.condition(production, place, at, vars, local);
                let head = *self.rng.pick(&["p(J)", "d(J)", "u(J)"]);
                format!("{h}({x}) :- {binder}, {head} : {condition}.")
            }
            1 => {
                let at = LiteralPlace::ChoiceCondition;
                let condition = self.condition(production, place, at, vars, local);
                format!("{{ {h}({x},{local}) : {condition} }} :- {binder}.")
            }
            _ => {
                let at = LiteralPlace::DisjunctCondition;
                let condition = self.condition(production, place, at, vars, local);
                format!("{h}({local}) : {condition} :- {binder}.")
            }
        }
    }

    fn minimize_statement(&mut self, frame: &StatementFrame) -> String {
        let (binder, vars, scope) = (&frame.binder, &frame.vars, &frame.scope);
        let (production, place, local) = (frame.production, frame.place, frame.local);
        self.optimizes = true;
        let at = LiteralPlace::MinimizeCondition;
        let (tuple_production, condition_production) = match place {
            Place::MinimizeTuple => (production, *self.rng.pick(&PRODUCTIONS)),
            _ => (*self.rng.pick(&PRODUCTIONS), production),
        };
        let condition = self.literal(
            condition_production,
            Place::MinimizeCondition,
            at,
            vars,
            local,
        );
        let weight = match self.rng.chance(0.5) {
            true => self.term(tuple_production, Place::MinimizeTuple, scope),
            false => self.rng.range(-2, 3).to_string(),
        };
        let term = self.term(tuple_production, Place::MinimizeTuple, scope);
        let priority = self.rng.range(0, 2);
        match self.rng.below(3) {
            0 => format!("#minimize {{ {weight}@{priority},{term} : {binder}, {condition} }}."),
            1 => format!("#maximize {{ {weight}@{priority},{term} : {binder}, {condition} }}."),
            _ => format!(":~ {binder}, {condition}. [{weight}@{priority},{term}]"),
        }
    }
}

/// What the generator of one statement chose before its place's form: the
/// production and place it writes, the head's predicate `h`, the binder of the rule's variables, those
/// variables (`scope` with an element's own `J` when there is one).
struct StatementFrame {
    production: Production,
    place: Place,
    h: String,
    binder: String,
    vars: Vec<String>,
    scope: Vec<String>,
    local: Option<&'static str>,
}

fn scope_with(vars: &[String], local: &str) -> Vec<String> {
    let mut scope = vars.to_vec();
    scope.push(local.to_string());
    scope
}

/// How often each cell of a matrix was written, as a table: one row per
/// row label, one column per column label.
pub fn matrix<R: PartialEq + std::fmt::Debug, C: PartialEq + std::fmt::Debug>(
    rows: &[R],
    columns: &[C],
    cells: impl IntoIterator<Item = (R, C)>,
) -> Vec<Vec<usize>> {
    let mut counts = vec![vec![0; columns.len()]; rows.len()];
    for (r, c) in cells {
        let i = rows.iter().position(|x| *x == r).unwrap();
        let j = columns.iter().position(|x| *x == c).unwrap();
        counts[i][j] += 1;
    }
    counts
}

/// The table of `counts`, with the column labels' first letters abbreviated
/// in a legend.
pub fn show_matrix<R: std::fmt::Debug, C: std::fmt::Debug>(
    rows: &[R],
    columns: &[C],
    counts: &[Vec<usize>],
) -> String {
    let mut out = String::new();
    let labels: Vec<String> = columns.iter().map(|c| format!("{c:?}")).collect();
    let width = labels.iter().map(|l| l.len()).max().unwrap_or(0).max(6);
    let _ = write!(out, "{:>14}", "");
    for label in &labels {
        let _ = write!(out, " {label:>width$}");
    }
    out.push('\n');
    for (row, counts) in rows.iter().zip(counts) {
        let _ = write!(out, "{:>14}", format!("{row:?}"));
        for n in counts {
            let _ = write!(out, " {n:>width$}");
        }
        out.push('\n');
    }
    out
}
