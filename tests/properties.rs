//! Property tests for hostile input (issue 8): the four properties, each over random inputs.
//!
//! 1. `derive_safety_tier` never yields `auto` where the spec forbids it (and yields it exactly
//!    where the spec allows it), for random ops built from real exact edits and lifecycle objects.
//! 2. `apply` then `undo` restores every touched file byte-for-byte, for random sequences of
//!    valid entries over random Markdown files.
//! 3. For random hostile paths, apply refuses and nothing outside a temporary root changes.
//! 4. `validate` never panics on random mutations of the golden report, and whatever it accepts
//!    satisfies the spec's rules, re-checked here from the spec's own words.
//!
//! Expected values come from the spec, from sha2 run here, and from snapshots of the real file
//! tree, never from the code under test. Each property runs a fixed number of cases from a
//! fixed seed, so a failure reproduces; each also counts what its cases exercised and fails if
//! the generator only produced trivial cases.

mod common;
use common::{git, sha256_hex};

/// What the properties compare: the tree as a user sees it, hygiene's own folder left out.
fn snapshot(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    common::without_hygiene(common::snapshot(dir))
}
use hygiene::apply::{self, ApplyRequest, Failure, Outcome, Selection};
use hygiene::kinds::{self, Reversibility};
use hygiene::report::{EditKind, ExactEdit, Lifecycle, Lifetime, OpType, SafetyTier};
use hygiene::tier::{derive_safety_tier, lifecycle_arg, GitState};

/// The request with the approvals a user gives after seeing the dry run: each selected entry's
/// token, as `--dry-run` reports it (no approvals when the dry run is refused whole).
fn approved(mut req: ApplyRequest) -> ApplyRequest {
    if let Selection::Entries(chosen) = &req.selection {
        let dry = ApplyRequest {
            dry_run: true,
            ..req.clone()
        };
        if let Ok(r) = apply::apply(&dry) {
            req.approvals = chosen
                .iter()
                .filter_map(|n| {
                    r.results
                        .iter()
                        .find(|x| x.entry == *n)
                        .and_then(|x| x.approve.clone())
                })
                .collect();
        }
    }
    req
}
use proptest::prelude::*;
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// A check time after every file the tests write, so the mtime fence never trips by accident.
const LATER: &str = "2099-01-01T00:00:00Z";

fn runner(cases: u32) -> TestRunner {
    let config = Config {
        cases,
        failure_persistence: None,
        max_shrink_iters: 200,
        ..Config::default()
    };
    TestRunner::new_with_rng(config, TestRng::from_seed(RngAlgorithm::ChaCha, &[8u8; 32]))
}

fn edit_from(v: Value) -> ExactEdit {
    serde_json::from_value(v).expect("test edits are well-formed")
}

// ---------------------------------------------------------------------------------------------
// 1. derive_safety_tier

fn arb_kind() -> impl Strategy<Value = EditKind> {
    proptest::sample::select(kinds::KINDS.iter().map(|r| r.kind).collect::<Vec<_>>())
}

fn arb_lifecycle() -> impl Strategy<Value = Option<Lifecycle>> {
    proptest::option::weighted(
        0.9,
        (
            prop_oneof![
                Just(Lifetime::Keep),
                Just(Lifetime::Temporary),
                Just(Lifetime::DeleteOnceServed)
            ],
            any::<bool>(),
            any::<bool>(),
        )
            .prop_map(|(lifetime, swp, sw)| Lifecycle {
                rule_ref: "r".into(),
                lifetime,
                served_when_path: swp.then(|| "docs/x.done".to_string()),
                served_when: sw.then(|| "is it done?".to_string()),
            }),
    )
}

/// The spec's "scanner-proven" in its own words: a satisfied `served_when_path`, or a temporary
/// rule's age computation; a `served_when` (or any malformed object) is classifier-judged.
fn spec_scanner_proven(lc: &Lifecycle, served_path_exists: bool) -> bool {
    match (lc.lifetime, &lc.served_when_path, &lc.served_when) {
        (Lifetime::Temporary, None, None) => true,
        (Lifetime::DeleteOnceServed, Some(_), None) => served_path_exists,
        _ => false,
    }
}

#[test]
fn derive_safety_tier_never_returns_auto_where_the_spec_forbids_it() {
    let strategy = (
        prop_oneof![Just(OpType::Deterministic), Just(OpType::Generative)],
        any::<bool>(),
        any::<bool>(),
        arb_kind(),
        arb_lifecycle(),
        any::<(bool, bool, bool, bool)>(),
    );
    let autos = std::cell::Cell::new(0u32);
    let lifecycle_autos = std::cell::Cell::new(0u32);
    runner(4000)
        .run(
            &strategy,
            |(op, destructive, reversible, kind, lc, (tracked, clean, cross, exists))| {
                let is_lifecycle_kind =
                    matches!(kind, EditKind::Delete | EditKind::ExtractThenDelete);
                let mut edit = json!({"kind": kind});
                if let Some(lc) = &lc {
                    edit["lifecycle"] = serde_json::to_value(lc).unwrap();
                }
                if kind == EditKind::ExtractThenDelete {
                    edit["extraction_target"] =
                        json!(if cross { "cross-repo" } else { "repo-durable" });
                }
                let edit = edit_from(edit);
                let git = GitState { tracked, clean };
                let arg = lifecycle_arg(&edit, git, |_| exists);
                prop_assert_eq!(arg.is_some(), is_lifecycle_kind);
                let tier = derive_safety_tier(op, destructive, reversible, arg);

                // The forbidden cases, one by one, as the issue lists them.
                if op == OpType::Generative {
                    prop_assert_eq!(tier, SafetyTier::Confirm, "generative");
                }
                if !is_lifecycle_kind && (destructive || !reversible) {
                    prop_assert_eq!(
                        tier,
                        SafetyTier::Confirm,
                        "non-lifecycle destructive/irreversible"
                    );
                }
                if is_lifecycle_kind {
                    let judged = lc.as_ref().is_none_or(|l| l.served_when.is_some());
                    if judged || !tracked || !clean {
                        prop_assert_eq!(
                            tier,
                            SafetyTier::Confirm,
                            "served_when, untracked or dirty"
                        );
                    }
                }
                // And the converse: auto exactly where the spec allows it.
                let spec_auto = op == OpType::Deterministic
                    && if is_lifecycle_kind {
                        lc.as_ref().is_some_and(|l| spec_scanner_proven(l, exists))
                            && tracked
                            && clean
                            && !(kind == EditKind::ExtractThenDelete && cross)
                    } else {
                        !destructive && reversible
                    };
                prop_assert_eq!(tier == SafetyTier::Auto, spec_auto);
                if tier == SafetyTier::Auto {
                    autos.set(autos.get() + 1);
                    if is_lifecycle_kind {
                        lifecycle_autos.set(lifecycle_autos.get() + 1);
                    }
                }
                Ok(())
            },
        )
        .unwrap();
    let (autos, lifecycle_autos) = (autos.get(), lifecycle_autos.get());
    eprintln!("tier: {autos} auto results, {lifecycle_autos} of them lifecycle");
    assert!(
        autos > 50 && lifecycle_autos > 5,
        "{autos} autos, {lifecycle_autos} lifecycle"
    );
}

