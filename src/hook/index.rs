//! The hook's memory between tool calls: which paths the documents' references can name, and
//! which of them existed at the last look.
//!
//! Why an index: "this reference just broke" is a comparison of two moments, and the moment
//! before the tool call is gone by the time the hook runs. Parsing every document again on
//! every tool call would cost far more than the 50 ms a hook may take, so each document is
//! parsed once and re-parsed only when its size or modification time changes; what is kept is
//! exactly what the comparison needs: per document, the paths its references name
//! ([`crate::scan::refs::candidates`], see [`lists`]) in the [`Index`]; per path, whether it
//! existed, and per folder its modification time, in the small [`Watch`] every call reads. Line
//! numbers and the text of a fix are recomputed from the document itself on the rare call that
//! reports something.
//!
//! Both files are caches: each is replaced atomically (a reader sees the old or the new one), a
//! missing, unreadable or foreign-version file is rebuilt silently, and losing one costs one
//! call that reports nothing.

use crate::scan::markdown;
use crate::scan::refs::{self, Target, Tree};
use serde::{Deserialize, Serialize};
use std::path::Path;

/// Where the index lives, root-relative.
pub const INDEX_FILE: &str = ".hygiene/hook-index.json";

/// Where the folder watch lives, root-relative: the small file every call reads.
pub const WATCH_FILE: &str = ".hygiene/hook-watch.json";

/// The lock that serializes hook runs in one repository, root-relative.
pub const LOCK_FILE: &str = ".hygiene/hook.lock";

/// The index format; a file of another version is rebuilt, never read.
pub const INDEX_VERSION: u32 = 1;

/// The index as stored. Compact on purpose (arrays, ids): it is read whenever a folder changed.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Index {
    /// [`INDEX_VERSION`].
    pub version: u32,
    /// The helper version that wrote it; another version rebuilds it (its parser may differ).
    pub tool: String,
    /// Written with the [`Watch`] of the same generation; a mismatch (a crash between the two
    /// writes) rebuilds both.
    pub generation: u64,
    /// Every root-relative path some reference can name; whether each existed at the last
    /// look is in [`Watch::exists`], which changes far more often than this file.
    pub targets: Vec<String>,
    /// Every document, sorted by path.
    pub docs: Vec<DocEntry>,
}

/// What every call reads first: the modification time of each folder that holds a document or
/// a path some reference names. Removing, creating or renaming an entry changes its folder's
/// time, so when no folder changed no named path can have gone and no document can have
/// appeared or vanished, and the call ends here (a few hundred `stat`s instead of a walk).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Watch {
    /// [`INDEX_VERSION`].
    pub version: u32,
    /// The helper version that wrote it.
    pub tool: String,
    /// The [`Index`] generation it belongs to.
    pub generation: u64,
    /// A hash of the scope globs and excluded folders: other settings, other documents, rebuild.
    pub config: u64,
    /// When it was written (ns since the epoch). A folder whose time is this close to it
    /// ([`RACY_NS`]) is looked at again next time: file times are coarse, and a change in the
    /// same tick as the one recorded would not show.
    pub written_ns: u64,
    /// The folder the last tool call ended in (absolute): where the next Bash command starts,
    /// which relative paths in that command are relative to.
    pub cwd: Option<String>,
    /// Root-relative folders (`""` for the root), sorted, with their modification times (ns)
    /// and whether the walk lists them (a document folder: looked at again when it changes),
    /// or they are only where a named path lives (an ignored or excluded place: only its named
    /// paths are checked again).
    pub dirs: Vec<(String, u64, bool)>,
    /// Whether each of [`Index::targets`] existed at the last look: a bit per target, as hex
    /// (bit `i % 4` of digit `i / 4`). Kept here so a call that only sees paths come and go
    /// rewrites this small file, not the index.
    pub exists: String,
}

/// Packs bits as hex digits (four bits a digit, lowest first).
///
/// ```
/// use hygiene::hook::index::{pack_bits, unpack_bits};
/// let bits = [true, false, false, true, true];
/// assert_eq!(pack_bits(&bits), "91");
/// assert_eq!(unpack_bits("91", 5), Some(bits.to_vec()));
/// assert_eq!(unpack_bits("91", 9), None, "too short");
/// assert_eq!(unpack_bits("9g", 5), None);
/// ```
pub fn pack_bits(bits: &[bool]) -> String {
    bits.chunks(4)
        .map(|c| {
            let v = c
                .iter()
                .enumerate()
                .fold(0u32, |v, (i, &b)| v | (u32::from(b) << i));
            char::from_digit(v, 16).unwrap_or('0')
        })
        .collect()
}

