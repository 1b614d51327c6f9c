//! Documentation sites: where a page's link by route (`/getting-started/installation`,
//! `/cli/config.html`, `./toml-tasks`) lands in the tree.
//!
//! Site generators publish `docs/guide/setup.md` at a route like `/guide/setup`,
//! `/guide/setup.html` or `/guide/setup/`, and their pages link by route, not by file. Read as a
//! file path, about a third of all missing-path signals on such repositories pointed at pages
//! that exist. So a link in a page of a site (a folder holding one of [`SITE_RULES`]' markers)
//! that names no file is tried again as a route: against the site's content folders, with or
//! without a page extension, `.html` read as the page, a trailing `/` or `index` as the folder's
//! index page. Only links are read this way; a backticked path still names a file.

pub mod angular;
pub mod fern;
pub mod menu_cue;
pub mod openapi;

use super::markdown::has_scheme;
use super::refs::{normalize, Tree};
use schemars::JsonSchema;
use serde::Serialize;

/// One site generator: the files (or folders) at a site's root that name it, and the folders
/// under that root its routes start from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
pub struct SiteRule {
    /// The generator.
    pub generator: &'static str,
    /// File or folder names at the site's root.
    pub markers: &'static [&'static str],
    /// Folders (relative to the site's root; `""` the root itself) a route `/a/b` is read
    /// under, in order: pages first, then static assets.
    pub content_roots: &'static [&'static str],
}

/// The `redirects:` map of a YAML configuration (undocs' `.config/docs.yaml`): each indented
/// `/from: /to` line under it.
///
/// ```
/// use hygiene::scan::sites::read_yaml_redirects;
/// let t = "name: Nitro\nredirects:\n  /deploy/node: /deploy/runtimes/node\n  \"/a\": '/b'\nurl: x\n";
/// assert_eq!(read_yaml_redirects(t), [("/deploy/node".to_string(), "/deploy/runtimes/node".to_string()), ("/a".into(), "/b".into())]);
/// ```
pub fn read_yaml_redirects(text: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut inside = false;
    for l in text.lines() {
        if !l.starts_with([' ', '\t']) {
            inside = l.trim_end() == "redirects:";
            continue;
        }
        if !inside {
            continue;
        }
        let unquote = |v: &str| v.trim().trim_matches(['"', '\'']).to_string();
        if let Some((from, to)) = l.trim().split_once(": ") {
            let (from, to) = (unquote(from), unquote(to));
            if from.starts_with('/') && !to.is_empty() {
                out.push((from, to));
            }
        }
    }
    out
}

/// The site table, tried in order; the nearest site root above a page wins.
pub const SITE_RULES: &[SiteRule] = &[
    SiteRule {
        generator: "docusaurus",
        markers: &[
            "docusaurus.config.js",
            "docusaurus.config.ts",
            "docusaurus.config.mjs",
            "docusaurus.config.cjs",
            "docusaurus.config.mts",
            "docusaurus.config.cts",
        ],
        content_roots: &["", "docs", "src/pages", "blog", "static"],
    },
    SiteRule {
        generator: "vitepress",
        markers: &[".vitepress"],
        content_roots: &["", "public"],
    },
    SiteRule {
        generator: "mintlify",
        markers: &["mint.json", "docs.json"],
        content_roots: &[""],
    },
    SiteRule {
        generator: "starlight / astro",
        markers: &[
            "astro.config.mjs",
            "astro.config.js",
            "astro.config.ts",
            "astro.config.mts",
        ],
        // A content collection (`src/content/blog/`) is served under its name by a page that
        // renders it (`src/pages/blog/[...slug].astro`): `/blog/post` is `src/content/blog/post`.
        content_roots: &["src/content/docs", "src/pages", "src/content", "public"],
    },
    SiteRule {
        generator: "hugo",
        markers: &["hugo.toml", "hugo.yaml", "hugo.json"],
        content_roots: &["content", "static", "assets"],
    },
    SiteRule {
        generator: "mkdocs",
        // Sites built from several configurations name them after the first
        // (`mkdocs-online.yml` inheriting `mkdocs-common.yml`, `mkdocs.insiders.yml`).
        markers: &[
            "mkdocs.yml",
            "mkdocs.yaml",
            "mkdocs-*.yml",
            "mkdocs-*.yaml",
            "mkdocs.*.yml",
            "mkdocs.*.yaml",
        ],
        content_roots: &["docs"],
    },
    SiteRule {
        generator: "mdbook",
        markers: &["book.toml"],
        content_roots: &["src"],
    },
    SiteRule {
        generator: "jekyll",
        markers: &["_config.yml"],
        content_roots: &[""],
    },
    SiteRule {
        generator: "gitbook",
        markers: &[".gitbook.yaml"],
        content_roots: &[""],
    },
    SiteRule {
        generator: "hugging face doc-builder",
        markers: &[HUB_DOCS_MARKER],
        content_roots: &[""],
    },
    SiteRule {
        // unjs' undocs (Nitro, h3): numbered folders (`2.deploy/0.index.md` is `/deploy/`) and
        // assets under `.docs/public/`.
        generator: "undocs",
        markers: &[".config/docs.yaml"],
        content_roots: &["", ".docs/public"],
    },
    SiteRule {
        // Nuxt Content (Nuxt UI's docs): numbered folders (`3.components/button.md` is
        // `/components/button`), assets under `public/`. Not `content.config.ts`: Astro's
        // content collections are configured in a file of that name too.
        generator: "nuxt content",
        markers: &["nuxt.config.ts", "nuxt.config.js", "nuxt.config.mjs"],
        content_roots: &["content", "public"],
    },
    SiteRule {
        // Rspress: pages under `docs/` (its default `root`), the default language's under
        // `docs/en/` when the site is translated (`/guide/x` is `docs/en/guide/x.mdx`), `.md`
        // links served from `.mdx`.
        generator: "rspress",
        markers: &[
            "rspress.config.ts",
            "rspress.config.js",
            "rspress.config.mjs",
            "rspress.config.mts",
        ],
        content_roots: &["docs", "docs/en", "docs/public"],
    },
    SiteRule {
        generator: "fern",
        markers: &["fern.config.json"],
        content_roots: &[""],
    },
    SiteRule {
        generator: "nextra / next",
        markers: &[
            "next.config.js",
            "next.config.mjs",
            "next.config.cjs",
            "next.config.ts",
            "next.config.mts",
        ],
        content_roots: &[
            "pages",
            "src/pages",
            "content",
            "src/content",
            "app",
            "src/app",
            "public",
        ],
    },
];

/// Extensions a page is written in (a notebook is a page of MkDocs-Jupyter and Jupyter Book
/// sites); a route names a page without one (or with `.html`).
pub const PAGE_EXTENSIONS: &[&str] = &["md", "mdx", "markdown", "ipynb"];

/// Index pages a folder route (`/guide/`, `/guide`) serves.
pub const INDEX_PAGES: &[&str] = &[
    "index.md",
    "index.mdx",
    "README.md",
    "_index.md",
    "index.html",
];

