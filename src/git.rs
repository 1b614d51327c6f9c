//! Git facts, read from the `git` command the user already trusts.
//!
//! Why the command and not a library: a rename the scanner reports becomes an automatic edit,
//! so renames must equal what `git log -M` says, and the surest way to agree with git is to ask
//! it. The whole history is read in **one** `git log` process per scan ([`History::load`]);
//! tracked and clean state is read live ([`Repo::state`]) whenever a tier is derived, never
//! taken from a report. Every failure degrades to "unknown" with a warning; none aborts a scan.

use crate::tier::GitState;
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// A git work tree, seen from the scanned root (which may be a subfolder of the work tree).
#[derive(Debug, Clone)]
pub struct Repo {
    root: PathBuf,
    /// The root's path inside the work tree, with a trailing `/` (empty at the top level).
    prefix: String,
    /// The repository's git directory (absolute).
    git_dir: PathBuf,
    /// Whether it is a shallow clone (asked once, with the rest).
    shallow: bool,
}

fn git(root: &Path) -> Command {
    let mut c = Command::new("git");
    c.arg("-C")
        .arg(root)
        .args(["-c", "core.quotepath=off"])
        .env("GIT_OPTIONAL_LOCKS", "0")
        // A partial clone fetches missing objects from its remote on demand: a scan must never
        // touch the network, so a missing object is an error to degrade from instead.
        .env("GIT_NO_LAZY_FETCH", "1")
        .env("LC_ALL", "C");
    c
}

/// How long one git command may run before the helper stops waiting (`HYGIENE_GIT_TIMEOUT`,
/// seconds; default 120). A repository can make git block forever (a FIFO named
/// `.git/info/exclude`, a hung filesystem); the scan must still finish.
pub fn timeout() -> std::time::Duration {
    let secs = std::env::var("HYGIENE_GIT_TIMEOUT")
        .ok()
        .and_then(|v| v.trim().parse::<u64>().ok())
        .unwrap_or(120);
    std::time::Duration::from_secs(secs.max(1))
}

/// Runs `c` with stdout and stderr captured, killing it after [`timeout`]. `None` when it could
/// not start or was killed.
pub fn run_bounded(c: Command) -> Option<std::process::Output> {
    run_bounded_input(c, None)
}

/// [`run_bounded`], writing `input` (when given) to the command's stdin from another thread.
fn run_bounded_input(mut c: Command, input: Option<Vec<u8>>) -> Option<std::process::Output> {
    use std::io::{Read, Write};
    let mut child = c
        .stdin(if input.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .ok()?;
    if let (Some(bytes), Some(mut stdin)) = (input, child.stdin.take()) {
        // Dropping stdin at the end closes it, so git sees the end of its input.
        std::thread::spawn(move || {
            let _ = stdin.write_all(&bytes);
        });
    }
    let mut out = child.stdout.take()?;
    let mut err = child.stderr.take()?;
    let reader = std::thread::spawn(move || {
        let mut b = Vec::new();
        let _ = out.read_to_end(&mut b);
        b
    });
    let err_reader = std::thread::spawn(move || {
        let mut b = Vec::new();
        let _ = (&mut err).take(64 * 1024).read_to_end(&mut b);
        // Drain the rest so git never blocks on a full pipe.
        let _ = std::io::copy(&mut err, &mut std::io::sink());
        b
    });
    let deadline = std::time::Instant::now() + timeout();
    let status = loop {
        match child.try_wait() {
            Ok(Some(s)) => break Some(s),
            Ok(None) if std::time::Instant::now() < deadline => {
                std::thread::sleep(std::time::Duration::from_millis(5))
            }
            _ => {
                let _ = child.kill();
                let _ = child.wait();
                break None;
            }
        }
    };
    let stdout = reader.join().unwrap_or_default();
    let stderr = err_reader.join().unwrap_or_default();
    status.map(|status| std::process::Output {
        status,
        stdout,
        stderr,
    })
}

fn output(c: Command) -> Option<Vec<u8>> {
    let out = run_bounded(c)?;
    out.status.success().then_some(out.stdout)
}

/// Which of `needles` (root-relative paths) occur in a tracked file under `root` whose name ends
/// with one of `extensions` (`git grep -F` over the work tree, one process); empty when none
/// does or git cannot say. git is asked for the lines holding each needle's last folder
/// (`plans/` for `docs/plans/a.md`), a few patterns for any number of needles (eighty paths as
/// patterns took five times as long), and the lines are searched for the needles here.
pub fn occurring_in(root: &Path, needles: &[String], extensions: &[&str]) -> HashSet<String> {
    let needles: Vec<&String> = needles
        .iter()
        .filter(|n| !n.is_empty() && !n.contains(['\n', '\r']))
        .collect();
    let probes: std::collections::BTreeSet<&str> = needles
        .iter()
        .map(|n| match n.rsplit_once('/') {
            Some((dir, _)) => &n[dir.rfind('/').map_or(0, |i| i + 1)..dir.len() + 1],
            None => n.as_str(),
        })
        .collect();
    if probes.is_empty() {
        return HashSet::new();
    }
    let mut c = git(root);
    c.args(["grep", "-I", "-F", "-h", "--no-color"]);
    for p in &probes {
        c.arg("-e").arg(p);
    }
    c.arg("--");
    c.args(extensions.iter().map(|e| format!("*.{e}")));
    // git grep exits 1 when nothing matched: no match is an answer too.
    let Some(out) = run_bounded(c).filter(|o| o.status.code().is_some_and(|c| c <= 1)) else {
        return HashSet::new();
    };
    let lines: Vec<&str> = out
        .stdout
        .split(|&b| b == b'\n')
        .filter_map(|l| std::str::from_utf8(l).ok())
        .collect();
    needles
        .into_iter()
        .filter(|n| lines.iter().any(|l| l.contains(n.as_str())))
        .cloned()
        .collect()
}

/// The URLs of every remote of the repository at `root` (`remote.<name>.url`); empty when
/// there is none or git cannot say.
pub fn remote_urls(root: &Path) -> Vec<String> {
    let mut c = git(root);
    c.args(["config", "--get-regexp", r"^remote\..*\.url$"]);
    let Some(out) = output(c) else {
        return Vec::new();
    };
    String::from_utf8_lossy(&out)
        .lines()
        .filter_map(|l| l.split_once(' ').map(|(_, url)| url.trim().to_string()))
        .collect()
}

fn split_z(bytes: &[u8]) -> impl Iterator<Item = String> + '_ {
    bytes
        .split(|&b| b == 0)
        .filter(|s| !s.is_empty())
        .map(|s| String::from_utf8_lossy(s).into_owned())
}

