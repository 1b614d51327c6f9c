//! Guarded apply and undo: the mechanics of `/hygiene:clean` and `/hygiene:sweep`.
//!
//! A user must never lose a line they did not approve, even when the report is stale, the tree
//! is dirty, the report is hostile, two runs race, or the process dies midway. So a batch is
//! (1) selected — `--tier auto` takes the entries whose tier is `auto` *and* still derives
//! `auto` (lifecycle entries are re-derived by [`crate::tier::derive_safety_tier`] from live git
//! state), `--entry N --approve` takes one entry of any tier; (2) planned in memory, entry by
//! entry, each behind its guards (fingerprint, mtime fence, paths inside the root, anchors that
//! still point at the same lines; see [`plan`]); (3) journaled — original bytes of every file it
//! touches, fsynced, under `.hygiene/journal/` — and (4) executed with atomic writes, each file
//! re-checked against its batch-start fingerprint right before it is written, extractions
//! written and read back before any deletion. `--dry-run` stops after (2) and prints a unified
//! diff. One batch runs at a time per repository ([`lock`]).
//!
//! Output. JSON (`--format json`) is one object:
//! `{"dry_run": bool, "batch": "000001" | null, "results": [...], "applied": n, "refused": n,
//! "skipped": n, "diff"?: "..."}` where `results` is a flat array of
//! `{"entry": N, "path", "kind" (the exact-edit kind, or "generative"), "outcome": "applied" |
//! "refused" | "skipped", "reason"?, "advice"?: "re-run /hygiene:check"}`, in entry order.
//! In a dry run `applied` means "would be applied". Human form: the diff (dry run), then one
//! line per entry. Exit 0 when nothing was refused, 1 when an entry (or the whole report) was
//! refused, 2 on usage or I/O errors.

pub mod diff;
mod fsio;
mod guards;
mod journal;
mod lock;
mod ops;
pub mod order;
pub mod plan;
pub mod text;

pub use guards::{dir_digest, hex, sha256_hex};
pub use journal::UndoReport;

use crate::error::Error;
use crate::report::{EditKind, Entry, OpType, Report, SafetyTier};
use crate::tier::{derive_safety_tier, GitState, LifecycleArg};
use ops::{Ctx, Planned};
use plan::{Refusal, Workspace};
use serde::Serialize;
use std::collections::HashSet;
use std::path::{Path, PathBuf};

/// The advice attached to every refusal a fresh check would cure.
pub const ADVICE: &str = "re-run /hygiene:check";

/// Which entries a batch takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Selection {
    /// Every `auto` entry that still derives `auto`.
    Auto,
    /// One entry of any tier, approved by the user.
    Entry(usize),
}

/// What `hygiene apply` was asked to do.
#[derive(Debug, Clone)]
pub struct ApplyRequest {
    /// The canonical repository root.
    pub root: PathBuf,
    /// The report file.
    pub report: PathBuf,
    /// The entries to apply.
    pub selection: Selection,
    /// The rewriter's text for a generative entry.
    pub proposal: Option<PathBuf>,
    /// The outside file of a cross-repo extraction.
    pub extract_to: Option<PathBuf>,
    /// Print the diff and change nothing.
    pub dry_run: bool,
}

/// What happened to an entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Outcome {
    /// Written (or, in a dry run, would be).
    Applied,
    /// A guard failed; nothing of the entry was written.
    Refused,
    /// Not for this batch (a confirm entry in an auto batch, a lifecycle entry downgraded by
    /// live git state, an edit already present); not an error.
    Skipped,
}

/// One entry's result.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct EntryResult {
    /// Index in the report's `entries`.
    pub entry: usize,
    /// The entry's path.
    pub path: String,
    /// The exact-edit kind, or `generative`.
    pub kind: String,
    /// What happened.
    pub outcome: Outcome,
    /// Why it was refused or skipped.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// What to do about it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub advice: Option<String>,
}

/// The result of `hygiene apply`.
#[derive(Debug, Clone, Serialize)]
pub struct ApplyReport {
    /// Whether this was a dry run.
    pub dry_run: bool,
    /// The journal batch written, when anything was.
    pub batch: Option<String>,
    /// One result per considered entry, in entry order.
    pub results: Vec<EntryResult>,
    /// Entries applied.
    pub applied: usize,
    /// Entries refused.
    pub refused: usize,
    /// Entries skipped.
    pub skipped: usize,
    /// The unified diff (dry run only).
    #[serde(skip_serializing_if = "String::is_empty")]
    pub diff: String,
}

