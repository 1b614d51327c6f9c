//! The batch journal under `.hygiene/journal/<batch>/` and `hygiene undo`.
//!
//! Before a batch writes anything, the original bytes, existence and permission bits of every
//! file it will touch are saved as owner-only `blobs/<n>` and listed in `manifest.json` with
//! their sha256, the sha256 the batch plans to leave and the entries that change each file; the
//! manifest is then sealed ([`crate::seal`]) to the repository root under the user's own key.
//! When the batch ends, `done.json` (also sealed) records each file's sha256 as the batch left it
//! and which entries were written.
//!
//! Only sealed batches exist for the helper: a batch committed into a repository, copied from
//! another machine or edited by hand fails its seal and is ignored, so undo touches nothing but
//! what this helper's own apply wrote. Undo restores the newest sealed batch not yet undone, and
//! only when every file is still as the batch left it or already back to its original (so an
//! undo killed midway resumes), after verifying every blob: it either restores all or writes
//! nothing. An undone batch gets `undone.json` and the next undo reaches the batch before it.

use crate::fingerprint::sha256_hex;
use crate::fsio;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::io;
use std::path::{Path, PathBuf};

/// The journal format this helper writes and reads.
pub const VERSION: u32 = 2;

/// One file a batch touches.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct JournalFile {
    /// Root-relative path, or an absolute path when `external`.
    pub path: String,
    /// A file outside the repository (a cross-repo extraction the batch created).
    #[serde(default)]
    pub external: bool,
    /// Whether the file existed before the batch.
    pub existed: bool,
    /// The blob holding its original bytes (when it existed).
    #[serde(default)]
    pub blob: Option<String>,
    /// sha256 of the original bytes (when it existed).
    #[serde(default)]
    pub sha256: Option<String>,
    /// sha256 the batch plans to leave; `None` when the batch removes the file.
    #[serde(default)]
    pub planned_sha256: Option<String>,
    /// Unix permission bits of the original (restored by undo).
    #[serde(default)]
    pub mode: Option<u32>,
    /// The report entries that change this file.
    #[serde(default)]
    pub entries: Vec<usize>,
}

/// What a batch will do, written completely (and sealed) before its first edit.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Manifest {
    /// Journal format version ([`VERSION`]).
    pub version: u32,
    /// The batch id (the folder name).
    pub batch: String,
    /// When the batch started (UTC).
    pub created_at: String,
    /// The canonical repository root the batch was applied to.
    pub root: String,
    /// The report the batch applied.
    pub report: String,
    /// sha256 of the report's bytes: later batches of the same report recognise this one.
    pub report_sha256: String,
    /// The entries the batch planned.
    pub entries: Vec<usize>,
    /// Every file the batch touches.
    pub files: Vec<JournalFile>,
    /// Root-relative folders the batch creates, parents first.
    pub dirs_created: Vec<String>,
    /// Root-relative folders the batch removes, parents first.
    pub dirs_removed: Vec<String>,
}

/// The state a finished batch left.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Done {
    /// Path (as in the manifest) to sha256 after the batch, `None` for absent.
    pub after: BTreeMap<String, Option<String>>,
    /// The entries whose every change was written.
    #[serde(default)]
    pub applied: Vec<usize>,
}

/// A sealed batch as read back.
#[derive(Debug, Clone)]
pub struct Batch {
    /// Numeric id.
    pub id: u64,
    /// Its folder.
    pub dir: PathBuf,
    /// The manifest.
    pub manifest: Manifest,
    /// What it left, when it finished (and the record is sealed).
    pub done: Option<Done>,
    /// Undone already.
    pub undone: bool,
}

impl Batch {
    /// The journal record of `path`, if the batch touched it.
    pub fn file(&self, path: &str) -> Option<&JournalFile> {
        self.manifest.files.iter().find(|f| f.path == path)
    }
}

/// The journal of one repository, with the key that seals it.
#[derive(Debug)]
pub struct Journal {
    root: PathBuf,
    dir: PathBuf,
    key: Vec<u8>,
}

