//! Evidence: what the model reads for one item instead of the document.
//!
//! Each signal kind shows what [`EVIDENCE`] says it shows: the lines around its line under the
//! heading path above them, a span, the checkboxes, an outline with section sizes, or (for a
//! question about the whole document) an overview: its opening lines, outline and task-list
//! tally. Hints add what the helper knows about
//! a reference's target: its new name, its deletion, files of the same name, the target's
//! nearest headings, similar names in the source. Everything is capped
//! ([`super::BILL`]`.item_cap_tokens`), and a cut says so, so the model knows to open the file.

use crate::report::{DriftLoss, ShortlistItem, Signal};
use crate::scan::detectors::drift::{
    EVIDENCE_FILES as DRIFT_EVIDENCE_FILES, EVIDENCE_ITEMS as DRIFT_EVIDENCE_ITEMS,
};
use crate::scan::detectors::missing_symbol::{readable, Search};
use schemars::JsonSchema;
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fmt::Write as _;
use std::path::Path;

/// What a part of the evidence shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Shows {
    /// The lines around the signal's `line` (`context_lines` each side) under their heading path.
    AroundLine,
    /// The lines around each of the signal's `lines`.
    AroundEachLine,
    /// The signal's `start_line`..`end_line` span (long spans cut in the middle), with context.
    Span,
    /// The task-list lines.
    Checkboxes,
    /// The headings with their line ranges and token sizes.
    Outline,
    /// The lines that name paths or link elsewhere (what drifted), with one line of context.
    PathLines,
    /// A view of the whole document: its opening lines, its outline with section sizes and its
    /// task-list tally (a directory: its file list).
    Overview,
}

/// One row of the evidence table.
#[derive(Debug, Clone, Copy, Serialize, JsonSchema)]
pub struct EvidenceRule {
    /// The signal kind.
    pub kind: &'static str,
    /// What the model is shown for it.
    pub shows: &'static [Shows],
    /// The hints added, if any.
    pub hints: &'static str,
}

const fn rule(kind: &'static str, shows: &'static [Shows], hints: &'static str) -> EvidenceRule {
    EvidenceRule { kind, shows, hints }
}

/// The evidence table: one row per signal kind, in the contract's order. The excerpt builder
/// looks each signal up here; `hygiene policy` publishes it.
pub const EVIDENCE: &[EvidenceRule] = &[
    rule("missing-path", &[Shows::AroundLine], "when git knows nothing of it (no `renamed_to`, no `deleted_in`), the files of the same name in the repository (or of that name with `.md`, for a site-style link)"),
    rule("missing-anchor", &[Shows::AroundLine], "the target document's headings nearest the fragment"),
    rule("missing-symbol", &[Shows::AroundLine], "the most similar names in the tracked source, with a file each"),
    rule("duplicate-block", &[Shows::Span], "where the kept copy is"),
    rule("checklist-complete", &[Shows::Checkboxes], ""),
    rule("status-done", &[Shows::AroundLine], ""),
    rule("superseded-marker", &[Shows::AroundLine], "whether the document it points to exists"),
    rule("provisional-marker", &[Shows::AroundEachLine], ""),
    rule("oversize", &[Shows::Outline], ""),
    rule("resolved-narrative", &[Shows::AroundLine, Shows::Outline], ""),
    rule("drift", &[Shows::PathLines], "what the described files held at the document's last commit and no longer hold: each name or quoted line of its code that is gone, with the files it left and where else it is now, documents aside (in no other file, or in how many and the one nearest)"),
    rule("lifecycle", &[Shows::Overview], "the rule's question"),
];

/// What an item's evidence came to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Evidence {
    /// The item's section of a batch file.
    pub text: String,
    /// Estimated tokens the model spends reading it ([`read_tokens`]).
    pub tokens: u64,
}

/// Tokens the model spends reading `text` with the Read tool: the text's own tokens plus the
/// line-number prefix the tool adds to each line.
pub fn read_tokens(text: &str) -> u64 {
    crate::tokens::count(text) + text.lines().count() as u64 * super::BILL.read_tokens_per_line
}

/// What the helper knows about the tree, gathered once per run for the hints.
#[derive(Debug, Default)]
pub struct TreeFacts {
    /// Tracked files by file name.
    pub by_name: HashMap<String, Vec<String>>,
    /// Every tracked path.
    pub files: BTreeSet<String>,
    /// Identifiers of the tracked source, each with the first file it occurs in (only read
    /// when an item has a `missing-symbol`).
    pub symbols: Option<HashMap<String, String>>,
    /// For each document with a drift: each described file with what it lost ([`drift_hint`]).
    pub drift: HashMap<String, Vec<(String, Vec<String>)>>,
    /// The files, documents aside, holding each name or line a described file lost.
    pub holders: HashMap<String, BTreeSet<String>>,
}