impl ApplyReport {
    /// 1 when anything was refused, else 0.
    pub fn exit_code(&self) -> i32 {
        i32::from(self.refused > 0)
    }

    /// One line per entry.
    pub fn human(&self) -> String {
        let mut out = self.diff.clone();
        for r in &self.results {
            let verb = match (r.outcome, self.dry_run) {
                (Outcome::Applied, true) => "would apply",
                (Outcome::Applied, false) => "applied",
                (Outcome::Refused, _) => "refused",
                (Outcome::Skipped, _) => "skipped",
            };
            out.push_str(&format!(
                "entry {}: {verb} {} ({})",
                r.entry, r.path, r.kind
            ));
            if let Some(why) = &r.reason {
                out.push_str(&format!(": {why}"));
            }
            if let Some(a) = &r.advice {
                out.push_str(&format!(" — {a}"));
            }
            out.push('\n');
        }
        out.push_str(&format!(
            "{} {}, {} refused, {} skipped{}\n",
            self.applied,
            if self.dry_run {
                "would apply"
            } else {
                "applied"
            },
            self.refused,
            self.skipped,
            match &self.batch {
                Some(b) => format!(" (batch {b}; `hygiene undo` reverts it)"),
                None => String::new(),
            }
        ));
        out
    }
}

/// Why a whole run did nothing.
#[derive(Debug)]
pub enum Failure {
    /// The whole report or run was refused (exit 1): invalid report, another root, lock held.
    Refused(String),
    /// Usage or I/O error (exit 2).
    Error(Error),
}

impl From<Error> for Failure {
    fn from(e: Error) -> Failure {
        Failure::Error(e)
    }
}

fn kind_name(e: &Entry) -> String {
    match &e.exact_edit {
        Some(x) => serde_json::to_value(x.kind)
            .ok()
            .and_then(|v| v.as_str().map(str::to_string))
            .unwrap_or_default(),
        None => "generative".into(),
    }
}

fn result(
    i: usize,
    e: &Entry,
    outcome: Outcome,
    reason: Option<String>,
    stale: bool,
) -> EntryResult {
    EntryResult {
        entry: i,
        path: e.path.clone(),
        kind: kind_name(e),
        outcome,
        reason,
        advice: stale.then(|| ADVICE.to_string()),
    }
}

/// Live git facts, read once per batch.
struct Live {
    tracked: HashSet<String>,
    dirty: HashSet<String>,
}

impl Live {
    fn read(root: &Path) -> Live {
        match crate::git::Repo::discover(root) {
            Some(repo) => Live {
                tracked: repo.tracked(),
                dirty: repo.dirty(),
            },
            None => Live {
                tracked: HashSet::new(),
                dirty: HashSet::new(),
            },
        }
    }
}

/// Why an entry of an auto batch does not run: `Err(refusal)` or `Ok(Some(skip reason))`.
fn auto_gate(root: &Path, e: &Entry, live: &mut Option<Live>) -> Result<Option<String>, Refusal> {
    if e.safety_tier == SafetyTier::Confirm {
        return Ok(Some(
            "confirm entry: apply it with --entry N --approve after the user approves".into(),
        ));
    }
    let Some(edit) = &e.exact_edit else {
        return Err(Refusal::hard("a generative entry is never auto"));
    };
    let row = crate::kinds::rule(edit.kind);
    if !row.lifecycle {
        let reversible = matches!(row.reversibility, crate::kinds::Reversibility::Fixed(true));
        let tier = derive_safety_tier(OpType::Deterministic, row.is_destructive, reversible, None);
        if tier == SafetyTier::Confirm {
            return Err(Refusal::hard(
                "the report says auto, but this kind derives confirm",
            ));
        }
        return Ok(None);
    }
    let Some(lc) = edit.lifecycle.as_ref().or(e.lifecycle.as_ref()) else {
        return Err(Refusal::hard("a lifecycle op without a lifecycle object"));
    };
    let Some(evidence) = guards::live_evidence(root, lc) else {
        return Err(Refusal::hard(format!(
            "rule `{}` says keep; no lifecycle op may touch this document",
            lc.rule_ref
        )));
    };
    let live = live.get_or_insert_with(|| Live::read(root));
    let rel = e.path.trim_end_matches('/');
    let git: GitState = crate::git::state_in(&live.tracked, &live.dirty, root, rel);
    let arg = LifecycleArg {
        evidence,
        git,
        leaves_repo: edit.extraction_target == Some(crate::report::ExtractionTarget::CrossRepo),
    };
    let tier = derive_safety_tier(
        OpType::Deterministic,
        row.is_destructive,
        git.recoverable(),
        Some(arg),
    );
    if tier == SafetyTier::Confirm {
        let mut why = Vec::new();
        if !evidence.scanner_proven() {
            why.push(format!("evidence is {evidence:?}"));
        }
        if !git.tracked {
            why.push("not tracked by git".to_string());
        } else if !git.clean {
            why.push("has uncommitted changes".to_string());
        }
        if arg.leaves_repo {
            why.push("writes outside the repository".to_string());
        }
        return Ok(Some(format!(
            "downgraded to confirm by live state ({})",
            why.join(", ")
        )));
    }
    Ok(None)
}

