//! The signal detectors: one trait, one file per signal kind.
//!
//! A detector sees a document twice at most: once while its text is in hand ([`Detector::on_text`],
//! for facts inside one document: markers, checkboxes, size) and once after every document has
//! been parsed ([`Detector::on_tree`], for facts that need the whole tree: missing paths,
//! anchors, symbols, duplicates, drift). Both run on all cores; neither may panic or do I/O
//! beyond what its context offers.

use super::markdown::{Parsed, Ref};
use super::refs::{Target, Tree};
use crate::git::History;
use crate::report::{InjectionFrequency, Signal, Suggestion};
use std::collections::{HashMap, HashSet};
use std::sync::Mutex;

pub mod checklist;
pub mod drift;
pub mod duplicate;
pub mod missing_anchor;
pub mod missing_path;
pub mod missing_symbol;
pub mod oversize;
pub mod provisional;
pub mod resolved;
pub mod status;
pub mod superseded;

/// One fact about a document, with the edit the scanner can offer for it, if any.
#[derive(Debug, Clone, PartialEq)]
pub struct Finding {
    /// The signal.
    pub signal: Signal,
    /// A ready exact edit, when the scanner can compute the fix itself.
    pub suggestion: Option<Suggestion>,
    /// Everything the finding points at is hidden on the rendered page (a marker inside an
    /// HTML or MDX comment): a note between maintainers, which may ride along
    /// ([`crate::scan::RIDE_ALONG`]).
    pub unrendered: bool,
}

impl From<Signal> for Finding {
    fn from(signal: Signal) -> Finding {
        Finding {
            signal,
            suggestion: None,
            unrendered: false,
        }
    }
}

/// A document while its text is in hand.
pub struct DocText<'a> {
    /// Root-relative path.
    pub path: &'a str,
    /// The text (BOM stripped).
    pub text: &'a str,
    /// The parse.
    pub parsed: &'a Parsed,
    /// Its load class.
    pub freq: InjectionFrequency,
    /// The walked tree.
    pub tree: &'a Tree,
    /// `parsed.prose` in ASCII lowercase, so detectors can skip a document in one search.
    pub lower_prose: &'a str,
    /// What the document is ([`crate::roles`]).
    pub role: crate::roles::Role,
}

impl DocText<'_> {
    /// The raw text of 1-based line `line` (its line break excluded; empty past the end).
    pub fn line(&self, line: u32) -> &str {
        &self.text[self.parsed.lines.range(line, self.text.len())]
    }
}

/// A parsed document after its text is gone.
#[derive(Debug, Clone)]
pub struct Doc {
    /// Root-relative path.
    pub path: String,
    /// The parse (its `prose` emptied).
    pub parsed: Parsed,
    /// Its load class.
    pub freq: InjectionFrequency,
    /// Whether its signals are reported (it is under the scan's PATHs).
    pub checked: bool,
    /// Findings so far.
    pub findings: Vec<Finding>,
    /// Whole-file token count, when a detector already needed it.
    pub raw_tokens: Option<u64>,
    /// Where each of `parsed.refs` points, resolved once against the walked tree.
    pub targets: Vec<Target>,
    /// What the document is ([`crate::roles`]).
    pub role: crate::roles::Role,
}

impl Doc {
    /// Each reference with its resolved target.
    pub fn resolved(&self) -> impl Iterator<Item = (&Ref, &Target)> {
        self.parsed.refs.iter().zip(&self.targets)
    }
}