// ---------------------------------------------------------------------------------------------
// 2. apply then undo

/// One op the generator wants on a file: which kind, where, and a choice for its free values.
#[derive(Debug, Clone)]
struct OpSpec {
    kind: usize,
    start: usize,
    len: usize,
    pick: usize,
}

/// One generated file: name index, line indices, end-of-line style, trailing newline, ops.
type FileSpec = (usize, Vec<usize>, usize, bool, Vec<OpSpec>);

#[derive(Debug, Clone)]
struct Case {
    files: Vec<FileSpec>,
    steps: Vec<Option<usize>>,
    with_git: bool,
}

const NAMES: [&str; 6] = [
    "a.md",
    "docs/b.md",
    "docs/ünï cödé.md",
    "CLAUDE.md",
    // Read by Claude Code only (when the work reaches x/y/, every session): the names a dedupe
    // may take a span from, its kept copy being loaded every session (the reader rule).
    "x/y/CLAUDE.md",
    ".claude/rules/r.md",
];
/// Where the dedupe entries keep their spans.
const CANON: &str = ".claude/CLAUDE.md";
const LINES: [&str; 10] = [
    "# Heading",
    "- item docs/old.md",
    "plain text line",
    "ünïcödé ✓ text",
    "",
    "    indented code",
    "see `src/x.rs` here",
    "TODO: later",
    "  trailing space  ",
    "[link](docs/old.md#part)",
];
const EOLS: [&str; 3] = ["\n", "\r\n", "mixed"];
const DESTS: [&str; 4] = ["archive/a.md", "archive/ü.md", "a.md", "docs/b.md"];

fn arb_case() -> impl Strategy<Value = Case> {
    let op =
        (0usize..7, 0usize..12, 1usize..4, 0usize..8).prop_map(|(kind, start, len, pick)| OpSpec {
            kind,
            start,
            len,
            pick,
        });
    let file = (
        0usize..NAMES.len(),
        proptest::collection::vec(0usize..LINES.len(), 1..12),
        0usize..EOLS.len(),
        any::<bool>(),
        proptest::collection::vec(op, 0..4),
    );
    (
        proptest::collection::vec(file, 1..4),
        proptest::collection::vec(proptest::option::of(0usize..8), 1..4),
        proptest::bool::weighted(0.3),
    )
        .prop_map(|(files, steps, with_git)| Case {
            files,
            steps,
            with_git,
        })
}

fn render(lines: &[usize], eol: usize, trailing: bool) -> String {
    let mut s = String::new();
    for (i, &l) in lines.iter().enumerate() {
        s.push_str(LINES[l]);
        let last = i + 1 == lines.len();
        if !last || trailing {
            s.push_str(match EOLS[eol] {
                "mixed" if i % 2 == 0 => "\r\n",
                "mixed" => "\n",
                e => e,
            });
        }
    }
    s
}

/// The kind's characterization and tier, from the kind table and `derive_safety_tier` (the
/// finalize path), with `git` the state a lifecycle op's path has.
fn characterize(edit: &ExactEdit, git: GitState) -> (bool, bool, SafetyTier) {
    let row = kinds::rule(edit.kind);
    let reversible = match row.reversibility {
        Reversibility::Fixed(r) => r,
        Reversibility::GitHistory => git.recoverable(),
    };
    let arg = lifecycle_arg(edit, git, |_| true);
    let tier = derive_safety_tier(OpType::Deterministic, row.is_destructive, reversible, arg);
    (row.is_destructive, reversible, tier)
}

struct Built {
    report: Value,
    entries: usize,
}

