import Foundation
import Testing

/// `jwsverify [verify]` end to end: the built binary, its stdout, stderr and exit status.
@Suite("verify")
struct VerifyCommandTests {
    /// The keys every `--json` verification object has.
    static let documentedKeys = [
        "schemaVersion", "verified", "kind", "code", "check", "message", "underlying", "retryable", "nestedField",
        "nestedCheck", "checks", "chain", "chainValidated", "certificateProblems", "validationTime", "hints", "payload",
        "nested",
    ]

    /// Apple's mock transaction, trusted through Apple's test root, with the right bundle id and environment.
    @Test("Apple's mock transaction verifies and prints VERIFIED, the checks, the chain and the payload")
    func mockTransactionVerifies() throws {
        let run = try CLI.run(CLI.mockConfiguration + [CLI.mock("transactionInfo")])
        #expect(run.status == 0)
        #expect(run.stdout.hasPrefix("VERIFIED\n"))
        #expect(run.stdout.contains("  passed   bundleId          \"com.example\""))
        #expect(run.stdout.contains("  passed   signature"))
        #expect(run.stdout.contains("CHAIN (validated"))
        #expect(run.stdout.contains("  root: matched trusted root --root \(CLI.testRoot)"))
        #expect(run.stdout.contains("    sha256:     48AA70550EAB2CD71D51DCED44E88F9143B6BC0E1A6F430C19BA9A7CF36654E6"))
        #expect(run.stdout.contains("  environment: Sandbox (sandbox)\n"))
        #expect(run.stdout.contains("  signedDate: 2023-01-05T22:02:34Z (1672956154000)\n"))
        #expect(run.stderr.isEmpty)
    }

    /// The same token read from standard input, with surrounding whitespace and a trailing newline.
    @Test("a token on standard input verifies; whitespace around it is ignored")
    func standardInput() throws {
        let token = try CLI.token("apple-library/mock_signed_data/transactionInfo")
        let run = try CLI.run(CLI.mockConfiguration, stdin: "  \n\t" + token + " \r\n\n")
        #expect(run.status == 0)
        #expect(run.stdout.hasPrefix("VERIFIED\n"))
        let dash = try CLI.run(CLI.mockConfiguration + ["-"], stdin: token + "\n")
        #expect(dash.status == 0)
    }

    /// Apple's wrongBundleId notification fails the claims check with invalidAppIdentifier.
    @Test("the wrongBundleId token exits 1 with invalidAppIdentifier (claims), in text and JSON")
    func wrongBundleId() throws {
        let text = try CLI.run(CLI.mockConfiguration + [CLI.mock("wrongBundleId")])
        #expect(text.status == 1)
        #expect(text.stdout.hasPrefix("NOT VERIFIED: invalidAppIdentifier (claims): bundleId is \"com.example.wrong\""))
        #expect(text.stdout.contains("  failed   bundleId"))
        #expect(text.stdout.contains("PAYLOAD (notification; NOT VERIFIED: do not trust it)"))

        let json = try CLI.run(CLI.mockConfiguration + ["--json", CLI.mock("wrongBundleId")])
        #expect(json.status == 1)
        let object = try json.json()
        #expect(object["verified"] as? Bool == false)
        #expect(object.string("code") == "invalidAppIdentifier")
        #expect(object.string("check") == "claims")
        #expect(object.string("kind") == "notification")
        let payload = try #require(object["payload"] as? [String: Any])
        #expect((payload["data"] as? [String: Any])?["bundleId"] as? String == "com.example.wrong")
    }

