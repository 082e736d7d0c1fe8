import Foundation
import Testing

/// `jwsverify mint pki` and `jwsverify mint token` end to end: the tokens the built binary mints are
/// verified by the same binary.
@Suite("mint")
struct MintCommandTests {
    /// The kinds `mint token --kind` accepts.
    static let kinds = ["transaction", "renewal", "app-transaction", "notification", "realtime"]
    /// The library's default bundle id, which minted payloads carry.
    static let bundleId = "com.example.jwsverify"

    /// A temporary directory, removed by ``remove()``.
    struct Scratch {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("jwsverify-mint-\(UUID().uuidString)")

        /// A path inside the directory.
        func path(_ name: String) -> String { url.appendingPathComponent(name).path }

        /// Deletes the directory and everything in it.
        func remove() { try? FileManager.default.removeItem(at: url) }
    }

    /// Runs `body` with the path of a fresh test PKI written by `mint pki`.
    private func withPKI<T>(_ body: (String) throws -> T) throws -> T {
        let scratch = Scratch()
        defer { scratch.remove() }
        let pki = scratch.path("pki")
        let run = try CLI.run(["mint", "pki", "--out", pki])
        try #require(run.status == 0, "mint pki failed: \(run.stderr)")
        return try body(pki)
    }

    /// Mints tokens and returns the lines of standard output, requiring exit 0.
    private func mint(_ pki: String, _ arguments: [String]) throws -> [String] {
        let run = try CLI.run(["mint", "token", "--pki", pki] + arguments)
        try #require(run.status == 0, "mint token \(arguments) failed: \(run.stderr)")
        #expect(run.stderr.isEmpty)
        #expect(run.stdout.hasSuffix("\n"))
        return run.stdout.split(separator: "\n").map(String.init)
    }

    /// The arguments that verify a default minted token against the PKI's root.
    private func sandbox(_ pki: String, kind: String) -> [String] {
        ["--root", pki + "/root.der", "--bundle-id", Self.bundleId, "--environment", "Sandbox", "--kind", kind]
    }

    /// `token` with one base64url character of its payload segment replaced.
    private func changedInOneByte(_ token: String) -> String {
        var characters = Array(token)
        let dots = characters.indices.filter { characters[$0] == "." }
        let index = (dots[0] + dots[1]) / 2
        characters[index] = characters[index] == "A" ? "B" : "A"
        return String(characters)
    }

    // MARK: mint pki

