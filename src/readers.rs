//! Who reads what: which client loads which document, and when.
//!
//! A dedupe is non-destructive (so `auto`, by the frozen contract) because the removed span
//! survives verbatim at its kept copy. That is only true for a reader who also reads the kept
//! copy. Other coding agents read `AGENTS.md` and never `CLAUDE.md`; Copilot reads
//! `.github/copilot-instructions.md`; a plugin's users get its skills without the plugin
//! repository's own `CLAUDE.md`; people read `docs/` page by page. So a document's readers are a
//! published table ([`READER_RULES`], first match wins, plus Claude Code's per-session set from
//! [`crate::scan::loadclass`]), and [`dedupe_problem`] allows a dedupe only when every reader of
//! the document losing the span also reads the kept copy.

use globset::{GlobBuilder, GlobSet, GlobSetBuilder};
use schemars::JsonSchema;
use serde::Serialize;
use std::collections::HashSet;
use std::sync::OnceLock;

/// A reader of documents.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Reader {
    /// Claude Code, at the start of every session in this repository (root `CLAUDE.md`,
    /// `CLAUDE.local.md`, `.claude/CLAUDE.md`, `.claude/rules/` without `paths:`, their
    /// `@imports`).
    ClaudeSession,
    /// Claude Code in this repository, when the work reaches the document (nested `CLAUDE.md`,
    /// `.claude/` skills, commands, agents, path-scoped rules).
    ClaudeOnDemand,
    /// Other coding agents (Codex, Jules, Amp, ...): `AGENTS.md`.
    OtherAgents,
    /// GitHub Copilot: `.github/copilot-instructions.md`, `.github/instructions/`.
    Copilot,
    /// Cursor: `.cursor/rules/`, `.cursorrules`.
    Cursor,
    /// Gemini CLI: `GEMINI.md`.
    Gemini,
    /// Windsurf: `.windsurfrules`.
    Windsurf,
    /// The users of what this repository ships (a plugin's skills, commands and agents; its
    /// templates), in their own repositories.
    PluginUsers,
    /// People: READMEs, `docs/`, a website's pages, everything else.
    People,
}

/// One row of the reader table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
pub struct ReaderRule {
    /// Globs over root-relative paths.
    pub globs: &'static [&'static str],
    /// Who reads a matching document.
    pub readers: &'static [Reader],
    /// When.
    pub when: &'static str,
}

/// The reader table, first match wins. Claude Code's per-session set (the files it loads at
/// start and everything they `@import`) adds [`Reader::ClaudeSession`] to whatever this says;
/// shipped plugin content ([`crate::roles::Role::Shipped`] under a plugin) is read by
/// [`Reader::PluginUsers`].
pub const READER_RULES: &[ReaderRule] = &[
    ReaderRule {
        globs: &["CLAUDE.md", "CLAUDE.local.md", ".claude/CLAUDE.md"],
        readers: &[Reader::ClaudeSession],
        when: "every session start",
    },
    ReaderRule {
        globs: &[".claude/rules/**"],
        readers: &[Reader::ClaudeOnDemand],
        when: "every session (no `paths:` frontmatter), or when matching files are touched",
    },
    ReaderRule {
        globs: &["**/CLAUDE.md", "**/CLAUDE.local.md", ".claude/**"],
        readers: &[Reader::ClaudeOnDemand],
        when: "when the work reaches the folder, or the skill, command or agent is used",
    },
    ReaderRule {
        globs: &["**/AGENTS.md", "**/AGENT.md"],
        readers: &[Reader::OtherAgents],
        when: "every session of agents that follow the AGENTS.md convention",
    },
    ReaderRule {
        globs: &["**/GEMINI.md"],
        readers: &[Reader::Gemini],
        when: "every Gemini CLI session",
    },
    ReaderRule {
        globs: &[".github/copilot-instructions.md", ".github/instructions/**"],
        readers: &[Reader::Copilot],
        when: "every Copilot request in the repository",
    },
    ReaderRule {
        globs: &[".cursor/rules/**", ".cursorrules"],
        readers: &[Reader::Cursor],
        when: "Cursor requests (always-apply rules: every request)",
    },
    ReaderRule {
        globs: &[".windsurfrules"],
        readers: &[Reader::Windsurf],
        when: "every Windsurf request",
    },
    ReaderRule {
        globs: &["**"],
        readers: &[Reader::People],
        when: "when a person (or an agent sent there) opens it",
    },
];

