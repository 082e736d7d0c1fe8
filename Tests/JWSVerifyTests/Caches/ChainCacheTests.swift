import Foundation
import JWSVerifyTesting
import Testing

@testable import JWSVerify

/// The chain cache is keyed by a header's exact bytes, bounded, and evicts its oldest entry.
@Suite("Chain cache keys and eviction")
struct ChainCacheKeyTests {
    /// Tokens of one chain under `count` different headers (a different `kid` each).
    private func tokens(_ count: Int) throws -> (root: Data, tokens: [String]) {
        let pki = try TestHierarchy.generate(.appStoreEC, seed: 20_261_130)
        let minter = try TokenMinter(hierarchy: pki)
        let parameters = PayloadParameters(signedDate: Date(timeIntervalSince1970: 1_767_225_600))
        let tokens = try (0..<count).map { index in
            try minter.sign(
                DefaultPayloads.transaction(parameters, index: index),
                header: TokenMinter.Header(extraMembers: ["kid": .string("header-\(index)")]))
        }
        return (pki.root.der, tokens)
    }

    @Test("each header's bytes are one entry; the oldest goes when full; a known header hits")
    func boundedByHeaderBytes() throws {
        let (root, tokens) = try tokens(3)
        let verifier = try Self.verifier(root, chainCacheCapacity: 2)
        for token in tokens { #expect(verifier.verifyAndDecodeTransaction(token).isVerified) }
        #expect(verifier.chainCacheStatistics.count == 2)
        #expect(verifier.chainCacheStatistics.hits == 0)
        // The newest header is cached: a hit, no new entry.
        #expect(verifier.verifyAndDecodeTransaction(tokens[2]).isVerified)
        #expect(verifier.chainCacheStatistics.hits == 1)
        #expect(verifier.chainCacheStatistics.count == 2)
        // The oldest was evicted: verified again in full (no hit), and cached again.
        #expect(verifier.verifyAndDecodeTransaction(tokens[0]).isVerified)
        #expect(verifier.chainCacheStatistics.hits == 1)
        #expect(verifier.chainCacheStatistics.count == 2)
    }

    @Test("a header that differs in one byte is not the cached one")
    func exactBytes() throws {
        let (root, tokens) = try tokens(1)
        let verifier = try Self.verifier(root)
        #expect(verifier.verifyAndDecodeTransaction(tokens[0]).isVerified)
        // Same length, one character of the header changed: a miss, refused by its own checks.
        let headerLength = Array(tokens[0].utf8).firstIndex(of: UInt8(ascii: ".")) ?? 0
        let changed = Self.changingOneCharacter(of: tokens[0], at: headerLength / 2)
        #expect(!verifier.verifyAndDecodeTransaction(changed).isVerified)
        #expect(verifier.chainCacheStatistics.hits == 0)
        #expect(verifier.chainCacheStatistics.count == 1)
    }

    /// Input: one token verified `PublicKey.fixedBaseThreshold` times, then it and a copy with a
    /// changed signature byte. Expected: the cached chain's leaf key gets its fixed-base table at the
    /// threshold and not before; afterwards the token still verifies, to the same payload, and the
    /// changed signature fails check 10 with `invalidSignature`.
    @Test("a hot leaf key gets its fixed-base table; verdicts do not change")
    func hotKeyGetsTable() throws {
        let (root, tokens) = try tokens(1)
        let verifier = try Self.verifier(root)
        let first = try #require(verifier.verifyAndDecodeTransaction(tokens[0]).payload)
        for _ in 1..<PublicKey.fixedBaseThreshold {
            #expect(verifier.cachedLeafKeysWithFixedBaseTable == 0)
            #expect(verifier.verifyAndDecodeTransaction(tokens[0]).isVerified)
        }
        #expect(verifier.cachedLeafKeysWithFixedBaseTable == 1)
        #expect(try #require(verifier.verifyAndDecodeTransaction(tokens[0]).payload) == first)
        let tampered = verifier.verifyAndDecodeTransaction(
            Self.changingOneCharacter(of: tokens[0], at: tokens[0].utf8.count - 10))
        #expect(tampered.error?.code == .invalidSignature)
        #expect(verifier.cachedLeafKeysWithFixedBaseTable == 1)
    }

    /// A verifier for the test root, bundle id `com.example.jwsverify`, Sandbox.
    private static func verifier(_ root: Data, chainCacheCapacity: Int = 64) throws -> SignedDataVerifier {
        try SignedDataVerifier(
            rootCertificates: [root], bundleId: "com.example.jwsverify", environment: .sandbox,
            chainCacheCapacity: chainCacheCapacity)
    }

    /// `token` with the character at byte offset `index` changed (`A` to `B`, anything else to `A`).
    private static func changingOneCharacter(of token: String, at index: Int) -> String {
        var bytes = Array(token.utf8)
        bytes[index] = bytes[index] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
        return String(decoding: bytes, as: UTF8.self)
    }
}
