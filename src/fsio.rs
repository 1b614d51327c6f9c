//! Every write the helper makes, in one place, so that none of them follows a link.
//!
//! A repository is untrusted input: it may commit `.hygiene/report.json` (or its temporary
//! name) as a symbolic link to a file elsewhere. So no write here opens an existing name for
//! writing. New bytes go to a fresh temporary file in the target's folder, created with
//! `O_CREAT|O_EXCL` (which never follows a link), fsynced, then renamed over the target (a rename
//! replaces a name; it does not write through it), and the folder is fsynced: a file on disk is
//! always either its old or its new content. A target that is itself a link is refused, never
//! replaced silently. The lock is opened with `O_NOFOLLOW`.
//!
//! Temporary names are `.<name>.hygiene-tmp-<tag>`; [`remove_temps`] removes what a killed
//! process left. The `HYGIENE_ABORT_AFTER_WRITES=k` hook aborts the process right after the k-th
//! working-tree write, which is how the crash tests kill a batch.

use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

static WRITES: AtomicUsize = AtomicUsize::new(0);
static TEMP_SEQ: AtomicUsize = AtomicUsize::new(0);

/// The marker in every temporary file name.
pub const TEMP_MARK: &str = ".hygiene-tmp-";

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

fn temp_name(path: &Path) -> io::Result<PathBuf> {
    let dir = path
        .parent()
        .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "no parent folder"))?;
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let seq = TEMP_SEQ.fetch_add(1, Ordering::SeqCst);
    Ok(dir.join(format!(".{name}{TEMP_MARK}{}-{seq}", std::process::id())))
}

/// Refuses a name that is a link or anything but a regular file (a missing name is fine).
fn refuse_non_file(path: &Path) -> io::Result<Option<std::fs::Metadata>> {
    match std::fs::symlink_metadata(path) {
        Ok(m) if m.file_type().is_symlink() => Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "is a symbolic link; hygiene never writes through links (remove it)",
        )),
        Ok(m) if !m.is_file() => Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "is not a regular file",
        )),
        Ok(m) => Ok(Some(m)),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(e),
    }
}

/// Permission bits of a file (Unix mode bits; `None` elsewhere).
pub fn mode_of(meta: &std::fs::Metadata) -> Option<u32> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        Some(meta.permissions().mode() & 0o7777)
    }
    #[cfg(not(unix))]
    {
        let _ = meta;
        None
    }
}

fn set_mode(f: &File, mode: u32) -> io::Result<()> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        f.set_permissions(std::fs::Permissions::from_mode(mode))
    }
    #[cfg(not(unix))]
    {
        let _ = (f, mode);
        Ok(())
    }
}

/// Creates a new file that must not exist (never through a link), with `mode` when given.
fn create_new(path: &Path, mode: Option<u32>) -> io::Result<File> {
    let mut o = OpenOptions::new();
    o.write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        o.mode(mode.unwrap_or(0o666));
    }
    let f = o.open(path)?;
    if let Some(m) = mode {
        // The umask may have narrowed the creation mode; a restored file gets its own bits back.
        set_mode(&f, m)?;
    }
    Ok(f)
}

fn write_temp(path: &Path, bytes: &[u8], mode: Option<u32>) -> io::Result<PathBuf> {
    let tmp = temp_name(path)?;
    let mut f = create_new(&tmp, mode)?;
    let result = (|| {
        f.write_all(bytes)?;
        f.sync_all()
    })();
    if let Err(e) = result {
        let _ = std::fs::remove_file(&tmp);
        return Err(e);
    }
    Ok(tmp)
}

/// Writes `bytes` to `path` via a new temporary file + fsync + rename + folder fsync. The file
/// keeps the permission bits of the file it replaces. A `path` that is a link (or not a regular
/// file) is refused.
pub fn atomic_write(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let mode = refuse_non_file(path)?.as_ref().and_then(mode_of);
    atomic_write_mode(path, bytes, mode)
}

/// Like [`atomic_write`], with the permission bits given (`None`: the default for a new file).
pub fn atomic_write_mode(path: &Path, bytes: &[u8], mode: Option<u32>) -> io::Result<()> {
    refuse_non_file(path)?;
    let tmp = write_temp(path, bytes, mode)?;
    if let Err(e) = std::fs::rename(&tmp, path) {
        let _ = std::fs::remove_file(&tmp);
        return Err(e);
    }
    if let Some(dir) = path.parent() {
        sync_dir(dir)?;
    }
    Ok(())
}