/// Unpacks `n` bits packed by [`pack_bits`]; `None` when the text does not hold `n` of them.
pub fn unpack_bits(hex: &str, n: usize) -> Option<Vec<bool>> {
    if hex.len() != n.div_ceil(4) {
        return None;
    }
    let mut out = Vec::with_capacity(n);
    for c in hex.chars() {
        let v = c.to_digit(16)?;
        for i in 0..4 {
            if out.len() < n {
                out.push(v & (1 << i) != 0);
            }
        }
    }
    Some(out)
}

/// How close to [`Watch::written_ns`] a folder time must be to be looked at again (2 s, more
/// than any file-system time granularity in use).
pub const RACY_NS: u64 = 2_000_000_000;

/// One document: `(path, mtime_ns, size, refs)`, where each reference is the list of its
/// candidate paths as ids into [`Index::targets`], in resolution order (duplicates removed).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct DocEntry(pub String, pub u64, pub u64, pub Vec<Vec<u32>>);

/// A document's identity on disk: `(mtime_ns, size)`. A change of either means re-parse.
pub type Stamp = (u64, u64);

fn mtime_ns(meta: &std::fs::Metadata) -> u64 {
    meta.modified()
        .ok()
        .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
        .map_or(0, |d| d.as_nanos() as u64)
}

/// The stamp of a root-relative document, `None` when it cannot be read as a regular file.
pub fn stamp(root: &Path, rel: &str) -> Option<Stamp> {
    let meta = std::fs::symlink_metadata(root.join(rel)).ok()?;
    meta.is_file().then(|| (mtime_ns(&meta), meta.len()))
}

/// The modification time of a root-relative folder (`""`: the root), `None` when it is not a
/// folder (gone, or a link).
pub fn dir_time(root: &Path, rel: &str) -> Option<u64> {
    let meta = std::fs::symlink_metadata(root.join(rel)).ok()?;
    meta.is_dir().then(|| mtime_ns(&meta))
}

/// Now, in ns since the epoch.
pub fn now_ns() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64)
}

/// One path reference of a document, as the hook tracks it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PathRef {
    /// 1-based line.
    pub line: u32,
    /// The path part as written ([`refs::path_part`]): what a fix replaces.
    pub written: String,
    /// Its candidate paths in resolution order, each with whether it is folder-relative.
    pub candidates: Vec<(String, bool)>,
}

/// The references of a document that name a path in the tree: those the scanner checks
/// ([`refs::resolve`] does not skip them, and they name a concrete path, not a bare file name
/// found anywhere). The same parser and resolution rules as `hygiene scan`.
pub fn path_refs(tree: &Tree, doc: &str, text: &str) -> Vec<PathRef> {
    let parsed = markdown::parse(markdown::strip_bom(text));
    parsed
        .refs
        .iter()
        .filter_map(|r| {
            match refs::resolve(tree, doc, r) {
                Target::Skip | Target::Found { path: None, .. } => return None,
                _ => {}
            }
            written_ref(doc, r)
        })
        .collect()
}

fn written_ref(doc: &str, r: &markdown::Ref) -> Option<PathRef> {
    let written = refs::path_part(r);
    if written.is_empty() {
        return None;
    }
    let candidates = refs::candidates(doc, written);
    (!candidates.is_empty()).then(|| PathRef {
        line: r.line,
        written: written.to_string(),
        candidates,
    })
}

/// Every reference of a document as it is written now, with its candidates, whatever the tree
/// says: what a report matches tracked candidate lists against (a reference the scanner would
/// now skip, like an extension-less path whose folder just went away, still matches).
pub fn written_refs(doc: &str, text: &str) -> Vec<PathRef> {
    let parsed = markdown::parse(markdown::strip_bom(text));
    parsed
        .refs
        .iter()
        .filter_map(|r| written_ref(doc, r))
        .collect()
}

