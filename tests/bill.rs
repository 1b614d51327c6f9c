//! The model's bill (issue 14): `hygiene triage` settles what needs no judgement, hands the model
//! excerpts instead of documents, keeps a run within the published budget, and a later run
//! continues with what was deferred. Each test reads the limits from `hygiene policy`, so the
//! published numbers are the ones checked.

mod common;

use common::generated::{generate, moved_marker, tail_marker, NOTE_SIGNAL_LINE, NOTE_TODO_LINE};
use common::{git, write};
use serde_json::{json, Value};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_hygiene");

struct Out {
    code: i32,
    stdout: String,
    stderr: String,
}

fn hy(root: &Path, args: &[&str]) -> Out {
    let o = Command::new(BIN)
        .args(args)
        .current_dir(root)
        .output()
        .unwrap();
    Out {
        code: o.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&o.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&o.stderr).into_owned(),
    }
}

fn ok(root: &Path, args: &[&str]) -> String {
    let o = hy(root, args);
    assert_eq!(o.code, 0, "hygiene {args:?}: {}{}", o.stdout, o.stderr);
    o.stdout
}

fn policy() -> Value {
    let o = Command::new(BIN).arg("policy").output().unwrap();
    serde_json::from_slice(&o.stdout).unwrap()
}

fn limit(name: &str) -> u64 {
    policy()["bill"]["limits"][name]
        .as_u64()
        .unwrap_or_else(|| panic!("policy publishes bill.limits.{name}"))
}

fn tmp_repo() -> (tempfile::TempDir, PathBuf) {
    let t = tempfile::tempdir().unwrap();
    let root = t.path().canonicalize().unwrap().join("repo");
    (t, root)
}

/// One `/hygiene:check` up to the model: scan (scoped to `paths`) and triage.
struct Run {
    bill: Value,
    human: String,
    /// (batch file, drafts file, text)
    batches: Vec<(String, String, String)>,
}

fn triage(root: &Path, paths: &[&str], extra: &[&str]) -> Run {
    let mut scan = vec!["scan", "--out", ".hygiene/scan.json"];
    scan.extend(paths);
    ok(root, &scan);
    let mut args = vec!["triage", "--scan", ".hygiene/scan.json"];
    args.extend(paths);
    args.extend(extra);
    let human = ok(root, &args);
    load_run(root, human)
}

/// The bill and batch files triage just wrote.
fn load_run(root: &Path, human: String) -> Run {
    let bill: Value =
        serde_json::from_str(&std::fs::read_to_string(root.join(".hygiene/bill.json")).unwrap())
            .unwrap();
    let batches = bill["batches"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| {
            let f = b["file"].as_str().unwrap().to_string();
            let text = std::fs::read_to_string(root.join(&f)).unwrap();
            (f, b["drafts"].as_str().unwrap().to_string(), text)
        })
        .collect();
    Run {
        bill,
        human,
        batches,
    }
}

/// The items of a batch file (its `item:` lines).
fn items(text: &str) -> Vec<Value> {
    text.lines()
        .filter_map(|l| l.strip_prefix("item: "))
        .map(|j| serde_json::from_str(j).unwrap())
        .collect()
}

fn handed(run: &Run) -> Vec<String> {
    run.bill["handed"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h["path"].as_str().unwrap().to_string())
        .collect()
}

fn deferred(run: &Run) -> Vec<String> {
    run.bill["deferred"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h["path"].as_str().unwrap().to_string())
        .collect()
}

