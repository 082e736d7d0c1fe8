import Foundation

/// A JSON value of any shape, kept as it was decoded.
///
/// JWSVerify uses `JSONValue` wherever it must keep what it does not model: unknown JOSE header
/// members, and payload keys that no App Store model knows yet (Apple adds fields over time), so
/// that decoding and re-encoding a payload loses nothing.
///
/// Numbers keep their integer or floating-point nature: an integer that fits in `Int64` stays
/// ``integer(_:)`` and is written back without a fraction.
public enum JSONValue: Codable, Hashable, Sendable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number whose value is an integer that fits in a 64-bit signed integer, however it is
    /// spelled (`1`, `1.0` and `1e0` are all `.integer(1)`).
    case integer(Int64)
    /// Any other number.
    case double(Double)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object; member order is not kept.
    case object([String: JSONValue])

    /// Decodes any JSON value.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int64.self) {
            self = .integer(value)
        } else if let value = try? container.decode(Double.self) {
            self = JSONValue(number: value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    /// What kind of value this is, for messages: `null`, `a boolean`, `a number`, `a string`, `an array`,
    /// `an object`.
    package var kindName: String {
        switch self {
        case .null: return "null"
        case .bool: return "a boolean"
        case .integer, .double: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }

    /// Encodes the value as it was decoded.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .integer(let value): try container.encode(value)
        case .double(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }

    /// A number, classified by value: an integral value within `Int64` becomes ``integer(_:)``, so
    /// that a value keeps its case through any encode/decode round trip whatever its spelling.
    init(number: Double) {
        if number.rounded(.towardZero) == number, number >= -0x1p63, number < 0x1p63 {
            self = .integer(Int64(number))
        } else {
            self = .double(number)
        }
    }

    /// The string, when this value is a string.
    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The number as a `Double`, when this value is a number.
    public var doubleValue: Double? {
        switch self {
        case .integer(let value): return Double(value)
        case .double(let value): return value
        default: return nil
        }
    }

    /// The members, when this value is an object.
    public var objectValue: [String: JSONValue]? {
        if case .object(let value) = self { return value }
        return nil
    }
}

/// A coding key made from any string, for reading and writing members that no model names.
struct AnyCodingKey: CodingKey, Hashable, Sendable {
    let stringValue: String
    var intValue: Int? { nil }

    init(_ string: String) { stringValue = string }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { return nil }
}

extension KeyedDecodingContainer where Key == AnyCodingKey {
    /// Every member whose key is not in `known`, decoded as ``JSONValue``.
    func unknownMembers(excluding known: Set<String>) throws -> [String: JSONValue] {
        var result: [String: JSONValue] = [:]
        for key in allKeys where !known.contains(key.stringValue) {
            result[key.stringValue] = try decode(JSONValue.self, forKey: key)
        }
        return result
    }
}

extension KeyedEncodingContainer where Key == AnyCodingKey {
    /// Writes back members kept by ``KeyedDecodingContainer/unknownMembers(excluding:)``.
    mutating func encodeUnknownMembers(_ members: [String: JSONValue]) throws {
        for (key, value) in members {
            try encode(value, forKey: AnyCodingKey(key))
        }
    }
}
