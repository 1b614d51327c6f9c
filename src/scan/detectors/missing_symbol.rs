//! `missing-symbol`: a backticked code identifier that names this repository's code occurs
//! nowhere in the tracked source.
//!
//! Precision first: most backticked names in documents are not this repository's (a library's
//! API, a language built-in, a config key, a tutorial's own code, a naming example). A name is
//! checked only where the document ties it to this code:
//!
//! - a qualified name (`Repo::history`, `Config.load()`) whose qualifier (a `::` segment, or a
//!   capitalised type before `.`), every one, occurs in the source, and every capitalised one
//!   is defined there (`class Config`, `struct Repo`; an import is a library's): the type is
//!   here, the member is gone;
//! - an unqualified call or `snake_case` name on the same line as a reference to a source file
//!   of this repository (`` `src/config.rs`: `load_config()` ``).
//!
//! Never a name the source holds with its first letter's case turned (`NotifyRecipient` for
//! Go's `notifyRecipient`: a case slip, the function is there).
//!
//! Never a name the document's own code blocks use (a tutorial defines `process_query`), nor a
//! placeholder (`parseAllowedXxx`, `foo_bar`, `my_handler`). "Occurs" means appears as an
//! identifier token in a tracked source file (extension-less scripts with a `#!` line count),
//! not "is defined", so a call into a library the code uses is found. A repository without
//! source files checks no symbols.
//!
//! A name that no source holds but another tracked file does (a workflow's `workflow_dispatch`,
//! a `wrangler.toml` flag, a frontmatter key the skills' other steps write, an API's error code
//! that other pages discuss) is the project's vocabulary, not a stale name: on the judged
//! corpus every true signal's name occurred in no file but its own document.

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

/// Words that make an identifier a placeholder or an example, not a name.
/// (`x` is a letter standing for any one: `Type::new_x` for every node type's `new_*`.)
pub const PLACEHOLDER_WORDS: &[&str] = &[
    "xxx", "x", "foo", "bar", "baz", "qux", "my", "your", "some", "example",
];

/// Whether `ident` is a placeholder: one of its words (split at `_`, `::`, `.` and case
/// changes) is a [`PLACEHOLDER_WORDS`] word.
///
/// ```
/// use hygiene::scan::detectors::missing_symbol::is_placeholder;
/// assert!(is_placeholder("parseAllowedXxx") && is_placeholder("my_handler") && is_placeholder("Foo::bar"));
/// assert!(!is_placeholder("load_config") && !is_placeholder("toolbar_height"));
/// assert!(is_placeholder("getFooBar") && is_placeholder("EXAMPLE_KEY") && !is_placeholder("examples_dir"));
/// assert!(is_placeholder("Type::new_x") && !is_placeholder("max_width"));
/// ```
pub fn is_placeholder(ident: &str) -> bool {
    // Words are compared in place (every identifier of every document is asked): a word ends
    // at a character that is no ASCII letter or digit, or before a capital after a lowercase
    // letter.
    let b = ident.as_bytes();
    let is_word = |w: &[u8]| {
        PLACEHOLDER_WORDS
            .iter()
            .any(|p| p.len() == w.len() && p.as_bytes().eq_ignore_ascii_case(w))
    };
    let mut start = 0;
    for i in 0..b.len() {
        let c = b[i];
        if !c.is_ascii_alphanumeric() {
            if is_word(&b[start..i]) {
                return true;
            }
            start = i + 1;
        } else if c.is_ascii_uppercase() && i > start && b[i - 1].is_ascii_lowercase() {
            if is_word(&b[start..i]) {
                return true;
            }
            start = i;
        }
    }
    is_word(&b[start..])
}

/// The qualifiers that tie a qualified name to this code: every `::` segment before the last,
/// or the capitalised segments before the last `.` of a call (`Config.load()`; a lowercase
/// `client.connect()` is a variable's method). Empty for an unqualified name.
pub fn qualifiers(ident: &str) -> Vec<&str> {
    qualifier_segments(ident).collect()
}

