/// The decoded body of a Retention Messaging real-time request for a retention message.
///
/// <https://developer.apple.com/documentation/retentionmessaging/decodedrealtimerequestbody>
public struct DecodedRealtimeRequestBody: Codable, Hashable, Sendable, JSONObjectDecodable, JSONObjectEncodable {
    /// The original transaction identifier of the subscription.
    public var originalTransactionId: String?

    /// The unique identifier of the app.
    public var appAppleId: Int64?

    /// The product identifier of the auto-renewable subscription.
    public var productId: String?

    /// The locale of the customer's device, such as `en-US`.
    public var userLocale: String?

    /// The UUID the App Store created for this request.
    public var requestIdentifier: String?

    /// The server environment of the request.
    public var environment: Environment?

    /// When the App Store signed the request.
    public var signedDate: Timestamp?

    /// The JSON members this type doesn't model (and known members whose value is `null`), written back
    /// by `encode(to:)` so that decoding and re-encoding loses nothing.
    public var additionalFields: [String: JSONValue]

    /// Creates a value from its fields; every field defaults to absent.
    public init(
        originalTransactionId: String? = nil,
        appAppleId: Int64? = nil,
        productId: String? = nil,
        userLocale: String? = nil,
        requestIdentifier: String? = nil,
        environment: Environment? = nil,
        signedDate: Timestamp? = nil,
        additionalFields: [String: JSONValue] = [:]
    ) {
        self.originalTransactionId = originalTransactionId
        self.appAppleId = appAppleId
        self.productId = productId
        self.userLocale = userLocale
        self.requestIdentifier = requestIdentifier
        self.environment = environment
        self.signedDate = signedDate
        self.additionalFields = additionalFields
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case originalTransactionId, appAppleId, productId, userLocale, requestIdentifier, environment, signedDate
    }

    /// The JSON keys of the modelled fields.
    static let jsonKeys: Set<String> = Set(CodingKeys.allCases.map(\.stringValue))

    /// Decodes from any `Decoder` by reading the same JSON tree as the verifier does.
    public init(from decoder: any Decoder) throws {
        try self.init(json: JSONObjectReader(decoder: decoder))
    }

    /// Decodes the members of a parsed JSON object (the verifier's path: no second parse, no Codable boxes).
    init(json reader: JSONObjectReader) throws {
        originalTransactionId = try reader.value("originalTransactionId")
        appAppleId = try reader.value("appAppleId")
        productId = try reader.value("productId")
        userLocale = try reader.value("userLocale")
        requestIdentifier = try reader.value("requestIdentifier")
        environment = try reader.value("environment")
        signedDate = try reader.value("signedDate")
        additionalFields = reader.additionalFields(known: Self.jsonKeys)
    }

    /// Encodes every present field, then ``additionalFields``.
    public func encode(to encoder: any Encoder) throws {
        var container = PayloadEncodingContainer<CodingKeys>(encoder)
        try container.encode(originalTransactionId, .originalTransactionId)
        try container.encode(appAppleId, .appAppleId)
        try container.encode(productId, .productId)
        try container.encode(userLocale, .userLocale)
        try container.encode(requestIdentifier, .requestIdentifier)
        try container.encode(environment, .environment)
        try container.encode(signedDate, .signedDate)
        try container.encodeAdditionalFields(additionalFields)
    }

    /// The members `encode(to:)` writes, as a tree (no `Encoder`): ``additionalFields``, then every present field.
    package var jsonObject: [String: JSONValue] {
        var object = additionalFields
        if let originalTransactionId { object["originalTransactionId"] = originalTransactionId.jsonValue }
        if let appAppleId { object["appAppleId"] = appAppleId.jsonValue }
        if let productId { object["productId"] = productId.jsonValue }
        if let userLocale { object["userLocale"] = userLocale.jsonValue }
        if let requestIdentifier { object["requestIdentifier"] = requestIdentifier.jsonValue }
        if let environment { object["environment"] = environment.jsonValue }
        if let signedDate { object["signedDate"] = signedDate.jsonValue }
        return object
    }
}
