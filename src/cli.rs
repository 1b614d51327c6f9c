//! The command line: parses arguments, calls the library, prints. No rule lives here.
//!
//! Exit codes (the contract): 0 success, 1 the checked thing is invalid or an op was refused,
//! 2 usage or I/O error. JSON goes to stdout unless `--out FILE`; human text to stderr or with
//! `--format human`.

use crate::error::{Error, Result};
use crate::scan::progress::{Counters, Reporter};
use clap::{Args, Parser, Subcommand, ValueEnum};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The hygiene helper: scans agent-facing documents, finalizes the model's drafts into the
/// machine report, and applies it under guards.
#[derive(Debug, Parser)]
#[command(name = "hygiene", version, about, max_term_width = 100)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Scan the repository and write the shortlist with objective signals.
    Scan(ScanArgs),
    /// The model-free check for CI: accept the scanner's suggestions as the report (and apply
    /// its auto entries with --apply). The model-driven check is /hygiene:check.
    Check(CheckArgs),
    /// The model's bill: settle what needs no judgement, rank the rest, keep the run within the
    /// budget, write evidence batches for the model, print the bill (/hygiene:check runs it).
    Triage(TriageArgs),
    /// Turn the model's drafts and a scan into the validated report.
    Finalize(FinalizeArgs),
    /// Check a report against the contract: exit 0 valid, 1 invalid.
    Validate(ValidateArgs),
    /// Show what a report is worth: counts by category and tier, token savings.
    Summary(SummaryArgs),
    /// Apply report entries under the guards.
    Apply(ApplyArgs),
    /// Restore the files of the last applied batch.
    Undo(UndoArgs),
    /// Lifecycle evaluation: which governed documents have served, with evidence.
    Sweep(SweepArgs),
    /// Raw token counts and injection frequency per file.
    Tokens(TokensArgs),
    /// Print the published rules (tier truth table, kinds, categories, signals, the write table,
    /// finalize's rules, apply's guards, and the rulebook governing --root) as JSON.
    Policy(RootArg),
    /// Print the JSON Schema of the report.
    Schema,
    /// Claude Code hook: read the hook's JSON on stdin and report the document references the
    /// tool call broke (prints nothing when none; always exits 0). Run by hooks/hooks.json.
    Hook(HookArgs),
}

/// `--root`, shared by every command that reads a repository.
#[derive(Debug, Args, Clone)]
pub struct RootArg {
    /// Repository root (default: the current directory's git top level, else the directory).
    #[arg(long, value_name = "DIR")]
    pub root: Option<PathBuf>,
}

/// Output formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// Machine-readable JSON.
    Json,
    /// A readable text form.
    Human,
}

/// Output formats of `hygiene scan`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ScanFormat {
    /// The scan result as JSON (the contract).
    Json,
    /// A readable table.
    Human,
    /// A SARIF 2.1.0 log for code-scanning services.
    Sarif,
}

/// `hygiene scan`.
#[derive(Debug, Args)]
pub struct ScanArgs {
    #[command(flatten)]
    /// The root.
    pub root: RootArg,
    /// Only check documents under these paths (references still resolve against the whole tree).
    #[arg(value_name = "PATH")]
    pub paths: Vec<String>,
    /// Write the JSON here instead of stdout.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value = "json")]
    pub format: ScanFormat,
    /// Scope glob selecting documents (repeatable; replaces the default scope).
    #[arg(long = "scope", value_name = "GLOB")]
    pub scope: Vec<String>,
    /// Folder name never descended into (repeatable; added to the defaults).
    #[arg(long = "exclude", value_name = "DIR")]
    pub exclude: Vec<String>,
    /// Exit 1 when a shortlisted file has a signal of these kinds, printing each as
    /// `path:line: kind: fact` on stderr (e.g. missing-path,missing-anchor).
    #[arg(long = "fail-on", value_name = "KIND[,KIND...]")]
    pub fail_on: Vec<String>,
    /// Neither read nor write the scan cache (.hygiene/cache/; HYGIENE_CACHE=0 does the same).
    #[arg(long)]
    pub no_cache: bool,
}

