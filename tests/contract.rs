//! The report contract: every Scenario of spec/000 (report-schema) as a test, the exhaustive tier
//! table, the kind table, the published policy's parity with the code, and the invariants.

use hygiene::report::{OpType, SafetyTier};
use hygiene::tier::{derive_safety_tier, Evidence, GitState, LifecycleArg};
use hygiene::validate::{validate_bytes, validate_value};
use serde_json::{json, Value};
use std::path::Path;
use std::process::Command;

const VALID: &str = "examples/golden/valid-report.json";
const INVALID: &str = "examples/golden/invalid-report.json";

fn golden() -> Value {
    serde_json::from_str(&std::fs::read_to_string(VALID).unwrap()).unwrap()
}

fn rules_of(v: &Value) -> Vec<&'static str> {
    validate_value(v).into_iter().map(|x| x.rule).collect()
}

/// Applies `mutate` to the golden report and asserts it is rejected with `rule`.
#[track_caller]
fn rejects(rule: &str, mutate: impl FnOnce(&mut Value)) {
    let mut v = golden();
    mutate(&mut v);
    let violations = validate_value(&v);
    assert!(
        violations.iter().any(|x| x.rule == rule),
        "expected a `{rule}` violation, got {violations:#?}"
    );
}

/// Applies `mutate` to the golden report and asserts it stays valid.
#[track_caller]
fn accepts(mutate: impl FnOnce(&mut Value)) {
    let mut v = golden();
    mutate(&mut v);
    let violations = validate_value(&v);
    assert!(violations.is_empty(), "expected valid, got {violations:#?}");
}

fn entry_index(v: &Value, kind: &str) -> usize {
    v["entries"]
        .as_array()
        .unwrap()
        .iter()
        .position(|e| e["exact_edit"]["kind"] == kind)
        .unwrap_or_else(|| panic!("golden report has a {kind} entry"))
}

fn generative_index(v: &Value) -> usize {
    v["entries"]
        .as_array()
        .unwrap()
        .iter()
        .position(|e| e["op_type"] == "generative")
        .unwrap()
}

fn hygiene(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_hygiene"))
        .args(args)
        .output()
        .unwrap()
}

// ---------------------------------------------------------------- fixtures

