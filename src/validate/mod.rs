//! The schema validator behind `hygiene validate`, `finalize` and `apply`.
//!
//! Two passes. The shape pass checks the document against the JSON Schema generated from the
//! report types ([`crate::schema::report_schema`]) and reports every violation with its JSON
//! pointer. The semantic pass, run on a well-shaped report, checks the rules no schema can
//! express: the exact_edit ⇔ deterministic biconditional, kind characterizations, that every
//! tier equals what [`crate::tier::derive_safety_tier`] derives, lifecycle evidence, and the
//! links between entries and the shortlist. Each rule has a stable name in [`RULES`], which
//! `hygiene policy` publishes; every violation names its rule.

pub mod shape;

use crate::error::{Error, Result};
use crate::kinds::{self, FieldProblem, Reversibility};
use crate::paths::check_relative;
use crate::report::{
    Anchor, EditKind, Entry, ExactEdit, Lifecycle, Lifetime, OpType, Report, ShortlistItem, Signal,
    WholeKind, SCHEMA_VERSION,
};
use crate::tier::{derive_safety_tier, lifecycle_arg, GitState};
use schemars::JsonSchema;
use serde::Serialize;
use serde_json::Value;
use std::collections::{HashMap, HashSet};
use std::path::Path;

/// One contract violation: where (JSON pointer), which rule, and what is wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Violation {
    /// JSON pointer into the document (`""` for the whole document).
    pub pointer: String,
    /// The rule's stable name, one of [`RULES`].
    pub rule: &'static str,
    /// What is wrong, in a sentence.
    pub message: String,
}

impl std::fmt::Display for Violation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let at = if self.pointer.is_empty() {
            "(document)"
        } else {
            &self.pointer
        };
        write!(f, "{at}: {} [{}]", self.message, self.rule)
    }
}

/// A validation rule as `hygiene policy` publishes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
pub struct Rule {
    /// The stable name a violation carries.
    pub name: &'static str,
    /// What the rule requires.
    pub requires: &'static str,
}

