//! Where hygiene may write: one table, read by the validator, finalize, apply and the policy.
//!
//! A path that stays inside the root can still be dangerous to write: `vendor/lib/.git/config`
//! (a nested repository's configuration, which the next `git status` there obeys),
//! `.claude/settings.local.json` (a hook the client runs), a CI workflow, a shell script. So
//! besides staying inside the root ([`crate::paths`]), every write is checked against
//! [`RULES`]: an edited file is a document, an archive or extraction target is a Markdown file
//! that no client loads as instructions, and nothing lands in git's or hygiene's own data, in a
//! file a tool executes or trusts, in a nested repository, or in an executable file.

use globset::{GlobBuilder, GlobSet, GlobSetBuilder};
use schemars::JsonSchema;
use serde::Serialize;
use std::path::Path;
use std::sync::OnceLock;

/// What a write does to a path.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Role {
    /// The entry's own document is edited in place (every kind but `delete`, and generative).
    Edit,
    /// A whole file or directory is deleted by a lifecycle rule.
    Delete,
    /// Text from another document is appended (`dest_path`, `target_path`).
    Target,
}

/// One rule of the write table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
pub struct WriteRule {
    /// The stable name a refusal carries.
    pub id: &'static str,
    /// The roles it applies to.
    pub roles: &'static [Role],
    /// What it refuses.
    pub refuses: &'static str,
    /// Why.
    pub why: &'static str,
}

const ALL: &[Role] = &[Role::Edit, Role::Delete, Role::Target];

/// The write table, in the order the rules are checked.
pub const RULES: &[WriteRule] = &[
    WriteRule {
        id: "git-data",
        roles: ALL,
        refuses: "a path with a `.git` segment at any depth (any letter case)",
        why: "git's own data, of this repository or a nested one: git runs commands its configuration names",
    },
    WriteRule {
        id: "hygiene-data",
        roles: ALL,
        refuses: "a path with a `.hygiene` segment",
        why: "the helper's journal and reports are not documents",
    },
    WriteRule {
        id: "tool-config",
        roles: ALL,
        refuses: "a file a client or tool executes or trusts (see `tool_config_globs`)",
        why: "settings, hooks, CI workflows and scripts run commands; text appended there could run",
    },
    WriteRule {
        id: "nested-repository",
        roles: ALL,
        refuses: "a path inside a nested repository (a folder below the root that holds `.git`)",
        why: "another repository's files are not this repository's to edit, and its history cannot undo them",
    },
    WriteRule {
        id: "executable",
        roles: ALL,
        refuses: "a file with an executable permission bit",
        why: "an executable is a program, not a document",
    },
    WriteRule {
        id: "documents-only",
        roles: &[Role::Edit],
        refuses: "an edited file whose name is not a document's (see `document_extensions`)",
        why: "hygiene edits documents; a report naming anything else is wrong or hostile",
    },
    WriteRule {
        id: "markdown-targets",
        roles: &[Role::Target],
        refuses: "an archive or extraction target that is not Markdown (`.md`, `.markdown`, `.mdx`)",
        why: "archived and extracted spans are Markdown and are appended as such",
    },
    WriteRule {
        id: "no-instruction-targets",
        roles: &[Role::Target],
        refuses: "an archive or extraction target that a client loads as instructions (see `instruction_globs`)",
        why: "moving text there would put it into the agent's prompt without anyone choosing that",
    },
];

/// Files a client or tool executes or trusts (globs over root-relative paths; `**/` any depth).
pub const TOOL_CONFIG_GLOBS: &[&str] = &[
    "**/.claude/settings.json",
    "**/.claude/settings.local.json",
    "**/.claude/settings*.json",
    "**/.mcp.json",
    "**/.claude/hooks/**",
    "**/hooks/hooks.json",
    "**/.husky/**",
    "**/.githooks/**",
    "**/.git*",
    "**/.github/workflows/**",
    "**/.github/actions/**",
    "**/.gitlab-ci.yml",
    "**/.circleci/**",
    "**/.pre-commit-config.yaml",
    "**/.pre-commit-hooks.yaml",
    "**/.envrc",
    "**/.env",
    "**/.env.*",
    "**/*.sh",
    "**/*.bash",
    "**/*.zsh",
    "**/*.fish",
    "**/*.ps1",
    "**/*.bat",
    "**/*.cmd",
    "**/Makefile",
    "**/package.json",
];

