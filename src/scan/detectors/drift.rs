//! `drift`: the files a document references changed in at least
//! `THRESHOLDS.drift_min_commits` commits since the document itself last changed, so what it
//! says about them may no longer hold. Counted from the one history walk.

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
        let mut seen: HashSet<&str> = HashSet::new();
        for (_, t) in doc.resolved() {
            if let Target::Found { path: Some(p), .. } = t {
                if *p != doc.path && ctx.tree.files.contains(p) && seen.insert(p.as_str()) {
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
