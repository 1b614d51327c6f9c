//! The promises under attack (issue 12): each test reproduces one class of failure a red team
//! found against the helper, as a hostile repository or a careless user would cause it, and
//! passes only with the guard. `docs/safety.md` lists each promise with these tests.

mod common;
use common::cli::*;
use common::{git, read, sha256_hex, snapshot, without_hygiene, write};
use serde_json::{json, Value};
use std::path::Path;
use std::process::Command;

#[cfg(unix)]
fn link(target: &Path, at: &Path) {
    std::os::unix::fs::symlink(target, at).unwrap();
}

/// Runs the binary with `--root` (no approval filling) and returns (exit code, stdout, stderr).
fn run(root: &Path, args: &[&str], env: &[(&str, &str)]) -> (i32, String, String) {
    let mut c = Command::new(BIN);
    c.arg(args[0]);
    if args[0] != "validate" {
        c.arg("--root").arg(root);
    }
    c.args(&args[1..]).current_dir(root);
    for (k, v) in env {
        c.env(k, v);
    }
    let o = c.output().unwrap();
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

/// A committed document with one renamed reference, so the model-free check has an auto entry.
fn renamed_reference(r: &Path) {
    write(r, "docs/old.md", "# Old\n");
    write(r, "CLAUDE.md", "# P\n\nSee [old](docs/old.md).\n");
    commit_all(r);
    git(r, &["mv", "docs/old.md", "docs/new.md"]);
    commit_all(r);
}

// 1 and 2: every write under `.hygiene/` is a new file renamed into place along real folders.
#[cfg(unix)]
#[test]
fn links_at_hygiene_outputs_journal_and_lock_are_never_written_through() {
    let f = fixture(true);
    let (r, o) = (&f.root, &f.outside);
    renamed_reference(r);
    write(o, "victim.txt", "keep me\n");
    std::fs::create_dir_all(o.join("dir")).unwrap();
    std::fs::create_dir_all(r.join(".hygiene")).unwrap();
    let outside_before = snapshot(o);
    for name in ["report.json", "report.json.tmp", "scan.json"] {
        let at = r.join(".hygiene").join(name);
        let _ = std::fs::remove_file(&at);
        link(&o.join("victim.txt"), &at);
        // A link at an output's name is refused; a link at a temporary name is never opened
        // (temporary files are created new, under names of their own).
        let (code, _, err) = run(r, &["check", "--accept-suggestions"], &[]);
        assert_eq!(code == 0, name.ends_with(".tmp"), "{name}: {err}");
        assert_eq!(snapshot(o), outside_before, "{name} was written through");
        let (code, _, err) = run(r, &["scan", "--out", at.to_str().unwrap()], &[]);
        assert_eq!(code, 2, "{name}: {err}");
        assert!(err.contains("symbolic link"), "{err}");
        std::fs::remove_file(&at).unwrap();
    }
    // The folder itself, the journal and the lock as links out of the root.
    let (code, _, _) = run(r, &["check", "--accept-suggestions"], &[]);
    assert_eq!(code, 0);
    for (name, target) in [
        ("journal", o.join("dir")),
        ("apply.lock", o.join("victim.txt")),
    ] {
        let at = r.join(".hygiene").join(name);
        let _ = std::fs::remove_dir_all(&at);
        let _ = std::fs::remove_file(&at);
        link(&target, &at);
        let (code, out, err) = run(r, &["apply", "--tier", "auto", "--format", "json"], &[]);
        assert_ne!(code, 0, "{name}: {out}{err}");
        assert!(
            out.contains("symbolic link") || err.contains("symbolic link"),
            "{name}: {out}{err}"
        );
        std::fs::remove_file(&at).unwrap();
        assert_eq!(snapshot(o), outside_before, "{name} led out of the root");
    }
    std::fs::remove_dir_all(r.join(".hygiene")).unwrap();
    link(o, &r.join(".hygiene"));
    let (code, _, err) = run(r, &["check", "--accept-suggestions"], &[]);
    assert_ne!(code, 0, "{err}");
    assert_eq!(
        snapshot(o),
        outside_before,
        "a linked .hygiene led out of the root"
    );
    assert_eq!(read(r, "CLAUDE.md"), "# P\n\nSee [old](docs/old.md).\n");
}

// 3: undo touches only what this helper's own apply wrote.
#[test]
fn undo_ignores_journal_batches_it_did_not_seal() {
    let f = fixture(true);
    let (r, o) = (&f.root, &f.outside);
    renamed_reference(r);
    write(o, "victim.txt", "keep me\n");
    // A journal committed in the repository: an "external" file to delete, a blob that would
    // overwrite CLAUDE.md, and a batch id at the end of the range.
    let planted = |id: &str| {
        let victim = o.join("victim.txt").display().to_string();
        let manifest = json!({
            "version": 2, "batch": id, "created_at": "2026-01-01T00:00:00Z",
            "root": r.display().to_string(), "report": "x", "report_sha256": "0", "entries": [0],
            "files": [
                {"path": victim, "external": true, "existed": false, "planned_sha256": sha256_hex(b"keep me\n")},
                {"path": "CLAUDE.md", "existed": true, "blob": "blobs/1", "sha256": sha256_hex(b"evil\n"), "planned_sha256": sha256_hex(&std::fs::read(r.join("CLAUDE.md")).unwrap())}
            ],
            "dirs_created": [], "dirs_removed": []
        });
        write(
            r,
            &format!(".hygiene/journal/{id}/manifest.json"),
            &manifest.to_string(),
        );
        write(
            r,
            &format!(".hygiene/journal/{id}/manifest.seal"),
            &format!("{}\n", "0".repeat(64)),
        );
        write(r, &format!(".hygiene/journal/{id}/blobs/1"), "evil\n");
    };
    planted("000099");
    planted("18446744073709551615");
    let (code, out, _) = run(r, &["undo", "--format", "json"], &[]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("nothing to undo") && out.contains("no valid seal"),
        "{out}"
    );
    // A real batch after the planted ids still gets an id, and undo reverts only it.
    let (code, _, err) = run(r, &["check", "--accept-suggestions", "--apply"], &[]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(read(r, "CLAUDE.md"), "# P\n\nSee [old](docs/new.md).\n");
    let (code, out, _) = run(r, &["undo", "--format", "json"], &[]);
    assert_eq!(code, 0, "{out}");
    assert_eq!(read(r, "CLAUDE.md"), "# P\n\nSee [old](docs/old.md).\n");
    assert_eq!(read(o, "victim.txt"), "keep me\n");
    let (code, out, _) = run(r, &["undo", "--format", "json"], &[]);
    assert_eq!(code, 1, "the planted batches never become undoable: {out}");
    assert_eq!(read(o, "victim.txt"), "keep me\n");
    // `.hygiene/` as the helper made it is ignored by git: no journal can be committed by
    // accident (the planted files above were written before it existed).
    let f2 = fixture(true);
    renamed_reference(&f2.root);
    let (code, _, _) = run(&f2.root, &["check", "--accept-suggestions", "--apply"], &[]);
    assert_eq!(code, 0);
    let status = git(
        &f2.root,
        &["status", "--porcelain", "--untracked-files=all"],
    );
    assert!(!status.contains(".hygiene"), "{status}");
}

// 4: no write into a nested repository or an executable, whatever the text rules let through.
#[test]
fn writes_into_nested_repositories_or_executables_are_refused() {
    let f = fixture(true);
    let r = &f.root;
    write(r, "ok.md", "# Ok\nline 2\n");
    write(r, "vendor/lib/README.md", "# Lib\n");
    git(&r.join("vendor/lib"), &["init", "-q"]);
    git(&r.join("vendor/lib"), &["add", "-A"]);
    git(&r.join("vendor/lib"), &["commit", "-qm", "lib"]);
    write(r, "tools/run.md", "# Run\n");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(
            r.join("tools/run.md"),
            std::fs::Permissions::from_mode(0o755),
        )
        .unwrap();
    }
    commit_all(r);
    let oks = sha256_hex(b"# Ok\nline 2\n");
    let mut entries = vec![entry(
        "ok.md",
        json!({"kind": "move-to-archive", "anchor": lines(2, 2), "dest_path": "vendor/lib/notes.md", "expected_sha256": oks}),
    )];
    if cfg!(unix) {
        entries.push(entry(
            "ok.md",
            json!({"kind": "move-to-archive", "anchor": lines(2, 2), "dest_path": "tools/run.md", "expected_sha256": oks}),
        ));
    }
    write_report(r, LATER, &entries);
    let before = without_hygiene(snapshot(r));
    let (code, v) = apply(r, &["--tier", "auto"]);
    assert_eq!(code, 1, "{v:#}");
    assert!(outcome(&v, 0).1.contains("[nested-repository]"), "{v:#}");
    if cfg!(unix) {
        assert!(outcome(&v, 1).1.contains("[executable]"), "{v:#}");
    }
    assert_eq!(without_hygiene(snapshot(r)), before);
}

/// Runs `hygiene finalize` on a hand-written scan and drafts; returns (code, stderr).
fn finalize(r: &Path, scan: &Value, drafts: &Value) -> (i32, String) {
    write(r, ".hygiene/scan.json", &scan.to_string());
    write(r, ".hygiene/drafts/a.json", &drafts.to_string());
    let (code, _, err) = run(
        r,
        &[
            "finalize",
            "--scan",
            r.join(".hygiene/scan.json").to_str().unwrap(),
            "--drafts",
            r.join(".hygiene/drafts").to_str().unwrap(),
        ],
        &[],
    );
    (code, err)
}

fn scan_of(r: &Path, items: Value) -> Value {
    json!({"schema_version": 1, "tool_version": "0", "generated_at": LATER,
           "scan": {"project_root": r.display().to_string(), "scope_globs": ["**/*.md"], "excluded_dirs": [], "files_scanned": 1},
           "shortlist": items})
}

// 5: a lifecycle object from a scan file (which a model can write) never decides a delete.
#[test]
fn forged_lifecycle_objects_are_re_evaluated_against_the_live_rulebook() {
    let f = fixture(true);
    let r = &f.root;
    write(r, "CLAUDE.md", "# Project\nrules\n");
    for day in 1..=7 {
        write(
            r,
            &format!(".claude/handoffs/2020-01-0{day}.md"),
            &format!("# Handoff {day}\n"),
        );
    }
    commit_all(r);
    let temporary = json!({"rule_ref": "handoffs", "lifetime": "temporary"});
    // The model's scan says CLAUDE.md is a temporary document: finalize asks the rulebook.
    let scan = scan_of(
        r,
        json!([{"path": "CLAUDE.md", "signals": [{"kind": "lifecycle"}], "lifecycle": temporary,
                "raw_tokens": 5, "injection_frequency": "per-session"}]),
    );
    let drafts = json!({"entries": [{"path": "CLAUDE.md", "category": {"class": "stale", "subtype": "superseded"},
        "signals": [{"kind": "lifecycle"}], "op": "Delete it.", "op_type": "deterministic", "lifecycle": temporary,
        "exact_edit": {"kind": "delete", "anchor": {"whole": "file"}}}]});
    let (code, err) = finalize(r, &scan, &drafts);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("[lifecycle-live]") && err.contains("no lifecycle rule governs"),
        "{err}"
    );
    // A hand-written report claiming the same: apply refuses it, CLAUDE.md stays.
    write_report(
        r,
        LATER,
        &[entry(
            "CLAUDE.md",
            json!({"kind": "delete", "anchor": {"whole": "file"}, "lifecycle": temporary, "expected_sha256": sha256_hex(b"# Project\nrules\n")}),
        )],
    );
    let (code, v) = apply(r, &["--tier", "auto"]);
    assert_eq!(code, 1, "{v:#}");
    assert_eq!(outcome(&v, 0).0, "refused", "{v:#}");
    assert!(
        outcome(&v, 0).1.contains("no lifecycle rule governs"),
        "{v:#}"
    );
    assert!(r.join("CLAUDE.md").exists());

    // The two oldest handoffs were served (outside the five newest); the report says so.
    let old = [
        ".claude/handoffs/2020-01-01.md",
        ".claude/handoffs/2020-01-02.md",
    ];
    let entries: Vec<Value> = old
        .iter()
        .map(|p| {
            entry(
                p,
                json!({"kind": "delete", "anchor": {"whole": "file"}, "lifecycle": temporary, "expected_sha256": sha256_hex(&std::fs::read(r.join(p)).unwrap())}),
            )
        })
        .collect();
    write_report(r, LATER, &entries);
    // Then the two newest go: the old ones are among the five newest now, and stay.
    git(
        r,
        &[
            "rm",
            "-q",
            ".claude/handoffs/2020-01-07.md",
            ".claude/handoffs/2020-01-06.md",
        ],
    );
    git(r, &["commit", "-qm", "drop two handoffs"]);
    let (code, v) = apply(r, &["--tier", "auto"]);
    assert_eq!(code, 0, "{v:#}");
    for i in 0..2 {
        let (o, why) = outcome(&v, i);
        assert_eq!(o, "skipped", "{v:#}");
        assert!(why.contains("has not served now"), "{why}");
    }
    assert!(old.iter().all(|p| r.join(p).exists()));
}

