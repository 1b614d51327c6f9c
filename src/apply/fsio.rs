//! Crash-safe file writes: every write goes to a new temporary file in the target's folder, is
//! fsynced, then renamed over the target, and the folder is fsynced, so a file on disk is always
//! either its old or its new content. The `HYGIENE_ABORT_AFTER_WRITES=k` hook aborts the
//! process right after the k-th working-tree write, which is how the crash test kills a batch.

use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};

static WRITES: AtomicUsize = AtomicUsize::new(0);
static TEMP_SEQ: AtomicUsize = AtomicUsize::new(0);

/// Counts one working-tree write and aborts when `HYGIENE_ABORT_AFTER_WRITES` says so.
pub fn count_write() {
    let n = WRITES.fetch_add(1, Ordering::SeqCst) + 1;
    let limit = std::env::var("HYGIENE_ABORT_AFTER_WRITES")
        .ok()
        .and_then(|v| v.trim().parse::<usize>().ok());
    if limit == Some(n) {
        std::process::abort();
    }
}

/// Fsyncs a folder so a rename or removal in it is durable.
pub fn sync_dir(dir: &Path) -> io::Result<()> {
    #[cfg(unix)]
    {
        File::open(dir)?.sync_all()
    }
    #[cfg(not(unix))]
    {
        let _ = dir;
        Ok(())
    }
}

fn temp_name(path: &Path) -> io::Result<std::path::PathBuf> {
    let dir = path
        .parent()
        .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "no parent folder"))?;
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let seq = TEMP_SEQ.fetch_add(1, Ordering::SeqCst);
    Ok(dir.join(format!(".{name}.hygiene-tmp-{}-{seq}", std::process::id())))
}

fn write_temp(path: &Path, bytes: &[u8]) -> io::Result<std::path::PathBuf> {
    let tmp = temp_name(path)?;
    let mut f = OpenOptions::new().write(true).create_new(true).open(&tmp)?;
    let result = (|| {
        f.write_all(bytes)?;
        // Keep the permissions of the file being replaced.
        if let Ok(meta) = std::fs::metadata(path) {
            f.set_permissions(meta.permissions())?;
        }
        f.sync_all()
    })();
    if let Err(e) = result {
        let _ = std::fs::remove_file(&tmp);
        return Err(e);
    }
    Ok(tmp)
}

/// Writes `bytes` to `path` via temp file + fsync + rename + folder fsync.
pub fn atomic_write(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let tmp = write_temp(path, bytes)?;
    if let Err(e) = std::fs::rename(&tmp, path) {
        let _ = std::fs::remove_file(&tmp);
        return Err(e);
    }
    if let Some(dir) = path.parent() {
        sync_dir(dir)?;
    }
    Ok(())
}

/// Like [`atomic_write`] but never replaces an existing file (a hard link is created, which
/// fails if the name is taken). Used for files outside the repository.
pub fn atomic_create(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let tmp = write_temp(path, bytes)?;
    let linked = std::fs::hard_link(&tmp, path);
    let _ = std::fs::remove_file(&tmp);
    linked?;
    if let Some(dir) = path.parent() {
        sync_dir(dir)?;
    }
    Ok(())
}

/// Removes a file and fsyncs its folder.
pub fn remove_file(path: &Path) -> io::Result<()> {
    std::fs::remove_file(path)?;
    if let Some(dir) = path.parent() {
        sync_dir(dir)?;
    }
    Ok(())
}
