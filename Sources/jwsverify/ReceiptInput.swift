import Foundation
import JWSVerify

/// The one place that decides what the input of `jwsverify receipt` holds, and whether the input of
/// `inspect` is a receipt.
///
/// Accepted shapes:
/// - the receipt file's bytes as macOS stores them (`Contents/_MASReceipt/receipt`: DER, or BER from Xcode),
///   taken byte for byte when the input's first byte is a SEQUENCE tag (`0x30`; no base64 text starts so);
/// - base64 text of them, as an app sends it (line breaks and spaces anywhere are ignored by the verifier);
/// - a JSON string holding that text;
/// - a JSON object with a `receipt-data` string member: the body apps POSTed to `verifyReceipt`. Its other
///   members (`password`, the shared secret; `exclude-old-transactions`) are ignored: a local verifier needs
///   neither.
///
/// Objects and strings are read with the library's strict JSON parser (a repeated member name is refused).
/// Surrounding ASCII whitespace of text is ignored.
enum ReceiptInput {
    /// The member of a `verifyReceipt` request body that holds the receipt.
    static let receiptDataMember = "receipt-data"

    /// The shapes, as messages name them.
    static let expected =
        "expected the receipt file's bytes, base64 of them, a JSON string holding that base64, or a JSON object"
        + " with a \"\(receiptDataMember)\" string member"

    /// What was read.
    enum Content: Equatable {
        /// The receipt as the verifier takes it: raw bytes or base64 text.
        case receipt([UInt8])
        /// Why the input holds no receipt in an accepted shape; reported as `malformedReceipt`.
        case unreadable(String)
    }

    /// Reads the input of `receipt`.
    ///
    /// - Returns: the receipt, or why there is none; an ``InputFailure`` (exit 66) when the input cannot be
    ///   opened or read or holds nothing but whitespace.
    static func read(_ source: InputSource) -> Result<Content, InputFailure> {
        TokenInput.readWhole(source, what: "receipt").map(shape)
    }

    /// The receipt of a whole input, in any accepted shape.
    static func shape(_ whole: TokenInput.Whole) -> Content {
        if whole.overflowed {
            return .unreadable(
                "the input is \(whole.total) bytes, over the \(TokenInput.inputLimit)-byte read limit; a receipt is at"
                    + " most \(AppReceiptVerifier.defaultMaximumReceiptBytes) bytes")
        }
        switch shape(whole.bytes) {
        case .success(let receipt): return .receipt(receipt)
        case .failure(let message): return .unreadable(message.text)
        }
    }

    /// Why an input is in no accepted shape.
    struct ShapeFailure: Error, Equatable {
        /// The sentence, ending with the shapes expected.
        var text: String
    }

    /// The receipt an input holds.
    ///
    /// - Parameter bytes: The whole input.
    /// - Returns: the raw bytes or base64 text to hand to the verifier, or why the input holds neither.
    static func shape(_ bytes: [UInt8]) -> Result<[UInt8], ShapeFailure> {
        // Raw DER or BER: every byte counts, trailing ones included (the verifier refuses what follows the receipt).
        if bytes.first == 0x30 { return .success(bytes) }
        let trimmed = bytes.trimmingASCIIWhitespace()
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
            guard let member = members[receiptDataMember] else {
                return refuse("the object has no \"\(receiptDataMember)\" member")
            }
            guard case .string(let text) = member else {
                return refuse("the object's \"\(receiptDataMember)\" is not a string")
            }
            return .success(Array(text.utf8))
        case UInt8(ascii: "\""):
            switch InputShape.jsonString(trimmed, what: "the input") {
            case .success(let text): return .success(Array(text.utf8))
            case .failure(let problem): return refuse(problem.text)
            }
        default:
            return .success(Array(trimmed))
        }
    }

    /// The receipt of an input that holds one, for `inspect`; nil for any other input (a token).
    ///
    /// An input is a receipt when it is a `receipt-data` object (``shape(_:)``), or when what it holds, raw or
    /// in a JSON string, starts like a receipt (``ReceiptInputDescription/startsLikeReceipt(_:)``). What `inspect`
    /// takes for a receipt is then decoded as one, and refused as one when it is not.
    static func recognize(_ whole: TokenInput.Whole) -> [UInt8]? {
        guard !whole.overflowed, case .success(let receipt) = shape(whole.bytes) else { return nil }
        let trimmed = whole.bytes.trimmingASCIIWhitespace()
        if trimmed.first == UInt8(ascii: "{") { return receipt }
        return ReceiptInputDescription.startsLikeReceipt(receipt) ? receipt : nil
    }

    private static func refuse(_ problem: String) -> Result<[UInt8], ShapeFailure> {
        .failure(ShapeFailure(text: "\(problem); \(expected)"))
    }
}
