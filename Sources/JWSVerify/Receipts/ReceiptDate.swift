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
        guard let seconds = secondsInYears0To9999(date) else { return nil }
        return ISO8601Text.iso8601(seconds: seconds)
    }

    /// `date` as `verifyReceipt` wrote it: `2020-05-06 18:28:49 Etc/GMT`, milliseconds since 1970 as a decimal
    /// string, and `2020-05-06 11:28:49 America/Los_Angeles` (Pacific standard or daylight time, as the time zone
    /// database says for that instant); `nil` for a date outside the years 0 to 9999.
    ///
    /// The strings of ``VerifyReceiptTexts``, which the receipts' JSON writer appends as bytes.
    package static func verifyReceiptTexts(_ date: Date) -> (gmt: String, milliseconds: String, pacific: String)? {
        guard let texts = VerifyReceiptTexts(date) else { return nil }
        var gmt: [UInt8] = []
        var milliseconds: [UInt8] = []
        var pacific: [UInt8] = []
        texts.appendGMT(to: &gmt)
        texts.appendMilliseconds(to: &milliseconds)
        texts.appendPacific(to: &pacific)
        return (
            String(decoding: gmt, as: UTF8.self), String(decoding: milliseconds, as: UTF8.self),
            String(decoding: pacific, as: UTF8.self)
        )
    }

    /// The three `verifyReceipt` texts of one date, computed by integer arithmetic (no formatter, no time zone
    /// object) and appended as UTF-8 bytes: the one place these texts are made.
    package struct VerifyReceiptTexts: Sendable {
        /// Whole seconds since 1970 (of ``milliseconds``, rounded down).
        let seconds: Int64
        /// Whole milliseconds since 1970 (``ISO8601Text/wholeMilliseconds(_:)``).
        let milliseconds: Int64
        /// The wall-clock time in Los Angeles at ``seconds``, as seconds since 1970 of that time read as UTC.
        let pacificSeconds: Int64

        /// The texts of `date`; `nil` for a date outside the years 0 to 9999 (or not finite).
        ///
        /// The milliseconds are ``ISO8601Text/wholeMilliseconds(_:)`` (a date made from whole milliseconds, negative
        /// ones included, writes those), and the seconds are the milliseconds' (rounded down), so the three texts
        /// always name the same instant.
        package init?(_ date: Date) {
            guard let milliseconds = millisecondsInYears0To9999(date) else { return nil }
            self.milliseconds = milliseconds
            seconds = ISO8601Text.floorDivide(milliseconds, 1000).0
            pacificSeconds = seconds + ReceiptDate.pacificOffset(seconds: seconds)
        }

        /// `2020-05-06 18:28:49 Etc/GMT`.
        package func appendGMT(to out: inout [UInt8]) {
            var text = JSONWriter.Chunk()
            appendGMTDateTime(to: &text)
            text.append(Self.gmtZone)
            text.append(to: &out)
        }

        /// The GMT text without its zone name, `2020-05-06 18:28:49` (at most ``dateTimeLength`` bytes).
        package func appendGMTDateTime(to text: inout JSONWriter.Chunk) { ReceiptDate.appendSpaced(seconds, to: &text) }

        /// The Pacific text without its zone name, `2020-05-06 11:28:49` (at most ``dateTimeLength`` bytes).
        package func appendPacificDateTime(to text: inout JSONWriter.Chunk) {
            ReceiptDate.appendSpaced(pacificSeconds, to: &text)
        }

        /// The most bytes of a date and time without its zone name: 22, for a year outside 0 to 9999 written with a
        /// sign and six digits (the Pacific text of the first hours of the year 0 falls in the year -1, local mean
        /// time being 7:52:58 behind); writing one needs 8 more free bytes than its length (``JSONWriter/Chunk``
        /// stores words).
        package static let dateTimeLength = 22

        /// What follows the GMT date and time in the GMT text.
        package static let gmtZone: StaticString = " Etc/GMT"

        /// What follows the Pacific date and time in the Pacific text.
        package static let pacificZone: StaticString = " America/Los_Angeles"

        /// `1588789729000` (at most 20 bytes).
        package func appendMilliseconds(to text: inout JSONWriter.Chunk) {
            text.appendInteger(milliseconds)
        }

        /// `1588789729000`.
        package func appendMilliseconds(to out: inout [UInt8]) {
            JSONWriter.writeInteger(milliseconds, into: &out)
        }

        /// `2020-05-06 11:28:49 America/Los_Angeles`.
        package func appendPacific(to out: inout [UInt8]) {
            var text = JSONWriter.Chunk()
            appendPacificDateTime(to: &text)
            text.append(Self.pacificZone)
            text.append(to: &out)
        }
    }

    /// America/Los_Angeles's offset from UTC at `seconds` since 1970, in seconds, as the time zone database
    /// (tzdata, and ICU's copy of it) has it for every year from 0 to 9999:
    /// - before 1883-11-18 20:00 UTC, local mean time, -7:52:58;
    /// - then Pacific standard time, -8:00, with daylight time (-7:00) under the US rules (1918–1919, war time from
    ///   1942-02-09 to 1945-09-30, 1967–2006 with the 1974 and 1975 energy-crisis starts, and since 2007 from the
    ///   second Sunday of March to the first Sunday of November, for every later year) and California's
    ///   (1948-03-14 to 1949-01-01, 1950–1966).
    static func pacificOffset(seconds: Int64) -> Int64 {
        guard seconds >= -2_717_640_000 else { return -28_378 }
        // Each year's rules are looked up by the year of the standard local time; no switch lies near a new year
        // except 1949's, which that year places right.
        let year = ISO8601Text.civil(fromDays: ISO8601Text.floorDivide(seconds - 28_800, 86_400).0).year
        let index = Int(truncatingIfNeeded: year &- daylightTableFirstYear)
        let daylight =
            year >= daylightTableFirstYear && index < daylightTable.count
            ? daylightTable[index] : daylightTime(year: year)
        guard let daylight else { return -28_800 }
        return seconds >= daylight.start && seconds < daylight.end ? -25_200 : -28_800
    }

    /// The first year of ``daylightTable``.
    static let daylightTableFirstYear: Int64 = 1900

    /// ``daylightTime(year:)`` of the years 1900 to 2199, computed once: the years of nearly every receipt's dates,
    /// whose Pacific texts (``pacificOffset(seconds:)``, once per date of a receipt's JSON) then look them up.
    static let daylightTable: [(start: Int64, end: Int64)?] = (daylightTableFirstYear..<2200).map {
        daylightTime(year: $0)
    }

    /// When daylight time starts and ends in `year`, in seconds since 1970 (unbounded ends for a period that
    /// spans the new year); `nil` for a year without it. Switches happen at 2:00 local time, standard time when
    /// it starts (10:00 UTC) and daylight time when it ends (9:00 UTC); California's started at 1:00 (9:00 UTC).
    static func daylightTime(year: Int64) -> (start: Int64, end: Int64)? {
        func day(_ month: Int64, _ day: Int64) -> Int64 { daysSince1970(year: year, month: month, day: day) }
        /// 0 for Sunday (1970-01-01 was a Thursday).
        func weekday(_ day: Int64) -> Int64 { ISO8601Text.floorDivide(day + 4, 7).1 }
        func lastSunday(_ month: Int64) -> Int64 {
            let last = day(month, daysIn(month: month, year: year))
            return last - weekday(last)
        }
        func firstSunday(_ month: Int64) -> Int64 {
            let first = day(month, 1)
            return first + (7 - weekday(first)) % 7
        }
        func at(_ day: Int64, _ hour: Int64, _ minute: Int64 = 0) -> Int64 { day * 86_400 + hour * 3600 + minute * 60 }
        switch year {
        case 2007...: return (at(firstSunday(3) + 7, 10), at(firstSunday(11), 9))
        case 1987...2006: return (at(firstSunday(4), 10), at(lastSunday(10), 9))
        case 1976...1986, 1967...1973: return (at(lastSunday(4), 10), at(lastSunday(10), 9))
        case 1975: return (at(lastSunday(2), 10), at(lastSunday(10), 9))
        case 1974: return (at(day(1, 6), 10), at(lastSunday(10), 9))
        case 1962...1966: return (at(lastSunday(4), 9), at(lastSunday(10), 9))
        case 1950...1961: return (at(lastSunday(4), 9), at(lastSunday(9), 9))
        case 1949: return (.min, at(day(1, 1), 9))
        case 1948: return (at(day(3, 14), 10, 1), .max)
        case 1945: return (.min, at(day(9, 30), 9))
        case 1943, 1944: return (.min, .max)
        case 1942: return (at(day(2, 9), 10), .max)
        case 1918, 1919: return (at(lastSunday(3), 10), at(lastSunday(10), 9))
        default: return nil
        }
    }

    /// Appends `seconds` since 1970 as `2020-05-06 18:28:49`, the date and time of ``ISO8601Text`` with a space for
    /// `T` (years outside 0 to 9999 as it writes them: a sign and six digits), at most 22 bytes, to `text`.
    private static func appendSpaced(_ seconds: Int64, to text: inout JSONWriter.Chunk) {
        let (days, secondOfDay) = ISO8601Text.floorDivide(seconds, 86_400)
        let (year, month, day) = ISO8601Text.civil(fromDays: days)
        let hour = UInt64(secondOfDay / 3600)
        let minute = UInt64(secondOfDay % 3600 / 60)
        let second = UInt64(secondOfDay % 60)
        /// The two ASCII digits of a value below 100, the tens in the low byte.
        func two(_ value: UInt64) -> UInt64 { (0x30 + value / 10) | (0x30 + value % 10) << 8 }
        /// `MM-DD HH:MM:SS` from byte 5 on (after the year and its dash).
        let monthAndDay = two(UInt64(month)) | 0x2D << 16 | two(UInt64(day)) << 24 | 0x20 << 40 | two(hour) << 48
        let time = 0x3A | two(minute) << 8 | 0x3A << 24 | two(second) << 32
        guard (0...9999).contains(year) else {
            text.append(UInt8(ascii: year < 0 ? "-" : "+"))
            text.appendDigits(year.magnitude, minimumCount: 6)
            text.append(UInt8(ascii: "-"))
            text.append(littleEndian: monthAndDay, length: 8)
            text.append(littleEndian: time, length: 6)
            return
        }
        let y = UInt64(year)
        let yearText =
            (0x30 + y / 1000) | (0x30 + y / 100 % 10) << 8 | (0x30 + y / 10 % 10) << 16 | (0x30 + y % 10) << 24
        // Bytes 0-7 `YYYY-MM-`, 8-15 `DD HH:MM`, 16-18 `:SS`.
        text.append(littleEndian: yearText | 0x2D << 32 | (monthAndDay & 0xFF_FFFF) << 40, length: 8)
        text.append(littleEndian: monthAndDay >> 24 | time << 40, length: 8)
        text.append(littleEndian: time >> 24, length: 3)
    }

    /// The date of a `verifyReceipt` milliseconds string (optional minus sign, decimal digits, at most 16 of them).
    package static func date(milliseconds text: String) -> Date? {
        let digits = text.hasPrefix("-") ? text.dropFirst() : Substring(text)
        guard !digits.isEmpty, digits.count <= 16, digits.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
            let value = Int64(text)
        else { return nil }
        return Date(timeIntervalSince1970: Double(value) / 1000)
    }

    /// Whole seconds since 1970 of `date` (its whole milliseconds' seconds, rounded down) when it lies in the years
    /// 0 to 9999.
    private static func secondsInYears0To9999(_ date: Date) -> Int64? {
        millisecondsInYears0To9999(date).map { ISO8601Text.floorDivide($0, 1000).0 }
    }

    /// Whole milliseconds since 1970 of `date` (``ISO8601Text/wholeMilliseconds(_:)``) when it lies in the years 0
    /// to 9999; checked before the conversion to `Int64`, so that no date traps.
    private static func millisecondsInYears0To9999(_ date: Date) -> Int64? {
        let milliseconds = ISO8601Text.wholeMilliseconds(date)
        guard milliseconds.isFinite, milliseconds >= -62_167_219_200_000, milliseconds < 253_402_300_800_000 else {
            return nil
        }
        return Int64(milliseconds)
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
