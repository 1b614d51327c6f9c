//! Lifecycle deletion: documents that are meant to die, and the proof that their time has come.
//!
//! Agent work leaves plans, handoff notes, session logs and scratch folders behind. A
//! [`Rulebook`] says which paths are governed and what lifetime they have; [`evaluate`] turns the
//! rules and the tree into one [`Governed`] item per governed document (or directory), each
//! with its [`Status`], the [`Facts`] behind it and, when it has served (or a model may judge
//! that it has), the ready `delete` or `extract-then-delete` edit. [`sweep`] is `hygiene
//! sweep`: the same evaluation plus the live git state and the tier each edit would derive.
//! `docs/lifecycle.md` is the user-facing description of all of it.
//!
//! - [`rulebook`]: the format, the merge by rule id, and every validation.
//! - [`eval`]: matching, combining, dates and ranks, served paths, extraction spans.
//! - [`sweep`]: the sweep listing (JSON and human) and its tier derivation.
//! - [`walk`]: the tree walk as the scanner sees it (shareable with the scanner).

pub mod eval;
pub mod rulebook;
pub mod sweep;
pub mod walk;

pub use eval::{evaluate, evaluate_now, live_verdict, recheck, Mismatch};
pub use rulebook::{default_rulebook_json, Rulebook};

pub use sweep::{sweep, SweepItem, SweepReport};
pub use walk::walk_files;

use crate::report::{
    Category, EditKind, ExactEdit, ExtractionTarget, Lifecycle, StaleSubtype, Suggestion,
};
use crate::tier::{Evidence, GitState, LifecycleArg};
use serde::Serialize;

/// Where a governed item stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Status {
    /// The helper proved it has served (a served path exists, or it aged out).
    Served,
    /// A model must judge the rule's `served_when` question.
    NeedsJudgement,
    /// Its rule says it has not served yet.
    NotServed,
    /// A keep rule protects it from the rule that would otherwise govern it.
    Protected,
}

/// Where a temporary document's date came from, in order of precedence.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum DateSource {
    /// A `YYYY-MM-DD` in the file (or directory) name.
    Name,
    /// The last commit that changed it.
    Commit,
    /// The file system's modification time.
    Mtime,
}

/// Where a served path came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum PathSource {
    /// The document's own frontmatter line `served_when_path: <path>`.
    Frontmatter,
    /// The rule's `served_when_path` template.
    Rule,
}

/// The structured evidence behind a [`Governed`] item; absent means "does not apply".
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Facts {
    /// What kind of proof the item's service rests on (none for a protected item).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub evidence: Option<Evidence>,
    /// Temporary: the document's date (`YYYY-MM-DD`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub date: Option<String>,
    /// Temporary: where the date came from.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub date_source: Option<DateSource>,
    /// Temporary: 1 = newest of the rule's documents (ties broken by path).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rank: Option<u32>,
    /// Temporary: how many documents the rule governs.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub of: Option<u32>,
    /// Temporary: whole days between the date and now.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub age_days: Option<i64>,
    /// Temporary: the rule's `retain_recent`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub retain_recent: Option<u32>,
    /// Temporary: the rule's `max_age_days`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_age_days: Option<u32>,
    /// Delete-once-served: the resolved root-relative path whose existence proves service.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub served_when_path: Option<String>,
    /// Delete-once-served: whether that path exists now.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path_exists: Option<bool>,
    /// Delete-once-served: where the path came from.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path_source: Option<PathSource>,
    /// Delete-once-served: the question a model must judge.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub question: Option<String>,
    /// Protected: the keep rule that protects it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub protected_by: Option<String>,
    /// Protected: the rule it is protected from.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub overrides: Option<String>,
    /// Anything else worth knowing (an ignored frontmatter path, a missing extraction section).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
    /// Not served because its maintainers keep it as a record (its text says so, or the tool
    /// that wrote it does): no finished plan to ask about either.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub kept_record: bool,
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
    /// The report's lifecycle object (for a protected item: the keep rule).
    pub lifecycle: Lifecycle,
    /// The ready edit (`delete` or `extract-then-delete`, no sha) for a served document and for
    /// one a model must judge; `None` otherwise.
    pub suggestion: Option<ExactEdit>,
    /// Human-readable evidence (date and source, rank, served path and whether it exists).
    pub evidence: String,
    /// Where it stands; `served` is derived from it.
    pub status: Status,
    /// The structured evidence.
    pub facts: Facts,
}

impl Governed {
    /// The lifecycle argument for [`crate::tier::derive_safety_tier`] given the path's live git
    /// state; `None` when there is nothing to delete (not served, or protected).
    pub fn lifecycle_arg(&self, git: GitState) -> Option<LifecycleArg> {
        let edit = self.suggestion.as_ref()?;
        self.facts.evidence?;
        let satisfied = self.facts.evidence == Some(Evidence::ServedWhenPathSatisfied);
        crate::tier::lifecycle_arg(edit, git, |_| satisfied)
    }

    /// The suggestion as the scan's shortlist carries it (category and one-sentence op).
    pub fn proposal(&self) -> Option<Suggestion> {
        let edit = self.suggestion.clone()?;
        let subtype = match self.lifecycle.lifetime {
            crate::report::Lifetime::Temporary => StaleSubtype::Superseded,
            _ => StaleSubtype::CompletedInPlace,
        };
        let what = if self.is_dir { "directory" } else { "file" };
        let rule = &self.lifecycle.rule_ref;
        let op = match (edit.kind, &edit.anchor, edit.extraction_target) {
            (EditKind::ExtractThenDelete, Some(crate::report::Anchor::Lines(r)), target) => {
                let to = match (target, &edit.target_path) {
                    (Some(ExtractionTarget::RepoDurable), Some(t)) => t.clone(),
                    _ => "a file outside the repository named at apply time".to_string(),
                };
                format!(
                    "Append lines {}-{} to {to}, then delete the {what} {} (rule `{rule}`).",
                    r.start_line, r.end_line, self.path
                )
            }
            _ => format!("Delete the {what} {} (rule `{rule}`).", self.path),
        };
        Some(Suggestion {
            category: Category::Stale { subtype },
            op,
            exact_edit: edit,
        })
    }
}

/// What proves that the document behind a report's lifecycle object has served, read now: a
/// `served_when_path` is checked on disk, `served_when` is a model's judgement, a temporary
/// document's age is scanner-computed (re-run [`recheck`] to re-verify it). `None` for `keep`.
///
/// ```
/// use hygiene::report::{Lifecycle, Lifetime};
/// use hygiene::tier::Evidence;
/// let dir = tempfile::tempdir().unwrap();
/// let lc = Lifecycle { rule_ref: "plans".into(), lifetime: Lifetime::DeleteOnceServed,
///     served_when_path: Some("DONE".into()), served_when: None };
/// assert_eq!(hygiene::lifecycle::evidence_of(dir.path(), &lc), Some(Evidence::ServedWhenPathMissing));
/// std::fs::write(dir.path().join("DONE"), "").unwrap();
/// assert_eq!(hygiene::lifecycle::evidence_of(dir.path(), &lc), Some(Evidence::ServedWhenPathSatisfied));
/// ```
pub fn evidence_of(root: &std::path::Path, lc: &Lifecycle) -> Option<Evidence> {
    (lc.lifetime != crate::report::Lifetime::Keep)
        .then(|| crate::tier::evidence_of(lc, |p| eval::path_exists(root, p)))
}
