//! The line model every text op shares: 1-based inclusive anchors over lines that keep their
//! own terminators, so an edit preserves LF/CRLF and the presence or absence of a final newline.

/// The file's lines, each with its terminator (the last one may have none).
pub fn lines(text: &str) -> Vec<&str> {
    text.split_inclusive('\n').collect()
}

/// The file's line ending: CRLF when its first line ends so, else LF.
pub fn eol(text: &str) -> &'static str {
    match text.find('\n') {
        Some(i) if i > 0 && text.as_bytes()[i - 1] == b'\r' => "\r\n",
        _ => "\n",
    }
}

/// Collapses every run of whitespace to one space and trims: the comparison `dedupe` and the
/// scanner's duplicate detector agree on.
///
/// ```
/// # use hygiene::apply::text::fold;
/// assert_eq!(fold("  a\tb\r\n\n c "), "a b c");
/// ```
pub fn fold(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Checks a 1-based inclusive anchor against a file of `n` lines.
pub fn check_anchor(n: usize, start: u32, end: u32) -> Result<(), String> {
    if start == 0 || end < start {
        return Err(format!("anchor lines {start}-{end} is not a 1-based range"));
    }
    if end as usize > n {
        return Err(format!(
            "anchor lines {start}-{end} runs past the end of the file ({n} lines)"
        ));
    }
    Ok(())
}

/// The text of lines `start..=end` (anchor already checked).
pub fn span(text: &str, start: u32, end: u32) -> String {
    lines(text)[start as usize - 1..end as usize].concat()
}

/// The lines a removal of lines `start..=end` takes, so that the page keeps one blank line
/// between the block's neighbours, not two (markdownlint's MD012), and ends without a blank
/// line: the blank line after the block when one stays before it (or the block opens the
/// file), or, for a block that ends the file, the blank line before it.
///
/// ```
/// use hygiene::apply::text::removal_span;
/// assert_eq!(removal_span("# T\n\nx\n\n## A\n", 3, 3), (3, 4));
/// assert_eq!(removal_span("# T\nx\n\n## A\n", 2, 2), (2, 2));
/// assert_eq!(removal_span("x\n\ny\n", 1, 1), (1, 2));
/// assert_eq!(removal_span("# T\n\nx\n", 3, 3), (2, 3));
/// assert_eq!(removal_span("# T\nx\n", 2, 2), (2, 2));
/// ```
pub fn removal_span(text: &str, start: u32, end: u32) -> (u32, u32) {
    let ls = lines(text);
    let blank = |n: u32| n >= 1 && ls.get(n as usize - 1).is_some_and(|l| l.trim().is_empty());
    let last = end as usize >= ls.len();
    if (start == 1 || blank(start - 1)) && blank(end + 1) {
        (start, end + 1)
    } else if last && start > 1 && blank(start - 1) {
        (start - 1, end)
    } else {
        (start, end)
    }
}

/// `text` with lines `start..=end` replaced by `middle` (anchor already checked). When the
/// replaced lines were the file's tail and the file had no final newline, the new last line
/// loses its terminator too, so the file keeps its final-newline state.
pub fn splice(text: &str, start: u32, end: u32, middle: &str) -> String {
    let ls = lines(text);
    let (s, e) = (start as usize - 1, end as usize);
    let mut out = String::with_capacity(text.len() + middle.len());
    out.push_str(&ls[..s].concat());
    out.push_str(middle);
    out.push_str(&ls[e..].concat());
    let had_final_newline = text.is_empty() || text.ends_with('\n');
    if e == ls.len() && !had_final_newline && middle.is_empty() {
        if let Some(stripped) = out.strip_suffix("\r\n").or_else(|| out.strip_suffix('\n')) {
            out.truncate(stripped.len());
        }
    }
    out
}

/// `existing` with `block` appended on a line of its own; the result ends with a newline.
pub fn append(existing: &str, block: &str, eol: &str) -> String {
    let mut out = existing.to_string();
    if !out.is_empty() && !out.ends_with('\n') {
        out.push_str(eol);
    }
    out.push_str(block);
    if !out.ends_with('\n') {
        out.push_str(eol);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splice_keeps_missing_final_newline() {
        assert_eq!(splice("a\nb\nc", 3, 3, ""), "a\nb");
        assert_eq!(splice("a\nb\nc\n", 3, 3, ""), "a\nb\n");
        assert_eq!(splice("a\r\nb\r\nc", 2, 3, ""), "a");
        assert_eq!(splice("a\nb\nc\n", 1, 1, ""), "b\nc\n");
        assert_eq!(splice("a\nb\nc", 2, 2, "x\n"), "a\nx\nc");
    }

    #[test]
    fn anchors_past_eof_are_refused() {
        assert!(check_anchor(3, 3, 4).is_err());
        assert!(check_anchor(3, 0, 1).is_err());
        assert!(check_anchor(3, 2, 1).is_err());
        assert!(check_anchor(3, 1, 3).is_ok());
    }

    #[test]
    fn eol_and_append() {
        assert_eq!(eol("a\r\nb"), "\r\n");
        assert_eq!(eol("a\nb"), "\n");
        assert_eq!(append("x", "y", "\n"), "x\ny\n");
        assert_eq!(append("", "y\r\n", "\r\n"), "y\r\n");
    }
}
