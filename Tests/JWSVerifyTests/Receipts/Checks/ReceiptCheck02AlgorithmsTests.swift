import Foundation
import JWSVerifyTesting
import Testing

@testable import JWSVerify

/// Receipt check 2, algorithms (Docs/ErrorCodes.md, "App receipts"): SHA-1 or SHA-256 with RSA; else
/// `unsupportedAlgorithm`.
@Suite("Receipt check 2, algorithms: unsupportedAlgorithm")
struct ReceiptCheck02AlgorithmsTests {
    /// A digest OID no one knows (the OID arc of ISO's examples), for the crafted digest-set receipts.
    static let unknownDigestOID = "1.2.3.4.5"

    /// Input: each crafted receipt of this check (``CraftedReceipts``, ids starting `algorithm-`). Expected: the
    /// catalog's code, check and failed step, warm as cold (``ReceiptContractTests/expectVerdict(_:)``).
    @Test(
        "each crafted receipt of this check gets its code, check and step, warm as cold",
        arguments: CraftedReceipts.ids(check: .algorithm))
    func verdict(_ id: String) throws {
        try ReceiptContractTests.expectVerdict(id)
    }
}