/// The names an edited document may have: these extensions (any case) or these exact names.
pub const DOCUMENT_EXTENSIONS: &[&str] = &["md", "markdown", "mdx", "mdc", "txt", "rst"];
/// Documents without a document extension that agents read as instructions.
pub const DOCUMENT_NAMES: &[&str] = &[".cursorrules", ".windsurfrules"];

/// Files clients load as instructions (never an archive or extraction target).
pub const INSTRUCTION_GLOBS: &[&str] = &[
    "**/CLAUDE.md",
    "**/CLAUDE.local.md",
    "**/AGENTS.md",
    "**/GEMINI.md",
    "**/SKILL.md",
    "**/.claude/**",
    "**/.cursor/**",
    "**/.github/copilot-instructions.md",
    "**/.github/instructions/**",
    "commands/**",
    "agents/**",
    "skills/**",
    "**/.cursorrules",
    "**/.windsurfrules",
];

fn set(globs: &[&str]) -> GlobSet {
    let mut b = GlobSetBuilder::new();
    for g in globs {
        b.add(
            GlobBuilder::new(g)
                .literal_separator(true)
                .case_insensitive(true)
                .build()
                .expect("the write table's globs are valid (tested)"),
        );
    }
    b.build().expect("the write table's globs build (tested)")
}

fn tool_config() -> &'static GlobSet {
    static S: OnceLock<GlobSet> = OnceLock::new();
    S.get_or_init(|| set(TOOL_CONFIG_GLOBS))
}

fn instructions() -> &'static GlobSet {
    static S: OnceLock<GlobSet> = OnceLock::new();
    S.get_or_init(|| set(INSTRUCTION_GLOBS))
}

/// A refused write: the rule and a sentence naming the path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refused {
    /// The rule's id in [`RULES`].
    pub rule: &'static str,
    /// What is wrong.
    pub message: String,
}

fn refuse(rule: &'static str, rel: &str) -> Refused {
    let r = RULES
        .iter()
        .find(|r| r.id == rule)
        .expect("every refusal names a rule of the table");
    Refused {
        rule,
        message: format!("`{rel}`: hygiene never writes {} ({})", r.refuses, r.why),
    }
}

/// Whether `rel` names a document by its name.
///
/// ```
/// use hygiene::protect::is_document;
/// assert!(is_document("docs/A.MD") && is_document(".cursor/rules/x.mdc") && is_document(".cursorrules"));
/// assert!(!is_document("scripts/x.sh") && !is_document(".claude/settings.json"));
/// ```
pub fn is_document(rel: &str) -> bool {
    let name = rel.rsplit('/').next().unwrap_or(rel);
    DOCUMENT_NAMES.contains(&name)
        || name.rsplit_once('.').is_some_and(|(stem, ext)| {
            !stem.is_empty() && DOCUMENT_EXTENSIONS.contains(&ext.to_ascii_lowercase().as_str())
        })
}

