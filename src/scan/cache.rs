//! The scan cache under `.hygiene/cache/`: what a scan learned that depends on a document's
//! content alone, and the git history walk, so that the next scan re-reads only what changed.
//!
//! **It can never change a result.** Every entry is reused only when everything its result was
//! computed from is the same:
//!
//! - the document: its file's stamp (device, inode, size, modification and change times) is the
//!   one recorded, or else its bytes hash to the recorded SHA-256 (a stamp is recorded only
//!   for files last changed more than [`RACY_SECS`] before the scan that read them, so a file
//!   rewritten within the file system's timestamp resolution is still read);
//! - the questions its per-document detectors asked of the tree ([`crate::scan::refs::recording`])
//!   have the same answers, and its load class is the same;
//! - the context: this exact helper binary (its version, size and modification time), the
//!   cache format and the role rules ([`Context`]);
//! - the history: the `HEAD` commit it was walked from, or a chain of plain commits on top of
//!   it that is walked and put in front (which is what `git log` itself would print).
//!
//! A cache another machine or checkout wrote is never read: the file names the inode of the
//! folder it was written into, which a clone or copy cannot reproduce. It is safe to delete,
//! any damage (a torn write, a bad length, an unknown format) makes it empty, never an error,
//! and it is written only through [`crate::state`] (never through a link, never outside the
//! root). `--no-cache` (or `HYGIENE_CACHE=0`) turns it off for one scan.

use crate::git::{Commit, History, LastEvent};
use crate::report::{InjectionFrequency, Signal, Suggestion, Via};
use crate::roles::Role;
use crate::scan::detectors::duplicate::BlockFact;
use crate::scan::detectors::Finding;
use crate::scan::markdown::{Block, CodeIdent, Frontmatter, Heading, Parsed, Ref};
use crate::scan::refs::Query;
use std::collections::HashMap;
use std::path::Path;

/// The cache format; bumped whenever what is cached, or how, changes.
pub const FORMAT: u32 = 1;

/// A file changed less than this many seconds before it was read gets no stamp: its next change
/// could keep the same times, so only its content can vouch for it.
pub const RACY_SECS: i64 = 3;

/// The documents' file, under `.hygiene/`.
pub const DOCS_FILE: &str = "cache/docs.bin";
/// The history's file, under `.hygiene/`.
pub const HISTORY_FILE: &str = "cache/history.bin";

const MAGIC: &[u8; 8] = b"HYGCACHE";

/// Whether the cache is on for this process (`HYGIENE_CACHE=0` turns it off).
pub fn enabled_by_env() -> bool {
    std::env::var("HYGIENE_CACHE").map_or(true, |v| v != "0")
}

/// What every entry of a cache file was computed under: this helper binary, the format, and
/// whatever else the caller adds (the role rules). A cache written under another context is
/// not read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Context(String);

impl Context {
    /// The context of this binary, plus `extra`.
    pub fn new(extra: &str) -> Context {
        let exe = std::env::current_exe()
            .ok()
            .and_then(|p| std::fs::metadata(p).ok())
            .map(|m| {
                let t = m
                    .modified()
                    .ok()
                    .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
                    .map_or(0, |d| d.as_nanos());
                format!("{} {t}", m.len())
            })
            .unwrap_or_default();
        Context(format!(
            "format {FORMAT}\nversion {}\nexe {exe}\n{extra}",
            crate::TOOL_VERSION
        ))
    }
}

/// The identity of a file's current content as the file system records it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stamp {
    dev: u64,
    ino: u64,
    size: u64,
    mtime: (i64, i64),
    ctime: (i64, i64),
}

/// The stamp of a file, `None` when it changed too recently to vouch for its content (or the
/// platform has no change time).
pub fn stamp(meta: &std::fs::Metadata, now_secs: i64) -> Option<Stamp> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        let s = Stamp {
            dev: meta.dev(),
            ino: meta.ino(),
            size: meta.size(),
            mtime: (meta.mtime(), meta.mtime_nsec()),
            ctime: (meta.ctime(), meta.ctime_nsec()),
        };
        let newest = s.mtime.0.max(s.ctime.0);
        (newest < now_secs - RACY_SECS).then_some(s)
    }
    #[cfg(not(unix))]
    {
        let _ = (meta, now_secs);
        None
    }
}

/// SHA-256 of a file's bytes.
pub fn digest(bytes: &[u8]) -> [u8; 32] {
    use sha2::Digest;
    sha2::Sha256::digest(bytes).into()
}

/// What the scan keeps of one document besides its parse.
#[derive(Debug, Clone)]
pub struct Meta {
    /// The file's stamp when it was read, if it could vouch for the content.
    pub stamp: Option<Stamp>,
    /// SHA-256 of the file's bytes.
    pub digest: [u8; 32],
    /// The per-document findings, computed as if the document were checked.
    pub findings: Vec<Finding>,
    /// The questions the per-document detectors asked of the tree, with their answers.
    pub asked: Vec<(Query, String, bool)>,
    /// The whole file's token count, once some scan needed it.
    pub tokens: Option<u64>,
    /// Duplicate matching's facts, once some scan needed them.
    pub facts: Option<Vec<BlockFact>>,
}

