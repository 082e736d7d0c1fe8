import Foundation
import JWSVerifyTesting
import Testing

@testable import JWSVerify

/// Crafted inputs against the one-verdict rule (issue 15, Docs/Security.md "One verdict"): inputs for which a
/// warm verifier (chain cache, intermediate cache, leaf check, fixed-base tables) and a cold one
/// (`chainCacheCapacity: 0`) could disagree, or for which the leaf check could accept what
/// `X509_verify_cert` on the full chain refuses.
///
/// Tests named "FINDING" demonstrated a disagreement: both failed on the sources of commit 407a07d
/// (the KELVIN SIGN x5c[1] VERIFIED warm, invalidCertificate cold; the BER root gave untrustedChain
/// "internal error" where OpenSSL accepts) and pass once fixed. The others are attack ideas that
/// turned out to be handled, kept as regression tests.
@Suite("Chain cache: the cold verdict for crafted chains")
struct ChainCacheVerdictTests {
    typealias Hierarchy = OneVerdictTests.Hierarchy
    static let inside = OneVerdictTests.inside
    static let bundleId = OneVerdictTests.bundleId

    static func verdict(_ result: VerificationResult<JWSTransactionDecodedPayload>) -> String {
        OneVerdictTests.verdict(result)
    }

    static func fixed(_ seconds: Int64) -> ValidationTime { .fixed(Date(timeIntervalSince1970: TimeInterval(seconds))) }

    /// A transaction token over the given `x5c` strings (verbatim, not re-encoded), signed by `key`.
    static func token(x5cStrings: [String], key: TestPrivateKey, index: Int = 0) throws -> String {
        let parameters = PayloadParameters(
            bundleId: bundleId, signedDate: Date(timeIntervalSince1970: TimeInterval(inside)), seed: 15)
        // x5c is only used for the header member, which the override replaces.
        return try CraftedToken.transaction(
            x5c: [], parameters: parameters, index: index,
            headerMembers: ["x5c": .array(x5cStrings.map { .string($0) })], signer: .key(key))
    }

    // MARK: - Findings

    /// FINDING. Input: a good token verified first (its intermediate is now in the intermediate
    /// cache, keyed by the `x5c[1]` Swift String), then a token signed by the same leaf whose
    /// `x5c[1]` is the intermediate's base64 with one `K` (U+004B) written as KELVIN SIGN (U+212A,
    /// bytes E2 84 AA). Not base64: the cold verifier says invalidCertificate (chain) for x5c[1].
    /// Swift's `String` equality and hashing are Unicode canonical equivalence, and U+212A's
    /// canonical decomposition is U+004B, so the warm verifier's `IntermediateCache.lookup` finds
    /// the cached intermediate under the non-base64 text, never decodes it, and VERIFIES the token.
    @Test("FINDING: a non-base64 x5c[1] canonically equivalent to a cached one is rejected warm as cold")
    func kelvinSignIntermediateKey() throws {
        let hierarchy = try Hierarchy()
        let warm = try hierarchy.warmVerifier(at: Self.inside)
        let intermediateText = hierarchy.intermediate.base64EncodedString()
        guard let position = intermediateText.firstIndex(of: "K") else {
            Issue.record("the crafted intermediate's base64 has no K")
            return
        }
        var kelvin = intermediateText
        kelvin.replaceSubrange(position...position, with: "\u{212A}")
        #expect(kelvin == intermediateText, "Swift: canonically equivalent, so equal as String")
        #expect(Array(kelvin.utf8) != Array(intermediateText.utf8), "but other bytes")
        #expect(Base64.decodeStandard(kelvin) == nil, "and not base64")

        let x5c = [
            hierarchy.goodLeaf.base64EncodedString(), kelvin, hierarchy.root.base64EncodedString(),
        ]
        let token = try Self.token(x5cStrings: x5c, key: hierarchy.keys.goodLeafKey)
        let cold = Self.verdict(
            try hierarchy.verifier(capacity: 0, at: Self.fixed(Self.inside)).verifyAndDecodeTransaction(token))
        let warmVerdict = Self.verdict(warm.verifyAndDecodeTransaction(token))
        #expect(cold == "invalidCertificate (chain)", "cold: x5c[1] is not base64")
        #expect(warmVerdict == cold, "warm (intermediate cache hit on a canonically equal String) == cold")
    }

