/// Transaction information present only for Advanced Commerce API SKUs.
///
/// <https://developer.apple.com/documentation/appstoreserverapi/advancedcommercetransactioninfo>
public struct AdvancedCommerceTransactionInfo: Codable, Hashable, Sendable {
    /// The display name and description of the purchase.
    public var descriptors: AdvancedCommerceDescriptors?

    /// The estimated tax, in milliunits.
    public var estimatedTax: Int64?

    /// The items of the purchase.
    public var items: [AdvancedCommerceTransactionItem]?

    /// The duration of one subscription period.
    public var period: AdvancedCommercePeriod?

    /// The reference identifier of the request that created the purchase.
    public var requestReferenceId: String?

    /// The tax code of the purchase.
    public var taxCode: String?

    /// The price without tax, in milliunits.
    public var taxExclusivePrice: Int64?

    /// The tax rate, as a decimal string such as `0.15`.
    public var taxRate: String?

    /// The JSON members this type doesn't model (and known members whose value is `null`), written back
    /// by `encode(to:)` so that decoding and re-encoding loses nothing.
    public var additionalFields: [String: JSONValue]

    /// Creates a value from its fields; every field defaults to absent.
    public init(
        descriptors: AdvancedCommerceDescriptors? = nil,
        estimatedTax: Int64? = nil,
        items: [AdvancedCommerceTransactionItem]? = nil,
        period: AdvancedCommercePeriod? = nil,
        requestReferenceId: String? = nil,
        taxCode: String? = nil,
        taxExclusivePrice: Int64? = nil,
        taxRate: String? = nil,
        additionalFields: [String: JSONValue] = [:]
    ) {
        self.descriptors = descriptors
        self.estimatedTax = estimatedTax
        self.items = items
        self.period = period
        self.requestReferenceId = requestReferenceId
        self.taxCode = taxCode
        self.taxExclusivePrice = taxExclusivePrice
        self.taxRate = taxRate
        self.additionalFields = additionalFields
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case descriptors, estimatedTax, items, period, requestReferenceId, taxCode, taxExclusivePrice, taxRate
    }

    public init(from decoder: any Decoder) throws {
        let container = try PayloadDecodingContainer<CodingKeys>(decoder)
        descriptors = try container.decode(.descriptors)
        estimatedTax = try container.decode(.estimatedTax)
        items = try container.decode(.items)
        period = try container.decode(.period)
        requestReferenceId = try container.decode(.requestReferenceId)
        taxCode = try container.decode(.taxCode)
        taxExclusivePrice = try container.decode(.taxExclusivePrice)
        taxRate = try container.decode(.taxRate)
        additionalFields = try container.additionalFields()
    }

    public func encode(to encoder: any Encoder) throws {
        var container = PayloadEncodingContainer<CodingKeys>(encoder)
        try container.encode(descriptors, .descriptors)
        try container.encode(estimatedTax, .estimatedTax)
        try container.encode(items, .items)
        try container.encode(period, .period)
        try container.encode(requestReferenceId, .requestReferenceId)
        try container.encode(taxCode, .taxCode)
        try container.encode(taxExclusivePrice, .taxExclusivePrice)
        try container.encode(taxRate, .taxRate)
        try container.encodeAdditionalFields(additionalFields)
    }
}
