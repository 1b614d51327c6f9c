//! The Claude Code plugin's tests, in one binary because linking is slow here:
//! frontmatter lint, the token budget, the command lines the skills show, the `bin/hygiene`
//! shim, the classifier golden cases, and the end-to-end test with the real, pinned client
//! driving the plugin against a scripted model on loopback.

mod common;
use clap::Parser;
use common::{git, sha256_hex, write};
use hygiene::cli::Cli;
use hygiene::kinds;
use hygiene::report::{EditKind, Lifetime, OpType, Report, SafetyTier};
use hygiene::tier::{derive_safety_tier, Evidence, GitState, LifecycleArg};
use serde_json::{json, Value};
use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

// ---------------------------------------------------------------------------------------------
// Shared helpers
// ---------------------------------------------------------------------------------------------

fn plugin_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// A skill or agent file: its frontmatter (key → raw value) and body.
struct Doc {
    file: PathBuf,
    front: BTreeMap<String, String>,
    body: String,
}

fn parse_doc(file: &Path) -> Doc {
    let text = fs::read_to_string(file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
    let rest = text
        .strip_prefix("---\n")
        .unwrap_or_else(|| panic!("{}: no frontmatter", file.display()));
    let end = rest
        .find("\n---\n")
        .unwrap_or_else(|| panic!("{}: unterminated frontmatter", file.display()));
    let mut front = BTreeMap::new();
    for (i, line) in rest[..end].lines().enumerate() {
        let (k, v) = line.split_once(':').unwrap_or_else(|| {
            panic!(
                "{}:{}: not a `key: value` line: {line}",
                file.display(),
                i + 2
            )
        });
        assert!(
            !k.starts_with(' '),
            "{}:{}: nested YAML is not expected here",
            file.display(),
            i + 2
        );
        let v = v.trim().trim_matches('"').to_string();
        assert!(
            front.insert(k.to_string(), v).is_none(),
            "{}: duplicate key {k}",
            file.display()
        );
    }
    Doc {
        file: file.to_path_buf(),
        front,
        body: rest[end + 5..].to_string(),
    }
}

fn skills() -> Vec<Doc> {
    ["check", "clean", "sweep"]
        .iter()
        .map(|s| parse_doc(&plugin_root().join("skills").join(s).join("SKILL.md")))
        .collect()
}

fn agents() -> Vec<Doc> {
    ["classifier", "rewriter"]
        .iter()
        .map(|a| parse_doc(&plugin_root().join("agents").join(format!("{a}.md"))))
        .collect()
}

fn run(cmd: &mut Command) -> Output {
    let out = cmd
        .output()
        .unwrap_or_else(|e| panic!("could not run {cmd:?}: {e}"));
    out
}

fn copy_tree(from: &Path, to: &Path) {
    for e in fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let dest = to.join(e.file_name());
        if e.file_type().unwrap().is_dir() {
            fs::create_dir_all(&dest).unwrap();
            copy_tree(&e.path(), &dest);
        } else {
            fs::copy(e.path(), &dest).unwrap();
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Lint: frontmatter keys, model values, tool names
// ---------------------------------------------------------------------------------------------

/// Skill frontmatter keys the pinned client (2.1.332) reads; checked against its schema.
const SKILL_KEYS: &[&str] = &[
    "name",
    "description",
    "argument-hint",
    "allowed-tools",
    "disallowed-tools",
    "model",
    "disable-model-invocation",
    "user-invocable",
    "effort",
    "shell",
    "when_to_use",
    "paths",
    "hooks",
    "context",
    "agent",
];
/// Agent frontmatter keys the client reads. `hooks`, `mcpServers` and `permissionMode` are left
/// out on purpose: plugin agents ignore them, so using one would be a silent mistake.
const AGENT_KEYS: &[&str] = &[
    "name",
    "description",
    "tools",
    "disallowedTools",
    "model",
    "maxTurns",
    "effort",
    "skills",
    "color",
    "memory",
    "background",
];
const MODELS: &[&str] = &["sonnet", "opus", "haiku", "inherit"];
/// Tools of the client's built-in set (the e2e test checks the agents' tools against the real
/// client's `init` event as well).
const TOOLS: &[&str] = &[
    "Agent",
    "Task",
    "Bash",
    "Edit",
    "Glob",
    "Grep",
    "NotebookEdit",
    "Read",
    "Skill",
    "WebFetch",
    "WebSearch",
    "Write",
];

fn tool_list(v: &str) -> Vec<String> {
    v.split(',')
        .map(|t| t.trim().to_string())
        .filter(|t| !t.is_empty())
        .collect()
}

fn check_tool(doc: &Doc, t: &str) {
    let name = t.split('(').next().unwrap();
    assert!(
        TOOLS.contains(&name),
        "{}: unknown tool {t:?}",
        doc.file.display()
    );
    if let Some(rest) = t.strip_prefix(name) {
        assert!(
            rest.is_empty() || (rest.starts_with('(') && rest.ends_with(')')),
            "{}: malformed tool rule {t:?}",
            doc.file.display()
        );
    }
}

#[test]
fn frontmatter_lint() {
    for s in skills() {
        let dir = s
            .file
            .parent()
            .unwrap()
            .file_name()
            .unwrap()
            .to_str()
            .unwrap();
        for k in s.front.keys() {
            assert!(
                SKILL_KEYS.contains(&k.as_str()),
                "{}: unknown skill key {k}",
                s.file.display()
            );
        }
        assert_eq!(s.front.get("name").map(String::as_str), Some(dir));
        assert!(!s.front["description"].is_empty());
        if let Some(m) = s.front.get("model") {
            assert!(
                MODELS.contains(&m.as_str()),
                "{}: model {m}",
                s.file.display()
            );
        }
        if let Some(t) = s.front.get("allowed-tools") {
            for tool in tool_list(t) {
                check_tool(&s, &tool);
            }
        }
    }
    for a in agents() {
        let stem = a.file.file_stem().unwrap().to_str().unwrap();
        for k in a.front.keys() {
            assert!(
                AGENT_KEYS.contains(&k.as_str()),
                "{}: unknown or ignored agent key {k}",
                a.file.display()
            );
        }
        assert_eq!(a.front.get("name").map(String::as_str), Some(stem));
        assert!(!a.front["description"].is_empty());
        assert_eq!(
            a.front.get("model").map(String::as_str),
            Some("sonnet"),
            "{}: the brief fixes model sonnet",
            a.file.display()
        );
        let tools = tool_list(a.front.get("tools").expect("agents list minimal tools"));
        assert!(!tools.is_empty());
        for t in &tools {
            check_tool(&a, t);
            assert!(!t.contains('('), "agent tools take bare names: {t}");
        }
        if let Some(n) = a.front.get("maxTurns") {
            assert!(n.parse::<u32>().is_ok_and(|n| n > 0), "maxTurns {n}");
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Token budget
// ---------------------------------------------------------------------------------------------

#[test]
fn token_budget() {
    let mut total = 0;
    let mut lines = Vec::new();
    for d in skills().into_iter().chain(agents()) {
        let desc = hygiene::tokens::count(&d.front["description"]);
        let body = hygiene::tokens::count(&d.body);
        total += desc;
        lines.push(format!(
            "{:<28} description {:>3} tokens, body {:>4} tokens",
            d.file.strip_prefix(plugin_root()).unwrap().display(),
            desc,
            body
        ));
        if d.file.ends_with("SKILL.md") {
            assert!(
                body <= 1500,
                "{}: body {body} tokens > 1500",
                d.file.display()
            );
        }
    }
    lines.push(format!(
        "per-session cost of all descriptions: {total} tokens ({}; budget 300)",
        hygiene::tokens::ENCODING
    ));
    println!("{}", lines.join("\n"));
    assert!(total <= 300, "descriptions total {total} tokens > 300");
}

// ---------------------------------------------------------------------------------------------
// Every `hygiene ...` command line a skill shows parses with the helper's clap definition
// ---------------------------------------------------------------------------------------------

/// Command lines starting with `hygiene ` in fenced blocks and inline code spans.
fn hygiene_lines(body: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut fenced = false;
    for line in body.lines() {
        let t = line.trim();
        if t.starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if fenced {
            if t.starts_with("hygiene ") {
                out.push(t.to_string());
            }
            continue;
        }
        for (i, span) in line.split('`').enumerate() {
            if i % 2 == 1 && span.starts_with("hygiene ") {
                out.push(span.to_string());
            }
        }
    }
    out
}

#[test]
fn skill_command_lines_parse() {
    let mut n = 0;
    let mut seen = BTreeSet::new();
    for s in skills() {
        for line in hygiene_lines(&s.body) {
            // Placeholders the skills define: N is an entry index, $ARGUMENTS the user's paths.
            let argv: Vec<String> = line
                .split_whitespace()
                .map(|w| match w {
                    "N" => "3".to_string(),
                    "TOKEN" => "0123456789ab".to_string(),
                    "$ARGUMENTS" => "docs/plans".to_string(),
                    w => w.replace("/N.md", "/3.md"),
                })
                .collect();
            let cli = Cli::try_parse_from(&argv)
                .unwrap_or_else(|e| panic!("{}: `{line}` does not parse:\n{e}", s.file.display()));
            seen.insert(
                format!("{:?}", cli.command)
                    .split(['(', ' '])
                    .next()
                    .unwrap()
                    .to_string(),
            );
            n += 1;
        }
    }
    println!("{n} hygiene command lines parsed; commands used: {seen:?}");
    for c in ["Scan", "Finalize", "Summary", "Apply", "Sweep"] {
        assert!(
            seen.contains(c),
            "no skill shows `hygiene {}`",
            c.to_lowercase()
        );
    }
    assert!(n >= 12, "only {n} command lines found");
}

#[test]
fn hygiene_lines_finds_fenced_and_inline_commands() {
    let body = "run `hygiene undo` or\n```\nhygiene scan --out x\nrm -rf y\n```\n`cat`";
    assert_eq!(
        hygiene_lines(body),
        vec![
            "hygiene undo".to_string(),
            "hygiene scan --out x".to_string()
        ]
    );
}

// ---------------------------------------------------------------------------------------------
// The shim
// ---------------------------------------------------------------------------------------------

/// Runs `bin/hygiene` once so the release helper exists (built by the shim itself) before any
/// client run: a build inside the client's Bash tool would hit its timeout.
fn helper() -> &'static Path {
    static BUILT: OnceLock<PathBuf> = OnceLock::new();
    BUILT.get_or_init(|| {
        // Built from this tree even once release/SHA256SUMS pins a released helper.
        let out = run(Command::new(plugin_root().join("bin/hygiene"))
            .arg("--version")
            .env("HYGIENE_BUILD_FROM_SOURCE", "1"));
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success(),
            "bin/hygiene --version failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert_eq!(
            stdout.trim(),
            format!("hygiene {}", env!("CARGO_PKG_VERSION")),
            "the shim must exec the helper built from this tree"
        );
        plugin_root().join("target/release/hygiene")
    })
}

#[test]
fn shim_builds_and_execs_the_helper() {
    let bin = helper();
    let meta = fs::metadata(bin).expect("the shim leaves target/release/hygiene");
    let built = meta.modified().unwrap();
    // Second call: nothing is newer than the binary, so no build and no progress line.
    let out = run(Command::new(plugin_root().join("bin/hygiene")).arg("--version"));
    assert!(out.status.success());
    assert!(
        out.stderr.is_empty(),
        "a fresh binary must run silently, got: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(fs::metadata(bin).unwrap().modified().unwrap(), built);
}

/// A plugin root with the real shim, a Cargo.toml and src/, and a fake "helper" binary.
fn fake_root() -> tempfile::TempDir {
    let t = tempfile::tempdir().unwrap();
    fs::create_dir_all(t.path().join("bin")).unwrap();
    fs::copy(
        plugin_root().join("bin/hygiene"),
        t.path().join("bin/hygiene"),
    )
    .unwrap();
    write(t.path(), "Cargo.toml", "[package]\nname = \"x\"\n");
    write(t.path(), "src/main.rs", "fn main() {}\n");
    t
}

fn shim_without_cargo(root: &Path, link: Option<&Path>) -> Output {
    let home = root.join("home");
    fs::create_dir_all(&home).unwrap();
    let shim = link
        .map(Path::to_path_buf)
        .unwrap_or(root.join("bin/hygiene"));
    run(Command::new("bash")
        .arg(shim)
        .args(["one", "two words"])
        .env_clear()
        .env("PATH", "/usr/bin:/bin")
        .env("HOME", &home))
}

#[test]
fn shim_execs_a_fresh_binary_with_all_arguments_and_follows_symlinks() {
    let t = fake_root();
    write(
        t.path(),
        "target/release/hygiene",
        "#!/bin/sh\nfor a in \"$@\"; do echo \"[$a]\"; done\n",
    );
    let bin = t.path().join("target/release/hygiene");
    let mut perm = fs::metadata(&bin).unwrap().permissions();
    std::os::unix::fs::PermissionsExt::set_mode(&mut perm, 0o755);
    fs::set_permissions(&bin, perm).unwrap();
    // Make the binary strictly newer than every source.
    let later = std::time::SystemTime::now() + Duration::from_secs(5);
    fs::File::options()
        .write(true)
        .open(&bin)
        .unwrap()
        .set_modified(later)
        .unwrap();
    // Call it through a symlink elsewhere, as a PATH entry might.
    let link = t.path().join("home/link-to-hygiene");
    fs::create_dir_all(link.parent().unwrap()).unwrap();
    std::os::unix::fs::symlink(t.path().join("bin/hygiene"), &link).unwrap();
    let out = shim_without_cargo(t.path(), Some(&link));
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(String::from_utf8_lossy(&out.stdout), "[one]\n[two words]\n");
    assert!(out.stderr.is_empty());
}

#[test]
fn shim_without_cargo_fails_with_one_actionable_line() {
    // First use (no binary) and stale binary (a source newer than it) both need cargo.
    for stale in [false, true] {
        let t = fake_root();
        if stale {
            write(t.path(), "target/release/hygiene", "#!/bin/sh\necho old\n");
            let bin = t.path().join("target/release/hygiene");
            let mut perm = fs::metadata(&bin).unwrap().permissions();
            std::os::unix::fs::PermissionsExt::set_mode(&mut perm, 0o755);
            fs::set_permissions(&bin, perm).unwrap();
            let later = std::time::SystemTime::now() + Duration::from_secs(5);
            fs::File::options()
                .write(true)
                .open(t.path().join("src/main.rs"))
                .unwrap()
                .set_modified(later)
                .unwrap();
        }
        if Path::new("/usr/bin/cargo").exists() || Path::new("/bin/cargo").exists() {
            panic!("cargo is installed system-wide; this test needs a PATH without it");
        }
        let out = shim_without_cargo(t.path(), None);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "stale={stale}: {err}");
        assert!(
            out.stdout.is_empty(),
            "stale={stale}: must not run the old binary"
        );
        // This tree has no release/targets, so no prebuilt helper either (tests/install.rs
        // covers the downloads).
        assert_eq!(
            err,
            "hygiene: this plugin has no release/targets, and cargo is not installed; install Rust from https://rustup.rs and retry\n"
        );
    }
}

// ---------------------------------------------------------------------------------------------
// Classifier golden cases: finalize each and check the derived tier independently
// ---------------------------------------------------------------------------------------------

fn golden_cases() -> Vec<PathBuf> {
    let dir = plugin_root().join("examples/golden/classifier");
    let mut cases: Vec<_> = fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    cases.sort();
    cases
}

fn read_case_json(case: &Path, f: &str) -> Value {
    let p = case.join(f);
    serde_json::from_str(&fs::read_to_string(&p).unwrap())
        .unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// Checks the cases against the contract types and the kind table, without the helper.
#[test]
fn classifier_golden_cases_match_the_contract() {
    use hygiene::report::{Category, ExactEdit, ShortlistItem};
    for case in golden_cases() {
        let name = case.file_name().unwrap().to_string_lossy().to_string();
        let item: ShortlistItem = serde_json::from_value(read_case_json(&case, "item.json"))
            .unwrap_or_else(|e| panic!("{name}/item.json: {e}"));
        assert!(
            case.join("repo").join(&item.path).exists(),
            "{name}: the document is in repo/"
        );
        let draft = read_case_json(&case, "draft.json");
        let keys: BTreeSet<&str> = draft
            .as_object()
            .unwrap()
            .keys()
            .map(|k| k.as_str())
            .collect();
        let allowed: BTreeSet<&str> = [
            "path",
            "category",
            "signals",
            "op",
            "op_type",
            "exact_edit",
            "lifecycle",
            "is_destructive",
            "is_reversible",
        ]
        .into();
        assert!(keys.is_subset(&allowed), "{name}: draft keys {keys:?}");
        let _: Category = serde_json::from_value(draft["category"].clone()).unwrap();
        let op_type: OpType = serde_json::from_value(draft["op_type"].clone()).unwrap();
        match op_type {
            OpType::Deterministic => {
                let edit: ExactEdit = serde_json::from_value(draft["exact_edit"].clone())
                    .unwrap_or_else(|e| panic!("{name}: exact_edit: {e}"));
                assert!(
                    kinds::field_problems(&edit).is_empty(),
                    "{name}: {:?}",
                    kinds::field_problems(&edit)
                );
                assert!(edit.expected_sha256.is_none(), "{name}");
                assert!(
                    draft.get("is_destructive").is_none(),
                    "{name}: derived for deterministic ops"
                );
            }
            OpType::Generative => {
                assert!(draft.get("exact_edit").is_none(), "{name}");
                assert!(
                    draft["is_destructive"].is_boolean() && draft["is_reversible"].is_boolean()
                );
            }
        }
    }
}

fn scan_json(root: &Path, items: &[Value]) -> Value {
    json!({
        "schema_version": 1,
        "tool_version": env!("CARGO_PKG_VERSION"),
        "generated_at": "2030-01-01T00:00:00Z",
        "scan": {
            "project_root": root.display().to_string(),
            "scope_globs": ["**/*.md"],
            "excluded_dirs": [".git", "target"],
            "files_scanned": items.len()
        },
        "shortlist": items,
    })
}

/// The tier the report must carry, from the kind table and `derive_safety_tier`, with the
/// lifecycle evidence read from the draft and the repository (committed, so tracked and clean).
fn expected_tier(root: &Path, draft: &Value) -> SafetyTier {
    let op_type: OpType = serde_json::from_value(draft["op_type"].clone()).unwrap();
    if op_type == OpType::Generative {
        return derive_safety_tier(
            op_type,
            draft["is_destructive"].as_bool().unwrap(),
            draft["is_reversible"].as_bool().unwrap(),
            None,
        );
    }
    let kind: EditKind = serde_json::from_value(draft["exact_edit"]["kind"].clone()).unwrap();
    let rule = kinds::rule(kind);
    let lifecycle = rule.lifecycle.then(|| {
        let l = &draft["exact_edit"]["lifecycle"];
        let lifetime: Lifetime = serde_json::from_value(l["lifetime"].clone()).unwrap();
        let evidence = if let Some(p) = l["served_when_path"].as_str() {
            if root.join(p).exists() {
                Evidence::ServedWhenPathSatisfied
            } else {
                Evidence::ServedWhenPathMissing
            }
        } else if l["served_when"].is_string() {
            Evidence::ClassifierJudged
        } else {
            assert_eq!(lifetime, Lifetime::Temporary);
            Evidence::TemporaryAge
        };
        LifecycleArg {
            evidence,
            git: GitState {
                tracked: true,
                clean: true,
            },
            leaves_repo: draft["exact_edit"]["extraction_target"] == "cross-repo",
        }
    });
    let reversible = match rule.reversibility {
        kinds::Reversibility::Fixed(r) => r,
        kinds::Reversibility::GitHistory => true,
    };
    derive_safety_tier(op_type, rule.is_destructive, reversible, lifecycle)
}

#[test]
fn classifier_golden_cases_finalize_to_the_derived_tier() {
    let mut subtypes = BTreeSet::new();
    let mut families = BTreeSet::new();
    let cases = golden_cases();
    for case in &cases {
        let name = case.file_name().unwrap().to_string_lossy().to_string();
        let item = read_case_json(case, "item.json");
        let draft = read_case_json(case, "draft.json");
        let why = fs::read_to_string(case.join("why.md")).unwrap();
        assert_eq!(why.trim().lines().count(), 1, "{name}: why.md is one line");
        assert_eq!(
            draft["path"], item["path"],
            "{name}: draft path is the item's"
        );
        assert_eq!(
            draft["signals"], item["signals"],
            "{name}: signals are copied"
        );
        assert_eq!(
            draft["lifecycle"], item["lifecycle"],
            "{name}: lifecycle is copied"
        );
        for derived in ["safety_tier", "token_estimate"] {
            assert!(draft.get(derived).is_none(), "{name}: draft has {derived}");
        }
        assert!(
            draft["exact_edit"].get("expected_sha256").is_none(),
            "{name}: drafts carry no hash"
        );
        subtypes.insert(format!(
            "{}/{}",
            draft["category"]["class"].as_str().unwrap(),
            draft["category"]["subtype"].as_str().unwrap()
        ));
        families.insert(match draft["exact_edit"]["kind"].as_str() {
            Some(k) => k.to_string(),
            None => "generative".to_string(),
        });

        let t = tempfile::tempdir().unwrap();
        let root = t.path().join("repo");
        fs::create_dir_all(&root).unwrap();
        copy_tree(&case.join("repo"), &root);
        git(&root, &["init", "-q"]);
        git(&root, &["add", "-A"]);
        git(&root, &["commit", "-q", "-m", "golden case"]);
        let scan = t.path().join("scan.json");
        let scan_value = scan_json(&root, std::slice::from_ref(&item));
        let _: hygiene::report::ScanResult = serde_json::from_value(scan_value.clone())
            .unwrap_or_else(|e| panic!("{name}: the test's scan is not a ScanResult: {e}"));
        fs::write(&scan, scan_value.to_string()).unwrap();
        let drafts = t.path().join("drafts.json");
        fs::write(&drafts, json!({ "entries": [draft.clone()] }).to_string()).unwrap();
        let report_path = t.path().join("report.json");
        let out = run(Command::new(env!("CARGO_BIN_EXE_hygiene"))
            .arg("finalize")
            .arg("--root")
            .arg(&root)
            .arg("--scan")
            .arg(&scan)
            .arg("--drafts")
            .arg(&drafts)
            .arg("--out")
            .arg(&report_path));
        assert!(
            out.status.success(),
            "{name}: finalize failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let report: Report =
            serde_json::from_str(&fs::read_to_string(&report_path).unwrap()).unwrap();
        assert_eq!(report.entries.len(), 1, "{name}");
        let e = &report.entries[0];
        assert_eq!(e.safety_tier, expected_tier(&root, &draft), "{name}: tier");
        if let Some(edit) = &e.exact_edit {
            let rule = kinds::rule(edit.kind);
            assert_eq!(e.is_destructive, rule.is_destructive, "{name}");
            let target = root.join(&e.path);
            if target.is_file() {
                assert_eq!(
                    edit.expected_sha256.as_deref(),
                    Some(sha256_hex(&fs::read(&target).unwrap()).as_str()),
                    "{name}: expected_sha256 is the committed file's"
                );
            }
        }
    }
    let want_subtypes = [
        "stale/contradicted",
        "stale/orphaned",
        "stale/superseded",
        "stale/provisional",
        "stale/completed-in-place",
        "stale/duplicated",
        "bloat/distill",
        "bloat/split",
        "bloat/freeze",
    ];
    for s in want_subtypes {
        assert!(subtypes.contains(s), "no golden case for {s}");
    }
    for k in kinds::KINDS {
        let name = serde_json::to_value(k.kind).unwrap();
        assert!(
            families.contains(name.as_str().unwrap()),
            "no golden case for {name}"
        );
    }
    assert!(families.contains("generative"), "no generative golden case");
    println!("{} golden cases: {subtypes:?} {families:?}", cases.len());
}

// ---------------------------------------------------------------------------------------------
// End to end with the real client
// ---------------------------------------------------------------------------------------------

const CLIENT_VERSION: &str = "2.1.332";
const RUN_TIMEOUT_SECS: &str = "240";

/// The pinned client, installed with npm into the cache folder when missing. Installed once per
/// test binary (a `OnceLock`), under a file lock so that concurrent tests or test processes on a
/// fresh machine never run two installs into one folder or execute a half-installed client.
fn claude() -> PathBuf {
    static BIN: OnceLock<PathBuf> = OnceLock::new();
    BIN.get_or_init(install_claude).clone()
}

fn client_version_ok(bin: &Path) -> bool {
    bin.exists()
        && Command::new(bin)
            .arg("--version")
            .output()
            .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).contains(CLIENT_VERSION))
}

fn install_claude() -> PathBuf {
    let cache = std::env::var_os("HYGIENE_E2E_CACHE")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            PathBuf::from(std::env::var_os("HOME").expect("HOME is set")).join(".cache/hygiene-e2e")
        });
    let dir = cache.join(format!("claude-code-{CLIENT_VERSION}"));
    let bin = dir.join("node_modules/.bin/claude");
    fs::create_dir_all(&cache).unwrap();
    let lock = fs::File::create(cache.join(format!(".install-{CLIENT_VERSION}.lock"))).unwrap();
    lock.lock().expect("the install lock");
    if !client_version_ok(&bin) {
        fs::create_dir_all(&dir).unwrap();
        eprintln!(
            "installing @anthropic-ai/claude-code@{CLIENT_VERSION} into {}",
            dir.display()
        );
        let out = Command::new("timeout")
            .args([
                "900",
                "npm",
                "install",
                "--no-audit",
                "--no-fund",
                "--prefix",
            ])
            .arg(&dir)
            .arg(format!("@anthropic-ai/claude-code@{CLIENT_VERSION}"))
            .output();
        match out {
            Ok(o) if o.status.success() && bin.exists() => {}
            Ok(o) => panic!(
                "the e2e test needs the Claude Code client: `npm install --prefix {} \
                 @anthropic-ai/claude-code@{CLIENT_VERSION}` failed ({}):\n{}",
                dir.display(),
                o.status,
                String::from_utf8_lossy(&o.stderr)
            ),
            Err(e) => panic!("the e2e test needs npm (Node.js) to install the client: {e}"),
        }
    }
    let out = run(Command::new(&bin).arg("--version"));
    let v = String::from_utf8_lossy(&out.stdout);
    assert!(
        v.contains(CLIENT_VERSION),
        "{} is not the pinned client {CLIENT_VERSION}: {v}",
        bin.display()
    );
    drop(lock);
    bin
}

/// The scripted model: tests/e2e/mock_anthropic.py with tests/e2e/scenario.py, on 127.0.0.1.
struct Mock {
    child: Child,
    port: u16,
    log: PathBuf,
}

impl Mock {
    fn start(dir: &Path, mode: &str) -> Mock {
        fs::create_dir_all(dir).unwrap();
        let port_file = dir.join("port");
        let log = dir.join("requests.jsonl");
        let e2e = plugin_root().join("tests/e2e");
        let child = Command::new("python3")
            .arg(e2e.join("mock_anthropic.py"))
            .args(["--port", "0", "--log"])
            .arg(&log)
            .arg("--scenario")
            .arg(e2e.join("scenario.py"))
            .arg("--port-file")
            .arg(&port_file)
            .env("HYGIENE_E2E_MODE", mode)
            .stdout(Stdio::null())
            .stderr(fs::File::create(dir.join("mock.stderr")).unwrap())
            .spawn()
            .expect("python3 runs the scripted model");
        let start = Instant::now();
        let port = loop {
            if let Some(p) = fs::read_to_string(&port_file)
                .ok()
                .and_then(|s| s.trim().parse().ok())
            {
                break p;
            }
            assert!(
                start.elapsed() < Duration::from_secs(15),
                "the scripted model did not start"
            );
            std::thread::sleep(Duration::from_millis(50));
        };
        Mock { child, port, log }
    }

    fn requests(&self) -> Vec<Value> {
        fs::read_to_string(&self.log)
            .unwrap_or_default()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect()
    }
}

impl Drop for Mock {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// One `claude` run: its exit status and stream-json events.
struct ClientRun {
    events: Vec<Value>,
    raw: String,
}

impl ClientRun {
    fn init(&self) -> &Value {
        self.events
            .iter()
            .find(|e| e["type"] == "system" && e["subtype"] == "init")
            .unwrap_or_else(|| panic!("no init event:\n{}", self.raw))
    }

    fn result(&self) -> String {
        let r = self
            .events
            .iter()
            .rev()
            .find(|e| e["type"] == "result")
            .unwrap_or_else(|| panic!("no result event:\n{}", self.raw));
        r["result"].as_str().unwrap_or_default().to_string()
    }

    fn tool_uses(&self) -> Vec<&Value> {
        self.events
            .iter()
            .filter(|e| e["type"] == "assistant")
            .flat_map(|e| e["message"]["content"].as_array().into_iter().flatten())
            .filter(|b| b["type"] == "tool_use")
            .collect()
    }

    fn bash_commands(&self) -> Vec<String> {
        self.tool_uses()
            .into_iter()
            .filter(|b| b["name"] == "Bash")
            .map(|b| b["input"]["command"].as_str().unwrap_or("").to_string())
            .collect()
    }

    /// Fails with the transcript's tail when the scripted model saw a tool error.
    fn assert_no_tool_error(&self, what: &str) {
        let result = self.result();
        assert!(
            !result.contains("TOOL-ERROR-SEEN") && !self.raw.contains("TOOL-ERROR-SEEN"),
            "{what}: a tool call failed: {result}\n--- transcript tail ---\n{}",
            tail(&self.raw, 3000)
        );
    }
}

fn tail(s: &str, n: usize) -> &str {
    let mut i = s.len().saturating_sub(n);
    while !s.is_char_boundary(i) {
        i += 1;
    }
    &s[i..]
}

fn client(claude: &Path, home: &Path, cwd: &Path, port: Option<u16>, args: &[&str]) -> ClientRun {
    client_env(claude, home, cwd, port, args, &[])
}

/// `client` with extra environment variables for the client (and so for its Bash tool).
fn client_env(
    claude: &Path,
    home: &Path,
    cwd: &Path,
    port: Option<u16>,
    args: &[&str],
    env: &[(&str, &str)],
) -> ClientRun {
    fs::create_dir_all(home).unwrap();
    let mut cmd = Command::new("timeout");
    cmd.args(["--kill-after=10", RUN_TIMEOUT_SECS])
        .arg(claude)
        .args(args)
        .current_dir(cwd)
        .env("HOME", home)
        .env("ANTHROPIC_API_KEY", "dummy")
        .env("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1")
        .env("DISABLE_TELEMETRY", "1")
        .env("DISABLE_AUTOUPDATER", "1")
        // A plugin copy without a built helper (a marketplace install into a temporary HOME)
        // must not start a background build from its session-start hook during the tests.
        .env("HYGIENE_HOOK_NO_BUILD", "1")
        .env_remove("ANTHROPIC_AUTH_TOKEN")
        .env_remove("CLAUDE_CONFIG_DIR")
        .env_remove("CLAUDECODE")
        .stdin(Stdio::null());
    match port {
        Some(p) => cmd.env("ANTHROPIC_BASE_URL", format!("http://127.0.0.1:{p}")),
        None => cmd.env("ANTHROPIC_BASE_URL", "http://127.0.0.1:9"),
    };
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = run(&mut cmd);
    let raw = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(
        out.status.code() != Some(124),
        "claude {args:?} timed out after {RUN_TIMEOUT_SECS}s:\n{}",
        tail(&raw, 4000)
    );
    assert!(
        out.status.success(),
        "claude {args:?} failed ({}):\nstdout: {}\nstderr: {}",
        out.status,
        tail(&raw, 4000),
        String::from_utf8_lossy(&out.stderr)
    );
    let events = raw
        .lines()
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect();
    ClientRun { events, raw }
}

fn prompt_args<'a>(prompt: &'a str, plugin: &'a str, extra: &[&'a str]) -> Vec<&'a str> {
    let mut a = vec!["-p", prompt];
    if !plugin.is_empty() {
        a.extend(["--plugin-dir", plugin]);
    }
    // No `--allowedTools`: a broad `Bash` rule there would override the skills' narrow
    // `allowed-tools`, and the skills must work (and stop) with exactly what they allow.
    a.extend(["--output-format", "stream-json", "--verbose"]);
    a.extend(extra);
    a
}