// 6: a failed `git status` is "not clean", never "clean".
#[test]
fn unknown_git_state_is_never_clean() {
    let f = fixture(true);
    let r = &f.root;
    rulebook(
        r,
        json!([{"id": "handoffs", "match": "file", "glob": "handoffs/**", "lifetime": "temporary", "max_age_days": 1}]),
    );
    write(r, "handoffs/2020-01-01.md", "committed\n");
    commit_old(r);
    // A broken submodule makes `git status` fail (ls-files still works).
    git(
        r,
        &[
            "update-index",
            "--add",
            "--cacheinfo",
            "160000,1111111111111111111111111111111111111111,sub",
        ],
    );
    write(r, "sub/.git", "gitdir: /nonexistent/hygiene-test\n");
    git(r, &["commit", "-qm", "broken submodule"]);
    write(
        r,
        "handoffs/2020-01-01.md",
        "committed\nplus an edit git cannot report\n",
    );
    let temp = json!({"rule_ref": "handoffs", "lifetime": "temporary"});
    write_report(
        r,
        LATER,
        &[entry(
            "handoffs/2020-01-01.md",
            json!({"kind": "delete", "anchor": {"whole": "file"}, "lifecycle": temp, "expected_sha256": file_sha(r, "handoffs/2020-01-01.md")}),
        )],
    );
    let (code, v) = apply(r, &["--tier", "auto"]);
    assert_eq!(code, 0, "{v:#}");
    let (o, why) = outcome(&v, 0);
    assert_eq!(o, "skipped", "{v:#}");
    assert!(why.contains("git could not say"), "{why}");
    assert!(r.join("handoffs/2020-01-01.md").exists());
}

