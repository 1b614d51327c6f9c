//! The bad-input corpus (issue 8): files and repositories no one should have to scan, built by
//! each test in a temp folder (nothing large is committed). Each case runs the real binary with a
//! deadline, so a hang fails the test instead of stalling it, and asserts the documented exit
//! code (0 success, 1 invalid or refused, 2 usage or I/O error) and what the scan says it
//! skipped and why (`scan.skipped` reasons, `scan.warnings`).

mod common;
use common::git;
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_hygiene");

struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

/// Runs `hygiene ARGS --root ROOT` (extra env given), killing it after `secs` seconds.
fn hygiene_env(root: &Path, args: &[&str], env: &[(&str, &str)], secs: u64) -> Run {
    let mut cmd = Command::new(BIN);
    cmd.arg(args[0]);
    // `validate` checks a file and has no root.
    if args[0] != "validate" {
        cmd.arg("--root").arg(root);
    }
    cmd.args(&args[1..])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for (k, v) in env {
        cmd.env(k, v);
    }
    let mut child = cmd.spawn().expect("the helper starts");
    let mut out = child.stdout.take().unwrap();
    let mut err = child.stderr.take().unwrap();
    let t_out = std::thread::spawn(move || {
        let mut s = Vec::new();
        let _ = out.read_to_end(&mut s);
        s
    });
    let t_err = std::thread::spawn(move || {
        let mut s = Vec::new();
        let _ = err.read_to_end(&mut s);
        s
    });
    let deadline = Instant::now() + Duration::from_secs(secs);
    let status = loop {
        if let Some(st) = child.try_wait().unwrap() {
            break st;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("hygiene {args:?} did not finish within {secs} s (a hang)");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    Run {
        code: status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&t_out.join().unwrap()).into_owned(),
        stderr: String::from_utf8_lossy(&t_err.join().unwrap()).into_owned(),
    }
}

fn hygiene(root: &Path, args: &[&str]) -> Run {
    hygiene_env(root, args, &[], 120)
}

/// `hygiene scan` on `root`: asserts exit 0 and returns the parsed scan.
fn scan(root: &Path, env: &[(&str, &str)]) -> Value {
    let r = hygiene_env(root, &["scan"], env, 120);
    assert_eq!(r.code, 0, "scan failed: {}", r.stderr);
    serde_json::from_str(&r.stdout).unwrap_or_else(|e| panic!("not JSON ({e}): {}", r.stdout))
}

fn skipped(scan: &Value) -> BTreeMap<String, String> {
    scan["scan"]["skipped"]
        .as_array()
        .map(|a| {
            a.iter()
                .map(|s| {
                    (
                        s["path"].as_str().unwrap().to_string(),
                        s["reason"].as_str().unwrap().to_string(),
                    )
                })
                .collect()
        })
        .unwrap_or_default()
}

fn warnings(scan: &Value) -> Vec<String> {
    scan["scan"]["warnings"]
        .as_array()
        .map(|a| a.iter().map(|w| w.as_str().unwrap().to_string()).collect())
        .unwrap_or_default()
}

/// The `line` of each `missing-path` signal of `path`, keyed by its `ref`.
fn missing_lines(scan: &Value, path: &str) -> BTreeMap<String, u64> {
    scan["shortlist"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|i| i["path"] == path)
        .flat_map(|i| i["signals"].as_array().unwrap().clone())
        .filter(|s| s["kind"] == "missing-path")
        .map(|s| {
            (
                s["ref"].as_str().unwrap().to_string(),
                s["line"].as_u64().unwrap(),
            )
        })
        .collect()
}

fn tempdir() -> (tempfile::TempDir, PathBuf) {
    let t = tempfile::tempdir().unwrap();
    let root = t.path().canonicalize().unwrap().join("repo");
    std::fs::create_dir_all(&root).unwrap();
    (t, root)
}

fn put(root: &Path, rel: &str, bytes: &[u8]) {
    let p = root.join(rel);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, bytes).unwrap();
}

fn mkfifo(path: &Path) {
    let st = Command::new("mkfifo").arg(path).status().unwrap();
    assert!(st.success(), "mkfifo {}", path.display());
}

// ---------------------------------------------------------------------------------------------

