//! `resolved-narrative`: a long investigation or incident write-up whose own text says it is
//! resolved. The story of how a bug was hunted down is the first kind of bloat an agent pays
//! for: once the fix is in, what still matters is the lesson, a few lines. The signal is a fact
//! for the model, which distils; the scanner suggests no edit.
//!
//! A document draws it when it has at least `THRESHOLDS.resolved_narrative_min_words` words of
//! prose and a resolution marker: a line that starts with `Resolved:`, a status whose first word
//! is one of [`RESOLVED_WORDS`], or, in a document whose title or path names an incident
//! ([`INCIDENT_WORDS`]), a heading that starts with one of [`RESOLUTION_HEADINGS`] or a line
//! that starts with `Resolution:`. A plan's or a checklist's "done" is `status-done`'s
//! business; a heading must open the section, so "how we handle resolution" in prose does not
//! count. Why the title: in a guide, a skill or a reference, "Resolution" is a troubleshooting
//! step, a glossary entry or an image's pixels, and a "Post-Mortem" section can be an example;
//! a write-up of one investigation says what it is about at its top.

use super::{
    first_word, head_end, prose_lines, status_value, undecorate, Detector, DocText, Finding,
};
use crate::report::Signal;

/// Heading openings that mark a resolved write-up.
pub const RESOLUTION_HEADINGS: &[&str] = &[
    "resolution",
    "resolved",
    "root cause",
    "postmortem",
    "post-mortem",
    "post mortem",
    "the fix",
    "fix applied",
];

/// Status words that say an investigation is over.
pub const RESOLVED_WORDS: &[&str] = &["resolved", "fixed", "closed", "mitigated"];

/// Words of an incident or an investigation, one of which a document's title (its first
/// heading) or path must use for a resolution heading or a `Resolution:` line to mark it (a
/// status line or a `Resolved:` line marks it alone).
pub const INCIDENT_WORDS: &[&str] = &[
    "bug",
    "incident",
    "root cause",
    "symptom",
    "investigat",
    "regression",
    "outage",
    "crash",
    "broke",
    "postmortem",
    "post-mortem",
    "debug",
    "failure",
    "flaky",
];

/// Words of a document's file name or title that make it a list of items kept with their
/// states by design (a roadmap's "Resolved: ..." item, an audit's "Status: FIXED in PR #195"
/// finding): a resolved item there is the list's record, not an incident write-up to distil.
/// Published as `scanner.resolved_tracker_words`.
pub const TRACKER_WORDS: &[&str] = &["roadmap", "audit"];

/// Verbs by which a document says it keeps its past on purpose when "histor..." follows them
/// closely ("This roadmap is retained as a historical implementation record", "The original
/// problem statement stands as historical context"): its maintainers decided to keep the
/// narrative. Published as `scanner.resolved_history_kept_verbs`.
pub const HISTORY_KEPT_VERBS: &[&str] = &[
    "retained as",
    "kept as",
    "preserved as",
    "stands as",
    "survives as",
    "remains as",
    "kept for",
    "retained for",
    "preserved for",
];

/// Words by which a resolved item's own paragraph says it is kept where it stands ("Resolved.
/// ... Recorded here as the case study that motivated the sharpening"): a design keeps the gap
/// as its rationale. Only the marker's paragraphs: in a document's head ("they are recorded
/// here as our own design conclusions") the words say where the thinking went, not that an
/// incident is kept. Published as `scanner.resolved_kept_here_words`.
pub const KEPT_HERE_WORDS: &[&str] = &["recorded here as", "kept here as", "kept here for"];

/// Whether lowercase `text` says it keeps history on purpose: one of [`HISTORY_KEPT_VERBS`]
/// with "histor..." among the next three words of its clause.
///
/// ```
/// use hygiene::scan::detectors::resolved::keeps_history;
/// assert!(keeps_history("the original problem statement stands as historical context."));
/// assert!(keeps_history("> this roadmap is retained as a historical implementation record."));
/// assert!(!keeps_history("the cache is kept as a map; history is rebuilt on restart."));
/// ```
pub fn keeps_history(text: &str) -> bool {
    HISTORY_KEPT_VERBS.iter().any(|v| {
        text.match_indices(v).any(|(i, _)| {
            // "histor..." within the next three words of the same clause.
            for w in text[i + v.len()..].split_whitespace().take(3) {
                if w.starts_with("histor") {
                    return true;
                }
                if w.contains(['.', ';', ':', ',', '!', '?']) {
                    return false;
                }
            }
            false
        })
    })
}

