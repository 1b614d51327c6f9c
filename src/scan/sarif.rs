//! `hygiene scan --format sarif`: the scan as a SARIF 2.1.0 log, the format code-scanning
//! services (GitHub's `upload-sarif`) and editors read.
//!
//! One rule per signal kind, built from [`super::signal_rules`] (the table `hygiene policy`
//! publishes), so the log's rules cannot drift from the policy. One result per signal, at the
//! lines [`super::diagnostics::lines`] gives (line 1 for a whole-file fact), with the sentence
//! [`super::diagnostics::fact`] gives. A scanner suggestion becomes a `fix` on the result of the
//! signal it was computed from, when its edit maps to text: `replace-text`, `dedupe` and
//! `delete-range` become one replacement (`deletedRegion` + `insertedContent`) computed by the
//! same line model `hygiene apply` uses; whole-file deletions and frontmatter inserts have no
//! text form here and are left out (they stay in the JSON scan and the report).
//!
//! Regions count columns in Unicode code points (`columnKind: unicodeCodePoints`); a line's
//! columns include its terminator, so a deletion of whole lines ends at column 1 of the next
//! line (or after the terminator of the last one).

use super::diagnostics::{fact, lines};
use super::{signal_kind, signal_rules};
use crate::apply::text;
use crate::report::{Anchor, EditKind, ExactEdit, ScanResult, ShortlistItem, Signal};
use serde_json::{json, Map, Value};

/// The `$schema` written into every log: the OASIS SARIF 2.1.0 schema (errata 01).
pub const SCHEMA_URI: &str =
    "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json";

/// The `uriBaseId` every artifact location is relative to: the scanned root.
pub const ROOT_BASE_ID: &str = "SRCROOT";

/// The default level of a signal kind: a broken reference is a `warning` (it misleads an agent
/// today), every other signal a `note` (a candidate for judgement).
///
/// ```
/// assert_eq!(hygiene::scan::sarif::level("missing-anchor"), "warning");
/// assert_eq!(hygiene::scan::sarif::level("oversize"), "note");
/// ```
pub fn level(kind: &str) -> &'static str {
    match kind {
        "missing-path" | "missing-anchor" | "missing-symbol" => "warning",
        _ => "note",
    }
}

/// Percent-encodes a path for a URI: everything but unreserved characters and `/`.
///
/// ```
/// assert_eq!(hygiene::scan::sarif::uri_path("docs/a b%.md"), "docs/a%20b%25.md");
/// ```
pub fn uri_path(p: &str) -> String {
    let mut out = String::with_capacity(p.len());
    for b in p.bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' | b'/' => {
                out.push(b as char)
            }
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
    out
}

fn pascal(kind: &str) -> String {
    kind.split('-')
        .map(|w| {
            let mut c = w.chars();
            c.next()
                .map(|f| f.to_ascii_uppercase().to_string() + c.as_str())
                .unwrap_or_default()
        })
        .collect()
}

/// The file text an edit produces, by the line model `hygiene apply` uses; `None` when the edit
/// has no text form or no longer fits `old` (then no fix is offered).
pub fn edited_text(edit: &ExactEdit, old: &str) -> Option<String> {
    let Some(Anchor::Lines(r)) = edit.anchor else {
        return None;
    };
    let (s, e) = (r.start_line, r.end_line);
    text::check_anchor(text::lines(old).len(), s, e).ok()?;
    match edit.kind {
        EditKind::ReplaceText => {
            let m = edit.match_text.as_deref().filter(|m| !m.is_empty())?;
            let region = text::span(old, s, e);
            region.contains(m).then(|| {
                let new = region.replace(m, edit.replacement.as_deref().unwrap_or(""));
                text::splice(old, s, e, &new)
            })
        }
        EditKind::Dedupe | EditKind::DeleteRange => Some(text::splice(old, s, e, "")),
        _ => None,
    }
}

/// The 1-based (line, column) of byte offset `at` in `t`, columns in code points counting the
/// line's terminator.
fn position(t: &str, at: usize) -> (usize, usize) {
    let before = &t[..at];
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let mut line = before.matches('\n').count() + 1;
    let mut col = before[line_start..].chars().count() + 1;
    // The end of a text whose last line is terminated: after that terminator, on the last line.
    if at == t.len() && at > 0 && t.ends_with('\n') {
        line -= 1;
        let prev_start = t[..at - 1].rfind('\n').map_or(0, |i| i + 1);
        col = t[prev_start..].chars().count() + 1;
    }
    (line, col)
}

