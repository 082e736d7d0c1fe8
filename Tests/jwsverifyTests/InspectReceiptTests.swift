import Foundation
import Testing

/// `jwsverify inspect` on app receipts: recognized raw, in base64 and in a verifyReceipt body, decoded and shown
/// with their embedded certificates, labelled UNVERIFIED; tokens are still inspected as tokens.
@Suite("inspect receipts")
struct InspectReceiptTests {
    /// Input: the 2025 receipt as its base64 file. Expected: exit 0; text labelled UNVERIFIED with the SignerInfo's
    /// algorithms, the three embedded certificates (the signer marked) and the summary; JSON with `kind:
    /// "receipt"`, `verified: false`, the warning, the signer's index and the receipt in the verifyReceipt shape.
    @Test("a receipt is decoded, its embedded certificates shown, nothing verified")
    func receiptIsInspected() throws {
        let real = ReceiptFixtures.recent
        let text = try CLI.run(["inspect", real.path])
        #expect(text.status == 0)
        #expect(
            text.stdout.hasPrefix(
                "UNVERIFIED: decoded only; nothing was checked, anybody can make a receipt that decodes to anything\n"
                    + "  kind: receipt\n"))
        #expect(text.stdout.contains("\n  digest:             sha256\n"))
        #expect(text.stdout.contains("\n  certificate:        embedded certificate 1 of 3\n"))
        #expect(text.stdout.contains("\nCERTIFICATES (embedded in the receipt; NOT validated)\n"))
        #expect(
            text.stdout.contains("\n  signer (named by the SignerInfo)\n    subject:    CN=Mac App Store and iTunes"))
        #expect(text.stdout.contains("\nRECEIPT (UNVERIFIED)\n  bundle id:              \(real.bundleId)\n"))
        #expect(!text.stdout.contains("VERIFIED\n"))

        let run = try CLI.run(["inspect", "--json", real.path])
        #expect(run.status == 0)
        let json = try run.json()
        #expect(json["kind"] as? String == "receipt")
        #expect(json["verified"] as? Bool == false)
        #expect(json.string("warning")?.hasPrefix("UNVERIFIED") == true)
        #expect(json["code"] is NSNull)
        let signer = try #require(json["signer"] as? [String: Any])
        #expect(signer["certificateIndex"] as? Int == 0)
        #expect(signer["signedAttributes"] as? Bool == false)
        #expect((json["chain"] as? [[String: Any]])?.count == 3)
        #expect(json.receipt?["bundle_id"] as? String == real.bundleId)
        #expect(json.purchases?.count == real.purchases)
    }

    /// Input: the receipt's raw DER on standard input, and a verifyReceipt body. Expected: both recognized as a
    /// receipt and decoded (exit 0).
    @Test("raw DER and a verifyReceipt body are recognized as receipts")
    func shapes() throws {
        let real = ReceiptFixtures.recent
        for stdin in [try real.der(), Data("{\"receipt-data\": \"\(try real.base64())\"}".utf8)] {
            let run = try CLI.run(["inspect", "--json"], stdin: stdin)
            #expect(run.status == 0)
            #expect(try run.json().receipt?["bundle_id"] as? String == real.bundleId)
        }
    }

    /// Input: a receipt whose content is cut (base64 of its first 2000 bytes), and a `receipt-data` body holding a
    /// JWS. Expected: recognized as a receipt, not decoded: exit 1, `NOT DECODED: malformedReceipt (format)`.
    @Test("a receipt that does not decode is reported as malformedReceipt")
    func broken() throws {
        let cut = try ReceiptFixtures.recent.der().prefix(2000).base64EncodedString()
        let run = try CLI.run(["inspect"], stdin: cut)
        #expect(run.status == 1)
        #expect(run.stdout.contains("\nNOT DECODED: malformedReceipt (format): "), "\(run.stdout)")
        let jws = try CLI.token("apple-library/mock_signed_data/transactionInfo")
        let body = try CLI.run(["inspect", "--json"], stdin: "{\"receipt-data\": \"\(jws)\"}")
        #expect(body.status == 1)
        #expect(try body.json().string("code") == "malformedReceipt")
    }

    /// Input: Apple's mock transaction token. Expected: still inspected as a token (kind transaction), not as a
    /// receipt.
    @Test("a token is still inspected as a token")
    func tokenIsNotAReceipt() throws {
        let run = try CLI.run(["inspect", "--json", CLI.mock("transactionInfo")])
        #expect(run.status == 0)
        #expect(try run.json()["kind"] as? String == "transaction")
    }
}
