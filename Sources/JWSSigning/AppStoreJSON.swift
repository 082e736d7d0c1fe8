import Foundation

/// How the signing library writes JSON for Apple: UUIDs in lower case, as Apple's Python, Node and Java libraries
/// write them, and a byte form without surprises for the request claim of an Advanced Commerce signature and for
/// a Retention Messaging answer.
enum AppStoreJSON {
    /// Compact JSON with sorted keys and unescaped slashes (`JSONEncoder` escapes `/` as `\/` by default, which
    /// is the same JSON value but not the text other libraries write, for base64 signatures in particular).
    static func encode(_ value: some Encodable) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(value)
    }
}

extension KeyedEncodingContainer {
    /// Writes `uuid` in lower case (`550e8400-e29b-…`); nothing when it is `nil`.
    package mutating func encodeLowercased(_ uuid: UUID?, forKey key: Key) throws {
        guard let uuid else { return }
        try encode(uuid.uuidString.lowercased(), forKey: key)
    }
}

extension KeyedDecodingContainer {
    /// Reads a UUID written in either case, or `nil` when the key is absent or `null`; any other text is a
    /// `DecodingError.dataCorrupted`.
    func decodeUUIDIfPresent(forKey key: Key) throws -> UUID? {
        guard let text = try decodeIfPresent(String.self, forKey: key) else { return nil }
        guard let uuid = UUID(uuidString: text) else {
            throw DecodingError.dataCorruptedError(
                forKey: key, in: self, debugDescription: "\(key.stringValue) is not a UUID")
        }
        return uuid
    }

    /// Reads a UUID that must be present.
    func decodeUUID(forKey key: Key) throws -> UUID {
        guard let uuid = try decodeUUIDIfPresent(forKey: key) else {
            throw DecodingError.keyNotFound(
                key, DecodingError.Context(codingPath: codingPath, debugDescription: "\(key.stringValue) is required"))
        }
        return uuid
    }

    /// Checks a constant member of a request (`operation`, `version`): absent, or exactly `expected`. A request of
    /// another kind (another `operation`) does not decode as this one.
    func checkConstant(_ expected: String, forKey key: Key) throws {
        guard let value = try decodeIfPresent(String.self, forKey: key), value != expected else { return }
        throw DecodingError.dataCorruptedError(
            forKey: key, in: self, debugDescription: "\(key.stringValue) must be \"\(expected)\"")
    }
}
