import Foundation

/// How the client writes request bodies and reads responses: dates as whole milliseconds since 1970 (Apple's
/// format), keys sorted, slashes unescaped.
enum APIJSON {
    static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(Int64((date.timeIntervalSince1970 * 1000).rounded(.down)))
        }
        return encoder
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
