/// The decoded payload of a version 2 App Store Server Notification.
///
/// <https://developer.apple.com/documentation/appstoreservernotifications/responsebodyv2decodedpayload>
public struct ResponseBodyV2DecodedPayload: Codable, Hashable, Sendable, JSONObjectDecodable, JSONObjectEncodable {
    /// The event that caused the notification.
    public var notificationType: NotificationTypeV2?

    /// Details about the event, for some notification types.
    public var subtype: Subtype?

    /// The unique identifier of the notification.
    public var notificationUUID: String?

    /// The app metadata and signed transaction and renewal information (JSON key `data`).
    public var data: NotificationData?

    /// The App Store Server Notifications version, `"2.0"`.
    public var version: String?

    /// When the App Store signed the notification.
    public var signedDate: Timestamp?

    /// The result of a renewal-date extension for all eligible subscribers.
    public var summary: Summary?

    /// The external purchase token, for `EXTERNAL_PURCHASE_TOKEN` notifications.
    public var externalPurchaseToken: ExternalPurchaseToken?

    /// The app metadata and signed app transaction, for `RESCIND_CONSENT` notifications.
    public var appData: AppData?

    /// The JSON members this type doesn't model (and known members whose value is `null`), written back
    /// by `encode(to:)` so that decoding and re-encoding loses nothing.
    public var additionalFields: [String: JSONValue]

    /// Creates a value from its fields; every field defaults to absent.
    public init(
        notificationType: NotificationTypeV2? = nil,
        subtype: Subtype? = nil,
        notificationUUID: String? = nil,
        data: NotificationData? = nil,
        version: String? = nil,
        signedDate: Timestamp? = nil,
        summary: Summary? = nil,
        externalPurchaseToken: ExternalPurchaseToken? = nil,
        appData: AppData? = nil,
        additionalFields: [String: JSONValue] = [:]
    ) {
        self.notificationType = notificationType
        self.subtype = subtype
        self.notificationUUID = notificationUUID
        self.data = data
        self.version = version
        self.signedDate = signedDate
        self.summary = summary
        self.externalPurchaseToken = externalPurchaseToken
        self.appData = appData
        self.additionalFields = additionalFields
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case notificationType, subtype, notificationUUID, data, version, signedDate, summary, externalPurchaseToken,
            appData
    }

    /// The JSON keys of the modelled fields.
    static let jsonKeys: Set<String> = Set(CodingKeys.allCases.map(\.stringValue))

    /// Decodes from any `Decoder` by reading the same JSON tree as the verifier does.
    public init(from decoder: any Decoder) throws {
        try self.init(json: JSONObjectReader(decoder: decoder))
    }

    /// Decodes the members of a parsed JSON object (the verifier's path: no second parse, no Codable boxes).
    init(json reader: JSONObjectReader) throws {
        notificationType = try reader.value("notificationType")
        subtype = try reader.value("subtype")
        notificationUUID = try reader.value("notificationUUID")
        data = try reader.value("data")
        version = try reader.value("version")
        signedDate = try reader.value("signedDate")
        summary = try reader.value("summary")
        externalPurchaseToken = try reader.value("externalPurchaseToken")
        appData = try reader.value("appData")
        additionalFields = reader.additionalFields(known: Self.jsonKeys)
    }

    /// Encodes every present field, then ``additionalFields``.
    public func encode(to encoder: any Encoder) throws {
        var container = PayloadEncodingContainer<CodingKeys>(encoder)
        try container.encode(notificationType, .notificationType)
        try container.encode(subtype, .subtype)
        try container.encode(notificationUUID, .notificationUUID)
        try container.encode(data, .data)
        try container.encode(version, .version)
        try container.encode(signedDate, .signedDate)
        try container.encode(summary, .summary)
        try container.encode(externalPurchaseToken, .externalPurchaseToken)
        try container.encode(appData, .appData)
        try container.encodeAdditionalFields(additionalFields)
    }

    /// The members `encode(to:)` writes, as a tree (no `Encoder`): ``additionalFields``, then every present field.
    package var jsonObject: [String: JSONValue] {
        var object = additionalFields
        if let notificationType { object["notificationType"] = notificationType.jsonValue }
        if let subtype { object["subtype"] = subtype.jsonValue }
        if let notificationUUID { object["notificationUUID"] = notificationUUID.jsonValue }
        if let data { object["data"] = data.jsonValue }
        if let version { object["version"] = version.jsonValue }
        if let signedDate { object["signedDate"] = signedDate.jsonValue }
        if let summary { object["summary"] = summary.jsonValue }
        if let externalPurchaseToken { object["externalPurchaseToken"] = externalPurchaseToken.jsonValue }
        if let appData { object["appData"] = appData.jsonValue }
        return object
    }
}
