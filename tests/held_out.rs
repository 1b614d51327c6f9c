//! Classes of false signal (and one untrusted auto edit) that held-out public repositories
//! showed, repositories none of the earlier rules were written from: a page collection whose
//! site lives elsewhere, a rename that changed what a file is, prompt variants, emoji headings,
//! per-field deprecation notes, imported library types. Each test shows the false signal gone
//! **and** a true signal of the same kind kept.

mod common;

use common::fixture::{
    check_apply, commit, commit_at, docs_with_kind, dup_spans, investigation, pair, refs_kind,
    renames, repo, scan, signals, sigs, sigs_kind, sigs_of,
};
use common::{git, read, write};

/// Pages of a collection whose site is built elsewhere (`content/docs/03-core/02-stream.mdx`,
/// synced into an app) link by route with the ordering prefixes dropped, rooted or relative.
/// Their anchors into a reference page whose rows a component renders from a list prop are not
/// knowable. A route to no page, and an anchor into a page whose components only style, are
/// still reported.
#[test]
fn unmarked_page_collections_link_by_route() {
    let r = repo();
    let d = &r.root;
    write(
        d,
        "content/docs/03-core/05-generating-text.mdx",
        "# Generating text\n\n## Options\n\nSee [structured data](./generating-structured-data), \
         [the reference](/docs/reference/core/stream-text#on-end), [core](/docs/core), \
         [options](/docs/core/generating-text#options), [guide](/docs/guide#setup) \
         and [gone](/docs/core/removed-page).\n",
    );
    write(
        d,
        "content/docs/03-core/10-generating-structured-data.mdx",
        "# Structured data\n",
    );
    write(
        d,
        "content/docs/07-reference/01-core/02-stream-text.mdx",
        "# streamText\n\n## Parameters\n\n<PropertiesTable\n  content={[\n    {\n      name: 'onEnd',\n      type: 'function',\n    },\n  ]}\n/>\n",
    );
    write(
        d,
        "content/docs/04-guide.mdx",
        "# Guide\n\n<Frame style={{ textAlign: \"center\" }}>\n  <img src=\"x.png\" />\n</Frame>\n\n## Install\n",
    );
    commit(d, "docs");
    let s = scan(d);
    let mut got = sigs(&s, "content/docs/03-core/05-generating-text.mdx");
    got.sort();
    assert_eq!(
        got,
        [
            pair("missing-anchor", "/docs/guide#setup"),
            pair("missing-path", "/docs/core/removed-page"),
        ]
    );
}

/// A file git moved into shipped content (`memory/constitution.md` to
/// `templates/constitution-template.md`, a project file turned template) left its old name to
/// the user's copy: no claim, and `--apply` leaves the line alone; neither is a shipped
/// prompt's rooted path (`/memory/constitution.md`). Other renames (in place, moved, a module
/// turned package) are still fixed.
#[test]
fn renames_into_shipped_content_are_not_claims() {
    let r = repo();
    let d = &r.root;
    write(
        d,
        "memory/constitution.md",
        "# Constitution\n\nPrinciples.\n",
    );
    write(d, "scripts/run.sh", "#!/bin/sh\necho run\n");
    write(d, "tools/check-fixtures.ts", "export const check = 1;\n");
    write(d, "src/cli/ext.py", "def load():\n    pass\n");
    commit(d, "files");
    for dir in ["templates", "src/cli/ext"] {
        std::fs::create_dir_all(d.join(dir)).unwrap();
    }
    for (from, to) in [
        (
            "memory/constitution.md",
            "templates/constitution-template.md",
        ),
        ("scripts/run.sh", "tools/start.sh"),
        ("tools/check-fixtures.ts", "tools/validate-fixtures.ts"),
        ("src/cli/ext.py", "src/cli/ext/__init__.py"),
    ] {
        git(d, &["mv", from, to]);
    }
    commit(d, "move");
    write(
        d,
        "CONTRIBUTING.md",
        "# Contributing\n\nKeep `memory/constitution.md` current.\n\n\
         Start the app with `scripts/run.sh`.\n\n\
         Fixtures are checked by `tools/check-fixtures.ts`.\n\n\
         Extensions load in `src/cli/ext.py`.\n",
    );
    write(
        d,
        "templates/commands/plan.md",
        "# Plan\n\nRead `/memory/constitution.md` first.\n",
    );
    commit(d, "docs");
    let s = scan(d);
    let mut got = sigs(&s, "CONTRIBUTING.md");
    got.sort();
    assert_eq!(
        got,
        [
            pair("missing-path", "scripts/run.sh"),
            pair("missing-path", "src/cli/ext.py"),
            pair("missing-path", "tools/check-fixtures.ts"),
        ]
    );
    assert!(sigs(&s, "templates/commands/plan.md").is_empty());
    check_apply(d, &[]);
    let text = read(d, "CONTRIBUTING.md");
    assert!(
        text.contains("Keep `memory/constitution.md` current."),
        "{text}"
    );
    assert!(text.contains("`tools/start.sh`"), "{text}");
    assert!(text.contains("`tools/validate-fixtures.ts`"), "{text}");
    assert!(text.contains("`src/cli/ext/__init__.py`"), "{text}");
}

/// Slash-command variants (`create_plan.md`, `create_plan_nt.md`) repeat each other by design:
/// each is invoked alone. A nested `AGENTS.md` repeating the root one is still reported.
#[test]
fn prompt_variants_repeat_by_design() {
    let r = repo();
    let d = &r.root;
    let block = "## Process\n\n1. Read every file the ticket names, fully, before planning anything at all.\n\
                 2. Spawn research tasks in parallel to find the code that implements the feature.\n\
                 3. Present the findings and the open questions, then wait for the user's answer.\n\
                 4. Write the plan with phases, each with automated and manual success criteria.\n";
    write(
        d,
        ".claude/commands/create_plan.md",
        &format!("# Create plan\n\nUse thoughts/ for notes.\n\n{block}"),
    );
    write(
        d,
        ".claude/commands/create_plan_nt.md",
        &format!("# Create plan (no thoughts)\n\nKeep notes in the chat.\n\n{block}"),
    );
    write(
        d,
        "AGENTS.md",
        &format!("# Agents\n\nThe root rules.\n\n{block}"),
    );
    write(
        d,
        "cli/AGENTS.md",
        &format!("# CLI agents\n\nThe CLI's rules.\n\n{block}"),
    );
    commit(d, "prompts");
    let s = scan(d);
    for quiet in [
        ".claude/commands/create_plan.md",
        ".claude/commands/create_plan_nt.md",
    ] {
        assert!(
            !sigs(&s, quiet).iter().any(|(k, _)| k == "duplicate-block"),
            "{quiet}: {:?}",
            sigs(&s, quiet)
        );
    }
    assert!(
        sigs(&s, "cli/AGENTS.md")
            .iter()
            .any(|(k, _)| k == "duplicate-block"),
        "{:?}",
        sigs(&s, "cli/AGENTS.md")
    );
}

/// GitHub keeps an emoji's variation selector in the slug (`## 📽️ Video Overview` is
/// `#️-video-overview`); a fragment without it names no heading. An mkdocs cross-reference in
/// a heading (`[`X`][pkg.X] is new`) is slugged as the site shows it, too, and a site's
/// collapsed `-` (`webrtc-server` for GitHub's `webrtc--server`) is taken.
#[test]
fn emoji_headings_keep_their_variation_selector() {
    let r = repo();
    let d = &r.root;
    write(
        d,
        "README.md",
        "# Kit\n\n- [Video](#\u{fe0f}-video-overview)\n- [Old](#video-overview)\n- [Profile](#modelprofile-is-new)\n- [Sideband](#browser-webrtc-server-sideband)\n\n## 📽\u{fe0f} Video Overview\n\nWatch it.\n\n## [`ModelProfile`][kit.ModelProfile] is new\n\nText.\n\n## Browser WebRTC + server sideband\n\nText.\n",
    );
    commit(d, "readme");
    let s = scan(d);
    assert_eq!(
        sigs(&s, "README.md"),
        [pair("missing-anchor", "#video-overview")]
    );
}

/// A reference page's "Deprecated." on one field, deep in the page, is that field's note; a
/// newsletter names the code of its month. A page that opens with its deprecation, and a
/// type defined here whose member is gone, are still reported; a library's type the code only
/// imports (`Image.blend`) and a function beside a file name of the reader's project are not.
#[test]
fn item_notes_records_and_library_names_draw_nothing() {
    let r = repo();
    let d = &r.root;
    let fields: String = (1..=40)
        .map(|i| format!("- `result.field{i}`: the field number {i}.\n"))
        .collect();
    write(
        d,
        "docs/result.md",
        &format!(
            "# Result\n\n## Fields\n\n{fields}- `result.totalUsage`: Deprecated. Use `result.usage` instead.\n"
        ),
    );
    write(
        d,
        "docs/old.md",
        "# Old API\n\n> **Deprecated:** use [the result page](result.md).\n",
    );
    write(
        d,
        "src/frames.py",
        "from PIL import Image\n\nclass Frame:\n    def render(self):\n        return Image.new('RGB', (1, 1))\n",
    );
    write(
        d,
        "docs/frames.md",
        "# Frames\n\nBlend with `Image.blend(a, b, 0.5)`; draw with `Frame.paint()`.\n\n\
         Stop on provider files like `agent-openai.py` or `langchain_openai`.\n",
    );
    write(
        d,
        "newsletters/2026-June.md",
        "# June\n\nThe series moved handlers into `src/frames.py` and dropped `open_url()`.\n",
    );
    commit(d, "docs");
    let s = scan(d);
    assert!(
        sigs(&s, "docs/result.md").is_empty(),
        "{:?}",
        sigs(&s, "docs/result.md")
    );
    assert_eq!(sigs(&s, "docs/old.md"), [pair("superseded-marker", "")]);
    assert_eq!(
        sigs(&s, "docs/frames.md"),
        [pair("missing-symbol", "Frame.paint")]
    );
    assert!(sigs(&s, "newsletters/2026-June.md").is_empty());
}

/// `@theme.ts` in another client's rule (Continue, Cursor) names a file the client finds by
/// name anywhere; in a file Claude Code reads, `@` imports a path, and a missing one is broken.
#[test]
fn other_clients_mentions_find_files_by_name() {
    let r = repo();
    let d = &r.root;
    write(d, "gui/src/theme.ts", "export const theme = {};\n");
    write(
        d,
        ".continue/rules/tailwind.md",
        "# Tailwind\n\nMove styles from @theme.ts into classes; see @missing-helper.ts.\n",
    );
    write(d, "CLAUDE.md", "# Project\n\n@theme.ts\n");
    commit(d, "rules");
    let s = scan(d);
    assert_eq!(
        sigs(&s, ".continue/rules/tailwind.md"),
        [pair("missing-path", "missing-helper.ts")]
    );
    assert_eq!(sigs(&s, "CLAUDE.md"), [pair("missing-path", "theme.ts")]);
}

/// A drift needs what the changes took away: a document naming `legacy_option`, which the
/// described file dropped, is shortlisted on that evidence alone; one whose file only had its
/// version bumped is not reported, however many commits touched it.
#[test]
fn drift_needs_what_the_changes_took_away() {
    let r = repo();
    let d = &r.root;
    write(
        d,
        "src/cfg.rs",
        "pub fn legacy_option() {}\npub fn keep() {}\n",
    );
    write(
        d,
        "src/other.rs",
        "pub const VERSION: &str = \"1.0.0\";\npub fn stable_name() {}\n",
    );
    write(
        d,
        "docs/config.md",
        "# Config\n\nThe [config](../src/cfg.rs) is read at start.\n\nIt calls `legacy_option` first.\n",
    );
    write(
        d,
        "docs/other.md",
        "# Other\n\nThe [module](../src/other.rs) exports `stable_name`.\n",
    );
    commit(d, "docs");
    for i in 1..=3 {
        write(d, "src/cfg.rs", &format!("pub fn keep() {{}}\n// {i}\n"));
        write(
            d,
            "src/other.rs",
            &format!("pub const VERSION: &str = \"1.0.{i}\";\npub fn stable_name() {{}}\n"),
        );
        commit(d, &format!("change {i}"));
    }
    let s = scan(d);
    let item = s["shortlist"]
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i["path"] == "docs/config.md")
        .expect("the drift shortlists its document");
    assert_eq!(item["signals"].as_array().unwrap().len(), 1, "{item}");
    assert_eq!(item["signals"][0]["kind"], "drift", "{item}");
    assert_eq!(item["signals"][0]["commits"], 3, "{item}");
    assert!(
        sigs(&s, "docs/other.md").is_empty(),
        "{:?}",
        sigs(&s, "docs/other.md")
    );
}

/// An MDX collection's rooted links to sections the app serves from code (`/playground`, a
/// `/llms.txt` route handler) are not the collection's to check; a Mintlify page's `../x`
/// stops at the site's root as a browser's does.
#[test]
fn routes_outside_the_collection_and_relative_routes_of_a_site() {
    let r = repo();
    let d = &r.root;
    write(
        d,
        "content/docs/01-intro.mdx",
        "# Intro\n\nTry the [playground](/playground), read [llms.txt](/llms.txt), \
         or see [a removed page](/docs/removed).\n",
    );
    write(d, "site/mint.json", "{}\n");
    write(d, "site/workshop.mdx", "# Workshop\n");
    write(
        d,
        "site/introduction.mdx",
        "# Introduction\n\nJoin the [workshop](../workshop) or the [retreat](../retreat).\n",
    );
    commit(d, "docs");
    let s = scan(d);
    assert_eq!(
        sigs(&s, "content/docs/01-intro.mdx"),
        [pair("missing-path", "/docs/removed")]
    );
    assert_eq!(
        sigs(&s, "site/introduction.mdx"),
        [pair("missing-path", "../retreat")]
    );
}

/// Paths a line shows as examples are not claims: matches of a glob pattern beside them, an "e.g."
/// path, a made-up `my_agent/`, a file a command is said to remove, an install output
/// (`vendor/bundle/`), and `src/index.ts` that every package has. A TODO that names the word
/// ("issue, ticket, or TODO", "TODO lists") marks nothing. A path the line simply states, and a
/// TODO that marks the page, are still reported.
#[test]
fn examples_outputs_and_each_packages_files_are_not_claims() {
    let r = repo();
    let d = &r.root;
    for p in ["a", "b", "c"] {
        write(d, &format!("packages/{p}/src/index.ts"), "export {};\n");
    }
    write(d, "src/lib.rs", "pub fn a() {}\n");
    write(d, "vendor/README.md", "Vendored.\n");
    write(d, "docs/gone.rs", "// gone\n");
    commit(d, "code");
    git(d, &["rm", "-q", "docs/gone.rs"]);
    commit(d, "rm");
    write(
        d,
        "docs/guide.md",
        "# Guide\n\n\
         | `docs/*.draft.md` | `docs/api.draft.md` |\n|---|---|\n\n\
         | RPC | `src/protocol.rs`, `server_*.rs` |\n|---|---|\n\n\
         Link ADRs, e.g. `docs/2025-use-sqlite.md`.\n\n\
         The map holds paths like `src/bundle-entry.ts`.\n\n\
         Scaffolding writes `src/my_agent/`.\n\n\
         `tool exit` runs last. This removes `docs/gone.rs`.\n\n\
         Bundler installs into `vendor/bundle/`.\n\n\
         Re-export it from `src/index.ts`.\n\n\
         Each follow-up becomes a task (issue, ticket, or TODO).\n\n\
         - TODO lists and planning notes\n\n\
         The entry point is `src/main.rs`.\n",
    );
    write(d, "docs/cache.md", "# Cache\n\nTODO: evict old entries.\n");
    commit(d, "docs");
    let s = scan(d);
    let mut got = sigs(&s, "docs/guide.md");
    got.sort();
    assert_eq!(
        got,
        [
            pair("missing-path", "src/main.rs"),
            pair("missing-path", "src/protocol.rs"),
        ]
    );
    assert_eq!(sigs(&s, "docs/cache.md"), [pair("provisional-marker", "")]);
}

/// `docs/sessions/` may document a feature called Sessions: only session logs named with their
/// date are temporary. Months later, `check --apply` deletes the old dated logs beyond the five
/// newest and leaves the feature's pages alone.
#[test]
fn a_feature_called_sessions_is_not_a_session_log() {
    let r = repo();
    let d = &r.root;
    write(
        d,
        "docs/sessions/sqlalchemy_session.md",
        "# SQLAlchemy sessions\n\nStore sessions in any database SQLAlchemy supports.\n",
    );
    for day in 1..=7 {
        write(
            d,
            &format!(".claude/sessions/2020-01-0{day}-work.md"),
            &format!("# Session {day}\n"),
        );
    }
    commit(d, "docs and logs");
    // A year after the commit.
    let later = (hygiene::time::now_secs() + 365 * 86_400).to_string();
    check_apply(d, &[("HYGIENE_NOW", later)]);
    assert!(d.join("docs/sessions/sqlalchemy_session.md").exists());
    let left: Vec<bool> = (1..=7)
        .map(|day| {
            d.join(format!(".claude/sessions/2020-01-0{day}-work.md"))
                .exists()
        })
        .collect();
    assert_eq!(left, [false, false, true, true, true, true, true]);
}

/// A second set of held-out repositories: a package's README names files from the package's
/// root; translated pages (`docs/ja/`) keep the names of their time; a what's-new page and a
/// migration guide name removed APIs and replaced fields on purpose (their links still count); paths beside a URI template are its example inputs; a snake_case name that
/// is a folder's is no symbol; a field "replaced by" another deep in a page is not the page's
/// supersession. The same paths and names where they are claims are still reported.
#[test]
fn packages_translations_records_and_templates() {
    let r = repo();
    let d = &r.root;
    write(d, "apps/web/package.json", "{}\n");
    write(d, "apps/web/src/extension.ts", "export const main = 1;\n");
    write(d, "src/lib.py", "def run_story():\n    pass\n");
    write(d, "examples/error_handling/main.py", "print(1)\n");
    write(
        d,
        "apps/web/src/dev/README.md",
        "# Dev\n\nActivation lives in `src/extension.ts`; the server in `src/server.ts`.\n",
    );
    write(
        d,
        "docs/ja/tools.md",
        "# ツール\n\n[API](ref/tool.md) を参照。\n",
    );
    write(d, "docs/tools.md", "# Tools\n\nSee [API](ref/tool.md).\n");
    write(
        d,
        "docs/whats-new.md",
        "# What's new\n\n`Server.get_context` in `src/lib.py` is gone.\n",
    );
    let fields: String = (1..=40).map(|i| format!("- field {i}\n")).collect();
    write(
        d,
        "docs/migration.md",
        &format!(
            "# Migrating to v2\n\n## Fields\n\n{fields}\n### Replaced by `usage`\n\nUse `usage`.\n"
        ),
    );
    write(
        d,
        "docs/migration/v2.md",
        "# v2\n\n`Server.get_context` in `src/lib.py` was removed.\n\nSee [the guide](./gone-guide.md).\n",
    );
    write(
        d,
        "docs/templates.md",
        "# Templates\n\n| `{+path}` | `docs/intro.md` |\n|---|---|\n\nThe intro is `docs/start.md`.\n",
    );
    write(
        d,
        "examples/README.md",
        "# Examples\n\nSee `src/lib.py` and `error_handling`; call `vanished_story()` from `src/lib.py`.\n",
    );
    commit(d, "docs");
    let s = scan(d);
    assert_eq!(
        sigs(&s, "apps/web/src/dev/README.md"),
        [pair("missing-path", "src/server.ts")]
    );
    assert!(sigs(&s, "docs/ja/tools.md").is_empty());
    assert_eq!(
        sigs(&s, "docs/tools.md"),
        [pair("missing-path", "ref/tool.md")]
    );
    assert!(sigs(&s, "docs/whats-new.md").is_empty());
    assert!(sigs(&s, "docs/migration.md").is_empty());
    assert_eq!(
        sigs(&s, "docs/migration/v2.md"),
        [pair("missing-path", "./gone-guide.md")]
    );
    assert_eq!(
        sigs(&s, "docs/templates.md"),
        [pair("missing-path", "docs/start.md")]
    );
    assert_eq!(
        sigs(&s, "examples/README.md"),
        [pair("missing-symbol", "vanished_story")]
    );
}

/// A third held-out set: git renamed the root's `src/index.ts` into one package years ago, and a
/// page about another package's `src/index.ts` must not be pointed there; a package's README
/// tells its users what to write in their project (`./src/middleware.ts`), whatever the
/// package's own file became. `--apply` changes neither; a plain rename is still fixed.
#[test]
fn each_packages_files_and_the_users_project_survive_old_renames() {
    let r = repo();
    let d = &r.root;
    write(d, "src/index.ts", "export const root = 1;\n");
    write(d, "packages/kit/package.json", "{}\n");
    write(
        d,
        "packages/kit/src/middleware.ts",
        "export const mw = 1;\n",
    );
    write(d, "tools/old-name.sh", "#!/bin/sh\necho x\n");
    for p in ["a", "b", "c"] {
        write(d, &format!("packages/{p}/src/index.ts"), "export {};\n");
    }
    commit(d, "code");
    std::fs::create_dir_all(d.join("packages/replay/src")).unwrap();
    std::fs::create_dir_all(d.join("packages/kit/src/server")).unwrap();
    for (from, to) in [
        ("src/index.ts", "packages/replay/src/index.ts"),
        (
            "packages/kit/src/middleware.ts",
            "packages/kit/src/server/middleware.ts",
        ),
        ("tools/old-name.sh", "tools/new-name.sh"),
    ] {
        git(d, &["mv", from, to]);
    }
    commit(d, "moves");
    let guide =
        "# Node versions\n\nAdd the ABI branch in `src/index.ts`.\n\nRun `tools/old-name.sh`.\n";
    write(d, "docs/node-versions.md", guide);
    let readme = "# kit\n\nSpecify `./src/middleware.ts` in your `app.config.ts`.\n";
    write(d, "packages/kit/README.md", readme);
    commit(d, "docs");
    check_apply(d, &[]);
    assert_eq!(
        read(d, "docs/node-versions.md"),
        guide.replace("tools/old-name.sh", "tools/new-name.sh")
    );
    assert_eq!(read(d, "packages/kit/README.md"), readme);
}

/// A described file that cannot be read as text now (here it gained a byte that is not
/// UTF-8) is no evidence of drift: read as empty, every name it held would look gone.
#[test]
fn an_unreadable_described_file_is_no_evidence() {
    let r = repo();
    let d = &r.root;
    write(d, "src/cfg.rs", "pub fn legacy_option() {}\n");
    write(
        d,
        "docs/config.md",
        "# Config\n\nThe [config](../src/cfg.rs) is read at start.\n\nIt calls `legacy_option` first.\n",
    );
    commit(d, "docs");
    for i in 1..=3 {
        let mut bytes = format!("pub fn legacy_option() {{}} // {i}\n").into_bytes();
        bytes.push(0xff);
        std::fs::write(d.join("src/cfg.rs"), bytes).unwrap();
        commit(d, &format!("change {i}"));
    }
    let s = scan(d);
    assert!(
        !sigs(&s, "docs/config.md").iter().any(|(k, _)| k == "drift"),
        "{:?}",
        sigs(&s, "docs/config.md")
    );
}

/// A file split into several (`acpClient.ts` into `acpSession.ts` and others, which git scores
/// a 62% rename) is not the file the text named: the new name is reported for the model to
/// weigh, and `--apply` does not write it. A rename git scores high (a move with its imports
/// fixed) is still written.
#[test]
fn a_file_split_up_is_no_rename_to_write() {
    let r = repo();
    let d = &r.root;
    let body = |tag: &str, n: usize| -> String {
        (0..n)
            .map(|i| format!("export function {tag}Step{i}(input: number): number {{ return input * {i} + 7; }}\n"))
            .collect()
    };
    write(d, "src/acp/client.ts", &body("client", 40));
    write(d, "src/util/format.ts", &body("format", 40));
    commit(d, "sources");
    // The split: 25 of the 40 lines stay in the renamed file, the rest go to new files.
    git(d, &["mv", "src/acp/client.ts", "src/acp/session.ts"]);
    let kept: String = body("client", 40)
        .lines()
        .take(25)
        .map(|l| format!("{l}\n"))
        .collect();
    write(
        d,
        "src/acp/session.ts",
        &format!("{kept}{}", body("session", 10)),
    );
    write(d, "src/acp/dispatcher.ts", &body("dispatch", 20));
    write(d, "src/acp/manager.ts", &body("manager", 20));
    // The move: every line kept, one import line added.
    std::fs::create_dir_all(d.join("src/text")).unwrap();
    git(d, &["mv", "src/util/format.ts", "src/text/format.ts"]);
    write(
        d,
        "src/text/format.ts",
        &format!("import {{ x }} from './x';\n{}", body("format", 40)),
    );
    commit(d, "split and move");
    let doc = "# ACP\n\nThe core of the implementation is `src/acp/client.ts`.\n\n\
               Output is formatted by `src/util/format.ts`.\n";
    write(d, "docs/acp.md", doc);
    commit(d, "docs");
    let s = scan(d);
    let renamed = common::fixture::renames(&s, "docs/acp.md");
    assert_eq!(
        renamed,
        [
            ("src/acp/client.ts".into(), "src/acp/session.ts".into()),
            ("src/util/format.ts".into(), "src/text/format.ts".into()),
        ]
    );
    check_apply(d, &[]);
    let text = read(d, "docs/acp.md");
    assert!(text.contains("is `src/acp/client.ts`."), "{text}");
    assert!(text.contains("by `src/text/format.ts`."), "{text}");
}

/// A versioned Mintlify site's `docs.json` lists every version's navigation and outgrows the
/// document cap (2 MB); its redirects still serve routes (`/en/:slug*` to the current
/// version's folder). A route no redirect serves is still reported.
#[test]
fn redirects_of_a_large_site_configuration_serve_routes() {
    let r = repo();
    let d = &r.root;
    let pages: Vec<String> = (0..120_000)
        .map(|i| format!("\"v1.0.{}/en/page-{i}\"", i % 40))
        .collect();
    let config = format!(
        "{{\"name\": \"x\", \"navigation\": {{\"versions\": [{{\"version\": \"v1\", \"pages\": [{}]}}]}}, \
         \"redirects\": [{{\"source\": \"/en/:slug*\", \"destination\": \"/v1.15.17/en/:slug*\"}}]}}",
        pages.join(", ")
    );
    assert!(config.len() > 2 * 1024 * 1024);
    write(d, "docs/docs.json", &config);
    write(d, "docs/v1.15.17/en/installation.mdx", "# Installation\n");
    write(
        d,
        "docs/edge/en/quickstart.mdx",
        "# Quickstart\n\nFirst [install](/en/installation), then read [the gone page](/en/removed-page).\n",
    );
    commit(d, "docs");
    let s = scan(d);
    assert_eq!(
        sigs(&s, "docs/edge/en/quickstart.mdx"),
        [pair("missing-path", "/en/removed-page")]
    );
}

/// A catalogue of prompts shipped to other projects (`components/commands/`, `agents/`,
/// `skills/` under no dot-folder) names the user's files: `@vitest.config.js (if exists)`, the
/// `docs/adr/` an agent writes to. A skill's own `scripts/` file that is missing, and the
/// repository's own command's import, are still reported. A copy of another site's index
/// (`/basics/chat-templates.md`, routes into folders this repository never had) names that
/// site's pages; a rooted link into a folder this repository has is still checked, and so is
/// one such link alone in a document (`/autogen/protos`, written with the repository's name).
#[test]
fn a_prompt_catalogue_names_the_users_files() {
    let r = repo();
    let d = &r.root;
    write(
        d,
        "components/commands/test/api-tester.md",
        "---\nallowed-tools: Read, Bash\nargument-hint: [endpoint]\n---\n\n# API tester\n\n\
         Config: @vitest.config.js (if exists) and @src/setup/env.ts\n",
    );
    write(
        d,
        "components/agents/adr-writer.md",
        "---\nname: adr-writer\ndescription: Writes ADRs\ntools: Read, Write\n---\n\n\
         If `docs/adr/` exists, add the record there.\n",
    );
    write(
        d,
        "components/skills/monitor/SKILL.md",
        "---\nname: monitor\ndescription: Monitoring\n---\n\n# Monitor\n\n\
         Run `scripts/validate.sh`, then `scripts/check.sh`.\n",
    );
    write(
        d,
        "components/skills/monitor/scripts/check.sh",
        "#!/bin/sh\n",
    );
    write(
        d,
        ".claude/commands/release.md",
        "---\nallowed-tools: Bash\n---\n\nRead @docs/RELEASING.md first.\n",
    );
    write(
        d,
        "components/skills/monitor/references/llms.md",
        "# Index\n\n- [Chat templates](/basics/chat-templates.md)\n- [Install](/get-started/install.md)\n\
         - [Models](/models/tutorials/run.md)\n- [Guide](/components/guide.md)\n",
    );
    write(
        d,
        "components/README.md",
        "# Components\n\nThe protos are in [autogen/protos](/autogen/protos).\n",
    );
    commit(d, "catalogue");
    let s = scan(d);
    assert!(sigs(&s, "components/commands/test/api-tester.md").is_empty());
    assert!(sigs(&s, "components/agents/adr-writer.md").is_empty());
    assert_eq!(
        sigs(&s, "components/skills/monitor/SKILL.md"),
        [pair("missing-path", "scripts/validate.sh")]
    );
    assert_eq!(
        sigs(&s, ".claude/commands/release.md"),
        [pair("missing-path", "docs/RELEASING.md")]
    );
    assert_eq!(
        sigs(&s, "components/skills/monitor/references/llms.md"),
        [pair("missing-path", "/components/guide.md")]
    );
    assert_eq!(
        sigs(&s, "components/README.md"),
        [pair("missing-path", "/autogen/protos")]
    );
}

/// A qualified name whose module is a language's or a library's (`std::unique_lock`,
/// `modal.Image.from_registry`) is not this code's, even where the source uses `std` and
/// defines an `Image`. A member gone from a module of this tree (`store::evict`) is reported.
#[test]
fn a_library_module_is_not_this_code() {
    let r = repo();
    let d = &r.root;
    write(
        d,
        "src/store/cache.cpp",
        "#include <mutex>\nnamespace store {\nstd::mutex m;\nvoid keep() {}\n}\n",
    );
    write(
        d,
        "src/image.py",
        "class Image:\n    def load(self):\n        pass\n",
    );
    write(
        d,
        "docs/design.md",
        "# Design\n\nSee `src/store/cache.cpp`: guard with `std::unique_lock`; call `store::evict`.\n\n\
         Images come from `modal.Image.from_registry` and `src/image.py`.\n",
    );
    commit(d, "code");
    let s = scan(d);
    assert_eq!(
        sigs(&s, "docs/design.md"),
        [pair("missing-symbol", "store::evict")]
    );
}

/// Test data (an mdtest suite, fixtures) records expectations: its TODOs are what the checker
/// does today, not unfinished writing, and `--apply` never edits it; its broken links are still
/// reported. A living document's TODO and a renamed path in a living guide still are.
#[test]
fn test_data_is_not_documentation_to_finish() {
    let r = repo();
    let d = &r.root;
    write(d, "src/old_name.py", "def f():\n    pass\n");
    commit(d, "code");
    git(d, &["mv", "src/old_name.py", "src/new_name.py"]);
    commit(d, "rename");
    write(
        d,
        "crates/checker/resources/mdtest/narrow.md",
        "# Narrowing\n\nTODO: this should narrow to `int`.\n\n```py\nreveal_type(x)  # revealed: object\n```\n\n\
         See [methods](./call/methods.md) and `src/old_name.py`.\n",
    );
    write(
        d,
        "docs/guide.md",
        "# Guide\n\nTODO: write the install section.\n\nThe entry is `src/old_name.py`.\n",
    );
    commit(d, "docs");
    let s = scan(d);
    let mut got = sigs(&s, "crates/checker/resources/mdtest/narrow.md");
    got.sort();
    assert_eq!(
        got,
        [
            pair("missing-path", "./call/methods.md"),
            pair("missing-path", "src/old_name.py"),
        ]
    );
    let mut got = sigs(&s, "docs/guide.md");
    got.sort();
    assert_eq!(
        got,
        [
            pair("missing-path", "src/old_name.py"),
            pair("provisional-marker", ""),
        ]
    );
    check_apply(d, &[]);
    assert!(read(d, "crates/checker/resources/mdtest/narrow.md").contains("`src/old_name.py`"));
    assert!(read(d, "docs/guide.md").contains("`src/new_name.py`"));
}

/// A session summary kept under a test folder's data (`tests/data/sessions/run/<date>-summary.md`,
/// beside the metrics file a test reads) and a test's snapshot of a rendered prompt are test
/// data: never swept, never marked. Six old session logs of the repository's own are still
/// swept down to the five newest.
#[test]
fn session_logs_in_test_data_are_not_swept() {
    let r = repo();
    let d = &r.root;
    let summary = "# Swarm Session Summary\nDate: 2025-07-05T01:28:45.294Z\n\n## Operations\n\nTODO: nothing ran.\n";
    write(
        d,
        "tests/data/sessions/run/2025-07-05T01-28-45.294Z-summary.md",
        summary,
    );
    write(
        d,
        "tests/data/sessions/run/2025-07-05T01-28-45.294Z-metrics.json",
        "{}\n",
    );
    write(
        d,
        "libs/agent/tests/unit/snapshots/system_prompt.md",
        "You are an agent.\n\nTODO: the tool list below is rendered by the test.\n",
    );
    for day in 1..=6 {
        write(
            d,
            &format!(".claude/sessions/2025-07-0{day}-work.md"),
            &format!("# Session {day}\n\nWorked on the parser.\n"),
        );
    }
    git(d, &["config", "user.name", "Test"]);
    git(d, &["config", "user.email", "test@example.com"]);
    common::cli::commit_old(d);
    let s = scan(d);
    let none: Vec<(String, String)> = Vec::new();
    assert_eq!(
        sigs(
            &s,
            "tests/data/sessions/run/2025-07-05T01-28-45.294Z-summary.md"
        ),
        none
    );
    assert_eq!(
        sigs(&s, "libs/agent/tests/unit/snapshots/system_prompt.md"),
        none
    );
    check_apply(d, &[]);
    assert_eq!(
        read(
            d,
            "tests/data/sessions/run/2025-07-05T01-28-45.294Z-summary.md"
        ),
        summary
    );
    assert!(!d.join(".claude/sessions/2025-07-01-work.md").exists());
    assert!(d.join(".claude/sessions/2025-07-02-work.md").exists());
}

/// What a tool or a skill ships (`assets/AGENTS.md`, a `spec-template.md`, a named skill set's
/// `bmm-skills/x/SKILL.md`) is written for other projects: a template's `status: draft` and a
/// compatibility shim's "Deprecated: use x" are its content, and the repository's installed
/// copy of a shipped template (`.taskmaster/CLAUDE.md`) repeats it by design. Two living
/// documents repeating each other are still reported.
#[test]
fn shipped_assets_templates_and_their_installed_copies() {
    let r = repo();
    let d = &r.root;
    let block = "## Working with tasks\n\n1. List the tasks with the CLI and pick the next one that has no open dependency.\n\
                 2. Expand it into subtasks, implement them one by one, and log what you learned in each.\n\
                 3. Mark it done only when the tests pass and the change is committed with its task id.\n";
    write(d, "assets/AGENTS.md", &format!("# Task Master\n\n{block}"));
    write(
        d,
        ".taskmaster/CLAUDE.md",
        &format!("# Task Master\n\n{block}"),
    );
    write(
        d,
        "src/bmm-skills/ship/spec-template.md",
        "---\nstatus: draft\n---\n\n# Spec: title\n\nIntent goes here.\n",
    );
    write(
        d,
        "src/bmm-skills/v6-shims/create-prd/SKILL.md",
        "---\nname: create-prd\ndescription: Old name\n---\n\n# Create PRD\n\nDeprecated: use `bmad-prd` instead.\n",
    );
    let other = "## Release steps\n\n1. Bump the version in the manifest and in the lock file, then run the full test suite locally.\n\
                 2. Tag the commit with the version, push the tag, and wait for the release workflow to publish.\n";
    write(d, "AGENTS.md", &format!("# Agents\n\n{other}"));
    write(d, "cli/AGENTS.md", &format!("# CLI agents\n\n{other}"));
    commit(d, "docs");
    let s = scan(d);
    for quiet in [
        "assets/AGENTS.md",
        ".taskmaster/CLAUDE.md",
        "src/bmm-skills/ship/spec-template.md",
        "src/bmm-skills/v6-shims/create-prd/SKILL.md",
    ] {
        assert!(sigs(&s, quiet).is_empty(), "{quiet}: {:?}", sigs(&s, quiet));
    }
    let both: Vec<_> = ["AGENTS.md", "cli/AGENTS.md"]
        .iter()
        .flat_map(|p| sigs(&s, p))
        .collect();
    assert!(both.iter().any(|(k, _)| k == "duplicate-block"), "{both:?}");
}

/// A memory file of 200 lines or fewer is within Claude Code's documented target, however
/// dense (a 196-line `AGENTS.md` of tables): no `oversize`; a 240-line one over the token
/// threshold is. An MkDocs attribute-list id (`### `preview` {: #lint_preview }`) is an
/// anchor, and a migration table's "Old:" path records the old location.
#[test]
fn memory_files_by_length_attribute_ids_and_old_locations() {
    let r = repo();
    let d = &r.root;
    let dense = |n: usize| -> String {
        (0..n)
            .map(|i| format!("| `cmd-{i}` | runs step {i} of the release with the flags --verbose --dry-run and --color |\n"))
            .collect()
    };
    write(d, "AGENTS.md", &format!("# Agents\n\n{}", dense(190)));
    write(d, "CLAUDE.md", &format!("# Claude\n\n{}", dense(240)));
    write(
        d,
        "docs/settings.md",
        "# Settings\n\n### `preview` {: #lint_preview }\n\nEnables preview rules.\n",
    );
    write(
        d,
        "docs/migration.md",
        "# Migration\n\nSee [preview](settings.md#lint_preview) and [gone](settings.md#format_preview).\n\n\
         - **Old:** `tasks/tasks.json`\n- **New:** `.taskmaster/tasks/tasks.json`\n",
    );
    commit(d, "docs");
    let s = scan(d);
    assert!(
        sigs(&s, "AGENTS.md").is_empty(),
        "{:?}",
        sigs(&s, "AGENTS.md")
    );
    assert_eq!(sigs(&s, "CLAUDE.md"), [pair("oversize", "")]);
    assert_eq!(
        sigs(&s, "docs/migration.md"),
        [pair("missing-anchor", "settings.md#format_preview")]
    );
}

/// A `Resolved:` line under a heading that names questions or decisions answers them (a
/// slice spec's "## Open Questions" then "_Resolved:_ (1) both lowering paths in scope; ..."):
/// the answers are the spec's content, not an incident's story, so no `resolved-narrative`
/// (prisma, judged false). The same line under an investigation's heading still draws it.
#[test]
fn an_answered_question_is_no_resolved_narrative() {
    let r = repo();
    let d = &r.root;
    let body = investigation();
    write(
        d,
        "projects/parsers/spec.md",
        &format!(
            "# Slice spec\n\n## Design\n\n{body}\n\n## Open Questions\n\n_Resolved:_ (1) both lowering paths in scope; (2) shape errors share one code.\n\n_Open:_\n\n1. Do the membership checks move?\n"
        ),
    );
    write(
        d,
        "projects/parsers/timeouts.md",
        &format!("# Timeouts\n\n## Investigation\n\nResolved: the pool was too small.\n\n{body}\n"),
    );
    commit(d, "docs");
    let s = scan(d);
    assert!(sigs_kind(&s, "projects/parsers/spec.md", "resolved-narrative").is_empty());
    assert_eq!(
        sigs_kind(&s, "projects/parsers/timeouts.md", "resolved-narrative"),
        [pair("resolved-narrative", "")]
    );
}

/// A write-up that says it is resolved names the code as it was when the incident happened:
/// `src/public/app.js`, which a later rewrite deleted, is its record, not a broken claim
/// (claude-code-spec-workflow's fixed bugs' analyses, judged false). A guide naming the same
/// deleted file still draws `missing-path`.
#[test]
fn a_resolved_write_up_records_the_files_of_its_time() {
    let r = repo();
    let d = &r.root;
    write(d, "src/public/app.js", "export function sortSpecs() {}\n");
    commit(d, "code");
    let body = investigation();
    write(
        d,
        "bugs/sorting/analysis.md",
        &format!("# Bug analysis: sorting\n\n**Status**: Resolved\n\nThe sort in `src/public/app.js` compared names.\n\n{body}\n"),
    );
    write(
        d,
        "docs/guide.md",
        "# Guide\n\nThe dashboard sorts specs in `src/public/app.js`.\n",
    );
    commit(d, "docs");
    git(d, &["rm", "-q", "src/public/app.js"]);
    write(
        d,
        "src/public/main.ts",
        "export const sortSpecs = () => {};\n",
    );
    commit(d, "rewrite in TypeScript");
    let s = scan(d);
    assert_eq!(
        sigs_kind(&s, "bugs/sorting/analysis.md", "resolved-narrative"),
        [pair("resolved-narrative", "")]
    );
    assert!(sigs_kind(&s, "bugs/sorting/analysis.md", "missing-path").is_empty());
    assert_eq!(
        sigs_kind(&s, "docs/guide.md", "missing-path"),
        [pair("missing-path", "src/public/app.js")]
    );
}

/// A plan the code cites as its design (`// See plans/04-installer.md for the error taxonomy`,
/// claude-mem's and dyad's plans, deer-flow's authz docstring: judged false) is the code's
/// design record: no lifecycle question, as for a plan an entry document names. The same kind
/// of plan that no program names is still asked about.
#[test]
fn a_plan_the_code_cites_is_its_design_record() {
    let r = repo();
    let d = &r.root;
    for p in [
        "plans/04-installer.md",
        "plans/05-telemetry.md",
        "docs/plans/06-cache.md",
        "docs/plans/07-sync.md",
    ] {
        write(
            d,
            p,
            &format!("# Plan {p}\n\n## Steps\n\n1. Change the code.\n"),
        );
    }
    write(
        d,
        "src/install.ts",
        "// See plans/04-installer.md for the error taxonomy.\nexport function install() {}\n",
    );
    // A nested plan, cited from Python by its whole path; a Markdown file naming the other
    // nested plan is no program.
    write(
        d,
        "tools/cache.py",
        "# Design: docs/plans/06-cache.md (phase 2).\ndef warm():\n    pass\n",
    );
    write(
        d,
        "notes/index.md",
        "# Notes\n\nSee docs/plans/07-sync.md.\n",
    );
    commit(d, "plans");
    let s = scan(d);
    assert_eq!(
        docs_with_kind(&s, "lifecycle"),
        ["docs/plans/07-sync.md", "plans/05-telemetry.md"],
        "{s:#}"
    );
}

/// A page people read on demand over the on-demand threshold (a README, a protocol spec, a
/// generated catalogue: inngest's `docs/SDK_SPEC.md`, awesome-copilot's `docs/README.agents.md`)
/// is long for its readers: no `oversize`. A file an agent loads whole when it is used (a
/// skill's scraped API reference, a command, a Cursor rule without `alwaysApply`, a nested
/// `CLAUDE.md`) still draws it (claude-code-templates' skill references, judged true).
#[test]
fn only_a_file_an_agent_loads_on_use_is_oversized_on_demand() {
    let r = repo();
    let d = &r.root;
    let long: String = (0..3000)
        .map(|i| format!("Paragraph {i} explains the option number {i} with its default value.\n"))
        .collect();
    // A broken link shortlists each page: on-demand `oversize` rides along on it.
    let page = format!("# Reference\n\nSee [the setup](setup-gone.md).\n\n{long}");
    let people = ["README.md", "docs/SDK_SPEC.md", "docs/README.agents.md"];
    let agents = [
        "tools/skills/axolotl/references/api.md",
        ".claude/commands/release.md",
        ".cursor/rules/db.mdc",
        "packages/api/CLAUDE.md",
    ];
    for p in people.iter().chain(&agents) {
        write(d, p, &page);
    }
    commit(d, "docs");
    let s = scan(d);
    for p in people {
        assert_eq!(sigs(&s, p), [pair("missing-path", "setup-gone.md")], "{p}");
    }
    for p in agents {
        assert_eq!(
            sigs(&s, p),
            [pair("missing-path", "setup-gone.md"), pair("oversize", "")],
            "{p}"
        );
    }
}

/// A translation read on demand (`README_KO.md`, a page under `docs/ja-JP/`) is as long as the
/// page it translates: no `oversize` (zod's archived Korean reference, a Japanese essay). The
/// English source over the threshold still draws it.
#[test]
fn a_translation_read_on_demand_is_not_oversized() {
    let r = repo();
    let d = &r.root;
    let long: String = (0..3000)
        .map(|i| {
            format!("Paragraph {i} explains the parser option number {i} with its default value.\n")
        })
        .collect();
    // A broken link shortlists each page: on-demand `oversize` rides along on it.
    let page = format!("# Reference\n\nSee [the setup](setup-gone.md).\n\n{long}");
    // In a skill, where an on-demand page's size counts (see the test below).
    for p in [
        ".claude/skills/parser/README.md",
        ".claude/skills/parser/README_KO.md",
        ".claude/skills/parser/ja-JP/the-guide.md",
    ] {
        write(d, p, &page);
    }
    commit(d, "docs");
    let s = scan(d);
    assert_eq!(
        sigs(&s, ".claude/skills/parser/README.md"),
        [pair("missing-path", "setup-gone.md"), pair("oversize", "")]
    );
    for translated in [
        ".claude/skills/parser/README_KO.md",
        ".claude/skills/parser/ja-JP/the-guide.md",
    ] {
        assert_eq!(
            sigs(&s, translated),
            [pair("missing-path", "setup-gone.md")],
            "{translated}"
        );
    }
}

/// Docusaurus resolves a file link written with neither `./` nor `../` from the page's folder,
/// then from the docs content root, then from the site's folder (convex's
/// `understanding/overview.mdx` linking `scheduling/cron-jobs.mdx`). A file no root holds is
/// still reported.
#[test]
fn a_docusaurus_file_link_resolves_from_the_docs_root() {
    let r = repo();
    let d = &r.root;
    write(
        d,
        "npm-packages/docs/docusaurus.config.ts",
        "export default {};\n",
    );
    write(
        d,
        "npm-packages/docs/docs/scheduling/cron-jobs.mdx",
        "# Cron jobs\n",
    );
    write(
        d,
        "npm-packages/docs/docs/understanding/overview.mdx",
        "# Overview\n\nSee [cron jobs](scheduling/cron-jobs.mdx) and [gone](scheduling/timers.mdx).\n",
    );
    commit(d, "docs");
    let s = scan(d);
    assert_eq!(
        refs_kind(
            &s,
            "npm-packages/docs/docs/understanding/overview.mdx",
            "missing-path"
        ),
        ["scheduling/timers.mdx"]
    );
}

/// A Starlight site whose content folder is a symbolic link to the repository's `docs/`
/// (`website/src/content/docs -> ../../../docs`) serves those pages: their routes resolve under
/// `docs/` and the site's `public/`. A route to no page is still reported, and a content link
/// that leaves the root is never followed.
#[test]
fn a_linked_content_folder_serves_the_site() {
    let r = repo();
    let d = &r.root;
    write(d, "website/astro.config.mjs", "export default {};\n");
    write(d, "website/public/diagrams/build.png", "png\n");
    write(d, "docs/guide/roadmap.mdx", "# Roadmap\n");
    write(
        d,
        "docs/guide/build.md",
        "# Build\n\n![flow](/diagrams/build.png)\n\nNext: [roadmap](/guide/roadmap/), [gone](/guide/removed/).\n",
    );
    std::fs::create_dir_all(d.join("website/src/content")).unwrap();
    std::os::unix::fs::symlink("../../../docs", d.join("website/src/content/docs")).unwrap();
    // A second site whose content link leaves the root: its pages are not found through it.
    let outside = r.root.parent().unwrap().join("elsewhere");
    std::fs::create_dir_all(outside.join("guide")).unwrap();
    std::fs::write(outside.join("guide/secret.md"), "# Secret\n").unwrap();
    write(d, "site2/astro.config.mjs", "export default {};\n");
    write(
        d,
        "site2/src/pages/index.md",
        "# Home\n\n[secret](/guide/secret)\n",
    );
    std::fs::create_dir_all(d.join("site2/src/content")).unwrap();
    std::os::unix::fs::symlink(&outside, d.join("site2/src/content/docs")).unwrap();
    commit(d, "site");
    let s = scan(d);
    assert_eq!(
        sigs(&s, "docs/guide/build.md"),
        [pair("missing-path", "/guide/removed/")]
    );
    assert_eq!(
        sigs(&s, "site2/src/pages/index.md"),
        [pair("missing-path", "/guide/secret")]
    );
}

/// A Starlight site served under a base path (`base: 'agents-js'`) links its pages with it. A
/// chat transcript kept as an example records the names of its day: its renamed paths are not
/// rewritten, while a guide's are.
#[test]
fn a_site_base_path_and_a_kept_transcript() {
    let r = repo();
    let d = &r.root;
    write(
        d,
        "docs/astro.config.mjs",
        "export default defineConfig({\n  base: 'agents-js',\n  integrations: [starlight({ editLink: { baseUrl: 'https://github.com/o/r/edit/main/docs/' } })],\n});\n",
    );
    write(d, "docs/src/content/docs/guides/tools.mdx", "# Tools\n");
    write(
        d,
        "docs/src/content/docs/guides/agents.mdx",
        "# Agents\n\nSee [tools](/agents-js/guides/tools) and [gone](/agents-js/guides/removed).\n",
    );
    write(d, "app/getinput.py", "def get_input():\n    pass\n");
    commit(d, "site");
    git(d, &["mv", "app/getinput.py", "app/io.py"]);
    commit(d, "rename");
    write(
        d,
        "website/examples/complex-change.md",
        "# A complex change\n\nThis is a chat transcript of a code change.\n\n> $ tool app/getinput.py\n\n\
         Here's how to modify `app/getinput.py`:\n",
    );
    write(
        d,
        "docs/dev.md",
        "# Dev\n\nInput is read in `app/getinput.py`.\n",
    );
    commit(d, "docs");
    let s = scan(d);
    assert_eq!(
        sigs(&s, "docs/src/content/docs/guides/agents.mdx"),
        [pair("missing-path", "/agents-js/guides/removed")]
    );
    assert!(sigs(&s, "website/examples/complex-change.md").is_empty());
    check_apply(d, &[]);
    assert!(read(d, "website/examples/complex-change.md").contains("modify `app/getinput.py`"));
    assert!(read(d, "docs/dev.md").contains("`app/io.py`"));
}

/// A Starlight site serves an untranslated page in its default language (`/pt-br/guides/pages`
/// shows `guides/pages`), and pages a plugin generates at build time into a folder git ignores
/// (`openai/agents/classes/runstate`, an API reference) exist on the built site. A route into
/// neither is still reported.
#[test]
fn locale_fallbacks_and_generated_site_pages() {
    let r = repo();
    let d = &r.root;
    write(d, "docs/astro.config.mjs", "export default {};\n");
    write(d, "docs/.gitignore", "src/content/docs/openai/\n");
    write(d, "docs/src/content/docs/guides/pages.mdx", "# Pages\n");
    write(
        d,
        "docs/src/content/docs/pt-br/guides/sidebar.mdx",
        "# Barra lateral\n\nVeja [páginas](/pt-br/guides/pages/), [RunState](/openai/agents/classes/runstate) \
         e [sumiu](/pt-br/guides/removed/).\n",
    );
    commit(d, "site");
    let s = scan(d);
    assert_eq!(
        sigs(&s, "docs/src/content/docs/pt-br/guides/sidebar.mdx"),
        [pair("missing-path", "/pt-br/guides/removed/")]
    );
}

/// A link inside an MDX comment (`{/* [license](../LICENSE) */}`) is never rendered: no claim.
/// The same link outside the comment is.
#[test]
fn links_in_mdx_comments_are_not_claims() {
    let r = repo();
    let d = &r.root;
    write(
        d,
        "apps/docs/licensing.mdx",
        "# Licensing\n\n{/* See the [license](../LICENSE) for the full text.\n   It moved. */}\n\nRead [the terms](../TERMS.md).\n",
    );
    commit(d, "docs");
    let s = scan(d);
    assert_eq!(
        sigs(&s, "apps/docs/licensing.mdx"),
        [pair("missing-path", "../TERMS.md")]
    );
}

/// A path in a plan's "Target Location" column, the outputs a list's lead-in says the tests
/// generate, a "✅ Right:" example, a location marked "(auto-generated)", a step that writes a
/// scratch file, a denial ("not a production `x/` tree"), a `package_name` placeholder and a
/// package-relative shorthand written after the layout moved are not claims. A plan's current
/// location, an ordinary list item, a step that reads a deleted file and a path renamed after
/// the document was written are still reported (and the rename still written).
#[test]
fn plans_outputs_examples_denials_and_shorthand() {
    let r = repo();
    let d = &r.root;
    write(d, "plugins/x/manifest.json", "{}\n");
    write(d, "src/main.py", "print()\n");
    // The folder the reorganisation moves, which history knew.
    write(d, "src/old_tests/test_a.py", "def test():\n    pass\n");
    write(d, "scripts/build.sh", "echo\n");
    write(d, "scripts/tests/test_build.py", "def test():\n    pass\n");
    write(d, "docs/memory/README.md", "# Memory\n");
    write(d, "tests/migration/local/run.js", "run()\n");
    write(
        d,
        "libs/agents/middleware/files.py",
        "def read():\n    return 1\n",
    );
    write(d, "libs/tools/core/run.py", "def run():\n    return 2\n");
    write(d, "prisma/schema.prisma", "model User {\n  id Int @id\n}\n");
    write(d, ".claude/skills/CHANGES.md", "# Changes\n");
    write(d, ".claude/skills/release-notes.md", "# Notes\n");
    commit(d, "code");
    git(d, &["rm", "-q", "-r", "src/old_tests"]);
    write(
        d,
        "libs/tools/README.md",
        "# Tools\n\nThe runner is `core/run.py`.\n",
    );
    commit(d, "tools readme");
    git(
        d,
        &[
            "rm",
            "-q",
            ".claude/skills/CHANGES.md",
            ".claude/skills/release-notes.md",
        ],
    );
    std::fs::create_dir_all(d.join("libs/agents/agents")).unwrap();
    std::fs::create_dir_all(d.join("libs/tools/tools")).unwrap();
    git(
        d,
        &[
            "mv",
            "libs/agents/middleware",
            "libs/agents/agents/middleware",
        ],
    );
    git(d, &["mv", "libs/tools/core", "libs/tools/tools/core"]);
    std::fs::create_dir_all(d.join("packages/database")).unwrap();
    git(d, &["mv", "prisma", "packages/database/prisma"]);
    commit(d, "package layout");
    write(
        d,
        "docs/migrations/supabase.mdx",
        "# Supabase\n\n## Update the database package\n\nUpdate the `prisma/schema.prisma` file.\n",
    );
    write(
        d,
        "libs/agents/THREAT_MODEL.md",
        "# Threats\n\nReads go through `middleware/files.py`.\n",
    );
    write(
        d,
        "docs/reorg.md",
        "# Reorg\n\n| Part | Current Location | Target Location |\n|---|---|---|\n\
         | tests | `src/old_tests/` | `plugins/x/tests/` |\n",
    );
    write(
        d,
        "tests/migration/README.md",
        "# Migration tests\n\nEach test generates a JSON results file:\n- `local/local-results.json`\n\n\
         The suites:\n- `local/gone.js`\n",
    );
    write(
        d,
        "docs/rules.md",
        "# Rules\n\n✅ **Right**: `tests/auth.test.js`, `scripts/deploy.sh`\n\n\
         Release with `scripts/release.sh`.\n\n\
         **Location**: `docs/memory/contract.yaml` (auto-generated)\n\n\
         | `scripts/tests/` | not a production `scripts/workflows/` tree |\n\n\
         Use the src layout: `src/package_name/`.\n",
    );
    write(
        d,
        ".claude/skills/release.md",
        "# Release\n\n## 1. Read `CHANGES.md`\n\n## 2. Write `release-notes.md`\n",
    );
    commit(d, "docs");
    let s = scan(d);
    assert_eq!(
        sigs(&s, "docs/reorg.md"),
        [pair("missing-path", "src/old_tests/")]
    );
    assert_eq!(
        sigs(&s, "tests/migration/README.md"),
        [pair("missing-path", "local/gone.js")]
    );
    assert_eq!(
        sigs(&s, "docs/rules.md"),
        [pair("missing-path", "scripts/release.sh")]
    );
    assert_eq!(
        sigs(&s, ".claude/skills/release.md"),
        [pair("missing-path", "CHANGES.md")]
    );
    let none: Vec<(String, String)> = Vec::new();
    assert_eq!(sigs(&s, "libs/agents/THREAT_MODEL.md"), none);
    assert_eq!(
        sigs(&s, "libs/tools/README.md"),
        [pair("missing-path", "core/run.py")]
    );
    // Written after the schema moved into its package: reported for the model, not rewritten.
    assert_eq!(
        sigs(&s, "docs/migrations/supabase.mdx"),
        [pair("missing-path", "prisma/schema.prisma")]
    );
    check_apply(d, &[]);
    assert!(read(d, "docs/migrations/supabase.mdx").contains("the `prisma/schema.prisma` file"));
    assert!(read(d, "libs/tools/README.md").contains("`tools/core/run.py`"));
    assert!(read(d, "libs/agents/THREAT_MODEL.md").contains("`middleware/files.py`"));
}

/// A roadmap whose phases each have a status is finished only when every phase is ("⏳
/// Planned" and "🔄 66% Complete" are not); two example projects each carry the block they
/// need to stand alone. A report whose statuses all say done, and the repository's own two
/// agent instruction files repeating a block, are still reported.
#[test]
fn item_statuses_and_standalone_examples() {
    let r = repo();
    let d = &r.root;
    write(
        d,
        "docs/ROADMAP.md",
        "# Roadmap\n\n## Phase 1\n\n**Status**: ✅ Completed\n\n## Phase 2\n\n**Status**: ⏳ Planned\n",
    );
    write(
        d,
        "docs/PROJECT.md",
        "# Project\n\n**Status**: 🔄 66% Complete\n",
    );
    write(
        d,
        "docs/report.md",
        "# Report\n\n**Status**: ✅ COMPLETE\n\n## Findings\n\n**Status**: Implementation complete\n",
    );
    let block = "## Content pillars\n\n1. Explain one idea per post with a worked example a reader can run in a minute.\n\
                 2. Link the primary source for every claim and quote the passage that supports it.\n\
                 3. End with what the reader should try next and where to ask questions about it.\n";
    write(
        d,
        "examples/writer/AGENTS.md",
        &format!("# Writer\n\n{block}"),
    );
    write(
        d,
        "examples/builder/AGENTS.md",
        &format!("# Builder\n\n{block}"),
    );
    // Three copies of one block make a group of three: the guides repeat another block.
    let guide = block
        .replace("post", "change")
        .replace("reader", "reviewer");
    write(d, "AGENTS.md", &format!("# Agents\n\n{guide}"));
    write(d, "cli/AGENTS.md", &format!("# CLI\n\n{guide}"));
    commit(d, "docs");
    let s = scan(d);
    let none: Vec<(String, String)> = Vec::new();
    assert_eq!(sigs(&s, "docs/ROADMAP.md"), none);
    assert_eq!(sigs(&s, "docs/PROJECT.md"), none);
    assert_eq!(sigs(&s, "docs/report.md"), [pair("status-done", "")]);
    let dup = |p: &str| sigs_kind(&s, p, "duplicate-block").len();
    assert_eq!(
        dup("examples/writer/AGENTS.md") + dup("examples/builder/AGENTS.md"),
        0
    );
    assert_eq!(dup("AGENTS.md") + dup("cli/AGENTS.md"), 1);
}

/// A Hugging Face doc-builder site (a `_toctree.yml` beside its pages) links pages by route
/// without extension and into API entries its `[[autodoc]]` lines generate; a heading in
/// Devanagari keeps its virama in the slug; an agent project's prompts (`app/.claude/agents/`)
/// name files from the project's folder; an example's ticked feature list is its content; a
/// path the text expects gone ("skip if still present") is no claim. A route to no page, an
/// anchor into a page without it, a project file that is gone and a finished plan's checklist
/// are still reported.
#[test]
fn doc_builder_sites_agent_projects_and_example_content() {
    let r = repo();
    let d = &r.root;
    write(
        d,
        "docs/source/en/_toctree.yml",
        "- title: Start\n  sections:\n  - local: index\n    title: Intro\n",
    );
    write(
        d,
        "docs/source/en/tutorials/tools.md",
        "# Tools\n\n## Build one\n",
    );
    write(
        d,
        "docs/source/en/reference/agents.md",
        "# Agents\n\n[[autodoc]] CodeAgent\n",
    );
    write(d, "docs/source/en/installation.md", "# Install\n\n## Pip\n");
    write(
        d,
        "docs/source/en/index.md",
        "# Intro\n\nRead [tools](./tutorials/tools) and [the agent](reference/agents#smolagents.CodeAgent).\n\n\
         See [the reference](./reference/index) and [setup](installation#setup).\n",
    );
    write(
        d,
        "docs/hi.md",
        "# हिंदी\n\n[संग्रह](#टूल्स-का-कलेक्शन) and [x](#टूल्स-कलेक्शन-नहीं)\n\n### टूल्स का कलेक्शन\n",
    );
    write(
        d,
        "app/scripts/talent_scorer.py",
        "def score():\n    return 1\n",
    );
    write(
        d,
        "app/.claude/agents/recruiter.md",
        "---\nname: recruiter\ndescription: Scores candidates\n---\n\nRun `scripts/talent_scorer.py`, then `scripts/gone.py`.\n",
    );
    let boxes = "- [x] Navigate to web pages\n- [x] Click on elements\n- [x] Search within pages\n\
                 - [x] Handle pop-ups\n- [x] Extract information\n";
    write(
        d,
        "docs/examples/web_browser.md",
        &format!("# Web browser\n\nThe agent can:\n\n{boxes}"),
    );
    write(
        d,
        "docs/rollout-report.md",
        &format!("# Rollout report\n\n{boxes}"),
    );
    write(d, "cookbook/memory/README.md", "# Memory\n");
    write(
        d,
        "cookbook/TEST_PROMPT.md",
        "# Test prompt\n\n- `memory/surrealdb/` moves to `integrations/` (skip if still present)\n- Run `memory/gone.py`\n",
    );
    commit(d, "docs");
    let s = scan(d);
    let mut got = sigs(&s, "docs/source/en/index.md");
    got.sort();
    assert_eq!(
        got,
        [
            pair("missing-anchor", "installation#setup"),
            pair("missing-path", "./reference/index"),
        ]
    );
    assert_eq!(
        sigs(&s, "docs/hi.md"),
        [pair("missing-anchor", "#टूल्स-कलेक्शन-नहीं")]
    );
    assert_eq!(
        sigs(&s, "app/.claude/agents/recruiter.md"),
        [pair("missing-path", "scripts/gone.py")]
    );
    let none: Vec<(String, String)> = Vec::new();
    assert_eq!(sigs(&s, "docs/examples/web_browser.md"), none);
    assert_eq!(
        sigs(&s, "docs/rollout-report.md"),
        [pair("checklist-complete", "")]
    );
    assert_eq!(
        sigs(&s, "cookbook/TEST_PROMPT.md"),
        [pair("missing-path", "memory/gone.py")]
    );
}

/// GitHub gives a raw HTML heading (`<summary><h3>General <a href="#top">🔝</a></h3>`) an
/// anchor, numbered with the document's other headings (`#general-`, `#general--1`); a
/// third-party notice names its upstream project's files; "will land under `x/`" is a future
/// location. An anchor no heading has, and a guide's missing test file, are still reported.
#[test]
fn html_headings_notices_and_future_locations() {
    let r = repo();
    let d = &r.root;
    write(d, "tests/test_core.py", "def test():\n    pass\n");
    write(d, "packages/shared/src/index.ts", "export {};\n");
    write(
        d,
        "README_CLASSIC.md",
        "# List\n\n- [General](#general-)\n- [General too](#general--1)\n- [Gone](#general--9)\n\n\
         <details open>\n<summary><h3>General <a href=\"#list\">🔝</a></h3></summary>\n\nOne.\n\n</details>\n\n\
         <details open>\n<summary><h3>General <a href=\"#list\">🔝</a></h3></summary>\n\nTwo.\n\n</details>\n",
    );
    write(
        d,
        "ThirdPartyNotices.md",
        "# Notices\n\nFrom the `tests/docx.py` file of dwml we have used the XML fixtures.\n",
    );
    write(
        d,
        "docs/guide.md",
        "# Guide\n\nRun `tests/test_gone.py`.\n\nThe client half will land under\n`packages/shared/src/query-ast/`.\n",
    );
    commit(d, "docs");
    let s = scan(d);
    assert_eq!(
        sigs(&s, "README_CLASSIC.md"),
        [pair("missing-anchor", "#general--9")]
    );
    let none: Vec<(String, String)> = Vec::new();
    assert_eq!(sigs(&s, "ThirdPartyNotices.md"), none);
    assert_eq!(
        sigs(&s, "docs/guide.md"),
        [pair("missing-path", "tests/test_gone.py")]
    );
}

/// A Jupyter Book (MyST) site links to a label a page defines (`(global-config)=` above its
/// heading) by name, as a link or a fragment, from any page; a Go test named by its package
/// (`pkg/github.TestToolsetIcons`) is code, not a path. A link to no label and no page, and a
/// fragment no page defines, are still reported.
#[test]
fn myst_labels_and_qualified_test_names() {
    let r = repo();
    let d = &r.root;
    write(d, "docs/_config.yml", "title: Docs\n");
    write(
        d,
        "docs/02-usage/050_configuration.md",
        "# Configuration\n\n(global-config)=\n## Global configuration\n\nSet it once.\n",
    );
    write(d, "pkg/github/tools.go", "package github\n");
    write(
        d,
        "docs/01-about/index.md",
        "# About\n\nSee [the global config](global-config) and [modes](#global-config).\n\n\
         Also [gone](no-such-label) and [x](../02-usage/050_configuration.md#no-such-heading).\n\n\
         Run `pkg/github.TestToolsetIcons` after editing `pkg/github/gone.go`.\n",
    );
    commit(d, "docs");
    let s = scan(d);
    let mut got = sigs(&s, "docs/01-about/index.md");
    got.sort();
    assert_eq!(
        got,
        [
            pair(
                "missing-anchor",
                "../02-usage/050_configuration.md#no-such-heading"
            ),
            pair("missing-path", "no-such-label"),
            pair("missing-path", "pkg/github/gone.go"),
        ]
    );
}

/// Held-out 10 (context7): Mintlify builds a page per operation of an OpenAPI specification its
/// navigation names, at `/<directory>/<tag>/<summary>`; a link to one is served, a link to an
/// operation the specification lacks is still missing.
#[test]
fn pages_generated_from_an_openapi_specification() {
    let r = repo();
    let d = &r.root;
    write(
        d,
        "docs/docs.json",
        r#"{"navigation": {"groups": [
            {"group": "Guides", "pages": ["api-guide"]},
            {"group": "API Reference", "openapi": "openapi.json"},
            {"group": "Admin", "openapi": {"source": "admin.yaml", "directory": "admin-api"}}]}}"#,
    );
    write(
        d,
        "docs/openapi.json",
        r#"{"openapi": "3.0.0", "paths": {
            "/v2/add/llmstxt": {"post": {"tags": ["Add Library"], "summary": "Add an llms.txt file"}},
            "/v1/refresh": {"post": {"tags": ["Refresh"], "summary": "Refresh a library"}}}}"#,
    );
    write(d, "docs/admin.yaml", "openapi: 3.0.0\npaths: {}\n");
    write(
        d,
        "docs/api-guide.mdx",
        "# API\n\n- [llms.txt](/api-reference/add-library/add-an-llmstxt-file)\n\
         - [refresh](/api-reference/refresh/refresh-a-library)\n\
         - [users](/admin-api/users/list-users)\n\
         - [gone](/api-reference/remove-library/remove-a-library)\n",
    );
    commit(d, "docs");
    let s = scan(d);
    assert_eq!(
        sigs(&s, "docs/api-guide.mdx"),
        [pair(
            "missing-path",
            "/api-reference/remove-library/remove-a-library"
        )]
    );
}

/// Held-out 11 (cloudflare-agents): the commit that moved `docs/state.md` into `docs/agents/`
/// also reworded the style guide's line "Link ... using relative paths (`./state.md`)" and kept
/// the old name: an illustration the author meant, so no rename is written into it (the model
/// still sees the rename). A line the moving commit left alone is rewritten; so is one a later
/// commit copied in from older text (a page migrated into a docs site), and one of a document
/// the moving commit created (claude-task-master: a plan squashed in with the refactor).
#[test]
fn a_line_the_moving_commit_wrote_keeps_its_name() {
    let r = repo();
    let d = &r.root;
    let state = "# State\n\nAgents keep state in a SQLite table that survives restarts.\n";
    write(d, "docs/state.md", state);
    write(
        d,
        "docs/AGENTS.md",
        "# Writing docs\n\n- Link to related docs within this folder using relative paths (`./state.md`)\n",
    );
    write(
        d,
        "docs/guide.md",
        "# Guide\n\nRead `docs/state.md` first.\n",
    );
    commit(d, "docs");
    std::fs::create_dir_all(d.join("docs/agents")).unwrap();
    git(d, &["mv", "docs/state.md", "docs/agents/state.md"]);
    write(
        d,
        "docs/AGENTS.md",
        "# Writing docs\n\n- Link within a package directory using relative paths (`./state.md`)\n",
    );
    // A document born in the moving commit (a plan squashed in with the refactor) is no
    // evidence: its name is rewritten.
    write(
        d,
        "migration-plan.md",
        "# Plan\n\nReuse the store from `docs/state.md`.\n",
    );
    commit(d, "organize package-owned docs");
    write(
        d,
        "site/architecture.md",
        "# Architecture\n\nState: `docs/state.md`.\n",
    );
    commit(d, "migrate docs into the site");
    let s = scan(d);
    let renamed = |doc: &str| -> Vec<String> {
        common::fixture::signals(&s, doc)
            .into_iter()
            .map(|s| s["renamed_to"].as_str().unwrap_or("").to_string())
            .collect()
    };
    assert_eq!(renamed("docs/AGENTS.md"), ["docs/agents/state.md"]);
    check_apply(d, &[]);
    assert!(read(d, "docs/AGENTS.md").contains("relative paths (`./state.md`)"));
    assert!(read(d, "docs/guide.md").contains("Read `docs/agents/state.md` first."));
    assert!(read(d, "site/architecture.md").contains("State: `docs/agents/state.md`."));
    assert!(read(d, "migration-plan.md").contains("from `docs/agents/state.md`."));
}

/// Held-out 11: a guide of a template repository names the generated project's files from its
/// root (`app/src/client/App.tsx`, which is `template/app/src/client/App.tsx` here); a link
/// on a line marked "TODO:" is a page still to write; a PRP issue investigation
/// (`.claude/PRPs/issues/`, and its `completed/` records) is a plan whose fate is the lifecycle
/// question, not whether each path it names still resolves. A missing file of this repository,
/// and a link to a page that is gone, are still reported.
#[test]
fn template_projects_todo_pages_and_issue_investigations() {
    let r = repo();
    let d = &r.root;
    let app = "export const App = () => null;\n";
    write(d, "app/src/client/App.tsx", app);
    write(d, "src/lib/util.ts", "export const util = 1;\n");
    write(d, "src/workflows/loader.ts", "export const load = 1;\n");
    commit(d, "app");
    // The app becomes the template users generate their project from.
    std::fs::create_dir_all(d.join("template")).unwrap();
    git(d, &["mv", "app", "template/app"]);
    git(d, &["mv", "src/workflows/loader.ts", "src/loader.ts"]);
    commit(d, "the app is the template");
    write(
        d,
        "docs/guides/cookie-consent.md",
        "# Cookie consent\n\nImport the banner in `app/src/client/App.tsx`.\n\n\
         Our own helper is `src/lib/consent.ts`.\n",
    );
    write(
        d,
        "docs/index.md",
        "# Docs\n\n- TODO: [Memory](./memory.md) - persistence, still to write\n\
         - [Guide](./guides/cookie-consent.md)\n- [State](./state.md)\n",
    );
    let investigation =
        "# Investigation: workflow errors (#260)\n\n**Investigated**: 2026-02-17\n\n\
                         | File | Action |\n|---|---|\n| `src/workflows/loader.ts` | UPDATE |\n";
    write(d, ".claude/PRPs/issues/issue-260.md", investigation);
    write(
        d,
        ".claude/PRPs/issues/completed/issue-197.md",
        investigation,
    );
    commit(d, "docs");
    let s = scan(d);
    let docs = [
        "docs/guides/cookie-consent.md",
        "docs/index.md",
        ".claude/PRPs/issues/issue-260.md",
        ".claude/PRPs/issues/completed/issue-197.md",
    ];
    let got = sigs_of(&s, &docs);
    let lifecycle = vec![pair("lifecycle", "")];
    assert_eq!(
        got,
        [
            (docs[0], vec![pair("missing-path", "src/lib/consent.ts")]),
            // The TODO is still the page's own unfinished work.
            (
                docs[1],
                vec![
                    pair("missing-path", "./state.md"),
                    pair("provisional-marker", "")
                ]
            ),
            (docs[2], lifecycle.clone()),
            (docs[3], lifecycle),
        ]
    );
}

/// Held-out 12: an MDX component's tag lines wrap Markdown (a fence under `<Accordion>` is a
/// fence, so the heading after it is an anchor: marvin); a module's reference page has dots in
/// its name (`/reference/camel.types.enums`: camel); a Mintlify API page (`openapi:` in its
/// frontmatter) renders its parameters' anchors (mem0); an MkDocs site is served under its
/// `site_url`'s path, a notebook is a page, and one git ignores is copied in at build time
/// (langgraphjs). An anchor, a page and a module that are not there are still reported.
#[test]
fn components_dotted_pages_module_names_and_notebook_sites() {
    let r = repo();
    let d = &r.root;
    write(
        d,
        "docs/docs.json",
        r#"{"navigation": {"pages": ["quickstart"]}}"#,
    );
    write(
        d,
        "docs/quickstart.mdx",
        "# Quickstart\n\n[Control tasks](#task-control), [gone](#no-such-heading).\n\n\
         <Accordion title=\"Output\">\n```text\nType hints\n\ndef greet(): pass\n```\n</Accordion>\n\n\
         ## Task Control\n\nRun it.\n",
    );
    write(
        d,
        "docs/reference/camel.types.enums.mdx",
        "# camel.types.enums\n",
    );
    write(
        d,
        "docs/reference/index.mdx",
        "# Reference\n\n- [enums](/reference/camel.types.enums)\n- [gone](/reference/camel.gone.base)\n",
    );
    // A Mintlify API page's parameters come from the specification, with their anchors; a
    // link inside a component is still read (to a heading the other page lacks).
    write(
        d,
        "docs/api/add.mdx",
        "---\ntitle: Add\nopenapi: post /v3/memories/add/\n---\n\n<Tip>\n  See [all parameters](#body-messages).\n</Tip>\n",
    );
    write(
        d,
        "docs/api/limits.mdx",
        "# Limits\n\n<Note>\n  See [the engine](/reference/camel.types.enums#run-engine) and [add](/api/add#body-messages).\n</Note>\n",
    );
    write(
        d,
        "site/mkdocs.yml",
        "site_name: Graph\nsite_url: https://example.github.io/graphjs/\n",
    );
    write(d, "site/.gitignore", "*.ipynb\n!docs/errors/*.ipynb\n");
    write(d, "site/docs/errors/UNREACHABLE_NODE.ipynb", "{}\n");
    write(
        d,
        "site/docs/index.md",
        "# Graph\n\n- [time travel](/graphjs/how-tos/time-travel)\n\
         - [error](/graphjs/errors/UNREACHABLE_NODE)\n- [gone](/graphjs/concepts/gone.md)\n",
    );
    commit(d, "docs");
    let s = scan(d);
    let docs = [
        "docs/quickstart.mdx",
        "docs/reference/index.mdx",
        "docs/api/add.mdx",
        "docs/api/limits.mdx",
        "site/docs/index.md",
    ];
    let got = sigs_of(&s, &docs);
    assert_eq!(
        got,
        [
            (docs[0], vec![pair("missing-anchor", "#no-such-heading")]),
            (
                docs[1],
                vec![pair("missing-path", "/reference/camel.gone.base")]
            ),
            (docs[2], vec![]),
            (
                docs[3],
                vec![pair(
                    "missing-anchor",
                    "/reference/camel.types.enums#run-engine"
                )]
            ),
            (
                docs[4],
                vec![pair("missing-path", "/graphjs/concepts/gone.md")]
            ),
        ]
    );
}

/// Held-out 13: the commit that renamed `old.yaml` to `backticks.yaml` pointed every other
/// mention of it at `default.yaml` (the name's role went to another file) and wrote
/// "Default config: `old.yaml`" itself. Git paired the files by content; rewriting that line
/// to `backticks.yaml` would be wrong, so it goes to the model with the rename. A rename whose
/// commit took the new name up is still written.
#[test]
fn a_rename_whose_commit_pointed_the_name_elsewhere() {
    let r = repo();
    let d = &r.root;
    let config = "agent:\n  model: x\n  tools:\n    - edit\n    - view\n  parse: backticks\n";
    write(d, "config/old.yaml", config);
    write(
        d,
        "config/slow.yaml",
        "agent:\n  model: slow\n  retries: 3\n  timeout: 600\n",
    );
    write(d, "config/README.md", "# Configs\n\nSee the docs.\n");
    write(
        d,
        "run.py",
        "CONFIG = 'config'\nDEFAULT = CONFIG + '/old.yaml'\nSLOW = CONFIG + '/slow.yaml'\n",
    );
    write(
        d,
        "docs/tutorial.md",
        "# Tutorial\n\nRun with `--config config/old.yaml`.\n\nOr `--config config/old.yaml --quiet`.\n",
    );
    write(
        d,
        "docs/modes.md",
        "# Modes\n\nThe slow mode is `config/slow.yaml`.\n",
    );
    commit(d, "configs");
    git(d, &["mv", "config/old.yaml", "config/backticks.yaml"]);
    write(
        d,
        "config/default.yaml",
        "agent:\n  model: y\n  parse: function_calling\n",
    );
    write(
        d,
        "run.py",
        "CONFIG = 'config'\nDEFAULT = CONFIG + '/default.yaml'\nSLOW = CONFIG + '/slow.yaml'\n",
    );
    write(
        d,
        "docs/tutorial.md",
        "# Tutorial\n\nRun with `--config config/default.yaml`.\n\nOr `--config config/default.yaml --quiet`.\n",
    );
    write(
        d,
        "config/README.md",
        "# Configs\n\n* Default config: `old.yaml`\n\nSee the docs.\n",
    );
    commit(d, "rename configs");
    git(d, &["mv", "config/slow.yaml", "config/slow_mode.yaml"]);
    write(
        d,
        "run.py",
        "CONFIG = 'config'\nDEFAULT = CONFIG + '/default.yaml'\nSLOW = CONFIG + '/slow_mode.yaml'\n",
    );
    commit(d, "rename the slow mode");
    let s = scan(d);
    let renamed = |doc: &str| -> Vec<String> {
        common::fixture::signals(&s, doc)
            .into_iter()
            .map(|s| s["renamed_to"].as_str().unwrap_or("").to_string())
            .collect()
    };
    assert_eq!(renamed("config/README.md"), ["config/backticks.yaml"]);
    assert_eq!(renamed("docs/modes.md"), ["config/slow_mode.yaml"]);
    check_apply(d, &[]);
    assert!(read(d, "config/README.md").contains("Default config: `old.yaml`"));
    assert!(read(d, "docs/modes.md").contains("is `config/slow_mode.yaml`."));
}

/// Held-out 13: a site's build shorthand (`@api/python/strands.agent`, resolved by a remark
/// plugin to a generated API page), an Astro content collection served under its name
/// (`/blog/launch` is `src/content/blog/launch.mdx`), a Docusaurus site's own static folder
/// (`staticDirectories: ['assets']`), the source of a woven document
/// (`internal/docs/protocol.src.md`, written to `docs/protocol.md`, links from there) and a
/// test's input essay (`tests/data/`, whose links are its source's). A post that is not there,
/// an image that is not there, a page no output has, an `@` link outside any site, and a
/// broken link in the repository's own test suite documents are still reported.
#[test]
fn site_shorthands_collections_static_folders_woven_sources_and_test_inputs() {
    let r = repo();
    let d = &r.root;
    write(
        d,
        "site/astro.config.mjs",
        "export default { site: 'https://x.dev' };\n",
    );
    write(
        d,
        "site/src/content/docs/guide.mdx",
        "# Guide\n\nSee [Agent](@api/python/strands.agent), [the launch](/blog/launch) and \
         [gone](/blog/no-such-post).\n",
    );
    write(d, "site/src/content/blog/launch.mdx", "# Launch\n");
    write(
        d,
        "README.md",
        "# Project\n\nSee [the API](@api/python/strands.agent).\n",
    );
    write(
        d,
        "website/docusaurus.config.js",
        "module.exports = {\n  title: 'X',\n  staticDirectories: ['assets'],\n};\n",
    );
    write(
        d,
        "website/docs/intro.md",
        "# Intro\n\n![arch](/img/arch.png) and ![gone](/img/gone.png)\n",
    );
    write(d, "website/assets/img/arch.png", "png\n");
    write(
        d,
        "internal/docs/protocol.src.md",
        "# Protocol\n\nSee [the server](server.md) and [gone](missing.md).\n",
    );
    write(d, "internal/docs/server.src.md", "# Server\n");
    write(
        d,
        "docs/protocol.md",
        "# Protocol\n\nSee [the server](server.md).\n",
    );
    write(d, "docs/server.md", "# Server\n");
    write(
        d,
        "tests/data/essays/think.md",
        "# How to think\n\nSee [taste](taste.html) and [start](start.html).\n",
    );
    write(
        d,
        "tests/resources/mdtest/calls.md",
        "# Calls\n\nSee [methods](./call/methods.md).\n",
    );
    commit(d, "docs");
    let s = scan(d);
    let docs = [
        "site/src/content/docs/guide.mdx",
        "README.md",
        "website/docs/intro.md",
        "internal/docs/protocol.src.md",
        "tests/data/essays/think.md",
        "tests/resources/mdtest/calls.md",
    ];
    let got = sigs_of(&s, &docs);
    assert_eq!(
        got,
        [
            (docs[0], vec![pair("missing-path", "/blog/no-such-post")]),
            (
                docs[1],
                vec![pair("missing-path", "@api/python/strands.agent")]
            ),
            (docs[2], vec![pair("missing-path", "/img/gone.png")]),
            (docs[3], vec![pair("missing-path", "missing.md")]),
            (docs[4], vec![]),
            (docs[5], vec![pair("missing-path", "./call/methods.md")]),
        ]
    );
}

/// Held-out 14: an MkDocs site whose `docs_dir` is `docs/md_v2` serves `/privacy/` from
/// there; a development journal's dated entries keep the names of their day. A route to no
/// page is still reported; a site page's link to a notebook moved out of the site goes to the
/// model (the site could not serve the new path), while a README's link to it is rewritten,
/// and so is the other renamed path on the same line.
#[test]
fn docs_dirs_journals_and_links_out_of_a_site() {
    let r = repo();
    let d = &r.root;
    write(d, "site/mkdocs.yml", "site_name: X\ndocs_dir: docs/md_v2\n");
    write(d, "site/docs/md_v2/privacy.md", "# Privacy\n");
    write(
        d,
        "site/docs/md_v2/terms.md",
        "# Terms\n\nSee [privacy](/privacy/) and [gone](/no-such-page/).\n",
    );
    write(
        d,
        "tests/old/test_capture.py",
        "def test_capture():\n    assert True\n",
    );
    write(
        d,
        "docs/examples/store.ipynb",
        "{\"cells\": [], \"nbformat\": 4}\n",
    );
    write(d, "mkdocs.yml", "site_name: Y\n");
    write(
        d,
        "docs/index.md",
        "# Y\n\nA [sample notebook](examples/store.ipynb).\n",
    );
    write(
        d,
        "README.md",
        "# Y\n\nA [sample notebook](docs/examples/store.ipynb). Tests: `tests/old/test_capture.py`.\n",
    );
    commit(d, "docs");
    write(
        d,
        "JOURNAL.md",
        "# Development Journal\n\n## [2025-04-09] Added capture\n\nCreated tests in \
         `tests/old/test_capture.py`.\n",
    );
    commit(d, "journal");
    std::fs::create_dir_all(d.join("tests/general")).unwrap();
    git(
        d,
        &[
            "mv",
            "tests/old/test_capture.py",
            "tests/general/test_capture.py",
        ],
    );
    std::fs::create_dir_all(d.join("packages/vec/examples")).unwrap();
    git(
        d,
        &[
            "mv",
            "docs/examples/store.ipynb",
            "packages/vec/examples/store.ipynb",
        ],
    );
    commit(d, "move tests and notebooks");
    let s = scan(d);
    let docs = ["site/docs/md_v2/terms.md", "JOURNAL.md"];
    let got = sigs_of(&s, &docs);
    assert_eq!(
        got,
        [
            (docs[0], vec![pair("missing-path", "/no-such-page/")]),
            (docs[1], vec![]),
        ]
    );
    let renamed = |doc: &str| -> Vec<String> {
        common::fixture::signals(&s, doc)
            .into_iter()
            .map(|s| s["renamed_to"].as_str().unwrap_or("").to_string())
            .collect()
    };
    assert_eq!(
        renamed("docs/index.md"),
        ["packages/vec/examples/store.ipynb"]
    );
    check_apply(d, &[]);
    assert!(read(d, "docs/index.md").contains("](examples/store.ipynb)"));
    // Both renames on one line are written (one line rewritten twice, no line moved).
    assert!(read(d, "README.md").contains("](packages/vec/examples/store.ipynb)"));
    assert!(read(d, "JOURNAL.md").contains("`tests/old/test_capture.py`"));
    assert!(read(d, "README.md").contains("`tests/general/test_capture.py`"));
}

/// Held-out 14 and 15: a generated concatenation of a site's pages quotes each under
/// `## File: <path>`, and its links are the quoted file's; a Docusaurus docs plugin mounted at
/// its own route (`routeBasePath: 'observability-docs'` over `path: 'observability'`) serves
/// its pages and its overview there; a page written as a component (`src/pages/about.tsx`)
/// serves `/about`; a Next.js catch-all page that no content folder backs
/// (`app/(home)/toolkits/[[...slug]]`) serves names the tree cannot list, and a redirect in
/// `next.config.mjs` serves its source; a Fern site's `docs.yml` slug is a route. A link that
/// is broken in the quoted file's folder too, a page the plugin lacks, and a route under a
/// catch-all that renders a content folder (`app/docs/[[...slug]]` over `content/docs/`) to a
/// page that folder lacks are still reported.
#[test]
fn quoted_files_docs_plugins_component_pages_dynamic_routes_and_fern_slugs() {
    let r = repo();
    let d = &r.root;
    write(d, "docs/core/simple.md", "# Simple\n");
    write(
        d,
        "docs/advanced/lazy.md",
        "# Lazy\n\nSee [basics](../core/simple.md).\n",
    );
    write(
        d,
        "deploy/context.md",
        "# Doc Context\n\n## File: docs/advanced/lazy.md\n\n```md\n# Lazy\n```\n\n\
         See [basics](../core/simple.md) and [gone](../core/gone.md).\n",
    );
    write(
        d,
        "website/docusaurus.config.ts",
        "export default {\n  plugins: [\n    [\n      '@docusaurus/plugin-content-docs',\n      {\n        id: 'obs',\n        path: 'observability',\n        routeBasePath: 'observability-docs',\n      },\n    ],\n  ],\n};\n",
    );
    write(
        d,
        "website/observability/overview.md",
        "---\nslug: /\n---\n# Overview\n",
    );
    write(d, "website/observability/feedback.md", "# Feedback\n");
    write(
        d,
        "website/src/pages/about.tsx",
        "export default () => null;\n",
    );
    write(
        d,
        "website/docs/intro.md",
        "# Intro\n\n[obs](/observability-docs/), [feedback](/observability-docs/feedback), \
         [about](/about), [gone](/observability-docs/gone).\n",
    );
    write(d, "site/next.config.mjs", "export default {\n  async redirects() {\n    return [\n      {\n        source: '/docs/old-page',\n        destination: '/docs/intro',\n        permanent: true,\n      },\n    ];\n  },\n};\n");
    write(
        d,
        "site/app/(home)/toolkits/[[...slug]]/page.tsx",
        "export default () => null;\n",
    );
    write(
        d,
        "site/app/(home)/docs/[[...slug]]/page.tsx",
        "export default () => null;\n",
    );
    write(d, "site/content/docs/intro.mdx", "# Intro\n");
    write(
        d,
        "site/content/docs/tools.mdx",
        "# Tools\n\n[GitHub](/toolkits/github), [old](/docs/old-page), [intro](/docs/intro), \
         [gone](/docs/no-such-page).\n",
    );
    write(d, "fern/fern.config.json", "{\"organization\": \"x\"}\n");
    write(
        d,
        "fern/docs.yml",
        "navigation:\n  - section: Toolkits\n    contents:\n      - page: Introduction\n        path: pages/toolkits.mdx\n        slug: toolkits/introduction\n",
    );
    write(d, "fern/pages/toolkits.mdx", "# Toolkits\n");
    write(
        d,
        "fern/pages/welcome.mdx",
        "# Welcome\n\n[toolkits](/toolkits/introduction), [gone](/toolkits/nothing).\n",
    );
    commit(d, "docs");
    let s = scan(d);
    let docs = [
        "deploy/context.md",
        "website/docs/intro.md",
        "site/content/docs/tools.mdx",
        "fern/pages/welcome.mdx",
    ];
    let got = sigs_of(&s, &docs);
    assert_eq!(
        got,
        [
            (docs[0], vec![pair("missing-path", "../core/gone.md")]),
            (
                docs[1],
                vec![pair("missing-path", "/observability-docs/gone")]
            ),
            (docs[2], vec![pair("missing-path", "/docs/no-such-page")]),
            (docs[3], vec![pair("missing-path", "/toolkits/nothing")]),
        ]
    );
}

/// Held-out 16: the agent guides of two sibling packages (`src/sdk-ts/AGENTS.md`,
/// `src/sdk-rust/AGENTS.md`) each stand alone for the package an agent works in, and no
/// session loads both: their shared colour scheme is no duplicate to fix. A package's guide
/// repeating the root one (both loaded in that package) is still reported.
#[test]
fn agent_guides_of_sibling_packages_are_read_apart() {
    let r = repo();
    let d = &r.root;
    let shared = "## Diagram colours\n\n1. Agents are drawn in dark red boxes with white text and a thin black border.\n\
                  2. Tools are drawn in teal rounded boxes, and every arrow between them is labelled with the call.\n";
    write(
        d,
        "src/sdk-ts/AGENTS.md",
        &format!("# TypeScript SDK\n\n{shared}"),
    );
    write(
        d,
        "src/sdk-rust/AGENTS.md",
        &format!("# Rust SDK\n\n{shared}"),
    );
    let release = "## Release steps\n\n1. Bump the version in the manifest and in the lock file, then run the full test suite locally.\n\
                   2. Tag the commit with the version, push the tag, and wait for the release workflow to publish.\n";
    write(d, "AGENTS.md", &format!("# Agents\n\n{release}"));
    write(d, "src/cli/AGENTS.md", &format!("# CLI\n\n{release}"));
    commit(d, "docs");
    let s = scan(d);
    let dups = |p: &str| -> usize { sigs_kind(&s, p, "duplicate-block").len() };
    assert_eq!(
        dups("src/sdk-ts/AGENTS.md") + dups("src/sdk-rust/AGENTS.md"),
        0
    );
    assert_eq!(dups("AGENTS.md") + dups("src/cli/AGENTS.md"), 1);
}

/// A workspace member's guide names the workspace's files from the workspace root
/// (`tests/test_auth.py` in `backend/packages/harness/deerflow/runtime/AGENTS.md` is
/// `backend/tests/test_auth.py`); a Nextra site serves its content folder at the route of its
/// `[[...mdxPath]]` page (`./docs/harness` in the index page served at `/en/docs`); a short
/// path that ends exactly one file (`skills/parser.py`) is that file's shorthand; a change
/// summary records what one change did. A path deleted at the root, a route to no page and a
/// short path that ends no file are still reported.
#[test]
fn workspace_paths_nextra_content_shorthands_and_change_summaries() {
    let r = repo();
    let d = &r.root;
    write(
        d,
        "backend/pyproject.toml",
        "[project]\nname = \"backend\"\n",
    );
    write(
        d,
        "backend/packages/harness/pyproject.toml",
        "[project]\nname = \"harness\"\n",
    );
    write(
        d,
        "backend/tests/test_auth.py",
        "def test_auth():\n    pass\n",
    );
    write(d, "tests/test_old.py", "def test_old():\n    pass\n");
    write(d, "src/legacy.ts", "export const legacy = 1;\n");
    commit(d, "code");
    git(d, &["rm", "-q", "tests/test_old.py", "src/legacy.ts"]);
    write(d, "tests/test_new.py", "def test_new():\n    pass\n");
    commit(d, "drop old test");
    write(
        d,
        "backend/packages/harness/deerflow/runtime/AGENTS.md",
        "# Runtime\n\nTests: `tests/test_auth.py`, `tests/test_old.py`.\n",
    );
    write(
        d,
        "web/next.config.js",
        "import nextra from \"nextra\";\nconst withNextra = nextra({});\nexport default withNextra({});\n",
    );
    write(
        d,
        "web/src/app/[lang]/docs/[[...mdxPath]]/page.tsx",
        "export default function Page() { return null; }\n",
    );
    write(
        d,
        "web/src/content/en/index.mdx",
        "# Docs\n\n- [Harness](./docs/harness)\n- [Setup](/en/docs/harness/setup)\n- [Nowhere](./docs/nowhere)\n",
    );
    write(d, "web/src/content/en/harness/index.mdx", "# Harness\n");
    write(d, "web/src/content/en/harness/setup.mdx", "# Setup\n");
    write(
        d,
        "skills/public/research/SKILL.md",
        "---\nname: research\ndescription: Research.\n---\n\n# Research\n",
    );
    write(
        d,
        "backend/deerflow/skills/parser.py",
        "def parse():\n    pass\n",
    );
    write(
        d,
        "docs/skills.md",
        "# Skills\n\nThe parser is `skills/parser.py`; the loader is `skills/loader.py`.\n",
    );
    write(
        d,
        "docs/CODE_CHANGE_SUMMARY_BY_FILE.md",
        "# Code change summary\n\n## Deleted\n\n- `src/legacy.ts`: removed with the old bundler.\n",
    );
    write(
        d,
        "docs/build.md",
        "# Build\n\nThe bundler lives in `src/legacy.ts`.\n",
    );
    commit(d, "docs");
    let s = scan(d);
    let docs = [
        "backend/packages/harness/deerflow/runtime/AGENTS.md",
        "web/src/content/en/index.mdx",
        "docs/skills.md",
        "docs/CODE_CHANGE_SUMMARY_BY_FILE.md",
        "docs/build.md",
    ];
    let paths = |p: &str| -> Vec<(String, String)> { sigs_kind(&s, p, "missing-path") };
    let got: Vec<(&str, Vec<(String, String)>)> = docs.iter().map(|p| (*p, paths(p))).collect();
    assert_eq!(
        got,
        [
            (docs[0], vec![pair("missing-path", "tests/test_old.py")]),
            (docs[1], vec![pair("missing-path", "./docs/nowhere")]),
            (docs[2], vec![pair("missing-path", "skills/loader.py")]),
            (docs[3], vec![]),
            (docs[4], vec![pair("missing-path", "src/legacy.ts")]),
        ]
    );
}

/// A name no source file holds but another tracked file does (a workflow's
/// `workflow_dispatch`) is the project's vocabulary; a source path that does not resolve and
/// whose file name many files share (`frontend/src/exporter/index.tsx`) is another codebase's,
/// so the names beside it are not this code's. A name that occurs nowhere but in its document,
/// beside this repository's source file, is still reported, even when a link to its document
/// (`CLAUDE.md -> AGENTS.md`) holds it too.
#[test]
fn names_the_project_uses_elsewhere_are_not_missing() {
    let r = repo();
    let d = &r.root;
    write(d, "src/app.py", "def run_worker():\n    pass\n");
    write(d, "a/index.tsx", "export const a = 1;\n");
    write(d, "b/index.tsx", "export const b = 1;\n");
    write(
        d,
        ".github/workflows/release.yml",
        "on:\n  workflow_dispatch:\njobs: {}\n",
    );
    write(
        d,
        "docs/dev.md",
        "# Dev\n\n`src/app.py`: `run_worker()` runs on `workflow_dispatch`; `stale_loop()` starts it.\n\n\
         `frontend/src/exporter/index.tsx` exposes a `before_send_hook`.\n",
    );
    std::os::unix::fs::symlink("dev.md", d.join("docs/GUIDE.md")).unwrap();
    commit(d, "docs");
    let s = scan(d);
    let symbols = refs_kind(&s, "docs/dev.md", "missing-symbol");
    assert_eq!(symbols, ["stale_loop"]);
}

/// A Hugo page collection published by another repository's site (Grafana's `docs/sources/`,
/// a folder of `_index.md` sections) serves `guides/query.md` at `/guides/query/`, so its
/// relative links resolve from there, and its rooted links are the publishing site's routes.
/// A page mkdocstrings renders from a top-level package (`::: langmem` with its handler's
/// options) has anchors the text does not show. A README a docs page embeds (`{!README.md!}`)
/// links from that page's folder on the site. A relative link to no page, an anchor into a
/// page that generates nothing, and a README link that resolves nowhere are still reported.
#[test]
fn hugo_collections_generated_api_pages_and_embedded_readmes() {
    let r = repo();
    let d = &r.root;
    write(d, "docs/sources/_index.md", "---\ntitle: Server\n---\n\n# Server\n\nSee the [cloud server](/docs/grafana-cloud/mcp/).\n");
    write(d, "docs/sources/configure/_index.md", "# Configure\n");
    write(d, "docs/sources/configure/flags.md", "# Flags\n");
    write(d, "docs/sources/guides/_index.md", "# Guides\n");
    write(
        d,
        "docs/sources/guides/query.md",
        "# Query\n\nSet the [flags](../../configure/flags/) and read the [guides](../) and [nothing](../../configure/nothing/).\n",
    );
    write(
        d,
        "site/mkdocs.yml",
        "site_name: Mem\nplugins:\n  - mkdocstrings\n",
    );
    write(
        d,
        "site/docs/reference/tools.md",
        "# Tools\n\n::: langmem\n    handler: python\n    options:\n      members:\n        - create_tool\n",
    );
    write(
        d,
        "site/docs/reference/plain.md",
        "# Plain\n\nNothing generated.\n",
    );
    write(
        d,
        "site/docs/guide.md",
        "# Guide\n\nUse [the tool](reference/tools.md#langmem.create_tool), see [plain](reference/plain.md#missing).\n",
    );
    write(
        d,
        "site/docs/index.md",
        "---\ntitle: Home\n---\n\n{!README.md!}\n",
    );
    write(
        d,
        "README.md",
        "# Mem\n\nRead [the guide](guide.md) and [the tools](reference/tools.md), not [gone](reference/gone.md).\n",
    );
    commit(d, "docs");
    let s = scan(d);
    let docs = [
        "docs/sources/_index.md",
        "docs/sources/guides/query.md",
        "site/docs/guide.md",
        "README.md",
    ];
    let got = sigs_of(&s, &docs);
    assert_eq!(
        got,
        [
            (docs[0], vec![]),
            (
                docs[1],
                vec![pair("missing-path", "../../configure/nothing/")]
            ),
            (
                docs[2],
                vec![pair("missing-anchor", "reference/plain.md#missing")]
            ),
            (docs[3], vec![pair("missing-path", "reference/gone.md")]),
        ]
    );
}

/// A Jekyll site serves its collection `server` from `_server/` at `/server/<name>/`; a
/// document under a `fixtures/` folder inside a test folder is a test's input (a copied README
/// a test edits), whatever its text looks like, and its links are that copy's. A route to no
/// page of the collection, and a root `fixtures/` example's broken link, are still reported.
#[test]
fn jekyll_collections_and_fixtures_inside_test_folders() {
    let r = repo();
    let d = &r.root;
    write(
        d,
        "docs/_config.yml",
        "title: SDK\ncollections:\n  server:\n    permalink: \"/server/:name/\"\n    output: true\n",
    );
    write(
        d,
        "docs/_server/discovery.md",
        "---\ntitle: Discovery\n---\n\n# Discovery\n",
    );
    write(
        d,
        "docs/index.md",
        "# SDK\n\nSee [discovery](/server/discovery/) and [nothing](/server/nothing/).\n",
    );
    write(
        d,
        "test/simulation/fixtures/edit/README.md",
        "# Editor\n\nSee [the samples](./samples/) and [contributing](./CONTRIBUTING.md).\n",
    );
    write(
        d,
        "fixtures/app/README.md",
        "# App\n\nThe test is [here](test/integration.test.ts).\n",
    );
    write(
        d,
        "fixtures/app/test/unit.test.ts",
        "test('x', () => {});\n",
    );
    commit(d, "docs");
    let s = scan(d);
    let docs = [
        "docs/index.md",
        "test/simulation/fixtures/edit/README.md",
        "fixtures/app/README.md",
    ];
    let got = sigs_of(&s, &docs);
    assert_eq!(
        got,
        [
            (docs[0], vec![pair("missing-path", "/server/nothing/")]),
            (docs[1], vec![]),
            (
                docs[2],
                vec![pair("missing-path", "test/integration.test.ts")]
            ),
        ]
    );
}

/// A site page's link written as a folder (`../building-agents/`) is a URL: the page is served
/// as a folder of its own (`learning-hub/intro.md` at `/learning-hub/intro/`), so it names the
/// sibling page `learning-hub/building-agents.md`, and `../../agents/` the site's `/agents/`
/// page. Such a link to no page is still reported.
#[test]
fn folder_links_of_site_pages_resolve_from_the_page_url() {
    let r = repo();
    let d = &r.root;
    write(d, "website/astro.config.mjs", "export default {};\n");
    write(
        d,
        "website/src/pages/agents.astro",
        "---\n---\n<h1>Agents</h1>\n",
    );
    write(
        d,
        "website/src/content/docs/learning-hub/building-agents.md",
        "# Building agents\n",
    );
    write(
        d,
        "website/src/content/docs/learning-hub/intro.md",
        "# Intro\n\nNext: [building agents](../building-agents/), the [agents](../../agents/), \
         and [nothing](../no-such-page/).\n",
    );
    commit(d, "site");
    let s = scan(d);
    assert_eq!(
        sigs(&s, "website/src/content/docs/learning-hub/intro.md"),
        [pair("missing-path", "../no-such-page/")]
    );
}

/// Held-out set 21: a task list's step that deletes, renames or moves a file plans its absence
/// (and `--apply` leaves the step alone), while a step still to do that names the file claims
/// it (a checked one records done work on the file as it was: twenty-fifth session); a
/// dot-folder file git renamed to a template (`templates/settings.json.template`) is the user's
/// copy; a release tag (`py/v0.7.1`), a `sphinx-apidoc` page of a package of the tree and a
/// file a contributing guide says there isn't are no files. The same kinds of path beside them
/// (a script, another `.rst` page, a file of the folder) are still reported.
#[test]
fn planned_steps_tags_apidoc_pages_and_template_copies() {
    let r = repo();
    let d = &r.root;
    write(d, "src/dashboard/public/index.html", "<html></html>\n");
    write(d, "src/dashboard/public/app.js", "console.log(1);\n");
    write(d, ".claude/settings.json", "{\"hooks\": {}}\n");
    write(d, "docs/old.md", "# Old\n");
    commit(d, "start");
    std::fs::create_dir_all(d.join("templates")).unwrap();
    git(
        d,
        &[
            "mv",
            "src/dashboard/public/index.html",
            "src/dashboard/index.html",
        ],
    );
    git(
        d,
        &[
            "mv",
            ".claude/settings.json",
            "templates/settings.json.template",
        ],
    );
    git(d, &["mv", "docs/old.md", "docs/new.md"]);
    git(d, &["rm", "-q", "src/dashboard/public/app.js"]);
    commit(d, "restructure");
    let tasks = "# Tasks\n\n- [x] 1. Delete `src/dashboard/public/app.js`\n  \
                 - Delete `src/dashboard/public/index.html`\n\
                 - [ ] 2. Remove the import from `src/dashboard/public/app.js`\n\n\
                 The layout is in `src/dashboard/public/index.html`.\n";
    write(d, "specs/dashboard/tasks.md", tasks);
    write(
        d,
        "README.md",
        "# Tool\n\nEdit `.claude/settings.json` to enable the hooks. See [the guide](docs/old.md).\n",
    );
    write(d, "py/bin/other.sh", "#!/bin/sh\n");
    write(
        d,
        "py/docs/release.md",
        "# Release\n\n1. Creates tag `py/v0.7.1` on the branch.\n2. Run `py/bin/release.sh`.\n",
    );
    write(d, "promptflow/__init__.py", "\n");
    write(d, "docs/conf.py", "project = 'x'\n");
    write(
        d,
        "docs/guide.md",
        "# Guide\n\nSee [the API](reference/promptflow.rst) and [the CLI](reference/cli.rst).\n",
    );
    write(d, "ui/src/icons/arrow.tsx", "export const A = 1;\n");
    write(
        d,
        "ui/CONTRIBUTING.md",
        "# Contributing\n\nThere isn't a `src/icons/index.ts` file since it slows bundles.\n\
         Icons are exported from `src/icons/all.ts`.\n",
    );
    commit(d, "docs");
    let s = scan(d);
    let docs = [
        "specs/dashboard/tasks.md",
        "README.md",
        "py/docs/release.md",
        "docs/guide.md",
        "ui/CONTRIBUTING.md",
    ];
    let got = sigs_of(&s, &docs);
    assert_eq!(
        got,
        [
            (
                docs[0],
                vec![
                    pair("missing-path", "src/dashboard/public/app.js"),
                    pair("missing-path", "src/dashboard/public/index.html"),
                ]
            ),
            (docs[1], vec![pair("missing-path", "docs/old.md")]),
            (docs[2], vec![pair("missing-path", "py/bin/release.sh")]),
            (docs[3], vec![pair("missing-path", "reference/cli.rst")]),
            (docs[4], vec![pair("missing-path", "src/icons/all.ts")]),
        ]
    );
    // The claim on the last line is rewritten; the planned step is not.
    check_apply(d, &[]);
    let after = read(d, "specs/dashboard/tasks.md");
    assert!(
        after.contains("  - Delete `src/dashboard/public/index.html`\n"),
        "{after}"
    );
    assert!(
        after.contains("The layout is in `src/dashboard/index.html`."),
        "{after}"
    );
}

/// Held-out set 22: Fumadocs sites. A catch-all page `app/(docs)/docs/[[...slug]]` serves the
/// collection `content/docs/` at `/docs`, and one at the app's root (`src/app/[[...slug]]`)
/// serves `src/content/docs/` at `/`; folders in parentheses (`(reference)`, `(demos)`) are
/// route groups, left out of URLs, in the content and in the app's own pages. A route to no
/// page is still reported on both sites.
#[test]
fn fumadocs_collections_and_route_groups() {
    let r = repo();
    let d = &r.root;
    write(d, "apps/docs/next.config.ts", "export default {};\n");
    write(
        d,
        "apps/docs/app/(docs)/docs/[[...slug]]/page.tsx",
        "export default function Page() { return null; }\n",
    );
    write(
        d,
        "apps/docs/app/(demos)/safe-content-frame/page.tsx",
        "export default function Page() { return null; }\n",
    );
    write(
        d,
        "apps/docs/content/docs/(reference)/api-reference/primitives/error.mdx",
        "# Error\n",
    );
    write(
        d,
        "apps/docs/content/docs/(reference)/api-reference/tools/index.mdx",
        "# Tools\n",
    );
    write(
        d,
        "apps/docs/content/docs/guides/intro.mdx",
        "# Intro\n\nSee [errors](/docs/api-reference/primitives/error), [tools](/docs/api-reference/tools), \
         [the frame](/safe-content-frame) and [nothing](/docs/api-reference/nothing).\n",
    );
    write(d, "shell/next.config.ts", "export default {};\n");
    write(
        d,
        "shell/src/app/[[...slug]]/page.tsx",
        "export default function Page() { return null; }\n",
    );
    write(
        d,
        "shell/src/content/docs/troubleshooting/common-issues.mdx",
        "# Common issues\n",
    );
    write(
        d,
        "shell/src/content/docs/quickstart.mdx",
        "# Quickstart\n\nSee [issues](/troubleshooting/common-issues) and [nothing](/troubleshooting/nothing).\n",
    );
    commit(d, "sites");
    let s = scan(d);
    let docs = [
        "apps/docs/content/docs/guides/intro.mdx",
        "shell/src/content/docs/quickstart.mdx",
    ];
    let got = sigs_of(&s, &docs);
    assert_eq!(
        got,
        [
            (
                docs[0],
                vec![pair("missing-path", "/docs/api-reference/nothing")]
            ),
            (
                docs[1],
                vec![pair("missing-path", "/troubleshooting/nothing")]
            ),
        ]
    );
}

/// Held-out set 23: a benchmark's results (`benchmark/extraction/result/<page>/result.md`: a
/// saved web page and what was extracted from it) are test data: their markers, notices and
/// anchors are the source page's. An email address linked without `mailto:` is no file. A
/// project template under `base_templates/` names the generated project's files. A plan's
/// step that "**deletes** `a`, `b`" or removes "the empty `x/` directory" plans their absence.
/// A README's own broken anchor and link are still reported.
#[test]
fn benchmark_results_and_email_links() {
    let r = repo();
    let d = &r.root;
    write(
        d,
        "deployment/other.md",
        "# Other
",
    );
    write(
        d,
        "pack/base_templates/ts/README.md",
        "# Project

Deploy with [the guide](deployment/README.md).
",
    );
    write(
        d,
        "nix/tests/other.nix",
        "{}
",
    );
    write(
        d,
        "docs/landing-plan.md",
        "# Landing plan

- PR 7: **deletes** `docs/plan-a.md`, `docs/plan-b.md`; done.
         - Remove the empty `nix/tests/wayland/` directory.
",
    );
    write(
        d,
        "benchmark/extraction/result/developer.mozilla.org_Promise/Readability/result.md",
        "# Promise\n\n> Deprecated: this feature is no longer recommended.\n\n\
         TBD: examples.\n\nSee [chained promises](#chained_promises).\n",
    );
    write(
        d,
        "README.md",
        "# Tool\n\nMail [the team](team@example.com). See [setup](#setup) and [guide](docs/guide.md).\n",
    );
    commit(d, "docs");
    let s = scan(d);
    let docs = [
        "benchmark/extraction/result/developer.mozilla.org_Promise/Readability/result.md",
        "README.md",
        "pack/base_templates/ts/README.md",
        "docs/landing-plan.md",
    ];
    let got = sigs_of(&s, &docs);
    assert_eq!(
        got,
        [
            (docs[0], vec![]),
            (
                docs[1],
                vec![
                    pair("missing-path", "docs/guide.md"),
                    pair("missing-anchor", "#setup"),
                ]
            ),
            (docs[2], vec![]),
            (docs[3], vec![]),
        ]
    );
}

/// Held-out 24: a hidden `.plan/` folder holds plans (their fate is the lifecycle question);
/// a folder whose README's own status says it is kept as history ("Status: beta history")
/// holds records that name files as they were; a list under "### What's Gone", and "the
/// deleted `x`", "**Supersedes:** `x`", record removals. The same deleted file named by a
/// current page, under a deprecated package's README, or in a list under an ordinary heading
/// is still reported; a document with a non-ASCII name is read like any other.
#[test]
fn plan_folders_record_folders_and_removal_sections() {
    let r = repo();
    let d = &r.root;
    write(d, "src/foundation.ts", "export const f = 1;\n");
    write(d, "PLUGIN.md", "# Plugin\n");
    write(d, ".github/workflows/bot.yml", "on: push\n");
    commit(d, "code");
    git(
        d,
        &[
            "rm",
            "-q",
            "src/foundation.ts",
            "PLUGIN.md",
            ".github/workflows/bot.yml",
        ],
    );
    commit(d, "remove the beta");
    let names = "Build on `src/foundation.ts`.\n";
    write(d, ".plan/beta.md", &format!("# Beta plan\n\n{names}"));
    write(
        d,
        "work/initiatives/README.md",
        "# Initiatives\n\nStatus: transition evidence / beta history.\n\n## Reading order\n\n1. `direction.md`\n",
    );
    write(d, "work/initiatives/direction.md", "# Direction\n");
    write(
        d,
        "work/initiatives/items/03-foundation/plan.md",
        &format!("# Foundation\n\n{names}"),
    );
    write(
        d,
        "packages/old/README.md",
        &format!("# Old\n\nStatus: Deprecated\n\n## Use\n\n{names}"),
    );
    write(d, "docs/guide.md", &format!("# Guide\n\n{names}"));
    write(
        d,
        "docs/migration.md",
        "# Migration\n\n### What's Gone\n\n- `src/foundation.ts` — obsolete\n\n### Still here\n\n- `src/foundation.ts` — the base\n",
    );
    write(
        d,
        "docs/design.md",
        "# Design\n\n**Supersedes:** the current `PLUGIN.md` framing\n\nDo not wait for the\ndeleted `.github/workflows/bot.yml`.\n",
    );
    write(d, "docs/从CLI工具看.md", &format!("# 工具\n\n{names}"));
    commit(d, "docs");
    let s = scan(d);
    let docs = [
        ".plan/beta.md",
        "work/initiatives/items/03-foundation/plan.md",
        "packages/old/README.md",
        "docs/guide.md",
        "docs/migration.md",
        "docs/design.md",
        "docs/从CLI工具看.md",
    ];
    let gone = vec![pair("missing-path", "src/foundation.ts")];
    assert_eq!(
        sigs_of(&s, &docs),
        [
            (docs[0], vec![pair("lifecycle", "")]),
            (docs[1], vec![]),
            // A deprecated package still describes its code (and says it is superseded).
            (
                docs[2],
                vec![
                    pair("missing-path", "src/foundation.ts"),
                    pair("superseded-marker", "")
                ]
            ),
            (docs[3], gone.clone()),
            (docs[4], gone.clone()),
            (docs[5], vec![]),
            (docs[6], gone),
        ]
    );
    let migration: Vec<u64> = signals(&s, "docs/migration.md")
        .iter()
        .filter_map(|g| g["line"].as_u64())
        .collect();
    assert_eq!(migration, [9], "the item under 'Still here' is the claim");
}

/// Held-out 25: a block a tool manages between marker comments (`<!-- OMC:START -->`) is the
/// tool's (in its own repository, what its installer copies): a copy of it inside another such
/// block is no duplicate (s33: judged false) and is never edited, while an unmarked copy still
/// is reported and removed. A rename into a `legacy/`
/// folder retires the file: reported, not rewritten to the retired copy. A docs page that links
/// its Markdown source in its head is rendered from it: not edited. A path in a dot-folder the
/// project removed as a whole (`.planning/`) is the reader's; one in a dot-folder that remains
/// is still reported. A list under "### New Files to Create" plans its paths.
#[test]
fn managed_blocks_retired_renames_source_pages_and_gone_dot_folders() {
    let r = repo();
    let d = &r.root;
    write(d, "ai_docs/hooks.md", "# Hooks\n");
    write(d, "ai_docs/setup.md", "# Setup\n");
    write(d, ".planning/STATE.md", "# State\n");
    write(d, ".github/workflows/old.yml", "on: push\n");
    write(d, ".github/workflows/ci.yml", "on: push\n");
    write(d, "apps/README.md", "# Apps\n");
    commit(d, "start");
    std::fs::create_dir_all(d.join("ai_docs/legacy")).unwrap();
    std::fs::create_dir_all(d.join("guides")).unwrap();
    git(d, &["mv", "ai_docs/hooks.md", "ai_docs/legacy/hooks.md"]);
    git(d, &["mv", "ai_docs/setup.md", "guides/setup.md"]);
    git(
        d,
        &["rm", "-q", "-r", ".planning", ".github/workflows/old.yml"],
    );
    commit(d, "tidy");
    let rules = "- Delegate specialized work to the most appropriate agent, and verify outcomes before any final claim.\n\
                 - Prefer evidence over assumptions; choose the lightest path that preserves quality in every change.\n\
                 - Consult the official documentation before implementing anything with an SDK or an API.\n";
    let managed = format!("<!-- OMC:START -->\n<!-- OMC:VERSION:4.1 -->\n\n# Orchestration\n\n{rules}\n<!-- OMC:END -->\n");
    write(d, "CLAUDE.md", &managed);
    write(d, "docs/CLAUDE.md", &managed);
    write(
        d,
        "cli/CLAUDE.md",
        &format!("# CLI\n\nThe CLI's own rules.\n\n{rules}"),
    );
    write(
        d,
        ".claude/commands/prime.md",
        "# Prime\n\nRead:\n\n- @ai_docs/hooks.md\n- @ai_docs/setup.md\n",
    );
    let source = "---\ntitle: Audit\n---\n\n# /audit\n\n<span><a href=\"https://github.com/o/r/tree/main/commands/audit.md\">Source</a></span>\n\nSee `ai_docs/setup.md`.\n";
    write(d, "docs/commands/audit.md", source);
    write(
        d,
        "docs/guide.md",
        "# Guide\n\nEach phase updates `.planning/STATE.md`. CI runs `.github/workflows/old.yml`.\n\n\
         ### New Files to Create\n\n- `apps/README.md` - the apps' guide\n",
    );
    write(
        d,
        "docs/apps.md",
        "# Apps\n\n### Files\n\n- `apps/README.md` - the apps' guide\n",
    );
    commit(d, "docs");
    // The guide's apps/README.md exists again later: delete it so both lists name a missing file.
    git(d, &["rm", "-q", "apps/README.md"]);
    write(d, "apps/main.ts", "export {};\n");
    commit(d, "apps");
    let s = scan(d);
    let docs = [
        "docs/CLAUDE.md",
        "cli/CLAUDE.md",
        ".claude/commands/prime.md",
        "docs/commands/audit.md",
        "docs/guide.md",
        "docs/apps.md",
    ];
    assert_eq!(
        sigs_of(&s, &docs),
        [
            (docs[0], vec![]),
            (docs[1], vec![pair("duplicate-block", "")]),
            (
                docs[2],
                vec![
                    pair("missing-path", "ai_docs/hooks.md"),
                    pair("missing-path", "ai_docs/setup.md")
                ]
            ),
            (docs[3], vec![pair("missing-path", "ai_docs/setup.md")]),
            (
                docs[4],
                vec![pair("missing-path", ".github/workflows/old.yml")]
            ),
            (docs[5], vec![pair("missing-path", "apps/README.md")]),
        ]
    );
    check_apply(d, &[]);
    assert_eq!(
        read(d, "docs/CLAUDE.md"),
        managed,
        "the managed block is the tool's"
    );
    let cli = read(d, "cli/CLAUDE.md");
    assert!(
        !cli.contains("Consult the official"),
        "an unmarked copy goes"
    );
    assert_eq!(
        cli, "# CLI\n\nThe CLI's own rules.\n",
        "with the blank line before it"
    );
    let prime = read(d, ".claude/commands/prime.md");
    assert!(
        prime.contains("@ai_docs/hooks.md") && prime.contains("@guides/setup.md"),
        "{prime}"
    );
    assert_eq!(
        read(d, "docs/commands/audit.md"),
        source,
        "a rendered page is not edited"
    );
}

/// Held-out 26: an undocs site (`docs/.config/docs.yaml`) serves numbered folders without their
/// numbers (`docs/2.deploy/0.index.md` is `/deploy/`), its redirects, and its `.docs/public/`
/// assets; a site with a TypeDoc configuration generates its API pages
/// (`/api/classes/openai/`); the paths of an item under "**Good examples**:" are examples and
/// a `YYYYMMDD` name is a placeholder. A dot-folder the project moved elsewhere (`.claude/` into
/// `templates/`) still names its files: a deleted one is reported; and a heading that only asks
/// to list new files ("ALWAYS ADD NEW FILES HERE") plans nothing. A missing page of the site and
/// a route outside the TypeDoc folders are still reported.
#[test]
fn undocs_typedoc_examples_and_moved_dot_folders() {
    let r = repo();
    let d = &r.root;
    write(d, ".claude/docs/CACHE.md", "# Cache\n");
    write(d, ".claude/agents/research.md", "# Research\n");
    write(d, "src/db.ts", "export {};\n");
    commit(d, "start");
    std::fs::create_dir_all(d.join("templates/agents")).unwrap();
    git(
        d,
        &[
            "mv",
            ".claude/agents/research.md",
            "templates/agents/research.md",
        ],
    );
    git(d, &["rm", "-q", ".claude/docs/CACHE.md", "src/db.ts"]);
    commit(d, "templates");
    // What git leaves of the moved folder on disk is gone in a fresh clone.
    let _ = std::fs::remove_dir_all(d.join(".claude"));
    write(d, "agents/other.md", "# Other\n");
    write(d, "reports/README.md", "# Reports\n");
    write(
        d,
        "docs/.config/docs.yaml",
        "name: Nitro\nredirects:\n  /deploy/node: /deploy/runtimes/node\n",
    );
    write(d, "docs/.docs/public/images/deploy.png", "png");
    write(d, "docs/2.deploy/0.index.md", "# Deploy\n");
    write(d, "docs/2.deploy/10.runtimes/1.node.md", "# Node\n");
    write(
        d,
        "docs/1.guide/0.index.md",
        "# Guide\n\nSee [deploy](/deploy/), [node](/deploy/runtimes/node), [old](/deploy/node), \
         ![x](/images/deploy.png) and [gone](/guide/storage).\n",
    );
    write(d, "site/typedoc.json", "{}\n");
    write(d, "site/astro.config.mjs", "export default {};\n");
    write(
        d,
        "site/src/content/docs/llms.md",
        "# LLMs\n\nSee [OpenAI](/api/classes/openai/) and [the guide](/api/guides/openai/).\n",
    );
    write(
        d,
        "CONTRIBUTING.md",
        "# Contributing\n\n**Good examples**:\n- Agents: `code-reviewer.md`, `agents/python-pro.md`\n\n\
         Reports go to `reports/analysis_YYYYMMDD_HHMMSS.md`.\n\nSee the examples:\n\n- `agents/reviewer.md` - a reviewer\n",
    );
    write(
        d,
        "templates/agents/research.md",
        "# Research\n\nRead `.claude/docs/CACHE.md` first.\n",
    );
    write(
        d,
        "CLAUDE.md",
        "# Project\n\n### Key File Purposes (ALWAYS ADD NEW FILES HERE)\n\n- `src/db.ts` - the database\n",
    );
    commit(d, "docs");
    let s = scan(d);
    let docs = [
        "docs/1.guide/0.index.md",
        "site/src/content/docs/llms.md",
        "CONTRIBUTING.md",
        "templates/agents/research.md",
        "CLAUDE.md",
    ];
    assert_eq!(
        sigs_of(&s, &docs),
        [
            (docs[0], vec![pair("missing-path", "/guide/storage")]),
            (docs[1], vec![pair("missing-path", "/api/guides/openai/")]),
            (docs[2], vec![pair("missing-path", "agents/reviewer.md")]),
            (docs[3], vec![pair("missing-path", ".claude/docs/CACHE.md")]),
            (docs[4], vec![pair("missing-path", "src/db.ts")]),
        ]
    );
}

/// Held-out set 27: a Nuxt Content site's numbered folders, a blog's dated routes, a
/// Docusaurus `slug:` under the docs' route base, a Next.js route handler and a blog catch-all,
/// a page linked by its route (no extension), a Markdown parser's test cases, an example
/// column, files listed under their folder, an instruction not to add a file, statuses named
/// in a transition, and a VitePress slug that keeps `&mdash;`. Each still reports a route to
/// no page, a broken link or a path that is gone.
#[test]
fn set_27_sites_test_cases_and_folder_lists() {
    let r = repo();
    let d = &r.root;
    write(d, "init.sh", "#!/bin/sh\n");
    write(d, "tailwind.config.js", "module.exports = {};\n");
    write(d, "deploy.sh", "#!/bin/sh\n");
    commit(d, "start");
    git(
        d,
        &["rm", "-q", "init.sh", "tailwind.config.js", "deploy.sh"],
    );
    commit(d, "v4");
    // Nuxt Content: `3.components/button.md` is `/components/button`.
    write(d, "ui/nuxt.config.ts", "export default {};\n");
    // Astro names its collections file as Nuxt Content v3 does: still an Astro site.
    write(d, "astro/astro.config.mjs", "export default {};\n");
    write(d, "astro/src/content.config.ts", "export default {};\n");
    write(
        d,
        "astro/src/content/docs/reference/config.md",
        "# Config\n",
    );
    write(
        d,
        "astro/src/content/docs/guides/start.md",
        "# Start\n\nSee [config](/reference/config/).\n",
    );
    write(d, "ui/content/3.components/button.md", "# Button\n");
    write(
        d,
        "ui/content/2.composables/use-toast.md",
        "# useToast\n\nSee [Button](/components/button) and [Toast](/components/toast).\n",
    );
    // VitePress: dated posts, and a slug that keeps the entity's name.
    write(d, "web/.vitepress/config.ts", "export default {};\n");
    write(
        d,
        "web/blog/posts/2024-07-17-electric-next.md",
        "# Next\n\n### WAL growth &mdash; why is storage filling up?\n",
    );
    write(
        d,
        "web/blog/posts/2024-08-01-later.md",
        "# Later\n\nSee [next](/blog/2024/07/17/electric-next), [WAL](/blog/posts/2024-07-17-electric-next#wal-growth-mdash-why-is-storage-filling-up) \
         and [lost](/blog/2024/07/18/electric-next).\n",
    );
    // Docusaurus: a page's `slug:` under the docs' route base `/docs/`.
    write(d, "www/docusaurus.config.js", "module.exports = {};\n");
    write(
        d,
        "www/docs/client/app-router/setup.mdx",
        "---\nslug: /client/nextjs/app-router-setup\n---\n# Setup\n",
    );
    write(
        d,
        "www/docs/client/overview.mdx",
        "# Overview\n\nSee [setup](/docs/client/nextjs/app-router-setup) and [gone](/docs/client/nextjs/pages-setup).\n",
    );
    // Next.js: a route handler, and a blog catch-all over a plural content folder.
    write(d, "site/next.config.js", "module.exports = {};\n");
    write(
        d,
        "site/app/llms.txt/route.ts",
        "export const GET = () => {};\n",
    );
    write(
        d,
        "site/app/blog/[[...slug]]/page.tsx",
        "export default () => null;\n",
    );
    write(d, "site/content/blogs/1-7-rc.mdx", "# 1.7 RC\n");
    write(
        d,
        "site/content/docs/ai.mdx",
        "# AI\n\nSee [LLMs.txt](/llms.txt), [the RC](/blog/1-7-rc) and [gone](/guides/ai).\n",
    );
    // MDX has no indented code: a heading indented in a component has its anchor.
    write(
        d,
        "site/content/docs/apple.mdx",
        "# Apple\n\n<Steps>\n  <Step>\n    ### Configure the provider\n\n    Pass the key.\n  </Step>\n</Steps>\n\nSee [above](#configure-the-provider) and [gone](#configure-the-client).\n",
    );
    // Pages linked by route, with no site configuration found.
    write(d, "docs/guide/static-prerendering.md", "# Static\n");
    write(
        d,
        "docs/guide/seo.md",
        "# SEO\n\nSee [static](./static-prerendering) and [gone](./dynamic-prerendering).\n",
    );
    // A Markdown parser's test cases link what the spec examples link.
    write(
        d,
        "crates/md_parser/tests/specs/link.md",
        "[a](/url)\n\n[b](img.png)\n",
    );
    write(
        d,
        "crates/md_parser/tests/README.md",
        "# Tests\n\nSee [the cases](specs/gone.md).\n",
    );
    // Files listed under their folder, an example column, an instruction not to add a file.
    write(d, "scripts/init.sh", "#!/bin/sh\n");
    write(d, "src/main.py", "print()\n");
    write(
        d,
        "CONTRIBUTING.md",
        "# Contributing\n\n- `scripts/` - setup\n  - `init.sh` - firewall\n\nDeploy with `deploy.sh`.\n",
    );
    write(
        d,
        "AGENTS.md",
        "# Agents\n\nDo not add a `tailwind.config.js`: v4 reads the CSS.\n\n\
         | Kind | Pattern Example | Lookup |\n|---|---|---|\n| Literal | `src/app.py` | set |\n\n\
         Settings live in `src/settings.py`; `src/main.run` starts it, `src/gone.run` did.\n",
    );
    // Statuses in a transition, and a link titled TODO LIST; a real TODO stays.
    write(
        d,
        "docs/api/documents.md",
        "# Documents\n\n- **DRAFT to PENDING**: distribute it\n- [TODO LIST](https://example.com/todo)\n",
    );
    write(
        d,
        "docs/api/fields.md",
        "# Fields\n\nTODO: describe the fields.\n",
    );
    commit(d, "docs");
    let s = scan(d);
    let docs = [
        "ui/content/2.composables/use-toast.md",
        "astro/src/content/docs/guides/start.md",
        "web/blog/posts/2024-08-01-later.md",
        "www/docs/client/overview.mdx",
        "site/content/docs/ai.mdx",
        "site/content/docs/apple.mdx",
        "docs/guide/seo.md",
        "crates/md_parser/tests/specs/link.md",
        "crates/md_parser/tests/README.md",
        "CONTRIBUTING.md",
        "AGENTS.md",
        "docs/api/documents.md",
        "docs/api/fields.md",
    ];
    assert_eq!(
        sigs_of(&s, &docs),
        [
            (docs[0], vec![pair("missing-path", "/components/toast")]),
            (docs[1], vec![]),
            (
                docs[2],
                vec![pair("missing-path", "/blog/2024/07/18/electric-next")]
            ),
            (
                docs[3],
                vec![pair("missing-path", "/docs/client/nextjs/pages-setup")]
            ),
            (docs[4], vec![pair("missing-path", "/guides/ai")]),
            (
                docs[5],
                vec![pair("missing-anchor", "#configure-the-client")]
            ),
            (
                docs[6],
                vec![pair("missing-path", "./dynamic-prerendering")]
            ),
            (docs[7], vec![]),
            (docs[8], vec![pair("missing-path", "specs/gone.md")]),
            (docs[9], vec![pair("missing-path", "deploy.sh")]),
            (
                docs[10],
                vec![
                    pair("missing-path", "src/gone.run"),
                    pair("missing-path", "src/settings.py")
                ]
            ),
            (docs[11], vec![]),
            (docs[12], vec![pair("provisional-marker", "")]),
        ]
    );
}

/// Held-out set 28: a VitePress sidebar group's `base:` (not the site's) over TypeDoc pages the
/// build writes into a folder git ignores, Nuxt's versioned routes into its numbered `docs/`
/// (published by a site elsewhere), a fragment written with punctuation GitHub drops, an
/// attribute line's id, and `CLAUDE.md` named as the convention. Each still reports a route, an
/// anchor or a link that is broken.
#[test]
fn set_28_sidebar_bases_versioned_collections_and_convention_names() {
    let r = repo();
    let d = &r.root;
    write(d, "CLAUDE.md", "# Old\n");
    commit(d, "start");
    git(d, &["rm", "-q", "CLAUDE.md"]);
    commit(d, "drop CLAUDE.md");
    write(d, ".gitignore", "docs/reference\n");
    write(
        d,
        "docs/.vitepress/config.ts",
        "const sidebar = [{\n  text: 'API',\n  base: '/reference',\n  items: api(),\n}]\nexport default defineConfig({ themeConfig: { sidebar } })\n",
    );
    write(d, "docs/guide/index.md", "# Guide\n");
    write(
        d,
        "docs/apis/plugin-api.md",
        "# Plugin API\n\nSee [Plugin](/reference/Interface.Plugin), [the guide](/guide/) and [gone](/guide/gone).\n",
    );
    write(d, "nuxt/docs/3.guide/2.modules.md", "# Modules\n");
    write(
        d,
        "nuxt/docs/1.getting-started/1.intro.md",
        "# Intro\n\nSee [modules](/docs/4.x/guide/modules) and [gone](/docs/4.x/guide/plugins).\n",
    );
    write(
        d,
        "store.md",
        "# Store\n\nSee [scoped](#using-scoped-(non-global)-store) and [global](#using-global-store).\n\n\
         ## Using scoped (non-global) store\n\nText.\n\n{#projects-config}\n\n```ts\nx\n```\n\n\
         See [config](#projects-config) and [gone](#projects-conf).\n",
    );
    write(
        d,
        "README.md",
        "# Guide\n\nAdd `@AGENTS.md` to `CLAUDE.md`; the project memory is `./CLAUDE.md`. \
         Read [our rules](CLAUDE.md).\n",
    );
    write(
        d,
        "agents/verifier.md",
        "# Verifier\n\nBegin with:\n\nSTATUS: complete|blocked|inconclusive\n",
    );
    write(
        d,
        "notes/migration.md",
        "# Migration\n\nStatus: Complete\n\n## Steps\n\nDone.\n",
    );
    commit(d, "docs");
    let s = scan(d);
    let docs = [
        "agents/verifier.md",
        "notes/migration.md",
        "docs/apis/plugin-api.md",
        "nuxt/docs/1.getting-started/1.intro.md",
        "store.md",
        "README.md",
    ];
    assert_eq!(
        sigs_of(&s, &docs),
        [
            (docs[0], vec![]),
            (docs[1], vec![pair("status-done", "")]),
            (docs[2], vec![pair("missing-path", "/guide/gone")]),
            (
                docs[3],
                vec![pair("missing-path", "/docs/4.x/guide/plugins")]
            ),
            (
                docs[4],
                vec![
                    pair("missing-anchor", "#using-global-store"),
                    pair("missing-anchor", "#projects-conf")
                ]
            ),
            (docs[5], vec![pair("missing-path", "CLAUDE.md")]),
        ]
    );
}

/// Held-out set 29: a VitePress site whose configuration (in a file it imports) sets `srcDir`
/// and rewrites `en/` to the root: `/de/guide/output` is `src/de/guide/output.md`,
/// `/guide/output` is `src/en/guide/output.md`, and `/images/x.png` is in `src/public/`. A
/// route to no page is still reported.
#[test]
fn set_29_vitepress_src_dir_and_rewrites() {
    let r = repo();
    let d = &r.root;
    write(
        d,
        "site/.vitepress/config.ts",
        "import { shard } from './config/shard'\nexport default shard\n",
    );
    write(
        d,
        "site/.vitepress/config/shard.ts",
        "export const shard = defineConfig({\n  srcDir: 'src',\n  rewrites: {\n    // English at the root\n    'en/:rest*': ':rest*',\n  },\n})\n",
    );
    write(d, "site/src/en/guide/output.md", "# Output\n");
    write(d, "site/src/de/guide/output.md", "# Ausgabe\n");
    write(d, "site/src/public/images/x.png", "png");
    write(
        d,
        "site/src/de/guide/index.md",
        "# Anleitung\n\nSee [Ausgabe](/de/guide/output), [output](/guide/output), ![x](/images/x.png) and [gone](/de/guide/gone).\n",
    );
    commit(d, "docs");
    let s = scan(d);
    assert_eq!(
        sigs(&s, "site/src/de/guide/index.md"),
        [pair("missing-path", "/de/guide/gone")]
    );
}

/// Held-out set 30 (payload, agent-kit, convex-backend, chroma, turso, rivet and six more):
/// Mintlify redirects written without their leading `/`, Docusaurus pages named like their
/// folder, skills a `skills-lock.json` installed from another repository, Payload's
/// `## Title#id` heading ids, and a PascalCase placeholder folder (`ComponentName/`). Each keeps a
/// true signal of the same kind beside it.
#[test]
fn set_30_unrooted_redirects_folder_named_pages_and_installed_skills() {
    let r = repo();
    let d = &r.root;
    // Mintlify: `"source": "old-tour/agents"` is the route `/old-tour/agents`.
    write(
        d,
        "docs/docs.json",
        r#"{"navigation": {"groups": [{"group": "Tour", "pages": ["guided-tour/agents"]}]},
  "redirects": [{"source": "old-tour/agents", "destination": "guided-tour/agents"}]}
"#,
    );
    write(d, "docs/guided-tour/agents.mdx", "# Agents\n");
    write(
        d,
        "docs/guided-tour/intro.mdx",
        "# Intro\n\nSee [agents](/old-tour/agents) and [workflows](/old-tour/workflows).\n",
    );
    // Docusaurus: `log-streams/log-streams.mdx` is the folder's index.
    write(d, "website/docusaurus.config.js", "module.exports = {};\n");
    write(
        d,
        "website/docs/production/integrations/log-streams/log-streams.mdx",
        "# Log streams\n",
    );
    write(
        d,
        "website/docs/production/networking.mdx",
        "# Networking\n\nSee [log streams](/production/integrations/log-streams) and [exports](/production/integrations/exports).\n",
    );
    // A skill the lock installed names the project's files; the project's own skill, beside
    // it, makes claims.
    write(d, "demo/package.json", "{}\n");
    write(d, "demo/convex/schema.ts", "export default {};\n");
    write(
        d,
        "demo/skills-lock.json",
        r#"{"version": 1, "skills": {"setup-auth": {"source": "acme/agent-skills", "sourceType": "github"}}}"#,
    );
    let skill = "---\nname: NAME\ndescription: Sets up auth.\n---\n# Auth\n\nSee [the guide](references/auth.md).\n";
    let reference = "# Auth\n\n1. Configure the sign-in methods in `convex/auth.ts`.\n2. Read [the providers](./providers.md).\n";
    for agent in [".claude", ".agents"] {
        write(
            d,
            &format!("demo/{agent}/skills/setup-auth/SKILL.md"),
            &skill.replace("NAME", "setup-auth"),
        );
        write(
            d,
            &format!("demo/{agent}/skills/setup-auth/references/auth.md"),
            reference,
        );
    }
    write(
        d,
        "demo/.claude/skills/own-auth/SKILL.md",
        &skill.replace("NAME", "own-auth"),
    );
    write(
        d,
        "demo/.claude/skills/own-auth/references/auth.md",
        reference,
    );
    // A lock reached through a link out of the root is never read: that project's skill keeps
    // its claims.
    let outside = r.root.parent().unwrap().join("outside-lock");
    std::fs::create_dir_all(&outside).unwrap();
    std::fs::write(
        outside.join("skills-lock.json"),
        r#"{"skills": {"setup-auth": {"source": "acme/agent-skills"}}}"#,
    )
    .unwrap();
    write(d, "linked/package.json", "{}\n");
    write(d, "linked/convex/schema.ts", "export default {};\n");
    std::os::unix::fs::symlink(
        outside.join("skills-lock.json"),
        d.join("linked/skills-lock.json"),
    )
    .unwrap();
    write(
        d,
        "linked/.claude/skills/setup-auth/SKILL.md",
        &skill.replace("NAME", "setup-auth"),
    );
    write(
        d,
        "linked/.claude/skills/setup-auth/references/auth.md",
        reference,
    );
    // A PascalCase placeholder folder in a step.
    write(
        d,
        "packages/ui/src/elements/Button/index.tsx",
        "export {};\n",
    );
    write(
        d,
        "packages/ui/MIGRATING.md",
        "# Migrating\n\nMove each component to `packages/ui/src/elements/ComponentName/`; see `packages/ui/src/elements/Button/styles.css`.\n",
    );
    // Payload's docs: `## Title#id` is the heading's id.
    write(
        d,
        "manual/configuration.mdx",
        "# Configuration\n\nSee [CORS](#cors) and [CSRF](#csrf).\n\n## Cross-origin resource sharing (CORS)#cors\n\nText.\n\n## Issue#12\n",
    );
    commit(d, "docs");
    let s = scan(d);
    assert_eq!(
        sigs(&s, "packages/ui/MIGRATING.md"),
        [pair(
            "missing-path",
            "packages/ui/src/elements/Button/styles.css"
        )]
    );
    assert_eq!(
        sigs(&s, "manual/configuration.mdx"),
        [pair("missing-anchor", "#csrf")]
    );
    assert_eq!(
        sigs(&s, "docs/guided-tour/intro.mdx"),
        [pair("missing-path", "/old-tour/workflows")]
    );
    assert_eq!(
        sigs(&s, "website/docs/production/networking.mdx"),
        [pair("missing-path", "/production/integrations/exports")]
    );
    for agent in [".claude", ".agents"] {
        assert_eq!(
            sigs(
                &s,
                &format!("demo/{agent}/skills/setup-auth/references/auth.md")
            ),
            [pair("missing-path", "./providers.md")],
            "{agent}"
        );
    }
    assert_eq!(
        sigs(&s, "linked/.claude/skills/setup-auth/references/auth.md"),
        [
            pair("missing-path", "convex/auth.ts"),
            pair("missing-path", "./providers.md")
        ]
    );
    assert_eq!(
        sigs(&s, "demo/.claude/skills/own-auth/references/auth.md"),
        [
            pair("missing-path", "convex/auth.ts"),
            pair("missing-path", "./providers.md")
        ]
    );
}

/// Held-out set 31 (textual, tabby, pydantic, TypeAgent, semantic-kernel and 28 more): an
/// MkDocs site configured only by `mkdocs-online.yml` (inheriting `mkdocs-common.yml`), a
/// Docusaurus site with `trailingSlash: true` (a relative URL resolves from the page as a
/// folder), an API plugin mounted at `/api` from a specification file, a dated blog post in a
/// folder of its own (its route, and its backticked paths, which name the files of its day; its
/// links still have to work),
/// mkdocs-autorefs' `[](){#id}` anchors, a page that is one `::: package` directive and one
/// whose section a build macro writes (`{{ settings_section }}`). Each
/// keeps a true signal of the same kind beside it.
#[test]
fn set_31_mkdocs_variants_trailing_slash_sites_dated_posts_and_autorefs() {
    let r = repo();
    let d = &r.root;
    write(d, "src/engine/serve.rs", "pub fn serve() {}\n");
    commit(d, "code");
    std::fs::create_dir_all(d.join("crates/engine")).unwrap();
    git(d, &["mv", "src/engine", "crates/engine/src"]);
    commit(d, "move the engine");
    // MkDocs, configured by variants only.
    write(d, "mkdocs-common.yml", "site_name: T\n");
    write(
        d,
        "mkdocs-online.yml",
        "INHERIT: mkdocs-common.yml\nsite_url: https://t.example.io/\n",
    );
    write(d, "docs/guide/events.md", "# Events\n");
    write(
        d,
        "docs/guide/app.md",
        "# App\n\nSee [events](/guide/events/) and [timers](/guide/timers/).\n",
    );
    // Docusaurus with trailing slashes, an API plugin, and a blog.
    write(
        d,
        "website/docusaurus.config.js",
        "const config = {\n  trailingSlash: true,\n  presets: [[\n    'preset',\n    ({\n      api: {\n        path: \"static/openapi.json\",\n        routeBasePath: \"/api\"\n      },\n    }),\n  ]],\n};\n",
    );
    write(d, "website/static/openapi.json", "{}\n");
    write(d, "website/docs/admin/backup.md", "# Backup\n");
    write(
        d,
        "website/docs/admin/upgrade.md",
        "# Upgrade\n\nFirst [back up](../backup), then read [the notes](../release-notes). The [API](/api), [the post](/blog/2023/10/16/repository-context/).\n",
    );
    let post = "# Context\n\nThe prompt is built in `src/engine/serve.rs`.\n";
    write(
        d,
        "website/blog/2023-10-16-repository-context/index.md",
        post,
    );
    write(
        d,
        "website/blog/2024-06-11-rank-fusion/index.md",
        "# Fusion\n\nFollows [context](/blog/2023/10/16/repository-context/) and [ranking](/blog/2023/10/17/ranking/).\n",
    );
    write(
        d,
        "docs/engine.md",
        "# Engine\n\nThe prompt is built in `src/engine/serve.rs`.\n",
    );
    // mkdocs-autorefs anchors and a package's API page.
    write(
        d,
        "docs/concepts/fields.md",
        "# Fields\n\n[](){#default-factory}\n## Default values\n\nText.\n",
    );
    write(d, "docs/api/settings.md", "::: settings_pkg\n");
    write(
        d,
        "docs/concepts/settings.md",
        "# Settings\n\n{{ settings_section }}\n",
    );
    write(
        d,
        "docs/errors.md",
        "# Errors\n\nSee [factories](concepts/fields.md#default-factory), [settings](api/settings.md#settings_pkg.Base), [sources](concepts/settings.md#customise-sources) and [gone](concepts/fields.md#no-such-id).\n",
    );
    commit(d, "docs");
    let s = scan(d);
    assert_eq!(
        sigs_of(
            &s,
            &[
                "docs/guide/app.md",
                "website/docs/admin/upgrade.md",
                "website/blog/2023-10-16-repository-context/index.md",
                "website/blog/2024-06-11-rank-fusion/index.md",
                "docs/engine.md",
                "docs/errors.md",
            ]
        ),
        [
            (
                "docs/guide/app.md",
                vec![pair("missing-path", "/guide/timers/")]
            ),
            (
                "website/docs/admin/upgrade.md",
                vec![pair("missing-path", "../release-notes")]
            ),
            (
                "website/blog/2023-10-16-repository-context/index.md",
                vec![]
            ),
            (
                "website/blog/2024-06-11-rank-fusion/index.md",
                vec![pair("missing-path", "/blog/2023/10/17/ranking/")]
            ),
            (
                "docs/engine.md",
                vec![pair("missing-path", "src/engine/serve.rs")]
            ),
            (
                "docs/errors.md",
                vec![pair("missing-anchor", "concepts/fields.md#no-such-id")]
            ),
        ]
    );
}

/// Held-out set 31's smaller kinds: a folder of postmortems (`.postmortem/`) is kept as a
/// record, so its resolved write-up draws no resolved-narrative, while the same write-up in
/// `docs/incidents/` does; a deprecation notice named `DEPRECATED.md` says so by its job, while
/// a guide that says it is deprecated is still marked; a `Status: COMPLETED` field of a
/// template a rule shows (beside `Date Archived: YYYY-MM-DD`) is no status of the rule, while a
/// report's own `Status: Complete` still is.
#[test]
fn set_31_postmortem_folders_tombstones_and_template_fields() {
    let r = repo();
    let d = &r.root;
    let story = common::fixture::investigation();
    let writeup =
        format!("# Timeouts incident\n\n{story}\n\n## Resolution\n\nThe pool was too small.\n");
    write(d, ".postmortem/timeouts.md", &writeup);
    write(d, "docs/incidents/timeouts.md", &writeup);
    write(
        d,
        "packages/old-ai/DEPRECATED.md",
        "# DEPRECATED: @acme/old-ai\n\nThis package has been **deprecated**. Use `@acme/ai`.\n",
    );
    write(
        d,
        "docs/old-guide.md",
        "# Old guide\n\n**Deprecated:** this guide is replaced by the new one.\n",
    );
    write(
        d,
        ".cursor/rules/archive.mdc",
        "---\ndescription: Archiving\n---\n## Structure for `archive/feature-[ID]_YYYYMMDD.md`\n\n  * **Feature ID:**\n  * **Date Archived:** YYYY-MM-DD\n  * **Status:** COMPLETED & ARCHIVED\n  * **Overview:** what it did.\n",
    );
    write(
        d,
        "reports/cache.md",
        "# Cache rollout\n\n**Status:** Complete\n\n- [x] Add the cache\n",
    );
    commit(d, "docs");
    let s = scan(d);
    let kinds = |p: &str| -> Vec<String> {
        signals(&s, p)
            .iter()
            .map(|g| g["kind"].as_str().unwrap().to_string())
            .collect()
    };
    assert!(kinds(".postmortem/timeouts.md").is_empty(), "{s:#}");
    assert!(kinds("docs/incidents/timeouts.md").contains(&"resolved-narrative".to_string()));
    assert!(kinds("packages/old-ai/DEPRECATED.md").is_empty(), "{s:#}");
    assert!(kinds("docs/old-guide.md").contains(&"superseded-marker".to_string()));
    assert!(
        !kinds(".cursor/rules/archive.mdc").contains(&"status-done".to_string()),
        "{s:#}"
    );
    assert!(
        kinds("reports/cache.md").contains(&"status-done".to_string()),
        "{s:#}"
    );
}

/// Held-out set 31: a sentence wrapped over two lines that says the path does not exist
/// ("`src/core/README.md` and\nsimilar paths do not exist.") names it to deny it, while a
/// wrapped sentence that only points at a missing file is still a claim.
#[test]
fn set_31_a_wrapped_sentence_that_denies_the_path() {
    let r = repo();
    let d = &r.root;
    write(d, "src/PACKAGE.md", "# Package\n");
    write(d, "src/core/lib.rs", "pub fn core() {}\n");
    write(
        d,
        "docs/release.md",
        "# Release\n\nThere are no per-package README files; `src/core/README.md` and\nsimilar paths do not exist.\n",
    );
    write(
        d,
        "docs/guide.md",
        "# Guide\n\nSee `src/core/NOTES.md` for\nthe details of the core package.\n",
    );
    commit(d, "docs");
    let s = scan(d);
    assert!(sigs(&s, "docs/release.md").is_empty(), "{s:#}");
    assert_eq!(
        sigs(&s, "docs/guide.md"),
        [pair("missing-path", "src/core/NOTES.md")]
    );
}

/// Judged false in langgraphjs: an MkDocs site whose TypeDoc configuration is a
/// `typedoc.jsonc` writes its API pages (`modules/`, `classes/`) into the built site, so a
/// route or a relative link to one is served though no file holds it. A route outside the
/// TypeDoc folders is still reported.
#[test]
fn typedoc_jsonc_pages_of_an_mkdocs_site() {
    let r = repo();
    let d = &r.root;
    write(d, "docs/mkdocs.yml", "site_url: https://x.github.io/lg/\n");
    write(
        d,
        "docs/typedoc.jsonc",
        "{\n  // API pages\n  \"out\": \"./site/reference\"\n}\n",
    );
    write(
        d,
        "docs/docs/concepts/state.md",
        "# State\n\nUse an [`Annotation`](/lg/reference/modules/lg.Annotation.html), a \
         [`StateGraph`](/lg/reference/classes/lg.StateGraph.html), \
         [`isStudioUser`](../../reference/functions/sdk_auth.isStudioUser.html) and \
         [the guide](/lg/reference/guides/state.html).\n",
    );
    commit(d, "docs");
    let s = scan(d);
    assert_eq!(
        sigs(&s, "docs/docs/concepts/state.md"),
        [pair("missing-path", "/lg/reference/guides/state.html")]
    );
}

/// Held-out sets 32 and 33 (encore, nestjs' docs): a `.md` page of a repository with no site
/// configuration links its sibling pages by route without an extension, from the
/// repository's root (`/docs/go/cli/mcp` for `docs/go/cli/mcp.md`) or from its top folder,
/// which the site serves at its root (`/go/cli/mcp`, as `/recipes/sql` for
/// `content/recipes/sql.md`): written for that site, since on GitHub such a link names no
/// file. A route to no page, one from a folder between (`/cli/mcp`) and a rooted file name are
/// still reported.
#[test]
fn extensionless_rooted_routes_of_an_unmarked_site() {
    let r = repo();
    let d = &r.root;
    write(d, "docs/go/cli/mcp.md", "# MCP\n");
    write(
        d,
        "docs/go/overview.md",
        "# Overview\n\nSee [the MCP server](/docs/go/cli/mcp), [again](/docs/go/cli/mcp#setup-x), \
         [tracing](/docs/go/observability/tracing), [short](/go/cli/mcp), [shorter](/cli/mcp) \
         and [a file](/docs/go/cli/config.md).\n",
    );
    commit(d, "docs");
    let s = scan(d);
    let mut got = sigs(&s, "docs/go/overview.md");
    got.sort();
    assert_eq!(
        got,
        [
            pair("missing-anchor", "/docs/go/cli/mcp#setup-x"),
            pair("missing-path", "/cli/mcp"),
            pair("missing-path", "/docs/go/cli/config.md"),
            pair("missing-path", "/docs/go/observability/tracing"),
        ]
    );
}

/// Held-out set 32 (prisma): a TypeScript repository's checklist of tests to port from another
/// codebase names them by Rust path (`migrations::diff::diffing_mongo_schemas`), whose modules
/// are also folders here: no source of this repository writes `::` names, so none is checked.
/// The same name where some source is Rust is still reported.
#[test]
fn colon_paths_are_checked_only_where_some_source_writes_them() {
    let checklist = "# Port\n\n- [ ] `migrations::diff::diffing_mongo_schemas`\n";
    let r = repo();
    let d = &r.root;
    write(
        d,
        "migrations/diff/index.ts",
        "export const migrations = { diff() {} };\n",
    );
    write(d, "projects/port/checklist.md", checklist);
    commit(d, "ts");
    let s = scan(d);
    assert!(sigs(&s, "projects/port/checklist.md").is_empty(), "{s:#}");
    write(d, "migrations/mod.rs", "pub mod diff;\n");
    write(d, "src/lib.rs", "mod migrations;\n");
    commit(d, "rust");
    let s = scan(d);
    assert_eq!(
        sigs(&s, "projects/port/checklist.md"),
        [pair(
            "missing-symbol",
            "migrations::diff::diffing_mongo_schemas"
        )]
    );
}

/// Held-out set 32 (claude-simone): the project moved its commands and the `.simone/` folder
/// they read, whole, into `legacy/`, from which an installer copies both into a user's project.
/// `.simone/MANIFEST.md` in `legacy/.claude/commands/plan.md` names the file from that
/// project's root: no signal, and `--apply` leaves the command alone. The root README naming
/// the same file is still reported, and so is a source path moved with its document into a
/// subproject (`packages/` and `docs/` into `ts/`: composio, judged true).
#[test]
fn files_moved_with_the_document_under_a_new_root_keep_their_names() {
    let r = repo();
    let d = &r.root;
    let plan = "# Plan\n\nRead `.simone/MANIFEST.md` for the current sprint.\n";
    write(d, ".claude/commands/plan.md", plan);
    write(d, ".simone/MANIFEST.md", "# Manifest\n\nSprint 3.\n");
    write(
        d,
        "README.md",
        "# Simone\n\nThe sprint lives in `.simone/MANIFEST.md`.\n",
    );
    write(d, "packages/core/pusher.ts", "export const pusher = 1;\n");
    write(
        d,
        "docs/triggers.md",
        "# Triggers\n\nSee `packages/core/pusher.ts`.\n",
    );
    commit(d, "start");
    std::fs::create_dir_all(d.join("legacy/.claude")).unwrap();
    git(d, &["mv", ".claude/commands", "legacy/.claude/commands"]);
    git(d, &["mv", ".simone", "legacy/.simone"]);
    std::fs::create_dir_all(d.join("ts")).unwrap();
    git(d, &["mv", "packages", "ts/packages"]);
    git(d, &["mv", "docs", "ts/docs"]);
    commit(d, "legacy");
    let s = scan(d);
    assert!(
        sigs(&s, "legacy/.claude/commands/plan.md").is_empty(),
        "{s:#}"
    );
    check_apply(d, &[]);
    assert_eq!(read(d, "legacy/.claude/commands/plan.md"), plan);
    assert_eq!(
        sigs(&s, "README.md"),
        [pair("missing-path", ".simone/MANIFEST.md")]
    );
    assert_eq!(
        sigs(&s, "ts/docs/triggers.md"),
        [pair("missing-path", "packages/core/pusher.ts")]
    );
}

/// Held-out set 32 (playwright, react-router): a page published in language variants
/// (`intro-js.md`, `test-assertions-csharp-java-python.md`) is linked as `./intro.md` or
/// `./test-assertions`, and a page about a file is linked by the file's name
/// (`./entry.server.tsx` for `entry.server.tsx.md`). The split renamed `intro.md` to
/// `intro-js.md`, yet the Python page's link is left alone: rewriting it would send Python
/// readers to the JavaScript page. A page with no variant, a variant of another kind
/// (`setup-old.md`) and a file name with no page are still reported.
#[test]
fn language_variants_and_pages_named_after_files() {
    let r = repo();
    let d = &r.root;
    let intro = "# Intro\n\nInstall Playwright, run the example test and open the report.\n";
    let library = "# Library\n\nFirst [install it](./intro.md).\n";
    write(d, "docs/src/intro.md", intro);
    write(d, "docs/src/library-python.md", library);
    commit(d, "one intro");
    // The split renames the page to one variant and adds the others.
    git(d, &["mv", "docs/src/intro.md", "docs/src/intro-js.md"]);
    write(d, "docs/src/intro-python.md", intro);
    write(
        d,
        "docs/src/test-assertions-csharp-java-python.md",
        "# Assertions\n",
    );
    write(d, "docs/src/setup-old.md", "# Old setup\n");
    write(d, "docs/api/entry.server.tsx.md", "# entry.server.tsx\n");
    write(
        d,
        "docs/src/guide.md",
        "# Guide\n\nStart with [the intro](./intro.md), [assertions](./test-assertions), \
         [setup](./setup.md), [retries](./test-retries.md), \
         [the server entry](../api/entry.server.tsx) and [routes](../api/routes.ts).\n",
    );
    commit(d, "docs");
    let s = scan(d);
    let mut got = sigs(&s, "docs/src/guide.md");
    got.sort();
    assert_eq!(
        got,
        [
            pair("missing-path", "../api/routes.ts"),
            pair("missing-path", "./setup.md"),
            pair("missing-path", "./test-retries.md"),
        ]
    );
    assert!(sigs(&s, "docs/src/library-python.md").is_empty(), "{s:#}");
    check_apply(d, &[]);
    assert_eq!(read(d, "docs/src/library-python.md"), library);
}

/// Held-out set 33 (biome's website, TanStack Table): an Astro configuration spreads a
/// generated `redirects.js` map (`'/linter/rules/no-alert': '/linter/rules/no-alert/javascript'`)
/// into its own `redirects:`, and a TanStack docs `config.json` lists the example pages the
/// site renders from `examples/` (`framework/react/examples/basic`). A route neither serves is
/// still reported.
#[test]
fn set_33_astro_redirect_maps_and_tanstack_navigation() {
    let r = repo();
    let d = &r.root;
    write(
        d,
        "site/astro.config.mjs",
        "import redirects from \"./redirects.js\";\nexport default {\n  redirects: {\n    ...redirects,\n    '/old': '/guide',\n  },\n};\n",
    );
    write(
        d,
        "site/redirects.js",
        "export default {\n  '/linter/rules/no-alert': '/linter/rules/no-alert/javascript',\n};\n",
    );
    write(
        d,
        "site/src/content/docs/linter/rules/no-alert/javascript.mdx",
        "# noAlert\n",
    );
    write(d, "site/src/content/docs/guide.mdx", "# Guide\n");
    write(
        d,
        "site/src/content/docs/index.mdx",
        "# Biome\n\nSee [noAlert](/linter/rules/no-alert), [the guide](/old) and \
         [noGone](/linter/rules/no-gone).\n",
    );
    write(
        d,
        "docs/config.json",
        r#"{"sections": [{"label": "Examples", "frameworks": [{"label": "react", "children": [
            {"label": "Basic", "to": "framework/react/examples/basic"}]}]}]}"#,
    );
    write(d, "examples/react/basic/README.md", "# Basic\n");
    write(
        d,
        "docs/framework/react/guide/sorting.md",
        "# Sorting\n\nTry [the basic example](../examples/basic) or [another](../examples/pagination).\n",
    );
    commit(d, "docs");
    let s = scan(d);
    assert_eq!(
        sigs(&s, "site/src/content/docs/index.mdx"),
        [pair("missing-path", "/linter/rules/no-gone")]
    );
    assert_eq!(
        sigs(&s, "docs/framework/react/guide/sorting.md"),
        [pair("missing-path", "../examples/pagination")]
    );
}

/// Held-out set 33 (nuxt-content, vite): a site's Netlify `_redirects` redirects its routes,
/// written `/from /to 301` or `/from=/to`, with splats, and to another site
/// (`/docs/studio=https://nuxt.studio/...`). A route no rule redirects is still reported.
#[test]
fn netlify_redirects_of_a_site() {
    let r = repo();
    let d = &r.root;
    write(d, "docs/nuxt.config.ts", "export default {};\n");
    write(
        d,
        "docs/_redirects",
        "# moved\n/get-started=/docs/installation\n/docs/studio=https://nuxt.studio/docs\n",
    );
    write(d, "docs/content/docs/installation.md", "# Installation\n");
    write(
        d,
        "docs/content/blog/v3.md",
        "# v3\n\nSee [installing](/get-started), [Studio](/docs/studio) and [the old page](/docs/gone).\n",
    );
    write(d, "site/.vitepress/config.ts", "export default {};\n");
    write(
        d,
        "site/public/_redirects",
        "/guide/api-vite-runtime /guide/api-environment 301\n/config/* /reference/:splat 301!\n",
    );
    write(d, "site/guide/api-environment.md", "# Environment API\n");
    write(d, "site/reference/build.md", "# Build options\n");
    write(
        d,
        "site/guide/index.md",
        "# Guide\n\nSee [the runtime API](/guide/api-vite-runtime), [build](/config/build) and \
         [SSR](/config/ssr).\n",
    );
    commit(d, "docs");
    let s = scan(d);
    assert_eq!(
        sigs(&s, "docs/content/blog/v3.md"),
        [pair("missing-path", "/docs/gone")]
    );
    assert_eq!(
        sigs(&s, "site/guide/index.md"),
        [pair("missing-path", "/config/ssr")]
    );
}

/// Held-out set 33 (httpx): MkDocs serves `docs/async.md` at `/async/` and rewrites only links
/// to `.md` files, so `../advanced/transports` is a URL read from that folder: the page
/// `docs/advanced/transports.md`. The same link to a `.md` file is read from the file, and
/// misses; a URL to no page is still reported.
#[test]
fn mkdocs_urls_are_read_from_the_page_folder() {
    let r = repo();
    let d = &r.root;
    write(d, "mkdocs.yml", "site_name: x\n");
    write(d, "docs/advanced/transports.md", "# Transports\n");
    write(
        d,
        "docs/async.md",
        "# Async\n\nSee [transports](../advanced/transports), [again](advanced/transports.md), \
         [the file](../advanced/transports.md) and [gone](../advanced/gone).\n",
    );
    commit(d, "docs");
    let s = scan(d);
    let mut got = sigs(&s, "docs/async.md");
    got.sort();
    assert_eq!(
        got,
        [
            pair("missing-path", "../advanced/gone"),
            pair("missing-path", "../advanced/transports.md"),
        ]
    );
}

/// Corpus (withastro/docs): a docs site about a framework shows the reader's project, and its
/// code blocks are titled with the reader's files (`astro title="src/pages/about.astro"`). Such
/// a path, a folder holding one, and (without history) a path beside one, named in any page
/// of the site, are the reader's, even where the docs repository once had a file of that name.
/// A titled path the repository renamed, a path beside one that it deleted, a path no block
/// titles, and the same path outside the site are still reported.
#[test]
fn code_block_titles_name_the_readers_files() {
    let r = repo();
    let d = &r.root;
    write(d, "astro.config.mjs", "export default {};\n");
    write(d, "src/pages/index.astro", "---\n---\n");
    write(d, "src/utils/y.ts", "export const y = 1;\n");
    write(
        d,
        "src/env.d.ts",
        "/// <reference types=\"astro/client\" />\n",
    );
    write(d, "src/pages/removed.astro", "---\n---\n<p>gone</p>\n");
    write(
        d,
        "src/components/Old.astro",
        "---\nconst a = 1;\nconst b = 2;\n---\n<p>{a} {b}</p>\n",
    );
    commit(d, "site");
    git(d, &["rm", "-q", "src/env.d.ts", "src/pages/removed.astro"]);
    git(
        d,
        &["mv", "src/components/Old.astro", "src/components/New.astro"],
    );
    commit(d, "tidy");
    write(
        d,
        "src/content/docs/en/tutorial/pages.mdx",
        "# Pages\n\nCreate `src/pages/about.astro`:\n\n```astro title=\"src/pages/about.astro\"\n\
         <h1>About</h1>\n```\n\nThen a layout:\n\n```astro title=\"src/layouts/Base.astro\"\n\
         <slot />\n```\n\nAnd a component:\n\n```astro title=\"src/components/Old.astro\"\n\
         <p />\n```\n\nSee `src/components/Old.astro`, `src/pages/removed.astro` and \
         `src/utils/x.ts`.\n",
    );
    write(
        d,
        "src/content/docs/en/guides/upgrade.mdx",
        "# Pages\n\nEdit `src/pages/about.astro`, put it in `src/layouts/`, add \
         `src/pages/tags.astro` and type `src/env.d.ts`.\n\n```ts title=\"src/env.d.ts\"\n\
         declare const x: 1;\n```\n",
    );
    write(
        d,
        "CONTRIBUTING.md",
        "# Contributing\n\nThe page lives at `src/pages/about.astro`.\n",
    );
    commit(d, "docs");
    let s = scan(d);
    let mut got = sigs(&s, "src/content/docs/en/tutorial/pages.mdx");
    got.sort();
    assert_eq!(
        got,
        [
            pair("missing-path", "src/components/Old.astro"),
            pair("missing-path", "src/pages/removed.astro"),
            pair("missing-path", "src/utils/x.ts"),
        ]
    );
    assert!(
        sigs(&s, "src/content/docs/en/guides/upgrade.mdx").is_empty(),
        "{s:#}"
    );
    assert_eq!(
        sigs(&s, "CONTRIBUTING.md"),
        [pair("missing-path", "src/pages/about.astro")]
    );
}

/// Corpus (CopilotKit's shell-docs): beside a catch-all at the app's root that renders
/// `src/content/docs/` (`src/app/[[...slug]]`), a one-segment dynamic page
/// (`src/app/[framework]/[[...slug]]`) is the page Next.js serves `/ag2/prebuilt-components`
/// from, whatever the content folder holds: which frameworks it accepts is data. A route a
/// dynamic segment takes only part of (`/acme/nothing` where `[team]/` holds just `setup/`) is
/// still reported.
#[test]
fn a_dynamic_segment_beside_a_content_catch_all_serves_its_routes() {
    let r = repo();
    let d = &r.root;
    let page = "export default function Page() { return null; }\n";
    write(d, "shell/next.config.ts", "export default {};\n");
    write(d, "shell/src/app/[[...slug]]/page.tsx", page);
    write(d, "shell/src/app/[framework]/[[...slug]]/page.tsx", page);
    write(
        d,
        "shell/src/content/docs/integrations/ag2/prebuilt-components.mdx",
        "# Prebuilt components\n",
    );
    write(
        d,
        "shell/src/content/docs/quickstart.mdx",
        "# Quickstart\n\nSee [components](/ag2/prebuilt-components) and [AG2](/ag2).\n",
    );
    write(d, "other/next.config.ts", "export default {};\n");
    write(d, "other/src/app/[[...slug]]/page.tsx", page);
    write(d, "other/src/app/[team]/setup/page.tsx", page);
    write(
        d,
        "other/src/content/docs/index.mdx",
        "# Home\n\nSee [setup](/acme/setup) and [nothing](/acme/nothing).\n",
    );
    commit(d, "sites");
    let s = scan(d);
    assert!(
        sigs(&s, "shell/src/content/docs/quickstart.mdx").is_empty(),
        "{s:#}"
    );
    assert_eq!(
        sigs(&s, "other/src/content/docs/index.mdx"),
        [pair("missing-path", "/acme/nothing")]
    );
}

/// Corpus (TanStack Query): tanstack.com slugs a heading its own way (`queryClient.query` is
/// `#queryclient-query`, GitHub's `#queryclientquery`), and the repository writes its links
/// for the site. Into a page of a folder a TanStack docs `config.json` lays out, a fragment
/// with a heading's letters and digits names it; one that names no heading is still reported,
/// and so is the site's slug outside that folder.
#[test]
fn a_tanstack_docs_folder_links_by_the_sites_slugs() {
    let r = repo();
    let d = &r.root;
    write(
        d,
        "docs/config.json",
        r#"{"sections": [{"label": "Reference", "children": [{"label": "QueryClient", "to": "reference/QueryClient"}]}]}"#,
    );
    let page =
        "# QueryClient\n\n- [`query`](#queryclient-query)\n- [`gone`](#queryclient-gone)\n\n\
                ## `queryClient.query`\n\nText.\n";
    write(d, "docs/reference/QueryClient.md", page);
    write(d, "notes/QueryClient.md", page);
    commit(d, "docs");
    let s = scan(d);
    assert_eq!(
        sigs(&s, "docs/reference/QueryClient.md"),
        [pair("missing-anchor", "#queryclient-gone")]
    );
    let mut got = sigs(&s, "notes/QueryClient.md");
    got.sort();
    assert_eq!(
        got,
        [
            pair("missing-anchor", "#queryclient-gone"),
            pair("missing-anchor", "#queryclient-query"),
        ]
    );
}

/// Corpus (playwright): a doc tool that publishes one folder reads rooted links from that
/// folder (`/locators.md` in `docs/src/codegen.md` is `docs/src/locators.md`; `/intro.md` is
/// the reader's language variant, `intro-js.md`). Where a folder's pages link each other so at
/// least three times, such a link names the page. A rooted link to no page of the folder, and
/// a single rooted link from a folder that does not write them so, are still reported.
#[test]
fn a_folder_whose_pages_link_each_other_rooted_there() {
    let r = repo();
    let d = &r.root;
    for p in ["locators", "network", "intro-js", "intro-python"] {
        write(d, &format!("docs/src/{p}.md"), &format!("# {p}\n"));
    }
    write(
        d,
        "docs/src/codegen.md",
        "# Codegen\n\nSee [locators](/locators.md), [network](/network.md), [intro](/intro.md) \
         and [gone](/gone.md).\n",
    );
    write(
        d,
        "docs/src/debug.md",
        "# Debug\n\nSee [network](/network.md).\n",
    );
    write(d, "notes/other.md", "# Other\n");
    write(d, "notes/index.md", "# Notes\n\nSee [other](/other.md).\n");
    commit(d, "docs");
    let s = scan(d);
    assert_eq!(
        sigs(&s, "docs/src/codegen.md"),
        [pair("missing-path", "/gone.md")]
    );
    assert_eq!(
        sigs(&s, "notes/index.md"),
        [pair("missing-path", "/other.md")]
    );
}

/// Held-out set 34 (claude-code-plugins-plus): a package README's relative link
/// `[Troubleshooting](TROUBLESHOOTING.md)` names the package's own file, which never existed;
/// the root's `TROUBLESHOOTING.md` was renamed. `--apply` wrote the root's new path,
/// `000-docs/troubleshooting.md`, which the README's folder does not hold: a link to nowhere,
/// to a file the text may not mean. The signal stays, with no rename suggested. The root
/// README's link, and a nested link written from its folder, are still rewritten.
#[test]
fn a_link_renamed_only_from_the_root_is_not_rewritten() {
    let r = repo();
    let d = &r.root;
    write(
        d,
        "TROUBLESHOOTING.md",
        "# Troubleshooting\n\nRestart the server, then clear the cache and try again.\n",
    );
    commit(d, "guide");
    std::fs::create_dir_all(d.join("000-docs")).unwrap();
    git(
        d,
        &["mv", "TROUBLESHOOTING.md", "000-docs/troubleshooting.md"],
    );
    commit(d, "file the docs");
    let pack = "# Pack\n\n- [Troubleshooting](TROUBLESHOOTING.md)\n";
    write(d, "plugins/pack/README.md", pack);
    write(
        d,
        "plugins/other/README.md",
        "# Other\n\n- [Troubleshooting](../../TROUBLESHOOTING.md)\n",
    );
    write(
        d,
        "README.md",
        "# Project\n\n- [Troubleshooting](./TROUBLESHOOTING.md)\n",
    );
    commit(d, "readmes");
    let s = scan(d);
    assert_eq!(
        sigs(&s, "plugins/pack/README.md"),
        [pair("missing-path", "TROUBLESHOOTING.md")]
    );
    check_apply(d, &[]);
    assert_eq!(read(d, "plugins/pack/README.md"), pack);
    assert!(read(d, "plugins/other/README.md").contains("](../../000-docs/troubleshooting.md)"));
    assert!(read(d, "README.md").contains("](./000-docs/troubleshooting.md)"));
}

/// Held-out set 34 (fumadocs, typescript-eslint, huggingface_hub): sites configured by
/// `next.config.mts` and `docusaurus.config.mts` are sites; a Next site serves `public/`; a
/// Docusaurus docs plugin's folder may lie outside the site's (`path: '../../docs'`), and its
/// pages are served by their `id` in their folder (`id: configs` is `/users/configs`, not
/// `/guides/configs`) as blog posts are by their `slug`. Fumadocs' `<include>` renders another page's headings, and `[#id]` sets a
/// heading's id, as doc-builder's `[[id]]` does. A route, an image and an anchor to nothing are
/// still reported on each.
#[test]
fn set_34_mts_configurations_outside_mounts_and_heading_ids() {
    let r = repo();
    let d = &r.root;
    write(d, "apps/docs/next.config.mts", "export default {};\n");
    write(d, "apps/docs/public/docs/shot.png", "png");
    write(
        d,
        "apps/docs/content/docs/shared.mdx",
        "# Shared\n\n## Root Folder\n\n### Static Mode [#static-export]\n",
    );
    write(
        d,
        "apps/docs/content/docs/conventions.mdx",
        "# Conventions\n\n<include>./shared.mdx</include>\n",
    );
    write(
        d,
        "apps/docs/content/docs/layouts.mdx",
        "# Layouts\n\n![shot](/docs/shot.png) ![gone](/docs/gone.png)\n\n\
         See [root](/docs/conventions#root-folder), [static](/docs/shared#static-export) and \
         [nothing](/docs/shared#nothing).\n",
    );
    write(
        d,
        "packages/website/docusaurus.config.mts",
        "const docs = {\n  id: 'base-docs',\n  path: '../../docs',\n  routeBasePath: '/',\n};\n",
    );
    write(
        d,
        "docs/users/Shared_Configurations.mdx",
        "---\nid: configs\n---\n\n# Shared configs\n",
    );
    write(
        d,
        "packages/website/blog/2024-09-30-typed-linting.md",
        "---\nslug: typed-linting\n---\n\n# Typed linting\n",
    );
    write(
        d,
        "packages/website/blog/2025-05-29-project-service.md",
        "# Project service\n\nSee [configs](/users/configs), [the post](/blog/typed-linting), \
         [another folder's](/guides/configs) and [nothing](/users/nothing).\n",
    );
    write(
        d,
        "notes/cache.md",
        "# Cache\n\n## Limitations[[limitations]]\n\nSee [limits](#limitations) and [gone](#gone).\n",
    );
    commit(d, "sites");
    let s = scan(d);
    let docs = [
        "apps/docs/content/docs/layouts.mdx",
        "notes/cache.md",
        "packages/website/blog/2025-05-29-project-service.md",
    ];
    assert_eq!(
        sigs_of(&s, &docs),
        [
            (
                docs[0],
                vec![
                    pair("missing-path", "/docs/gone.png"),
                    pair("missing-anchor", "/docs/shared#nothing"),
                ]
            ),
            (docs[1], vec![pair("missing-anchor", "#gone")]),
            (
                docs[2],
                vec![
                    pair("missing-path", "/guides/configs"),
                    pair("missing-path", "/users/nothing"),
                ]
            ),
        ]
    );
}

/// Held-out set 34 (slidev): `plans/README.md` indexes the plans with a status each
/// (`| 009 | Bounds | TODO |`), and executors update their row when done. A plan its folder's
/// index lists as not done has not served: no lifecycle question for the model. A plan the
/// index lists as done, and one it does not list, are still asked about.
#[test]
fn a_plan_its_folders_index_lists_as_todo_is_not_asked_about() {
    let r = repo();
    let d = &r.root;
    write(
        d,
        "plans/README.md",
        "# Plans\n\n| Plan | Title | Status |\n|---|---|---|\n| 001 | CI | DONE |\n\
         | 009 | Bounds | TODO |\n| 010 | Guard | in progress |\n",
    );
    for p in ["001-ci", "009-bounds", "010-guard", "011-unlisted"] {
        write(
            d,
            &format!("plans/{p}.md"),
            &format!("# Plan {p}\n\n## Steps\n\n1. Change the code.\n"),
        );
    }
    commit(d, "plans");
    let s = scan(d);
    let asked = docs_with_kind(&s, "lifecycle");
    assert_eq!(asked, ["plans/001-ci.md", "plans/011-unlisted.md"], "{s:#}");
}

/// Held-out set 34 (Comfy-Org/docs): Mintlify gives an `<Accordion>` and a `<Tab>` the anchor
/// of its title (`#how-do-i-check-the-logs`, in any script), and a component's own `id` is an
/// anchor too. A fragment that no heading, title or id gives is still reported.
#[test]
fn titled_accordions_and_tabs_are_anchors() {
    let r = repo();
    let d = &r.root;
    write(d, "docs.json", "{\"navigation\": []}\n");
    write(
        d,
        "faq.mdx",
        "# FAQ\n\n<AccordionGroup>\n<Accordion title=\"How do I check the logs?\">\nOpen the folder.\n</Accordion>\n\
         <Accordion id=\"reset\" title=\"Reset\">\nDelete it.\n</Accordion>\n</AccordionGroup>\n\n\
         <Tabs>\n<Tab title=\"経由でインストール\">\nRun it.\n</Tab>\n</Tabs>\n",
    );
    write(
        d,
        "settings.mdx",
        "# Settings\n\nSee [logs](/faq#how-do-i-check-the-logs), [reset](/faq#reset), \
         [install](/faq#経由でインストール) and [gone](/faq#gone).\n",
    );
    commit(d, "docs");
    let s = scan(d);
    assert_eq!(
        sigs(&s, "settings.mdx"),
        [pair("missing-anchor", "/faq#gone")]
    );
}

/// Held-out set 34 (livestore, gastown, getsentry/skills): a decision record kept in a
/// `.decisions/` folder names the paths of its day, a change table marks a package to create
/// "(new)", a spec says where a folder goes "(not created yet)", and a delta records that a
/// folder "is removed". None is a claim; a plain missing path beside them still is.
#[test]
fn dot_decisions_new_rows_and_recorded_removals() {
    let r = repo();
    let d = &r.root;
    write(d, "internal/api/api.go", "package api\n");
    write(d, "context/keep.md", "# Keep\n");
    write(d, "wip/specs/other.md", "# Other\n");
    write(
        d,
        "context/.decisions/0004-boundary.md",
        "# 0004 Boundary\n\nThe stale `wip/specs/receipt.md` proposal goes.\n",
    );
    write(
        d,
        "docs/design/sandbox.md",
        "# Sandbox\n\n| Path | Purpose |\n|---|---|\n| `internal/daytona/` (new) | Client |\n\n\
         Evidence is kept at `context/evidence/` (not created yet; add it with the first case).\n\n\
         The flat `context/sync/` dir is removed.\n\nThe API lives in `internal/api/server.go`.\n",
    );
    commit(d, "docs");
    let s = scan(d);
    assert!(
        sigs(&s, "context/.decisions/0004-boundary.md").is_empty(),
        "{s:#}"
    );
    assert_eq!(
        sigs(&s, "docs/design/sandbox.md"),
        [pair("missing-path", "internal/api/server.go")]
    );
}

/// Held-out set 34 (goreleaser): Hugo resolves `/customization/index/` to the section page
/// `content/customization/_index.md`, and writes the blog section's feed (`/blog/feed.xml`). An
/// index or a feed of a section the site lacks is still reported.
#[test]
fn section_index_routes_and_feeds() {
    let r = repo();
    let d = &r.root;
    write(d, "www/hugo.yaml", "title: x\n");
    write(
        d,
        "www/content/customization/_index.md",
        "# Customization\n",
    );
    write(d, "www/content/blog/_index.md", "# Blog\n");
    write(
        d,
        "www/content/links.md",
        "# Links\n\nSee [customizing](/customization/index/), [the feed](/blog/feed.xml), \
         [nothing](/nothing/index/) and [no feed](/nothing/rss.xml).\n",
    );
    commit(d, "site");
    let s = scan(d);
    let mut got = sigs(&s, "www/content/links.md");
    got.sort();
    assert_eq!(
        got,
        [
            pair("missing-path", "/nothing/index/"),
            pair("missing-path", "/nothing/rss.xml"),
        ]
    );
}

/// playwright: the API reference pages are generated from headings such as `## async method:
/// LocatorAssertions.toHaveText`, and the guides link the generator's anchors
/// (`#locator-assertions-to-have-text`, `#page-event-console`, `#page-goto-option-timeout`),
/// not GitHub's slug of the heading line. An anchor no member heading gives is still reported.
#[test]
fn api_reference_member_headings_are_anchors() {
    let r = repo();
    let d = &r.root;
    write(
        d,
        "docs/src/api/class-page.md",
        "# class: Page\n\n## async method: Page.goto\n\nGoes.\n\n### option: Page.goto.timeout = %%-navigation-timeout-%%\n\n\
         ## event: Page.console\n\nLogs.\n\n## property: APIRequestContext.baseURL\n\nBase.\n",
    );
    write(
        d,
        "docs/src/guide.md",
        "# Guide\n\nSee [goto](./api/class-page.md#page-goto), [timeout](./api/class-page.md#page-goto-option-timeout), \
         [console](./api/class-page.md#page-event-console), [base](./api/class-page.md#api-request-context-base-url) \
         and [close](./api/class-page.md#page-close).\n",
    );
    commit(d, "docs");
    let s = scan(d);
    assert_eq!(
        sigs(&s, "docs/src/guide.md"),
        [pair("missing-anchor", "./api/class-page.md#page-close")]
    );
}

/// composio: a Fern page's route joins its tab's slug, each section's (none for a section
/// with `skip-slug: true`, the title in kebab case for one without a slug) and its own
/// (`/tool-router/users-and-sessions`, `/docs/tools-and-triggers/fetching-tools`). A route
/// that skips a section with a slug, or names no page, is still reported.
#[test]
fn fern_routes_join_tab_section_and_page_slugs() {
    let r = repo();
    let d = &r.root;
    write(d, "fern/fern.config.json", "{\"organization\": \"x\"}\n");
    write(
        d,
        "fern/docs.yml",
        "tabs:\n  docs:\n    display-name: Docs\n    slug: docs\n  tool-router:\n    display-name: Tool Router\n    slug: tool-router\n\
         navigation:\n- tab: docs\n  layout:\n  - section: Get Started\n    skip-slug: true\n    contents:\n\
         \x20   - page: Quickstart\n      path: pages/quickstart.mdx\n      slug: mcp-quickstart\n\
         \x20 - section: Tools and Triggers\n    contents:\n    - page: Fetching Tools\n      path: pages/fetch.mdx\n\
         - tab: tool-router\n  layout:\n  - section: Basics\n    skip-slug: true\n    contents:\n\
         \x20   - page: Users and Sessions\n      path: pages/users.mdx\n",
    );
    for p in ["quickstart", "fetch", "users"] {
        write(d, &format!("fern/pages/{p}.mdx"), "# Page\n");
    }
    write(
        d,
        "fern/pages/welcome.mdx",
        "# Welcome\n\n[quick](/docs/mcp-quickstart), [fetch](/docs/tools-and-triggers/fetching-tools), \
         [users](/tool-router/users-and-sessions), [skipped](/docs/fetching-tools) and [gone](/tool-router/gone).\n",
    );
    commit(d, "docs");
    let s = scan(d);
    assert_eq!(
        sigs(&s, "fern/pages/welcome.mdx"),
        [
            pair("missing-path", "/docs/fetching-tools"),
            pair("missing-path", "/tool-router/gone")
        ]
    );
}

/// nestjs/docs: a documentation site built as an Angular application serves its Markdown pages
/// at the routes its router configuration lists (`fundamentals.routes.ts` has `path:
/// 'injection-scopes'` under `app.routes.ts`' `path: 'fundamentals'`), rooted or relative
/// (`<base href="/">`). A route no configuration lists, and a missing Markdown file, are still
/// reported.
#[test]
fn angular_application_routes_serve_pages() {
    let r = repo();
    let d = &r.root;
    write(d, "angular.json", "{\"projects\": {}}\n");
    write(
        d,
        "src/app/app.routes.ts",
        "export const routes: Routes = [\n  {\n    path: 'fundamentals',\n    loadChildren: () => import('./f.routes'),\n  },\n  { path: 'cli', loadChildren: () => x },\n];\n",
    );
    write(
        d,
        "src/app/homepage/f.routes.ts",
        "export const F: Routes = [{ path: 'injection-scopes', component: P }];\n",
    );
    write(
        d,
        "src/app/homepage/cli-routing.module.ts",
        "const routes: Routes = [{ path: 'monorepo', component: M }];\n",
    );
    write(
        d,
        "content/guards.md",
        "# Guards\n\nSee [scopes](/fundamentals/injection-scopes), [monorepo](cli/monorepo), \
         [gone](/fundamentals/gone) and [notes](./notes.md).\n",
    );
    commit(d, "docs");
    let s = scan(d);
    assert_eq!(
        sigs(&s, "content/guards.md"),
        [
            pair("missing-path", "./notes.md"),
            pair("missing-path", "/fundamentals/gone")
        ]
    );
}

/// prisma: the Cursor rules moved to `.agents/rules/`, and `.cursor/rules` became an ignored
/// mirror that installing the project links back (`.cursor/rules/x.mdc` to
/// `.agents/rules/x.mdc`): a page naming the old path names a file every set-up checkout has.
/// A file renamed to another name, whose old folder git now ignores, is still reported with
/// its rename.
#[test]
fn ignored_mirrors_of_renamed_files_are_not_missing() {
    let r = repo();
    let d = &r.root;
    let body = "---\ndescription: rule\n---\n\nPrefer the imported helpers; they validate arguments, and tests cover them well.\n";
    write(d, ".cursor/rules/prefer-helpers.mdc", body);
    write(
        d,
        ".claude/agents/upgrader.md",
        "# Upgrader\n\nUpgrade the SDK, then run every test and fix what fails.\n",
    );
    write(d, "README.md", "# Project\n");
    commit(d, "rules");
    std::fs::create_dir_all(d.join(".agents/rules")).unwrap();
    std::fs::create_dir_all(d.join(".agents/skills/upgrader")).unwrap();
    git(
        d,
        &[
            "mv",
            ".cursor/rules/prefer-helpers.mdc",
            ".agents/rules/prefer-helpers.mdc",
        ],
    );
    git(
        d,
        &[
            "mv",
            ".claude/agents/upgrader.md",
            ".agents/skills/upgrader/SKILL.md",
        ],
    );
    write(d, ".gitignore", ".cursor/rules\n.claude/\n");
    commit(d, "move rules");
    write(
        d,
        "docs/testing.md",
        "# Testing\n\nSee `.cursor/rules/prefer-helpers.mdc` and `.claude/agents/upgrader.md`.\n",
    );
    commit(d, "docs");
    let s = scan(d);
    let got = common::fixture::renames(&s, "docs/testing.md");
    assert_eq!(
        got,
        [(
            ".claude/agents/upgrader.md".to_string(),
            ".agents/skills/upgrader/SKILL.md".to_string()
        )]
    );
}

/// deer-flow: the site's link component prefixes the reader's locale, so a page of the
/// `app/[lang]/docs/[[...mdxPath]]` mount links `/docs/harness/setup` for `/en/docs/harness/setup`
/// (`content/en/harness/setup.mdx`). A locale-less route to no page of the page's own locale is
/// still reported.
#[test]
fn locale_less_routes_of_a_localized_next_mount() {
    let r = repo();
    let d = &r.root;
    write(
        d,
        "web/next.config.js",
        "import nextra from \"nextra\";\nconst withNextra = nextra({});\nexport default withNextra({});\n",
    );
    write(
        d,
        "web/src/app/[lang]/docs/[[...mdxPath]]/page.tsx",
        "export default function Page() { return null; }\n",
    );
    write(d, "web/src/content/en/harness/setup.mdx", "# Setup\n");
    write(d, "web/src/content/zh/harness/memory.mdx", "# Memory\n");
    write(
        d,
        "web/src/content/en/intro.mdx",
        "# Intro\n\n[Setup](/docs/harness/setup), [memory](/docs/harness/memory) and [gone](/docs/harness/gone).\n",
    );
    commit(d, "docs");
    let s = scan(d);
    assert_eq!(
        sigs(&s, "web/src/content/en/intro.mdx"),
        [
            pair("missing-path", "/docs/harness/gone"),
            pair("missing-path", "/docs/harness/memory")
        ]
    );
}

/// Uniform sample of the sixteenth session: a review checklist that asks whether "TODO / FIXME /
/// HACK / XXX comments" were left in (Archon), and a plan's rule that open cells "do not survive
/// B0 as TBD" (dyad), name the words. A plan's own open `TBD:` still marks it.
#[test]
fn marker_words_listed_as_alternatives_or_denied_are_named() {
    let r = repo();
    let d = &r.root;
    write(
        d,
        ".archon/commands/review.md",
        "# Review\n\n- New branches without tests?\n- TODO / FIXME / HACK / XXX comments left in?\n",
    );
    write(
        d,
        "docs/cleanup.md",
        "# Cleanup\n\nOpen cells need a decision (they do not survive B0 as TBD).\n\nNever merge a TODO.\n",
    );
    write(
        d,
        "docs/cache.md",
        "# Cache\n\nThe eviction rule is not settled.\n\nTBD: pick between LRU and LFU.\n",
    );
    commit(d, "docs");
    let s = scan(d);
    let docs = [
        ".archon/commands/review.md",
        "docs/cleanup.md",
        "docs/cache.md",
    ];
    assert_eq!(
        sigs_of(&s, &docs),
        [
            (docs[0], vec![]),
            (docs[1], vec![]),
            (docs[2], vec![pair("provisional-marker", "")]),
        ]
    );
}

/// Uniform sample of the sixteenth session: a checked task that removes a folder ("- [x] 2.2
/// Remove (or fold) `x/`", OpenSpec), a plan's "## Deletion Map" (OpenSpec) and a path offered
/// with "(or wherever migrations are defined)" (claude-mem) do not claim the path exists. A
/// task that documents a gone file, and a map of files to keep, still report it.
#[test]
fn removals_in_tasks_and_deletion_maps_and_hedged_paths_are_not_claims() {
    let r = repo();
    let d = &r.root;
    write(
        d,
        "docs/tasks.md",
        "# Tasks\n\n- [x] 2.2 Remove (or fold) `changes/old-proposal/` so one proposal remains.\n- [x] 2.3 Document `src/gone.ts` in the guide.\n",
    );
    write(
        d,
        "docs/retire.md",
        "# Retire\n\n## Deletion Map\n\n**Wave 1 — commands**\n\n- `src/commands/workspace.ts`, `src/commands/workspace/`\n\n## Keep\n\n- `src/keep/gone.ts`\n",
    );
    write(
        d,
        "docs/triage.md",
        "# Triage\n\n- Add a column via a migration in `src/db/Runner.ts` (or wherever migrations are defined).\n- Fix `src/db/Store.ts`.\n",
    );
    for f in [
        "src/main.ts",
        "src/commands/init.ts",
        "src/keep/a.ts",
        "src/db/Migrations.ts",
        "changes/new-proposal/proposal.md",
    ] {
        write(d, f, "export {};\n");
    }
    commit(d, "docs");
    let s = scan(d);
    let docs = ["docs/tasks.md", "docs/retire.md", "docs/triage.md"];
    assert_eq!(
        sigs_of(&s, &docs),
        [
            (docs[0], vec![pair("missing-path", "src/gone.ts")]),
            (docs[1], vec![pair("missing-path", "src/keep/gone.ts")]),
            (docs[2], vec![pair("missing-path", "src/db/Store.ts")]),
        ]
    );
}

/// Uniform sample of the seventeenth session: an undocs route rule `"/adapters/**": "/guide"`
/// redirects `/adapters` itself (h3), and a heading that records a folder's removal ("## 1.
/// `schemas/planning/` — DELETED", OpenSpec) names what is gone on purpose. A route no rule
/// covers (`/adapter`), and a heading that only names a gone folder, are still reported.
#[test]
fn route_rule_globs_and_headings_that_record_a_deletion() {
    let r = repo();
    let d = &r.root;
    write(
        d,
        "docs/.config/docs.yaml",
        "name: H3\nredirects:\n  \"/adapters/**\": \"/guide\"\n",
    );
    write(d, "docs/1.guide/0.index.md", "# Guide\n");
    write(
        d,
        "docs/4.examples/validate.md",
        "# Validate\n\nRuns on [any runtime](/adapters) or [node](/adapters/node), not [one](/adapter).\n",
    );
    // Folders the project once kept.
    write(d, "schemas/planning/schema.yaml", "name: planning\n");
    write(d, "schemas/review/schema.yaml", "name: review\n");
    commit(d, "schemas");
    git(d, &["rm", "-q", "-r", "schemas/planning", "schemas/review"]);
    write(d, "schemas/spec/schema.yaml", "name: spec\n");
    write(
        d,
        "notes/remainder.md",
        "# Remainder\n\n## 1. `schemas/planning/` \u{2014} DELETED\n\nNo code names it.\n\n## 2. `schemas/review/`\n\nStill shipped.\n",
    );
    commit(d, "docs");
    let s = scan(d);
    let docs = ["docs/4.examples/validate.md", "notes/remainder.md"];
    assert_eq!(
        sigs_of(&s, &docs),
        [
            (docs[0], vec![pair("missing-path", "/adapter")]),
            (docs[1], vec![pair("missing-path", "schemas/review/")]),
        ]
    );
}

/// Judged on public repositories: a dated report (`.claude/reports/test-audit-2026-01-05.md`)
/// inventories the files of its day, like a dated design spec, so a test file deleted the day
/// after is no stale claim there; an undated report in the same folder (a living coverage page)
/// still names what is missing.
#[test]
fn dated_reports_are_records_of_their_day() {
    let r = repo();
    let d = &r.root;
    write(d, "tests/export.test.ts", "test('x', () => {});\n");
    write(d, "tests/kept.test.ts", "test('y', () => {});\n");
    commit(d, "tests");
    let audit = "# Test audit\n\n| file | verdict |\n|---|---|\n| `tests/export.test.ts` | delete |\n| `tests/kept.test.ts` | keep |\n";
    write(d, ".claude/reports/test-audit-2026-01-05.md", audit);
    write(d, ".claude/reports/coverage.md", audit);
    commit(d, "audit");
    git(d, &["rm", "-q", "tests/export.test.ts"]);
    commit(d, "delete the test the audit named");
    let s = scan(d);
    assert!(sigs(&s, ".claude/reports/test-audit-2026-01-05.md").is_empty());
    assert_eq!(
        sigs(&s, ".claude/reports/coverage.md"),
        [pair("missing-path", "tests/export.test.ts")]
    );
}

/// Judged on public repositories: Nuxt's `docs/` (numbered folders, published by nuxt.com from
/// another repository) links the site's other sections by route (`/modules`, `/blog/v3-10`): a
/// Markdown page in numbered folders is written for a site as an MDX page is, so those routes
/// are not the collection's to check. A route into the collection (`/docs/...`) still is, and a
/// Markdown page in plain folders (read as a file on GitHub, where `/modules` is the root's)
/// still reports its rooted links.
#[test]
fn numbered_markdown_collections_link_other_sections_by_route() {
    let r = repo();
    let d = &r.root;
    write(
        d,
        "docs/1.getting-started/01.introduction.md",
        "# Introduction\n",
    );
    write(
        d,
        "docs/1.getting-started/06.styling.md",
        "# Styling\n\nBrowse the [modules](/modules) and [UnoCSS](/modules/unocss), read \
         [the intro](/docs/getting-started/introduction) and [gone](/docs/getting-started/removed).\n",
    );
    write(
        d,
        "guide/setup.md",
        "# Setup\n\nBrowse the [modules](/modules).\n",
    );
    commit(d, "docs");
    let s = scan(d);
    let docs = ["docs/1.getting-started/06.styling.md", "guide/setup.md"];
    assert_eq!(
        sigs_of(&s, &docs),
        [
            (
                docs[0],
                vec![pair("missing-path", "/docs/getting-started/removed")]
            ),
            (docs[1], vec![pair("missing-path", "/modules")]),
        ]
    );
}

/// Judged on public repositories: encore's `docs/` pages link their site by route
/// (`/docs/platform/deploy` is `docs/platform/deploy.md` there, nothing on GitHub) and link the
/// site's other sections the same way (`/book`, `/pricing`, `/assets/docs/cron.png`), which
/// this repository does not hold. A rooted route into the docs that serves nothing is still
/// reported, and so is a rooted link in a page that never links by route (a README, read on
/// GitHub, where `/book` is the repository's root).
#[test]
fn pages_linking_by_route_link_the_sites_other_sections() {
    let r = repo();
    let d = &r.root;
    write(d, "docs/platform/deploy.md", "# Deploy\n");
    write(
        d,
        "docs/platform/billing.md",
        "# Billing\n\nSee [deploying](/docs/platform/deploy), [book a demo](/book), \
         ![cron](/assets/docs/cron.png) and [gone](/docs/platform/removed).\n",
    );
    write(d, "README.md", "# Tool\n\n[Book a demo](/book).\n");
    commit(d, "docs");
    let s = scan(d);
    let docs = ["README.md", "docs/platform/billing.md"];
    assert_eq!(
        sigs_of(&s, &docs),
        [
            (docs[0], vec![pair("missing-path", "/book")]),
            (
                docs[1],
                vec![pair("missing-path", "/docs/platform/removed")]
            ),
        ]
    );
}

/// Judged on public repositories: a pre-release's folder (`docs/releases/2.0.0-rc.1/`) holds
/// that release's records as `docs/releases/1.10.0/` does (evidence that a dry run was blocked
/// by an untracked `docs/drafts/`); a living page naming the same folder is still checked.
#[test]
fn pre_release_folders_hold_records() {
    let r = repo();
    let d = &r.root;
    let line = "# Evidence\n\nThe dry run was blocked by an untracked `docs/drafts/`.\n";
    // A folder the project once kept: a living page naming it is stale.
    write(d, "docs/drafts/notes.md", "# Notes\n");
    commit(d, "drafts");
    git(d, &["rm", "-q", "-r", "docs/drafts"]);
    write(d, "docs/releases/2.0.0-rc.1/evidence.md", line);
    write(d, "docs/releases/process.md", line);
    commit(d, "docs");
    let s = scan(d);
    let docs = [
        "docs/releases/2.0.0-rc.1/evidence.md",
        "docs/releases/process.md",
    ];
    assert_eq!(
        sigs_of(&s, &docs),
        [
            (docs[0], vec![]),
            (docs[1], vec![pair("missing-path", "docs/drafts/")]),
        ]
    );
}

/// Judged on public repositories: a backticked path that is the text of a link to another
/// repository (prisma's `docs/drive/principles/sizing.md`, moved to `prisma/ignite` and linked
/// there) or to a site names that place's file. The same text linking this repository's own
/// files (its remote's name), and a bare backticked path, are still checked.
#[test]
fn link_text_naming_another_repositorys_file() {
    let r = repo();
    let d = &r.root;
    git(
        d,
        &["remote", "add", "origin", "git@github.com:acme/Tool.git"],
    );
    write(d, "docs/drive/principles/sizing.md", "# Sizing\n");
    write(d, "docs/drive/principles/retro.md", "# Retro\n");
    write(d, "docs/old/setup.md", "# Setup\n");
    write(d, "docs/index.md", "# Docs\n");
    commit(d, "docs");
    git(d, &["rm", "-q", "-r", "docs/drive", "docs/old"]);
    commit(d, "move the drive docs to acme/ignite");
    write(
        d,
        "guide.md",
        "# Guide\n\n\
         Read [`docs/drive/principles/sizing.md`](https://github.com/acme/ignite/blob/main/docs/drive/principles/sizing.md) \
         and the [`docs/guide/`](https://tool.example.dev/docs/guide/) pages.\n\n\
         Setup is in [`docs/old/setup.md`](https://github.com/acme/tool/blob/main/docs/old/setup.md); \
         retros follow `docs/drive/principles/retro.md`.\n",
    );
    commit(d, "guide");
    let s = scan(d);
    let mut got = sigs(&s, "guide.md");
    got.sort();
    assert_eq!(
        got,
        [
            pair("missing-path", "docs/drive/principles/retro.md"),
            pair("missing-path", "docs/old/setup.md"),
        ]
    );
}

/// Judged on public repositories: a backticked folder that history never knew, named like no
/// folder of the repository and like nothing beside where it would be, is the reader's
/// project's, a tool's output or one still to create (`docs/pulse-reports/` that a skill
/// writes, `src/__tests__/` for tests to come). A near namesake of a folder beside it
/// (`trl/accelerate_config/` for `accelerate_configs/`), a folder whose files history knew,
/// and a name some folder of the tree has are still reported.
#[test]
fn folders_nobody_ever_had_are_the_readers() {
    let r = repo();
    let d = &r.root;
    write(d, "trl/accelerate_configs/zero2.yaml", "a: 1\n");
    write(d, "bench/reports/r.md", "# Report\n");
    write(d, "examples/git-hooks/pre-commit", "#!/bin/sh\n");
    write(d, "src/lib.rs", "\n");
    commit(d, "tree");
    git(d, &["rm", "-q", "-r", "examples/git-hooks"]);
    write(d, "examples/basic.md", "# Basic\n");
    commit(d, "drop the hooks");
    write(
        d,
        "docs/guide.md",
        "# Guide\n\nPulse reports live in `docs/pulse-reports/`, tests in `src/__tests__/`.\n\n\
         Presets are in `trl/accelerate_config/`, hooks in `examples/git-hooks/`, \
         runs in `src/reports/`.\n",
    );
    commit(d, "guide");
    let s = scan(d);
    let mut got = sigs(&s, "docs/guide.md");
    got.sort();
    assert_eq!(
        got,
        [
            pair("missing-path", "examples/git-hooks/"),
            pair("missing-path", "src/reports/"),
            pair("missing-path", "trl/accelerate_config/"),
        ]
    );
}

/// Judged on public repositories: a folder of pages a site includes (rolldown's option pages,
/// one `/reference/Interface.PluginContext` each; TanStack Start's guides, one
/// `/router/latest/docs/...` each) links that site by route between them, as one page with
/// many such links does. A single such link in a folder with no others, and the root's pages
/// (read on GitHub, where a rooted link is the repository's), are still reported.
#[test]
fn folders_of_pages_that_link_a_site_by_route() {
    let r = repo();
    let d = &r.root;
    let page = |route: &str| format!("# Option\n\nSee [the reference]({route}).\n");
    write(
        d,
        "packages/core/src/options/docs/banner.md",
        &page("/reference/Interface.PluginContext"),
    );
    write(
        d,
        "packages/core/src/options/docs/footer.md",
        &page("/reference/OutputOptions.legalComments"),
    );
    write(
        d,
        "packages/core/src/options/docs/watch.md",
        &page("/reference/Interface.WatcherOptions"),
    );
    write(d, "guides/setup.md", &page("/reference/Interface.Setup"));
    write(d, "README.md", &page("/api/guide/start"));
    write(d, "CONTRIBUTING.md", &page("/api/guide/contribute"));
    write(d, "SECURITY.md", &page("/api/guide/report"));
    commit(d, "docs");
    let s = scan(d);
    let docs = [
        "CONTRIBUTING.md",
        "README.md",
        "SECURITY.md",
        "guides/setup.md",
        "packages/core/src/options/docs/banner.md",
    ];
    assert_eq!(
        sigs_of(&s, &docs),
        [
            (docs[0], vec![pair("missing-path", "/api/guide/contribute")]),
            (docs[1], vec![pair("missing-path", "/api/guide/start")]),
            (docs[2], vec![pair("missing-path", "/api/guide/report")]),
            (
                docs[3],
                vec![pair("missing-path", "/reference/Interface.Setup")]
            ),
            (docs[4], vec![]),
        ]
    );
}

/// Judged on public repositories: a README's ticked list is a feature list ("Blazing fast",
/// "Battle tested") or a standing list of prerequisites, and a `keep` rule says a README (or an
/// ADR) is never deleted for having served: no `checklist-complete`. The same list in a note
/// no keep rule governs still draws one.
#[test]
fn entry_points_keep_their_ticked_lists() {
    let r = repo();
    let d = &r.root;
    let list = |a: &str, b: &str, c: &str| format!("# {a}\n\n- [x] {a}\n- [x] {b}\n- [x] {c}\n");
    write(
        d,
        "README.md",
        &list(
            "**Blazing fast**",
            "**Battle tested**",
            "**Enterprise-ready**",
        ),
    );
    write(
        d,
        "docs/adr/0001-gateway.md",
        &list("Use a proxy", "Cache keys", "Retry twice"),
    );
    write(
        d,
        "docs/rollout.md",
        &list("Ship the proxy", "Move the cache", "Turn on retries"),
    );
    commit(d, "docs");
    let s = scan(d);
    let docs = ["README.md", "docs/adr/0001-gateway.md", "docs/rollout.md"];
    assert_eq!(
        sigs_of(&s, &docs),
        [
            (docs[0], vec![]),
            (docs[1], vec![]),
            (docs[2], vec![pair("checklist-complete", "")]),
        ]
    );
}

/// Judged on public repositories: in an example folder a status line is the example's content
/// (the working-memory file a demo run writes, `examples/todo-app/.loki/CONTINUITY.md`), as its
/// ticked lists are. The same line in the repository's own note still draws `status-done`.
#[test]
fn example_folders_hold_sample_statuses() {
    let r = repo();
    let d = &r.root;
    let note = |title: &str| format!("# {title}\n\nStatus: Complete\n\n## Steps\n\nAll merged.\n");
    write(
        d,
        "skills/loki/examples/todo-app/.loki/CONTINUITY.md",
        &note("Todo app run"),
    );
    write(d, "docs/cache-migration.md", &note("Cache migration"));
    commit(d, "docs");
    let s = scan(d);
    let docs = [
        "docs/cache-migration.md",
        "skills/loki/examples/todo-app/.loki/CONTINUITY.md",
    ];
    assert_eq!(
        sigs_of(&s, &docs),
        [(docs[0], vec![pair("status-done", "")]), (docs[1], vec![])]
    );
}

/// Judged on public repositories: a plan, roadmap, proposal or RFC names the files it means to
/// create (cognee's `RECALL_TOOL_CALLS_PLAN.md` lists tests "to write" under a later PR,
/// langroid's migration plan its scripts under "Create Migration Scripts", an RFC the docs page
/// it will ship). A file history never knew is an intention there. A file the plan names that
/// git removed or renamed since is still reported, and so is a never-known file in a guide.
#[test]
fn plans_name_the_files_they_will_create() {
    let r = repo();
    let d = &r.root;
    write(d, "src/cache.py", "def get(): pass\n");
    write(d, "src/store.py", "def put(): pass\n");
    write(d, "src/app.py", "\n");
    write(d, "tests/test_app.py", "\n");
    commit(d, "tree");
    git(d, &["rm", "-q", "src/cache.py"]);
    git(d, &["mv", "src/store.py", "src/storage.py"]);
    commit(d, "drop the cache, rename the store");
    let plan = "# Recall\n\n## PR 3\n\nThe recall tools live in `src/recall_tools.py`, tested \
                in `tests/test_recall_tools.py`.\n\nThe reader goes through `src/cache.py` \
                and `src/store.py`.\n";
    write(d, "RECALL_PLAN.md", plan);
    write(d, "design/rfc-multi-session.md", plan);
    write(d, "docs/ideas/voice.md", plan);
    write(d, "docs/guide.md", plan);
    commit(d, "docs");
    let s = scan(d);
    let kept = [
        pair("missing-path", "src/cache.py"),
        pair("missing-path", "src/store.py"),
    ];
    for doc in [
        "RECALL_PLAN.md",
        "design/rfc-multi-session.md",
        "docs/ideas/voice.md",
    ] {
        let mut got = sigs(&s, doc);
        got.sort();
        assert_eq!(got, kept, "{doc}");
    }
    let mut got = sigs(&s, "docs/guide.md");
    got.sort();
    assert_eq!(
        got,
        [
            pair("missing-path", "src/cache.py"),
            pair("missing-path", "src/recall_tools.py"),
            pair("missing-path", "src/store.py"),
            pair("missing-path", "tests/test_recall_tools.py"),
        ]
    );
}

/// Judged on public repositories: "Architecture documentation is written to
/// `docs/architecture/`" and "Produces `docs/project-summary.md`" name a skill's output in the
/// user's project; "`references/budget_preparation.md` (coming soon)" a file still to write.
/// The same paths without the words are still reported.
#[test]
fn outputs_and_files_to_come_say_so() {
    let r = repo();
    let d = &r.root;
    write(d, "docs/index.md", "# Docs\n");
    write(d, "references/grants.md", "# Grants\n");
    commit(d, "tree");
    write(
        d,
        "guide.md",
        "# Guide\n\nArchitecture documentation is written to `docs/architecture.md`.\n\n\
         Produces `docs/project-summary.md`.\n\n\
         - `references/budget_preparation.md` (coming soon)\n\n\
         See `docs/overview.md`, `docs/summary.md` and `references/budget.md`.\n",
    );
    commit(d, "guide");
    let s = scan(d);
    let mut got = sigs(&s, "guide.md");
    got.sort();
    assert_eq!(
        got,
        [
            pair("missing-path", "docs/overview.md"),
            pair("missing-path", "docs/summary.md"),
            pair("missing-path", "references/budget.md"),
        ]
    );
}

/// Judged on public repositories: a docs site that keeps one version of its reference serves it
/// under a versioned route too (CopilotKit's `/reference/v2/hooks/useAgent` is
/// `src/content/reference/hooks/useAgent.mdx`; tRPC's blog links `/docs/v9/`). A versioned
/// route to a page the tree does not have is still reported.
#[test]
fn versioned_routes_serve_the_kept_version() {
    let r = repo();
    let d = &r.root;
    write(d, "site/next.config.mjs", "export default {};\n");
    write(
        d,
        "site/src/content/reference/hooks/useAgent.mdx",
        "# useAgent\n",
    );
    write(
        d,
        "site/src/content/docs/guide.mdx",
        "# Guide\n\nSee [useAgent](/reference/v2/hooks/useAgent), \
         [the v2 reference](/reference/v2/hooks/useAgent/) and \
         [useGone](/reference/v2/hooks/useGone).\n",
    );
    commit(d, "site");
    let s = scan(d);
    assert_eq!(
        sigs(&s, "site/src/content/docs/guide.mdx"),
        [pair("missing-path", "/reference/v2/hooks/useGone")]
    );
}

/// Judged on public repositories: a plan committed together with the removal of a file it
/// names (a squash-merged branch that carried the plan out: OpenSpec's slice plans, a
/// milestone plan that retires a module) records that removal. The same file named by a guide
/// added in that commit, or by a plan written before the removal, is still reported.
#[test]
fn plans_merged_with_their_removals_record_them() {
    let r = repo();
    let d = &r.root;
    write(d, "src/workspace.py", "def open(): pass\n");
    write(d, "src/store.py", "def put(): pass\n");
    write(d, "src/app.py", "\n");
    let text =
        "# Stores\n\nThe store sits beside `src/workspace.py`; `src/store.py` keeps the API.\n";
    write(d, "docs/earlier-plan.md", text);
    commit(d, "tree");
    git(d, &["rm", "-q", "src/workspace.py", "src/store.py"]);
    write(d, "work/slice-plan.md", text);
    write(d, "docs/guide.md", text);
    commit(d, "stores (#1190)");
    let s = scan(d);
    assert_eq!(sigs(&s, "work/slice-plan.md"), []);
    let both = [
        pair("missing-path", "src/store.py"),
        pair("missing-path", "src/workspace.py"),
    ];
    for doc in ["docs/guide.md", "docs/earlier-plan.md"] {
        let mut got = sigs(&s, doc);
        got.sort();
        assert_eq!(got, both, "{doc}");
    }
}

/// Judged on public repositories: a link to a line of a file, as an editor copies it
/// (`[sql-renderer.ts:72](../../src/core/sql-renderer.ts:72)` in prisma's design specs), names
/// that file. A link to a line of a file the tree lacks is still reported.
#[test]
fn links_to_a_line_name_the_file() {
    let r = repo();
    let d = &r.root;
    write(d, "src/core/renderer.ts", "export const x = 1;\n");
    write(
        d,
        "projects/enums/specs/design.md",
        "# Design\n\nSee [renderer.ts:72](../../../src/core/renderer.ts:72), \
         [range](../../../src/core/renderer.ts:9-37) and \
         [role.ts:23](../../../src/core/role.ts:23).\n",
    );
    commit(d, "spec");
    let s = scan(d);
    assert_eq!(
        sigs(&s, "projects/enums/specs/design.md"),
        [pair("missing-path", "../../../src/core/role.ts:23")]
    );
}

/// Judged on public repositories: an Rspress site (`rspress.config.ts`, pages under `docs/`)
/// serves a `.md` link from the `.mdx` page of that name (UI-TARS' guide links
/// `../basic/command.md`, the page is `command.mdx`). A link to a page the site lacks is still
/// reported.
#[test]
fn rspress_serves_md_links_from_mdx_pages() {
    let r = repo();
    let d = &r.root;
    write(d, "website/rspress.config.ts", "export default {};\n");
    write(d, "website/docs/en/guide/basic/command.mdx", "# Command\n");
    write(
        d,
        "website/docs/en/guide/start/intro.mdx",
        "# Intro\n\nSee [command](../basic/command.md) and [search](../basic/search.md).\n",
    );
    commit(d, "site");
    let s = scan(d);
    assert_eq!(
        sigs(&s, "website/docs/en/guide/start/intro.mdx"),
        [pair("missing-path", "../basic/search.md")]
    );
}

/// Judged on public repositories: a list under a heading that says the files are to go
/// ("## 11. Residue to DELETE") names them as intended removals. The same list under another
/// heading is still reported.
#[test]
fn sections_of_files_to_delete_plan_their_removal() {
    let r = repo();
    let d = &r.root;
    write(d, "src/app.ts", "\n");
    write(d, "src/schema.ts", "\n");
    commit(d, "tree");
    git(d, &["rm", "-q", "src/schema.ts"]);
    commit(d, "drop the schema");
    write(
        d,
        "specs/design.md",
        "# Design\n\n## 11. Residue to DELETE\n\n- `src/schema.ts`: dead code.\n\n\
         ## 12. Residue\n\n- `src/schema.ts`: dead code.\n",
    );
    commit(d, "spec");
    let s = scan(d);
    let got: Vec<_> = signals(&s, "specs/design.md")
        .into_iter()
        .filter(|sig| sig["kind"] == "missing-path")
        .map(|sig| sig["line"].as_u64().unwrap())
        .collect();
    assert_eq!(got, [9]);
}

/// What an example's agent reads or wrote (a review saved in the folder its MCP filesystem
/// server serves) names the files of the day it ran: a rename is still reported there, and
/// nothing rewrites it. The example's README is its documentation, and its rename is written.
#[test]
fn an_examples_saved_output_is_not_rewritten() {
    let r = repo();
    let d = &r.root;
    write(d, "web-ui/src/layout.tsx", "export const Layout = 1;\n");
    commit(d, "ui");
    std::fs::create_dir_all(d.join("agent-ui/src")).unwrap();
    git(
        d,
        &["mv", "web-ui/src/layout.tsx", "agent-ui/src/layout.tsx"],
    );
    commit(d, "move the ui");
    let said = "The fix is in `web-ui/src/layout.tsx`.\n";
    write(
        d,
        "examples/reviewer/filesystem/review.md",
        &format!("# Review of PR 696\n\n{said}"),
    );
    write(
        d,
        "examples/reviewer/README.md",
        &format!("# Reviewer\n\n{said}"),
    );
    commit(d, "example");
    let s = scan(d);
    for doc in [
        "examples/reviewer/filesystem/review.md",
        "examples/reviewer/README.md",
    ] {
        assert_eq!(
            sigs(&s, doc),
            [pair("missing-path", "web-ui/src/layout.tsx")],
            "{doc}"
        );
    }
    check_apply(d, &[]);
    assert!(read(d, "examples/reviewer/filesystem/review.md").contains(said));
    assert!(read(d, "examples/reviewer/README.md").contains("`agent-ui/src/layout.tsx`"));
}

/// A `spec.md` (what a change or a project will build) is a plan: a file history never knew
/// is one it means to create, and one removed in the commit that added it is a removal it
/// records. Files it calls existing are claims, and a guide named `field_specs.md` is no plan.
#[test]
fn specs_name_what_they_will_build() {
    let r = repo();
    let d = &r.root;
    write(d, "src/app.ts", "\n");
    write(d, "src/legacy.ts", "\n");
    commit(d, "tree");
    git(d, &["rm", "-q", "src/legacy.ts"]);
    write(
        d,
        "work/slices/cleanup/spec.md",
        "# Cleanup\n\n- Delete the module in `src/legacy.ts`.\n\
         - Add the command in `src/store.ts`.\n\
         - Existing tests: `src/app.test.ts`.\n",
    );
    write(
        d,
        "docs/field_specs.md",
        "# Fields\n\nThe fields are read by `src/fields.ts`.\n",
    );
    commit(d, "carry out the cleanup slice");
    let s = scan(d);
    assert_eq!(
        sigs(&s, "work/slices/cleanup/spec.md"),
        [pair("missing-path", "src/app.test.ts")]
    );
    assert_eq!(
        sigs(&s, "docs/field_specs.md"),
        [pair("missing-path", "src/fields.ts")]
    );
}

/// A file a command in the document writes by redirection (`node gen.mjs > scripts/prompt.md`)
/// is the reader's output, and one marked "(coming soon)" or "(planned)" anywhere on its line is
/// still to write. A diagram's arrow (`-->`) writes nothing: its missing file is reported.
#[test]
fn redirected_outputs_and_pages_to_come() {
    let r = repo();
    let d = &r.root;
    write(d, "scripts/gen.mjs", "\n");
    write(d, "references/intro.md", "# Intro\n");
    commit(d, "tree");
    write(
        d,
        "SKILL.md",
        "# Design to code\n\n```bash\nnode scripts/gen.mjs code > scripts/code-prompt.md\n```\n\n\
         Read `scripts/code-prompt.md` and follow it.\n\n\
         - `references/intro.md` - Introduction\n\
         - `references/budget.md` - Budget development (coming soon)\n\
         - `references/review.md` - Review criteria\n\n\
         ```mermaid\nflowchart LR\n  A[CLI] --> scripts/run.mjs\n```\n\n\
         Then run `scripts/run.mjs`.\n",
    );
    commit(d, "skill");
    let s = scan(d);
    let mut got = sigs(&s, "SKILL.md");
    got.sort();
    assert_eq!(
        got,
        [
            pair("missing-path", "references/review.md"),
            pair("missing-path", "scripts/run.mjs"),
        ]
    );
}

/// A page a program beside it reads by name (a copied docs page a sample script loads) is that
/// program's input: its links and anchors are its source's. A README that `setup.py` reads to
/// ship, and a page no program beside it names, keep their claims.
#[test]
fn pages_a_program_reads_are_its_input() {
    let r = repo();
    let d = &r.root;
    let page = "# Functional API\n\nSee [persistence](./persistence.md) and [retries](./guide.md#retry-policies).\n";
    write(d, "samples/guide.md", "# Guide\n");
    write(d, "other/guide.md", "# Guide\n");
    write(d, "samples/langgraph.md", page);
    write(
        d,
        "samples/local-file.mjs",
        "const page = await readText(join(dirname, \"langgraph.md\"))\n",
    );
    write(d, "other/langgraph.md", page);
    write(
        d,
        "other/notes.mjs",
        "// reads langgraph.md from samples/\n",
    );
    write(d, "pkg/README.md", "# Pkg\n\nSee [usage](./usage.md).\n");
    write(
        d,
        "pkg/setup.py",
        "long_description = open('README.md').read()\n",
    );
    commit(d, "tree");
    let s = scan(d);
    assert!(sigs(&s, "samples/langgraph.md").is_empty());
    let mut got = sigs(&s, "other/langgraph.md");
    got.sort();
    assert_eq!(
        got,
        [
            pair("missing-anchor", "./guide.md#retry-policies"),
            pair("missing-path", "./persistence.md"),
        ]
    );
    assert_eq!(
        sigs(&s, "pkg/README.md"),
        [pair("missing-path", "./usage.md")]
    );
}

/// VitePress folds a heading's accents into its slug ("Niveles de inclusión" is
/// `#niveles-de-inclusion`); GitHub and a Docusaurus site keep them, so there the folded
/// fragment finds nothing.
#[test]
fn vitepress_slugs_fold_accents() {
    let r = repo();
    let d = &r.root;
    write(d, "web/.vitepress/config.ts", "export default {};\n");
    write(d, "site/docusaurus.config.js", "module.exports = {};\n");
    let page = "# Configuración\n\n## Niveles de inclusión\n\nTexto.\n\nVer [niveles](#niveles-de-inclusion).\n";
    for p in ["web/es/guide.md", "site/docs/guide.md", "docs/guide.md"] {
        write(d, p, page);
    }
    commit(d, "pages");
    let s = scan(d);
    assert!(sigs(&s, "web/es/guide.md").is_empty());
    for p in ["site/docs/guide.md", "docs/guide.md"] {
        assert_eq!(
            sigs(&s, p),
            [pair("missing-anchor", "#niveles-de-inclusion")],
            "{p}"
        );
    }
}

/// A path in a table column headed "Old ..." or "Before" is what a change replaced: its
/// removal is recorded. The same path in another column is still reported.
#[test]
fn old_columns_record_what_a_change_replaced() {
    let r = repo();
    let d = &r.root;
    write(d, "cmds/triage.md", "# Triage\n");
    write(d, "skills/triage/SKILL.md", "# Triage\n");
    commit(d, "tree");
    git(d, &["rm", "-q", "cmds/triage.md"]);
    commit(d, "the command became a skill");
    write(
        d,
        "docs/guide.md",
        "# Guide\n\n| | Old Command | New Skill |\n|---|---|---|\n\
         | Format | `cmds/triage.md` | `skills/triage/SKILL.md` |\n\n\
         | Step | File |\n|---|---|\n| Run | `cmds/triage.md` |\n",
    );
    commit(d, "guide");
    let s = scan(d);
    let got: Vec<_> = signals(&s, "docs/guide.md")
        .into_iter()
        .map(|sig| {
            (
                sig["kind"].as_str().unwrap().to_string(),
                sig["line"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(got, [("missing-path".to_string(), 9)]);
}

/// A post (a page under `blog/`) is written for its day: its "Deprecated:" line is that day's
/// news and its ticked list its story. The same page among the docs draws both.
#[test]
fn posts_tell_their_day() {
    let r = repo();
    let d = &r.root;
    let page = "# Version 2.2\n\n> **Deprecated:** use [the guide](../guide.md).\n\n\
                - [x] Faster builds\n- [x] Smaller images\n- [x] New flags\n- [x] Docs\n";
    write(d, "www/guide.md", "# Guide\n");
    write(d, "www/blog/v2-2.md", page);
    write(d, "www/notes/v2-2.md", page);
    commit(d, "pages");
    let s = scan(d);
    assert!(
        sigs(&s, "www/blog/v2-2.md").is_empty(),
        "{:?}",
        sigs(&s, "www/blog/v2-2.md")
    );
    let mut got = sigs(&s, "www/notes/v2-2.md");
    got.sort();
    assert_eq!(
        got,
        [
            pair("checklist-complete", ""),
            pair("superseded-marker", "")
        ]
    );
}

/// An agent's prompt (a `SKILL.md`, a command) is instructions: its ticked "Success Criteria"
/// describe a run, so it draws no checklist-complete. The same list in a document elsewhere
/// (a plan, a report in the skill's folder) does.
#[test]
fn prompts_state_success_criteria() {
    let r = repo();
    let d = &r.root;
    let ticked = "## Success Criteria\n\n- [x] Latest code is pulled\n- [x] `make check` passes\n\
                  - [x] `make install` completes\n- [x] The app starts\n";
    write(
        d,
        ".agent/skills/smoke-test/SKILL.md",
        &format!("# Smoke test\n\nRun it.\n\n{ticked}"),
    );
    write(
        d,
        ".claude/commands/spec-create.md",
        &format!("# Create a spec\n\n{ticked}"),
    );
    write(
        d,
        ".agent/skills/smoke-test/REPORT.md",
        &format!("# Report\n\n{ticked}"),
    );
    commit(d, "prompts");
    let s = scan(d);
    assert!(sigs(&s, ".agent/skills/smoke-test/SKILL.md").is_empty());
    assert!(sigs(&s, ".claude/commands/spec-create.md").is_empty());
    assert_eq!(
        sigs(&s, ".agent/skills/smoke-test/REPORT.md"),
        [pair("checklist-complete", "")]
    );
}

/// Nuxt Content slugs a page's leading `$` as `dollar` (`slugify`'s character map): nuxt.com
/// serves `docs/4.api/3.utils/$fetch.md` at `/docs/4.x/api/utils/dollarfetch`. A route to a
/// page that is not there is still reported.
#[test]
fn spelled_out_characters_of_a_page_name() {
    let r = repo();
    let d = &r.root;
    write(d, "docs/4.api/3.utils/$fetch.md", "# $fetch\n");
    write(
        d,
        "docs/1.getting-started/10.data-fetching.md",
        "# Data fetching\n\nUse [`$fetch`](/docs/4.x/api/utils/dollarfetch) or \
         [`$gone`](/docs/4.x/api/utils/dollargone).\n",
    );
    commit(d, "docs");
    let s = scan(d);
    assert_eq!(
        sigs(&s, "docs/1.getting-started/10.data-fetching.md"),
        [pair("missing-path", "/docs/4.x/api/utils/dollargone")]
    );
}

/// A supersession word is the document's own only where the document says it of itself: not
/// mid-sentence at the start of a wrapped line ("has been / replaced by"), not in a list item
/// about a named thing ("`x-workers` – deprecated."), not in one API's listed status below the
/// head, not "in part". The same words standing as the page's own notice still draw.
#[test]
fn supersession_of_something_else_is_not_the_pages() {
    let r = repo();
    let d = &r.root;
    write(
        d,
        "docs/forking.md",
        "# Forking\n\nThe legacy `branch` / `setBranch` trio has been\nreplaced by **per-message metadata**. Mount it next to the message.\n",
    );
    write(
        d,
        "docs/adapters.md",
        "---\ntitle: Adapters\n---\n\n## Comparisons\n\n- `adapter-a` – supports everything\n- `adapter-a-workers` – deprecated. Builds for Workers Sites\n\n## Usage\n\nInstall it.\n",
    );
    write(
        d,
        "docs/architecture.md",
        "# Architecture\n\nThe parts.\n\n## APIs\n\n### v1\n\n- **Mount**: `/api/v1/*`\n- **Status**: Deprecated but maintained\n",
    );
    write(
        d,
        "docs/why-mcp.md",
        "# Why MCP\n\nStatus: superseded in part by RFC 2447\n\nThe reasons.\n",
    );
    write(
        d,
        "docs/old-guide.md",
        "# Old guide\n\nSome text.\n\nReplaced by [the new guide](forking.md).\n",
    );
    write(
        d,
        "docs/old-api.md",
        "# Old API\n\nThe old calls.\n\n## Calls\n\n- **Status**: Deprecated\n",
    );
    commit(d, "docs");
    let s = scan(d);
    for quiet in [
        "docs/forking.md",
        "docs/adapters.md",
        "docs/architecture.md",
        "docs/why-mcp.md",
    ] {
        assert!(sigs(&s, quiet).is_empty(), "{quiet}: {:?}", sigs(&s, quiet));
    }
    assert_eq!(
        sigs(&s, "docs/old-guide.md"),
        [pair("superseded-marker", "")]
    );
    // A section's status line is its subject's, list item or not (s29: an upgrade guide's
    // fourteen `**Status:** DEPRECATED - ...`, one per API); in the head it is the page's.
    write(
        d,
        "docs/old-api.md",
        "# Old API\n\nThe old calls.\n\n## Calls\n\nStatus: Deprecated\n",
    );
    commit(d, "section status");
    assert!(sigs(&scan(d), "docs/old-api.md").is_empty());
    write(
        d,
        "docs/old-api.md",
        "# Old API\n\nStatus: Deprecated\n\n## Calls\n\nThe old calls.\n",
    );
    commit(d, "status");
    assert_eq!(
        sigs(&scan(d), "docs/old-api.md"),
        [pair("superseded-marker", "")]
    );
}

/// A finished design moved to a `done/` folder is kept there as its record, like `completed/`;
/// a script's `expected_outputs/` sample is what the script writes. Neither draws status-done
/// or resolved-narrative; the same pages elsewhere do.
#[test]
fn done_folders_and_expected_outputs_are_records() {
    let r = repo();
    let d = &r.root;
    let design = "# Workspace inheritance\n\nstatus: implemented\n\nThe design.\n";
    write(d, "future/done/inheritance.md", design);
    write(d, "future/inheritance.md", design);
    let pir = format!(
        "# Post-incident review\n\n- **Status:** Resolved\n\n## Root Cause\n\n{}\n",
        "The cache expired before the job read it, so every worker refetched at once. ".repeat(30)
    );
    write(d, "skills/incident/expected_outputs/pir.md", &pir);
    write(d, "skills/incident/reports/pir.md", &pir);
    commit(d, "docs");
    let s = scan(d);
    assert!(sigs(&s, "future/done/inheritance.md").is_empty());
    assert!(sigs(&s, "skills/incident/expected_outputs/pir.md").is_empty());
    assert_eq!(sigs(&s, "future/inheritance.md"), [pair("status-done", "")]);
    assert!(
        sigs(&s, "skills/incident/reports/pir.md")
            .iter()
            .any(|(k, _)| k == "resolved-narrative"),
        "{:?}",
        sigs(&s, "skills/incident/reports/pir.md")
    );
}

/// A defining word in a comment's prose ("`(module, NodeId of the member)`") defines nothing:
/// a name qualified by a type the code only mentions (`NodeId::ROOT`, a library's) is not
/// checked. A type the code defines (`struct Span`) still has its missing member reported.
#[test]
fn a_defining_word_in_prose_defines_nothing() {
    let r = repo();
    let d = &r.root;
    write(
        d,
        "src/finalize.rs",
        "/// `(module, NodeId of the member expression)` per plugin.\npub struct Span {\n    pub start: u32,\n}\nfn f(id: NodeId) {}\n",
    );
    write(
        d,
        "docs/ids.md",
        "# Ids\n\n- `NodeId::DUMMY` equals `NodeId::ROOT` (both are `0`).\n- `Span::end` is exclusive.\n",
    );
    commit(d, "code");
    let s = scan(d);
    assert_eq!(
        sigs(&s, "docs/ids.md"),
        [pair("missing-symbol", "Span::end")]
    );
}

/// An open task's new name is what the task will bring in, not a claim about the code: the
/// call after "→" or after "with" in "Replace ... with" on an unchecked item draws nothing. The
/// same name on a checked item, and the old side of an open one, still draw.
#[test]
fn an_open_tasks_new_name_is_no_claim() {
    let r = repo();
    let d = &r.root;
    write(
        d,
        "src/sandbox.py",
        "import subprocess\n\ndef build_filter_prompt():\n    return subprocess.run(['ls'])\n",
    );
    write(
        d,
        "docs/plan.md",
        "# Plan\n\n- [ ] Refactor `src/sandbox.py` → `build_filter_variables()`\n\
         - [ ] Replace `subprocess.run()` with `asyncio.create_subprocess_shell()` in `src/sandbox.py`\n\
         - [ ] Drop `legacy_prompt()` from `src/sandbox.py`\n\
         - [x] Refactor `src/sandbox.py` → `render_filter()`\n",
    );
    commit(d, "plan");
    let mut got = sigs(&scan(d), "docs/plan.md");
    got.sort();
    assert_eq!(
        got,
        [
            pair("missing-symbol", "legacy_prompt"),
            pair("missing-symbol", "render_filter"),
        ]
    );
}

/// Where a copy goes ("Copy `rules/_template.md` to `rules/area-description.md`") and the files
/// a hypothetical skill "might have" are not this repository's; a copy's missing source is.
#[test]
fn a_copys_destination_and_what_a_skill_might_have_are_not_claims() {
    let r = repo();
    let d = &r.root;
    write(d, "skills/demo/rules/_template.md", "# Rule\n");
    write(
        d,
        "skills/demo/README.md",
        "# Demo\n\n1. Copy `rules/_template.md` to `rules/area-description.md`\n\
         2. Copy `rules/_example.md` to `rules/other.md`\n",
    );
    write(
        d,
        "docs/customization/skills.md",
        "# Skills\n\nA deployment skill might have `docs/aws.md`, `docs/gcp.md`, and `docs/azure.md`.\n\n\
         Its settings live in `docs/settings.md`.\n",
    );
    commit(d, "skill");
    let s = scan(d);
    assert_eq!(
        sigs(&s, "skills/demo/README.md"),
        [pair("missing-path", "rules/_example.md")]
    );
    assert_eq!(
        sigs(&s, "docs/customization/skills.md"),
        [pair("missing-path", "docs/settings.md")]
    );
}

/// A case-keeping renderer's heading path (svelte.dev: `### platformProxy` under `## Options` is
/// `#Options-platformProxy`) names that heading; a path the page lacks, and a lowercase
/// fragment no slug matches, still draw.
#[test]
fn a_heading_path_fragment_names_its_heading() {
    let r = repo();
    let d = &r.root;
    write(
        d,
        "documentation/docs/adapter-cloudflare.md",
        "# Cloudflare\n\n## Options\n\n### platformProxy\n\nEmulates bindings.\n\n## Usage\n\nDeploy.\n",
    );
    write(
        d,
        "documentation/docs/adapter-workers.md",
        "# Workers\n\nSee [gone](adapter-cloudflare.md#Options-routes) and \
         [lower](adapter-cloudflare.md#options-platformproxy) and \
         [ok](adapter-cloudflare.md#Options-platformProxy).\n",
    );
    commit(d, "docs");
    let mut got = sigs(&scan(d), "documentation/docs/adapter-workers.md");
    got.sort();
    assert_eq!(
        got,
        [
            pair("missing-anchor", "adapter-cloudflare.md#Options-routes"),
            pair(
                "missing-anchor",
                "adapter-cloudflare.md#options-platformproxy"
            ),
        ]
    );
}

/// A camel-case file name whose first word is made up (`xxxDispatcher.ts`, `someAiAction.js`)
/// is a pattern to fill in, not a file; a real name that starts with such a word's look-alike
/// (`barChart.ts`) and is gone still draws.
#[test]
fn a_made_up_camel_case_name_is_a_pattern() {
    let r = repo();
    let d = &r.root;
    write(d, "src/server/dispatchers/pageDispatcher.ts", "export {}\n");
    write(d, "src/modules/index.js", "export {}\n");
    write(d, "src/charts/lineChart.ts", "export {}\n");
    write(
        d,
        "docs/dev.md",
        "# Dev\n\n- Add a dispatcher in `src/server/dispatchers/xxxDispatcher.ts`.\n\
         - Wrap calls as in `src/modules/someAiAction.js`.\n\
         - Charts live in `src/charts/barChart.ts`.\n",
    );
    commit(d, "docs");
    assert_eq!(
        sigs(&scan(d), "docs/dev.md"),
        [pair("missing-path", "src/charts/barChart.ts")]
    );
}

/// A source file in a language the repository has no file of, that its history never knew, is
/// another codebase's (a Python port's README naming the TypeScript example it follows). A
/// file of that language the repository once had, and a missing file of its own language, are
/// reported.
#[test]
fn another_languages_original_is_not_this_repositorys_file() {
    let r = repo();
    let d = &r.root;
    write(d, "examples/mcp/sse_example/main.py", "print('sse')\n");
    write(d, "tools/build.ts", "export {}\n");
    commit(d, "code");
    git(d, &["rm", "-q", "tools/build.ts"]);
    commit(d, "drop the TypeScript tool");
    write(
        d,
        "examples/mcp/sse_example/README.md",
        "# SSE example\n\nA Python port of `examples/mcp/sse-example.ts`.\n\n\
         Run `examples/mcp/sse_example/server.py` first; the old `tools/build.ts` built it.\n",
    );
    commit(d, "docs");
    let mut got = sigs(&scan(d), "examples/mcp/sse_example/README.md");
    got.sort();
    assert_eq!(
        got,
        [
            pair("missing-path", "examples/mcp/sse_example/server.py"),
            pair("missing-path", "tools/build.ts"),
        ]
    );
}

/// A path in a clause that begins with a condition ("If `docs/a.md` or `docs/b.md` exist,
/// append to it") may be absent by design; the same path stated plainly is a claim.
#[test]
fn a_path_under_a_condition_may_be_absent() {
    let r = repo();
    let d = &r.root;
    write(d, "docs/gotchas.md", "# Gotchas\n");
    write(
        d,
        "docs/process.md",
        "# Recording a gotcha\n\n\
         1. If `docs/compute-gotchas.md` or `docs/ppg-gotchas.md` exist, append to the matching one.\n\
         2. Otherwise append to `docs/gotchas.md`, then link it from `docs/index.md`.\n",
    );
    commit(d, "skill");
    assert_eq!(
        sigs(&scan(d), "docs/process.md"),
        [pair("missing-path", "docs/index.md")]
    );
}

/// Advice to move content into reference files ("Move detailed content to references/:" over
/// "- Detailed patterns → `references/patterns.md`") names where content is to go, not a
/// file the skill has; the files a list says to move from ("Files to move from `pkg/`:") must
/// exist.
#[test]
fn where_advice_moves_content_is_no_claim() {
    let r = repo();
    let d = &r.root;
    write(d, "skills/dev/references/guide.md", "# Guide\n");
    write(
        d,
        "skills/dev/SKILL.md",
        "# Skill development\n\n\
         **Keep SKILL.md lean.** Move detailed content to references/:\n\
         - Detailed patterns → `references/patterns.md`\n\
         - API references -> `references/api-reference.md`\n\n\
         **Files to move from `references/`:**\n\
         - `references/old-notes.md` → `references/guide.md`\n",
    );
    commit(d, "skill");
    assert_eq!(
        sigs(&scan(d), "skills/dev/SKILL.md"),
        [pair("missing-path", "references/old-notes.md")]
    );
}

/// Astro's content collections serve an entry at its lowercased slug: a Starlight page
/// `ui/Forms.mdx` is `/ui/forms`. A route to no page still draws, and a site that keeps the
/// file's case (Docusaurus) does not serve the lowercased route.
#[test]
fn an_astro_page_is_served_at_its_lowercased_slug() {
    let r = repo();
    let d = &r.root;
    write(d, "site/astro.config.mjs", "export default {}\n");
    write(d, "site/src/content/docs/ui/Forms.mdx", "# Forms\n");
    write(
        d,
        "site/src/content/docs/ui/components.mdx",
        "# Components\n\nSee [forms](../forms/), [forms again](/ui/forms) and [tables](/ui/tables).\n",
    );
    write(d, "web/docusaurus.config.js", "module.exports = {}\n");
    write(d, "web/docs/guide/Setup.md", "# Setup\n");
    write(
        d,
        "web/docs/guide/intro.md",
        "# Intro\n\nSee [setup](/guide/setup).\n",
    );
    commit(d, "sites");
    let report = scan(d);
    assert_eq!(
        sigs(&report, "site/src/content/docs/ui/components.mdx"),
        [pair("missing-path", "/ui/tables")]
    );
    assert_eq!(
        sigs(&report, "web/docs/guide/intro.md"),
        [pair("missing-path", "/guide/setup")]
    );
}

/// A Claude Code plugin's skills name the plugin's files from its root (the folder holding
/// `.claude-plugin/plugin.json`): an agent moved from the skill's folder up to the plugin's is
/// still found; one deleted is gone.
#[test]
fn a_plugins_skill_names_files_from_the_plugins_root() {
    let r = repo();
    let d = &r.root;
    write(
        d,
        "plugins/review/.claude-plugin/plugin.json",
        "{\"name\": \"review\"}\n",
    );
    write(d, "plugins/review/agents/README.md", "# Agents\n");
    write(
        d,
        "plugins/review/skills/review/agents/worker.md",
        "# Worker\n",
    );
    write(
        d,
        "plugins/review/skills/review/agents/merger.md",
        "# Merger\n",
    );
    write(
        d,
        "plugins/review/skills/review/SKILL.md",
        "# Review\n\nSpawn `agents/worker.md` for each file, then `agents/merger.md`.\n",
    );
    commit(d, "plugin");
    git(
        d,
        &[
            "mv",
            "plugins/review/skills/review/agents/worker.md",
            "plugins/review/agents/worker.md",
        ],
    );
    git(
        d,
        &["rm", "-q", "plugins/review/skills/review/agents/merger.md"],
    );
    commit(d, "agents belong to the plugin");
    assert_eq!(
        sigs(&scan(d), "plugins/review/skills/review/SKILL.md"),
        [pair("missing-path", "agents/merger.md")]
    );
}

/// A path the text forbids ("Do not add `src/targets/kimi.ts`") or a plan's file list marks
/// for deletion ("`src/exports/index.ts` (delete)", "— delete (the barrel goes)") is meant to
/// be absent; a file the list describes ("— deletes stale branches") is still a claim.
#[test]
fn a_forbidden_file_and_one_a_plan_deletes_are_meant_to_be_absent() {
    let r = repo();
    let d = &r.root;
    write(d, "src/targets/claude.ts", "export {}\n");
    write(d, "src/exports/other.ts", "export {}\n");
    write(d, "scripts/build.sh", "#!/bin/sh\n");
    write(
        d,
        "docs/kimi.md",
        "# Kimi\n\n\
         - Do not add `src/targets/kimi.ts` unless Kimi documents its own format.\n\n\
         ## Files\n\n\
         - `src/exports/index.ts` (delete).\n\
         - `src/exports/barrel.ts` \u{2014} delete (the barrel is going away).\n\
         - `scripts/prune.sh` \u{2014} deletes stale branches.\n",
    );
    commit(d, "docs");
    assert_eq!(
        sigs(&scan(d), "docs/kimi.md"),
        [pair("missing-path", "scripts/prune.sh")]
    );
}

/// A dated brainstorm or research note records its day: the files it named then are not
/// claims about today's tree. The same text in an undated note is.
#[test]
fn a_dated_brainstorm_names_files_as_they_were() {
    let r = repo();
    let d = &r.root;
    write(d, "skills/old/SKILL.md", "# Old\n");
    let note = "# Frontend design\n\nChange `skills/old/SKILL.md` to load the new reference.\n";
    write(d, "docs/brainstorms/2026-03-22-frontend-design.md", note);
    write(d, "docs/research/layout_research_20251021.md", note);
    write(d, "docs/brainstorms/frontend-design.md", note);
    commit(d, "notes");
    git(d, &["rm", "-q", "skills/old/SKILL.md"]);
    write(d, "skills/new/SKILL.md", "# New\n");
    commit(d, "drop the old skill");
    let report = scan(d);
    assert!(sigs(&report, "docs/brainstorms/2026-03-22-frontend-design.md").is_empty());
    assert!(sigs(&report, "docs/research/layout_research_20251021.md").is_empty());
    assert_eq!(
        sigs(&report, "docs/brainstorms/frontend-design.md"),
        [pair("missing-path", "skills/old/SKILL.md")]
    );
}

/// An agent client's configuration file named bare in prose (`settings.json`,
/// `marketplace.json`) is the client's convention, even where git moved this repository's own
/// copy into a dot-folder; a link to it is a claim.
#[test]
fn a_clients_configuration_file_named_bare_is_its_convention() {
    let r = repo();
    let d = &r.root;
    write(d, "settings.json", "{}\n");
    write(d, "marketplace.json", "{}\n");
    write(d, "README.md", "# Setup\n");
    commit(d, "config");
    git(d, &["mv", "settings.json", "notes.json"]);
    write(d, ".claude-plugin/x.txt", "x\n");
    git(d, &["add", "-A"]);
    git(
        d,
        &["mv", "marketplace.json", ".claude-plugin/marketplace.json"],
    );
    write(
        d,
        "README.md",
        "# Setup\n\nClaude Code reads `settings.json`; PRs must not edit `marketplace.json`.\n\
         See [the settings](settings.json).\n",
    );
    commit(d, "move");
    assert_eq!(
        sigs(&scan(d), "README.md"),
        [pair("missing-path", "settings.json")]
    );
}

/// A docs page linked without its extension (`[Features](025_features)`) whose file git
/// ignores by name is one a script writes before the build; a link to a page that is neither
/// there nor ignored by name (only its kind, `*.ipynb`, is) is broken.
#[test]
fn a_link_to_a_generated_ignored_page_is_no_claim() {
    let r = repo();
    let d = &r.root;
    write(d, "docs/_config.yml", "title: Docs\n");
    write(
        d,
        "docs/about/.gitignore",
        "# auto-generated files\n/025_features.md\n*.ipynb\n",
    );
    write(
        d,
        "docs/about/020_languages.md",
        "# Languages\n\nSee [Features](025_features) and [Tools](035_tools).\n",
    );
    commit(d, "docs");
    assert_eq!(
        sigs(&scan(d), "docs/about/020_languages.md"),
        [pair("missing-path", "035_tools")]
    );
}

/// Steps that run in a checkout of another version ("Clone branch `v0.2.36`", then "In
/// `sidebars.js`: ...") name that checkout's files: no signal, and no rename to write. The
/// same file named in a section about this tree is stale.
#[test]
fn steps_in_another_branchs_checkout_name_its_files() {
    let r = repo();
    let d = &r.root;
    write(d, "docs/sidebars.js", "module.exports = {}\n");
    write(d, "docs/README.md", "# Docs\n");
    commit(d, "site");
    git(d, &["mv", "docs/sidebars.js", "docs/sidebars.ts"]);
    commit(d, "typescript");
    write(
        d,
        "docs/ARCHIVING.md",
        "# Archiving\n\n## Build 0.2 sub-site\n\n\
         - Clone branch `v0.2.36` at last commit ea275a3\n\
         - In `sidebars.js`:\n  - Delete the `0.1` sidebar entry\n\n\
         ## Current site\n\n- Add the archive link to `sidebars.js`.\n",
    );
    commit(d, "archiving");
    let report = scan(d);
    let got: Vec<_> = signals(&report, "docs/ARCHIVING.md")
        .into_iter()
        .filter(|s| s["kind"] == "missing-path")
        .map(|s| s["line"].as_u64())
        .collect();
    assert_eq!(got, [Some(11)]);
}

/// A fill-in template's table of contents ("[CONTINUE WITH SECTIONS 5-8 FOLLOWING THE SAME
/// PATTERN]") points at sections its user writes; a page without such an instruction that
/// links to a section it lacks is broken, and so is the template's link into another page.
#[test]
fn a_fill_in_templates_contents_name_sections_to_write() {
    let r = repo();
    let d = &r.root;
    let toc = "# Quality manual\n\n- [4. Scope](#4-scope)\n- [5.1 Commitment](#51-commitment)\n\
               - [Guide](guide.md#missing-part)\n\n## 4. Scope\n\nText.\n\n";
    write(d, "guide.md", "# Guide\n\n## Part\n");
    write(
        d,
        "assets/templates/manual.md",
        &format!("{toc}[CONTINUE WITH SECTIONS 5-8 FOLLOWING THE SAME PATTERN]\n"),
    );
    write(d, "docs/manual.md", toc);
    commit(d, "manual");
    let report = scan(d);
    assert_eq!(
        sigs(&report, "assets/templates/manual.md"),
        [pair("missing-anchor", "guide.md#missing-part")]
    );
    assert_eq!(
        sigs(&report, "docs/manual.md"),
        [
            pair("missing-anchor", "#51-commitment"),
            pair("missing-anchor", "guide.md#missing-part")
        ]
    );
}

/// A Python module path (`agent_framework/__init__.py`) names the module file of the one
/// project whose package it starts with, wherever a monorepo keeps that project; a module the
/// package no longer has is gone.
#[test]
fn a_python_module_path_names_its_projects_file() {
    let r = repo();
    let d = &r.root;
    write(d, "python/pyproject.toml", "[project]\nname = \"af\"\n");
    write(d, "python/agent_framework/__init__.py", "X = 1\n");
    write(d, "python/agent_framework/_legacy.py", "Y = 1\n");
    commit(d, "package");
    std::fs::create_dir_all(d.join("python/packages/core")).unwrap();
    git(
        d,
        &[
            "mv",
            "python/pyproject.toml",
            "python/packages/core/pyproject.toml",
        ],
    );
    git(
        d,
        &[
            "mv",
            "python/agent_framework",
            "python/packages/core/agent_framework",
        ],
    );
    git(
        d,
        &[
            "rm",
            "-q",
            "-f",
            "python/packages/core/agent_framework/_legacy.py",
        ],
    );
    write(
        d,
        "python/CODING_STANDARD.md",
        "# Standard\n\nExport it from `agent_framework/__init__.py`; never from \
         `agent_framework/_legacy.py`.\n",
    );
    commit(d, "monorepo");
    assert_eq!(
        sigs(&scan(d), "python/CODING_STANDARD.md"),
        [pair("missing-path", "agent_framework/_legacy.py")]
    );
}

/// A marker word joined to a word of another script (a Korean particle: "TODO가 포함된 테스트
/// 계획", a test plan with TODOs), an item marked done before it ("- ✅ TODO: integration
/// tests") and a feature named after it ("**TODO Detection**") mark nothing unfinished; a
/// marker that stands in the same script ("TODO：补充示例", full-width colon) still does.
#[test]
fn a_marker_joined_done_or_named_marks_nothing() {
    let r = repo();
    let d = &r.root;
    write(
        d,
        "docs/git-workflow.md",
        "# Git workflow\n\n4. TODO가 포함된 테스트 계획 포함\n",
    );
    write(
        d,
        "docs/title.md",
        "# Title generation\n\n## Tests\n\n- \u{2705} TODO: integration tests with a mocked runtime\n",
    );
    write(
        d,
        "docs/skills.md",
        "# Skill builder\n\n7. **TODO Detection**: ensure completeness before distribution\n",
    );
    write(
        d,
        "docs/examples.md",
        "# Guide\n\n- TODO\u{ff1a}\u{8865}\u{5145}\u{793a}\u{4f8b}\n",
    );
    commit(d, "docs");
    let s = scan(d);
    assert_eq!(
        sigs_of(
            &s,
            &[
                "docs/git-workflow.md",
                "docs/title.md",
                "docs/skills.md",
                "docs/examples.md"
            ]
        ),
        [
            ("docs/git-workflow.md", vec![]),
            ("docs/title.md", vec![]),
            ("docs/skills.md", vec![]),
            ("docs/examples.md", vec![pair("provisional-marker", "")]),
        ]
    );
}

/// A web project's `public/` folder is served at its site's root (Vite, Slidev, Next.js,
/// Nuxt): a slide deck's `![x](/overview.png)` in `slides/pages/` names
/// `slides/public/overview.png`. A rooted link to a file no such folder holds is still missing.
#[test]
fn a_rooted_link_names_the_web_projects_public_file() {
    let r = repo();
    let d = &r.root;
    write(d, "slides/package.json", "{\"name\": \"slides\"}\n");
    write(d, "slides/public/overview.png", "png\n");
    write(
        d,
        "slides/pages/intro.md",
        "# Intro\n\n![overview](/overview.png)\n\n![gone](/removed.png)\n",
    );
    commit(d, "slides");
    assert_eq!(
        sigs(&scan(d), "slides/pages/intro.md"),
        [pair("missing-path", "/removed.png")]
    );
}

/// What a command makes in the reader's project, listed under "**Files Created:**" or
/// "**Expected Output**:" or labelled "Files created:", is its output, not this repository's
/// files; a path under another lead-in ("**Key files:**", "Commit regenerated files ...:") is
/// still a claim, and so is a work log's "Files created:" entry whose file git knew here.
#[test]
fn files_a_run_creates_are_its_output() {
    let r = repo();
    let d = &r.root;
    for f in [
        "src/cli.ts",
        "src/services/db.ts",
        "src/hooks/use-auth.ts",
        "src/routes/users.ts",
        "src/models/User.ts",
    ] {
        write(d, f, "export const run = 1;\n");
    }
    write(
        d,
        "docs/templates.md",
        "# Templates\n\n## React\n\n**Files Created:**\n- `src/services/api.ts` - API services\n- \
         `src/hooks/use-books.ts` - Custom hooks\n\n## Books demo\n\n**Expected Output**:\n- \
         `src/routes/books.ts` - CRUD endpoints\n\n### Execution\n\n- Files created: \
         `src/models/Book.ts`, `src/app.ts`\n\n## This repository\n\n**Key files:**\n- \
         `src/cli.ts` - the entry\n- `src/server.ts` - the server\n\nCommit regenerated \
         files, never edit them by hand:\n\n- `src/models/schema.ts` is generated by `pnpm gen`\n",
    );
    write(d, "src/legacy.ts", "export const old = 1;\n");
    commit(d, "docs");
    git(d, &["rm", "-q", "src/legacy.ts"]);
    write(
        d,
        "notes/session.md",
        "# Session\n\nFiles created:\n- `src/legacy.ts` - the old loader\n",
    );
    commit(d, "drop legacy");
    let s = scan(d);
    assert_eq!(
        sigs(&s, "notes/session.md"),
        [pair("missing-path", "src/legacy.ts")]
    );
    assert_eq!(
        sigs(&s, "docs/templates.md"),
        [
            pair("missing-path", "src/server.ts"),
            pair("missing-path", "src/models/schema.ts")
        ]
    );
}

/// An item a checklist marks done ("- [x] File: `src/catalog.go`", "... ✅ COMPLETED") records
/// the work on the file as it was: once git moved the file, the record is history, not a stale
/// claim. A done item naming a file the tree never had, and a feature's "✅ Complete - Available
/// at `docs/deploy.md`" status after the page moved, are still claims.
#[test]
fn done_items_record_files_as_they_were() {
    let r = repo();
    let d = &r.root;
    write(d, "src/catalog.go", "package catalog\n");
    write(d, "src/catalog_test.go", "package catalog\n");
    write(d, "docs/deploy.md", "# Deploy\n");
    commit(d, "code");
    write(
        d,
        "docs/checklist.md",
        "# Checklist\n\n## Phase 1\n\n**TEST FIRST**: `src/catalog_test.go` \u{2705} COMPLETED\n\n\
         - [x] File: `src/catalog.go`\n- [x] File: `src/loader.go`\n",
    );
    write(
        d,
        "docs/guides.md",
        "# Guides\n\n**Status:** \u{2705} Complete - Available at `docs/deploy.md`\n",
    );
    commit(d, "docs");
    std::fs::create_dir_all(d.join("pkg/catalog")).unwrap();
    std::fs::create_dir_all(d.join("docs/how-to")).unwrap();
    for (from, to) in [
        ("src/catalog.go", "pkg/catalog/catalog.go"),
        ("src/catalog_test.go", "pkg/catalog/catalog_test.go"),
        ("docs/deploy.md", "docs/how-to/deploy.md"),
    ] {
        git(d, &["mv", from, to]);
    }
    commit(d, "move");
    let s = scan(d);
    let missing = |p: &str| -> Vec<(String, String)> { sigs_kind(&s, p, "missing-path") };
    assert_eq!(
        missing("docs/checklist.md"),
        [pair("missing-path", "src/loader.go")]
    );
    assert_eq!(
        missing("docs/guides.md"),
        [pair("missing-path", "docs/deploy.md")]
    );
}

/// A release's notes in a README ("### v1.3.0 — OpenCode support" under "What's New") and a
/// table in a section that records removals ("### Deleted / Retired Files") name files as they
/// were: once git removed them, no claim. The same file named in the README's setup steps, and
/// in a table of another section, is still one.
#[test]
fn release_notes_and_retired_tables_name_files_as_they_were() {
    let r = repo();
    let d = &r.root;
    write(d, "llms.txt", "docs\n");
    write(d, "src/rules/resolver.ts", "export const r = 1;\n");
    write(d, "src/cli.ts", "export const c = 1;\n");
    write(
        d,
        "README.md",
        "# Tool\n\n## What's New\n\n### v1.3.0 \u{2014} OpenCode support\n\n- **Docs** \u{2014} \
         `llms.txt` for OpenCode\n\n## Setup\n\n- Read `llms.txt` first.\n",
    );
    write(
        d,
        "docs/plan.md",
        "# Plan\n\n### Deleted / Retired Files\n\n| File | Reason |\n|---|---|\n| \
         `src/rules/resolver.ts` | Moved to shared |\n\n### Key Files\n\n| File | Role |\n|---|---|\n| \
         `src/cli.ts` | entry |\n| `src/rules/resolver.ts` | resolves |\n",
    );
    commit(d, "files and docs");
    git(d, &["rm", "-q", "llms.txt", "src/rules/resolver.ts"]);
    commit(d, "drop");
    let s = scan(d);
    let lines = |p: &str| -> Vec<u64> {
        signals(&s, p)
            .into_iter()
            .filter(|x| x["kind"] == "missing-path")
            .map(|x| x["line"].as_u64().unwrap())
            .collect()
    };
    assert_eq!(lines("README.md"), [11]);
    assert_eq!(lines("docs/plan.md"), [14]);
}

/// A section's heading that names a folder (`## Utilities Tests (`/utils/`)` in
/// `tests/README.md`, `## MCP Server (`mcp-server/`)` over a table) says where the paths of its
/// list or table are: after `tests/test_parser.py` moved into `tests/utils/` and `src/stocks.ts`
/// into `mcp-server/src/`, the text is right. A file that moved elsewhere is still missing.
#[test]
fn a_heading_that_names_a_folder_roots_its_lists_and_tables() {
    let r = repo();
    let d = &r.root;
    for f in [
        "tests/test_parser.py",
        "tests/test_gone.py",
        "src/stocks.ts",
        "src/kanban.ts",
    ] {
        write(d, f, "x = 1\n");
    }
    write(
        d,
        "tests/README.md",
        "# Tests\n\n## Utilities Tests (`/utils/`)\n\n- `test_parser.py` - parser\n- \
         `test_gone.py` - old\n",
    );
    write(
        d,
        "CLAUDE.md",
        "# Demo\n\n## MCP Server (`mcp-server/`)\n\n| File | Role |\n|---|---|\n| `src/stocks.ts` | \
         data |\n| `src/kanban.ts` | board |\n",
    );
    commit(d, "docs");
    for dir in ["tests/utils", "tests/legacy", "mcp-server/src", "archive"] {
        std::fs::create_dir_all(d.join(dir)).unwrap();
    }
    for (from, to) in [
        ("tests/test_parser.py", "tests/utils/test_parser.py"),
        ("tests/test_gone.py", "tests/legacy/test_gone.py"),
        ("src/stocks.ts", "mcp-server/src/stocks.ts"),
        ("src/kanban.ts", "archive/kanban.ts"),
    ] {
        git(d, &["mv", from, to]);
    }
    commit(d, "move");
    let s = scan(d);
    assert_eq!(
        sigs_of(&s, &["tests/README.md", "CLAUDE.md"]),
        [
            (
                "tests/README.md",
                vec![pair("missing-path", "test_gone.py")]
            ),
            ("CLAUDE.md", vec![pair("missing-path", "src/kanban.ts")]),
        ]
    );
}

/// A supersession notice that says the document stays on purpose ("Superseded (2026-07-21).
/// ... Kept as the historical record.") is its maintainers' decision, not a leftover; a notice
/// that points elsewhere and says no more still marks the document superseded.
#[test]
fn a_notice_that_keeps_the_document_on_purpose_is_no_leftover() {
    let r = repo();
    let d = &r.root;
    write(
        d,
        "docs/benchmark.md",
        "# Current benchmark\n\nLuna at xhigh.\n",
    );
    write(
        d,
        "docs/plans/peer-benchmark.md",
        "# Peer benchmark\n\n> **Superseded (2026-07-21).** This write-up priced cost in tokens; \
         see\n> `docs/benchmark.md` for the current recommendation. Kept as the historical \
         record.\n\n## Results\n\nTerra was cheaper.\n",
    );
    write(
        d,
        "docs/plans/old-plan.md",
        "# Old plan\n\n> **Superseded** by `docs/benchmark.md`.\n\n## Steps\n\nRun it.\n",
    );
    commit(d, "docs");
    let s = scan(d);
    let superseded = |p: &str| sigs_kind(&s, p, "superseded-marker").len();
    assert_eq!(superseded("docs/plans/peer-benchmark.md"), 0);
    assert_eq!(superseded("docs/plans/old-plan.md"), 1);
}

/// Uniform sample s26 (claude-code-plugins-plus): a changelog under a numbered name
/// (`000-docs/247-OD-CHNG-changelog.md`) files each release's notes in sections below the
/// release's heading (`## [1.2.0] - 2025-10-20`, then `### Documentation`). The docs that
/// release shipped, named as they were, are history; the same deleted doc in a section under
/// no release is still missing, and so is a link in a release's "### Links", which a reader
/// follows.
#[test]
fn a_release_headings_subsections_are_its_notes() {
    let r = repo();
    let d = &r.root;
    write(d, "docs/GUIDE.md", "# Guide\n");
    write(d, "docs/TODO.md", "# Todo\n");
    write(
        d,
        "notes/247-changelog.md",
        "# Changelog\n\n## [1.2.0] - 2025-10-20\n\n### Documentation\n\n- `docs/GUIDE.md` - \
         the guide\n\n#### Details\n\n- `docs/TODO.md` - the backlog\n\n## Maintenance\n\n\
         ### Documentation\n\n- `docs/TODO.md` - read it first\n\n## [1.1.0]\n\n### \
         Links\n\n- [The guide](../docs/GUIDE.md)\n",
    );
    commit(d, "docs");
    git(d, &["rm", "-q", "docs/GUIDE.md", "docs/TODO.md"]);
    commit(d, "drop private docs");
    let s = scan(d);
    let lines: Vec<u64> = signals(&s, "notes/247-changelog.md")
        .into_iter()
        .filter(|x| x["kind"] == "missing-path")
        .map(|x| x["line"].as_u64().unwrap())
        .collect();
    assert_eq!(lines, [17, 23], "{s:#}");
}

/// Uniform sample s26: a plan's files to add ("- [ ] Add `cli/migrate.ts` implementing the
/// verb", "`test/re-export.test.ts` (new; parity)"), a section of what is "deliberately not
/// built yet", a step that pastes output into a file the run makes, and an example's note that
/// it "previously used `mcp.json`" are not claims that the files exist. A step that reads a
/// file the tree lacks still is one.
#[test]
fn files_to_add_and_files_it_used_to_use_are_no_claims() {
    let r = repo();
    let d = &r.root;
    write(d, "src/lib.ts", "export const a = 1;\n");
    write(
        d,
        "docs/plan.md",
        "# Plan\n\n## Steps\n\n- [ ] Add `cli/migrate.ts` implementing the verb.\n- \
         `test/re-export.test.ts` (new; parity assertion).\n- [ ] Read `scripts/check.sh` \
         first.\n\n## What's next (deliberately not built yet)\n\n- `scenarios/presets.ts` for \
         more variety\n",
    );
    write(
        d,
        "skills/design/SKILL.md",
        "---\nname: design\ndescription: d\n---\n\n1. **SAVE**: Paste the code block into \
         `scripts/code-output.txt`.\n",
    );
    write(
        d,
        "examples/agent/README.md",
        "# Agent\n\n> This example previously used `mcp.json` to wire servers; they are \
         workspace tools now.\n",
    );
    write(d, "examples/agent/main.py", "print(1)\n");
    write(d, "skills/design/scripts/run.py", "print(1)\n");
    // Each named file lived here once, beside a file that stays: history knows them all.
    let gone = [
        "cli/migrate.ts",
        "test/re-export.test.ts",
        "scenarios/presets.ts",
        "examples/agent/mcp.json",
        "scripts/check.sh",
    ];
    for f in gone {
        write(d, f, "x\n");
        let (dir, _) = f.rsplit_once('/').unwrap();
        write(d, &format!("{dir}/kept.txt"), "x\n");
    }
    commit(d, "docs");
    let mut rm = vec!["rm", "-q"];
    rm.extend(gone);
    git(d, &rm);
    commit(d, "drop them");
    let s = scan(d);
    let refs = |p: &str| refs_kind(&s, p, "missing-path");
    let none: Vec<String> = Vec::new();
    assert_eq!(
        [
            refs("docs/plan.md"),
            refs("skills/design/SKILL.md"),
            refs("examples/agent/README.md")
        ],
        [vec!["scripts/check.sh".to_string()], none.clone(), none],
        "{s:#}"
    );
}

/// Uniform sample s26 (Archon, Comfy-Org/docs, promptflow): an absolute path into a
/// dot-folder (`/.archon/archon.db` inside a container, though the repository keeps its own
/// `.archon/` commands; `/.github/workflows/publish.yml` of the reader's repository) is a
/// machine's file, and a scaffold's README names `flow.dag.yaml`, which its
/// `flow.dag.yaml.jinja2` renders in the project it makes. A rooted dot-folder file history
/// knew here, and a link next to the template that nothing renders, are still missing.
#[test]
fn a_machines_paths_and_rendered_files_are_no_claims() {
    let r = repo();
    let d = &r.root;
    write(d, ".archon/commands/plan.md", "# Plan\n");
    write(d, ".archon/config.yaml", "a: 1\n");
    write(d, "scaffold/template/flow.dag.yaml.jinja2", "nodes: []\n");
    commit(d, "tool");
    git(d, &["rm", "-q", ".archon/config.yaml"]);
    commit(d, "drop config");
    write(
        d,
        "docs/deploy.md",
        "# Deploy\n\nThe container keeps its database at `/.archon/archon.db`; copy \
         `/.github/workflows/publish.yml` into your repository. The old `/.archon/config.yaml` \
         set the port.\n",
    );
    write(
        d,
        "scaffold/files/README.md",
        "# Chat flow\n\nSee [the flow](flow.dag.yaml) and [the notes](notes.yaml).\n",
    );
    commit(d, "docs");
    let s = scan(d);
    let refs = |p: &str| refs_kind(&s, p, "missing-path");
    assert_eq!(refs("docs/deploy.md"), ["/.archon/config.yaml"], "{s:#}");
    assert_eq!(refs("scaffold/files/README.md"), ["notes.yaml"], "{s:#}");
}

/// Uniform sample s26 (compound-engineering-plugin, deer-flow): a plan whose head says it
/// stays ("> Superseded ... Kept as the historical record.", "Status: implemented in PR #4279
/// and retained as the design record requested during review") is its maintainers' record:
/// no served question for the model. A plan that says so only of a section deep in its text
/// ("Original list, kept for the record"), and one that says nothing, are still asked about.
#[test]
fn a_plan_that_says_it_is_kept_is_not_asked_about() {
    let r = repo();
    let d = &r.root;
    write(
        d,
        "docs/plans/eval.md",
        "# Eval\n\n> **Superseded (2026-07-21).** See the benchmark. Kept as the historical \
         record.\n\n## Results\n\nTerra was cheaper.\n",
    );
    write(
        d,
        "docs/plans/storage.md",
        "# Storage rewrite\n\n> Status: implemented in PR #4279 and retained as the design record \
         requested during review.\n\n## Design\n\nOne table.\n",
    );
    let deep = format!(
        "# Machines\n\n{}## Phase 5\n\nOriginal list, kept for the record:\n\n1. A\n",
        "Some line.\n\n".repeat(15)
    );
    write(d, "docs/plans/machines.md", &deep);
    write(
        d,
        "docs/plans/auth.md",
        "# Auth\n\n## Steps\n\n1. Change the code.\n",
    );
    commit(d, "plans");
    let s = scan(d);
    let asked = docs_with_kind(&s, "lifecycle");
    assert_eq!(
        asked,
        ["docs/plans/auth.md", "docs/plans/machines.md"],
        "{s:#}"
    );
}

/// Held-out (sveltekit): `documentation/docs/`'s folders carry ordering prefixes and svelte.dev
/// serves its pages flat under `/docs/kit/` by their names without them. So `./faq` in
/// `25-build-and-deploy/70-adapter-cloudflare-workers.md` is `60-appendix/10-faq.md`, and
/// `../svelte/svelte-head` is the Svelte section of the same site. A name no page of the
/// collection has, and a climb into a folder the collection has, are still checked.
#[test]
fn a_numbered_collections_relative_routes_are_its_sites() {
    let r = repo();
    let d = &r.root;
    write(d, "documentation/docs/60-appendix/10-faq.md", "# FAQ\n");
    write(d, "documentation/docs/20-core/20-load.md", "# Load\n");
    write(
        d,
        "documentation/docs/25-deploy/70-workers.md",
        "# Workers\n\nSee [the FAQ](./faq), [load](./load), [the head](../svelte/svelte-head), \
         [gone](./gone) and [core](../20-core/gone).\n",
    );
    commit(d, "docs");
    let s = scan(d);
    let refs = refs_kind(
        &s,
        "documentation/docs/25-deploy/70-workers.md",
        "missing-path",
    );
    assert_eq!(refs, ["../20-core/gone", "./gone"], "{s:#}");
}

/// Held-out (tensorzero): a configuration reference whose example writes credential locations
/// as strings (`api_key_location = "dynamic::relay_api_key"`) spells that syntax in prose with
/// placeholders (`dynamic::CREDENTIALS_ARGUMENT_NAME`): a value, not a path into the code, even
/// where the source has a `dynamic` module. The same name in a page with no such value is
/// still reported.
#[test]
fn a_configurations_value_syntax_is_not_a_code_path() {
    let r = repo();
    let d = &r.root;
    write(
        d,
        "src/dynamic.rs",
        "pub mod dynamic {\n    pub fn resolve() {}\n}\n",
    );
    write(
        d,
        "docs/config.md",
        "# Config\n\nSee `src/dynamic.rs`. The supported locations are \
         `dynamic::CREDENTIALS_ARGUMENT_NAME` and `sdk`.\n\n```toml\napi_key_location = \
         \"dynamic::relay_api_key\"\n```\n",
    );
    write(
        d,
        "docs/design.md",
        "# Design\n\nSee `src/dynamic.rs`: call `dynamic::RESOLVE_ALL`.\n",
    );
    commit(d, "code");
    let s = scan(d);
    assert_eq!(
        sigs_of(&s, &["docs/config.md", "docs/design.md"]),
        [
            ("docs/config.md", vec![]),
            (
                "docs/design.md",
                vec![pair("missing-symbol", "dynamic::RESOLVE_ALL")]
            ),
        ]
    );
}

/// Held-out (temporal): an architecture note titles callouts with the marker alone and writes
/// the note out below it ("> #### TODO" over "> The ADMITTED stage is still rejected by the
/// handler."): a note on work the code owes, not a part of the page left to write. A callout
/// titled TODO with nothing under it, and a section headed TODO, still are.
#[test]
fn a_callout_titled_with_a_marker_is_a_written_note() {
    let r = repo();
    let d = &r.root;
    write(
        d,
        "docs/architecture/update.md",
        "# Update\n\nThe stages are admitted and accepted.\n\n> #### TODO\n> The ADMITTED stage \
         is still rejected by the handler.\n\nMore text.\n",
    );
    write(
        d,
        "docs/architecture/queue.md",
        "# Queue\n\nThe queue holds tasks.\n\n> #### TODO\n>\n\nMore text.\n",
    );
    write(
        d,
        "docs/architecture/protocol.md",
        "# Protocol\n\nMessages.\n\n## TODO\n\nWrite the section on ordering.\n",
    );
    commit(d, "docs");
    let s = scan(d);
    let marked = |p: &str| sigs_kind(&s, p, "provisional-marker").len();
    assert_eq!(
        [
            marked("docs/architecture/update.md"),
            marked("docs/architecture/queue.md"),
            marked("docs/architecture/protocol.md")
        ],
        [0, 1, 1],
        "{s:#}"
    );
}

/// Held-out (cline, trpc, autogen): a README ends with "## TODO" over a task list ("- [ ] SSE
/// subscriptions"): a backlog the page keeps of work the project owes, not a part of the page
/// left to write. A "## TODO" over prose or over a plain list still marks the page.
#[test]
fn a_marker_heading_over_a_task_list_is_a_backlog() {
    let r = repo();
    let d = &r.root;
    write(
        d,
        "packages/openapi/README.md",
        "# OpenAPI\n\nServes the router as OpenAPI.\n\n## TODO\n\n- [ ] SSE subscriptions\n\
         - [ ] non-json content types\n- [x] query parameters\n",
    );
    write(
        d,
        "docs/environment.md",
        "# Environment\n\nThe environments.\n\n## TODO\n\n- add the android assistant\n\
         - migrate the werewolf roles\n",
    );
    write(
        d,
        "docs/protocol.md",
        "# Protocol\n\nMessages.\n\n## TODO\n\nWrite the section on ordering.\n",
    );
    commit(d, "docs");
    let s = scan(d);
    let marked = |p: &str| sigs_kind(&s, p, "provisional-marker").len();
    assert_eq!(
        [
            marked("packages/openapi/README.md"),
            marked("docs/environment.md"),
            marked("docs/protocol.md")
        ],
        [0, 1, 1],
        "{s:#}"
    );
}

/// Held-out (everything-claude-code, continue): the repository once committed its own
/// `.claude/settings.json` and `.cursor/mcp.json` and removed them; its guides go on naming them
/// as the reader's project's files ("hooks are read from `.claude/settings.json`", "the
/// installer writes `.cursor/mcp.json`"). In code, a client's configuration file at its place
/// is no claim, nor is a tool's state file that comes and goes (ai, astro: Changesets'
/// `.changeset/pre.json`); a link to one, and another removed file of the same folder, still
/// are.
#[test]
fn a_clients_configuration_files_are_the_readers() {
    let r = repo();
    let d = &r.root;
    write(d, ".claude/settings.json", "{}\n");
    write(d, ".claude/hooks.json", "{}\n");
    write(d, ".claude/agents/review.md", "# Review\n");
    write(d, ".cursor/mcp.json", "{}\n");
    write(d, ".cursor/rules/style.mdc", "Style.\n");
    write(d, ".changeset/config.json", "{}\n");
    write(d, ".changeset/pre.json", "{\"mode\": \"pre\"}\n");
    commit(d, "config");
    git(
        d,
        &[
            "rm",
            "-q",
            ".claude/settings.json",
            ".claude/hooks.json",
            ".cursor/mcp.json",
            ".changeset/pre.json",
        ],
    );
    commit(d, "drop local config");
    write(
        d,
        "docs/hooks.md",
        "# Hooks\n\nHooks are read from `.claude/settings.json` in your project; the installer \
         writes `.cursor/mcp.json`; `changeset pre exit` removes `.changeset/pre.json`. Our old \
         `.claude/hooks.json` listed them, and \
         [the settings](../.claude/settings.json) showed an example.\n",
    );
    commit(d, "docs");
    let s = scan(d);
    let mut got = refs_kind(&s, "docs/hooks.md", "missing-path");
    got.sort();
    assert_eq!(
        got,
        ["../.claude/settings.json", ".claude/hooks.json"],
        "{s:#}"
    );
}

/// Uniform sample s27 (vscode-copilot-chat): a test scenario's sample pages
/// (`test/scenarios/test-scenario-search/example-files/foo.md`, the Markdown a search-and-replace
/// scenario edits) link images that were never there: inputs a test reads, not claims. The
/// scenarios' README still claims its links.
#[test]
fn a_test_scenarios_sample_pages_are_its_inputs() {
    let r = repo();
    let d = &r.root;
    write(
        d,
        "test/scenarios/search/run.test.ts",
        "test('search', () => {});\n",
    );
    write(
        d,
        "test/scenarios/search/example-files/foo.md",
        "# Foo\n\n![a picture](image/sample.png)\n\nSome text to replace.\n",
    );
    write(
        d,
        "test/scenarios/README.md",
        "# Scenarios\n\nEach folder holds a scenario; see [the runner](runner.ts).\n",
    );
    commit(d, "tests");
    let s = scan(d);
    let refs = |p: &str| refs_kind(&s, p, "missing-path");
    assert!(
        refs("test/scenarios/search/example-files/foo.md").is_empty(),
        "{s:#}"
    );
    assert_eq!(refs("test/scenarios/README.md"), ["runner.ts"], "{s:#}");
}

/// Uniform sample s27 (basic-memory, pipecat): a guide captions example files with their
/// path alone over a code block ("**`specs/auth-design.md`:**" over a note's frontmatter,
/// "`changelog/1234.added.md`" over a changelog fragment): the file the block shows, an
/// example's, when history never knew it here. A caption of a file git removed, and a path in a
/// sentence, are still claims.
#[test]
fn a_path_captioning_a_code_block_is_the_examples_file() {
    let r = repo();
    let d = &r.root;
    write(d, "specs/overview.md", "# Specs\n");
    write(d, "changelog/README.md", "# Fragments\n");
    write(d, "specs/old-search.md", "# Old\n");
    commit(d, "specs");
    git(d, &["rm", "-q", "specs/old-search.md"]);
    commit(d, "drop old search");
    write(
        d,
        "docs/metadata.md",
        "# Metadata\n\n## Examples\n\n**`specs/auth-design.md`:**\n\n```markdown\n---\ntitle: \
         Auth\n---\n```\n\n- `changelog/1234.added.md`\n  ```\n  Added a thing.\n  ```\n\n\
         **`specs/old-search.md`:**\n\n```markdown\n# Old\n```\n\nThe design is in \
         `specs/search-design.md`.\n",
    );
    commit(d, "docs");
    let s = scan(d);
    let mut got = refs_kind(&s, "docs/metadata.md", "missing-path");
    got.sort();
    assert_eq!(
        got,
        ["specs/old-search.md", "specs/search-design.md"],
        "{s:#}"
    );
}

/// Uniform sample s27 (dyad): the app bundles its agent's guides with a raw import one folder
/// up (`import guide from "./guides/add-authentication.md?raw"`), so a guide's
/// `src/components/AuthProvider.tsx` is the generated app's file, not this repository's. A
/// guide no program imports keeps its claims.
#[test]
fn a_page_a_program_imports_from_its_folder_is_its_input() {
    let r = repo();
    let d = &r.root;
    write(
        d,
        "src/prompts/neon_prompt.ts",
        "import addAuthenticationGuide from \"./guides/add-authentication.md?raw\";\n\
         export const guides = [addAuthenticationGuide];\n",
    );
    write(
        d,
        "src/prompts/guides/add-authentication.md",
        "## Auth\n\nThe provider lives in `src/components/AuthProvider.tsx`; wrap the app in it.\n",
    );
    write(
        d,
        "src/prompts/guides/add-billing.md",
        "## Billing\n\nThe provider lives in `src/components/BillingProvider.tsx`; wrap the app in it.\n",
    );
    write(
        d,
        "src/components/Button.tsx",
        "export const Button = () => null;\n",
    );
    commit(d, "prompts");
    let s = scan(d);
    let refs = |p: &str| refs_kind(&s, p, "missing-path");
    assert!(
        refs("src/prompts/guides/add-authentication.md").is_empty(),
        "{s:#}"
    );
    assert_eq!(
        refs("src/prompts/guides/add-billing.md"),
        ["src/components/BillingProvider.tsx"],
        "{s:#}"
    );
}

/// Held-out (TaskWeaver, router, goreleaser): a docs site's page ticks a list for the eye ("- [x]
/// **Rich data structure**", a how-to's best-practices checklist): the page's presentation,
/// not a plan whose work is done. The same list in a plan outside the site, and in a site's
/// `todo.md` (vitest's), still asks.
#[test]
fn a_site_pages_ticked_list_is_its_presentation() {
    let r = repo();
    let d = &r.root;
    write(d, "website/astro.config.mjs", "export default {};\n");
    let ticked = "- [x] **Rich data structure**: work with tables\n- [x] **Stateful**: keeps \
                  the conversation\n- [x] **Plugins**: call your code\n";
    write(
        d,
        "website/src/content/docs/overview.md",
        &format!("# Overview\n\nHighlights:\n\n{ticked}"),
    );
    write(
        d,
        "notes/rollout.md",
        &format!("# Rollout\n\nSteps:\n\n{ticked}"),
    );
    write(
        d,
        "website/src/content/docs/todo.md",
        &format!("# Remove UnoCSS - Migration Complete\n\n{ticked}"),
    );
    commit(d, "docs");
    let s = scan(d);
    assert_eq!(
        docs_with_kind(&s, "checklist-complete"),
        ["notes/rollout.md", "website/src/content/docs/todo.md"],
        "{s:#}"
    );
}

/// Held-out (cloudflare-agents, TypeAgent): a design document says "**Status:** implemented."
/// above its design: the design's state, as an ADR's "Accepted" is, not a finished plan to
/// archive. A plan in the same folder, and a status page elsewhere, still ask.
#[test]
fn a_design_records_status_is_its_state() {
    let r = repo();
    let d = &r.root;
    let done = "**Status:** implemented.\n\n## Design\n\nOne queue per session.\n";
    write(
        d,
        "design/think-sessions.md",
        &format!("# Think sessions\n\n{done}"),
    );
    write(
        d,
        "docs/architecture/rollout-plan.md",
        &format!("# Rollout plan\n\n{done}"),
    );
    write(d, "notes/queue.md", &format!("# Queue\n\n{done}"));
    commit(d, "docs");
    let s = scan(d);
    assert_eq!(
        docs_with_kind(&s, "status-done"),
        ["docs/architecture/rollout-plan.md", "notes/queue.md"],
        "{s:#}"
    );
}

/// Held-out (Verba, h3, inspector): "Please note that the tests are WIP", "Built-in support of
/// WebSockets in h3 v2 is WIP", "The dialogs themselves are TBD": after a copula the word
/// states its subject's status (the test suite's, a feature's), not a part of the page left to
/// write. A label's value ("Owner: TBD") still marks the page.
#[test]
fn a_status_stated_of_a_subject_is_no_marker() {
    let r = repo();
    let d = &r.root;
    write(
        d,
        "CONTRIBUTING.md",
        "# Contributing\n\nWe use pytest. Please note that the tests are WIP and some are \
         missing.\n\n> Built-in support of WebSockets in v2 is WIP.\n",
    );
    write(
        d,
        "docs/release.md",
        "# Release\n\nOwner: TBD\n\nCut the tag.\n",
    );
    commit(d, "docs");
    let s = scan(d);
    assert_eq!(
        docs_with_kind(&s, "provisional-marker"),
        ["docs/release.md"],
        "{s:#}"
    );
}

/// Uniform sample s27b (router, CopilotKit, cloudflare-agents): a guide drafted in
/// `how-to/drafts/search.draft.md` is titled "# DRAFT: ...", a sketch in `wip/` leaves "details
/// TBD": unfinished by where they are kept, not published pages left unfinished. The same
/// marker in a published guide still counts.
#[test]
fn a_drafts_marker_is_what_it_is() {
    let r = repo();
    let d = &r.root;
    write(
        d,
        "docs/how-to/drafts/search.draft.md",
        "# DRAFT: Build search filters\n\nSteps to come.\n",
    );
    write(
        d,
        "wip/sub-agents.md",
        "# Sub-agent events\n\nMigration is tractable (details TBD).\n\nTBD: the schema.\n",
    );
    write(
        d,
        "docs/how-to/search.md",
        "# Build search filters\n\nTBD: the schema.\n",
    );
    commit(d, "docs");
    let s = scan(d);
    assert_eq!(
        docs_with_kind(&s, "provisional-marker"),
        ["docs/how-to/search.md"],
        "{s:#}"
    );
}

/// A relative link in a backed-up pack's README (`[Troubleshooting](TROUBLESHOOTING.md)`) meant
/// the pack's own `docs/TROUBLESHOOTING.md`, not the root's page renamed to
/// `000-docs/157-troubleshooting.md`: the link is still missing, but no rename is claimed for
/// it. A template whose link the root's renamed file answers (no file of the name in its folder)
/// keeps its `renamed_to`.
#[test]
fn a_packs_link_is_not_the_roots_renamed_page() {
    let r = repo();
    let d = &r.root;
    write(
        d,
        "TROUBLESHOOTING.md",
        "# Troubleshooting\n\nCommon issues.\n",
    );
    write(
        d,
        "docs/lifecycle.md",
        "# Lifecycle\n\nHow a worker lives.\n",
    );
    commit(d, "docs");
    std::fs::create_dir_all(d.join("000-docs")).unwrap();
    git(
        d,
        &[
            "mv",
            "TROUBLESHOOTING.md",
            "000-docs/157-troubleshooting.md",
        ],
    );
    std::fs::create_dir_all(d.join("docs/concepts")).unwrap();
    git(
        d,
        &["mv", "docs/lifecycle.md", "docs/concepts/lifecycle.md"],
    );
    commit(d, "file the docs");
    write(
        d,
        "backups/pack_20251020/README.md",
        "# Pack\n\n- [Troubleshooting](TROUBLESHOOTING.md)\n",
    );
    write(
        d,
        "backups/pack_20251020/docs/TROUBLESHOOTING.md",
        "# Troubleshooting\n\nPack issues.\n",
    );
    write(
        d,
        "templates/worker-CLAUDE.md",
        "# Worker\n\nSee [the lifecycle](docs/lifecycle.md).\n",
    );
    commit(d, "pack backup and worker template");
    let s = scan(d);
    let renamed = |doc: &str| common::fixture::renames(&s, doc);
    assert_eq!(
        renamed("backups/pack_20251020/README.md"),
        [("TROUBLESHOOTING.md".to_string(), String::new())],
        "{s:#}"
    );
    assert_eq!(
        renamed("templates/worker-CLAUDE.md"),
        [(
            "docs/lifecycle.md".to_string(),
            "docs/concepts/lifecycle.md".to_string()
        )],
        "{s:#}"
    );
}

/// A folder's tracker (`STATUS.md` beside the plan it tracks) that still lists open work (a
/// `not started` row, an unchecked box) is not a served plan to ask about, nor is a plan beside
/// it; one whose items are all done still is, and so are the plans beside it.
#[test]
fn a_tracker_with_open_items_has_not_served() {
    let r = repo();
    let d = &r.root;
    write(
        d,
        "docs/plans/output/STATUS.md",
        "# Status\n\n| Item | Status |\n|---|---|\n| 1a | done |\n| 8a | not started |\n",
    );
    write(
        d,
        "docs/plans/actions/STATUS.md",
        "# Status\n\n- [ ] **Phase 1** link the actions\n- [ ] **Phase 2** new actions\n",
    );
    write(
        d,
        "docs/plans/devx/STATUS.md",
        "# Status\n\n| Item | Status |\n|---|---|\n| 1a | done |\n| 1b | done |\n",
    );
    // A plan beside an open tracker is part of that live work (s32: TypeAgent's grammar-tools
    // chunks, 5 of 7 judged false); beside a closed one it is asked about.
    write(
        d,
        "docs/plans/output/05-web-app.md",
        "# Web app\n\nTrack G.\n",
    );
    write(d, "docs/plans/devx/01-core.md", "# Core\n\nTrack A.\n");
    commit(d, "plans");
    let s = scan(d);
    assert_eq!(
        docs_with_kind(&s, "lifecycle"),
        ["docs/plans/devx/01-core.md", "docs/plans/devx/STATUS.md"],
        "{s:#}"
    );
}

/// A golden file (`scripts/goldens/mixed_input.md`, the input a test feeds a sanitizer) holds
/// its TODO on purpose: it is test data, not a page to finish. The skill's own page with a TODO
/// still draws the marker.
#[test]
fn a_golden_files_todo_is_its_test_data() {
    let r = repo();
    let d = &r.root;
    write(
        d,
        ".claude/skills/fix-issue/scripts/goldens/mixed_input.md",
        "# Issue\n\nSteps.\n\n<!-- TODO: strip me -->\nTODO: keep me\n",
    );
    write(
        d,
        ".claude/skills/fix-issue/guide.md",
        "# Fix an issue\n\nTODO: describe the sanitizer.\n",
    );
    commit(d, "skill");
    let s = scan(d);
    assert_eq!(
        docs_with_kind(&s, "provisional-marker"),
        [".claude/skills/fix-issue/guide.md"],
        "{s:#}"
    );
}

/// Resolved items of a document that keeps them (s29, judged false on genkit, claude-mem,
/// TypeAgent, prisma, cloudflare-agents, claude-code-plugins-plus): a status in one list
/// item below the head (a security advisory's `- **Status:** RESOLVED` beside its
/// `- **Severity:**`; an answered open question's indented `**Resolved:**`), a document that
/// says it keeps its history ("The original problem statement stands as historical context"),
/// and a roadmap or an audit, which lists its items with their states. A known issue fixed
/// long ago, still listed under "Known Issues", still draws the signal.
#[test]
fn resolved_items_of_a_kept_record_are_no_write_up() {
    let r = repo();
    let d = &r.root;
    let story = investigation();
    write(
        d,
        "SECURITY.md",
        &format!(
            "# Security Policy\n\n{story}\n\n## Audit History\n\n### 2025-12-16: Injection\n\
             - **Severity:** CRITICAL\n- **Status:** RESOLVED\n- **Fixed In:** 1.2\n"
        ),
    );
    write(
        d,
        "docs/ir-v2.md",
        &format!(
            "# Workflow IR\n\n{story}\n\n## Open questions\n\n1. **Cancellation.** What \
             happens to running branches?\n   **Resolved:** Cancel them on first failure.\n"
        ),
    );
    write(
        d,
        "docs/gaps.md",
        &format!(
            "# Framework gaps\n\n{story}\n\n### G10 - AbortSignal\n\n> **Status: Resolved \
             (2026-04-30).** ADR 207 lands it. The original problem statement stands as \
             historical context.\n\n**Original symptom.** A cancelled query completes.\n"
        ),
    );
    write(
        d,
        "ROADMAP.md",
        &format!("# Roadmap to 8.0\n\n{story}\n\n## 6. Rough edges\n\nResolved: the warning was closed.\n"),
    );
    write(
        d,
        "docs/phase0-audit.md",
        &format!("# Phase 0 audit\n\n{story}\n\n### Issue: install box\n\n**Status**: FIXED in PR #195\n"),
    );
    write(
        d,
        "integrations/mcp/README.md",
        &format!(
            "# MCP server\n\n{story}\n\n## Known Issues\n\n### Tools not loading\n\n\
             **Status:** Fixed in v0.24.0+\n\nThe server now starts before the client.\n"
        ),
    );
    commit(d, "docs");
    let s = scan(d);
    assert_eq!(
        docs_with_kind(&s, "resolved-narrative"),
        ["integrations/mcp/README.md"],
        "{s:#}"
    );
}

/// Supersession notices that are not the document's (s29, judged false on awesome-copilot,
/// mcp-use, claude-code-plugins-plus): an upgrade guide's section status (`**Status:**
/// DEPRECATED - Property will be removed`, one API's), a "Deprecated." at the head of an API's
/// reference page (the API's, while it ships), and a successor named by an id no file has
/// (`Superseded By: 6767-h`: never written, the standard stands). A status in the head, a
/// guide's own "Deprecated:" and a successor that exists still draw it.
#[test]
fn supersession_of_a_section_an_api_or_by_nothing_is_not_the_documents() {
    let r = repo();
    let d = &r.root;
    write(
        d,
        "instructions/upgrade.md",
        "# Upgrade to 10\n\nThis guide lists the changes.\n\n## Deprecated APIs\n\n### \
         MainPage\n\n**Status:** DEPRECATED - Property will be removed in 11.\n",
    );
    write(
        d,
        "docs/api-reference/server/helpers.mdx",
        "# Response helpers\n\n**Deprecated.** Prefer raw envelopes. These helpers remain for \
         upgrade compatibility.\n",
    );
    write(
        d,
        "docs/standards/6767-c-extensions.md",
        "# Extensions standard\n\n**Status**: CANONICAL\n**Superseded By**: 6767-h (master \
         spec)\n\n## Rules\n\nOne.\n",
    );
    write(
        d,
        "docs/standards/6767-a-plugins.md",
        "# Plugins standard\n\n**Superseded By**: 6767-c (extensions)\n\n## Rules\n\nOne.\n",
    );
    write(
        d,
        "docs/tools/interpreter.mdx",
        "# Code interpreter\n\n**Deprecated:** `Interpreter` has been removed from the \
         package.\n",
    );
    write(
        d,
        "docs/specs/typed-flow.md",
        "# Typed flow\n\n> **Status: SUPERSEDED.** See the class-based design.\n\n## Goal\n\nx\n",
    );
    write(
        d,
        "docs/brainstorms/2026-06-19-surface-cut-requirements.md",
        "# Cut\n",
    );
    for (plan, by) in [
        ("a", "2026-06-19-surface-cut"),
        ("b", "2026-07-01-never-written"),
    ] {
        write(
            d,
            &format!("docs/plans/{plan}-plan.md"),
            &format!("---\nstatus: active\nsuperseded_by: \"{by}\"\n---\n\n# Plan\n\nSteps.\n"),
        );
    }
    commit(d, "docs");
    let s = scan(d);
    assert_eq!(
        docs_with_kind(&s, "superseded-marker"),
        [
            "docs/plans/a-plan.md",
            "docs/specs/typed-flow.md",
            "docs/standards/6767-a-plugins.md",
            "docs/tools/interpreter.mdx"
        ],
        "{s:#}"
    );
}

/// A Copilot instructions file outside `.github/` (awesome-copilot's
/// `instructions/azure-durable-functions-csharp.instructions.md`, s29, judged false) is a
/// catalogue's, shipped to the projects its `applyTo` names: `builder.ConfigureWorker()` in
/// "`Program.cs`" is the user's program's call, not this repository's code. The repository's own
/// `.github/instructions/` file still draws the signal.
#[test]
fn a_catalogues_instructions_name_the_users_code() {
    let r = repo();
    let d = &r.root;
    write(
        d,
        "tools/gen/Program.cs",
        "class Program { static void Main() {} }\n",
    );
    // (Two names: a name another tracked file holds is the project's vocabulary.)
    let text = |call: &str| {
        format!(
            "---\napplyTo: '**/*.cs'\n---\n\n# Durable functions\n\n- Register it in \
             `Program.cs` via `builder.{call}()`.\n"
        )
    };
    write(
        d,
        "instructions/durable.instructions.md",
        &text("ConfigureWorker"),
    );
    write(
        d,
        ".github/instructions/durable.instructions.md",
        &text("ConfigureHost"),
    );
    commit(d, "instructions");
    let s = scan(d);
    assert_eq!(
        docs_with_kind(&s, "missing-symbol"),
        [".github/instructions/durable.instructions.md"],
        "{s:#}"
    );
}

/// A name the source holds with its first letter's case turned is a case slip (gastown's
/// `NotifyRecipient` for Go's `notifyRecipient`, s29, judged false), and `x` in a name stands
/// for any one (rolldown's `Type::new_x` for every node type's `new_*`, judged false). A name
/// gone in every case still draws the signal.
#[test]
fn a_case_slip_and_a_letter_for_any_name_are_no_missing_symbol() {
    let r = repo();
    let d = &r.root;
    write(
        d,
        "internal/mail/router.go",
        "package mail\n\nfunc notifyRecipient() {}\n",
    );
    write(
        d,
        "crates/ast/src/lib.rs",
        "pub struct Type;\nimpl Type {\n    pub fn new_call() {}\n}\n",
    );
    write(
        d,
        "docs/inventory.md",
        "# Inventory\n\n- `internal/mail/router.go`: `NotifyRecipient()` and `CapturePaneTrimmed()`.\n",
    );
    write(
        d,
        "docs/ast.md",
        "# AST\n\nEach `make_*` became `Type::new_x`; `Type::new_gone` went.\n",
    );
    commit(d, "code");
    let s = scan(d);
    assert_eq!(
        sigs_kind(&s, "docs/inventory.md", "missing-symbol"),
        [pair("missing-symbol", "CapturePaneTrimmed")],
        "{s:#}"
    );
    assert_eq!(
        sigs_kind(&s, "docs/ast.md", "missing-symbol"),
        [pair("missing-symbol", "Type::new_gone")],
        "{s:#}"
    );
}

/// The only status below a document's head, in one item's list of fields, is that item's (s29,
/// judged false: claude-flow's "#### 3. Neural Networks Interface" with `- **Location**:` and
/// `- **Status**: ✅ Complete`; claude-mem's advisory `- **Status:** RESOLVED` beside its
/// `- **Severity:**`). The same field list under a `## Status` heading is the document's own
/// (CopilotKit's proposal, judged true), and so is a report's closing status line.
#[test]
fn one_items_status_field_is_not_the_documents() {
    let r = repo();
    let d = &r.root;
    write(
        d,
        "docs/web-ui/guide.md",
        "# Web UI\n\n## Components\n\n#### 3. Neural interface\n- **Location**: `src/ui/`\n\
         - **Status**: Complete (15/15 tools)\n- **Features**: many\n",
    );
    write(
        d,
        "SECURITY.md",
        "# Security Policy\n\nReport to us.\n\n## Audit History\n\n### 2025-12-16: Injection\n\
         - **Severity:** CRITICAL\n- **Status:** RESOLVED\n",
    );
    write(
        d,
        "docs/drafts/multimodal.md",
        "# Multimodal messages\n\nThe proposal.\n\n## Status\n\n- **Status**: Implemented\n\
         - **Author(s)**: Ann\n\n## Specification\n\nParts.\n",
    );
    write(
        d,
        "reports/build-summary.md",
        "# Build summary\n\nWhat was built.\n\n## Result\n\n**Status**: Complete and tested\n",
    );
    commit(d, "docs");
    let s = scan(d);
    assert_eq!(
        docs_with_kind(&s, "status-done"),
        ["docs/drafts/multimodal.md", "reports/build-summary.md"],
        "{s:#}"
    );
}

/// A plan a lifecycle rule governs asks once whether it has served: its `status: completed`
/// and its ticked units are the evidence the model reads for that question, not two more
/// questions (s29: compound-engineering-plugin's plans drew lifecycle, status-done and
/// checklist-complete at once; judges split on the same plans by kind). A finished report no
/// rule governs still draws status-done and checklist-complete.
#[test]
fn a_governed_plan_asks_once_whether_it_served() {
    let r = repo();
    let d = &r.root;
    let body = "\n# Plan\n\n- [x] Unit 1\n- [x] Unit 2\n- [x] Unit 3\n";
    write(
        d,
        "docs/plans/2026-03-27-001-rename-plan.md",
        &format!("---\nstatus: completed\n---\n{body}"),
    );
    write(
        d,
        "reports/pack-complete.md",
        &format!("# Pack report\n\n**Status**: Complete\n{body}"),
    );
    commit(d, "docs");
    let s = scan(d);
    let kinds = |p: &str| -> Vec<String> { sigs(&s, p).into_iter().map(|(k, _)| k).collect() };
    assert_eq!(
        kinds("docs/plans/2026-03-27-001-rename-plan.md"),
        ["lifecycle"],
        "{s:#}"
    );
    assert_eq!(
        kinds("reports/pack-complete.md"),
        ["checklist-complete", "status-done"],
        "{s:#}"
    );
}

/// A Markdown example whose author nests fences in it (a proposed `SKILL.md` in a
/// ` ```markdown ` block, with its own ` ```bash ` blocks; commands' README template) is read as
/// written: the bare ` ``` ` after ` ```bash ` closes that inner block, so the example's links
/// after it are the example's (s29 uniform sample: claude-skills, commands, taches-cc-resources,
/// judged false). CommonMark closes the outer fence there; the agent reads the raw text. The
/// same link outside the example, and in a file wrapped whole in one such fence, still draw it.
#[test]
fn links_in_a_nested_markdown_example_are_the_examples() {
    let r = repo();
    let d = &r.root;
    let example = "```markdown\n# Toolkit\n\n```bash\npython run.py\n```\n\nSee \
                   [the guide](references/guide.md).\n```\n";
    write(
        d,
        "docs/refactoring-notes.md",
        &format!(
            "# Refactoring notes\n\nFirst [read](references/gone.md). The slimmed skill:\n\n\
             {example}"
        ),
    );
    write(d, "skills/adapter/SKILL.md", example);
    commit(d, "docs");
    let s = scan(d);
    assert_eq!(
        refs_kind(&s, "docs/refactoring-notes.md", "missing-path"),
        ["references/gone.md"],
        "{s:#}"
    );
    assert_eq!(
        refs_kind(&s, "skills/adapter/SKILL.md", "missing-path"),
        ["references/guide.md"],
        "{s:#}"
    );
}

/// Names that are not this code's (s30, judged false on turso and dagger): a qualifier whose
/// only definition is an associated type bound inside an `impl` (`type QueryParser =
/// NoopQueryParser;`, so `QueryParser::parse_query` is Tantivy's), and the object of a step
/// "add `RuntimeCodegenDisabled()`" in a design (a name the code will hold). A member gone from
/// a type defined at the margin, and a name a checked "add" step brought in, still draw it.
#[test]
fn an_associated_type_and_a_name_to_add_are_no_missing_symbol() {
    let r = repo();
    let d = &r.root;
    write(
        d,
        "src/lib.rs",
        "pub struct Index;\nimpl Index {\n    pub fn open() {}\n}\n\
         impl pgwire::QueryHandler for Index {\n    type QueryParser = NoopQueryParser;\n}\n",
    );
    write(
        d,
        "docs/fts.md",
        "# Full-text search\n\nBuild a Tantivy query with `QueryParser::parse_query(\"db\")`, \
         then `Index::search_all()` runs it.\n",
    );
    write(
        d,
        "docs/design.md",
        "# Design\n\n- `src/lib.rs` — add `runtime_disabled()` on `Index`;\n\
         - [x] `src/lib.rs`: add `finished_step()`\n",
    );
    commit(d, "code");
    let s = scan(d);
    assert_eq!(
        sigs_kind(&s, "docs/fts.md", "missing-symbol"),
        [pair("missing-symbol", "Index::search_all")],
        "{s:#}"
    );
    assert_eq!(
        sigs_kind(&s, "docs/design.md", "missing-symbol"),
        [pair("missing-symbol", "finished_step")],
        "{s:#}"
    );
}

/// A status deep in a document without sections is a step's, not the document's (s30, judged
/// false on get-shit-done: a workflow prompt's "Update frontmatter: `- status: complete`" on
/// line 283). A status line at the head of such a document is still its own.
#[test]
fn a_steps_status_deep_in_a_prompt_is_not_the_documents() {
    let r = repo();
    let d = &r.root;
    let steps: String = (1..=40)
        .map(|i| format!("Step {i}: ask the user.\n\n"))
        .collect();
    write(
        d,
        "workflows/verify-work.md",
        &format!("<purpose>\nValidate features.\n</purpose>\n\n{steps}Update frontmatter:\n- status: complete\n- updated: [now]\n"),
    );
    write(
        d,
        "docs/report.md",
        &format!("**Status:** Complete\n\n{steps}"),
    );
    commit(d, "docs");
    let s = scan(d);
    assert_eq!(
        docs_with_kind(&s, "status-done"),
        ["docs/report.md"],
        "{s:#}"
    );
}

/// A resolved gap "recorded here as the case study that motivated" a change is a design's
/// rationale kept on purpose (s30, judged false on TypeAgent's principle gaps). The same
/// write-up without that sentence still draws the signal.
#[test]
fn a_resolved_gap_recorded_as_a_case_study_is_kept_on_purpose() {
    let r = repo();
    let d = &r.root;
    let story = investigation();
    let gap = |kept: &str| {
        format!(
            "# Principle gaps\n\n{story}\n\n### Name visibility\n\n**Status:** Resolved. The \
             gap has since been closed by sharpening P3.{kept}\n\n**The original gap.** Should \
             outputs be visible?\n"
        )
    };
    write(
        d,
        "docs/principle-gaps.md",
        &gap(" Recorded here as the case study that motivated the sharpening."),
    );
    write(d, "docs/other-gaps.md", &gap(""));
    commit(d, "docs");
    let s = scan(d);
    assert_eq!(
        docs_with_kind(&s, "resolved-narrative"),
        ["docs/other-gaps.md"],
        "{s:#}"
    );
}

/// A finished status on a document the root's README, CLAUDE.md or AGENTS.md links to is that
/// of a thing the entry presents as current (s30, judged false on sentry-mcp's refactor notes
/// that CLAUDE.md and AGENTS.md index, and a lab's system summary the README links). The same
/// report that no entry links still draws it.
#[test]
fn a_status_on_a_document_the_entry_links_is_not_a_served_plan() {
    let r = repo();
    let d = &r.root;
    let report = "# IDE instructions refactor\n\n**Status:** Complete\n\nThe fragments moved.\n";
    write(d, "docs/integrations/ide-refactor.md", report);
    write(d, "docs/integrations/old-refactor.md", report);
    write(
        d,
        "AGENTS.md",
        "# Agents\n\n- [IDE instructions](docs/integrations/ide-refactor.md)\n",
    );
    commit(d, "docs");
    let s = scan(d);
    assert_eq!(
        docs_with_kind(&s, "status-done"),
        ["docs/integrations/old-refactor.md"],
        "{s:#}"
    );
}

/// A provisional marker only a maintainer sees, in a comment the rendered page hides (pydantic's
/// `<!-- TODO: add examples for Django -->`, an MDX `{/* TODO: diagram */}`), does not put a page
/// read on demand in front of the model alone (judged 34 true, 29 false; identical notes on
/// sibling pages drew opposite verdicts). It rides along when another signal shortlists the
/// page; a visible marker, and a hidden one in a file loaded every session, still shortlist.
#[test]
fn a_hidden_marker_rides_along_on_a_page_read_on_demand() {
    let r = repo();
    let d = &r.root;
    write(
        d,
        "docs/orms.md",
        "# ORMs\n\nUse the models.\n\n<!-- TODO: add examples for Django -->\n",
    );
    write(
        d,
        "docs/lens.mdx",
        "# Lens\n\n{/* TODO: enable the cloud template */}\n\n[//]: # (TODO: link the guide)\n",
    );
    write(
        d,
        "docs/queues.md",
        "# Queues\n\n<!-- TODO: kafka -->\n\nSee [the guide](gone.md).\n",
    );
    write(
        d,
        "docs/install.md",
        "# Install\n\nTODO: write the Windows steps.\n",
    );
    write(
        d,
        "CLAUDE.md",
        "# Project\n\nRun the tests.\n\n<!-- TODO: document the release -->\n",
    );
    commit(d, "docs");
    let s = scan(d);
    assert_eq!(
        docs_with_kind(&s, "provisional-marker"),
        ["CLAUDE.md", "docs/install.md", "docs/queues.md"],
        "{s:#}"
    );
}

/// Names that no source claims to hold (s31, judged false): the new side of "→ becomes" in a
/// plan (langfuse's "in-code prompt → becomes `buildFilterVariables()`"), a name in a clause
/// about a future thing (prisma's "if a future preset (e.g. `temporal.lastModifiedAt()`) is
/// added") and a value joined from names with `__` (claude-mem's sanitized collection name
/// `cm__work_monorepo`). A gone name beside them is still reported.
#[test]
fn a_name_a_plan_will_bring_and_a_joined_value_are_no_missing_symbol() {
    let r = repo();
    let d = &r.root;
    write(
        d,
        "src/filter.ts",
        "export function buildFilterPrompt() {}\nexport const temporal = { updatedAt() {} };\n",
    );
    write(
        d,
        "docs/plan.md",
        "# Filter plan\n\n- `src/filter.ts` — in-code prompt → becomes `buildFilterVariables()`.\n\
         - `src/filter.ts` keeps `buildFilterPrompt()` and `buildFilterGone()`.\n\n\
         The runtime could support it if a future preset (e.g. `temporal.lastModifiedAt()`) is \
         added. `src/filter.ts` names collections like `cm__work_monorepo` and `stale_name`.\n",
    );
    commit(d, "code");
    let s = scan(d);
    let mut got = sigs_kind(&s, "docs/plan.md", "missing-symbol");
    got.sort();
    assert_eq!(
        got,
        [
            pair("missing-symbol", "buildFilterGone"),
            pair("missing-symbol", "stale_name")
        ],
        "{s:#}"
    );
}

/// A demo's generated output (deer-flow's `frontend/public/demo/threads/.../outputs/report.md`,
/// "**Status:** Complete") is the demo's content, as in `demos/` and `examples/` (s31, judged
/// false). The same status in the repository's own note is still reported.
#[test]
fn a_demo_folders_output_holds_its_own_status() {
    let r = repo();
    let d = &r.root;
    let note =
        |title: &str| format!("# {title}\n\n**Status:** Complete\n\n## Findings\n\nAll read.\n");
    write(
        d,
        "frontend/public/demo/threads/t1/outputs/research.md",
        &note("Research"),
    );
    write(d, "docs/research.md", &note("Research"));
    commit(d, "docs");
    let s = scan(d);
    assert_eq!(
        docs_with_kind(&s, "status-done"),
        ["docs/research.md"],
        "{s:#}"
    );
}

/// A backup copy (`backups/plugin-backups/pack_20251020/PACK_COMPLETE.md`) draws no drift: the
/// files it names changing after the copy was taken is what a snapshot is for (s31, two of two
/// judged false on claude-code-plugins-plus). The same page outside the backup still drifts.
#[test]
fn a_backup_copy_does_not_drift() {
    let r = repo();
    let d = &r.root;
    write(
        d,
        "src/cfg.rs",
        "pub fn legacy_option() {}\npub fn keep() {}\n",
    );
    let page = "# Pack\n\nThe [config](../../../src/cfg.rs) is read at start.\n\nIt calls `legacy_option` first.\n";
    write(d, "backups/plugin-backups/pack_20251020/PACK.md", page);
    write(d, "docs/pack/notes/PACK.md", page);
    commit(d, "docs");
    for i in 1..=3 {
        write(d, "src/cfg.rs", &format!("pub fn keep() {{}}\n// {i}\n"));
        commit(d, &format!("change {i}"));
    }
    let s = scan(d);
    assert_eq!(
        docs_with_kind(&s, "drift"),
        ["docs/pack/notes/PACK.md"],
        "{s:#}"
    );
}

/// A name leaving a lockfile is a dependency moving, not a drift's evidence (s31: a dispatch
/// brief's `@prisma-next/...` leaving `pnpm-lock.yaml`, a guide's `BurntSushi` example leaving
/// `mise.lock`; three of four judged false). The same name leaving the manifest still is.
#[test]
fn a_lockfile_gives_a_drift_no_evidence() {
    let r = repo();
    let d = &r.root;
    write(d, "src/app.ts", "export const v = 0;\n");
    write(
        d,
        "pnpm-lock.yaml",
        "packages:\n  left-pad-next@1.0.0: {}\n",
    );
    write(
        d,
        "tools/package.json",
        "{ \"dependencies\": { \"right-pad-next\": \"1\" } }\n",
    );
    write(
        d,
        "docs/deps.md",
        "# Deps\n\nThe [app](../src/app.ts) pins `left-pad-next` in `pnpm-lock.yaml`.\n",
    );
    write(
        d,
        "docs/tools.md",
        "# Tools\n\nThe [app](../src/app.ts) needs `right-pad-next` from `tools/package.json`.\n",
    );
    commit(d, "docs");
    for i in 1..=3 {
        write(d, "src/app.ts", &format!("export const v = {i};\n"));
        write(
            d,
            "pnpm-lock.yaml",
            &format!("packages:\n  other@{i}.0.0: {{}}\n"),
        );
        write(
            d,
            "tools/package.json",
            &format!("{{ \"dependencies\": {{ \"other\": \"{i}\" }} }}\n"),
        );
        commit(d, &format!("bump {i}"));
    }
    let s = scan(d);
    assert_eq!(docs_with_kind(&s, "drift"), ["docs/tools.md"], "{s:#}");
}

/// A quoted line whose code the file still has, only its comment dropped, is no drift's
/// evidence (s31, langroid's quick-start quoting `single_round=True,  # task done after 1
/// step()` from an example that lost its annotation comments; judged false). A quoted line
/// whose code changed still is.
#[test]
fn a_quoted_line_that_only_lost_its_comment_has_not_drifted() {
    let r = repo();
    let d = &r.root;
    write(
        d,
        "examples/chat.py",
        "task = Task(\n    single_round=True,  # task done after one step\n    interactive=False,\n)\n",
    );
    write(
        d,
        "examples/other.py",
        "task = Task(\n    max_rounds=10,  # stop after ten rounds\n)\n",
    );
    let quote = |file: &str, line: &str| {
        format!("# Chat\n\nFrom [the example](../{file}):\n\n```python\n{line}\n```\n")
    };
    write(
        d,
        "docs/chat.md",
        &quote(
            "examples/chat.py",
            "    single_round=True,  # task done after one step",
        ),
    );
    write(
        d,
        "docs/other.md",
        &quote(
            "examples/other.py",
            "    max_rounds=10,  # stop after ten rounds",
        ),
    );
    commit(d, "docs");
    for i in 1..=3 {
        write(
            d,
            "examples/chat.py",
            &format!("task = Task(\n    single_round=True,\n    interactive=False,\n)\n# {i}\n"),
        );
        write(
            d,
            "examples/other.py",
            &format!("task = Task(\n    max_rounds=20,\n)\n# {i}\n"),
        );
        commit(d, &format!("tidy {i}"));
    }
    let s = scan(d);
    assert_eq!(docs_with_kind(&s, "drift"), ["docs/other.md"], "{s:#}");
}

/// A path a code generator's template writes (voltagent's `tools/core/README.md`, "Generated
/// Files Overview": `src/provider.ts` from `src/generators/provider/files/src/provider.ts.template`)
/// is a file of the package the generator creates (s31, four judged false). A path no template
/// writes is still reported.
#[test]
fn a_file_a_generators_template_writes_is_no_missing_path() {
    let r = repo();
    let d = &r.root;
    write(
        d,
        "tools/core/src/generators/provider/files/src/provider.ts.template",
        "export const <%= name %> = {};\n",
    );
    write(
        d,
        "tools/core/src/generators/provider/files/src/index.ts__tmpl__",
        "export * from './provider';\n",
    );
    write(
        d,
        "tools/core/README.md",
        "# Core\n\n## Generated files\n\n- `src/provider.ts`: the provider\n- `src/index.ts`: exports\n- `src/testing.ts`: test helpers\n",
    );
    commit(d, "generator");
    let s = scan(d);
    assert_eq!(
        refs_kind(&s, "tools/core/README.md", "missing-path"),
        ["src/testing.ts"],
        "{s:#}"
    );
}

/// Held-out (claude-task-master, chroma, formbricks, fastmcp; s32): a route that names a folder
/// of a Mintlify site (`/getting-started/quick-start`) is served, as Mintlify's own link checker
/// counts it (its client redirects it to the folder's first page), and so is a folder an OpenAPI
/// `directory` generates pages in (`/reference/sync-api`). A folder the site lacks, and a name
/// that only begins like one (`/getting-started/quick`), are still missing; a folder a redirect
/// sends elsewhere has its anchors checked on that page (trigger.dev).
#[test]
fn a_mintlify_route_to_a_folder_is_served() {
    let r = repo();
    let d = &r.root;
    write(
        d,
        "docs/docs.json",
        r#"{"navigation": {"tabs": [{"tab": "Docs", "groups": [
            {"group": "Start", "pages": ["introduction", {"group": "Quick start", "pages": [
                "getting-started/quick-start/requirements", "getting-started/quick-start/install"]}]},
            {"group": "Sync API", "openapi": {"source": "sync.openapi.json", "directory": "reference/sync-api"}}]}]},
          "redirects": [{"source": "/guides/hooks", "destination": "/guides/hooks/overview"}]}"#,
    );
    write(
        d,
        "docs/sync.openapi.json",
        r#"{"openapi": "3.0.0", "paths": {
            "/invocations": {"post": {"tags": ["Invocation"], "summary": "Create invocation"}}}}"#,
    );
    write(
        d,
        "docs/getting-started/quick-start/requirements.mdx",
        "# Requirements\n",
    );
    write(
        d,
        "docs/getting-started/quick-start/install.mdx",
        "# Install\n",
    );
    write(
        d,
        "docs/guides/hooks/overview.mdx",
        "# Hooks\n\n## Installation\n",
    );
    write(
        d,
        "docs/introduction.mdx",
        "# Intro\n\n- [Quick start](/getting-started/quick-start)\n\
         - [Sync API](/reference/sync-api/)\n\
         - [Gone](/getting-started/advanced)\n\
         - [Partial](/getting-started/quick)\n\
         - [Hooks](/guides/hooks#realtime-hooks)\n",
    );
    commit(d, "docs");
    let s = scan(d);
    assert_eq!(
        refs_kind(&s, "docs/introduction.mdx", "missing-path"),
        ["/getting-started/advanced", "/getting-started/quick"],
        "{s:#}"
    );
    // A redirect names the page a folder route lands on: its anchors are checked there.
    assert_eq!(
        refs_kind(&s, "docs/introduction.mdx", "missing-anchor"),
        ["/guides/hooks#realtime-hooks"],
        "{s:#}"
    );
}

/// Held-out (compound-engineering-plugin; s32): a folder of plans that compound-engineering's
/// `ce-plan` writes (`artifact_contract: ce-unified-plan/v1` in a plan's frontmatter) keeps its
/// plans as decision records, by that plugin's own rules: none of them, nor an older plan of
/// the same folder written before the field, is asked about. Another folder's landed plan is.
#[test]
fn plans_a_tool_keeps_as_records_are_not_asked_about() {
    let r = repo();
    let d = &r.root;
    write(
        d,
        "docs/plans/2026-08-12-002-fix-config-plan.md",
        "---\ntitle: Config - Plan\ntype: fix\nartifact_contract: ce-unified-plan/v1\n---\n\n# Config\n",
    );
    write(
        d,
        "docs/plans/2026-03-01-feat-aliases-plan.md",
        "---\ntitle: Aliases\ntype: feat\nstatus: completed\n---\n\n# Aliases\n",
    );
    write(
        d,
        "other/plans/2026-03-01-migrate.md",
        "---\nartifact_contract: other-tool/v2\n---\n\n# Migrate\n",
    );
    commit(d, "plans");
    let s = scan(d);
    assert_eq!(
        docs_with_kind(&s, "lifecycle"),
        ["other/plans/2026-03-01-migrate.md"],
        "{s:#}"
    );
}

/// Held-out (claude-flow; s32): a rooted path in prose (`/docs/postman-collection.json` in an
/// example project's README) names the file from the project the document sits in when the
/// repository's root has none; a link's `/` is still the root's (reported once, for the link).
#[test]
fn a_rooted_path_in_prose_is_the_projects() {
    let r = repo();
    let d = &r.root;
    write(d, "examples/api/docs/postman-collection.json", "{}\n");
    write(d, "docs/index.md", "# Docs\n");
    write(
        d,
        "examples/api/README.md",
        "# API\n\n- **Postman Collection**: Available in `/docs/postman-collection.json`\n\
         - [Collection](/docs/postman-collection.json)\n",
    );
    commit(d, "example");
    let s = scan(d);
    assert_eq!(
        refs_kind(&s, "examples/api/README.md", "missing-path"),
        ["/docs/postman-collection.json"],
        "{s:#}"
    );
}

/// A file the document names as the reader's ("Add it to your `.tool/config.json`") is theirs:
/// the repository's own copy of it (the tool configuring its own repository) changing is no
/// drift (s32: claude-task-master's `.taskmaster/config.json` model choices, serena's
/// `.serena/project.yml`; both judged false). The same file named plainly still drifts.
#[test]
fn the_readers_file_named_in_a_document_does_not_drift() {
    let r = repo();
    let d = &r.root;
    write(
        d,
        ".tool/config.json",
        "{ \"provider\": \"anthropic\", \"model\": \"claude_sonnet_v1\" }\n",
    );
    write(
        d,
        "docs/provider.md",
        "# Provider\n\nSet the model `claude_sonnet_v1` in your `.tool/config.json`.\n",
    );
    write(
        d,
        "docs/dogfood.md",
        "# Our config\n\nThis repository sets the model `claude_sonnet_v1` in `.tool/config.json`.\n",
    );
    commit(d, "docs");
    for i in 1..=3 {
        write(
            d,
            ".tool/config.json",
            &format!("{{ \"provider\": \"openai\", \"model\": \"gpt_{i}\" }}\n"),
        );
        commit(d, &format!("switch {i}"));
    }
    let s = scan(d);
    assert_eq!(docs_with_kind(&s, "drift"), ["docs/dogfood.md"], "{s:#}");
}

/// A TanStack docs page whose frontmatter `ref:` names another page is built from that page's
/// text, headings included (s32: query's Solid `guides/query-functions.md` with `ref:
/// docs/framework/react/guides/query-functions.md`; judged false): a fragment into it is not
/// checked against its own few lines. Into a page without `ref:` it still is.
#[test]
fn a_page_built_from_another_by_ref_keeps_that_pages_anchors() {
    let r = repo();
    let d = &r.root;
    write(
        d,
        "docs/framework/react/guides/query-functions.md",
        "---\nid: query-functions\n---\n\n## QueryFunctionContext\n\nText.\n",
    );
    write(
        d,
        "docs/framework/solid/guides/query-functions.md",
        "---\nid: query-functions\nref: docs/framework/react/guides/query-functions.md\n---\n",
    );
    write(
        d,
        "docs/framework/solid/guides/other.md",
        "# Other\n\nNo such heading.\n",
    );
    write(
        d,
        "docs/framework/solid/reference/useQuery.md",
        "# useQuery\n\n- Receives a [QueryFunctionContext](../guides/query-functions.md#queryfunctioncontext)\n\
         - See [other](../guides/other.md#queryfunctioncontext)\n",
    );
    commit(d, "docs");
    let s = scan(d);
    assert_eq!(
        refs_kind(
            &s,
            "docs/framework/solid/reference/useQuery.md",
            "missing-anchor"
        ),
        ["../guides/other.md#queryfunctioncontext"],
        "{s:#}"
    );
}

/// The line an agent's `/init` writes atop each instruction file ("This file provides guidance
/// to Claude Code ...") is the tool's header, not a copy (s32: LlamaIndexTS' nested CLAUDE.md;
/// judged false). A paragraph the two files share is still one.
#[test]
fn the_init_header_is_no_duplicate() {
    let r = repo();
    let d = &r.root;
    let header = "This file provides guidance to Claude Code (claude.ai/code) when working with code in this repository.";
    let shared = "Run the whole test suite with `pnpm test` before every commit, and never skip the type check step.";
    write(
        d,
        "CLAUDE.md",
        &format!("# CLAUDE.md\n\n{header}\n\n## Rules\n\n{shared}\n"),
    );
    write(
        d,
        "packages/app/CLAUDE.md",
        &format!("# CLAUDE.md\n\n{header}\n\n## App\n\nThe app lives here.\n\n{shared}\n"),
    );
    commit(d, "docs");
    let s = scan(d);
    let dups: Vec<(String, u64)> = dup_spans(&s).into_iter().map(|(p, a, _)| (p, a)).collect();
    assert_eq!(dups, [("packages/app/CLAUDE.md".to_string(), 9)], "{s:#}");
}

/// A list item wrapped over several lines is read whole: a plan's "- Delete whole: `a`,⏎
/// `b`, `c/` (tree)" intends every path it lists gone, the wrapped lines' ones too (s33:
/// OpenSpec's slice plan; judged false). A verb that labels the list ("Delete whole:") is the
/// step's verb. A wrapped line of an item that names no such verb still reports its path.
#[test]
fn a_wrapped_list_item_that_deletes_paths_intends_them_gone() {
    let r = repo();
    let d = &r.root;
    write(d, "test/keep.test.ts", "test('k', () => {});\n");
    write(d, "test/gone/a.test.ts", "test('a', () => {});\n");
    write(d, "test/old.test.ts", "test('o', () => {});\n");
    commit(d, "tests");
    std::fs::remove_dir_all(d.join("test/gone")).unwrap();
    std::fs::remove_file(d.join("test/old.test.ts")).unwrap();
    commit(d, "remove");
    write(
        d,
        "docs/cleanup.md",
        "# Cleanup\n\n**Wave 4 \u{2014} tests**\n\n\
         - Delete whole: `test/old.test.ts`,\n  `test/gone/` (tree),\n  and the helpers.\n\
         - Partial edits: `test/keep.test.ts` (the setup at\n  10-20), and `test/gone/a.test.ts` stays covered.\n",
    );
    commit(d, "plan");
    let s = scan(d);
    assert_eq!(
        refs_kind(&s, "docs/cleanup.md", "missing-path"),
        ["test/gone/a.test.ts"],
        "{s:#}"
    );
}

/// Text a tool writes between two HTML comments (`<!-- OMC:START -->` ... `<!-- OMC:END -->`,
/// `<!-- convex-ai-start -->`) is rewritten by the tool in every file it manages: the same
/// region in two files is no copy to consolidate (s33: oh-my-claudecode's `CLAUDE.md` and
/// `.github/CLAUDE.md`; judged false). A paragraph the two share outside it still is one.
#[test]
fn a_region_a_tool_writes_is_no_duplicate() {
    let r = repo();
    let d = &r.root;
    let managed = "<!-- OMC:START -->\n<!-- OMC:VERSION:4.9.1 -->\n\n# oh-my-tool\n\n\
                   Delegate every multi-file change to the executor agent and verify with the checker before you report.\n\n\
                   <!-- OMC:END -->\n";
    let shared = "Run the whole test suite with `pnpm test` before every commit, and never skip the type check step.";
    write(
        d,
        "CLAUDE.md",
        &format!("{managed}\n## Rules\n\n{shared}\n"),
    );
    write(
        d,
        "packages/app/CLAUDE.md",
        &format!("{managed}\n## App\n\nThe app lives here.\n\n{shared}\n"),
    );
    commit(d, "docs");
    let s = scan(d);
    let dups: Vec<(String, u64)> = dup_spans(&s).into_iter().map(|(p, a, _)| (p, a)).collect();
    assert_eq!(dups, [("packages/app/CLAUDE.md".to_string(), 14)], "{s:#}");
}

/// A line that spells a marker in code teaches its use ("**TODO.** Use `// TODO:` for deferred
/// work"): no work is left in the page (s33: astro's `writing-comments` skill; judged false).
/// A bare marker over a section still to write is one.
#[test]
fn a_line_that_teaches_a_marker_marks_nothing() {
    let r = repo();
    let d = &r.root;
    write(
        d,
        "docs/comments.md",
        "# Comments\n\n**TODO.** Use `// TODO:` for deferred work; link an issue when one tracks it.\n",
    );
    write(
        d,
        "docs/deploy.md",
        "# Deploy\n\n**TODO.** Describe the rollback steps.\n",
    );
    commit(d, "docs");
    let s = scan(d);
    assert_eq!(
        docs_with_kind(&s, "provisional-marker"),
        ["docs/deploy.md"],
        "{s:#}"
    );
}

/// A file name to fill in (`tests/ci/test_action_EventNameHere.py`) and a file the reader is
/// told to place ("Place this at `scripts/gen.ts`") name no file of this tree (s33:
/// browser-use's CLAUDE.md, claude-code-templates' blog skill; both judged false). A path the
/// text says is here still draws.
#[test]
fn a_name_to_fill_in_or_a_file_to_place_is_no_claim() {
    let r = repo();
    let d = &r.root;
    write(d, "tests/ci/test_action_click.py", "def test(): pass\n");
    write(d, "scripts/build.ts", "export {};\n");
    write(
        d,
        "CLAUDE.md",
        "# Rules\n\n\
         - Name event tests `tests/ci/test_action_EventNameHere.py`.\n\
         - Place this at `scripts/generate-hero-images.ts`. Before running: fill in the topics.\n\
         - The release script is `scripts/release.ts`.\n",
    );
    commit(d, "docs");
    let s = scan(d);
    assert_eq!(
        refs_kind(&s, "CLAUDE.md", "missing-path"),
        ["scripts/release.ts"],
        "{s:#}"
    );
}

/// A docs site laid out by a CUE menu (`docs/menu.cue`, encore's) serves each item's route
/// from the file it names (`/docs/go/self-host/docker-build` from `go/self-host/self-host.md`),
/// and a rooted link outside the docs (`/pricing`, `/book`) is a page of the website hosting
/// them (s33: encore; judged false). A route under the docs that the menu does not list, and
/// one of a listed section's that names no item, still draw.
#[test]
fn a_cue_menu_serves_its_routes() {
    let r = repo();
    let d = &r.root;
    write(
        d,
        "docs/menu.cue",
        "#Menu: {kind: \"rootmenu\"}\n\
         items: [{\n\tkind: \"basic\"\n\ttext: \"Build Docker Images\"\n\tpath: \"/go/self-host/docker-build\"\n\tfile: \"go/self-host/self-host\"\n}, {\n\tkind: \"basic\"\n\tpath: \"/go/overview\"\n\tfile: \"go/overview\"\n}]\n",
    );
    write(d, "docs/go/self-host/self-host.md", "# Self-host\n");
    write(
        d,
        "docs/go/overview.md",
        "# Overview\n\n- [Docker](/docs/go/self-host/docker-build)\n- [Pricing](/pricing)\n\
         - [Gone](/docs/go/self-host/kubernetes)\n- [Old](/go/primitives/pubsub)\n",
    );
    commit(d, "docs");
    let s = scan(d);
    assert_eq!(
        refs_kind(&s, "docs/go/overview.md", "missing-path"),
        ["/docs/go/self-host/kubernetes", "/go/primitives/pubsub"],
        "{s:#}"
    );
}

/// Two names a slash joins ("`appsettings.json/appsettings.Development.json`" where the first is
/// a file: a file holds no path) and a file the text says "needs to be created" are no claims
/// (s33: semantic-kernel's sample README, claude-code-plugins-plus' backup guide; judged false).
#[test]
fn names_joined_by_a_slash_and_a_file_still_to_create_are_no_claims() {
    let r = repo();
    let d = &r.root;
    write(d, "samples/safety/appsettings.json", "{}\n");
    write(d, "scripts/backup.sh", "echo\n");
    write(
        d,
        "samples/safety/README.md",
        "# Safety\n\nSet the keys in `appsettings.json/appsettings.Development.json`.\n\n\
         **Note:** The restore script (`scripts/restore.sh`) needs to be created.\n\n\
         Run `scripts/cleanup.sh` after each backup.\n",
    );
    commit(d, "docs");
    let s = scan(d);
    assert_eq!(
        refs_kind(&s, "samples/safety/README.md", "missing-path"),
        ["scripts/cleanup.sh"],
        "{s:#}"
    );
}

/// A line that is the marker and a colon ("TODO:") over a task list is the checklist a prompt
/// hands its agent (s33: OpenSpec's `install.md`; judged false), as a heading would be; over a
/// plain list it still marks the page.
#[test]
fn a_todo_line_over_a_task_list_is_a_checklist() {
    let r = repo();
    let d = &r.root;
    write(
        d,
        "install.md",
        "# Install\n\nTODO:\n\n- [ ] Check the Node.js runtime\n- [ ] Install the CLI\n",
    );
    write(
        d,
        "docs/setup.md",
        "# Setup\n\nTODO:\n\n- write the runtime section\n",
    );
    commit(d, "docs");
    let s = scan(d);
    assert_eq!(
        docs_with_kind(&s, "provisional-marker"),
        ["docs/setup.md"],
        "{s:#}"
    );
}

/// A hand copy right after a block a tool manages (`<!-- nx configuration start-->` ..
/// `end-->`) is reported as the copy it is, not grown into the tool's block whose copies match
/// too (s33: CopilotKit's `AGENTS.md` and `CLAUDE.md`).
#[test]
fn a_duplicate_does_not_grow_into_a_managed_block() {
    let r = repo();
    let d = &r.root;
    let block = "<!-- nx configuration start-->\n<!-- Leave the start & end comments to automatically receive updates. -->\n\n\
                 # General Guidelines for working with Nx\n\n\
                 - When running tasks, always prefer running the task through `nx` instead of the underlying tooling directly.\n\n\
                 <!-- nx configuration end-->\n\n\
                 > Working under `showcase/`? Read `showcase/AGENTS.md` first: it defines the iron rules for showcase cells.\n";
    write(
        d,
        "CLAUDE.md",
        &format!("{block}\n# Project\n\nClaude's notes.\n"),
    );
    write(
        d,
        "AGENTS.md",
        &format!("{block}\n# Project\n\nAgents' notes.\n"),
    );
    commit(d, "docs");
    let s = scan(d);
    let spans = dup_spans(&s);
    assert_eq!(spans.len(), 1, "{s:#}");
    assert_eq!(
        spans[0].1, 10,
        "the copy starts after the managed block: {s:#}"
    );
}

/// A package's docs folder is published under the package's name by the site that gathers
/// every package's docs: `/mastra/quickstart` from `showcase/integrations/mastra/docs/setup.mdx`
/// is the `quickstart` page that site serves for each integration (s33: CopilotKit's showcase;
/// judged false). A route whose rest is no page of the tree still draws.
#[test]
fn a_packages_docs_are_served_under_its_name() {
    let r = repo();
    let d = &r.root;
    write(
        d,
        "showcase/shell-docs/src/content/docs/quickstart.mdx",
        "# Quickstart\n",
    );
    write(
        d,
        "showcase/integrations/mastra/docs/setup.mdx",
        "# Setup\n\n- [Quickstart](/mastra/quickstart)\n- [Gone](/mastra/deploy-guide)\n",
    );
    commit(d, "docs");
    let s = scan(d);
    assert_eq!(
        refs_kind(
            &s,
            "showcase/integrations/mastra/docs/setup.mdx",
            "missing-path"
        ),
        ["/mastra/deploy-guide"],
        "{s:#}"
    );
}

/// A backticked path this tree deleted years before the document was written is not what the
/// document means: router's 2026 how-to says "Update `src/App.tsx`" for the reader's app, and
/// the root `src/App.tsx` went in 2021 (s34: router, nuxt, next-forge, pnpm, nitro, dagger; 12
/// judged false, none true). A file deleted weeks before the page (text copied from an older
/// one) still draws, and so does an old deletion under a folder the tree still has
/// (`core/render/core.ts` beside `core/render/`): a claim about that folder.
#[test]
fn a_path_deleted_long_before_the_document_is_not_its_claim() {
    let r = repo();
    let d = &r.root;
    write(d, "src/App.tsx", "export {};\n");
    write(d, "packages/core/render/core.ts", "export {};\n");
    write(d, "packages/core/render/index.ts", "export {};\n");
    write(d, "lib/old.ts", "export {};\n");
    commit_at(d, "app", "2021-01-01T00:00:00Z");
    git(
        d,
        &["rm", "-q", "src/App.tsx", "packages/core/render/core.ts"],
    );
    commit_at(d, "drop the old app", "2021-10-17T00:00:00Z");
    git(d, &["rm", "-q", "lib/old.ts"]);
    commit_at(d, "replace old", "2026-01-20T00:00:00Z");
    write(
        d,
        "docs/how-to/auth.md",
        "# Auth\n\nUpdate `src/App.tsx` to wrap the router.\n\n\
         Rendering lives in `packages/core/render/core.ts`; helpers in `lib/old.ts`.\n",
    );
    commit_at(d, "how-to", "2026-02-15T00:00:00Z");
    let s = scan(d);
    assert_eq!(
        refs_kind(&s, "docs/how-to/auth.md", "missing-path"),
        ["lib/old.ts", "packages/core/render/core.ts"],
        "{s:#}"
    );
}

/// An agent's instruction file in any folder is an entry too: what a nested `AGENTS.md` names
/// it tells the agent to read (s34: PraisonAI's sign-off logs that `src/agents/AGENTS.md`
/// cites as its verification record, deer-flow's authorization RFC that a middleware folder's
/// `AGENTS.md` says to read before changing a later phase; 6 judged false). Their ticked lists
/// and their lifecycle are no served plan's. The same log and plan that no instruction file
/// names still draw.
#[test]
fn what_an_instruction_file_names_is_presented_as_current() {
    let r = repo();
    let d = &r.root;
    let log = "# C6 verification\n\n- [x] Imports pass\n- [x] Hot path timed\n- [x] Signed off\n";
    write(d, "src/core/tests/C6_VERIFICATION.md", log);
    write(d, "src/core/tests/C5_VERIFICATION.md", log);
    let plan = "# Authorization RFC\n\n## Phases\n\n1. Roles.\n2. Sandboxes.\n";
    write(d, "docs/plans/authz-rfc.md", plan);
    write(d, "docs/plans/cache-rfc.md", plan);
    write(
        d,
        "src/agents/AGENTS.md",
        "# Agents\n\n| Verification log | `src/core/tests/C6_VERIFICATION.md` |\n|---|---|\n\n\
         Before changing a later phase, read the [authorization RFC](../../docs/plans/authz-rfc.md).\n",
    );
    commit(d, "docs");
    let s = scan(d);
    assert_eq!(
        docs_with_kind(&s, "checklist-complete"),
        ["src/core/tests/C5_VERIFICATION.md"],
        "{s:#}"
    );
    assert_eq!(
        docs_with_kind(&s, "lifecycle"),
        ["docs/plans/cache-rfc.md"],
        "{s:#}"
    );
}

/// A rooted route's first segment is a section at the top of a numbered Markdown collection,
/// never one nested in a numbered section: Nuxt's `docs/3.guide/4.modules/8.ecosystem.md`
/// links the site's module directory as `/modules`, which is not `/docs/guide/modules` (s34:
/// 4 signals, 3 judged false). A route into the collection that serves nothing still draws.
#[test]
fn a_route_does_not_name_a_nested_numbered_section() {
    let r = repo();
    let d = &r.root;
    write(d, "docs/3.guide/4.modules/1.index.md", "# Modules\n");
    write(
        d,
        "docs/3.guide/4.modules/8.ecosystem.md",
        "# Ecosystem\n\nBrowse [the modules](/modules), read [the guide](/docs/guide/modules) \
         and [gone](/docs/guide/modules/removed).\n",
    );
    commit(d, "docs");
    let s = scan(d);
    assert_eq!(
        refs_kind(&s, "docs/3.guide/4.modules/8.ecosystem.md", "missing-path"),
        ["/docs/guide/modules/removed"],
        "{s:#}"
    );
}

/// A path is read below a folder its sentence names, also when the sentence started on the
/// line before: "run the command from `backend/`⏎so the CLI discovers `langgraph.json`" means
/// `backend/langgraph.json`, whatever became of a root copy (s34: deer-flow's README, judged
/// false). The same name where no folder is named still draws.
#[test]
fn a_folder_named_on_the_line_before_in_the_same_sentence_holds_the_path() {
    let r = repo();
    let d = &r.root;
    write(d, "langgraph.json", "{\"graphs\": {}}\n");
    write(
        d,
        "backend/langgraph.json",
        "{\"dependencies\": [\".\"], \"env\": \".env\", \"graphs\": {\"lead\": \"x\"}}\n",
    );
    commit(d, "config");
    git(d, &["rm", "-q", "langgraph.json"]);
    commit(d, "drop the root copy");
    write(
        d,
        "README.md",
        "# Project\n\nTo inspect the graph, run the command from `backend/`\n\
         so the CLI discovers `langgraph.json`:\n\n\
         Studio reads `langgraph.json`.\n",
    );
    commit(d, "readme");
    let s = scan(d);
    let lines: Vec<u64> = signals(&s, "README.md")
        .iter()
        .filter(|x| x["kind"] == "missing-path")
        .map(|x| x["line"].as_u64().unwrap())
        .collect();
    assert_eq!(lines, [6], "{s:#}");
}

/// A Hugging Face doc-builder collection (`docs/source/en/_toctree.yml`) is served on
/// huggingface.co under `/docs/<library>/`, beside every other library's docs: a rooted
/// `/docs/hub/storage-buckets` in huggingface_hub's guides is the Hub's page (s34: 2 judged
/// false). A relative link to a page the collection lacks still draws.
#[test]
fn a_hub_docs_page_links_other_libraries_by_route() {
    let r = repo();
    let d = &r.root;
    write(
        d,
        "docs/source/en/_toctree.yml",
        "- sections:\n  - local: guides/cli\n",
    );
    write(
        d,
        "docs/source/en/guides/cli.md",
        "# CLI\n\nSee [storage buckets](/docs/hub/storage-buckets) and [jobs](./jobs).\n",
    );
    commit(d, "docs");
    let s = scan(d);
    assert_eq!(
        refs_kind(&s, "docs/source/en/guides/cli.md", "missing-path"),
        ["./jobs"],
        "{s:#}"
    );
}

/// A Hugging Face doc-builder collection serves the old routes its `_redirects.yml` lists
/// (`how-to-model-cards: guides/model-cards`): a relative link to one works on the site, even
/// where git renamed the page (huggingface_hub's `../how-to-model-cards` and
/// `../guides/webhooks_server`: judged false). A link to a route nothing redirects still draws,
/// and so does the same link from another language's folder, which has no redirects file.
#[test]
fn a_hub_collection_serves_its_redirects() {
    let r = repo();
    let d = &r.root;
    for lang in ["en", "ko"] {
        write(
            d,
            &format!("docs/source/{lang}/_toctree.yml"),
            "- sections:\n  - local: guides/model-cards\n",
        );
        write(
            d,
            &format!("docs/source/{lang}/guides/model-cards.md"),
            "# Model cards\n",
        );
        write(
            d,
            &format!("docs/source/{lang}/package_reference/cards.md"),
            "# Cards\n\nSee [the guide](../how-to-model-cards) and [old](../how-to-gone).\n",
        );
    }
    write(
        d,
        "docs/source/en/_redirects.yml",
        "# Moved pages\nhow-to-model-cards: guides/model-cards\n",
    );
    commit(d, "docs");
    let s = scan(d);
    assert_eq!(
        refs_kind(
            &s,
            "docs/source/en/package_reference/cards.md",
            "missing-path"
        ),
        ["../how-to-gone"],
        "{s:#}"
    );
    assert_eq!(
        refs_kind(
            &s,
            "docs/source/ko/package_reference/cards.md",
            "missing-path"
        ),
        ["../how-to-gone", "../how-to-model-cards"],
        "{s:#}"
    );
}

/// A line that says the path is in another repository ("update the `docs/config.json` file (in
/// the project's repo)": tanstack.com's contributing boilerplate copied into router's example
/// READMEs) claims nothing of this tree, and its git rename (`docs/router/config.json`) is no
/// fix (s34: 8 signals, 4 judged false, each with a rename an auto edit would have written). A
/// page that names the same path as this repository's still draws, with the rename.
#[test]
fn a_path_in_another_repository_is_no_claim() {
    let r = repo();
    let d = &r.root;
    write(
        d,
        "docs/config.json",
        "{\"sections\": [\"overview\", \"guides\", \"api\"]}\n",
    );
    commit(d, "docs config");
    std::fs::create_dir_all(d.join("docs/router")).unwrap();
    git(d, &["mv", "docs/config.json", "docs/router/config.json"]);
    commit(d, "move the docs config");
    write(
        d,
        "examples/basic/README.md",
        "# Basic\n\n> You will need to update the `docs/config.json` file (in the project's repo) \
         if you add a new doc page!\n",
    );
    write(
        d,
        "CONTRIBUTING.md",
        "# Contributing\n\nList each new page in `docs/config.json`.\n",
    );
    commit(d, "readmes");
    let s = scan(d);
    assert!(sigs(&s, "examples/basic/README.md").is_empty(), "{s:#}");
    assert_eq!(
        renames(&s, "CONTRIBUTING.md"),
        [(
            "docs/config.json".to_string(),
            "docs/router/config.json".to_string()
        )]
    );
}

/// A spec that cites a TODO comment of the code where it is ("overlapping chunks — TODO in
/// `hmr_stage.rs`", "(TODO, `Processor.ts:912`)", "(code TODO)") describes a known gap, not a
/// part of itself left to write (s34: rolldown's and livestore's specs, 3 judged false). A
/// TODO of the page's own still draws.
#[test]
fn a_todo_the_code_carries_is_cited_not_left() {
    let r = repo();
    let d = &r.root;
    write(
        d,
        "docs/lazy.md",
        "# Lazy compilation\n\nThe race window still exists (overlapping chunks \u{2014} TODO in \
         `hmr_stage.rs`), but it is harmless.\n\nThe queue is unbounded (TODO, \
         `processor.ts:912`).\n",
    );
    write(
        d,
        "docs/eager.md",
        "# Eager compilation\n\nTODO: explain the chunk order.\n",
    );
    commit(d, "docs");
    let s = scan(d);
    assert_eq!(
        docs_with_kind(&s, "provisional-marker"),
        ["docs/eager.md"],
        "{s:#}"
    );
}

/// A link between fence lines the author wrote is an example, though an HTML tag's line right
/// before the opening fence made CommonMark read the fence as part of an HTML block and the
/// link as a link (taches' skill-writing reference: `<implementation>` over "```xml" over a
/// sample skill's `[budgets.md](budgets.md)`; s34: 5 judged false). A link outside the fence
/// still draws.
#[test]
fn a_link_in_a_fence_an_html_block_swallowed_is_an_example() {
    let r = repo();
    let d = &r.root;
    write(
        d,
        "skills/writing/patterns.md",
        "# Patterns\n\nSee [the guide](guide.md).\n\n<implementation>\n```xml\n<objective>\nManage ads.\n</objective>\n\n\
         <advanced_features>\n**Budgets**: See [budgets.md](budgets.md)\n</advanced_features>\n```\n",
    );
    commit(d, "docs");
    let s = scan(d);
    assert_eq!(
        refs_kind(&s, "skills/writing/patterns.md", "missing-path"),
        ["guide.md"],
        "{s:#}"
    );
}

/// An `@path` in a page no agent loads as instructions or a prompt is a mention in the reader's
/// prompt or an example of the syntax ("Fix @src/auth.ts to match @tests/auth.test.ts" in a
/// CLI tutorial, `@file.md` on a page about imports; s34: 4 signals, 3 judged false, none
/// true). A slash command's `@` path, which Claude Code expands, still draws when it is gone.
#[test]
fn an_at_mention_in_a_page_no_agent_loads_is_no_import() {
    let r = repo();
    let d = &r.root;
    write(
        d,
        "skills/cli/references/advanced.md",
        "# Advanced\n\n1. **`@` mentions**\n   - \"Fix @src/auth.ts to match @tests/auth.test.ts\"\n",
    );
    write(
        d,
        ".claude/commands/prime.md",
        "Read @ai_docs/hooks.md and summarise it.\n",
    );
    commit(d, "docs");
    let s = scan(d);
    assert!(
        sigs(&s, "skills/cli/references/advanced.md").is_empty(),
        "{s:#}"
    );
    assert_eq!(
        refs_kind(&s, ".claude/commands/prime.md", "missing-path"),
        ["ai_docs/hooks.md"],
        "{s:#}"
    );
}
