//! The walk: every file under the root that `.gitignore` and the excluded folders allow, on all
//! cores, plus [`par_each`], the one helper every parallel phase uses.
//!
//! Hidden folders are walked (`.claude/` is where agent documents live); `.git` never is.
//! Symbolic links are not followed, so a link loop cannot trap the walk; a linked document is
//! resolved only to decide whether it stays inside the root.

use super::refs::Tree;
use crate::report::{SkipReason, Skipped};
use globset::{GlobSet, GlobSetBuilder};
use ignore::{WalkBuilder, WalkState};
use std::collections::HashSet;
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// How many worker threads the parallel phases use.
pub fn threads() -> usize {
    std::thread::available_parallelism().map_or(2, |n| n.get().clamp(1, 16))
}

/// Runs `f` on every item on all cores (work is handed out one item at a time).
pub fn par_each<T: Sync>(items: &[T], f: impl Fn(&T) + Sync) {
    let next = AtomicUsize::new(0);
    let n = threads().min(items.len().max(1));
    std::thread::scope(|s| {
        for _ in 0..n {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                match items.get(i) {
                    Some(it) => f(it),
                    None => break,
                }
            });
        }
    });
}

/// Runs `f` on every item on all cores and returns the results in input order.
pub fn par_map<T: Sync, R: Send>(items: &[T], f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    let slots: Vec<Mutex<Option<R>>> = items.iter().map(|_| Mutex::new(None)).collect();
    let idx: Vec<usize> = (0..items.len()).collect();
    par_each(&idx, |&i| {
        let r = f(&items[i]);
        if let Ok(mut s) = slots[i].lock() {
            *s = Some(r);
        }
    });
    slots
        .into_iter()
        .filter_map(|s| s.into_inner().ok().flatten())
        .collect()
}

/// Compiles scope globs. Globs match root-relative paths; `*` does not cross `/`.
pub fn globset(globs: &[String]) -> crate::Result<GlobSet> {
    let mut b = GlobSetBuilder::new();
    for g in globs {
        let glob = globset::GlobBuilder::new(g)
            .literal_separator(true)
            .build()
            .map_err(|e| crate::Error::Usage(format!("scope glob `{g}`: {e}")))?;
        b.add(glob);
    }
    b.build()
        .map_err(|e| crate::Error::Usage(format!("scope globs: {e}")))
}

/// What the walk found.
#[derive(Debug, Default)]
pub struct Walked {
    /// Every file and folder.
    pub tree: Tree,
    /// Documents in scope (root-relative, sorted).
    pub docs: Vec<String>,
    /// In-scope entries that cannot be read as documents.
    pub skipped: Vec<Skipped>,
    /// Problems met on the way (unreadable folders, non-UTF-8 names).
    pub warnings: Vec<String>,
}

enum Found {
    File(String),
    Dir(String),
    Link(String, std::path::PathBuf),
    Warn(String),
}

/// Walks `root`, skipping folders named in `excluded` (and `.git`) anywhere. Ignore rules come
/// from `.gitignore` files (including those of parent folders when `root` is a subfolder of a
/// work tree), `.git/info/exclude`, the global git excludes, and `.ignore` files.
pub fn walk(root: &Path, scope: &GlobSet, excluded: &[String]) -> Walked {
    walk_from(root, root, None, scope, excluded)
}

/// Like [`walk`], but only under the folder `start` inside `root` (whose ignore files still
/// apply), at most `max_depth` levels down (`Some(1)`: its entries only). Paths stay
/// root-relative; `start` itself is not listed. What the hook uses to look again at just the
/// folders that changed, by the same rules as a whole walk.
pub fn walk_from(
    root: &Path,
    start: &Path,
    max_depth: Option<usize>,
    scope: &GlobSet,
    excluded: &[String],
) -> Walked {
    let excluded: HashSet<String> = excluded
        .iter()
        .cloned()
        .chain(std::iter::once(".git".to_string()))
        .collect();
    let found: Mutex<Vec<Found>> = Mutex::new(Vec::new());
    let mut builder = WalkBuilder::new(start);
    builder
        .max_depth(max_depth)
        .hidden(false)
        .parents(true)
        .require_git(false)
        .follow_links(false)
        .threads(threads());
    let ex = excluded.clone();
    builder.filter_entry(move |e| {
        !(e.depth() > 0
            && e.file_type().is_some_and(|t| t.is_dir())
            && e.file_name().to_str().is_some_and(|n| ex.contains(n)))
    });
    builder.build_parallel().run(|| {
        let found = &found;
        Box::new(move |res| {
            let item = match res {
                Ok(e) if e.depth() == 0 => None,
                Ok(e) => match crate::paths::to_rel(root, e.path()) {
                    None => Some(Found::Warn(format!(
                        "{}: the name is not UTF-8; not scanned",
                        e.path().display()
                    ))),
                    Some(rel) => match e.file_type() {
                        Some(t) if t.is_dir() => Some(Found::Dir(rel)),
                        Some(t) if t.is_symlink() => Some(Found::Link(rel, e.path().to_path_buf())),
                        Some(_) => Some(Found::File(rel)),
                        None => None,
                    },
                },
                Err(err) => Some(Found::Warn(format!("walk: {err}"))),
            };
            if let Some(it) = item {
                if let Ok(mut f) = found.lock() {
                    f.push(it);
                }
            }
            WalkState::Continue
        })
    });
    let mut w = Walked::default();
    w.tree.root = root.to_path_buf();
    let items = found.into_inner().unwrap_or_default();
    let croot = root.canonicalize().unwrap_or_else(|_| root.to_path_buf());
    for it in items {
        match it {
            Found::File(rel) => {
                if scope.is_match(&rel) {
                    w.docs.push(rel.clone());
                }
                add_file(&mut w.tree, rel);
            }
            Found::Dir(rel) => {
                w.tree.dirs.insert(rel);
            }
            Found::Link(rel, full) => match full.canonicalize() {
                Ok(real) if real.starts_with(&croot) => {
                    // An alias of something inside the root: it exists, but it is not a
                    // document of its own (checking it would report its target twice).
                    if real.is_dir() {
                        w.tree.dirs.insert(rel);
                    } else {
                        add_file(&mut w.tree, rel);
                    }
                }
                _ => {
                    if scope.is_match(&rel) {
                        w.skipped.push(Skipped {
                            path: rel,
                            reason: SkipReason::Symlink,
                        });
                    }
                }
            },
            Found::Warn(m) => w.warnings.push(m),
        }
    }
    w.docs.sort();
    w.skipped.sort_by(|a, b| a.path.cmp(&b.path));
    w.warnings.sort();
    w
}

fn add_file(tree: &mut Tree, rel: String) {
    let base = rel.rsplit('/').next().unwrap_or(&rel).to_string();
    tree.basenames.insert(base);
    tree.files.insert(rel);
}
