//! Turning a written reference into a root-relative path, and knowing whether it exists.
//!
//! The rules users expect (DESIGN.md): URLs with a scheme are not checked; `#fragment` and
//! `?query` are cut off (the fragment is kept for anchor checks); `%20` is decoded; a reference
//! resolves against the linking file's folder first, then the repository root; a leading `/`
//! means the root. A path that would climb out of the root is not checkable and is skipped.

use super::markdown::{extension, has_scheme, strip_line_suffix, Ref};
use crate::report::Via;
use std::collections::HashSet;
use std::path::PathBuf;

/// What the walk saw: every non-ignored file and folder under the root.
#[derive(Debug, Default)]
pub struct Tree {
    /// The root.
    pub root: PathBuf,
    /// Root-relative files (documents or not).
    pub files: HashSet<String>,
    /// Root-relative folders.
    pub dirs: HashSet<String>,
    /// The folders of `dirs` the walk did not enter as plain folders (links to folders inside
    /// the root, folders of tracked files it did not walk): a path under one may pass through
    /// a link ([`Tree::read_path`]).
    pub unwalked_dirs: HashSet<String>,
    /// File names (last segment) of every file, for bare `name.ext` mentions.
    pub basenames: HashSet<String>,
    /// The documentation sites in the tree, found on first use (after the walk).
    pub sites: std::sync::OnceLock<super::sites::Sites>,
    /// The tree's ignore rules, read on first use.
    pub ignores: std::sync::OnceLock<Vec<ignore::gitignore::Gitignore>>,
    /// How many files end with each `folder/name` (their last two segments) and each `name`,
    /// built on first use: how common a short path such as `src/index.ts` or a file name is.
    pub tails: std::sync::OnceLock<std::collections::HashMap<String, u32>>,
    /// Files and folders by their name without ordering prefixes (`03-core/02-stream.mdx` as
    /// `core/stream.mdx`), built on first use: what a site serves them at.
    pub unnumbered: std::sync::OnceLock<std::collections::HashMap<String, String>>,
    /// The folders a project template's files sit in, found on first use
    /// ([`Tree::template_roots`]).
    pub templates: std::sync::OnceLock<Vec<String>>,
    /// Per document another page embeds whole (`{!README.md!}`), the folders of the pages that
    /// embed it: set by the scan once every document is parsed ([`embedding_folders`]).
    pub embedded_in: std::sync::OnceLock<std::collections::HashMap<String, Vec<String>>>,
    /// The files named as a page's language variant (`intro-js.md`), in path order, built on
    /// first use by the missing-path detector: a prefix is one binary search, where a pass over
    /// `files` cost a whole tree per missing link.
    pub variant_pages: std::sync::OnceLock<Vec<String>>,
    /// Per Python package name, the project folders (holding `pyproject.toml`, `setup.py` or
    /// `setup.cfg`) whose folder of that name holds `__init__.py`, built on first use
    /// ([`Tree::python_project_of`]).
    pub python_packages: std::sync::OnceLock<std::collections::HashMap<String, Vec<String>>>,
    /// Files by their lowercased path, when no other file lowercases the same, built on first
    /// use ([`Tree::by_lowercase`]).
    pub lowercase: std::sync::OnceLock<std::collections::HashMap<String, String>>,
    /// The names this repository goes by ([`Tree::own_names`]), read on first use.
    pub own_names: std::sync::OnceLock<Vec<String>>,
    /// The name (last segment) of every folder in `dirs`, built on first use.
    pub dir_names: std::sync::OnceLock<HashSet<String>>,
    /// The extension (lowercase) of every file in `files`, built on first use.
    pub extensions: std::sync::OnceLock<HashSet<String>>,
    /// Every folder of `dirs` as `(parent, name)`, sorted, built on first use
    /// ([`Tree::subfolders`]).
    pub dir_pairs: std::sync::OnceLock<Vec<(String, String)>>,
    /// Folders the walk did not list, by whether they are folders on disk: asked once each
    /// ([`Tree::on_disk`]).
    pub disk_dirs: std::sync::Mutex<std::collections::HashMap<String, bool>>,
}

/// Per embedded document, the folders of the pages that embed it. An embed's path is read from
/// the folder the site is built in (markdown-include's and snippets' default), which may be
/// the page's folder or any above it (`mkdocs serve -f docs/mkdocs.yml` from the root reads
/// `{!README.md!}` as the root's README, beside a `docs/README.md`): every folder's file of
/// that name is embedded.
pub fn embedding_folders<'a>(
    tree: &Tree,
    pages: impl Iterator<Item = (&'a str, &'a [String])>,
) -> std::collections::HashMap<String, Vec<String>> {
    let mut out: std::collections::HashMap<String, Vec<String>> = Default::default();
    for (page, embeds) in pages {
        let here = folder(page);
        for e in embeds {
            let mut dir = here;
            loop {
                if let Some(p) = normalize(dir, e).filter(|p| p != page && tree.has_file(p)) {
                    let v = out.entry(p).or_default();
                    if !v.iter().any(|f| f == here) {
                        v.push(here.to_string());
                    }
                }
                if dir.is_empty() {
                    break;
                }
                dir = folder(dir);
            }
        }
    }
    out
}

/// Folders that hold a project template, whose files (or whose children's: `template/app/`)
/// are the project a user generates from it: a path in code that is there under one is the
/// generated project's file. Published as `scanner.missing_path_template_folders`.
pub const TEMPLATE_FOLDERS: &[&str] = &[
    "template",
    "templates",
    "starter",
    "starters",
    "boilerplate",
    "scaffold",
    "scaffolds",
    "skeleton",
];

/// Folders holding a code generator's templates, as a generator's `files/` folder
/// (`generators/provider/files/`, Nx's and Angular schematics' layout): the project file
/// `src/provider.ts` is written from `files/src/provider.ts.template`. Published as
/// `scanner.missing_path_generator_folders`.
pub const GENERATOR_FOLDERS: &[&str] = &["generators", "schematics"];

/// Suffixes a generator's template file carries beyond the name of the file it writes
/// (`provider.ts.template`, Nx's `index.ts__tmpl__`). Published as
/// `scanner.missing_path_template_suffixes`.
pub const TEMPLATE_SUFFIXES: &[&str] = &[".template", "__tmpl__", ".tmpl", ".hbs", ".ejs"];

/// The code hosts whose URLs name a repository as `host/owner/name/...` (GitLab's groups may
/// nest: its name is the segment before `/-/`).
pub const CODE_HOSTS: &[&str] = &[
    "github.com",
    "www.github.com",
    "raw.githubusercontent.com",
    "gitlab.com",
    "codeberg.org",
    "bitbucket.org",
];

