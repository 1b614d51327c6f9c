//! Answers of the git processes the tree-wide detectors start, kept between scans: each is a
//! function of objects git never changes, so a repeated scan need not start the process again.
//! On the generated 40k tree a warm scan started 18 `git blame` and 5 `git diff-tree` processes
//! and waited on each (about 150 ms of a 0.8 s warm scan).
//!
//! - `git blame ... HEAD -- path` (the missing-path detector's "was this line written by the
//!   renaming commit"): a function of the commit `HEAD` names, the path and the lines, so its
//!   key holds the commit id. When `HEAD` moves, the old answers are no longer asked, and are
//!   dropped at the next save.
//! - `git diff-tree -p` of a rename commit, counted for an old and a new file name: a function
//!   of the commit id and the names.
//!
//! An answer git could not give (the process failed) is never kept. Within one scan the same
//! question is asked of git once, with or without the cache file.

use super::{read_body, write_body, Context, Dec, Enc};
use std::collections::HashMap;
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// The answers file, under `.hygiene/`.
pub const GIT_FILE: &str = "cache/git.bin";

/// A question, as its key: `b` for blame, `n` for name changes, then its parts.
type Key = String;

/// What git answered.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Answer {
    /// Per blamed line: the commit id and the line's text.
    Blame(Vec<(u32, String, String)>),
    /// Lines of the patch that dropped the old name, and that took up the new one.
    Names(usize, usize),
}

/// The answers read from the cache, and those this scan asked for.
#[derive(Debug, Default)]
pub struct GitAnswers {
    known: HashMap<Key, Answer>,
    asked: Mutex<HashMap<Key, Answer>>,
    /// Questions asked of git, and answered from the file, in this scan.
    counts: [AtomicUsize; 2],
}

impl GitAnswers {
    /// Reads the answers kept for `root` (none when absent, damaged or written under another
    /// context).
    pub fn load(root: &Path, context: &Context) -> GitAnswers {
        let known = read_body(root, GIT_FILE, context)
            .and_then(|b| decode(b.get()))
            .unwrap_or_default();
        GitAnswers {
            known,
            ..GitAnswers::default()
        }
    }

    /// `(N asked, M from the cache)` for the phase timings: questions this scan answered, and
    /// how many of them the file answered.
    pub fn note(&self) -> String {
        let [git, file] = &self.counts;
        let (git, file) = (git.load(Ordering::Relaxed), file.load(Ordering::Relaxed));
        format!("(git: {} asked, {file} from the cache)", git + file)
    }

    /// The answer to `key`: this scan's, then the cache's, else `ask`'s (kept when git gave
    /// one).
    fn answer(&self, key: Key, ask: impl FnOnce() -> Option<Answer>) -> Option<Answer> {
        if let Some(a) = self.asked.lock().ok().and_then(|m| m.get(&key).cloned()) {
            return Some(a);
        }
        let a = match self.known.get(&key) {
            Some(a) => {
                self.counts[1].fetch_add(1, Ordering::Relaxed);
                a.clone()
            }
            None => {
                self.counts[0].fetch_add(1, Ordering::Relaxed);
                ask()?
            }
        };
        if let Ok(mut m) = self.asked.lock() {
            m.insert(key, a.clone());
        }
        Some(a)
    }

    /// [`crate::git::blame_lines`] of `path` at the commit `head` (the id `HEAD` names).
    pub fn blame_lines(
        &self,
        root: &Path,
        head: &str,
        path: &str,
        lines: &[u32],
    ) -> HashMap<u32, (String, String)> {
        let listed: Vec<String> = lines.iter().map(u32::to_string).collect();
        let key = format!("b\0{head}\0{path}\0{}", listed.join(","));
        let ask = || {
            let mut v: Vec<(u32, String, String)> = crate::git::blame_lines(root, path, lines)?
                .into_iter()
                .map(|(n, (id, text))| (n, id, text))
                .collect();
            v.sort();
            Some(Answer::Blame(v))
        };
        match self.answer(key, ask) {
            Some(Answer::Blame(v)) => v.into_iter().map(|(n, id, t)| (n, (id, t))).collect(),
            _ => HashMap::new(),
        }
    }