#[test]
fn golden_valid_report_is_accepted_by_the_cli() {
    let out = hygiene(&["validate", VALID]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    assert!(out.stdout.is_empty());
}

#[test]
fn golden_valid_report_covers_what_the_issue_asks() {
    let v = golden();
    let entries = v["entries"].as_array().unwrap();
    for kind in [
        "delete-range",
        "move-to-archive",
        "insert-frontmatter",
        "replace-text",
        "dedupe",
        "delete",
        "extract-then-delete",
    ] {
        assert!(
            entries.iter().any(|e| e["exact_edit"]["kind"] == kind),
            "no {kind} entry"
        );
    }
    assert!(entries.iter().any(|e| e["op_type"] == "generative"));
    assert!(entries
        .iter()
        .any(|e| e["lifecycle"]["served_when_path"].is_string()));
    assert!(entries
        .iter()
        .any(|e| e["lifecycle"]["served_when"].is_string()));
    let with_entry: Vec<&Value> = entries.iter().map(|e| &e["path"]).collect();
    assert!(v["shortlist"]
        .as_array()
        .unwrap()
        .iter()
        .any(|i| !with_entry.contains(&&i["path"])));
    assert!(!v["promotion_candidates"].as_array().unwrap().is_empty());
}

#[test]
fn golden_invalid_report_is_rejected_naming_each_violation() {
    let out = hygiene(&["validate", INVALID]);
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8_lossy(&out.stdout);
    // One line per violation: a JSON pointer, a message, and the rule in brackets.
    for (pointer, rule) in [
        ("/generated_at", "generated-at-utc"),
        ("/entries/0", "kind-characterization"),
        ("/entries/1/safety_tier", "safety-tier-derived"),
        ("/entries/2/exact_edit", "shape"),
        ("/entries/3/category/subtype", "shape"),
        ("/entries/4/path", "entry-in-shortlist"),
        ("/entries/6/exact_edit/lifecycle", "lifecycle-served-field"),
        ("/entries/8/exact_edit", "exact-edit-iff-deterministic"),
    ] {
        assert!(
            text.lines().any(|l| l.starts_with(&format!("{pointer}:")) && l.ends_with(&format!("[{rule}]"))),
            "no `{pointer}` line for rule {rule} in:\n{text}"
        );
    }
}

#[test]
fn malformed_input_is_a_clear_error_never_a_panic() {
    let dir = tempfile::tempdir().unwrap();
    for (name, body, needle) in [
        ("empty.json", "", "empty"),
        ("blank.json", "  \n", "empty"),
        ("bad.json", "{\"schema_version\": 1,", "not JSON"),
        ("array.json", "[1, 2]", "not a JSON object"),
        ("string.json", "\"report\"", "not a JSON object"),
        ("binary.json", "\u{0}\u{1}\u{2}", "not JSON"),
    ] {
        let p = dir.path().join(name);
        std::fs::write(&p, body).unwrap();
        let out = hygiene(&["validate", p.to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(1), "{name}");
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(text.contains(needle), "{name}: {text}");
        assert!(!String::from_utf8_lossy(&out.stderr).contains("panicked"));
    }
    let missing = dir.path().join("nope.json");
    let out = hygiene(&["validate", missing.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2), "a missing file is an I/O error");
}

// ---------------------------------------------------------------- envelope

#[test]
fn every_envelope_field_is_required() {
    for field in [
        "schema_version",
        "tool_version",
        "generated_at",
        "scan",
        "shortlist",
        "entries",
        "promotion_candidates",
    ] {
        rejects("shape", |v| {
            v.as_object_mut().unwrap().remove(field);
        });
    }
    for field in [
        "project_root",
        "scope_globs",
        "excluded_dirs",
        "files_scanned",
    ] {
        rejects("shape", |v| {
            v["scan"].as_object_mut().unwrap().remove(field);
        });
    }
    rejects("shape", |v| v["surprise"] = json!(1));
    rejects("schema-version", |v| v["schema_version"] = json!(2));
}

#[test]
fn generated_at_is_iso8601_utc() {
    for bad in [
        "2026-11-29",
        "2026-11-29T16:00:00",
        "2026-11-29T16:00:00+02:00",
        "yesterday",
        "2026-13-01T00:00:00Z",
    ] {
        rejects("generated-at-utc", |v| v["generated_at"] = json!(bad));
    }
    for good in [
        "2026-11-29T16:00:00Z",
        "2026-11-29T16:00:00.123Z",
        "2026-11-29T16:00:00+00:00",
    ] {
        accepts(|v| v["generated_at"] = json!(good));
    }
}

#[test]
fn promotion_candidates_may_be_empty_but_not_absent() {
    accepts(|v| v["promotion_candidates"] = json!([]));
    rejects("shape", |v| {
        v.as_object_mut().unwrap().remove("promotion_candidates");
    });
}

#[test]
fn promotion_candidate_names_a_classifier_judged_entry_convention_and_pitch() {
    for field in ["path", "convention", "pitch"] {
        rejects("shape", |v| {
            v["promotion_candidates"][0]
                .as_object_mut()
                .unwrap()
                .remove(field);
        });
    }
    // an entry with scanner-proven evidence is no candidate
    rejects("promotion-candidate-source", |v| {
        v["promotion_candidates"][0]["path"] = json!("docs/plans/search-index.md")
    });
    rejects("promotion-candidate-source", |v| {
        let c = v["promotion_candidates"][0].clone();
        v["promotion_candidates"].as_array_mut().unwrap().push(c);
    });
}

// ---------------------------------------------------------------- shortlist and entries

#[test]
fn entry_path_must_be_a_shortlist_member() {
    rejects("entry-in-shortlist", |v| {
        v["entries"][0]["path"] = json!("docs/never-scanned.md")
    });
    rejects("entry-in-shortlist", |v| {
        v["shortlist"]
            .as_array_mut()
            .unwrap()
            .retain(|i| i["path"] != "CLAUDE.md");
    });
}

#[test]
fn a_shortlisted_file_may_be_cleared() {
    // docs/roadmap.md is shortlisted with no entry in the golden report already; clear another.
    accepts(|v| {
        v["entries"]
            .as_array_mut()
            .unwrap()
            .retain(|e| e["path"] != "docs/setup.md");
    });
    accepts(|v| {
        v["entries"] = json!([]);
        v["promotion_candidates"] = json!([]);
    });
}

#[test]
fn shortlist_paths_are_unique_relative_and_signalled() {
    rejects("shortlist-unique", |v| {
        let first = v["shortlist"][0].clone();
        v["shortlist"].as_array_mut().unwrap().push(first);
    });
    rejects("shortlist-has-signals", |v| {
        v["shortlist"][9]["signals"] = json!([])
    });
    for bad in [
        "../outside.md",
        "/etc/passwd",
        "docs/../../x.md",
        "docs\\x.md",
    ] {
        rejects("relative-path", |v| v["shortlist"][9]["path"] = json!(bad));
    }
    rejects("relative-path", |v| {
        let i = entry_index(v, "move-to-archive");
        v["entries"][i]["exact_edit"]["dest_path"] = json!("../../archive.md");
    });
}

#[test]
fn entry_carries_the_full_classification() {
    for field in [
        "path",
        "category",
        "signals",
        "op",
        "op_type",
        "is_destructive",
        "is_reversible",
        "safety_tier",
        "token_estimate",
    ] {
        rejects("shape", |v| {
            v["entries"][0].as_object_mut().unwrap().remove(field);
        });
    }
    rejects("shape", |v| {
        v["entries"][0]["is_destructive"] = json!("false")
    });
    rejects("shape", |v| v["entries"][0]["op_type"] = json!("manual"));
    rejects("shape", |v| v["entries"][0]["safety_tier"] = json!("maybe"));
    rejects("shape", |v| v["entries"][0]["confidence"] = json!(0.9));
}

#[test]
fn entry_signals_are_the_scanners_facts() {
    rejects("entry-signals-from-shortlist", |v| {
        v["entries"][0]["signals"] = json!([])
    });
    rejects("entry-signals-from-shortlist", |v| {
        v["entries"][0]["signals"][0]["line"] = json!(99)
    });
    rejects("shape", |v| {
        v["entries"][0]["signals"][0]["kind"] = json!("vibes")
    });
}

// ---------------------------------------------------------------- category

#[test]
fn category_is_a_closed_enum() {
    rejects("shape", |v| {
        v["entries"][0]["category"]["subtype"] = json!("obsolete")
    });
    rejects("shape", |v| {
        v["entries"][0]["category"]["class"] = json!("ugly")
    });
    // a subtype of the other class
    rejects("shape", |v| {
        v["entries"][0]["category"] = json!({"class": "bloat", "subtype": "orphaned"})
    });
    rejects("shape", |v| {
        v["entries"][0]["category"] = json!({"class": "stale", "subtype": "distill"})
    });
    rejects("shape", |v| {
        v["entries"][0]["category"] = json!("stale/orphaned")
    });
    for sub in [
        "contradicted",
        "orphaned",
        "superseded",
        "provisional",
        "completed-in-place",
        "duplicated",
    ] {
        accepts(|v| v["entries"][0]["category"] = json!({"class": "stale", "subtype": sub}));
    }
    for sub in ["distill", "split", "freeze"] {
        accepts(|v| v["entries"][0]["category"] = json!({"class": "bloat", "subtype": sub}));
    }
}

// ---------------------------------------------------------------- op type and exact edit

#[test]
fn same_subtype_admits_either_op_type() {
    accepts(|v| {
        let dr = entry_index(v, "delete-range");
        let g = generative_index(v);
        v["entries"][dr]["category"] = json!({"class": "stale", "subtype": "contradicted"});
        v["entries"][g]["category"] = json!({"class": "stale", "subtype": "contradicted"});
    });
}

#[test]
fn exact_edit_is_present_iff_deterministic() {
    rejects("exact-edit-iff-deterministic", |v| {
        let g = generative_index(v);
        let edit = v["entries"][0]["exact_edit"].clone();
        v["entries"][g]["exact_edit"] = edit;
    });
    rejects("exact-edit-iff-deterministic", |v| {
        v["entries"][0]
            .as_object_mut()
            .unwrap()
            .remove("exact_edit");
    });
}

#[test]
fn deterministic_entry_carries_a_fingerprint() {
    rejects("shape", |v| {
        v["entries"][0]["exact_edit"]
            .as_object_mut()
            .unwrap()
            .remove("expected_sha256");
    });
    rejects("fingerprint", |v| {
        v["entries"][0]["exact_edit"]["expected_sha256"] = json!("abc")
    });
    rejects("fingerprint", |v| {
        v["entries"][0]["exact_edit"]["expected_sha256"] = json!("A".repeat(64))
    });
    // suggestions are proposals: finalize adds the fingerprint
    rejects("suggestion-edit", |v| {
        v["shortlist"][0]["suggestions"][0]["exact_edit"]["expected_sha256"] = json!("0".repeat(64))
    });
}

#[test]
fn unknown_kind_is_rejected() {
    for kind in ["rewrite", "delete-file", "", "DELETE"] {
        rejects("shape", |v| {
            v["entries"][0]["exact_edit"]["kind"] = json!(kind)
        });
    }
}

#[test]
fn each_kind_requires_its_sub_fields() {
    // Written from the spec's list, not from the kind table.
    let required: &[(&str, &[&str])] = &[
        ("delete-range", &["anchor"]),
        ("move-to-archive", &["anchor", "dest_path"]),
        ("insert-frontmatter", &["key", "value"]),
        ("replace-text", &["anchor", "match", "replacement"]),
        ("dedupe", &["anchor", "canonical_ref"]),
        ("delete", &["anchor", "lifecycle"]),
        (
            "extract-then-delete",
            &["lifecycle", "extraction_target", "target_path"],
        ),
    ];
    for (kind, fields) in required {
        for field in *fields {
            let mut v = golden();
            let i = entry_index(&v, kind);
            v["entries"][i]["exact_edit"]
                .as_object_mut()
                .unwrap()
                .remove(*field);
            let rules = rules_of(&v);
            assert!(
                rules.iter().any(|r| *r == "shape" || *r == "kind-fields"),
                "{kind} without {field} was accepted"
            );
        }
    }
    // a field the kind does not own
    rejects("kind-fields", |v| {
        v["entries"][0]["exact_edit"]["dest_path"] = json!("docs/x.md")
    });
    // the wrong anchor form
    rejects("kind-fields", |v| {
        let i = entry_index(v, "delete");
        v["entries"][i]["exact_edit"]["anchor"] = json!({"start_line": 1, "end_line": 3});
    });
    rejects("kind-fields", |v| {
        v["entries"][0]["exact_edit"]["anchor"] = json!({"whole": "file"})
    });
    rejects("anchor-range", |v| {
        v["entries"][0]["exact_edit"]["anchor"] = json!({"start_line": 9, "end_line": 3})
    });
    rejects("shape", |v| {
        v["entries"][0]["exact_edit"]["anchor"] = json!({"start_line": 0, "end_line": 3})
    });
}

#[test]
fn move_to_archive_with_its_fields_is_valid() {
    let v = golden();
    let i = entry_index(&v, "move-to-archive");
    let edit = &v["entries"][i]["exact_edit"];
    assert!(edit["anchor"]["start_line"].is_u64() && edit["dest_path"].is_string());
    assert!(validate_value(&v).is_empty());
}

#[test]
fn kind_characterization_feeds_the_tier() {
    // delete-range is destructive and irreversible, so it is confirm
    let v = golden();
    let i = entry_index(&v, "delete-range");
    assert_eq!(v["entries"][i]["is_destructive"], true);
    assert_eq!(v["entries"][i]["is_reversible"], false);
    assert_eq!(v["entries"][i]["safety_tier"], "confirm");
    rejects("kind-characterization", |v| {
        v["entries"][i]["is_destructive"] = json!(false)
    });
    // a dedupe is non-destructive: its span is preserved at canonical_ref
    rejects("kind-characterization", |v| {
        let d = entry_index(v, "dedupe");
        v["entries"][d]["is_destructive"] = json!(true);
        v["entries"][d]["safety_tier"] = json!("confirm");
    });
    for kind in [
        "move-to-archive",
        "insert-frontmatter",
        "replace-text",
        "dedupe",
    ] {
        let i = entry_index(&v, kind);
        assert_eq!(v["entries"][i]["safety_tier"], "auto", "{kind}");
        rejects("kind-characterization", |v| {
            v["entries"][i]["is_reversible"] = json!(false)
        });
    }
    // lifecycle kinds are destructive whatever their git state
    rejects("kind-characterization", |v| {
        let d = entry_index(v, "delete");
        v["entries"][d]["is_destructive"] = json!(false);
    });
}

// ---------------------------------------------------------------- tiers in reports

#[test]
fn tier_in_a_report_is_the_derived_one() {
    // a destructive op is never auto
    rejects("safety-tier-derived", |v| {
        let i = entry_index(v, "delete-range");
        v["entries"][i]["safety_tier"] = json!("auto");
    });
    // a generative op is never auto
    rejects("safety-tier-derived", |v| {
        let g = generative_index(v);
        v["entries"][g]["safety_tier"] = json!("auto");
        v["entries"][g]["is_destructive"] = json!(false);
    });
    // an objective op is auto, not confirm (the tier is derived, not chosen)
    rejects("safety-tier-derived", |v| {
        v["entries"][0]["safety_tier"] = json!("confirm")
    });
    // a classifier-judged lifecycle op is never auto, even tracked and clean
    rejects("safety-tier-derived", |v| {
        let i = entry_index(v, "extract-then-delete");
        assert_eq!(v["entries"][i]["is_reversible"], true);
        v["entries"][i]["safety_tier"] = json!("auto");
    });
    // a scanner-proven delete on a dirty or untracked path is confirm
    rejects("safety-tier-derived", |v| {
        let i = entry_index(v, "delete");
        v["entries"][i]["is_reversible"] = json!(false);
    });
    accepts(|v| {
        let i = entry_index(v, "delete");
        v["entries"][i]["is_reversible"] = json!(false);
        v["entries"][i]["safety_tier"] = json!("confirm");
    });
    // a cross-repo extraction is always confirm
    accepts(|v| {
        let i = entry_index(v, "extract-then-delete");
        v["entries"][i]["exact_edit"]["extraction_target"] = json!("cross-repo");
        v["entries"][i]["exact_edit"]
            .as_object_mut()
            .unwrap()
            .remove("target_path");
    });
}

// ---------------------------------------------------------------- lifecycle

#[test]
fn lifecycle_objects_carry_exactly_one_served_field() {
    let judged = "Is the work done?";
    rejects("lifecycle-served-field", |v| {
        let i = entry_index(v, "delete");
        let lc = &mut v["entries"][i]["exact_edit"]["lifecycle"];
        lc["served_when"] = json!(judged);
    });
    rejects("lifecycle-served-field", |v| {
        // both on a delete-once-served plan
        let i = v["shortlist"]
            .as_array()
            .unwrap()
            .iter()
            .position(|x| x["path"] == "docs/plans/search-index.md")
            .unwrap();
        v["shortlist"][i]["lifecycle"]["served_when"] = json!(judged);
    });
    rejects("lifecycle-served-field", |v| {
        // neither
        let i = v["shortlist"]
            .as_array()
            .unwrap()
            .iter()
            .position(|x| x["path"] == "docs/plans/search-index.md")
            .unwrap();
        v["shortlist"][i]["lifecycle"]
            .as_object_mut()
            .unwrap()
            .remove("served_when_path");
    });
    rejects("lifecycle-served-field", |v| {
        // a temporary rule is keyed on age
        let i = v["shortlist"]
            .as_array()
            .unwrap()
            .iter()
            .position(|x| x["lifecycle"]["lifetime"] == "temporary")
            .unwrap();
        v["shortlist"][i]["lifecycle"]["served_when_path"] = json!("x.md");
    });
    rejects("shape", |v| {
        let i = entry_index(v, "delete");
        v["entries"][i]["exact_edit"]["lifecycle"]["lifetime"] = json!("forever");
    });
    rejects("shape", |v| {
        let i = entry_index(v, "delete");
        v["entries"][i]["exact_edit"]["lifecycle"]
            .as_object_mut()
            .unwrap()
            .remove("rule_ref");
    });
}

#[test]
fn lifecycle_evidence_comes_from_the_shortlist() {
    // A model that swaps a judged question for a proven path would get auto: refused.
    rejects("lifecycle-from-shortlist", |v| {
        let i = entry_index(v, "extract-then-delete");
        let lc = json!({"rule_ref": "plans", "lifetime": "delete-once-served", "served_when_path": "docs/plans/auth-rework.done"});
        v["entries"][i]["exact_edit"]["lifecycle"] = lc.clone();
        v["entries"][i]["lifecycle"] = lc;
        v["entries"][i]["safety_tier"] = json!("auto");
    });
    rejects("lifecycle-signal", |v| {
        let i = v["shortlist"]
            .as_array()
            .unwrap()
            .iter()
            .position(|x| x["path"] == "docs/plans/search-index.md")
            .unwrap();
        v["shortlist"][i]["signals"] = json!([{"kind": "checklist-complete", "checked": 7}]);
    });
}

#[test]
fn keep_rules_protect_from_lifecycle_ops() {
    rejects("lifecycle-keep-protects", |v| {
        let i = entry_index(v, "delete");
        let path = v["entries"][i]["path"].clone();
        let lc = json!({"rule_ref": "adrs", "lifetime": "keep"});
        let s = v["shortlist"]
            .as_array()
            .unwrap()
            .iter()
            .position(|x| x["path"] == path)
            .unwrap();
        v["shortlist"][s]["lifecycle"] = lc.clone();
        v["entries"][i]["lifecycle"] = lc.clone();
        v["entries"][i]["exact_edit"]["lifecycle"] = lc;
    });
}

#[test]
fn directory_aggregate_has_the_file_entry_shape() {
    accepts(|v| {
        let lc = json!({"rule_ref": "scratch", "lifetime": "temporary"});
        v["shortlist"].as_array_mut().unwrap().push(json!({
            "path": ".work/2026-07-01-spike", "signals": [{"kind": "lifecycle"}], "lifecycle": lc,
            "raw_tokens": 4200, "injection_frequency": "on-demand"
        }));
        v["entries"].as_array_mut().unwrap().push(json!({
            "path": ".work/2026-07-01-spike",
            "category": {"class": "stale", "subtype": "superseded"},
            "signals": [{"kind": "lifecycle"}],
            "op": "Delete the expired scratch folder.",
            "op_type": "deterministic", "is_destructive": true, "is_reversible": true,
            "safety_tier": "auto", "token_estimate": {"raw_tokens": 4200},
            "exact_edit": {"kind": "delete", "anchor": {"whole": "directory"}, "lifecycle": lc,
                           "expected_sha256": "0".repeat(64)},
            "lifecycle": lc
        }));
    });
    rejects("kind-fields", |v| {
        let i = entry_index(v, "move-to-archive");
        v["entries"][i]["exact_edit"]["anchor"] = json!({"whole": "directory"});
    });
}

#[test]
fn extract_then_delete_needs_its_target() {
    rejects("shape", |v| {
        let i = entry_index(v, "extract-then-delete");
        v["entries"][i]["exact_edit"]
            .as_object_mut()
            .unwrap()
            .remove("extraction_target");
    });
    rejects("shape", |v| {
        let i = entry_index(v, "extract-then-delete");
        v["entries"][i]["exact_edit"]["extraction_target"] = json!("somewhere");
    });
    rejects("shape", |v| {
        let i = entry_index(v, "extract-then-delete");
        v["entries"][i]["exact_edit"]
            .as_object_mut()
            .unwrap()
            .remove("target_path");
    });
}

// ---------------------------------------------------------------- tokens

#[test]
fn token_estimate_requires_raw_tokens_and_weights_consistently() {
    rejects("shape", |v| {
        v["entries"][0]["token_estimate"]
            .as_object_mut()
            .unwrap()
            .remove("raw_tokens");
    });
    rejects("shape", |v| {
        v["entries"][0]["token_estimate"]["raw_tokens"] = json!(-3)
    });
    // v1: only raw tokens
    accepts(|v| {
        for e in v["entries"].as_array_mut().unwrap() {
            let raw = e["token_estimate"]["raw_tokens"].clone();
            e["token_estimate"] = json!({"raw_tokens": raw});
        }
    });
    rejects("token-weighting", |v| {
        v["entries"][0]["token_estimate"]
            .as_object_mut()
            .unwrap()
            .remove("injection_frequency");
    });
    rejects("token-weighting", |v| {
        v["entries"][0]["token_estimate"]["weighted_tokens"] = json!(1)
    });
    rejects("token-frequency-from-shortlist", |v| {
        v["entries"][0]["token_estimate"]["injection_frequency"] = json!("on-demand")
    });
}

// ---------------------------------------------------------------- derive_safety_tier

/// The spec's table, written from its sentences, independent of the implementation.
fn spec_tier(
    op: OpType,
    destructive: bool,
    reversible: bool,
    lc: Option<LifecycleArg>,
) -> SafetyTier {
    let auto = match lc {
        None => op == OpType::Deterministic && !destructive && reversible,
        Some(a) => {
            let proven = matches!(
                a.evidence,
                Evidence::ServedWhenPathSatisfied | Evidence::TemporaryAge
            );
            op == OpType::Deterministic && proven && a.git.tracked && a.git.clean && !a.leaves_repo
        }
    };
    if auto {
        SafetyTier::Auto
    } else {
        SafetyTier::Confirm
    }
}

#[test]
fn derive_safety_tier_matches_the_spec_for_every_input() {
    let mut n = 0;
    for op in [OpType::Deterministic, OpType::Generative] {
        for d in [false, true] {
            for r in [false, true] {
                let mut args = vec![None];
                for evidence in [
                    Evidence::ServedWhenPathSatisfied,
                    Evidence::ServedWhenPathMissing,
                    Evidence::TemporaryAge,
                    Evidence::ClassifierJudged,
                ] {
                    for tracked in [false, true] {
                        for clean in [false, true] {
                            for leaves_repo in [false, true] {
                                args.push(Some(LifecycleArg {
                                    evidence,
                                    git: GitState { tracked, clean },
                                    leaves_repo,
                                }));
                            }
                        }
                    }
                }
                for lc in args {
                    let got = derive_safety_tier(op, d, r, lc);
                    assert_eq!(got, spec_tier(op, d, r, lc), "{op:?} d={d} r={r} {lc:?}");
                    // the never-auto guarantees, stated directly
                    if got == SafetyTier::Auto {
                        assert_eq!(op, OpType::Deterministic);
                        match lc {
                            None => assert!(!d && r),
                            Some(a) => {
                                assert!(a.evidence != Evidence::ClassifierJudged);
                                assert!(a.git.tracked && a.git.clean);
                            }
                        }
                    }
                    n += 1;
                }
            }
        }
    }
    assert_eq!(n, 264);
}

// ---------------------------------------------------------------- policy and schema

#[test]
fn policy_tier_table_equals_the_function() {
    let out = hygiene(&["policy"]);
    assert_eq!(out.status.code(), Some(0));
    let p: Value = serde_json::from_slice(&out.stdout).unwrap();
    let rows = p["tiers"].as_array().unwrap();
    assert_eq!(rows.len(), 264, "a row for every input combination");
    let mut seen = std::collections::HashSet::new();
    for row in rows {
        let op: OpType = serde_json::from_value(row["op_type"].clone()).unwrap();
        let lc: Option<LifecycleArg> = serde_json::from_value(row["lifecycle"].clone()).unwrap();
        let d = row["is_destructive"].as_bool().unwrap();
        let r = row["is_reversible"].as_bool().unwrap();
        let published: SafetyTier = serde_json::from_value(row["safety_tier"].clone()).unwrap();
        assert_eq!(published, derive_safety_tier(op, d, r, lc), "{row}");
        assert!(seen.insert(row.to_string()), "duplicate row {row}");
    }
}

#[test]
fn policy_kind_table_equals_what_the_validator_enforces() {
    let p = hygiene::policy::policy(None);
    assert_eq!(p.kinds.len(), 7);
    let v = golden();
    for k in &p.kinds {
        let kind = serde_json::to_value(k.kind).unwrap();
        let kind = kind.as_str().unwrap();
        let i = entry_index(&v, kind);
        // the golden entry of this kind has exactly the published characterization
        assert_eq!(
            v["entries"][i]["is_destructive"],
            json!(k.is_destructive),
            "{kind}"
        );
        if let Some(b) = k.is_reversible.as_bool() {
            assert_eq!(v["entries"][i]["is_reversible"], json!(b), "{kind}");
            assert_eq!(
                serde_json::to_value(k.derives).unwrap(),
                v["entries"][i]["safety_tier"],
                "{kind}"
            );
        }
        // removing any published required field makes that entry invalid
        for field in &k.required {
            let mut m = v.clone();
            m["entries"][i]["exact_edit"]
                .as_object_mut()
                .unwrap()
                .remove(*field);
            assert!(!validate_value(&m).is_empty(), "{kind} without {field}");
        }
    }
}

#[test]
fn policy_categories_are_exactly_what_parses() {
    let p = hygiene::policy::policy(None);
    let mut total = 0;
    for c in &p.categories {
        for s in &c.subtypes {
            let ok: Result<hygiene::report::Category, _> =
                serde_json::from_value(json!({"class": c.class, "subtype": s}));
            assert!(ok.is_ok(), "{}/{s}", c.class);
            total += 1;
        }
    }
    assert_eq!(total, 9, "six stale subtypes and three bloat subtypes");
    assert_eq!(
        p.categories
            .iter()
            .map(|c| c.class.as_str())
            .collect::<Vec<_>>(),
        ["stale", "bloat"]
    );
}

#[test]
fn policy_validation_rules_name_every_rule_a_violation_can_carry() {
    let names: Vec<&str> = hygiene::validate::RULES.iter().map(|r| r.name).collect();
    let out = hygiene(&["validate", INVALID]);
    let text = String::from_utf8_lossy(&out.stdout);
    for line in text.lines() {
        let rule = line.rsplit('[').next().unwrap().trim_end_matches(']');
        assert!(names.contains(&rule), "{rule} is not published");
    }
}

#[test]
fn schema_is_json_generated_from_the_types_with_the_kind_table() {
    let out = hygiene(&["schema"]);
    assert_eq!(out.status.code(), Some(0));
    let s: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(s["title"], "Report");
    assert!(s["description"]
        .as_str()
        .unwrap()
        .contains("machine report"));
    let required = s["required"].as_array().unwrap();
    for f in [
        "schema_version",
        "tool_version",
        "generated_at",
        "scan",
        "shortlist",
        "entries",
        "promotion_candidates",
    ] {
        assert!(required.contains(&json!(f)), "{f}");
    }
    // the kind table is projected in: replace-text requires match and replacement
    let rules = s["$defs"]["ExactEdit"]["allOf"].as_array().unwrap();
    let rt = rules
        .iter()
        .find(|r| r["if"]["properties"]["kind"]["const"] == "replace-text")
        .unwrap();
    for f in ["anchor", "match", "replacement"] {
        assert!(rt["then"]["required"]
            .as_array()
            .unwrap()
            .contains(&json!(f)));
    }
    // closed enums: the subtype list is the taxonomy
    let stale: Vec<&str> = s["$defs"]["StaleSubtype"]["oneOf"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["const"].as_str().unwrap())
        .collect();
    assert_eq!(
        stale,
        [
            "contradicted",
            "orphaned",
            "superseded",
            "provisional",
            "completed-in-place",
            "duplicated"
        ]
    );
}

#[test]
fn validate_bytes_survives_every_prefix_of_the_golden_report() {
    let bytes = std::fs::read(VALID).unwrap();
    for cut in (0..bytes.len()).step_by(97) {
        let v = validate_bytes(&bytes[..cut]);
        assert!(!v.is_empty(), "a truncated report at {cut} was accepted");
    }
    assert!(validate_bytes(&bytes).is_empty());
}

// ---------------------------------------------------------------- invariants

fn rust_sources(dir: &Path, out: &mut Vec<(String, String)>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            rust_sources(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push((
                p.display().to_string(),
                std::fs::read_to_string(&p).unwrap(),
            ));
        }
    }
}

#[test]
fn tier_is_derived_only_by_derive_safety_tier() {
    let mut files = Vec::new();
    rust_sources(Path::new("src"), &mut files);
    let mut definers = Vec::new();
    for (path, text) in &files {
        let code: String = text
            .lines()
            .filter(|l| !l.trim_start().starts_with("//"))
            .collect::<Vec<_>>()
            .join("\n");
        // Matching on the tier (a pattern, a comparison) is fine; producing one is not.
        for (at, _) in code.match_indices("SafetyTier::Auto") {
            let before = code[..at].trim_end();
            let after = code[at + "SafetyTier::Auto".len()..]
                .trim_start_matches(')')
                .trim_start();
            let reads = after.starts_with("=>")
                || after.starts_with('|')
                || before.ends_with("==")
                || before.ends_with("!=")
                || before.ends_with('|');
            assert!(
                reads || path.ends_with("tier.rs"),
                "{path} constructs SafetyTier::Auto"
            );
        }
        if code.contains("-> SafetyTier") {
            definers.push(path.clone());
        }
    }
    assert_eq!(
        definers.len(),
        1,
        "functions returning a tier: {definers:?}"
    );
    assert!(definers[0].ends_with("tier.rs"));
}

#[test]
fn a_draft_cannot_carry_a_tier() {
    let draft = json!({"entries": [{
        "path": "CLAUDE.md", "category": {"class": "stale", "subtype": "orphaned"},
        "signals": [], "op": "x", "op_type": "generative",
        "is_destructive": false, "is_reversible": true, "safety_tier": "auto"
    }]});
    let parsed: Result<hygiene::finalize::DraftFile, _> = serde_json::from_value(draft);
    let err = parsed.unwrap_err().to_string();
    assert!(err.contains("safety_tier"), "{err}");
}

#[test]
fn invariants_name_tests_that_exist() {
    let text = std::fs::read_to_string("invariants.md").unwrap();
    let mut sources = Vec::new();
    rust_sources(Path::new("tests"), &mut sources);
    rust_sources(Path::new("src"), &mut sources);
    let all: String = sources.iter().map(|(_, t)| t.as_str()).collect();
    let mut named = 0;
    for line in text.lines() {
        for part in line.split('`').skip(1).step_by(2) {
            if let Some(name) = part.strip_prefix("test:") {
                let name = name.rsplit("::").next().unwrap();
                assert!(
                    all.contains(&format!("fn {name}(")),
                    "invariants.md names a missing test {name}"
                );
                named += 1;
            }
        }
    }
    assert!(named >= 8, "each invariant names its test");
}

#[test]
fn shipped_conventions_apply_to_default_rules_that_a_model_judges() {
    let rules = hygiene::lifecycle::default_rulebook_json();
    let rules = rules["rules"].as_array().unwrap();
    for c in hygiene::finalize::shipped_conventions() {
        if let Some(r) = &c.applies_to.rule_ref {
            let rule = rules.iter().find(|x| x["id"] == r.as_str());
            let rule =
                rule.unwrap_or_else(|| panic!("convention {} names unknown rule {r}", c.name));
            assert!(
                rule["served_when"].is_string(),
                "{}: rule {r} is never classifier-judged",
                c.name
            );
        }
        assert!(
            !c.pitch.is_empty() && c.pitch.len() < 240,
            "{}: a one-line pitch",
            c.name
        );
    }
    let p = hygiene::policy::policy(None);
    assert_eq!(
        p.default_rulebook,
        hygiene::lifecycle::default_rulebook_json()
    );
}

#[test]
fn policy_signal_kinds_are_exactly_the_contracts() {
    let schema = hygiene::schema::report_schema();
    let mut from_types: Vec<String> = schema["$defs"]["Signal"]["oneOf"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| {
            b["properties"]["kind"]["const"]
                .as_str()
                .unwrap()
                .to_string()
        })
        .collect();
    let out = hygiene(&["policy"]);
    let p: Value = serde_json::from_slice(&out.stdout).unwrap();
    let mut published: Vec<String> = p["signals"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["kind"].as_str().unwrap().to_string())
        .collect();
    from_types.sort();
    published.sort();
    assert_eq!(published, from_types);
    // DESIGN.md's closed set, plus `resolved-narrative` (issue 13; invariants.md records it)
    assert_eq!(published.len(), 12);
    assert!(published.contains(&"resolved-narrative".to_string()));
    assert_eq!(p["encoding"], "cl100k_base");
    assert!(
        p["thresholds"]["oversize_per_session_tokens"]
            .as_u64()
            .unwrap()
            < p["thresholds"]["oversize_on_demand_tokens"]
                .as_u64()
                .unwrap()
    );
}

#[test]
fn replace_text_is_a_substitution_not_a_deletion() {
    // auto-tier only because it swaps text on a line; deleting text is a delete-range, which asks
    rejects("replace-text-swaps", |v| {
        v["entries"][0]["exact_edit"]["replacement"] = json!("")
    });
    rejects("replace-text-swaps", |v| {
        v["entries"][0]["exact_edit"]["replacement"] = json!("  ")
    });
    rejects("replace-text-swaps", |v| {
        v["entries"][0]["exact_edit"]["match"] = json!("src/config/loader.rs\nand more")
    });
    rejects("replace-text-swaps", |v| {
        v["entries"][0]["exact_edit"]["match"] = json!("")
    });
    accepts(|v| v["entries"][0]["exact_edit"]["replacement"] = json!("src/settings/mod.rs"));
}

/// The frozen contract pinned: `hygiene schema` equals the committed snapshot. Changing the
/// report's shape needs an update of `invariants.md` with explicit human approval, then of
/// `examples/golden/schema.json` (`hygiene schema > examples/golden/schema.json`).
#[test]
fn schema_snapshot_pins_the_frozen_contract() {
    let out = hygiene(&["schema"]);
    assert!(out.status.success());
    let now: Value = serde_json::from_slice(&out.stdout).unwrap();
    let pinned: Value = serde_json::from_str(
        &std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/examples/golden/schema.json"
        ))
        .unwrap(),
    )
    .unwrap();
    assert!(
        now == pinned,
        "the report schema changed: that is a change of the frozen contract (invariants.md: \
         record it with explicit human approval, then regenerate examples/golden/schema.json)"
    );
}

