//! Evaluation: which rule governs each path, and whether it has served.
//!
//! Combining rules, in this order (docs/lifecycle.md states the same):
//! 1. A `keep` rule wins over everything: a file it matches (or a file under a directory it
//!    matches) is never served, and no directory containing it is deleted as a whole.
//! 2. A `dir` rule governs a matching directory as one aggregate; the outermost matching
//!    directory wins, and the files inside are not governed one by one.
//! 3. Otherwise the first matching `file` rule, in rulebook order, governs the file.
//!
//! Before all three, a file whose path gives a role that draws no `lifecycle` (test data:
//! a session summary a test reads, a rendered prompt's snapshot) is governed by no rule.

use super::rulebook::{lifetime_name, MatchKind, Rule, Rulebook, ServedBy};
use super::{DateSource, Facts, Governed, PathSource, Status};
use crate::git::{History, Repo};
use crate::report::{
    Anchor, EditKind, ExactEdit, Lifecycle, Lifetime, LineRange, WholeAnchor, WholeKind,
};
use crate::tier::Evidence;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::Path;

/// Documents larger than this are not read for frontmatter or sections (they are still governed).
const READ_CAP: u64 = 4 * 1024 * 1024;

/// Evaluates every rule against the tree. `files` are the root-relative paths of all files the
/// walk saw (documents or not); `now` is Unix seconds. The result is sorted by path.
pub fn evaluate(
    root: &Path,
    rulebook: &Rulebook,
    files: &[String],
    _repo: Option<&Repo>,
    history: Option<&History>,
    now: i64,
) -> Vec<Governed> {
    // Lifecycle rules read paths, so the path's role decides (`roles::allowed_kinds`).
    let roles = crate::roles::Roles::new(root, rulebook.roles.clone());
    // Only a file some rule other than a keep could govern matters below: one a file rule
    // matches, or one under a folder a folder rule matches (it makes that folder an aggregate
    // and counts in its dates). Any other file changes nothing, so its role (a glob match
    // against every role rule) is not asked.
    let live = |kind: MatchKind| {
        rulebook
            .rules
            .iter()
            .filter(move |r| r.match_kind == kind && r.lifetime != Lifetime::Keep)
    };
    let candidate = |f: &String| {
        live(MatchKind::File).any(|r| r.matches(f))
            || ancestors(f).any(|a| live(MatchKind::Dir).any(|r| r.matches(a)))
    };
    let files: Vec<&String> = files.iter().filter(|f| candidate(f)).collect();
    // (A glob match per candidate: on all cores, in chunks.)
    let chunks: Vec<&[&String]> = files.chunks(files.len().div_ceil(64).max(1)).collect();
    let files: Vec<String> = crate::scan::walk::par_map(&chunks, |chunk| {
        chunk
            .iter()
            .filter(|f| crate::roles::allows(roles.of_path(f), "lifecycle", false))
            .map(|f| (*f).clone())
            .collect::<Vec<String>>()
    })
    .into_iter()
    .flatten()
    .collect();
    let files = files.as_slice();
    let keeps: Vec<&Rule> = rulebook
        .rules
        .iter()
        .filter(|r| r.lifetime == Lifetime::Keep)
        .collect();
    // 1. Keep protection, per file.
    let protected: HashMap<&str, &Rule> = files
        .iter()
        .filter_map(|f| keep_rule(&keeps, f).map(|r| (f.as_str(), r)))
        .collect();

    // 2. Directory aggregates: every ancestor folder of a walked file is a candidate.
    let mut dirs: BTreeSet<&str> = BTreeSet::new();
    for f in files {
        let mut at = f.as_str();
        while let Some(i) = at.rfind('/') {
            at = &at[..i];
            dirs.insert(at);
        }
    }
    let mut aggregates: BTreeMap<&str, &Rule> = BTreeMap::new();
    for d in &dirs {
        if ancestors(d).any(|a| aggregates.contains_key(a)) {
            continue; // the outermost matching directory governs
        }
        let rule = rulebook.rules.iter().find(|r| {
            r.match_kind == MatchKind::Dir && r.lifetime != Lifetime::Keep && r.matches(d)
        });
        if let Some(r) = rule {
            aggregates.insert(d, r);
        }
    }

    let mut out: Vec<Governed> = Vec::new();
    // Temporary items wait for their rule's ranking, keyed by rule id.
    let mut temporary: HashMap<&str, Vec<(Governed, Dated)>> = HashMap::new();
    let mut indexes = Indexes::default();

    for (&dir, &rule) in &aggregates {
        let prefix = format!("{dir}/");
        let inside: Vec<&String> = files.iter().filter(|f| f.starts_with(&prefix)).collect();
        if let Some((f, keep)) = inside
            .iter()
            .find_map(|f| protected.get(f.as_str()).map(|k| (f, *k)))
        {
            let mut g = protected_item(dir, true, keep, rule);
            g.facts
                .notes
                .push(format!("contains {f}, which `{}` keeps", keep.id));
            g.evidence = format!("{}; it contains {f}", g.evidence);
            out.push(g);
            continue;
        }
        let g = governed(root, dir, true, rule, &mut indexes);
        if rule.lifetime == Lifetime::Temporary {
            let d = dir_date(root, dir, &inside, history);
            temporary.entry(rule.id.as_str()).or_default().push((g, d));
        } else {
            out.push(g);
        }
    }

    for f in files {
        if ancestors(f).any(|a| aggregates.contains_key(a)) {
            continue;
        }
        let rule = rulebook.rules.iter().find(|r| {
            r.match_kind == MatchKind::File && r.lifetime != Lifetime::Keep && r.matches(f)
        });
        let Some(rule) = rule else { continue };
        // Only a regular file is a document: a FIFO, a device or an in-root link (an alias of a
        // document governed under its own name) gets no lifecycle item, as the scan skips it.
        if !is_regular(root, f) {
            continue;
        }
        if let Some(keep) = protected.get(f.as_str()) {
            out.push(protected_item(f, false, keep, rule));
            continue;
        }
        let g = governed(root, f, false, rule, &mut indexes);
        if rule.lifetime == Lifetime::Temporary {
            let d = file_date(root, f, history);
            temporary.entry(rule.id.as_str()).or_default().push((g, d));
        } else {
            out.push(g);
        }
    }

    for (id, mut items) in temporary {
        let Some(rule) = rulebook.rule(id) else {
            continue;
        };
        rank_temporary(root, rule, &mut items, now, &mut indexes);
        out.extend(items.into_iter().map(|(g, _)| g));
    }
    out.sort_by(|a, b| a.path.cmp(&b.path));
    out
}

