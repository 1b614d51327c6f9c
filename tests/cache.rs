//! The scan cache (`.hygiene/cache/`) can never change a result. Every test scans the same tree
//! with the cache (cold, then warm) and without it, after each kind of change a cache could
//! miss (an edit, an edit that keeps size and time, a file a finding depends on appearing, a
//! deleted reference, new commits, a merge, a rewritten history, a changed source file), and
//! compares the whole reports. The expected report is always the uncached scan's, never the
//! cache's own output.

mod common;
use common::{git, write};
use hygiene::report::{ScanResult, Signal};
use hygiene::scan::{cache, scan, ScanOptions};
use std::path::Path;
use std::process::Command;
use std::time::{Duration, SystemTime};

fn commit(dir: &Path, msg: &str) {
    git(dir, &["add", "-A"]);
    git(dir, &["commit", "-q", "--allow-empty", "-m", msg]);
}

fn run(root: &Path, cache: bool) -> ScanResult {
    let mut r = scan(&ScanOptions {
        root: root.to_path_buf(),
        cache,
        ..Default::default()
    })
    .expect("scan completes");
    r.generated_at = String::new();
    r
}

/// Scans with the cache twice (the second reads what the first wrote) and without it; all three
/// reports must be equal. Returns the uncached one.
fn same(root: &Path, step: &str) -> ScanResult {
    let plain = run(root, false);
    let first = run(root, true);
    let second = run(root, true);
    assert_eq!(
        first, plain,
        "{step}: the cached scan differs from the uncached one"
    );
    assert_eq!(
        second, plain,
        "{step}: the warm scan differs from the uncached one"
    );
    plain
}

fn signals<'a>(r: &'a ScanResult, path: &str) -> Vec<&'a Signal> {
    r.shortlist
        .iter()
        .filter(|i| i.path == path)
        .flat_map(|i| &i.signals)
        .collect()
}

/// A time far enough in the past that the cache trusts the file's stamp.
fn old() -> SystemTime {
    SystemTime::now() - Duration::from_secs(3600)
}

fn set_mtime(path: &Path, t: SystemTime) {
    std::fs::File::options()
        .write(true)
        .open(path)
        .unwrap()
        .set_modified(t)
        .unwrap();
}

/// A repository drawing most signal kinds: renames, a deletion, anchors, duplicates, drift, a
/// superseded document whose successor does not exist yet, symbols, a checklist, oversize.
fn fixture() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    git(d, &["init", "-q", "-b", "main"]);
    write(d, "src/lib.rs", "pub fn run_scan() {}\n");
    write(d, "docs/a.md", "# A\n\n## Setup\n\nSteps.\n");
    write(d, "docs/gone.md", "# Gone\n");
    commit(d, "start");
    git(d, &["mv", "docs/a.md", "docs/b.md"]);
    commit(d, "rename");
    git(d, &["rm", "-q", "docs/gone.md"]);
    commit(d, "delete");
    let shared = "Run the full build with the release profile, then run every test binary and the\nlinters before you push; the CI checks exactly the same things.\n";
    write(
        d,
        "CLAUDE.md",
        &format!("# Project\n\n{shared}\n## Other\n\nSee `docs/gone.md`.\n"),
    );
    write(
        d,
        "guide.md",
        &format!(
            "# Guide\n\nRead [the setup](docs/a.md#setup) and [b](docs/b.md#nope).\n\
             Use `run_scan()` from `src/lib.rs`, not `vanished_call()`.\n\n{shared}\n\
             - [x] one\n- [x] two\n- [x] three\n\nTODO: tidy.\n"
        ),
    );
    write(
        d,
        ".claude/commands/build.md",
        &format!("# Build\n\nBefore a push:\n\n{shared}"),
    );
    write(
        d,
        "docs/old/plan.md",
        "# Old plan\n\n> **Superseded** by [the new plan](new-plan.md).\n",
    );
    // Over the per-session token threshold and over 200 lines: ten words a line.
    let big: String = (0..3000)
        .map(|i| format!("word{i}{}", if i % 10 == 9 { "\n" } else { " " }))
        .collect();
    write(d, "CLAUDE.local.md", &format!("# Local\n\n{big}\n"));
    // The drift's evidence: the doc names `old_entry`, which the later commits take away.
    write(
        d,
        "src/lib.rs",
        "pub fn run_scan() {}\npub fn old_entry() {}\n",
    );
    write(
        d,
        "docs/drift.md",
        "# Drift\n\nThe code lives in [lib](../src/lib.rs).\n\nStart at `old_entry`.\n",
    );
    commit(d, "docs");
    for i in 0..3 {
        write(
            d,
            "src/lib.rs",
            &format!("pub fn run_scan() {{}}\n// {i}\n"),
        );
        commit(d, &format!("lib {i}"));
    }
    dir
}

