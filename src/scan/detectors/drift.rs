//! `drift`: the files a document describes changed in at least `THRESHOLDS.drift_min_commits`
//! commits since the document itself last changed, **and** the document still names something
//! those changes took away. Counted from the one history walk. Only the files it describes
//! count (code, configuration, scripts, a plugin's shipped prompts), named by a path or a link:
//! a link to another document is navigation, documents churn together, a bare file name
//! (`package.json`) names a kind of file, and a lockfile ([`LOCKFILES`]) is written by a package
//! manager.
//!
//! Commit counts alone do not tell drift from churn: on public repositories true drift ran from
//! 4 to 271 commits and unrelated churn (version bumps, fixes elsewhere in the file) from 5 to
//! 63. What does is the content: a name in the document's code (`MiniflareOptions`, a script's
//! option) that the described files held when the document was written and no longer hold, or
//! a line the document quotes from them that is gone. So the detector proposes (commits), and
//! the scan confirms against the files' text at the document's last commit ([`gone`]): a drift
//! without such evidence is not reported. (The evidence is not a field of the signal: the
//! report's schema is frozen. The model reads the document and the files it names.)

use super::{Detector, Doc, Finding, TreeCtx};
use crate::report::Signal;
use crate::scan::refs::Target;
use crate::scan::THRESHOLDS;
use std::collections::HashSet;

/// The detector.
pub struct Drift;

/// At most this many described files that lost something are kept as a drift's evidence, and
/// [`EVIDENCE_ITEMS`] of what each lost: what the model is handed with the drift, enough to
/// judge it, in a bounded scan output.
pub const EVIDENCE_FILES: usize = 4;
/// At most this many gone names or lines per file in a drift's evidence.
pub const EVIDENCE_ITEMS: usize = 6;

/// A quoted line shorter than this (after trimming) is too generic to be evidence (`}`, `fi`).
pub const QUOTED_LINE_MIN_CHARS: usize = 12;

/// The files `doc` describes: code, configuration, scripts and shipped prompts it names by a
/// path or links (`with_bare`: also a bare file name that resolves, for the content check),
/// but no file it names as the reader's ([`readers_files`]).
fn described(doc: &Doc, ctx: &TreeCtx<'_>, with_bare: bool) -> Vec<String> {
    let mut out = named_files(doc, ctx, with_bare);
    if !out.is_empty() {
        let readers = readers_files(doc, ctx);
        out.retain(|p| !readers.contains(p.as_str()));
    }
    out
}

/// A file the document names as the reader's ("In your project's `.serena/project.yml`") is
/// theirs, wherever else the document names it: the repository's own copy (the tool's
/// configuration of its own repository) churns with no news for the reader. Reads the
/// document's text, so asked only of a document whose named files could drift.
fn readers_files<'d>(doc: &'d Doc, ctx: &TreeCtx<'_>) -> HashSet<&'d str> {
    let text = std::cell::OnceCell::new();
    doc.resolved()
        .filter(|(r, t)| r.via == crate::report::Via::Code && matches!(t, Target::Found { .. }))
        .filter(|(r, _)| {
            let text = text.get_or_init(|| {
                ctx.tree
                    .read_bytes(&doc.path)
                    .map(|b| String::from_utf8_lossy(&b).into_owned())
            });
            let line = text
                .as_deref()
                .and_then(|t| t.lines().nth((r.line as usize).saturating_sub(1)))
                .unwrap_or("");
            names_as_readers(line, &r.dest)
        })
        .filter_map(|(_, t)| match t {
            Target::Found { path: Some(p), .. } => Some(p.as_str()),
            _ => None,
        })
        .collect()
}

