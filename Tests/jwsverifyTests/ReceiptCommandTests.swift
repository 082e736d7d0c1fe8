import Foundation
import Testing

/// `jwsverify receipt` end to end: real App Store and Xcode receipts of `TestVectors`, and receipts minted by the
/// same binary, through every input shape, option and failure the command reports.
@Suite("receipt")
struct ReceiptCommandTests {
    // MARK: Real receipts

    /// Input: each real App Store receipt, with its bundle id and `--environment Sandbox`, default root and time.
    /// Expected: exit 0; `VERIFIED`, the chain to the bundled Apple Inc. Root, the summary's bundle id and purchase
    /// count; in JSON the verifyReceipt shape (`bundle_id`, `receipt_type`, `receipt_creation_date_ms` as a
    /// string, `in_app`), the validation time at the creation date, and the digest the `algorithm` step names.
    @Test("a real receipt verifies with the bundled root at its creation date", arguments: ReceiptFixtures.appStore)
    func realReceiptVerifies(_ real: ReceiptFixtures.Real) throws {
        let options = ["receipt", "--bundle-id", real.bundleId, "--environment", "Sandbox", real.path]
        let text = try CLI.run(options)
        #expect(text.status == 0, "\(text.stdout.prefix(400))")
        #expect(text.stdout.hasPrefix("VERIFIED\n  kind: receipt\n  validated at: \(real.created)\n"))
        #expect(text.stdout.contains("\n  root: matched trusted root Apple Inc. Root (bundled)\n"))
        #expect(text.stdout.contains("\nRECEIPT (verified)\n  bundle id:              \(real.bundleId)\n"))
        #expect(text.stdout.contains("\n  receipt type:           ProductionSandbox (Sandbox)\n"))
        #expect(text.stdout.contains("\n  purchases:              \(real.purchases)\n"))
        #expect(text.stderr.isEmpty)

        let run = try CLI.run(options + ["--json"])
        #expect(run.status == 0)
        let json = try run.json()
        #expect(json["verified"] as? Bool == true)
        #expect(json["kind"] as? String == "receipt")
        #expect(json["code"] is NSNull && json["check"] is NSNull)
        #expect(json.string("message") == "every check passed")
        #expect(json.string("validationTime") == real.created)
        #expect(json.string("environment") == "Sandbox")
        #expect(json["schemaVersion"] as? Int == 1)
        #expect(json["chainValidated"] as? Bool == true)
        let chain = try #require(json["chain"] as? [[String: Any]])
        #expect(chain.map { $0["role"] as? String } == ["receipt signer", "intermediate", "root"])
        #expect(chain[2]["trustAnchor"] as? String == "Apple Inc. Root (bundled)")
        #expect(chain[0]["keyType"] as? String == "RSA 2048")
        #expect(chain.allSatisfy { $0["der"] is String })
        #expect(json.step("algorithm")?["detail"] as? String == "RSA PKCS #1 v1.5 with \(real.digest)")
        #expect(json.step("deviceHash")?["outcome"] as? String == "skipped")
        let receipt = try #require(json.receipt)
        #expect(receipt["bundle_id"] as? String == real.bundleId)
        #expect(receipt["receipt_type"] as? String == "ProductionSandbox")
        let created = try #require(ISO8601DateFormatter().date(from: real.created))
        #expect(receipt["receipt_creation_date_ms"] as? String == "\(Int64(created.timeIntervalSince1970) * 1000)")
        #expect(json.purchases?.count == real.purchases)
    }

