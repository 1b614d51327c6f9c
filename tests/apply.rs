//! `hygiene apply` and `hygiene undo` against real files, real git repositories and the real
//! binary. Every report is written by hand; every fingerprint and every expected file is
//! computed here (sha2 directly, expected bytes as literals), never read back from the helper.

mod common;
use common::cli::*;
use common::{read, sha256_hex, snapshot, without_hygiene, write};
use serde_json::{json, Value};
use std::path::Path;
use std::process::Command;

// ---------------------------------------------------------------------------------------------

const DR: &str = "# DR\r\nkeep 1\r\ndrop 2\r\ndrop 3\r\nkeep 4";
const MV: &str = "# MV\nintro\nold a\nold b\noutro\n";
const FM: &str = "# FM\nbody\n";
const FM2: &str = "---\r\ntitle: x\r\n---\r\nbody\r\n";
const RT: &str = "# RT\nsee docs/old.md and docs/old.md\nnot docs/old.md here\n";
/// A nested `CLAUDE.md` repeating a paragraph of the root one (loaded every session): the one
/// dedupe every reader survives.
const DD: &str = "# DD\nown text\n\nshared   line one\n  shared line two\n\nend\n";
const CANON: &str = "# Canon\nshared line one\nshared line\ttwo\nmore\n";
const PLAN: &str = "# Plan\nsteps\n## Decisions\nuse X because Y\n";
const DECISIONS: &str = "# Decisions\nold decision\n";

#[test]
fn each_kind_applies_byte_for_byte_and_undo_restores() {
    let f = fixture(true);
    let r = &f.root;
    write(r, "dr.md", DR);
    write(r, "mv.md", MV);
    write(r, "fm.md", FM);
    write(r, "fm2.md", FM2);
    write(r, "rt.md", RT);
    write(r, "pkg/CLAUDE.md", DD);
    write(r, "CLAUDE.md", CANON);
    write(r, "gone.md", "served\n");
    write(r, "done.txt", "marker\n");
    write(r, "scratch/a.md", "a\n");
    write(r, "scratch/sub/b.md", "b\n");
    write(r, "plan.md", PLAN);
    write(r, "docs/decisions.md", DECISIONS);
    write(r, "docs/new.md", "# New\n");
    rulebook(
        r,
        json!([
            {"id": "served", "match": "file", "glob": "{gone.md,plan.md}", "lifetime": "delete-once-served", "served_when_path": "done.txt"},
            {"id": "old-scratch", "match": "dir", "glob": "scratch", "lifetime": "temporary", "max_age_days": 1}
        ]),
    );
    commit_old(r);
    let before = snapshot(r);
    let dir_digest = sha256_hex(
        format!(
            "{}  a.md\n{}  sub/b.md\n",
            sha256_hex(b"a\n"),
            sha256_hex(b"b\n")
        )
        .as_bytes(),
    );
    let served = json!({"rule_ref": "served", "lifetime": "delete-once-served", "served_when_path": "done.txt"});
    let temporary = json!({"rule_ref": "old-scratch", "lifetime": "temporary"});
    let entries = vec![
        entry(
            "dr.md",
            json!({"kind": "delete-range", "anchor": lines(3, 4), "expected_sha256": sha256_hex(DR.as_bytes())}),
        ),
        entry(
            "mv.md",
            json!({"kind": "move-to-archive", "anchor": lines(3, 4), "dest_path": "archive/old/notes.md", "expected_sha256": sha256_hex(MV.as_bytes())}),
        ),
        entry(
            "fm.md",
            json!({"kind": "insert-frontmatter", "key": "hygiene", "value": "frozen", "expected_sha256": sha256_hex(FM.as_bytes())}),
        ),
        entry(
            "fm2.md",
            json!({"kind": "insert-frontmatter", "key": "hygiene", "value": "frozen", "expected_sha256": sha256_hex(FM2.as_bytes())}),
        ),
        entry(
            "rt.md",
            json!({"kind": "replace-text", "anchor": lines(2, 2), "match": "docs/old.md", "replacement": "docs/new.md", "expected_sha256": sha256_hex(RT.as_bytes())}),
        ),
        entry(
            "pkg/CLAUDE.md",
            json!({"kind": "dedupe", "anchor": lines(4, 5), "canonical_ref": "CLAUDE.md:2-3", "expected_sha256": sha256_hex(DD.as_bytes())}),
        ),
        entry(
            "gone.md",
            json!({"kind": "delete", "anchor": {"whole": "file"}, "lifecycle": served, "expected_sha256": sha256_hex(b"served\n")}),
        ),
        entry(
            "scratch",
            json!({"kind": "delete", "anchor": {"whole": "directory"}, "lifecycle": temporary, "expected_sha256": dir_digest}),
        ),
        entry(
            "plan.md",
            json!({"kind": "extract-then-delete", "anchor": lines(3, 4), "lifecycle": served, "extraction_target": "repo-durable", "target_path": "docs/decisions.md", "expected_sha256": sha256_hex(PLAN.as_bytes())}),
        ),
    ];
    write_report(r, LATER, &entries);

    let (code, v) = apply(r, &["--tier", "auto"]);
    assert_eq!(code, 0, "{v:#}");
    assert_eq!(outcome(&v, 0).0, "skipped", "delete-range is confirm");
    for i in 1..entries.len() {
        assert_eq!(outcome(&v, i).0, "applied", "entry {i}: {v:#}");
    }
    assert_eq!(
        read(r, "dr.md"),
        DR,
        "a confirm entry is untouched by --tier auto"
    );
    assert_eq!(read(r, "mv.md"), "# MV\nintro\noutro\n");
    assert_eq!(read(r, "archive/old/notes.md"), "old a\nold b\n");
    assert_eq!(read(r, "fm.md"), "---\nhygiene: frozen\n---\n# FM\nbody\n");
    assert_eq!(
        read(r, "fm2.md"),
        "---\r\ntitle: x\r\nhygiene: frozen\r\n---\r\nbody\r\n"
    );
    assert_eq!(
        read(r, "rt.md"),
        "# RT\nsee docs/new.md and docs/new.md\nnot docs/old.md here\n"
    );
    // The copy goes with one of the blank lines around it.
    assert_eq!(read(r, "pkg/CLAUDE.md"), "# DD\nown text\n\nend\n");
    assert_eq!(read(r, "CLAUDE.md"), CANON);
    assert!(!r.join("gone.md").exists());
    assert!(!r.join("scratch").exists());
    assert!(!r.join("plan.md").exists());
    assert_eq!(
        read(r, "docs/decisions.md"),
        "# Decisions\nold decision\n\n## From plan.md (lines 3-4)\n\n## Decisions\nuse X because Y\n"
    );

    // The confirm entry, approved: CRLF kept, no final newline kept.
    let (code, v) = apply(r, &["--entry", "0", "--approve"]);
    assert_eq!(code, 0, "{v:#}");
    assert_eq!(read(r, "dr.md"), "# DR\r\nkeep 1\r\nkeep 4");

    // Re-applying an entry of the same report is recognised: the journal shows it applied.
    let (code, v) = apply(r, &["--entry", "4", "--approve"]);
    assert_eq!(code, 0, "{v:#}");
    assert_eq!(
        outcome(&v, 4),
        ("skipped".into(), "already applied in batch 000001".into())
    );

    // Two undos: the approved entry, then the auto batch; every byte as before.
    assert_eq!(undo(r).0, 0);
    assert_eq!(read(r, "dr.md"), DR);
    let (code, u) = undo(r);
    assert_eq!(code, 0, "{u:#}");
    assert_eq!(without_hygiene(snapshot(r)), without_hygiene(before));
    // Nothing left to undo.
    assert_eq!(undo(r).0, 1);
}