/// Loads the rulebook, walks, reads the history and evaluates `root` now: what the rules say
/// about every governed document at this moment. Finalize and apply call it to re-verify a
/// lifecycle entry (its rule, rank, age and served path) instead of trusting the scan file, which
/// a model can write.
pub fn evaluate_now(root: &Path, now: i64) -> crate::Result<Vec<Governed>> {
    let book = Rulebook::load(root)?;
    let (files, _) = super::walk_files(root, &book.excluded_dirs);
    let repo = Repo::discover(root);
    let history = repo.as_ref().map(Repo::history);
    Ok(evaluate(
        root,
        &book,
        &files,
        repo.as_ref(),
        history.as_ref(),
        now,
    ))
}

/// Like [`evaluate_now`], for one path.
pub fn recheck(root: &Path, path: &str, now: i64) -> crate::Result<Option<Governed>> {
    let path = path.trim_end_matches('/');
    Ok(evaluate_now(root, now)?
        .into_iter()
        .find(|g| g.path == path))
}

/// Why a report's lifecycle object does not stand now.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mismatch {
    /// No rule governs the path now (or a different rule, or a different served condition):
    /// the report is not what the rulebook says, stale or forged.
    Differs,
    /// A keep rule protects the path.
    Protected,
    /// The same rule governs it and says it has not served (yet, or any more).
    NotServed,
}

/// How a report's lifecycle object stands against the live evaluation of its path: `Ok` with
/// the live item's status and evidence when the rulebook still governs the path by the same
/// rule with the same served condition and does not say "not served"; else what differs, with
/// a sentence saying so.
pub fn live_verdict(
    live: Option<&Governed>,
    path: &str,
    lc: &Lifecycle,
) -> Result<(Status, Option<Evidence>), (Mismatch, String)> {
    let Some(g) = live else {
        return Err((
            Mismatch::Differs,
            format!(
                "no lifecycle rule governs `{path}` now (the rulebook or the tree changed since the check, or the scan was not the helper's)"
            ),
        ));
    };
    if g.status == Status::Protected {
        return Err((
            Mismatch::Protected,
            format!(
                "`{path}` is protected by keep rule `{}`; no lifecycle op may touch it",
                g.lifecycle.rule_ref
            ),
        ));
    }
    if g.lifecycle != *lc {
        let show = |l: &Lifecycle| {
            let cond = match (&l.served_when_path, &l.served_when) {
                (Some(p), _) => format!(", served when `{p}` exists"),
                (None, Some(q)) => format!(", served when judged: {q:?}"),
                _ => String::new(),
            };
            format!("`{}` ({}{cond})", l.rule_ref, lifetime_name(l.lifetime))
        };
        return Err((
            Mismatch::Differs,
            format!(
                "`{path}` is governed now by rule {}, not as the report says by rule {}",
                show(&g.lifecycle),
                show(lc)
            ),
        ));
    }
    if g.status == Status::NotServed {
        return Err((
            Mismatch::NotServed,
            format!(
                "rule `{}` says `{path}` has not served now: {}",
                g.lifecycle.rule_ref, g.evidence
            ),
        ));
    }
    Ok((g.status, g.facts.evidence))
}

/// The proper ancestors of a root-relative path, innermost first.
fn ancestors(path: &str) -> impl Iterator<Item = &str> {
    let mut at = path;
    std::iter::from_fn(move || {
        let i = at.rfind('/')?;
        at = &at[..i];
        Some(at)
    })
}

fn keep_rule<'a>(keeps: &[&'a Rule], file: &str) -> Option<&'a Rule> {
    keeps.iter().copied().find(|r| match r.match_kind {
        MatchKind::File => r.matches(file),
        MatchKind::Dir => ancestors(file).any(|d| r.matches(d)),
    })
}

fn lifecycle_of(rule: &Rule) -> Lifecycle {
    Lifecycle {
        rule_ref: rule.id.clone(),
        lifetime: rule.lifetime,
        served_when_path: None,
        served_when: None,
    }
}

