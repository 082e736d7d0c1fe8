/// One attribute of an app receipt's content that this version doesn't know: its type, version and value bytes.
///
/// An app receipt's content is a DER `SET OF ReceiptAttribute { type INTEGER, version INTEGER, value OCTET
/// STRING }` (Apple's archived Receipt Validation Programming Guide). The fields Apple documents become typed
/// properties of ``AppReceipt`` and ``InAppPurchaseReceipt``; every other attribute (Apple writes several it calls
/// reserved, such as 6, 7, 8 and 1709) is kept as it came, in the order of the receipt, in their
/// `unknownAttributes`, so that nothing of a receipt is lost.
///
/// In JSON: `{"type": 8, "version": 1, "value": "FgA="}`, the value in standard base64.
public struct ReceiptAttribute: Codable, Hashable, Sendable {
    /// The attribute's type number.
    public var type: Int64
    /// The attribute's version number.
    public var version: Int64
    /// The contents of the attribute's OCTET STRING: for most attributes one DER element (such as `16 00`, an empty
    /// IA5String).
    public var value: [UInt8]

    /// Creates an attribute.
    ///
    /// - Parameters:
    ///   - type: The type number.
    ///   - version: The version number; Apple writes 1 for most attributes.
    ///   - value: The contents of the value OCTET STRING.
    public init(type: Int64, version: Int64 = 1, value: [UInt8]) {
        self.type = type
        self.version = version
        self.value = value
    }

    private enum CodingKeys: String, CodingKey {
        case type, version, value
    }

    /// Decodes `type` and `version` (JSON numbers) and `value` (standard base64).
    ///
    /// - Throws: `DecodingError` when a member is missing or `value` is not strict, padded base64.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        type = try container.decode(Int64.self, forKey: .type)
        version = try container.decode(Int64.self, forKey: .version)
        guard let value = try ReceiptJSON.bytes(container, .value) else {
            throw DecodingError.keyNotFound(
                CodingKeys.value, DecodingError.Context(codingPath: container.codingPath, debugDescription: "no value"))
        }
        self.value = value
    }

    /// Encodes `type`, `version` and `value` (standard base64).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(type, forKey: .type)
        try container.encode(version, forKey: .version)
        try container.encode(Base64.encodeStandard(value), forKey: .value)
    }
}
