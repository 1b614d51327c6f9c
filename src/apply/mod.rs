//! Guarded apply and undo: the mechanics of `/hygiene:clean` and `/hygiene:sweep`.
//!
//! A user must never lose a line they did not approve, even when the report is stale, the tree
//! is dirty, the report is hostile, two runs race, or the process dies midway. So a batch is
//! (1) loaded: the report validated, approvals matched against the edits they name
//! ([`approval_token`]), proposals checked; (2) selected: `--tier auto` takes the entries whose
//! tier is `auto` *and* still derives `auto` from live state (lifecycle entries are re-evaluated
//! against the live rulebook, rank, age and git state), `--entry N --approve TOKEN` takes the
//! entries the user approved; (3) planned in memory, entry by entry, each behind its guards
//! (fingerprint, mtime fence, paths inside the root and allowed by [`crate::protect`], anchors
//! that still point at the same lines; see [`plan`]), on top of this helper's own earlier
//! batches of the same report ([`history`]); (4) journaled — original bytes of every file it
//! touches, sealed, under `.hygiene/journal/` — and (5) executed with atomic writes, each file
//! re-checked against its batch-start fingerprint right before it is written, extractions
//! written and read back before any deletion. `--dry-run` stops after (3) and prints a unified
//! diff and each entry's approval token. One batch runs at a time per repository ([`lock`]).
//!
//! Output. JSON (`--format json`) is one object:
//! `{"dry_run": bool, "batch": "000001" | null, "results": [...], "applied": n, "refused": n,
//! "skipped": n, "diff"?: "..."}` where `results` is a flat array of
//! `{"entry": N, "path", "kind" (the exact-edit kind, or "generative"), "outcome": "applied" |
//! "refused" | "skipped", "reason"?, "advice"?: "re-run /hygiene:check", "approve"?: TOKEN}`,
//! in entry order. In a dry run `applied` means "would be applied". Human form: the diff (dry
//! run), then one line per entry. Exit 0 when nothing was refused, 1 when an entry (or the whole
//! report) was refused, 2 on usage or I/O errors.

pub mod diff;
mod guards;
pub mod history;
pub mod journal;
mod lock;
mod ops;
pub mod order;
pub mod plan;
pub mod text;

pub use guards::{dir_digest, hex, sha256_hex};
pub use journal::UndoReport;

use crate::error::Error;
use crate::fingerprint::Sidecar;
use crate::fsio;
use crate::lifecycle::{Governed, Mismatch, Rulebook, Status};
use crate::report::{EditKind, Entry, OpType, Report, SafetyTier};
use crate::tier::{derive_safety_tier, LifecycleArg};
use journal::Journal;
use ops::{Ctx, Planned};
use plan::{Refusal, Workspace};
use serde::Serialize;
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

/// One guard of apply, as `hygiene policy` publishes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct Guard {
    /// Stable name.
    pub id: &'static str,
    /// When it runs.
    pub when: &'static str,
    /// What it refuses.
    pub refuses: &'static str,
}

