//! Bringing the index up to date: a full walk at session start (or when there is no usable
//! index), and on every tool call a look at only what the folder times say changed.
//!
//! The incremental look is the hook's speed: a tool call that moves nothing costs one `stat`
//! per watched folder and no parse. When folders changed, only those are listed again (with the
//! same ignore rules as a scan, [`walk::walk_from`]), only their documents are stamped and, if
//! changed, parsed, and only the named paths under them are checked again.

use super::index::{self, Builder, Index, PathRef, Stamp, Watch};
use crate::error::{Error, Result};
use crate::scan::refs::{folder, Tree};
use crate::scan::walk;
use globset::GlobSet;
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::path::Path;

/// A document as this call sees it: its stamp, and its references either unchanged since the
/// index (`Old`, by position in the old index) or parsed now (`New`).
pub struct Current {
    /// Root-relative path.
    pub path: String,
    /// Its stamp now.
    pub stamp: Stamp,
    /// Its references.
    pub refs: Refs,
}

/// Where a document's references come from.
pub enum Refs {
    /// Unchanged: document `i` of the old index.
    Old(usize),
    /// Parsed in this call.
    New(Vec<PathRef>),
}

/// The state after this call's look, before it is saved: what detection compares.
pub struct Next {
    /// The index as it was (none: built from nothing, so there is no before).
    pub old: Option<Index>,
    /// For each old target, whether it existed at the last look (empty after a full look).
    pub old_bits: Vec<bool>,
    /// For each old target, whether it exists now (empty after a full look).
    pub now_old: Vec<bool>,
    /// Whether any document was added, removed or parsed again (the index must be rewritten;
    /// otherwise only the watch is).
    pub docs_changed: bool,
    /// The documents now.
    pub current: Vec<Current>,
    /// The watched folders now, with their times and whether the walk lists them.
    pub dirs: BTreeMap<String, (u64, bool)>,
    /// The whole tree, when this look walked it (existence is then a lookup, not a `stat`).
    pub tree: Option<Tree>,
}

/// What decides which files are documents.
pub struct Docs<'a> {
    /// The scope globs, compiled.
    pub globs: &'a GlobSet,
    /// Folder names never descended into.
    pub excluded: &'a [String],
}

/// Whether a path exists now ([`Tree::exists`]: the walk's lists when there is a walked tree,
/// else the disk), asking the disk at most once per path.
pub struct Exists<'a> {
    walked: Option<&'a Tree>,
    disk: Tree,
    seen: std::cell::RefCell<HashMap<String, bool>>,
}