/// One document's entry.
#[derive(Debug, Clone)]
pub struct Entry {
    /// Everything but the parse.
    pub meta: Meta,
    /// The load class the per-document detectors saw.
    pub freq: InjectionFrequency,
    /// Its role.
    pub role: Role,
    /// The parse, without `prose` and `lines`.
    pub parsed: Parsed,
}

impl Entry {
    /// Whether the entry still holds for a document now of load class `freq` in `tree`.
    pub fn holds(&self, freq: InjectionFrequency, tree: &crate::scan::refs::Tree) -> bool {
        self.freq == freq && self.meta.asked.iter().all(|(q, p, a)| q.ask(tree, p) == *a)
    }
}

// ---- encoding ---------------------------------------------------------------------------

/// A byte buffer being written.
#[derive(Default)]
struct Enc(Vec<u8>);

impl Enc {
    fn u8(&mut self, v: u8) {
        self.0.push(v);
    }
    fn u32(&mut self, v: u32) {
        self.0.extend_from_slice(&v.to_le_bytes());
    }
    fn u64(&mut self, v: u64) {
        self.0.extend_from_slice(&v.to_le_bytes());
    }
    fn i64(&mut self, v: i64) {
        self.0.extend_from_slice(&v.to_le_bytes());
    }
    fn len(&mut self, n: usize) {
        self.u32(u32::try_from(n).unwrap_or(u32::MAX));
    }
    fn bytes(&mut self, b: &[u8]) {
        self.len(b.len());
        self.0.extend_from_slice(b);
    }
    fn str(&mut self, s: &str) {
        self.bytes(s.as_bytes());
    }
    fn opt_u64(&mut self, v: Option<u64>) {
        match v {
            Some(n) => {
                self.u8(1);
                self.u64(n);
            }
            None => self.u8(0),
        }
    }
}

/// A byte buffer being read; every read is checked, so damage yields `None`, never a panic.
struct Dec<'a> {
    b: &'a [u8],
    at: usize,
}

impl<'a> Dec<'a> {
    fn new(b: &'a [u8]) -> Dec<'a> {
        Dec { b, at: 0 }
    }
    fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        let end = self.at.checked_add(n)?;
        let s = self.b.get(self.at..end)?;
        self.at = end;
        Some(s)
    }
    fn u8(&mut self) -> Option<u8> {
        self.take(1).map(|s| s[0])
    }
    fn u32(&mut self) -> Option<u32> {
        self.take(4)
            .and_then(|s| s.try_into().ok())
            .map(u32::from_le_bytes)
    }
    fn u64(&mut self) -> Option<u64> {
        self.take(8)
            .and_then(|s| s.try_into().ok())
            .map(u64::from_le_bytes)
    }
    fn i64(&mut self) -> Option<i64> {
        self.take(8)
            .and_then(|s| s.try_into().ok())
            .map(i64::from_le_bytes)
    }
    /// A count of items at least `min` bytes each: never more than the bytes left can hold.
    fn count(&mut self, min: usize) -> Option<usize> {
        let n = self.u32()? as usize;
        (n.checked_mul(min.max(1))? <= self.b.len() - self.at).then_some(n)
    }
    fn bytes(&mut self) -> Option<&'a [u8]> {
        let n = self.u32()? as usize;
        self.take(n)
    }
    fn str(&mut self) -> Option<&'a str> {
        std::str::from_utf8(self.bytes()?).ok()
    }
    fn string(&mut self) -> Option<String> {
        self.str().map(str::to_string)
    }
    fn bool(&mut self) -> Option<bool> {
        match self.u8()? {
            0 => Some(false),
            1 => Some(true),
            _ => None,
        }
    }
    fn opt_u64(&mut self) -> Option<Option<u64>> {
        match self.u8()? {
            0 => Some(None),
            1 => Some(Some(self.u64()?)),
            _ => None,
        }
    }
    fn done(&self) -> bool {
        self.at == self.b.len()
    }
}

/// A fast running checksum of a cache body (it detects damage, not tampering: the folder
/// binding does that). The same bytes give the same sum however they are split into updates.
#[derive(Default)]
struct Sum {
    h: u64,
    tail: [u8; 8],
    n: usize,
    len: u64,
}

impl Sum {
    const K: u64 = 0x9e37_79b9_7f4a_7c15;

    fn mix(&mut self, word: [u8; 8]) {
        self.h = (self.h.rotate_left(23) ^ u64::from_le_bytes(word)).wrapping_mul(Self::K);
    }

