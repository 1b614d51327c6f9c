//! `hygiene hook`: each way a path goes away, in real git repositories built here, with the
//! real commands run by bash and the helper fed the hook input Claude Code sends (the shape
//! checked against the pinned client in `docs/hook.md` and `tests/plugin.rs`).

mod common;
use common::{git, read, write};
use serde_json::{json, Value};
use std::fs;
use std::io::Write as _;
use std::path::Path;
use std::process::{Command, Stdio};

/// Runs `hygiene hook EVENT` with `input` on stdin. Asserts the hook contract every time: exit
/// 0, nothing on stderr, and stdout either empty or one JSON object naming the event. Returns
/// the additional context, if any.
fn hook(event: &str, input: &Value) -> Option<String> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_hygiene"))
        .args(["hook", event])
        .env_remove("CLAUDE_PROJECT_DIR")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.to_string().as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "the hook always exits 0: {stdout}"
    );
    assert!(
        out.stderr.is_empty(),
        "the hook writes nothing on stderr: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    if stdout.is_empty() {
        return None;
    }
    assert!(
        stdout.ends_with('\n') && stdout.lines().count() == 1,
        "{stdout:?}"
    );
    let v: Value = serde_json::from_str(&stdout).unwrap();
    let o = v["hookSpecificOutput"].as_object().unwrap();
    assert_eq!(o.len(), 2, "{v}");
    let want = input["hook_event_name"].as_str().unwrap_or("PostToolUse");
    assert_eq!(o["hookEventName"], want);
    assert_eq!(v.as_object().unwrap().len(), 1, "{v}");
    Some(o["additionalContext"].as_str().unwrap().to_string())
}

fn session_start(repo: &Path) {
    let input = json!({"hook_event_name": "SessionStart", "source": "startup", "cwd": repo});
    assert_eq!(
        hook("session-start", &input),
        None,
        "session start reports nothing"
    );
}

/// Runs `command` with bash in `dir` (as the Bash tool would), then the hook as the client
/// would call it afterwards (`cwd`: where the command ended, here `end`).
fn bash_in(repo: &Path, dir: &Path, command: &str, end: &Path) -> Option<String> {
    let out = Command::new("bash")
        .args(["-c", command])
        .current_dir(dir)
        .env("GIT_AUTHOR_NAME", "t")
        .env("GIT_AUTHOR_EMAIL", "t@t")
        .env("GIT_COMMITTER_NAME", "t")
        .env("GIT_COMMITTER_EMAIL", "t@t")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "`{command}`: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let _ = repo;
    hook(
        "post-tool-use",
        &json!({
            "session_id": "s",
            "transcript_path": "/dev/null",
            "cwd": end,
            "hook_event_name": "PostToolUse",
            "tool_name": "Bash",
            "tool_input": {"command": command, "description": "test"},
            "tool_response": {"stdout": "", "stderr": "", "interrupted": false, "isImage": false},
            "tool_use_id": "toolu_1",
        }),
    )
}

fn bash(repo: &Path, command: &str) -> Option<String> {
    bash_in(repo, repo, command, repo)
}

/// A committed repository: CLAUDE.md and docs naming source files, folders and each other.
fn repo() -> tempfile::TempDir {
    let t = tempfile::tempdir().unwrap();
    let r = t.path();
    git(r, &["init", "-q"]);
    write(r, "src/a.rs", "pub fn a() {}\n");
    write(r, "src/keep.rs", "pub fn k() {}\n");
    write(r, "docs/old/setup.md", "# Setup\n\nInstall it.\n");
    write(r, "docs/old/notes.md", "# Notes\n");
    write(
        r,
        "docs/guide.md",
        "# Guide\n\nThe entry point is [a](../src/a.rs).\n\nSee [setup](old/setup.md).\n",
    );
    write(
        r,
        "CLAUDE.md",
        "# Project\n\nRead [the guide](docs/guide.md) first.\n\nCode lives in `src/a.rs` and `src/keep.rs`.\nOld material: `docs/old/`.\n",
    );
    write(
        r,
        "README.md",
        "# Readme\n\nSee [the guide](docs/guide.md#guide).\n",
    );
    git(r, &["add", "-A"]);
    git(r, &["commit", "-q", "-m", "initial"]);
    session_start(r);
    t
}

