//! Pages Mintlify generates from an OpenAPI specification.
//!
//! A navigation entry with an `openapi` field (`{"group": "API Reference", "openapi":
//! "openapi.json"}`) makes Mintlify build one page per operation, at
//! `/<directory>/<tag>/<summary>` (`/api-reference/add-library/add-a-website`). No file holds
//! such a page, so read as a path every link to one was missing: 14 of 100 sampled signals on
//! one repository. The rules below are Mintlify's published ones ("How URLs are built").

use std::collections::BTreeMap;

/// The directory generated pages go under when the `openapi` field names none.
pub const DEFAULT_DIRECTORY: &str = "api-reference";

/// Characters Mintlify drops from a tag or summary before it joins words with `-`.
const DROPPED: &[char] = &['{', '}', '(', ')', ',', '.', '\'', '/'];

/// The HTTP methods an OpenAPI path item names operations by.
const METHODS: &[&str] = &[
    "get", "put", "post", "delete", "options", "head", "patch", "trace",
];

/// One `openapi` field of a site's navigation: where its specification is, relative to the
/// site's root (or a URL), and the directory its pages are published under.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Source {
    /// The specification's path from the site's root, or its URL.
    pub spec: String,
    /// The directory its pages are published under, lowercased.
    pub directory: String,
}

/// What a site's generated pages are known as: the routes (no leading `/`) a readable JSON
/// specification yields, and the directories whose routes cannot be listed (a YAML
/// specification, a URL): every route under such a directory is served.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Generated {
    /// Each generated route and the root-relative specification it comes from.
    pub routes: BTreeMap<String, String>,
    /// Each directory whose routes cannot be listed and the file that generates them.
    pub opaque: BTreeMap<String, String>,
}

impl Generated {
    /// The specification that serves `route` (no leading `/`), if a generated page is there.
    pub fn serves(&self, route: &str) -> Option<&str> {
        let route = route.trim_end_matches('/').to_lowercase();
        if let Some(spec) = self.routes.get(&route) {
            return Some(spec);
        }
        self.opaque
            .iter()
            .find(|(dir, _)| {
                route
                    .strip_prefix(dir.as_str())
                    .is_some_and(|r| r.starts_with('/'))
            })
            .map(|(_, spec)| spec.as_str())
    }

    /// The specification whose pages lie inside the folder `route` (no leading `/`) names:
    /// Mintlify redirects a route to that folder to the first of them.
    pub fn serves_folder(&self, route: &str) -> Option<&str> {
        let folder = route.trim_matches('/').to_lowercase();
        if folder.is_empty() {
            return None;
        }
        let inside = |r: &str| {
            r.strip_prefix(folder.as_str())
                .is_some_and(|r| r.starts_with('/'))
        };
        // A listed page inside it, or an unlisted directory that is it or lies inside it.
        self.routes
            .iter()
            .find(|(r, _)| inside(r))
            .or_else(|| self.opaque.iter().find(|(d, _)| **d == folder || inside(d)))
            .map(|(_, spec)| spec.as_str())
    }
}

/// The `openapi` fields of a Mintlify configuration (`docs.json`'s `navigation`, `mint.json`'s
/// `tabs` and `anchors`), in document order. A field is a path or URL, a list of them, or
/// `{"source": ..., "directory": ...}`.
///
/// ```
/// use hygiene::scan::sites::openapi::sources;
/// let config = br#"{"navigation": {"tabs": [{"tab": "API", "groups": [
///   {"group": "A", "openapi": "openapi.json"},
///   {"group": "B", "openapi": {"source": "/specs/v2.json", "directory": "API/v2"}}]}]},
///   "api": {"openapi": "ignored.json"}}"#;
/// let got: Vec<_> = sources(config).into_iter().map(|s| (s.spec, s.directory)).collect();
/// assert_eq!(got, [("openapi.json".into(), "api-reference".into()),
///                  ("specs/v2.json".into(), "api/v2".into())]);
/// ```
pub fn sources(config: &[u8]) -> Vec<Source> {
    // Most configurations generate nothing: they are not parsed a second time.
    if !config.windows(9).any(|w| w == b"\"openapi\"") {
        return Vec::new();
    }
    let Ok(v) = serde_json::from_slice::<serde_json::Value>(config) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    // `api.openapi` only tells the playground where a hand-written page's operation is.
    for key in ["navigation", "tabs", "anchors"] {
        if let Some(n) = v.get(key) {
            collect(n, &mut out);
        }
    }
    out
}

fn collect(v: &serde_json::Value, out: &mut Vec<Source>) {
    use serde_json::Value;
    match v {
        Value::Object(m) => {
            if let Some(f) = m.get("openapi") {
                let fields: Vec<&Value> = match f {
                    Value::Array(a) => a.iter().collect(),
                    other => vec![other],
                };
                for f in fields {
                    let (spec, dir) = match f {
                        Value::String(s) => (Some(s.as_str()), None),
                        Value::Object(o) => (
                            o.get("source").and_then(Value::as_str),
                            o.get("directory").and_then(Value::as_str),
                        ),
                        _ => (None, None),
                    };
                    if let Some(spec) = spec {
                        let directory = dir
                            .unwrap_or(DEFAULT_DIRECTORY)
                            .trim_matches('/')
                            .to_lowercase();
                        let source = Source {
                            spec: spec.trim_start_matches("./").trim_start_matches('/').into(),
                            directory,
                        };
                        if !out.contains(&source) {
                            out.push(source);
                        }
                    }
                }
            }
            m.iter()
                .filter(|(k, _)| k.as_str() != "openapi")
                .for_each(|(_, x)| collect(x, out));
        }
        Value::Array(a) => a.iter().for_each(|x| collect(x, out)),
        _ => {}
    }
}

