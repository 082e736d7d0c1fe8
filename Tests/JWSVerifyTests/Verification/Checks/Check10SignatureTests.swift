import Foundation
import JWSVerifyTesting
import Testing

@testable import JWSVerify

/// Check 10, signature (Docs/ErrorCodes.md): ES256 over `header.payload`, exactly 64 bytes R‖S; else
/// `invalidSignature`.
@Suite("Check 10, signature: invalidSignature")
struct Check10SignatureTests: AppleTokenVariants {
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
