//! Fern's navigation: the routes a `docs.yml` serves its pages at.
//!
//! A Fern page's route joins the slugs of what holds it: its tab's (`tabs:`), each section's
//! (unless `skip-slug: true`), then its own. A slug not written is the title in kebab case.
//! Pages link these routes (`/tool-router/users-and-sessions`), which no file path spells.

use std::collections::{HashMap, HashSet};

/// One `- key: value` list item of the navigation and the keys written under it.
struct Item {
    /// The column of its `-`.
    col: usize,
    keys: Vec<(String, String)>,
    parent: Option<usize>,
}

impl Item {
    fn get(&self, key: &str) -> Option<&str> {
        self.keys
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }
}

/// A title as Fern slugs it: small letters and digits, runs of anything else one `-`.
fn kebab(title: &str) -> String {
    let mut out = String::new();
    for c in title.chars() {
        if c.is_alphanumeric() {
            out.extend(c.to_lowercase());
        } else if !out.is_empty() && !out.ends_with('-') {
            out.push('-');
        }
    }
    out.trim_end_matches('-').to_string()
}

fn key_value(s: &str) -> Option<(String, String)> {
    let (k, v) = s.split_once(':')?;
    let k = k.trim();
    if k.is_empty() || k.contains(' ') {
        return None;
    }
    let v = v.trim().trim_matches(['\'', '"']).trim();
    Some((k.to_string(), v.to_string()))
}

/// Each tab's slug under `tabs:`, `None` for one with `skip-slug: true`.
fn tabs(text: &str) -> HashMap<String, Option<String>> {
    let mut out: HashMap<String, Option<String>> = HashMap::new();
    let mut in_tabs = false;
    let mut tab: Option<(String, usize)> = None;
    for line in text.lines() {
        let t = line.trim_start();
        if t.is_empty() || t.starts_with('#') {
            continue;
        }
        let col = line.len() - t.len();
        if col == 0 {
            in_tabs = t.trim_end() == "tabs:";
            tab = None;
            continue;
        }
        if !in_tabs {
            continue;
        }
        let Some((k, v)) = key_value(t) else { continue };
        match &tab {
            Some((id, c)) if col > *c => match k.as_str() {
                "slug" => {
                    out.insert(id.clone(), Some(v.trim_matches('/').to_string()));
                }
                "skip-slug" if v == "true" => {
                    out.insert(id.clone(), None);
                }
                "display-name" => {
                    out.entry(id.clone()).or_insert_with(|| Some(kebab(&v)));
                }
                _ => {}
            },
            _ if v.is_empty() => {
                out.entry(k.clone()).or_insert_with(|| Some(k.clone()));
                tab = Some((k, col));
            }
            _ => {}
        }
    }
    out
}

/// The routes (no leading or trailing `/`) of the pages under `navigation:` in a Fern
/// `docs.yml`: a page, a changelog or a section with its own page, at its tabs', sections' and
/// own slugs joined. Routes Fern builds from an API definition or a folder are not listed.
///
/// ```
/// use hygiene::scan::sites::fern::read_routes;
/// let yml = [
///     "tabs:", "  docs:", "    display-name: Docs", "    slug: docs",
///     "  home:", "    display-name: Home", "    skip-slug: true",
///     "navigation:", "- tab: docs", "  layout:",
///     "  - section: Get Started", "    skip-slug: true", "    contents:",
///     "    - page: Quickstart", "      path: pages/quickstart.mdx", "      slug: mcp-quickstart",
///     "  - section: Tools and Triggers", "    contents:",
///     "    - page: Fetching Tools", "      path: pages/fetch.mdx",
///     "- tab: home", "  layout:", "  - page: Welcome", "    path: pages/welcome.mdx",
/// ]
/// .join("\n");
/// let r = read_routes(&yml);
/// assert!(r.contains("docs/mcp-quickstart") && r.contains("docs/tools-and-triggers/fetching-tools"));
/// assert!(r.contains("welcome") && !r.contains("docs/get-started/mcp-quickstart"));
/// ```
pub fn read_routes(text: &str) -> HashSet<String> {
    let tabs = tabs(text);
    let mut items: Vec<Item> = Vec::new();
    let mut stack: Vec<usize> = Vec::new();
    let mut in_nav = false;
    for line in text.lines() {
        let t = line.trim_start();
        if t.is_empty() || t.starts_with('#') {
            continue;
        }
        let col = line.len() - t.len();
        if col == 0 && !t.starts_with("- ") {
            in_nav = t.trim_end() == "navigation:";
            stack.clear();
            continue;
        }
        if !in_nav {
            continue;
        }
        if let Some(rest) = t.strip_prefix("- ") {
            while stack.last().is_some_and(|&i| items[i].col >= col) {
                stack.pop();
            }
            items.push(Item {
                col,
                keys: key_value(rest).into_iter().collect(),
                parent: stack.last().copied(),
            });
            stack.push(items.len() - 1);
        } else if let Some(&owner) = stack.iter().rev().find(|&&i| items[i].col + 2 == col) {
            if let Some(kv) = key_value(t) {
                items[owner].keys.push(kv);
            }
        }
    }
    let mut routes: Vec<Option<String>> = Vec::with_capacity(items.len());
    let mut out = HashSet::new();
    for item in &items {
        let base = match item.parent {
            Some(p) => routes[p].clone(),
            None => Some(String::new()),
        };
        let own_slug = || item.get("slug").map(|s| s.trim_matches('/').to_string());
        let (seg, page) = if let Some(id) = item.get("tab") {
            (
                Some(
                    tabs.get(id)
                        .cloned()
                        .unwrap_or_else(|| Some(id.to_string()))
                        .unwrap_or_default(),
                ),
                false,
            )
        } else if let Some(title) = item.get("section") {
            let seg = if item.get("skip-slug") == Some("true") {
                String::new()
            } else {
                own_slug().unwrap_or_else(|| kebab(title))
            };
            (Some(seg), item.get("path").is_some())
        } else if let Some(title) = item.get("page") {
            (Some(own_slug().unwrap_or_else(|| kebab(title))), true)
        } else if item.get("changelog").is_some() {
            let title = item.get("title").unwrap_or("changelog");
            (Some(own_slug().unwrap_or_else(|| kebab(title))), true)
        } else {
            // An API reference, a folder, a link: no page of its own this file lists.
            (None, false)
        };
        let route = match (base, seg) {
            (Some(b), Some(s)) => Some(super::join(&b, &s)),
            _ => None,
        };
        if page {
            if let Some(r) = route.as_ref().filter(|r| !r.is_empty()) {
                out.insert(r.clone());
            }
        }
        routes.push(route);
    }
    out
}
