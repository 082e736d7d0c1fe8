import CJWSOpenSSL
import Foundation
import JWSVerifyTesting
import Testing

@testable import JWSVerify

/// The allow-lists of the leaf check (`leaf.c`), one branch per case: a leaf under a known
/// intermediate is accepted on its own only when it carries exactly the kinds of extension Apple's
/// leaves carry, and only under an intermediate and root that cannot constrain it. Each case states
/// what the check must answer (accepted, or the first rule it sets the leaf aside by) and is compared
/// with `X509_verify_cert` on the full chain, so that removing any one rule fails a case: a leaf
/// OpenSSL refuses would be accepted or set aside by a later rule, a leaf OpenSSL accepts would be
/// accepted instead of set aside.
@Suite("Leaf check allow-lists")
struct LeafAllowListTests {
    static let time: Int64 = 1_780_000_000  // 2026-05-28
    static let from = CraftedHierarchy.from
    static let until = CraftedHierarchy.until

    /// The crafted hierarchy, with its root and intermediate parsed and the trust store of its root.
    struct Setup: Sendable {
        let crafted: CraftedHierarchy
        let root: Certificate
        let intermediate: Certificate
        let intermediateKeyForChecks: PublicKey
        let store: TrustStore

        var rootKey: TestPrivateKey { crafted.rootKey }
        var intermediateKey: TestPrivateKey { crafted.intermediateKey }
        var leafKey: TestPrivateKey { crafted.leafKey }
        var rootName: CraftedName { crafted.rootName }
        var intermediateName: CraftedName { crafted.intermediateName }
        var leafName: CraftedName { crafted.leafName }
    }

    static let setup: Setup = CraftedHierarchy.fixture {
        let crafted = try CraftedHierarchy(label: "Allow-list", seed: 41)
        guard let root = Certificate(der: Array(crafted.root)),
            let intermediate = Certificate(der: Array(crafted.intermediate)), let key = intermediate.publicKey,
            let store = TrustStore(roots: [root])
        else { fatalError("setup: the crafted hierarchy does not parse") }
        return Setup(
            crafted: crafted, root: root, intermediate: intermediate, intermediateKeyForChecks: key, store: store)
    }

    /// A leaf of Apple's profile under the test intermediate, changed by `change`, signed by the
    /// intermediate.
    static func leaf(_ change: (inout CraftedCertificate) throws -> Void = { _ in }) throws -> [UInt8] {
        var certificate = try CraftedCertificate.leafProfile(
            name: setup.leafName, issuer: setup.intermediateName, publicKey: .key(setup.leafKey),
            issuerKey: setup.intermediateKey, notBefore: from, notAfter: until)
        try change(&certificate)
        return Array(try certificate.sign(with: setup.intermediateKey))
    }

    static func openSSLAccepts(_ der: [UInt8], at time: Int64 = time) -> Bool {
        guard let leaf = Certificate(der: der),
            case .success(let verdict) = setup.store.verify(leaf: leaf, intermediate: setup.intermediate, at: time)
        else { return false }
        return verdict.trustFailure == nil && verdict.timeFailure == nil && verdict.chainLength == 3
            && verdict.passesThroughIntermediate
    }

    static func check(_ der: [UInt8], at time: Int64 = time) -> Certificate.QuickCheck? {
        Certificate(p256LeafDER: der)?.check(under: setup.intermediate, key: setup.intermediateKeyForChecks, at: time)
    }

    struct LeafCase: Sendable, CustomTestStringConvertible {
        let name: String
        let der: [UInt8]
        /// What the check must answer; nil when the key-less parse itself must refuse the leaf.
        let expected: Certificate.QuickCheck?
        /// X509_verify_cert's verdict on the full chain.
        let openSSL: Bool
        var testDescription: String { name }
    }

    static func extra(_ extensions: TestExtension...) -> (inout CraftedCertificate) throws -> Void {
        { $0.extensions += extensions }
    }

    static let unknownOID = "1.3.6.1.4.1.55555.1"

