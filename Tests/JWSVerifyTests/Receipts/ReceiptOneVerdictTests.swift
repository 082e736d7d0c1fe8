import Foundation
import JWSVerifyTesting
import Testing

@testable import JWSVerify

/// The one-verdict rule for the receipt chain cache, with crafted receipts that share what the cache keys on
/// and differ in one structured way: a warm verifier answers exactly what a verifier with every cache off
/// answers (code, check, every report step, payload, chain), and the cache statistics show when the cache
/// answered (a hit) and when it held an entry but let the full path decide (a miss).
@Suite("Receipt one verdict: the chain cache against crafted receipts")
struct ReceiptOneVerdictTests {
    typealias Fixture = ReceiptFixture

    /// A warm verifier and a cold one judging the same receipts at the same times.
    struct Pair {
        let warm: AppReceiptVerifier
        let cold: AppReceiptVerifier
        let clock: MovableClock?

        /// Verifiers at each receipt's creation date, or, with `clock`, at the clock's time.
        init(capacity: Int = 64, clock: MovableClock? = nil) throws {
            let time: ValidationTime = clock == nil ? .signedDate : .current
            let now: @Sendable () -> Date
            if let clock { now = clock.now } else { now = { Date() } }
            warm = try ReceiptVerifiers.make(capacity: capacity, validationTime: time, clock: now)
            cold = try ReceiptVerifiers.make(capacity: 0, validationTime: time, clock: now)
            self.clock = clock
        }

