/// Reads the members of one App Store payload object for its `init(from:)`.
///
/// `Key` lists the members the model knows; every other member, and every known member whose value is `null`, goes to
/// the model's `additionalFields` so that encoding writes it back.
struct PayloadDecodingContainer<Key: CodingKey & CaseIterable> {
    private let container: KeyedDecodingContainer<AnyCodingKey>

    init(_ decoder: any Decoder) throws {
        container = try decoder.container(keyedBy: AnyCodingKey.self)
    }

    /// The value of a known member, `nil` when it is absent or `null`; a value of the wrong type throws.
    func decode<Value: Decodable>(_ key: Key) throws -> Value? {
        try container.decodeIfPresent(Value.self, forKey: AnyCodingKey(key.stringValue))
    }

    /// The members that no known field holds: unknown keys, and known keys whose value is `null`.
    func additionalFields() throws -> [String: JSONValue] {
        var modelled = Set<String>()
        for key in Key.allCases {
            let member = AnyCodingKey(key.stringValue)
            if container.contains(member), try !container.decodeNil(forKey: member) {
                modelled.insert(key.stringValue)
            }
        }
        return try container.unknownMembers(excluding: modelled)
    }
}