impl Repo {
    /// The content of each `(commit, path)` at that commit (`git cat-file --batch`, one
    /// process), `None` where it does not exist there, is no blob, or is over the size cap.
    pub fn blobs_at(&self, wanted: &[(String, String)]) -> Vec<Option<Vec<u8>>> {
        let mut input = Vec::new();
        let asked: Vec<bool> = wanted
            .iter()
            .map(|(c, p)| {
                // The batch protocol is line-based: a path with a newline cannot be asked.
                let ok = !p.contains(['\n', '\r']) && !c.contains(['\n', '\r']);
                if ok {
                    input.extend_from_slice(format!("{c}:{p}\n").as_bytes());
                }
                ok
            })
            .collect();
        let mut c = git(&self.root);
        c.args(["cat-file", "--batch"]);
        let out = run_bounded_input(c, Some(input))
            .filter(|o| o.status.success())
            .map(|o| o.stdout)
            .unwrap_or_default();
        let mut at = 0usize;
        let mut next = || -> Option<Vec<u8>> {
            let nl = at + out.get(at..)?.iter().position(|&b| b == b'\n')?;
            let header = String::from_utf8_lossy(&out[at..nl]).into_owned();
            at = nl + 1;
            let mut f = header.split(' ');
            let (_, kind, size) = (f.next()?, f.next()?, f.next()?);
            let size: usize = size.parse().ok()?;
            let body = out.get(at..at + size)?.to_vec();
            at += size + 1;
            (kind == "blob" && size as u64 <= crate::scan::THRESHOLDS.file_size_cap_bytes)
                .then_some(body)
        };
        asked
            .into_iter()
            .map(|ok| if ok { next() } else { None })
            .collect()
    }

    /// The repository containing `root`, or `None` when `root` is not inside a git work tree or
    /// git is not installed.
    pub fn discover(root: &Path) -> Option<Repo> {
        let mut c = git(root);
        c.args([
            "rev-parse",
            "--is-inside-work-tree",
            "--absolute-git-dir",
            "--show-prefix",
            "--is-shallow-repository",
        ]);
        let out = String::from_utf8(output(c)?).ok()?;
        let mut lines = out.lines();
        if lines.next()? != "true" {
            return None;
        }
        let git_dir = PathBuf::from(lines.next()?);
        let prefix = lines.next().unwrap_or("").to_string();
        let shallow = lines.next() == Some("true");
        Some(Repo {
            root: root.to_path_buf(),
            prefix,
            git_dir,
            shallow,
        })
    }

    /// The scanned root.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// Maps a work-tree-relative path to a root-relative one (`None` when outside the root).
    fn local(&self, path: &str) -> Option<String> {
        path.strip_prefix(self.prefix.as_str()).map(str::to_string)
    }

    /// The root's path inside the work tree, with a trailing `/` (empty at the top level).
    pub fn prefix(&self) -> &str {
        &self.prefix
    }