/// The repository a code host's URL names, lowercase; `None` for another site's URL.
///
/// ```
/// use hygiene::scan::refs::hosted_repo;
/// assert_eq!(hosted_repo("https://github.com/prisma/ignite/blob/main/docs/x.md").as_deref(), Some("ignite"));
/// assert_eq!(hosted_repo("https://raw.githubusercontent.com/org/Tool/main/a.png").as_deref(), Some("tool"));
/// assert_eq!(hosted_repo("https://gitlab.com/group/sub/app/-/blob/main/x.md").as_deref(), Some("app"));
/// assert_eq!(hosted_repo("https://github.com/org/tool.git").as_deref(), Some("tool"));
/// assert_eq!(hosted_repo("https://docs.example.com/guide/x"), None);
/// assert_eq!(hosted_repo("https://github.com/org"), None);
/// ```
pub fn hosted_repo(url: &str) -> Option<String> {
    let rest = url
        .strip_prefix("https://")
        .or_else(|| url.strip_prefix("http://"))?;
    let (host, path) = rest.split_once('/')?;
    if !CODE_HOSTS.contains(&host.to_ascii_lowercase().as_str()) {
        return None;
    }
    let path = path.split(['?', '#']).next().unwrap_or("");
    let segs: Vec<&str> = path.split('/').filter(|s| !s.is_empty()).collect();
    let name = match segs.iter().position(|s| *s == "-") {
        Some(i) if host.ends_with("gitlab.com") && i >= 2 => segs[i - 1],
        _ => *segs.get(1)?,
    };
    last_name(name)
}

/// A repository's name from a remote URL or a folder name: its last segment, without `.git`,
/// lowercase (`git@github.com:org/Tool.git` and `/srv/mirrors/tool` are `tool`).
fn last_name(url: &str) -> Option<String> {
    let last = url.trim_end_matches('/').rsplit(['/', ':']).next()?;
    let name = last.strip_suffix(".git").unwrap_or(last);
    (!name.is_empty()).then(|| name.to_ascii_lowercase())
}

/// Whether a path segment is a route group (`(reference)`, `(home)`): Next's app router and
/// Fumadocs leave a folder named in parentheses out of the URL.
///
/// ```
/// use hygiene::scan::refs::route_group;
/// assert!(route_group("(reference)") && !route_group("reference") && !route_group("()"));
/// ```
pub fn route_group(seg: &str) -> bool {
    seg.len() > 2 && seg.starts_with('(') && seg.ends_with(')')
}

/// A path segment without its ordering prefix (`02-stream-text.mdx` → `stream-text.mdx`,
/// `1_intro` → `intro`, `2.deploy` → `deploy`), as Docusaurus, Fumadocs, Nextra, Nuxt Content
/// and undocs routes drop it; `None` when it has none.
///
/// ```
/// use hygiene::scan::refs::unnumbered_segment;
/// assert_eq!(unnumbered_segment("02-stream-text.mdx"), Some("stream-text.mdx"));
/// assert_eq!(unnumbered_segment("1_intro"), Some("intro"));
/// assert_eq!(unnumbered_segment("2024-recap.md"), Some("recap.md"));
/// assert_eq!(unnumbered_segment("v2-api"), None);
/// assert_eq!(unnumbered_segment("404.md"), None);
/// assert_eq!(unnumbered_segment("2.deploy"), Some("deploy"));
/// assert_eq!(unnumbered_segment("0.index.md"), Some("index.md"));
/// assert_eq!(unnumbered_segment("1.2"), None);
/// ```
pub fn unnumbered_segment(seg: &str) -> Option<&str> {
    let digits = seg.bytes().take_while(u8::is_ascii_digit).count();
    let rest = seg.get(digits..)?;
    // Nuxt Content and undocs number with a dot (`2.deploy`, `0.index.md`); a version
    // (`1.2`) is no ordering prefix.
    // (Nor is a number's own extension: `404.md`.)
    let rest = match rest.strip_prefix('.') {
        Some(r)
            if r.starts_with(|c: char| c.is_alphabetic())
                && (r.contains('.') || !super::markdown::known_extension(&format!("x.{r}"))) =>
        {
            r
        }
        Some(_) => return None,
        None => rest.strip_prefix(['-', '_'])?,
    };
    (digits > 0 && !rest.is_empty()).then_some(rest)
}

impl Tree {
    /// The documentation sites of the walked tree.
    pub fn sites(&self) -> &super::sites::Sites {
        self.sites.get_or_init(|| super::sites::Sites::new(self))
    }

    /// The names this repository goes by, lowercase: the repository name of each git remote
    /// (`git@github.com:org/tool.git` is `tool`; a fork's `upstream` counts too) and, when the
    /// root is the work tree's top, the name of its folder (what `git clone` calls it). Asked
    /// once, on first use.
    pub fn own_names(&self) -> &[String] {
        self.own_names.get_or_init(|| {
            let mut names: Vec<String> = crate::git::remote_urls(&self.root)
                .iter()
                .filter_map(|u| last_name(u))
                .collect();
            // The root's own folder only where it is the work tree's top (nothing above the
            // root is looked at).
            if self.root.join(".git").exists() {
                names.extend(
                    self.root
                        .file_name()
                        .and_then(|n| n.to_str())
                        .and_then(last_name),
                );
            }
            names.sort();
            names.dedup();
            names
        })
    }

    /// The name (last segment) of every folder of the tree.
    pub fn dir_names(&self) -> &HashSet<String> {
        self.dir_names.get_or_init(|| {
            self.dirs
                .iter()
                .map(|d| d.rsplit('/').next().unwrap_or(d).to_string())
                .collect()
        })
    }

    /// Whether some file of the tree has the extension `ext` (lowercase).
    pub fn has_extension(&self, ext: &str) -> bool {
        self.extensions
            .get_or_init(|| {
                self.basenames
                    .iter()
                    .filter_map(|b| b.rsplit_once('.').map(|(_, e)| e.to_ascii_lowercase()))
                    .collect()
            })
            .contains(ext)
    }

