//! Test helpers: small ground programs written as text or generated at
//! random, and their answer sets computed by brute force straight from the
//! definition of stable models.

use crate::diagnostics::Span;
use crate::ground::program::{
    AggregateDefinition, AggregateValue, Atom, AtomId, Body, ChoiceElement, CountBounds,
    GroundProgram, Head, Rule, ShowTerm, WeightedElement,
};
use crate::symbols::SymId;
use crate::syntax::ast::CmpOp;
use crate::translate::Translation;
use varisat::{CnfFormula, ExtendFormula, Lit, Solver};

/// Parses a ground program in a tiny syntax: `a :- b, not c.`, `:- a.`,
/// `a | b :- c.`, `1 { a; b : c, not d } 2 :- e.`. Atoms are identifiers,
/// numbered in order of appearance and all shown.
pub(crate) fn parse(text: &str) -> GroundProgram {
    let mut program = GroundProgram::default();
    let tokens = tokenize(text);
    let mut p = Parser {
        tokens,
        pos: 0,
        program: &mut program,
    };
    while p.peek().is_some() {
        p.statement();
    }
    program
}

fn tokenize(text: &str) -> Vec<String> {
    let mut tokens = Vec::new();
    let chars: Vec<char> = text.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c.is_whitespace() {
            i += 1;
        } else if c.is_alphanumeric() || c == '_' {
            let start = i;
            while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            tokens.push(chars[start..i].iter().collect());
        } else if c == ':' && chars.get(i + 1) == Some(&'-') {
            tokens.push(":-".into());
            i += 2;
        } else {
            tokens.push(c.to_string());
            i += 1;
        }
    }
    tokens
}

struct Parser<'a> {
    tokens: Vec<String>,
    pos: usize,
    program: &'a mut GroundProgram,
}

impl Parser<'_> {
    fn peek(&self) -> Option<&str> {
        self.tokens.get(self.pos).map(String::as_str)
    }

    fn next(&mut self) -> String {
        let token = self.tokens[self.pos].clone();
        self.pos += 1;
        token
    }

    fn expect(&mut self, token: &str) {
        let got = self.next();
        assert_eq!(got, token, "test program syntax");
    }

    fn atom(&mut self) -> AtomId {
        let name = self.next();
        assert!(
            name.chars().next().unwrap().is_alphabetic(),
            "atom expected, got {name}"
        );
        atom_named(self.program, &name)
    }

    fn statement(&mut self) {
        let head = match self.peek() {
            Some(":-") => Head::Constraint,
            Some("{") => self.choice(None),
            Some(t) if t.chars().all(|c| c.is_ascii_digit()) => {
                let lower = self.next().parse().unwrap();
                self.choice(Some(lower))
            }
            _ => {
                let mut heads = vec![self.atom()];
                while self.peek() == Some("|") {
                    self.next();
                    heads.push(self.atom());
                }
                if heads.len() == 1 {
                    Head::Atom(heads[0])
                } else {
                    Head::Disjunction(heads)
                }
            }
        };
        let body = if self.peek() == Some(":-") {
            self.next();
            self.body(&["."])
        } else {
            Body::default()
        };
        self.expect(".");
        self.program.rules.push(Rule {
            head,
            body,
            origin: Span::default(),
        });
    }

    fn choice(&mut self, lower: Option<u32>) -> Head {
        self.expect("{");
        let mut elements = Vec::new();
        while self.peek() != Some("}") {
            let atom = self.atom();
            let condition = if self.peek() == Some(":") {
                self.next();
                self.body(&[";", "}"])
            } else {
                Body::default()
            };
            elements.push(ChoiceElement {
                atom,
                conditions: vec![condition],
            });
            if self.peek() == Some(";") {
                self.next();
            }
        }
        self.expect("}");
        let upper = match self.peek() {
            Some(t) if t.chars().all(|c| c.is_ascii_digit()) => Some(self.next().parse().unwrap()),
            _ => None,
        };
        Head::Choice {
            elements,
            bounds: CountBounds {
                lower: lower.unwrap_or(0),
                upper,
            },
        }
    }

    fn body(&mut self, end: &[&str]) -> Body {
        let (mut pos, mut neg) = (Vec::new(), Vec::new());
        while !end.contains(&self.peek().unwrap()) {
            if self.peek() == Some("not") {
                self.next();
                neg.push(self.atom());
            } else {
                pos.push(self.atom());
            }
            if self.peek() == Some(",") {
                self.next();
            }
        }
        Body::new(pos, neg)
    }
}

