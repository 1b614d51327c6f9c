//! The published rules: `hygiene policy`.
//!
//! A caller (the skills, a CI job, a curious user) reads the decision instead of inferring it
//! from reports. Every part is a projection of the table the code runs on — the tier truth table
//! is computed by calling [`crate::tier::derive_safety_tier`], the kinds are
//! [`crate::kinds::KINDS`], the categories are read off the report schema generated from the
//! types, the validation rules are [`crate::validate::RULES`] — so it holds no rule of its own
//! and cannot drift from what runs. `tests/contract.rs` asserts each part equals the code.

use crate::finalize::Convention;
use crate::kinds::{Field, Reversibility, KINDS};
use crate::report::{EditKind, InjectionFrequency};
use crate::tier::TierRow;
use schemars::JsonSchema;
use serde::Serialize;
use serde_json::Value;

/// The format of this answer; bumped when a field changes meaning.
pub const POLICY_SCHEMA: u32 = 1;

/// The helper's published rules.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct Policy {
    /// The format of this answer.
    pub schema: u32,
    /// The report contract version the helper writes and accepts.
    pub report_schema_version: u32,
    /// The helper's version.
    pub tool_version: &'static str,
    /// Every input combination of `derive_safety_tier`, with its result.
    pub tiers: Vec<TierRow>,
    /// Each exact-edit kind: required fields and characterization.
    pub kinds: Vec<KindPolicy>,
    /// The closed category taxonomy.
    pub categories: Vec<CategoryPolicy>,
    /// The rules `hygiene validate` applies, by name.
    pub validation_rules: &'static [crate::validate::Rule],
    /// The rules finalize applies to drafts, by name (a draft error names one).
    pub finalize_rules: &'static [crate::validate::Rule],
    /// The guards apply runs, in order.
    pub apply_guards: &'static [crate::apply::Guard],
    /// Where hygiene may write: the write table and its lists.
    pub writes: WritePolicy,
    /// Fields whose presence depends on another field's value.
    pub conditional_fields: &'static [&'static str],
    /// How token savings are weighted by injection frequency.
    pub token_weighting: Vec<Weighting>,
    /// The tokenizer every count uses.
    pub encoding: &'static str,
    /// The conventions finalize may recommend.
    pub conventions: Vec<Convention>,
    /// The lifecycle rulebook that governs this repository: the shipped defaults merged with its
    /// `.hygiene/rulebook.json`, each rule with its source (`--root`; the defaults alone when the
    /// repository's rulebook cannot be read, with the reason in `rulebook_error`).
    pub rulebook: Value,
    /// Why the repository's rulebook could not be merged, when it could not.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rulebook_error: Option<String>,
    /// The shipped default rulebook (`rulebook.default.json`).
    pub default_rulebook: Value,
    /// The signal kinds the scanner emits, with their facts and fields.
    pub signals: Vec<crate::scan::SignalRule>,
    /// The scanner's thresholds.
    pub thresholds: crate::scan::Thresholds,
    /// What the scanner reads and how it decides.
    pub scanner: ScannerPolicy,
    /// Who reads which document, and the rule every dedupe passes.
    pub readers: ReaderPolicy,
    /// What each document is to its readers, and what each role may draw and take.
    pub roles: RolePolicy,
    /// The model's bill: the budget of evidence per run, the ranking, what each signal shows
    /// the model, what is settled without it and what carries between runs (`hygiene triage`).
    pub bill: crate::triage::BillPublished,
    /// Exit codes of every command.
    pub exit_codes: Vec<ExitCode>,
}