/// Writes the files of `case` under `root` and builds a valid report over them.
fn build(root: &Path, case: &Case) -> Built {
    let served = json!({"rule_ref": "served", "lifetime": "delete-once-served", "served_when_path": "done.txt"});
    std::fs::write(root.join("done.txt"), "marker\n").unwrap();
    std::fs::create_dir_all(root.join("docs")).unwrap();
    std::fs::write(root.join("docs/new.md"), "# New\n").unwrap();
    // The live rule the lifecycle entries stand on (apply re-evaluates them). CLAUDE.md stays
    // protected by the shipped keep rule, so its lifecycle entries are refused.
    std::fs::create_dir_all(root.join(".hygiene")).unwrap();
    std::fs::write(
        root.join(".hygiene/rulebook.json"),
        json!({"rules": [{"id": "served", "match": "file", "glob": format!("{{{}}}", NAMES.join(",")), "lifetime": "delete-once-served", "served_when_path": "done.txt"}]}).to_string(),
    )
    .unwrap();
    let mut canon = String::from("# Canon\n");
    let mut canon_lines = 1usize;
    let mut texts: BTreeMap<String, String> = BTreeMap::new();
    for (name, lines, eol, trailing, _) in &case.files {
        texts
            .entry(NAMES[*name].to_string())
            .or_insert_with(|| render(lines, *eol, *trailing));
    }
    let mut entries: Vec<Value> = Vec::new();
    let mut lifecycle_paths: Vec<String> = Vec::new();
    for (name, lines, _, _, ops) in &case.files {
        let path = NAMES[*name];
        let text = &texts[path];
        let n = lines.len().max(1);
        for o in ops {
            let start = 1 + o.start % n;
            let end = (start + o.len - 1).min(n);
            let anchor = json!({"start_line": start, "end_line": end});
            let mut edit = match o.kind {
                0 => json!({"kind": "delete-range", "anchor": anchor}),
                1 => {
                    json!({"kind": "move-to-archive", "anchor": anchor, "dest_path": DESTS[o.pick % DESTS.len()]})
                }
                2 => {
                    json!({"kind": "insert-frontmatter", "key": (["hygiene", "status", "ünï"][o.pick % 3]), "value": (["frozen", "done", "x: y"][o.pick % 3])})
                }
                3 => {
                    // A broken reference of the anchored line, pointed at one that resolves
                    // (`[link](docs/old.md#part)` has it only inside a longer reference: apply
                    // refuses that one).
                    let Some(at) = lines
                        .iter()
                        .enumerate()
                        .skip(o.pick % n)
                        .chain(lines.iter().enumerate())
                        .find(|(_, &l)| LINES[l].contains("docs/old.md"))
                        .map(|(i, _)| i + 1)
                    else {
                        continue;
                    };
                    json!({"kind": "replace-text", "anchor": {"start_line": at, "end_line": at}, "match": "docs/old.md", "replacement": "docs/new.md"})
                }
                4 => {
                    // The canonical copy: the same whole blocks, whitespace refolded, in
                    // `.claude/CLAUDE.md` (loaded every session). Apply refuses a span that
                    // cuts a block, so the span is moved to the first whole-block one.
                    let Some((start, end)) = (0..n * n)
                        .map(|k| (1 + (o.start + k / n) % n, 1 + (o.start + k / n + k % n) % n))
                        .find(|&(s, e)| {
                            s <= e
                                && hygiene::scan::markdown::span_problem(text, s as u32, e as u32)
                                    .is_none()
                        })
                    else {
                        continue;
                    };
                    let anchor = json!({"start_line": start, "end_line": end});
                    let span: Vec<&str> = lines[start - 1..end].iter().map(|&l| LINES[l]).collect();
                    let at = canon_lines + 1;
                    for l in &span {
                        canon.push_str(&l.split_whitespace().collect::<Vec<_>>().join("  "));
                        canon.push('\n');
                    }
                    canon_lines += span.len();
                    json!({"kind": "dedupe", "anchor": anchor, "canonical_ref": format!("{CANON}:{at}-{}", canon_lines)})
                }
                5 => json!({"kind": "delete", "anchor": {"whole": "file"}, "lifecycle": served}),
                _ => {
                    json!({"kind": "extract-then-delete", "anchor": anchor, "lifecycle": served, "extraction_target": "repo-durable", "target_path": (["docs/decisions.md", "docs/b.md"][o.pick % 2])})
                }
            };
            edit["expected_sha256"] = json!(sha256_hex(text.as_bytes()));
            let parsed = edit_from(edit.clone());
            let lifecycle = kinds::rule(parsed.kind).lifecycle;
            let git = GitState {
                tracked: case.with_git,
                clean: case.with_git,
            };
            let (destructive, reversible, tier) = characterize(&parsed, git);
            let mut e = json!({
                "path": path,
                "category": {"class": "stale", "subtype": "provisional"},
                "signals": [{"kind": "provisional-marker", "count": 1, "lines": [1]}],
                "op": format!("op {} on {path}", entries.len()),
                "op_type": "deterministic",
                "is_destructive": destructive,
                "is_reversible": reversible,
                "safety_tier": tier,
                "token_estimate": {"raw_tokens": 1},
                "exact_edit": edit,
            });
            if lifecycle {
                e["lifecycle"] = served.clone();
                e["signals"] = json!([{"kind": "lifecycle"}]);
                lifecycle_paths.push(path.to_string());
            }
            entries.push(e);
        }
    }
    for (path, text) in &texts {
        let full = root.join(path);
        std::fs::create_dir_all(full.parent().unwrap()).unwrap();
        std::fs::write(full, text).unwrap();
    }
    std::fs::create_dir_all(root.join(".claude")).unwrap();
    std::fs::write(root.join(CANON), &canon).unwrap();
    let mut shortlist: BTreeMap<&str, Value> = BTreeMap::new();
    for e in &entries {
        let p = e["path"].as_str().unwrap();
        let lc = lifecycle_paths.iter().any(|l| l == p);
        let mut signals = vec![json!({"kind": "provisional-marker", "count": 1, "lines": [1]})];
        if lc {
            signals.push(json!({"kind": "lifecycle"}));
        }
        let mut item = json!({"path": p, "signals": signals, "raw_tokens": 10, "injection_frequency": "on-demand"});
        if lc {
            item["lifecycle"] = served.clone();
        }
        shortlist.insert(p, item);
    }
    let n = entries.len();
    let report = json!({
        "schema_version": 1,
        "tool_version": "0.1.0",
        "generated_at": LATER,
        "scan": {"project_root": root.display().to_string(), "scope_globs": ["**/*.md"], "excluded_dirs": [".git"], "files_scanned": texts.len()},
        "shortlist": shortlist.into_values().collect::<Vec<_>>(),
        "entries": entries,
        "promotion_candidates": [],
    });
    Built { report, entries: n }
}