/// The site roots of a tree: `(root folder, rule)`, deepest first, and each root's redirects.
#[derive(Debug, Default)]
pub struct Sites {
    roots: Vec<(String, &'static SiteRule)>,
    redirects: std::collections::HashMap<String, Vec<(String, String)>>,
    /// Content folders that are symbolic links to a folder of the tree (`website/src/content/docs
    /// -> ../../../docs`): `(link, target)`, both root-relative. The target's pages are the
    /// site's; the walk never follows the link itself.
    links: Vec<(String, String)>,
    /// The base path each site root is served under (`/openai-agents-js`), from its
    /// configuration's `base:` or `baseUrl:`.
    bases: std::collections::HashMap<String, String>,
    /// The pages each Mintlify site root generates from OpenAPI specifications.
    generated: std::collections::HashMap<String, openapi::Generated>,
    /// The static folders a Docusaurus configuration names instead of `static/`
    /// (`staticDirectories: ['assets']`), root-relative: `/img/a.png` is `<root>/assets/img/a.png`.
    statics: std::collections::HashMap<String, Vec<String>>,
    /// Per folder of `*.src.md` sources, the folders their generated documents are written to.
    outputs: std::collections::HashMap<String, Vec<String>>,
    /// The content folders a configuration names instead of its rule's: MkDocs' `docs_dir:
    /// docs/md_v2`, VitePress' `srcDir: 'src'` (with its `public/`), relative to the site's root.
    docs_dirs: std::collections::HashMap<String, Vec<String>>,
    /// Docusaurus docs plugins mounted at their own route (`routeBasePath: 'observability-docs'`
    /// over `path: 'observability'`): `(route, folder)`, the folder root-relative.
    mounts: std::collections::HashMap<String, Vec<(String, String)>>,
    /// The routes a Fern site's `docs.yml` gives pages: each `slug:` as written
    /// (`toolkits/introduction`) and each page's whole route ([`fern::read_routes`]).
    slugs: std::collections::HashMap<String, std::collections::HashSet<String>>,
    /// Route segments a page file or folder matches whatever they hold (`[slug]`, `[...slug]`,
    /// `[[...slug]]`) and route groups that are no segment at all (`(home)`): per parent folder,
    /// the child's name (a file's without its extension).
    special: std::collections::HashMap<String, Vec<String>>,
    /// Per Next site root, the routes its content folders are served at, with each folder
    /// ([`nextra_mounts`]): the catch-all page `app/[lang]/docs/[[...mdxPath]]` serves
    /// `content/en/setup.mdx` at `/en/docs/setup` (a dynamic segment takes the content's first
    /// folder); `app/docs/[[...slug]]` serves `content/docs/setup.mdx` at `/docs/setup`.
    nextra: std::collections::HashMap<String, Vec<(Vec<String>, String)>>,
    /// Docusaurus site roots configured with `trailingSlash: true`: every page is served as a
    /// folder (`/docs/admin/config/`), so a browser resolves its relative links from there.
    trailing_slash: std::collections::HashSet<String>,
    /// Per docs folder whose `config.json` lays out a TanStack docs site (`"sections"` of
    /// `{"label", "to"}` entries), the routes it lists, relative to that folder
    /// (`framework/react/examples/basic`: an example the site renders from `examples/`).
    nav_routes: std::collections::HashMap<String, std::collections::HashSet<String>>,
    /// Per folder holding an `angular.json`, the route paths its router configuration files
    /// list ([`angular::read_paths`]), sorted.
    angular: std::collections::HashMap<String, Vec<String>>,
    /// Per folder holding a [`menu_cue::MENU_FILE`], each route its items serve and the
    /// root-relative page file that renders it (the file found with a page extension).
    menus: std::collections::HashMap<String, Vec<(String, String)>>,
}

/// A map of sets in a fixed order, for [`Sites::fingerprint`].
fn sorted_sets(
    map: &std::collections::HashMap<String, std::collections::HashSet<String>>,
) -> Vec<(&String, Vec<&String>)> {
    let mut out: Vec<(&String, Vec<&String>)> = map
        .iter()
        .map(|(k, v)| {
            let mut v: Vec<_> = v.iter().collect();
            v.sort();
            (k, v)
        })
        .collect();
    out.sort();
    out
}

/// The routes a TanStack docs `config.json` lists: every `"to"` string under its top-level
/// `"sections"`, without slashes at either end. Empty for any other JSON.
///
/// ```
/// use hygiene::scan::sites::read_nav_routes;
/// let c = br#"{"sections": [{"label": "Guide", "children": [{"label": "Intro", "to": "overview"}],
///   "frameworks": [{"label": "react", "children": [{"label": "Basic", "to": "framework/react/examples/basic"}]}]}]}"#;
/// let mut got: Vec<String> = read_nav_routes(c).into_iter().collect();
/// got.sort();
/// assert_eq!(got, ["framework/react/examples/basic", "overview"]);
/// assert!(read_nav_routes(br#"{"to": "x", "compilerOptions": {}}"#).is_empty());
/// ```
pub fn read_nav_routes(config: &[u8]) -> std::collections::HashSet<String> {
    fn walk(v: &serde_json::Value, out: &mut std::collections::HashSet<String>) {
        match v {
            serde_json::Value::Array(items) => items.iter().for_each(|i| walk(i, out)),
            serde_json::Value::Object(map) => {
                if let Some(to) = map.get("to").and_then(|t| t.as_str()) {
                    let to = to.trim_matches('/');
                    if !to.is_empty() && !to.contains("://") {
                        out.insert(to.to_string());
                    }
                }
                map.values().for_each(|x| walk(x, out));
            }
            _ => {}
        }
    }
    let mut out = std::collections::HashSet::new();
    if let Ok(v) = serde_json::from_slice::<serde_json::Value>(config) {
        if let Some(sections) = v.get("sections").filter(|s| s.is_array()) {
            walk(sections, &mut out);
        }
    }
    out
}

/// Whether a link of `doc` names a route a TanStack docs `config.json` above it lists
/// (`../examples/sorting` from `docs/framework/alpine/guide/sorting.md` is
/// `framework/alpine/examples/sorting`): the site renders it, though no page file holds it.
pub fn navigation_route(tree: &Tree, doc: &str, written: &str) -> bool {
    let routes = &tree.sites().nav_routes;
    if routes.is_empty() || written.starts_with('/') {
        return false;
    }
    let Some(at) = normalize(super::refs::folder(doc), written.trim_end_matches('/')) else {
        return false;
    };
    let at = at.strip_suffix(".md").unwrap_or(&at);
    routes.iter().any(|(folder, listed)| {
        at.strip_prefix(folder.as_str())
            .and_then(|r| r.strip_prefix('/'))
            .is_some_and(|r| listed.contains(r))
    })
}

/// The page file a rooted link of `doc` reaches through the [`menu_cue`] menu of a folder
/// above it: the route, with the menu folder's name in front or not (`/docs/go/x` and `/go/x`
/// under `docs/menu.cue`), one of the menu's items.
///
/// ```
/// use hygiene::scan::refs::Tree;
/// use hygiene::scan::sites::menu_route;
/// let d = std::env::temp_dir().join(format!("hygiene-menu-{}", std::process::id()));
/// std::fs::create_dir_all(d.join("docs/go/self-host")).unwrap();
/// std::fs::write(d.join("docs/menu.cue"), "{\n path: \"/go/self-host/docker-build\"\n file: \"go/self-host/self-host\"\n}\n").unwrap();
/// let mut t = Tree::default();
/// t.root = d.clone();
/// for f in ["docs/menu.cue", "docs/go/self-host/self-host.md", "docs/go/overview.md"] { t.files.insert(f.into()); }
/// assert_eq!(menu_route(&t, "docs/go/overview.md", "/docs/go/self-host/docker-build").as_deref(), Some("docs/go/self-host/self-host.md"));
/// assert_eq!(menu_route(&t, "docs/go/overview.md", "/go/self-host/docker-build/").as_deref(), Some("docs/go/self-host/self-host.md"));
/// assert_eq!(menu_route(&t, "docs/go/overview.md", "/docs/go/self-host/gone"), None);
/// assert_eq!(menu_route(&t, "README.md", "/docs/go/self-host/docker-build"), None);
/// std::fs::remove_dir_all(&d).unwrap();
/// ```
pub fn menu_route(tree: &Tree, doc: &str, written: &str) -> Option<String> {
    if !written.starts_with('/') {
        return None;
    }
    let route = written.trim_matches('/');
    tree.sites().menus.iter().find_map(|(dir, pages)| {
        let under = dir.is_empty() || doc.starts_with(&format!("{dir}/"));
        if !under {
            return None;
        }
        let name = dir.rsplit('/').next().unwrap_or("");
        let own = route
            .strip_prefix(name)
            .and_then(|r| r.strip_prefix('/'))
            .filter(|_| !name.is_empty());
        pages
            .iter()
            .find(|(r, _)| r == route || Some(r.as_str()) == own)
            .map(|(_, file)| file.clone())
    })
}

/// Whether a rooted link of `doc`, under a folder with a [`menu_cue`] menu, leaves the docs
/// the menu serves: its first segment is neither the menu folder's name (the site's mount,
/// `/docs/...`) nor the first segment of any route the menu lists, nor a folder of the tree.
/// Such a link (`/pricing`, `/book`, `/assets/docs/a.jpg`) is a page of the website that hosts
/// the docs (s33: encore's; judged false).
///
/// ```
/// use hygiene::scan::refs::Tree;
/// use hygiene::scan::sites::outside_menu_site;
/// let d = std::env::temp_dir().join(format!("hygiene-menu-out-{}", std::process::id()));
/// std::fs::create_dir_all(d.join("docs/go")).unwrap();
/// std::fs::write(d.join("docs/menu.cue"), "{\n path: \"/go/overview\"\n file: \"go/overview\"\n}\n").unwrap();
/// let mut t = Tree::default();
/// t.root = d.clone();
/// for f in ["docs/menu.cue", "docs/go/overview.md", "docs/go/usage.md"] { t.files.insert(f.into()); }
/// assert!(outside_menu_site(&t, "docs/go/usage.md", "/pricing"));
/// assert!(!outside_menu_site(&t, "docs/go/usage.md", "/docs/go/gone"));
/// assert!(!outside_menu_site(&t, "docs/go/usage.md", "/go/gone"));
/// assert!(!outside_menu_site(&t, "README.md", "/pricing"));
/// std::fs::remove_dir_all(&d).unwrap();
/// ```
pub fn outside_menu_site(tree: &Tree, doc: &str, written: &str) -> bool {
    let Some(route) = written.strip_prefix('/') else {
        return false;
    };
    let first = route.split('/').next().unwrap_or("");
    tree.sites().menus.iter().any(|(dir, pages)| {
        let name = dir.rsplit('/').next().unwrap_or("");
        !dir.is_empty()
            && doc.starts_with(&format!("{dir}/"))
            && !first.is_empty()
            && first != name
            && !pages
                .iter()
                .any(|(r, _)| r.split('/').next() == Some(first))
            && !tree.exists(first)
    })
}

/// Whether a link of `doc` names a route of the Angular application its folder belongs to
/// ([`angular::serves`]): rooted, or relative without an extension (such an application's
/// `<base href="/">` resolves it from the root), `/fundamentals/injection-scopes` where
/// `fundamentals` and `injection-scopes` are paths of its routes.
///
/// ```
/// use hygiene::scan::refs::Tree;
/// use hygiene::scan::sites::angular_route;
/// let d = std::env::temp_dir().join(format!("hygiene-angular-{}", std::process::id()));
/// std::fs::create_dir_all(d.join("src/app")).unwrap();
/// std::fs::write(d.join("angular.json"), "{}").unwrap();
/// std::fs::write(d.join("src/app/app.routes.ts"), "[{ path: 'fundamentals', loadChildren: () => x }]").unwrap();
/// std::fs::write(d.join("src/app/f.routes.ts"), "[{ path: 'injection-scopes', component: P }]").unwrap();
/// let mut t = Tree::default();
/// t.root = d.clone();
/// for f in ["angular.json", "src/app/app.routes.ts", "src/app/f.routes.ts", "content/guards.md"] { t.files.insert(f.into()); }
/// assert!(angular_route(&t, "content/guards.md", "/fundamentals/injection-scopes"));
/// assert!(angular_route(&t, "content/guards.md", "fundamentals/injection-scopes"));
/// assert!(!angular_route(&t, "content/guards.md", "/fundamentals/gone"));
/// assert!(!angular_route(&t, "content/guards.md", "fundamentals/injection-scopes.md"));
/// std::fs::remove_dir_all(&d).unwrap();
/// ```
pub fn angular_route(tree: &Tree, doc: &str, written: &str) -> bool {
    let apps = &tree.sites().angular;
    if apps.is_empty() {
        return false;
    }
    let route = written.trim_start_matches("./").trim_matches('/');
    let name = route.rsplit('/').next().unwrap_or(route);
    if route.starts_with("../") || name.contains('.') {
        return false;
    }
    apps.iter().any(|(app, paths)| {
        let inside = doc
            .strip_prefix(app.as_str())
            .is_some_and(|rest| app.is_empty() || rest.starts_with('/'));
        inside && angular::serves(paths, route)
    })
}

/// The routes the content folders of a Next site are served at, per site root: each optional
/// catch-all page below `app/` or `src/app/` (its folders less route groups) with the content
/// folder it renders.
///
/// - Nextra's `[[...mdxPath]]` renders the site's `content/` (or `src/content/`): the page
///   `app/[lang]/docs/[[...mdxPath]]` serves `content/en/setup.mdx` at `/en/docs/setup` (a
///   dynamic segment takes the content's first folder).
/// - Fumadocs' `[[...slug]]` renders a collection of `content/` (or `src/content/`) named by the
///   page's folders: `app/docs/[[...slug]]` serves `content/docs/` at `/docs`,
///   `app/(products)/tap/docs/[[...slug]]` serves `content/tap-docs/` (or `content/tap/docs/`),
///   and a catch-all at the app's root serves `content/docs/` (the collection's default
///   folder) at `/`. A catch-all whose folder names no collection is left to the route rules.
fn nextra_mounts(
    tree: &Tree,
    roots: &[(String, &'static SiteRule)],
) -> std::collections::HashMap<String, Vec<(Vec<String>, String)>> {
    let mut out: std::collections::HashMap<String, Vec<(Vec<String>, String)>> =
        std::collections::HashMap::new();
    for (root, rule) in roots {
        if rule.generator != "nextra / next" {
            continue;
        }
        let contents: Vec<String> = ["content", "src/content"]
            .iter()
            .map(|c| join(root, c))
            .filter(|c| tree.has_dir(c))
            .collect();
        if contents.is_empty() {
            continue;
        }
        let mut pages: Vec<&String> = tree
            .dirs
            .iter()
            .filter(|d| d.ends_with("/[[...mdxPath]]") || d.ends_with("/[[...slug]]"))
            .collect();
        pages.sort();
        let mut mounts = Vec::new();
        for d in pages {
            let Some(segs) = ["app", "src/app"].iter().find_map(|a| {
                let app = join(root, a);
                let inner = d.strip_prefix(&app)?.strip_prefix('/')?;
                let segs: Vec<String> = inner
                    .split('/')
                    .filter(|s| !super::refs::route_group(s))
                    .map(str::to_string)
                    .collect();
                Some(segs)
            }) else {
                continue;
            };
            let (last, pattern) = segs
                .split_last()
                .map_or(("", &[][..]), |(l, p)| (l.as_str(), p));
            let content = if last == "[[...mdxPath]]" {
                contents.first().cloned()
            } else {
                let statics: Vec<&str> = pattern
                    .iter()
                    .filter(|p| !p.starts_with('['))
                    .map(String::as_str)
                    .collect();
                if statics.len() != pattern.len() {
                    continue;
                }
                let names = if statics.is_empty() {
                    vec!["docs".to_string()]
                } else {
                    vec![statics.join("/"), statics.join("-")]
                };
                contents
                    .iter()
                    .flat_map(|c| names.iter().map(move |n| join(c, n)))
                    .find(|c| tree.has_dir(c))
            };
            if let Some(content) = content {
                mounts.push((pattern.to_vec(), content));
            }
        }
        if !mounts.is_empty() {
            out.insert(root.clone(), mounts);
        }
    }
    out
}

impl Sites {
    /// The content files a route (`en/docs/setup`, no leading `/`) of a Next site at `root`
    /// names through its catch-all pages, before the page extension: `content/en/setup`.
    fn nextra_file(&self, root: &str, route: &str) -> Vec<String> {
        let Some(mounts) = self.nextra.get(root) else {
            return Vec::new();
        };
        mounts
            .iter()
            .filter_map(|(pattern, content)| {
                let mut segs = route.split('/').filter(|s| !s.is_empty());
                let mut folders: Vec<&str> = Vec::new();
                for p in pattern {
                    let s = segs.next()?;
                    if p.starts_with('[') {
                        folders.push(s);
                    } else if p != s {
                        return None;
                    }
                }
                let rest: Vec<&str> = folders.into_iter().chain(segs).collect();
                Some(join(content, &rest.join("/")))
            })
            .collect()
    }

    /// The page's own value of the leading dynamic segment of the Next mount that serves it
    /// (`en` for `content/en/setup.mdx` under `app/[lang]/docs/[[...mdxPath]]`): a link
    /// component that prefixes the reader's locale serves `/docs/x` from there as `/en/docs/x`.
    fn nextra_leading<'a>(&self, root: &str, doc: &'a str) -> Option<&'a str> {
        self.nextra
            .get(root)?
            .iter()
            .find_map(|(pattern, content)| {
                if !pattern.first()?.starts_with('[') {
                    return None;
                }
                let inner = doc.strip_prefix(content.as_str())?.strip_prefix('/')?;
                inner.split_once('/').map(|(first, _)| first)
            })
    }

    /// The route a page of a Next site's content folder is served at (`en/docs/setup` for
    /// `content/en/setup.mdx`; an `index` page at its folder's route), if `doc` is one.
    fn nextra_route(&self, root: &str, doc: &str) -> Option<Vec<String>> {
        let (pattern, inner) = self.nextra.get(root)?.iter().find_map(|(p, content)| {
            Some((p, doc.strip_prefix(content.as_str())?.strip_prefix('/')?))
        })?;
        let stem = inner.rsplit_once('.').map_or(inner, |(s, _)| s);
        let mut segs = stem.split('/');
        let mut route: Vec<String> = Vec::new();
        for p in pattern {
            if p.starts_with('[') {
                route.push(segs.next()?.to_string());
            } else {
                route.push(p.clone());
            }
        }
        route.extend(segs.map(str::to_string));
        if route.last().is_some_and(|l| l == "index") {
            route.pop();
        }
        Some(route)
    }
}

/// `root`-relative `a` and `b` joined (either may be empty).
pub fn join(a: &str, b: &str) -> String {
    match (a.is_empty(), b.is_empty()) {
        (true, _) => b.to_string(),
        (_, true) => a.to_string(),
        _ => format!("{a}/{b}"),
    }
}

/// The bytes of a site's configuration file: a regular file (never through a link) of at most
/// `cap` bytes.
pub(crate) fn read_config(full: &std::path::Path, cap: u64) -> Option<Vec<u8>> {
    std::fs::symlink_metadata(full)
        .is_ok_and(|m| m.is_file() && m.len() <= cap)
        .then(|| std::fs::read(full).ok())
        .flatten()
}

/// A configuration file's text ([`read_config`]), empty when it cannot be read as UTF-8.
fn config_text(full: &std::path::Path, cap: u64) -> String {
    read_config(full, cap)
        .and_then(|b| String::from_utf8(b).ok())
        .unwrap_or_default()
}

/// Whether the key found at byte `at` of `text` is a whole key, not the end of a longer one
/// (`base:` in `database:` or `site.base:`, `source:` in `resource:`).
fn whole_key(text: &str, at: usize) -> bool {
    !text[..at]
        .chars()
        .next_back()
        .is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '.')
}

/// The quoted string `rest` starts with (after blanks), without its quotes: `'docs'`,
/// `"docs"` or `` `docs` ``; `None` for another value or an unclosed quote.
fn quoted(rest: &str) -> Option<&str> {
    let rest = rest.trim_start();
    let q = rest
        .chars()
        .next()
        .filter(|c| matches!(c, '\'' | '"' | '`'))?;
    let end = rest[1..].find(q)?;
    Some(&rest[1..1 + end])
}

/// The folders a site's routes are read under, in its rule's order: each content folder that
/// exists (through its link when it is one), `""` for a root site's own folder.
fn content_dirs<'a>(
    tree: &'a Tree,
    root: &'a str,
    rule: &'a SiteRule,
) -> impl Iterator<Item = String> + 'a {
    let statics = tree.sites().statics.get(root).into_iter().flatten();
    tree.sites()
        .content_roots(root, rule)
        .into_iter()
        .map(|c| join(root, c))
        .chain(statics.cloned())
        .filter_map(move |at| {
            let base = tree.sites().content_dir(&at).to_string();
            (base.is_empty() || tree.has_dir(&base)).then_some(base)
        })
}

/// Whether a Docusaurus configuration serves every page as a folder (`trailingSlash: true`).
///
/// ```
/// use hygiene::scan::sites::read_trailing_slash;
/// assert!(read_trailing_slash("const config = {\n  trailingSlash: true,\n};"));
/// assert!(!read_trailing_slash("  trailingSlash: false,\n") && !read_trailing_slash("// trailingSlash: true\n"));
/// ```
pub fn read_trailing_slash(text: &str) -> bool {
    text.lines().any(|l| {
        l.trim_start()
            .strip_prefix("trailingSlash:")
            .is_some_and(|v| v.trim().trim_end_matches(',').trim() == "true")
    })
}

/// The docs plugins a Docusaurus configuration mounts at a route of their own: each
/// `routeBasePath: 'observability-docs'` with the `path: 'observability'` of the same object
/// (the nearest `path:` within a few lines; `docs` for the preset's docs when none is given),
/// as `(route, folder)`. A plugin's root route (`/evaluation-docs/`) is its overview page,
/// whatever that page's file is called (`slug: /`).
///
/// ```
/// use hygiene::scan::sites::read_mounts;
/// let c = "plugins: [[\n  '@docusaurus/plugin-content-docs',\n  {\n    id: 'obs',\n    path: 'observability',\n    routeBasePath: 'observability-docs',\n  },\n]]";
/// assert_eq!(read_mounts(c), vec![("observability-docs".to_string(), "observability".to_string())]);
/// assert_eq!(read_mounts("docs: {\n  routeBasePath: 'docs',\n}"), vec![("docs".to_string(), "docs".to_string())]);
/// assert_eq!(read_mounts("docs: {\n  routeBasePath: '/',\n}"), vec![(String::new(), "docs".to_string())]);
/// ```
pub fn read_mounts(text: &str) -> Vec<(String, String)> {
    let value = |l: &str, key: &str| -> Option<String> {
        let v = quoted(l.trim_start().strip_prefix(key)?)?;
        (!v.contains("${")).then(|| v.trim_start_matches("./").trim_matches('/').to_string())
    };
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    for (i, l) in lines.iter().enumerate() {
        let Some(route) = value(l, "routeBasePath:") else {
            continue;
        };
        let near = (i.saturating_sub(6)..(i + 7).min(lines.len()))
            .filter(|&j| j != i)
            .filter_map(|j| value(lines[j], "path:").map(|v| (j.abs_diff(i), v)))
            .min_by_key(|(d, _)| *d)
            .map(|(_, v)| v);
        let folder = near.unwrap_or_else(|| "docs".to_string());
        if !folder.is_empty() {
            out.push((route, folder));
        }
    }
    out
}

