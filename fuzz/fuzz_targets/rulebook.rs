//! The rulebook parser on arbitrary bytes: never panics; a rulebook it accepts can be evaluated
//! against a small fixed tree without panicking.
#![no_main]

use hygiene::lifecycle::{evaluate, Rulebook};
use libfuzzer_sys::fuzz_target;
use std::path::PathBuf;
use std::sync::OnceLock;

struct Fixture {
    _dir: tempfile::TempDir,
    root: PathBuf,
    files: Vec<String>,
}

fn fixture() -> &'static Fixture {
    static F: OnceLock<Fixture> = OnceLock::new();
    F.get_or_init(|| {
        let dir = tempfile::tempdir().expect("temp dir");
        let root = dir.path().canonicalize().expect("canonical temp dir");
        let files: Vec<String> = [
            (
                "docs/plans/auth.md",
                "# Auth\nserved_when_path: docs/plans/auth.done\n## Decisions\nkeep\n",
            ),
            ("docs/plans/auth.done", "done\n"),
            (".claude/handoffs/2020-01-01-a.md", "# Handoff\n"),
            (
                ".claude/handoffs/2020-02-01-b.md",
                "---\nstatus: done\n---\n# B\n",
            ),
            ("docs/sessions/s1/notes.md", "# notes\n"),
            ("docs/adr/0001.md", "# ADR\n"),
            ("README.md", "# Readme\n"),
        ]
        .iter()
        .map(|(p, t)| {
            let full = root.join(p);
            std::fs::create_dir_all(full.parent().expect("parent")).expect("mkdir");
            std::fs::write(&full, t).expect("write");
            p.to_string()
        })
        .collect();
        Fixture {
            _dir: dir,
            root,
            files,
        }
    })
}

fuzz_target!(|data: &[u8]| {
    let Ok(book) = Rulebook::from_json(".hygiene/rulebook.json", data) else {
        return;
    };
    let f = fixture();
    for r in &book.rules {
        for p in &f.files {
            let _ = r.matches(p);
        }
    }
    let governed = evaluate(&f.root, &book, &f.files, None, None, 1_900_000_000);
    for g in &governed {
        let _ = g.proposal();
    }
});