/// Whether a `served_when_path` exists is known only to the tree: a lifecycle entry that
/// derived `confirm` because the marker was gone is as valid as one that derived `auto`.
#[test]
fn a_served_when_path_entry_may_carry_either_derivation() {
    let v = golden();
    let i = v["entries"]
        .as_array()
        .unwrap()
        .iter()
        .position(|e| e["exact_edit"]["lifecycle"]["served_when_path"].is_string())
        .expect("the golden report has a served_when_path delete");
    assert_eq!(v["entries"][i]["safety_tier"], "auto");
    accepts(|v| v["entries"][i]["safety_tier"] = json!("confirm"));
    // A temporary document's age is the scanner's own fact: no such latitude.
    let j = v["entries"]
        .as_array()
        .unwrap()
        .iter()
        .position(|e| e["exact_edit"]["lifecycle"]["lifetime"] == "temporary")
        .expect("the golden report has a temporary delete");
    if v["entries"][j]["safety_tier"] == "auto" {
        rejects("safety-tier-derived", |v| {
            v["entries"][j]["safety_tier"] = json!("confirm")
        });
    }
}

/// The policy publishes the tables finalize and apply run on, and the rulebook that governs the
/// repository it is asked about (`--root`), not only the shipped one.
#[test]
fn policy_publishes_finalize_rules_apply_guards_writes_and_the_repositorys_rulebook() {
    let p = hygiene::policy::policy(None);
    assert_eq!(p.finalize_rules, hygiene::finalize::RULES);
    assert_eq!(p.apply_guards, hygiene::apply::GUARDS);
    assert_eq!(p.writes.rules, hygiene::protect::RULES);
    assert_eq!(
        p.writes.tool_config_globs,
        hygiene::protect::TOOL_CONFIG_GLOBS
    );
    assert_eq!(
        p.scanner.frozen_exempt_signals,
        hygiene::scan::FROZEN_EXEMPT_SIGNALS
    );
    assert!(p
        .conditional_fields
        .iter()
        .any(|c| c.contains("target_path")));
    // Every finalize rule a draft error can carry is published: run finalize on drafts that
    // break several rules and check the names.
    let names: Vec<&str> = p.finalize_rules.iter().map(|r| r.name).collect();
    for n in [
        "lifecycle-live",
        "replace-text-reference",
        "dedupe-kept-copy",
        "write-target",
    ] {
        assert!(names.contains(&n), "{n}");
    }
    // The rulebook of a repository that overrides a default.
    let t = tempfile::tempdir().unwrap();
    let root = t.path().canonicalize().unwrap();
    std::fs::create_dir_all(root.join(".hygiene")).unwrap();
    std::fs::write(
        root.join(".hygiene/rulebook.json"),
        r#"{"rules": [{"id": "handoffs", "match": "file", "glob": "notes/**/*.md", "lifetime": "temporary", "retain_recent": 2, "max_age_days": 7}]}"#,
    )
    .unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_hygiene"))
        .args(["policy", "--root"])
        .arg(&root)
        .output()
        .unwrap();
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let rules = v["rulebook"]["rules"].as_array().unwrap();
    let h = rules.iter().find(|r| r["id"] == "handoffs").unwrap();
    assert_eq!(h["glob"], "notes/**/*.md");
    assert_eq!(h["retain_recent"], 2);
    assert_eq!(h["source"], ".hygiene/rulebook.json");
    assert_eq!(
        v["default_rulebook"],
        hygiene::lifecycle::default_rulebook_json()
    );
    // A broken repository rulebook is named, not hidden behind the defaults.
    std::fs::write(root.join(".hygiene/rulebook.json"), "{not json").unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_hygiene"))
        .args(["policy", "--root"])
        .arg(&root)
        .output()
        .unwrap();
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(v["rulebook_error"]
        .as_str()
        .unwrap()
        .contains("rulebook.json"));
}

