//! `missing-path`: a link, backticked path or `@import` resolves to no file in the tree. Git
//! history says what became of it: the final existing name after renames (`renamed_to`, which
//! also yields a `replace-text` suggestion) or the commit that deleted it (`deleted_in`).
//!
//! Links and imports are explicit references and always checked. A backticked path is often an
//! example (`docs/plans/<name>.md`-style prose), so it is reported only when git history knows
//! the path or its folder exists: then it names this repository's layout and is wrong.

use super::{Detector, Doc, Finding, TreeCtx};
use crate::report::{
    Anchor, Category, DeletedIn, EditKind, ExactEdit, LineRange, Signal, StaleSubtype, Suggestion,
};
use crate::scan::refs::{write_like, Target};

/// How many rooted links into folders the repository does not have make a document a copy of
/// another site's pages (an `llms.txt` index, a copied docs page).
pub const FOREIGN_ROUTES_MIN: usize = 3;

/// Whether a link is rooted, outside a docs site, in a `.md` document, and starts with a folder
/// the tree does not have (GitHub would resolve it from the repository's root).
fn foreign_route(
    doc: &Doc,
    ctx: &TreeCtx<'_>,
    r: &crate::scan::markdown::Ref,
    written: &str,
) -> bool {
    rooted_outside_site(doc, ctx, r, written)
        && crate::scan::markdown::extension(&doc.path) != Some("mdx")
        && ctx.tree.unknown_top(written.trim_start_matches('/'), true)
}

/// Whether `r` is a link, `written` rooted at `/`, in a document no docs site claims: GitHub
/// would resolve it from the repository's root.
fn rooted_outside_site(
    doc: &Doc,
    ctx: &TreeCtx<'_>,
    r: &crate::scan::markdown::Ref,
    written: &str,
) -> bool {
    r.via == crate::report::Via::Link
        && written.starts_with('/')
        && ctx.tree.sites().of(&doc.path).is_none()
}

/// Whether a link is rooted, outside a docs site, in a `.md` document, and its first segment
/// (`/book`, `/assets/...`) names nothing in the tree.
fn site_section(
    doc: &Doc,
    ctx: &TreeCtx<'_>,
    r: &crate::scan::markdown::Ref,
    written: &str,
) -> bool {
    rooted_outside_site(doc, ctx, r, written)
        && crate::scan::markdown::extension(&doc.path) == Some("md")
        && ctx.tree.unknown_top(written.trim_start_matches('/'), false)
}

/// Whether rooted `written` names a page of the tree from a folder between (`/cli/mcp` for
/// `docs/go/cli/mcp.md`): its last two segments (with a page extension when it has none) end a
/// file. Such a route is this site's, broken, not another section's.
fn page_from_between(ctx: &TreeCtx<'_>, written: &str) -> bool {
    let w = written.trim_matches('/');
    let tail = match w.rsplitn(3, '/').collect::<Vec<_>>().as_slice() {
        [name, dir, ..] => format!("{dir}/{name}"),
        [name] => (*name).to_string(),
        _ => return false,
    };
    if crate::scan::markdown::extension(&tail).is_some() {
        return ctx.tree.tail_count(&tail) > 0;
    }
    crate::scan::sites::PAGE_EXTENSIONS
        .iter()
        .any(|e| ctx.tree.tail_count(&format!("{tail}.{e}")) > 0)
}

/// Whether `doc` links a page by route: a rooted link without an extension that names a page
/// only when read as a route (`/docs/go/cli/mcp` for `docs/go/cli/mcp.md`), which GitHub, where
/// `/x` is the repository's root, would not find.
fn links_by_route(doc: &Doc) -> bool {
    doc.resolved().any(|(r, t)| {
        let written = crate::scan::refs::split(&r.dest).written;
        r.via == crate::report::Via::Link
            && written.starts_with('/')
            && crate::scan::markdown::extension(written).is_none()
            && matches!(t, Target::Found { path: Some(p), .. }
                if p.as_str() != written.trim_matches('/'))
    })
}

/// Whether root-relative `doc` lies in a skill folder (`<dir>/.<agent>/skills/<name>/...`)
/// beside a [`crate::roles::SKILLS_LOCK`]: a skill the lock's installer copied in (the role
/// decider has checked that the lock lists it).
fn installed_skill(ctx: &TreeCtx<'_>, doc: &str) -> bool {
    crate::roles::skill_places(doc).any(|(dir, _)| {
        ctx.tree
            .has_file(&format!("{dir}{}", crate::roles::SKILLS_LOCK))
    })
}

/// Whether the folder a root-relative path names its file in exists.
fn in_a_folder(ctx: &TreeCtx<'_>, path: &str) -> bool {
    path.rsplit_once('/')
        .is_some_and(|(parent, _)| ctx.tree.exists(parent))
}

/// How many of a document's missing links are [`foreign_route`]s.
fn foreign_routes(doc: &Doc, ctx: &TreeCtx<'_>) -> usize {
    doc.resolved()
        .filter(|(r, t)| match t {
            Target::Missing { written, .. } => foreign_route(doc, ctx, r, written),
            // A route to another section of the site a numbered collection is published by
            // (`/tutorial/kit`, not checked) is one of that site's routes all the same.
            Target::Skip => {
                let written =
                    crate::scan::refs::percent_decode(crate::scan::refs::split(&r.dest).written);
                foreign_route(doc, ctx, r, &written)
                    && crate::scan::sites::outside_collection(ctx.tree, &doc.path, &written)
            }
            _ => false,
        })
        .count()
}

/// Whether `written` (backticked in site page `doc`) is a path a code block on a page of the
/// same site is titled with, or a folder holding one ([`super::titled_on_sites`]); with
/// `beside`, also a path in the folder of one.
fn titled_on_site(ctx: &TreeCtx<'_>, doc: &Doc, written: &str, beside: bool) -> bool {
    if ctx.titled.is_empty() {
        return false;
    }
    let Some((root, _)) = ctx.tree.sites().of(&doc.path) else {
        return false;
    };
    let path = written.trim_start_matches("./").trim_end_matches('/');
    let under = |folder: &str, direct: bool| {
        let key = format!("{root}\0{folder}");
        ctx.titled
            .range(key.clone()..)
            .take_while(|t| t.starts_with(&key))
            .any(|t| {
                let rest = &t[key.len()..];
                if direct {
                    rest.strip_prefix('/').is_some_and(|r| !r.contains('/'))
                } else {
                    rest.is_empty() || rest.starts_with('/')
                }
            })
    };
    under(path, false)
        || (beside
            && path
                .rsplit_once('/')
                .is_some_and(|(parent, _)| under(parent, true)))
}

/// The detector.
pub struct MissingPath;

/// The text of root-relative document `doc`, read again (only for a document with a missing
/// reference, once: the scan does not keep every document's text).
fn text_of(ctx: &TreeCtx<'_>, doc: &str) -> Option<String> {
    String::from_utf8(ctx.tree.read_bytes(doc)?).ok()
}

/// Line `line` (1-based) of `text`, with the line before it in front when the path opens the
/// line (a paragraph wrapped right before it: "... will land under\n`src/x/`."), so that the
/// clause before the path is read whole.
///
/// ```
/// use hygiene::scan::detectors::missing_path::sentence_of;
/// assert_eq!(sentence_of("It will land under\n`src/x/`.\n", 2, "src/x/"), "It will land under `src/x/`.");
/// assert_eq!(sentence_of("# T\n\nSee `src/x/`.\n", 3, "src/x/"), "See `src/x/`.");
/// assert_eq!(sentence_of("- Create `a.md`\n- `b.md`\n", 2, "b.md"), "- `b.md`");
/// assert_eq!(sentence_of("No README; `a/README.md` and\nsimilar paths do not exist.\n", 1, "a/README.md"), "No README; `a/README.md` and similar paths do not exist.");
/// assert_eq!(sentence_of("See `a.md`.\nThen more.\n", 1, "a.md"), "See `a.md`.");
/// // A list item's wrapped line is read with the item.
/// assert_eq!(sentence_of("- Delete whole: `a.ts`,\n  `b.ts`, `c/` (tree).\n", 2, "c/"), "- Delete whole: `a.ts`, `b.ts`, `c/` (tree).");
/// assert_eq!(sentence_of("Intro:\n\n  `c/` here.\n", 3, "c/"), "  `c/` here.");
/// ```
pub fn sentence_of(text: &str, line: u32, written: &str) -> String {
    sentence_of_at(&Layout::of(text), line, written, true)
}

/// [`sentence_of`] on a document's [`Layout`], found once for all its references.
///
/// With `item`, a list item's wrapped line is read from the item's first line; a link's
/// sentence is not (the words of the item's first line, "in your", are not about a link's
/// target, which is always this tree's).
fn sentence_of_at(layout: &Layout<'_>, line: u32, written: &str, item: bool) -> String {
    let lines = &layout.lines;
    let i = (line as usize).saturating_sub(1);
    let here = lines.get(i).copied().unwrap_or("");
    // Only a paragraph's wrapped line: a list item, a table row or a heading starts anew.
    let t = here.trim_start();
    let starts_anew = starts_anew(t);
    let opens = !starts_anew && t.trim_start_matches(['`', '[', '(']).starts_with(written);
    // A list item's wrapped line: the item is read from its first line ("- Delete whole:
    // `a`,\n  `b`, `c/`").
    let item_from = (item && !starts_anew && t.len() < here.len())
        .then(|| item_start(lines, i))
        .flatten();
    let mut out = match (
        item_from,
        opens,
        i.checked_sub(1).and_then(|j| lines.get(j)),
    ) {
        (Some(from), _, _) => lines[from..=i]
            .iter()
            .map(|l| l.trim())
            .collect::<Vec<_>>()
            .join(" "),
        (None, true, Some(prev)) if !prev.trim().is_empty() => {
            format!("{} {}", prev.trim_end(), here.trim_start())
        }
        _ => here.to_string(),
    };
    // A sentence the line leaves open goes on in the paragraph's next line ("`a/README.md` and
    // similar paths\ndo not exist."): that line is read with it.
    let open_end = !here.trim_end().ends_with(['.', ':', '!', '?', '|', ')']);
    if let Some(next) = lines.get(i + 1).map(|n| n.trim()).filter(|n| {
        open_end
            && !n.is_empty()
            && !n.starts_with(['-', '*', '+', '|', '#', '>', '`', '<'])
            && !n
                .split_once(". ")
                .is_some_and(|(k, _)| !k.is_empty() && k.bytes().all(|b| b.is_ascii_digit()))
    }) {
        out = format!("{} {next}", out.trim_end());
    }
    out
}

/// Whether trimmed line `t` starts a block of its own: a list item, a table row, a heading, a
/// quote.
fn starts_anew(t: &str) -> bool {
    t.starts_with(['-', '*', '+', '|', '#', '>'])
        || t.split_once(". ")
            .is_some_and(|(n, _)| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
}

/// The index of the list item's first line that indented line `i` of `lines` wraps, when every
/// line between is one of its wrapped lines too (at most [`ITEM_WRAP_MAX`] lines up).
fn item_start(lines: &[&str], i: usize) -> Option<usize> {
    (i.saturating_sub(ITEM_WRAP_MAX)..i).rev().find_map(|j| {
        let l = lines[j];
        let t = l.trim_start();
        if t.is_empty() {
            return Some(None);
        }
        if starts_anew(t) {
            let numbered = t
                .split_once(['.', ')'])
                .is_some_and(|(n, _)| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()));
            let item = ["- ", "* ", "+ "].iter().any(|m| t.starts_with(m)) || numbered;
            return Some(item.then_some(j));
        }
        // Not indented: a paragraph's line, not an item's.
        (t.len() == l.len()).then_some(None)
    })?
}

/// How many lines up a wrapped line is read back to its list item's first line.
const ITEM_WRAP_MAX: usize = 8;

/// The `replace-text` edit that points a reference at the file's new name.
pub fn rename_suggestion(line: u32, written: &str, replacement: String) -> Suggestion {
    Suggestion {
        category: Category::Stale {
            subtype: StaleSubtype::Orphaned,
        },
        op: format!(
            "Replace the reference `{written}` with `{replacement}`, the name git history renamed it to."
        ),
        exact_edit: ExactEdit {
            kind: EditKind::ReplaceText,
            anchor: Some(Anchor::Lines(LineRange {
                start_line: line,
                end_line: line,
            })),
            match_text: Some(written.to_string()),
            replacement: Some(replacement),
            ..crate::kinds::empty_edit(EditKind::ReplaceText)
        },
    }
}

/// Whether a bare file name names a kind of file: at least
/// `THRESHOLDS.generic_name_min_files` files of the tree carry it.
fn generic(ctx: &TreeCtx<'_>, name: &str) -> bool {
    let min = crate::scan::THRESHOLDS.generic_name_min_files as usize;
    ctx.tree.basenames.contains(name)
        && ctx
            .tree
            .files
            .iter()
            .filter(|f| f.rsplit('/').next() == Some(name))
            .take(min)
            .count()
            >= min
}

/// Whether `doc` is the README of a package ([`crate::scan::refs::is_package_root`]), which
/// its users read.
fn package_readme(ctx: &TreeCtx<'_>, doc: &Doc) -> bool {
    let name = doc.path.rsplit('/').next().unwrap_or(&doc.path);
    name.eq_ignore_ascii_case("README.md")
        && crate::scan::refs::is_package_root(ctx.tree, crate::scan::refs::folder(&doc.path))
}

/// Whether git moved the file `written` names, whole, under a folder that also holds `doc`,
/// and the path starts in a project's dot-folder (`.simone/MANIFEST.md` to
/// `legacy/.simone/MANIFEST.md`, named from `legacy/.claude/commands/x.md`): that folder is
/// now the root of a project the document is installed in, and the document speaks from it.
/// A source path moved so (`packages/core/a.ts` into `ts/`, named from `ts/docs/`) is still
/// read from the repository's root: judged so on composio and pnpm.
///
/// ```
/// # use hygiene::scan::detectors::missing_path::rerooted_path;
/// assert!(rerooted_path("legacy/.claude/commands/x.md", ".simone/M.md", "legacy/.simone/M.md"));
/// assert!(!rerooted_path("README.md", ".simone/M.md", "legacy/.simone/M.md"));
/// assert!(!rerooted_path("src/legacy/CLAUDE.md", "src/app/graph.py", "src/legacy/graph.py"));
/// assert!(!rerooted_path("ts/docs/triggers.md", "packages/core/a.ts", "ts/packages/core/a.ts"));
/// ```
pub fn rerooted_path(doc: &str, written: &str, to: &str) -> bool {
    let w = written.trim_start_matches("./").trim_start_matches('/');
    w.starts_with('.')
        && !w.starts_with("..")
        && to
            .strip_suffix(w)
            .filter(|prefix| prefix.ends_with('/'))
            .is_some_and(|prefix| doc.starts_with(prefix))
}

/// Whether a path in code names a file of the project a template generates: it is there under
/// a template folder (`src/client/App.tsx` as `template/app/src/client/App.tsx`), or a
/// generator's template of it is (`src/provider.ts` as
/// `generators/provider/files/src/provider.ts.template`: voltagent's "Generated Files
/// Overview"). A template repository's guides speak to that project, from its root; a bare
/// name (`package.json`, which every template has) says too little to tell.
fn in_project_template(ctx: &TreeCtx<'_>, written: &str) -> bool {
    let w = written.trim_start_matches("./").trim_end_matches('/');
    if w.starts_with(['/', '.']) || !w.contains('/') {
        return false;
    }
    ctx.tree.template_roots().iter().any(|t| {
        ctx.tree.exists(&format!("{t}/{w}"))
            || crate::scan::refs::TEMPLATE_SUFFIXES
                .iter()
                .any(|s| ctx.tree.exists(&format!("{t}/{w}{s}")))
    })
}

/// Whether a short relative path (`src/index.ts`: one folder and a name) ends at least
/// `THRESHOLDS.generic_name_min_files` paths of the tree: a kind of file each package has.
fn generic_path(ctx: &TreeCtx<'_>, written: &str) -> bool {
    let w = written.trim_start_matches("./");
    if w.starts_with('/') || w.matches('/').count() != 1 || w.ends_with('/') {
        return false;
    }
    ctx.tree.tail_count(w) >= crate::scan::THRESHOLDS.generic_name_min_files
}

