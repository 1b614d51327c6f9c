//! One function per exact-edit kind (plus the generative replacement). Each reads the current
//! bytes from the [`Workspace`], checks what only it can check (the `match` inside the anchor,
//! the kept copy of a dedupe, the frontmatter key), and returns the [`EntryPlan`] it needs;
//! nothing here writes to disk.

use super::guards;
use super::plan::{Change, EntryPlan, Refusal, Workspace};
use super::text;
use crate::protect::Role;
use crate::report::{Anchor, EditKind, Entry, ExactEdit, ExtractionTarget, WholeKind};
use std::path::Path;

/// The write table ([`crate::protect`]) for one path in one role.
fn allowed(ws: &Workspace, role: Role, rel: &str) -> Result<(), Refusal> {
    crate::protect::check(&ws.root, role, rel)
        .map_err(|r| Refusal::hard(format!("{} [{}]", r.message, r.rule)))
}

/// What an entry asks of its op beyond the report.
#[derive(Debug, Clone, Copy)]
pub struct Ctx<'a> {
    /// The entry.
    pub entry: &'a Entry,
    /// `--extract-to`, for a cross-repo extraction.
    pub extract_to: Option<&'a Path>,
    /// `--proposal` bytes, for a generative entry.
    pub proposal: Option<&'a [u8]>,
    /// A generative target's check-time sha256 (from the report's sidecar).
    pub fingerprint: Option<&'a str>,
    /// The live rulebook, to refuse a dedupe whose kept copy a lifecycle rule will delete.
    pub rulebook: Option<&'a crate::lifecycle::Rulebook>,
    /// Who reads what, to refuse a dedupe that would lose its span for some reader.
    pub readers: Option<&'a crate::readers::ReaderMap>,
}

/// An op's verdict when it passed its guards.
#[derive(Debug)]
pub enum Planned {
    /// The edit to commit.
    Plan(EntryPlan),
    /// The file already says what the edit would make it say.
    AlreadyDone(String),
}

/// The line an entry is ordered by: entries on one file run from the highest start line down;
/// whole-file ops and frontmatter (which shifts every line) run last.
pub fn order_line(edit: Option<&ExactEdit>) -> u32 {
    match edit {
        Some(e)
            if !matches!(
                e.kind,
                EditKind::InsertFrontmatter | EditKind::Delete | EditKind::ExtractThenDelete
            ) =>
        {
            match e.anchor {
                Some(Anchor::Lines(r)) => r.start_line,
                _ => 0,
            }
        }
        _ => 0,
    }
}

/// Plans one entry.
pub fn plan_entry(ws: &mut Workspace, ctx: &Ctx) -> Result<Planned, Refusal> {
    let role = match ctx.entry.exact_edit.as_ref().map(|x| x.kind) {
        Some(EditKind::Delete | EditKind::ExtractThenDelete) => Role::Delete,
        _ => Role::Edit,
    };
    allowed(ws, role, ctx.entry.path.trim_end_matches('/'))?;
    let Some(edit) = ctx.entry.exact_edit.as_ref() else {
        return generative(ws, ctx).map(Planned::Plan);
    };
    let row = crate::kinds::rule(edit.kind);
    if row.lifecycle {
        let lc = edit.lifecycle.as_ref().or(ctx.entry.lifecycle.as_ref());
        if let Some(lc) = lc.filter(|lc| lc.lifetime == crate::report::Lifetime::Keep) {
            return Err(Refusal::hard(format!(
                "rule `{}` says keep; no lifecycle op may touch this document",
                lc.rule_ref
            )));
        }
    }
    let plan = match edit.kind {
        EditKind::DeleteRange => delete_range(ws, ctx, edit)?,
        EditKind::ReplaceText => replace_text(ws, ctx, edit)?,
        EditKind::Dedupe => dedupe(ws, ctx, edit)?,
        EditKind::MoveToArchive => move_to_archive(ws, ctx, edit)?,
        EditKind::InsertFrontmatter => return insert_frontmatter(ws, ctx, edit),
        EditKind::Delete => delete(ws, ctx, edit)?,
        EditKind::ExtractThenDelete => extract_then_delete(ws, ctx, edit)?,
    };
    Ok(Planned::Plan(plan))
}

fn lines_anchor(edit: &ExactEdit) -> Result<(u32, u32), Refusal> {
    match edit.anchor {
        Some(Anchor::Lines(r)) => Ok((r.start_line, r.end_line)),
        _ => Err(Refusal::hard("the edit needs a line anchor")),
    }
}