/// `hygiene check`.
#[derive(Debug, Args)]
pub struct CheckArgs {
    #[command(flatten)]
    /// The root.
    pub root: RootArg,
    /// Only check documents under these paths (references still resolve against the whole tree).
    #[arg(value_name = "PATH")]
    pub paths: Vec<String>,
    /// Turn every scanner suggestion into an entry, with no model (required: the model-driven
    /// check is /hygiene:check in Claude Code).
    #[arg(long)]
    pub accept_suggestions: bool,
    /// Then apply the auto entries, as `hygiene apply --tier auto` does.
    #[arg(long)]
    pub apply: bool,
    /// Output format.
    #[arg(long, value_enum, default_value = "human")]
    pub format: Format,
    /// Scope glob selecting documents (repeatable; replaces the default scope).
    #[arg(long = "scope", value_name = "GLOB")]
    pub scope: Vec<String>,
    /// Folder name never descended into (repeatable; added to the defaults).
    #[arg(long = "exclude", value_name = "DIR")]
    pub exclude: Vec<String>,
    /// Neither read nor write the scan cache (.hygiene/cache/; HYGIENE_CACHE=0 does the same).
    #[arg(long)]
    pub no_cache: bool,
}

/// `hygiene triage`.
#[derive(Debug, Args)]
pub struct TriageArgs {
    #[command(flatten)]
    /// The root.
    pub root: RootArg,
    /// The scan result (`hygiene scan --out`).
    #[arg(long, value_name = "FILE")]
    pub scan: PathBuf,
    /// The paths the scan was scoped to: their items are all judged in this run (the bill says
    /// when that is over the budget).
    #[arg(value_name = "PATH")]
    pub paths: Vec<String>,
    /// Tokens of evidence this run may hand the model (default: the published budget).
    #[arg(long, value_name = "TOKENS")]
    pub budget: Option<u64>,
    /// Hand the model every item not judged yet, whatever the budget.
    #[arg(long)]
    pub all: bool,
    /// Output format.
    #[arg(long, value_enum, default_value = "human")]
    pub format: Format,
}

/// `hygiene finalize`.
#[derive(Debug, Args)]
pub struct FinalizeArgs {
    #[command(flatten)]
    /// The root.
    pub root: RootArg,
    /// The scan result (`hygiene scan --out`).
    #[arg(long, value_name = "FILE")]
    pub scan: PathBuf,
    /// One drafts file, or a folder of them.
    #[arg(long, value_name = "PATH")]
    pub drafts: PathBuf,
    /// Where to write the report (default: `.hygiene/report.json` under the root).
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
}

/// `hygiene validate`.
#[derive(Debug, Args)]
pub struct ValidateArgs {
    /// The report to check.
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
}

/// `hygiene summary`.
#[derive(Debug, Args)]
pub struct SummaryArgs {
    #[command(flatten)]
    /// The root.
    pub root: RootArg,
    /// The report (default: `.hygiene/report.json` under the root).
    #[arg(long, value_name = "FILE")]
    pub report: Option<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value = "human")]
    pub format: Format,
}

/// `hygiene apply`.
#[derive(Debug, Args)]
pub struct ApplyArgs {
    #[command(flatten)]
    /// The root.
    pub root: RootArg,
    /// The report (default: `.hygiene/report.json` under the root).
    #[arg(long, value_name = "FILE")]
    pub report: Option<PathBuf>,
    /// Apply every entry of this tier (only `auto` is accepted).
    #[arg(long, value_name = "TIER", conflicts_with = "entry")]
    pub tier: Option<String>,
    /// Apply this entry (index in `entries`), of any tier, after the user approved it
    /// (repeatable: one batch).
    #[arg(long, value_name = "N")]
    pub entry: Vec<usize>,
    /// The approval token of each --entry, in order: `--dry-run` prints it with the diff the
    /// user approves, so the approval names exactly that edit.
    #[arg(long, value_name = "TOKEN", requires = "entry")]
    pub approve: Vec<String>,
    /// The rewriter's text for a generative entry (default: `.hygiene/proposals/N.md`).
    #[arg(long, value_name = "FILE", requires = "entry")]
    pub proposal: Option<PathBuf>,
    /// For a cross-repo extraction: the file outside the repository the span goes to.
    #[arg(long, value_name = "FILE", requires = "entry")]
    pub extract_to: Option<PathBuf>,
    /// Print the unified diff of what would change (and each entry's approval token), and
    /// change nothing.
    #[arg(long)]
    pub dry_run: bool,
    /// Output format.
    #[arg(long, value_enum, default_value = "human")]
    pub format: Format,
}