/// [`qualifiers`], one at a time.
fn qualifier_segments(ident: &str) -> impl Iterator<Item = &str> {
    let (head, sep) = match ident.rsplit_once("::") {
        Some((head, _)) => (Some(head), "::"),
        None => (ident.rsplit_once('.').map(|(head, _)| head), "."),
    };
    head.into_iter()
        .flat_map(move |h| h.split(sep))
        .filter(move |s| {
            if sep == "::" {
                !SKIP.contains(s)
            } else {
                s.starts_with(|c: char| c.is_ascii_uppercase())
            }
        })
}

/// Whether `ident` has a qualifier ([`qualifiers`] is not empty), asked without collecting
/// them: every identifier of every document is asked.
///
/// ```
/// use hygiene::scan::detectors::missing_symbol::{qualified, qualifiers};
/// for i in ["Repo::history", "self::x", "Self::new", "Config.load()", "client.connect()", "x", "a::b::c", "super::crate::y"] {
///     assert_eq!(qualified(i), !qualifiers(i).is_empty(), "{i}");
/// }
/// ```
pub fn qualified(ident: &str) -> bool {
    qualifier_segments(ident).next().is_some()
}

/// The module names a qualified name starts from: its lowercase qualifiers (`scan` and `refs` of
/// `scan::refs::split`; `modal` of `modal.Image.from_registry`, before a capitalised one). A
/// module of this code is a folder or a file of the tree; `std::shared_ptr` and `modal.Image`
/// are a language's or a library's.
///
/// ```
/// use hygiene::scan::detectors::missing_symbol::modules;
/// assert_eq!(modules("scan::refs::split"), ["scan", "refs"]);
/// assert_eq!(modules("std::shared_ptr"), ["std"]);
/// assert_eq!(modules("modal.Image.from_registry"), ["modal"]);
/// assert!(modules("Repo::history").is_empty() && modules("client.connect()").is_empty());
/// ```
pub fn modules(ident: &str) -> Vec<&str> {
    let lower = |s: &&str| s.starts_with(|c: char| c.is_ascii_lowercase());
    if ident.contains("::") {
        return qualifiers(ident).into_iter().filter(lower).collect();
    }
    let segs: Vec<&str> = ident.split('.').collect();
    match segs[..segs.len() - 1].iter().position(|s| !lower(s)) {
        Some(first_type) => segs[..first_type].to_vec(),
        None => Vec::new(),
    }
}

/// The last name of an identifier (`history` of `Repo::history`).
pub fn last(ident: &str) -> &str {
    ident.rsplit([':', '.']).next().unwrap_or(ident)
}

fn source_ext(w: &str) -> bool {
    extension(crate::scan::markdown::strip_line_suffix(w))
        .is_some_and(|e| SOURCE_EXTENSIONS.iter().any(|s| s.eq_ignore_ascii_case(e)))
}

/// Whether `ident` joins names with a double underscore between them (`cm__work_monorepo`, the
/// collection name a sanitizer produces; Django's `created__gte` lookup): a value built from
/// names, not one a source file defines. A leading or trailing `__` (`__init__`) is a name's own.
///
/// ```
/// use hygiene::scan::detectors::missing_symbol::joined_value;
/// assert!(joined_value("cm__work_monorepo") && joined_value("author__name__icontains"));
/// assert!(!joined_value("__init__") && !joined_value("Foo::__call__") && !joined_value("load_config"));
/// ```
pub fn joined_value(ident: &str) -> bool {
    let name = last(ident);
    name.match_indices("__").any(|(i, _)| {
        let b = name.as_bytes();
        i > 0
            && b[i - 1].is_ascii_alphanumeric()
            && b.get(i + 2).is_some_and(u8::is_ascii_alphanumeric)
    })
}

/// The identifiers of `p` that are checked, with their lines: qualified names, and unqualified
/// ones on a line that references a source file; never one the document's code blocks use or a
/// placeholder.
pub fn checked(p: &Parsed) -> Vec<(u32, &str)> {
    // (A handful per document: a list, not a set.)
    let source_lines: Vec<u32> = p
        .refs
        .iter()
        .filter(|r| source_ext(crate::scan::refs::split(&r.dest).written))
        .map(|r| r.line)
        .collect();
    p.idents
        .iter()
        .filter(|i| qualified(&i.text) || source_lines.contains(&i.line))
        .filter(|i| !p.code_tokens.contains(last(&i.text)) && !is_placeholder(&i.text))
        .filter(|i| !joined_value(&i.text))
        // `dynamic::CREDENTIALS_ARGUMENT_NAME` where a code block writes `"dynamic::key"`: a
        // value's syntax, not a path into the code.
        .filter(|i| {
            !i.text
                .split_once("::")
                .is_some_and(|(head, _)| p.code_tokens.contains(&format!("{head}::")))
        })
        .map(|i| (i.line, i.text.as_str()))
        .collect()
}