/// The redirects of a Netlify `_redirects` file: `/from /to [status]` per line, or `/from=/to`;
/// a splat (`/blog/*` to `/news/:splat`) as a trailing pattern, and a destination on another
/// site (`https://nuxt.studio/...`) kept whole: the route is served by redirecting there.
///
/// ```
/// use hygiene::scan::sites::read_netlify_redirects;
/// let t = "# moved\n/guide/old /guide/new 301\n/blog/* /news/:splat 301!\n/studio=https://nuxt.studio/docs\nhttps://a.dev/* https://b.dev/:splat\n";
/// assert_eq!(read_netlify_redirects(t), [
///     ("/guide/old".to_string(), "/guide/new".to_string()),
///     ("/blog/:splat*".into(), "/news/:splat*".into()),
///     ("/studio".into(), "https://nuxt.studio/docs".into()),
/// ]);
/// ```
pub fn read_netlify_redirects(text: &str) -> Vec<(String, String)> {
    text.lines()
        .filter_map(|l| {
            let l = l.trim();
            if l.starts_with('#') {
                return None;
            }
            let mut words = l.split_whitespace();
            let first = words.next()?;
            let (src, dst) = match words.next() {
                Some(dst) => (first, dst),
                None => first.split_once('=')?,
            };
            if !src.starts_with('/') || !(dst.starts_with('/') || super::markdown::has_scheme(dst))
            {
                return None;
            }
            let src = match src.strip_suffix("/*") {
                Some(stem) => format!("{stem}/:splat*"),
                None => src.to_string(),
            };
            Some((src, dst.replace(":splat", ":splat*")))
        })
        .collect()
}

/// The redirects an object literal maps, one per line (Astro's `redirects: { '/a': '/b' }`,
/// and the generated `redirects.js` a configuration spreads into it): both sides rooted.
///
/// ```
/// use hygiene::scan::sites::read_object_redirects;
/// let t = "export default {\n  '/linter/rules/no-alert': '/linter/rules/no-alert/javascript',\n  \"/a\": \"/b\",\n  title: 'x',\n};\n";
/// assert_eq!(read_object_redirects(t), [("/linter/rules/no-alert".to_string(), "/linter/rules/no-alert/javascript".to_string()), ("/a".into(), "/b".into())]);
/// ```
pub fn read_object_redirects(text: &str) -> Vec<(String, String)> {
    text.lines()
        .filter_map(|l| {
            let l = l.trim_start();
            let q = l.chars().next().filter(|c| matches!(c, '\'' | '"'))?;
            let end = l[1..].find(q)? + 1;
            let src = &l[1..end];
            let rest = l[end + 1..].trim_start().strip_prefix(':')?;
            let dst = quoted(rest)?;
            (src.starts_with('/')
                && dst.starts_with('/')
                && !src.contains("${")
                && !dst.contains("${"))
            .then(|| (src.to_string(), dst.to_string()))
        })
        .collect()
}

/// The redirects a Next.js configuration's `redirects()` returns
/// (`{ source: '/tool-router/overview', destination: '/tool-router', permanent: true }`), each
/// `source` with the `destination` that follows it within three lines; patterns (`:slug*`) as
/// Mintlify's are read.
///
/// ```
/// use hygiene::scan::sites::read_js_redirects;
/// let c = "return [\n  {\n    source: '/a/overview',\n    destination: '/a',\n    permanent: true,\n  },\n];";
/// assert_eq!(read_js_redirects(c), vec![("/a/overview".to_string(), "/a".to_string())]);
/// assert!(read_js_redirects("source: process.env.X").is_empty());
/// assert!(read_js_redirects("resource: '/a',\ndestination: '/b',").is_empty());
/// ```
pub fn read_js_redirects(text: &str) -> Vec<(String, String)> {
    let value = |l: &str, key: &str| -> Option<String> {
        let at = l.find(key).filter(|&at| whole_key(l, at))?;
        let v = quoted(&l[at + key.len()..])?;
        (v.starts_with('/') && !v.contains("${")).then(|| v.to_string())
    };
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    for (i, l) in lines.iter().enumerate() {
        let Some(src) = value(l, "source:") else {
            continue;
        };
        if let Some(dst) = lines[i..(i + 4).min(lines.len())]
            .iter()
            .find_map(|l| value(l, "destination:"))
        {
            out.push((src, dst));
        }
    }
    out
}

/// The route segments and route groups of the tree's page folders (Next.js `app/[slug]/`,
/// `[...slug]`, `[[...slug]]`, `(home)`; Astro `pages/[...slug].astro`): per parent folder,
/// each such child's name, a file's without its extension.
fn special_segments(tree: &Tree) -> std::collections::HashMap<String, Vec<String>> {
    let mut out: std::collections::HashMap<String, Vec<String>> = Default::default();
    for p in tree.dirs.iter().chain(tree.files.iter()) {
        let (parent, name) = p.rsplit_once('/').unwrap_or(("", p.as_str()));
        let name = if tree.files.contains(p.as_str()) {
            name.rsplit_once('.').map_or(name, |(stem, _)| stem)
        } else {
            name
        };
        let special = (name.starts_with('[') && name.ends_with(']'))
            || (super::refs::route_group(name) && tree.dirs.contains(p.as_str()));
        if special {
            let v = out.entry(parent.to_string()).or_default();
            if !v.iter().any(|n| n == name) {
                v.push(name.to_string());
            }
        }
    }
    for v in out.values_mut() {
        v.sort();
    }
    out
}

/// Whether the page folder `dir` serves the route `segs` through a dynamic segment: a
/// catch-all (`[...slug]`, `[[...slug]]`) serves everything below it, `[slug]` one segment of
/// any name, and a route group (`(home)`) is no segment. Which names a dynamic page accepts is
/// data (an API's list of toolkits), not in the tree: such a route is not checked.
fn dynamic_serves(
    sites: &Sites,
    tree: &Tree,
    (dir, consumed): (&str, &str),
    segs: &[&str],
    backed: &dyn Fn(&str) -> bool,
    depth: usize,
) -> bool {
    if depth > 16 {
        return false;
    }
    let children = sites.special.get(dir).map_or(&[][..], Vec::as_slice);
    for c in children {
        let child = join(dir, c);
        if c.starts_with('(') {
            if dynamic_serves(sites, tree, (&child, consumed), segs, backed, depth + 1) {
                return true;
            }
            continue;
        }
        // A catch-all that renders a content folder of the same route (fumadocs'
        // `app/docs/[[...slug]]` over `content/docs/`) serves that folder's pages only: those
        // are checked as files. A one-segment dynamic page beside it (`app/[framework]/...`
        // beside `app/[[...slug]]`) is another page, which Next.js prefers to a catch-all.
        if c.starts_with("[...") || c.starts_with("[[...") {
            if backed(consumed) {
                continue;
            }
            return true;
        }
        if let Some((first, rest)) = segs.split_first() {
            let deeper = join(consumed, first);
            if rest.is_empty()
                || dynamic_serves(sites, tree, (&child, &deeper), rest, backed, depth + 1)
            {
                return true;
            }
        }
    }
    match segs.split_first() {
        Some((first, rest)) if !rest.is_empty() => {
            let next = join(dir, first);
            tree.dirs.contains(&next)
                && dynamic_serves(
                    sites,
                    tree,
                    (&next, &join(consumed, first)),
                    rest,
                    backed,
                    depth + 1,
                )
        }
        // The last segment under a dynamic one: a page of its own (`app/[team]/setup/page.tsx`,
        // `[team]/setup.astro`), which no content folder lists.
        Some((last, _)) if dir.split('/').any(|s| s.starts_with('[')) => {
            let at = join(dir, last);
            CODE_PAGE_EXTENSIONS.iter().any(|e| {
                tree.has_file(&format!("{at}/page.{e}")) || tree.has_file(&format!("{at}.{e}"))
            })
        }
        _ => false,
    }
}

/// The content folder an MkDocs configuration sets (`docs_dir: docs/md_v2`), relative to the
/// configuration's folder; `None` for none, the default, or a value that leaves the folder.
///
/// ```
/// use hygiene::scan::sites::read_docs_dir;
/// assert_eq!(read_docs_dir("site_name: X\ndocs_dir: docs/md_v2\n").as_deref(), Some("docs/md_v2"));
/// assert_eq!(read_docs_dir("docs_dir: './pages/'").as_deref(), Some("pages"));
/// assert_eq!(read_docs_dir("docs_dir: docs"), None);
/// assert_eq!(read_docs_dir("docs_dir: ../shared"), None);
/// assert_eq!(read_docs_dir("plugins:\n  - x:\n      docs_dir: other\n"), None);
/// ```
pub fn read_docs_dir(text: &str) -> Option<String> {
    let value = text
        .lines()
        .find_map(|l| l.strip_prefix("docs_dir:"))?
        .split(" #")
        .next()?
        .trim()
        .trim_matches(['\'', '"']);
    let value = value.trim_start_matches("./").trim_matches('/');
    (!value.is_empty()
        && value != "docs"
        && value != "."
        && !value.split('/').any(|s| s == "..")
        && !value.contains(['$', '{', ' ']))
    .then(|| value.to_string())
}

/// The folders a Docusaurus configuration serves static files from
/// (`staticDirectories: ['assets', 'static']`), as written; empty when it names none or the
/// value is not a plain list of quoted names.
///
/// ```
/// use hygiene::scan::sites::read_static_dirs;
/// assert_eq!(read_static_dirs("  staticDirectories: ['assets', \"public\"],"), vec!["assets", "public"]);
/// assert!(read_static_dirs("staticDirectories: dirs,").is_empty());
/// assert!(read_static_dirs("title: 'x'").is_empty());
/// ```
pub fn read_static_dirs(text: &str) -> Vec<String> {
    let Some(rest) = text
        .split_once("staticDirectories:")
        .map(|(_, r)| r.trim_start())
    else {
        return Vec::new();
    };
    let Some(list) = rest
        .strip_prefix('[')
        .and_then(|r| r.split_once(']'))
        .map(|(l, _)| l)
    else {
        return Vec::new();
    };
    let names: Vec<Option<String>> = list
        .split(',')
        .map(str::trim)
        .filter(|v| !v.is_empty())
        .map(|v| {
            let q = v.chars().next().filter(|c| matches!(c, '\'' | '"' | '`'))?;
            let name = v.strip_prefix(q)?.strip_suffix(q)?.trim_matches('/');
            (!name.is_empty() && !name.contains("..") && !name.contains("${"))
                .then(|| name.trim_start_matches("./").to_string())
        })
        .collect();
    names
        .into_iter()
        .collect::<Option<Vec<_>>>()
        .unwrap_or_default()
}

/// The `redirects` (`[{"source": "/a/:slug*", "destination": "/b/:slug*"}]`) of a site's JSON
/// configuration (Mintlify's `docs.json`, `mint.json`): a route that a redirect serves exists.
/// Mintlify also takes a path written without its leading `/` (`"guided-tour/ai-agents"`): it
/// is the same route.
///
/// ```
/// use hygiene::scan::sites::read_redirects;
/// let c = br#"{"redirects": [{"source": "old/a", "destination": "guided-tour/a"},
///   {"source": "/b", "destination": "https://example.com/b"}]}"#;
/// assert_eq!(read_redirects(c), [("/old/a".to_string(), "/guided-tour/a".to_string()), ("/b".into(), "https://example.com/b".into())]);
/// ```
pub fn read_redirects(config: &[u8]) -> Vec<(String, String)> {
    /// Only `redirects` is read; the rest (a navigation of every version, megabytes on a
    /// versioned site) is skipped without being built.
    #[derive(serde::Deserialize)]
    struct Config {
        #[serde(default)]
        redirects: Vec<serde_json::Value>,
    }
    let config: Option<Config> = serde_json::from_slice(config).ok();
    config
        .map(|c| {
            c.redirects
                .iter()
                .filter_map(|r| {
                    let rooted = |p: &str| {
                        if p.starts_with('/') || has_scheme(p) {
                            p.to_string()
                        } else {
                            format!("/{p}")
                        }
                    };
                    Some((
                        rooted(r.get("source")?.as_str()?),
                        rooted(r.get("destination")?.as_str()?),
                    ))
                })
                .collect()
        })
        .unwrap_or_default()
}

/// The pages a Mintlify configuration (`config`, at the site root `dir`) generates from the
/// OpenAPI specifications its navigation names. A specification that is no JSON file of the
/// tree is not read (a YAML one, a URL): every route under its directory is served.
fn read_generated(tree: &Tree, dir: &str, config_rel: &str, config: &[u8]) -> openapi::Generated {
    let mut g = openapi::Generated::default();
    for s in openapi::sources(config) {
        if s.spec.contains("://") {
            g.opaque.insert(s.directory, config_rel.to_string());
            continue;
        }
        let spec = join(dir, &s.spec);
        if !tree.files.contains(&spec) {
            continue;
        }
        let routes = spec
            .ends_with(".json")
            .then(|| {
                read_config(
                    &tree.root.join(&spec),
                    super::THRESHOLDS.site_config_cap_bytes,
                )
            })
            .flatten()
            .and_then(|b| openapi::routes(&b, &s.directory));
        match routes {
            Some(routes) => g
                .routes
                .extend(routes.into_iter().map(|r| (r, spec.clone()))),
            None => {
                g.opaque.insert(s.directory, spec);
            }
        }
    }
    g
}

/// The root-relative folder that `at` (a root-relative path the walk does not descend) links to,
/// when it is a symbolic link whose relative target is a folder of the tree. An absolute
/// target, or one that leaves the root, is nothing.
fn linked_folder(tree: &Tree, at: &str) -> Option<String> {
    let full = tree.root.join(at);
    let meta = std::fs::symlink_metadata(&full).ok()?;
    if !meta.file_type().is_symlink() {
        return None;
    }
    let target = std::fs::read_link(&full).ok()?;
    let target = target.to_str()?;
    if target.starts_with('/') {
        return None;
    }
    let resolved = normalize(super::refs::folder(at), target)?;
    tree.dirs.contains(&resolved).then_some(resolved)
}

/// Whether a route segment names a locale (`fr`, `pt-br`, `zh-Hans`, `pt_BR`).
///
/// ```
/// use hygiene::scan::sites::is_locale;
/// assert!(is_locale("fr") && is_locale("pt-br") && is_locale("zh-Hans") && is_locale("pt_BR"));
/// assert!(!is_locale("guides") && !is_locale("api") && !is_locale("v1") && !is_locale("en-us-x"));
/// ```
pub fn is_locale(seg: &str) -> bool {
    let mut parts = seg.splitn(3, ['-', '_']);
    let lang = parts.next().unwrap_or("");
    let region = parts.next();
    parts.next().is_none()
        && lang.len() == 2
        && lang.bytes().all(|b| b.is_ascii_lowercase())
        && !matches!(
            lang,
            "js" | "ts" | "go" | "py" | "rs" | "ai" | "ui" | "db" | "io" | "os"
        )
        && region.is_none_or(|r| {
            (2..=4).contains(&r.len()) && r.bytes().all(|b| b.is_ascii_alphabetic())
        })
}