impl TreeFacts {
    /// The tracked files of `root` (none outside git: hints are then left out).
    pub fn read(root: &Path, want_symbols: bool) -> TreeFacts {
        let files: BTreeSet<String> = crate::git::Repo::discover(root)
            .map(|r| r.tracked().into_iter().collect())
            .unwrap_or_default();
        let mut by_name: HashMap<String, Vec<String>> = HashMap::new();
        for f in &files {
            let name = f.rsplit('/').next().unwrap_or(f).to_string();
            by_name.entry(name).or_default().push(f.clone());
        }
        let symbols = want_symbols.then(|| source_symbols(root, &files));
        TreeFacts {
            by_name,
            files,
            symbols,
            ..TreeFacts::default()
        }
    }

    /// What the described files of each drifting document lost, as the scan found it
    /// (`evidence`: [`crate::report::ScanResult::drift_evidence`], for every drift it
    /// reported), and where else each lost name or line is now: one pass over the tracked
    /// files for all of them, documents left out ([`holders_of`]).
    pub fn read_drift(&mut self, root: &Path, evidence: &BTreeMap<String, Vec<DriftLoss>>) {
        self.drift = evidence
            .iter()
            .map(|(doc, lost)| {
                let lost = lost
                    .iter()
                    .take(DRIFT_EVIDENCE_FILES)
                    .map(|l| {
                        let gone = l.gone.iter().take(DRIFT_EVIDENCE_ITEMS).cloned().collect();
                        (l.file.clone(), gone)
                    })
                    .collect();
                (doc.clone(), lost)
            })
            .collect();
        let needles: Vec<String> = self
            .drift
            .values()
            .flatten()
            .flat_map(|(_, gone)| gone.iter().cloned())
            .collect();
        self.holders = holders_of(root, &self.files, &needles);
    }
}

/// The tracked files, documents (`site_page_extensions`) aside, that hold each of `needles`
/// as a whole word (a needle's end that is an identifier byte is not next to another); a
/// needle none holds is absent. One Aho-Corasick pass per file finds them all: a `git grep`
/// with a pattern per needle reads each line once per pattern, ten times as long on a large
/// repository. Binary files, links and files over the size cap are skipped ([`readable`]).
fn holders_of(
    root: &Path,
    files: &BTreeSet<String>,
    needles: &[String],
) -> HashMap<String, BTreeSet<String>> {
    let mut map: HashMap<String, BTreeSet<String>> = HashMap::new();
    let needles: Vec<&String> = needles
        .iter()
        .filter(|n| !n.trim().is_empty())
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    let Some(ac) = (!needles.is_empty())
        .then(|| aho_corasick::AhoCorasick::new(&needles).ok())
        .flatten()
    else {
        return map;
    };
    let ident = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    let whole = |bytes: &[u8], m: &aho_corasick::Match| {
        let n = needles[m.pattern().as_usize()].as_bytes();
        let before = m.start().checked_sub(1).map(|j| bytes[j]);
        let after = bytes.get(m.end()).copied();
        let glued_before = ident(n[0]) && before.is_some_and(ident);
        let glued_after = ident(n[n.len() - 1]) && after.is_some_and(ident);
        !glued_before && !glued_after
    };
    let others: Vec<&String> = files
        .iter()
        .filter(|p| {
            !crate::scan::markdown::extension(p).is_some_and(|e| {
                crate::scan::sites::PAGE_EXTENSIONS.contains(&e.to_ascii_lowercase().as_str())
            })
        })
        .collect();
    let per_file = crate::scan::walk::par_map(&others, |rel| {
        let mut seen = vec![false; needles.len()];
        let Some(bytes) = readable(root, rel, Search::Text) else {
            return seen;
        };
        for m in ac.find_overlapping_iter(&bytes) {
            if !seen[m.pattern().as_usize()] && whole(&bytes, &m) {
                seen[m.pattern().as_usize()] = true;
            }
        }
        seen
    });
    for (rel, seen) in others.iter().zip(per_file) {
        for (i, _) in seen.iter().enumerate().filter(|(_, s)| **s) {
            map.entry(needles[i].clone())
                .or_default()
                .insert((*rel).clone());
        }
    }
    map
}

/// Identifier tokens of the tracked source files, each with the first file (in path order).
fn source_symbols(root: &Path, files: &BTreeSet<String>) -> HashMap<String, String> {
    let sources: Vec<String> = files
        .iter()
        .filter(|p| {
            crate::scan::markdown::extension(p).is_some_and(|e| {
                crate::scan::markdown::SOURCE_EXTENSIONS.contains(&e.to_ascii_lowercase().as_str())
            })
        })
        .cloned()
        .collect();
    let per_file = crate::scan::walk::par_map(&sources, |rel| {
        let mut out: BTreeSet<String> = BTreeSet::new();
        let Some(bytes) = readable(root, rel, Search::Source) else {
            return out;
        };
        for tok in bytes.split(|b| !(b.is_ascii_alphanumeric() || *b == b'_')) {
            if tok.len() >= 3 && !tok[0].is_ascii_digit() {
                if let Ok(t) = std::str::from_utf8(tok) {
                    out.insert(t.to_string());
                }
            }
        }
        out
    });
    let mut map = HashMap::new();
    for (rel, names) in sources.iter().zip(per_file) {
        for n in names {
            map.entry(n).or_insert_with(|| rel.clone());
        }
    }
    map
}

