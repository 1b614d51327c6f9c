//! `provisional-marker`: DRAFT, WIP, TODO, TBD, FIXME or PLACEHOLDER written in capitals as a
//! marker of prose (not in code, not part of a file name like `TODO.md`), or a frontmatter or
//! status line whose first word is draft, wip or placeholder. Lowercase prose ("a draft of the
//! API") is not a marker.
//!
//! The word must stand as a marker, not as the subject of a sentence: at the start of a line or
//! a sentence (`TODO: cache it`, `- TBD`), as a label's value (`Owner: TBD`), or directly
//! followed by `:` or `(` (`TODO(n)`). After a copula ("the tests are WIP") it states its
//! subject's status, not the page's. "Do not create TODO lists", "a TODO app", an "IETF DRAFT
//! (...)" title, a quoted `'TBD'`, a maturity label `(WIP)`, a table of per-item statuses and a
//! heading that names a phase ("Phase 3: DRAFT") are not markers; a heading that is the marker
//! alone is, unless a task list follows it (a backlog the page keeps). A status line that lists the statuses (`Draft | Review | Final`, a template) is not
//! a status.

use super::{first_word, prose_lines, status_value, Detector, DocText, Finding};
use crate::report::Signal;

/// The capitalised marker words.
pub const MARKERS: &[&str] = &["DRAFT", "WIP", "TODO", "TBD", "FIXME", "PLACEHOLDER"];

/// Whether `prose` holds any of [`MARKERS`]: each searched with a searcher built once (every
/// page asks; `str::contains` built one per call).
///
/// ```
/// use hygiene::scan::detectors::provisional::any_marker;
/// assert!(any_marker("text\nTODO: write it") && any_marker("a PLACEHOLDER"));
/// assert!(!any_marker("todo, done: nothing in capitals"));
/// ```
pub fn any_marker(prose: &str) -> bool {
    static NEEDLES: crate::scan::markdown::Needles = crate::scan::markdown::Needles::new(MARKERS);
    NEEDLES.any_in(prose)
}

/// A `status` line's key, searched in the lowercased prose.
static STATUS: crate::scan::markdown::Needle = crate::scan::markdown::Needle::new("status");

/// Status values that mean provisional.
pub const STATUS_WORDS: &[&str] = &["draft", "wip", "placeholder"];

/// How many marker words `line` holds. A line naming three or more different markers is a list
/// of the words (documentation about markers), not a marker, and counts zero; so does a table
/// row.
pub fn count_markers(line: &str) -> u32 {
    let t = line.trim_start();
    if t.starts_with('|') {
        return 0;
    }
    let heading = t.starts_with('#');
    let b = line.as_bytes();
    let mut n = 0;
    let mut kinds = 0;
    for m in MARKERS {
        let mut named = false;
        for (i, _) in line.match_indices(m) {
            let before = i.checked_sub(1).map(|j| b[j]);
            let after = b.get(i + m.len()).copied();
            let after2 = b.get(i + m.len() + 1).copied();
            let quoted = line[..i].ends_with(['\u{201c}', '\u{2018}']);
            let word_before =
                before.is_some_and(|c| c.is_ascii_alphanumeric() || b"_/.-'\"".contains(&c));
            // A letter of any script joined to it makes a word: Korean and Japanese
            // particles ("TODO가 포함된", the TODO's).
            let joined = line[i + m.len()..]
                .chars()
                .next()
                .is_some_and(|c| !c.is_ascii() && c.is_alphabetic());
            let word_after = joined
                || after.is_some_and(|c| c.is_ascii_alphanumeric() || b"_/'\"".contains(&c))
                || (matches!(after, Some(b'.' | b'-'))
                    && after2.is_some_and(|c| c.is_ascii_alphanumeric()));
            // "- ✅ TODO: tests": an item marked done.
            let done = line[..i].trim_end().ends_with(DONE_MARKS);
            if word_before || word_after || quoted || done {
                continue;
            }
            named = true;
            if names_the_word(&line[..i], &line[i + m.len()..]) {
                continue;
            }
            let rest = line[i + m.len()..]
                .trim_matches(|c: char| c == '*' || c == '_' || c.is_whitespace());
            // `(WIP)`, `(WIP stage)`, `(DRAFT)`: a maturity label on the item before it (a
            // feature's), not the document's; a note (`(TODO: add a section)`, `(TBD)`) is.
            let label = matches!(*m, "WIP" | "DRAFT")
                && line[..i].ends_with('(')
                && line[i + m.len()..]
                    .split_once(')')
                    .is_some_and(|(inside, _)| !inside.contains(':'));
            let stands = if heading {
                rest.is_empty() || rest.starts_with(':')
            } else {
                !label && (marker_position(&line[..i]) || matches!(after, Some(b':' | b'(' | b')')))
            };
            n += u32::from(stands);
        }
        kinds += u32::from(named);
    }
    if kinds >= 3 {
        0
    } else {
        n
    }
}

