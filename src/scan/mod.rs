//! The deterministic scanner behind `hygiene scan`: which files the model must look at, and the
//! objective facts it needs to judge them.
//!
//! Precision is the model's token bill and recall the product's worth, so every signal is a
//! fact with a line number, and the rules are published as data ([`signal_rules`],
//! [`THRESHOLDS`], [`DEFAULT_SCOPE`], [`DEFAULT_EXCLUDED`],
//! [`detectors::duplicate::CANONICAL_RULE`]) that `hygiene policy` projects.
//!
//! The pipeline, each phase on all cores: [`walk`] the tree once; parse each document once
//! ([`markdown`]) and run the per-document detectors while its text is in hand, while the git
//! history is read beside them in one `git log` ([`crate::git::History`]); then run the
//! tree-wide detectors ([`detectors`]) on the parsed summaries; then attach the lifecycle
//! rulebook's verdicts. Tokens are counted only for what is reported. With the [`cache`] on,
//! a document whose entry still holds is neither parsed nor (when its file's stamp vouches for
//! it) read, the history is read from the cache when `HEAD` has not moved (or only the new
//! commits are walked), and the source files are read only when they changed; the tree-wide
//! steps always run again. `HYGIENE_TIMINGS=1` prints each phase's time ([`timings`]).

pub mod cache;
pub mod detectors;
pub mod diagnostics;
pub mod human;
pub mod loadclass;
pub mod markdown;
pub mod progress;
pub mod refs;
pub mod sarif;
pub mod sites;
pub mod timings;
pub mod walk;

pub use detectors::duplicate::{canonical_copy, CANONICAL_RULE};
pub use loadclass::injection_frequencies;

use crate::git::Repo;
use crate::report::{
    InjectionFrequency, ScanMeta, ScanResult, ShortlistItem, Signal, SkipReason, Skipped,
    Suggestion,
};
use detectors::{Doc, DocText, Finding, TreeCtx};
use schemars::JsonSchema;
use serde::Serialize;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::{Path, PathBuf};

/// One published signal rule: a `kind` of [`Signal`], the fact it states and its fields.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct SignalRule {
    /// The signal's `kind`.
    pub kind: &'static str,
    /// The fact, in one sentence.
    pub fact: &'static str,
    /// Its fields besides `kind`.
    pub fields: &'static [&'static str],
    /// `fact`: the scanner proves what the signal says about the document (a path that does
    /// not resolve, a copied block, a size); `hint`: the signal is true of the text but whether
    /// the document is stale needs reading (a status line, a marker, churn of what it names, a
    /// name the source lacks). Both reach the model; hints rank after facts.
    pub class: SignalClass,
}

/// Whether a signal kind proves its claim or points at something to read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum SignalClass {
    /// The scanner proves it.
    Fact,
    /// It needs reading to tell.
    Hint,
}

/// The signal table, one row per [`Signal`] variant, in contract order.
pub fn signal_rules() -> Vec<SignalRule> {
    use SignalClass::{Fact, Hint};
    let r = |kind, fact, fields, class| SignalRule {
        kind,
        fact,
        fields,
        class,
    };
    vec![
        r("missing-path", "a link, backticked path or @import resolves to no file in the tree", &["line", "ref", "via", "renamed_to", "deleted_in"], Fact),
        r("missing-anchor", "a #fragment names no heading of the target Markdown document (GitHub slug rules)", &["line", "ref"], Fact),
        r("missing-symbol", "a backticked call or path identifier (or a snake_case identifier in a document that references source files) occurs nowhere in the tracked source", &["line", "ref"], Hint),
        r("duplicate-block", "a block (paragraph, list, table, quote, fenced code or section) is identical after whitespace folding to one in another file", &["start_line", "end_line", "canonical_ref"], Fact),
        r("checklist-complete", "every task-list checkbox is checked, and there are enough of them", &["checked"], Fact),
        r("status-done", "a status line or frontmatter status says done, complete, implemented, resolved or shipped (not where the same line marks a resolved-narrative)", &["line", "text"], Hint),
        r("superseded-marker", "the document says it is superseded, replaced, deprecated or obsolete", &["line", "by"], Hint),
        r("provisional-marker", "DRAFT, WIP, TODO, TBD, FIXME or PLACEHOLDER in prose, or a draft status", &["count", "lines"], Hint),
        r("oversize", "raw tokens exceed the threshold for the file's injection frequency (read on demand: only a file an agent loads whole when used, a skill's, command's or agent's, a scoped rule or a nested instruction file)", &["raw_tokens", "threshold"], Fact),
        r("resolved-narrative", "a long investigation or incident write-up whose own text says it is resolved (a Resolution section, Resolved:, Status: fixed or closed, a postmortem)", &["line", "text", "words"], Fact),
        r("drift", "the files it describes changed in enough commits since the document last changed, and no longer hold a name its code uses or a line it quotes", &["commits", "since"], Hint),
        r("lifecycle", "a rulebook rule governs it and says it has served (or a model must judge served_when)", &[], Fact),
    ]
}

/// The scanner's numbers. Detectors read these constants; `hygiene policy` publishes them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
pub struct Thresholds {
    /// `oversize` for a file loaded every session: raw tokens above this.
    pub oversize_per_session_tokens: u64,
    /// `oversize` for a file loaded every session also needs more lines than this (Claude
    /// Code's documented target for a memory file).
    pub oversize_per_session_min_lines: u64,
    /// `oversize` for a file read on demand: raw tokens above this. A reference page, a
    /// tutorial or a translation read on demand is long by design and costs only when read;
    /// judged on public repositories, only far longer ones were worth splitting.
    pub oversize_on_demand_tokens: u64,
    /// `duplicate-block`: minimum length of the whitespace-folded block, in bytes.
    pub duplicate_min_chars: u64,
    /// `drift`: minimum commits touching referenced files since the document changed.
    pub drift_min_commits: u32,
    /// `checklist-complete`: minimum number of checkboxes.
    pub checklist_min_boxes: u32,
    /// `resolved-narrative`: minimum words of prose (shorter write-ups cost little to keep).
    pub resolved_narrative_min_words: u32,
    /// Documents larger than this are skipped (`too-large`), in bytes.
    pub file_size_cap_bytes: u64,
    /// `missing-path`: a bare file name (`tsconfig.json`) that this many files of the tree
    /// carry is a kind of file, not one file, and is not checked.
    pub generic_name_min_files: u32,
    /// `missing-path`: the lowest git similarity score (percent) of a rename the scanner
    /// rewrites a reference to by itself. Below it the file was split up or rewritten (git
    /// detects renames from 50%), so the new name is reported for the model to weigh.
    pub rename_min_similarity: u32,
    /// A site's JSON configuration (Mintlify's `docs.json`) larger than this is not read for
    /// its redirects, in bytes. A versioned site lists every version's navigation in it, so it
    /// outgrows the document cap long before its redirects stop mattering.
    pub site_config_cap_bytes: u64,
    /// `lifecycle`: how many first lines of a plan may say it is kept on purpose (its title
    /// and status banner: "Kept as the historical record"), which spares it the served
    /// question. Not a section's "Original list, kept for the record" deep in a long plan.
    pub lifecycle_kept_head_lines: u32,
    /// `missing-path`: a backticked path this tree deleted at least this many days before the
    /// document was first written is no evidence that the document means this tree's file: its
    /// writer never saw it here (`src/App.tsx` deleted in 2021, named by a 2026 how-to for the
    /// reader's app). Judged on public repositories: of 15 paths deleted 207 to 2,569 days
    /// before their document, 11 were judged false and the 2 true sat under a folder the tree
    /// still has, which keeps them a claim; up to 145 days, text copied from an older page
    /// (a true stale path) was common.
    pub missing_path_deleted_before_days: u32,
}

/// The thresholds in force.
pub const THRESHOLDS: Thresholds = Thresholds {
    oversize_per_session_tokens: 2_000,
    oversize_per_session_min_lines: 200,
    oversize_on_demand_tokens: 20_000,
    duplicate_min_chars: 80,
    drift_min_commits: 3,
    checklist_min_boxes: 3,
    resolved_narrative_min_words: 400,
    file_size_cap_bytes: 2 * 1024 * 1024,
    generic_name_min_files: 3,
    rename_min_similarity: 90,
    site_config_cap_bytes: 32 * 1024 * 1024,
    lifecycle_kept_head_lines: 20,
    missing_path_deleted_before_days: 180,
};

/// The signals a document governed by a lifecycle rule (one that deletes it once it has
/// served or aged) never draws: its references are intentions or a record, and the lifecycle
/// question decides its fate.
pub const GOVERNED_QUIET: &[&str] = &["missing-path", "missing-anchor", "missing-symbol", "drift"];

/// The signals that ask whether a document has served, as a `lifecycle` signal does: a
/// document that draws one draws none of them (a plan's `status: completed` is the evidence
/// the model reads for the lifecycle question, not a second question).
pub const LIFECYCLE_ASKS: &[&str] = &["status-done", "checklist-complete"];

/// The documents at the root that present a repository to its readers and its agents: what
/// they link to is presented as current.
pub const ENTRY_DOCUMENTS: &[&str] = &["README.md", "CLAUDE.md", "AGENTS.md"];

/// The names of an agent's instruction files, at the root or in any folder (a nested
/// `AGENTS.md` instructs the agent working below it): what one names, it tells the agent to
/// read, so it is as much an entry as what [`ENTRY_DOCUMENTS`] link.
pub const INSTRUCTION_FILES: &[&str] = &["CLAUDE.md", "AGENTS.md", "GEMINI.md"];

/// Whether `path` presents what it names as current: an [`ENTRY_DOCUMENTS`] file at the root,
/// or an [`INSTRUCTION_FILES`] file anywhere.
///
/// ```
/// use hygiene::scan::entry_document;
/// assert!(entry_document("README.md") && entry_document("backend/middlewares/AGENTS.md"));
/// assert!(!entry_document("docs/README.md") && !entry_document("docs/AGENTS-notes.md"));
/// ```
pub fn entry_document(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    ENTRY_DOCUMENTS.contains(&path) || INSTRUCTION_FILES.contains(&name)
}