/// The guarded target text and a checked line anchor.
fn anchored(
    ws: &mut Workspace,
    ctx: &Ctx,
    edit: &ExactEdit,
    (removes, in_line): (bool, bool),
) -> Result<(String, u32, u32), Refusal> {
    let path = &ctx.entry.path;
    let text = ws.target(path, edit.expected_sha256.as_deref(), true)?;
    let (s, e) = lines_anchor(edit)?;
    let original_lines = ws.slots[path.as_str()]
        .base
        .as_deref()
        .map(|b| b.split_inclusive(|&c| c == b'\n').count())
        .unwrap_or(0);
    text::check_anchor(original_lines, s, e)
        .map_err(|m| Refusal::stale(format!("`{path}`: {m}")))?;
    ws.check_lines(path, (s, e), removes, in_line)?;
    Ok((text, s, e))
}

fn rewrite(key: &str, text: String, from: u32) -> Change {
    Change {
        key: key.to_string(),
        content: Some(text.into_bytes()),
        touched_from: from,
        in_line: false,
    }
}

fn single(change: Change) -> EntryPlan {
    EntryPlan {
        changes: vec![change],
        ..EntryPlan::default()
    }
}

/// `delete-range`: removes lines `start..=end`.
fn delete_range(ws: &mut Workspace, ctx: &Ctx, edit: &ExactEdit) -> Result<EntryPlan, Refusal> {
    let (text, s, e) = anchored(ws, ctx, edit, (true, false))?;
    Ok(single(rewrite(
        &ctx.entry.path,
        text::splice(&text, s, e, ""),
        s,
    )))
}

/// `replace-text`: points a broken reference at one that resolves, in its one line, where it
/// stands on its own ([`crate::reference::swap_problem`]).
fn replace_text(ws: &mut Workspace, ctx: &Ctx, edit: &ExactEdit) -> Result<EntryPlan, Refusal> {
    if let Some(why) = crate::kinds::replace_text_problem(edit) {
        return Err(Refusal::hard(why));
    }
    let m = edit.match_text.as_deref().unwrap_or("");
    let r = edit.replacement.as_deref().unwrap_or("");
    // One line rewritten within itself: no line moves, so another such rewrite of the same
    // line (a second renamed reference on it) keeps a true anchor.
    let one_line = lines_anchor(edit).is_ok_and(|(s, e)| s == e)
        && !m.contains(['\n', '\r'])
        && !r.contains(['\n', '\r']);
    let (text, s, e) = anchored(ws, ctx, edit, (true, one_line))?;
    let region = text::span(&text, s, e);
    if !region.contains(m) {
        return Err(Refusal::stale(format!(
            "`{}`: the match text does not occur in lines {s}-{e}",
            ctx.entry.path
        )));
    }
    if let Some(why) = crate::reference::swap_problem(&ws.root, &ctx.entry.path, &region, m, r) {
        return Err(Refusal::hard(format!(
            "`{}` line {s}: {why}",
            ctx.entry.path
        )));
    }
    let new_region = crate::reference::replace_whole(&region, m, r);
    let mut change = rewrite(&ctx.entry.path, text::splice(&text, s, e, &new_region), s);
    change.in_line = one_line;
    Ok(single(change))
}

/// Parses `path:start-end`.
fn parse_ref(r: &str) -> Option<(&str, u32, u32)> {
    let (path, range) = r.rsplit_once(':')?;
    let (a, b) = range.split_once('-').unwrap_or((range, range));
    Some((path, a.trim().parse().ok()?, b.trim().parse().ok()?))
}

