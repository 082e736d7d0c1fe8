import Foundation
import JWSVerifyTesting
import Testing

@testable import JWSVerify

/// Check 6, chain (Docs/ErrorCodes.md): leaf <- intermediate <- a configured root, built by OpenSSL; else
/// `untrustedChain`.
@Suite("Check 6, chain: untrustedChain")
struct Check06TrustTests {
    /// Input: Apple's test tokens under the default trust anchor, Apple Root CA - G3.
    /// Expected: `untrustedChain`: only configured roots are trusted.
    @Test("test tokens are untrusted under Apple Root CA - G3")
    func untrustedUnderAppleRoot() throws {
        let verifier = try SignedDataVerifier(bundleId: "com.example", environment: .sandbox)
        let result = verifier.verifyAndDecodeTransaction(try AppleTestData.token("transactionInfo"))
        #expect(result.error?.code == .untrustedChain)
        #expect(result.error?.check == .chain)
        #expect(result.error?.underlying?.isEmpty == false)
    }
}