fn lines(ctx: &str) -> Vec<&str> {
    ctx.lines().skip(1).collect()
}

#[test]
fn git_mv_of_a_file_reports_each_reference_with_its_fix_once() {
    let t = repo();
    let r = t.path();
    let ctx = bash(r, "git mv src/a.rs src/b.rs").expect("the rename is reported");
    assert!(
        ctx.starts_with("hygiene: 2 document references now name paths that no longer exist."),
        "{ctx}"
    );
    assert_eq!(
        lines(&ctx),
        [
            "- CLAUDE.md:5: `src/a.rs` was moved to `src/b.rs`; replace `src/a.rs` with `src/b.rs` on that line.",
            "- docs/guide.md:3: `../src/a.rs` (src/a.rs) was moved to `src/b.rs`; replace `../src/a.rs` with `../src/b.rs` on that line.",
        ]
    );
    // Said once: the next call, with nothing new broken, costs no tokens.
    assert_eq!(bash(r, "git status --short"), None);
    // Applying the fix it gave makes the scanner agree nothing is broken.
    let claude = read(r, "CLAUDE.md").replace("src/a.rs", "src/b.rs");
    write(r, "CLAUDE.md", &claude);
    let guide = read(r, "docs/guide.md").replace("../src/a.rs", "../src/b.rs");
    write(r, "docs/guide.md", &guide);
    let scan = Command::new(env!("CARGO_BIN_EXE_hygiene"))
        .args(["scan", "--fail-on", "missing-path", "--root"])
        .arg(r)
        .output()
        .unwrap();
    assert!(
        scan.status.success(),
        "{}",
        String::from_utf8_lossy(&scan.stderr)
    );
}

#[test]
fn a_tool_call_that_breaks_nothing_prints_nothing() {
    let t = repo();
    let r = t.path();
    for cmd in [
        "ls -la docs",
        "cat CLAUDE.md > /dev/null",
        "git mv src/keep.rs src/kept.rs && git mv src/kept.rs src/keep.rs",
        "mkdir -p new && echo x > new/file.md",
        "rm -rf new",
    ] {
        assert_eq!(bash(r, cmd), None, "{cmd}");
    }
}

#[test]
fn rm_rf_of_a_folder_reports_the_folder_and_what_was_in_it() {
    let t = repo();
    let r = t.path();
    let ctx = bash(r, "rm -rf docs/old").expect("the deletion is reported");
    assert_eq!(
        lines(&ctx),
        [
            "- CLAUDE.md:6: `docs/old/` no longer exists; point it at the new place or remove the reference.",
            "- docs/guide.md:5: `old/setup.md` (docs/old/setup.md) no longer exists; point it at the new place or remove the reference.",
        ]
    );
}

#[test]
fn mv_of_a_folder_maps_everything_inside_it() {
    let t = repo();
    let r = t.path();
    let ctx = bash(r, "mv docs/old docs/archive").expect("the move is reported");
    assert_eq!(
        lines(&ctx),
        [
            "- CLAUDE.md:6: `docs/old/` was moved to `docs/archive`; replace `docs/old/` with `docs/archive/` on that line.",
            "- docs/guide.md:5: `old/setup.md` (docs/old/setup.md) was moved to `docs/archive/setup.md`; replace `old/setup.md` with `archive/setup.md` on that line.",
        ]
    );
}

#[test]
fn git_rm_reports_without_a_fix() {
    let t = repo();
    let r = t.path();
    let ctx = bash(r, "git rm -q src/a.rs").expect("the deletion is reported");
    assert_eq!(
        lines(&ctx),
        [
            "- CLAUDE.md:5: `src/a.rs` no longer exists; point it at the new place or remove the reference.",
            "- docs/guide.md:3: `../src/a.rs` (src/a.rs) no longer exists; point it at the new place or remove the reference.",
        ]
    );
}