/// Every guard apply runs, in the order a batch meets them. `docs/safety.md` names the tests
/// behind each (a test checks every id appears there).
pub const GUARDS: &[Guard] = &[
    Guard { id: "valid-report", when: "load", refuses: "a report that fails `hygiene validate` (whole report)" },
    Guard { id: "same-root", when: "load", refuses: "a report made for another root (whole report)" },
    Guard { id: "approval-token", when: "load", refuses: "an --entry whose --approve token does not name the edit, file and proposal the user was shown (whole run)" },
    Guard { id: "proposal", when: "load", refuses: "a proposal that is not UTF-8 text, holds a NUL byte, is blank, or exceeds the document size cap (whole run)" },
    Guard { id: "root", when: "load", refuses: "writing at the file system root; an auto batch outside a git work tree (whole run)" },
    Guard { id: "lock", when: "before planning", refuses: "a second apply or undo while one runs (whole run); the lock file is never opened through a link" },
    Guard { id: "auto-rederived", when: "select (auto)", refuses: "an auto entry whose kind, live lifecycle evaluation or live git state no longer derives auto (skipped)" },
    Guard { id: "lifecycle-live", when: "plan", refuses: "a delete or extract-then-delete the live rulebook, rank, age or served path no longer backs; a keep rule's document" },
    Guard { id: "write-table", when: "plan", refuses: "a path the write table forbids for its role (`writes` in this policy)" },
    Guard { id: "real-path", when: "plan", refuses: "a path with a link anywhere on the way (writes and kept copies), or leading out of the root; two names of one file (hard links)" },
    Guard { id: "fingerprint", when: "plan", refuses: "a target whose sha256 differs from the check's (`expected_sha256`, or the sidecar's for a generative entry), unless the journal proves the difference is this helper's own earlier batches of the same report" },
    Guard { id: "mtime-fence", when: "plan", refuses: "a target modified after `generated_at` (not for files rebased on the journal)" },
    Guard { id: "anchor", when: "plan", refuses: "a line anchor outside the file or overlapping lines an earlier entry of the batch changed" },
    Guard { id: "replace-text-reference", when: "plan", refuses: "a replace-text that is not a one-line repair of a broken reference by a resolving one" },
    Guard { id: "dedupe-kept-copy", when: "plan", refuses: "a dedupe whose span no longer equals its kept copy, whose kept copy a lifecycle rule governs, or which would remove a span another dedupe of the batch keeps" },
    Guard { id: "dedupe-readers", when: "plan", refuses: "a dedupe some reader of the document would lose the span to (`readers` in this policy)" },
    Guard { id: "dedupe-whole-blocks", when: "plan", refuses: "a dedupe that is not whole Markdown blocks (half a paragraph, lines inside a fence, a paragraph introducing what follows)" },
    Guard { id: "auto-on-record", when: "select (auto)", refuses: "an auto edit of a document that is not living (a history record, shipped content, a generated page)" },
    Guard { id: "auto-managed-block", when: "select (auto)", refuses: "an auto edit of lines inside a block a tool manages between marker comments (`<!-- OMC:START -->` .. `<!-- OMC:END -->`): the tool's next run rewrites it, and in its own repository it is what it installs" },
    Guard { id: "pre-write", when: "execute", refuses: "writing a file that changed since the batch started (the batch stops; undo reverts it)" },
    Guard { id: "read-back", when: "execute", refuses: "deleting anything before every extraction was written and read back" },
];

/// The advice attached to every refusal a fresh check would cure.
pub const ADVICE: &str = "re-run /hygiene:check";

/// The largest proposal a rewriter may hand in: the scanner's own document size cap.
pub const PROPOSAL_CAP_BYTES: u64 = crate::scan::THRESHOLDS.file_size_cap_bytes;

/// Which entries a batch takes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Selection {
    /// Every `auto` entry that still derives `auto`.
    Auto,
    /// These entries, of any tier, each approved by the user (or previewed in a dry run).
    Entries(Vec<usize>),
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
    /// The approval tokens the user's approval carries, one per selected entry in order
    /// (required unless `dry_run`).
    pub approvals: Vec<String>,
    /// The rewriter's text for a single generative entry (default: `.hygiene/proposals/N.md`).
    pub proposal: Option<PathBuf>,
    /// The outside file of a cross-repo extraction (a single entry).
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
    /// live state, an edit already present or already applied); not an error.
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
    /// The token `--approve` needs for this entry (selected entries of a dry run).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub approve: Option<String>,
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
            if let (Some(t), Outcome::Applied) = (&r.approve, r.outcome) {
                out.push_str(&format!(
                    "; approve with: hygiene apply --entry {} --approve {t}",
                    r.entry
                ));
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
    /// The whole report or run was refused (exit 1): invalid report, another root, lock held,
    /// an approval that does not name the edit.
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
        approve: None,
    }
}