/// One SARIF `replacement` turning `old` into `new`: the span between their common prefix and
/// common suffix. `None` when they are equal.
///
/// ```
/// let r = hygiene::scan::sarif::replacement("a\nsee x.md\nb\n", "a\nsee y.md\nb\n").unwrap();
/// assert_eq!(r["deletedRegion"]["startLine"], 2);
/// assert_eq!(r["deletedRegion"]["startColumn"], 5);
/// assert_eq!(r["deletedRegion"]["endColumn"], 6);
/// assert_eq!(r["insertedContent"]["text"], "y");
/// ```
pub fn replacement(old: &str, new: &str) -> Option<Value> {
    if old == new {
        return None;
    }
    let mut p = old
        .bytes()
        .zip(new.bytes())
        .take_while(|(a, b)| a == b)
        .count();
    while !old.is_char_boundary(p) || !new.is_char_boundary(p) {
        p -= 1;
    }
    let max_q = old.len().min(new.len()) - p;
    let mut q = old
        .bytes()
        .rev()
        .zip(new.bytes().rev())
        .take(max_q)
        .take_while(|(a, b)| a == b)
        .count();
    while !old.is_char_boundary(old.len() - q) || !new.is_char_boundary(new.len() - q) {
        q -= 1;
    }
    let (sl, sc) = position(old, p);
    let (el, ec) = position(old, old.len() - q);
    let mut r = json!({
        "deletedRegion": {
            "startLine": sl, "startColumn": sc, "endLine": el, "endColumn": ec
        }
    });
    let inserted = &new[p..new.len() - q];
    if !inserted.is_empty() {
        r["insertedContent"] = json!({ "text": inserted });
    }
    Some(r)
}

fn location(item: &ShortlistItem, s: &Signal) -> Value {
    let mut phys = json!({
        "artifactLocation": { "uri": uri_path(&item.path), "uriBaseId": ROOT_BASE_ID }
    });
    phys["region"] = match lines(s) {
        Some((a, b)) => json!({ "startLine": a, "endLine": b }),
        // A whole-file fact: its first line, as the compiler-style output says.
        None => json!({ "startLine": 1 }),
    };
    json!({ "physicalLocation": phys })
}

/// The scan as a SARIF 2.1.0 log. `read` returns the current text of a root-relative file (for
/// computing fixes); `None` leaves that file's fixes out.
pub fn log(scan: &ScanResult, read: &dyn Fn(&str) -> Option<String>) -> Value {
    let rules_table = signal_rules();
    let rules: Vec<Value> = rules_table
        .iter()
        .map(|r| {
            json!({
                "id": r.kind,
                "name": pascal(r.kind),
                "shortDescription": { "text": r.fact },
                "fullDescription": {
                    "text": format!("{}. Fields: {}.", r.fact,
                        if r.fields.is_empty() { "none (see the item's lifecycle object)".to_string() }
                        else { r.fields.join(", ") })
                },
                "defaultConfiguration": { "level": level(r.kind) },
                "properties": { "fields": r.fields }
            })
        })
        .collect();
    let mut results = Vec::new();
    for item in &scan.shortlist {
        let start = results.len();
        let mut text_cache: Option<Option<String>> = None;
        for s in &item.signals {
            let kind = signal_kind(s);
            let index = rules_table.iter().position(|r| r.kind == kind);
            let mut res = json!({
                "ruleId": kind,
                "level": level(kind),
                "message": { "text": fact(item, s) },
                "locations": [location(item, s)],
                "properties": { "signal": s }
            });
            if let Some(i) = index {
                res["ruleIndex"] = json!(i);
            }
            results.push(res);
        }
        for sug in &item.suggestions {
            // The fix goes on the result of the first signal the suggestion rests on.
            let support = crate::check::supporting_signals(item, sug);
            let Some(pos) = support
                .first()
                .and_then(|sig| item.signals.iter().position(|x| x == sig))
            else {
                continue;
            };
            let old = text_cache.get_or_insert_with(|| read(&item.path));
            let Some(old) = old.as_deref() else { continue };
            let Some(rep) = edited_text(&sug.exact_edit, old).and_then(|n| replacement(old, &n))
            else {
                continue;
            };
            let fix = json!({
                "description": { "text": sug.op },
                "artifactChanges": [{
                    "artifactLocation": { "uri": uri_path(&item.path), "uriBaseId": ROOT_BASE_ID },
                    "replacements": [rep]
                }]
            });
            let res: &mut Value = &mut results[start + pos];
            match res.get_mut("fixes").and_then(Value::as_array_mut) {
                Some(a) => a.push(fix),
                None => res["fixes"] = json!([fix]),
            }
        }
    }
    let mut root = scan.scan.project_root.clone();
    if !root.ends_with('/') {
        root.push('/');
    }
    let root_uri = if root.starts_with('/') {
        format!("file://{}", uri_path(&root))
    } else {
        format!("file:///{}", uri_path(&root.replace('\\', "/")))
    };
    let mut bases = Map::new();
    bases.insert(ROOT_BASE_ID.to_string(), json!({ "uri": root_uri }));
    json!({
        "$schema": SCHEMA_URI,
        "version": "2.1.0",
        "runs": [{
            "tool": {
                "driver": {
                    "name": "hygiene",
                    "version": scan.tool_version,
                    "informationUri": env!("CARGO_PKG_REPOSITORY"),
                    "rules": rules
                }
            },
            "originalUriBaseIds": bases,
            "columnKind": "unicodeCodePoints",
            "invocations": [{
                "executionSuccessful": true,
                "endTimeUtc": scan.generated_at,
                "toolExecutionNotifications": scan.scan.warnings.iter()
                    .map(|w| json!({ "level": "warning", "message": { "text": w } }))
                    .chain(scan.scan.skipped.iter().map(|s| json!({
                        "level": "note",
                        "message": { "text": format!("{}: not scanned ({})", s.path,
                            serde_json::to_value(s.reason).ok()
                                .and_then(|v| v.as_str().map(str::to_string))
                                .unwrap_or_default()) }
                    })))
                    .collect::<Vec<_>>()
            }],
            "results": results
        }]
    })
}
