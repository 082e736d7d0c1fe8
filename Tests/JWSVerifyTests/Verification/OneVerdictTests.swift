import Foundation
import JWSVerifyTesting
import Testing

@testable import JWSVerify

/// The one-verdict rule (DESIGN.md "Chain cache, and the one-verdict rule"; issue 15): a verifier
/// whose caches are warm returns the code and check of a verifier with every cache off, which is
/// OpenSSL's `X509_verify_cert` verdict on the full three-certificate chain.
///
/// Every case is built from crafted certificates under a crafted test root (P-384 root and
/// intermediate with Apple's marker, P-256 leaves, the `.appStoreEC` test hierarchy's profiles). "Warm" is a verifier that
/// first verified a good token under the same intermediate (so the intermediate is in its
/// intermediate cache and the good chain in its chain cache); "cold" is `chainCacheCapacity: 0`.
@Suite("One verdict: caches never change what the verifier decides")
struct OneVerdictTests {
    static let bundleId = "com.example.jwsverify"
    /// 2025-01-01T00:00:00Z ... 2035-01-01T00:00:00Z, every certificate unless a case narrows one.
    static let wideFrom: Int64 = 1_735_689_600
    static let wideUntil: Int64 = 2_051_222_400
    /// A time inside every window: 2026-03-15T12:00:00Z.
    static let inside: Int64 = 1_773_576_000
    /// The narrowed window of the certificate under test: 2027-01-01T00:00:00Z ... 2029-01-01T00:00:00Z.
    static let narrowFrom: Int64 = 1_798_761_600
    static let narrowUntil: Int64 = 1_861_920_000

    static let keys = fixture { try CraftedKeys() }

    static func fixture<T>(_ make: () throws -> T) -> T {
        do { return try make() } catch { fatalError("fixture: \(error)") }
    }

    /// The keys of the crafted hierarchy, made once (P-384 key generation is slow).
    struct CraftedKeys {
        let rootKey: TestPrivateKey
        let intermediateKey: TestPrivateKey
        let goodLeafKey: TestPrivateKey
        let testLeafKey: TestPrivateKey

        init() throws {
            rootKey = try TestPrivateKey.generate(curve: .p384, seed: 15, label: "one-verdict-root")
            intermediateKey = try TestPrivateKey.generate(curve: .p384, seed: 15, label: "one-verdict-intermediate")
            goodLeafKey = try TestPrivateKey.generate(curve: .p256, seed: 15, label: "one-verdict-good-leaf")
            testLeafKey = try TestPrivateKey.generate(curve: .p256, seed: 15, label: "one-verdict-test-leaf")
        }
    }

    /// A crafted root and intermediate, a good leaf under them, and a way to make more leaves.
    struct Hierarchy {
        let root: Data
        let intermediate: Data
        let goodLeaf: Data
        let intermediateName: CraftedName
        let keys: CraftedKeys

        init(
            rootName: CraftedName? = nil, intermediateName: CraftedName? = nil, goodLeafName: CraftedName? = nil,
            rootExtra: [TestExtension] = [], rootValidity: ClosedRange<Int64>? = nil,
            intermediateValidity: ClosedRange<Int64>? = nil
        ) throws {
            keys = OneVerdictTests.keys
            let rootName =
                try rootName
                ?? CraftedName([.commonName("One Verdict Root - NOT APPLE"), .organization("JWSVerify Tests")])
            let intermediateName =
                try intermediateName
                ?? CraftedName([.commonName("One Verdict Intermediate - NOT APPLE"), .organization("JWSVerify Tests")])
            let rootValidity = rootValidity ?? OneVerdictTests.wideFrom...OneVerdictTests.wideUntil
            let intermediateValidity = intermediateValidity ?? OneVerdictTests.wideFrom...OneVerdictTests.wideUntil
            root = try CraftedCertificate.rootProfile(
                name: rootName, key: keys.rootKey, notBefore: rootValidity.lowerBound,
                notAfter: rootValidity.upperBound, extra: rootExtra
            ).sign(with: keys.rootKey)
            intermediate = try CraftedCertificate.intermediateProfile(
                name: intermediateName, issuer: rootName, key: keys.intermediateKey, issuerKey: keys.rootKey,
                notBefore: intermediateValidity.lowerBound, notAfter: intermediateValidity.upperBound
            ).sign(with: keys.rootKey)
            self.intermediateName = intermediateName
            let goodLeafName =
                try goodLeafName
                ?? CraftedName([.commonName("One Verdict Good Leaf - NOT APPLE"), .organization("JWSVerify Tests")])
            goodLeaf = try CraftedCertificate.leafProfile(
                name: goodLeafName, issuer: intermediateName, publicKey: .key(keys.goodLeafKey),
                issuerKey: keys.intermediateKey, notBefore: OneVerdictTests.wideFrom,
                notAfter: OneVerdictTests.wideUntil, serialNumber: Data([0x10])
            ).sign(with: keys.intermediateKey)
        }

