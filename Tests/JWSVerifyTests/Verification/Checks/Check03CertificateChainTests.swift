import Foundation
import JWSVerifyTesting
import Testing

@testable import JWSVerify

/// Check 3, header (Docs/ErrorCodes.md): `x5c` present, an array of strings; else `missingCertificateChain`.
@Suite("Check 3, header: missingCertificateChain")
struct Check03CertificateChainTests: AppleTokenVariants {
    @Test("x5c must be an array of strings")
    func x5cShapes() throws {
        try Self.check(try Self.withHeader { $0["x5c"] = nil }, .missingCertificateChain, .header, "no x5c")
        try Self.check(try Self.withHeader { $0["x5c"] = "abc" }, .missingCertificateChain, .header, "x5c string")
        try Self.check(try Self.withHeader { $0["x5c"] = [1, 2, 3] }, .missingCertificateChain, .header, "x5c numbers")
    }

    @Test("the token without x5c fails with missingCertificateChain")
    func missingX5C() throws {
        let result = try AppleTestData.verifier().verifyAndDecodeNotification(
            try AppleTestData.token("missingX5CHeaderClaim"))
        #expect(result.error?.code == .missingCertificateChain)
        #expect(result.error?.check == .header)
    }
}