fn protected_item(path: &str, is_dir: bool, keep: &Rule, overridden: &Rule) -> Governed {
    Governed {
        path: path.to_string(),
        is_dir,
        served: Some(false),
        lifecycle: lifecycle_of(keep),
        suggestion: None,
        evidence: format!(
            "protected by keep rule `{}` from rule `{}` ({})",
            keep.id,
            overridden.id,
            lifetime_name(overridden.lifetime)
        ),
        status: Status::Protected,
        facts: Facts {
            protected_by: Some(keep.id.clone()),
            overrides: Some(overridden.id.clone()),
            ..Facts::default()
        },
    }
}

/// A governed item before ranking (temporary) or with its final status (delete-once-served).
fn governed(root: &Path, path: &str, is_dir: bool, rule: &Rule, indexes: &mut Indexes) -> Governed {
    let mut g = Governed {
        path: path.to_string(),
        is_dir,
        served: Some(false),
        lifecycle: lifecycle_of(rule),
        suggestion: None,
        evidence: String::new(),
        status: Status::NotServed,
        facts: Facts::default(),
    };
    if rule.lifetime != Lifetime::DeleteOnceServed {
        return g;
    }
    let text = if is_dir { None } else { read_text(root, path) };
    let from_frontmatter = text
        .as_deref()
        .and_then(frontmatter_served_path)
        .and_then(|raw| match resolve_document_path(root, path, &raw) {
            Some(p) => Some(p),
            None => {
                g.facts.notes.push(format!(
                    "frontmatter served_when_path `{raw}` is not a root-relative path inside the repository; ignored"
                ));
                None
            }
        });
    let served_path = match (from_frontmatter, &rule.served) {
        (Some(p), _) => Some((p, PathSource::Frontmatter)),
        (None, Some(ServedBy::Path(t))) => match fill_template(t, path) {
            Some(p) if !is_self(&p, path) => Some((p, PathSource::Rule)),
            _ => {
                g.facts.notes.push(format!(
                    "served_when_path `{t}` resolves to no usable path for {path}"
                ));
                None
            }
        },
        _ => None,
    };
    // Why a plan a model would be asked about has not served, where its folder's index or its
    // own text says so; and whether that is because it is kept as a record (then it is no
    // finished plan either: `scan::LIFECYCLE_ASKS` stay quiet on it).
    let not_served = (!is_dir && matches!(rule.served, Some(ServedBy::Question(_))))
        .then(|| {
            indexes
                .listed_open(root, path)
                .map(|row| {
                    (
                        format!("its folder's index lists it as not done (`{row}`)"),
                        false,
                    )
                })
                .or_else(|| {
                    // A folder's tracker (`STATUS.md` beside the plan it tracks) that still
                    // lists open work is the live record of that work.
                    text.as_deref()
                        .filter(|_| TRACKER_NAMES.contains(&base_name(path)))
                        .and_then(tracker_open)
                        .map(|row| {
                            let why = format!(
                                "it tracks its folder's work and still lists some open (`{row}`)"
                            );
                            (why, false)
                        })
                })
                .or_else(|| {
                    // A plan beside such a tracker is part of that live work (TypeAgent's
                    // `grammar-tools/05-web-app.md` while `STATUS.md` says `not started`): it is
                    // asked about once the tracker lists nothing open.
                    indexes
                        .tracker_open_beside(root, path)
                        .map(|(tracker, row)| {
                            let why = format!(
                                "its folder's tracker {tracker} still lists open work (`{row}`)"
                            );
                            (why, false)
                        })
                })
                .or_else(|| {
                    // A folder of plans a tool writes as kept records (compound-engineering's
                    // `artifact_contract: ce-unified-plan/v1`): its maintainers keep them all.
                    indexes.kept_by_contract(root, path).map(|(plan, field)| {
                        let why = if plan == path {
                            format!("its frontmatter's `{field}` marks a plan kept as a record")
                        } else {
                            format!("its folder keeps plans as records (`{field}` in {plan})")
                        };
                        (why, true)
                    })
                })
                .or_else(|| {
                    // A plan whose head says it is kept ("Superseded ... Kept as the
                    // historical record", "retained as the design record requested during
                    // review") has been given a second life by its maintainers. Not a
                    // section's "Original list, kept for the record" deep in a plan.
                    text.as_deref()
                        .map(|t| {
                            crate::scan::markdown::head_lines(
                                t,
                                crate::scan::THRESHOLDS.lifecycle_kept_head_lines as usize,
                            )
                        })
                        .and_then(crate::scan::detectors::superseded::kept_words_in)
                        .map(|w| (format!("its text says it is {w}"), true))
                })
        })
        .flatten();
    match (served_path, &rule.served) {
        (Some((p, source)), _) => {
            let exists = path_exists(root, &p);
            g.facts.evidence = Some(if exists {
                Evidence::ServedWhenPathSatisfied
            } else {
                Evidence::ServedWhenPathMissing
            });
            g.evidence = format!(
                "served_when_path {p} (from {}) {}",
                match source {
                    PathSource::Frontmatter => "the document's frontmatter",
                    PathSource::Rule => "the rule",
                },
                if exists {
                    "exists: served"
                } else {
                    "does not exist: not served yet"
                }
            );
            g.facts.served_when_path = Some(p.clone());
            g.facts.path_exists = Some(exists);
            g.facts.path_source = Some(source);
            g.lifecycle.served_when_path = Some(p);
            if exists {
                g.status = Status::Served;
                g.served = Some(true);
            }
        }
        // A plan its folder's index lists as still to do (`| 009 | ... | TODO |`), or whose
        // text says it is kept, has not served: no question for the model.
        (None, Some(ServedBy::Question(_))) if not_served.is_some() => {
            let (why, kept) = not_served.unwrap_or_default();
            g.evidence = format!("{why}: not served");
            g.facts.notes.push(g.evidence.clone());
            g.facts.kept_record = kept;
        }
        (None, Some(ServedBy::Question(q))) => {
            g.facts.evidence = Some(Evidence::ClassifierJudged);
            g.facts.question = Some(q.clone());
            g.evidence = format!("needs a model's judgement: {q}");
            g.lifecycle.served_when = Some(q.clone());
            g.status = Status::NeedsJudgement;
            g.served = None;
        }
        (None, _) => {
            // A template that resolves to nothing usable proves nothing: never served.
            g.facts.evidence = Some(Evidence::ServedWhenPathMissing);
            g.evidence = "served_when_path resolves to no usable path: not served".into();
        }
    }
    if g.status != Status::NotServed {
        g.suggestion = Some(edit_for(&g, rule, text.as_deref()));
    }
    g
}

