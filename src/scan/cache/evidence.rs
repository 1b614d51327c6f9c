//! Drift evidence by what it was read from, so that a repeated scan does not read again the
//! described files of every proposed drift and their old versions (on a template monorepo,
//! 13 MB of JSON and as much from `git cat-file`, 400 ms of a 1.1 s warm scan).
//!
//! Whether a document's code names something its described files lost
//! ([`crate::scan::detectors::drift::gone`]) depends on the document's bytes, the commit it
//! last changed in (the files' old versions are that commit's blobs, which never change) and
//! the described files' current bytes. A record keeps the document's SHA-256, the commit id,
//! and each file's stamp; it answers only when all three are the same now. A file whose stamp
//! cannot vouch for its content (changed within [`super::RACY_SECS`], absent, or no stamp on
//! this platform) makes its drift read every time.

use super::{dec_stamp, enc_stamp, read_body, write_body, Context, Dec, Enc, Stamp};
use std::collections::{HashMap, HashSet};
use std::path::Path;

/// The evidence file, under `.hygiene/`.
pub const EVIDENCE_FILE: &str = "cache/evidence.bin";

/// What one drift's evidence was read from, and what it found (each described file that lost
/// something, with what it lost: [`Lost`]).
#[derive(Debug, Clone, PartialEq, Eq)]
struct Record {
    doc: [u8; 32],
    since: String,
    files: Vec<(String, Stamp)>,
    lost: Lost,
}

/// Per described file that lost something, what it lost ([`crate::scan::detectors::drift::gone`]).
pub type Lost = Vec<(String, Vec<String>)>;

/// The evidence records of a tree, by document path.
#[derive(Debug, Default)]
pub struct Evidence {
    known: HashMap<String, Record>,
    added: bool,
}

/// One drift's inputs: the document's path and digest, the commit, the described files with
/// their stamps now.
#[derive(Debug, Clone, Copy)]
pub struct Inputs<'a> {
    /// Root-relative document path.
    pub doc: &'a str,
    /// SHA-256 of the document's bytes.
    pub digest: [u8; 32],
    /// The commit the document last changed in.
    pub since: &'a str,
    /// The described files, root-relative.
    pub files: &'a [String],
    /// Their stamps now, parallel to `files`.
    pub stamps: &'a [Option<Stamp>],
}

impl Inputs<'_> {
    /// The described files with their stamps; `None` when one cannot vouch for its file.
    fn stamped(&self) -> Option<Vec<(String, Stamp)>> {
        self.files
            .iter()
            .zip(self.stamps)
            .map(|(f, s)| s.map(|s| (f.clone(), s)))
            .collect()
    }

    fn record(&self, lost: Lost) -> Option<Record> {
        Some(Record {
            doc: self.digest,
            since: self.since.to_string(),
            files: self.stamped()?,
            lost,
        })
    }

    /// Whether `r` was read from these inputs.
    fn made(&self, r: &Record) -> bool {
        r.doc == self.digest
            && r.since == self.since
            && self.stamped().is_some_and(|f| f == r.files)
    }
}

impl Evidence {
    /// Reads the records of `root` (none when absent, damaged or written under another
    /// context).
    pub fn load(root: &Path, context: &Context) -> Evidence {
        let known = read_body(root, EVIDENCE_FILE, context)
            .and_then(|b| decode(b.get()))
            .unwrap_or_default();
        Evidence {
            known,
            added: false,
        }
    }

    /// The evidence of the drift of `inputs` (empty: none), when a record read from the same
    /// inputs says.
    pub fn get(&self, inputs: &Inputs<'_>) -> Option<&Lost> {
        let r = self.known.get(inputs.doc)?;
        inputs.made(r).then_some(&r.lost)
    }

    /// Records what the drift of `inputs` found, when every stamp vouches for its file.
    pub fn add(&mut self, inputs: &Inputs<'_>, lost: &Lost) {
        if let Some(r) = inputs.record(lost.clone()) {
            if self.known.get(inputs.doc) != Some(&r) {
                self.known.insert(inputs.doc.to_string(), r);
                self.added = true;
            }
        }
    }

