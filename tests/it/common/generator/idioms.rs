//! The idioms of the generated programs: what people write, each over
//! predicates of its own that read the layered program's unary predicates.

use super::Gen;

impl Gen {
    /// A unary predicate to read: of the layered program or an earlier idiom.
    fn unary_source(&mut self) -> String {
        let mut names: Vec<String> = self
            .preds
            .iter()
            .filter(|p| p.arity == 1)
            .map(|p| p.name.clone())
            .collect();
        names.extend(self.idiom_unary.iter().cloned());
        self.rng.pick(&names).clone()
    }

    /// `c(N) :- c(N-1), p(N).` and its kin: recursion whose body atom has
    /// arithmetic, bounded by the source predicate or by a comparison.
    pub(super) fn counter(&mut self) {
        self.mark("recursion through arithmetic");
        let src = self.unary_source();
        let k = self.bound.clone();
        let base = if self.rng.chance(0.3) {
            self.mark("choice");
            "{ cnt(0) }."
        } else {
            "cnt(0)."
        };
        self.lines.push(base.into());
        let rule = match self.rng.below(5) {
            0 => format!("cnt(N) :- cnt(N-1), {src}(N)."),
            1 => format!("cnt(N) :- {src}(N), cnt(N-1)."),
            2 => format!("cnt(X+1) :- cnt(X), X < {k}."),
            3 => format!("cnt(X+1) :- cnt(X), {src}(X+1)."),
            _ => {
                self.mark("default negation");
                format!("cnt(N+1) :- cnt(N), not {src}(N), N < {k}.")
            }
        };
        self.lines.push(rule);
        self.idiom_unary.push("cnt".into());
    }

    /// The disjunctive idioms that are not head-cycle-free, over a unary
    /// source: mutual support (`hc(X) | hd(X)` with `hc` and `hd` deriving
    /// each other), saturation (`ht(X) | hf(X)`, both forced by `hsat`,
    /// which the guess derives), and strategic companies (`hs(X) | hs(Y)`
    /// along pairs, with `hs` closed under a control relation).
    pub(super) fn head_cycle(&mut self) {
        self.mark("disjunction");
        self.mark("head cycle");
        let src = self.unary_source();
        match self.rng.below(3) {
            0 => {
                self.lines.push(format!("hc(X) | hd(X) :- {src}(X)."));
                self.lines
                    .push(format!("hc(X) :- hd(X), {src}(X), X != 2."));
                self.lines.push("hd(X) :- hc(X).".into());
                self.idiom_unary.push("hc".into());
            }
            1 => {
                self.lines.push(format!("ht(X) | hf(X) :- {src}(X)."));
                let check = if self.rng.chance(0.5) {
                    "hsat :- ht(X), hf(Y), X < Y."
                } else {
                    "hsat :- ht(X), ht(Y), X != Y."
                };
                self.lines.push(check.into());
                self.lines.push(format!("ht(X) :- hsat, {src}(X)."));
                self.lines.push(format!("hf(X) :- hsat, {src}(X)."));
                if self.rng.chance(0.5) {
                    self.mark("default negation");
                    self.lines.push(":- not hsat.".into());
                }
                self.idiom_unary.push("ht".into());
            }
            _ => {
                self.lines
                    .push(format!("hs(X) | hs(Y) :- {src}(X), {src}(Y), X < Y."));
                self.lines
                    .push(format!("hs(Z) :- hs(X), hs(Y), {src}(Z), Z = X+Y."));
                self.lines
                    .push(format!("hs(X) :- hs(Y), {src}(X), Y = X+1, X > 1."));
                self.idiom_unary.push("hs".into());
            }
        }
    }

    /// Reachability along an edge relation, some steps through arithmetic.
    pub(super) fn reachability(&mut self) {
        self.mark("recursion through arithmetic");
        let src = self.unary_source();
        let k = self.bound.clone();
        let edge = match self
            .preds
            .iter()
            .filter(|p| p.arity == 2)
            .map(|p| p.name.clone())
            .next()
        {
            Some(e) if self.rng.chance(0.5) => e,
            _ => {
                self.mark("pool or interval");
                self.lines.push("edge(1,2;2,3;3,1;3,4).".into());
                "edge".into()
            }
        };
        let start = if self.rng.chance(0.5) {
            format!("reach(X) :- {src}(X), X < 2.")
        } else {
            self.mark("choice");
            format!("{{ reach(X) }} :- {src}(X).")
        };
        self.lines.push(start);
        let step = match self.rng.below(4) {
            0 => format!("reach(Y) :- reach(X), {edge}(X,Y)."),
            1 => format!("reach(Y) :- reach(X), {edge}(X,Y-1)."),
            2 => format!("reach(X+1) :- reach(X), {edge}(X,_), X < {k}."),
            _ => {
                self.mark("assignment");
                format!("reach(Y) :- reach(X), {src}(Y), Y = X+1.")
            }
        };
        self.lines.push(step);
        self.idiom_unary.push("reach".into());
    }

