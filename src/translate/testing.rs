//! Test helpers: small ground programs written as text or generated at
//! random, and their answer sets computed by brute force straight from the
//! definition of stable models.

use crate::diagnostics::Span;
use crate::ground::program::{
    AggregateDefinition, AggregateValue, Atom, AtomId, Body, ChoiceElement, CostLevel, CountBounds,
    GroundProgram, Head, Rule, ShowTerm, WeightedElement,
};
use crate::symbols::SymId;
use crate::syntax::ast::CmpOp;
use crate::translate::Translation;
use varisat::{CnfFormula, ExtendFormula, Lit, Solver};

/// Parses a ground program in a tiny syntax: `a :- b, not c.`, `:- a.`,
/// `a | b :- c.`, `1 { a; b : c, not d } 2 :- e.`, and aggregate atoms
/// defined as `s = #sum{ 2: a, not b | c; -1: d } >= 0 != 1.` (an element
/// is `weight: conditions` separated by `|`; `#count{ a; not b }` has
/// weight 1; `#max{ .. }` is `#inf` when empty), used in bodies by name.
/// Atoms are identifiers, numbered in order of appearance and all shown
/// except aggregate atoms.
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
        } else if matches!(
            (c, chars.get(i + 1)),
            (':', Some('-')) | ('<' | '>' | '!', Some('='))
        ) {
            tokens.push(chars[i..i + 2].iter().collect());
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
        if self.tokens.get(self.pos + 1).is_some_and(|t| t == "=") {
            self.aggregate_definition();
            return;
        }
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
                value: atom,
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

    fn number(&mut self) -> i64 {
        let negative = self.peek() == Some("-");
        if negative {
            self.next();
        }
        let magnitude: i64 = self.next().parse().expect("number");
        if negative { -magnitude } else { magnitude }
    }

    fn aggregate_definition(&mut self) {
        let atom = self.atom();
        self.program.atoms[atom.index()].shown = false;
        self.expect("=");
        self.expect("#");
        let value = match self.next().as_str() {
            "sum" | "count" => AggregateValue::Sum,
            "max" => AggregateValue::Max { empty: i64::MIN },
            other => panic!("unknown aggregate #{other}"),
        };
        self.expect("{");
        let mut elements = Vec::new();
        while self.peek() != Some("}") {
            let weighted =
                self.tokens.get(self.pos + 1).is_some_and(|t| t == ":") || self.peek() == Some("-");
            let weight = if weighted {
                let weight = self.number();
                self.expect(":");
                weight
            } else {
                1
            };
            let mut conditions = vec![self.body(&["|", ";", "}"])];
            while self.peek() == Some("|") {
                self.next();
                conditions.push(self.body(&["|", ";", "}"]));
            }
            elements.push(WeightedElement {
                value: weight,
                conditions,
            });
            if self.peek() == Some(";") {
                self.next();
            }
        }
        self.expect("}");
        let mut guards = Vec::new();
        while self.peek() != Some(".") {
            let op = self.next();
            let ops = CmpOp::ALL;
            let op = *ops.iter().find(|o| o.as_str() == op).expect("comparison");
            guards.push((op, self.number()));
        }
        self.expect(".");
        self.program.aggregates.push(AggregateDefinition {
            atom,
            value,
            elements,
            guards,
            origin: Span::default(),
        });
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

/// The cost vector of a model (the atoms of `model`), highest priority
/// first.
pub(crate) fn costs_of(program: &GroundProgram, model: u64) -> Vec<i64> {
    (program.costs.iter())
        .map(|level| {
            (level.elements.iter())
                .filter(|e| e.conditions.iter().any(|c| holds(&mask(c), model)))
                .map(|e| e.value)
                .sum()
        })
        .collect()
}

/// The stable models whose cost vector is lexicographically least, and
/// that vector; `None` when there is no stable model.
pub(crate) fn optimal_models(program: &GroundProgram) -> Option<(Vec<i64>, Vec<u64>)> {
    let models = stable_models(program);
    let optimum = models.iter().map(|&m| costs_of(program, m)).min()?;
    let optimal = (models.into_iter())
        .filter(|&m| costs_of(program, m) == optimum)
        .collect();
    Some((optimum, optimal))
}

/// Gives `program` an objective of one to three priority levels, whose
/// elements have weights from -3 to 3 (some shared tuples merged as the
/// grounder merges them) and conditions of up to two literals over its
/// atoms.
pub(crate) fn add_random_costs(rng: &mut Rng, program: &mut GroundProgram) {
    let atoms = program.atoms.len();
    if atoms == 0 {
        return;
    }
    let levels = 1 + rng.below(3);
    for level in 0..levels {
        let mut elements: Vec<WeightedElement> = Vec::new();
        for _ in 0..1 + rng.below(4) {
            let mut conditions = Vec::new();
            for _ in 0..1 + usize::from(rng.chance(20)) {
                let (mut pos, mut neg) = (Vec::new(), Vec::new());
                for _ in 0..rng.below(3) {
                    let atom = AtomId(rng.below(atoms) as u32);
                    if rng.chance(70) {
                        pos.push(atom)
                    } else {
                        neg.push(atom)
                    }
                }
                conditions.push(Body::new(pos, neg));
            }
            elements.push(WeightedElement {
                value: rng.below(7) as i64 - 3,
                conditions,
            });
        }
        program.costs.push(CostLevel {
            priority: (levels - level) as i64 * 2,
            elements,
        });
    }
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

/// The atoms that stand for aggregates.
fn aggregate_atom_mask(program: &GroundProgram) -> u64 {
    let atoms = program.aggregates.iter().map(|a| a.atom);
    atoms.fold(0, |m, a| m | 1 << a.0)
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
                            model >> e.value.0 & 1 == 1
                                && e.conditions.iter().any(|c| holds(&mask(c), model))
                        })
                        .count() as u32;
                    bounds.lower <= count && bounds.upper.is_none_or(|u| count <= u)
                }
            }
        })
}

