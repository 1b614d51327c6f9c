//! Classes of false signal (and one untrusted auto edit) that held-out public repositories
//! showed, repositories none of the earlier rules were written from: a page collection whose
//! site lives elsewhere, a rename that changed what a file is, prompt variants, emoji headings,
//! per-field deprecation notes, imported library types. Each test shows the false signal gone
//! **and** a true signal of the same kind kept.

mod common;

use common::fixture::{commit, repo, scan};
use common::{git, read, write};
use serde_json::Value;
use std::process::Command;

/// `(kind, ref)` of every signal of `path` (ref empty for kinds without one).
fn sigs(scan: &Value, path: &str) -> Vec<(String, String)> {
    scan["shortlist"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|i| i["path"] == path)
        .flat_map(|i| i["signals"].as_array().unwrap())
        .map(|s| {
            (
                s["kind"].as_str().unwrap().to_string(),
                s["ref"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect()
}

fn pair(kind: &str, r: &str) -> (String, String) {
    (kind.to_string(), r.to_string())
}

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

/// A rename that kept the file's folder or its name (or turned a module into its package) is
/// fixed without a question; one that changed both (`memory/constitution.md` became
/// `templates/constitution-template.md`, a project file turned template) is reported with the
/// rename for the model to judge, and `--apply` leaves its line alone. A shipped prompt's
/// rooted path (`/memory/constitution.md`) is the user's project's.
#[test]
fn renames_that_change_what_a_file_is_wait_for_judgement() {
    let r = repo();
    let d = &r.root;
    write(
        d,
        "memory/constitution.md",
        "# Constitution\n\nPrinciples.\n",
    );
    write(d, "tools/check-fixtures.ts", "export const check = 1;\n");
    write(d, "src/cli/ext.py", "def load():\n    pass\n");
    commit(d, "files");
    std::fs::create_dir_all(d.join("templates")).unwrap();
    git(
        d,
        &[
            "mv",
            "memory/constitution.md",
            "templates/constitution-template.md",
        ],
    );
    git(
        d,
        &[
            "mv",
            "tools/check-fixtures.ts",
            "tools/validate-fixtures.ts",
        ],
    );
    std::fs::create_dir_all(d.join("src/cli/ext")).unwrap();
    git(d, &["mv", "src/cli/ext.py", "src/cli/ext/__init__.py"]);
    commit(d, "move");
    write(
        d,
        "CONTRIBUTING.md",
        "# Contributing\n\nKeep `memory/constitution.md` current.\n\n\
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
    let item = s["shortlist"]
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i["path"] == "CONTRIBUTING.md")
        .expect("CONTRIBUTING.md is shortlisted");
    let renamed: Vec<&str> = item["signals"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|s| s["renamed_to"].as_str())
        .collect();
    assert!(
        renamed.contains(&"templates/constitution-template.md"),
        "{item}"
    );
    assert!(sigs(&s, "templates/commands/plan.md").is_empty());
    let out = Command::new(env!("CARGO_BIN_EXE_hygiene"))
        .args(["check", "--accept-suggestions", "--apply", "--root"])
        .arg(d)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = read(d, "CONTRIBUTING.md");
    assert!(
        text.contains("Keep `memory/constitution.md` current."),
        "{text}"
    );
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
/// `#️-video-overview`); a fragment without it names no heading.
#[test]
fn emoji_headings_keep_their_variation_selector() {
    let r = repo();
    let d = &r.root;
    write(
        d,
        "README.md",
        "# Kit\n\n- [Video](#\u{fe0f}-video-overview)\n- [Old](#video-overview)\n\n## 📽\u{fe0f} Video Overview\n\nWatch it.\n",
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
