//! The batch lock: one `hygiene apply` or `hygiene undo` at a time per repository.
//!
//! An OS advisory lock on `.hygiene/apply.lock` (`File::try_lock`), not a marker file whose
//! existence is the lock: the OS drops it when the process ends, even by `abort` or `kill -9`,
//! so a crashed batch never leaves the repository locked, and two runs cannot both win.

use std::fs::{File, TryLockError};
use std::path::Path;

/// How long [`BatchLock::acquire`] waits for a lock another process holds.
pub const WAIT: std::time::Duration = std::time::Duration::from_millis(200);

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
    /// Takes the lock at `path`, waiting at most [`WAIT`] for a holder to let go.
    ///
    /// The short wait is not for a second batch (that one refuses): a lock is an open file
    /// description, and a child process forked at that moment by another thread (a `git` call)
    /// holds it until its `exec`, a few microseconds after the batch released it.
    pub fn acquire(path: &Path) -> Result<BatchLock, LockError> {
        // Opened without following a link: a committed `.hygiene/apply.lock -> elsewhere`
        // must not create or lock a file outside the root.
        let file = crate::fsio::open_lock(path).map_err(LockError::Io)?;
        let deadline = std::time::Instant::now() + WAIT;
        loop {
            match file.try_lock() {
                Ok(()) => return Ok(BatchLock { _file: file }),
                Err(TryLockError::WouldBlock) if std::time::Instant::now() < deadline => {
                    std::thread::sleep(std::time::Duration::from_millis(10))
                }
                Err(TryLockError::WouldBlock) => return Err(LockError::Busy),
                Err(TryLockError::Error(e)) => return Err(LockError::Io(e)),
            }
        }
    }
}
