/// The commitment of a transaction of a subscription with a commitment (transaction `commitmentInfo`).
///
/// [transactioncommitmentinfo](https://developer.apple.com/documentation/appstoreserverapi/transactioncommitmentinfo)
public struct TransactionCommitmentInfo: Codable, Hashable, Sendable, JSONObjectDecodable, JSONObjectEncodable {
    /// The number of the current billing period within the commitment.
    public var billingPeriodNumber: Int32?

    /// When the commitment expires.
    public var commitmentExpiresDate: Timestamp?

    /// The price of the whole commitment, in milliunits.
    public var commitmentPrice: Int64?

    /// The number of billing periods in the commitment.
    public var totalBillingPeriods: Int32?

    /// The JSON members this type doesn't model (and known members whose value is `null`), written back
    /// by `encode(to:)` so that decoding and re-encoding loses nothing.
    public var additionalFields: [String: JSONValue]

    /// Creates a value from its fields; every field defaults to absent.
    public init(
        billingPeriodNumber: Int32? = nil,
        commitmentExpiresDate: Timestamp? = nil,
        commitmentPrice: Int64? = nil,
        totalBillingPeriods: Int32? = nil,
        additionalFields: [String: JSONValue] = [:]
    ) {
        self.billingPeriodNumber = billingPeriodNumber
        self.commitmentExpiresDate = commitmentExpiresDate
        self.commitmentPrice = commitmentPrice
        self.totalBillingPeriods = totalBillingPeriods
        self.additionalFields = additionalFields
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case billingPeriodNumber, commitmentExpiresDate, commitmentPrice, totalBillingPeriods
    }

    /// The JSON keys of the modelled fields.
    static let jsonKeys: Set<String> = Set(CodingKeys.allCases.map(\.stringValue))

    /// Decodes from any `Decoder` by reading the same JSON tree as the verifier does.
    public init(from decoder: any Decoder) throws {
        try self.init(json: JSONObjectReader(decoder: decoder))
    }

    /// Decodes the members of a parsed JSON object (the verifier's path: no second parse, no Codable boxes).
    init(json reader: JSONObjectReader) throws {
        billingPeriodNumber = try reader.value("billingPeriodNumber")
        commitmentExpiresDate = try reader.value("commitmentExpiresDate")
        commitmentPrice = try reader.value("commitmentPrice")
        totalBillingPeriods = try reader.value("totalBillingPeriods")
        additionalFields = reader.additionalFields(known: Self.jsonKeys)
    }

    /// Encodes every present field, then ``additionalFields``.
    public func encode(to encoder: any Encoder) throws {
        var container = PayloadEncodingContainer<CodingKeys>(encoder)
        try container.encode(billingPeriodNumber, .billingPeriodNumber)
        try container.encode(commitmentExpiresDate, .commitmentExpiresDate)
        try container.encode(commitmentPrice, .commitmentPrice)
        try container.encode(totalBillingPeriods, .totalBillingPeriods)
        try container.encodeAdditionalFields(additionalFields)
    }

    /// The members `encode(to:)` writes, as a tree (no `Encoder`): ``additionalFields``, then every present field.
    package var jsonObject: [String: JSONValue] {
        var object = additionalFields
        if let billingPeriodNumber { object["billingPeriodNumber"] = billingPeriodNumber.jsonValue }
        if let commitmentExpiresDate { object["commitmentExpiresDate"] = commitmentExpiresDate.jsonValue }
        if let commitmentPrice { object["commitmentPrice"] = commitmentPrice.jsonValue }
        if let totalBillingPeriods { object["totalBillingPeriods"] = totalBillingPeriods.jsonValue }
        return object
    }
}
