import Foundation
import Testing

/// App receipts in `jwsverify batch`: lines recognized as receipts by their base64, verified with the same
/// options as the tokens around them, each with its compact or full line.
@Suite("batch receipts")
struct BatchReceiptTests {
    /// The JSON objects of a batch run's standard output, one per line.
    private func lines(_ run: CLI.Run) throws -> [[String: Any]] {
        try run.stdout.split(separator: "\n").map { line in
            try #require(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line.prefix(200))")
        }
    }

    /// Trusts both Apple's test root (the mock tokens) and the bundled receipt root's certificate file.
    private static let roots = [
        "--root", CLI.testRoot, "--root", CLI.vector("apple-roots/AppleIncRootCertificate.cer"),
    ]

    /// Input: a real receipt's base64, Apple's mock transaction, the 187-purchase receipt (105 KB, over the
    /// tokens' line limit) in a `{"token", "id"}` object, a receipt without purchases, with `--environment
    /// Sandbox` and no bundle id. Expected: one compact line each, in order: the receipts `kind: "receipt"`,
    /// verified, with `bundleId`, the first purchase's `transactionId` and `originalTransactionId` (none without
    /// purchases), `environment` and `payload` in the verifyReceipt shape; the token as before; the summary
    /// counting `receipt: 3`; exit 0.
    @Test("receipt lines are verified among token lines, with their identifiers and payload")
    func mixed() throws {
        let recent = ReceiptFixtures.recent
        let large = ReceiptFixtures.appStore[1]
        let empty = ReceiptFixtures.appStore[4]
        let token = try CLI.token("apple-library/mock_signed_data/transactionInfo")
        let input =
            [
                try recent.base64(), token, "{\"id\": \"big\", \"token\": \"\(try large.base64())\"}",
                "\"\(try empty.base64())\"",
            ].joined(separator: "\n") + "\n"
        let run = try CLI.run(["batch", "--environment", "Sandbox"] + Self.roots, stdin: input)
        #expect(run.status == 0, "\(run.stdout.prefix(600))")
        let results = try lines(run)
        #expect(results.map { $0["line"] as? Int } == [1, 2, 3, 4])
        #expect(results.map { $0["kind"] as? String } == ["receipt", "transaction", "receipt", "receipt"])
        #expect(results.allSatisfy { $0["verified"] as? Bool == true })
        #expect(results[0].string("bundleId") == recent.bundleId)
        #expect(results[0].string("transactionId") == "2000001092134138")
        #expect(results[0].string("originalTransactionId") == "2000001092134138")
        #expect(results[0].string("environment") == "Sandbox")
        #expect(results[0]["schemaVersion"] as? Int == 2)
        let payload = try #require(results[0]["payload"] as? [String: Any])
        #expect(payload["bundle_id"] as? String == recent.bundleId)
        #expect((payload["in_app"] as? [Any])?.count == 2)
        #expect(results[2].string("id") == "big")
        #expect(((results[2]["payload"] as? [String: Any])?["in_app"] as? [Any])?.count == 187)
        #expect(results[3].string("bundleId") == empty.bundleId)
        #expect(results[3]["transactionId"] == nil && results[3]["originalTransactionId"] == nil)
        #expect(run.stderr.contains("kinds:\n  receipt: 3\n  transaction: 1\n"))
    }

