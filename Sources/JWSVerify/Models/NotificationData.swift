/// The `data` object of a version 2 notification: app metadata and signed transaction and renewal information.
///
/// [data](https://developer.apple.com/documentation/appstoreservernotifications/data)
public struct NotificationData: Codable, Hashable, Sendable, JSONObjectDecodable, JSONObjectEncodable {
    /// The server environment that the notification applies to.
    public var environment: Environment?

    /// The unique identifier of the app (absent in the sandbox).
    public var appAppleId: Int64?

    /// The bundle identifier of the app.
    public var bundleId: String?

    /// The build version of the app.
    public var bundleVersion: String?

    /// The transaction information, as a JWS signed by the App Store.
    public var signedTransactionInfo: String?

    /// The subscription renewal information, as a JWS signed by the App Store.
    public var signedRenewalInfo: String?

    /// The status of the auto-renewable subscription when the notification was signed.
    public var status: Status?

    /// The reason the customer requested a refund, for `CONSUMPTION_REQUEST` notifications.
    public var consumptionRequestReason: ConsumptionRequestReason?

    /// The JSON members this type doesn't model (and known members whose value is `null`), written back
    /// by `encode(to:)` so that decoding and re-encoding loses nothing.
    public var additionalFields: [String: JSONValue]

    /// Creates a value from its fields; every field defaults to absent.
    public init(
        environment: Environment? = nil,
        appAppleId: Int64? = nil,
        bundleId: String? = nil,
        bundleVersion: String? = nil,
        signedTransactionInfo: String? = nil,
        signedRenewalInfo: String? = nil,
        status: Status? = nil,
        consumptionRequestReason: ConsumptionRequestReason? = nil,
        additionalFields: [String: JSONValue] = [:]
    ) {
        self.environment = environment
        self.appAppleId = appAppleId
        self.bundleId = bundleId
        self.bundleVersion = bundleVersion
        self.signedTransactionInfo = signedTransactionInfo
        self.signedRenewalInfo = signedRenewalInfo
        self.status = status
        self.consumptionRequestReason = consumptionRequestReason
        self.additionalFields = additionalFields
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case environment, appAppleId, bundleId, bundleVersion, signedTransactionInfo, signedRenewalInfo, status,
            consumptionRequestReason
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
        bundleVersion = try reader.value("bundleVersion")
        signedTransactionInfo = try reader.value("signedTransactionInfo")
        signedRenewalInfo = try reader.value("signedRenewalInfo")
        status = try reader.value("status")
        consumptionRequestReason = try reader.value("consumptionRequestReason")
        additionalFields = reader.additionalFields(known: Self.jsonKeys)
    }

    /// Encodes every present field, then ``additionalFields``.
    public func encode(to encoder: any Encoder) throws {
        var container = PayloadEncodingContainer<CodingKeys>(encoder)
        try container.encode(environment, .environment)
        try container.encode(appAppleId, .appAppleId)
        try container.encode(bundleId, .bundleId)
        try container.encode(bundleVersion, .bundleVersion)
        try container.encode(signedTransactionInfo, .signedTransactionInfo)
        try container.encode(signedRenewalInfo, .signedRenewalInfo)
        try container.encode(status, .status)
        try container.encode(consumptionRequestReason, .consumptionRequestReason)
        try container.encodeAdditionalFields(additionalFields)
    }

    /// The members `encode(to:)` writes, as a tree (no `Encoder`): ``additionalFields``, then every present field.
    package var jsonObject: [String: JSONValue] {
        var object = additionalFields
        if let environment { object["environment"] = environment.jsonValue }
        if let appAppleId { object["appAppleId"] = appAppleId.jsonValue }
        if let bundleId { object["bundleId"] = bundleId.jsonValue }
        if let bundleVersion { object["bundleVersion"] = bundleVersion.jsonValue }
        if let signedTransactionInfo { object["signedTransactionInfo"] = signedTransactionInfo.jsonValue }
        if let signedRenewalInfo { object["signedRenewalInfo"] = signedRenewalInfo.jsonValue }
        if let status { object["status"] = status.jsonValue }
        if let consumptionRequestReason { object["consumptionRequestReason"] = consumptionRequestReason.jsonValue }
        return object
    }
}
