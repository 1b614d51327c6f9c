//! Finalize and summary on a real git repository: every derived field is checked against a value
//! the test computes itself (sha256 with `sha2`, token counts with `bpe-openai`, tiers from the
//! spec's table), and bad drafts are refused with the entry and rule named.

mod common;
use common::{git, sha256_hex, write};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::process::Command;

fn sha(root: &Path, rel: &str) -> String {
    sha256_hex(&std::fs::read(root.join(rel)).unwrap())
}

fn tokens(s: &str) -> u64 {
    bpe_openai::cl100k_base().count(s) as u64
}

fn lines(root: &Path, rel: &str, a: usize, b: usize) -> String {
    let text = std::fs::read_to_string(root.join(rel)).unwrap();
    text.lines()
        .skip(a - 1)
        .take(b - a + 1)
        .collect::<Vec<_>>()
        .join("\n")
}

const DUP: &str = "Run `make setup` once, then `make test` before every push.\nThe CI mirrors these two targets exactly.";

struct Repo {
    _dir: tempfile::TempDir,
    root: PathBuf,
}

fn repo() -> Repo {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    git(&root, &["init", "-q", "-b", "main"]);
    git(&root, &["config", "user.email", "t@example.com"]);
    git(&root, &["config", "user.name", "t"]);
    write(
        &root,
        "CLAUDE.md",
        &format!("# Project\n\nBuild with cargo.\nConfig lives in `src/old.rs`.\n\n{DUP}\n"),
    );
    write(&root, "src/new.rs", "pub fn load() {}\n");
    write(&root, "README.md", &format!("# Readme\n\n{DUP}\n"));
    write(
        &root,
        "docs/CLAUDE.md",
        &format!("# Setup\n\n{DUP}\n\nMore text.\n"),
    );
    write(
        &root,
        "docs/history.md",
        "# History\n\nStatus: resolved\n\nWe fought the cache for weeks.\nIt was DNS.\n",
    );
    write(
        &root,
        "docs/plans/x.md",
        "---\nserved_when_path: docs/plans/x.done\n---\n# Plan X\n\n- [x] a\n- [x] b\n- [x] c\n",
    );
    write(&root, "docs/plans/x.done", "");
    write(
        &root,
        "docs/plans/y.md",
        "# Plan Y\n\n## Decisions\n\nUse tokio.\n\n## Steps\n\nDo it.\n",
    );
    write(&root, "docs/decisions.md", "# Decisions\n");
    git(&root, &["add", "-A"]);
    git(&root, &["commit", "-qm", "init"]);
    Repo { _dir: dir, root }
}

/// The shipped plans rule's question, read from the rulebook file itself: a hand-written scan
/// must say what the live rulebook says, or finalize refuses its lifecycle objects.
fn plans_question() -> String {
    let book: Value = serde_json::from_str(
        &std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/rulebook.default.json"
        ))
        .unwrap(),
    )
    .unwrap();
    book["rules"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["id"] == "plans")
        .unwrap()["served_when"]
        .as_str()
        .unwrap()
        .to_string()
}

