//! Finalize: the model's drafts plus the scan become the machine report.
//!
//! The model decides what a document is (category, op, op_type, the exact edit, whether a
//! `served_when` question is answered). Everything else is derived here by code: the kind's
//! characterization, the target's fingerprint, the token estimate, the safety tier (through
//! [`crate::tier::derive_safety_tier`] with live git state) and the promotion candidates. A draft
//! may not carry a derived field: drafts are parsed with unknown fields denied, so a model that
//! writes `safety_tier` gets an error, not a tier (invariant 3). Every error names the drafts
//! file, the entry and the rule, so the model can fix its draft and run finalize again; no report
//! is written until every draft is clean and the result passes `hygiene validate`.

use crate::error::{Error, Result};
use crate::kinds::{self, FieldProblem, Reversibility};
use crate::paths::resolve_inside;
use crate::protect::Role;
use crate::report::{
    Anchor, Category, EditKind, Entry, ExactEdit, InjectionFrequency, Lifecycle, Lifetime, OpType,
    PromotionCandidate, Report, ScanResult, ShortlistItem, Signal, TokenEstimate, WholeKind,
};
use crate::tier::{derive_safety_tier, lifecycle_arg, GitState};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::fmt;
use std::path::{Path, PathBuf};

/// A drafts file: `{ "entries": [ ... ] }`, written by the model.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DraftFile {
    /// The draft entries.
    pub entries: Vec<DraftEntry>,
}

/// A report entry without its derived fields.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DraftEntry {
    /// A shortlisted path.
    pub path: String,
    /// What the document (or span) is.
    pub category: Category,
    /// The shortlist item's signals that support the classification (copied, not invented).
    pub signals: Vec<Signal>,
    /// One sentence saying what the op does.
    pub op: String,
    /// Deterministic (an exact edit) or generative (a rewrite at clean time).
    pub op_type: OpType,
    /// The exact edit, deterministic ops only, without `expected_sha256`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exact_edit: Option<ExactEdit>,
    /// The shortlist item's lifecycle object, when it has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lifecycle: Option<Lifecycle>,
    /// Generative ops only: does the rewrite lose information kept nowhere else?
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub is_destructive: Option<bool>,
    /// Generative ops only: can the rewrite be undone from what the repository keeps?
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub is_reversible: Option<bool>,
}

/// One problem with the drafts, located by file and entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DraftError {
    /// The drafts file (as given).
    pub file: String,
    /// The entry index in that file, when the problem is in one entry.
    pub entry: Option<usize>,
    /// The rule's stable name.
    pub rule: &'static str,
    /// What is wrong and how to fix it.
    pub message: String,
}

impl fmt::Display for DraftError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.entry {
            Some(i) => write!(
                f,
                "{} entry {i}: {} [{}]",
                self.file, self.message, self.rule
            ),
            None => write!(f, "{}: {} [{}]", self.file, self.message, self.rule),
        }
    }
}

/// A convention `conventions.json` can recommend.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Convention {
    /// Its name, as `.hygiene/conventions.json` adopts it.
    pub name: String,
    /// One line saying what adopting it buys.
    pub pitch: String,
    /// Which lifecycle entries it applies to.
    pub applies_to: AppliesTo,
}

/// Which lifecycle entries a convention applies to. A convention naming a `rule_ref` is more
/// specific than one naming only a `lifetime`; the most specific applicable ones win.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AppliesTo {
    /// The rulebook rule id.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rule_ref: Option<String>,
    /// The rule's lifetime.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lifetime: Option<Lifetime>,
}

/// The shipped conventions.
pub const CONVENTIONS_JSON: &str = include_str!("../conventions.json");

/// The shipped conventions, parsed.
///
/// ```
/// let c = hygiene::finalize::shipped_conventions();
/// assert!(c.iter().any(|c| c.name == "plan-done-marker"));
/// ```
pub fn shipped_conventions() -> Vec<Convention> {
    serde_json::from_str(CONVENTIONS_JSON).expect("conventions.json is valid (tested)")
}

/// `.hygiene/conventions.json`: the conventions a repository has adopted.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct Adopted {
    #[serde(default)]
    adopted: Vec<String>,
}

/// The conventions that apply to a classifier-judged lifecycle object: those naming its
/// `rule_ref`, else those naming only its `lifetime` (the most specific win).
pub fn promotion_candidates_for<'a>(
    lc: &Lifecycle,
    conventions: &'a [Convention],
) -> Vec<&'a Convention> {
    let by_rule: Vec<&Convention> = conventions
        .iter()
        .filter(|c| c.applies_to.rule_ref.as_deref() == Some(lc.rule_ref.as_str()))
        .collect();
    if !by_rule.is_empty() {
        return by_rule;
    }
    conventions
        .iter()
        .filter(|c| c.applies_to.rule_ref.is_none() && c.applies_to.lifetime == Some(lc.lifetime))
        .collect()
}

