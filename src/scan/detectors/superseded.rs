//! `superseded-marker`: the document says it was superseded, replaced, deprecated or made
//! obsolete. To keep prose about deprecated APIs out, the word must be the document speaking
//! about itself: a frontmatter `status:`/`superseded_by:`, a status line, a line that starts
//! with the word (`> **Deprecated:** see ...`), or `This document is superseded ...`. A note
//! that names another subject (`**Deprecated**: The Sampling feature is ...`), a table row
//! of statuses, a wrapped sentence whose next line starts with the word ("has been / replaced
//! by ..."), a list item about a named thing (``- `x-workers` – deprecated.``), a status line
//! below the document's head (a section's API: `**Status:** DEPRECATED - Property will be
//! removed`) and a supersession "in part" are not about the whole document. Nor is a notice
//! whose successor was never written (`Superseded By: 6767-h`, no such file), nor a
//! "Deprecated." at the head of an API's reference page (the API's, while it ships).

use super::{
    first_word, head_end, prose_lines, status_value, undecorate, Detector, DocText, Finding,
};
use crate::report::Signal;
use crate::scan::refs::{resolve, Target};

/// Words that mean replaced.
pub const SUPERSEDED_WORDS: &[&str] = &["superseded", "replaced", "deprecated", "obsolete"];

/// File names (before the extension, any case) of a deprecation notice left where the
/// deprecated thing was.
pub const TOMBSTONE_NAMES: &[&str] = &["deprecated", "deprecation", "deprecation_notice"];

const SELF_NOUNS: &[&str] = &[
    "document", "doc", "file", "page", "plan", "note", "guide", "adr", "spec", "section", "rfc",
    "proposal", "decision", "readme",
];

/// Whether a prose line is a self-describing supersession marker.
pub fn is_marker(line: &str) -> bool {
    // A table row defines or lists statuses (`| superseded | Replaced by a newer SEP |`).
    if line.trim_start().starts_with('|') {
        return false;
    }
    // A heading that is only the word (`## Deprecated`) titles a section listing deprecated
    // things (a changelog's, a registry page's), not a note about the document.
    if line.trim_start().starts_with('#') && undecorate(line).split_whitespace().count() == 1 {
        return false;
    }
    // A reStructuredText directive (`.. deprecated:: 2.0`) in a docstring an API page renders
    // deprecates the object documented, not the page.
    if line.trim_start().starts_with("..") {
        return false;
    }
    if let Some(v) = status_value(line) {
        // `Status: superseded in part by RFC 2447`: the rest of the document still holds.
        return SUPERSEDED_WORDS.contains(&first_word(v).as_str())
            && !v.to_lowercase().contains(" in part");
    }
    let s = undecorate(line).to_lowercase();
    let words: Vec<&str> = s
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect();
    match words.as_slice() {
        [w, ..] if SUPERSEDED_WORDS.contains(w) && *w != "replaced" => {
            // `Deprecated: ...`, `**Superseded** by ...`, not `Deprecated APIs are listed below`.
            let at = s.find(w).map_or(0, |i| i + w.len());
            let rest = s[at..].trim_start_matches(['*', '_']);
            // `Deprecated: The Sampling feature is ...`, `Deprecated: the standalone `x`
            // binary ...`: a note about a subject the page documents, not about the page.
            let after: Vec<&str> = rest
                .trim_start_matches([':', '*', '_', ' '])
                .split(|c: char| !c.is_alphanumeric() && c != '`')
                .filter(|w| !w.is_empty())
                .take(2)
                .collect();
            // `Deprecated: This JSON configuration format is ...` names a subject too;
            // `Deprecated: this page ...` and `Deprecated: this is ...` speak of the page.
            let subject = after.first().is_some_and(|w| w.starts_with('`'))
                || (after.first().is_some_and(|w| {
                    matches!(*w, "the" | "a" | "an" | "these" | "those" | "following")
                }) && !after.get(1).is_some_and(|n| SELF_NOUNS.contains(n)))
                || (after.first() == Some(&"this")
                    && after.get(1).is_some_and(|n| {
                        !SELF_NOUNS.contains(n) && !matches!(*n, "is" | "was" | "has" | "will")
                    }));
            !subject
                && (rest.is_empty()
                    || [
                        ":", ".", "!", " by", " in favo", " since", " as of", " —", " -", " (",
                    ]
                    .iter()
                    .any(|p| rest.starts_with(p)))
        }
        ["replaced", "by", ..] => true,
        ["this", noun, rest @ ..] if SELF_NOUNS.contains(noun) => {
            let rest: Vec<&str> = rest
                .iter()
                .copied()
                .filter(|w| !matches!(*w, "is" | "has" | "been" | "was" | "now"))
                .collect();
            rest.first().is_some_and(|w| SUPERSEDED_WORDS.contains(w))
        }
        _ => false,
    }
}

