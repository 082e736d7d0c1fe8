import Foundation
import Testing

/// `jwsverify batch` echoes each line's `id` as the caller wrote it.
@Suite("batch ids")
struct BatchIdTests {
    /// Ids that a re-rendering of their parsed value would change or merge: integers past `Int64`, big negative
    /// numbers, `1e400`, lone surrogate escapes, escaped and non-ASCII strings.
    static let ids = [
        "9223372036854775808", "9223372036854775809", #""\ud800""#, #""\udbff""#, "-9223372036854775809",
        "-99999999999999999999999999", "1e400", "-0", "1.50", #""a\u0041\n\"\\/""#, "\"caf\u{E9}\"", #""\ud83d\ude00""#,
        #""plain-7""#,
    ]

    /// The result lines of a run, as text.
    private func lines(_ run: CLI.Run) -> [Substring] {
        run.stdout.split(separator: "\n")
    }

    /// Input: Apple's mock transaction in an object line with each id of ``ids`` (spaces around it), compact and
    /// `--report full`. Expected: every line carries `"id":` followed by the id's text byte for byte; the issue's
    /// colliding pairs come back distinct.
    @Test("each id is echoed byte for byte, in compact and full lines")
    func idsAreEchoedAsWritten() throws {
        let token = try CLI.token("apple-library/mock_signed_data/transactionInfo")
        let input = Self.ids.map { "{\"token\": \"\(token)\", \"id\":  \($0) }" }.joined(separator: "\n") + "\n"
        for report in ["compact", "full"] {
            let run = try CLI.run(["batch", "--report", report] + CLI.mockConfiguration, stdin: input)
            #expect(run.status == 0, "\(report): \(run.stdout.prefix(400))")
            let lines = lines(run)
            try #require(lines.count == Self.ids.count)
            for (line, id) in zip(lines, Self.ids) {
                #expect(line.contains("\"id\":\(id),"), "\(report): \(id) in \(line.prefix(200))")
                // Foundation refuses a lone surrogate escape and 1e400, which JSON's grammar allows and `batch` echoes.
                if !id.contains("\\ud8"), !id.contains("\\udb"), id != "1e400" {
                    #expect(try JSONSerialization.jsonObject(with: Data(line.utf8)) is [String: Any], "\(id): not JSON")
                }
            }
        }
    }

    /// Input: lines whose id is an array, a nested object, null, or a string holding a raw U+2028 or U+202E.
    /// Expected: each line refused (`malformedToken`, the message naming `"id"`), without an `id` member; exit 1.
    @Test("an id that is no string or number, or cannot be echoed safely, refuses its line")
    func unechoableIdsAreRefused() throws {
        let token = try CLI.token("apple-library/mock_signed_data/transactionInfo")
        let ids = ["[1,[2]]", "{\"a\":{\"b\":[]}}", "null", "\"x\u{2028}\"", "\"\u{202E}txt\""]
        let input = ids.map { "{\"token\":\"\(token)\",\"id\":\($0)}" }.joined(separator: "\n") + "\n"
        let run = try CLI.run(["batch"] + CLI.mockConfiguration, stdin: input)
        #expect(run.status == 1)
        for line in lines(run) {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            #expect(object["code"] as? String == "malformedToken", "\(line.prefix(300))")
            #expect((object["message"] as? String)?.contains("\"id\"") == true, "\(line.prefix(300))")
            #expect(object["id"] == nil)
        }
    }

    /// Input: a real receipt as a `verifyReceipt` body line with `password` and an id, and one whose `receipt-data`
    /// is a number. Expected: the first verified as a receipt with its id echoed as written; the second refused as
    /// `malformedReceipt` with its id.
    @Test("verifyReceipt bodies are receipt lines")
    func receiptDataLines() throws {
        let receipt = ReceiptFixtures.recent
        let input =
            "{\"receipt-data\": \"\(try receipt.base64())\", \"password\": \"s3cret\", \"id\": 9223372036854775808}\n"
            + "{\"receipt-data\": 7, \"id\": \"r2\"}\n"
        let run = try CLI.run(
            ["batch", "--environment", "Sandbox", "--root", CLI.vector("apple-roots/AppleIncRootCertificate.cer")],
            stdin: input)
        let lines = lines(run)
        try #require(lines.count == 2)
        let first = try #require(try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
        #expect(first["kind"] as? String == "receipt")
        #expect(first["verified"] as? Bool == true, "\(lines[0].prefix(300))")
        #expect(lines[0].contains("\"id\":9223372036854775808,"))
        let second = try #require(try JSONSerialization.jsonObject(with: Data(lines[1].utf8)) as? [String: Any])
        #expect(second["code"] as? String == "malformedReceipt")
        #expect(lines[1].contains("\"id\":\"r2\","))
    }
}
