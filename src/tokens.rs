//! Token counts with a local BPE tokenizer, no API call.
//!
//! Claude's own tokenizer is not public; `cl100k_base` is a close, fast, well-tested stand-in
//! that undercounts Claude (users report 1.2–2×), so every place a count is shown names the
//! encoding ([`ENCODING`], published by `hygiene policy`). `bpe-openai` was chosen over
//! `tiktoken-rs` because it gives identical counts at about twice the speed and starts faster.

/// The encoding every count in a report uses.
pub const ENCODING: &str = "cl100k_base";

/// The number of `cl100k_base` tokens in `text`.
///
/// ```
/// assert_eq!(hygiene::tokens::count(""), 0);
/// assert_eq!(hygiene::tokens::count("hello world"), 2);
/// ```
pub fn count(text: &str) -> u64 {
    if text.is_empty() {
        return 0;
    }
    bpe_openai::cl100k_base().count(text) as u64
}

#[cfg(test)]
mod tests {
    use super::count;
    use proptest::prelude::*;

    // The scan never tokenizes a document of at most `threshold` bytes for `oversize` (and the
    // cache keeps counts it took): that stands on every token covering at least one byte.
    proptest! {
        #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]
        #[test]
        fn a_text_has_at_most_one_token_per_byte(s in any::<String>()) {
            prop_assert!(count(&s) <= s.len() as u64);
        }

        #[test]
        fn markdown_like_text_has_at_most_one_token_per_byte(
            s in "[ \t\n#*_`>\\-\\[\\]()!a-zA-Z0-9\u{e9}\u{4e2d}\u{1f600}]{0,400}"
        ) {
            prop_assert!(count(&s) <= s.len() as u64);
        }
    }

    #[test]
    fn single_characters_of_every_width() {
        for s in [
            "a",
            " ",
            "\n",
            "\u{e9}",
            "\u{4e2d}",
            "\u{1f600}",
            "\u{0}",
            "\u{7f}",
        ] {
            let n = count(s);
            assert!(n >= 1 && n <= s.len() as u64, "{s:?}: {n}");
        }
    }
}