/// Every name the check of `ident` looks up: its last name (and the same with its first
/// letter's case turned, [`other_case`]), its qualifiers, and the definition of each type-like
/// (capitalised) qualifier ([`defined`]).
pub fn wanted(ident: &str) -> Vec<String> {
    let mut out = vec![last(ident).to_string()];
    out.extend(other_case(last(ident)));
    for q in qualifiers(ident) {
        out.push(q.to_string());
        if type_like(q) {
            out.push(defined(q));
        }
    }
    out
}

/// `name` with its first letter's case turned (`notifyRecipient` for `NotifyRecipient`), when
/// it starts with an ASCII letter. The source holding that name is a case slip of the
/// document's (Go's exported and unexported spellings of one function), not a name gone.
///
/// ```
/// use hygiene::scan::detectors::missing_symbol::other_case;
/// assert_eq!(other_case("NotifyRecipient").as_deref(), Some("notifyRecipient"));
/// assert_eq!(other_case("load").as_deref(), Some("Load"));
/// assert_eq!(other_case("_x"), None);
/// ```
pub fn other_case(name: &str) -> Option<String> {
    let first = name.chars().next().filter(char::is_ascii_alphabetic)?;
    let turned = if first.is_ascii_uppercase() {
        first.to_ascii_lowercase()
    } else {
        first.to_ascii_uppercase()
    };
    Some(format!("{turned}{}", &name[1..]))
}

fn type_like(name: &str) -> bool {
    name.starts_with(|c: char| c.is_ascii_uppercase())
}

/// Words after which a source file defines the name that follows (`class Config`, `struct
/// Repo`, `type Repo struct`, `module Billing`, `const Config =`). An import is no definition:
/// `from PIL import Image` and `from anthropic import Anthropic` make `Image.blend` and
/// `Anthropic::BaseTool` a library's names, whatever the code calls of them.
pub const DEFINING_WORDS: &[&str] = &[
    "class",
    "struct",
    "enum",
    "trait",
    "interface",
    "type",
    "module",
    "object",
    "impl",
    "namespace",
    "protocol",
    "record",
    "union",
    "extension",
    "defmodule",
    "const",
    "let",
    "var",
    "def",
    "fn",
    "func",
    "function",
];

/// The name [`find_in_file`] reports when a source file defines `name` (after one of
/// [`DEFINING_WORDS`]); no identifier contains a space, so it never collides with one.
///
/// ```
/// use hygiene::scan::detectors::missing_symbol::{defined, defines};
/// assert!(defines("pub struct Repo {", "Repo") && defines("class Config:", "Config"));
/// assert!(!defines("from PIL import Image", "Image") && !defines("img = Image.open(p)", "Image"));
/// // a defining word in prose is no definition
/// assert!(!defines("/// `(module, NodeId of the member)`", "NodeId") && defines("type\tId = u32;", "Id"));
/// // an associated type bound in an `impl` is the trait's name, not a type defined here
/// assert!(!defines("impl QueryHandler for H {\n    type QueryParser = NoopQueryParser;\n}", "QueryParser"));
/// assert!(defines("pub type Id = u32;", "Id") && defines("    struct Inner;", "Inner"));
/// assert_eq!(defined("Repo"), "defined Repo");
/// ```
pub fn defined(name: &str) -> String {
    format!("defined {name}")
}

/// Whether `source` defines `name` ([`DEFINING_WORDS`]).
pub fn defines(source: &str, name: &str) -> bool {
    let wanted: HashSet<String> = [defined(name)].into_iter().collect();
    !scan_tokens(source.as_bytes(), &wanted).is_empty()
}