/// The `delete` or `extract-then-delete` edit for a served (or judgeable) item.
fn edit_for(g: &Governed, rule: &Rule, text: Option<&str>) -> ExactEdit {
    let mut edit = ExactEdit {
        kind: EditKind::Delete,
        anchor: Some(Anchor::Whole(WholeAnchor {
            whole: if g.is_dir {
                WholeKind::Directory
            } else {
                WholeKind::File
            },
        })),
        lifecycle: Some(g.lifecycle.clone()),
        ..crate::kinds::empty_edit(EditKind::Delete)
    };
    if let (Some(x), false) = (&rule.extract, g.is_dir) {
        if let Some(range) = text.and_then(|t| section_lines(t, &x.anchor_heading)) {
            edit.kind = EditKind::ExtractThenDelete;
            edit.anchor = Some(Anchor::Lines(range));
            edit.extraction_target = Some(x.target);
            edit.target_path = x.target_path.clone();
        }
    }
    edit
}

/// A temporary item's date and where it came from.
#[derive(Debug, Clone, Copy)]
struct Dated {
    secs: i64,
    source: DateSource,
}

/// The first valid `YYYY-MM-DD` in a name, as Unix seconds at midnight UTC.
pub fn date_in_name(name: &str) -> Option<i64> {
    let b = name.as_bytes();
    (0..b.len().saturating_sub(9)).find_map(|i| {
        let s = name.get(i..i + 10)?;
        let shape = s.bytes().enumerate().all(|(j, c)| match j {
            4 | 7 => c == b'-',
            _ => c.is_ascii_digit(),
        });
        // Not part of a longer number (`12026-01-01`, `2026-01-012`).
        let before = i
            .checked_sub(1)
            .map(|k| b[k].is_ascii_digit())
            .unwrap_or(false);
        let after = b.get(i + 10).is_some_and(|c| c.is_ascii_digit());
        (shape && !before && !after)
            .then(|| crate::time::parse_date(s))
            .flatten()
    })
}

fn base_name(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or(path)
}

fn mtime(root: &Path, rel: &str) -> Option<i64> {
    let full = crate::paths::resolve_inside(root, rel, false).ok()?;
    let modified = std::fs::symlink_metadata(full).ok()?.modified().ok()?;
    let d = modified.duration_since(std::time::UNIX_EPOCH).ok()?;
    Some(d.as_secs() as i64)
}

fn file_date(root: &Path, rel: &str, history: Option<&History>) -> Dated {
    if let Some(secs) = date_in_name(base_name(rel)) {
        return Dated {
            secs,
            source: DateSource::Name,
        };
    }
    if let Some(c) = history.and_then(|h| h.last_change(rel)) {
        return Dated {
            secs: c.time,
            source: DateSource::Commit,
        };
    }
    Dated {
        secs: mtime(root, rel).unwrap_or(0),
        source: DateSource::Mtime,
    }
}

/// A directory's date: from its name, else the newest date of the files inside (each dated by
/// its last commit, else its mtime).
fn dir_date(root: &Path, dir: &str, inside: &[&String], history: Option<&History>) -> Dated {
    if let Some(secs) = date_in_name(base_name(dir)) {
        return Dated {
            secs,
            source: DateSource::Name,
        };
    }
    inside
        .iter()
        .map(|f| match history.and_then(|h| h.last_change(f)) {
            Some(c) => Dated {
                secs: c.time,
                source: DateSource::Commit,
            },
            None => Dated {
                secs: mtime(root, f).unwrap_or(0),
                source: DateSource::Mtime,
            },
        })
        .max_by_key(|d| d.secs)
        .unwrap_or(Dated {
            secs: 0,
            source: DateSource::Mtime,
        })
}

/// Words of a status that is not done, as an index row gives it (`| 009 | ... | TODO |`).
/// Published as `scanner.lifecycle_open_status_words`.
pub const OPEN_STATUS_WORDS: &[&str] = &[
    "todo",
    "pending",
    "planned",
    "in progress",
    "in-progress",
    "not started",
    "wip",
    "blocked",
];