fn tool(repo: &Path, name: &str, tool_input: Value) -> Option<String> {
    hook(
        "post-tool-use",
        &json!({
            "cwd": repo,
            "hook_event_name": "PostToolUse",
            "tool_name": name,
            "tool_input": tool_input,
            "tool_response": {"filePath": "x", "success": true},
        }),
    )
}

#[test]
fn write_and_edit_that_delete_nothing_print_nothing_but_refresh_the_index() {
    let t = repo();
    let r = t.path();
    // Write: a new document naming an existing file.
    write(r, "docs/new.md", "# New\n\nUses [keep](../src/keep.rs).\n");
    let input = json!({"file_path": r.join("docs/new.md"), "content": read(r, "docs/new.md")});
    assert_eq!(tool(r, "Write", input), None);
    // Edit: CLAUDE.md stops naming src/a.rs and names src/keep.rs twice.
    let before = read(r, "CLAUDE.md");
    write(r, "CLAUDE.md", &before.replace("`src/a.rs` and ", ""));
    let input = json!({"file_path": r.join("CLAUDE.md"), "old_string": "`src/a.rs` and ", "new_string": ""});
    assert_eq!(tool(r, "Edit", input), None);
    // The index saw both: the new document's link is watched, and CLAUDE.md no longer names
    // src/a.rs (only the guide's link is reported when it goes).
    let ctx = bash(r, "rm src/keep.rs src/a.rs").expect("reported");
    assert_eq!(
        lines(&ctx),
        [
            "- CLAUDE.md:5: `src/keep.rs` no longer exists; point it at the new place or remove the reference.",
            "- docs/guide.md:3: `../src/a.rs` (src/a.rs) no longer exists; point it at the new place or remove the reference.",
            "- docs/new.md:3: `../src/keep.rs` (src/keep.rs) no longer exists; point it at the new place or remove the reference.",
        ]
    );
}

#[test]
fn renaming_a_document_reports_the_documents_linking_to_it_and_its_own_links() {
    let t = repo();
    let r = t.path();
    let ctx = bash(
        r,
        "mkdir -p docs/manual && git mv docs/guide.md docs/manual/guide.md",
    )
    .expect("the rename is reported");
    assert_eq!(
        lines(&ctx),
        [
            "- CLAUDE.md:3: `docs/guide.md` was moved to `docs/manual/guide.md`; replace `docs/guide.md` with `docs/manual/guide.md` on that line.",
            "- README.md:3: `docs/guide.md` was moved to `docs/manual/guide.md`; replace `docs/guide.md` with `docs/manual/guide.md` on that line.",
            "- docs/manual/guide.md:3: `../src/a.rs` no longer resolves since the document moved from docs/guide.md; replace it with `../../src/a.rs`.",
            "- docs/manual/guide.md:5: `old/setup.md` no longer resolves since the document moved from docs/guide.md; replace it with `../old/setup.md`.",
        ]
    );
}

#[test]
fn a_linking_document_in_a_folder_gets_the_new_path_relative_to_itself() {
    let t = repo();
    let r = t.path();
    write(
        r,
        "docs/api/ref.md",
        "# Ref\n\nBack to [the guide](../guide.md#guide).\n",
    );
    git(r, &["add", "-A"]);
    git(r, &["commit", "-q", "-m", "ref"]);
    session_start(r);
    let ctx = bash(r, "git mv docs/guide.md docs/handbook.md").expect("reported");
    let ours: Vec<&str> = lines(&ctx)
        .into_iter()
        .filter(|l| l.starts_with("- docs/api/"))
        .collect();
    assert_eq!(
        ours,
        ["- docs/api/ref.md:3: `../guide.md` (docs/guide.md) was moved to `docs/handbook.md`; replace `../guide.md` with `../handbook.md` on that line."]
    );
}

