//! The drafts parser and finalize on arbitrary bytes, against a fixed small repository and its
//! real scan: never panics; a report finalize returns passes the validator.
#![no_main]

use hygiene::finalize::{finalize, DraftFile};
use hygiene::report::ScanResult;
use libfuzzer_sys::fuzz_target;
use std::path::PathBuf;
use std::sync::OnceLock;

struct Fixture {
    _dir: tempfile::TempDir,
    root: PathBuf,
    scan: ScanResult,
}

fn fixture() -> &'static Fixture {
    static F: OnceLock<Fixture> = OnceLock::new();
    F.get_or_init(|| {
        let dir = tempfile::tempdir().expect("temp dir");
        let root = dir.path().canonicalize().expect("canonical temp dir");
        for (p, t) in [
            (
                "CLAUDE.md",
                "# Project\nSee [setup](docs/setup.md) and `docs/old.md`.\nTODO: fill in\n",
            ),
            (
                "docs/guide.md",
                "# Guide\n\n- [x] one\n- [x] two\n- [x] three\n\nStatus: done\n",
            ),
            (
                "docs/plans/p.md",
                "# Plan\nserved_when_path: docs/plans/p.done\n## Decisions\nuse X\n",
            ),
            ("docs/plans/p.done", "done\n"),
            (".claude/handoffs/2020-01-01-a.md", "# Handoff\nold\n"),
        ] {
            let full = root.join(p);
            std::fs::create_dir_all(full.parent().expect("parent")).expect("mkdir");
            std::fs::write(&full, t).expect("write");
        }
        let scan = hygiene::scan::scan(&hygiene::scan::ScanOptions {
            root: root.clone(),
            ..Default::default()
        })
        .expect("the fixture scans");
        if std::env::var_os("HYGIENE_FUZZ_PRINT_SCAN").is_some() {
            eprintln!(
                "{}",
                serde_json::to_string_pretty(&scan).unwrap_or_default()
            );
        }
        Fixture {
            _dir: dir,
            root,
            scan,
        }
    })
}

fuzz_target!(|data: &[u8]| {
    let parsed =
        serde_json::from_slice::<DraftFile>(data).map_err(|e| hygiene::finalize::DraftError {
            file: "fuzz.json".into(),
            entry: None,
            rule: "draft-shape",
            message: e.to_string(),
        });
    if parsed.is_err() {
        return;
    }
    let f = fixture();
    if let Ok(report) = finalize(&f.root, &f.scan, &[("fuzz.json".to_string(), parsed)]) {
        let v = serde_json::to_value(&report).expect("a report serializes");
        let violations = hygiene::validate::validate_value(&v);
        assert!(
            violations.is_empty(),
            "finalize returned an invalid report: {violations:?}"
        );
    }
});
