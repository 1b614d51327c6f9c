//! The machine report: the frozen contract every other part of hygiene consumes.
//!
//! This module holds the report's types and nothing else, so that the shape is read in one
//! place. The JSON Schema (`hygiene schema`) is generated from these types and their doc
//! comments, and `hygiene validate` checks a document against that schema before it checks the
//! semantic rules no schema can express (`crate::validate`). Every enum here is closed: an
//! unknown value is a parse error, never a silently kept string. Changing anything in this file
//! changes the contract and needs an `invariants.md` update with human approval (invariant 1).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// The one schema version this build writes and accepts.
pub const SCHEMA_VERSION: u32 = 1;

/// The complete machine report `.hygiene/report.json`, written by `hygiene finalize`.
///
/// The scanner produces `shortlist`; the model's drafts produce `entries`; every derived field
/// (tiers, hashes, token counts, promotion candidates) is computed by code.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Report {
    /// The contract version; this build writes and accepts exactly 1.
    pub schema_version: u32,
    /// The version of the hygiene helper that wrote the report.
    pub tool_version: String,
    /// ISO-8601 UTC time of the scan (`YYYY-MM-DDTHH:MM:SSZ`). The clean step refuses an edit to a
    /// file modified after it.
    pub generated_at: String,
    /// What was scanned and how.
    pub scan: ScanMeta,
    /// The files the deterministic scanner surfaced, with the facts that put them there.
    pub shortlist: Vec<ShortlistItem>,
    /// The judged findings, one op each; every `path` is a shortlist member.
    pub entries: Vec<Entry>,
    /// Conventions that would let the scanner prove what the model had to judge. Always present,
    /// possibly empty.
    pub promotion_candidates: Vec<PromotionCandidate>,
}

/// The output of `hygiene scan`: the report's first half, before any model has judged it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ScanResult {
    /// The contract version (1).
    pub schema_version: u32,
    /// The version of the hygiene helper that scanned.
    pub tool_version: String,
    /// ISO-8601 UTC time of the scan; carried into the report as its `generated_at`.
    pub generated_at: String,
    /// What was scanned and how.
    pub scan: ScanMeta,
    /// The shortlisted files, ordered by what an entry could save (per-session first).
    pub shortlist: Vec<ShortlistItem>,
    /// Each drift's evidence, by document path: the files the document describes that lost
    /// names or quoted lines of its code since its last commit. Triage hands it to the model
    /// with the drift (a signal cannot carry it: the report's schema is frozen); the report
    /// does not keep it.
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub drift_evidence: std::collections::BTreeMap<String, Vec<DriftLoss>>,
}

/// What one described file lost: the names and quoted lines of the document's code it held at
/// the document's last commit and no longer holds.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DriftLoss {
    /// The described file, root-relative.
    pub file: String,
    /// What it lost: names first, then quoted lines.
    pub gone: Vec<String>,
}

/// Scan metadata: enough to say what the report covers and what it could not read.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ScanMeta {
    /// Absolute path of the scanned repository root; every other path is relative to it.
    pub project_root: String,
    /// The globs that selected documents (defaults, flags and rulebook combined).
    pub scope_globs: Vec<String>,
    /// Folder names never descended into.
    pub excluded_dirs: Vec<String>,
    /// Documents read and checked.
    pub files_scanned: u64,
    /// Documents in scope that could not be checked, each with its reason.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub skipped: Vec<Skipped>,
    /// Facts about the scan that lower its reach, such as a shallow or broken git history.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<String>,
}

/// A document in scope the scanner could not check, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Skipped {
    /// Root-relative path.
    pub path: String,
    /// Why it was skipped.
    pub reason: SkipReason,
}

/// Why a document in scope was not checked. A skipped file is reported, never silently dropped.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum SkipReason {
    /// Not valid UTF-8 text.
    NotUtf8,
    /// Contains NUL bytes: a binary file with a document's name.
    Binary,
    /// Larger than the scanner's size cap.
    TooLarge,
    /// The file could not be read (permissions, I/O error).
    Unreadable,
    /// The file disappeared between the walk and the read.
    Vanished,
    /// A symbolic link that loops or leads outside the root.
    Symlink,
}

