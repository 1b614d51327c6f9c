//! The batch lock: one `hygiene apply` or `hygiene undo` at a time per repository.
//!
//! An OS advisory lock on `.hygiene/apply.lock` (`File::try_lock`), not a marker file whose
//! existence is the lock: the OS drops it when the process ends, even by `abort` or `kill -9`,
//! so a crashed batch never leaves the repository locked, and two runs cannot both win.

use std::fs::{File, OpenOptions, TryLockError};
use std::path::Path;

/// A held lock; released when dropped (or when the process ends).
#[derive(Debug)]
pub struct BatchLock {
    _file: File,
}

/// Why the lock could not be taken.
#[derive(Debug)]
pub enum LockError {
    /// Another hygiene process holds it.
    Busy,
    /// The lock file could not be opened.
    Io(std::io::Error),
}

impl BatchLock {
    /// Takes the lock at `path` without waiting.
    pub fn acquire(path: &Path) -> Result<BatchLock, LockError> {
        let file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(path)
            .map_err(LockError::Io)?;
        match file.try_lock() {
            Ok(()) => Ok(BatchLock { _file: file }),
            Err(TryLockError::WouldBlock) => Err(LockError::Busy),
            Err(TryLockError::Error(e)) => Err(LockError::Io(e)),
        }
    }
}
