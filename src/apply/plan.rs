//! The batch is planned in memory before anything is written: a [`Workspace`] holds, per file,
//! the bytes at batch start and the bytes the entries planned so far leave. Each entry's op
//! reads the current bytes, checks its guards and returns an [`EntryPlan`]; only a plan that
//! passed every guard is committed, so a refused entry leaves no trace.
//!
//! Anchors stay true because each file keeps a *watermark*: the lowest line any committed edit
//! touched. Entries run bottom-up per file, and an entry whose anchor reaches the watermark is
//! refused rather than applied to shifted lines. Spans a `dedupe` relied on are *protected*: a
//! later entry may not remove the copy that made the dedupe non-destructive.
//!
//! A file this helper already changed from the same report (an earlier batch: the auto tier,
//! then approvals one by one) is *rebased*: the journal proves its current bytes are exactly
//! what those batches wrote over the bytes the check saw, so the batch starts from the checked
//! bytes, replays the entries already applied and plans the new ones on top (see
//! [`super::history`]). Its guards compare fingerprints with the checked bytes.

use super::guards::{self, sha256_hex};
use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::{Path, PathBuf};

/// Why an entry was refused, and whether the cure is a fresh check.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    /// What is wrong, in a sentence naming the file.
    pub reason: String,
    /// The report no longer matches the files: advise re-running `/hygiene:check`.
    pub stale: bool,
}

impl Refusal {
    /// A refusal a fresh check would cure.
    pub fn stale(reason: impl Into<String>) -> Refusal {
        Refusal {
            reason: reason.into(),
            stale: true,
        }
    }

    /// A refusal a fresh check would not cure (hostile path, conflicting entries).
    pub fn hard(reason: impl Into<String>) -> Refusal {
        Refusal {
            reason: reason.into(),
            stale: false,
        }
    }
}

/// One file as the batch sees it.
#[derive(Debug, Clone)]
pub struct Slot {
    /// Where it is on disk.
    pub abs: PathBuf,
    /// Outside the repository (a cross-repo extraction target).
    pub external: bool,
    /// Bytes on disk at batch start; `None` when absent. The journal keeps these.
    pub original: Option<Vec<u8>>,
    /// The bytes the check saw, which the guards and anchors refer to: `original`, or for a
    /// rebased file the bytes before this helper's earlier batches of the same report.
    pub base: Option<Vec<u8>>,
    /// Rebased on the journal (see the module doc): its mtime is the earlier batch's.
    pub rebased: bool,
    /// Bytes after the entries committed so far; `None` when removed.
    pub current: Option<Vec<u8>>,
    /// Lowest 1-based line a committed edit touched (`u32::MAX`: untouched).
    pub watermark: u32,
    /// Whether every committed edit that touched the watermark's line rewrote within that line
    /// only ([`Change::in_line`]): two renames on one line both apply.
    pub in_line_at_watermark: bool,
    /// Line spans (original numbering) that committed dedupes keep, with the entry index.
    pub protected: Vec<(u32, u32, usize)>,
    /// Entries that changed this file.
    pub entries: Vec<usize>,
}

impl Slot {
    /// Whether no committed entry changed or relies on this file.
    pub fn untouched(&self) -> bool {
        self.watermark == u32::MAX && self.protected.is_empty()
    }

    /// Whether the batch changes the file.
    pub fn changed(&self) -> bool {
        self.original != self.current
    }

    /// sha256 of the bytes on disk at batch start.
    pub fn original_sha(&self) -> Option<String> {
        self.original.as_deref().map(sha256_hex)
    }

    /// sha256 of the bytes the check saw.
    pub fn base_sha(&self) -> Option<String> {
        self.base.as_deref().map(sha256_hex)
    }
}

/// A change an entry wants to make to one file.
#[derive(Debug, Clone)]
pub struct Change {
    /// The slot key (root-relative path, or absolute for an external file).
    pub key: String,
    /// New bytes, or `None` to remove the file.
    pub content: Option<Vec<u8>>,
    /// The lowest line the change touches (0: the whole file).
    pub touched_from: u32,
    /// It rewrites text within line `touched_from` alone and leaves every line where it was
    /// (a `replace-text` of one line): a later one-line rewrite of that same line still finds
    /// its anchor true.
    pub in_line: bool,
}

/// Everything one entry will do, committed all or nothing.
#[derive(Debug, Clone, Default)]
pub struct EntryPlan {
    /// File changes, in the order they were planned.
    pub changes: Vec<Change>,
    /// Spans to protect: (key, start, end).
    pub protect: Vec<(String, u32, u32)>,
    /// Folders to create (root-relative, parents first).
    pub dirs_create: Vec<String>,
    /// Folders to remove (root-relative, parents first).
    pub dirs_remove: Vec<String>,
}