/// The members of `wanted` that `bytes` holds: identifier tokens, and [`defined`] names.
///
/// A definition is a defining word, white space, then the name (`struct Repo`, `class
/// Config`): with anything else between them the words are prose, as in a comment's
/// "`(module, NodeId of the member expression)`", which defines nothing.
pub fn scan_tokens(bytes: &[u8], wanted: &HashSet<String>) -> Vec<String> {
    let ident = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    let mut local = Vec::new();
    // The previous token, and where it ended.
    let mut prev: (&str, usize) = ("", 0);
    let mut i = 0;
    while i < bytes.len() {
        if !ident(bytes[i]) {
            i += 1;
            continue;
        }
        let start = i;
        while i < bytes.len() && ident(bytes[i]) {
            i += 1;
        }
        if bytes[start].is_ascii_digit() {
            continue;
        }
        let Ok(t) = std::str::from_utf8(&bytes[start..i]) else {
            continue;
        };
        if wanted.contains(t) {
            local.push(t.to_string());
        }
        if DEFINING_WORDS.contains(&prev.0)
            && type_like(t)
            && bytes[prev.1..start].iter().all(u8::is_ascii_whitespace)
            && !(prev.0 == "type" && indented(bytes, prev.1 - prev.0.len()))
        {
            let d = defined(t);
            if wanted.contains(&d) {
                local.push(d);
            }
        }
        prev = (t, i);
    }
    local
}

/// Whether the word at `at` is indented: only white space before it on its line. An indented
/// `type QueryParser = NoopQueryParser;` binds a trait's associated type inside an `impl`
/// (Rust), so `QueryParser::parse_query` is still the library's (Tantivy's); a type this code
/// defines is written at the left margin.
fn indented(bytes: &[u8], at: usize) -> bool {
    let line_start = bytes[..at]
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |i| i + 1);
    at > line_start
        && bytes[line_start..at]
            .iter()
            .all(|&b| b == b' ' || b == b'\t')
}

/// Whether a root-relative file may be source: a source extension, or none at all (a script
/// such as `hooks/session-start`, searched only when it starts with `#!`).
pub fn maybe_source(p: &str) -> bool {
    let name = p.rsplit('/').next().unwrap_or(p);
    source_ext(p) || (!name.contains('.') && !name.is_empty())
}

/// What a search reads a file as: source (a source extension, or a `#!` script), or any text
/// (not binary: no NUL byte in its first 8 KiB).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Search {
    /// Source files, for whether the code holds a name.
    Source,
    /// Any other text, for whether the project uses a name the code does not hold.
    Text,
}

/// The names checked against the tracked files, with what was found.
#[derive(Debug, Default)]
pub struct Symbols {
    /// Every wanted name that occurs in the tracked source ([`Search::Source`]).
    pub found: HashSet<String>,
    /// For a wanted name the source does not hold, up to two other tracked files that do
    /// ([`Search::Text`]): a document may only be one of them.
    pub used_in: std::collections::HashMap<String, Vec<String>>,
    /// Whether some source is written in a language whose names are `::` paths
    /// ([`PATH_LANGUAGES`]): in a TypeScript repository, `migrations::diff::a_test` names
    /// another codebase's test, whatever folders share its modules' names.
    pub colon_paths: bool,
}

/// The extensions of source languages that qualify names with `::` (Rust, C++, Ruby, PHP,
/// Perl). Published as `scanner.colon_path_languages`.
pub const PATH_LANGUAGES: &[&str] = &[
    "rs", "cpp", "cc", "cxx", "hpp", "hh", "hxx", "h", "rb", "rake", "php", "pl", "pm",
];

/// Whether the root-relative source file `p` is written in one of [`PATH_LANGUAGES`].
pub fn writes_colon_paths(p: &str) -> bool {
    extension(p).is_some_and(|e| PATH_LANGUAGES.iter().any(|l| l.eq_ignore_ascii_case(e)))
}

impl Symbols {
    /// Whether a file other than `doc` uses `name`.
    pub fn used_elsewhere(&self, name: &str, doc: &str) -> bool {
        self.used_in
            .get(name)
            .is_some_and(|files| files.iter().any(|f| f != doc))
    }
}

/// Whether `p` is searched as [`Search::Text`]: not a file [`Search::Source`] reads by its
/// extension.
pub fn text_not_source(p: &str) -> bool {
    !source_ext(p)
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
    find_as(root, rel, wanted, Search::Source)
}

