import Foundation
import JWSVerifyTesting
import Testing

@testable import JWSVerify

/// Receipt check 3, signer (Docs/ErrorCodes.md, "App receipts"): the signer certificate is embedded; else
/// `missingCertificateChain`.
@Suite("Receipt check 3, signer: missingCertificateChain")
struct ReceiptCheck03SignerTests {
    /// Input: each crafted receipt of this check (``CraftedReceipts``, ids starting `signer-`). Expected: the
    /// catalog's code, check and failed step, warm as cold (``ReceiptContractTests/expectVerdict(_:)``).
    @Test(
        "each crafted receipt of this check gets its code, check and step, warm as cold",
        arguments: CraftedReceipts.ids(check: .signer))
    func verdict(_ id: String) throws {
        try ReceiptContractTests.expectVerdict(id)
    }
}