/// Whether lowercase prose uses one of [`INCIDENT_WORDS`].
///
/// ```
/// use hygiene::scan::detectors::resolved::incident_like;
/// assert!(incident_like("the root cause was a stale cache"));
/// assert!(!incident_like("the resolution is given as widthxheight; an error is thrown otherwise"));
/// ```
pub fn incident_like(lower_prose: &str) -> bool {
    INCIDENT_WORDS.iter().any(|w| lower_prose.contains(w))
}

/// Whether `text` has at least `n` words (as `split_whitespace` counts them), counting no
/// further than `n`: every document asks, and most are short. ASCII text is counted by bytes.
///
/// ```
/// use hygiene::scan::detectors::resolved::at_least_words;
/// assert!(at_least_words("a b\tc\n d", 4) && !at_least_words("a b\tc\n d", 5));
/// assert!(at_least_words("é\u{a0}ü x", 3) && !at_least_words("  ", 1));
/// ```
pub fn at_least_words(text: &str, n: usize) -> bool {
    if !text.is_ascii() {
        return text.split_whitespace().take(n).count() >= n;
    }
    let bytes = text.as_bytes();
    let Some(&first) = bytes.first() else {
        return n == 0;
    };
    // A word starts where a byte that is no space follows a space: counted without a branch,
    // a block at a time into a `u32` (so the compiler vectorizes it; a `usize` sum did not, and
    // cost a twentieth of a cold scan's instructions), stopping at the block that reaches `n`.
    let mut count = usize::from(ascii_space(first) == 0);
    let mut start = 0;
    while start + 1 < bytes.len() {
        let end = (start + 1024).min(bytes.len() - 1);
        let (before, at) = (&bytes[start..end], &bytes[start + 1..end + 1]);
        let mut starts: u32 = 0;
        for (&a, &b) in before.iter().zip(at) {
            starts += u32::from(ascii_space(a) & (ascii_space(b) ^ 1));
        }
        count += starts as usize;
        if count >= n {
            return true;
        }
        start = end;
    }
    count >= n
}

/// 1 when `b` is ASCII whitespace as `char::is_whitespace` reads it (space, `\t`, `\n`,
/// `\x0b`, `\x0c`, `\r`), else 0.
#[inline(always)]
fn ascii_space(b: u8) -> u8 {
    u8::from(b == b' ') | u8::from(b.wrapping_sub(b'\t') < 5)
}

/// The detector.
pub struct ResolvedNarrative;

/// Whether the document's path or first heading names an incident or an investigation.
fn titled_as_incident(doc: &DocText<'_>) -> bool {
    incident_like(&doc.path.to_ascii_lowercase()) || title(doc).is_some_and(|t| incident_like(&t))
}

/// The document's first heading line, lowercase.
fn title(doc: &DocText<'_>) -> Option<String> {
    doc.parsed
        .headings
        .first()
        .map(|h| doc.line(h.line).to_ascii_lowercase())
}

/// Words one of which a marker line holds (a [`RESOLUTION_HEADINGS`] heading, `Resolved:`,
/// `Resolution:`, a status line): a page with none of them in its prose has no marker, and
/// its lines are not read one by one.
const MARKER_WORDS: &[&str] = &[
    "resolution",
    "resolved",
    "root cause",
    "postmortem",
    "post-mortem",
    "post mortem",
    "the fix",
    "fix applied",
    "status",
];

/// Whether the raw line is one item of a list (`- **Status:** RESOLVED` under a finding's
/// `- **Severity:**`, an answered open question's indented `**Resolved:** ...`): below the
/// document's head, its status is that item's, not the document's.
fn one_items(raw: &str) -> bool {
    crate::scan::markdown::list_item_body(raw).is_some()
        || (raw.starts_with([' ', '\t']) && !raw.trim().is_empty())
}

/// Whether the document is a list kept with its items' states ([`TRACKER_WORDS`] in its file
/// name or title).
fn tracker_named(doc: &DocText<'_>) -> bool {
    let name = doc
        .path
        .rsplit('/')
        .next()
        .unwrap_or("")
        .to_ascii_lowercase();
    let title = title(doc).unwrap_or_default();
    TRACKER_WORDS
        .iter()
        .any(|w| name.contains(w) || title.contains(w))
}