/// A rooted route without its site's base path: a site served under one
/// (`base: 'openai-agents-js'`) is linked with it (`/openai-agents-js/guides/tools`).
fn without_base<'a>(tree: &'a Tree, root: &str, written: &'a str) -> &'a str {
    match tree
        .sites()
        .bases
        .get(root)
        .and_then(|base| written.strip_prefix(base.as_str()))
    {
        Some("") => "/",
        Some(rest) if rest.starts_with('/') => rest,
        _ => written,
    }
}

/// Whether a rooted route of a site page lands in a folder of the site's content that git
/// ignores (pages a plugin generates at build time, such as an API reference from the code):
/// the page exists on the built site, never in the tree.
pub fn route_ignored(tree: &Tree, doc: &str, written: &str) -> bool {
    let Some((root, rule)) = tree.sites().of(doc) else {
        return false;
    };
    let Some(rest) = without_base(tree, root, written).strip_prefix('/') else {
        return false;
    };
    let rest = rest.trim_end_matches('/');
    // A page whose file git ignores is generated too (notebooks copied in at build time).
    let ignored = |p: String| {
        tree.ignored(&p)
            || (!p.rsplit('/').next().unwrap_or("").contains('.')
                && PAGE_EXTENSIONS
                    .iter()
                    .any(|e| tree.ignored(&format!("{p}.{e}"))))
    };
    !rest.is_empty()
        && content_dirs(tree, root, rule).any(|dir| normalize(&dir, rest).is_some_and(ignored))
}

/// Configuration files beside a site's marker that may set its base path (VitePress keeps its
/// configuration in `.vitepress/`).
const CONFIG_FILES: &[&str] = &[
    ".vitepress/config.js",
    ".vitepress/config.ts",
    ".vitepress/config.mjs",
    ".vitepress/config.mts",
];

/// The pages folder a VitePress configuration sets (`srcDir: 'src'`), relative to its root;
/// `None` for none, `.`, or a value leaving the root.
///
/// ```
/// use hygiene::scan::sites::read_src_dir;
/// assert_eq!(read_src_dir("export default defineConfig({\n  srcDir: 'src',\n})").as_deref(), Some("src"));
/// assert_eq!(read_src_dir("srcDir: './docs/',").as_deref(), Some("docs"));
/// assert_eq!(read_src_dir("srcDir: '.'"), None);
/// assert_eq!(read_src_dir("srcDir: '../shared'"), None);
/// assert_eq!(read_src_dir("srcDir: process.env.SRC"), None);
/// ```
pub fn read_src_dir(text: &str) -> Option<String> {
    let at = text.find("srcDir:")?;
    let v = quoted(&text[at + "srcDir:".len()..])?;
    let v = v.trim_start_matches("./").trim_end_matches('/');
    (!v.is_empty()
        && v != "."
        && !v.split('/').any(|s| s == ".." || s.is_empty())
        && !v.starts_with('/'))
    .then(|| v.to_string())
}

/// The VitePress settings a configuration file holds: its `srcDir` (pages and their `public/`
/// under it; the first file to set one wins) and its `rewrites` (a page `en/guide/x.md` served
/// at `/guide/x`, kept as redirects).
fn vitepress_settings(
    text: &str,
    dir: &str,
    docs_dirs: &mut std::collections::HashMap<String, Vec<String>>,
    redirects: &mut std::collections::HashMap<String, Vec<(String, String)>>,
) {
    if !docs_dirs.contains_key(dir) {
        if let Some(src) = read_src_dir(text) {
            let public = format!("{src}/public");
            docs_dirs.insert(dir.to_string(), vec![src, public]);
        }
    }
    let r = read_rewrites(text);
    if !r.is_empty() {
        redirects.entry(dir.to_string()).or_default().extend(r);
    }
}

/// A VitePress configuration's `rewrites` (`'en/:rest*': ':rest*'`: the page `en/guide/x.md`
/// served at `/guide/x`), as redirects from the route to the page's own path.
///
/// ```
/// use hygiene::scan::sites::read_rewrites;
/// let t = "export default {\n  rewrites: {\n    // English at the root\n    'en/:rest*': ':rest*',\n    'packages/a/README.md': 'a/index.md',\n  },\n  lastUpdated: true,\n}";
/// assert_eq!(read_rewrites(t), [("/:rest*".to_string(), "/en/:rest*".to_string()), ("/a/index".into(), "/packages/a/README".into())]);
/// assert!(read_rewrites("rewrites(id) { return id }").is_empty());
/// ```
pub fn read_rewrites(text: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let Some(at) = text.find("rewrites: {") else {
        return out;
    };
    let page = |v: &str| {
        let v = v.trim_matches('/');
        let v = v.strip_suffix(".md").unwrap_or(v);
        format!("/{v}")
    };
    for l in text[at + "rewrites: {".len()..].lines() {
        let t = l.trim();
        if t.starts_with('}') {
            break;
        }
        // `'en/:rest*': ':rest*',`: quoted keys (a key holds colons of its own).
        let Some(q) = t.chars().next().filter(|c| ['\'', '"'].contains(c)) else {
            continue;
        };
        let Some(end) = t[1..].find(q).map(|i| i + 1) else {
            continue;
        };
        let from = &t[1..end];
        let Some(to) = t[end + 1..].trim_start().strip_prefix(':') else {
            continue;
        };
        let to = to.trim().trim_end_matches(',').trim_matches(['\'', '"']);
        if from.is_empty() || to.is_empty() {
            continue;
        }
        out.push((page(to), page(from)));
    }
    out
}

/// The base path a JavaScript site configuration sets (`base: 'docs'`, `baseUrl: '/docs/'`),
/// as `/docs`; `None` for none, for `/`, or for a value that is not a plain quoted path.
///
/// ```
/// use hygiene::scan::sites::read_base;
/// assert_eq!(read_base("export default { base: 'openai-agents-js', x: 1 }").as_deref(), Some("/openai-agents-js"));
/// assert_eq!(read_base("module.exports = {\n  baseUrl: \"/docs/\",\n}").as_deref(), Some("/docs"));
/// assert_eq!(read_base("export default { baseUrl: '/' }"), None);
/// assert_eq!(read_base("export default { base: process.env.BASE }"), None);
/// assert_eq!(read_base("editLink: { baseUrl: 'https://github.com/o/r/edit/main/' }"), None);
/// // A sidebar group's `base:` prefixes its own links.
/// let vp = "export default defineConfig({\n  themeConfig: { sidebar: [{ text: 'API', base: '/reference', items: [] }] },\n  base: '/docs/',\n})";
/// assert_eq!(read_base(vp).as_deref(), Some("/docs"));
/// assert_eq!(read_base("const s = [{\n  text: 'Options',\n  base: '/reference',\n  items: opts(),\n}]"), None);
/// ```
pub fn read_base(text: &str) -> Option<String> {
    // MkDocs serves the site under its `site_url`'s path
    // (`site_url: https://langchain-ai.github.io/langgraphjs/` is `/langgraphjs`).
    if let Some(url) = text
        .lines()
        .find_map(|l| l.strip_prefix("site_url:"))
        .map(|v| v.trim().trim_matches(['\'', '"']))
    {
        let path = url
            .split_once("://")
            .map_or("", |(_, r)| r.split_once('/').map_or("", |(_, p)| p));
        let trimmed = path.trim_matches('/');
        return (!trimmed.is_empty() && !trimmed.contains(['{', '$', ' ']))
            .then(|| format!("/{trimmed}"));
    }
    for key in ["base:", "baseUrl:"] {
        let mut from = 0;
        while let Some(i) = text[from..].find(key) {
            let at = from + i;
            from = at + key.len();
            let Some(value) =
                quoted(&text[from..]).filter(|_| whole_key(text, at) && !in_sidebar_item(text, at))
            else {
                continue;
            };
            if value.contains("://") || value.contains("${") || value.contains(char::is_whitespace)
            {
                continue;
            }
            let trimmed = value.trim_matches('/');
            return (!trimmed.is_empty()).then(|| format!("/{trimmed}"));
        }
    }
    None
}

/// Whether the key at `at` belongs to a VitePress sidebar group (`{ text: 'Options', base:
/// '/reference', items: [...] }`): the object it sits in has `items:`, `link:` or `text:` among
/// its own keys. Such a `base:` prefixes the group's links, not the site's routes.
fn in_sidebar_item(text: &str, at: usize) -> bool {
    let b = text.as_bytes();
    let mut depth = 0usize;
    let mut open = None;
    for i in (0..at).rev() {
        match b[i] {
            b'}' | b']' => depth += 1,
            b'{' | b'[' if depth > 0 => depth -= 1,
            b'{' => {
                open = Some(i);
                break;
            }
            b'[' => return false,
            _ => {}
        }
    }
    let Some(open) = open else {
        return false;
    };
    let mut own = String::new();
    let mut depth = 0usize;
    for &c in &b[open + 1..] {
        match c {
            b'{' | b'[' | b'(' => depth += 1,
            b'}' | b']' | b')' if depth == 0 => break,
            b'}' | b']' | b')' => depth -= 1,
            _ if depth == 0 => own.push(c as char),
            _ => {}
        }
    }
    ["items:", "link:", "text:"].iter().any(|k| own.contains(k))
}

/// The destination a redirect `source` pattern sends `route` to: `:name` matches one segment,
/// `:name*` the rest; both are substituted into `destination`.
///
/// ```
/// use hygiene::scan::sites::redirect;
/// assert_eq!(redirect("/spec/latest/:slug*", "/spec/2026/:slug*", "/spec/latest/basic/auth").as_deref(), Some("/spec/2026/basic/auth"));
/// assert_eq!(redirect("/docs/latest", "/docs/2026/intro", "/docs/latest").as_deref(), Some("/docs/2026/intro"));
/// assert_eq!(redirect("/a/:x", "/b/:x", "/a/b/c"), None);
/// assert_eq!(redirect("/adapters/**", "/guide", "/adapters").as_deref(), Some("/guide"));
/// assert_eq!(redirect("/adapters/**", "/guide", "/adapters/node").as_deref(), Some("/guide"));
/// assert_eq!(redirect("/old/**", "/new/**", "/old/a/b").as_deref(), Some("/new/a/b"));
/// assert_eq!(redirect("/adapters/**", "/guide", "/adapter"), None);
/// ```
pub fn redirect(source: &str, destination: &str, route: &str) -> Option<String> {
    let src: Vec<&str> = source.trim_matches('/').split('/').collect();
    let got: Vec<&str> = route.trim_matches('/').split('/').collect();
    let mut vars: Vec<(String, String)> = Vec::new();
    for (i, seg) in src.iter().enumerate() {
        // A route rule's `/**` matches the rest, none included (`/adapters/**` takes `/adapters`).
        if *seg == "**" && i + 1 == src.len() {
            let rest = got.get(i..).map(|r| r.join("/")).unwrap_or_default();
            return Some(destination.replace("**", &rest));
        }
        if let Some(name) = seg.strip_prefix(':') {
            if let Some(name) = name.strip_suffix('*') {
                vars.push((format!(":{name}*"), got.get(i..)?.join("/")));
                let mut out = destination.to_string();
                for (k, v) in vars.iter().rev() {
                    out = out.replace(k.as_str(), v);
                }
                return Some(out);
            }
            vars.push((format!(":{name}"), got.get(i)?.to_string()));
        } else if got.get(i) != Some(seg) {
            return None;
        }
    }
    if got.len() != src.len() {
        return None;
    }
    let mut out = destination.to_string();
    // Longer names first, so `:slug` does not eat part of `:slugs`.
    vars.sort_by_key(|v| std::cmp::Reverse(v.0.len()));
    for (k, v) in &vars {
        out = out.replace(k.as_str(), v);
    }
    Some(out)
}

/// The site root that path `p` marks by marker `m`: a file or folder name, a path under the
/// root (`.config/docs.yaml`), or a file name with one `*` (`mkdocs-*.yml`).
///
/// ```
/// use hygiene::scan::sites::marker_root;
/// assert_eq!(marker_root("site/mkdocs.yml", "mkdocs.yml").as_deref(), Some("site"));
/// assert_eq!(marker_root("mkdocs-online.yml", "mkdocs-*.yml").as_deref(), Some(""));
/// assert_eq!(marker_root("a/mkdocs.insiders.yml", "mkdocs.*.yml").as_deref(), Some("a"));
/// assert_eq!(marker_root("a/b.config/docs.yaml", ".config/docs.yaml"), None);
/// assert_eq!(marker_root("mkdocs-.yml", "mkdocs-*.yml"), None);
/// assert_eq!(marker_root("x/mkdocs-a/b.yml", "mkdocs-*.yml"), None);
/// ```
pub fn marker_root(p: &str, m: &str) -> Option<String> {
    if let Some((pre, post)) = m.split_once('*') {
        let (dir, name) = p.rsplit_once('/').unwrap_or(("", p));
        let fits =
            name.len() > pre.len() + post.len() && name.starts_with(pre) && name.ends_with(post);
        return fits.then(|| dir.to_string());
    }
    if p == m {
        return Some(String::new());
    }
    p.strip_suffix(m)
        .and_then(|d| d.strip_suffix('/'))
        .map(str::to_string)
}

