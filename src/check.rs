//! `hygiene check --accept-suggestions`: the model-free check for CI and pre-commit.
//!
//! It scans, turns every scanner suggestion into a draft ([`accept_suggestions`]) and finalizes
//! them ([`check`]), so the report holds only what the scanner proved and computed itself. It
//! **never makes a generative entry**: a suggestion is always an exact edit, so every entry is
//! deterministic, and its tier comes from the same [`crate::tier::derive_safety_tier`] as in the
//! chat flow. Only scanner-proven, deterministic, reversible edits (a renamed path, a duplicate
//! block, a served document whose evidence the helper re-checks) can derive `auto`; one on a
//! dirty or untracked file becomes a `confirm` entry, which `--apply` leaves alone. A
//! suggestion that waits on a question only a model can answer (a plan's `served_when`) becomes
//! no entry at all: nobody answered it. Everything the model would judge (bloat,
//! contradictions, rewrites) is the model-driven `/hygiene:check`'s business, not this one's.
//!
//! With `apply`, it then runs exactly what `hygiene apply --tier auto` runs
//! ([`crate::apply::apply`] with [`crate::apply::Selection::Auto`]), behind the same guards.
//! Finalize rejecting a scanner suggestion is a scanner bug: nothing is written and the errors
//! are returned ([`CheckOutcome::Rejected`]).

use crate::apply::{ApplyReport, ApplyRequest, Failure, Selection};
use crate::error::Result;
use crate::finalize::{DraftEntry, DraftError, DraftFile};
use crate::report::{Anchor, EditKind, Report, ScanResult, ShortlistItem, Signal, Suggestion};
use crate::scan::ScanOptions;
use std::path::PathBuf;

/// The signals of `item` that support `s`: the one the suggestion was computed from when it can
/// be told (same line or span), else all of the item's signals.
pub fn supporting_signals(item: &ShortlistItem, s: &Suggestion) -> Vec<Signal> {
    let picked = computed_from(item, s);
    if picked.is_empty() {
        item.signals.clone()
    } else {
        picked
    }
}

/// The signals of `item` that `s` was computed from (same line or span, or the lifecycle
/// signal of a lifecycle edit); empty when none can be told.
pub fn computed_from(item: &ShortlistItem, s: &Suggestion) -> Vec<Signal> {
    let e = &s.exact_edit;
    let lines = match e.anchor {
        Some(Anchor::Lines(r)) => Some((r.start_line, r.end_line)),
        _ => None,
    };
    item.signals
        .iter()
        .filter(|sig| match (e.kind, sig) {
            (EditKind::ReplaceText, Signal::MissingPath { line, .. }) => {
                lines.is_some_and(|(a, b)| (a..=b).contains(line))
            }
            (
                EditKind::Dedupe,
                Signal::DuplicateBlock {
                    start_line,
                    end_line,
                    canonical_ref,
                },
            ) => {
                lines == Some((*start_line, *end_line))
                    && e.canonical_ref.as_deref() == Some(canonical_ref.as_str())
            }
            (EditKind::Delete | EditKind::ExtractThenDelete, Signal::Lifecycle {}) => true,
            _ => false,
        })
        .cloned()
        .collect()
}

/// One draft per suggestion of every shortlisted item under `paths` (all items when empty).
///
/// ```
/// use hygiene::report::*;
/// let scan: ScanResult = serde_json::from_value(serde_json::json!({
///   "schema_version": 1, "tool_version": "0", "generated_at": "2026-11-29T16:00:00Z",
///   "scan": {"project_root": "/r", "scope_globs": [], "excluded_dirs": [], "files_scanned": 1},
///   "shortlist": [{"path": "CLAUDE.md", "raw_tokens": 9, "injection_frequency": "per-session",
///     "signals": [{"kind": "missing-path", "line": 2, "ref": "a.rs", "via": "code", "renamed_to": "b.rs"}],
///     "suggestions": [{"category": {"class": "stale", "subtype": "orphaned"}, "op": "Fix it.",
///       "exact_edit": {"kind": "replace-text", "anchor": {"start_line": 2, "end_line": 2},
///                      "match": "a.rs", "replacement": "b.rs"}}]}]})).unwrap();
/// let drafts = hygiene::check::accept_suggestions(&scan, &[]);
/// assert_eq!(drafts.entries.len(), 1);
/// assert_eq!(drafts.entries[0].op_type, OpType::Deterministic);
/// ```
pub fn accept_suggestions(scan: &ScanResult, paths: &[String]) -> DraftFile {
    let under = |p: &str| {
        paths.is_empty()
            || paths.iter().any(|q| {
                let q = q.trim_end_matches('/');
                q == "." || p == q || p.starts_with(&format!("{q}/"))
            })
    };
    let entries = scan
        .shortlist
        .iter()
        .filter(|i| under(&i.path))
        .flat_map(item_drafts)
        .collect();
    DraftFile { entries }
}

