import Foundation
import JWSVerifyTesting
import Testing

@testable import JWSVerify

/// Receipt check 7, signer key (Docs/ErrorCodes.md, "App receipts"): RSA of at least 2048 bits; else
/// `unsupportedKey`.
@Suite("Receipt check 7, signer key: unsupportedKey")
struct ReceiptCheck07SignerKeyTests {
    /// Input: each crafted receipt of this check (``CraftedReceipts``, ids starting `key-`). Expected: the
    /// catalog's code, check and failed step, warm as cold (``ReceiptContractTests/expectVerdict(_:)``).
    @Test(
        "each crafted receipt of this check gets its code, check and step, warm as cold",
        arguments: CraftedReceipts.ids(check: .key))
    func verdict(_ id: String) throws {
        try ReceiptContractTests.expectVerdict(id)
    }

    /// Input: a receipt signed with a 1024-bit leaf key. Expected: unsupportedKey, saying how many bits.
    @Test("a 1024-bit signer key is refused with its size")
    func smallKeyMessage() throws {
        let crafted = try CraftedReceipts.named("key-rsa-1024")
        let message = try crafted.verifier(capacity: 0).verifyAndDecodeAppReceipt(Data(crafted.receipt)).error?.message
        #expect(message?.contains("1024 bits") == true, "\(message ?? "")")
    }
}
