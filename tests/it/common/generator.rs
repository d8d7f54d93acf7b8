//! The random program generator of the differential tests: tests/it/differential.rs
//! compares asp2sat with clingo on its programs, tests/it/dimacs.rs exports them
//! to CNF and counts models. One seed, one program.
//!
//! The programs are small and non-ground, in clingo syntax, and shaped like the
//! programs people write; every construct is switched on with some probability
//! so that programs stay small and varied:
//! - layered predicates with facts (intervals, pools), normal rules, choice
//!   rules (bounds, conditions with negation), disjunction (also with two
//!   heads in one positive cycle, and with `not a` and `not not a`
//!   disjuncts), strong negation, default negation (also `not not`),
//!   constraints and positive loops
//!   (non-tight), where loop bodies match atoms whose arguments are
//!   arithmetic (`p(X) :- q(X-1), e0(X).`, `q(X+1)` binding `X` by inversion);
//! - constants of every type mixed with numbers (strings, negative numbers,
//!   function terms, tuples, `-(1,2)`, `-f(a)`) and compared across types;
//! - assignments in both directions (`Y = X+1`, `X+1 = Y`, `Y'-1 = Y`) and
//!   inversion of linear terms (`X+c`, `c+X`, `X-c`, `-X`, `2*X`,
//!   `(-(X+3))+2`) in `=` and in atom arguments;
//! - undefined arithmetic in heads, bodies, choice bounds, conditions and
//!   `#show` terms (`X/(X-1)`, `X+a`, `B**E` with `E < 0`);
//! - idioms appended to the layered program, each over its predicates:
//!   counters and reachability recursing through arithmetic in body atoms
//!   (`c(N) :- c(N-1), p(N).`, `c(X+1) :- c(X), X < k.`), Fibonacci,
//!   `not d(_,X+1)`, unification with function terms and tuples
//!   (`f(a,X,X+1) = F, sym(F)`, `(X,Y) = T, t(T)`), `p(-X)` matching
//!   `p(-(1,2))`, pools and intervals in heads and bodies (`r((1;2),(a;b)).`,
//!   `q(X;Y) :- …`, `c :- p(1..2).`);
//! - `#show p/n.`, `#show.`, `#show` terms with conditions, `#const` with
//!   expressions.
//!
//! Aggregates, conditional literals and optimization have generators of
//! their own (tests/it/aggregates.rs, tests/it/optimization.rs). Every recursion
//! that builds terms is bounded by a comparison or a finite predicate, so
//! grounding ends.
//!
//! The idioms are written by the module `idioms`.
//!
//! src/testing/ has a generator of its own for a different
//! purpose: ground programs checked by brute force inside the library.

use std::collections::BTreeSet;

use super::Rng;

mod idioms;

/// The features a program can use, in the order of the differential test's
/// summary; [`Program::features`] holds those of one program.
pub const FEATURES: &[&str] = &[
    "non-tight",
    "disjunction",
    "head cycle",
    "negated head",
    "double negation",
    "choice",
    "bounded choice",
    "conditional choice",
    "strong negation",
    "default negation",
    "arithmetic",
    "constraint",
    "comparison head",
    "#show p/n",
    "#show term",
    "#const",
    "mixed terms",
    "term comparison",
    "recursion through arithmetic",
    "fibonacci",
    "anonymous in negation",
    "anonymous in a positive literal",
    "assignment",
    "inversion",
    "unification",
    "negated terms",
    "undefined arithmetic",
    "pool or interval",
    "symmetric join",
]; // `Program::features` only holds names from this list.

pub struct Program {
    pub text: String,
    pub features: BTreeSet<&'static str>,
}

#[derive(Clone, Debug)]
struct Pred {
    name: String,
    arity: usize,
    /// 0 for facts (EDB); a rule's positive body only uses lower levels,
    /// except the loop rules of a cyclic group.
    level: usize,
    /// Positive cycles stay inside a group; only cyclic groups have them.
    group: usize,
    cyclic: bool,
    /// `-name` appears in the program.
    has_neg: bool,
}

const VARS: [&str; 6] = ["X", "Y", "Z", "W", "U", "V"];

/// Constants of other types than small numbers: with "mixed terms" on, a
/// constant is one of these now and then.
const MIXED_TERMS: [&str; 9] = [
    "\"s\"", "-1", "0", "f(a)", "(1,2)", "-(1,2)", "-f(a)", "a", "\"t\"",
];

/// Terms of every type for comparisons across types (clingo's term order:
/// numbers < constants < strings < compound terms).
const ORDER_PROBES: [&str; 6] = ["\"m\"", "b", "f(b)", "(2,a)", "0", "g"];

