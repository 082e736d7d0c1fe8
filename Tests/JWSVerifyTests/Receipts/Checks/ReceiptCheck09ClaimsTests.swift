import Foundation
import JWSVerifyTesting
import Testing

@testable import JWSVerify

/// Receipt check 9, claims (Docs/ErrorCodes.md, "App receipts"): bundle id, app Apple id and environment
/// match the configuration; else `invalidAppIdentifier` or `invalidEnvironment`.
@Suite("Receipt check 9, claims: invalidAppIdentifier, invalidEnvironment")
struct ReceiptCheck09ClaimsTests {
    /// Input: each crafted receipt of this check (``CraftedReceipts``, ids starting `claims-`). Expected: the
    /// catalog's code, check and failed step, warm as cold (``ReceiptContractTests/expectVerdict(_:)``).
    @Test(
        "each crafted receipt of this check gets its code, check and step, warm as cold",
        arguments: CraftedReceipts.ids(check: .claims))
    func verdict(_ id: String) throws {
        try ReceiptContractTests.expectVerdict(id)
    }
}
