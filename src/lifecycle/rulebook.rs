//! The rulebook: which documents are meant to die, and when.
//!
//! The shipped defaults (`rulebook.default.json`, embedded at build time) are merged with the
//! repository's own `.hygiene/rulebook.json` **by rule `id`**: a repository rule with a default's
//! id replaces that rule in place (or removes it, with `"disabled": true`); a new id is added
//! before the defaults, so the repository's own rules are tried first. Every problem is an error
//! naming the file, the rule id and what is wrong, because a rulebook that silently half-loads
//! deletes the wrong files.

use crate::error::{Error, Result};
use crate::report::{ExtractionTarget, Lifetime};
use globset::{Glob, GlobBuilder, GlobMatcher};
use serde::Deserialize;
use serde_json::{Map, Value};
use std::path::Path;

/// The shipped default rules, exactly as `rulebook.default.json` holds them.
pub const DEFAULT_RULEBOOK: &str = include_str!("../../rulebook.default.json");

/// How the shipped defaults are named in errors and in `hygiene sweep`'s sources.
pub const DEFAULT_SOURCE: &str = "rulebook.default.json (shipped)";

/// Where a repository keeps its own rulebook, relative to the root.
pub const REPO_RULEBOOK: &str = ".hygiene/rulebook.json";

/// The placeholders a `served_when_path` template may use.
pub const PLACEHOLDERS: [&str; 4] = ["{path}", "{dir}", "{name}", "{stem}"];

/// The parsed shipped defaults, for `hygiene policy` (a projection of the file the code runs on).
///
/// ```
/// let v = hygiene::lifecycle::default_rulebook_json();
/// assert!(v["rules"].as_array().is_some_and(|r| !r.is_empty()));
/// ```
pub fn default_rulebook_json() -> Value {
    serde_json::from_str(DEFAULT_RULEBOOK).expect("the shipped rulebook is valid JSON (tested)")
}

/// Whether a rule governs files or whole directories.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Deserialize, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum MatchKind {
    /// Each matching file is its own governed document.
    File,
    /// Each matching directory is one aggregate item, deleted as a whole.
    Dir,
}

/// What a rule extracts before deleting a served document.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct Extract {
    /// The heading whose section is kept (compared case-insensitively, trimmed).
    pub anchor_heading: String,
    /// Where the section goes.
    pub target: ExtractionTarget,
    /// The root-relative target document of a `repo-durable` extraction.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target_path: Option<String>,
}

/// How a delete-once-served rule learns that a document has served.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ServedBy {
    /// A path template (`{path}`, `{dir}`, `{name}`, `{stem}`) whose existence proves service.
    Path(String),
    /// A question a model judges.
    Question(String),
}

/// One validated rule.
#[derive(Debug, Clone)]
pub struct Rule {
    /// The rule's id (what `rule_ref` names).
    pub id: String,
    /// Files or directories.
    pub match_kind: MatchKind,
    /// The glob as written (root-relative, `/`-separated; `*` stays inside one segment).
    pub glob: String,
    /// The compiled glob.
    pub matcher: GlobMatcher,
    /// The lifetime.
    pub lifetime: Lifetime,
    /// Temporary: how many of the newest are always kept (0 when absent).
    pub retain_recent: u32,
    /// Temporary: the age in days a document must exceed (0 when absent).
    pub max_age_days: u32,
    /// Delete-once-served: the served field (exactly one).
    pub served: Option<ServedBy>,
    /// What to extract before deleting, if anything.
    pub extract: Option<Extract>,
    /// A note for humans.
    pub description: Option<String>,
    /// Which file the rule came from.
    pub source: String,
}

impl Rule {
    /// Whether the rule matches a root-relative path (a file, or a directory for a `dir` rule).
    pub fn matches(&self, rel: &str) -> bool {
        self.matcher.is_match(rel)
    }
}

