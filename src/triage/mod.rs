//! `hygiene triage`: the model's bill. Between the scan and the model, the helper
//!
//! 1. **settles** what needs no judgement: every item's scanner suggestions become drafts
//!    exactly as `hygiene check --accept-suggestions` makes them ([`crate::check::item_drafts`]),
//!    written to `.hygiene/drafts/settled.json`, which the model never reads; an item goes to
//!    the model only with the signals no suggestion settles ([`model_part`]);
//! 2. **carries** what an earlier run judged: a model-judged item whose signals and file are
//!    unchanged keeps its drafts (`.hygiene/judged.json`, written to `drafts/carried.json`);
//! 3. **ranks** the rest by what fixing them is worth ([`rank`], [`RANKING`], [`MISLEADING`])
//!    and keeps the run within the published budget of evidence ([`BILL`]); the rest is
//!    deferred, and the next run continues with it (named paths are judged whole);
//! 4. hands each item to the model as **evidence**, not a document ([`evidence`]), in batch
//!    files cut by evidence tokens with one document's item never split ([`batches`]);
//! 5. prints **the bill**: items, tokens to read, subagents, and whether it is over budget.
//!
//! Every number here is in [`BILL`], which `hygiene policy` publishes.

pub mod evidence;
pub mod ledger;

use crate::check::{asks_a_question, computed_from, item_drafts};
use crate::error::{Error, Result};
use crate::finalize::{DraftEntry, DraftFile};
use crate::report::{InjectionFrequency, ScanResult, ShortlistItem, Signal};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// The limits of one run's model reading.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
pub struct BillPolicy {
    /// Tokens of evidence the model reads in a default run (named paths may exceed it: the
    /// skill asks first).
    pub budget_tokens: u64,
    /// Tokens of evidence per batch; one batch is judged by the main thread, more go to one
    /// classifier subagent each.
    pub batch_tokens: u64,
    /// The most evidence one item gets; the rest is cut with a note to open the file.
    pub item_cap_tokens: u64,
    /// Lines of context each side of a signal's line.
    pub context_lines: u32,
    /// The most excerpt windows one item shows (the rest are listed by line).
    pub max_windows: usize,
    /// Opening lines a whole-document view shows.
    pub overview_lines: u32,
    /// A duplicate span longer than this is shown as its two ends.
    pub max_span_lines: u32,
    /// Longer lines are cut.
    pub max_line_chars: usize,
    /// The most headings an outline lists.
    pub max_outline_headings: usize,
    /// Tokens the Read tool adds per line (its line-number prefix), counted in every estimate
    /// (measured with the pinned client: 1.85 per line; the end-to-end test checks that no
    /// estimate is below what the model received).
    pub read_tokens_per_line: u64,
}

/// The limits in force.
pub const BILL: BillPolicy = BillPolicy {
    budget_tokens: 40_000,
    batch_tokens: 8_000,
    item_cap_tokens: 1_500,
    context_lines: 2,
    max_windows: 6,
    overview_lines: 10,
    max_span_lines: 16,
    max_line_chars: 240,
    max_outline_headings: 20,
    read_tokens_per_line: 2,
};

/// How items are ordered, first key first ([`rank`] implements exactly these).
pub const RANKING: &[&str] = &[
    "per-session tokens: documents Claude Code loads every session first, the larger first",
    "how misleading: the highest `misleading` weight among the item's signals, higher first",
    "how many signals the item has, more first",
    "on-demand size: raw tokens of the document, larger first",
    "path, alphabetical",
];

/// How misleading each signal kind is (higher: an agent reading the document is more likely to
/// act on something false).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
pub struct Misleading {
    /// The signal kind.
    pub kind: &'static str,
    /// Its weight.
    pub weight: u32,
}

const fn m(kind: &'static str, weight: u32) -> Misleading {
    Misleading { kind, weight }
}