/// The files `doc` names that it could describe ([`described`] before the reader's files are
/// set aside).
fn named_files(doc: &Doc, ctx: &TreeCtx<'_>, with_bare: bool) -> Vec<String> {
    let mut seen: HashSet<String> = HashSet::new();
    let mut out = Vec::new();
    for (r, t) in doc.resolved() {
        // A bare file name (`package.json`) is a kind of file ("saves it to the
        // `package.json` file"), not the root's one: its dependency bumps are not news.
        if r.via == crate::report::Via::Code && !r.dest.contains('/') && !with_bare {
            continue;
        }
        // An `@import` loads the file alongside; the document does not describe it.
        if r.via == crate::report::Via::Import {
            continue;
        }
        if let Target::Found { path: Some(p), .. } = t {
            if lockfile(p) {
                continue;
            }
            // Another document is navigation, not a subject: a page that links to a page
            // does not describe its text, and docs churn together.
            // A shipped prompt (a plugin's command, skill or agent) or template is the
            // product the document describes, not navigation.
            let document = match ctx.doc_index(p) {
                Some(i) => ctx.docs[i].role != crate::roles::Role::Shipped,
                None => crate::scan::markdown::extension(p)
                    .is_some_and(|e| crate::scan::sites::PAGE_EXTENSIONS.contains(&e)),
            };
            if *p != doc.path && !document && ctx.tree.files.contains(p) && seen.insert(p.clone()) {
                out.push(p.clone());
            }
        }
    }
    out
}

/// Files a package manager writes from a manifest (`pnpm-lock.yaml`, `Cargo.lock`, `mise.lock`):
/// a name leaving one is a dependency moving, not the document's subject changing (a dispatch
/// brief's `pnpm install` step, a backend guide's `github:BurntSushi/ripgrep` example; judged
/// false three times in four). What the document says of dependencies shows in the manifest.
pub const LOCKFILES: &[&str] = &[
    "pnpm-lock.yaml",
    "package-lock.json",
    "npm-shrinkwrap.json",
    "yarn.lock",
    "bun.lock",
    "bun.lockb",
    "deno.lock",
    "Cargo.lock",
    "poetry.lock",
    "uv.lock",
    "pdm.lock",
    "Pipfile.lock",
    "Gemfile.lock",
    "composer.lock",
    "go.sum",
    "mix.lock",
    "pubspec.lock",
    "Package.resolved",
    "packages.lock.json",
    "gradle.lockfile",
    "flake.lock",
    "mise.lock",
];

/// Words right before a path that make it the reader's file ("to your `config.json`", "In
/// your project's `.serena/project.yml`").
pub const READERS_WORDS: &[&str] = &[
    "your",
    "your own",
    "your project's",
    "your project\u{2019}s",
    "the user's",
    "the user\u{2019}s",
];

/// Whether `line` names `written` as the reader's file: [`READERS_WORDS`] right before it.
///
/// ```
/// use hygiene::scan::detectors::drift::names_as_readers;
/// assert!(names_as_readers("Add MCP provider to your `.taskmaster/config.json`:", ".taskmaster/config.json"));
/// assert!(names_as_readers("In your project\u{2019}s `.serena/project.yml` you can", ".serena/project.yml"));
/// assert!(!names_as_readers("Components to use in your project (e.g. `astro/components/Code.astro`)", "astro/components/Code.astro"));
/// assert!(!names_as_readers("Edit `src/config.ts` to your liking", "src/config.ts"));
/// ```
pub fn names_as_readers(line: &str, written: &str) -> bool {
    let Some(at) = line.find(written) else {
        return false;
    };
    let before = line[..at]
        .trim_end_matches(['`', ' ', '*', '_', '['])
        .to_lowercase();
    READERS_WORDS.iter().any(|w| {
        before
            .strip_suffix(w)
            .is_some_and(|b| b.is_empty() || b.ends_with(' '))
    })
}

