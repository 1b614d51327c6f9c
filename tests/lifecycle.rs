//! Lifecycle deletion end to end: real git repositories built in temp dirs, the `hygiene sweep`
//! binary and the library side by side. Expected values come from the test's own data (names,
//! dates it chose, `date -u` figures in comments), never from the code under test.

use hygiene::git::{state_in, Repo};
use hygiene::lifecycle::{self, evaluate, walk_files, Governed, Rulebook, Status};
use hygiene::report::SafetyTier;
use serde_json::{json, Value};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

/// 2026-06-01T00:00:00Z (`date -u -d 2026-06-01T00:00:00 +%s`).
const NOW: i64 = 1_780_272_000;

struct Fixture {
    dir: tempfile::TempDir,
}

impl Fixture {
    fn new() -> Fixture {
        let f = Fixture {
            dir: tempfile::tempdir().unwrap(),
        };
        f.git(&["init", "-q"]);
        f
    }
    fn root(&self) -> PathBuf {
        self.dir.path().canonicalize().unwrap()
    }
    fn write(&self, rel: &str, text: &str) {
        let p = self.root().join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }
    fn git(&self, args: &[&str]) {
        self.git_at(args, None);
    }
    fn git_at(&self, args: &[&str], date: Option<&str>) {
        let mut c = Command::new("git");
        c.arg("-C").arg(self.dir.path()).args(args);
        c.env("GIT_AUTHOR_NAME", "t")
            .env("GIT_AUTHOR_EMAIL", "t@example.com")
            .env("GIT_COMMITTER_NAME", "t")
            .env("GIT_COMMITTER_EMAIL", "t@example.com");
        if let Some(d) = date {
            c.env("GIT_AUTHOR_DATE", d).env("GIT_COMMITTER_DATE", d);
        }
        let out = c.output().unwrap();
        assert!(
            out.status.success(),
            "git {args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    fn commit_all(&self) {
        self.git(&["add", "-A"]);
        self.git(&["commit", "-q", "-m", "fixture"]);
    }
    fn rulebook(&self, v: Value) {
        self.write(".hygiene/rulebook.json", &v.to_string());
    }
    /// `hygiene sweep --format json` at NOW.
    fn sweep(&self) -> Value {
        let out = self.run(&["sweep", "--format", "json"]);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        serde_json::from_slice(&out.stdout).unwrap()
    }
    fn run(&self, args: &[&str]) -> std::process::Output {
        Command::new(env!("CARGO_BIN_EXE_hygiene"))
            .args(args)
            .arg("--root")
            .arg(self.root())
            .env("HYGIENE_NOW", NOW.to_string())
            .output()
            .unwrap()
    }
    /// The library's view: rulebook, walk, history, evaluate.
    fn evaluate(&self) -> Vec<Governed> {
        let root = self.root();
        let book = Rulebook::load(&root).unwrap();
        let (files, _) = walk_files(&root, &book.excluded_dirs);
        let repo = Repo::discover(&root);
        let history = repo.as_ref().map(Repo::history);
        evaluate(&root, &book, &files, repo.as_ref(), history.as_ref(), NOW)
    }
    /// The tier each governed item's edit derives with live git state.
    fn library_tiers(&self) -> Vec<(String, Option<SafetyTier>)> {
        let root = self.root();
        let repo = Repo::discover(&root).unwrap();
        let (tracked, dirty) = (repo.tracked(), repo.dirty());
        self.evaluate()
            .iter()
            .map(|g| {
                let git = state_in(&tracked, dirty.as_ref(), &root, &g.path);
                (g.path.clone(), lifecycle::sweep::tier_of(g, git))
            })
            .collect()
    }
}

fn items(v: &Value) -> &Vec<Value> {
    v["items"].as_array().unwrap()
}

fn item<'a>(v: &'a Value, path: &str) -> &'a Value {
    items(v)
        .iter()
        .find(|i| i["path"] == path)
        .unwrap_or_else(|| panic!("no item {path} in {v:#}"))
}

