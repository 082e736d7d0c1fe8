import Foundation
import JWSVerifyTesting
import Testing

@testable import JWSVerify

/// Check 8, chain (Docs/ErrorCodes.md): the intermediate carries 1.2.840.113635.100.6.2.1, the leaf
/// 1.2.840.113635.100.6.11.1; else `missingAppleExtension`. Apple's own test certificates with wrong OIDs.
@Suite("Check 8, chain: missingAppleExtension")
struct Check08AppleExtensionsTests: AppleTestCertificateChains {
    @Test("the intermediate with the wrong marker OID is rejected with missingAppleExtension")
    func invalidIntermediateOID() throws {
        let chain = [
            try Self.certificate("testInvalidIntermediateLeaf.pem"),
            try Self.certificate("testInvalidOIDIntermediate.pem"),
            try Self.certificate("testCA.der"),
        ]
        let error = try AppleTestData.verifier().verifyAndDecodeTransaction(try Self.token(chain: chain)).error
        #expect(error?.code == .missingAppleExtension)
        #expect(error?.message.contains("intermediate") == true)
    }

    @Test("the leaf with the wrong marker OID is rejected with missingAppleExtension")
    func invalidLeafOID() throws {
        let chain = [
            try Self.certificate("testInvalidOIDLeaf.pem"), try Self.certificate("testIntermediate.pem"),
            try Self.certificate("testCA.der"),
        ]
        let error = try AppleTestData.verifier().verifyAndDecodeTransaction(try Self.token(chain: chain)).error
        #expect(error?.code == .missingAppleExtension)
        #expect(error?.message.contains("leaf") == true)
    }
}
