/// The renewal of a subscription with a commitment (renewal information `commitmentInfo`).
///
/// [renewalcommitmentinfo](https://developer.apple.com/documentation/appstoreserverapi/renewalcommitmentinfo)
public struct RenewalCommitmentInfo: Codable, Hashable, Sendable, JSONObjectDecodable, JSONObjectEncodable {
    /// The product identifier that renews after the commitment.
    public var commitmentAutoRenewProductId: String?

    /// Whether the commitment renews automatically.
    public var commitmentAutoRenewStatus: AutoRenewStatus?

    /// How the renewed commitment will be billed.
    public var commitmentRenewalBillingPlanType: RenewalBillingPlanType?

    /// When the commitment renews.
    public var commitmentRenewalDate: Timestamp?

    /// The renewal price of the commitment, in milliunits.
    public var commitmentRenewalPrice: Int64?

    /// The JSON members this type doesn't model (and known members whose value is `null`), written back
    /// by `encode(to:)` so that decoding and re-encoding loses nothing.
    public var additionalFields: [String: JSONValue]

    /// Creates a value from its fields; every field defaults to absent.
    public init(
        commitmentAutoRenewProductId: String? = nil,
        commitmentAutoRenewStatus: AutoRenewStatus? = nil,
        commitmentRenewalBillingPlanType: RenewalBillingPlanType? = nil,
        commitmentRenewalDate: Timestamp? = nil,
        commitmentRenewalPrice: Int64? = nil,
        additionalFields: [String: JSONValue] = [:]
    ) {
        self.commitmentAutoRenewProductId = commitmentAutoRenewProductId
        self.commitmentAutoRenewStatus = commitmentAutoRenewStatus
        self.commitmentRenewalBillingPlanType = commitmentRenewalBillingPlanType
        self.commitmentRenewalDate = commitmentRenewalDate
        self.commitmentRenewalPrice = commitmentRenewalPrice
        self.additionalFields = additionalFields
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case commitmentAutoRenewProductId, commitmentAutoRenewStatus, commitmentRenewalBillingPlanType,
            commitmentRenewalDate, commitmentRenewalPrice
    }

    /// The JSON keys of the modelled fields.
    static let jsonKeys: Set<String> = Set(CodingKeys.allCases.map(\.stringValue))

    /// Decodes from any `Decoder` by reading the same JSON tree as the verifier does.
    public init(from decoder: any Decoder) throws {
        try self.init(json: JSONObjectReader(decoder: decoder))
    }

    /// Decodes the members of a parsed JSON object (the verifier's path: no second parse, no Codable boxes).
    init(json reader: JSONObjectReader) throws {
        commitmentAutoRenewProductId = try reader.value("commitmentAutoRenewProductId")
        commitmentAutoRenewStatus = try reader.value("commitmentAutoRenewStatus")
        commitmentRenewalBillingPlanType = try reader.value("commitmentRenewalBillingPlanType")
        commitmentRenewalDate = try reader.value("commitmentRenewalDate")
        commitmentRenewalPrice = try reader.value("commitmentRenewalPrice")
        additionalFields = reader.additionalFields(known: Self.jsonKeys)
    }

    /// Encodes every present field, then ``additionalFields``.
    public func encode(to encoder: any Encoder) throws {
        var container = PayloadEncodingContainer<CodingKeys>(encoder)
        try container.encode(commitmentAutoRenewProductId, .commitmentAutoRenewProductId)
        try container.encode(commitmentAutoRenewStatus, .commitmentAutoRenewStatus)
        try container.encode(commitmentRenewalBillingPlanType, .commitmentRenewalBillingPlanType)
        try container.encode(commitmentRenewalDate, .commitmentRenewalDate)
        try container.encode(commitmentRenewalPrice, .commitmentRenewalPrice)
        try container.encodeAdditionalFields(additionalFields)
    }

    /// The members `encode(to:)` writes, as a tree (no `Encoder`): ``additionalFields``, then every present field.
    package var jsonObject: [String: JSONValue] {
        var object = additionalFields
        if let value = commitmentAutoRenewProductId { object["commitmentAutoRenewProductId"] = value.jsonValue }
        if let commitmentAutoRenewStatus { object["commitmentAutoRenewStatus"] = commitmentAutoRenewStatus.jsonValue }
        if let value = commitmentRenewalBillingPlanType { object["commitmentRenewalBillingPlanType"] = value.jsonValue }
        if let commitmentRenewalDate { object["commitmentRenewalDate"] = commitmentRenewalDate.jsonValue }
        if let commitmentRenewalPrice { object["commitmentRenewalPrice"] = commitmentRenewalPrice.jsonValue }
        return object
    }
}
