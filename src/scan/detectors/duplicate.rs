//! `duplicate-block`: a block (paragraph, list, table, quote, fenced code, or a whole section)
//! identical after whitespace folding to one in another file, and at least
//! `THRESHOLDS.duplicate_min_chars` long. Every copy except the canonical one gets the signal
//! and a `dedupe` suggestion; when a whole section is duplicated its inner blocks are not
//! reported again.
//!
//! Blocks are matched by hash, then every match is confirmed by comparing the folded text of
//! the exact lines a `dedupe` would remove with the canonical lines, so a hash collision can
//! never become an edit.

use super::{Detector, Doc, Finding, TreeCtx};
use crate::git::History;
use crate::kinds::empty_edit;
use crate::report::{
    Anchor, Category, EditKind, ExactEdit, LineRange, Signal, StaleSubtype, Suggestion, Via,
};
use crate::scan::markdown::{fold, strip_bom, LineIndex};
use crate::scan::refs::{resolve, Target, Tree};
use std::collections::{HashMap, HashSet};

/// The canonical-copy rule, in order: the first rule that tells the copies apart decides.
/// Published by `hygiene policy`; [`canonical_copy`] is its implementation.
pub const CANONICAL_RULE: &[&str] = &[
    "the copy in a file that another copy's file @imports (the imported file is the source)",
    "else the copy in a per-session file (it is loaded anyway)",
    "else the copy in the older file (earliest commit that added it; files without history count as newest)",
    "else the copy in the lexicographically smaller path, then the earlier line",
];

/// One copy of a duplicated block, with the facts the canonical rule reads.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Copy {
    /// Root-relative path.
    pub path: String,
    /// First line.
    pub start_line: u32,
    /// Whether another copy's file `@import`s this copy's file.
    pub imported: bool,
    /// Whether this copy's file is loaded every session.
    pub per_session: bool,
    /// Unix time of the commit that added the file, if known.
    pub added: Option<i64>,
}

/// The index of the copy to keep, by [`CANONICAL_RULE`].
///
/// ```
/// use hygiene::scan::detectors::duplicate::{canonical_copy, Copy};
/// let c = |path: &str, imported, per_session, added| Copy {
///     path: path.into(), start_line: 1, imported, per_session, added,
/// };
/// // Imported beats per-session beats older.
/// assert_eq!(canonical_copy(&[c("a.md", false, true, Some(1)), c("b.md", true, false, Some(9))]), 1);
/// assert_eq!(canonical_copy(&[c("a.md", false, false, Some(1)), c("CLAUDE.md", false, true, Some(9))]), 1);
/// assert_eq!(canonical_copy(&[c("a.md", false, false, Some(9)), c("b.md", false, false, Some(1))]), 1);
/// assert_eq!(canonical_copy(&[c("b.md", false, false, None), c("a.md", false, false, None)]), 1);
/// ```
pub fn canonical_copy(copies: &[Copy]) -> usize {
    (0..copies.len())
        .min_by_key(|&i| {
            let c = &copies[i];
            (
                !c.imported,
                !c.per_session,
                c.added.unwrap_or(i64::MAX),
                c.path.clone(),
                c.start_line,
            )
        })
        .unwrap_or(0)
}

/// Per document index: the duplicate spans to report, `(start_line, end_line, canonical_ref)`.
pub type DupIndex = Vec<Vec<(u32, u32, String)>>;

fn added(history: Option<&History>, path: &str) -> Option<i64> {
    let h = history?;
    let oldest = *h.touches.get(path)?.last()?;
    h.commits.get(oldest).map(|c| c.time)
}

fn folded_lines(text: &str, lines: &LineIndex, start: u32, end: u32) -> String {
    let a = lines.range(start, text.len()).start;
    let b = lines.range(end, text.len()).end;
    fold(text.get(a..b).unwrap_or(""))
}

