//! `hygiene sweep`: every governed document, its evidence, and the tier its deletion would get.
//!
//! The listing is what `/hygiene:sweep` shows the user before anything is deleted. Tiers are
//! derived here from the *live* git state (one `git ls-files` and one `git status` per sweep)
//! through [`crate::tier::derive_safety_tier`]; the `drafts` block holds ready draft entries for
//! the scanner-proven items only, since a `served_when` question is a model's to answer.

use super::rulebook::{lifetime_name, Rulebook};
use super::{evaluate, walk_files, Facts, Governed, Status};
use crate::git::Repo;
use crate::report::{
    Anchor, ExactEdit, Lifecycle, Lifetime, OpType, SafetyTier, Signal, Suggestion,
};
use crate::tier::{derive_safety_tier, GitState};
use serde::Serialize;
use std::fmt::Write as _;
use std::path::Path;

/// The whole sweep listing (`hygiene sweep --format json`).
#[derive(Debug, Clone, Serialize)]
pub struct SweepReport {
    /// The swept root (absolute).
    pub root: String,
    /// When the sweep ran (ISO-8601 UTC; `HYGIENE_NOW` fixes it).
    pub generated_at: String,
    /// The rulebook files merged, in order.
    pub rulebook: Vec<String>,
    /// How many items stand where.
    pub counts: Counts,
    /// Every governed document or directory, sorted by path.
    pub items: Vec<SweepItem>,
    /// Draft entries (`hygiene finalize --drafts`) for the scanner-proven served items.
    pub drafts: crate::finalize::DraftFile,
    /// What lowered the sweep's reach (walk errors, incomplete git history, no git).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<String>,
}

/// Tallies of a sweep.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Counts {
    /// Governed items.
    pub governed: usize,
    /// Served (scanner-proven).
    pub served: usize,
    /// Waiting for a model's judgement.
    pub needs_judgement: usize,
    /// Not served yet.
    pub not_served: usize,
    /// Protected by a keep rule.
    pub protected: usize,
    /// Proposed edits that derive `auto`.
    pub auto: usize,
    /// Proposed edits that derive `confirm`.
    pub confirm: usize,
}

/// One governed item as the sweep lists it.
#[derive(Debug, Clone, Serialize)]
pub struct SweepItem {
    /// Root-relative path (a directory for a `dir` rule).
    pub path: String,
    /// True for a directory-rule aggregate.
    pub is_dir: bool,
    /// The governing rule's id (for a protected item: the keep rule).
    pub rule: String,
    /// That rule's lifetime.
    pub lifetime: Lifetime,
    /// Where it stands.
    pub status: Status,
    /// The structured evidence.
    pub evidence: Facts,
    /// The evidence in a sentence.
    pub evidence_text: String,
    /// The report's lifecycle object for the item.
    pub lifecycle: Lifecycle,
    /// Live git state, for items with a proposed edit.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub git: Option<GitState>,
    /// The tier the proposed edit derives now (for a `needs-judgement` item: if judged served).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub safety_tier: Option<SafetyTier>,
    /// The proposed edit, without `expected_sha256`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub suggestion: Option<Suggestion>,
}

/// Sweeps `root` at `now` (Unix seconds): loads the rulebook, walks, evaluates, reads the live
/// git state once and derives each proposed edit's tier.
pub fn sweep(root: &Path, now: i64) -> crate::Result<SweepReport> {
    let book = Rulebook::load(root)?;
    let (files, mut warnings) = walk_files(root, &book.excluded_dirs);
    let repo = Repo::discover(root);
    let history = repo.as_ref().map(Repo::history);
    match &history {
        Some(h) => warnings.extend(h.warnings.iter().cloned()),
        None => warnings.push(
            "not a git work tree: nothing is tracked, so every deletion asks (confirm)".into(),
        ),
    }
    let governed = evaluate(root, &book, &files, repo.as_ref(), history.as_ref(), now);
    let facts = crate::git::Facts::read(root);
    let mut counts = Counts {
        governed: governed.len(),
        ..Counts::default()
    };
    let mut items = Vec::new();
    let mut drafts = crate::finalize::DraftFile {
        entries: Vec::new(),
    };
    for g in governed {
        match g.status {
            Status::Served => counts.served += 1,
            Status::NeedsJudgement => counts.needs_judgement += 1,
            Status::NotServed => counts.not_served += 1,
            Status::Protected => counts.protected += 1,
        }
        let git = g.suggestion.is_some().then(|| facts.state(root, &g.path));
        let tier = git.and_then(|git| tier_of(&g, git));
        match tier {
            Some(SafetyTier::Auto) => counts.auto += 1,
            Some(SafetyTier::Confirm) => counts.confirm += 1,
            None => {}
        }
        let suggestion = g.proposal();
        if let (Status::Served, Some(s)) = (g.status, &suggestion) {
            drafts.entries.push(crate::finalize::DraftEntry {
                path: g.path.clone(),
                category: s.category,
                signals: vec![Signal::Lifecycle {}],
                op: s.op.clone(),
                op_type: OpType::Deterministic,
                exact_edit: Some(s.exact_edit.clone()),
                lifecycle: Some(g.lifecycle.clone()),
                is_destructive: None,
                is_reversible: None,
            });
        }
        items.push(SweepItem {
            path: g.path,
            is_dir: g.is_dir,
            rule: g.lifecycle.rule_ref.clone(),
            lifetime: g.lifecycle.lifetime,
            status: g.status,
            evidence: g.facts,
            evidence_text: g.evidence,
            lifecycle: g.lifecycle,
            git,
            safety_tier: tier,
            suggestion,
        });
    }
    Ok(SweepReport {
        root: root.display().to_string(),
        generated_at: crate::time::format_utc(now),
        rulebook: book.sources,
        counts,
        items,
        drafts,
        warnings,
    })
}

