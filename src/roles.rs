//! Document roles: what a document is to the people and agents who read it.
//!
//! A changelog names old paths on purpose; a versioned copy of the docs describes an old
//! release; a template names paths of the repository it will be copied into; a generated page is
//! rewritten by its generator. Reporting their "stale" references, or editing them without a
//! prompt, rewrites history or fights a generator. So each document gets one [`Role`], decided by
//! the first of: its own frontmatter (`hygiene-role: history`), the repository's rulebook
//! (`roles`), generator and template markers in its text, then the default table
//! [`ROLE_RULES`]; what each role may draw is [`allows`], and only a living document takes an
//! automatic edit ([`auto_edits`]). `hygiene policy` publishes all of it.

use globset::{GlobBuilder, GlobMatcher, GlobSet, GlobSetBuilder};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::path::Path;
use std::sync::OnceLock;

/// What a document is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Role {
    /// Describes the present: every signal applies, and scanner-proven edits may run.
    Living,
    /// Records the past (changelogs, release notes, versioned copies, translations, ADRs,
    /// dated snapshots): its old paths are true history.
    History,
    /// Content the project ships for other repositories (templates, scaffolds, plugin skills):
    /// the paths it names are those repositories'.
    Shipped,
    /// Written by a generator: an edit is undone by the next run.
    Generated,
    /// Test data (an mdtest suite, a fixture, a snapshot): a test reads or expects the text, so
    /// its markers are expectations and an edit changes what the test checks. Its links and
    /// names still have to hold.
    Fixture,
}

impl Role {
    /// Every role, in the order the policy lists them.
    pub const ALL: [Role; 5] = [
        Role::Living,
        Role::History,
        Role::Shipped,
        Role::Generated,
        Role::Fixture,
    ];

    /// The word the rulebook and frontmatter use.
    pub fn name(self) -> &'static str {
        match self {
            Role::Living => "living",
            Role::History => "history",
            Role::Shipped => "shipped",
            Role::Generated => "generated",
            Role::Fixture => "fixture",
        }
    }

    /// The role a word names.
    pub fn from_name(s: &str) -> Option<Role> {
        Role::ALL.into_iter().find(|r| r.name() == s.trim())
    }
}

/// How a document's role is decided, first that applies wins: what [`Roles::of_doc`] does.
pub const DECIDED_BY: &[&str] = &[
    "the document's own frontmatter `hygiene-role: living|history|shipped|generated|fixture`",
    "the repository rulebook's `roles` (`{\"glob\": ..., \"role\": ...}`), first match",
    "a generator marker in its first lines (`generated_markers`), or a link there labelled `source_link_labels` to a Markdown file on GitHub (the page is rendered from it): generated",
    "a transcript marker in its first lines (`transcript_markers`: \"chat transcript\"): history",
    "template placeholders in prose (code spans and fences quote syntax and do not count), at least `template_min_placeholders`: shipped",
    "the default table (`rules`), first match",
    "a folder named like a version or a date (`v1.2`, `1.0.5`, `version-1.0.0`, `2025-06-18`): history",
    "a data folder of an example project (`example_data_folders` below `examples/<name>/`: what the example's agent reads or wrote), its README aside: fixture",
    "a plugin's shipped folder (`plugin_shipped_dirs` under a folder with `.claude-plugin/plugin.json`, or `plugins/<name>/`): shipped",
    "a skill installed from another repository (`.<agent>/skills/<name>/` beside a `skills-lock.json` that lists `<name>` with a `source`): shipped",
    "a prompt (a `SKILL.md`, or frontmatter with one of `prompt_keys`, or `name` and `description`) in one of `prompt_folders` (or a named set such as `bmm-skills/`) under no dot-folder: shipped",
    "else living; but a living document in a folder whose README's own status has one of `record_status_words` (`Status: archived`, \"beta history\") is history",
];

/// Folders of an example project (below `examples/<name>/`, [`example_project`]) that hold
/// what the example's agent reads or wrote when it ran: an MCP filesystem server's root, the
/// workspace a demo mounts, a run's output. A review the agent saved there names the files of
/// the day it ran; rewriting it falsifies the example. (Not the example project itself:
/// `examples/workspace/` is an example about workspaces.)
///
/// [`example_project`]: crate::scan::detectors::example_project
pub const EXAMPLE_DATA_FOLDERS: &[&str] =
    &["filesystem", "workspace", "workspaces", "output", "outputs"];

/// Whether a document sits in an [`EXAMPLE_DATA_FOLDERS`] folder of an example project.
///
/// ```
/// use hygiene::roles::example_data;
/// assert!(example_data("x/examples/reviewer/filesystem/review.md"));
/// assert!(example_data("examples/with-workspace/workspace/notes/brief.md"));
/// assert!(!example_data("examples/workspace/container.md"));
/// assert!(!example_data("docs/output/guide.md") && !example_data("examples/a/README.md"));
/// ```
pub fn example_data(rel: &str) -> bool {
    crate::scan::detectors::example_project(rel).is_some_and(|project| {
        crate::scan::detectors::in_folder_named(&rel[project.len() + 1..], EXAMPLE_DATA_FOLDERS)
    })
}

/// Words in a folder README's own status (frontmatter `status`, or a `Status:` line above its
/// second heading) that say the folder is kept as a record: "Status: transition evidence /
/// beta history", "Status: archived". Its documents name files as they were. ("Deprecated"
/// and "superseded" are not among them: a deprecated package's pages still describe its code.)
pub const RECORD_STATUS_WORDS: &[&str] = &["history", "historical", "archive", "archived"];

/// Whether a README's own status says its folder is kept as a record ([`RECORD_STATUS_WORDS`]).
///
/// ```
/// use hygiene::roles::record_status;
/// assert!(record_status("transition evidence / beta history.") && record_status("Archived"));
/// assert!(!record_status("Deprecated") && !record_status("Active") && !record_status(""));
/// ```
pub fn record_status(status: &str) -> bool {
    status
        .to_lowercase()
        .split(|c: char| !c.is_alphabetic())
        .any(|w| RECORD_STATUS_WORDS.contains(&w))
}