        /// Verifies `receipt` with both, expects the same outcome and, when given, `code`; returns what the warm
        /// one said and how its statistics moved.
        @discardableResult
        func judge(
            _ receipt: [UInt8], expect code: VerificationError.Code?, _ label: String,
            sourceLocation: SourceLocation = #_sourceLocation
        ) -> (outcome: ReceiptOutcome, hits: Int, misses: Int, entries: Int, chain: [CertificateInfo]) {
            let before = warm.cacheStatistics
            let result = warm.verifyAndDecodeAppReceipt(Data(receipt))
            let after = warm.cacheStatistics
            let observed = ReceiptOutcome(result)
            let reference = cold.verifyAndDecodeAppReceipt(Data(receipt))
            #expect(
                observed == ReceiptOutcome(reference), "\(label): warm \(observed) != cold",
                sourceLocation: sourceLocation)
            #expect(observed.code == code, "\(label): \(observed)", sourceLocation: sourceLocation)
            let chain = result.verified?.chain ?? []
            #expect(
                chain.map(\.der) == (reference.verified?.chain ?? []).map(\.der), "\(label)",
                sourceLocation: sourceLocation)
            #expect(cold.cacheStatistics.count == 0, sourceLocation: sourceLocation)
            return (
                observed, after.hits - before.hits, after.misses - before.misses, after.count - before.count, chain
            )
        }
    }

    static func primed(_ pair: Pair, _ receipt: [UInt8]) {
        let first = pair.judge(receipt, expect: nil, "primer")
        #expect(first.entries == 1 && first.hits == 0, "the primer did not enter the cache")
        let again = pair.judge(receipt, expect: nil, "primer again")
        #expect(again.hits == 1 && again.entries == 0, "the cache did not answer for the primer")
    }

    /// Input: after Apple's shape verified, receipts with the same certificates field whose SignerInfo names
    /// the intermediate or the root (signed with its key), and one that names the leaf but is signed with the
    /// intermediate's key. Expected: untrustedChain, untrustedChain, invalidSignature, each as cold; the cache
    /// never answers; the last (same cache key as the primer) is a miss that the full path decides.
    @Test("another signer named among the same certificates: the full path decides")
    func otherSignerNamed() throws {
        let fixture = try Fixture.get()
        let pki = fixture.pki
        let pair = try Pair()
        Self.primed(pair, try fixture.good())
        let signer = ReceiptSigner(hierarchy: pki)
        let content = Fixture.content(created: Fixture.createdLater)
        for (name, certificate, key) in [
            ("intermediate", pki.intermediate, pki.intermediateKey),
            ("root", pki.root, pki.rootKey),
        ] {
            let receipt = try signer.sign(
                content: content, options: .init(signerCertificate: certificate, signingKey: key))
            #expect(ReceiptEnvelope.scan(receipt)?.certificatesFieldRange != nil)
            let verdict = pair.judge(receipt, expect: .untrustedChain, "names the \(name)")
            #expect(verdict.hits == 0 && verdict.misses == 0 && verdict.entries == 0, "\(name)")
        }
        let forged = try signer.sign(content: content, options: .init(signingKey: pki.intermediateKey))
        #expect(ReceiptEnvelope.scan(forged)?.cacheKey == ReceiptEnvelope.scan(try fixture.good())?.cacheKey)
        let verdict = pair.judge(forged, expect: .invalidSignature, "leaf named, intermediate's key")
        #expect(verdict.hits == 0 && verdict.misses == 1 && verdict.entries == 0)
    }

    /// Input: after Apple's shape, the same three certificates in two other orders. Expected: verified as cold;
    /// each order is a new entry (first presentation not answered by the cache), answered the second time.
    @Test("the same certificates in another order are another entry")
    func certificateOrder() throws {
        let fixture = try Fixture.get()
        let pki = fixture.pki
        let pair = try Pair()
        Self.primed(pair, try fixture.good())
        for order in [[pki.root, pki.intermediate, pki.leaf], [pki.intermediate, pki.leaf, pki.root]] {
            let receipt = try ReceiptSigner(hierarchy: pki).sign(
                content: Fixture.content(), options: .init(certificates: order))
            let first = pair.judge(receipt, expect: nil, "order first")
            #expect(first.hits == 0 && first.entries == 1)
            let second = pair.judge(receipt, expect: nil, "order second")
            #expect(second.hits == 1 && second.entries == 0)
            #expect(second.chain.map(\.der) == [pki.leaf.der, pki.intermediate.der, pki.root.der])
        }
    }

    /// Input: Apple's shape with a second copy of the intermediate (same subject and key) valid only in a
    /// window, embedded before the real one, verified at times before, inside and after that window (one
    /// verifier, its clock moved). Expected: verified each time as cold, through the copy inside its window and
    /// through the real intermediate outside it (OpenSSL prefers an issuer valid at the time); the chain depends
    /// on the time, so the cache never holds it.
    @Test("a duplicate intermediate with another validity window is never remembered")
    func duplicateIntermediate() throws {
        let fixture = try Fixture.get()
        let pki = fixture.pki
        let clock = MovableClock(Fixture.created)
        let pair = try Pair(clock: clock)
        Self.primed(pair, try fixture.good())
        let receipt = try ReceiptSigner(hierarchy: pki).sign(
            content: Fixture.content(),
            options: .init(certificates: [pki.leaf, fixture.intermediateDuplicate, pki.intermediate, pki.root]))
        let times: [(Int64, TestCertificate)] = [
            (Int64(Fixture.created.timeIntervalSince1970), pki.intermediate),
            (Fixture.windowStart, fixture.intermediateDuplicate),
            (Fixture.windowEnd - 1, fixture.intermediateDuplicate),
            (Fixture.windowEnd, pki.intermediate), (1_900_000_000, pki.intermediate),
        ]
        for (second, issuer) in times {
            clock.set(seconds: second)
            for round in 1...2 {
                let verdict = pair.judge(receipt, expect: nil, "at \(second), round \(round)")
                #expect(verdict.hits == 0 && verdict.misses == 0 && verdict.entries == 0, "at \(second)")
                #expect(verdict.chain.count == 3 && verdict.chain[1].der == issuer.der, "at \(second)")
            }
        }
    }

    /// Input: after a SHA-256 receipt, a SHA-1 receipt with the same certificates; then, on the same thread,
    /// SHA-256 and SHA-1 receipts of the same key in turn, good and altered. Expected: verified as cold, a new
    /// entry, answered the second time; every later verdict as cold (the thread's RSA context switches its
    /// digest with the receipt's, `cjws_internal_rsa_verify_context`).
    @Test("another digest is another entry")
    func digest() throws {
        let fixture = try Fixture.get()
        let pair = try Pair()
        let sha256 = try fixture.good()
        Self.primed(pair, sha256)
        let sha1 = try fixture.good(digest: .sha1)
        #expect(pair.judge(sha1, expect: nil, "sha1 first").entries == 1)
        #expect(pair.judge(sha1, expect: nil, "sha1 second").hits == 1)
        let sha1Verdict = pair.judge(
            try fixture.good(created: Fixture.createdLater, digest: .sha1), expect: nil, "sha1 other")
        #expect(sha1Verdict.hits == 1)
        for round in 1...2 {
            #expect(pair.judge(sha256, expect: nil, "sha256 after sha1, round \(round)").hits == 1)
            _ = pair.judge(try ReceiptSurgery.alterContent(sha256), expect: .invalidSignature, "sha256 altered")
            #expect(pair.judge(sha1, expect: nil, "sha1 after sha256, round \(round)").hits == 1)
            _ = pair.judge(try ReceiptSurgery.alterContent(sha1), expect: .invalidSignature, "sha1 altered")
        }
    }

    /// Input: one leaf key (one `PublicKey`, so one cached RSA context on this thread) checking SHA-256 and SHA-1
    /// receipts' signatures in turn, each good and with a byte of its content changed. Expected: every answer
    /// that of a fresh key (the context's digest follows the receipt's; `cjws_internal_rsa_verify_context`).
    @Test("one key's cached RSA context switches digest with the receipt")
    func rsaContextDigest() throws {
        let fixture = try Fixture.get()
        let envelopes = try [ReceiptDigest.sha256, .sha1, .sha256, .sha1].map {
            try ReceiptEnvelope.parse(fixture.good(digest: $0))
        }
        let key = try #require(PublicKey(subjectPublicKeyInfo: Array(fixture.pki.leaf.publicKeyDER)))
        for (index, envelope) in envelopes.enumerated() {
            let digest: CMSDigest = index % 2 == 0 ? .sha256 : .sha1
            let other: CMSDigest = digest == .sha256 ? .sha1 : .sha256
            var altered = envelope.content
            altered[altered.count / 2] ^= 0x01
            #expect(key.isValidRSASignature(envelope.signature[...], over: envelope.content[...], digest: digest))
            #expect(!key.isValidRSASignature(envelope.signature[...], over: altered[...], digest: digest))
            #expect(!key.isValidRSASignature(envelope.signature[...], over: envelope.content[...], digest: other))
        }
        // A second key on this thread takes the slot; the first then starts over with its own context.
        let fresh = try #require(PublicKey(subjectPublicKeyInfo: Array(fixture.pki.leaf.publicKeyDER)))
        #expect(fresh.isValidRSASignature(envelopes[1].signature[...], over: envelopes[1].content[...], digest: .sha1))
        #expect(key.isValidRSASignature(envelopes[0].signature[...], over: envelopes[0].content[...], digest: .sha256))
    }

    /// Input: Apple's shape with signed attributes (OpenSSL's contentType, signingTime, messageDigest), twice,
    /// and one with its content changed. Expected: verified, then invalidSignature, as cold; never an entry,
    /// never a hit or miss (the cache does not look at envelopes with signed attributes).
    @Test("signed attributes keep a receipt on the full path")
    func signedAttributes() throws {
        let fixture = try Fixture.get()
        let pair = try Pair()
        Self.primed(pair, try fixture.good())
        let receipt = try ReceiptSigner(hierarchy: fixture.pki).sign(
            content: Fixture.content(), options: .init(signedAttributes: true))
        for label in ["first", "second"] {
            let verdict = pair.judge(receipt, expect: nil, "signed attributes \(label)")
            #expect(verdict.hits == 0 && verdict.misses == 0 && verdict.entries == 0)
        }
        let altered = pair.judge(try ReceiptSurgery.alterContent(receipt), expect: .invalidSignature, "altered")
        #expect(altered.hits == 0 && altered.misses == 0 && altered.entries == 0)
    }

    /// Input: Apple's shape with the SignerInfo's signatureAlgorithm rewritten to sha256WithRSAEncryption (the
    /// signature still verifies), to sha512WithRSAEncryption and to sha1WithRSAEncryption (over a SHA-256
    /// digest). Expected: verified and a new entry; unsupportedAlgorithm twice, no entry, no hit.
    @Test("the signature algorithm OID is part of what the cache keys on")
    func signatureAlgorithmOID() throws {
        let fixture = try Fixture.get()
        let pair = try Pair()
        let good = try fixture.good()
        Self.primed(pair, good)
        let named = try ReceiptSurgery.signatureAlgorithm(good, ReceiptSurgery.sha256WithRSA)
        #expect(pair.judge(named, expect: nil, "sha256WithRSA").entries == 1)
        #expect(pair.judge(named, expect: nil, "sha256WithRSA again").hits == 1)
        for oid in [ReceiptSurgery.sha512WithRSA, ReceiptSurgery.sha1WithRSA] {
            let verdict = pair.judge(
                try ReceiptSurgery.signatureAlgorithm(good, oid), expect: .unsupportedAlgorithm, "\(oid.last ?? 0)")
            #expect(verdict.hits == 0 && verdict.misses == 0 && verdict.entries == 0)
        }
    }

    /// Input: a receipt whose leaf is valid only from `windowStart` to `windowEnd`, verified inside (primed), then
    /// by the same verifier with its clock at one second before notBefore, at notBefore, at the last second, at
    /// notAfter and long after; then, at its creation date, receipts of the same envelope created at notAfter and
    /// one second before. Expected: each as cold: certificateExpired outside (a miss: the full path decides and
    /// names the leaf), verified inside (a hit).
    @Test("a validation time outside the cached interval goes to the full path, to the second")
    func validationTimeOutsideTheInterval() throws {
        let fixture = try Fixture.get()
        let window = fixture.signerWindow
        let inside = Fixture.windowStart + 1000
        let clock = MovableClock(Date(timeIntervalSince1970: TimeInterval(inside)))
        let pair = try Pair(clock: clock)
        let receipt = try fixture.good(window, created: Date(timeIntervalSince1970: TimeInterval(inside)))
        Self.primed(pair, receipt)
        for (second, code) in [
            (Fixture.windowStart - 1, VerificationError.Code.certificateExpired), (Fixture.windowStart, nil),
            (Fixture.windowEnd - 1, nil), (Fixture.windowEnd, .certificateExpired),
            (Fixture.windowEnd + 86_400 * 365 * 5, .certificateExpired),
        ] as [(Int64, VerificationError.Code?)] {
            clock.set(seconds: second)
            let verdict = pair.judge(receipt, expect: code, "clock at \(second)")
            #expect(verdict.hits == (code == nil ? 1 : 0) && verdict.misses == (code == nil ? 0 : 1), "at \(second)")
            #expect(verdict.entries == 0)
            if code != nil {
                #expect(verdict.outcome.report.failedStep?.detail.hasPrefix("the receipt signer certificate") == true)
            }
        }

        let signed = try Pair()
        Self.primed(signed, receipt)
        for (second, code) in [
            (Fixture.windowEnd, VerificationError.Code.certificateExpired), (Fixture.windowEnd - 1, nil),
        ]
            as [(Int64, VerificationError.Code?)]
        {
            let created = try fixture.good(window, created: Date(timeIntervalSince1970: TimeInterval(second)))
            #expect(ReceiptEnvelope.scan(created)?.cacheKey == ReceiptEnvelope.scan(receipt)?.cacheKey)
            let verdict = signed.judge(created, expect: code, "created at \(second)")
            #expect(verdict.hits == (code == nil ? 1 : 0) && verdict.misses == (code == nil ? 0 : 1))
        }
    }

    /// Input: Apple's shape as BER (indefinite lengths, Xcode's encoding) with the same certificates and signer,
    /// twice; Apple's DER envelope whose content uses long-form lengths (BER) but is correctly signed. Expected:
    /// verified as cold and never an entry or a hit (the strict-DER scan refuses BER); the BER content is
    /// malformedReceipt from both, at the format check (its `content` step), with the cache untouched.
    @Test("BER envelopes and BER content never reach the cache")
    func ber() throws {
        let fixture = try Fixture.get()
        let pair = try Pair()
        Self.primed(pair, try fixture.good())
        let ber = try ReceiptSigner(hierarchy: fixture.pki).sign(
            content: Fixture.content(), options: .init(encoding: .berIndefiniteLength))
        #expect(ReceiptEnvelope.scan(ber) == nil)
        for label in ["first", "second"] {
            let verdict = pair.judge(ber, expect: nil, "BER envelope \(label)")
            #expect(verdict.hits == 0 && verdict.misses == 0 && verdict.entries == 0)
        }
        let berContent = try ReceiptSigner(hierarchy: fixture.pki).sign(
            content: ReceiptContentEncoder.content(
                attributes: ReceiptContentEncoder.attributes(Fixture.receipt()), lengths: .longForm))
        #expect(ReceiptEnvelope.scan(berContent)?.cacheKey == ReceiptEnvelope.scan(try fixture.good())?.cacheKey)
        let verdict = pair.judge(berContent, expect: .malformedReceipt, "BER content")
        #expect(verdict.outcome.failedStep == .content)
        #expect(verdict.hits == 0 && verdict.misses == 0 && verdict.entries == 0)
    }

    /// Input: after Apple's shape, the same envelope with its content changed, its signature changed, and a valid
    /// signature over other content moved onto it. Expected: invalidSignature as cold, each a miss: the cache
    /// held the envelope but did not answer, and says so (no hit).
    @Test("a signature that fails with the cached key is a miss, not a hit")
    func alteredContentOrSignature() throws {
        let fixture = try Fixture.get()
        let pair = try Pair()
        let good = try fixture.good()
        Self.primed(pair, good)
        let other = try fixture.good(created: Fixture.createdLater)
        let otherEnvelope = try #require(ReceiptEnvelope.scan(other))
        let goodEnvelope = try #require(ReceiptEnvelope.scan(good))
        #expect(
            otherEnvelope.signature.count == goodEnvelope.signature.count
                && otherEnvelope.signature != goodEnvelope.signature)
        var swapped = good
        swapped.replaceSubrange(goodEnvelope.signatureRange, with: otherEnvelope.signature)
        for (label, receipt) in [
            ("content", try ReceiptSurgery.alterContent(good)), ("signature", try ReceiptSurgery.flipSignature(good)),
            ("swapped signature", swapped),
        ] {
            let verdict = pair.judge(receipt, expect: .invalidSignature, label)
            #expect(verdict.hits == 0 && verdict.misses == 1 && verdict.entries == 0, "\(label)")
        }
        #expect(pair.judge(other, expect: nil, "other content").hits == 1)
    }

    /// Input: a fresh verifier given every crafted receipt that fails one of checks 1 to 8, then Apple's shape;
    /// and a receipt whose checks 1 to 8 pass but whose bundle id is wrong. Expected: the cache stays empty
    /// through the failures; the good receipt is its first entry. The wrong bundle id is refused, from the warm
    /// verifier as from the cold one, and its envelope may then answer for a receipt with the right one (the
    /// cache remembers checks 2 to 8, which passed, as the token chain cache does after check 10).
    @Test("nothing enters the cache from a receipt that failed checks 1 to 8")
    func failuresNeverEnter() throws {
        let fixture = try Fixture.get()
        let pair = try Pair()
        var failures = 0
        for crafted in try CraftedReceipts.all.get() {
            let cold = crafted.outcome(pair.cold)
            guard !cold.passedSignatureChecks else { continue }
            failures += 1
            #expect(crafted.outcome(pair.warm) == cold, "\(crafted.id)")
            #expect(pair.warm.cacheStatistics == (0, 0, 0), "\(crafted.id) touched the cache")
        }
        #expect(failures >= 30)
        let wrongBundle = try ReceiptSigner(hierarchy: fixture.pki).sign(
            content: Fixture.content(bundleId: "com.example.other"))
        let refused = pair.judge(wrongBundle, expect: .invalidAppIdentifier, "wrong bundle id")
        #expect(refused.entries == 1)
        #expect(pair.judge(wrongBundle, expect: .invalidAppIdentifier, "wrong bundle id again").hits == 1)
        #expect(pair.judge(try fixture.good(), expect: nil, "good after").hits == 1)
    }

    /// Input: a verifier remembering one chain, given receipts of two envelopes in turn. Expected: every verdict
    /// as cold; never more than one entry.
    @Test("eviction keeps every verdict")
    func eviction() throws {
        let fixture = try Fixture.get()
        let pair = try Pair(capacity: 1)
        let a = try fixture.good()
        let b = try fixture.good(digest: .sha1)
        let bad = try ReceiptSurgery.flipSignature(a)
        for (index, receipt) in [a, b, a, bad, b, bad, a].enumerated() {
            pair.judge(receipt, expect: receipt == bad ? .invalidSignature : nil, "receipt \(index)")
            #expect(pair.warm.cacheStatistics.count <= 1)
        }
    }

    /// Input: Xcode-style receipts of a self-signed StoreKit certificate, DER (which the envelope scan reads)
    /// and BER, to a verifier pinning that certificate, twice each, and one signed by another StoreKit
    /// certificate. Expected: verified, verified, untrustedChain, each as cold; a pinned certificate's
    /// receipts never enter the cache.
    @Test("receipts verified against a pinned Xcode certificate are never remembered")
    func xcodeNeverCached() throws {
        let credential = try TestHierarchy.makeXcodeStoreKitCertificate()
        let other = try TestHierarchy.makeXcodeStoreKitCertificate()
        func make(_ capacity: Int) throws -> AppReceiptVerifier {
            try AppReceiptVerifier(
                bundleId: Fixture.bundleId, environments: [.xcode], xcodeCertificate: credential.certificate.der,
                chainCacheCapacity: capacity)
        }
        let warm = try make(64)
        let cold = try make(0)
        let content = Fixture.content(receiptType: "Xcode")
        let der = try ReceiptSigner.xcode(credential).sign(content: content, options: .init(encoding: .der))
        #expect(ReceiptEnvelope.scan(der) != nil)
        let ber = try ReceiptSigner.xcode(credential).sign(content: content)
        let foreign = try ReceiptSigner.xcode(other).sign(content: content)
        for (label, receipt, code) in [
            ("DER", der, nil), ("BER", ber, nil), ("DER again", der, nil),
            ("other certificate", foreign, .untrustedChain),
        ] as [(String, [UInt8], VerificationError.Code?)] {
            let observed = warm.outcome(receipt)
            #expect(observed == cold.outcome(receipt), "\(label)")
            #expect(observed.code == code, "\(label): \(observed)")
            #expect(warm.cacheStatistics == (0, 0, 0), "\(label)")
        }
    }
}
