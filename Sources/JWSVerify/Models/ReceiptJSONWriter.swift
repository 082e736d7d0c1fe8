import Foundation

/// Writes an app receipt's JSON, the `verifyReceipt` shape of ``AppReceipt``'s `Codable` form, straight as bytes:
/// compact, members sorted by the UTF-8 bytes of their names, strings escaped by ``appendString(_:to:)``.
///
/// These are the bytes that the CLI's writer produced for the `Codable` form (`JSONEncoder`, parsed back and written
/// with sorted keys), which `batch` spent most of a receipt line's time on; tests hold the two equal for every
/// receipt vector and for crafted and random receipts. Member names are written in their sorted order here, so a new
/// member goes where its name sorts.
package enum ReceiptJSONWriter {
    // MARK: Byte-level JSON values, to fold into the library's JSON writer

    /// Appends `text` as a JSON string literal, escaped as the CLI's JSON output escapes it: `"` and `\`, and every
    /// character ``EscapedText`` escapes (C0 controls as `\n`, `\r`, `\t` or `\u00XX`; DEL, C1 controls, U+2028,
    /// U+2029 and the bidirectional formatting characters as `\uXXXX`, lowercase hex). Everything else is copied.
    package static func appendString(_ text: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        // Most strings need no escape: copied whole when their bytes say so.
        let copied = text.utf8.withContiguousStorageIfAvailable { bytes in
            for byte in bytes where byte < 0x20 || byte >= 0x7F || byte == 0x22 || byte == 0x5C { return false }
            out.append(contentsOf: bytes)
            return true
        }
        if copied != true {
            for scalar in text.unicodeScalars {
                if scalar == "\"" || scalar == "\\" || EscapedText.needsEscape(scalar) {
                    appendEscaped(scalar, to: &out)
                } else if let encoded = UTF8.encode(scalar) {
                    out.append(contentsOf: encoded)
                }
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    /// `scalar` as a JSON escape: the two-character forms for `"`, `\`, newline, carriage return and tab, else
    /// `\u` and four lowercase hex digits (every escaped scalar is below U+10000).
    private static func appendEscaped(_ scalar: Unicode.Scalar, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\\"))
        switch scalar {
        case "\"", "\\": out.append(UInt8(scalar.value))
        case "\n": out.append(UInt8(ascii: "n"))
        case "\r": out.append(UInt8(ascii: "r"))
        case "\t": out.append(UInt8(ascii: "t"))
        default:
            out.append(UInt8(ascii: "u"))
            for shift in stride(from: 12, through: 0, by: -4) {
                out.append(hexDigits[Int((scalar.value >> UInt32(shift)) & 0xF)])
            }
        }
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// Appends `number` in decimal, as a JSON number.
    package static func appendInteger(_ number: Int64, to out: inout [UInt8]) {
        if number < 0 { out.append(UInt8(ascii: "-")) }
        appendDigits(number.magnitude, minimumCount: 1, to: &out)
    }

    /// Appends `value` in decimal digits, with leading zeros to at least `minimumCount` digits.
    package static func appendDigits(_ value: UInt64, minimumCount: Int, to out: inout [UInt8]) {
        var count = 1
        var power: UInt64 = 10
        while count < 20, value >= power {
            count += 1
            power = power &* 10
        }
        count = max(count, minimumCount)
        // Written from the last digit back, dividing by the constant 10 (a multiplication).
        var index = out.count + count
        out.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: count))
        var rest = value
        while rest > 0 {
            index -= 1
            out[index] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: rest % 10)
            rest /= 10
        }
    }

    /// Appends `bytes` as padded standard base64 (RFC 4648 §4), the text ``Base64/encodeStandard(_:)`` returns,
    /// without an intermediate string.
    package static func appendBase64(_ bytes: [UInt8], to out: inout [UInt8]) {
        let alphabet = base64Alphabet
        func character(_ sextet: UInt32) -> UInt8 { alphabet[Int(sextet & 0x3F)] }
        var index = 0
        while index + 3 <= bytes.count {
            let group = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2])
            out.append(character(group >> 18))
            out.append(character(group >> 12))
            out.append(character(group >> 6))
            out.append(character(group))
            index += 3
        }
        switch bytes.count - index {
        case 1:
            let group = UInt32(bytes[index]) << 16
            out.append(character(group >> 18))
            out.append(character(group >> 12))
            out.append(contentsOf: "==".utf8)
        case 2:
            let group = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8
            out.append(character(group >> 18))
            out.append(character(group >> 12))
            out.append(character(group >> 6))
            out.append(UInt8(ascii: "="))
        default: break
        }
    }

    private static let base64Alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    // MARK: The receipt's members

    /// The members of one JSON object, appended in the order they are given (which must be their sorted order).
    struct Object {
        private var opened = false

        /// Appends the comma or opening brace and `"name":`; `name` needs no escape.
        mutating func name(_ name: StaticString, _ out: inout [UInt8]) {
            out.append(UInt8(ascii: opened ? "," : "{"))
            opened = true
            out.append(UInt8(ascii: "\""))
            name.withUTF8Buffer { out.append(contentsOf: $0) }
            out.append(contentsOf: "\":".utf8)
        }

        /// Closes the object (`{}` when it has no members).
        func close(_ out: inout [UInt8]) {
            if !opened { out.append(UInt8(ascii: "{")) }
            out.append(UInt8(ascii: "}"))
        }

        mutating func string(_ value: String?, _ name: StaticString, _ out: inout [UInt8]) {
            guard let value else { return }
            self.name(name, &out)
            ReceiptJSONWriter.appendString(value, to: &out)
        }

        /// An integer as `verifyReceipt` wrote most of them: a decimal string.
        mutating func integerString(_ value: Int64?, _ name: StaticString, _ out: inout [UInt8]) {
            guard let value else { return }
            self.name(name, &out)
            out.append(UInt8(ascii: "\""))
            ReceiptJSONWriter.appendInteger(value, to: &out)
            out.append(UInt8(ascii: "\""))
        }

        mutating func flag(_ value: Bool?, _ name: StaticString, _ out: inout [UInt8]) {
            guard let value else { return }
            self.name(name, &out)
            out.append(contentsOf: (value ? "\"true\"" : "\"false\"").utf8)
        }

        /// Bytes as a standard base64 string (which needs no escape).
        mutating func bytes(_ value: [UInt8]?, _ name: StaticString, _ out: inout [UInt8]) {
            guard let value else { return }
            self.name(name, &out)
            out.append(UInt8(ascii: "\""))
            ReceiptJSONWriter.appendBase64(value, to: &out)
            out.append(UInt8(ascii: "\""))
        }

        /// `name`, `name_ms` and `name_pst` (``ReceiptDate/VerifyReceiptTexts``); false for a date outside the
        /// years 0 to 9999, which the `Codable` form refuses.
        mutating func date(_ value: Date?, _ name: StaticString, _ out: inout [UInt8]) -> Bool {
            guard let value else { return true }
            guard let texts = ReceiptDate.VerifyReceiptTexts(value) else { return false }
            self.name(name, &out)
            out.append(UInt8(ascii: "\""))
            texts.appendGMT(to: &out)
            out.append(contentsOf: "\",\"".utf8)
            name.withUTF8Buffer { out.append(contentsOf: $0) }
            out.append(contentsOf: "_ms\":\"".utf8)
            texts.appendMilliseconds(to: &out)
            out.append(contentsOf: "\",\"".utf8)
            name.withUTF8Buffer { out.append(contentsOf: $0) }
            out.append(contentsOf: "_pst\":\"".utf8)
            texts.appendPacific(to: &out)
            out.append(UInt8(ascii: "\""))
            return true
        }

        /// `asn1_unknown_attributes`, when there are any.
        mutating func attributes(_ value: [ReceiptAttribute], _ out: inout [UInt8]) {
            guard !value.isEmpty else { return }
            name("asn1_unknown_attributes", &out)
            out.append(UInt8(ascii: "["))
            for index in value.indices {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                value[index].appendJSON(to: &out)
            }
            out.append(UInt8(ascii: "]"))
        }
    }
}