/// The promotion candidates of a set of entries: one per entry whose lifecycle is
/// classifier-judged (`served_when`) and per most-specific applicable convention not adopted.
/// Model-free: it reads only the conventions and the entries' lifecycle objects.
///
/// ```
/// use hygiene::finalize::{promotion_candidates, shipped_conventions};
/// assert!(promotion_candidates(&[], &shipped_conventions(), &[]).is_empty());
/// ```
pub fn promotion_candidates(
    entries: &[Entry],
    conventions: &[Convention],
    adopted: &[String],
) -> Vec<PromotionCandidate> {
    let mut out: Vec<PromotionCandidate> = Vec::new();
    for e in entries {
        let lc = e
            .lifecycle
            .as_ref()
            .or(e.exact_edit.as_ref().and_then(|x| x.lifecycle.as_ref()));
        let Some(lc) = lc.filter(|lc| lc.served_when.is_some()) else {
            continue;
        };
        for c in promotion_candidates_for(lc, conventions) {
            if adopted.contains(&c.name)
                || out
                    .iter()
                    .any(|p| p.path == e.path && p.convention == c.name)
            {
                continue;
            }
            out.push(PromotionCandidate {
                path: e.path.clone(),
                convention: c.name.clone(),
                pitch: c.pitch.clone(),
            });
        }
    }
    out
}

/// Reads the drafts at `path`: one file, or every `*.json` file of a folder (sorted).
pub fn read_drafts(path: &Path) -> Result<Vec<(String, Result<DraftFile, DraftError>)>> {
    let meta = std::fs::metadata(path).map_err(|e| Error::io(path, e))?;
    let files: Vec<PathBuf> = if meta.is_dir() {
        let mut v: Vec<PathBuf> = std::fs::read_dir(path)
            .map_err(|e| Error::io(path, e))?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "json") && p.is_file())
            .collect();
        v.sort();
        v
    } else {
        vec![path.to_path_buf()]
    };
    let mut out = Vec::new();
    for f in files {
        let name = f.display().to_string();
        let bytes = crate::error::read(&f)?;
        let parsed = serde_json::from_slice::<DraftFile>(&bytes).map_err(|e| {
            let mut message = format!("line {} column {}: {e}", e.line(), e.column());
            let m = e.to_string();
            if ["safety_tier", "expected_sha256", "token_estimate"]
                .iter()
                .any(|d| m.contains(d))
            {
                message.push_str(
                    "; tiers, hashes and token counts are derived by finalize: remove the field",
                );
            }
            DraftError {
                file: name.clone(),
                entry: None,
                rule: "draft-shape",
                message,
            }
        });
        out.push((name, parsed));
    }
    Ok(out)
}

/// Finalize's own rules: each draft error carries one of these names, and `hygiene policy`
/// publishes the table. Rules shared with the validator keep the validator's names.
pub const RULES: &[crate::validate::Rule] = &[
    rule("draft-shape", "A drafts file is `{\"entries\": [...]}` with no derived field (tier, hash, token count) and no unknown field."),
    rule("entry-in-shortlist", "A draft names a path of the scan's shortlist."),
    rule("target-exists", "The entry's file or folder exists now and is a regular file or folder."),
    rule("relative-path", "Every path is root-relative and stays inside the root along real folders (no link on the way)."),
    rule("write-target", "Every path the entry writes is allowed by the write table (`hygiene policy`: `writes`): documents only, Markdown archive and extraction targets that no client loads as instructions, never git's or hygiene's data, tool configuration, nested repositories or executables."),
    rule("op", "`op` is one sentence saying what the edit does."),
    rule("entry-signals-from-shortlist", "An entry cites at least one of its shortlist item's signals, copied exactly."),
    rule("lifecycle-from-shortlist", "A lifecycle object is copied unchanged from the shortlist item; a delete or extract-then-delete needs one."),
    rule("lifecycle-live", "A delete or extract-then-delete stands on what the live rulebook, tree and history say now: the same rule governs the path and it has served (or needs the judgement the entry gives). A scan file cannot vouch for it."),
    rule("exact-edit-iff-deterministic", "A deterministic entry has `exact_edit`; a generative one has none."),
    rule("generative-characterization", "A generative entry states `is_destructive` and `is_reversible`."),
    rule("derived-field", "A draft carries no `expected_sha256`: finalize computes it."),
    rule("kind-fields", "An exact edit carries its kind's fields and no other (a frontmatter key of letters, digits, `_`, `-`; a one-line value)."),
    rule("kind-characterization", "A deterministic draft that states `is_destructive`/`is_reversible` agrees with the kind table."),
    rule("anchor-inside-file", "A line anchor lies inside the file; a whole anchor matches file or directory."),
    rule("replace-text-swaps", "A replace-text is a one-line swap of one reference for another of the same kind (validator rule)."),
    rule("replace-text-match", "The `match` occurs inside the anchored line."),
    rule("replace-text-reference", "The swap repairs a broken reference: `match` occurs only as a whole reference and does not resolve, `replacement` resolves, and the line does not already name it."),
    rule("canonical-ref", "`canonical_ref` names lines of an existing file by its real path."),
    rule("dedupe-identical", "A dedupe's span equals its kept copy after whitespace folding."),
    rule("dedupe-kept-copy", "A dedupe's kept copy is not in a document a lifecycle rule governs (it would be deleted later) and is not the span itself."),
    rule("dedupe-readers", "A dedupe keeps the text for every reader: every reader of the document is Claude Code in this repository, and Claude Code reads the kept copy whenever it reads the document (`readers` in `hygiene policy`)."),
    rule("dedupe-whole-blocks", "A dedupe removes whole Markdown blocks: it begins and ends where blocks do, cuts no block and no fenced code, and does not end on a paragraph that introduces what follows."),
    rule("auto-on-record", "An edit that would run without a prompt is made only to a document that describes the present (role `living`): never to a history record, shipped content or a generated page (`roles` in `hygiene policy`); write such a change as a generative op, which asks."),
    rule("conventions", "`.hygiene/conventions.json`, when present, parses."),
];

