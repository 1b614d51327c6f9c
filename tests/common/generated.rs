//! A generated repository with a large shortlist, for the model's bill (issue 14): documents
//! whose only signal is a reference to a path git renamed (settled without the model), notes
//! with a reference to a path that never existed (judged by the model), some of them with a
//! placeholder line, and a `CLAUDE.md` loaded every session with a broken reference of its own.
//! Every document carries a unique marker far from its signal lines, so a test can tell whether
//! the model was handed an excerpt or the document.
#![allow(dead_code)]

use super::{git, write};
use std::path::Path;

/// What was generated.
pub struct Generated {
    /// Notes the model judges (`docs/notes/nNNN.md`).
    pub notes: Vec<String>,
    /// Notes with a placeholder line.
    pub todos: Vec<String>,
    /// Documents settled without the model (`docs/moved/mNNN.md`).
    pub moved: Vec<String>,
}

/// The marker at the end of note `i` (never within a signal's context).
pub fn tail_marker(i: usize) -> String {
    format!("TAILMARK{i:04}")
}

/// The marker in moved document `j`.
pub fn moved_marker(j: usize) -> String {
    format!("SETTLEDMARK{j:04}")
}

fn words(seed: usize, n: usize) -> String {
    const W: &[&str] = &[
        "the", "agent", "reads", "this", "note", "before", "it", "edits", "code", "so", "keep",
        "short", "true", "build", "test", "release", "config", "module", "handler", "cache",
    ];
    let mut out = Vec::with_capacity(n);
    let mut x = seed.wrapping_mul(2_654_435_761) % 1_000_003;
    for k in 0..n {
        x = (x * 48_271 + k) % 2_147_483_647;
        out.push(W[x % W.len()]);
    }
    let mut s = out.join(" ");
    s.push_str(&format!(" (note {seed})."));
    s
}

/// The line of note `i` that names the missing path.
pub const NOTE_SIGNAL_LINE: u32 = 11;
/// The placeholder line of a note with one.
pub const NOTE_TODO_LINE: u32 = 15;

fn note(i: usize, todo: bool) -> String {
    let mut lines: Vec<String> = vec![
        format!("# Note {i}"),
        String::new(),
        words(i * 10 + 1, 40),
        String::new(),
        format!("## Setup {i}"),
        String::new(),
        words(i * 10 + 2, 40),
        String::new(),
        "## Details".into(),
        String::new(),
        format!("The handler for note {i} is [its module](../../src/gone/n{i:04}.rs); it loads at start."),
        String::new(),
        words(i * 10 + 3, 30),
        String::new(),
    ];
    lines.push(if todo {
        format!("TODO: write the rollback steps for note {i}.")
    } else {
        words(i * 10 + 4, 12)
    });
    lines.extend([
        String::new(),
        "## History".into(),
        String::new(),
        words(i * 10 + 5, 60),
        String::new(),
        words(i * 10 + 6, 60),
        String::new(),
        format!("{} {}", words(i * 10 + 7, 20), tail_marker(i)),
        String::new(),
    ]);
    lines.join("\n")
}

/// Generates the repository in `root` (a new git repository): `notes` notes (every
/// `todo_every`-th with a placeholder line), `moved` settled documents and `CLAUDE.md`, in two
/// commits (the second renames `src/old/` to `src/new/`).
pub fn generate(root: &Path, notes: usize, moved: usize, todo_every: usize) -> Generated {
    std::fs::create_dir_all(root).unwrap();
    git(root, &["init", "-q"]);
    write(root, ".gitignore", ".hygiene/\n");
    write(
        root,
        "CLAUDE.md",
        "# Project\n\nRead the [build guide](docs/guide/build.md) before a release.\n",
    );
    let mut g = Generated {
        notes: Vec::new(),
        todos: Vec::new(),
        moved: Vec::new(),
    };
    for i in 0..notes {
        let todo = todo_every > 0 && i % todo_every == 0;
        let rel = format!("docs/notes/n{i:04}.md");
        write(root, &rel, &note(i, todo));
        if todo {
            g.todos.push(rel.clone());
        }
        g.notes.push(rel);
    }
    for j in 0..moved {
        write(
            root,
            &format!("src/old/m{j:04}.rs"),
            &format!("pub fn m{j}() {{}}\n"),
        );
        let rel = format!("docs/moved/m{j:04}.md");
        write(
            root,
            &rel,
            &format!(
                "# Module {j}\n\nThe code of module {j} is `src/old/m{j:04}.rs`. {}\n",
                moved_marker(j)
            ),
        );
        g.moved.push(rel);
    }
    git(root, &["add", "-A"]);
    git(root, &["commit", "-q", "-m", "generated"]);
    if moved > 0 {
        git(root, &["mv", "src/old", "src/new"]);
        git(root, &["commit", "-q", "-m", "rename src/old to src/new"]);
    }
    g
}