/// What `hygiene undo` did.
#[derive(Debug, Clone, Serialize)]
pub struct UndoReport {
    /// The batch restored.
    pub batch: String,
    /// Files written back with their original bytes.
    pub restored: Vec<String>,
    /// Files the batch had created, removed again.
    pub removed: Vec<String>,
}

/// Why undo did nothing.
#[derive(Debug)]
pub enum UndoFailure {
    /// Refused (exit 1): nothing to undo, a file changed since the batch, a damaged blob.
    Refused(String),
    /// I/O or journal error (exit 2).
    Error(String),
}

fn seal_msg(root: &str, what: &str, bytes: &[u8]) -> Vec<u8> {
    let mut m = format!("hygiene-journal/v{VERSION}\n{what}\n{root}\n").into_bytes();
    m.extend_from_slice(bytes);
    m
}

/// Reads a regular file (never through a link), at most `cap` bytes.
fn read_small(path: &Path, cap: u64) -> Option<Vec<u8>> {
    let m = std::fs::symlink_metadata(path).ok()?;
    (m.is_file() && m.len() <= cap).then(|| std::fs::read(path).ok())?
}

const JSON_CAP: u64 = 256 * 1024 * 1024;

impl Journal {
    /// The journal of `root`, with the user's sealing key. With `create` the folder and the
    /// key are made when missing; without (a dry run), nothing is created, and with no key yet
    /// no batch can verify.
    pub fn open(root: &Path, create: bool) -> crate::Result<Journal> {
        // The folder itself is made by the first batch that writes.
        let dir = crate::state::subdir(root, "journal", false)?;
        let key = if create {
            crate::seal::key()?
        } else {
            crate::seal::existing_key()?.unwrap_or_default()
        };
        Ok(Journal {
            root: root.to_path_buf(),
            dir,
            key,
        })
    }

    fn root_str(&self) -> String {
        self.root.display().to_string()
    }

    fn seal(&self, what: &str, bytes: &[u8]) -> String {
        crate::seal::hmac_sha256_hex(&self.key, &seal_msg(&self.root_str(), what, bytes))
    }

    /// Writes `<name>.json` and then `<name>.seal` in `dir`.
    fn write_sealed<T: Serialize>(&self, dir: &Path, name: &str, v: &T) -> io::Result<()> {
        let text = serde_json::to_vec_pretty(v).map_err(io::Error::other)?;
        write_private(&dir.join(format!("{name}.json")), &text)?;
        write_private(
            &dir.join(format!("{name}.seal")),
            format!("{}\n", self.seal(name, &text)).as_bytes(),
        )
    }

    /// `<name>.json` of `dir` when its seal verifies.
    fn read_sealed<T: serde::de::DeserializeOwned>(&self, dir: &Path, name: &str) -> Option<T> {
        if self.key.is_empty() {
            return None;
        }
        let text = read_small(&dir.join(format!("{name}.json")), JSON_CAP)?;
        let seal = read_small(&dir.join(format!("{name}.seal")), 1024)?;
        let seal = String::from_utf8(seal).ok()?;
        if !crate::seal::same(seal.trim(), &self.seal(name, &text)) {
            return None;
        }
        serde_json::from_slice(&text).ok()
    }

    /// Every sealed batch, oldest first, and how many folders were not (foreign or damaged).
    pub fn batches(&self) -> (Vec<Batch>, usize) {
        let mut out = Vec::new();
        let mut foreign = 0;
        let Ok(rd) = std::fs::read_dir(&self.dir) else {
            return (out, 0);
        };
        for e in rd.flatten() {
            let name = e.file_name().to_string_lossy().into_owned();
            let Ok(id) = name.parse::<u64>() else {
                continue;
            };
            let dir = e.path();
            let real_dir = std::fs::symlink_metadata(&dir).is_ok_and(|m| m.is_dir());
            let manifest: Option<Manifest> = real_dir
                .then(|| self.read_sealed(&dir, "manifest"))
                .flatten()
                .filter(|m: &Manifest| {
                    m.version == VERSION && m.batch == name && m.root == self.root_str()
                });
            let Some(manifest) = manifest else {
                foreign += 1;
                continue;
            };
            out.push(Batch {
                id,
                done: self.read_sealed(&dir, "done"),
                undone: dir.join("undone.json").exists(),
                dir,
                manifest,
            });
        }
        out.sort_by_key(|b| b.id);
        (out, foreign)
    }

