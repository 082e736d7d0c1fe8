import Foundation
import Testing

/// `jwsverify inspect` end to end.
@Suite("inspect")
struct InspectCommandTests {
    /// A token is decoded and every part is labelled as not verified.
    @Test("inspect labels its output UNVERIFIED and shows header, chain and payload")
    func labelsUnverified() throws {
        let run = try CLI.run(["inspect", CLI.mock("transactionInfo")])
        #expect(run.status == 0)
        #expect(run.stdout.hasPrefix("UNVERIFIED: "))
        #expect(run.stdout.contains("\nHEADER\n  alg: ES256\n"))
        #expect(run.stdout.contains("  x5c: 3 certificates, shown under CHAIN\n"))
        #expect(run.stdout.contains("\n  leaf\n"))
        #expect(run.stdout.contains("  signedDate: 2023-01-05T22:02:34Z (1672956154000)\n"))
    }

    /// `--json` gives one object, marked unverified, with the header and the payload as in the token.
    @Test("inspect --json is one object marked unverified")
    func json() throws {
        let run = try CLI.run(
            ["inspect", "--json"], stdin: try CLI.token("apple-library/mock_signed_data/testNotification"))
        #expect(run.status == 0)
        let object = try run.json()
        #expect(object["verified"] as? Bool == false)
        #expect(object.string("warning")?.hasPrefix("UNVERIFIED") == true)
        #expect(object.string("kind") == "notification")
        #expect((object["header"] as? [String: Any])?["alg"] as? String == "ES256")
        #expect((object["payload"] as? [String: Any])?["notificationType"] as? String == "TEST")
        #expect((object["chain"] as? [Any])?.count == 3)
        let keys = topLevelKeys(ofPrettyJSON: run.stdout)
        #expect(keys == keys.sorted())
    }

    /// Nested tokens of a notification are decoded too.
    @Test("inspect decodes a notification's nested tokens")
    func nested() throws {
        let run = try CLI.run(["inspect", "--json"], stdin: Fixtures.notification)
        let nested = try #require(try run.json()["nested"] as? [String: [String: Any]])
        #expect(
            (nested["signedTransactionInfo"]?["payload"] as? [String: Any])?["transactionId"] as? String
                == "2000000123456789")
    }

    /// A token that does not decode: exit 1 with malformedToken.
    @Test("inspect of garbage exits 1 with malformedToken")
    func garbage() throws {
        let run = try CLI.run(["inspect"], stdin: Data([0xFF, 0x00, 0x41]))
        #expect(run.status == 1)
        #expect(run.stdout.contains("NOT DECODED: malformedToken (format)"))
        let json = try CLI.run(["inspect", "--json"], stdin: "a.b")
        #expect(json.status == 1)
        #expect(try json.json().string("code") == "malformedToken")
    }
}