/// Whether a marker line names the document as its subject (`This guide is deprecated`): it
/// holds anywhere in the document. A status line does only in the head: below it, each
/// section's `**Status:** DEPRECATED - Property will be removed` is the status of the API the
/// section is about (an upgrade guide's fourteen of them), as `status-done` reads a section's
/// status as its item's.
fn speaks_of_itself(line: &str) -> bool {
    let s = undecorate(line).to_lowercase();
    // ("Replaced by" alone may title one field's note: `x` replaced by `y`, code blanked.)
    s.split_whitespace().next() == Some("this")
}

/// Whether `line` goes on with the sentence of the line before it (a wrapped paragraph: "The
/// legacy trio has been / replaced by ..."): it starts in lower case after a line that ends
/// without a stop. The word is then mid-sentence, about the sentence's subject.
///
/// ```
/// use hygiene::scan::detectors::superseded::continues;
/// assert!(continues("The legacy `x` trio has been", "replaced by **metadata**."));
/// assert!(!continues("", "replaced by `y`.") && !continues("See below.", "replaced by `y`."));
/// assert!(!continues("Date: 2026-01-02", "Status: superseded"));
/// ```
pub fn continues(before: &str, line: &str) -> bool {
    let b = before.trim_end();
    !b.is_empty()
        && !b.ends_with(['.', '!', '?', ':', ')', '|', '>'])
        && !is_list_item(line)
        && undecorate(line).starts_with(|c: char| c.is_lowercase())
}

/// Whether `line` is an item of a list (`- x`, `* x`, `1. x`:
/// [`crate::scan::markdown::list_item_body`]).
fn is_list_item(line: &str) -> bool {
    crate::scan::markdown::list_item_body(line).is_some()
}

/// Whether a list item's text begins with the code name of what it is about (``-
/// `adapter-cloudflare-workers` – deprecated.``): the word that follows is that item's note.
///
/// ```
/// use hygiene::scan::detectors::superseded::names_an_item;
/// assert!(names_an_item("- `adapter-cloudflare-workers` \u{2013} deprecated. Supports ..."));
/// assert!(!names_an_item("> **Deprecated:** see `v2`") && !names_an_item("Deprecated."));
/// ```
pub fn names_an_item(text: &str) -> bool {
    crate::scan::markdown::list_item_body(text).is_some_and(|b| b.starts_with('`'))
}

/// Words by which a supersession notice says the document stays on purpose ("Superseded
/// (2026-07-21). ... Kept as the historical record."): its maintainers decided, and it is no
/// leftover to update or remove. Published as `scanner.superseded_kept_words`.
pub const KEPT_WORDS: &[&str] = &[
    "kept as the historical record",
    "kept as a historical record",
    "kept as the record",
    "kept as a record",
    "kept for the record",
    "kept for reference",
    "kept for history",
    "kept for historical reference",
    "retained as the historical record",
    "retained as a historical record",
    "retained for reference",
    "kept as the design record",
    "retained as the design record",
];

/// The first of [`KEPT_WORDS`] that `text` holds (in any case), if any: the document says it is
/// kept on purpose.
///
/// ```
/// use hygiene::scan::detectors::superseded::kept_words_in;
/// assert_eq!(kept_words_in("Implemented in #42 and Retained as the design record.\n"), Some("retained as the design record"));
/// assert_eq!(kept_words_in("# Plan\n\nKeep going.\n"), None);
/// ```
pub fn kept_words_in(text: &str) -> Option<&'static str> {
    let lower = text.to_lowercase();
    KEPT_WORDS.iter().copied().find(|w| lower.contains(w))
}

/// Whether the notice at line `line` (1-based) of `text`, with the lines of its paragraph
/// after it, says the document is kept on purpose ([`KEPT_WORDS`]).
///
/// ```
/// use hygiene::scan::detectors::superseded::kept_on_purpose;
/// let t = "# Bench\n\n> **Superseded (2026-07-21).** The refreshed benchmark\n> adopted luna. Kept as the historical record.\n\nBody.\n";
/// assert!(kept_on_purpose(t, 3));
/// assert!(!kept_on_purpose("# Plan\n\n> **Superseded** by `plan-b.md`.\n\nKept as the historical record.\n", 3));
/// ```
pub fn kept_on_purpose(text: &str, line: u32) -> bool {
    kept_words_in(&paragraphs_at(text, line, 1, 12)).is_some()
}