impl Sites {
    /// Finds every site root in the walked tree.
    pub fn new(tree: &Tree) -> Sites {
        let mut roots: Vec<(String, &'static SiteRule)> = Vec::new();
        // Per root, the configuration files a patterned marker found (names under the root).
        let mut patterned: std::collections::HashMap<String, Vec<String>> = Default::default();
        // Every file and folder of the tree is asked: only one whose name is a literal
        // marker's last segment, or fits a patterned marker, can be a marker at all.
        let names: std::collections::HashSet<&str> = SITE_RULES
            .iter()
            .flat_map(|r| r.markers.iter())
            .filter(|m| !m.contains('*'))
            .map(|m| m.rsplit('/').next().unwrap_or(m))
            .collect();
        let patterns: Vec<&str> = SITE_RULES
            .iter()
            .flat_map(|r| r.markers.iter().copied())
            .filter(|m| m.contains('*'))
            .collect();
        for p in tree.files.iter().chain(tree.dirs.iter()) {
            let name = p.rsplit('/').next().unwrap_or(p);
            if !names.contains(name) && !patterns.iter().any(|m| marker_root(p, m).is_some()) {
                continue;
            }
            let found = SITE_RULES.iter().find_map(|r| {
                r.markers
                    .iter()
                    .find_map(|m| marker_root(p, m).map(|d| (d, r, m.contains('*'))))
            });
            if let Some((dir, rule, pattern)) = found {
                if pattern {
                    let name = p[if dir.is_empty() { 0 } else { dir.len() + 1 }..].to_string();
                    patterned.entry(dir.clone()).or_default().push(name);
                }
                if !roots.iter().any(|(d, _)| *d == dir) {
                    roots.push((dir, rule));
                }
            }
        }
        roots.sort_by(|a, b| b.0.len().cmp(&a.0.len()).then(a.0.cmp(&b.0)));
        for names in patterned.values_mut() {
            names.sort();
        }
        let mut redirects: std::collections::HashMap<String, Vec<(String, String)>> =
            std::collections::HashMap::new();
        let mut links = Vec::new();
        let mut bases = std::collections::HashMap::new();
        let mut generated = std::collections::HashMap::new();
        let mut statics = std::collections::HashMap::new();
        let mut docs_dirs = std::collections::HashMap::new();
        let mut mounts = std::collections::HashMap::new();
        let mut slugs = std::collections::HashMap::new();
        let mut trailing_slash = std::collections::HashSet::new();
        for (dir, rule) in &roots {
            if rule.generator == "fern" {
                let cap = super::THRESHOLDS.site_config_cap_bytes;
                let text = config_text(&tree.root.join(join(dir, "docs.yml")), cap);
                let mut found: std::collections::HashSet<String> = text
                    .lines()
                    .filter_map(|l| l.trim_start().strip_prefix("slug:"))
                    .map(|v| {
                        v.trim()
                            .trim_matches(['\'', '"'])
                            .trim_matches('/')
                            .to_string()
                    })
                    .filter(|v| !v.is_empty())
                    .collect();
                // A page's whole route: its tab's and sections' slugs before its own.
                found.extend(fern::read_routes(&text));
                if !found.is_empty() {
                    slugs.insert(dir.clone(), found);
                }
            }
            if rule.markers.contains(&HUB_DOCS_MARKER) {
                let at = join(dir, HUB_REDIRECTS_FILE);
                if tree.files.contains(&at) {
                    let cap = super::THRESHOLDS.site_config_cap_bytes;
                    let r = read_hub_redirects(&config_text(&tree.root.join(&at), cap));
                    if !r.is_empty() {
                        redirects.entry(dir.clone()).or_default().extend(r);
                    }
                }
            }
            // Files beside the marker: JSON ones hold redirects, JavaScript ones a base path.
            let names: Vec<&str> = rule
                .markers
                .iter()
                .filter(|m| !m.contains('*'))
                .chain(CONFIG_FILES)
                .copied()
                .chain(patterned.get(dir).into_iter().flatten().map(String::as_str))
                .collect();
            for m in names {
                let rel = join(dir, m);
                if !m.contains('.') || !tree.files.contains(&rel) {
                    continue;
                }
                if m.ends_with(".json") {
                    let cap = super::THRESHOLDS.site_config_cap_bytes;
                    let Some(config) = read_config(&tree.root.join(&rel), cap) else {
                        continue;
                    };
                    let r = read_redirects(&config);
                    if !r.is_empty() {
                        redirects.insert(dir.clone(), r);
                    }
                    if rule.generator == "mintlify" {
                        let g = read_generated(tree, dir, &rel, &config);
                        if g != openapi::Generated::default() {
                            generated.insert(dir.clone(), g);
                        }
                    }
                } else {
                    // The configuration's own settings, read once.
                    let cap = super::THRESHOLDS.file_size_cap_bytes;
                    let text = config_text(&tree.root.join(&rel), cap);
                    if !bases.contains_key(dir) {
                        if let Some(b) = read_base(&text) {
                            bases.insert(dir.clone(), b);
                        }
                    }
                    match rule.generator {
                        "mkdocs" if !docs_dirs.contains_key(dir) => {
                            if let Some(d) = read_docs_dir(&text) {
                                docs_dirs.insert(dir.clone(), vec![d]);
                            }
                        }
                        "vitepress" => {
                            vitepress_settings(&text, dir, &mut docs_dirs, &mut redirects);
                        }
                        "undocs" => {
                            let r = read_yaml_redirects(&text);
                            if !r.is_empty() {
                                redirects.entry(dir.clone()).or_default().extend(r);
                            }
                        }
                        "starlight / astro" if m.starts_with("astro.config") => {
                            let mut r = read_object_redirects(&text);
                            // The generated map a configuration imports and spreads.
                            for f in ["redirects.js", "redirects.mjs", "redirects.ts"] {
                                let at = join(dir, f);
                                if text.contains(&format!("./{f}")) && tree.files.contains(&at) {
                                    let cap = super::THRESHOLDS.site_config_cap_bytes;
                                    r.extend(read_object_redirects(&config_text(
                                        &tree.root.join(&at),
                                        cap,
                                    )));
                                }
                            }
                            if !r.is_empty() {
                                redirects.entry(dir.clone()).or_default().extend(r);
                            }
                        }
                        "nextra / next" if m.starts_with("next.config") => {
                            let r = read_js_redirects(&text);
                            if !r.is_empty() {
                                redirects.entry(dir.clone()).or_default().extend(r);
                            }
                        }
                        "docusaurus" if !mounts.contains_key(dir) => {
                            if read_trailing_slash(&text) {
                                trailing_slash.insert(dir.clone());
                            }
                            // A plugin's folder may lie outside the site's (`path: '../../docs'`
                            // in `packages/website/`): its pages are the site's all the same.
                            let m: Vec<(String, String)> = read_mounts(&text)
                                .into_iter()
                                .filter_map(|(route, folder)| {
                                    Some((route, super::refs::normalize(dir, &folder)?))
                                })
                                .collect();
                            for (_, folder) in &m {
                                let inside =
                                    dir.is_empty() || folder.starts_with(&format!("{dir}/"));
                                if !inside && tree.has_dir(folder) {
                                    links.push((join(dir, folder), folder.clone()));
                                }
                            }
                            if !m.is_empty() {
                                mounts.insert(dir.clone(), m);
                            }
                            let dirs: Vec<String> = read_static_dirs(&text)
                                .iter()
                                .map(|f| join(dir, f))
                                .collect();
                            if !dirs.is_empty() {
                                statics.insert(dir.clone(), dirs);
                            }
                        }
                        _ => {}
                    }
                }
            }
            // VitePress settings in a file the configuration imports from `.vitepress/` (the
            // configuration itself was read above).
            if rule.generator == "vitepress" {
                let prefix = join(dir, ".vitepress/");
                let mut files: Vec<&String> = tree
                    .files
                    .iter()
                    .filter(|f| {
                        f.strip_prefix(prefix.as_str()).is_some_and(|rest| {
                            [".ts", ".mts", ".js", ".mjs"]
                                .iter()
                                .any(|e| rest.ends_with(e))
                                && !rest.starts_with("theme/")
                                && !CONFIG_FILES.contains(&format!(".vitepress/{rest}").as_str())
                        })
                    })
                    .collect();
                files.sort();
                for f in files {
                    let cap = super::THRESHOLDS.file_size_cap_bytes;
                    let text = config_text(&tree.root.join(f), cap);
                    vitepress_settings(&text, dir, &mut docs_dirs, &mut redirects);
                }
            }
            // A Netlify `_redirects` file, at the root or in a folder the site publishes.
            let published = rule.content_roots.iter().filter(|c| !c.is_empty());
            for c in std::iter::once(&"").chain(published) {
                let at = join(&join(dir, c), "_redirects");
                if tree.files.contains(&at) {
                    let cap = super::THRESHOLDS.site_config_cap_bytes;
                    let r = read_netlify_redirects(&config_text(&tree.root.join(&at), cap));
                    if !r.is_empty() {
                        redirects.entry(dir.clone()).or_default().extend(r);
                    }
                }
            }
            for c in rule.content_roots.iter().filter(|c| !c.is_empty()) {
                let at = join(dir, c);
                if let Some(target) = linked_folder(tree, &at) {
                    links.push((at, target));
                }
            }
        }
        let nextra = nextra_mounts(tree, &roots);
        let mut nav_routes = std::collections::HashMap::new();
        for f in tree
            .files
            .iter()
            .filter(|f| *f == "docs/config.json" || f.ends_with("/docs/config.json"))
        {
            let cap = super::THRESHOLDS.site_config_cap_bytes;
            if let Some(config) = read_config(&tree.root.join(f), cap) {
                let listed = read_nav_routes(&config);
                if !listed.is_empty() {
                    nav_routes.insert(super::refs::folder(f).to_string(), listed);
                }
            }
        }
        let mut angular = std::collections::HashMap::new();
        for f in tree
            .files
            .iter()
            .filter(|f| *f == "angular.json" || f.ends_with("/angular.json"))
        {
            let app = super::refs::folder(f);
            let under = format!("{app}/");
            let cap = super::THRESHOLDS.site_config_cap_bytes;
            let mut paths: Vec<String> = tree
                .files
                .iter()
                .filter(|r| angular::is_routes_file(r) && (app.is_empty() || r.starts_with(&under)))
                .flat_map(|r| angular::read_paths(&config_text(&tree.root.join(r), cap)))
                .collect();
            paths.sort();
            paths.dedup();
            if !paths.is_empty() {
                angular.insert(app.to_string(), paths);
            }
        }
        let mut menus = std::collections::HashMap::new();
        for f in tree
            .files
            .iter()
            .filter(|f| f.rsplit('/').next() == Some(menu_cue::MENU_FILE))
        {
            let dir = super::refs::folder(f);
            let cap = super::THRESHOLDS.site_config_cap_bytes;
            let pages: Vec<(String, String)> =
                menu_cue::read_pages(&config_text(&tree.root.join(f), cap))
                    .into_iter()
                    .filter_map(|(route, file)| {
                        let at = join(dir, &file);
                        PAGE_EXTENSIONS
                            .iter()
                            .map(|e| format!("{at}.{e}"))
                            .find(|p| tree.files.contains(p))
                            .map(|p| (route, p))
                    })
                    .collect();
            if !pages.is_empty() {
                menus.insert(dir.to_string(), pages);
            }
        }
        Sites {
            roots,
            redirects,
            links,
            bases,
            generated,
            statics,
            outputs: source_outputs(tree),
            docs_dirs,
            mounts,
            slugs,
            special: special_segments(tree),
            nextra,
            trailing_slash,
            nav_routes,
            angular,
            menus,
        }
    }

    /// The folders (relative to the site's `root`) its routes are read under: its rule's, or
    /// the one its configuration names instead.
    fn content_roots<'a>(&'a self, root: &str, rule: &'a SiteRule) -> Vec<&'a str> {
        match self.docs_dirs.get(root) {
            Some(own) => own.iter().map(String::as_str).collect(),
            None => rule.content_roots.to_vec(),
        }
    }

    /// The folders the generated documents of the `*.src.md` sources in `folder` are written to
    /// ([`source_outputs`]).
    pub fn source_outputs(&self, folder: &str) -> &[String] {
        self.outputs.get(folder).map_or(&[], Vec::as_slice)
    }

    /// The folder a site's content folder `at` (root-relative) reads from: its link's target
    /// when it is a symbolic link to a folder of the tree, else itself.
    pub fn content_dir<'a>(&'a self, at: &'a str) -> &'a str {
        self.links
            .iter()
            .find(|(l, _)| l == at)
            .map_or(at, |(_, t)| t.as_str())
    }

    /// Everything the sites resolve routes by, in a stable order: a per-document result that
    /// read routes holds while this is unchanged (the scan cache keys documents by it).
    pub fn fingerprint(&self) -> String {
        let mut redirects: Vec<_> = self.redirects.iter().collect();
        redirects.sort();
        let roots: Vec<(&str, &str)> = self
            .roots
            .iter()
            .map(|(d, r)| (d.as_str(), r.generator))
            .collect();
        let mut bases: Vec<_> = self.bases.iter().collect();
        bases.sort();
        let mut generated: Vec<_> = self.generated.iter().collect();
        generated.sort_by(|a, b| a.0.cmp(b.0));
        let mut statics: Vec<_> = self.statics.iter().collect();
        statics.sort();
        let mut outputs: Vec<_> = self.outputs.iter().collect();
        outputs.sort();
        let mut docs_dirs: Vec<_> = self.docs_dirs.iter().collect();
        docs_dirs.sort();
        let mut mounts: Vec<_> = self.mounts.iter().collect();
        mounts.sort();
        let slugs = sorted_sets(&self.slugs);
        let mut special: Vec<_> = self.special.iter().collect();
        special.sort();
        let mut nextra: Vec<_> = self.nextra.iter().collect();
        nextra.sort();
        let mut trailing: Vec<_> = self.trailing_slash.iter().collect();
        trailing.sort();
        let nav = sorted_sets(&self.nav_routes);
        let mut angular: Vec<_> = self.angular.iter().collect();
        angular.sort();
        let mut menus: Vec<_> = self.menus.iter().collect();
        menus.sort();
        format!(
            "{roots:?} {redirects:?} {:?} {bases:?} {generated:?} {statics:?} {outputs:?} \
             {docs_dirs:?} {mounts:?} {slugs:?} {special:?} {nextra:?} {trailing:?} {nav:?} \
             {angular:?} {menus:?}",
            self.links
        )
    }

    /// Whether root-relative `path` lies in a content folder of the site at `root` that sits
    /// elsewhere in the tree (a symbolic link's target, a Docusaurus plugin's `path:
    /// '../../docs'`).
    pub fn linked_into(&self, root: &str, path: &str) -> bool {
        self.links.iter().any(|(link, target)| {
            (root.is_empty() || link.starts_with(&format!("{root}/")))
                && path
                    .strip_prefix(target.as_str())
                    .is_some_and(|r| r.starts_with('/'))
        })
    }

    /// Whether root-relative `path` lies in a docs folder a TanStack `config.json` lays out
    /// (its site slugs headings its own way: `queryClient.query` is `#queryclient-query`).
    pub fn in_navigation_folder(&self, path: &str) -> bool {
        self.nav_routes.keys().any(|folder| {
            path.strip_prefix(folder.as_str())
                .is_some_and(|r| r.starts_with('/'))
        })
    }

    /// The site a document is a page of: the deepest site root at or above its folder whose
    /// content folders hold it (a `CONTRIBUTING.md` beside `mkdocs.yml` is no page of the site
    /// built from `docs/`, and its links are files).
    pub fn of(&self, doc: &str) -> Option<(&str, &'static SiteRule)> {
        // A page under a linked content folder's target belongs to the linking site.
        if let Some((link, _)) = self.links.iter().find(|(_, t)| {
            doc.strip_prefix(t.as_str())
                .is_some_and(|r| r.starts_with('/'))
        }) {
            return self
                .roots
                .iter()
                .find(|(root, _)| root.is_empty() || link.starts_with(&format!("{root}/")))
                .map(|(r, rule)| (r.as_str(), *rule));
        }
        self.roots
            .iter()
            .find(|(root, rule)| {
                let rest = if root.is_empty() {
                    Some(doc)
                } else {
                    doc.strip_prefix(root.as_str())
                        .and_then(|r| r.strip_prefix('/'))
                };
                rest.is_some_and(|rest| {
                    self.content_roots(root, rule).into_iter().any(|cr| {
                        cr.is_empty() || rest.strip_prefix(cr).is_some_and(|r| r.starts_with('/'))
                    })
                })
            })
            .map(|(r, rule)| (r.as_str(), *rule))
    }
}

/// How many dot-separated numbers `v` is made of (`1.4.2` is 3, `12` is 1), or 0 when it holds
/// anything else (`4.x`, `1..2`, an empty string).
///
/// ```
/// use hygiene::scan::sites::dotted_numbers;
/// assert_eq!((dotted_numbers("1.4.2"), dotted_numbers("12"), dotted_numbers("4.x"), dotted_numbers("")), (3, 1, 0, 0));
/// ```
pub fn dotted_numbers(v: &str) -> usize {
    let mut n = 0;
    for p in v.split('.') {
        if p.is_empty() || !p.bytes().all(|b| b.is_ascii_digit()) {
            return 0;
        }
        n += 1;
    }
    n
}

/// Whether a route segment names a version of the docs (`v2`, `4.x`, `3.2`, `latest`, `next`).
/// A bare number is not one: `/404` is a page.
///
/// ```
/// use hygiene::scan::sites::version_segment;
/// assert!(version_segment("v2") && version_segment("4.x") && version_segment("v1.2") && version_segment("latest"));
/// assert!(version_segment("3.2") && !version_segment("404") && !version_segment("2"));
/// assert!(!version_segment("hooks") && !version_segment("v") && !version_segment("vite") && !version_segment(""));
/// ```
pub fn version_segment(seg: &str) -> bool {
    let numbers = |v: &str| dotted_numbers(v) > 0;
    matches!(seg, "latest" | "next")
        || seg.strip_prefix('v').is_some_and(numbers)
        || seg.strip_suffix(".x").is_some_and(numbers)
        || (seg.contains('.') && numbers(seg))
}

/// The file a link `written` (the decoded path part) in the page `doc` serves when read as a
/// route of the page's site, if one exists. `None` outside a site or when nothing matches.
pub fn route_target(tree: &Tree, doc: &str, written: &str) -> Option<String> {
    route_in(tree, doc, written, true)
}

fn route_in(tree: &Tree, doc: &str, written: &str, follow: bool) -> Option<String> {
    let Some((root, rule)) = tree.sites().of(doc) else {
        return unmarked(tree, doc, written);
    };
    let written = without_base(tree, root, written);
    if let Some(found) = direct(tree, root, rule, doc, written) {
        return Some(found);
    }
    if let Some(found) = index_or_feed(tree, root, rule, doc, written) {
        return Some(found);
    }
    // A page Mintlify generates from an OpenAPI specification is served by the specification.
    if let Some(spec) = tree
        .sites()
        .generated
        .get(root)
        .and_then(|g| g.serves(written.strip_prefix('/')?))
    {
        return Some(spec.to_string());
    }
    // A page not translated into a locale is served in the default language
    // (`/pt-br/guides/pages` shows `guides/pages`: Starlight and Docusaurus fall back).
    if let Some(rest) = written
        .strip_prefix('/')
        .and_then(|r| r.split_once('/'))
        .filter(|(first, _)| is_locale(first))
        .map(|(_, rest)| rest)
    {
        if let Some(found) = direct(tree, root, rule, doc, &format!("/{rest}")) {
            return Some(found);
        }
    }
    // A versioned route serves the page of the one version the tree keeps
    // (`/reference/v2/hooks/useAgent` is `reference/hooks/useAgent.mdx`). Not on a site that
    // keeps a copy per version (Docusaurus' `versions.json`, `versioned_docs/`): there a
    // version it lacks (`/docs/2.0/cli`) serves nothing.
    let keeps_versions = || {
        ["versions.json", "versioned_docs"]
            .iter()
            .any(|v| tree.exists(&join(root, v)))
    };
    if let Some(rest) = written.strip_prefix('/').filter(|_| !keeps_versions()) {
        let segs: Vec<&str> = rest.split('/').collect();
        if let Some(at) = segs.iter().position(|s| version_segment(s)) {
            let route = format!(
                "/{}",
                join(&segs[..at].join("/"), &segs[at + 1..].join("/"))
            );
            if let Some(found) = direct(tree, root, rule, doc, &route) {
                return Some(found);
            }
        }
    }
    // One redirect hop, to the page it serves. A relative link is the route a browser
    // resolves it to from the page's folder (`..` stops at the site's root), without the
    // page's extension.
    let hop = || {
        let redirects = tree.sites().redirects.get(root).filter(|_| follow)?;
        let route = match written.strip_prefix('/') {
            Some(rest) => rest.to_string(),
            None => {
                let inside = super::refs::folder(doc)
                    .strip_prefix(root)?
                    .trim_start_matches('/');
                let route = clamped(inside, written.trim_end_matches('/'));
                match super::markdown::extension(&route) {
                    Some(e) if PAGE_EXTENSIONS.contains(&e) => {
                        route[..route.len() - e.len() - 1].to_string()
                    }
                    _ => route,
                }
            }
        };
        redirects.iter().find_map(|(src, dst)| {
            let to = redirect(src, dst, &format!("/{route}"))?;
            // A redirect to another site (a Netlify rule to `https://...`) serves the route.
            if super::markdown::has_scheme(&to) {
                return Some(root.to_string());
            }
            route_in(tree, doc, &to, false)
        })
    };
    // Else a route naming a folder of a Mintlify site is served (a redirect names its page).
    hop().or_else(|| {
        (rule.generator == "mintlify")
            .then(|| mintlify_folder(tree, root, written))
            .flatten()
    })
}

/// What serves a Mintlify route that names a folder rather than a page: the folder itself, when
/// the site holds it (Mintlify's own link checker, `mint broken-links` in `@mintlify/link-rot`,
/// counts every folder of the site as a page, its "alias nodes"), or the specification of the
/// OpenAPI pages generated inside it (Mintlify's client redirects a folder route to the first
/// page of the navigation inside it: "allow linking to a folder and redirecting to the first page
/// in it"). Read as paths, 19 such links of seven sites were judged both ways; the tools say
/// served. A folder link has no anchor to check, as for the link checker.
fn mintlify_folder(tree: &Tree, root: &str, written: &str) -> Option<String> {
    let route = written.strip_prefix('/')?.trim_end_matches('/');
    if route.is_empty() {
        return None;
    }
    let folder = join(root, route);
    if tree.dirs.contains(&folder) {
        return Some(folder);
    }
    tree.sites()
        .generated
        .get(root)
        .and_then(|g| g.serves_folder(route))
        .map(str::to_string)
}

/// Feeds a site generator writes for a section of pages (Hugo's `index.xml`, named `feed.xml`
/// by many themes; Docusaurus' and Astro's `rss.xml` and `atom.xml`).
pub const FEED_NAMES: &[&str] = &["index.xml", "feed.xml", "rss.xml", "atom.xml", "feed.json"];

/// What a rooted route ending in `/index` serves (its folder's index page: Hugo resolves
/// `/customization/index/` to `customization/_index.md`), or the section a feed route
/// ([`FEED_NAMES`]: `/blog/feed.xml`) is written for.
fn index_or_feed(
    tree: &Tree,
    root: &str,
    rule: &SiteRule,
    doc: &str,
    written: &str,
) -> Option<String> {
    let rest = written.strip_prefix('/')?.trim_end_matches('/');
    let (folder, name) = rest.rsplit_once('/').unwrap_or(("", rest));
    if name == "index" || FEED_NAMES.contains(&name) {
        if folder.is_empty() {
            return FEED_NAMES.contains(&name).then(|| root.to_string());
        }
        return direct(tree, root, rule, doc, &format!("/{folder}/"));
    }
    None
}

fn direct(tree: &Tree, root: &str, rule: &SiteRule, doc: &str, written: &str) -> Option<String> {
    let mut routes: Vec<String> = Vec::new();
    match written.strip_prefix('/') {
        Some(rest) => {
            let rest = rest.trim_end_matches('/');
            let sites = tree.sites();
            if let Some(post) = dated_post(tree, rest) {
                return Some(post);
            }
            // A Next.js route handler (`app/llms.txt/route.ts`) serves its folder's route.
            if rule.generator == "nextra / next" {
                for app in ["app", "src/app"] {
                    for handler in ["route.ts", "route.js"] {
                        let at = join(root, &format!("{app}/{rest}/{handler}"));
                        if tree.has_file(&at) {
                            return Some(at);
                        }
                    }
                }
            }
            // A Nextra content folder is served at its catch-all page's route.
            routes.extend(sites.nextra_file(root, rest));
            if let Some(lead) = sites.nextra_leading(root, doc) {
                routes.extend(sites.nextra_file(root, &format!("{lead}/{rest}")));
            }
            // A Fern page's route is its `slug:` in `docs.yml`.
            if sites.slugs.get(root).is_some_and(|s| s.contains(rest)) {
                return Some(join(root, "docs.yml"));
            }
            // A docs plugin mounted at its own route reads it under its folder.
            for (route, folder) in sites.mounts.get(root).into_iter().flatten() {
                let inner = if route.is_empty() {
                    Some(rest)
                } else if rest == route {
                    Some("")
                } else {
                    rest.strip_prefix(route.as_str())
                        .and_then(|r| r.strip_prefix('/'))
                };
                match inner {
                    // A plugin's own root is its overview page (`slug: /`), or the page an API
                    // plugin renders from its specification (`path: 'static/openapi.json'`).
                    Some("") if tree.has_dir(folder) || tree.has_file(folder) => {
                        return Some(folder.clone())
                    }
                    Some(inner) if !inner.is_empty() => routes.extend(normalize(folder, inner)),
                    _ => {}
                }
            }
            let bases: Vec<String> = content_dirs(tree, root, rule).collect();
            let segs: Vec<&str> = rest.split('/').filter(|s| !s.is_empty()).collect();
            if !segs.is_empty() {
                // A catch-all at the app's root that renders a content folder
                // ([`nextra_mounts`]) serves that folder's pages at `/`.
                let root_mount = sites
                    .nextra
                    .get(root)
                    .is_some_and(|m| m.iter().any(|(pattern, _)| pattern.is_empty()));
                for base in &bases {
                    // Backed by another content folder: the dynamic page's own folder
                    // (`app/blog/` over `app/blog/[[...slug]]`) backs nothing.
                    let backed = |consumed: &str| {
                        if consumed.is_empty() {
                            return root_mount;
                        }
                        bases
                            .iter()
                            .filter(|b| *b != base)
                            .any(|b| tree.has_dir(&join(b, consumed)))
                    };
                    if dynamic_serves(sites, tree, (base, ""), &segs, &backed, 0) {
                        return Some(base.clone());
                    }
                }
            }
            let in_bases = routes.len();
            for base in bases {
                routes.extend(if rest.is_empty() {
                    Some(base)
                } else {
                    normalize(&base, rest)
                });
            }
            let in_bases = in_bases..routes.len();
            // A Jekyll collection `server` lives in `_server/` and is served at `/server/<name>/`
            // (its default permalink, and the usual `collections:` one).
            if rule.generator == "jekyll" {
                if let Some((first, page)) = rest.split_once('/') {
                    let dir = join(root, &format!("_{first}"));
                    if tree.has_dir(&dir) {
                        routes.extend(normalize(&dir, page));
                    }
                }
            }
            // Docusaurus serves `versioned_docs/version-1.2/x.md` at `/docs/1.2/x` and the
            // current docs at `/docs/next/x`; a page named like its folder is the folder's
            // index (`integrations/log-streams/log-streams.mdx` at `/integrations/log-streams`).
            if rule.generator == "docusaurus" {
                if let Some(last) = rest.rsplit('/').next().filter(|l| !l.is_empty()) {
                    let own: Vec<String> = routes[in_bases]
                        .iter()
                        .map(|at| format!("{at}/{last}"))
                        .collect();
                    routes.extend(own);
                }
                if let Some((v, page)) = rest.strip_prefix("docs/").and_then(|r| r.split_once('/'))
                {
                    let vdir = join(root, &format!("versioned_docs/version-{v}"));
                    if v == "next" {
                        routes.extend(normalize(&join(root, "docs"), page));
                    } else if tree.has_dir(&vdir) {
                        routes.extend(normalize(&vdir, page));
                    }
                }
            }
        }
        None => {
            let rel = written.trim_end_matches('/');
            routes.extend(normalize(super::refs::folder(doc), rel));
            // Docusaurus' Markdown loader resolves a file link that starts with neither `./`
            // nor `../` (`scheduling/cron-jobs.mdx`) from the page's folder, then from each
            // docs content root, then from the site's folder.
            if rule.generator == "docusaurus"
                && !rel.starts_with('.')
                && super::markdown::extension(rel).is_some_and(|e| PAGE_EXTENSIONS.contains(&e))
            {
                routes.extend(content_dirs(tree, root, rule).filter_map(|b| normalize(&b, rel)));
                routes.extend(normalize(root, rel));
            }
            // A browser resolves `../workshop` against the page's URL, and `..` stops at the
            // site's root: from `/introduction` it is `/workshop`.
            let inside = super::refs::folder(doc)
                .strip_prefix(root)
                .map(|f| f.trim_start_matches('/'));
            if let Some(inside) = inside.filter(|_| rel.starts_with("..")) {
                routes.push(join(root, &clamped(inside, rel)));
            }
            // A link written as a folder (`../building-agents/`) is a URL: a page is served as
            // a folder of its own (`learning-hub/intro.md` at `/learning-hub/intro/`), so the
            // browser resolves it from there, against the site's routes. On a site that serves
            // every page so (`trailingSlash: true`), `../backup` is such a URL too.
            // MkDocs serves every page as a folder too (`use_directory_urls`, on by default)
            // and rewrites only links to `.md` files: any other relative link is a URL.
            let mkdocs_url = rule.generator == "mkdocs"
                && !super::markdown::extension(rel).is_some_and(|e| PAGE_EXTENSIONS.contains(&e));
            let page_is_folder =
                written.ends_with('/') || tree.sites().trailing_slash.contains(root) || mkdocs_url;
            if page_is_folder && !written.starts_with('/') {
                let bases: Vec<String> = content_dirs(tree, root, rule).collect();
                let page = bases.iter().find_map(|b| {
                    if b.is_empty() {
                        Some(doc)
                    } else {
                        doc.strip_prefix(b.as_str())?.strip_prefix('/')
                    }
                });
                if let Some(page) = page {
                    let route = clamped(served_at(page, &["index", "README", "_index"]), rel);
                    routes.extend(bases.iter().map(|b| join(b, &route)));
                }
            }
            // A Nextra page links from its route, as a browser does: `./docs/harness` in the
            // index page served at `/en/docs` is `/en/docs/harness`.
            let sites = tree.sites();
            if let Some(mut url) = sites.nextra_route(root, doc) {
                url.pop();
                let to = clamped(&url.join("/"), rel);
                routes.extend(sites.nextra_file(root, &to));
            }
        }
    }
    routes.iter().find_map(|at| page_of(tree, at)).or_else(|| {
        // Astro's content collections serve an entry at its slug, lowercased
        // (`ui-and-theme/Forms.mdx` at `/ui-and-theme/forms`).
        (rule.generator == "starlight / astro").then_some(())?;
        routes.iter().find_map(|at| {
            page_names(at)
                .iter()
                .filter(|p| p.to_lowercase() == **p)
                .find_map(|p| tree.by_lowercase(p).map(str::to_string))
        })
    })
}

/// The post a dated blog route names (`blog/2024/07/17/electric-next`, Jekyll's and many
/// blogs' permalink): a page named `2024-07-17-electric-next.md` anywhere in the tree (VitePress
/// rewrites, Jekyll `_posts/`).
///
/// ```
/// use hygiene::scan::refs::Tree;
/// use hygiene::scan::sites::dated_post;
/// let mut t = Tree::default();
/// t.files.insert("website/blog/posts/2024-07-17-electric-next.md".into());
/// t.basenames.insert("2024-07-17-electric-next.md".into());
/// assert_eq!(dated_post(&t, "blog/2024/07/17/electric-next").as_deref(), Some("website/blog/posts/2024-07-17-electric-next.md"));
/// assert_eq!(dated_post(&t, "blog/2024/07/18/electric-next"), None);
/// assert_eq!(dated_post(&t, "blog/electric-next"), None);
/// ```
pub fn dated_post(tree: &Tree, route: &str) -> Option<String> {
    let segs: Vec<&str> = route.rsplitn(5, '/').collect();
    let [slug, d, m, y, ..] = segs.as_slice() else {
        return None;
    };
    let digits = |s: &str, n: usize| s.len() == n && s.bytes().all(|b| b.is_ascii_digit());
    if !(digits(y, 4) && digits(m, 2) && digits(d, 2)) || slug.is_empty() {
        return None;
    }
    let slug = slug.strip_suffix(".html").unwrap_or(slug);
    let file = PAGE_EXTENSIONS.iter().find_map(|ext| {
        let name = format!("{y}-{m}-{d}-{slug}.{ext}");
        if !tree.basenames.contains(&name) {
            return None;
        }
        tree.files
            .iter()
            .find(|f| f.rsplit('/').next() == Some(name.as_str()))
            .cloned()
    });
    // A post with its images in a folder of its own (Docusaurus' `2023-10-16-slug/index.md`).
    file.or_else(|| {
        let name = format!("{y}-{m}-{d}-{slug}");
        let mut dirs: Vec<&String> = tree
            .dirs
            .iter()
            .filter(|d| d.rsplit('/').next() == Some(name.as_str()))
            .collect();
        dirs.sort();
        dirs.into_iter()
            .find_map(|d| page_of(tree, &format!("{d}/index")))
    })
}

/// Where the generated documents of each folder of `*.src.md` sources are written: the
/// folders (not the sources' own) holding, for every source `name.src.md` there, a file
/// `name.md` (letter case aside: `contributing.src.md` is woven into `CONTRIBUTING.md`).
/// Go's weave and similar tools write `internal/docs/protocol.src.md` to `docs/protocol.md`,
/// and the source's relative links are written for that folder. Several sources make the
/// folder unambiguous; a lone `README.src.md` is matched by every folder with a README, so it
/// needs another source beside it.
fn source_outputs(tree: &Tree) -> std::collections::HashMap<String, Vec<String>> {
    let mut groups: std::collections::HashMap<String, Vec<String>> = Default::default();
    for f in &tree.files {
        if let Some(stem) = f.strip_suffix(".src.md") {
            let (dir, name) = stem.rsplit_once('/').unwrap_or(("", stem));
            groups
                .entry(dir.to_string())
                .or_default()
                .push(format!("{}.md", name.to_lowercase()));
        }
    }
    groups.retain(|_, names| names.len() > 1);
    if groups.is_empty() {
        return Default::default();
    }
    let wanted: std::collections::HashSet<&str> =
        groups.values().flatten().map(String::as_str).collect();
    // Every folder holding a wanted name, per name.
    let mut held: std::collections::HashMap<String, std::collections::HashSet<&str>> =
        Default::default();
    for f in &tree.files {
        let (dir, name) = f.rsplit_once('/').unwrap_or(("", f.as_str()));
        if let Some(w) = wanted.get(name.to_lowercase().as_str()) {
            held.entry(w.to_string()).or_default().insert(dir);
        }
    }
    let mut out = std::collections::HashMap::new();
    for (dir, names) in &groups {
        let Some(first) = held.get(&names[0]) else {
            continue;
        };
        let mut folders: Vec<String> = first
            .iter()
            .filter(|f| **f != dir.as_str())
            .filter(|f| {
                names
                    .iter()
                    .all(|n| held.get(n).is_some_and(|h| h.contains(*f)))
            })
            .map(|f| f.to_string())
            .collect();
        folders.sort();
        if !folders.is_empty() {
            out.insert(dir.clone(), folders);
        }
    }
    out
}

/// Whether `doc` is a page of a site whose content folders do not hold `target` (a
/// root-relative file): the site cannot serve a link to it. A notebook moved out of `docs/`
/// into a package is found from the page on GitHub, but MkDocs warns of (and `--strict`
/// fails on) a link that leaves its `docs_dir`.
pub fn outside_content(tree: &Tree, doc: &str, target: &str) -> bool {
    let Some((root, rule)) = tree.sites().of(doc) else {
        return false;
    };
    !content_dirs(tree, root, rule).any(|dir| {
        dir.is_empty()
            || target
                .strip_prefix(dir.as_str())
                .is_some_and(|r| r.starts_with('/'))
    })
}

/// Whether a link in the page `doc` is a shorthand its site's build resolves
/// (`[Agent](@api/python/strands.agent)`, a remark plugin's alias for a generated API page;
/// Docusaurus's `@site/...`): a link starting with `@` names no file, and outside a site it
/// would be a broken relative link, so only a site's pages get this reading.
pub fn alias_link(tree: &Tree, doc: &str, written: &str) -> bool {
    written.starts_with('@') && written.contains('/') && tree.sites().of(doc).is_some()
}

/// Whether a link in the page `doc` is a route of the Hugging Face hub's docs: a doc-builder
/// site (`_toctree.yml`) is served on huggingface.co under `/docs/<library>/`, beside every other
/// library's docs, so a rooted `/docs/...` link (`/docs/hub/storage-buckets` in
/// huggingface_hub's guides) names another library's page, which the collection cannot check.
/// Its own pages it links relatively.
///
/// ```
/// use hygiene::scan::refs::Tree;
/// use hygiene::scan::sites::hub_route;
/// let mut t = Tree::default();
/// for d in ["docs", "docs/source", "docs/source/en", "docs/source/en/guides"] { t.dirs.insert(d.into()); }
/// t.files.insert("docs/source/en/_toctree.yml".into());
/// t.files.insert("docs/source/en/guides/cli.md".into());
/// assert!(hub_route(&t, "docs/source/en/guides/cli.md", "/docs/hub/storage-buckets"));
/// assert!(!hub_route(&t, "docs/source/en/guides/cli.md", "/guides/jobs"));
/// assert!(!hub_route(&t, "README.md", "/docs/hub/storage-buckets"));
/// ```
pub fn hub_route(tree: &Tree, doc: &str, written: &str) -> bool {
    written.starts_with("/docs/")
        && tree
            .sites()
            .of(doc)
            .is_some_and(|(_, rule)| rule.markers.contains(&HUB_DOCS_MARKER))
}

/// The file that marks a Hugging Face doc-builder collection.
const HUB_DOCS_MARKER: &str = "_toctree.yml";

/// The file of a Hugging Face doc-builder collection that lists its redirects, one
/// `old-route: new-route` per line (`how-to-model-cards: guides/model-cards`).
pub const HUB_REDIRECTS_FILE: &str = "_redirects.yml";

/// The redirects of a Hugging Face doc-builder collection's [`HUB_REDIRECTS_FILE`]: one
/// `old-route: new-route` per line, both relative to the collection (`how-to-model-cards:
/// guides/model-cards`), rooted here; a destination's `#fragment` is dropped (the page serves
/// the route). Comments and indented lines are skipped.
///
/// ```
/// use hygiene::scan::sites::read_hub_redirects;
/// let t = "# Moved\nhow-to-model-cards: guides/model-cards\nauthentication: quick-start#authentication\n";
/// assert_eq!(read_hub_redirects(t), [("/how-to-model-cards".to_string(), "/guides/model-cards".to_string()), ("/authentication".into(), "/quick-start".into())]);
/// assert!(read_hub_redirects("  nested: x\n").is_empty());
/// ```
pub fn read_hub_redirects(text: &str) -> Vec<(String, String)> {
    text.lines()
        .filter(|l| !l.starts_with([' ', '\t', '#']))
        .filter_map(|l| l.split_once(':'))
        .filter_map(|(old, new)| {
            let old = old.trim().trim_matches('/');
            let new = new.trim().split('#').next()?.trim().trim_matches('/');
            (!old.is_empty() && !new.is_empty()).then(|| (format!("/{old}"), format!("/{new}")))
        })
        .collect()
}

/// `rel` resolved against the folder `base` as a URL is: `..` above the top stays at the top.
///
/// ```
/// use hygiene::scan::sites::clamped;
/// assert_eq!(clamped("", "../workshop"), "workshop");
/// assert_eq!(clamped("guide", "../../api/x"), "api/x");
/// assert_eq!(clamped("a/b", "../c"), "a/c");
/// ```
pub fn clamped(base: &str, rel: &str) -> String {
    let mut parts: Vec<&str> = base.split('/').filter(|s| !s.is_empty()).collect();
    for seg in rel.split('/') {
        match seg {
            "" | "." => {}
            ".." => {
                parts.pop();
            }
            s => parts.push(s),
        }
    }
    parts.join("/")
}

/// The route a page is served at, from its path inside its content folder: without its
/// extension, and an index page (one of `index_names`) at its folder's route
/// (`guides/query.md` at `guides/query`, `guides/_index.md` at `guides`).
fn served_at<'a>(inner: &'a str, index_names: &[&str]) -> &'a str {
    let stem = inner.rsplit_once('.').map_or(inner, |(s, _)| s);
    let name = stem.rsplit('/').next().unwrap_or(stem);
    if index_names.contains(&name) {
        super::refs::folder(stem)
    } else {
        stem
    }
}

