//! An answer in clingo's `--outf=2` JSON compared with an expectation: the
//! result word, the answer sets as a multiset, their number, the optimum's
//! costs and the optimal answer sets; a projection must list each projected
//! answer set once.

use super::expectation::Expectation;
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

/// What matters of an `--outf=2` document.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answer {
    pub result: String,
    /// Every witness of every call, atoms sorted, in printed order.
    pub sets: Vec<Vec<String>>,
    /// `Models.More`: `no` when the search was exhausted.
    pub more: String,
    /// `Models.Costs`: the optimum's (or the best found) cost vector.
    pub costs: Option<Vec<i64>>,
    /// `Stats.SatSolver`: the SAT solver asp2sat searched with.
    pub sat_solver: Option<String>,
}

impl Answer {
    /// Reads clingo's (and asp2sat's) `--outf=2` document.
    pub fn parse(text: &str) -> Result<Answer, String> {
        let doc: Value =
            serde_json::from_str(text).map_err(|e| format!("the output is not JSON ({e})"))?;
        let result = doc["Result"].as_str().ok_or("no \"Result\" string")?;
        let calls = doc["Call"].as_array().ok_or("no \"Call\" array")?;
        let mut sets = Vec::new();
        for call in calls {
            let Some(witnesses) = call.get("Witnesses") else {
                continue;
            };
            for witness in witnesses
                .as_array()
                .ok_or("\"Witnesses\" is not an array")?
            {
                let mut atoms: Vec<String> = serde_json::from_value(witness["Value"].clone())
                    .map_err(|_| "a witness's \"Value\" is not a list of strings")?;
                atoms.sort();
                sets.push(atoms);
            }
        }
        let models = &doc["Models"];
        Ok(Answer {
            result: result.to_string(),
            sets,
            more: models["More"].as_str().unwrap_or("no").to_string(),
            costs: match models.get("Costs") {
                None => None,
                Some(costs) => Some(
                    serde_json::from_value(costs.clone())
                        .map_err(|_| "\"Costs\" is not a list of integers")?,
                ),
            },
            sat_solver: doc["Stats"]["SatSolver"].as_str().map(str::to_string),
        })
    }

    /// The answer sets as a sorted multiset.
    pub fn sorted_sets(&self) -> Vec<Vec<String>> {
        let mut sets = self.sets.clone();
        sets.sort();
        sets
    }
}

/// How an answer differs from its expectation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Difference {
    Result {
        expected: String,
        got: String,
    },
    AnswerSets(SetDifference),
    Count {
        expected: usize,
        got: usize,
        more: String,
    },
    Costs {
        expected: Vec<i64>,
        got: Option<Vec<i64>>,
    },
    OptimalSets(SetDifference),
    /// A projection listed these projected answer sets more than once.
    RepeatedProjection(Vec<(Vec<String>, usize)>),
}

/// The answer sets only one side has, counted as multisets, shortest first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SetDifference {
    pub expected: usize,
    pub got: usize,
    /// Expected but not found, with how many times more.
    pub missing: Vec<(Vec<String>, usize)>,
    /// Found but not expected, with how many times more.
    pub extra: Vec<(Vec<String>, usize)>,
}

impl SetDifference {
    /// `None` when the multisets are equal.
    pub fn of(expected: &[Vec<String>], got: &[Vec<String>]) -> Option<SetDifference> {
        let mut balance: BTreeMap<&Vec<String>, i64> = BTreeMap::new();
        for set in expected {
            *balance.entry(set).or_default() += 1;
        }
        for set in got {
            *balance.entry(set).or_default() -= 1;
        }
        let side = |sign: i64| {
            let mut sets: Vec<(Vec<String>, usize)> = (balance.iter())
                .filter(|(_, count)| count.signum() == sign)
                .map(|(set, count)| ((*set).clone(), count.unsigned_abs() as usize))
                .collect();
            sets.sort_by(|(a, _), (b, _)| a.len().cmp(&b.len()).then_with(|| a.cmp(b)));
            sets
        };
        let (missing, extra) = (side(1), side(-1));
        (!missing.is_empty() || !extra.is_empty()).then_some(SetDifference {
            expected: expected.len(),
            got: got.len(),
            missing,
            extra,
        })
    }
}

/// How many answer sets of each side a difference shows.
const SHOWN: usize = 5;

/// How many atoms of an answer set, or of a change, are shown.
const SHOWN_ATOMS: usize = 12;

/// Words in braces, the first [`SHOWN_ATOMS`] of them.
fn brief(words: &[String]) -> String {
    if words.len() <= SHOWN_ATOMS {
        return format!("{{{}}}", words.join(" "));
    }
    let shown = words[..SHOWN_ATOMS].join(" ");
    format!("{{{shown} ... ({} in all)}}", words.len())
}