/// A rule body under construction: its literals and the variables it binds.
#[derive(Default)]
struct Body {
    lits: Vec<String>,
    bound: Vec<String>,
    /// Bound variables that so far occur only under a linear term
    /// (`q(X+1)`): their values are new terms, so a loop's head must not
    /// use them, or `p(X) :- q(X+1). q(X) :- p(X).` never ends.
    inverted: Vec<String>,
}

impl Body {
    /// `v` occurs plainly in an atom: its values are terms of that atom.
    fn plain(&mut self, v: &str) {
        self.inverted.retain(|w| w != v);
    }
}

struct Gen {
    rng: Rng,
    dom: i64,
    symbols: Vec<&'static str>,
    /// Strings, negative numbers, function terms and tuples among constants.
    mixed_terms: bool,
    preds: Vec<Pred>,
    /// Unary predicates the idioms define, for later idioms and rules.
    idiom_unary: Vec<String>,
    /// Binary predicates the idioms define.
    idiom_binary: Vec<String>,
    /// The recursion bound of the idioms: a number or the `#const` k.
    bound: String,
    lines: Vec<String>,
    f: BTreeSet<&'static str>,
}

impl Gen {
    fn mark(&mut self, feature: &'static str) {
        debug_assert!(FEATURES.contains(&feature), "unknown feature {feature}");
        self.f.insert(feature);
    }

    fn constant(&mut self) -> String {
        if self.mixed_terms && self.rng.chance(0.15) {
            self.mark("mixed terms");
            self.rng.pick(&MIXED_TERMS).to_string()
        } else if !self.symbols.is_empty() && self.rng.chance(0.2) {
            self.rng.pick(&self.symbols).to_string()
        } else {
            self.rng.range(1, self.dom).to_string()
        }
    }

    fn fresh(&self, body: &Body) -> String {
        VARS.iter()
            .find(|v| !body.bound.iter().any(|b| b == *v))
            .expect("out of variables")
            .to_string()
    }

    fn atom(&mut self, p: usize, neg: bool, args: &[String]) -> String {
        let sign = if neg {
            self.mark("strong negation");
            "-"
        } else {
            ""
        };
        let name = &self.preds[p].name;
        if args.is_empty() {
            format!("{sign}{name}")
        } else {
            format!("{sign}{name}({})", args.join(","))
        }
    }

    /// A linear term over the variable `v` that clingo inverts to bind `v`
    /// from the term's value.
    fn linear(&mut self, v: &str) -> String {
        self.mark("inversion");
        match self.rng.below(8) {
            0 => format!("{v}+1"),
            1 => format!("2+{v}"),
            2 => format!("{v}-1"),
            3 => format!("-{v}"),
            4 => format!("2*{v}"),
            5 => format!("{v}*2"),
            6 => format!("(-({v}+3))+2"),
            _ => format!("-({v}-1)"),
        }
    }

    /// A positive body atom over `p`; fresh variables become bound.
    fn pos_atom(&mut self, p: usize, body: &mut Body) {
        let neg = self.preds[p].has_neg && self.rng.chance(0.3);
        let mut args = Vec::new();
        for _ in 0..self.preds[p].arity {
            let a = if !body.bound.is_empty() && self.rng.chance(0.45) {
                let v = self.rng.pick(&body.bound).clone();
                if self.rng.chance(0.1) {
                    self.mark("arithmetic");
                    format!("{v}+1")
                } else {
                    body.plain(&v);
                    v
                }
            } else if body.bound.len() < VARS.len() && self.rng.chance(0.8) {
                let v = self.fresh(body);
                body.bound.push(v.clone());
                if self.rng.chance(0.1) {
                    body.inverted.push(v.clone());
                    self.linear(&v)
                } else {
                    v
                }
            } else if self.rng.chance(0.3) {
                self.mark("anonymous in a positive literal");
                "_".to_string()
            } else {
                self.constant()
            };
            args.push(a);
        }
        let a = self.atom(p, neg, &args);
        body.lits.push(a);
    }

    /// A positive atom over `p` with variables only (fresh ones, or a bound
    /// one now and then), some of them under linear arithmetic: what a loop
    /// or an entry into it joins on, `p(X) :- q(X-1), e0(X).` among others.
    /// The arithmetic only matches atoms, so the loop builds no new terms.
    fn var_atom(&mut self, p: usize, body: &mut Body) {
        let mut args = Vec::new();
        for _ in 0..self.preds[p].arity {
            if !body.bound.is_empty() && (body.bound.len() >= VARS.len() || self.rng.chance(0.2)) {
                let v = self.rng.pick(&body.bound).clone();
                if self.rng.chance(0.25) {
                    self.mark("arithmetic");
                    args.push(format!("{v}{}", self.rng.pick(&["-1", "+1"])));
                } else {
                    body.plain(&v);
                    args.push(v);
                }
            } else {
                let v = self.fresh(body);
                body.bound.push(v.clone());
                if self.rng.chance(0.15) {
                    body.inverted.push(v.clone());
                    let t = self.linear(&v);
                    args.push(t);
                } else {
                    args.push(v);
                }
            }
        }
        let a = self.atom(p, false, &args);
        body.lits.push(a);
    }