/// Like [`atomic_write`] but never replaces an existing name (a hard link is created, which
/// fails if the name is taken). Used for files outside the repository.
pub fn atomic_create(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let tmp = write_temp(path, bytes, None)?;
    let linked = std::fs::hard_link(&tmp, path);
    let _ = std::fs::remove_file(&tmp);
    linked?;
    if let Some(dir) = path.parent() {
        sync_dir(dir)?;
    }
    Ok(())
}

/// Creates `path`, which must not exist, readable by its owner only, and fsyncs it: the
/// journal's copies of documents and the journal key.
pub fn create_private(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let mut f = create_new(path, Some(0o600))?;
    f.write_all(bytes)?;
    f.sync_all()
}

/// Creates a folder readable by its owner only (the parent must exist; an existing name fails).
pub fn create_private_dir(path: &Path) -> io::Result<()> {
    let mut b = std::fs::DirBuilder::new();
    #[cfg(unix)]
    {
        use std::os::unix::fs::DirBuilderExt;
        b.mode(0o700);
    }
    b.create(path)
}

/// Removes a file and fsyncs its folder.
pub fn remove_file(path: &Path) -> io::Result<()> {
    std::fs::remove_file(path)?;
    if let Some(dir) = path.parent() {
        sync_dir(dir)?;
    }
    Ok(())
}

/// Opens (creating if needed) a lock file without following a link at its name.
pub fn open_lock(path: &Path) -> io::Result<File> {
    refuse_non_file(path)?;
    let mut o = OpenOptions::new();
    o.read(true).write(true).create(true).truncate(false);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        o.custom_flags(libc::O_NOFOLLOW).mode(0o600);
    }
    let f = o.open(path)?;
    if !f.metadata()?.is_file() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "is not a regular file",
        ));
    }
    Ok(f)
}

/// Removes the temporary files a killed writer left beside `path` (`.<name>.hygiene-tmp-*`).
/// Returns how many were removed. Only regular files are removed.
pub fn remove_temps(path: &Path) -> usize {
    let (Some(dir), Some(name)) = (path.parent(), path.file_name()) else {
        return 0;
    };
    let prefix = format!(".{}{TEMP_MARK}", name.to_string_lossy());
    let Ok(rd) = std::fs::read_dir(dir) else {
        return 0;
    };
    let mut n = 0;
    for e in rd.flatten() {
        let is_temp = e.file_name().to_string_lossy().starts_with(&prefix);
        if is_temp
            && e.file_type().is_ok_and(|t| t.is_file())
            && std::fs::remove_file(e.path()).is_ok()
        {
            n += 1;
        }
    }
    n
}

/// Creates the missing folders of root-relative folder `rel_dir` one by one, never through a
/// link (each existing component was checked by [`crate::paths::resolve_inside`]).
pub fn create_dirs_inside(root: &Path, rel_dir: &str) -> crate::Result<()> {
    let mut at = String::new();
    for seg in rel_dir.split('/').filter(|s| !s.is_empty()) {
        if !at.is_empty() {
            at.push('/');
        }
        at.push_str(seg);
        let p = crate::paths::resolve_inside(root, &at, true)
            .map_err(|e| crate::Error::Other(format!("{at}: {e}")))?;
        match std::fs::symlink_metadata(&p) {
            Ok(m) if m.is_dir() => {}
            Ok(_) => {
                return Err(crate::Error::Other(format!(
                    "{at}: not a folder, so nothing can be written under it"
                )))
            }
            Err(_) => std::fs::create_dir(&p).map_err(|e| crate::Error::io(&p, e))?,
        }
    }
    Ok(())
}

/// Writes root-relative `rel` under `root` atomically: every component under the root must be
/// a real folder (created when missing) and the file a regular file or absent.
pub fn write_inside(root: &Path, rel: &str, bytes: &[u8]) -> crate::Result<PathBuf> {
    let path = crate::paths::resolve_inside(root, rel, true)
        .map_err(|e| crate::Error::Other(format!("{rel}: {e}")))?;
    if let Some((dir, _)) = rel.rsplit_once('/') {
        create_dirs_inside(root, dir)?;
    }
    atomic_write(&path, bytes).map_err(|e| crate::Error::io(&path, e))?;
    Ok(path)
}

