//! `status-done`: a status line (`Status: Done`, `**Status:** ✅ Complete`, a `## Status:
//! Shipped` heading) or a frontmatter `status:` whose first word says the work is finished.
//! Only the first word counts, so `Status: not done yet` is not a signal. A status that names
//! the release it shipped in (`Implemented (v0.21+)`, `Shipped in 2.3`) is a feature
//! reference's note of availability, not finished work waiting to be archived.

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

/// Whether a status value names the release the feature shipped in: a version (`v0.21+`,
/// `1.4`) after the status word.
///
/// ```
/// use hygiene::scan::detectors::status::names_a_release;
/// assert!(names_a_release("Implemented (v0.21+)") && names_a_release("Shipped in 2.3.0"));
/// assert!(!names_a_release("Implemented") && !names_a_release("Done — all 3 phases merged"));
/// ```
pub fn names_a_release(value: &str) -> bool {
    value.split_whitespace().skip(1).any(|w| {
        let w = w.trim_matches(|c: char| "()[],;+".contains(c));
        let w = w.strip_prefix(['v', 'V']).unwrap_or(w);
        let mut parts = w.split('.');
        let numeric = |p: Option<&str>| {
            p.is_some_and(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()))
        };
        numeric(parts.next()) && numeric(parts.next())
    })
}

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
                if DONE_WORDS.contains(&first_word(v).as_str()) && !names_a_release(v) {
                    let text = line_text(doc, line);
                    return vec![Signal::StatusDone { line, text }.into()];
                }
            }
        }
        Vec::new()
    }
}
