//! Integration tests of the scanner on real git repositories built in temp folders. Expected
//! values come from `git` itself, from hashing/tokenizing in the test, or from the fixture text
//! the test wrote, never from the scanner's own output.

mod common;
use common::{git, write};
use hygiene::report::{InjectionFrequency, ScanResult, ShortlistItem, Signal, SkipReason, Via};
use hygiene::scan::{scan, signal_rules, ScanOptions, THRESHOLDS};
use std::path::Path;
use std::process::Command;

fn commit(dir: &Path, msg: &str) {
    git(dir, &["add", "-A"]);
    git(dir, &["commit", "-q", "--allow-empty", "-m", msg]);
}

fn init(dir: &Path) {
    git(dir, &["init", "-q", "-b", "main"]);
}

fn run(root: &Path) -> ScanResult {
    scan(&ScanOptions {
        root: root.to_path_buf(),
        ..Default::default()
    })
    .expect("scan completes")
}

fn item<'a>(r: &'a ScanResult, path: &str) -> &'a ShortlistItem {
    r.shortlist
        .iter()
        .find(|i| i.path == path)
        .unwrap_or_else(|| panic!("{path} not shortlisted: {:#?}", r.shortlist))
}

fn line_of(text: &str, needle: &str) -> u32 {
    text.lines()
        .position(|l| l.contains(needle))
        .expect("needle") as u32
        + 1
}

fn tokens(text: &str) -> u64 {
    bpe_openai::cl100k_base().count(text) as u64
}

/// The fixture repository with history: renames (a chain), a deletion, duplicates, a finished
/// plan, a frozen doc, drift, and clean files.
struct Fixture {
    dir: tempfile::TempDir,
    guide: String,
}