/// The signals a document that an entry document ([`entry_document`]) names never draws: its
/// finished status or ticked list is that of a thing the entry presents as current (sentry-mcp's
/// refactor notes that CLAUDE.md and AGENTS.md index, a lab's system summary the README links
/// as "System Summary", the sign-off logs a package's `AGENTS.md` cites as its verification
/// record), not of a plan that has served; so is a lifecycle document's (deer-flow's
/// authorization RFC, which a nested `AGENTS.md` says to read before changing a later phase).
/// (s30: 2 of 2 judged false; s34: 7 more judged false, none judged true.)
pub const ENTRY_NAMED_QUIET: &[&str] = &["status-done", "checklist-complete"];

/// The signals a document a `keep` lifecycle rule governs (an entry point such as a README, an
/// ADR) never draws: they ask whether a document has served, which a keep rule answers. A
/// README's ticked list is a feature or prerequisites list, not finished work.
pub const KEPT_QUIET: &[&str] = &["checklist-complete"];

/// The signals a document in an example folder ([`detectors::in_examples`]: `examples/`,
/// `cookbook/`, ...) never draws: they ask whether a document has served, and there a ticked
/// list, a status line or a write-up is the example's content (a feature list, the state file a
/// demo run wrote).
pub const EXAMPLE_QUIET: &[&str] = &["checklist-complete", "status-done", "resolved-narrative"];

/// The signals a page a docs site publishes ([`sites::Sites::of`]) never draws: there a ticked
/// list is the page's presentation (TaskWeaver's "- [x] **Rich data structure**" features, a
/// how-to's best-practices list, a thank-you page's onboarding notes), not a plan whose work
/// is done. Judged on public repositories, all three such lists were false alarms.
pub const SITE_PAGE_QUIET: &[&str] = &["checklist-complete"];

/// Names of a site's pages that hold work, not presentation (vitest's `docs/todo.md`, "Remove
/// UnoCSS - Migration Complete"): with a plan's name ([`detectors::missing_path::plan_document`]),
/// such a page still draws [`SITE_PAGE_QUIET`] signals.
pub const SITE_WORK_PAGE_NAMES: &[&str] = &["todo", "todos", "tasks"];

/// Whether a page of a docs site is presentation ([`SITE_PAGE_QUIET`]): not a plan or a task
/// list by its name.
///
/// ```
/// use hygiene::scan::site_page_presents;
/// assert!(site_page_presents("website/docs/overview.md"));
/// assert!(!site_page_presents("docs/todo.md") && !site_page_presents("docs/guide/roadmap.mdx"));
/// ```
pub fn site_page_presents(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    let stem = name.rsplit_once('.').map_or(name, |(s, _)| s);
    !detectors::missing_path::plan_document(path)
        && !SITE_WORK_PAGE_NAMES
            .iter()
            .any(|w| w.eq_ignore_ascii_case(stem))
}

/// Folders of backup snapshots (`backups/plugin-backups/pack_20251020_011523/`): each copy is
/// frozen at the moment it was taken.
pub const BACKUP_FOLDERS: &[&str] = &["backups", "backup"];

/// The signals a backup copy ([`BACKUP_FOLDERS`]) never draws: what it names changing after the
/// copy was taken is what a snapshot is for (two of two such drifts judged false). Its own
/// broken links and finished statuses still count: whether to keep the copy is the question.
pub const BACKUP_QUIET: &[&str] = &["drift"];

/// Whether a document sits in a [`BACKUP_FOLDERS`] folder.
///
/// ```
/// use hygiene::scan::in_backups;
/// assert!(in_backups("backups/plugin-backups/pack_1/README.md") && in_backups("a/backup/x.md"));
/// assert!(!in_backups("docs/backup-and-restore.md") && !in_backups("backups.md"));
/// ```
pub fn in_backups(path: &str) -> bool {
    detectors::in_folder_named(path, BACKUP_FOLDERS)
}

/// Folders of posts (`blog/`, `posts/`, `_posts/`, `news/`): each page is written for its day.
pub const POST_FOLDERS: &[&str] = &["blog", "posts", "_posts", "news"];

/// The signals a post ([`POST_FOLDERS`]) never draws: a release announcement's "deprecated"
/// lines are that day's news, an incident report's resolved narrative is the post, and a
/// post's status or ticked list is its story. Its links still have to work.
pub const POST_QUIET: &[&str] = &[
    "checklist-complete",
    "status-done",
    "resolved-narrative",
    "superseded-marker",
];

/// The signals a prompt ([`is_prompt`]) never draws: its ticked list is the success criteria
/// of a run ("- [x] `make check` passes"), its status line and its "Root Cause" narrative the
/// answer format it asks for. A prompt is instructions, which never serve and go.
pub const PROMPT_QUIET: &[&str] = &["checklist-complete", "status-done", "resolved-narrative"];

/// Whether a document is an agent's prompt: a `SKILL.md`, or a page in a `commands/` or
/// `agents/` folder (`.claude/commands/spec-create.md`, `commands/git/commit.md`,
/// `plugins/x/agents/api-expert.md`). Not the other pages of a skill's folder (a skill's
/// `IMPLEMENTATION_SUMMARY.md` is a build report).
///
/// ```
/// use hygiene::scan::is_prompt;
/// assert!(is_prompt(".agent/skills/smoke-test/SKILL.md") && is_prompt(".claude/commands/spec-create.md"));
/// assert!(is_prompt("commands/git/commit.md") && is_prompt("plugins/x/agents/api-expert.md"));
/// assert!(!is_prompt("skills/report/IMPLEMENTATION_SUMMARY.md") && !is_prompt("docs/agents.md"));
/// ```
pub fn is_prompt(path: &str) -> bool {
    let segs: Vec<&str> = path.split('/').collect();
    let n = segs.len();
    PROMPT_PAGE_NAMES.contains(&segs[n - 1])
        || segs[..n - 1]
            .iter()
            .rev()
            .take(2)
            .any(|s| PROMPT_PAGE_FOLDERS.contains(s))
}

/// The file names of a prompt ([`is_prompt`]).
pub const PROMPT_PAGE_NAMES: &[&str] = &["SKILL.md"];

/// The folders whose pages (directly, or one folder down: `commands/git/commit.md`) are
/// prompts ([`is_prompt`]).
pub const PROMPT_PAGE_FOLDERS: &[&str] = &["commands", "agents"];

/// Folders of design documents (`design/`, `docs/architecture/`): each page explains why the
/// code is as it is, the way an ADR does.
pub const DESIGN_FOLDERS: &[&str] = &["design", "designs", "architecture"];

/// The signals a design document ([`is_design_record`]) never draws: its `Status: implemented`
/// is the design's state, as an ADR's `Accepted` is, not a finished plan to archive. Judged
/// on public repositories: five of six such statuses were false alarms (cloudflare-agents'
/// `design/think-sessions.md`, TypeAgent's `docs/architecture/workflows/dsl/dsl-v0.1.md`).
pub const DESIGN_QUIET: &[&str] = &["status-done"];

/// Whether a document is a design record: in a [`DESIGN_FOLDERS`] folder, and not a plan by its
/// name (`docs/architecture/workflows/engineering/plan.md` is a plan).
///
/// ```
/// use hygiene::scan::is_design_record;
/// assert!(is_design_record("design/think-sessions.md") && is_design_record("ts/docs/architecture/dsl/dsl-v0.1.md"));
/// assert!(!is_design_record("docs/architecture/engineering/plan.md") && !is_design_record("docs/design-plan.md"));
/// assert!(!is_design_record("docs/design/rollout-plan.md") && !is_design_record("docs/guide.md"));
/// ```
pub fn is_design_record(path: &str) -> bool {
    let stem = path.rsplit('/').next().unwrap_or(path);
    let stem = stem
        .rsplit_once('.')
        .map_or(stem, |(s, _)| s)
        .to_ascii_lowercase();
    detectors::in_folder_named(path, DESIGN_FOLDERS)
        && !stem
            .split(|c: char| !c.is_ascii_alphanumeric())
            .any(|w| w == "plan" || w == "plans")
}

/// Folders of drafts (`how-to/drafts/`, a `wip/` folder of provisional plans): each page is
/// unfinished by where it is kept.
pub const DRAFT_FOLDERS: &[&str] = &["drafts", "draft", "wip", "WIP"];

/// The signals a draft ([`is_draft`]) never draws: its `DRAFT` title or a "details TBD" is what
/// it is by its place, not a published page left unfinished. Judged on public repositories,
/// all three such markers were false alarms (router's `how-to/drafts/*.draft.md`, AG-UI's
/// `drafts/` proposals, cloudflare-agents' `wip/`).
pub const DRAFT_QUIET: &[&str] = &["provisional-marker"];

/// Whether a document is a draft: in a [`DRAFT_FOLDERS`] folder, or named `*.draft.md`.
///
/// ```
/// use hygiene::scan::is_draft;
/// assert!(is_draft("docs/how-to/drafts/search.draft.md") && is_draft("wip/sub-agents.md"));
/// assert!(is_draft("docs/guide.draft.mdx") && !is_draft("docs/drafting.md") && !is_draft("drafts.md"));
/// ```
pub fn is_draft(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    detectors::in_folder_named(path, DRAFT_FOLDERS)
        || name
            .rsplit_once('.')
            .is_some_and(|(stem, _)| stem.ends_with(".draft"))
}

/// Whether a document sits in a [`POST_FOLDERS`] folder.
///
/// ```
/// use hygiene::scan::in_posts;
/// assert!(in_posts("www/content/blog/goreleaser-v2.2.md") && in_posts("_posts/2024-01-01-a.md"));
/// assert!(!in_posts("docs/blog.md") && !in_posts("docs/guide.md"));
/// ```
pub fn in_posts(path: &str) -> bool {
    detectors::in_folder_named(path, POST_FOLDERS)
}

/// A test of a document's root-relative path.
pub type PlaceTest = fn(&str) -> bool;

/// The signals a document's place keeps quiet, whatever its role: which documents, and the
/// signals they never draw.
pub const QUIET_BY_PLACE: &[(PlaceTest, &[&str])] = &[
    (change_page, CHANGE_PAGE_QUIET),
    (detectors::in_examples, EXAMPLE_QUIET),
    (in_posts, POST_QUIET),
    (in_backups, BACKUP_QUIET),
    (is_prompt, PROMPT_QUIET),
    (is_design_record, DESIGN_QUIET),
    (is_draft, DRAFT_QUIET),
];