/// Words on a reference's line that make its path something other than this repository's
/// claim, with why. The words are matched, lowercase, in the clause before the path (`before`:
/// the reader's project, an intention), right after it (`after`: "(auto-generated)") or
/// anywhere on the line (`line`: a table cell that plans the file, a recorded removal).
/// Published as `scanner.missing_path_line_cues`.
pub const LINE_CUES: &[LineCue] = &[
    LineCue {
        cue: "the reader's project",
        at: CueAt::Before,
        words: &[
            "your ",
            "you'll ",
            "the user's ",
            "after adding ",
            // "Place this at `scripts/generate-hero-images.ts`": the reader's file to make.
            "place this at ",
            "save this as ",
            "save it as ",
        ],
    },
    LineCue {
        cue: "an intention",
        at: CueAt::Before,
        words: &[
            "create ",
            "create:",
            "file named",
            "file called",
            "will add",
            // "... will be documented separately in `docs/oss/upgrade-policy.md`".
            "will be documented",
            "will be written",
            "to be written",
            "will land",
            "will live",
            "into a ",
            "write `",
            "generate `",
            "draft `",
            "todo:",
            // "Paste the code block into `scripts/code-output.txt`": the paste makes it.
            "paste ",
        ],
    },
    LineCue {
        cue: "an intention",
        at: CueAt::Start,
        words: &["delete", "remove", "rename", "move", "copy", "add"],
    },
    LineCue {
        cue: "an intention",
        at: CueAt::Line,
        words: &[
            "| create",
            "| add |",
            "| new |",
            "would be helpful",
            "would help",
        ],
    },
    LineCue {
        cue: "an example",
        at: CueAt::Before,
        words: &[
            "e.g.",
            "for example",
            "for instance",
            " like ",
            "such as ",
            "might have ",
            "might contain ",
            "could have ",
            "could contain ",
            // "(like an `app/providers.tsx` file)": right before the path, not a parenthesis
            // closed before it nor one naming packages by link ("(like [shell](../shell))").
            "(like a `",
            "(like an `",
            "(such as a `",
            "(such as an `",
            // The same in a translated page: "（例如 `ko/get_started/introduction.mdx`）".
            "例如",
            "比如",
            "例えば",
            "たとえば",
            "예를 들어",
            "z. b.",
            "z.b.",
            "par exemple",
            "por ejemplo",
        ],
    },
    LineCue {
        cue: "a denial",
        at: CueAt::Before,
        words: &[
            "not a ",
            "not an ",
            "isn't a ",
            "isn't an ",
            "there is no ",
            "there's no ",
            "there are no ",
            "instead of ",
            "rather than ",
            "not add a ",
            "not add an ",
            "n't add a ",
            "n't add an ",
            "never add a ",
            "never add an ",
            // "Do not add `src/targets/kimi.ts`": the text forbids the file.
            "not add `",
            "n't add `",
            "never add `",
            "not create `",
            "n't create `",
            "never create `",
            // "The registry does not have a separate `src/sync/` layer": what it lacks.
            "does not have a ",
            "does not have an ",
            "doesn't have a ",
            "doesn't have an ",
        ],
    },
    LineCue {
        cue: "its absence is expected",
        at: CueAt::Line,
        words: &[
            "if still present",
            "if present",
            "if it exists",
            "(if exists)",
            "if any)",
            "if it doesn't exist",
            "if it does not exist",
            "if they don't exist",
            "if they do not exist",
            "if missing",
            "if not present",
            // "The restore script (`scripts/restore.sh`) needs to be created."
            "needs to be created",
            "need to be created",
            "yet to be created",
            // "(in eval-test copy, not tracked in main repo)": a local checkout's file.
            "not tracked in",
            "not checked in",
            "not created yet",
            "not yet created",
            "do not exist",
            "does not exist",
            // "... so the `a.yml` + `b.yml` YAMLs are intentionally absent from `config/`".
            "intentionally absent",
            "deliberately absent",
            "don't exist",
            "doesn't exist",
        ],
    },
    // "You will need to update the `docs/config.json` file (in the project's repo)": the
    // line says whose repository it is (boilerplate copied from tanstack.com's contributing
    // guide into router's examples, about the library being documented).
    LineCue {
        cue: "another repository",
        at: CueAt::Line,
        words: &[
            "(in the project's repo",
            "in another repo",
            "in the other repo",
        ],
    },
    // A path in a clause that begins with a condition on it ("If `docs/a.md` or `docs/b.md`
    // exist, append to it"; "If `dbSetup=docker`, a file is added in `apps/server/`").
    LineCue {
        cue: "its absence is expected",
        at: CueAt::Before,
        words: &["if `"],
    },
    LineCue {
        cue: "an output",
        at: CueAt::Before,
        words: &[
            "generates ",
            "writes to ",
            "saves to ",
            "saved to ",
            "outputs to ",
            "written to ",
            "produces ",
            // "This creates `tests/expt_results/run.jsonl`", "AI Agent creates `tests/a.ts`:".
            "creates `",
            // "- Inference outputs: `planning/database_infered/`".
            "outputs: ",
        ],
    },
    // "- [x] File: `cmd/catalog/catalog.go`", "| `run/utils.py` | Refactor | ✅ Done |": work
    // the text records as done, on the file as it was then. Only where history knew the path
    // here: a done item naming a file the tree never had is a claim. Not "✅ Complete", a
    // feature's status in a living table ("✅ Complete - Available at `docs/deploy.md`").
    LineCue {
        cue: DONE_RECORDED,
        at: CueAt::Line,
        words: &["[x] ", "\u{2705} done", "\u{2705} completed"],
    },
    // "- Files created: `src/models/Book.ts`, `src/app.ts`": what a run made. A claim when
    // history knew the path here: a work log's record of this repository's files.
    LineCue {
        cue: RUN_CREATES,
        at: CueAt::Before,
        words: &[
            "files created:",
            "created files:",
            "tests written:",
            "files written:",
        ],
    },
    LineCue {
        cue: "an output",
        at: CueAt::After,
        words: &[
            "(auto-generated",
            "(generated",
            "(created by",
            "(written by",
            "(output",
        ],
    },
    LineCue {
        cue: "an intention",
        at: CueAt::After,
        words: &[
            "(new)",
            "(new file)",
            "(new folder)",
            "(new package)",
            "(new;",
            "(new,",
            "(new:",
            // "`test/re-export.test.ts` (new — named-export parity)": a dispatch brief's file
            // to write, with its note.
            "(new \u{2014}",
            "(new \u{2013}",
            "(new - ",
        ],
    },
    // A plan's file list marks what it will take away: "- `src/exports/index.ts` (delete)",
    // "`mongo/src/exports/index.ts` — delete (the barrel is going away)". Not "— deletes
    // stale branches", which says what the file does.
    LineCue {
        cue: "an intention",
        at: CueAt::After,
        words: &[
            "(delete)",
            "(remove)",
            "(to delete)",
            "(to remove)",
            "(to be deleted)",
            "(to be removed)",
            "\u{2014} delete ",
            "\u{2014} delete.",
            "\u{2014} remove ",
            "\u{2014} remove.",
        ],
    },
    // A file still to write, said anywhere on its line: "- `references/budget.md` - Budget
    // development (coming soon)".
    LineCue {
        cue: "an intention",
        at: CueAt::Line,
        words: &["(coming soon", "(planned"],
    },
    LineCue {
        cue: "an example",
        at: CueAt::After,
        words: &["(or wherever", "or wherever"],
    },
    // "- In `travelplanning/database/`: put `database_en.zip`": a folder the reader fills with
    // files they fetch.
    LineCue {
        cue: "the reader's project",
        at: CueAt::After,
        words: &[": put ", ": place "],
    },
    LineCue {
        cue: "the removal is recorded",
        at: CueAt::Line,
        words: &[
            "was removed",
            "were removed",
            "is removed",
            "are removed",
            "is deleted",
            "are deleted",
            "has been removed",
            "have been removed",
            "was deleted",
            "has been deleted",
            "was replaced",
            "has been replaced",
            "was retired",
            "has been retired",
            "no longer exists",
            "no longer exist",
            "removed in ",
        ],
    },
    LineCue {
        cue: "the removal is recorded",
        at: CueAt::After,
        words: &[
            "\u{2014} deleted",
            "\u{2014} removed",
            "- deleted",
            "- removed",
            "(deleted)",
            "(removed)",
            // "`wip/2025-cf.md` (deleted 2026-07-16; its content moved to ...)".
            "(deleted ",
            "(removed ",
        ],
    },
    LineCue {
        cue: "the removal is recorded",
        at: CueAt::Before,
        words: &[
            "this removes ",
            "this deletes ",
            "which removes ",
            "which deletes ",
            "old:",
            "old location",
            "old path",
            "the deleted ",
            "deleted `",
            "the removed ",
            "supersedes",
            "replaces ",
            // "This example previously used `mcp.json`": what it was.
            "previously used ",
            "formerly ",
        ],
    },
];

/// Words that may stand between a [`CueAt::Start`] verb and its path: articles, what the path
/// is, and other paths' separators ("Remove the empty `x/` directory", "Delete `a`, `b` and
/// `c`").
pub const START_OBJECT_WORDS: &[&str] = &[
    "the",
    "a",
    "an",
    "and",
    "or",
    "file",
    "files",
    "folder",
    "folders",
    "directory",
    "directories",
    "dir",
    "empty",
    "old",
    "obsolete",
    "unused",
    "legacy",
    "stale",
    "generated",
    "whole",
    "entire",
    "entirely",
];

/// The cue of a path in an item the text marks done ("- [x] ...", "✅ Done"): the file as the
/// work found it, when history knew it here.
pub const DONE_RECORDED: &str = "done work is recorded";

/// The cue of a path a run creates ("Files created:", "**Expected Output**:"): in the reader's
/// project unless history knew the path in this tree.
pub const RUN_CREATES: &str = "what a run creates";

/// Where a [`LineCue`]'s words are looked for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum CueAt {
    /// In the clause before the path.
    Before,
    /// Right after the path (its closing backtick and spaces skipped).
    After,
    /// Anywhere on the line.
    Line,
    /// As the first word of the step that holds the path (its clause, after any label that
    /// ends in a colon, list markers and emphasis skipped), with the path its object ("Delete
    /// `a`", "Remove the file `a`") or, for a move or a copy, where it goes ("1. Rename `a` to
    /// `b`"; a copy's source is no intention):
    /// not "deleted", "Don't delete", nor the file a step edits ("Remove the import from `a`").
    Start,
}

/// One row of [`LINE_CUES`].
#[derive(Debug, Clone, Copy, serde::Serialize, schemars::JsonSchema)]
pub struct LineCue {
    /// What the words say about the path.
    pub cue: &'static str,
    /// Where the words are matched.
    pub at: CueAt,
    /// The words, lowercase.
    pub words: &'static [&'static str],
}

/// Labels that make a line (or list item) an example: "✅ **Right**: `tests/auth.test.js`",
/// "❌ Wrong: ...": the line's first word, right before a colon that comes before the path. A
/// line whose first word starts with "example" needs only a colon before the path ("**Example
/// usage**: `a.md`"). Published as `scanner.missing_path_example_labels`.
pub const EXAMPLE_LABELS: &[&str] = &[
    "right",
    "wrong",
    "good",
    "bad",
    "correct",
    "incorrect",
    "avoid",
];

/// The cue of `line` for the path `written`, if any.
///
/// ```
/// use hygiene::scan::detectors::missing_path::{line_cue, RUN_CREATES};
/// assert_eq!(line_cue("Add it to your project's `.mcp.json`:", ".mcp.json"), Some("the reader's project"));
/// assert_eq!(line_cue("Add a file named `disclosure.txt` to the PR", "disclosure.txt"), Some("an intention"));
/// assert_eq!(line_cue("The engine (`internal/merge/`) was removed in the migration.", "internal/merge/"), Some("the removal is recorded"));
/// assert_eq!(line_cue("update the `docs/config.json` file (in the project's repo) if you add a page!", "docs/config.json"), Some("another repository"));
/// assert_eq!(line_cue("The registry does not have a separate `src/sync/` layer.", "src/sync/"), Some("a denial"));
/// assert_eq!(line_cue("so the `probes/daily.yml` YAML is intentionally absent from `probes/`.", "probes/daily.yml"), Some("its absence is expected"));
/// assert_eq!(line_cue("Link the ADR, e.g. `docs/adr/0001-x.md`.", "docs/adr/0001-x.md"), Some("an example"));
/// assert_eq!(line_cue("esbuild writes paths like `../src/main.ts` into the map.", "../src/main.ts"), Some("an example"));
/// assert_eq!(line_cue("- **Examples**: `references/finance.md`, `references/mnda.md`", "references/mnda.md"), Some("an example"));
/// assert_eq!(line_cue("✅ **Right**: `tests/auth.test.js`, `scripts/deploy.sh`", "scripts/deploy.sh"), Some("an example"));
/// assert_eq!(line_cue("2. A `scripts/rotate.py` script would be helpful", "scripts/rotate.py"), Some("an intention"));
/// assert_eq!(line_cue("## 5. Write `release-notes.md`", "release-notes.md"), Some("an intention"));
/// assert_eq!(line_cue("**Location**: `docs/memory/contract.yaml` (auto-generated)", "docs/memory/contract.yaml"), Some("an output"));
/// assert_eq!(line_cue("| `scripts/tests/` | not a production `scripts/workflows/` tree |", "scripts/workflows/"), Some("a denial"));
/// assert_eq!(line_cue("There isn't a `src/icons/index.ts` file since", "src/icons/index.ts"), Some("a denial"));
/// assert_eq!(line_cue("Do not add a `tailwind.config.js`: v4 reads the CSS", "tailwind.config.js"), Some("a denial"));
/// assert_eq!(line_cue("2. **Directory**: `reports/refactor/` (create if it doesn't exist)", "reports/refactor/"), Some("its absence is expected"));
/// assert_eq!(line_cue("kept at `references/evidence/` (not created yet; add it later)", "references/evidence/"), Some("its absence is expected"));
/// assert_eq!(line_cue("The restore script (`scripts/restore.sh`) needs to be created.", "scripts/restore.sh"), Some("its absence is expected"));
/// assert_eq!(line_cue("| `internal/daytona/` (new) | Client |", "internal/daytona/"), Some("an intention"));
/// assert_eq!(line_cue("The flat `context/sync/` dir is removed.", "context/sync/"), Some("the removal is recorded"));
/// assert_eq!(line_cue("- Generates timestamped reports in `reports/refactor/` directory", "reports/refactor/"), Some("an output"));
/// assert_eq!(line_cue("- Files created: `src/models/Book.ts`, `src/app.ts`", "src/app.ts"), Some("what a run creates"));
/// assert_eq!(line_cue("  - [x] File: `cmd/catalog/catalog.go`", "cmd/catalog/catalog.go"), Some("done work is recorded"));
/// assert_eq!(line_cue("| `run/utils.py` | Refactor it | \u{2705} Done |", "run/utils.py"), Some("done work is recorded"));
/// assert_eq!(line_cue("1. `test_schema.py` - \u{2705} Passes", "test_schema.py"), None);
/// assert_eq!(line_cue("**Status:** \u{2705} Complete - Available at `docs/deploy.md`", "docs/deploy.md"), None);
/// assert_eq!(line_cue("- Python examples: See `scripts/query.py`", "scripts/query.py"), None);
/// assert_eq!(line_cue("`memory/surrealdb/` moved to `integrations/` (skip if still present)", "memory/surrealdb/"), Some("its absence is expected"));
/// assert_eq!(line_cue("- **Old:** `tasks/tasks.json`", "tasks/tasks.json"), Some("the removal is recorded"));
/// assert_eq!(line_cue("D5c moved `pkg/test/q.test.ts` to integration.", "pkg/test/q.test.ts"), Some("the removal is recorded"));
/// assert_eq!(line_cue("D5c moved `pkg/test/q.test.ts` to `test/q.test.ts`.", "test/q.test.ts"), None);
/// // A step that deletes, renames or moves a file: its absence afterwards is the plan.
/// assert_eq!(line_cue("  - Delete `src/public/index.html`", "src/public/index.html"), Some("an intention"));
/// assert_eq!(line_cue("- [x] 3. Rename `public/multi.html` to `index.html`", "public/multi.html"), Some("an intention"));
/// assert_eq!(line_cue("Step 2: **Move** `a/b.md` to `c/`", "a/b.md"), Some("an intention"));
/// assert_eq!(line_cue("- [ ] Add `cli/src/commands/migrate.ts` implementing the verb.", "cli/src/commands/migrate.ts"), Some("an intention"));
/// assert_eq!(line_cue("- `test/re-export.test.ts` (new; parity assertion)", "test/re-export.test.ts"), Some("an intention"));
/// assert_eq!(line_cue("- `test/re-export.test.ts` (new \u{2014} parity)", "test/re-export.test.ts"), Some("an intention"));
/// assert_eq!(line_cue("This example previously used `mcp.json` to wire servers.", "mcp.json"), Some("the removal is recorded"));
/// assert_eq!(line_cue("- **SAVE**: Paste the code block into `scripts/out.txt`.", "scripts/out.txt"), Some("an intention"));
/// assert_eq!(line_cue("Add the output of `scripts/gen.sh` to the list.", "scripts/gen.sh"), None);
/// assert_eq!(line_cue("Don't delete `src/config.ts`: the loader needs it.", "src/config.ts"), None);
/// assert_eq!(line_cue("Deleted files are listed in `docs/removed.md`.", "docs/removed.md"), None);
/// assert_eq!(line_cue("Remove the import from `src/index.ts`", "src/index.ts"), None);
/// assert_eq!(line_cue("- Rename `a.md` to `docs/b.md`", "docs/b.md"), Some("an intention"));
/// assert_eq!(line_cue("  **deletes** `plan-a.md`, `plan-b.md`; includes this", "plan-b.md"), Some("an intention"));
/// assert_eq!(line_cue("- [x] 2.2 Remove (or fold) `changes/old/` so one remains.", "changes/old/"), Some("an intention"));
/// // Not an intention: done work, recorded on the folder as it was (a claim unless history
/// // knew it here).
/// assert_eq!(line_cue("- [x] 2.2 Document `changes/old/`.", "changes/old/"), Some("done work is recorded"));
/// assert_eq!(line_cue("## 1. `schemas/planning/` \u{2014} DELETED", "schemas/planning/"), Some("the removal is recorded"));
/// assert_eq!(line_cue("via a migration in `src/db/Runner.ts` (or wherever migrations are defined)", "src/db/Runner.ts"), Some("an example"));
/// assert_eq!(line_cue("- Remove the empty `tests/wayland/` directory if it is still empty.", "tests/wayland/"), Some("an intention"));
/// assert_eq!(line_cue("3. Move the generated folders to `../libraries/`", "../libraries/"), Some("an intention"));
/// // A copy's destination is intended; its source is a claim.
/// assert_eq!(line_cue("1. Copy `rules/_template.md` to `rules/area-x.md`", "rules/area-x.md"), Some("an intention"));
/// assert_eq!(line_cue("1. Copy `rules/_template.md` to `rules/area-x.md`", "rules/_template.md"), None);
/// assert_eq!(line_cue("A deploy skill might have `docs/aws.md` and `docs/gcp.md`.", "docs/gcp.md"), Some("an example"));
/// assert_eq!(line_cue("1. If `docs/a-gotchas.md` or `docs/b-gotchas.md` exist, append", "docs/b-gotchas.md"), Some("its absence is expected"));
/// // Another clause's words are about another path.
/// assert_eq!(line_cue("Delete: `src/old.rs`. Keep: `src/new.rs`.", "src/new.rs"), None);
/// // A verb that labels the list: "Delete whole: `a`, `b`".
/// assert_eq!(line_cue("- Delete whole: `test/a.ts`, `test/b/` (tree),", "test/b/"), Some("an intention"));
/// assert_eq!(line_cue("- Files: `test/a.ts`, `test/b/`", "test/b/"), None);
/// // After the path, "your" is about something else; a path "(generated by `gen.py`)" names is not the output.
/// assert_eq!(line_cue("各语言镜像相同路径（例如 `ko/intro.mdx`）。", "ko/intro.mdx"), Some("an example"));
/// assert_eq!(line_cue("This creates `out/run.jsonl` to upload.", "out/run.jsonl"), Some("an output"));
/// assert_eq!(line_cue("a central spot (like an `app/providers.tsx` file)", "app/providers.tsx"), Some("an example"));
/// assert_eq!(line_cue("and `wip/cf.md` (deleted 2026-07-16)", "wip/cf.md"), Some("the removal is recorded"));
/// assert_eq!(line_cue("- **`wip/cf.md`** \u{2014} deleted. A proposal", "wip/cf.md"), Some("the removal is recorded"));
/// assert_eq!(line_cue("New values (like a new `Say` type) need updates in `src/conv.ts`", "src/conv.ts"), None);
/// assert_eq!(line_cue("It will be documented in `docs/policy.md` later.", "docs/policy.md"), Some("an intention"));
/// assert_eq!(line_cue("- In `data/db/`: put `db_en.zip`", "data/db/"), Some("the reader's project"));
/// assert_eq!(line_cue("- Tests written: `tests/a.test.ts`", "tests/a.test.ts"), Some(RUN_CREATES));
/// assert_eq!(line_cue("Place this at `scripts/gen.ts`. Before running: fill it in", "scripts/gen.ts"), Some("the reader's project"));
/// assert_eq!(line_cue("See `docs/setup.md` for your first run.", "docs/setup.md"), None);
/// assert_eq!(line_cue("`api.json` (generated by `scripts/gen.py`)", "scripts/gen.py"), None);
/// assert_eq!(line_cue("- Right-click `docs/setup.md`: opens it", "docs/setup.md"), None);
/// ```
pub fn line_cue(line: &str, written: &str) -> Option<&'static str> {
    // "e.g. " ends no clause (same length, so offsets hold).
    let lower = line
        .to_lowercase()
        .replace("e.g. ", "e.g.,")
        .replace("i.e. ", "i.e.,");
    let w = written.to_lowercase();
    let at = lower.find(&w).unwrap_or(lower.len());
    // Only the clause that holds the path: "Create: `a`. Delete: `b`." says nothing of `b`.
    let before = &lower[..at];
    let before = [". ", "; ", "| "]
        .iter()
        .filter_map(|sep| before.rfind(sep).map(|i| i + sep.len()))
        .max()
        .map_or(before, |i| &before[i..]);
    let after = lower
        .get(at + w.len()..)
        .unwrap_or("")
        // The path's emphasis closes too: "- **`wip/a.md`** — deleted."
        .trim_start_matches(['`', ' ', '*', '_']);
    // A line (or list item) labelled as an example: "**Examples**: `references/finance.md`".
    // Not "Python examples: see `scripts/query.py`", which says where the examples are.
    let label = lower.trim_start_matches(|c: char| !c.is_alphabetic());
    let at_in_label = at.saturating_sub(lower.len() - label.len());
    let first = label
        .split(|c: char| !c.is_alphabetic())
        .next()
        .unwrap_or("");
    let labelled = if first.starts_with("example") {
        label.get(..at_in_label).is_some_and(|l| l.contains(':'))
    } else {
        EXAMPLE_LABELS.contains(&first)
            && label
                .get(first.len()..at_in_label)
                .is_some_and(|l| l.trim_start_matches(['*', '_', ' ']).starts_with(':'))
    };
    if labelled {
        return Some("an example");
    }
    // A move the text records ("D5c moved `a/b.ts` to integration"): the path is what it was.
    let tail = before.trim_end_matches(['`', ' ', '*', '_', '[']);
    if ["moved", "renamed", "relocated"].iter().any(|v| {
        tail.strip_suffix(v)
            .is_some_and(|t| t.is_empty() || t.ends_with(' '))
    }) {
        return Some("the removal is recorded");
    }
    let (label, step) = before.rsplit_once(':').map_or(("", before), |(l, s)| {
        (l.rsplit(':').next().unwrap_or(l), s)
    });
    // A verb that labels a list of paths ("- Delete whole: `a`, `b`"): the label is the step.
    let only_paths = step
        .split('`')
        .step_by(2)
        .all(|p| !p.chars().any(char::is_alphabetic));
    let labelled_step;
    let step = if only_paths && !label.is_empty() {
        labelled_step = format!("{label} {step}");
        labelled_step.as_str()
    } else {
        step
    };
    let step = step.trim_start_matches(|c: char| !c.is_alphabetic());
    // A task's checkbox and number ("- [x] 2.2 Remove ..."): the verb starts the step.
    let step = step
        .strip_prefix("x]")
        .map_or(step, |s| s.trim_start_matches(|c: char| !c.is_alphabetic()));
    LINE_CUES
        .iter()
        .find(|c| match c.at {
            CueAt::Before => c.words.iter().any(|w| before.contains(w)),
            CueAt::Start => c.words.iter().any(|w| {
                let Some(rest) = step.strip_prefix(w) else {
                    return false;
                };
                // The verb, or its third person ("**deletes** `a`").
                let rest = rest.strip_prefix('s').unwrap_or(rest);
                if rest.starts_with(char::is_alphabetic) {
                    return false;
                }
                // The paths before this one in a list of objects ("Delete `a`, `b`") and the
                // words that name what they are ("the empty `x/` directory") are no other object.
                let mut words = String::new();
                for (i, part) in rest.split('`').enumerate() {
                    if i % 2 == 0 {
                        words.push_str(part);
                        words.push(' ');
                    }
                }
                // An alternative verb in parentheses ("Remove (or fold) `x/`") is no object.
                while let (Some(a), Some(b)) = (words.find("(or "), words.find(')')) {
                    if b < a {
                        break;
                    }
                    words.replace_range(a..=b, " ");
                }
                let words: Vec<&str> = words
                    .split(|c: char| !c.is_alphabetic())
                    .filter(|x| !x.is_empty())
                    .collect();
                // What a copy starts from must exist; only where it goes is intended.
                let object = *w != "copy" && words.iter().all(|x| START_OBJECT_WORDS.contains(x));
                let moved_to = matches!(*w, "rename" | "move" | "copy")
                    && matches!(words.last(), Some(&"to") | Some(&"into"))
                    && words[..words.len() - 1]
                        .iter()
                        .all(|x| START_OBJECT_WORDS.contains(x));
                object || moved_to
            }),
            CueAt::After => c.words.iter().any(|w| after.starts_with(w)),
            CueAt::Line => c.words.iter().any(|w| lower.contains(w)),
        })
        .map(|c| c.cue)
}