#[test]
fn generative_and_cross_repo_entries_need_their_flags() {
    let f = fixture(true);
    let r = &f.root;
    write(r, "long.md", "# Long\nway too long\n");
    write(r, "handoff.md", "# Handoff\nlearned: Z\nnoise\n");
    rulebook(
        r,
        json!([{"id": "notes", "match": "file", "glob": "handoff.md", "lifetime": "temporary", "max_age_days": 1}]),
    );
    commit_old(r);
    let served = json!({"rule_ref": "notes", "lifetime": "temporary"});
    let entries = vec![
        generative_entry("long.md"),
        entry(
            "handoff.md",
            json!({"kind": "extract-then-delete", "anchor": lines(2, 2), "lifecycle": served, "extraction_target": "cross-repo", "expected_sha256": sha256_hex(b"# Handoff\nlearned: Z\nnoise\n")}),
        ),
    ];
    write_report(r, LATER, &entries);
    let proposal = f.outside.join("proposal.md");
    std::fs::write(&proposal, "# Long\nshort\n").unwrap();
    let p = proposal.to_str().unwrap();

    // The auto batch skips both (confirm).
    let (code, v) = apply(r, &["--tier", "auto"]);
    assert_eq!(code, 0);
    assert_eq!(outcome(&v, 0).0, "skipped");
    assert_eq!(outcome(&v, 1).0, "skipped");
    // Usage errors: generative without proposal, deterministic with one, cross-repo without
    // --extract-to.
    assert_eq!(
        hygiene(r, &["apply", "--entry", "0", "--approve"])
            .status
            .code(),
        Some(2)
    );
    assert_eq!(
        hygiene(r, &["apply", "--entry", "1", "--approve", "--proposal", p])
            .status
            .code(),
        Some(2)
    );
    assert_eq!(
        hygiene(r, &["apply", "--entry", "1", "--approve"])
            .status
            .code(),
        Some(2)
    );
    assert_eq!(
        hygiene(r, &["apply", "--entry", "0"]).status.code(),
        Some(2),
        "no --approve"
    );

    let (code, v) = apply(r, &["--entry", "0", "--approve", "--proposal", p]);
    assert_eq!(code, 0, "{v:#}");
    assert_eq!(read(r, "long.md"), "# Long\nshort\n");

    // --extract-to inside the repository is refused; outside, the span lands, then the source
    // is deleted.
    let inside = r.join("x.md");
    let (code, v) = apply(
        r,
        &[
            "--entry",
            "1",
            "--approve",
            "--extract-to",
            inside.to_str().unwrap(),
        ],
    );
    assert_eq!(code, 1, "{v:#}");
    assert!(r.join("handoff.md").exists() && !inside.exists());
    let dest = f.outside.join("learned.md");
    let (code, v) = apply(
        r,
        &[
            "--entry",
            "1",
            "--approve",
            "--extract-to",
            dest.to_str().unwrap(),
        ],
    );
    assert_eq!(code, 0, "{v:#}");
    assert_eq!(
        std::fs::read_to_string(&dest).unwrap(),
        "## From handoff.md (lines 2-2)\n\nlearned: Z\n"
    );
    assert!(!r.join("handoff.md").exists());
    // Undo brings the source back and removes the file it created outside.
    assert_eq!(undo(r).0, 0);
    assert_eq!(read(r, "handoff.md"), "# Handoff\nlearned: Z\nnoise\n");
    assert!(!dest.exists());
}

