//! `provisional-marker`: DRAFT, WIP, TODO, TBD, FIXME or PLACEHOLDER written in capitals as a
//! word of prose (not in code, not part of a file name like `TODO.md`), or a frontmatter or
//! status line whose first word is draft, wip or placeholder. Lowercase prose ("a draft of the
//! API") is not a marker.

use super::{first_word, prose_lines, status_value, Detector, DocText, Finding};
use crate::report::Signal;

/// The capitalised marker words.
pub const MARKERS: &[&str] = &["DRAFT", "WIP", "TODO", "TBD", "FIXME", "PLACEHOLDER"];

/// Status values that mean provisional.
pub const STATUS_WORDS: &[&str] = &["draft", "wip", "placeholder"];

/// How many marker words `line` holds. A line naming three or more different markers is a list
/// of the words (documentation about markers), not a marker, and counts zero.
pub fn count_markers(line: &str) -> u32 {
    let b = line.as_bytes();
    let mut n = 0;
    let mut kinds = 0;
    for m in MARKERS {
        let before_n = n;
        for (i, _) in line.match_indices(m) {
            let before = i.checked_sub(1).map(|j| b[j]);
            let after = b.get(i + m.len()).copied();
            let after2 = b.get(i + m.len() + 1).copied();
            let word_before =
                before.is_some_and(|c| c.is_ascii_alphanumeric() || b"_/.-".contains(&c));
            let word_after = after
                .is_some_and(|c| c.is_ascii_alphanumeric() || c == b'_' || c == b'/')
                || (matches!(after, Some(b'.' | b'-'))
                    && after2.is_some_and(|c| c.is_ascii_alphanumeric()));
            if !word_before && !word_after {
                n += 1;
            }
        }
        kinds += u32::from(n > before_n);
    }
    if kinds >= 3 {
        0
    } else {
        n
    }
}

/// The detector.
pub struct Provisional;

impl Detector for Provisional {
    fn kind(&self) -> &'static str {
        "provisional-marker"
    }

    fn on_text(&self, doc: &DocText<'_>) -> Vec<Finding> {
        let mut count = 0;
        let mut lines = Vec::new();
        if let Some((v, line)) = doc.parsed.frontmatter.get("status") {
            if STATUS_WORDS.contains(&first_word(v).as_str()) {
                count += 1;
                lines.push(line);
            }
        }
        let any = MARKERS.iter().any(|m| doc.parsed.prose.contains(m))
            || doc.lower_prose.contains("status");
        for (line, l) in prose_lines(&doc.parsed.prose).filter(|_| any) {
            let mut n = count_markers(l);
            if n == 0 {
                if let Some(v) = status_value(l) {
                    n = u32::from(STATUS_WORDS.contains(&first_word(v).as_str()));
                }
            }
            if n > 0 {
                count += n;
                lines.push(line);
            }
        }
        if count == 0 {
            return Vec::new();
        }
        vec![Signal::ProvisionalMarker { count, lines }.into()]
    }
}

#[cfg(test)]
mod tests {
    use super::count_markers;

    #[test]
    fn capital_words_only() {
        assert_eq!(count_markers("TODO: x. FIXME (TODO)"), 3);
        assert_eq!(
            count_markers("DRAFT, WIP, TODO, TBD, FIXME, placeholder"),
            0
        );
        assert_eq!(
            count_markers("see TODO.md and docs/TODO and TODO-list and todo"),
            0
        );
        assert_eq!(count_markers("A DRAFT; TBD."), 2);
    }
}