/// The tier a governed item's proposed edit derives with this git state: a lifecycle op is
/// deterministic and destructive (the kind table says so), reversible iff tracked and clean.
pub fn tier_of(g: &Governed, git: GitState) -> Option<SafetyTier> {
    let edit = g.suggestion.as_ref()?;
    let arg = g.lifecycle_arg(git)?;
    Some(derive_safety_tier(
        OpType::Deterministic,
        crate::kinds::rule(edit.kind).is_destructive,
        git.recoverable(),
        Some(arg),
    ))
}

fn tier_name(t: SafetyTier) -> &'static str {
    match t {
        SafetyTier::Auto => "auto",
        SafetyTier::Confirm => "confirm",
    }
}

/// The human listing (`hygiene sweep --format human`).
pub fn render_human(r: &SweepReport) -> String {
    let c = &r.counts;
    let mut s = String::new();
    let _ = writeln!(
        s,
        "hygiene sweep: {} governed under {} (rules: {})",
        c.governed,
        r.root,
        r.rulebook.join(" + ")
    );
    let _ = writeln!(
        s,
        "  {} served · {} need judgement · {} not served yet · {} protected · proposed edits: {} auto, {} confirm",
        c.served, c.needs_judgement, c.not_served, c.protected, c.auto, c.confirm
    );
    let groups = [
        (Status::Served, "served"),
        (
            Status::NeedsJudgement,
            "needs judgement (a model answers the rule's question)",
        ),
        (Status::NotServed, "not served yet"),
        (Status::Protected, "protected by a keep rule"),
    ];
    for (status, title) in groups {
        let members: Vec<&SweepItem> = r.items.iter().filter(|i| i.status == status).collect();
        if members.is_empty() {
            continue;
        }
        let _ = writeln!(s, "\n{title}");
        for i in members {
            let slash = if i.is_dir { "/" } else { "" };
            let _ = write!(s, "  {}{slash}", i.path);
            if let (Some(t), Some(sug)) = (i.safety_tier, &i.suggestion) {
                let _ = write!(s, "  [{}]  {}", tier_name(t), edit_summary(&sug.exact_edit));
                if let Some(g) = i.git {
                    let state = match (g.tracked, g.clean) {
                        (true, true) => "tracked, clean",
                        (true, false) => "tracked, modified",
                        (false, _) => "untracked",
                    };
                    let _ = write!(s, "  ({state})");
                }
            }
            let _ = writeln!(
                s,
                "\n      rule {} ({}): {}",
                i.rule,
                lifetime_name(i.lifetime),
                i.evidence_text
            );
        }
    }
    for w in &r.warnings {
        let _ = writeln!(s, "\nwarning: {w}");
    }
    s
}

fn edit_summary(e: &ExactEdit) -> String {
    match (&e.anchor, e.extraction_target, &e.target_path) {
        (Some(Anchor::Lines(l)), _, Some(t)) => {
            format!(
                "extract lines {}-{} to {t}, then delete",
                l.start_line, l.end_line
            )
        }
        (Some(Anchor::Lines(l)), _, None) => format!(
            "extract lines {}-{} outside the repository, then delete",
            l.start_line, l.end_line
        ),
        _ => "delete".to_string(),
    }
}