/// Words in the header of a table column that plan its paths ("Target Location", "Proposed
/// path"): a path in that column is an intention. Published as
/// `scanner.missing_path_plan_columns`.
pub const PLAN_COLUMNS: &[&str] = &[
    "target",
    "proposed",
    "planned",
    "new location",
    "new path",
    "destination",
    "to create",
];

/// Words of the header of a table column that make its paths the ones a change replaced
/// ("| | Old Command | New Skill + Agent |", "Before | After"): the removal is recorded.
/// Whole words, unlike [`PLAN_COLUMNS`] ("old" is in "folder"). Published as
/// `scanner.missing_path_record_columns`.
pub const RECORD_COLUMNS: &[&str] = &[
    "old", "before", "previous", "former", "legacy", "removed", "deleted",
];

/// Words in the header of a table column that make its paths examples ("Pattern Example": a
/// glob table's literal `src/app.py`). Not "Example" or "Examples in this folder" alone: such
/// columns list a folder's real example files. Published as
/// `scanner.missing_path_example_columns`.
pub const EXAMPLE_COLUMNS: &[&str] = &["pattern example", "example pattern"];

/// Words in the line that introduces a list ("Each test generates a JSON results file:",
/// "Files to create:") that make its items' paths something other than files this
/// repository holds, with why. Published as `scanner.missing_path_lead_in_cues`.
pub const LEAD_IN_CUES: &[LeadInCue] = &[
    LeadInCue {
        cue: "an output",
        words: &[
            "generates",
            "writes",
            "produces",
            "outputs",
            "will be generated",
            "are generated",
        ],
    },
    // "**Files Created:**", "**Expected Output**:" over what a command makes in the reader's
    // project; a claim when history knew the path here (a work log's "Files created:").
    // Not "generated files": "Commit regenerated files ...:" lists this repository's own.
    LeadInCue {
        cue: RUN_CREATES,
        words: &["files created", "created files", "expected output"],
    },
    // Any path of an item under "**Good examples**:" is one (not only an item that is the
    // path: "- Subagents: `code-reviewer.md`, `python-pro.md`"). Not "examples" alone: "See the
    // examples:" lists the repository's example files.
    LeadInCue {
        cue: "an example",
        words: &[
            "good example",
            "bad example",
            "correct example",
            "incorrect example",
        ],
    },
    // "**Deleted**:", "**削除**:" over the files a change takes away, as a section's heading
    // ("### What's Gone") says it.
    LeadInCue {
        cue: "the removal is recorded",
        words: &["deleted", "removed", "削除"],
    },
    LeadInCue {
        cue: "an intention",
        words: &[
            "to create",
            "will create",
            "will be created",
            "to be created",
            "to add",
            "planned",
        ],
    },
];

/// Words in the heading of the section a list sits in that make its items' paths recorded
/// removals ("### What's Gone", "## 10. What this replaces / deletes": the items name what the
/// change took away) or intentions ("### New Files to Create"). Only an item whose first path is the reference counts ("- 314-line
/// `PLUGIN.md` → replaced by `README.md`": not `README.md`).
pub const SECTION_CUES: &[LeadInCue] = &[
    LeadInCue {
        cue: "the removal is recorded",
        words: &[
            "gone", "removed", "deleted", "deletes", "deletion", "replaces", "retired", "obsolete",
        ],
    },
    LeadInCue {
        cue: "an intention",
        words: &[
            "files to create",
            "files to be created",
            "files to add",
            "to delete",
            "to be deleted",
            "to remove",
            "to be removed",
            "not built yet",
            "not yet built",
            "not implemented yet",
            "not yet implemented",
        ],
    },
];

/// Whole words of a list's lead-in that make the path an item's arrow points at (`Detailed
/// patterns → `references/patterns.md``) the place content is to be moved to: "Move detailed
/// content to references/:", "create a `references/` directory and move supporting material
/// there:". A path the item names first is what moves ("Files to move from `pkg/`:"), and stays
/// a claim. Published as `scanner.missing_path_move_lead_in_words`.
pub const MOVE_LEAD_IN_WORDS: &[&str] = &["move"];

/// Whether `written` is the destination of an arrow in the list item `body` (`→ `x``,
/// `-> `x``, `→ [x](x)`).
///
/// ```
/// # use hygiene::scan::detectors::missing_path::arrow_destination;
/// assert!(arrow_destination("Detailed patterns → `references/patterns.md`", "references/patterns.md"));
/// assert!(arrow_destination("API -> `references/api.md`", "references/api.md"));
/// assert!(!arrow_destination("`old.md` → `new.md`", "old.md"));
/// ```
pub fn arrow_destination(body: &str, written: &str) -> bool {
    ["→", "->", "=>"].iter().any(|a| {
        body.match_indices(a).any(|(i, _)| {
            let rest = body[i + a.len()..].trim_start();
            rest.starts_with(&format!("`{written}`"))
                || (rest.starts_with('[') && rest.contains(&format!("]({written})")))
        })
    })
}

/// Words of a step that checks out another version of the project ("- Clone branch `v0.2.36`
/// at last commit ea275a3", then "- In `sidebars.js`: delete the 0.1 entry"): the paths the
/// rest of its section names are that checkout's, not this tree's. Published as
/// `scanner.missing_path_checkout_cues`.
pub const CHECKOUT_CUES: &[&str] = &[
    "clone branch",
    "check out branch",
    "checkout branch",
    "check out tag",
    "checkout tag",
];

/// Whether line `line` (1-based) of `text` follows, in its section (up to the heading above
/// it), a step that checks out another branch or tag ([`CHECKOUT_CUES`]).
///
/// ```
/// # use hygiene::scan::detectors::missing_path::in_another_checkout;
/// let t = "## Build 0.2\n\n- Clone branch `v0.2.36` at last commit ea275a3\n- In `sidebars.js`:\n\n## Now\n\n- Edit `sidebars.ts`\n";
/// assert!(in_another_checkout(t, 4));
/// assert!(!in_another_checkout(t, 8));
/// ```
pub fn in_another_checkout(text: &str, line: u32) -> bool {
    in_another_checkout_at(&Layout::of(text), line)
}

/// [`in_another_checkout`] on a document's [`Layout`], found once for all its references.
fn in_another_checkout_at(layout: &Layout<'_>, line: u32) -> bool {
    let lines = &layout.lines;
    // The lines above this one, up to its section's heading.
    let Some(above) = (line as usize)
        .min(lines.len())
        .checked_sub(1)
        .filter(|&i| i > 0)
    else {
        return false;
    };
    let fences = &layout.fences;
    let top = heading_above(lines, fences, above - 1).map_or(0, |h| h + 1);
    lines[top..above].iter().any(|l| {
        let lower = l.to_lowercase();
        CHECKOUT_CUES.iter().any(|c| lower.contains(c))
    })
}

/// Whether line `line` (1-based) of `text` sits in a release's notes: the heading above it
/// starts with a version (`### v1.3.0 — OpenCode support`, `## [2.1.0] - 2025-06-01`, `## 1.4.2`),
/// as a README's "What's New" or a changelog keeps them; with `nested`, also a heading its
/// section is under (`### Documentation` in `## [1.2.0] - 2025-10-20`). Such a section records
/// what that release shipped. The callers nest for a backticked name, which names a file as it
/// was; a link in a release's "### Links" is still one a reader follows.
///
/// ```
/// # use hygiene::scan::detectors::missing_path::in_release_notes;
/// let t = "## What's New\n\n### v1.3.0 \u{2014} OpenCode\n\n- `llms.txt` for docs\n\n## Setup\n\n- `setup.sh`\n";
/// assert!(in_release_notes(t, 5, false));
/// assert!(!in_release_notes(t, 9, true));
/// assert!(in_release_notes("## [2.1.0] - 2025-06-01\n- a\n", 2, false) && in_release_notes("## 1.4.2\n- a\n", 2, false));
/// // A section of a release's notes is in them when nested; the next part's sibling section is
/// // not under the earlier release.
/// let log = "## [1.2.0] - 2025-10-20\n### Docs\n- a\n## Guide\n### Docs\n- b\n";
/// assert!(in_release_notes(log, 3, true) && !in_release_notes(log, 3, false));
/// assert!(!in_release_notes(log, 6, true));
/// // A numbered section is no release.
/// assert!(!in_release_notes("### 1.2 Defer await\n- a\n", 2, true) && !in_release_notes("### 4.2 Example\n- a\n", 2, true));
/// ```
pub fn in_release_notes(text: &str, line: u32, nested: bool) -> bool {
    in_release_notes_at(&Layout::of(text), line, nested)
}

/// [`in_release_notes`] on a document's [`Layout`], found once for all its references.
fn in_release_notes_at(layout: &Layout<'_>, line: u32, nested: bool) -> bool {
    let lines = &layout.lines;
    let Some(mut at) = (line as usize).min(lines.len()).checked_sub(1) else {
        return false;
    };
    let fences = &layout.fences;
    // The headings that hold the line, nearest first: each one above of a higher rank.
    let mut rank = usize::MAX;
    while let Some(h) = heading_above(lines, fences, at) {
        let heading = lines[h].trim();
        let level = heading.bytes().take_while(|&b| b == b'#').count();
        if level < rank {
            rank = level;
            if release_heading(heading) {
                return true;
            }
        }
        if !nested || level <= 1 || h == 0 {
            return false;
        }
        at = h - 1;
    }
    false
}

/// Whether an ATX heading's title starts with a version: `v1.3`, or three numbers (`1.4.2`);
/// "1.2 Defer await" numbers a section.
fn release_heading(heading: &str) -> bool {
    let title = heading.trim_start_matches('#').trim_start();
    let title = title.strip_prefix('[').unwrap_or(title);
    let word = title
        .split(|c: char| c.is_whitespace() || c == ']')
        .next()
        .unwrap_or("");
    let numbers = crate::scan::sites::dotted_numbers;
    match word.strip_prefix(['v', 'V']) {
        Some(v) => numbers(v) >= 2,
        None => numbers(word) >= 3,
    }
}

/// The index of the nearest ATX heading (`## Title`) at or above index `from` of `lines`,
/// outside fenced code (a `# comment` in a shell block is none).
fn heading_above(lines: &[&str], fences: &[(u32, u32)], from: usize) -> Option<usize> {
    (0..=from.min(lines.len().saturating_sub(1)))
        .rev()
        .filter(|&k| !crate::scan::markdown::in_fences(fences, k as u32 + 1))
        .find(|&k| {
            let l = lines[k].trim();
            l.starts_with('#') && l.trim_start_matches('#').starts_with(' ')
        })
}

/// One row of [`LEAD_IN_CUES`] or [`SECTION_CUES`].
#[derive(Debug, Clone, Copy, serde::Serialize, schemars::JsonSchema)]
pub struct LeadInCue {
    /// What the words say about the list's paths.
    pub cue: &'static str,
    /// The words, lowercase, anywhere in the lead-in line.
    pub words: &'static [&'static str],
}

/// The cue that the lines around line `line` (1-based) of `text` give its path `written`: the
/// header of the table column it sits in ([`PLAN_COLUMNS`]), the line that introduces the
/// list it is an item of ([`LEAD_IN_CUES`]), or the heading of the section that list is in
/// ([`SECTION_CUES`]).
///
/// ```
/// use hygiene::scan::detectors::missing_path::context_cue;
/// let table = "| Part | Current | Target Location |\n|---|---|---|\n| tests | `a/tests/` | `plugins/x/tests/` |\n";
/// assert_eq!(context_cue(table, 3, "plugins/x/tests/"), Some("an intention"));
/// assert_eq!(context_cue(table, 3, "a/tests/"), None);
/// let globs = "| Category | Pattern Example | Support |\n|---|---|---|\n| Literal | `src/app.py` | set |\n";
/// assert_eq!(context_cue(globs, 3, "src/app.py"), Some("an example"));
/// let files = "| Example | Description |\n|---|---|\n| [duo.py](multi/duo.py) | two agents |\n";
/// assert_eq!(context_cue(files, 3, "multi/duo.py"), None);
/// let list = "Each test generates a JSON results file:\n- `local/results.json`\n- `docker/results.json`\n";
/// assert_eq!(context_cue(list, 3, "docker/results.json"), Some("an output"));
/// let retired = "### Deleted / Retired Files\n\n| File | Reason |\n|---|---|\n| `src/old.ts` | Moved to shared |\n";
/// assert_eq!(context_cue(retired, 5, "src/old.ts"), Some("the removal is recorded"));
/// let kept = "### Key Files\n\n| File | Reason |\n|---|---|\n| `src/old.ts` | The loader |\n";
/// assert_eq!(context_cue(kept, 5, "src/old.ts"), None);
/// let done = "Files created:\n- `src/a.rs`\n";
/// assert_eq!(context_cue(done, 2, "src/a.rs"), Some("what a run creates"));
/// // The item's own verb governs its path; a parent item can introduce nested ones.
/// let steps = "The build writes its outputs:\n1. Run `scripts/gen.sh` to start.\n";
/// assert_eq!(context_cue(steps, 2, "scripts/gen.sh"), None);
/// let nested = "- Files to create:\n  - `src/new.rs`\n";
/// assert_eq!(context_cue(nested, 2, "src/new.rs"), Some("an intention"));
/// let gone = "**削除**:\n- `setup/core/installer.py`: カスタムロジック → 削除\n";
/// assert_eq!(context_cue(gone, 2, "setup/core/installer.py"), Some("the removal is recorded"));
/// let good = "**Good examples**:\n- Subagents: `code-reviewer.md`, `python-pro.md`\n";
/// assert_eq!(context_cue(good, 2, "python-pro.md"), Some("an example"));
/// let map = "## Deletion Map\n\n**Wave 1 — commands**\n\n- `src/commands/ws.ts`, `src/commands/ws/`\n";
/// assert_eq!(context_cue(map, 5, "src/commands/ws.ts"), Some("the removal is recorded"));
/// let gone = "### What's Gone\n\n- `openspec/AGENTS.md` — obsolete\n";
/// assert_eq!(context_cue(gone, 3, "openspec/AGENTS.md"), Some("the removal is recorded"));
/// let swap = "| | Old Command | New Skill |\n|---|---|---|\n| Format | `cmds/triage.md` | `skills/triage/` |\n";
/// assert_eq!(context_cue(swap, 3, "cmds/triage.md"), Some("the removal is recorded"));
/// assert_eq!(context_cue(swap, 3, "skills/triage/"), None);
/// let replaced = "## What this replaces\n\nFrom v0.3:\n- 314-line `PLUGIN.md` → replaced by `README.md`\n";
/// assert_eq!(context_cue(replaced, 4, "PLUGIN.md"), Some("the removal is recorded"));
/// assert_eq!(context_cue(replaced, 4, "README.md"), None);
/// let fenced = "## Usage\n\n```sh\n# removed files\n```\n- `src/a.rs`\n";
/// assert_eq!(context_cue(fenced, 6, "src/a.rs"), None);
/// ```
pub fn context_cue(text: &str, line: u32, written: &str) -> Option<&'static str> {
    context_cue_at(&Layout::of(text), line, written)
}