fn paths_with(v: &Value, key: &str, value: &str) -> BTreeSet<String> {
    items(v)
        .iter()
        .filter(|i| i[key] == value)
        .map(|i| i["path"].as_str().unwrap().to_string())
        .collect()
}

const HANDOFF_DATES: [&str; 8] = [
    "2026-03-14",
    "2026-01-02",
    "2026-04-20",
    "2026-02-11",
    "2026-01-30",
    "2026-03-01",
    "2026-02-27",
    "2026-04-02",
];

fn handoff(date: &str) -> String {
    format!(".claude/handoffs/{date}-handoff.md")
}

/// The three oldest of HANDOFF_DATES (ISO dates sort as strings).
fn three_oldest() -> BTreeSet<String> {
    let mut d = HANDOFF_DATES.to_vec();
    d.sort();
    d[..3].iter().map(|d| handoff(d)).collect()
}

#[test]
fn eight_handoffs_mark_exactly_the_three_oldest_and_tier_follows_git_state() {
    let f = Fixture::new();
    for d in HANDOFF_DATES {
        f.write(&handoff(d), &format!("# Handoff {d}\n"));
    }
    f.commit_all();
    // Every date is more than 30 days before 2026-06-01, so only the rank decides.
    let v = f.sweep();
    assert_eq!(paths_with(&v, "status", "served"), three_oldest());
    assert_eq!(v["counts"]["not_served"], 5);
    for p in three_oldest() {
        let i = item(&v, &p);
        assert_eq!(i["safety_tier"], "auto", "{i:#}");
        assert_eq!(i["evidence"]["date_source"], "name");
        assert_eq!(
            i["lifecycle"],
            json!({"rule_ref": "handoffs", "lifetime": "temporary"})
        );
        let edit = &i["suggestion"]["exact_edit"];
        assert_eq!(edit["kind"], "delete");
        assert_eq!(edit["anchor"], json!({"whole": "file"}));
        assert!(edit.get("expected_sha256").is_none());
    }
    let drafted: BTreeSet<String> = v["drafts"]["entries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["path"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(drafted, three_oldest());
    // The library agrees.
    let served: BTreeSet<String> = f
        .evaluate()
        .into_iter()
        .filter(|g| g.served == Some(true))
        .map(|g| g.path)
        .collect();
    assert_eq!(served, three_oldest());
    for (p, t) in f.library_tiers() {
        let want = three_oldest().contains(&p).then_some(SafetyTier::Auto);
        assert_eq!(t, want, "{p}");
    }

    // Modify one served handoff: it alone asks.
    let mut oldest: Vec<String> = three_oldest().into_iter().collect();
    let modified = oldest.remove(0);
    f.write(&modified, "# Handoff, edited locally\n");
    let v = f.sweep();
    assert_eq!(item(&v, &modified)["safety_tier"], "confirm");
    assert_eq!(
        item(&v, &modified)["git"],
        json!({"tracked": true, "clean": false})
    );
    for p in &oldest {
        assert_eq!(item(&v, p)["safety_tier"], "auto");
    }
    let lib: Vec<_> = f.library_tiers();
    assert!(lib.contains(&(modified.clone(), Some(SafetyTier::Confirm))));
    assert!(!v["drafts"]["entries"].as_array().unwrap().is_empty());

    // An untracked, even older handoff is served too, and asks.
    let untracked = handoff("2025-12-01");
    f.write(&untracked, "# not committed\n");
    let v = f.sweep();
    assert_eq!(item(&v, &untracked)["status"], "served");
    assert_eq!(item(&v, &untracked)["safety_tier"], "confirm");
    assert_eq!(item(&v, &untracked)["git"]["tracked"], false);
    assert_eq!(v["counts"]["served"], 4);
}

#[test]
fn handoffs_younger_than_the_age_limit_stay() {
    let f = Fixture::new();
    // Newest first: 5, 10, 15, 20, 25 (kept by rank), 26 (too young), 45 and 90 days old.
    let ages = [5, 10, 15, 20, 25, 26, 45, 90];
    let mut names = Vec::new();
    for a in ages {
        let out = Command::new("date")
            .args(["-u", "-d", &format!("@{}", NOW - a * 86_400), "+%F"])
            .output()
            .unwrap();
        let d = String::from_utf8(out.stdout).unwrap().trim().to_string();
        f.write(&handoff(&d), "x\n");
        names.push(handoff(&d));
    }
    f.commit_all();
    let v = f.sweep();
    let want: BTreeSet<String> = names[6..].iter().cloned().collect();
    assert_eq!(paths_with(&v, "status", "served"), want);
    assert_eq!(item(&v, &names[5])["evidence"]["rank"], 6);
    assert_eq!(item(&v, &names[5])["status"], "not-served");
}

#[test]
fn plan_with_existing_served_when_path_is_scanner_proven() {
    let f = Fixture::new();
    f.write("src/feature.rs", "fn main() {}\n");
    f.write(
        "docs/plans/feature.md",
        "---\ntitle: feature\nserved_when_path: src/feature.rs\n---\n# Feature plan\n- [ ] build it\n",
    );
    f.write(
        "docs/plans/later.md",
        "---\nserved_when_path: src/later.rs\n---\n# Later\n",
    );
    // A path next to the document resolves against its folder first.
    f.write(
        "docs/plans/local.md",
        "---\nserved_when_path: local.done\n---\n# Local\n",
    );
    f.write("docs/plans/local.done", "");
    // A path that tries to leave the root is ignored: the rule's question applies instead.
    f.write(
        "docs/plans/escape.md",
        "---\nserved_when_path: ../../etc/passwd\n---\n# E\n",
    );
    f.commit_all();
    let v = f.sweep();
    let i = item(&v, "docs/plans/feature.md");
    assert_eq!(i["status"], "served");
    assert_eq!(i["evidence"]["evidence"], "served-when-path-satisfied");
    assert_eq!(i["evidence"]["path_source"], "frontmatter");
    assert_eq!(
        i["lifecycle"],
        json!({"rule_ref": "plans", "lifetime": "delete-once-served", "served_when_path": "src/feature.rs"})
    );
    assert_eq!(i["safety_tier"], "auto");
    let later = item(&v, "docs/plans/later.md");
    assert_eq!(later["status"], "not-served");
    assert_eq!(later["evidence"]["path_exists"], false);
    assert!(later.get("suggestion").is_none());
    assert_eq!(
        item(&v, "docs/plans/local.md")["lifecycle"]["served_when_path"],
        "docs/plans/local.done"
    );
    assert_eq!(item(&v, "docs/plans/local.md")["status"], "served");
    let escape = item(&v, "docs/plans/escape.md");
    assert_eq!(escape["status"], "needs-judgement");
    assert!(escape["evidence"]["notes"][0]
        .as_str()
        .unwrap()
        .contains("../../etc/passwd"));

    // A rule template: `{dir}/{stem}.done` next to each plan.
    f.rulebook(json!({"rules": [{
        "id": "plans", "match": "file", "glob": "**/plans/**/*.md",
        "lifetime": "delete-once-served", "served_when_path": "{dir}/{stem}.done"
    }]}));
    f.write("docs/plans/other.md", "# Other\n");
    f.write("docs/plans/other.done", "");
    let v = f.sweep();
    let o = item(&v, "docs/plans/other.md");
    assert_eq!(o["status"], "served");
    assert_eq!(o["evidence"]["path_source"], "rule");
    assert_eq!(o["lifecycle"]["served_when_path"], "docs/plans/other.done");
    // Untracked: proven, but still asks.
    assert_eq!(o["safety_tier"], "confirm");
    // The frontmatter wins over the rule's template.
    assert_eq!(
        item(&v, "docs/plans/feature.md")["lifecycle"]["served_when_path"],
        "src/feature.rs"
    );
}

#[test]
fn classifier_judged_plan_needs_judgement_and_always_confirms() {
    let shipped: Value = serde_json::from_str(
        &std::fs::read_to_string(
            Path::new(env!("CARGO_MANIFEST_DIR")).join("rulebook.default.json"),
        )
        .unwrap(),
    )
    .unwrap();
    let question = shipped["rules"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["id"] == "plans")
        .unwrap()["served_when"]
        .clone();
    let f = Fixture::new();
    f.write(
        "docs/superpowers/plans/2026-01-01-auth.md",
        "# Auth plan\n- [x] done\n",
    );
    f.write("README.md", "# r\n");
    f.commit_all();
    for state in ["tracked-clean", "modified", "untracked"] {
        if state == "modified" {
            f.write(
                "docs/superpowers/plans/2026-01-01-auth.md",
                "# Auth plan\nedited\n",
            );
        }
        if state == "untracked" {
            f.write("docs/plans/new.md", "# New plan\n");
        }
        let v = f.sweep();
        for p in items(&v).iter().filter(|i| i["rule"] == "plans") {
            assert_eq!(p["status"], "needs-judgement", "{state}");
            assert_eq!(p["safety_tier"], "confirm", "{state}: {p:#}");
            assert_eq!(p["lifecycle"]["served_when"], question);
            assert!(p["lifecycle"].get("served_when_path").is_none());
        }
        assert!(
            v["drafts"]["entries"].as_array().unwrap().is_empty(),
            "{state}"
        );
    }
    let judged = f.evaluate();
    assert!(judged.iter().all(|g| g.served.is_none()));
    assert_eq!(judged.len(), 2);
}

#[test]
fn directory_rule_yields_one_aggregate_item() {
    let f = Fixture::new();
    f.rulebook(json!({"rules": [{
        "id": "runs", "match": "dir", "glob": "runs/*", "lifetime": "temporary", "retain_recent": 1
    }]}));
    f.write("runs/2026-01-01/a.md", "a\n");
    f.write("runs/2026-01-01/deep/b.md", "b\n");
    f.write("runs/2026-02-01/c.md", "c\n");
    f.write(".work/notes.md", "n\n");
    f.write(".work/sub/out.txt", "o\n");
    f.commit_all();
    let v = f.sweep();
    let under_runs: Vec<&Value> = items(&v)
        .iter()
        .filter(|i| i["path"].as_str().unwrap().starts_with("runs"))
        .collect();
    assert_eq!(under_runs.len(), 2, "{v:#}");
    let old = item(&v, "runs/2026-01-01");
    assert_eq!(old["is_dir"], true);
    assert_eq!(old["status"], "served");
    assert_eq!(
        old["suggestion"]["exact_edit"]["anchor"],
        json!({"whole": "directory"})
    );
    assert_eq!(
        old["lifecycle"],
        json!({"rule_ref": "runs", "lifetime": "temporary"})
    );
    assert_eq!(old["safety_tier"], "auto");
    assert_eq!(item(&v, "runs/2026-02-01")["status"], "not-served");
    // The default scratch rule: one judged aggregate for the whole folder.
    let work: Vec<&Value> = items(&v)
        .iter()
        .filter(|i| i["path"].as_str().unwrap().starts_with(".work"))
        .collect();
    assert_eq!(work.len(), 1);
    assert_eq!(work[0]["path"], ".work");
    assert_eq!(work[0]["status"], "needs-judgement");
    assert_eq!(work[0]["safety_tier"], "confirm");

    // A dirty file inside makes the aggregate ask; a kept file inside protects it.
    f.write("runs/2026-01-01/deep/b.md", "edited\n");
    assert_eq!(
        item(&f.sweep(), "runs/2026-01-01")["safety_tier"],
        "confirm"
    );
    f.write("runs/2026-01-01/README.md", "keep me\n");
    let v = f.sweep();
    let old = item(&v, "runs/2026-01-01");
    assert_eq!(old["status"], "protected");
    assert_eq!(old["evidence"]["protected_by"], "entrypoints");
    assert!(old.get("suggestion").is_none());
}

fn load_err(rulebook: Value) -> String {
    let f = Fixture::new();
    f.rulebook(rulebook);
    match Rulebook::load(&f.root()) {
        Ok(b) => panic!(
            "accepted: {:?}",
            b.rules.iter().map(|r| &r.id).collect::<Vec<_>>()
        ),
        Err(e) => e.to_string(),
    }
}

#[test]
fn invalid_rulebooks_are_rejected_with_rule_id_and_problem() {
    let base = json!({"id": "r1", "match": "file", "glob": "notes/**", "lifetime": "temporary", "max_age_days": 3});
    let with = |patch: Value| {
        let mut r = base.clone();
        for (k, v) in patch.as_object().unwrap() {
            if v.is_null() {
                r.as_object_mut().unwrap().remove(k);
            } else {
                r[k] = v.clone();
            }
        }
        json!({"rules": [r]})
    };
    let cases: Vec<(Value, &str)> = vec![
        (with(json!({"lifetime": "forever"})), "forever"),
        (with(json!({"match": "files"})), "files"),
        (with(json!({"glob": "notes/[z"})), "bad glob"),
        (with(json!({"glob": "../x/**"})), "`..` segment"),
        (with(json!({"globb": "x"})), "unknown field `globb`"),
        (
            with(json!({"max_age_days": null})),
            "needs retain_recent or max_age_days",
        ),
        (
            with(json!({"served_when": "done?"})),
            "belong to delete-once-served",
        ),
        (
            with(json!({"lifetime": "keep", "max_age_days": null, "served_when_path": "x"})),
            "not keep",
        ),
        (
            with(json!({"lifetime": "keep"})),
            "retain_recent/max_age_days belong to temporary",
        ),
        (
            with(json!({"lifetime": "delete-once-served", "max_age_days": null})),
            "exactly one",
        ),
        (
            with(
                json!({"lifetime": "delete-once-served", "max_age_days": null, "served_when": "q", "served_when_path": "x"}),
            ),
            "both",
        ),
        (
            with(
                json!({"lifetime": "delete-once-served", "max_age_days": null, "served_when_path": "{dir}/{nope}"}),
            ),
            "{nope}",
        ),
        (
            with(
                json!({"lifetime": "delete-once-served", "max_age_days": null, "served_when_path": "/etc/x"}),
            ),
            "absolute",
        ),
        (
            with(json!({"extract": {"anchor_heading": "Decisions", "target": "repo-durable"}})),
            "needs target_path",
        ),
        (
            with(
                json!({"extract": {"anchor_heading": "Decisions", "target": "cross-repo", "target_path": "x.md"}}),
            ),
            "takes no target_path",
        ),
        (
            with(
                json!({"lifetime": "keep", "max_age_days": null, "extract": {"anchor_heading": "D", "target": "cross-repo"}}),
            ),
            "extract on a keep rule",
        ),
        (
            with(
                json!({"match": "dir", "extract": {"anchor_heading": "D", "target": "cross-repo"}}),
            ),
            "extract on a dir rule",
        ),
    ];
    for (rb, problem) in cases {
        let e = load_err(rb.clone());
        assert!(e.contains(".hygiene/rulebook.json"), "{e}");
        assert!(e.contains("rule `r1`"), "{rb}: {e}");
        assert!(e.contains(problem), "{rb}: wanted `{problem}` in: {e}");
    }
    let dup = load_err(json!({"rules": [base.clone(), base.clone()]}));
    assert!(dup.contains("rule `r1`: duplicate id"), "{dup}");
    let top = load_err(json!({"rulez": []}));
    assert!(top.contains("unknown top-level key `rulez`"), "{top}");

    // The command refuses too: exit 2 and the same message.
    let f = Fixture::new();
    f.rulebook(with(json!({"lifetime": "forever"})));
    let out = f.run(&["sweep", "--format", "json"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("rule `r1`") && err.contains("forever"),
        "{err}"
    );
}

#[test]
fn repository_rulebook_overrides_defaults_by_id() {
    let f = Fixture::new();
    for d in HANDOFF_DATES {
        f.write(&handoff(d), "x\n");
    }
    f.write("docs/plans/a.md", "# A\n");
    f.write("notes/2026-01-01.md", "n\n");
    f.commit_all();
    let defaults = Rulebook::defaults().unwrap();
    f.rulebook(json!({
        "rules": [
            {"id": "handoffs", "match": "file", "glob": ".claude/handoffs/*.md", "lifetime": "temporary", "retain_recent": 2, "max_age_days": 30},
            {"id": "plans", "disabled": true},
            {"id": "notes", "match": "file", "glob": "notes/*.md", "lifetime": "temporary", "max_age_days": 10}
        ],
        "excluded_dirs": ["build"]
    }));
    let book = Rulebook::load(&f.root()).unwrap();
    assert_eq!(book.rules.len(), defaults.rules.len()); // one replaced, one removed, one added
    assert_eq!(book.rules[0].id, "notes", "new rules are tried first");
    assert_eq!(book.rule("handoffs").unwrap().retain_recent, 2);
    assert!(book.rule("plans").is_none());
    assert_eq!(book.excluded_dirs, vec!["build".to_string()]);
    let v = f.sweep();
    let mut sorted = HANDOFF_DATES.to_vec();
    sorted.sort();
    let want: BTreeSet<String> = sorted[..6]
        .iter()
        .map(|d| handoff(d))
        .chain(["notes/2026-01-01.md".to_string()])
        .collect();
    assert_eq!(paths_with(&v, "status", "served"), want);
    assert!(items(&v).iter().all(|i| i["path"] != "docs/plans/a.md"));
    assert_eq!(v["rulebook"][1], ".hygiene/rulebook.json");
}

#[test]
fn keep_rules_protect_from_every_lifecycle_op() {
    let f = Fixture::new();
    f.write("src/done.rs", "\n");
    f.write(
        "docs/plans/pinned.md",
        "---\nserved_when_path: src/done.rs\n---\n# Pinned\n",
    );
    f.write("docs/plans/adr/0001-use-git.md", "# ADR\n");
    f.write("docs/plans/README.md", "# Plans\n");
    f.write(".claude/handoffs/README.md", "# How we hand off\n");
    f.rulebook(json!({"rules": [
        {"id": "pinned", "match": "file", "glob": "docs/plans/pinned.md", "lifetime": "keep"}
    ]}));
    f.commit_all();
    let v = f.sweep();
    for (p, keep, from) in [
        ("docs/plans/pinned.md", "pinned", "plans"),
        ("docs/plans/adr/0001-use-git.md", "adrs", "plans"),
        ("docs/plans/README.md", "entrypoints", "plans"),
        (".claude/handoffs/README.md", "entrypoints", "handoffs"),
    ] {
        let i = item(&v, p);
        assert_eq!(i["status"], "protected", "{p}");
        assert_eq!(
            i["lifecycle"],
            json!({"rule_ref": keep, "lifetime": "keep"}),
            "{p}"
        );
        assert_eq!(i["evidence"]["overrides"], from, "{p}");
        assert!(
            i.get("suggestion").is_none() && i.get("safety_tier").is_none(),
            "{p}"
        );
    }
    assert!(v["drafts"]["entries"].as_array().unwrap().is_empty());
    assert!(f
        .evaluate()
        .iter()
        .all(|g| g.served == Some(false) && g.suggestion.is_none()));
}

#[test]
fn date_source_precedence_is_name_then_commit_then_mtime() {
    let f = Fixture::new();
    f.rulebook(json!({"rules": [
        {"id": "notes", "match": "file", "glob": "notes/*.md", "lifetime": "temporary", "max_age_days": 1}
    ]}));
    f.write("notes/2026-01-10-a.md", "a\n");
    f.write("notes/b.md", "b\n");
    f.git(&["add", "-A"]);
    f.git_at(
        &["commit", "-q", "-m", "notes"],
        Some("2026-03-01T12:00:00Z"),
    );
    f.write("notes/c.md", "c\n");
    // 2026-02-01T12:00:00Z (`date -u -d 2026-02-01T12:00:00 +%s`).
    let mtime = std::time::UNIX_EPOCH + std::time::Duration::from_secs(1_769_947_200);
    std::fs::File::options()
        .write(true)
        .open(f.root().join("notes/c.md"))
        .unwrap()
        .set_modified(mtime)
        .unwrap();
    let v = f.sweep();
    for (p, date, source) in [
        ("notes/2026-01-10-a.md", "2026-01-10", "name"),
        ("notes/b.md", "2026-03-01", "commit"),
        ("notes/c.md", "2026-02-01", "mtime"),
    ] {
        let e = &item(&v, p)["evidence"];
        assert_eq!(e["date"], date, "{p}");
        assert_eq!(e["date_source"], source, "{p}");
        assert_eq!(e["evidence"], "temporary-age");
    }
    // Newest first: b (03-01), c (02-01), a (01-10).
    assert_eq!(item(&v, "notes/b.md")["evidence"]["rank"], 1);
    assert_eq!(item(&v, "notes/c.md")["evidence"]["rank"], 2);
    assert_eq!(item(&v, "notes/2026-01-10-a.md")["evidence"]["rank"], 3);
}

#[test]
fn default_rules_fit_real_agent_layouts_and_nothing_else() {
    let f = Fixture::new();
    let governed_by = [
        (".claude/handoffs/2026-01-01-auth.md", Some("handoffs")),
        (
            "thoughts/shared/handoffs/ENG-1/2026-01-01_12-00-00_auth.md",
            Some("handoffs"),
        ),
        ("sessions/2026-01-01.md", Some("sessions")),
        (".claude/sessions/2026-01-01-1200.md", Some("sessions")),
        ("docs/plans/2026-01-01-auth.md", Some("plans")),
        ("docs/superpowers/plans/2026-01-01-auth.md", Some("plans")),
        ("thoughts/shared/plans/2026-01-01-auth.md", Some("plans")),
        (".work", Some("scratch")),
        ("thoughts/shared/research/2026-01-01-auth.md", None),
        ("docs/superpowers/specs/2026-01-01-auth-design.md", None),
        ("docs/adr/0001-use-rust.md", None),
        ("docs/architecture/decisions/0002-x.md", None),
        ("docs/decisions.md", None),
        ("README.md", None),
        ("CLAUDE.md", None),
        ("AGENTS.md", None),
        ("src/plans/mod.rs", None),
        ("src/sessions/store.ts", None),
        ("app/handoffs/handoff.py", None),
    ];
    for (p, _) in governed_by {
        let file = if p == ".work" {
            ".work/scratch.txt".to_string()
        } else {
            p.to_string()
        };
        f.write(&file, "x\n");
    }
    f.commit_all();
    let got = f.evaluate();
    for (p, rule) in governed_by {
        let g = got.iter().find(|g| g.path == p);
        assert_eq!(g.map(|g| g.lifecycle.rule_ref.as_str()), rule, "{p}");
    }
    // Every default rule that could delete without a model is temporary, and every judged one
    // derives confirm (tested above); no default rule matches an entry point.
    for g in &got {
        assert!(!g.path.ends_with("README.md") && !g.path.ends_with("CLAUDE.md"));
    }
}

#[test]
fn extraction_is_proposed_when_the_rule_asks_and_the_section_exists() {
    let f = Fixture::new();
    f.write("src/auth.rs", "\n");
    let plan = "---\nserved_when_path: src/auth.rs\n---\n# Auth plan\n\n## Steps\n- [x] a\n\n## Decisions\n\nTokens live in memory.\n### Why\nSpeed.\n\n## Open questions\nnone\n";
    f.write("docs/plans/auth.md", plan);
    f.write(
        "docs/plans/plain.md",
        "---\nserved_when_path: src/auth.rs\n---\n# Plain\n## Steps\n- [x] a\n",
    );
    f.commit_all();
    // The test's own reading of the span: from the `## Decisions` line to the line before the
    // next `## ` heading.
    let lines: Vec<&str> = plan.lines().collect();
    let start = lines.iter().position(|l| *l == "## Decisions").unwrap() + 1;
    let end = lines
        .iter()
        .position(|l| *l == "## Open questions")
        .unwrap();
    let v = f.sweep();
    let edit = &item(&v, "docs/plans/auth.md")["suggestion"]["exact_edit"];
    assert_eq!(edit["kind"], "extract-then-delete");
    assert_eq!(
        edit["anchor"],
        json!({"start_line": start, "end_line": end})
    );
    assert_eq!(edit["extraction_target"], "repo-durable");
    assert_eq!(edit["target_path"], "docs/decisions.md");
    assert_eq!(edit["lifecycle"]["served_when_path"], "src/auth.rs");
    assert_eq!(item(&v, "docs/plans/auth.md")["safety_tier"], "auto");
    assert_eq!(
        item(&v, "docs/plans/plain.md")["suggestion"]["exact_edit"]["kind"],
        "delete"
    );

    // A cross-repo extraction is proven but never auto.
    f.rulebook(json!({"rules": [{
        "id": "plans", "match": "file", "glob": "**/plans/**/*.md", "lifetime": "delete-once-served",
        "served_when": "done?", "extract": {"anchor_heading": "decisions", "target": "cross-repo"}
    }]}));
    f.commit_all();
    let v = f.sweep();
    let i = item(&v, "docs/plans/auth.md");
    assert_eq!(
        i["suggestion"]["exact_edit"]["extraction_target"],
        "cross-repo"
    );
    assert!(i["suggestion"]["exact_edit"].get("target_path").is_none());
    assert_eq!(i["evidence"]["evidence"], "served-when-path-satisfied");
    assert_eq!(i["safety_tier"], "confirm");
}

#[test]
fn the_walk_sees_the_tree_the_scanner_sees() {
    let f = Fixture::new();
    f.write(".gitignore", "ignored/\n");
    f.write("ignored/handoffs/2020-01-01.md", "x\n");
    f.write("node_modules/pkg/handoffs/2020-01-01.md", "x\n");
    f.write(".claude/handoffs/2020-01-01.md", "x\n");
    f.write("build/handoffs/2020-01-01.md", "x\n");
    f.rulebook(json!({"excluded_dirs": ["build"]}));
    let root = f.root();
    let (files, _) = walk_files(&root, &["build".to_string()]);
    assert!(files.contains(&".claude/handoffs/2020-01-01.md".to_string()));
    assert!(files.contains(&".gitignore".to_string()));
    assert!(!files.iter().any(|p| p.starts_with("ignored/")
        || p.starts_with("node_modules/")
        || p.starts_with("build/")
        || p.starts_with(".git/")));
    let v = f.sweep();
    let all: Vec<&str> = items(&v)
        .iter()
        .map(|i| i["path"].as_str().unwrap())
        .collect();
    assert_eq!(all, vec![".claude/handoffs/2020-01-01.md"]);
}

#[test]
fn published_defaults_are_the_shipped_file_and_human_output_lists_items() {
    let on_disk: Value = serde_json::from_str(
        &std::fs::read_to_string(
            Path::new(env!("CARGO_MANIFEST_DIR")).join("rulebook.default.json"),
        )
        .unwrap(),
    )
    .unwrap();
    assert_eq!(lifecycle::default_rulebook_json(), on_disk);
    let ids: Vec<&str> = on_disk["rules"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["id"].as_str().unwrap())
        .collect();
    let book = Rulebook::defaults().unwrap();
    assert_eq!(
        book.rules.iter().map(|r| r.id.as_str()).collect::<Vec<_>>(),
        ids
    );

    let f = Fixture::new();
    for d in HANDOFF_DATES {
        f.write(&handoff(d), "x\n");
    }
    f.commit_all();
    let out = f.run(&["sweep"]);
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    for p in three_oldest() {
        let line = text.lines().find(|l| l.contains(&p)).unwrap();
        assert!(line.contains("[auto]") && line.contains("delete"), "{line}");
    }
    assert!(text.contains("3 served"), "{text}");
    let _ = Status::Served;
}