/// Words before a marker that make it a noun of the sentence ("an issue, ticket, or TODO",
/// "flag stale TODOs", "the TODO", "mark with TODO"), and words after it that it qualifies or
/// that it is the subject of ("TODO lists", "TODO comments", "TODO says", "WIP limits"): then
/// it names the word, it does not mark the document.
///
/// ```
/// use hygiene::scan::detectors::provisional::count_markers;
/// assert_eq!(count_markers("a trackable task (issue, ticket, or TODO)."), 0);
/// assert_eq!(count_markers("- TODO lists and planning notes"), 0);
/// assert_eq!(count_markers("**BAD — TODO says to add validation**"), 0);
/// assert_eq!(count_markers("- TODO: cache the index"), 1);
/// assert_eq!(count_markers("Caching (TODO)"), 1);
/// assert_eq!(count_markers("- [TODO LIST](https://www.msys2.org/wiki/Devtopics/)"), 0);
/// assert_eq!(count_markers("- **DRAFT to PENDING**: call the distribute endpoint"), 0);
/// assert_eq!(count_markers("- DRAFT: to be reviewed"), 1);
/// assert_eq!(count_markers("- Inline styles for one-off components (mark with TODO)"), 0);
/// assert_eq!(count_markers("- **WIP Limits**: Prevent overload and thrashing"), 0);
/// assert_eq!(count_markers("4. If the purpose is unknown, mark as TBD: ask later."), 0);
/// assert_eq!(count_markers("- Label it as WIP until reviewed"), 0);
/// assert_eq!(count_markers("The purpose is left as TBD: ask the owner."), 1);
/// assert_eq!(count_markers("If unknown, mark the purpose as TBD: ask later."), 0);
/// assert_eq!(count_markers("- TODO / FIXME / HACK / XXX comments left in?"), 0);
/// assert_eq!(count_markers("**Status:** TODO / document for follow-up."), 1);
/// assert_eq!(count_markers("<!-- // FIXME: Choose only two demos -->"), 1);
/// assert_eq!(count_markers("  decision** (they do not survive B0 as TBD);"), 0);
/// assert_eq!(count_markers("Never merge a TODO into main."), 0);
/// assert_eq!(count_markers("Not decided yet. TODO: pick a cache."), 1);
/// assert_eq!(count_markers("It does not retry \u{2014} TODO"), 1);
/// assert_eq!(count_markers("4. TODO\u{ac00} \u{d3ec}\u{d568}\u{b41c} \u{d14c}\u{c2a4}\u{d2b8} \u{acc4}\u{d68d}"), 0);
/// assert_eq!(count_markers("- \u{2705} TODO: integration tests"), 0);
/// assert_eq!(count_markers("7. **TODO Detection**: ensure completeness"), 0);
/// assert_eq!(count_markers("### 1.7 TODO Tree"), 0);
/// assert_eq!(count_markers("- TODO\u{ff1a}\u{8865}\u{5145}"), 1);
/// ```
pub const SUBJECT_WORDS: (&[&str], &[&str]) = (
    &[
        "a", "an", "the", "or", "and", "any", "each", "every", "no", "stale", "open", "old", "with",
    ],
    &[
        "list",
        "lists",
        "item",
        "items",
        "comment",
        "comments",
        "marker",
        "markers",
        "says",
        "said",
        "app",
        "apps",
        "tracking",
        "convention",
        "entries",
        "entry",
        "limit",
        "limits",
        "detection",
        "management",
        // "1.7 TODO Tree": the list an agent keeps.
        "tree",
    ],
);

/// Marks before a marker that say its item is done (`- ✅ TODO: integration tests`).
pub const DONE_MARKS: &[char] = &['\u{2705}', '\u{2714}', '\u{2611}', '\u{2713}'];

