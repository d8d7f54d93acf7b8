//! Folders of cases: a program directory holds its files, a `cases` file
//! (one case a line: its name, then the arguments, then optionally `|` and
//! the reference clingo's own; `#` starts a comment)
//! and `expected/` with each case's recorded answer (see `fixtures/corpus/`
//! and `docs/regression.md`).

use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// One line of a program directory's `cases` file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Case {
    /// The program directory: the case runs there.
    pub dir: PathBuf,
    /// The directory as named in reports: its path below the folder given.
    pub group: String,
    pub name: String,
    pub args: Vec<String>,
    /// The arguments the reference clingo runs with instead, after `|` in
    /// the case's line: the same model written in clingo's language, where
    /// the case's own files are in a dialect clingo cannot read.
    pub reference_args: Option<Vec<String>>,
    /// The clingo whose answers `expected/` holds: the directory's `CLINGO`
    /// file (`5.8`), else 5.4.
    pub clingo: String,
}

impl Case {
    /// `group/name`, the case's name in reports and for `-k`.
    pub fn label(&self) -> String {
        format!("{}/{}", self.group, self.name)
    }

    /// `expected/<name>.<extension>` in the program directory.
    pub fn expected_path(&self, extension: &str) -> PathBuf {
        self.dir
            .join("expected")
            .join(format!("{}.{extension}", self.name))
    }

    /// Whether the case asks for projected answer sets (`--project`).
    pub fn projects(&self) -> bool {
        self.args.iter().any(|arg| arg.starts_with("--project"))
    }
}

/// The file naming the cases of a program directory.
pub const CASES_FILE: &str = "cases";

/// The cases below each path: a program directory (one with a `cases`
/// file), or a folder searched for program directories at any depth. The
/// directories are taken in name order, the cases in their file's order.
pub fn discover(paths: &[PathBuf]) -> Result<Vec<Case>, String> {
    let mut cases = Vec::new();
    for path in paths {
        if !path.is_dir() {
            return Err(format!("{}: no such directory", path.display()));
        }
        let mut dirs = Vec::new();
        program_dirs(path, &mut dirs)?;
        if dirs.is_empty() {
            return Err(format!(
                "{}: no program directory (one with a `{CASES_FILE}` file) below it",
                path.display()
            ));
        }
        for dir in dirs {
            let group = group_name(&dir, path);
            cases.extend(read_cases(&dir, &group)?);
        }
    }
    Ok(cases)
}

/// The name of a program directory in reports: its path below `root`, or
/// its own name when it is `root`.
fn group_name(dir: &Path, root: &Path) -> String {
    match dir.strip_prefix(root) {
        Ok(below) if !below.as_os_str().is_empty() => below.to_string_lossy().into_owned(),
        // `root` itself, also when given as `.`.
        _ => std::path::absolute(dir)
            .ok()
            .and_then(|dir| {
                dir.file_name()
                    .map(|name| name.to_string_lossy().into_owned())
            })
            .unwrap_or_else(|| dir.to_string_lossy().into_owned()),
    }
}