/// The lines of `text` from line `line` (1-based) through the end of its `count`-th paragraph
/// (a blank line, blockquote marks aside, ends one), at most `max_lines` of them,
/// [`flattened`]: the notice and what it says next.
///
/// ```
/// use hygiene::scan::detectors::superseded::paragraphs_at;
/// let t = "# T\n\n> **Superseded.** See\n> `b.md`.\n>\n> Kept.\n\nBody.\n";
/// assert_eq!(paragraphs_at(t, 3, 1, 12), "**superseded.** see `b.md`.");
/// assert_eq!(paragraphs_at(t, 3, 2, 40), "**superseded.** see `b.md`. kept.");
/// ```
pub fn paragraphs_at(text: &str, line: u32, count: usize, max_lines: usize) -> String {
    let mut kept = Vec::new();
    let (mut ended, mut in_paragraph) = (0, false);
    for l in text
        .lines()
        .skip((line as usize).saturating_sub(1))
        .take(max_lines)
    {
        if !l.trim().trim_start_matches('>').trim().is_empty() {
            in_paragraph = true;
            kept.push(l);
        } else if in_paragraph {
            in_paragraph = false;
            ended += 1;
            if ended == count {
                break;
            }
        } else if kept.is_empty() {
            break;
        }
    }
    flattened(kept)
}

/// `lines` as one lowercase line: joined, blockquote marks inside dropped, white space
/// collapsed (a notice wrapped over quoted lines reads as one sentence).
pub fn flattened<'a>(lines: impl IntoIterator<Item = &'a str>) -> String {
    let text = lines
        .into_iter()
        .collect::<Vec<_>>()
        .join(" ")
        .replace("> ", " ")
        .to_lowercase();
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Folders of an API's reference pages: a page there documents an API, and a "Deprecated."
/// at its head is that API's status while it still ships (mcp-use's response helpers
/// "remain for upgrade compatibility"), not the page's. Published as
/// `scanner.superseded_reference_folders`.
pub const REFERENCE_FOLDERS: &[&str] = &["api-reference", "api-ref", "api-docs", "reference"];

/// The successor a notice names without a link ("**Superseded By**: 6767-h (master spec)",
/// `superseded_by: "2026-06-19-surface-reduction"`), when it is a document's id: one token
/// with a digit and a `-` or `_` in it (not a version, `v2.0`), no spaces.
///
/// ```
/// use hygiene::scan::detectors::superseded::named_successor;
/// assert_eq!(named_successor("**Superseded By**: 6767-h (master spec)"), Some("6767-h".into()));
/// assert_eq!(named_successor("Status: superseded by the final decision in PR #2341"), None);
/// assert_eq!(named_successor("> **Deprecated:** see `v2`"), None);
/// assert_eq!(named_successor("Replaced by v2.0 of the API."), None);
/// ```
pub fn named_successor(line: &str) -> Option<String> {
    let lower = line.to_lowercase();
    let at = lower.find(" by")? + 3;
    let rest = lower[at..].trim_start_matches(['*', '_', ':', ' ', '"', '\'', '`']);
    let token: String = rest
        .chars()
        .take_while(|c| c.is_alphanumeric() || matches!(c, '-' | '_' | '.'))
        .collect();
    let token = token.trim_end_matches('.').to_string();
    (token.chars().any(|c| c.is_ascii_digit()) && token.contains(['-', '_'])).then_some(token)
}

/// Whether no file of the tree is named with `id` (any case), nor with its number when a
/// series names it (`adr-0012` as `0012-use-postgres.md`): the successor was never written,
/// and the document still stands.
fn never_written(tree: &crate::scan::refs::Tree, id: &str) -> bool {
    let number = id
        .trim_start_matches(|c: char| c.is_alphabetic())
        .trim_start_matches(['-', '_']);
    !tree.basenames.iter().any(|b| {
        let b = b.to_lowercase();
        b.contains(id) || (!number.is_empty() && b.contains(number))
    })
}

/// The detector.
pub struct Superseded;

impl Detector for Superseded {
    fn kind(&self) -> &'static str {
        "superseded-marker"
    }

    fn on_text(&self, doc: &DocText<'_>) -> Vec<Finding> {
        // A tombstone (`packages/google-ai/DEPRECATED.md`) says so by its name: saying it is
        // its whole job.
        let stem = doc.path.rsplit('/').next().unwrap_or("");
        let stem = stem.split('.').next().unwrap_or("").to_ascii_lowercase();
        if TOMBSTONE_NAMES.contains(&stem.as_str()) {
            return Vec::new();
        }
        let fm = &doc.parsed.frontmatter;
        for key in [
            "superseded_by",
            "superseded-by",
            "replaced_by",
            "replaced-by",
        ] {
            if let Some((v, line)) = fm.get(key) {
                if named_successor(&format!(" by {v}"))
                    .is_some_and(|id| never_written(doc.tree, &id))
                {
                    return Vec::new();
                }
                let by = (!v.is_empty()).then(|| v.to_string());
                return vec![Signal::SupersededMarker { line, by }.into()];
            }
        }
        let mut hit = fm
            .get("status")
            .filter(|(v, _)| SUPERSEDED_WORDS.contains(&first_word(v).as_str()))
            .map(|(_, l)| l);
        // Searchers built once: every document is asked.
        static MENTIONS: crate::scan::markdown::Needles =
            crate::scan::markdown::Needles::new(&["supersed", "deprecat", "obsolete", "replaced"]);
        let mentions = MENTIONS.any_in(doc.lower_prose);
        if hit.is_none() && mentions {
            let head = head_end(doc.parsed);
            let lines: Vec<&str> = prose_lines(&doc.parsed.prose).map(|(_, l)| l).collect();
            hit = (0..lines.len())
                .find(|&i| {
                    let (n, l) = (i as u32 + 1, lines[i]);
                    is_marker(l)
                        && (n < head || speaks_of_itself(l))
                        && !(i > 0 && continues(lines[i - 1], l))
                        && !names_an_item(doc.text.split('\n').nth(i).unwrap_or(""))
                })
                .map(|i| i as u32 + 1);
        }
        let Some(line) = hit else {
            return Vec::new();
        };
        if kept_on_purpose(doc.text, line) {
            return Vec::new();
        }
        let raw = doc.line(line);
        if named_successor(raw).is_some_and(|id| never_written(doc.tree, &id)) {
            return Vec::new();
        }
        // An API's reference page: its "Deprecated." is the API's, while the API ships.
        let in_reference =
            super::in_folder_named(&doc.path.to_ascii_lowercase(), REFERENCE_FOLDERS);
        if in_reference && undecorate(raw).to_lowercase().starts_with("deprecated") {
            return Vec::new();
        }
        // `by`: the first link on the marker line (or the next one), resolved when it exists.
        let by = doc
            .parsed
            .refs
            .iter()
            .find(|r| r.line == line || r.line == line + 1)
            .map(|r| match resolve(doc.tree, doc.path, r) {
                Target::Found { path: Some(p), .. } => p,
                _ => r.dest.clone(),
            });
        vec![Signal::SupersededMarker { line, by }.into()]
    }
}