/// One shortlisted file (or, for a directory lifecycle rule, one directory).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ShortlistItem {
    /// Root-relative path with `/` separators.
    pub path: String,
    /// The objective facts that shortlisted it; never empty.
    pub signals: Vec<Signal>,
    /// Ready exact edits the scanner could compute itself; the model copies one into a draft
    /// when it agrees. Proposals, not entries.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub suggestions: Vec<Suggestion>,
    /// The lifecycle rule that says this document has served, when one does.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lifecycle: Option<Lifecycle>,
    /// Local-tokenizer count of the whole file (of all files, for a directory).
    pub raw_tokens: u64,
    /// Whether Claude Code loads it in every session or only when asked.
    pub injection_frequency: InjectionFrequency,
}

/// A scanner-computed edit offered to the model.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Suggestion {
    /// The category the scanner's fact points to.
    pub category: Category,
    /// One sentence saying what the edit does.
    pub op: String,
    /// The edit, without `expected_sha256` (finalize computes it).
    pub exact_edit: ExactEdit,
}

/// An objective scanner fact. `kind` is from a closed set; `hygiene policy` publishes it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "kebab-case", deny_unknown_fields)]
pub enum Signal {
    /// A link, backticked path or `@import` resolves to no file in the tree.
    MissingPath {
        /// 1-based line of the reference.
        line: u32,
        /// The reference as written (without `#fragment`, `?query`).
        #[serde(rename = "ref")]
        reference: String,
        /// How the document refers to it.
        via: Via,
        /// The final existing path git history renamed it to, following chains.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        renamed_to: Option<String>,
        /// The commit that deleted it, when history shows a deletion.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        deleted_in: Option<DeletedIn>,
    },
    /// A `#fragment` names no heading of the target document.
    MissingAnchor {
        /// 1-based line of the reference.
        line: u32,
        /// The reference as written, fragment included.
        #[serde(rename = "ref")]
        reference: String,
    },
    /// A backticked code identifier occurs nowhere in the tracked source.
    MissingSymbol {
        /// 1-based line of the identifier.
        line: u32,
        /// The identifier as written.
        #[serde(rename = "ref")]
        reference: String,
    },
    /// A block identical (after whitespace folding) to one in another file.
    DuplicateBlock {
        /// First line of the duplicate span.
        start_line: u32,
        /// Last line of the duplicate span.
        end_line: u32,
        /// `path:start-end` of the copy to keep.
        canonical_ref: String,
    },
    /// Every checkbox (at least three) is checked.
    ChecklistComplete {
        /// How many boxes are checked.
        checked: u32,
    },
    /// A status line or frontmatter says done, complete, implemented, resolved or shipped.
    StatusDone {
        /// 1-based line.
        line: u32,
        /// The line's text, trimmed.
        text: String,
    },
    /// Says superseded, replaced, deprecated or obsolete.
    SupersededMarker {
        /// 1-based line.
        line: u32,
        /// The document it points to, when linked.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        by: Option<String>,
    },
    /// DRAFT, WIP, TODO, TBD, FIXME or placeholder markers.
    ProvisionalMarker {
        /// How many markers.
        count: u32,
        /// Their 1-based lines.
        lines: Vec<u32>,
    },
    /// Raw tokens over the threshold for its injection frequency.
    Oversize {
        /// The file's raw token count.
        raw_tokens: u64,
        /// The threshold it exceeds.
        threshold: u64,
    },
    /// A long investigation or incident write-up whose own text says it is resolved (a
    /// "Resolution" section, "Resolved:", "Status: fixed", a postmortem): bloat a model distils.
    ResolvedNarrative {
        /// 1-based line of the resolution marker.
        line: u32,
        /// The marker line, trimmed.
        text: String,
        /// Words of prose in the document (code left out).
        words: u32,
    },
    /// The paths it references changed in several commits since the document last changed.
    Drift {
        /// Commits touching referenced paths since the document's last change.
        commits: u32,
        /// ISO-8601 date of the document's last change.
        since: String,
    },
    /// A rulebook rule governs it and says it has served; the `lifecycle` object has the facts.
    Lifecycle {},
}

