import Foundation
import JWSVerifyTesting
import Testing

@testable import JWSVerify

/// Receipt check 8, signature (Docs/ErrorCodes.md, "App receipts"): the signer's RSA signature over the
/// content; else `invalidSignature`.
@Suite("Receipt check 8, signature: invalidSignature")
struct ReceiptCheck08SignatureTests: RealReceiptFixture {
    /// Input: each crafted receipt of this check (``CraftedReceipts``, ids starting `signature-`). Expected: the
    /// catalog's code, check and failed step, warm as cold (``ReceiptContractTests/expectVerdict(_:)``).
    @Test(
        "each crafted receipt of this check gets its code, check and step, warm as cold",
        arguments: CraftedReceipts.ids(check: .signature))
    func verdict(_ id: String) throws {
        try ReceiptContractTests.expectVerdict(id)
    }

    @Test("a changed byte of the signed content fails the signature, warm or cold")
    func alteredContent() throws {
        let real = Self.appStoreReceipts[0]
        let text = try Self.text(real.file).trimmingCharacters(in: .whitespacesAndNewlines)
        var der = [UInt8](try #require(Data(base64Encoded: text)))
        // The bundle id's bytes inside the content: flip one letter's case (the DER stays valid).
        let needle = Array(real.bundleId.utf8)
        let at = try #require(
            (0...(der.count - needle.count)).first { Array(der[$0..<($0 + needle.count)]) == needle })
        der[at] ^= 0x20
        let warm = try Self.verifier(bundleId: nil)
        #expect(warm.verifyAndDecodeAppReceipt(Data(try #require(Data(base64Encoded: text)))).isVerified)
        let altered = warm.verifyAndDecodeAppReceipt(Data(der))
        let cold = try Self.verifier(bundleId: nil, cacheCapacity: 0).verifyAndDecodeAppReceipt(Data(der))
        #expect(altered.error?.code == .invalidSignature)
        #expect(cold.error?.code == .invalidSignature)
        #expect(altered.report == cold.report)
    }
}
