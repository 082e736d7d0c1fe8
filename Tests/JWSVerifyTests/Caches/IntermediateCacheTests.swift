import Foundation
import JWSVerifyTesting
import Testing

@testable import JWSVerify

/// A token with a new leaf under an intermediate that already verified checks only leaf ← intermediate,
/// and still rejects forged, expired and unmarked leaves.
@Suite("Intermediate cache")
struct IntermediateCacheTests {
    static let signedDate = Date(timeIntervalSince1970: 1_780_000_000)  // 2026-05-28

    static func setUp() throws -> (TestHierarchy, SignedDataVerifier) {
        let pki = try TestHierarchy.generate(.appStoreEC, seed: 7)
        let verifier = try SignedDataVerifier(
            rootCertificates: [pki.root.der], bundleId: "com.example.jwsverify", environment: .sandbox)
        return (pki, verifier)
    }

    static func token(_ pki: TestHierarchy, index: Int = 0) throws -> String {
        try TokenMinter(hierarchy: pki).mint(
            .transaction, parameters: PayloadParameters(bundleId: "com.example.jwsverify", signedDate: signedDate),
            count: 1 + index
        ).last ?? ""
    }

    @Test("a new leaf under a known intermediate hits the intermediate cache")
    func newLeafHits() throws {
        let (pki, verifier) = try Self.setUp()
        #expect(verifier.verifyAndDecodeTransaction(try Self.token(pki)).isVerified)
        #expect(verifier.intermediateCacheStatistics.count == 1)
        let other = pki.replacing(leaf: try pki.makeLeaf(seed: 99))
        let token = try Self.token(other)
        let result = verifier.verifyAndDecodeTransaction(token)
        #expect(result.isVerified, "\(String(describing: result.error))")
        #expect(verifier.intermediateCacheStatistics.hits == 1)
        #expect(verifier.chainCacheStatistics.count == 2)
        // The chain it reports (intermediate and root described once, when the intermediate was
        // cached) is the one a verifier without caches reports.
        let uncached = try SignedDataVerifier(
            rootCertificates: [pki.root.der], bundleId: "com.example.jwsverify", environment: .sandbox,
            chainCacheCapacity: 0)
        guard case .verified(let cached) = result,
            case .verified(let fresh) = uncached.verifyAndDecodeTransaction(token)
        else {
            Issue.record("not verified by both verifiers")
            return
        }
        #expect(cached.chain == fresh.chain)
        #expect(cached.chain.map(\.der) == [other.leaf.der, pki.intermediate.der, pki.root.der])
    }

    @Test("a forged leaf under a cached intermediate is untrusted")
    func forgedLeaf() throws {
        let (pki, verifier) = try Self.setUp()
        #expect(verifier.verifyAndDecodeTransaction(try Self.token(pki)).isVerified)
        // Issued by a key that is not the intermediate's, with the intermediate's name.
        let impostor = try pki.makeIntermediate(seed: 1234)
        let forged = pki.replacing(leaf: try pki.makeLeaf(issuer: impostor, seed: 55))
        let error = verifier.verifyAndDecodeTransaction(try Self.token(forged)).error
        #expect(error?.code == .untrustedChain)
        #expect(verifier.intermediateCacheStatistics.hits == 1)
    }

    @Test("an expired or unmarked leaf under a cached intermediate is rejected")
    func expiredAndUnmarked() throws {
        let (pki, verifier) = try Self.setUp()
        #expect(verifier.verifyAndDecodeTransaction(try Self.token(pki)).isVerified)
        let expired = pki.replacing(
            leaf: try pki.makeLeaf(
                validity: Date(timeIntervalSince1970: 1_600_000_000)...Date(timeIntervalSince1970: 1_700_000_000),
                seed: 56))
        #expect(verifier.verifyAndDecodeTransaction(try Self.token(expired)).error?.code == .certificateExpired)
        let unmarked = pki.replacing(leaf: try pki.makeLeaf(includeAppleMarker: false, seed: 57))
        #expect(verifier.verifyAndDecodeTransaction(try Self.token(unmarked)).error?.code == .missingAppleExtension)
        #expect(verifier.intermediateCacheStatistics.hits == 2)
    }
}
