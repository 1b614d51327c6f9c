//! `duplicate-block`: a block (paragraph, list, table, quote, fenced code, or a whole section)
//! identical after whitespace folding to one in another file, and at least
//! `THRESHOLDS.duplicate_min_chars` long.
//!
//! A copy is worth a signal only where removing it would keep the text for every reader, or
//! where two coding agents' instruction files say the same thing (a drift risk a model may
//! weigh). So a copy gets the signal and a `dedupe` suggestion when [`crate::readers`] allows
//! the dedupe against the kept copy; the signal alone when both files instruct an agent;
//! nothing otherwise (a website page mirroring `docs/`, two plugin skills). A block shared by
//! [`BOILERPLATE_MIN_FILES`] documents or more is boilerplate (a page template, a license
//! footer), never duplication; a span that cuts a fence or introduces what follows is never
//! one; a document a lifecycle rule will delete never holds the kept copy. When a whole
//! section is duplicated its inner blocks are not reported again.
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
use crate::scan::markdown::{fold, strip_bom, LineIndex, Spans};
use crate::scan::refs::{resolve, Target, Tree};
use std::collections::{HashMap, HashSet};

/// A block found in this many documents or more is boilerplate, not duplication. Chosen from
/// data: across eight public repositories (41,136 documents), 87% of duplicate groups had two
/// copies and 8.6% five or more; every group of five or more that was read was a page template,
/// a versioned copy, a translation or a plugin bundle, none an edit a maintainer would take.
/// History records (versioned copies, translations) are not counted: they repeat one page.
pub const BOILERPLATE_MIN_FILES: usize = 5;

/// The canonical-copy rule, in order: the first rule that tells the copies apart decides.
/// Published by `hygiene policy`; [`canonical_copy`] is its implementation.
pub const CANONICAL_RULE: &[&str] = &[
    "the copy in a file that another copy's file @imports (the imported file is the source)",
    "else the copy in a per-session file (it is loaded anyway)",
    "else the copy in Claude Code's root memory file (`CLAUDE.md`, `.claude/CLAUDE.md`, `CLAUDE.local.md`): the file readers open first",
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
    /// Whether this copy's file is Claude Code's root memory file.
    pub memory_root: bool,
    /// Unix time of the commit that added the file, if known.
    pub added: Option<i64>,
}

/// The index of the copy to keep, by [`CANONICAL_RULE`].
///
/// ```
/// use hygiene::scan::detectors::duplicate::{canonical_copy, Copy};
/// let c = |path: &str, imported, per_session, added| Copy {
///     path: path.into(), start_line: 1, imported, per_session, added,
///     memory_root: path == "CLAUDE.md",
/// };
/// // Imported beats per-session beats older.
/// assert_eq!(canonical_copy(&[c("a.md", false, true, Some(1)), c("b.md", true, false, Some(9))]), 1);
/// assert_eq!(canonical_copy(&[c("a.md", false, false, Some(1)), c("CLAUDE.md", false, true, Some(9))]), 1);
/// assert_eq!(canonical_copy(&[c("a.md", false, false, Some(9)), c("b.md", false, false, Some(1))]), 1);
/// assert_eq!(canonical_copy(&[c("b.md", false, false, None), c("a.md", false, false, None)]), 1);
/// // Two per-session files: the root memory file keeps the copy, even when younger.
/// assert_eq!(canonical_copy(&[c(".claude/rules/a.md", false, true, Some(1)), c("CLAUDE.md", false, true, Some(9))]), 1);
/// ```
pub fn canonical_copy(copies: &[Copy]) -> usize {
    (0..copies.len())
        .min_by_key(|&i| {
            let c = &copies[i];
            (
                !c.imported,
                !c.per_session,
                !c.memory_root,
                c.added.unwrap_or(i64::MAX),
                c.path.clone(),
                c.start_line,
            )
        })
        .unwrap_or(0)
}

/// Whether two documents sit in two different example projects (`examples/a/AGENTS.md` and
/// `examples/b/AGENTS.md`): each project stands alone, so the repetition is its design and a
/// pointer from one to the other would break the one copied out.
///
/// ```
/// use hygiene::scan::detectors::duplicate::separate_examples;
/// assert!(separate_examples("examples/writer/AGENTS.md", "examples/builder/AGENTS.md"));
/// assert!(!separate_examples("examples/writer/AGENTS.md", "examples/writer/docs/x.md"));
/// assert!(!separate_examples("examples/writer/AGENTS.md", "docs/guide.md"));
/// ```
pub fn separate_examples(a: &str, b: &str) -> bool {
    let project = super::example_project;
    matches!((project(a), project(b)), (Some(x), Some(y)) if x != y)
}

