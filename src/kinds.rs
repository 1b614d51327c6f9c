//! The exact-edit kind table: what each kind must carry and how it is characterized.
//!
//! One row per [`EditKind`], in one `const` table. The validator, finalize, apply and the
//! published policy all read this table; none of them restates a kind's fields or
//! characterization.

use crate::report::{Anchor, EditKind, ExactEdit, ExtractionTarget};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// A field of [`ExactEdit`] other than `kind` and `expected_sha256`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Field {
    /// A 1-based inclusive line range (`start_line`, `end_line`).
    AnchorLines,
    /// A whole-file or whole-directory anchor (`{"whole": ...}`).
    AnchorWhole,
    /// `dest_path`.
    DestPath,
    /// `key`.
    Key,
    /// `value`.
    Value,
    /// `match`.
    Match,
    /// `replacement`.
    Replacement,
    /// `canonical_ref`.
    CanonicalRef,
    /// `lifecycle`.
    Lifecycle,
    /// `extraction_target`.
    ExtractionTarget,
    /// `target_path` (required only for a `repo-durable` extraction).
    TargetPath,
}

impl Field {
    /// The JSON name of the field as it appears in `exact_edit`.
    pub fn json_name(self) -> &'static str {
        match self {
            Field::AnchorLines | Field::AnchorWhole => "anchor",
            Field::DestPath => "dest_path",
            Field::Key => "key",
            Field::Value => "value",
            Field::Match => "match",
            Field::Replacement => "replacement",
            Field::CanonicalRef => "canonical_ref",
            Field::Lifecycle => "lifecycle",
            Field::ExtractionTarget => "extraction_target",
            Field::TargetPath => "target_path",
        }
    }

    /// Whether `edit` carries this field in this field's form.
    pub fn present(self, edit: &ExactEdit) -> bool {
        match self {
            Field::AnchorLines => matches!(edit.anchor, Some(Anchor::Lines(_))),
            Field::AnchorWhole => matches!(edit.anchor, Some(Anchor::Whole(_))),
            Field::DestPath => edit.dest_path.is_some(),
            Field::Key => edit.key.is_some(),
            Field::Value => edit.value.is_some(),
            Field::Match => edit.match_text.is_some(),
            Field::Replacement => edit.replacement.is_some(),
            Field::CanonicalRef => edit.canonical_ref.is_some(),
            Field::Lifecycle => edit.lifecycle.is_some(),
            Field::ExtractionTarget => edit.extraction_target.is_some(),
            Field::TargetPath => edit.target_path.is_some(),
        }
    }

    /// Every field, for checking that a kind carries none it does not own.
    pub const ALL: [Field; 11] = [
        Field::AnchorLines,
        Field::AnchorWhole,
        Field::DestPath,
        Field::Key,
        Field::Value,
        Field::Match,
        Field::Replacement,
        Field::CanonicalRef,
        Field::Lifecycle,
        Field::ExtractionTarget,
        Field::TargetPath,
    ];
}

/// How an op's reversibility is known.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Reversibility {
    /// Fixed by the kind.
    Fixed(bool),
    /// Git history is the only recovery path: reversible iff the path is tracked and clean
    /// when the tier is derived.
    GitHistory,
}

/// One row of the kind table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
pub struct KindRule {
    /// The kind.
    pub kind: EditKind,
    /// Fields the kind must carry.
    pub required: &'static [Field],
    /// Fields the kind may carry besides the required ones.
    pub optional: &'static [Field],
    /// Whether the op removes information preserved nowhere else in the repository.
    pub is_destructive: bool,
    /// Whether the op can be undone from what the repository keeps.
    pub reversibility: Reversibility,
    /// Whether the tier also consults the lifecycle argument (evidence and git state).
    pub lifecycle: bool,
    /// Why the kind is characterized so.
    pub why: &'static str,
}