/// The model's part, played as the scripted e2e model plays it: a placeholder line is deleted
/// (a confirm entry), everything else is judged fine (no entry).
fn judge(root: &Path, run: &Run) {
    for (_, drafts, text) in &run.batches {
        let mut entries = Vec::new();
        for it in items(text) {
            for s in it["signals"].as_array().unwrap() {
                if s["kind"] == "provisional-marker" {
                    let line = s["lines"][0].as_u64().unwrap();
                    entries.push(json!({
                        "path": it["path"], "signals": [s],
                        "category": {"class": "stale", "subtype": "provisional"},
                        "op": format!("Delete the placeholder line {line}."),
                        "op_type": "deterministic",
                        "exact_edit": {"kind": "delete-range",
                                       "anchor": {"start_line": line, "end_line": line}}}));
                }
            }
        }
        write(root, drafts, &json!({ "entries": entries }).to_string());
    }
}

fn finalize(root: &Path) -> Value {
    ok(
        root,
        &[
            "finalize",
            "--scan",
            ".hygiene/scan.json",
            "--drafts",
            ".hygiene/drafts",
        ],
    );
    serde_json::from_str(&std::fs::read_to_string(root.join(".hygiene/report.json")).unwrap())
        .unwrap()
}

/// Tokens the model reads for `text` through the Read tool, by the published rule.
fn read_cost(text: &str) -> u64 {
    hygiene::tokens::count(text) + text.lines().count() as u64 * limit("read_tokens_per_line")
}

