import Foundation
import JWSVerifyTesting
import Testing

/// The real binary parses each token once, nested tokens included: the library verifies a
/// notification's nested tokens and the CLI prints the library's results (it never verifies or
/// decodes a token again). Counted by the library (`JWSVERIFY_OPERATION_COUNTS=1`).
@Suite("Parse count through the CLI: each token parsed once")
struct ParseCountCommandTests {
    /// The counts the binary wrote as it exited.
    static func counts(_ run: CLI.Run) throws -> [String: Int] {
        let prefix = "jwsverify-operations "
        let line = try #require(run.stderr.split(separator: "\n").last { $0.hasPrefix(prefix) }, "\(run.stderr)")
        let object = try JSONSerialization.jsonObject(with: Data(line.dropFirst(prefix.count).utf8))
        return try #require(object as? [String: Int])
    }

    /// Input: a batch of a good transaction, one with an altered signature, one for another bundle id, a
    /// malformed line, a notification with two nested tokens that verify and one whose nested renewal
    /// info has a bad signature. Expected: 6 lines out, and 10 parses (one per line, one per nested token).
    @Test("jwsverify batch parses each line once and each nested token once")
    func batch() throws {
        let transaction = try CLI.token("apple-library/mock_signed_data/transactionInfo")
        let lines = [
            transaction, CraftedToken.alteringSignature(of: transaction),
            try CLI.token("apple-library/mock_signed_data/wrongBundleId"), "e30.e30",
            Fixtures.notification, Fixtures.notificationWithTamperedRenewal,
        ]
        let run = try CLI.run(
            ["batch"] + CLI.mockConfiguration, stdin: lines.joined(separator: "\n") + "\n",
            environment: ["JWSVERIFY_OPERATION_COUNTS": "1"])
        let output = run.stdout.split(separator: "\n")
        #expect(output.count == lines.count, "\(run.stdout.prefix(300))")
        #expect(try Self.counts(run)["tokenParses"] == lines.count + 4)
    }

    /// Input: `jwsverify verify` on refused tokens, whose output shows the claimed chain and payload.
    /// Expected: one parse each (the details come from the library's own parse).
    @Test("jwsverify verify parses a refused token once, and shows what it claims")
    func verifyRefused() throws {
        let transaction = try CLI.token("apple-library/mock_signed_data/transactionInfo")
        for token in [
            CraftedToken.alteringSignature(of: transaction),
            try CLI.token("apple-library/mock_signed_data/wrongBundleId"),
        ] {
            let run = try CLI.run(
                CLI.mockConfiguration + ["--json"], stdin: token, environment: ["JWSVERIFY_OPERATION_COUNTS": "1"])
            #expect(run.status == 1)
            let object = try run.json()
            #expect((object["chain"] as? [Any])?.count == 3, "the claimed chain is shown")
            #expect(object["payload"] is [String: Any], "the claimed payload is shown")
            #expect(try Self.counts(run)["tokenParses"] == 1)
        }
        let notification = try CLI.run(
            CLI.mockConfiguration, stdin: Fixtures.notificationWithTamperedRenewal,
            environment: ["JWSVERIFY_OPERATION_COUNTS": "1"])
        #expect(try Self.counts(notification)["tokenParses"] == 3)
    }
}