#[test]
fn a_failed_extraction_deletes_nothing() {
    let f = fixture(true);
    let r = &f.root;
    write(r, "plan.md", PLAN);
    write(r, "done.txt", "x\n");
    // The target is a directory: the extraction cannot land.
    std::fs::create_dir_all(r.join("docs/decisions.md")).unwrap();
    write(r, "docs/decisions.md/keep", "k\n");
    rulebook(
        r,
        json!([{"id": "served", "match": "file", "glob": "plan.md", "lifetime": "delete-once-served", "served_when_path": "done.txt"}]),
    );
    commit_all(r);
    let served = json!({"rule_ref": "served", "lifetime": "delete-once-served", "served_when_path": "done.txt"});
    write_report(
        r,
        LATER,
        &[entry(
            "plan.md",
            json!({"kind": "extract-then-delete", "anchor": lines(3, 4), "lifecycle": served, "extraction_target": "repo-durable", "target_path": "docs/decisions.md", "expected_sha256": sha256_hex(PLAN.as_bytes())}),
        )],
    );
    let before = without_hygiene(snapshot(r));
    let (code, v) = apply(r, &["--tier", "auto"]);
    assert_eq!(code, 1, "{v:#}");
    assert_eq!(outcome(&v, 0).0, "refused");
    assert_eq!(without_hygiene(snapshot(r)), before);
}

#[test]
fn entries_on_one_file_apply_bottom_up_and_overlaps_are_refused() {
    let f = fixture(true);
    let r = &f.root;
    // A nested CLAUDE.md whose paragraph at lines 6-7 repeats the root one's.
    let doc = "l1 see docs/old.md\nl2\nl3\nl4\n\nl5 dup\nl6 dup\n\nl8 move\nl9 move\nl10 see docs/old.md\n";
    write(r, "pkg/CLAUDE.md", doc);
    write(r, "CLAUDE.md", "l5   dup\nl6 dup\n");
    write(r, "docs/new.md", "# New\n");
    commit_all(r);
    let s = sha256_hex(doc.as_bytes());
    let entries = vec![
        entry(
            "pkg/CLAUDE.md",
            json!({"kind": "replace-text", "anchor": lines(1, 1), "match": "docs/old.md", "replacement": "docs/new.md", "expected_sha256": s}),
        ),
        entry(
            "pkg/CLAUDE.md",
            json!({"kind": "dedupe", "anchor": lines(6, 7), "canonical_ref": "CLAUDE.md:1-2", "expected_sha256": s}),
        ),
        entry(
            "pkg/CLAUDE.md",
            json!({"kind": "move-to-archive", "anchor": lines(9, 10), "dest_path": "archive.md", "expected_sha256": s}),
        ),
        entry(
            "pkg/CLAUDE.md",
            json!({"kind": "replace-text", "anchor": lines(11, 11), "match": "docs/old.md", "replacement": "docs/new.md", "expected_sha256": s}),
        ),
        // Overlaps the move (9-10): refused, whatever the order.
        entry(
            "pkg/CLAUDE.md",
            json!({"kind": "move-to-archive", "anchor": lines(10, 11), "dest_path": "archive3.md", "expected_sha256": s}),
        ),
        entry(
            "pkg/CLAUDE.md",
            json!({"kind": "insert-frontmatter", "key": "owner", "value": "docs team", "expected_sha256": s}),
        ),
        // Removes the copy the dedupe keeps: the dedupe is ordered first, so this one is refused.
        entry(
            "CLAUDE.md",
            json!({"kind": "move-to-archive", "anchor": lines(1, 2), "dest_path": "archive2.md", "expected_sha256": sha256_hex(b"l5   dup\nl6 dup\n")}),
        ),
    ];
    write_report(r, LATER, &entries);
    let (code, v) = apply(r, &["--tier", "auto"]);
    assert_eq!(code, 1, "{v:#}");
    for i in [0, 1, 2, 3, 5] {
        assert_eq!(outcome(&v, i).0, "applied", "entry {i}: {v:#}");
    }
    assert_eq!(outcome(&v, 4).0, "refused");
    let (o, why) = outcome(&v, 6);
    assert_eq!(o, "refused");
    assert!(why.contains("dedupe"), "{why}");
    assert_eq!(
        read(r, "pkg/CLAUDE.md"),
        "---\nowner: docs team\n---\nl1 see docs/new.md\nl2\nl3\nl4\n\nl10 see docs/new.md\n"
    );
    assert_eq!(read(r, "archive.md"), "l8 move\nl9 move\n");
    assert_eq!(read(r, "CLAUDE.md"), "l5   dup\nl6 dup\n");
    assert!(!r.join("archive2.md").exists() && !r.join("archive3.md").exists());
}

/// Two renamed references on one line are two one-line rewrites of it: no line moves, so both
/// apply (each still checks its own text is there). An edit that moves lines over that line
/// after them is still refused.
#[test]
fn two_rewrites_of_one_line_both_apply_and_a_later_move_over_it_is_refused() {
    let f = fixture(true);
    let r = &f.root;
    let doc = "l1\nsee docs/old.md and tests/old.py\nl3\n";
    write(r, "pkg/CLAUDE.md", doc);
    write(r, "docs/new.md", "# New\n");
    write(r, "tests/new.py", "x = 1\n");
    commit_all(r);
    let s = sha256_hex(doc.as_bytes());
    let entries = vec![
        entry(
            "pkg/CLAUDE.md",
            json!({"kind": "replace-text", "anchor": lines(2, 2), "match": "docs/old.md", "replacement": "docs/new.md", "expected_sha256": s}),
        ),
        entry(
            "pkg/CLAUDE.md",
            json!({"kind": "replace-text", "anchor": lines(2, 2), "match": "tests/old.py", "replacement": "tests/new.py", "expected_sha256": s}),
        ),
        entry(
            "pkg/CLAUDE.md",
            json!({"kind": "move-to-archive", "anchor": lines(1, 2), "dest_path": "archive.md", "expected_sha256": s}),
        ),
    ];
    write_report(r, LATER, &entries);
    let (code, v) = apply(r, &["--tier", "auto"]);
    assert_eq!(code, 1, "{v:#}");
    assert_eq!(outcome(&v, 0).0, "applied", "{v:#}");
    assert_eq!(outcome(&v, 1).0, "applied", "{v:#}");
    assert_eq!(outcome(&v, 2).0, "refused", "{v:#}");
    assert_eq!(
        read(r, "pkg/CLAUDE.md"),
        "l1\nsee docs/new.md and tests/new.py\nl3\n"
    );
    assert!(!r.join("archive.md").exists());
}

