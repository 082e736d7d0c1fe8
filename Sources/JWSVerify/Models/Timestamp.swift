import Foundation

/// A point in time as App Store payloads write it: a JSON number of milliseconds since 1970-01-01T00:00:00Z.
///
/// The number may be fractional (StoreKit Testing in Xcode writes values such as `1697679936049.7297`) or negative.
/// Encoding writes an integral value as an integer, without `.0`, and any other value as a floating-point number, so
/// a decoded timestamp encodes back to the same number (integers up to 2^53, the precision of `Double`).
///
/// The models store every date as a timestamp under the property name with a `Timestamp` suffix
/// (``JWSTransactionDecodedPayload/purchaseDateTimestamp``), which is what they decode, encode and compare. The
/// property with Apple's name (``JWSTransactionDecodedPayload/purchaseDate``) is the same instant as a `Date`, as in
/// Apple's App Store Server Library; setting it sets the timestamp. A `Date` holds seconds since 2001 as a `Double`,
/// so it can't carry every millisecond value exactly (`0.5` comes back as `0.49996…`); the timestamp can.
public struct Timestamp: Codable, Hashable, Sendable, Comparable {
    /// Milliseconds since 1970-01-01T00:00:00Z; may be fractional or negative.
    public var millisecondsSince1970: Double

    /// The same instant as a `Date`.
    public var date: Date {
        Date(timeIntervalSince1970: millisecondsSince1970 / 1000)
    }

    /// Creates a timestamp from milliseconds since 1970-01-01T00:00:00Z.
    public init(millisecondsSince1970: Double) {
        self.millisecondsSince1970 = millisecondsSince1970
    }

    /// Creates a timestamp from a `Date`.
    public init(_ date: Date) {
        millisecondsSince1970 = date.timeIntervalSince1970 * 1000
    }

    /// Decodes a JSON number of milliseconds: integer, fractional or negative.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let integer = try? container.decode(Int64.self) {
            millisecondsSince1970 = Double(integer)
        } else {
            millisecondsSince1970 = try container.decode(Double.self)
        }
    }

    /// Encodes a whole number as an integer and anything else as a floating-point number.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if let integer = integralValue {
            try container.encode(integer)
        } else {
            // Fractional, out of Int64 range, or not finite (which the encoder rejects with an EncodingError).
            try container.encode(millisecondsSince1970)
        }
    }

    /// The value as an `Int64` when it is a whole number within `Int64` range, checked before converting.
    private var integralValue: Int64? {
        let value = millisecondsSince1970
        guard value.isFinite, value.rounded(.towardZero) == value,
            value >= -0x1p63, value < 0x1p63
        else { return nil }
        return Int64(value)
    }

    /// Earlier timestamps order first.
    public static func < (lhs: Timestamp, rhs: Timestamp) -> Bool {
        lhs.millisecondsSince1970 < rhs.millisecondsSince1970
    }
}

extension Timestamp {
    /// Sets a model's timestamp from its `Date` accessor.
    ///
    /// The timestamp stays when it is already that instant, so that assigning back the date the accessor returned
    /// keeps the exact milliseconds (a round trip through `Date` may not); otherwise it becomes `date`'s
    /// milliseconds, or `nil`.
    ///
    /// - Parameters:
    ///   - date: The new date, or `nil` to remove it.
    ///   - timestamp: The model's stored timestamp.
    static func store(_ date: Date?, in timestamp: inout Timestamp?) {
        guard let date else {
            timestamp = nil
            return
        }
        if timestamp?.date != date { timestamp = Timestamp(date) }
    }
}