/// One `claude` run in stream-json mode with the client's permission prompt on stdio: the
/// prompt goes in as a user message, every `can_use_tool` request the client sends is answered
/// by `decide` (true: allow), and stdin stays open until the `result` event. Returns the run and
/// the permission requests the client made.
fn client_with_permissions(
    claude: &Path,
    home: &Path,
    cwd: &Path,
    port: u16,
    plugin: &str,
    prompt: &str,
    mut decide: impl FnMut(&Value) -> bool,
) -> (ClientRun, Vec<Value>) {
    use std::io::{BufRead, BufReader, Write as _};
    fs::create_dir_all(home).unwrap();
    let mut child = Command::new("timeout")
        .args(["--kill-after=10", RUN_TIMEOUT_SECS])
        .arg(claude)
        .args([
            "-p",
            "--input-format",
            "stream-json",
            "--output-format",
            "stream-json",
            "--verbose",
            "--permission-prompt-tool",
            "stdio",
            "--plugin-dir",
            plugin,
        ])
        .current_dir(cwd)
        .env("HOME", home)
        .env("ANTHROPIC_API_KEY", "dummy")
        .env("ANTHROPIC_BASE_URL", format!("http://127.0.0.1:{port}"))
        .env("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1")
        .env("DISABLE_TELEMETRY", "1")
        .env("DISABLE_AUTOUPDATER", "1")
        .env_remove("ANTHROPIC_AUTH_TOKEN")
        .env_remove("CLAUDE_CONFIG_DIR")
        .env_remove("CLAUDECODE")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the client starts");
    let mut stdin = child.stdin.take();
    let send = |stdin: &mut Option<std::process::ChildStdin>, v: Value| {
        if let Some(w) = stdin.as_mut() {
            writeln!(w, "{v}").unwrap();
            w.flush().unwrap();
        }
    };
    send(
        &mut stdin,
        json!({"type": "user", "message": {"role": "user", "content": prompt},
               "parent_tool_use_id": null, "session_id": ""}),
    );
    let mut raw = String::new();
    let mut events = Vec::new();
    let mut asked = Vec::new();
    for line in BufReader::new(child.stdout.take().unwrap()).lines() {
        let line = line.unwrap();
        raw.push_str(&line);
        raw.push('\n');
        let Ok(ev) = serde_json::from_str::<Value>(&line) else {
            continue;
        };
        if ev["type"] == "control_request" && ev["request"]["subtype"] == "can_use_tool" {
            let req = ev["request"].clone();
            let behavior = if decide(&req) {
                json!({"behavior": "allow", "updatedInput": req["input"]})
            } else {
                json!({"behavior": "deny", "message": "The user declined this edit."})
            };
            asked.push(req);
            send(
                &mut stdin,
                json!({"type": "control_response", "response": {"subtype": "success",
                       "request_id": ev["request_id"], "response": behavior}}),
            );
        }
        if ev["type"] == "result" {
            stdin = None;
        }
        events.push(ev);
    }
    drop(stdin);
    let status = child.wait().unwrap();
    let mut err = String::new();
    if let Some(mut e) = child.stderr.take() {
        let _ = std::io::Read::read_to_string(&mut e, &mut err);
    }
    assert!(
        status.code() != Some(124),
        "claude timed out:\n{}",
        tail(&raw, 4000)
    );
    assert!(
        status.success(),
        "claude failed ({status}):\n{}\n{err}",
        tail(&raw, 4000)
    );
    (ClientRun { events, raw }, asked)
}