#[test]
fn apply_then_undo_restores_every_touched_file_byte_for_byte() {
    let applied_total = std::cell::Cell::new(0usize);
    let batches_total = std::cell::Cell::new(0usize);
    let kinds_applied: std::cell::RefCell<BTreeMap<String, usize>> = Default::default();
    runner(96)
        .run(&arb_case(), |case| {
            let tmp = tempfile::tempdir().unwrap();
            let root = tmp.path().canonicalize().unwrap();
            let built = build(&root, &case);
            if case.with_git {
                git(&root, &["init", "-q"]);
                git(
                    &root,
                    &["-c", "user.email=t@e", "-c", "user.name=t", "add", "-A"],
                );
                git(
                    &root,
                    &[
                        "-c",
                        "user.email=t@e",
                        "-c",
                        "user.name=t",
                        "commit",
                        "-qm",
                        "f",
                    ],
                );
            }
            let violations = hygiene::validate::validate_value(&built.report);
            prop_assert!(
                violations.is_empty(),
                "the generator built an invalid report: {:?}",
                violations
            );
            let report_path = root.join(".hygiene/report.json");
            std::fs::create_dir_all(report_path.parent().unwrap()).unwrap();
            std::fs::write(&report_path, serde_json::to_vec(&built.report).unwrap()).unwrap();

            let initial = snapshot(&root);
            let mut stack: Vec<BTreeMap<String, Vec<u8>>> = Vec::new();
            for step in &case.steps {
                let selection = match step {
                    Some(k) if built.entries > 0 => Selection::Entries(vec![k % built.entries]),
                    _ => Selection::Auto,
                };
                let before = snapshot(&root);
                let req = approved(ApplyRequest {
                    root: root.clone(),
                    report: report_path.clone(),
                    selection,
                    approvals: Vec::new(),
                    proposal: None,
                    extract_to: None,
                    dry_run: false,
                });
                let out = match apply::apply(&req) {
                    Ok(r) => r,
                    // Outside git the auto tier is refused whole, and nothing changes.
                    Err(Failure::Refused(m))
                        if !case.with_git && m.contains("not inside a git work tree") =>
                    {
                        prop_assert_eq!(&snapshot(&root), &before);
                        continue;
                    }
                    Err(Failure::Refused(m)) => {
                        return Err(TestCaseError::fail(format!("refused whole: {m}")))
                    }
                    Err(Failure::Error(e)) => {
                        return Err(TestCaseError::fail(format!("error: {e}")))
                    }
                };
                for r in &out.results {
                    if r.outcome == Outcome::Applied {
                        applied_total.set(applied_total.get() + 1);
                        *kinds_applied
                            .borrow_mut()
                            .entry(r.kind.clone())
                            .or_default() += 1;
                    }
                }
                if out.batch.is_some() {
                    stack.push(before);
                    batches_total.set(batches_total.get() + 1);
                } else {
                    prop_assert_eq!(&snapshot(&root), &before, "no batch, yet files changed");
                }
            }
            // Undo newest first: after each, the tree is exactly what it was before that batch.
            while let Some(before) = stack.pop() {
                match apply::undo(&root) {
                    Ok(_) => {}
                    Err(Failure::Refused(m)) => {
                        return Err(TestCaseError::fail(format!("undo refused: {m}")))
                    }
                    Err(Failure::Error(e)) => {
                        return Err(TestCaseError::fail(format!("undo error: {e}")))
                    }
                }
                prop_assert_eq!(&snapshot(&root), &before);
            }
            prop_assert_eq!(&snapshot(&root), &initial);
            Ok(())
        })
        .unwrap();
    let (applied_total, batches_total) = (applied_total.get(), batches_total.get());
    let kinds_applied = kinds_applied.into_inner();
    eprintln!(
        "apply/undo: {applied_total} edits applied in {batches_total} batches: {kinds_applied:?}"
    );
    assert!(
        applied_total > 40 && batches_total > 20,
        "too few edits exercised: {applied_total} applied in {batches_total} batches"
    );
    for k in [
        "delete-range",
        "move-to-archive",
        "insert-frontmatter",
        "replace-text",
        "dedupe",
        "delete",
        "extract-then-delete",
    ] {
        assert!(
            kinds_applied.contains_key(k),
            "no {k} was ever applied: {kinds_applied:?}"
        );
    }
}

// ---------------------------------------------------------------------------------------------
// 3. hostile paths

/// Links planted in the root: each leads out of it (or nowhere).
const OUT_LINKS: [&str; 4] = ["link.md", "linkdir", "dangling.md", "loop"];

fn arb_segment() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("..".to_string()),
        Just(".".to_string()),
        Just("".to_string()),
        Just("linkdir".to_string()),
        Just("link.md".to_string()),
        Just("dangling.md".to_string()),
        Just("loop".to_string()),
        Just("inner.md".to_string()),
        Just("ok.md".to_string()),
        Just("docs".to_string()),
        Just("victim.md".to_string()),
        Just("outside".to_string()),
        // Unicode look-alikes of `..` and `/`: ordinary names, never a parent or a separator.
        Just("\u{2024}\u{2024}".to_string()),
        Just("\u{ff0e}\u{ff0e}".to_string()),
        Just("\u{a4f8}\u{a4f8}".to_string()),
        Just("..\u{200b}".to_string()),
        Just("a\u{2215}b.md".to_string()),
        Just("%2e%2e".to_string()),
        Just("..\\..".to_string()),
        Just("x\u{0}y".to_string()),
        (1usize..400).prop_map(|n| "n".repeat(n)),
    ]
}

fn arb_hostile_path(outside: String) -> impl Strategy<Value = String> {
    (proptest::collection::vec(arb_segment(), 1..5), 0usize..6).prop_map(move |(segs, prefix)| {
        let joined = segs.join("/");
        match prefix {
            0 => format!("/{joined}"),
            1 => format!("{outside}/{joined}"),
            _ => joined,
        }
    })
}

/// Whether `p` leaves the root by its text or through a planted link (they sit at the top of
/// the root, so only a first segment can pass through one): such a path must never be written.
fn escapes(p: &str) -> bool {
    let segs: Vec<&str> = p.split('/').collect();
    p.starts_with('/') || segs.contains(&"..") || OUT_LINKS.contains(&segs[0])
}

