//! `hygiene hook`: the plugin's tool-call hook, which tells the agent, in the turn it happens,
//! which document lines a rename, move or delete just broke, and the fix when the new name is
//! known.
//!
//! Most stale references are born in one moment: a file is renamed or deleted and `CLAUDE.md`,
//! a rule or a doc keeps the old name for months. At that moment the agent knows the new name
//! and has the file open; a day later nobody does. So after each tool call that can move or
//! delete files (`hooks/hooks.json`), Claude Code runs `hygiene hook post-tool-use` with the
//! call on stdin, and the helper compares the tree with the [`index`] it kept from the last
//! call: a path some reference named that existed then and does not now is a reference the call
//! broke. The new name comes from the command itself ([`shell`]: `mv`, `git mv`), else from git
//! (staged renames, the newest commit); it is used only when it exists.
//!
//! The contract with the client (checked against Claude Code 2.1.332, `docs/hook.md`): a report
//! is one JSON object on stdout, `{"hookSpecificOutput": {"hookEventName": ..,
//! "additionalContext": ..}}`, exit 0, which the client adds to the next request as a system
//! block; nothing affected means no output at all, which costs no tokens. Every internal
//! failure is silence and exit 0: the hook exists to help the agent, never to stop it.

pub mod index;
pub mod refresh;
pub mod shell;

use crate::error::{Error, Result};
use crate::lifecycle::Rulebook;
use crate::scan::refs::write_like;
use crate::scan::walk;
use index::{Index, PathRef, Watch};
use refresh::{is_under, Current, Refs};
use serde::Deserialize;
use std::collections::{HashMap, HashSet};
use std::path::{Component, Path, PathBuf};

/// The Claude Code hook events `hygiene hook` answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Event {
    /// After a tool call (`PostToolUse`, or `PostToolUseFailure` for a Bash command that failed
    /// after it moved something): compare, report, refresh the index.
    PostToolUse,
    /// At session start: build or refresh the index so the first tool call has a before, and
    /// report nothing.
    SessionStart,
}

/// The fields of the hook input the helper reads; the client sends more (`session_id`,
/// `transcript_path`, `tool_response`, ...), which are ignored.
#[derive(Debug, Default, Deserialize)]
pub struct Input {
    /// `PostToolUse`, `PostToolUseFailure`, `SessionStart`.
    #[serde(default)]
    pub hook_event_name: Option<String>,
    /// `Bash`, `Write`, `Edit`, ...
    #[serde(default)]
    pub tool_name: Option<String>,
    /// The tool's arguments; a Bash `command` and an editing tool's `file_path` or
    /// `notebook_path` are read.
    #[serde(default)]
    pub tool_input: Option<serde_json::Value>,
    /// The folder the session is in after the call (it follows a `cd` in the command).
    #[serde(default)]
    pub cwd: Option<String>,
}

impl Input {
    /// The Bash command of the call, if it was one.
    pub fn command(&self) -> Option<&str> {
        (self.tool_name.as_deref() == Some("Bash"))
            .then(|| self.tool_input.as_ref()?.get("command")?.as_str())
            .flatten()
    }

    /// What the hook reads of the call: the Bash command, or the file an editing tool wrote
    /// (`file_path`, `notebook_path`).
    pub fn call(&self) -> Call<'_> {
        let command = self.command();
        let file = ["file_path", "notebook_path"]
            .iter()
            .find_map(|k| self.tool_input.as_ref()?.get(*k)?.as_str());
        Call {
            command,
            file: if command.is_some() { None } else { file },
        }
    }
}

/// One reference the call broke.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Finding {
    /// The document, root-relative.
    pub doc: String,
    /// 1-based line of the reference.
    pub line: u32,
    /// The path part as written.
    pub written: String,
    /// The root-relative path it named, which is gone.
    pub gone: String,
    /// The document's own old path, when the document itself moved and its relative
    /// reference no longer resolves from the new place.
    pub moved_from: Option<String>,
    /// Where the named path went (root-relative), when the command or git says and it exists.
    pub new_path: Option<String>,
    /// The text to write instead of `written`, spelled like it (folder-relative or not).
    pub replacement: Option<String>,
}