/// The names of a tracker a folder of plans may keep beside its plans (TypeAgent's
/// `docs/plans/structured-output/STATUS.md`: "Update whenever a phase item is started,
/// completed, ..."): while one of its items is open ([`tracker_open`]), the work it tracks
/// goes on and it has not served. Published as `scanner.lifecycle_tracker_names`.
pub const TRACKER_NAMES: &[&str] = &[
    "STATUS.md",
    "status.md",
    "PROGRESS.md",
    "progress.md",
    "TRACKER.md",
    "tracker.md",
];

/// The first item of tracker `text` that is still open, trimmed: an unchecked task box
/// (`- [ ] **Phase 1**`, a `☐` cell), or a table row with a cell that starts with a word of
/// [`OPEN_STATUS_WORDS`] and none of status-done's words.
///
/// ```
/// use hygiene::lifecycle::eval::tracker_open;
/// let t = "| Item | Status |\n|---|---|\n| 1a | done |\n| 8a | not started |\n";
/// assert_eq!(tracker_open(t), Some("| 8a | not started |".into()));
/// assert_eq!(tracker_open("- [x] Phase 1\n- [ ] Phase 2\n"), Some("- [ ] Phase 2".into()));
/// assert_eq!(tracker_open("| play | playFile | ☐ |\n"), Some("| play | playFile | ☐ |".into()));
/// assert_eq!(tracker_open("| 1a | done |\n- [x] all\n\nPending review is a phrase.\n"), None);
/// ```
pub fn tracker_open(text: &str) -> Option<String> {
    text.lines()
        .find(|l| {
            let t = l.trim_start();
            let unchecked = ["- [ ]", "* [ ]", "+ [ ]"].iter().any(|b| t.starts_with(b));
            let row = t.starts_with('|')
                && t.split('|')
                    .skip(1)
                    .any(|c| c.trim() == "\u{2610}" || opens_with_open_status(c))
                && !says_done(t);
            unchecked || row
        })
        .map(|l| l.trim().to_string())
}

/// Whether `t` starts with a word of [`OPEN_STATUS_WORDS`], markup, emoji and separators aside
/// (`❌ not started`, `**TODO**`), and not a longer word (`todos`).
fn opens_with_open_status(t: &str) -> bool {
    let t = t
        .trim_start_matches(|c: char| !c.is_alphanumeric())
        .to_lowercase();
    OPEN_STATUS_WORDS.iter().any(|w| {
        t.strip_prefix(w)
            .is_some_and(|r| !r.starts_with(|c: char| c.is_alphanumeric()))
    })
}

/// Whether `row` holds one of status-done's words ([`crate::scan::detectors::status::DONE_WORDS`]).
fn says_done(row: &str) -> bool {
    let lower = row.to_lowercase();
    let words: Vec<&str> = lower.split(|c: char| !c.is_alphanumeric()).collect();
    crate::scan::detectors::status::DONE_WORDS
        .iter()
        .any(|w| words.contains(w))
}

/// The index files a folder of plans may keep: a README listing each plan and its status.
const INDEX_NAMES: &[&str] = &["README.md", "readme.md", "INDEX.md", "index.md"];

/// The row of index `text` that names the file `path` (by its file name, or a table row whose
/// first cell is the file's number prefix: `| 009 |` for `009-bounds.md`) and gives it a status
/// that is not done, trimmed. The status is a table cell, or the text after the name, that
/// starts with a word of [`OPEN_STATUS_WORDS`] (markup and emoji aside): "open decisions" in a
/// row's description is no status.
///
/// ```
/// use hygiene::lifecycle::eval::index_row_open;
/// let t = "| Plan | Title | Status |\n|---|---|---|\n| 001 | CI | DONE (plan file removed) |\n| 009 | Bounds | TODO |\n";
/// assert_eq!(index_row_open(t, "plans/009-bounds.md"), Some("| 009 | Bounds | TODO |".into()));
/// assert_eq!(index_row_open(t, "plans/001-ci.md"), None);
/// assert_eq!(index_row_open(t, "plans/010-other.md"), None, "not listed");
/// assert_eq!(index_row_open("- [x](2024-01-02-x.md): in progress\n", "notes/2024-01-02-x.md"), Some("- [x](2024-01-02-x.md): in progress".into()));
/// assert_eq!(index_row_open("- [x](x.md): done, was in progress\n", "notes/x.md"), None);
/// assert_eq!(index_row_open("- data.md: in progress\n", "notes/a.md"), None, "another file");
/// assert_eq!(index_row_open("| 5 | [05-plan.md](./05-plan.md) | Sequencing, 10 named open decisions, pending review of D1 |\n", "p/05-plan.md"), None, "a description");
/// assert_eq!(index_row_open("| 5 | [05-plan.md](./05-plan.md) | Sequencing | 🚧 **In progress** |\n", "p/05-plan.md").is_some(), true);
/// ```
pub fn index_row_open(text: &str, path: &str) -> Option<String> {
    let name = base_name(path);
    let number = name
        .split(['-', '_', '.'])
        .next()
        .filter(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()));
    // The name whole: not `data.md` for `a.md`.
    let at_name = |l: &str| {
        l.match_indices(name)
            .find(|(i, _)| {
                !l[..*i].ends_with(|c: char| c.is_alphanumeric() || matches!(c, '-' | '_' | '.'))
            })
            .map(|(i, _)| i + name.len())
    };
    let first_cell_is = |l: &str, n: &str| {
        l.trim_start()
            .strip_prefix('|')
            .and_then(|r| r.split('|').next())
            .is_some_and(|cell| cell.trim() == n)
    };
    let row = text
        .lines()
        .find(|l| at_name(l).is_some() || number.is_some_and(|n| first_cell_is(l, n)))?;
    // A status starts its text: markup, emoji and separators aside.
    let open = if row.trim_start().starts_with('|') {
        row.split('|').any(opens_with_open_status)
    } else {
        at_name(row).is_some_and(|end| opens_with_open_status(&row[end..]))
    };
    (open && !says_done(row)).then(|| row.trim().to_string())
}

