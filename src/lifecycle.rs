//! The lifecycle rulebook and its evaluation (stub: the lifecycle issue builds it).

use crate::git::{History, Repo};
use crate::report::{ExactEdit, Lifecycle};
use std::path::Path;

/// The merged rulebook: the shipped defaults overridden or extended by `.hygiene/rulebook.json`.
#[derive(Debug, Clone, Default)]
pub struct Rulebook {
    /// Extra or replacement scope globs from the repository's rulebook, if it sets them.
    pub scope_globs: Option<Vec<String>>,
    /// Extra excluded folder names from the repository's rulebook.
    pub excluded_dirs: Vec<String>,
}

impl Rulebook {
    /// Loads the defaults and `.hygiene/rulebook.json` under `root`.
    pub fn load(_root: &Path) -> crate::Result<Rulebook> {
        Ok(Rulebook::default())
    }
}

/// One governed document (or directory) and what its rule says about it.
#[derive(Debug, Clone)]
pub struct Governed {
    /// Root-relative path (a directory for a `dir` rule).
    pub path: String,
    /// True for a directory-rule aggregate.
    pub is_dir: bool,
    /// `Some(true)` served (scanner-proven), `Some(false)` kept, `None` needs a model's judgement.
    pub served: Option<bool>,
    /// The report's lifecycle object.
    pub lifecycle: Lifecycle,
    /// The ready edit for a served document (`delete` or `extract-then-delete`), no sha.
    pub suggestion: Option<ExactEdit>,
    /// Human-readable evidence (date and source, rank, served path and whether it exists).
    pub evidence: String,
}

/// Evaluates every rule against the tree. `files` are the root-relative paths of all files the
/// walk saw (documents or not); `now` is Unix seconds.
pub fn evaluate(
    _root: &Path,
    _rulebook: &Rulebook,
    _files: &[String],
    _repo: Option<&Repo>,
    _history: Option<&History>,
    _now: i64,
) -> Vec<Governed> {
    Vec::new()
}