/// How a document refers to a path.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Via {
    /// A Markdown link or image.
    Link,
    /// A backticked string that looks like a repository path.
    Code,
    /// A Claude Code `@path` memory import.
    Import,
}

/// The commit that deleted a path.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DeletedIn {
    /// Full commit id.
    pub commit: String,
    /// ISO-8601 date of the commit.
    pub date: String,
}

/// One judged finding and the single op chosen for it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Entry {
    /// Root-relative path of the target; a member of the shortlist.
    pub path: String,
    /// What the document (or span) is.
    pub category: Category,
    /// The scanner facts that support the classification, copied from its shortlist item.
    pub signals: Vec<Signal>,
    /// One sentence saying what the op does.
    pub op: String,
    /// Whether the op is a precomputed exact edit or needs a model at clean time.
    pub op_type: OpType,
    /// True iff the op removes or overwrites information preserved nowhere else in the repository.
    pub is_destructive: bool,
    /// True iff the op can be undone from what the repository keeps.
    pub is_reversible: bool,
    /// Derived by `derive_safety_tier`, never assigned by a model.
    pub safety_tier: SafetyTier,
    /// What applying the op saves.
    pub token_estimate: TokenEstimate,
    /// The edit itself: present iff `op_type` is `deterministic`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exact_edit: Option<ExactEdit>,
    /// The lifecycle rule behind the entry, when one governs the file.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lifecycle: Option<Lifecycle>,
}

/// The closed category taxonomy: a class and a subtype legal for that class.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "class", rename_all = "kebab-case", deny_unknown_fields)]
pub enum Category {
    /// The text misleads: it no longer matches the repository.
    Stale {
        /// How it went stale.
        subtype: StaleSubtype,
    },
    /// The text costs more tokens than it is worth.
    Bloat {
        /// What to do about its size.
        subtype: BloatSubtype,
    },
}

/// How a stale document went stale.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum StaleSubtype {
    /// It says something the code contradicts.
    Contradicted,
    /// It names files, anchors or symbols that no longer exist.
    Orphaned,
    /// A newer document replaced it.
    Superseded,
    /// It is a draft or placeholder that was never finished.
    Provisional,
    /// It describes finished work as pending (a completed plan left in place).
    CompletedInPlace,
    /// It repeats another document.
    Duplicated,
}

/// What to do about a bloated document.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum BloatSubtype {
    /// Condense a long resolved narrative to what still matters.
    Distill,
    /// Move parts out so the always-loaded file shrinks.
    Split,
    /// Mark as a historical record that needs no further upkeep.
    Freeze,
}

/// Whether an op is a precomputed exact edit or a prose transformation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum OpType {
    /// An exact edit computed at check time and applied with no model.
    Deterministic,
    /// Prose written by a model (the rewriter subagent) at clean time.
    Generative,
}

/// Whether an op may run without a prompt.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum SafetyTier {
    /// Runs without a prompt.
    Auto,
    /// Runs only after the user approves it.
    Confirm,
}

/// The closed set of exact-edit kinds; each has a fixed characterization (`crate::kinds`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum EditKind {
    /// Remove a line range whose content is kept nowhere else.
    DeleteRange,
    /// Move a line range to an archive document (appended), then remove it.
    MoveToArchive,
    /// Add a key to the document's YAML frontmatter (creating the block if needed).
    InsertFrontmatter,
    /// Replace a string inside a line range.
    ReplaceText,
    /// Remove a span that exists verbatim at `canonical_ref`.
    Dedupe,
    /// Delete a whole file or directory governed by a lifecycle rule.
    Delete,
    /// Copy a span to a durable home, verify it landed, then delete the document.
    ExtractThenDelete,
}