/// `hygiene undo`.
#[derive(Debug, Args)]
pub struct UndoArgs {
    #[command(flatten)]
    /// The root.
    pub root: RootArg,
    /// Output format.
    #[arg(long, value_enum, default_value = "human")]
    pub format: Format,
}

/// `hygiene sweep`.
#[derive(Debug, Args)]
pub struct SweepArgs {
    #[command(flatten)]
    /// The root.
    pub root: RootArg,
    /// Output format.
    #[arg(long, value_enum, default_value = "human")]
    pub format: Format,
}

/// `hygiene tokens`.
#[derive(Debug, Args)]
pub struct TokensArgs {
    #[command(flatten)]
    /// The root.
    pub root: RootArg,
    /// Files to count.
    #[arg(value_name = "PATH", required = true)]
    pub paths: Vec<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value = "json")]
    pub format: Format,
}

/// `hygiene hook`.
#[derive(Debug, Args)]
pub struct HookArgs {
    /// The hook event calling.
    #[arg(value_enum)]
    pub event: HookEvent,
}

/// The hook events `hygiene hook` answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum HookEvent {
    /// After a tool call: report what it broke, refresh the index.
    PostToolUse,
    /// At session start: build or refresh the index, report nothing.
    SessionStart,
}

/// Resolves `--root`: the given folder, else the current directory's git top level, else the
/// current directory.
pub fn resolve_root(arg: &RootArg) -> Result<PathBuf> {
    let dir = match &arg.root {
        Some(r) => r.clone(),
        None => {
            let cwd = std::env::current_dir().map_err(|e| Error::io(".", e))?;
            let top = std::process::Command::new("git")
                .args(["rev-parse", "--show-toplevel"])
                .current_dir(&cwd)
                .stderr(std::process::Stdio::null())
                .output()
                .ok()
                .filter(|o| o.status.success())
                .and_then(|o| String::from_utf8(o.stdout).ok())
                .map(|s| PathBuf::from(s.trim_end_matches(['\n', '\r'])));
            top.unwrap_or(cwd)
        }
    };
    let meta = std::fs::metadata(&dir).map_err(|e| Error::io(&dir, e))?;
    if !meta.is_dir() {
        return Err(Error::Usage(format!(
            "--root {}: not a directory",
            dir.display()
        )));
    }
    dir.canonicalize().map_err(|e| Error::io(&dir, e))
}

/// Writes `text` to `out`, or to stdout when `out` is `None`. An output file is written the way
/// every helper write is ([`crate::fsio::write_output`]): never through a link, and inside
/// `root` only along real folders.
pub fn emit_to(root: Option<&Path>, out: Option<&Path>, text: &str) -> Result<()> {
    match out {
        Some(path) => crate::fsio::write_output(root, path, text.as_bytes()),
        None => {
            use std::io::Write;
            let mut stdout = std::io::stdout().lock();
            // A closed pipe (`hygiene scan | head`) is not an error worth a message.
            let _ = stdout.write_all(text.as_bytes());
            let _ = stdout.flush();
            Ok(())
        }
    }
}

/// [`emit_to`] without a root (stdout, or a file the user named).
pub fn emit(out: Option<&Path>, text: &str) -> Result<()> {
    emit_to(None, out, text)
}