/// The most findings a report lists; the rest are counted.
pub const MAX_LISTED: usize = 10;

/// Runs the hook for `event` on the raw stdin bytes and returns what to print (the JSON line),
/// or `None` to print nothing. Never fails: an unreadable input, a repository it cannot read, a
/// broken rulebook all mean silence. `fallback_dir` is where to look when the input has no
/// `cwd` (the client's `CLAUDE_PROJECT_DIR`).
pub fn run(event: Event, stdin: &[u8], fallback_dir: Option<&Path>) -> Option<String> {
    // Test hook, debug builds only: `tests/hook.rs` proves a panic is silence and exit 0.
    #[cfg(debug_assertions)]
    if std::env::var_os("HYGIENE_TEST_HOOK_PANIC").is_some() {
        panic!("HYGIENE_TEST_HOOK_PANIC");
    }
    let input: Input = serde_json::from_slice(stdin).ok()?;
    let cwd = input
        .cwd
        .as_deref()
        .map(PathBuf::from)
        .or_else(|| fallback_dir.map(Path::to_path_buf))?;
    let root = find_root(&cwd)?;
    let cwd = cwd.canonicalize().unwrap_or(cwd);
    let findings = match event {
        Event::SessionStart => {
            check(&root, Some(&cwd), Call::default(), false).ok()?;
            return None;
        }
        Event::PostToolUse => check(&root, Some(&cwd), input.call(), true).ok()?,
    };
    if findings.is_empty() {
        return None;
    }
    let event_name = match input.hook_event_name.as_deref() {
        Some("PostToolUseFailure") => "PostToolUseFailure",
        _ => "PostToolUse",
    };
    Some(output(event_name, &message(&findings)))
}

/// The JSON the client reads from a command hook's stdout: the text goes to the model as
/// additional context. The event name must be the one the client called with, or the client
/// drops the text.
///
/// ```
/// let out: serde_json::Value =
///     serde_json::from_str(&hygiene::hook::output("PostToolUse", "x")).unwrap();
/// assert_eq!(
///     out,
///     serde_json::json!({"hookSpecificOutput": {"hookEventName": "PostToolUse", "additionalContext": "x"}})
/// );
/// ```
pub fn output(event_name: &str, context: &str) -> String {
    serde_json::json!({
        "hookSpecificOutput": {
            "hookEventName": event_name,
            "additionalContext": context,
        }
    })
    .to_string()
}

/// The git work tree holding `dir`: the nearest folder at or above it with a `.git` entry (a
/// folder, or the file of a linked worktree), canonicalized. `None` outside a repository: the
/// hook never indexes a folder that is not a repository (a home folder, `/tmp`).
pub fn find_root(dir: &Path) -> Option<PathBuf> {
    let dir = dir.canonicalize().ok()?;
    dir.ancestors()
        .find(|d| std::fs::symlink_metadata(d.join(".git")).is_ok())
        .map(Path::to_path_buf)
}

/// The `.hygiene/.gitignore` the hook writes when it creates `.hygiene/` itself: a repository
/// where hygiene only ran its hook shows nothing new in `git status` (the file ignores itself
/// too), and the files a repository commits (`rulebook.json`, `conventions.json`) stay visible.
pub const GITIGNORE: &str = "# Written by hygiene: its scratch files (hook index, scans, reports) are not committed.\n*\n!rulebook.json\n!conventions.json\n";

/// Makes sure `.hygiene/` is a folder inside the root (not a link out of it), creating it with
/// its `.gitignore` when missing.
fn prepare_dir(root: &Path) -> Result<PathBuf> {
    let dir = crate::paths::resolve_inside(root, ".hygiene", true)
        .map_err(|e| Error::Other(format!(".hygiene: {e}")))?;
    match std::fs::symlink_metadata(&dir) {
        Ok(m) if m.is_dir() => Ok(dir),
        Ok(_) => Err(Error::Other(".hygiene is not a folder".into())),
        Err(_) => {
            std::fs::create_dir(&dir).map_err(|e| Error::io(&dir, e))?;
            let ignore = dir.join(".gitignore");
            std::fs::write(&ignore, GITIGNORE).map_err(|e| Error::io(&ignore, e))?;
            Ok(dir)
        }
    }
}