fn scan(root: &Path) -> Value {
    let proven = json!({"rule_ref": "plans", "lifetime": "delete-once-served", "served_when_path": "docs/plans/x.done"});
    let judged = json!({"rule_ref": "plans", "lifetime": "delete-once-served", "served_when": plans_question()});
    json!({
        "schema_version": 1, "tool_version": "0.1.0", "generated_at": "2099-01-01T00:00:00Z",
        "scan": {"project_root": root.display().to_string(), "scope_globs": ["**/*.md"], "excluded_dirs": ["target"], "files_scanned": 7},
        "shortlist": [
            {"path": "CLAUDE.md", "signals": [{"kind": "missing-path", "line": 4, "ref": "src/old.rs", "via": "code", "renamed_to": "src/new.rs"}],
             "raw_tokens": 20, "injection_frequency": "per-session"},
            {"path": "docs/CLAUDE.md", "signals": [{"kind": "duplicate-block", "start_line": 3, "end_line": 4, "canonical_ref": "CLAUDE.md:6-7"}],
             "raw_tokens": 30, "injection_frequency": "on-demand"},
            {"path": "docs/history.md", "signals": [{"kind": "status-done", "line": 3, "text": "Status: resolved"}],
             "raw_tokens": 25, "injection_frequency": "on-demand"},
            {"path": "docs/plans/x.md", "signals": [{"kind": "lifecycle"}, {"kind": "checklist-complete", "checked": 3}],
             "lifecycle": proven, "raw_tokens": 30, "injection_frequency": "on-demand"},
            {"path": "docs/plans/y.md", "signals": [{"kind": "lifecycle"}],
             "lifecycle": judged, "raw_tokens": 30, "injection_frequency": "on-demand"}
        ]
    })
}

fn drafts() -> Value {
    json!({"entries": [
        {"path": "CLAUDE.md", "category": {"class": "stale", "subtype": "orphaned"},
         "signals": [{"kind": "missing-path", "line": 4, "ref": "src/old.rs", "via": "code", "renamed_to": "src/new.rs"}],
         "op": "Point the config reference at src/new.rs.", "op_type": "deterministic",
         "exact_edit": {"kind": "replace-text", "anchor": {"start_line": 4, "end_line": 4}, "match": "src/old.rs", "replacement": "src/new.rs"}},
        {"path": "docs/CLAUDE.md", "category": {"class": "stale", "subtype": "duplicated"},
         "signals": [{"kind": "duplicate-block", "start_line": 3, "end_line": 4, "canonical_ref": "CLAUDE.md:6-7"}],
         "op": "Remove the setup steps repeated from CLAUDE.md.", "op_type": "deterministic",
         "exact_edit": {"kind": "dedupe", "anchor": {"start_line": 3, "end_line": 4}, "canonical_ref": "CLAUDE.md:6-7"}},
        {"path": "docs/history.md", "category": {"class": "bloat", "subtype": "distill"},
         "signals": [{"kind": "status-done", "line": 3, "text": "Status: resolved"}],
         "op": "Condense the narrative to its lesson.", "op_type": "generative",
         "is_destructive": true, "is_reversible": true},
        {"path": "docs/history.md", "category": {"class": "bloat", "subtype": "freeze"},
         "signals": [{"kind": "status-done", "line": 3, "text": "Status: resolved"}],
         "op": "Freeze the resolved record.", "op_type": "deterministic",
         "exact_edit": {"kind": "insert-frontmatter", "key": "hygiene", "value": "frozen"}},
        {"path": "docs/plans/x.md", "category": {"class": "stale", "subtype": "completed-in-place"},
         "signals": [{"kind": "lifecycle"}], "op": "Delete the finished plan.", "op_type": "deterministic",
         "lifecycle": {"rule_ref": "plans", "lifetime": "delete-once-served", "served_when_path": "docs/plans/x.done"},
         "exact_edit": {"kind": "delete", "anchor": {"whole": "file"}}},
        {"path": "docs/plans/y.md", "category": {"class": "stale", "subtype": "completed-in-place"},
         "signals": [{"kind": "lifecycle"}], "op": "Keep the decisions, delete the plan.", "op_type": "deterministic",
         "exact_edit": {"kind": "extract-then-delete", "anchor": {"start_line": 3, "end_line": 6},
                        "extraction_target": "repo-durable", "target_path": "docs/decisions.md",
                        "lifecycle": {"rule_ref": "plans", "lifetime": "delete-once-served", "served_when": plans_question()}}}
    ]})
}

fn hygiene(root: &Path, args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_hygiene"))
        .args(args)
        .current_dir(root)
        .output()
        .unwrap()
}

