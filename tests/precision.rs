//! Signal precision (issue 18): one small repository per class of false signal that public
//! repositories showed, each asserting the false signal gone **and** a true signal of the same
//! kind kept.

mod common;

use common::fixture::{commit, pair, repo, scan, sigs, sigs_kind};
use common::{git, write};
use serde_json::Value;
use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_hygiene");

/// A VitePress site links by route (`/cli/config.html`, `./config`, `/guide/`), a Mintlify
/// site without extensions (and through its `redirects`), a Hugo blog to its static folder, a Docusaurus site into a version:
/// each lands on a page that exists. A route to no page is still reported, and so is the same
/// route outside any site (GitHub reads it as a file).
#[test]
fn site_routes_land_on_their_pages() {
    let r = repo();
    let d = &r.root;
    write(d, "docs/.vitepress/config.ts", "export default {}\n");
    write(d, "docs/cli/config.md", "# mise config\n");
    write(d, "docs/guide/index.md", "# Guide\n");
    write(d, "docs/public/logo.svg", "<svg/>\n");
    write(
        d,
        "docs/cli/index.md",
        "# CLI\n\nSee [config](/cli/config.html), [again](./config), [the guide](/guide/), \
         ![logo](/logo.svg) and [gone](/cli/removed.html).\n",
    );
    write(
        d,
        "site/docs.json",
        r#"{"redirects": [{"source": "/spec/latest/:slug*", "destination": "/spec/2026/:slug*"}]}"#,
    );
    write(d, "site/spec/2026/basic.mdx", "# Basic\n");
    write(d, "site/develop/build-client.mdx", "# Build a client\n");
    write(
        d,
        "site/develop/build-server.mdx",
        "# Build a server\n\nThen [a client](/develop/build-client) or [a gone page](/develop/gone), \
         [the spec](/spec/latest/basic), [a gone spec page](/spec/latest/gone).\n",
    );
    write(d, "blog/hugo.toml", "title = 'b'\n");
    write(d, "blog/static/posts/img/a.webp", "x");
    write(
        d,
        "blog/content/posts/a.md",
        "# A\n\n![a](/posts/img/a.webp) and ![b](/posts/img/b.webp)\n",
    );
    write(d, "web/docusaurus.config.ts", "export default {}\n");
    write(d, "web/docs/cli.md", "# CLI\n");
    write(d, "web/versioned_docs/version-1.0/cli.md", "# CLI 1.0\n");
    write(
        d,
        "web/docs/intro.md",
        "# Intro\n\n[cli](/docs/cli), [cli 1.0](/docs/1.0/cli), [next](/docs/next/cli), [old](/docs/2.0/cli).\n",
    );
    write(
        d,
        "README.md",
        "# R\n\nRead [the config](/cli/config.html).\n",
    );
    commit(d, "sites");
    let s = scan(d);
    assert_eq!(
        sigs(&s, "docs/cli/index.md"),
        [pair("missing-path", "/cli/removed.html")]
    );
    assert_eq!(
        sigs(&s, "site/develop/build-server.mdx"),
        [
            pair("missing-path", "/develop/gone"),
            pair("missing-path", "/spec/latest/gone")
        ]
    );
    assert_eq!(
        sigs(&s, "blog/content/posts/a.md"),
        [pair("missing-path", "/posts/img/b.webp")]
    );
    assert_eq!(
        sigs(&s, "web/docs/intro.md"),
        [pair("missing-path", "/docs/2.0/cli")]
    );
    assert_eq!(
        sigs(&s, "README.md"),
        [pair("missing-path", "/cli/config.html")]
    );
}

