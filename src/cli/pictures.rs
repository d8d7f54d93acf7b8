//! `--grid`, `--render=svg` and `asp2sat render`: the pictures of each
//! answer set (drawn by `crate::render`) written where the flags say.

use super::{EXIT_INPUT_ERROR, EXIT_OUTPUT_ERROR};
use crate::render;
use crate::solve::AnswerSet;
use crate::symbols::SymbolTable;
use crate::syntax::ast::{Signature, Statement, StatementKind};
use std::path::Path;

/// What `-o` replaces by the answer set's number.
const NUMBER_PLACEHOLDER: &str = "%n";

/// The pictures a run draws, as the flags ask.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Pictures {
    /// `--grid`: of predicate `NAME`/3 when given, else of the one that fits.
    pub grid: Option<Option<String>>,
    /// `--render=svg`: where each drawing goes.
    pub svg: Option<SvgTarget>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SvgTarget {
    /// Standard output, when nothing else is printed there: one answer set.
    Stdout,
    /// `-o PATTERN`, `%n` standing for the answer set's number.
    Files(String),
}

impl Pictures {
    /// Reads `--grid[=NAME/3]`, `--render` and `-o`; `quiet_stdout` when
    /// nothing else is written to standard output (`--outf=3`, `render`).
    pub fn from_flags(
        grid: Option<&str>,
        svg: bool,
        output: Option<String>,
        quiet_stdout: bool,
    ) -> Result<Pictures, String> {
        let grid = match grid {
            None => None,
            Some("") => Some(None),
            Some(choice) => match choice.strip_suffix("/3") {
                Some(name) if !name.is_empty() && !name.contains(['(', ')', ',', ' ']) => {
                    Some(Some(name.to_string()))
                }
                _ => {
                    return Err(format!(
                        "invalid --grid={choice}: expected NAME/3, the predicate of the atoms \
                         NAME(Row,Column,Value)"
                    ));
                }
            },
        };
        let svg = match (svg, output) {
            (false, None) => None,
            (false, Some(_)) => return Err("-o names the files of --render=svg".to_string()),
            (true, Some(pattern)) => Some(SvgTarget::Files(pattern)),
            (true, None) if quiet_stdout => Some(SvgTarget::Stdout),
            (true, None) => {
                return Err(
                    "--render=svg writes files: give -o PATTERN, with %n for the \
                            answer set's number (e.g. -o answer-%n.svg)"
                        .to_string(),
                );
            }
        };
        Ok(Pictures { grid, svg })
    }
}

/// Draws and writes the pictures of a run's answer sets.
#[derive(Debug, Default)]
pub struct PictureWriter {
    pictures: Pictures,
    /// Whether warnings are printed (`-W`'s group `other`).
    warn: bool,
    /// `--grid` has said once that an answer set has no grid.
    warned_no_grid: bool,
    /// A drawing kept until the run ends, because its file (or standard
    /// output) takes one answer set only; with the number of drawings.
    single: Option<String>,
    drawn: usize,
}

impl PictureWriter {
    pub fn new(pictures: Pictures, warn: bool) -> PictureWriter {
        PictureWriter {
            pictures,
            warn,
            ..PictureWriter::default()
        }
    }

    /// The `--grid` table of an answer set, if asked for; the first answer
    /// set without one says so on standard error.
    pub fn grid(&mut self, answer: &AnswerSet, symbols: &SymbolTable) -> Option<String> {
        let name = self.pictures.grid.as_ref()?;
        match render::text_grid(symbols, &answer.shown, name.as_deref()) {
            Ok(grid) => Some(grid),
            Err(why) => {
                if self.warn && !self.warned_no_grid {
                    stderrln!("asp2sat: warning: --grid: {why}");
                }
                self.warned_no_grid = true;
                None
            }
        }
    }