impl<'a> Exists<'a> {
    /// For `root`, with the walked `tree` if there is one.
    pub fn new(root: &Path, tree: Option<&'a Tree>) -> Exists<'a> {
        Exists {
            walked: tree,
            disk: Tree {
                root: root.to_path_buf(),
                ..Tree::default()
            },
            seen: Default::default(),
        }
    }

    /// Whether the root-relative `rel` exists (a link counts as itself).
    pub fn get(&self, rel: &str) -> bool {
        if let Some(&e) = self.seen.borrow().get(rel) {
            return e;
        }
        let e = self.walked.unwrap_or(&self.disk).exists(rel);
        self.seen.borrow_mut().insert(rel.to_string(), e);
        e
    }
}

/// The folder the watch uses for the named paths in the folder `dir`: `dir` itself, or its
/// nearest existing ancestor when it does not exist (so a path is noticed when it appears).
fn nearest_dir(dir: &str, exists_dir: &dyn Fn(&str) -> Option<u64>) -> Option<(String, u64)> {
    let mut d = dir;
    loop {
        if let Some(t) = exists_dir(d) {
            return Some((d.to_string(), t));
        }
        if d.is_empty() {
            return None;
        }
        d = folder(d);
    }
}

/// Parses the documents at `paths` in `current` (their refs become `New`), on all cores.
fn parse_into(root: &Path, tree: &Tree, current: &mut [Current], todo: &[usize]) {
    let parsed = walk::par_map(todo, |&i| {
        let path = &current[i].path;
        crate::scan::read_doc(root, path)
            .map(|text| index::path_refs(tree, path, &text))
            .unwrap_or_default()
    });
    for (i, refs) in todo.iter().zip(parsed) {
        current[*i].refs = Refs::New(refs);
    }
}

/// The full look: walk the whole tree, stamp every document, parse the changed ones (reusing
/// the old index for the rest), and watch every folder the walk saw.
pub fn full(root: &Path, docs: &Docs<'_>, old: Option<Index>) -> Next {
    let walked = walk::walk(root, docs.globs, docs.excluded);
    let tree = &walked.tree;
    let old_pos: HashMap<&str, usize> = old
        .iter()
        .flat_map(|o| o.docs.iter().enumerate().map(|(i, d)| (d.0.as_str(), i)))
        .collect();
    let stamps = walk::par_map(&walked.docs, |d| index::stamp(root, d));
    let mut current: Vec<Current> = Vec::with_capacity(walked.docs.len());
    let mut todo: Vec<usize> = Vec::new();
    for (d, s) in walked.docs.iter().zip(stamps) {
        let Some(stamp) = s else { continue };
        let refs = match (old_pos.get(d.as_str()), &old) {
            (Some(&i), Some(o)) if (o.docs[i].1, o.docs[i].2) == stamp => Refs::Old(i),
            _ => {
                todo.push(current.len());
                Refs::New(Vec::new())
            }
        };
        current.push(Current {
            path: d.clone(),
            stamp,
            refs,
        });
    }
    parse_into(root, tree, &mut current, &todo);
    drop(old_pos);
    let mut dirs: Vec<String> = walked.tree.dirs.iter().cloned().collect();
    dirs.push(String::new());
    let dirs: BTreeMap<String, (u64, bool)> = walk::par_map(&dirs, |d| {
        index::dir_time(root, d).map(|t| (d.clone(), (t, true)))
    })
    .into_iter()
    .flatten()
    .collect();
    Next {
        old,
        old_bits: Vec::new(),
        now_old: Vec::new(),
        docs_changed: true,
        current,
        dirs,
        tree: Some(walked.tree),
    }
}

/// The incremental look, given the watch of the last call: `None` when nothing can have
/// changed (no watched folder changed and no document the call names changed), else the
/// state after looking at what did. `touched` are root-relative documents the tool call names
/// (a `Write`'s file, a document a Bash command mentions), checked even when their folder did
/// not change (an in-place write leaves the folder time alone). Needs the old index of the
/// watch's generation; without it, a full look.
pub fn incremental(
    root: &Path,
    docs: &Docs<'_>,
    watch: &Watch,
    touched: &[String],
) -> Option<Next> {
    // Which watched folders changed (or are gone).
    let times = walk::par_map(&watch.dirs, |(d, _, _)| index::dir_time(root, d));
    let mut changed: BTreeSet<String> = BTreeSet::new();
    let mut vanished: BTreeSet<String> = BTreeSet::new();
    let mut dirs: BTreeMap<String, (u64, bool)> = BTreeMap::new();
    for ((d, was, walked), now) in watch.dirs.iter().zip(times) {
        match now {
            None => {
                vanished.insert(d.clone());
            }
            Some(t) => {
                if t != *was || watch.racy(*was) {
                    changed.insert(d.clone());
                }
                dirs.insert(d.clone(), (t, *walked));
            }
        }
    }
    let touched_stamps: Vec<(String, Option<Stamp>)> = touched
        .iter()
        .map(|t| (t.clone(), index::stamp(root, t)))
        .collect();
    if changed.is_empty() && vanished.is_empty() && touched_stamps.iter().all(|(_, s)| s.is_none())
    {
        return None;
    }
    let loaded = Index::load(root).filter(|o| o.generation == watch.generation);
    let Some((old, old_bits)) = loaded.and_then(|o| {
        let bits = index::unpack_bits(&watch.exists, o.targets.len())?;
        Some((o, bits))
    }) else {
        return Some(full(root, docs, None));
    };
    // A touched document that did not change, in an unchanged tree: nothing to do.
    let old_pos: HashMap<&str, usize> = old
        .docs
        .iter()
        .enumerate()
        .map(|(i, d)| (d.0.as_str(), i))
        .collect();
    let touched_changed: Vec<(String, Stamp)> = touched_stamps
        .into_iter()
        .filter_map(|(t, s)| {
            let s = s?;
            let same = old_pos
                .get(t.as_str())
                .is_some_and(|&i| (old.docs[i].1, old.docs[i].2) == s);
            // A document only where the walk goes: in scope, in a folder it lists (not an
            // ignored or excluded one).
            let listed = dirs.get(folder(&t)).is_some_and(|(_, walked)| *walked);
            (!same && listed && docs.globs.is_match(&t)).then_some((t, s))
        })
        .collect();
    if changed.is_empty() && vanished.is_empty() && touched_changed.is_empty() {
        return None;
    }

    // Documents: gone, new, or stamped differently, in the changed folders only.
    let mut removed: HashSet<String> = HashSet::new();
    let mut fresh: BTreeMap<String, Stamp> = BTreeMap::new();
    for v in &vanished {
        for d in &old.docs {
            if is_under(&d.0, v) {
                removed.insert(d.0.clone());
            }
        }
    }
    let in_changed: HashMap<&str, Vec<&str>> = {
        let mut m: HashMap<&str, Vec<&str>> = HashMap::new();
        for d in &old.docs {
            let f = folder(&d.0);
            if changed.contains(f) {
                m.entry(f).or_default().push(d.0.as_str());
            }
        }
        m
    };
    let mut new_dirs: Vec<String> = Vec::new();
    for c in &changed {
        // A folder only watched for the named paths in it (an ignored build folder) is never
        // listed for documents.
        if !dirs.get(c).is_some_and(|(_, walked)| *walked) {
            continue;
        }
        let w = walk::walk_from(root, &root.join(c), Some(1), docs.globs, docs.excluded);
        let listed: HashSet<&str> = w.docs.iter().map(String::as_str).collect();
        for d in in_changed.get(c.as_str()).into_iter().flatten() {
            if !listed.contains(d) {
                removed.insert(d.to_string());
            }
        }
        for d in &w.docs {
            if let Some(s) = index::stamp(root, d) {
                let same = old_pos
                    .get(d.as_str())
                    .is_some_and(|&i| (old.docs[i].1, old.docs[i].2) == s);
                if !same {
                    fresh.insert(d.clone(), s);
                }
            } else {
                removed.insert(d.clone());
            }
        }
        for sub in &w.tree.dirs {
            if watch_has(watch, sub) || dirs.contains_key(sub) {
                continue;
            }
            // A new folder: everything in it is new.
            let deep = walk::walk_from(root, &root.join(sub), None, docs.globs, docs.excluded);
            for d in &deep.docs {
                if let Some(s) = index::stamp(root, d) {
                    fresh.insert(d.clone(), s);
                }
            }
            new_dirs.push(sub.clone());
            new_dirs.extend(deep.tree.dirs.iter().cloned());
        }
    }
    for (t, s) in touched_changed {
        fresh.insert(t, s);
    }
    for d in &new_dirs {
        if let Some(t) = index::dir_time(root, d) {
            dirs.insert(d.clone(), (t, true));
        }
    }

    let mut current: Vec<Current> = Vec::with_capacity(old.docs.len() + fresh.len());
    let mut todo = Vec::new();
    for (i, d) in old.docs.iter().enumerate() {
        if removed.contains(&d.0) || fresh.contains_key(&d.0) {
            continue;
        }
        current.push(Current {
            path: d.0.clone(),
            stamp: (d.1, d.2),
            refs: Refs::Old(i),
        });
    }
    for (d, s) in &fresh {
        if removed.contains(d) {
            continue;
        }
        todo.push(current.len());
        current.push(Current {
            path: d.clone(),
            stamp: *s,
            refs: Refs::New(Vec::new()),
        });
    }
    let tree = Tree {
        root: root.to_path_buf(),
        ..Tree::default()
    };
    parse_into(root, &tree, &mut current, &todo);
    current.sort_by(|a, b| a.path.cmp(&b.path));

    // Named paths: checked again where their watched folder changed, vanished or is new.
    let looked: HashSet<&str> = changed
        .iter()
        .chain(&vanished)
        .map(String::as_str)
        .chain(new_dirs.iter().map(String::as_str))
        .collect();
    let now_old: Vec<bool> = old
        .targets
        .iter()
        .zip(&old_bits)
        .map(|(p, was)| {
            if needs_look(p, watch, &looked) {
                tree.exists(p)
            } else {
                *was
            }
        })
        .collect();
    Some(Next {
        old: Some(old),
        old_bits,
        now_old,
        docs_changed: !fresh.is_empty() || !removed.is_empty(),
        current,
        dirs,
        tree: None,
    })
}

fn watch_has(watch: &Watch, dir: &str) -> bool {
    watch
        .dirs
        .binary_search_by(|(d, _, _)| d.as_str().cmp(dir))
        .is_ok()
}

/// Whether `target` must be checked again: its nearest watched ancestor folder was looked at.
fn needs_look(target: &str, watch: &Watch, looked: &HashSet<&str>) -> bool {
    let mut d = folder(target);
    loop {
        if looked.contains(d) {
            return true;
        }
        if watch_has(watch, d) || d.is_empty() {
            return false;
        }
        d = folder(d);
    }
}

/// Whether `path` is `dir` or inside it (`""` is the root, which holds everything).
pub fn is_under(path: &str, dir: &str) -> bool {
    dir.is_empty()
        || path == dir
        || path
            .strip_prefix(dir)
            .is_some_and(|rest| rest.starts_with('/'))
}

/// Saves `next`: the index when documents changed (a new generation), and always the watch
/// (folder times, where the session is, which named paths exist). Every folder holding a
/// named path is watched (its parent, or the nearest existing ancestor), besides the folders
/// the look saw.
pub fn save(root: &Path, next: &Next, config: u64, cwd: Option<String>) -> Result<()> {
    let io = |rel: &str, e| Error::io(root.join(rel), e);
    let built;
    let (generation, targets, bits): (u64, &[String], Vec<bool>) = match &next.old {
        Some(old) if !next.docs_changed => (old.generation, &old.targets, next.now_old.clone()),
        _ => {
            let known: HashMap<&str, bool> = next
                .old
                .iter()
                .flat_map(|o| o.targets.iter().zip(&next.now_old))
                .map(|(p, now)| (p.as_str(), *now))
                .collect();
            let exists = Exists::new(root, next.tree.as_ref());
            let exists_now = |p: &str| known.get(p).copied().unwrap_or_else(|| exists.get(p));
            let new_lists: Vec<Vec<Vec<String>>> = next
                .current
                .iter()
                .map(|c| match &c.refs {
                    Refs::New(r) => index::lists(r, &exists_now),
                    Refs::Old(_) => Vec::new(),
                })
                .collect();
            let mut exists_now = exists_now;
            let mut b = Builder::new();
            for (c, l) in next.current.iter().zip(&new_lists) {
                let lists: Vec<Vec<&str>> = match (&c.refs, &next.old) {
                    (Refs::Old(i), Some(o)) => o.doc_lists(*i),
                    _ => l
                        .iter()
                        .map(|x| x.iter().map(String::as_str).collect())
                        .collect(),
                };
                b.doc(&c.path, c.stamp, &lists, &mut exists_now);
            }
            let generation = index::now_ns() ^ u64::from(std::process::id());
            let (index, bits) = b.finish(generation);
            index.save(root).map_err(|e| io(index::INDEX_FILE, e))?;
            built = index;
            (generation, &built.targets, bits)
        }
    };
    let mut dirs = next.dirs.clone();
    let mut parents: BTreeSet<&str> = BTreeSet::new();
    for t in targets {
        parents.insert(folder(t));
    }
    for p in parents {
        if dirs.contains_key(p) {
            continue;
        }
        let found = nearest_dir(p, &|d| {
            dirs.get(d)
                .map(|(t, _)| *t)
                .or_else(|| index::dir_time(root, d))
        });
        if let Some((d, t)) = found {
            dirs.entry(d).or_insert((t, false));
        }
    }
    let watch = Watch {
        version: index::INDEX_VERSION,
        tool: crate::TOOL_VERSION.to_string(),
        generation,
        config,
        written_ns: index::now_ns(),
        cwd,
        dirs: dirs.into_iter().map(|(d, (t, w))| (d, t, w)).collect(),
        exists: index::pack_bits(&bits),
    };
    watch.save(root).map_err(|e| io(index::WATCH_FILE, e))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_named_path_is_looked_at_through_its_nearest_watched_folder() {
        let watch = Watch {
            dirs: vec![
                (String::new(), 1, true),
                ("docs".into(), 1, true),
                ("docs/a".into(), 1, true),
            ],
            ..Watch::default()
        };
        let looked: HashSet<&str> = ["docs"].into_iter().collect();
        assert!(needs_look("docs/x.md", &watch, &looked));
        assert!(
            !needs_look("docs/a/x.md", &watch, &looked),
            "docs/a is watched itself"
        );
        // docs/b is not watched: its nearest watched ancestor, docs, decides.
        assert!(needs_look("docs/b/c/x.md", &watch, &looked));
        assert!(!needs_look("src/x.rs", &watch, &looked));
        let root_looked: HashSet<&str> = [""].into_iter().collect();
        assert!(needs_look("README.md", &watch, &root_looked));
        assert!(!needs_look("docs/x.md", &watch, &root_looked));
    }

    #[test]
    fn the_watched_folder_of_a_missing_path_is_its_nearest_existing_ancestor() {
        let exists = |d: &str| (d == "docs" || d.is_empty()).then_some(5);
        assert_eq!(nearest_dir("docs", &exists), Some(("docs".into(), 5)));
        assert_eq!(
            nearest_dir("docs/new/deep", &exists),
            Some(("docs".into(), 5))
        );
        assert_eq!(nearest_dir("src", &exists), Some((String::new(), 5)));
        assert_eq!(nearest_dir("", &|_| None), None);
    }
}