    /// A term over bound variables and constants (never an unbound variable).
    fn bound_term(&mut self, body: &Body) -> String {
        if !body.bound.is_empty() && self.rng.chance(0.75) {
            self.rng.pick(&body.bound).clone()
        } else {
            self.constant()
        }
    }

    /// Arithmetic over bound variables; undefined for some values (division
    /// by zero, a non-number operand, a negative exponent of 0).
    fn arith(&mut self, body: &Body) -> String {
        self.mark("arithmetic");
        let x = self.rng.pick(&body.bound).clone();
        let mut y = self.bound_term(body);
        if y.starts_with('-') {
            y = format!("({y})");
        }
        match self.rng.below(11) {
            0 | 1 => format!("{x}+1"),
            2 => format!("{x}-1"),
            3 => format!("{x}*2"),
            4 => format!("{x}\\2"),
            5 => format!("{x}+{y}"),
            6 => format!("{x}/{y}"),
            7 => {
                self.mark("undefined arithmetic");
                format!("{x}/({x}-1)")
            }
            8 => {
                self.mark("undefined arithmetic");
                format!("{y}**({x}-2)")
            }
            9 => {
                self.mark("undefined arithmetic");
                format!("{x}+a")
            }
            _ => format!("{x}-{y}"),
        }
    }

    /// Binds a new variable: `V = 1..2`, `V = X+1`, `X+1 = V`, or by
    /// inversion `Y'-1 = Y`, `X = 2*V`.
    fn assignment(&mut self, body: &mut Body) {
        self.mark("assignment");
        if body.bound.is_empty() || self.rng.chance(0.15) {
            let v = self.fresh(body);
            let lo = self.rng.range(0, self.dom);
            body.lits
                .push(format!("{v} = {lo}..{}", lo + self.rng.range(0, 2)));
            self.mark("pool or interval");
            body.bound.push(v);
            return;
        }
        let lit = match self.rng.below(4) {
            0 => {
                let v = self.fresh(body);
                let lit = format!("{v} = {}", self.arith(body));
                body.bound.push(v);
                lit
            }
            1 => {
                let v = self.fresh(body);
                let lit = format!("{} = {v}", self.arith(body));
                body.bound.push(v);
                lit
            }
            // Prime the name of a bound variable: `Y'-1 = Y`.
            choice => {
                let x = self.rng.pick(&body.bound).clone();
                let primed = format!("{x}'");
                let v = if body.bound.contains(&primed) {
                    self.fresh(body)
                } else {
                    primed
                };
                let t = self.linear(&v);
                body.bound.push(v);
                if choice == 2 {
                    format!("{t} = {x}")
                } else {
                    format!("{x} = {t}")
                }
            }
        };
        body.lits.push(lit);
    }

    /// Assignments, comparisons and negative literals after the positive atoms.
    fn extras(&mut self, body: &mut Body, allow_arith: bool) {
        if allow_arith && self.rng.chance(0.3) && body.bound.len() < VARS.len() {
            self.assignment(body);
        }
        if !body.bound.is_empty() && self.rng.chance(0.4) {
            let a = self.rng.pick(&body.bound).clone();
            let mut b = if allow_arith && self.rng.chance(0.2) {
                self.arith(body)
            } else if self.mixed_terms && self.rng.chance(0.25) {
                self.mark("term comparison");
                self.rng.pick(&ORDER_PROBES).to_string()
            } else {
                self.bound_term(body)
            };
            if b == a {
                // `X < X` says little: compare with another variable or a constant.
                b = match body.bound.iter().find(|v| **v != a) {
                    Some(v) if self.rng.chance(0.7) => v.clone(),
                    _ => self.constant(),
                };
            }
            let op = *self
                .rng
                .pick(&["!=", "!=", "<", "<=", ">", ">=", "=", "=="]);
            body.lits.push(format!("{a} {op} {b}"));
        }
        let nneg = if self.rng.chance(0.4) {
            self.rng.range(1, 2)
        } else {
            0
        };
        for _ in 0..nneg {
            // Mostly derived predicates: `not e(X)` on a fact mostly deletes the rule.
            let derived: Vec<usize> = (0..self.preds.len())
                .filter(|&i| self.preds[i].level > 0)
                .collect();
            let p = if derived.is_empty() || self.rng.chance(0.2) {
                self.rng.below(self.preds.len())
            } else {
                *self.rng.pick(&derived)
            };
            let neg = self.preds[p].has_neg && self.rng.chance(0.3);
            let args: Vec<String> = (0..self.preds[p].arity)
                .map(|_| {
                    // clingo finds `_` unsafe in `not -p(_)`, not in `not p(_)`.
                    if !neg && self.rng.chance(0.15) {
                        self.mark("anonymous in negation");
                        "_".to_string()
                    } else if allow_arith && !body.bound.is_empty() && self.rng.chance(0.15) {
                        self.arith(body)
                    } else {
                        self.bound_term(body)
                    }
                })
                .collect();
            let a = self.atom(p, neg, &args);
            if !args.iter().any(|arg| arg == "_") && self.rng.chance(0.15) {
                self.mark("double negation");
                body.lits.push(format!("not not {a}"));
            } else {
                body.lits.push(format!("not {a}"));
            }
            self.mark("default negation");
        }
    }

