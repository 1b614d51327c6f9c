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
