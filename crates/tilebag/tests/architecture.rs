//! The workspace's shape, as ARCHITECTURE.md states it: inside every crate, files import each
//! other one way only, as the crates do (Cargo already refuses a circle between crates). A reader
//! following one file's imports never comes back to where they started.
//!
//! A crate's top-level modules are its files `src/X.rs` and folders `src/X/`; module `A` imports
//! `B` when any file of `A` names `crate::B` (in a `use`, a `crate::{B, ...}` group or a path
//! anywhere in the code). A circle among them fails the test, naming its modules.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Every `.rs` file under `dir`.
fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// The top-level module a file of `src` belongs to (`live` for `src/live.rs`, `pages` for
/// `src/pages/td.rs`), or `None` for the crate root.
fn module_of(src: &Path, file: &Path) -> Option<String> {
    let rel = file.strip_prefix(src).ok()?;
    let first = rel.components().next()?.as_os_str().to_str()?;
    let name = first.strip_suffix(".rs").unwrap_or(first);
    (!matches!(name, "lib" | "main")).then(|| name.to_string())
}

fn ident_at(s: &str) -> &str {
    let end = s
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(s.len());
    &s[..end]
}

/// The first path segment of every item `crate::` names in `text`.
fn crate_paths(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for (i, _) in text.match_indices("crate::") {
        // `tilebag_crate::` or `$crate::` are not this crate.
        let before = text[..i].chars().next_back();
        if before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$') {
            continue;
        }
        let rest = &text[i + "crate::".len()..];
        if let Some(group) = rest.strip_prefix('{') {
            // `crate::{a::X, b, c::{..}}`: the first segment of each top-level item.
            let mut depth = 0usize;
            let mut at_item = true;
            for (j, c) in group.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' if depth == 0 => break,
                    '}' => depth -= 1,
                    ',' if depth == 0 => at_item = true,
                    c if c.is_whitespace() => {}
                    _ if at_item && depth == 0 => {
                        out.push(ident_at(&group[j..]).to_string());
                        at_item = false;
                    }
                    _ => {}
                }
            }
        } else {
            out.push(ident_at(rest).to_string());
        }
    }
    out
}

/// `text` without its comments (a doc link to `crate::x` is not an import).
fn code_only(text: &str) -> String {
    text.lines()
        .map(|l| l.split("//").next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Each top-level module's imports of the crate's other top-level modules.
fn import_graph(src: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    let modules: BTreeSet<String> = files.iter().filter_map(|f| module_of(src, f)).collect();
    let mut graph: BTreeMap<String, BTreeSet<String>> = modules
        .iter()
        .map(|m| (m.clone(), BTreeSet::new()))
        .collect();
    for f in &files {
        let Some(m) = module_of(src, f) else {
            continue;
        };
        let text = std::fs::read_to_string(f).expect("read a source file");
        for dep in crate_paths(&code_only(&text)) {
            if dep != m && modules.contains(&dep) {
                graph.get_mut(&m).expect("known module").insert(dep);
            }
        }
    }
    graph
}

/// A circle in `graph`, if there is one (depth-first search with colours).
fn find_circle(graph: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    fn visit(
        m: &str,
        graph: &BTreeMap<String, BTreeSet<String>>,
        state: &mut BTreeMap<String, u8>,
        path: &mut Vec<String>,
    ) -> Option<Vec<String>> {
        state.insert(m.to_string(), 1);
        path.push(m.to_string());
        for d in &graph[m] {
            match state.get(d.as_str()).copied().unwrap_or(0) {
                1 => {
                    let start = path.iter().position(|p| p == d).expect("on the path");
                    let mut circle = path[start..].to_vec();
                    circle.push(d.clone());
                    return Some(circle);
                }
                0 => {
                    if let Some(c) = visit(d, graph, state, path) {
                        return Some(c);
                    }
                }
                _ => {}
            }
        }
        path.pop();
        state.insert(m.to_string(), 2);
        None
    }
    let mut state = BTreeMap::new();
    for m in graph.keys() {
        if state.get(m.as_str()).copied().unwrap_or(0) == 0 {
            if let Some(c) = visit(m, graph, &mut state, &mut Vec::new()) {
                return Some(c);
            }
        }
    }
    None
}

fn crates_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("crates/")
        .to_path_buf()
}

#[test]
fn the_import_reader_sees_every_form_of_a_crate_path() {
    let text = "use crate::live::Hub;\nuse crate::{view::{A, B}, meta, ids::token};\n\
                let x = crate::bot::choose(); tilebag_crate::no; $crate::no";
    assert_eq!(
        crate_paths(text),
        ["live", "view", "meta", "ids", "bot"].map(String::from)
    );
    let documented =
        "//! Told by [`crate::replay`].\nuse crate::board::Board; // not crate::game\n";
    assert_eq!(
        crate_paths(&code_only(documented)),
        ["board"].map(String::from)
    );
}

#[test]
fn a_circle_between_files_is_found_and_named() {
    let g: BTreeMap<String, BTreeSet<String>> = [
        ("a", vec!["b"]),
        ("b", vec!["c"]),
        ("c", vec!["a"]),
        ("d", vec![]),
    ]
    .into_iter()
    .map(|(m, ds)| (m.to_string(), ds.into_iter().map(String::from).collect()))
    .collect();
    assert_eq!(
        find_circle(&g),
        Some(["a", "b", "c", "a"].map(String::from).to_vec())
    );
    let mut one_way = g.clone();
    one_way.get_mut("c").unwrap().clear();
    assert_eq!(find_circle(&one_way), None);
}

#[test]
fn no_crate_has_files_that_import_each_other_in_a_circle() {
    let mut crates: Vec<PathBuf> = std::fs::read_dir(crates_dir())
        .expect("read crates/")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.join("Cargo.toml").exists())
        .collect();
    crates.sort();
    assert!(
        crates.len() >= 10,
        "expected the workspace's crates, found {crates:?}"
    );
    let mut circles = Vec::new();
    for c in &crates {
        let graph = import_graph(&c.join("src"));
        if let Some(circle) = find_circle(&graph) {
            circles.push(format!(
                "{}: {}",
                c.file_name().unwrap().to_string_lossy(),
                circle.join(" → ")
            ));
        }
    }
    assert!(
        circles.is_empty(),
        "files that import each other in a circle:\n{}",
        circles.join("\n")
    );
}
