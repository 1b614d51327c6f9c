//! The batch journal under `.hygiene/journal/<batch>/` and `hygiene undo`.
//!
//! Before a batch writes anything, the original bytes (and existence) of every file it will
//! touch are saved as `blobs/<n>` and listed in `manifest.json` with their sha256 and the sha256
//! the batch plans to leave, all fsynced. When the batch ends, `done.json` records each file's
//! sha256 as the batch left it. Undo restores the newest batch not yet undone, but only when
//! every file is still as the batch left it (or, for a batch that crashed before `done.json`,
//! either original or planned); otherwise it refuses and names the file. An undone batch gets
//! `undone.json` and the next undo reaches the batch before it.

use super::fsio;
use super::guards::sha256_hex;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::io;
use std::path::{Path, PathBuf};

/// One file a batch touches.
#[derive(Debug, Clone, Serialize, Deserialize)]
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
}

/// What a batch will do, written completely before its first edit.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Manifest {
    /// Journal format version (1).
    pub version: u32,
    /// The batch id (the folder name).
    pub batch: String,
    /// When the batch started (UTC).
    pub created_at: String,
    /// The report the batch applied.
    pub report: String,
    /// Every file the batch touches.
    pub files: Vec<JournalFile>,
    /// Root-relative folders the batch creates, parents first.
    pub dirs_created: Vec<String>,
    /// Root-relative folders the batch removes, parents first.
    pub dirs_removed: Vec<String>,
}

/// The state a finished batch left: sha256 per journaled path, `None` for absent.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Done {
    /// Path (as in the manifest) to sha256 after the batch.
    pub after: BTreeMap<String, Option<String>>,
}

fn write_json<T: Serialize>(path: &Path, v: &T) -> io::Result<()> {
    let text = serde_json::to_vec_pretty(v).map_err(io::Error::other)?;
    fsio::atomic_write(path, &text)
}

fn batch_ids(journal: &Path) -> Vec<(u64, PathBuf)> {
    let mut ids: Vec<(u64, PathBuf)> = std::fs::read_dir(journal)
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| {
            let n = e.file_name().to_str()?.parse::<u64>().ok()?;
            Some((n, e.path()))
        })
        .collect();
    ids.sort();
    ids
}

/// Writes the blobs and the manifest of a new batch (fsynced) and returns its folder.
pub fn begin(
    journal: &Path,
    mut manifest: Manifest,
    originals: &[Option<&[u8]>],
) -> io::Result<(PathBuf, Manifest)> {
    std::fs::create_dir_all(journal)?;
    let next = batch_ids(journal).last().map(|(n, _)| n + 1).unwrap_or(1);
    let id = format!("{next:06}");
    let dir = journal.join(&id);
    std::fs::create_dir(&dir)?;
    std::fs::create_dir(dir.join("blobs"))?;
    // Blobs go straight into the new batch folder (the manifest, written last and atomically,
    // is what makes the batch exist), each fsynced, then the folder once.
    for (i, orig) in originals.iter().enumerate() {
        if let Some(bytes) = orig {
            let name = format!("blobs/{i}");
            let mut f = std::fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .open(dir.join(&name))?;
            std::io::Write::write_all(&mut f, bytes)?;
            f.sync_all()?;
            manifest.files[i].blob = Some(name);
        }
    }
    fsio::sync_dir(&dir.join("blobs"))?;
    manifest.batch = id;
    write_json(&dir.join("manifest.json"), &manifest)?;
    fsio::sync_dir(&dir)?;
    fsio::sync_dir(journal)?;
    Ok((dir, manifest))
}

/// Records the state the batch left.
pub fn finish(batch_dir: &Path, done: &Done) -> io::Result<()> {
    write_json(&batch_dir.join("done.json"), done)
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
    /// Refused (exit 1): nothing to undo, or a file changed since the batch.
    Refused(String),
    /// I/O or journal error (exit 2).
    Error(String),
}