/// A mechanically applicable edit. Which fields a kind requires is the kind table's business
/// (`crate::kinds::KINDS`); the validator rejects missing and foreign fields alike.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ExactEdit {
    /// The edit kind.
    pub kind: EditKind,
    /// The span the edit works on: lines, or the whole file or directory.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub anchor: Option<Anchor>,
    /// Archive document a `move-to-archive` appends to (root-relative).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dest_path: Option<String>,
    /// Frontmatter key an `insert-frontmatter` sets.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub key: Option<String>,
    /// Frontmatter value an `insert-frontmatter` sets.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<String>,
    /// Text a `replace-text` replaces; must occur inside the anchor.
    #[serde(default, rename = "match", skip_serializing_if = "Option::is_none")]
    pub match_text: Option<String>,
    /// Text a `replace-text` puts in its place.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub replacement: Option<String>,
    /// `path:start-end` of the kept copy a `dedupe` relies on.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub canonical_ref: Option<String>,
    /// The lifecycle rule that allows a `delete` or `extract-then-delete`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lifecycle: Option<Lifecycle>,
    /// Where an `extract-then-delete` puts the extracted span.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub extraction_target: Option<ExtractionTarget>,
    /// The target document (root-relative) of a `repo-durable` extraction.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target_path: Option<String>,
    /// sha256 (lowercase hex) of the target as it was at check time; required in a report,
    /// absent in drafts and suggestions.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expected_sha256: Option<String>,
}

/// The span an edit works on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum Anchor {
    /// A 1-based inclusive line range.
    Lines(LineRange),
    /// The whole file, or the whole directory of a directory-rule aggregate.
    Whole(WholeAnchor),
}

/// A 1-based inclusive line range.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct LineRange {
    /// First line (1-based).
    pub start_line: u32,
    /// Last line (inclusive).
    pub end_line: u32,
}

/// An anchor covering a whole file or directory.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct WholeAnchor {
    /// What the anchor covers.
    pub whole: WholeKind,
}

/// What a whole anchor covers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum WholeKind {
    /// The entry's file.
    File,
    /// The entry's directory and everything in it.
    Directory,
}

/// Where an `extract-then-delete` puts the extracted span.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum ExtractionTarget {
    /// A document in this repository (`target_path`).
    RepoDurable,
    /// A file outside the repository, named by the user at apply time (always confirm).
    CrossRepo,
}

/// Which rulebook rule governs a document, and the evidence it uses.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Lifecycle {
    /// The `id` of the matching rulebook rule.
    pub rule_ref: String,
    /// The rule's lifetime.
    pub lifetime: Lifetime,
    /// Root-relative path whose existence proves the document served (scanner-proven).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub served_when_path: Option<String>,
    /// The question a model must judge to say it served (classifier-judged).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub served_when: Option<String>,
}

/// How long a governed document lives.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Lifetime {
    /// Never deleted by a lifecycle op.
    Keep,
    /// Served once outside the newest `retain_recent` and older than `max_age_days`.
    Temporary,
    /// Served once its `served_when_path` exists or a model judges `served_when` true.
    DeleteOnceServed,
}

/// What applying an entry saves, counted with the local tokenizer.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TokenEstimate {
    /// Tokens in the span the op removes or reduces.
    pub raw_tokens: u64,
    /// Whether the file is loaded every session or only on demand (v2; may be absent).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub injection_frequency: Option<InjectionFrequency>,
    /// `raw_tokens` weighted by injection frequency (v2; may be absent).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub weighted_tokens: Option<u64>,
}

/// When Claude Code puts a file into the model's context.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum InjectionFrequency {
    /// Loaded at the start of every session: real savings, every session.
    PerSession,
    /// Read only when the agent asks: savings are a theoretical maximum.
    OnDemand,
}

/// A convention that would turn a model's judgement into a scanner-proven fact.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PromotionCandidate {
    /// The classifier-judged entry's path.
    pub path: String,
    /// The `conventions.json` entry recommended.
    pub convention: String,
    /// The convention's one-line pitch.
    pub pitch: String,
}