const fn rule(name: &'static str, requires: &'static str) -> crate::validate::Rule {
    crate::validate::Rule { name, requires }
}

/// What finalize needs to know about the live tree, each read once.
struct Tree<'a> {
    root: &'a Path,
    git: crate::git::Facts,
    roles: crate::roles::Roles,
    readers: crate::readers::ReaderMap,
    rulebook: Option<crate::lifecycle::Rulebook>,
    governed: std::cell::OnceCell<Result<HashMap<String, crate::lifecycle::Governed>, String>>,
}

impl Tree<'_> {
    fn git_state(&self, rel: &str) -> GitState {
        self.git.state(self.root, rel)
    }

    /// The live lifecycle evaluation of every governed path (walk, history, rulebook), once.
    fn governed(&self) -> &Result<HashMap<String, crate::lifecycle::Governed>, String> {
        self.governed.get_or_init(|| {
            let now = crate::time::now_override().unwrap_or_else(crate::time::now_secs);
            crate::lifecycle::evaluate_now(self.root, now)
                .map(|v| v.into_iter().map(|g| (g.path.clone(), g)).collect())
                .map_err(|e| e.to_string())
        })
    }
}

/// The lines of a file's text, without their endings; the text of a 1-based inclusive range.
fn span(text: &str, start: u32, end: u32) -> Option<String> {
    let lines: Vec<&str> = text.lines().collect();
    if start < 1 || end < start || end as usize > lines.len() {
        return None;
    }
    Some(lines[start as usize - 1..end as usize].join("\n"))
}