#[test]
fn edits_after_the_report_are_refused_and_files_unchanged() {
    let f = fixture(true);
    let r = &f.root;
    write(r, "a.md", MV);
    write(r, "b.md", RT);
    write(r, "c.md", FM);
    write(r, "d/CLAUDE.md", DD);
    write(r, "CLAUDE.md", CANON);
    write(r, "e.md", "served\n");
    write(r, "done.txt", "x\n");
    write(r, "g.md", "# G\nsee docs/old.md\n");
    write(r, "docs/new.md", "# New\n");
    rulebook(
        r,
        json!([{"id": "served", "match": "file", "glob": "e.md", "lifetime": "delete-once-served", "served_when_path": "done.txt"}]),
    );
    commit_all(r);
    let served = json!({"rule_ref": "served", "lifetime": "delete-once-served", "served_when_path": "done.txt"});
    let entries = vec![
        entry(
            "a.md",
            json!({"kind": "move-to-archive", "anchor": lines(3, 4), "dest_path": "arch.md", "expected_sha256": sha256_hex(MV.as_bytes())}),
        ),
        entry(
            "b.md",
            json!({"kind": "replace-text", "anchor": lines(2, 2), "match": "docs/old.md", "replacement": "docs/new.md", "expected_sha256": sha256_hex(RT.as_bytes())}),
        ),
        entry(
            "c.md",
            json!({"kind": "insert-frontmatter", "key": "hygiene", "value": "frozen", "expected_sha256": sha256_hex(FM.as_bytes())}),
        ),
        entry(
            "d/CLAUDE.md",
            json!({"kind": "dedupe", "anchor": lines(4, 5), "canonical_ref": "CLAUDE.md:2-3", "expected_sha256": sha256_hex(DD.as_bytes())}),
        ),
        entry(
            "e.md",
            json!({"kind": "delete", "anchor": {"whole": "file"}, "lifecycle": served, "expected_sha256": sha256_hex(b"served\n")}),
        ),
        entry(
            "g.md",
            json!({"kind": "replace-text", "anchor": lines(2, 2), "match": "docs/old.md", "replacement": "docs/new.md", "expected_sha256": sha256_hex(b"# G\nsee docs/old.md\n")}),
        ),
    ];
    // The check ran an hour ago.
    let past = std::time::SystemTime::now() - std::time::Duration::from_secs(3600);
    let secs = past
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs() as i64;
    write_report(r, &hygiene::time::format_utc(secs), &entries);
    // Each target edited after the check (an edit at the top, so anchors would still "fit");
    // g.md keeps its bytes but is touched, so only the mtime fence can catch it.
    // Their mtimes are set back before the check, so only the fingerprint can catch them.
    let two_hours_ago = std::time::SystemTime::now() - std::time::Duration::from_secs(7200);
    for p in ["a.md", "b.md", "c.md", "d/CLAUDE.md", "e.md"] {
        let old = read(r, p);
        write(r, p, &format!("user edit\n{old}"));
        let h = std::fs::OpenOptions::new()
            .write(true)
            .open(r.join(p))
            .unwrap();
        h.set_modified(two_hours_ago).unwrap();
    }
    let g = std::fs::OpenOptions::new()
        .write(true)
        .open(r.join("g.md"))
        .unwrap();
    g.set_modified(std::time::SystemTime::now()).unwrap();
    drop(g);
    // e.md's edit is committed so git state stays clean and only the fingerprint refuses it.
    commit_all(r);
    let before = without_hygiene(snapshot(r));
    let (code, v) = apply(r, &["--tier", "auto"]);
    assert_eq!(code, 1, "{v:#}");
    for i in 0..entries.len() {
        let (o, why) = outcome(&v, i);
        assert_eq!(o, "refused", "entry {i}: {v:#}");
        let fence = if i == 5 {
            "modified at"
        } else {
            "changed since the check"
        };
        assert!(why.contains(fence), "entry {i}: {why}");
        assert_eq!(v["results"][i]["advice"], "re-run /hygiene:check");
    }
    assert_eq!(without_hygiene(snapshot(r)), before);
    assert!(v["batch"].is_null());
    assert!(!r.join(".hygiene/journal").exists());
}