/// `dedupe`: removes the span after checking it still equals, whitespace folded, the kept copy
/// at `canonical_ref`, and protects that copy for the rest of the batch.
fn dedupe(ws: &mut Workspace, ctx: &Ctx, edit: &ExactEdit) -> Result<EntryPlan, Refusal> {
    let (text, s, e) = anchored(ws, ctx, edit, (true, false))?;
    let cref = edit.canonical_ref.as_deref().unwrap_or("");
    let Some((cpath, cs, ce)) = parse_ref(cref) else {
        return Err(Refusal::hard(format!(
            "canonical_ref `{cref}` is not `path:start-end`"
        )));
    };
    // The kept copy is read by its one real name (no link on the way), and the slot refuses a
    // second name of the entry's own file, so the two copies are two files.
    let cabs = guards::resolve(&ws.root, "canonical_ref", cpath, true).map_err(Refusal::hard)?;
    if let Some(rule) = ctx.rulebook.and_then(|b| b.governs(cpath)) {
        return Err(Refusal::hard(format!(
            "the kept copy `{cpath}` is governed by lifecycle rule `{}`, which will delete it; a dedupe keeps its text only in a document that stays",
            rule.id
        )));
    }
    if let Some(readers) = ctx.readers {
        let imports = crate::readers::imports_of(&ws.root, &ctx.entry.path, &text);
        if let Some(why) = crate::readers::dedupe_problem(
            &readers.of(&ctx.entry.path),
            &readers.of(cpath),
            imports.contains(cpath),
        ) {
            return Err(Refusal::hard(format!(
                "`{}` cannot lose lines {s}-{e} to `{cpath}`: {why}",
                ctx.entry.path
            )));
        }
    }
    if let Some(why) = crate::scan::markdown::span_problem(&text, s, e) {
        return Err(Refusal::hard(format!("`{}`: {why}", ctx.entry.path)));
    }
    let slot = ws.slot(cpath, &cabs, false)?;
    let (Some(orig), Some(cur)) = (slot.base.as_deref(), slot.current.clone()) else {
        return Err(Refusal::stale(format!(
            "the kept copy `{cpath}` does not exist (or an earlier entry removes it)"
        )));
    };
    let n = orig.split_inclusive(|&c| c == b'\n').count();
    text::check_anchor(n, cs, ce).map_err(|m| Refusal::stale(format!("`{cpath}`: {m}")))?;
    ws.check_lines(cpath, (cs, ce), false, false)?;
    if cpath == ctx.entry.path && cs <= e && s <= ce {
        return Err(Refusal::hard(format!(
            "the span {s}-{e} overlaps its own kept copy {cref}"
        )));
    }
    let ctext = std::str::from_utf8(&cur)
        .map_err(|_| Refusal::hard(format!("`{cpath}` is not UTF-8 text")))?;
    let kept = text::span(ctext, cs, ce);
    let removed = text::span(&text, s, e);
    if text::fold(&kept) != text::fold(&removed) {
        return Err(Refusal::stale(format!(
            "lines {s}-{e} of `{}` no longer equal the kept copy at {cref}",
            ctx.entry.path
        )));
    }
    // A blank line beside the block goes with it (`text::removal_span`), unless an earlier
    // entry of the batch changed that line.
    let (from, upto) = text::removal_span(&text, s, e);
    let (from, upto) = if upto > e
        && ws
            .check_lines(&ctx.entry.path, (upto, upto), true, false)
            .is_err()
    {
        (s, e)
    } else {
        (from, upto)
    };
    let mut plan = single(rewrite(
        &ctx.entry.path,
        text::splice(&text, from, upto, ""),
        from,
    ));
    plan.protect.push((cpath.to_string(), cs, ce));
    Ok(plan)
}

/// Folders to create so that root-relative `rel` can be written.
fn missing_dirs(root: &Path, rel: &str) -> Result<Vec<String>, Refusal> {
    let mut out = Vec::new();
    let segs: Vec<&str> = rel.split('/').collect();
    for i in 1..segs.len() {
        let d = segs[..i].join("/");
        match std::fs::symlink_metadata(root.join(&d)) {
            Ok(m) if m.is_dir() => {}
            Ok(_) => {
                return Err(Refusal::hard(format!(
                    "`{d}` is not a folder, so `{rel}` cannot be created"
                )))
            }
            Err(_) => out.push(d),
        }
    }
    Ok(out)
}

/// Appends `block` to the in-repository file `rel` (created with its folders if missing).
fn append_to(
    ws: &mut Workspace,
    field: &str,
    rel: &str,
    block: &str,
    default_eol: &str,
) -> Result<(Change, Vec<String>), Refusal> {
    let abs = guards::resolve(&ws.root, field, rel, true).map_err(Refusal::hard)?;
    allowed(ws, Role::Target, rel)?;
    let dirs = missing_dirs(&ws.root, rel)?;
    let slot = ws.slot(rel, &abs, false)?;
    if slot.original.is_some() && slot.current.is_none() {
        return Err(Refusal::hard(format!(
            "{field} `{rel}` is removed by an earlier entry of this batch"
        )));
    }
    let existing = slot.current.clone().unwrap_or_default();
    let existing = String::from_utf8(existing)
        .map_err(|_| Refusal::hard(format!("{field} `{rel}` is not UTF-8 text")))?;
    let eol = if existing.contains('\n') {
        text::eol(&existing)
    } else {
        default_eol
    };
    let old_lines = text::lines(&existing).len() as u32;
    let block = if eol == "\n" {
        block.to_string()
    } else {
        block.replace("\r\n", "\n").replace('\n', eol)
    };
    let new = text::append(&existing, &block, eol);
    Ok((rewrite(rel, new, old_lines + 1), dirs))
}

