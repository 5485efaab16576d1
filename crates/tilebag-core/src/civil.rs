//! Civil time as text, from a count of seconds the caller supplies (the engine reads no clock):
//! the `YYYY-MM-DDTHH:MM:SSZ` stamps of logs and event files.

/// `unix_secs` (seconds since 1970-01-01T00:00:00Z) as `YYYY-MM-DDTHH:MM:SSZ`.
pub fn utc_text(unix_secs: i64) -> String {
    let (days, rem) = (unix_secs.div_euclid(86_400), unix_secs.rem_euclid(86_400));
    // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}

#[cfg(test)]
mod tests {
    use super::utc_text;

    #[test]
    fn civil_dates_across_leap_days_centuries_and_before_1970() {
        assert_eq!(utc_text(0), "1970-01-01T00:00:00Z");
        assert_eq!(utc_text(951_786_123), "2000-02-29T01:02:03Z");
        assert_eq!(utc_text(4_107_542_399), "2100-02-28T23:59:59Z");
        assert_eq!(utc_text(4_107_542_400), "2100-03-01T00:00:00Z");
        assert_eq!(utc_text(-1), "1969-12-31T23:59:59Z");
        assert_eq!(utc_text(1_795_305_600), "2026-11-22T00:00:00Z");
    }
}