/// Whether `path` is a [`LOCKFILES`] file.
///
/// ```
/// use hygiene::scan::detectors::drift::lockfile;
/// assert!(lockfile("pnpm-lock.yaml") && lockfile("crates/x/Cargo.lock") && lockfile("mise.lock"));
/// assert!(!lockfile("package.json") && !lockfile("docs/Cargo.lock.md"));
/// ```
pub fn lockfile(path: &str) -> bool {
    LOCKFILES.contains(&path.rsplit('/').next().unwrap_or(path))
}

/// What the content check of one drift needs: the commit the document last changed in, and
/// the files it describes (bare names included).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ContentCheck {
    /// The commit id.
    pub since: String,
    /// Root-relative files.
    pub files: Vec<String>,
}

/// The content check for `doc`, whose drift the detector proposed.
pub fn content_check(doc: &Doc, ctx: &TreeCtx<'_>) -> Option<ContentCheck> {
    let h = ctx.history?;
    let since = h.touches(&doc.path)?.first().copied()?;
    Some(ContentCheck {
        since: h.commits.get(since)?.id.clone(),
        files: described(doc, ctx, true),
    })
}

fn tokens(text: &str) -> HashSet<&str> {
    token_iter(text).collect()
}

fn token_iter(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '-'))
        .map(|t| t.trim_matches('-'))
        .filter(|t| t.len() >= 3 && t.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_'))
}

/// Words by which a line refuses or retires what it names ("No `__dirname`", "instead of
/// `x`", "`y` was removed"): its removal from the code agrees with the document.
pub const REFUSING_WORDS: &[&str] = &[
    "no ",
    "not ",
    "never",
    "don't",
    "do not",
    "avoid",
    "instead of",
    "deprecated",
    "removed",
    "replaced",
    "legacy",
];

/// Whether every line of `doc_text` that holds `name` refuses or retires it ([`REFUSING_WORDS`]
/// before the name).
///
/// ```
/// use hygiene::scan::detectors::drift::only_refused;
/// assert!(only_refused("- No `__dirname`: use `import.meta.dirname`.\n", "__dirname"));
/// assert!(!only_refused("Call `loadConfig` first.\nNever call `reset`.\n", "loadConfig"));
/// assert!(!only_refused("Hooks: `http` (POST), `agent` (not yet implemented)", "http"));
/// ```
pub fn only_refused(doc_text: &str, name: &str) -> bool {
    let mut any = false;
    for line in doc_text.lines() {
        let Some(at) = line.find(name) else {
            continue;
        };
        any = true;
        // Only words before the name refuse it: "`http` (POST), `agent` (not yet built)"
        // says nothing against `http`.
        let before = line[..at].to_lowercase();
        if !REFUSING_WORDS.iter().any(|w| before.contains(w)) {
            return false;
        }
    }
    any
}

/// Literals every language's files gain and lose: never evidence on their own.
pub const LITERALS: &[&str] = &[
    "true",
    "false",
    "True",
    "False",
    "null",
    "nil",
    "None",
    "none",
    "undefined",
];

/// Whether a name is written like code: camelCase (`kvPersist`, `ParentID`), or with `_`, `-`
/// or a digit inside (`check-prerequisites`, `v2_api`).
///
/// ```
/// use hygiene::scan::detectors::drift::code_like;
/// assert!(code_like("MiniflareOptions") && code_like("kvPersist") && code_like("check-prerequisites") && code_like("ParentID"));
/// assert!(!code_like("Core") && !code_like("AND") && !code_like("pages"));
/// ```
pub fn code_like(name: &str) -> bool {
    let b = name.as_bytes();
    b.windows(2)
        .any(|w| w[0].is_ascii_lowercase() && w[1].is_ascii_uppercase())
        || b.iter()
            .skip(1)
            .any(|c| matches!(c, b'_' | b'-' | b'0'..=b'9'))
}

