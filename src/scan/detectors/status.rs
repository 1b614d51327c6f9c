//! `status-done`: a status line (`Status: Done`, `**Status:** ✅ Complete`, a `## Status:
//! Shipped` heading) or a frontmatter `status:` whose first word says the work is finished.
//! Only the first word counts, so `Status: not done yet` is not a signal.

use super::{first_word, prose_lines, status_value, Detector, DocText, Finding};
use crate::report::Signal;

/// Words that mean finished.
pub const DONE_WORDS: &[&str] = &[
    "done",
    "complete",
    "completed",
    "implemented",
    "resolved",
    "shipped",
];

/// The detector.
pub struct StatusDone;

fn line_text(doc: &DocText<'_>, line: u32) -> String {
    let r = doc.parsed.lines.range(line, doc.text.len());
    doc.text[r].trim().to_string()
}

impl Detector for StatusDone {
    fn kind(&self) -> &'static str {
        "status-done"
    }

    fn on_text(&self, doc: &DocText<'_>) -> Vec<Finding> {
        if let Some((v, line)) = doc.parsed.frontmatter.get("status") {
            if DONE_WORDS.contains(&first_word(v).as_str()) {
                let text = line_text(doc, line);
                return vec![Signal::StatusDone { line, text }.into()];
            }
        }
        if !doc.lower_prose.contains("status") {
            return Vec::new();
        }
        for (line, l) in prose_lines(&doc.parsed.prose) {
            if let Some(v) = status_value(l) {
                if DONE_WORDS.contains(&first_word(v).as_str()) {
                    let text = line_text(doc, line);
                    return vec![Signal::StatusDone { line, text }.into()];
                }
            }
        }
        Vec::new()
    }
}