/// Pages that name old APIs on purpose: migration guides and what's-new pages ("`x` was
/// removed, use `y`"). Their links and anchors must still work, so they stay living documents;
/// only the signals their subject makes false are quiet ([`CHANGE_PAGE_QUIET`]).
pub const CHANGE_PAGES: &[&str] = &[
    "**/{WHATS_NEW,WHATS-NEW,whats-new,whats_new,WhatsNew,whatsnew}*",
    "**/{MIGRATION,Migration,migration,MIGRATING,migrating,UPGRADING,upgrading}*.md",
    "**/{migration,migrations,migration-guides}/**/*.md",
    "**/{updates,UPDATES,Updates}.{md,mdx}",
];

/// The signals a [`CHANGE_PAGES`] page never draws: an old name it says is gone
/// (`missing-symbol`), a field it says was replaced (`superseded-marker`), commits to the
/// files it names (`drift`: it records a transition between two versions, which later
/// changes do not make wrong).
pub const CHANGE_PAGE_QUIET: &[&str] = &["missing-symbol", "superseded-marker", "drift"];

/// Whether `path` is one of [`CHANGE_PAGES`].
///
/// ```
/// use hygiene::scan::change_page;
/// assert!(change_page("docs/migration/v7-to-v8.md") && change_page("docs/whats-new.md") && change_page("MIGRATION.md"));
/// assert!(change_page("MIGRATION_GUIDE.md") && change_page("docs/updates.mdx"));
/// assert!(!change_page("docs/migrating-data-between-stores-guide/intro.txt") && !change_page("docs/guide.md"));
/// ```
pub fn change_page(path: &str) -> bool {
    static SET: std::sync::OnceLock<Option<globset::GlobSet>> = std::sync::OnceLock::new();
    SET.get_or_init(|| {
        let mut b = globset::GlobSetBuilder::new();
        for g in CHANGE_PAGES {
            b.add(
                globset::GlobBuilder::new(g)
                    .literal_separator(true)
                    .build()
                    .ok()?,
            );
        }
        b.build().ok()
    })
    .as_ref()
    .is_some_and(|s| s.is_match(path))
}

/// Signals that never shortlist a document alone: they ride along on one another signal
/// shortlists, as evidence for the model reading the document for that reason. Each was judged
/// on public repositories true alone far less often than as company (drift was one, about 1
/// time in 3, until it needed evidence: see [`detectors::drift`]):
/// - oversize of a document read on demand (a skill's, command's or agent's file, or a scoped
///   rule: [`detectors::oversize::loaded_on_use`]; no other page read on demand draws one);
/// - a duplicate block in a single client's instructions (`.github/copilot-instructions.md`,
///   Cursor and Windsurf rules, `GEMINI.md`) repeating another file (no dedupe is offered):
///   that client needs its copy; that it says what `AGENTS.md` says is worth a look only when
///   the model is reading it anyway. Agents' own files repeating each other (a nested
///   `AGENTS.md` and the root one) still shortlist;
/// - a provisional marker that only a maintainer sees, in a comment the rendered page hides
///   (`<!-- TODO: add a screenshot -->`), in a document read on demand: judged 34 true and 29
///   false alone, identical notes on sibling pages drawing opposite verdicts. A visible
///   marker, or one in a file loaded every session, still shortlists.
pub const RIDE_ALONG: &[RideAlong] = &[
    RideAlong {
        kind: "oversize",
        when: RideWhen::ReadOnDemand,
    },
    RideAlong {
        kind: "duplicate-block",
        when: RideWhen::SingleClientFile,
    },
    RideAlong {
        kind: "provisional-marker",
        when: RideWhen::HiddenReadOnDemand,
    },
];

/// When a [`RideAlong`] row applies.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum RideWhen {
    /// The document is read on demand (not loaded every session).
    ReadOnDemand,
    /// The finding offers no edit and the document is one client's instructions (Copilot,
    /// Cursor, Windsurf, Gemini: the reader table).
    SingleClientFile,
    /// All the finding points at is hidden on the rendered page (in comments), and the
    /// document is read on demand.
    HiddenReadOnDemand,
}

/// One row of [`RIDE_ALONG`].
#[derive(Debug, Clone, Copy, Serialize, JsonSchema)]
pub struct RideAlong {
    /// The signal kind.
    pub kind: &'static str,
    /// When it rides along.
    pub when: RideWhen,
}

/// Whether `f`, found in a document of load class `freq`, rides along ([`RIDE_ALONG`]).
fn rides_along(f: &Finding, path: &str, freq: InjectionFrequency) -> bool {
    let kind = signal_kind(&f.signal);
    RIDE_ALONG
        .iter()
        .filter(|r| r.kind == kind)
        .any(|r| match r.when {
            RideWhen::ReadOnDemand => freq == InjectionFrequency::OnDemand,
            RideWhen::HiddenReadOnDemand => f.unrendered && freq == InjectionFrequency::OnDemand,
            RideWhen::SingleClientFile => {
                use crate::readers::Reader;
                f.suggestion.is_none()
                    && crate::readers::readers_of(path, false, false)
                        .iter()
                        .any(|r| {
                            matches!(
                                r,
                                Reader::Copilot
                                    | Reader::Cursor
                                    | Reader::Windsurf
                                    | Reader::Gemini
                            )
                        })
            }
        })
}

/// The signals a document marked `hygiene: frozen` in its frontmatter never draws: a frozen
/// document is finished on purpose, so its size is not bloat to act on.
pub const FROZEN_EXEMPT_SIGNALS: &[&str] = &["oversize"];

/// The default scope: agent-facing documents. Globs match root-relative paths; `*` does not
/// cross `/`, `**` does. Non-Markdown files under `.claude/` (settings, scripts) are not
/// documents and are left out on purpose.
pub const DEFAULT_SCOPE: &[&str] = &[
    "**/*.md",
    "**/*.markdown",
    "**/*.mdx",
    "**/CLAUDE.md",
    "**/CLAUDE.local.md",
    "**/AGENTS.md",
    "**/GEMINI.md",
    ".claude/**/*.md",
    ".cursor/rules/**",
    ".cursorrules",
    ".windsurfrules",
    ".github/copilot-instructions.md",
    ".github/instructions/**",
];

/// Folder names never descended into, anywhere in the tree (`.git` always, besides these).
pub const DEFAULT_EXCLUDED: &[&str] = &[
    ".git",
    ".hg",
    ".svn",
    ".hygiene",
    "node_modules",
    "target",
    "vendor",
    "dist",
    "build",
    "out",
    ".venv",
    "venv",
    "__pycache__",
    ".tox",
    ".next",
    ".nuxt",
    ".cache",
    "coverage",
];

/// What to scan.
#[derive(Debug, Clone, Default)]
pub struct ScanOptions {
    /// The repository root.
    pub root: PathBuf,
    /// Only report documents under these root-relative paths (empty: all).
    pub paths: Vec<String>,
    /// Scope globs replacing the defaults and the rulebook's.
    pub scope: Option<Vec<String>>,
    /// Folder names excluded in addition to the defaults and the rulebook's.
    pub exclude: Vec<String>,
    /// Counters the scan keeps up to date for a progress display (none: not counted).
    pub progress: Option<std::sync::Arc<progress::Counters>>,
    /// Read and write the scan cache under `.hygiene/cache/` ([`cache`]), which makes a
    /// repeated scan re-read only what changed and never changes a result.
    pub cache: bool,
}

fn under(filters: &[String], path: &str) -> bool {
    filters.is_empty()
        || filters.iter().any(|f| {
            path == f
                || path
                    .strip_prefix(f.as_str())
                    .is_some_and(|r| r.starts_with('/'))
        })
}

fn normalize_filters(paths: &[String]) -> crate::Result<Vec<String>> {
    let mut out = Vec::new();
    for p in paths {
        let t = p.trim_start_matches("./").trim_end_matches('/');
        if t.is_empty() || t == "." {
            return Ok(Vec::new());
        }
        crate::paths::check_relative(t)
            .map_err(|e| crate::Error::Usage(format!("scan path `{p}`: {e}")))?;
        out.push(t.to_string());
    }
    Ok(out)
}

/// What the scan keeps of a document besides its [`Doc`], for the cache.
struct Kept {
    /// The entry's facts besides the parse.
    meta: cache::Meta,
    /// Whether the entry differs from the one the cache holds (or it held none).
    dirty: bool,
    /// How the document was had: 0 parsed, 1 read and found unchanged, 2 not even read.
    how: u8,
}

enum Outcome {
    Doc(Box<Doc>, Box<Kept>),
    Skip(Skipped),
}

/// Whether a document of `role` may draw `kind` at all (loaded every session or not): the
/// detectors whose kind it never draws are not run for it (their findings would be dropped).
fn may_draw(role: crate::roles::Role, kind: &str) -> bool {
    crate::roles::allows(role, kind, true)
}

/// Whether a document of `role` takes part in duplicate groups: a versioned or translated copy
/// (history) repeats its page by design and is never the copy kept or removed.
fn draws_duplicates(role: crate::roles::Role) -> bool {
    role != crate::roles::Role::History
}

/// Makes history of every living document (role not stated) in a folder whose README's own
/// status says the folder is kept as a record ([`crate::roles::record_status`]: "Status:
/// transition evidence / beta history"): its plans and notes name files as they were. Done
/// after the per-document phase, from each README's parse, so a cached document follows its
/// README's current status; the role then governs what the document draws.
fn recorded_folders(docs: &mut [Doc], roles: &crate::roles::Roles) {
    let folders: Vec<String> = docs
        .iter()
        .filter(|d| {
            crate::roles::is_readme(&d.path) && crate::roles::record_status(&d.parsed.own_status)
        })
        .map(|d| {
            d.path
                .rsplit_once('/')
                .map_or("", |(dir, _)| dir)
                .to_string()
        })
        .collect();
    if folders.is_empty() {
        return;
    }
    for d in docs.iter_mut() {
        let inside = folders.iter().any(|f| {
            f.is_empty()
                || d.path
                    .strip_prefix(f.as_str())
                    .is_some_and(|r| r.starts_with('/'))
        });
        if inside
            && d.role == crate::roles::Role::Living
            && !roles.stated(
                &d.path,
                d.parsed
                    .frontmatter
                    .get(crate::roles::FRONTMATTER_KEY)
                    .map(|(v, _)| v),
            )
        {
            d.role = crate::roles::Role::History;
            // A record is never a copy to dedupe or keep.
            d.parsed.blocks = Vec::new();
        }
    }
}