/// The top of a Hugo page collection whose site is built elsewhere (Grafana's
/// `docs/sources/`, published by another repository): the highest of the folders, from the
/// page's own up, that each hold an `_index.md` (Hugo's section page).
fn hugo_collection<'a>(tree: &Tree, doc: &'a str) -> Option<&'a str> {
    let mut dir = super::refs::folder(doc);
    let mut top = None;
    while tree.has_file(&join(dir, "_index.md")) {
        top = Some(dir);
        if dir.is_empty() {
            break;
        }
        dir = super::refs::folder(dir);
    }
    top
}

/// The page a relative link of a Hugo collection's page names: Hugo serves `guides/query.md`
/// at `/guides/query/` and `guides/_index.md` at `/guides/`, and a browser resolves
/// `../../configure/flags/` from there (to `/configure/flags/`, the page `configure/flags.md`).
fn hugo_relative(tree: &Tree, doc: &str, written: &str) -> Option<String> {
    if written.starts_with('/') || super::markdown::extension(doc) != Some("md") {
        return None;
    }
    let top = hugo_collection(tree, doc)?;
    let inner = doc.strip_prefix(top).unwrap_or(doc).trim_start_matches('/');
    let route = clamped(served_at(inner, &["_index"]), written.trim_end_matches('/'));
    if route.is_empty() {
        return page_of(tree, &join(top, "_index.md"));
    }
    page_of(tree, &join(top, &route))
}