/// Whitespace folding, the duplicate detector's and dedupe's notion of "identical".
pub fn fold(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Turns drafts into a report. `Err` carries every draft error found (none is written).
pub fn finalize(
    root: &Path,
    scan: &ScanResult,
    drafts: &[(String, Result<DraftFile, DraftError>)],
) -> Result<Report, Vec<DraftError>> {
    let roles = crate::roles::Roles::load(root);
    let tree = Tree {
        root,
        git: crate::git::Facts::read(root),
        readers: crate::readers::ReaderMap::load(root, roles.clone()),
        roles,
        rulebook: crate::lifecycle::Rulebook::load(root).ok(),
        governed: std::cell::OnceCell::new(),
    };
    let items: HashMap<&str, &ShortlistItem> = scan
        .shortlist
        .iter()
        .map(|i| (i.path.as_str(), i))
        .collect();
    let mut errors = Vec::new();
    let mut entries = Vec::new();
    let mut sizes: HashMap<String, u64> = HashMap::new();
    for (file, parsed) in drafts {
        let df = match parsed {
            Ok(df) => df,
            Err(e) => {
                errors.push(e.clone());
                continue;
            }
        };
        for (i, d) in df.entries.iter().enumerate() {
            let mut errs = Vec::new();
            let mut err = |rule: &'static str, message: String| {
                errs.push(DraftError {
                    file: file.clone(),
                    entry: Some(i),
                    rule,
                    message,
                })
            };
            if let Some((e, file_tokens)) = entry_of(d, &items, &tree, &mut err) {
                sizes.insert(e.path.clone(), file_tokens);
                entries.push(e);
            }
            errors.extend(errs);
        }
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    cap_tokens_per_file(&mut entries, &sizes);
    let adopted = read_adopted(root).map_err(|e| {
        vec![DraftError {
            file: ".hygiene/conventions.json".into(),
            entry: None,
            rule: "conventions",
            message: e.to_string(),
        }]
    })?;
    let report = Report {
        schema_version: crate::report::SCHEMA_VERSION,
        tool_version: crate::TOOL_VERSION.to_string(),
        generated_at: scan.generated_at.clone(),
        scan: scan.scan.clone(),
        shortlist: scan.shortlist.clone(),
        promotion_candidates: promotion_candidates(&entries, &shipped_conventions(), &adopted),
        entries,
    };
    let value = serde_json::to_value(&report).expect("report types always serialize");
    let violations = crate::validate::validate_value(&value);
    if !violations.is_empty() {
        return Err(violations
            .into_iter()
            .map(|v| DraftError {
                file: "(report)".into(),
                entry: None,
                rule: v.rule,
                message: format!("{}: {}", v.pointer, v.message),
            })
            .collect());
    }
    Ok(report)
}

/// No file saves more than it has: the entries of one file claim, in order, at most the file's
/// own token count between them (three rewrites of a 66-token `CLAUDE.md` save at most 66).
fn cap_tokens_per_file(entries: &mut [Entry], sizes: &HashMap<String, u64>) {
    let mut left: HashMap<String, u64> = HashMap::new();
    for e in entries.iter_mut() {
        let Some(&size) = sizes.get(&e.path) else {
            continue;
        };
        let budget = left.entry(e.path.clone()).or_insert(size);
        let t = &mut e.token_estimate;
        t.raw_tokens = t.raw_tokens.min(*budget);
        *budget -= t.raw_tokens;
        if let Some(f) = t.injection_frequency {
            t.weighted_tokens = Some(t.raw_tokens * crate::validate::weight(f));
        }
    }
}

/// The conventions `root` adopted (`.hygiene/conventions.json`).
pub fn read_adopted(root: &Path) -> Result<Vec<String>> {
    let path = crate::state::path(root, "conventions.json", false)?;
    match crate::error::read_optional(&path)? {
        Some(bytes) => {
            Ok(crate::error::parse_json::<Adopted>(".hygiene/conventions.json", &bytes)?.adopted)
        }
        None => Ok(Vec::new()),
    }
}

fn word<T: Serialize>(t: T) -> String {
    serde_json::to_value(t)
        .ok()
        .and_then(|v| v.as_str().map(str::to_string))
        .unwrap_or_default()
}

/// A check's verdict: `fail(rule, message)` records a problem.
type Fail<'a> = dyn FnMut(&'static str, String) + 'a;

/// Checks one draft entry and derives its report entry; reports problems through `err`.
/// Stages: [`locate`] the item and target, [`check_citations`], [`characterize`] the op, then
/// derive the tier and the token estimate.
fn entry_of(
    d: &DraftEntry,
    items: &HashMap<&str, &ShortlistItem>,
    tree: &Tree,
    err: &mut Fail,
) -> Option<(Entry, u64)> {
    let (item, target) = locate(d, items, tree, err)?;
    let mut ok = true;
    let mut fail = |rule: &'static str, message: String| {
        ok = false;
        err(rule, message);
    };
    check_citations(d, item, &mut fail);
    let op = characterize(d, item, &target, tree, &mut fail);
    let op = op.filter(|_| ok)?;
    let arg = op.exact_edit.as_ref().and_then(|e| {
        lifecycle_arg(e, tree.git_state(&d.path), |p| {
            crate::lifecycle::eval::path_exists(tree.root, p)
        })
    });
    let safety_tier = derive_safety_tier(d.op_type, op.is_destructive, op.is_reversible, arg);
    let freq: InjectionFrequency = item.injection_frequency;
    let entry = Entry {
        path: d.path.clone(),
        category: d.category,
        signals: d.signals.clone(),
        op: d.op.trim().to_string(),
        op_type: d.op_type,
        is_destructive: op.is_destructive,
        is_reversible: op.is_reversible,
        safety_tier,
        token_estimate: TokenEstimate {
            raw_tokens: op.raw_tokens,
            injection_frequency: Some(freq),
            weighted_tokens: Some(op.raw_tokens * crate::validate::weight(freq)),
        },
        exact_edit: op.exact_edit,
        lifecycle: item.lifecycle.clone(),
    };
    Some((entry, op.file_tokens))
}