/// The paths to watch for a document's tracked references, duplicates removed, in order: for a
/// reference that resolves, the path it resolves to (the first candidate that exists, per
/// `exists`); for one that does not, every candidate, so whichever appears is seen. The
/// candidates before the resolved one are left out: a reference is broken when the path it
/// named goes and no candidate exists, which the report checks against the document itself.
pub fn lists(refs: &[PathRef], exists: &dyn Fn(&str) -> bool) -> Vec<Vec<String>> {
    let mut out: Vec<Vec<String>> = Vec::new();
    for r in refs {
        let l: Vec<String> = match r.candidates.iter().find(|(p, _)| exists(p)) {
            Some((p, _)) => vec![p.clone()],
            None => r.candidates.iter().map(|(p, _)| p.clone()).collect(),
        };
        if !out.contains(&l) {
            out.push(l);
        }
    }
    out
}

/// Reads a JSON cache file under `root`: `None` when there is none, or it is not a regular file
/// inside the root, or not valid.
fn load_json<T: serde::de::DeserializeOwned>(root: &Path, rel: &str) -> Option<T> {
    let path = crate::paths::resolve_inside(root, rel, false).ok()?;
    let meta = std::fs::symlink_metadata(&path).ok()?;
    if !meta.is_file() {
        return None;
    }
    serde_json::from_slice(&std::fs::read(&path).ok()?).ok()
}

/// Writes a JSON cache file under `root`: a temporary file next to it, then a rename over the
/// old one. Not fsynced: it is a cache, a rename is atomic, and a lost write costs a rebuild.
fn save_json<T: Serialize>(root: &Path, rel: &str, value: &T) -> std::io::Result<()> {
    let path = crate::paths::resolve_inside(root, rel, true)
        .map_err(|e| std::io::Error::other(e.to_string()))?;
    let bytes = serde_json::to_vec(value).map_err(std::io::Error::other)?;
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let tmp = path.with_file_name(format!(".{name}.tmp-{}", std::process::id()));
    std::fs::write(&tmp, bytes)?;
    std::fs::rename(&tmp, &path).inspect_err(|_| {
        let _ = std::fs::remove_file(&tmp);
    })
}

impl Watch {
    /// Reads the watch under `root`; `None` when there is none or it is not of this version and
    /// helper.
    pub fn load(root: &Path) -> Option<Watch> {
        load_json::<Watch>(root, WATCH_FILE)
            .filter(|w| w.version == INDEX_VERSION && w.tool == crate::TOOL_VERSION)
    }

    /// Writes the watch under `root`.
    pub fn save(&self, root: &Path) -> std::io::Result<()> {
        save_json(root, WATCH_FILE, self)
    }

    /// Whether the folder time `mtime`, recorded in this watch, is too close to the write to
    /// be trusted.
    pub fn racy(&self, mtime: u64) -> bool {
        mtime.saturating_add(RACY_NS) >= self.written_ns
    }
}

impl Index {
    /// Reads the [`Watch`] under `root` (see [`Watch::load`]).
    pub fn load_watch(root: &Path) -> Option<Watch> {
        Watch::load(root)
    }

    /// Reads the index under `root`; `None` when there is none, or it cannot be used (not a
    /// regular file, not inside the root, not JSON of this version and helper, a dangling id).
    pub fn load(root: &Path) -> Option<Index> {
        let index: Index = load_json(root, INDEX_FILE)?;
        let sound = index.version == INDEX_VERSION
            && index.tool == crate::TOOL_VERSION
            && index.docs.iter().all(|d| {
                d.3.iter()
                    .flatten()
                    .all(|&id| (id as usize) < index.targets.len())
            });
        sound.then_some(index)
    }

    /// Writes the index under `root`.
    pub fn save(&self, root: &Path) -> std::io::Result<()> {
        save_json(root, INDEX_FILE, self)
    }

    /// The candidate lists of document `i` as paths.
    pub fn doc_lists(&self, i: usize) -> Vec<Vec<&str>> {
        self.docs[i]
            .3
            .iter()
            .map(|l| {
                l.iter()
                    .map(|&id| self.targets[id as usize].as_str())
                    .collect()
            })
            .collect()
    }
}

/// Builds an [`Index`] from documents given as `(path, stamp, candidate lists)`, interning every
/// path once and asking `exists` for each new one.
pub struct Builder<'a> {
    ids: std::collections::HashMap<&'a str, u32>,
    targets: Vec<String>,
    exists: Vec<bool>,
    docs: Vec<DocEntry>,
}