    /// Input: the 2025 receipt in every accepted shape: the file's base64, the raw DER file, base64 on standard
    /// input (no FILE, and `-`), a verifyReceipt request body with `password` and `exclude-old-transactions`, a
    /// JSON string, base64 wrapped at 76 columns. Expected: each verified, exit 0.
    @Test("raw DER, base64, standard input, a verifyReceipt body and a JSON string all verify")
    func inputShapes() throws {
        let real = ReceiptFixtures.recent
        let base64 = try real.base64()
        let der = try ReceiptFixtures.temporaryFile("receipt")
        try real.der().write(to: der)
        let arguments = ["receipt", "--bundle-id", real.bundleId]
        let body =
            "{\"password\": \"0123456789abcdef\", \"receipt-data\": \"\(base64)\", \"exclude-old-transactions\": true}"
        let wrapped = stride(from: 0, to: base64.count, by: 76).map { offset -> String in
            let start = base64.index(base64.startIndex, offsetBy: offset)
            return String(
                base64[start..<(base64.index(start, offsetBy: 76, limitedBy: base64.endIndex) ?? base64.endIndex)])
        }.joined(separator: "\n")
        let runs = [
            try CLI.run(arguments + [der.path]),
            try CLI.run(arguments, stdin: base64),
            try CLI.run(arguments + ["-"], stdin: base64 + "\n"),
            try CLI.run(arguments, stdin: body),
            try CLI.run(arguments, stdin: "\"\(base64)\""),
            try CLI.run(arguments, stdin: wrapped),
        ]
        for (index, run) in runs.enumerated() {
            #expect(run.status == 0, "shape \(index): \(run.stdout.prefix(300))")
            #expect(run.stdout.hasPrefix("VERIFIED\n"), "shape \(index)")
        }
    }

    /// Input: objects that are not a verifyReceipt body, a repeated member, a JWS token, an iOS 6 transaction
    /// receipt, garbage bytes. Expected: exit 1, `malformedReceipt` at check `format`, each message saying what is
    /// wrong.
    @Test("input that is not an app receipt is malformedReceipt, saying what it is")
    func notAReceipt() throws {
        let cases: [(stdin: Data, message: String)] = [
            (Data("{\"token\": \"MIIx\"}".utf8), "the object has no \"receipt-data\" member"),
            (Data("{\"receipt-data\": 7}".utf8), "the object's \"receipt-data\" is not a string"),
            (Data("{\"receipt-data\": \"a\", \"receipt-data\": \"b\"}".utf8), "duplicate member"),
            (Data("\"abc".utf8), "is not a JSON string"),
            (Data(try CLI.token("apple-library/mock_signed_data/transactionInfo").utf8), "a JWS token"),
            (try Data(contentsOf: URL(fileURLWithPath: ReceiptFixtures.ios6)), "an iOS 6 transaction receipt"),
            (Data([0x30, 0x03, 0x02, 0x01, 0x01, 0xFF]), "not"),
        ]
        for (stdin, message) in cases {
            let run = try CLI.run(["receipt", "--json"], stdin: stdin)
            #expect(run.status == 1, "\(message)")
            let json = try run.json()
            #expect(json["verified"] as? Bool == false)
            #expect(json.string("code") == "malformedReceipt")
            #expect(json.string("check") == "format")
            #expect(json.string("message")?.contains(message) == true, "\(json.string("message") ?? "")")
            #expect(json["receipt"] is NSNull)
        }
    }

    /// Input: no input, whitespace only, a missing file, a missing `--root` file. Expected: exit 66 and an
    /// `Error:` line on standard error, nothing on standard output.
    @Test("missing or empty input exits 66")
    func missingInput() throws {
        let empty = try CLI.run(["receipt"], stdin: " \n")
        #expect(empty.status == 66)
        #expect(empty.stderr == "Error: no receipt on standard input\n")
        #expect(empty.stdout.isEmpty)
        let missing = try CLI.run(["receipt", "/nonexistent/receipt"])
        #expect(missing.status == 66)
        #expect(missing.stderr.hasPrefix("Error: cannot open '/nonexistent/receipt': "))
        let root = try CLI.run(["receipt", "--root", "/nonexistent/root.der", ReceiptFixtures.recent.path])
        #expect(root.status == 66)
        #expect(root.stderr.hasPrefix("Error: --root /nonexistent/root.der: cannot open: "))
    }

    // MARK: Failures