    fn update(&mut self, mut b: &[u8]) {
        self.len += b.len() as u64;
        if self.n > 0 {
            let take = (8 - self.n).min(b.len());
            self.tail[self.n..self.n + take].copy_from_slice(&b[..take]);
            self.n += take;
            b = &b[take..];
            if self.n < 8 {
                return;
            }
            let t = self.tail;
            self.mix(t);
            self.n = 0;
        }
        let mut chunks = b.chunks_exact(8);
        for c in &mut chunks {
            self.mix(c.try_into().unwrap_or([0; 8]));
        }
        let rest = chunks.remainder();
        self.tail[..rest.len()].copy_from_slice(rest);
        self.n = rest.len();
    }

    fn finish(mut self) -> u64 {
        let mut t = [0u8; 8];
        t[..self.n].copy_from_slice(&self.tail[..self.n]);
        self.mix(t);
        let len = self.len.to_le_bytes();
        self.mix(len);
        self.h
    }
}

fn checksum(b: &[u8]) -> u64 {
    let mut s = Sum::default();
    s.update(b);
    s.finish()
}

fn via_code(v: Via) -> u8 {
    match v {
        Via::Link => 0,
        Via::Code => 1,
        Via::Import => 2,
    }
}

fn via_of(c: u8) -> Option<Via> {
    match c {
        0 => Some(Via::Link),
        1 => Some(Via::Code),
        2 => Some(Via::Import),
        _ => None,
    }
}

fn freq_code(f: InjectionFrequency) -> u8 {
    match f {
        InjectionFrequency::PerSession => 0,
        InjectionFrequency::OnDemand => 1,
    }
}

fn freq_of(c: u8) -> Option<InjectionFrequency> {
    match c {
        0 => Some(InjectionFrequency::PerSession),
        1 => Some(InjectionFrequency::OnDemand),
        _ => None,
    }
}

fn query_code(q: Query) -> u8 {
    match q {
        Query::Exists => 0,
        Query::IsFile => 1,
    }
}

fn query_of(c: u8) -> Option<Query> {
    match c {
        0 => Some(Query::Exists),
        1 => Some(Query::IsFile),
        _ => None,
    }
}

fn enc_parsed(e: &mut Enc, p: &Parsed) {
    // Destructured in full: a field added to the parse must be added here too.
    let Parsed {
        lines: _,
        frontmatter,
        refs,
        idents,
        headings,
        anchors,
        blocks,
        tasks,
        prose: _,
    } = p;
    let Frontmatter { pairs, len } = frontmatter;
    e.len(pairs.len());
    for (k, v, l) in pairs {
        e.str(k);
        e.str(v);
        e.u32(*l);
    }
    e.u64(*len as u64);
    e.len(refs.len());
    for r in refs {
        let Ref {
            line,
            dest,
            via,
            literal,
        } = r;
        e.u32(*line);
        e.str(dest);
        e.u8(via_code(*via));
        e.u8(u8::from(*literal));
    }
    e.len(idents.len());
    for i in idents {
        let CodeIdent { line, text, strong } = i;
        e.u32(*line);
        e.str(text);
        e.u8(u8::from(*strong));
    }
    e.len(headings.len());
    for h in headings {
        let Heading { level, line } = h;
        e.u8(*level);
        e.u32(*line);
    }
    e.len(anchors.len());
    for a in anchors {
        e.str(a);
    }
    e.len(blocks.len());
    for b in blocks {
        let Block {
            start_line,
            end_line,
            hash,
            len,
        } = b;
        e.u32(*start_line);
        e.u32(*end_line);
        e.u64(*hash);
        e.u32(*len);
    }
    e.u32(tasks.0);
    e.u32(tasks.1);
}

fn dec_parsed(d: &mut Dec<'_>) -> Option<Parsed> {
    let mut p = Parsed::default();
    let n = d.count(12)?;
    let mut pairs = Vec::with_capacity(n);
    for _ in 0..n {
        pairs.push((d.string()?, d.string()?, d.u32()?));
    }
    p.frontmatter = Frontmatter {
        pairs,
        len: usize::try_from(d.u64()?).ok()?,
    };
    let n = d.count(10)?;
    p.refs.reserve_exact(n);
    for _ in 0..n {
        p.refs.push(Ref {
            line: d.u32()?,
            dest: d.string()?,
            via: via_of(d.u8()?)?,
            literal: d.bool()?,
        });
    }
    let n = d.count(9)?;
    p.idents.reserve_exact(n);
    for _ in 0..n {
        p.idents.push(CodeIdent {
            line: d.u32()?,
            text: d.string()?,
            strong: d.bool()?,
        });
    }
    let n = d.count(5)?;
    p.headings.reserve_exact(n);
    for _ in 0..n {
        p.headings.push(Heading {
            level: d.u8()?,
            line: d.u32()?,
        });
    }
    let n = d.count(4)?;
    p.anchors.reserve_exact(n);
    for _ in 0..n {
        p.anchors.push(d.string()?);
    }
    let n = d.count(20)?;
    p.blocks.reserve_exact(n);
    for _ in 0..n {
        p.blocks.push(Block {
            start_line: d.u32()?,
            end_line: d.u32()?,
            hash: d.u64()?,
            len: d.u32()?,
        });
    }
    p.tasks = (d.u32()?, d.u32()?);
    Some(p)
}