/// The `hook` section: how the plugin's tool-call hook behaves in this repository
/// (`docs/hook.md`). It lives in the rulebook because the rulebook is the one file a repository
/// already commits to tell hygiene how to treat its documents.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HookSettings {
    /// Whether `hygiene hook` checks references after the agent's tool calls. `false` makes the
    /// hook exit at once, print nothing and keep no index.
    pub enabled: bool,
}

impl Default for HookSettings {
    /// On: a hook that must be switched on would miss the moment it exists for.
    fn default() -> HookSettings {
        HookSettings { enabled: true }
    }
}

/// The `hook` section as written: every key optional, no others allowed.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawHook {
    enabled: Option<bool>,
}

/// The merged rulebook: the shipped defaults overridden or extended by `.hygiene/rulebook.json`.
#[derive(Debug, Clone, Default)]
pub struct Rulebook {
    /// Extra or replacement scope globs from the repository's rulebook, if it sets them.
    pub scope_globs: Option<Vec<String>>,
    /// Extra excluded folder names from the repository's rulebook.
    pub excluded_dirs: Vec<String>,
    /// The rules in the order they are tried (repository additions first, then the defaults).
    pub rules: Vec<Rule>,
    /// The files the rulebook was built from, in merge order.
    pub sources: Vec<String>,
    /// Role overrides (`roles`), tried before the default role table; the repository's own
    /// first.
    pub roles: Vec<crate::roles::Override>,
    /// The hook settings (the last file that sets a key wins).
    pub hook: HookSettings,
}

/// A rule as parsed from JSON, before the semantic checks.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawRule {
    id: String,
    #[serde(rename = "match")]
    match_kind: Option<MatchKind>,
    glob: Option<String>,
    lifetime: Option<Lifetime>,
    retain_recent: Option<u32>,
    max_age_days: Option<u32>,
    served_when_path: Option<String>,
    served_when: Option<String>,
    extract: Option<Extract>,
    description: Option<String>,
    #[serde(default)]
    disabled: bool,
}

/// One file's contribution: its rules (or removals) and its scanner settings.
struct Parsed {
    rules: Vec<(String, Option<Rule>)>,
    scope_globs: Option<Vec<String>>,
    excluded_dirs: Vec<String>,
    roles: Vec<crate::roles::Override>,
    hook_enabled: Option<bool>,
}

impl Rulebook {
    /// Loads the defaults and `.hygiene/rulebook.json` under `root`.
    pub fn load(root: &Path) -> Result<Rulebook> {
        Rulebook::load_with(root, true)
    }

    /// Loads only the settings (`scope_globs`, `excluded_dirs`, `hook`) of the defaults and
    /// `.hygiene/rulebook.json`, with no rule read or compiled: what the tool-call hook needs on
    /// every call, at a fraction of the cost (the rules are not its business, and a broken
    /// rule must not silence it). `rules` is empty.
    pub fn load_settings(root: &Path) -> Result<Rulebook> {
        Rulebook::load_with(root, false)
    }

    fn load_with(root: &Path, rules: bool) -> Result<Rulebook> {
        let mut book = Rulebook::default();
        book.merge(
            parse(DEFAULT_SOURCE, DEFAULT_RULEBOOK.as_bytes(), rules)?,
            DEFAULT_SOURCE,
        );
        // Resolved like every `.hygiene/` path: a committed link is refused, not followed.
        let path = crate::state::path(root, "rulebook.json", false)?;
        if let Some(bytes) = crate::error::read_optional(&path)? {
            book.merge(parse(REPO_RULEBOOK, &bytes, rules)?, REPO_RULEBOOK);
        }
        Ok(book)
    }

    /// The shipped defaults alone.
    pub fn defaults() -> Result<Rulebook> {
        Rulebook::from_json(DEFAULT_SOURCE, DEFAULT_RULEBOOK.as_bytes())
    }

    /// Parses one rulebook file on its own (no defaults); `source` names it in errors.
    pub fn from_json(source: &str, bytes: &[u8]) -> Result<Rulebook> {
        let mut book = Rulebook::default();
        book.merge(parse(source, bytes, true)?, source);
        Ok(book)
    }