/// The folders' indexes ([`INDEX_NAMES`]), each read once per evaluation however many of its
/// plans ask: `(index path, text)` per folder.
#[derive(Default)]
struct Indexes {
    /// Per folder, its index file and text.
    index: HashMap<String, Option<(String, String)>>,
    /// Per folder, the plan in it that carries a [`KEPT_PLAN_CONTRACTS`] field, with the field.
    kept: HashMap<String, Option<(String, String)>>,
    /// Per folder, its tracker ([`TRACKER_NAMES`]) and the first open item it lists.
    tracker: HashMap<String, Option<(String, String)>>,
}

/// Frontmatter fields (`key`, a prefix of its value) that mark a plan written by a tool whose
/// plans are kept records, so that every plan in its folder is kept. compound-engineering's
/// `ce-plan` writes `artifact_contract: ce-unified-plan/v1`; that plugin calls its plans
/// "point-in-time decision records" (whether the work shipped is read from git) and its review
/// rules discard any finding that recommends deleting a file under `docs/plans/` ("Protected
/// Artifacts"). Older plans of the same folder predate the field. Asked about anyway, 109 such
/// plans of one repository were each a question whose answer its maintainers had already
/// written down.
pub const KEPT_PLAN_CONTRACTS: &[(&str, &str)] = &[("artifact_contract", "ce-unified-plan")];

/// The [`KEPT_PLAN_CONTRACTS`] field in `text`'s frontmatter, as written (`key: value`).
///
/// ```
/// use hygiene::lifecycle::eval::kept_contract;
/// let plan = "---\ntitle: X\nartifact_contract: ce-unified-plan/v1\n---\n# X\n";
/// assert_eq!(kept_contract(plan).as_deref(), Some("artifact_contract: ce-unified-plan/v1"));
/// assert_eq!(kept_contract("---\nartifact_contract: other/v2\n---\n"), None);
/// assert_eq!(kept_contract("# X\n\nartifact_contract: ce-unified-plan/v1\n"), None);
/// ```
pub fn kept_contract(text: &str) -> Option<String> {
    let mut lines = text.lines();
    if lines.next()?.trim_end() != "---" {
        return None;
    }
    lines
        .take_while(|l| !matches!(l.trim_end(), "---" | "..."))
        .find_map(|l| {
            let (k, v) = l.split_once(':')?;
            let v = v.trim().trim_matches(|c| c == '"' || c == '\'');
            KEPT_PLAN_CONTRACTS
                .iter()
                .any(|(key, prefix)| k.trim() == *key && v.starts_with(prefix))
                .then(|| format!("{}: {v}", k.trim()))
        })
}

impl Indexes {
    /// The tracker beside root-relative `path` (not `path` itself) and the first open item it
    /// lists ([`tracker_open`]).
    fn tracker_open_beside(&mut self, root: &Path, path: &str) -> Option<(String, String)> {
        let folder = path.rsplit_once('/').map_or("", |(d, _)| d);
        self.tracker
            .entry(folder.to_string())
            .or_insert_with(|| {
                TRACKER_NAMES.iter().find_map(|n| {
                    let rel = crate::scan::sites::join(folder, n);
                    let row = read_text(root, &rel).as_deref().and_then(tracker_open)?;
                    Some((rel, row))
                })
            })
            .clone()
            .filter(|(tracker, _)| tracker != path)
    }

    /// A plan in the folder of root-relative `path` (itself included) whose frontmatter carries
    /// a [`KEPT_PLAN_CONTRACTS`] field: `(plan, field)`.
    fn kept_by_contract(&mut self, root: &Path, path: &str) -> Option<(String, String)> {
        let folder = path.rsplit_once('/').map_or("", |(d, _)| d);
        self.kept
            .entry(folder.to_string())
            .or_insert_with(|| {
                let full = crate::paths::resolve_inside(root, folder, false).ok()?;
                let mut names: Vec<String> = std::fs::read_dir(full)
                    .ok()?
                    .filter_map(|e| e.ok()?.file_name().into_string().ok())
                    .filter(|n| n.ends_with(".md"))
                    .collect();
                names.sort();
                names.into_iter().find_map(|n| {
                    let rel = crate::scan::sites::join(folder, &n);
                    if !is_regular(root, &rel) {
                        return None;
                    }
                    read_text(root, &rel)
                        .as_deref()
                        .and_then(kept_contract)
                        .map(|f| (rel, f))
                })
            })
            .clone()
    }

    /// The row of the index beside root-relative file `path` that lists it as not done
    /// ([`index_row_open`]). An index is not its own index: the next name is read for it.
    fn listed_open(&mut self, root: &Path, path: &str) -> Option<String> {
        let folder = path.rsplit_once('/').map_or("", |(d, _)| d);
        let first = |skip: Option<&str>| {
            INDEX_NAMES
                .iter()
                .map(|n| crate::scan::sites::join(folder, n))
                .filter(|i| Some(i.as_str()) != skip)
                .find_map(|i| read_text(root, &i).map(|t| (i, t)))
        };
        let cached = self
            .index
            .entry(folder.to_string())
            .or_insert_with(|| first(None));
        match cached {
            Some((index, _)) if index == path => {
                first(Some(path)).and_then(|(_, t)| index_row_open(&t, path))
            }
            Some((_, text)) => index_row_open(text, path),
            None => None,
        }
    }
}