/// What the tool call was, as far as the hook reads it.
#[derive(Debug, Clone, Copy, Default)]
pub struct Call<'a> {
    /// The Bash command, if it was one: read for new names and for documents it writes.
    pub command: Option<&'a str>,
    /// The file a `Write`, `Edit`, `MultiEdit` or `NotebookEdit` changed.
    pub file: Option<&'a str>,
}

/// A hash of the settings that decide which files are documents.
fn config_hash(scope: &[String], excluded: &[String]) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    (scope, excluded).hash(&mut h);
    h.finish()
}

/// Compares the tree under `root` with the index, refreshes the index, and (with `detect`)
/// returns the references the change broke. `cwd` is where the call ended. Without `detect`
/// (session start) the whole tree is walked again; with it, only the folders that changed.
/// A repository whose rulebook turns the hook off yields nothing and keeps no index.
pub fn check(
    root: &Path,
    cwd: Option<&Path>,
    call: Call<'_>,
    detect: bool,
) -> Result<Vec<Finding>> {
    let rulebook = Rulebook::load_settings(root)?;
    if !rulebook.hook.enabled {
        return Ok(Vec::new());
    }
    prepare_dir(root)?;
    let lock_path = crate::paths::resolve_inside(root, index::LOCK_FILE, true)
        .map_err(|e| Error::Other(format!("{}: {e}", index::LOCK_FILE)))?;
    let lock = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&lock_path)
        .map_err(|e| Error::io(&lock_path, e))?;
    // Parallel tool calls run their hooks at once: one at a time sees one change at a time.
    lock.lock().map_err(|e| Error::io(&lock_path, e))?;

    let (scope, excluded) = crate::scan::document_set(&rulebook, None, &[]);
    let globs = walk::globset(&scope)?;
    let docs = refresh::Docs {
        globs: &globs,
        excluded: &excluded,
    };
    let config = config_hash(&scope, &excluded);
    let cwd_s = cwd.map(|c| c.to_string_lossy().into_owned());
    let watch = Index::load_watch(root).filter(|w| w.config == config);
    let next = match (&watch, detect) {
        (Some(w), true) => {
            let touched = touched_docs(root, w, cwd, call, &globs);
            match refresh::incremental(root, &docs, w, &touched) {
                Some(next) => next,
                None => {
                    // Nothing changed; remember where the session is for the next command.
                    if w.cwd != cwd_s {
                        let mut w = w.clone();
                        w.cwd = cwd_s;
                        w.save(root)
                            .map_err(|e| Error::io(root.join(index::WATCH_FILE), e))?;
                    }
                    return Ok(Vec::new());
                }
            }
        }
        _ => refresh::full(root, &docs, Index::load(root)),
    };
    let findings = match (&next.old, &watch, detect) {
        (Some(old), Some(w), true) => {
            let exists = refresh::Exists::new(root, next.tree.as_ref());
            detect_breaks(
                root,
                &|p| exists.get(p),
                old,
                &next,
                call.command,
                [w.cwd.as_deref().map(Path::new), cwd],
            )
        }
        _ => Vec::new(),
    };
    refresh::save(root, &next, config, cwd_s)?;
    drop(lock);
    Ok(findings)
}