/// Whether the document's head, or the marker's paragraph and the one after it, says the
/// document keeps its history on purpose ([`keeps_history`]), or the marker's paragraphs say
/// the item is kept where it stands ([`KEPT_HERE_WORDS`]).
fn kept_as_history(doc: &DocText<'_>, line: u32) -> bool {
    use super::superseded::{flattened, kept_words_in, paragraphs_at};
    let head = (head_end(doc.parsed) as usize).saturating_sub(1);
    let own = paragraphs_at(doc.text, line, 2, 40);
    let own_lower = own.to_lowercase();
    let text = [flattened(doc.text.lines().take(head)), own].join(" ");
    keeps_history(&text)
        || kept_words_in(&text).is_some()
        || KEPT_HERE_WORDS.iter().any(|w| own_lower.contains(w))
}

/// Words of a section heading under which a resolved item is an answered question or a
/// decision ("## Open Questions" then "_Resolved:_ (1) both paths in scope; (2) ..."): the
/// answer is the document's content, not an incident's story. Published as
/// `scanner.resolved_answered_section_words`.
pub const ANSWERED_SECTION_WORDS: &[&str] = &["question", "decision"];

/// Whether the heading of the section holding `line` uses one of [`ANSWERED_SECTION_WORDS`].
fn in_answered_section(doc: &DocText<'_>, line: u32) -> bool {
    doc.parsed
        .headings
        .iter()
        .rev()
        .find(|h| h.line < line)
        .is_some_and(|h| {
            let raw = doc.line(h.line).to_lowercase();
            ANSWERED_SECTION_WORDS.iter().any(|w| raw.contains(w))
        })
}

fn marker(doc: &DocText<'_>) -> Option<u32> {
    if let Some((v, line)) = doc.parsed.frontmatter.get("status") {
        if RESOLVED_WORDS.contains(&first_word(v).as_str()) {
            return Some(line);
        }
    }
    static WORDS: crate::scan::markdown::Needles =
        crate::scan::markdown::Needles::new(MARKER_WORDS);
    if !WORDS.any_in(doc.lower_prose) {
        return None;
    }
    let heading_lines: Vec<u32> = doc.parsed.headings.iter().map(|h| h.line).collect();
    let head = head_end(doc.parsed);
    for (line, l) in prose_lines(&doc.parsed.prose) {
        let t = undecorate(l).to_ascii_lowercase();
        // The heading as written (code in it is blank in the prose): it must be the phrase
        // itself, perhaps with a date or a note after `:`, `(`, `-` (not "The Fix Loop", a
        // feature's name, nor "`$ref` Resolution", a section of a spec).
        if heading_lines.contains(&line) {
            let raw = doc.line(line).to_ascii_lowercase();
            let h_text = undecorate(&raw);
            if RESOLUTION_HEADINGS.iter().any(|h| {
                h_text.strip_prefix(h).is_some_and(|rest| {
                    let rest = rest.trim_end();
                    rest.is_empty()
                        || rest.starts_with([':', '(', '-', '\u{2014}'])
                        || rest.starts_with(" (")
                        || rest.starts_with(" -")
                        || rest.starts_with(" \u{2014}")
                        || rest.starts_with(" :")
                })
            }) && titled_as_incident(doc)
            {
                return Some(line);
            }
        }
        if line >= head && one_items(doc.line(line)) {
            continue;
        }
        let resolved_line =
            t.starts_with("resolved:") || (t.starts_with("resolution:") && titled_as_incident(doc));
        let resolved_status =
            || status_value(l).is_some_and(|v| RESOLVED_WORDS.contains(&first_word(v).as_str()));
        if (resolved_line || resolved_status()) && !in_answered_section(doc, line) {
            return Some(line);
        }
    }
    None
}