/// The atom with this name, added (shown) if it is new.
pub(crate) fn atom_named(program: &mut GroundProgram, name: &str) -> AtomId {
    let symbol = program.symbols.function(name, &[], false);
    if let Some(i) = program.atoms.iter().position(|a| a.symbol == symbol) {
        return AtomId(i as u32);
    }
    program.atoms.push(Atom {
        symbol,
        shown: true,
        fact: false,
    });
    AtomId(program.atoms.len() as u32 - 1)
}

/// The shown symbols of an interpretation (a bit mask over the atoms), as
/// the enumerator reports them: sorted by clingo's order, distinct.
pub(crate) fn shown_of(program: &GroundProgram, model: u64) -> Vec<SymId> {
    let mut shown: Vec<SymId> = program
        .atoms
        .iter()
        .enumerate()
        .filter(|&(i, atom)| atom.shown && model >> i & 1 == 1)
        .map(|(_, atom)| atom.symbol)
        .chain(
            program
                .show_terms
                .iter()
                .filter(|t| holds(&mask(&t.body), model))
                .map(|t| t.term),
        )
        .collect();
    shown.sort_by(|&x, &y| program.symbols.compare(x, y));
    shown.dedup();
    shown
}

#[derive(Clone, Copy)]
struct MaskBody {
    pos: u64,
    neg: u64,
}

fn mask(body: &Body) -> MaskBody {
    let bits = |atoms: &[AtomId]| atoms.iter().fold(0u64, |m, a| m | 1 << a.0);
    MaskBody {
        pos: bits(&body.pos),
        neg: bits(&body.neg),
    }
}

fn holds(body: &MaskBody, model: u64) -> bool {
    body.pos & !model == 0 && body.neg & model == 0
}

/// The atoms flagged as facts.
fn fact_mask(program: &GroundProgram) -> u64 {
    let facts = program.atoms.iter().enumerate().filter(|(_, a)| a.fact);
    facts.fold(0, |m, (i, _)| m | 1 << i)
}

/// Whether `model` satisfies every rule classically (bounds included).
fn is_model(program: &GroundProgram, model: u64) -> bool {
    let facts = fact_mask(program);
    facts & !model == 0
        && program
            .aggregates
            .iter()
            .all(|a| (model >> a.atom.0 & 1 == 1) == aggregate_holds(a, model))
        && program.rules.iter().all(|rule| {
            if !holds(&mask(&rule.body), model) {
                return true;
            }
            match &rule.head {
                Head::Constraint => false,
                Head::Atom(h) => model >> h.0 & 1 == 1,
                Head::Disjunction(hs) => hs.iter().any(|h| model >> h.0 & 1 == 1),
                Head::Choice { elements, bounds } => {
                    let count = elements
                        .iter()
                        .filter(|e| {
                            model >> e.atom.0 & 1 == 1
                                && e.conditions.iter().any(|c| holds(&mask(c), model))
                        })
                        .count() as u32;
                    bounds.lower <= count && bounds.upper.is_none_or(|u| count <= u)
                }
            }
        })
}