/// The misleading weights, one per signal kind.
pub const MISLEADING: &[Misleading] = &[
    m("missing-path", 5),
    m("missing-symbol", 4),
    m("missing-anchor", 4),
    m("superseded-marker", 4),
    m("status-done", 3),
    m("checklist-complete", 3),
    m("lifecycle", 3),
    m("resolved-narrative", 2),
    m("provisional-marker", 2),
    m("duplicate-block", 2),
    m("drift", 1),
    m("oversize", 1),
];

/// What triage settles without the model (published with the bill).
pub const SETTLED_RULE: &str = "An item's scanner suggestions (a renamed path in a document that describes the present, a dedupe whose readers keep the text, a scanner-proven served document) become drafts exactly as `hygiene check --accept-suggestions` makes them, and the model never reads them; a signal no suggestion was computed from, and every item that waits on a `served_when` question, goes to the model.";

/// What carries over between runs (published with the bill).
pub const CARRY_RULE: &str = "An item the model judged in a run whose report was finalized keeps its drafts (none when it was cleared) while its signals and its file's bytes stay the same; it is not handed to the model again. Deferred items are handed in a later run, highest ranked first.";

/// The weight of a signal kind (0 for an unknown kind).
pub fn weight(kind: &str) -> u32 {
    MISLEADING
        .iter()
        .find(|w| w.kind == kind)
        .map(|w| w.weight)
        .unwrap_or(0)
}

/// The ranking key of an item (smaller first), as [`RANKING`] says.
pub fn rank_key(item: &ShortlistItem) -> impl Ord + '_ {
    use std::cmp::Reverse;
    let per_session = match item.injection_frequency {
        InjectionFrequency::PerSession => item.raw_tokens,
        InjectionFrequency::OnDemand => 0,
    };
    let misleading = item
        .signals
        .iter()
        .map(|s| weight(crate::scan::signal_kind(s)))
        .max()
        .unwrap_or(0);
    (
        Reverse(per_session),
        Reverse(misleading),
        Reverse(item.signals.len()),
        Reverse(item.raw_tokens),
        item.path.as_str(),
    )
}

/// Items in rank order.
pub fn rank(items: &mut [ShortlistItem]) {
    items.sort_by(|a, b| rank_key(a).cmp(&rank_key(b)));
}

/// What of `item` the model must judge: the item without the signals its settled suggestions
/// were computed from (and without those suggestions), the whole item when it waits on a
/// `served_when` question, `None` when the suggestions settle every signal.
pub fn model_part(item: &ShortlistItem) -> Option<ShortlistItem> {
    if asks_a_question(item) {
        return Some(item.clone());
    }
    let settled: Vec<Signal> = item
        .suggestions
        .iter()
        .flat_map(|s| computed_from(item, s))
        .collect();
    let rest: Vec<Signal> = item
        .signals
        .iter()
        .filter(|s| !settled.contains(s))
        .cloned()
        .collect();
    (!rest.is_empty()).then(|| ShortlistItem {
        signals: rest,
        suggestions: Vec::new(),
        ..item.clone()
    })
}

/// The identity of a model part: its JSON and the bytes of its file (a directory: its listing),
/// so any change to either makes it a new item.
pub fn item_key(root: &Path, part: &ShortlistItem) -> String {
    let json = serde_json::to_string(part).expect("items serialize");
    let file = crate::paths::resolve_inside(root, &part.path, false)
        .ok()
        .and_then(|p| crate::fingerprint::of_path(&p).ok())
        .unwrap_or_default();
    crate::fingerprint::sha256_hex(format!("{json}\n{file}").as_bytes())
}

