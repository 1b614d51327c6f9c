//! The schema validator (stub: the report-contract issue builds it). Apply and finalize call
//! [`read_report`], which refuses anything `hygiene validate` would reject.

use crate::error::{Error, Result};
use crate::report::Report;
use std::path::Path;

/// One contract violation: where (JSON pointer), which rule, and what is wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Violation {
    /// JSON pointer into the document (`""` for the whole document).
    pub pointer: String,
    /// The rule's stable name.
    pub rule: &'static str,
    /// What is wrong, in a sentence.
    pub message: String,
}

/// Every violation in a parsed JSON document; empty means valid.
pub fn validate_value(v: &serde_json::Value) -> Vec<Violation> {
    match serde_json::from_value::<Report>(v.clone()) {
        Ok(_) => Vec::new(),
        Err(e) => vec![Violation {
            pointer: String::new(),
            rule: "shape",
            message: e.to_string(),
        }],
    }
}

/// Reads and validates a report; an invalid one is an error listing its violations.
pub fn read_report(path: &Path) -> Result<Report> {
    let bytes = crate::error::read(path)?;
    let value: serde_json::Value = crate::error::parse_json(&path.display().to_string(), &bytes)?;
    let violations = validate_value(&value);
    if !violations.is_empty() {
        let lines: Vec<String> = violations
            .iter()
            .map(|v| format!("{}: {} ({})", v.pointer, v.message, v.rule))
            .collect();
        return Err(Error::Parse {
            path: path.display().to_string(),
            message: format!("not a valid report:\n{}", lines.join("\n")),
        });
    }
    serde_json::from_value(value).map_err(|e| Error::Parse {
        path: path.display().to_string(),
        message: e.to_string(),
    })
}