    /// `--json` prints one object with every documented key, sorted, verified or not.
    @Test("--json prints one object with the documented keys, sorted")
    func jsonShape() throws {
        let run = try CLI.run(CLI.mockConfiguration + ["--json", CLI.mock("transactionInfo")])
        #expect(run.status == 0)
        let object = try run.json()
        #expect(Set(object.keys) == Set(Self.documentedKeys))
        let keys = topLevelKeys(ofPrettyJSON: run.stdout)
        #expect(keys == keys.sorted())
        #expect(keys.count == Self.documentedKeys.count)
        #expect(object["schemaVersion"] as? Int == 1)
        #expect(object["verified"] as? Bool == true)
        #expect(object["code"] is NSNull)
        #expect(object["check"] is NSNull)
        #expect(object.string("kind") == "transaction")
        #expect(object.string("validationTime") == "2023-01-05T22:02:34Z")
        let payload = try #require(object["payload"] as? [String: Any])
        #expect(payload["signedDate"] as? Int == 1_672_956_154_000)
        #expect(payload["environment"] as? String == "Sandbox")
        let checks = try #require(object["checks"] as? [[String: Any]])
        #expect(checks.first?["name"] as? String == "format")
        #expect(checks.allSatisfy { Set($0.keys) == ["name", "outcome", "detail"] })
        let chain = try #require(object["chain"] as? [[String: Any]])
        #expect(chain.map { $0["role"] as? String } == ["leaf", "intermediate", "root"])
        #expect(chain[2]["trustAnchor"] as? String == "--root \(CLI.testRoot)")
        #expect(chain[0]["notBefore"] as? String == "2023-01-04T16:37:31Z")
        #expect(chain[0]["der"] is String)
        #expect(object["nested"] is NSNull)
    }

    /// One failure per family of checks, each with its code and check, in text and JSON. The input is a
    /// literal token or, when it starts with `/`, a token file fed on standard input.
    @Test(
        "each failure family reports its code and check",
        arguments: [
            (["--root", CLI.testRoot], "not-a-token", "malformedToken", "format"),
            (CLI.mockConfiguration, CLI.mock("missingX5CHeaderClaim"), "missingCertificateChain", "header"),
            (["--bundle-id", "com.example"], CLI.mock("transactionInfo"), "untrustedChain", "chain"),
            (
                CLI.mockConfiguration + ["--at", "2100-01-01T00:00:00Z"], CLI.mock("transactionInfo"),
                "certificateExpired", "chain"
            ),
            (
                CLI.mockConfiguration + ["--kind", "renewal"], CLI.mock("testNotification"), "payloadDecodingFailed",
                "payload"
            ),
            (
                ["--root", CLI.testRoot, "--environment", "Production", "--app-apple-id", "1234"],
                CLI.mock("transactionInfo"), "invalidEnvironment", "claims"
            ),
        ])
    func failureFamilies(arguments: [String], input: String, code: String, check: String) throws {
        let token = input.hasPrefix("/") ? try String(contentsOfFile: input, encoding: .utf8) : input
        let text = try CLI.run(arguments, stdin: token)
        #expect(text.status == 1, "\(code): \(text.stdout.prefix(300)) \(text.stderr)")
        #expect(text.stdout.hasPrefix("NOT VERIFIED: \(code) (\(check)): "), "\(code): \(text.stdout.prefix(300))")
        let json = try CLI.run(arguments + ["--json"], stdin: token)
        #expect(json.status == 1)
        let object = try json.json()
        #expect(object.string("code") == code)
        #expect(object.string("check") == check)
        #expect(object["verified"] as? Bool == false)
        let checks = try #require(object["checks"] as? [[String: Any]])
        #expect(checks.filter { $0["outcome"] as? String == "failed" }.count == 1, "\(code): one failed step")
    }

    /// The signature family: a token whose signature segment comes from another token.
    @Test("a token with another token's signature exits 1 with invalidSignature (signature)")
    func swappedSignature() throws {
        let transaction = try CLI.token("apple-library/mock_signed_data/transactionInfo").split(separator: ".")
        let renewal = try CLI.token("apple-library/mock_signed_data/renewalInfo").split(separator: ".")
        let token = [transaction[0], transaction[1], renewal[2]].joined(separator: ".")
        let run = try CLI.run(CLI.mockConfiguration + ["--json"], stdin: token)
        #expect(run.status == 1)
        #expect(try run.json().string("code") == "invalidSignature")
        #expect(try run.json().string("check") == "signature")
    }