    /// FINDING (cold against OpenSSL). Input: the crafted root configured as DER whose outer
    /// SEQUENCE length is written in a non-minimal long form (`30 84 00 00 LL LL`, BER that
    /// `d2i_X509` accepts; TBSCertificate and signature unchanged, so it is the same certificate),
    /// and the good token. OpenSSL's `X509_verify_cert` on [leaf, intermediate, that root] accepts.
    /// The cold verifier fails every token with untrustedChain ("internal error: the chain could
    /// not be assembled"): `cjws_verify_chain` names the root by SHA-256 of `i2d_X509` (DER),
    /// `TrustStore.root(withFingerprint:)` looks it up by SHA-256 of the bytes as configured.
    @Test("FINDING: a root configured in BER gives OpenSSL's verdict")
    func berEncodedRoot() throws {
        let hierarchy = try Hierarchy()
        let ber = try DERSurgery.longFormOuterLength(hierarchy.root)
        #expect(ber != hierarchy.root)
        let openSSL = try OpenSSLChainVerdict.evaluate(
            leaf: hierarchy.goodLeaf, intermediate: hierarchy.intermediate, root: ber, at: Self.inside)
        #expect(openSSL.acceptsFullChain, "OpenSSL accepts the chain to the BER root: \(openSSL)")
        for capacity in [0, 64] {
            let verifier = try SignedDataVerifier(
                rootCertificates: [ber], bundleId: Self.bundleId, environment: .sandbox,
                validationTime: Self.fixed(Self.inside), chainCacheCapacity: capacity)
            let result = verifier.verifyAndDecodeTransaction(try hierarchy.goodToken())
            #expect(
                Self.verdict(result) == "verified",
                "capacity \(capacity): \(String(describing: result.error?.message))")
        }
    }

    // MARK: - Ideas checked and found handled (regression tests)

    /// Several roots that OpenSSL chooses between by time: two self-signed roots with the same name
    /// and key (a re-issued root), one valid 2025–2030, the other 2028–2035; the intermediate valid
    /// 2025–2035. `X509_STORE_CTX_get1_issuer` prefers a root valid at the validation time, so the
    /// chain OpenSSL builds changes with the time. Expected: the store does not offer one chain, so
    /// nothing is cached; at 2026, 2029, 2032, 2029 and 2026 again a warm verifier (one `.current`
    /// verifier, clock moved) gives the cold verdict and names the same root.
    @Test("re-issued roots chosen by time: warm gives the cold verdict and root at every time")
    func reissuedRootsChosenByTime() throws {
        let keys = OneVerdictTests.keys
        let rootName = try CraftedName([.commonName("Re-issued Root - NOT APPLE"), .organization("JWSVerify Tests")])
        let intermediateName = try CraftedName([
            .commonName("Re-issued Intermediate - NOT APPLE"), .organization("JWSVerify Tests"),
        ])
        let y2025: Int64 = 1_735_689_600, y2028: Int64 = 1_830_297_600, y2030: Int64 = 1_893_456_000
        let y2035: Int64 = 2_051_222_400
        let early = try CraftedCertificate.rootProfile(
            name: rootName, key: keys.rootKey, notBefore: y2025, notAfter: y2030, serialNumber: Data([0x21])
        ).sign(with: keys.rootKey)
        let late = try CraftedCertificate.rootProfile(
            name: rootName, key: keys.rootKey, notBefore: y2028, notAfter: y2035, serialNumber: Data([0x22])
        ).sign(with: keys.rootKey)
        let intermediate = try CraftedCertificate.intermediateProfile(
            name: intermediateName, issuer: rootName, key: keys.intermediateKey, issuerKey: keys.rootKey,
            notBefore: y2025, notAfter: y2035
        ).sign(with: keys.rootKey)
        let leaf = try CraftedCertificate.leafProfile(
            name: CraftedName([.commonName("Re-issued Leaf - NOT APPLE")]), issuer: intermediateName,
            publicKey: .key(keys.goodLeafKey), issuerKey: keys.intermediateKey, notBefore: y2025, notAfter: y2035
        ).sign(with: keys.intermediateKey)
        let token = try Self.token(
            x5cStrings: [leaf, intermediate, early].map { $0.base64EncodedString() }, key: keys.goodLeafKey)
        let clock = OneVerdictTests.ManualClock(0)
        let warm = try SignedDataVerifier(
            rootCertificates: [early, late], bundleId: Self.bundleId, environment: .sandbox,
            validationTime: .current, chainCacheCapacity: 64, clock: { clock.now })
        let times: [Int64] = [1_773_576_000, 1_861_920_000, 1_956_528_000, 1_861_920_000, 1_773_576_000]
        for time in times {
            clock.set(time)
            let cold = try SignedDataVerifier(
                rootCertificates: [early, late], bundleId: Self.bundleId, environment: .sandbox,
                validationTime: Self.fixed(time), chainCacheCapacity: 0
            ).verifyAndDecodeTransaction(token)
            let warmResult = warm.verifyAndDecodeTransaction(token)
            #expect(Self.verdict(cold) == "verified", "cold at \(time)")
            #expect(Self.verdict(warmResult) == Self.verdict(cold), "warm at \(time)")
            if case .verified(let w) = warmResult, case .verified(let c) = cold {
                #expect(w.chain.map(\.sha256Fingerprint) == c.chain.map(\.sha256Fingerprint), "same root at \(time)")
            }
        }
        #expect(warm.chainCacheStatistics.count == 0, "two candidate roots: no chain is remembered")
        #expect(warm.intermediateCacheStatistics.count == 0, "two candidate roots: no intermediate is remembered")
    }

    /// A root equal to the intermediate: the intermediate configured as a trust anchor next to the
    /// root (trusted-first lookups find the leaf's issuer in the store). Expected: warm gives the
    /// cold verdict for the good leaf and for a new leaf, and nothing is cached.
    @Test("the intermediate configured as a root: warm gives the cold verdict, nothing cached")
    func intermediateAsRoot() throws {
        let hierarchy = try Hierarchy()
        let newLeaf = try hierarchy.leaf()
        let roots = [hierarchy.root, hierarchy.intermediate]
        let warm = try SignedDataVerifier(
            rootCertificates: roots, bundleId: Self.bundleId, environment: .sandbox,
            validationTime: Self.fixed(Self.inside), chainCacheCapacity: 64)
        let cold = try SignedDataVerifier(
            rootCertificates: roots, bundleId: Self.bundleId, environment: .sandbox,
            validationTime: Self.fixed(Self.inside), chainCacheCapacity: 0)
        for token in [try hierarchy.goodToken(), try hierarchy.token(leaf: newLeaf), try hierarchy.goodToken()] {
            let coldVerdict = Self.verdict(cold.verifyAndDecodeTransaction(token))
            #expect(Self.verdict(warm.verifyAndDecodeTransaction(token)) == coldVerdict)
        }
        #expect(warm.chainCacheStatistics.count == 0 && warm.intermediateCacheStatistics.count == 0)
    }

    /// Duplicate roots: the same root twice (the store keeps one). Expected: the chain is cached as
    /// with one root, and a new leaf under the cached intermediate gets the cold verdict.
    @Test("a root given twice: cached as one, warm gives the cold verdict")
    func duplicateRoots() throws {
        let hierarchy = try Hierarchy()
        let roots = [hierarchy.root, hierarchy.root]
        let warm = try SignedDataVerifier(
            rootCertificates: roots, bundleId: Self.bundleId, environment: .sandbox,
            validationTime: Self.fixed(Self.inside), chainCacheCapacity: 64)
        #expect(warm.verifyAndDecodeTransaction(try hierarchy.goodToken()).isVerified)
        #expect(warm.intermediateCacheStatistics.count == 1)
        let newLeaf = try hierarchy.token(leaf: try hierarchy.leaf())
        let cold = try SignedDataVerifier(
            rootCertificates: roots, bundleId: Self.bundleId, environment: .sandbox,
            validationTime: Self.fixed(Self.inside), chainCacheCapacity: 0)
        #expect(Self.verdict(warm.verifyAndDecodeTransaction(newLeaf)) == Self.verdict(cold.verifyAndDecodeTransaction(newLeaf)))
        #expect(Self.verdict(cold.verifyAndDecodeTransaction(newLeaf)) == "verified")
    }

    /// The table path's strict-DER rule. Input: an intermediate made hot (more than
    /// `PublicKey.issuerTableThreshold` valid new leaves, so new leaves are checked with its
    /// fixed-base table), then new leaves whose certificate signature is mathematically valid but
    /// not strict DER: the ECDSA-Sig-Value SEQUENCE length in long form, an INTEGER with a
    /// superfluous leading zero, bytes after the SEQUENCE inside the BIT STRING. OpenSSL refuses
    /// each (it re-encodes and compares). Expected: untrustedChain (chain) warm (hot table) and
    /// cold, as OpenSSL.
    @Test(
        "non-strict DER certificate signatures under a hot intermediate: refused warm as cold",
        arguments: ["long-form length", "padded integer", "trailing bytes"])
    func nonStrictSignatureUnderHotIntermediate(_ variant: String) throws {
        let hierarchy = try Hierarchy()
        let warm = try hierarchy.warmVerifier(at: Self.inside)
        for serial in 0..<(Int(PublicKey.issuerTableThreshold) + 4) {
            let leaf = try Self.leaf(hierarchy, serial: UInt8(0x40 + serial))
            let result = warm.verifyAndDecodeTransaction(try hierarchy.token(leaf: leaf))
            #expect(result.isVerified, "new leaf \(serial): \(Self.verdict(result))")
        }
        #expect(warm.cachedIntermediateKeysWithFixedBaseTable == 1, "the intermediate key is hot")
        let good = try Self.leaf(hierarchy, serial: 0x7F)
        let bad = try DERSurgery.reencodeSignature(good, variant: variant)
        #expect(bad != good)
        let openSSL = try hierarchy.openSSL(leaf: bad, at: Self.inside)
        #expect(openSSL.code == .untrustedChain, "OpenSSL refuses: \(openSSL)")
        let token = try hierarchy.token(leaf: bad)
        let cold = Self.verdict(
            try hierarchy.verifier(capacity: 0, at: Self.fixed(Self.inside)).verifyAndDecodeTransaction(token))
        #expect(cold == "untrustedChain (chain)")
        #expect(Self.verdict(warm.verifyAndDecodeTransaction(token)) == cold, "warm, hot table")
        // The same leaf correctly encoded verifies warm: the table itself is not what refuses.
        #expect(warm.verifyAndDecodeTransaction(try hierarchy.token(leaf: good)).isVerified)
    }

    /// Names compared as OpenSSL compares them. Input: new leaves whose issuer name is the
    /// intermediate's subject written differently: PrintableString instead of UTF8String, other
    /// case and extra spaces (equal under `X509_NAME_cmp`'s canonical encoding), or with one
    /// character changed (not equal). Expected: the verdict of OpenSSL on the full chain, warm and
    /// cold: verified for the canonical variant, untrustedChain for the other.
    @Test("issuer names equal only after canonicalization: OpenSSL's verdict warm and cold", arguments: [true, false])
    func canonicalIssuerName(_ equal: Bool) throws {
        let hierarchy = try Hierarchy()
        let issuer = try CraftedName([
            CraftedName.Attribute(
                oid: "2.5.4.3", value: equal ? "  one VERDICT   intermediate - not apple " : "One Verdict Intermediate = NOT APPLE",
                stringTag: 0x13),
            CraftedName.Attribute(oid: "2.5.4.10", value: "JWSVERIFY tests", stringTag: 0x13),
        ])
        let leaf = try CraftedCertificate.leafProfile(
            name: CraftedName([.commonName("Canonical Name Leaf - NOT APPLE")]), issuer: issuer,
            publicKey: .key(hierarchy.keys.testLeafKey), issuerKey: hierarchy.keys.intermediateKey,
            notBefore: OneVerdictTests.wideFrom, notAfter: OneVerdictTests.wideUntil, serialNumber: Data([0x31])
        ).sign(with: hierarchy.keys.intermediateKey)
        let openSSL = try hierarchy.openSSL(leaf: leaf, at: Self.inside)
        #expect(openSSL.acceptsFullChain == equal, "OpenSSL: \(openSSL)")
        let token = try hierarchy.token(leaf: leaf)
        let warm = try hierarchy.warmVerifier(at: Self.inside)
        let cold = Self.verdict(
            try hierarchy.verifier(capacity: 0, at: Self.fixed(Self.inside)).verifyAndDecodeTransaction(token))
        #expect(cold == (equal ? "verified" : "untrustedChain (chain)"), "cold")
        #expect(Self.verdict(warm.verifyAndDecodeTransaction(token)) == cold, "warm, new leaf")
        #expect(Self.verdict(warm.verifyAndDecodeTransaction(token)) == cold, "warm, again")
    }
}

