//! One pass of `pulldown-cmark` over a document, keeping only what the detectors need.
//!
//! Why a summary and not the text: a scan of tens of thousands of documents must not hold them
//! all in memory, so each document is parsed once, its per-document signals are computed while
//! the text is in hand, and only this summary (references, headings, block hashes) survives for
//! the cross-document detectors.

use crate::report::Via;
use pulldown_cmark::{Event, Options, Parser, Tag, TagEnd};
use std::collections::HashMap;
use std::ops::Range;

/// Byte offsets of line starts, to turn parser byte ranges into 1-based lines.
#[derive(Debug, Clone, Default)]
pub struct LineIndex {
    starts: Vec<usize>,
}

/// The first `n` (at least one) lines of `text`, without copying it: a document's head, where
/// markers and banners are looked for.
///
/// ```
/// use hygiene::scan::markdown::head_lines;
/// assert_eq!(head_lines("a\nb\nc\n", 2), "a\nb");
/// assert_eq!(head_lines("a\nb", 5), "a\nb");
/// ```
pub fn head_lines(text: &str, n: usize) -> &str {
    let end = memchr::memchr_iter(b'\n', text.as_bytes())
        .nth(n.saturating_sub(1))
        .unwrap_or(text.len());
    &text[..end]
}

impl LineIndex {
    /// Indexes `text`.
    pub fn new(text: &str) -> LineIndex {
        let mut starts = vec![0];
        starts.extend(memchr::memchr_iter(b'\n', text.as_bytes()).map(|i| i + 1));
        LineIndex { starts }
    }

    /// The 1-based line holding byte `offset`.
    pub fn line(&self, offset: usize) -> u32 {
        match self.starts.binary_search(&offset) {
            Ok(i) => i as u32 + 1,
            Err(i) => i as u32,
        }
    }

    /// The byte range of 1-based `line` (without its newline), clamped to `len`.
    pub fn range(&self, line: u32, len: usize) -> Range<usize> {
        let i = (line as usize).saturating_sub(1);
        let start = self.starts.get(i).copied().unwrap_or(len);
        let end = self
            .starts
            .get(i + 1)
            .map(|e| e.saturating_sub(1))
            .unwrap_or(len);
        start.min(len)..end.max(start).min(len)
    }

    /// How many lines the text has.
    pub fn count(&self) -> u32 {
        self.starts.len() as u32
    }
}

/// A fixed string searched for in every page: its searcher is built once, and a search is
/// SIMD (`str::contains` built a two-way searcher on every call, and the documents' phase
/// calls it a dozen times a page).
pub struct Needle {
    text: &'static str,
    finder: std::sync::OnceLock<memchr::memmem::Finder<'static>>,
}

impl Needle {
    /// The needle `text`.
    pub const fn new(text: &'static str) -> Needle {
        Needle {
            text,
            finder: std::sync::OnceLock::new(),
        }
    }

    /// The byte offset of the first occurrence in `hay`.
    ///
    /// ```
    /// use hygiene::scan::markdown::Needle;
    /// static N: Needle = Needle::new("{/*");
    /// assert_eq!(N.find("a {/* b */}"), Some(2));
    /// assert!(N.find("a {/ *").is_none() && !N.is_in(""));
    /// ```
    pub fn find(&self, hay: &str) -> Option<usize> {
        self.finder
            .get_or_init(|| memchr::memmem::Finder::new(self.text))
            .find(hay.as_bytes())
    }

    /// Whether it occurs in `hay`.
    pub fn is_in(&self, hay: &str) -> bool {
        self.find(hay).is_some()
    }
}

/// A table of fixed strings searched for in every page ([`Needle`] for each, built once).
pub struct Needles {
    words: &'static [&'static str],
    finders: std::sync::OnceLock<Vec<memchr::memmem::Finder<'static>>>,
}

impl Needles {
    /// The needles of `words`.
    pub const fn new(words: &'static [&'static str]) -> Needles {
        Needles {
            words,
            finders: std::sync::OnceLock::new(),
        }
    }

    /// Whether any of them occurs in `hay`.
    ///
    /// ```
    /// use hygiene::scan::markdown::Needles;
    /// static N: Needles = Needles::new(&["TODO", "TBD"]);
    /// assert!(N.any_in("a TBD here") && !N.any_in("todo"));
    /// ```
    pub fn any_in(&self, hay: &str) -> bool {
        self.finders
            .get_or_init(|| self.words.iter().map(memchr::memmem::Finder::new).collect())
            .iter()
            .any(|f| f.find(hay.as_bytes()).is_some())
    }
}

/// A reference to a path, as the document wrote it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ref {
    /// 1-based line where the destination text is written.
    pub line: u32,
    /// The destination as the parser read it (escapes resolved, `%XX` kept), fragment included.
    pub dest: String,
    /// How it refers.
    pub via: Via,
    /// Whether the path part occurs literally in its line, so a `replace-text` can target it.
    pub literal: bool,
    /// For a backticked path that is the text of a link to an absolute URL
    /// (``[`docs/x.md`](https://github.com/org/other/blob/main/docs/x.md)``), that URL: the
    /// link says whose file the text names.
    pub linked: Option<Box<str>>,
}

/// Whether a code span that follows `before` (its line up to the span) names what an open task
/// will bring in: the line is an unchecked task-list item, and the span is the new side of a
/// replacement (after `→`, `->` or `=>`, or after "with" in a "replace ... with"). An open
/// item that replaces `subprocess.run()` with `asyncio.create_subprocess_shell()` names a call
/// the code does not make yet; once the box is checked, the name is a claim again.
///
/// ```
/// use hygiene::scan::markdown::planned_name;
/// assert!(planned_name("- [ ] Refactor `buildFilterPrompt.ts` → "));
/// assert!(planned_name("  1. [ ] Replace `subprocess.run()` with "));
/// assert!(planned_name("* [ ] rename `a` -> "));
/// // a done task, an item without a box, the old side, or another verb: a claim
/// assert!(!planned_name("- [x] Refactor `a` → ") && !planned_name("- Refactor `a` → "));
/// assert!(!planned_name("- [ ] Replace ") && !planned_name("- [ ] Call it with "));
/// ```
pub fn planned_name(before: &str) -> bool {
    if adds(before) || hypothetical(before) {
        return true;
    }
    let Some(rest) = list_item_body(before).and_then(|b| b.strip_prefix("[ ]")) else {
        return false;
    };
    let b = rest.trim_end();
    let lower = b.to_ascii_lowercase();
    b.ends_with('→')
        || b.ends_with("->")
        || b.ends_with("=>")
        || (lower.ends_with(" with") && lower.contains("replace"))
}

/// Whether a code span that follows `before` names what a change is to bring or what might one
/// day exist: the new side of "→ becomes" or "will become" (a plan's "in-code prompt → becomes
/// `buildFilterVariables()`"), or a name in a clause about a future or hypothetical thing ("if a
/// future preset (e.g. `temporal.lastModifiedAt()`) is added"). Neither claims the code has it.
///
/// ```
/// use hygiene::scan::markdown::hypothetical;
/// assert!(hypothetical("- `a.ts` — prompt → becomes ") && hypothetical("It will become "));
/// assert!(hypothetical("Done. This works if a future preset (e.g. "));
/// assert!(hypothetical("a hypothetical "));
/// assert!(!hypothetical("In the future. Call ") && !hypothetical("It becomes ") && !hypothetical("Call "));
/// ```
pub fn hypothetical(before: &str) -> bool {
    let t = before.trim_end().to_ascii_lowercase();
    let arrow = |w: &str| {
        t.strip_suffix(w)
            .is_some_and(|b| b.trim_end().ends_with(['→', '>']))
    };
    if arrow("becomes") || t.ends_with("will become") || t.ends_with("would become") {
        return true;
    }
    // The clause the span is in (abbreviations' stops are no sentence's end).
    let t = t.replace("e.g.", "eg").replace("i.e.", "ie");
    let clause = t.rsplit(['.', ';', '!', '?']).next().unwrap_or("");
    clause
        .split(|c: char| !c.is_ascii_alphanumeric())
        .any(|w| w == "future" || w == "hypothetical")
}

/// Whether a code span that follows `before` is the object of the imperative "add" (a design's
/// "`core/modulesource.go` — add `RuntimeCodegenDisabled()` on `*ModuleSource`"): a step to
/// take, naming what the code will hold, unless the step's box is checked (then it is done, and
/// the name a claim). "Added `f()`" reports work done; "add to `f()`" names what is there.
///
/// ```
/// use hygiene::scan::markdown::adds;
/// assert!(adds("- `core/modulesource.go` — add ") && adds("Add ") && adds("- [ ] add "));
/// assert!(!adds("- [x] Add ") && !adds("Added ") && !adds("add to ") && !adds("Add a `"));
/// ```
pub fn adds(before: &str) -> bool {
    let Some(b) = before.strip_suffix(' ') else {
        return false;
    };
    let word = b
        .rsplit(|c: char| !c.is_alphanumeric())
        .next()
        .unwrap_or("");
    let done = list_item_body(before).is_some_and(|i| i.starts_with("[x]") || i.starts_with("[X]"));
    word.eq_ignore_ascii_case("add") && !done
}

/// The text of a list item after its marker, when `line` is one: a bullet (`-`, `*`, `+`) or a
/// number of one to nine digits with `.` or `)`, then a space or a tab, or nothing (an empty
/// item), as CommonMark reads a list item's start. Indentation before the marker is allowed.
/// The one reading of a list marker the detectors share.
///
/// ```
/// use hygiene::scan::markdown::list_item_body;
/// assert_eq!(list_item_body("  - `a.md` gone"), Some("`a.md` gone"));
/// assert_eq!(list_item_body("12. Step"), Some("Step"));
/// assert_eq!(list_item_body("3) Step"), Some("Step"));
/// assert_eq!(list_item_body("-"), Some(""));
/// assert_eq!(list_item_body("-item"), None);
/// assert_eq!(list_item_body("2026. A year"), Some("A year"));
/// assert_eq!(list_item_body("1234567890. Too long"), None);
/// assert_eq!(list_item_body("v1.2 notes"), None);
/// ```
pub fn list_item_body(line: &str) -> Option<&str> {
    let t = line.trim_start();
    let marker = match t.as_bytes().first()? {
        b'-' | b'*' | b'+' => 1,
        b if b.is_ascii_digit() => {
            let digits = t.bytes().take_while(u8::is_ascii_digit).count();
            if digits > 9 || !matches!(t.as_bytes().get(digits), Some(b'.' | b')')) {
                return None;
            }
            digits + 1
        }
        _ => return None,
    };
    let rest = &t[marker..];
    if rest.is_empty() {
        return Some(rest);
    }
    rest.starts_with([' ', '\t']).then(|| rest.trim_start())
}

/// A backticked string that looks like a code identifier.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CodeIdent {
    /// 1-based line.
    pub line: u32,
    /// The identifier as written.
    pub text: String,
    /// Whether it has a call (`f()`) or path (`A::b`) form, which is checked unconditionally.
    pub strong: bool,
}

/// A block that may be duplicated elsewhere: a top-level paragraph, list, table, quote or fenced
/// code, or a whole section (heading to the next heading of the same or higher level).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Block {
    /// First line.
    pub start_line: u32,
    /// Last line.
    pub end_line: u32,
    /// Hash of the whitespace-folded text.
    pub hash: u64,
    /// Length of the folded text in bytes.
    pub len: u32,
}

/// A heading.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Heading {
    /// 1..=6.
    pub level: u8,
    /// 1-based line.
    pub line: u32,
}

/// Top-level `key: value` pairs of a YAML frontmatter block, with their lines.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Frontmatter {
    /// `(key, value, line)`, values with quotes removed.
    pub pairs: Vec<(String, String, u32)>,
    /// Byte length of the whole block including its fences (0 when absent).
    pub len: usize,
}

impl Frontmatter {
    /// The value of `key`, if set.
    pub fn get(&self, key: &str) -> Option<(&str, u32)> {
        self.pairs
            .iter()
            .find(|(k, _, _)| k == key)
            .map(|(_, v, l)| (v.as_str(), *l))
    }

    /// Whether the block says `hygiene: frozen`, which exempts the document from bloat signals.
    pub fn frozen(&self) -> bool {
        self.get("hygiene")
            .is_some_and(|(v, _)| v.eq_ignore_ascii_case("frozen"))
    }
}