    /// The library refuses a forged header before decoding the payload model; the CLI still shows
    /// what the token claims, labelled unverified.
    @Test("a header failure still shows the claimed payload and its kind")
    func headerFailureShowsPayload() throws {
        let token = try String(contentsOfFile: CLI.mock("missingX5CHeaderClaim"), encoding: .utf8)
        let run = try CLI.run(CLI.mockConfiguration + ["--json"], stdin: token)
        #expect(run.status == 1)
        let object = try run.json()
        #expect(object.string("code") == "missingCertificateChain")
        #expect(object.string("kind") == "notification")
        let payload = try #require(object["payload"] as? [String: Any])
        #expect(payload["notificationType"] as? String == "TEST")
    }

    /// Without --bundle-id the bundle id step is skipped, never passed.
    @Test("without --bundle-id the bundleId step is reported as skipped")
    func bundleIdSkipped() throws {
        let run = try CLI.run(["--root", CLI.testRoot, "--json", CLI.mock("transactionInfo")])
        #expect(run.status == 0)
        let checks = try #require(try run.json()["checks"] as? [[String: Any]])
        let step = try #require(checks.first { $0["name"] as? String == "bundleId" })
        #expect(step["outcome"] as? String == "skipped")
        let text = try CLI.run(["--root", CLI.testRoot, CLI.mock("transactionInfo")])
        #expect(text.stdout.contains("  skipped  bundleId          no bundle id configured"))
        #expect(text.stdout.contains("  skipped  environment       no environment configured"))
    }

    /// Usage errors: stderr in argument-parser's format, nothing on stdout, exit 64.
    @Test(
        "usage errors exit 64 with Error, Usage and the help hint on stderr",
        arguments: [
            (["--frobnicate"], "Error: Unknown option '--frobnicate'"),
            (["--online", "--at", "now"], "Error: '--online' cannot be combined with '--at'"),
            (["--environment", "Production"], "Error: '--environment Production' requires '--app-apple-id'"),
            (["--environment", "Xcode"], "Error: '--environment Xcode' requires '--xcode-certificate'"),
            (
                ["--root", CLI.vector("apple-library/certs/testCA.key")],
                "Error: --root \(CLI.vector("apple-library/certs/testCA.key")): not a certificate: a PEM file with no"
                    + " CERTIFICATE block (invalidConfiguration)\n"
            ),
        ])
    func usageErrors(arguments: [String], message: String) throws {
        let run = try CLI.run(arguments, stdin: "ignored")
        #expect(run.status == 64)
        #expect(run.stdout.isEmpty)
        #expect(run.stderr.hasPrefix(message), "\(run.stderr)")
        #expect(run.stderr.contains("\nUsage: jwsverify [verify] [<options>] [<file> ...]\n"))
        #expect(run.stderr.hasSuffix("  See 'jwsverify --help' for more information.\n"))
    }

    /// Input that is missing or empty: exit 66 with a message on stderr.
    @Test("a missing file, an empty standard input or a missing --root file exit 66")
    func missingInput() throws {
        let missing = try CLI.run(["/nonexistent/token"])
        #expect(missing.status == 66)
        #expect(missing.stderr.hasPrefix("Error: cannot open '/nonexistent/token': No such file or directory"))
        let empty = try CLI.run([])
        #expect(empty.status == 66)
        #expect(empty.stderr == "Error: no token on standard input\n")
        let blank = try CLI.run(["--json"], stdin: " \n\t\n")
        #expect(blank.status == 66)
        #expect(blank.stdout.isEmpty)
        let root = try CLI.run(["--root", "/nonexistent/root.der", CLI.mock("transactionInfo")])
        #expect(root.status == 66)
        #expect(root.stderr == "Error: --root /nonexistent/root.der: cannot open: No such file or directory\n")
    }

