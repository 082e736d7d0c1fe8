import Foundation
import JWSVerifyTesting
import Testing

@testable import JWSVerify

/// When the configured roots offer an intermediate more than one chain, OpenSSL picks among candidate
/// issuers by the validation time, so a verdict on one chain may not hold at another time: such chains
/// are verified in full every time, never remembered.
@Suite("Trust store: one chain through an intermediate")
struct TrustStoreTests {
    static let from = CraftedHierarchy.from
    static let until = CraftedHierarchy.until
    static let signedDate = Date(timeIntervalSince1970: 1_780_000_000)

    /// The crafted hierarchy, and another root with the same name and another key.
    struct Hierarchy {
        let crafted: CraftedHierarchy
        let otherRootKey: TestPrivateKey
        let sameNameRoot: Data

        var rootKey: TestPrivateKey { crafted.rootKey }
        var intermediateKey: TestPrivateKey { crafted.intermediateKey }
        var leafKey: TestPrivateKey { crafted.leafKey }
        var intermediateName: CraftedName { crafted.intermediateName }
        var root: Data { crafted.root }
        var intermediate: Data { crafted.intermediate }
        var leaf: Data { crafted.leaf }
    }

    static let hierarchy: Hierarchy = CraftedHierarchy.fixture {
        let crafted = try CraftedHierarchy(label: "Store", seed: 51)
        let otherRootKey = try TestPrivateKey.generate(curve: .p384, seed: 52, label: "Store-root")
        let sameNameRoot = try CraftedCertificate.rootProfile(
            name: crafted.rootName, key: otherRootKey, notBefore: from, notAfter: until
        ).sign(with: otherRootKey)
        return Hierarchy(crafted: crafted, otherRootKey: otherRootKey, sameNameRoot: sameNameRoot)
    }

    static func store(_ roots: [Data]) throws -> TrustStore {
        let certificates = roots.compactMap { Certificate(der: Array($0)) }
        try #require(certificates.count == roots.count)
        return try #require(TrustStore(roots: certificates))
    }

    /// Input: stores of one root, the same root twice, two roots with the intermediate's issuer name,
    /// and a root that is the intermediate itself. Expected: only the first two offer one chain.
    @Test("one chain only with exactly one candidate issuer and no stand-in for the intermediate")
    func oneChain() throws {
        let hierarchy = Self.hierarchy
        let intermediate = try #require(Certificate(der: Array(hierarchy.intermediate)))
        #expect(try Self.store([hierarchy.root]).hasOneChain(through: intermediate))
        #expect(try Self.store([hierarchy.root, hierarchy.root]).hasOneChain(through: intermediate))
        #expect(!(try Self.store([hierarchy.root, hierarchy.sameNameRoot]).hasOneChain(through: intermediate)))
        #expect(!(try Self.store([hierarchy.root, hierarchy.intermediate]).hasOneChain(through: intermediate)))
        // One candidate by name, even if it did not issue the intermediate (the chain then fails in full).
        #expect(try Self.store([hierarchy.sameNameRoot]).hasOneChain(through: intermediate))
    }

    /// Input: a good token verified twice by a verifier whose roots include a second root with the
    /// intermediate's issuer name. Expected: verified both times, nothing remembered (both caches
    /// empty), the same verdict as with the one root.
    @Test("chains through an intermediate with several candidate issuers are never cached")
    func severalCandidatesAreNotCached() throws {
        let hierarchy = Self.hierarchy
        let token = try CraftedToken.transaction(
            x5c: [hierarchy.leaf, hierarchy.intermediate, hierarchy.root],
            parameters: PayloadParameters(bundleId: "com.example.jwsverify", signedDate: Self.signedDate),
            signer: .key(hierarchy.leafKey))
        let ambiguous = try SignedDataVerifier(
            rootCertificates: [hierarchy.sameNameRoot, hierarchy.root], bundleId: "com.example.jwsverify",
            environment: .sandbox)
        for _ in 0..<2 {
            let result = ambiguous.verifyAndDecodeTransaction(token)
            #expect(result.isVerified, "\(String(describing: result.error))")
        }
        #expect(ambiguous.chainCacheStatistics.count == 0)
        #expect(ambiguous.intermediateCacheStatistics.count == 0)
        let single = try SignedDataVerifier(
            rootCertificates: [hierarchy.root], bundleId: "com.example.jwsverify", environment: .sandbox)
        #expect(single.verifyAndDecodeTransaction(token).isVerified)
        #expect(single.chainCacheStatistics.count == 1)
        #expect(single.intermediateCacheStatistics.count == 1)
    }

    /// Input: a leaf whose P-256 point is not on the curve (OpenSSL parses the certificate but cannot
    /// decode its key, and X509_verify_cert then stops with an internal error), verified warm (after a
    /// good token under the same intermediate) and cold. Expected: untrustedChain, check chain, both.
    @Test("a leaf whose key does not decode is untrusted, warm and cold")
    func undecodableLeafKey() throws {
        let hierarchy = Self.hierarchy
        let offCurve = try CraftedCertificate.leafProfile(
            name: hierarchy.crafted.leafName, issuer: hierarchy.intermediateName,
            publicKey: .offCurve(hierarchy.leafKey),
            issuerKey: hierarchy.intermediateKey, notBefore: Self.from, notAfter: Self.until
        ).sign(with: hierarchy.intermediateKey)
        let parameters = PayloadParameters(bundleId: "com.example.jwsverify", signedDate: Self.signedDate)
        let good = try CraftedToken.transaction(
            x5c: [hierarchy.leaf, hierarchy.intermediate, hierarchy.root], parameters: parameters,
            signer: .key(hierarchy.leafKey))
        let bad = try CraftedToken.transaction(
            x5c: [offCurve, hierarchy.intermediate, hierarchy.root], parameters: parameters,
            signer: .key(hierarchy.leafKey))
        let warm = try SignedDataVerifier(
            rootCertificates: [hierarchy.root], bundleId: "com.example.jwsverify", environment: .sandbox)
        let cold = try SignedDataVerifier(
            rootCertificates: [hierarchy.root], bundleId: "com.example.jwsverify", environment: .sandbox,
            chainCacheCapacity: 0)
        #expect(warm.verifyAndDecodeTransaction(good).isVerified)
        for verifier in [warm, cold] {
            let error = verifier.verifyAndDecodeTransaction(bad).error
            #expect(error?.code == .untrustedChain)
            #expect(error?.check == .chain)
        }
    }
}