fn fixture() -> Fixture {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    init(d);
    write(
        d,
        "src/lib.rs",
        "pub fn run_scan() {}\npub struct Repo;\nimpl Repo { pub fn history() {} }\n",
    );
    write(d, "docs/a.md", "# A\n\n## Setup\n\nSteps.\n");
    write(d, "docs/gone.md", "# Gone\n");
    write(
        d,
        "docs/clean.md",
        "# Clean\n\nNothing wrong here. See [site](https://example.com).\n",
    );
    commit(d, "start");
    git(d, &["mv", "docs/a.md", "docs/b.md"]);
    commit(d, "a to b");
    git(d, &["mv", "docs/b.md", "docs/c.md"]);
    commit(d, "b to c");
    git(d, &["rm", "-q", "docs/gone.md"]);
    commit(d, "delete gone");

    let shared = "## Build\n\nRun the full build with the release profile, then run every test binary and the\nlinters before you push; the CI checks exactly the same things and refuses a red build.\n";
    let claude = format!("# Project\n\n{shared}\n## Other\n\nMore text.\n");
    write(d, "CLAUDE.md", &claude);
    let guide = format!(
        "# Guide\n\nRead [the setup](docs/a.md#setup) first.\n\
Old notes are in `docs/gone.md`.\n\
Use `run_scan()` from `src/lib.rs` and `Repo::history` but not `vanished_call()`.\n\
\n```sh\ncat docs/in-fence.md\n```\n\
\nSee [site](https://example.com/x.md) and [c](docs/c.md#L10) and [q](docs/c.md?plain=1).\n\
[bad anchor](docs/c.md#nope) and [good anchor](docs/c.md#setup).\n\
\n{shared}\n## State\n\nStatus: Done\n\n- [x] one\n- [x] two\n- [x] three\n\nTODO: tidy this. FIXME too.\n"
    );
    write(d, "guide.md", &guide);
    // An investigation write-up, long, whose own text says it is over.
    let story: String = (0..90)
        .map(|i| {
            format!("Step {i} of the hunt checked one more cache layer and found nothing new. ")
        })
        .collect();
    write(
        d,
        "docs/investigations/cache-miss.md",
        &format!("# Cache misses\n\n{story}\n\n## Root cause\n\nThe key omitted the locale.\n"),
    );
    write(
        d,
        ".claude/commands/build.md",
        &format!("# Build\n\nBefore a push:\n\n{shared}"),
    );
    write(
        d,
        "docs/old-plan.md",
        "# Old plan\n\n> **Superseded** by [the new plan](new-plan.md).\n",
    );
    write(d, "docs/new-plan.md", "# New plan\n");
    write(d, "docs/space file.md", "# Spaced\n");
    write(
        d,
        "docs/links.md",
        "# Links\n\n[s](space%20file.md) [up](../guide.md)\n",
    );
    let big: String = (0..12000).map(|i| format!("word{i} ")).collect();
    // Oversize of a skill file read on demand rides along: each long page also has a broken link.
    write(
        d,
        "skills/big/reference.md",
        &format!("# Big\n\n[gone](gone-big.md)\n\n{big}\n"),
    );
    write(
        d,
        "skills/big/frozen.md",
        &format!(
            "---\nhygiene: frozen\n---\n# Frozen\n\n[gone](gone-frozen.md)\n\n{}\n",
            big.replace("word", "frozen")
        ),
    );
    write(d, ".gitignore", "ignored/\n");
    write(d, "ignored/x.md", "[broken](nowhere.md)\n");
    write(d, "node_modules/pkg/README.md", "[broken](nowhere.md)\n");
    write(
        d,
        ".claude/rules/always.md",
        "# Rule\n\n[broken](nowhere-rule.md)\n",
    );
    write(
        d,
        ".claude/rules/scoped.md",
        "---\npaths: src/**\n---\n# Scoped\n\n[broken](nowhere-scoped.md)\n",
    );
    commit(d, "docs");
    // Drift: the file the drift doc references changes in three later commits, which take
    // away the `legacy_entry` the doc names (the evidence a drift needs).
    write(
        d,
        "src/lib.rs",
        "pub fn run_scan() {}\npub fn legacy_entry() {}\npub struct Repo;\nimpl Repo { pub fn history() {} }\n",
    );
    write(
        d,
        "docs/drift.md",
        // Drift rides along: a provisional marker shortlists the document.
        "# Drift\n\nThe code lives in [lib](../src/lib.rs).\n\nStart with `legacy_entry`.\n\nTODO: describe the API.\n",
    );
    commit(d, "drift doc");
    for i in 0..3 {
        write(d, "src/lib.rs", &format!("pub fn run_scan() {{}}\npub struct Repo;\nimpl Repo {{ pub fn history() {{}} }}\n// {i}\n"));
        commit(d, &format!("lib {i}"));
    }
    Fixture { dir, guide }
}

