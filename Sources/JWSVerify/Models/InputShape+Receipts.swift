extension InputShape {
    /// The receipt a whole input holds (`jwsverify receipt`, `inspect`): the receipt file's bytes (taken byte
    /// for byte when the first byte is a SEQUENCE tag, `0x30`; no base64 text starts so), base64 text of them, a
    /// JSON string holding that text, or a `{"receipt-data": ...}` object.
    ///
    /// - Returns: the raw bytes or base64 text to hand to the verifier, or why the input holds neither.
    package static func receipt(_ bytes: [UInt8]) -> Result<[UInt8], ShapeFailure> {
        if bytes.first == 0x30 { return .success(bytes) }
        let trimmed = bytes.trimmingASCIIWhitespace()
        func refuse(_ problem: String) -> Result<[UInt8], ShapeFailure> {
            .failure(ShapeFailure(message: "\(problem); \(expectedReceipt)", receipt: true))
        }
        switch trimmed.first {
        case UInt8(ascii: "{"):
            let members: [String: JSONValue]
            do {
                members = try JSONParser.parseObject(Array(trimmed))
            } catch {
                return refuse(
                    "the input starts with '{' but is not a JSON object: \(EscapedText.escaped(error.reason)) at byte"
                        + " \(error.offset)")
            }
            switch member(of: members, named: [receiptDataMember]) {
            case .success(let found): return .success(Array(found.value.utf8))
            case .failure(.notString): return refuse("the object's \"\(receiptDataMember)\" is not a string")
            case .failure: return refuse("the object has no \"\(receiptDataMember)\" member")
            }
        case UInt8(ascii: "\""):
            switch jsonString(trimmed, what: "the input") {
            case .success(let text): return .success(Array(text.utf8))
            case .failure(let problem): return refuse(problem.text)
            }
        default:
            return .success(Array(trimmed))
        }
    }

    /// The receipt file's bytes of a receipt as the verifier takes it: `input` itself when it starts as DER does
    /// (a SEQUENCE tag, `0x30`), else its standard base64 decoding with ASCII spaces and line breaks left out; nil
    /// when it is neither (receipt check 1 reports `malformedReceipt`). The one place that decides "DER or base64".
    ///
    /// - Parameter input: The receipt, non-empty.
    package static func receiptFileBytes(_ input: [UInt8]) -> [UInt8]? {
        guard let first = input.first else { return nil }
        if first == 0x30 { return input }
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 }
        // Spaces at the ends (a file's last line break) are cut off without a copy; only text with line breaks
        // inside is copied without them (filtering every receipt cost a third of a warm verification).
        var lower = input.startIndex
        var upper = input.endIndex
        while lower < upper && isSpace(input[lower]) { lower += 1 }
        while upper > lower && isSpace(input[upper - 1]) { upper -= 1 }
        let text = input[lower..<upper]
        // Text without line breaks decodes as it is; the decoder stops at the first space of the others.
        let decoded =
            Base64.decodeStandard(text)
            ?? (text.contains(where: isSpace) ? Base64.decodeStandard(text.filter { !isSpace($0) }) : nil)
        guard !text.isEmpty, let bytes = decoded, !bytes.isEmpty else { return nil }
        return bytes
    }
}
