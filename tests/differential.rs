//! Differential test against clingo 5.4: random small non-ground programs in
//! clingo syntax, solved with `-n 0 --outf=2` by clingo and by asp2sat; the
//! sets of answer sets (and their multiplicity, and the exit codes 20/30) must
//! be the same. Where they differ, clingo `--eq=0` gets a second say (see
//! [`clingo_without_eq`]): clingo's default preprocessing loses answer sets of
//! some disjunctive programs; agreeing with that second opinion is a pass,
//! counted and listed in the summary.
//!
//! Environment:
//!   ASP2SAT_DIFF_CASES  number of programs (default 300)
//!   ASP2SAT_DIFF_SEED   seed of the first program (default 1); program i has
//!                       seed ASP2SAT_DIFF_SEED + i, so one failing program is
//!                       rerun with ASP2SAT_DIFF_SEED=<its seed> ASP2SAT_DIFF_CASES=1
//!   ASP2SAT_DIFF_CLINGO_ONLY=1  only check that clingo accepts every program
//!                       (a check of the generator; asp2sat is not run)
//!   ASP2SAT_DIFF_KEEP=1 keep every program in target/tmp/differential
//!                       (failing ones are always kept)
//!   ASP2SAT_DIFF_CONDITIONS=facts  conditions of choice elements only over
//!                       facts (e0/1), never over derived predicates: a
//!                       temporary way around a known asp2sat limitation
//!                       ("a choice element's condition depends on the choice
//!                       itself"); default: any lower predicate
//!   ASP2SAT_CLINGO      the clingo binary (default `clingo` on PATH)
//!
//! clingo must be installed (Debian package `gringo`); without it this test
//! fails rather than passing silently.

mod common;

use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::path::PathBuf;

use common::*;

// ---------------------------------------------------------------------------
// Random program generator

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

#[derive(Default, Clone, Debug)]
struct Features {
    nontight: bool,
    disjunction: bool,
    choice: bool,
    bounded_choice: bool,
    conditional_choice: bool,
    strong_negation: bool,
    negation: bool,
    arithmetic: bool,
    show: bool,
    constraint: bool,
    symbolic: bool,
}

impl Features {
    /// The features in the order of the summary's counts.
    fn flags(&self) -> [bool; 11] {
        [
            self.nontight,
            self.disjunction,
            self.choice,
            self.bounded_choice,
            self.conditional_choice,
            self.strong_negation,
            self.negation,
            self.arithmetic,
            self.show,
            self.constraint,
            self.symbolic,
        ]
    }
}

struct Program {
    text: String,
    features: Features,
}

const VARS: [&str; 6] = ["X", "Y", "Z", "W", "U", "V"];

/// A rule body under construction: its literals and the variables it binds.
#[derive(Default)]
struct Body {
    lits: Vec<String>,
    bound: Vec<String>,
}

struct Gen {
    rng: Rng,
    /// ASP2SAT_DIFF_CONDITIONS=facts: choice conditions only over facts.
    fact_conditions: bool,
    dom: i64,
    symbols: Vec<&'static str>,
    preds: Vec<Pred>,
    lines: Vec<String>,
    f: Features,
}