/// Into a site's page, a fragment matches an explicit heading id (`{#shell}`) or the
/// generator's own slug (`conf.d` → `conf-d`, `CI/CD` → `ci-cd`); a page that renders a
/// component's headings is not checked. A fragment that names no heading is still reported,
/// and outside a site GitHub's slug is the rule.
#[test]
fn site_anchors_follow_the_generator() {
    let r = repo();
    let d = &r.root;
    write(d, "docs/.vitepress/config.ts", "export default {}\n");
    write(
        d,
        "docs/env.md",
        "# Env\n\n## conf.d environments\n\n## CI/CD\n\n### Specifying a shell {#shell}\n",
    );
    write(
        d,
        "docs/settings.md",
        "# Settings\n\n<Settings :level=\"2\" />\n",
    );
    write(
        d,
        "docs/guide.md",
        "# Guide\n\n[a](/env.html#conf-d-environments), [b](./env#ci-cd), [c](/env#shell), \
         [d](/settings.html#experimental), [e](/env.html#version-listing)\n",
    );
    write(d, "notes/env.md", "# Env\n\n## conf.d environments\n");
    write(
        d,
        "notes/guide.md",
        "# Guide\n\n[a](env.md#confd-environments), [b](env.md#conf-d-environments)\n",
    );
    commit(d, "anchors");
    let s = scan(d);
    assert_eq!(
        sigs(&s, "docs/guide.md"),
        [pair("missing-anchor", "/env.html#version-listing")]
    );
    assert_eq!(
        sigs(&s, "notes/guide.md"),
        [pair("missing-anchor", "env.md#conf-d-environments")]
    );
}

/// An MDX page's JSX objects (`style={{ ... }}`) are not template placeholders: a dated
/// snapshot of a site stays a history record and draws nothing.
#[test]
fn jsx_objects_do_not_make_a_snapshot_a_template() {
    let r = repo();
    let d = &r.root;
    let jsx = "<img style={{ width: 1 }} />\n<div style={{ a: 2 }} />\n<p style={{ b: 3 }} />\n";
    write(
        d,
        "docs/2024-11-05/develop/servers.mdx",
        &format!("# Servers\n\n{jsx}\nSee [logs](#getting-logs).\n"),
    );
    write(
        d,
        "docs/draft/develop/servers.mdx",
        &format!("# Servers\n\n{jsx}\nSee [logs](#getting-logs).\n"),
    );
    commit(d, "snapshots");
    let s = scan(d);
    assert!(sigs(&s, "docs/2024-11-05/develop/servers.mdx").is_empty());
    assert_eq!(
        sigs(&s, "docs/draft/develop/servers.mdx"),
        [pair("missing-anchor", "#getting-logs")]
    );
}

/// An extension-less `a/b` in code is a name as often as a path (`tools/call` is a JSON-RPC
/// method, though `tools/` exists): reported only where history knows it. A deleted
/// extension-less script is still reported.
#[test]
fn extensionless_code_names_need_history() {
    let r = repo();
    let d = &r.root;
    write(d, "tools/gen.py", "print()\n");
    write(d, "bin/run-tests", "#!/bin/sh\n");
    commit(d, "one");
    git(d, &["rm", "-q", "bin/run-tests"]);
    write(d, "bin/build", "#!/bin/sh\n");
    commit(d, "two");
    write(
        d,
        "docs/spec.md",
        "# Spec\n\nClients send `tools/call` and `tools/list`. Tests: `bin/run-tests`.\n",
    );
    commit(d, "doc");
    let s = scan(d);
    assert_eq!(
        sigs(&s, "docs/spec.md"),
        [pair("missing-path", "bin/run-tests")]
    );
}