/// Pretty JSON with a trailing newline.
pub fn to_json<T: serde::Serialize>(value: &T) -> String {
    let mut s = serde_json::to_string_pretty(value).expect("report types always serialize");
    s.push('\n');
    s
}

/// The default report path under `root`.
pub fn default_report(root: &Path) -> PathBuf {
    root.join(".hygiene").join("report.json")
}

/// Runs the command line and returns the process exit code.
pub fn main() -> i32 {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let code = if e.use_stderr() { 2 } else { 0 };
            let _ = e.print();
            return code;
        }
    };
    match run(cli) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("hygiene: {e}");
            e.exit_code()
        }
    }
}

/// Runs a parsed command line.
pub fn run(cli: Cli) -> Result<i32> {
    match cli.command {
        Command::Scan(a) => run_scan(&a),
        Command::Check(a) => run_check(&a),
        Command::Triage(a) => run_triage(&a),
        Command::Finalize(a) => run_finalize(&a),
        Command::Validate(a) => run_validate(&a),
        Command::Summary(a) => run_summary(&a),
        Command::Apply(a) => run_apply(&a),
        Command::Undo(a) => run_undo(&a),
        Command::Sweep(a) => run_sweep(&a),
        Command::Tokens(a) => run_tokens(&a),
        Command::Policy(a) => run_policy(&a),
        Command::Schema => run_schema(),
        Command::Hook(a) => run_hook(&a),
    }
}

/// PATH arguments as root-relative filters: root-relative, or relative to the current folder
/// when they name something there.
fn scan_paths(root: &Path, paths: &[String]) -> Result<Vec<String>> {
    let cwd = std::env::current_dir().map_err(|e| Error::io(".", e))?;
    Ok(paths
        .iter()
        .map(|p| {
            let here = cwd.join(p);
            match here
                .canonicalize()
                .ok()
                .and_then(|c| crate::paths::to_rel(root, &c))
            {
                Some(rel) if !root.join(p).exists() => rel,
                _ => p.clone(),
            }
        })
        .collect())
}

/// Runs `f` with progress on stderr when it is a terminal (see [`crate::scan::progress`]).
fn with_progress<T>(f: impl FnOnce(Arc<Counters>) -> T) -> T {
    let counters = Arc::new(Counters::default());
    let reporter = Reporter::for_stderr(counters.clone());
    let out = f(counters);
    if let Some(r) = reporter {
        r.finish();
    }
    out
}

fn run_scan(a: &ScanArgs) -> Result<i32> {
    // Validate the gate before spending a scan on it.
    let fail_on = crate::scan::diagnostics::parse_kinds(&a.fail_on).map_err(Error::Usage)?;
    let root = resolve_root(&a.root)?;
    let paths = scan_paths(&root, &a.paths)?;
    let result = with_progress(|counters| {
        crate::scan::scan(&crate::scan::ScanOptions {
            root: root.clone(),
            paths,
            scope: (!a.scope.is_empty()).then(|| a.scope.clone()),
            exclude: a.exclude.clone(),
            progress: Some(counters),
            cache: !a.no_cache && crate::scan::cache::enabled_by_env(),
        })
    })?;
    let text = match a.format {
        ScanFormat::Json => to_json(&result),
        ScanFormat::Human => crate::scan::human::table(&result),
        ScanFormat::Sarif => {
            let read = |rel: &str| {
                crate::paths::resolve_inside(&root, rel, false)
                    .ok()
                    .and_then(|p| std::fs::read_to_string(p).ok())
            };
            to_json(&crate::scan::sarif::log(&result, &read))
        }
    };
    emit_to(Some(&root), a.out.as_deref(), &text)?;
    if fail_on.is_empty() {
        return Ok(0);
    }
    let failures = crate::scan::diagnostics::failures(&result, &fail_on);
    for f in &failures {
        eprintln!("{f}");
    }
    if failures.is_empty() {
        Ok(0)
    } else {
        eprintln!(
            "hygiene: {} signal(s) of {} (--fail-on)",
            failures.len(),
            fail_on.join(", ")
        );
        Ok(1)
    }
}

