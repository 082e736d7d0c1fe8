/// A refund of an Advanced Commerce item.
///
/// [advancedcommercerefund](https://developer.apple.com/documentation/appstoreserverapi/advancedcommercerefund)
public struct AdvancedCommerceRefund: Codable, Hashable, Sendable {
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

    public init(from decoder: any Decoder) throws {
        let container = try PayloadDecodingContainer<CodingKeys>(decoder)
        refundAmount = try container.decode(.refundAmount)
        refundDate = try container.decode(.refundDate)
        refundReason = try container.decode(.refundReason)
        refundType = try container.decode(.refundType)
        additionalFields = try container.additionalFields()
    }

    public func encode(to encoder: any Encoder) throws {
        var container = PayloadEncodingContainer<CodingKeys>(encoder)
        try container.encode(refundAmount, .refundAmount)
        try container.encode(refundDate, .refundDate)
        try container.encode(refundReason, .refundReason)
        try container.encode(refundType, .refundType)
        try container.encodeAdditionalFields(additionalFields)
    }
}