#[test]
fn relative_paths_in_the_command_follow_its_cd() {
    let t = repo();
    let r = t.path();
    // The client reports the folder the command ended in.
    let ctx = bash_in(r, r, "cd src && git mv a.rs b.rs", &r.join("src")).expect("reported");
    assert!(ctx.contains("replace `src/a.rs` with `src/b.rs`"), "{ctx}");
    // The next command starts in src/: its relative paths are read from there.
    let ctx =
        bash_in(r, &r.join("src"), "mv keep.rs ../kept.rs", &r.join("src")).expect("reported");
    assert!(
        ctx.contains("replace `src/keep.rs` with `kept.rs`"),
        "{ctx}"
    );
}

#[test]
fn moving_into_an_existing_folder_keeps_the_name() {
    let t = repo();
    let r = t.path();
    let ctx = bash(r, "mkdir lib && mv src/a.rs lib").expect("reported");
    assert!(ctx.contains("replace `src/a.rs` with `lib/a.rs`"), "{ctx}");
}

#[test]
fn git_supplies_the_new_name_when_the_command_does_not_say_it() {
    let t = repo();
    let r = t.path();
    // A script's git mv: the command text names no paths, git's index does.
    write(r, "tools/move.sh", "git mv src/a.rs src/core.rs\n");
    git(r, &["add", "-A"]);
    git(r, &["commit", "-q", "-m", "script"]);
    let ctx = bash(r, "bash tools/move.sh").expect("reported");
    assert!(
        ctx.contains("replace `src/a.rs` with `src/core.rs`"),
        "{ctx}"
    );
    // Renamed and committed in one command: the newest commit says it.
    let ctx = bash(r, "git mv src/keep.rs src/stay.rs && git commit -q -m move").expect("reported");
    assert!(
        ctx.contains("replace `src/keep.rs` with `src/stay.rs`"),
        "{ctx}"
    );
}

#[test]
fn an_unknown_destination_is_reported_without_a_guess() {
    let t = repo();
    let r = t.path();
    let ctx = bash(r, "for f in src/a.rs; do mv \"$f\" \"${f%.rs}.txt\"; done").expect("reported");
    assert!(ctx.contains("`src/a.rs` no longer exists"), "{ctx}");
    assert!(!ctx.contains("replace `src/a.rs`"), "{ctx}");
}

#[test]
fn a_failed_command_that_moved_something_is_reported_under_its_event() {
    let t = repo();
    let r = t.path();
    fs::rename(r.join("src/a.rs"), r.join("src/b.rs")).unwrap();
    let ctx = hook(
        "post-tool-use",
        &json!({
            "cwd": r,
            "hook_event_name": "PostToolUseFailure",
            "tool_name": "Bash",
            "tool_input": {"command": "mv src/a.rs src/b.rs && false"},
            "error": "Exit code 1",
        }),
    )
    .expect("reported");
    assert!(ctx.contains("replace `src/a.rs` with `src/b.rs`"), "{ctx}");
}

#[test]
fn the_rulebook_switches_it_off() {
    let t = tempfile::tempdir().unwrap();
    let r = t.path();
    git(r, &["init", "-q"]);
    write(r, "src/a.rs", "");
    write(r, "CLAUDE.md", "`src/a.rs`\n");
    write(
        r,
        ".hygiene/rulebook.json",
        r#"{"hook": {"enabled": false}}"#,
    );
    git(r, &["add", "-A"]);
    git(r, &["commit", "-q", "-m", "i"]);
    session_start(r);
    assert_eq!(bash(r, "git mv src/a.rs src/b.rs"), None);
    assert!(
        !r.join(".hygiene/hook-index.json").exists(),
        "a switched-off hook keeps no index"
    );
    // `hygiene policy` publishes the default: on.
    let out = Command::new(env!("CARGO_BIN_EXE_hygiene"))
        .arg("policy")
        .output()
        .unwrap();
    let policy: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(policy["rulebook"]["hook"], json!({"enabled": true}));
}