    /// The full id of the commit `HEAD` names; `None` before the first commit.
    pub fn head(&self) -> Option<String> {
        let mut c = git(&self.root);
        c.args(["rev-parse", "-q", "--verify", "HEAD^{commit}"]);
        let out = String::from_utf8(output(c)?).ok()?;
        let id = out.trim();
        (!id.is_empty()).then(|| id.to_string())
    }

    /// Whether `head` is `old` plus a chain of commits with one parent each (what a commit or a
    /// fast-forward adds): then `git log` from `head` prints that chain and then exactly what it
    /// prints from `old`.
    pub fn is_plain_chain(&self, old: &str, head: &str) -> bool {
        let mut c = git(&self.root);
        c.args(["rev-list", "--parents", &format!("{old}..{head}"), "--"]);
        let Some(out) = output(c).and_then(|o| String::from_utf8(o).ok()) else {
            return false;
        };
        let mut want = head;
        for line in out.lines() {
            let mut ids = line.split(' ');
            let (Some(id), Some(parent), None) = (ids.next(), ids.next(), ids.next()) else {
                return false;
            };
            if id != want {
                return false;
            }
            want = parent;
        }
        want == old
    }

    /// Whether the repository is a shallow clone (its history is cut off).
    pub fn is_shallow(&self) -> bool {
        self.shallow
    }

    /// Root-relative paths of every tracked file under the root.
    pub fn tracked(&self) -> HashSet<String> {
        let mut c = git(&self.root);
        c.args(["ls-files", "-z", "--full-name"]);
        match output(c) {
            Some(out) => split_z(&out).filter_map(|p| self.local(&p)).collect(),
            None => HashSet::new(),
        }
    }

    /// Root-relative tracked paths that differ from HEAD in the index or worktree; `None` when
    /// git could not say (a failed or timed-out `git status`), which callers must read as
    /// "not clean". Untracked files are not listed: an untracked path is already "not
    /// tracked", and listing them would make git read ignore files (which can block).
    pub fn dirty(&self) -> Option<HashSet<String>> {
        // `git status` opens the exclude file even without untracked files; a FIFO there
        // would block it until the timeout. Not a regular file: git cannot say.
        let special = |p: &Path| std::fs::symlink_metadata(p).is_ok_and(|m| !m.is_file());
        if special(&self.git_dir.join("info/exclude")) {
            return None;
        }
        let mut c = git(&self.root);
        c.args(["status", "--porcelain=v1", "-z", "--untracked-files=no"]);
        let out = output(c)?;
        let mut dirty = HashSet::new();
        let mut fields = split_z(&out);
        while let Some(rec) = fields.next() {
            if rec.len() < 4 {
                continue;
            }
            let (xy, path) = rec.split_at(3);
            // A rename or copy record is followed by its source path, which also changed.
            if xy.starts_with('R') || xy.starts_with('C') {
                if let Some(src) = fields.next() {
                    if let Some(p) = self.local(&src) {
                        dirty.insert(p);
                    }
                }
            }
            if let Some(p) = self.local(path) {
                dirty.insert(p);
            }
        }
        Some(dirty)
    }

    /// The live git state of a root-relative file or directory: tracked means every file under
    /// it is tracked (and there is at least one), clean means none differs from HEAD.
    pub fn state(&self, rel: &str) -> GitState {
        state_in(&self.tracked(), self.dirty().as_ref(), &self.root, rel)
    }

    /// Reads the whole history once. Never fails: a broken or missing history yields what could
    /// be read plus a warning.
    pub fn history(&self) -> History {
        History::load(self)
    }

    /// The renames git knows of that just happened: the staged ones (`git mv`, the index
    /// against HEAD) and those of the newest commit (a `git mv` committed in the same command),
    /// as root-relative `(old, new)` pairs with git's own rename detection. Two `git` processes,
    /// so the hook asks only when a path went away. Empty when git cannot say.
    pub fn recent_renames(&self) -> Vec<(String, String)> {
        let mut out = Vec::new();
        let mut staged = git(&self.root);
        staged.args([
            "diff",
            "--cached",
            "-M",
            "--name-status",
            "-z",
            "--no-color",
        ]);
        let mut newest = git(&self.root);
        newest.args([
            "log",
            "-1",
            "-M",
            "--name-status",
            "-z",
            "--no-color",
            "--format=",
            "HEAD",
            "--",
        ]);
        for c in [staged, newest] {
            if let Some(bytes) = output(c) {
                out.extend(self.renames_z(&bytes));
            }
        }
        out
    }

    /// The `R` records of `--name-status -z` output, root-relative.
    fn renames_z(&self, bytes: &[u8]) -> Vec<(String, String)> {
        let mut out = Vec::new();
        let mut tokens = split_z(bytes).map(|t| t.trim_start_matches('\n').to_string());
        while let Some(status) = tokens.next() {
            match status.chars().next() {
                Some('R') => {
                    if let (Some(old), Some(new)) = (tokens.next(), tokens.next()) {
                        if let (Some(o), Some(n)) = (self.local(&old), self.local(&new)) {
                            out.push((o, n));
                        }
                    }
                }
                Some('C') => {
                    tokens.next();
                    tokens.next();
                }
                _ => {
                    tokens.next();
                }
            }
        }
        out
    }
}