// 7: two names of one file are never a dedupe's two copies.
#[cfg(unix)]
#[test]
fn dedupes_through_links_or_hard_links_keep_their_copy() {
    let f = fixture(true);
    let r = &f.root;
    let block = "shared paragraph that both documents carry, long enough to count\n";
    let a = format!("# A\n{block}");
    let b = format!("# B\n{block}");
    write(r, "docs/a.md", &a);
    write(r, "docs/b.md", &b);
    link(Path::new("."), &r.join("mirror"));
    // A nested CLAUDE.md that is the root one under a second name.
    write(r, "CLAUDE.md", &a);
    std::fs::create_dir_all(r.join("sub")).unwrap();
    std::fs::hard_link(r.join("CLAUDE.md"), r.join("sub/CLAUDE.md")).unwrap();
    commit_all(r);
    let entries = vec![
        entry(
            "docs/a.md",
            json!({"kind": "dedupe", "anchor": lines(2, 2), "canonical_ref": "mirror/docs/a.md:2-2", "expected_sha256": sha256_hex(a.as_bytes())}),
        ),
        entry(
            "mirror/docs/b.md",
            json!({"kind": "dedupe", "anchor": lines(2, 2), "canonical_ref": "docs/b.md:2-2", "expected_sha256": sha256_hex(b.as_bytes())}),
        ),
        entry(
            "sub/CLAUDE.md",
            json!({"kind": "dedupe", "anchor": lines(2, 2), "canonical_ref": "CLAUDE.md:2-2", "expected_sha256": sha256_hex(a.as_bytes())}),
        ),
    ];
    write_report(r, LATER, &entries);
    let before = without_hygiene(snapshot(r));
    let (code, v) = apply(r, &["--tier", "auto"]);
    assert_eq!(code, 1, "{v:#}");
    assert!(outcome(&v, 0).1.contains("symbolic link"), "{v:#}");
    assert!(outcome(&v, 1).1.contains("symbolic link"), "{v:#}");
    assert!(outcome(&v, 2).1.contains("hard link"), "{v:#}");
    assert_eq!(without_hygiene(snapshot(r)), before);
    assert!(read(r, "docs/a.md").contains(block) && read(r, "CLAUDE.md").contains(block));
}

