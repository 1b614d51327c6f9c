//! The tree walk, as the scanner sees it.
//!
//! Lifecycle rules must govern exactly the files the scanner would list, or `hygiene sweep`
//! and the scan's shortlist would disagree, so this is the scanner's own walk
//! ([`crate::scan::walk::walk`]) with the scanner's excluded folders, keeping every file.

use std::path::Path;

/// Root-relative `/`-separated paths of every file under `root` the scanner's walk sees, sorted,
/// plus warnings for what could not be walked. `excluded` adds folder names (matched at any
/// depth) to [`crate::scan::DEFAULT_EXCLUDED`].
pub fn walk_files(root: &Path, excluded: &[String]) -> (Vec<String>, Vec<String>) {
    let excluded: Vec<String> = crate::scan::DEFAULT_EXCLUDED
        .iter()
        .map(|s| s.to_string())
        .chain(excluded.iter().cloned())
        .collect();
    let walked = crate::scan::walk::walk(root, &globset::GlobSet::empty(), &excluded);
    // Another repository's files are governed by that repository, not this one.
    let mut files: Vec<String> = walked
        .tree
        .files
        .iter()
        .filter(|f| !walked.in_nested(f))
        .cloned()
        .collect();
    files.sort();
    (files, walked.warnings)
}