impl Detector for ResolvedNarrative {
    fn kind(&self) -> &'static str {
        "resolved-narrative"
    }

    fn on_text(&self, doc: &DocText<'_>) -> Vec<Finding> {
        let min = crate::scan::THRESHOLDS.resolved_narrative_min_words;
        if !at_least_words(&doc.parsed.prose, min as usize) {
            return Vec::new();
        }
        let Some(line) = marker(doc) else {
            return Vec::new();
        };
        if tracker_named(doc) || kept_as_history(doc, line) {
            return Vec::new();
        }
        let words = doc.parsed.prose.split_whitespace().count() as u32;
        let text: String = doc.line(line).trim().chars().take(120).collect();
        vec![Signal::ResolvedNarrative { line, text, words }.into()]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The pre-check's words cover every heading a marker may be.
    #[test]
    fn marker_words_cover_the_resolution_headings() {
        for h in RESOLUTION_HEADINGS {
            assert!(MARKER_WORDS.iter().any(|w| h.contains(w)), "{h}");
        }
    }
    use crate::scan::markdown::parse;
    use crate::scan::refs::Tree;

    fn signals(md: &str) -> Vec<Signal> {
        let parsed = parse(md);
        let tree = Tree::default();
        let lower = parsed.prose.to_ascii_lowercase();
        let doc = DocText {
            path: "docs/x.md",
            text: md,
            parsed: &parsed,
            freq: crate::report::InjectionFrequency::OnDemand,
            tree: &tree,
            lower_prose: &lower,
            role: crate::roles::Role::Living,
        };
        ResolvedNarrative
            .on_text(&doc)
            .into_iter()
            .map(|f| f.signal)
            .collect()
    }

    proptest::proptest! {
        #[test]
        fn word_threshold_agrees_with_split_whitespace(
            text in "[a \t\n\r\x0b\x0c\u{a0}é]{0,40}",
            n in 0usize..12,
        ) {
            proptest::prop_assert_eq!(
                at_least_words(&text, n),
                text.split_whitespace().count() >= n
            );
        }

        /// Across the blocks the count is taken in (a word may straddle two).
        #[test]
        fn word_threshold_agrees_across_blocks(
            text in "[ab \t\n]{0,3000}",
            n in 0usize..1600,
        ) {
            proptest::prop_assert_eq!(
                at_least_words(&text, n),
                text.split_whitespace().count() >= n
            );
        }
    }

    #[test]
    fn a_long_resolved_write_up_draws_it_and_a_short_or_open_one_does_not() {
        let story = "We looked at the cache, then the network, then the runners. ".repeat(60);
        let resolved =
            format!("# Slow builds regression\n\n{story}\n\n## Resolution\n\nThe linker flag was restored.\n");
        let s = signals(&resolved);
        assert!(
            matches!(s.as_slice(), [Signal::ResolvedNarrative { text, .. }] if text == "## Resolution"),
            "{s:?}"
        );
        let status = format!("# Slow builds\n\nStatus: fixed\n\n{story}\n");
        assert_eq!(signals(&status).len(), 1);
        // Open, short, or the word only in prose: nothing.
        assert!(signals(&format!(
            "# Slow builds\n\nStatus: investigating\n\n{story}\n"
        ))
        .is_empty());
        assert!(signals("# Bug\n\n## Resolution\n\nFixed the flag.\n").is_empty());
        // A resolution heading without an incident around it is a setting's name.
        assert!(signals(&format!(
            "# Video\n\n{story}\n\n### Resolution\n\nGiven as `{{width}}x{{height}}`.\n"
        ))
        .is_empty());
        assert!(signals(&format!(
            "# Guide\n\n{story}\n\nConflict resolution is covered elsewhere.\n"
        ))
        .is_empty());
        assert!(signals(&format!(
            "# Guide\n\n{story}\n\n## Resolutions of screens\n\nx\n"
        ))
        .is_empty());
        // An incident's words in the body of a guide, a troubleshooting step or a figure's
        // dpi, a joke post-mortem: the document is not a write-up of one investigation.
        for body in [
            "## Troubleshooting a hung process\n\nIt may crash.\n\n### Resolution\n\nKill it.\n",
            "## Figures\n\nResolution: 300 dpi for print, after the bug in the old exporter.\n",
            "## Memes\n\nIncident report #2847: the coffee ran out.\n\n## Post-Mortem\n\nBuy more.\n",
        ] {
            assert!(signals(&format!("# Guide\n\n{story}\n\n{body}")).is_empty(), "{body}");
        }
        // The same resolution in a write-up titled as one, or filed as one, draws it.
        assert_eq!(
            signals(&format!(
                "# Debugging the hung process\n\n{story}\n\nResolution: kill it.\n"
            ))
            .len(),
            1
        );
    }
}
