//! The guards an entry passes immediately before its edit is planned and again before each
//! write: fingerprints, the mtime fence, paths that stay inside the root, and the live
//! re-derivation of a lifecycle entry's tier.

use crate::paths::resolve_inside;
use crate::report::{Lifecycle, Lifetime};
use crate::tier::Evidence;
use sha2::{Digest, Sha256};
use std::io;
use std::path::{Path, PathBuf};

/// Lowercase hex of `bytes`, by hand (sha2 0.11 dropped `{:x}` on digests).
///
/// ```
/// assert_eq!(hygiene::apply::hex(&[0x00, 0xab, 0x7f]), "00ab7f");
/// ```
pub fn hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut s = String::with_capacity(bytes.len() * 2);
    for &b in bytes {
        s.push(DIGITS[(b >> 4) as usize] as char);
        s.push(DIGITS[(b & 15) as usize] as char);
    }
    s
}

/// sha256 of `bytes`, lowercase hex: the fingerprint of a file target.
///
/// ```
/// assert_eq!(hygiene::apply::sha256_hex(b"abc"),
///     "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
/// ```
pub fn sha256_hex(bytes: &[u8]) -> String {
    hex(&Sha256::digest(bytes))
}

/// What a directory holds, walked without following links.
#[derive(Debug, Default)]
pub struct DirListing {
    /// Regular files, paths relative to the directory with `/`, sorted bytewise.
    pub files: Vec<String>,
    /// Sub-directories, relative, sorted (parents before children).
    pub dirs: Vec<String>,
    /// Entries that are neither (symbolic links, sockets, ...), relative.
    pub other: Vec<String>,
}

/// Lists `dir` recursively without following symbolic links.
pub fn list_dir(dir: &Path) -> io::Result<DirListing> {
    fn walk(dir: &Path, prefix: &str, out: &mut DirListing) -> io::Result<()> {
        for e in std::fs::read_dir(dir)? {
            let e = e?;
            let name = e.file_name();
            let Some(name) = name.to_str() else {
                out.other
                    .push(format!("{prefix}{}", name.to_string_lossy()));
                continue;
            };
            let rel = format!("{prefix}{name}");
            let t = e.file_type()?;
            if t.is_dir() {
                out.dirs.push(rel.clone());
                walk(&e.path(), &format!("{rel}/"), out)?;
            } else if t.is_file() {
                out.files.push(rel);
            } else {
                out.other.push(rel);
            }
        }
        Ok(())
    }
    let mut out = DirListing::default();
    walk(dir, "", &mut out)?;
    out.files.sort();
    out.dirs.sort();
    out.other.sort();
    Ok(out)
}

/// The fingerprint of a directory target (a directory-rule `delete`).
///
/// sha256 (lowercase hex) over the concatenated lines `"<sha256 of file>  <relative path>\n"`,
/// one per regular file under `dir` (recursively, links not followed, paths relative to `dir`
/// with `/` separators), the lines ordered by relative path, bytewise. Symbolic links and other
/// non-regular entries are not part of the digest (apply refuses to delete a directory that
/// holds any). An empty directory digests the empty string.
///
/// ```
/// let d = tempfile::tempdir().unwrap();
/// std::fs::create_dir(d.path().join("b")).unwrap();
/// std::fs::write(d.path().join("b/x.md"), "x").unwrap();
/// std::fs::write(d.path().join("a.md"), "a").unwrap();
/// let h = hygiene::apply::sha256_hex;
/// let lines = format!("{}  a.md\n{}  b/x.md\n", h(b"a"), h(b"x"));
/// assert_eq!(hygiene::apply::dir_digest(d.path()).unwrap(), h(lines.as_bytes()));
/// ```
pub fn dir_digest(dir: &Path) -> io::Result<String> {
    let listing = list_dir(dir)?;
    let mut text = String::new();
    for f in &listing.files {
        let bytes = std::fs::read(dir.join(f))?;
        text.push_str(&sha256_hex(&bytes));
        text.push_str("  ");
        text.push_str(f);
        text.push('\n');
    }
    Ok(sha256_hex(text.as_bytes()))
}

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
    if lc.lifetime == Lifetime::Keep {
        return None;
    }
    if let Some(p) = &lc.served_when_path {
        let exists = resolve_inside(root, p, false)
            .ok()
            .is_some_and(|full| std::fs::symlink_metadata(full).is_ok());
        return Some(if exists {
            Evidence::ServedWhenPathSatisfied
        } else {
            Evidence::ServedWhenPathMissing
        });
    }
    if lc.served_when.is_some() {
        return Some(Evidence::ClassifierJudged);
    }
    if lc.lifetime == Lifetime::Temporary {
        return Some(Evidence::TemporaryAge);
    }
    Some(Evidence::ClassifierJudged)
}