/// [`context_cue`] on a document's [`Layout`], found once for all its references.
fn context_cue_at(layout: &Layout<'_>, line: u32, written: &str) -> Option<&'static str> {
    let lines = &layout.lines;
    let i = (line as usize).checked_sub(1)?;
    let here = lines.get(i)?.trim();
    if here.starts_with('|') {
        let at = here.find(written)?;
        let column = here[..at].matches('|').count();
        let mut top = i;
        while top > 0 && lines[top - 1].trim().starts_with('|') {
            top -= 1;
        }
        let header = lines[top].trim().to_lowercase();
        let cell = header.split('|').nth(column)?;
        if EXAMPLE_COLUMNS.iter().any(|w| cell.contains(w)) {
            return Some("an example");
        }
        if cell
            .split(|c: char| !c.is_alphanumeric())
            .any(|w| RECORD_COLUMNS.contains(&w))
        {
            return Some("the removal is recorded");
        }
        if PLAN_COLUMNS.iter().any(|w| cell.contains(w)) {
            return Some("an intention");
        }
        // A row that the path starts, in a table whose section's heading records removals
        // ("### Deleted / Retired Files": `| `src/old.ts` | Moved to shared |`).
        if column != 1 {
            return None;
        }
        let fences = &layout.fences;
        let heading = lines[heading_above(lines, fences, top)?]
            .trim()
            .to_lowercase();
        return SECTION_CUES
            .iter()
            .filter(|c| c.cue == "the removal is recorded")
            .find(|c| c.words.iter().any(|w| heading.contains(w)))
            .map(|c| c.cue);
    }
    let item = list_item;
    // Only an item that is the path itself ("- `local/results.json`", maybe described after
    // it): in "- Run `scripts/x.sh` to ..." the item's own verb says what the path is.
    let body = crate::scan::markdown::list_item_body(here).unwrap_or(here);
    let names_it_first = body.starts_with(&format!("`{written}`"))
        || (body.starts_with('[') && body.contains(&format!("]({written}")));
    if !item(here) {
        return None;
    }
    let indent = |l: &str| l.len() - l.trim_start().len();
    let mine = indent(lines[i]);
    let mut j = i;
    while j > 0 {
        j -= 1;
        let l = lines[j];
        // Blank lines, sibling items and what sits deeper than this item belong to the list.
        if l.trim().is_empty() || indent(l) > mine || (item(l) && indent(l) == mine) {
            continue;
        }
        // "**Files Created:**" ends its label inside the emphasis.
        let lead = l.trim().trim_end_matches(['*', '_']).to_lowercase();
        // "Move detailed content to references/:" over "- Detailed patterns →
        // `references/patterns.md`": the arrow names where the content is to go.
        if lead.ends_with(':')
            && lead
                .split(|c: char| !c.is_alphabetic())
                .any(|w| MOVE_LEAD_IN_WORDS.contains(&w))
            && arrow_destination(body, written)
        {
            return Some("an intention");
        }
        let cue = lead
            .ends_with(':')
            .then(|| {
                LEAD_IN_CUES
                    .iter()
                    .filter(|c| names_it_first || c.cue == "an example")
                    .find(|c| c.words.iter().any(|w| lead.contains(w)))
            })
            .flatten();
        if let Some(c) = cue {
            return Some(c.cue);
        }
        break;
    }
    // The section's heading: the nearest heading above the list (a `# comment` in fenced code
    // is none).
    let fences = &layout.fences;
    let heading = lines[heading_above(lines, fences, j)?]
        .trim()
        .to_lowercase();
    (first_path_of(body) == Some(written) || listed_after_first(body, written))
        .then(|| {
            SECTION_CUES
                .iter()
                .find(|c| c.words.iter().any(|w| heading.contains(w)))
        })
        .flatten()
        .map(|c| c.cue)
}

/// Whether `written` is one of the code spans that follow a list item's first one with only
/// separators between (`` - `a.ts`, `a/` and `b.ts` ``): a list of paths, each the item's.
/// Not `README.md` in "- `PLUGIN.md` → replaced by `README.md`".
fn listed_after_first(body: &str, written: &str) -> bool {
    let Some(start) = body.find('`') else {
        return false;
    };
    for (i, part) in body[start + 1..].split('`').enumerate() {
        if i % 2 == 0 {
            if part == written {
                return true;
            }
        } else if !part
            .split([',', ' '])
            .all(|w| w.is_empty() || w == "and" || w == "or")
        {
            return false;
        }
    }
    false
}

/// The first path a list item's text names: its first code span, or its first link's
/// destination, whichever comes first.
fn first_path_of(body: &str) -> Option<&str> {
    let code = body.find('`').and_then(|a| {
        let rest = &body[a + 1..];
        rest.find('`').map(|b| (a, &rest[..b]))
    });
    let link = body.find("](").and_then(|a| {
        let rest = &body[a + 2..];
        rest.find([')', ' ']).map(|b| (a, &rest[..b]))
    });
    match (code, link) {
        (Some(c), Some(l)) => Some(if c.0 < l.0 { c.1 } else { l.1 }),
        (c, l) => c.or(l).map(|x| x.1),
    }
}

/// The dot-folders of the repository's own hosting and CI (`.github/workflows/ci.yml`): a
/// document naming one of their files means this repository's, even after the folder is gone.
pub const HOST_DOT_FOLDERS: &[&str] = &[".github", ".gitlab", ".circleci", ".buildkite"];

/// Whether `written` lies in a tool's dot-folder (`.planning/STATE.md`, not one of
/// [`HOST_DOT_FOLDERS`]) that the tree no longer has, and none of whose files moved elsewhere
/// (a `.claude/` that became `templates/` lives on there: its paths are still the project's).
fn dot_folder_gone(ctx: &TreeCtx<'_>, written: &str) -> bool {
    let w = written.strip_prefix("./").unwrap_or(written);
    w.split_once('/').is_some_and(|(first, _)| {
        first.len() > 1
            && first.starts_with('.')
            && first != ".."
            && !HOST_DOT_FOLDERS.contains(&first)
            && !ctx.tree.exists(first)
            && !ctx
                .history
                .is_some_and(|h| h.dot_folders_moved_out().contains(first))
    })
}

/// Folders a file is moved into to retire it (`ai_docs/cc_hooks_docs.md` to
/// `ai_docs/legacy/cc_hooks_docs.md`, beside a new `claude_code_hooks_docs.md`). A reference to
/// the old name is stale, but pointing it at the retired copy is seldom what its author wants:
/// the rename is reported, with no edit proposed. Published as `scanner.missing_path_retired_folders`.
pub const RETIRED_FOLDERS: &[&str] = &[
    "legacy",
    "archive",
    "archived",
    "deprecated",
    "obsolete",
    "attic",
    "old",
];

/// Whether the rename of `written` to `to` moved it into a [`RETIRED_FOLDERS`] folder that its
/// old path was not in, and the document `doc` naming it is not in: a document that moved into
/// `src/legacy/` with its code describes the retired code, and follows it.
///
/// ```
/// use hygiene::scan::detectors::missing_path::retired;
/// assert!(retired(".claude/commands/prime.md", "ai_docs/cc_hooks_docs.md", "ai_docs/legacy/cc_hooks_docs.md"));
/// assert!(retired("README.md", "docs/plan.md", "docs/Archive/plan.md"));
/// assert!(!retired("README.md", "legacy/a.md", "legacy/b/a.md") && !retired("README.md", "docs/a.md", "guide/a.md"));
/// assert!(!retired("src/legacy/CLAUDE.md", "src/app/graph.py", "src/legacy/graph.py"));
/// ```
pub fn retired(doc: &str, written: &str, to: &str) -> bool {
    let folders = |p: &str| -> Vec<String> {
        let segs: Vec<&str> = p.split('/').collect();
        segs[..segs.len().saturating_sub(1)]
            .iter()
            .map(|s| s.to_lowercase())
            .collect()
    };
    let (before, here) = (folders(written), folders(doc));
    folders(to)
        .iter()
        .any(|f| RETIRED_FOLDERS.contains(&f.as_str()) && !before.contains(f) && !here.contains(f))
}

/// Words that make a path segment's name a made-up one (`integrations/my_agent/`,
/// `foo/bar.txt`): split at `/`, `-`, `_` and `.`.
pub const PLACEHOLDER_PATH_WORDS: &[&str] = &["my", "your", "foo", "bar", "baz", "xxx", "yyy"];

/// Words that make a camel-case name a made-up one as its first, lowercase word
/// (`dispatchers/xxxDispatcher.ts`, `someAiAction.js`): not "my" nor "bar", which start real
/// names (`myAccount.tsx`, `barChart.ts`), nor a capitalised first word (`MySQL.md`).
pub const PLACEHOLDER_CAMEL_WORDS: &[&str] = &["xxx", "yyy", "foo", "baz", "your", "some"];

/// Whether a written path is a placeholder, not a name: a template expression (`{x}`,
/// `<name>`, `[Description]`), `path/to/...`, a version pattern (`version-X.Y.Z`) or an ellipsis.
///
/// ```
/// use hygiene::scan::detectors::missing_path::placeholder_path;
/// assert!(placeholder_path("<{get_url(name)}>") && placeholder_path("[Description]"));
/// assert!(placeholder_path("website/versioned_docs/version-X.Y.Z") && placeholder_path("docs/.../x.md"));
/// assert!(placeholder_path("src/integrations/my_agent/") && placeholder_path("tests/test_my-agent.py"));
/// assert!(!placeholder_path("docs/setup.md") && !placeholder_path("v1.2.3/notes.md"));
/// assert!(!placeholder_path("src/mystery.rs") && !placeholder_path("examples/basic.md"));
/// assert!(placeholder_path("changelogs/0.MINOR.x.md") && placeholder_path("notes/YYYY-MM-DD.md"));
/// assert!(placeholder_path("reports/security-analysis_YYYYMMDD_HHMMSS.md"));
/// assert!(!placeholder_path("docs/VERSIONING.md") && !placeholder_path("changelogs/0.9.x.md"));
/// assert!(placeholder_path("src/package_name/") && placeholder_path("skills/skill-name/SKILL.md"));
/// assert!(!placeholder_path("src/display_name.rs") && !placeholder_path("src/names/x.rs"));
/// assert!(placeholder_path("packages/ui/src/elements/ComponentName/") && !placeholder_path("src/MySQL.md"));
/// assert!(placeholder_path("src/server/dispatchers/xxxDispatcher.ts") && placeholder_path("modules/someAiAction.js"));
/// assert!(!placeholder_path("src/barChart.ts") && !placeholder_path("pages/myAccount.tsx"));
/// assert!(placeholder_path("path/to/log.txt") && placeholder_path("/path/to/screenshot.png"));
/// assert!(!placeholder_path("docs/path/tools.md") && !placeholder_path("xpath/to/x.md"));
/// assert!(placeholder_path("tests/ci/test_action_EventNameHere.py") && placeholder_path("docs/name_here.md"));
/// assert!(!placeholder_path("docs/here.md") && !placeholder_path("src/where.ts"));
/// ```
pub fn placeholder_path(written: &str) -> bool {
    let words = written.split(['/', '-', '_', '.']).any(|w| {
        // `xxxDispatcher`'s first word: the lowercase run before its first capital.
        let first = w
            .find(|c: char| c.is_ascii_uppercase())
            .filter(|&i| i > 0 && w[..i].bytes().all(|b| b.is_ascii_lowercase()))
            .map_or(w, |i| &w[..i]);
        PLACEHOLDER_PATH_WORDS.contains(&w.to_ascii_lowercase().as_str())
            || (first.len() < w.len() && PLACEHOLDER_CAMEL_WORDS.contains(&first))
    });
    // `path/to/log.txt`: the phrase that stands for "wherever yours is".
    let path_to = written.starts_with("path/to/") || written.contains("/path/to/");
    words
        || path_to
        || written.contains(['{', '}', '<', '>'])
        || (written.starts_with('[') && written.ends_with(']'))
        || written.contains("...")
        || written
            .split(['/', '-', '_'])
            .any(|seg| matches!(seg, "X.Y.Z" | "x.y.z" | "X.Y" | "x.y" | "vX.Y.Z"))
        || written
            .split(['/', '-', '_', '.'])
            .any(|w| PLACEHOLDER_VERSION_WORDS.contains(&w))
        || written.split('/').any(|seg| {
            let stem = snake(seg.split('.').next().unwrap_or(seg));
            PLACEHOLDER_NAMES.contains(&stem.as_str())
                || PLACEHOLDER_NAME_ENDINGS
                    .iter()
                    .any(|e| stem.len() > e.len() && stem.ends_with(e))
        })
}

/// Endings of a name in snake case that say where to write one's own
/// (`tests/ci/test_action_EventNameHere.py`, `docs/name_here.md`; s33: browser-use's CLAUDE.md,
/// judged false). Published as `scanner.placeholder_name_endings`.
pub const PLACEHOLDER_NAME_ENDINGS: &[&str] = &["_here"];

/// A name in snake case: `-` as `_`, and a capital after a lowercase letter starts a word
/// (`ComponentName` and `component-name` are both `component_name`).
fn snake(name: &str) -> String {
    let mut out = String::with_capacity(name.len() + 4);
    let mut prev_lower = false;
    for c in name.chars() {
        if c.is_ascii_uppercase() && prev_lower {
            out.push('_');
        }
        prev_lower = c.is_ascii_lowercase();
        out.push(if c == '-' {
            '_'
        } else {
            c.to_ascii_lowercase()
        });
    }
    out
}

/// Folder and file names that stand for the reader's own (`src/package_name/`,
/// `my-project/`'s `project-name.md`, `elements/ComponentName/`): matched against a path
/// segment's stem in snake case.
pub const PLACEHOLDER_NAMES: &[&str] = &[
    "package_name",
    "project_name",
    "module_name",
    "app_name",
    "crate_name",
    "pkg_name",
    "lib_name",
    "service_name",
    "component_name",
    "feature_name",
    "plugin_name",
    "skill_name",
    "agent_name",
    "tool_name",
    "repo_name",
    "file_name",
    "filename",
    "dir_name",
    "folder_name",
];

/// Capitalised words that stand for a version's part or a date in a path pattern
/// (`changelogs/0.MINOR.x.md`, `notes/YYYY-MM-DD.md`): matched as written.
pub const PLACEHOLDER_VERSION_WORDS: &[&str] = &[
    "MAJOR", "MINOR", "PATCH", "VERSION", "YYYY", "MM", "DD", "YYYYMMDD", "HHMMSS", "HHMM",
];

/// Whether git's new name `to` is shipped content (a template another project copies) while
/// the document naming the old one is not; or, whatever the document, a file named as a
/// template ([`template_name`]: `.claude/settings.json` became `templates/settings.json.template`,
/// which an installer copies back to the old name in the user's project).
fn became_shipped(ctx: &TreeCtx<'_>, doc: &Doc, to: &str) -> bool {
    use crate::roles::Role;
    template_name(to)
        || (doc.role != Role::Shipped
            && ctx
                .doc_index(to)
                .is_some_and(|i| ctx.docs[i].role == Role::Shipped))
}

/// Endings of a file name that mark the file as a template of another file. Published as
/// `scanner.missing_path_template_name_endings`.
pub const TEMPLATE_NAME_ENDINGS: &[&str] = &[".template", ".tmpl", ".example", ".sample"];

/// Whether the file name of `path` marks a template of another file: it ends with one of
/// [`TEMPLATE_NAME_ENDINGS`], or its stem does with `-template` or `_template`.
///
/// ```
/// use hygiene::scan::detectors::missing_path::template_name;
/// assert!(template_name("templates/settings.json.template") && template_name(".env.example"));
/// assert!(template_name("templates/constitution-template.md"));
/// assert!(!template_name("templates/tests/setup.sh") && !template_name("docs/templates.md"));
/// ```
pub fn template_name(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    let stem = name.split_once('.').map_or(name, |(s, _)| s);
    TEMPLATE_NAME_ENDINGS.iter().any(|e| name.ends_with(e))
        || stem.ends_with("-template")
        || stem.ends_with("_template")
}

/// Whether the last segment of `written` is a version (`py/v0.7.1`, `releases/2.3.0-rc.1/`):
/// a tag or release name, not a file.
///
/// ```
/// use hygiene::scan::detectors::missing_path::version_name;
/// assert!(version_name("py/v0.7.1") && version_name("py/v0.5.2-rc.1") && version_name("releases/2.3.0/"));
/// assert!(!version_name("docs/v2/intro.md") && !version_name("changelogs/0.9.x.md") && !version_name("v1.2.3/notes.md"));
/// ```
pub fn version_name(written: &str) -> bool {
    let last = written
        .trim_end_matches('/')
        .rsplit('/')
        .next()
        .unwrap_or("");
    let v = last.strip_prefix('v').unwrap_or(last);
    let (core, pre) = v.split_once(['-', '+']).unwrap_or((v, ""));
    let parts: Vec<&str> = core.split('.').collect();
    parts.len() >= 2
        && parts
            .iter()
            .all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()))
        && pre.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'.')
}

/// Whether a missing `<package>.rst` page (or `<package>.<module>.rst`) is one `sphinx-apidoc`
/// writes at build time for a Python package of the tree (a folder of that name holding
/// `__init__.py`): the generated API reference exists on the built site, never in the tree.
fn apidoc_page(ctx: &TreeCtx<'_>, written: &str) -> bool {
    let name = written.rsplit('/').next().unwrap_or(written);
    let Some(stem) = name.strip_suffix(".rst") else {
        return false;
    };
    let package = stem.split('.').next().unwrap_or(stem);
    !package.is_empty() && ctx.tree.tail_count(&format!("{package}/__init__.py")) > 0
}

/// Whether `written` is an example beside a pattern the same line names in code: a match of a
/// glob (`` | `docs/*.draft.md` | `docs/api.draft.md` | ``, `` `*.test.ts` files except
/// `src/keep.test.ts` ``), or any path beside a URI template (`{+path}`). A glob without `/`
/// matches the file name. Other paths beside a glob (`` `internal/rpc/protocol.go`,
/// `server_*.go` ``) are still claims.
///
/// ```
/// use hygiene::scan::detectors::missing_path::matches_a_glob_beside;
/// assert!(matches_a_glob_beside("| `docs/*.draft.md` | `docs/api.draft.md` |", "docs/api.draft.md"));
/// assert!(matches_a_glob_beside("`*.test.ts` files except `src/keep.test.ts`.", "src/keep.test.ts"));
/// assert!(!matches_a_glob_beside("| RPC | `internal/rpc/protocol.go`, `server_*.go` |", "internal/rpc/protocol.go"));
/// assert!(!matches_a_glob_beside("See `src/main.rs` and `x * y`.", "src/main.rs"));
/// // Beside a URI template, any path is an example input.
/// assert!(matches_a_glob_beside("| `{name}` | `docs/intro.md` | *no match* |", "docs/intro.md"));
/// ```
pub fn matches_a_glob_beside(line: &str, written: &str) -> bool {
    let path = written.trim_start_matches("./").trim_end_matches('/');
    let name = path.rsplit('/').next().unwrap_or(path);
    line.split('`')
        .skip(1)
        .step_by(2)
        .filter(|span| span.contains(['*', '{']) && !span.contains(' ') && *span != written)
        .any(|pattern| {
            // A URI template (`{+path}`, `{name}`): the paths beside it show what it does and
            // does not match.
            if pattern.contains('{') && !pattern.contains([',', '*']) {
                return true;
            }
            let pattern = pattern.trim_start_matches('!').trim_start_matches("./");
            globset::GlobBuilder::new(pattern)
                .literal_separator(true)
                .build()
                .map(|g| g.compile_matcher())
                .is_ok_and(|m| m.is_match(path) || (!pattern.contains('/') && m.is_match(name)))
        })
}

/// Whether a relative link sits in a section that quotes another file whole (a generated
/// concatenation of a site's pages, headed `## File: docs/md_v2/advanced/lazy-loading.md`) and
/// resolves from that file's folder: the link is the quoted file's, checked there.
fn in_a_quoted_file(ctx: &TreeCtx<'_>, layout: &Layout<'_>, line: u32, written: &str) -> bool {
    if written.starts_with('/') {
        return false;
    }
    // The nearest `File:` heading at or above the line.
    let above = &layout.lines[..(line as usize).min(layout.lines.len())];
    let Some(quoted) = above.iter().fold(None, |last, l| {
        let t = l.trim_start_matches('#');
        (t.len() < l.len())
            .then(|| t.trim_start().strip_prefix("File:"))
            .flatten()
            .map(|p| p.trim().trim_matches('`'))
            .or(last)
    }) else {
        return false;
    };
    ctx.tree.is_file(quoted)
        && crate::scan::refs::normalize(crate::scan::refs::folder(quoted), written)
            .is_some_and(|p| ctx.tree.exists(&p))
}

/// Whether `written`, missing from the root and beside the document, exists below a folder that
/// another reference on the same line names (a table row's package `packages/a/src/` and its
/// `src/index.ts`): then it is written relative to that folder or one of its parents.
fn beside_a_sibling(ctx: &TreeCtx<'_>, doc: &Doc, line: u32, written: &str) -> bool {
    let written = written.trim_start_matches("./");
    doc.resolved()
        .filter(|(r, _)| r.line == line)
        .filter_map(|(_, t)| match t {
            Target::Found { path: Some(p), .. } => Some(p.as_str()),
            _ => None,
        })
        .any(|found| {
            let mut dir = found.trim_end_matches('/');
            if ctx.tree.is_file(dir) {
                dir = crate::scan::refs::folder(dir);
            }
            loop {
                if dir.is_empty() {
                    return false;
                }
                if ctx.tree.exists(&format!("{dir}/{written}")) {
                    return true;
                }
                match dir.rsplit_once('/') {
                    Some((parent, _)) => dir = parent,
                    None => return false,
                }
            }
        })
}

/// Whether line `n` goes on with a sentence the line before left open: it starts in lower
/// case, after a line that is not blank and does not end a sentence.
fn continues_the_line_before(f: &Facts<'_, '_>, n: u32) -> bool {
    n > 1
        && f.line(n)
            .is_some_and(|l| l.trim_start().starts_with(char::is_lowercase))
        && f.line(n - 1).is_some_and(|p| {
            let p = p.trim_end();
            !p.is_empty() && !p.ends_with(['.', ':', '!', '?', '|'])
        })
}

/// Whether a line is a list item: a marker and a space (`**Good examples**:` is a bold
/// lead-in, not an item), or a number and a dot ([`crate::scan::markdown::list_item_body`]).
fn list_item(l: &str) -> bool {
    crate::scan::markdown::list_item_body(l).is_some()
}