fn load_report(path: &Path) -> Result<Report, Failure> {
    match crate::validate::read_report(path) {
        Ok(r) => Ok(r),
        Err(Error::Parse { path, message }) => Err(Failure::Refused(format!(
            "{path}: {message}\nthe report is refused whole; re-run /hygiene:check"
        ))),
        Err(e) => Err(Failure::Error(e)),
    }
}

fn same_root(report_root: &str, root: &Path) -> bool {
    let p = Path::new(report_root);
    match p.canonicalize() {
        Ok(c) => c == root,
        Err(_) => p == root,
    }
}

/// The `.hygiene` folder, created if needed, never through a link out of the root.
fn hygiene_dir(root: &Path, create: bool) -> Result<PathBuf, Failure> {
    let dir = crate::paths::resolve_inside(root, ".hygiene", true)
        .map_err(|e| Failure::Refused(format!(".hygiene: {e}")))?;
    if create {
        std::fs::create_dir_all(&dir).map_err(|e| Failure::Error(Error::io(&dir, e)))?;
    }
    Ok(dir)
}

fn take_lock(root: &Path) -> Result<lock::BatchLock, Failure> {
    let dir = hygiene_dir(root, true)?;
    let path = dir.join("apply.lock");
    lock::BatchLock::acquire(&path).map_err(|e| match e {
        lock::LockError::Busy => Failure::Refused(
            "another hygiene apply or undo is running on this repository (lock .hygiene/apply.lock is held); nothing was changed".into(),
        ),
        lock::LockError::Io(e) => Failure::Error(Error::io(&path, e)),
    })
}

