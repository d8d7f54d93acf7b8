//! The recorded answer of a case, `expected/<case>.json`, in one of four
//! kinds, and its baseline time, `expected/<case>.time`.
//!
//! The JSON is written with one answer set a line, so that a change of an
//! expectation reads as a diff of answer sets; strings are escaped to ASCII
//! as Python's `json.dumps` escapes them (the corpus was first written by a
//! Python script, and one format has one spelling).

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// At most this many answer sets are listed; more are only counted.
pub const MAX_LISTED: usize = 300;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Expectation {
    /// The search was exhausted with at most [`MAX_LISTED`] answer sets:
    /// all of them, each sorted, the list sorted (a multiset: one visible
    /// set appears once per answer set).
    AnswerSets {
        result: String,
        sets: Vec<Vec<String>>,
    },
    /// Exhausted with more answer sets than that: their number.
    Count { result: String, models: usize },
    /// Not exhausted within the time limit: the result of `-n 1`.
    Result { result: String },
    /// An optimization program: the result and the optimum's costs, and
    /// every optimal answer set (`--opt-mode=optN`) when there were at most
    /// [`MAX_LISTED`] found in time.
    Optimum {
        result: String,
        costs: Vec<i64>,
        optimal_sets: Option<Vec<Vec<String>>>,
    },
}

impl Expectation {
    /// The result word: `SATISFIABLE`, `UNSATISFIABLE`, `OPTIMUM FOUND`.
    pub fn result(&self) -> &str {
        match self {
            Expectation::AnswerSets { result, .. }
            | Expectation::Count { result, .. }
            | Expectation::Result { result }
            | Expectation::Optimum { result, .. } => result,
        }
    }

    /// The kind's name in the file.
    pub fn kind(&self) -> &'static str {
        match self {
            Expectation::AnswerSets { .. } => "answer_sets",
            Expectation::Count { .. } => "count",
            Expectation::Result { .. } => "result",
            Expectation::Optimum { .. } => "optimum",
        }
    }

    /// Reads an expectation file's text.
    pub fn parse(text: &str) -> Result<Expectation, String> {
        let doc: Value = serde_json::from_str(text).map_err(|e| format!("not JSON: {e}"))?;
        let result = doc["result"]
            .as_str()
            .ok_or("no \"result\" string")?
            .to_string();
        let sets = |key: &str| -> Result<Vec<Vec<String>>, String> {
            serde_json::from_value(doc[key].clone())
                .map_err(|_| format!("\"{key}\" is not a list of lists of atoms"))
        };
        match doc["kind"].as_str() {
            Some("answer_sets") => Ok(Expectation::AnswerSets {
                result,
                sets: sets("answer_sets")?,
            }),
            Some("count") => Ok(Expectation::Count {
                result,
                models: doc["models"].as_u64().ok_or("no \"models\" number")? as usize,
            }),
            Some("result") => Ok(Expectation::Result { result }),
            Some("optimum") => Ok(Expectation::Optimum {
                result,
                costs: serde_json::from_value(doc["costs"].clone())
                    .map_err(|_| "\"costs\" is not a list of integers")?,
                optimal_sets: match doc.get("optimal_sets") {
                    None | Some(Value::Null) => None,
                    Some(_) => Some(sets("optimal_sets")?),
                },
            }),
            other => Err(format!("unknown kind {other:?}")),
        }
    }

    /// The file's text: two-space indentation, one answer set a line.
    pub fn render(&self) -> String {
        let mut text = format!(
            "{{\n  \"kind\": {},\n  \"result\": {}",
            quote(self.kind()),
            quote(self.result())
        );
        let listed = match self {
            Expectation::AnswerSets { sets, .. } => {
                text += &format!(",\n  \"models\": {}", sets.len());
                Some(("answer_sets", sets))
            }
            Expectation::Count { models, .. } => {
                text += &format!(",\n  \"models\": {models}");
                None
            }
            Expectation::Result { .. } => None,
            Expectation::Optimum {
                costs,
                optimal_sets,
                ..
            } => {
                text += ",\n  \"costs\": ";
                text += &indented_numbers(costs);
                optimal_sets.as_ref().map(|sets| ("optimal_sets", sets))
            }
        };
        if let Some((key, sets)) = listed {
            text += &format!(",\n  \"{key}\": ");
            if sets.is_empty() {
                text += "[]";
            } else {
                let lines: Vec<String> = sets
                    .iter()
                    .map(|set| format!("    {}", inline_list(set)))
                    .collect();
                text += &format!("[\n{}\n  ]", lines.join(",\n"));
            }
        }
        text + "\n}\n"
    }
}