#[test]
fn cached_scans_equal_uncached_scans_through_every_kind_of_change() {
    let dir = fixture();
    let d = dir.path();
    let r = same(d, "fresh");
    // The fixture draws what the later steps change: otherwise they would prove nothing.
    let kinds = |r: &ScanResult| -> Vec<&'static str> {
        let mut k: Vec<&str> = r
            .shortlist
            .iter()
            .flat_map(|i| &i.signals)
            .map(hygiene::scan::signal_kind)
            .collect();
        k.sort();
        k.dedup();
        k
    };
    for kind in [
        "missing-path",
        "missing-anchor",
        "missing-symbol",
        "duplicate-block",
        "drift",
        "superseded-marker",
        "oversize",
        "checklist-complete",
    ] {
        assert!(
            kinds(&r).contains(&kind),
            "{kind} not drawn: {:#?}",
            r.shortlist
        );
    }
    assert!(d.join(".hygiene/cache/docs.bin").is_file());
    assert!(d.join(".hygiene/cache/history.bin").is_file());

    // The superseded document's successor appears: its `by` resolves now, although the
    // document itself did not change (a per-document finding that asked the tree).
    let by = |r: &ScanResult| -> Option<String> {
        signals(r, "docs/old/plan.md").iter().find_map(|s| match s {
            Signal::SupersededMarker { by, .. } => by.clone(),
            _ => None,
        })
    };
    assert_eq!(by(&r).as_deref(), Some("new-plan.md"));
    write(d, "docs/old/new-plan.md", "# New plan\n");
    let r = same(d, "successor appears");
    assert_eq!(by(&r).as_deref(), Some("docs/old/new-plan.md"));

    // A tracked file that is not source comes to use the missing name: the other files'
    // search (`text.bin`) reads it again, and the name is the project's.
    let missing_symbols = |r: &ScanResult| {
        signals(r, "guide.md")
            .iter()
            .filter(|s| matches!(s, Signal::MissingSymbol { .. }))
            .count()
    };
    assert_eq!(missing_symbols(&r), 1);
    assert!(d.join(".hygiene/cache/text.bin").is_file());
    write(d, "ci.yml", "steps:\n  - run: vanished_call\n");
    git(d, &["add", "ci.yml"]);
    let r = same(d, "a config file uses the name");
    assert_eq!(missing_symbols(&r), 0);
    git(d, &["rm", "-q", "-f", "ci.yml"]);
    same(d, "the config file goes");

    // An edit.
    write(
        d,
        "guide.md",
        "# Guide\n\nNothing left to say, see [x](missing.md).\n",
    );
    same(d, "edit");

    // An edit that keeps the size and the modification time: the change time still tells.
    let p = d.join("docs/drift.md");
    set_mtime(&p, old());
    same(d, "drift doc made old");
    let before = std::fs::metadata(&p).unwrap().modified().unwrap();
    let text = std::fs::read_to_string(&p).unwrap();
    std::fs::write(
        &p,
        text.replace("[lib](../src/lib.rs)", "[lib](../src/lob.rs)"),
    )
    .unwrap();
    set_mtime(&p, before);
    let r = same(d, "same size and time");
    assert!(
        signals(&r, "docs/drift.md").iter().any(
            |s| matches!(s, Signal::MissingPath { reference, .. } if reference == "../src/lob.rs")
        ),
        "{:#?}",
        r.shortlist
    );

    // A referenced file is deleted; a source file gains the missing symbol.
    std::fs::remove_file(d.join("docs/b.md")).unwrap();
    write(d, "src/more.rs", "pub fn vanished_call() {}\n");
    same(d, "deletion and new source");

    // A plain commit on top (the history cache walks only it), then another.
    commit(d, "plain");
    same(d, "plain commit");
    git(d, &["mv", "docs/drift.md", "docs/drift2.md"]);
    commit(d, "rename on top");
    same(d, "rename on top");

    // A merge (the history is walked again, whole).
    git(d, &["checkout", "-q", "-b", "side", "HEAD~2"]);
    write(d, "side.md", "# Side\n\nSee [drift](docs/drift.md).\n");
    commit(d, "side");
    git(d, &["checkout", "-q", "main"]);
    git(d, &["merge", "-q", "--no-edit", "side"]);
    same(d, "merge");

    // A rewritten history: HEAD is no longer a descendant of what the cache walked.
    git(d, &["reset", "-q", "--hard", "HEAD~1"]);
    write(d, "new.md", "# New\n\n[gone](docs/gone.md)\n");
    commit(d, "rewritten");
    same(d, "rewritten history");

    // The cache deleted, damaged, or from an older format: never an error, never a change.
    std::fs::remove_dir_all(d.join(".hygiene/cache")).unwrap();
    same(d, "cache deleted");
    for f in ["docs.bin", "history.bin"] {
        let p = d.join(".hygiene/cache").join(f);
        let mut b = std::fs::read(&p).unwrap();
        let mid = b.len() / 2;
        b[mid] ^= 0x55;
        std::fs::write(&p, &b).unwrap();
    }
    same(d, "cache damaged");
    for f in ["docs.bin", "history.bin", "source.bin", "text.bin"] {
        std::fs::write(d.join(".hygiene/cache").join(f), b"HYGCACHE\x00").unwrap();
    }
    same(d, "cache truncated");
}

