import Foundation
import Testing

/// The command-line findings of issue #28 (what a new user ran into), each run through the built binary.
@Suite("new-user findings: the CLI")
struct NewUserFindingsTests {
    /// Every subcommand, by the words that name it.
    static let subcommands = [
        ["verify"], ["receipt"], ["inspect"], ["batch"], ["sign"], ["mint", "pki"], ["mint", "token"],
        ["mint", "receipt"], ["api"],
    ]

    /// Writes `files` (name and contents) into a fresh directory and runs `body` with their paths.
    private func withFiles<T>(_ files: [(String, String)], _ body: ([String]) throws -> T) throws -> T {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("jwsverify-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let paths = try files.map { name, contents in
            let url = directory.appendingPathComponent(name)
            try contents.write(to: url, atomically: true, encoding: .utf8)
            return url.path
        }
        return try body(paths)
    }

    /// Every subcommand lists `-q, --quiet` in its help; `receipt -q` and `inspect -q` (refused before) print
    /// nothing on standard output and keep the exit status.
    @Test("-q is accepted by every subcommand and silences standard output", arguments: subcommands)
    func quietEverywhere(words: [String]) throws {
        let help = try CLI.run(words + ["--help"])
        #expect(help.stdout.contains("-q, --quiet"), "\(words)")
        switch words {
        case ["receipt"]:
            let run = try CLI.run(["receipt", "-q", ReceiptFixtures.recent.path])
            let loud = try CLI.run(["receipt", ReceiptFixtures.recent.path])
            #expect(run.stdout.isEmpty && !loud.stdout.isEmpty && run.status == loud.status, "\(run.stderr)")
        case ["inspect"]:
            let run = try CLI.run(["inspect", "-q", CLI.mock("transactionInfo")])
            #expect(run.status == 0 && run.stdout.isEmpty && run.stderr.isEmpty, "\(run.stderr)")
        case ["mint", "pki"]:
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("q-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: directory) }
            let run = try CLI.run(["mint", "pki", "--quiet", "--out", directory.path])
            #expect(run.status == 0 && run.stdout.isEmpty, "\(run.stderr)")
            #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("root.der").path))
        default:
            break
        }
    }

    /// An unknown option close to a declared one is answered with it: by letters ignoring case and punctuation,
    /// by a unique prefix, by a small edit distance; a far one gets no suggestion.
    @Test(
        "an unknown option close to a declared one gets 'Did you mean'",
        arguments: [
            (["--bundle", "x"], "Unknown option '--bundle'. Did you mean '--bundle-id'?"),
            (["--bundleid", "x"], "Unknown option '--bundleid'. Did you mean '--bundle-id'?"),
            (["--Bundle_ID", "x"], "Unknown option '--Bundle_ID'. Did you mean '--bundle-id'?"),
            (["--env", "Sandbox"], "Unknown option '--env'. Did you mean '--environment'?"),
            (["--enviroment", "Sandbox"], "Unknown option '--enviroment'. Did you mean '--environment'?"),
            (["--qiuet"], "Unknown option '--qiuet'. Did you mean '--quiet'?"),
            (["--frobnicate"], "Unknown option '--frobnicate'\n"),
        ])
    func didYouMean(arguments: [String], message: String) throws {
        let run = try CLI.run(arguments)
        #expect(run.status == 64)
        #expect(run.stderr.hasPrefix("Error: " + message), "\(run.stderr)")
    }

    /// A negative, non-numeric or overflowing number is refused by the option itself, with its range, exit 64
    /// (`--app-apple-id -5` said "Missing value" before).
    @Test(
        "a negative, non-numeric or too large number names the option and its range",
        arguments: [
            (
                ["--app-apple-id", "-5"],
                "'-5' is invalid for '--app-apple-id <n>'. Please provide a whole number from 0 to 9223372036854775807."
            ),
            (["--app-apple-id", "abc"], "'abc' is invalid for '--app-apple-id <n>'. Please provide a whole number"),
            (["--app-apple-id=99999999999999999999"], "'99999999999999999999' is invalid for '--app-apple-id <n>'"),
            (
                ["mint", "token", "--pki", "p", "--kind", "transaction", "--count", "-1"],
                "'-1' is invalid for '--count <n>'. Please provide a whole number from 1 to 100000."
            ),
            (
                ["mint", "pki", "--out", "d", "--seed", "-3"],
                "'-3' is invalid for '--seed <n>'. Please provide a whole number from 0"
            ),
        ])
    func numbers(arguments: [String], message: String) throws {
        let run = try CLI.run(arguments)
        #expect(run.status == 64)
        #expect(run.stderr.hasPrefix("Error: The value " + message), "\(run.stderr)")
    }

    /// `verify a b c`: a report per file headed by its name, the worst status (66 over 1 over 0); with `--json`
    /// one array of the objects, each with its `file`.
    @Test("verify with several files reports each and exits with the worst status")
    func severalFiles() throws {
        let valid = try CLI.token("apple-library/mock_signed_data/transactionInfo")
        let wrong = try CLI.token("apple-library/mock_signed_data/wrongBundleId")
        try withFiles([("a.jws", valid), ("b.jws", wrong)]) { paths in
            let text = try CLI.run(CLI.mockConfiguration + paths)
            #expect(text.status == 1, "\(text.stderr)")
            #expect(text.stdout.hasPrefix("==> \(paths[0]) <==\nVERIFIED\n"), "\(text.stdout.prefix(300))")
            #expect(text.stdout.contains("==> \(paths[1]) <==\nNOT VERIFIED: invalidAppIdentifier"))

            let verified = try CLI.run(CLI.mockConfiguration + [paths[0], paths[0]])
            #expect(verified.status == 0)

            let missing = try CLI.run(CLI.mockConfiguration + paths + [paths[0] + ".missing"])
            #expect(missing.status == 66)
            #expect(missing.stderr.contains("a.jws.missing"), "\(missing.stderr)")

            let json = try CLI.run(CLI.mockConfiguration + ["--json"] + paths)
            #expect(json.status == 1)
            let array = try #require(try JSONSerialization.jsonObject(with: json.stdoutData) as? [[String: Any]])
            #expect(array.map { $0["file"] as? String } == paths)
            #expect(array.map { $0["verified"] as? Bool } == [true, false])

            let quiet = try CLI.run(CLI.mockConfiguration + ["-q"] + paths)
            #expect(quiet.status == 1 && quiet.stdout.isEmpty)
        }
    }

    /// Tokens and receipts minted with the test PKI, verified against the bundled roots, get the same hint: pass the
    /// PKI's root with `--root`.
    @Test("a minted token checked against the bundled root gets the --root hint, as a receipt does")
    func mintedHint() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pki-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        try #require(try CLI.run(["mint", "pki", "--out", directory.path]).status == 0)
        let token = try CLI.run(["mint", "token", "--pki", directory.path, "--kind", "transaction"])
        let run = try CLI.run(["--environment", "Sandbox"], stdin: token.stdout)
        #expect(run.status == 1)
        #expect(run.stdout.hasPrefix("NOT VERIFIED: untrustedChain"), "\(run.stdout.prefix(200))")
        #expect(
            run.stdout.contains(
                "hint: the chain does not lead to the bundled Apple Root CA - G3; a token minted with 'jwsverify mint"
                    + " token' verifies only with '--root <pki>/root.der'"), "\(run.stdout.prefix(600))")
        let rooted = try CLI.run(
            ["--environment", "Sandbox", "--root", directory.path + "/root.der"], stdin: token.stdout)
        #expect(!rooted.stdout.contains("minted with"))
    }

    /// A subtype Apple does not document for the notification type is a usage error listing the type's subtypes.
    @Test(
        "mint token refuses a subtype of another notification type, listing the valid ones",
        arguments: [
            (
                ["--type", "DID_RENEW", "--subtype", "VOLUNTARY"],
                "is not a subtype of DID_RENEW: it takes 'BILLING_RECOVERY';"
            ),
            (["--type", "REFUND", "--subtype", "VOLUNTARY"], "is not a subtype of REFUND: it takes none;"),
            (["--subtype", "VOLUNTARY"], "is not a subtype of SUBSCRIBED: it takes 'INITIAL_BUY' and 'RESUBSCRIBE';"),
        ])
    func subtypeOfType(arguments: [String], message: String) throws {
        let run = try CLI.run(["mint", "token", "--pki", "p", "--kind", "notification"] + arguments)
        #expect(run.status == 64)
        #expect(run.stderr.hasPrefix("Error: '--subtype VOLUNTARY' " + message), "\(run.stderr)")
    }

    /// batch's help and summary speak of lines, tokens and receipts; receipts are counted as a kind.
    @Test("batch's help and summary cover receipts")
    func batchWords() throws {
        let help = try CLI.run(["batch", "--help"])
        #expect(help.stdout.contains("Verify many tokens and app receipts, one per line"))
        #expect(help.stdout.contains("At least one line not verified."))
        let receipt = try ReceiptFixtures.recent.base64()
        let token = try CLI.token("apple-library/mock_signed_data/transactionInfo")
        let run = try CLI.run(["batch"] + CLI.mockConfiguration, stdin: token + "\n" + receipt + "\n")
        #expect(run.stderr.contains("kinds:\n  receipt: 1\n  transaction: 1\n"), "\(run.stderr)")
        #expect(run.stderr.contains(" lines/s\n") && !run.stderr.contains("tokens/s"))
    }

    /// `batch --progress` with standard error not a terminal writes progress lines (one per chunk of lines with
    /// `JWSVERIFY_PROGRESS_SECONDS=0`, so nothing depends on timing); without it, none.
    @Test("batch --progress writes progress lines when standard error is not a terminal")
    func progress() throws {
        let token = try CLI.token("apple-library/mock_signed_data/transactionInfo")
        let input = Array(repeating: token, count: 5000).joined(separator: "\n") + "\n"
        let environment = ["JWSVERIFY_PROGRESS_SECONDS": "0"]
        let run = try CLI.run(
            ["batch", "--progress", "--fields", "verified"] + CLI.mockConfiguration, stdin: input,
            environment: environment)
        #expect(run.status == 0)
        let lines = run.stderr.split(separator: "\n").filter { $0.hasPrefix("progress: ") }
        #expect(!lines.isEmpty, "\(run.stderr)")
        #expect(lines.last?.hasPrefix("progress: 5000 lines, 5000 verified, ") == true)
        #expect(!run.stderr.contains("\r"))
        let silent = try CLI.run(["batch"] + CLI.mockConfiguration, stdin: input, environment: environment)
        #expect(!silent.stderr.contains("progress: "))
    }
}