/// Which of `wanted` occur as identifier tokens in the root-relative file `rel`, read as `how`
/// says (none when it is not a readable regular file within the size cap).
pub fn find_as(
    root: &std::path::Path,
    rel: &str,
    wanted: &HashSet<String>,
    how: Search,
) -> Vec<String> {
    match readable(root, rel, how) {
        Some(bytes) => scan_tokens(&bytes, wanted),
        None => Vec::new(),
    }
}

/// The bytes of the root-relative file `rel` when it is searched as `how` says: a regular
/// file within the size cap, source by its extension or `#!` line, or text (no NUL byte in its
/// first 8 KiB) that is not a link (`CLAUDE.md -> AGENTS.md` is that document, not another
/// file that uses its names).
pub fn readable(root: &std::path::Path, rel: &str, how: Search) -> Option<Vec<u8>> {
    readable_at(
        &crate::paths::resolve_inside(root, rel, false).ok()?,
        rel,
        how,
    )
}

/// [`readable`] for `rel` found at `full` (inside the root: [`crate::scan::refs::Tree::read_path`]).
pub fn readable_at(full: &std::path::Path, rel: &str, how: Search) -> Option<Vec<u8>> {
    if how == Search::Text
        && std::fs::symlink_metadata(full).is_ok_and(|m| m.file_type().is_symlink())
    {
        return None;
    }
    let meta = std::fs::metadata(full).ok()?;
    if !meta.is_file() || meta.len() > crate::scan::THRESHOLDS.file_size_cap_bytes {
        return None;
    }
    let bytes = std::fs::read(full).ok()?;
    let ok = match how {
        Search::Source => source_ext(rel) || bytes.starts_with(b"#!"),
        Search::Text => !bytes[..bytes.len().min(8192)].contains(&0),
    };
    ok.then_some(bytes)
}

/// All the wanted names at once, for text that is not source: one Aho-Corasick pass over a
/// file finds every name, then each match must stand as a whole identifier token. It finds
/// what [`find_as`] does (the same token boundaries), without hashing every token of
/// megabytes of documents and data for a handful of names.
pub struct TextMatcher {
    ac: aho_corasick::AhoCorasick,
    names: Vec<String>,
}

impl TextMatcher {
    /// A matcher of `names` (`None` when there are none or the automaton cannot be built).
    pub fn new(names: &HashSet<String>) -> Option<TextMatcher> {
        let mut names: Vec<String> = names.iter().filter(|n| !n.is_empty()).cloned().collect();
        names.sort();
        // Leftmost-longest, without overlaps: a name is made of identifier bytes only, so no
        // match can straddle the boundary in front of a whole token, and the longest match
        // starting there is that token when it is a name.
        let ac = aho_corasick::AhoCorasick::builder()
            .match_kind(aho_corasick::MatchKind::LeftmostLongest)
            .kind(Some(aho_corasick::AhoCorasickKind::DFA))
            .build(&names)
            .ok()?;
        (!names.is_empty()).then_some(TextMatcher { ac, names })
    }

    /// The names that occur in `bytes` as whole identifier tokens.
    pub fn find(&self, bytes: &[u8]) -> Vec<String> {
        let ident = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
        let mut seen = vec![false; self.names.len()];
        let mut out = Vec::new();
        for m in self.ac.find_iter(bytes) {
            let i = m.pattern().as_usize();
            let before = m.start().checked_sub(1).map(|j| bytes[j]);
            let after = bytes.get(m.end()).copied();
            if seen[i] || before.is_some_and(ident) || after.is_some_and(ident) {
                continue;
            }
            // A token starting with a digit is none (`2fa_code` holds no `fa_code`).
            if self.names[i].starts_with(|c: char| c.is_ascii_digit()) {
                continue;
            }
            seen[i] = true;
            out.push(self.names[i].clone());
            if out.len() == self.names.len() {
                break;
            }
        }
        out
    }
}

/// Whether an unqualified name is a folder's or a file's name in the tree (`error_handling`, a
/// sibling example's folder): it names the path, not code.
fn names_a_path(ctx: &TreeCtx<'_>, name: &str) -> bool {
    let tail = format!("/{name}");
    ctx.tree
        .dirs
        .iter()
        .any(|d| d == name || d.ends_with(&tail))
        || ctx
            .tree
            .basenames
            .iter()
            .any(|b| b.rsplit_once('.').is_some_and(|(stem, _)| stem == name))
}