fn enc_stamp(e: &mut Enc, s: &Option<Stamp>) {
    match s {
        None => e.u8(0),
        Some(s) => {
            e.u8(1);
            e.u64(s.dev);
            e.u64(s.ino);
            e.u64(s.size);
            e.i64(s.mtime.0);
            e.i64(s.mtime.1);
            e.i64(s.ctime.0);
            e.i64(s.ctime.1);
        }
    }
}

fn dec_stamp(d: &mut Dec<'_>) -> Option<Option<Stamp>> {
    match d.u8()? {
        0 => Some(None),
        1 => Some(Some(Stamp {
            dev: d.u64()?,
            ino: d.u64()?,
            size: d.u64()?,
            mtime: (d.i64()?, d.i64()?),
            ctime: (d.i64()?, d.i64()?),
        })),
        _ => None,
    }
}

/// Encodes an entry (the body stored under its path).
pub fn encode_entry(meta: &Meta, freq: InjectionFrequency, role: Role, parsed: &Parsed) -> Vec<u8> {
    let mut e = Enc::default();
    encode_entry_into(&mut e, meta, freq, role, parsed);
    e.0
}

fn encode_entry_into(
    e: &mut Enc,
    meta: &Meta,
    freq: InjectionFrequency,
    role: Role,
    parsed: &Parsed,
) {
    enc_stamp(e, &meta.stamp);
    e.0.extend_from_slice(&meta.digest);
    e.u8(freq_code(freq));
    e.str(role.name());
    enc_parsed(e, parsed);
    e.len(meta.findings.len());
    for f in &meta.findings {
        // Findings are rare: JSON, the contract's own encoding, keeps them exact.
        e.str(&serde_json::to_string(&f.signal).unwrap_or_default());
        match &f.suggestion {
            Some(s) => {
                e.u8(1);
                e.str(&serde_json::to_string(s).unwrap_or_default());
            }
            None => e.u8(0),
        }
    }
    e.len(meta.asked.len());
    for (q, p, a) in &meta.asked {
        e.u8(query_code(*q));
        e.str(p);
        e.u8(u8::from(*a));
    }
    e.opt_u64(meta.tokens);
    match &meta.facts {
        None => e.u8(0),
        Some(f) => {
            e.u8(1);
            e.len(f.len());
            for x in f {
                match x {
                    None => e.u8(0),
                    Some(h) => {
                        e.u8(1);
                        e.0.extend_from_slice(h);
                    }
                }
            }
        }
    }
}

/// Decodes an entry; `None` when the bytes are damaged.
pub fn decode_entry(b: &[u8]) -> Option<Entry> {
    let mut d = Dec::new(b);
    let stamp = dec_stamp(&mut d)?;
    let digest: [u8; 32] = d.take(32)?.try_into().ok()?;
    let freq = freq_of(d.u8()?)?;
    let role = Role::from_name(d.str()?)?;
    let parsed = dec_parsed(&mut d)?;
    let n = d.count(5)?;
    let mut findings = Vec::with_capacity(n);
    for _ in 0..n {
        let signal: Signal = serde_json::from_str(d.str()?).ok()?;
        let suggestion: Option<Suggestion> = match d.u8()? {
            0 => None,
            1 => Some(serde_json::from_str(d.str()?).ok()?),
            _ => return None,
        };
        findings.push(Finding { signal, suggestion });
    }
    let n = d.count(6)?;
    let mut asked = Vec::with_capacity(n);
    for _ in 0..n {
        asked.push((query_of(d.u8()?)?, d.string()?, d.bool()?));
    }
    let tokens = d.opt_u64()?;
    let facts = match d.u8()? {
        0 => None,
        1 => {
            let n = d.count(1)?;
            let mut f = Vec::with_capacity(n);
            for _ in 0..n {
                f.push(match d.u8()? {
                    0 => None,
                    1 => Some(d.take(32)?.try_into().ok()?),
                    _ => return None,
                });
            }
            Some(f)
        }
        _ => return None,
    };
    d.done().then_some(Entry {
        meta: Meta {
            stamp,
            digest,
            findings,
            asked,
            tokens,
            facts,
        },
        freq,
        role,
        parsed,
    })
}

// ---- files ------------------------------------------------------------------------------

/// The identity of the `.hygiene/cache` folder a file was written into: a cache file is read
/// only from the folder it was written into, so one committed to a repository, copied or
/// cloned is never trusted.
fn folder_id(root: &Path) -> Option<(u64, u64)> {
    let dir = crate::state::path(root, "cache", false).ok()?;
    let meta = std::fs::symlink_metadata(dir).ok()?;
    if !meta.is_dir() {
        return None;
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        Some((meta.dev(), meta.ino()))
    }
    #[cfg(not(unix))]
    {
        None
    }
}

/// A cache file's bytes and where its body lies in them.
struct Body {
    bytes: Vec<u8>,
    start: usize,
    end: usize,
}

impl Body {
    fn get(&self) -> &[u8] {
        &self.bytes[self.start..self.end]
    }
}