/// The documents the call names that may have changed in place (a write in place leaves the
/// folder time alone): a `Write`/`Edit` file, and every word of a Bash command that reads as
/// a path to a document (`>> CLAUDE.md`, `sed -i ... docs/x.md`), from where the command may
/// have started.
fn touched_docs(
    root: &Path,
    watch: &Watch,
    cwd: Option<&Path>,
    call: Call<'_>,
    globs: &globset::GlobSet,
) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut bases: Vec<&Path> = Vec::new();
    for b in [watch.cwd.as_deref().map(Path::new), cwd, Some(root)]
        .into_iter()
        .flatten()
    {
        if !bases.contains(&b) {
            bases.push(b);
        }
    }
    let mut add = |abs: PathBuf| {
        if let Some(rel) = rel_to_root(root, &abs) {
            if !rel.is_empty() && globs.is_match(&rel) && !out.contains(&rel) {
                out.push(rel);
            }
        }
    };
    if let Some(f) = call.file {
        // The client names the file as the session sees it; the root is canonical.
        let abs = lexical_join(cwd.unwrap_or(root), f);
        let abs = match (
            abs.parent().and_then(|d| d.canonicalize().ok()),
            abs.file_name(),
        ) {
            (Some(dir), Some(name)) => dir.join(name),
            _ => abs,
        };
        add(abs);
    }
    if let Some(cmd) = call.command {
        let words = cmd
            .split(|c: char| c.is_whitespace() || "'\"`;&|<>()=".contains(c))
            .filter(|w| !w.is_empty() && !w.starts_with('-') && w.contains('.'));
        for w in words {
            for b in &bases {
                add(lexical_join(b, w));
            }
        }
    }
    out
}

/// The references broken since the index: in documents still at their place, those whose named
/// path existed and is gone; in a document that moved (per the command or git), those that
/// resolved from the old place and do not from the new one.
fn detect_breaks(
    root: &Path,
    exists: &dyn Fn(&str) -> bool,
    old: &Index,
    next: &refresh::Next,
    command: Option<&str>,
    starts: [Option<&Path>; 2],
) -> Vec<Finding> {
    let (old_bits, now_old, current) = (&next.old_bits, &next.now_old, &next.current);
    let gone: HashSet<u32> = (0..old.targets.len() as u32)
        .filter(|&i| old_bits[i as usize] && !now_old[i as usize])
        .collect();
    let here: HashSet<&str> = current.iter().map(|c| c.path.as_str()).collect();
    let vanished: Vec<&str> = old
        .docs
        .iter()
        .map(|d| d.0.as_str())
        .filter(|p| !here.contains(p))
        .collect();
    let old_pos: HashMap<&str, usize> = old
        .docs
        .iter()
        .enumerate()
        .map(|(i, d)| (d.0.as_str(), i))
        .collect();
    let arrived: Vec<&Current> = current
        .iter()
        .filter(|c| !old_pos.contains_key(c.path.as_str()))
        .collect();
    if gone.is_empty() && (vanished.is_empty() || arrived.is_empty()) {
        return Vec::new();
    }
    let old_ids: HashMap<&str, u32> = old
        .targets
        .iter()
        .enumerate()
        .map(|(i, p)| (p.as_str(), i as u32))
        .collect();
    let existed = |p: &str| old_ids.get(p).is_some_and(|&i| old_bits[i as usize]);
    let gone_paths: HashSet<&str> = gone
        .iter()
        .map(|&i| old.targets[i as usize].as_str())
        .collect();

    // The paths that went away, for choosing where a command's relative paths start.
    let was_there = |p: &str| {
        existed(p)
            || old_pos.contains_key(p)
            || old
                .targets
                .iter()
                .zip(old_bits)
                .any(|(t, e)| *e && is_under(t, p))
            || old.docs.iter().any(|d| is_under(&d.0, p))
    };
    // Asked at most once, and only when something broke: it may run git.
    let mut cache: Option<Vec<(String, String)>> = None;
    let mut renames = || -> Vec<(String, String)> {
        cache
            .get_or_insert_with(|| {
                let mut bases: Vec<PathBuf> = Vec::new();
                for b in starts
                    .into_iter()
                    .flatten()
                    .map(Path::to_path_buf)
                    .chain(std::iter::once(root.to_path_buf()))
                {
                    if !bases.contains(&b) {
                        bases.push(b);
                    }
                }
                let mut out = command
                    .map(|c| command_renames(c, &bases, root, &was_there, exists))
                    .unwrap_or_default();
                // Git is asked only for what the command does not explain (two processes).
                let explained = gone_paths
                    .iter()
                    .copied()
                    .chain(vanished.iter().copied())
                    .all(|p| renamed(p, &out).is_some_and(|n| exists(&n)));
                if !explained {
                    if let Some(repo) = crate::git::Repo::discover(root) {
                        out.extend(repo.recent_renames());
                    }
                }
                out
            })
            .clone()
    };

    let mut findings = Vec::new();
    // Documents at their place whose named paths went away.
    for c in current {
        if !old_pos.contains_key(c.path.as_str()) {
            continue;
        }
        let touched = match &c.refs {
            Refs::Old(i) => old.docs[*i].3.iter().flatten().any(|id| gone.contains(id)),
            Refs::New(r) => r
                .iter()
                .flat_map(|r| &r.candidates)
                .any(|(p, _)| gone_paths.contains(p.as_str())),
        };
        if !touched {
            continue;
        }
        let Ok(text) = crate::scan::read_doc(root, &c.path) else {
            continue;
        };
        for r in index::written_refs(&c.path, &text) {
            let before = r.candidates.iter().find(|(p, _)| existed(p));
            let now = r.candidates.iter().any(|(p, _)| exists(p));
            if let (Some((p, folder_relative)), false) = (before, now) {
                findings.push(finding(
                    &c.path,
                    &r,
                    p,
                    *folder_relative,
                    None,
                    &renames(),
                    exists,
                ));
            }
        }
    }
    // Documents that moved: their own relative references.
    if !vanished.is_empty() && !arrived.is_empty() {
        let map = renames();
        for c in arrived {
            let Some(from) = vanished
                .iter()
                .find(|v| renamed(v, &map).as_deref() == Some(c.path.as_str()))
            else {
                continue;
            };
            let Ok(text) = crate::scan::read_doc(root, &c.path) else {
                continue;
            };
            for r in index::written_refs(&c.path, &text) {
                let before_cands = crate::scan::refs::candidates(from, &r.written);
                let before = before_cands.iter().find(|(p, _)| existed(p));
                let now = r.candidates.iter().any(|(p, _)| exists(p));
                if let (Some((p, folder_relative)), false) = (before, now) {
                    findings.push(finding(
                        &c.path,
                        &r,
                        p,
                        *folder_relative,
                        Some(from),
                        &map,
                        exists,
                    ));
                }
            }
        }
    }
    findings.sort();
    findings.dedup();
    findings
}

