/// Renewal information present only for Advanced Commerce API SKUs.
///
/// <https://developer.apple.com/documentation/appstoreserverapi/advancedcommercerenewalinfo>
public struct AdvancedCommerceRenewalInfo: Codable, Hashable, Sendable, JSONObjectDecodable, JSONObjectEncodable {
    /// The token to pass with your next request about this subscription.
    public var consistencyToken: String?

    /// The display name and description of the subscription.
    public var descriptors: AdvancedCommerceDescriptors?

    /// The items that renew.
    public var items: [AdvancedCommerceRenewalItem]?

    /// The duration of one subscription period.
    public var period: AdvancedCommercePeriod?

    /// The reference identifier of the request that last changed it.
    public var requestReferenceId: String?

    /// The tax code of the subscription.
    public var taxCode: String?

    /// The JSON members this type doesn't model (and known members whose value is `null`), written back
    /// by `encode(to:)` so that decoding and re-encoding loses nothing.
    public var additionalFields: [String: JSONValue]

    /// Creates a value from its fields; every field defaults to absent.
    public init(
        consistencyToken: String? = nil,
        descriptors: AdvancedCommerceDescriptors? = nil,
        items: [AdvancedCommerceRenewalItem]? = nil,
        period: AdvancedCommercePeriod? = nil,
        requestReferenceId: String? = nil,
        taxCode: String? = nil,
        additionalFields: [String: JSONValue] = [:]
    ) {
        self.consistencyToken = consistencyToken
        self.descriptors = descriptors
        self.items = items
        self.period = period
        self.requestReferenceId = requestReferenceId
        self.taxCode = taxCode
        self.additionalFields = additionalFields
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case consistencyToken, descriptors, items, period, requestReferenceId, taxCode
    }

    /// The JSON keys of the modelled fields.
    static let jsonKeys: Set<String> = Set(CodingKeys.allCases.map(\.stringValue))

    /// Decodes from any `Decoder` by reading the same JSON tree as the verifier does.
    public init(from decoder: any Decoder) throws {
        try self.init(json: JSONObjectReader(decoder: decoder))
    }

    /// Decodes the members of a parsed JSON object (the verifier's path: no second parse, no Codable boxes).
    init(json reader: JSONObjectReader) throws {
        consistencyToken = try reader.value("consistencyToken")
        descriptors = try reader.value("descriptors")
        items = try reader.value("items")
        period = try reader.value("period")
        requestReferenceId = try reader.value("requestReferenceId")
        taxCode = try reader.value("taxCode")
        additionalFields = reader.additionalFields(known: Self.jsonKeys)
    }

    /// Encodes every present field, then ``additionalFields``.
    public func encode(to encoder: any Encoder) throws {
        var container = PayloadEncodingContainer<CodingKeys>(encoder)
        try container.encode(consistencyToken, .consistencyToken)
        try container.encode(descriptors, .descriptors)
        try container.encode(items, .items)
        try container.encode(period, .period)
        try container.encode(requestReferenceId, .requestReferenceId)
        try container.encode(taxCode, .taxCode)
        try container.encodeAdditionalFields(additionalFields)
    }

    /// The members `encode(to:)` writes, as a tree (no `Encoder`): ``additionalFields``, then every present field.
    package var jsonObject: [String: JSONValue] {
        var object = additionalFields
        if let consistencyToken { object["consistencyToken"] = consistencyToken.jsonValue }
        if let descriptors { object["descriptors"] = descriptors.jsonValue }
        if let items { object["items"] = items.jsonValue }
        if let period { object["period"] = period.jsonValue }
        if let requestReferenceId { object["requestReferenceId"] = requestReferenceId.jsonValue }
        if let taxCode { object["taxCode"] = taxCode.jsonValue }
        return object
    }
}