    /// The names of the folders directly in `parent` (`""` for the root): one binary search.
    ///
    /// ```
    /// let mut t = hygiene::scan::refs::Tree::default();
    /// for d in ["a", "a/b", "a/c", "ab", "ab/x"] {
    ///     t.dirs.insert(d.to_string());
    /// }
    /// assert_eq!(t.subfolders("a").collect::<Vec<_>>(), ["b", "c"]);
    /// assert_eq!(t.subfolders("").collect::<Vec<_>>(), ["a", "ab"]);
    /// assert_eq!(t.subfolders("a/b").count(), 0);
    /// ```
    pub fn subfolders<'t>(&'t self, parent: &str) -> impl Iterator<Item = &'t str> + 't {
        let pairs = self.dir_pairs.get_or_init(|| {
            let mut v: Vec<(String, String)> = self
                .dirs
                .iter()
                .map(|d| match d.rsplit_once('/') {
                    Some((p, n)) => (p.to_string(), n.to_string()),
                    None => (String::new(), d.clone()),
                })
                .collect();
            v.sort_unstable();
            v
        });
        let at = pairs.partition_point(|(p, _)| p.as_str() < parent);
        let parent = parent.to_string();
        pairs[at..]
            .iter()
            .take_while(move |(p, _)| *p == parent)
            .map(|(_, n)| n.as_str())
    }

    /// Whether a rooted route's first segment (`book` of `book/x`, the route without its leading
    /// `/`) names nothing in the tree: a section of a site this repository does not hold. With
    /// `nested`, only a route with more below that segment counts.
    ///
    /// ```
    /// let mut t = hygiene::scan::refs::Tree::default();
    /// t.dirs.insert("docs".to_string());
    /// assert!(t.unknown_top("book/x", true) && t.unknown_top("book", false));
    /// assert!(!t.unknown_top("book", true) && !t.unknown_top("docs/x", true) && !t.unknown_top("/x/y", true));
    /// ```
    pub fn unknown_top(&self, route: &str, nested: bool) -> bool {
        let (first, below) = match route.split_once('/') {
            Some((first, _)) => (first, true),
            None => (route, false),
        };
        (below || !nested) && !first.is_empty() && !self.exists(first)
    }

    /// Whether an absolute URL points away from this repository: to another repository on a
    /// code host (a name not in [`Tree::own_names`]) or to any other site.
    pub fn elsewhere(&self, url: &str) -> bool {
        match hosted_repo(url) {
            Some(name) => !self.own_names().contains(&name),
            None => true,
        }
    }

    /// Whether git ignores `rel` (or a folder above it): a build output, a local checkout, a
    /// tool's runtime state. Read from `.git/info/exclude` and every walked `.gitignore`, each
    /// rooted at its folder; only regular files are read (a FIFO named `.gitignore` is not).
    pub fn ignored(&self, rel: &str) -> bool {
        let answer = self.ignored_unrecorded(rel);
        record(Query::Ignored, rel, answer);
        answer
    }

    fn ignored_unrecorded(&self, rel: &str) -> bool {
        let sets = self.ignores.get_or_init(|| {
            let mut files: Vec<&str> = self
                .files
                .iter()
                .filter(|f| f.rsplit('/').next() == Some(".gitignore"))
                .map(String::as_str)
                .collect();
            files.sort();
            let mut out = Vec::new();
            for f in std::iter::once(".git/info/exclude").chain(files) {
                let dir = if f == ".git/info/exclude" {
                    ""
                } else {
                    folder(f)
                };
                let full = self.root.join(f);
                if !std::fs::symlink_metadata(&full).is_ok_and(|m| m.is_file()) {
                    continue;
                }
                let mut b = ignore::gitignore::GitignoreBuilder::new(self.root.join(dir));
                if b.add(&full).is_none() {
                    if let Ok(g) = b.build() {
                        out.push(g);
                    }
                }
            }
            out
        });
        let full = self.root.join(rel);
        sets.iter().any(|g| {
            // A missing path may be a folder (`src/api/generated/` matches only folders).
            full.starts_with(g.path())
                && (g.matched_path_or_any_parents(&full, false).is_ignore()
                    || g.matched_path_or_any_parents(&full, true).is_ignore())
        })
    }
}

impl Tree {
    /// The folders named one of [`TEMPLATE_FOLDERS`] (`template/`) and each of their child
    /// folders (`template/app/`, `templates/saas/`), and each generator's `files/` folder
    /// ([`GENERATOR_FOLDERS`]: `generators/provider/files/`), root-relative, in a stable order,
    /// found on first use: where a generated project starts.
    pub fn template_roots(&self) -> &[String] {
        self.templates.get_or_init(|| {
            let name = |d: &str| d.rsplit('/').next().unwrap_or(d).to_string();
            let named = |d: &str| TEMPLATE_FOLDERS.contains(&name(d).as_str());
            let generator_files = |d: &str| {
                name(d) == "files" && GENERATOR_FOLDERS.contains(&name(folder(folder(d))).as_str())
            };
            let mut roots: Vec<String> = self
                .dirs
                .iter()
                .filter(|d| {
                    named(d) || (!folder(d).is_empty() && named(folder(d))) || generator_files(d)
                })
                .cloned()
                .collect();
            roots.sort();
            roots
        })
    }

    /// How many files of the walk end with `tail` (`src/index.ts`: one folder and a name; or
    /// a bare name, `index.ts`), the root's own included.
    pub fn tail_count(&self, tail: &str) -> u32 {
        let map = self.tails.get_or_init(|| {
            let mut m = std::collections::HashMap::new();
            for f in &self.files {
                let mut parts = f.rsplitn(3, '/');
                let name = parts.next().unwrap_or(f);
                *m.entry(name.to_string()).or_insert(0) += 1;
                if let Some(dir) = parts.next() {
                    *m.entry(format!("{dir}/{name}")).or_insert(0) += 1;
                }
            }
            m
        });
        map.get(tail).copied().unwrap_or(0)
    }

    /// The one project folder whose Python package is named `name` (`python/packages/core` for
    /// `agent_framework`, whose `agent_framework/__init__.py` it holds beside its
    /// `pyproject.toml`): a module path (`agent_framework/__init__.py`) is read from there.
    pub fn python_project_of(&self, name: &str) -> Option<&str> {
        let map = self.python_packages.get_or_init(|| {
            let mut m: std::collections::HashMap<String, Vec<String>> =
                std::collections::HashMap::new();
            for f in &self.files {
                let Some(pkg) = f.strip_suffix("/__init__.py") else {
                    continue;
                };
                let (parent, name) = pkg.rsplit_once('/').unwrap_or(("", pkg));
                let project = ["pyproject.toml", "setup.py", "setup.cfg"]
                    .iter()
                    .any(|p| self.files.contains(&super::sites::join(parent, p)));
                if project && !parent.is_empty() {
                    m.entry(name.to_string())
                        .or_default()
                        .push(parent.to_string());
                }
            }
            m
        });
        match map.get(name).map(Vec::as_slice) {
            Some([one]) => Some(one),
            _ => None,
        }
    }