extension ChainCacheVerdictTests {
    /// Time encodings the leaf check and the caches must judge as `X509_cmp_time` does. Input: new
    /// leaves (signed again by the intermediate) whose notAfter is GeneralizedTime with fractional
    /// seconds, GeneralizedTime with a `+0000` offset, UTCTime without seconds (each accepted by
    /// `ASN1_TIME_to_tm`, refused by `X509_cmp_time`), UTCTime `500101000000Z` (1950, not 2050),
    /// and GeneralizedTime for 2034 (unusual but valid). Expected: OpenSSL's verdict on the full
    /// chain, warm (new leaf under the cached intermediate, then again) and cold.
    @Test(
        "odd notAfter encodings of a new leaf: OpenSSL's verdict warm and cold",
        arguments: [
            "fractional", "offset", "no seconds", "utc 1950", "generalized 2034",
        ])
    func oddLeafTimeEncodings(_ variant: String) throws {
        let hierarchy = try Hierarchy()
        let (tag, text): (UInt8, String) =
            switch variant {
            case "fractional": (0x18, "20340101000000.5Z")
            case "offset": (0x18, "20340101000000+0000")
            case "no seconds": (0x17, "3401010000Z")
            case "utc 1950": (0x17, "500101000000Z")
            default: (0x18, "20340101000000Z")
            }
        let leaf = try DERSurgery.resign(try Self.leaf(hierarchy, serial: 0x51), with: hierarchy.keys.intermediateKey) {
            children in
            let validity = try DERSurgery.elements(try DERSurgery.elements(children[4])[0].contents)
            children[4] = TestDER.sequence([validity[0].encoded, TestDER.tlv(tag, Data(text.utf8))])
        }
        let openSSL = try hierarchy.openSSL(leaf: leaf, at: Self.inside)
        #expect(openSSL.acceptsFullChain == (variant == "generalized 2034"), "OpenSSL: \(openSSL)")
        let token = try hierarchy.token(leaf: leaf)
        let cold = Self.verdict(
            try hierarchy.verifier(capacity: 0, at: Self.fixed(Self.inside)).verifyAndDecodeTransaction(token))
        let expected = openSSL.code.map { "\($0.rawValue) (chain)" } ?? "verified"
        #expect(cold == expected, "cold == OpenSSL")
        let warm = try hierarchy.warmVerifier(at: Self.inside)
        #expect(Self.verdict(warm.verifyAndDecodeTransaction(token)) == cold, "warm, new leaf")
        #expect(Self.verdict(warm.verifyAndDecodeTransaction(token)) == cold, "warm, again")
    }

