//! `missing-anchor`: a `#fragment` into a Markdown document names none of its headings (GitHub
//! slug rules, duplicates numbered `-1`, `-2`, runs of `-` collapsed as site generators write
//! them; into a documentation site's page, any slug with the same letters and digits), no explicit heading id (`{#id}`) and no HTML `id`/`name`. Line
//! fragments (`#L10`, `#L10-L20`) are GitHub source anchors, not headings, and are not checked.
//! A page that renders content from elsewhere (a self-closing component, an include) has
//! headings the text does not show: fragments into it are not checked.

use super::{Detector, Doc, Finding, TreeCtx};
use crate::report::Signal;
use crate::scan::markdown::{extension, parse, strip_bom};
use crate::scan::refs::Target;
use std::collections::HashSet;

/// The detector.
pub struct MissingAnchor;

/// Whether a fragment is a GitHub line anchor.
pub fn is_line_fragment(f: &str) -> bool {
    let one = |s: &str| {
        s.strip_prefix('L')
            .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
    };
    match f.split_once('-') {
        Some((a, b)) => one(a) && one(b),
        None => one(f),
    }
}

/// A slug's letters and digits, lowercased: what every generator's slug of one heading shares.
///
/// ```
/// use hygiene::scan::detectors::missing_anchor::loose;
/// assert_eq!(loose("conf-d-environments"), loose("confd-environments"));
/// assert_eq!(loose("_2-metadata-lua"), loose("2-metadatalua"));
/// assert_ne!(loose("version-listing"), loose("version_list_url"));
/// ```
pub fn loose(slug: &str) -> String {
    slug.chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(char::to_lowercase)
        .collect()
}

/// Site generators whose slugs fold accents (VitePress: `normalize('NFKD')` less combining
/// marks, so "Niveles de inclusión" is `#niveles-de-inclusion`). GitHub and github-slugger
/// (Docusaurus, Starlight) keep the `ó`: there the folded fragment finds nothing.
pub const ACCENT_FOLDING_GENERATORS: &[&str] = &["vitepress"];

/// [`loose`] with accents folded, as an [`ACCENT_FOLDING_GENERATORS`] site slugs a heading.
///
/// ```
/// use hygiene::scan::detectors::missing_anchor::{folded, loose};
/// assert_eq!(folded("niveles-de-inclusión"), folded("niveles-de-inclusion"));
/// assert_ne!(loose("niveles-de-inclusión"), loose("niveles-de-inclusion"));
/// ```
pub fn folded(slug: &str) -> String {
    unicode_normalization::UnicodeNormalization::nfkd(slug)
        .filter(|c| c.is_alphanumeric() && !('\u{300}'..='\u{36f}').contains(c))
        .flat_map(char::to_lowercase)
        .collect()
}

/// Characters GitHub's slug drops that some renderers keep (pmndrs/docs: lowercase, spaces to
/// `-`): a fragment holding one targets such a renderer.
pub const PUNCTUATION_KEPT_ELSEWHERE: &[char] = &['(', ')', ',', '\'', '\u{2019}'];

/// HTML entities a heading may be written with (`### WAL growth &mdash; why ...`) whose name
/// VitePress keeps in its slug (`#wal-growth-mdash-why-...`), where GitHub drops the dash.
pub const ENTITY_WORDS: &[&str] = &[
    "mdash", "ndash", "amp", "nbsp", "hellip", "quot", "lt", "gt", "rarr", "larr",
];

/// `slug` without the segments that name an HTML entity ([`ENTITY_WORDS`]).
///
/// ```
/// use hygiene::scan::detectors::missing_anchor::without_entities;
/// assert_eq!(without_entities("wal-growth-mdash-why-is-it"), "wal-growth-why-is-it");
/// assert_eq!(without_entities("_503-mdash-limit"), "_503-limit");
/// assert_eq!(without_entities("gtk-amplifier"), "gtk-amplifier");
/// ```
pub fn without_entities(slug: &str) -> String {
    slug.split('-')
        .filter(|s| !ENTITY_WORDS.contains(s))
        .collect::<Vec<_>>()
        .join("-")
}

