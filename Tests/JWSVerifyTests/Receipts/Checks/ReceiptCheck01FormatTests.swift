import Foundation
import JWSVerifyTesting
import Testing

@testable import JWSVerify

/// Receipt check 1, format (Docs/ErrorCodes.md, "App receipts"): DER or base64 of one CMS SignedData with one
/// signer and its content; else `malformedReceipt`.
@Suite("Receipt check 1, format: malformedReceipt")
struct ReceiptCheck01FormatTests: RealReceiptFixture {
    /// Input: each crafted receipt of this check (``CraftedReceipts``, ids starting `format-`). Expected: the
    /// catalog's code, check and failed step, warm as cold (``ReceiptContractTests/expectVerdict(_:)``).
    @Test(
        "each crafted receipt of this check gets its code, check and step, warm as cold",
        arguments: CraftedReceipts.ids(check: .format))
    func verdict(_ id: String) throws {
        try ReceiptContractTests.expectVerdict(id)
    }

    @Test("an iOS 6 transaction receipt is malformedReceipt and says what it is")
    func ios6TransactionReceipt() throws {
        let text = try Self.text("12_ios6-transaction-receipt_sandbox_appreceiptvalidator.b64")
        let error = try Self.verifier(bundleId: nil).verifyAndDecodeAppReceipt(text).error
        #expect(error?.code == .malformedReceipt)
        #expect(error?.check == .format)
        #expect(error?.message.contains("iOS 6") == true)
    }

    @Test("garbage, empty, over-long and non-base64 input: malformedReceipt")
    func garbage() throws {
        let verifier = try AppReceiptVerifier(bundleId: nil, environments: [], maximumReceiptBytes: 1000)
        for input in ["", "not base64 at all!", "AAAA", String(repeating: "A", count: 1001), "MIIB"] {
            #expect(verifier.verifyAndDecodeAppReceipt(input).error?.code == .malformedReceipt, "\(input.prefix(8))")
        }
        #expect(verifier.verifyAndDecodeAppReceipt(Data([0x30, 0x80, 0x00, 0x00])).error?.code == .malformedReceipt)
    }
}