/// Whether a marker between `before` and `after` names the word ([`SUBJECT_WORDS`]).
fn names_the_word(before: &str, after: &str) -> bool {
    let prev = before
        .trim_end_matches(|c: char| c == '*' || c == '_' || c.is_whitespace())
        .rsplit(|c: char| !c.is_alphanumeric())
        .next()
        .unwrap_or("")
        .to_ascii_lowercase();
    let after = after.trim_start_matches(['*', '_', '`']);
    let next: String = after
        .strip_prefix(' ')
        .unwrap_or("")
        .chars()
        .take_while(|c| c.is_ascii_alphabetic())
        .collect::<String>()
        .to_ascii_lowercase();
    // A status among statuses: "**DRAFT to PENDING**: call the distribute endpoint".
    let transition = [" to ", " -> ", " \u{2192} "].iter().any(|sep| {
        after.strip_prefix(sep).is_some_and(|r| {
            r.trim_start_matches(['`', '*'])
                .chars()
                .take_while(|c| c.is_ascii_uppercase() || *c == '_')
                .count()
                >= 2
        })
    });
    // "mark as TBD", "mark the purpose as TBD": the label to give, not this document's state.
    let labelled = prev == "as"
        && before
            .rsplit(|c: char| !c.is_alphanumeric())
            .filter(|w| !w.is_empty())
            .skip(1)
            .take(3)
            .any(|w| LABEL_VERBS.contains(&w.to_ascii_lowercase().as_str()));
    // "TODO / FIXME / HACK comments left in?": one of alternative words, named.
    // Not "// FIXME" (a comment) nor "TODO / document for follow-up" (a marker and its note).
    let caps = |w: &str| w.len() >= 2 && w.chars().all(|c| c.is_ascii_uppercase());
    let alternative = before
        .trim_end()
        .strip_suffix('/')
        .is_some_and(|b| caps(b.trim_end().rsplit(' ').next().unwrap_or("")))
        || after.trim_start().strip_prefix('/').is_some_and(|a| {
            caps(
                a.trim_start()
                    .split(|c: char| !c.is_ascii_alphabetic())
                    .next()
                    .unwrap_or(""),
            )
        });
    SUBJECT_WORDS.0.contains(&prev.as_str())
        || SUBJECT_WORDS.1.contains(&next.as_str())
        || transition
        || labelled
        || alternative
        || negated(before)
}

/// Words that, in the clause before a marker, deny it ("they do not survive B0 as TBD",
/// "never merge a TODO", "ship without TBDs"): the sentence is a rule about the word.
pub const NEGATIONS: &[&str] = &[
    "not", "never", "without", "don't", "doesn't", "cannot", "can't", "won't", "avoid", "avoids",
];

/// Whether the clause `before` a marker (since the last sentence or label break) denies it.
fn negated(before: &str) -> bool {
    let clause = before
        .rsplit(['.', ';', ':', '!', '?', '(', ',', '\u{2014}'])
        .next()
        .unwrap_or("");
    let clause = clause.replace('\u{2019}', "'").to_ascii_lowercase();
    clause
        .split(|c: char| !(c.is_alphanumeric() || c == '\''))
        .any(|w| NEGATIONS.contains(&w))
}

/// Verbs before "as" that make the marker after it a label to give ("mark as TBD").
const LABEL_VERBS: &[&str] = &[
    "mark", "marks", "marked", "label", "labels", "labeled", "labelled", "tag", "tagged", "flag",
    "flagged",
];