#[test]
fn every_signal_kind_with_lines_and_fields() {
    let f = fixture();
    let d = f.dir.path();
    let r = run(d);
    let g = item(&r, "guide.md");
    let sig = |pred: &dyn Fn(&Signal) -> bool| {
        g.signals
            .iter()
            .filter(|s| pred(s))
            .cloned()
            .collect::<Vec<_>>()
    };

    // Rename chain a -> b -> c: renamed_to is what `git log -M --follow` reports for c.
    let follow = git(
        d,
        &[
            "log",
            "-M",
            "--follow",
            "--name-status",
            "--format=",
            "--",
            "docs/c.md",
        ],
    );
    let renames: Vec<(String, String)> = follow
        .lines()
        .filter(|l| l.starts_with('R'))
        .map(|l| {
            let p: Vec<&str> = l.split('\t').collect();
            (p[1].to_string(), p[2].to_string())
        })
        .collect();
    assert!(
        renames.iter().any(|(old, _)| old == "docs/a.md"),
        "{follow}"
    );
    let newest = renames[0].1.clone();
    let mp =
        sig(&|s| matches!(s, Signal::MissingPath { reference, .. } if reference == "docs/a.md"));
    assert_eq!(mp.len(), 1, "{:#?}", g.signals);
    match &mp[0] {
        Signal::MissingPath {
            line,
            via,
            renamed_to,
            deleted_in,
            ..
        } => {
            assert_eq!(*line, line_of(&f.guide, "the setup"));
            assert_eq!(*via, Via::Link);
            assert_eq!(renamed_to.as_deref(), Some(newest.as_str()));
            assert!(d.join(newest).is_file());
            assert!(deleted_in.is_none());
        }
        _ => unreachable!(),
    }
    // Its replace-text suggestion targets the exact text on that line.
    let rt = g
        .suggestions
        .iter()
        .find(|s| s.exact_edit.kind == hygiene::report::EditKind::ReplaceText)
        .expect("replace-text suggestion");
    assert_eq!(rt.exact_edit.match_text.as_deref(), Some("docs/a.md"));
    assert_eq!(rt.exact_edit.replacement.as_deref(), Some("docs/c.md"));
    let l = line_of(&f.guide, "the setup") as usize;
    assert!(f.guide.lines().nth(l - 1).unwrap().contains("docs/a.md"));

    // Deletion: deleted_in is the commit `git log --diff-filter=D` names.
    let del = git(
        d,
        &[
            "log",
            "--diff-filter=D",
            "--format=%H",
            "--",
            "docs/gone.md",
        ],
    );
    let mp =
        sig(&|s| matches!(s, Signal::MissingPath { reference, .. } if reference == "docs/gone.md"));
    match &mp[..] {
        [Signal::MissingPath {
            line,
            via,
            renamed_to,
            deleted_in: Some(di),
            ..
        }] => {
            assert_eq!(*line, line_of(&f.guide, "Old notes"));
            assert_eq!(*via, Via::Code);
            assert!(renamed_to.is_none());
            assert_eq!(di.commit, del.trim());
        }
        other => panic!("{other:#?}"),
    }
    // Not checked: fenced code, URLs; `#L10` and `?query` are cut off; only one anchor is bad.
    assert!(sig(&|s| matches!(s, Signal::MissingPath { reference, .. } if reference.contains("in-fence") || reference.contains("example"))).is_empty());
    assert_eq!(
        sig(&|s| matches!(s, Signal::MissingPath { .. })).len(),
        2,
        "{:#?}",
        g.signals
    );
    assert_eq!(
        sig(&|s| matches!(s, Signal::MissingAnchor { .. })),
        vec![Signal::MissingAnchor {
            line: line_of(&f.guide, "bad anchor"),
            reference: "docs/c.md#nope".into()
        }]
    );
    // Symbols: run_scan and Repo::history exist in src; vanished_call does not.
    assert_eq!(
        sig(&|s| matches!(s, Signal::MissingSymbol { .. })),
        vec![Signal::MissingSymbol {
            line: line_of(&f.guide, "vanished_call"),
            reference: "vanished_call".into()
        }]
    );
    assert!(g
        .signals
        .contains(&Signal::ChecklistComplete { checked: 3 }));
    assert!(g.signals.contains(&Signal::StatusDone {
        line: line_of(&f.guide, "Status: Done"),
        text: "Status: Done".into()
    }));
    assert!(g.signals.contains(&Signal::ProvisionalMarker {
        count: 2,
        lines: vec![line_of(&f.guide, "TODO")]
    }));

    // Duplicate: the per-session CLAUDE.md keeps the section. The guide's copy is read by people,
    // who never read CLAUDE.md: no signal there. The command's copy (Claude Code only) is
    // flagged with the exact lines, and they equal the canonical lines after whitespace folding.
    assert!(sig(&|s| matches!(s, Signal::DuplicateBlock { .. })).is_empty());
    let claude = std::fs::read_to_string(d.join("CLAUDE.md")).unwrap();
    let cmd_text = std::fs::read_to_string(d.join(".claude/commands/build.md")).unwrap();
    let cmd = item(&r, ".claude/commands/build.md");
    let dup: Vec<&Signal> = cmd
        .signals
        .iter()
        .filter(|s| matches!(s, Signal::DuplicateBlock { .. }))
        .collect();
    assert_eq!(dup.len(), 1, "{dup:#?}");
    let Signal::DuplicateBlock {
        start_line,
        end_line,
        canonical_ref,
    } = dup[0].clone()
    else {
        unreachable!()
    };
    let cs = line_of(&claude, "## Build");
    let ce = line_of(&claude, "refuses a red build");
    assert_eq!(canonical_ref, format!("CLAUDE.md:{cs}-{ce}"));
    assert_eq!(start_line, line_of(&cmd_text, "## Build"));
    assert_eq!(end_line, line_of(&cmd_text, "refuses a red build"));
    let span = |t: &str, a: u32, b: u32| {
        t.lines()
            .skip(a as usize - 1)
            .take((b - a + 1) as usize)
            .collect::<Vec<_>>()
            .join(" ")
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
    };
    assert_eq!(span(&cmd_text, start_line, end_line), span(&claude, cs, ce));
    assert!(cmd
        .suggestions
        .iter()
        .any(|s| s.exact_edit.kind == hygiene::report::EditKind::Dedupe
            && s.exact_edit.canonical_ref.as_deref() == Some(canonical_ref.as_str())));
    assert!(
        !r.shortlist.iter().any(|i| i.path == "CLAUDE.md"),
        "the canonical copy is not flagged"
    );

    // The resolved investigation: the heading that says so, and its prose word count.
    let inv = item(&r, "docs/investigations/cache-miss.md");
    let inv_text = std::fs::read_to_string(d.join("docs/investigations/cache-miss.md")).unwrap();
    match &inv.signals[..] {
        [Signal::ResolvedNarrative { line, text, words }] => {
            assert_eq!(*line, line_of(&inv_text, "## Root cause"));
            assert_eq!(text, "## Root cause");
            assert!(*words >= THRESHOLDS.resolved_narrative_min_words, "{words}");
        }
        other => panic!("{other:#?}"),
    }
    assert!(inv.suggestions.is_empty(), "the model distils; no edit");

    // Superseded with `by` resolved to the linked document.
    let old = item(&r, "docs/old-plan.md");
    assert_eq!(
        old.signals,
        vec![Signal::SupersededMarker {
            line: 3,
            by: Some("docs/new-plan.md".into())
        }]
    );

    // Oversize: counted with the local tokenizer; frozen docs get none.
    let big = std::fs::read_to_string(d.join("skills/big/reference.md")).unwrap();
    let b = item(&r, "skills/big/reference.md");
    assert!(
        b.signals.contains(&Signal::Oversize {
            raw_tokens: tokens(&big),
            threshold: THRESHOLDS.oversize_on_demand_tokens
        }),
        "{:?}",
        b.signals
    );
    assert!(tokens(&big) > THRESHOLDS.oversize_on_demand_tokens);
    assert_eq!(b.raw_tokens, tokens(&big));
    assert!(!item(&r, "skills/big/frozen.md")
        .signals
        .iter()
        .any(|s| matches!(s, Signal::Oversize { .. })));

    // Drift: three commits touched src/lib.rs since the doc last changed.
    let since: i64 = git(d, &["log", "-1", "--format=%ct", "--", "docs/drift.md"])
        .trim()
        .parse()
        .unwrap();
    let doc_commit = git(d, &["log", "-1", "--format=%H", "--", "docs/drift.md"]);
    let n = git(
        d,
        &[
            "rev-list",
            "--count",
            &format!("{}..HEAD", doc_commit.trim()),
            "--",
            "src/lib.rs",
        ],
    );
    let dr = item(&r, "docs/drift.md");
    assert!(
        dr.signals.contains(&Signal::Drift {
            commits: n.trim().parse().unwrap(),
            since: hygiene::time::format_date(since),
        }),
        "{:?}",
        dr.signals
    );
    assert_eq!(n.trim(), "3");

    // Load class: the rule without `paths:` is per-session, the scoped one on-demand.
    assert_eq!(
        item(&r, ".claude/rules/always.md").injection_frequency,
        InjectionFrequency::PerSession
    );
    assert_eq!(
        item(&r, ".claude/rules/scoped.md").injection_frequency,
        InjectionFrequency::OnDemand
    );
    // Order: per-session first.
    assert_eq!(r.shortlist[0].path, ".claude/rules/always.md");

    // Clean files, %20 links, ignored and excluded folders are not shortlisted.
    for p in [
        "docs/clean.md",
        "docs/links.md",
        "docs/c.md",
        "docs/new-plan.md",
        "ignored/x.md",
        "node_modules/pkg/README.md",
    ] {
        assert!(!r.shortlist.iter().any(|i| i.path == p), "{p} shortlisted");
    }
    assert!(r.scan.warnings.is_empty(), "{:?}", r.scan.warnings);

    // Every kind the scanner can produce from documents alone appeared (lifecycle needs the
    // rulebook, whose evaluation lives in `lifecycle`).
    let kinds: std::collections::HashSet<&str> = r
        .shortlist
        .iter()
        .flat_map(|i| i.signals.iter())
        .map(hygiene::scan::signal_kind)
        .collect();
    for k in signal_rules()
        .iter()
        .map(|r| r.kind)
        .filter(|k| *k != "lifecycle")
    {
        assert!(kinds.contains(k), "{k} never produced");
    }
}

