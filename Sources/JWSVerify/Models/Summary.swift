/// The result of a request to extend the renewal date of all eligible subscribers.
///
/// [summary](https://developer.apple.com/documentation/appstoreservernotifications/summary)
public struct Summary: Codable, Hashable, Sendable, JSONObjectDecodable, JSONObjectEncodable {
    /// The server environment that the notification applies to.
    public var environment: Environment?

    /// The unique identifier of the app (absent in the sandbox).
    public var appAppleId: Int64?

    /// The bundle identifier of the app.
    public var bundleId: String?

    /// The product identifier of the extended auto-renewable subscription.
    public var productId: String?

    /// The UUID of your renewal-date extension request.
    public var requestIdentifier: String?

    /// The storefront country codes the extension was limited to; absent when it applied to all.
    public var storefrontCountryCodes: [String]?

    /// The number of subscriptions whose renewal date was extended.
    public var succeededCount: Int64?

    /// The number of subscriptions whose renewal date couldn't be extended.
    public var failedCount: Int64?

    /// The JSON members this type doesn't model (and known members whose value is `null`), written back
    /// by `encode(to:)` so that decoding and re-encoding loses nothing.
    public var additionalFields: [String: JSONValue]

    /// Creates a value from its fields; every field defaults to absent.
    public init(
        environment: Environment? = nil,
        appAppleId: Int64? = nil,
        bundleId: String? = nil,
        productId: String? = nil,
        requestIdentifier: String? = nil,
        storefrontCountryCodes: [String]? = nil,
        succeededCount: Int64? = nil,
        failedCount: Int64? = nil,
        additionalFields: [String: JSONValue] = [:]
    ) {
        self.environment = environment
        self.appAppleId = appAppleId
        self.bundleId = bundleId
        self.productId = productId
        self.requestIdentifier = requestIdentifier
        self.storefrontCountryCodes = storefrontCountryCodes
        self.succeededCount = succeededCount
        self.failedCount = failedCount
        self.additionalFields = additionalFields
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case environment, appAppleId, bundleId, productId, requestIdentifier, storefrontCountryCodes, succeededCount,
            failedCount
    }

    /// The JSON keys of the modelled fields.
    static let jsonKeys: Set<String> = Set(CodingKeys.allCases.map(\.stringValue))

    /// Decodes from any `Decoder` by reading the same JSON tree as the verifier does.
    public init(from decoder: any Decoder) throws {
        try self.init(json: JSONObjectReader(decoder: decoder))
    }

    /// Decodes the members of a parsed JSON object (the verifier's path: no second parse, no Codable boxes).
    init(json reader: JSONObjectReader) throws {
        environment = try reader.value("environment")
        appAppleId = try reader.value("appAppleId")
        bundleId = try reader.value("bundleId")
        productId = try reader.value("productId")
        requestIdentifier = try reader.value("requestIdentifier")
        storefrontCountryCodes = try reader.value("storefrontCountryCodes")
        succeededCount = try reader.value("succeededCount")
        failedCount = try reader.value("failedCount")
        additionalFields = reader.additionalFields(known: Self.jsonKeys)
    }

    /// Encodes every present field, then ``additionalFields``.
    public func encode(to encoder: any Encoder) throws {
        var container = PayloadEncodingContainer<CodingKeys>(encoder)
        try container.encode(environment, .environment)
        try container.encode(appAppleId, .appAppleId)
        try container.encode(bundleId, .bundleId)
        try container.encode(productId, .productId)
        try container.encode(requestIdentifier, .requestIdentifier)
        try container.encode(storefrontCountryCodes, .storefrontCountryCodes)
        try container.encode(succeededCount, .succeededCount)
        try container.encode(failedCount, .failedCount)
        try container.encodeAdditionalFields(additionalFields)
    }

    /// The members `encode(to:)` writes, as a tree (no `Encoder`): ``additionalFields``, then every present field.
    package var jsonObject: [String: JSONValue] {
        var object = additionalFields
        if let environment { object["environment"] = environment.jsonValue }
        if let appAppleId { object["appAppleId"] = appAppleId.jsonValue }
        if let bundleId { object["bundleId"] = bundleId.jsonValue }
        if let productId { object["productId"] = productId.jsonValue }
        if let requestIdentifier { object["requestIdentifier"] = requestIdentifier.jsonValue }
        if let storefrontCountryCodes { object["storefrontCountryCodes"] = storefrontCountryCodes.jsonValue }
        if let succeededCount { object["succeededCount"] = succeededCount.jsonValue }
        if let failedCount { object["failedCount"] = failedCount.jsonValue }
        return object
    }
}