    /// Signature algorithm parameters. Input: a new leaf whose signature AlgorithmIdentifier (inner
    /// and outer) is ecdsa-with-SHA384 with an explicit NULL parameter, signed again. OpenSSL does
    /// not look at ECDSA parameters; the leaf check sets the leaf aside. Expected: OpenSSL's verdict
    /// (verified), warm and cold.
    @Test("ecdsa-with-SHA384 with NULL parameters: OpenSSL's verdict warm and cold")
    func signatureAlgorithmWithNullParameters() throws {
        let hierarchy = try Hierarchy()
        let algorithm = TestDER.sequence([try TestDER.objectIdentifier("1.2.840.10045.4.3.3"), TestDER.null])
        let leaf = try DERSurgery.resign(
            try Self.leaf(hierarchy, serial: 0x52), with: hierarchy.keys.intermediateKey, algorithm: algorithm
        ) { children in children[2] = algorithm }
        let openSSL = try hierarchy.openSSL(leaf: leaf, at: Self.inside)
        let token = try hierarchy.token(leaf: leaf)
        let cold = Self.verdict(
            try hierarchy.verifier(capacity: 0, at: Self.fixed(Self.inside)).verifyAndDecodeTransaction(token))
        #expect(cold == (openSSL.code.map { "\($0.rawValue) (chain)" } ?? "verified"), "cold == OpenSSL \(openSSL)")
        let warm = try hierarchy.warmVerifier(at: Self.inside)
        #expect(Self.verdict(warm.verifyAndDecodeTransaction(token)) == cold, "warm, new leaf")
    }