/// Reads `.hygiene/<rel>` and returns its body when the header matches `context` and the
/// folder it is in, and the trailer's length and checksum hold.
fn read_body(root: &Path, rel: &str, context: &Context) -> Option<Body> {
    let (dev, ino) = folder_id(root)?;
    let path = crate::state::path(root, rel, false).ok()?;
    let meta = std::fs::symlink_metadata(&path).ok()?;
    if !meta.is_file() || meta.len() > 1 << 32 {
        return None;
    }
    let bytes = std::fs::read(&path).ok()?;
    let mut d = Dec::new(&bytes);
    if d.take(8)? != MAGIC
        || d.u32()? != FORMAT
        || d.str()? != context.0
        || d.u64()? != dev
        || d.u64()? != ino
    {
        return None;
    }
    let start = d.at;
    let end = bytes.len().checked_sub(16).filter(|&e| e >= start)?;
    let mut t = Dec::new(&bytes[end..]);
    let (len, sum) = (t.u64()?, t.u64()?);
    let body = &bytes[start..end];
    (len == body.len() as u64 && checksum(body) == sum).then_some(Body { bytes, start, end })
}

/// Where a cache body is written: the file, with the running length and checksum.
struct Sink<'a> {
    w: &'a mut dyn std::io::Write,
    sum: Sum,
}

impl Sink<'_> {
    fn put(&mut self, b: &[u8]) -> std::io::Result<()> {
        self.sum.update(b);
        self.w.write_all(b)
    }
}

/// Writes `.hygiene/<rel>`: its header, the body `fill` writes, and a trailer with the body's
/// length and checksum. Failures are ignored: a cache that cannot be written is a slower next
/// scan, nothing else.
fn write_with(
    root: &Path,
    rel: &str,
    context: &Context,
    mut fill: impl FnMut(&mut Sink<'_>) -> std::io::Result<()>,
) {
    // The folder first (with `.hygiene/.gitignore` when `.hygiene/` is new), so its identity
    // can be written into the file.
    if crate::state::subdir(root, "cache", true).is_err() {
        return;
    }
    let ignore = "cache/.gitignore";
    if crate::state::path(root, ignore, false).is_ok_and(|p| !p.exists()) {
        let _ = crate::state::write(root, ignore, b"*\n");
    }
    let Some((dev, ino)) = folder_id(root) else {
        return;
    };
    let mut head = Enc::default();
    head.0.extend_from_slice(MAGIC);
    head.u32(FORMAT);
    head.str(&context.0);
    head.u64(dev);
    head.u64(ino);
    let _ = crate::state::write_scratch(root, rel, &mut |w| {
        w.write_all(&head.0)?;
        let mut sink = Sink {
            w,
            sum: Sum::default(),
        };
        fill(&mut sink)?;
        let len = sink.sum.len;
        let sum = std::mem::take(&mut sink.sum).finish();
        let mut t = Enc::default();
        t.u64(len);
        t.u64(sum);
        w.write_all(&t.0)
    });
}

fn write_body(root: &Path, rel: &str, context: &Context, body: &[u8]) {
    write_with(root, rel, context, |s| s.put(body));
}

/// The documents' cache as read: each path's entry, still encoded (entries are decoded on
/// demand, on all cores).
#[derive(Default)]
pub struct Docs {
    body: Option<Body>,
    index: HashMap<String, (usize, usize)>,
}

impl Docs {
    /// Reads the documents' cache of `root` (empty when absent, damaged or written under
    /// another context).
    pub fn load(root: &Path, context: &Context) -> Docs {
        let Some(body) = read_body(root, DOCS_FILE, context) else {
            return Docs::default();
        };
        let mut index = HashMap::new();
        let mut d = Dec::new(body.get());
        let ok = (|| {
            let n = d.count(8)?;
            index.reserve(n);
            for _ in 0..n {
                let path = d.string()?;
                let len = d.u32()? as usize;
                let start = d.at;
                d.take(len)?;
                index.insert(path, (start, len));
            }
            d.done().then_some(())
        })();
        match ok {
            Some(()) => Docs {
                body: Some(body),
                index,
            },
            None => Docs::default(),
        }
    }

    /// How many entries it holds.
    pub fn len(&self) -> usize {
        self.index.len()
    }

    /// Whether it holds nothing.
    pub fn is_empty(&self) -> bool {
        self.index.is_empty()
    }

    /// The entry of `path`, decoded.
    pub fn get(&self, path: &str) -> Option<Entry> {
        let &(start, len) = self.index.get(path)?;
        decode_entry(self.body.as_ref()?.get().get(start..start + len)?)
    }
}

/// One document's entry to write.
pub struct Source<'a> {
    /// Everything but the parse.
    pub meta: &'a Meta,
    /// Its load class.
    pub freq: InjectionFrequency,
    /// Its role.
    pub role: Role,
    /// Its parse.
    pub parsed: &'a Parsed,
}