fn run_check(a: &CheckArgs) -> Result<i32> {
    use crate::check::{check, CheckOutcome, CheckRequest};
    if !a.accept_suggestions {
        return Err(Error::Usage(
            "hygiene check needs --accept-suggestions: it is the model-free check for CI, which \
             turns only the scanner's own suggestions into entries. The model-driven check is \
             /hygiene:check in Claude Code."
                .into(),
        ));
    }
    let root = resolve_root(&a.root)?;
    let paths = scan_paths(&root, &a.paths)?;
    let outcome = with_progress(|counters| {
        check(&CheckRequest {
            scan: crate::scan::ScanOptions {
                root: root.clone(),
                paths,
                scope: (!a.scope.is_empty()).then(|| a.scope.clone()),
                exclude: a.exclude.clone(),
                progress: Some(counters),
                cache: !a.no_cache && crate::scan::cache::enabled_by_env(),
            },
            apply: a.apply,
        })
    })?;
    let run = match outcome {
        CheckOutcome::Done(run) => run,
        CheckOutcome::Rejected(errors) => {
            for e in &errors {
                eprintln!("{e}");
            }
            eprintln!(
                "hygiene: finalize rejected {} scanner suggestion(s); this is a hygiene bug, please \
                 report it. No report was written.",
                errors.len()
            );
            // An error, not findings: a CI job that reads 1 as "stale documents" must not
            // take a check that never finished for one.
            return Ok(2);
        }
    };
    let summary = crate::summary::summarize(&run.report);
    let code = match &run.applied {
        Some(Ok(r)) => r.exit_code(),
        Some(Err(_)) => 1,
        None => 0,
    };
    match a.format {
        Format::Json => {
            let applied = match &run.applied {
                Some(Ok(r)) => serde_json::to_value(r).unwrap_or_default(),
                Some(Err(why)) => serde_json::json!({ "refused": why }),
                None => serde_json::Value::Null,
            };
            emit(
                None,
                &to_json(&serde_json::json!({
                    "scan": run.scan_path,
                    "report": run.report_path,
                    "summary": summary,
                    "apply": applied,
                })),
            )?;
        }
        Format::Human => {
            let mut text = crate::summary::human(&summary);
            match &run.applied {
                Some(Ok(r)) => text.push_str(&r.human()),
                Some(Err(why)) => text.push_str(&format!("apply refused: {why}\n")),
                None => {}
            }
            emit(None, &text)?;
        }
    }
    eprintln!(
        "hygiene: wrote {} and {}",
        run.scan_path.display(),
        run.report_path.display()
    );
    Ok(code)
}

fn run_triage(a: &TriageArgs) -> Result<i32> {
    let root = resolve_root(&a.root)?;
    let paths = scan_paths(&root, &a.paths)?;
    let bill = crate::triage::triage(&crate::triage::TriageRequest {
        root,
        scan: a.scan.clone(),
        paths,
        budget: a.budget,
        all: a.all,
    })?;
    let text = match a.format {
        Format::Json => to_json(&bill),
        Format::Human => crate::triage::human(&bill),
    };
    emit(None, &text)?;
    Ok(0)
}

fn run_finalize(a: &FinalizeArgs) -> Result<i32> {
    let root = resolve_root(&a.root)?;
    match crate::finalize::run(&root, &a.scan, &a.drafts)? {
        Ok(report) => {
            let out = match &a.out {
                Some(o) => o.clone(),
                None => crate::state::path(&root, "report.json", true)?,
            };
            crate::finalize::write_report(&root, &out, &report)?;
            let confirm = report
                .entries
                .iter()
                .filter(|e| e.safety_tier == crate::report::SafetyTier::Confirm)
                .count();
            eprintln!(
                "hygiene: wrote {} ({} entries: {} auto, {} confirm; {} promotion candidates)",
                out.display(),
                report.entries.len(),
                report.entries.len() - confirm,
                confirm,
                report.promotion_candidates.len()
            );
            Ok(0)
        }
        Err(errors) => {
            for e in &errors {
                eprintln!("{e}");
            }
            eprintln!("hygiene: {} draft error(s); no report written. Fix the named entries and run finalize again.", errors.len());
            Ok(1)
        }
    }
}

