import Foundation
import JWSVerifyTesting
import Testing

@testable import JWSVerify

/// A new leaf under a known intermediate is first checked on its own (`leaf.c`) instead of by
/// OpenSSL's X509_verify_cert. The check may only accept what X509_verify_cert accepts: these tests
/// compare the two on valid leaves, on leaves altered in each way the check looks at, and on every
/// one-bit change of a leaf's bytes, with the intermediate's key on OpenSSL's path and with its
/// fixed-base table.
@Suite("Leaf check under a known intermediate")
struct LeafCheckTests {
    static let time: Int64 = 1_780_000_000  // 2026-05-28, inside the test PKI's validity

    struct Setup {
        let pki: TestHierarchy
        let intermediate: Certificate
        let intermediateKey: PublicKey
        let roots: TrustStore
    }

    static func setUp(table: Bool) throws -> Setup {
        let pki = try TestHierarchy.generate(.appStoreEC, seed: 11)
        let intermediate = try #require(Certificate(der: Array(pki.intermediate.der)))
        let key = try #require(intermediate.publicKey)
        if table { #expect(key.prepareFixedBaseTable()) }
        #expect(key.hasFixedBaseTable == table)
        let root = try #require(Certificate(der: Array(pki.root.der)))
        return Setup(
            pki: pki, intermediate: intermediate, intermediateKey: key, roots: try #require(TrustStore(roots: [root])))
    }

    /// OpenSSL's verdict on the full chain [leaf, intermediate, root] with the test root as the only
    /// trust anchor: the verification the check stands in for.
    static func openSSLAccepts(_ der: [UInt8], _ setup: Setup, at time: Int64 = time) -> Bool {
        guard let leaf = Certificate(der: der),
            case .success(let verdict) = setup.roots.verify(leaf: leaf, intermediate: setup.intermediate, at: time)
        else { return false }
        return verdict.trustFailure == nil && verdict.timeFailure == nil && verdict.chainLength == 3
            && verdict.passesThroughIntermediate
    }

    static func checkAccepts(_ der: [UInt8], _ setup: Setup, at time: Int64 = time) -> Bool {
        guard let leaf = Certificate(p256LeafDER: der) else { return false }
        return leaf.check(under: setup.intermediate, key: setup.intermediateKey, at: time) == .accepted
    }

    static func issue(
        _ setup: Setup, subject: TestDistinguishedName? = nil, issuerName: TestDistinguishedName? = nil,
        digest: TestDigest = .sha384, isCA: Bool = false, keyUsage: TestKeyUsage = .digitalSignature,
        keyIdentifiers: Bool = true, validity: ClosedRange<Date>? = nil, curve: TestCurve = .p256,
        signer: TestPrivateKey? = nil, seed: UInt64
    ) throws -> [UInt8] {
        let issuer = setup.pki.intermediateCredential
        let issuerKey = try #require(issuer.privateKey.ec)
        let key = try TestPrivateKey.generate(curve: curve, seed: seed, label: "leaf-check")
        let validity = validity ?? issuer.certificate.notBefore...issuer.certificate.notAfter
        let spec = TestCertificateSpec(
            subject: subject ?? TestHierarchy.AppStoreEC.leafName, issuer: issuerName ?? issuer.certificate.subject,
            serialNumber: Data([0x01, UInt8(truncatingIfNeeded: seed)]), notBefore: validity.lowerBound,
            notAfter: validity.upperBound, signatureDigest: digest, isCertificateAuthority: isCA,
            keyUsage: keyUsage, includeSubjectKeyIdentifier: keyIdentifiers,
            includeAuthorityKeyIdentifier: keyIdentifiers, appleMarkerOID: "1.2.840.113635.100.6.11.1")
        return Array(try TestCertificate.issue(spec, subjectKey: key, issuerKey: signer ?? issuerKey).der)
    }

    @Test("leaves OpenSSL accepts are accepted; every other variant is set aside", arguments: [false, true])
    func variants(table: Bool) throws {
        let setup = try Self.setUp(table: table)
        let issuer = setup.pki.intermediateCredential.certificate
        var otherName = issuer.subject
        otherName.commonName = "Another Intermediate NOT APPLE"
        let impostor = try TestPrivateKey.generate(curve: .p384, seed: 5, label: "impostor")
        let at = { (seconds: Int64) in Date(timeIntervalSince1970: TimeInterval(seconds)) }
        // (name, DER, time, what the check must answer)
        let variants: [(String, [UInt8], Int64, Bool)] = [
            ("Apple's profile", try Self.issue(setup, seed: 1), Self.time, true),
            ("ecdsa-with-SHA256", try Self.issue(setup, digest: .sha256, seed: 2), Self.time, true),
            ("no key identifiers", try Self.issue(setup, keyIdentifiers: false, seed: 3), Self.time, true),
            // Accepted by X509_verify_cert, but not a kind of leaf Apple issues: set aside, and the full
            // path accepts it.
            (
                "a CA leaf", try Self.issue(setup, isCA: true, keyUsage: [.digitalSignature, .keyCertSign], seed: 4),
                Self.time, false
            ),
            (
                "valid from exactly now",
                try Self.issue(setup, validity: at(Self.time)...at(Self.time + 86_400), seed: 5),
                Self.time, true
            ),
            ("issuer name of another CA", try Self.issue(setup, issuerName: otherName, seed: 6), Self.time, false),
            ("signed by another key", try Self.issue(setup, signer: impostor, seed: 7), Self.time, false),
            (
                "self-issued (the intermediate's name)", try Self.issue(setup, subject: issuer.subject, seed: 8),
                Self.time, false
            ),
            (
                "expired", try Self.issue(setup, validity: at(1_600_000_000)...at(1_700_000_000), seed: 9), Self.time,
                false
            ),
            (
                "expires exactly now",
                try Self.issue(setup, validity: at(Self.time - 86_400)...at(Self.time), seed: 10),
                Self.time, false
            ),
            (
                "not yet valid", try Self.issue(setup, validity: at(Self.time + 1)...at(Self.time + 86_400), seed: 11),
                Self.time, false
            ),
            ("a P-384 key", try Self.issue(setup, curve: .p384, seed: 12), Self.time, false),
        ]
        for (name, der, time, expected) in variants {
            let openSSL = Self.openSSLAccepts(der, setup, at: time)
            let check = Self.checkAccepts(der, setup, at: time)
            #expect(check == expected, "\(name): the check answered \(check)")
            #expect(!check || openSSL, "\(name): accepted by the check, refused by X509_verify_cert")
            if expected { #expect(openSSL, "\(name): X509_verify_cert refuses it") }
        }
        // The signature of an accepted leaf was checked with the table when there is one.
        #expect(setup.intermediateKey.hasFixedBaseTable == table)
    }

    @Test("no one-bit change of a leaf is accepted unless X509_verify_cert accepts it", arguments: [false, true])
    func bitFlips(table: Bool) throws {
        let setup = try Self.setUp(table: table)
        let valid = try Self.issue(setup, seed: 21)
        #expect(Self.checkAccepts(valid, setup) && Self.openSSLAccepts(valid, setup))
        var parsed = 0
        var accepted = 0
        for index in valid.indices {
            for bit in [0, 5] {
                var changed = valid
                changed[index] ^= UInt8(1 << bit)
                let check = Self.checkAccepts(changed, setup)
                if Certificate(der: changed) != nil { parsed += 1 }
                if check { accepted += 1 }
                #expect(!check || Self.openSSLAccepts(changed, setup), "byte \(index) bit \(bit)")
            }
        }
        // Most changes still parse (names, dates, key and signature bytes); none of them still verifies.
        #expect(parsed > valid.count / 2)
        #expect(accepted == 0)
    }

    /// The parts of a DER certificate: the TBSCertificate and the signature AlgorithmIdentifier, each
    /// as its whole TLV (definite lengths only).
    static func split(_ der: [UInt8]) -> (tbs: [UInt8], algorithm: [UInt8])? {
        func element(at start: Int) -> Range<Int>? {
            guard start + 2 <= der.count else { return nil }
            var length = Int(der[start + 1])
            var header = 2
            if length & 0x80 != 0 {
                let count = length & 0x7F
                guard count >= 1, count <= 3, start + 2 + count <= der.count else { return nil }
                length = der[(start + 2)..<(start + 2 + count)].reduce(0) { $0 << 8 | Int($1) }
                header += count
            }
            guard start + header + length <= der.count else { return nil }
            return start..<(start + header + length)
        }
        guard let outer = element(at: 0), outer.count == der.count else { return nil }
        let contentStart = (der[1] & 0x80 != 0 ? 2 + Int(der[1] & 0x7F) : 2)
        guard let tbs = element(at: contentStart), let algorithm = element(at: tbs.upperBound) else { return nil }
        return (Array(der[tbs]), Array(der[algorithm]))
    }

    /// A DER TLV with a definite length.
    static func tlv(_ tag: UInt8, _ content: [UInt8]) -> [UInt8] {
        let count = content.count
        let length: [UInt8] =
            count < 0x80
            ? [UInt8(count)]
            : count < 0x100 ? [0x81, UInt8(count)] : [0x82, UInt8(count >> 8), UInt8(count & 0xFF)]
        return [tag] + length + content
    }

    /// Every one-bit change of the TBSCertificate, signed again by the intermediate's own key: each
    /// change that still parses reaches the check's name, key identifier, extension, date and key
    /// checks with a valid signature, where X509_verify_cert decides too.
    @Test("no re-signed one-bit change of a leaf is accepted unless X509_verify_cert accepts it")
    func resignedBitFlips() throws {
        let setup = try Self.setUp(table: true)
        let valid = try Self.issue(setup, seed: 31)
        let parts = try #require(Self.split(valid))
        let signer = try #require(setup.pki.intermediateKey.ec)
        var accepted = 0
        var setAside = 0
        for index in parts.tbs.indices {
            for bit in [0, 6] {
                var tbs = parts.tbs
                tbs[index] ^= UInt8(1 << bit)
                let signature = Array(try signer.signDER(Data(tbs), digest: .sha384))
                let der = Self.tlv(0x30, tbs + parts.algorithm + Self.tlv(0x03, [0] + signature))
                let check = Self.checkAccepts(der, setup)
                let openSSL = Self.openSSLAccepts(der, setup)
                #expect(!check || openSSL, "TBS byte \(index) bit \(bit): accepted by the check only")
                if check { accepted += 1 } else if openSSL { setAside += 1 }
            }
        }
        // The unchanged TBSCertificate, signed again, is accepted by both (the assembly is right).
        let resigned = Self.tlv(
            0x30,
            parts.tbs + parts.algorithm
                + Self.tlv(0x03, [0] + Array(try signer.signDER(Data(parts.tbs), digest: .sha384))))
        #expect(Self.checkAccepts(resigned, setup) && Self.openSSLAccepts(resigned, setup))
        // Many changes (serial, names, key identifiers, dates that still hold) stay valid and reach
        // the end of the check; some that X509_verify_cert accepts are set aside (then it decides).
        #expect(accepted > 100, "accepted \(accepted), set aside \(setAside)")
    }

    @Test("a hot intermediate gets its table and still refuses a forged leaf")
    func hotIntermediate() throws {
        let (pki, verifier) = try IntermediateCacheTests.setUp()
        #expect(verifier.verifyAndDecodeTransaction(try IntermediateCacheTests.token(pki)).isVerified)
        for seed in 1...Int(PublicKey.issuerTableThreshold) + 1 {
            let other = pki.replacing(leaf: try pki.makeLeaf(seed: UInt64(100 + seed)))
            let result = verifier.verifyAndDecodeTransaction(try IntermediateCacheTests.token(other))
            #expect(result.isVerified, "leaf \(seed): \(String(describing: result.error))")
        }
        #expect(verifier.cachedIntermediateKeysWithFixedBaseTable == 1)
        let impostor = try pki.makeIntermediate(seed: 4321)
        let forged = pki.replacing(leaf: try pki.makeLeaf(issuer: impostor, seed: 77))
        #expect(
            verifier.verifyAndDecodeTransaction(try IntermediateCacheTests.token(forged)).error?.code == .untrustedChain
        )
        let expired = pki.replacing(
            leaf: try pki.makeLeaf(
                validity: Date(timeIntervalSince1970: 1_600_000_000)...Date(timeIntervalSince1970: 1_700_000_000),
                seed: 78))
        #expect(
            verifier.verifyAndDecodeTransaction(try IntermediateCacheTests.token(expired)).error?.code
                == .certificateExpired)
    }

    /// Input: 8 threads verifying 48 new leaves (and 16 forged ones) under one cached intermediate,
    /// so that its key crosses `PublicKey.issuerTableThreshold` while other threads check leaves
    /// with it. Expected: every verdict right, the intermediate's table at the end. Run under
    /// ThreadSanitizer by `.ci/run` (the table is published with C11 atomics: built once, read by all).
    @Test("threads checking new leaves while the intermediate gets its table")
    func concurrentNewLeaves() throws {
        let (pki, verifier) = try IntermediateCacheTests.setUp()
        #expect(verifier.verifyAndDecodeTransaction(try IntermediateCacheTests.token(pki)).isVerified)
        let impostor = try pki.makeIntermediate(seed: 4322)
        let tokens: [(token: String, valid: Bool)] = try (0..<64).map { index in
            let forged = index % 4 == 3
            let leaf = try pki.makeLeaf(issuer: forged ? impostor : nil, seed: UInt64(1_000 + index))
            return (try IntermediateCacheTests.token(pki.replacing(leaf: leaf)), !forged)
        }
        let wrong = ReadWriteLocked<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for index in stride(from: thread, to: tokens.count, by: 8) {
                let result = verifier.verifyAndDecodeTransaction(tokens[index].token)
                let expected: VerificationError.Code? = tokens[index].valid ? nil : .untrustedChain
                if result.error?.code != expected {
                    wrong.write { $0.append("token \(index): \(String(describing: result.error?.code))") }
                }
            }
        }
        #expect(wrong.read { $0 } == [])
        #expect(verifier.cachedIntermediateKeysWithFixedBaseTable == 1)
    }
}
