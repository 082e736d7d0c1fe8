import Foundation

/// The `Retry-After` header field (RFC 9110 §10.2.3): a number of seconds, or an HTTP date.
///
/// The three HTTP-date forms of RFC 9110 §5.6.7 are read by a strict parser of their exact grammar, with no
/// `DateFormatter`: nothing is shared between threads (a formatter is a mutable object, and ICU's lenient parsing
/// accepts text the grammar does not), nothing is built per call but a `Date`, and the obsolete RFC 850 form's
/// two-digit year is read as §5.6.7 requires, which no formatter setting does.
enum RetryAfter {
    /// The wait the field asks for, measured from `now`; `nil` when it is absent or not one of the forms above, or
    /// when its seconds do not fit in 64 bits (an overflow is ignored, never a trap). A date in the past is a wait
    /// of zero.
    static func parse(_ value: String?, now: Date) -> Duration? {
        guard let value = value?.trimmingCharacters(in: .whitespaces), !value.isEmpty, value.utf8.count <= 64 else {
            return nil
        }
        if value.utf8.allSatisfy(HTTPDate.isDigit) {
            guard let seconds = Int64(value) else { return nil }
            return .seconds(seconds)
        }
        guard let date = HTTPDate.parse(Array(value.utf8), now: now) else { return nil }
        let seconds = max(0, date.timeIntervalSince(now))
        return .milliseconds(Int64(seconds * 1000))
    }
}

/// An HTTP date (RFC 9110 §5.6.7) in any of its three forms:
/// - IMF-fixdate `Sun, 06 Nov 1994 08:49:37 GMT` (what a sender must send);
/// - the obsolete RFC 850 form `Sunday, 06-Nov-94 08:49:37 GMT`;
/// - the obsolete asctime form `Sun Nov  6 08:49:37 1994`.
enum HTTPDate {
    /// The instant `text` names; `nil` for anything that is not exactly one of the three forms, or a day that does
    /// not exist (31 Feb). `now` places an RFC 850 two-digit year: the year of that century, unless it would be more
    /// than 50 years after `now`, when it is the year a century earlier.
    static func parse(_ text: [UInt8], now: Date) -> Date? {
        var reader = Reader(bytes: text)
        if let date = imfFixdate(&reader) { return date }
        reader = Reader(bytes: text)
        if let date = rfc850(&reader, now: now) { return date }
        reader = Reader(bytes: text)
        return asctime(&reader)
    }

    static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    private static let shortDays = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
    private static let longDays = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// The proleptic Gregorian calendar in UTC. `Calendar` is a value type whose reads are safe from any thread.
    private static let calendar: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .gmt
        return calendar
    }()

    /// `Sun, 06 Nov 1994 08:49:37 GMT`.
    private static func imfFixdate(_ reader: inout Reader) -> Date? {
        guard reader.word(in: shortDays), reader.literal(", "), let day = reader.number(digits: 2), reader.literal(" "),
            let month = reader.month(), reader.literal(" "), let year = reader.number(digits: 4), reader.literal(" "),
            let time = reader.timeOfDay(), reader.literal(" GMT"), reader.atEnd
        else { return nil }
        return date(year: year, month: month, day: day, secondOfDay: time)
    }

    /// `Sunday, 06-Nov-94 08:49:37 GMT`.
    private static func rfc850(_ reader: inout Reader, now: Date) -> Date? {
        guard reader.word(in: longDays), reader.literal(", "), let day = reader.number(digits: 2), reader.literal("-"),
            let month = reader.month(), reader.literal("-"), let twoDigits = reader.number(digits: 2),
            reader.literal(" "), let time = reader.timeOfDay(), reader.literal(" GMT"), reader.atEnd
        else { return nil }
        let thisYear = calendar.component(.year, from: now)
        var year = thisYear - thisYear % 100 + twoDigits
        if year > thisYear + 50 { year -= 100 }
        return date(year: year, month: month, day: day, secondOfDay: time)
    }

    /// `Sun Nov  6 08:49:37 1994` (the day is two digits, or a space and one digit).
    private static func asctime(_ reader: inout Reader) -> Date? {
        guard reader.word(in: shortDays), reader.literal(" "), let month = reader.month(), reader.literal(" ") else {
            return nil
        }
        let day: Int?
        if reader.literal(" ") { day = reader.number(digits: 1) } else { day = reader.number(digits: 2) }
        guard let day, reader.literal(" "), let time = reader.timeOfDay(), reader.literal(" "),
            let year = reader.number(digits: 4), reader.atEnd
        else { return nil }
        return date(year: year, month: month, day: day, secondOfDay: time)
    }

    /// The instant at `secondOfDay` of a calendar day; `nil` for a day the month does not have.
    private static func date(year: Int, month: Int, day: Int, secondOfDay: Int) -> Date? {
        guard (1...31).contains(day),
            let midnight = calendar.date(from: DateComponents(year: year, month: month, day: day)),
            calendar.component(.day, from: midnight) == day, calendar.component(.month, from: midnight) == month
        else { return nil }
        return midnight.addingTimeInterval(TimeInterval(secondOfDay))
    }

    /// A cursor over the field's bytes.
    private struct Reader {
        let bytes: [UInt8]
        var offset = 0

        var atEnd: Bool { offset == bytes.count }

        /// Consumes `text` when the bytes continue with it exactly.
        mutating func literal(_ text: String) -> Bool {
            let expected = Array(text.utf8)
            guard bytes.count - offset >= expected.count,
                bytes[offset..<offset + expected.count].elementsEqual(expected)
            else { return false }
            offset += expected.count
            return true
        }

        /// Consumes one of `words` (case-sensitive, as RFC 9110 writes them).
        mutating func word(in words: [String]) -> Bool {
            for word in words {
                if literal(word) { return true }
            }
            return false
        }

        /// The month, 1 to 12.
        mutating func month() -> Int? {
            for (index, name) in HTTPDate.months.enumerated() {
                if literal(name) { return index + 1 }
            }
            return nil
        }

        /// Exactly `digits` decimal digits.
        mutating func number(digits: Int) -> Int? {
            guard bytes.count - offset >= digits else { return nil }
            var value = 0
            for byte in bytes[offset..<offset + digits] {
                guard HTTPDate.isDigit(byte) else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            offset += digits
            return value
        }

        /// `HH:MM:SS` as seconds since midnight; the second may be 60 (a leap second).
        mutating func timeOfDay() -> Int? {
            guard let hour = number(digits: 2), hour < 24, literal(":"), let minute = number(digits: 2), minute < 60,
                literal(":"), let second = number(digits: 2), second <= 60
            else { return nil }
            return hour * 3600 + minute * 60 + second
        }
    }
}