/// The token that names one edit: the first 12 hex digits of a sha256 over the entry as the
/// report holds it (its op, anchors and `expected_sha256`), the check-time fingerprint of a
/// generative target, the proposal's bytes and the `--extract-to` file. The dry run shows it
/// with the diff; `--approve` must repeat it, so an approval given for one edit can never apply
/// another (a regenerated report, another entry at the same index, another proposal).
///
/// ```
/// use hygiene::report::Entry;
/// let e: Entry = serde_json::from_value(serde_json::json!({
///   "path": "CLAUDE.md", "category": {"class": "bloat", "subtype": "distill"},
///   "signals": [{"kind": "oversize", "raw_tokens": 3000, "threshold": 2000}],
///   "op": "Condense it.", "op_type": "generative", "is_destructive": true,
///   "is_reversible": true, "safety_tier": "confirm", "token_estimate": {"raw_tokens": 9}})).unwrap();
/// let t = hygiene::apply::approval_token(&e, Some("ab"), Some(b"new text"), None);
/// assert_eq!(t.len(), 12);
/// assert_ne!(t, hygiene::apply::approval_token(&e, Some("ab"), Some(b"other text"), None));
/// assert_ne!(t, hygiene::apply::approval_token(&e, Some("cd"), Some(b"new text"), None));
/// ```
pub fn approval_token(
    entry: &Entry,
    fingerprint: Option<&str>,
    proposal: Option<&[u8]>,
    extract_to: Option<&Path>,
) -> String {
    let mut msg = serde_json::to_vec(entry).expect("report types always serialize");
    msg.push(0);
    msg.extend_from_slice(fingerprint.unwrap_or("").as_bytes());
    msg.push(0);
    msg.extend_from_slice(proposal.map(sha256_hex).unwrap_or_default().as_bytes());
    msg.push(0);
    msg.extend_from_slice(
        extract_to
            .map(|p| p.display().to_string())
            .unwrap_or_default()
            .as_bytes(),
    );
    sha256_hex(&msg)[..12].to_string()
}

/// A proposal as a rewriter wrote it, refused unless it is a plausible document: UTF-8 text,
/// no NUL byte, not blank, at most [`PROPOSAL_CAP_BYTES`].
pub fn read_proposal(path: &Path) -> Result<Vec<u8>, String> {
    use std::io::Read;
    let shown = path.display();
    let meta = std::fs::metadata(path).map_err(|e| format!("proposal {shown}: {e}"))?;
    if !meta.is_file() {
        return Err(format!("proposal {shown} is not a regular file"));
    }
    if meta.len() > PROPOSAL_CAP_BYTES {
        return Err(format!(
            "proposal {shown} has {} bytes, over the {PROPOSAL_CAP_BYTES}-byte limit for a document; ask the rewriter again",
            meta.len()
        ));
    }
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .and_then(|f| f.take(PROPOSAL_CAP_BYTES + 1).read_to_end(&mut bytes))
        .map_err(|e| format!("proposal {shown}: {e}"))?;
    if bytes.len() as u64 > PROPOSAL_CAP_BYTES {
        return Err(format!("proposal {shown} grew past the size limit"));
    }
    if bytes.contains(&0) {
        return Err(format!(
            "proposal {shown} holds a NUL byte: binary, not a document"
        ));
    }
    let text =
        std::str::from_utf8(&bytes).map_err(|_| format!("proposal {shown} is not UTF-8 text"))?;
    if text.trim().is_empty() {
        return Err(format!(
            "proposal {shown} is empty; removing a whole document is a lifecycle delete, not a rewrite"
        ));
    }
    Ok(bytes)
}

/// The report and what belongs to it.
struct Loaded {
    report: Report,
    report_sha: String,
    generated_at: i64,
    sidecar: Option<Sidecar>,
}

fn load(req: &ApplyRequest) -> Result<Loaded, Failure> {
    let bytes = crate::error::read(&req.report)?;
    let report = match crate::validate::read_report(&req.report) {
        Ok(r) => r,
        Err(Error::Parse { path, message }) => {
            return Err(Failure::Refused(format!(
                "{path}: {message}\nthe report is refused whole; re-run /hygiene:check"
            )))
        }
        Err(e) => return Err(Failure::Error(e)),
    };
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
    Ok(Loaded {
        sidecar: Sidecar::read(&req.report, &bytes),
        report_sha: sha256_hex(&bytes),
        report,
        generated_at,
    })
}

fn same_root(report_root: &str, root: &Path) -> bool {
    let p = Path::new(report_root);
    match p.canonicalize() {
        Ok(c) => c == root,
        Err(_) => p == root,
    }
}

/// Per selected entry: its proposal bytes (generative) and approval token.
struct Inputs {
    proposals: HashMap<usize, Vec<u8>>,
    tokens: HashMap<usize, String>,
}

