/// An external purchase token, from an `EXTERNAL_PURCHASE_TOKEN` notification.
///
/// [externalpurchasetoken](https://developer.apple.com/documentation/appstoreservernotifications/externalpurchasetoken)
public struct ExternalPurchaseToken: Codable, Hashable, Sendable, JSONObjectDecodable, JSONObjectEncodable {
    /// The unique identifier of the token.
    public var externalPurchaseId: String?

    /// When the system created the token.
    public var tokenCreationDate: Timestamp?

    /// The app Apple ID for which the system generated the token.
    public var appAppleId: Int64?

    /// The bundle identifier of the app for which the system generated the token.
    public var bundleId: String?

    /// When the token expires (custom link tokens only).
    public var tokenExpirationDate: Timestamp?

    /// The custom link token type (custom link tokens only).
    public var tokenType: TokenType?

    /// The JSON members this type doesn't model (and known members whose value is `null`), written back
    /// by `encode(to:)` so that decoding and re-encoding loses nothing.
    public var additionalFields: [String: JSONValue]

    /// Creates a value from its fields; every field defaults to absent.
    public init(
        externalPurchaseId: String? = nil,
        tokenCreationDate: Timestamp? = nil,
        appAppleId: Int64? = nil,
        bundleId: String? = nil,
        tokenExpirationDate: Timestamp? = nil,
        tokenType: TokenType? = nil,
        additionalFields: [String: JSONValue] = [:]
    ) {
        self.externalPurchaseId = externalPurchaseId
        self.tokenCreationDate = tokenCreationDate
        self.appAppleId = appAppleId
        self.bundleId = bundleId
        self.tokenExpirationDate = tokenExpirationDate
        self.tokenType = tokenType
        self.additionalFields = additionalFields
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case externalPurchaseId, tokenCreationDate, appAppleId, bundleId, tokenExpirationDate, tokenType
    }

    /// The JSON keys of the modelled fields.
    static let jsonKeys: Set<String> = Set(CodingKeys.allCases.map(\.stringValue))

    /// Decodes from any `Decoder` by reading the same JSON tree as the verifier does.
    public init(from decoder: any Decoder) throws {
        try self.init(json: JSONObjectReader(decoder: decoder))
    }

    /// Decodes the members of a parsed JSON object (the verifier's path: no second parse, no Codable boxes).
    init(json reader: JSONObjectReader) throws {
        externalPurchaseId = try reader.value("externalPurchaseId")
        tokenCreationDate = try reader.value("tokenCreationDate")
        appAppleId = try reader.value("appAppleId")
        bundleId = try reader.value("bundleId")
        tokenExpirationDate = try reader.value("tokenExpirationDate")
        tokenType = try reader.value("tokenType")
        additionalFields = reader.additionalFields(known: Self.jsonKeys)
    }

    /// Encodes every present field, then ``additionalFields``.
    public func encode(to encoder: any Encoder) throws {
        var container = PayloadEncodingContainer<CodingKeys>(encoder)
        try container.encode(externalPurchaseId, .externalPurchaseId)
        try container.encode(tokenCreationDate, .tokenCreationDate)
        try container.encode(appAppleId, .appAppleId)
        try container.encode(bundleId, .bundleId)
        try container.encode(tokenExpirationDate, .tokenExpirationDate)
        try container.encode(tokenType, .tokenType)
        try container.encodeAdditionalFields(additionalFields)
    }

    /// The members `encode(to:)` writes, as a tree (no `Encoder`): ``additionalFields``, then every present field.
    package var jsonObject: [String: JSONValue] {
        var object = additionalFields
        if let externalPurchaseId { object["externalPurchaseId"] = externalPurchaseId.jsonValue }
        if let tokenCreationDate { object["tokenCreationDate"] = tokenCreationDate.jsonValue }
        if let appAppleId { object["appAppleId"] = appAppleId.jsonValue }
        if let bundleId { object["bundleId"] = bundleId.jsonValue }
        if let tokenExpirationDate { object["tokenExpirationDate"] = tokenExpirationDate.jsonValue }
        if let tokenType { object["tokenType"] = tokenType.jsonValue }
        return object
    }
}