/// The rules that need only the path's text (the validator has no tree).
///
/// ```
/// use hygiene::protect::{check_text, Role};
/// assert!(check_text(Role::Target, "docs/archive.md").is_ok());
/// assert_eq!(check_text(Role::Target, "vendor/lib/.git/config").unwrap_err().rule, "git-data");
/// assert_eq!(check_text(Role::Target, ".claude/settings.local.json").unwrap_err().rule, "tool-config");
/// assert_eq!(check_text(Role::Target, "CLAUDE.md").unwrap_err().rule, "no-instruction-targets");
/// assert_eq!(check_text(Role::Edit, "src/main.rs").unwrap_err().rule, "documents-only");
/// assert!(check_text(Role::Delete, ".claude/handoffs/2026-01-01.json").is_ok());
/// ```
pub fn check_text(role: Role, rel: &str) -> Result<(), Refused> {
    let segs = || rel.split('/');
    if segs().any(|s| s.eq_ignore_ascii_case(".git")) {
        return Err(refuse("git-data", rel));
    }
    if segs().any(|s| s.eq_ignore_ascii_case(".hygiene")) {
        return Err(refuse("hygiene-data", rel));
    }
    if tool_config().is_match(rel) {
        return Err(refuse("tool-config", rel));
    }
    match role {
        Role::Edit if !is_document(rel) => Err(refuse("documents-only", rel)),
        Role::Target => {
            let name = rel.rsplit('/').next().unwrap_or(rel).to_ascii_lowercase();
            if !(name.ends_with(".md") || name.ends_with(".markdown") || name.ends_with(".mdx")) {
                Err(refuse("markdown-targets", rel))
            } else if instructions().is_match(rel) {
                Err(refuse("no-instruction-targets", rel))
            } else {
                Ok(())
            }
        }
        _ => Ok(()),
    }
}

/// Every rule: [`check_text`], then the ones that look at the tree (a nested repository on the
/// way, an executable bit).
pub fn check(root: &Path, role: Role, rel: &str) -> Result<(), Refused> {
    check_text(role, rel)?;
    let segs: Vec<&str> = rel.split('/').collect();
    let mut at = root.to_path_buf();
    for seg in &segs[..segs.len().saturating_sub(1)] {
        at.push(seg);
        if std::fs::symlink_metadata(at.join(".git")).is_ok() {
            return Err(refuse("nested-repository", rel));
        }
    }
    if role != Role::Delete {
        #[cfg(unix)]
        if let Ok(m) = std::fs::symlink_metadata(root.join(rel)) {
            use std::os::unix::fs::PermissionsExt;
            if m.is_file() && m.permissions().mode() & 0o111 != 0 {
                return Err(refuse("executable", rel));
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_glob_builds_and_every_rule_is_reachable() {
        let _ = (tool_config(), instructions());
        for (role, rel, rule) in [
            (Role::Edit, "a/.GIT/config.md", "git-data"),
            (Role::Edit, ".hygiene/report.md", "hygiene-data"),
            (Role::Delete, ".github/workflows/ci.yml", "tool-config"),
            (Role::Edit, "docs/run.sh", "tool-config"),
            (Role::Edit, "docs/.gitignore", "tool-config"),
            (Role::Edit, "src/lib.rs", "documents-only"),
            (Role::Target, "docs/archive.txt", "markdown-targets"),
            (Role::Target, "skills/x/SKILL.md", "no-instruction-targets"),
            (Role::Target, "pkg/AGENTS.md", "no-instruction-targets"),
        ] {
            assert_eq!(check_text(role, rel).unwrap_err().rule, rule, "{rel}");
        }
        for (role, rel) in [
            (Role::Edit, "CLAUDE.md"),
            (Role::Edit, ".claude/rules/a.md"),
            (Role::Target, "docs/archive/2026.md"),
            (Role::Delete, "docs/plans/old"),
        ] {
            assert!(check_text(role, rel).is_ok(), "{rel}");
        }
    }

    #[test]
    fn nested_repositories_and_executables_are_refused_on_the_tree() {
        let d = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(d.path().join("vendor/lib/.git")).unwrap();
        std::fs::create_dir_all(d.path().join("docs")).unwrap();
        assert_eq!(
            check(d.path(), Role::Target, "vendor/lib/docs/a.md")
                .unwrap_err()
                .rule,
            "nested-repository"
        );
        assert!(check(d.path(), Role::Target, "docs/a.md").is_ok());
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let p = d.path().join("docs/run.md");
            std::fs::write(&p, "x").unwrap();
            std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755)).unwrap();
            assert_eq!(
                check(d.path(), Role::Edit, "docs/run.md").unwrap_err().rule,
                "executable"
            );
        }
    }
}
