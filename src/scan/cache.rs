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
//!   it that is walked and put in front (which is what `git log` itself would print);
//! - a drift's evidence: the document's bytes, the commit and the described files' stamps
//!   ([`evidence`]).
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

pub mod evidence;
pub mod git;

/// The cache format; bumped whenever what is cached, or how, changes.
pub const FORMAT: u32 = 11;

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

/// The context the documents' entries are kept under: the binary's, the role decider's and the
/// documentation sites' (a document's findings read routes of its site).
pub fn docs_context(roles: &crate::roles::Roles, sites: &crate::scan::sites::Sites) -> Context {
    Context::new(&format!("{roles:?}\nsites {}", sites.fingerprint()))
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
        Query::HasFile => 2,
        Query::HasDir => 3,
        Query::Ignored => 4,
        Query::Unnumbered => 5,
    }
}

fn query_of(c: u8) -> Option<Query> {
    match c {
        0 => Some(Query::Exists),
        1 => Some(Query::IsFile),
        2 => Some(Query::HasFile),
        3 => Some(Query::HasDir),
        4 => Some(Query::Ignored),
        5 => Some(Query::Unnumbered),
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
        includes_content,
        embeds,
        titled,
        code_tokens,
        own_status,
        managed,
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
            linked,
        } = r;
        e.u32(*line);
        e.str(dest);
        e.u8(via_code(*via));
        e.u8(u8::from(*literal));
        e.str(linked.as_deref().unwrap_or(""));
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
    e.u8(u8::from(*includes_content));
    e.len(embeds.len());
    for x in embeds {
        e.str(x);
    }
    e.len(titled.len());
    for x in titled {
        e.str(x);
    }
    // Sorted, so equal parses encode to equal bytes.
    let mut tokens: Vec<&String> = code_tokens.iter().collect();
    tokens.sort();
    e.len(tokens.len());
    for t in tokens {
        e.str(t);
    }
    e.str(own_status);
    e.len(managed.len());
    for (a, b) in managed {
        e.u32(*a);
        e.u32(*b);
    }
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
    let n = d.count(14)?;
    p.refs.reserve_exact(n);
    for _ in 0..n {
        p.refs.push(Ref {
            line: d.u32()?,
            dest: d.string()?,
            via: via_of(d.u8()?)?,
            literal: d.bool()?,
            linked: Some(d.string()?)
                .filter(|u| !u.is_empty())
                .map(String::into_boxed_str),
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
    p.includes_content = d.bool()?;
    let n = d.count(4)?;
    p.embeds.reserve_exact(n);
    for _ in 0..n {
        p.embeds.push(d.string()?);
    }
    let n = d.count(4)?;
    p.titled.reserve_exact(n);
    for _ in 0..n {
        p.titled.push(d.string()?);
    }
    let n = d.count(4)?;
    p.code_tokens.reserve(n);
    for _ in 0..n {
        p.code_tokens.insert(d.string()?);
    }
    p.own_status = d.string()?;
    let n = d.count(8)?;
    p.managed.reserve_exact(n);
    for _ in 0..n {
        p.managed.push((d.u32()?, d.u32()?));
    }
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
        e.u8(u8::from(f.unrendered));
    }
    e.len(meta.asked.len());
    for (q, p, a) in &meta.asked {
        e.u8(query_code(*q));
        e.str(p);
        e.u8(u8::from(*a));
    }
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
        let unrendered = d.bool()?;
        findings.push(Finding {
            signal,
            suggestion,
            unrendered,
        });
    }
    let n = d.count(6)?;
    let mut asked = Vec::with_capacity(n);
    for _ in 0..n {
        asked.push((query_of(d.u8()?)?, d.string()?, d.bool()?));
    }
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
#[derive(Debug)]
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

// ---- token counts -----------------------------------------------------------------------

/// The token counts' file, under `.hygiene/`.
pub const TOKENS_FILE: &str = "cache/tokens.bin";

/// Token counts of whole files by the SHA-256 of their bytes: a count depends on the content
/// alone, so it is found again whatever the file is called and wherever it moved.
#[derive(Debug, Default)]
pub struct Tokens {
    known: HashMap<[u8; 32], u64>,
    /// Whether counts were added since it was read.
    added: bool,
}

impl Tokens {
    /// Reads the counts of `root` (none when absent, damaged or written under another context).
    pub fn load(root: &Path, context: &Context) -> Tokens {
        let known = read_body(root, TOKENS_FILE, context)
            .and_then(|b| {
                let mut d = Dec::new(b.get());
                let n = d.count(40)?;
                let mut m = HashMap::with_capacity(n);
                for _ in 0..n {
                    let k: [u8; 32] = d.take(32)?.try_into().ok()?;
                    m.insert(k, d.u64()?);
                }
                d.done().then_some(m)
            })
            .unwrap_or_default();
        Tokens {
            known,
            added: false,
        }
    }

    /// The count of a file whose bytes hash to `digest`, if known.
    pub fn get(&self, digest: &[u8; 32]) -> Option<u64> {
        self.known.get(digest).copied()
    }

    /// Adds a count.
    pub fn add(&mut self, digest: [u8; 32], n: u64) {
        if self.known.insert(digest, n) != Some(n) {
            self.added = true;
        }
    }

    /// Writes the counts of the files whose digests are in `keep`, when counts were added or
    /// some are no longer needed.
    pub fn save(
        mut self,
        root: &Path,
        context: &Context,
        keep: &std::collections::HashSet<[u8; 32]>,
    ) {
        let before = self.known.len();
        self.known.retain(|k, _| keep.contains(k));
        if !self.added && self.known.len() == before {
            return;
        }
        let mut all: Vec<(&[u8; 32], &u64)> = self.known.iter().collect();
        all.sort_unstable();
        let mut e = Enc::default();
        e.len(all.len());
        for (k, n) in all {
            e.0.extend_from_slice(k);
            e.u64(*n);
        }
        write_body(root, TOKENS_FILE, context, &e.0);
    }
}

// ---- source symbols -----------------------------------------------------------------------

/// The source files' cache, under `.hygiene/`.
pub const SOURCE_FILE: &str = "cache/source.bin";

/// The other tracked files' cache (for names the source does not hold), under `.hygiene/`.
pub const TEXT_FILE: &str = "cache/text.bin";

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

/// Where each of `wanted` occurs as an identifier token in the root-relative `files`, read as
/// `how` says: per name found, the indices into `files` of the files that hold it
/// ([`crate::scan::detectors::missing_symbol::find_as`]). With `use_cache`, `cache_file` keeps
/// per file its stamp and the names it holds, and only files that changed since it was written
/// are read, when it searched for every wanted name.
#[allow(clippy::too_many_arguments)]
pub fn occurrences(
    tree: &crate::scan::refs::Tree,
    context: &Context,
    cache_file: &str,
    files: &[String],
    wanted: &std::collections::HashSet<String>,
    how: crate::scan::detectors::missing_symbol::Search,
    use_cache: bool,
    now_secs: i64,
) -> HashMap<String, Vec<usize>> {
    use crate::scan::detectors::missing_symbol::{readable_at, scan_tokens, Search, TextMatcher};
    let root = tree.root.as_path();
    let prior = use_cache
        .then(|| read_body(root, cache_file, context))
        .flatten()
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
    let matcher = (how == Search::Text)
        .then(|| TextMatcher::new(&searched))
        .flatten();
    let number: HashMap<&str, u32> = names
        .iter()
        .enumerate()
        .map(|(i, n)| (n.as_str(), i as u32))
        .collect();
    // Per file: (stamp now, names found, whether it was read).
    let per_file = crate::scan::walk::par_map(files, |rel| {
        let path = tree.read_path(rel);
        let stamp = use_cache
            .then_some(path.as_ref())
            .flatten()
            .and_then(|p| std::fs::metadata(p).ok())
            .and_then(|m| stamp(&m, now_secs));
        if let (Some(st), Some(pf)) = (stamp, prior_files.as_ref()) {
            if let Some((old, found)) = pf.get(rel.as_str()) {
                if *old == st {
                    return (stamp, found.clone(), false);
                }
            }
        }
        let bytes = path.and_then(|p| readable_at(&p, rel, how));
        let names_in = match (&matcher, bytes) {
            (Some(m), Some(b)) => m.find(&b),
            (None, Some(b)) => scan_tokens(&b, &searched),
            (_, None) => Vec::new(),
        };
        let mut found: Vec<u32> = names_in
            .iter()
            .filter_map(|n| number.get(n.as_str()).copied())
            .collect();
        found.sort_unstable();
        found.dedup();
        (stamp, found, true)
    });
    let mut out: HashMap<String, Vec<usize>> = HashMap::new();
    for (fi, (_, found, _)) in per_file.iter().enumerate() {
        for &i in found {
            let n = &names[i as usize];
            if wanted.contains(n) {
                out.entry(n.clone()).or_default().push(fi);
            }
        }
    }
    let changed = prior_files
        .as_ref()
        .is_none_or(|pf| pf.len() != files.len() || per_file.iter().any(|(_, _, read)| *read));
    if use_cache && changed {
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
        write_body(root, cache_file, context, &e.0);
    }
    out
}

// ---- history ----------------------------------------------------------------------------

/// Encodes a history: its commits, then every path it knows, sorted, each with its newest event
/// and its touches, behind a table of where each path's record starts (so a lookup is a binary
/// search, and nothing is decoded that no question asks for).
fn enc_history(head: &str, prefix: &str, h: &History) -> Vec<u8> {
    let mut e = Enc::default();
    e.str(head);
    e.str(prefix);
    e.len(h.commits.len());
    for c in &h.commits {
        e.str(&c.id);
        e.i64(c.time);
    }
    let paths = h.paths();
    let mut records = Enc::default();
    let mut index: Vec<u32> = Vec::with_capacity(paths.len());
    for p in &paths {
        index.push(records.0.len() as u32);
        records.str(p);
        match h.event(p) {
            None => records.u8(0),
            Some(LastEvent::RenamedTo(to, ci, score)) => {
                records.u8(1);
                records.u32(ci as u32);
                records.u8(score);
                records.str(&to);
            }
            Some(LastEvent::Deleted(ci)) => {
                records.u8(2);
                records.u32(ci as u32);
            }
            Some(LastEvent::Changed(ci)) => {
                records.u8(3);
                records.u32(ci as u32);
            }
        }
        let touches = h.touches(p);
        let touches: &[usize] = touches.as_deref().unwrap_or(&[]);
        records.len(touches.len());
        for ci in touches {
            records.u32(*ci as u32);
        }
    }
    e.len(paths.len());
    for i in index {
        e.u32(i);
    }
    e.0.extend_from_slice(&records.0);
    e.0
}

/// A history's per-path facts, left encoded in the cache file's bytes.
#[derive(Debug)]
struct Packed {
    body: Body,
    /// Where the record table and the records start, in `body.bytes`.
    index_at: usize,
    records_at: usize,
    paths: usize,
    /// Record number by the hash of its path ([`SHARED`] when two paths share the hash).
    by_hash: HashMap<u64, u32, std::hash::BuildHasherDefault<Prehashed>>,
}

/// The hasher of a map whose keys are hashes already.
#[derive(Debug, Default)]
struct Prehashed(u64);

impl std::hash::Hasher for Prehashed {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(*b);
        }
    }
    fn write_u64(&mut self, v: u64) {
        self.0 = v;
    }
}

