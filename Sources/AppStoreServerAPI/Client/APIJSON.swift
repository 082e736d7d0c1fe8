import Foundation

/// How the client writes request bodies: dates as whole milliseconds since 1970 (Apple's format), keys sorted,
/// slashes unescaped. Responses are read by `JSONTreeDecoder`, with the same date format.
enum APIJSON {
    static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            if let milliseconds = milliseconds(date) {
                try container.encode(milliseconds)
            } else {
                try container.encode(date.timeIntervalSince1970 * 1000)
            }
        }
        return encoder
    }

    /// The date in whole milliseconds since 1970 (rounded to the nearest), `nil` when it does not fit in 64 bits.
    static func milliseconds(_ date: Date) -> Int64? {
        let value = (date.timeIntervalSince1970 * 1000).rounded()
        guard value.isFinite, value.magnitude < 9.0e18 else { return nil }
        return Int64(value)
    }
}