fn program_dirs(path: &Path, found: &mut Vec<PathBuf>) -> Result<(), String> {
    if path.join(CASES_FILE).is_file() {
        found.push(path.to_path_buf());
        return Ok(());
    }
    let entries = std::fs::read_dir(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut dirs: Vec<PathBuf> = entries
        .filter_map(|entry| entry.ok().map(|entry| entry.path()))
        .filter(|path| path.is_dir())
        .collect();
    dirs.sort();
    for dir in dirs {
        program_dirs(&dir, found)?;
    }
    Ok(())
}

/// The cases of one program directory.
pub fn read_cases(dir: &Path, group: &str) -> Result<Vec<Case>, String> {
    let file = dir.join(CASES_FILE);
    let text = std::fs::read_to_string(&file).map_err(|e| format!("{}: {e}", file.display()))?;
    let clingo = match std::fs::read_to_string(dir.join("CLINGO")) {
        Ok(version) => version.trim().to_string(),
        Err(_) => "5.4".to_string(),
    };
    let mut cases: Vec<Case> = Vec::new();
    for (number, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or_default();
        let (line, reference) = match line.split_once('|') {
            Some((own, reference)) => (own, Some(reference)),
            None => (line, None),
        };
        let mut words = line.split_whitespace().map(str::to_string);
        let Some(name) = words.next() else { continue };
        let args: Vec<String> = words.collect();
        let at = format!("{}:{}", file.display(), number + 1);
        let reference_args = reference.map(|r| r.split_whitespace().map(str::to_string).collect());
        if args.is_empty() || reference_args.as_ref().is_some_and(Vec::is_empty) {
            return Err(format!("{at}: case {name} has no arguments"));
        }
        if cases.iter().any(|case| case.name == name) {
            return Err(format!("{at}: case {name} is named twice"));
        }
        cases.push(Case {
            dir: dir.to_path_buf(),
            group: group.to_string(),
            name,
            args,
            reference_args,
            clingo: clingo.clone(),
        });
    }
    Ok(cases)
}

/// The cases whose label contains one of `patterns` (all without any).
pub fn select(cases: Vec<Case>, patterns: &[String]) -> Vec<Case> {
    if patterns.is_empty() {
        return cases;
    }
    cases
        .into_iter()
        .filter(|case| {
            let label = case.label();
            patterns
                .iter()
                .any(|pattern| label.contains(pattern.as_str()))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn folder(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("asp2sat-cases-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("b/inner")).unwrap();
        std::fs::create_dir_all(dir.join("a")).unwrap();
        std::fs::write(
            dir.join("a/cases"),
            "one  p.lp -c n=2  # a comment\n\n# only\n",
        )
        .unwrap();
        std::fs::write(
            dir.join("b/inner/cases"),
            "two q.lp\nthree q.lp r.lp | q.lp4 r.lp\n",
        )
        .unwrap();
        std::fs::write(dir.join("b/inner/CLINGO"), "5.8\n").unwrap();
        dir
    }

    #[test]
    fn folders_are_searched_in_name_order() {
        let dir = folder("order");
        let cases = discover(std::slice::from_ref(&dir)).unwrap();
        let labels: Vec<String> = cases.iter().map(Case::label).collect();
        assert_eq!(labels, ["a/one", "b/inner/two", "b/inner/three"]);
        assert_eq!(cases[0].args, ["p.lp", "-c", "n=2"]);
        assert_eq!(cases[0].reference_args, None);
        assert_eq!(cases[2].args, ["q.lp", "r.lp"]);
        assert_eq!(
            cases[2].reference_args.as_deref(),
            Some(&["q.lp4".to_string(), "r.lp".to_string()][..])
        );
        assert_eq!(
            (cases[0].clingo.as_str(), cases[1].clingo.as_str()),
            ("5.4", "5.8")
        );
        let alone = discover(&[dir.join("a")]).unwrap();
        assert_eq!(alone[0].label(), "a/one");
        let here = std::env::current_dir().unwrap();
        let own_name = here.file_name().unwrap().to_string_lossy();
        assert_eq!(group_name(Path::new("."), Path::new(".")), own_name);
        let chosen = select(cases, &["inner/t".to_string()]);
        assert_eq!(chosen.len(), 2);
    }

    #[test]
    fn a_case_without_arguments_is_located() {
        let dir = folder("bad");
        std::fs::write(dir.join("a/cases"), "one p.lp\nlonely\n").unwrap();
        let error = discover(&[dir.join("a")]).unwrap_err();
        assert!(
            error.ends_with("a/cases:2: case lonely has no arguments"),
            "{error}"
        );
        let missing = discover(&[dir.join("nothing")]).unwrap_err();
        assert!(missing.contains("no such directory"), "{missing}");
    }
}
