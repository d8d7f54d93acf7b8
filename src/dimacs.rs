//! DIMACS CNF export (for users: `docs/dimacs.md`). Pure: renders into any
//! [`std::io::Write`] the caller gives, or into a `String`.
//!
//! The layout:
//!
//! ```text
//! p cnf V C
//! c ind v1 … vk 0          ApproxMC's and UniGen's sampling set
//! c p show v1 … vk 0       the model-counting competition's projection
//! c 3 p(1,2)               lp2sat's symbol table: one line per shown symbol
//! 1 -2 0                   the clauses
//! ```
//!
//! The projection lists the variables of the shown symbols (each once,
//! ascending), so a projected model counter counts distinct visible answer
//! sets while a plain one counts answer sets. A `#show t : body.` term gets a
//! line of its own like a shown atom, with the variable that is true exactly
//! when `t` is shown (several symbols may share a variable: when their
//! conditions are the same literal, or the atoms are equivalent, as `b` is
//! to `a` when its only rule is `b :- a.`).

use crate::ground::program::GroundProgram;
use crate::translate::{Cond, Translation, TranslationStats, ranking::RankingSummary};
use std::fmt::Write as _;
use std::io::{self, Write};
use varisat_formula::{CnfFormula, Lit, Var};

/// The symbol table of an exact translation: the variable of every shown
/// symbol with the symbol as clingo prints it, in clingo's term order.
///
/// # Panics
/// When `translation` is not exact (a shown condition is not a positive
/// literal); use [`crate::translate::translate_exact`].
pub fn symbol_table(program: &GroundProgram, translation: &Translation) -> Vec<(Var, String)> {
    translation
        .shown()
        .iter()
        .map(|&(symbol, cond)| {
            let var = match cond {
                Cond::Lit(lit) if lit.is_positive() => lit.var(),
                _ => panic!("the exact translation gives every shown symbol a positive variable"),
            };
            (var, program.symbols.display(symbol).to_string())
        })
        .collect()
}

/// The shown symbols' variables, each once, ascending.
pub fn projection(symbols: &[(Var, String)]) -> Vec<Var> {
    let mut vars: Vec<Var> = symbols.iter().map(|&(var, _)| var).collect();
    vars.sort_unstable();
    vars.dedup();
    vars
}

/// Writes `formula` in DIMACS CNF with the projection lines and the symbol
/// table of `symbols`.
pub fn write(
    out: &mut (impl Write + ?Sized),
    formula: &CnfFormula,
    symbols: &[(Var, String)],
) -> io::Result<()> {
    let mut line = String::with_capacity(256);
    // An empty clause over no variables is declared over one: Ganak
    // counts `p cnf 0 1` with the clause `0` as one model.
    let unsatisfiable = formula.iter().any(|clause| clause.is_empty());
    let vars = formula.var_count().max(usize::from(unsatisfiable));
    writeln!(out, "p cnf {} {}", vars, formula.len())?;
    let vars = projection(symbols);
    for prefix in ["c ind", "c p show"] {
        line.clear();
        line.push_str(prefix);
        for var in &vars {
            let _ = write!(line, " {}", var.to_dimacs());
        }
        line.push_str(" 0\n");
        out.write_all(line.as_bytes())?;
    }
    for (var, name) in symbols {
        line.clear();
        let _ = writeln!(line, "c {} {}", var.to_dimacs(), name.replace('\n', "\\n"));
        out.write_all(line.as_bytes())?;
    }
    for clause in formula.iter() {
        line.clear();
        for lit in clause {
            let _ = write!(line, "{} ", lit.to_dimacs());
        }
        line.push_str("0\n");
        out.write_all(line.as_bytes())?;
    }
    Ok(())
}

/// The objective as weighted soft clauses of one literal each, for the
/// MaxSAT Evaluation's WCNF format: a model's weight of falsified soft
/// clauses is `Σ scaleᵢ · costᵢ − offset` over the priority levels, each
/// level's scale above the greatest weight all lower levels can add up to,
/// so that the lexicographic order of cost vectors is kept.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SoftClauses {
    /// `(weight, literal)`: the weight is paid when the literal is false.
    pub clauses: Vec<(u64, Lit)>,
    /// Per level, highest priority first.
    pub levels: Vec<SoftLevel>,
    /// The folded cost of a model whose soft clauses all hold.
    pub offset: i128,
}