/// Everything the tree-wide detectors share.
pub struct TreeCtx<'a> {
    /// The walked tree.
    pub tree: &'a Tree,
    /// Every parsed document.
    pub docs: &'a [Doc],
    /// `docs` by path hash ([`DocIndex`]).
    pub doc_keys: &'a DocIndex,
    /// The one history walk, when there is a repository.
    pub history: Option<&'a History>,
    /// Duplicate blocks per document index.
    pub dups: &'a duplicate::DupIndex,
    /// Identifiers found in tracked source, and where the others are used; `None` when there
    /// is no source to check against.
    pub symbols: Option<&'a missing_symbol::Symbols>,
    /// Anchors of each Markdown target, as a set, built on first use (a document read for its
    /// anchors when it is not a scanned one): one lookup per link, never a scan of the list.
    pub anchor_cache: Mutex<HashMap<String, Option<std::sync::Arc<HashSet<String>>>>>,
    /// The answers of the git processes detectors start (a blame, a rename commit's patch),
    /// asked once per question however many documents ask it, and kept between scans with
    /// the cache ([`crate::scan::cache::git`]).
    pub git: &'a crate::scan::cache::git::GitAnswers,
    /// The MyST labels (`(name)=`) the documents define, lowercase: a site resolves
    /// `[x](name)` and `#name` to them from any page.
    pub labels: &'a HashSet<String>,
    /// The paths that title a code block on some docs site's page and name no file of the
    /// tree, as `{site root}\0{path}` ([`titled_on_sites`]).
    pub titled: &'a std::collections::BTreeSet<String>,
    /// Folders whose pages link each other rooted at the folder ([`rooted_at_folder`]).
    pub rooted_folders: &'a HashSet<String>,
    /// Folders whose Markdown pages, together, link a site by route ([`routed_folders`]).
    pub routed_folders: &'a HashSet<String>,
}

/// Folders (outside any docs site) whose pages write rooted links to pages of the same folder
/// at least [`missing_path::FOREIGN_ROUTES_MIN`] times, with no such file at the root
/// (`/locators.md` in `docs/src/codegen.md` for `docs/src/locators.md`): a doc tool that
/// reads the folder as its root publishes them (playwright's). On GitHub each is broken, but
/// the folder is written for the tool.
pub fn rooted_at_folder(tree: &Tree, docs: &[Doc]) -> HashSet<String> {
    folders_with_rooted_links(
        tree,
        docs,
        |_| true,
        |dir, rest| {
            super::markdown::extension(rest)
                .is_some_and(|e| super::sites::PAGE_EXTENSIONS.contains(&e))
                && !tree.is_file(rest)
                && tree.is_file(&super::sites::join(dir, rest))
        },
    )
}

/// Folders (outside any docs site) whose `.md` pages together hold at least
/// [`missing_path::FOREIGN_ROUTES_MIN`] rooted links into folders the tree does not have
/// (rolldown's option pages, one `/reference/Interface.PluginContext` each; TanStack Start's
/// guides, one `/router/latest/docs/...` each): pages written for a site that serves those
/// routes, each with too few such links to show it alone.
pub fn routed_folders(tree: &Tree, docs: &[Doc]) -> HashSet<String> {
    folders_with_rooted_links(
        tree,
        docs,
        |d| super::markdown::extension(&d.path) == Some("md"),
        |_, rest| tree.unknown_top(rest, true),
    )
}

/// The folders (not the root's, whose pages GitHub reads, where a rooted link is the
/// repository's; none in a docs site) whose pages `page` accepts hold, between them, at least
/// [`missing_path::FOREIGN_ROUTES_MIN`] rooted links whose route (without its `/`) `counts`
/// accepts, given the page's folder.
fn folders_with_rooted_links(
    tree: &Tree,
    docs: &[Doc],
    page: impl Fn(&Doc) -> bool,
    counts: impl Fn(&str, &str) -> bool,
) -> HashSet<String> {
    let mut count: HashMap<&str, usize> = HashMap::new();
    for d in docs {
        let dir = super::refs::folder(&d.path);
        if dir.is_empty() || !page(d) {
            continue;
        }
        let n = d
            .parsed
            .refs
            .iter()
            .filter(|r| r.via == crate::report::Via::Link)
            .filter_map(|r| super::refs::split(&r.dest).written.strip_prefix('/'))
            .filter(|rest| counts(dir, rest))
            .count();
        if n > 0 && tree.sites().of(&d.path).is_none() {
            *count.entry(dir).or_default() += n;
        }
    }
    count
        .into_iter()
        .filter(|(_, n)| *n >= missing_path::FOREIGN_ROUTES_MIN)
        .map(|(d, _)| d.to_string())
        .collect()
}