macro_rules! rules {
    ($($id:ident = $name:literal : $text:literal;)*) => {
        $( #[doc = $text] pub const $id: &str = $name; )*
        /// Every rule the validator applies, in the order it applies them.
        pub const RULES: &[Rule] = &[$(Rule { name: $name, requires: $text }),*];
    };
}

rules! {
    JSON = "json": "The file is a non-empty JSON object.";
    SHAPE = "shape": "The document matches the report's JSON Schema (`hygiene schema`): closed enums, required fields, no unknown fields, each kind's required sub-fields.";
    SCHEMA_VERSION_RULE = "schema-version": "`schema_version` is the version this helper implements.";
    GENERATED_AT = "generated-at-utc": "`generated_at` is an ISO-8601 UTC timestamp.";
    RELATIVE_PATH = "relative-path": "Every path is root-relative: not absolute, no `..`, `/`-separated.";
    WRITE_TARGET = "write-target": "Every path an entry writes passes the text rules of the write table (`writes` in `hygiene policy`): no `.git` or `.hygiene` segment, no tool configuration, documents only for edits, Markdown archive and extraction targets no client loads as instructions.";
    SHORTLIST_UNIQUE = "shortlist-unique": "A path appears in the shortlist at most once.";
    SHORTLIST_SIGNALS = "shortlist-has-signals": "A shortlisted path has at least one signal.";
    LIFECYCLE_SIGNAL = "lifecycle-signal": "An item carries a `lifecycle` object iff it has a `lifecycle` signal; an entry that cites the `lifecycle` signal carries the item's lifecycle object.";
    SUGGESTION = "suggestion-edit": "A suggestion's exact edit conforms to its kind and carries no fingerprint.";
    ENTRY_IN_SHORTLIST = "entry-in-shortlist": "Every `entries[].path` is a shortlist path.";
    ENTRY_SIGNALS = "entry-signals-from-shortlist": "An entry cites at least one signal, each one of its shortlist item's signals.";
    EXACT_EDIT_IFF = "exact-edit-iff-deterministic": "An entry has `exact_edit` iff its `op_type` is deterministic.";
    KIND_FIELDS = "kind-fields": "An exact edit carries its kind's required fields, in the right anchor form, and no field its kind does not own.";
    FINGERPRINT = "fingerprint": "`expected_sha256` is 64 lowercase hex digits.";
    ANCHOR_RANGE = "anchor-range": "A line anchor has 1 <= start_line <= end_line.";
    KIND_CHARACTERIZATION = "kind-characterization": "A deterministic entry's `is_destructive`/`is_reversible` equal its kind's characterization (lifecycle kinds: destructive; reversible iff tracked and clean).";
    LIFECYCLE_SERVED = "lifecycle-served-field": "A lifecycle object carries exactly one of `served_when_path`/`served_when` for delete-once-served, neither for temporary or keep.";
    LIFECYCLE_KEEP = "lifecycle-keep-protects": "No delete or extract-then-delete is governed by a `keep` rule.";
    LIFECYCLE_FROM_SHORTLIST = "lifecycle-from-shortlist": "An entry's lifecycle objects (entry-level and in `exact_edit`) equal its shortlist item's: the model cannot invent evidence.";
    SAFETY_TIER = "safety-tier-derived": "`safety_tier` equals `derive_safety_tier(op_type, is_destructive, is_reversible, lifecycle)`; where the evidence is a `served_when_path`, whose existence only the tree knows, either derivation (exists or not) is accepted.";
    TOKEN_WEIGHTING = "token-weighting": "`weighted_tokens` is present only with `injection_frequency` and equals `raw_tokens` times its weight.";
    TOKEN_FREQUENCY = "token-frequency-from-shortlist": "An entry's `injection_frequency`, when present, is its shortlist item's.";
    REPLACE_TEXT = "replace-text-swaps": "A replace-text swaps one reference for another within its one anchored line: `match` and `replacement` are references of one kind (a path or link target, a `#anchor`, a code symbol) with no spaces (deleting text is a delete-range and rewriting prose a generative op, which ask).";
    CANONICAL_REF = "canonical-ref": "`canonical_ref` is `path:start-end` with a root-relative path and a valid range.";
    PROMOTION = "promotion-candidate-source": "A promotion candidate names an entry whose lifecycle is classifier-judged (`served_when`), once per convention, and a shipped convention (`conventions.json`) that applies to that entry's rule, with its own pitch.";
}

/// The weight of a token saving by injection frequency, published by `hygiene policy`: both are
/// 1 because a file is loaded at most once per session; what differs is certainty, which the
/// summary keeps apart (per-session: real, every session; on-demand: an upper bound).
pub fn weight(freq: crate::report::InjectionFrequency) -> u64 {
    match freq {
        crate::report::InjectionFrequency::PerSession => 1,
        crate::report::InjectionFrequency::OnDemand => 1,
    }
}

/// Parses `path:start-end`.
///
/// ```
/// use hygiene::validate::parse_canonical_ref;
/// assert_eq!(parse_canonical_ref("docs/a.md:3-9"), Some(("docs/a.md", 3, 9)));
/// assert_eq!(parse_canonical_ref("docs/a.md:9-3"), None);
/// assert_eq!(parse_canonical_ref("docs/a.md"), None);
/// ```
pub fn parse_canonical_ref(s: &str) -> Option<(&str, u32, u32)> {
    let (path, range) = s.rsplit_once(':')?;
    let (a, b) = range.split_once('-')?;
    let (a, b): (u32, u32) = (a.parse().ok()?, b.parse().ok()?);
    (a >= 1 && a <= b && !path.is_empty()).then_some((path, a, b))
}

/// Every violation in raw bytes (empty, malformed JSON and non-objects included).
pub fn validate_bytes(bytes: &[u8]) -> Vec<Violation> {
    let doc = |message: String| {
        vec![Violation {
            pointer: String::new(),
            rule: JSON,
            message,
        }]
    };
    if bytes.iter().all(|b| b.is_ascii_whitespace()) {
        return doc("the file is empty; a report is a JSON object".into());
    }
    match serde_json::from_slice::<Value>(bytes) {
        Ok(v) => validate_value(&v),
        Err(e) => doc(format!(
            "not JSON: line {} column {}: {e}",
            e.line(),
            e.column()
        )),
    }
}

/// Every violation in a parsed JSON document; empty means valid.
///
/// The semantic rules run even when the shape pass fails: each shortlist item, entry and
/// promotion candidate is parsed on its own, and the rules run over every part that parsed, so
/// one bad entry does not hide the other violations.
pub fn validate_value(v: &Value) -> Vec<Violation> {
    let Some(obj) = v.as_object() else {
        return vec![Violation {
            pointer: String::new(),
            rule: JSON,
            message: "the document is not a JSON object".into(),
        }];
    };
    let schema = crate::schema::report_schema();
    let mut out: Vec<Violation> = shape::check(&schema, v)
        .into_iter()
        .map(|e| Violation {
            pointer: e.pointer,
            rule: SHAPE,
            message: e.message,
        })
        .collect();
    let parts = |key: &str| -> Vec<Value> {
        obj.get(key)
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default()
    };
    let parsed = Parts {
        schema_version: obj.get("schema_version").and_then(Value::as_u64),
        generated_at: obj
            .get("generated_at")
            .and_then(Value::as_str)
            .map(str::to_string),
        shortlist: parts("shortlist")
            .into_iter()
            .map(|x| serde_json::from_value(x).ok())
            .collect(),
        entries: parts("entries")
            .into_iter()
            .map(|x| serde_json::from_value(x).ok())
            .collect(),
        promotion_candidates: parts("promotion_candidates")
            .into_iter()
            .map(|x| serde_json::from_value(x).ok())
            .collect(),
    };
    out.extend(check_parts(&parsed));
    if out.is_empty() {
        // The schema and the types come from one source; this is a safety net.
        if let Err(e) = serde_json::from_value::<Report>(v.clone()) {
            out.push(Violation {
                pointer: String::new(),
                rule: SHAPE,
                message: e.to_string(),
            });
        }
    }
    out
}

/// A report parsed part by part; `None` marks a part that failed the shape pass.
struct Parts {
    schema_version: Option<u64>,
    generated_at: Option<String>,
    shortlist: Vec<Option<ShortlistItem>>,
    entries: Vec<Option<Entry>>,
    promotion_candidates: Vec<Option<crate::report::PromotionCandidate>>,
}

/// The semantic rules, on a well-shaped report.
pub fn validate_report(r: &Report) -> Vec<Violation> {
    check_parts(&Parts {
        schema_version: Some(r.schema_version as u64),
        generated_at: Some(r.generated_at.clone()),
        shortlist: r.shortlist.iter().cloned().map(Some).collect(),
        entries: r.entries.iter().cloned().map(Some).collect(),
        promotion_candidates: r.promotion_candidates.iter().cloned().map(Some).collect(),
    })
}

fn check_parts(r: &Parts) -> Vec<Violation> {
    let mut out = Out::default();
    if let Some(v) = r.schema_version.filter(|&v| v != SCHEMA_VERSION as u64) {
        out.push(
            "/schema_version",
            SCHEMA_VERSION_RULE,
            format!(
                "schema_version {v} is not {SCHEMA_VERSION}, the version this helper implements"
            ),
        );
    }
    if let Some(g) = r
        .generated_at
        .as_deref()
        .filter(|g| crate::time::parse_utc(g).is_none())
    {
        out.push(
            "/generated_at",
            GENERATED_AT,
            format!("`{g}` is not an ISO-8601 UTC timestamp like 2026-11-29T16:00:00Z"),
        );
    }
    let complete = r.shortlist.iter().all(Option::is_some);
    let items = check_shortlist(&r.shortlist, &mut out);
    for (i, e) in r.entries.iter().enumerate() {
        if let Some(e) = e {
            check_entry(i, e, &items, complete, &mut out);
        }
    }
    check_promotions(r, &mut out);
    out.0
}

#[derive(Default)]
struct Out(Vec<Violation>);

impl Out {
    fn push(&mut self, pointer: impl Into<String>, rule: &'static str, message: String) {
        self.0.push(Violation {
            pointer: pointer.into(),
            rule,
            message,
        });
    }

    fn path(&mut self, pointer: String, p: &str) {
        if let Err(e) = check_relative(p) {
            self.push(pointer, RELATIVE_PATH, format!("`{p}`: {e}"));
        }
    }

    fn write(&mut self, pointer: String, role: crate::protect::Role, p: &str) {
        if let Err(r) = crate::protect::check_text(role, p.trim_end_matches('/')) {
            self.push(pointer, WRITE_TARGET, format!("{} [{}]", r.message, r.rule));
        }
    }
}

fn check_shortlist<'a>(
    shortlist: &'a [Option<ShortlistItem>],
    out: &mut Out,
) -> HashMap<&'a str, &'a ShortlistItem> {
    let mut items = HashMap::new();
    for (i, item) in shortlist.iter().enumerate() {
        let Some(item) = item else { continue };
        let at = format!("/shortlist/{i}");
        out.path(format!("{at}/path"), &item.path);
        if items.insert(item.path.as_str(), item).is_some() {
            out.push(
                format!("{at}/path"),
                SHORTLIST_UNIQUE,
                format!("`{}` is shortlisted twice", item.path),
            );
        }
        if item.signals.is_empty() {
            out.push(
                format!("{at}/signals"),
                SHORTLIST_SIGNALS,
                "a shortlisted path needs at least one signal".into(),
            );
        }
        let has_signal = item
            .signals
            .iter()
            .any(|s| matches!(s, Signal::Lifecycle {}));
        if has_signal != item.lifecycle.is_some() {
            out.push(
                at.clone(),
                LIFECYCLE_SIGNAL,
                if has_signal {
                    "a `lifecycle` signal without a `lifecycle` object".into()
                } else {
                    "a `lifecycle` object without a `lifecycle` signal".into()
                },
            );
        }
        if let Some(lc) = &item.lifecycle {
            check_lifecycle(&format!("{at}/lifecycle"), lc, out);
        }
        for (j, s) in item.signals.iter().enumerate() {
            check_signal(&format!("{at}/signals/{j}"), s, out);
        }
        for (j, s) in item.suggestions.iter().enumerate() {
            let sp = format!("{at}/suggestions/{j}/exact_edit");
            if s.exact_edit.expected_sha256.is_some() {
                out.push(
                    format!("{sp}/expected_sha256"),
                    SUGGESTION,
                    "a suggestion carries no fingerprint; finalize computes it".into(),
                );
            }
            check_edit_fields(&sp, &s.exact_edit, out);
        }
    }
    items
}

