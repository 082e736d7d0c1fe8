import Foundation
import Testing

@testable import JWSVerify

/// Bad input of every shape gives its code, never a crash. The base token is Apple's
/// `transactionInfo` (valid under the test CA), changed in one way per case.
@Suite("Malformed tokens")
struct MalformedTokenTests {
    static func base() throws -> String { try AppleTestData.token("transactionInfo") }

    static func segments() throws -> [String] {
        try base().split(separator: ".", omittingEmptySubsequences: false).map(String.init)
    }

    static func withHeader(_ change: (inout [String: Any]) -> Void) throws -> String {
        var parts = try TokenParts(base())
        change(&parts.header)
        let segments = try segments()
        return try TokenParts.segment(parts.header) + "." + segments[1] + "." + segments[2]
    }

    static func check(
        _ token: String, _ code: VerificationError.Code, _ check: VerificationError.Check, _ name: String
    ) throws {
        let result = try AppleTestData.verifier().verifyAndDecodeTransaction(token)
        #expect(result.error?.code == code, "\(name): got \(String(describing: result.error))")
        #expect(result.error?.check == check, "\(name)")
        #expect(!result.isVerified, "\(name)")
    }

    /// The unchanged base token verifies, so every failure below is caused by its change.
    @Test("the base token verifies")
    func baseVerifies() throws {
        let result = try AppleTestData.verifier().verifyAndDecodeTransaction(try Self.base())
        #expect(result.isVerified, "\(String(describing: result.error))")
    }

    @Test("segment count and empty segments")
    func segmentShapes() throws {
        let s = try Self.segments()
        try Self.check(s[0] + "." + s[1], .malformedToken, .format, "2 segments")
        try Self.check(s.joined(separator: ".") + "." + s[2], .malformedToken, .format, "4 segments")
        try Self.check("." + s[1] + "." + s[2], .malformedToken, .format, "empty header")
        try Self.check(s[0] + ".." + s[2], .malformedToken, .format, "empty payload")
        try Self.check(s[0] + "." + s[1] + ".", .invalidSignature, .signature, "empty signature")
        try Self.check("", .malformedToken, .format, "empty token")
        try Self.check("..", .malformedToken, .format, "only dots")
    }

    @Test("base64url is strict")
    func strictBase64() throws {
        let s = try Self.segments()
        try Self.check(s[0] + "=." + s[1] + "." + s[2], .malformedToken, .format, "padding")
        try Self.check(s[0] + "." + s[1] + "." + s[2] + "==", .malformedToken, .format, "signature padding")
        try Self.check(s[0] + " ." + s[1] + "." + s[2], .malformedToken, .format, "space")
        try Self.check(s[0] + "." + s[1] + "\n." + s[2], .malformedToken, .format, "newline")
        try Self.check(
            s[0] + "." + s[1] + "."
                + s[2].replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/") + "+/",
            .malformedToken, .format, "plus and slash")
        try Self.check(s[0] + "." + "\u{e9}" + s[1] + "." + s[2], .malformedToken, .format, "non-ASCII")
        try Self.check(s[0] + "." + s[1] + "." + s[2] + "\u{0}", .malformedToken, .format, "NUL")
    }

    @Test("header and payload must be JSON objects")
    func jsonObjects() throws {
        let s = try Self.segments()
        for text in ["[1]", "\"ES256\"", "1", "null", "{", "{\"alg\":\"ES256\",\"alg\":\"none\"}", "not json"] {
            try Self.check(
                Base64.encodeURL(Array(text.utf8)) + "." + s[1] + "." + s[2], .malformedToken, .format, "header \(text)"
            )
            try Self.check(
                s[0] + "." + Base64.encodeURL(Array(text.utf8)) + "." + s[2], .malformedToken, .format,
                "payload \(text)")
        }
        let deep = "{\"a\":" + String(repeating: "[", count: 1000) + String(repeating: "]", count: 1000) + "}"
        try Self.check(
            s[0] + "." + Base64.encodeURL(Array(deep.utf8)) + "." + s[2], .malformedToken, .format, "deep nesting")
    }

    @Test("alg must be exactly ES256", arguments: ["none", "HS256", "RS256", "ES384", "es256", "ES256 ", ""])
    func algorithms(_ alg: String) throws {
        try Self.check(try Self.withHeader { $0["alg"] = alg }, .unsupportedAlgorithm, .header, "alg \(alg)")
    }