impl Detector for MissingSymbol {
    fn kind(&self) -> &'static str {
        "missing-symbol"
    }

    fn reads_tree(&self) -> bool {
        true
    }

    fn on_tree(&self, doc: &Doc, ctx: &TreeCtx<'_>) -> Vec<Finding> {
        let Some(symbols) = ctx.symbols else {
            return Vec::new();
        };
        let found = &symbols.found;
        let checked = checked(&doc.parsed);
        if checked.is_empty() {
            return Vec::new();
        }
        // The lines whose source file is this repository's: it resolves, or exactly one file of
        // its name exists somewhere (`streamChatResponse.ts`); `agent-openai.py` in "file names
        // like `agent-openai.py`" is the reader's, and a `main.ts` or `exporter/index.tsx` that
        // does not resolve names one of many, most likely another codebase's.
        let lines: HashSet<u32> = checked.iter().map(|(l, _)| *l).collect();
        let ours: HashSet<u32> = doc
            .resolved()
            .filter(|(r, _)| lines.contains(&r.line))
            .filter(|(r, _)| source_ext(crate::scan::refs::split(&r.dest).written))
            .filter(|(r, t)| {
                matches!(t, crate::scan::refs::Target::Found { .. }) || {
                    let w = crate::scan::refs::split(&r.dest).written;
                    ctx.tree.tail_count(w.rsplit('/').next().unwrap_or(w)) == 1
                }
            })
            .map(|(r, _)| r.line)
            .collect();
        checked
            .into_iter()
            .filter(|(line, text)| {
                let q = qualifiers(text);
                // Every qualifier must be this code's: `Anthropic::Errors::AuthenticationError`
                // is a library's even when some `Errors` occurs here, and a type must be
                // defined here, not only imported (`Image.blend` is PIL's).
                (symbols.colon_paths || !text.contains("::"))
                    && !found.contains(last(text))
                    && !other_case(last(text)).is_some_and(|n| found.contains(&n))
                    && !symbols.used_elsewhere(last(text), &doc.path)
                    && q.iter().all(|n| {
                        found.contains(*n) && (!type_like(n) || found.contains(&defined(n)))
                    })
                    && modules(text).iter().all(|m| names_a_path(ctx, m))
                    && (!q.is_empty() || (ours.contains(line) && !names_a_path(ctx, text)))
            })
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
    use proptest::prelude::*;

    proptest! {
        /// The one-pass matcher of the text files finds exactly the names the token scan of
        /// source files finds, on text dense with partial and overlapping matches.
        #[test]
        fn the_text_matcher_finds_what_the_token_scan_finds(
            text in "[ab_1 .é\n]{0,60}",
            names in proptest::collection::hash_set("[ab_][ab_1]{0,3}", 1..6),
        ) {
            let m = TextMatcher::new(&names).unwrap();
            let mut fast = m.find(text.as_bytes());
            fast.sort();
            let mut slow = scan_tokens(text.as_bytes(), &names);
            slow.sort();
            slow.dedup();
            prop_assert_eq!(fast, slow);
        }
    }

    #[test]
    fn a_name_is_checked_only_where_the_document_ties_it_to_this_code() {
        let texts = |md: &str| -> Vec<String> {
            checked(&parse(md))
                .into_iter()
                .map(|(_, t)| t.to_string())
                .collect()
        };
        // a language or library call in a conventions note: not a claim about this repo's code
        assert!(texts("No `unwrap()` outside tests.\n").is_empty());
        // a qualified name is checked (its qualifier decides, against the source)
        assert_eq!(texts("Call `Repo::open` first.\n"), ["Repo::open"]);
        // on a line with a source reference, calls and bare names are claims about that code
        let both = texts("See `src/lib.rs`: `load()` and `parse_config`.\n");
        assert_eq!(both, ["load", "parse_config"]);
        // ... but not on another line
        assert!(texts("See `src/lib.rs`.\n\nThen `parse_config`.\n").is_empty());
        // a name the document's own code defines, and a placeholder, are never checked
        assert!(
            texts("`src/a.py`: `chat_loop()`\n\n```py\ndef chat_loop():\n    pass\n```\n")
                .is_empty()
        );
        assert!(texts("`src/a.rs`: `parse_allowed_xxx`\n").is_empty());
    }
}