/// Runs `hygiene apply`.
pub fn apply(req: &ApplyRequest) -> Result<ApplyReport, Failure> {
    let report = load_report(&req.report)?;
    if !same_root(&report.scan.project_root, &req.root) {
        return Err(Failure::Refused(format!(
            "the report was made for {}, not {}; re-run /hygiene:check here",
            report.scan.project_root,
            req.root.display()
        )));
    }
    let Some(generated_at) = crate::time::parse_utc(&report.generated_at) else {
        return Err(Failure::Refused(format!(
            "generated_at `{}` is not a UTC timestamp",
            report.generated_at
        )));
    };
    let proposal = match &req.proposal {
        Some(p) => Some(crate::error::read(p)?),
        None => None,
    };
    if let Selection::Entry(n) = req.selection {
        let Some(e) = report.entries.get(n) else {
            return Err(Failure::Error(Error::Usage(format!(
                "--entry {n}: the report has {} entries",
                report.entries.len()
            ))));
        };
        match (&e.exact_edit, &proposal) {
            (None, None) => {
                return Err(Failure::Error(Error::Usage(format!(
                    "entry {n} is generative: pass the rewriter's text with --proposal FILE"
                ))))
            }
            (Some(_), Some(_)) => {
                return Err(Failure::Error(Error::Usage(format!(
                    "entry {n} is deterministic: --proposal is only for generative entries"
                ))))
            }
            _ => {}
        }
        let cross = e.exact_edit.as_ref().is_some_and(|x| {
            x.kind == EditKind::ExtractThenDelete
                && x.extraction_target == Some(crate::report::ExtractionTarget::CrossRepo)
        });
        if req.extract_to.is_some() && !cross {
            return Err(Failure::Error(Error::Usage(format!(
                "entry {n} is not a cross-repo extraction: --extract-to does not apply"
            ))));
        }
        if cross && req.extract_to.is_none() {
            return Err(Failure::Error(Error::Usage(format!(
                "entry {n} is a cross-repo extraction: name the file outside the repository with --extract-to FILE"
            ))));
        }
    }
    let _lock = if req.dry_run {
        None
    } else {
        Some(take_lock(&req.root)?)
    };

    // Select.
    let mut results: Vec<Option<EntryResult>> = vec![None; report.entries.len()];
    let mut chosen: Vec<usize> = Vec::new();
    match req.selection {
        Selection::Entry(n) => chosen.push(n),
        Selection::Auto => {
            let mut live = None;
            for (i, e) in report.entries.iter().enumerate() {
                match auto_gate(&req.root, e, &mut live) {
                    Ok(None) => chosen.push(i),
                    Ok(Some(why)) => {
                        results[i] = Some(result(i, e, Outcome::Skipped, Some(why), false))
                    }
                    Err(r) => {
                        results[i] = Some(result(i, e, Outcome::Refused, Some(r.reason), r.stale))
                    }
                }
            }
        }
    }
    // Bottom-up per file: path, then highest start line first.
    chosen.sort_by_key(|&i| {
        let e = &report.entries[i];
        (
            e.path.clone(),
            std::cmp::Reverse(ops::order_line(e.exact_edit.as_ref())),
            i,
        )
    });
    // Cross-file reliance (a dedupe's kept copy) reorders within that (see `order`).
    let edits: Vec<_> = chosen
        .iter()
        .map(|&i| {
            let e = &report.entries[i];
            (e.path.as_str(), e.exact_edit.as_ref())
        })
        .collect();
    chosen = order::batch_order(&edits)
        .into_iter()
        .map(|k| chosen[k])
        .collect();

    // Plan.
    let mut ws = Workspace::new(&req.root, generated_at);
    let mut planned: Vec<usize> = Vec::new();
    for &i in &chosen {
        let e = &report.entries[i];
        let ctx = Ctx {
            index: i,
            entry: e,
            extract_to: req.extract_to.as_deref(),
            proposal: proposal.as_deref(),
        };
        results[i] = Some(match ops::plan_entry(&mut ws, &ctx) {
            Ok(Planned::Plan(p)) => {
                ws.commit(ctx.index, p);
                planned.push(i);
                result(i, e, Outcome::Applied, None, false)
            }
            Ok(Planned::AlreadyDone(why)) => result(i, e, Outcome::Skipped, Some(why), false),
            Err(r) => result(i, e, Outcome::Refused, Some(r.reason), r.stale),
        });
    }

    let mut batch = None;
    let mut diff = String::new();
    if req.dry_run {
        for (key, slot) in ws.changed() {
            let old = String::from_utf8_lossy(slot.original.as_deref().unwrap_or_default());
            let new = String::from_utf8_lossy(slot.current.as_deref().unwrap_or_default());
            // A file outside the repository (cross-repo extraction) keeps its absolute name.
            let (pa, pb) = if slot.external {
                ("", "")
            } else {
                ("a/", "b/")
            };
            let a = match slot.original {
                Some(_) => format!("{pa}{key}"),
                None => "/dev/null".into(),
            };
            let b = match slot.current {
                Some(_) => format!("{pb}{key}"),
                None => "/dev/null".into(),
            };
            diff.push_str(&diff::unified(&a, &b, &old, &new));
        }
    } else if ws.changed().next().is_some() {
        let journal_dir = hygiene_dir(&req.root, true)?.join("journal");
        let failed = execute(&ws, &journal_dir, &req.report, &mut batch)?;
        if let Some((why, done_keys)) = failed {
            for &i in &planned {
                let touched_all = ws
                    .slots
                    .iter()
                    .filter(|(_, s)| s.changed() && s.entries.contains(&i))
                    .all(|(k, _)| done_keys.contains(k));
                if !touched_all {
                    results[i] = Some(result(
                        i,
                        &report.entries[i],
                        Outcome::Refused,
                        Some(why.clone()),
                        false,
                    ));
                }
            }
        }
    }

    let results: Vec<EntryResult> = results.into_iter().flatten().collect();
    let count = |o: Outcome| results.iter().filter(|r| r.outcome == o).count();
    Ok(ApplyReport {
        dry_run: req.dry_run,
        batch,
        applied: count(Outcome::Applied),
        refused: count(Outcome::Refused),
        skipped: count(Outcome::Skipped),
        results,
        diff,
    })
}