const CLAUDE_MD: &str = "# Fixture project\n\nBuild with the [build script](scripts/make.sh).\nDeploy notes are in [docs/deploy.md](docs/deploy.md).\n\nTODO: list the release steps.\n";
const DEPLOY_MD: &str = "# Deploy\n\nTODO: write the rollback steps.\n\nRun the [build script](../scripts/build.sh), then copy the output to the server.\n";
const INCIDENT_MD: &str = "# Incident: slow builds\n\nStatus: resolved\n\nOn Monday the builds took forty minutes instead of four. We first suspected the cache,\nthen the network, then the runners. Each guess cost a day. In the end the linker was\nrunning without its parallel flag because a configuration file had been reformatted and\na line had been dropped. We restored the line, added a check to the build script that\nfails when the flag is missing, and the builds went back to four minutes. Nobody needs to\nre-read this story to work on the project; the check in the build script keeps it fixed.\n";

/// A fixture repository with one rename-orphaned link (auto), a placeholder line (confirm,
/// deterministic) and a resolved narrative (generative).
fn fixture(root: &Path) {
    fs::create_dir_all(root).unwrap();
    git(root, &["init", "-q"]);
    write(root, ".gitignore", ".hygiene/\n");
    write(root, "scripts/make.sh", "#!/bin/sh\necho build\n");
    write(root, "CLAUDE.md", CLAUDE_MD);
    write(root, "docs/incident-2025-03.md", INCIDENT_MD);
    git(root, &["add", "-A"]);
    git(root, &["commit", "-q", "-m", "initial"]);
    git(root, &["mv", "scripts/make.sh", "scripts/build.sh"]);
    write(root, "docs/deploy.md", DEPLOY_MD);
    git(root, &["add", "-A"]);
    git(
        root,
        &[
            "commit",
            "-q",
            "-m",
            "rename the build script; deploy notes",
        ],
    );
}