#[test]
fn hostile_reports_are_refused_and_nothing_outside_changes() {
    let f = fixture(true);
    let r = &f.root;
    let o = &f.outside;
    write(o, "victim.md", "# Victim\nsee docs/old.md\nline 3\n");
    write(r, "ok.md", "# Ok\nline 2\nline 3\n");
    write(r, "docs/new.md", "# New\n");
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink(o.join("victim.md"), r.join("link.md")).unwrap();
        std::os::unix::fs::symlink(o, r.join("linkdir")).unwrap();
    }
    commit_all(r);
    let vs = sha256_hex(b"# Victim\nsee docs/old.md\nline 3\n");
    let oks = sha256_hex(b"# Ok\nline 2\nline 3\n");
    let abs_victim = o.join("victim.md").display().to_string();
    let swap = |vs: &str| json!({"kind": "replace-text", "anchor": lines(2, 2), "match": "docs/old.md", "replacement": "docs/new.md", "expected_sha256": vs});
    let entries = vec![
        entry("../outside/victim.md", swap(&vs)),
        entry(&abs_victim, swap(&vs)),
        entry("link.md", swap(&vs)),
        entry(
            "linkdir/victim.md",
            json!({"kind": "insert-frontmatter", "key": "k", "value": "v", "expected_sha256": vs}),
        ),
        entry(
            "ok.md",
            json!({"kind": "move-to-archive", "anchor": lines(2, 2), "dest_path": "../outside/new.md", "expected_sha256": oks}),
        ),
        entry(
            "ok.md",
            json!({"kind": "move-to-archive", "anchor": lines(2, 2), "dest_path": "linkdir/new.md", "expected_sha256": oks}),
        ),
        entry(
            "ok.md",
            json!({"kind": "move-to-archive", "anchor": lines(2, 2), "dest_path": "/tmp/hygiene-hostile-new.md", "expected_sha256": oks}),
        ),
        entry(
            "ok.md",
            json!({"kind": "dedupe", "anchor": lines(2, 2), "canonical_ref": "../outside/victim.md:2-2", "expected_sha256": oks}),
        ),
        entry(
            "ok.md",
            json!({"kind": "move-to-archive", "anchor": lines(3, 9), "dest_path": "arch2.md", "expected_sha256": oks}),
        ),
        entry(
            "ok.md",
            json!({"kind": "move-to-archive", "anchor": lines(4, 4), "dest_path": "arch.md", "expected_sha256": oks}),
        ),
        entry(
            "ok.md",
            json!({"kind": "move-to-archive", "anchor": lines(1, 1), "dest_path": ".git/hooks/pre-commit", "expected_sha256": oks}),
        ),
        entry(
            "linkdir",
            json!({"kind": "delete", "anchor": {"whole": "directory"}, "lifecycle": {"rule_ref": "r", "lifetime": "temporary"}, "expected_sha256": sha256_hex(b"")}),
        ),
        entry(
            "ok.md",
            json!({"kind": "extract-then-delete", "anchor": lines(2, 2), "lifecycle": {"rule_ref": "r", "lifetime": "temporary"}, "extraction_target": "repo-durable", "target_path": "../outside/t.md", "expected_sha256": oks}),
        ),
        entry(
            "ok.md",
            json!({"kind": "move-to-archive", "anchor": lines(2, 2), "dest_path": "vendor/lib/.git/config", "expected_sha256": oks}),
        ),
        entry(
            "ok.md",
            json!({"kind": "move-to-archive", "anchor": lines(2, 2), "dest_path": ".claude/settings.local.json", "expected_sha256": oks}),
        ),
    ];
    let outside_before = snapshot(o);
    let repo_before = without_hygiene(snapshot(r));
    let tmp_probe = Path::new("/tmp/hygiene-hostile-new.md");
    // Two layers refuse. A path that is hostile as text (`..`, absolute, a `.git` segment, tool
    // configuration) makes the whole report invalid (`hygiene validate`'s relative-path and
    // write-target rules), so nothing of it runs. A path that is hostile only on disk (a
    // planted symlink) or an anchor past the end passes validation and is refused by the
    // guards, entry by entry.
    let dotdot = ("[relative-path]", "`..` segment");
    let absolute = ("[relative-path]", "absolute");
    let git_data = ("[write-target]", "[git-data]");
    let tool_config = ("[write-target]", "[tool-config]");
    let link = "symbolic link";
    let expected = [
        Err(dotdot),
        Err(absolute),
        Ok(link),
        Ok(link),
        Err(dotdot),
        Ok(link),
        Err(absolute),
        Err(dotdot),
        Ok("past the end"),
        Ok("past the end"),
        Err(git_data),
        Ok(link),
        Err(dotdot),
        Err(git_data),
        Err(tool_config),
    ];
    assert_eq!(expected.len(), entries.len());
    for (i, want) in expected.iter().enumerate() {
        if let Err((rule, want)) = want {
            write_report(r, LATER, &entries[i..=i]);
            for args in [&["--entry", "0", "--approve"][..], &["--tier", "auto"][..]] {
                let (code, v) = apply(r, args);
                assert_eq!(code, 1, "entry {i}: {v:#}");
                let why = v["refused"]
                    .as_str()
                    .unwrap_or_else(|| panic!("entry {i}: {v:#}"));
                assert!(why.contains(rule) && why.contains(want), "entry {i}: {why}");
            }
        }
    }
    let guarded: Vec<(usize, &str, Value)> = expected
        .iter()
        .enumerate()
        .filter_map(|(i, w)| w.ok().map(|w| (i, w, entries[i].clone())))
        .collect();
    let report: Vec<Value> = guarded.iter().map(|(_, _, e)| e.clone()).collect();
    write_report(r, LATER, &report);
    // Every guarded entry, one at a time, approved: each refused.
    for (n, (i, want, _)) in guarded.iter().enumerate() {
        let (code, v) = apply(r, &["--entry", &n.to_string(), "--approve"]);
        assert_eq!(code, 1, "entry {i}: {v:#}");
        let (o, why) = outcome(&v, n);
        assert_eq!(o, "refused", "entry {i}: {v:#}");
        assert!(why.contains(want), "entry {i}: {why}");
    }
    // And as an auto batch: nothing applied.
    let (code, v) = apply(r, &["--tier", "auto"]);
    assert_eq!(code, 1, "{v:#}");
    assert_eq!(v["applied"], 0, "{v:#}");
    assert_eq!(snapshot(o), outside_before);
    assert_eq!(without_hygiene(snapshot(r)), repo_before);
    assert!(!tmp_probe.exists());
}