// 8: a document a lifecycle rule will delete never holds a dedupe's kept copy.
#[test]
fn a_lifecycle_governed_document_is_never_the_kept_copy() {
    let f = fixture(true);
    let r = &f.root;
    let block = "the only place this decision is written down, long enough to count\n";
    let notes = format!("# Notes\n{block}");
    write(r, "docs/notes.md", &notes);
    write(
        r,
        ".claude/handoffs/2020-01-01.md",
        &format!("# Handoff\n{block}"),
    );
    commit_all(r);
    let drafts = json!({"entries": [{"path": "docs/notes.md", "category": {"class": "stale", "subtype": "duplicated"},
        "signals": [{"kind": "duplicate-block", "start_line": 2, "end_line": 2, "canonical_ref": ".claude/handoffs/2020-01-01.md:2-2"}],
        "op": "Remove the copy.", "op_type": "deterministic",
        "exact_edit": {"kind": "dedupe", "anchor": {"start_line": 2, "end_line": 2}, "canonical_ref": ".claude/handoffs/2020-01-01.md:2-2"}}]});
    let scan = scan_of(
        r,
        json!([{"path": "docs/notes.md", "signals": drafts["entries"][0]["signals"], "raw_tokens": 9, "injection_frequency": "on-demand"}]),
    );
    let (code, err) = finalize(r, &scan, &drafts);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("[dedupe-kept-copy]") && err.contains("handoffs"),
        "{err}"
    );
    write_report(
        r,
        LATER,
        &[entry(
            "docs/notes.md",
            json!({"kind": "dedupe", "anchor": lines(2, 2), "canonical_ref": ".claude/handoffs/2020-01-01.md:2-2", "expected_sha256": sha256_hex(notes.as_bytes())}),
        )],
    );
    let (code, v) = apply(r, &["--tier", "auto"]);
    assert_eq!(code, 1, "{v:#}");
    assert!(
        outcome(&v, 0).1.contains("governed by lifecycle rule"),
        "{v:#}"
    );
    assert_eq!(read(r, "docs/notes.md"), notes);
}

// 8b: a dedupe that some reader of the document would lose the span to: other agents read
// `AGENTS.md` and never `CLAUDE.md`, so a paragraph both hold stays in `AGENTS.md`, whether a
// model drafts the dedupe or a report carries it. The reverse (a Claude-only rule losing its
// copy to the root `CLAUDE.md` that Claude Code loads every session) goes through.
#[test]
fn a_dedupe_some_reader_would_lose_is_refused() {
    let f = fixture(true);
    let r = &f.root;
    let block = "Run the migrations before the tests, or the schema check fails on a fresh clone\n";
    let agents = format!("# Agents\n{block}");
    write(r, "AGENTS.md", &agents);
    write(r, "CLAUDE.md", &format!("# Claude\n{block}"));
    let rule = format!("# Rule\n{block}");
    write(r, ".claude/rules/db.md", &rule);
    commit_all(r);
    let dedupe = |path: &str| {
        json!({"path": path, "category": {"class": "stale", "subtype": "duplicated"},
            "signals": [{"kind": "duplicate-block", "start_line": 2, "end_line": 2, "canonical_ref": "CLAUDE.md:2-2"}],
            "op": "Remove the copy.", "op_type": "deterministic",
            "exact_edit": {"kind": "dedupe", "anchor": {"start_line": 2, "end_line": 2}, "canonical_ref": "CLAUDE.md:2-2"}})
    };
    let item = |path: &str| json!({"path": path, "signals": dedupe(path)["signals"], "raw_tokens": 9, "injection_frequency": "on-demand"});
    let scan = scan_of(r, json!([item("AGENTS.md"), item(".claude/rules/db.md")]));
    let (code, err) = finalize(r, &scan, &json!({"entries": [dedupe("AGENTS.md")]}));
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("[dedupe-readers]") && err.contains("AGENTS.md"),
        "{err}"
    );
    let (code, err) = finalize(
        r,
        &scan,
        &json!({"entries": [dedupe(".claude/rules/db.md")]}),
    );
    assert_eq!(code, 0, "a Claude-only rule may lose its copy: {err}");
    write_report(
        r,
        LATER,
        &[entry(
            "AGENTS.md",
            json!({"kind": "dedupe", "anchor": lines(2, 2), "canonical_ref": "CLAUDE.md:2-2", "expected_sha256": sha256_hex(agents.as_bytes())}),
        )],
    );
    let (code, v) = apply(r, &["--tier", "auto"]);
    assert_eq!(code, 1, "{v:#}");
    assert!(outcome(&v, 0).1.contains("read by other-agents"), "{v:#}");
    assert_eq!(read(r, "AGENTS.md"), agents);
    assert_eq!(read(r, ".claude/rules/db.md"), rule);
}