impl<'a> Builder<'a> {
    /// An empty index.
    pub fn new() -> Builder<'a> {
        Builder {
            ids: Default::default(),
            targets: Vec::new(),
            exists: Vec::new(),
            docs: Vec::new(),
        }
    }

    /// Adds a document whose candidate lists are `lists`; `exists` answers for each path.
    pub fn doc(
        &mut self,
        path: &str,
        stamp: Stamp,
        lists: &[Vec<&'a str>],
        exists: &mut impl FnMut(&str) -> bool,
    ) {
        let mut ids_of = Vec::with_capacity(lists.len());
        for l in lists {
            let mut ids = Vec::with_capacity(l.len());
            for &p in l {
                let id = match self.ids.get(p) {
                    Some(&id) => id,
                    None => {
                        let id = self.targets.len() as u32;
                        self.targets.push(p.to_string());
                        self.exists.push(exists(p));
                        self.ids.insert(p, id);
                        id
                    }
                };
                ids.push(id);
            }
            ids_of.push(ids);
        }
        self.docs
            .push(DocEntry(path.to_string(), stamp.0, stamp.1, ids_of));
    }

    /// The finished index, and whether each of its targets exists.
    pub fn finish(mut self, generation: u64) -> (Index, Vec<bool>) {
        self.docs.sort_by(|a, b| a.0.cmp(&b.0));
        let index = Index {
            version: INDEX_VERSION,
            tool: crate::TOOL_VERSION.to_string(),
            generation,
            targets: self.targets,
            docs: self.docs,
        };
        (index, self.exists)
    }
}

impl Default for Builder<'_> {
    fn default() -> Self {
        Builder::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tracked_refs_are_the_scanners_checkable_ones() {
        let t = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(t.path().join("src")).unwrap();
        std::fs::write(t.path().join("src/a.rs"), "").unwrap();
        let mut tree = Tree {
            root: t.path().to_path_buf(),
            ..Tree::default()
        };
        tree.files.insert("src/a.rs".into());
        tree.dirs.insert("src".into());
        tree.basenames.insert("a.rs".into());
        let text = "# T\n\n[a](../src/a.rs#L3) and `src/a.rs:4` [w](https://x.io/a.md)\n\n```\n[c](src/c.rs)\n```\n\n[gone](missing.md) `owner/repo` [self](#t)\n";
        let refs = path_refs(&tree, "docs/x.md", text);
        let got: Vec<(u32, &str)> = refs.iter().map(|r| (r.line, r.written.as_str())).collect();
        assert_eq!(
            got,
            [(3, "../src/a.rs"), (3, "src/a.rs"), (9, "missing.md")],
            "URLs, fenced code, bare self-anchors and unknown extension-less paths are not tracked"
        );
        assert_eq!(refs[1].candidates[1], ("src/a.rs".to_string(), false));
        let l = lists(&refs, &|p| p == "src/a.rs");
        assert_eq!(
            l,
            vec![
                vec!["src/a.rs".to_string()],
                vec!["docs/missing.md".to_string(), "missing.md".to_string()]
            ],
            "a resolved reference watches its path; a broken one every candidate"
        );
    }

    #[test]
    fn save_load_round_trip_and_refuses_foreign_versions() {
        let t = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(t.path().join(".hygiene")).unwrap();
        let mut b = Builder::new();
        let lists = [vec!["src/a.rs"], vec!["docs/b.md", "b.md"]];
        b.doc("docs/x.md", (7, 9), &lists, &mut |p| p != "b.md");
        let (index, exists) = b.finish(7);
        assert_eq!(index.targets, ["src/a.rs", "docs/b.md", "b.md"]);
        assert_eq!(exists, [true, true, false]);
        index.save(t.path()).unwrap();
        assert_eq!(Index::load(t.path()), Some(index.clone()));
        assert_eq!(
            index.doc_lists(0),
            vec![vec!["src/a.rs"], vec!["docs/b.md", "b.md"]]
        );
        let mut old = index.clone();
        old.version = 0;
        old.save(t.path()).unwrap();
        assert_eq!(Index::load(t.path()), None, "another version is rebuilt");
        let mut broken = index;
        broken.docs[0].3[0][0] = 99;
        broken.save(t.path()).unwrap();
        assert_eq!(Index::load(t.path()), None, "a dangling id is rebuilt");
        std::fs::write(t.path().join(INDEX_FILE), "{not json").unwrap();
        assert_eq!(Index::load(t.path()), None);
    }
}