    /// The one file whose path, lowercased, is `lower` (`ui-and-theme/Forms.mdx` for
    /// `ui-and-theme/forms.mdx`): what a site that lowercases its slugs serves at that route.
    pub fn by_lowercase(&self, lower: &str) -> Option<&str> {
        let map = self.lowercase.get_or_init(|| {
            let mut m: std::collections::HashMap<String, Option<String>> =
                std::collections::HashMap::new();
            for f in &self.files {
                let l = f.to_lowercase();
                if l != *f {
                    m.entry(l)
                        .and_modify(|v| *v = None)
                        .or_insert_with(|| Some(f.clone()));
                }
            }
            m.into_iter().filter_map(|(k, v)| Some((k, v?))).collect()
        });
        map.get(lower).map(String::as_str)
    }

    /// The file or folder that `rel` names once ordering prefixes and route groups are dropped
    /// from the tree's names (`docs/core/stream.mdx` → `docs/03-core/02-stream.mdx`,
    /// `content/docs/api/error.mdx` → `content/docs/(reference)/api/error.mdx`), if exactly that
    /// exists.
    pub fn unnumbered(&self, rel: &str) -> Option<String> {
        let found = self.unnumbered_unrecorded(rel);
        record(Query::Unnumbered, rel, found.is_some());
        if let Some(f) = &found {
            // The name it landed on is part of the answer.
            record(Query::Exists, f, true);
        }
        found
    }

    fn unnumbered_unrecorded(&self, rel: &str) -> Option<String> {
        // Every segment without its ordering prefix, and without route groups (`(reference)`:
        // Next's app router and Fumadocs leave a folder in parentheses out of the URL).
        let key = |p: &str| -> String {
            let segs: Vec<&str> = p
                .split('/')
                .filter(|s| !route_group(s))
                .map(|s| unnumbered_segment(s).unwrap_or(s))
                .collect();
            segs.join("/")
        };
        let map = self.unnumbered.get_or_init(|| {
            let mut m = std::collections::HashMap::new();
            for p in self.files.iter().chain(self.dirs.iter()) {
                let k = key(p);
                if k == *p {
                    continue;
                }
                // Two names may drop to one (`01-a`, `02-a`): the first in order, every run.
                m.entry(k)
                    .and_modify(|v: &mut String| {
                        if p < v {
                            v.clone_from(p);
                        }
                    })
                    .or_insert_with(|| p.clone());
            }
            m
        });
        // The question may hold prefixed folders itself (a sibling of `03-core/05-text.mdx`).
        map.get(&key(rel)).cloned()
    }

    /// Whether the walk found the file `rel` (no look at the disk).
    pub fn has_file(&self, rel: &str) -> bool {
        let answer = self.files.contains(rel);
        record(Query::HasFile, rel, answer);
        answer
    }

    /// Whether the walk found the folder `rel` (no look at the disk).
    pub fn has_dir(&self, rel: &str) -> bool {
        let answer = self.dirs.contains(rel);
        record(Query::HasDir, rel, answer);
        answer
    }
}

impl Tree {
    /// The path to read the root-relative `rel` at, as [`crate::paths::resolve_inside`] gives
    /// it (never through a link out of the root), for one `lstat` when the walk entered its
    /// folder: the walk follows no link, so such a folder and those above it are no links, and
    /// only the file itself may be one (then `resolve_inside` decides). `None` when it cannot
    /// be read inside the root (or is not there).
    pub fn read_path(&self, rel: &str) -> Option<PathBuf> {
        if self.walked(rel) {
            let full = self.root.join(rel);
            match std::fs::symlink_metadata(&full) {
                Ok(m) if !m.file_type().is_symlink() => return Some(full),
                Ok(_) => {}
                Err(_) => return None,
            }
        }
        crate::paths::resolve_inside(&self.root, rel, false).ok()
    }

    /// The bytes of the root-relative file `rel`, read as [`Tree::read_path`] allows. Where the
    /// walk entered the file's folder it is opened once with `O_NOFOLLOW` (a link fails the open
    /// and goes the long way): no `lstat` before the open, nor a race between them. A detector
    /// that reads a document again (its text, for the clause around a missing path) pays one
    /// open and read per document.
    pub fn read_bytes(&self, rel: &str) -> Option<Vec<u8>> {
        #[cfg(unix)]
        if self.walked(rel) {
            use std::io::Read;
            use std::os::unix::fs::OpenOptionsExt;
            let opened = std::fs::OpenOptions::new()
                .read(true)
                .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK)
                .open(self.root.join(rel));
            match opened {
                Ok(f) => {
                    // `O_NONBLOCK`: a FIFO put in its place gives an error or nothing, never a
                    // wait; a folder fails the read; a device is read no further than the cap.
                    let cap = super::THRESHOLDS.file_size_cap_bytes;
                    let mut out = Vec::with_capacity(8192);
                    f.take(cap + 1).read_to_end(&mut out).ok()?;
                    return (out.len() as u64 <= cap).then_some(out);
                }
                Err(e) if e.raw_os_error() == Some(libc::ELOOP) => {}
                Err(_) => return None,
            }
        }
        std::fs::read(self.read_path(rel)?).ok()
    }

    /// Whether the walk entered every folder of `rel` as a plain folder (then no link is on its
    /// way but the file itself).
    fn walked(&self, rel: &str) -> bool {
        let mut dir = folder(rel);
        crate::paths::check_relative(rel).is_ok()
            && (dir.is_empty() || self.dirs.contains(dir))
            && loop {
                if dir.is_empty() {
                    break true;
                }
                if self.unwalked_dirs.contains(dir) {
                    break false;
                }
                dir = folder(dir);
            }
    }
}

impl Tree {
    /// Whether `rel` exists: in the walk, or on disk for ignored and excluded places (a link to
    /// a build output is not broken just because the scan does not descend there).
    pub fn exists(&self, rel: &str) -> bool {
        let answer = self.exists_unrecorded(rel);
        record(Query::Exists, rel, answer);
        answer
    }

    fn exists_unrecorded(&self, rel: &str) -> bool {
        let rel = rel.trim_end_matches('/');
        if rel.is_empty() || self.files.contains(rel) || self.dirs.contains(rel) {
            return true;
        }
        self.on_disk(rel).is_some()
    }

    /// `lstat` of root-relative `rel`, a place the walk did not list (ignored or excluded), or
    /// `None`. A path whose folder is neither walked nor a folder on disk is not there either,
    /// and that folder is asked of the disk once: a tree whose pages name 40,000 files under a
    /// folder that does not exist made 40,000 failed `lstat`s.
    fn on_disk(&self, rel: &str) -> Option<std::fs::Metadata> {
        crate::paths::check_relative(rel).ok()?;
        let dir = folder(rel);
        if !dir.is_empty() && !self.dirs.contains(dir) && !self.dir_on_disk(dir) {
            return None;
        }
        std::fs::symlink_metadata(self.root.join(rel)).ok()
    }