#[test]
fn hostile_paths_are_refused_and_nothing_outside_the_root_changes() {
    let tmp = tempfile::tempdir().unwrap();
    let base = tmp.path().canonicalize().unwrap();
    let outside = base.join("outside");
    let outside_s = outside.display().to_string();
    let refused = std::cell::Cell::new(0usize);
    let escaping_cases = std::cell::Cell::new(0usize);
    let strategy = (
        0usize..6,
        arb_hostile_path(outside_s.clone()),
        any::<bool>(),
    );
    runner(300)
        .run(&strategy, |(field, hostile, auto)| {
            // A fresh root each case, the same outside folder beside it.
            let root = base.join("root");
            let _ = std::fs::remove_dir_all(&root);
            std::fs::create_dir_all(root.join("docs")).unwrap();
            std::fs::create_dir_all(&outside).unwrap();
            let victim = "# Victim\nsee docs/old.md\nline 3\n";
            std::fs::write(outside.join("victim.md"), victim).unwrap();
            let ok = "# Ok\nline 2\nline 3\n";
            std::fs::write(root.join("ok.md"), ok).unwrap();
            std::fs::write(root.join("done.txt"), "x\n").unwrap();
            std::fs::write(root.join("docs/new.md"), "# New\n").unwrap();
            // A work tree, so the auto tier runs its guards rather than refusing outside git.
            git(&root, &["init", "-q"]);
            #[cfg(unix)]
            {
                use std::os::unix::fs::symlink;
                symlink(outside.join("victim.md"), root.join("link.md")).unwrap();
                symlink(&outside, root.join("linkdir")).unwrap();
                symlink(outside.join("nothing.md"), root.join("dangling.md")).unwrap();
                symlink(root.join("loop"), root.join("loop")).unwrap();
                symlink(root.join("ok.md"), root.join("inner.md")).unwrap();
            }
            let outside_before = snapshot(&outside);
            let root_before = snapshot(&root);
            let oks = sha256_hex(ok.as_bytes());
            let served = |p: &str| json!({"rule_ref": "r", "lifetime": "delete-once-served", "served_when_path": p});
            let temporary = json!({"rule_ref": "r", "lifetime": "temporary"});
            // The hostile path goes into one path field of an otherwise valid entry.
            let (path, edit, lifecycle) = match field {
                0 => (hostile.clone(), json!({"kind": "replace-text", "anchor": {"start_line": 2, "end_line": 2}, "match": "docs/old.md", "replacement": "docs/new.md", "expected_sha256": sha256_hex(victim.as_bytes())}), None),
                1 => ("ok.md".to_string(), json!({"kind": "move-to-archive", "anchor": {"start_line": 2, "end_line": 2}, "dest_path": hostile, "expected_sha256": oks}), None),
                2 => ("ok.md".to_string(), json!({"kind": "dedupe", "anchor": {"start_line": 2, "end_line": 2}, "canonical_ref": format!("{hostile}:2-2"), "expected_sha256": oks}), None),
                3 => ("ok.md".to_string(), json!({"kind": "extract-then-delete", "anchor": {"start_line": 2, "end_line": 2}, "lifecycle": temporary, "extraction_target": "repo-durable", "target_path": hostile, "expected_sha256": oks}), Some(temporary.clone())),
                4 => (hostile.clone(), json!({"kind": "delete", "anchor": {"whole": "file"}, "lifecycle": temporary, "expected_sha256": sha256_hex(victim.as_bytes())}), Some(temporary.clone())),
                _ => ("ok.md".to_string(), json!({"kind": "delete", "anchor": {"whole": "file"}, "lifecycle": served(&hostile), "expected_sha256": oks}), Some(served(&hostile))),
            };
            let parsed = edit_from(edit.clone());
            let (destructive, reversible, tier) = characterize(&parsed, GitState { tracked: false, clean: false });
            let mut e = json!({
                "path": path,
                "category": {"class": "stale", "subtype": "orphaned"},
                "signals": [{"kind": "provisional-marker", "count": 1, "lines": [1]}],
                "op": "hostile",
                "op_type": "deterministic",
                "is_destructive": destructive,
                "is_reversible": reversible,
                "safety_tier": tier,
                "token_estimate": {"raw_tokens": 1},
                "exact_edit": edit,
            });
            let mut item = json!({"path": path, "signals": [{"kind": "provisional-marker", "count": 1, "lines": [1]}], "raw_tokens": 1, "injection_frequency": "on-demand"});
            if let Some(lc) = lifecycle {
                e["lifecycle"] = lc.clone();
                e["signals"] = json!([{"kind": "lifecycle"}]);
                item["lifecycle"] = lc;
                item["signals"] = json!([{"kind": "lifecycle"}]);
            }
            let report = json!({
                "schema_version": 1, "tool_version": "0.1.0", "generated_at": LATER,
                "scan": {"project_root": root.display().to_string(), "scope_globs": ["**/*.md"], "excluded_dirs": [], "files_scanned": 1},
                "shortlist": [item], "entries": [e], "promotion_candidates": [],
            });
            // The report lives outside the root, so `.hygiene/` is only what apply makes.
            let report_path = base.join("report.json");
            std::fs::write(&report_path, serde_json::to_vec(&report).unwrap()).unwrap();
            let req = approved(ApplyRequest {
                root: root.clone(),
                report: report_path,
                selection: if auto { Selection::Auto } else { Selection::Entries(vec![0]) },
                approvals: Vec::new(),
                proposal: None,
                extract_to: None,
                dry_run: false,
            });
            let applied = match apply::apply(&req) {
                Ok(r) => r.results.iter().any(|r| r.outcome == Outcome::Applied),
                Err(_) => false,
            };
            // Field 5 is only read (a served_when_path's existence); the write there is ok.md.
            let is_escape = field != 5 && escapes(&hostile);
            if is_escape {
                escaping_cases.set(escaping_cases.get() + 1);
                prop_assert!(!applied, "an escaping path was applied: {:?} in field {}", hostile, field);
            }
            if !applied {
                refused.set(refused.get() + 1);
                let mut after = snapshot(&root);
                after.retain(|k, _| !k.starts_with(".hygiene"));
                prop_assert_eq!(after, root_before, "a refused entry changed the root");
            }
            prop_assert_eq!(snapshot(&outside), outside_before, "something outside the root changed");
            // The planted links are still links to where they pointed.
            for l in OUT_LINKS {
                prop_assert!(std::fs::symlink_metadata(root.join(l)).map(|m| m.file_type().is_symlink()).unwrap_or(false));
            }
            Ok(())
        })
        .unwrap();
    let (escaping_cases, refused) = (escaping_cases.get(), refused.get());
    eprintln!("hostile: {escaping_cases} escaping paths, {refused} cases refused");
    assert!(
        escaping_cases > 100 && refused > 100,
        "{escaping_cases} escaping, {refused} refused"
    );
    // Nothing was written beside the root either (the report is the only file the test put there).
    let mut names: Vec<String> = std::fs::read_dir(&base)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, ["outside", "report.json", "root"]);
}