/// A tag or summary as a URL part: spaces become `-`, [`DROPPED`] characters go, the rest is
/// lowercased (`?`, `&`, `:` and non-ASCII letters stay).
///
/// ```
/// use hygiene::scan::sites::openapi::url_part;
/// assert_eq!(url_part("Add an llms.txt file"), "add-an-llmstxt-file");
/// assert_eq!(url_part("Search & list (v2)"), "search-&-list-v2");
/// ```
pub fn url_part(s: &str) -> String {
    s.trim()
        .chars()
        .filter(|c| !DROPPED.contains(c))
        .map(|c| if c == ' ' { '-' } else { c })
        .collect::<String>()
        .to_lowercase()
}

/// The slug of an operation without a summary: its method and its path's fixed segments
/// (`GET /users/{id}/posts` is `get-users-posts`).
///
/// ```
/// use hygiene::scan::sites::openapi::method_slug;
/// assert_eq!(method_slug("get", "/users/{id}/posts"), "get-users-posts");
/// ```
pub fn method_slug(method: &str, path: &str) -> String {
    std::iter::once(method.to_lowercase())
        .chain(
            path.split('/')
                .filter(|s| !s.is_empty() && !s.starts_with('{'))
                .map(url_part),
        )
        .collect::<Vec<_>>()
        .join("-")
}

/// The routes (no leading `/`) the JSON specification `spec` yields under `directory`: one per
/// operation and tag, `x-mint.href` where an operation sets its own, none for an operation
/// `x-excluded` from the pages. Two operations on one route make `-1`, `-2`, ... for the later
/// ones; since the order the specification lists them in is not kept, each such suffix is a route.
pub fn routes(spec: &[u8], directory: &str) -> Option<Vec<String>> {
    #[derive(serde::Deserialize)]
    struct Spec {
        #[serde(default)]
        paths: BTreeMap<String, serde_json::Value>,
    }
    let spec: Spec = serde_json::from_slice(spec).ok()?;
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    let mut out = Vec::new();
    let str_of =
        |v: &serde_json::Value, k: &str| v.get(k).and_then(|s| s.as_str()).map(String::from);
    for (path, item) in &spec.paths {
        for method in METHODS {
            let Some(op) = item.get(*method) else {
                continue;
            };
            if op.get("x-excluded").and_then(|x| x.as_bool()) == Some(true) {
                continue;
            }
            if let Some(href) = op.get("x-mint").and_then(|m| str_of(m, "href")) {
                out.push(href_route(&href));
                continue;
            }
            let slug = str_of(op, "summary")
                .filter(|s| !s.trim().is_empty())
                .map_or_else(|| method_slug(method, path), |s| url_part(&s));
            let tags: Vec<String> = op
                .get("tags")
                .and_then(|t| t.as_array())
                .map(|a| a.iter().filter_map(|t| t.as_str()).map(url_part).collect())
                .unwrap_or_default();
            let parts: Vec<String> = if tags.is_empty() {
                vec![join(directory, &slug)]
            } else {
                tags.iter()
                    .map(|t| join(directory, &join(t, &slug)))
                    .collect()
            };
            for route in parts {
                let n = seen.entry(route.clone()).or_insert(0);
                out.push(if *n > 0 {
                    format!("{route}-{n}")
                } else {
                    route
                });
                *n += 1;
            }
        }
    }
    Some(out)
}

/// An `x-mint.href` as a route: lowercased, without a leading `/` and without what follows the
/// last `.` of its last segment (`/reference/v1.2` is `reference/v1`).
fn href_route(href: &str) -> String {
    let h = href.trim_matches('/').to_lowercase();
    match h.rsplit_once('/') {
        Some((dir, last)) => format!("{dir}/{}", last.rsplit_once('.').map_or(last, |(a, _)| a)),
        None => h.rsplit_once('.').map_or(h.clone(), |(a, _)| a.to_string()),
    }
}

fn join(a: &str, b: &str) -> String {
    if a.is_empty() {
        b.to_string()
    } else {
        format!("{a}/{b}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn routes_follow_mintlify_rules() {
        let spec = br#"{"paths": {
            "/v2/add/llmstxt": {"post": {"tags": ["Add Library"], "summary": "Add an llms.txt file"}},
            "/users/{id}/posts": {"get": {}},
            "/a": {"get": {"summary": "Same", "tags": ["T"]}, "put": {"summary": "Same", "tags": ["T"]}},
            "/b": {"get": {"summary": "Own", "x-mint": {"href": "/reference/v1.2"}}},
            "/c": {"get": {"summary": "Gone", "x-excluded": true}}
        }}"#;
        let mut got = routes(spec, "api-reference").unwrap();
        got.sort();
        assert_eq!(
            got,
            [
                "api-reference/add-library/add-an-llmstxt-file",
                "api-reference/get-users-posts",
                "api-reference/t/same",
                "api-reference/t/same-1",
                "reference/v1",
            ]
        );
        assert_eq!(routes(b"openapi: 3.0.0", "x"), None);
    }

    #[test]
    fn an_unlisted_directory_serves_every_route_under_it() {
        let g = Generated {
            routes: [(
                "api-reference/t/same".to_string(),
                "openapi.json".to_string(),
            )]
            .into(),
            opaque: [("api/v2".to_string(), "spec.yaml".to_string())].into(),
        };
        assert_eq!(g.serves("API-Reference/t/same/"), Some("openapi.json"));
        assert_eq!(g.serves("api-reference/t/other"), None);
        assert_eq!(g.serves("api/v2/users/get-user"), Some("spec.yaml"));
        assert_eq!(g.serves("api/v2"), None);
    }
}
