//! Mutants of real programs: the small cases of the corpus
//! (`fixtures/corpus/`), each a program that people wrote, changed in the
//! ways a program changes while it is written. A statement is dropped, a
//! `not` removed or doubled, a number moved by one, a comparison
//! tightened or loosened, an aggregate's function swapped, a rule made a
//! constraint by dropping its head; a rule's atom head made a choice,
//! classically negated, or given `X+1` for a variable; an atom's two
//! arguments swapped, a choice given a bound, a comparison negated, a
//! body's literals reordered (which no answer may notice). Each change
//! keeps the
//! program in clingo's language (a dropped statement never makes another
//! unsafe; none of the changes binds or unbinds a variable), so the
//! mutants reach the grounder and the search in shapes the generators do
//! not write: the encodings' own joins, aggregates and objectives over
//! their own instances.

use super::{Rng, root};

/// Seeds of mutants: corpus cases whose files the campaign's clingo reads
/// as they are (the directories answered by clingo 5.8 only with
/// `clingo58`) and
/// asp2sat does not refuse, with no option but the files, that do not
/// include other files or run scripts, and whose recorded answer is a
/// handful of answer sets or an optimum (so that most mutants are quick
/// for both tools).
pub fn seed_programs(clingo58: bool) -> Vec<SeedProgram> {
    let corpus = root().join("fixtures/corpus");
    let mut programs = Vec::new();
    let mut dirs: Vec<_> = std::fs::read_dir(&corpus)
        .expect("fixtures/corpus")
        .flatten()
        .map(|entry| entry.path())
        .filter(|path| path.join("cases").is_file())
        // Answered by clingo 5.8 (a `CLINGO` file): clingo 5.4 does not
        // read them, or answers them wrongly.
        .filter(|path| clingo58 || !path.join("CLINGO").is_file())
        .collect();
    dirs.sort();
    for dir in dirs {
        let cases = std::fs::read_to_string(dir.join("cases")).unwrap();
        for line in cases.lines() {
            let line = line.split('#').next().unwrap_or("").trim();
            let mut words = line.split_whitespace();
            let Some(name) = words.next() else { continue };
            let args: Vec<&str> = words.collect();
            if args.is_empty() || args.iter().any(|a| a.starts_with('-') || *a == "|") {
                continue;
            }
            let expected = dir.join("expected");
            // What asp2sat refuses (`<case>.refused`) is no seed.
            if expected.join(format!("{name}.refused")).exists() {
                continue;
            }
            let Ok(expected) = std::fs::read_to_string(expected.join(format!("{name}.json")))
            else {
                continue;
            };
            let Ok(expected) = serde_json::from_str::<serde_json::Value>(&expected) else {
                continue;
            };
            let small = match expected["kind"].as_str() {
                Some("answer_sets") => expected["models"].as_u64().is_some_and(|n| n <= 100),
                Some("optimum") => true,
                _ => false,
            };
            let text: Option<String> = args
                .iter()
                .map(|file| std::fs::read_to_string(dir.join(file)).ok())
                .collect::<Option<Vec<_>>>()
                .map(|texts| texts.join("\n"));
            let Some(text) = text else { continue };
            let unsupported = ["#include", "#script", "#program", "#external", "#heuristic"];
            if !small || text.len() > 20_000 || unsupported.iter().any(|d| text.contains(d)) {
                continue;
            }
            let name = format!("{}/{name}", dir.file_name().unwrap().to_string_lossy());
            if SLOW.iter().any(|slow| name.starts_with(slow)) {
                continue;
            }
            programs.push(SeedProgram {
                name,
                optimizes: expected["kind"] == "optimum",
                text,
            });
        }
    }
    programs
}

/// Cases whose search takes clingo seconds (BENCHMARKS.md, "Corpus
/// timing"): their mutants would take either tool a minute.
const SLOW: &[&str] = &["hakank/rogo2_data", "hakank/post_office_problem2"];

pub struct SeedProgram {
    /// `directory/case` in the corpus.
    pub name: String,
    pub optimizes: bool,
    pub text: String,
}