/// Levenshtein distance of `a` and `b`, or `None` when it exceeds `max`.
pub fn distance(a: &str, b: &str, max: usize) -> Option<usize> {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    if a.len().abs_diff(b.len()) > max {
        return None;
    }
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.iter().enumerate() {
        let mut cur = vec![i + 1; b.len() + 1];
        let mut best = cur[0];
        for (j, cb) in b.iter().enumerate() {
            let cost = usize::from(ca != cb);
            cur[j + 1] = (prev[j] + cost).min(prev[j + 1] + 1).min(cur[j] + 1);
            best = best.min(cur[j + 1]);
        }
        if best > max {
            return None;
        }
        prev = cur;
    }
    let d = prev[b.len()];
    (d <= max).then_some(d)
}

/// The `n` names of `pool` nearest `want` (case-insensitive edit distance within a third of its
/// length, at least 1), nearest first, then alphabetical.
pub fn nearest<'a>(want: &str, pool: impl Iterator<Item = &'a str>, n: usize) -> Vec<&'a str> {
    let w = want.to_lowercase();
    let max = (w.chars().count() / 3).max(1);
    let mut hits: Vec<(usize, &str)> = pool
        .filter(|p| *p != want)
        .filter_map(|p| distance(&w, &p.to_lowercase(), max).map(|d| (d, p)))
        .collect();
    hits.sort();
    hits.dedup();
    hits.into_iter().take(n).map(|(_, p)| p).collect()
}

/// A heading of a document: line, level, title.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Head {
    /// 1-based line.
    pub line: u32,
    /// 1..=6.
    pub level: u8,
    /// The title text.
    pub title: String,
}

/// The ATX and setext headings of `lines`, outside fenced code and the frontmatter.
pub fn headings(text: &str, lines: &[&str]) -> Vec<Head> {
    let fences = crate::scan::markdown::fence_lines(text);
    let in_fence = |n: u32| fences.iter().any(|&(a, b)| (a..=b).contains(&n));
    let front_end = frontmatter_end(lines);
    let mut out = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let n = i as u32 + 1;
        if n <= front_end || in_fence(n) {
            continue;
        }
        let t = line.trim_start();
        if line.len() - t.len() <= 3 && t.starts_with('#') {
            let level = t.bytes().take_while(|&b| b == b'#').count();
            let rest = &t[level..];
            if level <= 6 && (rest.is_empty() || rest.starts_with([' ', '\t'])) {
                let title = rest.trim().trim_end_matches('#').trim().to_string();
                out.push(Head {
                    line: n,
                    level: level as u8,
                    title,
                });
                continue;
            }
        }
        // Setext: a paragraph line underlined with `=` or `-`.
        if let Some(next) = lines.get(i + 1) {
            let u = next.trim();
            let under = u.len() >= 2
                && (u.bytes().all(|b| b == b'=') || u.bytes().all(|b| b == b'-'))
                && !in_fence(n + 1);
            let para = !t.is_empty()
                && line.len() - t.len() <= 3
                && !t.starts_with(['-', '*', '+', '>', '|', '#'])
                && !t.starts_with(|c: char| c.is_ascii_digit());
            if under && para {
                out.push(Head {
                    line: n,
                    level: if u.starts_with('=') { 1 } else { 2 },
                    title: t.trim().to_string(),
                });
            }
        }
    }
    out
}

/// The last line of a leading `---` frontmatter block, 0 when there is none.
fn frontmatter_end(lines: &[&str]) -> u32 {
    if lines.first().map(|l| l.trim_end()) != Some("---") {
        return 0;
    }
    lines
        .iter()
        .enumerate()
        .skip(1)
        .find(|(_, l)| matches!(l.trim_end(), "---" | "..."))
        .map(|(i, _)| i as u32 + 1)
        .unwrap_or(0)
}

/// The heading path of line `n`: the nearest heading of each shallower level, outermost first,
/// without a heading on line `n` itself (an excerpt starting there shows it).
pub fn heading_path(heads: &[Head], n: u32) -> Vec<&Head> {
    let mut path: Vec<&Head> = Vec::new();
    for h in heads.iter().take_while(|h| h.line <= n) {
        while path.last().is_some_and(|p| p.level >= h.level) {
            path.pop();
        }
        path.push(h);
    }
    if path.last().is_some_and(|h| h.line == n) {
        path.pop();
    }
    path
}

fn render_path(path: &[&Head]) -> String {
    path.iter()
        .map(|h| format!("{} {}", "#".repeat(h.level as usize), h.title))
        .collect::<Vec<_>>()
        .join(" > ")
}

/// Merges 1-based inclusive windows that overlap or touch.
fn merge(mut w: Vec<(u32, u32)>) -> Vec<(u32, u32)> {
    w.sort();
    let mut out: Vec<(u32, u32)> = Vec::new();
    for (a, b) in w {
        match out.last_mut() {
            Some(last) if a <= last.1 + 1 => last.1 = last.1.max(b),
            _ => out.push((a, b)),
        }
    }
    out
}