fn finding(
    doc: &str,
    r: &PathRef,
    gone: &str,
    folder_relative: bool,
    moved_from: Option<&str>,
    renames: &[(String, String)],
    exists: &dyn Fn(&str) -> bool,
) -> Finding {
    // The named path moved (per the command or git), or, for a moved document, it may simply
    // still be where it was.
    let new_path = renamed(gone, renames)
        .filter(|n| exists(n))
        .or_else(|| (moved_from.is_some() && exists(gone)).then(|| gone.to_string()));
    let replacement = new_path
        .as_deref()
        .map(|n| {
            let rep = write_like(&r.written, folder_relative, doc, n);
            // `docs/old/` stays spelled as a folder.
            if r.written.ends_with('/') && !rep.ends_with('/') {
                format!("{rep}/")
            } else {
                rep
            }
        })
        .filter(|rep| *rep != r.written);
    Finding {
        doc: doc.to_string(),
        line: r.line,
        written: r.written.clone(),
        gone: gone.to_string(),
        moved_from: moved_from.map(str::to_string),
        new_path: new_path.filter(|n| n != gone),
        replacement,
    }
}

/// Where `path` went per `renames` (first match, a folder rename carrying what is inside it).
fn renamed(path: &str, renames: &[(String, String)]) -> Option<String> {
    renames.iter().find_map(|(from, to)| {
        if path == from {
            Some(to.clone())
        } else {
            path.strip_prefix(from.as_str())
                .and_then(|rest| rest.strip_prefix('/'))
                .map(|rest| {
                    if to.is_empty() {
                        rest.to_string()
                    } else {
                        format!("{to}/{rest}")
                    }
                })
        }
    })
}