/// The prefixes a code block writes at the start of a quoted string (`"dynamic::relay_api_key"`
/// gives `dynamic::`): a configuration's value syntax, such as TensorZero's credential locations
/// (`env::VAR`, `dynamic::ARGUMENT_NAME`), which prose then spells with placeholders. Kept in
/// [`Parsed::code_tokens`] with their `::`.
///
/// ```
/// use hygiene::scan::markdown::value_prefixes;
/// assert_eq!(value_prefixes("api_key_location = \"dynamic::relay_key\" # or 'path::/etc/k'"), ["dynamic::", "path::"]);
/// assert!(value_prefixes("let x = std::env::var(\"HOME\");").is_empty());
/// ```
pub fn value_prefixes(code: &str) -> Vec<String> {
    let mut out = Vec::new();
    for (i, q) in code.match_indices(['"', '\'']) {
        let rest = &code[i + q.len()..];
        let word = rest
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .map_or(rest, |e| &rest[..e]);
        if !word.is_empty() && rest[word.len()..].starts_with("::") {
            let prefix = format!("{word}::");
            if !out.contains(&prefix) {
                out.push(prefix);
            }
        }
    }
    out
}

/// Everything one parse yields.
#[derive(Debug, Clone, Default)]
pub struct Parsed {
    /// Line starts.
    pub lines: LineIndex,
    /// Frontmatter pairs.
    pub frontmatter: Frontmatter,
    /// Links, images, reference definitions, backticked paths and `@imports`.
    pub refs: Vec<Ref>,
    /// Backticked identifiers.
    pub idents: Vec<CodeIdent>,
    /// Headings in order.
    pub headings: Vec<Heading>,
    /// Anchor names: GitHub heading slugs, explicit heading ids (`## Title {#id}`) and
    /// explicit `id`/`name` HTML anchors.
    pub anchors: Vec<String>,
    /// The page renders content this text does not hold (a self-closing component such as
    /// `<Settings :level="2" />`, a VitePress `<!--@include: ...-->`): its headings, and so its
    /// anchors, are not all known.
    pub includes_content: bool,
    /// Files the page embeds whole at build time, as written: markdown-include's `{!README.md!}`
    /// and pymdownx.snippets' `--8<-- "README.md"` lines. The embedded file's relative links are
    /// read from this page's folder on the site.
    pub embeds: Vec<String>,
    /// Paths that title one of the page's fenced code blocks ([`code_block_title`]), as
    /// written: on a docs site, the file of the reader's project the block shows.
    pub titled: Vec<String>,
    /// Identifier tokens (3 characters or more) of the document's own code blocks that are the
    /// last name of one of its backticked identifiers: names a tutorial or example defines for
    /// itself (only those a check asks about are kept, so a long example costs no memory).
    pub code_tokens: std::collections::HashSet<String>,
    /// Duplicate-candidate blocks.
    pub blocks: Vec<Block>,
    /// Task-list boxes: (total, checked).
    pub tasks: (u32, u32),
    /// Line ranges (1-based, inclusive, markers included) that a tool manages between its
    /// marker comments ([`managed_blocks`]).
    pub managed: Vec<(u32, u32)>,
    /// The document's own status: its frontmatter `status`, or a `Status:` line above its
    /// second heading (empty when it states none). A folder's README may say the folder is kept
    /// as a record ([`crate::roles::record_status`]).
    pub own_status: String,
    /// The text with code (fenced, indented, inline) and frontmatter blanked to spaces, same
    /// length and line structure: what prose markers are searched in.
    pub prose: String,
}

/// Whether `hay` holds `needle`. A line is short: trying each place its first byte occurs
/// costs less than building a searcher (`memmem::find` built one per call, about 1,400
/// instructions, once for every reference of every page); a long haystack gets the searcher.
///
/// ```
/// use hygiene::scan::markdown::holds;
/// assert!(holds(b"see `src/a.rs` here", b"src/a.rs") && holds(b"x", b""));
/// assert!(!holds(b"see src/a.r", b"src/a.rs") && !holds(b"", b"a"));
/// let long = [b"ab".repeat(5000), b"abc".to_vec()].concat();
/// assert!(holds(&long, b"abc") && !holds(&long, b"abd"));
/// ```
pub fn holds(hay: &[u8], needle: &[u8]) -> bool {
    let Some(&first) = needle.first() else {
        return true;
    };
    if hay.len() > 4096 {
        return memchr::memmem::find(hay, needle).is_some();
    }
    memchr::memchr_iter(first, hay).any(|i| hay[i..].starts_with(needle))
}

/// Strips a UTF-8 byte-order mark; offsets are relative to the stripped text.
pub fn strip_bom(text: &str) -> &str {
    text.strip_prefix('\u{feff}').unwrap_or(text)
}

/// Parses the frontmatter at the top of `text` (`---` fenced YAML, top-level scalars only).
pub fn frontmatter(text: &str) -> Frontmatter {
    let mut fm = Frontmatter::default();
    let mut lines = text.split_inclusive('\n');
    match lines.next() {
        Some(first) if first.trim_end() == "---" => {}
        _ => return fm,
    }
    let mut off = text.split_inclusive('\n').next().map_or(0, str::len);
    let mut pairs = Vec::new();
    for (i, raw) in lines.enumerate() {
        off += raw.len();
        let line = raw.trim_end_matches(['\n', '\r']);
        if line == "---" || line == "..." {
            fm.pairs = pairs;
            fm.len = off;
            return fm;
        }
        if line.starts_with([' ', '\t', '-', '#']) {
            continue;
        }
        if let Some((k, v)) = line.split_once(':') {
            let v = v.trim().trim_matches(['"', '\'']).to_string();
            pairs.push((k.trim().to_string(), v, i as u32 + 2));
        }
    }
    fm // unterminated: not frontmatter
}

/// Folds ASCII whitespace runs to one space and trims, the equality duplicates are judged by
/// (every block-hash match is confirmed on this folded text before it is reported).
pub fn fold(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for w in text.split_ascii_whitespace() {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(w);
    }
    out
}

/// GitHub's heading slug: lowercase, drop everything but letters, marks, numbers, `_`, `-` and
/// spaces, spaces to `-`.
///
/// ```
/// use hygiene::scan::markdown::slug;
/// assert_eq!(slug("Getting Started!"), "getting-started");
/// assert_eq!(slug("The `scan()` API"), "the-scan-api");
/// assert_eq!(slug("Ünïcode & more"), "ünïcode--more");
/// // An emoji goes, its variation selector (a mark) stays: GitHub links `#️-video-overview`.
/// assert_eq!(slug("📽️ Video Overview"), "\u{fe0f}-video-overview");
/// assert_eq!(slug("🧑‍💻 Code"), "-code");
/// // A Devanagari virama is a mark, not a letter: GitHub keeps it.
/// assert_eq!(slug("टूल्स का कलेक्शन"), "टूल्स-का-कलेक्शन");
/// ```
pub fn slug(heading: &str) -> String {
    let lower = heading.to_lowercase();
    // Sized once: every heading of every page is slugged, and a growing `String` reallocated
    // a few times for each.
    let mut out = String::with_capacity(lower.len());
    for c in lower.chars() {
        match c {
            ' ' => out.push('-'),
            '-' | '_' => out.push(c),
            c if c.is_alphanumeric() || combining_mark(c) => out.push(c),
            _ => {}
        }
    }
    out
}

/// Whether `c` is a mark (Unicode `M`: `Mn`, `Mc`, `Me`), which GitHub keeps in a slug:
/// diacritics written apart, variation selectors after an emoji, the keycap of `1️⃣`, a
/// Devanagari virama (`्`, which is not alphabetic). Read off regex-syntax's general category
/// table once.
fn combining_mark(c: char) -> bool {
    static MARKS: std::sync::OnceLock<Vec<(char, char)>> = std::sync::OnceLock::new();
    let ranges = MARKS.get_or_init(|| {
        use regex_syntax::hir::{Class, HirKind};
        match regex_syntax::parse(r"\p{M}").map(|h| h.into_kind()) {
            Ok(HirKind::Class(Class::Unicode(cls))) => {
                cls.iter().map(|r| (r.start(), r.end())).collect()
            }
            _ => Vec::new(),
        }
    });
    ranges
        .binary_search_by(|&(lo, hi)| {
            if hi < c {
                std::cmp::Ordering::Less
            } else if lo > c {
                std::cmp::Ordering::Greater
            } else {
                std::cmp::Ordering::Equal
            }
        })
        .is_ok()
}

/// A heading's text as an mkdocs site shows it, when it holds cross-references written
/// `[text][target]` (autorefs), which plain Markdown leaves in brackets: `None` without any.
///
/// ```
/// use hygiene::scan::markdown::autoref_text;
/// assert_eq!(autoref_text("[ModelProfile][pydantic_ai.profiles.ModelProfile] is now a TypedDict").as_deref(), Some("ModelProfile is now a TypedDict"));
/// assert_eq!(autoref_text("Plain [note] title"), None);
/// ```
pub fn autoref_text(txt: &str) -> Option<String> {
    let mut out = String::new();
    let mut rest = txt;
    let mut any = false;
    while let Some(i) = rest.find("][") {
        let Some(open) = rest[..i].rfind('[') else {
            break;
        };
        let Some(close) = rest[i + 2..].find(']') else {
            break;
        };
        out.push_str(&rest[..open]);
        out.push_str(&rest[open + 1..i]);
        rest = &rest[i + 2 + close + 1..];
        any = true;
    }
    out.push_str(rest);
    any.then_some(out)
}

/// The kinds of API reference heading Playwright's documentation generator renders with an
/// anchor of its own (`## async method: Page.goto` is `#page-goto`, `### option:
/// Page.goto.timeout` is `#page-goto-option-timeout`): `(prefix, infix)`, where the infix goes
/// between the class and the member. Its pages link these anchors, which GitHub's slug of the
/// heading line never equals.
pub const API_MEMBER_HEADINGS: &[(&str, &str)] = &[
    ("async method:", ""),
    ("method:", ""),
    ("property:", ""),
    ("event:", "event-"),
    ("option:", ""),
    ("param:", ""),
];

/// The anchor Playwright's generator gives an API reference heading ([`API_MEMBER_HEADINGS`]):
/// lodash's `kebabCase` of the class, then of the member, then `-option-` and the option's for
/// an option or parameter. `None` for any other heading.
///
/// ```
/// use hygiene::scan::markdown::api_member_anchor;
/// assert_eq!(api_member_anchor("async method: LocatorAssertions.toHaveText").as_deref(), Some("locator-assertions-to-have-text"));
/// assert_eq!(api_member_anchor("event: Page.console").as_deref(), Some("page-event-console"));
/// assert_eq!(api_member_anchor("option: APIRequestContext.fetch.multipart = %%-fetch-option-multipart-%%").as_deref(), Some("api-request-context-fetch-option-multipart"));
/// assert_eq!(api_member_anchor("method: Tracing.start").as_deref(), Some("tracing-start"));
/// // An overload is numbered after `#`.
/// assert_eq!(api_member_anchor("async method: PageAssertions.toHaveScreenshot#1").as_deref(), Some("page-assertions-to-have-screenshot-1"));
/// assert_eq!(api_member_anchor("Method: the start of tracing"), None);
/// assert_eq!(api_member_anchor("method: start"), None);
/// ```
pub fn api_member_anchor(txt: &str) -> Option<String> {
    let (rest, infix) = API_MEMBER_HEADINGS
        .iter()
        .find_map(|(p, i)| txt.strip_prefix(p).map(|r| (r, *i)))?;
    let name = rest.split(" = ").next()?.trim();
    let word = |s: &str| {
        !s.is_empty()
            && s.bytes()
                .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'$' | b'#'))
    };
    let parts: Vec<&str> = name.split('.').collect();
    if !(2..=3).contains(&parts.len())
        || !parts.iter().all(|p| word(p))
        || !parts[0].starts_with(|c: char| c.is_ascii_uppercase())
    {
        return None;
    }
    let mut out = format!("{}-{infix}{}", kebab_case(parts[0]), kebab_case(parts[1]));
    if let Some(option) = parts.get(2) {
        out.push_str("-option-");
        out.push_str(&kebab_case(option));
    }
    Some(out)
}

/// lodash's `kebabCase` of an ASCII identifier: words split at a case change (`toHaveText`),
/// before the last capital of a run followed by a small letter (`APIRequest`), and around
/// digits, joined by `-` in small letters.
///
/// ```
/// use hygiene::scan::markdown::kebab_case;
/// assert_eq!(kebab_case("APIRequestContext"), "api-request-context");
/// assert_eq!(kebab_case("NotToBeAttached"), "not-to-be-attached");
/// assert_eq!(kebab_case("toHaveScreenshot2"), "to-have-screenshot-2");
/// assert_eq!(kebab_case("user_data_dir"), "user-data-dir");
/// ```
pub fn kebab_case(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = String::with_capacity(s.len() + 4);
    for (i, &c) in b.iter().enumerate() {
        if !c.is_ascii_alphanumeric() {
            if !out.is_empty() && !out.ends_with('-') {
                out.push('-');
            }
            continue;
        }
        if i > 0 && b[i - 1].is_ascii_alphanumeric() {
            let p = b[i - 1];
            let next_lower = b.get(i + 1).is_some_and(|n| n.is_ascii_lowercase());
            let split = (p.is_ascii_lowercase() && c.is_ascii_uppercase())
                || (p.is_ascii_digit() != c.is_ascii_digit())
                || (p.is_ascii_uppercase() && c.is_ascii_uppercase() && next_lower);
            if split {
                out.push('-');
            }
        }
        out.push(c.to_ascii_lowercase() as char);
    }
    out.trim_end_matches('-').to_string()
}