/// The changes a mutant is made of.
pub const CHANGES: &[&str] = &[
    "statement dropped",
    "not removed",
    "number moved",
    "comparison changed",
    "aggregate swapped",
    "head dropped",
    "not doubled",
    "head made a choice",
    "head negated classically",
    "head variable shifted",
    "arguments swapped",
    "choice bounded",
    "comparison negated",
    "body reordered",
];

pub struct Mutant {
    /// The corpus case it comes from.
    pub origin: String,
    pub optimizes: bool,
    pub text: String,
    /// The changes made, from [`CHANGES`].
    pub changes: Vec<&'static str>,
}

/// The mutant of `seed`: one to three changes of one of `programs`.
pub fn mutant(programs: &[SeedProgram], seed: u64) -> Mutant {
    let mut rng = Rng::new(seed);
    let program = rng.pick(programs);
    let mut text = program.text.clone();
    let mut changes = Vec::new();
    let wanted = 1 + rng.below(3);
    // A change that finds nothing to change (no `not` in the program) is
    // drawn again, a bounded number of times.
    for _ in 0..wanted * 8 {
        if changes.len() == wanted {
            break;
        }
        let change = rng.below(CHANGES.len());
        if let Some(changed) = apply(change, &text, &mut rng) {
            text = changed;
            changes.push(CHANGES[change]);
        }
    }
    Mutant {
        origin: program.name.clone(),
        optimizes: program.optimizes,
        text,
        changes,
    }
}