    /// [`crate::git::name_changes`] of `commit` for `old` and `new`.
    pub fn name_changes(
        &self,
        root: &Path,
        commit: &str,
        old: &str,
        new: &str,
    ) -> Option<(usize, usize)> {
        let key = format!("n\0{commit}\0{old}\0{new}");
        let ask =
            || crate::git::name_changes(root, commit, old, new).map(|(d, t)| Answer::Names(d, t));
        match self.answer(key, ask)? {
            Answer::Names(d, t) => Some((d, t)),
            Answer::Blame(_) => None,
        }
    }

    /// Writes the answers this scan asked for (those it did not ask are dropped), unless they
    /// are exactly what was read.
    pub fn save(self, root: &Path, context: &Context) {
        let asked = self.asked.into_inner().unwrap_or_default();
        if asked == self.known {
            return;
        }
        let mut all: Vec<(&Key, &Answer)> = asked.iter().collect();
        all.sort_unstable_by(|a, b| a.0.cmp(b.0));
        let mut e = Enc::default();
        e.len(all.len());
        for (key, a) in all {
            e.str(key);
            match a {
                Answer::Blame(v) => {
                    e.u8(0);
                    e.len(v.len());
                    for (n, id, text) in v {
                        e.u32(*n);
                        e.str(id);
                        e.str(text);
                    }
                }
                Answer::Names(d, t) => {
                    e.u8(1);
                    e.len(*d);
                    e.len(*t);
                }
            }
        }
        write_body(root, GIT_FILE, context, &e.0);
    }
}

fn decode(b: &[u8]) -> Option<HashMap<Key, Answer>> {
    let mut d = Dec::new(b);
    let n = d.count(4 + 1)?;
    let mut out = HashMap::with_capacity(n);
    for _ in 0..n {
        let key = d.string()?;
        let a = match d.u8()? {
            0 => {
                let m = d.count(4 + 4 + 4)?;
                let mut v = Vec::with_capacity(m);
                for _ in 0..m {
                    v.push((d.u32()?, d.string()?, d.string()?));
                }
                Answer::Blame(v)
            }
            1 => Answer::Names(d.u32()? as usize, d.u32()? as usize),
            _ => return None,
        };
        out.insert(key, a);
    }
    d.done().then_some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Answers round-trip through the file, a question git cannot answer is not kept, and
    /// answers this scan did not ask for are dropped at the save.
    #[test]
    fn answers_are_kept_for_what_was_asked() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        let context = Context::new("test");
        let g = GitAnswers::load(root, &context);
        let asked = std::cell::Cell::new(0);
        let names = |g: &GitAnswers, key: &str| {
            g.answer(key.to_string(), || {
                asked.set(asked.get() + 1);
                Some(Answer::Names(3, 1))
            })
        };
        assert_eq!(names(&g, "n\0c1\0a\0b"), Some(Answer::Names(3, 1)));
        assert_eq!(names(&g, "n\0c1\0a\0b"), Some(Answer::Names(3, 1)));
        assert_eq!(asked.get(), 1, "asked of git once within a scan");
        assert_eq!(g.answer("n\0failed".into(), || None), None);
        g.answer("b\0h\0a.md\u{0}1".into(), || {
            Some(Answer::Blame(vec![(1, "c".repeat(40), "text".into())]))
        });
        g.save(root, &context);

        let g = GitAnswers::load(root, &context);
        assert_eq!(g.known.len(), 2, "the failed question is not kept");
        assert_eq!(names(&g, "n\0c1\0a\0b"), Some(Answer::Names(3, 1)));
        assert_eq!(asked.get(), 1, "answered from the file");
        g.save(root, &context);
        let g = GitAnswers::load(root, &context);
        assert_eq!(
            g.known.keys().collect::<Vec<_>>(),
            ["n\0c1\0a\0b"],
            "the blame no scan asked again is dropped"
        );
    }

    #[test]
    fn damaged_answers_read_as_none() {
        assert!(decode(&[1, 0, 0, 0]).is_none());
        assert!(decode(&[1, 0, 0, 0, 1, 0, 0, 0, b'k', 7]).is_none());
        assert_eq!(decode(&[0, 0, 0, 0]), Some(HashMap::new()));
    }
}