/// The stable models, as bit masks over the atoms (at most 63 atoms; meant
/// for a dozen or so): `M` is stable iff it is a model and a minimal model
/// of the reduct `P^M`, where a choice element with its atom in `M` becomes
/// the rule `atom :- B+, C+` when the negative parts of body `B` and
/// condition `C` are false in `M`.
pub(crate) fn stable_models(program: &GroundProgram) -> Vec<u64> {
    let n = program.atoms.len();
    assert!(n < 64);
    let disjunctive = program
        .rules
        .iter()
        .any(|r| matches!(r.head, Head::Disjunction(_)));
    let mut stable = Vec::new();
    let mut reduct: Vec<(u64, u64)> = Vec::new();
    for model in 0..1u64 << n {
        if !is_model(program, model) {
            continue;
        }
        reduct.clear();
        let facts = program.atoms.iter().enumerate().filter(|(_, a)| a.fact);
        reduct.extend(facts.map(|(i, _)| (0, 1 << i)));
        // The generators' aggregates are not recursive: under the Ferraris
        // reduct an aggregate atom is then as it is in M.
        let aggregates = program
            .aggregates
            .iter()
            .filter(|a| model >> a.atom.0 & 1 == 1);
        reduct.extend(aggregates.map(|a| (0, 1 << a.atom.0)));
        for rule in &program.rules {
            let body = mask(&rule.body);
            if body.neg & model != 0 {
                continue;
            }
            match &rule.head {
                Head::Constraint => {}
                Head::Atom(h) => reduct.push((body.pos, 1 << h.0)),
                Head::Disjunction(hs) => {
                    reduct.push((body.pos, hs.iter().fold(0, |m, h| m | 1 << h.0)))
                }
                Head::Choice { elements, .. } => {
                    for e in elements.iter().filter(|e| model >> e.atom.0 & 1 == 1) {
                        for c in e.conditions.iter().map(mask) {
                            if c.neg & model == 0 {
                                reduct.push((body.pos | c.pos, 1 << e.atom.0));
                            }
                        }
                    }
                }
            }
        }
        let is_stable = if disjunctive {
            // No proper subset of M is a model of the reduct.
            let satisfies = |m: u64| {
                reduct
                    .iter()
                    .all(|&(pos, heads)| pos & !m != 0 || heads & m != 0)
            };
            let mut sub = model;
            let mut minimal = true;
            while sub != 0 {
                sub = (sub - 1) & model;
                if satisfies(sub) {
                    minimal = false;
                    break;
                }
            }
            minimal
        } else {
            let mut derived = 0u64;
            loop {
                let before = derived;
                for &(pos, head) in &reduct {
                    if pos & !derived == 0 {
                        derived |= head;
                    }
                }
                if derived == before {
                    break;
                }
            }
            derived == model
        };
        if is_stable {
            stable.push(model);
        }
    }
    stable
}

/// The supported models (models of the completion, disjunctions shifted).
pub(crate) fn supported_models(program: &GroundProgram) -> Vec<u64> {
    let n = program.atoms.len();
    (0..1u64 << n)
        .filter(|&model| is_model(program, model))
        .filter(|&model| {
            (0..n).filter(|&a| model >> a & 1 == 1).all(|a| {
                program.atoms[a].fact
                    || program.rules.iter().any(|rule| {
                        let body = mask(&rule.body);
                        holds(&body, model)
                            && match &rule.head {
                                Head::Constraint => false,
                                Head::Atom(h) => h.index() == a,
                                Head::Disjunction(hs) => {
                                    hs.iter().any(|h| h.index() == a)
                                        && hs
                                            .iter()
                                            .all(|h| h.index() == a || model >> h.0 & 1 == 0)
                                }
                                Head::Choice { elements, .. } => elements.iter().any(|e| {
                                    e.atom.index() == a
                                        && e.conditions.iter().any(|c| holds(&mask(c), model))
                                }),
                            }
                    })
            })
        })
        .collect()
}