/// One row of the default role table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
pub struct RoleRule {
    /// The role.
    pub role: Role,
    /// Globs over root-relative paths (`**/` any depth; letter case matters, so
    /// `HISTORY.md` is a record and `docs/history.md` need not be).
    pub globs: &'static [&'static str],
    /// Why documents there have that role.
    pub why: &'static str,
}

/// The default role table, tried in order after frontmatter, the rulebook and text markers.
pub const ROLE_RULES: &[RoleRule] = &[
    RoleRule {
        role: Role::History,
        globs: &[
            "**/{CHANGELOG,Changelog,changelog}",
            "**/{CHANGELOG,Changelog,changelog}.*",
            "**/{CHANGELOG,Changelog,changelog}-*",
            // An earlier major version's changelog (`CHANGELOG_v1.md`) or a translated one
            // (`CHANGELOG_zh.md`, `CHANGELOG_pt-BR.md`); not `CHANGELOG_GUIDE.md`, a guide.
            "**/{CHANGELOG,Changelog,changelog}_v[0-9]*",
            "**/{CHANGELOG,Changelog,changelog}_[a-z][a-z].*",
            "**/{CHANGELOG,Changelog,changelog}_[a-z][a-z]-[A-Za-z][A-Za-z].*",
            "**/CHANGES.*",
            "**/HISTORY.*",
            "**/NEWS.md",
            "**/{RELEASE,Release,release}{-,_}{NOTES,Notes,notes}*",
            "**/RELEASES.*",
            "**/release-notes/**",
            "**/changelogs/**",
            "**/changelog/**",
            "**/.changeset/**",
            "**/newsletters/**",
            "**/newsletter/**",
            "**/chats/**",
            "**/{JOURNAL,Journal,journal}.*",
            "**/{DEVLOG,DevLog,devlog}.*",
            "**/*{CHANGE_SUMMARY,CHANGES_SUMMARY,change_summary}*.md",
            "**/transcripts/**",
        ],
        why: "a changelog, release note, newsletter, development journal, change summary or exported chat records what changed or was said, with the names of its time",
    },
    RoleRule {
        role: Role::History,
        globs: &[
            "**/versioned_docs/**",
            "**/versioned_sidebars/**",
            "**/i18n/**",
            "**/translations/**",
            "**/locales/**",
            // A docs site's language folders (mkdocs-static-i18n, Docusaurus-less layouts):
            // `docs/ja/`, `docs/zh-CN/`; English is the source, never a copy.
            "**/docs/{ar,bg,bn,ca,cs,da,de,el,es,et,fa,fi,fr,he,hi,hu,id,it,ja,ko,lt,lv,ms,nb,nl,no,pl,pt,pt-BR,pt-PT,ro,ru,sk,sl,sr,sv,sw,ta,th,tr,uk,ur,vi,zh,zh-CN,zh-TW,zh-Hans,zh-Hant}/**",
        ],
        why: "a versioned or translated copy describes a release (or another language), not the present source",
    },
    RoleRule {
        role: Role::History,
        globs: &[
            "**/adr/**",
            "**/adrs/**",
            "**/ADR/**",
            "**/decisions/**",
            "**/.decisions/**",
            "**/staged-for-removal/**",
            "**/archive/**",
            "**/archived/**",
            // Finished work's records (`PRPs/issues/completed/`, `plans/completed/`,
            // `designs/done/`).
            "**/completed/**",
            "**/done/**",
            "**/seps/**",
            "**/rfcs/**",
            "**/specs/[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]-*",
            // A dated brainstorm or research note records its day's thinking
            // (`docs/brainstorms/2026-03-22-x.md`, `docs/research/layout_research_20251021.md`).
            "**/{brainstorms,research}/**/*[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]*",
            "**/{brainstorms,research}/**/*20[0-9][0-9][01][0-9][0-3][0-9]*",
            // A dated report (`reports/test-audit-2026-01-05.md`) inventories its day's files.
            "**/reports/**/*[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]*",
            "**/{ThirdPartyNotices,THIRD_PARTY_NOTICES,THIRD-PARTY-NOTICES,ThirdPartyNotice}*",
            "**/{postmortems,post-mortems,.postmortem,.postmortems}/**",
        ],
        why: "decision records, proposals (SEPs, RFCs), dated design specs, reports, brainstorms and research notes, archives, completed work's records, a folder of postmortems and third-party notices (an upstream project's files) are dated history (a resolved incident write-up elsewhere is not: its lesson is distilled)",
    },
    RoleRule {
        role: Role::Shipped,
        globs: &[
            "**/templates/**",
            "**/template/**",
            "**/*{_,-}templates/**",
            "**/scaffold/**",
            "**/scaffolds/**",
            "**/boilerplate/**",
            "**/starter/**",
            "**/starters/**",
            "**/skeleton/**",
            "**/blueprints/**",
            "**/assets/**",
            "**/*-template.md",
            "**/*_template.md",
            "**/*.template.md",
        ],
        why: "templates, scaffolds and the documents a tool or skill ships as assets are copied into other repositories; their paths are those repositories'",
    },
    RoleRule {
        role: Role::Fixture,
        globs: &[
            "**/fixtures/**",
            "**/__fixtures__/**",
            "**/testdata/**",
            "**/test-data/**",
            "**/test_data/**",
            "**/mdtest/**",
            "**/__snapshots__/**",
            "**/{tests,test}/**/data/**",
            "**/{tests,test}/**/snapshots/**",
            // Golden files: the input a test feeds and the output it must match
            // (`scripts/goldens/mixed_input.md`, `assets/golden/<case>/reference.md`).
            "**/{golden,goldens}/**",
            "**/{benchmark,benchmarks}/**/{result,results}/**",
            // What a script is expected to write (a skill's `expected_outputs/` sample report).
            "**/{expected_output,expected_outputs,expected-output,expected-outputs}/**",
        ],
        why: "test data: a test reads or expects the text (a fixture, a golden file), so a TODO in it is an expectation and an edit changes what is tested (a README there documents the fixture and stays living); a benchmark's results are the pages it read and what it wrote; an expected output is what a script writes",
    },
];

