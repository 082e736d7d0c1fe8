import Foundation
import JWSVerify

/// The input of `jwsverify receipt`, and whether the input of `inspect` is a receipt, in the shapes the library's
/// ``InputShape/receipt(_:)`` decides: the receipt file's bytes (DER, or BER from Xcode), base64 text of them, a
/// JSON string holding that text, or a `verifyReceipt` body `{"receipt-data": ...}` (other members ignored).
enum ReceiptInput {
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
        case .failure(let failure): return .unreadable(failure.message)
        }
    }

    /// The receipt an input holds, in any shape ``InputShape/receipt(_:)`` accepts (the library decides).
    static func shape(_ bytes: [UInt8]) -> Result<[UInt8], ShapeFailure> {
        InputShape.receipt(bytes)
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
}
