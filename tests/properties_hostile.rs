//! Properties of the helper under attack (issue 12), each over random cases from a fixed seed:
//! links planted under `.hygiene/`, journals from elsewhere, nested repositories, two names of
//! one file, and kills at random points of apply and undo. Every expectation is computed here,
//! from the tree before and after, never from the code under test; each property counts what
//! its cases exercised and fails if they were trivial.

mod common;
use common::cli::*;
use common::{git, sha256_hex, snapshot, without_hygiene, write};
use proptest::prelude::*;
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
use serde_json::{json, Value};
use std::cell::Cell;
use std::path::Path;
use std::process::Command;

fn runner(cases: u32) -> TestRunner {
    let config = Config {
        cases,
        failure_persistence: None,
        max_shrink_iters: 50,
        ..Config::default()
    };
    TestRunner::new_with_rng(
        config,
        TestRng::from_seed(RngAlgorithm::ChaCha, &[12u8; 32]),
    )
}

/// Runs the binary (`--root` first) with extra environment; returns (exit code, stdout).
fn hy(root: &Path, args: &[&str], env: &[(&str, &str)]) -> (i32, String) {
    let mut c = Command::new(BIN);
    c.arg(args[0]).arg("--root").arg(root).args(&args[1..]);
    for (k, v) in env {
        c.env(k, v);
    }
    let o = c.output().unwrap();
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stdout).into_owned(),
    )
}

/// A repository of `n` committed documents, each with one broken reference the report repairs.
fn repairs(r: &Path, n: usize) -> Vec<Value> {
    write(r, "docs/new.md", "# New\n");
    let mut entries = Vec::new();
    for i in 0..n {
        let rel = format!("d{}/f{i:02}.md", i % 3);
        let text = format!("# F{i}\nsee `docs/old.md`\nline {i}\n");
        write(r, &rel, &text);
        entries.push(entry(&rel, json!({"kind": "replace-text", "anchor": lines(2, 2), "match": "docs/old.md", "replacement": "docs/new.md", "expected_sha256": sha256_hex(text.as_bytes())})));
    }
    commit_all(r);
    entries
}

/// Kill apply and undo at random points, any number of times: undo always resumes, and undoing
/// until nothing is left gives back every byte, with no temporary file left behind.
#[test]
fn undo_resumes_after_kills_at_random_points() {
    let killed = Cell::new(0usize);
    let strategy = (
        2usize..14,
        proptest::collection::vec(
            (
                any::<bool>(),
                prop_oneof![3 => (1usize..8).prop_map(Some), 1 => Just(None)],
            ),
            1..5,
        ),
    );
    runner(48)
        .run(&strategy, |(n, steps)| {
            let f = fixture(true);
            let r = &f.root;
            let entries = repairs(r, n);
            write_report(r, LATER, &entries);
            let initial = without_hygiene(snapshot(r));
            for (is_apply, kill) in &steps {
                let env: Vec<(&str, String)> = kill
                    .map(|k| vec![("HYGIENE_ABORT_AFTER_WRITES", k.to_string())])
                    .unwrap_or_default();
                let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (*k, v.as_str())).collect();
                let args: &[&str] = if *is_apply {
                    &["apply", "--tier", "auto"]
                } else {
                    &["undo"]
                };
                let (code, _) = hy(r, args, &env);
                if code == -1 {
                    killed.set(killed.get() + 1);
                }
            }
            // Undo until nothing is left.
            for _ in 0..10 {
                let (code, out) = hy(r, &["undo"], &[]);
                if code != 0 {
                    prop_assert!(out.is_empty() || code == 1, "{out}");
                    break;
                }
            }
            let after = without_hygiene(snapshot(r));
            prop_assert_eq!(&after, &initial);
            prop_assert!(!after.keys().any(|k| k.contains(".hygiene-tmp-")));
            Ok(())
        })
        .unwrap();
    assert!(killed.get() > 20, "only {} kills", killed.get());
}