fn finalize(r: &Repo, scan_v: &Value, drafts_v: &Value) -> (std::process::Output, PathBuf) {
    let work = r.root.join(".hygiene");
    std::fs::create_dir_all(work.join("drafts")).unwrap();
    std::fs::write(work.join("scan.json"), scan_v.to_string()).unwrap();
    std::fs::write(work.join("drafts/a.json"), drafts_v.to_string()).unwrap();
    let out = hygiene(
        &r.root,
        &[
            "finalize",
            "--scan",
            ".hygiene/scan.json",
            "--drafts",
            ".hygiene/drafts",
        ],
    );
    (out, work.join("report.json"))
}

fn spec_tier(
    deterministic: bool,
    destructive: bool,
    reversible: bool,
    lifecycle: Option<(bool, bool)>,
) -> &'static str {
    // lifecycle = Some((scanner_proven, tracked_and_clean))
    let auto = deterministic
        && match lifecycle {
            None => !destructive && reversible,
            Some((proven, git_ok)) => proven && git_ok,
        };
    if auto {
        "auto"
    } else {
        "confirm"
    }
}

#[test]
fn derived_fields_equal_independent_computation() {
    let r = repo();
    let (out, report_path) = finalize(&r, &scan(&r.root), &drafts());
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report: Value = serde_json::from_slice(&std::fs::read(&report_path).unwrap()).unwrap();
    let v = hygiene(&r.root, &["validate", report_path.to_str().unwrap()]);
    assert_eq!(
        v.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&v.stdout)
    );
    assert_eq!(
        report["generated_at"], "2099-01-01T00:00:00Z",
        "carried from the scan"
    );
    let e = report["entries"].as_array().unwrap();
    assert_eq!(e.len(), 6);

    // replace-text: the line's tokens minus the tokens after the swap
    let line = lines(&r.root, "CLAUDE.md", 4, 4);
    assert_eq!(
        e[0]["exact_edit"]["expected_sha256"],
        sha(&r.root, "CLAUDE.md")
    );
    let saved = tokens(&line).saturating_sub(tokens(&line.replacen("src/old.rs", "src/new.rs", 1)));
    assert_eq!(e[0]["token_estimate"]["raw_tokens"], saved);
    assert_eq!(e[0]["token_estimate"]["injection_frequency"], "per-session");
    assert_eq!(
        (
            e[0]["is_destructive"].as_bool(),
            e[0]["is_reversible"].as_bool()
        ),
        (Some(false), Some(true))
    );
    assert_eq!(e[0]["safety_tier"], spec_tier(true, false, true, None));

    // dedupe: the duplicate span's tokens; auto
    assert_eq!(
        e[1]["exact_edit"]["expected_sha256"],
        sha(&r.root, "docs/CLAUDE.md")
    );
    assert_eq!(
        e[1]["token_estimate"]["raw_tokens"],
        tokens(&lines(&r.root, "docs/CLAUDE.md", 3, 4))
    );
    assert_eq!(
        e[1]["token_estimate"]["weighted_tokens"],
        e[1]["token_estimate"]["raw_tokens"]
    );
    assert_eq!(e[1]["safety_tier"], "auto");

    // generative: the whole file; the model's characterization kept; never auto
    let history = std::fs::read_to_string(r.root.join("docs/history.md")).unwrap();
    assert_eq!(e[2]["token_estimate"]["raw_tokens"], tokens(&history));
    assert!(e[2].get("exact_edit").is_none());
    assert_eq!(e[2]["safety_tier"], "confirm");

    // insert-frontmatter: saves nothing now; auto
    assert_eq!(e[3]["token_estimate"]["raw_tokens"], 0);
    assert_eq!(e[3]["safety_tier"], "auto");

    // lifecycle delete, scanner-proven, tracked and clean: auto, whole file's tokens
    let plan = std::fs::read_to_string(r.root.join("docs/plans/x.md")).unwrap();
    assert_eq!(e[4]["token_estimate"]["raw_tokens"], tokens(&plan));
    assert_eq!(
        e[4]["exact_edit"]["lifecycle"]["served_when_path"], "docs/plans/x.done",
        "copied from the item"
    );
    assert_eq!(e[4]["is_reversible"], true);
    assert_eq!(
        e[4]["safety_tier"],
        spec_tier(true, true, true, Some((true, true)))
    );

    // extract-then-delete, classifier-judged: confirm although tracked and clean
    let y = std::fs::read_to_string(r.root.join("docs/plans/y.md")).unwrap();
    let kept = lines(&r.root, "docs/plans/y.md", 3, 6);
    assert_eq!(
        e[5]["token_estimate"]["raw_tokens"],
        tokens(&y) - tokens(&kept)
    );
    assert_eq!(
        e[5]["safety_tier"],
        spec_tier(true, true, true, Some((false, true)))
    );
    assert_eq!(e[5]["lifecycle"]["served_when"], plans_question().as_str());

    // promotion candidates: exactly the judged entry, with the plans convention
    let pc = report["promotion_candidates"].as_array().unwrap();
    assert_eq!(pc.len(), 1, "{pc:?}");
    assert_eq!(pc[0]["path"], "docs/plans/y.md");
    assert_eq!(pc[0]["convention"], "plan-done-marker");
    assert!(!pc[0]["pitch"].as_str().unwrap().is_empty());
}