/// A document of the per-document phase, parsed now or taken from its cache entry.
fn new_doc(
    rel: &str,
    parsed: markdown::Parsed,
    freq: InjectionFrequency,
    checked: bool,
    findings: Vec<Finding>,
    role: crate::roles::Role,
) -> Doc {
    Doc {
        path: rel.to_string(),
        targets: Vec::new(),
        parsed,
        freq,
        checked,
        raw_tokens: oversize_tokens(&findings),
        findings,
        role,
    }
}

/// The token count the `oversize` detector took, if it did.
fn oversize_tokens(findings: &[Finding]) -> Option<u64> {
    findings.iter().find_map(|f| match f.signal {
        Signal::Oversize { raw_tokens, .. } => Some(raw_tokens),
        _ => None,
    })
}

/// The outcome a cached entry yields (its per-document findings kept only when `checked`),
/// with the file's `stamp` now.
fn from_entry(
    rel: &str,
    checked: bool,
    e: cache::Entry,
    stamp: Option<cache::Stamp>,
    how: u8,
) -> Outcome {
    let dirty = e.meta.stamp != stamp;
    let cache::Entry {
        mut meta,
        freq,
        role,
        parsed,
    } = e;
    meta.stamp = stamp;
    let findings = if checked {
        meta.findings.clone()
    } else {
        Vec::new()
    };
    Outcome::Doc(
        Box::new(new_doc(rel, parsed, freq, checked, findings, role)),
        Box::new(Kept { meta, dirty, how }),
    )
}

/// Which files are documents: the scope globs (`scope` when given and not empty, else the
/// rulebook's, else [`DEFAULT_SCOPE`]) and the folder names never descended into
/// ([`DEFAULT_EXCLUDED`], then the rulebook's, then `exclude`, without duplicates). One
/// definition, so the scan and the hook see the same documents.
pub fn document_set(
    rulebook: &crate::lifecycle::Rulebook,
    scope: Option<&[String]>,
    exclude: &[String],
) -> (Vec<String>, Vec<String>) {
    let scope_globs: Vec<String> = scope
        .filter(|s| !s.is_empty())
        .map(<[String]>::to_vec)
        .or_else(|| rulebook.scope_globs.clone())
        .unwrap_or_else(|| DEFAULT_SCOPE.iter().map(|s| s.to_string()).collect());
    let mut excluded: Vec<String> = Vec::new();
    for e in DEFAULT_EXCLUDED
        .iter()
        .map(|s| s.to_string())
        .chain(rulebook.excluded_dirs.iter().cloned())
        .chain(exclude.iter().cloned())
    {
        let e = e.trim_matches('/').to_string();
        if !e.is_empty() && !excluded.contains(&e) {
            excluded.push(e);
        }
    }
    (scope_globs, excluded)
}

/// Reads a document for scanning, or says why it cannot be: a symbolic link, a file that is not
/// a regular file, over the size cap, binary or not UTF-8 is never read as a document.
pub fn read_doc(root: &Path, rel: &str) -> Result<String, SkipReason> {
    let (full, meta) = stat_doc(root, rel)?;
    doc_text(read_doc_bytes(&full, &meta)?)
}

fn io_reason(e: std::io::Error) -> SkipReason {
    match e.kind() {
        std::io::ErrorKind::NotFound => SkipReason::Vanished,
        _ => SkipReason::Unreadable,
    }
}

/// The first half of [`read_doc`]: the path and metadata of a document that may be read (a
/// regular file within the size cap).
fn stat_doc(root: &Path, rel: &str) -> Result<(PathBuf, std::fs::Metadata), SkipReason> {
    let full = root.join(rel);
    // The walk does not follow links, but a file can be swapped for one after it: refuse.
    let meta = std::fs::symlink_metadata(&full).map_err(io_reason)?;
    if meta.file_type().is_symlink() {
        return Err(SkipReason::Symlink);
    }
    // A FIFO, socket or device with a document's name: opening a FIFO blocks until a writer
    // comes, so it is never opened.
    if !meta.is_file() {
        return Err(SkipReason::Unreadable);
    }
    if meta.len() > THRESHOLDS.file_size_cap_bytes {
        return Err(SkipReason::TooLarge);
    }
    Ok((full, meta))
}

/// The second half of [`read_doc`]: the bytes, at most the size cap.
fn read_doc_bytes(full: &Path, meta: &std::fs::Metadata) -> Result<Vec<u8>, SkipReason> {
    use std::io::Read;
    let mut f = std::fs::File::open(full).map_err(io_reason)?;
    let mut bytes = Vec::with_capacity(meta.len() as usize + 1);
    // Read at most one byte past the cap, so a file that grew is still refused.
    (&mut f)
        .take(THRESHOLDS.file_size_cap_bytes + 1)
        .read_to_end(&mut bytes)
        .map_err(io_reason)?;
    if bytes.len() as u64 > THRESHOLDS.file_size_cap_bytes {
        return Err(SkipReason::TooLarge);
    }
    Ok(bytes)
}

/// The last part of [`read_doc`]: the bytes as text, when they are text.
fn doc_text(bytes: Vec<u8>) -> Result<String, SkipReason> {
    if bytes.contains(&0) {
        return Err(SkipReason::Binary);
    }
    String::from_utf8(bytes).map_err(|_| SkipReason::NotUtf8)
}

/// Test hook, debug builds only: deletes the root-relative file named by
/// `HYGIENE_TEST_VANISH_AFTER_WALK` between the walk and the reads, so `tests/bad_input.rs` can
/// make a file vanish mid-scan deterministically. Never leaves the root.
#[cfg(debug_assertions)]
fn vanish_after_walk(root: &Path) {
    if let Some(rel) = std::env::var("HYGIENE_TEST_VANISH_AFTER_WALK")
        .ok()
        .and_then(|r| crate::paths::resolve_inside(root, &r, true).ok())
    {
        let _ = std::fs::remove_file(rel);
    }
}

/// How many documents the tree-wide detectors take at a time (their resolved references are
/// held for one run only).
const TREE_RUN: usize = 2048;

/// The clock stamps are judged by: the real one. Debug builds only: `HYGIENE_TEST_STAMP_NOW`
/// (seconds) replaces it, so a test can have stamps trusted without waiting.
fn stamp_clock() -> i64 {
    #[cfg(debug_assertions)]
    if let Some(t) = std::env::var("HYGIENE_TEST_STAMP_NOW")
        .ok()
        .and_then(|v| v.trim().parse().ok())
    {
        return t;
    }
    crate::time::now_secs()
}

/// Hands the heap's free pages back to the system (glibc: every thread's arena). The documents'
/// phase parses on every core, and each worker thread allocates from its own arena: what the
/// parse freed there stays resident, and the tree-wide phase, on other threads, cannot reuse
/// it, so the peak counted it twice.
fn return_free_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim only releases free memory of the allocator's own arenas; it takes no
    // pointer and is safe to call from any thread at any time.
    unsafe {
        libc::malloc_trim(0);
    }
}

/// Token count of a root-relative file, `None` when it is not readable text.
fn count_file(root: &Path, rel: &str) -> Option<u64> {
    read_doc(root, rel)
        .ok()
        .map(|t| crate::tokens::count(markdown::strip_bom(&t)))
}

/// The documents whose proposed drift has evidence ([`detectors::drift::gone`]): a name the
/// document's code uses, or a line it quotes, that its described files held at the document's
/// last commit and no longer hold. A drift read from the same document, commit and described
/// files before is answered by `known` ([`cache::evidence`]); for the others, one
/// `git cat-file --batch` for every old file, and the current files and the documents are read
/// as documents are ([`read_doc`]: within the size cap, never through a link).
fn confirmed_drifts(
    root: &Path,
    repo: Option<&crate::git::Repo>,
    docs: &[(&str, [u8; 32])],
    checks: &[(usize, detectors::drift::ContentCheck)],
    mut known: Option<&mut cache::evidence::Evidence>,
    now_secs: i64,
) -> (HashMap<usize, cache::evidence::Lost>, usize) {
    let mut out = HashMap::new();
    let Some(repo) = repo.filter(|_| !checks.is_empty()) else {
        return (out, 0);
    };
    // Stamps are taken before anything is read: a file that changes after its stamp was taken
    // has another stamp next time, so a record never vouches for bytes it was not read from.
    let stamps: Vec<Vec<Option<cache::Stamp>>> = if known.is_some() {
        checks
            .iter()
            .map(|(_, c)| {
                c.files
                    .iter()
                    // The file `read_doc` reads (a link is refused there, and its own stamp here).
                    .map(|f| {
                        std::fs::symlink_metadata(root.join(f))
                            .ok()
                            .and_then(|m| cache::stamp(&m, now_secs))
                    })
                    .collect()
            })
            .collect()
    } else {
        vec![Vec::new(); checks.len()]
    };
    let inputs = |k: usize| {
        let (i, c) = &checks[k];
        cache::evidence::Inputs {
            doc: docs[*i].0,
            digest: docs[*i].1,
            since: &c.since,
            files: &c.files,
            stamps: &stamps[k],
        }
    };
    let mut unknown: Vec<usize> = Vec::new();
    for (k, (i, _)) in checks.iter().enumerate() {
        match known.as_deref().and_then(|e| e.get(&inputs(k))) {
            Some(lost) if !lost.is_empty() => {
                out.insert(*i, lost.clone());
            }
            Some(_) => {}
            None => unknown.push(k),
        }
    }
    let answered = checks.len() - unknown.len();
    if unknown.is_empty() {
        return (out, answered);
    }
    let wanted: Vec<(String, String)> = unknown
        .iter()
        .flat_map(|&k| {
            let c = &checks[k].1;
            c.files.iter().map(|f| (c.since.clone(), f.clone()))
        })
        .collect();
    let mut old = repo.blobs_at(&wanted).into_iter();
    for k in unknown {
        let (i, c) = &checks[k];
        // Every old file is taken from the batch, in order, whatever this document finds.
        let befores: Vec<Option<Vec<u8>>> = c.files.iter().map(|_| old.next().flatten()).collect();
        let Ok(text) = read_doc(root, docs[*i].0) else {
            continue;
        };
        let code = detectors::drift::DocCode::of(&text);
        // A described file that cannot be read now (a link, too large, binary) is no evidence:
        // read as empty, everything it held would look gone.
        // Every described file is read (the first that lost something settles the drift, but
        // the model is handed what each lost), up to the evidence's cap.
        let mut lost: cache::evidence::Lost = Vec::new();
        for (f, before) in c.files.iter().zip(befores) {
            if lost.len() >= detectors::drift::EVIDENCE_FILES {
                break;
            }
            let (Some(before), Ok(now)) = (before, read_doc(root, f)) else {
                continue;
            };
            let mut gone = code.gone(&text, &String::from_utf8_lossy(&before), &now);
            gone.truncate(detectors::drift::EVIDENCE_ITEMS);
            if !gone.is_empty() {
                lost.push((f.clone(), gone));
            }
        }
        // The text read must be the one the digest names, or the record would vouch for other
        // bytes.
        if let Some(e) = known.as_deref_mut() {
            if cache::digest(text.as_bytes()) == docs[*i].1 {
                e.add(&inputs(k), &lost);
            }
        }
        if !lost.is_empty() {
            out.insert(*i, lost);
        }
    }
    (out, answered)
}