/// The folders that the lines above list item `line` (1-based) of `text` name for it, nearest
/// first: the first backticked folder (`x/`) of each item it is nested under ("- `scripts/`"
/// over "  - `init-firewall.sh`"), joined from the outermost, and of the heading of its
/// section ("### RAG (`rag/`)" over "- `starter.ts`"). A file tree written as a list names its
/// files from the folder it sits in.
///
/// ```
/// use hygiene::scan::detectors::missing_path::named_folders;
/// let tree = "- `scripts/` - setup\n  - `init.sh` - firewall\n";
/// assert_eq!(named_folders(tree, 2), vec!["scripts/"]);
/// let deep = "## Layout (`src/`)\n\n- `lib/`\n  - `a.rs`\n";
/// assert_eq!(named_folders(deep, 4), vec!["lib/", "src/lib/", "src/"]);
/// let flat = "### RAG (`rag/`)\n\nExamples:\n\n- `starter.ts` - basic\n";
/// assert_eq!(named_folders(flat, 5), vec!["rag/"]);
/// // Not a list item, or a parent that names no folder: nothing.
/// assert!(named_folders("## `rag/`\n\nSee `starter.ts`.\n", 3).is_empty());
/// assert!(named_folders("- Setup\n  - `init.sh`\n", 2).is_empty());
/// let rooted = "## Utilities (`/utils/`)\n\n- `test_parser.py`\n";
/// assert_eq!(named_folders(rooted, 3), vec!["utils/"]);
/// let table = "## MCP Server (`mcp-server/`)\n\n| File | Role |\n|---|---|\n| `src/stocks.ts` | data |\n";
/// assert_eq!(named_folders(table, 5), vec!["mcp-server/"]);
/// ```
pub fn named_folders(text: &str, line: u32) -> Vec<String> {
    named_folders_at(&Layout::of(text), line)
}

/// [`named_folders`] on a document's [`Layout`], found once for all its references.
fn named_folders_at(layout: &Layout<'_>, line: u32) -> Vec<String> {
    let lines = &layout.lines;
    let Some(i) = (line as usize).checked_sub(1) else {
        return Vec::new();
    };
    let Some(here) = lines.get(i) else {
        return Vec::new();
    };
    let indent = |l: &str| l.len() - l.trim_start().len();
    let item = list_item;
    let folder_of = |l: &str| -> Option<String> {
        l.split('`')
            .skip(1)
            .step_by(2)
            .next()
            .filter(|s| s.ends_with('/') && !s.starts_with("//") && !s.contains(' '))
            // "## Utilities Tests (`/utils/`)" in `tests/README.md` names `tests/utils/`.
            .map(|s| {
                s.trim_start_matches("./")
                    .trim_start_matches('/')
                    .to_string()
            })
            .filter(|s| !s.is_empty())
    };
    // A table row has no parent items: only its section's heading names a folder.
    let row = here.trim_start().starts_with('|');
    if !item(here) && !row {
        return Vec::new();
    }
    let mut depth = indent(here);
    // Item folders, nearest first, while the chain of parents is unbroken.
    let mut parents: Vec<String> = Vec::new();
    let mut chain = !row;
    let mut heading = None;
    for l in lines[..i].iter().rev() {
        let t = l.trim_start();
        if t.starts_with("```") || t.starts_with("~~~") {
            break;
        }
        if t.starts_with('#') {
            heading = folder_of(t);
            break;
        }
        if t.is_empty() || !chain {
            continue;
        }
        if item(l) && indent(l) < depth {
            depth = indent(l);
            match folder_of(l) {
                Some(f) => parents.push(f),
                None => chain = false,
            }
        } else if indent(l) == 0 && !item(l) {
            // A paragraph ends the list: only a heading names its folder now.
            chain = false;
        }
    }
    let mut out = Vec::new();
    let mut joined = String::new();
    for f in &parents {
        joined = format!("{f}{joined}");
        out.push(joined.clone());
    }
    if let Some(h) = heading {
        for f in out.clone() {
            out.push(format!("{h}{f}"));
        }
        out.push(h);
    }
    out
}

/// Whether a code path missing where it is written exists inside a folder the list or section
/// it sits in names ([`named_folders`]), from the document's folder or the root.
fn in_a_named_folder(
    ctx: &TreeCtx<'_>,
    doc: &Doc,
    layout: &Layout<'_>,
    line: u32,
    written: &str,
) -> bool {
    let w = written.trim_start_matches("./");
    if w.starts_with(['/', '.']) {
        return false;
    }
    let dir = crate::scan::refs::folder(&doc.path);
    named_folders_at(layout, line).iter().any(|f| {
        [dir, ""].iter().any(|base| {
            crate::scan::refs::normalize(base, &format!("{f}{w}"))
                .is_some_and(|p| ctx.tree.exists(p.trim_end_matches('/')))
        })
    })
}

/// Names of the files agents read by convention: in code, the name of that convention (the
/// reader's project's file), not a claim about this repository. So are the names of an agent
/// client's own configuration files (Claude Code's `settings.json`, a plugin's `plugin.json`
/// and `marketplace.json`, `.mcp.json`), which it reads from set places: "migrating global
/// configuration to `settings.json`". Published as `scanner.missing_path_convention_names`.
pub const CONVENTION_NAMES: &[&str] = &[
    "CLAUDE.md",
    "CLAUDE.local.md",
    "AGENTS.md",
    "AGENT.md",
    "GEMINI.md",
    ".cursorrules",
    ".windsurfrules",
    "settings.json",
    "settings.local.json",
    "plugin.json",
    "marketplace.json",
    ".mcp.json",
];

/// The files in which an agent client keeps a project's configuration, at the place it reads
/// them from (Claude Code's `.claude/settings.json` and its never-committed
/// `.claude/settings.local.json`, Cursor's `.cursor/mcp.json`): in code, the reader's project's
/// file, whatever this repository once kept there. Judged on everything-claude-code and
/// continue (7 of 7 false: "hooks are read from `.claude/settings.json`"). Published as
/// `scanner.missing_path_client_config_paths`.
pub const CLIENT_CONFIG_PATHS: &[&str] = &[
    ".claude/settings.json",
    ".claude/settings.local.json",
    ".cursor/mcp.json",
    ".gemini/settings.json",
    ".vscode/mcp.json",
];

/// Files a tool creates and deletes as its mode changes: Changesets writes `.changeset/pre.json`
/// on `changeset pre enter` and removes it on `pre exit`, so its absence is the usual state and
/// history always knows it. In code, a mention is of that state (ai's pre-release guide, astro's
/// merge skill: both judged false). Published as `scanner.missing_path_tool_state_paths`.
pub const TOOL_STATE_PATHS: &[&str] = &[".changeset/pre.json"];

/// Source files whose members a dotted name reaches (`layouts/semantic_layout.compute_positions`
/// is the function `compute_positions` of `layouts/semantic_layout.py`).
pub const MEMBER_SOURCES: &[&str] = &["py", "ts", "js", "rs", "go", "rb"];

/// Whether a code path whose "extension" is no file extension is a module's member: the path
/// before its last `.` is a source file ([`MEMBER_SOURCES`]) at one of its readings.
fn names_a_member(ctx: &TreeCtx<'_>, written: &str, cands: &[(String, bool)]) -> bool {
    if crate::scan::markdown::known_extension(written)
        || crate::scan::markdown::extension(written).is_none()
    {
        return false;
    }
    cands.iter().any(|(c, _)| {
        c.rsplit_once('.').is_some_and(|(stem, _)| {
            MEMBER_SOURCES
                .iter()
                .any(|ext| ctx.tree.is_file(&format!("{stem}.{ext}")))
        })
    })
}

/// Whether a relative link names a page by its route, the page's file name without its
/// extension (`./static-prerendering` beside `static-prerendering.md`, `../setup/` for
/// `../setup.md`, `./entry.server.tsx` for the page `entry.server.tsx.md` about that file):
/// every site generator serves it there. Judged on real repositories, such links were false
/// alarms 46 times in 47, even where no site configuration is found.
fn page_by_route(ctx: &TreeCtx<'_>, doc: &Doc, written: &str) -> bool {
    let rel = written.trim_end_matches('/');
    let last = rel.rsplit('/').next().unwrap_or(rel);
    if written.starts_with('/') || last.is_empty() {
        return false;
    }
    crate::scan::refs::normalize(crate::scan::refs::folder(&doc.path), rel).is_some_and(|at| {
        crate::scan::sites::PAGE_EXTENSIONS
            .iter()
            .any(|ext| ctx.tree.is_file(&format!("{at}.{ext}")))
    })
}

/// Whether a file whose path ends in `tail` (`TROUBLESHOOTING.md`, `.cursor/README.md`) lives
/// below `folder`, at any depth: the file the document meant, if it meant one of its own
/// folder's.
fn named_below(ctx: &TreeCtx<'_>, folder: &str, tail: &str) -> bool {
    let name = format!("/{tail}");
    let prefix = if folder.is_empty() {
        String::new()
    } else {
        format!("{folder}/")
    };
    !prefix.is_empty()
        && ctx
            .tree
            .files
            .iter()
            .any(|f| f.starts_with(&prefix) && f.ends_with(&name))
}

/// Whether a candidate is a relative Markdown link read from the root
/// (`[Troubleshooting](TROUBLESHOOTING.md)` in `plugins/pack/README.md` read as the root's
/// `TROUBLESHOOTING.md`): a reader follows it from the document's folder, so what became of the
/// root's file (renamed, deleted) is not its fate, and a new root path written in its place
/// would point nowhere. The signal stays, with no rename suggested; its `renamed_to` and
/// `deleted_in` stay too unless the document's folder holds a file of that name
/// ([`fate_of`]: judged on public repositories, a backup's README was told its link became the
/// root's renamed page, when the file it meant sat in the backup's `docs/`).
fn root_read_link(via: crate::report::Via, folder_relative: bool, written: &str) -> bool {
    via == crate::report::Via::Link && !folder_relative && !written.starts_with('/')
}

/// Whether a rooted link (`/locators.md`, `/writing-tests.md`) names a page of the document's
/// own folder, or its language variants, in a folder whose pages link each other so
/// ([`super::rooted_at_folder`]).
fn rooted_in_folder(ctx: &TreeCtx<'_>, doc: &Doc, written: &str) -> bool {
    let Some(rest) = written.strip_prefix('/') else {
        return false;
    };
    let dir = crate::scan::refs::folder(&doc.path);
    ctx.rooted_folders.contains(dir)
        && (ctx.tree.is_file(&crate::scan::sites::join(dir, rest))
            || language_variant(ctx, doc, rest))
}

/// The languages a page may be published in, one variant per language or group of them
/// (`intro-js.md`, `test-assertions-csharp-java-python.md`): the site shows the reader's.
/// Published as `scanner.language_variant_suffixes`.
pub const LANGUAGE_VARIANTS: &[&str] = &[
    "js", "ts", "python", "java", "csharp", "dotnet", "go", "ruby", "rust", "kotlin", "swift",
];

/// Whether a relative link names a page published in language variants: `./intro.md` (or the
/// route `./intro`) where the folder holds `intro-js.md` or `intro-csharp-java-python.md`, and
/// no `intro.md`. The commit that split the page renamed it to one variant (or deleted it):
/// rewriting the link to that one would send every other language's reader to the wrong page,
/// as playwright's docs showed.
fn language_variant(ctx: &TreeCtx<'_>, doc: &Doc, written: &str) -> bool {
    let rel = written.trim_end_matches('/');
    if written.starts_with('/') || rel.is_empty() {
        return false;
    }
    let Some(at) = crate::scan::refs::normalize(crate::scan::refs::folder(&doc.path), rel) else {
        return false;
    };
    let (stem, ext) = match at.rsplit_once('.') {
        Some((stem, ext))
            if crate::scan::sites::PAGE_EXTENSIONS.contains(&ext)
                && !stem.ends_with('/')
                && !stem.rsplit('/').next().unwrap_or(stem).is_empty() =>
        {
            (stem, vec![ext])
        }
        _ if !at.rsplit('/').next().unwrap_or(&at).contains('.') => {
            (at.as_str(), crate::scan::sites::PAGE_EXTENSIONS.to_vec())
        }
        _ => return false,
    };
    let prefix = format!("{stem}-");
    let pages = ctx.tree.variant_pages.get_or_init(|| {
        let mut v: Vec<String> = (ctx.tree.files.iter())
            .filter(|f| language_suffixed(f))
            .cloned()
            .collect();
        v.sort_unstable();
        v
    });
    let from = pages.partition_point(|f| f.as_str() < prefix.as_str());
    pages[from..]
        .iter()
        .map_while(|f| f.strip_prefix(&prefix))
        .any(|rest| {
            rest.rsplit_once('.').is_some_and(|(langs, e)| {
                ext.contains(&e)
                    && !langs.contains('/')
                    && langs.split('-').all(|l| LANGUAGE_VARIANTS.contains(&l))
            })
        })
}

/// Whether a file's name ends in a language before its extension (`intro-js.md`): the only
/// files [`language_variant`] can match.
fn language_suffixed(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    name.rsplit_once('.')
        .and_then(|(stem, _)| stem.rsplit_once('-'))
        .is_some_and(|(_, lang)| LANGUAGE_VARIANTS.contains(&lang))
}

/// Whether a code path is written from inside the package the document sits beside (a
/// `THREAT_MODEL.md` in `libs/agents/` naming `middleware/files.py` for
/// `libs/agents/agents/middleware/files.py`; `src/` and `lib/` likewise), and history does not
/// show the text predating that layout: the path's first rename is older than the document.
fn package_shorthand(
    ctx: &TreeCtx<'_>,
    doc: &Doc,
    written: &str,
    cands: &[(String, bool)],
) -> bool {
    let w = written.trim_start_matches("./");
    if w.starts_with(['/', '.']) || !w.contains('/') {
        return false;
    }
    let dir = crate::scan::refs::folder(&doc.path);
    let own = dir.rsplit('/').next().unwrap_or(dir);
    let join = |sub: &str| match dir {
        "" => format!("{sub}/{w}"),
        d => format!("{d}/{sub}/{w}"),
    };
    let found = ["src", "lib", own, &own.replace('-', "_")]
        .iter()
        .filter(|s| !s.is_empty())
        .any(|s| ctx.tree.exists(&join(s)));
    if !found {
        return false;
    }
    let Some(h) = ctx.history else {
        return true;
    };
    first_rename(h, cands).is_none() || rename_predates(h, doc, cands)
}

/// Whether a code path of one folder and a name (`skills/parser.py`) ends exactly one file of
/// the tree (`backend/deerflow/skills/parser.py`): written from that file's package, it is a
/// shorthand every reader resolves. Asked only where history never knew the path here and
/// no folder of that name sits beside the document (a README's `components/Chart.tsx` where
/// its `components/` lacks it is a claim about that folder).
fn unique_tail(ctx: &TreeCtx<'_>, written: &str) -> bool {
    let w = written.trim_start_matches("./").trim_end_matches('/');
    !w.starts_with(['/', '.']) && w.matches('/').count() == 1 && ctx.tree.tail_count(w) == 1
}

/// Whether every reading of a folder path names a folder the tree and its history never had,
/// whose name no folder of the tree has, with no folder beside it named like it (one name
/// starting with the other: `accelerate_config` and `accelerate_configs`).
fn unknown_folder(ctx: &TreeCtx<'_>, cands: &[(String, bool)]) -> bool {
    let split = |c: &str| -> (String, String) {
        let c = c.trim_end_matches('/');
        let (parent, name) = c.rsplit_once('/').unwrap_or(("", c));
        (parent.to_string(), name.to_string())
    };
    let Some((_, name)) = cands.first().map(|(c, _)| split(c)) else {
        return false;
    };
    if name.is_empty() || ctx.tree.dir_names().contains(&name) {
        return false;
    }
    if ctx
        .history
        .is_some_and(|h| cands.iter().any(|(c, _)| h.knew_under(c)))
    {
        return false;
    }
    let near = |a: &str, b: &str| {
        let (a, b) = (a.to_lowercase(), b.to_lowercase());
        a.len().min(b.len()) >= 3 && (a.starts_with(&b) || b.starts_with(&a))
    };
    !cands.iter().any(|(c, _)| {
        let (parent, name) = split(c);
        ctx.tree.subfolders(&parent).any(|n| near(n, &name))
    })
}

/// The commit index of the first rename git records for any of `cands`.
fn first_rename(h: &crate::git::History, cands: &[(String, bool)]) -> Option<usize> {
    first_rename_of(h, cands).map(|(_, _, ci)| ci)
}

/// The first candidate git renamed, with its new name and the renaming commit's index.
fn first_rename_of<'c>(
    h: &crate::git::History,
    cands: &'c [(String, bool)],
) -> Option<(&'c str, String, usize)> {
    cands.iter().find_map(|(c, _)| match h.event(c) {
        Some(crate::git::LastEvent::RenamedTo(to, ci, _)) => Some((c.as_str(), to, ci)),
        _ => None,
    })
}

/// Whether the path's first rename is older than the document's first commit under its name:
/// the text was written after the file had moved, so that move did not stale it.
fn rename_predates(h: &crate::git::History, doc: &Doc, cands: &[(String, bool)]) -> bool {
    // Indices count back from the newest commit: a larger one is older.
    matches!((first_rename(h, cands), born(h, doc)), (Some(rename), Some(born)) if rename > born)
}

/// Whether a backticked path's deletion (at `gone`, seconds) is at least
/// [`crate::scan::Thresholds::missing_path_deleted_before_days`] older than the document's first
/// commit under its name: its writer never saw that file here, so the text means another one
/// (the reader's `src/App.tsx`, a root `src/` this tree gave up years before). A link is
/// resolved in this tree whatever its writer saw, so it keeps its evidence.
fn deleted_before_doc(
    ctx: &TreeCtx<'_>,
    doc: &Doc,
    r: &crate::scan::markdown::Ref,
    gone: i64,
) -> bool {
    let Some(h) = ctx.history.filter(|_| r.via == crate::report::Via::Code) else {
        return false;
    };
    let days = i64::from(crate::scan::THRESHOLDS.missing_path_deleted_before_days);
    born(h, doc)
        .and_then(|b| h.commits.get(b))
        .is_some_and(|born| born.time - gone >= days * 86_400)
}

/// Whether commit `id` is the document's first commit under its name.
fn removed_at_birth(ctx: &TreeCtx<'_>, doc: &Doc, id: &str) -> bool {
    ctx.history
        .is_some_and(|h| born(h, doc).is_some_and(|b| h.commits.get(b).is_some_and(|c| c.id == id)))
}

/// The commit index of the document's first commit under its name (the largest: indices count
/// back from the newest commit).
fn born(h: &crate::git::History, doc: &Doc) -> Option<usize> {
    h.touches(&doc.path).and_then(|t| t.iter().max().copied())
}

/// The last segment of a path (`tools/exa_test.py` is `exa_test.py`; a folder's own name).
fn file_name(p: &str) -> &str {
    p.trim_end_matches('/').rsplit('/').next().unwrap_or("")
}

/// Whether a rename that changes the file's name would leave a link label on the line naming
/// the old file (`[exa_search_test.py](tools/exa_search_test.py)` to
/// `tools/exa_search_deep_research.py`), or a move would leave a label that spells the old
/// path (`[src/agents/AGENTS.md](../src/agents/AGENTS.md)` to `../src/sessions/AGENTS.md`):
/// rewriting only the target makes the label disagree with it, so the model rewrites both.
///
/// ```
/// use hygiene::scan::detectors::missing_path::names_old_file_elsewhere;
/// let l = "- [exa_test.py](tools/exa_test.py) - search";
/// assert!(names_old_file_elsewhere(l, "tools/exa_test.py", "tools/exa/deep_research.py"));
/// // The same name in a new folder, or a label that is the path itself, is rewritten whole.
/// assert!(!names_old_file_elsewhere(l, "tools/exa_test.py", "tools/exa/exa_test.py"));
/// assert!(!names_old_file_elsewhere("- [exa_test.py](exa_test.py)", "exa_test.py", "deep.py"));
/// // Another link to the same file is rewritten too, not a label.
/// assert!(!names_old_file_elsewhere("[x](./x.md) and [again](x.md)", "./x.md", "../ref/y.md"));
/// let moved = "See **[src/agents/AGENTS.md](../src/agents/AGENTS.md)**.";
/// assert!(names_old_file_elsewhere(moved, "../src/agents/AGENTS.md", "../src/sessions/AGENTS.md"));
/// ```
pub fn names_old_file_elsewhere(line: &str, written: &str, new: &str) -> bool {
    let old = file_name(written);
    if old.is_empty() {
        return false;
    }
    // The path as a label spells it: without the `./` and `../` a link needs.
    let spelled = |p: &'_ str| -> String {
        let mut p = p;
        while let Some(r) = p.strip_prefix("./").or_else(|| p.strip_prefix("../")) {
            p = r;
        }
        p.to_string()
    };
    let old_path = spelled(written);
    let moved = old_path.contains('/') && old_path != spelled(new);
    if old == file_name(new) && !moved {
        return false;
    }
    // A link's label (`[exa_test.py]`), not another reference to the same file.
    let rest = line.replace(written, "");
    rest.split('[')
        .skip(1)
        .filter_map(|s| s.split_once(']').map(|(label, _)| label))
        .any(|label| {
            (old != file_name(new) && label.contains(old)) || (moved && label.contains(&old_path))
        })
}