/// The label of a list item written as an upper-case word and a colon (`- ERROR_FREE: ...`).
fn caps_label(line: &str) -> Option<&str> {
    let t = line
        .trim_start()
        .strip_prefix(['-', '*', '+'])?
        .trim_start();
    let t = t.trim_start_matches(['*', '_', '`']);
    let end = t.find(|c: char| !(c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_'))?;
    let rest = t[end..].trim_start_matches(['*', '_', '`']);
    (end >= 2 && rest.starts_with(':')).then(|| &t[..end])
}

/// Whether the marker that labels list item `i` of `lines` is one name in a list of upper-case
/// labels (a verification protocol's "- FUNCTIONALITY: ...", "- TODO: All tasks completed",
/// "- ERROR_FREE: ..."): a neighbouring item is labelled with a word that marks nothing.
fn one_of_labels(lines: &[&str], i: usize) -> bool {
    caps_label(lines[i]).is_some_and(|l| MARKERS.contains(&l))
        && [i.checked_sub(1), Some(i + 1)]
            .into_iter()
            .flatten()
            .filter_map(|j| lines.get(j).and_then(|l| caps_label(l)))
            .any(|l| !MARKERS.contains(&l))
}

/// Whether the text before a marker leaves it standing as one: nothing but list, quote,
/// emphasis and checkbox marks (the start of a line), or the end of a sentence or a label (`.`,
/// `;`, `:`, `=`, `(`, `—`). After a copula ("the tests are WIP", "support in v2 is WIP", "the
/// dialogs are TBD") the word states its subject's status, a feature's or the test suite's, not
/// a part of the page left to write: judged on public repositories, all five pages marked only
/// so were false alarms.
fn marker_position(before: &str) -> bool {
    let p =
        before.trim_end_matches(|c: char| c == '*' || c == '_' || c == '~' || c.is_whitespace());
    let bare = p.trim_start_matches(|c: char| {
        c.is_whitespace() || "-+*>#_[]()x.".contains(c) || c.is_ascii_digit()
    });
    bare.is_empty() || p.ends_with(['.', ';', ':', '=', '(', '\u{2014}', '!', '?'])
}

/// Whether `line` spells a marker in a code span ("**TODO.** Use `// TODO:` for deferred
/// work"): the line teaches the marker's use, its bare marker a label of that lesson, not work
/// left in this page (s33: astro's `writing-comments` skill; judged false).
///
/// ```
/// # use hygiene::scan::detectors::provisional::spells_a_marker_in_code;
/// assert!(spells_a_marker_in_code("**TODO.** Use `// TODO:` for deferred work."));
/// assert!(!spells_a_marker_in_code("- `pause`: **TODO** \u{2014} needs batch changes."));
/// assert!(!spells_a_marker_in_code("TODO: document `run()`."));
/// ```
pub fn spells_a_marker_in_code(line: &str) -> bool {
    line.split('`').skip(1).step_by(2).any(|code| {
        code.split(|c: char| !c.is_ascii_alphanumeric())
            .any(|w| MARKERS.contains(&w))
    })
}

/// Whether a raw line cites a marker in the code where it is: "overlapping chunks — TODO in
/// `hmr_stage.rs`", "(TODO, `LeaderSyncProcessor.ts:912`)", "(code TODO)". The document
/// reports a TODO comment of the code (a known gap it describes); it is not left to write.
///
/// ```
/// # use hygiene::scan::detectors::provisional::cites_a_code_marker;
/// assert!(cites_a_code_marker("overlapping chunks \u{2014} TODO in `hmr_stage.rs`), but harmless"));
/// assert!(cites_a_code_marker("  bound (TODO, `LeaderSyncProcessor.ts:912-913`; issue #1423)."));
/// assert!(cites_a_code_marker("  (code TODO), and its head source differs"));
/// assert!(!cites_a_code_marker("TODO in the next release: the retry section."));
/// assert!(!cites_a_code_marker("TODO: explain `run()`."));
/// ```
pub fn cites_a_code_marker(line: &str) -> bool {
    MARKERS.iter().any(|m| {
        line.match_indices(m).any(|(at, _)| {
            let after = &line[at + m.len()..];
            let before = line[..at].trim_end();
            [", `", " in `", " at `"]
                .iter()
                .any(|p| after.starts_with(p))
                || before
                    .strip_suffix("code")
                    .is_some_and(|b| b.is_empty() || b.ends_with(|c: char| !c.is_alphanumeric()))
        })
    })
}

/// Whether line `i` of `lines` titles a quoted callout with a marker alone (`> #### TODO`, as
/// temporal's architecture notes do) and the callout goes on with its text: a titled note
/// about work the code still owes, written out, not a part of the document left to write.
///
/// ```
/// # use hygiene::scan::detectors::provisional::marker_titles_a_callout;
/// let notes = ["> #### TODO", "> The ADMITTED stage is still rejected by the handler."];
/// assert!(marker_titles_a_callout(&notes, 0));
/// assert!(!marker_titles_a_callout(&["> #### TODO", ">"], 0));
/// assert!(!marker_titles_a_callout(&["## TODO", "Write this section."], 0));
/// assert!(!marker_titles_a_callout(&["> #### TODO: write it", "> More."], 0));
/// ```
pub fn marker_titles_a_callout(lines: &[&str], i: usize) -> bool {
    let title = |l: &str| -> Option<String> {
        let q = l.trim_start().strip_prefix('>')?.trim_start();
        let h = q.strip_prefix('#')?.trim_start_matches('#').trim();
        Some(h.trim_matches(['*', '_', ':']).trim().to_string())
    };
    let body = |l: &str| {
        l.trim_start()
            .strip_prefix('>')
            .is_some_and(|t| t.chars().filter(|c| c.is_alphabetic()).count() >= 3)
    };
    lines
        .get(i)
        .and_then(|l| title(l))
        .is_some_and(|t| MARKERS.contains(&t.as_str()))
        && lines[i + 1..]
            .iter()
            .find(|l| l.trim().trim_start_matches('>').trim() != "")
            .is_some_and(|l| body(l))
}

/// Whether line `i` of `lines` is a heading that is a marker alone (`## TODO`), or a line that
/// is the marker and a colon (`TODO:`), over a task list (`- [ ] SSE subscriptions`): a backlog
/// the page keeps of work the project owes, or the checklist a prompt hands its agent (s33:
/// OpenSpec's `install.md`, judged false), ticked off as it lands, not a part of the page left to
/// write. Judged on cline, trpc and autogen; a heading over prose ("Write the section") or a
/// plain list ("- add the android assistant") still marks the page.
///
/// ```
/// # use hygiene::scan::detectors::provisional::marker_heads_a_task_list;
/// assert!(marker_heads_a_task_list(&["## TODO:", "", "- [ ] SSE subscriptions"], 0));
/// assert!(marker_heads_a_task_list(&["## TODO", "* [x] done", "* [ ] next"], 0));
/// assert!(!marker_heads_a_task_list(&["## TODO", "- add the android assistant"], 0));
/// assert!(!marker_heads_a_task_list(&["## TODO", "Write the section."], 0));
/// assert!(!marker_heads_a_task_list(&["## TODO: retries", "- [ ] backoff"], 0));
/// assert!(!marker_heads_a_task_list(&["- [ ] TODO", "- [ ] backoff"], 0));
/// assert!(marker_heads_a_task_list(&["TODO:", "", "- [ ] Check the runtime"], 0));
/// assert!(!marker_heads_a_task_list(&["TODO:", "- write the runtime section"], 0));
/// ```
pub fn marker_heads_a_task_list(lines: &[&str], i: usize) -> bool {
    let title = lines.get(i).and_then(|l| {
        let t = l.trim();
        match t.strip_prefix('#') {
            Some(h) => Some(
                h.trim_start_matches('#')
                    .trim()
                    .trim_matches(['*', '_', ':'])
                    .trim(),
            ),
            // A line of its own: the marker and its colon, emphasis around them.
            None => t.trim_matches(['*', '_']).strip_suffix(':').map(str::trim),
        }
    });
    let task = |l: &str| {
        let t = l.trim_start();
        t.strip_prefix(['-', '*', '+'])
            .map(str::trim_start)
            .is_some_and(|t| t.starts_with("[ ]") || t.starts_with("[x]") || t.starts_with("[X]"))
    };
    title.is_some_and(|t| MARKERS.contains(&t))
        && lines[i + 1..]
            .iter()
            .find(|l| !l.trim().is_empty())
            .is_some_and(|l| task(l))
}

/// Whether every marker on `lines` of `prose` sits in a comment the rendered page hides
/// (`<!-- TODO: screenshot -->`, `{/* TODO: diagram */}`, `[//]: # (TODO: ...)`): a note between
/// maintainers. Judged on public repositories such notes were true about one time in two, and
/// identical notes on sibling pages drew opposite verdicts, so alone they do not shortlist a
/// page ([`crate::scan::RIDE_ALONG`]).
///
/// ```
/// # use hygiene::scan::detectors::provisional::all_hidden;
/// let t = "# Guide\n<!-- TODO: add a screenshot -->\nText. {/* TBD */}\nTODO: write the rest";
/// assert!(all_hidden(t, &[2, 3]));
/// assert!(!all_hidden(t, &[2, 4]) && !all_hidden("TODO: x <!-- y -->", &[1]));
/// ```
pub fn all_hidden(prose: &str, lines: &[u32]) -> bool {
    let Some(visible) = crate::scan::markdown::unhidden(prose) else {
        return false;
    };
    let shown: Vec<&str> = prose_lines(&visible).map(|(_, l)| l).collect();
    lines.iter().all(|&n| {
        let at = (n as usize).checked_sub(1);
        at.and_then(|i| shown.get(i)).is_some_and(|l| {
            count_markers(l) == 0
                && status_value(l).is_none_or(|v| !STATUS_WORDS.contains(&first_word(v).as_str()))
        })
    })
}

/// The detector.
pub struct Provisional;

impl Detector for Provisional {
    fn kind(&self) -> &'static str {
        "provisional-marker"
    }

    fn on_text(&self, doc: &DocText<'_>) -> Vec<Finding> {
        let mut count = 0;
        let mut lines = Vec::new();
        if let Some((v, line)) = doc.parsed.frontmatter.get("status") {
            if STATUS_WORDS.contains(&first_word(v).as_str()) {
                count += 1;
                lines.push(line);
            }
        }
        let frontmatter = count;
        let any = any_marker(&doc.parsed.prose) || STATUS.is_in(doc.lower_prose);
        let all: Vec<&str> = if any {
            prose_lines(&doc.parsed.prose).map(|(_, l)| l).collect()
        } else {
            Vec::new()
        };
        let raw: Vec<&str> = if any {
            doc.text.lines().collect()
        } else {
            Vec::new()
        };
        for (i, &l) in all.iter().enumerate() {
            let line = i as u32 + 1;
            let mut n = count_markers(l);
            if n > 0
                && (one_of_labels(&all, i)
                    || marker_titles_a_callout(&all, i)
                    || marker_heads_a_task_list(&all, i)
                    || raw
                        .get(i)
                        .is_some_and(|r| spells_a_marker_in_code(r) || cites_a_code_marker(r)))
            {
                n = 0;
            }
            if n == 0 {
                if let Some(v) = status_value(l) {
                    // Not a tag among tags ("Status: #wip #completed").
                    n = u32::from(
                        STATUS_WORDS.contains(&first_word(v).as_str())
                            && !v.contains('|')
                            && !v.starts_with('#'),
                    );
                }
            }
            if n > 0 {
                count += n;
                lines.push(line);
            }
        }
        if count == 0 {
            return Vec::new();
        }
        let unrendered = frontmatter == 0 && all_hidden(&doc.parsed.prose, &lines);
        vec![Finding {
            signal: Signal::ProvisionalMarker { count, lines },
            suggestion: None,
            unrendered,
        }]
    }
}

#[cfg(test)]
mod tests {
    use super::count_markers;

    #[test]
    fn capital_words_only() {
        assert_eq!(count_markers("TODO: x. FIXME (TODO)"), 3);
        assert_eq!(
            count_markers("DRAFT, WIP, TODO, TBD, FIXME, placeholder"),
            0
        );
        assert_eq!(
            count_markers("see TODO.md and docs/TODO and TODO-list and todo"),
            0
        );
        assert_eq!(count_markers("A DRAFT; TBD."), 1);
    }

    #[test]
    fn a_marker_stands_as_one() {
        for yes in [
            "TODO: cache the index",
            "- TBD",
            "- [ ] **WIP** the parser",
            "Owner: TBD",
            "It works. FIXME the retry path",
            "TODO(42): drop this",
            "> TODO",
            "## TODO",
            "[//]: # (TODO: add elicitation section)",
        ] {
            assert_eq!(count_markers(yes), 1, "{yes}");
        }
        for no in [
            "Do NOT create markdown TODO lists.",
            "> Save-state TODO app for the terminal.",
            "- OAuth 2.1 IETF DRAFT ([draft-ietf-oauth-v2-1-13](https://example.com))",
            "never write them: 'TBD', 'TODO',",
            "| Uptime automation | Planned | Q2 2026 | TBD |",
            "## Phase 3: DRAFT review flow",
            "- [bd todo](#bd-todo) \u{2014} Manage TODO items",
            "- **MVCC** - experimental multi-version concurrency (WIP)",
            "This is an experimental (WIP stage) feature disabled by default.",
            "The date is TBD.",
            "> Built-in support of WebSockets in h3 v2 is WIP.",
            "Please note that the tests are WIP and some are missing.",
        ] {
            assert_eq!(count_markers(no), 0, "{no}");
        }
    }
}