/// Drift counts the files a document describes (code, configuration, a plugin's shipped
/// prompt), not the documents it links to (pages churn together) nor a bare file name (a kind
/// of file, whose dependency bumps are not news). Each document here names something the
/// changes took away, so only what counts decides.
#[test]
fn drift_counts_described_files_not_linked_pages() {
    let r = repo();
    let d = &r.root;
    write(d, "src/lib.rs", "pub fn old_api() {}\n");
    write(d, "docs/other.md", "# Other\n\nCall `old_api`.\n");
    write(
        d,
        "docs/nav.md",
        "# Nav\n\nSee [other](other.md) for `old_api`.\n",
    );
    write(d, "package.json", "{\"old_api\": 1}\n");
    write(
        d,
        "docs/yarn.md",
        "# yarn\n\nSaves `old_api` to the `package.json` file.\n",
    );
    write(
        d,
        "docs/api.md",
        "# API\n\nThe entry point is `src/lib.rs`.\n\nCall `old_api` first.\n",
    );
    // A plugin's README describes its command, a shipped prompt: the product, not a page.
    write(d, ".claude-plugin/plugin.json", "{}\n");
    write(
        d,
        "commands/review.md",
        "# Review\n\nPost in `one-comment` mode.\n",
    );
    write(
        d,
        "README.md",
        "# Plugin\n\nThe review is posted as one comment (`commands/review.md`).\n\nIt runs in `one-comment` mode.\n",
    );
    commit(d, "one");
    for i in 0..4 {
        write(d, "src/lib.rs", &format!("pub fn a() {{}} // {i}\n"));
        write(d, "docs/other.md", &format!("# Other\n\nRevision {i}.\n"));
        write(d, "package.json", &format!("{{\"v\": {i}}}\n"));
        write(
            d,
            "commands/review.md",
            &format!("# Review\n\nPost inline comments, round {i}.\n"),
        );
        commit(d, &format!("churn {i}"));
    }
    let s = scan(d);
    assert_eq!(sigs(&s, "README.md"), [pair("drift", "")]);
    assert_eq!(sigs(&s, "docs/api.md"), [pair("drift", "")]);
    assert!(
        sigs(&s, "docs/nav.md").is_empty(),
        "{:?}",
        sigs(&s, "docs/nav.md")
    );
    assert!(
        sigs(&s, "docs/yarn.md").is_empty(),
        "{:?}",
        sigs(&s, "docs/yarn.md")
    );
}

/// A backticked name is this repository's only where the document ties it to this code: a
/// qualifier the source has, or a source file named on the same line. A library's call, a
/// config key, a tutorial's own function and a placeholder are not; a function defined in an
/// extension-less script is found. A member gone from a type that is here, and a call gone
/// from the file the line names, are still reported.
#[test]
fn symbols_are_claims_only_where_tied_to_this_code() {
    let r = repo();
    let d = &r.root;
    write(
        d,
        "src/lib.rs",
        "pub struct Repo;\nimpl Repo { pub fn history() {} }\npub fn load() {}\n",
    );
    write(
        d,
        "hooks/session-start",
        "#!/usr/bin/env bash\nemit_context() { echo hi; }\n",
    );
    write(
        d,
        "docs/guide.md",
        "# Guide\n\n\
         Print with `fmt.Println()`; errors are `Errno::ENOENT`; set `max_connections`.\n\n\
         `Repo::history` and `Repo::vanished`.\n\n\
         `src/lib.rs` has `load()`, `process_query()`, `parse_allowed_xxx` and `gone_function()`.\n\n\
         `hooks/session-start` runs `emit_context`.\n\n\
         ```python\ndef process_query(q):\n    return q\n```\n",
    );
    commit(d, "code");
    let s = scan(d);
    let mut got: Vec<(String, String)> = sigs_kind(&s, "docs/guide.md", "missing-symbol");
    got.sort();
    assert_eq!(
        got,
        [
            pair("missing-symbol", "Repo::vanished"),
            pair("missing-symbol", "gone_function")
        ]
    );
}

/// A marker word that is the subject of a sentence (a rule about TODO lists, a TODO app, a
/// table of per-item statuses, a status template, a deprecated feature documented by a current
/// page) draws nothing; a marker that marks the document still does.
#[test]
fn markers_whose_word_is_the_subject_draw_nothing() {
    let r = repo();
    let d = &r.root;
    write(
        d,
        "AGENTS.md",
        "# Agents\n\n- Do NOT create markdown TODO lists; use the tracker.\n\n\
         | item | status | owner |\n|---|---|---|\n| uptime | planned | TBD |\n| triage | planned | TBD |\n",
    );
    write(
        d,
        "docs/sampling.md",
        "# Sampling\n\n**Deprecated**: The Sampling feature is deprecated as of version 3.\n",
    );
    write(
        d,
        "seps/TEMPLATE.md",
        "# SEP\n\n- **Status**: Draft | In-Review | Accepted | Final\n",
    );
    write(d, "docs/cache.md", "# Cache\n\nTODO: evict old entries.\n");
    write(
        d,
        "docs/old-guide.md",
        "# Old guide\n\n> **Deprecated:** use [the new guide](cache.md).\n",
    );
    commit(d, "markers");
    let s = scan(d);
    for quiet in ["AGENTS.md", "docs/sampling.md", "seps/TEMPLATE.md"] {
        assert!(sigs(&s, quiet).is_empty(), "{quiet}: {:?}", sigs(&s, quiet));
    }
    assert_eq!(sigs(&s, "docs/cache.md"), [pair("provisional-marker", "")]);
    assert_eq!(
        sigs(&s, "docs/old-guide.md"),
        [pair("superseded-marker", "")]
    );
}