/// Whether the commit that moved the path also reworded the line naming it, in a document
/// older than that commit that already named the path (git blame's commit for the line is the
/// rename's): the author edited that very line while moving the file and kept the old name,
/// so it is meant ("Link within a
/// package using relative paths (`./state.md`)", reworded by the commit that moved
/// `docs/state.md` into `docs/agents/`, is an illustration). A document born in the moving
/// commit (a plan squashed in with the refactor it plans) may well predate the move on its
/// branch, and a line written later may be a copy of older stale text (a page migrated into a
/// docs site), so neither counts. `blamed` holds the document's lines' commits and texts at
/// `HEAD`, asked once; `text` is the line in the work tree.
fn line_reworded_by_move<'a>(
    ctx: &TreeCtx<'_>,
    doc: &Doc,
    (line, written): (u32, &str),
    text: Option<&str>,
    blamed: impl FnOnce() -> &'a std::collections::HashMap<u32, (String, String)>,
    cands: &[(String, bool)],
) -> bool {
    let Some((h, rename)) = ctx
        .history
        .and_then(|h| first_rename(h, cands).map(|r| (h, r)))
    else {
        return false;
    };
    // A larger index is older. Blame is asked only for a document older than the move.
    // The blamed line is `HEAD`'s: it counts only where the work tree still has that text,
    // and only where the document named the path before that commit (a line that took the old
    // name up in the moving commit is a slip, not an illustration).
    born(h, doc).is_some_and(|b| b > rename)
        && blamed().get(&line).is_some_and(|(id, was)| {
            Some(was.as_str()) == text && h.commits.iter().position(|c| c.id == *id) == Some(rename)
        })
        && crate::git::text_before(&ctx.tree.root, &h.commits[rename].id, &doc.path)
            .is_some_and(|before| before.contains(written))
}

/// Folders whose documents, in test data, are a test's inputs (`tests/data/markdown/`,
/// `testdata/`) or a benchmark's results (`benchmark/extraction/result/`, saved pages and what
/// was extracted from them): copied pages and notes whose links and anchors are their
/// source's, not this repository's.
pub const TEST_INPUT_FOLDERS: &[&str] = &[
    "data",
    "testdata",
    "test-data",
    "test_data",
    "result",
    "results",
];

/// Whether `doc` is test data under one of [`TEST_INPUT_FOLDERS`], or anything under a
/// `fixtures/` folder inside a test folder (`test/simulation/fixtures/edit/README.md`, a copied
/// README a test edits, whatever role its text suggests; a root `fixtures/` of example apps
/// keeps its claims).
pub fn test_input(doc: &Doc) -> bool {
    let segs: Vec<&str> = crate::scan::refs::folder(&doc.path).split('/').collect();
    // Whether a folder above segment `i` is one of `names`.
    let under = |i: usize, names: &[&str]| segs[..i].iter().any(|s| names.contains(s));
    let in_tests = |i: usize| under(i, &["test", "tests", "__tests__"]);
    let in_benches = |i: usize| under(i, &["bench", "benches", "benchmark", "benchmarks"]);
    let data = segs.iter().any(|seg| TEST_INPUT_FOLDERS.contains(seg));
    let fixture = segs
        .iter()
        .enumerate()
        .any(|(i, seg)| *seg == "fixtures" && (in_tests(i) || in_benches(i)));
    // A page in a test folder's cases (`tests/specs/markdown/link.md`,
    // `tests/md_test_suite/ok/x.md`: a Markdown parser's inputs) is a case a test reads, unless
    // it is the folder's own documentation (a README). An mdtest suite's pages
    // (`tests/resources/mdtest/`) are the repository's own documents and keep their claims.
    let case = segs.iter().enumerate().any(|(i, s)| {
        (s.ends_with("_suite") || s.ends_with("-suite") || TEST_CASE_FOLDERS.contains(s))
            && in_tests(i)
    }) && !crate::roles::is_readme(&doc.path);
    (doc.role == crate::roles::Role::Fixture && data) || fixture || case
}

/// Extensions of the programs whose quoting of a document's name makes it their input
/// ([`read_by_a_program`]). Published as `scanner.missing_path_reader_extensions`.
pub const READER_EXTENSIONS: &[&str] = &[
    "js", "mjs", "cjs", "ts", "mts", "cts", "jsx", "tsx", "py", "go", "rs", "rb", "java", "kt",
    "cs", "sh",
];

/// How many programs beside a document, and how many bytes of each, are searched for its name.
const READERS_MAX: usize = 256;
const READER_MAX_BYTES: u64 = 1 << 20;

/// Whether a program beside the document quotes its file name (`workspace.readText(
/// path.join(__dirname, "langgraph.md"))`): the document is that program's input, a copy of
/// pages from elsewhere whose links and anchors are their source's. Not a README or an agent's
/// instructions, which an installer or `setup.py` reads to ship, not as data. Reads only the
/// folder of a document a missing reference was found in.
pub fn read_by_a_program(
    root: &std::path::Path,
    tree: &crate::scan::refs::Tree,
    doc: &str,
) -> bool {
    let (folder, name) = doc.rsplit_once('/').unwrap_or(("", doc));
    if crate::roles::is_readme(doc)
        || CONVENTION_NAMES.contains(&name)
        || name.eq_ignore_ascii_case("SKILL.md")
    {
        return false;
    }
    if quoted_by_a_program(root, tree, folder, name) {
        return true;
    }
    // A program one folder up names it with its folder (`import guide from
    // "./guides/add-authentication.md?raw"`: the page is a string the app bundles).
    let (parent, last) = folder.rsplit_once('/').unwrap_or(("", folder));
    !folder.is_empty() && quoted_by_a_program(root, tree, parent, &format!("{last}/{name}"))
}

/// Whether a program ([`READER_EXTENSIONS`]) in `folder` quotes `needle` as the end of a
/// path: a quote or `/` before it, a quote or a query (`?raw`) after it.
fn quoted_by_a_program(
    root: &std::path::Path,
    tree: &crate::scan::refs::Tree,
    folder: &str,
    needle: &str,
) -> bool {
    let Ok(entries) = std::fs::read_dir(root.join(folder)) else {
        return false;
    };
    let finder = memchr::memmem::Finder::new(needle.as_bytes());
    let quote = |c: Option<u8>| c.is_some_and(|c| matches!(c, b'"' | b'\'' | b'`'));
    entries
        .filter_map(Result::ok)
        .filter_map(|e| {
            let file = e.file_name().into_string().ok()?;
            let ext = file.rsplit_once('.')?.1;
            let rel = crate::scan::sites::join(folder, &file);
            (READER_EXTENSIONS.contains(&ext) && tree.files.contains(&rel)).then_some(rel)
        })
        .take(READERS_MAX)
        .any(|rel| {
            // A regular file only, never through a link.
            let Some(bytes) = crate::scan::sites::read_config(&root.join(&rel), READER_MAX_BYTES)
            else {
                return false;
            };
            finder.find_iter(&bytes).any(|at| {
                let before = at.checked_sub(1).map(|i| bytes[i]);
                let after = bytes.get(at + needle.len()).copied();
                (quote(before) || before == Some(b'/')) && (quote(after) || after == Some(b'?'))
            })
        })
}

/// Words that make a document a plan: a word of its file name (`RECALL_TOOL_CALLS_PLAN.md`,
/// `rfc-think-multi-session.md`) or the name of a folder it is in (`proposals/`, `ideas/`).
/// Published as `scanner.missing_path_plan_document_words`.
pub const PLAN_DOCUMENT_WORDS: &[&str] = &[
    "plan",
    "plans",
    "roadmap",
    "roadmaps",
    "proposal",
    "proposals",
    "rfc",
    "rfcs",
    "ideas",
];

/// Words before a path in a plan that say the file is there now ("Existing tests:
/// `test/e2e/setup.test.ts`"): a claim, though a plan's other files are intentions.
/// Published as `scanner.missing_path_plan_claim_words`.
pub const PLAN_CLAIM_WORDS: &[&str] = &["existing"];

/// Whether a shell command in the document writes `written` by redirection (`node gen.mjs >
/// scripts/prompt.md`, `cat >> src/user.ts`): the reader's command makes the file, so its
/// absence from the repository says nothing. A diagram's arrow (`-->`, `=>`) is no redirection.
///
/// ```
/// use hygiene::scan::detectors::missing_path::redirected_to;
/// let doc = "```bash\nnode gen.mjs code-prompt 0 > scripts/code-prompt.md\n```\n";
/// assert!(redirected_to(doc, "scripts/code-prompt.md"));
/// assert!(redirected_to("cat >> ./src/user.ts <<EOF", "src/user.ts"));
/// assert!(!redirected_to("A --> src/core/index.ts", "src/core/index.ts"));
/// assert!(!redirected_to("run > scripts/code-prompt.md.bak", "scripts/code-prompt.md"));
/// ```
pub fn redirected_to(text: &str, written: &str) -> bool {
    let w = written.trim_start_matches("./");
    if w.is_empty() {
        return false;
    }
    text.match_indices(w).any(|(at, _)| {
        let ends = text[at + w.len()..]
            .chars()
            .next()
            .is_none_or(|c| !(c.is_alphanumeric() || "/._-".contains(c)));
        let before = text[..at]
            .strip_suffix("./")
            .unwrap_or(&text[..at])
            .trim_end_matches(['"', '\''])
            .trim_end_matches([' ', '\t']);
        let arrows = before.len() - before.trim_end_matches('>').len();
        ends && (1..=2).contains(&arrows) && before.trim_end_matches('>').ends_with([' ', '\t'])
    })
}

/// Whether the clause before `written` in `sentence` has a [`PLAN_CLAIM_WORDS`] word.
///
/// ```
/// use hygiene::scan::detectors::missing_path::says_it_exists;
/// let l = "- Existing journey tests: `test/e2e/setup.test.ts`, `test/e2e/adopt.test.ts`.";
/// assert!(says_it_exists(l, "test/e2e/adopt.test.ts"));
/// assert!(!says_it_exists("- Create `src/new.ts` beside the existing one", "src/new.ts"));
/// ```
pub fn says_it_exists(sentence: &str, written: &str) -> bool {
    let lower = sentence.to_lowercase();
    let before = &lower[..lower.find(&written.to_lowercase()).unwrap_or(lower.len())];
    before
        .split(|c: char| !c.is_alphanumeric())
        .any(|w| PLAN_CLAIM_WORDS.contains(&w))
}

/// Whole file names (without extension, any case) that make a document a plan: `spec.md`, the
/// specification of what a change or a project will build (`projects/<name>/spec.md`,
/// `changes/<id>/specs/<capability>/spec.md`). The word alone is no plan: `field_specs.md` is a
/// user guide and `SPEC-SCHEMA-IMPL.md` describes built code. Published as
/// `scanner.missing_path_plan_document_names`.
pub const PLAN_DOCUMENT_NAMES: &[&str] = &["spec"];

/// Whether the document at `path` is a plan, a roadmap, a proposal, an RFC or a spec
/// ([`PLAN_DOCUMENT_WORDS`], [`PLAN_DOCUMENT_NAMES`]): what it names it may mean to create.
///
/// ```
/// use hygiene::scan::detectors::missing_path::plan_document;
/// assert!(plan_document("RECALL_TOOL_CALLS_PLAN.md") && plan_document("design/rfc-sub-agents.md"));
/// assert!(plan_document("docs/proposals/deep-research.md") && plan_document("ideas/voice.md"));
/// assert!(plan_document("projects/codec/spec.md") && plan_document("work/slices/a/SPEC.md"));
/// assert!(!plan_document("docs/planning-guide.md") && !plan_document("docs/explanation.md"));
/// assert!(!plan_document("guide/field_specs.md") && !plan_document("docs/specs/SPEC-IMPL.md"));
/// ```
pub fn plan_document(path: &str) -> bool {
    let one_of = |table: &[&str], w: &str| table.iter().any(|p| p.eq_ignore_ascii_case(w));
    let (folders, name) = path.rsplit_once('/').unwrap_or(("", path));
    let stem = name.rsplit_once('.').map_or(name, |(s, _)| s);
    stem.split(|c: char| !c.is_ascii_alphanumeric())
        .any(|w| one_of(PLAN_DOCUMENT_WORDS, w))
        || one_of(PLAN_DOCUMENT_NAMES, stem)
        || folders.split('/').any(|f| one_of(PLAN_DOCUMENT_WORDS, f))
}

/// Folders of test cases inside a test folder (`tests/specs/`, `test/scenarios/`: the sample
/// pages a search-and-replace scenario edits; also any `*_suite/`): their pages are inputs a
/// test reads. Published as `scanner.missing_path_test_case_folders`.
pub const TEST_CASE_FOLDERS: &[&str] = &["specs", "spec", "cases", "inputs", "input", "scenarios"];

/// Whether a site page's link would be rewritten to a file its site does not serve: that
/// trades a broken link for another, so the model decides.
fn link_out_of_site(ctx: &TreeCtx<'_>, doc: &Doc, via: crate::report::Via, to: &str) -> bool {
    via == crate::report::Via::Link && crate::scan::sites::outside_content(ctx.tree, &doc.path, to)
}

/// Whether the commit that renamed the file pointed the text that named it at another file:
/// in its own patch, most lines that dropped the old file name did not take up the new one.
/// SWE-agent's commit that renamed `anthropic_filemap.yaml` to `default_backticks.yaml`
/// changed every `--config config/anthropic_filemap.yaml` to `config/default.yaml`, the new
/// default: git paired the files by content, the author moved the name's role elsewhere, so
/// "Default config: `anthropic_filemap.yaml`" is the model's to read. Asked only where the
/// rename changes the file's name (a folder move keeps it), one git process per question.
fn repointed_elsewhere(ctx: &TreeCtx<'_>, cands: &[(String, bool)]) -> bool {
    let Some(h) = ctx.history else {
        return false;
    };
    let Some((from, to, ci)) = first_rename_of(h, cands) else {
        return false;
    };
    let (old, new) = (file_name(from), file_name(&to));
    if old.is_empty() || new.is_empty() || old == new {
        return false;
    }
    ctx.git
        .name_changes(&ctx.tree.root, &h.commits[ci].id, old, new)
        .is_some_and(|(dropped, taken)| dropped > 0 && taken * 2 < dropped)
}

/// Whether git's new name `to` only puts folders in front of `written` (`prisma/schema.prisma`
/// moved into `packages/database/`) in a document written after that move: the text names the
/// file from inside its package, a reader finds it, and rewriting it changes the author's
/// words for no fix (the model still sees the rename).
fn moved_under_since(
    ctx: &TreeCtx<'_>,
    doc: &Doc,
    written: &str,
    to: &str,
    cands: &[(String, bool)],
) -> bool {
    let w = written.trim_start_matches("./");
    to.ends_with(&format!("/{w}")) && ctx.history.is_some_and(|h| rename_predates(h, doc, cands))
}

/// The folders TypeDoc's Markdown and HTML themes write one page per declaration into
/// (`classes/openai.md`, `functions/run.html`). Published as `scanner.typedoc_kind_folders`.
pub const TYPEDOC_KIND_FOLDERS: &[&str] = &[
    "classes",
    "interfaces",
    "functions",
    "enums",
    "type-aliases",
    "variables",
    "namespaces",
    "modules",
];

/// The TypeDoc configuration files that make a site's (or the repository's) API reference
/// generated at build time.
pub const TYPEDOC_CONFIGS: &[&str] = &[
    "typedoc.json",
    "typedoc.jsonc",
    "typedoc.config.js",
    "typedoc.config.mjs",
    "typedoc.config.cjs",
];

/// Whether a site page's missing route is a page TypeDoc generates at build time: a
/// declaration under one of [`TYPEDOC_KIND_FOLDERS`] (`/api/classes/openai/`), where the site's
/// root or the repository's holds a TypeDoc configuration. The pages are not in the tree.
fn typedoc_route(ctx: &TreeCtx<'_>, doc: &Doc, written: &str) -> bool {
    let Some((site, _)) = ctx.tree.sites().of(&doc.path) else {
        return false;
    };
    let segs: Vec<&str> = written.trim_matches('/').split('/').collect();
    let kind_then_page = segs
        .iter()
        .position(|s| TYPEDOC_KIND_FOLDERS.contains(s))
        .is_some_and(|i| i + 2 == segs.len());
    kind_then_page
        && [site, ""].iter().any(|root| {
            TYPEDOC_CONFIGS
                .iter()
                .any(|c| ctx.tree.files.contains(&crate::scan::sites::join(root, c)))
        })
}

/// Whether a site page's missing route names a page by its frontmatter `slug`, `url` or
/// `aliases` (Hugo and Docusaurus serve a page at its slug, whatever its file is called), or
/// a Docusaurus page by its `id` (`docs/users/Shared_Configurations.mdx` with `id: configs`
/// is `/users/configs`).
fn served_by_slug(ctx: &TreeCtx<'_>, doc: &Doc, written: &str) -> bool {
    let Some((site, rule)) = ctx.tree.sites().of(&doc.path) else {
        return false;
    };
    let route = written.trim_matches('/');
    if route.is_empty() {
        return false;
    }
    let last = route.rsplit('/').next().unwrap_or(route);
    let docusaurus = rule.generator == "docusaurus";
    ctx.docs
        .iter()
        .filter(|d| {
            site.is_empty()
                || d.path.starts_with(&format!("{site}/"))
                || ctx.tree.sites().linked_into(site, &d.path)
        })
        .any(|d| {
            // An `id` replaces the file's name only: the route keeps the page's folder.
            let by_id = docusaurus
                && d.parsed.frontmatter.get("id").is_some_and(|(id, _)| {
                    let id = id.trim_matches(['"', '\'', '/']);
                    let folder = crate::scan::refs::folder(&d.path);
                    let parent = folder.rsplit('/').next().unwrap_or(folder);
                    !id.is_empty()
                        && (route == format!("{parent}/{id}")
                            || route.ends_with(&format!("/{parent}/{id}")))
                });
            by_id
                || ["slug", "url", "permalink", "aliases"].iter().any(|k| {
                    d.parsed.frontmatter.get(k).is_some_and(|(v, _)| {
                        v.split([',', '[', ']', ' '])
                            .map(|x| x.trim_matches(['"', '\'', '/']))
                            .filter(|x| !x.is_empty())
                            // Under the docs' route base (`/docs/` + `slug: /client/setup`).
                            .any(|x| {
                                x == route
                                    || x == last
                                    || route
                                        .strip_suffix(x)
                                        .is_some_and(|base| base.ends_with('/'))
                            })
                    })
                })
        })
}

/// A document's lines and fenced blocks, found once for all its missing references: each
/// reference's cues read the lines around it, and reading the text again for each made a
/// page with thousands of missing paths quadratic.
pub struct Layout<'t> {
    lines: Vec<&'t str>,
    fences: Vec<(u32, u32)>,
}

impl<'t> Layout<'t> {
    /// The layout of `text`.
    pub fn of(text: &'t str) -> Layout<'t> {
        Layout {
            lines: text.lines().collect(),
            fences: crate::scan::markdown::fence_lines(text),
        }
    }
}

/// A missing reference and what history says of it: the file git renamed it to (with whether
/// the candidate was read from the document's folder, and git's similarity score), or the
/// commit that deleted it.
struct Missing<'r> {
    r: &'r crate::scan::markdown::Ref,
    written: &'r String,
    candidates: &'r [(String, bool)],
    renamed: Option<(String, bool, u8)>,
    deleted: Option<DeletedIn>,
}