/// The span with a line terminator on its last line.
fn terminated(span: String, eol: &str) -> String {
    if span.ends_with('\n') {
        span
    } else {
        span + eol
    }
}

/// `move-to-archive`: appends the span to `dest_path` (created with its folders), then
/// removes it from the document.
fn move_to_archive(ws: &mut Workspace, ctx: &Ctx, edit: &ExactEdit) -> Result<EntryPlan, Refusal> {
    let (text, s, e) = anchored(ws, ctx, edit, (true, false))?;
    let dest = edit.dest_path.as_deref().unwrap_or("");
    if dest == ctx.entry.path {
        return Err(Refusal::hard("dest_path is the document itself"));
    }
    let eol = text::eol(&text);
    let span = terminated(text::span(&text, s, e), eol);
    let (dest_change, dirs) = append_to(ws, "dest_path", dest, &span, eol)?;
    Ok(EntryPlan {
        changes: vec![
            dest_change,
            rewrite(&ctx.entry.path, text::splice(&text, s, e, ""), s),
        ],
        dirs_create: dirs,
        ..EntryPlan::default()
    })
}

/// A frontmatter key hygiene will write: plain YAML, no quoting needed.
fn valid_key(k: &str) -> bool {
    let mut chars = k.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphanumeric() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'))
}

/// The value as YAML: plain when it is safe, else a JSON string (valid YAML double-quoted).
fn yaml_value(v: &str) -> String {
    let plain = v
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphanumeric() || c == '_' || c == '/')
        && !v.ends_with(' ')
        && v.chars().all(|c| {
            c.is_ascii_alphanumeric() || matches!(c, ' ' | '_' | '.' | '/' | '-' | '+' | '@')
        });
    if plain {
        v.to_string()
    } else {
        serde_json::to_string(v).unwrap_or_default()
    }
}

fn unquote(v: &str) -> String {
    let v = v.trim();
    if v.len() >= 2
        && ((v.starts_with('"') && v.ends_with('"')) || (v.starts_with('\'') && v.ends_with('\'')))
    {
        if v.starts_with('"') {
            if let Ok(s) = serde_json::from_str::<String>(v) {
                return s;
            }
        }
        return v[1..v.len() - 1].to_string();
    }
    v.to_string()
}

/// `insert-frontmatter`: adds `key: value` to the leading `---` block, or creates the block.
/// The same value already present is reported as done; a different one is refused.
fn insert_frontmatter(ws: &mut Workspace, ctx: &Ctx, edit: &ExactEdit) -> Result<Planned, Refusal> {
    let path = &ctx.entry.path;
    let text = ws.target(path, edit.expected_sha256.as_deref(), true)?;
    let key = edit.key.as_deref().unwrap_or("");
    let value = edit.value.as_deref().unwrap_or("");
    if !valid_key(key) {
        return Err(Refusal::hard(format!(
            "frontmatter key `{key}` is not a plain YAML key"
        )));
    }
    if value.contains('\n') || value.contains('\r') {
        return Err(Refusal::hard("frontmatter value spans several lines"));
    }
    let eol = text::eol(&text);
    let (bom, body) = match text.strip_prefix('\u{feff}') {
        Some(rest) => ("\u{feff}", rest),
        None => ("", text.as_str()),
    };
    let ls = text::lines(body);
    let line = format!("{key}: {}{eol}", yaml_value(value));
    let is_fence = |l: &str| l.trim_end_matches(['\r', '\n']).trim_end() == "---";
    let new = if ls.first().is_some_and(|l| is_fence(l)) {
        let Some(close) = ls
            .iter()
            .enumerate()
            .skip(1)
            .find(|(_, l)| is_fence(l) || l.trim_end_matches(['\r', '\n']) == "...")
            .map(|(i, _)| i)
        else {
            return Err(Refusal::hard(format!(
                "`{path}` opens a frontmatter block that never closes"
            )));
        };
        for l in &ls[1..close] {
            if l.starts_with([' ', '\t', '#']) {
                continue;
            }
            if let Some((k, v)) = l.split_once(':') {
                if k.trim() == key {
                    let have = unquote(v.trim_end_matches(['\r', '\n']));
                    if have == value {
                        return Ok(Planned::AlreadyDone(format!(
                            "`{path}` already has `{key}: {value}`"
                        )));
                    }
                    return Err(Refusal::hard(format!(
                        "`{path}` already sets `{key}` to `{have}`, not `{value}`"
                    )));
                }
            }
        }
        format!(
            "{bom}{}{line}{}",
            ls[..close].concat(),
            ls[close..].concat()
        )
    } else {
        format!("{bom}---{eol}{line}---{eol}{body}")
    };
    Ok(Planned::Plan(single(rewrite(path, new, 1))))
}

