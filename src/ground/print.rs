//! Test-only: compiled rules printed back, in which the grounder's passes
//! state what they produce ([`compiled`], [`ground`]).
//!
//! Variables print as `V0`, `V1`, .. by their numbers; a literal's form
//! shows what instantiation reads: `V = lo..hi` for an interval binding,
//! an aggregate's `unless` after `|`, its assigned variable as `V :=`, its
//! inputs as `in(V..)`. The order is the rules' and literals' own, so the
//! printout is deterministic.

use super::compile::Compiler;
use super::compiled::{CAggregate, CAtom, CElement, CHead, CLit, CRule};
use super::eval::{CTerm, Op1};
use super::predicates::{PredId, Predicates};
use crate::diagnostics::{Diagnostic, FileId};
use crate::symbols::{SymId, SymbolTable};
use crate::syntax::ast::{AggregateFunction, Naf};
use crate::syntax::parse_program;

struct Printer<'p> {
    preds: &'p Predicates,
    symbols: &'p SymbolTable,
}

impl Printer<'_> {
    fn term(&self, term: &CTerm) -> String {
        match term {
            CTerm::Sym(s) => self.symbols.display(*s).to_string(),
            CTerm::Var(v) => format!("V{v}"),
            CTerm::Fun { name, args } => {
                format!("{}({})", self.symbols.name_text(*name), self.terms(args))
            }
            CTerm::Unary(op, a) => match op {
                Op1::Minus => format!("-({})", self.term(a)),
                Op1::BitNot => format!("~({})", self.term(a)),
                Op1::Abs => format!("|{}|", self.term(a)),
            },
            CTerm::Binary(op, a, b) => {
                format!("({}{}{})", self.term(a), op.as_str(), self.term(b))
            }
            CTerm::Linear { var, mul, add } => format!("linear({mul}*V{var}+{add})"),
        }
    }

    fn terms(&self, terms: &[CTerm]) -> String {
        let terms: Vec<String> = terms.iter().map(|t| self.term(t)).collect();
        terms.join(",")
    }

    fn atom(&self, atom: &CAtom) -> String {
        let info = self.preds.get(atom.pred);
        let sign = if info.negative { "-" } else { "" };
        if atom.args.is_empty() {
            return format!("{sign}{}", info.name);
        }
        format!("{sign}{}({})", info.name, self.terms(&atom.args))
    }

    fn literal(&self, literal: &CLit) -> String {
        match literal {
            CLit::Pos(a) => self.atom(a),
            CLit::Neg(a) => format!("not {}", self.atom(a)),
            CLit::NotNot(a) => format!("not not {}", self.atom(a)),
            CLit::Cmp(op, l, r) => format!("{}{}{}", self.term(l), op.as_str(), self.term(r)),
            CLit::Interval(p, lo, hi) => {
                format!("{}={}..{}", self.term(p), self.term(lo), self.term(hi))
            }
            CLit::Aggregate(aggregate) => self.aggregate(aggregate),
        }
    }

    fn literals(&self, literals: &[CLit]) -> String {
        let literals: Vec<String> = literals.iter().map(|l| self.literal(l)).collect();
        literals.join(", ")
    }

    fn aggregate(&self, aggregate: &CAggregate) -> String {
        let naf = match aggregate.naf {
            Naf::Positive => "",
            Naf::Not => "not ",
            Naf::NotNot => "not not ",
        };
        let function = match aggregate.function {
            AggregateFunction::Count => "#count",
            AggregateFunction::Sum => "#sum",
            AggregateFunction::SumPlus => "#sum+",
            AggregateFunction::Min => "#min",
            AggregateFunction::Max => "#max",
        };
        let elements: Vec<String> = (aggregate.elements.iter())
            .map(|e| {
                let mut text =
                    format!("{} : {}", self.terms(&e.terms), self.literals(&e.condition));
                if let Some(unless) = &e.unless {
                    text += &format!(" | {}", self.literal(unless));
                }
                if !e.literal_bindings.is_empty() {
                    text += &format!(" then {}", self.literals(&e.literal_bindings));
                }
                text + &marks(&[
                    (e.literal_binds, "binds"),
                    (e.literal_double_negated, "not-not"),
                ])
            })
            .collect();
        let guards: Vec<String> = (aggregate.guards.iter())
            .map(|(op, t)| format!("{}{}", op.as_str(), self.term(t)))
            .collect();
        let assigns = aggregate.assigns.map(|v| format!("V{v} := "));
        let inputs: Vec<String> = aggregate.inputs.iter().map(|v| format!("V{v}")).collect();
        let text = format!(
            "{naf}{}{function}{{ {} }}{} in({})",
            assigns.unwrap_or_default(),
            elements.join("; "),
            guards.join(""),
            inputs.join(",")
        );
        text + &marks(&[
            (aggregate.conditional, "conditional"),
            (aggregate.implication, "implication"),
        ])
    }

    fn element(&self, element: &CElement) -> String {
        if element.condition.is_empty() {
            return self.atom(&element.atom);
        }
        format!(
            "{} : {}",
            self.atom(&element.atom),
            self.literals(&element.condition)
        )
    }

    fn elements(&self, elements: &[CElement], separator: &str) -> String {
        let elements: Vec<String> = elements.iter().map(|e| self.element(e)).collect();
        elements.join(separator)
    }

    fn rule(&self, rule: &CRule) -> String {
        let head = match &rule.head {
            CHead::Constraint => String::new(),
            CHead::Disjunction(elements) => self.elements(elements, " | "),
            CHead::Choice { elements, guards } => {
                let guards: Vec<String> = (guards.iter())
                    .map(|(op, t)| format!(" {}{}", op.as_str(), self.term(t)))
                    .collect();
                format!("{{ {} }}{}", self.elements(elements, "; "), guards.join(""))
            }
            CHead::ShowTerm(term) => format!("#show {}", self.term(term)),
            CHead::External(element) => format!("#external {}", self.element(element)),
        };
        let vars = format!("  % {} variables", rule.num_vars);
        if rule.body.is_empty() {
            return format!("{head}.{vars}");
        }
        format!("{head} :- {}.{vars}", self.literals(&rule.body))
    }
}