/// A route in an MDX page that no site configuration claims: a page collection whose site lives
/// elsewhere (`content/docs/03-core/02-stream-text.mdx`, synced into an app at build time)
/// links by route. A rooted route (`/docs/core/stream-text`) serves the page or folder it names
/// under one of the page's own folders, nearest first, ordering prefixes dropped (the root
/// itself is a file path's reading, tried before); a relative one a sibling page whose name
/// has an ordering prefix.
fn unmarked(tree: &Tree, doc: &str, written: &str) -> Option<String> {
    if let Some(found) = hugo_relative(tree, doc, written) {
        return Some(found);
    }
    // GitHub renders a `.md` page as a file, where `/x` is the repository's root: only a rooted
    // route without an extension (`/docs/go/cli/mcp` for `docs/go/cli/mcp.md`, `/recipes/sql`
    // for `content/recipes/sql.md`) is written for a site that serves the repository's pages by
    // route, since on GitHub it names no file.
    if super::markdown::extension(doc) != Some("mdx") {
        let route = written.strip_prefix('/')?.trim_end_matches('/');
        let name = route.rsplit('/').next().unwrap_or(route);
        if route.is_empty() || name.contains('.') || written.ends_with('/') {
            return None;
        }
        // From the repository's root (`/docs/go/cli/mcp`), or from the document's top folder,
        // which such a site serves at its root (`/recipes/sql` for `content/recipes/sql.md`).
        let top = doc.split_once('/').map(|(t, _)| t);
        return std::iter::once("").chain(top).find_map(|base| {
            let at = normalize(base, route)?;
            PAGE_EXTENSIONS
                .iter()
                .map(|e| format!("{at}.{e}"))
                .find(|p| tree.has_file(p))
        });
    }
    let here = super::refs::folder(doc);
    let Some(rest) = written.strip_prefix('/') else {
        // A relative route (`./settings`) names a sibling page by its route: from the page's
        // folder, or from the folder's parent for an index page (it is served at the folder).
        let rel = written.trim_end_matches('/');
        let index = INDEX_PAGES.contains(&doc.rsplit('/').next().unwrap_or(doc));
        let mut from = vec![here];
        if index {
            from.push(super::refs::folder(here));
        }
        // Only through ordering prefixes: `./settings` beside `settings.md` is a broken link
        // where the page is read as a file (on GitHub), and was reported as one before.
        return from.into_iter().find_map(|dir| {
            let at = normalize(dir, rel)?;
            page_names(&at)
                .iter()
                .find_map(|p| tree.unnumbered(p))
                .filter(|p| tree.has_file(p))
                .or_else(|| tree.unnumbered(&at).filter(|d| tree.has_dir(d)))
        });
    };
    let rest = rest.trim_end_matches('/');
    if rest.is_empty() {
        return None;
    }
    let mut dir = here;
    while !dir.is_empty() {
        if let Some(at) = normalize(dir, rest) {
            if let Some(found) = page_of(tree, &at) {
                return Some(found);
            }
            if tree.has_dir(&at) {
                return Some(at);
            }
            if let Some(d) = tree.unnumbered(&at).filter(|d| tree.has_dir(d)) {
                return Some(d);
            }
        }
        dir = super::refs::folder(dir);
    }
    None
}

