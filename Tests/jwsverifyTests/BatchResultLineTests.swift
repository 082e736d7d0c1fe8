import Foundation
import Testing

/// `jwsverify batch` result lines (compact and full, `--fields`) and input shapes, end to end.
@Suite("batch result lines and input shapes")
struct BatchResultLineTests {
    private static let mockToken: String = (try? CLI.token("apple-library/mock_signed_data/transactionInfo")) ?? ""

    private func lines(_ run: CLI.Run) throws -> [[String: Any]] {
        try run.stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map { line in
            try #require(
                try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                "not JSON: \(line.prefix(200))")
        }
    }

    /// Apple's mock transaction: the compact line has schemaVersion 2, the verdict, the environment,
    /// the decoded payload, and neither checks nor chain; it is well under 1.5 KB.
    @Test("a compact line carries verdict, kind, environment and payload, without checks or chain")
    func compactTransactionLine() throws {
        let run = try CLI.run(["batch"] + CLI.mockConfiguration, stdin: Self.mockToken + "\n")
        #expect(run.status == 0)
        let line = try #require(try lines(run).first)
        #expect(
            Set(line.keys)
                == [
                    "schemaVersion", "line", "verified", "code", "check", "message", "retryable", "kind",
                    "environment", "payload",
                ])
        #expect(line["schemaVersion"] as? Int == 2)
        #expect(line["verified"] as? Bool == true)
        #expect(line["code"] is NSNull)
        #expect(line.string("kind") == "transaction")
        #expect(line.string("environment") == "Sandbox")
        #expect((line["payload"] as? [String: Any])?["bundleId"] as? String == "com.example")
        #expect(run.stdout.utf8.count <= 1536)
    }

    /// Every accepted shape, with string and number ids echoed as given; shapes that carry no token
    /// each get a malformedToken line naming the expected shapes, with the id when it could be read.
    @Test("bare, token, signedPayload and quoted lines verify; ids are echoed; unshaped lines are reported")
    func inputShapes() throws {
        let token = Self.mockToken
        let input = [
            token,
            "{\"id\": \"order-1\", \"token\": \"\(token)\"}",
            "{\"signedPayload\": \"\(token)\", \"id\": 42}",
            "\"\(token)\"",
            "  {\"id\": 7.5, \"token\": \"\(token)\"}  ",
            "{\"id\": \"no-token\"}",
            "{\"id\": \"both\", \"token\": \"\(token)\", \"signedPayload\": \"\(token)\"}",
            "{\"id\": true, \"token\": \"\(token)\"}",
            "{\"token\": 5}",
            "\"unterminated",
            "[1, 2]",
        ].joined(separator: "\n")
        let run = try CLI.run(["batch"] + CLI.mockConfiguration, stdin: input)
        let results = try lines(run)
        try #require(results.count == 11)
        #expect(results.map { $0["line"] as? Int } == Array(1...11))
        #expect(results.prefix(5).allSatisfy { $0["verified"] as? Bool == true })
        #expect(results[0]["id"] == nil)
        #expect(results[1].string("id") == "order-1")
        #expect(results[2]["id"] as? Int == 42)
        #expect(results[4]["id"] as? Double == 7.5)
        #expect(
            results.dropFirst(5).allSatisfy { $0.string("code") == "malformedToken" && $0.string("check") == "format" })
        let expected = "expected a bare token, a JSON string holding one, or a JSON object"
        #expect(results.dropFirst(5).dropLast().allSatisfy { $0.string("message")?.contains(expected) == true })
        #expect(results[5].string("id") == "no-token")
        #expect(results[5].string("message")?.contains("no \"token\" or \"signedPayload\" member") == true)
        #expect(results[6].string("id") == "both")
        #expect(results[6].string("message")?.contains("ambiguous") == true)
        #expect(results[7]["id"] == nil)
        #expect(results[8].string("message")?.contains("\"token\" is not a string") == true)
        #expect(results[9].string("message")?.contains("is not a JSON string") == true)
        #expect(run.status == 1)
    }

    /// Garbage, blank, binary and over-long lines among valid ones: one line each, in order, with a code.
    @Test("garbage, empty, binary and over-long lines each get their own malformedToken line, in order")
    func hostileLines() throws {
        var input = Data()
        input.append(Data((Self.mockToken + "\n").utf8))
        input.append(Data("garbage!\n".utf8))
        input.append(Data("\n".utf8))
        input.append(Data([0x00, 0xFF, 0xFE, 0x1B, 0x0A]))
        input.append(Data((String(repeating: "A", count: 70_000) + "\n").utf8))
        input.append(Data((Self.mockToken + "\n").utf8))
        let run = try CLI.run(["batch"] + CLI.mockConfiguration, stdin: input)
        let results = try lines(run)
        #expect(results.map { $0["line"] as? Int } == [1, 2, 3, 4, 5, 6])
        #expect(results.map { $0["verified"] as? Bool } == [true, false, false, false, false, true])
        #expect(results[1...4].allSatisfy { $0.string("code") == "malformedToken" })
        #expect(results[2].string("message") == "the token is empty")
        #expect(results[3].string("message")?.hasPrefix("the line is not UTF-8 text") == true)
        #expect(results[4].string("message")?.contains("70000 bytes, over the line limit") == true)
        #expect(run.status == 1)
        #expect(run.stderr.contains("kinds:\n  transaction: 2\n  unknown: 4\n"))
    }

    /// A notification with two nested tokens: the compact line names it by its identifiers, and each
    /// nested token is replaced in the payload by its verdict and decoded payload: no token text at all.
    @Test("a notification's compact line replaces nested tokens by their verdicts and stays under 4 KB")
    func compactNotificationLine() throws {
        let run = try CLI.run(["batch"] + CLI.mockConfiguration, stdin: Fixtures.notification + "\n")
        #expect(run.status == 0)
        #expect(run.stdout.utf8.count <= 4096)
        #expect(!run.stdout.contains("eyJ"), "no token is echoed")
        let line = try #require(try lines(run).first)
        #expect(line.string("kind") == "notification")
        #expect(line.string("notificationType") == "SUBSCRIBED")
        #expect(line.string("subtype") == "INITIAL_BUY")
        #expect(line.string("notificationUUID") == "002e14d5-51f5-4503-b5a8-c3a1af68eb20")
        #expect(line.string("transactionId") == "2000000123456789")
        #expect(line.string("productId") == "com.example.monthly")
        let data = try #require((line["payload"] as? [String: Any])?["data"] as? [String: Any])
        let transaction = try #require(data["signedTransactionInfo"] as? [String: Any])
        #expect(transaction["verified"] as? Bool == true)
        #expect((transaction["payload"] as? [String: Any])?["futureField"] as? String == "kept")
        let renewal = try #require(data["signedRenewalInfo"] as? [String: Any])
        #expect(renewal.string("kind") == "renewal")
    }

    /// The tampered renewal: the line names the nested field and check; the nested verdict says why.
    @Test("a notification whose nested renewal info is forged names nestedField and nestedCheck")
    func nestedFailure() throws {
        let run = try CLI.run(["batch"] + CLI.mockConfiguration, stdin: Fixtures.notificationWithTamperedRenewal)
        #expect(run.status == 1)
        let line = try #require(try lines(run).first)
        #expect(line.string("check") == "nestedTokens")
        #expect(line.string("nestedField") == "signedRenewalInfo")
        #expect(line.string("nestedCheck") == "signature")
        let data = try #require((line["payload"] as? [String: Any])?["data"] as? [String: Any])
        let renewal = try #require(data["signedRenewalInfo"] as? [String: Any])
        #expect(renewal["verified"] as? Bool == false)
        #expect(renewal.string("code") == "invalidSignature")
        #expect(!run.stdout.contains("eyJ"))
    }

    /// `--report full` gives verify's object (schemaVersion 1, checks, chain) with line and id.
    @Test("--report full writes verify's object with checks and chain, plus line and id")
    func fullReport() throws {
        let run = try CLI.run(
            ["batch", "--report", "full"] + CLI.mockConfiguration,
            stdin: "{\"id\": 3, \"token\": \"\(Self.mockToken)\"}")
        let line = try #require(try lines(run).first)
        #expect(line["schemaVersion"] as? Int == 1)
        #expect(line["id"] as? Int == 3)
        #expect(line["line"] as? Int == 1)
        #expect((line["checks"] as? [Any])?.isEmpty == false)
        #expect((line["chain"] as? [Any])?.count == 3)
        let bad = try CLI.run(["batch", "--report", "short"], stdin: "x")
        #expect(bad.status == 64)
        #expect(bad.stderr.contains("Please provide one of 'compact' and 'full'"))
    }

    /// `--fields` keeps the named fields (and line, schemaVersion); an unknown name is a usage error
    /// that lists the names allowed.
    @Test("--fields selects top-level fields; an unknown field is a usage error naming the allowed ones")
    func fields() throws {
        let run = try CLI.run(
            ["batch", "--fields", "verified,id,transactionId"] + CLI.mockConfiguration,
            stdin: "{\"id\": \"a\", \"token\": \"\(Self.mockToken)\"}\nnope\n")
        let results = try lines(run)
        #expect(
            results.map { Set($0.keys) } == [
                ["line", "schemaVersion", "verified", "id"], ["line", "schemaVersion", "verified"],
            ])
        let unknown = try CLI.run(["batch", "--fields", "verified,colour"], stdin: "x")
        #expect(unknown.status == 64)
        #expect(unknown.stderr.contains("unknown field 'colour'"))
        #expect(unknown.stderr.contains("'chain'"))
        #expect(unknown.stderr.contains("'transactionId'"))
        #expect(unknown.stdout.isEmpty)
    }

    /// Token text that would move a terminal's cursor or reorder its text never reaches the output raw: an id
    /// written with `\u` escapes is echoed as written (ASCII); an id holding a raw bidi override or C1 control
    /// cannot be echoed both as written and safely, so its line is refused without it, saying why.
    @Test("escape sequences, C1 controls and bidi overrides from the input are escaped in result lines")
    func terminalSafe() throws {
        let run = try CLI.run(
            ["batch"] + CLI.mockConfiguration,
            stdin: "{\"id\": \"\\u001b[31m\u{202E}\u{9B}\", \"token\": \"x\"}\n"
                + "{\"id\": \"\\u001b[31m\\u202e\\u009b\", \"token\": \"\u{202E}x\"}\n")
        #expect(!run.stdout.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{202E}" || $0 == "\u{9B}" })
        let results = try lines(run)
        try #require(results.count == 2)
        #expect(results[0]["id"] == nil)
        #expect(results[0].string("code") == "malformedToken")
        #expect(results[0].string("message")?.contains("\"id\" holds a character") == true)
        #expect(run.stdout.contains("\"id\":\"\\u001b[31m\\u202e\\u009b\""))
        #expect(results[1].string("id") == "\u{1B}[31m\u{202E}\u{9B}")
    }

    /// `verify` and `inspect` accept the same shapes: a pasted notification body, a quoted token; an
    /// input in no shape is reported with the shapes expected.
    @Test("verify and inspect read a signedPayload body, a token object and a quoted token")
    func verifyAndInspectShapes() throws {
        let body = try CLI.run(CLI.mockConfiguration, stdin: "{\"signedPayload\": \"\(Self.mockToken)\"}\n")
        #expect(body.status == 0)
        #expect(body.stdout.hasPrefix("VERIFIED\n"))
        let quoted = try CLI.run(CLI.mockConfiguration + ["--json"], stdin: "\"\(Self.mockToken)\"")
        #expect(quoted.status == 0)
        let none = try CLI.run(CLI.mockConfiguration, stdin: "{\"payload\": 1}")
        #expect(none.status == 1)
        #expect(none.stdout.hasPrefix("NOT VERIFIED: malformedToken (format): the object has no \"token\""))
        #expect(none.stdout.contains("expected a bare token, a JSON string holding one, or a JSON object"))
        let inspect = try CLI.run(["inspect", "--json"], stdin: "{\"token\": \"\(Self.mockToken)\", \"id\": 1}")
        #expect(inspect.status == 0)
        #expect((try inspect.json()["payload"] as? [String: Any])?["bundleId"] as? String == "com.example")
        let binary = try CLI.run(["inspect"], stdin: Data([0xFF, 0xFE, 0x41]))
        #expect(binary.status == 1)
        #expect(binary.stdout.contains("the input is not UTF-8 text"))
    }
}
