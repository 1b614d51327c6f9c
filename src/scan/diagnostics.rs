//! Signals as diagnostics: one location and one sentence per signal, shared by the
//! compiler-style lines of `hygiene scan --fail-on` and the SARIF results, so both say the same
//! thing about the same line.
//!
//! ```
//! use hygiene::report::{ShortlistItem, Signal, Via, InjectionFrequency};
//! use hygiene::scan::diagnostics::{compiler_line, parse_kinds};
//! let item = ShortlistItem {
//!     path: "CLAUDE.md".into(), suggestions: vec![], lifecycle: None, raw_tokens: 9,
//!     injection_frequency: InjectionFrequency::PerSession,
//!     signals: vec![Signal::MissingPath { line: 3, reference: "src/a.rs".into(), via: Via::Code,
//!                                         renamed_to: Some("src/b.rs".into()), deleted_in: None }],
//! };
//! assert_eq!(compiler_line(&item, &item.signals[0]),
//!            "CLAUDE.md:3: missing-path: `src/a.rs` (code) names no file; git renamed it to `src/b.rs`");
//! assert!(parse_kinds(&["missing-path".into(), "no-such-kind".into()]).is_err());
//! ```

use super::{signal_kind, signal_rules};
use crate::report::{ScanResult, ShortlistItem, Signal, Via};

/// The lines a signal is about: `(start, end)`, 1-based inclusive. `None` for a whole-file fact
/// (a checklist, oversize, drift, lifecycle), which the compiler line reports at line 1.
///
/// ```
/// use hygiene::report::Signal;
/// use hygiene::scan::diagnostics::lines;
/// assert_eq!(lines(&Signal::ProvisionalMarker { count: 2, lines: vec![7, 9] }), Some((7, 7)));
/// assert_eq!(lines(&Signal::Oversize { raw_tokens: 9, threshold: 1 }), None);
/// ```
pub fn lines(s: &Signal) -> Option<(u32, u32)> {
    match s {
        Signal::MissingPath { line, .. }
        | Signal::MissingAnchor { line, .. }
        | Signal::MissingSymbol { line, .. }
        | Signal::StatusDone { line, .. }
        | Signal::ResolvedNarrative { line, .. }
        | Signal::SupersededMarker { line, .. } => Some((*line, *line)),
        Signal::DuplicateBlock {
            start_line,
            end_line,
            ..
        } => Some((*start_line, *end_line)),
        // The first marker: one location per signal; the sentence names the others.
        Signal::ProvisionalMarker { lines, .. } => lines.first().map(|l| (*l, *l)),
        Signal::ChecklistComplete { .. }
        | Signal::Oversize { .. }
        | Signal::Drift { .. }
        | Signal::Lifecycle {} => None,
    }
}

fn via(v: Via) -> &'static str {
    match v {
        Via::Link => "link",
        Via::Code => "code",
        Via::Import => "import",
    }
}

/// The signal's fact about `item`, in one sentence without a final period.
pub fn fact(item: &ShortlistItem, s: &Signal) -> String {
    match s {
        Signal::MissingPath {
            reference,
            via: v,
            renamed_to,
            deleted_in,
            ..
        } => {
            let mut m = format!("`{reference}` ({}) names no file", via(*v));
            if let Some(to) = renamed_to {
                m.push_str(&format!("; git renamed it to `{to}`"));
            } else if let Some(d) = deleted_in {
                let short: String = d.commit.chars().take(12).collect();
                m.push_str(&format!("; git deleted it in {short} ({})", d.date));
            }
            m
        }
        Signal::MissingAnchor { reference, .. } => {
            format!("`{reference}` names no heading of its target")
        }
        Signal::MissingSymbol { reference, .. } => {
            format!("`{reference}` occurs nowhere in the tracked source")
        }
        Signal::DuplicateBlock {
            start_line,
            end_line,
            canonical_ref,
        } => format!("lines {start_line}-{end_line} repeat {canonical_ref}"),
        Signal::ChecklistComplete { checked } => {
            format!("all {checked} checkboxes are checked")
        }
        Signal::StatusDone { text, .. } => format!("the status says done: {text}"),
        Signal::SupersededMarker { by, .. } => match by {
            Some(b) => format!("marked superseded by `{b}`"),
            None => "marked superseded".to_string(),
        },
        Signal::ProvisionalMarker { count, lines } => {
            let l: Vec<String> = lines.iter().map(u32::to_string).collect();
            format!("{count} provisional marker(s) on line(s) {}", l.join(", "))
        }
        Signal::Oversize {
            raw_tokens,
            threshold,
        } => format!("{raw_tokens} raw tokens, over the threshold of {threshold}"),
        Signal::Drift { commits, since } => {
            format!("the files it references changed in {commits} commits since {since}")
        }
        Signal::ResolvedNarrative { text, words, .. } => {
            format!("a {words}-word write-up that says it is resolved: {text}")
        }
        Signal::Lifecycle {} => match &item.lifecycle {
            Some(lc) if lc.served_when.is_some() => format!(
                "rulebook rule `{}` governs it; a model must judge whether it has served",
                lc.rule_ref
            ),
            Some(lc) => format!("rulebook rule `{}` says it has served", lc.rule_ref),
            None => "a rulebook rule says it has served".to_string(),
        },
    }
}

/// `path:line: kind: fact`, the form editors and CI logs turn into links.
pub fn compiler_line(item: &ShortlistItem, s: &Signal) -> String {
    let line = lines(s).map_or(1, |(a, _)| a);
    format!(
        "{}:{line}: {}: {}",
        item.path,
        signal_kind(s),
        fact(item, s)
    )
}

/// Validates `--fail-on` kinds against the published signal table. Each argument may itself be
/// a comma-separated list; empty names are ignored. An unknown kind is an error naming it and
/// the known ones.
pub fn parse_kinds(args: &[String]) -> Result<Vec<&'static str>, String> {
    let rules = signal_rules();
    let mut out: Vec<&'static str> = Vec::new();
    for name in args.iter().flat_map(|a| a.split(',')).map(str::trim) {
        if name.is_empty() {
            continue;
        }
        match rules.iter().find(|r| r.kind == name) {
            Some(r) if !out.contains(&r.kind) => out.push(r.kind),
            Some(_) => {}
            None => {
                let known: Vec<&str> = rules.iter().map(|r| r.kind).collect();
                return Err(format!(
                    "--fail-on: unknown signal kind `{name}`; known kinds: {}",
                    known.join(", ")
                ));
            }
        }
    }
    Ok(out)
}

/// The compiler lines of every shortlisted signal whose kind is in `kinds`, ordered by path and
/// line like a compiler's. Empty means the gate passes.
pub fn failures(scan: &ScanResult, kinds: &[&str]) -> Vec<String> {
    let mut hits: Vec<(&str, u32, String)> = Vec::new();
    for item in &scan.shortlist {
        for s in &item.signals {
            if kinds.contains(&signal_kind(s)) {
                let line = lines(s).map_or(1, |(a, _)| a);
                hits.push((item.path.as_str(), line, compiler_line(item, s)));
            }
        }
    }
    hits.sort_by(|a, b| (a.0, a.1).cmp(&(b.0, b.1)));
    hits.into_iter().map(|h| h.2).collect()
}