impl Gen {
    fn constant(&mut self) -> String {
        if !self.symbols.is_empty() && self.rng.chance(0.2) {
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

    fn atom(&self, p: usize, neg: bool, args: &[String]) -> String {
        let pr = &self.preds[p];
        let sign = if neg { "-" } else { "" };
        if args.is_empty() {
            format!("{sign}{}", pr.name)
        } else {
            format!("{sign}{}({})", pr.name, args.join(","))
        }
    }

    /// A positive body atom over `p`; fresh variables become bound.
    fn pos_atom(&mut self, p: usize, body: &mut Body) {
        let neg = self.preds[p].has_neg && self.rng.chance(0.3);
        self.pos_atom_signed(p, neg, body);
    }

    fn pos_atom_signed(&mut self, p: usize, neg: bool, body: &mut Body) {
        let mut args = Vec::new();
        for _ in 0..self.preds[p].arity {
            let a = if !body.bound.is_empty() && self.rng.chance(0.45) {
                self.rng.pick(&body.bound).clone()
            } else if body.bound.len() < VARS.len() && self.rng.chance(0.8) {
                let v = self.fresh(body);
                body.bound.push(v.clone());
                v
            } else if self.rng.chance(0.3) {
                "_".to_string()
            } else {
                self.constant()
            };
            args.push(a);
        }
        body.lits.push(self.atom(p, neg, &args));
    }

    /// A positive atom over `p` with variables only (fresh ones, or a bound
    /// one now and then): what a loop or an entry into it joins on.
    fn var_atom(&mut self, p: usize, body: &mut Body) {
        let mut args = Vec::new();
        for _ in 0..self.preds[p].arity {
            if !body.bound.is_empty() && (body.bound.len() >= VARS.len() || self.rng.chance(0.2)) {
                args.push(self.rng.pick(&body.bound).clone());
            } else {
                let v = self.fresh(body);
                body.bound.push(v.clone());
                args.push(v);
            }
        }
        body.lits.push(self.atom(p, false, &args));
    }

    /// A term over bound variables and constants (never an unbound variable).
    fn bound_term(&mut self, body: &Body) -> String {
        if !body.bound.is_empty() && self.rng.chance(0.75) {
            self.rng.pick(&body.bound).clone()
        } else {
            self.constant()
        }
    }

    fn arith(&mut self, body: &Body) -> String {
        self.f.arithmetic = true;
        let x = self.rng.pick(&body.bound).clone();
        let y = self.bound_term(body);
        match self.rng.below(8) {
            0 | 1 => format!("{x}+1"),
            2 => format!("{x}-1"),
            3 => format!("{x}*2"),
            4 => format!("{x}\\2"),
            5 => format!("{x}+{y}"),
            6 => format!("{x}/{y}"),
            _ => format!("{x}-{y}"),
        }
    }

    /// Assignments, comparisons and negative literals after the positive atoms.
    fn extras(&mut self, body: &mut Body, allow_arith: bool) {
        if allow_arith && self.rng.chance(0.3) && body.bound.len() < VARS.len() {
            let v = self.fresh(body);
            let rhs = if body.bound.is_empty() || self.rng.chance(0.2) {
                let lo = self.rng.range(0, self.dom);
                format!("{lo}..{}", lo + self.rng.range(0, 2))
            } else {
                self.arith(body)
            };
            body.lits.push(format!("{v} = {rhs}"));
            body.bound.push(v);
        }
        if !body.bound.is_empty() && self.rng.chance(0.4) {
            let a = self.rng.pick(&body.bound).clone();
            let mut b = if allow_arith && self.rng.chance(0.2) {
                self.arith(body)
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
                .map(|_| self.bound_term(body))
                .collect();
            body.lits.push(format!("not {}", self.atom(p, neg, &args)));
            self.f.negation = true;
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
        if body.lits.is_empty() {
            self.lines.push(format!("{head}."));
        } else {
            self.lines
                .push(format!("{head} :- {}.", body.lits.join(", ")));
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
        let line = match (arity, self.rng.below(4)) {
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

    fn choice_rule(&mut self, h: usize) {
        self.f.choice = true;
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
                    let mut c = *self.rng.pick(&conds);
                    if self.fact_conditions && self.preds[c].level > 0 {
                        c = 0; // e0/1, always facts
                    }
                    self.f.conditional_choice = true;
                    let mut local = Body {
                        lits: vec![],
                        bound: body.bound.clone(),
                    };
                    local.bound.push("I".into());
                    let mut cargs = vec!["I".to_string()];
                    for _ in 1..self.preds[c].arity {
                        cargs.push(self.bound_term(&local));
                    }
                    let mut args = self.head_args(self.preds[p].arity, &local, false);
                    let k = self.rng.below(args.len());
                    args[k] = "I".into();
                    elems.push(format!(
                        "{} : {}",
                        self.atom(p, false, &args),
                        self.atom(c, false, &cargs)
                    ));
                    continue;
                }
            }
            let args = self.head_args(self.preds[p].arity, &body, true);
            elems.push(self.atom(p, false, &args));
        }
        let inner = elems.join("; ");
        let head = match self.rng.below(6) {
            0 | 1 => format!("{{ {inner} }}"),
            2 => {
                self.f.bounded_choice = true;
                format!("{{ {inner} }} = 1")
            }
            3 => {
                self.f.bounded_choice = true;
                format!("1 {{ {inner} }} {}", self.rng.range(1, 2))
            }
            4 => {
                self.f.bounded_choice = true;
                format!("{} {{ {inner} }}", self.rng.range(0, 2))
            }
            _ => {
                self.f.bounded_choice = true;
                format!("{{ {inner} }} {}", self.rng.range(0, 2))
            }
        };
        self.emit(head, &body);
    }

    /// `a(X) | b(X) :- d(X).` kept head-cycle-free: two head atoms never share
    /// a cyclic group, so no positive cycle runs through two of them.
    fn disjunctive_rule(&mut self, h: usize) {
        self.f.disjunction = true;
        let mut heads: Vec<(usize, bool)> = vec![(h, false)];
        let want = self.rng.range(2, 3) as usize;
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
            if !clash {
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
        let atoms: Vec<String> = heads
            .iter()
            .map(|&(p, neg)| {
                let args = self.head_args(self.preds[p].arity, &body, true);
                self.atom(p, neg, &args)
            })
            .collect();
        self.emit(atoms.join(" | "), &body);
    }

    /// A rule of a cyclic group whose positive body has a group member:
    /// `p(X) :- q(X).`, `tc(X,Y) :- tc(X,Z), e(Z,Y).`. No arithmetic, so the
    /// recursion cannot make new terms.
    fn loop_rule(&mut self, h: usize, group: &[usize]) {
        self.f.nontight = true;
        let mut body = Body::default();
        let m = *self.rng.pick(group);
        self.var_atom(m, &mut body);
        // `tc(X,Y) :- tc(X,Z), e(Z,Y).`: a step along a lower relation.
        let step = m == h || self.rng.chance(0.5);
        let a = self.loop_rest(h, &mut body, step, 0.5);
        let head = if self.rng.chance(0.2) {
            self.f.choice = true;
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
        let mut head = String::new();
        for _ in 0..5 {
            let args = self.head_args(self.preds[h].arity, body, false);
            head = self.atom(h, false, &args);
            if head != body.lits[0] {
                break;
            }
        }
        head
    }

    fn constraint(&mut self) {
        self.f.constraint = true;
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
        self.lines.push(format!(":- {}.", body.lits.join(", ")));
    }
}

fn generate(seed: u64) -> Program {
    let mut rng = Rng::new(seed);
    let dom = rng.range(2, 4);
    let symbols = if rng.chance(0.2) {
        vec!["a", "b"]
    } else {
        vec![]
    };
    let fact_conditions = std::env::var("ASP2SAT_DIFF_CONDITIONS").is_ok_and(|v| v == "facts");
    let mut g = Gen {
        rng,
        fact_conditions,
        dom,
        symbols,
        preds: vec![],
        lines: vec![],
        f: Features::default(),
    };
    g.f.symbolic = !g.symbols.is_empty();
    g.lines
        .push(format!("% asp2sat differential test program, seed {seed}"));

    // Facts: 2..=3 predicates e0, e1, ... of arity 0..=2.
    let n_edb = g.rng.range(2, 3) as usize;
    for i in 0..n_edb {
        let arity = if i == 0 {
            1
        } else {
            *g.rng.pick(&[0, 1, 1, 2, 2])
        };
        g.preds.push(Pred {
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
    let levels = g.rng.range(2, 3) as usize;
    let mut groups: Vec<Vec<usize>> = Vec::new();
    let mut k = 0;
    for level in 1..=levels {
        let cyclic = g.rng.chance(0.6);
        let n = if cyclic && g.rng.chance(0.7) {
            2
        } else {
            g.rng.range(1, 2) as usize
        };
        let mut members = Vec::new();
        for j in 0..n {
            let arity = if cyclic {
                *g.rng.pick(&[1, 1, 2])
            } else {
                *g.rng.pick(&[0, 1, 1, 1, 2, 2])
            };
            let group = if cyclic { 100 + level } else { 200 + k };
            let has_neg = g.rng.chance(0.2);
            let idx = g.preds.len();
            g.preds.push(Pred {
                name: names[k].to_string(),
                arity,
                level,
                group,
                cyclic,
                has_neg,
            });
            members.push(idx);
            k += 1;
            let _ = j;
        }
        if cyclic {
            groups.push(members);
        }
    }
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
        // Close the cycle: every member gets a rule through another member
        // (or itself, for a single-predicate group like transitive closure).
        // Few extra literals, so that the loop survives grounding.
        for (j, &h) in group.iter().enumerate() {
            let next = group[(j + 1) % group.len()];
            let mut body = Body::default();
            g.var_atom(next, &mut body);
            let step = g.rng.chance(0.4);
            let head = g.loop_rest(h, &mut body, step, 0.3);
            g.emit(head, &body);
            g.f.nontight = true;
            if g.rng.chance(0.3) {
                g.loop_rule(h, group);
            }
        }
        // An undecided way into the loop, so that it is not all facts:
        // `{ p(X) } :- e0(X).` or `p(X) :- e0(X), not r(X).`
        if g.rng.chance(0.7) {
            let h = *g.rng.pick(group);
            let pool = g.below(g.preds[h].level);
            let mut body = Body::default();
            let p = *g.rng.pick(&pool);
            g.var_atom(p, &mut body);
            let args = g.head_args(g.preds[h].arity, &body, false);
            let a = g.atom(h, false, &args);
            if g.rng.chance(0.6) {
                g.f.choice = true;
                g.emit(format!("{{ {a} }}"), &body);
            } else {
                let n = g.rng.below(g.preds.len());
                let nargs: Vec<String> =
                    (0..g.preds[n].arity).map(|_| g.bound_term(&body)).collect();
                body.lits.push(format!("not {}", g.atom(n, false, &nargs)));
                g.f.negation = true;
                g.emit(a, &body);
            }
        }
    }
    for _ in 0..*g.rng.pick(&[0, 0, 1, 1, 2]) {
        g.constraint();
    }
    if g.rng.chance(0.3) {
        g.f.show = true;
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
    // Strong negation: `-p` starts an atom (arithmetic is written without spaces).
    g.f.strong_negation = g
        .lines
        .iter()
        .any(|l| !l.starts_with('%') && (l.starts_with('-') || l.contains(" -")));
    Program {
        text: g.lines.join("\n") + "\n",
        features: g.f,
    }
}

// ---------------------------------------------------------------------------
// Running and comparing

fn clingo_bin() -> PathBuf {
    PathBuf::from(std::env::var("ASP2SAT_CLINGO").unwrap_or_else(|_| "clingo".into()))
}

/// clingo's version line; fails the test with a clear message without clingo.
fn require_clingo() -> String {
    let bin = clingo_bin();
    let out = std::process::Command::new(&bin).arg("--version").output();
    match out {
        Ok(o) if o.status.success() => String::from_utf8_lossy(&o.stdout)
            .lines()
            .next()
            .unwrap_or("")
            .to_string(),
        Ok(o) => panic!(
            "`{} --version` failed ({}): the differential test needs clingo 5.4",
            bin.display(),
            o.status
        ),
        Err(e) => panic!(
            "clingo not found ({}: {e}).\nThe differential test compares asp2sat with clingo and cannot run without it: \
             install it with `apt-get install -y gringo` (Debian's clingo 5.4, what .ci/run does) or set ASP2SAT_CLINGO.",
            bin.display()
        ),
    }
}

/// More answer sets than this and the program is skipped (reported, not
/// compared): the generator keeps this rare.
const MAX_MODELS: u64 = 5000;

enum Outcome {
    Pass {
        models: u64,
        features: Features,
        /// Agrees only with the second opinion, clingo --eq=0.
        clingo_eq_bug: bool,
    },
    Skip(String),
    Fail(String),
}

fn show_sets(ws: &[Vec<String>], max: usize) -> String {
    let mut s = String::new();
    for w in ws.iter().take(max) {
        let _ = writeln!(s, "    {{{}}}", w.join(", "));
    }
    if ws.len() > max {
        let _ = writeln!(s, "    ... {} more", ws.len() - max);
    }
    if ws.is_empty() {
        s += "    (none)\n";
    }
    s
}

/// Remove a program that passed, unless ASP2SAT_DIFF_KEEP=1.
fn discard(file: &std::path::Path) {
    if !std::env::var("ASP2SAT_DIFF_KEEP").is_ok_and(|v| v == "1") {
        let _ = std::fs::remove_file(file);
    }
}

/// What differs between clingo's answer (`want`, from exit code `want_code`)
/// and asp2sat's; empty if nothing.
fn compare(
    want: &Answer,
    want_code: Option<i32>,
    got: &Answer,
    got_code: Option<i32>,
) -> Vec<String> {
    let mut problems = Vec::new();
    if got_code != want_code {
        problems.push(format!(
            "exit code: clingo {want_code:?}, asp2sat {got_code:?}"
        ));
    }
    if got.result != want.result {
        problems.push(format!(
            "Result: clingo {}, asp2sat {}",
            want.result, got.result
        ));
    }
    if got.number != want.number || got.more != want.more {
        problems.push(format!(
            "Models: clingo {} (More: {}), asp2sat {} (More: {})",
            want.number, want.more, got.number, got.more
        ));
    }
    let ws: BTreeSet<&Vec<String>> = want.witnesses.iter().collect();
    let gs: BTreeSet<&Vec<String>> = got.witnesses.iter().collect();
    if ws != gs {
        let only_c: Vec<Vec<String>> = ws.difference(&gs).map(|w| (*w).clone()).collect();
        let only_a: Vec<Vec<String>> = gs.difference(&ws).map(|w| (*w).clone()).collect();
        problems.push(format!(
            "answer sets differ\n  only clingo ({}):\n{}  only asp2sat ({}):\n{}",
            only_c.len(),
            show_sets(&only_c, 10),
            only_a.len(),
            show_sets(&only_a, 10)
        ));
    } else if want.sorted() != got.sorted() {
        problems.push(format!(
            "same answer sets, different multiplicity (clingo prints {} witnesses, asp2sat {}; \
             with hidden atoms a visible set repeats once per answer set)",
            want.witnesses.len(),
            got.witnesses.len()
        ));
    }
    problems
}

/// The second opinion: clingo with `--eq=0` on the program with every atom
/// shown, each distinct answer set once, then projected onto the program's
/// `#show` signatures here. clasp's equivalence preprocessing (on by default)
/// loses answer sets of some head-cycle-free disjunctive programs (clingo
/// 5.4.1 and 5.8 alike), e.g.
///     p(2) | q(3).  p(2) | r(1).  q(3) :- r(3), p(2).  r(3) :- q(3).
///     1 { p(2) } 1 :- not r(1).
/// has the answer sets {p(2)} and {q(3), r(1), r(3)}; plain clingo prints only
/// {p(2)}. With `--eq=0` it finds both but may print one answer set many
/// times over (the same full set, so deduplicating is right).
fn clingo_without_eq(text: &str, file: &std::path::Path) -> Result<(Answer, Option<i32>), String> {
    let mut sigs: Vec<(String, usize)> = Vec::new();
    let mut any_show = false;
    let mut body = String::new();
    for line in text.lines() {
        if let Some(rest) = line.strip_prefix("#show") {
            any_show = true;
            if let Some((name, arity)) = rest.trim().trim_end_matches('.').split_once('/') {
                sigs.push((name.trim().to_string(), arity.trim().parse().unwrap()));
            }
        } else {
            body += line;
            body += "\n";
        }
    }
    let full = file.with_extension("all.lp");
    std::fs::write(&full, body).unwrap();
    let args: Vec<String> = ["--eq=0", "-n", "0", "--outf=2", full.to_str().unwrap()]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let c = run(&clingo_bin(), &args, &root(), None, timeout());
    let _ = std::fs::remove_file(&full);
    let mut ans = parse_json_answer(&c.stdout).map_err(|e| format!("clingo --eq=0: {e}"))?;
    let distinct: BTreeSet<Vec<String>> = ans.witnesses.drain(..).collect();
    ans.witnesses = distinct
        .into_iter()
        .map(|w| {
            w.into_iter()
                .filter(|a| {
                    let (name, args) = split_atom(a);
                    !any_show || sigs.iter().any(|(n, k)| *n == name && *k == args.len())
                })
                .collect()
        })
        .collect();
    ans.number = ans.witnesses.len() as u64;
    Ok((ans, c.code))
}

fn run_case(seed: u64, dir: &std::path::Path, clingo_only: bool) -> Outcome {
    let prog = generate(seed);
    let file = dir.join(format!("prog_{seed}.lp"));
    std::fs::write(&file, &prog.text).unwrap();
    let path = file.display().to_string();
    let args = vec![
        "-n".to_string(),
        "0".into(),
        "--outf=2".into(),
        path.clone(),
    ];
    let repro = format!(
        "ASP2SAT_DIFF_SEED={seed} ASP2SAT_DIFF_CASES=1 cargo test --release --test differential"
    );
    let head = |what: &str| {
        format!(
            "seed {seed}: {what}\n--- program ({path}) ---\n{}---\nrerun: {repro}\n",
            prog.text
        )
    };

    let c = run(&clingo_bin(), &args, &root(), None, timeout());
    if c.timed_out {
        return Outcome::Skip(format!("seed {seed}: clingo took over {:?}", c.elapsed));
    }
    if !matches!(c.code, Some(20) | Some(30)) {
        return Outcome::Fail(head(&format!(
            "clingo rejected the generated program ({}) -- a bug in the generator\n{}",
            c.status(),
            c.stderr
        )));
    }
    let want = match parse_json_answer(&c.stdout) {
        Ok(a) => a,
        Err(e) => return Outcome::Fail(head(&format!("cannot read clingo's JSON: {e}"))),
    };
    if want.number > MAX_MODELS {
        discard(&file);
        return Outcome::Skip(format!("seed {seed}: {} answer sets", want.number));
    }
    let pass = |clingo_eq_bug| Outcome::Pass {
        models: want.number,
        features: prog.features.clone(),
        clingo_eq_bug,
    };
    if clingo_only {
        discard(&file);
        return pass(false);
    }

    let a = asp2sat_solve(&args, None);
    let mut problems = Vec::new();
    if a.stderr.contains("panicked") {
        problems.push("asp2sat panicked".to_string());
    }
    let got = match parse_json_answer(&a.stdout) {
        Ok(g) => Some(g),
        Err(e) => {
            problems.push(format!(
                "exit code: clingo {}, asp2sat {}\nasp2sat's output is not clingo JSON: {e}\n  stdout: {}",
                c.status(),
                a.status(),
                a.stdout.trim()
            ));
            None
        }
    };
    let mut second = None;
    if let Some(got) = &got {
        problems.extend(compare(&want, c.code, got, a.code));
        if !problems.is_empty() {
            match clingo_without_eq(&prog.text, &file) {
                Ok((want2, code2)) => {
                    if compare(&want2, code2, got, a.code).is_empty() {
                        discard(&file);
                        return pass(true);
                    }
                    second = Some(want2);
                }
                Err(e) => problems.push(e),
            }
        }
    }
    if problems.is_empty() {
        discard(&file);
        return pass(false);
    }
    let mut msg = head(&problems.join("\n"));
    let _ = write!(
        msg,
        "clingo ({} answer sets):\n{}",
        want.witnesses.len(),
        show_sets(&want.sorted(), 12)
    );
    if let Some(w2) = &second
        && w2.sorted() != want.sorted()
    {
        let _ = write!(
            msg,
            "clingo --eq=0, each answer set once ({} answer sets):\n{}",
            w2.witnesses.len(),
            show_sets(&w2.sorted(), 12)
        );
    }
    if let Some(got) = &got {
        let _ = write!(
            msg,
            "asp2sat ({} answer sets):\n{}",
            got.witnesses.len(),
            show_sets(&got.sorted(), 12)
        );
    }
    if !a.stderr.trim().is_empty() {
        let _ = writeln!(msg, "asp2sat stderr:\n{}", a.stderr.trim_end());
    }
    Outcome::Fail(msg)
}

#[test]
fn differential_against_clingo() {
    let version = require_clingo();
    let cases = env_u64("ASP2SAT_DIFF_CASES", 300);
    let seed0 = env_u64("ASP2SAT_DIFF_SEED", 1);
    let clingo_only = std::env::var("ASP2SAT_DIFF_CLINGO_ONLY").is_ok_and(|v| v == "1");
    let dir = scratch("differential");
    let seeds: Vec<u64> = (0..cases).map(|i| seed0 + i).collect();
    let start = std::time::Instant::now();
    let outcomes = parallel_map(&seeds, threads(), |_, &s| run_case(s, &dir, clingo_only));

    let (mut pass, mut unsat, mut many) = (0, 0, 0);
    let mut feats = [0usize; 11];
    let mut skips = Vec::new();
    let mut fails = Vec::new();
    let mut eq_bug = Vec::new();
    for (o, seed) in outcomes.into_iter().zip(&seeds) {
        match o {
            Outcome::Pass {
                models,
                features: f,
                clingo_eq_bug,
            } => {
                pass += 1;
                if clingo_eq_bug {
                    eq_bug.push(seed.to_string());
                }
                if models == 0 {
                    unsat += 1;
                }
                if models > 1 {
                    many += 1;
                }
                for (i, b) in f.flags().iter().enumerate() {
                    feats[i] += *b as usize;
                }
            }
            Outcome::Skip(s) => skips.push(s),
            Outcome::Fail(s) => fails.push(s),
        }
    }
    println!(
        "differential: {cases} programs from seed {seed0} against {version}{} in {:.1?}: {pass} agree ({unsat} unsatisfiable, {many} with several answer sets), {} skipped, {} differ",
        match (
            clingo_only,
            std::env::var("ASP2SAT_DIFF_CONDITIONS").as_deref()
        ) {
            (true, _) => " (clingo only)",
            (false, Ok("facts")) => " (choice conditions over facts only)",
            _ => "",
        },
        start.elapsed(),
        skips.len(),
        fails.len()
    );
    println!(
        "  features among agreeing programs: non-tight {}, disjunction {}, choice {}, bounded choice {}, conditional choice {}, strong negation {}, default negation {}, arithmetic {}, #show {}, constraints {}, symbolic constants {}",
        feats[0],
        feats[1],
        feats[2],
        feats[3],
        feats[4],
        feats[5],
        feats[6],
        feats[7],
        feats[8],
        feats[9],
        feats[10]
    );
    if !eq_bug.is_empty() {
        println!(
            "  {} of them agree with clingo --eq=0 but not with plain clingo (clasp's equivalence preprocessing), seeds: {}",
            eq_bug.len(),
            eq_bug.join(" ")
        );
    }
    for s in &skips {
        println!("  skipped {s}");
    }
    if !fails.is_empty() {
        let shown: Vec<&String> = fails.iter().take(10).collect();
        // One line per failing program (its seed and first problem), then details.
        let index: Vec<String> = fails
            .iter()
            .map(|f| {
                let mut lines = f.lines();
                let first = lines.next().unwrap_or("");
                let second = lines.next().unwrap_or("");
                format!("  {first} {second}")
            })
            .collect();
        panic!(
            "{} of {cases} programs differ from clingo (failing programs are kept in {}):\n{}\n\nthe first {}:\n\n{}",
            fails.len(),
            dir.display(),
            index.join("\n"),
            shown.len(),
            shown
                .iter()
                .map(|s| s.as_str())
                .collect::<Vec<_>>()
                .join("\n")
        );
    }
    assert!(
        skips.len() * 10 <= cases as usize,
        "too many skipped programs: {}",
        skips.len()
    );
}

/// The same seed gives the same program; different seeds differ.
#[test]
fn generator_is_deterministic() {
    assert_eq!(generate(42).text, generate(42).text);
    assert_ne!(generate(42).text, generate(43).text);
}

/// The generator reaches every feature the differential test is meant to cover.
#[test]
fn generator_covers_features() {
    let mut c = [0usize; 11];
    let mut text = String::new();
    for seed in 1..=300 {
        let p = generate(seed);
        let f = p.features;
        for (i, b) in f.flags().iter().enumerate() {
            c[i] += *b as usize;
        }
        text += &p.text;
    }
    assert!(
        c.iter().all(|&n| n >= 15),
        "feature counts over 300 programs: {c:?}"
    );
    for needle in [
        "..", ";", " | ", "not ", "} = 1", "-", "\\", "*", "!=", "#show", ":- ",
    ] {
        assert!(
            text.contains(needle),
            "no generated program contains {needle:?}"
        );
    }
}