#[test]
fn folder_relative_rename_is_written_relative() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    init(d);
    write(d, "docs/guide/x.md", "# X\n");
    commit(d, "x");
    std::fs::create_dir_all(d.join("docs/ref")).unwrap();
    git(d, &["mv", "docs/guide/x.md", "docs/ref/y.md"]);
    write(
        d,
        "docs/guide/index.md",
        "# I\n\nSee [x](./x.md) and [x again](x.md).\n",
    );
    commit(d, "mv");
    let r = run(d);
    let it = item(&r, "docs/guide/index.md");
    let reps: Vec<_> = it
        .suggestions
        .iter()
        .map(|s| {
            (
                s.exact_edit.match_text.clone().unwrap(),
                s.exact_edit.replacement.clone().unwrap(),
            )
        })
        .collect();
    // `x.md` also sits inside `./x.md` on the line, so a swap of it is ambiguous: finalize
    // would refuse it (and with it the whole check), so it is not suggested. Its signal still
    // reaches the model.
    assert_eq!(reps, vec![("./x.md".into(), "../ref/y.md".into())]);
    let refs: Vec<&str> = it
        .signals
        .iter()
        .filter_map(|s| match s {
            Signal::MissingPath { reference, .. } => Some(reference.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(refs, ["./x.md", "x.md"]);
}

#[test]
fn signal_rules_have_one_row_per_variant() {
    // Exhaustive: a new variant fails to compile here until it is listed.
    let all = |s: &Signal| match s {
        Signal::MissingPath { .. }
        | Signal::MissingAnchor { .. }
        | Signal::MissingSymbol { .. }
        | Signal::DuplicateBlock { .. }
        | Signal::ChecklistComplete { .. }
        | Signal::StatusDone { .. }
        | Signal::SupersededMarker { .. }
        | Signal::ProvisionalMarker { .. }
        | Signal::Oversize { .. }
        | Signal::Drift { .. }
        | Signal::ResolvedNarrative { .. }
        | Signal::Lifecycle {} => (),
    };
    let samples = vec![
        Signal::MissingPath {
            line: 1,
            reference: "a".into(),
            via: Via::Link,
            renamed_to: None,
            deleted_in: None,
        },
        Signal::MissingAnchor {
            line: 1,
            reference: "a#b".into(),
        },
        Signal::MissingSymbol {
            line: 1,
            reference: "f()".into(),
        },
        Signal::DuplicateBlock {
            start_line: 1,
            end_line: 2,
            canonical_ref: "a:1-2".into(),
        },
        Signal::ChecklistComplete { checked: 3 },
        Signal::StatusDone {
            line: 1,
            text: "x".into(),
        },
        Signal::SupersededMarker { line: 1, by: None },
        Signal::ProvisionalMarker {
            count: 1,
            lines: vec![1],
        },
        Signal::Oversize {
            raw_tokens: 1,
            threshold: 0,
        },
        Signal::Drift {
            commits: 3,
            since: "x".into(),
        },
        Signal::ResolvedNarrative {
            line: 9,
            text: "## Resolution".into(),
            words: 500,
        },
        Signal::Lifecycle {},
    ];
    let rules = signal_rules();
    assert_eq!(rules.len(), samples.len());
    for s in &samples {
        all(s);
        let v = serde_json::to_value(s).unwrap();
        let kind = v["kind"].as_str().unwrap();
        assert_eq!(rules.iter().filter(|r| r.kind == kind).count(), 1, "{kind}");
        assert_eq!(hygiene::scan::signal_kind(s), kind);
        // Every serialized field is published.
        let row = rules.iter().find(|r| r.kind == kind).unwrap();
        for k in v.as_object().unwrap().keys().filter(|k| *k != "kind") {
            assert!(row.fields.contains(&k.as_str()), "{kind}.{k} unpublished");
        }
    }
}

#[test]
fn broken_history_completes_with_a_warning() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    init(d);
    write(d, "docs/x.md", "# X\n");
    commit(d, "one");
    git(d, &["mv", "docs/x.md", "docs/y.md"]);
    write(d, "README.md", "See [x](docs/x.md).\n");
    commit(d, "two");
    // Remove the blob object of the first commit's tree entry... remove the first commit's
    // tree object, so `git log --name-status` fails part-way.
    let first = git(d, &["rev-list", "--max-parents=0", "HEAD"]);
    let tree = git(d, &["rev-parse", &format!("{}^{{tree}}", first.trim())]);
    let t = tree.trim();
    let obj = d.join(".git/objects").join(&t[..2]).join(&t[2..]);
    std::fs::remove_file(&obj).expect("loose object");
    let r = run(d);
    assert!(
        r.scan.warnings.iter().any(|w| w.contains("incomplete")),
        "{:?}",
        r.scan.warnings
    );
    let it = item(&r, "README.md");
    assert!(
        matches!(&it.signals[0], Signal::MissingPath { reference, .. } if reference == "docs/x.md")
    );

    // A shallow clone: completes, says so.
    let clone = tempfile::tempdir().unwrap();
    let src = tempfile::tempdir().unwrap();
    init(src.path());
    write(src.path(), "a.md", "# A\n");
    commit(src.path(), "1");
    write(src.path(), "b.md", "[a](gone.md)\n");
    commit(src.path(), "2");
    let url = format!("file://{}", src.path().display());
    let st = Command::new("git")
        .args(["clone", "-q", "--depth", "1", &url])
        .arg(clone.path().join("c"))
        .status()
        .unwrap();
    assert!(st.success());
    let r = run(&clone.path().join("c"));
    assert!(
        r.scan.warnings.iter().any(|w| w.contains("shallow")),
        "{:?}",
        r.scan.warnings
    );
    assert_eq!(item(&r, "b.md").signals.len(), 1);
}

#[test]
fn bad_input_is_skipped_with_reasons() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // No git at all.
    std::fs::write(d.join("latin1.md"), b"caf\xe9 [x](nope.md)\n").unwrap();
    std::fs::write(d.join("binary.md"), b"abc\0def").unwrap();
    std::fs::write(d.join("crlf.md"), "# T\r\n\r\n[x](gone.md)\r\n").unwrap();
    std::fs::write(d.join("bom.md"), "\u{feff}# T\n\nStatus: Done\n").unwrap();
    let big = "a ".repeat((THRESHOLDS.file_size_cap_bytes / 2 + 10) as usize);
    std::fs::write(d.join("huge.md"), big).unwrap();
    std::fs::create_dir(d.join("loop")).unwrap();
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink("loop.md", d.join("loop.md")).unwrap();
        std::os::unix::fs::symlink("..", d.join("loop/up")).unwrap();
        std::os::unix::fs::symlink("/etc/hostname", d.join("outside.md")).unwrap();
        std::os::unix::fs::symlink("crlf.md", d.join("alias.md")).unwrap();
    }
    let r = run(d);
    let reason = |p: &str| {
        r.scan
            .skipped
            .iter()
            .find(|s| s.path == p)
            .map(|s| s.reason)
    };
    assert_eq!(reason("latin1.md"), Some(SkipReason::NotUtf8));
    assert_eq!(reason("binary.md"), Some(SkipReason::Binary));
    assert_eq!(reason("huge.md"), Some(SkipReason::TooLarge));
    #[cfg(unix)]
    {
        assert_eq!(reason("loop.md"), Some(SkipReason::Symlink));
        assert_eq!(reason("outside.md"), Some(SkipReason::Symlink));
        assert_eq!(
            reason("alias.md"),
            None,
            "an alias inside the root is not a document"
        );
    }
    assert!(r
        .scan
        .warnings
        .iter()
        .any(|w| w.contains("not a git repository")));
    assert_eq!(
        item(&r, "crlf.md").signals,
        vec![Signal::MissingPath {
            line: 3,
            reference: "gone.md".into(),
            via: Via::Link,
            renamed_to: None,
            deleted_in: None
        }]
    );
    assert_eq!(
        item(&r, "bom.md").signals,
        vec![Signal::StatusDone {
            line: 3,
            text: "Status: Done".into()
        }]
    );
    assert_eq!(r.scan.files_scanned, 2);
}

