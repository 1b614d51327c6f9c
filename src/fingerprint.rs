//! Content fingerprints: what `expected_sha256` means, for files and for directories.
//!
//! Finalize records them and apply compares them immediately before every write; both call
//! these functions, so "changed since the check" has one definition.

use sha2::{Digest, Sha256};
use std::io;
use std::path::Path;

/// Lowercase hex of `bytes`, by hand (sha2 0.11 dropped `{:x}` on digests).
///
/// ```
/// assert_eq!(hygiene::fingerprint::hex(&[0x00, 0xab, 0x7f]), "00ab7f");
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
/// assert_eq!(hygiene::fingerprint::sha256_hex(b"abc"),
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
/// let h = hygiene::fingerprint::sha256_hex;
/// let lines = format!("{}  a.md\n{}  b/x.md\n", h(b"a"), h(b"x"));
/// assert_eq!(hygiene::fingerprint::dir_digest(d.path()).unwrap(), h(lines.as_bytes()));
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

/// The fingerprint of a report target: [`sha256_hex`] of a file's bytes, or [`dir_digest`] of a
/// directory. A symbolic link is fingerprinted by its target text, never by what it points to.
pub fn of_path(path: &Path) -> io::Result<String> {
    let meta = std::fs::symlink_metadata(path)?;
    if meta.is_dir() {
        dir_digest(path)
    } else if meta.file_type().is_symlink() {
        Ok(sha256_hex(
            std::fs::read_link(path)?.to_string_lossy().as_bytes(),
        ))
    } else {
        Ok(sha256_hex(&std::fs::read(path)?))
    }
}

/// The check-time fingerprints a report's exact edits cannot carry: a generative entry has no
/// `exact_edit` (the contract forbids it), so its target's sha256 at check time is kept beside
/// the report in `<report>.fingerprints.json`, bound to the report's own bytes by their sha256.
/// Apply refuses a generative entry whose target no longer has that fingerprint (or that no
/// sidecar vouches for), exactly as it refuses a stale exact edit.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Sidecar {
    /// sha256 of the report file this sidecar belongs to.
    pub report_sha256: String,
    /// Root-relative path to sha256 at check time, for every generative entry's target.
    pub files: std::collections::BTreeMap<String, String>,
}

impl Sidecar {
    /// Where the sidecar of `report` lives.
    pub fn path_for(report: &Path) -> std::path::PathBuf {
        let mut name = report
            .file_name()
            .map(|n| n.to_os_string())
            .unwrap_or_default();
        name.push(".fingerprints.json");
        report.with_file_name(name)
    }

    /// Reads the sidecar of `report` when it exists, parses and belongs to `report_bytes`.
    pub fn read(report: &Path, report_bytes: &[u8]) -> Option<Sidecar> {
        let bytes = crate::error::read_optional(&Sidecar::path_for(report))
            .ok()
            .flatten()?;
        let s: Sidecar = serde_json::from_slice(&bytes).ok()?;
        (s.report_sha256 == sha256_hex(report_bytes)).then_some(s)
    }
}