/// Whether `want` is one of `anchors` with its runs of `-` collapsed: GitHub slugs
/// "WebRTC + sideband" as `webrtc--sideband`, Python-Markdown (MkDocs), Hugo and most site
/// generators as `webrtc-sideband`. Which renderer a page is read with is not in the tree
/// (a site built elsewhere), so either form is taken.
///
/// ```
/// use hygiene::scan::detectors::missing_anchor::collapsed_match;
/// let anchors = std::collections::HashSet::from(["browser-webrtc--server-sideband".to_string()]);
/// assert!(collapsed_match(&anchors, "browser-webrtc-server-sideband"));
/// assert!(!collapsed_match(&anchors, "browser-webrtc"));
/// ```
pub fn collapsed_match(anchors: &HashSet<String>, want: &str) -> bool {
    let collapse = |s: &str| {
        let mut out = String::with_capacity(s.len());
        for c in s.chars() {
            if !(c == '-' && out.ends_with('-')) {
                out.push(c);
            }
        }
        out
    };
    let w = collapse(want);
    anchors.iter().any(|a| a.contains("--") && collapse(a) == w)
}

/// Whether `frag` names a heading of the page `text` by its path: the texts of the headings
/// above it from level 2 down, then its own, joined by `-`. svelte.dev's renderer writes such
/// ids, case kept: `### platformProxy` under `## Options` is `#Options-platformProxy`. Asked
/// only for a fragment with a capital letter (GitHub's and the site generators' slugs are
/// lowercase, so such a fragment was written for a renderer that keeps case), compared by
/// letters and digits ([`loose`]).
///
/// ```
/// use hygiene::scan::detectors::missing_anchor::heading_path;
/// let page = "# Adapter\n\n## Options\n\n### platformProxy\n\n## Usage\n\n```sh\n## Fake\n```\n";
/// assert!(heading_path(page, "Options-platformProxy"));
/// assert!(!heading_path(page, "Usage-platformProxy") && !heading_path(page, "Usage-Fake"));
/// assert!(!heading_path(page, "Options")); // one heading is its own slug, checked before
/// ```
pub fn heading_path(text: &str, frag: &str) -> bool {
    let want = loose(frag);
    if want.is_empty() {
        return false;
    }
    let fences = crate::scan::markdown::fence_lines(text);
    // (level, the heading's letters and digits) of the headings above the current line.
    let mut stack: Vec<(usize, String)> = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if crate::scan::markdown::in_fences(&fences, i as u32 + 1) {
            continue;
        }
        let t = line.trim_start();
        let level = t.bytes().take_while(|&b| b == b'#').count();
        if !(2..=6).contains(&level) || !t[level..].starts_with([' ', '\t']) {
            continue;
        }
        stack.retain(|(l, _)| *l < level);
        stack.push((level, loose(t[level..].trim().trim_end_matches('#'))));
        if stack.len() >= 2 && stack.iter().map(|(_, s)| s.as_str()).collect::<String>() == want {
            return true;
        }
    }
    false
}

/// Words that open a fill-in template's bracketed instruction to its user ("[CONTINUE WITH
/// SECTIONS 5-8 FOLLOWING THE SAME PATTERN]", "[REPEAT: one row per threat]"). Published as
/// `scanner.fill_in_words`.
pub const FILL_IN_WORDS: &[&str] = &["CONTINUE", "REPEAT", "FILL", "INSERT", "EXPAND"];

/// Whether `text` holds a line that is a fill-in instruction ([`FILL_IN_WORDS`] in capitals
/// after a `[`): the page is a template whose user writes the sections it leaves out, so its
/// table of contents may point at headings the template does not have yet.
///
/// ```
/// use hygiene::scan::detectors::missing_anchor::fill_in_template;
/// assert!(fill_in_template("## 4. Scope\n\n[CONTINUE WITH SECTIONS 5-8 FOLLOWING THE SAME PATTERN]\n"));
/// assert!(fill_in_template("| a |\n[REPEAT: one row per threat]\n"));
/// assert!(!fill_in_template("See [Continue reading](#more).\n[continue]\n"));
/// ```
pub fn fill_in_template(text: &str) -> bool {
    text.lines().any(|l| {
        let l = l.trim().trim_start_matches(['*', '_']);
        l.strip_prefix('[').is_some_and(|rest| {
            FILL_IN_WORDS.iter().any(|w| {
                rest.strip_prefix(w)
                    .is_some_and(|after| after.starts_with([' ', ':', ']', '-']))
            }) && l.trim_end_matches(['*', '_']).ends_with(']')
        })
    })
}

fn is_markdown(path: &str) -> bool {
    extension(path).is_some_and(|e| {
        matches!(
            e.to_ascii_lowercase().as_str(),
            "md" | "markdown" | "mdx" | "mdc"
        )
    })
}

