import Foundation

/// A JSON member name of the receipt models, which write the old `verifyReceipt` response's `receipt` object.
struct ReceiptJSONKey: CodingKey {
    let stringValue: String
    var intValue: Int? { nil }

    init(_ name: String) { stringValue = name }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

/// How ``AppReceipt`` and ``InAppPurchaseReceipt`` write values in JSON: as `verifyReceipt` did, strings for
/// everything but `app_item_id`.
///
/// - a date `D` is three members: `D` (`2020-05-06 18:28:49 Etc/GMT`), `D_ms` (`"1588789729000"`) and `D_pst`
///   (`2020-05-06 11:28:49 America/Los_Angeles`); decoding reads `D_ms` alone;
/// - an integer is a decimal string (`"1"`), a flag `"true"` or `"false"`, bytes standard base64;
/// - an absent value writes no member.
enum ReceiptJSON {
    /// The bytes under `key` (standard base64), `nil` when the key is absent.
    ///
    /// - Throws: `DecodingError.dataCorrupted` when the string is not strict, padded base64.
    static func bytes<Key: CodingKey>(_ container: KeyedDecodingContainer<Key>, _ key: Key) throws -> [UInt8]? {
        guard let text = try container.decodeIfPresent(String.self, forKey: key) else { return nil }
        guard let bytes = Base64.decodeStandard(text) else {
            throw DecodingError.dataCorruptedError(
                forKey: key, in: container, debugDescription: "not strict, padded standard base64")
        }
        return bytes
    }
}

extension KeyedDecodingContainer where Key == ReceiptJSONKey {
    func receiptString(_ name: String) throws -> String? {
        try decodeIfPresent(String.self, forKey: ReceiptJSONKey(name))
    }

    /// A decimal string within `Int64` (`"-12"`, `"0"`), nothing else.
    func receiptInteger(_ name: String) throws -> Int64? {
        guard let text = try receiptString(name) else { return nil }
        let digits = text.hasPrefix("-") ? text.utf8.dropFirst() : text.utf8[...]
        guard !digits.isEmpty, digits.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let value = Int64(text) else {
            throw corrupted(name, "not a decimal integer string")
        }
        return value
    }

    func receiptFlag(_ name: String) throws -> Bool? {
        switch try receiptString(name) {
        case nil: return nil
        case "true": return true
        case "false": return false
        default: throw corrupted(name, "neither \"true\" nor \"false\"")
        }
    }

    /// The date of member `name_ms`.
    func receiptDate(_ name: String) throws -> Date? {
        guard let text = try receiptString(name + "_ms") else { return nil }
        guard let date = ReceiptDate.date(milliseconds: text) else {
            throw corrupted(name + "_ms", "not a string of milliseconds since 1970")
        }
        return date
    }

    func receiptBytes(_ name: String) throws -> [UInt8]? {
        try ReceiptJSON.bytes(self, ReceiptJSONKey(name))
    }

    private func corrupted(_ name: String, _ reason: String) -> DecodingError {
        DecodingError.dataCorruptedError(forKey: ReceiptJSONKey(name), in: self, debugDescription: reason)
    }
}

extension KeyedEncodingContainer where Key == ReceiptJSONKey {
    mutating func encodeReceipt(string value: String?, _ name: String) throws {
        try encodeIfPresent(value, forKey: ReceiptJSONKey(name))
    }

    mutating func encodeReceipt(integer value: Int64?, _ name: String) throws {
        try encodeIfPresent(value.map { String($0) }, forKey: ReceiptJSONKey(name))
    }

    mutating func encodeReceipt(flag value: Bool?, _ name: String) throws {
        try encodeIfPresent(value.map { $0 ? "true" : "false" }, forKey: ReceiptJSONKey(name))
    }

    mutating func encodeReceipt(bytes value: [UInt8]?, _ name: String) throws {
        try encodeIfPresent(value.map { Base64.encodeStandard($0) }, forKey: ReceiptJSONKey(name))
    }

    /// `name`, `name_ms` and `name_pst`.
    ///
    /// - Throws: `EncodingError.invalidValue` for a date outside the years 0 to 9999.
    mutating func encodeReceipt(date value: Date?, _ name: String) throws {
        guard let value else { return }
        guard let texts = ReceiptDate.verifyReceiptTexts(value) else {
            throw EncodingError.invalidValue(
                value,
                EncodingError.Context(
                    codingPath: codingPath + [ReceiptJSONKey(name)],
                    debugDescription: "a receipt date must lie in the years 0 to 9999"))
        }
        try encode(texts.gmt, forKey: ReceiptJSONKey(name))
        try encode(texts.milliseconds, forKey: ReceiptJSONKey(name + "_ms"))
        try encode(texts.pacific, forKey: ReceiptJSONKey(name + "_pst"))
    }
}