// ---------------------------------------------------------------------------------------------
// 4. validate on mutations of the golden report

fn golden() -> Value {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("examples/golden/valid-report.json");
    serde_json::from_slice(&std::fs::read(p).unwrap()).unwrap()
}

#[derive(Debug, Clone)]
enum Mutation {
    DeleteKey(usize),
    EnumWord(usize, usize),
    FlipBool(usize),
    Number(usize, usize),
    SwapBetweenEntries(usize, usize, usize),
    StringPath(usize, usize),
    DuplicateEntry(usize),
}

fn arb_mutation() -> impl Strategy<Value = Mutation> {
    let n = any::<usize>();
    prop_oneof![
        n.prop_map(Mutation::DeleteKey),
        (n, n).prop_map(|(a, b)| Mutation::EnumWord(a, b)),
        n.prop_map(Mutation::FlipBool),
        (n, n).prop_map(|(a, b)| Mutation::Number(a, b)),
        (n, n, n).prop_map(|(a, b, c)| Mutation::SwapBetweenEntries(a, b, c)),
        (n, n).prop_map(|(a, b)| Mutation::StringPath(a, b)),
        n.prop_map(Mutation::DuplicateEntry),
    ]
}

/// Every enum word of the contract, and a few that are not.
const WORDS: &[&str] = &[
    "stale",
    "bloat",
    "contradicted",
    "orphaned",
    "superseded",
    "provisional",
    "completed-in-place",
    "duplicated",
    "distill",
    "split",
    "freeze",
    "deterministic",
    "generative",
    "auto",
    "confirm",
    "delete-range",
    "move-to-archive",
    "insert-frontmatter",
    "replace-text",
    "dedupe",
    "delete",
    "extract-then-delete",
    "keep",
    "temporary",
    "delete-once-served",
    "repo-durable",
    "cross-repo",
    "per-session",
    "on-demand",
    "file",
    "directory",
    "link",
    "code",
    "import",
    "lifecycle",
    "oversize",
    "missing-path",
    "Auto",
    "sometimes",
    "",
];
const ENUM_KEYS: &[&str] = &[
    "class",
    "subtype",
    "op_type",
    "safety_tier",
    "kind",
    "lifetime",
    "extraction_target",
    "injection_frequency",
    "whole",
    "via",
];
const PATHS: &[&str] = &[
    "CLAUDE.md",
    "docs/setup.md",
    "../etc/passwd",
    "/abs.md",
    "docs/./x.md",
    "docs//x.md",
    "a\\b.md",
    "docs/x.md:3-1",
    "AGENTS.md",
];

/// Every (pointer) of a leaf or key, filtered by `pick`.
fn pointers(v: &Value, at: String, out: &mut Vec<(String, Value)>) {
    match v {
        Value::Object(m) => {
            for (k, c) in m {
                let p = format!("{at}/{}", k.replace('~', "~0").replace('/', "~1"));
                out.push((p.clone(), c.clone()));
                pointers(c, p, out);
            }
        }
        Value::Array(a) => {
            for (i, c) in a.iter().enumerate() {
                let p = format!("{at}/{i}");
                out.push((p.clone(), c.clone()));
                pointers(c, p, out);
            }
        }
        _ => {}
    }
}

fn last_key(p: &str) -> &str {
    p.rsplit('/').next().unwrap_or("")
}

fn mutate(v: &mut Value, m: &Mutation) {
    let mut all = Vec::new();
    pointers(v, String::new(), &mut all);
    let pick = |f: &dyn Fn(&(String, Value)) -> bool, i: usize| -> Option<String> {
        let c: Vec<&(String, Value)> = all.iter().filter(|x| f(x)).collect();
        (!c.is_empty()).then(|| c[i % c.len()].0.clone())
    };
    match m {
        Mutation::DeleteKey(i) => {
            let is_key = |x: &(String, Value)| last_key(&x.0).parse::<usize>().is_err();
            if let Some(p) = pick(&is_key, *i) {
                let (parent, key) = p.rsplit_once('/').unwrap();
                let key = key.replace("~1", "/").replace("~0", "~");
                if let Some(obj) = v.pointer_mut(parent).and_then(Value::as_object_mut) {
                    obj.remove(&key);
                }
            }
        }
        Mutation::EnumWord(i, w) => {
            let is_enum =
                |x: &(String, Value)| x.1.is_string() && ENUM_KEYS.contains(&last_key(&x.0));
            if let Some(p) = pick(&is_enum, *i) {
                *v.pointer_mut(&p).unwrap() = json!(WORDS[w % WORDS.len()]);
            }
        }
        Mutation::FlipBool(i) => {
            if let Some(p) = pick(&|x| x.1.is_boolean(), *i) {
                let b = v.pointer(&p).unwrap().as_bool().unwrap();
                *v.pointer_mut(&p).unwrap() = json!(!b);
            }
        }
        Mutation::Number(i, k) => {
            if let Some(p) = pick(&|x| x.1.is_number(), *i) {
                let old = v.pointer(&p).unwrap().as_u64().unwrap_or(0);
                let choices = [
                    json!(0),
                    json!(old + 1),
                    json!(old.saturating_sub(1)),
                    json!(-1),
                    json!(1.5),
                    json!(u64::MAX),
                    json!(u32::MAX as u64 + 1),
                    json!("7"),
                ];
                *v.pointer_mut(&p).unwrap() = choices[k % choices.len()].clone();
            }
        }
        Mutation::SwapBetweenEntries(a, b, k) => {
            let Some(entries) = v["entries"].as_array_mut() else {
                return;
            };
            if entries.len() < 2 {
                return;
            }
            let (a, b) = (a % entries.len(), b % entries.len());
            let keys: Vec<String> = entries[a]
                .as_object()
                .map(|o| o.keys().cloned().collect())
                .unwrap_or_default();
            if keys.is_empty() || a == b {
                return;
            }
            let key = &keys[k % keys.len()];
            let va = entries[a].get(key).cloned();
            let vb = entries[b].get(key).cloned();
            for (i, val) in [(a, vb), (b, va)] {
                if let Some(o) = entries[i].as_object_mut() {
                    match val {
                        Some(x) => o.insert(key.clone(), x),
                        None => o.remove(key),
                    };
                }
            }
        }
        Mutation::StringPath(i, k) => {
            let pathish = |x: &(String, Value)| {
                x.1.is_string()
                    && [
                        "path",
                        "dest_path",
                        "target_path",
                        "canonical_ref",
                        "served_when_path",
                        "renamed_to",
                    ]
                    .contains(&last_key(&x.0))
            };
            if let Some(p) = pick(&pathish, *i) {
                *v.pointer_mut(&p).unwrap() = json!(PATHS[k % PATHS.len()]);
            }
        }
        Mutation::DuplicateEntry(i) => {
            if let Some(entries) = v["entries"].as_array_mut() {
                if !entries.is_empty() {
                    let e = entries[i % entries.len()].clone();
                    entries.push(e);
                }
            }
        }
    }
}