/// The plugin as a marketplace source: the files git would publish (tracked and untracked but
/// not ignored), never `target/`, which `claude plugin install` would otherwise copy whole.
fn publishable_copy(dest: &Path) {
    let out = run(Command::new("git").arg("-C").arg(plugin_root()).args([
        "ls-files",
        "-z",
        "--cached",
        "--others",
        "--exclude-standard",
    ]));
    assert!(out.status.success());
    for rel in out.stdout.split(|&b| b == 0).filter(|s| !s.is_empty()) {
        let rel = std::str::from_utf8(rel).unwrap();
        let from = plugin_root().join(rel);
        if !from.is_file() {
            continue;
        }
        let to = dest.join(rel);
        fs::create_dir_all(to.parent().unwrap()).unwrap();
        fs::copy(&from, &to).unwrap();
    }
    git(dest, &["init", "-q"]);
}

/// The plugin validates, loads (skills, agents, tools) and installs from its own marketplace.
/// Needs only the client: the scripted model answers as soon as the skill body reaches it.
#[test]
fn e2e_plugin_validates_loads_and_installs_from_marketplace() {
    let claude = claude();
    let plugin = plugin_root();
    let plugin_s = plugin.to_str().unwrap();
    let t = tempfile::tempdir().unwrap();

    // The manifest and marketplace validate with the real client.
    let out = run(Command::new("timeout")
        .arg("120")
        .arg(&claude)
        .args(["plugin", "validate", "."])
        .current_dir(&plugin)
        .env("HOME", t.path().join("home-validate")));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success() && text.contains("Validation passed"),
        "claude plugin validate . failed:\n{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );

    let repo = t.path().join("repo");
    fs::create_dir_all(&repo).unwrap();
    git(&repo, &["init", "-q"]);
    let mock = Mock::start(&t.path().join("mock"), "resolve");
    let check = client(
        &claude,
        &t.path().join("home-load"),
        &repo,
        Some(mock.port),
        &prompt_args("/hygiene:check", plugin_s, &[]),
    );
    let init = check.init();
    let names = |k: &str| -> BTreeSet<String> {
        init[k]
            .as_array()
            .unwrap_or_else(|| panic!("init has no {k}: {init}"))
            .iter()
            .map(|v| v.as_str().unwrap().to_string())
            .collect()
    };
    for s in ["hygiene:check", "hygiene:clean", "hygiene:sweep"] {
        assert!(names("skills").contains(s), "init lacks skill {s}: {init}");
    }
    for a in ["hygiene:classifier", "hygiene:rewriter"] {
        assert!(names("agents").contains(a), "init lacks agent {a}: {init}");
    }
    // The tools the agents and skills name exist in the pinned client.
    let client_tools = names("tools");
    for a in agents().into_iter().chain(skills()) {
        let list = a.front.get("tools").or(a.front.get("allowed-tools"));
        for tool in tool_list(list.map(String::as_str).unwrap_or("")) {
            let tool = tool.split('(').next().unwrap().to_string();
            let known =
                client_tools.contains(&tool) || (tool == "Agent" && client_tools.contains("Task"));
            assert!(
                known,
                "{}: {tool} is not a tool of the client",
                a.file.display()
            );
        }
    }
    assert!(
        check.result().contains("SKILL-RESOLVED: check"),
        "the skill body did not reach the model:\n{}",
        tail(&check.raw, 4000)
    );
    drop(mock);

    // A marketplace install into a fresh HOME makes /hygiene:check resolvable.
    let source = t.path().join("marketplace-source");
    publishable_copy(&source);
    let mhome = t.path().join("home-market");
    fs::create_dir_all(&mhome).unwrap();
    for args in [
        vec!["plugin", "marketplace", "add", source.to_str().unwrap()],
        vec!["plugin", "install", "hygiene@hygiene"],
    ] {
        let out = run(Command::new("timeout")
            .arg("120")
            .arg(&claude)
            .args(&args)
            .current_dir(t.path())
            .env("HOME", &mhome)
            .env("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1")
            .env("DISABLE_TELEMETRY", "1")
            .env("DISABLE_AUTOUPDATER", "1"));
        assert!(
            out.status.success(),
            "claude {args:?} failed: {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let installed = mhome.join(".claude/plugins/cache/hygiene/hygiene");
    assert!(
        installed.is_dir(),
        "nothing installed at {}",
        installed.display()
    );
    let copies: Vec<_> = fs::read_dir(&installed).unwrap().collect();
    for c in copies {
        assert!(
            !c.unwrap().path().join("target").exists(),
            "the install copied target/"
        );
    }
    let mock = Mock::start(&t.path().join("mock-market"), "resolve");
    let resolved = client(
        &claude,
        &mhome,
        &repo,
        Some(mock.port),
        &prompt_args("/hygiene:check", "", &[]),
    );
    let result = resolved.result();
    assert!(
        !result.contains("Unknown command"),
        "/hygiene:check is unknown after a marketplace install"
    );
    assert!(
        result.contains("SKILL-RESOLVED: check"),
        "the installed skill's body did not reach the model: {result}"
    );
}

/// The release target of this machine, matched against release/targets as bin/hygiene does.
fn host_target() -> String {
    let uname = |flag: &str| {
        let out = run(Command::new("uname").arg(flag));
        String::from_utf8_lossy(&out.stdout).trim().to_string()
    };
    let (os, arch) = (uname("-s"), uname("-m"));
    let matches = |pats: &str, v: &str| {
        pats.split(',').any(|p| match p.strip_suffix('*') {
            Some(prefix) => v.starts_with(prefix),
            None => p == v,
        })
    };
    let table = fs::read_to_string(plugin_root().join("release/targets")).unwrap();
    table
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| l.split_whitespace().collect::<Vec<_>>())
        .find(|c| matches(c[1], &os) && matches(c[2], &arch))
        .map(|c| c[0].to_string())
        .unwrap_or_else(|| panic!("release/targets has no target for {os} {arch}"))
}

/// Issue 16 end to end: a machine without cargo installs the plugin from its marketplace, and
/// the first `/hygiene:check` gets the prebuilt helper from the release (served on loopback),
/// verified against the plugin's own release/SHA256SUMS, downloaded once for all of the
/// check's helper calls, with nothing built.
#[test]
fn e2e_marketplace_install_checks_with_the_prebuilt_helper_and_no_cargo() {
    let claude = claude();
    // The release asset of this platform: the helper built from this tree stands in for it.
    let built = fs::read(helper()).unwrap();
    let target = host_target();
    let out = run(Command::new("bash")
        .arg(plugin_root().join("release/release.sh"))
        .args(["asset", &target]));
    assert!(out.status.success());
    let asset = String::from_utf8_lossy(&out.stdout).trim().to_string();
    let version = env!("CARGO_PKG_VERSION");
    let server = common::StaticServer::start(BTreeMap::from([(
        format!("/v{version}/{asset}"),
        built.clone(),
    )]));
    let sha = sha256_hex(&built);

    // The marketplace source: the published files, with a manifest that pins this asset.
    let t = tempfile::tempdir().unwrap();
    let source = t.path().join("marketplace-source");
    publishable_copy(&source);
    fs::write(
        source.join("release/SHA256SUMS"),
        format!("{sha}  {asset}\n"),
    )
    .unwrap();
    let home = t.path().join("home");
    fs::create_dir_all(&home).unwrap();
    for args in [
        vec!["plugin", "marketplace", "add", source.to_str().unwrap()],
        vec!["plugin", "install", "hygiene@hygiene"],
    ] {
        let out = run(Command::new("timeout")
            .arg("120")
            .arg(&claude)
            .args(&args)
            .current_dir(t.path())
            .env("HOME", &home)
            .env("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1")
            .env("DISABLE_TELEMETRY", "1")
            .env("DISABLE_AUTOUPDATER", "1"));
        assert!(
            out.status.success(),
            "claude {args:?} failed: {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    }

    // The client, and so its Bash tool, gets a PATH without cargo.
    for d in ["/usr/bin", "/bin"] {
        assert!(
            !Path::new(d).join("cargo").exists(),
            "cargo is installed in {d}; this test needs a PATH without it"
        );
    }
    let no_cargo = t.path().join("no-cargo-home");
    let repo = t.path().join("repo");
    fixture(&repo);
    let mock = Mock::start(&t.path().join("mock"), "flow");
    let check = client_env(
        &claude,
        &home,
        &repo,
        Some(mock.port),
        &prompt_args("/hygiene:check", "", &[]),
        &[
            ("PATH", "/usr/bin:/bin"),
            ("CARGO_HOME", no_cargo.to_str().unwrap()),
            ("HYGIENE_RELEASES_URL", &server.url()),
        ],
    );
    check.assert_no_tool_error("/hygiene:check with the prebuilt helper");
    let ran = check.bash_commands();
    for c in ["hygiene scan", "hygiene finalize", "hygiene summary"] {
        assert!(
            ran.iter().any(|r| r.contains(c)),
            "/hygiene:check did not run `{c}`: {ran:?}\n{}",
            tail(&check.raw, 4000)
        );
    }
    assert!(
        check.result().contains("CHECK-DONE"),
        "/hygiene:check did not finish:\n{}",
        tail(&check.raw, 4000)
    );
    let report = repo.join(".hygiene/report.json");
    let v = run(Command::new(helper())
        .arg("validate")
        .arg(&report)
        .current_dir(&repo));
    assert!(
        v.status.success(),
        "the report is not valid: {}",
        String::from_utf8_lossy(&v.stdout)
    );

    // One download for every helper call, announced once, into the data folder the shim falls
    // back to (the client sets no CLAUDE_PLUGIN_DATA for the Bash tool).
    assert_eq!(
        server.requests(),
        vec![format!("/v{version}/{asset}")],
        "expected exactly one download"
    );
    let dest = home.join(".cache/hygiene/helpers").join(&sha).join(&asset);
    assert_eq!(
        fs::read(&dest).map(|b| sha256_hex(&b)).ok(),
        Some(sha.clone()),
        "no verified helper at {}",
        dest.display()
    );
    assert!(
        !home
            .join(".claude/plugins/data/hygiene-hygiene/helpers")
            .exists(),
        "the client's plugin data folder was used, yet the Bash tool had no CLAUDE_PLUGIN_DATA"
    );
    let announced =
        format!("hygiene: downloaded the prebuilt helper {version} for {target} (sha256 verified)");
    let tool_results: Vec<String> = check
        .events
        .iter()
        .filter(|e| e["type"] == "user")
        .flat_map(|e| {
            e["message"]["content"]
                .as_array()
                .cloned()
                .unwrap_or_default()
        })
        .filter(|b| b["type"] == "tool_result")
        .map(|b| b["content"].to_string())
        .collect();
    assert_eq!(
        tool_results
            .iter()
            .filter(|r| r.contains(&announced))
            .count(),
        1,
        "the download is announced once: {tool_results:#?}"
    );
    // Nothing was built: no target/ in the marketplace source or the installed copy.
    for dir in [source.clone(), home.join(".claude/plugins/cache")] {
        let out = run(Command::new("find")
            .arg(&dir)
            .args(["-name", "target", "-type", "d"]));
        assert!(
            out.stdout.is_empty(),
            "something was built: {}",
            String::from_utf8_lossy(&out.stdout)
        );
    }
    drop(mock);
}

/// The whole flow with the real client: `/hygiene:check` writes a valid report; `/hygiene:clean`
/// applies the auto entry at once, has the rewriter write a proposal, shows every confirm entry's
/// diff, and runs each confirm entry only through a command the client's own permission prompt
/// asks the user about (the skills pre-allow nothing that applies a confirm entry). Answered yes,
/// the entry is applied (an auto and a confirm entry on one `CLAUDE.md` both land in this one
/// `/hygiene:clean`); answered no, the command never runs and the file keeps every byte.
#[test]
fn e2e_check_then_clean_asks_the_client_for_each_confirm_edit() {
    let claude = claude();
    helper();
    let plugin = plugin_root();
    let plugin_s = plugin.to_str().unwrap();
    let t = tempfile::tempdir().unwrap();
    let repo = t.path().join("repo");
    fixture(&repo);
    let mock = Mock::start(&t.path().join("mock"), "flow");

    // /hygiene:check, with nothing allowed but what its skill allows.
    let check = client(
        &claude,
        &t.path().join("home-check"),
        &repo,
        Some(mock.port),
        &prompt_args("/hygiene:check", plugin_s, &[]),
    );
    check.assert_no_tool_error("/hygiene:check");
    let ran = check.bash_commands();
    for c in [
        "hygiene scan --out .hygiene/scan.json",
        "hygiene finalize",
        "hygiene summary",
    ] {
        assert!(
            ran.iter().any(|r| r.contains(c)),
            "/hygiene:check did not run `{c}`: {ran:?}\n{}",
            tail(&check.raw, 4000)
        );
    }
    assert!(
        check.result().contains("CHECK-DONE"),
        "/hygiene:check did not finish:\n{}",
        tail(&check.raw, 4000)
    );
    let report_path = repo.join(".hygiene/report.json");
    let v = run(Command::new(helper())
        .arg("validate")
        .arg(&report_path)
        .current_dir(&repo));
    assert!(
        v.status.success(),
        "hygiene validate rejects the report: {}{}",
        String::from_utf8_lossy(&v.stdout),
        String::from_utf8_lossy(&v.stderr)
    );
    let report: Value = serde_json::from_str(&fs::read_to_string(&report_path).unwrap()).unwrap();
    let entries = report["entries"].as_array().unwrap();
    let find = |path: &str, kind: Option<&str>| -> usize {
        entries
            .iter()
            .position(|e| e["path"] == path && e["exact_edit"]["kind"].as_str() == kind)
            .unwrap_or_else(|| panic!("no {kind:?} entry for {path}:\n{report:#}"))
    };
    let auto_n = find("CLAUDE.md", Some("replace-text"));
    let claude_confirm = find("CLAUDE.md", Some("delete-range"));
    let deploy_n = find("docs/deploy.md", Some("delete-range"));
    let gen_n = find("docs/incident-2025-03.md", None);
    assert_eq!(entries[auto_n]["safety_tier"], "auto");
    for n in [claude_confirm, deploy_n, gen_n] {
        assert_eq!(entries[n]["safety_tier"], "confirm", "entry {n}");
    }

    // /hygiene:clean: the user allows the CLAUDE.md and incident edits and declines deploy.md.
    let declined = format!("--entry {deploy_n} --approve");
    let (clean, asked) = client_with_permissions(
        &claude,
        &t.path().join("home-clean"),
        &repo,
        mock.port,
        plugin_s,
        "/hygiene:clean",
        |req| {
            !req["input"]["command"]
                .as_str()
                .unwrap_or("")
                .contains(&declined)
        },
    );
    assert!(
        clean.result().contains("CLEAN-DONE"),
        "{}",
        tail(&clean.raw, 4000)
    );
    // The client asked about exactly the three approve commands, and about nothing the skill
    // pre-allows (the auto tier, the dry runs).
    let asked_cmds: Vec<String> = asked
        .iter()
        .map(|r| r["input"]["command"].as_str().unwrap_or("").to_string())
        .collect();
    assert_eq!(asked_cmds.len(), 3, "{asked_cmds:?}");
    for n in [claude_confirm, deploy_n, gen_n] {
        let want = format!("hygiene apply --entry {n} --approve ");
        assert!(
            asked_cmds.iter().any(|c| c.starts_with(&want)),
            "no permission request for entry {n}: {asked_cmds:?}"
        );
    }
    assert!(asked.iter().all(|r| r["tool_name"] == "Bash"), "{asked:?}");
    // The dry runs and the auto tier ran without a question.
    let ran = clean.bash_commands();
    assert!(
        ran.iter().any(|c| c == "hygiene apply --tier auto"),
        "{ran:?}"
    );
    assert!(
        ran.iter()
            .any(|c| c == &format!("hygiene apply --dry-run --entry {deploy_n}")),
        "{ran:?}"
    );
    // Allowed: the auto rename and the confirmed TODO deletion, both on CLAUDE.md.
    let want_claude = CLAUDE_MD
        .replace("scripts/make.sh", "scripts/build.sh")
        .replace("\nTODO: list the release steps.\n", "\n");
    assert_eq!(
        fs::read_to_string(repo.join("CLAUDE.md")).unwrap(),
        want_claude,
        "the auto and the approved confirm entry of CLAUDE.md did not both land"
    );
    // The proposal came from the rewriter subagent.
    let rewriter_ran = mock.requests().iter().any(|r| {
        r["body"]["system"]
            .to_string()
            .contains("You write the new text for one generative entry")
    });
    assert!(rewriter_ran, "no request came from the rewriter subagent");
    // Allowed: the generative entry carries the rewriter's proposal.
    let proposal = repo.join(format!(".hygiene/proposals/{gen_n}.md"));
    let proposal_text = fs::read_to_string(&proposal)
        .unwrap_or_else(|e| panic!("the rewriter wrote no {}: {e}", proposal.display()));
    assert_ne!(proposal_text, INCIDENT_MD);
    assert_eq!(
        fs::read_to_string(repo.join("docs/incident-2025-03.md")).unwrap(),
        proposal_text
    );
    // Declined: the command never ran, and the file keeps every byte.
    assert_eq!(
        sha256_hex(&fs::read(repo.join("docs/deploy.md")).unwrap()),
        sha256_hex(DEPLOY_MD.as_bytes()),
        "a declined confirm entry was applied"
    );
    let journal = repo.join(".hygiene/journal");
    for b in fs::read_dir(&journal).unwrap().flatten() {
        let m: Value =
            serde_json::from_str(&fs::read_to_string(b.path().join("manifest.json")).unwrap())
                .unwrap();
        assert!(
            !m["entries"]
                .as_array()
                .unwrap()
                .iter()
                .any(|e| e.as_u64() == Some(deploy_n as u64)),
            "a batch applied the declined entry: {m:#}"
        );
    }
    drop(mock);
}

// ---------------------------------------------------------------------------------------------
// The model's bill (issue 14) with the real client
// ---------------------------------------------------------------------------------------------

/// The text of a tool result block.
fn result_text(block: &Value) -> String {
    match &block["content"] {
        Value::String(t) => t.clone(),
        Value::Array(a) => a
            .iter()
            .filter_map(|b| b["text"].as_str())
            .collect::<Vec<_>>()
            .join("\n"),
        _ => String::new(),
    }
}

/// Every tool call the logged requests carry, once per id: (tool_use block, its result's text).
fn tool_pairs(requests: &[Value]) -> Vec<(Value, String)> {
    let mut uses: BTreeMap<String, Value> = BTreeMap::new();
    let mut results: BTreeMap<String, String> = BTreeMap::new();
    for r in requests {
        for m in r["body"]["messages"].as_array().into_iter().flatten() {
            for b in m["content"].as_array().into_iter().flatten() {
                if b["type"] == "tool_use" {
                    uses.insert(b["id"].as_str().unwrap_or("").into(), b.clone());
                } else if b["type"] == "tool_result" {
                    results.insert(
                        b["tool_use_id"].as_str().unwrap_or("").into(),
                        result_text(b),
                    );
                }
            }
        }
    }
    uses.into_iter()
        .map(|(id, u)| (u, results.remove(&id).unwrap_or_default()))
        .collect()
}

const CLASSIFIER_MARK: &str = "You judge shortlisted agent documents for the hygiene plugin";

fn is_classifier(request: &Value) -> bool {
    request["body"]["system"]
        .to_string()
        .contains(CLASSIFIER_MARK)
}

/// Tokens of what a request hands the model from tools: the text of every tool result in it.
fn received_tokens(request: &Value) -> u64 {
    let mut n = 0;
    for m in request["body"]["messages"].as_array().into_iter().flatten() {
        for b in m["content"].as_array().into_iter().flatten() {
            if b["type"] == "tool_result" {
                n += hygiene::tokens::count(&result_text(b));
            }
        }
    }
    n
}

/// The batch file a classifier request judges (from its prompt).
fn classifier_batch(request: &Value) -> String {
    let m = request["body"]["messages"][0].to_string();
    let at = m
        .find(".hygiene/batches/batch-")
        .expect("the prompt names a batch");
    m[at..].split(".md").next().unwrap().to_string()
}

/// `/hygiene:check` on a generated repository with 300+ shortlisted items, twice, with the real
/// client and the scripted model: objective items are finalized without the model reading them,
/// the model is handed excerpts in batches (the sizes of what it receives are asserted), the
/// first run stays within the published budget and defers the rest, the summary says so, and the
/// second run continues with exactly the deferred items.
#[test]
fn e2e_check_bills_the_model_within_the_budget_and_the_next_run_continues() {
    let claude = claude();
    let bin = helper();
    let plugin = plugin_root();
    let plugin_s = plugin.to_str().unwrap();
    let t = tempfile::tempdir().unwrap();
    let repo = t.path().join("repo");
    let g = common::generated::generate(&repo, 280, 40, 10);
    let policy: Value =
        serde_json::from_slice(&run(Command::new(bin).arg("policy")).stdout).unwrap();
    let limits = &policy["bill"]["limits"];
    let budget = limits["budget_tokens"].as_u64().unwrap();
    let batch_tokens = limits["batch_tokens"].as_u64().unwrap();
    let mock = Mock::start(&t.path().join("mock"), "flow");
    let read_bill = || -> Value {
        serde_json::from_str(&fs::read_to_string(repo.join(".hygiene/bill.json")).unwrap()).unwrap()
    };
    let paths = |v: &Value| -> Vec<String> {
        v.as_array()
            .unwrap()
            .iter()
            .map(|h| h["path"].as_str().unwrap().to_string())
            .collect()
    };
    // The batch files the model read in `requests`, with what it received.
    let batch_reads = |requests: &[Value]| -> Vec<(String, String)> {
        tool_pairs(requests)
            .into_iter()
            .filter(|(u, _)| u["name"] == "Read")
            .filter_map(|(u, text)| {
                let f = u["input"]["file_path"].as_str().unwrap_or("").to_string();
                f.contains(".hygiene/batches/").then_some((f, text))
            })
            .collect()
    };

    // Run 1.
    let first = client(
        &claude,
        &t.path().join("home-1"),
        &repo,
        Some(mock.port),
        &prompt_args("/hygiene:check", plugin_s, &[]),
    );
    first.assert_no_tool_error("/hygiene:check (run 1)");
    let result = first.result();
    assert!(result.contains("CHECK-DONE"), "{}", tail(&first.raw, 4000));
    let scan: Value =
        serde_json::from_str(&fs::read_to_string(repo.join(".hygiene/scan.json")).unwrap())
            .unwrap();
    let shortlisted = scan["shortlist"].as_array().unwrap().len();
    assert!(shortlisted >= 300, "only {shortlisted} shortlisted");
    let bill1 = read_bill();
    let handed1 = paths(&bill1["handed"]);
    let deferred1 = paths(&bill1["deferred"]);
    assert!(!deferred1.is_empty(), "run 1 should defer: {bill1:#}");
    assert!(
        result.contains(&format!("Deferred: {} items", deferred1.len()))
            && result.contains("/hygiene:check again"),
        "the summary does not say what was deferred: {result}"
    );
    let requests1 = mock.requests();
    // Objective items: finalized (auto) and never in front of the model.
    let report: Value =
        serde_json::from_str(&fs::read_to_string(repo.join(".hygiene/report.json")).unwrap())
            .unwrap();
    for m in &g.moved {
        assert!(
            report["entries"]
                .as_array()
                .unwrap()
                .iter()
                .any(|e| e["path"] == m.as_str() && e["safety_tier"] == "auto"),
            "no auto entry for {m}"
        );
    }
    let all_text: String = requests1.iter().map(|r| r["body"].to_string()).collect();
    for (j, m) in g.moved.iter().enumerate() {
        assert!(
            !all_text.contains(m.as_str())
                && !all_text.contains(&common::generated::moved_marker(j)),
            "the model was shown the settled document {m}"
        );
    }
    // Excerpts, not documents: no note's tail ever reached the model, nor the scan.
    for i in 0..g.notes.len() {
        assert!(
            !all_text.contains(&common::generated::tail_marker(i)),
            "a whole note reached the model"
        );
    }
    let tools1 = tool_pairs(&requests1);
    assert!(
        !tools1.iter().any(
            |(u, _)| u["input"].to_string().contains(".hygiene/scan.json\"") && u["name"] == "Read"
        ),
        "the model read the scan"
    );
    // What the model received: the batch files, within the budget, one per classifier.
    let reads1 = batch_reads(&requests1);
    let received: u64 = reads1.iter().map(|(_, t)| hygiene::tokens::count(t)).sum();
    assert!(
        received <= budget,
        "run 1 handed the model {received} tokens > {budget}"
    );
    assert_eq!(reads1.len(), bill1["batches"].as_array().unwrap().len());
    // The bill's estimate of each batch is not below what the model received.
    for b in bill1["batches"].as_array().unwrap() {
        let file = b["file"].as_str().unwrap();
        let (_, text) = reads1.iter().find(|(f, _)| f.ends_with(file)).unwrap();
        let got = hygiene::tokens::count(text);
        assert!(
            got <= b["tokens"].as_u64().unwrap(),
            "{file}: the model received {got} tokens, the bill said {}",
            b["tokens"]
        );
    }
    assert_eq!(bill1["subagents"].as_u64().unwrap() as usize, reads1.len());
    assert!(reads1.len() > 1, "a run this size dispatches classifiers");
    // What each request received from tools: a classifier its one batch, the main thread only
    // the bill, finalize's and summary's lines.
    let mut conversations: BTreeMap<String, Vec<u64>> = BTreeMap::new();
    for r in requests1.iter().filter(|r| is_classifier(r)) {
        conversations
            .entry(classifier_batch(r))
            .or_default()
            .push(received_tokens(r));
    }
    assert_eq!(
        conversations.len(),
        reads1.len(),
        "one classifier per batch"
    );
    for (batch, sizes) in &conversations {
        let largest = *sizes.iter().max().unwrap();
        assert!(
            largest <= batch_tokens,
            "{batch}: a classifier received {largest} tokens > {batch_tokens}"
        );
    }
    let main_largest = requests1
        .iter()
        .filter(|r| !is_classifier(r) && r["body"]["messages"].is_array())
        .map(received_tokens)
        .max()
        .unwrap();
    assert!(
        main_largest <= 2_000,
        "the main thread received {main_largest} tokens from tools: it read evidence it dispatched"
    );
    eprintln!(
        "run 1: {shortlisted} shortlisted, {} settled, {} handed ({received} tokens received in {} batches), {} deferred; the main thread received at most {main_largest} tokens per request; classifiers {conversations:?}",
        bill1["settled_items"], handed1.len(), reads1.len(), deferred1.len()
    );

    // Run 2 continues with the deferred items, and only them.
    let second = client(
        &claude,
        &t.path().join("home-2"),
        &repo,
        Some(mock.port),
        &prompt_args("/hygiene:check", plugin_s, &[]),
    );
    second.assert_no_tool_error("/hygiene:check (run 2)");
    let result = second.result();
    assert!(result.contains("CHECK-DONE"), "{}", tail(&second.raw, 4000));
    assert!(result.contains("Nothing deferred"), "{result}");
    let bill2 = read_bill();
    assert_eq!(paths(&bill2["handed"]), deferred1);
    assert_eq!(
        bill2["carried_items"].as_u64().unwrap() as usize,
        handed1.len()
    );
    let requests2: Vec<Value> = mock.requests().split_off(requests1.len());
    let reads2 = batch_reads(&requests2);
    let received2: u64 = reads2.iter().map(|(_, t)| hygiene::tokens::count(t)).sum();
    assert!(received2 <= budget);
    for (_, text) in &reads2 {
        for p in &handed1 {
            assert!(
                !text.contains(&format!("item: {{\"path\":\"{p}\"")),
                "run 2 handed {p} again"
            );
        }
    }
    // The report holds both runs' judgements: every placeholder has its entry.
    let report: Value =
        serde_json::from_str(&fs::read_to_string(repo.join(".hygiene/report.json")).unwrap())
            .unwrap();
    let deletes: BTreeSet<&str> = report["entries"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["exact_edit"]["kind"] == "delete-range")
        .map(|e| e["path"].as_str().unwrap())
        .collect();
    let todos: BTreeSet<&str> = g.todos.iter().map(String::as_str).collect();
    assert_eq!(deletes, todos);
    eprintln!(
        "run 2: {} handed ({received2} tokens received), {} carried",
        bill2["handed"].as_array().unwrap().len(),
        bill2["carried_items"]
    );
    drop(mock);
}

// ---------------------------------------------------------------------------------------------
// The tool-call hook (hooks/hooks.json, docs/hook.md) with the real client
// ---------------------------------------------------------------------------------------------

/// The blocks the client put into a request after the tool result of `tool_use_id` (where a
/// PostToolUse hook's additional context lands: a `system` message, in 2.1.332), each as
/// `{"role", "block"}`; `None` when the request does not carry that result.
fn after_result(request: &Value, tool_use_id: &str) -> Option<Vec<Value>> {
    let messages = request["body"]["messages"].as_array()?;
    let mut flat: Vec<Value> = Vec::new();
    for m in messages {
        let blocks = match &m["content"] {
            Value::String(t) => vec![json!({"type": "text", "text": t})],
            Value::Array(a) => a.clone(),
            _ => Vec::new(),
        };
        for b in blocks {
            flat.push(json!({"role": m["role"], "block": b}));
        }
    }
    let at = flat.iter().position(|x| {
        x["block"]["type"] == "tool_result" && x["block"]["tool_use_id"] == tool_use_id
    })?;
    Some(flat.split_off(at + 1))
}

/// What the first request carrying the result of `tool_use_id` added after it.
fn added_after(requests: &[Value], tool_use_id: &str) -> Vec<Value> {
    requests
        .iter()
        .find_map(|r| after_result(r, tool_use_id))
        .unwrap_or_else(|| panic!("no request carries the result of {tool_use_id}"))
}

/// The model renames a file CLAUDE.md names; the very next request the client sends carries the
/// hook's report (document, line, new name); calls that break nothing add nothing; a rename in
/// a command that then fails is reported through PostToolUseFailure.
#[test]
fn e2e_hook_reports_a_rename_in_the_same_turn() {
    let claude = claude();
    helper();
    let plugin = plugin_root();
    let plugin_s = plugin.to_str().unwrap();
    let t = tempfile::tempdir().unwrap();
    let repo = t.path().join("repo");
    fs::create_dir_all(&repo).unwrap();
    git(&repo, &["init", "-q"]);
    write(&repo, "src/a.rs", "pub fn run() {}\n");
    write(
        &repo,
        "CLAUDE.md",
        "# Fixture\n\nThe entry point is `src/a.rs`.\n",
    );
    git(&repo, &["add", "-A"]);
    git(&repo, &["commit", "-q", "-m", "initial"]);
    let mock = Mock::start(&t.path().join("mock"), "hook");
    let run = client(
        &claude,
        &t.path().join("home"),
        &repo,
        Some(mock.port),
        // No skill runs here: the agent's own tool calls are allowed outright.
        &prompt_args(
            "rename src/a.rs to src/b.rs",
            plugin_s,
            &["--allowedTools", "Bash,Write"],
        ),
    );
    run.assert_no_tool_error("the hook scenario");
    assert!(
        run.result().contains("HOOK-DONE"),
        "the scenario did not finish:\n{}",
        tail(&run.raw, 4000)
    );
    assert!(
        repo.join("src/c.rs").is_file() && !repo.join("src/a.rs").exists(),
        "the model's two renames ran"
    );
    assert!(
        repo.join(".hygiene/hook-index.json").is_file(),
        "the session-start hook built the index"
    );
    let uses = run.tool_uses();
    let id_of = |pred: &dyn Fn(&Value) -> bool| -> String {
        uses.iter()
            .find(|u| pred(u))
            .map(|u| u["id"].as_str().unwrap().to_string())
            .unwrap_or_else(|| panic!("no such tool call in {uses:?}"))
    };
    let mv = id_of(&|u| u["input"]["command"] == "git mv src/a.rs src/b.rs");
    let ls = id_of(&|u| u["input"]["command"] == "ls src");
    let wr = id_of(&|u| u["name"] == "Write");
    let sed = id_of(&|u| {
        u["input"]["command"]
            .as_str()
            .is_some_and(|c| c.starts_with("sed -i"))
    });
    let failing = id_of(&|u| u["input"]["command"] == "git mv src/b.rs src/c.rs && false");
    let requests = mock.requests();

    // The report reaches the model in the request right after the rename.
    let added = added_after(&requests, &mv);
    let text = added
        .iter()
        .map(|x| x["block"].to_string())
        .collect::<String>();
    assert!(
        text.contains("CLAUDE.md:3") && text.contains("src/a.rs") && text.contains("src/b.rs"),
        "the hook's report is not in the next request; added after the result: {added:#?}"
    );
    assert!(
        text.contains("replace `src/a.rs` with `src/b.rs`"),
        "the fix is not in the report: {text}"
    );
    let hook_block = added
        .iter()
        .find(|x| x["block"].to_string().contains("CLAUDE.md:3"))
        .unwrap();
    println!("the hook's report as the model receives it: {hook_block:#}");

    assert_eq!(added.len(), 1, "the report is one block: {added:#?}");
    // Calls that break nothing add nothing after their result: no tokens.
    for (what, id) in [
        ("ls src", &ls),
        ("a Write of a new document", &wr),
        ("the fix applied with sed", &sed),
    ] {
        let added = added_after(&requests, id);
        assert!(
            added.is_empty(),
            "{what} broke nothing, yet the request carries after its result: {added:#?}"
        );
    }
    // A command that renames and then fails: PostToolUse does not fire, PostToolUseFailure
    // does, and the report follows CLAUDE.md as sed left it.
    let added = added_after(&requests, &failing);
    let text = added
        .iter()
        .map(|x| x["block"].to_string())
        .collect::<String>();
    assert!(
        text.contains("PostToolUseFailure")
            && text.contains("CLAUDE.md:3")
            && text.contains("replace `src/b.rs` with `src/c.rs`"),
        "the failed command's rename is not reported: {added:#?}"
    );
    assert_eq!(
        fs::read_to_string(repo.join("CLAUDE.md")).unwrap(),
        "# Fixture\n\nThe entry point is `src/b.rs`.\n"
    );
    drop(mock);
}

/// hooks/hooks.json: the events and tools the hook needs, every command a `hygiene hook` line
/// the helper parses, and tool-call commands that can never fail the call.
#[test]
fn hooks_json_names_the_events_tools_and_helper() {
    let path = plugin_root().join("hooks/hooks.json");
    let v: Value = serde_json::from_str(&fs::read_to_string(&path).unwrap()).unwrap();
    let hooks = v["hooks"].as_object().unwrap();
    assert_eq!(
        hooks.keys().map(String::as_str).collect::<BTreeSet<_>>(),
        ["PostToolUse", "PostToolUseFailure", "SessionStart"].into()
    );
    let tools = |event: &str| -> BTreeSet<String> {
        hooks[event]
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|m| m["matcher"].as_str().unwrap().split('|'))
            .map(str::to_string)
            .collect()
    };
    for t in ["Bash", "Write", "Edit", "MultiEdit", "NotebookEdit"] {
        assert!(tools("PostToolUse").contains(t), "PostToolUse misses {t}");
    }
    assert_eq!(tools("PostToolUseFailure"), ["Bash".to_string()].into());
    // The shim's binary, the path bin/hygiene builds and execs.
    let shim = fs::read_to_string(plugin_root().join("bin/hygiene")).unwrap();
    assert!(shim.contains(r#"bin="$root/target/release/hygiene""#));
    for (event, entries) in hooks {
        for h in entries
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|m| m["hooks"].as_array().unwrap())
        {
            assert_eq!(h["type"], "command");
            assert!(
                h["timeout"].as_u64().is_some_and(|t| (1..=60).contains(&t)),
                "{h}"
            );
            let cmd = h["command"].as_str().unwrap();
            let (exe, rest) = cmd
                .strip_prefix("\"${CLAUDE_PLUGIN_ROOT}/")
                .and_then(|c| c.split_once("\" "))
                .unwrap_or_else(|| panic!("{event}: {cmd} does not start at the plugin root"));
            let args: Vec<&str> = rest
                .split(" 2>")
                .next()
                .unwrap()
                .split_whitespace()
                .collect();
            let want = if event == "SessionStart" {
                "session-start"
            } else {
                "post-tool-use"
            };
            assert_eq!(args, ["hook", want], "{event}: {cmd}");
            Cli::try_parse_from(std::iter::once("hygiene").chain(args.iter().copied()))
                .unwrap_or_else(|e| panic!("{cmd}: {e}"));
            if event == "SessionStart" {
                assert_eq!(
                    exe, "bin/hygiene",
                    "session start goes through the shim (it builds)"
                );
            } else {
                assert_eq!(
                    exe, "target/release/hygiene",
                    "{event}: the built helper, directly"
                );
                assert!(
                    cmd.ends_with(" 2>/dev/null || true"),
                    "{event}: a missing helper must not fail the tool call: {cmd}"
                );
            }
        }
    }
}

fn executable(path: &Path, text: &str) {
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::write(path, text).unwrap();
    let mut perm = fs::metadata(path).unwrap().permissions();
    std::os::unix::fs::PermissionsExt::set_mode(&mut perm, 0o755);
    fs::set_permissions(path, perm).unwrap();
}

fn shim_hook(root: &Path, event: &str, path: &str, extra: &[(&str, &str)]) -> Output {
    let home = root.join("home");
    fs::create_dir_all(&home).unwrap();
    let mut cmd = Command::new("bash");
    cmd.arg(root.join("bin/hygiene"))
        .args(["hook", event])
        .env_clear()
        .env("PATH", path)
        .env("HOME", &home)
        .stdin(Stdio::null());
    for (k, v) in extra {
        cmd.env(k, v);
    }
    run(&mut cmd)
}

#[test]
fn shim_hook_mode_never_fails_and_passes_only_stdout() {
    let t = fake_root();
    // A helper that answers, complains and fails: the hook shows the answer, nothing else.
    executable(
        &t.path().join("target/release/hygiene"),
        "#!/bin/sh\necho \"answer $*\"\necho oops >&2\nexit 2\n",
    );
    let later = std::time::SystemTime::now() + Duration::from_secs(5);
    fs::File::options()
        .write(true)
        .open(t.path().join("target/release/hygiene"))
        .unwrap()
        .set_modified(later)
        .unwrap();
    let out = shim_hook(t.path(), "post-tool-use", "/usr/bin:/bin", &[]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "answer hook post-tool-use\n"
    );
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // No helper and no cargo: silence, exit 0.
    let t = fake_root();
    let out = shim_hook(t.path(), "session-start", "/usr/bin:/bin", &[]);
    assert_eq!(out.status.code(), Some(0));
    assert!(out.stdout.is_empty() && out.stderr.is_empty());
}

#[test]
fn shim_session_start_builds_a_missing_helper_in_the_background() {
    let t = fake_root();
    // A stand-in cargo that records its arguments and produces the helper.
    let fake_bin = t.path().join("fakebin");
    executable(
        &fake_bin.join("cargo"),
        &format!(
            "#!/bin/sh\necho \"$*\" > {log}\nmkdir -p {root}/target/release\nprintf '#!/bin/sh\\necho built\\n' > {root}/target/release/hygiene\nchmod +x {root}/target/release/hygiene\n",
            log = t.path().join("cargo-args").display(),
            root = t.path().display()
        ),
    );
    let path = format!("{}:/usr/bin:/bin", fake_bin.display());
    // Switched off: no build.
    let out = shim_hook(
        t.path(),
        "session-start",
        &path,
        &[("HYGIENE_HOOK_NO_BUILD", "1")],
    );
    assert_eq!(out.status.code(), Some(0));
    assert!(out.stdout.is_empty() && out.stderr.is_empty());
    std::thread::sleep(Duration::from_millis(300));
    assert!(
        !t.path().join("cargo-args").exists(),
        "HYGIENE_HOOK_NO_BUILD=1 starts no build"
    );
    // On: the hook returns at once, silent; the build happens behind it.
    let out = shim_hook(t.path(), "session-start", &path, &[]);
    assert_eq!(out.status.code(), Some(0));
    assert!(out.stdout.is_empty() && out.stderr.is_empty());
    let start = Instant::now();
    while !t.path().join("cargo-args").exists() {
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "no background build ran"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    std::thread::sleep(Duration::from_millis(200));
    let args = fs::read_to_string(t.path().join("cargo-args")).unwrap();
    assert!(
        args.starts_with("build --release --quiet --manifest-path "),
        "{args}"
    );
    assert!(args.trim_end().ends_with("--bin hygiene"), "{args}");
    assert!(t.path().join("target/release/hygiene").is_file());
    assert!(t.path().join("target/hook-build.log").is_file());
}