/// Writes the documents' cache: an entry for every document, encoded one at a time straight
/// into the file.
pub fn save_docs<'a>(
    root: &Path,
    context: &Context,
    entries: impl ExactSizeIterator<Item = (&'a str, Source<'a>)> + Clone,
) {
    write_with(root, DOCS_FILE, context, |sink| {
        let mut e = Enc::default();
        e.len(entries.len());
        sink.put(&e.0)?;
        let mut body = Enc::default();
        for (path, src) in entries.clone() {
            body.0.clear();
            encode_entry_into(&mut body, src.meta, src.freq, src.role, src.parsed);
            e.0.clear();
            e.str(path);
            e.len(body.0.len());
            sink.put(&e.0)?;
            sink.put(&body.0)?;
        }
        Ok(())
    });
}

// ---- source symbols -----------------------------------------------------------------------

/// The source file's cache, under `.hygiene/`.
pub const SOURCE_FILE: &str = "cache/source.bin";

type SourceCache = (Vec<String>, HashMap<String, (Stamp, Vec<u32>)>);

fn dec_source(b: &[u8]) -> Option<SourceCache> {
    let mut d = Dec::new(b);
    let n = d.count(4)?;
    let mut names = Vec::with_capacity(n);
    for _ in 0..n {
        names.push(d.string()?);
    }
    let n = d.count(8)?;
    let mut files = HashMap::with_capacity(n);
    for _ in 0..n {
        let path = d.string()?;
        let stamp = dec_stamp(&mut d)??;
        let m = d.count(4)?;
        let mut found = Vec::with_capacity(m);
        for _ in 0..m {
            let i = d.u32()?;
            ((i as usize) < names.len()).then_some(())?;
            found.push(i);
        }
        files.insert(path, (stamp, found));
    }
    d.done().then_some((names, files))
}

/// Which of `wanted` occur as identifier tokens in the root-relative source `files`
/// ([`crate::scan::detectors::missing_symbol::find_in_source`]), reading only the files that
/// changed since the cache was written, when the cache searched for every wanted name.
pub fn symbols(
    root: &Path,
    context: &Context,
    files: &[String],
    wanted: &std::collections::HashSet<String>,
    use_cache: bool,
    now_secs: i64,
) -> std::collections::HashSet<String> {
    use crate::scan::detectors::missing_symbol::{find_in_file, find_in_source};
    if !use_cache {
        return find_in_source(root, files, wanted);
    }
    let prior = read_body(root, SOURCE_FILE, context)
        .and_then(|b| dec_source(b.get()))
        .filter(|(names, _)| {
            let have: std::collections::HashSet<&str> = names.iter().map(String::as_str).collect();
            wanted.iter().all(|w| have.contains(w.as_str()))
        });
    // The names searched for: the cache's when they cover what is wanted now, else these.
    let (names, prior_files) = match prior {
        Some((names, files)) => (names, Some(files)),
        None => {
            let mut n: Vec<String> = wanted.iter().cloned().collect();
            n.sort();
            (n, None)
        }
    };
    let searched: std::collections::HashSet<String> = names.iter().cloned().collect();
    let number: HashMap<&str, u32> = names
        .iter()
        .enumerate()
        .map(|(i, n)| (n.as_str(), i as u32))
        .collect();
    // Per file: (stamp now, names found, whether it was read).
    let per_file = crate::scan::walk::par_map(files, |rel| {
        let stamp = crate::paths::resolve_inside(root, rel, false)
            .ok()
            .and_then(|p| std::fs::metadata(p).ok())
            .and_then(|m| stamp(&m, now_secs));
        if let (Some(st), Some(pf)) = (stamp, prior_files.as_ref()) {
            if let Some((old, found)) = pf.get(rel.as_str()) {
                if *old == st {
                    return (stamp, found.clone(), false);
                }
            }
        }
        let mut found: Vec<u32> = find_in_file(root, rel, &searched)
            .iter()
            .filter_map(|n| number.get(n.as_str()).copied())
            .collect();
        found.sort_unstable();
        found.dedup();
        (stamp, found, true)
    });
    let mut out = std::collections::HashSet::new();
    for (_, found, _) in &per_file {
        for &i in found {
            let n = &names[i as usize];
            if wanted.contains(n) {
                out.insert(n.clone());
            }
        }
    }
    let changed = prior_files
        .as_ref()
        .is_none_or(|pf| pf.len() != files.len() || per_file.iter().any(|(_, _, read)| *read));
    if changed {
        let mut e = Enc::default();
        e.len(names.len());
        for n in &names {
            e.str(n);
        }
        let stamped = files
            .iter()
            .zip(&per_file)
            .filter_map(|(path, (st, found, _))| st.map(|st| (path, st, found)));
        e.len(stamped.clone().count());
        for (path, st, found) in stamped {
            e.str(path);
            enc_stamp(&mut e, &Some(st));
            e.len(found.len());
            for i in found {
                e.u32(*i);
            }
        }
        write_body(root, SOURCE_FILE, context, &e.0);
    }
    out
}

// ---- history ----------------------------------------------------------------------------