/// Journals and writes the batch. Returns `Some((reason, keys written))` when execution stopped
/// early because a file changed under it or a write did not land.
fn execute(
    ws: &Workspace,
    journal_dir: &Path,
    report_path: &Path,
    batch: &mut Option<String>,
) -> Result<Option<(String, HashSet<String>)>, Failure> {
    let changed: Vec<(&String, &plan::Slot)> = ws.changed().collect();
    let manifest = journal::Manifest {
        version: 1,
        batch: String::new(),
        created_at: crate::time::now_utc(),
        report: report_path.display().to_string(),
        files: changed
            .iter()
            .map(|(k, s)| journal::JournalFile {
                path: (*k).clone(),
                external: s.external,
                existed: s.original.is_some(),
                blob: None,
                sha256: s.original_sha(),
                planned_sha256: s.current.as_deref().map(sha256_hex),
            })
            .collect(),
        dirs_created: ws.dirs_created.clone(),
        dirs_removed: ws.dirs_removed.clone(),
    };
    let originals: Vec<Option<&[u8]>> =
        changed.iter().map(|(_, s)| s.original.as_deref()).collect();
    let (batch_dir, manifest) = journal::begin(journal_dir, manifest, &originals)
        .map_err(|e| Failure::Error(Error::io(journal_dir, e)))?;
    *batch = Some(manifest.batch.clone());

    let mut done: HashSet<String> = HashSet::new();
    let stop = run_writes(ws, &changed, &mut done);
    let mut after = journal::Done::default();
    for (k, s) in &changed {
        after
            .after
            .insert((*k).clone(), journal::current_sha(&s.abs).ok().flatten());
    }
    journal::finish(&batch_dir, &after).map_err(|e| Failure::Error(Error::io(&batch_dir, e)))?;
    Ok(stop.map(|why| (why, done)))
}

fn run_writes(
    ws: &Workspace,
    changed: &[(&String, &plan::Slot)],
    done: &mut HashSet<String>,
) -> Option<String> {
    // The guard right before writing: the file is still what the batch started from.
    let unchanged = |k: &str, s: &plan::Slot| -> Result<(), String> {
        let now = journal::current_sha(&s.abs).map_err(|e| format!("`{k}`: {e}"))?;
        if now != s.original_sha() {
            return Err(format!(
                "`{k}` changed while the batch was running; the batch stopped (run `hygiene undo` to revert what it wrote)"
            ));
        }
        Ok(())
    };
    for d in &ws.dirs_created {
        let p = ws.root.join(d);
        if !p.is_dir() {
            if let Err(e) = std::fs::create_dir(&p) {
                return Some(format!("cannot create folder `{d}`: {e}"));
            }
        }
    }
    // Creations and rewrites first, each read back: an extraction lands before any deletion.
    for (k, s) in changed {
        let Some(bytes) = s.current.as_deref() else {
            continue;
        };
        if let Err(why) = unchanged(k, s) {
            return Some(why);
        }
        let written = if s.external {
            fsio::atomic_create(&s.abs, bytes)
        } else {
            fsio::atomic_write(&s.abs, bytes)
        };
        if let Err(e) = written {
            return Some(format!("writing `{k}` failed: {e}"));
        }
        fsio::count_write();
        if journal::current_sha(&s.abs).ok().flatten() != Some(sha256_hex(bytes)) {
            return Some(format!(
                "`{k}` did not read back as written; nothing was deleted"
            ));
        }
        done.insert((*k).clone());
    }
    for (k, s) in changed {
        if s.current.is_some() {
            continue;
        }
        if let Err(why) = unchanged(k, s) {
            return Some(why);
        }
        if let Err(e) = fsio::remove_file(&s.abs) {
            return Some(format!("removing `{k}` failed: {e}"));
        }
        fsio::count_write();
        done.insert((*k).clone());
    }
    for d in ws.dirs_removed.iter().rev() {
        let p = ws.root.join(d);
        if let Err(e) = std::fs::remove_dir(&p) {
            return Some(format!("removing folder `{d}` failed: {e}"));
        }
        fsio::count_write();
    }
    None
}

/// Runs `hygiene undo`: restores the newest batch not yet undone.
pub fn undo(root: &Path) -> Result<UndoReport, Failure> {
    let _lock = take_lock(root)?;
    let journal_dir = hygiene_dir(root, false)?.join("journal");
    journal::undo(root, &journal_dir).map_err(|e| match e {
        journal::UndoFailure::Refused(m) => Failure::Refused(m),
        journal::UndoFailure::Error(m) => Failure::Error(Error::Other(m)),
    })
}
