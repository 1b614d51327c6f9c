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
            || (!per_session && crate::roles::is_translation(doc.path))
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