fn enc_history(head: &str, prefix: &str, h: &History) -> Vec<u8> {
    let mut e = Enc::default();
    e.str(head);
    e.str(prefix);
    e.len(h.commits.len());
    for c in &h.commits {
        e.str(&c.id);
        e.i64(c.time);
    }
    // Paths once, then events and touches by path number.
    let mut paths: Vec<&str> = h
        .last_event
        .keys()
        .chain(h.touches.keys())
        .map(String::as_str)
        .collect();
    paths.sort_unstable();
    paths.dedup();
    let num: HashMap<&str, u32> = paths
        .iter()
        .enumerate()
        .map(|(i, p)| (*p, i as u32))
        .collect();
    e.len(paths.len());
    for p in &paths {
        e.str(p);
    }
    e.len(h.last_event.len());
    for (p, ev) in &h.last_event {
        e.u32(num[p.as_str()]);
        match ev {
            LastEvent::RenamedTo(to, ci) => {
                e.u8(0);
                e.u32(*ci as u32);
                e.str(to);
            }
            LastEvent::Deleted(ci) => {
                e.u8(1);
                e.u32(*ci as u32);
            }
            LastEvent::Changed(ci) => {
                e.u8(2);
                e.u32(*ci as u32);
            }
        }
    }
    e.len(h.touches.len());
    for (p, v) in &h.touches {
        e.u32(num[p.as_str()]);
        e.len(v.len());
        for ci in v {
            e.u32(*ci as u32);
        }
    }
    e.0
}

fn dec_history(b: &[u8]) -> Option<(String, String, History)> {
    let mut d = Dec::new(b);
    let head = d.string()?;
    let prefix = d.string()?;
    let mut h = History::default();
    let n = d.count(12)?;
    h.commits.reserve_exact(n);
    for _ in 0..n {
        h.commits.push(Commit {
            id: d.string()?,
            time: d.i64()?,
        });
    }
    let commits = h.commits.len();
    let ci = |d: &mut Dec<'_>| -> Option<usize> {
        let c = d.u32()? as usize;
        (c < commits).then_some(c)
    };
    let n = d.count(4)?;
    let mut paths: Vec<&str> = Vec::with_capacity(n);
    for _ in 0..n {
        paths.push(d.str()?);
    }
    let path =
        |d: &mut Dec<'_>| -> Option<String> { paths.get(d.u32()? as usize).map(|p| p.to_string()) };
    let n = d.count(9)?;
    h.last_event.reserve(n);
    for _ in 0..n {
        let p = path(&mut d)?;
        let ev = match d.u8()? {
            0 => {
                let c = ci(&mut d)?;
                LastEvent::RenamedTo(d.string()?, c)
            }
            1 => LastEvent::Deleted(ci(&mut d)?),
            2 => LastEvent::Changed(ci(&mut d)?),
            _ => return None,
        };
        h.last_event.insert(p, ev);
    }
    let n = d.count(8)?;
    h.touches.reserve(n);
    for _ in 0..n {
        let p = path(&mut d)?;
        let m = d.count(4)?;
        let mut v = Vec::with_capacity(m);
        for _ in 0..m {
            v.push(ci(&mut d)?);
        }
        h.touches.insert(p, v);
    }
    d.done().then_some((head, prefix, h))
}

/// `newer` (the walk of the commits on top of `older`'s head, newest first) put in front of
/// `older`: what one walk of the whole history yields when `git log` prints `newer` first and
/// then `older` (a chain of plain commits on top of the old head).
pub fn prepend(newer: History, older: History) -> History {
    let k = newer.commits.len();
    let mut h = newer;
    h.commits.extend(older.commits);
    for (p, ev) in older.last_event {
        let shifted = match ev {
            LastEvent::RenamedTo(to, ci) => LastEvent::RenamedTo(to, ci + k),
            LastEvent::Deleted(ci) => LastEvent::Deleted(ci + k),
            LastEvent::Changed(ci) => LastEvent::Changed(ci + k),
        };
        h.last_event.entry(p).or_insert(shifted);
    }
    for (p, v) in older.touches {
        h.touches
            .entry(p)
            .or_default()
            .extend(v.into_iter().map(|ci| ci + k));
    }
    h
}