/// Lines near the top of a document that say a generator wrote it.
pub const GENERATED_MARKERS: &[&str] = &[
    "@generated",
    "do not edit",
    "auto-generated",
    "autogenerated",
    "this file is generated",
    "this file was generated",
    "generated by",
    "generated from",
    "code generated",
    // A generator's date stamp ("Generated on 2025-04-21").
    "generated on 20",
];

/// Lines near the top that say a document is a transcript of a session (a chat with an agent
/// kept as an example): a record, whose paths are those of its day.
pub const TRANSCRIPT_MARKERS: &[&str] = &["chat transcript", "transcript of", "chat-transcript"];

/// How many leading lines are searched for a generator marker.
pub const GENERATED_MARKER_LINES: usize = 12;

/// What the head of a document says it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum HeadMarker {
    Generated,
    Transcript,
}

/// Whether the first [`GENERATED_MARKER_LINES`] lines of `text` carry a generator marker (or
/// link their source, [`names_its_source`]), else a transcript marker, in any case. One pass
/// of one automaton over the head, with no copy of it: every document is asked, and thirteen
/// substring searches of a lowercased copy were a tenth of a cold scan's parsing.
///
/// ```
/// use hygiene::roles::{Role, Roles};
/// let r = Roles::new(std::path::Path::new("."), Vec::new());
/// assert_eq!(r.of_text("a.md", "# A\r\n<!-- DO NOT EDIT -->\n"), Role::Generated);
/// assert_eq!(r.of_text("a.md", "# Chat Transcript\n"), Role::History);
/// let late = format!("{}do not edit\n", "line\n".repeat(12));
/// assert_ne!(r.of_text("a.md", &late), Role::Generated);
/// ```
fn head_marker(text: &str) -> Option<HeadMarker> {
    static AC: OnceLock<Option<aho_corasick::AhoCorasick>> = OnceLock::new();
    const GITHUB: &str = "https://github.com/";
    let ac = AC
        .get_or_init(|| {
            aho_corasick::AhoCorasick::builder()
                .ascii_case_insensitive(true)
                .kind(Some(aho_corasick::AhoCorasickKind::DFA))
                .build(
                    GENERATED_MARKERS
                        .iter()
                        .chain(TRANSCRIPT_MARKERS)
                        .chain(&[GITHUB]),
                )
                .ok()
        })
        .as_ref()?;
    let head = crate::scan::markdown::head_lines(text, GENERATED_MARKER_LINES);
    if !may_mark(head) {
        return None;
    }
    let (mut generated, mut transcript, mut github) = (false, false, false);
    for m in ac.find_overlapping_iter(head) {
        let i = m.pattern().as_usize();
        if i < GENERATED_MARKERS.len() {
            generated = true;
            break;
        } else if i < GENERATED_MARKERS.len() + TRANSCRIPT_MARKERS.len() {
            transcript = true;
        } else {
            github = true;
        }
    }
    // The rare head that links GitHub is read as the source-link check reads it.
    let names_source = || {
        let lowered: String = head
            .lines()
            .collect::<Vec<_>>()
            .join("\n")
            .to_ascii_lowercase();
        names_its_source(&lowered)
    };
    if generated || (github && names_source()) {
        Some(HeadMarker::Generated)
    } else if transcript {
        Some(HeadMarker::Transcript)
    } else {
        None
    }
}

/// Words one of which every head marker holds ([`GENERATED_MARKERS`], [`TRANSCRIPT_MARKERS`],
/// a GitHub link), lowercase.
pub const HEAD_MARKER_WORDS: &[&str] = &["generat", "not edit", "transcript", "github.com/"];

/// Whether a head can hold a marker: one of [`HEAD_MARKER_WORDS`] in it, in any case. Four SIMD
/// searches of its lowercased copy, where the automaton walks it a byte at a time: nearly every
/// head has none, and every document is asked.
///
/// ```
/// use hygiene::roles::{may_mark, GENERATED_MARKERS, HEAD_MARKER_WORDS, TRANSCRIPT_MARKERS};
/// for m in GENERATED_MARKERS.iter().chain(TRANSCRIPT_MARKERS) {
///     assert!(HEAD_MARKER_WORDS.iter().any(|w| m.contains(w)), "{m}");
///     assert!(may_mark(&m.to_uppercase()));
/// }
/// assert!(!may_mark("# Title\n\nPlain text.\n"));
/// ```
pub fn may_mark(head: &str) -> bool {
    static NEEDLES: crate::scan::markdown::Needles =
        crate::scan::markdown::Needles::new(HEAD_MARKER_WORDS);
    NEEDLES.any_in(&head.to_ascii_lowercase())
}

/// Labels of a link, in a document's first lines, to the Markdown file on GitHub the page was
/// rendered from (`<a href="https://github.com/o/r/tree/main/commands/audit.md">Source</a>` in
/// a docs site's page that a script builds from `commands/audit.md`): the page is generated, and
/// an edit belongs in its source.
pub const SOURCE_LINK_LABELS: &[&str] = &["source", "view source", "source file"];

/// Whether the lowercased head of a document links, under one of [`SOURCE_LINK_LABELS`], to a
/// Markdown file in a GitHub repository (`/blob/` or `/tree/`), as HTML or as a Markdown link.
///
/// ```
/// use hygiene::roles::names_its_source;
/// assert!(names_its_source(r#"<span><a href="https://github.com/o/r/tree/main/commands/a.md">source</a></span>"#));
/// assert!(names_its_source("[source](https://github.com/o/r/blob/main/skills/x/skill.md)"));
/// assert!(!names_its_source("[source](https://github.com/o/r/blob/main/src/lib.rs)"));
/// assert!(!names_its_source("[guide](https://github.com/o/r/blob/main/docs/a.md)"));
/// ```
pub fn names_its_source(head: &str) -> bool {
    let markdown_file = |url: &str| {
        (url.contains("/blob/") || url.contains("/tree/"))
            && [".md", ".mdx", ".markdown"]
                .iter()
                .any(|e| url.ends_with(e))
    };
    let label = |l: &str| SOURCE_LINK_LABELS.contains(&l.trim());
    for (i, _) in head.match_indices("https://github.com/") {
        let rest = &head[i..];
        let end = rest
            .find(|c: char| c == '"' || c == '\'' || c == ')' || c.is_whitespace())
            .unwrap_or(rest.len());
        if !markdown_file(&rest[..end]) {
            continue;
        }
        let after = &rest[end..];
        // `href="URL">Source</a>`
        let html = after
            .strip_prefix(['"', '\''])
            .and_then(|a| a.strip_prefix('>'))
            .and_then(|a| a.split_once("</a>"))
            .is_some_and(|(l, _)| label(l));
        // `[Source](URL)`
        let md = head[..i]
            .strip_suffix("](")
            .and_then(|b| b.rsplit_once('['))
            .is_some_and(|(_, l)| label(l));
        if html || md {
            return true;
        }
    }
    false
}

