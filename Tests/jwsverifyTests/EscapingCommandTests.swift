import Foundation
import Testing

/// The CLI never writes a token's control characters to the terminal: a forged `alg`, a payload
/// member name and a value that carry a fake log line and terminal escapes come out escaped, in the
/// text and in the JSON output.
@Suite("Token text is escaped in the CLI's output")
struct EscapingCommandTests {
    /// base64url without padding.
    static func base64URL(_ text: String) -> String {
        Data(text.utf8).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }

    /// A token refused at its header, whose `alg`, payload member name and value hold a forged log
    /// line, a screen clear and colour codes (JSON escapes, so the decoded text has the raw bytes).
    static let token =
        base64URL(#"{"alg":"none\nINFO 2026-12-01 verified OK\u001b[2J","x5c":[]}"#) + "."
        + base64URL(
            #"{"bundleId":"com.example","transactionId":"1","k\u001b[31m\nINFO forged":"v\u001b[0m\u2028x"}"#)
        + ".AAAA"

    /// Input: that token, text and `--json`. Expected: refused with `unsupportedAlgorithm`; no ESC, no
    /// U+2028 and no line starting with the forged `INFO` anywhere in the output; the escapes shown as
    /// `\u001B` and `\n`; the claimed payload still shown.
    @Test("a forged alg, member name and value are written escaped")
    func forgedTextIsEscaped() throws {
        let arguments = ["--bundle-id", "com.example", "--environment", "Sandbox"]
        let text = try CLI.run(arguments, stdin: Self.token)
        #expect(text.status == 1)
        #expect(text.stdout.hasPrefix("NOT VERIFIED: unsupportedAlgorithm (header): alg is \"none\\nINFO"))
        #expect(text.stdout.contains("\\u001B[2J"))
        #expect(text.stdout.contains("transactionId: 1"), "the claimed payload is shown: \(text.stdout)")
        #expect(text.stdout.contains("k\\u001B[31m\\nINFO forged:"))
        for output in [text.stdout, text.stderr] {
            #expect(!output.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x2028 || $0.value == 0x0D })
            #expect(
                !output.split(separator: "\n").contains { $0.trimmingCharacters(in: .whitespaces).hasPrefix("INFO") })
        }

        let json = try CLI.run(arguments + ["--json"], stdin: Self.token)
        #expect(json.status == 1)
        #expect(!json.stdoutData.contains(0x1B), "raw ESC in the JSON output")
        let object = try json.json()
        #expect(object.string("code") == "unsupportedAlgorithm")
        let message = try #require(object.string("message"))
        #expect(!message.unicodeScalars.contains { $0.value < 0x20 }, "\(message)")
        #expect(message.contains("\\u001B[2J"))
    }

    /// Input (issue #39): `sign`'s `--key` a PEM file whose label carries ESC, an OSC title sequence ending in BEL,
    /// a screen clear and a CR. Expected: exit 1, `unreadableKey` naming the label escaped (`\u001B`, `\u0007`,
    /// `\r`); no ESC, BEL or CR on standard error (before: the label's bytes reached the terminal raw).
    @Test("a PEM label's control characters in sign's key error are written escaped")
    func pemLabelIsEscaped() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("jwsverify-pem-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let label = "X\u{1B}]0;pwned\u{07}\u{1B}[2J\rY"
        let file = directory.appendingPathComponent("key.p8")
        try Data("-----BEGIN \(label)-----\nAAAA\n-----END \(label)-----\n".utf8).write(to: file)
        let run = try CLI.run([
            "sign", "offer-v1", "--key", file.path, "--key-id", "K", "--bundle-id", "com.example", "--product-id", "p",
            "--offer-id", "o",
        ])
        #expect(run.status == 1, "\(run.stderr)")
        let escaped = "unreadableKey: found no private key (a PEM block labelled X\\u001B]0;pwned\\u0007"
        #expect(run.stderr.contains(escaped), "\(run.stderr)")
        #expect(run.stderr.contains("\\u001B[2J\\rY)"), "\(run.stderr)")
        #expect(!run.stderr.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 || $0.value == 0x0D })
    }
}