#[test]
fn paths_scope_exclude_and_cli() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    init(d);
    write(d, "a/x.md", "[b](nope.md)\n");
    write(d, "b/y.md", "[b](nope.md)\n");
    write(d, "notes.txt", "[b](nope.md)\n");
    commit(d, "1");
    let only = scan(&ScanOptions {
        root: d.into(),
        paths: vec!["a".into()],
        ..Default::default()
    })
    .unwrap();
    assert_eq!(
        only.shortlist
            .iter()
            .map(|i| i.path.as_str())
            .collect::<Vec<_>>(),
        ["a/x.md"]
    );
    assert_eq!(only.scan.files_scanned, 1);
    let ex = scan(&ScanOptions {
        root: d.into(),
        exclude: vec!["b".into()],
        ..Default::default()
    })
    .unwrap();
    assert_eq!(
        ex.shortlist
            .iter()
            .map(|i| i.path.as_str())
            .collect::<Vec<_>>(),
        ["a/x.md"]
    );
    assert!(ex.scan.excluded_dirs.contains(&"b".to_string()));
    let sc = scan(&ScanOptions {
        root: d.into(),
        scope: Some(vec!["*.txt".into()]),
        ..Default::default()
    })
    .unwrap();
    assert_eq!(
        sc.shortlist
            .iter()
            .map(|i| i.path.as_str())
            .collect::<Vec<_>>(),
        ["notes.txt"]
    );
    assert_eq!(sc.scan.scope_globs, vec!["*.txt".to_string()]);

    let bin = env!("CARGO_BIN_EXE_hygiene");
    let out = Command::new(bin)
        .args(["scan", "--root"])
        .arg(d)
        .env("HYGIENE_NOW", "1795968259")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let r: ScanResult = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(r.generated_at, "2026-11-29T16:04:19Z");
    assert_eq!(r.schema_version, hygiene::report::SCHEMA_VERSION);
    assert_eq!(r.shortlist.len(), 2);
    let outfile = d.join("out/scan.json");
    let st = Command::new(bin)
        .args(["scan", "--format", "human", "--root"])
        .arg(d)
        .arg("--out")
        .arg(&outfile)
        .status()
        .unwrap();
    assert!(st.success());
    assert!(std::fs::read_to_string(&outfile)
        .unwrap()
        .contains("a/x.md"));
    let bad = Command::new(bin)
        .args(["scan", "--root", "/definitely/not/here"])
        .output()
        .unwrap();
    assert_eq!(bad.status.code(), Some(2));
    let bad = Command::new(bin)
        .args(["scan", "--root"])
        .arg(d)
        .arg("../up")
        .output()
        .unwrap();
    assert_eq!(bad.status.code(), Some(2));

    // tokens: counts with the local tokenizer, names the encoding.
    write(d, "CLAUDE.md", "# Hello world\n\n@a/x.md\n");
    let out = Command::new(bin)
        .args(["tokens", "--root"])
        .arg(d)
        .args(["CLAUDE.md", "a/x.md", "b/y.md"])
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v[0]["raw_tokens"], tokens("# Hello world\n\n@a/x.md\n"));
    assert_eq!(v[0]["injection_frequency"], "per-session");
    assert_eq!(
        v[1]["injection_frequency"], "per-session",
        "imported by CLAUDE.md"
    );
    assert_eq!(v[2]["injection_frequency"], "on-demand");
    assert_eq!(v[0]["encoding"], "cl100k_base");
}

