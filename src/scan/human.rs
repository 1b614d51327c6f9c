//! The readable forms of `hygiene scan --format human` and `hygiene tokens --format human`.

use super::{signal_kind, TokenCount};
use crate::report::{InjectionFrequency, ScanResult, Signal};
use std::fmt::Write;

fn freq(f: InjectionFrequency) -> &'static str {
    match f {
        InjectionFrequency::PerSession => "per-session",
        InjectionFrequency::OnDemand => "on-demand",
    }
}

fn where_(s: &Signal) -> String {
    match s {
        Signal::MissingPath {
            line,
            reference,
            renamed_to,
            ..
        } => match renamed_to {
            Some(to) => format!("{line}: {reference} -> {to}"),
            None => format!("{line}: {reference}"),
        },
        Signal::MissingAnchor { line, reference } | Signal::MissingSymbol { line, reference } => {
            format!("{line}: {reference}")
        }
        Signal::DuplicateBlock {
            start_line,
            end_line,
            canonical_ref,
        } => {
            format!("{start_line}-{end_line} = {canonical_ref}")
        }
        Signal::ChecklistComplete { checked } => format!("{checked} checked"),
        Signal::StatusDone { line, text } => format!("{line}: {text}"),
        Signal::SupersededMarker { line, by } => match by {
            Some(b) => format!("{line}: by {b}"),
            None => format!("{line}"),
        },
        Signal::ProvisionalMarker { count, lines } => format!("{count} at {lines:?}"),
        Signal::Oversize {
            raw_tokens,
            threshold,
        } => format!("{raw_tokens} > {threshold}"),
        Signal::Drift { commits, since } => format!("{commits} commits since {since}"),
        Signal::ResolvedNarrative { line, text, words } => {
            format!("{line}: {text} ({words} words)")
        }
        Signal::Lifecycle {} => String::new(),
    }
}

/// The shortlist as a table: one row per signal, grouped by file.
pub fn table(r: &ScanResult) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "hygiene scan of {}: {} documents, {} shortlisted, {} skipped ({} tokens)",
        r.scan.project_root,
        r.scan.files_scanned,
        r.shortlist.len(),
        r.scan.skipped.len(),
        crate::tokens::ENCODING
    );
    for w in &r.scan.warnings {
        let _ = writeln!(s, "warning: {w}");
    }
    for it in &r.shortlist {
        let _ = writeln!(
            s,
            "\n{}  [{} tokens, {}]",
            it.path,
            it.raw_tokens,
            freq(it.injection_frequency)
        );
        for sig in &it.signals {
            let _ = writeln!(s, "  {:<20} {}", signal_kind(sig), where_(sig));
        }
        for sug in &it.suggestions {
            let _ = writeln!(s, "  suggestion: {}", sug.op);
        }
    }
    for sk in &r.scan.skipped {
        let _ = writeln!(s, "skipped {} ({:?})", sk.path, sk.reason);
    }
    s
}

/// Token counts as a table.
pub fn tokens(rows: &[TokenCount]) -> String {
    let mut s = String::new();
    for r in rows {
        let _ = writeln!(
            s,
            "{:>8}  {:<11}  {}  ({})",
            r.raw_tokens,
            freq(r.injection_frequency),
            r.path,
            r.encoding
        );
    }
    s
}