/// The in-memory batch.
#[derive(Debug)]
pub struct Workspace {
    /// The canonical root.
    pub root: PathBuf,
    /// The report's `generated_at`, Unix seconds.
    pub generated_at: i64,
    /// Files by key.
    pub slots: BTreeMap<String, Slot>,
    /// Folders the batch creates, parents first.
    pub dirs_created: Vec<String>,
    /// Folders the batch removes, parents first.
    pub dirs_removed: Vec<String>,
    /// Checked bytes of rebased files, by key.
    pub rebase: HashMap<String, Option<Vec<u8>>>,
    /// Entries earlier batches applied, replayed on rebased files.
    pub prior: HashSet<usize>,
    /// The file behind each slot (device, inode), so two names of one file are caught.
    identities: HashMap<(u64, u64), String>,
}

/// The (device, inode) of a file, where the platform has them.
fn identity(meta: &std::fs::Metadata) -> Option<(u64, u64)> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        Some((meta.dev(), meta.ino()))
    }
    #[cfg(not(unix))]
    {
        let _ = meta;
        None
    }
}

impl Workspace {
    /// An empty batch over `root`.
    pub fn new(root: &Path, generated_at: i64) -> Workspace {
        Workspace {
            root: root.to_path_buf(),
            generated_at,
            slots: BTreeMap::new(),
            dirs_created: Vec::new(),
            dirs_removed: Vec::new(),
            rebase: HashMap::new(),
            prior: HashSet::new(),
            identities: HashMap::new(),
        }
    }

    /// The slot for `key`, read from disk the first time. A directory or a link is refused:
    /// slots are regular files or absent names. Two names of one file (hard links) are refused:
    /// a dedupe would otherwise keep its "copy" in the file it removes it from.
    pub fn slot(&mut self, key: &str, abs: &Path, external: bool) -> Result<&Slot, Refusal> {
        if !self.slots.contains_key(key) {
            let original = match std::fs::symlink_metadata(abs) {
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
                Err(e) => return Err(Refusal::hard(format!("`{key}`: {e}"))),
                Ok(m) if m.is_file() => {
                    if let Some(id) = identity(&m) {
                        if let Some(other) = self.identities.get(&id).filter(|o| *o != key) {
                            return Err(Refusal::hard(format!(
                                "`{key}` is the same file as `{other}` (a hard link); hygiene edits and compares one name per file"
                            )));
                        }
                        self.identities.insert(id, key.to_string());
                    }
                    Some(std::fs::read(abs).map_err(|e| Refusal::hard(format!("`{key}`: {e}")))?)
                }
                Ok(m) if m.is_dir() => {
                    return Err(Refusal::stale(format!(
                        "`{key}` is a directory, not a file"
                    )))
                }
                Ok(_) => {
                    return Err(Refusal::hard(format!(
                        "`{key}` is not a regular file; hygiene does not write through links"
                    )))
                }
            };
            let (base, rebased) = match self.rebase.get(key) {
                Some(b) => (b.clone(), true),
                None => (original.clone(), false),
            };
            self.slots.insert(
                key.to_string(),
                Slot {
                    abs: abs.to_path_buf(),
                    external,
                    current: base.clone(),
                    base,
                    rebased,
                    original,
                    watermark: u32::MAX,
                    in_line_at_watermark: false,
                    protected: Vec::new(),
                    entries: Vec::new(),
                },
            );
        }
        Ok(&self.slots[key])
    }

    /// The target of a file entry, guarded: inside the root, present, fingerprint (when
    /// `expected` is given) and mtime as at check time. Returns its current text.
    pub fn target(
        &mut self,
        rel: &str,
        expected: Option<&str>,
        deterministic: bool,
    ) -> Result<String, Refusal> {
        let bytes = self.guarded(rel, expected, deterministic)?;
        String::from_utf8(bytes).map_err(|_| Refusal::hard(format!("`{rel}` is not UTF-8 text")))
    }