/// `docs/safety.md` names every apply guard the policy publishes, so the promise and the code
/// cannot drift apart.
#[test]
fn safety_doc_names_every_apply_guard() {
    let doc =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/safety.md")).unwrap();
    for g in hygiene::apply::GUARDS {
        assert!(
            doc.contains(&format!("`{}`", g.id)),
            "docs/safety.md does not name guard `{}`",
            g.id
        );
    }
    for r in hygiene::protect::RULES {
        assert!(
            doc.contains(&format!("`{}`", r.id)),
            "docs/safety.md does not name write rule `{}`",
            r.id
        );
    }
}

/// A decision read off the published tables (`hygiene policy`, as JSON) for `path`: the first
/// row whose globs match, with the globs compiled as the code compiles them.
fn first_published_row<'a>(rows: &'a [Value], path: &str) -> Option<&'a Value> {
    rows.iter().find(|row| {
        row["globs"].as_array().unwrap().iter().any(|g| {
            globset::GlobBuilder::new(g.as_str().unwrap())
                .literal_separator(true)
                .build()
                .unwrap()
                .compile_matcher()
                .is_match(path)
        })
    })
}

/// Paths of every shape the reader and role tables tell apart.
const TABLE_PATHS: &[&str] = &[
    "CLAUDE.md",
    "CLAUDE.local.md",
    ".claude/CLAUDE.md",
    ".claude/rules/style.md",
    ".claude/commands/release.md",
    "src/CLAUDE.md",
    "AGENTS.md",
    "pkg/AGENTS.md",
    "GEMINI.md",
    ".github/copilot-instructions.md",
    ".github/instructions/go.instructions.md",
    ".cursor/rules/style.mdc",
    ".cursorrules",
    ".windsurfrules",
    "README.md",
    "docs/setup.md",
    "CHANGELOG.md",
    "packages/x/CHANGELOG.md",
    "RELEASE-NOTES.md",
    "docs/release-notes/v2.md",
    ".changeset/quiet-dogs.md",
    "website/versioned_docs/version-1.0.0/intro.md",
    "website/i18n/fr/intro.md",
    "docs/adr/0001-record.md",
    "docs/archive/old.md",
    "templates/agents/AGENTS.md",
    "create-app/templates/hello/README.md",
    "docs/history.md",
    "docs/plans/2026-01-01-x.md",
];