#[test]
fn lifecycle_tier_follows_live_git_state() {
    let r = repo();
    // The proven plan edited in the work tree (its marker line kept): dirty, so confirm and not
    // reversible.
    write(
        &r.root,
        "docs/plans/x.md",
        "---\nserved_when_path: docs/plans/x.done\n---\n# Plan X, edited\n",
    );
    let (out, report_path) = finalize(&r, &scan(&r.root), &drafts());
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report: Value = serde_json::from_slice(&std::fs::read(&report_path).unwrap()).unwrap();
    let e = &report["entries"][4];
    assert_eq!(e["is_reversible"], false);
    assert_eq!(e["safety_tier"], "confirm");
    assert_eq!(
        e["exact_edit"]["expected_sha256"],
        sha(&r.root, "docs/plans/x.md"),
        "fingerprint of the file as it is now"
    );
}

#[test]
fn promotion_candidates_are_exactly_the_judged_unadopted_entries() {
    let r = repo();
    write(
        &r.root,
        ".hygiene/conventions.json",
        r#"{"adopted": ["plan-done-marker"]}"#,
    );
    let (out, report_path) = finalize(&r, &scan(&r.root), &drafts());
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = std::fs::read_to_string(&report_path).unwrap();
    let report: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(report["promotion_candidates"], json!([]));
    assert!(
        text.contains("\"promotion_candidates\": []"),
        "written, not omitted"
    );
}

#[track_caller]
fn refused(mutate: impl FnOnce(&mut Value), entry: usize, rule: &str) {
    let r = repo();
    let mut d = drafts();
    mutate(&mut d);
    let (out, report_path) = finalize(&r, &scan(&r.root), &d);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(!report_path.exists(), "no report is written");
    assert!(
        err.lines()
            .any(|l| l.contains(&format!("a.json entry {entry}:"))
                && l.contains(&format!("[{rule}]"))),
        "expected entry {entry} rule {rule} in:\n{err}"
    );
}

