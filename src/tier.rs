//! The one function that yields a safety tier.
//!
//! Everything that needs a tier — finalize, validate, apply's live re-check, sweep, the
//! published policy — calls [`derive_safety_tier`]; no other code constructs
//! `SafetyTier::Auto` (invariant 2, enforced by `tests/invariants.rs`). A model never assigns a
//! tier: drafts have no tier field and are parsed with unknown fields denied (invariant 3).

use crate::report::{OpType, SafetyTier};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// What proves that a lifecycle document has served.
///
/// The split that matters is [`Evidence::scanner_proven`]: only facts the helper can re-check
/// itself (a path that exists, an age and a rank) may let a deletion run without a prompt.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Evidence {
    /// The rule's `served_when_path` exists now.
    ServedWhenPathSatisfied,
    /// The rule's `served_when_path` does not exist (any more).
    ServedWhenPathMissing,
    /// A temporary rule's retain-recent rank and age computation.
    TemporaryAge,
    /// A model judged the rule's `served_when` question.
    ClassifierJudged,
}

impl Evidence {
    /// Every value, in the order the policy publishes them.
    pub const ALL: [Evidence; 4] = [
        Evidence::ServedWhenPathSatisfied,
        Evidence::ServedWhenPathMissing,
        Evidence::TemporaryAge,
        Evidence::ClassifierJudged,
    ];

    /// True for evidence the helper computed and can re-verify.
    ///
    /// ```
    /// use hygiene::tier::Evidence;
    /// assert!(Evidence::ServedWhenPathSatisfied.scanner_proven());
    /// assert!(Evidence::TemporaryAge.scanner_proven());
    /// assert!(!Evidence::ClassifierJudged.scanner_proven());
    /// assert!(!Evidence::ServedWhenPathMissing.scanner_proven());
    /// ```
    pub fn scanner_proven(self) -> bool {
        matches!(
            self,
            Evidence::ServedWhenPathSatisfied | Evidence::TemporaryAge
        )
    }
}

/// The live git state of a lifecycle op's path.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
pub struct GitState {
    /// The path is tracked by git (for a directory: every file in it is).
    pub tracked: bool,
    /// The worktree at the path equals the index and HEAD (no local edits).
    pub clean: bool,
}

impl GitState {
    /// Tracked and clean: the only state in which git history holds every byte a delete removes.
    pub fn recoverable(self) -> bool {
        self.tracked && self.clean
    }
}

/// The lifecycle argument: given iff the op is a `delete` or `extract-then-delete`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
pub struct LifecycleArg {
    /// What proves the document served.
    pub evidence: Evidence,
    /// The path's git state at the time of derivation.
    pub git: GitState,
    /// The op writes outside the repository (a `cross-repo` extraction), where the helper can
    /// neither guard nor undo what it writes.
    pub leaves_repo: bool,
}

/// Derives an op's safety tier.
///
/// Non-lifecycle ops (`lifecycle` is `None`) are `auto` only when deterministic, non-destructive
/// and reversible. Lifecycle ops are `auto` only when deterministic, the evidence is
/// scanner-proven, the path is tracked and clean, and nothing is written outside the
/// repository, whatever `is_destructive` and `is_reversible` say (git history is their recovery
/// path). Everything else is `confirm`.
///
/// ```
/// use hygiene::report::{OpType::*, SafetyTier::*};
/// use hygiene::tier::{derive_safety_tier, Evidence, GitState, LifecycleArg};
///
/// // move-to-archive: deterministic, non-destructive, reversible
/// assert_eq!(derive_safety_tier(Deterministic, false, true, None), Auto);
/// // delete-range: destructive and irreversible
/// assert_eq!(derive_safety_tier(Deterministic, true, false, None), Confirm);
/// // any generative op
/// assert_eq!(derive_safety_tier(Generative, false, true, None), Confirm);
///
/// let clean = GitState { tracked: true, clean: true };
/// let proven = LifecycleArg { evidence: Evidence::ServedWhenPathSatisfied, git: clean, leaves_repo: false };
/// assert_eq!(derive_safety_tier(Deterministic, true, true, Some(proven)), Auto);
/// let judged = LifecycleArg { evidence: Evidence::ClassifierJudged, ..proven };
/// assert_eq!(derive_safety_tier(Deterministic, true, true, Some(judged)), Confirm);
/// let dirty = LifecycleArg { git: GitState { tracked: true, clean: false }, ..proven };
/// assert_eq!(derive_safety_tier(Deterministic, true, true, Some(dirty)), Confirm);
/// let cross_repo = LifecycleArg { leaves_repo: true, ..proven };
/// assert_eq!(derive_safety_tier(Deterministic, true, true, Some(cross_repo)), Confirm);
/// ```
pub fn derive_safety_tier(
    op_type: OpType,
    is_destructive: bool,
    is_reversible: bool,
    lifecycle: Option<LifecycleArg>,
) -> SafetyTier {
    if op_type == OpType::Generative {
        return SafetyTier::Confirm;
    }
    let objective = match lifecycle {
        None => !is_destructive && is_reversible,
        Some(arg) => arg.evidence.scanner_proven() && arg.git.recoverable() && !arg.leaves_repo,
    };
    if objective {
        SafetyTier::Auto
    } else {
        SafetyTier::Confirm
    }
}