/// What turns `from` into `to`: `-atom` for each atom only `from` has,
/// `+atom` for each only `to` has.
fn change(from: &[String], to: &[String]) -> Vec<String> {
    let from_set: BTreeSet<&String> = from.iter().collect();
    let to_set: BTreeSet<&String> = to.iter().collect();
    let removed = from_set.difference(&to_set).map(|atom| (*atom, '-'));
    let added = to_set.difference(&from_set).map(|atom| (*atom, '+'));
    // By atom, so that `-p(1,5,1) +p(1,5,6)` stand together.
    let mut changed: Vec<(&String, char)> = removed.chain(added).collect();
    changed.sort();
    (changed.into_iter())
        .map(|(atom, sign)| format!("{sign}{atom}"))
        .collect()
}

/// Lists the first [`SHOWN`] sets; a large one also as its change from the
/// nearest of `others` (the other side), which is what a reader looks for.
fn write_sets(
    f: &mut fmt::Formatter<'_>,
    label: &str,
    sets: &[(Vec<String>, usize)],
    others: &[(Vec<String>, usize)],
) -> fmt::Result {
    for (set, count) in sets.iter().take(SHOWN) {
        write!(f, "\n  {label} ({count}x): {}", brief(set))?;
        let nearest = (others.iter())
            .map(|(other, _)| change(other, set))
            .min_by_key(Vec::len)
            .filter(|_| set.len() > SHOWN_ATOMS);
        if let Some(nearest) = nearest {
            write!(f, "\n    from the nearest missing: {}", brief(&nearest))?;
        }
    }
    if sets.len() > SHOWN {
        write!(f, "\n  ... {} more {label}", sets.len() - SHOWN)?;
    }
    Ok(())
}

impl fmt::Display for SetDifference {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} answer sets where {} are expected",
            self.got, self.expected
        )?;
        write_sets(f, "missing", &self.missing, &[])?;
        write_sets(f, "extra", &self.extra, &self.missing)
    }
}

impl fmt::Display for Difference {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Difference::Result { expected, got } => {
                write!(f, "result {got} where {expected} is expected")
            }
            Difference::AnswerSets(difference) => write!(f, "{difference}"),
            Difference::Count {
                expected,
                got,
                more,
            } => write!(
                f,
                "{got} answer sets (more: {more}) where {expected} are expected"
            ),
            Difference::Costs { expected, got } => match got {
                Some(got) => write!(f, "optimum {got:?} where {expected:?} is expected"),
                None => write!(f, "no optimum where {expected:?} is expected"),
            },
            Difference::OptimalSets(difference) => write!(f, "optimal answer sets: {difference}"),
            Difference::RepeatedProjection(sets) => {
                write!(f, "a projection lists answer sets more than once")?;
                write_sets(f, "repeated", sets, &[])
            }
        }
    }
}

/// `None` when `answer` is what `expected` says. `projected`: the case
/// asked for a projection, whose answer sets are each listed once.
pub fn compare(expected: &Expectation, answer: &Answer, projected: bool) -> Option<Difference> {
    if answer.result != expected.result() {
        return Some(Difference::Result {
            expected: expected.result().to_string(),
            got: answer.result.clone(),
        });
    }
    if projected && let Some(repeated) = repeated_sets(&answer.sets) {
        return Some(Difference::RepeatedProjection(repeated));
    }
    match expected {
        Expectation::AnswerSets { sets, .. } => {
            SetDifference::of(sets, &answer.sets).map(Difference::AnswerSets)
        }
        Expectation::Count { models, .. } => (answer.sets.len() != *models || answer.more != "no")
            .then(|| Difference::Count {
                expected: *models,
                got: answer.sets.len(),
                more: answer.more.clone(),
            }),
        Expectation::Result { .. } => None,
        Expectation::Optimum {
            costs,
            optimal_sets,
            ..
        } => {
            if answer.costs.as_ref() != Some(costs) {
                return Some(Difference::Costs {
                    expected: costs.clone(),
                    got: answer.costs.clone(),
                });
            }
            let sets = optimal_sets.as_ref()?;
            SetDifference::of(sets, &answer.sets).map(Difference::OptimalSets)
        }
    }
}