/// The scanner's scope, word lists and load-class rules.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct ScannerPolicy {
    /// Globs selecting documents when neither flags nor the rulebook set them.
    pub default_scope: &'static [&'static str],
    /// Folder names never descended into.
    pub default_excluded_dirs: &'static [&'static str],
    /// Which copy of a duplicate is kept, first rule that decides wins.
    pub canonical_copy_rule: &'static [&'static str],
    /// Files Claude Code loads at every session start (plus their `@import`s).
    pub per_session_files: &'static [&'static str],
    /// The rules folder loaded every session (rules without a `paths:` frontmatter).
    pub per_session_rules_dir: &'static str,
    /// How many `@import` hops are followed.
    pub import_depth: usize,
    /// Words that make a status line `status-done`.
    pub done_words: &'static [&'static str],
    /// Words that make a `superseded-marker`.
    pub superseded_words: &'static [&'static str],
    /// File names (before the extension, any case) of a deprecation notice left in place of
    /// what it deprecates (`DEPRECATED.md`): it draws no superseded-marker, saying so is its job.
    pub superseded_tombstone_names: &'static [&'static str],
    /// Words that make a `provisional-marker`.
    pub provisional_markers: &'static [&'static str],
    /// The signals a `hygiene: frozen` document never draws.
    pub frozen_exempt_signals: &'static [&'static str],
    /// A block repeated in this many files or more is boilerplate (page templates, versioned
    /// copies, translations, plugin bundles): no duplicate signal.
    pub boilerplate_min_files: usize,
    /// Documentation sites: a link in a site's page that names no file is read as a route
    /// under the site's content folders (`hygiene::scan::sites`).
    pub sites: &'static [crate::scan::sites::SiteRule],
    /// The extensions a route's page may be written in (`.html` in a route reads as one).
    pub site_page_extensions: &'static [&'static str],
    /// The index pages a folder route serves.
    pub site_index_pages: &'static [&'static str],
    /// Files other clients load into every request: per-session too (the load class is per
    /// client), with Cursor rules whose frontmatter says `alwaysApply: true`.
    pub other_clients_every_request: &'static [&'static str],
    /// Cursor's rules folder.
    pub cursor_rules_dir: &'static str,
    /// The signals a document a lifecycle rule governs (a plan, a handoff) never draws.
    pub governed_quiet_signals: &'static [&'static str],
    /// The signals that ask whether a document has served: one that draws a `lifecycle`
    /// signal draws none of them.
    pub lifecycle_asks_signals: &'static [&'static str],
    /// The root documents that present a repository: what they link to is current.
    pub entry_documents: &'static [&'static str],
    /// The names of an agent's instruction files, at any depth: entry documents too.
    pub instruction_files: &'static [&'static str],
    /// The signals a document an entry document links to never draws.
    pub entry_named_quiet_signals: &'static [&'static str],
    /// The signals a document a `keep` rule governs (a README, an ADR) never draws.
    pub kept_quiet_signals: &'static [&'static str],
    /// The signals a document in an example folder never draws.
    pub example_quiet_signals: &'static [&'static str],
    /// The signals a page a docs site publishes never draws (its ticked list is presentation).
    pub site_page_quiet_signals: &'static [&'static str],
    /// Names of a site's pages that hold work (`todo.md`): they still draw those signals.
    pub site_work_page_names: &'static [&'static str],
    /// Folders of design documents (`design/`, `architecture/`), each the record of a design.
    pub design_folders: &'static [&'static str],
    /// The signals a design document never draws (its status is the design's state).
    pub design_quiet_signals: &'static [&'static str],
    /// Folders of drafts (`drafts/`, `wip/`): each page unfinished by where it is kept.
    pub draft_folders: &'static [&'static str],
    /// The signals a draft (in a draft folder, or named `*.draft.md`) never draws.
    pub draft_quiet_signals: &'static [&'static str],
    /// Folders of backup snapshots (`backups/`): each copy frozen when it was taken.
    pub backup_folders: &'static [&'static str],
    /// The signals a backup copy never draws.
    pub backup_quiet_signals: &'static [&'static str],
    /// Folders of posts (`blog/`): each page is written for its day.
    pub post_folders: &'static [&'static str],
    /// The signals a post never draws.
    pub post_quiet_signals: &'static [&'static str],
    /// The signals an agent's prompt (a `SKILL.md`, a page in `commands/` or `agents/`) never
    /// draws.
    pub prompt_quiet_signals: &'static [&'static str],
    /// The file names of an agent's prompt.
    pub prompt_page_names: &'static [&'static str],
    /// The folders whose pages (directly or one folder down) are an agent's prompts.
    pub prompt_page_folders: &'static [&'static str],
    /// The signals that never shortlist a document alone (they ride along on another).
    pub ride_along_signals: &'static [crate::scan::RideAlong],
    /// Folders whose prompts are invoked one at a time: two of them repeating each other draw
    /// no duplicate signal unless a dedupe is allowed.
    pub invoked_alone_folders: &'static [&'static str],
    /// Folders (from the root) of rules loaded only for the paths they are scoped to: with the
    /// invoked-alone folders, where a file read on demand can be `oversize`.
    pub oversize_scoped_rule_dirs: &'static [&'static str],
    /// Folders whose children are standalone example projects: no duplicate between two.
    pub example_folders: &'static [&'static str],
    /// Migration guides and what's-new pages, which name old APIs on purpose.
    pub change_pages: &'static [&'static str],
    /// The signals those pages never draw.
    pub change_page_quiet_signals: &'static [&'static str],
    /// Files that make their folder a package's root: a document inside names paths from there.
    pub package_manifests: &'static [&'static str],
    /// Words that make a path segment a made-up name (`my_agent/`): no missing-path.
    pub placeholder_path_words: &'static [&'static str],
    /// A camel-case name's first words that make it made up (`xxxDispatcher.ts`): no
    /// missing-path.
    pub placeholder_camel_words: &'static [&'static str],
    /// Words that open a fill-in template's bracketed instruction ("[CONTINUE WITH SECTIONS
    /// 5-8 ...]"): such a page's fragments into itself name sections its user writes.
    pub fill_in_words: &'static [&'static str],
    /// Source extensions of one language (`ts`, `tsx`, ...): a missing file in a language the
    /// tree has no file of, while it has source, is another codebase's.
    pub source_language_families: &'static [&'static [&'static str]],
    /// Segment names that stand for the reader's own (`src/package_name/`): no missing-path.
    pub placeholder_path_names: &'static [&'static str],
    /// Endings of a name in snake case that stand for the reader's own (`EventNameHere`).
    pub placeholder_name_endings: &'static [&'static str],
    /// Capitalised words that make a path a pattern (`0.MINOR.x`), matched as written.
    pub placeholder_version_words: &'static [&'static str],
    /// How many rooted links into folders the repository lacks make a `.md` document outside a
    /// site a copy of another site's pages, whose rooted links are that site's routes.
    pub foreign_routes_min: usize,
    /// Words before a marker, and after it, that make it a noun of the sentence ("or TODO",
    /// "TODO lists"): no provisional-marker.
    pub marker_subject_words: (&'static [&'static str], &'static [&'static str]),
    /// Words that, in the clause before a marker, make the sentence a rule about the word
    /// ("do not leave a TBD"): no provisional-marker.
    pub marker_negations: &'static [&'static str],
    /// Marks before a marker that say its item is done ("- ✅ TODO: tests"): no
    /// provisional-marker.
    pub marker_done_marks: &'static [char],
    /// Words by which a supersession notice says the document is kept on purpose ("Kept as the
    /// historical record"): no superseded-marker.
    pub superseded_kept_words: &'static [&'static str],
    /// Folders of an API's reference pages: a "Deprecated." at a page's head there is the
    /// API's, while it ships: no superseded-marker.
    pub superseded_reference_folders: &'static [&'static str],
    /// Words of a file name or title that make a document a list kept with its items' states
    /// (a roadmap, an audit): no resolved-narrative.
    pub resolved_tracker_words: &'static [&'static str],
    /// Verbs by which a document says it keeps its history ("stands as historical context"):
    /// no resolved-narrative.
    pub resolved_history_kept_verbs: &'static [&'static str],
    /// Words by which a resolved item's own paragraph says it is kept where it stands
    /// ("Recorded here as the case study that motivated ..."): no resolved-narrative.
    pub resolved_kept_here_words: &'static [&'static str],
    /// Words of a section heading under which a resolved item is an answered question or a
    /// decision, not an incident: no `resolved-narrative` from it.
    pub resolved_answered_section_words: &'static [&'static str],
    /// Words one of which a document must use for a resolution heading to mark a resolved
    /// write-up.
    pub incident_words: &'static [&'static str],
    /// Words after which a source file defines a name: a capitalised qualifier of a checked
    /// symbol must be defined, not only imported.
    pub symbol_defining_words: &'static [&'static str],
    /// Words before a name by which a line refuses or retires it: never a drift's evidence.
    pub drift_refusing_words: &'static [&'static str],
    /// Literals that are never a drift's evidence.
    pub drift_literals: &'static [&'static str],
    /// Files a package manager writes: never a file a document describes.
    pub drift_lockfiles: &'static [&'static str],
    /// Words right before a path that make it the reader's file ("your `.tool/config.json`"):
    /// never a file the document describes.
    pub drift_readers_words: &'static [&'static str],
    /// The opening and close of the line an agent's `/init` writes atop an instruction file:
    /// never a duplicate block.
    pub duplicate_stock_header: (&'static str, &'static str),
    /// Words of a marker comment that open and close a block a tool manages (`<!-- OMC:START
    /// -->` .. `<!-- OMC:END -->`): a copy inside one is no duplicate block, and no auto edit
    /// touches one.
    pub managed_block_words: (&'static [&'static str], &'static [&'static str]),
    /// Words on a reference's line that make a missing path not this repository's claim.
    pub missing_path_line_cues: &'static [crate::scan::detectors::missing_path::LineCue],
    /// Labels that make a line an example ("✅ Right:", "❌ Wrong:").
    pub missing_path_example_labels: &'static [&'static str],
    /// Words in a table column's header that plan its paths ("Target Location").
    pub missing_path_plan_columns: &'static [&'static str],
    /// Words of a table column's header that make its paths replaced ones ("Old Command").
    pub missing_path_record_columns: &'static [&'static str],
    /// Words of a document's file or folder names that make it a plan: a file it names that
    /// history never knew is one it means to create.
    pub missing_path_plan_document_words: &'static [&'static str],
    /// Whole file names (without extension) that make a document a plan (`spec.md`).
    pub missing_path_plan_document_names: &'static [&'static str],
    /// Extensions of the programs beside a page whose quoting of its name makes it their
    /// input (its links and anchors are its source's).
    pub missing_path_reader_extensions: &'static [&'static str],
    /// Words before a path in a plan that make it a claim ("Existing tests: `a.ts`").
    pub missing_path_plan_claim_words: &'static [&'static str],
    /// Words in a table column's header that make its paths examples ("Pattern Example").
    pub missing_path_example_columns: &'static [&'static str],
    /// Source files whose members a dotted code name reaches (`pkg/mod.func` of `pkg/mod.py`).
    pub missing_path_member_sources: &'static [&'static str],
    /// Names of files agents read by convention (`CLAUDE.md`): in code, the convention's name.
    pub missing_path_convention_names: &'static [&'static str],
    /// Files where an agent client reads a project's configuration (`.claude/settings.json`):
    /// in code, the reader's project's file.
    pub missing_path_client_config_paths: &'static [&'static str],
    /// Files a tool creates and deletes as its mode changes (`.changeset/pre.json`): in code,
    /// a mention is of that state.
    pub missing_path_tool_state_paths: &'static [&'static str],
    /// Folders of test cases inside a test folder (and any `*_suite/`): their pages are inputs.
    pub missing_path_test_case_folders: &'static [&'static str],
    /// HTML entity names a site generator keeps in a heading's slug (`&mdash;` as `mdash`).
    pub anchor_entity_words: &'static [&'static str],
    /// Characters GitHub's slug drops that other renderers keep: a fragment holding one is
    /// compared by its letters and digits.
    pub anchor_punctuation_kept_elsewhere: &'static [char],
    /// Site generators whose slugs fold accents (`#inclusion` for "inclusión").
    pub anchor_accent_folding_generators: &'static [&'static str],
    /// Folders holding a project template: a path in code that is there under one (or under
    /// one of its children) names the generated project's file, not a missing one.
    pub missing_path_template_folders: &'static [&'static str],
    /// Folders holding code generators, each of whose `files/` folder is a template of the
    /// files the generator writes.
    pub missing_path_generator_folders: &'static [&'static str],
    /// Suffixes of a template file beyond the name of the file it writes.
    pub missing_path_template_suffixes: &'static [&'static str],
    /// Folders whose test data documents are a test's inputs: a path history never knew in
    /// them is their source's link, not a missing file.
    pub missing_path_test_input_folders: &'static [&'static str],
    /// Words in a list's lead-in line that make its paths outputs or intentions.
    pub missing_path_lead_in_cues: &'static [crate::scan::detectors::missing_path::LeadInCue],
    /// Folders TypeDoc writes a page per declaration into: a site route through one is
    /// generated where a TypeDoc configuration is.
    pub typedoc_kind_folders: &'static [&'static str],
    /// TypeDoc configuration files.
    pub typedoc_configs: &'static [&'static str],
    /// Languages a page may be published in (`intro-js.md`): a relative link to `intro.md`
    /// names the reader's variant.
    pub language_variant_suffixes: &'static [&'static str],
    /// Status words of a row in a folder's index (`README.md`) that keep the plan it lists:
    /// not served, whatever its age or a model's reading.
    pub lifecycle_open_status_words: &'static [&'static str],
    /// Names of a tracker beside a folder's plans (`STATUS.md`): not served while one of its
    /// items is open (an unchecked box, a row whose status is one of
    /// `lifecycle_open_status_words`).
    pub lifecycle_tracker_names: &'static [&'static str],
    /// Frontmatter fields (`key`, value prefix) of a plan written by a tool whose plans are
    /// kept records (compound-engineering's `artifact_contract: ce-unified-plan/v1`): no plan in
    /// its folder is asked about.
    pub lifecycle_kept_plan_contracts: &'static [(&'static str, &'static str)],
    /// Components whose title is also an anchor (`<Accordion title="How do I check?">`).
    pub titled_anchor_components: &'static [&'static str],
    /// Feeds a site writes for a section of pages (`/blog/feed.xml`).
    pub site_feed_names: &'static [&'static str],
    /// Characters a site's slug spells out at the start of a page's name (`$fetch.md` at
    /// `/dollarfetch`), as `[word, character]`.
    pub site_spelled_out: &'static [(&'static str, &'static str)],
    /// Words in a status line that keep it from saying a plan has served ("pending",
    /// "retained as the design record").
    pub status_unfinished_words: &'static [&'static str],
    /// Extensions of source languages that qualify names with `::`: a `::` name is checked
    /// only in a repository with such source.
    pub colon_path_languages: &'static [&'static str],
    /// Dot-folders of the repository's own hosting and CI, whose files are always its own.
    pub missing_path_host_dot_folders: &'static [&'static str],
    /// Code hosts whose URLs name a repository: a backticked path linking another
    /// repository's file there (or any other site's) is not this repository's claim.
    pub missing_path_code_hosts: &'static [&'static str],
    /// Folders a rename into which retires a file: reported, no edit proposed.
    pub missing_path_retired_folders: &'static [&'static str],
    /// Words in a list's section heading that make its items' paths recorded removals.
    pub missing_path_section_cues: &'static [crate::scan::detectors::missing_path::LeadInCue],
    /// Whole words of a list's lead-in ("Move detailed content to references/:") that make the
    /// path an item's arrow points at a place content is to go.
    pub missing_path_move_lead_in_words: &'static [&'static str],
    /// Words of a step that checks out another branch or tag ("Clone branch `v0.2.36`"): the
    /// paths the rest of its section names are that checkout's.
    pub missing_path_checkout_cues: &'static [&'static str],
    /// Endings of a file name that make it a template of another file: a path git renamed to
    /// one is the user's copy of it.
    pub missing_path_template_name_endings: &'static [&'static str],
    /// Endings of a template that renders the file of its stem (`flow.dag.yaml.jinja2`): a
    /// file so named that history never knew is the rendered project's.
    pub missing_path_rendered_template_endings: &'static [&'static str],
    /// Words that may stand between a step's verb (`start` line cues: "Delete", "Rename") and
    /// the path it acts on.
    pub missing_path_start_object_words: &'static [&'static str],
}

