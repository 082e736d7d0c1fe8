import Foundation

/// ISO 8601 text for instants, computed arithmetically (no formatter object), so that it is fast,
/// thread-safe and identical on every platform. Used by reports, error messages and the CLI.
package enum ISO8601Text {
    /// `2023-01-05T21:22:34Z`, or `2023-01-05T21:22:34.123Z` when the instant has milliseconds.
    package static func iso8601(_ date: Date) -> String {
        iso8601(milliseconds: wholeMilliseconds(date))
    }

    /// The whole milliseconds since 1970 of `date`, rounded down, as a `Double` (not finite, or beyond `Int64`, for
    /// such dates): the one reading of a `Date` as milliseconds for date texts.
    ///
    /// A `Date` keeps seconds since 2001 in a `Double`, so a date made from whole milliseconds (a `_ms` text, a
    /// JSON number) comes back through `timeIntervalSince1970 * 1000` a little off: -1 ms as -1.0000467…, 999 ms as
    /// 998.99999…, which rounding down would turn into -2 and 998. A value that close to a whole millisecond,
    /// within the error those roundings can make (about two thousand units in the last place of the seconds, since
    /// 1970 and since 2001: 0.7 ns today, 0.1 ms in the year 9999), is that millisecond; any other is rounded down.
    package static func wholeMilliseconds(_ date: Date) -> Double {
        let seconds = date.timeIntervalSince1970
        let milliseconds = seconds * 1000
        guard milliseconds.isFinite else { return milliseconds }
        let nearest = milliseconds.rounded()
        let slack = 2000 * (seconds.ulp + date.timeIntervalSinceReferenceDate.ulp)
        return abs(milliseconds - nearest) <= slack ? nearest : milliseconds.rounded(.down)
    }

    /// `seconds` since 1970 as ISO 8601 text.
    package static func iso8601(seconds: Int64) -> String {
        iso8601(milliseconds: Double(seconds) * 1000)
    }

    /// The instant `milliseconds` after 1970-01-01T00:00:00Z, in UTC; fractions of a millisecond are
    /// dropped (rounded down). Values beyond year ±999,999 print as the raw number.
    package static func iso8601(milliseconds: Double) -> String {
        guard milliseconds.isFinite, abs(milliseconds) < 3e16 else { return "\(milliseconds)" }
        let totalMilliseconds = Int64(milliseconds.rounded(.down))
        let (seconds, millisecond) = floorDivide(totalMilliseconds, 1000)
        let (days, secondOfDay) = floorDivide(seconds, 86_400)
        let (year, month, day) = civil(fromDays: days)
        let hour = secondOfDay / 3600
        let minute = secondOfDay % 3600 / 60
        let second = secondOfDay % 60
        var text = year >= 0 && year <= 9999 ? pad(year, 4) : (year < 0 ? "-" + pad(-year, 6) : "+" + pad(year, 6))
        text +=
            "-" + pad(month, 2) + "-" + pad(day, 2) + "T" + pad(hour, 2) + ":" + pad(minute, 2) + ":" + pad(second, 2)
        if millisecond != 0 { text += "." + pad(millisecond, 3) }
        return text + "Z"
    }

    /// `value` divided by a positive `divisor`, rounded toward negative infinity, and the remainder (never
    /// negative). Defined for every `Int64`, `Int64.min` included.
    package static func floorDivide(_ value: Int64, _ divisor: Int64) -> (Int64, Int64) {
        let (quotient, remainder) = value.quotientAndRemainder(dividingBy: divisor)
        return remainder < 0 ? (quotient - 1, remainder + divisor) : (quotient, remainder)
    }

    private static func pad(_ value: Int64, _ width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }

    /// The proleptic Gregorian date of a day count since 1970-01-01: Neri and Schneider's Euclidean affine form
    /// ("Euclidean affine functions and their application to calendar algorithms", 2022; divisions by constants
    /// and powers of two, no branch but the year's end) for the days from 32,800 years before 0000-03-01 to 2^50
    /// days after that, which hold every date of the App Store; ``hinnantCivil(fromDays:)`` for the others. Tests
    /// hold the two equal on every day of the years -770 to 10,730 and at both ends of the fast form's range.
    @inline(__always)
    package static func civil(fromDays days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        // The day count from 0000-03-01 shifted by 82 cycles of 400 years (146,097 days), so that it is positive.
        let shifted = days &+ (719_468 + 146_097 * 82)
        guard shifted >= 0, shifted < 1 << 50 else { return hinnantCivil(fromDays: days) }
        let n = UInt64(shifted)
        let n1 = 4 &* n &+ 3
        let century = n1 / 146_097
        let dayOfCentury = n1 % 146_097 / 4
        let p2 = 2_939_745 &* (4 &* dayOfCentury &+ 3)
        let yearOfCentury = p2 >> 32
        let dayOfYear = (p2 & 0xFFFF_FFFF) / 2_939_745 / 4
        let n3 = 2_141 &* dayOfYear &+ 197_913
        let month = n3 >> 16
        let day = (n3 & 0xFFFF) / 2_141 + 1
        let january = dayOfYear >= 306  // January and February count in the next year
        let year = Int64(truncatingIfNeeded: 100 &* century &+ yearOfCentury) - 400 * 82 + (january ? 1 : 0)
        return (year, Int64(truncatingIfNeeded: january ? month &- 12 : month), Int64(truncatingIfNeeded: day))
    }

    /// Howard Hinnant's `civil_from_days`: the proleptic Gregorian date of a day count since 1970-01-01, for any day
    /// count whose year fits.
    package static func hinnantCivil(fromDays days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
