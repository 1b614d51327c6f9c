//! The tree walk, as the scanner sees it.
//!
//! Lifecycle rules must govern exactly the files the scanner would list, or `hygiene sweep`
//! and the scan's shortlist would disagree. This is one small function the scanner can share:
//! ripgrep's `ignore` walker honouring `.gitignore`, descending into hidden folders (`.claude/`
//! holds handoffs), never into `.git` or an excluded folder name, never following a symlink.

use ignore::WalkBuilder;
use std::path::Path;

/// Folder names never descended into, whatever the rulebook says.
pub const DEFAULT_EXCLUDED_DIRS: [&str; 5] =
    [".git", "node_modules", "target", "vendor", ".hygiene"];

/// Root-relative `/`-separated paths of every regular file under `root`, sorted, plus warnings
/// for what could not be walked. `excluded` adds folder names (matched at any depth) to
/// [`DEFAULT_EXCLUDED_DIRS`].
pub fn walk_files(root: &Path, excluded: &[String]) -> (Vec<String>, Vec<String>) {
    let excluded: Vec<String> = DEFAULT_EXCLUDED_DIRS
        .iter()
        .map(|s| s.to_string())
        .chain(excluded.iter().cloned())
        .collect();
    let mut files = Vec::new();
    let mut warnings = Vec::new();
    let walker = WalkBuilder::new(root)
        .hidden(false)
        .follow_links(false)
        .filter_entry(move |e| {
            let is_dir = e.file_type().is_some_and(|t| t.is_dir());
            !(is_dir && e.depth() > 0 && excluded.iter().any(|x| e.file_name() == x.as_str()))
        })
        .build();
    for entry in walker {
        match entry {
            Ok(e) if e.file_type().is_some_and(|t| t.is_file()) => {
                if let Some(rel) = crate::paths::to_rel(root, e.path()) {
                    files.push(rel);
                }
            }
            Ok(_) => {}
            Err(err) => warnings.push(format!("walk: {err}")),
        }
    }
    files.sort();
    (files, warnings)
}
