//! hygiene keeps the documents coding agents read true and lean.
//!
//! The helper does everything deterministic in the `/hygiene:check`, `/hygiene:clean` and
//! `/hygiene:sweep` flows: it scans a repository for objective signals of stale or bloated
//! agent documents, turns a model's judgement (drafts) into the machine report, derives every
//! safety tier, and applies edits under guards that refuse anything changed since the check.
//!
//! The modules are the architecture:
//! - [`report`]: the frozen report contract (types only); [`schema`] generates its JSON Schema.
//! - [`tier`]: [`tier::derive_safety_tier`], the one function that yields a tier.
//! - [`kinds`]: the exact-edit kind table.
//! - [`validate`]: the schema validator (`hygiene validate`).
//! - [`policy`]: the published rules, projected from the tables above.
//! - [`scan`]: the deterministic scanner; each signal detector is one file behind one trait.
//! - [`lifecycle`]: the rulebook and lifecycle evaluation (`hygiene sweep`).
//! - [`finalize`] and [`summary`]: drafts to report, and what it is worth; [`check`]: the
//!   model-free check for CI; [`triage`]: the model's bill (what the model reads, and how
//!   much, in one `/hygiene:check`).
//! - [`apply`]: guarded apply and undo.
//! - [`hook`]: the tool-call hook that reports the references a rename or delete just broke.
//! - [`git`], [`paths`], [`fingerprint`], [`tokens`], [`time`]: the facts everything else stands on;
//!   [`fsio`] and [`state`]: every write, and the helper's own `.hygiene/` folder.
//! - [`cli`]: the thin command-line shell.
#![deny(missing_docs)]

pub mod apply;
pub mod check;
pub mod cli;
pub mod error;
pub mod finalize;
pub mod fingerprint;
pub mod fsio;
pub mod git;
pub mod hook;
pub mod kinds;
pub mod lifecycle;
pub mod paths;
pub mod policy;
pub mod protect;
pub mod readers;
pub mod reference;
pub mod report;
pub mod roles;
pub mod scan;
pub mod schema;
pub mod seal;
pub mod state;
pub mod summary;
pub mod tier;
pub mod time;
pub mod tokens;
pub mod triage;
pub mod validate;

pub use error::{Error, Result};

/// The helper's version, written into every scan and report.
pub const TOOL_VERSION: &str = env!("CARGO_PKG_VERSION");