/// The frontmatter key a document names its own role with.
pub const FRONTMATTER_KEY: &str = "hygiene-role";

/// The folders of a Claude Code plugin that ship to its users (when the repository has a
/// `.claude-plugin/plugin.json`, or for each plugin of a marketplace's `plugins/<name>/`).
pub const PLUGIN_SHIPPED_DIRS: &[&str] = &["skills", "commands", "agents", "hooks"];

/// What a role may draw, by signal kind: `None` means every kind. The published effects table.
pub fn allowed_kinds(role: Role) -> Option<&'static [&'static str]> {
    match role {
        Role::Living => None,
        Role::History => Some(&["lifecycle", "oversize"]),
        Role::Shipped => Some(&["missing-path", "missing-anchor", "lifecycle", "oversize"]),
        Role::Generated => Some(&[
            "missing-path",
            "missing-anchor",
            "missing-symbol",
            "lifecycle",
            "oversize",
        ]),
        Role::Fixture => Some(&["missing-path", "missing-anchor", "missing-symbol"]),
    }
}

/// Whether a document of `role` draws a signal of `kind`. `oversize` counts only where the
/// document is loaded every session (a long changelog read on demand costs nothing per session).
///
/// ```
/// use hygiene::roles::{allows, Role};
/// assert!(allows(Role::Living, "duplicate-block", false));
/// assert!(!allows(Role::History, "missing-path", false));
/// assert!(!allows(Role::History, "oversize", false) && allows(Role::History, "oversize", true));
/// assert!(allows(Role::Shipped, "missing-path", false) && !allows(Role::Shipped, "missing-symbol", false));
/// ```
pub fn allows(role: Role, kind: &str, per_session: bool) -> bool {
    if role != Role::Living && kind == "oversize" {
        return per_session;
    }
    allowed_kinds(role).is_none_or(|k| k.contains(&kind))
}

/// Whether an edit may run without a prompt on a document of `role` (lifecycle deletes aside,
/// which their own rules govern): only a document that describes the present.
pub fn auto_edits(role: Role) -> bool {
    role == Role::Living
}

/// Whether an edit of `kind` may run without a prompt on a document of `role`: any on a living
/// document; on a history record only a frontmatter marker (`hygiene: frozen` adds metadata and
/// rewrites nothing it records); on shipped or generated content none (a marker would ship to
/// other repositories, or be regenerated away).
///
/// ```
/// use hygiene::roles::{auto_edits_kind, Role};
/// use hygiene::report::EditKind;
/// assert!(auto_edits_kind(Role::Living, EditKind::Dedupe));
/// assert!(auto_edits_kind(Role::History, EditKind::InsertFrontmatter));
/// assert!(!auto_edits_kind(Role::History, EditKind::ReplaceText));
/// assert!(!auto_edits_kind(Role::Shipped, EditKind::InsertFrontmatter));
/// ```
pub fn auto_edits_kind(role: Role, kind: crate::report::EditKind) -> bool {
    auto_edits(role)
        || (role == Role::History && kind == crate::report::EditKind::InsertFrontmatter)
}

/// Whether a document is a blog post named by its date (`blog/2023-10-16-context/index.md`,
/// `_posts/2024-07-17-launch.md`): it was written on that day, so the code it quotes is that
/// day's. Its links still have to work; the post is no record of the project as a whole.
///
/// ```
/// use hygiene::roles::is_dated_post;
/// assert!(is_dated_post("website/blog/2023-10-16-context/index.md"));
/// assert!(is_dated_post("blog/posts/2024-07-17-launch.md") && is_dated_post("_posts/2024-07-17-a.md"));
/// assert!(!is_dated_post("docs/2024-07-17-launch.md") && !is_dated_post("blog/launch.md"));
/// ```
pub fn is_dated_post(rel: &str) -> bool {
    let segs: Vec<&str> = rel.split('/').collect();
    let dated = |s: &str| {
        s.len() > 11
            && s.as_bytes()[10] == b'-'
            && s.bytes().take(10).enumerate().all(|(i, b)| {
                if i == 4 || i == 7 {
                    b == b'-'
                } else {
                    b.is_ascii_digit()
                }
            })
    };
    segs.iter().enumerate().any(|(i, s)| {
        dated(s)
            && segs[..i]
                .iter()
                .any(|p| matches!(*p, "blog" | "posts" | "_posts"))
    })
}

/// Whether a folder name is a version or a date (`v1.2`, `1.0.5`, `version-1.0.0`,
/// `2025-06-18`, a pre-release `2.0.0-rc.1`): a folder of versioned copies.
///
/// ```
/// use hygiene::roles::is_version_segment;
/// for yes in ["v1.2", "1.0.5", "version-1.0.0", "2025-06-18", "v2", "2.0.0-rc.1", "v3.1-beta"] { assert!(is_version_segment(yes), "{yes}"); }
/// for no in ["docs", "v", "2025", "plans", "1", "x1.2", "1.2-guide", "2-rc"] { assert!(!is_version_segment(no), "{no}"); }
/// ```
pub fn is_version_segment(seg: &str) -> bool {
    let s = seg.strip_prefix("version-").unwrap_or(seg);
    let s = s.strip_prefix(['v', 'V']).unwrap_or(s);
    // A pre-release (`2.0.0-rc.1`, `3.1-beta`) is its version's folder too.
    let s = match s.split_once('-') {
        Some((core, pre))
            if PRERELEASE_WORDS.iter().any(|w| {
                pre.get(..w.len())
                    .is_some_and(|p| p.eq_ignore_ascii_case(w))
            }) =>
        {
            core
        }
        _ => s,
    };
    let date = s.len() == 10
        && s.bytes().enumerate().all(|(i, b)| {
            if i == 4 || i == 7 {
                b == b'-'
            } else {
                b.is_ascii_digit()
            }
        });
    let parts: Vec<&str> = s.split('.').collect();
    let dotted = parts.len() >= 2
        && parts
            .iter()
            .all(|p| !p.is_empty() && p.len() <= 4 && p.bytes().all(|b| b.is_ascii_digit()));
    let v_major = seg.len() > 1
        && seg.starts_with(['v', 'V'])
        && seg[1..].len() <= 3
        && seg[1..].bytes().all(|b| b.is_ascii_digit());
    date || dotted || v_major
}