    /// A body whose positive atoms come from `pool` (1..=max_pos of them).
    fn body(&mut self, pool: &[usize], min_pos: usize, max_pos: usize, allow_arith: bool) -> Body {
        let mut body = Body::default();
        if !pool.is_empty() {
            let n = self.rng.range(min_pos as i64, max_pos as i64);
            let mut used = Vec::new();
            for _ in 0..n {
                let mut p = *self.rng.pick(pool);
                if used.contains(&p) {
                    p = *self.rng.pick(pool); // rather not `e(X), e(X)`
                }
                used.push(p);
                self.pos_atom(p, &mut body);
            }
        }
        self.extras(&mut body, allow_arith);
        body
    }

    fn head_args(&mut self, arity: usize, body: &Body, allow_arith: bool) -> Vec<String> {
        (0..arity)
            .map(|_| {
                if !body.bound.is_empty() && self.rng.chance(0.85) {
                    if allow_arith && self.rng.chance(0.12) {
                        self.arith(body)
                    } else {
                        self.rng.pick(&body.bound).clone()
                    }
                } else {
                    self.constant()
                }
            })
            .collect()
    }

    fn emit(&mut self, head: String, body: &Body) {
        self.rule(head, &body.lits);
    }

    fn rule(&mut self, head: String, lits: &[String]) {
        if lits.is_empty() {
            self.lines.push(format!("{head}."));
        } else {
            self.lines.push(format!("{head} :- {}.", lits.join(", ")));
        }
    }

    /// Predicates usable in a positive body below `level`.
    fn below(&self, level: usize) -> Vec<usize> {
        (0..self.preds.len())
            .filter(|&i| self.preds[i].level < level)
            .collect()
    }

    fn edb_facts(&mut self, p: usize) {
        let (name, arity) = (self.preds[p].name.clone(), self.preds[p].arity);
        let d = self.dom;
        let kind = self.rng.below(4);
        if arity > 0 && kind < 2 {
            self.mark("pool or interval");
        }
        let line = match (arity, kind) {
            (0, _) => format!("{name}."),
            (1, 0) => {
                let lo = self.rng.range(1, d);
                format!("{name}({lo}..{}).", self.rng.range(lo, d))
            }
            (1, 1) => {
                let mut xs: Vec<String> =
                    (0..self.rng.range(1, 3)).map(|_| self.constant()).collect();
                xs.dedup();
                format!("{name}({}).", xs.join(";"))
            }
            (1, _) => (0..self.rng.range(1, 3))
                .map(|_| format!("{name}({}).", self.constant()))
                .collect::<Vec<_>>()
                .join(" "),
            (_, 0) => format!(
                "{name}(1..{},{}..{}).",
                self.rng.range(1, 2),
                self.rng.range(1, 2),
                d
            ),
            (_, 1) => {
                let xs: Vec<String> = (0..self.rng.range(2, 3))
                    .map(|_| format!("{},{}", self.constant(), self.constant()))
                    .collect();
                format!("{name}({}).", xs.join(";"))
            }
            (_, _) => (0..self.rng.range(2, 4))
                .map(|_| format!("{name}({},{}).", self.constant(), self.constant()))
                .collect::<Vec<_>>()
                .join(" "),
        };
        self.lines.push(line);
    }

    /// A non-recursive rule with head predicate `h` (a normal, choice or
    /// disjunctive rule, or a strong negation).
    fn rule_for(&mut self, h: usize) {
        let lvl = self.preds[h].level;
        match self.rng.below(10) {
            0..=3 => {
                let pool = self.below(lvl);
                let body = self.body(&pool, 0, 2, true);
                let neg = self.preds[h].has_neg && self.rng.chance(0.3);
                let args = self.head_args(self.preds[h].arity, &body, true);
                let head = self.atom(h, neg, &args);
                self.emit(head, &body);
            }
            4..=6 => self.choice_rule(h),
            _ => self.disjunctive_rule(h),
        }
    }