/// Finds every confirmed cross-file duplicate among `docs`.
pub fn index(
    tree: &Tree,
    docs: &[Doc],
    per_session: &HashSet<String>,
    history: Option<&History>,
) -> DupIndex {
    let mut by_hash: HashMap<u64, Vec<(usize, usize)>> = HashMap::new();
    for (di, d) in docs.iter().enumerate() {
        for (bi, b) in d.parsed.blocks.iter().enumerate() {
            by_hash.entry(b.hash).or_default().push((di, bi));
        }
    }
    let groups: Vec<Vec<(usize, usize)>> = by_hash
        .into_values()
        .filter(|g| g.iter().any(|&(d, _)| d != g[0].0))
        .collect();
    let mut out: DupIndex = vec![Vec::new(); docs.len()];
    if groups.is_empty() {
        return out;
    }
    // Read the involved files once, on all cores, to confirm matches on the exact lines.
    let mut involved: Vec<usize> = groups.iter().flatten().map(|&(d, _)| d).collect();
    involved.sort_unstable();
    involved.dedup();
    let read = crate::scan::walk::par_map(&involved, |&di| {
        let full = crate::paths::resolve_inside(&tree.root, &docs[di].path, false).ok()?;
        let raw = String::from_utf8(std::fs::read(full).ok()?).ok()?;
        let text = strip_bom(&raw).to_string();
        let li = LineIndex::new(&text);
        Some((text, li))
    });
    let texts: HashMap<usize, Option<(String, LineIndex)>> =
        involved.into_iter().zip(read).collect();
    let imports_of = |di: usize| -> HashSet<String> {
        docs[di]
            .parsed
            .refs
            .iter()
            .filter(|r| r.via == Via::Import)
            .filter_map(|r| match resolve(tree, &docs[di].path, r) {
                Target::Found { path, .. } => path,
                _ => None,
            })
            .collect()
    };
    let mut import_cache: HashMap<usize, HashSet<String>> = HashMap::new();
    let mut flagged: Vec<Vec<(u32, u32, String)>> = vec![Vec::new(); docs.len()];
    for g in groups {
        // Split the hash group by the exact folded text of each copy's lines.
        let mut exact: HashMap<String, Vec<(usize, u32, u32)>> = HashMap::new();
        for (di, bi) in g {
            let b = docs[di].parsed.blocks[bi];
            let Some(Some((text, li))) = texts.get(&di) else {
                continue;
            };
            let f = folded_lines(text, li, b.start_line, b.end_line);
            exact
                .entry(f)
                .or_default()
                .push((di, b.start_line, b.end_line));
        }
        for (_, members) in exact {
            let distinct: HashSet<usize> = members.iter().map(|m| m.0).collect();
            if distinct.len() < 2 {
                continue;
            }
            for &d in &distinct {
                import_cache.entry(d).or_insert_with(|| imports_of(d));
            }
            let copies: Vec<Copy> = members
                .iter()
                .map(|&(di, s, _)| {
                    let path = &docs[di].path;
                    Copy {
                        path: path.clone(),
                        start_line: s,
                        imported: distinct
                            .iter()
                            .any(|&o| o != di && import_cache[&o].contains(path)),
                        per_session: per_session.contains(path),
                        added: added(history, path),
                    }
                })
                .collect();
            let k = canonical_copy(&copies);
            let (kd, ks, ke) = members[k];
            let canonical_ref = format!("{}:{ks}-{ke}", docs[kd].path);
            for &(di, s, e) in &members {
                if di != kd {
                    flagged[di].push((s, e, canonical_ref.clone()));
                }
            }
        }
    }
    // Report the outermost spans only: a duplicated section's paragraphs are not news.
    for (di, mut spans) in flagged.into_iter().enumerate() {
        spans.sort_by(|a, b| (b.1 - b.0).cmp(&(a.1 - a.0)).then(a.0.cmp(&b.0)));
        let mut kept: Vec<(u32, u32, String)> = Vec::new();
        for s in spans {
            if !kept.iter().any(|k| k.0 <= s.0 && s.1 <= k.1) {
                kept.push(s);
            }
        }
        kept.sort();
        out[di] = kept;
    }
    out
}

/// The `dedupe` edit removing a duplicate span.
pub fn dedupe_suggestion(start_line: u32, end_line: u32, canonical_ref: &str) -> Suggestion {
    Suggestion {
        category: Category::Stale {
            subtype: StaleSubtype::Duplicated,
        },
        op: format!("Remove lines {start_line}-{end_line}, which repeat {canonical_ref} verbatim."),
        exact_edit: ExactEdit {
            anchor: Some(Anchor::Lines(LineRange {
                start_line,
                end_line,
            })),
            canonical_ref: Some(canonical_ref.to_string()),
            ..empty_edit(EditKind::Dedupe)
        },
    }
}

/// The detector.
pub struct Duplicate;

impl Detector for Duplicate {
    fn kind(&self) -> &'static str {
        "duplicate-block"
    }

    fn on_tree(&self, doc: &Doc, ctx: &TreeCtx<'_>) -> Vec<Finding> {
        let Some(&i) = ctx.by_path.get(doc.path.as_str()) else {
            return Vec::new();
        };
        ctx.dups[i]
            .iter()
            .map(|(s, e, c)| Finding {
                signal: Signal::DuplicateBlock {
                    start_line: *s,
                    end_line: *e,
                    canonical_ref: c.clone(),
                },
                suggestion: Some(dedupe_suggestion(*s, *e, c)),
            })
            .collect()
    }
}