/// One priority level of [`SoftClauses`]: the weight its falsified soft
/// clauses add is `scale · (cost − least)`, below the scale of the level
/// above, so a model's weight decodes level by level from the highest.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SoftLevel {
    pub priority: i64,
    pub scale: u64,
    /// The least cost the level can have: the sum of its negative weights
    /// and of those it always pays.
    pub least: i64,
}

/// Folds the objective of `translation` into [`SoftClauses`]. A cost
/// element of weight `w > 0` on condition `c` is the soft clause `¬c` of
/// weight `w`; one of weight `w < 0` is the clause `c` of weight `−w` and
/// `w` in the offset. `Err` when the folded weights exceed 2⁶³.
pub fn soft_clauses(translation: &Translation) -> Result<SoftClauses, String> {
    let limit = 1u128 << 63;
    let too_large =
        || "the weights of the objective, folded over its priority levels, exceed 2^63".to_string();
    let mut soft = SoftClauses::default();
    let mut scale: u128 = 1;
    for level in translation.costs().iter().rev() {
        let (literals, least) = level.soft_literals();
        let level_total: u128 = literals.iter().map(|&(_, w)| u128::from(w) * scale).sum();
        if level_total >= limit {
            return Err(too_large());
        }
        soft.clauses.extend(
            literals
                .iter()
                .map(|&(lit, w)| ((u128::from(w) * scale) as u64, lit)),
        );
        soft.offset += i128::from(least) * scale as i128;
        soft.levels.push(SoftLevel {
            priority: level.priority,
            scale: scale as u64,
            least,
        });
        scale += level_total;
        if scale >= limit {
            return Err(too_large());
        }
    }
    soft.levels.reverse();
    Ok(soft)
}

/// Writes the hard clauses of `formula` and the soft clauses of `soft` in
/// the WCNF format of the MaxSAT Evaluations since 2022 (`h` before a hard
/// clause, the weight before a soft one), with the symbol table of
/// [`write`] and comments giving each level's scale and the offset.
pub fn write_wcnf(
    out: &mut (impl Write + ?Sized),
    formula: &CnfFormula,
    symbols: &[(Var, String)],
    soft: &SoftClauses,
) -> io::Result<()> {
    writeln!(
        out,
        "c asp2sat: a model's weight w is Σ scale·(cost − least) over the levels (w + offset = Σ scale·cost)"
    )?;
    for level in &soft.levels {
        writeln!(
            out,
            "c level {} scale {} least {}",
            level.priority, level.scale, level.least
        )?;
    }
    writeln!(out, "c offset {}", soft.offset)?;
    for (var, name) in symbols {
        writeln!(out, "c {} {}", var.to_dimacs(), name.replace('\n', "\\n"))?;
    }
    let mut line = String::with_capacity(256);
    for clause in formula.iter() {
        line.clear();
        line.push('h');
        for lit in clause {
            let _ = write!(line, " {}", lit.to_dimacs());
        }
        line.push_str(" 0\n");
        out.write_all(line.as_bytes())?;
    }
    for &(weight, lit) in &soft.clauses {
        writeln!(out, "{weight} {} 0", lit.to_dimacs())?;
    }
    Ok(())
}

/// [`write`] into a string.
pub fn render(formula: &CnfFormula, symbols: &[(Var, String)]) -> String {
    let mut out = Vec::new();
    write(&mut out, formula, symbols).expect("writing to memory does not fail");
    String::from_utf8(out).expect("symbols print as UTF-8")
}

