//! What a report is worth, rolled up bottom-up from its entries.
//!
//! Savings in files Claude Code loads every session are real and recur; savings in files read
//! on demand are a ceiling reached only in sessions that read them. The two are kept in separate
//! totals and never summed into one number that would mean neither.

use crate::report::{Category, InjectionFrequency, Report, SafetyTier};
use schemars::JsonSchema;
use serde::Serialize;
use std::collections::BTreeMap;
use std::fmt::Write;

/// Token savings split by certainty.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, JsonSchema)]
pub struct Savings {
    /// Saved in every session (entries in per-session files; weighted tokens).
    pub per_session: u64,
    /// The most saved in a session that reads the on-demand files (weighted tokens).
    pub on_demand_max: u64,
    /// Raw tokens of entries whose report carries no injection frequency (v1 estimates).
    pub unweighted: u64,
}

impl Savings {
    fn add(&mut self, e: &crate::report::TokenEstimate) {
        let w = e.weighted_tokens.unwrap_or(e.raw_tokens);
        match e.injection_frequency {
            Some(InjectionFrequency::PerSession) => self.per_session += w,
            Some(InjectionFrequency::OnDemand) => self.on_demand_max += w,
            None => self.unweighted += e.raw_tokens,
        }
    }
}

/// One row of a roll-up.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct Row {
    /// `class/subtype` or the tier.
    pub key: String,
    /// Entries in the row.
    pub entries: u64,
    /// Their savings.
    pub tokens: Savings,
}

/// The summary `hygiene summary` prints.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct Summary {
    /// Documents the scan read.
    pub files_scanned: u64,
    /// Paths the scanner shortlisted.
    pub shortlisted: u64,
    /// Shortlisted paths the model judged fine (no entry).
    pub cleared: u64,
    /// Entries in the report.
    pub entries: u64,
    /// Roll-up by category (`class/subtype`), alphabetical.
    pub by_category: Vec<Row>,
    /// Roll-up by safety tier.
    pub by_tier: Vec<Row>,
    /// All entries.
    pub total: Savings,
    /// The tokenizer the counts use.
    pub encoding: &'static str,
    /// Documents the scan could not read.
    pub skipped: u64,
    /// Conventions worth adopting, with their pitch.
    pub promotion_candidates: Vec<crate::report::PromotionCandidate>,
    /// What the `/hygiene:check` run that made the report judged and deferred (from its bill,
    /// `.hygiene/bill.json`, when the bill belongs to the report's scan).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub run: Option<RunNote>,
}

/// What one `/hygiene:check` run judged and what it left for the next.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct RunNote {
    /// Items the model judged in this run.
    pub judged_by_model: u64,
    /// Tokens of evidence it was handed.
    pub evidence_tokens: u64,
    /// Items with drafts the helper settled without the model.
    pub settled_items: u64,
    /// Items judged in earlier runs, carried with their drafts.
    pub carried_items: u64,
    /// Items left for the next run.
    pub deferred: u64,
    /// Their tokens of evidence.
    pub deferred_tokens: u64,
}

/// `s` with what the run's bill says: the run note, and `cleared` counting only items that were
/// judged (a deferred item with no entry is not cleared, it is waiting).
pub fn with_bill(mut s: Summary, r: &Report, bill: &crate::triage::Bill) -> Summary {
    let with_entry: std::collections::HashSet<&str> =
        r.entries.iter().map(|e| e.path.as_str()).collect();
    let deferred: std::collections::HashSet<&str> =
        bill.deferred.iter().map(|d| d.path.as_str()).collect();
    s.cleared = r
        .shortlist
        .iter()
        .filter(|i| !with_entry.contains(i.path.as_str()) && !deferred.contains(i.path.as_str()))
        .count() as u64;
    s.run = Some(RunNote {
        judged_by_model: bill.handed.len() as u64,
        evidence_tokens: bill.evidence_tokens,
        settled_items: bill.settled_items,
        carried_items: bill.carried_items,
        deferred: bill.deferred.len() as u64,
        deferred_tokens: bill.deferred_tokens,
    });
    s
}

fn key(c: Category) -> String {
    let v = serde_json::to_value(c).expect("categories serialize");
    format!(
        "{}/{}",
        v["class"].as_str().unwrap_or(""),
        v["subtype"].as_str().unwrap_or("")
    )
}

fn tier_word(t: SafetyTier) -> String {
    serde_json::to_value(t)
        .ok()
        .and_then(|v| v.as_str().map(str::to_string))
        .unwrap_or_default()
}