/// The live git facts a batch, a finalize or a sweep derives tiers from, read once.
#[derive(Debug, Clone, Default)]
pub struct Facts {
    /// Root-relative tracked files.
    pub tracked: HashSet<String>,
    /// Root-relative tracked files that differ from HEAD; `None` when git could not say.
    pub dirty: Option<HashSet<String>>,
    /// Whether the root is inside a git work tree.
    pub repo: bool,
}

impl Facts {
    /// Reads them for `root` (outside a work tree: nothing tracked).
    pub fn read(root: &Path) -> Facts {
        match Repo::discover(root) {
            Some(r) => Facts {
                tracked: r.tracked(),
                dirty: r.dirty(),
                repo: true,
            },
            None => Facts {
                tracked: HashSet::new(),
                dirty: Some(HashSet::new()),
                repo: false,
            },
        }
    }

    /// The state of a root-relative file or directory.
    pub fn state(&self, root: &Path, rel: &str) -> GitState {
        state_in(&self.tracked, self.dirty.as_ref(), root, rel)
    }
}

/// The git state of `rel` given precomputed tracked and dirty sets (one `git` call for a batch).
/// An unknown dirty set (`None`: git could not say) makes every path "not clean".
pub fn state_in(
    tracked: &HashSet<String>,
    dirty: Option<&HashSet<String>>,
    root: &Path,
    rel: &str,
) -> GitState {
    let Some(dirty) = dirty else {
        let known = state_in(tracked, Some(&HashSet::new()), root, rel);
        return GitState {
            tracked: known.tracked,
            clean: false,
        };
    };
    let full = root.join(rel);
    let meta = std::fs::symlink_metadata(&full).ok();
    if meta.as_ref().is_some_and(|m| m.is_dir()) {
        let dir = format!("{}/", rel.trim_end_matches('/'));
        let mut files = Vec::new();
        collect_files(&full, rel.trim_end_matches('/'), &mut files);
        let any_tracked = files.iter().any(|f| tracked.contains(f));
        let all_tracked = !files.is_empty() && files.iter().all(|f| tracked.contains(f));
        let clean = !dirty.iter().any(|d| d.starts_with(&dir));
        GitState {
            tracked: all_tracked && any_tracked,
            clean,
        }
    } else {
        GitState {
            tracked: tracked.contains(rel),
            clean: !dirty.contains(rel),
        }
    }
}

fn collect_files(dir: &Path, rel: &str, out: &mut Vec<String>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    for e in rd.flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        let child_rel = format!("{rel}/{name}");
        match e.file_type() {
            Ok(t) if t.is_dir() => collect_files(&e.path(), &child_rel, out),
            Ok(_) => out.push(child_rel),
            Err(_) => {}
        }
    }
}

/// The similarity score of a `--name-status` rename record (`R062` is 62); 100 when git
/// printed none.
fn rename_score(status: &str) -> u8 {
    status
        .get(1..)
        .and_then(|n| n.trim().parse::<u8>().ok())
        .map_or(100, |n| n.min(100))
}

/// The commit that last wrote each of `lines` (1-based) of `path` (root-relative) as `HEAD`
/// has it, with the line's text, by `git blame --porcelain HEAD` (one process). The caller
/// compares the text with the work tree's line: blaming the work tree itself (or
/// `--contents`) makes git open `.git/info/exclude`, which a FIFO there blocks, and a line
/// edited since `HEAD` is not the one blamed. A line git cannot say is absent; textconv
/// filters are never run. `None` when git failed.
pub fn blame_lines(
    root: &Path,
    path: &str,
    lines: &[u32],
) -> Option<HashMap<u32, (String, String)>> {
    let mut out = HashMap::new();
    if lines.is_empty() {
        return Some(out);
    }
    let mut c = git(root);
    c.args(["blame", "--porcelain", "--no-textconv"]);
    for l in lines {
        c.arg(format!("-L{l},{l}"));
    }
    c.args(["HEAD", "--"]).arg(path);
    let bytes = output(c)?;
    // A group's header is `<id> <original line> <final line> [<count>]`; fields follow, then
    // the line's text after a tab.
    let mut at: Option<(u32, String)> = None;
    for line in String::from_utf8_lossy(&bytes).lines() {
        if let Some(text) = line.strip_prefix('\t') {
            if let Some((n, id)) = at.take() {
                out.insert(n, (id, text.to_string()));
            }
            continue;
        }
        let mut f = line.split(' ');
        let (Some(id), Some(_), Some(fin)) = (f.next(), f.next(), f.next()) else {
            continue;
        };
        if id.len() < 40 || !id.bytes().all(|b| b.is_ascii_hexdigit()) {
            continue;
        }
        if let Ok(n) = fin.parse::<u32>() {
            at = Some((n, id.to_string()));
        }
    }
    Some(out)
}