/// A list of numbers one a line, as an element of the top-level object.
fn indented_numbers(numbers: &[i64]) -> String {
    if numbers.is_empty() {
        return "[]".to_string();
    }
    let lines: Vec<String> = numbers.iter().map(|n| format!("    {n}")).collect();
    format!("[\n{}\n  ]", lines.join(",\n"))
}

/// `["a", "b"]` on one line.
fn inline_list(atoms: &[String]) -> String {
    let quoted: Vec<String> = atoms.iter().map(|atom| quote(atom)).collect();
    format!("[{}]", quoted.join(", "))
}

/// A JSON string in ASCII: the printable characters as they are, every
/// other one escaped (`\n`, or `\uXXXX`, as UTF-16 beyond the BMP).
fn quote(text: &str) -> String {
    let mut quoted = String::from("\"");
    for c in text.chars() {
        match c {
            '"' => quoted += "\\\"",
            '\\' => quoted += "\\\\",
            '\n' => quoted += "\\n",
            '\r' => quoted += "\\r",
            '\t' => quoted += "\\t",
            '\u{8}' => quoted += "\\b",
            '\u{c}' => quoted += "\\f",
            ' '..='~' => quoted.push(c),
            _ => {
                let mut units = [0u16; 2];
                for unit in c.encode_utf16(&mut units) {
                    quoted += &format!("\\u{unit:04x}");
                }
            }
        }
    }
    quoted + "\""
}

/// The recorded time of a case, `expected/<case>.time`: the baseline of
/// the slowdown check, and who took it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Baseline {
    pub seconds: f64,
    /// `asp2sat` or the reference clingo's version line.
    pub tool: String,
}

impl Baseline {
    pub fn render(&self) -> String {
        serde_json::to_string(self).expect("a baseline is plain data") + "\n"
    }

    pub fn parse(text: &str) -> Result<Baseline, String> {
        serde_json::from_str(text).map_err(|e| format!("not a baseline: {e}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sets(sets: &[&[&str]]) -> Vec<Vec<String>> {
        sets.iter()
            .map(|set| set.iter().map(|atom| atom.to_string()).collect())
            .collect()
    }

    #[test]
    fn each_kind_is_written_as_the_corpus_holds_it() {
        let optimum = Expectation::Optimum {
            result: "OPTIMUM FOUND".into(),
            costs: vec![1, -10],
            optimal_sets: Some(sets(&[&["a(10)", "a_count(1)"]])),
        };
        let text = "{\n  \"kind\": \"optimum\",\n  \"result\": \"OPTIMUM FOUND\",\n  \"costs\": [\n    1,\n    -10\n  ],\n  \"optimal_sets\": [\n    [\"a(10)\", \"a_count(1)\"]\n  ]\n}\n";
        assert_eq!(optimum.render(), text);
        let none = Expectation::AnswerSets {
            result: "UNSATISFIABLE".into(),
            sets: vec![],
        };
        let text = "{\n  \"kind\": \"answer_sets\",\n  \"result\": \"UNSATISFIABLE\",\n  \"models\": 0,\n  \"answer_sets\": []\n}\n";
        assert_eq!(none.render(), text);
        let count = Expectation::Count {
            result: "SATISFIABLE".into(),
            models: 576,
        };
        for expectation in [optimum, none, count] {
            assert_eq!(Expectation::parse(&expectation.render()), Ok(expectation));
        }
    }

    #[test]
    fn strings_are_escaped_to_ascii_as_python_does() {
        assert_eq!(
            quote("a\"b\\c\u{7f}é😀"),
            r#""a\"b\\c\u007f\u00e9\ud83d\ude00""#
        );
        let strange = Expectation::AnswerSets {
            result: "SATISFIABLE".into(),
            sets: sets(&[&["s(\"é\\n\")", ""], &[]]),
        };
        assert_eq!(Expectation::parse(&strange.render()), Ok(strange));
    }

    #[test]
    fn malformed_expectations_say_what_is_wrong() {
        let error = Expectation::parse("{\"kind\": \"odd\", \"result\": \"SATISFIABLE\"}");
        assert_eq!(error, Err("unknown kind Some(\"odd\")".to_string()));
        let error = Expectation::parse("{\"kind\": \"count\", \"result\": \"SATISFIABLE\"}");
        assert_eq!(error, Err("no \"models\" number".to_string()));
    }
}