/// Whether one document's folder holds the other's (or both share one): only then can one
/// session load both. Agent files of two sibling packages (`src/sdk-ts/AGENTS.md`,
/// `src/sdk-rust/AGENTS.md`) are each their package's whole guide, read apart; a pointer from
/// one to the other would send an agent out of the package it works in.
///
/// ```
/// use hygiene::scan::detectors::duplicate::nested;
/// assert!(nested("AGENTS.md", "cmd/bd/AGENTS.md") && nested("a/CLAUDE.md", "a/AGENTS.md"));
/// assert!(!nested("src/sdk-ts/AGENTS.md", "src/sdk-rust/AGENTS.md"));
/// // A tool's configuration applies to the folder holding its dot-folder.
/// assert!(nested(".claude/commands/plan.md", "cli/AGENTS.md"));
/// assert!(!nested("web/.cursor/rules/x.mdc", "api/AGENTS.md"));
/// ```
pub fn nested(a: &str, b: &str) -> bool {
    let (da, db) = (scope(a), scope(b));
    let inside = |x: &str, y: &str| x.is_empty() || x == y || y.starts_with(&format!("{x}/"));
    inside(da, db) || inside(db, da)
}

/// The folder a document applies to: its own, or for a tool's configuration (a dot-folder:
/// `.claude/commands/plan.md`, `app/.cursor/rules/x.mdc`, `.github/copilot-instructions.md`)
/// the folder holding that dot-folder, whose whole tree the tool reads it for.
fn scope(path: &str) -> &str {
    let folder = super::super::refs::folder(path);
    let mut end: usize = 0;
    for seg in folder.split('/') {
        if seg.starts_with('.') {
            return &folder[..end.saturating_sub(1)];
        }
        end += seg.len() + 1;
    }
    folder
}

/// One duplicate span to report: `(start_line, end_line, canonical_ref, dedupe allowed)`.
pub type DupSpan = (u32, u32, String, bool);

/// Per document index: the duplicate spans to report.
pub type DupIndex = Vec<Vec<DupSpan>>;

fn added(history: Option<&History>, path: &str) -> Option<i64> {
    let h = history?;
    let oldest = *h.touches(path)?.last()?;
    h.commits.get(oldest).map(|c| c.time)
}

fn folded_lines(text: &str, lines: &LineIndex, start: u32, end: u32) -> String {
    let a = lines.range(start, text.len()).start;
    let b = lines.range(end, text.len()).end;
    fold(text.get(a..b).unwrap_or(""))
}

/// The opening and the close of the line an agent's `/init` writes atop every instruction
/// file it creates ("This file provides guidance to Claude Code (claude.ai/code) when working
/// with code in this repository."): the same line in two such files is the tool's, not a copy
/// to consolidate (s32: judged false).
pub const STOCK_HEADER: (&str, &str) = (
    "this file provides guidance to ",
    " when working with code in this repository.",
);

/// Whether folded block text is the [`STOCK_HEADER`] line.
///
/// ```
/// use hygiene::scan::detectors::duplicate::stock_header;
/// assert!(stock_header("This file provides guidance to Claude Code (claude.ai/code) when working with code in this repository."));
/// assert!(stock_header("This file provides guidance to WARP (warp.dev) when working with code in this repository."));
/// assert!(!stock_header("This file provides guidance to Claude Code. Run `make test` before each commit when working with code in this repository."));
/// ```
pub fn stock_header(folded: &str) -> bool {
    let t = folded.trim().to_lowercase();
    t.starts_with(STOCK_HEADER.0)
        && t.ends_with(STOCK_HEADER.1)
        && t.len() <= STOCK_HEADER.0.len() + STOCK_HEADER.1.len() + 40
        && !t.contains(". ")
}

/// What matching needs of one block of a document, computed from its text: `None` when its
/// lines are not whole blocks a dedupe could remove ([`crate::scan::markdown::span_problem`])
/// or are the [`STOCK_HEADER`] line, else the SHA-256 of its whitespace-folded lines (equal
/// digests: equal folded text).
pub type BlockFact = Option<[u8; 32]>;