extension AppReceipt {
    /// Appends the receipt's compact JSON (the `Codable` form, members sorted by name, see ``ReceiptJSONWriter``)
    /// to `out`.
    ///
    /// - Returns: false, with `out` as it was, when a date lies outside the years 0 to 9999 (where `encode(to:)`
    ///   throws).
    package func appendJSON(to out: inout [UInt8]) -> Bool {
        let start = out.count
        var json = ReceiptJSONWriter.Object()
        if let appItemId {
            json.name("app_item_id", &out)
            ReceiptJSONWriter.appendInteger(appItemId, to: &out)
        }
        json.string(applicationVersion, "application_version", &out)
        json.string(ageRating, "asn1_age_rating", &out)
        json.bytes(bundleIdRawValue, "asn1_bundle_id_value", &out)
        json.bytes(opaqueValue, "asn1_opaque_value", &out)
        json.bytes(sha1Hash, "asn1_sha1_hash", &out)
        json.attributes(unknownAttributes, &out)
        json.string(bundleId, "bundle_id", &out)
        var valid = json.date(expirationDate, "expiration_date", &out)
        json.name("in_app", &out)
        out.append(UInt8(ascii: "["))
        for index in inApp.indices where valid {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            valid = inApp[index].appendJSON(to: &out)
        }
        out.append(UInt8(ascii: "]"))
        json.string(originalApplicationVersion, "original_application_version", &out)
        valid = valid && json.date(originalPurchaseDate, "original_purchase_date", &out)
        valid = valid && json.date(receiptCreationDate, "receipt_creation_date", &out)
        json.string(receiptType, "receipt_type", &out)
        json.close(&out)
        if !valid { out.removeSubrange(start...) }
        return valid
    }
}