/// The reader table as published.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct ReaderPolicy {
    /// Who reads a document, first matching row wins (plus Claude Code's per-session set, and
    /// plugin users for shipped plugin content).
    pub rules: &'static [crate::readers::ReaderRule],
    /// When a dedupe may take a span from a document.
    pub dedupe_rule: &'static str,
}

/// The role table as published.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct RolePolicy {
    /// How a document's role is decided, first that applies wins.
    pub decided_by: &'static [&'static str],
    /// The default table (after frontmatter, the rulebook's `roles` and text markers).
    pub rules: &'static [crate::roles::RoleRule],
    /// What each role draws and which edits it takes without a prompt.
    pub effects: Vec<RoleEffect>,
    /// Lines near the top that make a document generated.
    pub generated_markers: &'static [&'static str],
    /// How many leading lines are searched for them (and for transcript markers).
    pub generated_marker_lines: usize,
    /// Lines near the top that make a document a transcript (history).
    pub transcript_markers: &'static [&'static str],
    /// How many placeholders (`{{ x }}`, `<% %>`, `{% %}`) make a document a template.
    pub template_min_placeholders: usize,
    /// The frontmatter key a document names its own role with.
    pub frontmatter_key: &'static str,
    /// A Claude Code plugin's folders that ship to its users.
    pub plugin_shipped_dirs: &'static [&'static str],
    /// Folders whose prompts, under no dot-folder, ship to other projects.
    pub prompt_folders: &'static [&'static str],
    /// Frontmatter keys that make a document in one of them a prompt.
    pub prompt_keys: &'static [&'static str],
    /// The name ending of a Copilot instructions file, shipped when under no dot-folder.
    pub instructions_suffix: &'static str,
    /// Labels of a link in a document's first lines to the Markdown file it is rendered from.
    pub source_link_labels: &'static [&'static str],
    /// Folders of an example project whose documents are its data (fixture).
    pub example_data_folders: &'static [&'static str],
    /// Words in a folder README's own status that make the folder's living documents history.
    pub record_status_words: &'static [&'static str],
}