    /// The merged rulebook as JSON, in the rulebook file's own format plus each rule's
    /// `source`: what governs the repository, which `hygiene policy --root` publishes.
    pub fn to_json(&self) -> Value {
        let rules: Vec<Value> = self
            .rules
            .iter()
            .map(|r| {
                let mut m = Map::new();
                m.insert("id".into(), r.id.clone().into());
                m.insert(
                    "match".into(),
                    serde_json::to_value(r.match_kind).unwrap_or_default(),
                );
                m.insert("glob".into(), r.glob.clone().into());
                m.insert("lifetime".into(), lifetime_name(r.lifetime).into());
                if r.lifetime == Lifetime::Temporary {
                    m.insert("retain_recent".into(), r.retain_recent.into());
                    m.insert("max_age_days".into(), r.max_age_days.into());
                }
                match &r.served {
                    Some(ServedBy::Path(p)) => {
                        m.insert("served_when_path".into(), p.clone().into());
                    }
                    Some(ServedBy::Question(q)) => {
                        m.insert("served_when".into(), q.clone().into());
                    }
                    None => {}
                }
                if let Some(x) = &r.extract {
                    m.insert(
                        "extract".into(),
                        serde_json::to_value(x).unwrap_or_default(),
                    );
                }
                if let Some(d) = &r.description {
                    m.insert("description".into(), d.clone().into());
                }
                m.insert("source".into(), r.source.clone().into());
                Value::Object(m)
            })
            .collect();
        let mut out = Map::new();
        out.insert(
            "sources".into(),
            serde_json::to_value(&self.sources).unwrap_or_default(),
        );
        if let Some(g) = &self.scope_globs {
            out.insert(
                "scope_globs".into(),
                serde_json::to_value(g).unwrap_or_default(),
            );
        }
        out.insert(
            "excluded_dirs".into(),
            serde_json::to_value(&self.excluded_dirs).unwrap_or_default(),
        );
        out.insert(
            "roles".into(),
            Value::Array(
                self.roles
                    .iter()
                    .map(|o| serde_json::json!({"glob": o.glob, "role": o.role}))
                    .collect(),
            ),
        );
        out.insert(
            "hook".into(),
            serde_json::json!({"enabled": self.hook.enabled}),
        );
        out.insert("rules".into(), Value::Array(rules));
        Value::Object(out)
    }

    /// The rule with this id.
    pub fn rule(&self, id: &str) -> Option<&Rule> {
        self.rules.iter().find(|r| r.id == id)
    }

    /// Whether a `keep` rule governs `rel` (an entry point such as a README, an ADR): it is never
    /// lifecycle-deleted, whatever it says.
    pub fn kept(&self, rel: &str) -> bool {
        self.kept_in(rel, &folders_of(rel))
    }

    fn kept_in(&self, rel: &str, folders: &[&str]) -> bool {
        self.rules.iter().any(|r| {
            r.lifetime == Lifetime::Keep
                && match r.match_kind {
                    MatchKind::File => r.matches(rel),
                    MatchKind::Dir => folders.iter().any(|d| r.matches(d)),
                }
        })
    }

    /// The rule that governs root-relative file `rel` with a lifetime other than `keep`, if
    /// any: a `dir` rule matching one of its folders, else the first matching `file` rule; a
    /// `keep` rule matching the file or one of its folders protects it (no rule governs it).
    /// Only rule matching: whether the document has served is [`super::evaluate`]'s question.
    ///
    /// ```
    /// let book = hygiene::lifecycle::Rulebook::defaults().unwrap();
    /// assert!(book.governs(".claude/handoffs/2026-01-01.md").is_some());
    /// assert!(book.governs("CLAUDE.md").is_none());
    /// ```
    pub fn governs(&self, rel: &str) -> Option<&Rule> {
        let folders = folders_of(rel);
        if self.kept_in(rel, &folders) {
            return None;
        }
        let live = |r: &&Rule| r.lifetime != Lifetime::Keep;
        folders
            .iter()
            .rev()
            .find_map(|d| {
                self.rules
                    .iter()
                    .filter(live)
                    .find(|r| r.match_kind == MatchKind::Dir && r.matches(d))
            })
            .or_else(|| {
                self.rules
                    .iter()
                    .filter(live)
                    .find(|r| r.match_kind == MatchKind::File && r.matches(rel))
            })
    }

