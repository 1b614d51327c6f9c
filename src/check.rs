//! `hygiene check --accept-suggestions`: the model-free check for CI and pre-commit.
//!
//! It turns every scanner suggestion into a draft and finalizes them, so the report holds only
//! what the scanner proved and computed itself: only deterministic entries, never a generative
//! one, and their tiers come from the same [`crate::tier::derive_safety_tier`] as always.

use crate::finalize::{DraftEntry, DraftFile};
use crate::report::{Anchor, EditKind, ScanResult, ShortlistItem, Signal, Suggestion};

/// The signals of `item` that support `s`: the one the suggestion was computed from when it can
/// be told (same line or span), else all of the item's signals.
pub fn supporting_signals(item: &ShortlistItem, s: &Suggestion) -> Vec<Signal> {
    let e = &s.exact_edit;
    let lines = match e.anchor {
        Some(Anchor::Lines(r)) => Some((r.start_line, r.end_line)),
        _ => None,
    };
    let picked: Vec<Signal> = item
        .signals
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
        .collect();
    if picked.is_empty() {
        item.signals.clone()
    } else {
        picked
    }
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
    let mut entries = Vec::new();
    for item in scan.shortlist.iter().filter(|i| under(&i.path)) {
        for s in &item.suggestions {
            entries.push(DraftEntry {
                path: item.path.clone(),
                category: s.category,
                signals: supporting_signals(item, s),
                op: s.op.clone(),
                op_type: crate::report::OpType::Deterministic,
                exact_edit: Some(s.exact_edit.clone()),
                lifecycle: item.lifecycle.clone(),
                is_destructive: None,
                is_reversible: None,
            });
        }
    }
    DraftFile { entries }
}
