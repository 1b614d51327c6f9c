//! The report's JSON Schema, generated from the types in [`crate::report`].
//!
//! Descriptions come from the doc comments, so the schema and the types cannot drift. Facts the
//! type system does not carry are projected in from their tables, never restated: which fields
//! each exact-edit kind requires ([`crate::kinds::KINDS`]), that a report's exact edits carry
//! `expected_sha256` (drafts and suggestions do not), and that line numbers start at 1.

use crate::kinds::{Field, KINDS};
use crate::report::{EditKind, ExtractionTarget};
use serde_json::{json, Value};

/// The `$id`-less schema of a report (draft 2020-12), as `hygiene schema` prints it and
/// `hygiene validate` checks it.
///
/// ```
/// let s = hygiene::schema::report_schema();
/// assert_eq!(s["title"], "Report");
/// // every kind's required fields are in the schema, projected from the kind table
/// let rules = s["$defs"]["ExactEdit"]["allOf"].as_array().unwrap();
/// assert!(rules.len() >= hygiene::kinds::KINDS.len());
/// ```
pub fn report_schema() -> Value {
    let schema = schemars::schema_for!(crate::report::Report);
    let mut v = serde_json::to_value(schema).expect("a schema always serializes");
    project_kind_table(&mut v);
    require_fingerprint(&mut v);
    for field in ["start_line", "end_line"] {
        if let Some(p) = v.pointer_mut(&format!("/$defs/LineRange/properties/{field}")) {
            p["minimum"] = json!(1);
        }
    }
    v
}

fn word<T: serde::Serialize>(t: T) -> Value {
    serde_json::to_value(t).expect("enums serialize")
}

/// Adds one `if kind = K then required [...]` per row of the kind table to `ExactEdit`.
fn project_kind_table(v: &mut Value) {
    let mut rules: Vec<Value> = KINDS
        .iter()
        .map(|row| {
            let mut required: Vec<&str> = row.required.iter().map(|f| f.json_name()).collect();
            required.dedup();
            json!({
                "if": { "properties": { "kind": { "const": word(row.kind) } }, "required": ["kind"] },
                "then": { "required": required }
            })
        })
        .collect();
    // The one conditional requirement: a repo-durable extraction names its target document.
    rules.push(json!({
        "if": {
            "properties": {
                "kind": { "const": word(EditKind::ExtractThenDelete) },
                "extraction_target": { "const": word(ExtractionTarget::RepoDurable) }
            },
            "required": ["kind", "extraction_target"]
        },
        "then": { "required": [Field::TargetPath.json_name()] }
    }));
    if let Some(def) = v.pointer_mut("/$defs/ExactEdit") {
        def["allOf"] = Value::Array(rules);
    }
}

/// In a report (not in suggestions), every exact edit carries its fingerprint.
fn require_fingerprint(v: &mut Value) {
    v["$defs"]["ReportExactEdit"] = json!({
        "description": "An exact edit as a report carries it: with the target's fingerprint.",
        "allOf": [
            { "$ref": "#/$defs/ExactEdit" },
            { "required": ["expected_sha256"], "properties": { "expected_sha256": { "type": "string" } } }
        ]
    });
    if let Some(p) = v.pointer_mut("/$defs/Entry/properties/exact_edit") {
        let description = p.get("description").cloned().unwrap_or(Value::Null);
        *p = json!({ "$ref": "#/$defs/ReportExactEdit", "description": description });
    }
}