/// The stable models, as bit masks over the atoms (at most 63 atoms; meant
/// for a dozen or so), by the Ferraris reduct ("Logic programs with
/// propositional connectives and aggregates", TOCL 2011), which is clingo's
/// semantics ("Abstract Gringo", TPLP 2015). An aggregate atom `A` stands
/// for its formula `F_A`: the conjunction, over the sets `I` of elements
/// whose weights violate the guards, of `⋀I → ⋁(E∖I)`. A model `M` is
/// stable iff no proper subset of its atoms other than aggregate atoms
/// satisfies the reduct `P^M`:
/// the rules whose negative literals hold in `M`, without them (`not A`
/// included, true iff `F_A` is false in `M`); a choice element with
/// its atom in `M` becomes the rule `atom :- body, condition`; a positive
/// occurrence of `A` becomes `F_A^M` (see [`aggregate_reduct_holds`]).
///
/// Programs that are normal and free of aggregates take the least model of
/// their (Horn) reduct instead of the search over subsets.
pub(crate) fn stable_models(program: &GroundProgram) -> Vec<u64> {
    let disjunctive = program
        .rules
        .iter()
        .any(|r| matches!(r.head, Head::Disjunction(_)));
    let minimality = if disjunctive || !program.aggregates.is_empty() {
        Minimality::NoSmallerModel
    } else {
        Minimality::LeastModel
    };
    stable_models_by(program, minimality)
}

/// How [`stable_models_by`] checks that a model is minimal for its reduct.
#[derive(Clone, Copy, Debug)]
enum Minimality {
    /// `M` is the least model of the reduct, with every aggregate atom of
    /// `M` a fact. Exact for normal programs whose aggregates are not
    /// recursive: the aggregates are then decided below the rules that use
    /// them (splitting), and the reduct is Horn.
    LeastModel,
    /// No proper subset of `M`'s atoms other than aggregate atoms satisfies
    /// the reduct, aggregates evaluated by [`aggregate_reduct_holds`].
    /// Exact for every program.
    NoSmallerModel,
}

fn stable_models_by(program: &GroundProgram, minimality: Minimality) -> Vec<u64> {
    let n = program.atoms.len();
    assert!(n < 64);
    let aggregate_atoms = aggregate_atom_mask(program);
    // Aggregates are not nested: no aggregate atom in an element condition.
    for element in program.aggregates.iter().flat_map(|a| &a.elements) {
        for condition in element.conditions.iter().map(mask) {
            assert_eq!((condition.pos | condition.neg) & aggregate_atoms, 0);
        }
    }
    let mut stable = Vec::new();
    let mut reduct: Vec<(u64, u64)> = Vec::new();
    for model in 0..1u64 << n {
        if !is_model(program, model) {
            continue;
        }
        reduct_rules(program, model, &mut reduct);
        let is_stable = match minimality {
            Minimality::LeastModel => {
                reduct.push((0, model & aggregate_atoms));
                least_model(&reduct) == model
            }
            Minimality::NoSmallerModel => {
                // The aggregate atoms whose reduct holds in `smaller` join
                // it; the reduct's rules then read them as atoms.
                let satisfies = |smaller: u64| {
                    let with_aggregates = program
                        .aggregates
                        .iter()
                        .filter(|a| aggregate_reduct_holds(a, model, smaller))
                        .fold(smaller, |m, a| m | 1 << a.atom.0);
                    reduct.iter().all(|&(pos, heads)| {
                        pos & !with_aggregates != 0 || heads & with_aggregates != 0
                    })
                };
                let atoms = model & !aggregate_atoms;
                let mut smaller = atoms;
                let mut minimal = true;
                while smaller != 0 {
                    smaller = (smaller - 1) & atoms;
                    if satisfies(smaller) {
                        minimal = false;
                        break;
                    }
                }
                minimal
            }
        };
        if is_stable {
            stable.push(model);
        }
    }
    stable
}

/// The rules of the reduct `P^M` as (positive body, head atoms) masks:
/// facts, rules whose negative body is false in `model`, and choice
/// elements whose atom is in `model`. A positive body may contain
/// aggregate atoms; constraints are left out, since `model` satisfies them.
fn reduct_rules(program: &GroundProgram, model: u64, reduct: &mut Vec<(u64, u64)>) {
    reduct.clear();
    let facts = program.atoms.iter().enumerate().filter(|(_, a)| a.fact);
    reduct.extend(facts.map(|(i, _)| (0, 1 << i)));
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
                for e in elements.iter().filter(|e| model >> e.value.0 & 1 == 1) {
                    for c in e.conditions.iter().map(mask) {
                        if c.neg & model == 0 {
                            reduct.push((body.pos | c.pos, 1 << e.value.0));
                        }
                    }
                }
            }
        }
    }
}

/// The least model of Horn rules (positive body, head atom) masks.
fn least_model(rules: &[(u64, u64)]) -> u64 {
    let mut derived = 0u64;
    loop {
        let before = derived;
        for &(pos, head) in rules {
            if pos & !derived == 0 {
                derived |= head;
            }
        }
        if derived == before {
            return derived;
        }
    }
}