    /// BER re-encodings of a real leaf need no key: the outer SEQUENCE length written with 4 to 120
    /// length octets (leading zeros, which `d2i_X509` skips) gives ~120 distinct "new leaves" whose
    /// certificate signature is the intermediate's own. Input: the good leaf's variants, each in a
    /// token reusing the good token's signature (unsigned), then one variant in a token signed by
    /// the leaf key. Expected: every unsigned token invalidSignature (signature) and the chain
    /// cache as before; the signed variant verified warm (the leaf check) and cold, as OpenSSL.
    @Test("BER variants of a real leaf: unsigned ones change no cache, a signed one gets the cold verdict")
    func berLeafVariants() throws {
        let hierarchy = try Hierarchy()
        let warm = try hierarchy.warmVerifier(at: Self.inside)
        let before = warm.chainCacheStatistics
        let good = try JWSSegments(token: try hierarchy.goodToken())
        var failures: [String: Int] = [:]
        for octets in 4...120 {
            let variant = try DERSurgery.longFormOuterLength(hierarchy.goodLeaf, lengthOctets: octets)
            let token = try hierarchy.token(leaf: variant, signer: .bytes(good.signature))
            failures[Self.verdict(warm.verifyAndDecodeTransaction(token)), default: 0] += 1
        }
        #expect(failures == ["invalidSignature (signature)": 117])
        let after = warm.chainCacheStatistics
        #expect(after.count == before.count && after.hits == before.hits, "chain cache \(before) → \(after)")

        let variant = try DERSurgery.longFormOuterLength(hierarchy.goodLeaf, lengthOctets: 9)
        let openSSL = try hierarchy.openSSL(leaf: variant, at: Self.inside)
        let signed = try hierarchy.token(leaf: variant, signer: .key(hierarchy.keys.goodLeafKey))
        let cold = Self.verdict(
            try hierarchy.verifier(capacity: 0, at: Self.fixed(Self.inside)).verifyAndDecodeTransaction(signed))
        #expect(cold == (openSSL.code.map { "\($0.rawValue) (chain)" } ?? "verified"), "cold == OpenSSL \(openSSL)")
        #expect(Self.verdict(warm.verifyAndDecodeTransaction(signed)) == cold, "warm")
    }
}

