//! Dates and durations as the mails write them: `2026-11-22 21:47 UTC`, `2d 3h 15m`.

/// Format unix seconds as `2026-11-22 21:47 UTC`.
pub fn format_date(secs: u64) -> String {
    let rem = secs % 86_400;
    format!(
        "{} {:02}:{:02} UTC",
        crate::server::store::day_name(secs),
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
