//! The layer rules of ARCHITECTURE.md, checked on the source text: the
//! syntax knows nothing of grounding, translation or solving; grounding
//! nothing of translation or solving; translation never calls the solver;
//! no stage knows the command line or the regression runner; only
//! `src/cli/`, `src/main.rs` and `src/regress/` (which runs cases as child
//! processes over folders of files) do I/O. Test code (`#[cfg(test)]` items and the files they declare) may
//! cross the layers: it checks one stage with the help of another.

use std::path::{Path, PathBuf};

/// Each stage (a folder of `src/`, or a file of it) and the modules of the
/// crate it must not name.
const LAYERS: &[(&str, &[&str])] = &[
    (
        "syntax",
        &["ground", "translate", "solve", "cli", "regress"],
    ),
    ("ground", &["translate", "solve", "cli", "regress"]),
    ("translate", &["solve", "cli", "regress"]),
    ("solve", &["cli", "regress"]),
];

/// What counts as I/O: files, the standard streams and exiting.
const IO: &[&str] = &[
    "std::fs",
    "fs::",
    "File::",
    "println!",
    "eprintln!",
    "print!",
    "eprint!",
    "io::stdout",
    "io::stderr",
    "io::stdin",
    "process::exit",
];

/// Where I/O is allowed: the command line, and `asp2sat test`'s runner,
/// whose work is reading case folders and running child processes.
const IO_ALLOWED: &[&str] = &["cli", "main.rs", "regress"];

/// Files that break a rule on purpose, each with the reason (none now;
/// a new one is listed here, where a reviewer sees it).
const EXCEPTIONS: &[(&str, &str)] = &[];

#[test]
fn stages_import_only_the_stages_before_them() {
    let mut violations = Vec::new();
    for file in product_sources() {
        let relative = relative(&file);
        let Some((_, forbidden)) = LAYERS.iter().find(|(layer, _)| in_layer(&relative, layer))
        else {
            continue;
        };
        let text = product_text(&std::fs::read_to_string(&file).expect("readable source"));
        for module in *forbidden {
            if names_module(&text, module) && !excepted(&relative) {
                violations.push(format!("{relative} names crate::{module}"));
            }
        }
    }
    assert!(
        violations.is_empty(),
        "layer rules broken:\n{}",
        violations.join("\n")
    );
}

#[test]
fn only_the_command_line_does_io() {
    let mut violations = Vec::new();
    for file in product_sources() {
        let relative = relative(&file);
        if IO_ALLOWED
            .iter()
            .any(|allowed| in_layer(&relative, allowed))
            || excepted(&relative)
        {
            continue;
        }
        let text = product_text(&std::fs::read_to_string(&file).expect("readable source"));
        for io in does_io(&text) {
            violations.push(format!("{relative} does I/O: {io}"));
        }
    }
    assert!(
        violations.is_empty(),
        "I/O outside src/cli, src/main.rs and src/regress:\n{}",
        violations.join("\n")
    );
}

/// The checks find what they look for: a test that cannot fail is no test.
#[test]
fn the_checks_see_violations() {
    assert!(names_module("use crate::solve::Enumerator;", "solve"));
    assert!(names_module(
        "use crate::{diagnostics::Span, ground};",
        "ground"
    ));
    assert!(names_module(
        "let x = crate::translate::translate(p, s);",
        "translate"
    ));
    assert!(!names_module("use crate::solver_free::x;", "solve"));
    let comment = product_text("// crate::solve is not named in a comment\n");
    assert!(!names_module(&comment, "solve"));
    assert!(does_io("fn f() { println!(\"x\"); }").contains(&"println!"));
    assert!(does_io("let t = std::fs::read(p);").contains(&"std::fs"));
    assert!(does_io("let t = format!(\"{x}\");").is_empty());
    let text = "use a;\n#[cfg(test)]\nmod tests {\n    use crate::solve::X;\n}\nfn f() {}\n";
    assert_eq!(product_text(text), "use a;\nfn f() {}\n");
    let text = "#[cfg(test)]\nuse crate::solve::X;\nfn f() {}\n";
    assert_eq!(product_text(text), "fn f() {}\n");
    assert!(in_layer("syntax/parser/mod.rs", "syntax"));
    assert!(!in_layer("syntax_extra.rs", "syntax"));
    assert!(in_layer("solve.rs", "solve"));
}

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