    /// The condition of a choice element over `c`: `c(I,…)`, now and then
    /// with a negative literal or a comparison that is undefined for some `I`.
    fn condition(&mut self, c: usize, local: &Body) -> String {
        let mut cargs = vec!["I".to_string()];
        for _ in 1..self.preds[c].arity {
            cargs.push(self.bound_term(local));
        }
        let mut cond = self.atom(c, false, &cargs);
        match self.rng.below(6) {
            0 => {
                let derived: Vec<usize> = (0..self.preds.len())
                    .filter(|&i| self.preds[i].level > 0 && self.preds[i].arity == 1)
                    .collect();
                if !derived.is_empty() {
                    let n = *self.rng.pick(&derived);
                    let a = self.atom(n, false, &["I".to_string()]);
                    cond += &format!(", not {a}");
                    self.mark("default negation");
                }
            }
            1 => {
                self.mark("undefined arithmetic");
                cond += ", I/(I-1) >= 0";
            }
            _ => {}
        }
        cond
    }

    /// A choice bound: a number, or now and then arithmetic over the body's
    /// variables (undefined for some instances, which clingo drops).
    fn choice_bound(&mut self, body: &Body, lo: i64, hi: i64) -> String {
        if !body.bound.is_empty() && self.rng.chance(0.15) {
            let t = self.arith(body);
            format!("({t})")
        } else {
            self.rng.range(lo, hi).to_string()
        }
    }

    fn choice_rule(&mut self, h: usize) {
        self.mark("choice");
        // Heads: h, and sometimes a second predicate (`1 {a(X); b(X)} 2`).
        let mut heads = vec![h];
        if self.rng.chance(0.3) {
            let others: Vec<usize> = (0..self.preds.len())
                .filter(|&i| self.preds[i].level > 0 && i != h)
                .collect();
            if !others.is_empty() {
                heads.push(*self.rng.pick(&others));
            }
        }
        let lvl = heads.iter().map(|&i| self.preds[i].level).min().unwrap();
        let pool = self.below(lvl);
        let body = self.body(&pool, 0, 2, true);
        let mut elems = Vec::new();
        for &p in &heads {
            // Sometimes a condition binding a local variable I.
            if self.rng.chance(0.35) && self.preds[p].arity > 0 {
                let conds: Vec<usize> = self
                    .below(lvl)
                    .into_iter()
                    .filter(|&i| self.preds[i].arity >= 1)
                    .collect();
                if !conds.is_empty() {
                    let c = *self.rng.pick(&conds);
                    self.mark("conditional choice");
                    let mut local = Body {
                        bound: body.bound.clone(),
                        ..Body::default()
                    };
                    local.bound.push("I".into());
                    let cond = self.condition(c, &local);
                    let mut args = self.head_args(self.preds[p].arity, &local, false);
                    let k = self.rng.below(args.len());
                    args[k] = "I".into();
                    let a = self.atom(p, false, &args);
                    elems.push(format!("{a} : {cond}"));
                    continue;
                }
            }
            let args = self.head_args(self.preds[p].arity, &body, true);
            let a = self.atom(p, false, &args);
            elems.push(a);
        }
        if self.rng.chance(0.1) {
            // A negated element: counted towards the bounds, chosen never.
            self.mark("negated head");
            let p = *self.rng.pick(&self.below(self.preds.len()));
            let args = self.head_args(self.preds[p].arity, &body, true);
            let a = self.atom(p, false, &args);
            elems.push(format!("not {a}"));
        }
        let inner = elems.join("; ");
        let kind = self.rng.below(6);
        if kind >= 2 {
            self.mark("bounded choice");
        }
        let head = match kind {
            0 | 1 => format!("{{ {inner} }}"),
            2 => format!("{{ {inner} }} = 1"),
            3 => format!(
                "{} {{ {inner} }} {}",
                self.choice_bound(&body, 1, 1),
                self.rng.range(1, 2)
            ),
            4 => format!("{} {{ {inner} }}", self.choice_bound(&body, 0, 2)),
            _ => format!("{{ {inner} }} {}", self.choice_bound(&body, 0, 2)),
        };
        self.emit(head, &body);
    }