/// Words a pre-release suffix of a version starts with (`-rc.1`, `-beta`).
pub const PRERELEASE_WORDS: &[&str] = &["rc", "alpha", "beta", "pre", "preview", "canary", "dev"];

fn matcher(g: &str) -> Result<GlobMatcher, String> {
    GlobBuilder::new(g)
        .literal_separator(true)
        .case_insensitive(true)
        .build()
        .map(|g| g.compile_matcher())
        .map_err(|e| format!("bad role glob `{g}`: {}", e.kind()))
}

/// The default table as one glob set (one match pass for every row), with each glob's row.
fn defaults() -> &'static (GlobSet, Vec<usize>) {
    static S: OnceLock<(GlobSet, Vec<usize>)> = OnceLock::new();
    S.get_or_init(|| {
        let mut b = GlobSetBuilder::new();
        let mut rows = Vec::new();
        for (i, r) in ROLE_RULES.iter().enumerate() {
            for g in r.globs {
                b.add(
                    GlobBuilder::new(g)
                        .literal_separator(true)
                        .build()
                        .expect("the role table's globs are valid (tested)"),
                );
                rows.push(i);
            }
        }
        (b.build().expect("the role table builds (tested)"), rows)
    })
}

/// One override from a repository's rulebook: `{"glob": "...", "role": "living"}`.
#[derive(Debug, Clone)]
pub struct Override {
    /// The glob as written.
    pub glob: String,
    matcher: GlobMatcher,
    /// The role it gives.
    pub role: Role,
}

impl Override {
    /// Builds an override, or says what is wrong with it.
    pub fn new(glob: &str, role: &str) -> Result<Override, String> {
        let role = Role::from_name(role).ok_or_else(|| {
            format!("role `{role}` is not one of living, history, shipped, generated, fixture")
        })?;
        Ok(Override {
            glob: glob.to_string(),
            matcher: matcher(glob)?,
            role,
        })
    }
}

/// The folders prompts are kept in (`commands/`, `agents/`, `skills/`, `prompts/`, or a named
/// set such as `bmm-skills/`). A prompt in one of them (a `SKILL.md`, or a document whose
/// frontmatter has one of [`PROMPT_KEYS`]), at any depth and under no dot-folder, belongs to a
/// catalogue shipped to other projects (a plugin's, a template collection's, a tool's built-in
/// skills): the paths it names are theirs.
/// The repository's own prompts sit under a dot-folder (`.claude/commands/`, `.gemini/skills/`,
/// `.github/prompts/`) and run here. Decided from the document alone, so a cached role holds
/// while the document does.
pub const PROMPT_FOLDERS: &[&str] = &["commands", "agents", "skills", "prompts"];

/// The name ending of a Copilot instructions file: outside a dot-folder, a catalogue's prompt.
pub const INSTRUCTIONS_SUFFIX: &str = ".instructions.md";

/// Frontmatter keys only a prompt has (a docs page has `title` and `description`).
pub const PROMPT_KEYS: &[&str] = &["allowed-tools", "argument-hint", "tools", "model"];

/// The role decider for one repository.
#[derive(Debug, Clone, Default)]
pub struct Roles {
    overrides: Vec<Override>,
    /// Root-relative folders whose `skills/`, `commands/`, `agents/`, `hooks/` ship to plugin users.
    plugin_roots: Vec<String>,
    /// Skills installed from another repository: per folder holding a [`SKILLS_LOCK`], the
    /// names it lists with a `source` ([`Roles::with_skill_locks`]).
    installed_skills: Vec<(String, Vec<String>)>,
}

/// The lock file the `skills` installer writes beside the agent folders it fills
/// (`{"skills": {"convex-setup-auth": {"source": "get-convex/agent-skills", ...}}}`): a skill it
/// lists was copied from its source repository, so the paths the skill names are those of
/// whatever project it is installed in, and an update overwrites it.
pub const SKILLS_LOCK: &str = "skills-lock.json";

/// Where root-relative `rel` would sit in a skill a [`SKILLS_LOCK`] installed: for each
/// `.<agent>/skills/<name>/` on its path with something below it, the folder the lock would be
/// in (`""` or ending in `/`) and the skill's name.
///
/// ```
/// use hygiene::roles::skill_places;
/// let got: Vec<_> = skill_places("demo/.claude/skills/auth/references/a.md").collect();
/// assert_eq!(got, [("demo/", "auth")]);
/// assert_eq!(skill_places(".agents/skills/auth/SKILL.md").collect::<Vec<_>>(), [("", "auth")]);
/// assert_eq!(skill_places("skills/auth/SKILL.md").count() + skill_places(".claude/skills/auth").count(), 0);
/// ```
pub fn skill_places(rel: &str) -> impl Iterator<Item = (&str, &str)> {
    let starts: Vec<usize> = std::iter::once(0)
        .chain(rel.match_indices('/').map(|(i, _)| i + 1))
        .collect();
    let segs: Vec<&str> = rel.split('/').collect();
    (0..segs.len().saturating_sub(3))
        .filter(move |&i| segs[i].starts_with('.') && segs[i + 1] == "skills")
        .map(move |i| (&rel[..starts[i]], &rel[starts[i + 2]..starts[i + 3] - 1]))
}