    /// Whether the root-relative `dir`, which the walk did not list, is a folder on disk
    /// (through links, as a path below it is looked up): when it is not, nothing below it
    /// is there.
    fn dir_on_disk(&self, dir: &str) -> bool {
        if let Some(known) = self.disk_dirs.lock().ok().and_then(|m| m.get(dir).copied()) {
            return known;
        }
        let parent = folder(dir);
        let answer = (parent.is_empty() || self.dirs.contains(parent) || self.dir_on_disk(parent))
            && std::fs::metadata(self.root.join(dir)).is_ok_and(|m| m.is_dir());
        if let Ok(mut m) = self.disk_dirs.lock() {
            m.insert(dir.to_string(), answer);
        }
        answer
    }
}

impl Tree {
    /// Whether `rel` is a file (in the walk, or on disk in ignored and excluded places): what a
    /// `renamed_to` must name.
    pub fn is_file(&self, rel: &str) -> bool {
        let answer = self.is_file_unrecorded(rel);
        record(Query::IsFile, rel, answer);
        answer
    }

    fn is_file_unrecorded(&self, rel: &str) -> bool {
        self.files.contains(rel)
            || (!self.dirs.contains(rel) && self.on_disk(rel).is_some_and(|m| m.is_file()))
    }
}

/// A question asked of the [`Tree`]: the scan cache keeps a document's per-document findings
/// with the questions they asked, and reuses them only while every answer is the same.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Query {
    /// [`Tree::exists`].
    Exists,
    /// [`Tree::is_file`].
    IsFile,
    /// [`Tree::has_file`].
    HasFile,
    /// [`Tree::has_dir`].
    HasDir,
    /// [`Tree::ignored`].
    Ignored,
    /// [`Tree::unnumbered`] found a name.
    Unnumbered,
}

impl Query {
    /// Asks `tree` again.
    pub fn ask(self, tree: &Tree, rel: &str) -> bool {
        match self {
            Query::Exists => tree.exists_unrecorded(rel),
            Query::IsFile => tree.is_file_unrecorded(rel),
            Query::HasFile => tree.files.contains(rel),
            Query::HasDir => tree.dirs.contains(rel),
            Query::Ignored => tree.ignored_unrecorded(rel),
            Query::Unnumbered => tree.unnumbered_unrecorded(rel).is_some(),
        }
    }
}

/// The questions asked on this thread since [`recording`] began, with their answers.
type Asked = Vec<(Query, String, bool)>;

thread_local! {
    static ASKED: std::cell::RefCell<Option<Asked>> = const { std::cell::RefCell::new(None) };
}

fn record(q: Query, rel: &str, answer: bool) {
    ASKED.with(|a| {
        if let Some(v) = a.borrow_mut().as_mut() {
            v.push((q, rel.to_string(), answer));
        }
    });
}

/// Runs `f` and returns, besides its result, every question it asked a [`Tree`] on this
/// thread, with the answers: what a per-document result depends on besides the document.
pub fn recording<R>(f: impl FnOnce() -> R) -> (R, Vec<(Query, String, bool)>) {
    let outer = ASKED.with(|a| a.borrow_mut().replace(Vec::new()));
    let r = f();
    let asked = ASKED.with(|a| std::mem::replace(&mut *a.borrow_mut(), outer));
    (r, asked.unwrap_or_default())
}

/// A reference split into the path as written, and its fragment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Split<'a> {
    /// The path part exactly as written (before `#` or `?`).
    pub written: &'a str,
    /// The fragment without `#`, if any.
    pub fragment: Option<&'a str>,
}

/// Splits `dest` at the first `#` or `?`.
pub fn split(dest: &str) -> Split<'_> {
    // A vectorized byte search: every reference is split several times, and a `[char]`
    // pattern is searched a char at a time.
    let cut = memchr::memchr2(b'#', b'?', dest.as_bytes()).unwrap_or(dest.len());
    let fragment = dest[cut..]
        .strip_prefix('#')
        .map(|f| f.split('?').next().unwrap_or(f));
    Split {
        written: &dest[..cut],
        fragment,
    }
}

/// Decodes `%XX` escapes; returns the input when the result is not UTF-8.
pub fn percent_decode(s: &str) -> String {
    if !s.contains('%') {
        return s.to_string();
    }
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' && i + 2 < b.len() && s.is_char_boundary(i + 3) {
            if let Ok(v) = u8::from_str_radix(&s[i + 1..i + 3], 16) {
                out.push(v);
                i += 3;
                continue;
            }
        }
        out.push(b[i]);
        i += 1;
    }
    String::from_utf8(out).unwrap_or_else(|_| s.to_string())
}

/// Joins `rel` onto the folder `base` (root-relative, may be empty) and removes `.` and `..`.
/// `None` when the result would leave the root or is empty.
pub fn normalize(base: &str, rel: &str) -> Option<String> {
    let mut parts: Vec<&str> = if rel.starts_with('/') {
        Vec::new()
    } else {
        base.split('/').filter(|s| !s.is_empty()).collect()
    };
    for seg in rel.split('/') {
        match seg {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            s => parts.push(s),
        }
    }
    (!parts.is_empty()).then(|| parts.join("/"))
}

/// The folder of a root-relative file path (`""` at the root).
pub fn folder(path: &str) -> &str {
    path.rsplit_once('/').map_or("", |(d, _)| d)
}

/// Where a reference points.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Target {
    /// Not a checkable path (URL, template, outside the root, not path-like after all).
    Skip,
    /// It exists. `path` is root-relative, `None` for a bare file name found elsewhere in the
    /// tree; `fragment` is the `#fragment` if any.
    Found {
        /// Root-relative path.
        path: Option<String>,
        /// The fragment, if any.
        fragment: Option<String>,
    },
    /// It resolves to nothing.
    Missing {
        /// The path part exactly as written.
        written: String,
        /// Root-relative candidates in resolution order: `(path, folder_relative)`.
        candidates: Vec<(String, bool)>,
    },
}

/// The path part of a reference as written: before `#` or `?`, and for a backticked path
/// without its `:LINE` suffix. What a `replace-text` fix replaces.
pub fn path_part(r: &Ref) -> &str {
    let written = split(r.dest.trim()).written;
    if r.via == Via::Code {
        strip_line_suffix(written)
    } else {
        written
    }
}