/// The text of `path` (root-relative) in the first parent of `commit` (`git cat-file`, one
/// process); `None` when it was not there or git cannot say.
pub fn text_before(root: &Path, commit: &str, path: &str) -> Option<String> {
    let mut c = git(root);
    c.args(["cat-file", "blob", &format!("{commit}^:./{path}")]);
    String::from_utf8(output(c)?).ok()
}

/// How `commit` itself changed the text naming a file it renamed: in its patch against its
/// first parent (`git diff-tree -p -U0 -M`, one process; a renamed file shows only its
/// changes), the removed lines that named `old` and the added lines that name `new` (file
/// names). `None` when git cannot say.
pub fn name_changes(root: &Path, commit: &str, old: &str, new: &str) -> Option<(usize, usize)> {
    let mut c = git(root);
    c.args([
        "diff-tree",
        "-p",
        "-U0",
        "-M",
        "-r",
        "--root",
        "--no-color",
        "--no-textconv",
        "--no-ext-diff",
        commit,
    ]);
    let bytes = output(c)?;
    let (mut dropped, mut taken) = (0, 0);
    for line in bytes.split(|&b| b == b'\n') {
        let line = String::from_utf8_lossy(line);
        if line.starts_with("---") || line.starts_with("+++") {
            continue;
        }
        if let Some(l) = line.strip_prefix('-') {
            dropped += usize::from(l.contains(old));
        } else if let Some(l) = line.strip_prefix('+') {
            taken += usize::from(l.contains(new));
        }
    }
    Some((dropped, taken))
}

/// One commit, as the history walk saw it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Commit {
    /// Full commit id.
    pub id: String,
    /// Committer time, seconds since the Unix epoch.
    pub time: i64,
}

/// What happened to a path last, newest first.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LastEvent {
    /// It was renamed away to `to` (root-relative), with git's similarity score (0–100): a
    /// low score is a file split or rewritten, whose new name holds only part of the old.
    RenamedTo(String, usize, u8),
    /// It was deleted.
    Deleted(usize),
    /// It was added or modified (it should exist).
    Changed(usize),
}

/// Per-path history facts kept outside a [`History`]'s maps: the scan cache's packed history,
/// read on demand instead of into maps. Commit indices are its own (0: its newest commit).
pub trait PackedFacts: std::fmt::Debug + Send + Sync {
    /// The newest event of `path`.
    fn event(&self, path: &str) -> Option<LastEvent>;
    /// The commits touching `path`, newest first.
    fn touches(&self, path: &str) -> Option<Vec<usize>>;
    /// Every path it knows, in order.
    fn paths(&self) -> Vec<String>;
}

/// The facts one history walk yields. Commit indices point into [`History::commits`], newest
/// first. Per-path facts are asked for with [`History::event`] and [`History::touches`]: they
/// live in maps (a walk) and, for older commits, possibly in a packed base (the scan cache).
#[derive(Debug, Clone, Default)]
pub struct History {
    /// Every commit walked, newest first.
    pub commits: Vec<Commit>,
    /// The newest event per root-relative path (of the commits the maps cover).
    last_event: HashMap<String, LastEvent>,
    /// Commit indices touching each root-relative path (as a new or modified name), newest first.
    touches: HashMap<String, Vec<usize>>,
    /// Facts of the oldest commits, with the index of the first of them in `commits`.
    base: Option<(std::sync::Arc<dyn PackedFacts>, usize)>,
    /// Why the history is incomplete, if it is.
    pub warnings: Vec<String>,
    /// [`History::dot_folders_moved_out`], found on first use.
    moved_out: std::sync::OnceLock<HashSet<String>>,
    /// [`History::paths`], sorted, kept on first use by [`History::knew_under`].
    sorted_paths: std::sync::OnceLock<Vec<String>>,
}

fn shifted(ev: LastEvent, k: usize) -> LastEvent {
    match ev {
        LastEvent::RenamedTo(to, ci, score) => LastEvent::RenamedTo(to, ci + k, score),
        LastEvent::Deleted(ci) => LastEvent::Deleted(ci + k),
        LastEvent::Changed(ci) => LastEvent::Changed(ci + k),
    }
}

impl History {
    /// A history of `commits` (newest first) whose per-path facts are all in `base`.
    pub fn packed(commits: Vec<Commit>, base: std::sync::Arc<dyn PackedFacts>) -> History {
        History {
            commits,
            base: Some((base, 0)),
            ..History::default()
        }
    }

