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