/// The text with change number `change` of [`CHANGES`] made at a random
/// place; `None` when the text has no place for it.
fn apply(change: usize, text: &str, rng: &mut Rng) -> Option<String> {
    let code = code_bytes(text);
    let replace = |range: std::ops::Range<usize>, with: &str| {
        let mut changed = String::with_capacity(text.len());
        changed.push_str(&text[..range.start]);
        changed.push_str(with);
        changed.push_str(&text[range.end..]);
        changed
    };
    match change {
        0 => {
            let statements = statements(text, &code);
            let &(start, end) = pick_some(rng, &statements)?;
            Some(replace(start..end, ""))
        }
        1 => {
            let places = words(text, &code, "not");
            let &at = pick_some(rng, &places)?;
            let end = (at + 3..text.len())
                .find(|&i| !text.as_bytes()[i].is_ascii_whitespace())
                .unwrap_or(text.len());
            Some(replace(at..end, ""))
        }
        2 => {
            let numbers = numbers(text, &code);
            let &(start, end) = pick_some(rng, &numbers)?;
            let value: i64 = text[start..end].parse().ok()?;
            // An arity (`#show p/0.`) stays a natural number.
            let arity = text[..start].trim_end().ends_with('/');
            let moved = if rng.chance(0.5) || (arity && value == 0) {
                value + 1
            } else {
                value - 1
            };
            // A negative number where a term was: parenthesised, so that
            // `p(X-1)` becomes `p(X-(-1))`, not `p(X--1)`.
            let moved = if moved < 0 {
                format!("({moved})")
            } else {
                moved.to_string()
            };
            Some(replace(start..end, &moved))
        }
        3 => {
            let comparisons = comparisons(text, &code);
            let &(start, end) = pick_some(rng, &comparisons)?;
            let changed = match &text[start..end] {
                "<" => "<=",
                "<=" => "<",
                ">" => ">=",
                ">=" => ">",
                _ => *rng.pick(&["<", ">"]), // `!=`
            };
            Some(replace(start..end, changed))
        }
        5 => {
            // `h :- b.` as `:- b.`: the body was safe with the head, so it
            // is safe alone.
            let rules: Vec<(usize, usize)> = statements(text, &code)
                .into_iter()
                .filter(|&(start, _)| !text[start..].starts_with([':', '#']))
                .filter_map(|(start, end)| {
                    let neck = text[start..end].find(":-")? + start;
                    code[neck].then_some((start, neck))
                })
                .collect();
            let &(start, neck) = pick_some(rng, &rules)?;
            Some(replace(start..neck, ""))
        }
        4 => {
            let pairs = [
                ("#count", "#sum"),
                ("#sum", "#count"),
                ("#min", "#max"),
                ("#max", "#min"),
            ];
            // Not into a sum without a bound in a head: clingo makes its
            // elements a choice where the semantics ignores the tuples
            // that have no integer weight (tests/it/regressions.rs,
            // `SEMANTICS_OVER_CLINGO`).
            let statements = statements(text, &code);
            let unbounded_head = |at: usize| {
                let starts = statements.iter().any(|&(start, _)| start == at);
                let close = text[at..].find('}').map(|i| at + i + 1);
                let after = close.and_then(|i| text[i..].trim_start().chars().next());
                starts && matches!(after, Some('.' | ':'))
            };
            let places: Vec<(usize, &str, &str)> = pairs
                .iter()
                .flat_map(|&(from, to)| {
                    directive(text, &code, from)
                        .into_iter()
                        .map(move |at| (at, from, to))
                })
                .filter(|&(at, _, to)| to != "#sum" || !unbounded_head(at))
                .collect();
            let &(at, from, to) = pick_some(rng, &places)?;
            Some(replace(at..at + from.len(), to))
        }
        6 => {
            // `not a` as `not not a`: the same safety, a new literal kind
            // (but not `not not not a`, which clingo does not read).
            let places: Vec<usize> = (words(text, &code, "not").into_iter())
                .filter(|&at| {
                    let negated = ends_with_not(text[..at].trim_end());
                    !negated && !starts_with_not(text[at + 3..].trim_start())
                })
                .collect();
            let &at = pick_some(rng, &places)?;
            Some(replace(at..at, "not "))
        }
        7..=9 => {
            let heads = atom_heads(text, &code);
            let &(start, end) = pick_some(rng, &heads)?;
            let head = &text[start..end];
            match change {
                7 => Some(replace(start..end, &format!("{{ {head} }}"))),
                8 => Some(replace(start..start, "-")),
                _ => {
                    // A variable of the head's arguments, `X` as `(X+1)`:
                    // it stays bound by the body.
                    let bytes = text.as_bytes();
                    let variables: Vec<usize> = (start..end)
                        .filter(|&i| bytes[i].is_ascii_uppercase() && !is_word_byte(bytes[i - 1]))
                        .collect();
                    let &at = pick_some(rng, &variables)?;
                    let name_end = (at..end).find(|&i| !is_word_byte(bytes[i])).unwrap_or(end);
                    Some(replace(
                        at..name_end,
                        &format!("({}+1)", &text[at..name_end]),
                    ))
                }
            }
        }
        10 => {
            // `p(s,t)` as `p(t,s)`: the same variables, other joins.
            let pairs = argument_pairs(text, &code);
            let &(first, comma, second) = pick_some(rng, &pairs)?;
            let swapped = format!("{},{}", &text[comma + 1..second], &text[first..comma]);
            Some(replace(first..second, &swapped))
        }
        11 => {
            // `{ .. }` starting a statement gets a lower or an upper bound.
            let choices: Vec<usize> = (statements(text, &code).into_iter())
                .filter(|&(start, _)| text.as_bytes()[start] == b'{')
                .map(|(start, _)| start)
                .collect();
            let &start = pick_some(rng, &choices)?;
            let bound = rng.below(3);
            let close = closing_brace(text.as_bytes(), start)?;
            let after = text[close + 1..].trim_start();
            let unbounded = after.starts_with('.') || after.starts_with(":-");
            match rng.chance(0.5) || !unbounded {
                true => Some(replace(start..start, &format!("{bound} "))),
                false => Some(replace(close + 1..close + 1, &format!(" {bound}"))),
            }
        }
        12 => {
            // `not` before a comparison that cannot bind a variable.
            let comparisons = comparisons(text, &code);
            let &(at, end) = pick_some(rng, &comparisons)?;
            let start = negation_place(text, at, end)?;
            Some(replace(start..start, "not "))
        }
        13 => {
            // One literal of a body moved to another place: the same rule
            // to clingo, whose answers never depend on the order.
            let bodies = bodies(text, &code);
            let (start, literals) = pick_some(rng, &bodies)?;
            let mut order: Vec<&str> = literals.iter().map(|&(a, b)| &text[a..b]).collect();
            let from = rng.below(order.len());
            let moved = order.remove(from);
            // Any other place among the `order.len() + 1` there are.
            let to = rng.below(order.len());
            order.insert(if to >= from { to + 1 } else { to }, moved);
            let end = literals.last()?.1;
            Some(replace(*start..end, &order.join(", ")))
        }
        _ => unreachable!("change {change} of {}", CHANGES.len()),
    }
}