/// The `--stats` report of `asp2sat dimacs`: sizes of the ground program
/// and of the CNF, variables and clauses split by origin.
pub fn stats_text(program: &GroundProgram, translation: &Translation) -> String {
    let s: &TranslationStats = translation.stats();
    let r: &RankingSummary = translation.ranking();
    let mut out = String::new();
    let _ = writeln!(out, "Atoms        : {}", program.atoms.len());
    let _ = writeln!(out, "Rules        : {}", program.rules.len());
    let _ = writeln!(
        out,
        "Tight        : {}",
        if translation.is_tight() { "yes" } else { "no" }
    );
    let _ = writeln!(out, "Variables    : {}", s.variables());
    let _ = writeln!(
        out,
        "  Completion : {} ({} atoms, {} bodies; {} atoms share an equivalent's)",
        s.atom_variables + s.body_variables,
        s.atom_variables,
        s.body_variables,
        s.equivalent_atoms
    );
    let _ = writeln!(out, "  Ranking    : {}", s.ranking_variables);
    let _ = writeln!(out, "  Cardinality: {}", s.cardinality_variables);
    let _ = writeln!(out, "  Aggregates : {}", s.aggregate_variables);
    let _ = writeln!(out, "  Show       : {}", s.show_variables);
    let _ = writeln!(out, "Clauses      : {}", s.clauses());
    let _ = writeln!(out, "  Completion : {}", s.completion_clauses);
    let _ = writeln!(out, "  Ranking    : {}", s.ranking_clauses);
    let _ = writeln!(out, "  Cardinality: {}", s.cardinality_clauses);
    let _ = writeln!(out, "  Aggregates : {}", s.aggregate_clauses);
    let _ = writeln!(out, "  Show       : {}", s.show_clauses);
    let _ = writeln!(
        out,
        "Ranked       : {} components, {} atoms, {} rank bits, {} self-loops",
        r.ranked_components, r.ranked_atoms, r.rank_bits, r.self_loops
    );
    let _ = writeln!(out, "Shown        : {}", translation.shown().len());
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::parse;
    use crate::translate::translate_exact;
    use varisat::ExtendFormula;

    #[test]
    fn dimacs_layout() {
        let mut program = parse("{a}. b :- not c. c :- not a.");
        program.atoms[2].shown = false;
        let mut formula = CnfFormula::new();
        let translation = translate_exact(&program, &mut formula).unwrap();
        let symbols = symbol_table(&program, &translation);
        assert_eq!(
            symbols,
            [
                (Var::from_dimacs(1), "a".to_string()),
                (Var::from_dimacs(2), "b".to_string())
            ]
        );
        let text = render(&formula, &symbols);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], format!("p cnf 3 {}", formula.len()));
        assert_eq!(lines[1], "c ind 1 2 0");
        assert_eq!(lines[2], "c p show 1 2 0");
        assert_eq!(lines[3], "c 1 a");
        assert_eq!(lines[4], "c 2 b");
        assert_eq!(lines.len(), 5 + formula.len());
        assert!(lines[5..].iter().all(|l| l.ends_with(" 0") || *l == "0"));
    }

    #[test]
    fn dimacs_show_terms_get_positive_variables() {
        let mut program = parse("{a}. b :- a.");
        let t = program.symbols.function("t", &[], false);
        let u = program.symbols.function("u", &[], false);
        let a = program.atoms[0].symbol;
        use crate::ground::program::{AtomId, Body, ShowTerm};
        program.show_terms.push(ShowTerm {
            term: t,
            body: Body::new(vec![], vec![AtomId(0)]),
        });
        program.show_terms.push(ShowTerm {
            term: u,
            body: Body::default(),
        });
        program.show_terms.push(ShowTerm {
            term: a,
            body: Body::new(vec![AtomId(1)], vec![]),
        });
        let mut formula = CnfFormula::new();
        let translation = translate_exact(&program, &mut formula).unwrap();
        let symbols = symbol_table(&program, &translation);
        let names: Vec<&str> = symbols.iter().map(|(_, n)| n.as_str()).collect();
        assert_eq!(names, ["a", "b", "t", "u"]);
        // `b` shares `a`'s variable, and the show term `a : b` too.
        assert_eq!(symbols[0].0, symbols[1].0);
        assert_eq!(projection(&symbols).len(), 3);
        // Exactly two models: {a, b} shows a b u; {} shows t u.
        let mut solver = varisat::Solver::new();
        solver.add_formula(&formula);
        let mut seen = Vec::new();
        while solver.solve().unwrap() {
            let model = solver.model().unwrap();
            let shown: Vec<&str> = symbols
                .iter()
                .filter(|(v, _)| model.contains(&v.positive()))
                .map(|(_, n)| n.as_str())
                .collect();
            seen.push(shown.join(" "));
            let block: Vec<varisat::Lit> = model.iter().map(|&l| !l).collect();
            solver.add_clause(&block);
        }
        seen.sort();
        assert_eq!(seen, ["a b u", "t u"]);
    }

    #[test]
    fn dimacs_stats_split_by_origin() {
        let program = parse("{x}. a :- b. b :- a. a :- x. 1{p;q;r}1.");
        let mut formula = CnfFormula::new();
        let translation = translate_exact(&program, &mut formula).unwrap();
        let text = stats_text(&program, &translation);
        assert!(text.contains("Tight        : no"), "{text}");
        assert!(text.contains(&format!("Variables    : {}", formula.var_count())));
        assert!(text.contains(&format!("Clauses      : {}", formula.len())));
        assert!(translation.stats().ranking_clauses > 0);
        assert!(translation.stats().cardinality_clauses > 0);
        assert!(
            text.contains("Ranked       : 1 components, 2 atoms, 4 rank bits"),
            "{text}"
        );
    }
}