/// What one role draws and takes.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct RoleEffect {
    /// The role.
    pub role: crate::roles::Role,
    /// The signal kinds it draws; `None`: every kind.
    pub draws: Option<&'static [&'static str]>,
    /// Whether `oversize` counts only when the document is loaded every session.
    pub oversize_only_per_session: bool,
    /// The edit kinds that may run on it without a prompt.
    pub auto_edit_kinds: Vec<EditKind>,
}

/// The write table as published.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct WritePolicy {
    /// The rules, in the order they are checked.
    pub rules: &'static [crate::protect::WriteRule],
    /// Files a client or tool executes or trusts.
    pub tool_config_globs: &'static [&'static str],
    /// Extensions an edited document may have.
    pub document_extensions: &'static [&'static str],
    /// Names an edited document may have without such an extension.
    pub document_names: &'static [&'static str],
    /// Files clients load as instructions (never archive or extraction targets).
    pub instruction_globs: &'static [&'static str],
}

/// One exact-edit kind as published.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct KindPolicy {
    /// The kind.
    pub kind: EditKind,
    /// JSON names of the fields it requires.
    pub required: Vec<&'static str>,
    /// JSON names of the fields it may carry.
    pub optional: Vec<&'static str>,
    /// The anchor form it takes, if any: `lines` or `whole`.
    pub anchor: Option<&'static str>,
    /// Whether it removes information kept nowhere else.
    pub is_destructive: bool,
    /// `true`/`false`, or `"tracked-and-clean"` for kinds git history makes reversible.
    pub is_reversible: Value,
    /// Whether its tier also consults lifecycle evidence and git state.
    pub lifecycle: bool,
    /// The tier a non-lifecycle deterministic op of this kind derives.
    pub derives: Option<crate::report::SafetyTier>,
    /// Why.
    pub why: &'static str,
}