/// Whether every disjunctive rule is head-cycle-free, by reachability.
pub(crate) fn head_cycle_free(program: &GroundProgram) -> bool {
    let n = program.atoms.len();
    let mut reach = vec![0u64; n];
    for rule in &program.rules {
        let pos = mask(&rule.body).pos;
        match &rule.head {
            Head::Constraint => {}
            Head::Atom(h) => reach[h.index()] |= pos,
            Head::Disjunction(hs) => hs.iter().for_each(|h| reach[h.index()] |= pos),
            Head::Choice { elements, .. } => {
                for e in elements {
                    reach[e.atom.index()] |= pos;
                    for c in &e.conditions {
                        reach[e.atom.index()] |= mask(c).pos;
                    }
                }
            }
        }
    }
    loop {
        let mut changed = false;
        for a in 0..n {
            let mut r = reach[a];
            for (b, &rb) in reach.iter().enumerate() {
                if r >> b & 1 == 1 {
                    r |= rb;
                }
            }
            if r != reach[a] {
                reach[a] = r;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    program.rules.iter().all(|rule| match &rule.head {
        Head::Disjunction(hs) => hs.iter().all(|a| {
            hs.iter().all(|b| {
                a == b || reach[a.index()] >> b.0 & 1 == 0 || reach[b.index()] >> a.0 & 1 == 0
            })
        }),
        _ => true,
    })
}

/// xorshift64*: a small seeded generator, so failures reproduce.
pub(crate) struct Rng(u64);

impl Rng {
    pub(crate) fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1)
    }

    pub(crate) fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    pub(crate) fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    /// True with probability `percent`/100.
    pub(crate) fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }

    pub(crate) fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len())]
    }
}

/// Whether an aggregate holds in `model`, straight from its definition.
fn aggregate_holds(aggregate: &AggregateDefinition, model: u64) -> bool {
    let weights = aggregate.elements.iter().filter_map(|e| {
        let holds = e.conditions.iter().any(|c| holds(&mask(c), model));
        holds.then_some(e.weight)
    });
    let value = match aggregate.value {
        AggregateValue::Sum => weights.sum(),
        AggregateValue::Max { empty } => weights.max().unwrap_or(empty),
    };
    aggregate.guards.iter().all(|&(op, bound)| match op {
        CmpOp::Eq => value == bound,
        CmpOp::Ne => value != bound,
        CmpOp::Lt => value < bound,
        CmpOp::Le => value <= bound,
        CmpOp::Gt => value > bound,
        CmpOp::Ge => value >= bound,
    })
}