/// The published reader table is the one the code decides with: for every path shape, the
/// first published row's readers are `readers_of`'s (outside the per-session set and plugins).
#[test]
fn policy_reader_table_decides_as_the_code_does() {
    let p = serde_json::to_value(hygiene::policy::policy(None)).unwrap();
    let rows = p["readers"]["rules"].as_array().unwrap();
    assert!(p["readers"]["dedupe_rule"]
        .as_str()
        .unwrap()
        .contains("every reader"));
    for path in TABLE_PATHS {
        let published: Vec<Value> = first_published_row(rows, path)
            .map(|r| r["readers"].as_array().unwrap().clone())
            .unwrap_or_default();
        let code = serde_json::to_value(hygiene::readers::readers_of(path, false, false)).unwrap();
        assert_eq!(Value::Array(published), code, "{path}");
    }
    // Not everything is read by people alone: the table tells agents' files apart.
    let other = hygiene::readers::readers_of("AGENTS.md", false, false);
    assert_eq!(other, vec![hygiene::readers::Reader::OtherAgents]);
}

/// The published role table and effects are the ones the code runs: the first published row
/// gives `Roles::of_path`'s role (living where none matches and no version folder), and each
/// role's published `draws` and `auto_edit_kinds` agree with `allows` and `auto_edits_kind` for
/// every signal kind and edit kind.
#[test]
fn policy_role_table_and_effects_decide_as_the_code_does() {
    let p = serde_json::to_value(hygiene::policy::policy(None)).unwrap();
    let rows = p["roles"]["rules"].as_array().unwrap();
    let t = tempfile::tempdir().unwrap();
    let roles = hygiene::roles::Roles::new(t.path(), Vec::new());
    for path in TABLE_PATHS {
        let published = first_published_row(rows, path)
            .map(|r| r["role"].clone())
            .unwrap_or(json!("living"));
        let code = serde_json::to_value(roles.of_path(path)).unwrap();
        assert_eq!(published, code, "{path}");
    }
    assert_eq!(
        serde_json::to_value(roles.of_path("docs/v2.1/intro.md")).unwrap(),
        "history",
        "a version folder"
    );
    let kinds: Vec<&str> = hygiene::scan::signal_rules()
        .iter()
        .map(|r| r.kind)
        .collect();
    for e in p["roles"]["effects"].as_array().unwrap() {
        let role = hygiene::roles::Role::from_name(e["role"].as_str().unwrap()).unwrap();
        for k in &kinds {
            let draws =
                e["draws"].is_null() || e["draws"].as_array().unwrap().iter().any(|d| d == k);
            let per_session_only = *k == "oversize" && e["oversize_only_per_session"] == true;
            assert_eq!(
                hygiene::roles::allows(role, k, true),
                draws || per_session_only,
                "{role:?} {k}"
            );
            assert_eq!(
                hygiene::roles::allows(role, k, false),
                draws && !per_session_only,
                "{role:?} {k}"
            );
        }
        for k in hygiene::kinds::KINDS {
            let published = e["auto_edit_kinds"]
                .as_array()
                .unwrap()
                .contains(&serde_json::to_value(k.kind).unwrap());
            assert_eq!(
                hygiene::roles::auto_edits_kind(role, k.kind),
                published,
                "{role:?} {:?}",
                k.kind
            );
        }
    }
    // Only living documents take scanner-proven text edits without a prompt.
    assert_eq!(p["roles"]["effects"][0]["role"], "living");
    assert_eq!(
        p["roles"]["effects"][0]["auto_edit_kinds"]
            .as_array()
            .unwrap()
            .len(),
        hygiene::kinds::KINDS.len()
    );
}

