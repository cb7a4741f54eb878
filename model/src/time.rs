//! Timestamps on the wire.
//!
//! Written as RFC 3339 in UTC with milliseconds and a `Z` (the contract's
//! canonical form); read tolerantly from RFC 3339 with any offset, from
//! `YYYY-MM-DD HH:MM:SS`, or from Unix seconds or milliseconds.
//!
//! The calendar arithmetic is written here instead of pulling in a date
//! library: the app ships this code to browsers, and these few functions are
//! all it needs (see docs/size.md for the measurement).

use serde::{de, Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;

/// A point in time, as milliseconds since the Unix epoch (UTC).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Timestamp(pub i64);

/// Numbers below this are read as seconds, at or above it as milliseconds.
/// 10^11 seconds is the year 5138; 10^11 milliseconds is 1973.
const SECONDS_LIMIT: i64 = 100_000_000_000;

impl Timestamp {
    pub fn millis(self) -> i64 {
        self.0
    }

    /// Reads a Unix time in seconds or milliseconds, deciding by size.
    pub fn from_unix_number(n: i64) -> Self {
        if n.abs() < SECONDS_LIMIT {
            Timestamp(n * 1000)
        } else {
            Timestamp(n)
        }
    }

    /// Parses RFC 3339 (`2026-11-22T12:00:00.123Z`, `...+02:00`) or the
    /// SQL-like `2026-11-22 12:00:00` (taken as UTC).
    pub fn parse(text: &str) -> Option<Self> {
        let s = text.trim();
        let b = s.as_bytes();
        if b.len() < 19 || b[4] != b'-' || b[7] != b'-' || b[13] != b':' || b[16] != b':' {
            return None;
        }
        if !matches!(b[10], b'T' | b't' | b' ') {
            return None;
        }
        let year = digits(&b[0..4])?;
        let month = digits(&b[5..7])?;
        let day = digits(&b[8..10])?;
        let hour = digits(&b[11..13])?;
        let minute = digits(&b[14..16])?;
        let second = digits(&b[17..19])?;
        if !(1..=12).contains(&month)
            || day < 1
            || day > days_in_month(year, month)
            || hour > 23
            || minute > 59
            || second > 60
        {
            return None;
        }
        let mut rest = &b[19..];
        let mut millis = 0i64;
        if let Some((&b'.', frac)) = rest.split_first() {
            let n = frac.iter().take_while(|c| c.is_ascii_digit()).count();
            if n == 0 {
                return None;
            }
            // Keep milliseconds; finer digits are dropped, not rounded.
            for i in 0..3 {
                millis = millis * 10 + frac.get(i).filter(|_| i < n).map_or(0, |c| (c - b'0') as i64);
            }
            rest = &frac[n..];
        }
        let offset_minutes = match rest {
            [] | [b'Z'] | [b'z'] => 0,
            [sign @ (b'+' | b'-'), h1, h2, b':', m1, m2] => {
                let minutes = digits(&[*h1, *h2])? * 60 + digits(&[*m1, *m2])?;
                if *sign == b'+' {
                    minutes
                } else {
                    -minutes
                }
            }
            _ => return None,
        };
        let days = days_from_civil(year, month, day);
        let secs = days * 86_400 + hour * 3600 + minute * 60 + second.min(59) - offset_minutes * 60;
        Some(Timestamp(secs * 1000 + millis))
    }

    /// The canonical form: `YYYY-MM-DDTHH:MM:SS.mmmZ`, in UTC.
    pub fn to_rfc3339(self) -> String {
        let ms = self.0.rem_euclid(1000);
        let secs = self.0.div_euclid(1000);
        let (y, mo, d) = civil_from_days(secs.div_euclid(86_400));
        let sod = secs.rem_euclid(86_400);
        let (h, mi, s) = (sod / 3600, sod % 3600 / 60, sod % 60);
        format!("{y:04}-{mo:02}-{d:02}T{h:02}:{mi:02}:{s:02}.{ms:03}Z")
    }
}

impl fmt::Display for Timestamp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_rfc3339())
    }
}

fn digits(b: &[u8]) -> Option<i64> {
    b.iter().try_fold(0i64, |acc, c| c.is_ascii_digit().then(|| acc * 10 + (c - b'0') as i64))
}

fn is_leap(y: i64) -> bool {
    (y % 4 == 0 && y % 100 != 0) || y % 400 == 0
}

fn days_in_month(y: i64, m: i64) -> i64 {
    match m {
        2 if is_leap(y) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

fn civil_from_days(z: i64) -> (i64, i64, i64) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    (yoe + era * 400 + i64::from(m <= 2), m, d)
}

impl Serialize for Timestamp {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.to_rfc3339())
    }
}