/// In [`Packed::by_hash`]: more than one path has this hash (then the table is searched).
const SHARED: u32 = u32::MAX;

/// A fast hash of a path: a lookup key only (a path found under it is compared before it is
/// trusted, and paths sharing a hash are binary-searched), so it needs no resistance to
/// crafted names.
pub(crate) fn path_hash(path: &str) -> u64 {
    checksum(path.as_bytes())
}

/// One path's record: `(path, event, touches)`.
type Record<'a> = (&'a str, Option<LastEvent>, Vec<usize>);

impl Packed {
    fn offset(&self, i: usize) -> Option<usize> {
        let at = self.index_at + 4 * i;
        let b = self.body.bytes.get(at..at + 4)?;
        Some(self.records_at + u32::from_le_bytes(b.try_into().ok()?) as usize)
    }

    fn path_at(&self, at: usize) -> Option<&str> {
        Dec::new(self.body.bytes.get(at..self.body.end)?).str()
    }

    fn record(&self, at: usize, commits: usize) -> Option<(Record<'_>, usize)> {
        let mut d = Dec::new(self.body.bytes.get(at..self.body.end)?);
        let path = d.str()?;
        let ci = |d: &mut Dec<'_>| -> Option<usize> {
            let c = d.u32()? as usize;
            (c < commits).then_some(c)
        };
        let event = match d.u8()? {
            0 => None,
            1 => {
                let c = ci(&mut d)?;
                let score = d.u8()?;
                Some(LastEvent::RenamedTo(d.string()?, c, score))
            }
            2 => Some(LastEvent::Deleted(ci(&mut d)?)),
            3 => Some(LastEvent::Changed(ci(&mut d)?)),
            _ => return None,
        };
        let n = d.count(4)?;
        let mut touches = Vec::with_capacity(n);
        for _ in 0..n {
            touches.push(ci(&mut d)?);
        }
        Some(((path, event, touches), d.at))
    }

    /// The record of `path`: by its hash, or by binary search when the hash is shared.
    fn find(&self, path: &str) -> Option<Record<'_>> {
        match *self.by_hash.get(&path_hash(path))? {
            SHARED => self.search(path),
            i => {
                let at = self.offset(i as usize)?;
                (self.path_at(at)? == path)
                    .then(|| self.record(at, usize::MAX).map(|r| r.0))
                    .flatten()
            }
        }
    }

    /// The record of `path`, by binary search.
    fn search(&self, path: &str) -> Option<Record<'_>> {
        let (mut lo, mut hi) = (0, self.paths);
        while lo < hi {
            let mid = (lo + hi) / 2;
            let at = self.offset(mid)?;
            match self.path_at(at)?.cmp(path) {
                std::cmp::Ordering::Less => lo = mid + 1,
                std::cmp::Ordering::Greater => hi = mid,
                std::cmp::Ordering::Equal => return self.record(at, usize::MAX).map(|r| r.0),
            }
        }
        None
    }
}