/// A link planted anywhere under `.hygiene/`, pointing out of the root: no command writes
/// through it, and nothing outside changes.
#[cfg(unix)]
#[test]
fn links_under_hygiene_never_lead_writes_out() {
    const AT: [&str; 8] = [
        ".hygiene",
        ".hygiene/journal",
        ".hygiene/journal/000001",
        ".hygiene/apply.lock",
        ".hygiene/report.json",
        ".hygiene/scan.json",
        ".hygiene/report.json.fingerprints.json",
        ".hygiene/.gitignore",
    ];
    const CMDS: [&[&str]; 5] = [
        &["check", "--accept-suggestions"],
        &["check", "--accept-suggestions", "--apply"],
        &["apply", "--tier", "auto"],
        &["undo"],
        &["scan", "--out", ".hygiene/scan.json"],
    ];
    let cases = Cell::new(0usize);
    let strategy = (
        0usize..AT.len(),
        any::<bool>(),
        proptest::collection::vec(0usize..CMDS.len(), 1..4),
    );
    runner(48)
        .run(&strategy, |(at, to_dir, cmds)| {
            let f = fixture(true);
            let (r, o) = (&f.root, &f.outside);
            write(r, "docs/old.md", "# Old\n");
            write(r, "CLAUDE.md", "# P\n\nSee [old](docs/old.md).\n");
            commit_all(r);
            git(r, &["mv", "docs/old.md", "docs/new.md"]);
            commit_all(r);
            write(o, "victim.txt", "keep\n");
            std::fs::create_dir_all(o.join("dir")).unwrap();
            // A first, clean check so later commands find a report.
            let _ = hy(r, &["check", "--accept-suggestions"], &[]);
            let place = r.join(AT[at]);
            let _ = std::fs::remove_dir_all(&place);
            let _ = std::fs::remove_file(&place);
            std::fs::create_dir_all(place.parent().unwrap()).unwrap();
            let target = if to_dir {
                o.join("dir")
            } else {
                o.join("victim.txt")
            };
            std::os::unix::fs::symlink(&target, &place).unwrap();
            let outside = snapshot(o);
            for c in cmds {
                let _ = hy(r, CMDS[c], &[]);
                prop_assert_eq!(
                    &snapshot(o),
                    &outside,
                    "{} wrote through {}",
                    CMDS[c].join(" "),
                    AT[at]
                );
            }
            cases.set(cases.get() + 1);
            Ok(())
        })
        .unwrap();
    assert_eq!(cases.get(), 48);
}

/// Journal folders from elsewhere (hand-made, unsealed or sealed for another repository):
/// undo never reads them, so nothing they name changes, inside the root or out.
#[test]
fn journals_from_elsewhere_never_drive_undo() {
    let ignored = Cell::new(0usize);
    let strategy = (
        prop_oneof![
            Just("000001".to_string()),
            Just("000002".to_string()),
            Just("18446744073709551615".to_string()),
            (1u64..1000).prop_map(|n| format!("{n:06}"))
        ],
        0usize..3,
        any::<bool>(),
    );
    runner(32)
        .run(&strategy, |(id, how, external)| {
            let f = fixture(true);
            let (r, o) = (&f.root, &f.outside);
            let entries = repairs(r, 3);
            write_report(r, LATER, &entries);
            write(o, "victim.txt", "keep\n");
            let batch = r.join(".hygiene/journal").join(&id);
            match how {
                // A sealed batch of another repository on this machine, copied in.
                0 => {
                    let g = fixture(true);
                    let ge = repairs(&g.root, 3);
                    write_report(&g.root, LATER, &ge);
                    let (code, _) = hy(&g.root, &["apply", "--tier", "auto"], &[]);
                    prop_assert_eq!(code, 0);
                    copy_dir(&g.root.join(".hygiene/journal/000001"), &batch);
                }
                // A hand-made manifest with a made-up seal.
                _ => {
                    let victim = o.join("victim.txt").display().to_string();
                    let (path, external_flag) = if external { (victim, true) } else { ("d0/f00.md".to_string(), false) };
                    let m = json!({"version": 2, "batch": id, "created_at": "2026-01-01T00:00:00Z",
                        "root": r.display().to_string(), "report": "x", "report_sha256": "0", "entries": [0],
                        "files": [{"path": path, "external": external_flag, "existed": how == 2, "blob": "blobs/0",
                                   "sha256": sha256_hex(b"evil\n"), "planned_sha256": null}],
                        "dirs_created": [], "dirs_removed": []});
                    write(&batch, "manifest.json", &m.to_string());
                    write(&batch, "manifest.seal", &format!("{}\n", sha256_hex(id.as_bytes())));
                    write(&batch, "blobs/0", "evil\n");
                }
            }
            let inside = without_hygiene(snapshot(r));
            let outside = snapshot(o);
            let (code, _) = hy(r, &["undo"], &[]);
            prop_assert_eq!(code, 1, "a foreign batch was undone");
            prop_assert_eq!(&without_hygiene(snapshot(r)), &inside);
            prop_assert_eq!(&snapshot(o), &outside);
            // A real batch still runs and undoes cleanly beside the foreign folder.
            let (code, _) = hy(r, &["apply", "--tier", "auto"], &[]);
            prop_assert_eq!(code, 0);
            let (code, _) = hy(r, &["undo"], &[]);
            prop_assert_eq!(code, 0);
            prop_assert_eq!(&without_hygiene(snapshot(r)), &inside);
            prop_assert_eq!(&snapshot(o), &outside);
            ignored.set(ignored.get() + 1);
            Ok(())
        })
        .unwrap();
    assert_eq!(ignored.get(), 32);
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap().flatten() {
        let dest = to.join(e.file_name());
        if e.file_type().unwrap().is_dir() {
            copy_dir(&e.path(), &dest);
        } else {
            std::fs::copy(e.path(), &dest).unwrap();
        }
    }
}

