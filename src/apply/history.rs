//! This helper's own earlier batches of the same report, so later entries apply on top.
//!
//! `/hygiene:clean` applies the auto tier, then the entries the user approves, each its own
//! batch. Every later entry on a file an earlier batch changed would otherwise be refused as
//! "changed since the check". The journal proves otherwise: a file is *rebased* when its current
//! bytes are exactly what a chain of sealed, finished, not undone batches of the same report
//! (same report sha256) wrote, starting from the bytes the check saw. The planner then starts
//! from those checked bytes, replays the entries those batches applied, and plans the new ones
//! on top; the replay must reproduce the current bytes exactly, or nothing is rebased.

use super::journal::{current_sha, Batch, Journal};
use crate::fingerprint::sha256_hex;
use crate::report::{Entry, Report};
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::Path;

/// What the journal says about the files a batch involves.
#[derive(Debug, Default)]
pub struct Rebase {
    /// Checked bytes (`None`: absent) of every rebased file, by root-relative path.
    pub bases: HashMap<String, Option<Vec<u8>>>,
    /// The entries earlier batches applied to those files (to replay).
    pub prior: BTreeSet<usize>,
    /// The batch that applied each entry of the report, for "already applied" messages.
    pub applied_in: BTreeMap<usize, String>,
}

/// The root-relative files an entry reads or writes.
pub fn entry_keys(e: &Entry) -> Vec<String> {
    let mut keys = vec![e.path.trim_end_matches('/').to_string()];
    if let Some(x) = &e.exact_edit {
        if let Some((p, _, _)) = x
            .canonical_ref
            .as_deref()
            .and_then(crate::validate::parse_canonical_ref)
        {
            keys.push(p.to_string());
        }
        keys.extend(x.dest_path.iter().cloned());
        keys.extend(x.target_path.iter().cloned());
    }
    keys
}

/// The chain of own batches that explains `key`'s current bytes: its checked bytes and the
/// entries applied to it. `None` when no own batch touched it or the chain is broken (the file
/// changed in between: the guards then refuse what needs it).
fn chain(root: &Path, batches: &[Batch], key: &str) -> Option<(Option<Vec<u8>>, Vec<usize>)> {
    let abs = crate::paths::resolve_inside(root, key, true).ok()?;
    let mut cur = current_sha(&abs).ok()?;
    let mut entries = Vec::new();
    let mut base: Option<Option<Vec<u8>>> = None;
    for b in batches {
        let Some(f) = b.file(key) else { continue };
        let done = b.done.as_ref()?;
        if done.after.get(key) != Some(&cur) {
            return None;
        }
        entries.extend(f.entries.iter().filter(|e| done.applied.contains(e)));
        cur = f.sha256.clone();
        base = Some(match (&f.blob, f.existed) {
            (Some(blob), true) => {
                let bytes = std::fs::read(b.dir.join(blob)).ok()?;
                (Some(sha256_hex(&bytes)) == f.sha256)
                    .then_some(bytes)?
                    .into()
            }
            _ => None,
        });
    }
    Some((base?, entries))
}

/// Works out the rebased files and replayed entries for a batch of `selected` entries.
pub fn rebase(
    journal: &Journal,
    root: &Path,
    report: &Report,
    report_sha: &str,
    selected: &[usize],
) -> Rebase {
    let batches = journal.own_batches(report_sha); // newest first
    let mut out = Rebase::default();
    if batches.is_empty() {
        return out;
    }
    for b in batches.iter().rev() {
        for &e in &b
            .done
            .as_ref()
            .map(|d| d.applied.clone())
            .unwrap_or_default()
        {
            out.applied_in.insert(e, b.manifest.batch.clone());
        }
    }
    let mut queue: Vec<String> = selected
        .iter()
        .filter_map(|&i| report.entries.get(i))
        .flat_map(entry_keys)
        .collect();
    let mut seen = std::collections::HashSet::new();
    while let Some(k) = queue.pop() {
        if !seen.insert(k.clone()) {
            continue;
        }
        let Some((base, entries)) = chain(root, &batches, &k) else {
            continue;
        };
        out.bases.insert(k, base);
        for e in entries {
            if out.prior.insert(e) {
                if let Some(entry) = report.entries.get(e) {
                    queue.extend(entry_keys(entry));
                }
            }
        }
    }
    out
}