    /// Input: the 2015 receipt with another bundle id; with `--environment Production`; with `--app-apple-id` and
    /// Production for a Sandbox receipt; at the current time; with only Apple Root CA - G3 trusted. Expected: exit
    /// 1 with `invalidAppIdentifier`, `invalidEnvironment`, `certificateExpired` and `untrustedChain`, the claims
    /// failures with their hint in CLI terms, and the chain validated for the claims failures only.
    @Test("claims and chain failures, each with its code, check and hint")
    func failures() throws {
        let real = ReceiptFixtures.expired
        func run(_ options: [String]) throws -> [String: Any] {
            let run = try CLI.run(["receipt", "--json"] + options + [real.path])
            #expect(run.status == 1, "\(options)")
            return try run.json()
        }
        let bundle = try run(["--bundle-id", "com.example.other"])
        #expect(bundle.string("code") == "invalidAppIdentifier")
        #expect(bundle.string("check") == "claims")
        #expect(bundle.step("bundleId")?["outcome"] as? String == "failed")
        #expect((bundle["hints"] as? [String])?.first?.hasPrefix("the receipt names another app's bundle id;") == true)
        #expect(bundle["chainValidated"] as? Bool == true)
        #expect(bundle.receipt?["bundle_id"] as? String == real.bundleId)

        let environment = try run(["--bundle-id", real.bundleId, "--environment", "Production"])
        #expect(environment.string("code") == "invalidEnvironment")
        #expect(
            (environment["hints"] as? [String])?.first?.hasPrefix(
                "the receipt comes from another environment than '--environment Production';") == true)

        let expired = try run(["--at", "now"])
        #expect(expired.string("code") == "certificateExpired")
        #expect(expired.string("check") == "chain")
        #expect(expired["chainValidated"] as? Bool == false)
        // Refused before its chain was validated: the embedded certificates are shown, the signer marked.
        let embedded = try #require(expired["chain"] as? [[String: Any]])
        #expect(embedded.first?["role"] as? String == "signer (named by the SignerInfo)")

        let untrusted = try run(["--root", CLI.vector("apple-roots/AppleRootCA-G3.cer")])
        #expect(untrusted.string("code") == "untrustedChain")