    /// `mint pki --out DIR` writes the nine files, keys readable by the owner only, and prints them with
    /// the next commands.
    @Test("mint pki writes certificates in DER and PEM and private keys with mode 0600")
    func pkiWritesFiles() throws {
        let scratch = Scratch()
        defer { scratch.remove() }
        let directory = scratch.path("nested/pki")
        let run = try CLI.run(["mint", "pki", "--out", directory, "--seed", "42"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.isEmpty)
        #expect(run.stdout.hasPrefix("Wrote a test PKI to '\(directory)' (test certificates, NOT Apple's):\n"))
        #expect(run.stdout.contains("  jwsverify mint token --pki \(directory) --kind transaction > token.txt\n"))
        #expect(run.stdout.contains("  jwsverify --root \(directory)/root.der --bundle-id \(Self.bundleId)"))
        #expect(run.stdout.contains("never deploy it to production"))
        let certificates = ["root", "intermediate", "leaf"].flatMap { ["\($0).der", "\($0).pem"] }
        let keys = ["root.key.pem", "intermediate.key.pem", "leaf.key.pem"]
        for name in certificates + keys {
            let path = directory + "/" + name
            #expect(FileManager.default.fileExists(atPath: path), "\(name) is missing")
            #expect(run.stdout.contains("\n  \(name) "), "\(name) is not listed")
        }
        for name in keys {
            let attributes = try FileManager.default.attributesOfItem(atPath: directory + "/" + name)
            #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600, "\(name) is not mode 0600")
            let text = try String(contentsOfFile: directory + "/" + name, encoding: .utf8)
            #expect(text.hasPrefix("-----BEGIN PRIVATE KEY-----\n"))
        }
        let rootPEM = try String(contentsOfFile: directory + "/root.pem", encoding: .utf8)
        #expect(rootPEM.hasPrefix("-----BEGIN CERTIFICATE-----\n"))
    }

    /// A second `mint pki` into the same directory is refused (exit 64, nothing changed) unless `--force`.
    @Test("mint pki refuses to overwrite existing files without --force")
    func pkiRefusesToOverwrite() throws {
        let scratch = Scratch()
        defer { scratch.remove() }
        let directory = scratch.path("pki")
        #expect(try CLI.run(["mint", "pki", "--out", directory]).status == 0)
        let before = try Data(contentsOf: URL(fileURLWithPath: directory + "/root.der"))

        let refused = try CLI.run(["mint", "pki", "--out", directory])
        #expect(refused.status == 64)
        #expect(refused.stdout.isEmpty)
        #expect(
            refused.stderr.hasPrefix("Error: '\(directory)' already holds root.der, root.pem, "), "\(refused.stderr)")
        #expect(refused.stderr.contains("pass '--force' to replace the PKI files\n"))
        #expect(refused.stderr.contains("\nUsage: jwsverify mint pki --out <directory> [<options>]\n"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: directory + "/root.der")) == before)

        let forced = try CLI.run(["mint", "pki", "--out", directory, "--force"])
        #expect(forced.status == 0, "\(forced.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: directory + "/root.der")) != before)
        let attributes = try FileManager.default.attributesOfItem(atPath: directory + "/leaf.key.pem")
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
    }

    /// One existing PKI file is enough to refuse; other files in the directory do not matter.
    @Test("mint pki refuses when any one PKI file exists, and ignores other files")
    func pkiRefusesForOneFile() throws {
        let scratch = Scratch()
        defer { scratch.remove() }
        try FileManager.default.createDirectory(at: scratch.url, withIntermediateDirectories: true)
        try Data("notes".utf8).write(to: scratch.url.appendingPathComponent("README"))
        #expect(try CLI.run(["mint", "pki", "--out", scratch.url.path]).status == 0)
        try FileManager.default.removeItem(atPath: scratch.path("root.der"))
        try FileManager.default.removeItem(atPath: scratch.path("leaf.der"))
        let refused = try CLI.run(["mint", "pki", "--out", scratch.url.path])
        #expect(refused.status == 64)
        #expect(refused.stderr.contains("already holds root.pem, intermediate.der, "))
    }

    // MARK: mint token

    /// Every kind mints a token that `jwsverify` verifies against the test root; the same token changed
    /// in one byte of its payload does not verify.
    @Test("mint token mints a verifiable token of every kind; one changed byte makes it fail", arguments: kinds)
    func everyKindVerifies(kind: String) throws {
        try withPKI { pki in
            let tokens = try mint(pki, ["--kind", kind])
            try #require(tokens.count == 1)
            let verified = try CLI.run(sandbox(pki, kind: kind), stdin: tokens[0])
            #expect(verified.status == 0, "\(kind): \(verified.stdout)")
            #expect(verified.stdout.hasPrefix("VERIFIED\n"))
            #expect(verified.stdout.contains("JWSVerify Test Root CA - NOT APPLE"))
            #expect(verified.stdout.contains("  root: matched trusted root --root \(pki)/root.der"))

            let changed = try CLI.run(sandbox(pki, kind: kind), stdin: changedInOneByte(tokens[0]))
            #expect(changed.status == 1, "\(kind): a changed token verified")
            #expect(changed.stdout.hasPrefix("NOT VERIFIED: "))
        }
    }