/// The bodies of rules and constraints whose literals are separated by
/// commas alone (no conditional literal, whose condition a comma would
/// continue, and no `;`): where the body starts, and each literal's text
/// without the spaces around it. Only bodies of two literals or more.
fn bodies(text: &str, code: &[bool]) -> Vec<(usize, Vec<(usize, usize)>)> {
    let bytes = text.as_bytes();
    let mut bodies = Vec::new();
    for (start, end) in statements(text, code) {
        if text[start..].starts_with('#') || text[start..].starts_with(":~") {
            continue;
        }
        let Some(neck) = (start..end - 1).find(|&i| code[i] && &bytes[i..i + 2] == b":-") else {
            continue;
        };
        let mut literals = Vec::new();
        let (mut depth, mut from, mut plain) = (0i32, neck + 2, true);
        for i in neck + 2..end - 1 {
            if !code[i] {
                continue;
            }
            match bytes[i] {
                b'(' | b'{' | b'[' => depth += 1,
                b')' | b'}' | b']' => depth -= 1,
                b':' | b';' if depth == 0 => plain = false,
                b',' if depth == 0 => {
                    literals.push((from, i));
                    from = i + 1;
                }
                _ => {}
            }
        }
        literals.push((from, end - 1));
        let trimmed: Vec<(usize, usize)> = (literals.into_iter())
            .map(|(a, b)| {
                let literal = &text[a..b];
                let a = a + (literal.len() - literal.trim_start().len());
                (a, a + literal.trim().len())
            })
            .collect();
        let clean = trimmed
            .iter()
            .all(|&(a, b)| a < b && code[a..b].iter().all(|&c| c));
        if plain && clean && trimmed.len() >= 2 {
            bodies.push((trimmed[0].0, trimmed));
        }
    }
    bodies
}

/// The heads of rules and facts that are one atom, `p` or `p(…)` (no
/// disjunction, condition, choice or aggregate), without the spaces
/// around them.
fn atom_heads(text: &str, code: &[bool]) -> Vec<(usize, usize)> {
    let bytes = text.as_bytes();
    (statements(text, code).into_iter())
        .filter_map(|(start, end)| {
            let head_end = match text[start..end].find(":-") {
                Some(neck) => start + neck,
                None => end - 1, // the `.`
            };
            let head = text[start..head_end].trim_end();
            let end = start + head.len();
            let name_end = (start..end)
                .find(|&i| !is_word_byte(bytes[i]))
                .unwrap_or(end);
            let name = &text[start..name_end];
            let plain = bytes[start].is_ascii_lowercase()
                && name != "not"
                && code[start..end].iter().all(|&c| c)
                && (name_end == end
                    || (bytes[name_end] == b'(' && closing(bytes, name_end) == Some(end - 1)));
            plain.then_some((start, end))
        })
        .collect()
}

/// The index of the `)` closing the `(` at `open`.
fn closing(bytes: &[u8], open: usize) -> Option<usize> {
    closing_of(bytes, open, b'(', b')')
}

/// The index of the `}` closing the `{` at `open`.
fn closing_brace(bytes: &[u8], open: usize) -> Option<usize> {
    closing_of(bytes, open, b'{', b'}')
}

fn closing_of(bytes: &[u8], open: usize, left: u8, right: u8) -> Option<usize> {
    let mut depth = 0;
    for (i, &b) in bytes.iter().enumerate().skip(open) {
        if b == left {
            depth += 1;
        } else if b == right {
            depth -= 1;
            if depth == 0 {
                return Some(i);
            }
        }
    }
    None
}