    /// Like [`Workspace::target`], for ops that do not read the text (a whole-file delete):
    /// returns the current bytes, whatever they are.
    pub fn guarded(
        &mut self,
        rel: &str,
        expected: Option<&str>,
        deterministic: bool,
    ) -> Result<Vec<u8>, Refusal> {
        let abs = guards::resolve(&self.root, "path", rel, true).map_err(Refusal::hard)?;
        let generated_at = self.generated_at;
        let slot = self.slot(rel, &abs, false)?;
        if slot.base.is_none() {
            return Err(Refusal::stale(format!("`{rel}` does not exist")));
        }
        if slot.current.is_none() {
            return Err(Refusal::hard(format!(
                "`{rel}` is removed by an earlier entry of this batch"
            )));
        }
        if deterministic {
            let Some(expected) = expected else {
                return Err(Refusal::hard(format!(
                    "the entry for `{rel}` has no expected_sha256"
                )));
            };
            let actual = slot.base_sha().unwrap_or_default();
            if !actual.eq_ignore_ascii_case(expected) {
                return Err(Refusal::stale(format!(
                    "`{rel}` changed since the check (sha256 {} is not the expected {})",
                    short(&actual),
                    short(expected)
                )));
            }
        }
        // A rebased file's bytes were written by an earlier batch (after the check), and its
        // checked bytes are proven by the journal instead.
        if !slot.rebased {
            guards::check_mtime(&abs, rel, generated_at).map_err(Refusal::stale)?;
        }
        Ok(slot.current.clone().unwrap_or_default())
    }

    /// Refuses an anchored edit of `key` whose lines an earlier entry changed or whose removal
    /// would take a span a dedupe kept.
    pub fn check_lines(
        &self,
        key: &str,
        (start, end): (u32, u32),
        removes: bool,
        in_line: bool,
    ) -> Result<(), Refusal> {
        let Some(slot) = self.slots.get(key) else {
            return Ok(());
        };
        // A one-line rewrite of the line where only one-line rewrites happened so far: no line
        // moved, so its anchor is still true (the op itself checks its text is still there).
        let same_line_rewrites =
            in_line && start == end && end == slot.watermark && slot.in_line_at_watermark;
        if end >= slot.watermark && !same_line_rewrites {
            return Err(Refusal::hard(format!(
                "lines {start}-{end} of `{key}` overlap lines an earlier entry of this batch changed (entry {})",
                slot.entries.last().copied().unwrap_or_default()
            )));
        }
        if removes {
            if let Some((ps, pe, e)) = slot
                .protected
                .iter()
                .find(|(ps, pe, _)| start <= *pe && *ps <= end)
            {
                return Err(Refusal::hard(format!(
                    "lines {start}-{end} of `{key}` hold lines {ps}-{pe}, the copy entry {e}'s dedupe keeps"
                )));
            }
        }
        Ok(())
    }

    /// Refuses an op that replaces or removes a whole file the batch already changed or relies
    /// on. Entries replayed from earlier batches do not count: their result is the file's
    /// current content, which the whole-file op replaces knowingly.
    pub fn check_untouched(&self, key: &str) -> Result<(), Refusal> {
        let Some(s) = self.slots.get(key) else {
            return Ok(());
        };
        let new_change = s.entries.iter().any(|e| !self.prior.contains(e));
        let new_reliance = s.protected.iter().any(|(_, _, e)| !self.prior.contains(e));
        if new_change || new_reliance {
            return Err(Refusal::hard(format!(
                "`{key}` is changed or relied on by an earlier entry of this batch"
            )));
        }
        Ok(())
    }

    /// Commits an entry's plan.
    pub fn commit(&mut self, entry: usize, plan: EntryPlan) {
        for c in plan.changes {
            if let Some(slot) = self.slots.get_mut(&c.key) {
                slot.current = c.content;
                if c.touched_from < slot.watermark {
                    slot.in_line_at_watermark = c.in_line;
                } else if c.touched_from == slot.watermark {
                    slot.in_line_at_watermark &= c.in_line;
                }
                slot.watermark = slot.watermark.min(c.touched_from);
                slot.entries.push(entry);
            }
        }
        for (key, s, e) in plan.protect {
            if let Some(slot) = self.slots.get_mut(&key) {
                slot.protected.push((s, e, entry));
            }
        }
        for d in plan.dirs_create {
            if !self.dirs_created.contains(&d) {
                self.dirs_created.push(d);
            }
        }
        for d in plan.dirs_remove {
            if !self.dirs_removed.contains(&d) {
                self.dirs_removed.push(d);
            }
        }
    }

    /// The slots the batch changes, in key order.
    pub fn changed(&self) -> impl Iterator<Item = (&String, &Slot)> {
        self.slots.iter().filter(|(_, s)| s.changed())
    }
}

/// The first 12 hex digits of a sha, for messages.
pub fn short(sha: &str) -> &str {
    sha.get(..12).unwrap_or(sha)
}
