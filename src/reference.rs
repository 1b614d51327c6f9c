//! What a `replace-text` may swap: one broken reference for another that resolves.
//!
//! The frozen contract characterizes `replace-text` as non-destructive, so it derives `auto`
//! and runs with nobody looking. That is only true of a narrow edit: pointing a reference that
//! no longer resolves (a path git renamed, a heading anchor, a code symbol) at one that does,
//! where the reference stands on its own in the line. Replacing "Never" with "Always", or a
//! sentence with `.`, or `src/config.rs` inside `legacy/src/config.rs`, changes what a
//! document says. So [`form_problem`] (text only: the validator's rule) and [`swap_problem`]
//! (against the tree: finalize's and apply's) refuse every other replace-text; such an edit is
//! a generative op, which asks.

use crate::scan::markdown::{code_ident, extension, looks_like_path, parse, strip_bom};
use crate::scan::refs::{folder, normalize, percent_decode, split};
use std::path::Path;

/// The kinds of reference a replace-text may swap.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RefKind {
    /// A file path or link target, optionally with `#fragment`.
    Path,
    /// A heading anchor in the same document (`#fragment`).
    Anchor,
    /// A code symbol: a call (`load()`), a path (`Repo::open`) or a `snake_case` name.
    Symbol,
}

/// The kind of reference `s` is by its form, if it is one.
///
/// ```
/// use hygiene::reference::{kind, RefKind};
/// assert_eq!(kind("docs/a.md"), Some(RefKind::Path));
/// assert_eq!(kind("../a.md#setup"), Some(RefKind::Path));
/// assert_eq!(kind("#setup"), Some(RefKind::Anchor));
/// assert_eq!(kind("Repo::open"), Some(RefKind::Symbol));
/// assert_eq!(kind("load_config"), Some(RefKind::Symbol));
/// assert_eq!(kind("Never"), None);
/// assert_eq!(kind("see the docs"), None);
/// assert_eq!(kind("."), None);
/// ```
pub fn kind(s: &str) -> Option<RefKind> {
    if s.is_empty() || s.chars().any(char::is_whitespace) {
        return None;
    }
    if let Some(frag) = s.strip_prefix('#') {
        return (!frag.is_empty() && !frag.contains('#')).then_some(RefKind::Anchor);
    }
    let path_part = split(s).written;
    let pathish = looks_like_path(path_part)
        || (extension(path_part).is_some()
            && path_part
                .chars()
                .all(|c| c.is_alphanumeric() || matches!(c, '.' | '_' | '-' | '/')));
    if pathish {
        return Some(RefKind::Path);
    }
    code_ident(s).map(|_| RefKind::Symbol)
}

/// The text-only rule for a replace-text's `match` and `replacement`: both are references of
/// the same kind, and they differ.
pub fn form_problem(m: &str, r: &str) -> Option<String> {
    match (kind(m), kind(r)) {
        (Some(a), Some(b)) if a == b && m != r => None,
        (Some(_), Some(_)) if m == r => Some("`match` and `replacement` are the same".into()),
        (Some(a), Some(b)) => Some(format!(
            "`match` is a {a:?} reference but `replacement` is a {b:?} reference; a replace-text swaps like for like"
        )),
        _ => Some(format!(
            "a replace-text swaps one reference for another (a path, link target, `#anchor` or code symbol, with no spaces); {m:?} -> {r:?} changes prose, which is a generative op that asks the user"
        )),
    }
}

fn is_ref_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'/' | b'.' | b'~' | b'#' | b'%')
}

/// Byte offsets where `m` occurs in `line` as a whole reference: not preceded or followed by a
/// character that would continue it (a trailing `.` followed by a space is sentence punctuation,
/// not part of the reference). A path is whole before a `#`: that starts its fragment
/// (`src/a.rs#L59`), which a swap of the path keeps.
///
/// ```
/// use hygiene::reference::whole_occurrences;
/// assert_eq!(whole_occurrences("see `src/a.rs`.", "src/a.rs"), vec![5]);
/// assert!(whole_occurrences("see legacy/src/a.rs", "src/a.rs").is_empty());
/// assert!(whole_occurrences("see src/a.rs.bak", "src/a.rs").is_empty());
/// assert_eq!(whole_occurrences("[a](src/a.rs#L59)", "src/a.rs"), vec![4]);
/// assert!(whole_occurrences("[a](#src/a.rs)", "src/a.rs").is_empty());
/// ```
pub fn whole_occurrences(line: &str, m: &str) -> Vec<usize> {
    let b = line.as_bytes();
    let fragment_may_follow = !m.contains('#') && kind(m) == Some(RefKind::Path);
    line.match_indices(m)
        .map(|(i, _)| i)
        .filter(|&i| {
            let before_ok = i == 0 || !is_ref_byte(b[i - 1]);
            let j = i + m.len();
            let after_ok = match b.get(j) {
                None => true,
                Some(b'.') => !b.get(j + 1).is_some_and(|&c| is_ref_byte(c)),
                Some(b'#') => fragment_may_follow,
                Some(&c) => !is_ref_byte(c),
            };
            before_ok && after_ok
        })
        .collect()
}

