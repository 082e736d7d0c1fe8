import Foundation
import Testing

@testable import JWSVerify

/// Check 1, format (Docs/ErrorCodes.md): at most `maxTokenBytes`, exactly 3 segments, each strict
/// base64url, header and payload JSON objects; else `malformedToken`. The base token is Apple's
/// `transactionInfo` (valid under the test CA), changed in one way per case (``AppleTokenVariants``).
@Suite("Check 1, format: malformedToken")
struct Check01FormatTests: AppleTokenVariants {
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

    /// Input: a token of 64 KiB + 1 bytes, and of 10 MB. Expected: `malformedToken` before any decoding.
    @Test("over-long tokens are rejected by size")
    func overLong() throws {
        let s = try Self.segments()
        let padding = String(repeating: "A", count: 64 * 1024 + 1 - (s[0].count + s[1].count + 2))
        try Self.check(s[0] + "." + s[1] + "." + padding, .malformedToken, .format, "64 KiB + 1")
        try Self.check(String(repeating: "A", count: 10_000_000), .malformedToken, .format, "10 MB")
    }

    @Test("the legacy StoreKit 1 receipt is not a JWS")
    func legacyTransaction() throws {
        let result = try AppleTestData.verifier().verifyAndDecodeTransaction(
            try AppleTestData.token("legacyTransaction"))
        #expect(result.error?.code == .malformedToken)
        #expect(result.error?.check == .format)
    }
}