/// One category class and its subtypes.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct CategoryPolicy {
    /// `stale` or `bloat`.
    pub class: String,
    /// Its legal subtypes.
    pub subtypes: Vec<String>,
}

/// The weight of a saving by injection frequency.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct Weighting {
    /// The frequency.
    pub injection_frequency: InjectionFrequency,
    /// `weighted_tokens = raw_tokens × weight`.
    pub weight: u64,
    /// What a saving of this frequency means.
    pub meaning: &'static str,
}

/// An exit code.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct ExitCode {
    /// The code.
    pub code: i32,
    /// What it means.
    pub meaning: &'static str,
}

/// The kind table as published.
pub fn kinds() -> Vec<KindPolicy> {
    KINDS
        .iter()
        .map(|r| {
            let names = |fs: &[Field]| {
                let mut v: Vec<&'static str> = fs.iter().map(|f| f.json_name()).collect();
                v.dedup();
                v
            };
            let anchor = r.required.iter().find_map(|f| match f {
                Field::AnchorLines => Some("lines"),
                Field::AnchorWhole => Some("whole"),
                _ => None,
            });
            let derives = (!r.lifecycle).then(|| {
                let rev = matches!(r.reversibility, Reversibility::Fixed(true));
                crate::tier::derive_safety_tier(
                    crate::report::OpType::Deterministic,
                    r.is_destructive,
                    rev,
                    None,
                )
            });
            KindPolicy {
                kind: r.kind,
                required: names(r.required),
                optional: names(r.optional),
                anchor,
                is_destructive: r.is_destructive,
                is_reversible: match r.reversibility {
                    Reversibility::Fixed(b) => Value::Bool(b),
                    Reversibility::GitHistory => Value::String("tracked-and-clean".into()),
                },
                lifecycle: r.lifecycle,
                derives,
                why: r.why,
            }
        })
        .collect()
}