// 9: a folder holding two repositories: nothing of one is removed because the other has it.
#[test]
fn a_folder_of_repositories_dedupes_and_applies_nothing() {
    let t = tempfile::tempdir().unwrap();
    let parent = t.path().canonicalize().unwrap();
    let para = "Run the full test suite before every push; it takes four minutes on CI.\n";
    for repo in ["one", "two"] {
        let r = parent.join(repo);
        write(&r, "AGENTS.md", &format!("# {repo}\n\n{para}"));
        git(&r, &["init", "-q"]);
        git(&r, &["add", "-A"]);
        git(&r, &["commit", "-qm", "x"]);
    }
    let before = snapshot(&parent);
    let (code, out, err) = run(&parent, &["check", "--accept-suggestions", "--apply"], &[]);
    assert!(code == 0 || code == 1, "{out}{err}");
    assert!(
        out.contains("0 entries") || !out.contains("dedupe"),
        "{out}"
    );
    let mut after = snapshot(&parent);
    after.retain(|k, _| !k.starts_with(".hygiene"));
    let mut before = before;
    before.retain(|k, _| !k.starts_with(".hygiene"));
    assert_eq!(after, before, "{out}{err}");
    let scan: Value = serde_json::from_str(&read(&parent, ".hygiene/scan.json")).unwrap();
    assert_eq!(scan["scan"]["files_scanned"], 0, "{scan:#}");
    assert!(scan["scan"]["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .any(|w| w.as_str().unwrap().contains("nested repositories")));
}

// 10 and 11: a replace-text repairs one whole broken reference, or it does not run.
#[test]
fn replace_text_repairs_only_whole_broken_references() {
    let f = fixture(true);
    let r = &f.root;
    write(r, "legacy/src/config.rs", "fn main() {}\n");
    write(r, "src/settings.rs", "fn main() {}\n");
    let doc = "# Map\nconfig lives in `legacy/src/config.rs`\nsee `src/gone.rs` now\nmoved from `src/gone.rs` to `src/settings.rs`\nsee `src/gone.rs`\n";
    write(r, "map.md", doc);
    commit_all(r);
    let s = sha256_hex(doc.as_bytes());
    let swap = |line: u32, m: &str, to: &str| {
        entry(
            "map.md",
            json!({"kind": "replace-text", "anchor": lines(line, line), "match": m, "replacement": to, "expected_sha256": s}),
        )
    };
    let entries = vec![
        // inside a longer path
        swap(2, "src/config.rs", "src/settings.rs"),
        // to a path that does not exist
        swap(3, "src/gone.rs", "src/nowhere.rs"),
        // a line that records the move
        swap(4, "src/gone.rs", "src/settings.rs"),
        // the one real repair
        swap(5, "src/gone.rs", "src/settings.rs"),
    ];
    write_report(r, LATER, &entries);
    let (code, v) = apply(r, &["--tier", "auto"]);
    assert_eq!(code, 1, "{v:#}");
    assert!(outcome(&v, 0).1.contains("longer reference"), "{v:#}");
    assert!(outcome(&v, 1).1.contains("does not resolve"), "{v:#}");
    assert!(outcome(&v, 2).1.contains("records the move"), "{v:#}");
    assert_eq!(outcome(&v, 3).0, "applied", "{v:#}");
    assert_eq!(
        read(r, "map.md"),
        doc.replace("see `src/gone.rs`\n", "see `src/settings.rs`\n")
    );
    // Prose is never a replace-text: "Never" -> "Always" makes the report invalid whole.
    write(r, "rules.md", "# Rules\nNever push to main.\n");
    write_report(
        r,
        LATER,
        &[entry(
            "rules.md",
            json!({"kind": "replace-text", "anchor": lines(2, 2), "match": "Never", "replacement": "Always", "expected_sha256": sha256_hex(b"# Rules\nNever push to main.\n")}),
        )],
    );
    let (code, v) = apply(r, &["--tier", "auto"]);
    assert_eq!(code, 1);
    assert!(
        v["refused"]
            .as_str()
            .unwrap()
            .contains("[replace-text-swaps]"),
        "{v:#}"
    );
    assert_eq!(read(r, "rules.md"), "# Rules\nNever push to main.\n");
}

// 12: a generative entry is fingerprinted like an exact edit.
#[test]
fn generative_targets_are_guarded_by_their_check_time_fingerprint() {
    let f = fixture(true);
    let r = &f.root;
    write(r, "long.md", "# Long\nway too long\n");
    commit_all(r);
    write_report(r, LATER, &[generative_entry("long.md")]);
    let proposal = f.outside.join("p.md");
    std::fs::write(&proposal, "# Long\nshort\n").unwrap();
    let p = proposal.to_str().unwrap();
    // The user's edit lands after the check but keeps an mtime before it (the same second, or a
    // copy with an old time): only the fingerprint sees it.
    write(
        r,
        "long.md",
        "# Long\nway too long\nand the user's new line\n",
    );
    let old = std::time::SystemTime::now() - std::time::Duration::from_secs(3600);
    std::fs::OpenOptions::new()
        .write(true)
        .open(r.join("long.md"))
        .unwrap()
        .set_modified(old)
        .unwrap();
    let (code, v) = apply(r, &["--entry", "0", "--approve", "--proposal", p]);
    assert_eq!(code, 1, "{v:#}");
    assert!(
        outcome(&v, 0).1.contains("changed since the check"),
        "{v:#}"
    );
    assert_eq!(
        read(r, "long.md"),
        "# Long\nway too long\nand the user's new line\n"
    );
    // Without the sidecar no fingerprint vouches for the target: refused too.
    write(r, "long.md", "# Long\nway too long\n");
    std::fs::remove_file(r.join(".hygiene/report.json.fingerprints.json")).unwrap();
    let (code, v) = apply(r, &["--entry", "0", "--approve", "--proposal", p]);
    assert_eq!(code, 1, "{v:#}");
    assert!(
        outcome(&v, 0).1.contains("no check-time fingerprint"),
        "{v:#}"
    );
}

// 13: an approval names the edit the user saw, not an index.
#[test]
fn an_approval_never_applies_an_edit_the_user_did_not_see() {
    let f = fixture(true);
    let r = &f.root;
    let dr = "# DR\nkeep\ndrop\n";
    write(r, "dr.md", dr);
    write(r, "other.md", "# Other\nprecious line\n");
    commit_all(r);
    write_report(
        r,
        LATER,
        &[entry(
            "dr.md",
            json!({"kind": "delete-range", "anchor": lines(3, 3), "expected_sha256": sha256_hex(dr.as_bytes())}),
        )],
    );
    let (_, dry) = apply(r, &["--entry", "0", "--dry-run"]);
    let token = dry["results"][0]["approve"].as_str().unwrap().to_string();
    assert_eq!(token.len(), 12);
    // The report is regenerated; entry 0 is now another edit.
    write_report(
        r,
        LATER,
        &[entry(
            "other.md",
            json!({"kind": "delete-range", "anchor": lines(2, 2), "expected_sha256": sha256_hex(b"# Other\nprecious line\n")}),
        )],
    );
    let (code, v) = apply(r, &["--entry", "0", "--approve", &token]);
    assert_eq!(code, 1, "{v:#}");
    assert!(
        v["refused"]
            .as_str()
            .unwrap()
            .contains("does not name this edit"),
        "{v:#}"
    );
    assert_eq!(read(r, "other.md"), "# Other\nprecious line\n");
    // No approval at all is a usage error, not an apply.
    let (code, _, err) = run(r, &["apply", "--entry", "0"], &[]);
    assert_eq!(code, 2, "{err}");
    assert_eq!(read(r, "other.md"), "# Other\nprecious line\n");
}

// 15: the auto tier, then approvals one by one (or together), all land on one file.
#[test]
fn approved_entries_apply_on_top_of_the_auto_batch_of_the_same_report() {
    let f = fixture(true);
    let r = &f.root;
    let doc = "# Claude\nsee `docs/old.md`\nkeep\nTODO one\nkeep\nTODO two\nkeep\nTODO three\n";
    write(r, "CLAUDE.md", doc);
    write(r, "docs/new.md", "# New\n");
    commit_all(r);
    let s = sha256_hex(doc.as_bytes());
    let entries = vec![
        entry(
            "CLAUDE.md",
            json!({"kind": "replace-text", "anchor": lines(2, 2), "match": "docs/old.md", "replacement": "docs/new.md", "expected_sha256": s}),
        ),
        entry(
            "CLAUDE.md",
            json!({"kind": "delete-range", "anchor": lines(4, 4), "expected_sha256": s}),
        ),
        entry(
            "CLAUDE.md",
            json!({"kind": "delete-range", "anchor": lines(6, 6), "expected_sha256": s}),
        ),
        entry(
            "CLAUDE.md",
            json!({"kind": "delete-range", "anchor": lines(8, 8), "expected_sha256": s}),
        ),
    ];
    write_report(r, LATER, &entries);
    assert_eq!(apply(r, &["--tier", "auto"]).0, 0);
    let (code, v) = apply(r, &["--entry", "2", "--approve"]);
    assert_eq!(code, 0, "{v:#}");
    // Two more in one batch, with the tokens their dry runs show.
    let token = |n: &str| {
        let (_, d) = apply(r, &["--entry", n, "--dry-run"]);
        d["results"].as_array().unwrap()[0]["approve"]
            .as_str()
            .unwrap()
            .to_string()
    };
    let (t1, t3) = (token("1"), token("3"));
    let (code, v) = apply(
        r,
        &[
            "--entry",
            "1",
            "--approve",
            &t1,
            "--entry",
            "3",
            "--approve",
            &t3,
        ],
    );
    assert_eq!(code, 0, "{v:#}");
    assert_eq!(
        read(r, "CLAUDE.md"),
        "# Claude\nsee `docs/new.md`\nkeep\nkeep\nkeep\n"
    );
    // Three batches; undone newest first, every byte comes back.
    for _ in 0..3 {
        assert_eq!(undo(r).0, 0);
    }
    assert_eq!(read(r, "CLAUDE.md"), doc);
    // A user's own edit in between is not explained by the journal: refused.
    assert_eq!(apply(r, &["--tier", "auto"]).0, 0);
    write(
        r,
        "CLAUDE.md",
        &format!("{}user line\n", read(r, "CLAUDE.md")),
    );
    let (code, v) = apply(r, &["--entry", "1", "--approve"]);
    assert_eq!(code, 1, "{v:#}");
    assert!(
        outcome(&v, 1).1.contains("changed since the check"),
        "{v:#}"
    );
}

// 16: undo verifies every blob before it writes, and resumes after a kill.
#[test]
fn undo_checks_every_blob_first_and_resumes_after_a_kill() {
    let f = fixture(true);
    let r = &f.root;
    let mut entries = Vec::new();
    let mut files = Vec::new();
    write(r, "docs/new.md", "# New\n");
    for i in 0..12 {
        let rel = format!("d/f{i:02}.md");
        let text = format!("# F{i}\nsee `docs/old.md`\n");
        write(r, &rel, &text);
        entries.push(entry(&rel, json!({"kind": "replace-text", "anchor": lines(2, 2), "match": "docs/old.md", "replacement": "docs/new.md", "expected_sha256": sha256_hex(text.as_bytes())})));
        files.push((rel, text));
    }
    commit_all(r);
    write_report(r, LATER, &entries);
    assert_eq!(apply(r, &["--tier", "auto"]).0, 0);
    let applied = without_hygiene(snapshot(r));
    // A damaged blob: refused before anything is restored.
    let blob = r.join(".hygiene/journal/000001/blobs/5");
    let good = std::fs::read(&blob).unwrap();
    std::fs::write(&blob, b"damaged").unwrap();
    let (code, out) = undo(r);
    assert_eq!(code, 1);
    assert_eq!(without_hygiene(snapshot(r)), applied, "{out}");
    std::fs::write(&blob, &good).unwrap();
    // Killed after five restores: half the files are back.
    let (code, _, _) = run(r, &["undo"], &[("HYGIENE_ABORT_AFTER_WRITES", "5")]);
    assert_eq!(code, -1, "killed by a signal");
    let back = files.iter().filter(|(rel, t)| read(r, rel) == *t).count();
    assert_eq!(back, 5);
    // A stale temporary file of the killed writer beside a journaled file.
    write(r, "d/.f07.md.hygiene-tmp-424242-0", "half written\n");
    let (code, u) = undo(r);
    assert_eq!(code, 0, "{u:#}");
    for (rel, t) in &files {
        assert_eq!(read(r, rel), *t, "{rel}");
    }
    assert!(!r.join("d/.f07.md.hygiene-tmp-424242-0").exists());
}

// 17: a proposal must be a document.
#[test]
fn bad_proposals_are_refused_whole() {
    let f = fixture(true);
    let r = &f.root;
    write(r, "long.md", "# Long\nway too long\n");
    commit_all(r);
    write_report(r, LATER, &[generative_entry("long.md")]);
    let cases: [(&str, Vec<u8>, &str); 5] = [
        (
            "binary.md",
            vec![0x89, b'P', b'N', b'G', 0, 1, 2],
            "NUL byte",
        ),
        (
            "latin1.md",
            vec![b'c', b'a', b'f', 0xe9, b'\n'],
            "not UTF-8",
        ),
        ("empty.md", Vec::new(), "empty"),
        ("blank.md", b" \n\n \t\n".to_vec(), "empty"),
        ("huge.md", vec![b'a'; 3 * 1024 * 1024], "limit"),
    ];
    for (name, bytes, want) in cases {
        let p = f.outside.join(name);
        std::fs::write(&p, &bytes).unwrap();
        let (code, out, err) = run(
            r,
            &[
                "apply",
                "--entry",
                "0",
                "--approve",
                "x",
                "--proposal",
                p.to_str().unwrap(),
                "--format",
                "json",
            ],
            &[],
        );
        assert_eq!(code, 1, "{name}: {out}{err}");
        assert!(out.contains(want), "{name}: {out}");
        assert_eq!(read(r, "long.md"), "# Long\nway too long\n", "{name}");
    }
}

// 18: undo gives back the permission bits, and the journal's copies are the user's alone.
#[cfg(unix)]
#[test]
fn undo_restores_modes_and_journal_copies_are_private() {
    use std::os::unix::fs::PermissionsExt;
    let f = fixture(true);
    let r = &f.root;
    rulebook(
        r,
        json!([{"id": "served", "match": "file", "glob": "secret.md", "lifetime": "delete-once-served", "served_when_path": "done.txt"}]),
    );
    write(r, "secret.md", "# Private notes\n");
    write(r, "done.txt", "x\n");
    std::fs::set_permissions(r.join("secret.md"), std::fs::Permissions::from_mode(0o600)).unwrap();
    commit_all(r);
    let served = json!({"rule_ref": "served", "lifetime": "delete-once-served", "served_when_path": "done.txt"});
    write_report(
        r,
        LATER,
        &[entry(
            "secret.md",
            json!({"kind": "delete", "anchor": {"whole": "file"}, "lifecycle": served, "expected_sha256": sha256_hex(b"# Private notes\n")}),
        )],
    );
    assert_eq!(apply(r, &["--tier", "auto"]).0, 0);
    assert!(!r.join("secret.md").exists());
    let batch = r.join(".hygiene/journal/000001");
    let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode(&batch), 0o700);
    assert_eq!(mode(&batch.join("blobs/0")), 0o600);
    assert_eq!(mode(&batch.join("manifest.json")), 0o600);
    assert_eq!(undo(r).0, 0);
    assert_eq!(read(r, "secret.md"), "# Private notes\n");
    assert_eq!(mode(&r.join("secret.md")), 0o600);
}

// 19: a FIFO where git or the walker reads ignore rules never hangs the helper; the file
// system root is never written.
#[cfg(unix)]
#[test]
fn fifos_named_like_ignore_files_never_hang_and_the_file_system_root_is_never_written() {
    let f = fixture(true);
    let r = &f.root;
    renamed_reference(r);
    write(r, "sub/doc.md", "# Sub\n");
    let mkfifo = |p: &Path| {
        let _ = std::fs::remove_file(p);
        assert!(Command::new("mkfifo").arg(p).status().unwrap().success());
    };
    for fifo in [".gitignore", "sub/.ignore", ".git/info/exclude"] {
        mkfifo(&r.join(fifo));
        for args in [
            &["scan", "--format", "human"][..],
            &["check", "--accept-suggestions"][..],
            &["sweep"][..],
        ] {
            let out = Command::new("timeout")
                .arg("60")
                .arg(BIN)
                .arg(args[0])
                .arg("--root")
                .arg(r)
                .args(&args[1..])
                .output()
                .unwrap();
            assert_ne!(out.status.code(), Some(124), "{fifo}: {args:?} hung");
            assert_eq!(out.status.code(), Some(0), "{fifo}: {args:?}");
        }
        std::fs::remove_file(r.join(fifo)).unwrap();
    }
    // A report made for `/`: refused before any write.
    let report = json!({"schema_version": 1, "tool_version": "0", "generated_at": LATER,
        "scan": {"project_root": "/", "scope_globs": [], "excluded_dirs": [], "files_scanned": 0},
        "shortlist": [], "entries": [], "promotion_candidates": []});
    let p = f.outside.join("root-report.json");
    std::fs::write(&p, report.to_string()).unwrap();
    let (code, out, _) = run(
        Path::new("/"),
        &[
            "apply",
            "--tier",
            "auto",
            "--report",
            p.to_str().unwrap(),
            "--format",
            "json",
        ],
        &[],
    );
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("file system root"), "{out}");
}