/// Whether `s` is a URL with a scheme (`https:`, `mailto:`, ...), which is never checked.
pub fn has_scheme(s: &str) -> bool {
    let Some(colon) = s.find(':') else {
        return false;
    };
    let scheme = &s[..colon];
    colon > 1
        && scheme.starts_with(|c: char| c.is_ascii_alphabetic())
        && scheme
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '.' | '-'))
}

/// Extensions whose files count as source code (for `missing-symbol` and "references source").
pub const SOURCE_EXTENSIONS: &[&str] = &[
    "rs", "py", "js", "mjs", "cjs", "ts", "tsx", "jsx", "go", "java", "kt", "kts", "rb", "php",
    "c", "h", "cc", "cpp", "hpp", "cs", "swift", "scala", "sh", "bash", "zsh", "lua", "ex", "exs",
    "erl", "hs", "ml", "clj", "dart", "vue", "svelte", "sql", "proto", "r", "jl", "zig", "nim",
    "tf", "hcl",
];

/// Extensions that make a backticked string look like a file path even without a `/`.
pub const PATH_EXTENSIONS: &[&str] = &[
    "md", "markdown", "mdx", "mdc", "txt", "toml", "json", "jsonc", "yaml", "yml", "lock", "cfg",
    "ini", "env", "html", "css", "scss", "xml", "gradle", "mk", "csv", "png", "svg", "jpg",
];

/// The extension of the last path segment, if any.
///
/// ```
/// use hygiene::scan::markdown::extension;
/// assert_eq!(extension("docs/a.md"), Some("md"));
/// assert_eq!(extension("x.tar.gz"), Some("gz"));
/// assert_eq!(extension("dir.d/file"), None);
/// assert_eq!(extension(".gitignore"), None);
/// assert_eq!(extension("a."), None);
/// assert_eq!(extension("é/ü.rs"), Some("rs"));
/// ```
pub fn extension(path: &str) -> Option<&str> {
    // Byte searches: `/` and `.` are ASCII, so the slices fall on character boundaries.
    let start = memchr::memrchr(b'/', path.as_bytes()).map_or(0, |i| i + 1);
    let name = &path[start..];
    let dot = memchr::memrchr(b'.', name.as_bytes())?;
    (dot > 0 && dot + 1 < name.len()).then(|| &name[dot + 1..])
}

/// Whether `path` ends with an extension of source code or of a file a document names
/// ([`SOURCE_EXTENSIONS`], [`PATH_EXTENSIONS`]).
pub fn known_extension(path: &str) -> bool {
    extension(path).is_some_and(|e| {
        SOURCE_EXTENSIONS
            .iter()
            .chain(PATH_EXTENSIONS)
            .any(|x| x.eq_ignore_ascii_case(e))
    })
}

/// Whether a backticked string looks like a repository path. Strings with spaces, globs,
/// placeholders, calls, schemes or options are not paths; a path needs a `/` (an
/// extension-less `a/b` is only a path when its first segment exists, see `refs`).
///
/// ```
/// use hygiene::scan::markdown::looks_like_path;
/// assert!(looks_like_path("src/a.rs") && looks_like_path("analysis/report.Rmd"));
/// assert!(!looks_like_path("engine/server.serveQuery"));
/// assert!(!looks_like_path("pkg/github.TestAllToolsetIconsExist"));
/// ```
pub fn looks_like_path(s: &str) -> bool {
    let s = strip_line_suffix(s);
    if s.is_empty()
        || s.len() > 200
        || has_scheme(s)
        || s.starts_with(['-', '~', '@', '$', '%', '<', '!', '.']) && !dot_folder(s)
        || s.chars().any(|c| {
            c.is_whitespace()
                || matches!(
                    c,
                    '*' | '?'
                        | '['
                        | ']'
                        | '{'
                        | '}'
                        | '<'
                        | '>'
                        | '$'
                        | '|'
                        | ';'
                        | '='
                        | ','
                        | '('
                        | ')'
                        | '\''
                        | '"'
                        | '`'
                        | '\\'
                        | ':'
                        | '@'
                        | '!'
                        | '&'
                        | '^'
                )
        })
        || s.contains("//")
        || s.contains("...")
    {
        return false;
    }
    // A package-qualified name (`pkg/github.TestAllToolsetIconsExist`, a Go test;
    // `engine/server.serveQuery`, a Go function) is code: its "extension" is a long capitalised
    // identifier or a camel-case one (no file type is written `serveQuery`).
    let last = s.rsplit('/').next().unwrap_or(s);
    if last.rsplit_once('.').is_some_and(|(_, ext)| {
        (ext.len() > 8 && ext.starts_with(|c: char| c.is_ascii_uppercase()))
            || ext
                .as_bytes()
                .windows(2)
                .any(|w| w[0].is_ascii_lowercase() && w[1].is_ascii_uppercase())
    }) {
        return false;
    }
    // A bare file name (`config.toml`, `README.md`) is too often a generic mention or a file
    // the reader is told to create; only a path with a folder is a deliberate reference.
    s.contains('/') && s.split('/').any(|seg| !seg.is_empty())
}

/// The path a fenced code block's info string gives it as its title, the way docs renderers
/// write it: `title="src/a.ts"` or `filename="src/a.ts"` (Docusaurus, Expressive Code,
/// Nextra), `[src/a.ts]` (VitePress code groups), or a path after the language (Mintlify).
/// A site shows it above the block as the file the block holds.
///
/// ```
/// use hygiene::scan::markdown::code_block_title;
/// assert_eq!(code_block_title("astro title=\"src/pages/index.astro\" {3}"), Some("src/pages/index.astro"));
/// assert_eq!(code_block_title("ts filename='app/page.tsx'"), Some("app/page.tsx"));
/// assert_eq!(code_block_title("ts [src/main.ts]"), Some("src/main.ts"));
/// assert_eq!(code_block_title("javascript src/index.js"), Some("src/index.js"));
/// assert_eq!(code_block_title("ts twoslash"), None);
/// assert_eq!(code_block_title("bash title=\"Terminal\""), None, "a label, not a path");
/// assert_eq!(code_block_title("ts {1,3}"), None);
/// ```
pub fn code_block_title(info: &str) -> Option<&str> {
    let quoted = ["title=", "filename="].iter().find_map(|key| {
        let at = info.find(key)?;
        // The key starts a word: `subtitle=` is not a title.
        if at > 0 && !info[..at].ends_with(char::is_whitespace) {
            return None;
        }
        let rest = &info[at + key.len()..];
        let q = rest.chars().next().filter(|c| matches!(c, '"' | '\''))?;
        rest[1..].split_once(q).map(|(v, _)| v)
    });
    let bracketed = || {
        let (_, rest) = info.split_once('[')?;
        rest.split_once(']').map(|(v, _)| v)
    };
    let after_language = || {
        let mut words = info.split_whitespace();
        words.next()?;
        words.next().filter(|w| !w.contains('='))
    };
    let title = quoted.or_else(bracketed).or_else(after_language)?.trim();
    looks_like_path(title).then_some(title)
}

/// Whether a backticked string is a bare file name (`wrangler.toml`, `update-homebrew.sh`,
/// `.travis.yml`): no folder, an extension with a letter. Such a name is a reference to the
/// file beside the document, reported only when history shows that file existed there (a bare
/// name is as often a file of the reader's own project).
///
/// ```
/// use hygiene::scan::markdown::looks_like_file_name;
/// for yes in ["wrangler.toml", "update-homebrew.sh", ".travis.yml", "notes-red.md"] { assert!(looks_like_file_name(yes), "{yes}"); }
/// for no in ["1.5", "v1.2.3", "e.g.", "config", "a/b.md", "x.y()", "*.md", "a b.md"] { assert!(!looks_like_file_name(no), "{no}"); }
/// ```
pub fn looks_like_file_name(s: &str) -> bool {
    let s = strip_line_suffix(s);
    let Some((stem, ext)) = s.rsplit_once('.') else {
        return false;
    };
    let stem = stem.strip_prefix('.').unwrap_or(stem);
    !stem.is_empty()
        && s.len() <= 120
        && (1..=8).contains(&ext.len())
        && ext.bytes().all(|b| b.is_ascii_alphanumeric())
        && ext.bytes().any(|b| b.is_ascii_alphabetic())
        && stem
            .chars()
            .all(|c| c.is_alphanumeric() || matches!(c, '-' | '_' | '.'))
        && stem.chars().any(|c| c.is_alphabetic())
}

/// Whether `s` starts with `./`, `../` or a dot-folder (`.github/`, `.claude/`, `.beads/`):
/// hidden folders hold agent documents and configuration, so paths under them are paths.
fn dot_folder(s: &str) -> bool {
    if s.starts_with("./") || s.starts_with("../") {
        return true;
    }
    let Some(rest) = s.strip_prefix('.') else {
        return false;
    };
    let name = rest.split('/').next().unwrap_or("");
    rest.contains('/')
        && !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
}

/// Strips a `:LINE`, `:LINE:COL` or `:LINE-LINE` suffix (`src/main.rs:42`, `a.go:9-37`).
///
/// ```
/// use hygiene::scan::markdown::strip_line_suffix;
/// assert_eq!(strip_line_suffix("src/a.rs:42"), "src/a.rs");
/// assert_eq!(strip_line_suffix("src/a.rs:4:2"), "src/a.rs");
/// assert_eq!(strip_line_suffix("cmd/bd/sync.go:9-37"), "cmd/bd/sync.go");
/// assert_eq!(strip_line_suffix("a:b"), "a:b");
/// ```
pub fn strip_line_suffix(s: &str) -> &str {
    // Every suffix ends with a digit: most paths are answered by their last byte.
    if !s.as_bytes().last().is_some_and(u8::is_ascii_digit) {
        return s;
    }
    let mut out = s;
    for _ in 0..2 {
        if let Some((head, tail)) = out.rsplit_once(':') {
            let digits = |t: &str| !t.is_empty() && t.chars().all(|c| c.is_ascii_digit());
            let range = tail
                .split_once('-')
                .is_some_and(|(a, b)| digits(a) && digits(b));
            if digits(tail) || range {
                out = head;
                continue;
            }
        }
        break;
    }
    out
}