#[test]
fn bad_drafts_are_refused_naming_entry_and_rule() {
    // a characterization that contradicts the kind table
    refused(
        |d| d["entries"][1]["is_destructive"] = json!(true),
        1,
        "kind-characterization",
    );
    // an anchor outside the file
    refused(
        |d| d["entries"][0]["exact_edit"]["anchor"] = json!({"start_line": 40, "end_line": 41}),
        0,
        "anchor-inside-file",
    );
    // a path not in the shortlist
    refused(
        |d| d["entries"][0]["path"] = json!("README.md"),
        0,
        "entry-in-shortlist",
    );
    // a dedupe of text that is not a copy
    refused(
        |d| d["entries"][1]["exact_edit"]["anchor"] = json!({"start_line": 1, "end_line": 2}),
        1,
        "dedupe-identical",
    );
    // a replace-text that deletes instead of swapping
    refused(
        |d| d["entries"][0]["exact_edit"]["replacement"] = json!(""),
        0,
        "replace-text-swaps",
    );
    // replace-text whose match is not in the anchor
    refused(
        |d| d["entries"][0]["exact_edit"]["match"] = json!("src/absent.rs"),
        0,
        "replace-text-match",
    );
    // forged lifecycle evidence
    refused(
        |d| d["entries"][5]["exact_edit"]["lifecycle"] = json!({"rule_ref": "plans", "lifetime": "delete-once-served", "served_when_path": "docs/plans/x.done"}),
        5,
        "lifecycle-from-shortlist",
    );
    // signals the scanner never reported
    refused(
        |d| d["entries"][0]["signals"] = json!([{"kind": "checklist-complete", "checked": 9}]),
        0,
        "entry-signals-from-shortlist",
    );
    // a delete with no governing rule
    refused(
        |d| d["entries"][0]["exact_edit"] = json!({"kind": "delete", "anchor": {"whole": "file"}}),
        0,
        "lifecycle-from-shortlist",
    );
}

#[test]
fn draft_shape_errors_name_the_file_and_fields() {
    for (mutate, needle) in [
        (json!({"class": "stale", "subtype": "obsolete"}), "obsolete"),
        (json!({"class": "meh", "subtype": "orphaned"}), "meh"),
    ] {
        let r = repo();
        let mut d = drafts();
        d["entries"][0]["category"] = mutate;
        let (out, report_path) = finalize(&r, &scan(&r.root), &d);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1));
        assert!(!report_path.exists());
        assert!(
            err.contains("a.json") && err.contains(needle) && err.contains("[draft-shape]"),
            "{err}"
        );
    }
    let r = repo();
    let mut d = drafts();
    d["entries"][0]["safety_tier"] = json!("auto");
    let (out, _) = finalize(&r, &scan(&r.root), &d);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1));
    assert!(err.contains("derived by finalize"), "{err}");
}

#[test]
fn summary_keeps_the_two_totals_apart_and_equals_the_entries() {
    let r = repo();
    let (out, report_path) = finalize(&r, &scan(&r.root), &drafts());
    assert_eq!(out.status.code(), Some(0));
    let report: Value = serde_json::from_slice(&std::fs::read(&report_path).unwrap()).unwrap();
    let s = hygiene(&r.root, &["summary", "--format", "json"]);
    assert_eq!(
        s.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&s.stderr)
    );
    let s: Value = serde_json::from_slice(&s.stdout).unwrap();
    let (mut per, mut od) = (0, 0);
    for e in report["entries"].as_array().unwrap() {
        let w = e["token_estimate"]["weighted_tokens"].as_u64().unwrap();
        match e["token_estimate"]["injection_frequency"].as_str().unwrap() {
            "per-session" => per += w,
            _ => od += w,
        }
    }
    assert_eq!(s["total"]["per_session"], per);
    assert_eq!(s["total"]["on_demand_max"], od);
    assert!(per > 0 && od > 0, "both totals are exercised");
    let cat_sum: u64 = s["by_category"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["tokens"]["per_session"].as_u64().unwrap())
        .sum();
    assert_eq!(cat_sum, per);
    let tier_sum: u64 = s["by_tier"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["entries"].as_u64().unwrap())
        .sum();
    assert_eq!(tier_sum, 6);
    assert_eq!(s["shortlisted"], 5);
    assert_eq!(s["cleared"], 0);
    let human = hygiene(&r.root, &["summary"]);
    let text = String::from_utf8_lossy(&human.stdout);
    assert!(
        text.contains("Saved in every session") && text.contains("On-demand maximum"),
        "{text}"
    );
    assert!(text.lines().count() <= 40, "fits on one screen");
}