/// [`BlockFact`]s of every block of `parsed.blocks`, from the document's text (BOM stripped):
/// one parse for the whole document. Depends on the text alone, so the scan cache keeps it.
pub fn block_facts(text: &str, blocks: &[crate::scan::markdown::Block]) -> Vec<BlockFact> {
    use sha2::Digest;
    let spans = Spans::new(text);
    blocks
        .iter()
        .map(|b| {
            spans
                .problem(text, b.start_line, b.end_line)
                .is_none()
                .then(|| folded_lines(text, &spans.lines, b.start_line, b.end_line))
                .filter(|f| !stock_header(f))
                .map(|f| sha2::Sha256::digest(f.as_bytes()).into())
        })
        .collect()
}

fn read_text(tree: &Tree, path: &str) -> Option<String> {
    let raw = String::from_utf8(tree.read_bytes(path)?).ok()?;
    Some(strip_bom(&raw).to_string())
}

/// Finds every confirmed cross-file duplicate among `docs` worth reporting (see the module
/// doc), with whether its dedupe keeps the text for every reader. `facts` runs parallel to
/// `docs`: the [`block_facts`] known already (from the scan cache); those a match needs and
/// that are missing are computed (each document read once, on all cores) and filled in.
pub fn index(
    tree: &Tree,
    docs: &[Doc],
    readers: &crate::readers::ReaderMap,
    rulebook: &crate::lifecycle::Rulebook,
    history: Option<&History>,
    facts: &mut [Option<Vec<BlockFact>>],
) -> DupIndex {
    // Blocks by hash: sorted, so equal hashes are neighbours (no map of mostly single blocks).
    let mut all: Vec<(u64, usize, usize)> = Vec::new();
    for (di, d) in docs.iter().enumerate() {
        for (bi, b) in d.parsed.blocks.iter().enumerate() {
            all.push((b.hash, di, bi));
        }
    }
    all.sort_unstable();
    // Only a living copy is ever flagged: a group without one (versioned copies of a page,
    // translations, templates) is not confirmed, so its documents are not read for it.
    let groups: Vec<Vec<(usize, usize)>> = all
        .chunk_by(|a, b| a.0 == b.0)
        .filter(|g| g.iter().any(|&(_, d, _)| d != g[0].1))
        .filter(|g| {
            g.iter()
                .any(|&(_, d, _)| docs[d].role == crate::roles::Role::Living)
        })
        .map(|g| g.iter().map(|&(_, d, b)| (d, b)).collect())
        .collect();
    drop(all);
    let mut out: DupIndex = vec![Vec::new(); docs.len()];
    if groups.is_empty() {
        return out;
    }
    // Confirm matches on the exact lines: the facts of every involved file, each read once,
    // on all cores, when the cache did not have them.
    let mut involved: Vec<usize> = groups
        .iter()
        .flatten()
        .map(|&(d, _)| d)
        .filter(|&d| facts[d].is_none())
        .collect();
    involved.sort_unstable();
    involved.dedup();
    let computed = crate::scan::walk::par_map(&involved, |&di| {
        read_text(tree, &docs[di].path).map(|text| block_facts(&text, &docs[di].parsed.blocks))
    });
    for (di, f) in involved.into_iter().zip(computed) {
        facts[di] = f;
    }
    let facts: &[Option<Vec<BlockFact>>] = facts;
    // The texts the span growing reads, each indexed once: only those of reported pairs.
    let mut texts: HashMap<usize, Option<(String, Spans)>> = HashMap::new();
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
    let mut flagged: Vec<Vec<DupSpan>> = vec![Vec::new(); docs.len()];
    for g in groups {
        // Split the hash group by the exact folded text of each copy's lines; a copy that cuts
        // a fence or introduces what follows is no block to remove.
        let mut exact: HashMap<[u8; 32], Vec<(usize, u32, u32)>> = HashMap::new();
        for (di, bi) in g {
            let b = docs[di].parsed.blocks[bi];
            let Some(Some(digest)) = facts[di].as_ref().and_then(|f| f.get(bi)) else {
                continue;
            };
            exact
                .entry(*digest)
                .or_default()
                .push((di, b.start_line, b.end_line));
        }
        for (_, members) in exact {
            let distinct: HashSet<usize> = members.iter().map(|m| m.0).collect();
            // Versioned copies and translations repeat one page: they do not make its text
            // boilerplate.
            let current = distinct
                .iter()
                .filter(|&&d| docs[d].role != crate::roles::Role::History)
                .count();
            if distinct.len() < 2 || current >= BOILERPLATE_MIN_FILES {
                continue;
            }
            // A living copy of shipped content (`.taskmaster/CLAUDE.md` of the `assets/AGENTS.md`
            // template the tool installs) is that content installed here: the copy is the design.
            if distinct
                .iter()
                .any(|&d| docs[d].role == crate::roles::Role::Shipped)
            {
                continue;
            }
            for &d in &distinct {
                import_cache.entry(d).or_insert_with(|| imports_of(d));
            }
            // A document a lifecycle rule will delete never keeps the copy.
            let keepable: Vec<&(usize, u32, u32)> = members
                .iter()
                .filter(|m| rulebook.governs(&docs[m.0].path).is_none())
                .collect();
            if keepable.is_empty() {
                continue;
            }
            let copies: Vec<Copy> = keepable
                .iter()
                .map(|&&(di, s, _)| {
                    let path = &docs[di].path;
                    Copy {
                        path: path.clone(),
                        start_line: s,
                        imported: distinct
                            .iter()
                            .any(|&o| o != di && import_cache[&o].contains(path)),
                        per_session: readers.per_session(path),
                        memory_root: crate::scan::loadclass::PER_SESSION_FILES
                            .contains(&path.as_str()),
                        added: added(history, path),
                    }
                })
                .collect();
            let (kd, ks, ke) = *keepable[canonical_copy(&copies)];
            let kpath = &docs[kd].path;
            let kept_readers = readers.of(kpath);
            for &(di, s, e) in &members {
                // A copy inside a block a tool manages between marker comments (`<!-- OMC:START
                // -->` .. `<!-- OMC:END -->`) is the tool's output, rewritten on its next run:
                // no copy to consolidate (s33: oh-my-claudecode's three `CLAUDE.md`, judged
                // false). A hand copy of such a block elsewhere still is one.
                if di == kd
                    || docs[di].role != crate::roles::Role::Living
                    || separate_examples(&docs[di].path, kpath)
                    || crate::scan::markdown::managed_at(&docs[di].parsed.managed, s, e).is_some()
                {
                    continue;
                }
                let mine = readers.of(&docs[di].path);
                let imports_kept = import_cache[&di].contains(kpath);
                let allowed =
                    crate::readers::dedupe_problem(&mine, &kept_readers, imports_kept).is_none();
                let drift_risk = crate::readers::instructs_an_agent(&mine)
                    && crate::readers::instructs_an_agent(&kept_readers)
                    && !(invoked_alone(&docs[di].path) && invoked_alone(kpath))
                    && nested(&docs[di].path, kpath);
                if !(allowed || drift_risk) {
                    continue;
                }
                for d in [di, kd] {
                    texts.entry(d).or_insert_with(|| {
                        read_text(tree, &docs[d].path).map(|t| {
                            let spans = Spans::new(&t);
                            (t, spans)
                        })
                    });
                }
                let grown = match (texts.get(&di), texts.get(&kd)) {
                    (Some(Some(lose)), Some(Some(keep))) => extend(lose, keep, (s, e), (ks, ke)),
                    _ => (s, e, ks, ke),
                };
                // Grown into a managed block, the span would take the tool's text with it: the
                // copy is the block as matched.
                let managed = &docs[di].parsed.managed;
                let (s, e, ks, ke) =
                    if crate::scan::markdown::managed_at(managed, grown.0, grown.1).is_some() {
                        (s, e, ks, ke)
                    } else {
                        grown
                    };
                let canonical_ref = format!("{kpath}:{ks}-{ke}");
                flagged[di].push((s, e, canonical_ref, allowed));
            }
        }
    }
    // Report the outermost spans only: a duplicated section's paragraphs are not news.
    for (di, mut spans) in flagged.into_iter().enumerate() {
        spans.sort_by(|a, b| (b.1 - b.0).cmp(&(a.1 - a.0)).then(a.0.cmp(&b.0)));
        let mut kept: Vec<DupSpan> = Vec::new();
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

/// Folders whose prompts are invoked one at a time, by name (`.claude/commands/`, a plugin's
/// `agents/`, `skills/`): two of them repeating each other are variants written to stand alone
/// (`create_plan.md` and `create_plan_nt.md`), never loaded together, so the repeat is neither
/// bloat nor a copy that one session reads twice. Published as
/// `scanner.invoked_alone_folders`.
pub const INVOKED_ALONE_FOLDERS: &[&str] = &["commands", "agents", "skills", "prompts"];

/// Whether `path` is a prompt in one of [`INVOKED_ALONE_FOLDERS`].
///
/// ```
/// use hygiene::scan::detectors::duplicate::invoked_alone;
/// assert!(invoked_alone(".claude/commands/create_plan.md") && invoked_alone("plugins/x/skills/y/SKILL.md"));
/// assert!(!invoked_alone("cmd/bd/AGENTS.md") && !invoked_alone("docs/agents.md"));
/// ```
pub fn invoked_alone(path: &str) -> bool {
    let folders = crate::scan::refs::folder(path);
    !folders.is_empty()
        && folders
            .split('/')
            .any(|s| INVOKED_ALONE_FOLDERS.contains(&s))
}

/// Grows a confirmed duplicate span (`lose`, lines `s..=e`, kept at `keep`'s `ks..=ke`) over
/// the neighbouring top-level blocks that are identical in both documents (after whitespace
/// folding): a paragraph too short to be a candidate, the fenced example that follows it. A
/// heading is taken only when its whole section in the losing document ends inside the span,
/// so no remaining text loses its heading. Returns the grown `(s, e, ks, ke)`; the span as given
/// when it is not made of whole top-level blocks in both.
fn extend(
    (lt, lose): &(String, Spans),
    (kt, keep): &(String, Spans),
    (s, e): (u32, u32),
    (ks, ke): (u32, u32),
) -> (u32, u32, u32, u32) {
    let (lb, lli) = (lose.blocks.as_slice(), &lose.lines);
    let (kb, kli) = (keep.blocks.as_slice(), &keep.lines);
    let idx = |b: &[crate::scan::markdown::TopBlock], start: u32, end: u32| {
        Some((
            b.iter().position(|x| x.start_line == start)?,
            b.iter().position(|x| x.end_line == end)?,
        ))
    };
    let (Some((mut i, mut j)), Some((mut ki, mut kj))) = (idx(lb, s, e), idx(kb, ks, ke)) else {
        return (s, e, ks, ke);
    };
    let same = |a: &crate::scan::markdown::TopBlock, b: &crate::scan::markdown::TopBlock| {
        a.heading == b.heading
            && folded_lines(lt, lli, a.start_line, a.end_line)
                == folded_lines(kt, kli, b.start_line, b.end_line)
    };
    while j + 1 < lb.len()
        && kj + 1 < kb.len()
        && lb[j + 1].heading.is_none()
        && same(&lb[j + 1], &kb[kj + 1])
    {
        j += 1;
        kj += 1;
    }
    while i > 0 && ki > 0 && lb[i - 1].heading.is_none() && same(&lb[i - 1], &kb[ki - 1]) {
        i -= 1;
        ki -= 1;
    }
    if i > 0 && ki > 0 && same(&lb[i - 1], &kb[ki - 1]) {
        if let Some(level) = lb[i - 1].heading {
            let section_end = lb[i..]
                .iter()
                .position(|b| b.heading.is_some_and(|l| l <= level))
                .map_or(lb.len(), |p| i + p);
            if section_end == j + 1 {
                i -= 1;
                ki -= 1;
            }
        }
    }
    let grown = (
        lb[i].start_line,
        lb[j].end_line,
        kb[ki].start_line,
        kb[kj].end_line,
    );
    if lose.problem(lt, grown.0, grown.1).is_some() {
        return (s, e, ks, ke);
    }
    grown
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

    fn reads_tree(&self) -> bool {
        true
    }

    fn on_tree(&self, doc: &Doc, ctx: &TreeCtx<'_>) -> Vec<Finding> {
        let Some(i) = ctx.doc_index(&doc.path) else {
            return Vec::new();
        };
        ctx.dups[i]
            .iter()
            .map(|(s, e, c, allowed)| Finding {
                signal: Signal::DuplicateBlock {
                    start_line: *s,
                    end_line: *e,
                    canonical_ref: c.clone(),
                },
                suggestion: allowed.then(|| dedupe_suggestion(*s, *e, c)),
                unrendered: false,
            })
            .collect()
    }
}
