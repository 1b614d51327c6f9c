//! Progress for long scans on a terminal: files walked, history commits read, documents checked.
//!
//! A monorepo scan can take seconds, and a silent terminal looks hung. The scanner only bumps
//! atomic [`Counters`] (one relaxed add per document, a store per phase), and a [`Reporter`]
//! thread reads them on a timer and redraws one line on stderr. Nothing is drawn when stderr is
//! not a terminal, before the scan has run for [`DEFAULT_DELAY`], or ever on stdout, so JSON and
//! SARIF output and CI logs never see a progress byte. With `NO_COLOR` set (non-empty, per
//! no-color.org) or `TERM=dumb` the line carries no ANSI escape at all: it is redrawn with a
//! carriage return and padded with spaces instead of erased.

use std::io::{IsTerminal, Write};
use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};
use std::sync::mpsc::{channel, RecvTimeoutError, Sender};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// How long a scan runs before progress appears: short scans stay silent.
pub const DEFAULT_DELAY: Duration = Duration::from_secs(1);

/// How often the line is redrawn.
pub const INTERVAL: Duration = Duration::from_millis(200);

/// The scan's phases, in the order the scanner runs them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
pub enum Phase {
    /// Walking the tree.
    Walking = 0,
    /// Reading the git history (renames, deletions, drift).
    History = 1,
    /// Reading, parsing and checking each document.
    Documents = 2,
    /// Tree-wide detectors (duplicates, anchors, drift).
    TreeWide = 3,
    /// Lifecycle rules and token counts.
    Finishing = 4,
}

impl Phase {
    fn from_u8(v: u8) -> Phase {
        match v {
            0 => Phase::Walking,
            1 => Phase::History,
            2 => Phase::Documents,
            3 => Phase::TreeWide,
            _ => Phase::Finishing,
        }
    }

    fn word(self) -> &'static str {
        match self {
            Phase::Walking => "walking the tree",
            Phase::History => "reading git history",
            Phase::Documents => "checking documents",
            Phase::TreeWide => "cross-checking documents",
            Phase::Finishing => "finishing",
        }
    }
}

/// What the scanner has done so far. Written by the scan, read by the [`Reporter`].
#[derive(Debug, Default)]
pub struct Counters {
    phase: AtomicU8,
    files_walked: AtomicU64,
    commits_read: AtomicU64,
    docs_total: AtomicU64,
    docs_checked: AtomicU64,
}

/// A consistent-enough copy of the [`Counters`] for one redraw.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Snapshot {
    /// The current phase.
    pub phase: Phase,
    /// Files (of any kind) the walk found.
    pub files_walked: u64,
    /// Commits the history walk read.
    pub commits_read: u64,
    /// Documents in scope.
    pub docs_total: u64,
    /// Documents read and checked so far.
    pub docs_checked: u64,
}

impl Counters {
    /// Enters `phase`.
    pub fn phase(&self, phase: Phase) {
        self.phase.store(phase as u8, Ordering::Relaxed);
    }

    /// The walk found `n` files.
    pub fn walked(&self, n: u64) {
        self.files_walked.store(n, Ordering::Relaxed);
    }

    /// The history walk read `n` commits.
    pub fn commits(&self, n: u64) {
        self.commits_read.store(n, Ordering::Relaxed);
    }

    /// `n` documents are in scope.
    pub fn docs_total(&self, n: u64) {
        self.docs_total.store(n, Ordering::Relaxed);
    }

    /// One more document was checked.
    pub fn doc_done(&self) {
        self.docs_checked.fetch_add(1, Ordering::Relaxed);
    }

    /// The current values.
    pub fn snapshot(&self) -> Snapshot {
        Snapshot {
            phase: Phase::from_u8(self.phase.load(Ordering::Relaxed)),
            files_walked: self.files_walked.load(Ordering::Relaxed),
            commits_read: self.commits_read.load(Ordering::Relaxed),
            docs_total: self.docs_total.load(Ordering::Relaxed),
            docs_checked: self.docs_checked.load(Ordering::Relaxed),
        }
    }
}

/// Whether escapes may be written: `NO_COLOR` unset or empty, and `TERM` not `dumb`.
pub fn ansi_allowed(no_color: Option<&str>, term: Option<&str>) -> bool {
    no_color.is_none_or(str::is_empty) && term != Some("dumb")
}

/// The progress line's text (without any redraw control).
///
/// ```
/// use hygiene::scan::progress::{line, Phase, Snapshot};
/// let s = Snapshot { phase: Phase::Documents, files_walked: 12_000, commits_read: 3_456,
///                    docs_total: 900, docs_checked: 450 };
/// assert_eq!(line(&s, Duration::from_secs(2)),
///            "hygiene: checking documents — 12000 files walked, 3456 commits read, 450/900 documents (2s)");
/// # use std::time::Duration;
/// ```
pub fn line(s: &Snapshot, elapsed: Duration) -> String {
    let mut parts = vec![format!("{} files walked", s.files_walked)];
    if s.phase != Phase::Walking {
        parts.push(format!("{} commits read", s.commits_read));
    }
    if s.docs_total > 0 && s.phase as u8 >= Phase::Documents as u8 {
        parts.push(format!("{}/{} documents", s.docs_checked, s.docs_total));
    }
    format!(
        "hygiene: {} — {} ({}s)",
        s.phase.word(),
        parts.join(", "),
        elapsed.as_secs()
    )
}