/// Stage 1: the shortlist item and the live target of a draft.
fn locate<'a>(
    d: &DraftEntry,
    items: &HashMap<&str, &'a ShortlistItem>,
    tree: &Tree,
    err: &mut Fail,
) -> Option<(&'a ShortlistItem, PathBuf)> {
    let Some(item) = items.get(d.path.as_str()).copied() else {
        err(
            "entry-in-shortlist",
            format!(
                "`{}` is not in the scan's shortlist; judge only shortlisted paths",
                d.path
            ),
        );
        return None;
    };
    match resolve_inside(tree.root, &d.path, true) {
        Ok(p) if p.is_file() || p.is_dir() => Some((item, p)),
        Ok(p) if p.exists() => {
            err(
                "target-exists",
                format!(
                    "`{}` is not a regular file or folder; hygiene edits neither FIFOs nor devices",
                    d.path
                ),
            );
            None
        }
        Ok(_) => {
            err(
                "target-exists",
                format!("`{}` does not exist any more; re-run the scan", d.path),
            );
            None
        }
        Err(e) => {
            err("relative-path", format!("`{}`: {e}", d.path));
            None
        }
    }
}

/// Stage 2: what the draft copies from the item (op sentence, signals, lifecycle object).
fn check_citations(d: &DraftEntry, item: &ShortlistItem, fail: &mut Fail) {
    if d.op.trim().is_empty() {
        fail(
            "op",
            "`op` is one sentence saying what the edit does".into(),
        );
    }
    if d.signals.is_empty() {
        fail(
            "entry-signals-from-shortlist",
            "cite at least one of the item's signals in `signals`".into(),
        );
    }
    for (j, s) in d.signals.iter().enumerate() {
        if !item.signals.contains(s) {
            fail(
                "entry-signals-from-shortlist",
                format!(
                    "signals[{j}] is not one of the shortlist item's signals; copy them exactly"
                ),
            );
        }
    }
    // Lifecycle evidence comes from the scanner, never from the model.
    if let Some(lc) = &d.lifecycle {
        if item.lifecycle.as_ref() != Some(lc) {
            fail(
                "lifecycle-from-shortlist",
                "`lifecycle` must be copied unchanged from the shortlist item".into(),
            );
        }
    }
}

/// What stage 3 derives about an op.
struct Characterized {
    /// The whole target's tokens: what all entries of the file may claim between them.
    file_tokens: u64,
    is_destructive: bool,
    is_reversible: bool,
    exact_edit: Option<ExactEdit>,
    raw_tokens: u64,
}

/// Stage 3: the op's characterization, its exact edit (checked against the live tree, with
/// its fingerprint) and the tokens it saves.
fn characterize(
    d: &DraftEntry,
    item: &ShortlistItem,
    target: &Path,
    tree: &Tree,
    fail: &mut Fail,
) -> Option<Characterized> {
    let is_dir = target.is_dir();
    let bytes = if is_dir {
        Vec::new()
    } else {
        crate::error::read(target).unwrap_or_default()
    };
    let text = String::from_utf8_lossy(&bytes).into_owned();
    let file_tokens = if is_dir {
        item.raw_tokens
    } else {
        crate::tokens::count(&text)
    };
    let role = match d.exact_edit.as_ref().map(|x| x.kind) {
        Some(EditKind::Delete | EditKind::ExtractThenDelete) => Role::Delete,
        _ => Role::Edit,
    };
    if let Err(r) = crate::protect::check(tree.root, role, d.path.trim_end_matches('/')) {
        fail("write-target", r.message);
    }
    match (d.op_type, &d.exact_edit) {
        (OpType::Generative, Some(_)) => {
            fail(
                "exact-edit-iff-deterministic",
                "a generative entry has no `exact_edit`; its text is written at clean time".into(),
            );
            None
        }
        (OpType::Deterministic, None) => {
            fail(
                "exact-edit-iff-deterministic",
                "a deterministic entry needs `exact_edit`".into(),
            );
            None
        }
        (OpType::Generative, None) => {
            let (Some(dd), Some(rr)) = (d.is_destructive, d.is_reversible) else {
                fail(
                    "generative-characterization",
                    "a generative entry states `is_destructive` and `is_reversible`".into(),
                );
                return None;
            };
            Some(Characterized {
                file_tokens,
                is_destructive: dd,
                is_reversible: rr,
                exact_edit: None,
                raw_tokens: generative_tokens(d.category, &d.signals, &text, file_tokens),
            })
        }
        (OpType::Deterministic, Some(edit)) => {
            let mut edit = edit.clone();
            if edit.expected_sha256.is_some() {
                fail(
                    "derived-field",
                    "remove `expected_sha256`: finalize computes it".into(),
                );
            }
            let row = kinds::rule(edit.kind);
            if row.lifecycle {
                lifecycle_edit(d, item, &mut edit, tree, fail);
            }
            for p in kinds::field_problems(&edit) {
                fail(
                    "kind-fields",
                    match p {
                        FieldProblem::Missing(f) => {
                            format!("a {} needs `{}`", word(edit.kind), f.json_name())
                        }
                        FieldProblem::Foreign(f) => {
                            format!("a {} has no `{}`", word(edit.kind), f.json_name())
                        }
                    },
                );
            }
            let is_reversible = match row.reversibility {
                Reversibility::Fixed(r) => r,
                Reversibility::GitHistory => tree.git_state(&d.path).recoverable(),
            };
            if d.is_destructive.is_some_and(|x| x != row.is_destructive)
                || (matches!(row.reversibility, Reversibility::Fixed(_))
                    && d.is_reversible.is_some_and(|x| x != is_reversible))
            {
                fail("kind-characterization", format!(
                    "a {} is is_destructive={} is_reversible={}; the draft contradicts the kind table (omit both for deterministic ops)",
                    word(edit.kind), row.is_destructive, match row.reversibility {
                        Reversibility::Fixed(r) => r.to_string(),
                        Reversibility::GitHistory => "tracked-and-clean".into(),
                    }
                ));
            }
            let saved = check_edit(&d.path, &edit, &text, is_dir, file_tokens, tree, fail);
            let auto_kind = !row.lifecycle
                && crate::tier::is_auto(derive_safety_tier(
                    OpType::Deterministic,
                    row.is_destructive,
                    is_reversible,
                    None,
                ));
            if auto_kind && !is_dir {
                let fm = crate::scan::markdown::frontmatter(&text);
                let role = tree.roles.of_doc(
                    &d.path,
                    &text,
                    fm.get(crate::roles::FRONTMATTER_KEY).map(|(v, _)| v),
                );
                if !crate::roles::auto_edits_kind(role, edit.kind) {
                    fail(
                        "auto-on-record",
                        format!(
                            "`{}` is {} content: a {} there would run without a prompt; write the change as a generative op, which asks",
                            d.path,
                            role.name(),
                            word(edit.kind)
                        ),
                    );
                }
            }
            edit.expected_sha256 = crate::fingerprint::of_path(target).ok();
            Some(Characterized {
                file_tokens,
                is_destructive: row.is_destructive,
                is_reversible,
                exact_edit: Some(edit),
                raw_tokens: saved.unwrap_or(0),
            })
        }
    }
}

