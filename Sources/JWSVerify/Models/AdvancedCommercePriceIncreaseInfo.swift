/// A price increase of an Advanced Commerce subscription item.
///
/// <https://developer.apple.com/documentation/appstoreserverapi/advancedcommercepriceincreaseinfo>
public struct AdvancedCommercePriceIncreaseInfo: Codable, Hashable, Sendable, JSONObjectDecodable, JSONObjectEncodable {
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

    /// The JSON keys of the modelled fields.
    static let jsonKeys: Set<String> = Set(CodingKeys.allCases.map(\.stringValue))

    /// Decodes from any `Decoder` by reading the same JSON tree as the verifier does.
    public init(from decoder: any Decoder) throws {
        try self.init(json: JSONObjectReader(decoder: decoder))
    }

    /// Decodes the members of a parsed JSON object (the verifier's path: no second parse, no Codable boxes).
    init(json reader: JSONObjectReader) throws {
        dependentSKUs = try reader.value("dependentSKUs")
        price = try reader.value("price")
        status = try reader.value("status")
        additionalFields = reader.additionalFields(known: Self.jsonKeys)
    }

    /// Encodes every present field, then ``additionalFields``.
    public func encode(to encoder: any Encoder) throws {
        var container = PayloadEncodingContainer<CodingKeys>(encoder)
        try container.encode(dependentSKUs, .dependentSKUs)
        try container.encode(price, .price)
        try container.encode(status, .status)
        try container.encodeAdditionalFields(additionalFields)
    }

    /// The members `encode(to:)` writes, as a tree (no `Encoder`): ``additionalFields``, then every present field.
    package var jsonObject: [String: JSONValue] {
        var object = additionalFields
        if let dependentSKUs { object["dependentSKUs"] = dependentSKUs.jsonValue }
        if let price { object["price"] = price.jsonValue }
        if let status { object["status"] = status.jsonValue }
        return object
    }
}
