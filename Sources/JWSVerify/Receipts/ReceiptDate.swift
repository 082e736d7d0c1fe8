import Foundation

/// The date forms of app receipts: RFC 3339 in the ASN.1 fields, and the three strings of the old `verifyReceipt`
/// JSON (`2020-05-06 18:28:49 Etc/GMT`, `1588789729000`, `2020-05-06 11:28:49 America/Los_Angeles`).
///
/// Parsing is arithmetic on the bytes (no formatter object), so that it is fast and the same on every platform.
package enum ReceiptDate {
    /// Seconds since 1970 of an RFC 3339 date-time as receipts write it, `nil` for any other text.
    ///
    /// Accepted: `YYYY-MM-DDTHH:MM:SS` followed by `Z`, `±HHMM` (Xcode 2020 receipts write `+0100`) or `±HH:MM`;
    /// uppercase `T` and `Z`, no fractional seconds, every field in range (day within its month, second below 60,
    /// offset below 24 hours).
    package static func seconds(rfc3339 text: ArraySlice<UInt8>) -> Int64? {
        let count = text.count
        guard count == 20 || count == 24 || count == 25 else { return nil }
        let base = text.startIndex
        func number(_ start: Int, _ length: Int) -> Int64? {
            var value: Int64 = 0
            for index in base + start..<base + start + length {
                let byte = text[index]
                guard byte >= 0x30 && byte <= 0x39 else { return nil }
                value = value * 10 + Int64(byte - 0x30)
            }
            return value
        }
        func separator(_ index: Int, _ character: Unicode.Scalar) -> Bool {
            text[base + index] == UInt8(ascii: character)
        }
        guard let year = number(0, 4), separator(4, "-"), let month = number(5, 2), separator(7, "-"),
            let day = number(8, 2), separator(10, "T"), let hour = number(11, 2), separator(13, ":"),
            let minute = number(14, 2), separator(16, ":"), let second = number(17, 2),
            (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year),
            hour < 24, minute < 60, second < 60
        else { return nil }
        var offset: Int64 = 0
        switch count {
        case 20:
            guard separator(19, "Z") else { return nil }
        default:
            let sign: Int64
            if separator(19, "+") {
                sign = 1
            } else if separator(19, "-") {
                sign = -1
            } else {
                return nil
            }
            let colon = count == 25
            guard let offsetHours = number(20, 2), !colon || separator(22, ":"),
                let offsetMinutes = number(colon ? 23 : 22, 2), offsetHours < 24, offsetMinutes < 60
            else { return nil }
            offset = sign * (offsetHours * 3600 + offsetMinutes * 60)
        }
        let days = daysSince1970(year: year, month: month, day: day)
        return days * 86_400 + hour * 3600 + minute * 60 + second - offset
    }

    /// The RFC 3339 text of `date` in UTC, whole seconds (rounded down): `2020-05-06T18:28:49Z`; `nil` for a date
    /// outside the years 0 to 9999.
    package static func rfc3339(_ date: Date) -> String? {
        guard let seconds = wholeSeconds(date), seconds >= -62_167_219_200, seconds < 253_402_300_800 else {
            return nil
        }
        return ISO8601Text.iso8601(seconds: seconds)
    }

    /// `date` as `verifyReceipt` wrote it: `2020-05-06 18:28:49 Etc/GMT`, milliseconds since 1970 as a decimal
    /// string, and `2020-05-06 11:28:49 America/Los_Angeles` (Pacific standard or daylight time, as the time zone
    /// database says for that instant); `nil` for a date outside the years 0 to 9999.
    package static func verifyReceiptTexts(_ date: Date) -> (gmt: String, milliseconds: String, pacific: String)? {
        guard let utc = rfc3339(date), let seconds = wholeSeconds(date) else { return nil }
        let milliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
        let pacificOffset = Int64(pacificTime.secondsFromGMT(for: Date(timeIntervalSince1970: Double(seconds))))
        let pacific = ISO8601Text.iso8601(seconds: seconds + pacificOffset)
        return (spaced(utc) + " Etc/GMT", String(milliseconds), spaced(pacific) + " America/Los_Angeles")
    }

    /// The date of a `verifyReceipt` milliseconds string (optional minus sign, decimal digits, at most 16 of them).
    package static func date(milliseconds text: String) -> Date? {
        let digits = text.hasPrefix("-") ? text.dropFirst() : Substring(text)
        guard !digits.isEmpty, digits.count <= 16, digits.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
            let value = Int64(text)
        else { return nil }
        return Date(timeIntervalSince1970: Double(value) / 1000)
    }

    /// America/Los_Angeles from the system's time zone database; UTC-8 all year where there is none.
    private static let pacificTime =
        TimeZone(identifier: "America/Los_Angeles") ?? TimeZone(secondsFromGMT: -28_800) ?? TimeZone.gmt

    /// `2020-05-06T18:28:49Z` as `2020-05-06 18:28:49`.
    private static func spaced(_ iso: String) -> String {
        String(iso.dropLast().map { $0 == "T" ? " " : $0 })
    }

    private static func wholeSeconds(_ date: Date) -> Int64? {
        let seconds = date.timeIntervalSince1970.rounded(.down)
        guard seconds.isFinite, abs(seconds) < 1e15 else { return nil }
        return Int64(seconds)
    }

    private static func daysIn(month: Int64, year: Int64) -> Int64 {
        switch month {
        case 2: return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Howard Hinnant's `days_from_civil`: days from 1970-01-01 to a proleptic Gregorian date.
    private static func daysSince1970(year: Int64, month: Int64, day: Int64) -> Int64 {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
