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

/// The detector.
pub struct MissingPath;

/// Line `line` of root-relative document `doc`, read again (only for the rare reference git
/// renamed: the scan does not keep every document's text).
fn line_of(ctx: &TreeCtx<'_>, doc: &str, line: u32) -> Option<String> {
    let full = crate::paths::resolve_inside(&ctx.tree.root, doc, false).ok()?;
    let text = String::from_utf8(std::fs::read(full).ok()?).ok()?;
    text.lines()
        .nth(line.checked_sub(1)? as usize)
        .map(str::to_string)
}

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

fn evidence_of<A, B>(renamed: &Option<A>, deleted: &Option<B>) -> bool {
    renamed.is_some() || deleted.is_some()
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

impl Detector for MissingPath {
    fn kind(&self) -> &'static str {
        "missing-path"
    }

    fn on_tree(&self, doc: &Doc, ctx: &TreeCtx<'_>) -> Vec<Finding> {
        let mut out = Vec::new();
        for (r, t) in doc.resolved() {
            let Target::Missing {
                written,
                candidates,
            } = t
            else {
                continue;
            };
            let mut renamed = None;
            let mut deleted = None;
            if let Some(h) = ctx.history {
                for (cand, folder_relative) in candidates {
                    let (to, gone) = h.fate(cand, |p| ctx.tree.is_file(p));
                    if let Some(to) = to {
                        renamed = Some((to, *folder_relative));
                        break;
                    }
                    if deleted.is_none() {
                        deleted = gone.map(|c| DeletedIn {
                            commit: c.id.clone(),
                            date: crate::time::format_date(c.time),
                        });
                    }
                }
            }
            if renamed.is_some() {
                deleted = None;
            }
            // A path git ignores is a build output, a local checkout or a tool's runtime
            // state (`.beads/issues.jsonl`): that it is absent here proves nothing.
            // The reading that counts: a link's is beside the document, a backticked path's
            // from the root.
            let primary = match r.via {
                crate::report::Via::Code => candidates
                    .iter()
                    .find(|(_, folder_relative)| !folder_relative)
                    .or(candidates.first()),
                _ => candidates.first(),
            };
            if renamed.is_none() && primary.is_some_and(|(c, _)| ctx.tree.ignored(c)) {
                continue;
            }
            let evidence = renamed.is_some() || deleted.is_some();
            // A bare file name is this repository's claim only where history shows the file
            // beside the document.
            // A backticked dot-folder path (`.claude/settings.json`, `.config/tool.yml`,
            // `.github/workflows/x.yml`) or `./file` names a file of the reader's project or
            // working folder, which a tool or a guide tells them about: a claim about this
            // repository only where its history knows the path.
            if r.via == crate::report::Via::Code
                && written.starts_with('.')
                && !written.starts_with("../")
                && !evidence_of(&renamed, &deleted)
            {
                continue;
            }
            let bare = r.via == crate::report::Via::Code && !written.contains('/');
            if bare && (!evidence || generic(ctx, written)) {
                continue;
            }
            // An extension-less `a/b` in code is as often a name (`tools/call`, a JSON-RPC
            // method; `origin/main`; a Go import path) as a path: it is a claim only where
            // history knows it, or written as a folder (`src/backend/`).
            if r.via == crate::report::Via::Code
                && crate::scan::markdown::extension(written).is_none()
                && !written.ends_with('/')
                && !evidence
            {
                continue;
            }
            // Shipped content names the paths of the repositories it is copied into: only a
            // Markdown link not rooted at `/` (relative to the document itself), or a path this
            // repository's history knows, is this repository's claim.
            // A Markdown link is relative to the document; a `./x` in code is the user's
            // working folder.
            let relative = r.via == crate::report::Via::Link && !written.starts_with('/');
            if doc.role == crate::roles::Role::Shipped && !relative && !evidence {
                continue;
            }
            // A line that already names the new name records the move ("moved from `a` to
            // `b`"); it is not stale.
            if let Some((to, folder_relative)) = &renamed {
                let new_as_written = write_like(written, *folder_relative, &doc.path, to);
                if line_of(ctx, &doc.path, r.line)
                    .is_some_and(|l| l.contains(new_as_written.as_str()) || l.contains(to.as_str()))
                {
                    continue;
                }
            }
            if r.via == crate::report::Via::Code
                && renamed.is_none()
                && deleted.is_none()
                && !candidates.iter().any(|(cand, _)| {
                    cand.rsplit_once('/')
                        .is_some_and(|(parent, _)| ctx.tree.exists(parent))
                })
            {
                continue;
            }
            // A bare name renamed within its folder is fixed by its new name; one that moved
            // away (the root `tsconfig.json` into a package) may have been meant generically
            // ("each example needs a `tsconfig.json`"): the model judges it.
            let suggestion = match &renamed {
                Some((to, folder_relative)) if r.literal => {
                    let new = write_like(written, *folder_relative, &doc.path, to);
                    (!bare || !new.contains('/')).then(|| rename_suggestion(r.line, written, new))
                }
                _ => None,
            };
            out.push(Finding {
                signal: Signal::MissingPath {
                    line: r.line,
                    reference: written.clone(),
                    via: r.via,
                    renamed_to: renamed.map(|(to, _)| to),
                    deleted_in: deleted,
                },
                suggestion,
            });
        }
        out
    }
}