#[test]
fn a_report_for_another_root_or_an_invalid_one_is_refused_whole() {
    let f = fixture(false);
    let r = &f.root;
    write(r, "a.md", RT);
    let p = write_report(
        r,
        LATER,
        &[entry(
            "a.md",
            json!({"kind": "replace-text", "anchor": lines(2, 2), "match": "docs/old.md", "replacement": "docs/new.md", "expected_sha256": sha256_hex(RT.as_bytes())}),
        )],
    );
    let mut v: Value = serde_json::from_slice(&std::fs::read(&p).unwrap()).unwrap();
    v["scan"]["project_root"] = json!(f.outside.display().to_string());
    std::fs::write(&p, serde_json::to_vec(&v).unwrap()).unwrap();
    let (code, out) = apply(r, &["--tier", "auto"]);
    assert_eq!(code, 1);
    assert!(
        out["refused"].as_str().unwrap().contains("made for"),
        "{out}"
    );
    v["scan"]["project_root"] = json!(r.display().to_string());
    v["entries"][0]["safety_tier"] = json!("sometimes");
    std::fs::write(&p, serde_json::to_vec(&v).unwrap()).unwrap();
    let (code, _) = apply(r, &["--tier", "auto"]);
    assert_eq!(code, 1);
    assert_eq!(read(r, "a.md"), RT);
}

#[test]
fn lifecycle_deletes_on_dirty_or_untracked_paths_never_run_as_auto() {
    let f = fixture(true);
    let r = &f.root;
    // Rules under which every one of these documents has served by age or marker, so only the
    // git state (or a missing marker) can keep an auto delete from running.
    rulebook(
        r,
        json!([
            {"id": "handoffs", "match": "file", "glob": "handoffs/**", "lifetime": "temporary", "max_age_days": 1},
            {"id": "old-notes", "match": "dir", "glob": "notes-*", "lifetime": "temporary", "max_age_days": 1},
            {"id": "marked", "match": "file", "glob": "marked.md", "lifetime": "delete-once-served", "served_when_path": "missing.txt"}
        ]),
    );
    write(r, "handoffs/dirty.md", "committed\n");
    write(r, "handoffs/clean.md", "clean\n");
    write(r, "notes-2020-01-01/a.md", "a\n");
    write(r, "marked.md", "marked\n");
    commit_old(r);
    write(r, "handoffs/dirty.md", "committed\nplus a local edit\n");
    write(r, "handoffs/2020-01-01-untracked.md", "never committed\n");
    write(
        r,
        "notes-2020-01-01/b.md",
        "untracked file in a governed folder\n",
    );
    let temp = json!({"rule_ref": "handoffs", "lifetime": "temporary"});
    let notes = json!({"rule_ref": "old-notes", "lifetime": "temporary"});
    let gone = json!({"rule_ref": "marked", "lifetime": "delete-once-served", "served_when_path": "missing.txt"});
    let judged = json!({"rule_ref": "plans", "lifetime": "delete-once-served", "served_when": "is it implemented?"});
    let notes_digest = sha256_hex(
        format!(
            "{}  a.md\n{}  b.md\n",
            sha256_hex(b"a\n"),
            sha256_hex(b"untracked file in a governed folder\n")
        )
        .as_bytes(),
    );
    // Every entry claims auto, as a report made before the edits (or a hostile one) would.
    let entries = vec![
        entry(
            "handoffs/dirty.md",
            json!({"kind": "delete", "anchor": {"whole": "file"}, "lifecycle": temp, "expected_sha256": file_sha(r, "handoffs/dirty.md")}),
        ),
        entry(
            "handoffs/2020-01-01-untracked.md",
            json!({"kind": "delete", "anchor": {"whole": "file"}, "lifecycle": temp, "expected_sha256": file_sha(r, "handoffs/2020-01-01-untracked.md")}),
        ),
        entry(
            "notes-2020-01-01",
            json!({"kind": "delete", "anchor": {"whole": "directory"}, "lifecycle": notes, "expected_sha256": notes_digest}),
        ),
        entry(
            "marked.md",
            json!({"kind": "delete", "anchor": {"whole": "file"}, "lifecycle": gone, "expected_sha256": file_sha(r, "marked.md")}),
        ),
    ];
    write_report(r, LATER, &entries);
    let before = without_hygiene(snapshot(r));
    let (code, v) = apply(r, &["--tier", "auto"]);
    assert_eq!(code, 0, "skips are not refusals: {v:#}");
    for i in 0..3 {
        let (o, why) = outcome(&v, i);
        assert_eq!(o, "skipped", "entry {i}: {v:#}");
        assert!(why.contains("downgraded to confirm"), "{why}");
    }
    assert!(outcome(&v, 0).1.contains("uncommitted"));
    assert!(outcome(&v, 1).1.contains("not tracked"));
    assert!(outcome(&v, 2).1.contains("not tracked"));
    // The marker does not exist: the live rule says the document has not served.
    let (o, why) = outcome(&v, 3);
    assert_eq!(o, "skipped");
    assert!(why.contains("has not served now"), "{why}");
    assert_eq!(without_hygiene(snapshot(r)), before);

    // A report that claims auto for a classifier-judged delete is not a report finalize could
    // write: it is refused whole, before any guard runs.
    write_report(
        r,
        LATER,
        &[entry(
            "handoffs/clean.md",
            json!({"kind": "delete", "anchor": {"whole": "file"}, "lifecycle": judged, "expected_sha256": file_sha(r, "handoffs/clean.md")}),
        )],
    );
    let (code, v) = apply(r, &["--tier", "auto"]);
    assert_eq!(code, 1, "{v:#}");
    assert!(
        v["refused"]
            .as_str()
            .unwrap()
            .contains("[safety-tier-derived]"),
        "{v:#}"
    );
    assert_eq!(without_hygiene(snapshot(r)), before);

    // A keep rule protects a document from every lifecycle op, approved or not.
    let keep = json!({"rule_ref": "adrs", "lifetime": "keep"});
    write_report(
        r,
        LATER,
        &[entry(
            "handoffs/clean.md",
            json!({"kind": "delete", "anchor": {"whole": "file"}, "lifecycle": keep, "expected_sha256": file_sha(r, "handoffs/clean.md")}),
        )],
    );
    let (code, v) = apply(r, &["--entry", "0", "--approve"]);
    assert_eq!(code, 1, "{v:#}");
    assert!(
        v["refused"]
            .as_str()
            .unwrap()
            .contains("[lifecycle-keep-protects]"),
        "{v:#}"
    );
    assert!(r.join("handoffs/clean.md").exists());

    // Control: committed and clean, the same temporary delete runs as auto (a binary file too:
    // a whole-file delete never reads the text).
    std::fs::write(r.join("handoffs/shot.png"), [0x89, 0xff, 0x00, 0xfe]).unwrap();
    commit_old(r);
    let entries = vec![
        entry(
            "handoffs/dirty.md",
            json!({"kind": "delete", "anchor": {"whole": "file"}, "lifecycle": temp, "expected_sha256": file_sha(r, "handoffs/dirty.md")}),
        ),
        entry(
            "handoffs/shot.png",
            json!({"kind": "delete", "anchor": {"whole": "file"}, "lifecycle": temp, "expected_sha256": sha256_hex(&[0x89, 0xff, 0x00, 0xfe])}),
        ),
    ];
    write_report(r, LATER, &entries);
    let (code, v) = apply(r, &["--tier", "auto"]);
    assert_eq!(code, 0, "{v:#}");
    assert_eq!(outcome(&v, 0).0, "applied");
    assert_eq!(outcome(&v, 1).0, "applied");
    assert!(!r.join("handoffs/dirty.md").exists());
    assert!(!r.join("handoffs/shot.png").exists());
    // And undo brings the binary back byte-for-byte.
    assert_eq!(undo(r).0, 0);
    assert_eq!(
        std::fs::read(r.join("handoffs/shot.png")).unwrap(),
        [0x89, 0xff, 0x00, 0xfe]
    );
}