fn run_validate(a: &ValidateArgs) -> Result<i32> {
    let bytes = crate::error::read(&a.file)?;
    let mut violations = crate::validate::validate_bytes(&bytes);
    if violations.is_empty() {
        // Which candidates are complete depends on what the repository adopted.
        if let Ok(report) = serde_json::from_slice::<crate::report::Report>(&bytes) {
            let root = Path::new(&report.scan.project_root);
            if root.is_dir() {
                if let Ok(adopted) = crate::finalize::read_adopted(root) {
                    violations = crate::validate::check_promotions_complete(&report, &adopted);
                }
            }
        }
    }
    if violations.is_empty() {
        eprintln!("{}: valid report", a.file.display());
        return Ok(0);
    }
    let lines: String = violations.iter().map(|v| format!("{v}\n")).collect();
    emit(None, &lines)?;
    eprintln!("{}: {} violation(s)", a.file.display(), violations.len());
    Ok(1)
}

fn run_summary(a: &SummaryArgs) -> Result<i32> {
    let path = match &a.report {
        Some(p) => p.clone(),
        None => default_report(&resolve_root(&a.root)?),
    };
    let report = crate::validate::read_report(&path)?;
    let mut summary = crate::summary::summarize(&report);
    if let Some(bill) = crate::triage::bill_for(&report, &path) {
        summary = crate::summary::with_bill(summary, &report, &bill);
    }
    match a.format {
        Format::Json => emit(None, &to_json(&summary))?,
        Format::Human => emit(None, &crate::summary::human(&summary))?,
    }
    Ok(0)
}

fn run_apply(a: &ApplyArgs) -> Result<i32> {
    use crate::apply::{self, Failure, Selection};
    let root = resolve_root(&a.root)?;
    let selection = match (&a.tier, a.entry.is_empty()) {
        (Some(t), true) if t == "auto" => Selection::Auto,
        (Some(t), true) => {
            return Err(Error::Usage(format!(
                "--tier {t}: only `auto` can be applied as a batch; apply a confirm entry with --entry N --approve TOKEN"
            )))
        }
        (None, false) if a.dry_run || !a.approve.is_empty() => Selection::Entries(a.entry.clone()),
        (None, false) => {
            return Err(Error::Usage(
                "--entry N needs the user's approval: --approve TOKEN (the token `hygiene apply --dry-run --entry N` prints with the diff)".into(),
            ))
        }
        _ => {
            return Err(Error::Usage(
                "say what to apply: --tier auto, or --entry N --approve TOKEN (preview with --dry-run --entry N)".into(),
            ))
        }
    };
    let req = apply::ApplyRequest {
        report: a.report.clone().unwrap_or_else(|| default_report(&root)),
        root,
        selection,
        approvals: a.approve.clone(),
        proposal: a.proposal.clone(),
        extract_to: a.extract_to.clone(),
        dry_run: a.dry_run,
    };
    match apply::apply(&req) {
        Ok(report) => {
            let text = match a.format {
                Format::Json => to_json(&report),
                Format::Human => report.human(),
            };
            emit(None, &text)?;
            Ok(report.exit_code())
        }
        Err(Failure::Refused(why)) => {
            refused(a.format, &why);
            Ok(1)
        }
        Err(Failure::Error(e)) => Err(e),
    }
}

/// Prints a whole-run refusal: JSON on stdout (`{"refused": reason}`) or a line on stderr.
fn refused(format: Format, why: &str) {
    match format {
        Format::Json => {
            let _ = emit(None, &to_json(&serde_json::json!({ "refused": why })));
        }
        Format::Human => eprintln!("hygiene: refused: {why}"),
    }
}

