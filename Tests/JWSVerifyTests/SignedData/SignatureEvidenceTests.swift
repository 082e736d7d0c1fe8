import Foundation
import Testing

@testable import JWSVerify

/// ``Verified/evidence``: a verified token carries its JWS header and chain, a verified receipt its CMS
/// signer and chain, on the cold path and from the caches alike.
@Suite("Evidence of verified tokens and receipts")
struct SignatureEvidenceTests {
    /// Input: Apple's mock transaction, verified cold and then warm. Expected: `.jws` evidence whose header is
    /// the token's (`alg` ES256, three `x5c` entries) and whose chain is the result's, leaf first; the same
    /// evidence from the chain cache.
    @Test("a verified token carries its header and chain")
    func tokenEvidence() throws {
        let verifier = try AppleTestData.verifier()
        let token = try AppleTestData.token("transactionInfo")
        let cold = try #require(verifier.verifyAndDecodeTransaction(token).verified)
        let warm = try #require(verifier.verifyAndDecodeTransaction(token).verified)
        #expect(verifier.chainCacheStatistics.hits == 1)
        guard case .jws(let header, let chain) = cold.evidence else {
            Issue.record("not JWS evidence: \(cold.evidence)")
            return
        }
        #expect(header.alg == "ES256" && header.x5c?.count == 3)
        #expect(header == cold.header)
        #expect(chain == cold.chain && chain.count == 3)
        #expect(cold.evidence.signer == nil)
        #expect(warm.evidence == cold.evidence)
    }

    /// Input: a real SHA-256 App Store receipt, verified cold and then from the receipt chain cache. Expected:
    /// `.cms` evidence naming SHA-256 and an RSA algorithm, the signer certificate's serial number and issuer
    /// (the WWDR intermediate, the chain's second certificate), the three certificates; the same from the cache.
    @Test("a verified receipt carries its CMS signer and chain")
    func receiptEvidence() throws {
        let real = ReceiptVerificationTests.appStoreReceipts[0]
        let verifier = try ReceiptVerificationTests.verifier(bundleId: real.bundleId)
        let text = try ReceiptVerificationTests.text(real.file)
        let cold = try #require(verifier.verifyAndDecodeAppReceipt(text).verified)
        let warm = try #require(verifier.verifyAndDecodeAppReceipt(text).verified)
        #expect(verifier.cacheStatistics.hits == 1)
        guard case .cms(let signer, let chain) = cold.evidence else {
            Issue.record("not CMS evidence: \(cold.evidence)")
            return
        }
        #expect(signer.digestAlgorithm == "SHA-256")
        #expect(signer.signatureAlgorithm.lowercased().contains("rsa"))
        #expect(chain.count == 3 && chain == cold.chain)
        #expect(signer.serialNumber != nil && signer.serialNumber == chain[0].serialNumber)
        #expect(signer.issuerCommonName == chain[1].subjectCommonName)
        #expect(signer.issuerOrganization == chain[1].subjectOrganization)
        #expect(cold.evidence.header == nil)
        #expect(warm.evidence == cold.evidence)
    }

    /// Input: an Xcode receipt under the pinned StoreKit certificate. Expected: `.cms` evidence whose chain is
    /// the pinned certificate alone.
    @Test("a verified Xcode receipt's chain is the pinned certificate")
    func xcodeReceiptEvidence() throws {
        let verifier = try AppReceiptVerifier(
            bundleId: nil, environments: [.xcode], xcodeCertificate: try XcodeReceiptVerificationTests.certificate)
        let result = verifier.verifyAndDecodeAppReceipt(
            try XcodeReceiptVerificationTests.receipt("apple-library/xcode/xcode-app-receipt-with-transaction"))
        let verified = try #require(result.verified)
        let pinned = try #require(CertificateInfo(derOrPEM: try XcodeReceiptVerificationTests.certificate))
        #expect(verified.evidence.chain == [pinned])
        #expect(verified.evidence.signer?.serialNumber == pinned.serialNumber)
    }
}