/// A Cursor rule that always applies is loaded on every Cursor request: per-session, with the
/// per-session oversize threshold, in the scan and in the report finalize derives. The same
/// rule applied on demand is on-demand. The published policy names the files and the key.
#[test]
fn always_applied_cursor_rules_are_per_session() {
    let r = repo();
    let d = &r.root;
    // Over the token threshold and over the line target, one rule per line.
    let body: String = (0..700)
        .map(|i| format!("Rule {i}: prefer small functions.\n"))
        .collect();
    write(
        d,
        ".cursor/rules/always.mdc",
        &format!("---\nalwaysApply: true\n---\n# Always\n\n{body}\n"),
    );
    write(
        d,
        ".cursor/rules/sometimes.mdc",
        &format!(
            "---\nalwaysApply: false\n---\n# Sometimes\n\n{}\n",
            body.replace("Rule", "Hint")
        ),
    );
    commit(d, "rules");
    let s = scan(d);
    let item = |p: &str| {
        s["shortlist"]
            .as_array()
            .unwrap()
            .iter()
            .find(|i| i["path"] == p)
            .cloned()
    };
    let always = item(".cursor/rules/always.mdc").expect("shortlisted");
    assert_eq!(always["injection_frequency"], "per-session");
    assert_eq!(always["signals"][0]["kind"], "oversize");
    let p: Value =
        serde_json::from_slice(&Command::new(BIN).arg("policy").output().unwrap().stdout).unwrap();
    assert_eq!(
        always["signals"][0]["threshold"],
        p["thresholds"]["oversize_per_session_tokens"]
    );
    assert!(item(".cursor/rules/sometimes.mdc").is_none());
    assert_eq!(p["scanner"]["cursor_rules_dir"], ".cursor/rules/");
    let freqs = hygiene::scan::injection_frequencies(
        d,
        &[
            ".cursor/rules/always.mdc".to_string(),
            ".cursor/rules/sometimes.mdc".to_string(),
        ],
    );
    assert_eq!(
        freqs[".cursor/rules/always.mdc"],
        hygiene::report::InjectionFrequency::PerSession
    );
    assert_eq!(
        freqs[".cursor/rules/sometimes.mdc"],
        hygiene::report::InjectionFrequency::OnDemand
    );
}

/// Paths a user's project or a tool creates are not this repository's: a path git ignores
/// (a tool's runtime state, even one that was once tracked), and a `./file` in a shipped
/// skill's code (the user's working folder). A skill's files link each other from the skill's
/// folder. A deleted document, a broken link in the skill and a broken skill-relative link are
/// still reported.
#[test]
fn paths_of_the_users_project_are_not_claims() {
    let r = repo();
    let d = &r.root;
    write(d, ".claude-plugin/plugin.json", "{}\n");
    write(d, ".beads/issues.jsonl", "{}\n");
    write(d, "docs/old.md", "# Old\n");
    commit(d, "one");
    git(d, &["rm", "-q", "-r", ".beads", "docs/old.md"]);
    write(d, ".gitignore", ".beads/*\n");
    write(d, "skills/guard/references/more.md", "# More\n");
    write(
        d,
        "skills/guard/SKILL.md",
        "# Guard\n\nWrite the policy to `./protect.cedar`. See [details](references/details.md) \
         and [gone](references/gone.md).\n",
    );
    write(
        d,
        "skills/guard/references/details.md",
        "# Details\n\nSee [more](references/more.md) and [less](references/less.md).\n",
    );
    write(
        d,
        "docs/setup.md",
        "# Setup\n\nIssues live in `.beads/issues.jsonl`; read `docs/old.md`. Add a hook in \
         your `.claude/settings.json`, then run `./setup.sh` in your project.\n",
    );
    commit(d, "two");
    let s = scan(d);
    assert_eq!(
        sigs(&s, "docs/setup.md"),
        [pair("missing-path", "docs/old.md")]
    );
    assert_eq!(
        sigs(&s, "skills/guard/SKILL.md"),
        [pair("missing-path", "references/gone.md")]
    );
    assert_eq!(
        sigs(&s, "skills/guard/references/details.md"),
        [pair("missing-path", "references/less.md")]
    );
}