/// The root-relative paths the path part `written` of a reference in the document `doc` can
/// name, in resolution order, each with whether it is read relative to the document's folder:
/// the folder reading first, then the root reading (a leading `/` means the root only). Empty
/// when every reading leaves the root. [`resolve`] takes the first that exists; the hook keeps
/// the list to see when the path a reference named goes away.
///
/// ```
/// use hygiene::scan::refs::candidates;
/// assert_eq!(
///     candidates("docs/a.md", "src/x.rs"),
///     vec![("docs/src/x.rs".to_string(), true), ("src/x.rs".to_string(), false)]
/// );
/// assert_eq!(candidates("docs/a.md", "../x.rs"), vec![("x.rs".to_string(), true)]);
/// assert_eq!(candidates("docs/a.md", "/x%20y.md"), vec![("x y.md".to_string(), false)]);
/// assert!(candidates("a.md", "../../x").is_empty());
/// ```
pub fn candidates(doc: &str, written: &str) -> Vec<(String, bool)> {
    let decoded = percent_decode(written);
    let base = folder(doc);
    let mut candidates: Vec<(String, bool)> = Vec::new();
    if decoded.starts_with('/') {
        if let Some(p) = normalize("", &decoded) {
            candidates.push((p, false));
        }
    } else {
        if let Some(p) = normalize(base, &decoded) {
            candidates.push((p, true));
        }
        if !base.is_empty() && !decoded.starts_with("./") && !decoded.starts_with("../") {
            if let Some(p) = normalize("", &decoded) {
                if !candidates.iter().any(|(c, _)| *c == p) {
                    candidates.push((p, false));
                }
            }
        }
    }
    candidates
}

/// Files that make their folder a package's root, whose documents name files from there.
pub const PACKAGE_MANIFESTS: &[&str] = &[
    "package.json",
    "Cargo.toml",
    "pyproject.toml",
    "go.mod",
    "build.gradle",
    "build.gradle.kts",
    "pom.xml",
    "composer.json",
    "mix.exs",
    "Gemfile",
];

/// Whether the folder `dir` (not the root) holds one of [`PACKAGE_MANIFESTS`].
pub fn is_package_root(tree: &Tree, dir: &str) -> bool {
    !dir.is_empty()
        && PACKAGE_MANIFESTS
            .iter()
            .any(|m| tree.has_file(&format!("{dir}/{m}")))
}

/// The folders above `doc`, not the root, that [`is_package_root`], nearest first: a
/// workspace member's documents name files from the member's root or from the workspace's
/// (`tests/test_auth.py` in `backend/packages/harness/deerflow/AGENTS.md` is
/// `backend/tests/test_auth.py`).
fn package_roots<'a>(tree: &Tree, doc: &'a str) -> Vec<&'a str> {
    let mut out = Vec::new();
    let mut dir = folder(doc);
    while !dir.is_empty() {
        if is_package_root(tree, dir) {
            out.push(dir);
        }
        dir = folder(dir);
    }
    out
}

/// The folder an agent's own configuration folder sits in (`app/` for
/// `app/.claude/agents/recruiter.md`): the project that agent runs in, whose files its prompts
/// name from there. `None` for the repository's own `.claude/` (the root is tried anyway).
///
/// ```
/// use hygiene::scan::refs::agent_project_root;
/// assert_eq!(agent_project_root("app/.claude/agents/recruiter.md"), Some("app"));
/// assert_eq!(agent_project_root(".claude/agents/recruiter.md"), None);
/// assert_eq!(agent_project_root("docs/agents/recruiter.md"), None);
/// ```
pub fn agent_project_root(doc: &str) -> Option<&str> {
    AGENT_CONFIG_FOLDERS.iter().find_map(|f| {
        let i = doc.find(&format!("/{f}/"))?;
        Some(&doc[..i])
    })
}

/// Whether `dest` is an email address (`team@example.com`): one `@` after a name, a domain
/// with a dot after it, no `/`.
///
/// ```
/// use hygiene::scan::refs::email_address;
/// assert!(email_address("opensource-codeofconduct@amazon.com") && email_address("a.b@x.io"));
/// assert!(!email_address("@api/python/strands.agent") && !email_address("docs/a@2x.png"));
/// assert!(!email_address("pkg@1.2.3") && !email_address("README.md"));
/// ```
pub fn email_address(dest: &str) -> bool {
    let Some((name, domain)) = dest.split_once('@') else {
        return false;
    };
    let tld = domain.rsplit('.').next().unwrap_or("");
    !name.is_empty()
        && !dest.contains(['/', ' ', '\\'])
        && !domain.contains('@')
        && domain.contains('.')
        && tld.len() >= 2
        && tld.bytes().all(|b| b.is_ascii_alphabetic())
}

/// Folders an agent client keeps a project's prompts in.
pub const AGENT_CONFIG_FOLDERS: &[&str] = &[".claude", ".cursor", ".gemini", ".codex", ".agents"];