#[test]
fn odd_text_is_scanned_with_true_line_numbers_or_skipped_with_its_reason() {
    let (_t, root) = tempdir();
    put(
        &root,
        "latin1.md",
        b"# Caf\xe9\nSee [x](missing-latin1.md).\n",
    );
    put(
        &root,
        "blob.md",
        b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x01see [x](missing-blob.md)\n",
    );
    put(
        &root,
        "crlf.md",
        b"# CRLF\r\n\r\nSee [gone](missing-crlf.md).\r\n",
    );
    put(
        &root,
        "mixed.md",
        b"# Mixed\n\r\nline\r\nSee [gone](missing-mixed.md).\n",
    );
    put(
        &root,
        "bom.md",
        "\u{feff}---\ntitle: bom\n---\n# BOM\nSee [gone](missing-bom.md).\n".as_bytes(),
    );
    // 10,000 levels of nested lists (and of block quotes) on single lines, then a reference
    // that is only found if the parser got past them.
    let mut nested = "- ".repeat(10_000);
    nested.push_str("deep\n\n");
    nested.push_str(&">".repeat(10_000));
    nested.push_str(" quoted\n\nSee [gone](missing-nested.md).\n");
    put(&root, "nested.md", nested.as_bytes());
    // 50 MB of Markdown, written here, never committed.
    let line = "A line of Markdown prose that repeats to make a very large document [x](a.md)\n";
    let big = line.repeat(50 * 1024 * 1024 / line.len() + 1);
    assert!(big.len() >= 50 * 1024 * 1024);
    put(&root, "big.md", big.as_bytes());

    let s = scan(&root, &[]);
    let sk = skipped(&s);
    assert_eq!(sk.get("latin1.md").map(String::as_str), Some("not-utf8"));
    assert_eq!(sk.get("blob.md").map(String::as_str), Some("binary"));
    assert_eq!(sk.get("big.md").map(String::as_str), Some("too-large"));
    assert_eq!(sk.len(), 3, "{sk:?}");
    // The four readable documents were checked.
    assert_eq!(s["scan"]["files_scanned"], 4, "{:#}", s["scan"]);
    assert!(
        warnings(&s)
            .iter()
            .any(|w| w.contains("not a git repository")),
        "{:?}",
        warnings(&s)
    );
    // Line numbers count CRLF, mixed endings and a BOM as a person reading the file would.
    let want = [
        ("crlf.md", "missing-crlf.md", 3),
        ("mixed.md", "missing-mixed.md", 4),
        ("bom.md", "missing-bom.md", 5),
        ("nested.md", "missing-nested.md", 5),
    ];
    for (doc, r, line) in want {
        let got = missing_lines(&s, doc);
        assert_eq!(got.get(r), Some(&line), "{doc}: {got:?}");
    }
    // Skipped files yield no signals.
    for p in ["latin1.md", "blob.md", "big.md"] {
        assert!(missing_lines(&s, p).is_empty(), "{p}");
    }

    // `hygiene tokens` on the same files: skipped ones are errors naming the file, not panics.
    let r = hygiene(&root, &["tokens", "crlf.md", "bom.md"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    // `hygiene validate` on non-JSON and binary input: invalid (1), with the `json` rule.
    for f in ["latin1.md", "blob.md", "big.md"] {
        let r = hygiene_env(
            &root,
            &["validate", root.join(f).to_str().unwrap()],
            &[],
            120,
        );
        assert_eq!(r.code, 1, "{f}: {}", r.stderr);
        assert!(r.stdout.contains("[json]"), "{f}: {}", r.stdout);
    }
}

#[test]
fn links_loops_fifos_sockets_and_vanishing_files_are_reported_not_followed() {
    use std::os::unix::fs::symlink;
    let (t, root) = tempdir();
    let outside = t.path().canonicalize().unwrap().join("outside");
    std::fs::create_dir_all(&outside).unwrap();
    put(
        &outside,
        "secret.md",
        b"# Secret\nSee [x](missing-secret.md).\n",
    );
    put(&root, "real.md", b"# Real\nSee [x](missing-real.md).\n");
    put(&root, "gone.md", b"# Gone\nSee [x](missing-gone.md).\n");
    symlink("loop-b.md", root.join("loop-a.md")).unwrap();
    symlink("loop-a.md", root.join("loop-b.md")).unwrap();
    symlink("self.md", root.join("self.md")).unwrap();
    symlink(".", root.join("dirloop")).unwrap();
    symlink(&outside, root.join("outdir")).unwrap();
    symlink(outside.join("secret.md"), root.join("out.md")).unwrap();
    symlink("real.md", root.join("alias.md")).unwrap();
    // A FIFO with no writer (opening it for reading would block forever), one governed by the
    // default `plans` rule (read by the lifecycle pass), and a socket.
    mkfifo(&root.join("pipe.md"));
    std::fs::create_dir_all(root.join("docs/plans")).unwrap();
    mkfifo(&root.join("docs/plans/pipe-plan.md"));
    let _sock = std::os::unix::net::UnixListener::bind(root.join("sock.md")).unwrap();

    let s = scan(&root, &[("HYGIENE_TEST_VANISH_AFTER_WALK", "gone.md")]);
    let sk = skipped(&s);
    let want: BTreeMap<String, String> = [
        ("loop-a.md", "symlink"),
        ("loop-b.md", "symlink"),
        ("self.md", "symlink"),
        ("out.md", "symlink"),
        ("pipe.md", "unreadable"),
        ("docs/plans/pipe-plan.md", "unreadable"),
        ("sock.md", "unreadable"),
        ("gone.md", "vanished"),
    ]
    .iter()
    .map(|(a, b)| (a.to_string(), b.to_string()))
    .collect();
    assert_eq!(sk, want);
    // Only real.md was checked: the alias inside the root is not a second document, and nothing
    // behind `outdir` or `dirloop` was walked. The FIFO under `docs/plans/` is no document
    // either: skipped by the scan, and no lifecycle rule governs it.
    assert_eq!(s["scan"]["files_scanned"], 1, "{:#}", s["scan"]);
    let paths: Vec<&str> = s["shortlist"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["path"].as_str().unwrap())
        .collect();
    assert_eq!(paths, ["real.md"]);
    assert_eq!(missing_lines(&s, "real.md").len(), 1);
    assert!(!s.to_string().contains("missing-secret.md"));
    assert!(!root.join("gone.md").exists(), "the hook deleted it");
    // The outside file is untouched.
    assert_eq!(
        std::fs::read(outside.join("secret.md")).unwrap(),
        b"# Secret\nSee [x](missing-secret.md).\n"
    );

    // `hygiene sweep` walks the same tree and must not hang on the FIFOs either.
    let r = hygiene(&root, &["sweep", "--format", "json"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
}

#[test]
fn finalize_refuses_a_canonical_ref_naming_a_fifo_instead_of_hanging() {
    let (_t, root) = tempdir();
    let para = "This paragraph is long enough to count as a duplicate block for the scanner, \
                more than eighty characters of the same words in two documents.\n";
    // A nested CLAUDE.md repeating the root one (a dedupe every reader survives), which also
    // imports the FIFO, so nothing but the FIFO's own kind stops finalize reading it.
    put(&root, "CLAUDE.md", format!("# A\n\n{para}").as_bytes());
    put(
        &root,
        "sub/CLAUDE.md",
        format!("# B\n\nSee @../pipe.md\n\n{para}").as_bytes(),
    );
    mkfifo(&root.join("pipe.md"));
    let r = hygiene(
        &root,
        &["scan", "--out", root.join("scan.json").to_str().unwrap()],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let s: Value = serde_json::from_slice(&std::fs::read(root.join("scan.json")).unwrap()).unwrap();
    let item = s["shortlist"]
        .as_array()
        .unwrap()
        .iter()
        .find(|i| {
            i["signals"]
                .as_array()
                .unwrap()
                .iter()
                .any(|g| g["kind"] == "duplicate-block")
        })
        .unwrap_or_else(|| panic!("no duplicate-block signal: {s:#}"))
        .clone();
    let sig = item["signals"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["kind"] == "duplicate-block")
        .unwrap()
        .clone();
    let draft = json!({"entries": [{
        "path": item["path"],
        "category": {"class": "stale", "subtype": "duplicated"},
        "signals": [sig],
        "op": "drop the copy",
        "op_type": "deterministic",
        "exact_edit": {"kind": "dedupe", "anchor": {"start_line": sig["start_line"], "end_line": sig["end_line"]}, "canonical_ref": "pipe.md:1-1"},
    }]});
    put(&root, "drafts.json", draft.to_string().as_bytes());
    let r = hygiene(
        &root,
        &[
            "finalize",
            "--scan",
            root.join("scan.json").to_str().unwrap(),
            "--drafts",
            root.join("drafts.json").to_str().unwrap(),
        ],
    );
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(r.stderr.contains("entry 0"), "{}", r.stderr);
    assert!(!root.join(".hygiene/report.json").exists());
}

/// A repository with one document carrying a missing reference, committed `n` times.
fn repo_with_history(root: &Path, n: usize) {
    git(root, &["init", "-q", "-b", "main"]);
    for i in 0..n {
        put(
            root,
            "CLAUDE.md",
            format!("# Project\nSee [gone](missing.md).\nrev {i}\n").as_bytes(),
        );
        git(root, &["add", "-A"]);
        git(root, &["commit", "-qm", &format!("rev {i}")]);
    }
}

/// Scan, an empty drafts file through finalize, validate the report and an auto apply: the whole
/// pipeline completes with exit 0 in this repository state.
fn pipeline_completes(root: &Path) -> Value {
    let s = scan(root, &[]);
    let scan_path = root.join(".hygiene/scan.json");
    put(root, ".hygiene/scan.json", s.to_string().as_bytes());
    put(root, ".hygiene/drafts.json", b"{\"entries\": []}");
    let r = hygiene(
        root,
        &[
            "finalize",
            "--scan",
            scan_path.to_str().unwrap(),
            "--drafts",
            root.join(".hygiene/drafts.json").to_str().unwrap(),
        ],
    );
    assert_eq!(r.code, 0, "finalize: {}", r.stderr);
    let report = root.join(".hygiene/report.json");
    let r = hygiene(root, &["validate", report.to_str().unwrap()]);
    assert_eq!(r.code, 0, "validate: {}{}", r.stdout, r.stderr);
    let r = hygiene(root, &["apply", "--tier", "auto", "--format", "json"]);
    if root.join(".git").exists() {
        assert_eq!(r.code, 0, "apply: {}{}", r.stdout, r.stderr);
    } else {
        // Outside a git work tree nothing backs an edit made without a prompt: the auto tier
        // is refused whole, with the reason and the way that remains.
        assert_eq!(r.code, 1, "apply: {}{}", r.stdout, r.stderr);
        assert!(
            r.stdout.contains("not inside a git work tree") && r.stdout.contains("--approve"),
            "{}",
            r.stdout
        );
    }
    s
}

#[test]
fn empty_and_commitless_repositories_scan_cleanly() {
    // Empty: git init, nothing else.
    let (_t, root) = tempdir();
    git(&root, &["init", "-q"]);
    let s = pipeline_completes(&root);
    assert_eq!(s["scan"]["files_scanned"], 0);
    assert_eq!(s["shortlist"], json!([]));
    assert!(skipped(&s).is_empty());
    // A plain empty folder, not a repository: the same, plus the warning.
    let (_t2, plain) = tempdir();
    let s = pipeline_completes(&plain);
    assert_eq!(s["scan"]["files_scanned"], 0);
    assert!(warnings(&s)
        .iter()
        .any(|w| w.contains("not a git repository")));

    // Files but no commits: the scan still reports what it can see, and no history warning
    // (an unborn branch is not a broken history).
    let (_t3, root) = tempdir();
    git(&root, &["init", "-q"]);
    put(&root, "CLAUDE.md", b"# P\nSee [gone](missing.md).\n");
    let s = pipeline_completes(&root);
    assert_eq!(missing_lines(&s, "CLAUDE.md").get("missing.md"), Some(&2));
    assert!(
        warnings(&s).iter().all(|w| !w.contains("incomplete")),
        "{:?}",
        warnings(&s)
    );
}

#[test]
fn shallow_detached_and_mid_rebase_repositories_scan_cleanly() {
    // Shallow clone: the scan says its history is cut off.
    let (t, origin) = tempdir();
    repo_with_history(&origin, 3);
    let shallow = t.path().canonicalize().unwrap().join("shallow");
    let out = Command::new("git")
        .args(["clone", "-q", "--depth", "1"])
        .arg(format!("file://{}", origin.display()))
        .arg(&shallow)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        git(&shallow, &["rev-parse", "--is-shallow-repository"]).trim(),
        "true"
    );
    let s = pipeline_completes(&shallow);
    assert!(
        warnings(&s).iter().any(|w| w.contains("shallow clone")),
        "{:?}",
        warnings(&s)
    );
    assert_eq!(missing_lines(&s, "CLAUDE.md").get("missing.md"), Some(&2));

    // Detached HEAD on an older commit.
    let (_t2, root) = tempdir();
    repo_with_history(&root, 3);
    git(&root, &["checkout", "-q", "--detach", "HEAD~1"]);
    assert!(git(&root, &["status"]).contains("HEAD detached"));
    let s = pipeline_completes(&root);
    assert_eq!(missing_lines(&s, "CLAUDE.md").get("missing.md"), Some(&2));
    assert!(warnings(&s).is_empty(), "{:?}", warnings(&s));

    // Mid-rebase with a conflict: the document holds conflict markers.
    let (_t3, root) = tempdir();
    repo_with_history(&root, 1);
    git(&root, &["checkout", "-q", "-b", "topic"]);
    put(
        &root,
        "CLAUDE.md",
        b"# Project\nSee [topic](missing-topic.md).\nrev t\n",
    );
    git(&root, &["commit", "-qam", "topic"]);
    git(&root, &["checkout", "-q", "main"]);
    put(
        &root,
        "CLAUDE.md",
        b"# Project\nSee [main](missing-main.md).\nrev m\n",
    );
    git(&root, &["commit", "-qam", "main"]);
    git(&root, &["checkout", "-q", "topic"]);
    let st = Command::new("git")
        .arg("-C")
        .arg(&root)
        .args([
            "-c",
            "user.email=t@example.com",
            "-c",
            "user.name=t",
            "rebase",
            "main",
        ])
        .output()
        .unwrap();
    assert!(!st.status.success(), "the rebase must stop on the conflict");
    assert!(root.join(".git/rebase-merge").exists() || root.join(".git/rebase-apply").exists());
    let text = std::fs::read_to_string(root.join("CLAUDE.md")).unwrap();
    assert!(text.contains("<<<<<<<"), "{text}");
    let s = pipeline_completes(&root);
    // Both sides of the conflict are in the file; both references are reported where they are.
    let lines: Vec<&str> = text.lines().collect();
    let at = |r: &str| lines.iter().position(|l| l.contains(r)).unwrap() as u64 + 1;
    let got = missing_lines(&s, "CLAUDE.md");
    assert_eq!(
        got.get("missing-main.md"),
        Some(&at("missing-main.md")),
        "{got:?}"
    );
    assert_eq!(
        got.get("missing-topic.md"),
        Some(&at("missing-topic.md")),
        "{got:?}"
    );
}

#[test]
fn hostile_reports_and_drafts_as_bytes_exit_with_the_documented_codes() {
    let (_t, root) = tempdir();
    put(&root, "CLAUDE.md", b"# P\nSee [gone](missing.md).\n");
    let s = scan(&root, &[]);
    put(&root, ".hygiene/scan.json", s.to_string().as_bytes());
    let scan_path = root.join(".hygiene/scan.json");
    let cases: [(&str, &[u8]); 5] = [
        ("empty", b""),
        ("binary", b"\0\x01\x02\xff"),
        ("latin1", b"{\"entries\": [\"caf\xe9\"]}"),
        ("bom", "\u{feff}{\"entries\": []}".as_bytes()),
        ("deep", &[b'['; 100_000]),
    ];
    for (name, bytes) in cases {
        let f = root.join(format!(".hygiene/{name}.json"));
        std::fs::write(&f, bytes).unwrap();
        // As a report: invalid, exit 1.
        let r = hygiene(&root, &["validate", f.to_str().unwrap()]);
        assert_eq!(r.code, 1, "validate {name}: {}{}", r.stdout, r.stderr);
        // As an apply report: refused whole, exit 1, nothing written.
        let before = std::fs::read(root.join("CLAUDE.md")).unwrap();
        let r = hygiene(
            &root,
            &["apply", "--report", f.to_str().unwrap(), "--tier", "auto"],
        );
        assert_eq!(r.code, 1, "apply {name}: {}{}", r.stdout, r.stderr);
        assert_eq!(std::fs::read(root.join("CLAUDE.md")).unwrap(), before);
        // As drafts: a draft error naming the file, exit 1, no report.
        let r = hygiene(
            &root,
            &[
                "finalize",
                "--scan",
                scan_path.to_str().unwrap(),
                "--drafts",
                f.to_str().unwrap(),
            ],
        );
        assert_eq!(r.code, 1, "finalize {name}: {}", r.stderr);
        assert!(r.stderr.contains(&format!("{name}.json")), "{}", r.stderr);
        assert!(!root.join(".hygiene/report.json").exists());
    }
    // A missing report is an I/O error: exit 2.
    let r = hygiene(
        &root,
        &["validate", root.join("nope.json").to_str().unwrap()],
    );
    assert_eq!(r.code, 2, "{}", r.stderr);
}

#[test]
fn a_fifo_in_place_of_configuration_is_an_error_not_a_hang() {
    let (_t, root) = tempdir();
    put(&root, "README.md", b"# Readme\n");
    std::fs::create_dir_all(root.join(".hygiene")).unwrap();
    mkfifo(&root.join(".hygiene/rulebook.json"));
    for args in [&["scan"][..], &["sweep"][..]] {
        let r = hygiene_env(&root, args, &[], 20);
        assert_eq!(r.code, 2, "{args:?}: {}", r.stderr);
        assert!(r.stderr.contains("not a regular file"), "{}", r.stderr);
    }
    let report = root.join("report.json");
    mkfifo(&report);
    let r = hygiene_env(&root, &["validate", report.to_str().unwrap()], &[], 20);
    assert_eq!(r.code, 2, "{}", r.stderr);
}