fn s<'a>(v: &'a Value, k: &str) -> Option<&'a str> {
    v.get(k).and_then(Value::as_str)
}

fn relative_ok(p: &str) -> bool {
    !p.is_empty()
        && !p.starts_with('/')
        && !p.contains('\\')
        && !p.contains('\0')
        && p.trim_end_matches('/')
            .split('/')
            .all(|seg| !matches!(seg, "" | "." | ".."))
}

fn lifecycle_ok(lc: &Value) -> bool {
    let swp = lc.get("served_when_path").is_some();
    let sw = lc.get("served_when").is_some();
    s(lc, "rule_ref").is_some()
        && match s(lc, "lifetime") {
            Some("delete-once-served") => swp != sw,
            Some("temporary") | Some("keep") => !swp && !sw,
            _ => false,
        }
        && lc
            .get("served_when_path")
            .and_then(Value::as_str)
            .is_none_or(relative_ok)
}

/// The spec's rules, re-read from the report-schema spec, checked on raw JSON: whatever the
/// validator accepts must pass every one. Returns the first broken rule.
fn spec_violation(r: &Value) -> Option<String> {
    let fail = |m: &str| Some(m.to_string());
    for k in [
        "schema_version",
        "tool_version",
        "generated_at",
        "scan",
        "shortlist",
        "entries",
        "promotion_candidates",
    ] {
        if r.get(k).is_none() {
            return fail(&format!("envelope lacks {k}"));
        }
    }
    if r["schema_version"] != json!(1) {
        return fail("schema_version");
    }
    let g = s(r, "generated_at").unwrap_or("");
    let b = g.as_bytes();
    if !(g.len() == 20
        && b[4] == b'-'
        && b[7] == b'-'
        && b[10] == b'T'
        && b[13] == b':'
        && b[16] == b':'
        && b[19] == b'Z')
    {
        return fail("generated_at is not ISO-8601 UTC");
    }
    for k in [
        "project_root",
        "scope_globs",
        "excluded_dirs",
        "files_scanned",
    ] {
        if r["scan"].get(k).is_none() {
            return fail(&format!("scan lacks {k}"));
        }
    }
    let shortlist = r["shortlist"].as_array()?;
    let mut items: BTreeMap<&str, &Value> = BTreeMap::new();
    for it in shortlist {
        let p = s(it, "path")?;
        if !relative_ok(p) || items.insert(p, it).is_some() {
            return fail("shortlist path");
        }
    }
    let stale = [
        "contradicted",
        "orphaned",
        "superseded",
        "provisional",
        "completed-in-place",
        "duplicated",
    ];
    let bloat = ["distill", "split", "freeze"];
    for e in r["entries"].as_array()? {
        for k in [
            "path",
            "category",
            "signals",
            "op",
            "op_type",
            "is_destructive",
            "is_reversible",
            "safety_tier",
            "token_estimate",
        ] {
            if e.get(k).is_none() {
                return fail(&format!("entry lacks {k}"));
            }
        }
        let path = s(e, "path")?;
        let Some(item) = items.get(path) else {
            return fail("entry path not in shortlist");
        };
        let sub = s(&e["category"], "subtype").unwrap_or("");
        match s(&e["category"], "class") {
            Some("stale") if stale.contains(&sub) => {}
            Some("bloat") if bloat.contains(&sub) => {}
            _ => return fail("category"),
        }
        let (Some(d), Some(rv)) = (e["is_destructive"].as_bool(), e["is_reversible"].as_bool())
        else {
            return fail("characterization not booleans");
        };
        if e["token_estimate"]["raw_tokens"].as_u64().is_none() {
            return fail("raw_tokens");
        }
        let signals = e["signals"].as_array()?;
        if signals.is_empty()
            || signals
                .iter()
                .any(|sg| !item["signals"].as_array().is_some_and(|a| a.contains(sg)))
        {
            return fail("entry signals not from its shortlist item");
        }
        let op_type = s(e, "op_type");
        let edit = e.get("exact_edit");
        match (op_type, edit) {
            (Some("deterministic"), Some(_)) | (Some("generative"), None) => {}
            _ => return fail("exact_edit iff deterministic"),
        }
        if let Some(lc) = e.get("lifecycle") {
            if !lifecycle_ok(lc) || item.get("lifecycle") != Some(lc) {
                return fail("entry lifecycle");
            }
        }
        let tier = s(e, "safety_tier");
        let spec_tier = match edit {
            None => "confirm",
            Some(x) => {
                let has = |k: &str| x.get(k).is_some();
                let lines = x["anchor"]
                    .get("start_line")
                    .and_then(Value::as_u64)
                    .zip(x["anchor"].get("end_line").and_then(Value::as_u64));
                let whole = s(&x["anchor"], "whole");
                let lines_ok = lines.is_some_and(|(a, b)| a >= 1 && a <= b);
                let sha = s(x, "expected_sha256").unwrap_or("");
                if sha.len() != 64
                    || !sha
                        .bytes()
                        .all(|c| c.is_ascii_digit() || (b'a'..=b'f').contains(&c))
                {
                    return fail("expected_sha256");
                }
                for k in ["dest_path", "target_path"] {
                    if s(x, k).is_some_and(|p| !relative_ok(p)) {
                        return fail(k);
                    }
                }
                let kind = s(x, "kind").unwrap_or("");
                let (req_ok, fixed): (bool, Option<(bool, bool)>) = match kind {
                    "delete-range" => (lines_ok, Some((true, false))),
                    "move-to-archive" => (lines_ok && has("dest_path"), Some((false, true))),
                    "insert-frontmatter" => (has("key") && has("value"), Some((false, true))),
                    "replace-text" => (
                        lines_ok && has("match") && has("replacement"),
                        Some((false, true)),
                    ),
                    "dedupe" => (lines_ok && has("canonical_ref"), Some((false, true))),
                    "delete" => (
                        whole.is_some() && x.get("lifecycle").is_some_and(lifecycle_ok),
                        None,
                    ),
                    "extract-then-delete" => (
                        x.get("lifecycle").is_some_and(lifecycle_ok)
                            && match s(x, "extraction_target") {
                                Some("repo-durable") => has("target_path"),
                                Some("cross-repo") => true,
                                _ => false,
                            },
                        None,
                    ),
                    _ => return fail("kind outside the closed set"),
                };
                if !req_ok {
                    return fail(&format!("{kind} lacks a required sub-field"));
                }
                if let Some(c) = s(x, "canonical_ref") {
                    let Some((p, range)) = c.rsplit_once(':') else {
                        return fail("canonical_ref");
                    };
                    let ok = range
                        .split_once('-')
                        .and_then(|(a, b)| Some((a.parse::<u32>().ok()?, b.parse::<u32>().ok()?)))
                        .is_some_and(|(a, b)| a >= 1 && a <= b);
                    if !ok || !relative_ok(p) {
                        return fail("canonical_ref");
                    }
                }
                match fixed {
                    Some((fd, fr)) => {
                        if (d, rv) != (fd, fr) {
                            return fail("kind characterization");
                        }
                        if !d && rv {
                            "auto"
                        } else {
                            "confirm"
                        }
                    }
                    None => {
                        if !d {
                            return fail("a lifecycle kind is destructive");
                        }
                        let lc = &x["lifecycle"];
                        if item.get("lifecycle") != Some(lc) || lc["lifetime"] == "keep" {
                            return fail("edit lifecycle");
                        }
                        let proven = matches!(
                            (
                                s(lc, "lifetime"),
                                lc.get("served_when_path"),
                                lc.get("served_when"),
                            ),
                            (Some("temporary"), None, None)
                                | (Some("delete-once-served"), Some(_), None)
                        );
                        // is_reversible records "tracked and clean" when the tier was derived.
                        if proven && rv && s(x, "extraction_target") != Some("cross-repo") {
                            "auto"
                        } else {
                            "confirm"
                        }
                    }
                }
            }
        };
        if tier != Some(spec_tier) {
            return fail(&format!(
                "safety_tier {tier:?} is not the spec's {spec_tier}"
            ));
        }
        // And the one function agrees.
        let entry: hygiene::report::Entry = serde_json::from_value(e.clone()).ok()?;
        let git = GitState {
            tracked: rv,
            clean: rv,
        };
        let arg = entry
            .exact_edit
            .as_ref()
            .and_then(|x| lifecycle_arg(x, git, |_| true));
        if derive_safety_tier(entry.op_type, d, rv, arg) != entry.safety_tier {
            return fail("safety_tier is not derive_safety_tier's");
        }
    }
    let judged: Vec<&str> = r["entries"]
        .as_array()?
        .iter()
        .filter(|e| {
            e.get("lifecycle")
                .or(e["exact_edit"].get("lifecycle"))
                .is_some_and(|l| l.get("served_when").is_some())
        })
        .filter_map(|e| s(e, "path"))
        .collect();
    for c in r["promotion_candidates"].as_array()? {
        if !s(c, "path").is_some_and(|p| judged.contains(&p))
            || s(c, "convention").is_none()
            || s(c, "pitch").is_none()
        {
            return fail("promotion candidate");
        }
    }
    None
}