/// A delete or extract-then-delete: its lifecycle object is the item's, and the live
/// evaluation (rulebook, rank, age, served path) agrees with it now.
fn lifecycle_edit(
    d: &DraftEntry,
    item: &ShortlistItem,
    edit: &mut ExactEdit,
    tree: &Tree,
    fail: &mut Fail,
) {
    match (&edit.lifecycle, &item.lifecycle) {
        (_, None) => {
            fail(
                "lifecycle-from-shortlist",
                format!(
                    "a {} needs a lifecycle rule governing `{}`; the shortlist item has none",
                    word(edit.kind),
                    d.path
                ),
            );
            return;
        }
        (None, Some(lc)) => edit.lifecycle = Some(lc.clone()),
        (Some(a), Some(b)) if a != b => {
            fail(
                "lifecycle-from-shortlist",
                "`exact_edit.lifecycle` must be copied unchanged from the shortlist item".into(),
            );
            return;
        }
        _ => {}
    }
    let Some(lc) = &edit.lifecycle else { return };
    match tree.governed() {
        Err(e) => fail(
            "lifecycle-live",
            format!("the rulebook cannot be evaluated: {e}"),
        ),
        Ok(live) => {
            let path = d.path.trim_end_matches('/');
            if let Err((_, m)) = crate::lifecycle::live_verdict(live.get(path), path, lc) {
                fail("lifecycle-live", format!("{m}; re-run the scan"));
            }
        }
    }
}

/// What a generative op can remove: a bloat op (distill, split, freeze) works on the whole
/// document; a stale rewrite on the lines its cited signals point at, or the whole file when a
/// cited signal is about the whole file (size, a finished checklist, a lifecycle rule).
fn generative_tokens(category: Category, signals: &[Signal], text: &str, file_tokens: u64) -> u64 {
    if matches!(category, Category::Bloat { .. }) {
        return file_tokens;
    }
    let lines: Vec<&str> = text.lines().collect();
    let mut covered: Vec<bool> = vec![false; lines.len()];
    for s in signals {
        let (a, b) = match s {
            Signal::MissingPath { line, .. }
            | Signal::MissingAnchor { line, .. }
            | Signal::MissingSymbol { line, .. }
            | Signal::StatusDone { line, .. }
            | Signal::SupersededMarker { line, .. } => (*line, *line),
            Signal::DuplicateBlock {
                start_line,
                end_line,
                ..
            } => (*start_line, *end_line),
            Signal::ProvisionalMarker { lines: ls, .. } => {
                for &l in ls {
                    if let Some(c) = covered.get_mut(l.saturating_sub(1) as usize) {
                        *c = true;
                    }
                }
                continue;
            }
            _ => return file_tokens,
        };
        for l in a..=b {
            if let Some(c) = covered.get_mut(l.saturating_sub(1) as usize) {
                *c = true;
            }
        }
    }
    let picked: Vec<&str> = lines
        .iter()
        .zip(&covered)
        .filter(|(_, c)| **c)
        .map(|(l, _)| *l)
        .collect();
    crate::tokens::count(&picked.join("\n")).min(file_tokens)
}