/// The two arguments of each binary atom `p(s,t)` in code, whose terms are
/// names, variables or numbers: where `s` starts, the comma, where `t`
/// ends.
fn argument_pairs(text: &str, code: &[bool]) -> Vec<(usize, usize, usize)> {
    let bytes = text.as_bytes();
    let simple = |range: std::ops::Range<usize>| {
        !range.is_empty()
            && range
                .clone()
                .all(|i| code[i] && (is_word_byte(bytes[i]) || bytes[i] == b'-'))
    };
    let mut pairs = Vec::new();
    for open in (1..bytes.len()).filter(|&i| bytes[i] == b'(' && is_word_byte(bytes[i - 1])) {
        let Some(close) = closing(bytes, open) else {
            continue;
        };
        let inside = &text[open + 1..close];
        if let Some(comma) = inside.find(',').map(|c| open + 1 + c)
            && simple(open + 1..comma)
            && simple(comma + 1..close)
        {
            pairs.push((open + 1, comma, close));
        }
    }
    pairs
}

/// Where `not` goes before the comparison whose operator is `at..end`:
/// at its left side, a name, variable or number (with `+`, `-`, `*`)
/// after `,`, `:`, `:-` or `;`. `None` for a left side that is longer or
/// already negated, a bound against a number and a link of a chain:
/// clingo 5.8 bounds variables by such inequalities (`0 <= X <= 9`).
fn negation_place(text: &str, at: usize, end: usize) -> Option<usize> {
    let bytes = text.as_bytes();
    let mut start = at;
    let neck = |start: usize| start >= 2 && &bytes[start - 2..start] == b":-";
    while start > 0
        && (is_word_byte(bytes[start - 1]) || b" +-*".contains(&bytes[start - 1]))
        && !neck(start)
    {
        start -= 1;
    }
    while bytes[start] == b' ' {
        start += 1;
    }
    let before = text[..start].trim_end();
    let opened = before.ends_with([',', ':', ';']) || before.ends_with(":-");
    let negated = starts_with_not(&text[start..]);
    let right = text[end..].trim_start();
    let right_end = (right.find(|c: char| !(is_word_byte(c as u8) || "+-* ".contains(c))))
        .unwrap_or(right.len());
    let number = |side: &str| side.trim().parse::<i64>().is_ok();
    let bound = number(&text[start..at]) || number(&right[..right_end]);
    let chained = right[right_end..].starts_with(['<', '>', '!', '=']);
    (opened && !negated && !bound && !chained && start < at).then_some(start)
}

/// Whether `text` starts with the word `not`.
fn starts_with_not(text: &str) -> bool {
    (text.strip_prefix("not"))
        .is_some_and(|rest| !rest.starts_with(|c: char| is_word_byte(c as u8)))
}

/// Whether `text` ends with the word `not`.
fn ends_with_not(text: &str) -> bool {
    (text.strip_suffix("not")).is_some_and(|rest| !rest.ends_with(|c: char| is_word_byte(c as u8)))
}

fn pick_some<'a, T>(rng: &mut Rng, xs: &'a [T]) -> Option<&'a T> {
    (!xs.is_empty()).then(|| rng.pick(xs))
}