/// The category taxonomy, read off the schema generated from the report types.
pub fn categories() -> Vec<CategoryPolicy> {
    let schema = crate::schema::report_schema();
    let consts = |def: &str| -> Vec<String> {
        schema["$defs"][def]["oneOf"]
            .as_array()
            .map(|a| {
                a.iter()
                    .filter_map(|b| b["const"].as_str().map(str::to_string))
                    .collect()
            })
            .unwrap_or_default()
    };
    schema["$defs"]["Category"]["oneOf"]
        .as_array()
        .map(|branches| {
            branches
                .iter()
                .map(|b| {
                    let class = b["properties"]["class"]["const"]
                        .as_str()
                        .unwrap_or("")
                        .to_string();
                    let def = b["properties"]["subtype"]["$ref"]
                        .as_str()
                        .and_then(|r| r.rsplit('/').next())
                        .unwrap_or("");
                    CategoryPolicy {
                        class,
                        subtypes: consts(def),
                    }
                })
                .collect()
        })
        .unwrap_or_default()
}

/// The token weighting, from [`crate::validate::weight`].
pub fn token_weighting() -> Vec<Weighting> {
    [
        (
            InjectionFrequency::PerSession,
            "loaded at every session start: a real saving, every session",
        ),
        (
            InjectionFrequency::OnDemand,
            "read only when the agent asks: a ceiling, reached only in sessions that read the file",
        ),
    ]
    .into_iter()
    .map(|(f, meaning)| Weighting {
        injection_frequency: f,
        weight: crate::validate::weight(f),
        meaning,
    })
    .collect()
}

/// The role table and its effects as published.
pub fn roles() -> RolePolicy {
    use crate::roles::{self, Role};
    RolePolicy {
        decided_by: roles::DECIDED_BY,
        rules: roles::ROLE_RULES,
        effects: Role::ALL
            .into_iter()
            .map(|role| RoleEffect {
                role,
                draws: roles::allowed_kinds(role),
                oversize_only_per_session: !roles::allows(role, "oversize", false)
                    && roles::allows(role, "oversize", true),
                auto_edit_kinds: KINDS
                    .iter()
                    .map(|k| k.kind)
                    .filter(|k| roles::auto_edits_kind(role, *k))
                    .collect(),
            })
            .collect(),
        generated_markers: roles::GENERATED_MARKERS,
        generated_marker_lines: roles::GENERATED_MARKER_LINES,
        transcript_markers: roles::TRANSCRIPT_MARKERS,
        template_min_placeholders: roles::TEMPLATE_MIN_PLACEHOLDERS,
        frontmatter_key: roles::FRONTMATTER_KEY,
        plugin_shipped_dirs: roles::PLUGIN_SHIPPED_DIRS,
        prompt_folders: roles::PROMPT_FOLDERS,
        prompt_keys: roles::PROMPT_KEYS,
        instructions_suffix: roles::INSTRUCTIONS_SUFFIX,
        record_status_words: roles::RECORD_STATUS_WORDS,
        example_data_folders: roles::EXAMPLE_DATA_FOLDERS,
        source_link_labels: roles::SOURCE_LINK_LABELS,
    }
}

