import Foundation
import Testing

@testable import jwsverify

/// `jwsverify batch` end to end.
@Suite("batch")
struct BatchCommandTests {
    private func results(_ run: CLI.Run) throws -> [[String: Any]] {
        try run.stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map { line in
            try #require(
                try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                "not JSON: \(line.prefix(200))")
        }
    }

    /// 10,000 lines cycling through a valid transaction, a wrong bundle id and garbage: one result per
    /// line, in input order, each with its line number, verdict and code; the summary on stderr.
    @Test("10,000 mixed lines give 10,000 results in input order with a summary")
    func tenThousandLines() throws {
        let valid = try CLI.token("apple-library/mock_signed_data/transactionInfo")
        let wrong = try CLI.token("apple-library/mock_signed_data/wrongBundleId")
        let lines = (0..<10_000).map { index in [valid, wrong, "garbage \(index)"][index % 3] }
        let run = try CLI.run(["batch"] + CLI.mockConfiguration, stdin: lines.joined(separator: "\n") + "\n")
        #expect(run.status == 1)
        let results = try results(run)
        try #require(results.count == 10_000)
        let expectedCodes: [String?] = [nil, "invalidAppIdentifier", "malformedToken"]
        let mismatches = results.enumerated().filter { index, result in
            let code = expectedCodes[index % 3]
            return result["line"] as? Int != index + 1 || result["verified"] as? Bool != (code == nil)
                || result["code"] as? String != code
        }
        #expect(
            mismatches.isEmpty, "first mismatch: \(mismatches.first.map { "\($0.offset + 1): \($0.element)" } ?? "")")
        #expect(run.stderr.contains("total: 10000\n"))
        #expect(run.stderr.contains("verified: 3334\n"))
        #expect(run.stderr.contains("  invalidAppIdentifier: 3333\n"))
        #expect(run.stderr.contains("  malformedToken: 3333\n"))
        #expect(run.stderr.contains(" lines/s\n"))
        #expect(!run.stderr.contains("\r"), "no progress line when stderr is not a terminal")
    }

    /// NDJSON lines with a `token` member, mixed with bare tokens, blank lines and broken objects.
    @Test("NDJSON lines, bare tokens, blank lines and objects without token each give one result")
    func ndjson() throws {
        let valid = try CLI.token("apple-library/mock_signed_data/transactionInfo")
        let input = [
            "{\"id\": 7, \"token\": \"\(valid)\"}",
            valid,
            "",
            "{\"id\": 8}",
            "{not json",
            "   ",
            "{\"token\": \"\(valid)\", \"token\": \"x\"}",
        ].joined(separator: "\n")
        let run = try CLI.run(["batch"] + CLI.mockConfiguration, stdin: input)
        let results = try results(run)
        #expect(results.map { $0["line"] as? Int } == [1, 2, 3, 4, 5, 6, 7])
        #expect(results.map { $0["verified"] as? Bool } == [true, true, false, false, false, false, false])
        #expect(results.dropFirst(2).allSatisfy { $0["code"] as? String == "malformedToken" })
        #expect((results[3]["message"] as? String)?.contains("token") == true)
        #expect((results[4]["message"] as? String)?.contains("is not a JSON object") == true)
        // An object with two "token" members is ambiguous: refused, not resolved either way.
        #expect((results[6]["message"] as? String)?.contains("duplicate") == true)
        #expect(run.status == 1)
    }

    /// A line over the limit is skipped to its end and reported; the following lines still verify.
    @Test("a 1 MB line is reported as malformedToken and the next line still verifies")
    func overlongLine() throws {
        let valid = try CLI.token("apple-library/mock_signed_data/transactionInfo")
        let input = String(repeating: "x", count: 1024 * 1024) + "\n" + valid + "\n"
        let run = try CLI.run(["batch"] + CLI.mockConfiguration, stdin: input)
        let results = try results(run)
        #expect(results.count == 2)
        #expect(results.first?["code"] as? String == "malformedToken")
        #expect((results.first?["message"] as? String)?.contains("1048576 bytes") == true)
        #expect(results.last?["verified"] as? Bool == true)
    }

    /// Every token verified: exit 0; a token file given as an argument; a final line without newline.
    @Test("a batch where every token verifies exits 0")
    func allVerified() throws {
        let valid = try CLI.token("apple-library/mock_signed_data/transactionInfo")
        let run = try CLI.run(["batch"] + CLI.mockConfiguration, stdin: valid + "\n" + valid)
        #expect(run.status == 0)
        #expect(try results(run).count == 2)
        let file = try CLI.run(["batch", "--root", CLI.testRoot, CLI.mock("transactionInfo")])
        #expect(file.status == 0)
        #expect(try results(file).first?["line"] as? Int == 1)
    }

    /// Empty input and configuration errors.
    @Test("empty input exits 66 and a refused configuration exits 64")
    func errors() throws {
        let empty = try CLI.run(["batch"])
        #expect(empty.status == 66)
        #expect(empty.stderr == "Error: no token on standard input\n")
        let production = try CLI.run(["batch", "--environment", "Production"], stdin: "x")
        #expect(production.status == 64)
        #expect(production.stderr.contains("Usage: jwsverify batch [<options>] [<file>]"))
    }

    /// Input: 12 rounds of a real receipt's base64, a `verifyReceipt` body with an id, Apple's mock transaction,
    /// the same with its signature altered, a blank line, garbage, and the 187-purchase receipt (105 KB, longer than
    /// a one-processor chunk) in a `{"token", "id"}` object: 1.4 MB, across many 64 KiB chunks. Expected: `batch`
    /// allowed one processor (`taskset`, which verifies each chunk on the reading thread and renders into the
    /// buffer it writes) writes the same bytes as on every core (1 MiB chunks, stripes joined), every line once
    /// and in order, with the same exit status (1) and counts. Skipped where this process may run on one processor
    /// only: both runs would then take the one-processor path.
    @Test(
        "one processor writes the same result lines as every core, across chunk boundaries",
        .enabled(if: UsableProcessors.count > 1, "both runs would take the one-processor path"))
    func oneProcessorSameBytes() throws {
        let token = try CLI.token("apple-library/mock_signed_data/transactionInfo")
        let altered = String(token.dropLast(4)) + (token.hasSuffix("AAAA") ? "BBBB" : "AAAA")
        let receipt = try ReceiptFixtures.recent.base64()
        let large = try ReceiptFixtures.appStore[1].base64()
        var lines: [String] = []
        for round in 0..<12 {
            let body = "{\"receipt-data\": \"\(receipt)\", \"password\": \"secret\", \"id\": \(round)}"
            let big = "{\"id\": \"big-\(round)\", \"token\": \"\(large)\"}"
            lines += [receipt, body, token, altered, "", "garbage \(round)", big]
        }
        let input = Data((lines.joined(separator: "\n") + "\n").utf8)
        let arguments =
            ["batch", "--environment", "Sandbox", "--root", CLI.testRoot, "--root"]
            + [CLI.vector("apple-roots/AppleIncRootCertificate.cer")]
        let one = try CLI.run(arguments, stdin: input, onOneProcessor: true)
        let every = try CLI.run(arguments, stdin: input)
        #expect(one.status == 1 && every.status == 1)
        let results = try results(one)
        try #require(results.count == lines.count)
        #expect(results.map { $0["line"] as? Int } == Array(1...lines.count))
        #expect(results.filter { $0["verified"] as? Bool == true }.count == 12 * 4)
        #expect(one.stdoutData == every.stdoutData, "one processor and every core wrote different bytes")
        func counts(_ run: CLI.Run) -> [Substring] {
            run.stderr.split(separator: "\n").filter { !$0.hasPrefix("elapsed") }
        }
        #expect(counts(one) == counts(every))
    }
}