/// The skill names a [`SKILLS_LOCK`] lists with a `source`.
///
/// ```
/// use hygiene::roles::locked_skills;
/// let t = br#"{"version": 1, "skills": {"setup-auth": {"source": "o/agent-skills", "sourceType": "github"}, "mine": {}}}"#;
/// assert_eq!(locked_skills(t), ["setup-auth"]);
/// assert!(locked_skills(b"not json").is_empty());
/// ```
pub fn locked_skills(bytes: &[u8]) -> Vec<String> {
    let v: serde_json::Value = serde_json::from_slice(bytes).unwrap_or_default();
    let mut names: Vec<String> = v
        .get("skills")
        .and_then(|s| s.as_object())
        .into_iter()
        .flatten()
        .filter(|(_, e)| {
            e.get("source")
                .and_then(|s| s.as_str())
                .is_some_and(|s| !s.is_empty())
        })
        .map(|(n, _)| n.clone())
        .collect();
    names.sort();
    names
}

impl Roles {
    /// The decider for `root` with the rulebook's overrides: plugin roots are the root itself
    /// when it has `.claude-plugin/plugin.json`, and each `plugins/<name>/` that has one.
    pub fn new(root: &Path, overrides: Vec<Override>) -> Roles {
        let mut plugin_roots = Vec::new();
        if root.join(".claude-plugin/plugin.json").is_file() {
            plugin_roots.push(String::new());
        }
        if let Ok(rd) = std::fs::read_dir(root.join("plugins")) {
            for e in rd.flatten() {
                if e.path().join(".claude-plugin/plugin.json").is_file()
                    || e.path().join("skills").is_dir()
                {
                    if let Some(n) = e.file_name().to_str() {
                        plugin_roots.push(format!("plugins/{n}/"));
                    }
                }
            }
        }
        Roles {
            overrides,
            plugin_roots,
            installed_skills: Vec::new(),
        }
    }

    /// The decider that also knows the skills each of `locks` (root-relative [`SKILLS_LOCK`]
    /// files the walk found in `tree`) installed: a document under
    /// `<its folder>/.<agent>/skills/<name>/` for a name it lists is shipped content. A lock is
    /// read only inside the root (never through a link out of it) and within
    /// `thresholds.site_config_cap_bytes`.
    pub fn with_skill_locks<'a>(
        mut self,
        tree: &crate::scan::refs::Tree,
        locks: impl Iterator<Item = &'a str>,
    ) -> Roles {
        let cap = crate::scan::THRESHOLDS.site_config_cap_bytes;
        for lock in locks {
            let dir = lock.strip_suffix(SKILLS_LOCK).unwrap_or(lock);
            let Some(bytes) = tree
                .read_path(lock)
                .and_then(|full| crate::scan::sites::read_config(&full, cap))
            else {
                continue;
            };
            let names = locked_skills(&bytes);
            if !names.is_empty() {
                self.installed_skills.push((dir.to_string(), names));
            }
        }
        self.installed_skills.sort();
        self
    }

    /// Whether `rel` lies in a skill a [`SKILLS_LOCK`] installed (`.claude/skills/<name>/...`
    /// beside the lock).
    fn installed_skill(&self, rel: &str) -> bool {
        skill_places(rel).any(|(dir, name)| {
            self.installed_skills
                .iter()
                .any(|(d, names)| d == dir && names.iter().any(|n| n == name))
        })
    }

    /// Whether `rel` (with `text`) is a prompt of a catalogue shipped to other projects
    /// ([`PROMPT_FOLDERS`]).
    fn shipped_prompt(&self, rel: &str, text: &str) -> bool {
        let segs: Vec<&str> = rel.split('/').collect();
        let folders = &segs[..segs.len().saturating_sub(1)];
        if folders.iter().any(|s| s.starts_with('.')) {
            return false;
        }
        // Copilot reads `*.instructions.md` from the project's `.github/instructions/`; one
        // anywhere else is a catalogue's, shipped to the projects its `applyTo` names.
        if segs[segs.len() - 1].ends_with(INSTRUCTIONS_SUFFIX) {
            return true;
        }
        // `skills/`, or a named set of them (`bmm-skills/`, `core_agents/`).
        let prompt_folder = |s: &&str| {
            PROMPT_FOLDERS.iter().any(|f| {
                s == f
                    || s.strip_suffix(f)
                        .is_some_and(|head| head.ends_with(['-', '_']))
            })
        };
        if !folders.iter().any(prompt_folder) {
            return false;
        }
        let name = segs[segs.len() - 1];
        if name == "SKILL.md" {
            return true;
        }
        let fm = crate::scan::markdown::frontmatter(text);
        PROMPT_KEYS.iter().any(|k| fm.get(k).is_some())
            || (fm.get("name").is_some() && fm.get("description").is_some())
    }

    /// The role a path alone gives (no text): rulebook overrides, the table, versioned folders,
    /// shipped plugin folders; else living.
    pub fn of_path(&self, rel: &str) -> Role {
        if let Some(o) = self.overrides.iter().find(|o| o.matcher.is_match(rel)) {
            return o.role;
        }
        // A fixture's README documents it (a test app's setup): only the data is test data.
        let readme = is_readme(rel);
        // The first row (in table order) with a matching glob, a fixture row aside for a README.
        let (set, rows) = defaults();
        if let Some(role) = set
            .matches(rel)
            .into_iter()
            .map(|g| rows[g])
            .filter(|&row| !(readme && ROLE_RULES[row].role == Role::Fixture))
            .min()
            .map(|row| ROLE_RULES[row].role)
        {
            return role;
        }
        if rel
            .rsplit_once('/')
            .is_some_and(|(dir, _)| dir.split('/').any(is_version_segment))
        {
            return Role::History;
        }
        if !readme && example_data(rel) {
            return Role::Fixture;
        }
        for p in &self.plugin_roots {
            if let Some(rest) = rel.strip_prefix(p.as_str()) {
                let first = rest.split('/').next().unwrap_or("");
                if rest.contains('/') && PLUGIN_SHIPPED_DIRS.contains(&first) {
                    return Role::Shipped;
                }
            }
        }
        if self.installed_skill(rel) {
            return Role::Shipped;
        }
        Role::Living
    }

    /// Whether a document's role is stated, by its frontmatter `hygiene-role` or by a rulebook
    /// override: nothing the scan infers may change it.
    pub fn stated(&self, rel: &str, frontmatter_role: Option<&str>) -> bool {
        frontmatter_role.and_then(Role::from_name).is_some()
            || self.overrides.iter().any(|o| o.matcher.is_match(rel))
    }

    /// A document's role: its frontmatter `hygiene-role`, then a rulebook override, then a
    /// generator marker in its first lines or template placeholders in its text, then
    /// [`Roles::of_path`].
    pub fn of_doc(&self, rel: &str, text: &str, frontmatter_role: Option<&str>) -> Role {
        if let Some(r) = frontmatter_role.and_then(Role::from_name) {
            return r;
        }
        if let Some(o) = self.overrides.iter().find(|o| o.matcher.is_match(rel)) {
            return o.role;
        }
        match head_marker(text) {
            Some(HeadMarker::Generated) => return Role::Generated,
            Some(HeadMarker::Transcript) => return Role::History,
            None => {}
        }
        if is_template(text) {
            return Role::Shipped;
        }
        match self.of_path(rel) {
            Role::Living if self.shipped_prompt(rel, text) => Role::Shipped,
            role => role,
        }
    }
}

