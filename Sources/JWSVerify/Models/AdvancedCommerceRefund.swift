/// A refund of an Advanced Commerce item.
///
/// [advancedcommercerefund](https://developer.apple.com/documentation/appstoreserverapi/advancedcommercerefund)
public struct AdvancedCommerceRefund: Codable, Hashable, Sendable, JSONObjectDecodable, JSONObjectEncodable {
    /// The refunded amount, in milliunits.
    public var refundAmount: Int64?

    /// When the refund happened.
    public var refundDate: Timestamp?

    /// The reason for the refund.
    public var refundReason: AdvancedCommerceRefundReason?

    /// The type of the refund.
    public var refundType: AdvancedCommerceRefundType?

    /// The JSON members this type doesn't model (and known members whose value is `null`), written back
    /// by `encode(to:)` so that decoding and re-encoding loses nothing.
    public var additionalFields: [String: JSONValue]

    /// Creates a value from its fields; every field defaults to absent.
    public init(
        refundAmount: Int64? = nil,
        refundDate: Timestamp? = nil,
        refundReason: AdvancedCommerceRefundReason? = nil,
        refundType: AdvancedCommerceRefundType? = nil,
        additionalFields: [String: JSONValue] = [:]
    ) {
        self.refundAmount = refundAmount
        self.refundDate = refundDate
        self.refundReason = refundReason
        self.refundType = refundType
        self.additionalFields = additionalFields
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case refundAmount, refundDate, refundReason, refundType
    }

    /// The JSON keys of the modelled fields.
    static let jsonKeys: Set<String> = Set(CodingKeys.allCases.map(\.stringValue))

    /// Decodes from any `Decoder` by reading the same JSON tree as the verifier does.
    public init(from decoder: any Decoder) throws {
        try self.init(json: JSONObjectReader(decoder: decoder))
    }

    /// Decodes the members of a parsed JSON object (the verifier's path: no second parse, no Codable boxes).
    init(json reader: JSONObjectReader) throws {
        refundAmount = try reader.value("refundAmount")
        refundDate = try reader.value("refundDate")
        refundReason = try reader.value("refundReason")
        refundType = try reader.value("refundType")
        additionalFields = reader.additionalFields(known: Self.jsonKeys)
    }

    /// Encodes every present field, then ``additionalFields``.
    public func encode(to encoder: any Encoder) throws {
        var container = PayloadEncodingContainer<CodingKeys>(encoder)
        try container.encode(refundAmount, .refundAmount)
        try container.encode(refundDate, .refundDate)
        try container.encode(refundReason, .refundReason)
        try container.encode(refundType, .refundType)
        try container.encodeAdditionalFields(additionalFields)
    }

    /// The members `encode(to:)` writes, as a tree (no `Encoder`): ``additionalFields``, then every present field.
    package var jsonObject: [String: JSONValue] {
        var object = additionalFields
        if let refundAmount { object["refundAmount"] = refundAmount.jsonValue }
        if let refundDate { object["refundDate"] = refundDate.jsonValue }
        if let refundReason { object["refundReason"] = refundReason.jsonValue }
        if let refundType { object["refundType"] = refundType.jsonValue }
        return object
    }
}
