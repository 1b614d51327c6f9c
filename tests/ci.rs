//! Issue 9, outside the chat: `hygiene check --accept-suggestions [--apply]`, `scan --fail-on`,
//! `scan --format sarif` and terminal progress, run as the real binary on real git repositories
//! built in temp folders. Expected file bytes are the fixture text edited by the test itself;
//! expected kinds come from `hygiene policy`; the SARIF log is checked by the Python
//! `jsonschema` package against the OASIS schema in `tests/data/`.

mod common;
use common::{git, read, write};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn hygiene(root: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_hygiene"))
        .args(args)
        .arg("--root")
        .arg(root)
        .current_dir(root)
        .env_remove("NO_COLOR")
        .output()
        .expect("hygiene runs")
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn line_of(text: &str, needle: &str) -> usize {
    text.lines()
        .position(|l| l.contains(needle))
        .unwrap_or_else(|| panic!("`{needle}` not in the fixture"))
        + 1
}

const BLOCK: &str = "Run the build with cargo and make sure that every warning is fixed before you\nopen a pull request; the reviewers will not look at a branch with warnings.\n";

const CLAUDE_MD: &str = "# Project\n\nThe entry point is `src/old.rs`.\n\n## Build\n\nRun the build with cargo and make sure that every warning is fixed before you\nopen a pull request; the reviewers will not look at a branch with warnings.\n";

const GUIDE_MD: &str = "# Guide\n\nRead this before your first change.\n\nRun the build with cargo and make sure that every warning is fixed before you\nopen a pull request; the reviewers will not look at a branch with warnings.\n\n## Style\n\nKeep functions short.\n";

const PLAN_MD: &str = "# Plan: split the parser\n\n- [ ] move the lexer out\n- [ ] add tests\n";

/// A plan the scanner proves served (its `served_when_path` exists after the rename).
const DONE_PLAN_MD: &str =
    "---\nserved_when_path: src/new.rs\n---\n# Plan: rename the entry point\n\n- [x] git mv\n";

/// A repository with a renamed path (`git mv` + a document still naming the old path), a block
/// duplicated between two documents, and a plan only a model can judge served.
fn fixture() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    git(root, &["init", "-q", "-b", "main"]);
    write(root, "src/old.rs", "fn main() {}\n");
    write(root, "CLAUDE.md", CLAUDE_MD);
    write(root, "docs/CLAUDE.md", GUIDE_MD);
    write(root, "docs/plans/parser.md", PLAN_MD);
    write(root, "docs/plans/rename.md", DONE_PLAN_MD);
    git(root, &["add", "-A"]);
    git(root, &["commit", "-q", "-m", "init"]);
    git(root, &["mv", "src/old.rs", "src/new.rs"]);
    git(root, &["commit", "-q", "-m", "rename"]);
    dir
}