fn check_signal(at: &str, s: &Signal, out: &mut Out) {
    match s {
        Signal::MissingPath {
            renamed_to: Some(p),
            ..
        } => out.path(format!("{at}/renamed_to"), p),
        Signal::DuplicateBlock {
            start_line,
            end_line,
            canonical_ref,
        } => {
            if *start_line < 1 || start_line > end_line {
                out.push(
                    at.to_string(),
                    ANCHOR_RANGE,
                    format!("lines {start_line}-{end_line} are not a range"),
                );
            }
            check_canonical_ref(&format!("{at}/canonical_ref"), canonical_ref, out);
        }
        _ => {}
    }
}

fn check_canonical_ref(at: &str, s: &str, out: &mut Out) {
    match parse_canonical_ref(s) {
        Some((path, _, _)) => out.path(at.to_string(), path),
        None => out.push(
            at.to_string(),
            CANONICAL_REF,
            format!("`{s}` is not `path:start-end`"),
        ),
    }
}

fn check_lifecycle(at: &str, lc: &Lifecycle, out: &mut Out) {
    let fields = (lc.served_when_path.is_some(), lc.served_when.is_some());
    let problem = match (lc.lifetime, fields) {
        (Lifetime::DeleteOnceServed, (true, false) | (false, true)) => None,
        (Lifetime::DeleteOnceServed, (true, true)) => {
            Some("carries both `served_when_path` and `served_when`; exactly one")
        }
        (Lifetime::DeleteOnceServed, (false, false)) => {
            Some("a delete-once-served rule needs `served_when_path` or `served_when`")
        }
        (_, (false, false)) => None,
        (Lifetime::Temporary, _) => {
            Some("a temporary rule is keyed on age: no `served_when_path`/`served_when`")
        }
        (Lifetime::Keep, _) => Some("a keep rule has no served condition"),
    };
    if let Some(p) = problem {
        out.push(at.to_string(), LIFECYCLE_SERVED, p.to_string());
    }
    if let Some(p) = &lc.served_when_path {
        out.path(format!("{at}/served_when_path"), p);
    }
}

