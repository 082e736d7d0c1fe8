import Foundation
import JWSVerifyTesting
import Testing

/// Issue 18: the CLI's messages in the CLI's terms (flags to pass, files given), through the built binary.
@Suite("messages in CLI terms")
struct MessageCommandTests {
    /// A temporary folder with `files` written into it, removed after `body`.
    static func withFiles<T>(_ files: [String: Data], _ body: (URL) throws -> T) throws -> T {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("jwsverify-msg-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        for (name, contents) in files { try contents.write(to: directory.appendingPathComponent(name)) }
        return try body(directory)
    }

    /// Expects a usage error (exit 64, nothing on stdout) whose message is exactly `message`.
    static func expectUsage(_ run: CLI.Run, _ message: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(run.status == 64, "\(run.stderr)", sourceLocation: sourceLocation)
        #expect(run.stdout.isEmpty, sourceLocation: sourceLocation)
        #expect(run.stderr.hasPrefix("Error: \(message)\nUsage: "), "\(run.stderr)", sourceLocation: sourceLocation)
    }

    /// Certificate files that are not certificates: a text file, a PEM with only a key, an empty file, a
    /// folder, a missing file, each given to `--root` and to `--xcode-certificate`. Expected: the message
    /// starts with the flag and the file (`--root /x: not a certificate: …`), 64 when the library refused
    /// the contents, 66 when the file could not be read or was empty; never the library's `root
    /// certificate 0`.
    @Test("a certificate file that is not one is named with its flag", arguments: ["--root", "--xcode-certificate"])
    func certificateFilesAreNamed(_ option: String) throws {
        let key = try Data(contentsOf: URL(fileURLWithPath: CLI.vector("apple-library/certs/testCA.key")))
        try Self.withFiles(["hostname": Data("buildhost\n".utf8), "key.pem": key, "empty.der": Data()]) { folder in
            func run(_ path: String) throws -> CLI.Run {
                let environment = option == "--root" ? [] : ["--environment", "Xcode"]
                return try CLI.run(environment + [option, path, CLI.mock("transactionInfo")])
            }
            let text = folder.appendingPathComponent("hostname").path
            Self.expectUsage(
                try run(text), "\(option) \(text): not a certificate: neither DER nor PEM X.509 (invalidConfiguration)")
            let pem = folder.appendingPathComponent("key.pem").path
            Self.expectUsage(
                try run(pem),
                "\(option) \(pem): not a certificate: a PEM file with no CERTIFICATE block (invalidConfiguration)")
            let empty = folder.appendingPathComponent("empty.der").path
            let emptyRun = try run(empty)
            #expect(emptyRun.status == 66)
            #expect(emptyRun.stderr == "Error: \(option) \(empty): empty file, not a certificate\n")
            let folderRun = try run(folder.path)
            #expect(folderRun.status == 66)
            #expect(folderRun.stderr == "Error: \(option) \(folder.path): cannot read: Is a directory\n")
            let missing = try run(folder.appendingPathComponent("missing").path)
            #expect(missing.status == 66)
            #expect(
                missing.stderr
                    == "Error: \(option) \(folder.appendingPathComponent("missing").path): cannot open: No such file or"
                    + " directory\n")
            for result in [try run(text), try run(pem)] {
                #expect(!result.stderr.contains("root certificate 0") && !result.stderr.contains("Xcode certificate"))
            }
        }
    }

    /// Configurations the library refuses, in flags: Production without an app Apple id, Xcode without
    /// its certificate, Xcode with online checks; and the CLI's own: `--online` with `--at`,
    /// `--xcode-certificate` without `--environment Xcode`. Expected: each names the flags to pass, never
    /// the library's parameters (`appAppleId`, `xcodeCertificate`, `enableOnlineChecks`).
    @Test("configuration errors name the flags to pass")
    func configurationErrorsNameFlags() throws {
        let cases: [([String], String)] = [
            (
                ["--environment", "Production"],
                "'--environment Production' requires '--app-apple-id' (the app's Apple id, from App Store Connect):"
                    + " Production tokens are checked against it (invalidConfiguration)"
            ),
            (
                ["--environment", "Xcode"],
                "'--environment Xcode' requires '--xcode-certificate': in Xcode, open the .storekit configuration,"
                    + " choose Editor > Save Public Certificate, and pass that file (invalidConfiguration)"
            ),
            (
                ["--environment", "Xcode", "--online"],
                "'--online' cannot be combined with '--environment Xcode': nobody revokes a StoreKit Testing"
                    + " certificate (invalidConfiguration)"
            ),
            (
                ["--online", "--at", "now"],
                "'--online' cannot be combined with '--at': online checks validate at the current time"
            ),
            (
                ["--xcode-certificate", CLI.testRoot],
                "'--xcode-certificate' requires '--environment Xcode'"
            ),
        ]
        for (arguments, message) in cases {
            for subcommand in [[], ["batch"]] {
                let run = try CLI.run(subcommand + arguments, stdin: "x")
                Self.expectUsage(run, message)
                for parameter in ["appAppleId", "xcodeCertificate", "enableOnlineChecks", "SignedDataVerifier"] {
                    #expect(!run.stderr.contains(parameter), "\(arguments): \(run.stderr)")
                }
            }
        }
    }

