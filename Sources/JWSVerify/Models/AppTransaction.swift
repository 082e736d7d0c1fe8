/// A decoded app transaction: the customer's purchase of the app, signed by the App Store.
///
/// <https://developer.apple.com/documentation/appstoreserverapi/jwsapptransactiondecodedpayload>
public struct AppTransaction: Codable, Hashable, Sendable, JSONObjectDecodable, JSONObjectEncodable {
    /// The server environment that signed the app transaction.
    public var receiptType: Environment?

    /// The unique identifier the App Store uses for the app.
    public var appAppleId: Int64?

    /// The bundle identifier that the app transaction applies to.
    public var bundleId: String?

    /// The app version that the app transaction applies to.
    public var applicationVersion: String?

    /// The number the App Store uses to identify the app version.
    public var versionExternalIdentifier: Int64?

    /// When the App Store signed the app transaction.
    public var receiptCreationDate: Timestamp?

    /// When the customer originally purchased the app.
    public var originalPurchaseDate: Timestamp?

    /// The app version the customer originally purchased.
    public var originalApplicationVersion: String?

    /// The Base64 value that proves the app transaction belongs to the device.
    public var deviceVerification: String?

    /// The UUID used to compute `deviceVerification`.
    public var deviceVerificationNonce: String?

    /// When the customer pre-ordered the app, if they did.
    public var preorderDate: Timestamp?

    /// The unique identifier of the app download transaction.
    public var appTransactionId: String?

    /// The platform on which the customer originally purchased the app.
    public var originalPlatform: PurchasePlatform?

    /// When the app requested the app transaction (present in StoreKit and Xcode app transactions).
    public var requestDate: Timestamp?

    /// The JSON members this type doesn't model (and known members whose value is `null`), written back
    /// by `encode(to:)` so that decoding and re-encoding loses nothing.
    public var additionalFields: [String: JSONValue]

    /// Creates a value from its fields; every field defaults to absent.
    public init(
        receiptType: Environment? = nil,
        appAppleId: Int64? = nil,
        bundleId: String? = nil,
        applicationVersion: String? = nil,
        versionExternalIdentifier: Int64? = nil,
        receiptCreationDate: Timestamp? = nil,
        originalPurchaseDate: Timestamp? = nil,
        originalApplicationVersion: String? = nil,
        deviceVerification: String? = nil,
        deviceVerificationNonce: String? = nil,
        preorderDate: Timestamp? = nil,
        appTransactionId: String? = nil,
        originalPlatform: PurchasePlatform? = nil,
        requestDate: Timestamp? = nil,
        additionalFields: [String: JSONValue] = [:]
    ) {
        self.receiptType = receiptType
        self.appAppleId = appAppleId
        self.bundleId = bundleId
        self.applicationVersion = applicationVersion
        self.versionExternalIdentifier = versionExternalIdentifier
        self.receiptCreationDate = receiptCreationDate
        self.originalPurchaseDate = originalPurchaseDate
        self.originalApplicationVersion = originalApplicationVersion
        self.deviceVerification = deviceVerification
        self.deviceVerificationNonce = deviceVerificationNonce
        self.preorderDate = preorderDate
        self.appTransactionId = appTransactionId
        self.originalPlatform = originalPlatform
        self.requestDate = requestDate
        self.additionalFields = additionalFields
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case receiptType, appAppleId, bundleId, applicationVersion, versionExternalIdentifier, receiptCreationDate,
            originalPurchaseDate, originalApplicationVersion, deviceVerification, deviceVerificationNonce,
            preorderDate, appTransactionId, originalPlatform, requestDate
    }

    /// The JSON keys of the modelled fields.
    static let jsonKeys: Set<String> = Set(CodingKeys.allCases.map(\.stringValue))

    /// Decodes from any `Decoder` by reading the same JSON tree as the verifier does.
    public init(from decoder: any Decoder) throws {
        try self.init(json: JSONObjectReader(decoder: decoder))
    }

    /// Decodes the members of a parsed JSON object (the verifier's path: no second parse, no Codable boxes).
    init(json reader: JSONObjectReader) throws {
        receiptType = try reader.value("receiptType")
        appAppleId = try reader.value("appAppleId")
        bundleId = try reader.value("bundleId")
        applicationVersion = try reader.value("applicationVersion")
        versionExternalIdentifier = try reader.value("versionExternalIdentifier")
        receiptCreationDate = try reader.value("receiptCreationDate")
        originalPurchaseDate = try reader.value("originalPurchaseDate")
        originalApplicationVersion = try reader.value("originalApplicationVersion")
        deviceVerification = try reader.value("deviceVerification")
        deviceVerificationNonce = try reader.value("deviceVerificationNonce")
        preorderDate = try reader.value("preorderDate")
        appTransactionId = try reader.value("appTransactionId")
        originalPlatform = try reader.value("originalPlatform")
        requestDate = try reader.value("requestDate")
        additionalFields = reader.additionalFields(known: Self.jsonKeys)
    }

    /// Encodes every present field, then ``additionalFields``.
    public func encode(to encoder: any Encoder) throws {
        var container = PayloadEncodingContainer<CodingKeys>(encoder)
        try container.encode(receiptType, .receiptType)
        try container.encode(appAppleId, .appAppleId)
        try container.encode(bundleId, .bundleId)
        try container.encode(applicationVersion, .applicationVersion)
        try container.encode(versionExternalIdentifier, .versionExternalIdentifier)
        try container.encode(receiptCreationDate, .receiptCreationDate)
        try container.encode(originalPurchaseDate, .originalPurchaseDate)
        try container.encode(originalApplicationVersion, .originalApplicationVersion)
        try container.encode(deviceVerification, .deviceVerification)
        try container.encode(deviceVerificationNonce, .deviceVerificationNonce)
        try container.encode(preorderDate, .preorderDate)
        try container.encode(appTransactionId, .appTransactionId)
        try container.encode(originalPlatform, .originalPlatform)
        try container.encode(requestDate, .requestDate)
        try container.encodeAdditionalFields(additionalFields)
    }

    /// The members `encode(to:)` writes, as a tree (no `Encoder`): ``additionalFields``, then every present field.
    package var jsonObject: [String: JSONValue] {
        var object = additionalFields
        if let receiptType { object["receiptType"] = receiptType.jsonValue }
        if let appAppleId { object["appAppleId"] = appAppleId.jsonValue }
        if let bundleId { object["bundleId"] = bundleId.jsonValue }
        if let applicationVersion { object["applicationVersion"] = applicationVersion.jsonValue }
        if let versionExternalIdentifier { object["versionExternalIdentifier"] = versionExternalIdentifier.jsonValue }
        if let receiptCreationDate { object["receiptCreationDate"] = receiptCreationDate.jsonValue }
        if let originalPurchaseDate { object["originalPurchaseDate"] = originalPurchaseDate.jsonValue }
        if let value = originalApplicationVersion { object["originalApplicationVersion"] = value.jsonValue }
        if let deviceVerification { object["deviceVerification"] = deviceVerification.jsonValue }
        if let deviceVerificationNonce { object["deviceVerificationNonce"] = deviceVerificationNonce.jsonValue }
        if let preorderDate { object["preorderDate"] = preorderDate.jsonValue }
        if let appTransactionId { object["appTransactionId"] = appTransactionId.jsonValue }
        if let originalPlatform { object["originalPlatform"] = originalPlatform.jsonValue }
        if let requestDate { object["requestDate"] = requestDate.jsonValue }
        return object
    }
}