#[test]
fn a_scan_of_other_paths_reuses_and_keeps_the_entries() {
    let dir = fixture();
    let d = dir.path();
    let only = |cache| {
        let mut r = scan(&ScanOptions {
            root: d.to_path_buf(),
            paths: vec!["docs".into()],
            cache,
            ..Default::default()
        })
        .unwrap();
        r.generated_at = String::new();
        r
    };
    // A partial scan first (its entries hold findings for every document), then a whole one.
    assert_eq!(only(true), only(false));
    same(d, "after a partial scan");
    assert_eq!(only(true), only(false));
}

#[test]
fn a_cache_from_another_checkout_is_never_read() {
    let dir = fixture();
    let d = dir.path();
    same(d, "original");
    let ctx = cache::docs_context(
        &hygiene::roles::Roles::load(d),
        &hygiene::scan::sites::Sites::default(),
    );
    assert!(
        !cache::Docs::load(d, &ctx).is_empty(),
        "the cache is read where it was written"
    );
    // A copy (as a clone of a repository that committed its cache would be): same bytes,
    // another folder.
    let copy = tempfile::tempdir().unwrap();
    let st = Command::new("cp")
        .arg("-a")
        .arg(format!("{}/.", d.display()))
        .arg(copy.path())
        .status()
        .unwrap();
    assert!(st.success());
    let c = copy.path();
    assert_eq!(
        std::fs::read(c.join(".hygiene/cache/docs.bin")).unwrap(),
        std::fs::read(d.join(".hygiene/cache/docs.bin")).unwrap()
    );
    assert!(
        cache::Docs::load(c, &ctx).is_empty(),
        "a cache in another folder is not trusted"
    );
    same(c, "copy");
}

#[test]
fn a_recently_changed_file_is_read_again_even_with_the_same_stamp_so_far() {
    // Written twice within a second with the same size: the modification time may not change,
    // so the first scan must not vouch for it by its stamp.
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    git(d, &["init", "-q", "-b", "main"]);
    write(d, "a.md", "[x](one.md)\n");
    same(d, "first");
    write(d, "a.md", "[x](two.md)\n");
    let r = same(d, "second");
    assert!(
        signals(&r, "a.md")
            .iter()
            .any(|s| matches!(s, Signal::MissingPath { reference, .. } if reference == "two.md")),
        "{:#?}",
        r.shortlist
    );
}

