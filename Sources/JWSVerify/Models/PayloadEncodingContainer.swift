/// Writes the members of one App Store payload object for its `encode(to:)`.
///
/// Absent fields are omitted. `additionalFields` is written last, except for the keys a known field already wrote.
struct PayloadEncodingContainer<Key: CodingKey> {
    private var container: KeyedEncodingContainer<AnyCodingKey>
    private var written = Set<String>()

    init(_ encoder: any Encoder) {
        container = encoder.container(keyedBy: AnyCodingKey.self)
    }

    /// Writes a known member when its value is present.
    mutating func encode<Value: Encodable>(_ value: Value?, _ key: Key) throws {
        guard let value else { return }
        try container.encode(value, forKey: AnyCodingKey(key.stringValue))
        written.insert(key.stringValue)
    }

    /// Writes the members kept in `additionalFields` that no known field wrote.
    mutating func encodeAdditionalFields(_ fields: [String: JSONValue]) throws {
        try container.encodeUnknownMembers(fields.filter { !written.contains($0.key) })
    }
}