impl Missing<'_> {
    /// Whether history knew the path: git renamed or deleted it.
    fn evidence(&self) -> bool {
        self.renamed.is_some() || self.deleted.is_some()
    }
}

/// A missing reference's rename (new name, read from the document's folder, similarity) or
/// deletion (with the deleting commit's time).
type Fate = (Option<(String, bool, u8)>, Option<(DeletedIn, i64)>);

/// What history says of a missing reference's candidates: the first rename, else the first
/// deletion (a rename wins: the file lives on). A relative link's root reading
/// ([`root_read_link`]) is not asked when a file of the link's name lives below the document's
/// folder: `[Troubleshooting](TROUBLESHOOTING.md)` in a backed-up pack's README meant the
/// pack's own `docs/TROUBLESHOOTING.md`, not the root's, whatever became of that.
fn fate_of(
    ctx: &TreeCtx<'_>,
    doc: &Doc,
    r: &crate::scan::markdown::Ref,
    written: &str,
    candidates: &[(String, bool)],
) -> Fate {
    let Some(h) = ctx.history else {
        return (None, None);
    };
    let mut deleted = None;
    for (cand, folder_relative) in candidates {
        let (to, gone) = h.fate(cand, |p| ctx.tree.is_file(p));
        if (to.is_some() || gone.is_some())
            && root_read_link(r.via, *folder_relative, written)
            && named_below(ctx, crate::scan::refs::folder(&doc.path), cand)
        {
            continue;
        }
        if let Some((to, score)) = to {
            return (Some((to, *folder_relative, score)), None);
        }
        if deleted.is_none() {
            deleted = gone.map(|c| {
                let d = DeletedIn {
                    commit: c.id.clone(),
                    date: crate::time::format_date(c.time),
                };
                (d, c.time)
            });
        }
    }
    (None, deleted)
}

/// A document's facts that its missing references are judged by, each read or counted on the
/// first reference that asks (most documents have none): its text (the scan does not keep
/// it), whether git ignores it, how many of its links are another site's routes, whether it
/// links its own site by route, and the commits that wrote its missing references' lines.
struct Facts<'a, 't> {
    doc: &'a Doc,
    ctx: &'a TreeCtx<'t>,
    text: &'a std::cell::OnceCell<Option<String>>,
    layout: std::cell::OnceCell<Option<Layout<'a>>>,
    ignored: std::cell::OnceCell<bool>,
    foreign: std::cell::OnceCell<usize>,
    routed: std::cell::OnceCell<bool>,
    blamed: std::cell::OnceCell<std::collections::HashMap<u32, (String, String)>>,
    read_by_a_program: std::cell::OnceCell<bool>,
}

impl<'a, 't> Facts<'a, 't> {
    /// The facts of `doc`, whose text is read (on first use) into `text`, which outlives them.
    fn new(
        doc: &'a Doc,
        ctx: &'a TreeCtx<'t>,
        text: &'a std::cell::OnceCell<Option<String>>,
    ) -> Self {
        Facts {
            doc,
            ctx,
            text,
            layout: std::cell::OnceCell::new(),
            ignored: std::cell::OnceCell::new(),
            foreign: std::cell::OnceCell::new(),
            routed: std::cell::OnceCell::new(),
            blamed: std::cell::OnceCell::new(),
            read_by_a_program: std::cell::OnceCell::new(),
        }
    }

    /// Whether a program beside the document reads it ([`read_by_a_program`]).
    fn read_by_a_program(&self) -> bool {
        *self
            .read_by_a_program
            .get_or_init(|| read_by_a_program(&self.ctx.tree.root, self.ctx.tree, &self.doc.path))
    }

    fn text(&self) -> Option<&'a str> {
        let text: &'a std::cell::OnceCell<Option<String>> = self.text;
        text.get_or_init(|| text_of(self.ctx, &self.doc.path))
            .as_deref()
    }

    /// The text's [`Layout`].
    fn layout(&self) -> Option<&Layout<'a>> {
        self.layout
            .get_or_init(|| self.text().map(Layout::of))
            .as_ref()
    }

    /// Line `n` (1-based) of the text.
    fn line(&self, n: u32) -> Option<&'a str> {
        self.layout()
            .and_then(|l| l.lines.get(n.checked_sub(1)? as usize).copied())
    }

    fn ignored(&self) -> bool {
        *self
            .ignored
            .get_or_init(|| self.ctx.tree.ignored(&self.doc.path))
    }

    fn foreign(&self) -> usize {
        *self
            .foreign
            .get_or_init(|| foreign_routes(self.doc, self.ctx))
    }

    fn routed(&self) -> bool {
        *self.routed.get_or_init(|| links_by_route(self.doc))
    }

    /// The commits that wrote the lines of the document's missing references, asked on the
    /// first rename that would be written.
    fn blamed(&self) -> &std::collections::HashMap<u32, (String, String)> {
        self.blamed.get_or_init(|| {
            let (doc, ctx) = (self.doc, self.ctx);
            let mut lines: Vec<u32> = doc
                .resolved()
                .filter(|(_, t)| matches!(t, Target::Missing { .. }))
                .map(|(r, _)| r.line)
                .collect();
            lines.sort_unstable();
            lines.dedup();
            // The history is walked from `HEAD`: its first commit is the one blamed.
            match ctx.history.and_then(|h| h.commits.first()) {
                Some(head) => ctx
                    .git
                    .blame_lines(&ctx.tree.root, &head.id, &doc.path, &lines),
                None => {
                    crate::git::blame_lines(&ctx.tree.root, &doc.path, &lines).unwrap_or_default()
                }
            }
        })
    }
}

/// Whether the missing path is not this tree's to have: a path git ignores (a build output, a
/// local checkout), another repository's file that a link names, a test input's own link, a
/// file that became shipped content, a path whole under the folder its document moved into,
/// another client's mention.
fn not_this_trees(f: &Facts<'_, '_>, m: &Missing<'_>) -> bool {
    let (doc, ctx) = (f.doc, f.ctx);
    let Missing {
        r,
        written,
        candidates,
        renamed,
        ..
    } = m;
    // A path git ignores is a build output, a local checkout or a tool's runtime
    // state (`.beads/issues.jsonl`): that it is absent here proves nothing. Any reading
    // counts: a package's own `.gitignore` lists the package's build output, which its
    // README names from the package's folder.
    // (Not where the document itself sits in an ignored folder: a force-added note's
    // relative readings are ignored with it.)
    let doc_ignored = candidates.len() > 1 && f.ignored();
    // A link to a page without its extension (`[Features](025_features)`, the way a docs
    // site links) names the page file: ignored when git ignores that file by name (a page a
    // script generates), not by its kind (`*.ipynb`: a made-up name beside it is ignored too).
    let page_ignored = |c: &str| {
        let dir = crate::scan::refs::folder(c);
        r.via == crate::report::Via::Link
            && crate::scan::markdown::extension(c).is_none()
            && crate::scan::sites::PAGE_EXTENSIONS.iter().any(|e| {
                ctx.tree.ignored(&format!("{c}.{e}"))
                    && !ctx.tree.ignored(&crate::scan::sites::join(
                        dir,
                        &format!("hygiene-probe.{e}"),
                    ))
            })
    };
    let ignored = |(c, folder_relative): &(String, bool)| {
        !(doc_ignored && *folder_relative) && (ctx.tree.ignored(c) || page_ignored(c))
    };
    // Renamed, it counts only where the new file has the ignored path's name: the
    // ignored location is then a copy or link of it that setting up the project makes
    // (prisma's `.cursor/rules/x.mdc`, linked to `.agents/rules/x.mdc` on install).
    let mirrored = |c: &(String, bool)| {
        renamed
            .as_ref()
            .is_none_or(|(to, _, _)| file_name(to) == file_name(&c.0))
    };
    if candidates.iter().any(|c| ignored(c) && mirrored(c)) {
        return true;
    }
    // A backticked path that is the text of a link to another repository or site
    // (``[`docs/x.md`](https://github.com/org/other/blob/main/docs/x.md)``) names that
    // place's file, and the link says so: whatever this repository once kept there
    // (a folder moved to another repository), only a rename here makes it a claim.
    if r.via == crate::report::Via::Code
        && renamed.is_none()
        && r.linked.as_deref().is_some_and(|u| ctx.tree.elsewhere(u))
    {
        return true;
    }
    // A test's input document (an essay, a saved web page, sample notes under
    // `tests/data/`) carries its source's own links: a path history never knew here is
    // part of the data. The repository's own test documents (an mdtest suite) keep
    // every claim. So does a document a program beside it reads by name (a copied docs
    // page a sample script loads).
    if !m.evidence() && (test_input(doc) || f.read_by_a_program()) {
        return true;
    }
    // A file that became shipped content (a project's `memory/constitution.md` moved
    // to `templates/constitution-template.md`): the old name is now the user's copy.
    if renamed
        .as_ref()
        .is_some_and(|(to, _, _)| became_shipped(ctx, doc, to))
    {
        return true;
    }
    // A document that moved into a folder together with the files it names
    // (`.claude/commands/x.md` and `.simone/MANIFEST.md` both into `legacy/`) names
    // them from the project root it is installed at, which that folder now holds: the
    // path is whole under it (`legacy/.simone/MANIFEST.md`), not missing.
    if renamed
        .as_ref()
        .is_some_and(|(to, relative, _)| !relative && rerooted_path(&doc.path, written, to))
    {
        return true;
    }
    // `@src/auth.ts` in a document no agent reads as instructions or a prompt (a tutorial's
    // "Fix @src/auth.ts to match @tests/auth.test.ts", a page on the import syntax's
    // `@file.md`, VitePress's `<<< @../examples/x.ts`) is a mention in the reader's prompt, an
    // example of the syntax or another tool's: only a client that loads the document expands
    // its `@` paths. A client's own folder (`.continue/rules/`, `.cursor/`) is loaded by it.
    if r.via == crate::report::Via::Import
        && doc.freq != crate::report::InjectionFrequency::PerSession
        && !crate::scan::is_prompt(&doc.path)
        && !doc.path.split('/').any(|seg| seg.starts_with('.'))
        && crate::readers::readers_of(&doc.path, false, false) == [crate::readers::Reader::People]
    {
        return true;
    }
    // `@theme.ts` in a document Claude Code never reads is another client's mention
    // (Continue, Cursor), which finds a file by its name anywhere in the project.
    if r.via == crate::report::Via::Import
        && !written.contains('/')
        && ctx.tree.basenames.contains(written.as_str())
        && doc.freq != crate::report::InjectionFrequency::PerSession
        && !crate::readers::readers_of(&doc.path, false, false)
            .into_iter()
            .any(crate::readers::claude)
    {
        return true;
    }
    false
}

/// Whether `written` is an absolute path whose first folder is a dot-folder (`/.archon/archon.db`,
/// `/.github/workflows/publish.yml`): a machine's or another checkout's, whether or not this
/// tree has such a folder (Archon's own `.archon/` holds its commands, not the database its
/// container keeps at `/.archon/`). A path this repository's history knew is still a claim.
///
/// ```
/// # use hygiene::scan::detectors::missing_path::rooted_dot_folder;
/// assert!(rooted_dot_folder("/.archon/archon.db") && rooted_dot_folder("/.github/workflows/a.yml"));
/// assert!(!rooted_dot_folder(".archon/archon.db") && !rooted_dot_folder("/src/b.rs"));
/// assert!(!rooted_dot_folder("/../a/b") && !rooted_dot_folder("/./a/b") && !rooted_dot_folder("/.env"));
/// ```
pub fn rooted_dot_folder(written: &str) -> bool {
    written
        .strip_prefix('/')
        .and_then(|r| r.split_once('/'))
        .is_some_and(|(first, _)| first.len() > 1 && first.starts_with('.') && first != "..")
}

/// Endings of a template that renders the file of its stem (`flow.dag.yaml.jinja2` renders
/// `flow.dag.yaml`). Published as `scanner.missing_path_rendered_template_endings`.
pub const RENDERED_TEMPLATE_ENDINGS: &[&str] = &[
    ".jinja2",
    ".jinja",
    ".j2",
    ".hbs",
    ".handlebars",
    ".mustache",
    ".ejs",
    ".tmpl",
    ".tpl",
];

/// Whether a file named like `written`'s with a [`RENDERED_TEMPLATE_ENDINGS`] ending is in the
/// tree: the file is what that template renders in a generated project.
fn rendered_by_template(ctx: &TreeCtx<'_>, written: &str) -> bool {
    let name = written
        .trim_end_matches('/')
        .rsplit('/')
        .next()
        .unwrap_or("");
    name.contains('.')
        && RENDERED_TEMPLATE_ENDINGS
            .iter()
            .any(|e| ctx.tree.basenames.contains(&format!("{name}{e}")))
}

/// Whether the missing path is a site's route or a name rather than a file: a placeholder, the
/// reader's file a code block is titled with, a release tag, a generated API page, a one-word
/// link, a MyST label, another site's route, a page the site serves by another name.
fn a_route_or_name(f: &Facts<'_, '_>, m: &Missing<'_>) -> bool {
    let (doc, ctx) = (f.doc, f.ctx);
    let Missing {
        r,
        written,
        renamed,
        deleted,
        ..
    } = m;
    let evidence = m.evidence();
    if placeholder_path(written) {
        return true;
    }
    // Files joined by a slash that means "or" (`appsettings.json/appsettings.Development.json`):
    // a file holds no path, so a path under one is two names.
    if r.via == crate::report::Via::Code
        && (under_a_file(ctx, written) || m.candidates.iter().any(|(c, _)| under_a_file(ctx, c)))
    {
        return true;
    }
    // A backticked absolute path into a dot-folder (`/.archon/archon.db` in a container,
    // `/.github/workflows/publish.yml` of the reader's repository) names a running machine's
    // or another checkout's file, unless history knew it here.
    if r.via == crate::report::Via::Code && !evidence && rooted_dot_folder(written) {
        return true;
    }
    // A file a template renders (`flow.dag.yaml` where `flow.dag.yaml.jinja2` is) exists in
    // the project the template makes, unless history knew it here.
    if !evidence && rendered_by_template(ctx, written) {
        return true;
    }
    // On a docs site, a path some page titles a code block with (and the tree lacks) is
    // the reader's file the block shows (`src/pages/about.astro` in a tutorial), and so
    // is a folder holding one. Whatever this repository once kept there: only a rename
    // says the site meant its own file.
    // Without history, so is a path beside one (`src/pages/tags.astro` where a block
    // shows `src/pages/index.astro`).
    if r.via == crate::report::Via::Code
        && renamed.is_none()
        && titled_on_site(ctx, doc, written, deleted.is_none())
    {
        return true;
    }
    // A release tag (`py/v0.7.1`) or an API page `sphinx-apidoc` generates is no file of
    // the tree, unless history knew the path.
    if !evidence
        && ((r.via == crate::report::Via::Code && version_name(written))
            || (r.via == crate::report::Via::Link && apidoc_page(ctx, written)))
    {
        return true;
    }
    // A link to one extension-less word (`[p](parallelism)`, `![x](thumbnail_url)`)
    // outside a docs site is a variable or prose, not a file: a claim only with history.
    if r.via == crate::report::Via::Link
        && !written.contains(['/', '.'])
        && !evidence
        && ctx.tree.sites().of(&doc.path).is_none()
    {
        return true;
    }
    // `[the config](global-config)` names a MyST label a page defines.
    if r.via == crate::report::Via::Link
        && !evidence
        && ctx.labels.contains(&written.to_lowercase())
    {
        return true;
    }
    // A rooted link outside a docs site into a folder this repository never had, in a
    // document with many such links (`/basics/chat-templates.md` in a copy of another
    // site's `llms.txt`, `/en/docs/claude-code/...` in a copied docs page), is that
    // site's route. One such link alone (`/autogen/protos`) is a broken link here.
    // So is one in a folder whose pages have that many between them
    // ([`super::routed_folders`]: snippets a site includes, one route each).
    if !evidence
        && foreign_route(doc, ctx, r, written)
        && (f.foreign() >= FOREIGN_ROUTES_MIN
            || ctx
                .routed_folders
                .contains(crate::scan::refs::folder(&doc.path)))
    {
        return true;
    }
    // A page that links the site it is written for by route (`/docs/go/cli/mcp`, read as
    // `docs/go/cli/mcp.md`) links that site's other sections the same way (`/book`,
    // `/pricing`, `/assets/docs/cron.png`): a rooted link whose first segment the tree
    // does not have is one of them, not a file of this repository.
    if !evidence
        && site_section(doc, ctx, r, written)
        && f.routed()
        && !page_from_between(ctx, written)
    {
        return true;
    }
    if r.via == crate::report::Via::Link
        && !evidence
        && (page_by_route(ctx, doc, written)
            || crate::scan::sites::numbered_collection_page(ctx.tree, &doc.path, written).is_some()
            || crate::scan::sites::collection_relative_route(ctx.tree, &doc.path, written))
    {
        return true;
    }
    if r.via == crate::report::Via::Link && served_from_public(ctx, doc, written) {
        return true;
    }
    // A package's docs folder published under the package's name (`/mastra/quickstart` from
    // `showcase/integrations/mastra/docs/setup.mdx`, where the docs app serves a `quickstart`
    // page for each integration), when the rest of the route is a page of the tree.
    if r.via == crate::report::Via::Link && !evidence && package_docs_route(ctx, doc, written) {
        return true;
    }
    // A route a docs site's CUE menu serves (`/docs/go/self-host/docker-build` from
    // `go/self-host/self-host.md`), whatever history says of a file by its name; or one
    // outside the site (`/pricing`), the hosting website's page.
    if r.via == crate::report::Via::Link
        && (crate::scan::sites::menu_route(ctx.tree, &doc.path, written).is_some()
            || crate::scan::sites::outside_menu_site(ctx.tree, &doc.path, written))
    {
        return true;
    }
    // Whatever history says: splitting `intro.md` into its variants renamed it to one
    // of them (or deleted it), and the link still names the reader's.
    if r.via == crate::report::Via::Link
        && (language_variant(ctx, doc, written) || rooted_in_folder(ctx, doc, written))
    {
        return true;
    }
    if r.via == crate::report::Via::Link
        && !evidence
        && (served_by_slug(ctx, doc, written)
            || crate::scan::sites::navigation_route(ctx.tree, &doc.path, written)
            || crate::scan::sites::angular_route(ctx.tree, &doc.path, written)
            || typedoc_route(ctx, doc, written)
            || crate::scan::sites::route_ignored(ctx.tree, &doc.path, written))
    {
        return true;
    }
    false
}

/// Whether rooted link `written` starts with the name of the folder that holds `doc`'s `docs/`
/// folder (`/mastra/quickstart` from `showcase/integrations/mastra/docs/setup/a.mdx`) and the
/// rest of it ends a page of the tree (`quickstart.mdx` somewhere): a route the site that
/// gathers each package's docs serves under the package's name (s33: CopilotKit's showcase;
/// judged false).
fn package_docs_route(ctx: &TreeCtx<'_>, doc: &Doc, written: &str) -> bool {
    let Some(route) = written.strip_prefix('/') else {
        return false;
    };
    let Some((first, rest)) = route.trim_end_matches('/').split_once('/') else {
        return false;
    };
    let holds = format!("{first}/docs/");
    let in_package = doc.path.starts_with(&holds) || doc.path.contains(&format!("/{holds}"));
    let tail: Vec<&str> = rest.rsplitn(3, '/').take(2).collect();
    let tail = tail.into_iter().rev().collect::<Vec<_>>().join("/");
    in_package
        && !first.is_empty()
        && !tail.is_empty()
        && crate::scan::sites::PAGE_EXTENSIONS
            .iter()
            .any(|e| ctx.tree.tail_count(&format!("{tail}.{e}")) > 0)
}

/// Whether a folder of root-relative `written` is a file of the tree
/// (`appsettings.json/appsettings.Development.json`).
fn under_a_file(ctx: &TreeCtx<'_>, written: &str) -> bool {
    let w = written.trim_start_matches("./").trim_end_matches('/');
    w.match_indices('/')
        .any(|(i, _)| i > 0 && ctx.tree.has_file(&w[..i]))
}