/// [`random_program`] with aggregates on top, not recursive by
/// construction: up to three aggregate atoms whose elements' conditions
/// read the random program's atoms, and up to three new atoms whose rules
/// (normal, choice, with positive loops among themselves) and constraints
/// use the aggregate atoms positively and negatively.
pub(crate) fn random_program_with_aggregates(rng: &mut Rng, max_atoms: usize) -> GroundProgram {
    let mut program = random_program(rng, max_atoms, false);
    let lower = program.atoms.len();
    let condition = |rng: &mut Rng| {
        let (mut pos, mut neg) = (Vec::new(), Vec::new());
        for a in 0..lower as u32 {
            if rng.chance(25) {
                pos.push(AtomId(a));
            } else if rng.chance(10) {
                neg.push(AtomId(a));
            }
        }
        Body::new(pos, neg)
    };
    let ops = [
        CmpOp::Eq,
        CmpOp::Ne,
        CmpOp::Lt,
        CmpOp::Le,
        CmpOp::Gt,
        CmpOp::Ge,
    ];
    let mut aggregate_atoms = Vec::new();
    for i in 0..1 + rng.below(3) {
        let atom = atom_named(&mut program, &format!("#agg{i}"));
        program.atoms[atom.index()].shown = false;
        let elements = (0..1 + rng.below(4))
            .map(|_| WeightedElement {
                weight: rng.below(7) as i64 - 3,
                conditions: (0..1 + rng.below(2)).map(|_| condition(rng)).collect(),
            })
            .collect();
        let value = if rng.chance(70) {
            AggregateValue::Sum
        } else {
            AggregateValue::Max {
                empty: rng.below(9) as i64 - 4,
            }
        };
        let guards = (0..1 + rng.below(2))
            .map(|_| (rng.pick(&ops), rng.below(7) as i64 - 3))
            .collect();
        program.aggregates.push(AggregateDefinition {
            atom,
            value,
            elements,
            guards,
            origin: Span::default(),
        });
        aggregate_atoms.push(atom);
    }
    let upper: Vec<AtomId> = (0..1 + rng.below(3))
        .map(|i| atom_named(&mut program, &format!("u{i}")))
        .collect();
    let any =
        |rng: &mut Rng, program: &GroundProgram| AtomId(rng.below(program.atoms.len()) as u32);
    for _ in 0..2 + rng.below(4) {
        let mut pos = vec![rng.pick(&aggregate_atoms)];
        let mut neg = Vec::new();
        if rng.chance(40) {
            neg.push(rng.pick(&aggregate_atoms));
        }
        if rng.chance(50) {
            pos.push(any(rng, &program));
        }
        if rng.chance(30) {
            neg.push(any(rng, &program));
        }
        let body = Body::new(pos, neg);
        let head = match rng.below(10) {
            0..=1 => Head::Constraint,
            2 => Head::Choice {
                elements: vec![ChoiceElement {
                    atom: rng.pick(&upper),
                    conditions: vec![Body::default()],
                }],
                bounds: CountBounds::default(),
            },
            _ => Head::Atom(rng.pick(&upper)),
        };
        program.rules.push(Rule {
            head,
            body,
            origin: Span::default(),
        });
    }
    program
}

