//! The report-level test kit for `hygiene apply` and `hygiene undo`: fixtures, hand-written
//! reports (with the sidecar finalize writes), and the CLI run the way the skills run it.
#![allow(dead_code)]

use super::{git, sha256_hex, write};
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

pub const BIN: &str = env!("CARGO_BIN_EXE_hygiene");
/// A check time after every file the tests write, so only tests that mean to trip the mtime
/// fence trip it.
pub const LATER: &str = "2099-01-01T00:00:00Z";

pub struct Fixture {
    _tmp: tempfile::TempDir,
    /// The repository root (canonical).
    pub root: PathBuf,
    /// A sibling folder outside the root.
    pub outside: PathBuf,
}

pub fn fixture(with_git: bool) -> Fixture {
    let tmp = tempfile::tempdir().unwrap();
    let base = tmp.path().canonicalize().unwrap();
    let root = base.join("repo");
    let outside = base.join("outside");
    std::fs::create_dir_all(&root).unwrap();
    std::fs::create_dir_all(&outside).unwrap();
    if with_git {
        git(&root, &["init", "-q"]);
        git(&root, &["config", "user.email", "t@example.com"]);
        git(&root, &["config", "user.name", "t"]);
    }
    Fixture {
        _tmp: tmp,
        root,
        outside,
    }
}

pub fn commit_all(root: &Path) {
    git(root, &["add", "-A"]);
    git(root, &["commit", "-q", "-m", "fixture"]);
}

/// Commits everything with a commit date in 2020, so temporary lifecycle rules see old
/// documents.
pub fn commit_old(root: &Path) {
    super::fixture::commit_at(root, "old fixture", "2020-01-01T00:00:00Z");
}

/// Writes `.hygiene/rulebook.json` with these rules: apply re-evaluates every lifecycle entry
/// against the live rulebook, so a hand-written report's lifecycle objects must be what these
/// rules say.
pub fn rulebook(root: &Path, rules: Value) {
    write(
        root,
        ".hygiene/rulebook.json",
        &serde_json::to_string_pretty(&json!({ "rules": rules })).unwrap(),
    );
}

pub fn file_sha(root: &Path, rel: &str) -> String {
    sha256_hex(&std::fs::read(root.join(rel)).unwrap())
}

/// An entry; tier and characterization follow the spec's kind table.
pub fn entry(path: &str, edit: Value) -> Value {
    let kind = edit["kind"].as_str().unwrap().to_string();
    let (destructive, reversible, tier) = match kind.as_str() {
        "delete-range" => (true, false, "confirm"),
        "delete" | "extract-then-delete" => {
            let cross = edit["extraction_target"] == "cross-repo";
            (true, true, if cross { "confirm" } else { "auto" })
        }
        _ => (false, true, "auto"),
    };
    let mut e = json!({
        "path": path,
        "category": {"class": "stale", "subtype": "orphaned"},
        "signals": [{"kind": "provisional-marker", "count": 1, "lines": [1]}],
        "op": format!("{kind} on {path}"),
        "op_type": "deterministic",
        "is_destructive": destructive,
        "is_reversible": reversible,
        "safety_tier": tier,
        "token_estimate": {"raw_tokens": 1},
        "exact_edit": edit,
    });
    if let Some(lc) = e["exact_edit"].get("lifecycle").cloned() {
        e["lifecycle"] = lc;
        e["signals"] = json!([{"kind": "lifecycle"}]);
    }
    e
}

pub fn generative_entry(path: &str) -> Value {
    json!({
        "path": path,
        "category": {"class": "bloat", "subtype": "distill"},
        "signals": [{"kind": "oversize", "raw_tokens": 9000, "threshold": 2000}],
        "op": "distill the narrative",
        "op_type": "generative",
        "is_destructive": true,
        "is_reversible": false,
        "safety_tier": "confirm",
        "token_estimate": {"raw_tokens": 10},
    })
}

pub fn lines(s: u32, e: u32) -> Value {
    json!({"start_line": s, "end_line": e})
}