/// The document's code: inline code spans (one per line) and code blocks, as text.
fn code_of(doc_text: &str) -> (String, Vec<String>) {
    use pulldown_cmark::{Event, Parser, Tag, TagEnd};
    let mut spans = String::new();
    let mut blocks = Vec::new();
    let mut block: Option<String> = None;
    for ev in Parser::new(doc_text) {
        match ev {
            Event::Code(c) => {
                spans.push_str(&c);
                spans.push('\n');
            }
            Event::Start(Tag::CodeBlock(_)) => block = Some(String::new()),
            Event::End(TagEnd::CodeBlock) => blocks.extend(block.take()),
            Event::Text(t) => {
                if let Some(b) = block.as_mut() {
                    b.push_str(&t);
                }
            }
            _ => {}
        }
    }
    (spans, blocks)
}

/// What the document's code names or quotes that `old` (a described file when the document
/// last changed) held and `new` (the file now) does not: names first, then quoted lines, each
/// sorted.
///
/// ```
/// use hygiene::scan::detectors::drift::gone;
/// let doc = "Plugins define `MiniflareOptions`.\n\n```json\n\"ci:release\": \"turbo build && changeset publish\"\n```\n";
/// let old = "export type MiniflareOptions = {};\n\"ci:release\": \"turbo build && changeset publish\"\n";
/// let new = "export type ParsedWorkerOptions = {};\n\"ci:release\": \"turbo clean && changeset publish\"\n";
/// assert_eq!(gone(doc, old, new), ["MiniflareOptions", "\"ci:release\": \"turbo build && changeset publish\""]);
/// // Churn the document does not describe (a version bump) takes nothing it names.
/// assert!(gone("Run `gradle test`.", "version = \"1.0.1\"\ntask test", "version = \"1.0.2\"\ntask test").is_empty());
/// // A word of a longer span is no evidence; a whole span is.
/// assert!(gone("Quit `Start Core Dev Server`.", "id(\"Core\")", "id(\"x\")").is_empty());
/// assert_eq!(gone("Builds the `pages` folder.", "zip pages", "zip docs"), ["pages"]);
/// ```
pub fn gone(doc_text: &str, old: &str, new: &str) -> Vec<String> {
    DocCode::of(doc_text).gone(doc_text, old, new)
}

/// A document's code ([`code_of`]), parsed once for all the files it describes: [`gone`] for
/// each file then costs one pass over the file's old and new text, with no set of their tokens.
pub struct DocCode {
    spans: String,
    blocks: Vec<String>,
}

impl DocCode {
    /// The code of `doc_text`.
    pub fn of(doc_text: &str) -> DocCode {
        let (spans, blocks) = code_of(doc_text);
        DocCode { spans, blocks }
    }

    /// [`gone`] for the document this code was taken from (`doc_text`).
    pub fn gone(&self, doc_text: &str, old: &str, new: &str) -> Vec<String> {
        let mut named: HashSet<&str> = tokens(&self.spans);
        for b in &self.blocks {
            named.extend(tokens(b));
        }
        // A name is evidence when it is written like code, or is a whole code span (`pages`):
        // `Core` in `Start Core Dev Server` or an `AND` of a query is a word any edit may drop.
        let whole: HashSet<&str> = self.spans.lines().map(str::trim).collect();
        let held: HashSet<&str> = token_iter(old).filter(|t| named.contains(t)).collect();
        let kept: HashSet<&str> = token_iter(new).filter(|t| held.contains(t)).collect();
        let mut names: Vec<String> = held
            .into_iter()
            .filter(|t| !kept.contains(t))
            .filter(|t| code_like(t) || (whole.contains(t) && !LITERALS.contains(t)))
            .filter(|t| !only_refused(doc_text, t))
            .map(str::to_string)
            .collect();
        names.sort();
        // A quoted diff line (`- "a": 1`) quotes the file's line without its marker.
        let quoted: HashSet<&str> = self
            .blocks
            .iter()
            .flat_map(|b| b.lines())
            .map(|l| l.trim().trim_start_matches(['+', '-']).trim())
            .filter(|l| l.len() >= QUOTED_LINE_MIN_CHARS)
            .collect();
        let held: HashSet<&str> = old
            .lines()
            .map(str::trim)
            .filter(|l| quoted.contains(l))
            .collect();
        let kept: HashSet<&str> = new
            .lines()
            .map(str::trim)
            .filter(|l| held.contains(l))
            .collect();
        // A quoted line whose code the file still has, only its comment gone or changed
        // (`single_round=True,  # task done after 1 step()`), quotes code that did not change.
        let gone_lines: Vec<&str> = held.into_iter().filter(|l| !kept.contains(l)).collect();
        let codes: HashSet<&str> = if gone_lines.iter().any(|l| code_part(l) != *l) {
            new.lines().map(|l| code_part(l.trim())).collect()
        } else {
            HashSet::new()
        };
        let mut lines: Vec<String> = gone_lines
            .into_iter()
            .filter(|l| {
                let code = code_part(l);
                code == *l || code.len() < QUOTED_LINE_MIN_CHARS || !codes.contains(code)
            })
            .map(str::to_string)
            .collect();
        lines.sort();
        names.extend(lines);
        names
    }
}