    /// `newer` (a walk of the commits on top of `older`'s newest, newest first) put in front of
    /// `older`: what one walk of the whole history yields when `git log` prints `newer`'s
    /// commits first and then `older`'s (a chain of plain commits on top).
    pub fn prepend(newer: History, older: History) -> History {
        let k = newer.commits.len();
        let mut h = newer;
        h.commits.extend(older.commits);
        for (p, ev) in older.last_event {
            h.last_event.entry(p).or_insert(shifted(ev, k));
        }
        for (p, v) in older.touches {
            h.touches
                .entry(p)
                .or_default()
                .extend(v.into_iter().map(|ci| ci + k));
        }
        h.base = older.base.map(|(b, at)| (b, at + k));
        h
    }

    /// The newest event of `path`.
    pub fn event(&self, path: &str) -> Option<LastEvent> {
        if let Some(ev) = self.last_event.get(path) {
            return Some(ev.clone());
        }
        let (base, at) = self.base.as_ref()?;
        base.event(path).map(|ev| shifted(ev, *at))
    }

    /// The commit indices touching `path` (as a new or modified name), newest first.
    pub fn touches(&self, path: &str) -> Option<std::borrow::Cow<'_, [usize]>> {
        use std::borrow::Cow;
        let mine = self.touches.get(path);
        let older = self
            .base
            .as_ref()
            .and_then(|(b, at)| b.touches(path).map(|v| (v, *at)));
        match (mine, older) {
            (None, None) => None,
            (Some(v), None) => Some(Cow::Borrowed(v.as_slice())),
            (mine, Some((v, at))) => {
                let mut all: Vec<usize> = mine.cloned().unwrap_or_default();
                all.extend(v.into_iter().map(|ci| ci + at));
                Some(Cow::Owned(all))
            }
        }
    }

    /// The history `git log -M --name-status -z --format=%x01%H %ct` output `bytes` describes,
    /// at the top of the work tree (for tests).
    #[cfg(test)]
    pub(crate) fn from_log(bytes: &[u8]) -> History {
        let repo = Repo {
            root: PathBuf::new(),
            prefix: String::new(),
            git_dir: PathBuf::new(),
            shallow: false,
        };
        let mut h = History::default();
        h.parse(bytes, &repo);
        h
    }

    /// The dot-folders (`.claude`) some file of which git last saw renamed to a path outside
    /// them (`.claude/agents/a.md` to `templates/agents/a.md`): their content lives on
    /// elsewhere, where a deleted dot-folder's (`.planning/`, a project's own notes) does not.
    pub fn dot_folders_moved_out(&self) -> &HashSet<String> {
        self.moved_out.get_or_init(|| {
            let mut out = HashSet::new();
            for p in self.paths() {
                let Some((first, _)) = p.split_once('/') else {
                    continue;
                };
                if !first.starts_with('.') || out.contains(first) {
                    continue;
                }
                if let Some(LastEvent::RenamedTo(to, _, _)) = self.event(&p) {
                    if !to.starts_with(&format!("{first}/")) {
                        out.insert(first.to_string());
                    }
                }
            }
            out
        })
    }

    /// Whether the history knows a path under the folder `dir` (`docs/old` for
    /// `docs/old/a.md`): git records files, so a folder that once held files is known this way.
    pub fn knew_under(&self, dir: &str) -> bool {
        let dir = dir.trim_end_matches('/');
        if dir.is_empty() {
            return false;
        }
        let all = self.sorted_paths.get_or_init(|| self.paths());
        let prefix = format!("{dir}/");
        let at = all.partition_point(|p| p.as_str() < prefix.as_str());
        all.get(at).is_some_and(|p| p.starts_with(&prefix))
    }

    /// Every path the history knows (an event or a touch), sorted.
    pub fn paths(&self) -> Vec<String> {
        let mut all: Vec<String> = self
            .last_event
            .keys()
            .chain(self.touches.keys())
            .cloned()
            .collect();
        if let Some((b, _)) = &self.base {
            all.extend(b.paths());
        }
        all.sort_unstable();
        all.dedup();
        all
    }

    /// Walks `git log -M --name-status` once.
    pub fn load(repo: &Repo) -> History {
        let mut h = History::default();
        if repo.is_shallow() {
            h.warnings.push(
                "shallow clone: renames and deletions older than the cut-off are unknown".into(),
            );
        }
        let mut c = git(&repo.root);
        c.args(Self::LOG_ARGS).arg("--");
        let Some(out) = run_bounded(c) else {
            h.warnings.push(format!(
                "git log could not run or did not finish within {}s; rename facts are unknown",
                timeout().as_secs()
            ));
            return h;
        };
        if !out.status.success() {
            let err = String::from_utf8_lossy(&out.stderr);
            let first = err.lines().next().unwrap_or("").trim().to_string();
            // A repository with no commits is not broken; it simply has no history.
            if first.contains("does not have any commits") {
                return h;
            }
            // Rename detection reads file contents; a clone missing some (a partial clone, a
            // damaged object store) still has every commit and tree. Deletions and exact moves
            // need no content: read them from the blob ids instead of dropping the history.
            if let Some(raw) = Self::raw_log(repo) {
                h.warnings.push(format!(
                    "git history is incomplete ({first}); renames are limited to exact moves"
                ));
                h.parse_raw(&raw, repo);
                return h;
            }
            h.warnings.push(format!(
                "git history is incomplete (git log failed: {first}); rename facts may be missing"
            ));
        }
        h.parse(&out.stdout, repo);
        h
    }

    /// The arguments of the one history walk.
    const LOG_ARGS: &'static [&'static str] = &[
        "log",
        "-M",
        "--name-status",
        "-z",
        "--no-color",
        "--format=%x01%H %ct",
    ];

    /// Walks only the commits of `range` (`old..new`), as [`History::load`] walks them all;
    /// `None` when git cannot (a missing object, a timeout).
    pub fn load_range(repo: &Repo, range: &str) -> Option<History> {
        let mut c = git(&repo.root);
        c.args(Self::LOG_ARGS).args([range, "--"]);
        let out = output(c)?;
        let mut h = History::default();
        h.parse(&out, repo);
        Some(h)
    }

    /// `git log --raw --no-renames`: every change with its blob ids, read without any file
    /// content.
    fn raw_log(repo: &Repo) -> Option<Vec<u8>> {
        let mut c = git(&repo.root);
        c.args([
            "log",
            "--raw",
            "--no-renames",
            "--no-abbrev",
            "-z",
            "--no-color",
            "--format=%x01%H %ct",
            "--",
        ]);
        output(c)
    }

    /// Parses [`History::raw_log`]'s output, pairing a deletion and an addition of the same blob
    /// in one commit into a rename (what `git log -M` reports as `R100`).
    fn parse_raw(&mut self, bytes: &[u8], repo: &Repo) {
        let mut tokens = bytes.split(|&b| b == 0).peekable();
        let mut current: Option<usize> = None;
        // (status, blob, root-relative path) of the current commit's records.
        let mut records: Vec<(char, String, String)> = Vec::new();
        let flush =
            |h: &mut History, ci: Option<usize>, records: &mut Vec<(char, String, String)>| {
                let Some(ci) = ci else {
                    records.clear();
                    return;
                };
                let mut added: Vec<(String, String)> = records
                    .iter()
                    .filter(|r| r.0 == 'A')
                    .map(|r| (r.1.clone(), r.2.clone()))
                    .collect();
                for (status, blob, path) in records.drain(..) {
                    match status {
                        'D' => {
                            let zero = blob.bytes().all(|b| b == b'0');
                            match added.iter().position(|(b, _)| !zero && *b == blob) {
                                Some(i) => {
                                    let (_, to) = added.remove(i);
                                    h.touch(&to, ci);
                                    h.last_event
                                        .entry(path)
                                        .or_insert(LastEvent::RenamedTo(to, ci, 100));
                                }
                                None => {
                                    h.last_event.entry(path).or_insert(LastEvent::Deleted(ci));
                                }
                            }
                        }
                        'A' => {}
                        _ => h.touch(&path, ci),
                    }
                }
                for (_, to) in added {
                    h.touch(&to, ci);
                }
            };
        while let Some(raw) = tokens.next() {
            let tok = String::from_utf8_lossy(raw);
            let tok = tok.trim_start_matches('\n');
            if tok.is_empty() {
                continue;
            }
            if let Some(header) = tok.strip_prefix('\u{1}') {
                flush(self, current, &mut records);
                let mut parts = header.split(' ');
                let id = parts.next().unwrap_or("").to_string();
                let time = parts
                    .next()
                    .and_then(|t| t.trim().parse().ok())
                    .unwrap_or(0);
                self.commits.push(Commit { id, time });
                current = Some(self.commits.len() - 1);
                continue;
            }
            let Some(meta) = tok.strip_prefix(':') else {
                continue;
            };
            // `old_mode new_mode old_blob new_blob status`
            let f: Vec<&str> = meta.split(' ').collect();
            let (Some(old), Some(new), Some(status)) = (f.get(2), f.get(3), f.get(4)) else {
                continue;
            };
            let status = status.chars().next().unwrap_or(' ');
            let Some(path) = tokens
                .next()
                .map(|p| String::from_utf8_lossy(p).into_owned())
                .and_then(|p| repo.local(&p))
            else {
                continue;
            };
            let blob = if status == 'D' { old } else { new };
            records.push((status, blob.to_string(), path));
        }
        flush(self, current, &mut records);
    }

    fn parse(&mut self, bytes: &[u8], repo: &Repo) {
        let mut tokens = bytes.split(|&b| b == 0).peekable();
        let mut current: Option<usize> = None;
        while let Some(raw) = tokens.next() {
            let tok = String::from_utf8_lossy(raw);
            let tok = tok.trim_start_matches('\n');
            if tok.is_empty() {
                continue;
            }
            if let Some(header) = tok.strip_prefix('\u{1}') {
                let mut parts = header.split(' ');
                let id = parts.next().unwrap_or("").to_string();
                let time = parts
                    .next()
                    .and_then(|t| t.trim().parse().ok())
                    .unwrap_or(0);
                self.commits.push(Commit { id, time });
                current = Some(self.commits.len() - 1);
                continue;
            }
            let Some(ci) = current else { continue };
            let status = tok.chars().next().unwrap_or(' ');
            let mut next_path = || {
                tokens
                    .next()
                    .map(|p| String::from_utf8_lossy(p).into_owned())
                    .and_then(|p| repo.local(&p))
            };
            match status {
                'R' | 'C' => {
                    let old = next_path();
                    let new = next_path();
                    if let Some(new) = &new {
                        self.touch(new, ci);
                    }
                    if status == 'R' {
                        if let Some(old) = old {
                            let ev = match new {
                                Some(n) => LastEvent::RenamedTo(n, ci, rename_score(tok)),
                                None => LastEvent::Deleted(ci),
                            };
                            self.last_event.entry(old).or_insert(ev);
                        }
                    }
                }
                'D' => {
                    if let Some(p) = next_path() {
                        self.last_event.entry(p).or_insert(LastEvent::Deleted(ci));
                    }
                }
                _ => {
                    if let Some(p) = next_path() {
                        self.touch(&p, ci);
                    }
                }
            }
        }
    }

    fn touch(&mut self, path: &str, ci: usize) {
        self.last_event
            .entry(path.to_string())
            .or_insert(LastEvent::Changed(ci));
        self.touches.entry(path.to_string()).or_default().push(ci);
    }

    /// Follows renames from `path` to the final name, if that name exists (per `exists`).
    /// Returns `None` when the path was never renamed, or the chain ends at a deleted or absent
    /// path. Only later renames continue a chain, so a cycle cannot loop.
    pub fn renamed_to(&self, path: &str, exists: impl Fn(&str) -> bool) -> Option<String> {
        let mut at = path.to_string();
        let mut when = usize::MAX; // commit index; smaller is newer
        let mut renamed = false;
        loop {
            match self.event(&at) {
                Some(LastEvent::RenamedTo(to, ci, _)) if ci < when => {
                    at = to;
                    when = ci;
                    renamed = true;
                }
                _ => break,
            }
        }
        (renamed && exists(&at)).then_some(at)
    }

    /// What became of a path that no longer exists: the final existing name after renames
    /// (`exists` decides) with the lowest similarity score along the way, else the commit where
    /// its last name went away (deleted, or renamed to a name that is gone too). `(None, None)`
    /// when history knows nothing of it.
    pub fn fate(
        &self,
        path: &str,
        exists: impl Fn(&str) -> bool,
    ) -> (Option<(String, u8)>, Option<&Commit>) {
        let mut at = path.to_string();
        let mut when = usize::MAX;
        let mut last_rename: Option<usize> = None;
        let mut lowest = 100u8;
        while let Some(LastEvent::RenamedTo(to, ci, score)) = self.event(&at) {
            if ci >= when {
                break;
            }
            at = to;
            when = ci;
            last_rename = Some(ci);
            lowest = lowest.min(score);
        }
        if last_rename.is_some() && exists(&at) {
            return (Some((at, lowest)), None);
        }
        match self.event(&at) {
            Some(LastEvent::Deleted(ci)) => (None, self.commits.get(ci)),
            _ => (None, last_rename.and_then(|ci| self.commits.get(ci))),
        }
    }

    /// The commit that deleted `path`, when deletion is its newest event.
    pub fn deleted_in(&self, path: &str) -> Option<&Commit> {
        match self.event(path) {
            Some(LastEvent::Deleted(ci)) => self.commits.get(ci),
            _ => None,
        }
    }

    /// The newest commit that added or changed `path`.
    pub fn last_change(&self, path: &str) -> Option<&Commit> {
        self.touches(path)
            .and_then(|v| v.first().copied())
            .and_then(|ci| self.commits.get(ci))
    }

    /// How many commits touched `path` after commit index `since` (exclusive), i.e. newer.
    pub fn touches_since(&self, path: &str, since: usize) -> usize {
        self.touches(path)
            .map(|v| v.iter().filter(|&&ci| ci < since).count())
            .unwrap_or(0)
    }

    /// The index of a commit in [`History::commits`].
    pub fn index_of(&self, commit: &Commit) -> Option<usize> {
        self.commits.iter().position(|c| c.id == commit.id)
    }
}