/// Checks an edit against the live file and returns the raw tokens it saves.
fn check_edit(
    path: &str,
    edit: &ExactEdit,
    text: &str,
    is_dir: bool,
    file_tokens: u64,
    tree: &Tree,
    fail: &mut Fail,
) -> Option<u64> {
    let lines = text.lines().count() as u32;
    let range = match edit.anchor {
        Some(Anchor::Lines(r)) => {
            if is_dir {
                fail(
                    "anchor-inside-file",
                    format!("`{path}` is a directory; a line anchor needs a file"),
                );
                return None;
            }
            match span(text, r.start_line, r.end_line) {
                Some(s) => Some((r, s)),
                None => {
                    fail(
                        "anchor-inside-file",
                        format!(
                            "lines {}-{} are not inside `{path}`, which has {lines} lines",
                            r.start_line, r.end_line
                        ),
                    );
                    return None;
                }
            }
        }
        Some(Anchor::Whole(w)) => {
            if (w.whole == WholeKind::Directory) != is_dir {
                fail(
                    "anchor-inside-file",
                    format!(
                        "`{path}` is a {}, the anchor says {}",
                        if is_dir { "directory" } else { "file" },
                        word(w.whole)
                    ),
                );
                return None;
            }
            None
        }
        None => None,
    };
    let span_tokens = range
        .as_ref()
        .map(|(_, s)| crate::tokens::count(s))
        .unwrap_or(0);
    for (name, p) in [
        ("dest_path", &edit.dest_path),
        ("target_path", &edit.target_path),
    ] {
        if let Some(p) = p {
            if let Err(e) = resolve_inside(tree.root, p, true) {
                fail("relative-path", format!("`{name}` `{p}`: {e}"));
            } else if p == path {
                fail("relative-path", format!("`{name}` is the entry's own file"));
            } else if let Err(r) = crate::protect::check(tree.root, Role::Target, p) {
                fail("write-target", format!("`{name}` {}", r.message));
            }
        }
    }
    match edit.kind {
        EditKind::DeleteRange | EditKind::MoveToArchive => Some(span_tokens),
        EditKind::InsertFrontmatter => {
            let key = edit.key.as_deref().unwrap_or("");
            let value = edit.value.as_deref().unwrap_or("");
            if key.is_empty()
                || !key
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
            {
                fail(
                    "kind-fields",
                    format!("frontmatter key `{key}` must be letters, digits, `_` or `-`"),
                );
            }
            if value.contains('\n') || value.trim().is_empty() {
                fail(
                    "kind-fields",
                    "frontmatter value must be one non-empty line".into(),
                );
            }
            // Adding a marker saves nothing now; what it stops is future bloat work.
            Some(0)
        }
        EditKind::ReplaceText => check_replace_text(
            path,
            edit,
            range.as_ref().map(|(_, s)| s.as_str()),
            span_tokens,
            tree,
            fail,
        ),
        EditKind::Dedupe => check_dedupe(
            path,
            edit,
            text,
            range.as_ref().map(|(_, s)| s.as_str()),
            span_tokens,
            tree,
            fail,
        ),
        // The whole document goes; an extraction keeps the span elsewhere.
        EditKind::Delete => Some(file_tokens),
        EditKind::ExtractThenDelete => Some(file_tokens.saturating_sub(span_tokens)),
    }
}

fn check_replace_text(
    path: &str,
    edit: &ExactEdit,
    line: Option<&str>,
    span_tokens: u64,
    tree: &Tree,
    fail: &mut Fail,
) -> Option<u64> {
    if let Some(why) = kinds::replace_text_problem(edit) {
        fail("replace-text-swaps", why);
        return None;
    }
    let m = edit.match_text.as_deref().unwrap_or("");
    let r = edit.replacement.as_deref().unwrap_or("");
    let Some(line) = line.filter(|s| !m.is_empty() && s.contains(m)) else {
        fail(
            "replace-text-match",
            format!("`match` {m:?} does not occur inside the anchor lines"),
        );
        return None;
    };
    if let Some(why) = crate::reference::swap_problem(tree.root, path, line, m, r) {
        fail(
            "replace-text-reference",
            format!("{why}; a replace-text only repoints a broken reference (anything else is a generative op, which asks the user)"),
        );
        return None;
    }
    let after = crate::reference::replace_whole(line, m, r);
    Some(span_tokens.saturating_sub(crate::tokens::count(&after)))
}