/// Splits ranked evidence sizes into as few batches of at most `target` tokens as greedy filling
/// in order gives, evened out (each batch aims at the average, so no batch is left with a
/// straggler); an item is never split, so one larger than `target` is a batch of its own.
/// Returns the batch index of each item.
///
/// ```
/// use hygiene::triage::batches;
/// assert_eq!(batches(&[5, 5, 5, 20, 1], 10), vec![0, 0, 1, 2, 3]);
/// // 37 items of 10 into batches of 100: four even batches, not three full ones and a straggler.
/// let b = batches(&[10; 37], 100);
/// assert_eq!(b.iter().filter(|&&x| x == 3).count(), 9);
/// assert_eq!(*b.last().unwrap(), 3);
/// ```
pub fn batches(tokens: &[u64], target: u64) -> Vec<usize> {
    let greedy = fill(tokens, target);
    let n = greedy.last().map_or(0, |b| b + 1) as u64;
    if n <= 1 {
        return greedy;
    }
    // Each item goes to the batch its midpoint falls in when the total is cut into n equal parts.
    let even = tokens.iter().sum::<u64>() as f64 / n as f64;
    let mut at = 0u64;
    let mut sums = vec![0u64; n as usize];
    let balanced: Vec<usize> = tokens
        .iter()
        .map(|&t| {
            let mid = at as f64 + t as f64 / 2.0;
            at += t;
            let b = ((mid / even) as usize).min(n as usize - 1);
            sums[b] += t;
            b
        })
        .collect();
    let fits = sums.iter().all(|&s| s <= target);
    if fits && sums.iter().all(|&s| s > 0) {
        balanced
    } else {
        greedy
    }
}

/// Greedy in-order filling up to `target` tokens per batch.
fn fill(tokens: &[u64], target: u64) -> Vec<usize> {
    let mut out = Vec::with_capacity(tokens.len());
    let (mut batch, mut used) = (0usize, 0u64);
    for (i, &t) in tokens.iter().enumerate() {
        if i > 0 && used + t > target {
            batch += 1;
            used = 0;
        }
        used += t;
        out.push(batch);
    }
    out
}

/// How many of the ranked items a run takes: the longest prefix within `budget` (at least one),
/// or all of them when `all`.
///
/// ```
/// assert_eq!(hygiene::triage::within_budget(&[10, 10, 10], 25, false), 2);
/// assert_eq!(hygiene::triage::within_budget(&[30, 1], 25, false), 1);
/// assert_eq!(hygiene::triage::within_budget(&[30, 1], 25, true), 2);
/// ```
pub fn within_budget(tokens: &[u64], budget: u64, all: bool) -> usize {
    if all {
        return tokens.len();
    }
    let mut used = 0u64;
    for (i, &t) in tokens.iter().enumerate() {
        if i > 0 && used + t > budget {
            return i;
        }
        used += t;
    }
    tokens.len()
}

/// An item handed to the model in this run.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Handed {
    /// Its identity ([`item_key`]).
    pub key: String,
    /// Its path.
    pub path: String,
    /// Its evidence tokens.
    pub tokens: u64,
    /// Its batch (1-based).
    pub batch: usize,
}

/// An item left for a later run.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Deferred {
    /// Its path.
    pub path: String,
    /// Its evidence tokens.
    pub tokens: u64,
}

/// One batch file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Batch {
    /// The evidence file (root-relative).
    pub file: String,
    /// The drafts file its judge writes (root-relative).
    pub drafts: String,
    /// Items in it.
    pub items: usize,
    /// Its evidence tokens.
    pub tokens: u64,
}

/// The bill of one run: written to `.hygiene/bill.json` and printed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Bill {
    /// The format of this file.
    pub schema: u32,
    /// The scan's `generated_at` (the report finalized from it carries the same).
    pub generated_at: String,
    /// The budget in force.
    pub budget_tokens: u64,
    /// Items in the scan's shortlist.
    pub shortlisted: u64,
    /// Items with drafts the helper settled.
    pub settled_items: u64,
    /// The helper's drafts.
    pub settled_drafts: u64,
    /// Items settled whole (nothing left for the model).
    pub settled_whole: u64,
    /// Items an earlier run judged, carried with their drafts.
    pub carried_items: u64,
    /// Drafts carried.
    pub carried_drafts: u64,
    /// Items handed to the model in this run, in rank order.
    pub handed: Vec<Handed>,
    /// Items left for a later run, in rank order.
    pub deferred: Vec<Deferred>,
    /// The batch files.
    pub batches: Vec<Batch>,
    /// Evidence tokens handed.
    pub evidence_tokens: u64,
    /// Evidence tokens deferred.
    pub deferred_tokens: u64,
    /// Classifier subagents the skill dispatches (0: the main thread judges the one batch).
    pub subagents: u64,
    /// Whether the evidence exceeds the budget (named paths or `--all`): the skill asks first.
    pub over_budget: bool,
    /// The paths the run was scoped to (empty: the whole repository).
    pub paths: Vec<String>,
    /// Facts that lowered the run's reach (a previous run's state that could not be read).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<String>,
}