        let text = try CLI.run(["receipt", "--bundle-id", "com.example.other", real.path])
        #expect(
            text.stdout.hasPrefix(
                "NOT VERIFIED: invalidAppIdentifier (claims): bundleId is \"\(real.bundleId)\", expected"
                    + " \"com.example.other\"\n"), "\(text.stdout.prefix(300))")
        #expect(text.stdout.contains("\n  hint: the receipt names another app's bundle id; '--bundle-id' must be"))
        #expect(text.stdout.contains("\nRECEIPT (NOT VERIFIED: do not trust it)\n"))
    }

    // MARK: Xcode

    /// Input: Apple's Xcode receipt (BER) with `--environment Xcode --xcode-certificate` the certificate that signs
    /// it; without those options; with Xcode's JWS certificate pinned instead. Expected: verified, with the
    /// StoreKit certificate as the chain; `untrustedChain` with a hint to pass the options; `untrustedChain`.
    @Test("an Xcode receipt verifies against its pinned StoreKit certificate only")
    func xcodeReceipt() throws {
        let xcode = ["receipt", "--environment", "Xcode", "--xcode-certificate"]
        let verified = try CLI.run(xcode + [ReceiptFixtures.xcodeCertificate, "--json", ReceiptFixtures.xcodeReceipt])
        #expect(verified.status == 0, "\(verified.stdout.prefix(500))")
        let json = try verified.json()
        #expect(json.string("environment") == "Xcode")
        let chain = try #require(json["chain"] as? [[String: Any]])
        #expect(chain.map { $0["role"] as? String } == ["StoreKit Testing certificate"])
        #expect(chain.first?["trustAnchor"] as? String == "--xcode-certificate")
        #expect(json.receipt?["receipt_type"] as? String == "Xcode")
        #expect(json.purchases?.first?["product_id"] as? String == "pass.premium")

        let plain = try CLI.run(["receipt", ReceiptFixtures.xcodeReceipt])
        #expect(plain.status == 1)
        #expect(plain.stdout.hasPrefix("NOT VERIFIED: untrustedChain (chain): "))
        #expect(
            plain.stdout.contains(
                "\n  hint: the receipt says it was made by Xcode StoreKit Testing: pass '--environment Xcode"
                    + " --xcode-certificate <file>'"))

        let other = try CLI.run(xcode + [ReceiptFixtures.xcodeTokenCertificate, ReceiptFixtures.xcodeReceipt])
        #expect(other.status == 1)
        #expect(other.stdout.hasPrefix("NOT VERIFIED: untrustedChain (chain): the receipt's signer is not the pinned"))
    }

    /// Input: `--xcode-certificate` without `--environment Xcode`; `--environment Xcode` without a certificate;
    /// Xcode with Sandbox; an unknown environment; `--environment LocalTesting`. Expected: exit 64, the error in
    /// the words of the flags, nothing on standard output.
    @Test("Xcode and environment usage errors exit 64 in the words of the flags")
    func usageErrors() throws {
        let path = ReceiptFixtures.recent.path
        let cases: [(arguments: [String], message: String)] = [
            (
                ["--xcode-certificate", ReceiptFixtures.xcodeCertificate],
                "'--xcode-certificate' requires '--environment Xcode'"
            ),
            (["--environment", "Xcode"], "'--environment Xcode' requires '--xcode-certificate': in Xcode"),
            (
                [
                    "--environment", "Xcode", "--environment", "Sandbox", "--xcode-certificate",
                    ReceiptFixtures.xcodeCertificate,
                ],
                "'--environment Xcode' cannot be combined with another '--environment': Xcode receipts are trusted"
            ),
            (
                ["--environment", "LocalTesting"],
                "The value 'LocalTesting' is invalid for '--environment <environment>'"
            ),
            (["--device-guid", "xyz"], "The value 'xyz' is invalid for '--device-guid <hex>'"),
            (["--device-guid", "abc"], "The value 'abc' is invalid for '--device-guid <hex>'"),
            (["--at", "yesterday"], "The value 'yesterday' is invalid for '--at <time>'"),
            (["--root", CLI.vector("receipts/README.md")], "--root "),
        ]
        for (arguments, message) in cases {
            let run = try CLI.run(["receipt"] + arguments + [path])
            #expect(run.status == 64, "\(arguments)")
            #expect(run.stderr.hasPrefix("Error: \(message)"), "\(run.stderr)")
            #expect(run.stdout.isEmpty)
        }
        let root = try CLI.run(["receipt", "--root", CLI.vector("receipts/README.md"), path])
        #expect(root.stderr.contains("not a certificate: neither DER nor PEM X.509 (invalidConfiguration)"))
    }

    // MARK: Minted receipts

    /// Input: a receipt minted for device E621E1F8-C36C-495A-93FC-0C247A3E6E5F, verified with that identifier as
    /// a UUID and in hex of either case; with another identifier; with none. Expected: verified; verified;
    /// `deviceHashMismatch` at check `claims` with its hint; verified with the device step skipped.
    @Test("--device-guid checks the receipt's device hash, in UUID or hex form")
    func deviceHash() throws {
        let uuid = "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"
        let receipt = try ReceiptFixtures.mint(["--device-guid", uuid])
        let trust = try ReceiptFixtures.trustingPKI() + ["--bundle-id", ReceiptFixtures.mintedBundleId, "--json"]
        for form in [uuid, "e621e1f8c36c495a93fc0c247a3e6e5f", uuid.lowercased()] {
            let run = try CLI.run(["receipt", "--device-guid", form] + trust, stdin: receipt)
            #expect(run.status == 0, "\(form): \(run.stdout.prefix(400))")
            #expect(try run.json().step("deviceHash")?["outcome"] as? String == "passed")
        }
        let other = try CLI.run(
            ["receipt", "--device-guid", "E621E1F8-C36C-495A-93FC-0C247A3E6E5E"] + trust, stdin: receipt)
        #expect(other.status == 1)
        let json = try other.json()
        #expect(json.string("code") == "deviceHashMismatch")
        #expect(json.string("check") == "claims")
        #expect((json["hints"] as? [String])?.first?.hasPrefix("the receipt was issued to another device") == true)
        let none = try CLI.run(["receipt"] + trust, stdin: receipt)
        #expect(none.status == 0)
        #expect(try none.json().step("deviceHash")?["outcome"] as? String == "skipped")
    }

    /// Input: a receipt minted with a bundle id holding an escape sequence, a bidirectional override and a C1
    /// control, verified with another bundle id. Expected: none of those characters reaches standard output raw,
    /// in text or JSON; the JSON still decodes to the exact bundle id.
    @Test("text from the receipt never reaches the terminal unescaped")
    func escaping() throws {
        let hostile = "com.example\u{1B}[31m\u{202E}evil\u{85}"
        let receipt = try ReceiptFixtures.mint(["--bundle-id", hostile])
        let trust = try ReceiptFixtures.trustingPKI()
        for format in [[], ["--json"]] {
            let run = try CLI.run(["receipt", "--bundle-id", "com.example"] + trust + format, stdin: receipt)
            #expect(run.status == 1)
            for raw in ["\u{1B}", "\u{202E}", "\u{85}"] {
                #expect(!run.stdout.contains(raw), "\(format): raw \(raw.unicodeScalars.first!.value)")
            }
            if format.isEmpty {
                #expect(run.stdout.contains("\\u001B[31m"), "\(run.stdout.prefix(300))")
            } else {
                #expect(try run.json().receipt?["bundle_id"] as? String == hostile)
            }
        }
    }

    /// Input: a minted receipt verified with the PKI's root as PEM, twice as `--root` (DER and PEM). Expected:
    /// verified, the root matched named by the first `--root` that holds it.
    @Test("--root takes DER and PEM, and the matched root is named by its flag and path")
    func rootFiles() throws {
        let pki = try ReceiptFixtures.pki.get()
        let receipt = try ReceiptFixtures.mint([])
        let run = try CLI.run(["receipt", "--root", pki + "/root.pem", "--root", pki + "/root.der"], stdin: receipt)
        #expect(run.status == 0, "\(run.stdout.prefix(400))")
        #expect(run.stdout.contains("\n  root: matched trusted root --root \(pki)/root.pem\n"))
    }

    /// `receipt --help`: exit 0, on standard output, its options and exit codes.
    @Test("receipt --help lists its options and exit codes")
    func help() throws {
        let run = try CLI.run(["receipt", "--help"])
        #expect(run.status == 0)
        #expect(run.stdout.hasPrefix("OVERVIEW: Verify a StoreKit 1 app receipt locally and explain every check.\n"))
        for option in [
            "--root <file>", "--bundle-id <id>", "--app-apple-id <n>", "--environment <environment>",
            "--xcode-certificate <file>", "--at <time>", "--device-guid <hex>", "--json",
        ] {
            #expect(run.stdout.contains("  \(option)"), "\(option)")
        }
        #expect(run.stdout.contains("\nEXIT CODES:\n"))
        let tool = try CLI.run(["--help"])
        #expect(tool.stdout.contains("\n  receipt                 Verify one StoreKit 1 app receipt"))
    }
}

/// `jwsverify verify` given an app receipt.
@Suite("verify given a receipt")
struct VerifyGivenReceiptTests {
    /// Input: the 2025 receipt's base64 and its raw DER, to `verify`. Expected: `malformedToken` (exit 1) with a
    /// hint naming `jwsverify receipt`; a malformed token that is not a receipt gets no such hint.
    @Test("verify names 'jwsverify receipt' when given a receipt")
    func hint() throws {
        let real = ReceiptFixtures.recent
        for stdin in [Data(try real.base64().utf8), try real.der()] {
            let run = try CLI.run(["verify"], stdin: stdin)
            #expect(run.status == 1)
            #expect(run.stdout.hasPrefix("NOT VERIFIED: malformedToken (format): "))
            #expect(
                run.stdout.contains(
                    "\n  hint: this looks like a StoreKit 1 app receipt, not a JWS token: verify it"
                        + " with 'jwsverify receipt'\n"), "\(run.stdout.prefix(400))")
        }
        let other = try CLI.run(["verify"], stdin: "not.a.token")
        #expect(other.status == 1)
        #expect(!other.stdout.contains("app receipt"))
    }
}