    @Test("alg absent or not a string, and crit present, are rejected")
    func algShapes() throws {
        try Self.check(try Self.withHeader { $0["alg"] = nil }, .unsupportedAlgorithm, .header, "no alg")
        try Self.check(try Self.withHeader { $0["alg"] = 256 }, .unsupportedAlgorithm, .header, "alg number")
        try Self.check(try Self.withHeader { $0["crit"] = ["exp"] }, .unsupportedAlgorithm, .header, "crit")
    }

    @Test("x5c must be an array of three strings")
    func x5cShapes() throws {
        let x5c = try #require(try TokenParts(Self.base()).header["x5c"] as? [String])
        try Self.check(try Self.withHeader { $0["x5c"] = nil }, .missingCertificateChain, .header, "no x5c")
        try Self.check(try Self.withHeader { $0["x5c"] = "abc" }, .missingCertificateChain, .header, "x5c string")
        try Self.check(try Self.withHeader { $0["x5c"] = [1, 2, 3] }, .missingCertificateChain, .header, "x5c numbers")
        try Self.check(
            try Self.withHeader { $0["x5c"] = [] as [String] }, .invalidChainLength, .header, "0 certificates")
        try Self.check(
            try Self.withHeader { $0["x5c"] = Array(x5c.prefix(2)) }, .invalidChainLength, .header, "2 certificates")
        try Self.check(
            try Self.withHeader { $0["x5c"] = x5c + [x5c[2]] }, .invalidChainLength, .header, "4 certificates")
        try Self.check(
            try Self.withHeader { $0["x5c"] = [x5c[0], "AAAA", x5c[2]] }, .invalidCertificate, .chain,
            "garbage certificate")
        let broken = String(x5c[1].prefix(64)) + "\n" + String(x5c[1].dropFirst(64))
        try Self.check(
            try Self.withHeader { $0["x5c"] = [x5c[0], broken, x5c[2]] }, .invalidCertificate, .chain,
            "line break in base64")
        let der = try #require(Base64.decodeStandard(x5c[1]))
        try Self.check(
            try Self.withHeader { $0["x5c"] = [x5c[0], Base64.encodeStandard(der + [0]), x5c[2]] }, .invalidCertificate,
            .chain, "trailing byte")
        try Self.check(
            try Self.withHeader { $0["x5c"] = [x5c[0], Base64.encodeURL(der), x5c[2]] }, .invalidCertificate, .chain,
            "base64url certificate")
    }

    @Test("the signature must be 64 bytes of R‖S")
    func signatureShapes() throws {
        var parts = try TokenParts(Self.base())
        let raw = parts.signature
        let s = try Self.segments()
        try Self.check(
            s[0] + "." + s[1] + "." + Base64.encodeURL(raw.prefix(63)), .invalidSignature, .signature, "63 bytes")
        try Self.check(s[0] + "." + s[1] + "." + Base64.encodeURL(raw + [0]), .invalidSignature, .signature, "65 bytes")
        try Self.check(
            s[0] + "." + s[1] + "." + Base64.encodeURL(derSignature(raw)), .invalidSignature, .signature, "DER")
        parts.signature[10] ^= 0x01
        try Self.check(
            s[0] + "." + s[1] + "." + Base64.encodeURL(parts.signature), .invalidSignature, .signature, "flipped bit")
        try Self.check(
            s[0] + "." + s[1] + "." + Base64.encodeURL([UInt8](repeating: 0, count: 64)), .invalidSignature, .signature,
            "zero")
    }

    /// Input: a token of 64 KiB + 1 bytes, and of 10 MB. Expected: `malformedToken` before any decoding.
    @Test("over-long tokens are rejected by size")
    func overLong() throws {
        let s = try Self.segments()
        let padding = String(repeating: "A", count: 64 * 1024 + 1 - (s[0].count + s[1].count + 2))
        try Self.check(s[0] + "." + s[1] + "." + padding, .malformedToken, .format, "64 KiB + 1")
        try Self.check(String(repeating: "A", count: 10_000_000), .malformedToken, .format, "10 MB")
    }

    /// Input: a payload changed after signing. Expected: `invalidSignature`.
    @Test("a tampered payload fails the signature")
    func tamperedPayload() throws {
        var parts = try TokenParts(Self.base())
        parts.payload["bundleId"] = "com.example.other"
        let s = try Self.segments()
        let token = s[0] + "." + (try TokenParts.segment(parts.payload)) + "." + s[2]
        try Self.check(token, .invalidSignature, .signature, "tampered payload")
    }
}
