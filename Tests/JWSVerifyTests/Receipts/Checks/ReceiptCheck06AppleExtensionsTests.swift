import Foundation
import JWSVerifyTesting
import Testing

@testable import JWSVerify

/// Receipt check 6, Apple extensions (Docs/ErrorCodes.md, "App receipts"): the signer carries
/// 1.2.840.113635.100.6.11.1 and its issuer 1.2.840.113635.100.6.2.1; else `missingAppleExtension`.
@Suite("Receipt check 6, markers: missingAppleExtension")
struct ReceiptCheck06AppleExtensionsTests {
    /// Input: each crafted receipt of this check (``CraftedReceipts``, ids starting `markers-`). Expected: the
    /// catalog's code, check and failed step, warm as cold (``ReceiptContractTests/expectVerdict(_:)``).
    @Test(
        "each crafted receipt of this check gets its code, check and step, warm as cold",
        arguments: CraftedReceipts.ids(check: .markers))
    func verdict(_ id: String) throws {
        try ReceiptContractTests.expectVerdict(id)
    }

    /// Input: the classic forgery (a developer certificate issued by the same WWDR intermediate signs), and a
    /// receipt that embeds the real leaf but names and is signed by the developer certificate. Expected: both
    /// chain to the trusted root (trust passed) and stop at the receipt-signing marker, the message saying so.
    @Test("the classic forgery stops at the receipt-signing marker, after a passed trust step")
    func classicForgery() throws {
        for id in ["markers-developer-certificate-signs", "markers-real-leaf-embedded-developer-named"] {
            let crafted = try CraftedReceipts.named(id)
            let outcome = crafted.outcome(try crafted.verifier(capacity: 0))
            #expect(outcome.report.steps.first { $0.name == .trust }?.outcome == .passed, "\(id)")
            let detail = outcome.report.failedStep?.detail ?? ""
            #expect(detail.contains(AppleOID.leafMarker) && detail.contains("signer"), "\(id): \(detail)")
        }
        let intermediate = try CraftedReceipts.named("markers-intermediate-without-marker")
        let detail = intermediate.outcome(try intermediate.verifier(capacity: 0)).report.failedStep?.detail ?? ""
        #expect(detail.contains(AppleOID.intermediateMarker), "\(detail)")
    }
}