/// One line as shown: `N| text`, long lines cut.
fn show_line(out: &mut String, n: u32, line: &str) {
    let max = super::BILL.max_line_chars;
    if line.chars().count() > max {
        let cut: String = line.chars().take(max).collect();
        let _ = writeln!(out, "{n}| {cut}…");
    } else {
        let _ = writeln!(out, "{n}| {line}");
    }
}

/// Task-list lines (`- [x]`, `* [ ]`, `1. [X]`).
fn is_checkbox(line: &str) -> bool {
    let t = line.trim_start();
    let rest = t
        .strip_prefix(['-', '*', '+'])
        .or_else(|| {
            let d = t.bytes().take_while(u8::is_ascii_digit).count();
            (d > 0).then(|| t[d..].strip_prefix(['.', ')'])).flatten()
        })
        .map(str::trim_start);
    rest.is_some_and(|r| {
        r.len() >= 3
            && r.as_bytes()[0] == b'['
            && r.as_bytes()[2] == b']'
            && b" xX".contains(&r.as_bytes()[1])
    })
}

/// Lines that name a path or link somewhere: a Markdown link, or a code span with a `/` or an
/// extension.
fn names_a_path(line: &str) -> bool {
    if line.contains("](") {
        return true;
    }
    line.split('`')
        .skip(1)
        .step_by(2)
        .any(crate::scan::markdown::looks_like_path)
}

/// The line windows, outline request and whole-document request of an item, from the table.
struct Wants {
    windows: Vec<(u32, u32)>,
    outline: bool,
    whole: bool,
}

fn wants(item: &ShortlistItem, lines: &[&str], fences: &[(u32, u32)]) -> Wants {
    let c = super::BILL.context_lines;
    let last = lines.len() as u32;
    let around = |l: u32| (l.saturating_sub(c).max(1), (l + c).min(last.max(1)));
    let mut w = Wants {
        windows: Vec::new(),
        outline: false,
        whole: false,
    };
    // Signal lines, each with its windows; only the first `max_windows` lines are shown.
    let mut anchored: Vec<(u32, (u32, u32))> = Vec::new();
    for s in &item.signals {
        let kind = crate::scan::signal_kind(s);
        let Some(rule) = EVIDENCE.iter().find(|r| r.kind == kind) else {
            continue;
        };
        for shows in rule.shows {
            match (shows, s) {
                (Shows::AroundLine, _) => {
                    if let Some(l) = line_of(s) {
                        anchored.push((l, around(l)));
                    }
                }
                (Shows::AroundEachLine, Signal::ProvisionalMarker { lines: ls, .. }) => {
                    anchored.extend(ls.iter().map(|&l| (l, around(l))));
                }
                (
                    Shows::Span,
                    Signal::DuplicateBlock {
                        start_line,
                        end_line,
                        ..
                    },
                ) => {
                    let span = super::BILL.max_span_lines;
                    let (a, b) = (*start_line, (*end_line).max(*start_line));
                    if b - a < span {
                        anchored.push((a, (a.saturating_sub(1).max(1), (b + 1).min(last))));
                    } else {
                        anchored.push((a, (a.saturating_sub(1).max(1), (a + span / 2).min(last))));
                        anchored.push((a, (b + 1 - span / 2, (b + 1).min(last))));
                    }
                }
                (Shows::Checkboxes, _) => {
                    let boxes: Vec<u32> = lines
                        .iter()
                        .enumerate()
                        .filter(|(i, l)| {
                            let n = *i as u32 + 1;
                            is_checkbox(l) && !fences.iter().any(|&(a, b)| (a..=b).contains(&n))
                        })
                        .map(|(i, _)| i as u32 + 1)
                        .collect();
                    let keep = super::BILL.max_windows;
                    let shown: Vec<u32> = if boxes.len() > keep {
                        let head = keep - keep / 3;
                        boxes[..head]
                            .iter()
                            .chain(&boxes[boxes.len() - keep / 3..])
                            .copied()
                            .collect()
                    } else {
                        boxes
                    };
                    w.windows.extend(shown.into_iter().map(|l| (l, l)));
                }
                (Shows::Outline, _) => w.outline = true,
                (Shows::PathLines, _) => {
                    let hits = lines
                        .iter()
                        .enumerate()
                        .filter(|(i, l)| {
                            let n = *i as u32 + 1;
                            names_a_path(l) && !fences.iter().any(|&(a, b)| (a..=b).contains(&n))
                        })
                        .take(super::BILL.max_windows)
                        .map(|(i, _)| {
                            let n = i as u32 + 1;
                            (n.saturating_sub(1).max(1), (n + 1).min(last))
                        });
                    w.windows.extend(hits);
                    w.outline = true;
                }
                (Shows::Overview, _) => w.whole = true,
                _ => {}
            }
        }
    }
    anchored.sort();
    let mut chosen: Vec<u32> = anchored.iter().map(|&(l, _)| l).collect();
    chosen.dedup();
    chosen.truncate(super::BILL.max_windows);
    w.windows.extend(
        anchored
            .into_iter()
            .filter(|(l, _)| chosen.contains(l))
            .map(|(_, win)| win),
    );
    w.windows.retain(|&(a, b)| a >= 1 && a <= b && b <= last);
    w.windows = merge(w.windows);
    w
}