        /// A leaf under the intermediate, the `.appStoreEC` test hierarchy's leaf profile plus `extra`.
        func leaf(
            name: CraftedName? = nil, publicKey: CraftedPublicKey? = nil, validity: ClosedRange<Int64>? = nil,
            extra: [TestExtension] = []
        ) throws -> Data {
            let validity = validity ?? OneVerdictTests.wideFrom...OneVerdictTests.wideUntil
            return try CraftedCertificate.leafProfile(
                name: try name
                    ?? CraftedName([
                        .commonName("One Verdict Test Leaf - NOT APPLE"), .organization("JWSVerify Tests"),
                    ]),
                issuer: intermediateName, publicKey: publicKey ?? .key(keys.testLeafKey),
                issuerKey: keys.intermediateKey, notBefore: validity.lowerBound, notAfter: validity.upperBound,
                serialNumber: Data([0x11]), extra: extra
            ).sign(with: keys.intermediateKey)
        }

        /// A transaction token over `[leaf, intermediate, root]`.
        func token(
            leaf: Data, signer: CraftedToken.Signer? = nil, index: Int = 0, headerMembers: [String: JSONValue] = [:]
        ) throws -> String {
            let parameters = PayloadParameters(
                bundleId: OneVerdictTests.bundleId,
                signedDate: Date(timeIntervalSince1970: TimeInterval(OneVerdictTests.inside)), seed: 15)
            return try CraftedToken.transaction(
                x5c: [leaf, intermediate, root], parameters: parameters, index: index, headerMembers: headerMembers,
                signer: signer ?? .key(leaf == goodLeaf ? keys.goodLeafKey : keys.testLeafKey))
        }

        /// The good token, signed by the good leaf.
        func goodToken(index: Int = 0) throws -> String { try token(leaf: goodLeaf, index: index) }

        /// A verifier trusting the crafted root; `capacity` 0 turns every cache off.
        func verifier(capacity: Int = 64, at time: ValidationTime) throws -> SignedDataVerifier {
            try SignedDataVerifier(
                rootCertificates: [root], bundleId: OneVerdictTests.bundleId, environment: .sandbox,
                validationTime: time, chainCacheCapacity: capacity)
        }

        /// A verifier whose validation time is `clock`'s (`.current`), so that one warm verifier can
        /// verify at several times.
        func verifier(clock: ManualClock) throws -> SignedDataVerifier {
            try SignedDataVerifier(
                rootCertificates: [root], bundleId: OneVerdictTests.bundleId, environment: .sandbox,
                validationTime: .current, chainCacheCapacity: 64, clock: { clock.now })
        }

        /// A warm verifier at fixed `time`: it verified the good token, and cached the intermediate.
        func warmVerifier(at time: Int64) throws -> SignedDataVerifier {
            let verifier = try verifier(at: .fixed(Date(timeIntervalSince1970: TimeInterval(time))))
            let primed = verifier.verifyAndDecodeTransaction(try goodToken())
            #expect(primed.isVerified, "the good token verifies: \(String(describing: primed.error))")
            #expect(verifier.intermediateCacheStatistics.count == 1, "the intermediate is cached")
            return verifier
        }

