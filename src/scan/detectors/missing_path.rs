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
                    if let Some(to) = h.renamed_to(cand, |p| ctx.tree.is_file(p)) {
                        renamed = Some((to, *folder_relative));
                        break;
                    }
                    if deleted.is_none() {
                        deleted = h.deleted_in(cand).map(|c| DeletedIn {
                            commit: c.id.clone(),
                            date: crate::time::format_date(c.time),
                        });
                    }
                }
            }
            if renamed.is_some() {
                deleted = None;
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
            let suggestion = match &renamed {
                Some((to, folder_relative)) if r.literal => Some(rename_suggestion(
                    r.line,
                    written,
                    write_like(written, *folder_relative, &doc.path, to),
                )),
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
