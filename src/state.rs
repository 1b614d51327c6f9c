//! `.hygiene/`: the helper's own folder under the repository root.
//!
//! It holds the scan, the report, drafts, proposals, the batch journal (full copies of
//! documents) and the batch lock. A repository is untrusted input, so every path under it is
//! resolved as strictly as a report path ([`crate::paths::resolve_inside`] in write mode): no
//! component may be a symbolic link, so a committed `.hygiene/journal -> /elsewhere` cannot send
//! copies of documents out of the root. When the helper creates the folder it also writes
//! `.hygiene/.gitignore` ([`GITIGNORE`]), so journals, reports and scratch files are never
//! committed by accident; only the rulebook and the adopted conventions are meant to be shared.

use crate::error::{Error, Result};
use std::path::{Path, PathBuf};

/// The folder's name at the root.
pub const DIR: &str = ".hygiene";

/// The `.gitignore` written into a new `.hygiene/`: everything is scratch except the two files
/// a team shares.
pub const GITIGNORE: &str =
    "# hygiene's scratch: scans, reports, drafts, proposals and the undo journal.\n\
# Only the rulebook and the adopted conventions are meant to be committed.\n\
*\n\
!rulebook.json\n\
!conventions.json\n";

/// `.hygiene/<rel>` under `root` (`rel` empty for the folder itself), resolved strictly. With
/// `create`, missing folders on the way are created (and a new `.hygiene/` gets its
/// `.gitignore`); the last component is never created.
///
/// ```
/// let d = tempfile::tempdir().unwrap();
/// let p = hygiene::state::path(d.path(), "journal/000001", true).unwrap();
/// assert!(p.parent().unwrap().is_dir() && !p.exists());
/// assert!(d.path().join(".hygiene/.gitignore").is_file());
/// ```
pub fn path(root: &Path, rel: &str, create: bool) -> Result<PathBuf> {
    let full_rel = if rel.is_empty() {
        DIR.to_string()
    } else {
        format!("{DIR}/{rel}")
    };
    let p =
        crate::paths::resolve_inside(root, &full_rel, true).map_err(|e| refuse(&full_rel, e))?;
    if create {
        ensure_dir(root)?;
        if let Some((dir, _)) = full_rel.rsplit_once('/') {
            crate::fsio::create_dirs_inside(root, dir)?;
        }
    }
    Ok(p)
}

/// The `.hygiene` folder itself, created with its `.gitignore` when `create`.
pub fn dir(root: &Path, create: bool) -> Result<PathBuf> {
    let p = path(root, "", false)?;
    if create {
        ensure_dir(root)?;
    }
    Ok(p)
}

/// A folder under `.hygiene/` (`journal`, `drafts`), created when `create`.
pub fn subdir(root: &Path, rel: &str, create: bool) -> Result<PathBuf> {
    let p = path(root, rel, create)?;
    if create {
        crate::fsio::create_dirs_inside(root, &format!("{DIR}/{rel}"))?;
    }
    Ok(p)
}

/// Writes `.hygiene/<rel>` atomically (never through a link), creating folders on the way.
pub fn write(root: &Path, rel: &str, bytes: &[u8]) -> Result<PathBuf> {
    ensure_dir(root)?;
    crate::fsio::write_inside(root, &format!("{DIR}/{rel}"), bytes)
}

/// Writes `.hygiene/<rel>` like [`write`], the bytes `fill` writes, without the fsyncs: for
/// scratch that is safe to lose and checks itself when read (the scan cache).
pub fn write_scratch(
    root: &Path,
    rel: &str,
    fill: &mut dyn FnMut(&mut dyn std::io::Write) -> std::io::Result<()>,
) -> Result<PathBuf> {
    ensure_dir(root)?;
    crate::fsio::write_inside_unsynced(root, &format!("{DIR}/{rel}"), fill)
}

fn refuse(rel: &str, e: crate::paths::PathError) -> Error {
    Error::Other(format!(
        "`{rel}`: {e}; hygiene keeps its own files only in a real `.hygiene/` folder inside the repository (remove the link)"
    ))
}

fn ensure_dir(root: &Path) -> Result<()> {
    let p = crate::paths::resolve_inside(root, DIR, true).map_err(|e| refuse(DIR, e))?;
    match std::fs::symlink_metadata(&p) {
        Ok(m) if m.is_dir() => {}
        Ok(_) => {
            return Err(Error::Other(format!(
                "`{DIR}` exists but is not a folder; remove it"
            )))
        }
        Err(_) => std::fs::create_dir(&p).map_err(|e| Error::io(&p, e))?,
    }
    let ignore = p.join(".gitignore");
    if std::fs::symlink_metadata(&ignore).is_err() {
        // A second process may create it at the same moment: losing that race is fine.
        let _ = crate::fsio::atomic_create(&ignore, GITIGNORE.as_bytes());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(unix)]
    #[test]
    fn links_anywhere_under_hygiene_are_refused() {
        let d = tempfile::tempdir().unwrap();
        let outside = tempfile::tempdir().unwrap();
        std::os::unix::fs::symlink(outside.path(), d.path().join(".hygiene")).unwrap();
        assert!(path(d.path(), "journal", true).is_err());
        assert!(write(d.path(), "report.json", b"{}").is_err());
        std::fs::remove_file(d.path().join(".hygiene")).unwrap();
        std::fs::create_dir(d.path().join(".hygiene")).unwrap();
        std::os::unix::fs::symlink(outside.path(), d.path().join(".hygiene/journal")).unwrap();
        assert!(subdir(d.path(), "journal", true).is_err());
        assert!(path(d.path(), "journal/000001/manifest.json", true).is_err());
        std::os::unix::fs::symlink(
            outside.path().join("r.json"),
            d.path().join(".hygiene/report.json"),
        )
        .unwrap();
        assert!(write(d.path(), "report.json", b"{}").is_err());
        assert_eq!(std::fs::read_dir(outside.path()).unwrap().count(), 0);
    }

    #[test]
    fn a_new_hygiene_folder_is_ignored_by_git_except_shared_files() {
        let d = tempfile::tempdir().unwrap();
        write(d.path(), "report.json", b"{}").unwrap();
        let text = std::fs::read_to_string(d.path().join(".hygiene/.gitignore")).unwrap();
        assert_eq!(text, GITIGNORE);
    }
}