fn is_ident(s: &str) -> bool {
    let mut chars = s.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// Classifies a backticked string as a code identifier: `(text, strong)` where strong means a
/// call or path form. Returns the identifier path without its argument list.
pub fn code_ident(s: &str) -> Option<(String, bool)> {
    let s = s.trim();
    if s.len() > 120 {
        return None;
    }
    let (head, call) = match s.find('(') {
        Some(i) if s.ends_with(')') => (&s[..i], true),
        Some(_) => return None,
        None => (s, false),
    };
    if head.contains("::") {
        let segs: Vec<&str> = head.split("::").collect();
        return (segs.len() >= 2 && segs.iter().all(|p| is_ident(p))).then(|| (head.into(), true));
    }
    if call {
        let segs: Vec<&str> = head.split('.').collect();
        return (segs.iter().all(|p| is_ident(p)) && !head.is_empty()).then(|| (head.into(), true));
    }
    // A bare snake_case identifier (at least one `_` between lowercase words).
    let snake = is_ident(head)
        && head.contains('_')
        && !head.starts_with('_')
        && !head.ends_with('_')
        && head
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_');
    snake.then(|| (head.into(), false))
}

/// `@path` imports (Claude Code memory syntax) in `prose`: an `@` at the start of a word
/// followed by a path whose last segment has a known document or source extension (so
/// `@user.name` and `@app.route` are not imports).
pub fn imports(prose: &str, lines: &LineIndex) -> Vec<Ref> {
    let mut out = Vec::new();
    let bytes = prose.as_bytes();
    for (i, _) in prose.match_indices('@') {
        if i > 0 && !bytes[i - 1].is_ascii_whitespace() && !matches!(bytes[i - 1], b'(' | b'[') {
            continue;
        }
        let rest = &prose[i + 1..];
        let end = rest
            .find(|c: char| c.is_whitespace() || matches!(c, ')' | ']' | ',' | ';' | '"' | '\''))
            .unwrap_or(rest.len());
        let path = rest[..end].trim_end_matches(['.', ':']);
        if path.is_empty() || path.starts_with('~') || path.starts_with('/') || has_scheme(path) {
            continue;
        }
        if known_extension(path) && !path.contains('@') {
            out.push(Ref {
                line: lines.line(i),
                dest: path.to_string(),
                via: Via::Import,
                literal: true,
                linked: None,
            });
        }
    }
    out
}

/// `prose` with what a rendered page hides blanked: HTML comments (`<!-- ... -->`), MDX comments
/// (`{/* ... */}`) and the link-definition comment idiom (`[//]: # (TODO: ...)`, `[comment]:
/// <>`). Same length and lines; `None` when the page hides nothing. `prose` has its code
/// already blanked, so a comment opener shown in a code block opens nothing.
///
/// ```
/// use hygiene::scan::markdown::unhidden;
/// let t = "a <!-- TODO: x --> b\n{/* TBD */}\n[//]: # (FIXME)\n<!--\nWIP\n-->\nTODO";
/// let v = unhidden(t).unwrap();
/// assert_eq!(v.len(), t.len());
/// assert!(!v.contains("TODO: x") && !v.contains("TBD") && !v.contains("FIXME"));
/// assert!(!v.contains("WIP") && v.ends_with("TODO") && v.starts_with("a "));
/// assert!(unhidden("no comment, <!- not one").is_none());
/// ```
pub fn unhidden(prose: &str) -> Option<String> {
    static OPEN: Needle = Needle::new("<!--");
    static CLOSE: Needle = Needle::new("-->");
    static DEF: Needle = Needle::new("]:");
    let mut ranges = mdx_comments(prose, 0);
    // An HTML comment left open hides the rest of the page.
    ranges.extend(delimited(prose, 0, (&OPEN, &CLOSE), true));
    if ranges.is_empty() && !DEF.is_in(prose) {
        return None;
    }
    let mut at = 0;
    for line in prose.split_inclusive('\n') {
        if comment_definition(line) {
            ranges.push(at..at + line.len());
        }
        at += line.len();
    }
    if ranges.is_empty() {
        return None;
    }
    let mut b = prose.as_bytes().to_vec();
    for r in ranges {
        blank(&mut b, r);
    }
    Some(String::from_utf8_lossy(&b).into_owned())
}

/// Whether `line` is a link reference definition to `#` or `<>` with a title, the Markdown
/// comment idiom (`[//]: # (TODO: add a section)`): no renderer shows it.
fn comment_definition(line: &str) -> bool {
    let t = line.trim_end();
    let lead = t.len() - t.trim_start().len();
    let Some(rest) = t.trim_start().strip_prefix('[') else {
        return false;
    };
    let Some((_, dest)) = rest.split_once("]:") else {
        return false;
    };
    let dest = dest.trim_start();
    lead < 4
        && (matches!(dest, "#" | "<>")
            || ["# ", "<> ", "#(", "<>("]
                .iter()
                .any(|d| dest.starts_with(d)))
}

/// The byte ranges of MDX comments (`{/* ... */}`, across lines) after `from`.
///
/// ```
/// use hygiene::scan::markdown::mdx_comments;
/// let t = "a {/* [x](../LICENSE) */} b {/*\nmore\n*/}";
/// let r = mdx_comments(t, 0);
/// assert_eq!(r.len(), 2);
/// assert_eq!(&t[r[0].clone()], "{/* [x](../LICENSE) */}");
/// assert!(mdx_comments("no {/* end", 0).is_empty() && mdx_comments("{a}", 0).is_empty());
/// ```
pub fn mdx_comments(text: &str, from: usize) -> Vec<Range<usize>> {
    static OPEN: Needle = Needle::new("{/*");
    static CLOSE: Needle = Needle::new("*/}");
    delimited(text, from, (&OPEN, &CLOSE), false)
}

/// The byte ranges after `from` that open with `open` and close with `close` (both included),
/// in order; one left open runs to the end when `to_end`, and is dropped otherwise.
fn delimited(
    text: &str,
    from: usize,
    (open, close): (&Needle, &Needle),
    to_end: bool,
) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    let mut at = from;
    while let Some(i) = text.get(at..).and_then(|t| open.find(t)) {
        let start = at + i;
        let body = start + open.text.len();
        let end = match close.find(&text[body..]) {
            Some(j) => body + j + close.text.len(),
            None if to_end => text.len(),
            None => break,
        };
        out.push(start..end);
        at = end;
    }
    out
}

/// The byte ranges (after `from`, outside code fences) of lines that hold only a component's
/// opening or closing tag (`<Accordion title="Output">`, `</Tabs>`): MDX (and Docusaurus, which
/// reads `.md` as MDX) parses what such a component wraps as Markdown, where CommonMark would
/// take the tag for the start of an HTML block and a fence right under it for HTML text, so
/// that the fence's closing line opens a code block that swallows the headings after it. A
/// component's name starts with a capital; a self-closing tag, one carrying an `id` and one
/// rendering a list prop ([`includes_content`]) stay.
///
/// ```
/// use hygiene::scan::markdown::component_tag_lines;
/// let t = "<Accordion title=\"Out\">\n```text\nx\n```\n</Accordion>\n<details>\n<Snippet file=\"a.mdx\" />\n";
/// let r: Vec<&str> = component_tag_lines(t, 0).into_iter().map(|r| &t[r]).collect();
/// assert_eq!(r, ["<Accordion title=\"Out\">", "</Accordion>"]);
/// assert!(component_tag_lines("```mdx\n<Tabs>\n```\n", 0).is_empty());
/// ```
pub fn component_tag_lines(text: &str, from: usize) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    // A page with no `<` past its frontmatter has no tag line (and needs no fence scan).
    if !text.get(from..).is_some_and(|t| t.contains('<')) {
        return out;
    }
    let mut fences = fence_lines(text).into_iter().peekable();
    let mut at = 0usize;
    for (n, line) in (1u32..).zip(text.split_inclusive('\n')) {
        let start = at;
        at += line.len();
        while fences.next_if(|&(_, end)| end < n).is_some() {}
        if start < from || fences.peek().is_some_and(|&(open, _)| open <= n) {
            continue;
        }
        let body = line.trim_end_matches(['\n', '\r']);
        let t = body.trim();
        let name_at = if t.starts_with("</") { 2 } else { 1 };
        let is_tag = t.starts_with('<')
            && t.ends_with('>')
            && !t.ends_with("/>")
            && t[name_at..].starts_with(|c: char| c.is_ascii_uppercase())
            && !t.contains(" id=")
            && !renders_list_prop(t)
            && t[1..t.len() - 1].find(['<', '>']).is_none();
        if is_tag {
            let lead = body.len() - body.trim_start().len();
            out.push(start + lead..start + lead + t.len());
        }
    }
    out
}

fn blank(prose: &mut [u8], r: Range<usize>) {
    for b in &mut prose[r] {
        if *b != b'\n' && *b != b'\r' {
            *b = b' ';
        }
    }
}

/// Splits a heading's text at a trailing explicit id: `Title {#id}` → (`Title`, `id`), also in
/// the attribute-list form MkDocs and kramdown write (`Title {: #id .class }`), Fumadocs'
/// `Title [#id]` and Hugging Face doc-builder's `Title[[id]]`.
///
/// ```
/// use hygiene::scan::markdown::explicit_id;
/// assert_eq!(explicit_id("Shell {#shell-shebang}"), ("Shell", Some("shell-shebang")));
/// assert_eq!(explicit_id("`preview` {: #lint_preview }"), ("`preview`", Some("lint_preview")));
/// assert_eq!(explicit_id("Setup { #setup .wide }"), ("Setup", Some("setup")));
/// assert_eq!(explicit_id("Set {a}"), ("Set {a}", None));
/// assert_eq!(explicit_id("Sets {a #b}"), ("Sets {a #b}", None));
/// assert_eq!(explicit_id("Static Mode [#static-export]"), ("Static Mode", Some("static-export")));
/// assert_eq!(explicit_id("Arrays [#1]"), ("Arrays [#1]", None), "an issue number, not an id");
/// assert_eq!(explicit_id("Notes [#a b]"), ("Notes [#a b]", None));
/// assert_eq!(explicit_id("Limitations[[limitations]]"), ("Limitations", Some("limitations")));
/// ```
pub fn explicit_id(txt: &str) -> (&str, Option<&str>) {
    let t = txt.trim_end();
    let bracketed = t
        .strip_suffix("]]")
        .and_then(|b| b.rsplit_once("[["))
        .or_else(|| t.strip_suffix(']').and_then(|b| b.rsplit_once("[#")));
    if let Some((head, id)) = bracketed {
        if id.starts_with(|c: char| c.is_ascii_alphabetic())
            && id
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_'))
        {
            return (head.trim_end(), Some(id));
        }
    }
    let Some(body) = txt.trim_end().strip_suffix('}') else {
        return (txt, None);
    };
    let Some((head, attrs)) = body.rsplit_once('{') else {
        return (txt, None);
    };
    let attrs = attrs.trim_start().strip_prefix(':').unwrap_or(attrs);
    let tokens: Vec<&str> = attrs.split_whitespace().collect();
    // Every token an attribute (`#id`, `.class`, `key=value`), one of them the id.
    let attr = |t: &&str| t.starts_with(['#', '.']) || t.contains('=');
    let id = tokens
        .iter()
        .find_map(|t| t.strip_prefix('#'))
        .filter(|id| !id.is_empty());
    match id {
        Some(id) if tokens.iter().all(attr) => (head.trim_end(), Some(id)),
        _ => (txt, None),
    }
}

/// A heading's id written glued to its last word (`Cross-origin resource sharing (CORS)#cors`):
/// Payload's docs site reads it as the heading's id, where GitHub slugs the whole line. The id
/// is lowercase letters, digits and `-`, starting with a letter, so `C#`, `F#` and `Issue#12`
/// keep their text.
///
/// ```
/// use hygiene::scan::markdown::glued_id;
/// assert_eq!(glued_id("Using with Cloudflare R2 (via S3 API)#s3-r2"), Some(("Using with Cloudflare R2 (via S3 API)", "s3-r2")));
/// for no in ["C#", "Intro to F#", "Issue#12", "Tags #wip", "A#B"] { assert_eq!(glued_id(no), None, "{no}"); }
/// ```
pub fn glued_id(txt: &str) -> Option<(&str, &str)> {
    let (head, id) = txt.trim_end().rsplit_once('#')?;
    let glued = head
        .chars()
        .last()
        .is_some_and(|c| !c.is_whitespace() && c != '#');
    let well_formed = id.starts_with(|c: char| c.is_ascii_lowercase())
        && id
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-');
    (glued && well_formed).then_some((head, id))
}

/// Whether a page's source opens a component whose tag spans lines and renders a list prop
/// (`<PropertiesTable\n  content={[...]}`; not `style={{...}}` or `cols={2}`): Markdown reads
/// such a tag as text, so [`includes_content`] never sees it as HTML.
///
/// ```
/// use hygiene::scan::markdown::renders_props;
/// assert!(renders_props("# API\n\n<PropertiesTable\n  content={[\n  { name: 'onEnd' }]}\n/>\n"));
/// assert!(!renders_props("# API\n\n<Note>\nSee {x}.\n</Note>\n") && !renders_props("a <B c={[d]}"));
/// assert!(!renders_props("\n<Frame style={{ textAlign: \"center\" }}>\n"));
/// ```
pub fn renders_props(text: &str) -> bool {
    let mut at = 0;
    static TAG_LINE: Needle = Needle::new("\n<");
    while let Some(i) = TAG_LINE.find(&text[at..]) {
        let start = at + i + 1;
        let rest = &text[start..];
        // A tag's props start within its first lines: look no further than that, so a page of
        // many `<Tags` stays linear.
        let mut end = rest.len().min(2048);
        while !rest.is_char_boundary(end) {
            end -= 1;
        }
        if renders_list_prop(&rest[..end]) {
            return true;
        }
        at = start;
    }
    false
}

/// The file a line embeds whole at build time: markdown-include's `{!README.md!}` or
/// pymdownx.snippets' `--8<-- "README.md"` (a line of its own).
///
/// ```
/// use hygiene::scan::markdown::embedded;
/// assert_eq!(embedded("{!README.md!}"), Some("README.md"));
/// assert_eq!(embedded("--8<-- \"docs/snippets/setup.md\""), Some("docs/snippets/setup.md"));
/// assert_eq!(embedded("Write {!x!} to embed."), None);
/// assert_eq!(embedded("--8<--"), None);
/// ```
pub fn embedded(line: &str) -> Option<&str> {
    let t = line.trim();
    let path = match t.strip_prefix("{!").and_then(|r| r.strip_suffix("!}")) {
        Some(p) => p.trim(),
        None => t
            .strip_prefix("--8<--")?
            .trim()
            .strip_prefix(['"', '\''])?
            .strip_suffix(['"', '\''])?,
    };
    (!path.is_empty() && !path.contains(char::is_whitespace)).then_some(path)
}

