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

/// Runs `f` on every item, changing it, on all cores (each core takes an equal run of items).
pub fn par_each_mut<T: Send>(items: &mut [T], f: impl Fn(&mut T) + Sync) {
    let n = threads().min(items.len().max(1));
    let run = items.len().div_ceil(n).max(1);
    let f = &f;
    std::thread::scope(|s| {
        for chunk in items.chunks_mut(run) {
            s.spawn(move || chunk.iter_mut().for_each(f));
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
    /// Problems met on the way (unreadable folders, non-UTF-8 names, ignore files that are not
    /// regular files).
    pub warnings: Vec<String>,
    /// Folders below the root that hold a repository of their own (`.git`): their files exist
    /// for references, but they are not this repository's documents.
    pub nested: Vec<String>,
}

impl Walked {
    /// Adds the tracked files the walk did not see because an ignore pattern matches them
    /// (force-added): documents in scope become documents, every such file exists for
    /// references. Excluded folders and nested repositories stay out.
    pub fn add_tracked(
        &mut self,
        root: &Path,
        tracked: &HashSet<String>,
        scope: &GlobSet,
        excluded: &[String],
    ) {
        let mut added = false;
        for rel in tracked {
            if self.tree.files.contains(rel)
                || rel
                    .split('/')
                    .any(|s| s == ".git" || excluded.iter().any(|e| e == s))
                || self.in_nested(rel)
                || !std::fs::symlink_metadata(root.join(rel)).is_ok_and(|m| m.is_file())
            {
                continue;
            }
            let mut at = rel.as_str();
            while let Some(i) = at.rfind('/') {
                at = &at[..i];
                // A folder the walk did not enter may be a link.
                if self.tree.dirs.insert(at.to_string()) {
                    self.tree.unwalked_dirs.insert(at.to_string());
                }
            }
            if scope.is_match(rel) {
                self.docs.push(rel.clone());
                added = true;
            }
            add_file(&mut self.tree, rel.clone());
        }
        if added {
            self.docs.sort();
        }
    }

    /// Whether root-relative `rel` lies inside a nested repository.
    pub fn in_nested(&self, rel: &str) -> bool {
        self.nested.iter().any(|n| {
            rel.strip_prefix(n.as_str())
                .is_some_and(|r| r.starts_with('/'))
        })
    }
}

/// Whether `p` exists and is anything but a regular file (a FIFO blocks whoever opens it).
fn special(p: &Path) -> bool {
    std::fs::symlink_metadata(p).is_ok_and(|m| !m.is_file())
}

/// The ignore files the walker would open in folder `dir`.
const IGNORE_FILES: &[&str] = &[".gitignore", ".ignore", ".git/info/exclude"];

enum Found {
    File(String),
    Dir(String),
    Link(String, std::path::PathBuf),
    Nested(String),
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
    let found: std::sync::Arc<Mutex<Vec<Found>>> = Default::default();
    let mut builder = WalkBuilder::new(start);
    builder
        .max_depth(max_depth)
        .hidden(false)
        .parents(true)
        .require_git(false)
        .follow_links(false)
        .threads(threads());
    // The walker opens ignore files itself, and opening a FIFO blocks forever: an ignore file
    // that is not a regular file is never given to it (its folder is skipped, or at the root
    // that source of rules is turned off), with a warning.
    let mut pre = Vec::new();
    if IGNORE_FILES.iter().any(|f| special(&root.join(f))) {
        builder.git_ignore(false).ignore(false).git_exclude(false);
        pre.push(
            "an ignore file at the root (.gitignore, .ignore or .git/info/exclude) is not a regular file; ignore rules were not read".to_string(),
        );
    }
    let mut up = root.parent();
    while let Some(dir) = up {
        if special(&dir.join(".gitignore")) || special(&dir.join(".ignore")) {
            builder.parents(false);
            pre.push(format!(
                "{}: an ignore file is not a regular file; parent folders' ignore rules were not read",
                dir.display()
            ));
            break;
        }
        if dir.join(".git").exists() {
            break;
        }
        up = dir.parent();
    }
    if let Some(global) = global_excludes() {
        if special(&global) {
            builder.git_global(false);
            pre.push(format!(
                "{}: the global git excludes file is not a regular file; not read",
                global.display()
            ));
        }
    }
    let ex = excluded.clone();
    let seen = found.clone();
    let base = root.to_path_buf();
    builder.filter_entry(move |e| {
        if e.depth() == 0 || !e.file_type().is_some_and(|t| t.is_dir()) {
            return true;
        }
        if e.file_name().to_str().is_some_and(|n| ex.contains(n)) {
            return false;
        }
        let dir = e.path();
        let nested = std::fs::symlink_metadata(dir.join(".git")).is_ok();
        let blocked = IGNORE_FILES.iter().find(|f| special(&dir.join(f)));
        let push = |f: Found| {
            if let Ok(mut v) = seen.lock() {
                v.push(f);
            }
        };
        if let Some(rel) = crate::paths::to_rel(&base, dir) {
            if nested {
                push(Found::Nested(rel.clone()));
            }
            if let Some(f) = blocked {
                push(Found::Warn(format!(
                    "{rel}/{f} is not a regular file; the folder {rel} was not scanned"
                )));
                return false;
            }
        }
        true
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
    let items = std::mem::take(&mut *found.lock().unwrap_or_else(|e| e.into_inner()));
    w.warnings.extend(pre);
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
                        w.tree.unwalked_dirs.insert(rel.clone());
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
            Found::Nested(rel) => {
                w.tree.dirs.insert(rel.clone());
                w.nested.push(rel);
            }
            Found::Warn(m) => w.warnings.push(m),
        }
    }
    w.nested.sort();
    w.nested.dedup();
    if !w.nested.is_empty() {
        let before = w.docs.len();
        let docs = std::mem::take(&mut w.docs);
        w.docs = docs.into_iter().filter(|d| !w.in_nested(d)).collect();
        if w.docs.len() < before {
            w.warnings.push(format!(
                "documents inside nested repositories are not scanned: {}",
                w.nested.join(", ")
            ));
        }
    }
    w.docs.sort();
    w.skipped.sort_by(|a, b| a.path.cmp(&b.path));
    w.warnings.sort();
    w
}

/// The root the walk started from, seen from one of its entries.
/// The global git excludes file the walker reads (`core.excludesFile`'s default location).
fn global_excludes() -> Option<std::path::PathBuf> {
    let base = std::env::var_os("XDG_CONFIG_HOME")
        .filter(|v| !v.is_empty())
        .map(std::path::PathBuf::from)
        .or_else(|| {
            std::env::var_os("HOME").map(|h| std::path::PathBuf::from(h).join(".config"))
        })?;
    Some(base.join("git").join("ignore"))
}

fn add_file(tree: &mut Tree, rel: String) {
    let base = rel.rsplit('/').next().unwrap_or(&rel).to_string();
    tree.basenames.insert(base);
    tree.files.insert(rel);
}
