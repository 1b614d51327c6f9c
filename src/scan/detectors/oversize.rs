//! `oversize`: the whole file's raw token count exceeds the threshold for its load class.
//!
//! Tokenizing costs about fifty times a read, so the count is only taken when it could exceed
//! the threshold: every `cl100k_base` token covers at least one byte, so a file of at most
//! `threshold` bytes cannot have more than `threshold` tokens and is never tokenized here.
//! Frozen documents (`hygiene: frozen`) get no bloat signal, and a document whose role never
//! draws `oversize` for its load class (a versioned copy read on demand) is not tokenized, nor
//! is a translation read on demand ([`crate::roles::is_translation`]): it is as long as its
//! source, whose own signal is the one to act on.
//!
//! A file read on demand counts only where an agent loads it whole when it is used
//! ([`loaded_on_use`]): a skill's, command's or agent's files, a rule scoped to paths, a nested
//! `CLAUDE.md` or `AGENTS.md`. A page
//! people read on demand (a README, a spec, a changelog, a reference, a generated catalogue) is
//! long for its readers and costs an agent only when it chooses to read it; judged on public
//! repositories, 4 of 14 such pages over the threshold were worth splitting, against 3 of 4
//! skill files. Whatever signal puts such a page in front of the model, its size goes with it
//! (the shortlist's `raw_tokens`).
//!
//! A file loaded every session must also be longer than
//! `THRESHOLDS.oversize_per_session_min_lines` (Claude Code's documented target for a memory
//! file is under 200 lines): judged on public repositories, every per-session file of 200 lines
//! or fewer was one its maintainers had already trimmed (163–196 lines, dense tables and
//! commands), and every longer one was worth splitting.

use super::{Detector, DocText, Finding};
use crate::report::{InjectionFrequency, Signal};
use crate::scan::THRESHOLDS;

/// The threshold for a load class.
pub fn threshold(freq: InjectionFrequency) -> u64 {
    match freq {
        InjectionFrequency::PerSession => THRESHOLDS.oversize_per_session_tokens,
        InjectionFrequency::OnDemand => THRESHOLDS.oversize_on_demand_tokens,
    }
}

/// Folders (from the root) of the rules a client loads only when the files they are scoped to
/// are in play: Claude Code's rules with `paths:`, Cursor's rules without `alwaysApply`,
/// Copilot's `applyTo` instructions. (An always-loaded one is per-session, not on demand.)
pub const SCOPED_RULE_DIRS: &[&str] = &[
    crate::scan::loadclass::RULES_DIR,
    crate::scan::loadclass::CURSOR_RULES_DIR,
    ".github/instructions/",
];

/// Whether an agent loads the on-demand document at `path` whole when it is used: a prompt
/// invoked by name ([`super::duplicate::invoked_alone`]: `commands/`, `agents/`, `skills/`,
/// `prompts/`, with the files a skill reads beside it), a rule scoped to paths
/// ([`SCOPED_RULE_DIRS`]), or a nested instruction file ([`crate::scan::INSTRUCTION_FILES`]:
/// `packages/api/CLAUDE.md` loads when the agent works below it). Only there is an on-demand
/// file's size paid at every use.
///
/// ```
/// use hygiene::scan::detectors::oversize::loaded_on_use;
/// assert!(loaded_on_use("cli-tool/components/skills/axolotl/references/api.md"));
/// assert!(loaded_on_use(".claude/skills/reskin/templates.md") && loaded_on_use(".cursor/rules/db.mdc"));
/// assert!(loaded_on_use("packages/api/CLAUDE.md") && loaded_on_use("backend/AGENTS.md"));
/// assert!(!loaded_on_use("README.md") && !loaded_on_use("docs/SDK_SPEC.md") && !loaded_on_use("docs/README.agents.md"));
/// ```
pub fn loaded_on_use(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    super::duplicate::invoked_alone(path)
        || SCOPED_RULE_DIRS.iter().any(|d| path.starts_with(d))
        || crate::scan::INSTRUCTION_FILES.contains(&name)
}

/// The detector.
pub struct Oversize;

impl Detector for Oversize {
    fn kind(&self) -> &'static str {
        "oversize"
    }

    fn on_text(&self, doc: &DocText<'_>) -> Vec<Finding> {
        let threshold = threshold(doc.freq);
        let exempt = crate::scan::FROZEN_EXEMPT_SIGNALS.contains(&self.kind());
        let per_session = doc.freq == InjectionFrequency::PerSession;
        if (exempt && doc.parsed.frontmatter.frozen())
            || doc.text.len() as u64 <= threshold
            || !crate::roles::allows(doc.role, self.kind(), per_session)
            || (!per_session
                && (!loaded_on_use(doc.path) || crate::roles::is_translation(doc.path)))
        {
            return Vec::new();
        }
        // The parse's line index already counts lines (a final newline opens no line).
        let lines = doc.parsed.lines.count() - u32::from(doc.text.ends_with('\n'));
        if per_session && u64::from(lines) <= THRESHOLDS.oversize_per_session_min_lines {
            return Vec::new();
        }
        let raw_tokens = crate::tokens::count(doc.text);
        if raw_tokens > threshold {
            vec![Signal::Oversize {
                raw_tokens,
                threshold,
            }
            .into()]
        } else {
            Vec::new()
        }
    }
}
