import Foundation
import JWSVerifyTesting
import Testing

@testable import JWSVerify

/// Check 5, chain (Docs/ErrorCodes.md): each `x5c` entry is standard base64 of one DER certificate, nothing
/// trailing; else `invalidCertificate`.
@Suite("Check 5, chain: invalidCertificate")
struct Check05CertificatesTests: AppleTokenVariants {
    @Test("each x5c entry must be standard base64 of one DER certificate")
    func x5cEntries() throws {
        let x5c = try #require(try TokenParts(Self.base()).header["x5c"] as? [String])
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
}