    /// A token minted with one PKI does not verify against another PKI's root.
    @Test("a minted token does not verify against another test root")
    func otherRootRejects() throws {
        try withPKI { pki in
            let token = try mint(pki, ["--kind", "transaction"])[0]
            try withPKI { other in
                let run = try CLI.run(sandbox(other, kind: "transaction") + ["--json"], stdin: token)
                #expect(run.status == 1)
                #expect(try run.json().string("check") == "chain")
            }
        }
    }

    /// `--count 5` prints five distinct tokens, one per line, each of which verifies.
    @Test("--count 5 prints five distinct lines that all verify")
    func countGivesDistinctLines() throws {
        try withPKI { pki in
            for kind in ["transaction", "notification"] {
                let tokens = try mint(pki, ["--kind", kind, "--count", "5"])
                #expect(tokens.count == 5)
                #expect(Set(tokens).count == 5)
                let payloads = try tokens.map { token in
                    try CLI.run(["inspect", "--json"], stdin: token).json()["payload"] as? [String: Any]
                }
                let identifiers = payloads.compactMap {
                    $0?[kind == "notification" ? "notificationUUID" : "transactionId"] as? String
                }
                #expect(Set(identifiers).count == 5, "\(kind): identifiers repeat: \(identifiers)")
                let batch = try CLI.run(["batch"] + sandbox(pki, kind: kind), stdin: tokens.joined(separator: "\n"))
                #expect(batch.status == 0, "\(batch.stderr)")
                #expect(batch.stderr.contains("verified: 5\n"))
            }
        }
    }

    /// `--set` changes top-level fields, parsing the value as JSON when it can; a dotted key changes one
    /// nested field and keeps its siblings; `--payload` merges a JSON object first.
    @Test("--set and --payload change fields, as inspect --json shows")
    func setChangesFields() throws {
        try withPKI { pki in
            let transaction = try mint(
                pki,
                [
                    "--kind", "transaction", "--set", "quantity=3", "--set", "storefront=FRA", "--set",
                    "transactionReason=\"RENEWAL\"",
                ])
            let payload = try #require(
                try CLI.run(["inspect", "--json"], stdin: transaction[0]).json()["payload"] as? [String: Any])
            #expect(payload["quantity"] as? Int == 3)
            #expect(payload["storefront"] as? String == "FRA")
            #expect(payload["transactionReason"] as? String == "RENEWAL")
            #expect(payload["bundleId"] as? String == Self.bundleId)

            let scratch = Scratch()
            defer { scratch.remove() }
            try FileManager.default.createDirectory(at: scratch.url, withIntermediateDirectories: true)
            let file = scratch.path("payload.json")
            try Data(#"{"data":{"bundleVersion":"7"},"version":"2.1"}"#.utf8).write(to: URL(fileURLWithPath: file))
            let notification = try mint(
                pki,
                ["--kind", "notification", "--payload", file, "--set", "data.status=2", "--set", "version=\"3.0\""])
            let run = try CLI.run(sandbox(pki, kind: "notification") + ["--json"], stdin: notification[0])
            #expect(run.status == 0, "\(run.stdout)")
            let verified = try #require(try run.json()["payload"] as? [String: Any])
            let data = try #require(verified["data"] as? [String: Any])
            #expect(data["status"] as? Int == 2)
            #expect(data["bundleVersion"] as? String == "7")
            #expect(data["bundleId"] as? String == Self.bundleId)
            #expect(data["signedTransactionInfo"] is String)
            #expect(verified["version"] as? String == "3.0")
        }
    }