/// Whether `item` waits on a question only a model can answer (a lifecycle `served_when`).
pub fn asks_a_question(item: &ShortlistItem) -> bool {
    item.lifecycle
        .as_ref()
        .is_some_and(|lc| lc.served_when.is_some())
}

/// The drafts the scanner's own facts settle for one item: one per suggestion, none for an item
/// that waits on a `served_when` question.
pub fn item_drafts(item: &ShortlistItem) -> Vec<DraftEntry> {
    // A lifecycle suggestion that waits on a `served_when` question is conditional on a
    // judgement nobody made here: it is not a scanner fact, so it never becomes an entry.
    if asks_a_question(item) {
        return Vec::new();
    }
    item.suggestions
        .iter()
        .map(|s| DraftEntry {
            path: item.path.clone(),
            category: s.category,
            signals: supporting_signals(item, s),
            op: s.op.clone(),
            op_type: crate::report::OpType::Deterministic,
            exact_edit: Some(s.exact_edit.clone()),
            lifecycle: item.lifecycle.clone(),
            is_destructive: None,
            is_reversible: None,
        })
        .collect()
}

/// The name finalize errors give for the drafts `check` makes (there is no drafts file).
pub const DRAFTS_NAME: &str = "scanner suggestions";

/// What `hygiene check --accept-suggestions` is asked to do.
#[derive(Debug, Clone)]
pub struct CheckRequest {
    /// The scan to run (root, PATH filters, scope, exclusions, progress counters).
    pub scan: ScanOptions,
    /// Also apply every `auto` entry, as `hygiene apply --tier auto` does.
    pub apply: bool,
}

/// A completed check.
#[derive(Debug)]
pub struct CheckRun {
    /// Where the scan was written (`.hygiene/scan.json`).
    pub scan_path: PathBuf,
    /// Where the report was written (`.hygiene/report.json`).
    pub report_path: PathBuf,
    /// The report.
    pub report: Report,
    /// With `apply`: the batch's result, or why the whole batch was refused.
    pub applied: Option<Result<ApplyReport, String>>,
}

/// What a check came to.
#[derive(Debug)]
pub enum CheckOutcome {
    /// The report was written (and, when asked, applied).
    Done(Box<CheckRun>),
    /// Finalize rejected scanner suggestions: a scanner bug. Nothing was written.
    Rejected(Vec<DraftError>),
}

fn pretty<T: serde::Serialize>(v: &T) -> String {
    let mut s = serde_json::to_string_pretty(v).expect("report types always serialize");
    s.push('\n');
    s
}

/// Runs the model-free check: scan, accept every suggestion, finalize, write
/// `.hygiene/scan.json` and `.hygiene/report.json`, and with `apply` apply the `auto` entries.
/// Fails (usage/I/O) only when the scan or a write cannot run.
pub fn check(req: &CheckRequest) -> Result<CheckOutcome> {
    let scan = crate::scan::scan(&req.scan)?;
    let root = PathBuf::from(&scan.scan.project_root);
    // The scan already holds only documents under the PATH filters.
    let drafts = accept_suggestions(&scan, &[]);
    let report = match crate::finalize::finalize(&root, &scan, &[(DRAFTS_NAME.into(), Ok(drafts))])
    {
        Ok(r) => r,
        Err(errors) => return Ok(CheckOutcome::Rejected(errors)),
    };
    let scan_path = crate::state::write(&root, "scan.json", pretty(&scan).as_bytes())?;
    let report_path = crate::state::path(&root, "report.json", true)?;
    crate::finalize::write_report(&root, &report_path, &report)?;
    let applied = if req.apply {
        let ar = ApplyRequest {
            root: root.clone(),
            report: report_path.clone(),
            selection: Selection::Auto,
            approvals: Vec::new(),
            proposal: None,
            extract_to: None,
            dry_run: false,
        };
        match crate::apply::apply(&ar) {
            Ok(r) => Some(Ok(r)),
            Err(Failure::Refused(why)) => Some(Err(why)),
            Err(Failure::Error(e)) => return Err(e),
        }
    } else {
        None
    };
    Ok(CheckOutcome::Done(Box::new(CheckRun {
        scan_path,
        report_path,
        report,
        applied,
    })))
}