/// Ranks one temporary rule's items newest first (ties by path) and decides each.
fn rank_temporary(
    root: &Path,
    rule: &Rule,
    items: &mut [(Governed, Dated)],
    now: i64,
    indexes: &mut Indexes,
) {
    items.sort_by(|(a, da), (b, db)| db.secs.cmp(&da.secs).then_with(|| a.path.cmp(&b.path)));
    let of = items.len() as u32;
    for (i, (g, d)) in items.iter_mut().enumerate() {
        let rank = i as u32 + 1;
        let age_secs = now - d.secs;
        let age_days = age_secs.div_euclid(86_400);
        let outside = rank > rule.retain_recent;
        let old = age_secs > i64::from(rule.max_age_days) * 86_400;
        let date = crate::time::format_date(d.secs);
        g.facts = Facts {
            evidence: Some(Evidence::TemporaryAge),
            date: Some(date.clone()),
            date_source: Some(d.source),
            rank: Some(rank),
            of: Some(of),
            age_days: Some(age_days),
            retain_recent: Some(rule.retain_recent),
            max_age_days: Some(rule.max_age_days),
            ..std::mem::take(&mut g.facts)
        };
        let source = match d.source {
            DateSource::Name => "the name",
            DateSource::Commit => "its last commit",
            DateSource::Mtime => "its modification time",
        };
        // The folder's README that lists the item as still to do (`| 005 | ... | TODO |`)
        // keeps it, whatever its age: an index the executors update says it has not served.
        let open_row = (outside && old && !g.is_dir)
            .then(|| indexes.listed_open(root, &g.path))
            .flatten()
            .map(|row| format!("kept: its folder's index lists it as not done (`{row}`)"));
        let verdict = match (outside, old) {
            _ if open_row.is_some() => open_row.as_deref().unwrap_or_default(),
            (true, true) => "served",
            (false, _) => "kept: among the newest",
            (true, false) => "kept: not old enough",
        };
        g.evidence = format!(
            "dated {date} (from {source}), rank {rank} of {of} newest first (keeps {}), {age_days} days old (limit {}): {verdict}",
            rule.retain_recent, rule.max_age_days
        );
        if outside && old && open_row.is_none() {
            g.status = Status::Served;
            g.served = Some(true);
            let text = if g.is_dir {
                None
            } else {
                read_text(root, &g.path)
            };
            g.suggestion = Some(edit_for(g, rule, text.as_deref()));
        }
    }
}

fn read_text(root: &Path, rel: &str) -> Option<String> {
    let full = crate::paths::resolve_inside(root, rel, false).ok()?;
    let meta = std::fs::metadata(&full).ok()?;
    // Not a regular file (a FIFO would block the read): no text.
    if !meta.is_file() || meta.len() > READ_CAP {
        return None;
    }
    String::from_utf8(std::fs::read(full).ok()?).ok()
}

/// Whether a root-relative path is a regular file inside the root (not a link, FIFO or device).
fn is_regular(root: &Path, rel: &str) -> bool {
    crate::paths::resolve_inside(root, rel, false)
        .ok()
        .and_then(|p| std::fs::symlink_metadata(p).ok())
        .is_some_and(|m| m.is_file())
}

/// Whether a root-relative path exists inside the root (file or folder; no link out).
pub fn path_exists(root: &Path, rel: &str) -> bool {
    crate::paths::resolve_inside(root, rel, false)
        .ok()
        .is_some_and(|p| std::fs::symlink_metadata(p).is_ok())
}

/// The value of a `served_when_path:` line in the document's YAML frontmatter.
fn frontmatter_served_path(text: &str) -> Option<String> {
    let mut lines = text.lines();
    if lines.next()?.trim_end() != "---" {
        return None;
    }
    for line in lines {
        let t = line.trim_end();
        if t == "---" || t == "..." {
            return None;
        }
        if let Some(v) = t.strip_prefix("served_when_path:") {
            let v = v.trim().trim_matches(|c| c == '"' || c == '\'').trim();
            return (!v.is_empty()).then(|| v.to_string());
        }
    }
    None
}

/// Resolves a document's own path reference: against its folder first, then the root (the
/// scanner's rule for references). A path that exists in neither place resolves root-relative.
fn resolve_document_path(root: &Path, doc: &str, raw: &str) -> Option<String> {
    let raw = raw.strip_prefix("./").unwrap_or(raw);
    let folder = doc.rsplit_once('/').map(|(d, _)| d);
    let local = folder.map(|d| format!("{d}/{raw}"));
    let candidates: Vec<String> = local.into_iter().chain([raw.to_string()]).collect();
    let valid: Vec<String> = candidates
        .into_iter()
        .filter(|c| crate::paths::check_relative(c).is_ok() && !is_self(c, doc))
        .collect();
    valid
        .iter()
        .find(|c| path_exists(root, c))
        .or(valid.last())
        .cloned()
}