    fn merge(&mut self, parsed: Parsed, source: &str) {
        let mut added = Vec::new();
        for (id, rule) in parsed.rules {
            let at = self.rules.iter().position(|r| r.id == id);
            match (at, rule) {
                (Some(i), Some(rule)) => self.rules[i] = rule,
                (Some(i), None) => {
                    self.rules.remove(i);
                }
                (None, Some(rule)) => added.push(rule),
                (None, None) => {}
            }
        }
        added.append(&mut self.rules);
        self.rules = added;
        if parsed.scope_globs.is_some() {
            self.scope_globs = parsed.scope_globs;
        }
        for d in parsed.excluded_dirs {
            if !self.excluded_dirs.contains(&d) {
                self.excluded_dirs.push(d);
            }
        }
        let mut roles = parsed.roles;
        roles.append(&mut self.roles);
        self.roles = roles;
        if let Some(enabled) = parsed.hook_enabled {
            self.hook.enabled = enabled;
        }
        self.sources.push(source.to_string());
    }
}

fn bad(source: &str, message: String) -> Error {
    Error::Parse {
        path: source.to_string(),
        message,
    }
}

/// Compiles a rulebook glob: `*` and `?` stay inside one path segment, `**` crosses them.
pub fn compile_glob(glob: &str) -> std::result::Result<GlobMatcher, String> {
    if glob.is_empty() {
        return Err("the glob is empty".into());
    }
    if glob.starts_with('/') || glob.contains('\\') {
        return Err(format!(
            "glob `{glob}` must be root-relative with `/` separators"
        ));
    }
    if glob.split('/').any(|s| s == ".." || s == ".") {
        return Err(format!("glob `{glob}` has a `.` or `..` segment"));
    }
    GlobBuilder::new(glob)
        .literal_separator(true)
        .backslash_escape(true)
        .build()
        .map(|g: Glob| g.compile_matcher())
        .map_err(|e| format!("bad glob `{glob}`: {}", e.kind()))
}

