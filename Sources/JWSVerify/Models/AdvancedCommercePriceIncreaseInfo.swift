/// A price increase of an Advanced Commerce subscription item.
///
/// <https://developer.apple.com/documentation/appstoreserverapi/advancedcommercepriceincreaseinfo>
public struct AdvancedCommercePriceIncreaseInfo: Codable, Hashable, Sendable {
    /// The SKUs whose price increase depends on this one.
    public var dependentSKUs: [String]?

    /// The new price, in milliunits.
    public var price: Int64?

    /// The status of the price increase.
    public var status: AdvancedCommercePriceIncreaseInfoStatus?

    /// The JSON members this type doesn't model (and known members whose value is `null`), written back
    /// by `encode(to:)` so that decoding and re-encoding loses nothing.
    public var additionalFields: [String: JSONValue]

    /// Creates a value from its fields; every field defaults to absent.
    public init(
        dependentSKUs: [String]? = nil,
        price: Int64? = nil,
        status: AdvancedCommercePriceIncreaseInfoStatus? = nil,
        additionalFields: [String: JSONValue] = [:]
    ) {
        self.dependentSKUs = dependentSKUs
        self.price = price
        self.status = status
        self.additionalFields = additionalFields
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case dependentSKUs, price, status
    }

    public init(from decoder: any Decoder) throws {
        let container = try PayloadDecodingContainer<CodingKeys>(decoder)
        dependentSKUs = try container.decode(.dependentSKUs)
        price = try container.decode(.price)
        status = try container.decode(.status)
        additionalFields = try container.additionalFields()
    }

    public func encode(to encoder: any Encoder) throws {
        var container = PayloadEncodingContainer<CodingKeys>(encoder)
        try container.encode(dependentSKUs, .dependentSKUs)
        try container.encode(price, .price)
        try container.encode(status, .status)
        try container.encodeAdditionalFields(additionalFields)
    }
}