fn anchors_of(ctx: &TreeCtx<'_>, path: &str) -> Option<std::sync::Arc<HashSet<String>>> {
    let mut cache = ctx.anchor_cache.lock().ok()?;
    if let Some(known) = cache.get(path) {
        return known.clone();
    }
    cache
        .entry(path.to_string())
        .or_insert_with(|| {
            let list = match ctx.doc_index(path) {
                Some(i) if ctx.docs[i].parsed.includes_content => return None,
                Some(i) => ctx.docs[i].parsed.anchors.clone(),
                None => {
                    let full = ctx.tree.read_path(path)?;
                    let meta = std::fs::metadata(&full).ok()?;
                    if !meta.is_file() || meta.len() > crate::scan::THRESHOLDS.file_size_cap_bytes {
                        return None;
                    }
                    let text = String::from_utf8(std::fs::read(&full).ok()?).ok()?;
                    let parsed = parse(strip_bom(&text));
                    if parsed.includes_content {
                        return None;
                    }
                    parsed.anchors
                }
            };
            Some(std::sync::Arc::new(list.into_iter().collect()))
        })
        .clone()
}

impl Detector for MissingAnchor {
    fn kind(&self) -> &'static str {
        "missing-anchor"
    }

    fn reads_tree(&self) -> bool {
        true
    }

    fn on_tree(&self, doc: &Doc, ctx: &TreeCtx<'_>) -> Vec<Finding> {
        let mut out = Vec::new();
        // Per finding, whether its fragment is into the document itself.
        let mut own = Vec::new();
        // A test's input or a benchmark's saved page keeps its source's anchors.
        if super::missing_path::test_input(doc) {
            return out;
        }
        for (r, t) in doc.resolved() {
            let Target::Found {
                path: Some(path),
                fragment: Some(frag),
            } = t
            else {
                continue;
            };
            if frag.is_empty() || is_line_fragment(frag) || !is_markdown(path) {
                continue;
            }
            let Some(anchors) = anchors_of(ctx, path) else {
                continue;
            };
            let want = frag.to_lowercase();
            // A site generator slugs headings its own way (`conf.d` → `conf-d`, `CI/CD` →
            // `ci-cd`, a leading `_` dropped): into a site's page, a fragment matches a heading
            // when their letters and digits agree.
            // A fragment with punctuation GitHub never keeps (`#using-scoped-(non-global)-store`,
            // `#i’ve-updated-the-state,-but`) is written for a renderer that keeps it (lowercase,
            // spaces to `-`): its letters and digits name the heading.
            let site = ctx.tree.sites().of(path);
            let in_site = site.is_some() || ctx.tree.sites().in_navigation_folder(path);
            let fold = site.is_some_and(|(_, r)| ACCENT_FOLDING_GENERATORS.contains(&r.generator));
            let by_letters = in_site || want.contains(PUNCTUATION_KEPT_ELSEWHERE);
            let found = anchors.contains(&want)
                || collapsed_match(&anchors, &want)
                || (ctx.labels.contains(&want) && in_site)
                || (by_letters && {
                    let slug = if fold { folded } else { loose };
                    let w = slug(&want);
                    let bare = slug(&without_entities(&want));
                    anchors.iter().any(|a| {
                        let a = slug(a);
                        a == w || a == bare
                    })
                });
            // A case-keeping renderer's heading path (svelte.dev's `#Options-platformProxy`).
            let found = found
                || (frag.bytes().any(|b| b.is_ascii_uppercase())
                    && ctx
                        .tree
                        .read_bytes(path)
                        .is_some_and(|b| heading_path(&String::from_utf8_lossy(&b), frag)));
            if !found {
                own.push(*path == doc.path);
                out.push(
                    Signal::MissingAnchor {
                        line: r.line,
                        reference: r.dest.clone(),
                    }
                    .into(),
                );
            }
        }
        // A fill-in template's table of contents names the sections its user is to write.
        if own.iter().any(|o| *o)
            && ctx
                .tree
                .read_bytes(&doc.path)
                .is_some_and(|b| fill_in_template(&String::from_utf8_lossy(&b)))
        {
            let mut own = own.into_iter();
            out.retain(|_| !own.next().unwrap_or(false));
        }
        // So does a copied page a program beside it reads as its input.
        if !out.is_empty()
            && super::missing_path::read_by_a_program(&ctx.tree.root, ctx.tree, &doc.path)
        {
            out.clear();
        }
        out
    }
}