/// Rolls a report up.
///
/// ```
/// let r: hygiene::report::Report = serde_json::from_str(
///     &std::fs::read_to_string("examples/golden/valid-report.json").unwrap()).unwrap();
/// let s = hygiene::summary::summarize(&r);
/// let sum: u64 = s.by_category.iter().map(|r| r.tokens.per_session + r.tokens.on_demand_max).sum();
/// assert_eq!(sum, s.total.per_session + s.total.on_demand_max);
/// assert_eq!(s.entries as usize, r.entries.len());
/// ```
pub fn summarize(r: &Report) -> Summary {
    let mut cats: BTreeMap<String, Row> = BTreeMap::new();
    let mut tiers: BTreeMap<String, Row> = BTreeMap::new();
    let mut total = Savings::default();
    for e in &r.entries {
        let k = key(e.category);
        let row = cats.entry(k.clone()).or_insert(Row {
            key: k,
            entries: 0,
            tokens: Savings::default(),
        });
        row.entries += 1;
        row.tokens.add(&e.token_estimate);
        let t = tier_word(e.safety_tier);
        let row = tiers.entry(t.clone()).or_insert(Row {
            key: t,
            entries: 0,
            tokens: Savings::default(),
        });
        row.entries += 1;
        row.tokens.add(&e.token_estimate);
        total.add(&e.token_estimate);
    }
    let with_entry: std::collections::HashSet<&str> =
        r.entries.iter().map(|e| e.path.as_str()).collect();
    Summary {
        files_scanned: r.scan.files_scanned,
        shortlisted: r.shortlist.len() as u64,
        cleared: r
            .shortlist
            .iter()
            .filter(|i| !with_entry.contains(i.path.as_str()))
            .count() as u64,
        entries: r.entries.len() as u64,
        by_category: cats.into_values().collect(),
        by_tier: tiers.into_values().collect(),
        total,
        encoding: crate::tokens::ENCODING,
        skipped: r.scan.skipped.len() as u64,
        promotion_candidates: r.promotion_candidates.clone(),
        run: None,
    }
}

/// `x` with thousands separators (`39,559`), as the summary and the bill print counts.
pub(crate) fn n(x: u64) -> String {
    let s = x.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// The one-screen human form `/hygiene:check` shows.
pub fn human(s: &Summary) -> String {
    let mut o = String::new();
    let tier = |t: &str| {
        s.by_tier
            .iter()
            .find(|r| r.key == t)
            .map(|r| r.entries)
            .unwrap_or(0)
    };
    let _ = writeln!(
        o,
        "hygiene: {} documents scanned, {} shortlisted, {} cleared, {} entries ({} auto, {} confirm)",
        s.files_scanned, s.shortlisted, s.cleared, s.entries, tier("auto"), tier("confirm")
    );
    if let Some(run) = &s.run {
        let _ = writeln!(
            o,
            "  This run: {} items judged by the model (~{} tokens of evidence), {} settled without it, {} carried from earlier runs.",
            run.judged_by_model,
            n(run.evidence_tokens),
            run.settled_items,
            run.carried_items
        );
        if run.deferred > 0 {
            let _ = writeln!(
                o,
                "  Deferred: {} items (~{} tokens). Run /hygiene:check again to continue with the next ones, or /hygiene:check PATH to judge one folder whole.",
                run.deferred,
                n(run.deferred_tokens)
            );
        } else {
            let _ = writeln!(
                o,
                "  Nothing deferred: every shortlisted item has been judged."
            );
        }
    }
    if s.skipped > 0 {
        let _ = writeln!(
            o,
            "  ({} documents could not be read; see scan.skipped)",
            s.skipped
        );
    }
    if s.entries > 0 {
        let _ = writeln!(
            o,
            "\n  {:<28} {:>7} {:>12} {:>14}",
            "category", "entries", "per-session", "on-demand max"
        );
        for r in s.by_category.iter().chain(s.by_tier.iter()) {
            let label = if r.key.contains('/') {
                r.key.clone()
            } else {
                format!("tier {}", r.key)
            };
            let _ = writeln!(
                o,
                "  {label:<28} {:>7} {:>12} {:>14}",
                r.entries,
                n(r.tokens.per_session),
                n(r.tokens.on_demand_max)
            );
        }
        let _ = writeln!(
            o,
            "\n  Saved in every session: {} tokens ({})",
            n(s.total.per_session),
            s.encoding
        );
        let _ = writeln!(
            o,
            "  On-demand maximum:      {} tokens, only in sessions that read those files",
            n(s.total.on_demand_max)
        );
        if s.total.unweighted > 0 {
            let _ = writeln!(
                o,
                "  Unweighted (v1 entries): {} tokens",
                n(s.total.unweighted)
            );
        }
    }
    if !s.promotion_candidates.is_empty() {
        let _ = writeln!(o, "\n  Conventions that would make these checks automatic:");
        for p in &s.promotion_candidates {
            let _ = writeln!(o, "  - {} -> {}: {}", p.path, p.convention, p.pitch);
        }
    }
    if s.entries > 0 {
        let _ = writeln!(
            o,
            "\nNext: /hygiene:clean applies the {} auto entries and asks before each of the {} others.",
            tier("auto"),
            tier("confirm")
        );
    }
    o
}