/// Whether a page's prose asks its site to generate API documentation from code at build time
/// (`[[autodoc]] smolagents.CodeAgent` for Hugging Face's doc-builder, `::: pkg.module` for
/// mkdocstrings): the generated entries' anchors (`#smolagents.CodeAgent`) are not in the text.
///
/// ```
/// use hygiene::scan::markdown::generates_api_docs;
/// assert!(generates_api_docs("# Agents\n\n[[autodoc]] CodeAgent\n"));
/// assert!(generates_api_docs("# API\n\n::: pydantic_ai.Agent\n"));
/// // A top-level package, with the handler's options below it (`::: langmem`).
/// assert!(generates_api_docs("# API\n\n::: langmem\n    handler: python\n"));
/// assert!(!generates_api_docs("# Guide\n\nSee the API.\n") && !generates_api_docs(":::note\nx\n:::\n"));
/// assert!(!generates_api_docs("::: warning\nCareful.\n:::\n"));
/// // A page that is only a top-level package (`::: pydantic_settings`): no `:::` closes it.
/// assert!(generates_api_docs("::: pydantic_settings\n"));
/// ```
pub fn generates_api_docs(prose: &str) -> bool {
    // Most pages hold neither marker: one search each, no line list.
    static AUTODOC: Needle = Needle::new("[[autodoc]]");
    static DIRECTIVE: Needle = Needle::new("::: ");
    if !AUTODOC.is_in(prose) && !DIRECTIVE.is_in(prose) {
        return false;
    }
    let lines: Vec<&str> = prose.lines().collect();
    lines.iter().enumerate().any(|(i, l)| {
        let t = l.trim_start();
        t.starts_with("[[autodoc]]")
            || t.strip_prefix("::: ").is_some_and(|rest| {
                let name = rest.trim();
                // A dotless name is a fenced block's class (`::: warning`) unless the
                // mkdocstrings handler's options follow, indented.
                let options = || {
                    lines.get(i + 1).is_some_and(|n| {
                        let o = n.trim_start();
                        o.len() < n.len()
                            && (o.starts_with("handler:") || o.starts_with("options:"))
                    })
                };
                // Nor is one that no `:::` line closes (a container block is closed).
                let unclosed = || !lines[i + 1..].iter().any(|n| n.trim() == ":::");
                !name.is_empty()
                    && name
                        .chars()
                        .all(|c| c.is_alphanumeric() || c == '_' || c == '.')
                    && (name.contains('.') || options() || unclosed())
            })
    })
}

/// Whether a line of its own is a template variable a site's build expands
/// (`{{ pydantic_settings }}`: mkdocs-macros or an MkDocs hook writes a section there, with its
/// headings), so the page has anchors the text does not show.
///
/// ```
/// use hygiene::scan::markdown::expands_macro;
/// assert!(expands_macro("# Settings\n\n{{ pydantic_settings }}\n"));
/// assert!(!expands_macro("Hello {{ name }}, welcome.\n") && !expands_macro("{{ a + b }}\n"));
/// ```
pub fn expands_macro(prose: &str) -> bool {
    static OPEN: Needle = Needle::new("{{");
    OPEN.is_in(prose)
        && prose.lines().any(|l| {
            l.trim()
                .strip_prefix("{{")
                .and_then(|r| r.strip_suffix("}}"))
                .map(str::trim)
                .is_some_and(|v| {
                    v.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
                        && v.bytes()
                            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'.')
                })
        })
}

/// The label a MyST target line defines (`(global-config)=`), which Jupyter Book and Sphinx
/// resolve from any page: `[the config](global-config)` or `#global-config`. Such a line is
/// also kept among its document's anchors as written, so the tree's labels can be collected.
///
/// ```
/// use hygiene::scan::markdown::myst_label;
/// assert_eq!(myst_label("(global-config)="), Some("global-config"));
/// assert_eq!(myst_label("  (mcp_args)=  "), Some("mcp_args"));
/// assert_eq!(myst_label("(see below)="), None);
/// assert_eq!(myst_label("f(x)=1"), None);
/// ```
pub fn myst_label(line: &str) -> Option<&str> {
    let label = line.trim().strip_prefix('(')?.strip_suffix(")=")?;
    (!label.is_empty()
        && label
            .chars()
            .all(|c| c.is_alphanumeric() || matches!(c, '-' | '_' | '.' | ':')))
    .then_some(label)
}

/// Whether raw HTML renders content from elsewhere: a self-closing component tag
/// (`<Settings :level="2" />`, `<Snippet file="x.mdx" />`), a component rendering a list prop
/// (`<PropertiesTable content={[{ name: 'onEnd' }]}`, whose rows get ids such as `#on-end`), a
/// VitePress include or a Fumadocs `<include>` of another page.
///
/// ```
/// use hygiene::scan::markdown::includes_content;
/// assert!(includes_content("<Settings :level=\"2\" />\n"));
/// assert!(includes_content("<!--@include: ./parts/basics.md-->"));
/// assert!(includes_content("<include>../headless/page-conventions.mdx</include>"));
/// assert!(includes_content("<PropertiesTable\n  content={[\n    {\n      name: 'model',"));
/// assert!(!includes_content("<Note>\nSee below.\n</Note>"));
/// assert!(!includes_content("<br />"));
/// ```
pub fn includes_content(html: &str) -> bool {
    let t = html.trim_start();
    if t.starts_with("<!--@include:") || t.starts_with("<include>") {
        return true;
    }
    let component = t
        .strip_prefix('<')
        .is_some_and(|r| r.starts_with(|c: char| c.is_ascii_uppercase()));
    (component && t.trim_end().ends_with("/>")) || renders_list_prop(t)
}

/// Whether `t` opens a component tag (`<Name`) with a list prop (`={[`) before the tag ends.
fn renders_list_prop(t: &str) -> bool {
    let component = t
        .strip_prefix('<')
        .is_some_and(|r| r.starts_with(|c: char| c.is_ascii_uppercase()));
    component && t.split_once('>').map_or(t, |(tag, _)| tag).contains("={[")
}

/// Where the next raw HTML heading tag (`<h1>`..`<h6>`, with or without attributes) opens
/// in `html`, and its level.
fn html_heading_open(html: &str) -> Option<(usize, u8)> {
    let b = html.as_bytes();
    let mut at = 0;
    while let Some(i) = html[at..].find('<') {
        let i = at + i;
        if let [_, h, d, next, ..] = b[i..] {
            if (h == b'h' || h == b'H')
                && (b'1'..=b'6').contains(&d)
                && (next == b'>' || next.is_ascii_whitespace())
            {
                return Some((i, d - b'0'));
            }
        }
        at = i + 1;
    }
    None
}

/// `base` as GitHub numbers a repeated slug in document order: `x`, `x-1`, `x-2`.
fn numbered(seen: &mut HashMap<String, u32>, base: String) -> String {
    let n = seen.entry(base.clone()).or_insert(0);
    let s = if *n == 0 { base } else { format!("{base}-{n}") };
    *n += 1;
    s
}

/// The texts of the complete raw HTML headings in `buf` (tags stripped, `&amp;` read), in
/// order; what follows the last one is left in `buf` when it opens another not yet closed.
///
/// ```
/// use hygiene::scan::markdown::take_html_headings;
/// let mut b = String::from("<summary><h3>General <a href=\"#top\">🔝</a></h3></summary><h2 align=\"center\">A &amp; B</h2>");
/// assert_eq!(take_html_headings(&mut b), ["General 🔝", "A & B"]);
/// assert!(b.is_empty());
/// let mut open = String::from("<h3>Half");
/// assert!(take_html_headings(&mut open).is_empty() && open == "<h3>Half");
/// ```
pub fn take_html_headings(buf: &mut String) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = 0;
    while let Some((i, level)) = html_heading_open(&buf[rest..]) {
        let start = rest + i;
        let Some(gt) = buf[start..].find('>') else {
            break;
        };
        let inner_start = start + gt + 1;
        let close = format!("</h{level}");
        let lower = buf[inner_start..].to_ascii_lowercase();
        let Some(end) = lower.find(&close) else {
            break;
        };
        let inner = &buf[inner_start..inner_start + end];
        let mut txt = String::new();
        let mut in_tag = false;
        for c in inner.chars() {
            match c {
                '<' => in_tag = true,
                '>' => in_tag = false,
                c if !in_tag => txt.push(c),
                _ => {}
            }
        }
        out.push(txt.replace("&amp;", "&"));
        rest = inner_start + end + close.len();
    }
    // Keep an opened heading that is not closed yet; drop what is done.
    *buf = match html_heading_open(&buf[rest..]) {
        Some((i, _)) => buf[rest + i..].to_string(),
        None => String::new(),
    };
    out
}

fn html_anchors(html: &str, out: &mut Vec<String>) {
    for key in ["id=\"", "name=\""] {
        for (i, _) in html.match_indices(key) {
            let rest = &html[i + key.len()..];
            if let Some(end) = rest.find('"') {
                out.push(rest[..end].to_lowercase());
            }
        }
    }
    out.extend(titled_component_anchors(html));
}

/// Components a docs renderer gives an anchor made from their `title` (Mintlify's
/// `<Accordion title="How do I check the logs?">` is `#how-do-i-check-the-logs`, and so is a
/// `<Tab>`'s).
pub const TITLED_ANCHOR_COMPONENTS: &[&str] = &["Accordion", "Tab"];

/// The anchors the [`TITLED_ANCHOR_COMPONENTS`] opened in raw HTML `html` get: each title's
/// slug.
///
/// ```
/// use hygiene::scan::markdown::titled_component_anchors;
/// assert_eq!(titled_component_anchors("<Accordion title=\"How do I check logs?\">"), ["how-do-i-check-logs"]);
/// assert_eq!(titled_component_anchors("<Tab title=\"ComfyUI Manager 経由でインストール\">"), ["comfyui-manager-経由でインストール"]);
/// assert!(titled_component_anchors("<Tabs>\n<Card title=\"Setup\">").is_empty());
/// assert!(titled_component_anchors("<Tab subtitle=\"Setup\">").is_empty());
/// ```
pub fn titled_component_anchors(html: &str) -> Vec<String> {
    let mut out = Vec::new();
    for (i, _) in html.match_indices('<') {
        let tag = &html[i + 1..];
        let Some(name) = TITLED_ANCHOR_COMPONENTS.iter().find(|c| {
            tag.strip_prefix(**c)
                .is_some_and(|r| r.starts_with(|ch: char| ch.is_whitespace()))
        }) else {
            continue;
        };
        let attrs = &tag[name.len()..];
        let attrs = attrs.split('>').next().unwrap_or(attrs);
        // `title="..."` as an attribute of its own (not `subtitle="..."`).
        if let Some(title) = attrs
            .match_indices("title=\"")
            .find(|(at, _)| attrs[..*at].ends_with(char::is_whitespace))
            .and_then(|(at, key)| attrs[at + key.len()..].split_once('"'))
            .map(|(t, _)| t)
        {
            out.push(slug(title.trim()));
        }
    }
    out
}

/// Words of a marker comment (a line that is only `<!-- ... -->`) that open a block a tool
/// manages, and that close it: `<!-- OMC:START -->` .. `<!-- OMC:END -->`, `<!-- BEGIN BEADS
/// INTEGRATION -->` .. `<!-- END BEADS INTEGRATION -->`, doctoc's and all-contributors' blocks.
/// An installer or generator rewrites what lies between; in a tool's own repository the block
/// is often what it ships.
pub const MANAGED_BLOCK_WORDS: (&[&str], &[&str]) = (&["start", "begin"], &["end"]);

/// The line ranges (1-based, inclusive, marker lines included) of the blocks a tool manages
/// between marker comments ([`MANAGED_BLOCK_WORDS`]), outside fenced code. A block left open
/// runs to the end of the document.
///
/// ```
/// use hygiene::scan::markdown::managed_blocks;
/// let t = "# X\n<!-- OMC:START -->\n<!-- OMC:VERSION:4 -->\ntext\n<!-- OMC:END -->\nmine\n";
/// assert_eq!(managed_blocks(t), vec![(2, 5)]);
/// let t = "a\n<!-- BEGIN BEADS INTEGRATION -->\nb\n```\n<!-- END -->\n```\n";
/// assert_eq!(managed_blocks(t), vec![(2, 6)]);
/// assert!(managed_blocks("<!-- markdownlint-disable -->\nx\n<!-- Ending soon -->\n").is_empty());
/// ```
pub fn managed_blocks(text: &str) -> Vec<(u32, u32)> {
    if !text.contains("<!--") {
        return Vec::new();
    }
    managed_blocks_in(text, &fence_lines(text))
}