fn parse(source: &str, bytes: &[u8], with_rules: bool) -> Result<Parsed> {
    let top: Value = crate::error::parse_json(source, bytes)?;
    let Value::Object(top) = top else {
        return Err(bad(source, "the rulebook must be a JSON object".into()));
    };
    for key in top.keys() {
        if ![
            "rules",
            "scope_globs",
            "excluded_dirs",
            "roles",
            "hook",
            "description",
            "$schema",
        ]
        .contains(&key.as_str())
        {
            return Err(bad(
                source,
                format!("unknown top-level key `{key}` (expected rules, scope_globs, excluded_dirs, roles, hook, description)"),
            ));
        }
    }
    let roles = match top.get("roles") {
        None => Vec::new(),
        Some(Value::Array(items)) => {
            let mut out = Vec::new();
            for (i, v) in items.iter().enumerate() {
                let (Some(glob), Some(role)) = (
                    v.get("glob").and_then(Value::as_str),
                    v.get("role").and_then(Value::as_str),
                ) else {
                    return Err(bad(
                        source,
                        format!("roles[{i}]: needs `glob` and `role` (living, history, shipped, generated, fixture)"),
                    ));
                };
                if v.as_object().is_some_and(|o| {
                    o.keys()
                        .any(|k| !["glob", "role", "description"].contains(&k.as_str()))
                }) {
                    return Err(bad(
                        source,
                        format!("roles[{i}]: only `glob`, `role` and `description` are allowed"),
                    ));
                }
                out.push(
                    crate::roles::Override::new(glob, role)
                        .map_err(|e| bad(source, format!("roles[{i}]: {e}")))?,
                );
            }
            out
        }
        Some(_) => return Err(bad(source, "`roles` must be an array".into())),
    };
    let scope_globs = match top.get("scope_globs") {
        None => None,
        Some(v) => {
            let globs = string_list(source, "scope_globs", v)?;
            for g in &globs {
                compile_glob(g).map_err(|e| bad(source, format!("scope_globs: {e}")))?;
            }
            Some(globs)
        }
    };
    let excluded_dirs = match top.get("excluded_dirs") {
        None => Vec::new(),
        Some(v) => {
            let dirs = string_list(source, "excluded_dirs", v)?;
            for d in &dirs {
                if d.is_empty() || d.contains('/') || d.contains('\\') || d == "." || d == ".." {
                    return Err(bad(
                        source,
                        format!("excluded_dirs: `{d}` must be a plain folder name"),
                    ));
                }
            }
            dirs
        }
    };
    let hook_enabled = match top.get("hook") {
        None => None,
        Some(v @ Value::Object(_)) => {
            let raw: RawHook = serde_json::from_value(v.clone()).map_err(|e| {
                bad(
                    source,
                    format!("hook: {e} (the hook section takes `enabled`: true or false)"),
                )
            })?;
            raw.enabled
        }
        Some(_) => {
            return Err(bad(
                source,
                "`hook` must be an object, e.g. {\"enabled\": false}".into(),
            ))
        }
    };
    let raw_rules = match top.get("rules") {
        _ if !with_rules => Vec::new(),
        None => Vec::new(),
        Some(Value::Array(a)) => a.clone(),
        Some(_) => return Err(bad(source, "`rules` must be an array".into())),
    };
    let mut rules: Vec<(String, Option<Rule>)> = Vec::new();
    for (i, v) in raw_rules.into_iter().enumerate() {
        let id = rule_id(source, i, &v)?;
        if rules.iter().any(|(seen, _)| *seen == id) {
            return Err(bad(source, format!("rule `{id}`: duplicate id")));
        }
        let raw: RawRule =
            serde_json::from_value(v).map_err(|e| bad(source, format!("rule `{id}`: {e}")))?;
        let rule = if raw.disabled {
            None
        } else {
            Some(check_rule(raw, source).map_err(|m| bad(source, format!("rule `{id}`: {m}")))?)
        };
        rules.push((id, rule));
    }
    Ok(Parsed {
        rules,
        scope_globs,
        excluded_dirs,
        roles,
        hook_enabled,
    })
}

fn string_list(source: &str, key: &str, v: &Value) -> Result<Vec<String>> {
    let err = || bad(source, format!("`{key}` must be an array of strings"));
    let Value::Array(items) = v else {
        return Err(err());
    };
    items
        .iter()
        .map(|s| s.as_str().map(str::to_string).ok_or_else(err))
        .collect()
}

fn rule_id(source: &str, index: usize, v: &Value) -> Result<String> {
    let obj: &Map<String, Value> = v
        .as_object()
        .ok_or_else(|| bad(source, format!("rule #{}: must be an object", index + 1)))?;
    let id = obj
        .get("id")
        .and_then(Value::as_str)
        .ok_or_else(|| bad(source, format!("rule #{}: missing string `id`", index + 1)))?;
    let ok = !id.is_empty()
        && id
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'));
    if !ok {
        return Err(bad(
            source,
            format!(
                "rule #{}: id `{id}` must be non-empty letters, digits, `-`, `_` or `.`",
                index + 1
            ),
        ));
    }
    Ok(id.to_string())
}

