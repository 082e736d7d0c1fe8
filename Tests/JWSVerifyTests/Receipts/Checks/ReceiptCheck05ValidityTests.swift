import Foundation
import JWSVerifyTesting
import Testing

@testable import JWSVerify

/// Receipt check 5, validity (Docs/ErrorCodes.md, "App receipts"): every certificate valid at the receipt's
/// creation date; else `certificateExpired`.
@Suite("Receipt check 5, validity: certificateExpired")
struct ReceiptCheck05ValidityTests {
    /// Input: each crafted receipt of this check (``CraftedReceipts``, ids starting `validity-`). Expected: the
    /// catalog's code, check and failed step, warm as cold (``ReceiptContractTests/expectVerdict(_:)``).
    @Test(
        "each crafted receipt of this check gets its code, check and step, warm as cold",
        arguments: CraftedReceipts.ids(check: .validity))
    func verdict(_ id: String) throws {
        try ReceiptContractTests.expectVerdict(id)
    }

    /// Input: the window receipts at each boundary. Expected: the expired ones name the certificate that is out
    /// of its window (the receipt signer, or the intermediate) and the validation time.
    @Test("an expired certificate is named, with its window and the time")
    func expiredNamesTheCertificate() throws {
        for (role, prefix) in [
            ("signer", "the receipt signer certificate (CN=Mac App Store and iTunes Store Receipt Signing)"),
            ("intermediate", "the intermediate certificate (CN=Apple Worldwide Developer Relations Certification"),
        ] {
            for label in ["one-second-before-not-before", "at-not-after"] {
                let crafted = try CraftedReceipts.named("validity-\(role)-\(label)")
                let message =
                    try crafted.verifier(capacity: 0).verifyAndDecodeAppReceipt(Data(crafted.receipt))
                    .error?.message ?? ""
                #expect(message.hasPrefix(prefix), "\(role) \(label): \(message)")
                #expect(message.contains(ISO8601Text.iso8601(crafted.time)), "\(role) \(label): \(message)")
            }
        }
    }
}