/// Joins `rel` onto the absolute `base` and removes `.` and `..`, without touching the disk.
fn lexical_join(base: &Path, rel: &str) -> PathBuf {
    let mut out = PathBuf::new();
    for c in base.join(rel).components() {
        match c {
            Component::ParentDir => {
                out.pop();
            }
            Component::CurDir => {}
            c => out.push(c.as_os_str()),
        }
    }
    out
}

/// The root-relative form of the absolute `abs` (`""` for the root), `None` outside it.
fn rel_to_root(root: &Path, abs: &Path) -> Option<String> {
    if abs == root {
        return Some(String::new());
    }
    crate::paths::to_rel(root, abs)
}

/// The `(old, new)` root-relative renames `command` made. Its relative paths start from one of
/// `bases` (the folder the previous call ended in, this call's, the root): the one under which
/// the most sources name paths that were there before and are gone now.
fn command_renames(
    command: &str,
    bases: &[PathBuf],
    root: &Path,
    was_there: &dyn Fn(&str) -> bool,
    exists: &dyn Fn(&str) -> bool,
) -> Vec<(String, String)> {
    let moves = shell::moves(command);
    if moves.is_empty() {
        return Vec::new();
    }
    let mut best: (usize, Vec<(String, String)>) = (0, Vec::new());
    for base in bases {
        let mut score = 0;
        let mut pairs = Vec::new();
        for m in &moves {
            let mut dir = base.clone();
            for step in &m.cd {
                dir = lexical_join(&dir, step);
            }
            let Some(dest) = rel_to_root(root, &lexical_join(&dir, &m.dest)) else {
                continue;
            };
            for s in &m.sources {
                let Some(src) = rel_to_root(root, &lexical_join(&dir, s)) else {
                    continue;
                };
                if src.is_empty() {
                    continue;
                }
                let name = src.rsplit('/').next().unwrap_or(&src);
                let inside = if dest.is_empty() {
                    name.to_string()
                } else {
                    format!("{dest}/{name}")
                };
                let new = match m.into_dir {
                    Some(true) => inside,
                    Some(false) => dest.clone(),
                    None if exists(&inside) => inside,
                    None => dest.clone(),
                };
                if new.is_empty() {
                    continue;
                }
                if was_there(&src) && !exists(&src) {
                    score += 1;
                }
                pairs.push((src, new));
            }
        }
        if score > best.0 {
            best = (score, pairs);
        }
    }
    best.1
}