    /// Writes the records of the documents in `keep` (those with a proposed drift now), when
    /// records were added or some are no longer needed.
    pub fn save(mut self, root: &Path, context: &Context, keep: &HashSet<&str>) {
        let before = self.known.len();
        self.known.retain(|k, _| keep.contains(k.as_str()));
        if !self.added && self.known.len() == before {
            return;
        }
        let mut all: Vec<(&String, &Record)> = self.known.iter().collect();
        all.sort_unstable_by(|a, b| a.0.cmp(b.0));
        let mut e = Enc::default();
        e.len(all.len());
        for (path, r) in all {
            e.str(path);
            e.0.extend_from_slice(&r.doc);
            e.str(&r.since);
            e.len(r.files.len());
            for (f, s) in &r.files {
                e.str(f);
                enc_stamp(&mut e, &Some(*s));
            }
            e.len(r.lost.len());
            for (f, gone) in &r.lost {
                e.str(f);
                e.len(gone.len());
                for g in gone {
                    e.str(g);
                }
            }
        }
        write_body(root, EVIDENCE_FILE, context, &e.0);
    }
}

fn decode(b: &[u8]) -> Option<HashMap<String, Record>> {
    let mut d = Dec::new(b);
    let n = d.count(4 + 32 + 4 + 4 + 4)?;
    let mut out = HashMap::with_capacity(n);
    for _ in 0..n {
        let path = d.string()?;
        let doc: [u8; 32] = d.take(32)?.try_into().ok()?;
        let since = d.string()?;
        let m = d.count(5)?;
        let mut files = Vec::with_capacity(m);
        for _ in 0..m {
            files.push((d.string()?, dec_stamp(&mut d)??));
        }
        let k = d.count(8)?;
        let mut lost = Vec::with_capacity(k);
        for _ in 0..k {
            let f = d.string()?;
            let g = d.count(4)?;
            let mut gone = Vec::with_capacity(g);
            for _ in 0..g {
                gone.push(d.string()?);
            }
            lost.push((f, gone));
        }
        out.insert(
            path,
            Record {
                doc,
                since,
                files,
                lost,
            },
        );
    }
    d.done().then_some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stamp_of(path: &Path) -> Option<Stamp> {
        let m = std::fs::symlink_metadata(path).ok()?;
        // Far in the future: the file's times are old enough to vouch.
        super::super::stamp(&m, i64::MAX / 2)
    }

    #[test]
    fn a_record_answers_only_for_the_same_document_commit_and_files() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        std::fs::write(root.join("a.json"), "{}").unwrap();
        std::fs::write(root.join("b.json"), "{}").unwrap();
        let context = Context::new("test");
        let files = vec!["a.json".to_string()];
        let stamps = vec![stamp_of(&root.join("a.json"))];
        assert!(stamps[0].is_some());
        let inputs = Inputs {
            doc: "AGENTS.md",
            digest: [1; 32],
            since: "abc",
            files: &files,
            stamps: &stamps,
        };
        let mut ev = Evidence::load(root, &context);
        assert_eq!(ev.get(&inputs), None);
        let lost: Lost = vec![(
            "a.json".into(),
            vec!["loadConfig".into(), "\"x\": 1,".into()],
        )];
        ev.add(&inputs, &lost);
        let keep: HashSet<&str> = ["AGENTS.md"].into_iter().collect();
        ev.save(root, &context, &keep);
        let ev = Evidence::load(root, &context);
        // What was lost comes back whole, not only that something was.
        assert_eq!(ev.get(&inputs), Some(&lost));
        // Another digest, commit, file list or stamp: no answer.
        assert_eq!(
            ev.get(&Inputs {
                digest: [2; 32],
                ..inputs
            }),
            None
        );
        assert_eq!(
            ev.get(&Inputs {
                since: "abd",
                ..inputs
            }),
            None
        );
        let other = vec!["b.json".to_string()];
        assert_eq!(
            ev.get(&Inputs {
                files: &other,
                ..inputs
            }),
            None
        );
        std::fs::write(root.join("a.json"), "{\"x\": 1}").unwrap();
        let changed = vec![stamp_of(&root.join("a.json"))];
        assert_eq!(
            ev.get(&Inputs {
                stamps: &changed,
                ..inputs
            }),
            None
        );
        // A file that cannot vouch for its content is never recorded.
        let none = vec![None];
        let mut ev = Evidence::default();
        ev.add(
            &Inputs {
                stamps: &none,
                ..inputs
            },
            &Vec::new(),
        );
        assert!(ev.known.is_empty());
    }

    #[test]
    fn damaged_records_read_as_none() {
        assert!(decode(&[1, 0, 0, 0]).is_none());
        assert!(decode(&[]).is_none());
        assert_eq!(decode(&[0, 0, 0, 0]), Some(HashMap::new()));
    }
}