extension InAppPurchaseReceipt {
    /// Appends the purchase's compact JSON (the `Codable` form, members sorted by name) to `out`.
    ///
    /// - Returns: false when a date lies outside the years 0 to 9999 (`out` then holds part of the object).
    func appendJSON(to out: inout [UInt8]) -> Bool {
        var json = ReceiptJSONWriter.Object()
        json.integerString(productType, "asn1_product_type", &out)
        json.attributes(unknownAttributes, &out)
        var valid = json.date(cancellationDate, "cancellation_date", &out)
        valid = valid && json.date(expiresDate, "expires_date", &out)
        json.flag(isInIntroOfferPeriod, "is_in_intro_offer_period", &out)
        json.flag(isTrialPeriod, "is_trial_period", &out)
        valid = valid && json.date(originalPurchaseDate, "original_purchase_date", &out)
        json.string(originalTransactionId, "original_transaction_id", &out)
        json.string(productId, "product_id", &out)
        json.string(promotionalOfferId, "promotional_offer_id", &out)
        valid = valid && json.date(purchaseDate, "purchase_date", &out)
        json.integerString(quantity, "quantity", &out)
        json.string(transactionId, "transaction_id", &out)
        json.integerString(webOrderLineItemId, "web_order_line_item_id", &out)
        json.close(&out)
        return valid
    }
}

extension ReceiptAttribute {
    /// Appends `{"type":…,"value":"…","version":…}` to `out`.
    func appendJSON(to out: inout [UInt8]) {
        var json = ReceiptJSONWriter.Object()
        json.name("type", &out)
        ReceiptJSONWriter.appendInteger(type, to: &out)
        json.bytes(value, "value", &out)
        json.name("version", &out)
        ReceiptJSONWriter.appendInteger(version, to: &out)
        json.close(&out)
    }
}
