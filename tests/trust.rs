//! Trust on real repositories (issue 13): one small repository per pattern that real
//! repositories showed, each asserting what the scanner reports, what it does not, and what
//! `hygiene check --accept-suggestions --apply` changes (only renames in documents that describe
//! the present, and dedupes whose readers keep the text).

mod common;

use common::fixture::{commit, repo, scan, signals};
use common::{git, read, snapshot, write};
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_hygiene");

fn kinds(scan: &Value, path: &str) -> Vec<String> {
    signals(scan, path)
        .iter()
        .map(|s| s["kind"].as_str().unwrap().to_string())
        .collect()
}

fn missing(scan: &Value, path: &str) -> Vec<String> {
    signals(scan, path)
        .iter()
        .filter(|s| s["kind"] == "missing-path")
        .map(|s| s["ref"].as_str().unwrap().to_string())
        .collect()
}

/// Runs the CI check with `--apply` and returns the files it changed (path → new text; a
/// deleted file maps to `None`), `.hygiene/` aside.
fn check_apply(root: &Path) -> (Value, BTreeMap<String, Option<String>>) {
    let before = snapshot(root);
    let out = Command::new(BIN)
        .args([
            "check",
            "--accept-suggestions",
            "--apply",
            "--format",
            "json",
            "--root",
        ])
        .arg(root)
        .output()
        .unwrap();
    assert!(
        matches!(out.status.code(), Some(0 | 1)),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: Value = serde_json::from_slice(&out.stdout).unwrap_or(Value::Null);
    let after = snapshot(root);
    let mut changed = BTreeMap::new();
    for (k, b) in &before {
        if k.starts_with(".hygiene") {
            continue;
        }
        match after.get(k) {
            Some(a) if a == b => {}
            Some(a) => {
                changed.insert(k.clone(), Some(String::from_utf8_lossy(a).into_owned()));
            }
            None => {
                changed.insert(k.clone(), None);
            }
        }
    }
    for k in after.keys() {
        if !before.contains_key(k) && !k.starts_with(".hygiene") {
            changed.insert(k.clone(), Some(read(root, k)));
        }
    }
    (v, changed)
}

/// Commits `src/old_name.rs`, then git's rename of it to `src/new_name.rs`.
fn renamed_source(d: &Path) {
    write(d, "src/old_name.rs", "pub fn run() {}\n");
    commit(d, "one");
    git(d, &["mv", "src/old_name.rs", "src/new_name.rs"]);
    commit(d, "rename");
}

const SECTION: &str = "## Install\n\nInstall the command line tool with the package manager of your platform, then run the\ninit command once in every repository that should use it.\n\n```sh\ntool init --quiet\ntool doctor\n```\n";

/// A docs site that mirrors `docs/`, versioned snapshots, and a per-session rule that repeats
/// CLAUDE.md: the mirror and the snapshots are read by people (and the snapshots describe old
/// releases), so they draw no duplicate and lose nothing; the rule, read by Claude Code only,
/// loses its copy to CLAUDE.md, which Claude Code loads every session.
#[test]
fn website_mirror_and_versioned_copies_keep_their_text_and_a_rule_loses_its_copy() {
    let r = repo();
    let d = &r.root;
    renamed_source(d);
    write(d, "CLAUDE.md", &format!("# Project\n\n{SECTION}"));
    write(
        d,
        ".claude/rules/install.md",
        &format!("# Install rule\n\n{SECTION}\nAlways run the doctor after an upgrade.\n"),
    );
    let page = format!("# CLI\n\n{SECTION}\nThe entry point is `src/old_name.rs`.\n");
    write(d, "docs/cli.md", &page);
    write(d, "website/docs/cli.md", &page);
    write(d, "website/versioned_docs/version-1.0.0/cli.md", &page);
    write(d, "docs/v1.2/cli.md", &page);
    commit(d, "docs");
    let s = scan(d);
    for p in [
        "docs/cli.md",
        "website/docs/cli.md",
        "website/versioned_docs/version-1.0.0/cli.md",
        "docs/v1.2/cli.md",
    ] {
        assert!(
            !kinds(&s, p).contains(&"duplicate-block".to_string()),
            "{p}: {:?}",
            kinds(&s, p)
        );
    }
    // The snapshots name the old path on purpose; the living pages do not.
    assert!(missing(&s, "website/versioned_docs/version-1.0.0/cli.md").is_empty());
    assert!(missing(&s, "docs/v1.2/cli.md").is_empty());
    assert_eq!(missing(&s, "docs/cli.md"), ["src/old_name.rs"]);
    let dup: Vec<&Value> = signals(&s, ".claude/rules/install.md")
        .into_iter()
        .filter(|x| x["kind"] == "duplicate-block")
        .collect();
    assert_eq!(dup.len(), 1, "{dup:?}");
    assert!(dup[0]["canonical_ref"]
        .as_str()
        .unwrap()
        .starts_with("CLAUDE.md:"));

    let (_, changed) = check_apply(d);
    let keys: Vec<&str> = changed.keys().map(String::as_str).collect();
    assert_eq!(
        keys,
        [
            ".claude/rules/install.md",
            "docs/cli.md",
            "website/docs/cli.md"
        ],
        "{changed:#?}"
    );
    let rule = changed[".claude/rules/install.md"].as_deref().unwrap();
    assert!(
        !rule.contains("tool doctor") && rule.contains("Always run the doctor"),
        "{rule}"
    );
    // Whole blocks went: no fence left open, no stray fence line.
    assert_eq!(rule.matches("```").count(), 0, "{rule}");
    for p in ["docs/cli.md", "website/docs/cli.md"] {
        let t = changed[p].as_deref().unwrap();
        assert_eq!(t, page.replace("src/old_name.rs", "src/new_name.rs"), "{p}");
    }
    assert_eq!(read(d, "docs/v1.2/cli.md"), page);
}

/// A plugin whose skills share paragraphs (and share them with the repository's own CLAUDE.md):
/// each skill ships alone to its users, who never read the other skill or this CLAUDE.md, so
/// nothing is a dedupe. A skill talks about its user's files (`.claude/settings.json`), which
/// are not this repository's; its own missing reference file is.
#[test]
fn plugin_skills_sharing_paragraphs_are_left_whole() {
    let r = repo();
    let d = &r.root;
    let shared = "Before you change anything, read the project's instructions and run its tests, so\nyou know what green looks like before your edit.\n";
    write(
        d,
        ".claude-plugin/plugin.json",
        r#"{"name": "kit", "version": "1.0.0"}"#,
    );
    write(d, "CLAUDE.md", &format!("# Kit\n\n{shared}"));
    write(d, "skills/review/SKILL.md", &format!("---\nname: review\ndescription: Review code\n---\n# Review\n\n{shared}\nSettings live in `.claude/settings.json` of the project.\nSee [the checklist](references/checklist.md).\n"));
    write(d, "skills/fix/SKILL.md", &format!("---\nname: fix\ndescription: Fix code\n---\n# Fix\n\n{shared}\nRun `npm test` first.\n"));
    commit(d, "plugin");
    let s = scan(d);
    for p in ["skills/review/SKILL.md", "skills/fix/SKILL.md", "CLAUDE.md"] {
        assert!(
            !kinds(&s, p).contains(&"duplicate-block".to_string()),
            "{p}: {:?}",
            kinds(&s, p)
        );
    }
    assert_eq!(
        missing(&s, "skills/review/SKILL.md"),
        ["references/checklist.md"]
    );
    let (_, changed) = check_apply(d);
    assert!(changed.is_empty(), "{changed:#?}");
}

/// A template catalogue names the paths of the repositories it is copied into; a text with
/// placeholders is a template wherever it lives. A living guide naming the same absent path is
/// reported.
#[test]
fn template_catalogue_names_its_users_paths() {
    let r = repo();
    let d = &r.root;
    // `src/` exists here, so a backticked `src/App.tsx` in a living document is a claim about
    // this repository.
    write(d, "src/main.ts", "export {}\n");
    write(
        d,
        "templates/react/README.md",
        "# React starter\n\nEdit `src/App.tsx` and save to reload.\n",
    );
    write(
        d,
        "packages/create/blueprints/api/AGENTS.md",
        "# API\n\nThe app starts in `src/App.tsx`.\n",
    );
    write(
        d,
        "docs/new-project.md",
        "# {{ project_name }}\n\nBy {{ author }} for {{ team }}.\n\nStart in `src/App.tsx`.\n",
    );
    write(d, "docs/guide.md", "# Guide\n\nStart in `src/App.tsx`.\n");
    // Placeholders quoted as syntax (a page format by example, a workflow's `${{ }}`, a release
    // tool's `{{.Version}}`) make a document about templates, not a template: it describes
    // this repository, and its wrong path is reported.
    write(
        d,
        "AGENTS.md",
        "# Pages\n\nWrite `command {{path/to/file}}`, `{{arg}}`, `{{[-h|--help]}}`.\n\n\
         ```yaml\nenv:\n  TOKEN: ${{ secrets.TOKEN }}\n  V: {{.Version}}\n```\n\n\
         Start in `src/App.tsx`.\n",
    );
    commit(d, "catalogue");
    let s = scan(d);
    assert!(signals(&s, "templates/react/README.md").is_empty());
    assert!(signals(&s, "packages/create/blueprints/api/AGENTS.md").is_empty());
    assert!(missing(&s, "docs/new-project.md").is_empty());
    assert_eq!(missing(&s, "docs/guide.md"), ["src/App.tsx"]);
    assert_eq!(missing(&s, "AGENTS.md"), ["src/App.tsx"]);
    let (_, changed) = check_apply(d);
    assert!(
        changed.is_empty(),
        "a missing path with no rename is the model's to judge: {changed:#?}"
    );
}

/// A changelog and release notes record moves with the names of their time: no stale signal,
/// no rename written into them, no freeze suggested. The README, which describes the present,
/// gets the rename.
#[test]
fn changelog_with_moved_paths_is_history() {
    let r = repo();
    let d = &r.root;
    write(d, "lib/old.rs", "pub fn f() {}\n");
    commit(d, "one");
    git(d, &["mv", "lib/old.rs", "lib/new.rs"]);
    commit(d, "move");
    let log: String = (0..400)
        .map(|i| format!("- 0.{i}.0: fixed item {i} in the parser and the formatter.\n"))
        .collect();
    write(
        d,
        "CHANGELOG.md",
        &format!("# Changelog\n\n## 1.0.0\n\n- Extract the helpers to `lib/old.rs`.\n\n{log}"),
    );
    write(d, "RELEASE-NOTES.md", "# Release notes\n\n## v1\n\nThe helpers live in `lib/old.rs`.\n\n### Deprecated\n\n- the `--old` flag.\n");
    // The changelog of an earlier major version (biome's `CHANGELOG_v1.md`) and a translated
    // one (`CHANGELOG_zh.md`) record the past as much as `CHANGELOG.md` does; a guide to
    // writing the changelog describes the present.
    write(
        d,
        "CHANGELOG_v1.md",
        "# Changelog\n\n## 1.0.0\n\n- Extract the helpers to `lib/old.rs`.\n",
    );
    write(
        d,
        "CHANGELOG_zh.md",
        "# 更新日志\n\n## 1.0.0\n\n- 提取到 `lib/old.rs`。\n",
    );
    write(
        d,
        "docs/CHANGELOG_GUIDE.md",
        "# Writing the changelog\n\nThe helpers live in `lib/old.rs`.\n",
    );
    write(
        d,
        "README.md",
        "# Lib\n\nThe helpers live in `lib/old.rs`.\n",
    );
    commit(d, "docs");
    let s = scan(d);
    assert!(
        signals(&s, "CHANGELOG.md").is_empty(),
        "{:?}",
        signals(&s, "CHANGELOG.md")
    );
    assert!(signals(&s, "RELEASE-NOTES.md").is_empty());
    assert!(
        signals(&s, "CHANGELOG_v1.md").is_empty(),
        "{:?}",
        signals(&s, "CHANGELOG_v1.md")
    );
    assert!(signals(&s, "CHANGELOG_zh.md").is_empty());
    assert_eq!(missing(&s, "docs/CHANGELOG_GUIDE.md"), ["lib/old.rs"]);
    assert_eq!(missing(&s, "README.md"), ["lib/old.rs"]);
    let suggested: Vec<&Value> = s["shortlist"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|i| i["suggestions"].as_array().into_iter().flatten())
        .filter(|x| x["exact_edit"]["kind"] == "insert-frontmatter")
        .collect();
    assert!(
        suggested.is_empty(),
        "freezing is a judgement: {suggested:?}"
    );
    let (_, changed) = check_apply(d);
    let keys: Vec<&str> = changed.keys().map(String::as_str).collect();
    assert_eq!(keys, ["README.md", "docs/CHANGELOG_GUIDE.md"]);
    assert_eq!(
        changed["README.md"].as_deref(),
        Some("# Lib\n\nThe helpers live in `lib/new.rs`.\n")
    );
}

/// A table of moves (and a line that already names the new path) records the move; a plain
/// line naming only the old path is stale and gets the rename.
#[test]
fn moves_table_rows_are_records_of_the_move() {
    let r = repo();
    let d = &r.root;
    write(d, "guides/a.md", "# A\n");
    write(d, "guides/b.md", "# B\n");
    commit(d, "one");
    std::fs::create_dir_all(d.join("handbook")).unwrap();
    git(d, &["mv", "guides/a.md", "handbook/a.md"]);
    git(d, &["mv", "guides/b.md", "handbook/b.md"]);
    commit(d, "move");
    let text = "# Layout\n\n| was | now |\n|---|---|\n| `guides/a.md` | `handbook/a.md` |\n\n`guides/b.md` moved to `handbook/b.md`.\n\nRead `guides/b.md` first.\n";
    write(d, "docs/layout.md", text);
    commit(d, "docs");
    let s = scan(d);
    let sigs = signals(&s, "docs/layout.md");
    assert_eq!(sigs.len(), 1, "{sigs:?}");
    assert_eq!(sigs[0]["ref"], "guides/b.md");
    assert_eq!(sigs[0]["line"], 9);
    assert_eq!(sigs[0]["renamed_to"], "handbook/b.md");
    let (_, changed) = check_apply(d);
    assert_eq!(
        changed["docs/layout.md"].as_deref(),
        Some(
            text.replace("Read `guides/b.md`", "Read `handbook/b.md`")
                .as_str()
        )
    );
}

/// Backticked paths under any dot-folder are paths: a deleted workflow and a renamed config are
/// reported; an existing dot-folder file is not.
#[test]
fn dot_folder_paths_are_read() {
    let r = repo();
    let d = &r.root;
    write(d, ".github/workflows/ci.yml", "on: push\n");
    write(d, ".tool/config.yaml", "a: 1\n");
    write(d, ".opencode/plugin/x.js", "export {}\n");
    commit(d, "one");
    git(d, &["rm", "-q", ".github/workflows/ci.yml"]);
    std::fs::create_dir_all(d.join(".opencode/plugins")).unwrap();
    git(
        d,
        &["mv", ".opencode/plugin/x.js", ".opencode/plugins/x.js"],
    );
    commit(d, "change");
    write(d, "docs/ci.md", "# CI\n\nThe workflow is `.github/workflows/ci.yml`.\nSettings: `.tool/config.yaml`.\nPlugin: `.opencode/plugin/x.js`.\n");
    commit(d, "docs");
    let s = scan(d);
    let sigs = signals(&s, "docs/ci.md");
    let refs: Vec<&str> = sigs.iter().map(|x| x["ref"].as_str().unwrap()).collect();
    assert_eq!(
        refs,
        [".github/workflows/ci.yml", ".opencode/plugin/x.js"],
        "{sigs:?}"
    );
    assert!(sigs[0]["deleted_in"]["commit"].is_string());
    assert_eq!(sigs[1]["renamed_to"], ".opencode/plugins/x.js");
}

/// A path renamed and then deleted under its new name is reported as deleted (with the commit
/// that deleted the last name), never as renamed to a name that does not exist.
#[test]
fn renamed_then_deleted_is_reported_as_gone() {
    let r = repo();
    let d = &r.root;
    write(d, "lib/server/index.js", "module.exports = {}\n");
    commit(d, "one");
    git(d, &["mv", "lib/server/index.js", "lib/server/main.js"]);
    commit(d, "rename");
    git(d, &["rm", "-q", "lib/server/main.js"]);
    commit(d, "delete");
    let deleted = git(d, &["rev-parse", "HEAD"]).trim().to_string();
    write(
        d,
        "docs/server.md",
        "# Server\n\nStart at `lib/server/index.js`.\n",
    );
    commit(d, "docs");
    let s = scan(d);
    let sigs = signals(&s, "docs/server.md");
    assert_eq!(sigs.len(), 1, "{sigs:?}");
    assert!(sigs[0]["renamed_to"].is_null(), "{sigs:?}");
    assert_eq!(sigs[0]["deleted_in"]["commit"], deleted.as_str());
    // Nothing to rename to: no edit without the model.
    let (_, changed) = check_apply(d);
    assert!(changed.is_empty(), "{changed:#?}");
}

/// A tracked document that an ignore pattern matches (force-added) is scanned; an untracked
/// ignored one is not.
#[test]
fn force_added_ignored_documents_are_scanned() {
    let r = repo();
    let d = &r.root;
    write(d, "src/lib.rs", "pub fn f() {}\n");
    write(d, ".gitignore", ".claude/PRPs/\nscratch/\n");
    write(
        d,
        ".claude/PRPs/feature.md",
        "# Feature\n\nSee `src/feature.rs`.\n",
    );
    write(d, "scratch/notes.md", "# Notes\n\nSee `src/nowhere.rs`.\n");
    git(d, &["add", ".gitignore", "src"]);
    git(d, &["add", "-f", ".claude/PRPs/feature.md"]);
    git(d, &["commit", "-q", "-m", "force-add"]);
    let s = scan(d);
    assert_eq!(missing(&s, ".claude/PRPs/feature.md"), ["src/feature.rs"]);
    assert!(signals(&s, "scratch/notes.md").is_empty());
}

/// A repository with history whose rename walk cannot read some objects: the exact renames and
/// deletions still come from blob ids, with a warning that says so; every `renamed_to` exists.
#[test]
fn missing_blobs_keep_exact_renames_and_deletions() {
    let r = repo();
    let d = &r.root;
    write(d, "src/a.rs", "pub fn a() {}\n");
    write(d, "src/gone.rs", "pub fn g() {}\n");
    write(
        d,
        "src/edited.rs",
        "version one of a file long enough to be compared by content\n",
    );
    commit(d, "one");
    let edited_v1 = git(d, &["rev-parse", "HEAD:src/edited.rs"])
        .trim()
        .to_string();
    write(
        d,
        "src/edited.rs",
        "version two of a file long enough to be compared by content\n",
    );
    commit(d, "two");
    git(d, &["mv", "src/a.rs", "src/b.rs"]);
    git(d, &["rm", "-q", "src/gone.rs"]);
    commit(d, "move and delete");
    write(
        d,
        "docs/code.md",
        "# Code\n\nSee `src/a.rs` and `src/gone.rs`.\n",
    );
    commit(d, "docs");
    // Lose an old blob, as a snapshot store or a damaged clone does.
    let obj = d
        .join(".git/objects")
        .join(&edited_v1[..2])
        .join(&edited_v1[2..]);
    std::fs::remove_file(&obj).unwrap();
    let probe = Command::new("git")
        .current_dir(d)
        .args(["log", "-M", "-p", "--", "."])
        .output()
        .unwrap();
    assert!(
        !probe.status.success(),
        "the fixture must break git log -M -p"
    );
    let s = scan(d);
    let sigs = signals(&s, "docs/code.md");
    assert_eq!(sigs.len(), 2, "{sigs:?}");
    assert_eq!(sigs[0]["renamed_to"], "src/b.rs");
    assert!(sigs[1]["deleted_in"]["commit"].is_string());
    for sig in &sigs {
        if let Some(to) = sig["renamed_to"].as_str() {
            assert!(d.join(to).exists(), "{to}");
        }
    }
}

/// A `--filter=blob:none` partial clone served from a local bare repository: the scan reads the
/// renames and deletions it needs without fetching anything (a logging upload-pack proves no
/// request reached the server, while a content read in the same clone does reach it).
#[cfg(unix)]
#[test]
fn partial_clone_scans_without_network() {
    use std::os::unix::fs::PermissionsExt;
    let r = repo();
    let d = &r.root;
    write(d, "src/a.rs", "pub fn a() {}\n");
    write(d, "src/gone.rs", "pub fn g() {}\n");
    commit(d, "one");
    git(d, &["mv", "src/a.rs", "src/b.rs"]);
    git(d, &["rm", "-q", "src/gone.rs"]);
    commit(d, "move and delete");
    write(
        d,
        "docs/code.md",
        "# Code\n\nSee `src/a.rs` and `src/gone.rs`.\n",
    );
    commit(d, "docs");
    let base = d.parent().unwrap();
    let bare = base.join("served.git");
    git(
        base,
        &[
            "clone",
            "-q",
            "--bare",
            d.to_str().unwrap(),
            bare.to_str().unwrap(),
        ],
    );
    git(&bare, &["config", "uploadpack.allowFilter", "true"]);
    let clone = base.join("clone");
    git(
        base,
        &[
            "clone",
            "-q",
            "--filter=blob:none",
            &format!("file://{}", bare.display()),
            clone.to_str().unwrap(),
        ],
    );
    // Every later request to the server goes through this script, which logs it.
    let log = base.join("uploads.log");
    let script = base.join("upload-pack.sh");
    std::fs::write(
        &script,
        format!(
            "#!/bin/sh\necho \"$@\" >> '{}'\nexec git-upload-pack \"$@\"\n",
            log.display()
        ),
    )
    .unwrap();
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    git(
        &clone,
        &[
            "config",
            "remote.origin.uploadpack",
            script.to_str().unwrap(),
        ],
    );
    let old_blob = git(&clone, &["rev-parse", "HEAD~2:src/gone.rs"])
        .trim()
        .to_string();
    let s = scan(&clone);
    assert!(
        !log.exists(),
        "the scan fetched: {}",
        std::fs::read_to_string(&log).unwrap_or_default()
    );
    let sigs = signals(&s, "docs/code.md");
    assert_eq!(sigs.len(), 2, "{sigs:?}");
    assert_eq!(sigs[0]["renamed_to"], "src/b.rs");
    assert!(sigs[1]["deleted_in"]["commit"].is_string());
    // The logger works: reading a blob the clone lacks does reach the server.
    git(&clone, &["cat-file", "-p", &old_blob]);
    assert!(
        log.exists(),
        "the control read did not go through the logging upload-pack"
    );
}

/// A long investigation whose own text says it is resolved draws the bloat fact and no edit;
/// one still open does not.
#[test]
fn resolved_investigation_is_a_bloat_fact_without_an_edit() {
    let r = repo();
    let d = &r.root;
    let story = common::fixture::investigation();
    write(
        d,
        "docs/incidents/timeouts.md",
        &format!("# Timeouts incident\n\n{story}\n\n## Resolution\n\nThe pool was too small.\n"),
    );
    write(
        d,
        "docs/incidents/leak.md",
        &format!("# Leak\n\nStatus: investigating\n\n{story}\n"),
    );
    // "Status: Resolved" atop the write-up is the same fact, said once.
    write(
        d,
        "docs/incidents/dns.md",
        &format!("# DNS\n\n**Status:** Resolved - the resolver was pinned.\n\n{story}\n"),
    );
    commit(d, "incidents");
    let s = scan(d);
    let dns: Vec<(String, u64)> = signals(&s, "docs/incidents/dns.md")
        .iter()
        .map(|s| {
            (
                s["kind"].as_str().unwrap().to_string(),
                s["line"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(dns, [("resolved-narrative".to_string(), 3)]);
    let sigs = signals(&s, "docs/incidents/timeouts.md");
    assert_eq!(sigs.len(), 1, "{sigs:?}");
    assert_eq!(sigs[0]["kind"], "resolved-narrative");
    assert_eq!(sigs[0]["line"], 5);
    assert!(signals(&s, "docs/incidents/leak.md").is_empty());
    let (_, changed) = check_apply(d);
    assert!(changed.is_empty(), "{changed:#?}");
}

/// A nested AGENTS.md and Copilot's instructions repeat the root AGENTS.md: other agents read
/// each without the others, so nothing is removed; the pair of agents' files that repeat each
/// other is a drift fact for the model.
#[test]
fn other_agents_files_keep_their_text() {
    let r = repo();
    let d = &r.root;
    let rule = "Never commit generated files; regenerate them with the make target and commit the\nsources only, so reviews see the real change.\n";
    write(d, "AGENTS.md", &format!("# Agents\n\n{rule}"));
    write(d, "cmd/tool/AGENTS.md", &format!("# Tool\n\n{rule}"));
    write(
        d,
        ".github/copilot-instructions.md",
        &format!("# Copilot\n\n{rule}"),
    );
    commit(d, "agents");
    let s = scan(d);
    let suggested: Vec<&Value> = s["shortlist"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|i| i["suggestions"].as_array().into_iter().flatten())
        .collect();
    assert!(suggested.is_empty(), "{suggested:?}");
    // The repetition between agents' files is still a fact for the model (they can drift).
    let flagged: Vec<&str> = [
        "AGENTS.md",
        "cmd/tool/AGENTS.md",
        ".github/copilot-instructions.md",
    ]
    .into_iter()
    .filter(|p| kinds(&s, p).contains(&"duplicate-block".to_string()))
    .collect();
    assert_eq!(flagged.len(), 2, "one copy is the kept one: {flagged:?}");
    let (_, changed) = check_apply(d);
    assert!(changed.is_empty(), "{changed:#?}");
}

/// A bare file name means the file beside the document: reported when history shows that file
/// there and gone (a fixture's config renamed, a sibling note deleted); not when the name is only
/// a file of the reader's project, or exists elsewhere but never here.
#[test]
fn bare_file_names_are_checked_beside_the_document() {
    let r = repo();
    let d = &r.root;
    write(d, "fixtures/app/wrangler.toml", "name = \"app\"\n");
    write(d, "fixtures/other/wrangler.toml", "name = \"other\"\n");
    write(d, "scripts/update-homebrew.sh", "#!/bin/sh\n");
    commit(d, "one");
    git(
        d,
        &[
            "mv",
            "fixtures/app/wrangler.toml",
            "fixtures/app/wrangler.jsonc",
        ],
    );
    git(d, &["rm", "-q", "scripts/update-homebrew.sh"]);
    // The root `PLUGIN.md` moved into `docs/`; the root `tsconfig.json` into a package, while
    // every package has its own: a kind of file, not one file.
    write(d, "PLUGIN.md", "# Plugin\n");
    write(d, "tsconfig.json", "{}\n");
    for p in ["a", "b", "c"] {
        write(d, &format!("packages/{p}/tsconfig.json"), "{}\n");
    }
    commit(d, "two");
    std::fs::create_dir_all(d.join("docs")).unwrap();
    std::fs::create_dir_all(d.join("packages/base")).unwrap();
    git(d, &["mv", "PLUGIN.md", "docs/PLUGIN.md"]);
    git(d, &["mv", "tsconfig.json", "packages/base/tsconfig.json"]);
    commit(d, "three");
    write(
        d,
        "RELEASING.md",
        "# Releasing\n\nThe bump updates `PLUGIN.md`.\n\nNew examples need a `tsconfig.json`.\n",
    );
    write(
        d,
        "fixtures/app/README.md",
        "# App\n\nThe config is `wrangler.toml`.\n",
    );
    write(
        d,
        "scripts/docs.md",
        "# Scripts\n\nRun `update-homebrew.sh` after a release.\n",
    );
    write(
        d,
        "docs/bundler.md",
        "# Bundler\n\nCommit your `Gemfile.lock` and `wrangler.toml`.\n",
    );
    commit(d, "docs");
    let s = scan(d);
    let app = signals(&s, "fixtures/app/README.md");
    assert_eq!(app.len(), 1, "{app:?}");
    assert_eq!(app[0]["ref"], "wrangler.toml");
    assert_eq!(app[0]["renamed_to"], "fixtures/app/wrangler.jsonc");
    let sc = signals(&s, "scripts/docs.md");
    assert_eq!(sc.len(), 1, "{sc:?}");
    assert!(sc[0]["deleted_in"]["commit"].is_string());
    assert!(signals(&s, "docs/bundler.md").is_empty());
    // A name that moved away is the model's to judge; a generic one is no claim.
    let rel = signals(&s, "RELEASING.md");
    assert_eq!(rel.len(), 1, "{rel:?}");
    assert_eq!(rel[0]["ref"], "PLUGIN.md");
    assert_eq!(rel[0]["renamed_to"], "docs/PLUGIN.md");
    // The rename is written the way the name was: beside the document; nothing else changes.
    let (_, changed) = check_apply(d);
    assert_eq!(
        changed["fixtures/app/README.md"].as_deref(),
        Some("# App\n\nThe config is `wrangler.jsonc`.\n")
    );
    assert_eq!(changed.len(), 1, "{changed:#?}");
}

/// A renamed file linked with a line fragment (`[a.rs:1](a.rs#L1)`, as generated link lists
/// write it) is repointed in text and target alike, fragment kept. Where the old name also sits
/// inside a longer path on the line, no swap is suggested (finalize would refuse it, and one
/// refused suggestion used to fail the whole check), and so is a link whose label spells the
/// old path (`[src/agents/notes.rs](../src/agents/notes.rs)`, moved to `src/sessions/`: the
/// target alone would be rewritten). The signals
/// still reach the model.
#[test]
fn a_link_with_a_line_fragment_is_repointed_and_an_ambiguous_line_is_left_to_the_model() {
    let r = repo();
    let d = &r.root;
    write(d, "src/agents/notes.rs", "pub fn note() {}\n");
    renamed_source(d);
    std::fs::create_dir_all(d.join("src/sessions")).unwrap();
    git(d, &["mv", "src/agents/notes.rs", "src/sessions/notes.rs"]);
    commit(d, "move the notes");
    // The link is written from the guide's folder, as TypeAgent's generated lists write theirs
    // (a link found renamed only from the root is left to the model: `held_out.rs`).
    let guide = "# Guide\n\n- `run` in [../src/old_name.rs:1](../src/old_name.rs#L1)\n\nBoth `legacy/src/old_name.rs` and `src/old_name.rs` hold an entry point.\n\nSee [src/agents/notes.rs](../src/agents/notes.rs).\n";
    write(d, "docs/guide.md", guide);
    commit(d, "docs");
    let s = scan(d);
    let lines: Vec<u64> = signals(&s, "docs/guide.md")
        .iter()
        .filter(|g| {
            g["renamed_to"]
                .as_str()
                .is_some_and(|t| t.starts_with("src/"))
        })
        .map(|g| g["line"].as_u64().unwrap())
        .collect();
    assert!(
        lines.contains(&3) && lines.contains(&5) && lines.contains(&7),
        "{s:#}"
    );
    let (_, changed) = check_apply(d);
    assert_eq!(
        changed["docs/guide.md"].as_deref(),
        Some(
            "# Guide\n\n- `run` in [../src/new_name.rs:1](../src/new_name.rs#L1)\n\nBoth `legacy/src/old_name.rs` and `src/old_name.rs` hold an entry point.\n\nSee [src/agents/notes.rs](../src/agents/notes.rs).\n"
        ),
        "{changed:#?}"
    );
    assert!(d.join(".hygiene/report.json").is_file());
}