/// Checks the selected entries' inputs and the approvals before anything is locked or read.
fn prepare(req: &ApplyRequest, l: &Loaded) -> Result<Inputs, Failure> {
    let mut inputs = Inputs {
        proposals: HashMap::new(),
        tokens: HashMap::new(),
    };
    let Selection::Entries(chosen) = &req.selection else {
        return Ok(inputs);
    };
    let usage = |m: String| Failure::Error(Error::Usage(m));
    if chosen.is_empty() {
        return Err(usage("name an entry with --entry N".into()));
    }
    if chosen.len() > 1 && (req.proposal.is_some() || req.extract_to.is_some()) {
        return Err(usage(
            "--proposal and --extract-to go with a single --entry".into(),
        ));
    }
    for &n in chosen {
        let Some(e) = l.report.entries.get(n) else {
            return Err(usage(format!(
                "--entry {n}: the report has {} entries",
                l.report.entries.len()
            )));
        };
        let cross = e.exact_edit.as_ref().is_some_and(|x| {
            x.kind == EditKind::ExtractThenDelete
                && x.extraction_target == Some(crate::report::ExtractionTarget::CrossRepo)
        });
        if req.extract_to.is_some() && !cross {
            return Err(usage(format!(
                "entry {n} is not a cross-repo extraction: --extract-to does not apply"
            )));
        }
        if cross && req.extract_to.is_none() {
            return Err(usage(format!(
                "entry {n} is a cross-repo extraction: name the file outside the repository with --extract-to FILE"
            )));
        }
        let proposal = match (&e.exact_edit, &req.proposal) {
            (Some(_), Some(_)) => {
                return Err(usage(format!(
                    "entry {n} is deterministic: --proposal is only for generative entries"
                )))
            }
            (Some(_), None) => None,
            (None, Some(p)) => Some(p.clone()),
            (None, None) => {
                let p = crate::state::path(&req.root, &format!("proposals/{n}.md"), false)?;
                if !p.exists() {
                    return Err(usage(format!(
                        "entry {n} is generative: pass the rewriter's text with --proposal FILE (or write .hygiene/proposals/{n}.md)"
                    )));
                }
                Some(p)
            }
        };
        let bytes = match proposal {
            Some(p) => Some(read_proposal(&p).map_err(Failure::Refused)?),
            None => None,
        };
        let fingerprint = match &e.exact_edit {
            Some(x) => x.expected_sha256.clone(),
            None => l
                .sidecar
                .as_ref()
                .and_then(|s| s.files.get(&e.path).cloned()),
        };
        let token = approval_token(
            e,
            fingerprint.as_deref(),
            bytes.as_deref(),
            req.extract_to.as_deref(),
        );
        inputs.tokens.insert(n, token);
        if let Some(b) = bytes {
            inputs.proposals.insert(n, b);
        }
    }
    if !req.dry_run && req.approvals.len() != chosen.len() {
        return Err(usage(format!(
            "each --entry needs the user's approval: --approve TOKEN, the token `hygiene apply --dry-run --entry N` shows with the diff ({} entries, {} approvals)",
            chosen.len(),
            req.approvals.len()
        )));
    }
    for (k, token) in req.approvals.iter().enumerate() {
        let Some(&n) = chosen.get(k) else { break };
        let want = &inputs.tokens[&n];
        if !token.eq_ignore_ascii_case(want) {
            return Err(Failure::Refused(format!(
                "entry {n}: approval `{token}` does not name this edit (its token is `{want}`: the report, the file or the proposal is not what the user approved); show the user the diff of `hygiene apply --dry-run --entry {n}` and ask again. Nothing was changed."
            )));
        }
    }
    Ok(inputs)
}

/// Live facts, each read once per batch and only when needed.
struct Live<'a> {
    root: &'a Path,
    roles: Option<crate::roles::Roles>,
    readers: Option<crate::readers::ReaderMap>,
    git: Option<crate::git::Facts>,
    governed: Option<Result<HashMap<String, Governed>, String>>,
    rulebook: Option<Result<Rulebook, String>>,
}

