//! `checklist-complete`: every task-list box is checked, and there are enough boxes for that to
//! mean "this plan is finished" rather than "this note has one ticked item". (Not in an example
//! folder: [`crate::scan::EXAMPLE_QUIET`].)

use super::{Detector, DocText, Finding};
use crate::report::Signal;
use crate::scan::THRESHOLDS;

/// The detector.
pub struct Checklist;

impl Detector for Checklist {
    fn kind(&self) -> &'static str {
        "checklist-complete"
    }

    fn on_text(&self, doc: &DocText<'_>) -> Vec<Finding> {
        let (total, checked) = doc.parsed.tasks;
        if total >= THRESHOLDS.checklist_min_boxes && checked == total {
            vec![Signal::ChecklistComplete { checked }.into()]
        } else {
            Vec::new()
        }
    }
}