/// The semantic checks serde cannot express. Returns the problem, without file or id.
fn check_rule(raw: RawRule, source: &str) -> std::result::Result<Rule, String> {
    let match_kind = raw.match_kind.ok_or("missing `match` (file or dir)")?;
    let glob = raw.glob.ok_or("missing `glob`")?;
    let lifetime = raw
        .lifetime
        .ok_or("missing `lifetime` (keep, temporary or delete-once-served)")?;
    let glob = if match_kind == MatchKind::Dir {
        glob.trim_end_matches('/').to_string()
    } else {
        glob
    };
    let matcher = compile_glob(&glob)?;
    let aging = raw.retain_recent.is_some() || raw.max_age_days.is_some();
    let serving = raw.served_when_path.is_some() || raw.served_when.is_some();
    match lifetime {
        Lifetime::Keep | Lifetime::Temporary if serving => {
            return Err(format!(
                "served_when_path/served_when belong to delete-once-served rules, not {}",
                lifetime_name(lifetime)
            ));
        }
        Lifetime::Keep | Lifetime::DeleteOnceServed if aging => {
            return Err(format!(
                "retain_recent/max_age_days belong to temporary rules, not {}",
                lifetime_name(lifetime)
            ));
        }
        Lifetime::Temporary if !aging => {
            return Err(
                "a temporary rule needs retain_recent or max_age_days (or both)".to_string(),
            );
        }
        _ => {}
    }
    let served = match (raw.served_when_path, raw.served_when) {
        (Some(_), Some(_)) => {
            return Err("has both served_when_path and served_when; give exactly one".into())
        }
        (None, None) if lifetime == Lifetime::DeleteOnceServed => {
            return Err(
                "a delete-once-served rule needs exactly one of served_when_path or served_when"
                    .into(),
            )
        }
        (Some(p), None) => {
            check_template(&p)?;
            Some(ServedBy::Path(p))
        }
        (None, Some(q)) => {
            if q.trim().is_empty() {
                return Err("served_when is empty; write the question a model should judge".into());
            }
            Some(ServedBy::Question(q))
        }
        (None, None) => None,
    };
    if let Some(x) = &raw.extract {
        if lifetime == Lifetime::Keep {
            return Err("extract on a keep rule: a kept document is never deleted".into());
        }
        if match_kind == MatchKind::Dir {
            return Err("extract on a dir rule: extraction takes a section of one document".into());
        }
        if x.anchor_heading.trim().is_empty() {
            return Err("extract.anchor_heading is empty".into());
        }
        match (x.target, &x.target_path) {
            (ExtractionTarget::RepoDurable, None) => {
                return Err("extract: a repo-durable target needs target_path".into())
            }
            (ExtractionTarget::RepoDurable, Some(p)) => {
                crate::paths::check_relative(p)
                    .map_err(|e| format!("extract.target_path `{p}`: {e}"))?;
            }
            (ExtractionTarget::CrossRepo, Some(_)) => {
                return Err("extract: a cross-repo target takes no target_path (the user names the file at apply time)".into())
            }
            (ExtractionTarget::CrossRepo, None) => {}
        }
    }
    Ok(Rule {
        id: raw.id,
        match_kind,
        glob,
        matcher,
        lifetime,
        retain_recent: raw.retain_recent.unwrap_or(0),
        max_age_days: raw.max_age_days.unwrap_or(0),
        served,
        extract: raw.extract,
        description: raw.description,
        source: source.to_string(),
    })
}

/// Checks a `served_when_path` template: known placeholders only, and a root-relative path once
/// they are filled in.
fn check_template(t: &str) -> std::result::Result<(), String> {
    let mut rest = t.to_string();
    for p in PLACEHOLDERS {
        rest = rest.replace(p, "x");
    }
    if let Some(i) = rest.find('{') {
        let end = rest[i..].find('}').map(|j| i + j + 1).unwrap_or(rest.len());
        return Err(format!(
            "served_when_path `{t}`: unknown placeholder `{}` (use {{path}}, {{dir}}, {{name}}, {{stem}})",
            &rest[i..end]
        ));
    }
    crate::paths::check_relative(&rest).map_err(|e| format!("served_when_path `{t}`: {e}"))
}

