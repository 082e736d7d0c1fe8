/// One item of an Advanced Commerce transaction.
///
/// <https://developer.apple.com/documentation/appstoreserverapi/advancedcommercetransactionitem>
public struct AdvancedCommerceTransactionItem: Codable, Hashable, Sendable, JSONObjectDecodable, JSONObjectEncodable {
    /// The SKU of the item (JSON key `SKU`).
    public var sku: String?

    /// The description of the item.
    public var description: String?

    /// The display name of the item.
    public var displayName: String?

    /// The offer applied to the item.
    public var offer: AdvancedCommerceOffer?

    /// The price of the item, in milliunits.
    public var price: Int64?

    /// The refunds of the item.
    public var refunds: [AdvancedCommerceRefund]?

    /// When the item was revoked.
    public var revocationDate: Timestamp?

    /// The JSON members this type doesn't model (and known members whose value is `null`), written back
    /// by `encode(to:)` so that decoding and re-encoding loses nothing.
    public var additionalFields: [String: JSONValue]

    /// Creates a value from its fields; every field defaults to absent.
    public init(
        sku: String? = nil,
        description: String? = nil,
        displayName: String? = nil,
        offer: AdvancedCommerceOffer? = nil,
        price: Int64? = nil,
        refunds: [AdvancedCommerceRefund]? = nil,
        revocationDate: Timestamp? = nil,
        additionalFields: [String: JSONValue] = [:]
    ) {
        self.sku = sku
        self.description = description
        self.displayName = displayName
        self.offer = offer
        self.price = price
        self.refunds = refunds
        self.revocationDate = revocationDate
        self.additionalFields = additionalFields
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case sku = "SKU", description, displayName, offer, price, refunds, revocationDate
    }

    /// The JSON keys of the modelled fields.
    static let jsonKeys: Set<String> = Set(CodingKeys.allCases.map(\.stringValue))

    /// Decodes from any `Decoder` by reading the same JSON tree as the verifier does.
    public init(from decoder: any Decoder) throws {
        try self.init(json: JSONObjectReader(decoder: decoder))
    }

    /// Decodes the members of a parsed JSON object (the verifier's path: no second parse, no Codable boxes).
    init(json reader: JSONObjectReader) throws {
        sku = try reader.value("SKU")
        description = try reader.value("description")
        displayName = try reader.value("displayName")
        offer = try reader.value("offer")
        price = try reader.value("price")
        refunds = try reader.value("refunds")
        revocationDate = try reader.value("revocationDate")
        additionalFields = reader.additionalFields(known: Self.jsonKeys)
    }

    /// Encodes every present field, then ``additionalFields``.
    public func encode(to encoder: any Encoder) throws {
        var container = PayloadEncodingContainer<CodingKeys>(encoder)
        try container.encode(sku, .sku)
        try container.encode(description, .description)
        try container.encode(displayName, .displayName)
        try container.encode(offer, .offer)
        try container.encode(price, .price)
        try container.encode(refunds, .refunds)
        try container.encode(revocationDate, .revocationDate)
        try container.encodeAdditionalFields(additionalFields)
    }

    /// The members `encode(to:)` writes, as a tree (no `Encoder`): ``additionalFields``, then every present field.
    package var jsonObject: [String: JSONValue] {
        var object = additionalFields
        if let sku { object["SKU"] = sku.jsonValue }
        if let description { object["description"] = description.jsonValue }
        if let displayName { object["displayName"] = displayName.jsonValue }
        if let offer { object["offer"] = offer.jsonValue }
        if let price { object["price"] = price.jsonValue }
        if let refunds { object["refunds"] = refunds.jsonValue }
        if let revocationDate { object["revocationDate"] = revocationDate.jsonValue }
        return object
    }
}