/// What a signal refers to (its `ref`, or its kind for one without), for one hint per reference.
fn reference_of(s: &Signal) -> String {
    match s {
        Signal::MissingPath { reference, .. }
        | Signal::MissingAnchor { reference, .. }
        | Signal::MissingSymbol { reference, .. } => reference.clone(),
        Signal::DuplicateBlock { canonical_ref, .. } => canonical_ref.clone(),
        other => crate::scan::signal_kind(other).to_string(),
    }
}

/// The 1-based line a signal points at, when it has one.
pub fn line_of(s: &Signal) -> Option<u32> {
    match s {
        Signal::MissingPath { line, .. }
        | Signal::MissingAnchor { line, .. }
        | Signal::MissingSymbol { line, .. }
        | Signal::StatusDone { line, .. }
        | Signal::SupersededMarker { line, .. }
        | Signal::ResolvedNarrative { line, .. } => Some(*line),
        Signal::DuplicateBlock { start_line, .. } => Some(*start_line),
        _ => None,
    }
}

/// What the helper can add about a signal's target, one line, when it knows something.
fn hint(root: &Path, doc: &str, text: &str, s: &Signal, tree: &TreeFacts) -> Option<String> {
    match s {
        Signal::MissingPath {
            line,
            reference,
            renamed_to,
            deleted_in,
            ..
        } => {
            // The item line already says what git knows.
            if renamed_to.is_some() || deleted_in.is_some() || tree.files.is_empty() {
                return None;
            }
            let name = reference
                .trim_end_matches('/')
                .rsplit('/')
                .next()
                .unwrap_or(reference);
            // A site-style link (`/cli/use`, `/guide.html`) names a Markdown page.
            let stem = name.strip_suffix(".html").unwrap_or(name);
            let found = [name.to_string(), format!("{stem}.md")]
                .into_iter()
                .find_map(|n| tree.by_name.get(n.as_str()).map(|v| (n, v)));
            Some(match found {
                None => {
                    format!("line {line} `{reference}`: no file named `{name}` in the repository")
                }
                Some((found, same)) => {
                    // Those sharing more trailing folders with the reference first.
                    let want: Vec<&str> = reference
                        .trim_end_matches('/')
                        .rsplit('/')
                        .skip(1)
                        .collect();
                    let shared = |p: &str| {
                        p.rsplit('/')
                            .skip(1)
                            .zip(&want)
                            .take_while(|(a, b)| a == *b)
                            .count()
                    };
                    let mut same: Vec<&String> = same.iter().collect();
                    same.sort_by_key(|p| (std::cmp::Reverse(shared(p)), p.len(), p.as_str()));
                    format!(
                        "line {line} `{reference}`: files named `{found}`: {}",
                        same.iter()
                            .take(3)
                            .map(|p| format!("`{p}`"))
                            .collect::<Vec<_>>()
                            .join(", ")
                    )
                }
            })
        }
        Signal::MissingAnchor { line, reference } => {
            let split = crate::scan::refs::split(reference);
            let frag = split.fragment?;
            let target_text = if split.written.is_empty() {
                Some(text.to_string())
            } else {
                resolve(doc, split.written, &tree.files, root).and_then(|t| {
                    crate::paths::resolve_inside(root, &t, false).ok()?;
                    crate::scan::read_doc(root, &t)
                        .ok()
                        .map(|x| crate::scan::markdown::strip_bom(&x).to_string())
                })
            }?;
            let tl: Vec<&str> = target_text.lines().collect();
            let slugs: Vec<String> = headings(&target_text, &tl)
                .iter()
                .map(|h| crate::scan::markdown::slug(&h.title))
                .collect();
            let near = nearest(frag, slugs.iter().map(String::as_str), 3);
            Some(if near.is_empty() {
                format!(
                    "line {line} `#{frag}`: no heading of the target is close ({} headings)",
                    slugs.len()
                )
            } else {
                format!(
                    "line {line} `#{frag}`: nearest headings of the target: {}",
                    near.iter()
                        .map(|s| format!("`#{s}`"))
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            })
        }
        Signal::MissingSymbol { line, reference } => {
            let symbols = tree.symbols.as_ref()?;
            let name = crate::scan::detectors::missing_symbol::names(reference)
                .first()
                .map(|s| s.trim_end_matches("()").to_string())
                .unwrap_or_else(|| reference.clone());
            let name = name.trim_end_matches(['(', ')', '!']);
            let near = nearest(name, symbols.keys().map(String::as_str), 3);
            Some(if near.is_empty() {
                format!("line {line} `{reference}`: no similar name in the tracked source")
            } else {
                format!(
                    "line {line} `{reference}`: similar names in the source: {}",
                    near.iter()
                        .map(|n| format!("`{n}` ({})", symbols[*n]))
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            })
        }
        Signal::DuplicateBlock {
            start_line,
            canonical_ref,
            ..
        } => Some(format!(
            "lines from {start_line}: the kept copy is `{canonical_ref}`"
        )),
        Signal::Drift { since, .. } => drift_hint(doc, since, tree),
        Signal::SupersededMarker { line, by: Some(by) } => {
            let exists = resolve(doc, by, &tree.files, root).is_some();
            Some(format!(
                "line {line}: `{by}` {}",
                if exists { "exists" } else { "does not exist" }
            ))
        }
        _ => None,
    }
}

/// The facts a drift stands on, which the scan found and the signal cannot carry (the report's
/// schema is frozen): for each file the document describes (a source, configuration or script
/// it names by a path), what its code names or quotes that the file held at the document's last
/// commit and no longer holds ([`crate::scan::detectors::drift::gone`]), each with the other
/// files that hold it now, documents aside ([`TreeFacts::read_drift`]). The model then reads
/// those lines instead of the files' whole history, and sees at once a name that left the
/// code (the document is wrong about it) from one still in another file (judged on public
/// repositories, a drift whose gone names all lived on elsewhere was true 73 times in 100,
/// one with a name gone from the repository 86).
fn drift_hint(doc: &str, since: &str, tree: &TreeFacts) -> Option<String> {
    let files = tree.drift.get(doc)?;
    // Each gone name once, with the files it left (a name often leaves several together).
    let mut left: Vec<(&String, Vec<&String>)> = Vec::new();
    for (f, gone) in files {
        for g in gone {
            match left.iter_mut().find(|(n, _)| *n == g) {
                Some((_, fs)) => fs.push(f),
                None => left.push((g, vec![f])),
            }
        }
    }
    let parts: Vec<String> = left
        .iter()
        .map(|(g, fs)| {
            let name: String = g.chars().take(120).collect();
            let from: Vec<String> = fs.iter().map(|f| format!("`{f}`")).collect();
            format!(
                "`{name}` left {} ({})",
                from.join(", "),
                whereabouts(tree.holders.get(*g), doc, fs)
            )
        })
        .collect();
    // None found here (the scan resolves more of the document's paths than these two
    // readings): no hint, rather than one that says the files hold everything.
    (!parts.is_empty()).then(|| format!("drift since {since}: {}", parts.join("; ")))
}

/// Where else a gone name is: how many files hold it (`holders`, documents aside), not counting
/// the document and the files it left, and the one nearest the first file it left (the longest
/// shared folder: where a moved name most likely went).
fn whereabouts(holders: Option<&BTreeSet<String>>, doc: &str, left: &[&String]) -> String {
    let others: Vec<&String> = holders
        .into_iter()
        .flatten()
        .filter(|h| *h != doc && !left.contains(h))
        .collect();
    let shared = |h: &str| {
        h.split('/')
            .zip(left[0].split('/'))
            .take_while(|(a, b)| a == b)
            .count()
    };
    match others
        .iter()
        .max_by_key(|h| (shared(h), std::cmp::Reverse(*h)))
    {
        None => "in no other file but documents".to_string(),
        Some(near) if others.len() == 1 => format!("still in `{near}`"),
        Some(near) => format!("still in {} other files, as `{near}`", others.len()),
    }
}

/// A reference as a root-relative existing path: beside the document first, then from the root.
fn resolve(doc: &str, written: &str, files: &BTreeSet<String>, root: &Path) -> Option<String> {
    let written = crate::scan::refs::percent_decode(written);
    let dir = doc.rsplit_once('/').map(|(d, _)| d).unwrap_or("");
    let mut tries = Vec::new();
    if !dir.is_empty() {
        tries.push(normalize(&format!("{dir}/{written}")));
    }
    tries.push(normalize(written.trim_start_matches('/')));
    tries.into_iter().flatten().find(|p| {
        files.contains(p) || crate::paths::resolve_inside(root, p, false).is_ok_and(|f| f.is_file())
    })
}

/// `a/./b/../c` → `a/c`; `None` when it climbs out of the root.
fn normalize(p: &str) -> Option<String> {
    let mut out: Vec<&str> = Vec::new();
    for seg in p.split('/') {
        match seg {
            "" | "." => {}
            ".." => {
                out.pop()?;
            }
            s => out.push(s),
        }
    }
    (!out.is_empty()).then(|| out.join("/"))
}

/// The opening lines and the task-list tally of a whole-document view.
fn overview(out: &mut String, lines: &[&str], fences: &[(u32, u32)]) {
    let n = (super::BILL.overview_lines as usize).min(lines.len());
    let _ = writeln!(out, "opening lines:");
    for (i, l) in lines.iter().enumerate().take(n) {
        show_line(out, i as u32 + 1, l);
    }
    let boxes: Vec<(u32, bool)> = lines
        .iter()
        .enumerate()
        .filter(|(i, l)| {
            let n = *i as u32 + 1;
            is_checkbox(l) && !fences.iter().any(|&(a, b)| (a..=b).contains(&n))
        })
        .map(|(i, l)| {
            let t = l.trim_start();
            let at = t.find('[').unwrap_or(0);
            (
                i as u32 + 1,
                t[at..].starts_with("[x]") || t[at..].starts_with("[X]"),
            )
        })
        .collect();
    if !boxes.is_empty() {
        let open: Vec<String> = boxes
            .iter()
            .filter(|(_, done)| !done)
            .take(super::BILL.max_windows)
            .map(|(l, _)| l.to_string())
            .collect();
        let checked = boxes.iter().filter(|(_, d)| *d).count();
        let more = boxes.len() - checked > open.len();
        let _ = writeln!(
            out,
            "task list: {} boxes, {checked} checked{}",
            boxes.len(),
            if open.is_empty() {
                String::new()
            } else {
                format!(
                    "; unchecked at lines {}{}",
                    open.join(", "),
                    if more { ", ..." } else { "" }
                )
            }
        );
    }
    let _ = writeln!(out, "{} lines in all", lines.len());
}

/// The outline: each heading with its line range and token size.
fn outline(out: &mut String, lines: &[&str], heads: &[Head]) {
    let last = lines.len() as u32;
    if heads.is_empty() {
        let _ = writeln!(out, "outline: no headings; {last} lines");
        return;
    }
    let _ = writeln!(out, "outline:");
    let max = super::BILL.max_outline_headings;
    for (i, h) in heads.iter().enumerate().take(max) {
        let end = heads.get(i + 1).map(|n| n.line - 1).unwrap_or(last);
        let body = lines[(h.line - 1) as usize..end as usize].join("\n");
        let _ = writeln!(
            out,
            "{}-{} {} {} ({} tokens)",
            h.line,
            end,
            "#".repeat(h.level as usize),
            h.title,
            crate::tokens::count(&body)
        );
    }
    if heads.len() > max {
        let _ = writeln!(out, "(+{} more headings)", heads.len() - max);
    }
}

/// The item line the model copies `path`, `signals` and `lifecycle` from.
#[derive(Serialize)]
struct ItemLine<'a> {
    path: &'a str,
    signals: Vec<&'a Signal>,
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    suggestions: &'a [crate::report::Suggestion],
    #[serde(skip_serializing_if = "Option::is_none")]
    lifecycle: Option<&'a crate::report::Lifecycle>,
}

fn item_line(head: &mut String, item: &ShortlistItem, signals: Vec<&Signal>) {
    let line = ItemLine {
        path: &item.path,
        signals,
        suggestions: &item.suggestions,
        lifecycle: item.lifecycle.as_ref(),
    };
    let _ = writeln!(
        head,
        "item: {}",
        serde_json::to_string(&line).expect("items serialize")
    );
    if let Some(q) = item
        .lifecycle
        .as_ref()
        .and_then(|l| l.served_when.as_deref())
    {
        let _ = writeln!(head, "question: {q}");
    }
}

/// The item's section of a batch file: its facts, hints and excerpt, within the item cap. A
/// signal whose lines are not shown (over `max_windows`) is listed by line and reference instead
/// of in the item line, so the item line costs what the excerpt shows.
pub fn build(root: &Path, number: usize, item: &ShortlistItem, tree: &TreeFacts) -> Evidence {
    let mut head = String::new();
    let freq = match item.injection_frequency {
        crate::report::InjectionFrequency::PerSession => "loaded every session",
        crate::report::InjectionFrequency::OnDemand => "read on demand",
    };
    let _ = writeln!(
        head,
        "## {number}. {}\n{freq}, {} tokens",
        item.path, item.raw_tokens
    );
    let all: Vec<&Signal> = item.signals.iter().collect();
    let full = crate::paths::resolve_inside(root, &item.path, false).ok();
    if full.as_ref().is_some_and(|p| p.is_dir()) {
        item_line(&mut head, item, all);
        let prefix = format!("{}/", item.path);
        let files: Vec<&String> = tree
            .files
            .iter()
            .filter(|f| f.starts_with(&prefix))
            .collect();
        let _ = writeln!(head, "directory, {} tracked files:", files.len());
        for f in files.iter().take(super::BILL.max_windows * 2) {
            let _ = writeln!(head, "- {f}");
        }
        return finish(head, String::new());
    }
    let read = match full {
        Some(_) => crate::scan::read_doc(root, &item.path).map_err(|why| format!("{why:?}")),
        None => Err("not a path inside the repository".to_string()),
    };
    let text = match read {
        Ok(t) => crate::scan::markdown::strip_bom(&t).to_string(),
        Err(why) => {
            item_line(&mut head, item, all);
            let _ = writeln!(head, "(could not be read: {why})");
            return finish(head, String::new());
        }
    };
    let lines: Vec<&str> = text.lines().collect();
    let heads = headings(&text, &lines);
    let fences = crate::scan::markdown::fence_lines(&text);
    let mut w = wants(item, &lines, &fences);
    let top = if w.whole {
        super::BILL.overview_lines
    } else {
        0
    };
    if w.whole {
        // The overview shows the opening lines already.
        w.windows = w
            .windows
            .into_iter()
            .filter(|&(_, b)| b > top)
            .map(|(a, b)| (a.max(top + 1), b))
            .collect();
    }
    let visible = |l: u32| l <= top || w.windows.iter().any(|&(a, b)| (a..=b).contains(&l));
    let shown = |s: &Signal| match s {
        Signal::ProvisionalMarker { lines, .. } => lines.iter().any(|&l| visible(l)),
        other => line_of(other).is_none_or(visible),
    };
    let (on, off): (Vec<&Signal>, Vec<&Signal>) = item.signals.iter().partition(|s| shown(s));
    item_line(&mut head, item, on.clone());
    if !off.is_empty() {
        let list: Vec<String> = off
            .iter()
            .take(30)
            .map(|s| match line_of(s) {
                Some(l) => format!("{l} `{}`", reference_of(s)),
                None => reference_of(s),
            })
            .collect();
        let _ = writeln!(
            head,
            "{} more signals, not shown (line and reference; open the file for them): {}{}",
            off.len(),
            list.join(", "),
            if off.len() > 30 { ", ..." } else { "" }
        );
    }
    // One hint per reference (the first line that names it), shown signals only.
    let mut seen = std::collections::HashSet::new();
    let hints: Vec<String> = on
        .iter()
        .filter(|s| seen.insert(reference_of(s)))
        .filter_map(|s| hint(root, &item.path, &text, s, tree))
        .collect();
    let mut body = String::new();
    if !hints.is_empty() {
        let _ = writeln!(body, "hints:");
        for h in hints.iter().take(super::BILL.max_windows) {
            let _ = writeln!(body, "- {h}");
        }
    }
    if w.whole {
        overview(&mut body, &lines, &fences);
    }
    if !w.windows.is_empty() {
        let _ = writeln!(body, "excerpt:");
    }
    for &(a, b) in &w.windows {
        let path = heading_path(&heads, a);
        if !path.is_empty() {
            let _ = writeln!(body, "§ {}", render_path(&path));
        }
        for n in a..=b {
            show_line(&mut body, n, lines[(n - 1) as usize]);
        }
    }
    if w.outline || w.whole {
        outline(&mut body, &lines, &heads);
    }
    finish(head, body)
}

/// Joins the head and the body, cutting the body at the item cap on a line boundary.
fn finish(head: String, body: String) -> Evidence {
    let cap = super::BILL.item_cap_tokens;
    let mut text = head;
    let base = read_tokens(&text);
    if base + read_tokens(&body) <= cap {
        text.push_str(&body);
    } else {
        // Keep whole lines while they fit (line costs are additive up to BPE merges).
        let mut used = base;
        let mut kept = 0usize;
        let body_lines: Vec<&str> = body.lines().collect();
        for l in &body_lines {
            let t = crate::tokens::count(l) + 1 + super::BILL.read_tokens_per_line;
            if used + t + 20 > cap {
                break;
            }
            used += t;
            text.push_str(l);
            text.push('\n');
            kept += 1;
        }
        let _ = writeln!(
            text,
            "(cut: {} more lines of evidence; open the file when you need them)",
            body_lines.len() - kept
        );
    }
    text.push('\n');
    let tokens = read_tokens(&text);
    Evidence { text, tokens }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn heading_paths_nest_and_skip_fences_and_frontmatter() {
        let text = "---\ntitle: x\n---\n# A\n\n## B\n\n```\n# not\n```\n### C\nx\n## D\ny\n";
        let lines: Vec<&str> = text.lines().collect();
        let h = headings(text, &lines);
        let titles: Vec<&str> = h.iter().map(|h| h.title.as_str()).collect();
        assert_eq!(titles, ["A", "B", "C", "D"]);
        assert_eq!(render_path(&heading_path(&h, 12)), "# A > ## B > ### C");
        assert_eq!(render_path(&heading_path(&h, 15)), "# A > ## D");
        let setext = "Title\n=====\n\nSub\n---\ntext\n";
        let sl: Vec<&str> = setext.lines().collect();
        assert_eq!(
            render_path(&heading_path(&headings(setext, &sl), 6)),
            "# Title > ## Sub"
        );
    }

    #[test]
    fn nearest_names_are_close_ones_only() {
        let pool = ["parse_config", "parse_configs", "render", "ParseConfig"];
        // Case-insensitive: `ParseConfig` is two edits away.
        assert_eq!(
            nearest("parse_confg", pool.iter().copied(), 3),
            vec!["parse_config", "ParseConfig", "parse_configs"]
        );
        assert!(nearest("zzz", pool.iter().copied(), 3).is_empty());
        assert_eq!(distance("kitten", "sitting", 3), Some(3));
        assert_eq!(distance("kitten", "sitting", 2), None);
    }

    #[test]
    fn windows_merge_when_they_touch() {
        assert_eq!(
            merge(vec![(5, 9), (1, 3), (4, 4), (20, 22)]),
            vec![(1, 9), (20, 22)]
        );
    }

    #[test]
    fn checkboxes_and_path_lines_are_recognised() {
        assert!(is_checkbox("- [x] done"));
        assert!(is_checkbox("  1. [ ] todo"));
        assert!(!is_checkbox("- [link](x)"));
        assert!(names_a_path("see [x](a.md)"));
        assert!(names_a_path("run `src/main.rs`"));
        assert!(!names_a_path("call `run()` now"));
    }
}