impl<'de> Deserialize<'de> for Timestamp {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Visitor;
        impl de::Visitor<'_> for Visitor {
            type Value = Timestamp;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an RFC 3339 time, `YYYY-MM-DD HH:MM:SS`, or Unix seconds or milliseconds")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Timestamp, E> {
                if let Ok(n) = v.trim().parse::<i64>() {
                    return Ok(Timestamp::from_unix_number(n));
                }
                Timestamp::parse(v).ok_or_else(|| E::custom(format!("not a timestamp: {v:?}")))
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<Timestamp, E> {
                Ok(Timestamp::from_unix_number(v))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<Timestamp, E> {
                i64::try_from(v).map(Timestamp::from_unix_number).map_err(|_| E::custom("timestamp out of range"))
            }
            fn visit_f64<E: de::Error>(self, v: f64) -> Result<Timestamp, E> {
                if v.abs() < SECONDS_LIMIT as f64 {
                    Ok(Timestamp((v * 1000.0).round() as i64))
                } else {
                    Ok(Timestamp(v.round() as i64))
                }
            }
        }
        d.deserialize_any(Visitor)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const NOON: i64 = 1_795_348_800_000; // 2026-11-22T12:00:00Z

    #[test]
    fn writes_canonical_rfc3339_with_millis_and_z() {
        assert_eq!(Timestamp(NOON + 123).to_rfc3339(), "2026-11-22T12:00:00.123Z");
        assert_eq!(Timestamp(0).to_rfc3339(), "1970-01-01T00:00:00.000Z");
        assert_eq!(Timestamp(-1).to_rfc3339(), "1969-12-31T23:59:59.999Z");
        assert_eq!(Timestamp::parse("2024-02-29T23:59:59Z").unwrap().to_rfc3339(), "2024-02-29T23:59:59.000Z");
    }

    #[test]
    fn reads_every_tolerated_form() {
        let cases = [
            ("\"2026-11-22T12:00:00.123Z\"", NOON + 123),
            ("\"2026-11-22T12:00:00Z\"", NOON),
            ("\"2026-11-22T13:30:00+01:30\"", NOON),
            ("\"2026-11-22T12:00:00.123456789Z\"", NOON + 123),
            ("\"2026-11-22 12:00:00\"", NOON),
            ("1795348800", NOON),
            ("1795348800123", NOON + 123),
            ("\"1795348800\"", NOON),
            ("1795348800.5", NOON + 500),
            // Negative numbers, before 1970; 10^11 as a float is milliseconds.
            ("-86400", -86_400_000),
            ("100000000000.0", 100_000_000_000),
            ("99999999999.0", 99_999_999_999_000),
        ];
        for (json, want) in cases {
            let got: Timestamp = serde_json::from_str(json).unwrap_or_else(|e| panic!("{json}: {e}"));
            assert_eq!(got, Timestamp(want), "{json}");
        }
    }

    #[test]
    fn rejects_what_is_not_a_time() {
        for bad in
            ["2026-13-01T00:00:00Z", "2026-02-30 00:00:00", "yesterday", "2026-11-22T12:00:00+0100", "2026-11-22"]
        {
            assert_eq!(Timestamp::parse(bad), None, "{bad}");
        }
        assert!(serde_json::from_str::<Timestamp>("\"soon\"").is_err());
    }

    #[test]
    fn round_trips_across_centuries() {
        for ms in [-62_135_596_800_000i64, -1, 0, 951_782_400_000, 4_102_444_800_999, NOON] {
            let t = Timestamp(ms);
            assert_eq!(Timestamp::parse(&t.to_rfc3339()), Some(t));
        }
    }

    #[test]
    fn negative_offsets_are_behind_utc() {
        // 07:00 at -05:00 is noon UTC; at +05:00 it would be 02:00.
        assert_eq!(Timestamp::parse("2026-11-22T07:00:00-05:00"), Some(Timestamp(NOON)));
        assert_eq!(Timestamp::parse("2026-11-22T17:00:00+05:00"), Some(Timestamp(NOON)));
        assert_eq!(Timestamp::parse("2026-11-22T11:30:00-00:30"), Some(Timestamp(NOON)));
    }