/// The answer sets listed more than once, with how often.
fn repeated_sets(sets: &[Vec<String>]) -> Option<Vec<(Vec<String>, usize)>> {
    let mut counts: BTreeMap<&Vec<String>, usize> = BTreeMap::new();
    for set in sets {
        *counts.entry(set).or_default() += 1;
    }
    let repeated: Vec<_> = (counts.into_iter())
        .filter(|(_, count)| *count > 1)
        .map(|(set, count)| (set.clone(), count))
        .collect();
    (!repeated.is_empty()).then_some(repeated)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sets(sets: &[&str]) -> Vec<Vec<String>> {
        sets.iter()
            .map(|set| set.split_whitespace().map(str::to_string).collect())
            .collect()
    }

    fn answer(result: &str, found: &[&str], costs: Option<Vec<i64>>) -> Answer {
        Answer {
            result: result.into(),
            sets: sets(found),
            more: "no".into(),
            costs,
            sat_solver: None,
        }
    }

    #[test]
    fn answer_sets_are_a_multiset_in_any_order() {
        let expected = Expectation::AnswerSets {
            result: "SATISFIABLE".into(),
            sets: sets(&["a", "a", "b c"]),
        };
        let found = answer("SATISFIABLE", &["b c", "a", "a"], None);
        assert_eq!(compare(&expected, &found, false), None);
        let once = answer("SATISFIABLE", &["b c", "a"], None);
        let difference = compare(&expected, &once, false).unwrap();
        assert_eq!(
            difference.to_string(),
            "2 answer sets where 3 are expected\n  missing (1x): {a}"
        );
    }

    #[test]
    fn differences_list_the_shortest_sets_first() {
        let expected = sets(&["a b c", "z", "a b"]);
        let got = sets(&["a b c d", "y", "a b c"]);
        let difference = SetDifference::of(&expected, &got).unwrap();
        assert_eq!(
            difference.to_string(),
            "3 answer sets where 3 are expected\n  missing (1x): {z}\n  missing (1x): {a b}\n  \
             extra (1x): {y}\n  extra (1x): {a b c d}"
        );
    }

    #[test]
    fn a_large_extra_set_shows_its_change_from_the_nearest_missing_one() {
        let board = |swap: bool| -> Vec<String> {
            let mut atoms: Vec<String> = (1..=20).map(|i| format!("p({i})")).collect();
            if swap {
                atoms[3] = "q(4)".to_string();
            }
            atoms.sort();
            atoms
        };
        let far: Vec<String> = (1..=20).map(|i| format!("r({i})")).collect();
        let difference = SetDifference::of(&[far, board(false)], &[board(true)]).unwrap();
        let text = difference.to_string();
        assert!(text.contains("\n  missing (1x): {p(1) p(10) p(11) p(12) p(13) p(14) p(15) p(16) p(17) p(18) p(19) p(2) ... (20 in all)}"), "{text}");
        assert!(
            text.ends_with("\n    from the nearest missing: {-p(4) +q(4)}"),
            "{text}"
        );
    }

    #[test]
    fn the_result_word_comes_first() {
        let expected = Expectation::Result {
            result: "SATISFIABLE".into(),
        };
        assert_eq!(
            compare(&expected, &answer("SATISFIABLE", &["x"], None), false),
            None
        );
        let wrong = compare(&expected, &answer("UNSATISFIABLE", &[], None), false).unwrap();
        assert_eq!(
            wrong.to_string(),
            "result UNSATISFIABLE where SATISFIABLE is expected"
        );
    }

    #[test]
    fn an_optimum_is_its_costs_and_its_optimal_sets() {
        let expected = Expectation::Optimum {
            result: "OPTIMUM FOUND".into(),
            costs: vec![2, 0],
            optimal_sets: Some(sets(&["a", "b"])),
        };
        let good = answer("OPTIMUM FOUND", &["b", "a"], Some(vec![2, 0]));
        assert_eq!(compare(&expected, &good, false), None);
        let costly = answer("OPTIMUM FOUND", &["b", "a"], Some(vec![3, 0]));
        assert_eq!(
            compare(&expected, &costly, false).unwrap().to_string(),
            "optimum [3, 0] where [2, 0] is expected"
        );
        let fewer = answer("OPTIMUM FOUND", &["a"], Some(vec![2, 0]));
        assert_eq!(
            compare(&expected, &fewer, false).unwrap().to_string(),
            "optimal answer sets: 1 answer sets where 2 are expected\n  missing (1x): {b}"
        );
    }

    #[test]
    fn a_count_needs_an_exhausted_search() {
        let expected = Expectation::Count {
            result: "SATISFIABLE".into(),
            models: 2,
        };
        let mut found = answer("SATISFIABLE", &["a", "b"], None);
        assert_eq!(compare(&expected, &found, false), None);
        found.more = "yes".into();
        assert!(compare(&expected, &found, false).is_some());
    }

    #[test]
    fn a_projection_lists_each_set_once() {
        let expected = Expectation::AnswerSets {
            result: "SATISFIABLE".into(),
            sets: sets(&["a", "a"]),
        };
        let found = answer("SATISFIABLE", &["a", "a"], None);
        assert_eq!(compare(&expected, &found, false), None);
        assert_eq!(
            compare(&expected, &found, true).unwrap().to_string(),
            "a projection lists answer sets more than once\n  repeated (2x): {a}"
        );
    }

    #[test]
    fn clingos_document_is_read() {
        let text = r#"{"Call": [{"Witnesses": [{"Value": ["b", "a"], "Costs": [3]}]}],
            "Result": "OPTIMUM FOUND", "Models": {"Number": 1, "More": "no", "Costs": [3]}}"#;
        let read = Answer::parse(text).unwrap();
        assert_eq!(read, answer("OPTIMUM FOUND", &["a b"], Some(vec![3])));
        assert!(Answer::parse("{}").unwrap_err().contains("Result"));
    }
}