/// `line` without a trailing comment (`#` or `//` after white space, outside quotes), trimmed:
/// the code a quoted line holds.
///
/// ```
/// use hygiene::scan::detectors::drift::code_part;
/// assert_eq!(code_part("single_round=True,  # done after 1 step()"), "single_round=True,");
/// assert_eq!(code_part("let a = \"x # y\"; // note"), "let a = \"x # y\";");
/// assert_eq!(code_part("url: http://x.dev"), "url: http://x.dev");
/// assert_eq!(code_part("// Resolve to absolute path"), "// Resolve to absolute path");
/// ```
pub fn code_part(line: &str) -> &str {
    let b = line.as_bytes();
    let mut quote: Option<u8> = None;
    for i in 0..b.len() {
        match (quote, b[i]) {
            (Some(q), c) if c == q => quote = None,
            (None, c @ (b'"' | b'\'' | b'`')) => quote = Some(c),
            (None, c)
                if i > 0
                    && b[i - 1].is_ascii_whitespace()
                    && (c == b'#' || (c == b'/' && b.get(i + 1) == Some(&b'/'))) =>
            {
                let code = line[..i].trim_end();
                return if code.is_empty() { line } else { code };
            }
            _ => {}
        }
    }
    line
}

impl Detector for Drift {
    fn kind(&self) -> &'static str {
        "drift"
    }

    fn reads_tree(&self) -> bool {
        true
    }

    fn on_tree(&self, doc: &Doc, ctx: &TreeCtx<'_>) -> Vec<Finding> {
        let Some(h) = ctx.history else {
            return Vec::new();
        };
        let Some(since) = h.touches(&doc.path).and_then(|v| v.first().copied()) else {
            return Vec::new();
        };
        let newer_commits = |files: &[String]| {
            let mut newer: HashSet<usize> = HashSet::new();
            for p in files {
                if let Some(v) = h.touches(p) {
                    newer.extend(v.iter().copied().filter(|&ci| ci < since));
                }
            }
            newer.len() as u32
        };
        // Setting the reader's files aside only lowers the count: the document's text is read
        // for them only when the files it names would be enough.
        let mut files = named_files(doc, ctx, false);
        if newer_commits(&files) < THRESHOLDS.drift_min_commits {
            return Vec::new();
        }
        let readers = readers_files(doc, ctx);
        files.retain(|p| !readers.contains(p.as_str()));
        let commits = newer_commits(&files);
        if commits < THRESHOLDS.drift_min_commits {
            return Vec::new();
        }
        let when = h.commits.get(since).map_or(0, |c| c.time);
        vec![Signal::Drift {
            commits,
            since: crate::time::format_date(when),
        }
        .into()]
    }
}