/// The anchors (heading slugs and explicit ids) of a Markdown file under `root`.
fn anchors_of(root: &Path, rel: &str) -> Option<Vec<String>> {
    let full = crate::paths::resolve_inside(root, rel, false).ok()?;
    let meta = std::fs::metadata(&full).ok()?;
    if !meta.is_file() || meta.len() > crate::scan::THRESHOLDS.file_size_cap_bytes {
        return None;
    }
    let text = String::from_utf8(std::fs::read(full).ok()?).ok()?;
    Some(parse(strip_bom(&text)).anchors)
}

fn exists(root: &Path, rel: &str) -> bool {
    crate::paths::resolve_inside(root, rel, false)
        .ok()
        .is_some_and(|p| std::fs::symlink_metadata(p).is_ok())
}

/// Whether reference `s`, written in root-relative document `doc`, resolves in the tree now.
pub fn resolves(root: &Path, doc: &str, s: &str) -> bool {
    match kind(s) {
        Some(RefKind::Anchor) => {
            anchors_of(root, doc).is_some_and(|a| a.contains(&s[1..].to_lowercase()))
        }
        Some(RefKind::Path) => {
            let sp = split(s);
            let written = percent_decode(sp.written);
            let target = [normalize(folder(doc), &written), normalize("", &written)]
                .into_iter()
                .flatten()
                .find(|c| exists(root, c));
            match (target, sp.fragment) {
                (None, _) => false,
                (Some(_), None) => true,
                (Some(_), Some(f))
                    if f.is_empty()
                        || crate::scan::detectors::missing_anchor::is_line_fragment(f) =>
                {
                    true
                }
                (Some(t), Some(f)) => {
                    let markdown = extension(&t).is_some_and(|e| {
                        matches!(
                            e.to_ascii_lowercase().as_str(),
                            "md" | "markdown" | "mdx" | "mdc"
                        )
                    });
                    !markdown || anchors_of(root, &t).is_none_or(|a| a.contains(&f.to_lowercase()))
                }
            }
        }
        Some(RefKind::Symbol) => symbol_found(root, s),
        None => false,
    }
}

/// Whether a symbol's names occur as identifier tokens in the tracked source.
fn symbol_found(root: &Path, s: &str) -> bool {
    let Some((ident, _)) = code_ident(s) else {
        return false;
    };
    let names = crate::scan::detectors::missing_symbol::names(&ident);
    let is_source = |p: &String| crate::scan::detectors::missing_symbol::maybe_source(p);
    let Some(repo) = crate::git::Repo::discover(root) else {
        return false;
    };
    let mut sources: Vec<String> = repo.tracked().into_iter().filter(is_source).collect();
    sources.sort();
    let wanted = names.iter().map(|n| n.to_string()).collect();
    let found = crate::scan::detectors::missing_symbol::find_in_source(root, &sources, &wanted);
    !names.is_empty() && names.iter().all(|n| found.contains(*n))
}

/// Why swapping `m` for `r` in `line` of root-relative `doc` is not a reference fix, if it is
/// not: the form rule, then `m` occurs only as whole references, `r` resolves, `m` does not,
/// and the line does not already name `r` (then it records the move rather than being stale).
pub fn swap_problem(root: &Path, doc: &str, line: &str, m: &str, r: &str) -> Option<String> {
    if let Some(p) = line_problem(line, m, r) {
        return Some(p);
    }
    if resolves(root, doc, m) {
        return Some(format!(
            "`{m}` still resolves; a replace-text only repairs a broken reference"
        ));
    }
    if !resolves(root, doc, r) {
        return Some(format!(
            "the replacement `{r}` does not resolve in the repository"
        ));
    }
    None
}

/// The part of [`swap_problem`] that reads only the line: the form rule, `m` occurs only as
/// whole references, and the line does not already name `r`. The scanner asks it before it
/// suggests a swap, so that finalize never has to refuse one of the scanner's own.
pub fn line_problem(line: &str, m: &str, r: &str) -> Option<String> {
    if let Some(p) = form_problem(m, r) {
        return Some(p);
    }
    let all = line.matches(m).count();
    let whole = whole_occurrences(line, m).len();
    if whole == 0 {
        return Some(format!(
            "`{m}` does not occur on its own in the line (only inside a longer reference)"
        ));
    }
    if whole != all {
        return Some(format!(
            "`{m}` occurs in the line both on its own and inside a longer reference; which one is meant is ambiguous"
        ));
    }
    if !whole_occurrences(line, r).is_empty() {
        return Some(format!(
            "the line already names `{r}`: it records the move rather than pointing at the old name"
        ));
    }
    None
}

/// `line` with every whole occurrence of `m` replaced by `r`.
pub fn replace_whole(line: &str, m: &str, r: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut last = 0;
    for i in whole_occurrences(line, m) {
        out.push_str(&line[last..i]);
        out.push_str(r);
        last = i + m.len();
    }
    out.push_str(&line[last..]);
    out
}
