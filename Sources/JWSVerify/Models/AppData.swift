/// The app metadata and signed app transaction of a notification such as `RESCIND_CONSENT`.
///
/// [appdata](https://developer.apple.com/documentation/appstoreservernotifications/appdata)
public struct AppData: Codable, Hashable, Sendable, JSONObjectDecodable, JSONObjectEncodable {
    /// The unique identifier of the app.
    public var appAppleId: Int64?

    /// The bundle identifier of the app.
    public var bundleId: String?

    /// The server environment that the notification applies to.
    public var environment: Environment?

    /// The app transaction information, as a JWS signed by the App Store.
    public var signedAppTransactionInfo: String?

    /// The JSON members this type doesn't model (and known members whose value is `null`), written back
    /// by `encode(to:)` so that decoding and re-encoding loses nothing.
    public var additionalFields: [String: JSONValue]

    /// Creates a value from its fields; every field defaults to absent.
    public init(
        appAppleId: Int64? = nil,
        bundleId: String? = nil,
        environment: Environment? = nil,
        signedAppTransactionInfo: String? = nil,
        additionalFields: [String: JSONValue] = [:]
    ) {
        self.appAppleId = appAppleId
        self.bundleId = bundleId
        self.environment = environment
        self.signedAppTransactionInfo = signedAppTransactionInfo
        self.additionalFields = additionalFields
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case appAppleId, bundleId, environment, signedAppTransactionInfo
    }

    /// The JSON keys of the modelled fields.
    static let jsonKeys: Set<String> = Set(CodingKeys.allCases.map(\.stringValue))

    /// Decodes from any `Decoder` by reading the same JSON tree as the verifier does.
    public init(from decoder: any Decoder) throws {
        try self.init(json: JSONObjectReader(decoder: decoder))
    }

    /// Decodes the members of a parsed JSON object (the verifier's path: no second parse, no Codable boxes).
    init(json reader: JSONObjectReader) throws {
        appAppleId = try reader.value("appAppleId")
        bundleId = try reader.value("bundleId")
        environment = try reader.value("environment")
        signedAppTransactionInfo = try reader.value("signedAppTransactionInfo")
        additionalFields = reader.additionalFields(known: Self.jsonKeys)
    }

    /// Encodes every present field, then ``additionalFields``.
    public func encode(to encoder: any Encoder) throws {
        var container = PayloadEncodingContainer<CodingKeys>(encoder)
        try container.encode(appAppleId, .appAppleId)
        try container.encode(bundleId, .bundleId)
        try container.encode(environment, .environment)
        try container.encode(signedAppTransactionInfo, .signedAppTransactionInfo)
        try container.encodeAdditionalFields(additionalFields)
    }

    /// The members `encode(to:)` writes, as a tree (no `Encoder`): ``additionalFields``, then every present field.
    package var jsonObject: [String: JSONValue] {
        var object = additionalFields
        if let appAppleId { object["appAppleId"] = appAppleId.jsonValue }
        if let bundleId { object["bundleId"] = bundleId.jsonValue }
        if let environment { object["environment"] = environment.jsonValue }
        if let signedAppTransactionInfo { object["signedAppTransactionInfo"] = signedAppTransactionInfo.jsonValue }
        return object
    }
}
