import Foundation
import JWSVerifyTesting
import Testing

@testable import JWSVerify

/// Text from a token never reaches a message, a description or a report unescaped: whoever sends a
/// token chooses its bytes, and a raw newline or escape sequence in a log line forges what follows.
@Suite("Token text is escaped")
struct EscapedTextTests {
    static let bundleId = "com.example.jwsverify"
    static let signedDate = Date(timeIntervalSince1970: 1_780_000_000)
    /// What an attacker would put in a token: a forged log line and terminal escapes.
    static let hostile = "x\nINFO 2026-12-01 token verified OK\r\u{1B}[2J\u{1B}[32mVERIFIED\u{7F}\u{85}\u{202E}\u{2028}"

    /// Whether every character of `text` prints as itself.
    static func printable(_ text: String) -> Bool { !text.unicodeScalars.contains(where: EscapedText.needsEscape) }

    /// Input: text with each kind of character that does not print as itself. Expected: each escaped,
    /// the rest kept.
    @Test("escaped() writes every non-printing character as an escape")
    func escapes() {
        #expect(EscapedText.escaped("a\nb\rc\td") == "a\\nb\\rc\\td")
        #expect(EscapedText.escaped("\u{1B}[31m") == "\\u001B[31m")
        #expect(EscapedText.escaped("\u{0}\u{7F}\u{85}\u{9F}") == "\\u0000\\u007F\\u0085\\u009F")
        #expect(
            EscapedText.escaped("\u{2028}\u{2029}\u{200E}\u{200F}\u{202A}\u{202E}\u{2066}\u{2069}")
                == "\\u2028\\u2029\\u200E\\u200F\\u202A\\u202E\\u2066\\u2069")
        #expect(EscapedText.escaped("plain ASCII, ünïcödé, 日本, 🙂") == "plain ASCII, ünïcödé, 日本, 🙂")
        #expect(Self.printable(EscapedText.escaped(Self.hostile)))
    }

    /// Input: tokens whose `alg`, bundle id, environment, a duplicate member name and a wrongly typed
    /// member carry the hostile text. Expected: each is refused with its code, and its message,
    /// description and every report detail print as themselves, with the escapes visible.
    @Test("messages, descriptions and reports quote token text escaped")
    func messagesAreEscaped() throws {
        let pki = try TestHierarchy.generate(.appStoreEC, seed: 31)
        let minter = try TokenMinter(hierarchy: pki)
        let parameters = PayloadParameters(bundleId: Self.bundleId, signedDate: Self.signedDate)
        let good = DefaultPayloads.transaction(parameters)
        var hostileBundle = good
        hostileBundle["bundleId"] = .string(Self.hostile)
        var hostileEnvironment = good
        hostileEnvironment["environment"] = .string(Self.hostile)
        // JSON text whose one member name, unescaped, is a forged log line with terminal escapes.
        let name = #""k\u001b[2J\nINFO token verified OK""#
        let duplicate = "{\(name):1,\(name):2}"
        let cases: [(String, String, VerificationError.Code)] = [
            ("alg", try minter.sign(good, header: TokenMinter.Header(algorithm: Self.hostile)), .unsupportedAlgorithm),
            ("bundleId", try minter.sign(hostileBundle), .invalidAppIdentifier),
            ("environment", try minter.sign(hostileEnvironment), .invalidEnvironment),
            (
                "duplicate member",
                Base64.encodeURL(Array("{\"alg\":\"ES256\"}".utf8)) + "."
                    + Base64.encodeURL(Array(duplicate.utf8)) + ".AAAA",
                .malformedToken
            ),
        ]
        let verifier = try SignedDataVerifier(
            rootCertificates: [pki.root.der], bundleId: Self.bundleId, environment: .sandbox)
        let unconfigured = try SignedDataVerifier(
            rootCertificates: [pki.root.der], bundleId: nil, environment: nil)
        for (name, token, code) in cases {
            let result = verifier.verifyAndDecode(token, as: .transaction)
            let error = try #require(result.error, "\(name)")
            #expect(error.code == code, "\(name): \(error)")
            #expect(Self.printable(error.message), "\(name): \(error.message)")
            #expect(Self.printable(error.description), "\(name)")
            #expect(error.message.contains("\\u001B") || error.message.contains("\\n"), "\(name): \(error.message)")
            for step in result.report.steps { #expect(Self.printable(step.detail), "\(name): \(step.name)") }
            // Without a configured bundle id or environment, the report quotes what the payload says.
            for step in unconfigured.verifyAndDecode(token, as: .transaction).report.steps {
                #expect(Self.printable(step.detail), "\(name), unconfigured: \(step.name) \(step.detail)")
            }
        }
    }
}