// The contract read closely: an entry that cites a lifecycle signal carries its object.
#[test]
fn an_entry_citing_the_lifecycle_signal_needs_the_lifecycle_object() {
    let f = fixture(true);
    let r = &f.root;
    write(r, "a.md", "# A\nx\n");
    commit_all(r);
    let mut e = entry(
        "a.md",
        json!({"kind": "delete-range", "anchor": lines(2, 2), "expected_sha256": sha256_hex(b"# A\nx\n")}),
    );
    e["signals"] = json!([{"kind": "lifecycle"}]);
    let p = write_report(r, LATER, &[e]);
    let (code, out, _) = run(r, &["validate", p.to_str().unwrap()], &[]);
    assert_eq!(code, 1);
    assert!(out.contains("[lifecycle-signal]"), "{out}");
}

/// `hygiene validate` with the report's own repository: a promotion candidate left out is found.
#[test]
fn a_report_missing_a_promotion_candidate_is_invalid_for_its_repository() {
    let golden: Value = serde_json::from_str(
        &std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/examples/golden/valid-report.json"
        ))
        .unwrap(),
    )
    .unwrap();
    let t = tempfile::tempdir().unwrap();
    let root = t.path().canonicalize().unwrap();
    let mut v = golden.clone();
    v["scan"]["project_root"] = json!(root.display().to_string());
    let p = root.join("r.json");
    std::fs::write(&p, v.to_string()).unwrap();
    let (code, out, err) = run(&root, &["validate", p.to_str().unwrap()], &[]);
    assert_eq!(code, 0, "{out}{err}");
    v["promotion_candidates"] = json!([]);
    std::fs::write(&p, v.to_string()).unwrap();
    let (code, out, _) = run(&root, &["validate", p.to_str().unwrap()], &[]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("missing") && out.contains("[promotion-candidate-source]"),
        "{out}"
    );
    // Adopting the convention makes the empty list right.
    let adopted = golden["promotion_candidates"][0]["convention"]
        .as_str()
        .unwrap();
    write(
        &root,
        ".hygiene/conventions.json",
        &json!({"adopted": [adopted]}).to_string(),
    );
    let (code, out, _) = run(&root, &["validate", p.to_str().unwrap()], &[]);
    assert_eq!(code, 0, "{out}");
}

// 16: a block a tool manages between marker comments is never edited by an auto batch, even
// when a report says the edit is auto: in the tool's own repository it is what it installs.
#[test]
fn a_managed_block_is_never_edited_by_an_auto_batch() {
    let f = fixture(true);
    let r = &f.root;
    let block = "Run the migrations before the tests, or the schema check fails on a fresh clone\n";
    write(r, "CLAUDE.md", &format!("# Claude\n{block}"));
    let rule = format!("# Rule\n<!-- OMC:START -->\n{block}<!-- OMC:END -->\n");
    write(r, ".claude/rules/db.md", &rule);
    commit_all(r);
    write_report(
        r,
        LATER,
        &[entry(
            ".claude/rules/db.md",
            json!({"kind": "dedupe", "anchor": lines(3, 3), "canonical_ref": "CLAUDE.md:2-2", "expected_sha256": sha256_hex(rule.as_bytes())}),
        )],
    );
    let (code, v) = apply(r, &["--tier", "auto"]);
    assert_eq!(code, 1, "{v:#}");
    assert!(outcome(&v, 0).1.contains("[auto-managed-block]"), "{v:#}");
    assert_eq!(read(r, ".claude/rules/db.md"), rule);
}