    /// A notification verified with `--kind renewal`. Expected: the library's code and message (which
    /// names its methods), and a hint naming `--kind notification`, in text and in `--json`'s `hints`.
    @Test("a payload of another kind hints '--kind <its kind>'")
    func otherKindHintsKind() throws {
        let arguments = CLI.mockConfiguration + ["--kind", "renewal", CLI.mock("testNotification")]
        let text = try CLI.run(arguments)
        #expect(text.status == 1)
        #expect(text.stdout.hasPrefix("NOT VERIFIED: payloadDecodingFailed (payload): this token is a notification"))
        #expect(
            text.stdout.contains(
                "\n  hint: the payload is a notification: pass '--kind notification', or leave out '--kind' to verify"
                    + " each token as the kind its payload shows\n"))
        let object = try CLI.run(arguments + ["--json"]).json()
        #expect(object.string("code") == "payloadDecodingFailed")
        let hints = try #require(object["hints"] as? [String])
        #expect(hints.first?.hasPrefix("the payload is a notification: pass '--kind notification'") == true)
        #expect(object["chainValidated"] as? Bool == true)
    }

    /// Apple's wrongBundleId notification (no signedDate, so validated at the current time) under
    /// `--bundle-id com.example`. Expected: the claims failure hints at `--bundle-id` without telling
    /// to copy the token's id; the validated chain is reported (`chainValidated` true, roles, the
    /// matched root), with the validation time used and the note that it is the current time and that
    /// `--at` picks another.
    @Test("a claims failure reports the validated chain, the time used and a --bundle-id hint")
    func claimsFailureAfterValidatedChain() throws {
        let text = try CLI.run(CLI.mockConfiguration + [CLI.mock("wrongBundleId")])
        #expect(text.status == 1)
        #expect(
            text.stdout.contains(
                "\n  hint: the token names another app's bundle id; '--bundle-id' must be your app's: change it only"
                    + " if that bundle id is yours too\n"))
        #expect(!text.stdout.contains("com.example.wrong'"), "the hint never suggests the token's own id as a flag")
        #expect(
            text.stdout.contains(
                " (the current time: the payload has no signedDate; pass '--at <time>' to validate at another time)\n"))
        #expect(text.stdout.contains("\nCHAIN (validated, leaf first, ending in the trusted root that matched)\n"))
        #expect(text.stdout.contains("  root: matched trusted root --root \(CLI.testRoot)\n"))

        let before = Date()
        let object = try CLI.run(CLI.mockConfiguration + ["--json", CLI.mock("wrongBundleId")]).json()
        #expect(object.string("code") == "invalidAppIdentifier")
        #expect(object["chainValidated"] as? Bool == true)
        let time = try #require(object.string("validationTime"))
        let parsed = try #require(ISO8601DateFormatter().date(from: time))
        #expect(abs(parsed.timeIntervalSince(before)) < 120, "the current time: \(time)")
        let chain = try #require(object["chain"] as? [[String: Any]])
        #expect(chain.map { $0["role"] as? String } == ["leaf", "intermediate", "root"])
        #expect(chain[2]["trustAnchor"] as? String == "--root \(CLI.testRoot)")
        let hints = try #require(object["hints"] as? [String])
        #expect(hints.count == 2)
        #expect(hints.first?.contains("'--bundle-id'") == true)
        #expect(
            hints.last?.hasPrefix("validated at the current time: the payload has no signedDate; pass '--at") == true)

        // With a time given, there is no note about the current time.
        let fixed = try CLI.run(
            CLI.mockConfiguration + ["--json", "--at", "2023-06-01T00:00:00Z", CLI.mock("wrongBundleId")]
        ).json()
        #expect(fixed.string("validationTime") == "2023-06-01T00:00:00Z")
        #expect((fixed["hints"] as? [String])?.count == 1)
    }

    /// A Sandbox transaction under `--environment Production --app-apple-id 1234`. Expected: the
    /// environment hint names `--environment`, and the chain is reported as validated at the signed date.
    @Test("an environment mismatch hints '--environment' and reports the signed date it validated at")
    func environmentMismatch() throws {
        let arguments = ["--root", CLI.testRoot, "--environment", "Production", "--app-apple-id", "1234"]
        let text = try CLI.run(arguments + [CLI.mock("transactionInfo")])
        #expect(text.status == 1)
        #expect(
            text.stdout.contains(
                "\n  hint: the token comes from another environment than '--environment Production'; pass the"
                    + " environment it names to '--environment' only where such tokens may be accepted\n"))
        #expect(text.stdout.contains("\n  validated at: 2023-01-05T22:02:34Z\n"))
        let object = try CLI.run(arguments + ["--json", CLI.mock("transactionInfo")]).json()
        #expect(object.string("code") == "invalidEnvironment")
        #expect(object["chainValidated"] as? Bool == true)
        #expect(object.string("validationTime") == "2023-01-05T22:02:34Z")
    }

    /// A Production app transaction minted for app Apple id 99, verified with `--app-apple-id 1234`.
    /// Expected: the library's message and a hint naming `--app-apple-id` that says not to copy the
    /// token's id, in text and JSON, with the validated chain.
    @Test("an app Apple id mismatch hints '--app-apple-id' without suggesting the token's id")
    func appAppleIdMismatch() throws {
        try Self.withFiles([:]) { folder in
            let pki = folder.appendingPathComponent("pki").path
            #expect(try CLI.run(["mint", "pki", "--out", pki, "--seed", "1"]).status == 0)
            let minted = try CLI.run([
                "mint", "token", "--pki", pki, "--kind", "app-transaction", "--environment", "Production",
                "--app-apple-id", "99", "--seed", "1",
            ])
            #expect(minted.status == 0)
            let arguments = [
                "--root", pki + "/root.der", "--environment", "Production", "--app-apple-id", "1234", "--bundle-id",
                "com.example.jwsverify",
            ]
            let text = try CLI.run(arguments, stdin: minted.stdoutData)
            #expect(text.status == 1)
            #expect(
                text.stdout.hasPrefix("NOT VERIFIED: invalidAppIdentifier (claims): appAppleId is 99, expected 1234\n"))
            #expect(
                text.stdout.contains(
                    "\n  hint: the token names another app Apple id; '--app-apple-id' must be your app's, from App Store"
                        + " Connect: never copy the token's\n"))
            #expect(!text.stdout.contains("--app-apple-id 99"))
            let object = try CLI.run(arguments + ["--json"], stdin: minted.stdoutData).json()
            #expect((object["hints"] as? [String])?.first?.contains("'--app-apple-id'") == true)
            #expect(object["chainValidated"] as? Bool == true)
        }
    }

    /// Failures before or in the chain checks. Expected: a header failure has no validation time and
    /// an unvalidated chain; an expired chain says which certificate, its window and the time used,
    /// with `validationTime` that time and `chainValidated` false; a bad signature comes after a
    /// validated chain.
    @Test("chainValidated and validationTime follow how far the checks got")
    func howFarTheChecksGot() throws {
        let header = try CLI.run(CLI.mockConfiguration + ["--json", CLI.mock("missingX5CHeaderClaim")]).json()
        #expect(header.string("code") == "missingCertificateChain")
        #expect(header["chainValidated"] as? Bool == false)
        #expect(header["validationTime"] is NSNull)

        let arguments = CLI.mockConfiguration + ["--at", "2100-01-01T00:00:00Z", CLI.mock("transactionInfo")]
        let expired = try CLI.run(arguments)
        #expect(
            expired.stdout.hasPrefix(
                "NOT VERIFIED: certificateExpired (chain): the root certificate (without a CN or O) is not valid at"
                    + " 2100-01-01T00:00:00Z, outside its validity from 2023-01-05T21:30:22Z to 2033-01-02T21:30:22Z:"
                    + " certificate has expired\n"), "\(expired.stdout.prefix(300))")
        let object = try CLI.run(arguments + ["--json"]).json()
        #expect(object.string("code") == "certificateExpired")
        #expect(object["chainValidated"] as? Bool == false)
        #expect(object.string("validationTime") == "2100-01-01T00:00:00Z")
        #expect(object.string("message")?.contains("outside its validity from 2023-01-05T21:30:22Z") == true)

        let transaction = try CLI.token("apple-library/mock_signed_data/transactionInfo").split(separator: ".")
        let renewal = try CLI.token("apple-library/mock_signed_data/renewalInfo").split(separator: ".")
        let swapped = "\(transaction[0]).\(transaction[1]).\(renewal[2])"
        let signature = try CLI.run(CLI.mockConfiguration + ["--json"], stdin: Data(swapped.utf8)).json()
        #expect(signature.string("code") == "invalidSignature")
        #expect(signature["chainValidated"] as? Bool == true)
        #expect(signature.string("validationTime") == "2023-01-05T22:02:34Z")
    }

    /// An Xcode StoreKit Testing token verified with Apple's roots, and Apple's mock transaction verified
    /// as Xcode. Expected: invalidChainLength with the library's message, and a hint naming the flags:
    /// add `--environment Xcode --xcode-certificate <file>`, or leave out `--environment Xcode`.
    @Test("a token for the other trust anchor hints the --environment Xcode flags")
    func xcodeHints() throws {
        let xcode = try CLI.run(["--json", CLI.vector("apple-library/xcode/xcode-signed-transaction")]).json()
        #expect(xcode.string("code") == "invalidChainLength")
        #expect(
            (xcode["hints"] as? [String])?.first?.hasPrefix(
                "pass '--environment Xcode --xcode-certificate <file>' with the certificate exported from Xcode")
                == true)
        let apple = try CLI.run([
            "--environment", "Xcode", "--xcode-certificate",
            CLI.vector("apple-library/xcode/StoreKitTestCertificate.cer"), CLI.mock("transactionInfo"),
        ])
        #expect(apple.status == 1)
        #expect(
            apple.stdout.contains(
                "\n  hint: this token carries Apple's chain, not a StoreKit Testing certificate: verify it without"
                    + " '--environment Xcode'\n"))
    }

    /// `--environment LocalTesting`. Expected: the library's message, and a hint in CLI terms (decoded
    /// only; `jwsverify inspect`), in text and JSON.
    @Test("LocalTesting tokens hint that they were decoded only")
    func localTestingHint() throws {
        let text = try CLI.run(["--environment", "LocalTesting", CLI.mock("transactionInfo")])
        #expect(text.status == 1)
        #expect(text.stdout.contains("\n  hint: LocalTesting tokens are signed by nobody, so nothing can verify them;"))
        let object = try CLI.run(["--environment", "LocalTesting", "--json", CLI.mock("transactionInfo")]).json()
        #expect((object["hints"] as? [String])?.first?.contains("'jwsverify inspect'") == true)
    }
}