impl Roles {
    /// The decider for `root` with its rulebook's overrides (the defaults alone when the
    /// rulebook cannot be read: a broken rulebook is reported where it is loaded).
    pub fn load(root: &Path) -> Roles {
        let overrides = crate::lifecycle::Rulebook::load(root)
            .map(|b| b.roles)
            .unwrap_or_default();
        Roles::new(root, overrides)
    }

    /// The role of a document on disk (its text read for frontmatter and markers).
    pub fn of_file(&self, root: &Path, rel: &str) -> Role {
        self.of_text(rel, &file_text(root, rel))
    }

    /// The role of the document `rel` whose text is `text` (its frontmatter read for a stated
    /// role).
    pub fn of_text(&self, rel: &str, text: &str) -> Role {
        let fm = crate::scan::markdown::frontmatter(text);
        self.of_doc(rel, text, fm.get(FRONTMATTER_KEY).map(|(v, _)| v))
    }
}

/// The text of the document `rel` on disk, as roles read it: empty when it is not a regular
/// file inside the root, invalid UTF-8 replaced.
pub fn file_text(root: &Path, rel: &str) -> String {
    crate::paths::resolve_inside(root, rel, false)
        .ok()
        .filter(|p| p.is_file())
        .and_then(|p| std::fs::read(p).ok())
        .map(|b| String::from_utf8_lossy(&b).into_owned())
        .unwrap_or_default()
}

/// Whether a root-relative path names a README (`README.md`, `readme.mdx`, any case).
pub fn is_readme(rel: &str) -> bool {
    rel.rsplit('/')
        .next()
        .and_then(|n| n.get(..7))
        .is_some_and(|n| n.eq_ignore_ascii_case("readme."))
}

/// Whether a document is a translation of another page: a README in another language
/// (`README.ko.md`, `README_KO.md`, `README-zh-CN.md`) or a page under a folder named by a
/// locale with its region or script as it is written (`docs/ja-JP/`, `i18n/pt_BR/`,
/// `zh-Hans/`). A bare language folder right under `docs/` is a translated copy by the role
/// table already; elsewhere a two-letter folder (`id/`, `de/`) or a lower-case pair (`my-app/`)
/// is too often a name of its own. Judged on public repositories, a translation read on demand
/// is long because its source is: it draws no `oversize` (the source page does).
///
/// ```
/// use hygiene::roles::is_translation;
/// assert!(is_translation("packages/docs-v3/README_KO.md") && is_translation("README.zh-CN.md"));
/// assert!(is_translation("docs/ja-JP/guide.md") && is_translation("site/zh-Hans/index.md"));
/// assert!(!is_translation("README.md") && !is_translation("README-template.md"));
/// assert!(!is_translation("README_TESTING.md") && !is_translation("README-ZOD-V3.md"));
/// assert!(!is_translation("my-app/guide.md") && !is_translation("id/README.md"));
/// ```
pub fn is_translation(rel: &str) -> bool {
    let (dirs, name) = rel.rsplit_once('/').unwrap_or(("", rel));
    let region_written = |r: &str| {
        (r.len() == 2 && r.bytes().all(|b| b.is_ascii_uppercase()))
            || (r.len() == 4
                && r.as_bytes()[0].is_ascii_uppercase()
                && r.bytes().skip(1).all(|b| b.is_ascii_lowercase()))
    };
    let locale_folder = |seg: &str| {
        seg.split_once(['-', '_'])
            .is_some_and(|(_, region)| crate::scan::sites::is_locale(seg) && region_written(region))
    };
    let readme_language = name
        .get(..6)
        .filter(|p| p.eq_ignore_ascii_case("readme"))
        .and_then(|_| name[6..].strip_prefix(['.', '_', '-']))
        .and_then(|rest| rest.rsplit_once('.'))
        .is_some_and(|(code, _)| crate::scan::sites::is_locale(&code.to_ascii_lowercase()));
    readme_language || dirs.split('/').any(locale_folder)
}