/// Writes `.hygiene/report.json`; the shortlist holds every entry path with its signals.
pub fn write_report(root: &Path, generated_at: &str, entries: &[Value]) -> PathBuf {
    let mut shortlist: BTreeMap<String, Value> = BTreeMap::new();
    for e in entries {
        let p = e["path"].as_str().unwrap().to_string();
        let mut item = json!({
            "path": p,
            "signals": e["signals"],
            "raw_tokens": 10,
            "injection_frequency": "on-demand",
        });
        if let Some(lc) = e.get("lifecycle") {
            item["lifecycle"] = lc.clone();
        }
        shortlist.entry(p).or_insert(item);
    }
    let report = json!({
        "schema_version": 1,
        "tool_version": "0.1.0",
        "generated_at": generated_at,
        "scan": {
            "project_root": root.display().to_string(),
            "scope_globs": ["**/*.md"],
            "excluded_dirs": [".git"],
            "files_scanned": 10,
        },
        "shortlist": shortlist.into_values().collect::<Vec<_>>(),
        "entries": entries,
        "promotion_candidates": [],
    });
    let path = root.join(".hygiene/report.json");
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    let bytes = serde_json::to_vec_pretty(&report).unwrap();
    std::fs::write(&path, &bytes).unwrap();
    // The check-time fingerprints of generative targets, as finalize writes them beside the
    // report (computed here with sha2, from the files as they are now).
    let files: BTreeMap<String, String> = entries
        .iter()
        .filter(|e| e.get("exact_edit").is_none())
        .filter_map(|e| {
            let p = e["path"].as_str().unwrap();
            std::fs::read(root.join(p))
                .ok()
                .map(|b| (p.to_string(), sha256_hex(&b)))
        })
        .collect();
    let side = json!({"report_sha256": sha256_hex(&bytes), "files": files});
    std::fs::write(
        root.join(".hygiene/report.json.fingerprints.json"),
        serde_json::to_vec(&side).unwrap(),
    )
    .unwrap();
    path
}

pub fn hygiene(root: &Path, args: &[&str]) -> Output {
    let args = with_approval(root, args);
    Command::new(BIN)
        .arg(&args[0])
        .arg("--root")
        .arg(root)
        .args(&args[1..])
        .output()
        .unwrap()
}

/// An `apply ... --approve` written without its token gets the token the dry run shows the
/// user for that entry, as the clean skill does (a wrong or missing token has its own tests).
pub fn with_approval(root: &Path, args: &[&str]) -> Vec<String> {
    let mut out: Vec<String> = args.iter().map(|a| a.to_string()).collect();
    let Some(i) = out.iter().position(|a| a == "--approve") else {
        return out;
    };
    if out.get(i + 1).is_some_and(|next| !next.starts_with("--")) || args[0] != "apply" {
        return out;
    }
    let mut dry: Vec<String> = out.clone();
    dry.remove(i);
    dry.retain(|a| a != "--format" && a != "json" && a != "human");
    dry.extend(["--dry-run".to_string(), "--format".into(), "json".into()]);
    let o = Command::new(BIN)
        .arg("apply")
        .arg("--root")
        .arg(root)
        .args(&dry[1..])
        .output()
        .unwrap();
    let v: Value = serde_json::from_slice(&o.stdout).unwrap_or(Value::Null);
    let n: usize = out[out.iter().position(|a| a == "--entry").unwrap() + 1]
        .parse()
        .unwrap();
    let token = v["results"]
        .as_array()
        .and_then(|rs| rs.iter().find(|r| r["entry"] == n))
        .and_then(|r| r["approve"].as_str())
        .unwrap_or("no-token-in-dry-run")
        .to_string();
    out.insert(i + 1, token);
    out
}

/// Runs apply with `--format json`; returns the exit code and the parsed output.
pub fn apply(root: &Path, args: &[&str]) -> (i32, Value) {
    let mut all = vec!["apply", "--format", "json"];
    all.extend_from_slice(args);
    let out = hygiene(root, &all);
    let text = String::from_utf8_lossy(&out.stdout);
    let v = serde_json::from_str(&text).unwrap_or_else(|e| {
        panic!(
            "not JSON ({e}): {text}\nstderr: {}",
            String::from_utf8_lossy(&out.stderr)
        )
    });
    (out.status.code().unwrap_or(-1), v)
}

pub fn undo(root: &Path) -> (i32, Value) {
    let out = hygiene(root, &["undo", "--format", "json"]);
    let text = String::from_utf8_lossy(&out.stdout);
    (
        out.status.code().unwrap_or(-1),
        serde_json::from_str(&text).unwrap_or(Value::Null),
    )
}

pub fn outcome(v: &Value, entry: usize) -> (String, String) {
    let r = v["results"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["entry"] == entry)
        .unwrap_or_else(|| panic!("no result for entry {entry}: {v:#}"));
    (
        r["outcome"].as_str().unwrap().to_string(),
        r["reason"].as_str().unwrap_or("").to_string(),
    )
}