/// Whether a rooted link (`/overview.png` in `slides/pages/intro.md`) names a file of the
/// `public/` folder of a web project above the document (`slides/public/overview.png` beside
/// `slides/package.json`): Vite, Slidev, Next.js and Nuxt serve that folder at the site's root.
fn served_from_public(ctx: &TreeCtx<'_>, doc: &Doc, written: &str) -> bool {
    let Some(rest) = written.strip_prefix('/') else {
        return false;
    };
    let rest = crate::scan::refs::split(rest).written;
    if rest.is_empty() || rest.starts_with('/') {
        return false;
    }
    let mut dir = crate::scan::refs::folder(&doc.path);
    loop {
        let project = crate::scan::sites::join(dir, "package.json");
        let public = crate::scan::sites::join(dir, "public");
        if ctx.tree.is_file(&project) && ctx.tree.exists(&crate::scan::sites::join(&public, rest)) {
            return true;
        }
        if dir.is_empty() {
            return false;
        }
        dir = crate::scan::refs::folder(dir);
    }
}

/// Source extensions of one language: a tree with any of them writes that language (a
/// `.tsx` component tree's `src/icons/all.ts` is its own). Extensions not listed are a language
/// each. Published as `scanner.source_language_families`.
pub const LANGUAGE_FAMILIES: &[&[&str]] = &[
    &["ts", "tsx", "mts", "cts"],
    &["js", "jsx", "mjs", "cjs"],
    &["c", "h", "cc", "cpp", "hpp"],
    &["sh", "bash", "zsh"],
    &["kt", "kts"],
    &["ex", "exs"],
    &["tf", "hcl"],
];

/// Whether `written` is a source file (`SOURCE_EXTENSIONS`) in a language
/// ([`LANGUAGE_FAMILIES`]) of which the tree holds no file at all, while it holds source in
/// another: the code is here, in another language. A tree without source (documentation
/// alone) says nothing of whose a file is.
fn foreign_source(ctx: &TreeCtx<'_>, written: &str) -> bool {
    use crate::scan::markdown::SOURCE_EXTENSIONS;
    let name = written.rsplit('/').next().unwrap_or(written);
    crate::scan::markdown::extension(name).is_some_and(|e| {
        let e = e.to_ascii_lowercase();
        let written_here = match LANGUAGE_FAMILIES.iter().find(|f| f.contains(&e.as_str())) {
            Some(family) => family.iter().any(|x| ctx.tree.has_extension(x)),
            None => ctx.tree.has_extension(&e),
        };
        SOURCE_EXTENSIONS.contains(&e.as_str())
            && !written_here
            && SOURCE_EXTENSIONS.iter().any(|s| ctx.tree.has_extension(s))
    })
}

/// Whether line `n` (1-based) of `lines` is `written` alone in a code span (emphasis, a list
/// mark and a colon around it allowed) and the next line that is not blank opens a fenced code
/// block: the caption of the file the block shows (basic-memory's "**`specs/auth-design.md`:**"
/// over a note's text, pipecat's changelog fragments).
///
/// ```
/// use hygiene::scan::detectors::missing_path::captions_a_block;
/// let page = ["**`specs/auth.md`:**", "", "```markdown", "# Auth", "```"];
/// assert!(captions_a_block(&page, 1, "specs/auth.md"));
/// assert!(captions_a_block(&["- `changelog/1.added.md`", "  ```", "x", "  ```"], 1, "changelog/1.added.md"));
/// assert!(!captions_a_block(&["See `specs/auth.md`:", "```", "x", "```"], 1, "specs/auth.md"));
/// assert!(!captions_a_block(&["**`specs/auth.md`:**", "The note.", "```", "```"], 1, "specs/auth.md"));
/// ```
pub fn captions_a_block(lines: &[&str], n: u32, written: &str) -> bool {
    let Some(i) = (n as usize).checked_sub(1) else {
        return false;
    };
    let Some(line) = lines.get(i) else {
        return false;
    };
    let t = line.trim();
    let t = t
        .strip_prefix(['-', '*', '+'])
        .filter(|r| r.starts_with(' '))
        .unwrap_or(t);
    let bare = t
        .trim()
        .trim_matches(|c: char| c == '*' || c == '_' || c == ':' || c.is_whitespace());
    let fence = |l: &str| {
        let l = l.trim_start();
        l.starts_with("```") || l.starts_with("~~~")
    };
    bare.strip_prefix('`').and_then(|b| b.strip_suffix('`')) == Some(written)
        && lines[i + 1..]
            .iter()
            .find(|l| !l.trim().is_empty())
            .is_some_and(|l| fence(l))
}

/// Whether the missing path is a file of the reader's project, an output or an intention, by
/// where it is written and what history knows of it: a template's or shipped prompt's
/// relative path, a dated post's quote, a bare name, a convention's name, a folder or file no
/// one ever had, a file a plan means to create, a package's own path.
fn the_readers(f: &Facts<'_, '_>, m: &Missing<'_>) -> bool {
    let (doc, ctx) = (f.doc, f.ctx);
    let Missing {
        r,
        written,
        candidates,
        renamed,
        deleted,
    } = m;
    let evidence = m.evidence();
    // A template's relative links name the files of the project it is copied into
    // (`[spec](./spec.md)` in `templates/track-plan.md`, `base_templates/ts/README.md`).
    if doc.role == crate::roles::Role::Shipped
        && doc.path.split('/').any(|seg| {
            ["templates", "template"].iter().any(|t| {
                seg.strip_suffix(t)
                    .is_some_and(|p| p.is_empty() || p.ends_with(['_', '-']))
            })
        })
        && !evidence
    {
        return true;
    }
    // A dated blog post quotes the code of its day: a file git since moved or removed
    // was there when the post was written.
    if r.via == crate::report::Via::Code && evidence && crate::roles::is_dated_post(&doc.path) {
        return true;
    }
    // A backticked dot-folder path (`.claude/settings.json`, `.config/tool.yml`,
    // `.github/workflows/x.yml`) or `./file` names a file of the reader's project or
    // working folder, which a tool or a guide tells them about: a claim about this
    // repository only where its history knows the path. A deletion proves nothing
    // when the dot-folder is gone as a whole (`.planning/STATE.md` after the project
    // removed the `.planning/` it kept for its own work): what remains is the reader's.
    if r.via == crate::report::Via::Code
        && written.starts_with('.')
        && !written.starts_with("../")
        && (!evidence || (renamed.is_none() && dot_folder_gone(ctx, written)))
    {
        return true;
    }
    // A source file in a language of which the tree has no file, and that history never
    // knew, is another codebase's: a Python port's README naming the JavaScript example it
    // follows (`examples/mcp/sse-example.ts`).
    if !evidence && foreign_source(ctx, written) {
        return true;
    }
    // `CLAUDE.md` in code names the convention (the reader's project's file: "add
    // `@AGENTS.md` to `CLAUDE.md`"), whatever this repository once kept at its root; so
    // does a client's configuration file at its place (`.claude/settings.json`).
    if r.via == crate::report::Via::Code
        && (CONVENTION_NAMES.contains(&written.trim_start_matches("./"))
            || CLIENT_CONFIG_PATHS.contains(&written.trim_start_matches("./"))
            || TOOL_STATE_PATHS.contains(&written.trim_start_matches("./")))
    {
        return true;
    }
    // A bare file name is this repository's claim only where history shows the file
    // beside the document.
    let bare = r.via == crate::report::Via::Code && !written.contains('/');
    if bare && (!evidence || generic(ctx, written)) {
        return true;
    }
    // An extension-less `a/b` in code is as often a name (`tools/call`, a JSON-RPC
    // method; `origin/main`; a Go import path) as a path: it is a claim only where
    // history knows it, or written as a folder (`src/backend/`).
    if r.via == crate::report::Via::Code
        && crate::scan::markdown::extension(written).is_none()
        && !written.ends_with('/')
        && !evidence
    {
        return true;
    }
    // Shipped content names the paths of the repositories it is copied into: only a
    // Markdown link not rooted at `/` (relative to the document itself), or a path this
    // repository's history knows, is this repository's claim.
    // A Markdown link is relative to the document; a `./x` in code is the user's
    // working folder.
    // So is a path in code under a folder that ships beside the document (a skill's
    // `references/guide.md` where its `references/` is).
    // A skill installed from another repository ([`crate::roles::SKILLS_LOCK`]) names
    // the files of whatever project it is installed in, even where that project has the
    // folder: only its own links are claims.
    let relative = (r.via == crate::report::Via::Link && !written.starts_with('/'))
        || (r.via == crate::report::Via::Code
            && !installed_skill(ctx, &doc.path)
            && !written.starts_with('/')
            && written.trim_start_matches("./").contains('/')
            && candidates
                .iter()
                .any(|(c, folder_relative)| *folder_relative && in_a_folder(ctx, c)));
    if doc.role == crate::roles::Role::Shipped && !relative && !evidence {
        return true;
    }
    // A shipped prompt's rooted path in code (`/memory/constitution.md`) is rooted at
    // the project it runs in, whatever this repository once held there.
    if doc.role == crate::roles::Role::Shipped
        && r.via == crate::report::Via::Code
        && written.starts_with('/')
    {
        return true;
    }
    // A line that already names the new name records the move ("moved from `a` to
    // `b`"); it is not stale.
    if let Some((to, folder_relative, _)) = &renamed {
        let new_as_written = write_like(written, *folder_relative, &doc.path, to);
        let line = f.line(r.line);
        if line.is_some_and(|l| l.contains(new_as_written.as_str()) || l.contains(to.as_str())) {
            return true;
        }
    }
    if r.via == crate::report::Via::Code
        && renamed.is_none()
        && deleted.is_none()
        && !candidates.iter().any(|(cand, _)| in_a_folder(ctx, cand))
    {
        return true;
    }
    // A path alone on its line over a code block (`**`specs/auth-design.md`:**` over the
    // note's text) captions the file the block shows: an example's, when history never
    // knew it here.
    if r.via == crate::report::Via::Code
        && !evidence
        && f.layout()
            .is_some_and(|l| captions_a_block(&l.lines, r.line, written))
    {
        return true;
    }
    // A folder history never knew, named like no folder of the tree and like nothing
    // beside where it would be (`docs/pulse-reports/`, `src/__tests__/`,
    // `skills/custom/`), is one of the reader's project, a tool's output or one still
    // to create. A near namesake beside it (`trl/accelerate_config/` where
    // `accelerate_configs/` is) makes it a claim.
    if r.via == crate::report::Via::Code
        && !evidence
        && written.ends_with('/')
        && unknown_folder(ctx, candidates)
    {
        return true;
    }
    // A file a plan, roadmap, proposal or RFC names that history never knew is one it
    // means to create (a script under "Create Migration Scripts", a test under "PR 3",
    // a "New Files" table): an intention, not a claim. Whether the plan still guides
    // work is the lifecycle signal's question; a file it names that moved or went
    // stays a claim, and so does a folder history knew files under.
    if r.via == crate::report::Via::Code
        && !evidence
        && !written.ends_with('/')
        && plan_document(&doc.path)
        && !f
            .layout()
            .is_some_and(|t| says_it_exists(&sentence_of_at(t, r.line, written, true), written))
    {
        return true;
    }
    // A plan added in the commit that removed the file it names records that removal: the
    // branch that carried the plan out was merged as one commit (a slice plan's "Delete
    // `src/commands/workspace.ts`", a milestone that retires a module). A file removed after
    // the plan was written is still reported.
    if renamed.is_none()
        && plan_document(&doc.path)
        && deleted
            .as_ref()
            .is_some_and(|d| removed_at_birth(ctx, doc, &d.commit))
    {
        return true;
    }
    // A path inside a folder the scan never descends into by default (`vendor/bundle/`,
    // `dist/`, `node_modules/`) is an install or build output: absent, it proves nothing.
    if renamed.is_none()
        && written
            .trim_start_matches("./")
            .split('/')
            .any(|seg| crate::scan::DEFAULT_EXCLUDED.contains(&seg))
    {
        return true;
    }
    // `src/index.ts` that many packages have is each package's file: git renaming the
    // root's one long ago does not make a page about another package mean it.
    if r.via == crate::report::Via::Code && generic_path(ctx, written) {
        return true;
    }
    if r.via == crate::report::Via::Code && in_project_template(ctx, written) {
        return true;
    }
    // A package's README speaks to the package's users: `./src/middleware.ts` in code is
    // a file of their project, whatever the package's own sources were once called.
    if r.via == crate::report::Via::Code && written.starts_with("./") && package_readme(ctx, doc) {
        return true;
    }
    false
}

/// Whether the text around the missing path says whose it is: a sibling or a named folder
/// beside it, a quoted file, a package's shorthand, a unique tail or member of a real file, a
/// cue on the line or in its list, table or section.
fn the_text_says(f: &Facts<'_, '_>, m: &Missing<'_>) -> bool {
    let (doc, ctx) = (f.doc, f.ctx);
    let Missing {
        r,
        written,
        candidates,
        renamed,
        ..
    } = m;
    let evidence = m.evidence();
    // A link between fence lines the author wrote is an example, though an HTML block around
    // the opening fence made CommonMark read it as text (`<implementation>` over "```xml"
    // over a sample skill's `[budgets.md](budgets.md)`): a reader sees a fence there.
    if r.via == crate::report::Via::Link
        && f.layout().is_some_and(|l| {
            // Only where an HTML tag's line right before the fence explains why CommonMark saw
            // no fence, and the fence closes (one left open runs to the end of the text).
            let line = |n: u32| l.lines.get((n as usize).wrapping_sub(1)).map(|t| t.trim());
            let closes =
                |n: u32| line(n).is_some_and(|c| c.starts_with("```") || c.starts_with("~~~"));
            let swallowed =
                |n: u32| line(n - 1).is_some_and(|t| t.starts_with('<') && t.ends_with('>'));
            l.fences.iter().any(|&(open, close)| {
                open < r.line && r.line < close && closes(close) && open > 1 && swallowed(open)
            })
        })
    {
        return true;
    }
    // The folder may be named on the line, or on the line before when the line goes on with
    // its sentence ("run the command from `backend/`⏎so the CLI discovers `langgraph.json`").
    if renamed.is_none()
        && (beside_a_sibling(ctx, doc, r.line, written)
            || (continues_the_line_before(f, r.line)
                && beside_a_sibling(ctx, doc, r.line - 1, written)))
    {
        return true;
    }
    if r.via == crate::report::Via::Code
        && f.layout()
            .is_some_and(|t| in_a_named_folder(ctx, doc, t, r.line, written))
    {
        return true;
    }
    if r.via == crate::report::Via::Link
        && f.layout()
            .is_some_and(|t| in_a_quoted_file(ctx, t, r.line, written))
    {
        return true;
    }
    if r.via == crate::report::Via::Code && f.text().is_some_and(|t| redirected_to(t, written)) {
        return true;
    }
    if r.via == crate::report::Via::Code && package_shorthand(ctx, doc, written, candidates) {
        return true;
    }
    if r.via == crate::report::Via::Code
        && !evidence
        && unique_tail(ctx, written)
        && !candidates
            .iter()
            .any(|(c, folder_relative)| *folder_relative && in_a_folder(ctx, c))
    {
        return true;
    }
    if r.via == crate::report::Via::Code && !evidence && names_a_member(ctx, written, candidates) {
        return true;
    }
    // A write-up that says it is resolved (its own `resolved-narrative`) names the code as
    // it was when the incident happened: a file history deleted or renamed since is its
    // record (a fixed bug's analysis naming the `app.js` a later rewrite removed).
    if evidence
        && doc
            .findings
            .iter()
            .any(|x| matches!(x.signal, crate::report::Signal::ResolvedNarrative { .. }))
    {
        return true;
    }
    // What a run creates is the reader's unless history knew it here.
    // Done work is recorded on a file history knew here.
    let says = |c: Option<&str>| {
        c.is_some_and(|c| (c != RUN_CREATES || !evidence) && (c != DONE_RECORDED || evidence))
    };
    if f.layout().is_some_and(|t| {
        let l = sentence_of_at(t, r.line, written, r.via == crate::report::Via::Code);
        // So are a release's notes: what it shipped, named as it was.
        (evidence && in_release_notes_at(t, r.line, r.via == crate::report::Via::Code))
            || says(line_cue(&l, written))
            || (r.via == crate::report::Via::Code && matches_a_glob_beside(&l, written))
            || says(context_cue_at(t, r.line, written))
            || in_another_checkout_at(t, r.line)
    }) {
        return true;
    }
    false
}

/// The rename to write into the document, where one is safe to write.
fn suggestion_of(f: &Facts<'_, '_>, m: &Missing<'_>) -> Option<Suggestion> {
    let (doc, ctx) = (f.doc, f.ctx);
    let Missing {
        r,
        written,
        candidates,
        renamed,
        ..
    } = m;
    let bare = r.via == crate::report::Via::Code && !written.contains('/');
    // A bare name renamed within its folder is fixed by its new name; one that moved
    // away (the root `tsconfig.json` into a package) may have been meant generically
    // ("each example needs a `tsconfig.json`"): the model judges it. A rename git
    // scores low is a file split up or rewritten (`acpClient.ts` into `acpSession.ts`
    // and six others): the new name holds only part of what the text named.
    match renamed {
        Some((to, folder_relative, score))
            if r.literal
                && u32::from(*score) >= crate::scan::THRESHOLDS.rename_min_similarity
                && !moved_under_since(ctx, doc, written, to, candidates)
                && !line_reworded_by_move(
                    ctx,
                    doc,
                    (r.line, written),
                    f.line(r.line),
                    || f.blamed(),
                    candidates,
                )
                && !repointed_elsewhere(ctx, candidates)
                && !retired(&doc.path, written, to)
                && !link_out_of_site(ctx, doc, r.via, to)
                && !root_read_link(r.via, *folder_relative, written) =>
        {
            let new = write_like(written, *folder_relative, &doc.path, to);
            let line = f.line(r.line);
            let label_disagrees = line.is_some_and(|l| names_old_file_elsewhere(l, written, &new));
            // The swap finalize would refuse (the old name also inside a longer
            // reference on the line) is not suggested: the signal reaches the model.
            let swappable =
                line.is_some_and(|l| crate::reference::line_problem(l, written, &new).is_none());
            ((!bare || !new.contains('/')) && !label_disagrees && swappable)
                .then(|| rename_suggestion(r.line, written, new))
        }
        _ => None,
    }
}

impl Detector for MissingPath {
    fn kind(&self) -> &'static str {
        "missing-path"
    }

    fn reads_tree(&self) -> bool {
        true
    }

    fn on_tree(&self, doc: &Doc, ctx: &TreeCtx<'_>) -> Vec<Finding> {
        let text = std::cell::OnceCell::new();
        let f = Facts::new(doc, ctx, &text);
        let mut out = Vec::new();
        let mut reported = std::collections::HashMap::new();
        for (r, t) in doc.resolved() {
            let Target::Missing {
                written,
                candidates,
            } = t
            else {
                continue;
            };
            let (renamed, gone) = fate_of(ctx, doc, r, written, candidates);
            // The deletion stays in the report for the model to read, but a path gone long
            // before the document was written is not its rules' evidence.
            let deleted = gone
                .as_ref()
                .filter(|(_, time)| !deleted_before_doc(ctx, doc, r, *time))
                .map(|(d, _)| d.clone());
            let m = Missing {
                r,
                written,
                candidates,
                renamed,
                deleted,
            };
            if not_this_trees(&f, &m)
                || a_route_or_name(&f, &m)
                || the_readers(&f, &m)
                || the_text_says(&f, &m)
            {
                continue;
            }
            let suggestion = suggestion_of(&f, &m);
            // A link and its backticked text on one line (`[`a/b`](./a/b)`) are one claim (with
            // no rename to write into each).
            let key = (r.line, written.trim_start_matches("./").to_string());
            if m.renamed.is_none() && reported.get(&key).is_some_and(|via| *via != r.via) {
                continue;
            }
            reported.insert(key, r.via);
            out.push(Finding {
                signal: Signal::MissingPath {
                    line: r.line,
                    reference: written.clone(),
                    via: r.via,
                    renamed_to: m.renamed.map(|(to, _, _)| to),
                    deleted_in: gone.map(|(d, _)| d),
                },
                suggestion,
                unrendered: false,
            });
        }
        out
    }
}