/// [`managed_blocks`] of `text` whose fenced lines ([`fence_lines`]) are `fences`.
fn managed_blocks_in(text: &str, fences: &[(u32, u32)]) -> Vec<(u32, u32)> {
    let mut out = Vec::new();
    let mut open: Option<u32> = None;
    let mut n = 0u32;
    for line in text.lines() {
        n += 1;
        let Some(inner) = line
            .trim()
            .strip_prefix("<!--")
            .and_then(|r| r.strip_suffix("-->"))
        else {
            continue;
        };
        if in_fences(fences, n) {
            continue;
        }
        let lower = inner.to_lowercase();
        let words: Vec<&str> = lower
            .split(|c: char| c.is_whitespace() || c == ':' || c == '-' || c == '_')
            .filter(|w| !w.is_empty())
            .collect();
        let has = |set: &[&str]| words.iter().any(|w| set.contains(w));
        let (opens, closes) = MANAGED_BLOCK_WORDS;
        if has(opens) {
            open.get_or_insert(n);
        } else if has(closes) {
            if let Some(a) = open.take() {
                out.push((a, n));
            }
        }
    }
    if let Some(a) = open {
        out.push((a, n));
    }
    out
}

/// The managed block of `managed` ([`managed_blocks`]) that lines `start..=end` reach into.
pub fn managed_at(managed: &[(u32, u32)], start: u32, end: u32) -> Option<(u32, u32)> {
    managed
        .iter()
        .copied()
        .find(|&(a, b)| a <= end && start <= b)
}

/// Whether line `n` (1-based) lies in one of `fences` ([`fence_lines`]).
pub fn in_fences(fences: &[(u32, u32)], n: u32) -> bool {
    fences.iter().any(|&(a, b)| a <= n && n <= b)
}

/// The document's own status ([`Parsed::own_status`]): the frontmatter's `status`, else the
/// first `Status:` line of the prose above its second heading.
///
/// ```
/// use hygiene::scan::markdown::parse;
/// assert_eq!(parse("# X\n\nStatus: beta history.\n\n## A\n").own_status, "beta history.");
/// assert_eq!(parse("# X\n\n## A\n\nStatus: done\n").own_status, "");
/// assert_eq!(parse("---\nstatus: archived\n---\n# X\n").own_status, "archived");
/// ```
fn own_status(fm: &Frontmatter, prose: &str) -> String {
    if let Some((v, _)) = fm.get("status") {
        return v.to_string();
    }
    let mut headings = 0;
    let lines: Vec<&str> = prose.lines().map(str::trim).collect();
    for (i, l) in lines.iter().enumerate() {
        if l.starts_with('#') {
            headings += 1;
            if headings >= 2 {
                break;
            }
        }
        if let Some(v) = crate::scan::detectors::status_value(l) {
            // A field of a template the document shows (`* **Date Archived:** YYYY-MM-DD`
            // above `* **Status:** COMPLETED`) is the status of the files it describes.
            let near = |j: Option<usize>| j.and_then(|j| lines.get(j)).copied().unwrap_or("");
            if template_field(near(i.checked_sub(1))) || template_field(near(Some(i + 1))) {
                continue;
            }
            return v.to_string();
        }
    }
    String::new()
}

/// Whether a line is a field of a fill-in template: a label with a placeholder value
/// (`* **Date Archived:** YYYY-MM-DD`). A label with no value on its line introduces a list
/// (`- **Features**:`), so it says nothing.
///
/// ```
/// use hygiene::scan::markdown::template_field;
/// assert!(template_field("* **Date Archived:** YYYY-MM-DD") && template_field("Date: YYYYMMDD"));
/// assert!(!template_field("**Owner:** docs team") && !template_field("- **Features**:"));
/// assert!(!template_field("") && !template_field("Dates look like YYYY-MM-DD."));
/// ```
pub fn template_field(line: &str) -> bool {
    let t = line.trim_start();
    let t = t
        .strip_prefix("* ")
        .or_else(|| t.strip_prefix("- "))
        .unwrap_or(t)
        .trim_start();
    t.split_once(':').is_some_and(|(label, value)| {
        (t.starts_with("**") || !label.contains(' ')) && value.contains("YYYY")
    })
}

/// Parses `text` (BOM already stripped).
pub fn parse(text: &str) -> Parsed {
    parse_with(text, true)
}

/// Parses `text`, with its duplicate-candidate blocks only when `with_blocks` (a versioned or
/// translated copy is never a copy to dedupe or keep: hashing its sections is wasted).
pub fn parse_with(text: &str, with_blocks: bool) -> Parsed {
    let lines = LineIndex::new(text);
    let fm = frontmatter(text);
    let body_start = fm.len;
    let mut prose = text.as_bytes().to_vec();
    blank(&mut prose, 0..body_start);
    // MDX comments (`{/* [old](../LICENSE) */}`) are not rendered: no link in them is a claim.
    // (Their prose stays: a `{/* TODO */}` is the page's own marker.)
    let mut unparsed = mdx_comments(text, body_start);
    // A component's own tag lines are no HTML blocks: what they wrap is Markdown.
    let tags = component_tag_lines(text, body_start);
    let has_components = !tags.is_empty();
    // Their ids (`<Accordion id="x">`, a titled accordion's anchor) are the page's.
    let mut tag_anchors = Vec::new();
    for r in &tags {
        html_anchors(&text[r.clone()], &mut tag_anchors);
    }
    unparsed.extend(tags);

    let mut opts = Options::empty();
    opts.insert(Options::ENABLE_TABLES);
    opts.insert(Options::ENABLE_TASKLISTS);
    opts.insert(Options::ENABLE_STRIKETHROUGH);
    // The frontmatter is parsed by hand; blanking it keeps offsets and lines unchanged.
    let body: String = if unparsed.is_empty() {
        String::from_utf8_lossy(&prose[..body_start]).into_owned() + &text[body_start..]
    } else {
        let mut b = prose.clone();
        for r in &unparsed {
            blank(&mut b, r.clone());
        }
        String::from_utf8_lossy(&b).into_owned()
    };
    let mut p = Parsed {
        lines,
        frontmatter: fm,
        anchors: tag_anchors,
        ..Parsed::default()
    };
    let mut parser = Parser::new_ext(&body, opts).into_offset_iter();
    let mut depth = 0usize; // block container depth
    let mut heading: Option<(u8, usize, String)> = None;
    let mut in_code_block = false;
    let mut slugs: HashMap<String, u32> = HashMap::new();
    // Raw HTML since an unclosed `<hN>` opened (a heading's tags may span HTML events).
    let mut html_heading = String::new();
    let mut top_blocks: Vec<Range<usize>> = Vec::new();
    let mut in_link_dest: Vec<(String, Range<usize>)> = Vec::new();
    // The destinations of the links the parser is inside, innermost last.
    let mut open_links: Vec<pulldown_cmark::CowStr<'_>> = Vec::new();
    for (ev, range) in parser.by_ref() {
        match ev {
            Event::Start(tag) => {
                let blockish = matches!(
                    &tag,
                    Tag::Paragraph
                        | Tag::List(_)
                        | Tag::CodeBlock(_)
                        | Tag::Table(_)
                        | Tag::BlockQuote(_)
                );
                if blockish && depth == 0 {
                    top_blocks.push(range.clone());
                }
                match tag {
                    Tag::Heading { level, .. } => {
                        heading = Some((level as u8, range.start, String::new()));
                    }
                    Tag::CodeBlock(kind) => {
                        if let pulldown_cmark::CodeBlockKind::Fenced(info) = &kind {
                            if let Some(t) = code_block_title(info) {
                                if !p.titled.iter().any(|x| x == t) {
                                    p.titled.push(t.to_string());
                                }
                            }
                        }
                        in_code_block = true;
                        blank(&mut prose, range.clone())
                    }
                    Tag::Link {
                        link_type,
                        dest_url,
                        ..
                    }
                    | Tag::Image {
                        link_type,
                        dest_url,
                        ..
                    } => {
                        use pulldown_cmark::LinkType as L;
                        if matches!(link_type, L::Inline) {
                            in_link_dest.push((dest_url.to_string(), range.clone()));
                        }
                        open_links.push(dest_url);
                    }
                    _ => {}
                }
                depth += 1;
            }
            Event::End(end) => {
                depth = depth.saturating_sub(1);
                if let TagEnd::CodeBlock = end {
                    in_code_block = false;
                }
                if let TagEnd::Link | TagEnd::Image = end {
                    open_links.pop();
                }
                if let TagEnd::Heading(_) = end {
                    if let Some((level, start, txt)) = heading.take() {
                        // `## Title {#id}`: the id is the anchor site generators use; GitHub
                        // shows the braces and slugs the whole line.
                        let (txt, explicit) = explicit_id(txt.trim());
                        if let Some(id) = explicit {
                            p.anchors.push(id.to_lowercase());
                            p.anchors.push(slug(txt));
                        } else if let Some((head, id)) = glued_id(txt) {
                            p.anchors.push(id.to_string());
                            p.anchors.push(slug(head));
                        }
                        p.anchors.push(numbered(&mut slugs, slug(txt.trim())));
                        // mkdocs autorefs: `[`X`][pkg.X] is new` shows as "X is new" on the
                        // site (GitHub shows the brackets); either slug is an anchor.
                        if let Some(shown) = autoref_text(txt.trim()) {
                            p.anchors.push(slug(&shown));
                        }
                        if let Some(id) = api_member_anchor(txt.trim()) {
                            p.anchors.push(id);
                        }
                        p.headings.push(Heading {
                            level,
                            line: p.lines.line(start),
                        });
                    }
                }
            }
            Event::Text(t) => {
                if let Some(h) = heading.as_mut() {
                    h.2.push_str(&t);
                }
                if in_code_block {
                    for tok in t.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_')) {
                        if tok.len() >= 3 && !tok.starts_with(|c: char| c.is_ascii_digit()) {
                            p.code_tokens.insert(tok.to_string());
                        }
                    }
                    p.code_tokens.extend(value_prefixes(&t));
                }
            }
            Event::Code(t) => {
                if let Some(h) = heading.as_mut() {
                    h.2.push_str(&t);
                }
                let line = p.lines.line(range.start);
                let inner = t.trim();
                let path = looks_like_path(inner);
                if path || looks_like_file_name(inner) {
                    p.refs.push(Ref {
                        line,
                        dest: inner.to_string(),
                        via: Via::Code,
                        literal: false,
                        linked: open_links
                            .last()
                            .filter(|u| has_scheme(u))
                            .map(|u| Box::from(u.as_ref())),
                    });
                }
                // `config.load` may be a file name or a member: it stays an identifier too.
                // The name an open task will bring in is no claim about the code.
                let line_start = p.lines.range(line, text.len()).start;
                if !path && !planned_name(text.get(line_start..range.start).unwrap_or("")) {
                    if let Some((text, strong)) = code_ident(inner) {
                        p.idents.push(CodeIdent { line, text, strong });
                    }
                }
                blank(&mut prose, range);
            }
            Event::Html(h) | Event::InlineHtml(h) => {
                p.includes_content |= includes_content(&h);
                html_anchors(&h, &mut p.anchors);
                // GitHub gives a raw `<h3>` heading an anchor too, numbered with the others.
                if !html_heading.is_empty() || html_heading_open(&h).is_some() {
                    html_heading.push_str(&h);
                    for txt in take_html_headings(&mut html_heading) {
                        p.anchors.push(numbered(&mut slugs, slug(txt.trim())));
                    }
                }
            }
            Event::TaskListMarker(checked) => {
                p.tasks.0 += 1;
                p.tasks.1 += u32::from(checked);
            }
            _ => {}
        }
    }
    // Inline links: the line is where the destination is written (it may follow a multi-line
    // label).
    for (dest, range) in in_link_dest {
        if dest.is_empty() {
            continue;
        }
        let slice = &body[range.clone()];
        // A link on one line (nearly all) is on its first line; else its destination is
        // searched (`memmem`: a one-shot search costs less than `str::rfind`'s searcher).
        let at = if memchr::memchr(b'\n', slice.as_bytes()).is_none() {
            range.start
        } else {
            memchr::memmem::rfind(slice.as_bytes(), dest.as_bytes())
                .map_or(range.start, |i| range.start + i)
        };
        p.refs.push(Ref {
            line: p.lines.line(at),
            dest,
            via: Via::Link,
            literal: false,
            linked: None,
        });
    }
    // Reference definitions are checked where they are defined, used or not.
    for (_, def) in parser.reference_definitions().iter() {
        if def.dest.is_empty() {
            continue;
        }
        let slice = &body[def.span.clone()];
        let at = memchr::memmem::rfind(slice.as_bytes(), def.dest.as_bytes())
            .map_or(def.span.start, |i| def.span.start + i);
        p.refs.push(Ref {
            line: p.lines.line(at),
            dest: def.dest.to_string(),
            via: Via::Link,
            literal: false,
            linked: None,
        });
    }
    let examples = nested_markdown_examples(text);
    for r in &examples {
        blank(&mut prose, r.clone());
    }
    let prose = String::from_utf8(prose).unwrap_or_default();
    // MyST targets (`(global-config)=` above a heading): an anchor here, and a label any page
    // of the site may link to by name (kept among the anchors as written, see [`myst_label`]).
    static MYST: Needle = Needle::new(")=");
    if MYST.is_in(&prose) {
        for l in prose.lines() {
            if let Some(label) = myst_label(l) {
                p.anchors.push(label.to_lowercase());
                p.anchors.push(l.trim().to_string());
            }
        }
    }
    // MDX has no indented code: a heading indented inside a component (`<Step>` over
    // `    ### Configure the provider`) is a heading with an anchor, where CommonMark reads code.
    // The fenced lines, found once for this and the managed blocks.
    let fences = std::cell::OnceCell::new();
    let fences = || fences.get_or_init(|| fence_lines(text));
    if has_components {
        for (i, l) in text.lines().enumerate() {
            let t = l.trim_start_matches([' ', '\t']);
            if l.len() - t.len() < 4 || in_fences(fences(), i as u32 + 1) {
                continue;
            }
            let level = t.bytes().take_while(|&b| b == b'#').count();
            if (1..=6).contains(&level) && t[level..].starts_with(' ') {
                p.anchors.push(slug(t[level..].trim()));
            }
        }
    }
    // An attribute line of its own (`{#projects-config}` above a code block: markdown-it-attrs,
    // VitePress) gives the block that id; so does mkdocs-autorefs' empty link `[](){#id}`,
    // anywhere in a line.
    static ATTR: Needle = Needle::new("{#");
    if ATTR.is_in(&prose) {
        let id_of = |r: &str| {
            r.split_once('}')
                .map(|(id, _)| id.trim())
                .filter(|id| {
                    !id.is_empty()
                        && id
                            .bytes()
                            .all(|b| b.is_ascii_alphanumeric() || b"-_".contains(&b))
                })
                .map(str::to_lowercase)
        };
        for l in prose.lines() {
            let t = l.trim();
            if let Some(id) = t
                .strip_prefix("{#")
                .filter(|r| r.ends_with('}'))
                .and_then(id_of)
            {
                p.anchors.push(id);
            }
            for (at, _) in l.match_indices("[](){#") {
                p.anchors.extend(id_of(&l[at + 6..]));
            }
        }
    }
    p.own_status = own_status(&p.frontmatter, &prose);
    static COMMENT: Needle = Needle::new("<!--");
    if COMMENT.is_in(text) {
        p.managed = managed_blocks_in(text, fences());
    }
    p.refs.extend(imports(&prose, &p.lines));
    // Code blocks are blank in the prose: a JSX example is not the page's own component.
    p.includes_content |=
        renders_props(&prose) || generates_api_docs(&prose) || expands_macro(&prose);
    static INCLUDE: Needle = Needle::new("{!");
    static SNIPPET: Needle = Needle::new("--8<--");
    if INCLUDE.is_in(&prose) || SNIPPET.is_in(&prose) {
        p.embeds = prose
            .lines()
            .filter_map(embedded)
            .map(str::to_string)
            .collect();
    }
    // A Mintlify API page (`openapi: post /v3/memories/add/`) renders its operation's
    // parameters and responses from the specification, with anchors (`#body-messages`).
    p.includes_content |= p.frontmatter.get("openapi").is_some();
    // A TanStack docs page whose frontmatter `ref:` names another page is built from that
    // page's text (`ref: docs/framework/react/guides/query-functions.md`), its headings too.
    p.includes_content |= p
        .frontmatter
        .get("ref")
        .is_some_and(|(v, _)| v.ends_with(".md") || v.ends_with(".mdx"));
    for r in &mut p.refs {
        let line = &text[p.lines.range(r.line, text.len())];
        let written = super::refs::split(&r.dest).written;
        r.literal =
            !written.is_empty() && holds(line.as_bytes(), strip_line_suffix(written).as_bytes());
    }
    // One reference per line and path: `[`src/x.rs`](src/x.rs)` is one fact, reported as the
    // link (links, then code spans, then imports).
    let key = |r: &Ref| {
        let rank = match r.via {
            Via::Link => 0,
            Via::Code => 1,
            Via::Import => 2,
        };
        let written = strip_line_suffix(super::refs::split(&r.dest).written).to_string();
        (r.line, written, rank, r.dest.clone())
    };
    p.refs.sort_by_cached_key(key);
    p.refs.dedup_by(|later, first| {
        later.line == first.line
            && (later.dest == first.dest
                || (later.via != Via::Link
                    && strip_line_suffix(super::refs::split(&later.dest).written)
                        == strip_line_suffix(super::refs::split(&first.dest).written)))
    });
    if with_blocks {
        p.blocks = blocks(&body, &p.lines, &top_blocks, &p.headings);
    }
    // A Markdown example whose author nests fences in it ([`nested_markdown_examples`]) is
    // read as its author wrote it: its links and markers are the example's. (Its headings stay
    // as rendered: a link's anchor is what the page renders.)
    for r in &examples {
        let (first, last) = (p.lines.line(r.start), p.lines.line(r.end.saturating_sub(1)));
        p.refs.retain(|x| x.line < first || x.line > last);
    }
    p.prose = prose;
    let asked: std::collections::HashSet<&str> = p
        .idents
        .iter()
        .map(|i| crate::scan::detectors::missing_symbol::last(&i.text))
        .collect();
    p.code_tokens
        .retain(|t| asked.contains(t.as_str()) || t.ends_with("::"));
    p.code_tokens.shrink_to_fit();
    p
}