/// `--environment` given several times: one run for Production and Sandbox tokens.
@Suite("Several environments on the command line")
struct SeveralEnvironmentsCommandTests {
    /// Input: a Sandbox transaction and a Production app transaction, minted with the test PKI, in
    /// one batch with `--environment Production --environment sandbox --app-apple-id 1234`.
    /// Expected: both verify and each line names its environment; with another app Apple id the
    /// Production one fails `invalidAppIdentifier` and the Sandbox one still verifies; LocalTesting
    /// or Xcode with another environment is a usage error naming the flags.
    @Test("Production and Sandbox tokens verify in one batch")
    func productionAndSandbox() throws {
        let pki = try TestHierarchy.generate(.appStoreEC, seed: 77)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("jwsverify-envs-\(UUID())")
        try pki.write(to: directory)
        defer { try? FileManager.default.removeItem(at: directory) }
        let minter = try TokenMinter(hierarchy: pki)
        var sandbox = PayloadParameters(bundleId: "com.example.envs")
        sandbox.environment = "Sandbox"
        var production = sandbox
        production.environment = "Production"
        production.appAppleId = 1234
        let lines =
            try minter.mint(.transaction, parameters: sandbox)[0] + "\n"
            + minter.mint(.appTransaction, parameters: production)[0] + "\n"
        let root = directory.appendingPathComponent("root.der").path
        let base = [
            "batch", "--root", root, "--bundle-id", "com.example.envs", "--environment", "Production",
            "--environment", "sandbox", "--fields", "verified,code,environment",
        ]
        let run = try CLI.run(base + ["--app-apple-id", "1234"], stdin: lines)
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        let results = run.stdout.split(separator: "\n").map(String.init)
        #expect(results.count == 2)
        #expect(results.first?.contains(#""environment":"Sandbox""#) == true)
        #expect(results.last?.contains(#""environment":"Production""#) == true)
        #expect(results.allSatisfy { $0.contains(#""verified":true"#) })

        let otherApp = try CLI.run(base + ["--app-apple-id", "99"], stdin: lines)
        #expect(otherApp.status == 1)
        let other = otherApp.stdout.split(separator: "\n").map(String.init)
        #expect(other.first?.contains(#""verified":true"#) == true)
        #expect(other.last?.contains(#""code":"invalidAppIdentifier""#) == true)

        for (extra, fragment) in [
            (["--environment", "LocalTesting"], "'--environment LocalTesting' cannot be combined"),
            (["--environment", "Xcode", "--xcode-certificate", root], "'--environment Xcode' cannot be combined"),
        ] {
            let refused = try CLI.run(
                ["--environment", "Sandbox"] + extra + ["--app-apple-id", "1"], stdin: lines)
            #expect(refused.status == 64)
            #expect(refused.stdout.isEmpty)
            #expect(refused.stderr.contains(fragment), "\(refused.stderr)")
        }
    }
}
