import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `jwsverify mint pki --receipt` and `jwsverify mint receipt` end to end: the receipts the built binary mints
/// are verified by the same binary's `receipt`, with the fields asked for.
@Suite("mint receipt")
struct MintReceiptCommandTests {
    /// `mint pki --receipt --out DIR` writes the twelve files (keys mode 0600), lists them with the next
    /// commands; `--seed` with `--receipt` is a usage error; a second run without `--force` is refused.
    @Test("mint pki --receipt writes the RSA hierarchy and a StoreKit certificate, keys mode 0600")
    func receiptPKI() throws {
        let directory = try ReceiptFixtures.temporaryFile("pki").path
        let run = try CLI.run(["mint", "pki", "--receipt", "--out", directory])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("  jwsverify mint receipt --pki \(directory) --purchase "))
        #expect(
            run.stdout.contains("  jwsverify receipt --root \(directory)/root.der --bundle-id com.example.jwsverify"))
        let keys = ["root.key.pem", "intermediate.key.pem", "leaf.key.pem", "storekit.key.pem"]
        let certificates = ["root", "intermediate", "leaf", "storekit"].flatMap { ["\($0).der", "\($0).pem"] }
        for name in keys + certificates {
            #expect(FileManager.default.fileExists(atPath: directory + "/" + name), "\(name)")
            #expect(run.stdout.contains("\n  \(name) "), "\(name) is not listed")
        }
        for name in keys {
            var status = stat()
            #expect(stat(directory + "/" + name, &status) == 0)
            #expect(status.st_mode & 0o777 == 0o600, "\(name)")
        }
        let again = try CLI.run(["mint", "pki", "--receipt", "--out", directory])
        #expect(again.status == 64)
        #expect(again.stderr.contains("already holds root.der"))
        let seeded = try CLI.run(["mint", "pki", "--receipt", "--seed", "1", "--out", directory])
        #expect(seeded.status == 64)
        #expect(seeded.stderr.hasPrefix("Error: '--seed' cannot be combined with '--receipt'"))
    }

    /// Input: a receipt minted with the defaults. Expected: one line of base64 that `receipt` verifies against
    /// the PKI root with the default bundle id and Sandbox: type ProductionSandbox, app item id 0, version 1,
    /// original version 1.0, no purchases, validated at its creation date (within a minute of now).
    @Test("a default minted receipt verifies as a Sandbox receipt of the default bundle id")
    func defaults() throws {
        let receipt = try ReceiptFixtures.mint([])
        #expect(receipt.hasSuffix("\n"))
        #expect(receipt.dropLast().allSatisfy { $0.isLetter || $0.isNumber || "+/=".contains($0) })
        let run = try CLI.run(
            ["receipt", "--json", "--bundle-id", ReceiptFixtures.mintedBundleId, "--environment", "Sandbox"]
                + ReceiptFixtures.trustingPKI(), stdin: receipt)
        #expect(run.status == 0, "\(run.stdout.prefix(500))")
        let json = try run.json()
        let fields = try #require(json.receipt)
        #expect(fields["receipt_type"] as? String == "ProductionSandbox")
        #expect(fields["app_item_id"] as? Int == 0)
        #expect(fields["application_version"] as? String == "1")
        #expect(fields["original_application_version"] as? String == "1.0")
        #expect(json.purchases?.isEmpty == true)
        let validated = try #require(json.string("validationTime").flatMap(ISO8601DateFormatter().date(from:)))
        #expect(abs(validated.timeIntervalSinceNow) < 60)
        #expect(json.step("algorithm")?["detail"] as? String == "RSA PKCS #1 v1.5 with SHA-256")
    }

    /// Input: a Production receipt with every field chosen: bundle id, app Apple id, app version, creation date,
    /// a consumable and a subscription with its ids and expiry; SHA-1. Expected: `receipt --environment
    /// Production --app-apple-id` verifies it, validated at the creation date, with exactly those values in the
    /// verifyReceipt shape; another app Apple id is `invalidAppIdentifier`.
    @Test("chosen fields and purchases come back from receipt --json")
    func chosenFields() throws {
        let receipt = try ReceiptFixtures.mint([
            "--bundle-id", "com.example.shop", "--environment", "production", "--app-apple-id", "42",
            "--app-version", "3.1", "--created", "2026-05-28T12:00:00Z", "--digest", "sha1",
            "--purchase", "com.example.coins",
            "--purchase", "com.example.monthly,3000000000000007,3000000000000001,2026-06-28T12:00:00Z",
        ])
        let options = ["receipt", "--json", "--bundle-id", "com.example.shop", "--environment", "Production"]
        let run = try CLI.run(options + ["--app-apple-id", "42"] + ReceiptFixtures.trustingPKI(), stdin: receipt)
        #expect(run.status == 0, "\(run.stdout.prefix(500))")
        let json = try run.json()
        #expect(json.string("validationTime") == "2026-05-28T12:00:00Z")
        #expect(json.string("environment") == "Production")
        #expect(json.step("algorithm")?["detail"] as? String == "RSA PKCS #1 v1.5 with SHA-1")
        let fields = try #require(json.receipt)
        #expect(fields["receipt_type"] as? String == "Production")
        #expect(fields["app_item_id"] as? Int == 42)
        #expect(fields["application_version"] as? String == "3.1")
        #expect(fields["receipt_creation_date_ms"] as? String == "1779969600000")
        let purchases = try #require(json.purchases)
        #expect(purchases.count == 2)
        #expect(purchases[0]["product_id"] as? String == "com.example.coins")
        #expect(purchases[0]["transaction_id"] as? String == "2000000000000001")
        #expect(purchases[0]["original_transaction_id"] as? String == "2000000000000001")
        #expect(purchases[0]["purchase_date_ms"] as? String == "1779966000000")
        #expect(purchases[0]["expires_date_ms"] == nil)
        #expect(purchases[1]["product_id"] as? String == "com.example.monthly")
        #expect(purchases[1]["transaction_id"] as? String == "3000000000000007")
        #expect(purchases[1]["original_transaction_id"] as? String == "3000000000000001")
        #expect(purchases[1]["expires_date_ms"] as? String == "1782648000000")
        #expect(purchases[1]["quantity"] as? String == "1")

        let other = try CLI.run(options + ["--app-apple-id", "43"] + ReceiptFixtures.trustingPKI(), stdin: receipt)
        #expect(other.status == 1)
        #expect(try other.json().string("code") == "invalidAppIdentifier")
        let sandbox = try CLI.run(
            ["receipt", "--environment", "Sandbox"] + ReceiptFixtures.trustingPKI(), stdin: receipt)
        #expect(sandbox.stdout.hasPrefix("NOT VERIFIED: invalidEnvironment (claims): "))
    }

    /// Input: `--format der` to a file and to standard output (a file in the tests, not a terminal). Expected:
    /// the receipt file's bytes (a DER SEQUENCE), which `receipt` verifies from the file and from standard input.
    @Test("--format der writes the receipt file's bytes, to --out or standard output")
    func derOutput() throws {
        let file = try ReceiptFixtures.temporaryFile("receipt")
        _ = try ReceiptFixtures.mint(["--format", "der", "--out", file.path])
        let bytes = try Data(contentsOf: file)
        #expect(bytes.first == 0x30 && bytes.dropFirst().first == 0x82)
        let trust = try ReceiptFixtures.trustingPKI()
        #expect(try CLI.run(["receipt", file.path] + trust).status == 0)
        let stdout = try CLI.run(["mint", "receipt", "--pki", try ReceiptFixtures.pki.get(), "--format", "der"])
        #expect(stdout.status == 0)
        #expect(stdout.stdoutData.first == 0x30)
        #expect(try CLI.run(["receipt"] + trust, stdin: stdout.stdoutData).status == 0)
    }

    /// Input: `--xcode` (BER, signed by the PKI's StoreKit certificate). Expected: verified by `receipt
    /// --environment Xcode --xcode-certificate <pki>/storekit.der`, type Xcode, the StoreKit certificate as the
    /// chain; refused (`untrustedChain`) with the PKI root; `--xcode` with `--environment` is a usage error.
    @Test("--xcode mints a StoreKit Testing receipt that verifies against the pinned storekit.der")
    func xcode() throws {
        let pki = try ReceiptFixtures.pki.get()
        let receipt = try ReceiptFixtures.mintBytes(["--xcode", "--format", "der"])
        #expect(receipt.prefix(2).elementsEqual([0x30, 0x80]))  // BER, indefinite length
        let run = try CLI.run(
            ["receipt", "--json", "--environment", "Xcode", "--xcode-certificate", pki + "/storekit.der"],
            stdin: receipt)
        #expect(run.status == 0, "\(run.stdout.prefix(500))")
        let json = try run.json()
        #expect(json.receipt?["receipt_type"] as? String == "Xcode")
        #expect((json["chain"] as? [[String: Any]])?.first?["subjectCommonName"] as? String == "StoreKit")
        let refused = try CLI.run(["receipt", "--root", pki + "/root.der"], stdin: receipt)
        #expect(refused.status == 1)
        #expect(refused.stdout.hasPrefix("NOT VERIFIED: untrustedChain (chain): "))
        let usage = try CLI.run(["mint", "receipt", "--pki", pki, "--xcode", "--environment", "Sandbox"])
        #expect(usage.status == 64)
        #expect(usage.stderr.hasPrefix("Error: '--xcode' cannot be combined with '--environment'"))
    }

    /// Input: `mint receipt` with a missing directory, with a token PKI (EC keys), bad `--purchase`, `--digest`,
    /// `--format` and `--created` values, no `--pki`. Expected: 66 naming `mint pki --receipt`; 64 naming the
    /// flag.
    @Test("mint receipt refuses a missing or token PKI (66) and bad values (64)")
    func failures() throws {
        let missing = try CLI.run(["mint", "receipt", "--pki", "/nonexistent/pki"])
        #expect(missing.status == 66)
        #expect(missing.stderr.contains("make one with 'jwsverify mint pki --receipt --out /nonexistent/pki'"))
        let tokenPKI = try ReceiptFixtures.temporaryFile("token-pki").path
        #expect(try CLI.run(["mint", "pki", "--out", tokenPKI]).status == 0)
        let token = try CLI.run(["mint", "receipt", "--pki", tokenPKI])
        #expect(token.status == 66)
        #expect(token.stderr.hasPrefix("Error: cannot load the receipt test PKI in --pki directory"), "\(token.stderr)")
        let pki = try ReceiptFixtures.pki.get()
        let cases: [(arguments: [String], message: String)] = [
            (["--purchase", ""], "The value '' is invalid for '--purchase"),
            (["--purchase", "a,b,c,d,e"], "The value 'a,b,c,d,e' is invalid for '--purchase"),
            (["--purchase", "a,,,tomorrow"], "The value 'a,,,tomorrow' is invalid for '--purchase"),
            (
                ["--digest", "md5"],
                "The value 'md5' is invalid for '--digest <digest>'. Please provide one of 'sha256' and 'sha1'."
            ),
            (["--format", "pem"], "The value 'pem' is invalid for '--format <format>'"),
            (["--created", "signed"], "The value 'signed' is invalid for '--created <time>'"),
            (["--environment", "Xcode"], "The value 'Xcode' is invalid for '--environment <environment>'"),
        ]
        for (arguments, message) in cases {
            let run = try CLI.run(["mint", "receipt", "--pki", pki] + arguments)
            #expect(run.status == 64, "\(arguments)")
            #expect(run.stderr.hasPrefix("Error: \(message)"), "\(run.stderr)")
            #expect(run.stdout.isEmpty)
        }
        let noPKI = try CLI.run(["mint", "receipt"])
        #expect(noPKI.status == 64)
        #expect(noPKI.stderr.hasPrefix("Error: Missing expected argument '--pki <directory>'"))
    }
}