    /// The finished, not undone batches that applied the report with sha256 `report_sha`,
    /// newest first: the edits this helper already made from that report.
    pub fn own_batches(&self, report_sha: &str) -> Vec<Batch> {
        let mut v: Vec<Batch> = self
            .batches()
            .0
            .into_iter()
            .filter(|b| !b.undone && b.done.is_some() && b.manifest.report_sha256 == report_sha)
            .collect();
        v.reverse();
        v
    }

    /// Removes the temporary files a killed apply or undo left beside the files of batches
    /// that did not finish (or whose undo did not finish). Call under the batch lock.
    pub fn cleanup(&self) {
        for b in self.batches().0 {
            let interrupted_undo = b.dir.join("undo-started.json").exists() && !b.undone;
            if b.done.is_some() && !interrupted_undo {
                continue;
            }
            for f in &b.manifest.files {
                let p = if f.external {
                    Some(PathBuf::from(&f.path))
                } else {
                    crate::paths::resolve_inside(&self.root, &f.path, true).ok()
                };
                if let Some(p) = p {
                    fsio::remove_temps(&p);
                }
            }
            for name in ["manifest.json", "manifest.seal", "done.json", "done.seal"] {
                fsio::remove_temps(&b.dir.join(name));
            }
        }
    }

    /// Writes the blobs and the sealed manifest of a new batch and returns its folder.
    pub fn begin(
        &self,
        mut manifest: Manifest,
        originals: &[Option<&[u8]>],
    ) -> io::Result<(PathBuf, Manifest)> {
        crate::state::subdir(&self.root, "journal", true).map_err(io::Error::other)?;
        let mut next = self
            .batches()
            .0
            .last()
            .map_or(Some(1), |b| b.id.checked_add(1));
        let (dir, id) = loop {
            let Some(n) = next else {
                return Err(io::Error::other(
                    "the journal has no batch id left; move .hygiene/journal aside",
                ));
            };
            let id = format!("{n:06}");
            let dir = self.dir.join(&id);
            if std::fs::symlink_metadata(&dir).is_err() {
                break (dir, id);
            }
            next = n.checked_add(1);
        };
        fsio::create_private_dir(&dir)?;
        fsio::create_private_dir(&dir.join("blobs"))?;
        for (i, orig) in originals.iter().enumerate() {
            if let Some(bytes) = orig {
                let name = format!("blobs/{i}");
                fsio::create_private(&dir.join(&name), bytes)?;
                manifest.files[i].blob = Some(name);
            }
        }
        fsio::sync_dir(&dir.join("blobs"))?;
        manifest.version = VERSION;
        manifest.batch = id;
        manifest.root = self.root_str();
        self.write_sealed(&dir, "manifest", &manifest)?;
        fsio::sync_dir(&dir)?;
        fsio::sync_dir(&self.dir)?;
        Ok((dir, manifest))
    }

    /// Records the state the batch left.
    pub fn finish(&self, batch_dir: &Path, done: &Done) -> io::Result<()> {
        self.write_sealed(batch_dir, "done", done)
    }

    /// The path a journal record names, resolved strictly.
    fn target(&self, f: &JournalFile) -> Result<PathBuf, UndoFailure> {
        if f.external {
            return Ok(PathBuf::from(&f.path));
        }
        crate::paths::resolve_inside(&self.root, &f.path, true)
            .map_err(|e| UndoFailure::Refused(format!("{}: {e}", f.path)))
    }