/// Scans `opts.root`. Never fails on document content or git history: those become skipped
/// files and warnings. Fails (usage/I/O) only when the root or the options are unusable.
pub fn scan(opts: &ScanOptions) -> crate::Result<ScanResult> {
    let mut timer = timings::Timer::new();
    let root = opts
        .root
        .canonicalize()
        .map_err(|e| crate::Error::io(&opts.root, e))?;
    let rulebook = crate::lifecycle::Rulebook::load(&root)?;
    let (scope_globs, excluded) = document_set(&rulebook, opts.scope.as_deref(), &opts.exclude);
    let filters = normalize_filters(&opts.paths)?;
    let globs = walk::globset(&scope_globs)?;
    let counters = opts.progress.as_deref();
    // git lists the tracked files while the walk runs.
    let tracked_job = {
        let root = root.clone();
        std::thread::spawn(move || {
            let repo = Repo::discover(&root);
            let tracked = repo.as_ref().map(Repo::tracked).unwrap_or_default();
            (repo, tracked)
        })
    };
    let mut walked = walk::walk(&root, &globs, &excluded);
    if let Some(c) = counters {
        c.walked(walked.tree.files.len() as u64);
        c.docs_total(walked.docs.len() as u64);
        c.phase(progress::Phase::Documents);
    }
    timer.mark("walk", || {
        format!(
            "({} files, {} documents)",
            walked.tree.files.len(),
            walked.docs.len()
        )
    });
    #[cfg(debug_assertions)]
    vanish_after_walk(&root);
    let mut warnings = walked.warnings.clone();
    if root.parent().is_none() {
        warnings.push(
            "the root is the file system root, not a repository: everything below it was scanned (pass --root DIR); apply refuses to write here".into(),
        );
    }
    let (repo, tracked) = tracked_job.join().unwrap_or_default();
    // A tracked document an ignore pattern matches (force-added) is in the repository and read
    // by agents like any other: scan it.
    walked.add_tracked(&root, &tracked, &globs, &excluded);
    timer.mark("git ls-files", || format!("({} tracked)", tracked.len()));
    let locks = walked
        .tree
        .files
        .iter()
        .filter(|f| f.rsplit('/').next() == Some(crate::roles::SKILLS_LOCK));
    let roles = crate::roles::Roles::new(&root, rulebook.roles.clone())
        .with_skill_locks(&walked.tree, locks.map(String::as_str));
    // Never at the file system root, where nothing is written.
    let use_cache = opts.cache && root.parent().is_some();
    let context = cache::Context::new(&format!("{roles:?}"));
    // The history walk (one `git log`, or the cache) runs beside the documents' phase: git
    // takes one core while the documents take the others.
    let history_job = repo.clone().map(|r| {
        let (root, context) = (root.clone(), context.clone());
        std::thread::spawn(move || {
            let t = std::time::Instant::now();
            let h = cache::history(&r, &root, &context, use_cache);
            (h, t.elapsed())
        })
    });
    // A document's findings read site routes too: its entries hold while the sites do.
    let docs_context = cache::docs_context(&roles, walked.tree.sites());
    let prior = if use_cache {
        cache::Docs::load(&root, &docs_context)
    } else {
        cache::Docs::default()
    };
    timer.mark("cache load", || format!("({} entries)", prior.len()));
    let tree = &walked.tree;
    let per_session = loadclass::per_session(tree, &walked.docs);
    // Loaded every session or request by some client: the load class (a Cursor rule that
    // always applies costs every Cursor request), while the readers stay Claude's set.
    let mut every_request = per_session.clone();
    every_request.extend(loadclass::other_clients_every_request(&root, &walked.docs));
    let readers = crate::readers::ReaderMap::new(per_session.clone(), roles.clone());
    // Stamps vouch only for files older than a few seconds by the real clock (file times are
    // real, whatever time a test pretends it is).
    let now_real = stamp_clock();

    // Phase 1: read, parse and run the per-document detectors, on all cores; a document whose
    // cache entry still holds is neither parsed nor, when its stamp vouches for it, read.
    let outcomes = walk::par_map(&walked.docs, |rel| {
        if let Some(c) = counters {
            c.doc_done();
        }
        let skip = |reason| {
            Outcome::Skip(Skipped {
                path: rel.clone(),
                reason,
            })
        };
        let (full, meta) = match stat_doc(&root, rel) {
            Ok(m) => m,
            Err(reason) => return skip(reason),
        };
        let freq = loadclass::class(&every_request, rel);
        let checked = under(&filters, rel);
        let stamp = if use_cache {
            cache::stamp(&meta, now_real)
        } else {
            None
        };
        let entry = match prior.get(rel).filter(|e| e.holds(freq, tree)) {
            Some(e) if stamp.is_some() && e.meta.stamp == stamp => {
                return from_entry(rel, checked, e, stamp, 2);
            }
            other => other,
        };
        let bytes = match read_doc_bytes(&full, &meta) {
            Ok(b) => b,
            Err(reason) => return skip(reason),
        };
        let digest = if use_cache {
            cache::digest(&bytes)
        } else {
            [0; 32]
        };
        if let Some(e) = entry {
            if e.meta.digest == digest {
                return from_entry(rel, checked, e, stamp, 1);
            }
        }
        let text = match doc_text(bytes) {
            Ok(t) => t,
            Err(reason) => return skip(reason),
        };
        let text = markdown::strip_bom(&text);
        let role = roles.of_doc(
            rel,
            text,
            markdown::frontmatter(text)
                .get(crate::roles::FRONTMATTER_KEY)
                .map(|(v, _)| v),
        );
        let mut parsed = markdown::parse_with(text, draws_duplicates(role));
        // With the cache on, the per-document detectors run for every document (their
        // findings are kept, and shown only for checked ones), so a later scan of other PATHs
        // can reuse them.
        let (text_findings, asked) = if checked || use_cache {
            let lower = parsed.prose.to_ascii_lowercase();
            let dt = DocText {
                path: rel,
                text,
                parsed: &parsed,
                freq,
                tree,
                lower_prose: &lower,
                role,
            };
            refs::recording(|| {
                let mut findings = Vec::new();
                for d in detectors::ALL.iter().filter(|d| may_draw(role, d.kind())) {
                    findings.extend(d.on_text(&dt));
                }
                findings
            })
        } else {
            (Vec::new(), Vec::new())
        };
        let findings = if checked {
            text_findings.clone()
        } else {
            Vec::new()
        };
        // What the tree-wide phase does not need is dropped now, to keep the peak low.
        parsed.prose = String::new();
        parsed.lines = markdown::LineIndex::default();
        parsed.refs.shrink_to_fit();
        parsed.idents.shrink_to_fit();
        parsed.anchors.shrink_to_fit();
        parsed.blocks.shrink_to_fit();
        parsed.headings.shrink_to_fit();
        Outcome::Doc(
            Box::new(new_doc(rel, parsed, freq, checked, findings, role)),
            Box::new(Kept {
                meta: cache::Meta {
                    stamp,
                    digest,
                    findings: text_findings,
                    asked,
                    facts: None,
                },
                dirty: true,
                how: 0,
            }),
        )
    });
    let mut docs: Vec<Doc> = Vec::with_capacity(outcomes.len());
    let mut kept: Vec<Kept> = Vec::with_capacity(outcomes.len());
    let mut skipped: Vec<Skipped> = walked
        .skipped
        .iter()
        .filter(|s| under(&filters, &s.path))
        .cloned()
        .collect();
    for o in outcomes {
        match o {
            Outcome::Doc(d, k) => {
                docs.push(*d);
                kept.push(*k);
            }
            Outcome::Skip(s) if under(&filters, &s.path) => skipped.push(s),
            Outcome::Skip(_) => {}
        }
    }
    // The cache's bytes are not needed any more (what changed is written from the documents).
    let prior_len = prior.len();
    drop(prior);
    let _ = std::mem::take(&mut walked.docs);
    timer.mark("documents", || {
        let n = |how| kept.iter().filter(|k| k.how == how).count();
        format!(
            "({} documents: {} parsed, {} read and unchanged, {} unchanged by stamp)",
            docs.len(),
            n(0),
            n(1),
            n(2)
        )
    });

    return_free_memory();
    // A folder kept as a record (its README's own status says so) holds history.
    recorded_folders(&mut docs, &roles);

    // The history, when the walk is done.
    if let Some(c) = counters {
        c.phase(progress::Phase::History);
    }
    let history = history_job.map(|j| {
        j.join()
            .unwrap_or_else(|_| (crate::git::History::default(), Default::default()))
    });
    let history = history.map(|(h, took)| {
        timer.span("history (beside the documents)", took, || {
            format!("({} commits)", h.commits.len())
        });
        h
    });
    timer.mark("history wait", String::new);
    if let Some(c) = counters {
        c.commits(history.as_ref().map_or(0, |h| h.commits.len() as u64));
    }
    match &history {
        Some(h) => warnings.extend(h.warnings.iter().cloned()),
        None => warnings
            .push("not a git repository: renames, deletions and drift are unknown".to_string()),
    }

    // Code facts: read the tracked source once, only for identifiers some document names.
    let mut wanted: HashSet<String> = HashSet::new();
    let per_doc = walk::par_map(&docs, |d: &Doc| -> Vec<String> {
        let mut names: Vec<String> = Vec::new();
        if d.checked {
            for (_, text) in detectors::missing_symbol::checked(&d.parsed) {
                names.extend(detectors::missing_symbol::wanted(text));
            }
        }
        names
    });
    for names in per_doc {
        wanted.extend(names);
    }
    let symbols = if wanted.is_empty() {
        None
    } else {
        let listed = |keep: fn(&str) -> bool| -> Vec<String> {
            let mut v: Vec<String> = match &repo {
                Some(_) => tracked.iter().filter(|p| keep(p)).cloned().collect(),
                None => tree.files.iter().filter(|p| keep(p)).cloned().collect(),
            };
            v.sort();
            v
        };
        let sources = listed(detectors::missing_symbol::maybe_source);
        (!sources.is_empty()).then(|| {
            use detectors::missing_symbol::Search;
            let search = |file, files: &[String], names: &HashSet<String>, how| {
                cache::occurrences(tree, &context, file, files, names, how, use_cache, now_real)
            };
            let found: HashSet<String> =
                search(cache::SOURCE_FILE, &sources, &wanted, Search::Source)
                    .into_keys()
                    .collect();
            // Names the source does not hold: does any other tracked file use them?
            let unfound: HashSet<String> = wanted
                .iter()
                .filter(|n| !found.contains(*n) && !n.contains(' '))
                .cloned()
                .collect();
            let mut used_in = HashMap::new();
            if !unfound.is_empty() {
                let texts = listed(detectors::missing_symbol::text_not_source);
                for (name, at) in search(cache::TEXT_FILE, &texts, &unfound, Search::Text) {
                    used_in.insert(name, at.iter().take(2).map(|&i| texts[i].clone()).collect());
                }
            }
            let colon_paths = sources
                .iter()
                .any(|p| detectors::missing_symbol::writes_colon_paths(p));
            detectors::missing_symbol::Symbols {
                found,
                used_in,
                colon_paths,
            }
        })
    };
    drop(tracked);

    // Phase 2: the tree-wide detectors.
    if let Some(c) = counters {
        c.phase(progress::Phase::TreeWide);
    }
    timer.mark("source symbols", || format!("({} wanted)", wanted.len()));
    let had: Vec<bool> = kept.iter().map(|k| k.meta.facts.is_some()).collect();
    let mut facts: Vec<Option<Vec<detectors::duplicate::BlockFact>>> =
        kept.iter_mut().map(|k| k.meta.facts.take()).collect();
    let dups = detectors::duplicate::index(
        tree,
        &docs,
        &readers,
        &rulebook,
        history.as_ref(),
        &mut facts,
    );
    for ((k, f), had) in kept.iter_mut().zip(facts).zip(had) {
        k.dirty |= f.is_some() && !had;
        k.meta.facts = f;
    }
    timer.mark("duplicates", String::new);
    // The tree-wide detectors, a run of documents at a time: where each reference points is
    // worked out against the tree as it is now (never cached) for the run, and dropped after
    // it, so those paths are never held for the whole tree at once.
    let checked: Vec<usize> = (0..docs.len()).filter(|&i| docs[i].checked).collect();
    // The documents are in path order, the order of the report.
    debug_assert!(docs.windows(2).all(|w| w[0].path < w[1].path));
    let mut anchor_cache = Default::default();
    let doc_keys = detectors::DocIndex::new(&docs);
    let git_answers = if use_cache {
        cache::git::GitAnswers::load(&root, &context)
    } else {
        cache::git::GitAnswers::default()
    };
    #[allow(clippy::type_complexity)]
    let mut tree_findings: Vec<(usize, Vec<Finding>, Option<detectors::drift::ContentCheck>)> =
        Vec::with_capacity(checked.len());
    // A document whose role draws none of the tree-wide kinds (a versioned copy) needs neither
    // its references resolved nor the detectors run.
    let tree_wide = |i: &usize| {
        detectors::ALL
            .iter()
            .any(|d| d.reads_tree() && may_draw(docs[*i].role, d.kind()))
    };
    let tree_docs: Vec<usize> = checked.iter().copied().filter(tree_wide).collect();
    let _ = tree.embedded_in.set(refs::embedding_folders(
        tree,
        docs.iter()
            .filter(|d| !d.parsed.embeds.is_empty())
            .map(|d| (d.path.as_str(), d.parsed.embeds.as_slice())),
    ));
    let labels: HashSet<String> = docs
        .iter()
        .flat_map(|d| d.parsed.anchors.iter())
        .filter_map(|a| markdown::myst_label(a).map(str::to_lowercase))
        .collect();
    let titled = detectors::titled_on_sites(tree, &docs);
    let rooted_folders = detectors::rooted_at_folder(tree, &docs);
    let routed_folders = detectors::routed_folders(tree, &docs);
    // The detectors' parts, then resolving the references.
    let per_detector = timings::PerPart::new(
        &timer,
        detectors::ALL
            .iter()
            .map(|d| d.kind())
            .chain(["resolving references"])
            .collect(),
    );
    for run in tree_docs.chunks(TREE_RUN) {
        let targets = walk::par_map(run, |&i| {
            let d = &docs[i];
            per_detector.time(detectors::ALL.len(), || {
                d.parsed
                    .refs
                    .iter()
                    .map(|r| refs::resolve(tree, &d.path, r))
                    .collect::<Vec<_>>()
            })
        });
        for (&i, t) in run.iter().zip(targets) {
            docs[i].targets = t;
        }
        let ctx = TreeCtx {
            labels: &labels,
            titled: &titled,
            rooted_folders: &rooted_folders,
            routed_folders: &routed_folders,
            tree,
            docs: &docs,
            doc_keys: &doc_keys,
            git: &git_answers,
            history: history.as_ref(),
            dups: &dups,
            symbols: symbols.as_ref(),
            anchor_cache,
        };
        tree_findings.extend(walk::par_map(run, |&i| {
            let mut f = Vec::new();
            for (k, d) in detectors::ALL
                .iter()
                .enumerate()
                .filter(|(_, d)| may_draw(docs[i].role, d.kind()))
            {
                f.extend(per_detector.time(k, || d.on_tree(&docs[i], &ctx)));
            }
            // A proposed drift waits for its evidence, read below from the files' history.
            let check = f
                .iter()
                .any(|x| matches!(x.signal, Signal::Drift { .. }))
                .then(|| detectors::drift::content_check(&docs[i], &ctx))
                .flatten();
            (i, f, check)
        }));
        anchor_cache = ctx.anchor_cache;
        for &i in run {
            docs[i].targets = Vec::new();
        }
    }
    let checks: Vec<(usize, detectors::drift::ContentCheck)> = tree_findings
        .iter_mut()
        .filter_map(|(i, _, c)| c.take().map(|c| (*i, c)))
        .collect();
    let git_note = git_answers.note();
    if use_cache {
        git_answers.save(&root, &context);
    }
    timer.mark("tree-wide detectors", || {
        format!("{} {git_note}", per_detector.note())
    });
    // Written only when records were added or dropped (an absent file loads as empty).
    let mut evidence = use_cache.then(|| cache::evidence::Evidence::load(&root, &context));
    let doc_ids: Vec<(&str, [u8; 32])> = docs
        .iter()
        .zip(&kept)
        .map(|(d, k)| (d.path.as_str(), k.meta.digest))
        .collect();
    let (confirmed, answered) = confirmed_drifts(
        &root,
        repo.as_ref(),
        &doc_ids,
        &checks,
        evidence.as_mut(),
        now_real,
    );
    if let Some(e) = evidence {
        let keep: HashSet<&str> = checks.iter().map(|(i, _)| docs[*i].path.as_str()).collect();
        e.save(&root, &context, &keep);
    }
    drop(doc_ids);
    for (i, mut f, _) in tree_findings {
        // A drift stands only on its evidence.
        f.retain(|x| match &x.signal {
            Signal::Drift { .. } => confirmed.contains_key(&i),
            _ => true,
        });
        docs[i].findings.extend(f);
    }
    let mut drift_evidence: BTreeMap<String, Vec<crate::report::DriftLoss>> = confirmed
        .into_iter()
        .map(|(i, lost)| {
            let lost = lost
                .into_iter()
                .map(|(file, gone)| crate::report::DriftLoss { file, gone })
                .collect();
            (docs[i].path.clone(), lost)
        })
        .collect();
    let files_scanned = checked.len() as u64;
    timer.mark("drift evidence", || {
        format!("({} documents, {answered} from the cache)", checks.len())
    });

    // What the root's entry documents link to (they present it as current).
    // (Resolved here: the tree phase dropped its targets, and skips documents outside PATHs.)
    let entry_named: HashSet<String> = docs
        .iter()
        .filter(|d| entry_document(&d.path))
        .flat_map(|d| {
            d.parsed
                .refs
                .iter()
                .map(|r| refs::resolve(tree, &d.path, r))
        })
        .filter_map(|t| match t {
            refs::Target::Found { path: Some(p), .. } => Some(p),
            _ => None,
        })
        .collect();

    // Items: a file is shortlisted iff it has at least one signal that does not ride along.
    let mut items: Vec<ShortlistItem> = Vec::new();
    let mut tokens: Vec<Option<u64>> = Vec::new();
    for d in docs.iter_mut().filter(|d| !d.findings.is_empty()) {
        let findings = std::mem::take(&mut d.findings);
        let order = |s: &Signal| {
            let kind = signal_kind(s);
            detectors::ALL
                .iter()
                .position(|det| det.kind() == kind)
                .unwrap_or(usize::MAX)
        };
        let mut findings = findings;
        findings.sort_by_key(|f| order(&f.signal));
        // "Status: resolved" atop a long write-up is one fact: the resolved narrative (the
        // model distils it); the same line as a plain status-done would say it twice.
        let narrative: Vec<u32> = findings
            .iter()
            .filter_map(|f| match &f.signal {
                Signal::ResolvedNarrative { line, .. } => Some(*line),
                _ => None,
            })
            .collect();
        findings.retain(
            |f| !matches!(&f.signal, Signal::StatusDone { line, .. } if narrative.contains(line)),
        );
        // What the document is decides what it may draw, and whether anything may edit it
        // without a prompt (a changelog keeps its old paths; a template names another
        // repository's).
        let per = every_request.contains(&d.path);
        findings.retain(|f| crate::roles::allows(d.role, signal_kind(&f.signal), per));
        // A document a lifecycle rule will delete (a plan, a handoff) names paths as
        // intentions ("Create: `src/x.rs`") or as the record of a session: whether it has
        // served is its question, not whether each name still resolves.
        if rulebook.governs(&d.path).is_some() {
            findings.retain(|f| !GOVERNED_QUIET.contains(&signal_kind(&f.signal)));
        } else if rulebook.kept(&d.path) {
            findings.retain(|f| !KEPT_QUIET.contains(&signal_kind(&f.signal)));
        }
        for (place, quiet) in QUIET_BY_PLACE {
            if place(&d.path) {
                findings.retain(|f| !quiet.contains(&signal_kind(&f.signal)));
            }
        }
        if entry_named.contains(&d.path) {
            findings.retain(|f| !ENTRY_NAMED_QUIET.contains(&signal_kind(&f.signal)));
        }
        if site_page_presents(&d.path) && tree.sites().of(&d.path).is_some() {
            findings.retain(|f| !SITE_PAGE_QUIET.contains(&signal_kind(&f.signal)));
        }
        if findings.iter().all(|f| rides_along(f, &d.path, d.freq)) {
            continue;
        }
        let editable = crate::roles::auto_edits(d.role);
        // A block a tool manages between marker comments (`<!-- OMC:START -->`) is the tool's:
        // its next run rewrites it, and in the tool's own repository it is what the tool
        // installs. No edit inside one is proposed; the signal still reaches the model.
        let managed = |s: &Suggestion| match &s.exact_edit.anchor {
            Some(crate::report::Anchor::Lines(r)) => {
                markdown::managed_at(&d.parsed.managed, r.start_line, r.end_line).is_some()
            }
            _ => false,
        };
        let suggestions: Vec<Suggestion> = findings
            .iter()
            .filter(|_| editable)
            .filter_map(|f| f.suggestion.clone())
            .filter(|s| !managed(s))
            .collect();
        let signals: Vec<Signal> = findings.into_iter().map(|f| f.signal).collect();
        tokens.push(d.raw_tokens);
        items.push(ShortlistItem {
            path: d.path.clone(),
            signals,
            suggestions,
            lifecycle: None,
            raw_tokens: 0,
            injection_frequency: d.freq,
        });
    }

    // Lifecycle: the rulebook's verdicts.
    if let Some(c) = counters {
        c.phase(progress::Phase::Finishing);
    }
    let mut all_files: Vec<String> = tree.files.iter().cloned().collect();
    all_files.sort();
    let now = crate::time::now_override().unwrap_or_else(crate::time::now_secs);
    let governed = crate::lifecycle::evaluate(
        &root,
        &rulebook,
        &all_files,
        repo.as_ref(),
        history.as_ref(),
        now,
    );
    let code_cited = if repo.is_some() {
        code_cited_plans(&root, &governed, &entry_named, &filters)
    } else {
        HashSet::new()
    };
    timer.mark("lifecycle", String::new);
    if use_cache {
        let changed = kept.iter().any(|k| k.dirty) || prior_len != docs.len();
        if changed {
            cache::save_docs(
                &root,
                &docs_context,
                docs.iter().zip(&kept).map(|(d, k)| {
                    (
                        d.path.as_str(),
                        cache::Source {
                            meta: &k.meta,
                            freq: d.freq,
                            role: d.role,
                            parsed: &d.parsed,
                        },
                    )
                }),
            );
        }
        timer.mark("cache save", || {
            if changed {
                String::new()
            } else {
                "(nothing changed)".into()
            }
        });
    }

    // Tokens: only for what is reported, on all cores; a document's count from the cache when
    // an earlier scan took it for the same content.
    // Only for what may be counted: the shortlist's files and the governed files and folders.
    let digests: HashMap<String, [u8; 32]> = if use_cache {
        let listed: HashSet<&str> = items.iter().map(|it| it.path.as_str()).collect();
        let governs = |p: &str| {
            governed.iter().any(|g| {
                let at = g.path.trim_end_matches('/');
                p == at || (g.is_dir && p.strip_prefix(at).is_some_and(|r| r.starts_with('/')))
            })
        };
        docs.iter()
            .zip(&kept)
            .filter(|(d, _)| listed.contains(d.path.as_str()) || governs(&d.path))
            .map(|(d, k)| (d.path.clone(), k.meta.digest))
            .collect()
    } else {
        HashMap::new()
    };
    let known = if use_cache {
        cache::Tokens::load(&root, &context)
    } else {
        cache::Tokens::default()
    };
    // The tree's structures are many small allocations. Counting loads the tokenizer's tables:
    // when it will, they are freed first, so that the tables reuse their memory instead of
    // adding to it; else they are freed on another thread, and the report does not wait for it
    // (a process that exits first frees them all at once).
    let heavy = (docs, kept, history, walked, dups, readers);
    let will_count = items
        .iter()
        .zip(&tokens)
        .any(|(it, t)| t.is_none() && digests.get(&it.path).and_then(|d| known.get(d)).is_none());
    if will_count {
        // Two cores free it: the documents on one, the rest (tree, history, cache facts) on
        // the other; each took about half of the sequential drop on a 40k-document tree.
        let (docs, rest) = (heavy.0, (heavy.1, heavy.2, heavy.3, heavy.4, heavy.5));
        std::thread::scope(|s| {
            s.spawn(move || drop(docs));
            drop(rest);
        });
        return_free_memory();
    } else {
        std::thread::spawn(move || drop(heavy));
    }
    timer.mark("freeing the tree", String::new);
    let counted_now: std::sync::Mutex<Vec<([u8; 32], u64)>> = Default::default();
    let count = |f: &str| -> u64 {
        let digest = digests.get(f);
        if let Some(n) = digest.and_then(|d| known.get(d)) {
            return n;
        }
        let n = count_file(&root, f);
        if let (Some(d), Some(n)) = (digest, n) {
            if let Ok(mut c) = counted_now.lock() {
                c.push((*d, n));
            }
        }
        n.unwrap_or(0)
    };
    attach_lifecycle(
        &mut items,
        &mut tokens,
        governed,
        &LifecycleTree {
            filters: &filters,
            all_files: &all_files,
            per_session: &every_request,
            entry_named: &entry_named,
            code_cited: &code_cited,
        },
        &count,
    );
    let counted = walk::par_map(&(0..items.len()).collect::<Vec<_>>(), |&i| {
        tokens[i].unwrap_or_else(|| count(&items[i].path))
    });
    for (item, n) in items.iter_mut().zip(counted) {
        item.raw_tokens = n;
    }
    timer.mark("tokens", String::new);
    if use_cache {
        let mut known = known;
        for (d, n) in counted_now.into_inner().unwrap_or_default() {
            known.add(d, n);
        }
        let keep: HashSet<[u8; 32]> = digests.into_values().collect();
        known.save(&root, &context, &keep);
    }
    timer.total();
    items.sort_by(|a, b| {
        let ps = |i: &ShortlistItem| i.injection_frequency != InjectionFrequency::PerSession;
        (ps(a), std::cmp::Reverse(a.raw_tokens), &a.path).cmp(&(
            ps(b),
            std::cmp::Reverse(b.raw_tokens),
            &b.path,
        ))
    });
    skipped.sort_by(|a, b| a.path.cmp(&b.path));
    // Evidence only for the drifts reported.
    let drifting: HashSet<&str> = items
        .iter()
        .filter(|i| i.signals.iter().any(|s| matches!(s, Signal::Drift { .. })))
        .map(|i| i.path.as_str())
        .collect();
    drift_evidence.retain(|p, _| drifting.contains(p.as_str()));
    Ok(ScanResult {
        schema_version: crate::report::SCHEMA_VERSION,
        tool_version: crate::TOOL_VERSION.to_string(),
        generated_at: crate::time::now_utc(),
        scan: ScanMeta {
            project_root: root.to_string_lossy().into_owned(),
            scope_globs,
            excluded_dirs: excluded,
            files_scanned,
            skipped,
            warnings,
        },
        shortlist: items,
        drift_evidence,
    })
}

