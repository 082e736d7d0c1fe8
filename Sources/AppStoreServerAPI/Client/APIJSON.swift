import Foundation

/// How the client writes request bodies and reads responses: dates as whole milliseconds since 1970 (Apple's
/// format), keys sorted, slashes unescaped.
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

    static func decoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            let milliseconds = try container.decode(Double.self)
            guard milliseconds.isFinite else {
                throw DecodingError.dataCorruptedError(in: container, debugDescription: "a date that is not finite")
            }
            return Date(timeIntervalSince1970: milliseconds / 1000)
        }
        return decoder
    }
}