/// The text the agent reads: one line per broken reference with the fix when known, at most
/// [`MAX_LISTED`] lines, then a count.
///
/// ```
/// use hygiene::hook::{message, Finding};
/// let f = Finding {
///     doc: "CLAUDE.md".into(),
///     line: 3,
///     written: "src/a.rs".into(),
///     gone: "src/a.rs".into(),
///     moved_from: None,
///     new_path: Some("src/b.rs".into()),
///     replacement: Some("src/b.rs".into()),
/// };
/// assert_eq!(
///     message(&[f]),
///     "hygiene: 1 document reference now names a path that no longer exists. Fix it in this turn:\n\
///      - CLAUDE.md:3: `src/a.rs` was moved to `src/b.rs`; replace `src/a.rs` with `src/b.rs` on that line."
/// );
/// ```
pub fn message(findings: &[Finding]) -> String {
    let n = findings.len();
    let mut out = if n == 1 {
        "hygiene: 1 document reference now names a path that no longer exists. Fix it in this turn:"
            .to_string()
    } else {
        format!(
            "hygiene: {n} document references now name paths that no longer exist. Fix them in this turn:"
        )
    };
    for f in findings.iter().take(MAX_LISTED) {
        out.push_str(&format!("\n- {}:{}: ", f.doc, f.line));
        let named = if f.moved_from.is_none() && f.written.trim_matches('/') != f.gone {
            format!("`{}` ({})", f.written, f.gone)
        } else {
            format!("`{}`", f.written)
        };
        match (&f.moved_from, &f.new_path, &f.replacement) {
            (Some(from), _, Some(rep)) => out.push_str(&format!(
                "{named} no longer resolves since the document moved from {from}; replace it with `{rep}`."
            )),
            (Some(from), _, None) => out.push_str(&format!(
                "{named} no longer resolves since the document moved from {from}; point it at the new place or remove it."
            )),
            (None, Some(new), Some(rep)) => out.push_str(&format!(
                "{named} was moved to `{new}`; replace `{}` with `{rep}` on that line.",
                f.written
            )),
            _ => out.push_str(&format!(
                "{named} no longer exists; point it at the new place or remove the reference."
            )),
        }
    }
    if n > MAX_LISTED {
        out.push_str(&format!(
            "\n- ... and {} more; `hygiene scan --fail-on missing-path` lists them all.",
            n - MAX_LISTED
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renames_carry_folders_and_stop_at_segment_boundaries() {
        let map = vec![
            ("docs/old".to_string(), "docs/new".to_string()),
            ("a.md".to_string(), "b/a.md".to_string()),
        ];
        assert_eq!(
            renamed("docs/old/x/y.md", &map).as_deref(),
            Some("docs/new/x/y.md")
        );
        assert_eq!(renamed("docs/old", &map).as_deref(), Some("docs/new"));
        assert_eq!(renamed("docs/older/x.md", &map), None);
        assert_eq!(renamed("a.md", &map).as_deref(), Some("b/a.md"));
        let to_root = vec![("sub".to_string(), String::new())];
        assert_eq!(renamed("sub/x.md", &to_root).as_deref(), Some("x.md"));
    }

    #[test]
    fn lexical_paths_stay_lexical() {
        let root = Path::new("/r");
        assert_eq!(lexical_join(root, "a/../b/./c"), PathBuf::from("/r/b/c"));
        assert_eq!(
            lexical_join(Path::new("/r/docs"), "/abs/x"),
            PathBuf::from("/abs/x")
        );
        assert_eq!(rel_to_root(root, Path::new("/r")).as_deref(), Some(""));
        assert_eq!(
            rel_to_root(root, Path::new("/r/a/b")).as_deref(),
            Some("a/b")
        );
        assert_eq!(rel_to_root(root, Path::new("/elsewhere")), None);
    }

    #[test]
    fn command_renames_pick_the_base_the_command_ran_in() {
        let root = Path::new("/r");
        let was = |p: &str| p == "docs/a.md";
        let exists = |p: &str| p == "docs/b.md" || p == "docs" || p == "docs/sub";
        // The session was in /r/docs; the hook's cwd after `cd sub` is /r/docs/sub.
        let bases = [
            PathBuf::from("/r/docs/sub"),
            PathBuf::from("/r/docs"),
            root.to_path_buf(),
        ];
        assert_eq!(
            command_renames("mv a.md b.md && cd sub", &bases, root, &was, &exists),
            vec![("docs/a.md".to_string(), "docs/b.md".to_string())]
        );
        // A move that matches nothing that went away yields nothing.
        assert!(command_renames("mv x y", &bases, root, &was, &exists).is_empty());
    }

    #[test]
    fn inputs_that_are_not_for_the_hook_are_silent() {
        for stdin in [&b""[..], b"null", b"[]", b"{\"cwd\": 3}", b"{not json"] {
            assert_eq!(run(Event::PostToolUse, stdin, None), None);
        }
        // No cwd and no fallback, or a folder outside any repository.
        assert_eq!(run(Event::PostToolUse, b"{}", None), None);
        let t = tempfile::tempdir().unwrap();
        let stdin = serde_json::json!({"cwd": t.path()}).to_string();
        assert_eq!(run(Event::PostToolUse, stdin.as_bytes(), None), None);
        assert!(
            !t.path().join(".hygiene").exists(),
            "nothing is written outside a repository"
        );
    }

    #[test]
    fn only_bash_has_a_command() {
        let i: Input =
            serde_json::from_str(r#"{"tool_name": "Bash", "tool_input": {"command": "mv a b"}}"#)
                .unwrap();
        assert_eq!(i.command(), Some("mv a b"));
        let i: Input = serde_json::from_str(
            r#"{"tool_name": "Write", "tool_input": {"command": "mv a b", "content": "x"}}"#,
        )
        .unwrap();
        assert_eq!(i.command(), None);
    }
}