#[test]
fn the_cli_caches_only_under_hygiene_and_never_when_asked_not_to() {
    let dir = fixture();
    let d = dir.path();
    let bin = env!("CARGO_BIN_EXE_hygiene");
    let out = |args: &[&str], envs: &[(&str, &str)]| {
        let o = Command::new(bin)
            .args(["scan", "--root"])
            .arg(d)
            .args(args)
            .envs(envs.iter().copied())
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let mut r: ScanResult = serde_json::from_slice(&o.stdout).unwrap();
        r.generated_at = String::new();
        r
    };
    let a = out(&["--no-cache"], &[]);
    let b = out(&[], &[("HYGIENE_CACHE", "0")]);
    assert!(
        !d.join(".hygiene").exists(),
        "--no-cache and HYGIENE_CACHE=0 write nothing"
    );
    assert_eq!(a, b);
    let c = out(&[], &[]);
    let w = out(&[], &[]);
    assert_eq!((&c, &w), (&a, &a));
    assert!(d.join(".hygiene/cache/docs.bin").is_file());
    // The cache never shows as a change to commit.
    assert_eq!(
        git(d, &["status", "--porcelain", "--untracked-files=all"]),
        ""
    );
}

#[test]
fn history_from_the_cache_equals_one_git_log_walk() {
    let dir = fixture();
    let d = dir.path();
    let repo = hygiene::git::Repo::discover(d).unwrap();
    let ctx = cache::Context::new("test");
    let check = |step: &str| {
        let walked = repo.history();
        for _ in 0..2 {
            let h = cache::history(&repo, d, &ctx, true);
            assert_eq!(h.commits, walked.commits, "{step}");
            assert_eq!(h.paths(), walked.paths(), "{step}");
            for p in walked.paths().iter().chain([&"never.md".to_string()]) {
                assert_eq!(h.event(p), walked.event(p), "{step}: {p}");
                assert_eq!(h.touches(p), walked.touches(p), "{step}: {p}");
            }
            assert_eq!(h.warnings, walked.warnings, "{step}");
        }
    };
    check("fresh");
    for i in 0..3 {
        write(d, &format!("n{i}.md"), "# N\n");
        commit(d, &format!("n{i}"));
        git(d, &["mv", &format!("n{i}.md"), &format!("m{i}.md")]);
        commit(d, &format!("m{i}"));
    }
    check("plain commits on top");
    // A merge bringing in a commit older than the ones on top: `git log` prints it after them,
    // so the merged range cannot simply be put in front.
    git(d, &["checkout", "-q", "-b", "side", "HEAD~3"]);
    git(d, &["rm", "-q", "m0.md"]);
    git(d, &["add", "-A"]);
    let st = Command::new("git")
        .arg("-C")
        .arg(d)
        .args([
            "-c",
            "user.name=T",
            "-c",
            "user.email=t@e",
            "commit",
            "-q",
            "-m",
            "old side",
        ])
        .env("GIT_AUTHOR_DATE", "2001-01-01T00:00:00Z")
        .env("GIT_COMMITTER_DATE", "2001-01-01T00:00:00Z")
        .status()
        .unwrap();
    assert!(st.success());
    git(d, &["checkout", "-q", "main"]);
    git(d, &["merge", "-q", "--no-edit", "side"]);
    check("merge");
}

/// `hygiene scan --root d ARGS` with stamps trusted (a debug-build clock an hour ahead) and the
/// phase timings on: the report (less `generated_at`) and stderr.
fn scan_trusting_stamps(d: &Path, args: &[&str]) -> (ScanResult, String) {
    let ahead = (SystemTime::now() + Duration::from_secs(3600))
        .duration_since(SystemTime::UNIX_EPOCH)
        .unwrap()
        .as_secs()
        .to_string();
    let o = Command::new(env!("CARGO_BIN_EXE_hygiene"))
        .args(["scan", "--root"])
        .arg(d)
        .args(args)
        .env("HYGIENE_TEST_STAMP_NOW", &ahead)
        .env("HYGIENE_TIMINGS", "1")
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let mut r: ScanResult = serde_json::from_slice(&o.stdout).unwrap();
    r.generated_at = String::new();
    (r, String::from_utf8_lossy(&o.stderr).into_owned())
}

/// The numbers inside the parentheses that open with `opener` on the timings line of `phase`
/// (`hygiene: timings: PHASE ...`), in order.
fn timing_counts(stderr: &str, phase: &str, opener: &str) -> Option<Vec<usize>> {
    stderr
        .lines()
        .find(|l| l.contains(&format!("timings: {phase}")))
        .and_then(|l| l.split_once(opener))
        .and_then(|(_, rest)| rest.split_once(')'))
        .map(|(inside, _)| {
            inside
                .split(|c: char| !c.is_ascii_digit())
                .filter_map(|n| n.parse::<usize>().ok())
                .collect()
        })
}

