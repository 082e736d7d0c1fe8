/// What an input that is not an app receipt looks like, in a sentence, for the CLI and for `malformedReceipt`
/// messages.
package enum ReceiptInputDescription {
    /// A sentence saying what `input` is when it is not a PKCS#7 SignedData, raw or in base64; `nil` when it starts
    /// like one (a SEQUENCE whose first element is the signedData OID), whatever follows.
    ///
    /// Recognized: empty input; an iOS 6 transaction receipt (`SKPaymentTransaction.transactionReceipt`, an
    /// OpenStep property list with `"purchase-info"` and usually `"signature"`, usually in base64); a JWS token
    /// (StoreKit 2 signed data); JSON, XML and PEM text; a PKCS#7 ContentInfo of another type; other DER; anything
    /// else by its size. Text quoted from the input is escaped.
    ///
    /// - Parameter input: The bytes as received: raw DER, or base64 text (line breaks and spaces allowed).
    package static func describeNonReceipt(_ input: [UInt8]) -> String? {
        let input = trimmingWhitespace(input)
        guard !input.isEmpty else { return "empty input, not an app receipt" }
        if startsLikeSignedData(input) { return nil }
        if let text = describeText(input) { return text }
        let compact = input.filter { !isWhitespace($0) }
        if let decoded = Base64.decodeStandard(compact), !decoded.isEmpty {
            if startsLikeSignedData(decoded) { return nil }
            return "base64 of " + (describeText(trimmingWhitespace(decoded)) ?? describeBinary(decoded))
        }
        return describeBinary(input)
    }

    /// Whether `input` starts like an app receipt: the receipt file's bytes (``startsLikeSignedData(_:)``), or
    /// standard base64 of them, judged by its first 24 characters alone (a long input costs no more than a short
    /// one: `jwsverify batch` asks this of every line). It decides nothing: check 1 of the verifier does.
    ///
    /// - Parameter input: The bytes as received, without surrounding whitespace.
    package static func startsLikeReceipt(_ input: [UInt8]) -> Bool {
        startsLikeReceipt(input[...])
    }

    /// ``startsLikeReceipt(_:)`` of bytes in place (a `batch` line in its chunk), without copying them.
    package static func startsLikeReceipt(_ input: ArraySlice<UInt8>) -> Bool {
        if startsLikeSignedData(input) { return true }
        guard input.count >= 24, let decoded = Base64.decodeStandard(input.prefix(24)) else { return false }
        return startsLikeSignedData(decoded[...])
    }

    /// Whether `bytes` begin with a SEQUENCE header (any length form) followed by the signedData OID.
    package static func startsLikeSignedData(_ bytes: [UInt8]) -> Bool {
        startsLikeSignedData(bytes[...])
    }

    /// ``startsLikeSignedData(_:)`` of bytes in place.
    private static func startsLikeSignedData(_ bytes: ArraySlice<UInt8>) -> Bool {
        guard bytes.count > 2, bytes.first == 0x30 else { return false }
        let second = bytes[bytes.startIndex + 1]
        let start = bytes.startIndex + 2 + (second > 0x80 ? Int(second & 0x7F) : 0)
        let element = signedDataOIDElement
        return bytes.endIndex - start >= element.count && bytes[start..<start + element.count].elementsEqual(element)
    }

    /// The signedData OID as a DER element: tag, length, value.
    private static let signedDataOIDElement: [UInt8] = [0x06, 0x09] + ReceiptEnvelope.signedDataOID

    /// A description of text inputs, `nil` when `bytes` do not look like one of them.
    private static func describeText(_ bytes: [UInt8]) -> String? {
        let text = String(decoding: bytes.prefix(4096), as: UTF8.self)
        if text.hasPrefix("{") && text.contains("\"purchase-info\"") {
            return "an iOS 6 transaction receipt (SKPaymentTransaction.transactionReceipt, an OpenStep property list"
                + " with \"purchase-info\"), not an app receipt: send the app receipt (Bundle.main.appStoreReceiptURL)"
        }
        if text.hasPrefix("eyJ") && bytes.filter({ $0 == UInt8(ascii: ".") }).count == 2 {
            return "a JWS token (StoreKit 2 or App Store Server API signed data), not an app receipt"
        }
        if text.hasPrefix("{") || text.hasPrefix("[") { return "JSON or property-list text, not an app receipt" }
        if text.hasPrefix("<?xml") || text.hasPrefix("<!DOCTYPE") || text.hasPrefix("<plist") {
            return "XML text, not an app receipt"
        }
        if text.hasPrefix("-----BEGIN ") {
            let label = text.dropFirst(11).prefix { $0 != "-" && $0 != "\n" }.prefix(40)
            return "a PEM block (\(EscapedText.escaped(String(label)))), not an app receipt"
        }
        return nil
    }

    /// A description of binary inputs.
    private static func describeBinary(_ bytes: [UInt8]) -> String {
        let pkcs7: [UInt8] = [0x06, 0x09, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x07]
        if bytes.count > 2, bytes[0] == 0x30 {
            var index = 2
            if bytes[1] > 0x80 { index += Int(bytes[1] & 0x7F) }
            if bytes.count > index + pkcs7.count, bytes[index..<index + pkcs7.count].elementsEqual(pkcs7) {
                return "a PKCS#7 ContentInfo of type 1.2.840.113549.1.7.\(bytes[index + pkcs7.count]), not SignedData"
            }
            return "DER data (\(bytes.count) bytes) that is not a PKCS#7 SignedData"
        }
        return "\(bytes.count) bytes that are neither a PKCS#7 SignedData nor base64 of one"
    }

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    private static func trimmingWhitespace(_ bytes: [UInt8]) -> [UInt8] {
        guard let first = bytes.firstIndex(where: { !isWhitespace($0) }),
            let last = bytes.lastIndex(where: { !isWhitespace($0) })
        else { return [] }
        return Array(bytes[first...last])
    }
}