/// Whether each byte of `text` is code: not in a comment (`%` to the end of
/// the line, `%* … *%`) or a string.
fn code_bytes(text: &str) -> Vec<bool> {
    let bytes = text.as_bytes();
    let mut code = vec![true; bytes.len()];
    let mut i = 0;
    while i < bytes.len() {
        let start = i;
        match bytes[i] {
            b'%' if bytes.get(i + 1) == Some(&b'*') => {
                i += 2;
                while i < bytes.len() && !(bytes[i] == b'*' && bytes.get(i + 1) == Some(&b'%')) {
                    i += 1;
                }
                i = (i + 2).min(bytes.len());
            }
            b'%' => {
                while i < bytes.len() && bytes[i] != b'\n' {
                    i += 1;
                }
            }
            b'"' => {
                i += 1;
                while i < bytes.len() && bytes[i] != b'"' {
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
                i = (i + 1).min(bytes.len());
            }
            _ => {
                i += 1;
                continue;
            }
        }
        code[start..i].iter_mut().for_each(|c| *c = false);
    }
    code
}

/// The statements of `text`, each from its first byte of code to its
/// closing `.` (a `.` outside brackets that is not part of `..`), or to
/// the `]` after it that closes a weak constraint's `[weight@level, …]`
/// or a constant's `[override]`.
fn statements(text: &str, code: &[bool]) -> Vec<(usize, usize)> {
    let bytes = text.as_bytes();
    let mut statements = Vec::new();
    let (mut depth, mut start) = (0i32, None);
    // Where the `.` of a weak constraint or a constant ends: its `[…]` may
    // still come.
    let (mut tail_dot, mut weak_tail) = (None, false);
    for i in 0..bytes.len() {
        if !code[i] {
            continue;
        }
        let b = bytes[i];
        if let Some(dot_end) = tail_dot
            && !b.is_ascii_whitespace()
        {
            tail_dot = None;
            weak_tail = b == b'[';
            if !weak_tail {
                statements.push((start.take().unwrap(), dot_end));
            }
        }
        if start.is_none() && !b.is_ascii_whitespace() {
            start = Some(i);
        }
        match b {
            b'(' | b'{' | b'[' => depth += 1,
            b')' | b'}' | b']' => {
                depth -= 1;
                if depth == 0 && weak_tail {
                    weak_tail = false;
                    statements.push((start.take().unwrap(), i + 1));
                }
            }
            b'.' if depth == 0
                && bytes.get(i + 1) != Some(&b'.')
                && (i == 0 || bytes[i - 1] != b'.') =>
            {
                match start {
                    // A weak constraint's `[w@l, …]`, a constant's
                    // `[default]` or `[override]` (clingo 5.8).
                    Some(s) if text[s..].starts_with(":~") || text[s..].starts_with("#const") => {
                        tail_dot = Some(i + 1)
                    }
                    Some(s) => {
                        statements.push((s, i + 1));
                        start = None;
                    }
                    None => {}
                }
            }
            _ => {}
        }
    }
    if let (Some(dot_end), Some(s)) = (tail_dot, start) {
        statements.push((s, dot_end));
    }
    statements
}

fn is_word_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'\''
}

/// Where the keyword `word` starts in code, as a whole word.
fn words(text: &str, code: &[bool], word: &str) -> Vec<usize> {
    let bytes = text.as_bytes();
    text.match_indices(word)
        .map(|(at, _)| at)
        .filter(|&at| code[at])
        .filter(|&at| at == 0 || !is_word_byte(bytes[at - 1]))
        .filter(|&at| {
            bytes
                .get(at + word.len())
                .is_some_and(|b| b.is_ascii_whitespace())
        })
        .collect()
}

/// Where the directive `name` (`#count`, …) starts in code, as a whole
/// word (`#sum` but not `#sum+`).
fn directive(text: &str, code: &[bool], name: &str) -> Vec<usize> {
    let bytes = text.as_bytes();
    text.match_indices(name)
        .map(|(at, _)| at)
        .filter(|&at| code[at])
        .filter(|&at| {
            !bytes
                .get(at + name.len())
                .is_some_and(|&b| is_word_byte(b) || b == b'+')
        })
        .collect()
}

/// The integer literals in code, not parts of names or variables.
fn numbers(text: &str, code: &[bool]) -> Vec<(usize, usize)> {
    let bytes = text.as_bytes();
    let mut numbers = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if code[i] && bytes[i].is_ascii_digit() && (i == 0 || !is_word_byte(bytes[i - 1])) {
            let end = (i..bytes.len())
                .find(|&j| !bytes[j].is_ascii_digit())
                .unwrap_or(bytes.len());
            if !bytes.get(end).is_some_and(|&b| is_word_byte(b)) && end - i < 9 {
                numbers.push((i, end));
            }
            i = end;
        } else {
            i += 1;
        }
    }
    numbers
}