/// Info strings of a fence that shows a Markdown document (` ```markdown `).
pub const MARKDOWN_FENCE_INFOS: &[&str] = &["markdown", "md", "mdx"];

/// The byte ranges of the fences showing a Markdown document whose author nests fences in
/// them: in ` ```markdown `, a line ` ```bash ` opens an inner block and the bare ` ``` ` after
/// it closes that block, as in the file shown. CommonMark closes the outer fence there, and the
/// rest of the example (a proposed `SKILL.md`'s links, a README template's
/// `[API](./docs/api/README.md)`) renders as the page's own Markdown; an agent reads the raw
/// text as its author wrote it, an example. Each range runs from the outer opening line to the
/// author's closing one, and only when that close comes (else the nesting is not what the
/// author meant), and not for a fence that opens the file (it wraps the document itself).
/// Fence lines are indented three spaces at most, as in CommonMark.
///
/// ```
/// use hygiene::scan::markdown::nested_markdown_examples;
/// let t = "Shown:\n```markdown\n# X\n```bash\nrun\n```\n[a](a.md)\n```\nafter\n";
/// assert_eq!(nested_markdown_examples(t), vec![7..53]);
/// assert!(nested_markdown_examples(&t[7..]).is_empty());
/// assert!(nested_markdown_examples("```markdown\n```bash\nrun\n```\n[a](a.md)\n").is_empty());
/// assert!(nested_markdown_examples("```markdown\n    ```bash\n    ```\n```\n[a](a.md)\n").is_empty());
/// assert!(nested_markdown_examples("```bash\n```py\nx\n```\n").is_empty());
/// ```
pub fn nested_markdown_examples(text: &str) -> Vec<Range<usize>> {
    enum Open {
        /// Another fence (its char and run length): its lines are code.
        Other(u8, usize),
        /// A Markdown fence: where it starts, its run length, the inner depth, whether it nests.
        Markdown(usize, usize, u32, bool),
    }
    let mut out = Vec::new();
    let mut open: Option<Open> = None;
    let mut at = 0;
    for line in text.split_inclusive('\n') {
        let start = at;
        at += line.len();
        let lead = line.len() - line.trim_start_matches(' ').len();
        if lead > 3 {
            continue;
        }
        let t = line.trim();
        let run_of = |c: u8| t.bytes().take_while(|&b| b == c).count();
        match open.as_mut() {
            None => {
                for c in [b'`', b'~'] {
                    let run = run_of(c);
                    if run < 3 {
                        continue;
                    }
                    let first = t[run..].split_whitespace().next().unwrap_or("");
                    let first = first.to_ascii_lowercase();
                    open = Some(
                        if c == b'`' && MARKDOWN_FENCE_INFOS.contains(&first.as_str()) {
                            Open::Markdown(start, run, 0, false)
                        } else {
                            Open::Other(c, run)
                        },
                    );
                    break;
                }
            }
            Some(Open::Other(c, len)) => {
                let run = run_of(*c);
                if run >= *len && t[run..].trim().is_empty() {
                    open = None;
                }
            }
            Some(Open::Markdown(from, len, depth, nests)) => {
                let run = run_of(b'`');
                if run < *len {
                    continue;
                }
                if !t[run..].trim().is_empty() {
                    *depth += 1;
                    *nests = true;
                } else if *depth > 0 {
                    *depth -= 1;
                } else {
                    // A fence that opens the file wraps the whole document (a model's answer
                    // pasted with its fence): the document, not an example in it.
                    if *nests && !text[..*from].trim().is_empty() {
                        out.push(*from..at);
                    }
                    open = None;
                }
            }
        }
    }
    out
}

/// Line ranges (1-based, inclusive) of fenced code found line by line: a run of three or more
/// backticks or tildes opens a fence, a run of the same character at least as long closes it.
/// Read this way on purpose, whatever HTML blocks around a fence make a CommonMark parser see
/// (`<Good>` before a fence swallows its opening line), because a reader sees a fence there.
///
/// ```
/// use hygiene::scan::markdown::fence_lines;
/// assert_eq!(fence_lines("a\n```md\nx\n```\nb\n~~~~\n```\n~~~~\n"), vec![(2, 4), (6, 8)]);
/// assert_eq!(fence_lines("```\nnever closed\n"), vec![(1, 2)]);
/// ```
pub fn fence_lines(text: &str) -> Vec<(u32, u32)> {
    let mut out = Vec::new();
    let mut open: Option<(u32, u8, usize)> = None;
    let mut n = 0u32;
    for line in text.lines() {
        n += 1;
        let t = line.trim_start();
        let run = |c: u8| t.bytes().take_while(|&b| b == c).count();
        match open {
            None => {
                for c in [b'`', b'~'] {
                    if run(c) >= 3 {
                        open = Some((n, c, run(c)));
                        break;
                    }
                }
            }
            Some((start, c, len)) => {
                if run(c) >= len && t[run(c)..].trim().is_empty() {
                    out.push((start, n));
                    open = None;
                }
            }
        }
    }
    if let Some((start, _, _)) = open {
        out.push((start, n.max(start)));
    }
    out
}

/// One top-level Markdown block: a paragraph, heading, list, table, quote, fenced code, HTML
/// block or rule, by its lines.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TopBlock {
    /// First line.
    pub start_line: u32,
    /// Last line (trailing blank lines excluded).
    pub end_line: u32,
    /// Whether it is a paragraph.
    pub paragraph: bool,
    /// Its level, when it is a heading.
    pub heading: Option<u8>,
}

/// The top-level blocks of `text`, in order.
///
/// ```
/// use hygiene::scan::markdown::top_blocks;
/// let b = top_blocks("# T\n\nPara\ntwo.\n\n```\ncode\n```\n");
/// let lines: Vec<(u32, u32)> = b.iter().map(|b| (b.start_line, b.end_line)).collect();
/// assert_eq!(lines, [(1, 1), (3, 4), (6, 8)]);
/// assert_eq!(b[0].heading, Some(1));
/// assert!(b[1].paragraph && b[2].heading.is_none());
/// ```
pub fn top_blocks(text: &str) -> Vec<TopBlock> {
    let lines = LineIndex::new(text);
    let mut blocks: Vec<TopBlock> = Vec::new();
    let mut depth = 0usize;
    for (ev, range) in Parser::new_ext(text, Options::ENABLE_TABLES).into_offset_iter() {
        match ev {
            Event::Start(tag) => {
                if depth == 0 {
                    let slice = &text[range.clone()];
                    let last = range.start + slice.trim_end().len();
                    blocks.push(TopBlock {
                        start_line: lines.line(range.start),
                        end_line: lines.line(last.saturating_sub(1).max(range.start)),
                        paragraph: matches!(tag, Tag::Paragraph),
                        heading: match tag {
                            Tag::Heading { level, .. } => Some(level as u8),
                            _ => None,
                        },
                    });
                }
                depth += 1;
            }
            Event::End(_) => depth = depth.saturating_sub(1),
            _ if depth == 0 => {
                // A top-level event with no container (an HTML block line, a rule).
                blocks.push(TopBlock {
                    start_line: lines.line(range.start),
                    end_line: lines.line(range.end.saturating_sub(1).max(range.start)),
                    paragraph: false,
                    heading: None,
                });
            }
            _ => {}
        }
    }
    blocks
}

