//! `missing-symbol`: a backticked code identifier occurs nowhere in the tracked source.
//!
//! Precision first: an identifier is checked only when it has a path form (`Repo::history`), or
//! when the document also references source files (then a call `run()` and a bare
//! `snake_case_name` count too). A call alone in a document that points at no source is as
//! likely a library or language function (`unwrap()`, `format!()`) as a stale name. "Occurs" means appears as an identifier token in any tracked
//! source file, not "is defined", so a call to a library function the code uses is found. A
//! repository without source files checks no symbols.

use super::{Detector, Doc, Finding, TreeCtx};
use crate::report::Signal;
use crate::scan::markdown::{extension, Parsed, SOURCE_EXTENSIONS};
use std::collections::HashSet;

/// The detector.
pub struct MissingSymbol;

const SKIP: &[&str] = &["self", "Self", "crate", "super"];

/// The identifiers that must occur for `ident` to be found: the last segment, plus type-like
/// (capitalised) segments of a `::` path.
pub fn names(ident: &str) -> Vec<&str> {
    let segs: Vec<&str> = ident.split("::").flat_map(|s| s.split('.')).collect();
    let mut out: Vec<&str> = Vec::new();
    if let Some(last) = segs.last() {
        out.push(last);
    }
    if ident.contains("::") {
        for s in &segs[..segs.len().saturating_sub(1)] {
            if s.starts_with(|c: char| c.is_ascii_uppercase()) {
                out.push(s);
            }
        }
    }
    out.retain(|s| !SKIP.contains(s));
    out
}

/// Whether the document references a source file.
pub fn references_source(p: &Parsed) -> bool {
    p.refs.iter().any(|r| {
        let w = crate::scan::refs::split(&r.dest).written;
        extension(crate::scan::markdown::strip_line_suffix(w))
            .is_some_and(|e| SOURCE_EXTENSIONS.iter().any(|s| s.eq_ignore_ascii_case(e)))
    })
}

/// The identifiers of `p` that are checked, with their lines.
pub fn checked(p: &Parsed) -> Vec<(u32, &str)> {
    let src = references_source(p);
    p.idents
        .iter()
        .filter(|i| (i.strong && i.text.contains("::")) || src)
        .map(|i| (i.line, i.text.as_str()))
        .collect()
}

/// Reads `files` (root-relative source files) and returns which of `wanted` occur in them as
/// identifier tokens. Uses every core.
pub fn find_in_source(
    root: &std::path::Path,
    files: &[String],
    wanted: &HashSet<String>,
) -> HashSet<String> {
    let found = std::sync::Mutex::new(HashSet::new());
    crate::scan::walk::par_each(files, |rel| {
        let local = find_in_file(root, rel, wanted);
        if !local.is_empty() {
            if let Ok(mut f) = found.lock() {
                f.extend(local);
            }
        }
    });
    found.into_inner().unwrap_or_default()
}

/// Which of `wanted` occur as identifier tokens in the root-relative source file `rel` (none
/// when it is not a readable regular file within the size cap).
pub fn find_in_file(root: &std::path::Path, rel: &str, wanted: &HashSet<String>) -> Vec<String> {
    let mut local = Vec::new();
    let Ok(full) = crate::paths::resolve_inside(root, rel, false) else {
        return local;
    };
    let Ok(meta) = std::fs::metadata(&full) else {
        return local;
    };
    if !meta.is_file() || meta.len() > crate::scan::THRESHOLDS.file_size_cap_bytes {
        return local;
    }
    let Ok(bytes) = std::fs::read(&full) else {
        return local;
    };
    for tok in bytes.split(|b| !(b.is_ascii_alphanumeric() || *b == b'_')) {
        if tok.is_empty() || tok[0].is_ascii_digit() {
            continue;
        }
        if let Ok(t) = std::str::from_utf8(tok) {
            if wanted.contains(t) {
                local.push(t.to_string());
            }
        }
    }
    local
}

impl Detector for MissingSymbol {
    fn kind(&self) -> &'static str {
        "missing-symbol"
    }

    fn on_tree(&self, doc: &Doc, ctx: &TreeCtx<'_>) -> Vec<Finding> {
        let Some(found) = ctx.symbols else {
            return Vec::new();
        };
        checked(&doc.parsed)
            .into_iter()
            .filter(|(_, text)| names(text).iter().any(|n| !found.contains(*n)))
            .map(|(line, text)| {
                Signal::MissingSymbol {
                    line,
                    reference: text.to_string(),
                }
                .into()
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scan::markdown::parse;

    #[test]
    fn a_call_is_checked_only_where_the_document_points_at_source() {
        let texts = |md: &str| -> Vec<String> {
            checked(&parse(md))
                .into_iter()
                .map(|(_, t)| t.to_string())
                .collect()
        };
        // a language or library call in a conventions note: not a claim about this repo's code
        assert!(texts("No `unwrap()` outside tests.\n").is_empty());
        // a path form names this code base's types
        assert_eq!(texts("Call `Repo::open` first.\n"), ["Repo::open"]);
        // next to a source reference, calls and bare names are claims about that code
        let both = texts("See `src/lib.rs`: `load()` and `parse_config`.\n");
        assert!(
            both.contains(&"load()".to_string()) || both.contains(&"load".to_string()),
            "{both:?}"
        );
        assert!(both.iter().any(|t| t.contains("parse_config")), "{both:?}");
    }
}
