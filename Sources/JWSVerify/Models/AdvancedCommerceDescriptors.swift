/// The display name and description of an Advanced Commerce product.
///
/// <https://developer.apple.com/documentation/appstoreserverapi/advancedcommercedescriptors>
public struct AdvancedCommerceDescriptors: Codable, Hashable, Sendable, JSONObjectDecodable, JSONObjectEncodable {
    /// The description of the product.
    public var description: String?

    /// The display name of the product.
    public var displayName: String?

    /// The JSON members this type doesn't model (and known members whose value is `null`), written back
    /// by `encode(to:)` so that decoding and re-encoding loses nothing.
    public var additionalFields: [String: JSONValue]

    /// Creates a value from its fields; every field defaults to absent.
    public init(
        description: String? = nil,
        displayName: String? = nil,
        additionalFields: [String: JSONValue] = [:]
    ) {
        self.description = description
        self.displayName = displayName
        self.additionalFields = additionalFields
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case description, displayName
    }

    /// The JSON keys of the modelled fields.
    static let jsonKeys: Set<String> = Set(CodingKeys.allCases.map(\.stringValue))

    /// Decodes from any `Decoder` by reading the same JSON tree as the verifier does.
    public init(from decoder: any Decoder) throws {
        try self.init(json: JSONObjectReader(decoder: decoder))
    }

    /// Decodes the members of a parsed JSON object (the verifier's path: no second parse, no Codable boxes).
    init(json reader: JSONObjectReader) throws {
        description = try reader.value("description")
        displayName = try reader.value("displayName")
        additionalFields = reader.additionalFields(known: Self.jsonKeys)
    }

    /// Encodes every present field, then ``additionalFields``.
    public func encode(to encoder: any Encoder) throws {
        var container = PayloadEncodingContainer<CodingKeys>(encoder)
        try container.encode(description, .description)
        try container.encode(displayName, .displayName)
        try container.encodeAdditionalFields(additionalFields)
    }

    /// The members `encode(to:)` writes, as a tree (no `Encoder`): ``additionalFields``, then every present field.
    package var jsonObject: [String: JSONValue] {
        var object = additionalFields
        if let description { object["description"] = description.jsonValue }
        if let displayName { object["displayName"] = displayName.jsonValue }
        return object
    }
}