#[test]
fn internal_errors_are_silent_and_exit_zero() {
    let t = repo();
    let r = t.path();
    // A rulebook that does not validate: no report, no failure.
    write(
        r,
        ".hygiene/rulebook.json",
        r#"{"hook": {"enabled": "yes"}}"#,
    );
    assert_eq!(bash(r, "git mv src/a.rs src/b.rs"), None);
    // Inputs that are not a hook's: garbage, another shape, a folder outside any repository.
    let outside = tempfile::tempdir().unwrap();
    for input in [
        json!("not an object"),
        json!({"cwd": 42}),
        json!({"cwd": "/nonexistent/folder"}),
        json!({"cwd": outside.path(), "tool_name": "Bash", "tool_input": {"command": "rm -rf x"}}),
    ] {
        assert_eq!(hook("post-tool-use", &input), None, "{input}");
    }
    assert_eq!(
        fs::read_dir(outside.path()).unwrap().count(),
        0,
        "nothing is written outside a repository"
    );
}

#[test]
fn never_writes_through_a_hygiene_folder_that_links_out_of_the_root() {
    let t = tempfile::tempdir().unwrap();
    let r = t.path().join("repo");
    let elsewhere = t.path().join("elsewhere");
    fs::create_dir_all(&r).unwrap();
    fs::create_dir_all(&elsewhere).unwrap();
    git(&r, &["init", "-q"]);
    write(&r, "src/a.rs", "");
    write(&r, "CLAUDE.md", "`src/a.rs`\n");
    std::os::unix::fs::symlink(&elsewhere, r.join(".hygiene")).unwrap();
    session_start(&r);
    assert_eq!(bash(&r, "rm src/a.rs"), None);
    assert_eq!(fs::read_dir(&elsewhere).unwrap().count(), 0);
}

#[test]
fn without_a_session_start_the_first_call_builds_the_index_and_later_calls_report() {
    let t = tempfile::tempdir().unwrap();
    let r = t.path();
    git(r, &["init", "-q"]);
    write(r, "src/a.rs", "");
    write(r, "CLAUDE.md", "`src/a.rs`\n");
    assert_eq!(bash(r, "true"), None, "no before: nothing to compare");
    assert_eq!(
        read(r, ".hygiene/.gitignore"),
        hygiene::hook::GITIGNORE,
        "a .hygiene folder the hook creates ignores its scratch files"
    );
    let status = git(r, &["status", "--porcelain", "--untracked-files=all"]);
    assert!(
        !status.contains(".hygiene"),
        "the hook's files stay out of git status: {status}"
    );
    write(r, ".hygiene/rulebook.json", "{}");
    let status = git(r, &["status", "--porcelain", "--untracked-files=all"]);
    assert!(
        status.contains(".hygiene/rulebook.json"),
        "a rulebook is for committing: {status}"
    );
    assert!(bash(r, "mv src/a.rs src/b.rs").is_some());
}

#[test]
fn many_breaks_are_capped_with_a_count() {
    let t = tempfile::tempdir().unwrap();
    let r = t.path();
    git(r, &["init", "-q"]);
    let mut claude = String::from("# Files\n\n");
    for i in 0..15 {
        write(r, &format!("gen/f{i:02}.rs"), "");
        claude.push_str(&format!("- `gen/f{i:02}.rs`\n"));
    }
    write(r, "CLAUDE.md", &claude);
    session_start(r);
    let ctx = bash(r, "rm -r gen").expect("reported");
    assert!(ctx.starts_with("hygiene: 15 document references"), "{ctx}");
    assert_eq!(lines(&ctx).len(), hygiene::hook::MAX_LISTED + 1);
    assert!(
        ctx.ends_with("- ... and 5 more; `hygiene scan --fail-on missing-path` lists them all."),
        "{ctx}"
    );
}