/// The kind table, one row per [`EditKind`] in declaration order.
///
/// ```
/// use hygiene::kinds::{rule, KINDS, Reversibility};
/// use hygiene::report::EditKind;
/// assert_eq!(KINDS.len(), 7);
/// // delete-range is the one non-lifecycle kind that loses information
/// let dr = rule(EditKind::DeleteRange);
/// assert!(dr.is_destructive && dr.reversibility == Reversibility::Fixed(false));
/// // a dedupe removes nothing that is not kept verbatim at canonical_ref
/// assert!(!rule(EditKind::Dedupe).is_destructive);
/// // lifecycle kinds depend on git history
/// assert!(rule(EditKind::Delete).lifecycle && rule(EditKind::ExtractThenDelete).lifecycle);
/// ```
pub const KINDS: [KindRule; 7] = [
    KindRule {
        kind: EditKind::DeleteRange,
        required: &[Field::AnchorLines],
        optional: &[],
        is_destructive: true,
        reversibility: Reversibility::Fixed(false),
        lifecycle: false,
        why: "removes lines kept nowhere else",
    },
    KindRule {
        kind: EditKind::MoveToArchive,
        required: &[Field::AnchorLines, Field::DestPath],
        optional: &[],
        is_destructive: false,
        reversibility: Reversibility::Fixed(true),
        lifecycle: false,
        why: "the lines survive verbatim in the archive document",
    },
    KindRule {
        kind: EditKind::InsertFrontmatter,
        required: &[Field::Key, Field::Value],
        optional: &[],
        is_destructive: false,
        reversibility: Reversibility::Fixed(true),
        lifecycle: false,
        why: "only adds a frontmatter line",
    },
    KindRule {
        kind: EditKind::ReplaceText,
        required: &[Field::AnchorLines, Field::Match, Field::Replacement],
        optional: &[],
        is_destructive: false,
        reversibility: Reversibility::Fixed(true),
        lifecycle: false,
        why: "a recorded string swap inside a line range; the match text is kept in the report",
    },
    KindRule {
        kind: EditKind::Dedupe,
        required: &[Field::AnchorLines, Field::CanonicalRef],
        optional: &[],
        is_destructive: false,
        reversibility: Reversibility::Fixed(true),
        lifecycle: false,
        why: "the removed span is preserved verbatim at canonical_ref",
    },
    KindRule {
        kind: EditKind::Delete,
        required: &[Field::AnchorWhole, Field::Lifecycle],
        optional: &[],
        is_destructive: true,
        reversibility: Reversibility::GitHistory,
        lifecycle: true,
        why: "removes the whole file or directory; git history is the only recovery path",
    },
    KindRule {
        kind: EditKind::ExtractThenDelete,
        required: &[
            Field::AnchorLines,
            Field::Lifecycle,
            Field::ExtractionTarget,
        ],
        optional: &[Field::TargetPath],
        is_destructive: true,
        reversibility: Reversibility::GitHistory,
        lifecycle: true,
        why: "keeps the anchored span elsewhere, then deletes the document like delete",
    },
];

/// The row for `kind`.
pub fn rule(kind: EditKind) -> &'static KindRule {
    KINDS
        .iter()
        .find(|r| r.kind == kind)
        .expect("KINDS has a row for every EditKind (tested)")
}

/// A problem with an exact edit's fields, as the kind table sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FieldProblem {
    /// A required field is absent (or present in the wrong anchor form).
    Missing(Field),
    /// A field the kind does not own is present.
    Foreign(Field),
}

/// Fields whose presence depends on another field's value, as `hygiene policy` publishes them;
/// [`field_problems`] enforces each.
pub const CONDITIONAL_FIELDS: &[&str] = &[
    "extract-then-delete: `target_path` is required when `extraction_target` is `repo-durable` (where in the repository the span goes) and optional for `cross-repo` (the outside file is named at apply time with --extract-to)",
    "delete: a `{\"whole\": \"directory\"}` anchor only on a directory-rule aggregate entry, whose `path` is the directory",
];