        /// OpenSSL's verdict on `[leaf, intermediate, root]` at `time`.
        func openSSL(leaf: Data, at time: Int64) throws -> OpenSSLChainVerdict {
            try OpenSSLChainVerdict.evaluate(leaf: leaf, intermediate: intermediate, root: root, at: time)
        }
    }

    /// A settable clock for `.current` verifiers.
    final class ManualClock: @unchecked Sendable {
        private let lock = NSLock()
        private var seconds: Int64

        init(_ seconds: Int64) { self.seconds = seconds }

        var now: Date { lock.withLock { Date(timeIntervalSince1970: TimeInterval(seconds)) } }

        func set(_ seconds: Int64) { lock.withLock { self.seconds = seconds } }
    }

    /// `code (check)` of a result, or "verified".
    static func verdict(_ result: VerificationResult<JWSTransactionDecodedPayload>) -> String {
        guard let error = result.error else { return "verified" }
        return "\(error.code.rawValue) (\(error.check.rawValue))"
    }

    /// Warm (primed at `inside`), cold and OpenSSL on one crafted leaf; expects `expected` from both
    /// verifiers and that they agree.
    static func expectOneVerdict(
        _ hierarchy: Hierarchy, leaf: Data, token: String, expected: VerificationError.Code,
        openSSLExpected: VerificationError.Code?, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let time = Date(timeIntervalSince1970: TimeInterval(inside))
        let warm = try hierarchy.warmVerifier(at: inside)
        let warmFirst = verdict(warm.verifyAndDecodeTransaction(token))
        let warmAgain = verdict(warm.verifyAndDecodeTransaction(token))
        let cold = verdict(try hierarchy.verifier(capacity: 0, at: .fixed(time)).verifyAndDecodeTransaction(token))
        let openSSL = try hierarchy.openSSL(leaf: leaf, at: inside)
        let expectedText = "\(expected.rawValue) (chain)"
        #expect(openSSL.code == openSSLExpected, "OpenSSL: \(openSSL)", sourceLocation: sourceLocation)
        #expect(cold == expectedText, "cold", sourceLocation: sourceLocation)
        #expect(
            warmFirst == cold, "warm (new leaf under the cached intermediate) == cold", sourceLocation: sourceLocation)
        #expect(warmAgain == cold, "warm (second time) == cold", sourceLocation: sourceLocation)
    }

    /// Case (1). Input: a root with nameConstraints permitting only `O=Good Org`, an intermediate
    /// and a good leaf inside it, and a leaf `O=Evil Org` under the cached intermediate.
    /// Expected: untrustedChain (chain) warm and cold; OpenSSL: permitted subtree violation.
    @Test("a leaf outside the root's name constraints is rejected warm as cold")
    func nameConstraints() throws {
        let good = try CraftedName([.organization("Good Org")])
        let hierarchy = try Hierarchy(
            intermediateName: CraftedName([.organization("Good Org"), .commonName("Good Intermediate - NOT APPLE")]),
            goodLeafName: CraftedName([.organization("Good Org"), .commonName("Good Leaf - NOT APPLE")]),
            rootExtra: [.nameConstraints(permitted: [.directoryName(good)])])
        let evil = try hierarchy.leaf(
            name: CraftedName([.organization("Evil Org"), .commonName("Evil Leaf - NOT APPLE")]))
        let openSSL = try hierarchy.openSSL(leaf: evil, at: Self.inside)
        #expect(openSSL.trustError?.code == 47, "X509_V_ERR_PERMITTED_VIOLATION: \(openSSL)")
        try Self.expectOneVerdict(
            hierarchy, leaf: evil, token: try hierarchy.token(leaf: evil), expected: .untrustedChain,
            openSSLExpected: .untrustedChain)
    }

    /// Case (2). Input: leaves with RFC 3779 sbgp-ipAddrBlock, sbgp-autonomousSysNum or both, under
    /// an intermediate (and root) with none. Expected: untrustedChain (chain) warm and cold;
    /// OpenSSL: RFC 3779 resource not subset of parent's resources.
    @Test("a leaf with RFC 3779 resources its issuer lacks is rejected warm as cold", arguments: ["ip", "as", "both"])
    func rfc3779(_ which: String) throws {
        let hierarchy = try Hierarchy()
        var extra: [TestExtension] = []
        if which != "as" {
            extra.append(.ipAddressBlocks([.ipv4([TestExtension.AddressPrefix([10, 0, 0, 0], length: 8)])]))
        }
        if which != "ip" { extra.append(.autonomousSystemNumbers([64_500...64_510])) }
        let leaf = try hierarchy.leaf(extra: extra)
        let openSSL = try hierarchy.openSSL(leaf: leaf, at: Self.inside)
        #expect(openSSL.trustError?.code == 46, "X509_V_ERR_UNNESTED_RESOURCE: \(openSSL)")
        try Self.expectOneVerdict(
            hierarchy, leaf: leaf, token: try hierarchy.token(leaf: leaf), expected: .untrustedChain,
            openSSLExpected: .untrustedChain)
    }

    /// Case (3). Input: for the leaf, the intermediate and the root in turn, that certificate with
    /// validity 2027-01-01...2029-01-01 (the others 2025...2035), at notBefore − 1 s, notBefore,
    /// notAfter − 1 s, notAfter and notAfter + 1 s. Expected: OpenSSL's rule (valid iff
    /// notBefore ≤ t < notAfter): certificateExpired (chain) at notBefore − 1, notAfter and
    /// notAfter + 1, verified at notBefore and notAfter − 1 — cold (`.fixed`), warm at a fixed time
    /// (primed with the good token at that time), warm with the test leaf new under the cached
    /// intermediate, and warm with the test chain cached at an earlier time.
    @Test(
        "validity boundaries give OpenSSL's verdict warm and cold, for leaf, intermediate and root",
        arguments: ["leaf", "intermediate", "root"])
    func validityBoundaries(_ role: String) throws {
        let narrow = Self.narrowFrom...Self.narrowUntil
        let hierarchy = try Hierarchy(
            rootValidity: role == "root" ? narrow : nil, intermediateValidity: role == "intermediate" ? narrow : nil)
        let leaf = try hierarchy.leaf(validity: role == "leaf" ? narrow : nil)
        let token = try hierarchy.token(leaf: leaf)
        let mid = (Self.narrowFrom + Self.narrowUntil) / 2
        let times: [(Int64, Bool)] = [
            (Self.narrowFrom - 1, false), (Self.narrowFrom, true), (Self.narrowUntil - 1, true),
            (Self.narrowUntil, false), (Self.narrowUntil + 1, false),
        ]
        for (time, valid) in times {
            let expected = valid ? "verified" : "certificateExpired (chain)"
            let date = Date(timeIntervalSince1970: TimeInterval(time))
            let openSSL = try hierarchy.openSSL(leaf: leaf, at: time)
            #expect(openSSL.verified == valid, "\(role) at \(time): OpenSSL \(openSSL)")
            let cold = Self.verdict(
                try hierarchy.verifier(capacity: 0, at: .fixed(date)).verifyAndDecodeTransaction(token))
            #expect(cold == expected, "\(role) at \(time): cold")

            // Warm at a fixed time: the good token first (it verifies where the shared certificates do).
            let fixedWarm = try hierarchy.verifier(at: .fixed(date))
            _ = fixedWarm.verifyAndDecodeTransaction(try hierarchy.goodToken())
            #expect(Self.verdict(fixedWarm.verifyAndDecodeTransaction(token)) == cold, "\(role) at \(time): warm fixed")
            #expect(Self.verdict(fixedWarm.verifyAndDecodeTransaction(token)) == cold, "\(role) at \(time): again")

            // Warm from an earlier time: the intermediate cached at `mid`, the test leaf new at `time`.
            let clock = ManualClock(mid)
            let newLeaf = try hierarchy.verifier(clock: clock)
            #expect(newLeaf.verifyAndDecodeTransaction(try hierarchy.goodToken()).isVerified)
            #expect(newLeaf.intermediateCacheStatistics.count == 1, "the intermediate is cached")
            clock.set(time)
            #expect(Self.verdict(newLeaf.verifyAndDecodeTransaction(token)) == cold, "\(role) at \(time): new leaf")

            // Warm from an earlier time: the whole test chain cached at `mid`.
            let chainClock = ManualClock(mid)
            let chainVerifier = try hierarchy.verifier(clock: chainClock)
            #expect(chainVerifier.verifyAndDecodeTransaction(token).isVerified, "the test chain verifies at mid")
            #expect(chainVerifier.chainCacheStatistics.count == 1, "the test chain is cached")
            chainClock.set(time)
            #expect(Self.verdict(chainVerifier.verifyAndDecodeTransaction(token)) == cold, "\(role) at \(time): cached")
        }
    }

    /// The certificateExpired message names the certificate (role and CN), its validity window and the
    /// validation time. Input: the leaf, the intermediate or the root valid only in the narrow window,
    /// at notBefore − 1 and at notAfter. Expected: the message (and the whole report's text) of a cold
    /// verifier, of a warm one at the same fixed time, of one that cached the intermediate earlier (the
    /// leaf new) and of one that cached the whole chain earlier are the same, and read
    /// `the <role> certificate (CN=…) is not valid at <t>, outside its validity from <notBefore> to
    /// <notAfter>: <OpenSSL's reason>`.
    @Test(
        "the certificateExpired message names the certificate, its window and the time, warm as cold",
        arguments: ["leaf", "intermediate", "root"])
    func expiredMessageIsOneText(_ role: String) throws {
        let narrow = Self.narrowFrom...Self.narrowUntil
        let hierarchy = try Hierarchy(
            rootValidity: role == "root" ? narrow : nil, intermediateValidity: role == "intermediate" ? narrow : nil)
        let leaf = try hierarchy.leaf(validity: role == "leaf" ? narrow : nil)
        let token = try hierarchy.token(leaf: leaf)
        let commonName = [
            "leaf": "One Verdict Test Leaf - NOT APPLE", "intermediate": "One Verdict Intermediate - NOT APPLE",
            "root": "One Verdict Root - NOT APPLE",
        ][role]!
        func text(_ result: VerificationResult<JWSTransactionDecodedPayload>) -> [String] {
            [result.error?.message ?? "verified"]
                + result.report.steps.map { "\($0.name.rawValue) \($0.outcome.rawValue) \($0.detail)" }
        }
        let mid = (Self.narrowFrom + Self.narrowUntil) / 2
        for (time, reason) in [
            (Self.narrowFrom - 1, "certificate is not yet valid"), (Self.narrowUntil, "certificate has expired"),
        ] {
            let date = Date(timeIntervalSince1970: TimeInterval(time))
            let cold = try hierarchy.verifier(capacity: 0, at: .fixed(date)).verifyAndDecodeTransaction(token)
            #expect(cold.error?.code == .certificateExpired, "\(role) at \(time)")
            #expect(cold.error?.check == .chain)
            #expect(
                cold.error?.message
                    == "the \(role) certificate (CN=\(commonName)) is not valid at \(ISO8601Text.iso8601(seconds: time)),"
                    + " outside its validity from \(ISO8601Text.iso8601(seconds: Self.narrowFrom)) to"
                    + " \(ISO8601Text.iso8601(seconds: Self.narrowUntil)): \(reason)", "\(role) at \(time)")

            let fixedWarm = try hierarchy.verifier(at: .fixed(date))
            _ = fixedWarm.verifyAndDecodeTransaction(try hierarchy.goodToken())
            #expect(text(fixedWarm.verifyAndDecodeTransaction(token)) == text(cold), "\(role) at \(time): warm fixed")

            let clock = ManualClock(mid)
            let newLeaf = try hierarchy.verifier(clock: clock)
            #expect(newLeaf.verifyAndDecodeTransaction(try hierarchy.goodToken()).isVerified)
            clock.set(time)
            #expect(text(newLeaf.verifyAndDecodeTransaction(token)) == text(cold), "\(role) at \(time): new leaf")

            let chainClock = ManualClock(mid)
            let cached = try hierarchy.verifier(clock: chainClock)
            #expect(cached.verifyAndDecodeTransaction(token).isVerified, "the test chain verifies at mid")
            #expect(cached.chainCacheStatistics.count == 1, "the test chain is cached")
            chainClock.set(time)
            #expect(text(cached.verifyAndDecodeTransaction(token)) == text(cold), "\(role) at \(time): cached chain")
        }
    }

    /// Case (4). Input: a leaf whose SubjectPublicKeyInfo is P-256 with the point at infinity (BIT
    /// STRING `00 00`), and a token with an ES256 "signature" forged for that key without any
    /// private key. Expected: OpenSSL's chain check accepts the chain (it does not look at the
    /// leaf key); the verifier rejects the token with unsupportedKey (chain), warm and cold.
    @Test("a leaf whose key is the point at infinity is rejected warm as cold, with a forged signature")
    func pointAtInfinity() throws {
        let hierarchy = try Hierarchy()
        let leaf = try hierarchy.leaf(publicKey: .p256PointAtInfinity)
        let token = try hierarchy.token(leaf: leaf, signer: .forgedForPointAtInfinity(k: Data([0x2A])))
        try Self.expectOneVerdict(hierarchy, leaf: leaf, token: token, expected: .unsupportedKey, openSSLExpected: nil)
    }

    /// Case (5). Input: a verifier that verified more than `PublicKey.fixedBaseThreshold` good
    /// tokens of one chain (its leaf key has its fixed-base table), then 10,000 unsigned tokens
    /// reusing that chain, each with a distinct `kid` header member. Expected: each unsigned token
    /// is invalidSignature (signature); afterwards the chain cache holds as many chains with as
    /// many hits as before, the hot leaf key still has its table, the intermediate cache is as
    /// before, and the next good token is a chain cache hit.
    @Test("unsigned tokens reusing a real chain leave the caches and the hot key's table as they were")
    func unsignedTokensDoNotChurn() throws {
        let hierarchy = try Hierarchy()
        let verifier = try hierarchy.verifier(at: .fixed(Date(timeIntervalSince1970: TimeInterval(Self.inside))))
        for index in 0...Int(PublicKey.fixedBaseThreshold) {
            let result = verifier.verifyAndDecodeTransaction(try hierarchy.goodToken(index: index))
            guard result.isVerified else {
                Issue.record("good token \(index): \(Self.verdict(result))")
                return
            }
        }
        let chains = verifier.chainCacheStatistics
        let tables = verifier.cachedLeafKeysWithFixedBaseTable
        let intermediates = verifier.intermediateCacheStatistics
        #expect(chains.count == 1 && tables == 1 && intermediates.count == 1, "primed: \(chains), \(tables)")

        let good = try JWSSegments(token: try hierarchy.goodToken())
        var failures: [String: Int] = [:]
        for index in 0..<10_000 {
            let unsigned = try hierarchy.token(
                leaf: hierarchy.goodLeaf, signer: .bytes(good.signature), index: index,
                headerMembers: ["kid": .string("churn-\(index)")])
            failures[Self.verdict(verifier.verifyAndDecodeTransaction(unsigned)), default: 0] += 1
        }
        #expect(failures == ["invalidSignature (signature)": 10_000])
        let after = verifier.chainCacheStatistics
        #expect(after.count == chains.count, "chain cache size \(chains.count) → \(after.count)")
        #expect(after.hits == chains.hits, "chain cache hits \(chains.hits) → \(after.hits)")
        #expect(verifier.cachedLeafKeysWithFixedBaseTable == tables, "the hot leaf key keeps its table")
        #expect(verifier.intermediateCacheStatistics.count == intermediates.count, "intermediate cache size")
        #expect(verifier.verifyAndDecodeTransaction(try hierarchy.goodToken(index: 7)).isVerified)
        #expect(verifier.chainCacheStatistics.hits == chains.hits + 1, "the good chain is still cached")
    }
}