#[test]
fn validate_never_panics_on_golden_mutations_and_accepts_only_spec_valid_reports() {
    let base = golden();
    assert!(
        hygiene::validate::validate_value(&base).is_empty(),
        "the golden report is valid"
    );
    assert_eq!(
        spec_violation(&base),
        None,
        "the spec check accepts the golden report"
    );
    let accepted = std::cell::Cell::new(0usize);
    let rejected = std::cell::Cell::new(0usize);
    runner(1500)
        .run(&proptest::collection::vec(arb_mutation(), 1..4), |muts| {
            let mut v = base.clone();
            for m in &muts {
                mutate(&mut v, m);
            }
            let bytes = serde_json::to_vec(&v).unwrap();
            let violations = hygiene::validate::validate_bytes(&bytes);
            if violations.is_empty() {
                accepted.set(accepted.get() + 1);
                prop_assert_eq!(spec_violation(&v), None, "accepted after {:?}", muts);
            } else {
                rejected.set(rejected.get() + 1);
                for x in &violations {
                    prop_assert!(!x.rule.is_empty());
                }
            }
            Ok(())
        })
        .unwrap();
    let (accepted, rejected) = (accepted.get(), rejected.get());
    eprintln!("validate: {accepted} mutations accepted, {rejected} rejected");
    assert!(
        accepted > 50 && rejected > 500,
        "{accepted} accepted, {rejected} rejected"
    );
}