#[cfg(test)]
mod tests {
    use super::{is_list_item, is_marker};

    #[test]
    fn list_items_need_a_space_after_the_mark() {
        assert!(is_list_item("- **Status**: x") && is_list_item("  * y") && is_list_item("2. z"));
        assert!(!is_list_item("**Deprecated:** x") && !is_list_item("2026.01 z"));
    }

    #[test]
    fn markers_speak_about_the_document() {
        assert!(!is_marker("## Deprecated") && !is_marker("### **Deprecated**"));
        for yes in [
            "> **Superseded** by [new](new.md).",
            "**Deprecated:** use the v2 guide",
            "DEPRECATED",
            "Status: Superseded",
            "This document has been replaced by the ADR.",
            "Replaced by `docs/new.md`.",
            "> [!WARNING] Obsolete since 2024",
            "**Deprecated:** this guide is kept for reference",
            "DEPRECATED: This is no longer maintained.",
        ] {
            assert!(is_marker(yes), "{yes}");
        }
        for no in [
            "**Deprecated**: The Sampling feature is deprecated as of protocol version",
            "> **Deprecated:** The standalone `beads-merge` binary is no longer maintained.",
            "**Deprecated**: The following client primitives are deprecated.",
            "| `superseded` | Replaced by a newer SEP |",
            "Deprecated APIs are listed below.",
            "We replaced the parser last year.",
            "- the `old()` call is deprecated",
            "Status: active",
            "This document explains deprecated flags.",
            ".. deprecated::",
            "> **⚠️ DEPRECATED:** This JSON configuration format is deprecated and kept for legacy use.",
            "Status: superseded in part by RFC 2447",
        ] {
            assert!(!is_marker(no), "{no}");
        }
    }
}