fn table() -> &'static Vec<(GlobSet, &'static [Reader])> {
    static S: OnceLock<Vec<(GlobSet, &'static [Reader])>> = OnceLock::new();
    S.get_or_init(|| {
        READER_RULES
            .iter()
            .map(|r| {
                let mut b = GlobSetBuilder::new();
                for g in r.globs {
                    b.add(
                        GlobBuilder::new(g)
                            .literal_separator(true)
                            .build()
                            .expect("the reader table's globs are valid (tested)"),
                    );
                }
                (
                    b.build().expect("the reader table builds (tested)"),
                    r.readers,
                )
            })
            .collect()
    })
}

/// The readers of root-relative `rel`: the table's first match, [`Reader::ClaudeSession`] when
/// Claude Code loads it every session (`per_session`), [`Reader::PluginUsers`] instead of
/// everything else when it is shipped plugin content (`shipped_plugin`).
///
/// ```
/// use hygiene::readers::{readers_of, Reader};
/// assert_eq!(readers_of("CLAUDE.md", true, false), vec![Reader::ClaudeSession]);
/// assert_eq!(readers_of("AGENTS.md", true, false), vec![Reader::ClaudeSession, Reader::OtherAgents]);
/// assert_eq!(readers_of("docs/setup.md", false, false), vec![Reader::People]);
/// assert_eq!(readers_of("skills/x/SKILL.md", false, true), vec![Reader::PluginUsers]);
/// ```
pub fn readers_of(rel: &str, per_session: bool, shipped_plugin: bool) -> Vec<Reader> {
    if shipped_plugin {
        return vec![Reader::PluginUsers];
    }
    let mut out: Vec<Reader> = table()
        .iter()
        .find(|(set, _)| set.is_match(rel))
        .map(|(_, r)| r.to_vec())
        .unwrap_or_else(|| vec![Reader::People]);
    if per_session && !out.contains(&Reader::ClaudeSession) {
        out.push(Reader::ClaudeSession);
    }
    out.retain(|r| !(per_session && *r == Reader::ClaudeOnDemand));
    out.sort();
    out.dedup();
    out
}

/// The rule [`dedupe_problem`] applies, as published.
pub const DEDUPE_RULE: &str = "a dedupe may take a span from a document only when every reader of that document is Claude Code in this repository and Claude Code reads the kept copy whenever it reads the document: the kept copy is loaded every session, or the document @imports it";

/// Whether a reader is Claude Code in this repository (the only client that follows `@imports`).
pub fn claude(r: Reader) -> bool {
    matches!(r, Reader::ClaudeSession | Reader::ClaudeOnDemand)
}

/// Whether a document with these readers is an instruction file of some coding agent (a
/// duplicate between two of them is a drift risk worth a model's look, even when no dedupe can
/// be made).
pub fn instructs_an_agent(readers: &[Reader]) -> bool {
    readers
        .iter()
        .any(|r| !matches!(r, Reader::People | Reader::PluginUsers))
}

/// Why removing a span from a document read by `losing` (kept at a copy read by `kept`) would
/// lose it for some reader, if it would. Allowed only when every reader of the losing document
/// is Claude Code in this repository, and Claude Code reads the kept copy whenever it reads the
/// losing document: the kept copy is loaded every session, or the losing document `@imports`
/// it.
///
/// ```
/// use hygiene::readers::{dedupe_problem, Reader::*};
/// assert!(dedupe_problem(&[ClaudeOnDemand], &[ClaudeSession], false).is_none());
/// assert!(dedupe_problem(&[ClaudeSession], &[ClaudeSession, OtherAgents], false).is_none());
/// assert!(dedupe_problem(&[ClaudeSession, OtherAgents], &[ClaudeSession], false).is_some());
/// assert!(dedupe_problem(&[People], &[People], false).is_some());
/// assert!(dedupe_problem(&[ClaudeOnDemand], &[ClaudeOnDemand], false).is_some());
/// assert!(dedupe_problem(&[ClaudeOnDemand], &[ClaudeOnDemand], true).is_none());
/// assert!(dedupe_problem(&[PluginUsers], &[ClaudeSession], false).is_some());
/// ```
pub fn dedupe_problem(
    losing: &[Reader],
    kept: &[Reader],
    losing_imports_kept: bool,
) -> Option<String> {
    let others: Vec<String> = losing
        .iter()
        .filter(|r| !claude(**r))
        .map(|r| {
            serde_json::to_value(r)
                .ok()
                .and_then(|v| v.as_str().map(str::to_string))
                .unwrap_or_default()
        })
        .collect();
    if !others.is_empty() {
        return Some(format!(
            "the document is also read by {} who never read the kept copy",
            others.join(", ")
        ));
    }
    if !(kept.contains(&Reader::ClaudeSession) || losing_imports_kept) {
        return Some(
            "the kept copy is not loaded whenever this document is (it is neither loaded every session nor imported by it)"
                .into(),
        );
    }
    None
}

/// The readers of every document of a tree: the per-session set and the shipped plugin content
/// decided once.
#[derive(Debug, Clone, Default)]
pub struct ReaderMap {
    per_session: HashSet<String>,
    roles: crate::roles::Roles,
}

impl ReaderMap {
    /// The map for a tree whose per-session set and roles are known.
    pub fn new(per_session: HashSet<String>, roles: crate::roles::Roles) -> ReaderMap {
        ReaderMap { per_session, roles }
    }

    /// The map for `root`, reading the per-session set from disk (finalize and apply).
    pub fn load(root: &std::path::Path, roles: crate::roles::Roles) -> ReaderMap {
        ReaderMap {
            per_session: crate::scan::loadclass::per_session_of(root),
            roles,
        }
    }

    /// Whether Claude Code loads `rel` every session.
    pub fn per_session(&self, rel: &str) -> bool {
        self.per_session.contains(rel)
    }

    /// The readers of `rel`.
    pub fn of(&self, rel: &str) -> Vec<Reader> {
        let shipped = self.roles.of_path(rel) == crate::roles::Role::Shipped;
        readers_of(rel, self.per_session(rel), shipped)
    }
}

/// The root-relative files document `rel` (text `text`) `@import`s, resolved against the tree
/// on disk.
pub fn imports_of(root: &std::path::Path, rel: &str, text: &str) -> HashSet<String> {
    use crate::scan::refs::{resolve, Target, Tree};
    let tree = Tree {
        root: root.to_path_buf(),
        ..Tree::default()
    };
    crate::scan::markdown::parse(crate::scan::markdown::strip_bom(text))
        .refs
        .iter()
        .filter(|r| r.via == crate::report::Via::Import)
        .filter_map(|r| match resolve(&tree, rel, r) {
            Target::Found { path, .. } => path,
            _ => None,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_rule_is_reachable() {
        let _ = table();
        for (p, r) in [
            ("CLAUDE.md", Reader::ClaudeSession),
            (".claude/rules/a.md", Reader::ClaudeOnDemand),
            ("pkg/CLAUDE.md", Reader::ClaudeOnDemand),
            (".claude/commands/x.md", Reader::ClaudeOnDemand),
            ("pkg/AGENTS.md", Reader::OtherAgents),
            ("GEMINI.md", Reader::Gemini),
            (".github/copilot-instructions.md", Reader::Copilot),
            (".github/instructions/a.instructions.md", Reader::Copilot),
            (".cursor/rules/a.mdc", Reader::Cursor),
            (".windsurfrules", Reader::Windsurf),
            ("docs/a.md", Reader::People),
        ] {
            assert_eq!(readers_of(p, false, false), vec![r], "{p}");
        }
    }
}