/// The kind table's field rules. A missing field the schema already requires (every required
/// field but the anchor's form) is left to the shape pass, so it is reported once.
fn check_edit_fields(at: &str, edit: &ExactEdit, out: &mut Out) {
    for p in kinds::field_problems(edit) {
        if matches!(p, FieldProblem::Missing(f) if f.json_name() != "anchor") {
            continue;
        }
        let kind = serde_json::to_value(edit.kind).unwrap_or_default();
        let kind = kind.as_str().unwrap_or("?");
        let message = match p {
            FieldProblem::Missing(f) if f.json_name() == "anchor" => {
                let form = if f == kinds::Field::AnchorWhole {
                    "{\"whole\": ...}"
                } else {
                    "a line range"
                };
                format!("a {kind} needs `anchor` as {form}")
            }
            FieldProblem::Missing(f) => format!("a {kind} needs `{}`", f.json_name()),
            FieldProblem::Foreign(f) => format!("a {kind} has no `{}`", f.json_name()),
        };
        out.push(at.to_string(), KIND_FIELDS, message);
    }
    if let Some(why) = kinds::replace_text_problem(edit) {
        out.push(at.to_string(), REPLACE_TEXT, why.to_string());
    }
    if let Some(Anchor::Lines(r)) = edit.anchor {
        if r.start_line < 1 || r.start_line > r.end_line {
            out.push(
                format!("{at}/anchor"),
                ANCHOR_RANGE,
                format!("lines {}-{} are not a range", r.start_line, r.end_line),
            );
        }
    }
    for (name, p) in [
        ("dest_path", &edit.dest_path),
        ("target_path", &edit.target_path),
    ] {
        if let Some(p) = p {
            out.path(format!("{at}/{name}"), p);
            out.write(format!("{at}/{name}"), crate::protect::Role::Target, p);
        }
    }
    if let Some(c) = &edit.canonical_ref {
        check_canonical_ref(&format!("{at}/canonical_ref"), c, out);
    }
    if let Some(lc) = &edit.lifecycle {
        check_lifecycle(&format!("{at}/lifecycle"), lc, out);
        if lc.lifetime == Lifetime::Keep {
            out.push(
                format!("{at}/lifecycle/lifetime"),
                LIFECYCLE_KEEP,
                "a keep rule protects this path from every lifecycle op".into(),
            );
        }
    }
}