/// Sets the modification time of every file and folder under `dir` (not `.git`) an hour back,
/// as in a repository nobody touched lately: then only a real change moves a folder's time.
fn age(dir: &Path) {
    let past = std::time::SystemTime::now() - std::time::Duration::from_secs(3600);
    for e in fs::read_dir(dir).unwrap().flatten() {
        if e.file_name() == ".git" {
            continue;
        }
        if e.file_type().unwrap().is_dir() {
            age(&e.path());
        }
        fs::File::open(e.path())
            .unwrap()
            .set_modified(past)
            .unwrap();
    }
    fs::File::open(dir).unwrap().set_modified(past).unwrap();
}

#[test]
fn in_a_quiet_tree_a_no_op_reads_only_the_watch_and_real_changes_still_show() {
    let t = repo();
    let r = t.path();
    age(r);
    session_start(r);
    let index = r.join(".hygiene/hook-index.json");
    let watch = r.join(".hygiene/hook-watch.json");
    let (i0, w0) = (fs::read(&index).unwrap(), fs::read(&watch).unwrap());
    let mtime = |p: &Path| fs::metadata(p).unwrap().modified().unwrap();
    let (im, wm) = (mtime(&index), mtime(&watch));
    assert_eq!(bash(r, "ls docs && git log --oneline"), None);
    assert_eq!(
        (mtime(&index), mtime(&watch)),
        (im, wm),
        "a no-op writes nothing"
    );
    assert_eq!(
        (fs::read(&index).unwrap(), fs::read(&watch).unwrap()),
        (i0, w0)
    );
    // An append in place leaves the folder's time alone; the command names the document.
    assert_eq!(bash(r, "echo 'Also `src/keep.rs`.' >> docs/guide.md"), None);
    let ctx = bash(r, "git mv src/keep.rs src/kept.rs").expect("reported");
    assert_eq!(
        lines(&ctx),
        [
            "- CLAUDE.md:5: `src/keep.rs` was moved to `src/kept.rs`; replace `src/keep.rs` with `src/kept.rs` on that line.",
            "- docs/guide.md:6: `src/keep.rs` was moved to `src/kept.rs`; replace `src/keep.rs` with `src/kept.rs` on that line.",
        ]
    );
}

#[test]
fn a_call_that_only_moves_paths_rewrites_the_watch_not_the_index() {
    let t = repo();
    let r = t.path();
    let index = r.join(".hygiene/hook-index.json");
    let before = fs::read(&index).unwrap();
    assert!(bash(r, "git mv src/a.rs src/b.rs").is_some());
    assert_eq!(
        fs::read(&index).unwrap(),
        before,
        "no document changed, so the index stands; the watch records what exists"
    );
    // And the watch remembers: said once.
    assert_eq!(bash(r, "true"), None);
}

#[test]
fn a_panic_inside_the_hook_is_silence_and_exit_zero() {
    let t = repo();
    let r = t.path();
    let input = json!({"cwd": r, "hook_event_name": "PostToolUse", "tool_name": "Bash",
                       "tool_input": {"command": "true"}});
    let mut child = Command::new(env!("CARGO_BIN_EXE_hygiene"))
        .args(["hook", "post-tool-use"])
        .env("HYGIENE_TEST_HOOK_PANIC", "1")
        .env("RUST_BACKTRACE", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.to_string().as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert!(out.stdout.is_empty());
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn a_write_into_an_excluded_folder_is_not_a_document() {
    let t = repo();
    let r = t.path();
    age(r);
    session_start(r);
    write(r, "node_modules/pkg/README.md", "See `src/keep.rs`.\n");
    let input = json!({"file_path": r.join("node_modules/pkg/README.md"), "content": "x"});
    assert_eq!(tool(r, "Write", input), None);
    let ctx = bash(r, "rm src/keep.rs").expect("reported");
    assert!(
        !ctx.contains("node_modules"),
        "a document the scan never reads is not watched either: {ctx}"
    );
    assert!(ctx.contains("CLAUDE.md:5"), "{ctx}");
}