/// The supported models (models of the completion, disjunctions shifted;
/// an aggregate atom, true exactly when its aggregate holds, needs no rule).
pub(crate) fn supported_models(program: &GroundProgram) -> Vec<u64> {
    let n = program.atoms.len();
    let aggregate_atoms = aggregate_atom_mask(program);
    (0..1u64 << n)
        .filter(|&model| is_model(program, model))
        .filter(|&model| {
            (0..n).filter(|&a| model >> a & 1 == 1).all(|a| {
                program.atoms[a].fact
                    || aggregate_atoms >> a & 1 == 1
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
                                    e.value.index() == a
                                        && e.conditions.iter().any(|c| holds(&mask(c), model))
                                }),
                            }
                    })
            })
        })
        .collect()
}

/// Whether every disjunctive rule is head-cycle-free, by reachability
/// (through aggregate atoms too, see [`positive_reach`]).
pub(crate) fn head_cycle_free(program: &GroundProgram) -> bool {
    let reach = positive_reach(program);
    program.rules.iter().all(|rule| match &rule.head {
        Head::Disjunction(hs) => hs.iter().all(|a| {
            hs.iter().all(|b| {
                a == b || reach[a.index()] >> b.0 & 1 == 0 || reach[b.index()] >> a.0 & 1 == 0
            })
        }),
        _ => true,
    })
}

/// The aggregate atoms that depend positively on themselves: through an
/// atom an element condition reads positively.
pub(crate) fn recursive_aggregates(program: &GroundProgram) -> Vec<AtomId> {
    let reach = positive_reach(program);
    let recursive = program.aggregates.iter().map(|a| a.atom);
    recursive
        .filter(|a| reach[a.index()] >> a.0 & 1 == 1)
        .collect()
}

/// For each atom, the atoms it depends on positively, transitively: a head
/// atom on its body's and choice condition's positive atoms, an aggregate
/// atom on its element conditions' positive atoms.
fn positive_reach(program: &GroundProgram) -> Vec<u64> {
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
                    reach[e.value.index()] |= pos;
                    for c in &e.conditions {
                        reach[e.value.index()] |= mask(c).pos;
                    }
                }
            }
        }
    }
    for aggregate in &program.aggregates {
        let conditions = aggregate.elements.iter().flat_map(|e| &e.conditions);
        reach[aggregate.atom.index()] |= conditions.fold(0, |m, c| m | mask(c).pos);
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
    reach
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
    let holding = aggregate
        .elements
        .iter()
        .filter(|e| e.conditions.iter().any(|c| holds(&mask(c), model)));
    guards_hold(aggregate, holding.map(|e| e.value))
}

/// Whether `smaller` (a subset of `model`) satisfies the Ferraris reduct
/// `F_A^M` of the aggregate's formula (see [`stable_models`]): exactly when
/// `A` holds in `model` and the guards hold for the elements with a
/// condition whose positive atoms are in `smaller` and whose negative atoms
/// are not in `model`.
///
/// Why: `F_A^M` is `⊥` unless `M ⊨ F_A`. Then each conjunct `⋀I → ⋁(E∖I)`
/// (`I` violating the guards) is true in `M`; its reduct is `⊤` when some
/// element of `I` is false in `M`, else `⋀I^M → ⋁(E∖I)^M`, where an
/// element's reduct holds in `X` iff one of its conditions holds in `M`
/// and has its positive atoms in `X`. Let `R` be the elements whose reduct
/// holds in `X`. A conjunct fails in `X` iff `I ⊆ R` and `R ∩ (E∖I) = ∅`,
/// i.e. `I = R`; so all hold iff `R` does not violate the guards. The test
/// `aggregate_reduct_is_the_ferraris_reduct_of_its_formula` checks this
/// against the formula itself.
fn aggregate_reduct_holds(aggregate: &AggregateDefinition, model: u64, smaller: u64) -> bool {
    let holding = aggregate.elements.iter().filter(|e| {
        e.conditions.iter().any(|c| {
            let c = mask(c);
            holds(&c, model) && c.pos & !smaller == 0
        })
    });
    model >> aggregate.atom.0 & 1 == 1 && guards_hold(aggregate, holding.map(|e| e.value))
}