/// The published boilerplate cut-off is the detector's: a block in that many files draws no
/// duplicate signal, one file fewer does.
#[test]
fn policy_boilerplate_cut_off_is_the_detectors() {
    let p = hygiene::policy::policy(None);
    let n = p.scanner.boilerplate_min_files;
    assert_eq!(
        n,
        hygiene::scan::detectors::duplicate::BOILERPLATE_MIN_FILES
    );
    let block = "Run the whole release checklist before tagging a version: build, test, sign the artefacts, upload them, announce.\n";
    for (copies, flagged) in [(n - 1, true), (n, false)] {
        let t = tempfile::tempdir().unwrap();
        let d = t.path();
        let g = |args: &[&str]| {
            assert!(Command::new("git")
                .current_dir(d)
                .args(["-c", "user.name=t", "-c", "user.email=t@e"])
                .args(args)
                .status()
                .unwrap()
                .success());
        };
        g(&["init", "-q"]);
        std::fs::write(d.join("CLAUDE.md"), format!("# P\n\n{block}")).unwrap();
        for i in 1..copies {
            std::fs::create_dir_all(d.join(".claude/commands")).unwrap();
            std::fs::write(
                d.join(format!(".claude/commands/c{i}.md")),
                format!("# C{i}\n\n{block}"),
            )
            .unwrap();
        }
        g(&["add", "-A"]);
        g(&["commit", "-qm", "x"]);
        let r = hygiene::scan::scan(&hygiene::scan::ScanOptions {
            root: d.to_path_buf(),
            ..Default::default()
        })
        .unwrap();
        let dups = r
            .shortlist
            .iter()
            .flat_map(|i| &i.signals)
            .filter(|s| matches!(s, hygiene::report::Signal::DuplicateBlock { .. }))
            .count();
        assert_eq!(
            dups > 0,
            flagged,
            "{copies} files hold the block: {dups} duplicate signals"
        );
    }
}