/// scan → hand-written drafts → finalize → validate, on a repository with history.
#[test]
fn scan_drafts_finalize_validate_pipeline() {
    let r = repo();
    // history: a rename the scanner must follow, and a served plan
    git(&r.root, &["mv", "src/new.rs", "src/settings.rs"]);
    write(
        &r.root,
        "CLAUDE.md",
        &format!("# Project\n\nBuild with cargo.\nConfig lives in `src/new.rs`.\n\n{DUP}\n"),
    );
    git(&r.root, &["add", "-A"]);
    git(&r.root, &["commit", "-qm", "rename"]);
    let out = hygiene(&r.root, &["scan", "--out", ".hygiene/scan.json"]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let scan: Value =
        serde_json::from_slice(&std::fs::read(r.root.join(".hygiene/scan.json")).unwrap()).unwrap();
    let items = scan["shortlist"].as_array().unwrap();
    let item = |p: &str| {
        items
            .iter()
            .find(|i| i["path"] == p)
            .unwrap_or_else(|| panic!("{p} not shortlisted: {scan:#}"))
    };

    // The model's part: copy the suggestions it agrees with, judge one plan.
    let mut entries = Vec::new();
    for path in ["CLAUDE.md", "docs/CLAUDE.md", "docs/plans/x.md"] {
        let it = item(path);
        let s = &it["suggestions"][0];
        let mut e = json!({"path": path, "category": s["category"], "signals": it["signals"],
                           "op": s["op"], "op_type": "deterministic", "exact_edit": s["exact_edit"]});
        if let Some(lc) = it.get("lifecycle") {
            e["lifecycle"] = lc.clone();
        }
        entries.push(e);
    }
    std::fs::create_dir_all(r.root.join(".hygiene/drafts")).unwrap();
    std::fs::write(
        r.root.join(".hygiene/drafts/main.json"),
        json!({"entries": entries}).to_string(),
    )
    .unwrap();
    let out = hygiene(
        &r.root,
        &[
            "finalize",
            "--scan",
            ".hygiene/scan.json",
            "--drafts",
            ".hygiene/drafts",
        ],
    );
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v = hygiene(&r.root, &["validate", ".hygiene/report.json"]);
    assert_eq!(
        v.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&v.stdout)
    );
    let report: Value =
        serde_json::from_slice(&std::fs::read(r.root.join(".hygiene/report.json")).unwrap())
            .unwrap();
    let e = report["entries"].as_array().unwrap();
    assert_eq!(report["generated_at"], scan["generated_at"]);
    // the rename became a replace-text to the file git says it moved to
    assert_eq!(e[0]["exact_edit"]["kind"], "replace-text");
    assert_eq!(e[0]["exact_edit"]["replacement"], "src/settings.rs");
    for (i, path) in ["CLAUDE.md", "docs/CLAUDE.md", "docs/plans/x.md"]
        .iter()
        .enumerate()
    {
        assert_eq!(
            e[i]["exact_edit"]["expected_sha256"],
            sha(&r.root, path),
            "{path}"
        );
        assert_eq!(
            e[i]["safety_tier"], "auto",
            "{path}: objective, tracked and clean"
        );
    }
    let dup = &e[1]["exact_edit"]["anchor"];
    let (a, b) = (
        dup["start_line"].as_u64().unwrap() as usize,
        dup["end_line"].as_u64().unwrap() as usize,
    );
    assert_eq!(
        e[1]["token_estimate"]["raw_tokens"],
        tokens(&lines(&r.root, "docs/CLAUDE.md", a, b))
    );
    let plan = std::fs::read_to_string(r.root.join("docs/plans/x.md")).unwrap();
    assert_eq!(e[2]["token_estimate"]["raw_tokens"], tokens(&plan));
    assert_eq!(e[2]["lifecycle"]["served_when_path"], "docs/plans/x.done");
    // the judged plan is shortlisted for the model with its question and its ready edit
    let y = item("docs/plans/y.md");
    assert!(y["lifecycle"]["served_when"].is_string());
    assert_eq!(
        y["suggestions"][0]["exact_edit"]["kind"],
        "extract-then-delete"
    );
}