    /// `a(X) | b(X) :- d(X).`, mostly head-cycle-free (two head atoms in one
    /// cyclic group make a positive cycle through both), now and then with a
    /// negated disjunct `not c(X)` or `not not c(X)`.
    fn disjunctive_rule(&mut self, h: usize) {
        self.mark("disjunction");
        let mut heads: Vec<(usize, bool)> = vec![(h, false)];
        let want = self.rng.range(2, 3) as usize;
        let head_cycle = self.rng.chance(0.3);
        for _ in 0..8 {
            if heads.len() >= want {
                break;
            }
            let p = 1 + self.rng.below(self.preds.len() - 1);
            let p = p.min(self.preds.len() - 1);
            if self.preds[p].level == 0 {
                continue;
            }
            let neg = self.preds[p].has_neg && self.rng.chance(0.4);
            let clash = heads
                .iter()
                .any(|&(q, _)| self.preds[q].group == self.preds[p].group && self.preds[p].cyclic);
            if clash && head_cycle {
                self.mark("head cycle");
            }
            if !clash || head_cycle {
                heads.push((p, neg));
            }
        }
        if heads.len() == 1 && self.preds[h].has_neg && !self.preds[h].cyclic {
            heads.push((h, true)); // p(X) | -p(X)
        }
        let lvl = heads
            .iter()
            .map(|&(i, _)| self.preds[i].level)
            .min()
            .unwrap();
        let pool = self.below(lvl);
        let body = self.body(&pool, 1, 2, true);
        let mut atoms: Vec<String> = heads
            .iter()
            .map(|&(p, neg)| {
                let args = self.head_args(self.preds[p].arity, &body, true);
                self.atom(p, neg, &args)
            })
            .collect();
        if self.rng.chance(0.25) {
            self.mark("negated head");
            let p = *self.rng.pick(&self.below(self.preds.len()));
            let args = self.head_args(self.preds[p].arity, &body, true);
            let atom = self.atom(p, false, &args);
            let naf = if self.rng.chance(0.3) {
                "not not"
            } else {
                "not"
            };
            if self.rng.chance(0.15) {
                atoms.clear(); // `not c(X) :- d(X).`
            }
            let at = self.rng.below(atoms.len() + 1);
            atoms.insert(at, format!("{naf} {atom}"));
        }
        self.emit(atoms.join(" | "), &body);
    }

    /// A rule of a cyclic group whose positive body has a group member:
    /// `p(X) :- q(X).`, `tc(X,Y) :- tc(X,Z), e(Z,Y).`. No arithmetic in the
    /// head, so the recursion cannot make new terms.
    fn loop_rule(&mut self, h: usize, group: &[usize]) {
        self.mark("non-tight");
        let mut body = Body::default();
        let m = *self.rng.pick(group);
        self.var_atom(m, &mut body);
        // `tc(X,Y) :- tc(X,Z), e(Z,Y).`: a step along a lower relation.
        let step = m == h || self.rng.chance(0.5);
        let a = self.loop_rest(h, &mut body, step, 0.5);
        let head = if self.rng.chance(0.2) {
            self.mark("choice");
            format!("{{ {a} }}")
        } else {
            a
        };
        self.emit(head, &body);
    }

    /// The rest of a rule for `h` whose body starts with a member of its
    /// cyclic group: with `step` an atom of a lower level, with probability
    /// `extras` more literals; returns the head, which is not the body's first
    /// atom again if five tries can help it (not the useless `p(X) :- p(X).`).
    fn loop_rest(&mut self, h: usize, body: &mut Body, step: bool, extras: f64) -> String {
        if step {
            let pool = self.below(self.preds[h].level);
            let p = *self.rng.pick(&pool);
            self.pos_atom(p, body);
        }
        if self.rng.chance(extras) {
            self.extras(body, false);
        }
        let plain = Body {
            bound: body
                .bound
                .iter()
                .filter(|v| !body.inverted.contains(v))
                .cloned()
                .collect(),
            ..Body::default()
        };
        let mut head = String::new();
        for _ in 0..5 {
            let args = self.head_args(self.preds[h].arity, &plain, false);
            head = self.atom(h, false, &args);
            if head != body.lits[0] {
                break;
            }
        }
        head
    }

    fn constraint(&mut self) {
        self.mark("constraint");
        // At least one derived atom, so that the constraint is not about facts only.
        let all: Vec<usize> = (0..self.preds.len()).collect();
        let derived: Vec<usize> = all
            .iter()
            .copied()
            .filter(|&i| self.preds[i].level > 0)
            .collect();
        let mut body = Body::default();
        let first = *self.rng.pick(&derived);
        self.pos_atom(first, &mut body);
        if self.rng.chance(0.5) {
            let p = *self.rng.pick(&all);
            self.pos_atom(p, &mut body);
        }
        self.extras(&mut body, true);
        if body.bound.len() >= 2 && self.rng.chance(0.25) {
            // A comparison head: `X != Y :- body.` is `:- body, X = Y.`
            self.mark("comparison head");
            let (a, b) = (body.bound[0].clone(), body.bound[1].clone());
            let op = *self.rng.pick(&["!=", "<", "<=", "=", ">"]);
            self.lines
                .push(format!("{a} {op} {b} :- {}.", body.lits.join(", ")));
            return;
        }
        self.lines.push(format!(":- {}.", body.lits.join(", ")));
    }
}

/// An idiom writes its lines into the program under construction.
type Idiom = fn(&mut Gen);