/// The published site table is the one routes resolve with: for every generator and marker, a
/// page under each published content folder is found by its route (without extension, with
/// `.html`, as a folder's index page), and the same route without the marker is not.
#[test]
fn policy_site_table_resolves_routes_as_the_code_does() {
    use hygiene::scan::refs::Tree;
    use hygiene::scan::sites::route_target;
    let p = hygiene::policy::policy(None);
    let sites = p.scanner.sites;
    assert_eq!(sites, hygiene::scan::sites::SITE_RULES);
    let exts = p.scanner.site_page_extensions;
    let index = p.scanner.site_index_pages;
    let tree = |files: &[String]| {
        let mut t = Tree::default();
        for f in files {
            t.files.insert(f.clone());
            let mut d = f.as_str();
            while let Some((parent, _)) = d.rsplit_once('/') {
                t.dirs.insert(parent.to_string());
                d = parent;
            }
        }
        t
    };
    let join = |a: &str, b: &str| {
        [a, b]
            .iter()
            .filter(|s| !s.is_empty())
            .copied()
            .collect::<Vec<_>>()
            .join("/")
    };
    for rule in sites {
        for marker in rule.markers {
            for root in rule.content_roots {
                for ext in exts {
                    let base = join("site", root);
                    let page = join(&base, &format!("guide/setup.{ext}"));
                    let folder_index = join(&base, &format!("ref/{}", index[0]));
                    // The linking page is a page of the site: inside the content folder.
                    let doc = join(&base, "x.md");
                    let files = vec![
                        format!("site/{marker}/x"),
                        page.clone(),
                        folder_index.clone(),
                        doc.clone(),
                    ];
                    // A marker may be a folder (`.vitepress`) or a file: either counts.
                    let mut with = tree(&files);
                    with.files.insert(format!("site/{marker}"));
                    for (link, want) in [
                        ("/guide/setup", &page),
                        ("/guide/setup.html", &page),
                        ("/ref/", &folder_index),
                    ] {
                        assert_eq!(
                            route_target(&with, &doc, link).as_ref(),
                            Some(want),
                            "{} {marker} {root} {ext} {link}",
                            rule.generator
                        );
                    }
                    // Without the marker, nothing serves the site's folder at `/` (the site
                    // sits below the top folder, which a `.md` page's route may start from).
                    let nested: Vec<String> = files[1..].iter().map(|f| format!("a/{f}")).collect();
                    let without = tree(&nested);
                    assert_eq!(
                        route_target(&without, &format!("a/{doc}"), "/guide/setup"),
                        None
                    );
                    // A document beside the configuration, outside every content folder, is no
                    // page (unless the site's pages start at its root).
                    if !rule.content_roots.contains(&"") {
                        assert_eq!(route_target(&with, "site/x.md", "/guide/setup"), None);
                    }
                }
            }
        }
    }
}

