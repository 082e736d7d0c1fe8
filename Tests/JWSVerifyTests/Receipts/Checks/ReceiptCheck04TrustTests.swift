import Foundation
import JWSVerifyTesting
import Testing

@testable import JWSVerify

/// Receipt check 4, trust (Docs/ErrorCodes.md, "App receipts"): signer <- intermediate <- a configured root;
/// else `untrustedChain`.
@Suite("Receipt check 4, trust: untrustedChain")
struct ReceiptCheck04TrustTests {
    /// Input: each crafted receipt of this check (``CraftedReceipts``, ids starting `trust-`). Expected: the
    /// catalog's code, check and failed step, warm as cold (``ReceiptContractTests/expectVerdict(_:)``).
    @Test(
        "each crafted receipt of this check gets its code, check and step, warm as cold",
        arguments: CraftedReceipts.ids(check: .trust))
    func verdict(_ id: String) throws {
        try ReceiptContractTests.expectVerdict(id)
    }
}