#[test]
fn a_trusted_stamp_is_the_whole_stamp() {
    // With stamps trusted (a debug-build clock an hour ahead), an unchanged tree is not even
    // read; an edit that keeps size and modification time is still seen (the change time).
    let dir = fixture();
    let d = dir.path();
    let scan = |args: &[&str]| {
        let (r, err) = scan_trusting_stamps(d, args);
        // `... documents: N parsed, N read and unchanged, N unchanged by stamp) ...`
        let by_stamp = err
            .lines()
            .find(|l| l.contains("timings: documents"))
            .and_then(|l| l.split(" unchanged by stamp").next())
            .and_then(|l| l.rsplit(' ').next())
            .and_then(|n| n.parse::<usize>().ok())
            .unwrap_or_else(|| panic!("no documents line: {err}"));
        (r, by_stamp)
    };
    let (plain, _) = scan(&["--no-cache"]);
    let (cold, n0) = scan(&[]);
    let (warm, n1) = scan(&[]);
    assert_eq!((&cold, &warm), (&plain, &plain));
    assert_eq!(n0, 0, "the cold scan has no stamps to trust");
    assert_eq!(
        n1, warm.scan.files_scanned as usize,
        "the warm scan trusts the stamps of unchanged documents"
    );
    let p = d.join("docs/drift.md");
    let before = std::fs::metadata(&p).unwrap().modified().unwrap();
    let text = std::fs::read_to_string(&p).unwrap();
    std::fs::write(
        &p,
        text.replace("[lib](../src/lib.rs)", "[lib](../src/lob.rs)"),
    )
    .unwrap();
    set_mtime(&p, before);
    let (plain, _) = scan(&["--no-cache"]);
    let (warm, n2) = scan(&[]);
    assert_eq!(warm, plain);
    assert_eq!(n2, n1 - 1, "only the edited document lost its stamp");
    assert!(
        signals(&warm, "docs/drift.md").iter().any(
            |s| matches!(s, Signal::MissingPath { reference, .. } if reference == "../src/lob.rs")
        ),
        "{:#?}",
        warm.shortlist
    );
}

/// A drift's evidence (the described files lost a name the document uses) is read once: a warm
/// scan answers it from the cache, and a described file that changes, even keeping its size
/// and modification time, is read again.
#[test]
fn drift_evidence_is_read_again_when_a_described_file_changes() {
    let dir = fixture();
    let d = dir.path();
    // The report, and how many drifts' evidence came from the cache: `... drift evidence
    // 1.5 ms (N documents, M from the cache) ...` gives (N, M).
    let scan = |args: &[&str]| {
        let (r, err) = scan_trusting_stamps(d, args);
        (r, timing_counts(&err, "drift evidence", " ms ("))
    };
    let drifts = |r: &ScanResult| {
        signals(r, "docs/drift.md")
            .iter()
            .filter(|s| matches!(s, Signal::Drift { .. }))
            .count()
    };
    let (plain, _) = scan(&["--no-cache"]);
    assert_eq!(drifts(&plain), 1, "{:#?}", plain.shortlist);
    let (cold, n0) = scan(&[]);
    let (warm, n1) = scan(&[]);
    assert_eq!((&cold, &warm), (&plain, &plain));
    let proposed = n0.as_ref().map_or(0, |n| n[0]);
    assert!(proposed >= 1);
    assert_eq!(
        n0,
        Some(vec![proposed, 0]),
        "the cold scan has no evidence yet"
    );
    assert_eq!(
        n1,
        Some(vec![proposed, proposed]),
        "the warm scan reads none"
    );
    // The described file takes the name back, same size and modification time.
    let p = d.join("src/lib.rs");
    let before = std::fs::metadata(&p).unwrap().modified().unwrap();
    let now = std::fs::read_to_string(&p).unwrap();
    let back = "pub fn old_entry() {}\n//2\n";
    assert_eq!(now.len(), back.len());
    std::fs::write(&p, back).unwrap();
    set_mtime(&p, before);
    let (plain, _) = scan(&["--no-cache"]);
    assert_eq!(drifts(&plain), 0, "{:#?}", plain.shortlist);
    let (warm, n2) = scan(&[]);
    assert_eq!(warm, plain);
    // Every drift the fixture proposes describes `src/lib.rs`: all are read again.
    assert_eq!(n2, Some(vec![proposed, 0]), "the drifts are read again");
}