/// The JSON name of a lifetime.
pub fn lifetime_name(l: Lifetime) -> &'static str {
    match l {
        Lifetime::Keep => "keep",
        Lifetime::Temporary => "temporary",
        Lifetime::DeleteOnceServed => "delete-once-served",
    }
}

/// The folders above `rel`, innermost first (`a/b/c.md`: `a/b`, `a`).
fn folders_of(rel: &str) -> Vec<&str> {
    let mut folders = Vec::new();
    let mut at = rel;
    while let Some(i) = at.rfind('/') {
        at = &at[..i];
        folders.push(at);
    }
    folders
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shipped_defaults_load() {
        let book = Rulebook::defaults().unwrap();
        assert!(book.rule("handoffs").is_some());
        assert!(book.rule("plans").is_some());
    }

    #[test]
    fn hook_section_merges_and_is_checked() {
        assert!(Rulebook::defaults().unwrap().hook.enabled, "on by default");
        let mut book = Rulebook::defaults().unwrap();
        book.merge(
            parse("r.json", br#"{"hook": {"enabled": false}}"#, true).unwrap(),
            "r.json",
        );
        assert!(!book.hook.enabled);
        // A file that does not set the key leaves the earlier value.
        book.merge(
            parse("s.json", br#"{"rules": []}"#, true).unwrap(),
            "s.json",
        );
        assert!(!book.hook.enabled);
        for (bad_json, says) in [
            (r#"{"hook": false}"#, "must be an object"),
            (r#"{"hook": {"enabled": "no"}}"#, "enabled"),
            (r#"{"hook": {"enable": false}}"#, "unknown field `enable`"),
        ] {
            let e = parse("r.json", bad_json.as_bytes(), false)
                .err()
                .unwrap()
                .to_string();
            assert!(
                e.starts_with("r.json: ") && e.contains(says),
                "{bad_json}: {e}"
            );
        }
    }

    #[test]
    fn settings_alone_skip_the_rules() {
        let t = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(t.path().join(".hygiene")).unwrap();
        std::fs::write(
            t.path().join(REPO_RULEBOOK),
            r#"{"excluded_dirs": ["gen"], "hook": {"enabled": false}, "rules": [{"id": "x", "match": "file"}]}"#,
        )
        .unwrap();
        let e = Rulebook::load(t.path()).err().unwrap().to_string();
        assert!(
            e.contains("rule `x`"),
            "the full load checks the rules: {e}"
        );
        let s = Rulebook::load_settings(t.path()).unwrap();
        assert!(s.rules.is_empty());
        assert_eq!(s.excluded_dirs, ["gen"]);
        assert!(!s.hook.enabled);
        assert_eq!(s.scope_globs, Rulebook::defaults().unwrap().scope_globs);
    }

    #[test]
    fn star_stays_in_one_segment() {
        let m = compile_glob("docs/*.md").unwrap();
        assert!(m.is_match("docs/a.md"));
        assert!(!m.is_match("docs/x/a.md"));
        let m = compile_glob("**/plans/**/*.md").unwrap();
        assert!(m.is_match("plans/a.md"));
        assert!(m.is_match("docs/superpowers/plans/2026-01-01-x.md"));
        // The default rule's alternatives may span segments.
        let m = compile_glob("**/{plans,.plan,.plans,PRPs/issues}/**/*.md").unwrap();
        assert!(m.is_match(".claude/PRPs/issues/completed/issue-497.md"));
        assert!(m.is_match(".plan/worktree-adoption.md"));
        assert!(m.is_match("plans/a.md"));
        assert!(!m.is_match("PRPs/templates/prp_base.md"));
    }

    #[test]
    fn templates_are_checked() {
        assert!(check_template("{dir}/{stem}.done").is_ok());
        assert!(check_template("{dir}/{bogus}")
            .unwrap_err()
            .contains("{bogus}"));
        assert!(check_template("../x").is_err());
        assert!(check_template("/etc/x").is_err());
    }
}