#[test]
fn check_accept_suggestions_apply_fixes_the_rename_and_the_duplicate_and_nothing_else() {
    let dir = fixture();
    let root = dir.path();
    assert!(BLOCK.len() > 80, "the block is long enough to count");
    let ref_line = line_of(CLAUDE_MD, "src/old.rs");

    // Before: the gate fails, with the compiler-style line exactly.
    let before = hygiene(root, &["scan", "--fail-on", "missing-path"]);
    assert_eq!(before.status.code(), Some(1), "{}", stderr(&before));
    let expected = format!(
        "CLAUDE.md:{ref_line}: missing-path: `src/old.rs` (code) names no file; git renamed it to `src/new.rs`"
    );
    let err = stderr(&before);
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines[0], expected, "{lines:?}");
    assert_eq!(
        lines
            .iter()
            .filter(|l| l.contains(": missing-path: "))
            .count(),
        1,
        "{lines:?}"
    );
    // The JSON on stdout is the scan result, unchanged by the gate.
    let scan: Value = serde_json::from_slice(&before.stdout).expect("scan JSON on stdout");
    assert!(scan["shortlist"].is_array());

    // The served plan has a local edit: its delete is scanner-proven but confirm-tier.
    let edited_plan = format!("{DONE_PLAN_MD}- [ ] a note I still need\n");
    write(root, "docs/plans/rename.md", &edited_plan);

    let out = hygiene(root, &["check", "--accept-suggestions", "--apply"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));

    // The rename is fixed and the copy removed, byte for byte.
    let claude_fixed = CLAUDE_MD.replace("`src/old.rs`", "`src/new.rs`");
    assert_eq!(read(root, "CLAUDE.md"), claude_fixed);
    // The block goes with the blank line after it: one blank line stays between its neighbours.
    let guide_fixed = GUIDE_MD.replacen(&format!("{BLOCK}\n"), "", 1);
    assert_eq!(read(root, "docs/CLAUDE.md"), guide_fixed);
    // The dirty served plan is a confirm-tier entry: reported, not applied.
    assert_eq!(read(root, "docs/plans/rename.md"), edited_plan);
    let report: Value = serde_json::from_str(&read(root, ".hygiene/report.json")).unwrap();
    let entries = report["entries"].as_array().unwrap();
    let plan = entries
        .iter()
        .find(|e| e["path"] == "docs/plans/rename.md")
        .expect("the served plan's suggestion is an entry");
    assert_eq!(plan["safety_tier"], "confirm");
    // The plan only a model can judge gets no entry: nobody answered its question.
    assert_eq!(read(root, "docs/plans/parser.md"), PLAN_MD);
    assert!(entries.iter().all(|e| e["path"] != "docs/plans/parser.md"));
    for e in entries {
        assert_eq!(
            e["op_type"], "deterministic",
            "never a generative entry: {e}"
        );
    }
    let auto: Vec<&str> = entries
        .iter()
        .filter(|e| e["safety_tier"] == "auto")
        .map(|e| e["path"].as_str().unwrap())
        .collect();
    assert_eq!(auto.len(), 2, "{auto:?}");
    // The report it wrote is valid, and so is the scan next to it.
    let v = Command::new(env!("CARGO_BIN_EXE_hygiene"))
        .arg("validate")
        .arg(root.join(".hygiene/report.json"))
        .output()
        .unwrap();
    assert_eq!(v.status.code(), Some(0), "{}", stderr(&v));
    let scan: Value = serde_json::from_str(&read(root, ".hygiene/scan.json")).unwrap();
    assert_eq!(scan["generated_at"], report["generated_at"]);

    // After: the gate passes.
    let after = hygiene(root, &["scan", "--fail-on", "missing-path"]);
    assert_eq!(after.status.code(), Some(0), "{}", stderr(&after));
    assert!(
        !stderr(&after).contains("missing-path"),
        "{}",
        stderr(&after)
    );
}