/// A random program over at most `max_atoms` atoms: normal rules,
/// constraints, facts, choice rules with and without bounds and conditions,
/// disjunctions (not always head-cycle-free) and positive loops. With
/// `vary_show`, some atoms are hidden and some show terms are added.
///
/// This generator stays apart from the text-program generator of the
/// integration tests (tests/common/generator.rs): it builds a
/// [`GroundProgram`] directly, bypassing the parser and the grounder, so
/// the translation, the solver and the ranking encoding are checked in
/// process against [`stable_models`], a brute force straight from the
/// definition, over every interpretation of at most `max_atoms` atoms. It
/// also writes what no text program reaches through the grounder (rules
/// that are not head-cycle-free, arbitrary ground structure), while the text
/// generator writes non-ground programs for comparison with clingo.
pub(crate) fn random_program(rng: &mut Rng, max_atoms: usize, vary_show: bool) -> GroundProgram {
    let n = 1 + rng.below(max_atoms);
    let names = ["a", "b", "c", "d", "e", "f", "g", "h", "i", "j"];
    let mut program = GroundProgram::default();
    for name in &names[..n] {
        atom_named(&mut program, name);
    }
    let atom = |rng: &mut Rng| AtomId(rng.below(n) as u32);
    let body = |rng: &mut Rng, pos_percent: u64, neg_percent: u64| {
        let (mut pos, mut neg) = (Vec::new(), Vec::new());
        for a in 0..n as u32 {
            if rng.chance(pos_percent) {
                pos.push(AtomId(a));
            } else if rng.chance(neg_percent) {
                neg.push(AtomId(a));
            }
        }
        Body::new(pos, neg)
    };
    let rules = rng.below(11);
    let add = |program: &mut GroundProgram, head: Head, body: Body| {
        program.rules.push(Rule {
            head,
            body,
            origin: Span::default(),
        })
    };
    for _ in 0..rules {
        match rng.below(20) {
            0..=7 => {
                let b = body(rng, 20, 12);
                add(&mut program, Head::Atom(atom(rng)), b);
            }
            8 => {
                let b = body(rng, 25, 15);
                if !b.is_empty() {
                    add(&mut program, Head::Constraint, b);
                }
            }
            10 => add(&mut program, Head::Atom(atom(rng)), Body::default()),
            9 | 11..=14 => {
                let mut elements: Vec<ChoiceElement> = Vec::new();
                for a in 0..n as u32 {
                    if !rng.chance(55) {
                        continue;
                    }
                    let conditions = match rng.below(20) {
                        0..=11 => vec![Body::default()],
                        12..=16 => vec![body(rng, 20, 15)],
                        17..=18 => vec![body(rng, 20, 15), body(rng, 20, 15)],
                        _ => Vec::new(),
                    };
                    elements.push(ChoiceElement {
                        atom: AtomId(a),
                        conditions,
                    });
                }
                let k = elements.len();
                let bounds = if rng.chance(50) {
                    CountBounds::default()
                } else {
                    CountBounds {
                        lower: rng.below(k + 2) as u32 * u32::from(rng.chance(60)),
                        upper: rng.chance(60).then(|| rng.below(k + 2) as u32),
                    }
                };
                let b = body(rng, 6, 6);
                add(&mut program, Head::Choice { elements, bounds }, b);
            }
            15..=16 if n >= 2 => {
                let mut heads = vec![atom(rng), atom(rng)];
                if rng.chance(30) {
                    heads.push(atom(rng));
                }
                heads.sort_unstable();
                heads.dedup();
                let b = body(rng, 15, 12);
                if heads.len() >= 2 {
                    add(&mut program, Head::Disjunction(heads), b);
                } else {
                    add(&mut program, Head::Atom(heads[0]), b);
                }
            }
            _ => {
                // A positive loop x :- y, B. y :- x.
                let (x, y) = (atom(rng), atom(rng));
                let b = body(rng, 10, 15);
                add(
                    &mut program,
                    Head::Atom(x),
                    b.and(&Body::new(vec![y], Vec::new())),
                );
                add(&mut program, Head::Atom(y), Body::new(vec![x], Vec::new()));
            }
        }
    }
    if vary_show {
        for a in program.atoms.iter_mut() {
            a.shown = rng.chance(75);
        }
        let extra = [
            program.symbols.function("t", &[], false),
            program.symbols.number(rng.below(3) as i32),
        ];
        for _ in 0..rng.below(3) {
            let term = if rng.chance(30) {
                program.atoms[rng.below(n)].symbol
            } else {
                extra[rng.below(2)]
            };
            let b = body(rng, 20, 20);
            program.show_terms.push(ShowTerm { term, body: b });
        }
    }
    program
}

/// Every model of the CNF over all its variables (a variable in no clause
/// is free and counts twice), projected to the atoms as bit masks; asserts
/// that no two models share a projection, i.e. the auxiliary variables are
/// determined by the atoms.
pub(crate) fn cnf_models(formula: &CnfFormula, translation: &Translation) -> Vec<u64> {
    let mut solver = Solver::new();
    solver.add_formula(formula);
    let mut models = Vec::new();
    while solver.solve().unwrap() {
        let model = solver.model().unwrap();
        // varisat leaves out variables that occur in no clause: they are free.
        let mut values: Vec<Option<bool>> = vec![None; formula.var_count()];
        for lit in &model {
            values[lit.var().index()] = Some(lit.is_positive());
        }
        let free: Vec<usize> = (0..values.len()).filter(|&i| values[i].is_none()).collect();
        assert!(free.len() < 16, "too many free variables");
        for bits in 0..1u64 << free.len() {
            for (k, &i) in free.iter().enumerate() {
                values[i] = Some(bits >> k & 1 == 1);
            }
            let atoms = translation
                .atom_vars()
                .iter()
                .enumerate()
                .fold(0u64, |m, (i, v)| {
                    m | u64::from(values[v.index()].unwrap()) << i
                });
            assert!(!models.contains(&atoms), "two CNF models for one atom set");
            models.push(atoms);
        }
        let block: Vec<Lit> = model.iter().map(|&l| !l).collect();
        solver.add_clause(&block);
    }
    models.sort_unstable();
    models
}