/// The comparisons `<`, `<=`, `>`, `>=` and `!=` in code (not `:-`, `<>`
/// or an arrow).
fn comparisons(text: &str, code: &[bool]) -> Vec<(usize, usize)> {
    let bytes = text.as_bytes();
    let mut found = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let next = bytes.get(i + 1).copied();
        let len = match bytes[i] {
            b'<' | b'>' if next == Some(b'=') => 2,
            b'<' if next == Some(b'>') => 0,
            b'<' | b'>' if i == 0 || !matches!(bytes[i - 1], b'<' | b'>' | b'-') => 1,
            b'!' if next == Some(b'=') => 2,
            _ => 0,
        };
        if len > 0 && code[i] {
            found.push((i, i + len));
        }
        i += len.max(1);
    }
    found
}

/// Statements end at their `.` (not at `..`, nor inside brackets, strings
/// or comments) or at the `]` of a weak constraint's weight.
#[test]
fn statements_are_found_whole() {
    let text = "p(1..3). % a. b.\n:~ p(X). [X@1, X]\nq(\"a.b\") :- p(X), X < 2.\n:~ q(a).\n[1]\n#show q/1.\n\
                #const n=1. [override] #const m=2. r(n). #const k=3.";
    let code = code_bytes(text);
    let found: Vec<&str> = (statements(text, &code).into_iter())
        .map(|(start, end)| &text[start..end])
        .collect();
    assert_eq!(
        found,
        [
            "p(1..3).",
            ":~ p(X). [X@1, X]",
            "q(\"a.b\") :- p(X), X < 2.",
            ":~ q(a).\n[1]",
            "#show q/1.",
            "#const n=1. [override]",
            "#const m=2.",
            "r(n).",
            "#const k=3."
        ]
    );
}

/// Only one-atom heads are changed, whole.
#[test]
fn atom_heads_are_single_atoms() {
    let text = "p(1..3).\nq(X) :- p(X).\na | b.\n{c}.\nr(f(X),Y):-s(X,Y).\nt :- p(X).\n:- q(1).\n#show q/1.";
    let code = code_bytes(text);
    let found: Vec<&str> = (atom_heads(text, &code).into_iter())
        .map(|(start, end)| &text[start..end])
        .collect();
    assert_eq!(found, ["p(1..3)", "q(X)", "r(f(X),Y)", "t"]);
}

/// Swapped arguments are simple terms; negated comparisons start after a
/// separator, and are no bounds against a number or links of a chain.
#[test]
fn arguments_and_comparisons_are_found() {
    let text = "q(X,Y) :- p(X,f(Y)), r(Y,-1), X < Y+1, Z = X, X+1 != Y. :- Y < X, p(X,Y).\n\
                :- not not 2 != #min{ X : p(X) }. :- p(X), 0 <= X, X < Y < 3, p(Y).";
    let code = code_bytes(text);
    let pairs: Vec<String> = (argument_pairs(text, &code).into_iter())
        .map(|(a, comma, b)| format!("{}|{}", &text[a..comma], &text[comma + 1..b]))
        .collect();
    assert_eq!(pairs, ["X|Y", "Y|-1", "X|Y"]);
    let starts: Vec<&str> = (comparisons(text, &code).into_iter())
        .filter_map(|(at, end)| Some(&text[negation_place(text, at, end)?..end]))
        .collect();
    assert_eq!(starts, ["X <", "X+1 !=", "Y <"]);
}

/// Bodies are split at their top-level commas; those with a conditional
/// literal or a `;`, and single literals, are left alone.
#[test]
fn bodies_split_at_top_level_commas() {
    let text = "q(X) :- p(X,f(1,2)), #count{ Y,Z : r(Y,Z) } > 1, X < 3.\n\
                :- p(X), not q(X). a :- b. c :- d : e, f. g :- h; i. :~ p(X), q(X). [1]\n\
                #show p(X) : p(X), q(X).";
    let code = code_bytes(text);
    let found: Vec<Vec<&str>> = (bodies(text, &code).into_iter())
        .map(|(_, literals)| literals.iter().map(|&(a, b)| &text[a..b]).collect())
        .collect();
    assert_eq!(
        found,
        [
            vec!["p(X,f(1,2))", "#count{ Y,Z : r(Y,Z) } > 1", "X < 3"],
            vec!["p(X)", "not q(X)"],
        ]
    );
}