impl crate::git::PackedFacts for Packed {
    fn event(&self, path: &str) -> Option<LastEvent> {
        self.find(path).and_then(|r| r.1)
    }

    fn touches(&self, path: &str) -> Option<Vec<usize>> {
        self.find(path).map(|r| r.2).filter(|t| !t.is_empty())
    }

    fn paths(&self) -> Vec<String> {
        (0..self.paths)
            .filter_map(|i| self.offset(i).and_then(|at| self.path_at(at)))
            .map(str::to_string)
            .collect()
    }
}

/// Reads an encoded history: its head, prefix and commits now, the per-path records left
/// packed. Every record is checked once here (it decodes, its commits exist, the paths are in
/// strict order and the table points at each), so a lookup later can only find or not find.
fn dec_history(body: Body) -> Option<(String, String, History)> {
    let (head, prefix, commits, packed) = dec_packed(body)?;
    Some((
        head,
        prefix,
        History::packed(commits, std::sync::Arc::new(packed)),
    ))
}

/// [`dec_history`]'s parts: head, prefix, commits and the packed records.
fn dec_packed(body: Body) -> Option<(String, String, Vec<Commit>, Packed)> {
    let bytes = body.get();
    let mut d = Dec::new(bytes);
    let head = d.string()?;
    let prefix = d.string()?;
    let n = d.count(12)?;
    let mut commits = Vec::with_capacity(n);
    for _ in 0..n {
        commits.push(Commit {
            id: d.string()?,
            time: d.i64()?,
        });
    }
    let paths = d.count(4)?;
    let index_at = body.start + d.at;
    d.take(4 * paths)?;
    let records_at = body.start + d.at;
    let mut packed = Packed {
        index_at,
        records_at,
        paths,
        body,
        by_hash: HashMap::default(),
    };
    let mut by_hash: HashMap<u64, u32, std::hash::BuildHasherDefault<Prehashed>> =
        HashMap::with_capacity_and_hasher(paths, Default::default());
    let mut at = records_at;
    let mut last: Option<&str> = None;
    for i in 0..paths {
        if packed.offset(i)? != at {
            return None;
        }
        let ((path, event, touches), used) = packed.record(at, commits.len())?;
        if last.is_some_and(|l| l >= path) || (event.is_none() && touches.is_empty()) {
            return None;
        }
        by_hash
            .entry(path_hash(path))
            .and_modify(|n| *n = SHARED)
            .or_insert(i as u32);
        last = Some(path);
        at += used;
    }
    if at != packed.body.end {
        return None;
    }
    packed.by_hash = by_hash;
    Some((head, prefix, commits, packed))
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
        .and_then(dec_history)
        .filter(|(_, prefix, _)| prefix == repo.prefix());
    let h = match cached {
        Some((old, _, h)) if old == head => return h,
        Some((old, _, older)) if repo.is_plain_chain(&old, &head) => {
            match History::load_range(repo, &format!("{old}..{head}")) {
                Some(newer) if newer.warnings.is_empty() => History::prepend(newer, older),
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
                    unrendered: true,
                }],
                asked: vec![(Query::Exists, "a.md".into(), true)],
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
            (d.role, d.freq),
            (Role::Shipped, InjectionFrequency::OnDemand)
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
    fn history_round_trips_packed_and_damage_is_refused() {
        let log =
            b"\x01c 3\0D\0y.md\0\x01b 2\0R100\0x.md\0y.md\0M\0z.md\0\x01a 1\0A\0x.md\0A\0z.md\0";
        let h = History::from_log(log);
        let enc = enc_history("c", "", &h);
        let body = |b: &[u8]| Body {
            bytes: b.to_vec(),
            start: 0,
            end: b.len(),
        };
        let (head, prefix, back) = dec_history(body(&enc)).expect("decodes");
        assert_eq!((head.as_str(), prefix.as_str()), ("c", ""));
        assert_eq!(back.commits, h.commits);
        assert_eq!(back.paths(), ["x.md", "y.md", "z.md"]);
        for p in ["x.md", "y.md", "z.md", "nope.md"] {
            assert_eq!(back.event(p), h.event(p), "{p}");
            assert_eq!(back.touches(p), h.touches(p), "{p}");
        }
        assert_eq!(
            back.event("x.md"),
            Some(LastEvent::RenamedTo("y.md".into(), 1, 100))
        );
        assert_eq!(back.event("y.md"), Some(LastEvent::Deleted(0)));
        assert_eq!(back.touches("z.md").as_deref(), Some(&[1, 2][..]));
        // A commit on top, put in front of the packed history: as one walk of the whole log.
        let newer = History::from_log(b"\x01d 4\0M\0z.md\0A\0y.md\0");
        let whole = History::from_log(&[&b"\x01d 4\0M\0z.md\0A\0y.md\0"[..], &log[..]].concat());
        let joined = History::prepend(newer, back);
        assert_eq!(joined.commits, whole.commits);
        assert_eq!(joined.paths(), whole.paths());
        for p in whole.paths() {
            assert_eq!(joined.event(&p), whole.event(&p), "{p}");
            assert_eq!(joined.touches(&p), whole.touches(&p), "{p}");
        }
        // A shared hash falls back to the search, which finds the same records.
        let (_, _, _, mut packed) = dec_packed(body(&enc)).unwrap();
        for v in packed.by_hash.values_mut() {
            *v = SHARED;
        }
        for p in ["x.md", "y.md", "z.md", "nope.md"] {
            use crate::git::PackedFacts;
            assert_eq!(packed.event(p), h.event(p), "{p}");
            assert_eq!(packed.touches(p).as_deref(), h.touches(p).as_deref(), "{p}");
        }
        for cut in 0..enc.len() {
            let _ = dec_history(body(&enc[..cut]));
        }
        for i in 0..enc.len() {
            let mut b = enc.clone();
            b[i] ^= 0x41;
            if let Some((_, _, d)) = dec_history(body(&b)) {
                for p in d.paths() {
                    let _ = (d.event(&p), d.touches(&p));
                }
            }
        }
    }
}