fn big_batch(r: &Path, n: usize) -> (Vec<Value>, Vec<(String, String, String)>) {
    let mut entries = Vec::new();
    let mut files = Vec::new();
    for i in 0..n {
        let rel = format!("docs/f{i:03}.md");
        let old = format!("# File {i}\r\nsee src/old_{i}.rs for details\r\nkeep\r\n");
        let new = format!("# File {i}\r\nsee src/new_{i}.rs for details\r\nkeep\r\n");
        write(r, &rel, &old);
        write(r, &format!("src/new_{i}.rs"), "fn main() {}\n");
        entries.push(entry(&rel, json!({"kind": "replace-text", "anchor": lines(2, 2), "match": format!("src/old_{i}.rs"), "replacement": format!("src/new_{i}.rs"), "expected_sha256": sha256_hex(old.as_bytes())})));
        files.push((rel, old, new));
    }
    (entries, files)
}

#[test]
fn a_crash_mid_batch_leaves_old_or_new_files_and_undo_restores_them() {
    let f = fixture(true);
    let r = &f.root;
    let (mut entries, files) = big_batch(r, 40);
    write(r, "moves.md", "# Moves\na\nb\nc\n");
    commit_all(r);
    entries.push(entry("moves.md", json!({"kind": "move-to-archive", "anchor": lines(2, 3), "dest_path": "archive/moved.md", "expected_sha256": sha256_hex(b"# Moves\na\nb\nc\n")})));
    write_report(r, LATER, &entries);
    let out = Command::new(BIN)
        .args(["apply", "--tier", "auto", "--format", "json", "--root"])
        .arg(r)
        .env("HYGIENE_ABORT_AFTER_WRITES", "17")
        .output()
        .unwrap();
    assert!(
        out.status.code().is_none(),
        "aborted by a signal: {:?}",
        out.status
    );
    let (mut old, mut new) = (0, 0);
    for (rel, o, n) in &files {
        let now = read(r, rel);
        if now == *o {
            old += 1;
        } else if now == *n {
            new += 1;
        } else {
            panic!("{rel} is neither old nor new: {now:?}");
        }
    }
    assert!(
        old > 0 && new > 0,
        "the crash was mid-batch: {old} old, {new} new"
    );
    let moves = read(r, "moves.md");
    assert!(moves == "# Moves\na\nb\nc\n" || moves == "# Moves\nc\n");
    let (code, u) = undo(r);
    assert_eq!(code, 0, "{u:#}");
    // No temporary file of the killed writer is left under the root for a reader to mistake
    // for a document.
    let temps: Vec<String> = snapshot(r)
        .into_keys()
        .filter(|k| k.contains(".hygiene-tmp-"))
        .collect();
    assert!(temps.is_empty(), "{temps:?}");
    for (rel, o, _) in &files {
        assert_eq!(read(r, rel), *o, "{rel}");
    }
    assert_eq!(read(r, "moves.md"), "# Moves\na\nb\nc\n");
    assert!(!r.join("archive").exists(), "created folders are removed");
    // After undo the whole batch applies cleanly.
    let (code, v) = apply(r, &["--tier", "auto"]);
    assert_eq!(code, 0, "{v:#}");
    for (rel, _, n) in &files {
        assert_eq!(read(r, rel), *n);
    }
}