    #[test]
    fn the_calendar_is_the_real_one() {
        // Leap years: every 4th, not every 100th, every 400th.
        assert!(Timestamp::parse("2024-02-29 00:00:00").is_some());
        assert!(Timestamp::parse("2000-02-29 00:00:00").is_some());
        for bad in ["2026-02-29 00:00:00", "1900-02-29 00:00:00", "2024-02-30 00:00:00"] {
            assert_eq!(Timestamp::parse(bad), None, "{bad}");
        }
        // Thirty days hath September, April, June and November.
        for month in ["04", "06", "09", "11"] {
            assert!(Timestamp::parse(&format!("2026-{month}-30 00:00:00")).is_some(), "{month}-30");
            assert_eq!(Timestamp::parse(&format!("2026-{month}-31 00:00:00")), None, "{month}-31");
        }
        for month in ["01", "03", "05", "07", "08", "10", "12"] {
            assert!(Timestamp::parse(&format!("2026-{month}-31 00:00:00")).is_some(), "{month}-31");
        }
        assert_eq!(Timestamp::parse("2026-00-10 00:00:00"), None);
        assert_eq!(Timestamp::parse("2026-11-00 00:00:00"), None);
    }

    #[test]
    fn hours_minutes_and_seconds_stay_in_range() {
        assert!(Timestamp::parse("2026-11-22 23:59:59").is_some());
        assert!(Timestamp::parse("2026-12-31 23:59:60").is_some(), "a leap second is read");
        for bad in ["2026-11-22 24:00:00", "2026-11-22 12:60:00", "2026-11-22 12:00:61"] {
            assert_eq!(Timestamp::parse(bad), None, "{bad}");
        }
        // A leap second reads as the second before it.
        assert_eq!(Timestamp::parse("2026-11-22T11:59:60Z"), Timestamp::parse("2026-11-22T11:59:59Z"));
    }

    #[test]
    fn fractions_of_any_length_and_separators_exactly() {
        assert_eq!(Timestamp::parse("2026-11-22T12:00:00.5Z"), Some(Timestamp(NOON + 500)));
        assert_eq!(Timestamp::parse("2026-11-22T12:00:00.05Z"), Some(Timestamp(NOON + 50)));
        assert_eq!(Timestamp::parse("2026-11-22T12:00:00.Z"), None, "a dot needs digits");
        for bad in ["2026/11/22 12:00:00", "2026-11-22_12:00:00", "2026-11-22 12.00.00", "2026-11-22T12:00:00+01"] {
            assert_eq!(Timestamp::parse(bad), None, "{bad}");
        }
        // Each separator is checked, not only the first that differs.
        for bad in ["2026/11-22 12:00:00", "2026-11/22 12:00:00", "2026-11-22 12.00:00", "2026-11-22 12:00.00"] {
            assert_eq!(Timestamp::parse(bad), None, "{bad}");
        }
    }

    #[test]
    fn every_day_of_three_leap_centuries_has_its_own_date_in_order() {
        // From 1599 to 2401: century years that are leap (1600, 2000, 2400)
        // and not (1700, 1800, 1900, 2100...), each era's last day included.
        let mut day = days_from_civil(1599, 1, 1);
        for y in 1599..=2401 {
            for m in 1..=12 {
                for d in 1..=days_in_month(y, m) {
                    assert_eq!(days_from_civil(y, m, d), day, "{y}-{m}-{d}");
                    assert_eq!(civil_from_days(day), (y, m, d), "day {day}");
                    day += 1;
                }
            }
        }
        assert_eq!(Timestamp::parse("2000-02-29T00:00:00Z").unwrap().to_rfc3339(), "2000-02-29T00:00:00.000Z");
        assert_eq!(Timestamp::parse("2100-02-29T00:00:00Z"), None);
    }

    #[test]
    fn displays_as_its_canonical_form() {
        assert_eq!(Timestamp(NOON).to_string(), "2026-11-22T12:00:00.000Z");
    }

    #[test]
    fn millis_are_milliseconds_since_1970() {
        assert_eq!(Timestamp::parse("1970-01-01T00:00:01.5Z").map(Timestamp::millis), Some(1_500));
        assert_eq!(Timestamp::parse("1969-12-31T23:59:59Z").map(Timestamp::millis), Some(-1_000));
    }

    #[test]
    fn unix_numbers_switch_from_seconds_to_milliseconds_at_ten_to_the_eleven() {
        assert_eq!(Timestamp::from_unix_number(99_999_999_999), Timestamp(99_999_999_999_000));
        assert_eq!(Timestamp::from_unix_number(100_000_000_000), Timestamp(100_000_000_000));
        // Before 1970, as seconds and as milliseconds.
        assert_eq!(Timestamp::from_unix_number(-86_400), Timestamp(-86_400_000));
        assert_eq!(Timestamp::from_unix_number(-100_000_000_000), Timestamp(-100_000_000_000));
        assert_eq!(Timestamp::from_unix_number(-86_400).to_rfc3339(), "1969-12-31T00:00:00.000Z");
    }
}