/// [`write_inside`] without the fsyncs, the bytes written by `fill` through a buffer (a large
/// file is never held whole in memory): for files that are safe to lose and check themselves
/// when read. A temporary file renamed over the name; never through a link.
pub fn write_inside_unsynced(
    root: &Path,
    rel: &str,
    fill: &mut dyn FnMut(&mut dyn Write) -> io::Result<()>,
) -> crate::Result<PathBuf> {
    let path = crate::paths::resolve_inside(root, rel, true)
        .map_err(|e| crate::Error::Other(format!("{rel}: {e}")))?;
    if let Some((dir, _)) = rel.rsplit_once('/') {
        create_dirs_inside(root, dir)?;
    }
    remove_temps(&path);
    let io = |e| crate::Error::io(&path, e);
    let mode = refuse_non_file(&path)
        .map_err(io)?
        .as_ref()
        .and_then(mode_of);
    let tmp = temp_name(&path).map_err(io)?;
    let f = create_new(&tmp, mode).map_err(io)?;
    let mut w = std::io::BufWriter::with_capacity(1 << 20, f);
    let written = fill(&mut w)
        .and_then(|()| w.flush())
        .and_then(|()| std::fs::rename(&tmp, &path));
    if let Err(e) = written {
        let _ = std::fs::remove_file(&tmp);
        return Err(io(e));
    }
    Ok(path)
}

/// Writes an output file the user named (`--out FILE`): inside the root by the rules of
/// [`write_inside`] (a committed link cannot redirect it), elsewhere atomically beside it,
/// never through a link at its name.
pub fn write_output(root: Option<&Path>, path: &Path, bytes: &[u8]) -> crate::Result<()> {
    let abs = if path.is_absolute() {
        path.to_path_buf()
    } else {
        std::env::current_dir()
            .map_err(|e| crate::Error::io(".", e))?
            .join(path)
    };
    let abs = lexical_normalize(&abs);
    if let Some(root) = root {
        let croot = root.canonicalize().map_err(|e| crate::Error::io(root, e))?;
        if let Some(rel) = crate::paths::to_rel(&croot, &abs) {
            return write_inside(&croot, &rel, bytes).map(|_| ());
        }
    }
    if let Some(parent) = abs.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(parent).map_err(|e| crate::Error::io(parent, e))?;
    }
    atomic_write(&abs, bytes).map_err(|e| crate::Error::io(&abs, e))
}

/// `a/./b/../c` as `a/c`, without touching the file system.
fn lexical_normalize(p: &Path) -> PathBuf {
    use std::path::Component;
    let mut out = PathBuf::new();
    for c in p.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other.as_os_str()),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(unix)]
    #[test]
    fn writes_never_follow_a_link_at_the_target_or_its_temporary_name() {
        let d = tempfile::tempdir().unwrap();
        let outside = d.path().join("outside.txt");
        std::fs::write(&outside, "keep").unwrap();
        let target = d.path().join("report.json");
        std::os::unix::fs::symlink(&outside, &target).unwrap();
        assert!(atomic_write(&target, b"new").is_err());
        assert!(open_lock(&target).is_err());
        assert_eq!(std::fs::read_to_string(&outside).unwrap(), "keep");
        // A planted link at any name never receives bytes: temporary names are created new.
        let real = d.path().join("a.md");
        std::fs::write(&real, "old").unwrap();
        atomic_write(&real, b"new").unwrap();
        assert_eq!(std::fs::read_to_string(&real).unwrap(), "new");
        assert_eq!(std::fs::read_to_string(&outside).unwrap(), "keep");
    }

    #[cfg(unix)]
    #[test]
    fn modes_are_kept_or_set_and_private_files_are_private() {
        use std::os::unix::fs::PermissionsExt;
        let d = tempfile::tempdir().unwrap();
        let p = d.path().join("a.md");
        std::fs::write(&p, "x").unwrap();
        std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o600)).unwrap();
        atomic_write(&p, b"y").unwrap();
        assert_eq!(
            std::fs::metadata(&p).unwrap().permissions().mode() & 0o777,
            0o600
        );
        atomic_write_mode(&p, b"z", Some(0o640)).unwrap();
        assert_eq!(
            std::fs::metadata(&p).unwrap().permissions().mode() & 0o777,
            0o640
        );
        let k = d.path().join("key");
        create_private(&k, b"s").unwrap();
        assert_eq!(
            std::fs::metadata(&k).unwrap().permissions().mode() & 0o777,
            0o600
        );
        assert!(create_private(&k, b"s").is_err(), "never overwrites");
    }

    #[test]
    fn temps_left_by_a_killed_writer_are_removed() {
        let d = tempfile::tempdir().unwrap();
        let p = d.path().join("a.md");
        std::fs::write(&p, "x").unwrap();
        std::fs::write(d.path().join(format!(".a.md{TEMP_MARK}123-0")), "half").unwrap();
        std::fs::write(d.path().join(".b.md.hygiene-tmp-1-0"), "other").unwrap();
        assert_eq!(remove_temps(&p), 1);
        assert!(d.path().join(".b.md.hygiene-tmp-1-0").exists());
        assert_eq!(std::fs::read_to_string(&p).unwrap(), "x");
    }
}