/// ` [name]` for each flag that is set.
fn marks(flags: &[(bool, &str)]) -> String {
    let set = flags.iter().filter(|(flag, _)| *flag);
    set.map(|(_, name)| format!(" [{name}]")).collect()
}

/// The diagnostics, one a line, each with the text it points at.
fn diagnostics(text: &str, diagnostics: &[Diagnostic]) -> String {
    let mut out = String::new();
    for d in diagnostics {
        let at = &text[d.span.start as usize..d.span.end as usize];
        out += &format!("{:?}: {} [{at}]\n", d.severity, d.message);
        for note in &d.notes {
            out += &format!("  note: {}\n", note.message);
        }
    }
    out
}

/// What compiling the program `text` gives, as [`super::ground_parts`]
/// hands it to instantiation (with the ranges comparisons give
/// variables).
struct CompiledText {
    symbols: SymbolTable,
    preds: Predicates,
    rules: Vec<CRule>,
    facts: Vec<(PredId, SymId)>,
    errors: Vec<Diagnostic>,
}

fn compile_text(text: &str) -> CompiledText {
    let (statements, errors) = parse_program(text, FileId(0));
    assert!(errors.is_empty(), "{errors:?}");
    let mut symbols = SymbolTable::default();
    let mut preds = Predicates::default();
    let mut errors = Vec::new();
    let (consts, undefined_consts) =
        super::resolve_constants(&statements, &[], &mut symbols, &mut preds, &mut errors);
    let mut compiler = Compiler::new(&mut symbols, &mut preds, &consts);
    compiler.undefined_consts = undefined_consts;
    for statement in &statements {
        let integer_constant = |name: &str| {
            let value = consts.get(name);
            value.and_then(|&v| compiler.symbols.as_number(v))
        };
        let ranged = super::bounds::with_ranges(&statement.kind, &integer_constant);
        let kind = ranged.as_ref().unwrap_or(&statement.kind);
        super::compile_statement(&mut compiler, kind, statement.span);
    }
    let rules = std::mem::take(&mut compiler.rules);
    let facts = std::mem::take(&mut compiler.facts);
    errors.append(&mut compiler.errors);
    CompiledText {
        symbols,
        preds,
        rules,
        facts,
        errors,
    }
}

/// The compiled rules of the program `text`.
pub fn compiled_rules(text: &str) -> Vec<CRule> {
    compile_text(text).rules
}

/// The compiled rules of the program `text`, one a line, as
/// [`super::ground_parts`] hands them to instantiation (with the ranges
/// comparisons give variables), then the compiler's diagnostics.
pub fn compiled(text: &str) -> String {
    let CompiledText {
        symbols,
        preds,
        rules,
        facts,
        errors,
    } = compile_text(text);
    let printer = Printer {
        preds: &preds,
        symbols: &symbols,
    };
    let mut out: String = rules.iter().map(|r| printer.rule(r) + "\n").collect();
    for (pred, symbol) in facts {
        let name = &preds.get(pred).name;
        out += &format!("{}.  % a fact of {name}\n", symbols.display(symbol));
    }
    out += &diagnostics(text, &errors);
    if out.is_empty() {
        out += "% no rule\n";
    }
    out
}

/// The ground program of `text` in clingo's `--text` form, then the
/// diagnostics.
pub fn ground(text: &str) -> String {
    let (statements, errors) = parse_program(text, FileId(0));
    assert!(errors.is_empty(), "{errors:?}");
    let (program, diagnostics_out) = super::ground(&statements, &[]);
    let mut out = Vec::new();
    if let Some(program) = program {
        crate::ground_text::write(&mut out, &program).expect("into memory");
    }
    let mut out = String::from_utf8(out).expect("UTF-8");
    out += &diagnostics(text, &diagnostics_out);
    out
}

/// Snapshot tests, one a case: `name: "program";` makes the test `name`,
/// whose snapshot is `$print("program")` with the program as its
/// description.
macro_rules! snapshot_cases {
    ($print:path; $($name:ident: $text:expr;)*) => {$(
        #[test]
        fn $name() {
            insta::with_settings!({ description => $text, omit_expression => true }, {
                insta::assert_snapshot!($print($text));
            });
        }
    )*};
}
pub(super) use snapshot_cases;