/// A per-document finding that read a skill's folder or a site's routes stays right when the
/// tree around the document changes: the skill gains its `SKILL.md`, the site loses its
/// configuration.
#[test]
fn findings_that_read_skill_folders_and_site_routes_follow_the_tree() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    git(d, &["init", "-q", "-b", "main"]);
    write(
        d,
        "skills/x/references/old.md",
        "# Old\n\n> **Superseded** by [the new one](references/new.md).\n",
    );
    write(d, "skills/x/references/new.md", "# New\n");
    write(d, "website/docusaurus.config.js", "module.exports = {};\n");
    write(
        d,
        "website/docs/old-page.md",
        "# Old page\n\n> **Superseded** by [the new page](/new-page).\n",
    );
    write(d, "website/docs/new-page.md", "# New page\n");
    commit(d, "start");
    let by = |r: &ScanResult, path: &str| -> Option<String> {
        signals(r, path).iter().find_map(|s| match s {
            Signal::SupersededMarker { by, .. } => by.clone(),
            _ => None,
        })
    };
    let r = same(d, "no skill yet, a site");
    assert_eq!(
        by(&r, "skills/x/references/old.md").as_deref(),
        Some("references/new.md")
    );
    assert_eq!(
        by(&r, "website/docs/old-page.md").as_deref(),
        Some("website/docs/new-page.md")
    );
    write(d, "skills/x/SKILL.md", "---\nname: x\n---\n# X\n");
    commit(d, "a skill");
    let r = same(d, "a skill");
    assert_eq!(
        by(&r, "skills/x/references/old.md").as_deref(),
        Some("skills/x/references/new.md")
    );
    std::fs::remove_file(d.join("website/docusaurus.config.js")).unwrap();
    commit(d, "no site");
    let r = same(d, "no site");
    assert_eq!(
        by(&r, "website/docs/old-page.md").as_deref(),
        Some("/new-page")
    );
}

/// A rename's git questions (the blame of the lines naming the old file, the renaming commit's
/// patch) are asked of git by the first scan and answered from the cache by the next; a new
/// commit moves `HEAD`, so the blame (of `HEAD`) is asked again and the patch (of a commit
/// that never changes) is not. Every report equals the uncached one.
#[test]
fn git_answers_are_kept_until_head_moves() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    git(d, &["init", "-q", "-b", "main"]);
    write(d, "src/old_name.py", "print('start')\n");
    write(
        d,
        "docs/guide.md",
        "# Guide\n\nRun `src/old_name.py` to start.\n",
    );
    commit(d, "start");
    git(d, &["mv", "src/old_name.py", "src/new_name.py"]);
    commit(d, "rename");
    // `(asked, from the cache)` of the tree-wide line's git note.
    let scan = |args: &[&str]| {
        let (r, err) = scan_trusting_stamps(d, args);
        (r, timing_counts(&err, "tree-wide detectors", "(git: "))
    };
    let (plain, asked) = scan(&["--no-cache"]);
    assert!(
        signals(&plain, "docs/guide.md").iter().any(|s| matches!(
            s,
            Signal::MissingPath { renamed_to: Some(to), .. } if to == "src/new_name.py"
        )),
        "{:#?}",
        plain.shortlist
    );
    assert_eq!(asked, Some(vec![2, 0]), "a blame and a patch, asked of git");
    let (cold, n0) = scan(&[]);
    let (warm, n1) = scan(&[]);
    assert_eq!((&cold, &warm), (&plain, &plain));
    assert_eq!(n0, Some(vec![2, 0]));
    assert_eq!(n1, Some(vec![2, 2]), "the warm scan asks git nothing");
    write(d, "README.md", "# Readme\n");
    commit(d, "readme");
    let (plain, _) = scan(&["--no-cache"]);
    let (warm, n2) = scan(&[]);
    assert_eq!(warm, plain);
    assert_eq!(
        n2,
        Some(vec![2, 1]),
        "the blame of the new HEAD is asked again"
    );
    assert!(d.join(".hygiene/cache/git.bin").is_file());
}
