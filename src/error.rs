//! The helper's error values. Each says where (file, line, JSON pointer) and what to do, in one
//! line a user or a model can act on; none is a panic.

use std::fmt;
use std::path::{Path, PathBuf};

/// An error that stops a command.
#[derive(Debug)]
pub enum Error {
    /// A file could not be read or written.
    Io {
        /// The file.
        path: PathBuf,
        /// What the OS said.
        source: std::io::Error,
    },
    /// A file was read but is not what the command needs (bad JSON, wrong shape).
    Parse {
        /// The file.
        path: String,
        /// Where and what, e.g. `line 3 column 7: expected ...`.
        message: String,
    },
    /// The command line asks for something impossible.
    Usage(String),
    /// Anything else, already phrased for the user.
    Other(String),
}

impl Error {
    /// An I/O error on `path`.
    pub fn io(path: impl AsRef<Path>, source: std::io::Error) -> Error {
        Error::Io {
            path: path.as_ref().to_path_buf(),
            source,
        }
    }

    /// The process exit code: 2 for usage and I/O errors (the contract's "usage or I/O error").
    pub fn exit_code(&self) -> i32 {
        2
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Io { path, source } => write!(f, "{}: {source}", path.display()),
            Error::Parse { path, message } => write!(f, "{path}: {message}"),
            Error::Usage(m) | Error::Other(m) => f.write_str(m),
        }
    }
}

impl std::error::Error for Error {}

/// The crate's result type.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Reads a regular file as bytes, naming the file on failure. Anything else (a FIFO would block
/// the read forever, a device never ends) is refused before it is opened.
pub fn read(path: &Path) -> Result<Vec<u8>> {
    read_optional(path)?
        .ok_or_else(|| Error::io(path, std::io::Error::from(std::io::ErrorKind::NotFound)))
}

/// Like [`read`], but a file that does not exist is `Ok(None)`: for optional configuration such
/// as `.hygiene/rulebook.json`.
pub fn read_optional(path: &Path) -> Result<Option<Vec<u8>>> {
    match std::fs::metadata(path) {
        Ok(m) if m.is_file() => std::fs::read(path)
            .map(Some)
            .map_err(|e| Error::io(path, e)),
        Ok(_) => Err(Error::Other(format!(
            "{}: not a regular file; hygiene reads only regular files",
            path.display()
        ))),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(Error::io(path, e)),
    }
}

/// Parses JSON text, naming the file, line and column on failure.
pub fn parse_json<T: serde::de::DeserializeOwned>(path: &str, bytes: &[u8]) -> Result<T> {
    serde_json::from_slice(bytes).map_err(|e| Error::Parse {
        path: path.to_string(),
        message: format!("line {} column {}: {e}", e.line(), e.column()),
    })
}
