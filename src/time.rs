//! UTC timestamps without a date-time dependency: the report needs exactly one format
//! (`YYYY-MM-DDTHH:MM:SSZ`) and one comparison (a file's mtime against `generated_at`).

use std::time::{SystemTime, UNIX_EPOCH};

/// Days since 1970-01-01 to a civil (year, month, day) date (Howard Hinnant's algorithm).
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (if m <= 2 { y + 1 } else { y }, m, d)
}

/// A civil date to days since 1970-01-01.
pub fn days_from_civil(y: i64, m: u32, d: u32) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y.rem_euclid(400);
    let mp = (m as i64 + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d as i64 - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// Formats Unix seconds as `YYYY-MM-DDTHH:MM:SSZ`.
///
/// ```
/// assert_eq!(hygiene::time::format_utc(0), "1970-01-01T00:00:00Z");
/// assert_eq!(hygiene::time::format_utc(1_795_968_259), "2026-11-29T16:04:19Z");
/// ```
pub fn format_utc(secs: i64) -> String {
    let (y, m, d) = civil_from_days(secs.div_euclid(86_400));
    let s = secs.rem_euclid(86_400);
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z",
        s / 3600,
        s % 3600 / 60,
        s % 60
    )
}

/// Formats Unix seconds as a `YYYY-MM-DD` date.
pub fn format_date(secs: i64) -> String {
    format_utc(secs)[..10].to_string()
}

/// Now, in Unix seconds.
pub fn now_secs() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs() as i64)
        .unwrap_or(0)
}

/// Now, formatted as `YYYY-MM-DDTHH:MM:SSZ`. `HYGIENE_NOW` (Unix seconds) overrides the clock,
/// so tests can fix time.
pub fn now_utc() -> String {
    format_utc(now_override().unwrap_or_else(now_secs))
}

/// The `HYGIENE_NOW` override, if set.
pub fn now_override() -> Option<i64> {
    std::env::var("HYGIENE_NOW").ok()?.trim().parse().ok()
}

fn num(s: &str) -> Option<i64> {
    (!s.is_empty() && s.bytes().all(|b| b.is_ascii_digit())).then(|| s.parse().ok())?
}

/// Parses an ISO-8601 UTC timestamp (`YYYY-MM-DDTHH:MM:SS[.fff](Z|+00:00)`) to Unix seconds.
/// Other offsets, missing zones and impossible dates are rejected.
///
/// ```
/// use hygiene::time::parse_utc;
/// assert_eq!(parse_utc("2026-11-29T16:04:19Z"), Some(1_795_968_259));
/// assert_eq!(parse_utc("2026-11-29T16:04:19.5+00:00"), Some(1_795_968_259));
/// assert_eq!(parse_utc("2026-11-29T16:04:19+01:00"), None); // not UTC
/// assert_eq!(parse_utc("2026-11-29 15:24:19"), None);
/// assert_eq!(parse_utc("2026-02-30T00:00:00Z"), None);
/// ```
pub fn parse_utc(s: &str) -> Option<i64> {
    let (date, rest) = s.split_once('T')?;
    let rest = rest
        .strip_suffix('Z')
        .or_else(|| rest.strip_suffix("+00:00"))?;
    let mut d = date.split('-');
    let (ys, ms, ds) = (d.next()?, d.next()?, d.next()?);
    if d.next().is_some() || ys.len() != 4 || ms.len() != 2 || ds.len() != 2 {
        return None;
    }
    let (y, m, day) = (num(ys)?, num(ms)? as u32, num(ds)? as u32);
    let (hms, frac) = match rest.split_once('.') {
        Some((a, f)) => (a, Some(f)),
        None => (rest, None),
    };
    if frac.is_some_and(|f| num(f).is_none()) {
        return None;
    }
    let mut t = hms.split(':');
    let (hs, mins, ss) = (t.next()?, t.next()?, t.next()?);
    if t.next().is_some() || hs.len() != 2 || mins.len() != 2 || ss.len() != 2 {
        return None;
    }
    let (h, mi, sec) = (num(hs)?, num(mins)?, num(ss)?);
    if !(1..=12).contains(&m) || day == 0 || h > 23 || mi > 59 || sec > 60 {
        return None;
    }
    let days = days_from_civil(y, m, day);
    // Reject dates that do not round-trip (30 February and the like).
    if civil_from_days(days) != (y, m, day) {
        return None;
    }
    Some(days * 86_400 + h * 3600 + mi * 60 + sec)
}

/// Parses a `YYYY-MM-DD` date to Unix seconds at midnight UTC.
pub fn parse_date(s: &str) -> Option<i64> {
    parse_utc(&format!("{s}T00:00:00Z"))
}
