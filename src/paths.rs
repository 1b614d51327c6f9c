//! Root-relative paths and the one way to turn them into filesystem paths.
//!
//! Every path in a report, draft or rulebook is untrusted text. [`check_relative`] is the
//! syntactic rule (relative, `/`-separated, no `..`, no empty or `.` segment, hence no trailing
//! `/`: one spelling per path) and [`resolve_inside`] adds the filesystem rule (no symlink on the
//! way leads out of the root; for a write, no symlink on the way at all). Nothing in hygiene
//! reads or writes a report path any other way.

use std::fmt;
use std::path::{Component, Path, PathBuf};

/// Why a path was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PathError {
    /// The path is empty.
    Empty,
    /// The path is absolute (or has a drive or UNC prefix).
    Absolute,
    /// The path has a `..` segment.
    ParentSegment,
    /// The path has a backslash, NUL, a trailing `/`, or an empty or `.` segment.
    Malformed,
    /// A symlink on the way resolves outside the root.
    SymlinkOut,
    /// The target itself is a symlink, which hygiene never writes through.
    SymlinkTarget,
    /// A folder on the way is a symlink that stays inside the root: the path is a second name
    /// for a file, which hygiene does not write or compare through.
    SymlinkInside,
    /// The root itself cannot be resolved.
    BadRoot(String),
}

impl fmt::Display for PathError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            PathError::Empty => "the path is empty",
            PathError::Absolute => "the path is absolute; report paths are root-relative",
            PathError::ParentSegment => "the path has a `..` segment that could leave the root",
            PathError::Malformed => {
                "the path has a backslash, NUL, a trailing `/`, or an empty or `.` segment"
            }
            PathError::SymlinkOut => "a symbolic link on the path leads outside the root",
            PathError::SymlinkTarget => {
                "the target is a symbolic link; hygiene does not write through links"
            }
            PathError::SymlinkInside => {
                "a folder on the path is a symbolic link; hygiene writes and compares files only by their real path"
            }
            PathError::BadRoot(_) => "the root folder cannot be resolved",
        })?;
        if let PathError::BadRoot(why) = self {
            write!(f, " ({why})")?;
        }
        Ok(())
    }
}

impl std::error::Error for PathError {}

/// The syntactic rule for a root-relative path.
///
/// ```
/// use hygiene::paths::{check_relative, PathError};
/// assert!(check_relative("docs/plan.md").is_ok());
/// assert_eq!(check_relative("../x"), Err(PathError::ParentSegment));
/// assert_eq!(check_relative("docs/../../x"), Err(PathError::ParentSegment));
/// assert_eq!(check_relative("/etc/passwd"), Err(PathError::Absolute));
/// assert_eq!(check_relative("docs//x"), Err(PathError::Malformed));
/// assert_eq!(check_relative("C:\\x"), Err(PathError::Malformed));
/// // one spelling per path: `x.md/` would be a second name for `x.md` (so is `docs/` for `docs`)
/// assert_eq!(check_relative("docs/x.md/"), Err(PathError::Malformed));
/// ```
pub fn check_relative(rel: &str) -> Result<(), PathError> {
    if rel.is_empty() {
        return Err(PathError::Empty);
    }
    if rel.starts_with('/') || Path::new(rel).is_absolute() {
        return Err(PathError::Absolute);
    }
    if rel.contains('\\') || rel.contains('\0') {
        return Err(PathError::Malformed);
    }
    for seg in rel.split('/') {
        match seg {
            ".." => return Err(PathError::ParentSegment),
            "" | "." => return Err(PathError::Malformed),
            _ => {}
        }
    }
    if Path::new(rel)
        .components()
        .any(|c| !matches!(c, Component::Normal(_)))
    {
        return Err(PathError::Malformed);
    }
    Ok(())
}

/// Resolves `rel` under `root` for reading or writing.
///
/// Both check the syntactic rule and that no symlink on the way leads out of the canonical root.
/// With `write` the rule is strict: no component under the root may be a symlink at all, so a
/// path written, deleted or compared (a dedupe's kept copy) is a file's one real name, never an
/// alias through an in-root link (`mirror -> .`) that would let two paths name one file. The
/// returned path is `canonical_root/rel` (not canonicalized itself, so a missing file can be
/// created).
pub fn resolve_inside(root: &Path, rel: &str, write: bool) -> Result<PathBuf, PathError> {
    check_relative(rel)?;
    let croot = root
        .canonicalize()
        .map_err(|e| PathError::BadRoot(e.to_string()))?;
    let full = croot.join(rel);
    if write {
        let mut at = croot.clone();
        for seg in rel.split('/') {
            at.push(seg);
            match std::fs::symlink_metadata(&at) {
                Ok(m) if m.file_type().is_symlink() => {
                    let leads_out = at.canonicalize().map_or(true, |r| !r.starts_with(&croot));
                    return Err(if leads_out {
                        PathError::SymlinkOut
                    } else if at == full {
                        PathError::SymlinkTarget
                    } else {
                        PathError::SymlinkInside
                    });
                }
                Ok(_) => {}
                Err(_) => break, // the rest does not exist yet
            }
        }
        return Ok(full);
    }
    // The deepest existing ancestor (or the path itself) must resolve inside the root.
    let mut probe = full.clone();
    loop {
        if std::fs::symlink_metadata(&probe).is_ok() {
            let real = probe.canonicalize().map_err(|_| PathError::SymlinkOut)?;
            if !real.starts_with(&croot) {
                return Err(PathError::SymlinkOut);
            }
            break;
        }
        if !probe.pop() || !probe.starts_with(&croot) {
            break;
        }
    }
    Ok(full)
}

/// Converts a filesystem path under `root` to a root-relative `/`-separated string.
pub fn to_rel(root: &Path, path: &Path) -> Option<String> {
    let rel = path.strip_prefix(root).ok()?;
    let mut out = String::new();
    for c in rel.components() {
        let Component::Normal(s) = c else { return None };
        if !out.is_empty() {
            out.push('/');
        }
        out.push_str(s.to_str()?);
    }
    Some(out)
}