/// A served path that is the document itself (or inside it) would prove nothing.
fn is_self(candidate: &str, doc: &str) -> bool {
    let c = candidate.trim_end_matches('/');
    c == doc || c.starts_with(&format!("{doc}/"))
}

/// Fills a `served_when_path` template for `path`; `None` when the result is not a valid
/// root-relative path.
pub fn fill_template(template: &str, path: &str) -> Option<String> {
    let (dir, name) = match path.rsplit_once('/') {
        Some((d, n)) => (d, n),
        None => ("", path),
    };
    let stem = match name.rsplit_once('.') {
        Some((s, _)) if !s.is_empty() => s,
        _ => name,
    };
    let filled = template
        .replace("{path}", path)
        .replace("{dir}", dir)
        .replace("{name}", name)
        .replace("{stem}", stem);
    // `{dir}/x` for a document at the root becomes `/x`: drop the empty folder.
    let filled = filled.trim_start_matches('/').to_string();
    crate::paths::check_relative(&filled).ok().map(|_| filled)
}

/// The 1-based line range of the section under the first heading whose text equals `heading`
/// (case-insensitively, trimmed), through the line before the next heading of the same or a
/// higher level. `None` when there is no such heading, or the section has nothing under it.
pub fn section_lines(text: &str, heading: &str) -> Option<LineRange> {
    use pulldown_cmark::{Event, Options, Parser, Tag, TagEnd};
    let line_starts: Vec<usize> = std::iter::once(0)
        .chain(text.match_indices('\n').map(|(i, _)| i + 1))
        .filter(|&i| i < text.len())
        .collect();
    let line_of = |offset: usize| match line_starts.binary_search(&offset) {
        Ok(i) => i + 1,
        Err(i) => i,
    };
    // (level, text, first line, last line) of every heading outside code and frontmatter.
    let mut headings: Vec<(usize, String, usize, usize)> = Vec::new();
    let mut current: Option<(usize, String, usize, usize)> = None;
    let opts = Options::ENABLE_YAML_STYLE_METADATA_BLOCKS;
    for (event, range) in Parser::new_ext(text, opts).into_offset_iter() {
        match event {
            Event::Start(Tag::Heading { level, .. }) => {
                let last = line_of(range.end.saturating_sub(1).max(range.start));
                current = Some((level as usize, String::new(), line_of(range.start), last));
            }
            Event::Text(t) | Event::Code(t) => {
                if let Some(c) = current.as_mut() {
                    c.1.push_str(&t);
                }
            }
            Event::End(TagEnd::Heading(_)) => headings.extend(current.take()),
            _ => {}
        }
    }
    let want = heading.trim().to_lowercase();
    let at = headings
        .iter()
        .position(|(_, t, _, _)| t.trim().to_lowercase() == want)?;
    let (level, _, start, head_end) = headings[at].clone();
    let end = headings[at + 1..]
        .iter()
        .find(|(l, _, _, _)| *l <= level)
        .map(|(_, _, s, _)| s - 1)
        .unwrap_or(line_starts.len());
    let lines: Vec<&str> = text.lines().collect();
    let has_body =
        (head_end + 1..=end).any(|n| lines.get(n - 1).is_some_and(|l| !l.trim().is_empty()));
    has_body.then_some(LineRange {
        start_line: start as u32,
        end_line: end as u32,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_in_names() {
        assert_eq!(
            date_in_name("2026-01-05-handoff.md"),
            crate::time::parse_date("2026-01-05")
        );
        assert_eq!(
            date_in_name("handoff_2026-01-05.md"),
            crate::time::parse_date("2026-01-05")
        );
        assert_eq!(date_in_name("2026-13-05.md"), None);
        assert_eq!(date_in_name("12026-01-05.md"), None);
        assert_eq!(date_in_name("notes.md"), None);
    }

    #[test]
    fn templates_fill() {
        assert_eq!(
            fill_template("{dir}/{stem}.done", "docs/plans/a.md").as_deref(),
            Some("docs/plans/a.done")
        );
        assert_eq!(fill_template("{dir}/DONE", "a.md").as_deref(), Some("DONE"));
        assert_eq!(
            fill_template("{path}/DONE", "scratch").as_deref(),
            Some("scratch/DONE")
        );
    }

    #[test]
    fn sections_end_at_same_or_higher_heading() {
        let t =
            "# Plan\n\n## Steps\n- a\n\n## Decisions\nWe chose X.\n### Why\nBecause.\n\n## Next\n";
        assert_eq!(
            section_lines(t, "decisions"),
            Some(LineRange {
                start_line: 6,
                end_line: 10
            })
        );
        let t = "# Plan\n## Decisions\n## Next\n";
        assert_eq!(section_lines(t, "Decisions"), None, "empty section");
        let t = "# Plan\n```\n## Decisions\n```\n";
        assert_eq!(section_lines(t, "Decisions"), None, "inside code");
        let t = "---\nserved_when_path: x\n---\n# P\n## Decisions\nA\n";
        assert_eq!(
            section_lines(t, "Decisions"),
            Some(LineRange {
                start_line: 5,
                end_line: 6
            })
        );
    }

    #[test]
    fn frontmatter_line() {
        assert_eq!(
            frontmatter_served_path("---\ntitle: x\nserved_when_path: \"src/a.rs\"\n---\n")
                .as_deref(),
            Some("src/a.rs")
        );
        assert_eq!(frontmatter_served_path("# x\nserved_when_path: a\n"), None);
    }
}