    /// Binary garbage (invalid UTF-8, NUL, control bytes) is a malformed token, not a crash.
    @Test("binary garbage on standard input exits 1 with malformedToken")
    func binaryGarbage() throws {
        var generator = SystemRandomNumberGenerator()
        var bytes: [UInt8] = [0xFF, 0xFE, 0x00, 0xC3, 0x28, 0x2E, 0x2E]
        bytes += (0..<4096).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let text = try CLI.run([], stdin: Data(bytes))
        #expect(text.status == 1)
        #expect(text.stdout.hasPrefix("NOT VERIFIED: malformedToken (format): "))
        let json = try CLI.run(["--json"], stdin: Data(bytes))
        #expect(json.status == 1)
        #expect(try json.json().string("code") == "malformedToken")
    }

    /// A 10 MB line is rejected by size, in bounded memory.
    @Test("a 10 MB line on standard input exits 1 with malformedToken")
    func hugeLine() throws {
        let line = Data(repeating: UInt8(ascii: "A"), count: 10 * 1024 * 1024) + Data("\n".utf8)
        let run = try CLI.run(["--json"], stdin: line)
        #expect(run.status == 1)
        let object = try run.json()
        #expect(object.string("code") == "malformedToken")
        #expect(object.string("message")?.contains("over the limit") == true)
        let larger = Data(repeating: UInt8(ascii: "."), count: 17 * 1024 * 1024)
        let over = try CLI.run([], stdin: larger)
        #expect(over.status == 1)
        #expect(over.stdout.hasPrefix("NOT VERIFIED: malformedToken (format): the input is"))
    }