#[test]
fn check_without_accept_suggestions_points_at_the_model_driven_check() {
    let dir = fixture();
    let out = hygiene(dir.path(), &["check"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("/hygiene:check"), "{}", stderr(&out));
    assert!(!dir.path().join(".hygiene/report.json").exists());
}

#[test]
fn check_reports_without_applying_and_leaves_unfixable_paths_alone() {
    let dir = fixture();
    let root = dir.path();
    // A path deleted with no rename: a signal, but no suggestion the scanner could compute.
    write(root, "docs/gone.md", "# Gone\n\nSee `src/removed.rs`.\n");
    write(root, "src/removed.rs", "\n");
    git(root, &["add", "-A"]);
    git(root, &["commit", "-q", "-m", "add"]);
    git(root, &["rm", "-q", "src/removed.rs"]);
    git(root, &["commit", "-q", "-m", "rm"]);
    let out = hygiene(root, &["check", "--accept-suggestions", "--format", "json"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let j: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(j["apply"].is_null());
    assert_eq!(j["summary"]["entries"], 3, "{j}");
    // Nothing applied without --apply.
    assert_eq!(read(root, "CLAUDE.md"), CLAUDE_MD);
    assert_eq!(
        read(root, "docs/gone.md"),
        "# Gone\n\nSee `src/removed.rs`.\n"
    );
    let report: Value = serde_json::from_str(&read(root, ".hygiene/report.json")).unwrap();
    assert!(report["entries"]
        .as_array()
        .unwrap()
        .iter()
        .all(|e| e["path"] != "docs/gone.md"));
    let gone = hygiene(root, &["scan", "--fail-on", "missing-path", "docs/gone.md"]);
    assert_eq!(gone.status.code(), Some(1));
    // The deleting commit and its UTC date, from git itself.
    let del = Command::new("git")
        .arg("-C")
        .arg(root)
        .args([
            "log",
            "-1",
            "--diff-filter=D",
            "--date=format-local:%Y-%m-%d",
            "--format=%H %ad",
            "--",
            "src/removed.rs",
        ])
        .env("TZ", "UTC")
        .output()
        .unwrap();
    let del = String::from_utf8(del.stdout).unwrap();
    let (id, date) = del.trim().split_once(' ').unwrap();
    assert_eq!(
        stderr(&gone).lines().next().unwrap(),
        format!(
            "docs/gone.md:3: missing-path: `src/removed.rs` (code) names no file; git deleted it in {} ({date})",
            &id[..12]
        )
    );
}

#[test]
fn fail_on_validates_kinds_against_the_policy() {
    let dir = fixture();
    let out = hygiene(
        dir.path(),
        &["scan", "--fail-on", "missing-path,missing-paths"],
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("`missing-paths`"), "{}", stderr(&out));
    assert!(
        out.stdout.is_empty(),
        "no scan is printed for a usage error"
    );
    // Every published kind is accepted; kinds with no signal here pass.
    let policy: Value = serde_json::from_slice(&hygiene(dir.path(), &["policy"]).stdout).unwrap();
    let kinds: Vec<String> = policy["signals"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["kind"].as_str().unwrap().to_string())
        .collect();
    let none = hygiene(dir.path(), &["scan", "--fail-on", "missing-anchor,drift"]);
    assert_eq!(none.status.code(), Some(0), "{}", stderr(&none));
    let all = hygiene(dir.path(), &["scan", "--fail-on", &kinds.join(",")]);
    assert_eq!(all.status.code(), Some(1), "{}", stderr(&all));
}

// ---------------------------------------------------------------------------------------------
// SARIF
// ---------------------------------------------------------------------------------------------

const JSONSCHEMA_VERSION: &str = "4.26.0";

/// A `python3` that can `import jsonschema`, and the PYTHONPATH it needs: the machine's own, or
/// the package installed with pip into the test cache folder. Decided once per test binary, and
/// installed under a file lock, so concurrent tests on a fresh machine never run two pip
/// installs into one folder.
fn python_with_jsonschema() -> Option<PathBuf> {
    static PYTHONPATH: std::sync::OnceLock<Option<PathBuf>> = std::sync::OnceLock::new();
    PYTHONPATH.get_or_init(find_or_install_jsonschema).clone()
}

fn find_or_install_jsonschema() -> Option<PathBuf> {
    let has = |pythonpath: Option<&Path>| {
        let mut c = Command::new("python3");
        c.args(["-c", "import jsonschema"]);
        if let Some(p) = pythonpath {
            c.env("PYTHONPATH", p);
        }
        c.output().is_ok_and(|o| o.status.success())
    };
    if has(None) {
        return None;
    }
    let cache = std::env::var_os("HYGIENE_TEST_CACHE")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            PathBuf::from(std::env::var_os("HOME").expect("HOME is set"))
                .join(".cache/hygiene-test")
        })
        .join(format!("py-jsonschema-{JSONSCHEMA_VERSION}"));
    std::fs::create_dir_all(&cache).unwrap();
    let lock = std::fs::File::create(cache.with_extension("lock")).unwrap();
    lock.lock().expect("the install lock");
    if !has(Some(&cache)) {
        std::fs::create_dir_all(&cache).unwrap();
        let out = Command::new("python3")
            .args([
                "-m",
                "pip",
                "install",
                "--quiet",
                "--disable-pip-version-check",
                "--target",
            ])
            .arg(&cache)
            .arg(format!("jsonschema=={JSONSCHEMA_VERSION}"))
            .output();
        match out {
            Ok(o) if o.status.success() && has(Some(&cache)) => {}
            Ok(o) => panic!(
                "the SARIF test needs the Python jsonschema package: `python3 -m pip install --target {} \
                 jsonschema=={JSONSCHEMA_VERSION}` failed ({}):\n{}",
                cache.display(),
                o.status,
                String::from_utf8_lossy(&o.stderr)
            ),
            Err(e) => panic!("the SARIF test needs python3 with pip to validate SARIF: {e}"),
        }
    }
    drop(lock);
    Some(cache)
}

const VALIDATE_PY: &str = r#"
import json, sys, jsonschema
schema = json.load(open(sys.argv[1]))
doc = json.load(open(sys.argv[2]))
jsonschema.Draft4Validator.check_schema(schema)
errors = list(jsonschema.Draft4Validator(schema).iter_errors(doc))
for e in errors:
    print("/" + "/".join(str(p) for p in e.absolute_path) + ": " + e.message)
sys.exit(1 if errors else 0)
"#;

/// Validates `doc` against the shipped SARIF 2.1.0 schema: `Ok` or the violations.
fn validate_sarif(doc: &Value) -> Result<(), String> {
    let schema = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/sarif-schema-2.1.0.json");
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("log.sarif");
    std::fs::write(&file, serde_json::to_vec(doc).unwrap()).unwrap();
    let mut c = Command::new("python3");
    c.arg("-c").arg(VALIDATE_PY).arg(&schema).arg(&file);
    if let Some(p) = python_with_jsonschema() {
        c.env("PYTHONPATH", p);
    }
    let out = c.output().expect("python3 runs");
    match out.status.code() {
        Some(0) => Ok(()),
        Some(1) => Err(String::from_utf8_lossy(&out.stdout).into_owned()),
        _ => panic!(
            "the validator failed: {}",
            String::from_utf8_lossy(&out.stderr)
        ),
    }
}

/// Applies one SARIF replacement (1-based line/column in code points, a line's columns counting
/// its terminator; the end column is exclusive) to `text`.
fn apply_replacement(text: &str, r: &Value) -> String {
    let reg = &r["deletedRegion"];
    let offset = |line: u64, col: u64| -> usize {
        let mut start = 0usize;
        for _ in 1..line {
            start += text[start..].find('\n').expect("line exists") + 1;
        }
        text[start..]
            .char_indices()
            .map(|(i, _)| start + i)
            .chain(std::iter::once(text.len()))
            .nth(col as usize - 1)
            .expect("column exists")
    };
    let a = offset(
        reg["startLine"].as_u64().unwrap(),
        reg["startColumn"].as_u64().unwrap(),
    );
    let b = offset(
        reg["endLine"].as_u64().unwrap(),
        reg["endColumn"].as_u64().unwrap(),
    );
    let inserted = r["insertedContent"]["text"].as_str().unwrap_or("");
    format!("{}{}{}", &text[..a], inserted, &text[b..])
}

#[test]
fn sarif_validates_and_its_rules_are_the_policys_signal_kinds() {
    let dir = fixture();
    let root = dir.path();
    let out_file = root.join("hygiene.sarif");
    let out = hygiene(
        root,
        &[
            "scan",
            "--format",
            "sarif",
            "--out",
            out_file.to_str().unwrap(),
        ],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let log: Value = serde_json::from_str(&std::fs::read_to_string(&out_file).unwrap()).unwrap();

    validate_sarif(&log).unwrap_or_else(|e| panic!("SARIF does not validate:\n{e}"));
    // The validator is live: a log without its version is refused.
    let mut broken = log.clone();
    broken.as_object_mut().unwrap().remove("version");
    assert!(validate_sarif(&broken).is_err());

    // Rules: one per published signal kind, in order, with the policy's fact.
    let policy: Value = serde_json::from_slice(&hygiene(root, &["policy"]).stdout).unwrap();
    let signals = policy["signals"].as_array().unwrap();
    let run = &log["runs"][0];
    let rules = run["tool"]["driver"]["rules"].as_array().unwrap();
    let ids: Vec<&str> = rules.iter().map(|r| r["id"].as_str().unwrap()).collect();
    let kinds: Vec<&str> = signals
        .iter()
        .map(|s| s["kind"].as_str().unwrap())
        .collect();
    assert_eq!(ids, kinds);
    for (r, s) in rules.iter().zip(signals) {
        assert_eq!(r["shortDescription"]["text"], s["fact"]);
    }

    // Results: one per signal of the JSON scan, each naming its rule by id and index.
    let scan: Value = serde_json::from_slice(&hygiene(root, &["scan"]).stdout).unwrap();
    let n_signals: usize = scan["shortlist"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["signals"].as_array().unwrap().len())
        .sum();
    let results = run["results"].as_array().unwrap();
    assert_eq!(results.len(), n_signals);
    for r in results {
        let i = r["ruleIndex"].as_u64().unwrap() as usize;
        assert_eq!(r["ruleId"], rules[i]["id"]);
    }

    // The rename's result sits on the reference's line and its fix turns the file into the fixed one.
    let ref_line = line_of(CLAUDE_MD, "src/old.rs") as u64;
    let rename = results
        .iter()
        .find(|r| {
            r["ruleId"] == "missing-path"
                && r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "CLAUDE.md"
        })
        .expect("the rename's result");
    let region = &rename["locations"][0]["physicalLocation"]["region"];
    assert_eq!(region["startLine"], ref_line);
    assert_eq!(region["endLine"], ref_line);
    let rep = &rename["fixes"][0]["artifactChanges"][0]["replacements"][0];
    assert_eq!(
        apply_replacement(CLAUDE_MD, rep),
        CLAUDE_MD.replace("`src/old.rs`", "`src/new.rs`")
    );

    // The duplicate's fix removes the copy: the same bytes `check --apply` leaves.
    let dup = results
        .iter()
        .find(|r| {
            r["ruleId"] == "duplicate-block"
                && r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
                    == "docs/CLAUDE.md"
        })
        .expect("the duplicate's result");
    let start = line_of(GUIDE_MD, "Run the build") as u64;
    assert_eq!(
        dup["locations"][0]["physicalLocation"]["region"]["startLine"],
        start
    );
    assert_eq!(
        dup["locations"][0]["physicalLocation"]["region"]["endLine"],
        start + 1
    );
    let rep = &dup["fixes"][0]["artifactChanges"][0]["replacements"][0];
    assert_eq!(
        apply_replacement(GUIDE_MD, rep),
        GUIDE_MD.replacen(BLOCK, "", 1)
    );

    // The plan's whole-file deletion has no text form: its result carries no fix.
    let plan = results
        .iter()
        .find(|r| {
            r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
                == "docs/plans/parser.md"
                && r["ruleId"] == "lifecycle"
        })
        .expect("the plan's lifecycle result");
    assert!(plan.get("fixes").is_none());
}

// ---------------------------------------------------------------------------------------------
// Progress
// ---------------------------------------------------------------------------------------------

#[test]
fn no_progress_bytes_when_stderr_is_not_a_terminal() {
    let dir = fixture();
    let out = Command::new(env!("CARGO_BIN_EXE_hygiene"))
        .args(["scan", "--root"])
        .arg(dir.path())
        // Progress would start at once if it were allowed.
        .env("HYGIENE_PROGRESS_AFTER_MS", "0")
        .env_remove("NO_COLOR")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert!(out.stderr.is_empty(), "{:?}", stderr(&out));
    let j: Value = serde_json::from_slice(&out.stdout).expect("stdout is pure JSON");
    assert!(j["shortlist"].is_array());
}

/// Runs a scan under a pseudo-terminal (`script`), stdout to a file: what the terminal shows.
fn scan_on_a_terminal(root: &Path, no_color: bool) -> (String, Value) {
    let out_file = root.join(".hygiene-test-out.json");
    let cmd = format!(
        "{} scan --root {} --out {}",
        env!("CARGO_BIN_EXE_hygiene"),
        root.display(),
        out_file.display()
    );
    let mut c = Command::new("script");
    c.args(["-qec", &cmd, "/dev/null"])
        .env("HYGIENE_PROGRESS_AFTER_MS", "0")
        .env("TERM", "xterm");
    if no_color {
        c.env("NO_COLOR", "1");
    } else {
        c.env_remove("NO_COLOR");
    }
    let out = c
        .output()
        .expect("`script` (util-linux) runs the scan on a pseudo-terminal");
    assert!(out.status.success(), "{}", stderr(&out));
    let json: Value = serde_json::from_str(&std::fs::read_to_string(&out_file).unwrap()).unwrap();
    (String::from_utf8_lossy(&out.stdout).into_owned(), json)
}

#[test]
fn a_terminal_gets_progress_and_no_color_gets_no_escapes() {
    let dir = fixture();
    let (screen, json) = scan_on_a_terminal(dir.path(), false);
    assert!(screen.contains("files walked"), "{screen:?}");
    assert!(screen.contains('\x1b'), "{screen:?}");
    assert!(
        json["shortlist"].is_array(),
        "the JSON file holds no progress"
    );
    let (screen, _) = scan_on_a_terminal(dir.path(), true);
    assert!(screen.contains("files walked"), "{screen:?}");
    assert!(!screen.contains('\x1b'), "NO_COLOR: {screen:?}");
}