impl Gen {
    /// The generator of the program of `seed`: its domain, its constants,
    /// and the recursion bound of the idioms, written as `#const k` or not.
    fn new(seed: u64) -> Gen {
        let mut rng = Rng::new(seed);
        let dom = rng.range(2, 4);
        let symbols = if rng.chance(0.2) {
            vec!["a", "b"]
        } else {
            vec![]
        };
        let mixed_terms = rng.chance(0.3);
        let mut g = Gen {
            rng,
            dom,
            symbols,
            mixed_terms,
            preds: vec![],
            idiom_unary: vec![],
            idiom_binary: vec![],
            bound: String::new(),
            lines: vec![],
            f: BTreeSet::new(),
        };
        g.lines
            .push(format!("% asp2sat differential test program, seed {seed}"));
        g.bound = if g.rng.chance(0.3) {
            g.mark("#const");
            let c = *g.rng.pick(&["2+2", "2*3-1", "7/2", "3"]);
            g.lines.push(format!("#const k = {c}."));
            "k".into()
        } else {
            g.rng.range(3, 6).to_string()
        };
        g
    }

    /// Declares the predicates: the facts' and, on 2..=3 levels, the
    /// derived ones. Returns the number of the facts' predicates and the
    /// members of each cyclic group.
    fn predicates(&mut self) -> (usize, Vec<Vec<usize>>) {
        // Facts: 2..=3 predicates e0, e1, ... of arity 0..=2.
        let n_edb = self.rng.range(2, 3) as usize;
        for i in 0..n_edb {
            let arity = if i == 0 {
                1
            } else {
                *self.rng.pick(&[0, 1, 1, 2, 2])
            };
            self.preds.push(Pred {
                name: format!("e{i}"),
                arity,
                level: 0,
                group: i,
                cyclic: false,
                has_neg: false,
            });
        }
        // Derived predicates on 2..=3 levels; some levels form a cyclic group.
        let names = ["p", "q", "r", "s", "t", "u", "w"];
        let levels = self.rng.range(2, 3) as usize;
        let mut groups: Vec<Vec<usize>> = Vec::new();
        let mut k = 0;
        for level in 1..=levels {
            let cyclic = self.rng.chance(0.6);
            let n = if cyclic && self.rng.chance(0.7) {
                2
            } else {
                self.rng.range(1, 2) as usize
            };
            let mut members = Vec::new();
            for _ in 0..n {
                let arity = if cyclic {
                    *self.rng.pick(&[1, 1, 2])
                } else {
                    *self.rng.pick(&[0, 1, 1, 1, 2, 2])
                };
                let group = if cyclic { 100 + level } else { 200 + k };
                let has_neg = self.rng.chance(0.2);
                members.push(self.preds.len());
                self.preds.push(Pred {
                    name: names[k].to_string(),
                    arity,
                    level,
                    group,
                    cyclic,
                    has_neg,
                });
                k += 1;
            }
            if cyclic {
                groups.push(members);
            }
        }
        (n_edb, groups)
    }

    /// The rules of one cyclic group.
    fn close_loop(&mut self, group: &[usize]) {
        // Close the cycle: every member gets a rule through another member
        // (or itself, for a single-predicate group like transitive closure).
        // Few extra literals, so that the loop survives grounding.
        for (j, &h) in group.iter().enumerate() {
            let next = group[(j + 1) % group.len()];
            let mut body = Body::default();
            self.var_atom(next, &mut body);
            let step = self.rng.chance(0.4);
            let head = self.loop_rest(h, &mut body, step, 0.3);
            self.emit(head, &body);
            self.mark("non-tight");
            if self.rng.chance(0.3) {
                self.loop_rule(h, group);
            }
        }
        // An undecided way into the loop, so that it is not all facts:
        // `{ p(X) } :- e0(X).` or `p(X) :- e0(X), not r(X).`
        if self.rng.chance(0.7) {
            let h = *self.rng.pick(group);
            let pool = self.below(self.preds[h].level);
            let mut body = Body::default();
            let p = *self.rng.pick(&pool);
            self.var_atom(p, &mut body);
            let args = self.head_args(self.preds[h].arity, &body, false);
            let a = self.atom(h, false, &args);
            if self.rng.chance(0.6) {
                self.mark("choice");
                self.emit(format!("{{ {a} }}"), &body);
            } else {
                let n = self.rng.below(self.preds.len());
                let nargs: Vec<String> = (0..self.preds[n].arity)
                    .map(|_| self.bound_term(&body))
                    .collect();
                let negated = self.atom(n, false, &nargs);
                body.lits.push(format!("not {negated}"));
                self.mark("default negation");
                self.emit(a, &body);
            }
        }
    }
}