    /// A notification's nested tokens are verified one by one, each with its own verdict.
    @Test("a notification shows each nested token verified on its own, indented")
    func nestedTokens() throws {
        let good = try CLI.run(CLI.mockConfiguration, stdin: Fixtures.notification)
        #expect(good.status == 0, "\(good.stdout.prefix(400))")
        #expect(good.stdout.hasPrefix("VERIFIED\n"))
        #expect(good.stdout.contains("\nNESTED TOKEN data.signedTransactionInfo\n    VERIFIED\n"))
        #expect(good.stdout.contains("\nNESTED TOKEN data.signedRenewalInfo\n    VERIFIED\n"))
        #expect(good.stdout.contains("      type: Auto-Renewable Subscription (autoRenewableSubscription)\n"))
        #expect(good.stdout.contains("      futureField: kept\n"))
        #expect(good.stdout.contains("      expiresDate: 2023-07-01T11:46:40Z (1688212000000)\n"))

        let bad = try CLI.run(CLI.mockConfiguration + ["--json"], stdin: Fixtures.notificationWithTamperedRenewal)
        #expect(bad.status == 1)
        let object = try bad.json()
        #expect(object.string("code") == "invalidSignature")
        #expect(object.string("check") == "nestedTokens")
        #expect(object.string("nestedField") == "signedRenewalInfo")
        #expect(object.string("nestedCheck") == "signature")
        let nested = try #require(object["nested"] as? [String: [String: Any]])
        #expect(Set(nested.keys) == ["signedTransactionInfo", "signedRenewalInfo"])
        #expect(nested["signedTransactionInfo"]?["verified"] as? Bool == true)
        #expect(nested["signedTransactionInfo"]?.string("kind") == "transaction")
        #expect(nested["signedRenewalInfo"]?["verified"] as? Bool == false)
        #expect(nested["signedRenewalInfo"]?.string("code") == "invalidSignature")
        #expect(nested["signedRenewalInfo"]?.string("kind") == "renewal")
        let text = try CLI.run(CLI.mockConfiguration, stdin: Fixtures.notificationWithTamperedRenewal)
        #expect(
            text.stdout.contains(
                "\nNESTED TOKEN data.signedRenewalInfo\n    NOT VERIFIED: invalidSignature (signature)"))
    }

    /// LocalTesting tokens are decoded, labelled NOT VERIFIED, and exit 1.
    @Test("--environment LocalTesting decodes without verifying and exits 1")
    func localTesting() throws {
        let run = try CLI.run(["--environment", "LocalTesting", CLI.mock("transactionInfo")])
        #expect(run.status == 1)
        #expect(run.stdout.hasPrefix("NOT VERIFIED: invalidConfiguration (configuration): LocalTesting"))
        #expect(run.stdout.contains("decoded WITHOUT verification"))
        #expect(run.stdout.contains("  bundleId: com.example\n"))
        let json = try CLI.run(["--environment", "localtesting", "--json", CLI.mock("transactionInfo")])
        #expect(json.status == 1)
        #expect(try json.json()["verified"] as? Bool == false)
        #expect(try (json.json()["payload"] as? [String: Any])?["bundleId"] as? String == "com.example")
    }

    /// An Xcode StoreKit Testing token verifies against the certificate exported from Xcode; its
    /// fractional millisecond dates print as ISO 8601 beside the raw number.
    @Test("an Xcode token verifies with --xcode-certificate and shows fractional dates")
    func xcodeToken() throws {
        let directory = "apple-library/xcode/"
        let run = try CLI.run([
            "--environment", "Xcode", "--xcode-certificate", CLI.vector(directory + "StoreKitTestCertificate.cer"),
            "--bundle-id", "com.example.naturelab.backyardbirds.example",
            CLI.vector(directory + "xcode-signed-transaction"),
        ])
        #expect(run.status == 0, "\(run.stdout.prefix(300))")
        #expect(run.stdout.hasPrefix("VERIFIED\n"))
        #expect(run.stdout.contains("  StoreKit Testing certificate: matched trusted root --xcode-certificate\n"))
        #expect(run.stdout.contains("  expiresDate: 2023-11-19T01:45:36.049Z (1700358336049.7297)\n"))
        let without = try CLI.run([
            "--bundle-id", "com.example", "--json", CLI.vector(directory + "xcode-signed-transaction"),
        ])
        #expect(without.status == 1)
        #expect(try without.json().string("code") == "invalidChainLength")
    }

    /// Each of the three Xcode tokens verifies only with the certificate Xcode exports, not another one.
    @Test(
        "Xcode tokens verify only with the right pinned certificate",
        arguments: ["xcode-signed-transaction", "xcode-signed-renewal-info", "xcode-signed-app-transaction"])
    func xcodePinning(_ name: String) throws {
        let directory = "apple-library/xcode/"
        let common = ["--environment", "Xcode", "--bundle-id", "com.example.naturelab.backyardbirds.example", "--json"]
        let right = try CLI.run(
            common + [
                "--xcode-certificate", CLI.vector(directory + "StoreKitTestCertificate.pem"),
                CLI.vector(directory + name),
            ])
        #expect(right.status == 0, "\(name): \(right.stdout.prefix(300))")
        let wrong = try CLI.run(
            common + [
                "--xcode-certificate", CLI.vector("apple-library/certs/testCA.der"), CLI.vector(directory + name),
            ])
        #expect(wrong.status == 1, "\(name)")
        #expect(try wrong.json().string("code") == "untrustedChain", "\(name)")
    }

    /// --quiet prints nothing and keeps the exit status.
    @Test("--quiet prints nothing and keeps the exit status")
    func quiet() throws {
        let good = try CLI.run(CLI.mockConfiguration + ["-q", CLI.mock("transactionInfo")])
        #expect(good.status == 0)
        #expect(good.stdout.isEmpty && good.stderr.isEmpty)
        let bad = try CLI.run(CLI.mockConfiguration + ["--quiet", CLI.mock("wrongBundleId")])
        #expect(bad.status == 1)
        #expect(bad.stdout.isEmpty && bad.stderr.isEmpty)
    }

    /// --help and --version print on stdout and exit 0.
    @Test("--help and --version print on stdout and exit 0")
    func helpAndVersion() throws {
        let help = try CLI.run(["--help"])
        #expect(help.status == 0)
        #expect(help.stdout.hasPrefix("OVERVIEW: "))
        #expect(help.stdout.contains("\nEXIT CODES:\n  0 "))
        for subcommand in ["inspect", "batch"] {
            let run = try CLI.run([subcommand, "--help"])
            #expect(run.status == 0)
            #expect(run.stdout.contains("USAGE: jwsverify \(subcommand) "))
        }
        let version = try CLI.run(["--version"])
        #expect(version.status == 0)
        #expect(version.stdout == "0.1.0\n")
    }
}
