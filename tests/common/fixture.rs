//! A throwaway git repository and the scan of it, as the trust and precision tests build them.
#![allow(dead_code)]

use super::git;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

/// A repository under a temporary folder (removed on drop).
pub struct Repo {
    _tmp: tempfile::TempDir,
    /// Its root (canonical).
    pub root: PathBuf,
}

/// A new, empty git repository.
pub fn repo() -> Repo {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().canonicalize().unwrap().join("repo");
    std::fs::create_dir_all(&root).unwrap();
    git(&root, &["init", "-q"]);
    Repo { _tmp: tmp, root }
}

/// Commits everything under `root`.
pub fn commit(root: &Path, msg: &str) {
    git(root, &["add", "-A"]);
    git(root, &["commit", "-q", "--allow-empty", "-m", msg]);
}

/// Commits everything under `root` at `date` (author and committer: the history's times).
pub fn commit_at(root: &Path, msg: &str, date: &str) {
    git(root, &["add", "-A"]);
    super::git_at(root, &["commit", "-q", "-m", msg], date);
}

/// The scan as JSON (what `hygiene scan` prints).
pub fn scan(root: &Path) -> Value {
    let out = Command::new(env!("CARGO_BIN_EXE_hygiene"))
        .args(["scan", "--root"])
        .arg(root)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

/// The signals of `path` in a scan (empty when not shortlisted).
pub fn signals<'a>(scan: &'a Value, path: &str) -> Vec<&'a Value> {
    scan["shortlist"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|i| i["path"] == path)
        .flat_map(|i| i["signals"].as_array().unwrap())
        .collect()
}

/// `(kind, ref)` of every signal of `path` in a scan (ref empty for kinds without one).
pub fn sigs(scan: &Value, path: &str) -> Vec<(String, String)> {
    signals(scan, path)
        .into_iter()
        .map(|s| {
            (
                s["kind"].as_str().unwrap().to_string(),
                s["ref"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect()
}

/// [`sigs`] of `path` of one kind.
pub fn sigs_kind(scan: &Value, path: &str, kind: &str) -> Vec<(String, String)> {
    sigs(scan, path)
        .into_iter()
        .filter(|(k, _)| k == kind)
        .collect()
}

/// The refs of the signals of `path` of one kind, in order.
pub fn refs_kind(scan: &Value, path: &str, kind: &str) -> Vec<String> {
    sigs_kind(scan, path, kind)
        .into_iter()
        .map(|(_, r)| r)
        .collect()
}

/// Each signal of `path` as its `ref` and `renamed_to` (empty when absent), in order.
pub fn renames(scan: &Value, path: &str) -> Vec<(String, String)> {
    signals(scan, path)
        .into_iter()
        .map(|s| {
            (
                s["ref"].as_str().unwrap_or("").to_string(),
                s["renamed_to"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect()
}

/// The shortlisted documents with a signal of `kind`, sorted.
pub fn docs_with_kind<'a>(scan: &'a Value, kind: &str) -> Vec<&'a str> {
    let mut docs: Vec<&str> = scan["shortlist"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| {
            e["signals"]
                .as_array()
                .unwrap()
                .iter()
                .any(|x| x["kind"] == kind)
        })
        .map(|e| e["path"].as_str().unwrap())
        .collect();
    docs.sort_unstable();
    docs
}

/// [`sigs`] of each of `docs`, paired with its path.
pub fn sigs_of<'a>(scan: &Value, docs: &[&'a str]) -> Vec<(&'a str, Vec<(String, String)>)> {
    docs.iter().map(|p| (*p, sigs(scan, p))).collect()
}

/// Every `duplicate-block` signal of a scan, as `(path, start_line, end_line)` in shortlist
/// order.
pub fn dup_spans(scan: &Value) -> Vec<(String, u64, u64)> {
    scan["shortlist"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|e| {
            let path = e["path"].as_str().unwrap().to_string();
            e["signals"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|g| g["kind"] == "duplicate-block")
                .map(move |g| {
                    (
                        path.clone(),
                        g["start_line"].as_u64().unwrap(),
                        g["end_line"].as_u64().unwrap(),
                    )
                })
                .collect::<Vec<_>>()
        })
        .collect()
}

/// A `(kind, ref)` pair as [`sigs`] lists them.
pub fn pair(kind: &str, r: &str) -> (String, String) {
    (kind.to_string(), r.to_string())
}

/// Runs `hygiene check --accept-suggestions --apply` on `root` (with `env` set), asserting it
/// succeeded: what the auto tier does to a repository.
pub fn check_apply(root: &Path, env: &[(&str, String)]) {
    let mut c = Command::new(env!("CARGO_BIN_EXE_hygiene"));
    c.args(["check", "--accept-suggestions", "--apply", "--root"])
        .arg(root);
    for (k, v) in env {
        c.env(k, v);
    }
    let out = c.output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// A long investigation's narrative (80 sentences of attempts): enough words for a
/// resolved-narrative once its document says it was resolved.
pub fn investigation() -> String {
    (0..80)
        .map(|i| format!("Attempt {i} replayed the failing request against a fresh cache and logged the result. "))
        .collect()
}