extension ChainCacheVerdictTests {
    /// Validity windows outside the self-test's 1970–9999 points: every certificate valid
    /// 1940-01-01 (GeneralizedTime) to 1960-01-01 (UTCTime), validated at negative times; and
    /// valid 9990-01-01 to 9999-12-31T23:59:59, validated up to and past year 9999 (where
    /// `X509_cmp_time` cannot compare). Expected: at each boundary and beyond, a warm verifier
    /// whose chain and intermediate were cached in the middle of the window gives the cold verdict
    /// for the cached chain and for a new leaf, and the cold verdict is OpenSSL's.
    @Test("validity windows before 1970 and at year 9999: warm gives the cold verdict", arguments: ["1940s", "9999"])
    func farValidityWindows(_ window: String) throws {
        let (from, until): (Int64, Int64) =
            window == "1940s" ? (-946_771_200, -315_619_200) : (253_086_681_600, 253_402_300_799)
        let hierarchy = try Hierarchy(rootValidity: from...until, intermediateValidity: from...until)
        let cachedLeaf = try hierarchy.leaf(validity: from...until)
        let newLeaf = try CraftedCertificate.leafProfile(
            name: CraftedName([.commonName("Far Window New Leaf - NOT APPLE")]), issuer: hierarchy.intermediateName,
            publicKey: .key(hierarchy.keys.testLeafKey), issuerKey: hierarchy.keys.intermediateKey, notBefore: from,
            notAfter: until, serialNumber: Data([0x61])
        ).sign(with: hierarchy.keys.intermediateKey)
        let cachedToken = try hierarchy.token(leaf: cachedLeaf)
        let newToken = try hierarchy.token(leaf: newLeaf)
        let mid = from / 2 + until / 2
        var times: [Int64] = [from - 1, from, until - 1, until, until + 1]
        if window == "9999" { times += [253_402_300_800, 10_000_000_000_000] }
        for time in times {
            let clock = OneVerdictTests.ManualClock(mid)
            let warm = try hierarchy.verifier(clock: clock)
            #expect(warm.verifyAndDecodeTransaction(cachedToken).isVerified, "verified at mid")
            #expect(warm.intermediateCacheStatistics.count == 1 && warm.chainCacheStatistics.count == 1)
            clock.set(time)
            let coldVerifier = try hierarchy.verifier(capacity: 0, at: Self.fixed(time))
            for (name, leaf, token) in [("cached", cachedLeaf, cachedToken), ("new", newLeaf, newToken)] {
                let cold = Self.verdict(coldVerifier.verifyAndDecodeTransaction(token))
                let openSSL = try hierarchy.openSSL(leaf: leaf, at: time)
                #expect(cold == (openSSL.code.map { "\($0.rawValue) (chain)" } ?? "verified"), "\(name) at \(time): cold == OpenSSL \(openSSL)")
                #expect(cold == (from <= time && time < until ? "verified" : "certificateExpired (chain)"), "\(name) at \(time): rule")
                #expect(Self.verdict(warm.verifyAndDecodeTransaction(token)) == cold, "\(name) at \(time): warm")
            }
        }
    }