/// Why lines `start..=end` of `text` are not whole Markdown blocks that can be removed on their
/// own, if they are not: the span must begin where a top-level block or heading begins, end where
/// one ends, cut through no block and no fenced code, and not end on a paragraph that introduces
/// what follows it (`Examples:`).
///
/// ```
/// use hygiene::scan::markdown::span_problem;
/// let t = "# T\n\nPara one\ncontinues.\n\n- a\n- b\n\n```\ncode\n```\n\nSee:\n\n```\nx\n```\n";
/// assert_eq!(span_problem(t, 3, 4), None);
/// assert_eq!(span_problem(t, 3, 7), None);
/// assert!(span_problem(t, 4, 4).is_some(), "half a paragraph");
/// assert!(span_problem(t, 10, 10).is_some(), "inside a fence");
/// assert!(span_problem(t, 13, 13).is_some(), "introduces the next block");
/// ```
pub fn span_problem(text: &str, start: u32, end: u32) -> Option<String> {
    Spans::new(text).problem(text, start, end)
}

/// What [`span_problem`] checks spans against, computed from one document's text once (a
/// parse), so that checking many spans of the document costs no further parse.
#[derive(Debug, Clone, Default)]
pub struct Spans {
    /// Line starts.
    pub lines: LineIndex,
    /// [`fence_lines`].
    pub fences: Vec<(u32, u32)>,
    /// [`top_blocks`].
    pub blocks: Vec<TopBlock>,
}

impl Spans {
    /// Indexes `text`.
    pub fn new(text: &str) -> Spans {
        Spans {
            lines: LineIndex::new(text),
            fences: fence_lines(text),
            blocks: top_blocks(text),
        }
    }

    /// [`span_problem`] for the text this index was built from.
    pub fn problem(&self, text: &str, start: u32, end: u32) -> Option<String> {
        let lines = &self.lines;
        for &(a, b) in &self.fences {
            let overlaps = a <= end && start <= b;
            if overlaps && !(start <= a && b <= end) {
                return Some(format!(
                    "lines {start}-{end} cut through the fenced code at lines {a}-{b}"
                ));
            }
        }
        let blocks: Vec<(u32, u32, bool)> = self
            .blocks
            .iter()
            .map(|b| (b.start_line, b.end_line, b.paragraph))
            .collect();
        if !blocks.iter().any(|b| b.0 == start) {
            return Some(format!("line {start} does not begin a block"));
        }
        if !blocks.iter().any(|b| b.1 == end) {
            return Some(format!("line {end} does not end a block"));
        }
        if let Some(b) = blocks
            .iter()
            .find(|b| (b.0 < start && start <= b.1) || (b.0 <= end && end < b.1))
        {
            return Some(format!(
                "lines {start}-{end} cut through the block at lines {}-{}",
                b.0, b.1
            ));
        }
        let last = blocks
            .iter()
            .filter(|b| b.1 <= end && b.0 >= start)
            .max_by_key(|b| b.1);
        if let Some(&(a, b, true)) = last {
            let para = &text[lines.range(a, text.len()).start..lines.range(b, text.len()).end];
            if para.trim_end().ends_with(':') {
                return Some(format!(
                    "the paragraph at lines {a}-{b} introduces what follows it"
                ));
            }
        }
        None
    }
}

/// The words of a text (runs of non-whitespace, as [`fold`] splits them) with a prefix hash,
/// so that the hash and folded length of any range of whole words cost two binary searches:
/// a document's top blocks and heading sections (which nest, and would each be hashed again)
/// are hashed from one pass over its words. A polynomial hash over a fast per-word hash of
/// 8-byte chunks: blocks are only candidates, every match is confirmed on the text.
struct Words {
    /// Each word's byte range.
    spans: Vec<(usize, usize)>,
    /// `prefix[k]`: the hash of the first `k` words.
    prefix: Vec<u64>,
    /// `pow[k]`: the base to the `k`th power.
    pow: Vec<u64>,
    /// `bytes[k]`: the length of the first `k` words, spaces not counted.
    bytes: Vec<usize>,
}

impl Words {
    const BASE: u64 = 0x9e37_79b9_7f4a_7c15;

    fn new(text: &str) -> Words {
        const K: u64 = 0x517c_c1b7_2722_0a95;
        let mix = |h: u64, v: u64| (h.rotate_left(5) ^ v).wrapping_mul(K);
        let b = text.as_bytes();
        // Sized once: pushed a word at a time, the four lists grew a dozen times each per page.
        let n = b
            .iter()
            .zip(b.iter().skip(1))
            .filter(|(a, c)| a.is_ascii_whitespace() && !c.is_ascii_whitespace())
            .count()
            + 1;
        let with = |first: u64| {
            let mut v = Vec::with_capacity(n + 1);
            v.push(first);
            v
        };
        let mut w = Words {
            spans: Vec::with_capacity(n),
            prefix: with(0),
            pow: with(1),
            bytes: Vec::with_capacity(n + 1),
        };
        w.bytes.push(0);
        let mut i = 0;
        while i < b.len() {
            if b[i].is_ascii_whitespace() {
                i += 1;
                continue;
            }
            let start = i;
            while i < b.len() && !b[i].is_ascii_whitespace() {
                i += 1;
            }
            let word = &b[start..i];
            let mut h: u64 = 0;
            let mut chunks = word.chunks_exact(8);
            for c in &mut chunks {
                h = mix(h, u64::from_le_bytes(c.try_into().unwrap_or([0; 8])));
            }
            let mut tail = [0u8; 8];
            let rest = chunks.remainder();
            tail[..rest.len()].copy_from_slice(rest);
            h = mix(h, u64::from_le_bytes(tail) ^ ((rest.len() as u64) << 56));
            let k = w.spans.len();
            w.spans.push((start, i));
            w.prefix
                .push(w.prefix[k].wrapping_mul(Self::BASE).wrapping_add(h));
            w.pow.push(w.pow[k].wrapping_mul(Self::BASE));
            w.bytes.push(w.bytes[k] + word.len());
        }
        w
    }

    /// Hash and length of `fold(&text[r])`, for a range that cuts no word.
    fn range(&self, r: Range<usize>) -> (u64, usize) {
        let i = self.spans.partition_point(|&(s, _)| s < r.start);
        let j = self.spans.partition_point(|&(_, e)| e <= r.end);
        if j <= i {
            return (0, 0);
        }
        let h = self.prefix[j].wrapping_sub(self.prefix[i].wrapping_mul(self.pow[j - i]));
        (h, self.bytes[j] - self.bytes[i] + (j - i - 1))
    }
}

fn block(text: &str, words: &Words, lines: &LineIndex, r: Range<usize>) -> Option<Block> {
    let slice = text.get(r.clone())?;
    let (hash, len) = words.range(r.clone());
    if len == 0 {
        return None;
    }
    let trimmed_end = r.start + slice.trim_end().len();
    Some(Block {
        start_line: lines.line(r.start),
        end_line: lines.line(trimmed_end.saturating_sub(1).max(r.start)),
        hash,
        len: len as u32,
    })
}

fn blocks(text: &str, lines: &LineIndex, top: &[Range<usize>], heads: &[Heading]) -> Vec<Block> {
    let min = super::THRESHOLDS.duplicate_min_chars as u32;
    let words = Words::new(text);
    let mut out: Vec<Block> = top
        .iter()
        .filter_map(|r| block(text, &words, lines, r.clone()))
        .collect();
    for (i, h) in heads.iter().enumerate() {
        let end_line = heads[i + 1..]
            .iter()
            .find(|n| n.level <= h.level)
            .map_or(lines.count() + 1, |n| n.line);
        let start = lines.range(h.line, text.len()).start;
        let end = lines.range(end_line, text.len()).start;
        let end = if end_line > lines.count() {
            text.len()
        } else {
            end
        };
        if let Some(b) = block(text, &words, lines, start..end) {
            out.push(b);
        }
    }
    out.retain(|b| b.len >= min);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn path_like_code_spans() {
        for yes in [
            "src/main.rs",
            "docs/plan.md",
            "src/lib.rs:42",
            "./x.md",
            ".claude/rules/a.md",
            "docs/",
        ] {
            assert!(looks_like_path(yes), "{yes}");
        }
        for no in [
            "cargo build",
            "https://x.io/a.md",
            "*.md",
            "run()",
            "a=b",
            "1.5",
            "v1.2.3",
            "--flag",
            "$HOME/x.md",
            "<file>.md",
            "@types/node",
            "foo",
            "std::fs",
            "README.md",
            "config.toml",
            "pkg/github.TestAllToolsetIconsExist",
        ] {
            assert!(!looks_like_path(no), "{no}");
        }
    }

    #[test]
    fn code_identifiers() {
        assert_eq!(code_ident("run_scan()"), Some(("run_scan".into(), true)));
        assert_eq!(
            code_ident("Repo::history"),
            Some(("Repo::history".into(), true))
        );
        assert_eq!(
            code_ident("obj.method(x, y)"),
            Some(("obj.method".into(), true))
        );
        assert_eq!(
            code_ident("snake_case_name"),
            Some(("snake_case_name".into(), false))
        );
        for no in [
            "plain",
            "CamelCase",
            "a b()",
            "x(",
            "_private",
            "a::",
            "1::2",
        ] {
            assert_eq!(code_ident(no), None, "{no}");
        }
    }

    #[test]
    fn imports_are_words_starting_with_at() {
        let text =
            "See @docs/a.md and @./b.md, mail a@b.md, @user.name, @types/node, @~/x.md\n`@c.md`\n";
        let p = parse(text);
        let imports: Vec<&str> = p
            .refs
            .iter()
            .filter(|r| r.via == Via::Import)
            .map(|r| r.dest.as_str())
            .collect();
        assert_eq!(imports, ["./b.md", "docs/a.md"]);
    }

    #[test]
    fn parse_lines_and_prose() {
        let text = "---\nstatus: done\nhygiene: frozen\n---\n# T\n\n```\n[x](in-code.md) TODO\n```\n\n[y](out.md \"t\")\n\n[z]: ref.md\n- [x] a\n- [ ] b\n";
        let p = parse(text);
        assert_eq!(p.frontmatter.get("status"), Some(("done", 2)));
        assert!(p.frontmatter.frozen());
        let refs: Vec<(u32, &str)> = p.refs.iter().map(|r| (r.line, r.dest.as_str())).collect();
        assert_eq!(refs, [(11, "out.md"), (13, "ref.md")]);
        assert!(!p.prose.contains("TODO"));
        assert_eq!(p.prose.len(), text.len());
        assert_eq!(p.tasks, (2, 1));
        assert_eq!(p.headings, vec![Heading { level: 1, line: 5 }]);
    }

    #[test]
    fn one_ref_per_line_and_path() {
        let p = parse("[`src/x.rs`](src/x.rs) and `src/x.rs:3` and [y](src/x.rs#L2)\n");
        let refs: Vec<(&str, Via)> = p.refs.iter().map(|r| (r.dest.as_str(), r.via)).collect();
        assert_eq!(refs, [("src/x.rs", Via::Link), ("src/x.rs#L2", Via::Link)]);
    }

    #[test]
    fn word_ranges_hash_their_fold() {
        let text = "# A\n\nsame  words\there\n\nx\n\nsame words here\n";
        let w = Words::new(text);
        let a = text.find("same").unwrap();
        let b = text.rfind("same").unwrap();
        let first = w.range(a..a + "same  words\there".len());
        let second = w.range(b..b + "same words here".len());
        assert_eq!(first, second);
        assert_eq!(first.1, fold("same  words\there").len());
        assert_ne!(first, w.range(0..text.len()));
        assert_eq!(w.range(3..3), (0, 0));
    }

    #[test]
    fn slugs_number_duplicates() {
        let p = parse("# A b\n\n## A b\n\n<a name=\"Custom\"></a>\n");
        assert_eq!(p.anchors, ["a-b", "a-b-1", "custom"]);
    }
}