/// The governed plans a program of the tree cites by path (`// see plans/04-installer.md for
/// the design`): the code's design record, kept as a plan an entry document names is
/// ([`attach_lifecycle`]). Asked of git ([`crate::git::occurring_in`], one process) only for
/// the plans a model would be asked about (a rule neither proved nor refuted served), within
/// the scan's PATHs and not already named by an entry document.
fn code_cited_plans(
    root: &Path,
    governed: &[crate::lifecycle::Governed],
    entry_named: &HashSet<String>,
    filters: &[String],
) -> HashSet<String> {
    let asked: Vec<String> = governed
        .iter()
        .filter(|g| g.served.is_none() && !g.is_dir && under(filters, &g.path))
        .map(|g| g.path.clone())
        .filter(|p| !entry_named.contains(p))
        .collect();
    if asked.is_empty() {
        return HashSet::new();
    }
    crate::git::occurring_in(root, &asked, detectors::missing_path::READER_EXTENSIONS)
}

/// Attaches the rulebook's verdicts to the shortlist: a served document (`served == Some(true)`)
/// gets its `lifecycle`, a `lifecycle` signal and the rule's ready edit as a suggestion; one a
/// model must judge (`None`) gets the object, the signal and the edit to copy if the model's
/// answer is yes; a kept one (`Some(false)`) nothing. A directory aggregate is one item whose `path` is the directory and whose
/// `raw_tokens` is the sum over its files (`count` counts one root-relative file). `tokens` runs
/// parallel to `items` (a known count, or `None` to count the item's file later).
pub fn attach_lifecycle(
    items: &mut Vec<ShortlistItem>,
    tokens: &mut Vec<Option<u64>>,
    governed: Vec<crate::lifecycle::Governed>,
    tree: &LifecycleTree<'_>,
    count: &(dyn Fn(&str) -> u64 + Sync),
) {
    let LifecycleTree {
        filters,
        all_files,
        per_session,
        entry_named,
        code_cited,
    } = *tree;
    let mut index: HashMap<String, usize> = items
        .iter()
        .enumerate()
        .map(|(i, it)| (it.path.clone(), i))
        .collect();
    for g in governed {
        // A plan an entry document names (an `AGENTS.md` that says to read it) is presented as
        // current: unless its rule proves it served, it is kept, as a plan whose text says so.
        // So is one the code cites as its design ("see `plans/04-installer.md`"): deleting it
        // would leave the code pointing at nothing (judged on public repositories, 10 such
        // plans false of 14).
        let bare = g.path.trim_end_matches('/');
        let named =
            g.served != Some(true) && (entry_named.contains(bare) || code_cited.contains(bare));
        if g.served == Some(false) || named || !under(filters, bare) {
            // A plan kept as a record is no finished plan to ask about either.
            if g.facts.kept_record || named {
                if let Some(&i) = index.get(g.path.as_str()) {
                    items[i]
                        .signals
                        .retain(|s| !LIFECYCLE_ASKS.contains(&signal_kind(s)));
                }
            }
            continue;
        }
        let path = bare.to_string();
        let i = match index.get(&path) {
            Some(&i) => i,
            None => {
                let (raw, freq) = if g.is_dir {
                    let prefix = format!("{path}/");
                    let files: Vec<&String> = all_files
                        .iter()
                        .filter(|f| f.starts_with(&prefix))
                        .collect();
                    let sum: u64 = walk::par_map(&files, |f| count(f)).into_iter().sum();
                    let freq = if files.iter().any(|f| per_session.contains(*f)) {
                        InjectionFrequency::PerSession
                    } else {
                        InjectionFrequency::OnDemand
                    };
                    (Some(sum), freq)
                } else {
                    (None, loadclass::class(per_session, &path))
                };
                index.insert(path.clone(), items.len());
                tokens.push(raw);
                items.push(ShortlistItem {
                    path: path.clone(),
                    signals: Vec::new(),
                    suggestions: Vec::new(),
                    lifecycle: None,
                    raw_tokens: 0,
                    injection_frequency: freq,
                });
                items.len() - 1
            }
        };
        let item = &mut items[i];
        // A finished status or a ticked list asks the question the lifecycle signal asks (has
        // it served?): on the document it governs, that question is asked once.
        item.signals
            .retain(|s| !LIFECYCLE_ASKS.contains(&signal_kind(s)));
        item.signals.push(Signal::Lifecycle {});
        // A served document's ready edit; for one a model must judge, the edit to copy if the
        // answer is yes (one decision, not an edit to compose).
        if let Some(proposal) = g.proposal() {
            item.suggestions.push(proposal);
        }
        item.lifecycle = Some(g.lifecycle);
    }
    // A kept record that drew only those signals is no longer on the shortlist.
    let keep: Vec<bool> = items.iter().map(|it| !it.signals.is_empty()).collect();
    let mut at = keep.iter();
    items.retain(|_| *at.next().unwrap_or(&true));
    let mut at = keep.iter();
    tokens.retain(|_| *at.next().unwrap_or(&true));
}

