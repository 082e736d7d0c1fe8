/// A discount offer on an Advanced Commerce item.
///
/// [offer](https://developer.apple.com/documentation/advancedcommerceapi/offer)
public struct AdvancedCommerceOffer: Codable, Hashable, Sendable, JSONObjectDecodable, JSONObjectEncodable {
    /// The period of the offer.
    public var period: AdvancedCommerceOfferPeriod?

    /// The number of periods the offer lasts.
    public var periodCount: Int32?

    /// The offer price, in milliunits.
    public var price: Int64?

    /// The reason for the offer.
    public var reason: AdvancedCommerceOfferReason?

    /// The JSON members this type doesn't model (and known members whose value is `null`), written back
    /// by `encode(to:)` so that decoding and re-encoding loses nothing.
    public var additionalFields: [String: JSONValue]

    /// Creates a value from its fields; every field defaults to absent.
    public init(
        period: AdvancedCommerceOfferPeriod? = nil,
        periodCount: Int32? = nil,
        price: Int64? = nil,
        reason: AdvancedCommerceOfferReason? = nil,
        additionalFields: [String: JSONValue] = [:]
    ) {
        self.period = period
        self.periodCount = periodCount
        self.price = price
        self.reason = reason
        self.additionalFields = additionalFields
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case period, periodCount, price, reason
    }

    /// The JSON keys of the modelled fields.
    static let jsonKeys: Set<String> = Set(CodingKeys.allCases.map(\.stringValue))

    /// Decodes from any `Decoder` by reading the same JSON tree as the verifier does.
    public init(from decoder: any Decoder) throws {
        try self.init(json: JSONObjectReader(decoder: decoder))
    }

    /// Decodes the members of a parsed JSON object (the verifier's path: no second parse, no Codable boxes).
    init(json reader: JSONObjectReader) throws {
        period = try reader.value("period")
        periodCount = try reader.value("periodCount")
        price = try reader.value("price")
        reason = try reader.value("reason")
        additionalFields = reader.additionalFields(known: Self.jsonKeys)
    }

    /// Encodes every present field, then ``additionalFields``.
    public func encode(to encoder: any Encoder) throws {
        var container = PayloadEncodingContainer<CodingKeys>(encoder)
        try container.encode(period, .period)
        try container.encode(periodCount, .periodCount)
        try container.encode(price, .price)
        try container.encode(reason, .reason)
        try container.encodeAdditionalFields(additionalFields)
    }

    /// The members `encode(to:)` writes, as a tree (no `Encoder`): ``additionalFields``, then every present field.
    package var jsonObject: [String: JSONValue] {
        var object = additionalFields
        if let period { object["period"] = period.jsonValue }
        if let periodCount { object["periodCount"] = periodCount.jsonValue }
        if let price { object["price"] = price.jsonValue }
        if let reason { object["reason"] = reason.jsonValue }
        return object
    }
}