pub fn generate(seed: u64) -> Program {
    let mut g = Gen::new(seed);
    let (n_edb, groups) = g.predicates();
    for i in 0..n_edb {
        g.edb_facts(i);
    }
    let idb: Vec<usize> = (n_edb..g.preds.len()).collect();
    for &h in &idb {
        let n = g.rng.range(1, 2);
        for _ in 0..n {
            g.rule_for(h);
        }
        if g.preds[h].has_neg && g.rng.chance(0.7) {
            // A rule for -h besides any disjunction p | -p.
            let pool = g.below(g.preds[h].level);
            let body = g.body(&pool, 1, 2, true);
            let args = g.head_args(g.preds[h].arity, &body, true);
            let head = g.atom(h, true, &args);
            g.emit(head, &body);
        }
    }
    for group in &groups {
        g.close_loop(group);
    }
    for _ in 0..*g.rng.pick(&[0, 0, 1, 1, 2]) {
        g.constraint();
    }
    // The idioms, each now and then; the later ones may read the earlier.
    let idioms: [(f64, Idiom); 11] = [
        (0.2, Gen::counter),
        (0.12, Gen::head_cycle),
        (0.15, Gen::reachability),
        (0.12, Gen::fibonacci),
        (0.15, Gen::inversion),
        (0.15, Gen::unification),
        (0.12, Gen::negated_terms),
        (0.2, Gen::undefined),
        (0.15, Gen::pools),
        (0.2, Gen::anonymous_negation),
        (0.15, Gen::symmetric_join),
    ];
    for (p, idiom) in idioms {
        if g.rng.chance(p) {
            idiom(&mut g);
        }
    }
    g.idiom_uses();
    if g.rng.chance(0.3) {
        g.mark("#show p/n");
        if g.rng.chance(0.07) {
            g.lines.push("#show.".into());
        } else {
            for _ in 0..g.rng.range(1, 2) {
                let p = g.rng.below(g.preds.len());
                let neg = g.preds[p].has_neg && g.rng.chance(0.3);
                let sign = if neg { "-" } else { "" };
                g.lines.push(format!(
                    "#show {sign}{}/{}.",
                    g.preds[p].name, g.preds[p].arity
                ));
            }
        }
    }
    if g.rng.chance(0.2) {
        g.show_terms();
    }
    Program {
        text: g.lines.join("\n") + "\n",
        features: g.f,
    }
}

/// For tests/it/optimization.rs: an objective over atoms that aggregate
/// assignments define (`S = #sum{..}`, `#count`, `#min`, `#max`), over its
/// programs' `p/1`, `q/1` and `w/2` (weights of both signs) on `d(1..3)`:
/// the defining rule, then an optimize statement or weak constraint at
/// `priority` (`""` or `"@k"`). Costs of which at most one holds, as the
/// values of one assignment, are what core-guided search handles worst;
/// `#min` of no element is `#sup`, a weight clingo ignores.
pub fn aggregate_objective(rng: &mut Rng, priority: &str) -> String {
    match rng.below(9) {
        0 => format!(
            "tot(S) :- S = #sum{{ W,X : p(X), w(X,W) }}.\n\
             #minimize {{ S{priority},tot : tot(S) }}.\n"
        ),
        1 => format!(
            "cnt(N) :- N = #count{{ X : q(X) }}.\n\
             #maximize {{ N{priority},cnt : cnt(N) }}.\n"
        ),
        2 => format!(
            "low(M) :- M = #min{{ W,X : q(X), w(X,W) }}.\n\
             #minimize {{ M{priority},low : low(M) }}.\n"
        ),
        3 => format!(
            "high(M) :- M = #max{{ X : p(X) }}.\n\
             :~ high(M). [-M{priority},high]\n"
        ),
        4 => format!(
            "val(S) :- S = #sum{{ X,p : p(X); -1,X,q : q(X) }}, S != 0.\n\
             #maximize {{ 2*S{priority},val : val(S) }}.\n"
        ),
        // The values' costs affine in them, and a run of values forbidden:
        // the sum itself and a bound on it (src/ground/assignments.rs).
        6 => format!(
            "tot(S) :- S = #sum{{ W,X : p(X), w(X,W) }}.\n\
             :- tot(S), S {} {}.\n\
             #minimize {{ 2*S+1{priority},tot : tot(S) }}.\n",
            rng.pick(&[">", "<", ">="]),
            rng.range(-2, 3)
        ),
        // An assignment only shown and constrained, the objective elsewhere.
        7 => format!(
            "cnt(N) :- N = #count{{ X : q(X) }}.\n\
             :- cnt(N), N < {}.\n\
             #minimize {{ 1{priority},X : q(X); 2{priority},X : p(X) }}.\n",
            rng.range(0, 3)
        ),
        // Costs not affine in the values: not the sum.
        8 => format!(
            "tot(S) :- S = #sum{{ W,X : p(X), w(X,W) }}.\n\
             #minimize {{ S*S{priority},tot : tot(S) }}.\n"
        ),
        _ => format!(
            "tot(S) :- S = #sum{{ W,X : p(X), w(X,W) }}.\n\
             cnt(N) :- N = #count{{ X : q(X) }}.\n\
             #minimize {{ S-N{priority},mix : tot(S), cnt(N) }}.\n"
        ),
    }
}