/// The format of `.hygiene/bill.json`.
pub const BILL_SCHEMA: u32 = 1;

/// What `hygiene triage` is asked to do.
#[derive(Debug, Clone)]
pub struct TriageRequest {
    /// The repository root.
    pub root: PathBuf,
    /// The scan (`.hygiene/scan.json`).
    pub scan: PathBuf,
    /// The paths the scan was scoped to; named paths are judged whole.
    pub paths: Vec<String>,
    /// The budget (default [`BILL`]`.budget_tokens`).
    pub budget: Option<u64>,
    /// Judge everything, whatever the budget.
    pub all: bool,
}

/// The drafts folder and the batch folder, under `.hygiene/`.
pub const DRAFTS_DIR: &str = "drafts";
/// See [`DRAFTS_DIR`].
pub const BATCHES_DIR: &str = "batches";

fn under(paths: &[String], p: &str) -> bool {
    paths.is_empty()
        || paths.iter().any(|q| {
            let q = q.trim_start_matches("./").trim_end_matches('/');
            q.is_empty() || q == "." || p == q || p.starts_with(&format!("{q}/"))
        })
}

/// Removes `.hygiene/<dir>/` files whose name `matches`, never following a link.
fn clear(root: &Path, dir: &str, matches: impl Fn(&str) -> bool) -> Result<()> {
    let d = crate::state::path(root, dir, false)?;
    let Ok(rd) = std::fs::read_dir(&d) else {
        return Ok(());
    };
    for e in rd.flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        if matches(&name) && e.file_type().is_ok_and(|t| t.is_file()) {
            crate::fsio::remove_file(&e.path()).map_err(|x| Error::io(e.path(), x))?;
        }
    }
    Ok(())
}

fn pretty<T: Serialize>(v: &T) -> String {
    let mut s = serde_json::to_string_pretty(v).expect("triage types serialize");
    s.push('\n');
    s
}