/// Whether every guard holds for the aggregate's value over the `weights`
/// of the elements that hold.
fn guards_hold(aggregate: &AggregateDefinition, weights: impl Iterator<Item = i64>) -> bool {
    let value = match aggregate.value {
        AggregateValue::Sum => weights.sum(),
        AggregateValue::Max { empty } => weights.max().unwrap_or(empty),
    };
    aggregate
        .guards
        .iter()
        .all(|&(op, bound)| op.holds(value.cmp(&bound)))
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
    let ops = CmpOp::ALL;
    let mut aggregate_atoms = Vec::new();
    for i in 0..1 + rng.below(3) {
        let atom = atom_named(&mut program, &format!("#agg{i}"));
        program.atoms[atom.index()].shown = false;
        let elements = (0..1 + rng.below(4))
            .map(|_| WeightedElement {
                value: rng.below(7) as i64 - 3,
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
                    value: rng.pick(&upper),
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

/// [`random_program`] with aggregates that are recursive most of the time:
/// one to three aggregate atoms whose element conditions read, positively
/// and negatively, the random program's atoms and one to three new atoms
/// `u0`.. that rules over the aggregate atoms define (normal rules, choice
/// rules, constraints). On purpose, an aggregate often derives an atom it
/// reads itself (`u :- A.` with `A` counting `u`), and two aggregates often
/// form a positive cycle. Each aggregate is monotone, antimonotone, convex
/// or non-monotone in its elements (see [`random_recursive_aggregate`]).
pub(crate) fn random_program_with_recursive_aggregates(
    rng: &mut Rng,
    max_atoms: usize,
) -> GroundProgram {
    let mut program = random_program(rng, max_atoms, false);
    let upper: Vec<AtomId> = (0..1 + rng.below(3))
        .map(|i| atom_named(&mut program, &format!("u{i}")))
        .collect();
    let readable: Vec<AtomId> = program.atom_ids().collect();
    for i in 0..1 + rng.below(3) {
        let atom = atom_named(&mut program, &format!("#agg{i}"));
        program.atoms[atom.index()].shown = false;
        let aggregate = random_recursive_aggregate(rng, atom, &readable, &upper);
        program.aggregates.push(aggregate);
    }
    let aggregate_atoms: Vec<AtomId> = program.aggregates.iter().map(|a| a.atom).collect();
    let read_positively = |program: &GroundProgram, k: usize| -> Vec<AtomId> {
        let elements = &program.aggregates[k].elements;
        let conditions = elements.iter().flat_map(|e| &e.conditions);
        let mut atoms: Vec<AtomId> = conditions.flat_map(|c| c.pos.iter().copied()).collect();
        atoms.sort_unstable();
        atoms.dedup();
        atoms
    };
    let atom_or_choice = |rng: &mut Rng, atom: AtomId| {
        if rng.chance(25) {
            Head::Choice {
                elements: vec![ChoiceElement {
                    value: atom,
                    conditions: vec![Body::default()],
                }],
                bounds: CountBounds::default(),
            }
        } else {
            Head::Atom(atom)
        }
    };
    // Derive an atom that aggregate `reader` reads from aggregate `source`.
    let derive_read_atom = |rng: &mut Rng, program: &mut GroundProgram, reader, source| {
        let read = read_positively(program, reader);
        if !read.is_empty() {
            let atom = rng.pick(&read);
            let head = atom_or_choice(rng, atom);
            let mut pos = vec![aggregate_atoms[source]];
            if rng.chance(25) {
                pos.push(rng.pick(&readable));
            }
            program.rules.push(Rule {
                head,
                body: Body::new(pos, Vec::new()),
                origin: Span::default(),
            });
        }
    };
    for k in 0..aggregate_atoms.len() {
        if rng.chance(50) {
            derive_read_atom(rng, &mut program, k, k);
        }
    }
    if aggregate_atoms.len() >= 2 && rng.chance(40) {
        derive_read_atom(rng, &mut program, 0, 1);
        derive_read_atom(rng, &mut program, 1, 0);
    }
    for _ in 0..1 + rng.below(4) {
        let (mut pos, mut neg) = (Vec::new(), Vec::new());
        if rng.chance(80) {
            pos.push(rng.pick(&aggregate_atoms));
        } else {
            neg.push(rng.pick(&aggregate_atoms));
        }
        if rng.chance(40) {
            pos.push(rng.pick(&readable));
        }
        if rng.chance(25) {
            neg.push(rng.pick(&readable));
        }
        let body = Body::new(pos, neg);
        let head = match rng.below(10) {
            0..=1 => Head::Constraint,
            2..=3 => Head::Choice {
                elements: vec![ChoiceElement {
                    value: rng.pick(&readable),
                    conditions: vec![Body::new(vec![rng.pick(&readable)], Vec::new())],
                }],
                bounds: CountBounds::default(),
            },
            4 => Head::Atom(rng.pick(&readable)),
            _ => {
                let atom = rng.pick(&upper);
                atom_or_choice(rng, atom)
            }
        };
        program.rules.push(Rule {
            head,
            body,
            origin: Span::default(),
        });
    }
    program
}

/// An aggregate of one to four elements over `readable` atoms (`upper`
/// ones preferred), chosen evenly among four shapes, by how its truth
/// changes as more elements hold: monotone (`#count` or positive `#sum`
/// with `>=`/`>`, `#max` with `>=`/`>`), antimonotone (the same with
/// `<=`/`<`), convex (`=`, or a lower and an upper guard) and non-monotone
/// (`!=`; or `#sum` with weights of both signs, sometimes two elements with
/// the same condition and opposite signs). `#max` weights are ranks (the
/// empty value below them all), sometimes negated as `#min`'s are.
fn random_recursive_aggregate(
    rng: &mut Rng,
    atom: AtomId,
    readable: &[AtomId],
    upper: &[AtomId],
) -> AggregateDefinition {
    let condition = |rng: &mut Rng| {
        let read = |rng: &mut Rng| {
            if rng.chance(60) {
                rng.pick(upper)
            } else {
                rng.pick(readable)
            }
        };
        let (mut pos, mut neg) = (Vec::new(), Vec::new());
        if rng.chance(90) {
            pos.push(read(rng));
        } else {
            neg.push(read(rng));
        }
        if rng.chance(25) {
            pos.push(rng.pick(readable));
        }
        if rng.chance(20) {
            neg.push(rng.pick(readable));
        }
        Body::new(pos, neg)
    };
    let shape = rng.below(4);
    // One element makes every aggregate monotone or antimonotone.
    let least_elements = if shape >= 2 { 2 } else { 1 };
    let mut elements: Vec<WeightedElement> = (0..least_elements + rng.below(5 - least_elements))
        .map(|_| WeightedElement {
            value: 1,
            conditions: (0..1 + usize::from(rng.chance(20)))
                .map(|_| condition(rng))
                .collect(),
        })
        .collect();
    let (value, least, greatest) = if rng.chance(30) {
        // Ranks 1..=4 and #inf as 0; #min negates both.
        let sign = if rng.chance(30) { -1 } else { 1 };
        for e in &mut elements {
            e.value = sign * (1 + rng.below(4) as i64);
        }
        let weights = elements.iter().map(|e| e.value);
        let empty = weights.clone().min().unwrap().min(0) - i64::from(sign < 0);
        let greatest = weights.max().unwrap();
        (AggregateValue::Max { empty }, empty, greatest)
    } else {
        let mixed_signs = shape == 3 && rng.chance(70);
        let count = !mixed_signs && rng.chance(50);
        for e in &mut elements {
            e.value = match (count, mixed_signs) {
                (true, _) => 1,
                (false, false) => 1 + rng.below(3) as i64,
                (false, true) => rng.pick(&[-3, -2, -1, 1, 2, 3]),
            };
        }
        if mixed_signs && rng.chance(50) {
            let twin = elements[rng.below(elements.len())].clone();
            let weight = -twin.value.signum() * (1 + rng.below(2) as i64);
            elements.push(WeightedElement {
                value: weight,
                ..twin
            });
        }
        let least = elements.iter().map(|e| e.value.min(0)).sum();
        let greatest = elements.iter().map(|e| e.value.max(0)).sum();
        (AggregateValue::Sum, least, greatest)
    };
    // A bound where the guard decides some sets of elements but not all,
    // and now and then one just outside, where it decides them all.
    let bound = |rng: &mut Rng, op: CmpOp| {
        let (low, high) = match op {
            _ if rng.chance(10) => (least - 1, greatest + 1),
            CmpOp::Ge | CmpOp::Lt => (least + 1, greatest),
            CmpOp::Gt | CmpOp::Le => (least, greatest - 1),
            CmpOp::Eq | CmpOp::Ne => (least, greatest),
        };
        low + rng.below((high - low + 1) as usize) as i64
    };
    let guard = |rng: &mut Rng, ops: &[CmpOp]| {
        let op = rng.pick(ops);
        (op, bound(rng, op))
    };
    let (lower, upper) = ([CmpOp::Ge, CmpOp::Gt], [CmpOp::Le, CmpOp::Lt]);
    let guards = match shape {
        0 => vec![guard(rng, &lower)],
        1 => vec![guard(rng, &upper)],
        2 if rng.chance(40) => vec![guard(rng, &[CmpOp::Eq])],
        2 => {
            let ((lower_op, low), (upper_op, high)) = (guard(rng, &lower), guard(rng, &upper));
            vec![(lower_op, low.min(high)), (upper_op, low.max(high))]
        }
        _ => {
            let ops = [CmpOp::Ne, CmpOp::Eq, CmpOp::Le, CmpOp::Ge, CmpOp::Lt];
            let ops: &[CmpOp] = if matches!(value, AggregateValue::Sum) && least < 0 {
                &ops
            } else {
                &[CmpOp::Ne]
            };
            vec![guard(rng, ops)]
        }
    };
    AggregateDefinition {
        atom,
        value,
        elements,
        guards,
        origin: Span::default(),
    }
}

/// A random program over at most `max_atoms` atoms: normal rules,
/// constraints, facts, choice rules with and without bounds and conditions,
/// disjunctions (not always head-cycle-free) and positive loops. With
/// `vary_show`, some atoms are hidden and some show terms are added.
///
/// This generator stays apart from the text-program generator of the
/// integration tests (tests/it/common/generator.rs): it builds a
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
                        value: AtomId(a),
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The answer sets of a program in the tiny syntax, as sorted names.
    fn answer_sets(text: &str) -> Vec<Vec<String>> {
        let program = parse(text);
        let mut sets: Vec<Vec<String>> = stable_models(&program)
            .into_iter()
            .map(|m| {
                let names = shown_of(&program, m).into_iter();
                let mut names: Vec<String> = names
                    .map(|s| program.symbols.display(s).to_string())
                    .collect();
                names.sort();
                names
            })
            .collect();
        sets.sort();
        sets
    }

    fn sets(expected: &[&[&str]]) -> Vec<Vec<String>> {
        let mut sets: Vec<Vec<String>> = expected
            .iter()
            .map(|set| set.iter().map(|s| s.to_string()).collect())
            .collect();
        sets.sort();
        sets
    }

    /// Each program's answer sets are derived by hand below, and agree
    /// with clingo 5.4's.
    #[test]
    fn checker_on_hand_written_aggregate_programs() {
        let cases: &[(&str, &[&[&str]])] = &[
            // F = a, so a :- a: only the empty set.
            ("s = #count{a} >= 1. a :- s.", &[&[]]),
            // F = a | b: {a, b} is stable (b chosen, then a); {a} is not,
            // since {} satisfies a :- a | b.
            ("{b}. s = #count{a; b} >= 1. a :- s.", &[&[], &["a", "b"]]),
            // F = not a, as a :- not a: none.
            ("s = #count{a} <= 0. a :- s.", &[]),
            // F = (c -> b). The only model with a is {a, b, c}, and {c}
            // satisfies its reduct (the implication fails in {c}); {c}
            // alone has no support. None.
            ("s = #sum{1: b; -1: c} >= 0. a :- s. b :- a. c :- a.", &[]),
            // F = q, so p :- q: {} and {p, q}.
            (
                "s = #count{q} = 1. p :- s. q :- p. {q}.",
                &[&[], &["p", "q"]],
            ),
            // F = not not b: a :- not not b. b :- a.
            (
                "s = #count{not b} <= 0. a :- s. b :- a.",
                &[&[], &["a", "b"]],
            ),
            // b :- not a. a :- b: none.
            ("s = #count{a} >= 1. b :- not s. a :- b.", &[]),
            // A positive cycle through two aggregates, founded only by the
            // choice of a.
            (
                "s = #count{a} >= 1. t = #sum{2: b} > 1. b :- s. a :- t. {a}.",
                &[&[], &["a", "b"]],
            ),
            (
                "s = #count{a} >= 1. t = #count{b} >= 1. b :- s. a :- t.",
                &[&[]],
            ),
            // A choice supported only by itself.
            ("s = #count{a} >= 1. {a} :- s.", &[&[]]),
            // F = a (the max is 2 iff a holds): {b} only with the choice.
            ("s = #max{2: a; 1: b} >= 2. a :- s. {b}.", &[&[], &["b"]]),
            // Convex: a chosen makes the count 1, so b, so 2; {b} alone has
            // no support (its reduct needs the count 1 from {}).
            ("s = #count{a; b} = 1. {a}. b :- s.", &[&[]]),
            // Disjunction and an aggregate over it.
            ("a | b. s = #count{a} >= 1. c :- s.", &[&["a", "c"], &["b"]]),
            // Weights of both signs on one atom: #sum{1: a; -1: a} is 0
            // whatever a is, so s holds and a is derived.
            ("s = #sum{1: a; -1: a} >= 0. a :- s.", &[&["a"]]),
        ];
        for (text, expected) in cases {
            assert_eq!(answer_sets(text), sets(expected), "{text}");
        }
    }

    /// A propositional formula, to evaluate the Ferraris reduct literally.
    enum Formula {
        Atom(u32),
        Not(Box<Formula>),
        And(Vec<Formula>),
        Or(Vec<Formula>),
        Implies(Box<Formula>, Box<Formula>),
    }

    impl Formula {
        fn holds(&self, model: u64) -> bool {
            match self {
                Formula::Atom(a) => model >> a & 1 == 1,
                Formula::Not(f) => !f.holds(model),
                Formula::And(fs) => fs.iter().all(|f| f.holds(model)),
                Formula::Or(fs) => fs.iter().any(|f| f.holds(model)),
                Formula::Implies(f, g) => !f.holds(model) || g.holds(model),
            }
        }

        /// Whether `smaller` satisfies the reduct `F^model`: `⊥` where
        /// `F` is false in `model`, else the connective over the reducts
        /// (`¬G` is `G → ⊥`, whose reduct is then `⊥ → ⊥`).
        fn reduct_holds(&self, model: u64, smaller: u64) -> bool {
            self.holds(model)
                && match self {
                    Formula::Atom(a) => smaller >> a & 1 == 1,
                    Formula::Not(_) => true,
                    Formula::And(fs) => fs.iter().all(|f| f.reduct_holds(model, smaller)),
                    Formula::Or(fs) => fs.iter().any(|f| f.reduct_holds(model, smaller)),
                    Formula::Implies(f, g) => {
                        !f.reduct_holds(model, smaller) || g.reduct_holds(model, smaller)
                    }
                }
        }
    }

    /// `F_A` as Ferraris defines it: for each set `I` of elements whose
    /// weights violate the guards, `⋀I → ⋁(E∖I)`; an element is the
    /// disjunction of its conditions.
    fn aggregate_formula(aggregate: &AggregateDefinition) -> Formula {
        let element = |e: &WeightedElement| {
            let literals = |c: &Body| {
                let pos = c.pos.iter().map(|a| Formula::Atom(a.0));
                let neg = c
                    .neg
                    .iter()
                    .map(|a| Formula::Not(Box::new(Formula::Atom(a.0))));
                Formula::And(pos.chain(neg).collect())
            };
            Formula::Or(e.conditions.iter().map(literals).collect())
        };
        let elements = &aggregate.elements;
        let violating = (0..1u32 << elements.len()).filter(|&set| {
            let weights = elements
                .iter()
                .enumerate()
                .filter(|&(i, _)| set >> i & 1 == 1);
            !guards_hold(aggregate, weights.map(|(_, e)| e.value))
        });
        let implications = violating.map(|set| {
            let (inside, outside): (Vec<_>, Vec<_>) = elements
                .iter()
                .enumerate()
                .partition(|&(i, _)| set >> i & 1 == 1);
            let inside = inside.into_iter().map(|(_, e)| element(e));
            let outside = outside.into_iter().map(|(_, e)| element(e));
            Formula::Implies(
                Box::new(Formula::And(inside.collect())),
                Box::new(Formula::Or(outside.collect())),
            )
        });
        Formula::And(implications.collect())
    }

    /// The shortcut the checker takes for `F_A^M` against the reduct of
    /// the formula itself, on random aggregates of every shape over four
    /// atoms, in every model and every subset of it.
    #[test]
    fn aggregate_reduct_is_the_ferraris_reduct_of_its_formula() {
        let mut rng = Rng::new(11);
        let atoms: Vec<AtomId> = (0..4).map(AtomId).collect();
        let aggregate_atom = AtomId(4);
        let (mut checked, mut differs_from_model) = (0, 0);
        for _ in 0..1000 {
            let aggregate = random_recursive_aggregate(&mut rng, aggregate_atom, &atoms, &atoms);
            let formula = aggregate_formula(&aggregate);
            for atoms_true in 0..1u64 << 4 {
                let holds = aggregate_holds(&aggregate, atoms_true);
                assert_eq!(formula.holds(atoms_true), holds, "{aggregate:?}");
                let model = atoms_true | u64::from(holds) << aggregate_atom.0;
                let mut smaller = atoms_true;
                loop {
                    let expected = formula.reduct_holds(model, smaller);
                    let shortcut = aggregate_reduct_holds(&aggregate, model, smaller);
                    assert_eq!(
                        shortcut, expected,
                        "{aggregate:?} in {model:b}, {smaller:b}"
                    );
                    differs_from_model += usize::from(holds && !expected);
                    checked += 1;
                    if smaller == 0 {
                        break;
                    }
                    smaller = (smaller - 1) & atoms_true;
                }
            }
        }
        assert!(checked > 50_000, "{checked}");
        assert!(differs_from_model > 5000, "{differs_from_model}");
    }

    /// On normal programs with aggregates that are not recursive, the
    /// search over subsets answers exactly as the least model of the reduct
    /// with the aggregate atoms as facts (the checker before recursive
    /// aggregates).
    #[test]
    fn subset_check_agrees_with_least_model_without_recursion() {
        let mut rng = Rng::new(909);
        let (mut compared, mut nontrivial) = (0, 0);
        for round in 0..3000 {
            let program = random_program_with_aggregates(&mut rng, 7);
            let disjunctive = program
                .rules
                .iter()
                .any(|r| matches!(r.head, Head::Disjunction(_)));
            if disjunctive {
                continue;
            }
            assert!(recursive_aggregates(&program).is_empty());
            let expected = stable_models_by(&program, Minimality::LeastModel);
            let by_subsets = stable_models_by(&program, Minimality::NoSmallerModel);
            assert_eq!(by_subsets, expected, "round {round}: {program:?}");
            compared += 1;
            nontrivial += usize::from(expected.len() > 1);
        }
        assert!(compared > 2000, "{compared}");
        assert!(nontrivial > 300, "{nontrivial} with several answer sets");
    }

    /// Which families of element sets satisfy an aggregate.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    enum Shape {
        /// Closed under adding elements.
        Monotone,
        /// Closed under removing elements.
        Antimonotone,
        /// Every set between two satisfying ones satisfies.
        Convex,
        NonMonotone,
    }

    /// Whether each set of elements (a bit mask) satisfies the guards.
    fn satisfying_sets(aggregate: &AggregateDefinition) -> Vec<bool> {
        let elements = &aggregate.elements;
        (0..1u32 << elements.len())
            .map(|set| {
                let weights = elements
                    .iter()
                    .enumerate()
                    .filter(|&(i, _)| set >> i & 1 == 1);
                guards_hold(aggregate, weights.map(|(_, e)| e.value))
            })
            .collect()
    }

    /// The sets with a satisfying subset (`up`) or superset (`!up`).
    fn closure(satisfying: &[bool], up: bool) -> Vec<bool> {
        let sets = 0..satisfying.len() as u32;
        sets.clone()
            .map(|t| {
                let related = |s: u32| if up { s & !t == 0 } else { t & !s == 0 };
                sets.clone().any(|s| satisfying[s as usize] && related(s))
            })
            .collect()
    }

    fn shape(aggregate: &AggregateDefinition) -> Shape {
        let satisfying = satisfying_sets(aggregate);
        let (up, down) = (closure(&satisfying, true), closure(&satisfying, false));
        if satisfying == up {
            Shape::Monotone
        } else if satisfying == down {
            Shape::Antimonotone
        } else if (0..satisfying.len()).all(|s| satisfying[s] == (up[s] && down[s])) {
            Shape::Convex
        } else {
            Shape::NonMonotone
        }
    }

    /// The minimal element sets among those `family` picks.
    fn minimal_sets(family: &[bool]) -> Vec<u32> {
        let sets = 0..family.len() as u32;
        let picked = |s: &u32| family[*s as usize];
        sets.clone()
            .filter(picked)
            .filter(|&s| !sets.clone().filter(picked).any(|t| t != s && t & !s == 0))
            .collect()
    }

    /// The program with each convex aggregate atom `A` replaced by normal
    /// rules (clasp's translation of convex aggregates): `A :- C, not V`
    /// for each minimal satisfying element set, `C` one condition of each
    /// of its elements, and `V :- C` for each minimal set no satisfying set
    /// contains. `None` when some aggregate is not convex.
    fn unfold_convex_aggregates(program: &GroundProgram) -> Option<GroundProgram> {
        let mut unfolded = program.clone();
        unfolded.aggregates.clear();
        for (k, aggregate) in program.aggregates.iter().enumerate() {
            if shape(aggregate) == Shape::NonMonotone {
                return None;
            }
            let violated = atom_named(&mut unfolded, &format!("#violated{k}"));
            unfolded.atoms[violated.index()].shown = false;
            let satisfying = satisfying_sets(aggregate);
            let outside: Vec<bool> = closure(&satisfying, false).iter().map(|&d| !d).collect();
            let families = [
                (
                    satisfying,
                    aggregate.atom,
                    Body::new(Vec::new(), vec![violated]),
                ),
                (outside, violated, Body::default()),
            ];
            for (family, head, extra) in families {
                for set in minimal_sets(&family) {
                    // Every combination of one condition per element.
                    let mut bodies = vec![extra.clone()];
                    for (i, e) in aggregate.elements.iter().enumerate() {
                        if set >> i & 1 == 1 {
                            bodies = bodies
                                .iter()
                                .flat_map(|b| e.conditions.iter().map(|c| b.and(c)))
                                .collect();
                        }
                    }
                    for body in bodies {
                        unfolded.rules.push(Rule {
                            head: Head::Atom(head),
                            body,
                            origin: Span::default(),
                        });
                    }
                }
            }
        }
        Some(unfolded)
    }

    /// Convex (monotone, antimonotone) aggregates, recursive or not, have
    /// the answer sets of their unfolding into normal rules, which the
    /// least-model check decides without aggregates: an independent check
    /// of the search over subsets.
    #[test]
    fn convex_recursive_aggregates_match_their_unfolding() {
        let mut rng = Rng::new(31);
        let (mut compared, mut recursive, mut nontrivial) = (0, 0, 0);
        for round in 0..5000 {
            let program = random_program_with_recursive_aggregates(&mut rng, 5);
            let Some(unfolded) = unfold_convex_aggregates(&program) else {
                continue;
            };
            let original_atoms = (1u64 << program.atoms.len()) - 1;
            let mut expected: Vec<u64> = stable_models(&unfolded)
                .into_iter()
                .map(|m| m & original_atoms)
                .collect();
            expected.sort_unstable();
            let models = stable_models(&program);
            assert_eq!(models, expected, "round {round}: {program:?}");
            compared += 1;
            recursive += usize::from(!recursive_aggregates(&program).is_empty());
            nontrivial += usize::from(models.len() > 1);
        }
        assert!(compared > 3000, "{compared}");
        assert!(recursive > 2500, "{recursive} recursive");
        assert!(nontrivial > 450, "{nontrivial} with several answer sets");
    }

    /// The recursive generator recurses through aggregates of every shape,
    /// through one aggregate deriving what it reads, through two, and into
    /// choice heads; its answer sets are supported models.
    #[test]
    fn recursive_aggregate_generator_covers_every_shape() {
        let mut rng = Rng::new(5);
        let mut recursive_shapes = [0; 4];
        let (mut self_support, mut two_aggregate_cycles, mut recursive_choices) = (0, 0, 0);
        let (mut with_answer_sets, mut mixed_weights, mut opposite_twins) = (0, 0, 0);
        let rounds = 2000;
        for _ in 0..rounds {
            let program = random_program_with_recursive_aggregates(&mut rng, 5);
            let reach = positive_reach(&program);
            let recursive = recursive_aggregates(&program);
            for a in program
                .aggregates
                .iter()
                .filter(|a| recursive.contains(&a.atom))
            {
                recursive_shapes[shape(a) as usize] += 1;
                let weights = a.elements.iter().map(|e| e.value);
                mixed_weights +=
                    usize::from(weights.clone().any(|w| w < 0) && weights.clone().any(|w| w > 0));
                opposite_twins += usize::from(a.elements.iter().any(|e| {
                    let twin = |f: &&WeightedElement| {
                        f.conditions == e.conditions && f.value * e.value < 0
                    };
                    a.elements.iter().any(|f| twin(&f))
                }));
            }
            let depends = |x: AtomId, y: AtomId| reach[x.index()] >> y.0 & 1 == 1;
            self_support += usize::from(program.rules.iter().any(|r| {
                let Head::Atom(h) = r.head else { return false };
                let sources = program
                    .aggregates
                    .iter()
                    .filter(|a| r.body.pos.contains(&a.atom));
                sources.clone().any(|a| {
                    a.elements
                        .iter()
                        .flat_map(|e| &e.conditions)
                        .any(|c| c.pos.contains(&h))
                })
            }));
            two_aggregate_cycles += usize::from(recursive.iter().any(|&a| {
                recursive
                    .iter()
                    .any(|&b| a != b && depends(a, b) && depends(b, a))
            }));
            recursive_choices += usize::from(program.rules.iter().any(|r| match &r.head {
                Head::Choice { elements, .. } => elements.iter().any(|e| {
                    r.body
                        .pos
                        .iter()
                        .any(|&a| recursive.contains(&a) && depends(a, e.value))
                }),
                _ => false,
            }));
            let stable = stable_models(&program);
            let supported = supported_models(&program);
            assert!(stable.iter().all(|m| supported.contains(m)), "{program:?}");
            with_answer_sets += usize::from(!stable.is_empty());
        }
        for shape in [
            Shape::Monotone,
            Shape::Antimonotone,
            Shape::Convex,
            Shape::NonMonotone,
        ] {
            let count = recursive_shapes[shape as usize];
            assert!(count > 250, "{count} recursive {shape:?} aggregates");
        }
        assert!(
            self_support > 1000,
            "{self_support} with u :- A, A reading u"
        );
        assert!(
            two_aggregate_cycles > 500,
            "{two_aggregate_cycles} through two aggregates"
        );
        assert!(
            recursive_choices > 700,
            "{recursive_choices} recursive choices"
        );
        assert!(
            mixed_weights > 200,
            "{mixed_weights} with weights of both signs"
        );
        assert!(
            opposite_twins > 120,
            "{opposite_twins} with one condition of both signs"
        );
        assert!(
            with_answer_sets > rounds / 2,
            "{with_answer_sets} with answer sets"
        );
    }
}