/// A plan names paths as intentions ("Create: `src/cache.rs`") and a handoff records a
/// session: a document a lifecycle rule governs draws none of the published quiet kinds, only
/// its lifecycle question. A living document naming the same deleted file still draws it.
#[test]
fn governed_documents_name_paths_as_intentions() {
    let r = repo();
    let d = &r.root;
    write(d, "src/old.rs", "pub fn a() {}\n");
    commit(d, "one");
    git(d, &["rm", "-q", "src/old.rs"]);
    write(d, "src/lib.rs", "pub fn b() {}\n");
    commit(d, "two");
    // "Delete: `src/old.rs`" would say the file is meant gone, in any document: the claim is
    // a file the text still uses.
    let refs = "Create: `src/cache.rs`. It calls `src/old.rs`. See [notes](#notes).\n";
    write(
        d,
        "docs/plans/2026-01-01-cache.md",
        &format!("# Cache plan\n\n{refs}"),
    );
    write(d, "docs/guide.md", &format!("# Guide\n\n{refs}"));
    commit(d, "docs");
    let s = scan(d);
    let p: Value =
        serde_json::from_slice(&Command::new(BIN).arg("policy").output().unwrap().stdout).unwrap();
    let quiet: Vec<&str> = p["scanner"]["governed_quiet_signals"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    assert!(quiet.contains(&"missing-path") && quiet.contains(&"missing-anchor"));
    let plan = sigs(&s, "docs/plans/2026-01-01-cache.md");
    assert_eq!(plan, [pair("lifecycle", "")]);
    let guide = sigs(&s, "docs/guide.md");
    assert!(
        guide.contains(&pair("missing-path", "src/old.rs")),
        "{guide:?}"
    );
    assert!(
        guide.contains(&pair("missing-anchor", "#notes")),
        "{guide:?}"
    );
}

/// Judged on public repositories: a SEP or a dated design spec is a record (its deprecation
/// timeline, quoted TBDs and removed paths are history); a heading that only contains a
/// resolution word ("The Fix Loop", "`$ref` Resolution") is no resolved write-up while a
/// "## Resolution" heading is; a link to a github.com page (`/owner/repo/blob/...`) is not a
/// file here; a file made of `@import`s does not drift with what it imports.
#[test]
fn records_headings_github_links_and_imports() {
    let r = repo();
    let d = &r.root;
    let story: String = (0..80)
        .map(|i| format!("Attempt {i} replayed the failing request against a fresh cache. "))
        .collect();
    write(d, "src/a.rs", "pub fn a() {}\n");
    write(d, "docs/rules.md", "# Rules\n\nSee `src/a.rs`.\n");
    write(d, "GEMINI.md", "@docs/rules.md\n");
    commit(d, "one");
    for i in 0..4 {
        write(d, "src/a.rs", &format!("pub fn a() {{}} // {i}\n"));
        write(
            d,
            "docs/rules.md",
            &format!("# Rules\n\nSee `src/a.rs` ({i}).\n"),
        );
        commit(d, &format!("churn {i}"));
    }
    write(
        d,
        "seps/2577-deprecate-roots.md",
        "# SEP-2577\n\n**Deprecated:** in 2026-07.\n\nMechanics: TBD.\n\nRemove `src/roots.rs`.\n",
    );
    write(
        d,
        "docs/specs/2026-07-15-fix-loop-design.md",
        &format!("# Design\n\n## The Fix Loop\n\n{story}\n"),
    );
    write(
        d,
        "docs/spec/basics.md",
        &format!("# Basics\n\n### `$ref` Resolution\n\n{story}\n"),
    );
    write(
        d,
        "docs/incidents/dns.md",
        &format!("# DNS incident\n\n{story}\n\n## Resolution\n\nPinned the resolver.\n"),
    );
    write(
        d,
        ".github/PULL_REQUEST_TEMPLATE.md",
        "Read [the guide](/acme/tool/blob/main/CONTRIBUTING.md) and [gone](/CONTRIBUTING.md).\n",
    );
    commit(d, "docs");
    let s = scan(d);
    for quiet in [
        "seps/2577-deprecate-roots.md",
        "docs/specs/2026-07-15-fix-loop-design.md",
        "docs/spec/basics.md",
        "GEMINI.md",
    ] {
        assert!(sigs(&s, quiet).is_empty(), "{quiet}: {:?}", sigs(&s, quiet));
    }
    assert_eq!(
        sigs(&s, "docs/incidents/dns.md"),
        [pair("resolved-narrative", "")]
    );
    assert_eq!(
        sigs(&s, ".github/PULL_REQUEST_TEMPLATE.md"),
        [pair("missing-path", "/CONTRIBUTING.md")]
    );
}

/// What a line says about its path (the reader's project, an intention, a recorded removal),
/// placeholders, one-word link targets, a template's links, a path written from a folder the
/// same line names, a page served at its frontmatter slug, a package's ignored output, a
/// `## Deprecated` section heading, a Terraform variable and a link repeating its backticked
/// text: none is a stale claim. The same document's real broken references are still reported.
#[test]
fn lines_that_say_whose_path_it_is_and_paths_served_elsewhere() {
    let r = repo();
    let d = &r.root;
    for f in [
        ".mcp.json",
        "disclosure.txt",
        "internal/merge/merge.go",
        "docs/old.md",
    ] {
        write(d, f, "x\n");
    }
    commit(d, "one");
    git(
        d,
        &[
            "rm",
            "-q",
            "-r",
            ".mcp.json",
            "disclosure.txt",
            "internal",
            "docs/old.md",
        ],
    );
    write(d, "packages/a/src/index.ts", "export {};\n");
    write(d, "src/main.ts", "export {};\n");
    write(d, "packages/ui/.gitignore", "src/api/generated/\n");
    write(d, "packages/ui/package.json", "{}\n");
    write(
        d,
        "packages/ui/README.md",
        "# UI\n\n**Output:** `src/api/generated/`\n",
    );
    write(
        d,
        "infra/main.tf",
        "variable \"image_tag\" {\n  type = string\n}\n",
    );
    write(
        d,
        "docs/guide.md",
        "# Guide\n\n\
         Add the server to your project's `.mcp.json`.\n\n\
         Put a file named `disclosure.txt` in the pull request.\n\n\
         The engine (`internal/merge/`) was removed during the migration.\n\n\
         Release pages live in `site/versioned_docs/version-X.Y.Z/`; see [the docs](<{docs_url(name)}>).\n\n\
         Iterate [t](parallelism) times.\n\n\
         | area | where |\n|---|---|\n| CLI | `packages/a/src/` holds `src/index.ts` |\n| UI | `packages/a/src/` holds `src/gone.ts` |\n\n\
         ## Deprecated\n\nThe `--old` flag.\n\n\
         Set `image_tag` in `infra/main.tf`, not `vanished_var` in `infra/main.tf`.\n\n\
         See [`docs/old.md`](./docs/old.md) and [`docs/gone2.md`](./docs/gone2.md).\n",
    );
    write(d, ".claude-plugin/plugin.json", "{}\n");
    write(
        d,
        "templates/track-plan.md",
        "# Plan for {{TRACK}}\n\n**Spec:** [spec.md](./spec.md)\n",
    );
    write(d, "blog/hugo.toml", "title = 'b'\n");
    write(
        d,
        "blog/content/posts/2026-05-21-rc.md",
        "---\ntitle: RC\nslug: release-candidate\n---\n# RC\n",
    );
    write(
        d,
        "blog/content/posts/2026-06-01-ga.md",
        "# GA\n\nAfter the [release candidate](/posts/release-candidate/) and [a lost post](/posts/lost/).\n",
    );
    commit(d, "two");
    let s = scan(d);
    let mut guide = sigs(&s, "docs/guide.md");
    guide.sort();
    assert_eq!(
        guide,
        [
            pair("missing-path", "./docs/gone2.md"),
            pair("missing-path", "./docs/old.md"),
            pair("missing-path", "src/gone.ts"),
            pair("missing-symbol", "vanished_var"),
        ]
    );
    assert!(sigs(&s, "packages/ui/README.md").is_empty());
    assert!(sigs(&s, "templates/track-plan.md").is_empty());
    assert_eq!(
        sigs(&s, "blog/content/posts/2026-06-01-ga.md"),
        [pair("missing-path", "/posts/lost/")]
    );
}

/// Signals that ride along (`scanner.ride_along_signals`) never shortlist a document alone:
/// a long skill file read on demand, a block another client's file repeats. Beside another signal
/// they reach the model. A reference generated from a command (`Generated from ...`) draws no
/// marker; a name qualified by a library's namespace is not this code's, while a member gone
/// from a type this code has is still reported.
#[test]
fn companions_ride_along_and_generated_references_keep_quiet() {
    let r = repo();
    let d = &r.root;
    let big: String = (0..26_000).map(|i| format!("word{i} ")).collect();
    write(
        d,
        ".claude/skills/lib/reference.md",
        &format!("# Reference\n\n{big}\n"),
    );
    write(
        d,
        ".claude/skills/lib/notes.md",
        &format!("# Notes\n\nTODO: split this page.\n\n{big}\n"),
    );
    let shared = "Run the whole test suite and the linters before every push; CI checks exactly the same things and fails otherwise.";
    write(d, "AGENTS.md", &format!("# Agents\n\n{shared}\n"));
    write(
        d,
        ".github/copilot-instructions.md",
        &format!("# Copilot\n\n{shared}\n"),
    );
    write(
        d,
        "docs/CLI.md",
        "# tool reference\n\nGenerated from `tool help --all`.\n\n## tool todo\n\nTODO: mark items done.\n",
    );
    write(
        d,
        "src/lib.rs",
        "pub struct Errors;\nimpl Errors { pub fn kept() {} }\n",
    );
    write(
        d,
        "docs/errors.md",
        "# Errors\n\nRescue `Anthropic::Errors::AuthenticationError`, call `Errors::kept` or `Errors::gone_fn`.\n",
    );
    commit(d, "one");
    let s = scan(d);
    assert!(sigs(&s, ".claude/skills/lib/reference.md").is_empty());
    let mut notes = sigs(&s, ".claude/skills/lib/notes.md");
    notes.sort();
    assert_eq!(
        notes,
        [pair("oversize", ""), pair("provisional-marker", "")]
    );
    assert!(sigs(&s, ".github/copilot-instructions.md").is_empty());
    assert!(sigs(&s, "docs/CLI.md").is_empty());
    assert_eq!(
        sigs(&s, "docs/errors.md"),
        [pair("missing-symbol", "Errors::gone_fn")]
    );
    let p: Value =
        serde_json::from_slice(&Command::new(BIN).arg("policy").output().unwrap().stdout).unwrap();
    let rows: Vec<(&str, &str)> = p["scanner"]["ride_along_signals"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| (r["kind"].as_str().unwrap(), r["when"].as_str().unwrap()))
        .collect();
    assert_eq!(
        rows,
        [
            ("oversize", "read-on-demand"),
            ("duplicate-block", "single-client-file"),
            ("provisional-marker", "hidden-read-on-demand"),
        ]
    );
}
