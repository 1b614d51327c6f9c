//! `status-done`: a status line (`Status: Done`, `**Status:** ✅ Complete`, a `## Status:
//! Shipped` heading) or a frontmatter `status:` whose first word says the work is finished.
//! Only the first word counts, so `Status: not done yet` is not a signal. A status that names
//! the release it shipped in (`Implemented (v0.21+)`, `Shipped in 2.3`) is a feature
//! reference's note of availability, not finished work waiting to be archived. A status in the
//! head (above the first section, within [`super::HEAD_MAX_LINES`]) is the document's own; status lines inside sections are its items' (a
//! roadmap's phases), and one that is not finished means the document is not; the only one,
//! when it is a field in an item's list, is that item's. (Not in an example folder:
//! [`crate::scan::EXAMPLE_QUIET`].)

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

/// Whether a status value says finished anywhere ("Implementation complete", "✅ Done"), with
/// no negation ("not implemented") and no share below all ("⚠️ 10% Complete").
///
/// ```
/// use hygiene::scan::detectors::status::finished;
/// assert!(finished("✅ COMPLETE - parallel") && finished("Implementation complete"));
/// assert!(finished("✅ 100% Complete"));
/// assert!(!finished("planned, not implemented.") && !finished("⚠️ 10% Complete"));
/// assert!(!finished("🔄 In Progress (30% complete)") && !finished("Planned"));
/// assert!(!finished("Implemented — core shipped, mayor notify pending"));
/// assert!(!finished("implemented MVP; R2 helpers remain follow-ups"));
/// assert!(!finished("implemented in PR #4279 and retained as the design record"));
/// assert!(!finished("Implemented (Phase 1 - Foundation)") && !finished("COMPLETED & ARCHIVED"));
/// assert!(finished("Implemented in PR #2677; validation complete"));
/// assert!(finished("shipped (Steps 1–6 landed, including the pending-retry lease)"));
/// assert!(finished("IMPLEMENTED. This design was implemented in Phase 1. The integration is complete"));
/// ```
pub fn finished(value: &str) -> bool {
    let lower = value.to_lowercase();
    let words: Vec<&str> = lower
        .split(|c: char| !c.is_alphabetic())
        .filter(|w| !w.is_empty())
        .collect();
    let partial = lower.contains('%') && !lower.contains("100%");
    // "Implemented (Phase 1 - Foundation)": one phase of several.
    let one_phase = lower
        .match_indices("(phase ")
        .any(|(i, m)| lower[i + m.len()..].starts_with(|c: char| c.is_ascii_digit()));
    // Whole words: "the pending-retry lease" names a feature, it is no pending work.
    let unfinished = lower
        .split(|c: char| !(c.is_alphabetic() || c == '-'))
        .any(|w| UNFINISHED_WORDS.contains(&w));
    !partial && !one_phase && !unfinished && words.iter().any(|w| DONE_WORDS.contains(w))
}

/// Words in a status that say the work is not all done ("mayor notify pending", "follow-ups
/// remain") or that the document is kept on purpose ("retained as the design record",
/// "COMPLETED & ARCHIVED"): the status does not say a plan has served.
pub const UNFINISHED_WORDS: &[&str] = &[
    "not",
    "no",
    "partially",
    "partial",
    "pending",
    "remain",
    "remains",
    "remaining",
    "retained",
    "archived",
];

/// Whether a status line is the one to report: its first word says finished and it names no
/// release the feature shipped in.
/// Not a template's choices (`STATUS: complete|blocked|inconclusive`, the line a prompt asks a
/// subagent to answer with).
fn reportable(value: &str) -> bool {
    DONE_WORDS.contains(&first_word(value).as_str())
        && !names_a_release(value)
        && !value.contains('|')
}

/// The detector.
pub struct StatusDone;

fn line_text(doc: &DocText<'_>, line: u32) -> String {
    doc.line(line).trim().to_string()
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
        static STATUS: crate::scan::markdown::Needles =
            crate::scan::markdown::Needles::new(&["status"]);
        if !STATUS.any_in(doc.lower_prose) {
            return Vec::new();
        }
        // A status above the document's first section is the document's own. Status lines
        // inside sections are each item's (a roadmap's phases, a list of proposals): the
        // document is finished only when every one of them says so.
        let mut headings = 0;
        let mut first_done = None;
        // The in-section status lines, and the last heading line before each.
        let mut in_sections = 0;
        let mut section_of_first = None;
        let mut last_heading = None;
        let lines: Vec<(u32, &str)> = prose_lines(&doc.parsed.prose).collect();
        // A document without sections has a head too: a workflow prompt's "Update frontmatter:
        // `- status: complete`" on line 283 is a step's, not the prompt's status.
        let head_end = super::head_end(doc.parsed);
        for (i, &(line, l)) in lines.iter().enumerate() {
            // (A `## Status: Complete` heading is the second heading itself: still the head.)
            let own = headings < 2 && (line < head_end || l.starts_with('#'));
            if l.starts_with('#') {
                headings += 1;
                last_heading = Some(line);
            }
            let Some(v) = status_value(l) else { continue };
            // A field of a template the document shows (`* **Date Archived:** YYYY-MM-DD` above
            // `* **Status:** COMPLETED`) is the status of the files it describes.
            let near = |j: Option<usize>| j.and_then(|j| lines.get(j)).map_or("", |(_, t)| *t);
            if crate::scan::markdown::template_field(near(i.checked_sub(1)))
                || crate::scan::markdown::template_field(near(Some(i + 1)))
            {
                continue;
            }
            if own {
                if !finished(v) || !reportable(v) {
                    return Vec::new();
                }
                let text = line_text(doc, line);
                return vec![Signal::StatusDone { line, text }.into()];
            }
            if !finished(v) {
                return Vec::new();
            }
            in_sections += 1;
            if first_done.is_none() && reportable(v) {
                first_done = Some(line);
                section_of_first = last_heading;
            }
        }
        // One item's field: the only status below the head, in a list of an item's fields
        // under a heading that is no "Status" (a guide's "#### 3. Neural Networks" with its
        // `- **Location**:`, `- **Status**: ✅ Complete`; an advisory's `- **Status:**
        // RESOLVED` beside its `- **Severity:**`). Phases that each say done still count.
        if let (Some(line), 1) = (first_done, in_sections) {
            let raw = line_text(doc, line);
            let heading = section_of_first.map(|h| line_text(doc, h).to_lowercase());
            if crate::scan::markdown::list_item_body(&raw).is_some()
                && !heading.is_some_and(|h| h.trim_start_matches('#').trim().starts_with("status"))
            {
                return Vec::new();
            }
        }
        first_done
            .map(|line| {
                let text = line_text(doc, line);
                vec![Signal::StatusDone { line, text }.into()]
            })
            .unwrap_or_default()
    }
}