fn check_dedupe(
    path: &str,
    edit: &ExactEdit,
    text: &str,
    removed: Option<&str>,
    span_tokens: u64,
    tree: &Tree,
    fail: &mut Fail,
) -> Option<u64> {
    let c = edit.canonical_ref.as_deref().unwrap_or("");
    let Some((cpath, a, b)) = crate::validate::parse_canonical_ref(c) else {
        fail("canonical-ref", format!("`{c}` is not `path:start-end`"));
        return None;
    };
    if let Some(rule) = tree.rulebook.as_ref().and_then(|book| book.governs(cpath)) {
        fail(
            "dedupe-kept-copy",
            format!(
                "the kept copy `{cpath}` is governed by lifecycle rule `{}`, which will delete it; keep the copy in a document that stays",
                rule.id
            ),
        );
        return None;
    }
    let imports = crate::readers::imports_of(tree.root, path, text);
    if let Some(why) = crate::readers::dedupe_problem(
        &tree.readers.of(path),
        &tree.readers.of(cpath),
        imports.contains(cpath),
    ) {
        fail(
            "dedupe-readers",
            format!("`{path}` cannot lose the span to `{cpath}`: {why}"),
        );
        return None;
    }
    if let (Some(Anchor::Lines(r)), true) = (edit.anchor, cpath == path) {
        if a <= r.end_line && r.start_line <= b {
            fail(
                "dedupe-kept-copy",
                format!("the span overlaps its own kept copy `{c}`"),
            );
            return None;
        }
    }
    // Only a regular file, by its real path, is read: a FIFO would block finalize forever, and
    // a name through a link could be the entry's own file.
    let canonical = resolve_inside(tree.root, cpath, true)
        .ok()
        .filter(|p| p.is_file())
        .and_then(|p| std::fs::read(p).ok())
        .and_then(|b2| span(&String::from_utf8_lossy(&b2), a, b));
    match (canonical, removed) {
        (Some(kept), Some(s)) if fold(&kept) == fold(s) && !fold(s).is_empty() => {
            if let Some(Anchor::Lines(r)) = edit.anchor {
                if let Some(why) =
                    crate::scan::markdown::span_problem(text, r.start_line, r.end_line)
                {
                    fail("dedupe-whole-blocks", format!("`{path}`: {why}"));
                    return None;
                }
            }
            Some(span_tokens)
        }
        (None, _) => {
            fail(
                "canonical-ref",
                format!("`{c}` does not name lines of an existing file by its real path"),
            );
            None
        }
        _ => {
            fail("dedupe-identical", format!(
                "the anchored lines are not identical (after whitespace folding) to `{c}`; a dedupe only removes an exact copy"
            ));
            None
        }
    }
}

/// Writes a finalized report to `out` (never through a link; inside the root by the rules of
/// [`crate::fsio::write_inside`]) and its sidecar of check-time fingerprints for generative
/// entries ([`crate::fingerprint::Sidecar`]), which apply needs to guard them.
pub fn write_report(root: &Path, out: &Path, report: &Report) -> Result<()> {
    let mut text = serde_json::to_string_pretty(report).expect("report types always serialize");
    text.push('\n');
    let mut files = std::collections::BTreeMap::new();
    for e in report.entries.iter().filter(|e| e.exact_edit.is_none()) {
        if let Ok(p) = resolve_inside(root, &e.path, true) {
            if let Ok(sha) = crate::fingerprint::of_path(&p) {
                files.insert(e.path.clone(), sha);
            }
        }
    }
    let sidecar = crate::fingerprint::Sidecar {
        report_sha256: crate::fingerprint::sha256_hex(text.as_bytes()),
        files,
    };
    let mut side = serde_json::to_string_pretty(&sidecar).expect("sidecar serializes");
    side.push('\n');
    crate::fsio::write_output(
        Some(root),
        &crate::fingerprint::Sidecar::path_for(out),
        side.as_bytes(),
    )?;
    crate::fsio::write_output(Some(root), out, text.as_bytes())
}

/// `hygiene finalize`: reads the scan and drafts, writes the report to `out` only if valid.
/// Returns the report, or every error found.
pub fn run(
    root: &Path,
    scan_path: &Path,
    drafts: &Path,
) -> Result<Result<Report, Vec<DraftError>>> {
    let bytes = crate::error::read(scan_path)?;
    let scan: ScanResult = crate::error::parse_json(&scan_path.display().to_string(), &bytes)?;
    let scanned_root = Path::new(&scan.scan.project_root);
    if scanned_root.canonicalize().ok().as_deref() != Some(root) {
        return Err(Error::Usage(format!(
            "{} was made for {}, not for {}; scan this root again",
            scan_path.display(),
            scan.scan.project_root,
            root.display()
        )));
    }
    let drafts = read_drafts(drafts)?;
    Ok(finalize(root, &scan, &drafts))
}