/// What [`attach_lifecycle`] reads of the tree: the scan's path filters, every file, the
/// files loaded every session, and what an entry document names.
#[derive(Clone, Copy)]
pub struct LifecycleTree<'a> {
    /// The scan's path filters (empty: all).
    pub filters: &'a [String],
    /// Every file of the tree, sorted.
    pub all_files: &'a [String],
    /// The files loaded every session (or request).
    pub per_session: &'a HashSet<String>,
    /// What an entry document ([`entry_document`]) names.
    pub entry_named: &'a HashSet<String>,
    /// The governed plans a program of the tree cites by path (a comment's "see
    /// `plans/x.md`"): the code's design record.
    pub code_cited: &'a HashSet<String>,
}

/// The serialized `kind` of a signal.
pub fn signal_kind(s: &Signal) -> &'static str {
    match s {
        Signal::MissingPath { .. } => "missing-path",
        Signal::MissingAnchor { .. } => "missing-anchor",
        Signal::MissingSymbol { .. } => "missing-symbol",
        Signal::DuplicateBlock { .. } => "duplicate-block",
        Signal::ChecklistComplete { .. } => "checklist-complete",
        Signal::StatusDone { .. } => "status-done",
        Signal::SupersededMarker { .. } => "superseded-marker",
        Signal::ProvisionalMarker { .. } => "provisional-marker",
        Signal::Oversize { .. } => "oversize",
        Signal::Drift { .. } => "drift",
        Signal::ResolvedNarrative { .. } => "resolved-narrative",
        Signal::Lifecycle {} => "lifecycle",
    }
}