    /// Input: a receipt line with another bundle id, `--report full`, and then `--fields`. Expected: the full
    /// object of `receipt --json` (`receipt`, `checks`, the chain without `der`) with `line`; the failure's code;
    /// with `--fields verified,code,bundleId` only those and `line`, `schemaVersion`.
    @Test("--report full and --fields apply to receipt lines")
    func fullAndFields() throws {
        let recent = ReceiptFixtures.recent
        let input = try recent.base64() + "\n"
        let full = try lines(CLI.run(["batch", "--report", "full", "--bundle-id", "com.example.other"], stdin: input))
        #expect(full.count == 1)
        let object = full[0]
        #expect(object["line"] as? Int == 1)
        #expect(object.string("code") == "invalidAppIdentifier")
        #expect(object.string("kind") == "receipt")
        #expect(object["schemaVersion"] as? Int == 1)
        #expect((object["receipt"] as? [String: Any])?["bundle_id"] as? String == recent.bundleId)
        #expect((object["checks"] as? [Any])?.isEmpty == false)
        let chain = try #require(object["chain"] as? [[String: Any]])
        #expect(chain.count == 3 && chain.allSatisfy { $0["der"] == nil })

        let selected = try lines(
            CLI.run(["batch", "--fields", "verified,code,bundleId", "--bundle-id", recent.bundleId], stdin: input))
        #expect(Set(selected[0].keys) == ["line", "schemaVersion", "verified", "code", "bundleId"])
        #expect(selected[0]["verified"] as? Bool == true)
    }

    /// Input: a receipt line and a token line with `--environment LocalTesting`, which tokens accept (decoded
    /// only) and receipts do not. Expected: the receipt line not verified, `invalidConfiguration` at check
    /// `configuration`, its message saying why in the words of the flags; exit 1.
    @Test("a configuration receipts refuse fails their lines, not the run")
    func receiptConfigurationRefused() throws {
        let input = try ReceiptFixtures.recent.base64() + "\n"
        let run = try CLI.run(["batch", "--environment", "LocalTesting"], stdin: input)
        #expect(run.status == 1)
        let result = try #require(try lines(run).first)
        #expect(result.string("kind") == "receipt")
        #expect(result.string("code") == "invalidConfiguration")
        #expect(result.string("check") == "configuration")
        #expect(result.string("message")?.hasPrefix("app receipts cannot be verified with these options: ") == true)
    }

    /// Input: a minted receipt whose bundle id holds an escape sequence. Expected: the line's JSON holds it
    /// escaped (`\u001b`), never raw, and decodes to the exact text.
    @Test("receipt text in batch lines is escaped")
    func escaping() throws {
        let hostile = "com.example\u{1B}[2J\u{202E}"
        let receipt = try ReceiptFixtures.mint(["--bundle-id", hostile])
        let run = try CLI.run(["batch"] + ReceiptFixtures.trustingPKI(), stdin: receipt)
        #expect(run.status == 0, "\(run.stdout.prefix(300))")
        #expect(!run.stdout.contains("\u{1B}") && !run.stdout.contains("\u{202E}"))
        #expect(try lines(run).first?.string("bundleId") == hostile)
    }

    /// Input (issue #39): `batch --kind notification` with trusted roots for tokens and receipts, over a
    /// `{"signedPayload": <receipt base64>}` line, a bare receipt line and a `{"receipt-data": …}` line. Expected:
    /// each line refused, `malformedToken` at `format` with kind `notification`, exit 1 (before: each verified as a
    /// receipt, exit 0); without `--kind` the same receipt verifies.
    @Test("--kind names a token kind: a receipt line is refused, not verified as a receipt")
    func kindGatesReceipts() throws {
        let receipt = try ReceiptFixtures.recent.base64()
        let input =
            [
                "{\"signedPayload\": \"\(receipt)\"}", receipt, "{\"receipt-data\": \"\(receipt)\"}",
            ].joined(separator: "\n") + "\n"
        let run = try CLI.run(
            ["batch", "--kind", "notification", "--environment", "Sandbox"] + Self.roots, stdin: input)
        #expect(run.status == 1, "\(run.stdout.prefix(600))")
        let results = try lines(run)
        #expect(results.count == 3)
        for result in results {
            #expect(result["verified"] as? Bool == false)
            #expect(result.string("code") == "malformedToken" && result.string("check") == "format")
            #expect(result.string("kind") == "notification")
            #expect(result.string("message")?.hasPrefix("the input is an app receipt, not a token") == true)
        }
        let auto = try CLI.run(["batch", "--environment", "Sandbox"] + Self.roots, stdin: receipt + "\n")
        #expect(auto.status == 0, "\(auto.stdout.prefix(600))")
    }
}