#[test]
fn objective_items_are_drafted_by_the_helper_exactly_as_accept_suggestions_and_never_handed() {
    let (_t, root) = tmp_repo();
    let g = generate(&root, 6, 5, 0);
    // What the model-free check makes of the same repository.
    ok(&root, &["check", "--accept-suggestions"]);
    let check: Value =
        serde_json::from_str(&std::fs::read_to_string(root.join(".hygiene/report.json")).unwrap())
            .unwrap();
    let run = triage(&root, &[], &[]);
    let settled: Value = serde_json::from_str(
        &std::fs::read_to_string(root.join(".hygiene/drafts/settled.json")).unwrap(),
    )
    .unwrap();
    let strip = |e: &Value| {
        let mut x = e["exact_edit"].clone();
        x.as_object_mut().unwrap().remove("expected_sha256");
        json!([e["path"], e["category"], e["signals"], e["op"], x])
    };
    let want: BTreeSet<String> = check["entries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| strip(e).to_string())
        .collect();
    let got: BTreeSet<String> = settled["entries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| strip(e).to_string())
        .collect();
    assert_eq!(
        got, want,
        "settled drafts differ from check --accept-suggestions"
    );
    assert_eq!(got.len(), g.moved.len());
    assert_eq!(run.bill["settled_whole"], g.moved.len());
    // The model is handed the notes and CLAUDE.md, never a settled document.
    let mut h = handed(&run);
    h.sort();
    let mut want: Vec<String> = g.notes.clone();
    want.push("CLAUDE.md".into());
    want.sort();
    assert_eq!(h, want);
    for (_, _, text) in &run.batches {
        for (j, m) in g.moved.iter().enumerate() {
            assert!(!text.contains(m.as_str()) && !text.contains(&moved_marker(j)));
        }
    }
    // The settled drafts finalize as they are, into auto entries.
    judge(&root, &run);
    let report = finalize(&root);
    for m in &g.moved {
        let e = report["entries"]
            .as_array()
            .unwrap()
            .iter()
            .find(|e| e["path"] == m.as_str())
            .unwrap_or_else(|| panic!("no entry for {m}"));
        assert_eq!(e["safety_tier"], "auto");
    }
}

#[test]
fn each_item_is_handed_as_an_excerpt_under_its_heading_path() {
    let (_t, root) = tmp_repo();
    let g = generate(&root, 3, 0, 0);
    let run = triage(&root, &[], &[]);
    let c = limit("context_lines") as u32;
    assert_eq!(run.batches.len(), 1);
    let text = &run.batches[0].2;
    let section = text
        .split("\n## ")
        .find(|s| s.contains(&format!("{}\n", g.notes[0])))
        .unwrap();
    let shown: Vec<u32> = section
        .lines()
        .filter_map(|l| l.split_once("| ").and_then(|(n, _)| n.parse().ok()))
        .collect();
    let want: Vec<u32> = (NOTE_SIGNAL_LINE - c..=NOTE_SIGNAL_LINE + c).collect();
    assert_eq!(shown, want, "{section}");
    // The window opens on the `## Details` heading, so the path above it is the title.
    assert!(section.contains("§ # Note 0\n9| ## Details\n"), "{section}");
    assert!(
        section.contains("`../../src/gone/n0000.rs`: no file named `n0000.rs` in the repository"),
        "{section}"
    );
    for (i, _) in g.notes.iter().enumerate() {
        assert!(
            !text.contains(&tail_marker(i)),
            "a whole document was handed"
        );
    }
}

#[test]
fn a_default_run_stays_within_the_budget_and_the_next_run_continues_with_the_rest() {
    let (_t, root) = tmp_repo();
    let g = generate(&root, 60, 3, 4);
    let budget = 3_000u64;
    let budget_s = budget.to_string();
    let batch_tokens = limit("batch_tokens");
    let mut judged: Vec<String> = Vec::new();
    let mut previous_deferred: Option<Vec<String>> = None;
    let mut runs = 0;
    loop {
        runs += 1;
        assert!(runs < 20, "the runs never finish");
        let run = triage(&root, &[], &["--budget", &budget_s]);
        let cost: u64 = run.batches.iter().map(|b| read_cost(&b.2)).sum();
        assert!(cost <= budget, "run {runs} hands {cost} tokens > {budget}");
        assert_eq!(run.bill["evidence_tokens"], cost);
        for b in &run.batches {
            assert!(
                read_cost(&b.2) <= batch_tokens || items(&b.2).len() == 1,
                "{} is over the batch size",
                b.0
            );
        }
        let h = handed(&run);
        // The next run takes up exactly where the previous one stopped, in rank order.
        if let Some(prev) = &previous_deferred {
            assert_eq!(h[..], prev[..h.len()], "run {runs} did not continue");
        }
        assert!(
            h.iter().all(|p| !judged.contains(p)),
            "run {runs} re-hands a judged item"
        );
        assert_eq!(run.bill["carried_items"], judged.len(), "run {runs}");
        judged.extend(h);
        judge(&root, &run);
        let report = finalize(&root);
        // Every placeholder judged so far (this run or carried) has its entry.
        let deletes: BTreeSet<&str> = report["entries"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|e| e["exact_edit"]["kind"] == "delete-range")
            .map(|e| e["path"].as_str().unwrap())
            .collect();
        let want: BTreeSet<&str> = g
            .todos
            .iter()
            .filter(|t| judged.contains(t))
            .map(String::as_str)
            .collect();
        assert_eq!(deletes, want, "run {runs}");
        // Each carried delete still names the placeholder line the note has.
        for e in report["entries"].as_array().unwrap() {
            if e["exact_edit"]["kind"] == "delete-range" {
                assert_eq!(e["exact_edit"]["anchor"]["start_line"], NOTE_TODO_LINE);
            }
        }
        let summary = ok(&root, &["summary"]);
        let d = deferred(&run);
        if d.is_empty() {
            assert!(summary.contains("Nothing deferred"), "{summary}");
            break;
        }
        assert!(
            summary.contains(&format!("Deferred: {} items", d.len()))
                && summary.contains("/hygiene:check again"),
            "{summary}"
        );
        assert!(run.human.starts_with("bill: "), "{}", run.human);
        previous_deferred = Some(d);
    }
    assert!(runs >= 3, "the budget should have cut the work into runs");
    let mut all: Vec<String> = g.notes.clone();
    all.push("CLAUDE.md".into());
    all.sort();
    judged.sort();
    assert_eq!(
        judged, all,
        "every item is judged exactly once over the runs"
    );
}

#[test]
fn named_paths_are_judged_whole_and_over_the_budget_the_bill_says_so() {
    let (_t, root) = tmp_repo();
    let g = generate(&root, 30, 0, 0);
    let run = triage(&root, &["docs/notes"], &["--budget", "1000"]);
    assert_eq!(handed(&run).len(), g.notes.len());
    assert!(deferred(&run).is_empty());
    assert_eq!(run.bill["over_budget"], true);
    assert!(
        run.human.lines().next().unwrap().contains("OVER BUDGET"),
        "{}",
        run.human
    );
    // Within the budget nothing says so.
    let run = triage(&root, &[], &[]);
    assert_eq!(run.bill["over_budget"], false);
    assert!(!run.human.contains("OVER BUDGET"));
}

#[test]
fn a_changed_document_is_handed_again_and_the_rest_carried() {
    let (_t, root) = tmp_repo();
    let g = generate(&root, 12, 0, 3);
    let run = triage(&root, &[], &[]);
    judge(&root, &run);
    finalize(&root);
    let edited = &g.notes[5];
    let text = std::fs::read_to_string(root.join(edited)).unwrap();
    write(&root, edited, &format!("{text}One more line.\n"));
    git(&root, &["commit", "-qam", "edit"]);
    let run = triage(&root, &[], &[]);
    assert_eq!(handed(&run), vec![edited.clone()]);
    assert_eq!(run.bill["carried_items"], g.notes.len()); // 11 notes and CLAUDE.md
    judge(&root, &run);
    let report = finalize(&root);
    let deletes = report["entries"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["exact_edit"]["kind"] == "delete-range")
        .count();
    assert_eq!(deletes, g.todos.len(), "carried drafts reach the report");
}

#[test]
fn a_run_not_finalized_hands_its_items_again() {
    let (_t, root) = tmp_repo();
    generate(&root, 8, 0, 0);
    let first = triage(&root, &[], &[]);
    // The model never finished: no report for this scan.
    let second = triage(&root, &[], &[]);
    assert_eq!(handed(&second), handed(&first));
    assert_eq!(second.bill["carried_items"], 0);
}

#[test]
fn unreadable_state_is_a_warning_and_a_fresh_start() {
    let (_t, root) = tmp_repo();
    generate(&root, 4, 0, 0);
    let run = triage(&root, &[], &[]);
    judge(&root, &run);
    finalize(&root);
    // A lost ledger is rebuilt from the last finalized run's bill and report.
    write(&root, ".hygiene/judged.json", "{not json");
    let run = triage(&root, &[], &[]);
    assert!(
        run.human.contains("warning: .hygiene/judged.json"),
        "{}",
        run.human
    );
    assert_eq!(run.bill["carried_items"], 5);
    // Once that run's bill replaced the finalized one, a lost ledger forgets: all is handed.
    write(&root, ".hygiene/judged.json", "{not json");
    let run = triage(&root, &[], &[]);
    assert!(
        run.human.contains("warning: .hygiene/judged.json"),
        "{}",
        run.human
    );
    assert_eq!(handed(&run).len(), 5);
    write(&root, ".hygiene/bill.json", "[]");
    let run = triage(&root, &[], &[]);
    assert!(
        run.human.contains("warning: .hygiene/bill.json"),
        "{}",
        run.human
    );
}

#[test]
fn triage_refuses_a_scan_of_another_root_and_garbage() {
    let (_t, root) = tmp_repo();
    generate(&root, 2, 0, 0);
    let (_u, other) = tmp_repo();
    generate(&other, 2, 0, 0);
    ok(&other, &["scan", "--out", ".hygiene/scan.json"]);
    let scan = other.join(".hygiene/scan.json");
    let o = hy(&root, &["triage", "--scan", scan.to_str().unwrap()]);
    assert_eq!(o.code, 2, "{}", o.stderr);
    assert!(o.stderr.contains("scan this root again"), "{}", o.stderr);
    write(&root, "garbage.json", "[1, 2");
    let o = hy(&root, &["triage", "--scan", "garbage.json"]);
    assert_eq!(o.code, 2);
    assert!(o.stderr.contains("garbage.json"), "{}", o.stderr);
    assert!(!o.stderr.contains("panicked"));
}

#[test]
fn batches_keep_each_document_whole_and_within_the_batch_size() {
    let (_t, root) = tmp_repo();
    let g = generate(&root, 90, 0, 0);
    let run = triage(&root, &[], &["--all"]);
    let batch_tokens = limit("batch_tokens");
    assert!(run.batches.len() > 1);
    let mut seen = Vec::new();
    for (f, _, text) in &run.batches {
        assert!(read_cost(text) <= batch_tokens, "{f}");
        seen.extend(
            items(text)
                .iter()
                .map(|i| i["path"].as_str().unwrap().to_string()),
        );
    }
    let mut want = g.notes.clone();
    want.push("CLAUDE.md".into());
    seen.sort();
    want.sort();
    assert_eq!(seen, want, "each item in exactly one batch");
    assert_eq!(run.bill["subagents"], run.batches.len());
}

#[test]
fn the_document_loaded_every_session_is_handed_first() {
    let (_t, root) = tmp_repo();
    generate(&root, 20, 0, 0);
    let run = triage(&root, &[], &["--budget", "300"]);
    assert_eq!(handed(&run), vec!["CLAUDE.md".to_string()]);
}

#[test]
fn a_hostile_scan_cannot_make_triage_read_outside_the_root() {
    let (t, root) = tmp_repo();
    generate(&root, 2, 0, 0);
    std::fs::write(t.path().join("outside.md"), "# Secret\n\nSECRETMARK\n").unwrap();
    ok(&root, &["scan", "--out", ".hygiene/scan.json"]);
    let path = root.join(".hygiene/scan.json");
    let mut scan: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    for p in ["../outside.md", "/etc/hostname", "docs/../../outside.md"] {
        scan["shortlist"].as_array_mut().unwrap().push(json!({
            "path": p, "raw_tokens": 5, "injection_frequency": "per-session",
            "signals": [{"kind": "missing-path", "line": 3, "ref": "x.md", "via": "link"},
                        {"kind": "lifecycle"}]}));
    }
    std::fs::write(&path, scan.to_string()).unwrap();
    let run = triage_only(&root);
    for (f, _, text) in &run.batches {
        assert!(
            !text.contains("SECRETMARK"),
            "{f} holds a file outside the root"
        );
    }
    assert!(run
        .batches
        .iter()
        .any(|b| b.2.contains("not a path inside the repository")));
}

/// Triage on the scan already written (no new scan).
fn triage_only(root: &Path) -> Run {
    let human = ok(root, &["triage", "--scan", ".hygiene/scan.json"]);
    load_run(root, human)
}

/// A repository whose `files` are committed, then changed by `change(i)` in three more commits
/// (enough for a drift of the documents among them, which last changed in the first).
fn drifted_repo(
    files: &[(&str, &str)],
    change: impl Fn(usize) -> Vec<(&'static str, String)>,
) -> (tempfile::TempDir, PathBuf) {
    let (t, root) = tmp_repo();
    std::fs::create_dir_all(&root).unwrap();
    git(&root, &["init", "-q"]);
    for (path, text) in files {
        write(&root, path, text);
    }
    git(&root, &["add", "-A"]);
    git(&root, &["commit", "-qm", "start"]);
    for i in 0..3 {
        for (path, text) in change(i) {
            write(&root, path, &text);
        }
        git(&root, &["add", "-A"]);
        git(&root, &["commit", "-qm", &format!("change {i}")]);
    }
    (t, root)
}

/// A drift's evidence, which its signal cannot carry, is handed with it: the names of the
/// document's code that the described file held at the document's commit and no longer holds.
/// Without it the model reads the file's history to find what changed.
#[test]
fn a_drift_is_handed_with_what_its_files_lost() {
    let (_t, root) = drifted_repo(
        &[
            ("src/config.rs", "pub fn load_config() {}\npub fn save_config() {}\n"),
            (
                "docs/config.md",
                "# Config\n\n`src/config.rs` loads it with `load_config()` and writes it with `save_config()`.\n",
            ),
        ],
        |i| {
            vec![(
                "src/config.rs",
                format!("pub fn read_config() {{}}\npub fn save_config() {{}}\n// {i}\n"),
            )]
        },
    );
    let run = triage(&root, &["docs/config.md"], &[]);
    let text = &run.batches[0].2;
    assert!(text.contains("\"kind\":\"drift\""), "{text}");
    assert!(
        text.contains("`load_config` left `src/config.rs`"),
        "the hint names the gone function: {text}"
    );
    assert!(!text.contains("`save_config` left"), "{text}");
}

/// The hint is the scan's own evidence: the files it found as described, however the
/// document names them (`src/config.rs:2` with a line, a bare `settings.toml`), not a second
/// reading of the document's links that finds fewer (a quarter of the drifts on public
/// repositories came without a hint that way).
#[test]
fn a_drift_hint_is_the_evidence_the_scan_found() {
    let (_t, root) = drifted_repo(
        &[
            ("src/config.rs", "fn a() {}\npub fn load_config() {}\n"),
            ("settings.toml", "retry_limit = 3\n"),
            (
                "docs/config.md",
                "# Config\n\n`src/config.rs:2` defines `load_config()`; `settings.toml` sets `retry_limit`.\n",
            ),
        ],
        |i| {
            vec![
                (
                    "src/config.rs",
                    format!("fn a() {{}}\npub fn read_config() {{}}\n// {i}\n"),
                ),
                ("settings.toml", format!("max_retries = 3\n# {i}\n")),
            ]
        },
    );
    let run = triage(&root, &["docs/config.md"], &[]);
    let text = &run.batches[0].2;
    assert!(text.contains("\"kind\":\"drift\""), "{text}");
    assert!(
        text.contains("`load_config` left `src/config.rs`"),
        "a path with a line: {text}"
    );
    assert!(
        text.contains("`retry_limit` left `settings.toml`"),
        "a bare file name: {text}"
    );
}

/// Each name a drift's files lost comes with where else it is now, documents aside: a name gone
/// from the code (the document is wrong about it) reads apart from one that moved to another
/// file (the document may only have named the wrong file, or none). Without it the model
/// searches the repository for every name.
#[test]
fn a_drift_says_where_each_lost_name_went() {
    // `parse_flags` moves into `src/io/flags.rs`; `load_config` leaves the code for good.
    let (_t, root) = drifted_repo(
        &[
            (
                "src/config.rs",
                "pub fn load_config() {}\npub fn parse_flags() {}\n",
            ),
            ("src/io/mod.rs", "pub fn keep() {}\n"),
            (
                "docs/config.md",
                "# Config\n\n`src/config.rs` has `load_config()` and `parse_flags()`.\n",
            ),
            (
                "docs/other.md",
                "`parse_flags` and `load_config` are old.\n",
            ),
        ],
        |i| {
            vec![
                ("src/io/flags.rs", "pub fn parse_flags() {}\n".to_string()),
                (
                    "src/config.rs",
                    format!("pub fn read_config() {{}}\n// {i}\n"),
                ),
            ]
        },
    );
    let run = triage(&root, &["docs/config.md"], &[]);
    let text = &run.batches[0].2;
    assert!(
        text.contains("`load_config` left `src/config.rs` (in no other file but documents)"),
        "a name gone from the code says so, whatever other documents hold: {text}"
    );
    assert!(
        text.contains("`parse_flags` left `src/config.rs` (still in `src/io/flags.rs`)"),
        "a moved name says where it went: {text}"
    );
}