/// The whole-file removal half of `delete` and `extract-then-delete`.
fn remove_file(ws: &Workspace, rel: &str) -> Result<Change, Refusal> {
    ws.check_untouched(rel)?;
    Ok(Change {
        key: rel.to_string(),
        content: None,
        touched_from: 0,
        in_line: false,
    })
}

/// `delete`: removes the file, or the whole directory for a `{"whole":"directory"}` anchor.
fn delete(ws: &mut Workspace, ctx: &Ctx, edit: &ExactEdit) -> Result<EntryPlan, Refusal> {
    let path = ctx.entry.path.trim_end_matches('/').to_string();
    let whole = match edit.anchor {
        Some(Anchor::Whole(w)) => w.whole,
        _ => {
            return Err(Refusal::hard(
                "delete needs a whole-file or whole-directory anchor",
            ))
        }
    };
    let abs = guards::resolve(&ws.root, "path", &path, true).map_err(Refusal::hard)?;
    let is_dir = std::fs::symlink_metadata(&abs).is_ok_and(|m| m.is_dir());
    match whole {
        WholeKind::File => {
            if is_dir {
                return Err(Refusal::stale(format!(
                    "`{path}` is a directory; the entry deletes a file"
                )));
            }
            ws.guarded(&path, edit.expected_sha256.as_deref(), true)?;
            Ok(single(remove_file(ws, &path)?))
        }
        WholeKind::Directory => delete_dir(ws, &path, &abs, is_dir, edit),
    }
}

fn delete_dir(
    ws: &mut Workspace,
    path: &str,
    abs: &Path,
    is_dir: bool,
    edit: &ExactEdit,
) -> Result<EntryPlan, Refusal> {
    if !is_dir {
        return Err(Refusal::stale(format!("`{path}` is not a directory")));
    }
    let prefix = format!("{path}/");
    if ws
        .slots
        .iter()
        .any(|(k, s)| k.starts_with(&prefix) && !s.untouched())
    {
        return Err(Refusal::hard(format!(
            "an earlier entry of this batch changes a file under `{path}`"
        )));
    }
    let Some(expected) = edit.expected_sha256.as_deref() else {
        return Err(Refusal::hard(format!(
            "the entry for `{path}` has no expected_sha256"
        )));
    };
    let actual = guards::dir_digest(abs).map_err(|e| Refusal::hard(format!("`{path}`: {e}")))?;
    if !actual.eq_ignore_ascii_case(expected) {
        return Err(Refusal::stale(format!(
            "`{path}` changed since the check (directory digest {} is not the expected {})",
            super::plan::short(&actual),
            super::plan::short(expected)
        )));
    }
    guards::check_mtime(abs, path, ws.generated_at).map_err(Refusal::stale)?;
    let listing = guards::list_dir(abs).map_err(|e| Refusal::hard(format!("`{path}`: {e}")))?;
    if let Some(o) = listing.other.first() {
        return Err(Refusal::hard(format!(
            "`{path}/{o}` is a link or special file; delete this directory by hand"
        )));
    }
    let mut plan = EntryPlan::default();
    for f in &listing.files {
        let key = format!("{path}/{f}");
        allowed(ws, Role::Delete, &key)?;
        let fabs = abs.join(f);
        ws.slot(&key, &fabs, false)?;
        plan.changes.push(remove_file(ws, &key)?);
    }
    plan.dirs_remove.push(path.to_string());
    plan.dirs_remove
        .extend(listing.dirs.iter().map(|d| format!("{path}/{d}")));
    Ok(plan)
}