    /// Draws answer set `number` for `--render=svg`, writing it to its file
    /// at once when `-o` has `%n`. `Err` says why the run must stop.
    pub fn draw(
        &mut self,
        number: usize,
        answer: &AnswerSet,
        symbols: &SymbolTable,
    ) -> Result<(), PictureError> {
        let Some(target) = &self.pictures.svg else {
            return Ok(());
        };
        let (svg, warnings) = render::svg(symbols, &answer.shown);
        for warning in warnings.iter().filter(|_| self.warn) {
            stderrln!("asp2sat: warning: answer {number}: {warning}");
        }
        self.drawn += 1;
        match target {
            SvgTarget::Files(pattern) if pattern.contains(NUMBER_PLACEHOLDER) => {
                let path = pattern.replace(NUMBER_PLACEHOLDER, &number.to_string());
                write_file(&path, &svg)
            }
            _ if self.drawn > 1 => {
                self.single = None; // which of them would be arbitrary
                Err(self.several())
            }
            _ => {
                self.single = Some(svg);
                Ok(())
            }
        }
    }

    /// Once the run has ended: the drawing for standard output, if any,
    /// after writing the one for a file without `%n`.
    pub fn finish(&mut self) -> Result<Option<String>, PictureError> {
        let Some(svg) = self.single.take() else {
            return Ok(None);
        };
        match &self.pictures.svg {
            Some(SvgTarget::Files(path)) => write_file(path, &svg).map(|()| None),
            _ => Ok(Some(svg)),
        }
    }

    fn several(&self) -> PictureError {
        let place = match &self.pictures.svg {
            Some(SvgTarget::Files(path)) => format!("-o {path} names one file"),
            _ => "standard output takes one".to_string(),
        };
        PictureError {
            message: format!(
                "there is more than one answer set to draw and {place}: give -o PATTERN with %n \
                 for the answer set's number (e.g. -o answer-%n.svg)"
            ),
            exit_code: EXIT_INPUT_ERROR,
        }
    }
}

/// Why pictures could not be written, and the run's exit code for it.
#[derive(Debug)]
pub struct PictureError {
    pub message: String,
    pub exit_code: u8,
}

fn write_file(path: &str, svg: &str) -> Result<(), PictureError> {
    super::write::write_output(Path::new(path), |out| out.write_all(svg.as_bytes())).map_err(|e| {
        PictureError {
            message: format!("could not write {path}: {e}"),
            exit_code: EXIT_OUTPUT_ERROR,
        }
    })
}

/// Shows the `vis*` atoms of the visualisation language in a program that
/// hides atoms by default (`#show p/n.`, `#show.`, `#hide.`): pictures are
/// drawn from them whether or not `#show` shows them, as SeaLion's
/// visualisation programs intend.
pub fn show_vis_atoms(statements: &mut Vec<Statement>) {
    let hiding = statements.iter().find(|s| {
        matches!(
            s.kind,
            StatementKind::ShowSignature(_)
                | StatementKind::ShowNothing
                | StatementKind::Hide(None)
        )
    });
    let Some(&Statement { span, .. }) = hiding else {
        return;
    };
    let occurring = crate::ground::occurring_signatures(statements);
    for (name, arity) in render::vis_signatures() {
        let signature = Signature {
            strong_negation: false,
            name: name.to_string(),
            arity,
        };
        if !occurring.contains(&signature) {
            continue;
        }
        statements.push(Statement {
            kind: StatementKind::ShowSignature(signature),
            span,
        });
    }
}

/// `asp2sat render`'s exit code from the run's (clingo's): 0 when it drew
/// every answer set it searched for, 1 when there was none to draw; the
/// codes of errors and interruptions stay.
pub fn render_exit_code(code: u8) -> u8 {
    match code {
        10 | 30 => 0,
        20 => {
            stderrln!("asp2sat: error: no answer set to draw");
            1
        }
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flags_are_checked() {
        let grid = |choice| Pictures::from_flags(Some(choice), false, None, false);
        assert_eq!(grid("").unwrap().grid, Some(None));
        assert_eq!(grid("cell/3").unwrap().grid, Some(Some("cell".to_string())));
        assert!(grid("cell/2").is_err());
        assert!(grid("/3").is_err());
        assert!(Pictures::from_flags(None, true, None, false).is_err());
        assert_eq!(
            Pictures::from_flags(None, true, None, true).unwrap().svg,
            Some(SvgTarget::Stdout)
        );
        assert!(Pictures::from_flags(None, false, Some("a.svg".into()), false).is_err());
    }
}
