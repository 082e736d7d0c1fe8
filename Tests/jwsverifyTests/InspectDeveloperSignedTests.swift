import Foundation
import Testing

/// `jwsverify inspect` on the JWS kinds a developer signs (`jwsverify sign offer-v2 | intro-eligibility |
/// advanced-commerce`), run as a process with a P-256 key that openssl generates here.
@Suite("inspect of developer-signed JWS")
struct InspectDeveloperSignedTests {
    /// A hostile key id: a fake log line and terminal escapes.
    static let hostileKeyId = "K\u{1B}[31m\nINFO forged"

    /// Each kind's `sign` arguments and the kind line `inspect` prints.
    static func cases(request: String) -> [(arguments: [String], kind: String)] {
        [
            (
                ["offer-v2", "--product-id", "p1", "--offer-id", "o1", "--transaction-id", "t1"],
                "offer-v2 (promotional offer V2 signature, aud promotional-offer)"
            ),
            (
                ["intro-eligibility", "--product-id", "p1", "--allow-intro-offer", "true", "--transaction-id", "t2"],
                "intro-eligibility (introductory offer eligibility signature, aud introductory-offer-eligibility)"
            ),
            (
                ["advanced-commerce", "--request", request],
                "advanced-commerce (Advanced Commerce API in-app request signature, aud advanced-commerce-api)"
            ),
        ]
    }

    /// Runs `body` with a directory holding `key.pem` (made by `openssl genpkey`, P-256) and `request.json`.
    static func withKey(_ body: (_ key: String, _ request: String) throws -> Void) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("jwsverify-inspect-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let key = directory.appendingPathComponent("key.pem").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "openssl", "genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", key,
        ]
        try process.run()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0)
        let request = directory.appendingPathComponent("request.json")
        try Data(#"{"operation":"CREATE_SUBSCRIPTION","version":"1"}"#.utf8).write(to: request)
        try body(key, request.path)
    }

    /// A token `jwsverify sign` makes.
    static func sign(_ arguments: [String], key: String, keyId: String) throws -> String {
        let common = ["--key", key, "--key-id", keyId, "--issuer-id", "ISSUER", "--bundle-id", "com.example"]
        let run = try CLI.run(["sign"] + arguments + common)
        try #require(run.status == 0, "\(arguments): \(run.stderr)")
        return run.stdout.trimmingCharacters(in: .newlines)
    }

    /// Input: each kind signed with key id `KEY1`. Expected: exit 0; text names the kind and says the token is signed
    /// by a developer's In-App Purchase key, not Apple, that inspect cannot verify it, and shows `kid: KEY1`;
    /// `--json` gives the kind and a `signedBy` object with the key id and the same statement.
    @Test("inspect names each developer-signed kind and says it is signed by a developer key, not Apple")
    func kinds() throws {
        try Self.withKey { key, request in
            for (arguments, kind) in Self.cases(request: request) {
                let token = try Self.sign(arguments, key: key, keyId: "KEY1")
                let text = try CLI.run(["inspect"], stdin: token)
                #expect(text.status == 0, "\(arguments): \(text.stderr)")
                #expect(text.stdout.hasPrefix("UNVERIFIED: "))
                #expect(text.stdout.contains("\n  kind: \(kind)\n"), "\(text.stdout)")
                #expect(
                    text.stdout.contains(
                        "\n  signed by a developer's In-App Purchase key, not by Apple; inspect cannot verify it"
                            + " (no certificate chain)\n  kid: KEY1\n"), "\(text.stdout)")
                #expect(text.stdout.contains("\nPAYLOAD (\(arguments[0]); UNVERIFIED)\n"))

                let json = try CLI.run(["inspect", "--json"], stdin: token)
                #expect(json.status == 0)
                let object = try json.json()
                #expect(object.string("kind") == arguments[0])
                #expect(object["verified"] as? Bool == false)
                let signedBy = try #require(object["signedBy"] as? [String: Any])
                #expect(signedBy.string("signer") == "developer")
                #expect(signedBy.string("keyId") == "KEY1")
                #expect(signedBy.string("statement")?.hasPrefix("signed by a developer's In-App Purchase key") == true)
            }
        }
    }

    /// Input: an App Store token. Expected: `--json` has `signedBy` null and no developer statement in the text.
    @Test("inspect of an App Store token makes no developer-key statement")
    func appStoreToken() throws {
        let text = try CLI.run(["inspect", CLI.mock("transactionInfo")])
        #expect(text.stdout.contains("\n  kind: transaction\n"))
        #expect(!text.stdout.contains("developer"))
        let json = try CLI.run(["inspect", "--json", CLI.mock("transactionInfo")]).json()
        #expect(json["signedBy"] is NSNull)
    }

    /// Input: offer-v2 signed with a key id that carries ESC and a newline. Expected: the text shows it escaped and
    /// quoted, no raw ESC and no line starting with the forged `INFO`; `--json` carries it as JSON escapes.
    @Test("inspect escapes a hostile kid of a developer-signed token")
    func hostileKeyId() throws {
        try Self.withKey { key, request in
            let token = try Self.sign(Self.cases(request: request)[0].arguments, key: key, keyId: Self.hostileKeyId)
            let text = try CLI.run(["inspect"], stdin: token)
            #expect(text.status == 0)
            #expect(
                text.stdout.contains("(no certificate chain)\n  kid: \"K\\u001B[31m\\nINFO forged\"\n"), "\(text.stdout)")
            #expect(!text.stdout.unicodeScalars.contains { $0.value == 0x1B })
            let lines = text.stdout.split(separator: "\n")
            #expect(!lines.contains { $0.trimmingCharacters(in: .whitespaces).hasPrefix("INFO") })
            let json = try CLI.run(["inspect", "--json"], stdin: token)
            #expect(!json.stdoutData.contains(0x1B), "raw ESC in the JSON output")
            #expect((try json.json()["signedBy"] as? [String: Any])?.string("keyId") == Self.hostileKeyId)
        }
    }

    /// Input: each kind, to `verify --json`. Expected: exit 1, missingCertificateChain at the header
    /// check, as before `inspect` recognized them: recognizing them never makes them App Store data.
    @Test("verify still refuses each developer-signed kind with missingCertificateChain")
    func verifyRefuses() throws {
        try Self.withKey { key, request in
            for (arguments, _) in Self.cases(request: request) {
                let token = try Self.sign(arguments, key: key, keyId: "KEY1")
                let run = try CLI.run(
                    ["verify", "--json", "--bundle-id", "com.example", "--environment", "Sandbox"], stdin: token)
                #expect(run.status == 1, "\(arguments)")
                let object = try run.json()
                #expect(object.string("code") == "missingCertificateChain", "\(arguments)")
                #expect(object.string("check") == "header", "\(arguments)")
                #expect(object["verified"] as? Bool == false)
            }
        }
    }
}
