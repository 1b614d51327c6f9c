//! Seals: proof that a journal batch was written by this helper, for this repository, on this
//! machine.
//!
//! `hygiene undo` writes wherever a batch's manifest says, so a manifest is a capability. A
//! repository can commit `.hygiene/journal/…` like any other file; without a seal, a planted
//! manifest would make undo create, overwrite or delete files of the attacker's choosing. So
//! every manifest (and the record of what the batch left) is sealed with HMAC-SHA256 under a
//! key that lives outside every repository, in the user's state folder ([`key_path`]), readable
//! by the user only. A batch whose seal does not verify is not this helper's and is never read.

use crate::error::{Error, Result};
use sha2::{Digest, Sha256};
use std::path::PathBuf;

/// HMAC-SHA256 (RFC 2104) of `msg` under `key`, as lowercase hex.
///
/// ```
/// // RFC 4231, test case 2.
/// assert_eq!(
///     hygiene::seal::hmac_sha256_hex(b"Jefe", b"what do ya want for nothing?"),
///     "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
/// );
/// ```
pub fn hmac_sha256_hex(key: &[u8], msg: &[u8]) -> String {
    const BLOCK: usize = 64;
    let mut k = [0u8; BLOCK];
    if key.len() > BLOCK {
        k[..32].copy_from_slice(&Sha256::digest(key));
    } else {
        k[..key.len()].copy_from_slice(key);
    }
    let pad = |byte: u8| k.iter().map(|b| b ^ byte).collect::<Vec<u8>>();
    let inner = Sha256::new()
        .chain_update(pad(0x36))
        .chain_update(msg)
        .finalize();
    let outer = Sha256::new()
        .chain_update(pad(0x5c))
        .chain_update(inner)
        .finalize();
    crate::fingerprint::hex(&outer)
}

/// Compares two seals without an early exit on the first differing byte.
pub fn same(a: &str, b: &str) -> bool {
    a.len() == b.len() && a.bytes().zip(b.bytes()).fold(0u8, |d, (x, y)| d | (x ^ y)) == 0
}

/// Where the key lives: `$HYGIENE_STATE_DIR`, else `$XDG_STATE_HOME/hygiene`, else
/// `~/.local/state/hygiene` (on Windows `%LOCALAPPDATA%\hygiene`), file `journal.key`.
pub fn key_path() -> Result<PathBuf> {
    let var = |k: &str| {
        std::env::var_os(k)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
    };
    let dir = var("HYGIENE_STATE_DIR")
        .or_else(|| var("XDG_STATE_HOME").map(|d| d.join("hygiene")))
        .or_else(|| {
            if cfg!(windows) {
                var("LOCALAPPDATA").map(|d| d.join("hygiene"))
            } else {
                var("HOME").map(|h| h.join(".local/state/hygiene"))
            }
        })
        .ok_or_else(|| {
            Error::Other(
                "no folder for hygiene's journal key: set HOME or HYGIENE_STATE_DIR".into(),
            )
        })?;
    Ok(dir.join("journal.key"))
}

/// The sealing key if it exists (`None` before the first apply on this machine): for read-only
/// uses such as a dry run, which must not create it.
pub fn existing_key() -> Result<Option<Vec<u8>>> {
    read_key(&key_path()?)
}

fn read_key(p: &std::path::Path) -> Result<Option<Vec<u8>>> {
    let Some(text) = crate::error::read_optional(p)? else {
        return Ok(None);
    };
    let text = String::from_utf8_lossy(&text).trim().to_string();
    if text.len() != 64 || !text.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Err(Error::Other(format!(
            "{}: not a hygiene journal key (64 hex digits); remove it to make a new one (batches sealed with it can then no longer be undone)",
            p.display()
        )));
    }
    Ok(Some(text.into_bytes()))
}

/// The sealing key, created (32 random bytes, owner-only) on first use.
pub fn key() -> Result<Vec<u8>> {
    let path = key_path()?;
    let read = read_key;
    if let Some(k) = read(&path)? {
        return Ok(k);
    }
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
    }
    let mut raw = [0u8; 32];
    getrandom::fill(&mut raw)
        .map_err(|e| Error::Other(format!("no randomness for the journal key: {e}")))?;
    let hex = crate::fingerprint::hex(&raw);
    // Two first uses may race: the loser reads the winner's key.
    if crate::fsio::create_private(&path, format!("{hex}\n").as_bytes()).is_err() {
        if let Some(k) = read(&path)? {
            return Ok(k);
        }
        return Err(Error::Other(format!(
            "{}: cannot create the journal key",
            path.display()
        )));
    }
    Ok(hex.into_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rfc4231_vectors() {
        // Test case 1 and 6 (a key longer than the block).
        assert_eq!(
            hmac_sha256_hex(&[0x0b; 20], b"Hi There"),
            "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"
        );
        assert_eq!(
            hmac_sha256_hex(
                &[0xaa; 131],
                b"Test Using Larger Than Block-Size Key - Hash Key First"
            ),
            "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"
        );
        assert!(same("ab", "ab") && !same("ab", "ac") && !same("ab", "abc"));
    }
}
