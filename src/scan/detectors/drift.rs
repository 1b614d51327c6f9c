//! `drift`: the files a document references changed in at least
//! `THRESHOLDS.drift_min_commits` commits since the document itself last changed, so what it
//! says about them may no longer hold. Counted from the one history walk. Only the files it
//! describes count (code, configuration, scripts, a plugin's shipped prompts), named by a path
//! or a link: a link to another document is navigation, documents churn together, and a bare file name
//! (`package.json`) names a kind of file.

use super::{Detector, Doc, Finding, TreeCtx};
use crate::report::Signal;
use crate::scan::refs::Target;
use crate::scan::THRESHOLDS;
use std::collections::HashSet;

/// The detector.
pub struct Drift;

impl Detector for Drift {
    fn kind(&self) -> &'static str {
        "drift"
    }

    fn on_tree(&self, doc: &Doc, ctx: &TreeCtx<'_>) -> Vec<Finding> {
        let Some(h) = ctx.history else {
            return Vec::new();
        };
        let Some(since) = h.touches(&doc.path).and_then(|v| v.first().copied()) else {
            return Vec::new();
        };
        let mut newer: HashSet<usize> = HashSet::new();
        let mut seen: HashSet<String> = HashSet::new();
        for (r, t) in doc.resolved() {
            // A bare file name (`package.json`) is a kind of file ("saves it to the
            // `package.json` file"), not the root's one: its dependency bumps are not news.
            if r.via == crate::report::Via::Code && !r.dest.contains('/') {
                continue;
            }
            // An `@import` loads the file alongside; the document does not describe it.
            if r.via == crate::report::Via::Import {
                continue;
            }
            if let Target::Found { path: Some(p), .. } = t {
                // Another document is navigation, not a subject: a page that links to a page
                // does not describe its text, and docs churn together.
                // A shipped prompt (a plugin's command, skill or agent) or template is the
                // product the document describes, not navigation.
                let document = match ctx.by_path.get(p.as_str()) {
                    Some(&i) => ctx.docs[i].role != crate::roles::Role::Shipped,
                    None => crate::scan::markdown::extension(p)
                        .is_some_and(|e| crate::scan::sites::PAGE_EXTENSIONS.contains(&e)),
                };
                if *p != doc.path
                    && !document
                    && ctx.tree.files.contains(p)
                    && seen.insert(p.clone())
                {
                    if let Some(v) = h.touches(p) {
                        newer.extend(v.iter().copied().filter(|&ci| ci < since));
                    }
                }
            }
        }
        let commits = newer.len() as u32;
        if commits < THRESHOLDS.drift_min_commits {
            return Vec::new();
        }
        let when = h.commits.get(since).map_or(0, |c| c.time);
        vec![Signal::Drift {
            commits,
            since: crate::time::format_date(when),
        }
        .into()]
    }
}