/// The whole policy, with the rulebook that governs `root` (the shipped one when `None`).
pub fn policy(root: Option<&std::path::Path>) -> Policy {
    let (rulebook, rulebook_error) = match root.map(crate::lifecycle::Rulebook::load) {
        Some(Ok(book)) => (book.to_json(), None),
        Some(Err(e)) => (
            crate::lifecycle::Rulebook::defaults()
                .map(|b| b.to_json())
                .unwrap_or_default(),
            Some(e.to_string()),
        ),
        None => (
            crate::lifecycle::Rulebook::defaults()
                .map(|b| b.to_json())
                .unwrap_or_default(),
            None,
        ),
    };
    Policy {
        schema: POLICY_SCHEMA,
        report_schema_version: crate::report::SCHEMA_VERSION,
        tool_version: crate::TOOL_VERSION,
        tiers: crate::tier::truth_table(),
        kinds: kinds(),
        categories: categories(),
        validation_rules: crate::validate::RULES,
        finalize_rules: crate::finalize::RULES,
        apply_guards: crate::apply::GUARDS,
        writes: WritePolicy {
            rules: crate::protect::RULES,
            tool_config_globs: crate::protect::TOOL_CONFIG_GLOBS,
            document_extensions: crate::protect::DOCUMENT_EXTENSIONS,
            document_names: crate::protect::DOCUMENT_NAMES,
            instruction_globs: crate::protect::INSTRUCTION_GLOBS,
        },
        conditional_fields: crate::kinds::CONDITIONAL_FIELDS,
        token_weighting: token_weighting(),
        encoding: crate::tokens::ENCODING,
        conventions: crate::finalize::shipped_conventions(),
        rulebook,
        rulebook_error,
        default_rulebook: crate::lifecycle::default_rulebook_json(),
        signals: crate::scan::signal_rules(),
        thresholds: crate::scan::THRESHOLDS,
        scanner: ScannerPolicy {
            default_scope: crate::scan::DEFAULT_SCOPE,
            default_excluded_dirs: crate::scan::DEFAULT_EXCLUDED,
            canonical_copy_rule: crate::scan::CANONICAL_RULE,
            per_session_files: crate::scan::loadclass::PER_SESSION_FILES,
            per_session_rules_dir: crate::scan::loadclass::RULES_DIR,
            import_depth: crate::scan::loadclass::IMPORT_DEPTH,
            done_words: crate::scan::detectors::status::DONE_WORDS,
            superseded_words: crate::scan::detectors::superseded::SUPERSEDED_WORDS,
            superseded_tombstone_names: crate::scan::detectors::superseded::TOMBSTONE_NAMES,
            provisional_markers: crate::scan::detectors::provisional::MARKERS,
            frozen_exempt_signals: crate::scan::FROZEN_EXEMPT_SIGNALS,
            boilerplate_min_files: crate::scan::detectors::duplicate::BOILERPLATE_MIN_FILES,
            sites: crate::scan::sites::SITE_RULES,
            site_page_extensions: crate::scan::sites::PAGE_EXTENSIONS,
            site_index_pages: crate::scan::sites::INDEX_PAGES,
            other_clients_every_request: crate::scan::loadclass::OTHER_CLIENTS_EVERY_REQUEST,
            cursor_rules_dir: crate::scan::loadclass::CURSOR_RULES_DIR,
            governed_quiet_signals: crate::scan::GOVERNED_QUIET,
            lifecycle_asks_signals: crate::scan::LIFECYCLE_ASKS,
            entry_documents: crate::scan::ENTRY_DOCUMENTS,
            instruction_files: crate::scan::INSTRUCTION_FILES,
            entry_named_quiet_signals: crate::scan::ENTRY_NAMED_QUIET,
            kept_quiet_signals: crate::scan::KEPT_QUIET,
            example_quiet_signals: crate::scan::EXAMPLE_QUIET,
            site_page_quiet_signals: crate::scan::SITE_PAGE_QUIET,
            site_work_page_names: crate::scan::SITE_WORK_PAGE_NAMES,
            design_folders: crate::scan::DESIGN_FOLDERS,
            design_quiet_signals: crate::scan::DESIGN_QUIET,
            draft_folders: crate::scan::DRAFT_FOLDERS,
            draft_quiet_signals: crate::scan::DRAFT_QUIET,
            backup_folders: crate::scan::BACKUP_FOLDERS,
            backup_quiet_signals: crate::scan::BACKUP_QUIET,
            post_folders: crate::scan::POST_FOLDERS,
            post_quiet_signals: crate::scan::POST_QUIET,
            prompt_quiet_signals: crate::scan::PROMPT_QUIET,
            prompt_page_names: crate::scan::PROMPT_PAGE_NAMES,
            prompt_page_folders: crate::scan::PROMPT_PAGE_FOLDERS,
            ride_along_signals: crate::scan::RIDE_ALONG,
            missing_path_line_cues: crate::scan::detectors::missing_path::LINE_CUES,
            missing_path_example_labels: crate::scan::detectors::missing_path::EXAMPLE_LABELS,
            missing_path_plan_columns: crate::scan::detectors::missing_path::PLAN_COLUMNS,
            missing_path_record_columns: crate::scan::detectors::missing_path::RECORD_COLUMNS,
            missing_path_plan_document_words:
                crate::scan::detectors::missing_path::PLAN_DOCUMENT_WORDS,
            missing_path_plan_document_names:
                crate::scan::detectors::missing_path::PLAN_DOCUMENT_NAMES,
            missing_path_plan_claim_words: crate::scan::detectors::missing_path::PLAN_CLAIM_WORDS,
            missing_path_reader_extensions: crate::scan::detectors::missing_path::READER_EXTENSIONS,
            missing_path_example_columns: crate::scan::detectors::missing_path::EXAMPLE_COLUMNS,
            missing_path_member_sources: crate::scan::detectors::missing_path::MEMBER_SOURCES,
            missing_path_convention_names: crate::scan::detectors::missing_path::CONVENTION_NAMES,
            missing_path_client_config_paths:
                crate::scan::detectors::missing_path::CLIENT_CONFIG_PATHS,
            missing_path_tool_state_paths: crate::scan::detectors::missing_path::TOOL_STATE_PATHS,
            missing_path_test_case_folders: crate::scan::detectors::missing_path::TEST_CASE_FOLDERS,
            anchor_entity_words: crate::scan::detectors::missing_anchor::ENTITY_WORDS,
            anchor_punctuation_kept_elsewhere:
                crate::scan::detectors::missing_anchor::PUNCTUATION_KEPT_ELSEWHERE,
            anchor_accent_folding_generators:
                crate::scan::detectors::missing_anchor::ACCENT_FOLDING_GENERATORS,
            missing_path_template_folders: crate::scan::refs::TEMPLATE_FOLDERS,
            missing_path_generator_folders: crate::scan::refs::GENERATOR_FOLDERS,
            missing_path_template_suffixes: crate::scan::refs::TEMPLATE_SUFFIXES,
            missing_path_test_input_folders:
                crate::scan::detectors::missing_path::TEST_INPUT_FOLDERS,
            missing_path_lead_in_cues: crate::scan::detectors::missing_path::LEAD_IN_CUES,
            missing_path_section_cues: crate::scan::detectors::missing_path::SECTION_CUES,
            missing_path_move_lead_in_words:
                crate::scan::detectors::missing_path::MOVE_LEAD_IN_WORDS,
            missing_path_checkout_cues: crate::scan::detectors::missing_path::CHECKOUT_CUES,
            missing_path_retired_folders: crate::scan::detectors::missing_path::RETIRED_FOLDERS,
            missing_path_host_dot_folders: crate::scan::detectors::missing_path::HOST_DOT_FOLDERS,
            missing_path_code_hosts: crate::scan::refs::CODE_HOSTS,
            typedoc_kind_folders: crate::scan::detectors::missing_path::TYPEDOC_KIND_FOLDERS,
            typedoc_configs: crate::scan::detectors::missing_path::TYPEDOC_CONFIGS,
            language_variant_suffixes: crate::scan::detectors::missing_path::LANGUAGE_VARIANTS,
            lifecycle_open_status_words: crate::lifecycle::eval::OPEN_STATUS_WORDS,
            lifecycle_tracker_names: crate::lifecycle::eval::TRACKER_NAMES,
            lifecycle_kept_plan_contracts: crate::lifecycle::eval::KEPT_PLAN_CONTRACTS,
            titled_anchor_components: crate::scan::markdown::TITLED_ANCHOR_COMPONENTS,
            site_feed_names: crate::scan::sites::FEED_NAMES,
            site_spelled_out: crate::scan::sites::SPELLED_OUT,
            status_unfinished_words: crate::scan::detectors::status::UNFINISHED_WORDS,
            colon_path_languages: crate::scan::detectors::missing_symbol::PATH_LANGUAGES,
            missing_path_template_name_endings:
                crate::scan::detectors::missing_path::TEMPLATE_NAME_ENDINGS,
            missing_path_rendered_template_endings:
                crate::scan::detectors::missing_path::RENDERED_TEMPLATE_ENDINGS,
            missing_path_start_object_words:
                crate::scan::detectors::missing_path::START_OBJECT_WORDS,
            invoked_alone_folders: crate::scan::detectors::duplicate::INVOKED_ALONE_FOLDERS,
            oversize_scoped_rule_dirs: crate::scan::detectors::oversize::SCOPED_RULE_DIRS,
            example_folders: crate::scan::detectors::EXAMPLE_FOLDERS,
            placeholder_path_words: crate::scan::detectors::missing_path::PLACEHOLDER_PATH_WORDS,
            placeholder_camel_words: crate::scan::detectors::missing_path::PLACEHOLDER_CAMEL_WORDS,
            fill_in_words: crate::scan::detectors::missing_anchor::FILL_IN_WORDS,
            source_language_families: crate::scan::detectors::missing_path::LANGUAGE_FAMILIES,
            placeholder_path_names: crate::scan::detectors::missing_path::PLACEHOLDER_NAMES,
            placeholder_name_endings:
                crate::scan::detectors::missing_path::PLACEHOLDER_NAME_ENDINGS,
            placeholder_version_words:
                crate::scan::detectors::missing_path::PLACEHOLDER_VERSION_WORDS,
            foreign_routes_min: crate::scan::detectors::missing_path::FOREIGN_ROUTES_MIN,
            package_manifests: crate::scan::refs::PACKAGE_MANIFESTS,
            change_pages: crate::scan::CHANGE_PAGES,
            change_page_quiet_signals: crate::scan::CHANGE_PAGE_QUIET,
            marker_subject_words: crate::scan::detectors::provisional::SUBJECT_WORDS,
            marker_negations: crate::scan::detectors::provisional::NEGATIONS,
            marker_done_marks: crate::scan::detectors::provisional::DONE_MARKS,
            superseded_kept_words: crate::scan::detectors::superseded::KEPT_WORDS,
            superseded_reference_folders: crate::scan::detectors::superseded::REFERENCE_FOLDERS,
            resolved_tracker_words: crate::scan::detectors::resolved::TRACKER_WORDS,
            resolved_history_kept_verbs: crate::scan::detectors::resolved::HISTORY_KEPT_VERBS,
            resolved_kept_here_words: crate::scan::detectors::resolved::KEPT_HERE_WORDS,
            resolved_answered_section_words:
                crate::scan::detectors::resolved::ANSWERED_SECTION_WORDS,
            incident_words: crate::scan::detectors::resolved::INCIDENT_WORDS,
            symbol_defining_words: crate::scan::detectors::missing_symbol::DEFINING_WORDS,
            drift_refusing_words: crate::scan::detectors::drift::REFUSING_WORDS,
            drift_literals: crate::scan::detectors::drift::LITERALS,
            drift_lockfiles: crate::scan::detectors::drift::LOCKFILES,
            drift_readers_words: crate::scan::detectors::drift::READERS_WORDS,
            duplicate_stock_header: crate::scan::detectors::duplicate::STOCK_HEADER,
            managed_block_words: crate::scan::markdown::MANAGED_BLOCK_WORDS,
        },
        readers: ReaderPolicy {
            rules: crate::readers::READER_RULES,
            dedupe_rule: crate::readers::DEDUPE_RULE,
        },
        roles: roles(),
        bill: crate::triage::published(),
        exit_codes: vec![
            ExitCode {
                code: 0,
                meaning: "success",
            },
            ExitCode {
                code: 1,
                meaning: "the checked thing is invalid, or an op was refused",
            },
            ExitCode {
                code: 2,
                meaning: "usage or I/O error",
            },
        ],
    }
}