/// Checks `edit`'s fields against its kind's row; an empty result means they conform.
///
/// ```
/// use hygiene::kinds::{field_problems, Field, FieldProblem};
/// use hygiene::report::*;
/// let mut e: ExactEdit = serde_json::from_str(
///     r#"{"kind":"replace-text","anchor":{"start_line":3,"end_line":3},"match":"a"}"#).unwrap();
/// assert_eq!(field_problems(&e), vec![FieldProblem::Missing(Field::Replacement)]);
/// e.replacement = Some("b".into());
/// assert!(field_problems(&e).is_empty());
/// ```
pub fn field_problems(edit: &ExactEdit) -> Vec<FieldProblem> {
    let row = rule(edit.kind);
    let mut problems = Vec::new();
    for &f in row.required {
        if !f.present(edit) {
            problems.push(FieldProblem::Missing(f));
        }
    }
    // A repo-durable extraction needs to know where the span goes.
    if edit.kind == EditKind::ExtractThenDelete
        && edit.extraction_target == Some(ExtractionTarget::RepoDurable)
        && edit.target_path.is_none()
    {
        problems.push(FieldProblem::Missing(Field::TargetPath));
    }
    for f in Field::ALL {
        let owned = row.required.contains(&f) || row.optional.contains(&f);
        // The two anchor forms share one JSON field; a wrong form is reported as missing.
        let anchor_twin = matches!(f, Field::AnchorLines | Field::AnchorWhole)
            && row
                .required
                .iter()
                .any(|r| matches!(r, Field::AnchorLines | Field::AnchorWhole));
        if !owned && !anchor_twin && f.present(edit) {
            problems.push(FieldProblem::Foreign(f));
        }
    }
    problems
}

/// An edit of `kind` with no fields set, to fill with struct-update syntax (`..empty_edit(k)`).
pub fn empty_edit(kind: EditKind) -> ExactEdit {
    ExactEdit {
        kind,
        anchor: None,
        dest_path: None,
        key: None,
        value: None,
        match_text: None,
        replacement: None,
        canonical_ref: None,
        lifecycle: None,
        extraction_target: None,
        target_path: None,
        expected_sha256: None,
    }
}

/// Why a `replace-text` is not the substitution its characterization assumes, if it is not.
///
/// `replace-text` derives `auto` because it swaps one reference for another inside a line and
/// keeps the old text in the report; an edit that deletes text, spans lines or rewrites prose
/// changes what the document says and must ask. So its anchor is one line, its `match` and
/// `replacement` are references of one kind ([`crate::reference::form_problem`]); whether the
/// swap repairs a broken reference is checked against the tree by finalize and apply
/// ([`crate::reference::swap_problem`]).
///
/// ```
/// use hygiene::kinds::{empty_edit, replace_text_problem};
/// use hygiene::report::{Anchor, EditKind, LineRange};
/// let mut e = empty_edit(EditKind::ReplaceText);
/// e.anchor = Some(Anchor::Lines(LineRange { start_line: 3, end_line: 3 }));
/// e.match_text = Some("src/old.rs".into());
/// e.replacement = Some("src/new.rs".into());
/// assert_eq!(replace_text_problem(&e), None);
/// e.replacement = Some("".into());
/// assert!(replace_text_problem(&e).is_some());
/// e.replacement = Some("x".into());
/// e.match_text = Some("line one\nline two".into());
/// assert!(replace_text_problem(&e).is_some());
/// // prose is not a reference: "Never" -> "Always" asks
/// e.match_text = Some("Never".into());
/// e.replacement = Some("Always".into());
/// assert!(replace_text_problem(&e).is_some());
/// ```
pub fn replace_text_problem(edit: &ExactEdit) -> Option<String> {
    if edit.kind != EditKind::ReplaceText {
        return None;
    }
    let m = edit.match_text.as_deref().unwrap_or("");
    let r = edit.replacement.as_deref().unwrap_or("");
    if m.is_empty() || m.contains(['\n', '\r']) || r.contains(['\n', '\r']) {
        return Some("a replace-text swaps text within one line; `match` and `replacement` are single lines and `match` is not empty".into());
    }
    if r.trim().is_empty() {
        return Some("a replace-text with a blank replacement deletes text; use delete-range, which asks the user".into());
    }
    if let Some(Anchor::Lines(l)) = edit.anchor {
        if l.start_line != l.end_line {
            return Some(format!(
                "a replace-text's anchor is the one line it changes, not lines {}-{}",
                l.start_line, l.end_line
            ));
        }
    }
    crate::reference::form_problem(m, r)
}