#[test]
fn a_fifo_target_is_refused_without_blocking() {
    let r = repo();
    let fifo = r.root.join("docs/plans/fifo.md");
    let st = Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(st.success());
    let mut s = scan(&r.root);
    let lc = json!({"rule_ref": "plans", "lifetime": "delete-once-served", "served_when": "Done?"});
    s["shortlist"].as_array_mut().unwrap().push(json!({
        "path": "docs/plans/fifo.md", "signals": [{"kind": "lifecycle"}], "lifecycle": lc,
        "raw_tokens": 0, "injection_frequency": "on-demand"
    }));
    let d = json!({"entries": [{
        "path": "docs/plans/fifo.md", "category": {"class": "stale", "subtype": "completed-in-place"},
        "signals": [{"kind": "lifecycle"}], "op": "Delete it.", "op_type": "deterministic",
        "exact_edit": {"kind": "delete", "anchor": {"whole": "file"}}
    }]});
    // A read of the FIFO would block forever; the test would hang rather than fail.
    let (out, report_path) = finalize(&r, &s, &d);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains("not a regular file") && err.contains("[target-exists]"),
        "{err}"
    );
    assert!(!report_path.exists());
}

/// No file saves more than it has: three rewrites of one small `CLAUDE.md` (two bloat ops on
/// the whole file, one stale rewrite of one line) claim at most the file's tokens between them,
/// and the stale rewrite claims only its line.
#[test]
fn generative_entries_claim_what_they_can_remove_and_never_more_than_the_file() {
    let r = repo();
    let claude = std::fs::read_to_string(r.root.join("CLAUDE.md")).unwrap();
    let whole = tokens(&claude);
    let signal = json!({"kind": "missing-path", "line": 4, "ref": "src/old.rs", "via": "code", "renamed_to": "src/new.rs"});
    let scan_v = json!({
        "schema_version": 1, "tool_version": "0.1.0", "generated_at": "2099-01-01T00:00:00Z",
        "scan": {"project_root": r.root.display().to_string(), "scope_globs": ["**/*.md"], "excluded_dirs": [], "files_scanned": 1},
        "shortlist": [{"path": "CLAUDE.md", "signals": [signal], "raw_tokens": 20, "injection_frequency": "per-session"}]
    });
    let gen = |class: &str, subtype: &str| {
        json!({"path": "CLAUDE.md", "category": {"class": class, "subtype": subtype},
        "signals": [signal], "op": "Rewrite.", "op_type": "generative", "is_destructive": true, "is_reversible": true})
    };
    let drafts_v = json!({"entries": [gen("stale", "contradicted"), gen("bloat", "distill"), gen("bloat", "split")]});
    let (out, report_path) = finalize(&r, &scan_v, &drafts_v);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report: Value = serde_json::from_slice(&std::fs::read(&report_path).unwrap()).unwrap();
    let raw: Vec<u64> = report["entries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["token_estimate"]["raw_tokens"].as_u64().unwrap())
        .collect();
    assert_eq!(
        raw[0],
        tokens(&lines(&r.root, "CLAUDE.md", 4, 4)),
        "the stale rewrite: its line"
    );
    assert_eq!(
        raw[1],
        whole - raw[0],
        "the distill: what is left of the file"
    );
    assert_eq!(raw[2], 0, "nothing is left to claim");
    assert!(raw.iter().sum::<u64>() <= whole);
}