    /// Concurrency and eviction: a verifier with a chain cache of 2 entries, 8 threads verifying
    /// 64 tokens each, drawn from good tokens of three chains, new leaves under the cached
    /// intermediate, unsigned tokens and a leaf outside its validity, so that entries are inserted,
    /// evicted and looked up at once. Expected: every result equals the cold verdict of its token.
    @Test("eviction races under concurrent use: every verdict is the cold one")
    func concurrentEviction() throws {
        let hierarchy = try Hierarchy()
        let good = try JWSSegments(token: try hierarchy.goodToken())
        var tokens: [String] = []
        for serial in 0..<4 {
            let leaf = try Self.leaf(hierarchy, serial: UInt8(0x70 + serial))
            tokens.append(try hierarchy.token(leaf: leaf))
            tokens.append(try hierarchy.token(leaf: leaf, signer: .bytes(good.signature)))
        }
        tokens.append(try hierarchy.goodToken())
        tokens.append(try hierarchy.token(leaf: try hierarchy.leaf(validity: 1_600_000_000...1_700_000_000)))
        let all = tokens
        let cold = try hierarchy.verifier(capacity: 0, at: Self.fixed(Self.inside))
        let expected = tokens.map { Self.verdict(cold.verifyAndDecodeTransaction($0)) }
        let warm = try hierarchy.verifier(capacity: 2, at: Self.fixed(Self.inside))
        let mismatches = ReadWriteLocked<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            var generator = SystemRandomNumberGenerator()
            for round in 0..<64 {
                let index = (thread * 7 + round * 3 + Int.random(in: 0..<all.count, using: &generator)) % all.count
                let got = Self.verdict(warm.verifyAndDecodeTransaction(all[index]))
                if got != expected[index] { mismatches.write { $0.append("token \(index): \(got) != \(expected[index])") } }
            }
        }
        #expect(mismatches.read { $0 } == [])
        #expect(expected.contains("verified") && expected.contains("invalidSignature (signature)")
            && expected.contains("certificateExpired (chain)"))
    }
}

extension ChainCacheVerdictTests {
    /// A leaf of the hierarchy's profile with serial `serial`, signed by the intermediate.
    static func leaf(_ hierarchy: Hierarchy, serial: UInt8) throws -> Data {
        try CraftedCertificate.leafProfile(
            name: CraftedName([.commonName("Attack Leaf \(serial) - NOT APPLE"), .organization("JWSVerify Tests")]),
            issuer: hierarchy.intermediateName, publicKey: .key(hierarchy.keys.testLeafKey),
            issuerKey: hierarchy.keys.intermediateKey, notBefore: OneVerdictTests.wideFrom,
            notAfter: OneVerdictTests.wideUntil, serialNumber: Data([serial])
        ).sign(with: hierarchy.keys.intermediateKey)
    }
}

