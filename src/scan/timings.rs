//! Phase timings for profiling a scan: with `HYGIENE_TIMINGS=1` in the environment, each phase
//! prints one line on stderr (`hygiene: timings: documents 412.3 ms (3 of 38430 from cache)`),
//! so a slow scan says where its time went without a profiler. Off by default: nothing is
//! measured or printed, and stdout never sees a byte of it.

use std::time::{Duration, Instant};

/// Whether timings are on (`HYGIENE_TIMINGS` set to anything but empty or `0`).
pub fn enabled() -> bool {
    std::env::var("HYGIENE_TIMINGS").is_ok_and(|v| !v.is_empty() && v != "0")
}

/// A stopwatch over consecutive phases.
#[derive(Debug)]
pub struct Timer {
    on: bool,
    start: Instant,
    last: Instant,
}

impl Default for Timer {
    fn default() -> Timer {
        Timer::new()
    }
}

impl Timer {
    /// Starts the stopwatch (printing only when [`enabled`]).
    pub fn new() -> Timer {
        let now = Instant::now();
        Timer {
            on: enabled(),
            start: now,
            last: now,
        }
    }

    /// Ends the phase `what`, with an optional note, and starts the next one.
    pub fn mark(&mut self, what: &str, note: impl FnOnce() -> String) {
        let now = Instant::now();
        if self.on {
            let note = note();
            let sep = if note.is_empty() { "" } else { " " };
            eprintln!(
                "hygiene: timings: {what} {}{sep}{note}{}",
                ms(now - self.last),
                memory()
            );
        }
        self.last = now;
    }

    /// Prints a span measured elsewhere (a phase that ran beside the others).
    pub fn span(&self, what: &str, took: Duration, note: impl FnOnce() -> String) {
        if self.on {
            let note = note();
            let sep = if note.is_empty() { "" } else { " " };
            eprintln!("hygiene: timings: {what} {}{sep}{note}", ms(took));
        }
    }

    /// Prints the total since [`Timer::new`].
    pub fn total(&self) {
        if self.on {
            eprintln!("hygiene: timings: total {}", ms(self.start.elapsed()));
        }
    }
}

/// CPU time spent per named part of a parallel phase (each detector of the tree-wide one), summed
/// over the threads: the phase's wall time alone does not say which part to work on.
#[derive(Debug)]
pub struct PerPart {
    on: bool,
    names: Vec<&'static str>,
    nanos: Vec<std::sync::atomic::AtomicU64>,
}

impl PerPart {
    /// Counters for `names`, measuring only when `timer` prints.
    pub fn new(timer: &Timer, names: Vec<&'static str>) -> PerPart {
        let nanos = names.iter().map(|_| Default::default()).collect();
        PerPart {
            on: timer.on,
            names,
            nanos,
        }
    }

    /// Runs `f`, adding its time to part `i` (when measuring).
    pub fn time<R>(&self, i: usize, f: impl FnOnce() -> R) -> R {
        if !self.on {
            return f();
        }
        let t = Instant::now();
        let r = f();
        if let Some(n) = self.nanos.get(i) {
            let took = u64::try_from(t.elapsed().as_nanos()).unwrap_or(u64::MAX);
            n.fetch_add(took, std::sync::atomic::Ordering::Relaxed);
        }
        r
    }

    /// `(name cpu ms, ...)` of the parts that took a millisecond or more, slowest first.
    pub fn note(&self) -> String {
        let mut parts: Vec<(u64, &str)> = self
            .names
            .iter()
            .zip(&self.nanos)
            .map(|(n, t)| (t.load(std::sync::atomic::Ordering::Relaxed) / 1_000_000, *n))
            .filter(|&(ms, _)| ms > 0)
            .collect();
        parts.sort_by(|a, b| b.cmp(a));
        let list: Vec<String> = parts.iter().map(|(ms, n)| format!("{n} {ms}")).collect();
        format!("(CPU ms: {})", list.join(", "))
    }
}

/// The process's resident memory now and at its peak, where the system says (Linux).
fn memory() -> String {
    let Ok(status) = std::fs::read_to_string("/proc/self/status") else {
        return String::new();
    };
    let field = |name: &str| {
        status
            .lines()
            .find_map(|l| l.strip_prefix(name))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
    };
    match (field("VmRSS:"), field("VmHWM:")) {
        (Some(now), Some(peak)) => format!(" [rss {} MB, peak {} MB]", now / 1024, peak / 1024),
        _ => String::new(),
    }
}

fn ms(d: Duration) -> String {
    format!("{:.1} ms", d.as_secs_f64() * 1000.0)
}
