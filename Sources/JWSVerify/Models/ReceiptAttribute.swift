/// One attribute of an app receipt's content that this version doesn't know: its type, version and value bytes.
///
/// An app receipt's content is a DER `SET OF ReceiptAttribute { type INTEGER, version INTEGER, value OCTET
/// STRING }` (Apple's archived Receipt Validation Programming Guide). The fields Apple documents become typed
/// properties of ``AppReceipt`` and ``InAppPurchaseReceipt``; every other attribute (Apple writes several it calls
/// reserved, such as 6, 7, 8 and 1709) is kept as it came, in the order of the receipt, in their
/// `unknownAttributes`, so that nothing of a receipt is lost.
///
/// In JSON: `{"type": 8, "version": 1, "value": "FgA="}`, the value in standard base64.
public struct ReceiptAttribute: Codable, Hashable, Sendable, CustomStringConvertible {
    /// The attribute's type number.
    public var type: Int64
    /// The attribute's version number.
    public var version: Int64
    /// The contents of the attribute's OCTET STRING: for most attributes one DER element (such as `16 00`, an empty
    /// IA5String).
    public var value: [UInt8] {
        get { storage.bytes }
        set { storage = Storage(newValue[...]) }
    }

    /// ``value``, as it is kept.
    package private(set) var storage: Storage

    /// How an attribute keeps its value: up to eight bytes packed in a word, longer values in an array. Apple's
    /// receipts carry a few dozen unknown attributes, nearly all of two to six bytes (`16 00`, `02 01 00`): decoding
    /// a receipt allocates nothing for them, and writing their JSON reads them from the word.
    ///
    /// Each value has one form (up to eight bytes always packed), so that the synthesized equality and hash are
    /// those of the bytes.
    package enum Storage: Hashable, Sendable {
        /// Up to 8 bytes, the first in the low byte of the word; the bytes past `count` are zero.
        case packed(UInt64, count: Int)
        /// More than 8 bytes.
        case array([UInt8])

        /// The form of `bytes`.
        package init(_ bytes: ArraySlice<UInt8>) {
            guard bytes.count <= 8 else {
                self = .array(Array(bytes))
                return
            }
            self = .packed(
                ByteScanning.littleEndianWord(bytes, at: bytes.startIndex, count: bytes.count), count: bytes.count)
        }

        /// The bytes.
        package var bytes: [UInt8] {
            switch self {
            case .packed(let word, let count):
                (0..<count).map { UInt8(truncatingIfNeeded: word &>> UInt64($0 * 8)) }
            case .array(let bytes): bytes
            }
        }
    }

    /// Creates an attribute.
    ///
    /// - Parameters:
    ///   - type: The type number.
    ///   - version: The version number; Apple writes 1 for most attributes.
    ///   - value: The contents of the value OCTET STRING.
    public init(type: Int64, version: Int64 = 1, value: [UInt8]) {
        self.init(type: type, version: version, value: value[...])
    }

    /// Creates an attribute of a value read from a receipt, without an array for a short one.
    package init(type: Int64, version: Int64, value: ArraySlice<UInt8>) {
        self.type = type
        self.version = version
        storage = Storage(value)
    }

    /// `ReceiptAttribute(type: 8, version: 1, value: [22, 0])`: the type, version and value bytes, however the value
    /// is kept.
    public var description: String { "ReceiptAttribute(type: \(type), version: \(version), value: \(value))" }

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
        storage = Storage(value[...])
    }

    /// Encodes `type`, `version` and `value` (standard base64).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(type, forKey: .type)
        try container.encode(version, forKey: .version)
        try container.encode(Base64.encodeStandard(value), forKey: .value)
    }
}
