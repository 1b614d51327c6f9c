//! A docs site laid out by a CUE menu (`docs/menu.cue`, as encore.dev's docs are): each page
//! item names the route it is served at and the file that renders it (`path:
//! "/go/self-host/docker-build"` over `file: "go/self-host/self-host"`), so a route need not
//! spell any file's path. The site is served under the menu folder's name (`/docs/go/...`).

/// The file name of a menu.
pub const MENU_FILE: &str = "menu.cue";

/// Each `(route, file)` a menu's items give: a `path: "..."` and the `file: "..."` that
/// follows it in the same item (an item without a file, a section or a back link, gives none).
/// Routes are kept without their slashes, files as written (relative to the menu's folder,
/// without an extension).
///
/// ```
/// use hygiene::scan::sites::menu_cue::read_pages;
/// let cue = "items: [{\n  kind: \"basic\"\n  path: \"/go/self-host/docker-build\"\n  file: \"go/self-host/self-host\"\n}, {\n  kind: \"section\"\n  back: { path: \"/go\" }\n}, {\n  path: \"/ts/cli\"\n  file: \"ts/cli/cli\"\n}]\n";
/// assert_eq!(read_pages(cue), [
///     ("go/self-host/docker-build".to_string(), "go/self-host/self-host".to_string()),
///     ("ts/cli".to_string(), "ts/cli/cli".to_string()),
/// ]);
/// ```
pub fn read_pages(text: &str) -> Vec<(String, String)> {
    let value = |line: &str, key: &str| {
        let rest = line.trim_start().strip_prefix(key)?.trim_start();
        let rest = rest.strip_prefix(':')?.trim_start().strip_prefix('"')?;
        rest.split_once('"').map(|(v, _)| v.to_string())
    };
    let mut out = Vec::new();
    let mut route: Option<String> = None;
    for line in text.lines() {
        if let Some(p) = value(line, "path") {
            route = Some(p.trim_matches('/').to_string());
        } else if let Some(f) = value(line, "file") {
            if let Some(r) = route.take() {
                out.push((r, f.trim_matches('/').to_string()));
            }
        } else if line.contains('}') {
            // The item closed before a file: a back link's or a section's path.
            route = None;
        }
    }
    out
}
