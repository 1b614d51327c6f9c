//! Load class: which documents Claude Code puts into every session, and which it reads only on
//! demand. A token saved in a per-session file is saved in every session; in an on-demand file
//! it is a theoretical maximum, so the shortlist puts per-session files first.
//!
//! Per-session (Claude Code's memory at start): the root `CLAUDE.md`, `CLAUDE.local.md` and
//! `.claude/CLAUDE.md`; `.claude/rules/**/*.md` without a `paths:` frontmatter key (a `paths:`
//! rule loads only when matching files are touched); and every file these `@import`,
//! recursively, up to [`IMPORT_DEPTH`] hops. The class is per client: the files other clients
//! load into every request ([`OTHER_CLIENTS_EVERY_REQUEST`], always-applied Cursor rules) are
//! per-session too. Everything else (nested `CLAUDE.md`, docs, skill bodies) is on-demand.

use super::markdown::{parse, strip_bom, Parsed};
use super::refs::{resolve, Target, Tree};
use crate::report::{InjectionFrequency, Via};
use std::collections::{HashMap, HashSet};
use std::path::Path;

/// The files loaded at the start of every session.
pub const PER_SESSION_FILES: &[&str] = &["CLAUDE.md", "CLAUDE.local.md", ".claude/CLAUDE.md"];

/// The folder of always-loaded rules (unless a rule's frontmatter has `paths:`).
pub const RULES_DIR: &str = ".claude/rules/";

/// How many `@import` hops Claude Code follows.
pub const IMPORT_DEPTH: usize = 5;

fn read_parsed(root: &Path, rel: &str) -> Option<Parsed> {
    let full = crate::paths::resolve_inside(root, rel, false).ok()?;
    let meta = std::fs::metadata(&full).ok()?;
    if !meta.is_file() || meta.len() > super::THRESHOLDS.file_size_cap_bytes {
        return None;
    }
    let text = String::from_utf8(std::fs::read(full).ok()?).ok()?;
    Some(parse(strip_bom(&text)))
}

/// The root-relative paths loaded every session. `files` are candidate rule files (any file
/// list that includes `.claude/rules/`); the seeds and imports are read from disk.
pub fn per_session(tree: &Tree, files: &[String]) -> HashSet<String> {
    let root = tree.root.as_path();
    let mut frontier: Vec<(String, Parsed)> = Vec::new();
    let mut seen: HashSet<String> = HashSet::new();
    for seed in PER_SESSION_FILES {
        if let Some(p) = read_parsed(root, seed) {
            seen.insert(seed.to_string());
            frontier.push((seed.to_string(), p));
        }
    }
    for f in files {
        if f.starts_with(RULES_DIR) && f.ends_with(".md") && !seen.contains(f) {
            if let Some(p) = read_parsed(root, f) {
                if p.frontmatter.get("paths").is_none() {
                    seen.insert(f.clone());
                    frontier.push((f.clone(), p));
                }
            }
        }
    }
    for _ in 0..IMPORT_DEPTH {
        let mut next = Vec::new();
        for (path, parsed) in &frontier {
            for r in parsed.refs.iter().filter(|r| r.via == Via::Import) {
                if let Target::Found { path: Some(t), .. } = resolve(tree, path, r) {
                    if seen.insert(t.clone()) {
                        if let Some(p) = read_parsed(root, &t) {
                            next.push((t, p));
                        }
                    }
                }
            }
        }
        if next.is_empty() {
            break;
        }
        frontier = next;
    }
    seen
}

/// The per-session set of `root`, read from disk (no walk): the seeds, the rules folder, their
/// imports.
pub fn per_session_of(root: &Path) -> HashSet<String> {
    let tree = Tree {
        root: root.to_path_buf(),
        ..Tree::default()
    };
    let mut rules: Vec<String> = Vec::new();
    collect_rules(root, RULES_DIR.trim_end_matches('/'), &mut rules);
    per_session(&tree, &rules)
}

/// Files other clients load into every request or session of their own: the per-session
/// class is per client (a token in an always-applied Cursor rule is paid on every Cursor
/// request, as one in `CLAUDE.md` is in every Claude Code session). Cursor rules count when
/// their frontmatter says `alwaysApply: true`.
pub const OTHER_CLIENTS_EVERY_REQUEST: &[&str] = &[
    "AGENTS.md",
    "GEMINI.md",
    ".cursorrules",
    ".windsurfrules",
    ".github/copilot-instructions.md",
];

/// The folder of Cursor's rules.
pub const CURSOR_RULES_DIR: &str = ".cursor/rules/";

/// Of `files` (root-relative), those another client loads into every request:
/// [`OTHER_CLIENTS_EVERY_REQUEST`] and always-applied Cursor rules.
pub fn other_clients_every_request(root: &Path, files: &[String]) -> HashSet<String> {
    let mut out: HashSet<String> = HashSet::new();
    for f in OTHER_CLIENTS_EVERY_REQUEST {
        if crate::paths::resolve_inside(root, f, false).is_ok_and(|p| p.is_file()) {
            out.insert(f.to_string());
        }
    }
    for f in files.iter().filter(|f| f.starts_with(CURSOR_RULES_DIR)) {
        if read_parsed(root, f).is_some_and(|p| {
            p.frontmatter
                .get("alwaysApply")
                .is_some_and(|(v, _)| v.trim() == "true")
        }) {
            out.insert(f.clone());
        }
    }
    out
}

/// Every file some client loads into every session or request: Claude Code's per-session set
/// and [`other_clients_every_request`].
pub fn every_request_of(root: &Path) -> HashSet<String> {
    let mut set = per_session_of(root);
    let mut cursor: Vec<String> = Vec::new();
    collect_rules(root, CURSOR_RULES_DIR.trim_end_matches('/'), &mut cursor);
    set.extend(other_clients_every_request(root, &cursor));
    set
}

/// The load class of each of `docs` (root-relative) under `root`.
pub fn injection_frequencies(root: &Path, docs: &[String]) -> HashMap<String, InjectionFrequency> {
    let set = every_request_of(root);
    docs.iter().map(|d| (d.clone(), class(&set, d))).collect()
}

/// The class of `path` given the per-session set.
pub fn class(per_session: &HashSet<String>, path: &str) -> InjectionFrequency {
    if per_session.contains(path) {
        InjectionFrequency::PerSession
    } else {
        InjectionFrequency::OnDemand
    }
}

fn collect_rules(root: &Path, rel: &str, out: &mut Vec<String>) {
    let Ok(full) = crate::paths::resolve_inside(root, rel, false) else {
        return;
    };
    let Ok(rd) = std::fs::read_dir(full) else {
        return;
    };
    for e in rd.flatten() {
        let Some(name) = e.file_name().to_str().map(str::to_string) else {
            continue;
        };
        let child = format!("{rel}/{name}");
        match e.file_type() {
            Ok(t) if t.is_dir() => collect_rules(root, &child, out),
            Ok(t) if t.is_file() => out.push(child),
            _ => {}
        }
    }
}