fn relative(file: &Path) -> String {
    let relative = file.strip_prefix(src()).expect("a file under src/");
    relative.to_string_lossy().replace('\\', "/")
}

/// Whether `relative` (a path under `src/`) belongs to `layer`: the
/// folder `src/layer/`, the file `src/layer.rs`, or the file `layer`.
fn in_layer(relative: &str, layer: &str) -> bool {
    relative == layer
        || relative == format!("{layer}.rs")
        || relative.starts_with(&format!("{layer}/"))
}

fn excepted(relative: &str) -> bool {
    EXCEPTIONS.iter().any(|(file, _)| *file == relative)
}

/// The `.rs` files under `src/`, without the files only tests compile
/// (declared under `#[cfg(test)]`).
fn product_sources() -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut pending = vec![src()];
    while let Some(dir) = pending.pop() {
        for entry in std::fs::read_dir(&dir).expect("readable folder") {
            let path = entry.expect("a folder entry").path();
            if path.is_dir() {
                pending.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                files.push(path);
            }
        }
    }
    let test_only: Vec<PathBuf> = files.iter().flat_map(|f| test_modules(f)).collect();
    files.retain(|f| !test_only.iter().any(|t| f == t || f.starts_with(t)));
    files.sort();
    assert!(files.len() > 20, "the sources were not found");
    files
}

/// The files and folders of the modules `file` declares under
/// `#[cfg(test)]` (`mod tests;`).
fn test_modules(file: &Path) -> Vec<PathBuf> {
    let text = std::fs::read_to_string(file).expect("readable source");
    let stem = file.file_stem().expect("a file name").to_string_lossy();
    let dir = file.parent().expect("a folder");
    let base = match &*stem {
        "mod" | "lib" | "main" => dir.to_path_buf(),
        _ => dir.join(&*stem),
    };
    let lines: Vec<&str> = text.lines().map(str::trim).collect();
    let mut modules = Vec::new();
    for pair in lines.windows(2) {
        if pair[0] != "#[cfg(test)]" {
            continue;
        }
        let declared = pair[1]
            .trim_start_matches("pub(crate) ")
            .trim_start_matches("pub ")
            .strip_prefix("mod ")
            .and_then(|rest| rest.strip_suffix(';'));
        if let Some(name) = declared {
            modules.push(base.join(format!("{name}.rs")));
            modules.push(base.join(name));
        }
    }
    modules
}

/// The text of a source file that the product compiles: without comments
/// and without the items under `#[cfg(test)]` (a line, or a block to its
/// closing brace at the same indentation).
fn product_text(text: &str) -> String {
    let mut out = String::new();
    let mut lines = text.lines();
    while let Some(line) = lines.next() {
        if line.trim() == "#[cfg(test)]" {
            let Some(item) = lines.next() else { break };
            if item.trim_end().ends_with('{') {
                let indent = &item[..item.len() - item.trim_start().len()];
                let close = format!("{indent}}}");
                for inner in lines.by_ref() {
                    if inner.trim_end() == close {
                        break;
                    }
                }
            }
            continue;
        }
        let code = line.split("//").next().unwrap_or_default();
        out.push_str(code);
        out.push('\n');
    }
    out
}

/// Whether `text` names the crate's module `module`: a path `crate::module`
/// or a `use crate::{..}` group listing it.
fn names_module(text: &str, module: &str) -> bool {
    let follows = |rest: &str| !rest.starts_with(|c: char| c.is_alphanumeric() || c == '_');
    let path = format!("crate::{module}");
    if (text.match_indices(&path)).any(|(at, _)| follows(&text[at + path.len()..])) {
        return true;
    }
    text.match_indices("use crate::{").any(|(at, _)| {
        let group = &text[at..];
        let group = &group[..group.find(';').unwrap_or(group.len())];
        group
            .split(|c: char| !(c.is_alphanumeric() || c == '_'))
            .any(|word| word == module)
    })
}

/// The kinds of I/O `text` does.
fn does_io(text: &str) -> Vec<&'static str> {
    let starts_word = |at: usize| {
        !text[..at].ends_with(|c: char| c.is_alphanumeric() || c == '_' || c == ':')
            || text[..at].ends_with("::")
    };
    (IO.iter().copied())
        .filter(|io| text.match_indices(io).any(|(at, _)| starts_word(at)))
        .collect()
}