    /// Restores the newest sealed batch not yet undone.
    pub fn undo(&self) -> Result<UndoReport, UndoFailure> {
        let (batches, foreign) = self.batches();
        let Some(b) = batches.into_iter().rev().find(|b| !b.undone) else {
            let note = if foreign > 0 {
                format!(
                    " ({foreign} folder(s) in .hygiene/journal carry no valid seal: written on another machine, by an older hygiene, or not by hygiene; they are never undone)"
                )
            } else {
                String::new()
            };
            return Err(UndoFailure::Refused(format!(
                "nothing to undo: no applied batch in .hygiene/journal{note}"
            )));
        };
        let m = &b.manifest;
        // Check every file and verify every blob before touching any.
        let mut plan: Vec<(PathBuf, Option<Vec<u8>>)> = Vec::new();
        for f in &m.files {
            let p = self.target(f)?;
            let now =
                current_sha(&p).map_err(|e| UndoFailure::Refused(format!("{}: {e}", f.path)))?;
            let left = match &b.done {
                Some(d) => d.after.get(&f.path).is_some_and(|after| *after == now),
                None => now == f.planned_sha256,
            };
            if !left && now != f.sha256 {
                return Err(UndoFailure::Refused(format!(
                    "{} changed since batch {} was applied; undo would lose that change, so nothing was restored (the original is in .hygiene/journal/{}/)",
                    f.path, m.batch, m.batch
                )));
            }
            let bytes = if f.existed {
                let blob = f.blob.as_deref().unwrap_or("");
                let bytes = read_small(&b.dir.join(blob), u64::MAX).ok_or_else(|| {
                    UndoFailure::Refused(format!(
                        "the journal copy of {} is missing; nothing was restored",
                        f.path
                    ))
                })?;
                if Some(sha256_hex(&bytes)) != f.sha256 {
                    return Err(UndoFailure::Refused(format!(
                        "the journal copy of {} is damaged (sha256 mismatch); nothing was restored. The other originals are in .hygiene/journal/{}/blobs",
                        f.path, m.batch
                    )));
                }
                Some(bytes)
            } else {
                None
            };
            plan.push((p, bytes));
        }
        write_private(&b.dir.join("undo-started.json"), b"{}\n")
            .map_err(|e| UndoFailure::Error(format!("journal: {e}")))?;
        for d in &m.dirs_removed {
            crate::fsio::create_dirs_inside(&self.root, d)
                .map_err(|e| UndoFailure::Error(format!("{d}: {e}")))?;
        }
        let mut report = UndoReport {
            batch: m.batch.clone(),
            restored: Vec::new(),
            removed: Vec::new(),
        };
        for (f, (p, bytes)) in m.files.iter().zip(plan) {
            match bytes {
                Some(bytes) => {
                    if current_sha(&p).ok().flatten() != f.sha256 {
                        if let Some(parent) = p.parent() {
                            std::fs::create_dir_all(parent)
                                .map_err(|e| UndoFailure::Error(format!("{}: {e}", f.path)))?;
                        }
                        fsio::atomic_write_mode(&p, &bytes, f.mode)
                            .map_err(|e| UndoFailure::Error(format!("{}: {e}", f.path)))?;
                        fsio::count_write();
                    }
                    report.restored.push(f.path.clone());
                }
                None => {
                    if std::fs::symlink_metadata(&p).is_ok() {
                        fsio::remove_file(&p)
                            .map_err(|e| UndoFailure::Error(format!("{}: {e}", f.path)))?;
                        fsio::count_write();
                        report.removed.push(f.path.clone());
                    }
                }
            }
        }
        for d in m.dirs_created.iter().rev() {
            if let Ok(p) = crate::paths::resolve_inside(&self.root, d, true) {
                // Only if empty: anything the user put there since stays.
                let _ = std::fs::remove_dir(p);
            }
        }
        write_private(
            &b.dir.join("undone.json"),
            serde_json::json!({ "undone_at": crate::time::now_utc() })
                .to_string()
                .as_bytes(),
        )
        .map_err(|e| UndoFailure::Error(format!("journal: {e}")))?;
        Ok(report)
    }
}

/// Writes a journal file, owner-only, atomically.
fn write_private(path: &Path, bytes: &[u8]) -> io::Result<()> {
    fsio::atomic_write_mode(path, bytes, Some(0o600))
}

/// The sha256 of what is at `path` now (`None` if absent); an error if it is not a file.
pub fn current_sha(path: &Path) -> Result<Option<String>, String> {
    match std::fs::symlink_metadata(path) {
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(e.to_string()),
        Ok(m) if m.is_file() => std::fs::read(path)
            .map(|b| Some(sha256_hex(&b)))
            .map_err(|e| e.to_string()),
        Ok(_) => Err("is no longer a regular file".into()),
    }
}