/// `extract-then-delete`: appends the span under a heading naming its source to the durable
/// target (`repo-durable`: `target_path`; `cross-repo`: the `--extract-to` file outside the
/// repository, which must not exist yet), then removes the document. The removal is executed
/// only after the extraction was written and read back.
fn extract_then_delete(
    ws: &mut Workspace,
    ctx: &Ctx,
    edit: &ExactEdit,
) -> Result<EntryPlan, Refusal> {
    let path = ctx.entry.path.clone();
    let (text, s, e) = anchored(ws, ctx, edit, (true, false))?;
    let removal = remove_file(ws, &path)?;
    let eol = text::eol(&text);
    let span = terminated(text::span(&text, s, e), eol);
    let heading = format!("## From {path} (lines {s}-{e})");
    let mut plan = EntryPlan::default();
    match edit.extraction_target {
        Some(ExtractionTarget::RepoDurable) => {
            let target = edit.target_path.as_deref().unwrap_or("");
            if target == path {
                return Err(Refusal::hard("target_path is the document itself"));
            }
            let existing_empty = ws
                .slots
                .get(target)
                .map(|s| s.current.as_deref().is_none_or(|c| c.is_empty()))
                .unwrap_or_else(|| {
                    std::fs::metadata(ws.root.join(target)).map_or(true, |m| m.len() == 0)
                });
            let block = if existing_empty {
                format!("{heading}{eol}{eol}{span}")
            } else {
                format!("{eol}{heading}{eol}{eol}{span}")
            };
            let (change, dirs) = append_to(ws, "target_path", target, &block, eol)?;
            plan.changes.push(change);
            plan.dirs_create = dirs;
        }
        Some(ExtractionTarget::CrossRepo) => {
            let Some(dest) = ctx.extract_to else {
                return Err(Refusal::hard(
                    "a cross-repo extraction needs --extract-to FILE (outside the repository)",
                ));
            };
            let abs = external_target(&ws.root, dest)?;
            let key = abs.display().to_string();
            ws.slot(&key, &abs, true)?;
            plan.changes.push(Change {
                key,
                content: Some(format!("{heading}{eol}{eol}{span}").into_bytes()),
                touched_from: 0,
                in_line: false,
            });
        }
        None => return Err(Refusal::hard("extract-then-delete needs extraction_target")),
    }
    plan.changes.push(removal);
    Ok(plan)
}

/// Checks a `--extract-to` file: its folder exists and lies outside the root, and the file does
/// not exist (hygiene never overwrites anything outside the repository).
fn external_target(root: &Path, dest: &Path) -> Result<std::path::PathBuf, Refusal> {
    let dest = if dest.is_absolute() {
        dest.to_path_buf()
    } else {
        std::env::current_dir()
            .map_err(|e| Refusal::hard(e.to_string()))?
            .join(dest)
    };
    let (Some(parent), Some(name)) = (dest.parent(), dest.file_name()) else {
        return Err(Refusal::hard("--extract-to names no file"));
    };
    let parent = parent
        .canonicalize()
        .map_err(|e| Refusal::hard(format!("--extract-to folder {}: {e}", parent.display())))?;
    if parent.starts_with(root) {
        return Err(Refusal::hard(
            "--extract-to is inside the repository; use a repo-durable extraction instead",
        ));
    }
    let abs = parent.join(name);
    if std::fs::symlink_metadata(&abs).is_ok() {
        return Err(Refusal::hard(format!(
            "--extract-to {} exists; hygiene does not overwrite files outside the repository",
            abs.display()
        )));
    }
    Ok(abs)
}

/// A generative entry: the rewriter's proposal replaces the whole file, guarded like an exact
/// edit by the target's check-time fingerprint (kept in the report's sidecar, since the
/// contract gives a generative entry no `exact_edit`) and by the mtime fence.
fn generative(ws: &mut Workspace, ctx: &Ctx) -> Result<EntryPlan, Refusal> {
    let path = &ctx.entry.path;
    let Some(proposal) = ctx.proposal else {
        return Err(Refusal::hard("a generative entry needs --proposal FILE"));
    };
    let Some(fingerprint) = ctx.fingerprint else {
        return Err(Refusal::stale(format!(
            "no check-time fingerprint vouches for `{path}` (the report's .fingerprints.json is missing or belongs to another report)"
        )));
    };
    ws.target(path, Some(fingerprint), true)?;
    ws.check_untouched(path)?;
    Ok(single(Change {
        key: path.clone(),
        content: Some(proposal.to_vec()),
        touched_from: 0,
        in_line: false,
    }))
}