/// Runs triage: reads the scan and the previous run's state, writes the settled and carried
/// drafts, the batch files, `.hygiene/bill.json` and `.hygiene/judged.json`, and returns the
/// bill. Fails (usage/I/O) only when the scan cannot be read or a file cannot be written.
pub fn triage(req: &TriageRequest) -> Result<Bill> {
    let root = &req.root;
    let bytes = crate::error::read(&req.scan)?;
    let scan: ScanResult = crate::error::parse_json(&req.scan.display().to_string(), &bytes)?;
    if Path::new(&scan.scan.project_root)
        .canonicalize()
        .ok()
        .as_deref()
        != Some(root.as_path())
    {
        return Err(Error::Usage(format!(
            "{} was made for {}, not for {}; scan this root again",
            req.scan.display(),
            scan.scan.project_root,
            root.display()
        )));
    }
    let mut warnings = Vec::new();
    let mut book = ledger::Ledger::load(root, &mut warnings);
    ledger::absorb_previous_run(root, &mut book, &mut warnings);

    // Settle, carry, or keep for the model.
    let mut settled: Vec<DraftEntry> = Vec::new();
    let (mut settled_items, mut settled_whole) = (0u64, 0u64);
    let mut carried: Vec<DraftEntry> = Vec::new();
    let mut carried_items = 0u64;
    let mut candidates: Vec<(ShortlistItem, String)> = Vec::new();
    let mut current: HashMap<String, String> = HashMap::new();
    for item in &scan.shortlist {
        let drafts = item_drafts(item);
        if !drafts.is_empty() {
            settled_items += 1;
        }
        settled.extend(drafts);
        let Some(part) = model_part(item) else {
            settled_whole += 1;
            continue;
        };
        let key = item_key(root, &part);
        current.insert(part.path.clone(), key.clone());
        match book.judged.get(&key) {
            Some(j) => {
                carried_items += 1;
                carried.extend(j.drafts.iter().cloned());
            }
            None => candidates.push((part, key)),
        }
    }
    book.prune(root, &req.paths, &current);

    // Rank, build the evidence, keep the run within the budget.
    candidates.sort_by(|a, b| rank_key(&a.0).cmp(&rank_key(&b.0)));
    let want_symbols = candidates.iter().any(|(i, _)| {
        i.signals
            .iter()
            .any(|s| matches!(s, Signal::MissingSymbol { .. }))
    });
    let mut tree = evidence::TreeFacts::read(root, want_symbols);
    tree.read_drift(root, &scan.drift_evidence);
    let ev: Vec<evidence::Evidence> =
        crate::scan::walk::par_map(&(0..candidates.len()).collect::<Vec<_>>(), |&i| {
            evidence::build(root, i + 1, &candidates[i].0, &tree)
        });
    let sizes: Vec<u64> = ev.iter().map(|e| e.tokens).collect();
    let budget = req.budget.unwrap_or(BILL.budget_tokens);
    let named = req.paths.iter().any(|p| !p.trim_matches('/').is_empty());
    let all = req.all || named;
    // Each batch file adds its header: the run stays within the budget with them.
    let header = evidence::read_tokens(&batch_header(99, 99, 999));
    let mut take = within_budget(&sizes, budget, all);
    let (batch_of, n_batches) = loop {
        let batch_of = batches(&sizes[..take], BILL.batch_tokens - header);
        let n_batches = batch_of.last().map_or(0, |b| b + 1);
        let total: u64 = sizes[..take].iter().sum::<u64>() + n_batches as u64 * header;
        if all || take <= 1 || total <= budget {
            break (batch_of, n_batches);
        }
        take -= 1;
    };

    // Write the drafts the helper settled and carried, then the batch files.
    clear(root, DRAFTS_DIR, |n| n.ends_with(".json"))?;
    clear(root, BATCHES_DIR, |n| {
        n.starts_with("batch-") && n.ends_with(".md")
    })?;
    // Finalize reads the folder even when nobody writes a draft.
    crate::state::subdir(root, DRAFTS_DIR, true)?;
    for (name, drafts) in [("settled.json", &settled), ("carried.json", &carried)] {
        if !drafts.is_empty() {
            let file = DraftFile {
                entries: drafts.clone(),
            };
            crate::state::write(
                root,
                &format!("{DRAFTS_DIR}/{name}"),
                pretty(&file).as_bytes(),
            )?;
        }
    }
    let mut files: Vec<Batch> = Vec::new();
    let mut handed = Vec::new();
    for b in 0..n_batches {
        let k = b + 1;
        let idx: Vec<usize> = (0..take).filter(|&i| batch_of[i] == b).collect();
        let drafts = format!(".hygiene/{DRAFTS_DIR}/batch-{k}.json");
        let mut text = batch_header(k, n_batches, idx.len());
        for &i in &idx {
            text.push_str(&ev[i].text);
            handed.push(Handed {
                key: candidates[i].1.clone(),
                path: candidates[i].0.path.clone(),
                tokens: ev[i].tokens,
                batch: k,
            });
        }
        let rel = format!("{BATCHES_DIR}/batch-{k}.md");
        crate::state::write(root, &rel, text.as_bytes())?;
        files.push(Batch {
            file: format!(".hygiene/{rel}"),
            drafts,
            items: idx.len(),
            tokens: evidence::read_tokens(&text),
        });
    }
    let deferred: Vec<Deferred> = (take..candidates.len())
        .map(|i| Deferred {
            path: candidates[i].0.path.clone(),
            tokens: sizes[i],
        })
        .collect();
    let evidence_tokens: u64 = files.iter().map(|b| b.tokens).sum();
    let bill = Bill {
        schema: BILL_SCHEMA,
        generated_at: scan.generated_at.clone(),
        budget_tokens: budget,
        shortlisted: scan.shortlist.len() as u64,
        settled_items,
        settled_drafts: settled.len() as u64,
        settled_whole,
        carried_items,
        carried_drafts: carried.len() as u64,
        handed,
        deferred_tokens: deferred.iter().map(|d| d.tokens).sum(),
        deferred,
        subagents: if n_batches > 1 { n_batches as u64 } else { 0 },
        over_budget: evidence_tokens > budget,
        evidence_tokens,
        batches: files,
        paths: req.paths.clone(),
        warnings,
    };
    crate::state::write(root, "bill.json", pretty(&bill).as_bytes())?;
    book.save(root)?;
    Ok(bill)
}