/// Every signal kind is published as a fact or a hint, as the code's table says; the kinds
/// whose staleness needs reading (churn, markers, status lines, a name the source lacks) are
/// hints, and the ones the scanner proves are facts.
#[test]
fn policy_publishes_each_signal_as_fact_or_hint() {
    let p: Value = serde_json::from_slice(&hygiene(&["policy"]).stdout).unwrap();
    let code = hygiene::scan::signal_rules();
    let published = p["signals"].as_array().unwrap();
    assert_eq!(published.len(), code.len());
    for (p, c) in published.iter().zip(&code) {
        assert_eq!(p["kind"], c.kind);
        assert_eq!(p["class"], serde_json::to_value(c.class).unwrap());
    }
    let hints: Vec<&str> = published
        .iter()
        .filter(|s| s["class"] == "hint")
        .map(|s| s["kind"].as_str().unwrap())
        .collect();
    assert_eq!(
        hints,
        [
            "missing-symbol",
            "status-done",
            "superseded-marker",
            "provisional-marker",
            "drift"
        ]
    );
}

/// One signal of each kind, as the scanner writes them.
fn one_signal_of_each_kind() -> Vec<Value> {
    vec![
        json!({"kind": "missing-path", "line": 1, "ref": "a.md", "via": "link"}),
        json!({"kind": "missing-anchor", "line": 1, "ref": "a.md#x"}),
        json!({"kind": "missing-symbol", "line": 1, "ref": "run()"}),
        json!({"kind": "duplicate-block", "start_line": 1, "end_line": 2, "canonical_ref": "b.md:1-2"}),
        json!({"kind": "checklist-complete", "checked": 3}),
        json!({"kind": "status-done", "line": 1, "text": "Status: done"}),
        json!({"kind": "superseded-marker", "line": 1}),
        json!({"kind": "provisional-marker", "count": 1, "lines": [1]}),
        json!({"kind": "oversize", "raw_tokens": 20000, "threshold": 10000}),
        json!({"kind": "resolved-narrative", "line": 1, "text": "Resolved:", "words": 500}),
        json!({"kind": "drift", "commits": 3, "since": "2026-01-01"}),
        json!({"kind": "lifecycle"}),
    ]
}

/// The bill `hygiene policy` publishes is the one triage runs: the limits are the constants, every
/// signal kind has one misleading weight and one evidence row, and an order decided off the
/// published ranking (per-session tokens, then the published weight, then signal count, then
/// size, then path) is the order `hygiene::triage::rank` gives.
#[test]
fn policy_bill_is_the_code_and_ranks_as_published() {
    let out = hygiene(&["policy"]);
    let p: Value = serde_json::from_slice(&out.stdout).unwrap();
    let bill = &p["bill"];
    assert_eq!(
        bill["limits"],
        serde_json::to_value(hygiene::triage::BILL).unwrap()
    );
    assert!(bill["limits"]["budget_tokens"].as_u64().unwrap() <= 40_000);
    let kinds: Vec<&str> = p["signals"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["kind"].as_str().unwrap())
        .collect();
    for table in ["misleading", "evidence"] {
        let listed: Vec<&str> = bill[table]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["kind"].as_str().unwrap())
            .collect();
        let mut a = listed.clone();
        let mut b = kinds.clone();
        a.sort();
        b.sort();
        assert_eq!(a, b, "bill.{table} covers each signal kind once");
    }
    let weight = |k: &str| -> u64 {
        bill["misleading"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["kind"] == k)
            .unwrap()["weight"]
            .as_u64()
            .unwrap()
    };
    // Items: one per kind on demand (sizes vary), two per-session ones, and a two-signal one.
    let mut items: Vec<Value> = Vec::new();
    for (i, s) in one_signal_of_each_kind().into_iter().enumerate() {
        items.push(json!({"path": format!("d/{i:02}.md"), "signals": [s],
                          "raw_tokens": 100 + (i as u64 * 37) % 300,
                          "injection_frequency": "on-demand"}));
    }
    items.push(
        json!({"path": "CLAUDE.md", "signals": [{"kind": "drift", "commits": 3, "since": "x"}],
                      "raw_tokens": 50, "injection_frequency": "per-session"}),
    );
    items.push(json!({"path": ".claude/rules/a.md", "signals": [{"kind": "oversize", "raw_tokens": 3000, "threshold": 2000}],
                      "raw_tokens": 3000, "injection_frequency": "per-session"}));
    items.push(json!({"path": "d/two.md", "signals": [
                          {"kind": "drift", "commits": 3, "since": "x"},
                          {"kind": "oversize", "raw_tokens": 20000, "threshold": 10000}],
                      "raw_tokens": 20000, "injection_frequency": "on-demand"}));
    let mut expected = items.clone();
    let key = |v: &Value| {
        let per = if v["injection_frequency"] == "per-session" {
            v["raw_tokens"].as_u64().unwrap()
        } else {
            0
        };
        let sig = v["signals"].as_array().unwrap();
        let w = sig
            .iter()
            .map(|s| weight(s["kind"].as_str().unwrap()))
            .max()
            .unwrap();
        (
            std::cmp::Reverse(per),
            std::cmp::Reverse(w),
            std::cmp::Reverse(sig.len()),
            std::cmp::Reverse(v["raw_tokens"].as_u64().unwrap()),
            v["path"].as_str().unwrap().to_string(),
        )
    };
    expected.sort_by_key(key);
    let mut ranked: Vec<hygiene::report::ShortlistItem> = items
        .iter()
        .map(|v| serde_json::from_value(v.clone()).unwrap())
        .collect();
    hygiene::triage::rank(&mut ranked);
    let got: Vec<&str> = ranked.iter().map(|i| i.path.as_str()).collect();
    let want: Vec<&str> = expected
        .iter()
        .map(|v| v["path"].as_str().unwrap())
        .collect();
    assert_eq!(got, want);
    assert_eq!(&got[..2], [".claude/rules/a.md", "CLAUDE.md"]);
    assert_eq!(
        got[2], "d/00.md",
        "the most misleading on-demand item comes next"
    );
}