/// The golden classifier example `duplicated-dedupe` (examples/golden/classifier): its `repo/`
/// committed and scanned gives exactly the signals, the suggested edit, the token count and the
/// load class its `item.json` expects.
#[test]
fn golden_dedupe_example() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    init(d);
    let golden =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/golden/classifier/duplicated-dedupe");
    // CLAUDE.md first, earlier: both files load every session, so the older keeps the copy
    // (the canonical rule), as in the repository the example stands for.
    for rel in ["CLAUDE.md", "config.example.toml", ".claude/rules/setup.md"] {
        write(
            d,
            rel,
            &std::fs::read_to_string(golden.join("repo").join(rel)).unwrap(),
        );
        if rel == "config.example.toml" {
            git(d, &["add", "-A"]);
            let st = Command::new("git")
                .current_dir(d)
                .args(["-c", "user.name=t", "-c", "user.email=t@e"])
                .args(["-c", "commit.gpgsign=false", "commit", "-q", "-m", "zero"])
                .env("GIT_COMMITTER_DATE", "2026-01-01T00:00:00Z")
                .status()
                .unwrap();
            assert!(st.success());
        }
    }
    commit(d, "one");
    let want: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(golden.join("item.json")).unwrap()).unwrap();
    let r = run(d);
    assert_eq!(r.shortlist.len(), 1, "{:#?}", r.shortlist);
    let it = item(&r, want["path"].as_str().unwrap());
    assert_eq!(serde_json::to_value(&it.signals).unwrap(), want["signals"]);
    assert_eq!(it.suggestions.len(), 1, "{:#?}", it.suggestions);
    assert_eq!(
        serde_json::to_value(&it.suggestions[0].exact_edit).unwrap(),
        want["suggestions"][0]["exact_edit"]
    );
    assert_eq!(serde_json::json!(it.raw_tokens), want["raw_tokens"]);
    assert_eq!(
        serde_json::to_value(it.injection_frequency).unwrap(),
        want["injection_frequency"]
    );
    // The same copy in a page people read is not a dedupe: they never read CLAUDE.md.
    write(
        d,
        "docs/setup.md",
        &std::fs::read_to_string(golden.join("repo/.claude/rules/setup.md")).unwrap(),
    );
    commit(d, "two");
    let r = run(d);
    assert!(
        r.shortlist.iter().all(|i| i.path != "docs/setup.md"),
        "{:#?}",
        r.shortlist
    );
}

#[test]
fn backticked_example_paths_are_not_reported_but_layout_paths_are() {
    let d = tempfile::tempdir().unwrap();
    let root = d.path();
    init(root);
    write(root, "src/kept.rs", "pub fn f() {}\n");
    write(root, "legacy/gone.rs", "pub fn g() {}\n");
    commit(root, "one");
    git(root, &["rm", "-q", "legacy/gone.rs"]);
    write(
        root,
        "docs/guide.md",
        "# Guide\n\nName plans like `plans/2026-01-01-topic.md`.\n\
         The helper lives in `src/missing.rs`.\n\
         It used `legacy/gone.rs`.\n\
         See [the spec](specs/none.md).\n",
    );
    commit(root, "two");
    let r = run(root);
    let refs: Vec<String> = item(&r, "docs/guide.md")
        .signals
        .iter()
        .filter_map(|s| match s {
            Signal::MissingPath { reference, .. } => Some(reference.clone()),
            _ => None,
        })
        .collect();
    // an example whose folder does not exist and that git never knew: not reported;
    // a path into an existing folder, a path git deleted (its folder went with it), and any
    // link: reported
    assert_eq!(refs, ["src/missing.rs", "legacy/gone.rs", "specs/none.md"]);
}