    /// Assignments apply in order: a dotted key after a top-level object adds to it, a top-level object
    /// after a dotted key replaces it, and a dotted key through a non-object makes an object.
    @Test("--set assignments apply in order, dotted keys included")
    func setOrder() throws {
        try withPKI { pki in
            func extra(_ assignments: [String]) throws -> Any? {
                let token = try mint(pki, ["--kind", "transaction"] + assignments.flatMap { ["--set", $0] })[0]
                let payload = try CLI.run(["inspect", "--json"], stdin: token).json()["payload"] as? [String: Any]
                return payload?["extra"]
            }
            let added = try extra([#"extra={"a":1}"#, "extra.b=2"]) as? [String: Any]
            #expect(added?["a"] as? Int == 1 && added?["b"] as? Int == 2)
            let replaced = try extra(["extra.b=2", #"extra={"a":1}"#]) as? [String: Any]
            #expect(replaced?["a"] as? Int == 1 && replaced?["b"] == nil)
            let deep = try extra(["extra=5", "extra.b.c=x"]) as? [String: Any]
            #expect((deep?["b"] as? [String: Any])?["c"] as? String == "x")
            #expect(try extra(["extra.b=1", "extra.b=2"]) as? [String: Int] == ["b": 2])
        }
    }

    /// A DID_RENEW notification with subtype BILLING_RECOVERY carries a signed transaction and renewal
    /// info that verify on their own with the same configuration.
    @Test("a DID_RENEW BILLING_RECOVERY notification carries nested tokens that verify")
    func notificationNestedTokensVerify() throws {
        try withPKI { pki in
            let token = try mint(
                pki, ["--kind", "notification", "--type", "DID_RENEW", "--subtype", "BILLING_RECOVERY"])[0]
            let run = try CLI.run(sandbox(pki, kind: "notification") + ["--json"], stdin: token)
            #expect(run.status == 0, "\(run.stdout)")
            let object = try run.json()
            let payload = try #require(object["payload"] as? [String: Any])
            #expect(payload["notificationType"] as? String == "DID_RENEW")
            #expect(payload["subtype"] as? String == "BILLING_RECOVERY")
            let nested = try #require(object["nested"] as? [String: [String: Any]])
            for field in ["signedTransactionInfo", "signedRenewalInfo"] {
                #expect(nested[field]?["verified"] as? Bool == true, "\(field) did not verify")
            }
            #expect(nested["signedTransactionInfo"]?["kind"] as? String == "transaction")
            #expect(nested["signedRenewalInfo"]?["kind"] as? String == "renewal")

            let plain = try mint(pki, ["--kind", "notification", "--type", "DID_RENEW"])[0]
            let plainPayload = try CLI.run(["inspect", "--json"], stdin: plain).json()["payload"] as? [String: Any]
            #expect(plainPayload?["subtype"] == nil, "--type without --subtype has no subtype")
        }
    }

    /// The notificationType and subtype pairs Apple documents, as `Docs/Testing-your-server.md` lists them
    /// (an empty subtype is none).
    static let documentedNotifications: [(type: String, subtype: String)] = [
        ("SUBSCRIBED", "INITIAL_BUY"), ("SUBSCRIBED", "RESUBSCRIBE"), ("DID_RENEW", ""),
        ("DID_RENEW", "BILLING_RECOVERY"),
        ("DID_CHANGE_RENEWAL_PREF", "UPGRADE"), ("DID_CHANGE_RENEWAL_PREF", "DOWNGRADE"),
        ("DID_CHANGE_RENEWAL_PREF", ""),
        ("DID_CHANGE_RENEWAL_STATUS", "AUTO_RENEW_ENABLED"), ("DID_CHANGE_RENEWAL_STATUS", "AUTO_RENEW_DISABLED"),
        ("OFFER_REDEEMED", "INITIAL_BUY"), ("OFFER_REDEEMED", "RESUBSCRIBE"), ("OFFER_REDEEMED", "UPGRADE"),
        ("OFFER_REDEEMED", "DOWNGRADE"), ("OFFER_REDEEMED", ""), ("DID_FAIL_TO_RENEW", ""),
        ("DID_FAIL_TO_RENEW", "GRACE_PERIOD"), ("GRACE_PERIOD_EXPIRED", ""), ("EXPIRED", "VOLUNTARY"),
        ("EXPIRED", "BILLING_RETRY"), ("EXPIRED", "PRICE_INCREASE"), ("EXPIRED", "PRODUCT_NOT_FOR_SALE"),
        ("PRICE_INCREASE", "PENDING"), ("PRICE_INCREASE", "ACCEPTED"), ("REFUND", ""), ("REFUND_DECLINED", ""),
        ("REFUND_REVERSED", ""), ("CONSUMPTION_REQUEST", ""), ("RENEWAL_EXTENDED", ""),
        ("RENEWAL_EXTENSION", "SUMMARY"),
        ("RENEWAL_EXTENSION", "FAILURE"), ("REVOKE", ""), ("ONE_TIME_CHARGE", ""), ("TEST", ""),
        ("EXTERNAL_PURCHASE_TOKEN", "UNREPORTED"), ("EXTERNAL_PURCHASE_TOKEN", "CREATED"),
        ("EXTERNAL_PURCHASE_TOKEN", "ACTIVE_TOKEN_REMINDER"), ("RESCIND_CONSENT", ""), ("METADATA_UPDATE", ""),
        ("MIGRATION", ""), ("PRICE_CHANGE", ""),
    ]

    /// Every documented pair mints a notification that verifies with its nested tokens, carrying the
    /// type and subtype asked for.
    @Test(
        "every documented notificationType and subtype pair mints a notification that verifies",
        arguments: documentedNotifications)
    func everyDocumentedNotificationVerifies(type: String, subtype: String) throws {
        try withPKI { pki in
            let arguments =
                ["--kind", "notification", "--type", type] + (subtype.isEmpty ? [] : ["--subtype", subtype])
            let token = try mint(pki, arguments)[0]
            let run = try CLI.run(sandbox(pki, kind: "notification") + ["--json"], stdin: token)
            #expect(run.status == 0, "\(type) \(subtype): \(run.stdout.prefix(300))")
            let payload = try run.json()["payload"] as? [String: Any]
            #expect(payload?["notificationType"] as? String == type)
            #expect(payload?["subtype"] as? String == (subtype.isEmpty ? nil : subtype))
        }
    }

    /// Production tokens with app Apple id 42 verify only when the verifier expects Production and 42.
    @Test(
        "--environment Production --app-apple-id 42 tokens verify only with the same configuration",
        arguments: ["notification", "app-transaction", "realtime"])
    func productionAppAppleId(kind: String) throws {
        try withPKI { pki in
            let token = try mint(pki, ["--kind", kind, "--environment", "production", "--app-apple-id", "42"])[0]
            let base = ["--root", pki + "/root.der", "--bundle-id", Self.bundleId, "--kind", kind]
            let right = try CLI.run(base + ["--environment", "Production", "--app-apple-id", "42"], stdin: token)
            #expect(right.status == 0, "\(right.stdout)")
            let wrongId = try CLI.run(
                base + ["--environment", "Production", "--app-apple-id", "43", "--json"], stdin: token)
            #expect(wrongId.status == 1)
            #expect(try wrongId.json().string("code") == "invalidAppIdentifier")
            let sandbox = try CLI.run(base + ["--environment", "Sandbox", "--json"], stdin: token)
            #expect(sandbox.status == 1)
            #expect(try sandbox.json().string("code") == "invalidEnvironment")
        }
    }

    /// Kinds without an app Apple id still carry the environment: a Production transaction fails Sandbox.
    @Test("a Production transaction verifies with Production and fails with Sandbox")
    func productionTransaction() throws {
        try withPKI { pki in
            let token = try mint(
                pki, ["--kind", "transaction", "--environment", "Production", "--app-apple-id", "42"])[0]
            let base = ["--root", pki + "/root.der", "--bundle-id", Self.bundleId, "--kind", "transaction"]
            #expect(
                try CLI.run(base + ["--environment", "Production", "--app-apple-id", "42"], stdin: token).status == 0)
            #expect(try CLI.run(base + ["--environment", "Sandbox"], stdin: token).status == 1)
        }
    }

    /// The payload parameters reach the payload and the nested tokens.
    @Test("--bundle-id, --product-id and --signed-date reach the payload and its nested tokens")
    func parametersReachNestedTokens() throws {
        try withPKI { pki in
            let token = try mint(
                pki,
                [
                    "--kind", "notification", "--bundle-id", "com.example.other", "--product-id", "com.example.yearly",
                    "--signed-date", "2030-01-02T03:04:05Z", "--seed", "7",
                ])[0]
            let run = try CLI.run(
                [
                    "--root", pki + "/root.der", "--bundle-id", "com.example.other", "--environment", "Sandbox",
                    "--json",
                ],
                stdin: token)
            #expect(run.status == 0, "\(run.stdout)")
            let object = try run.json()
            #expect((object["payload"] as? [String: Any])?["signedDate"] as? Int == 1_893_553_445_000)
            let nested = try #require(object["nested"] as? [String: [String: Any]])
            let transaction = try #require(nested["signedTransactionInfo"]?["payload"] as? [String: Any])
            #expect(transaction["productId"] as? String == "com.example.yearly")
            #expect(transaction["bundleId"] as? String == "com.example.other")
            #expect(transaction["signedDate"] as? Int == 1_893_553_445_000)
        }
    }

    /// Command-line mistakes are usage errors: stderr in argument-parser's format, exit 64.
    @Test(
        "mint token usage errors exit 64 with the mint token synopsis",
        arguments: [
            (["--kind", "transaction"], "Error: Missing expected argument '--pki <directory>'"),
            (["--pki", "x"], "Error: Missing expected argument '--kind <kind>'"),
            (["--pki", "x", "--kind", "receipt"], "Error: The value 'receipt' is invalid for '--kind <kind>'"),
            (["--pki", "x", "--kind", "transaction", "--set", "quantity"], "Error: The value 'quantity' is invalid"),
            (["--pki", "x", "--kind", "transaction", "--set", "a..b=1"], "Error: The value 'a..b=1' is invalid"),
            (
                ["--pki", "x", "--kind", "transaction", "--type", "DID_RENEW"],
                "Error: '--type' requires '--kind notification'"
            ),
            (["--pki", "x", "--kind", "notification", "--type", "DID_EXPLODE"], "Error: The value 'DID_EXPLODE'"),
            (
                ["--pki", "x", "--kind", "transaction", "--count", "0"],
                "Error: The value '0' is invalid for '--count <n>'"
            ),
            (["--pki", "x", "--kind", "transaction", "--environment", "Xcode"], "Error: The value 'Xcode' is invalid"),
            (["--pki", "x", "--kind", "transaction", "--frobnicate"], "Error: Unknown option '--frobnicate'"),
        ])
    func tokenUsageErrors(arguments: [String], message: String) throws {
        let run = try CLI.run(["mint", "token"] + arguments)
        #expect(run.status == 64)
        #expect(run.stdout.isEmpty)
        #expect(run.stderr.hasPrefix(message), "\(run.stderr)")
        #expect(run.stderr.contains("\nUsage: jwsverify mint token --pki <directory> --kind <kind> [<options>]\n"))
        #expect(run.stderr.hasSuffix("  See 'jwsverify mint token --help' for more information.\n"))
    }

    /// A PKI directory or payload file that cannot be used is an input error: exit 66, nothing on stdout.
    @Test("an unusable --pki directory or --payload file exits 66")
    func tokenInputErrors() throws {
        let scratch = Scratch()
        defer { scratch.remove() }
        let missing = try CLI.run(["mint", "token", "--pki", scratch.path("none"), "--kind", "transaction"])
        #expect(missing.status == 66)
        #expect(missing.stdout.isEmpty)
        #expect(missing.stderr.hasPrefix("Error: cannot open --pki directory '\(scratch.path("none"))'"))
        #expect(missing.stderr.contains("make one with 'jwsverify mint pki --out "))

        try FileManager.default.createDirectory(at: scratch.url, withIntermediateDirectories: true)
        let empty = try CLI.run(["mint", "token", "--pki", scratch.url.path, "--kind", "transaction"])
        #expect(empty.status == 66)
        #expect(empty.stderr.contains("has no root.der, intermediate.der, leaf.der, root.key.pem"))

        try withPKI { pki in
            try Data("garbage".utf8).write(to: URL(fileURLWithPath: pki + "/leaf.key.pem"))
            let broken = try CLI.run(["mint", "token", "--pki", pki, "--kind", "transaction"])
            #expect(broken.status == 66)
            #expect(broken.stderr.hasPrefix("Error: cannot load the test PKI in --pki directory"))
        }

        try withPKI { pki in
            let noFile = try CLI.run(
                ["mint", "token", "--pki", pki, "--kind", "transaction", "--payload", scratch.path("none.json")])
            #expect(noFile.status == 66)
            #expect(noFile.stderr.hasPrefix("Error: cannot open --payload file "))
            let array = scratch.path("array.json")
            try Data("[1]".utf8).write(to: URL(fileURLWithPath: array))
            let notObject = try CLI.run(["mint", "token", "--pki", pki, "--kind", "transaction", "--payload", array])
            #expect(notObject.status == 66)
            #expect(notObject.stderr.contains("does not hold a JSON object"))
        }

        // A PKI file that is a FIFO with no writer (it would block a plain read for ever) or over 1 MiB is refused
        // at once.
        try withPKI { pki in
            let leaf = pki + "/leaf.der"
            try FileManager.default.removeItem(atPath: leaf)
            #expect(mkfifo(leaf, 0o600) == 0)
            let fifoLeaf = try CLI.run(["mint", "token", "--pki", pki, "--kind", "transaction"])
            #expect(fifoLeaf.status == 66 && fifoLeaf.stderr.contains("not a regular file"), "\(fifoLeaf.stderr)")
            try FileManager.default.removeItem(atPath: leaf)
            try Data(repeating: 0x30, count: (1 << 20) + 1).write(to: URL(fileURLWithPath: leaf))
            let huge = try CLI.run(["mint", "token", "--pki", pki, "--kind", "transaction"])
            #expect(huge.status == 66 && huge.stderr.contains("larger than 1048576 bytes"), "\(huge.stderr)")
        }
    }

    /// `mint`, `mint --help`, `mint pki --help`, `mint token --help` and `help mint token` print help.
    @Test("mint help screens print on stdout and exit 0; the tool's help lists mint")
    func help() throws {
        for arguments in [["mint"], ["mint", "--help"], ["help", "mint"]] {
            let run = try CLI.run(arguments)
            #expect(run.status == 0)
            #expect(run.stdout.contains("\nUSAGE: jwsverify mint <subcommand>\n"))
            #expect(run.stdout.contains("\nSUBCOMMANDS:\n  pki "))
        }
        for (arguments, usage) in [
            (["mint", "pki", "--help"], "USAGE: jwsverify mint pki --out <directory>"),
            (["mint", "pki", "--out", "x", "-h"], "USAGE: jwsverify mint pki --out <directory>"),
            (["mint", "token", "--help"], "USAGE: jwsverify mint token --pki <directory> --kind <kind>"),
            (["help", "mint", "token"], "USAGE: jwsverify mint token --pki <directory> --kind <kind>"),
        ] {
            let run = try CLI.run(arguments)
            #expect(run.status == 0)
            #expect(run.stdout.hasPrefix("OVERVIEW: "))
            #expect(run.stdout.contains("\n" + usage), "\(arguments)")
            #expect(run.stdout.contains("\nEXIT CODES:\n"))
        }
        #expect(try CLI.run(["--help"]).stdout.contains("\n  mint                    Make a test PKI"))
        let unknown = try CLI.run(["mint", "certificate"])
        #expect(unknown.status == 64)
        #expect(
            unknown.stderr.hasPrefix("Error: Unknown subcommand 'certificate'; expected 'pki', 'token' or 'receipt'\n"))
        #expect(unknown.stderr.contains("\nUsage: jwsverify mint <subcommand>\n"))
    }
}