fn journal_path(root: &Path, f: &JournalFile) -> Result<PathBuf, UndoFailure> {
    if f.external {
        return Ok(PathBuf::from(&f.path));
    }
    crate::paths::resolve_inside(root, &f.path, true)
        .map_err(|e| UndoFailure::Refused(format!("{}: {e}", f.path)))
}

/// Restores the newest batch not yet undone under `journal`.
pub fn undo(root: &Path, journal: &Path) -> Result<UndoReport, UndoFailure> {
    let Some((dir, manifest)) = batch_ids(journal)
        .into_iter()
        .rev()
        .filter(|(_, d)| !d.join("undone.json").exists())
        .find_map(|(_, d)| {
            let bytes = std::fs::read(d.join("manifest.json")).ok()?;
            let m: Manifest = serde_json::from_slice(&bytes).ok()?;
            Some((d, m))
        })
    else {
        return Err(UndoFailure::Refused(
            "nothing to undo: no applied batch in .hygiene/journal".into(),
        ));
    };
    let done: Option<Done> = std::fs::read(dir.join("done.json"))
        .ok()
        .and_then(|b| serde_json::from_slice(&b).ok());
    // Check every file before touching any.
    let mut paths = Vec::new();
    for f in &manifest.files {
        let p = journal_path(root, f)?;
        let now = current_sha(&p).map_err(|e| UndoFailure::Refused(format!("{}: {e}", f.path)))?;
        let ok = match &done {
            Some(d) => d.after.get(&f.path).is_some_and(|after| *after == now),
            None => now == f.sha256 || now == f.planned_sha256,
        };
        if !ok {
            return Err(UndoFailure::Refused(format!(
                "{} changed since batch {} was applied; undo would lose that change (restore it by hand from .hygiene/journal/{}/)",
                f.path, manifest.batch, manifest.batch
            )));
        }
        paths.push(p);
    }
    for d in &manifest.dirs_removed {
        let p = crate::paths::resolve_inside(root, d, true)
            .map_err(|e| UndoFailure::Refused(format!("{d}: {e}")))?;
        std::fs::create_dir_all(&p).map_err(|e| UndoFailure::Error(format!("{d}: {e}")))?;
    }
    let mut report = UndoReport {
        batch: manifest.batch.clone(),
        restored: Vec::new(),
        removed: Vec::new(),
    };
    for (f, p) in manifest.files.iter().zip(&paths) {
        if f.existed {
            let blob = f.blob.as_deref().unwrap_or("");
            let bytes = std::fs::read(dir.join(blob))
                .map_err(|e| UndoFailure::Error(format!("journal blob for {}: {e}", f.path)))?;
            if Some(sha256_hex(&bytes)) != f.sha256 {
                return Err(UndoFailure::Error(format!(
                    "journal blob for {} is damaged (sha256 mismatch)",
                    f.path
                )));
            }
            if current_sha(p).ok().flatten() != f.sha256 {
                if let Some(parent) = p.parent() {
                    std::fs::create_dir_all(parent)
                        .map_err(|e| UndoFailure::Error(format!("{}: {e}", f.path)))?;
                }
                fsio::atomic_write(p, &bytes)
                    .map_err(|e| UndoFailure::Error(format!("{}: {e}", f.path)))?;
            }
            report.restored.push(f.path.clone());
        } else if p.exists() {
            fsio::remove_file(p).map_err(|e| UndoFailure::Error(format!("{}: {e}", f.path)))?;
            report.removed.push(f.path.clone());
        }
    }
    for d in manifest.dirs_created.iter().rev() {
        if let Ok(p) = crate::paths::resolve_inside(root, d, true) {
            // Only if empty: anything the user put there since stays.
            let _ = std::fs::remove_dir(p);
        }
    }
    write_json(
        &dir.join("undone.json"),
        &serde_json::json!({ "undone_at": crate::time::now_utc() }),
    )
    .map_err(|e| UndoFailure::Error(format!("journal: {e}")))?;
    Ok(report)
}
