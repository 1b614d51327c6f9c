//! The guards an entry passes immediately before its edit is planned and again before each
//! write: fingerprints, the mtime fence, paths that stay inside the root, and the live
//! re-derivation of a lifecycle entry's tier.

use crate::paths::resolve_inside;

use std::path::{Path, PathBuf};

pub use crate::fingerprint::{dir_digest, hex, list_dir, sha256_hex};

/// Resolves a report path for reading (`write` false) or writing and comparing (strict: no
/// link on the way), with the refusal phrased for the entry's result. Which paths may be
/// written at all is [`crate::protect`]'s table, checked by each op for its role.
pub fn resolve(root: &Path, field: &str, rel: &str, write: bool) -> Result<PathBuf, String> {
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
