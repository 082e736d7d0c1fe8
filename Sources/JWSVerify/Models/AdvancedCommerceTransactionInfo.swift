/// Transaction information present only for Advanced Commerce API SKUs.
///
/// <https://developer.apple.com/documentation/appstoreserverapi/advancedcommercetransactioninfo>
public struct AdvancedCommerceTransactionInfo: Codable, Hashable, Sendable, JSONObjectDecodable, JSONObjectEncodable {
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

    /// The JSON keys of the modelled fields.
    static let jsonKeys: Set<String> = Set(CodingKeys.allCases.map(\.stringValue))

    /// Decodes from any `Decoder` by reading the same JSON tree as the verifier does.
    public init(from decoder: any Decoder) throws {
        try self.init(json: JSONObjectReader(decoder: decoder))
    }

    /// Decodes the members of a parsed JSON object (the verifier's path: no second parse, no Codable boxes).
    init(json reader: JSONObjectReader) throws {
        descriptors = try reader.value("descriptors")
        estimatedTax = try reader.value("estimatedTax")
        items = try reader.value("items")
        period = try reader.value("period")
        requestReferenceId = try reader.value("requestReferenceId")
        taxCode = try reader.value("taxCode")
        taxExclusivePrice = try reader.value("taxExclusivePrice")
        taxRate = try reader.value("taxRate")
        additionalFields = reader.additionalFields(known: Self.jsonKeys)
    }

    /// Encodes every present field, then ``additionalFields``.
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

    /// The members `encode(to:)` writes, as a tree (no `Encoder`): ``additionalFields``, then every present field.
    package var jsonObject: [String: JSONValue] {
        var object = additionalFields
        if let descriptors { object["descriptors"] = descriptors.jsonValue }
        if let estimatedTax { object["estimatedTax"] = estimatedTax.jsonValue }
        if let items { object["items"] = items.jsonValue }
        if let period { object["period"] = period.jsonValue }
        if let requestReferenceId { object["requestReferenceId"] = requestReferenceId.jsonValue }
        if let taxCode { object["taxCode"] = taxCode.jsonValue }
        if let taxExclusivePrice { object["taxExclusivePrice"] = taxExclusivePrice.jsonValue }
        if let taxRate { object["taxRate"] = taxRate.jsonValue }
        return object
    }
}