/// The opening of batch file `k` of `n` with `items` items.
fn batch_header(k: usize, n: usize, items: usize) -> String {
    format!(
        "# hygiene batch {k} of {n}: {items} items\n\nJudge each item and write \
         `.hygiene/{DRAFTS_DIR}/batch-{k}.json`. `N| text` is line N of the document; a `§` line \
         is the heading path above the lines after it.\n\n"
    )
}

use crate::summary::n;

/// The bill as the skill shows it: the bill line first, then what to do.
pub fn human(b: &Bill) -> String {
    let mut o = String::new();
    let who = match b.subagents {
        0 if b.handed.is_empty() => "no subagent".to_string(),
        0 => "judged here, no subagent".to_string(),
        1 => "1 subagent".to_string(),
        k => format!("{k} subagents"),
    };
    o.push_str(&format!(
        "bill: {} items for the model, ~{} tokens to read, {who} (budget {}{})\n",
        b.handed.len(),
        n(b.evidence_tokens),
        n(b.budget_tokens),
        if b.over_budget {
            "; OVER BUDGET: ask the user first"
        } else {
            ""
        }
    ));
    o.push_str(&format!(
        "settled without the model: {} drafts for {} items ({} need nothing else); carried from earlier runs: {} items\n",
        b.settled_drafts, b.settled_items, b.settled_whole, b.carried_items
    ));
    if !b.deferred.is_empty() {
        o.push_str(&format!(
            "deferred to the next run: {} items (~{} tokens); /hygiene:check again continues with them\n",
            b.deferred.len(),
            n(b.deferred_tokens)
        ));
    }
    for w in &b.warnings {
        o.push_str(&format!("warning: {w}\n"));
    }
    if b.batches.is_empty() {
        o.push_str("nothing for the model: finalize\n");
    }
    for x in &b.batches {
        o.push_str(&format!(
            "{} -> {} ({} items, ~{} tokens)\n",
            x.file,
            x.drafts,
            x.items,
            n(x.tokens)
        ));
    }
    o
}

/// What the summary says about the run that made a report, from `.hygiene/bill.json` beside it
/// when the bill belongs to the same scan.
pub fn bill_for(report: &crate::report::Report, report_path: &Path) -> Option<Bill> {
    let path = report_path.parent()?.join("bill.json");
    let bytes = std::fs::read(path).ok()?;
    let bill: Bill = serde_json::from_slice(&bytes).ok()?;
    (bill.generated_at == report.generated_at).then_some(bill)
}

/// What `hygiene policy` publishes about the bill.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct BillPublished {
    /// The limits.
    pub limits: BillPolicy,
    /// The ranking keys, first first.
    pub ranking: &'static [&'static str],
    /// The misleading weight of each signal kind.
    pub misleading: &'static [Misleading],
    /// What each signal kind shows the model.
    pub evidence: &'static [evidence::EvidenceRule],
    /// What is settled without the model.
    pub settled_without_model: &'static str,
    /// What carries over between runs.
    pub carried_between_runs: &'static str,
}

/// The bill as published.
pub fn published() -> BillPublished {
    BillPublished {
        limits: BILL,
        ranking: RANKING,
        misleading: MISLEADING,
        evidence: evidence::EVIDENCE,
        settled_without_model: SETTLED_RULE,
        carried_between_runs: CARRY_RULE,
    }
}
