//! Dates and durations as the mails write them: `2026-11-22 21:47 UTC`, `2d 3h 15m`.

/// Format unix seconds as `2026-11-22 21:47 UTC`.
pub fn format_date(secs: u64) -> String {
    let days = (secs / 86_400) as i64;
    let rem = secs % 86_400;
    // Civil date from days since 1970-01-01 (H. Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02} {:02}:{:02} UTC",
        rem / 3600,
        rem % 3600 / 60
    )
}

/// A duration in days, hours and minutes: `2d 3h 15m`.
pub fn format_duration(secs: u64) -> String {
    let (d, h, m) = (secs / 86_400, secs % 86_400 / 3600, secs % 3600 / 60);
    if d > 0 {
        format!("{d}d {h}h {m}m")
    } else if h > 0 {
        format!("{h}h {m}m")
    } else {
        format!("{m}m")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_are_civil_utc() {
        assert_eq!(format_date(0), "1970-01-01 00:00 UTC");
        assert_eq!(format_date(951_782_400), "2000-02-29 00:00 UTC");
        assert_eq!(format_date(1_795_384_020), "2026-11-22 21:47 UTC");
        assert_eq!(format_duration(93_780), "1d 2h 3m");
        assert_eq!(format_duration(59), "0m");
    }
}