/// Whether a text is a template: placeholders (`{{ name }}`, `<%= x %>`, `{% if %}`) at least
/// [`TEMPLATE_MIN_PLACEHOLDERS`] times in its prose. Placeholders inside fenced code or code
/// spans are quoted syntax (a CI workflow's `${{ secrets.X }}`, a release tool's
/// `{{.Version}}`, a page format documented by example), not blanks for a user to fill, so
/// they do not count; nor does an MDX page's JSX object (`style={{ ... }}`). Hugo shortcodes (`{{< ref >}}`, `{{% note %}}`) are a docs site's own
/// markup, not placeholders.
///
/// ```
/// use hygiene::roles::is_template;
/// assert!(is_template("# {{NAME}}\n\n{{TAGLINE}}\n\nBy {{AUTHOR}}.\n"));
/// // The same placeholders quoted as syntax: a document about a template format.
/// assert!(!is_template("Write `{{path/to/file}}`, `{{arg}}` and:\n\n```yaml\nv: {{.Version}}\n```\n"));
/// assert!(!is_template("<img style={{ a: 1 }} />\n<div style={{ b: 2 }} />\n<p style={{ c: 3 }} />\n"));
/// ```
pub fn is_template(text: &str) -> bool {
    // Most documents have neither a brace nor `<%`: then there is nothing to count.
    if !text.contains('{') && !text.contains("<%") {
        return false;
    }
    let fences = crate::scan::markdown::fence_lines(text);
    let prose: String = text
        .lines()
        .enumerate()
        .filter(|(i, _)| !crate::scan::markdown::in_fences(&fences, *i as u32 + 1))
        .map(|(_, l)| without_code_spans(l))
        .collect::<Vec<_>>()
        .join("\n");
    let text = prose.as_str();
    let mustache = text
        .match_indices("{{")
        .filter(|(i, _)| !matches!(text.as_bytes().get(i + 2), Some(b'<' | b'%')))
        // `style={{ ... }}` is a JSX object in an MDX page; `${{ x }}` a workflow expression.
        .filter(|(i, _)| {
            !matches!(
                i.checked_sub(1).map(|j| text.as_bytes()[j]),
                Some(b'=' | b'$')
            )
        })
        .count()
        .min(text.matches("}}").count());
    let n = mustache + text.matches("<%").count() + text.matches("{%").count();
    n >= TEMPLATE_MIN_PLACEHOLDERS
}

/// A line with its code spans (a backtick run up to the same run) removed.
fn without_code_spans(line: &str) -> String {
    let mut out = String::new();
    let mut rest = line;
    while let Some(i) = rest.find('`') {
        out.push_str(&rest[..i]);
        let run = rest[i..].bytes().take_while(|&b| b == b'`').count();
        let tick = &rest[i..i + run];
        let after = &rest[i + run..];
        match after.find(tick) {
            Some(j) => rest = &after[j + run..],
            None => {
                out.push_str(&rest[i..]);
                return out;
            }
        }
    }
    out.push_str(rest);
    out
}

/// How many placeholders make a document a template.
pub const TEMPLATE_MIN_PLACEHOLDERS: usize = 3;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_rule_matches_both_ways() {
        let r = Roles::default();
        for (path, role) in [
            ("CHANGELOG.md", Role::History),
            ("packages/x/CHANGELOG.md", Role::History),
            ("RELEASE-NOTES.md", Role::History),
            ("website/versioned_docs/version-1.0.0/cli.md", Role::History),
            ("docs/docs/2025-06-18/develop/build.mdx", Role::History),
            ("docs/v2/intro.md", Role::History),
            ("docs/adr/0001-use-rust.md", Role::History),
            ("seps/2577-deprecate-roots.md", Role::History),
            ("docs/seps/2577-deprecate-roots.mdx", Role::History),
            (
                "docs/superpowers/specs/2026-07-06-workspace-design.md",
                Role::History,
            ),
            ("docs/specs/api.md", Role::Living),
            ("i18n/fr/intro.md", Role::History),
            ("internal/templates/agents/AGENTS.md", Role::Shipped),
            ("create-app/templates/hello/README.md", Role::Shipped),
            ("CLAUDE.md", Role::Living),
            ("docs/cli.md", Role::Living),
            ("docs/en/setup.md", Role::Living),
            ("docs/javascript/intro.md", Role::Living),
            ("docs/plans/2026-01-01-x.md", Role::Living),
            ("src/changelog_parser.md", Role::Living),
            ("docs/history.md", Role::Living),
            ("HISTORY.md", Role::History),
            ("docs/changelog.md", Role::History),
            ("release-notes.md", Role::History),
            ("newsletters/2026-June.md", Role::History),
            ("docs/ja/tools.md", Role::History),
            ("docs/zh-CN/index.md", Role::History),
            ("JOURNAL.md", Role::History),
            ("docs/devlog.md", Role::History),
            ("docs/journal/2025-04.md", Role::Living),
        ] {
            assert_eq!(r.of_path(path), role, "{path}");
        }
    }

    #[test]
    fn frontmatter_overrides_and_markers_decide_first() {
        let t = tempfile::tempdir().unwrap();
        let r = Roles::new(
            t.path(),
            vec![Override::new("CHANGELOG.md", "living").unwrap()],
        );
        assert_eq!(r.of_doc("CHANGELOG.md", "# C\n", None), Role::Living);
        assert_eq!(
            r.of_doc("docs/a.md", "# A\n", Some("history")),
            Role::History
        );
        assert_eq!(
            r.of_doc(
                "docs/cli.md",
                "<!-- @generated by usage-cli -->\n# CLI\n",
                None
            ),
            Role::Generated
        );
        // A generator's date stamp; a date in prose is not one.
        assert_eq!(
            r.of_doc("ctx.md", "# Doc Context\n\nGenerated on 2025-04-21\n", None),
            Role::Generated
        );
        assert_eq!(
            r.of_doc(
                "a.md",
                "# Keys\n\nKeys are generated on the server.\n",
                None
            ),
            Role::Living
        );
        assert_eq!(
            r.of_doc(
                "docs/new.md",
                "# {{ name }}\n\nRun {{ command }} in {{ dir }}.\n",
                None
            ),
            Role::Shipped
        );
        assert_eq!(
            r.of_doc(
                "docs/hugo.md",
                "See {{< ref a >}}, {{< ref b >}}, {{% note %}}.\n",
                None
            ),
            Role::Living
        );
        assert_eq!(
            r.of_doc("docs/a.md", "# A\nuses {{ once }}\n", None),
            Role::Living
        );
        assert!(Override::new("x", "weird").is_err());
    }

    #[test]
    fn plugin_content_ships_to_its_users() {
        let t = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(t.path().join(".claude-plugin")).unwrap();
        std::fs::write(t.path().join(".claude-plugin/plugin.json"), "{}").unwrap();
        std::fs::create_dir_all(t.path().join("plugins/p/skills")).unwrap();
        let r = Roles::new(t.path(), Vec::new());
        assert_eq!(r.of_path("skills/check/SKILL.md"), Role::Shipped);
        assert_eq!(r.of_path("plugins/p/agents/a.md"), Role::Shipped);
        assert_eq!(r.of_path("docs/skills.md"), Role::Living);
        assert_eq!(r.of_path(".claude/skills/x/SKILL.md"), Role::Living);
    }
}