/// Resolves `r`, written in the document at root-relative `doc`.
pub fn resolve(tree: &Tree, doc: &str, r: &Ref) -> Target {
    let dest = r.dest.trim();
    if dest.is_empty() || has_scheme(dest) || dest.starts_with("//") {
        return Target::Skip;
    }
    if dest.contains("{{") || dest.contains("}}") || dest.contains('$') || dest.contains('<') {
        return Target::Skip;
    }
    // An email address linked without `mailto:` is no file.
    if email_address(dest) {
        return Target::Skip;
    }
    let sp = split(dest);
    let written = path_part(r);
    let fragment = sp.fragment.map(percent_decode);
    if written.is_empty() {
        // `#anchor` into the document itself.
        return match fragment {
            Some(_) if r.via == Via::Link => Target::Found {
                path: Some(doc.to_string()),
                fragment,
            },
            _ => Target::Skip,
        };
    }
    if written.starts_with('~') || github_path(written) {
        return Target::Skip;
    }
    let candidates = candidates(doc, written);
    if candidates.is_empty() {
        return Target::Skip;
    }
    if let Some(i) = candidates.iter().position(|(p, _)| tree.exists(p)) {
        let mut candidates = candidates;
        return Target::Found {
            path: Some(candidates.swap_remove(i).0),
            fragment,
        };
    }
    // A link to a line (`../src/core/renderer.ts:72`, as an editor copies it) names the file.
    let file = strip_line_suffix(written);
    if r.via == Via::Link && file.len() < written.len() {
        if let Some((p, _)) = self::candidates(doc, file)
            .into_iter()
            .find(|(p, _)| tree.exists(p))
        {
            return Target::Found {
                path: Some(p),
                fragment,
            };
        }
    }
    let decoded = percent_decode(written);
    let base = folder(doc);
    // Folders a relative path is also written from: a skill's files name each other from the
    // skill's folder (the one holding `SKILL.md`: `references/details.md` links
    // `references/more.md`), a plugin's from the plugin's ([`plugin_root`]); a package's
    // document names files from the package's root (`src/extension.ts` in
    // `apps/vscode/src/dev/README.md` is `apps/vscode/src/extension.ts`), or from a workspace's
    // root that holds that package.
    if !decoded.starts_with(['/', '.']) {
        let nested = decoded.contains('/');
        let mut bases = skill_root(tree, doc)
            .into_iter()
            .chain(plugin_root(tree, doc).filter(|_| nested))
            .chain(
                nested
                    .then(|| package_roots(tree, doc))
                    .into_iter()
                    .flatten(),
            )
            .chain(agent_project_root(doc).filter(|_| nested));
        if let Some(p) = bases.find_map(|base| normalize(base, &decoded).filter(|p| tree.exists(p)))
        {
            return Target::Found {
                path: Some(p),
                fragment,
            };
        }
    }
    // A rooted path in prose (`/docs/postman-collection.json` in an example project's README)
    // names a file from the root of the project the document sits in: its folder or its
    // package's, when the repository's root has no such file. A link's `/` is the root's.
    if r.via == Via::Code && decoded.starts_with('/') && !base.is_empty() {
        let rest = decoded.trim_start_matches('/');
        if let Some(p) = std::iter::once(base)
            .chain(package_roots(tree, doc))
            .find_map(|b| normalize(b, rest).filter(|p| tree.exists(p)))
        {
            return Target::Found {
                path: Some(p),
                fragment,
            };
        }
    }
    // A Python module path (`agent_framework/__init__.py`, `graphrag/index/run/utils.py`) names
    // the module file of the one project whose package it starts with.
    if r.via == Via::Code && !decoded.starts_with(['/', '.']) {
        if let Some(p) = decoded
            .split_once('/')
            .and_then(|(first, _)| tree.python_project_of(first))
            .and_then(|project| normalize(project, &decoded))
            .filter(|p| tree.exists(p))
        {
            return Target::Found {
                path: Some(p),
                fragment,
            };
        }
    }
    // A document another page embeds whole (`{!README.md!}` in `docs/index.md`) is read on
    // the site from that page: its relative links name files from there too.
    if !decoded.starts_with('/') {
        if let Some(p) = tree
            .embedded_in
            .get()
            .and_then(|m| m.get(doc))
            .into_iter()
            .flatten()
            .find_map(|host| normalize(host, &decoded).filter(|p| tree.exists(p)))
        {
            return Target::Found {
                path: Some(p),
                fragment,
            };
        }
    }
    // The source of a generated document (`internal/docs/protocol.src.md`, woven into
    // `docs/protocol.md`) links as its output does, from the folder the output is written to.
    if doc.ends_with(".src.md") && !decoded.starts_with('/') {
        if let Some(p) = tree
            .sites()
            .source_outputs(folder(doc))
            .iter()
            .find_map(|out| normalize(out, &decoded).filter(|p| tree.exists(p)))
        {
            return Target::Found {
                path: Some(p),
                fragment,
            };
        }
    }
    // A link a site's build resolves (`@api/python/strands.agent`) names no file.
    if r.via == Via::Link && super::sites::alias_link(tree, doc, &decoded) {
        return Target::Skip;
    }
    // A rooted `/docs/...` link in a Hugging Face doc-builder page is another library's page
    // on huggingface.co.
    if r.via == Via::Link && super::sites::hub_route(tree, doc, &decoded) {
        return Target::Skip;
    }
    // A page of a documentation site links by route: `/guide/setup`, `setup.html`, `./setup`.
    if r.via == Via::Link {
        if let Some(p) = super::sites::route_target(tree, doc, &decoded) {
            return Target::Found {
                path: Some(p),
                fragment,
            };
        }
        if super::sites::outside_collection(tree, doc, &decoded) {
            return Target::Skip;
        }
    }
    if r.via == Via::Code {
        // A bare file name (`wrangler.toml`) means the file beside the document: only that
        // candidate, and `missing-path` reports it only when history shows it was there.
        if !decoded.contains('/') {
            return Target::Missing {
                written: written.to_string(),
                candidates: candidates.into_iter().take(1).collect(),
            };
        }
        // An extension-less `a/b` is a path only when its first segment exists (`origin/main`,
        // `owner/repo` and MIME types are not).
        if extension(&decoded).is_none() {
            let first = decoded
                .trim_start_matches("./")
                .split('/')
                .next()
                .unwrap_or("");
            let exists = |p: Option<String>| p.is_some_and(|p| tree.exists(&p));
            if !exists(normalize(base, first)) && !exists(normalize("", first)) {
                return Target::Skip;
            }
        }
    }
    // An agent project's prompt (`app/.claude/agents/x.md`) names the project's files from its
    // folder: that reading is a candidate too (its folder existing makes a path a claim).
    let mut candidates = candidates;
    if let Some(p) = agent_project_root(doc)
        .filter(|_| decoded.contains('/') && !decoded.starts_with(['/', '.']))
        .and_then(|base| normalize(base, &decoded))
    {
        if !candidates.iter().any(|(c, _)| *c == p) {
            candidates.push((p, true));
        }
    }
    Target::Missing {
        written: written.to_string(),
        candidates,
    }
}

/// Whether a root-relative link is a page of github.com (`/owner/repo/blob/main/x.md`,
/// `/owner/repo/tree/...`, `/owner/repo/issues/1`), which GitHub renders relative to its host.
///
/// ```
/// use hygiene::scan::refs::github_path;
/// assert!(github_path("/tldr-pages/tldr/blob/main/CONTRIBUTING.md"));
/// assert!(github_path("/org/repo/issues/12"));
/// assert!(!github_path("/docs/blob/intro.md") && !github_path("docs/a/blob/b/c"));
/// ```
pub fn github_path(written: &str) -> bool {
    let Some(rest) = written.strip_prefix('/') else {
        return false;
    };
    let segs: Vec<&str> = rest.split('/').collect();
    segs.len() >= 4
        && matches!(
            segs[2],
            "blob" | "tree" | "issues" | "pull" | "commit" | "releases" | "wiki" | "discussions"
        )
}

/// The folder of the skill a document belongs to, when it sits below one (an ancestor folder,
/// not its own, holding `SKILL.md`).
pub fn skill_root<'t>(tree: &Tree, doc: &'t str) -> Option<&'t str> {
    let mut dir = folder(doc);
    while let Some((parent, _)) = dir.rsplit_once('/') {
        if tree.has_file(&format!("{parent}/SKILL.md")) {
            return Some(parent);
        }
        dir = parent;
    }
    None
}

/// The folder of the Claude Code plugin a document belongs to: the nearest folder above it, not
/// the root, holding `.claude-plugin/plugin.json`. A plugin's skills, agents and commands name
/// its files from there (`agents/reviewer.md` in `plugins/review/skills/review/SKILL.md`), as
/// `${CLAUDE_PLUGIN_ROOT}` does.
pub fn plugin_root<'t>(tree: &Tree, doc: &'t str) -> Option<&'t str> {
    let mut dir = folder(doc);
    while !dir.is_empty() {
        if tree.is_file(&format!("{dir}/.claude-plugin/plugin.json")) {
            return Some(dir);
        }
        dir = folder(dir);
    }
    None
}