    static let leafCases: [LeafCase] = {
        do {
            let otherKey = try TestPrivateKey.generate(curve: .p384, seed: 42, label: "allow-list-impostor")
            let cases: [(String, [UInt8], Certificate.QuickCheck?, Bool)] = [
                ("Apple's profile", try leaf(), .accepted, true),
                ("ecdsa-with-SHA256", try leaf { $0.signatureDigest = .sha256 }, .accepted, true),
                (
                    "certificate policies and CRL distribution points",
                    try leaf(
                        extra(
                            try .certificatePolicies(["1.2.840.113635.100.5.6.1"]),
                            TestExtension(
                                oid: "2.5.29.31", critical: false,
                                value: Data([
                                    0x30, 0x19, 0x30, 0x17, 0xA0, 0x15, 0xA0, 0x13, 0x86, 0x11, 0x68, 0x74, 0x74,
                                    0x70, 0x3A, 0x2F, 0x2F, 0x63, 0x72, 0x6C, 0x2E, 0x69, 0x6E, 0x76, 0x61, 0x6C,
                                    0x69, 0x64,
                                ])))), .accepted, true
                ),
                // Refused by X509_verify_cert: the check must not accept them.
                (
                    "an unknown critical extension",
                    try leaf(extra(TestExtension(oid: unknownOID, critical: true, value: Data([0x05, 0x00])))),
                    .setAside(.flags), false
                ),
                (
                    "Apple's marker, critical", try leaf(extra(.appleLeafMarker(critical: true))), .setAside(.flags),
                    false
                ),
                (
                    "RFC 3779 addresses its issuer lacks",
                    try leaf(extra(.ipAddressBlocks([.ipv4([.init([10], length: 8)])]))), .setAside(.extensions), false
                ),
                (
                    "RFC 3779 AS numbers its issuer lacks",
                    try leaf(extra(.autonomousSystemNumbers([64_512...64_520]))), .setAside(.extensions), false
                ),
                (
                    "a duplicate keyUsage (invalid to OpenSSL)",
                    try leaf(extra(.keyUsage([.digitalSignature]))), .setAside(.flags), false
                ),
                (
                    "a keyUsage that does not decode",
                    try leaf(
                        extra(TestExtension(oid: TestExtension.keyUsageOID, critical: true, value: Data([0x05, 0x00])))),
                    .setAside(.flags), false
                ),
                (
                    "a proxy certificate",
                    try leaf(
                        extra(
                            TestExtension(
                                oid: "1.3.6.1.5.5.7.1.14", critical: true,
                                value: Data([
                                    0x30, 0x0E, 0x30, 0x0C, 0x06, 0x08, 0x2B, 0x06, 0x01, 0x05, 0x05, 0x07, 0x15, 0x01,
                                    0x04, 0x00,
                                ])))),
                    .setAside(.flags), false
                ),
                (
                    "issued under another name", try leaf { $0.issuer = setup.rootName }, .setAside(.notIssued), false
                ),
                (
                    "an authority key identifier of another key",
                    try leaf {
                        $0.extensions = $0.extensions.map {
                            $0.oid == TestExtension.authorityKeyIdentifierOID
                                ? .authorityKeyIdentifier(Data(repeating: 7, count: 20)) : $0
                        }
                    }, .setAside(.notIssued), false
                ),
                ("not yet valid", try leaf { $0.notBefore = time + 1 }, .setAside(.time), false),
                ("expired exactly now", try leaf { $0.notAfter = time }, .setAside(.time), false),
                (
                    "signed by another key",
                    Array(
                        try CraftedCertificate.leafProfile(
                            name: setup.leafName, issuer: setup.intermediateName, publicKey: .key(setup.leafKey),
                            issuerKey: setup.intermediateKey, notBefore: from, notAfter: until
                        ).sign(with: otherKey)), .setAside(.signature), false
                ),
                // Accepted by X509_verify_cert, but not a kind of leaf Apple issues: set aside, and the
                // full path decides.
                (
                    "a CA leaf",
                    try leaf {
                        $0.extensions[0] = .basicConstraints(ca: true)
                        $0.extensions[1] = .keyUsage([.digitalSignature, .keyCertSign])
                    }, .setAside(.flags), true
                ),
                (
                    "a path length on a leaf",
                    try leaf { $0.extensions[0] = .basicConstraints(ca: false, pathLength: 3) }, .setAside(.profile),
                    true
                ),
                (
                    "a subjectAltName", try leaf(extra(.subjectAltName([.dnsName("example.com")]))),
                    .setAside(.extensions),
                    true
                ),
                (
                    "an extended key usage", try leaf(extra(try .extendedKeyUsage(["1.3.6.1.5.5.7.3.3"]))),
                    .setAside(.extensions), true
                ),
                (
                    "an unknown non-critical extension",
                    try leaf(extra(TestExtension(oid: unknownOID, critical: false, value: Data([0x05, 0x00])))),
                    .setAside(.extensions), true
                ),
                (
                    "self-issued (the intermediate's name)", try leaf { $0.subject = setup.intermediateName },
                    .setAside(.flags), true
                ),
                // No extension at all is a subset of Apple's kinds (check 8 then refuses it for the marker).
                ("a certificate without extensions", try leaf { $0.extensions = [] }, .accepted, true),
                // Keys the key-less parse does not build: the usual parse and the full path decide.
                (
                    "a compressed P-256 point",
                    try leaf { $0.publicKey = .key(setup.leafKey, form: .compressed) }, nil, true
                ),
                ("a P-384 key", try leaf { $0.publicKey = .key(setup.intermediateKey) }, nil, true),
                ("the point at infinity", try leaf { $0.publicKey = .p256PointAtInfinity }, nil, true),
            ]
            return cases.map { LeafCase(name: $0.0, der: $0.1, expected: $0.2, openSSL: $0.3) }
        } catch {
            fatalError("leaf cases: \(error)")
        }
    }()

