//! `.hygiene/judged.json`: what the model judged in earlier runs, so a run hands it only what
//! nobody judged yet, and the report keeps the earlier judgements.
//!
//! An item counts as judged once the report finalized from its run exists: the next triage reads
//! the previous `.hygiene/bill.json` and `.hygiene/report.json`, and when both belong to the same
//! scan, every item the bill handed is judged, with the report's entries for its path (minus the
//! ones the helper settled) as its drafts, none when the model cleared it. The key
//! ([`super::item_key`]) holds the item's signals and its file's bytes, so an edit or a new
//! signal makes it a new item. Unreadable state is a warning and a fresh start, never an error.

use crate::finalize::DraftEntry;
use crate::report::{Entry, OpType, Report};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashMap};
use std::path::Path;

/// The file, under `.hygiene/`.
pub const FILE: &str = "judged.json";

/// The format of the file.
pub const LEDGER_SCHEMA: u32 = 1;

/// One judged item.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Judged {
    /// Its path.
    pub path: String,
    /// The `generated_at` of the scan it was judged on.
    pub judged_at: String,
    /// The model's drafts for it (empty: cleared).
    pub drafts: Vec<DraftEntry>,
}

/// The judged items by key.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Ledger {
    /// The format.
    pub schema: u32,
    /// Judged items by [`super::item_key`].
    pub judged: BTreeMap<String, Judged>,
}

impl Ledger {
    /// Reads the ledger; a missing file is empty, an unreadable one is empty with a warning.
    pub fn load(root: &Path, warnings: &mut Vec<String>) -> Ledger {
        let fresh = Ledger {
            schema: LEDGER_SCHEMA,
            judged: BTreeMap::new(),
        };
        let Ok(path) = crate::state::path(root, FILE, false) else {
            return fresh;
        };
        match crate::error::read_optional(&path) {
            Ok(None) => fresh,
            Ok(Some(bytes)) => match serde_json::from_slice::<Ledger>(&bytes) {
                Ok(l) if l.schema == LEDGER_SCHEMA => l,
                _ => {
                    warnings.push(format!(
                        ".hygiene/{FILE} could not be read; earlier judgements are forgotten and those items are judged again"
                    ));
                    fresh
                }
            },
            Err(e) => {
                warnings.push(format!("{e}; earlier judgements are forgotten"));
                fresh
            }
        }
    }

    /// Writes the ledger.
    pub fn save(&self, root: &Path) -> crate::Result<()> {
        let mut s = serde_json::to_string_pretty(self).expect("the ledger serializes");
        s.push('\n');
        crate::state::write(root, FILE, s.as_bytes()).map(|_| ())
    }

    /// Forgets judgements that no longer hold: under the run's `paths` (all when empty), an item
    /// whose current key differs (its file or signals changed, or it is no longer for the
    /// model), and anywhere, an item whose file is gone.
    pub fn prune(&mut self, root: &Path, paths: &[String], current: &HashMap<String, String>) {
        self.judged.retain(|key, j| {
            let exists =
                crate::paths::resolve_inside(root, &j.path, false).is_ok_and(|p| p.exists());
            let in_scope = super::under(paths, &j.path);
            exists && (!in_scope || current.get(&j.path) == Some(key))
        });
    }
}

/// An entry of a report as the draft that made it (derived fields dropped).
pub fn draft_of(e: &Entry) -> DraftEntry {
    let generative = e.op_type == OpType::Generative;
    DraftEntry {
        path: e.path.clone(),
        category: e.category,
        signals: e.signals.clone(),
        op: e.op.clone(),
        op_type: e.op_type,
        exact_edit: e.exact_edit.clone().map(|mut x| {
            x.expected_sha256 = None;
            x
        }),
        lifecycle: e.lifecycle.clone(),
        is_destructive: generative.then_some(e.is_destructive),
        is_reversible: generative.then_some(e.is_reversible),
    }
}

fn same_op(a: &DraftEntry, b: &DraftEntry) -> bool {
    a.category == b.category && a.op_type == b.op_type && a.exact_edit == b.exact_edit
}

/// Records the previous run's judgements when its report was finalized from the same scan as its
/// bill (see the module doc). Anything unreadable is skipped with a warning.
pub fn absorb_previous_run(root: &Path, book: &mut Ledger, warnings: &mut Vec<String>) {
    let read = |name: &str| -> Option<Vec<u8>> {
        let p = crate::state::path(root, name, false).ok()?;
        crate::error::read_optional(&p).ok().flatten()
    };
    let Some(bill) = read("bill.json") else {
        return;
    };
    let Ok(bill) = serde_json::from_slice::<super::Bill>(&bill) else {
        warnings.push(
            ".hygiene/bill.json could not be read; the previous run's judgements are not carried"
                .into(),
        );
        return;
    };
    let Some(report) = read("report.json").and_then(|r| serde_json::from_slice::<Report>(&r).ok())
    else {
        return;
    };
    if report.generated_at != bill.generated_at {
        return;
    }
    let items: HashMap<&str, &crate::report::ShortlistItem> = report
        .shortlist
        .iter()
        .map(|i| (i.path.as_str(), i))
        .collect();
    for h in &bill.handed {
        let settled = items
            .get(h.path.as_str())
            .map(|i| crate::check::item_drafts(i))
            .unwrap_or_default();
        let drafts: Vec<DraftEntry> = report
            .entries
            .iter()
            .filter(|e| e.path == h.path)
            .map(draft_of)
            .filter(|d| !settled.iter().any(|s| same_op(s, d)))
            .collect();
        book.judged.insert(
            h.key.clone(),
            Judged {
                path: h.path.clone(),
                judged_at: bill.generated_at.clone(),
                drafts,
            },
        );
    }
}