/// Writes `new` (root-relative) the way `written` was written: relative to the linking file's
/// folder when the original was folder-relative, else root-relative (keeping a leading `/`).
/// Spaces are re-encoded as `%20` when the original used `%XX` escapes.
pub fn write_like(written: &str, folder_relative: bool, doc: &str, new: &str) -> String {
    let mut out = if folder_relative && !folder(doc).is_empty() {
        relative_to(folder(doc), new)
    } else if written.starts_with('/') {
        format!("/{new}")
    } else {
        new.to_string()
    };
    if written.starts_with("./") && !out.starts_with("../") && !out.starts_with("./") {
        out = format!("./{out}");
    }
    if written.contains('%') {
        out = out.replace(' ', "%20");
    }
    out
}

/// The path of `target` relative to the folder `from` (both root-relative).
///
/// ```
/// use hygiene::scan::refs::relative_to;
/// assert_eq!(relative_to("docs/a", "docs/b/x.md"), "../b/x.md");
/// assert_eq!(relative_to("docs", "docs/x.md"), "x.md");
/// assert_eq!(relative_to("", "x.md"), "x.md");
/// ```
pub fn relative_to(from: &str, target: &str) -> String {
    let f: Vec<&str> = from.split('/').filter(|s| !s.is_empty()).collect();
    let t: Vec<&str> = target.split('/').filter(|s| !s.is_empty()).collect();
    let common = f.iter().zip(&t).take_while(|(a, b)| a == b).count();
    let mut parts: Vec<&str> = vec![".."; f.len() - common];
    parts.extend(&t[common..]);
    parts.join("/")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A place the walk did not list is looked up on disk, as `lstat` of the whole path would
    /// answer: an ignored folder's files exist, a file under a folder that is not there (or is
    /// a file) does not, and a folder reached through a link is followed; the missing folder is
    /// asked once, and answers the same for every path under it.
    #[cfg(unix)]
    #[test]
    fn unlisted_places_answer_as_the_disk_does() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        std::fs::create_dir_all(root.join("build/out")).unwrap();
        std::fs::write(root.join("build/out/app.js"), "x").unwrap();
        std::fs::write(root.join("notes.md"), "x").unwrap();
        std::os::unix::fs::symlink(root.join("build"), root.join("dist")).unwrap();
        let mut tree = Tree {
            root: root.clone(),
            ..Default::default()
        };
        tree.files.insert("notes.md".into());
        let lstat = |rel: &str| std::fs::symlink_metadata(root.join(rel)).is_ok();
        for rel in [
            "build/out/app.js",
            "build/out",
            "dist/out/app.js",
            "gone/x.md",
            "gone/deeper/x.md",
            "notes.md/x",
            "build/out/none.js",
            "dist",
        ] {
            assert_eq!(tree.exists(rel), lstat(rel), "{rel}");
            assert_eq!(tree.exists(rel), lstat(rel), "{rel}, asked again");
        }
        assert!(tree.is_file("dist/out/app.js") && !tree.is_file("build/out"));
        let known = tree.disk_dirs.lock().unwrap().clone();
        assert_eq!(known.get("gone"), Some(&false));
        assert_eq!(known.get("gone/deeper"), Some(&false));
        assert_eq!(known.get("build/out"), Some(&true));
    }

    /// The one-`lstat` reading never goes through a link out of the root: not a linked file,
    /// not a folder the walk did not enter (a link, or a tracked file's folder it never saw).
    #[cfg(unix)]
    #[test]
    fn read_path_never_leaves_the_root() {
        use std::os::unix::fs::symlink;
        let outside = tempfile::tempdir().unwrap();
        std::fs::write(outside.path().join("secret.md"), "x").unwrap();
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        std::fs::create_dir(root.join("real")).unwrap();
        std::fs::write(root.join("real/a.md"), "a").unwrap();
        symlink(outside.path(), root.join("out")).unwrap();
        symlink(outside.path().join("secret.md"), root.join("real/leak.md")).unwrap();
        symlink(root.join("real"), root.join("alias")).unwrap();
        let mut tree = Tree {
            root: root.clone(),
            ..Default::default()
        };
        for d in ["real", "out", "alias"] {
            tree.dirs.insert(d.into());
        }
        // As `add_tracked` and the walk's inside links leave them: not entered.
        tree.unwalked_dirs.insert("out".into());
        tree.unwalked_dirs.insert("alias".into());
        assert_eq!(tree.read_path("real/a.md"), Some(root.join("real/a.md")));
        assert_eq!(tree.read_path("out/secret.md"), None);
        assert_eq!(tree.read_path("real/leak.md"), None);
        assert_eq!(tree.read_path("real/none.md"), None);
        assert_eq!(tree.read_path("../x.md"), None);
        // A link to a folder inside the root reads as `resolve_inside` reads it.
        assert_eq!(
            tree.read_path("alias/a.md"),
            crate::paths::resolve_inside(&root, "alias/a.md", false).ok()
        );
        assert!(tree.read_path("alias/a.md").is_some());
        // `read_bytes` reads what `read_path` allows, and nothing else; a link inside the root
        // to a file inside it is read the long way.
        symlink(root.join("real/a.md"), root.join("real/inner.md")).unwrap();
        assert!(tree.read_path("real/inner.md").is_some());
        for rel in [
            "real/a.md",
            "out/secret.md",
            "real/leak.md",
            "real/none.md",
            "../x.md",
            "alias/a.md",
            "real/inner.md",
        ] {
            let long_way = tree.read_path(rel).and_then(|p| std::fs::read(p).ok());
            assert_eq!(tree.read_bytes(rel), long_way, "{rel}");
        }
        assert_eq!(tree.read_bytes("real/inner.md").as_deref(), Some(&b"a"[..]));
    }

    /// A FIFO put where a document was is never waited on, and a folder is no text.
    #[cfg(unix)]
    #[test]
    fn read_bytes_never_blocks_on_a_fifo() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        let fifo = std::ffi::CString::new(root.join("pipe.md").to_str().unwrap()).unwrap();
        // SAFETY: mkfifo reads a NUL-terminated path and creates a FIFO; nothing else.
        assert_eq!(unsafe { libc::mkfifo(fifo.as_ptr(), 0o600) }, 0);
        std::fs::create_dir(root.join("dir.md")).unwrap();
        let tree = Tree {
            root: root.clone(),
            ..Default::default()
        };
        assert!(tree.read_bytes("pipe.md").is_none_or(|b| b.is_empty()));
        assert_eq!(tree.read_bytes("dir.md"), None);
    }
}
