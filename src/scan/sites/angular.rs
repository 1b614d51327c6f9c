//! An Angular application's routes: the `path:` of each route its router configuration lists.
//!
//! A documentation site built as an Angular application (NestJS' docs) renders its Markdown
//! pages through components its routes name, so a page is served at the route, not at its
//! file's path (`content/fundamentals/provider-scopes.md` at `/fundamentals/injection-scopes`).
//! Child routes live in other files (`loadChildren`), so a route is read as a chain of listed
//! paths.

/// Whether `name` is a router configuration file: `app.routes.ts`, `*.routes.ts`,
/// `app-routing.module.ts`, `*-routing.module.ts`.
///
/// ```
/// use hygiene::scan::sites::angular::is_routes_file;
/// assert!(is_routes_file("src/app/app.routes.ts") && is_routes_file("src/app/cli/cli-routing.module.ts"));
/// assert!(!is_routes_file("src/app/routes.md") && !is_routes_file("src/app/app.component.ts"));
/// ```
pub fn is_routes_file(path: &str) -> bool {
    path.ends_with(".routes.ts") || path.ends_with("-routing.module.ts")
}

/// The `path: '...'` values of a router configuration, without their slashes; the wildcard
/// `**` (a not-found page) and the empty path are left out.
///
/// ```
/// use hygiene::scan::sites::angular::read_paths;
/// let ts = "export const R: Routes = [\n  { path: 'custom-providers', component: A },\n  {\n    path: \"discover/companies\",\n  },\n  { path: '', component: B },\n  { path: '**', component: C },\n];\n";
/// assert_eq!(read_paths(ts), ["custom-providers", "discover/companies"]);
/// ```
pub fn read_paths(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for (i, _) in text.match_indices("path:") {
        if text[..i]
            .chars()
            .next_back()
            .is_some_and(|c| c.is_alphanumeric() || c == '_')
        {
            continue;
        }
        let rest = text[i + 5..].trim_start();
        let Some(q) = rest
            .chars()
            .next()
            .filter(|c| matches!(c, '\'' | '"' | '`'))
        else {
            continue;
        };
        let Some(end) = rest[1..].find(q) else {
            continue;
        };
        let value = rest[1..1 + end].trim_matches('/');
        if !value.is_empty() && value != "**" && !value.contains(char::is_whitespace) {
            out.push(value.to_string());
        }
    }
    out
}

/// Whether `route` (segments joined by `/`, no leading one) is a chain of `paths`, each taking
/// one or more whole segments; a `:param` segment takes any, but only after a fixed one of its
/// path (`blog/:slug`): a path that is only a parameter belongs under a parent this flat list
/// no longer knows, and would take any segment after any other.
///
/// ```
/// use hygiene::scan::sites::angular::serves;
/// let paths: Vec<String> = ["fundamentals", "injection-scopes", "discover/companies", "recipes/:id", ":slug"].map(String::from).into();
/// assert!(serves(&paths, "fundamentals/injection-scopes") && serves(&paths, "discover/companies"));
/// assert!(serves(&paths, "recipes/prisma"));
/// assert!(!serves(&paths, "fundamentals/gone") && !serves(&paths, "discover") && !serves(&paths, ""));
/// ```
pub fn serves(paths: &[String], route: &str) -> bool {
    let segs: Vec<&str> = route.split('/').filter(|s| !s.is_empty()).collect();
    if segs.is_empty() {
        return false;
    }
    // reach[i]: the first i segments are a chain of listed paths.
    let mut reach = vec![false; segs.len() + 1];
    reach[0] = true;
    for i in 0..segs.len() {
        if !reach[i] {
            continue;
        }
        for p in paths.iter().filter(|p| !p.starts_with(':')) {
            let parts: Vec<&str> = p.split('/').collect();
            let fits = i + parts.len() <= segs.len()
                && parts
                    .iter()
                    .zip(&segs[i..])
                    .all(|(p, s)| p.starts_with(':') || p == s);
            if fits {
                reach[i + parts.len()] = true;
            }
        }
    }
    reach[segs.len()]
}