fn is_hex64(s: &str) -> bool {
    s.len() == 64
        && s.bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

/// `complete` is false when a shortlist item failed the shape pass: an entry whose item is
/// missing may then point at that item, so membership is not judged.
fn check_entry(
    i: usize,
    e: &Entry,
    items: &HashMap<&str, &ShortlistItem>,
    complete: bool,
    out: &mut Out,
) {
    let at = format!("/entries/{i}");
    out.path(format!("{at}/path"), &e.path);
    let role = match e.exact_edit.as_ref().map(|x| x.kind) {
        Some(EditKind::Delete | EditKind::ExtractThenDelete) => crate::protect::Role::Delete,
        _ => crate::protect::Role::Edit,
    };
    out.write(format!("{at}/path"), role, &e.path);
    if e.signals.iter().any(|s| matches!(s, Signal::Lifecycle {})) && e.lifecycle.is_none() {
        out.push(
            format!("{at}/lifecycle"),
            LIFECYCLE_SIGNAL,
            "the entry cites the `lifecycle` signal but carries no `lifecycle` object".into(),
        );
    }
    let item = items.get(e.path.as_str()).copied();
    if item.is_none() && complete {
        out.push(
            format!("{at}/path"),
            ENTRY_IN_SHORTLIST,
            format!("`{}` is not in the shortlist", e.path),
        );
    }
    if e.signals.is_empty() {
        out.push(
            format!("{at}/signals"),
            ENTRY_SIGNALS,
            "an entry cites at least one scanner signal".into(),
        );
    }
    if let Some(item) = item {
        for (j, s) in e.signals.iter().enumerate() {
            if !item.signals.contains(s) {
                out.push(
                    format!("{at}/signals/{j}"),
                    ENTRY_SIGNALS,
                    "this signal is not one the scanner reported for the path".into(),
                );
            }
        }
        if let (Some(f), false) = (
            e.token_estimate.injection_frequency,
            e.token_estimate.injection_frequency == Some(item.injection_frequency),
        ) {
            out.push(
                format!("{at}/token_estimate/injection_frequency"),
                TOKEN_FREQUENCY,
                format!(
                    "{} differs from the shortlist's {}",
                    json_word(f),
                    json_word(item.injection_frequency)
                ),
            );
        }
    }
    if let Some(lc) = &e.lifecycle {
        check_lifecycle(&format!("{at}/lifecycle"), lc, out);
    }
    // Evidence comes from the scanner: every lifecycle object must be the shortlist item's.
    let item_lc = item.and_then(|it| it.lifecycle.as_ref());
    let edit_lc = e.exact_edit.as_ref().and_then(|x| x.lifecycle.as_ref());
    for (ptr, lc) in [
        (format!("{at}/lifecycle"), e.lifecycle.as_ref()),
        (format!("{at}/exact_edit/lifecycle"), edit_lc),
    ] {
        if let Some(lc) = lc {
            if item.is_some() && item_lc != Some(lc) {
                out.push(
                    ptr,
                    LIFECYCLE_FROM_SHORTLIST,
                    "differs from the shortlist item's lifecycle object".into(),
                );
            }
        }
    }
    match (e.op_type, &e.exact_edit) {
        (OpType::Deterministic, None) => out.push(
            at.clone(),
            EXACT_EDIT_IFF,
            "a deterministic entry needs `exact_edit`".into(),
        ),
        (OpType::Generative, Some(_)) => out.push(
            format!("{at}/exact_edit"),
            EXACT_EDIT_IFF,
            "a generative entry has no `exact_edit`; its edit is written at clean time".into(),
        ),
        _ => {}
    }
    if let Some(edit) = &e.exact_edit {
        let ep = format!("{at}/exact_edit");
        check_edit_fields(&ep, edit, out);
        match &edit.expected_sha256 {
            Some(h) if is_hex64(h) => {}
            Some(h) => out.push(
                format!("{ep}/expected_sha256"),
                FINGERPRINT,
                format!("`{h}` is not 64 lowercase hex digits"),
            ),
            None => {} // the shape pass requires it
        }
        if let Some(Anchor::Whole(w)) = edit.anchor {
            if w.whole == WholeKind::Directory && edit.kind != EditKind::Delete {
                out.push(
                    format!("{ep}/anchor"),
                    KIND_FIELDS,
                    "only a delete takes a whole-directory anchor".into(),
                );
            }
        }
        let row = kinds::rule(edit.kind);
        let reversible_ok = match row.reversibility {
            Reversibility::Fixed(r) => e.is_reversible == r,
            Reversibility::GitHistory => true,
        };
        if e.op_type == OpType::Deterministic
            && (e.is_destructive != row.is_destructive || !reversible_ok)
        {
            let want_rev = match row.reversibility {
                Reversibility::Fixed(r) => r.to_string(),
                Reversibility::GitHistory => "tracked-and-clean".into(),
            };
            out.push(
                at.clone(),
                KIND_CHARACTERIZATION,
                format!(
                    "a {} is is_destructive={} is_reversible={want_rev}, not {}/{}",
                    json_word(edit.kind),
                    row.is_destructive,
                    e.is_destructive,
                    e.is_reversible
                ),
            );
        }
    }
    // For a lifecycle kind, is_reversible records whether git held every byte (tracked and
    // clean) when the tier was derived; the derivation is re-run from it.
    let git = GitState {
        tracked: e.is_reversible,
        clean: e.is_reversible,
    };
    let derive = |exists: bool| {
        let arg = e
            .exact_edit
            .as_ref()
            .and_then(|edit| lifecycle_arg(edit, git, |_| exists));
        derive_safety_tier(e.op_type, e.is_destructive, e.is_reversible, arg)
    };
    let derived = derive(true);
    if derived != e.safety_tier && derive(false) != e.safety_tier {
        out.push(
            format!("{at}/safety_tier"),
            SAFETY_TIER,
            format!(
                "{} is not what derive_safety_tier gives for these inputs ({})",
                json_word(e.safety_tier),
                json_word(derived)
            ),
        );
    }
    let t = &e.token_estimate;
    match (t.injection_frequency, t.weighted_tokens) {
        (None, Some(_)) => out.push(
            format!("{at}/token_estimate"),
            TOKEN_WEIGHTING,
            "`weighted_tokens` without `injection_frequency`".into(),
        ),
        (Some(f), Some(w)) if w != t.raw_tokens * weight(f) => out.push(
            format!("{at}/token_estimate/weighted_tokens"),
            TOKEN_WEIGHTING,
            format!(
                "{w} is not raw_tokens {} x weight {}",
                t.raw_tokens,
                weight(f)
            ),
        ),
        _ => {}
    }
}

fn json_word<T: Serialize>(t: T) -> String {
    serde_json::to_value(t)
        .ok()
        .and_then(|v| v.as_str().map(str::to_string))
        .unwrap_or_default()
}

fn check_promotions(r: &Parts, out: &mut Out) {
    let complete = r.entries.iter().all(Option::is_some);
    let judged: HashMap<&str, &Lifecycle> = r
        .entries
        .iter()
        .flatten()
        .filter_map(|e| {
            let lc = e
                .lifecycle
                .as_ref()
                .or(e.exact_edit.as_ref().and_then(|x| x.lifecycle.as_ref()));
            lc.filter(|lc| lc.served_when.is_some())
                .map(|lc| (e.path.as_str(), lc))
        })
        .collect();
    let conventions = crate::finalize::shipped_conventions();
    let mut seen = HashSet::new();
    for (i, c) in r.promotion_candidates.iter().enumerate() {
        let Some(c) = c else { continue };
        let at = format!("/promotion_candidates/{i}");
        let lc = judged.get(c.path.as_str());
        if complete && lc.is_none() {
            out.push(
                format!("{at}/path"),
                PROMOTION,
                format!(
                    "`{}` is not an entry with a classifier-judged lifecycle",
                    c.path
                ),
            );
        }
        match conventions.iter().find(|k| k.name == c.convention) {
            None => out.push(
                format!("{at}/convention"),
                PROMOTION,
                format!("`{}` is not a convention hygiene ships", c.convention),
            ),
            Some(k) => {
                if k.pitch != c.pitch {
                    out.push(
                        format!("{at}/pitch"),
                        PROMOTION,
                        format!("the pitch of `{}` is not the shipped one", c.convention),
                    );
                }
                if let Some(lc) = lc {
                    let expected = crate::finalize::promotion_candidates_for(lc, &conventions);
                    if !expected.iter().any(|e| e.name == k.name) {
                        out.push(
                            format!("{at}/convention"),
                            PROMOTION,
                            format!(
                                "`{}` does not apply to rule `{}`",
                                c.convention, lc.rule_ref
                            ),
                        );
                    }
                }
            }
        }
        if !seen.insert((c.path.as_str(), c.convention.as_str())) {
            out.push(
                at,
                PROMOTION,
                format!("`{}` is listed twice for `{}`", c.convention, c.path),
            );
        }
    }
}

/// The promotion candidates a report must list, given the conventions its repository adopted:
/// exactly what finalize computes from its entries. A report that leaves one out (or lists one
/// that is adopted) is not finalize's output. The pure validator cannot know what is adopted;
/// `hygiene validate` runs this when the report's `project_root` is readable.
pub fn check_promotions_complete(r: &Report, adopted: &[String]) -> Vec<Violation> {
    let want = crate::finalize::promotion_candidates(
        &r.entries,
        &crate::finalize::shipped_conventions(),
        adopted,
    );
    let mut out = Vec::new();
    for w in &want {
        if !r.promotion_candidates.contains(w) {
            out.push(Violation {
                pointer: "/promotion_candidates".into(),
                rule: PROMOTION,
                message: format!(
                    "missing: `{}` for `{}` (not adopted in .hygiene/conventions.json)",
                    w.convention, w.path
                ),
            });
        }
    }
    for (i, c) in r.promotion_candidates.iter().enumerate() {
        if !want.contains(c) {
            out.push(Violation {
                pointer: format!("/promotion_candidates/{i}"),
                rule: PROMOTION,
                message: format!(
                    "`{}` for `{}` is not a candidate (adopted, or not applicable)",
                    c.convention, c.path
                ),
            });
        }
    }
    out
}

/// Reads and validates a report; an invalid one is an error listing its violations.
pub fn read_report(path: &Path) -> Result<Report> {
    let bytes = crate::error::read(path)?;
    let violations = validate_bytes(&bytes);
    if !violations.is_empty() {
        let lines: Vec<String> = violations.iter().map(|v| format!("  {v}")).collect();
        return Err(Error::Parse {
            path: path.display().to_string(),
            message: format!(
                "not a valid report; run `hygiene validate` for details:\n{}",
                lines.join("\n")
            ),
        });
    }
    crate::error::parse_json(&path.display().to_string(), &bytes)
}