    /// Input: each leaf case. Expected: the check's answer as stated, never accepting what
    /// X509_verify_cert on the full chain refuses, and OpenSSL's verdict as stated.
    @Test("each leaf gets the stated answer", arguments: leafCases)
    func leafAnswers(_ leafCase: LeafCase) {
        let answer = Self.check(leafCase.der)
        #expect(answer == leafCase.expected, "\(leafCase.name): the check answered \(String(describing: answer))")
        #expect(Self.openSSLAccepts(leafCase.der) == leafCase.openSSL, "\(leafCase.name): OpenSSL")
        #expect(
            answer != .accepted || Self.openSSLAccepts(leafCase.der), "\(leafCase.name): accepted by the check only")
    }

    // MARK: - Signature algorithms and key encodings, by DER surgery

    /// The three elements of a DER certificate (TBSCertificate, signatureAlgorithm, signatureValue),
    /// each as its whole TLV.
    static func elements(_ der: [UInt8]) -> [[UInt8]] {
        var parts: [[UInt8]] = []
        var offset = 1 + lengthOfLength(der, at: 1)
        while offset < der.count {
            let end = offset + 1 + lengthOfLength(der, at: offset + 1) + contentLength(der, at: offset + 1)
            parts.append(Array(der[offset..<end]))
            offset = end
        }
        return parts
    }

    /// How many bytes the length at `index` takes.
    static func lengthOfLength(_ der: [UInt8], at index: Int) -> Int {
        der[index] & 0x80 == 0 ? 1 : 1 + Int(der[index] & 0x7F)
    }

    static func contentLength(_ der: [UInt8], at index: Int) -> Int {
        guard der[index] & 0x80 != 0 else { return Int(der[index]) }
        return der[(index + 1)..<(index + 1 + Int(der[index] & 0x7F))].reduce(0) { $0 << 8 | Int($1) }
    }

    static func tlv(_ tag: UInt8, _ content: [UInt8]) -> [UInt8] {
        let count = content.count
        let length: [UInt8] =
            count < 0x80
            ? [UInt8(count)] : count < 0x100 ? [0x81, UInt8(count)] : [0x82, UInt8(count >> 8), UInt8(count & 0xFF)]
        return [tag] + length + content
    }

    /// ecdsa-with-SHA384 as Apple writes it (no parameters), and variants.
    static let ecdsaSHA384: [UInt8] = [0x30, 0x0A, 0x06, 0x08, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x04, 0x03, 0x03]
    static let ecdsaSHA384WithNull: [UInt8] = [
        0x30, 0x0C, 0x06, 0x08, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x04, 0x03, 0x03, 0x05, 0x00,
    ]
    static let ecdsaSHA256: [UInt8] = [0x30, 0x0A, 0x06, 0x08, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x04, 0x03, 0x02]
    static let ecdsaSHA224: [UInt8] = [0x30, 0x0A, 0x06, 0x08, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x04, 0x03, 0x01]

    /// Apple's leaf with its TBSCertificate's inner algorithm replaced by `inner` and signed again by
    /// the intermediate, then `outer` as the certificate's algorithm; `unusedBits` in the signature.
    static func resigned(inner: [UInt8], outer: [UInt8], unusedBits: UInt8 = 0) throws -> [UInt8] {
        let tbs = elements(try leaf())[0]
        let body = Array(tbs[(1 + lengthOfLength(tbs, at: 1))...])
        guard
            let at = (0...(body.count - ecdsaSHA384.count)).first(where: {
                Array(body[$0..<($0 + ecdsaSHA384.count)]) == ecdsaSHA384
            })
        else { return [] }
        let newTBS = tlv(0x30, Array(body[..<at]) + inner + Array(body[(at + ecdsaSHA384.count)...]))
        let signature = Array(try setup.intermediateKey.signDER(Data(newTBS), digest: .sha384))
        return tlv(0x30, newTBS + outer + tlv(0x03, [unusedBits] + signature))
    }

    struct EncodingCase: Sendable, CustomTestStringConvertible {
        let name: String
        let der: [UInt8]
        /// What the check must answer; nil when the key-less parse must refuse the leaf.
        let expected: Certificate.QuickCheck?
        var testDescription: String { name }
    }

    static let encodingCases: [EncodingCase] = {
        do {
            let leafSPKI = setup.leafKey.publicKeyDER
            var unusedBitsKey = Array(leafSPKI)
            // The BIT STRING of a P-256 SPKI: 03 42 00 04 ...; its unused-bits octet is the third byte
            // from the point's start.
            if let bitString = (0..<(unusedBitsKey.count - 2)).first(where: {
                unusedBitsKey[$0] == 0x03 && unusedBitsKey[$0 + 1] == 0x42 && unusedBitsKey[$0 + 2] == 0x00
            }) {
                unusedBitsKey[bitString + 2] = 0x01
            }
            let ed25519: [UInt8] =
                [0x30, 0x2A, 0x30, 0x05, 0x06, 0x03, 0x2B, 0x65, 0x70, 0x03, 0x21, 0x00]
                + Array(repeating: 0x11, count: 32)
            let cases: [(String, [UInt8], Certificate.QuickCheck?)] = [
                ("the profile, re-assembled", try resigned(inner: ecdsaSHA384, outer: ecdsaSHA384), .accepted),
                (
                    "outer algorithm differs from the inner", try resigned(inner: ecdsaSHA384, outer: ecdsaSHA256),
                    .setAside(.signature)
                ),
                (
                    "NULL parameters in both algorithms",
                    try resigned(inner: ecdsaSHA384WithNull, outer: ecdsaSHA384WithNull), .setAside(.signature)
                ),
                ("ecdsa-with-SHA224", try resigned(inner: ecdsaSHA224, outer: ecdsaSHA224), .setAside(.signature)),
                (
                    "unused bits in the signature",
                    try resigned(inner: ecdsaSHA384, outer: ecdsaSHA384, unusedBits: 1), .setAside(.signature)
                ),
                (
                    "explicit curve parameters",
                    try leaf { $0.publicKey = .key(setup.leafKey, explicitParameters: true) }, nil
                ),
                ("unused bits in the key", try leaf { $0.publicKey = .subjectPublicKeyInfo(Data(unusedBitsKey)) }, nil),
                ("an Ed25519 key", try leaf { $0.publicKey = .subjectPublicKeyInfo(Data(ed25519)) }, nil),
            ]
            return cases.map { EncodingCase(name: $0.0, der: $0.1, expected: $0.2) }
        } catch {
            fatalError("encoding cases: \(error)")
        }
    }()

    /// Input: leaves whose signature algorithm or key encoding differs from Apple's. Expected: the
    /// stated answer (accepted only for Apple's encoding), never accepting what X509_verify_cert on
    /// the full chain refuses.
    @Test("signature algorithms and key encodings other than Apple's are set aside", arguments: encodingCases)
    func encodings(_ encodingCase: EncodingCase) {
        #expect(!encodingCase.der.isEmpty, "\(encodingCase.name): the certificate was built")
        let answer = Self.check(encodingCase.der)
        #expect(answer == encodingCase.expected, "\(encodingCase.name): \(String(describing: answer))")
        #expect(answer != .accepted || Self.openSSLAccepts(encodingCase.der), "\(encodingCase.name)")
    }

    /// Input: the C entry points of the leaf check with nothing, a leaf followed by one more byte, and
    /// the leaf in BER with an indefinite-length outer SEQUENCE (which OpenSSL parses, but whose
    /// TBSCertificate the check does not locate). Expected: no certificate, no answer but "set aside",
    /// and the reason says why.
    @Test("the C entry points refuse what they cannot take")
    func entryPointEdges() throws {
        var key: OpaquePointer?
        #expect(cjws_x509_from_der_p256_leaf(nil, 0, &key) == nil && key == nil)
        let der = try Self.leaf()
        #expect(Certificate(p256LeafDER: der + [0x00]) == nil, "a byte after the certificate")
        #expect(cjws_ca_cannot_constrain_leaves(nil) == 0)
        var reason: Int32 = -1
        let leaf = try #require(Certificate(p256LeafDER: der))
        let verdict = der.withUnsafeBytes {
            cjws_leaf_accepted_under(leaf.pointer, $0.baseAddress, $0.count, nil, nil, Self.time, &reason)
        }
        #expect(verdict == 0 && reason == CJWS_LEAF_UNAVAILABLE)
        // 30 80 <TBSCertificate> <algorithm> <signature> 00 00.
        let indefinite = [0x30, 0x80] + Self.elements(der).joined() + [0x00, 0x00]
        let indefiniteLeaf = try #require(Certificate(p256LeafDER: indefinite))
        #expect(
            indefiniteLeaf.check(
                under: Self.setup.intermediate, key: Self.setup.intermediateKeyForChecks, at: Self.time)
                == .setAside(.signature))
        // Indefinite length inside: the TBSCertificate's own header.
        let parts = Self.elements(der)
        let tbsBody = Array(parts[0][(1 + Self.lengthOfLength(parts[0], at: 1))...])
        let innerIndefinite = Self.tlv(0x30, [0x30, 0x80] + tbsBody + [0x00, 0x00] + parts[1] + parts[2])
        let innerIndefiniteLeaf = try #require(Certificate(p256LeafDER: innerIndefinite))
        #expect(
            innerIndefiniteLeaf.check(
                under: Self.setup.intermediate, key: Self.setup.intermediateKeyForChecks, at: Self.time)
                == .setAside(.signature))
    }

    struct AuthorityCase: Sendable, CustomTestStringConvertible {
        let name: String
        let extra: [TestExtension]
        let cannotConstrain: Bool
        var testDescription: String { name }
    }

    static let authorityCases: [AuthorityCase] = {
        do {
            let constraints = TestExtension.nameConstraints(
                permitted: [.directoryName(try CraftedName([.organization("Good Org")]))], excluded: [])
            return [
                AuthorityCase(name: "the profile", extra: [], cannotConstrain: true),
                AuthorityCase(
                    name: "certificate policies", extra: [try .certificatePolicies(["2.5.29.32.0"])],
                    cannotConstrain: true),
                AuthorityCase(
                    name: "a subjectAltName", extra: [.subjectAltName([.dnsName("ca.example")])], cannotConstrain: true),
                AuthorityCase(name: "name constraints", extra: [constraints], cannotConstrain: false),
                AuthorityCase(
                    name: "policy constraints",
                    extra: [.policyConstraints(requireExplicitPolicy: 0, inhibitPolicyMapping: nil)],
                    cannotConstrain: false),
                AuthorityCase(name: "inhibitAnyPolicy", extra: [.inhibitAnyPolicy(0)], cannotConstrain: false),
                AuthorityCase(
                    name: "policy mappings",
                    extra: [
                        TestExtension(
                            oid: "2.5.29.33", critical: true,
                            value: Data([0x30, 0x0A, 0x30, 0x08, 0x06, 0x02, 0x2A, 0x03, 0x06, 0x02, 0x2A, 0x04]))
                    ],
                    cannotConstrain: false),
                AuthorityCase(
                    name: "RFC 3779 addresses", extra: [.ipAddressBlocks([.ipv4([.init([10], length: 8)])])],
                    cannotConstrain: false),
                AuthorityCase(
                    name: "RFC 3779 AS numbers", extra: [.autonomousSystemNumbers([1...10])], cannotConstrain: false),
                AuthorityCase(
                    name: "an unknown non-critical extension",
                    extra: [TestExtension(oid: unknownOID, critical: false, value: Data([0x05, 0x00]))],
                    cannotConstrain: false),
                AuthorityCase(
                    name: "Apple's marker, critical", extra: [.appleIntermediateMarker(critical: true)],
                    cannotConstrain: false),
                AuthorityCase(
                    name: "a keyUsage that does not decode",
                    extra: [TestExtension(oid: TestExtension.keyUsageOID, critical: true, value: Data([0x05, 0x00]))],
                    cannotConstrain: false),
            ]
        } catch {
            fatalError("authority cases: \(error)")
        }
    }()

    /// Input: an intermediate and a root of the test profiles with one more extension. Expected: only
    /// extensions that cannot reach a leaf leave them able to take the leaf check.
    @Test("intermediates and roots that could constrain a leaf are refused", arguments: authorityCases)
    func authorities(_ authorityCase: AuthorityCase) throws {
        let setup = Self.setup
        let intermediate = try CraftedCertificate.intermediateProfile(
            name: setup.intermediateName, issuer: setup.rootName, key: setup.intermediateKey, issuerKey: setup.rootKey,
            notBefore: Self.from, notAfter: Self.until, extra: authorityCase.extra
        ).sign(with: setup.rootKey)
        let root = try CraftedCertificate.rootProfile(
            name: setup.rootName, key: setup.rootKey, notBefore: Self.from, notAfter: Self.until,
            extra: authorityCase.extra
        ).sign(with: setup.rootKey)
        let parsedIntermediate = try #require(Certificate(der: Array(intermediate)))
        let parsedRoot = try #require(Certificate(der: Array(root)))
        #expect(parsedIntermediate.cannotConstrainLeaves == authorityCase.cannotConstrain, "intermediate")
        #expect(parsedRoot.cannotConstrainLeaves == authorityCase.cannotConstrain, "root")
        let entry = try #require(IntermediateCache.Entry(parsedIntermediate, under: Self.setup.root))
        #expect(entry.checksNewLeaves == authorityCase.cannotConstrain)
        let rootEntry = try #require(IntermediateCache.Entry(Self.setup.intermediate, under: parsedRoot))
        #expect(rootEntry.checksNewLeaves == authorityCase.cannotConstrain)
    }

    /// Input: the start-up self-test of the C module on this machine's OpenSSL. Expected: both
    /// behaviours hold (else the caches and the leaf check would be off and every path the full one).
    @Test("the self-test finds OpenSSL's behaviour as the fast paths expect")
    func selfTest() {
        #expect(FastPaths.validityRuleHolds)
        #expect(cjws_self_test() & CJWS_SELF_TEST_NEW_LEAF != 0)
    }
}