/// One redraw: the line, overwriting the previous one (`prev_len` characters long).
///
/// ```
/// use hygiene::scan::progress::redraw;
/// assert_eq!(redraw("ab", 4, false), "\rab  ");
/// assert_eq!(redraw("ab", 4, true), "\r\x1b[2K\x1b[2mab\x1b[0m");
/// ```
pub fn redraw(text: &str, prev_len: usize, ansi: bool) -> String {
    if ansi {
        format!("\r\x1b[2K\x1b[2m{text}\x1b[0m")
    } else {
        let n = text.chars().count();
        format!("\r{text}{}", " ".repeat(prev_len.saturating_sub(n)))
    }
}

/// Erases a drawn line of `prev_len` characters.
pub fn clear(prev_len: usize, ansi: bool) -> String {
    if ansi {
        "\r\x1b[2K".to_string()
    } else {
        format!("\r{}\r", " ".repeat(prev_len))
    }
}

/// The timer thread that draws progress. Dropping it (or [`Reporter::finish`]) stops it and
/// erases its line, so the command's own output starts on a clean line.
#[derive(Debug)]
pub struct Reporter {
    stop: Option<Sender<()>>,
    thread: Option<JoinHandle<()>>,
}

impl Reporter {
    /// Starts drawing `counters` to `out` after `delay`, every [`INTERVAL`].
    pub fn start<W: Write + Send + 'static>(
        counters: Arc<Counters>,
        delay: Duration,
        mut out: W,
        ansi: bool,
    ) -> Reporter {
        let (tx, rx) = channel::<()>();
        let started = Instant::now();
        // A zero delay draws the first line now, on the caller's thread, so it is there even
        // when the work finishes before the timer thread first runs.
        let mut drawn = 0usize;
        if delay.is_zero() {
            let text = line(&counters.snapshot(), Duration::ZERO);
            let _ = out.write_all(redraw(&text, 0, ansi).as_bytes());
            let _ = out.flush();
            drawn = text.chars().count();
        }
        let thread = std::thread::spawn(move || {
            let mut wait = if delay.is_zero() { INTERVAL } else { delay };
            // Until finished (a message, or the sender dropped).
            while let Err(RecvTimeoutError::Timeout) = rx.recv_timeout(wait) {
                let text = line(&counters.snapshot(), started.elapsed());
                let _ = out.write_all(redraw(&text, drawn, ansi).as_bytes());
                let _ = out.flush();
                drawn = drawn.max(text.chars().count());
                wait = INTERVAL;
            }
            if drawn > 0 {
                let _ = out.write_all(clear(drawn, ansi).as_bytes());
                let _ = out.flush();
            }
        });
        Reporter {
            stop: Some(tx),
            thread: Some(thread),
        }
    }

    /// Progress on stderr for an interactive run: `None` unless stderr is a terminal. The delay
    /// is [`DEFAULT_DELAY`] unless `HYGIENE_PROGRESS_AFTER_MS` says otherwise (for tests).
    pub fn for_stderr(counters: Arc<Counters>) -> Option<Reporter> {
        if !std::io::stderr().is_terminal() {
            return None;
        }
        let delay = std::env::var("HYGIENE_PROGRESS_AFTER_MS")
            .ok()
            .and_then(|v| v.trim().parse::<u64>().ok())
            .map_or(DEFAULT_DELAY, Duration::from_millis);
        let ansi = ansi_allowed(
            std::env::var("NO_COLOR").ok().as_deref(),
            std::env::var("TERM").ok().as_deref(),
        );
        Some(Reporter::start(counters, delay, std::io::stderr(), ansi))
    }

    /// Stops drawing and erases the line; returns once the thread has.
    pub fn finish(mut self) {
        self.stop_now();
    }

    fn stop_now(&mut self) {
        if let Some(tx) = self.stop.take() {
            let _ = tx.send(());
        }
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

impl Drop for Reporter {
    fn drop(&mut self) {
        self.stop_now();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Mutex;

    /// A writer the test can read after the reporter is done.
    #[derive(Clone, Default)]
    struct Buf(Arc<Mutex<Vec<u8>>>);

    impl Write for Buf {
        fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(b);
            Ok(b.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn a_fast_scan_draws_nothing() {
        let buf = Buf::default();
        let r = Reporter::start(
            Arc::new(Counters::default()),
            Duration::from_secs(5),
            buf.clone(),
            true,
        );
        r.finish();
        assert!(buf.0.lock().unwrap().is_empty());
    }

    #[test]
    fn a_slow_scan_draws_then_erases_without_escapes_under_no_color() {
        let c = Arc::new(Counters::default());
        c.phase(Phase::History);
        c.walked(42);
        c.commits(7);
        let buf = Buf::default();
        let r = Reporter::start(c, Duration::from_millis(1), buf.clone(), false);
        std::thread::sleep(Duration::from_millis(300));
        r.finish();
        let out = String::from_utf8(buf.0.lock().unwrap().clone()).unwrap();
        assert!(out.contains("42 files walked, 7 commits read"), "{out:?}");
        assert!(!out.contains('\x1b'), "{out:?}");
        // The last thing written erases the line: a carriage return after blanks.
        assert!(out.ends_with(" \r"), "{out:?}");
    }

    #[test]
    fn no_color_and_dumb_terminals_get_no_escapes() {
        assert!(ansi_allowed(None, Some("xterm")));
        assert!(ansi_allowed(Some(""), None));
        assert!(!ansi_allowed(Some("1"), Some("xterm")));
        assert!(!ansi_allowed(None, Some("dumb")));
    }
}
