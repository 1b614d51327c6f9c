//! Markdown reference extraction: parse any text, run every per-document detector on it and
//! resolve every reference it yields. None of it may panic, and every line it reports must lie
//! inside the document.
#![no_main]

use hygiene::report::InjectionFrequency;
use hygiene::scan::detectors::{DocText, ALL};
use hygiene::scan::markdown;
use hygiene::scan::refs::{self, Tree};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let text = markdown::strip_bom(text);
    let parsed = markdown::parse(text);
    let n_lines = parsed.lines.count().max(1);
    let mut tree = Tree::default();
    tree.root = std::path::PathBuf::from("/nonexistent/hygiene-fuzz-root");
    tree.files.insert("docs/a.md".to_string());
    tree.files.insert("README.md".to_string());
    tree.dirs.insert("docs".to_string());
    tree.basenames.insert("a.md".to_string());
    for r in &parsed.refs {
        assert!(
            r.line >= 1 && r.line <= n_lines,
            "ref line {} outside 1..={n_lines}",
            r.line
        );
        let _ = refs::resolve(&tree, "docs/guide.md", r);
        let sp = refs::split(&r.dest);
        let _ = refs::percent_decode(sp.written);
        let _ = refs::normalize("docs", sp.written);
    }
    for h in &parsed.headings {
        assert!(h.line >= 1 && h.line <= n_lines && (1..=6).contains(&h.level));
    }
    for line in text.lines().take(64) {
        let _ = markdown::slug(line);
        let _ = markdown::code_ident(line);
        let _ = markdown::looks_like_path(line);
    }
    let _ = markdown::imports(text, &parsed.lines);
    let lower = parsed.prose.to_ascii_lowercase();
    for freq in [InjectionFrequency::PerSession, InjectionFrequency::OnDemand] {
        let dt = DocText {
            path: "docs/guide.md",
            text,
            parsed: &parsed,
            freq,
            tree: &tree,
            lower_prose: &lower,
        };
        for d in ALL {
            let _ = d.on_text(&dt);
        }
    }
});