#[test]
fn undo_refuses_when_a_file_changed_after_the_batch() {
    let f = fixture(true);
    let r = &f.root;
    let (entries, files) = big_batch(r, 3);
    commit_all(r);
    write_report(r, LATER, &entries);
    assert_eq!(apply(r, &["--tier", "auto"]).0, 0);
    write(r, &files[1].0, "user's later edit\n");
    let out = hygiene(r, &["undo", "--format", "human"]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains(&files[1].0), "names the file: {err}");
    assert_eq!(read(r, &files[0].0), files[0].2, "nothing restored");
    assert_eq!(read(r, &files[1].0), "user's later edit\n");
}

#[test]
fn dry_run_prints_the_diff_and_changes_nothing() {
    let f = fixture(true);
    let r = &f.root;
    write(r, "a.md", "one\ntwo old.md\nthree\n");
    write(r, "new.md", "# New\n");
    commit_all(r);
    write_report(
        r,
        LATER,
        &[entry(
            "a.md",
            json!({"kind": "replace-text", "anchor": lines(2, 2), "match": "old.md", "replacement": "new.md", "expected_sha256": sha256_hex(b"one\ntwo old.md\nthree\n")}),
        )],
    );
    let before = snapshot(r);
    let (code, v) = apply(r, &["--tier", "auto", "--dry-run"]);
    assert_eq!(code, 0);
    assert_eq!(v["dry_run"], true);
    assert_eq!(
        v["diff"],
        "--- a/a.md\n+++ b/a.md\n@@ -1,3 +1,3 @@\n one\n-two old.md\n+two new.md\n three\n"
    );
    assert_eq!(snapshot(r), before, "not even a journal or lock file");
}

#[test]
fn two_concurrent_applies_never_apply_a_file_twice() {
    let f = fixture(true);
    let r = &f.root;
    // Move-to-archive: applied twice, the archive would hold a span twice.
    let mut entries = Vec::new();
    for i in 0..150 {
        let rel = format!("m/f{i:03}.md");
        let text = format!("# F{i}\nspan {i}\n");
        write(r, &rel, &text);
        entries.push(entry(&rel, json!({"kind": "move-to-archive", "anchor": lines(2, 2), "dest_path": "archive.md", "expected_sha256": sha256_hex(text.as_bytes())})));
    }
    commit_all(r);
    write_report(r, LATER, &entries);

    // The lock itself: while another process holds it, apply refuses and changes nothing.
    std::fs::create_dir_all(r.join(".hygiene")).unwrap();
    let held = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(r.join(".hygiene/apply.lock"))
        .unwrap();
    held.try_lock().unwrap();
    let before = without_hygiene(snapshot(r));
    let (code, v) = apply(r, &["--tier", "auto"]);
    assert_eq!(code, 1);
    assert!(v["refused"].as_str().unwrap().contains("apply.lock"), "{v}");
    assert_eq!(undo(r).0, 1, "undo waits for the lock too");
    assert_eq!(without_hygiene(snapshot(r)), before);
    drop(held);

    // Two real runs at once.
    let spawn = || {
        Command::new(BIN)
            .args(["apply", "--tier", "auto", "--format", "json", "--root"])
            .arg(r)
            .stdout(std::process::Stdio::piped())
            .spawn()
            .unwrap()
    };
    let (a, b) = (spawn(), spawn());
    let outs = [a.wait_with_output().unwrap(), b.wait_with_output().unwrap()];
    let parsed: Vec<(i32, Value)> = outs
        .iter()
        .map(|o| {
            (
                o.status.code().unwrap(),
                serde_json::from_slice(&o.stdout).unwrap(),
            )
        })
        .collect();
    let winners = parsed
        .iter()
        .filter(|(_, v)| v["applied"].as_u64().is_some_and(|n| n > 0))
        .count();
    assert_eq!(winners, 1, "exactly one run applies: {parsed:?}");
    for (_, v) in &parsed {
        if v["applied"] == 0 || v.get("applied").is_none() {
            // Refused by the lock, or (if it started after the winner finished) every entry
            // recognised as applied by that batch.
            let skipped_as_applied = v["results"].as_array().is_some_and(|rs| {
                rs.iter().all(|r| {
                    r["outcome"] == "skipped"
                        && r["reason"]
                            .as_str()
                            .unwrap_or("")
                            .starts_with("already applied")
                })
            });
            assert!(
                v.get("refused").is_some_and(|x| x.is_string()) || skipped_as_applied,
                "{v}"
            );
        }
    }
    let archive = read(r, "archive.md");
    for i in 0..150 {
        assert_eq!(
            archive.matches(&format!("span {i}\n")).count(),
            1,
            "span {i}"
        );
    }
}

/// Found by the property test: `dest_path: "victim.md/"` named a second spelling of a file. Apply
/// created a folder `victim.md`, rewrote the source, then failed on the archive, and reported the
/// entry refused with the source already changed. A trailing `/` is no report path.
#[test]
fn a_trailing_slash_path_is_refused_whole_before_anything_is_written() {
    let f = fixture(false);
    let r = &f.root;
    let ok = "# Ok\nline 2\nline 3\n";
    write(r, "ok.md", ok);
    write_report(
        r,
        LATER,
        &[entry(
            "ok.md",
            json!({"kind": "move-to-archive", "anchor": lines(2, 2), "dest_path": "victim.md/", "expected_sha256": sha256_hex(ok.as_bytes())}),
        )],
    );
    let before = without_hygiene(snapshot(r));
    let (code, v) = apply(r, &["--entry", "0", "--approve"]);
    assert_eq!(code, 1, "{v:#}");
    assert!(
        v["refused"].as_str().unwrap().contains("[relative-path]"),
        "{v:#}"
    );
    assert_eq!(without_hygiene(snapshot(r)), before);
    assert_eq!(read(r, "ok.md"), ok);
}