impl<'a> Live<'a> {
    fn new(root: &'a Path) -> Live<'a> {
        Live {
            root,
            roles: None,
            readers: None,
            git: None,
            governed: None,
            rulebook: None,
        }
    }

    fn roles(&mut self) -> &crate::roles::Roles {
        let root = self.root;
        self.roles
            .get_or_insert_with(|| crate::roles::Roles::load(root))
    }

    fn readers(&mut self) -> &crate::readers::ReaderMap {
        let roles = self.roles().clone();
        let root = self.root;
        self.readers
            .get_or_insert_with(|| crate::readers::ReaderMap::load(root, roles))
    }

    fn git(&mut self) -> &crate::git::Facts {
        let root = self.root;
        self.git
            .get_or_insert_with(|| crate::git::Facts::read(root))
    }

    /// The live lifecycle evaluation of `path`, or why it could not be made.
    fn governed(&mut self, path: &str) -> Result<Option<&Governed>, String> {
        let root = self.root;
        let now = crate::time::now_override().unwrap_or_else(crate::time::now_secs);
        let all = self.governed.get_or_insert_with(|| {
            crate::lifecycle::evaluate_now(root, now)
                .map(|v| v.into_iter().map(|g| (g.path.clone(), g)).collect())
                .map_err(|e| format!("the rulebook cannot be evaluated: {e}"))
        });
        match all {
            Ok(m) => Ok(m.get(path.trim_end_matches('/'))),
            Err(e) => Err(e.clone()),
        }
    }

    fn rulebook(&mut self) -> Result<&Rulebook, String> {
        let root = self.root;
        self.rulebook
            .get_or_insert_with(|| Rulebook::load(root).map_err(|e| e.to_string()))
            .as_ref()
            .map_err(|e| e.clone())
    }

    /// The live check of a lifecycle entry: the rulebook governs its path now by the same rule
    /// and says it has served (or needs judgement). Returns the live status and evidence.
    fn lifecycle(
        &mut self,
        e: &Entry,
    ) -> Result<(Status, Option<crate::tier::Evidence>), (Mismatch, Refusal)> {
        let lc = e
            .exact_edit
            .as_ref()
            .and_then(|x| x.lifecycle.as_ref())
            .or(e.lifecycle.as_ref())
            .ok_or((
                Mismatch::Differs,
                Refusal::hard("a lifecycle op without a lifecycle object"),
            ))?;
        let live = self
            .governed(&e.path)
            .map_err(|m| (Mismatch::Differs, Refusal::hard(m)))?;
        crate::lifecycle::live_verdict(live, e.path.trim_end_matches('/'), lc).map_err(|(k, m)| {
            let r = match k {
                Mismatch::Protected => Refusal::hard(m),
                Mismatch::Differs | Mismatch::NotServed => Refusal::stale(m),
            };
            (k, r)
        })
    }
}

/// Why an entry of an auto batch does not run: `Err(refusal)` or `Ok(Some(skip reason))`.
fn auto_gate(e: &Entry, live: &mut Live) -> Result<Option<String>, Refusal> {
    if e.safety_tier == SafetyTier::Confirm {
        return Ok(Some(
            "confirm entry: apply it with --entry N --approve TOKEN after the user approves".into(),
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
        let root = live.root;
        // Read once: for its role, and for the blocks tools manage in it.
        let text = crate::roles::file_text(root, &e.path);
        let role = live.roles().of_text(&e.path, &text);
        if !crate::roles::auto_edits_kind(role, edit.kind) {
            return Err(Refusal::hard(format!(
                "`{}` is {} content, which is never edited without a prompt [auto-on-record]",
                e.path,
                role.name()
            )));
        }
        if let Some(crate::report::Anchor::Lines(r)) = &edit.anchor {
            let managed =
                crate::scan::markdown::managed_blocks(crate::scan::markdown::strip_bom(&text));
            if let Some((a, b)) =
                crate::scan::markdown::managed_at(&managed, r.start_line, r.end_line)
            {
                return Err(Refusal::hard(format!(
                    "lines {}-{} of `{}` lie in the block a tool manages at lines {a}-{b} (between marker comments), which is never edited without a prompt [auto-managed-block]",
                    r.start_line, r.end_line, e.path
                )));
            }
        }
        return Ok(None);
    }
    // The rule itself saying "not served (now)" is not an error; a report that is not what the
    // rulebook says (stale, or forged) is.
    let (status, evidence) = match live.lifecycle(e) {
        Ok(v) => v,
        Err((Mismatch::NotServed, r)) => return Ok(Some(r.reason)),
        Err((_, r)) => return Err(r),
    };
    let root = live.root;
    let git = live.git().state(root, e.path.trim_end_matches('/'));
    let evidence = match (status, evidence) {
        (Status::Served, Some(ev)) => ev,
        _ => crate::tier::Evidence::ClassifierJudged,
    };
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
            why.push("has uncommitted changes (or git could not say)".to_string());
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

/// Takes the lock under `.hygiene/` (resolved strictly, so a linked lock file is refused).
fn take_lock(root: &Path) -> Result<lock::BatchLock, Failure> {
    let path = crate::state::path(root, "apply.lock", true)
        .map_err(|e| Failure::Refused(e.to_string()))?;
    lock::BatchLock::acquire(&path).map_err(|e| match e {
        lock::LockError::Busy => Failure::Refused(
            "another hygiene apply or undo is running on this repository (lock .hygiene/apply.lock is held); nothing was changed".into(),
        ),
        lock::LockError::Io(e) => Failure::Refused(format!(".hygiene/apply.lock: {e}")),
    })
}

/// Refuses roots no batch should write: the file system root, and (for the auto tier) a
/// folder outside any git work tree, where nothing git can show or restore backs an edit made
/// without a prompt.
fn check_root(req: &ApplyRequest, live: &mut Live) -> Result<(), Failure> {
    if req.root.parent().is_none() {
        return Err(Failure::Refused(
            "the root is the file system root; run hygiene inside a repository (--root DIR)".into(),
        ));
    }
    if req.selection == Selection::Auto && !live.git().repo {
        return Err(Failure::Refused(format!(
            "{} is not inside a git work tree: hygiene applies edits without a prompt only where git can show and restore them; apply entries one by one after the user approves them (--entry N --approve TOKEN)",
            req.root.display()
        )));
    }
    Ok(())
}

/// Runs `hygiene apply`.
pub fn apply(req: &ApplyRequest) -> Result<ApplyReport, Failure> {
    let loaded = load(req)?;
    let inputs = prepare(req, &loaded)?;
    let mut live = Live::new(&req.root);
    check_root(req, &mut live)?;
    let _lock = if req.dry_run {
        None
    } else {
        Some(take_lock(&req.root)?)
    };
    let journal = Journal::open(&req.root, !req.dry_run)?;
    if !req.dry_run {
        journal.cleanup();
    }
    let report = &loaded.report;
    let mut results: Vec<Option<EntryResult>> = vec![None; report.entries.len()];
    let chosen = select(req, report, &mut live, &mut results);
    let rebase = history::rebase(&journal, &req.root, report, &loaded.report_sha, &chosen);
    let chosen: Vec<usize> = chosen
        .into_iter()
        .filter(|&i| match rebase.applied_in.get(&i) {
            Some(b) => {
                results[i] = Some(result(
                    i,
                    &report.entries[i],
                    Outcome::Skipped,
                    Some(format!("already applied in batch {b}")),
                    false,
                ));
                false
            }
            None => true,
        })
        .collect();
    let (ws, planned) = plan_batch(
        req,
        &loaded,
        &inputs,
        &mut live,
        &rebase,
        &chosen,
        &mut results,
    );

    let mut batch = None;
    let diff = if req.dry_run {
        dry_run_diff(&ws)
    } else {
        if ws.changed().next().is_some() {
            let failed = execute(&ws, &journal, req, &loaded, &planned, &mut batch)?;
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
        String::new()
    };
    if req.dry_run {
        for (i, t) in &inputs.tokens {
            if let Some(Some(r)) = results.get_mut(*i) {
                r.approve = Some(t.clone());
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

/// Stage 2: the entries the batch takes, in planning order.
fn select(
    req: &ApplyRequest,
    report: &Report,
    live: &mut Live,
    results: &mut [Option<EntryResult>],
) -> Vec<usize> {
    let mut chosen: Vec<usize> = Vec::new();
    match &req.selection {
        Selection::Entries(v) => {
            for &n in v {
                if !chosen.contains(&n) {
                    chosen.push(n);
                }
            }
        }
        Selection::Auto => {
            for (i, e) in report.entries.iter().enumerate() {
                match auto_gate(e, live) {
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
    chosen
}

/// Planning order of `entries`: bottom-up per file (path, then highest start line first), then
/// the cross-file constraints of [`order::batch_order`].
fn planning_order(report: &Report, mut entries: Vec<usize>) -> Vec<usize> {
    entries.sort_by_key(|&i| {
        let e = &report.entries[i];
        (
            e.path.clone(),
            std::cmp::Reverse(ops::order_line(e.exact_edit.as_ref())),
            i,
        )
    });
    let edits: Vec<_> = entries
        .iter()
        .map(|&i| {
            let e = &report.entries[i];
            (e.path.as_str(), e.exact_edit.as_ref())
        })
        .collect();
    order::batch_order(&edits)
        .into_iter()
        .map(|k| entries[k])
        .collect()
}

/// The checks an entry passes before its op plans it: its path by its real name and the write
/// table first (the most basic refusal is the one reported), then a lifecycle entry is
/// re-verified against the live rulebook (an approved one may rest on a judged `served_when`).
fn pre_plan(e: &Entry, live: &mut Live) -> Result<(), Refusal> {
    let path = e.path.trim_end_matches('/');
    guards::resolve(live.root, "path", path, true).map_err(Refusal::hard)?;
    let lifecycle_kind = e
        .exact_edit
        .as_ref()
        .is_some_and(|x| crate::kinds::rule(x.kind).lifecycle);
    if lifecycle_kind {
        live.lifecycle(e).map_err(|(_, r)| r)?;
    }
    Ok(())
}

/// Stage 3: plans the batch on top of the journal's replay. Pass A replays the entries earlier
/// batches applied and checks they reproduce the current bytes of every rebased file; pass B
/// plans them together with the new entries. Returns the workspace and the new entries planned.
fn plan_batch(
    req: &ApplyRequest,
    loaded: &Loaded,
    inputs: &Inputs,
    live: &mut Live,
    rebase: &history::Rebase,
    chosen: &[usize],
    results: &mut [Option<EntryResult>],
) -> (Workspace, Vec<usize>) {
    let report = &loaded.report;
    let fresh = || {
        let mut ws = Workspace::new(&req.root, loaded.generated_at);
        ws.rebase = rebase.bases.clone();
        ws.prior = rebase.prior.iter().copied().collect();
        ws
    };
    let rulebook = live.rulebook().ok().cloned();
    let readers = live.readers().clone();
    let ctx_of = |i: usize| Ctx {
        entry: &report.entries[i],
        extract_to: req.extract_to.as_deref(),
        proposal: inputs.proposals.get(&i).map(Vec::as_slice),
        fingerprint: match &report.entries[i].exact_edit {
            Some(_) => None,
            None => loaded
                .sidecar
                .as_ref()
                .and_then(|s| s.files.get(&report.entries[i].path).map(String::as_str)),
        },
        rulebook: rulebook.as_ref(),
        readers: Some(&readers),
    };
    // Pass A: the replay alone must reproduce what is on disk.
    let mut broken: Option<String> = None;
    if !rebase.prior.is_empty() {
        let mut ws = fresh();
        for i in planning_order(report, rebase.prior.iter().copied().collect()) {
            match ops::plan_entry(&mut ws, &ctx_of(i)) {
                Ok(Planned::Plan(p)) => ws.commit(i, p),
                Ok(Planned::AlreadyDone(_)) => {}
                Err(r) => {
                    broken = Some(format!("entry {i} no longer replays ({})", r.reason));
                    break;
                }
            }
        }
        if broken.is_none() {
            if let Some((k, _)) = ws.slots.iter().find(|(_, s)| s.rebased && s.changed()) {
                broken = Some(format!(
                    "`{k}` is not exactly what hygiene's earlier batches of this report left"
                ));
            }
        }
    }
    let mut ws = if broken.is_some() {
        Workspace::new(&req.root, loaded.generated_at)
    } else {
        fresh()
    };
    let mut all: Vec<usize> = chosen.to_vec();
    if broken.is_none() {
        all.extend(rebase.prior.iter().copied());
    }
    let mut planned = Vec::new();
    for i in planning_order(report, all) {
        let e = &report.entries[i];
        let replay = ws.prior.contains(&i);
        let outcome = if replay {
            ops::plan_entry(&mut ws, &ctx_of(i))
        } else {
            pre_plan(e, live).and_then(|()| ops::plan_entry(&mut ws, &ctx_of(i)))
        };
        match (outcome, replay) {
            (Ok(Planned::Plan(p)), _) => {
                ws.commit(i, p);
                if !replay {
                    planned.push(i);
                    results[i] = Some(result(i, e, Outcome::Applied, None, false));
                }
            }
            (Ok(Planned::AlreadyDone(why)), false) => {
                results[i] = Some(result(i, e, Outcome::Skipped, Some(why), false))
            }
            (Err(r), false) => {
                let reason = match (&broken, r.stale) {
                    (Some(b), true) => format!("{} (and {b})", r.reason),
                    _ => r.reason,
                };
                results[i] = Some(result(i, e, Outcome::Refused, Some(reason), r.stale))
            }
            (_, true) => {}
        }
    }
    (ws, planned)
}

fn dry_run_diff(ws: &Workspace) -> String {
    let mut diff = String::new();
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
    diff
}

/// Stage 4 and 5: journals and writes the batch. Returns `Some((reason, keys written))` when
/// execution stopped early because a file changed under it or a write did not land.
fn execute(
    ws: &Workspace,
    journal: &Journal,
    req: &ApplyRequest,
    loaded: &Loaded,
    planned: &[usize],
    batch: &mut Option<String>,
) -> Result<Option<(String, HashSet<String>)>, Failure> {
    let changed: Vec<(&String, &plan::Slot)> = ws.changed().collect();
    let manifest = journal::Manifest {
        version: journal::VERSION,
        batch: String::new(),
        created_at: crate::time::now_utc(),
        root: String::new(),
        report: req.report.display().to_string(),
        report_sha256: loaded.report_sha.clone(),
        entries: planned.to_vec(),
        files: changed
            .iter()
            .map(|(k, s)| journal::JournalFile {
                path: (*k).clone(),
                external: s.external,
                existed: s.original.is_some(),
                blob: None,
                sha256: s.original_sha(),
                planned_sha256: s.current.as_deref().map(sha256_hex),
                mode: std::fs::symlink_metadata(&s.abs)
                    .ok()
                    .as_ref()
                    .and_then(fsio::mode_of),
                entries: s
                    .entries
                    .iter()
                    .copied()
                    .filter(|e| !ws.prior.contains(e))
                    .collect(),
            })
            .collect(),
        dirs_created: ws.dirs_created.clone(),
        dirs_removed: ws.dirs_removed.clone(),
    };
    let originals: Vec<Option<&[u8]>> =
        changed.iter().map(|(_, s)| s.original.as_deref()).collect();
    let (batch_dir, manifest) = journal
        .begin(manifest, &originals)
        .map_err(|e| Failure::Error(Error::io(".hygiene/journal", e)))?;
    *batch = Some(manifest.batch.clone());

    let mut done: HashSet<String> = HashSet::new();
    let stop = run_writes(ws, &changed, &mut done);
    let mut after = journal::Done::default();
    for (k, s) in &changed {
        after
            .after
            .insert((*k).clone(), journal::current_sha(&s.abs).ok().flatten());
    }
    after.applied = planned
        .iter()
        .copied()
        .filter(|&i| {
            changed
                .iter()
                .filter(|(_, s)| s.entries.contains(&i))
                .all(|(k, _)| done.contains(*k))
        })
        .collect();
    journal
        .finish(&batch_dir, &after)
        .map_err(|e| Failure::Error(Error::io(&batch_dir, e)))?;
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
        if let Err(e) = fsio::create_dirs_inside(&ws.root, d) {
            return Some(format!("cannot create folder `{d}`: {e}"));
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
    let journal = Journal::open(root, false)?;
    journal.cleanup();
    journal.undo().map_err(|e| match e {
        journal::UndoFailure::Refused(m) => Failure::Refused(m),
        journal::UndoFailure::Error(m) => Failure::Error(Error::Other(m)),
    })
}