    pub(super) fn fibonacci(&mut self) {
        self.mark("recursion through arithmetic");
        self.mark("fibonacci");
        let k = self.bound.clone();
        self.lines.push("fib(0,0). fib(1,1).".into());
        let rule = if self.rng.chance(0.5) {
            format!("fib(N,A+B) :- fib(N-1,A), fib(N-2,B), N < {k}.")
        } else {
            let src = self.unary_source();
            format!("fib(N,A+B) :- {src}(N), fib(N-2,B), fib(N-1,A).")
        };
        self.lines.push(rule);
        self.idiom_binary.push("fib".into());
    }

    /// `q(X) :- p(X), not d(_,X+1).` and its kin.
    pub(super) fn anonymous_negation(&mut self) {
        self.mark("anonymous in negation");
        self.mark("default negation");
        let src = self.unary_source();
        let mut binary: Vec<String> = self
            .preds
            .iter()
            .filter(|p| p.arity == 2)
            .map(|p| p.name.clone())
            .collect();
        binary.extend(self.idiom_binary.iter().cloned());
        let neg = if binary.is_empty() {
            format!("not {}(X+1)", self.unary_source())
        } else {
            let d = self.rng.pick(&binary).clone();
            match self.rng.below(3) {
                0 => format!("not {d}(_,X+1)"),
                1 => format!("not {d}(X-1,_)"),
                _ => format!("not {d}(_,X)"),
            }
        };
        self.lines.push(format!("nq(X) :- {src}(X), {neg}."));
        self.idiom_unary.push("nq".into());
    }

    /// `inv(X) :- p(X+2).` and the like: the body atom binds `X` by inverting
    /// a linear term; or an assignment solved for the variable.
    pub(super) fn inversion(&mut self) {
        let src = self.unary_source();
        let rule = if self.rng.chance(0.5) {
            let t = self.linear("X");
            format!("inv(X) :- {src}({t}).")
        } else {
            self.mark("assignment");
            let t = self.linear("Y'");
            if self.rng.chance(0.5) {
                format!("inv(Y') :- {src}(Y), {t} = Y.")
            } else {
                format!("inv(Y') :- {src}(Y), Y = {t}.")
            }
        };
        self.lines.push(rule);
        self.idiom_unary.push("inv".into());
    }

    /// A join that a swap of two variables maps onto itself, with `X != Y`
    /// between them (grounding builds one order of each pair), and near
    /// misses that no swap maps onto themselves, over a choice of a unary
    /// source's values: `:- chosen(X), chosen(Y), X != Y.` and its kin.
    pub(super) fn symmetric_join(&mut self) {
        self.mark("symmetric join");
        self.mark("choice");
        let src = self.unary_source();
        let other = self.unary_source();
        self.lines.push(format!("{{ chosen(X) }} :- {src}(X)."));
        let (line, defines_two) = match self.rng.below(7) {
            0 => (":- chosen(X), chosen(Y), X != Y.".to_string(), false),
            1 => {
                self.mark("default negation");
                let line =
                    format!(":- chosen(X), chosen(Y), X != Y, not {other}(X), not {other}(Y).");
                (line, false)
            }
            2 => {
                self.mark("arithmetic");
                (
                    "two(Z) :- chosen(X), chosen(Y), X != Y, Z = X+Y.".to_string(),
                    true,
                )
            }
            3 => (
                format!("two(Z) :- chosen(X), chosen(Y), X != Y, {other}(Z), Z > X, Y < Z."),
                true,
            ),
            4 => {
                self.mark("arithmetic");
                (
                    ":- chosen(X+1), chosen(Y+1), X != Y, X > 0, Y > 0.".to_string(),
                    false,
                )
            }
            5 => ("two(X) :- chosen(X), chosen(Y), X != Y.".to_string(), true),
            _ => {
                let line = format!(
                    ":- chosen(X), chosen(Y), {other}(X2), {other}(Y2), X != Y, X2 = X, Y = Y2."
                );
                (line, false)
            }
        };
        self.lines.push(line);
        if defines_two {
            self.idiom_unary.push("two".into());
        }
    }

