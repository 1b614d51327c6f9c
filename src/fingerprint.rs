//! Content fingerprints: what `expected_sha256` means, for files and for directories.
//!
//! Finalize records them and apply compares them immediately before every write; both call
//! these functions, so "changed since the check" has one definition.

use sha2::{Digest, Sha256};
use std::path::Path;

/// Lowercase hex of a byte string (sha2 0.11 dropped `{:x}` on digests; this never changes).
pub fn hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut s = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        s.push(DIGITS[(b >> 4) as usize] as char);
        s.push(DIGITS[(b & 15) as usize] as char);
    }
    s
}

/// sha256 of bytes, lowercase hex.
///
/// ```
/// assert_eq!(hygiene::fingerprint::sha256(b"abc"),
///     "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
/// ```
pub fn sha256(bytes: &[u8]) -> String {
    hex(&Sha256::digest(bytes))
}

/// The fingerprint of a file (sha256 of its bytes) or of a directory: sha256 over the sorted
/// lines `"<sha256 of file>  <path relative to the directory>\n"` of every file under it
/// (a symbolic link contributes the sha256 of its target text, never what it points to).
pub fn of_path(path: &Path) -> std::io::Result<String> {
    let meta = std::fs::symlink_metadata(path)?;
    if meta.is_dir() {
        let mut lines = Vec::new();
        walk(path, "", &mut lines)?;
        lines.sort();
        Ok(sha256(lines.concat().as_bytes()))
    } else if meta.file_type().is_symlink() {
        let target = std::fs::read_link(path)?;
        Ok(sha256(target.to_string_lossy().as_bytes()))
    } else {
        Ok(sha256(&std::fs::read(path)?))
    }
}

fn walk(dir: &Path, rel: &str, out: &mut Vec<String>) -> std::io::Result<()> {
    for e in std::fs::read_dir(dir)? {
        let e = e?;
        let name = e.file_name().to_string_lossy().into_owned();
        let child = if rel.is_empty() {
            name
        } else {
            format!("{rel}/{name}")
        };
        if e.file_type()?.is_dir() {
            walk(&e.path(), &child, out)?;
        } else {
            out.push(format!("{}  {child}\n", of_path(&e.path())?));
        }
    }
    Ok(())
}
