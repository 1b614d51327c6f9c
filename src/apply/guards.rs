//! The guards an entry passes immediately before its edit is planned and again before each
//! write: fingerprints, the mtime fence, paths that stay inside the root, and the live
//! re-derivation of a lifecycle entry's tier.

use crate::paths::resolve_inside;
use crate::report::Lifecycle;
use crate::tier::Evidence;

use std::path::{Path, PathBuf};

pub use crate::fingerprint::{dir_digest, hex, list_dir, sha256_hex};

/// Folders at the root an entry may never touch: git's own data and hygiene's journal.
const FORBIDDEN_TOP: [&str; 2] = [".git", ".hygiene"];

/// Resolves a report path for reading (`write` false) or writing, with the refusal phrased for
/// the entry's result.
pub fn resolve(root: &Path, field: &str, rel: &str, write: bool) -> Result<PathBuf, String> {
    let first = rel.split('/').next().unwrap_or("");
    if FORBIDDEN_TOP.contains(&first) {
        return Err(format!(
            "{field} `{rel}` is inside `{first}/`, which hygiene never edits"
        ));
    }
    resolve_inside(root, rel, write).map_err(|e| format!("{field} `{rel}`: {e}"))
}

/// Modification time in Unix seconds (floor).
pub fn mtime_secs(meta: &std::fs::Metadata) -> Option<i64> {
    let m = meta.modified().ok()?;
    Some(match m.duration_since(std::time::UNIX_EPOCH) {
        Ok(d) => d.as_secs() as i64,
        Err(e) => -(e.duration().as_secs_f64().ceil() as i64),
    })
}

/// The mtime fence: refuses a file or directory content modified after `generated_at`.
pub fn check_mtime(path: &Path, rel: &str, generated_at: i64) -> Result<(), String> {
    let meta = std::fs::symlink_metadata(path).map_err(|e| format!("`{rel}`: {e}"))?;
    let newest = if meta.is_dir() {
        let listing = list_dir(path).map_err(|e| format!("`{rel}`: {e}"))?;
        let mut newest = mtime_secs(&meta);
        for f in &listing.files {
            let m = std::fs::symlink_metadata(path.join(f)).ok();
            newest = newest.max(m.as_ref().and_then(mtime_secs));
        }
        newest
    } else {
        mtime_secs(&meta)
    };
    match newest {
        Some(t) if t > generated_at => Err(format!(
            "`{rel}` was modified at {} (after the check at {})",
            crate::time::format_utc(t),
            crate::time::format_utc(generated_at)
        )),
        Some(_) => Ok(()),
        None => Err(format!("`{rel}`: modification time unreadable")),
    }
}

/// The evidence a lifecycle entry stands on, read live: a `served_when_path` must still exist
/// now; an age-based temporary rule is scanner-proven; a `served_when` question is a model's.
/// `None` for a `keep` rule, which protects the document from every lifecycle op.
pub fn live_evidence(root: &Path, lc: &Lifecycle) -> Option<Evidence> {
    crate::lifecycle::evidence_of(root, lc)
}