/// Nested repositories at random depths: an archive or extraction target inside one is never
/// written, whatever the report says.
#[test]
fn nested_repositories_are_never_written() {
    let refused = Cell::new(0usize);
    let strategy = (
        proptest::collection::vec("[a-c]{1,2}", 1..4),
        proptest::collection::vec("[a-c]{1,2}", 0..3),
    );
    runner(32)
        .run(&strategy, |(repo_at, below)| {
            let f = fixture(true);
            let r = &f.root;
            let nested = repo_at.join("/");
            write(r, &format!("{nested}/README.md"), "# Nested\n");
            git(&r.join(&nested), &["init", "-q"]);
            git(&r.join(&nested), &["add", "-A"]);
            git(&r.join(&nested), &["commit", "-qm", "n"]);
            let ok = "# Ok\nmove me\n";
            write(r, "ok.md", ok);
            commit_all(r);
            let mut dest = nested.clone();
            for b in &below {
                dest.push('/');
                dest.push_str(b);
            }
            dest.push_str("/archive.md");
            write_report(r, LATER, &[entry("ok.md", json!({"kind": "move-to-archive", "anchor": lines(2, 2), "dest_path": dest, "expected_sha256": sha256_hex(ok.as_bytes())}))]);
            let before = without_hygiene(snapshot(r));
            let (code, out) = hy(r, &["apply", "--tier", "auto", "--format", "json"], &[]);
            prop_assert_eq!(code, 1, "{}", out);
            prop_assert!(out.contains("[nested-repository]"), "{}", out);
            prop_assert_eq!(&without_hygiene(snapshot(r)), &before);
            refused.set(refused.get() + 1);
            Ok(())
        })
        .unwrap();
    assert_eq!(refused.get(), 32);
}

/// Documents reachable under several names (in-root directory links, hard links): whatever
/// dedupes a report makes between them, every block still exists in some file afterwards.
#[cfg(unix)]
#[test]
fn a_block_survives_any_dedupe_between_names_of_one_file() {
    // Rules Claude Code loads every session: the reader rule lets a dedupe take a span from
    // one and keep it in another.
    const NAMES: [&str; 5] = [
        ".claude/rules/a.md",
        ".claude/rules/b.md",
        "mirror/.claude/rules/a.md",
        "mirror/.claude/rules/b.md",
        ".claude/rules/h.md",
    ];
    let applied = Cell::new(0usize);
    let strategy = proptest::collection::vec((0usize..NAMES.len(), 0usize..NAMES.len()), 1..5);
    runner(48)
        .run(&strategy, |pairs| {
            let f = fixture(true);
            let r = &f.root;
            let block = "a paragraph long enough to be a duplicate block worth removing\n";
            let text = format!("# Doc\n{block}");
            write(r, ".claude/rules/a.md", &text);
            write(r, ".claude/rules/b.md", &text);
            std::os::unix::fs::symlink(".", r.join("mirror")).unwrap();
            std::fs::hard_link(r.join(".claude/rules/a.md"), r.join(".claude/rules/h.md")).unwrap();
            commit_all(r);
            let entries: Vec<Value> = pairs
                .iter()
                .map(|&(from, keep)| entry(NAMES[from], json!({"kind": "dedupe", "anchor": lines(2, 2), "canonical_ref": format!("{}:2-2", NAMES[keep]), "expected_sha256": sha256_hex(text.as_bytes())})))
                .collect();
            write_report(r, LATER, &entries);
            let (_, out) = hy(r, &["apply", "--tier", "auto", "--format", "json"], &[]);
            let v: Value = serde_json::from_str(&out).unwrap_or(Value::Null);
            applied.set(applied.get() + v["applied"].as_u64().unwrap_or(0) as usize);
            let survives = [".claude/rules/a.md", ".claude/rules/b.md"]
                .iter()
                .any(|p| std::fs::read_to_string(r.join(p)).is_ok_and(|t| t.contains(block)));
            prop_assert!(survives, "the block is gone: {}", out);
            // An undo gives back both documents.
            if v["batch"].is_string() {
                let (code, _) = hy(r, &["undo"], &[]);
                prop_assert_eq!(code, 0);
                prop_assert_eq!(std::fs::read_to_string(r.join(".claude/rules/b.md")).unwrap(), text.clone());
            }
            Ok(())
        })
        .unwrap();
    // A dedupe between the two real files does apply (one of them), so the property is not
    // vacuous.
    assert!(applied.get() > 5, "{} dedupes applied", applied.get());
}