/// Whether a rooted route in an MDX page (or a Markdown page in numbered folders,
/// [`numbered_folders`]) that no site configuration claims names a section the page's
/// collection does not hold: its first segment is no folder or page under any of the
/// page's folders (`/playground`, `/llms.txt`, `/examples/...` of the app that publishes
/// `content/docs/`). The app serves those (a route handler, a redirect in code); the
/// collection cannot tell whether they exist, so the link is not checked.
///
/// ```
/// use hygiene::scan::refs::Tree;
/// use hygiene::scan::sites::outside_collection;
/// let mut t = Tree::default();
/// for d in ["content", "content/docs", "content/docs/03-core"] { t.dirs.insert(d.into()); }
/// t.files.insert("content/docs/03-core/01-overview.mdx".into());
/// let page = "content/docs/03-core/01-overview.mdx";
/// t.dirs.insert("examples".into());
/// assert!(outside_collection(&t, page, "/playground") && outside_collection(&t, page, "/llms.txt"));
/// assert!(outside_collection(&t, page, "/examples/next-app/basics"));
/// assert!(!outside_collection(&t, page, "/docs/core/gone") && !outside_collection(&t, "README.md", "/playground"));
/// ```
pub fn outside_collection(tree: &Tree, doc: &str, written: &str) -> bool {
    // A Hugo collection published by another repository's site links that site's routes
    // (`/docs/grafana-cloud/...`): rooted, they are not this repository's.
    if written.starts_with('/')
        && super::markdown::extension(doc) == Some("md")
        && tree.sites().of(doc).is_none()
        && hugo_collection(tree, doc).is_some()
    {
        return true;
    }
    // A Markdown page in folders with ordering prefixes (`docs/1.getting-started/06.styling.md`,
    // Nuxt's, published at nuxt.com) is written for a site that drops them, as an MDX page is.
    let ext = super::markdown::extension(doc);
    let md = ext == Some("md");
    let collection = ext == Some("mdx") || (md && numbered_folders(doc));
    if !collection || tree.sites().of(doc).is_some() {
        return false;
    }
    let Some(first) = written
        .strip_prefix('/')
        .and_then(|r| r.split('/').find(|s| !s.is_empty()))
    else {
        return false;
    };
    // A route into such a Markdown collection's own top folder (`/docs/...` from
    // `docs/1.guide/x.md`, Nuxt's mount) is the collection's.
    if md && doc.split_once('/').is_some_and(|(top, _)| top == first) {
        return false;
    }
    // The page's own folders, nearest first; the root only for a page at the root (a
    // collection's routes start at its content folder: the root's `examples/` code folder is
    // not the site's `/examples/` section).
    let mut dir = super::refs::folder(doc);
    let at_root = dir.is_empty();
    loop {
        let at = if dir.is_empty() {
            first.to_string()
        } else {
            format!("{dir}/{first}")
        };
        // A route's first segment is a section of the collection's top, never one nested in
        // a numbered section: `/modules` from `docs/3.guide/4.modules/8.ecosystem.md` is the
        // site's module directory, not `/docs/guide/modules`.
        let section = |p: &String| {
            tree.unnumbered(p).is_some_and(|m| {
                let parent = super::refs::folder(&m);
                !(md && numbered_segment(parent.rsplit('/').next().unwrap_or(parent)))
            })
        };
        if (at_root || !dir.is_empty()) && (tree.exists(&at) || page_names(&at).iter().any(section))
        {
            return false;
        }
        if dir.is_empty() {
            return true;
        }
        dir = super::refs::folder(dir);
    }
}

/// Whether a page's folders carry an ordering prefix (`1.getting-started`, `20-core-concepts`):
/// a number of at most three digits, so a dated folder (`2026-03-12-triage`) is none.
///
/// ```
/// use hygiene::scan::sites::numbered_folders;
/// assert!(numbered_folders("docs/1.getting-started/06.styling.md"));
/// assert!(numbered_folders("documentation/docs/20-core-concepts/10-routing.md"));
/// assert!(!numbered_folders("docs/guide/setup.md") && !numbered_folders("01-intro.md"));
/// assert!(!numbered_folders("playbooks/2026-03-12-triage/phase.md"));
/// ```
pub fn numbered_folders(doc: &str) -> bool {
    let folder = super::refs::folder(doc);
    !folder.is_empty() && folder.split('/').any(numbered_segment)
}

/// Whether a folder's name carries an ordering prefix of at most three digits
/// (`1.getting-started`, not the dated `2026-03-12-triage`).
fn numbered_segment(seg: &str) -> bool {
    let digits = seg.bytes().take_while(u8::is_ascii_digit).count();
    digits <= 3 && super::refs::unnumbered_segment(seg).is_some()
}

/// The page a rooted link serves in a page collection its first segment names, whose folders
/// carry ordering prefixes, with a version segment after the name skipped: `/docs/4.x/guide/x`
/// is `docs/3.guide/x.md` in a repository whose `docs/` a site elsewhere publishes (Nuxt's, at
/// nuxt.com). Only a page reached through an ordering prefix: a plain path was read before.
///
/// ```
/// use hygiene::scan::refs::Tree;
/// use hygiene::scan::sites::numbered_collection_page;
/// let mut t = Tree::default();
/// for d in ["docs", "docs/3.guide", "docs/4.api"] { t.dirs.insert(d.into()); }
/// t.files.insert("docs/3.guide/2.modules.md".into());
/// t.files.insert("docs/4.api/fetch.md".into());
/// t.files.insert("docs/4.api/$fetch.md".into());
/// t.files.insert("docs/plain.md".into());
/// let page = "docs/4.api/fetch.md";
/// assert_eq!(numbered_collection_page(&t, page, "/docs/4.x/guide/modules").as_deref(), Some("docs/3.guide/2.modules.md"));
/// assert_eq!(numbered_collection_page(&t, page, "/docs/api/fetch").as_deref(), Some("docs/4.api/fetch.md"));
/// assert_eq!(numbered_collection_page(&t, page, "/docs/plain"), None);
/// assert_eq!(numbered_collection_page(&t, page, "/docs/4.x/guide/gone"), None);
/// assert_eq!(numbered_collection_page(&t, page, "/docs/4.x/api/dollarfetch").as_deref(), Some("docs/4.api/$fetch.md"));
/// assert_eq!(numbered_collection_page(&t, page, "/docs/4.x/api/dollar"), None);
/// ```
pub fn numbered_collection_page(tree: &Tree, doc: &str, written: &str) -> Option<String> {
    let rest = written.strip_prefix('/')?.trim_end_matches('/');
    let (first, tail) = rest.split_once('/')?;
    if first.is_empty() {
        return None;
    }
    // The collection sits at the root or above the page (`nuxt/docs/` in a monorepo).
    let mut dir = super::refs::folder(doc);
    let first = loop {
        let at = join(dir, first);
        if tree.has_dir(&at) {
            break at;
        }
        if dir.is_empty() {
            return None;
        }
        dir = super::refs::folder(dir);
    };
    let tail = match tail.split_once('/') {
        Some((v, t)) if version_segment(v) => t,
        _ => tail,
    };
    let found = page_of(tree, &join(&first, tail))?;
    found
        .split('/')
        .any(|seg| super::refs::unnumbered_segment(seg).is_some())
        .then_some(found)
}

/// Whether a relative, extension-less link (`./faq`, `../svelte/svelte-head`) on a Markdown
/// page of a collection whose folders carry ordering prefixes, outside any site found here,
/// is a route of the site that publishes it. Such a site serves the collection's pages by
/// their names without prefixes, often flat (SvelteKit's `documentation/docs/60-appendix/10-faq.md`
/// is svelte.dev's `/docs/kit/faq`): `./faq` is a page of that name anywhere in the
/// collection, and a link that climbs out of the page into a folder the collection lacks
/// (`../svelte/...`, `/docs/svelte/...` there) is another section of that site, not checked.
///
/// ```
/// use hygiene::scan::refs::Tree;
/// use hygiene::scan::sites::collection_relative_route;
/// let mut t = Tree::default();
/// for d in ["docs", "docs/20-core", "docs/60-appendix"] { t.dirs.insert(d.into()); }
/// for f in ["docs/20-core/20-load.md", "docs/60-appendix/10-faq.md"] { t.files.insert(f.into()); }
/// let page = "docs/60-appendix/10-faq.md";
/// assert!(collection_relative_route(&t, page, "./load") && collection_relative_route(&t, page, "load"));
/// assert!(collection_relative_route(&t, page, "../svelte/svelte-head"));
/// assert!(!collection_relative_route(&t, page, "./gone"));
/// assert!(!collection_relative_route(&t, page, "../core/gone") && !collection_relative_route(&t, page, "../20-core/gone"));
/// assert!(!collection_relative_route(&t, page, "./load.md") && !collection_relative_route(&t, "notes/a.md", "./load"));
/// ```
pub fn collection_relative_route(tree: &Tree, doc: &str, written: &str) -> bool {
    let written = written.trim_end_matches('/');
    if written.is_empty()
        || written.starts_with('/')
        || super::markdown::extension(written).is_some()
        || super::markdown::extension(doc) != Some("md")
        || !numbered_folders(doc)
        || tree.sites().of(doc).is_some()
    {
        return false;
    }
    // The collection: the folder above the page's first numbered folder.
    let mut root = String::new();
    for seg in super::refs::folder(doc).split('/') {
        if super::refs::unnumbered_segment(seg).is_some() {
            break;
        }
        root = join(&root, seg);
    }
    let rest = written.trim_start_matches("./");
    if rest.starts_with("../") {
        let first = rest.split('/').find(|s| *s != "..").unwrap_or_default();
        // A folder of the collection (`../20-core/x`, `../core/x`) is checked as written.
        let known =
            tree.unnumbered(&join(&root, first)).is_some() || tree.has_dir(&join(&root, first));
        return !first.is_empty() && !known;
    }
    // A page of that name anywhere in the collection: its sections are not in the route.
    let name = rest.rsplit('/').next().unwrap_or(rest);
    let prefix = format!("{root}/");
    tree.files.iter().any(|f| {
        f.strip_prefix(&prefix).is_some_and(|inner| {
            let file = inner.rsplit('/').next().unwrap_or(inner);
            let stem = file.strip_suffix(".md").unwrap_or("");
            !stem.is_empty() && super::refs::unnumbered_segment(stem).unwrap_or(stem) == name
        })
    })
}

/// The file the route `at` (root-relative, no trailing `/`) serves: itself, its page with a
/// page extension (`.html` read as the page, a page written as `.md` served from `.mdx`), or
/// its folder's index page.
fn page_of(tree: &Tree, at: &str) -> Option<String> {
    page_as_written(tree, at).or_else(|| {
        // A page whose name starts with a character the site's slug spells out
        // (`$fetch.md` at `/dollarfetch`).
        let (dir, name) = at.rsplit_once('/').unwrap_or(("", at));
        SPELLED_OUT.iter().find_map(|(word, c)| {
            let rest = name.strip_prefix(word).filter(|r| !r.is_empty())?;
            page_as_written(tree, &join(dir, &format!("{c}{rest}")))
        })
    })
}

/// Characters a site's slug spells out at the start of a page's name: Nuxt Content slugs
/// with `slugify`, whose character map writes `$` as `dollar` (nuxt.com serves
/// `docs/4.api/3.utils/$fetch.md` at `/docs/4.x/api/utils/dollarfetch`).
pub const SPELLED_OUT: &[(&str, &str)] = &[("dollar", "$")];

/// [`page_of`] for the name as written.
fn page_as_written(tree: &Tree, at: &str) -> Option<String> {
    let is_file = |p: &str| tree.has_file(p) || tree.is_file(p);
    let names = page_names(at);
    names.iter().find(|p| is_file(p)).cloned().or_else(|| {
        // Sites drop ordering prefixes: `03-core/02-setup.md` serves `/core/setup`.
        // The folder's own name comes first and maps to the folder: the page is its index.
        names
            .iter()
            .filter_map(|p| tree.unnumbered(p))
            .find(|p| tree.has_file(p))
    })
}

/// The files the route `at` may be served from, in order: itself, its page with each page
/// extension, its folder's index pages; a name with another extension only itself or its page
/// (a module's reference page `camel.types.enums` is `camel.types.enums.mdx`).
fn page_names(at: &str) -> Vec<String> {
    let name = at.rsplit('/').next().unwrap_or(at);
    let stem = match name.rsplit_once('.') {
        Some((_, e)) if e == "html" || PAGE_EXTENSIONS.contains(&e) => {
            &at[..at.len() - e.len() - 1]
        }
        Some(_) => {
            return std::iter::once(at.to_string())
                .chain(PAGE_EXTENSIONS.iter().map(|e| format!("{at}.{e}")))
                .collect()
        }
        None => at,
    };
    // A page folder (`src/pages/`, `app/`) also holds pages written as components.
    let code = at.starts_with("pages/")
        || at.starts_with("app/")
        || at.contains("/pages/")
        || at.contains("/app/");
    let code_pages = CODE_PAGE_EXTENSIONS.iter().filter(move |_| code);
    std::iter::once(at.to_string())
        .chain(PAGE_EXTENSIONS.iter().map(|e| format!("{stem}.{e}")))
        .chain(INDEX_PAGES.iter().map(|i| format!("{stem}/{i}")))
        .chain(code_pages.clone().map(|e| format!("{stem}.{e}")))
        .chain(code_pages.clone().map(|e| format!("{stem}/index.{e}")))
        .chain(code_pages.map(|e| format!("{stem}/page.{e}")))
        .collect()
}

/// Extensions of pages written as components in a site's page folder (`src/pages/about.tsx`
/// serves `/about` in Docusaurus, Astro and Next.js; `app/x/page.tsx` serves `/x`).
pub const CODE_PAGE_EXTENSIONS: &[&str] = &["tsx", "jsx", "js", "ts", "astro"];

#[cfg(test)]
mod tests {
    use super::*;

    fn tree(files: &[&str]) -> Tree {
        let mut t = Tree::default();
        for f in files {
            t.files.insert(f.to_string());
            let mut d = *f;
            while let Some((parent, _)) = d.rsplit_once('/') {
                t.dirs.insert(parent.to_string());
                d = parent;
            }
        }
        t
    }

    #[test]
    fn routes_land_on_the_pages_each_generator_serves() {
        let t = tree(&[
            "docs/.vitepress/config.ts",
            "docs/configuration/environments.md",
            "docs/tasks/toml-tasks.md",
            "docs/tasks/task-configuration.md",
            "docs/public/logo.svg",
            "site/docs.json",
            "site/docs/draft/develop/build-client.mdx",
            "site/docs/draft/learn/index.mdx",
            "site/reference/camel.types.enums.mdx",
            "blog/hugo.toml",
            "blog/content/posts/a.md",
            "blog/static/posts/images/x.webp",
            "web/docusaurus.config.ts",
            "web/docs/cli.md",
            "web/versioned_docs/version-1.0/cli.md",
        ]);
        let cases = [
            (
                "docs/configuration/index.md",
                "/configuration/environments.html",
                Some("docs/configuration/environments.md"),
            ),
            (
                "docs/tasks/task-configuration.md",
                "./toml-tasks",
                Some("docs/tasks/toml-tasks.md"),
            ),
            ("docs/a.md", "/logo.svg", Some("docs/public/logo.svg")),
            (
                "site/docs/draft/develop/x.mdx",
                "/docs/draft/develop/build-client",
                Some("site/docs/draft/develop/build-client.mdx"),
            ),
            (
                "site/docs/draft/develop/x.mdx",
                "/docs/draft/learn/",
                Some("site/docs/draft/learn/index.mdx"),
            ),
            (
                "blog/content/posts/a.md",
                "/posts/images/x.webp",
                Some("blog/static/posts/images/x.webp"),
            ),
            ("web/docs/intro.md", "/docs/cli", Some("web/docs/cli.md")),
            (
                "web/docs/intro.md",
                "/docs/1.0/cli",
                Some("web/versioned_docs/version-1.0/cli.md"),
            ),
            (
                "web/docs/intro.md",
                "/docs/next/cli",
                Some("web/docs/cli.md"),
            ),
            // A route to no page, and a page outside every site, stay missing.
            ("docs/a.md", "/configuration/gone.html", None),
            ("README.md", "/configuration/environments.html", None),
            ("docs/a.md", "/configuration/environments.txt", None),
            // A page whose name holds dots (a module's reference page).
            (
                "site/docs/draft/develop/x.mdx",
                "/docs/draft/develop/build-client",
                Some("site/docs/draft/develop/build-client.mdx"),
            ),
            (
                "site/docs/draft/develop/x.mdx",
                "/reference/camel.types.enums",
                Some("site/reference/camel.types.enums.mdx"),
            ),
        ];
        for (doc, link, want) in cases {
            assert_eq!(
                route_target(&t, doc, link).as_deref(),
                want,
                "{doc} -> {link}"
            );
        }
    }
}