/// One row of `hygiene tokens`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct TokenCount {
    /// Root-relative path.
    pub path: String,
    /// Local-tokenizer count of the whole file.
    pub raw_tokens: u64,
    /// Whether Claude Code loads it every session or on demand.
    pub injection_frequency: InjectionFrequency,
    /// The tokenizer encoding (`crate::tokens::ENCODING`).
    pub encoding: &'static str,
}

/// Token counts of root-relative `paths` under `root`. A path that is not readable text is an
/// error naming it.
pub fn token_counts(root: &Path, paths: &[String]) -> crate::Result<Vec<TokenCount>> {
    let freqs = injection_frequencies(root, paths);
    let mut out = Vec::new();
    for p in paths {
        let full = crate::paths::resolve_inside(root, p, false)
            .map_err(|e| crate::Error::Usage(format!("{p}: {e}")))?;
        let text = read_doc(root, p).map_err(|r| {
            crate::Error::Other(format!("{}: cannot count tokens ({r:?})", full.display()))
        })?;
        out.push(TokenCount {
            path: p.clone(),
            raw_tokens: crate::tokens::count(markdown::strip_bom(&text)),
            injection_frequency: freqs
                .get(p)
                .copied()
                .unwrap_or(InjectionFrequency::OnDemand),
            encoding: crate::tokens::ENCODING,
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lifecycle::Governed;
    use crate::report::{
        Anchor, Category, EditKind, ExactEdit, Lifecycle, Lifetime, StaleSubtype, WholeAnchor,
        WholeKind,
    };

    fn governed(path: &str, is_dir: bool, served: Option<bool>, lifetime: Lifetime) -> Governed {
        let lifecycle = Lifecycle {
            rule_ref: "r".into(),
            lifetime,
            served_when_path: None,
            served_when: (served.is_none()).then(|| "is it done?".into()),
        };
        let suggestion = (served == Some(true)).then(|| ExactEdit {
            anchor: Some(Anchor::Whole(WholeAnchor {
                whole: if is_dir {
                    WholeKind::Directory
                } else {
                    WholeKind::File
                },
            })),
            lifecycle: Some(lifecycle.clone()),
            ..crate::kinds::empty_edit(EditKind::Delete)
        });
        Governed {
            path: path.into(),
            is_dir,
            served,
            lifecycle,
            suggestion,
            evidence: "old".into(),
            status: match served {
                Some(true) => crate::lifecycle::Status::Served,
                Some(false) => crate::lifecycle::Status::NotServed,
                None => crate::lifecycle::Status::NeedsJudgement,
            },
            facts: Default::default(),
        }
    }

    #[test]
    fn lifecycle_verdicts_become_items() {
        let mut items = vec![ShortlistItem {
            path: "docs/plans/a.md".into(),
            signals: vec![Signal::ChecklistComplete { checked: 3 }],
            suggestions: vec![],
            lifecycle: None,
            raw_tokens: 0,
            injection_frequency: InjectionFrequency::OnDemand,
        }];
        let mut tokens = vec![Some(7)];
        let files: Vec<String> = ["h/x.md", "h/y.md", "hz.md", "docs/plans/a.md"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        attach_lifecycle(
            &mut items,
            &mut tokens,
            vec![
                governed(
                    "docs/plans/a.md",
                    false,
                    Some(true),
                    Lifetime::DeleteOnceServed,
                ),
                governed("h", true, Some(true), Lifetime::Temporary),
                governed("docs/plans/b.md", false, None, Lifetime::DeleteOnceServed),
                governed("adr/1.md", false, Some(false), Lifetime::Keep),
            ],
            &LifecycleTree {
                filters: &[],
                all_files: &files,
                per_session: &HashSet::new(),
                entry_named: &HashSet::new(),
                code_cited: &HashSet::new(),
            },
            &|f: &str| f.len() as u64,
        );
        assert_eq!(items.len(), 3, "kept documents are not shortlisted");
        // Merged into the existing item, with the plan's category; its ticked list asked the
        // lifecycle question already, and yields to it.
        assert_eq!(items[0].signals, vec![Signal::Lifecycle {}]);
        assert_eq!(
            items[0].suggestions[0].category,
            Category::Stale {
                subtype: StaleSubtype::CompletedInPlace
            }
        );
        // The directory aggregate sums its own files only (not `hz.md`).
        assert_eq!(items[1].path, "h");
        assert_eq!(tokens[1], Some(("h/x.md".len() + "h/y.md".len()) as u64));
        assert_eq!(
            items[1].suggestions[0].category,
            Category::Stale {
                subtype: StaleSubtype::Superseded
            }
        );
        // Classifier-judged: lifecycle and signal, no suggestion.
        assert_eq!(items[2].signals, vec![Signal::Lifecycle {}]);
        assert!(items[2].suggestions.is_empty());
        assert!(items[2].lifecycle.as_ref().unwrap().served_when.is_some());
        assert_eq!(tokens[2], None);
    }
}