fn run_undo(a: &UndoArgs) -> Result<i32> {
    use crate::apply::{self, Failure};
    let root = resolve_root(&a.root)?;
    match apply::undo(&root) {
        Ok(r) => {
            let text = match a.format {
                Format::Json => to_json(&r),
                Format::Human => {
                    let mut s = String::new();
                    for p in &r.restored {
                        s.push_str(&format!("restored {p}\n"));
                    }
                    for p in &r.removed {
                        s.push_str(&format!("removed {p}\n"));
                    }
                    s.push_str(&format!("batch {} undone\n", r.batch));
                    s
                }
            };
            emit(None, &text)?;
            Ok(0)
        }
        Err(Failure::Refused(why)) => {
            refused(a.format, &why);
            Ok(1)
        }
        Err(Failure::Error(e)) => Err(e),
    }
}

fn run_sweep(a: &SweepArgs) -> Result<i32> {
    let root = resolve_root(&a.root)?;
    let now = crate::time::now_override().unwrap_or_else(crate::time::now_secs);
    let report = crate::lifecycle::sweep(&root, now)?;
    let text = match a.format {
        Format::Json => to_json(&report),
        Format::Human => crate::lifecycle::sweep::render_human(&report),
    };
    emit(None, &text)?;
    Ok(0)
}

fn run_tokens(a: &TokensArgs) -> Result<i32> {
    let root = resolve_root(&a.root)?;
    let cwd = std::env::current_dir().map_err(|e| Error::io(".", e))?;
    let mut rels = Vec::new();
    for p in &a.paths {
        // A path is root-relative when it names a file there, else relative to the cwd.
        let s = p.to_string_lossy();
        let as_root = s.trim_start_matches("./");
        let rel = if !p.is_absolute() && root.join(as_root).is_file() {
            as_root.to_string()
        } else {
            let abs = cwd.join(p);
            let abs = abs.canonicalize().map_err(|e| Error::io(&abs, e))?;
            crate::paths::to_rel(&root, &abs).ok_or_else(|| {
                Error::Usage(format!(
                    "{}: not inside the root {}",
                    p.display(),
                    root.display()
                ))
            })?
        };
        rels.push(rel);
    }
    let counts = crate::scan::token_counts(&root, &rels)?;
    let text = match a.format {
        Format::Json => to_json(&counts),
        Format::Human => crate::scan::human::tokens(&counts),
    };
    emit(None, &text)?;
    Ok(0)
}

fn run_policy(a: &RootArg) -> Result<i32> {
    let root = resolve_root(a).ok();
    emit(None, &to_json(&crate::policy::policy(root.as_deref())))?;
    Ok(0)
}

/// The most stdin a hook reads; a larger input (a huge `Write`) is not a hook input worth the
/// wait, and the hook stays silent.
const HOOK_STDIN_CAP: u64 = 64 * 1024 * 1024;

fn run_hook(a: &HookArgs) -> Result<i32> {
    use std::io::Read;
    let mut stdin = Vec::new();
    let read = std::io::stdin()
        .lock()
        .take(HOOK_STDIN_CAP + 1)
        .read_to_end(&mut stdin);
    if read.is_err() || stdin.len() as u64 > HOOK_STDIN_CAP {
        return Ok(0);
    }
    let event = match a.event {
        HookEvent::PostToolUse => crate::hook::Event::PostToolUse,
        HookEvent::SessionStart => crate::hook::Event::SessionStart,
    };
    let project = std::env::var_os("CLAUDE_PROJECT_DIR").map(PathBuf::from);
    // A hook must never fail the tool call: a panic is silence and exit 0 like any other error.
    std::panic::set_hook(Box::new(|_| {}));
    let out = std::panic::catch_unwind(|| crate::hook::run(event, &stdin, project.as_deref()))
        .ok()
        .flatten();
    if let Some(line) = out {
        emit(None, &format!("{line}\n"))?;
    }
    Ok(0)
}

fn run_schema() -> Result<i32> {
    emit(None, &to_json(&crate::schema::report_schema()))?;
    Ok(0)
}