/// The history of `repo`, from the cache when it was walked from the same `HEAD` (or from an
/// ancestor that only plain commits separate from it: then just those are walked), else one
/// full walk, which is cached when it is complete. With `use_cache` false, one full walk.
pub fn history(
    repo: &crate::git::Repo,
    root: &Path,
    context: &Context,
    use_cache: bool,
) -> History {
    if !use_cache {
        return repo.history();
    }
    let Some(head) = repo.head() else {
        return repo.history();
    };
    if repo.is_shallow() {
        return repo.history();
    }
    let cached = read_body(root, HISTORY_FILE, context)
        .and_then(|b| dec_history(b.get()))
        .filter(|(_, prefix, _)| prefix == repo.prefix());
    let h = match cached {
        Some((old, _, h)) if old == head => return h,
        Some((old, _, older)) if repo.is_plain_chain(&old, &head) => {
            match History::load_range(repo, &format!("{old}..{head}")) {
                Some(newer) if newer.warnings.is_empty() => prepend(newer, older),
                _ => repo.history(),
            }
        }
        _ => repo.history(),
    };
    if h.warnings.is_empty() {
        write_body(
            root,
            HISTORY_FILE,
            context,
            &enc_history(&head, repo.prefix(), &h),
        );
    }
    h
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry() -> Entry {
        let parsed = crate::scan::markdown::parse(
            "---\nstatus: done\n---\n# T\n\nSee [a](a.md#x) and `src/x.rs` and `run_it()`.\n\n- [x] one\n\nA paragraph long enough to be a duplicate candidate, more than eighty bytes of text.\n",
        );
        Entry {
            meta: Meta {
                stamp: None,
                digest: [7; 32],
                findings: vec![Finding {
                    signal: Signal::StatusDone {
                        line: 2,
                        text: "done".into(),
                    },
                    suggestion: None,
                }],
                asked: vec![(Query::Exists, "a.md".into(), true)],
                tokens: Some(12),
                facts: Some(vec![None, Some([3; 32])]),
            },
            freq: InjectionFrequency::OnDemand,
            role: Role::Shipped,
            parsed: Parsed {
                prose: String::new(),
                lines: Default::default(),
                ..parsed
            },
        }
    }

    fn encode(e: &Entry) -> Vec<u8> {
        encode_entry(&e.meta, e.freq, e.role, &e.parsed)
    }

    #[test]
    fn entries_round_trip() {
        let e = entry();
        assert!(
            !e.parsed.refs.is_empty() && !e.parsed.blocks.is_empty() && !e.parsed.idents.is_empty()
        );
        let b = encode(&e);
        let d = decode_entry(&b).expect("decodes");
        assert_eq!(d.parsed.refs, e.parsed.refs);
        assert_eq!(d.parsed.idents, e.parsed.idents);
        assert_eq!(d.parsed.blocks, e.parsed.blocks);
        assert_eq!(d.parsed.anchors, e.parsed.anchors);
        assert_eq!(d.parsed.headings, e.parsed.headings);
        assert_eq!(d.parsed.frontmatter, e.parsed.frontmatter);
        assert_eq!(d.parsed.tasks, e.parsed.tasks);
        assert_eq!(d.meta.findings, e.meta.findings);
        assert_eq!(d.meta.asked, e.meta.asked);
        assert_eq!(d.meta.facts, e.meta.facts);
        assert_eq!(
            (d.meta.tokens, d.role, d.freq),
            (Some(12), Role::Shipped, InjectionFrequency::OnDemand)
        );
        // Re-encoding is byte-identical.
        assert_eq!(encode(&d), b);
    }

    #[test]
    fn damage_is_none_never_a_panic() {
        let b = encode(&entry());
        for cut in 0..b.len() {
            assert!(decode_entry(&b[..cut]).is_none(), "cut at {cut}");
        }
        let mut x = b.clone();
        x.push(0);
        assert!(decode_entry(&x).is_none(), "trailing bytes");
        // Every single-byte change either decodes to something or to nothing; none panics.
        for i in 0..b.len() {
            let mut y = b.clone();
            y[i] ^= 0xff;
            let _ = decode_entry(&y);
        }
    }

    #[test]
    fn history_round_trips_and_prepends_like_one_walk() {
        let c = |id: &str, time| Commit {
            id: id.into(),
            time,
        };
        let mut older = History {
            commits: vec![c("b", 2), c("a", 1)],
            ..History::default()
        };
        older
            .last_event
            .insert("x.md".into(), LastEvent::RenamedTo("y.md".into(), 0));
        older
            .last_event
            .insert("y.md".into(), LastEvent::Changed(0));
        older.touches.insert("y.md".into(), vec![0, 1]);
        let mut newer = History {
            commits: vec![c("c", 3)],
            ..History::default()
        };
        newer
            .last_event
            .insert("y.md".into(), LastEvent::Deleted(0));
        let enc = enc_history("b", "", &older);
        let (head, prefix, back) = dec_history(&enc).expect("decodes");
        assert_eq!((head.as_str(), prefix.as_str()), ("b", ""));
        assert_eq!(back.commits, older.commits);
        assert_eq!(back.last_event, older.last_event);
        assert_eq!(back.touches, older.touches);
        let h = prepend(newer, back);
        assert_eq!(
            h.commits.iter().map(|c| c.id.as_str()).collect::<Vec<_>>(),
            ["c", "b", "a"]
        );
        assert_eq!(h.last_event["y.md"], LastEvent::Deleted(0));
        assert_eq!(h.last_event["x.md"], LastEvent::RenamedTo("y.md".into(), 1));
        assert_eq!(h.touches["y.md"], vec![1, 2]);
        for cut in 0..enc.len() {
            assert!(dec_history(&enc[..cut]).is_none());
        }
    }
}