    /// Unification with function terms and tuples bound elsewhere.
    pub(super) fn unification(&mut self) {
        self.mark("unification");
        self.mark("pool or interval");
        if self.rng.chance(0.5) {
            self.lines
                .push("sym(f(a,1,2); f(a,2,4); f(b,2,3); g(1); f(a,3,4)).".into());
            let rule = match self.rng.below(3) {
                0 => "uni(X) :- f(a,X,X+1) = F, sym(F).",
                1 => "uni(X) :- sym(F), F = f(a,X,X+1).",
                _ => "uni(X) :- sym(f(A,X,Y)), Y = X+1, A != b.",
            };
            self.lines.push(rule.into());
            self.idiom_unary.push("uni".into());
        } else {
            self.lines.push("tup((1,2); (2,3); 3; (a,\"s\")).".into());
            let rule = match self.rng.below(2) {
                0 => "untup(X,Y) :- (X,Y) = T, tup(T).",
                _ => "untup(Y,X) :- tup(T), T = (X,Y), X < Y.",
            };
            self.lines.push(rule.into());
            self.idiom_binary.push("untup".into());
        }
    }

    /// `p(-X)` matching `p(-(1,2))`, `-f(a)`, `-1`, `-a`.
    pub(super) fn negated_terms(&mut self) {
        self.mark("negated terms");
        self.mark("pool or interval");
        self.lines
            .push("nt(-(1,2); -f(a); -1; -a; 2; (1,2)).".into());
        let rule = match self.rng.below(3) {
            0 => "ntq(X) :- nt(-X).",
            1 => "ntq(X) :- nt(Y), X = -Y.",
            _ => "ntq(-X) :- nt(X).",
        };
        self.lines.push(rule.into());
        self.idiom_unary.push("ntq".into());
    }

    /// Undefined arithmetic in a head, a body, a choice bound, a condition
    /// or a power with a negative exponent: clingo drops those instances.
    pub(super) fn undefined(&mut self) {
        self.mark("undefined arithmetic");
        let src = self.unary_source();
        let rule = match self.rng.below(7) {
            0 => format!("und(X/(X-1)) :- {src}(X)."),
            1 => format!("und(X) :- {src}(X), X/(X-1) >= 0."),
            2 => {
                self.mark("choice");
                format!("{{ und(X) : {src}(X), X\\(X-1) >= 0 }}.")
            }
            3 => {
                self.mark("bounded choice");
                format!("X/(X-1) {{ und(X) }} 1 :- {src}(X).")
            }
            4 => {
                self.mark("pool or interval");
                format!("und(B**E) :- {src}(B), E = -2..1.")
            }
            5 => "und(a+1). und(2).".to_string(),
            _ => format!("und(X+a) :- {src}(X). und(X) :- {src}(X)."),
        };
        self.lines.push(rule);
        self.idiom_unary.push("und".into());
    }

    /// Pools and intervals in heads and bodies.
    pub(super) fn pools(&mut self) {
        self.mark("pool or interval");
        let src = self.unary_source();
        let line = match self.rng.below(5) {
            0 => "pl(1..3;5).".to_string(),
            1 => "pl((1;2),(a;b)).".to_string(),
            2 => format!("pl(X;X+1) :- {src}(X)."),
            3 => format!("pl :- {src}(1..2)."),
            _ => format!("pl(X) :- {src}(X;X+1)."),
        };
        self.lines.push(line);
    }

    /// Rules over the idioms' predicates, so that they meet the rest.
    pub(super) fn idiom_uses(&mut self) {
        if self.idiom_unary.is_empty() || !self.rng.chance(0.6) {
            return;
        }
        let i = self.rng.pick(&self.idiom_unary).clone();
        let derived: Vec<String> = self
            .preds
            .iter()
            .filter(|p| p.arity == 1 && p.level > 0)
            .map(|p| p.name.clone())
            .collect();
        let line = match (self.rng.below(3), derived.is_empty()) {
            (0, false) => {
                self.mark("default negation");
                let d = self.rng.pick(&derived).clone();
                format!("out(X) :- {i}(X), not {d}(X).")
            }
            (1, false) => {
                self.mark("constraint");
                let d = self.rng.pick(&derived).clone();
                format!(":- {i}(X), {d}(X), X > 1.")
            }
            _ => {
                self.mark("choice");
                self.mark("conditional choice");
                self.mark("bounded choice");
                format!("{{ sel(X) : {i}(X) }} 1.")
            }
        };
        self.lines.push(line);
    }

    /// `#show t : body.` lines over unary predicates.
    pub(super) fn show_terms(&mut self) {
        self.mark("#show term");
        for _ in 0..self.rng.range(1, 2) {
            let p = self.unary_source();
            let line = match self.rng.below(6) {
                0 => format!("#show f(X) : {p}(X)."),
                1 => {
                    let q = self.unary_source();
                    self.mark("default negation");
                    format!("#show (X,a) : {p}(X), not {q}(X).")
                }
                2 => {
                    self.mark("arithmetic");
                    format!("#show X+1 : {p}(X).")
                }
                3 => {
                    self.mark("undefined arithmetic");
                    format!("#show sh(X/(X-1)) : {p}(X).")
                }
                4 => format!("#show u : not {p}(1)."),
                _ => "#show c.".to_string(),
            };
            self.lines.push(line);
        }
    }
}