/// The paths code blocks on the pages of each docs site are titled with
/// ([`crate::scan::markdown::code_block_title`]) that the tree does not have, as
/// `{site root}\0{path}`. Such a block shows a file of the reader's project (a tutorial's
/// `src/pages/about.astro`); the same path in the site's prose is that file too.
pub fn titled_on_sites(tree: &Tree, docs: &[Doc]) -> std::collections::BTreeSet<String> {
    docs.iter()
        .filter(|d| !d.parsed.titled.is_empty())
        .filter_map(|d| Some((tree.sites().of(&d.path)?.0, &d.parsed.titled)))
        .flat_map(|(root, titled)| {
            titled
                .iter()
                .map(|t| t.trim_start_matches("./"))
                .filter(|t| !tree.exists(t))
                .map(move |t| format!("{root}\0{t}"))
        })
        .collect()
}

impl TreeCtx<'_> {
    /// The index in `docs` of the document at root-relative `path`.
    pub fn doc_index(&self, path: &str) -> Option<usize> {
        self.doc_keys.find(self.docs, path)
    }
}

/// The documents by a hash of their path: 12 bytes a document, no copy of its path. A binary
/// search of the documents themselves (sorted by path) touched a `Doc` and its path's bytes at
/// every step, and resolving every link of a 40,000-document tree spent a third of the drift
/// and anchor detectors' time there.
#[derive(Debug, Default)]
pub struct DocIndex(Vec<(u64, u32)>);

impl DocIndex {
    /// The index of `docs` (whose order must not change while it is used).
    pub fn new(docs: &[Doc]) -> DocIndex {
        let mut keys: Vec<(u64, u32)> = docs
            .iter()
            .enumerate()
            .map(|(i, d)| (crate::scan::cache::path_hash(&d.path), i as u32))
            .collect();
        keys.sort_unstable();
        DocIndex(keys)
    }

    /// The index in `docs` of the document at `path`: paths sharing a hash are all compared.
    pub fn find(&self, docs: &[Doc], path: &str) -> Option<usize> {
        let h = crate::scan::cache::path_hash(path);
        let from = self.0.partition_point(|&(k, _)| k < h);
        self.0[from..]
            .iter()
            .take_while(|&&(k, _)| k == h)
            .map(|&(_, i)| i as usize)
            .find(|&i| docs.get(i).is_some_and(|d| d.path == path))
    }
}

/// A signal detector.
pub trait Detector: Sync {
    /// The `kind` of the signal it produces (a row of `signal_rules`).
    fn kind(&self) -> &'static str;
    /// Facts from one document's text.
    fn on_text(&self, _doc: &DocText<'_>) -> Vec<Finding> {
        Vec::new()
    }
    /// Facts that need the whole tree.
    fn on_tree(&self, _doc: &Doc, _ctx: &TreeCtx<'_>) -> Vec<Finding> {
        Vec::new()
    }
    /// Whether [`Detector::on_tree`] has anything to say: a document no such detector may
    /// report on needs no references resolved.
    fn reads_tree(&self) -> bool {
        false
    }
}

/// Folders whose children are standalone example projects, each copied or run alone.
pub const EXAMPLE_FOLDERS: &[&str] = &[
    "examples",
    "example",
    "samples",
    "demos",
    "demo",
    "cookbook",
    "use-cases",
    "use_cases",
];

/// The example project a document sits in (`examples/writer` for
/// `examples/writer/docs/x.md`): the child of an [`EXAMPLE_FOLDERS`] folder that holds it.
///
/// ```
/// use hygiene::scan::detectors::example_project;
/// assert_eq!(example_project("examples/writer/docs/x.md"), Some("examples/writer"));
/// assert_eq!(example_project("use-cases/agent/planning/prompts.md"), Some("use-cases/agent"));
/// assert_eq!(example_project("examples/a.md"), None);
/// assert_eq!(example_project("docs/guide.md"), None);
/// ```
pub fn example_project(path: &str) -> Option<&str> {
    let segs: Vec<&str> = path.split('/').collect();
    let i = segs[..segs.len().saturating_sub(2)]
        .iter()
        .position(|s| EXAMPLE_FOLDERS.contains(s))?;
    let len = segs[..=i + 1].iter().map(|s| s.len() + 1).sum::<usize>() - 1;
    Some(&path[..len])
}