/// Byte-level changes to DER certificates for the attacks: re-encodings that keep the signed
/// bytes, and TBSCertificate changes signed again.
enum DERSurgery {
    struct Element {
        let tag: UInt8
        let contents: Data
        let encoded: Data
    }

    /// The TLVs of `data`, one after another (definite lengths).
    static func elements(_ data: Data) throws -> [Element] {
        let bytes = [UInt8](data)
        var offset = 0
        var result: [Element] = []
        while offset < bytes.count {
            guard offset + 2 <= bytes.count else { throw JWSTestingError.invalidArgument("DER: truncated") }
            let tag = bytes[offset]
            var length = Int(bytes[offset + 1])
            var header = 2
            if length >= 0x80 {
                let count = length & 0x7F
                guard count > 0, count <= 4, offset + 2 + count <= bytes.count else {
                    throw JWSTestingError.invalidArgument("DER: length")
                }
                length = bytes[(offset + 2)..<(offset + 2 + count)].reduce(0) { $0 << 8 | Int($1) }
                header += count
            }
            guard offset + header + length <= bytes.count else { throw JWSTestingError.invalidArgument("DER: short") }
            result.append(
                Element(
                    tag: tag, contents: Data(bytes[(offset + header)..<(offset + header + length)]),
                    encoded: Data(bytes[offset..<(offset + header + length)])))
            offset += header + length
        }
        return result
    }

    /// The certificate with its outer SEQUENCE length written in `lengthOctets` octets, leading
    /// zeros first (BER; the default gives `84 00 00 LL LL`).
    static func longFormOuterLength(_ certificate: Data, lengthOctets: Int = 4) throws -> Data {
        guard let outer = try elements(certificate).first, outer.tag == 0x30, (2...126).contains(lengthOctets) else {
            throw JWSTestingError.invalidArgument("not a SEQUENCE")
        }
        let count = outer.contents.count
        let length = [UInt8](repeating: 0, count: lengthOctets - 2) + [UInt8(count >> 8), UInt8(count & 0xFF)]
        return Data([0x30, 0x80 | UInt8(lengthOctets)] + length) + outer.contents
    }

    /// The certificate with its TBSCertificate's elements changed by `change` and signed again by
    /// `key` (ECDSA with SHA-384), with `algorithm` as the outer signature AlgorithmIdentifier
    /// (default: unchanged).
    static func resign(
        _ certificate: Data, with key: TestPrivateKey, algorithm: Data? = nil, _ change: (inout [Data]) throws -> Void
    ) throws -> Data {
        guard let outer = try elements(certificate).first else { throw JWSTestingError.invalidArgument("empty") }
        let parts = try elements(outer.contents)
        var children = try elements(parts[0].contents).map(\.encoded)
        try change(&children)
        let tbs = TestDER.sequence(children)
        let signature = try key.signDER(tbs, digest: .sha384)
        return TestDER.sequence([tbs, algorithm ?? parts[1].encoded, TestDER.bitString(signature)])
    }

    /// The certificate with its ECDSA-Sig-Value re-encoded (same r and s) as `variant` says.
    static func reencodeSignature(_ certificate: Data, variant: String) throws -> Data {
        guard let outer = try elements(certificate).first else { throw JWSTestingError.invalidArgument("empty") }
        let parts = try elements(outer.contents)
        guard parts.count == 3, parts[2].tag == 0x03, parts[2].contents.first == 0 else {
            throw JWSTestingError.invalidArgument("not a certificate")
        }
        let signature = Data(parts[2].contents.dropFirst())
        guard let sequence = try elements(signature).first else { throw JWSTestingError.invalidArgument("signature") }
        let integers = try elements(sequence.contents)
        let changed: Data
        switch variant {
        case "long-form length":
            changed = Data([0x30, 0x81, UInt8(sequence.contents.count)]) + sequence.contents
        case "padded integer":
            let r = integers[0].contents
            changed = TestDER.sequence([TestDER.tlv(0x02, Data([0x00]) + r), integers[1].encoded])
        default:
            changed = sequence.encoded + Data([0x00, 0x00])
        }
        return TestDER.sequence([parts[0].encoded, parts[1].encoded, TestDER.bitString(changed)])
    }
}