/// Whether a derived tier lets an op run without a prompt (for callers that must not name a
/// tier value themselves: only this module does).
pub fn is_auto(tier: SafetyTier) -> bool {
    tier == SafetyTier::Auto
}

/// One row of the published truth table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct TierRow {
    /// The op type.
    pub op_type: OpType,
    /// The op's destructiveness.
    pub is_destructive: bool,
    /// The op's reversibility.
    pub is_reversible: bool,
    /// The lifecycle argument; absent (null) for a non-lifecycle op.
    pub lifecycle: Option<LifecycleArg>,
    /// What [`derive_safety_tier`] returns for these inputs.
    pub safety_tier: SafetyTier,
}

/// Every input combination of [`derive_safety_tier`] with its result, computed by calling it.
///
/// ```
/// use hygiene::tier::{derive_safety_tier, truth_table};
/// let rows = truth_table();
/// assert_eq!(rows.len(), 2 * 2 * 2 * (1 + 4 * 2 * 2 * 2));
/// for r in &rows {
///     assert_eq!(r.safety_tier, derive_safety_tier(r.op_type, r.is_destructive, r.is_reversible, r.lifecycle));
/// }
/// ```
pub fn truth_table() -> Vec<TierRow> {
    let mut lifecycles: Vec<Option<LifecycleArg>> = vec![None];
    for evidence in Evidence::ALL {
        for tracked in [true, false] {
            for clean in [true, false] {
                for leaves_repo in [false, true] {
                    let git = GitState { tracked, clean };
                    lifecycles.push(Some(LifecycleArg {
                        evidence,
                        git,
                        leaves_repo,
                    }));
                }
            }
        }
    }
    let mut rows = Vec::new();
    for op_type in [OpType::Deterministic, OpType::Generative] {
        for is_destructive in [false, true] {
            for is_reversible in [true, false] {
                for &lifecycle in &lifecycles {
                    rows.push(TierRow {
                        op_type,
                        is_destructive,
                        is_reversible,
                        lifecycle,
                        safety_tier: derive_safety_tier(
                            op_type,
                            is_destructive,
                            is_reversible,
                            lifecycle,
                        ),
                    });
                }
            }
        }
    }
    rows
}

/// The evidence a lifecycle object offers. `served_when_path_exists` is asked only for a
/// `served_when_path`; the validator, which has no tree, passes `|_| true`, finalize and apply
/// pass a live existence check.
///
/// ```
/// use hygiene::report::{Lifecycle, Lifetime};
/// use hygiene::tier::{evidence_of, Evidence};
/// let plan = Lifecycle { rule_ref: "plans".into(), lifetime: Lifetime::DeleteOnceServed,
///     served_when_path: Some("docs/plans/x.done".into()), served_when: None };
/// assert_eq!(evidence_of(&plan, |_| true), Evidence::ServedWhenPathSatisfied);
/// assert_eq!(evidence_of(&plan, |_| false), Evidence::ServedWhenPathMissing);
/// ```
pub fn evidence_of(
    lifecycle: &crate::report::Lifecycle,
    served_when_path_exists: impl Fn(&str) -> bool,
) -> Evidence {
    use crate::report::Lifetime;
    match (
        lifecycle.lifetime,
        &lifecycle.served_when_path,
        &lifecycle.served_when,
    ) {
        (Lifetime::Temporary, None, None) => Evidence::TemporaryAge,
        (Lifetime::DeleteOnceServed, Some(p), None) => {
            if served_when_path_exists(p) {
                Evidence::ServedWhenPathSatisfied
            } else {
                Evidence::ServedWhenPathMissing
            }
        }
        // A `served_when` question, a `keep` rule, or a malformed object: only a person decides.
        _ => Evidence::ClassifierJudged,
    }
}

/// The lifecycle argument for an exact edit: `Some` iff its kind is a lifecycle kind, built from
/// the edit's lifecycle object (a lifecycle kind without one gets the most conservative
/// evidence), the given git state and whether the op writes outside the repository.
pub fn lifecycle_arg(
    edit: &crate::report::ExactEdit,
    git: GitState,
    served_when_path_exists: impl Fn(&str) -> bool,
) -> Option<LifecycleArg> {
    if !crate::kinds::rule(edit.kind).lifecycle {
        return None;
    }
    let evidence = edit
        .lifecycle
        .as_ref()
        .map(|lc| evidence_of(lc, served_when_path_exists))
        .unwrap_or(Evidence::ClassifierJudged);
    let leaves_repo = edit.extraction_target == Some(crate::report::ExtractionTarget::CrossRepo);
    Some(LifecycleArg {
        evidence,
        git,
        leaves_repo,
    })
}