/// Whether a document sits under an [`EXAMPLE_FOLDERS`] folder (`docs/examples/web_browser.md`).
///
/// ```
/// use hygiene::scan::detectors::in_examples;
/// assert!(in_examples("docs/source/en/examples/web_browser.md"));
/// assert!(!in_examples("docs/examples.md") && !in_examples("examples"));
/// ```
pub fn in_examples(path: &str) -> bool {
    in_folder_named(path, EXAMPLE_FOLDERS)
}

/// Whether one of the folders a root-relative path is in (its last segment aside) is named
/// one of `names`.
///
/// ```
/// use hygiene::scan::detectors::in_folder_named;
/// assert!(in_folder_named("www/blog/v2.md", &["blog"]) && !in_folder_named("blog", &["blog"]));
/// assert!(!in_folder_named("docs/blog.md", &["blog"]));
/// ```
pub fn in_folder_named(path: &str, names: &[&str]) -> bool {
    path.rsplit_once('/')
        .is_some_and(|(dirs, _)| dirs.split('/').any(|d| names.contains(&d)))
}

/// Every detector, in the order their signals are listed on an item.
pub const ALL: &[&dyn Detector] = &[
    &missing_path::MissingPath,
    &missing_anchor::MissingAnchor,
    &missing_symbol::MissingSymbol,
    &duplicate::Duplicate,
    &checklist::Checklist,
    &status::StatusDone,
    &superseded::Superseded,
    &provisional::Provisional,
    &resolved::ResolvedNarrative,
    &oversize::Oversize,
    &drift::Drift,
];

/// Strips Markdown decoration at the start of a line (quotes, headings, bullets, emphasis,
/// GitHub alert labels, emoji), so `> **Status:** Done` reads as `Status:** Done`.
pub fn undecorate(line: &str) -> &str {
    let mut s = line.trim();
    loop {
        let before = s.len();
        s = s.trim_start_matches(|c: char| {
            matches!(
                c,
                '>' | '#' | '-' | '*' | '_' | '|' | '+' | ' ' | '\t' | '~'
            ) || (!c.is_ascii() && !c.is_alphanumeric())
        });
        if let Some(rest) = s.strip_prefix("[!") {
            if let Some(i) = rest.find(']') {
                s = &rest[i + 1..];
            }
        }
        if s.len() == before {
            return s;
        }
    }
}

/// The value of a `Status: value` line (case-insensitive key, emphasis around key or colon
/// allowed), or `None`.
pub fn status_value(line: &str) -> Option<&str> {
    let s = undecorate(line);
    let head = s.get(..6)?;
    if !head.eq_ignore_ascii_case("status") {
        return None;
    }
    let rest = s[6..].trim_start_matches(['*', '_', ' ']);
    let rest = rest.strip_prefix(':')?;
    Some(rest.trim_start_matches(['*', '_', ' ']).trim())
}

/// The first alphabetic word of `s`, lowercased.
pub fn first_word(s: &str) -> String {
    s.split(|c: char| !c.is_alphabetic())
        .find(|w| !w.is_empty())
        .unwrap_or("")
        .to_lowercase()
}

/// Lines this many past the frontmatter, at most, are the document's head.
pub const HEAD_MAX_LINES: u32 = 30;

/// The first line past the document's head: its second heading (the title's section ends
/// there), or [`HEAD_MAX_LINES`] past the frontmatter, whichever comes first. A bare
/// `Deprecated.` or `Status: fixed` further down is one item's note (`- `result.totalUsage`:
/// Deprecated. Use ...`, a field's description in a reference page), not the page's.
pub fn head_end(p: &crate::scan::markdown::Parsed) -> u32 {
    let body = p.lines.line(p.frontmatter.len);
    let second = p.headings.get(1).map_or(u32::MAX, |h| h.line);
    second.min(body + HEAD_MAX_LINES)
}

/// Lines of `prose` with their 1-based numbers.
pub fn prose_lines(prose: &str) -> impl Iterator<Item = (u32, &str)> {
    prose
        .split('\n')
        .enumerate()
        .map(|(i, l)| (i as u32 + 1, l.trim_end_matches('\r')))
}
