import Foundation
import JWSVerifyTesting

@testable import JWSVerify

/// The structured differential of the fuzz target `chains` (issue 15, DESIGN.md "the one-verdict
/// rule"): the input bytes drive a generator of crafted chains — a root from a few profiles (with
/// and without nameConstraints, policyConstraints, inhibitAnyPolicy, RFC 3779 resources,
/// pathLen 0, unknown extensions), an intermediate and a leaf with random valid-DER extension sets,
/// names, keys and key encodings, signature digests and validity windows in both time encodings —
/// and validation times at and around each certificate's boundaries.
///
/// For each case: a warm verifier (it first verified a good token under the same root and
/// intermediate, and keeps whatever earlier cases under them left in its caches), a cold verifier
/// (`chainCacheCapacity: 0`) and OpenSSL's `X509_verify_cert` on the full three-certificate chain.
/// Properties:
/// - warm and cold give the same code and check: for the crafted token new under the cached
///   intermediate, again (chain cache), and at a second time (a chain cached at another time);
/// - a token the verifier accepts has a chain OpenSSL accepts, and a P-256 key that is a point of
///   the curve (not the point at infinity, not off the curve, not P-384);
/// - when OpenSSL rejects the chain, the cold verifier's code is OpenSSL's mapped code
///   (untrustedChain for any non-date error, else certificateExpired) or invalidCertificate,
///   with check `chain`; when OpenSSL accepts, the verifier does not say untrustedChain or
///   certificateExpired.
///
/// ``FuzzEntryPoints/chains(_:)`` stops the process on the first broken property (libFuzzer saves
/// the input); ``violations(_:)`` returns them, for the deterministic test over fixed seeds.
public enum ChainsDifferential {
    /// The first byte of an input in certificate-chain form (``CertificateChainInput``): the seeds
    /// made from x509-limbo's chain cases, and what libFuzzer makes of them.
    public static let certificateChainMarker: UInt8 = 0xC3

    /// The broken properties for one input (empty when every property holds).
    public static func violations(_ bytes: [UInt8]) -> [String] {
        if bytes.first == certificateChainMarker {
            guard let chain = CertificateChainInput(bytes) else { return [] }
            return compare(chain).violations
        }
        var reader = ChainInput(bytes)
        do {
            let chain = try Generator.shared.makeCase(&reader)
            return try chain.check()
        } catch {
            // Certificate generation itself failing is a harness bug, never an input's fault.
            return ["the generator failed: \(error)"]
        }
    }

    /// `count` pseudo-random inputs of `length` bytes from `seed` (SplitMix64), for plain tests.
    public static func seededInput(_ seed: UInt64, length: Int = 96) -> [UInt8] {
        var state = seed &* 0x9E37_79B9_7F4A_7C15 &+ 0x1234_5678
        var output: [UInt8] = []
        while output.count < length {
            state = state &+ 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            z ^= z >> 31
            output += withUnsafeBytes(of: z.littleEndian) { Array($0) }
        }
        return Array(output.prefix(length))
    }
}

/// Reads the input as a stream of choices; past the end every choice is 0 (the default).
struct ChainInput {
    private let bytes: [UInt8]
    private var position = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    mutating func byte() -> UInt8 {
        guard position < bytes.count else { return 0 }
        defer { position += 1 }
        return bytes[position]
    }

    /// 0..<count.
    mutating func choose(_ count: Int) -> Int { count <= 1 ? 0 : Int(byte()) % count }

    /// Whether a choice of one in `odds` came up (0 never does).
    mutating func oneIn(_ odds: Int) -> Bool {
        let value = byte()
        return value != 0 && Int(value) % odds == 0
    }
}

/// The key pool, profiles and built-certificate caches, made once per process.
final class Generator: @unchecked Sendable {
    static let shared = Generator()

    // Fixed for reproducible replays.
    static let bundleId = "com.example.jwsverify"
    /// 2025-01-01 ... 2035-01-01.
    static let wideFrom: Int64 = 1_735_689_600
    static let wideUntil: Int64 = 2_051_222_400
    /// The validity windows certificates choose from (index 0 is the default).
    static let windows: [(from: Int64, until: Int64, encoding: CraftedTimeEncoding?)] = [
        (wideFrom, wideUntil, nil),
        (1_798_761_600, 1_861_920_000, nil),  // 2027-01-01 ... 2029-01-01
        (1_772_323_200, 1_788_220_800, .utcTime),  // 2026-03-01 ... 2026-09-01
        (wideFrom, wideUntil, .generalizedTime),
        (wideFrom, 2_840_140_800, nil),  // ... 2060-01-01 (GeneralizedTime)
        (1_577_836_800, 1_704_067_200, nil),  // 2020 ... 2024: expired
        (1_798_761_617, 1_798_848_017, .generalizedTime),  // one day, odd seconds
    ]

    let issuerKeys: [TestPrivateKey]  // P-256, P-256, P-384
    let leafKeys: [TestPrivateKey]  // P-256
    let p384LeafKey: TestPrivateKey
    private let lock = NSLock()
    private var certificates: [String: Data] = [:]

    private init() {
        do {
            issuerKeys = [
                try TestPrivateKey.generate(curve: .p256, seed: 21, label: "chains-issuer-0"),
                try TestPrivateKey.generate(curve: .p256, seed: 21, label: "chains-issuer-1"),
                try TestPrivateKey.generate(curve: .p384, seed: 21, label: "chains-issuer-2"),
            ]
            leafKeys = try (0..<4).map {
                try TestPrivateKey.generate(curve: .p256, seed: 21, label: "chains-leaf-\($0)")
            }
            p384LeafKey = try TestPrivateKey.generate(curve: .p384, seed: 21, label: "chains-leaf-p384")
        } catch {
            fatalError("chains: the key pool cannot be made: \(error)")
        }
    }

    /// A root's and intermediate's verifiers, shared by every case under them: a warm one (64 chains,
    /// primed with the good token when made, then in whatever state earlier cases left it: the rule
    /// holds for any cache state) and a cold one, with their settable clock.
    struct Verifiers {
        let warm: SignedDataVerifier
        let cold: SignedDataVerifier
        let clock: ChainClock
        let primed: Bool
    }

    private var verifierPool: [String: Verifiers] = [:]

    /// The verifiers for `hierarchy` (a descriptor of root and intermediate), made once; the pool is
    /// emptied when it grows past 512 hierarchies.
    func verifiers(_ hierarchy: String, make: () throws -> Verifiers) throws -> Verifiers {
        if let pooled = lock.withLock({ verifierPool[hierarchy] }) { return pooled }
        let made = try make()
        lock.withLock {
            if verifierPool.count > 512 { verifierPool.removeAll() }
            verifierPool[hierarchy] = made
        }
        return made
    }

    /// The certificate described by `key`, built once (P-384 signing is slow); the cache is
    /// emptied when it grows past 4,096 certificates.
    func certificate(_ key: String, _ make: () throws -> Data) throws -> Data {
        if let cached = lock.withLock({ certificates[key] }) { return cached }
        let made = try make()
        lock.withLock {
            if certificates.count > 4_096 { certificates.removeAll() }
            certificates[key] = made
        }
        return made
    }

    // MARK: Names

    static let organizations = ["JWSVerify Tests", "Good Org", "Evil Org"]
    static let commonNames = [
        "Chains Leaf - NOT APPLE", "leaf.good.example", "evil.example", "Chains Other - NOT APPLE",
    ]

    static func name(organization: String, commonName: String) throws -> CraftedName {
        try CraftedName([.organization(organization), .commonName(commonName)])
    }

    // MARK: Extensions

    static let goodOrg = (try? CraftedName([.organization("Good Org")])) ?? CraftedName(der: Data())
    static let evilOrg = (try? CraftedName([.organization("Evil Org")])) ?? CraftedName(der: Data())

    /// One extension of the helper list, or an unknown one; `index` picks.
    static func extraExtension(_ index: Int, _ detail: UInt8) throws -> TestExtension {
        let critical = detail & 1 == 1
        switch index % 26 {
        case 0: return .nameConstraints(permitted: [.directoryName(goodOrg)])
        case 1: return .nameConstraints(excluded: [.directoryName(evilOrg)])
        case 2: return .nameConstraints(permitted: [.dnsName("good.example")])
        case 3: return .ipAddressBlocks([.ipv4([TestExtension.AddressPrefix([10, 0, 0, 0], length: 8)])])
        case 4: return .ipAddressBlocks([.ipv4([TestExtension.AddressPrefix([10, 1, 0, 0], length: 16)])])
        case 5: return .ipAddressBlocks([.ipv4(nil)])
        case 6: return .autonomousSystemNumbers([64_500...64_510])
        case 7: return .autonomousSystemNumbers([64_501...64_501])
        case 8: return .autonomousSystemNumbers(nil)
        case 9: return try .certificatePolicies([TestExtension.anyPolicyOID])
        case 10: return try .certificatePolicies(["2.23.140.1.2.1"])
        case 11: return .policyConstraints(requireExplicitPolicy: 0)
        case 12: return .inhibitAnyPolicy(0)
        case 13: return try .extendedKeyUsage(["1.3.6.1.5.5.7.3.1"], critical: critical)
        case 14: return try .extendedKeyUsage(["1.3.6.1.5.5.7.3.3", "2.5.29.37.0"], critical: critical)
        case 15: return .subjectAltName([.dnsName("leaf.good.example")], critical: critical)
        case 16: return .subjectAltName([.dnsName("evil.example")], critical: critical)
        case 17: return TestExtension(oid: "1.3.6.1.4.1.55555.\(detail % 4)", critical: true, value: TestDER.null)
        case 18:
            return TestExtension(
                oid: "1.3.6.1.4.1.55555.\(detail % 4)", critical: false, value: TestDER.utf8String("chains"))
        case 19: return .keyUsage([.digitalSignature])
        case 20: return .appleLeafMarker(critical: critical)
        case 21: return .appleIntermediateMarker(critical: critical)
        case 22: return .basicConstraints(ca: detail & 2 == 2, pathLength: detail & 4 == 4 ? Int(detail >> 4) : nil)
        case 23: return .keyUsage([.keyCertSign, .cRLSign, .digitalSignature], critical: critical)
        case 24:
            return TestExtension(oid: "1.2.840.113635.100.6.\(detail % 40)", critical: critical, value: TestDER.null)
        default: return .nameConstraints(excluded: [.dnsName("evil.example")])
        }
    }

    /// A root profile's extra extensions and whether it replaces basicConstraints with pathLen 0.
    static func rootExtensions(_ profile: Int) throws -> [TestExtension] {
        switch profile {
        case 1: return [.nameConstraints(permitted: [.directoryName(goodOrg)])]
        case 2: return [.nameConstraints(excluded: [.directoryName(evilOrg)])]
        case 3: return [.nameConstraints(permitted: [.dnsName("good.example")])]
        case 4: return [.policyConstraints(requireExplicitPolicy: 0), try .certificatePolicies(["2.23.140.1.2.1"])]
        case 5: return [.inhibitAnyPolicy(0)]
        case 6:
            return [
                .ipAddressBlocks([.ipv4([TestExtension.AddressPrefix([10, 0, 0, 0], length: 8)])]),
                .autonomousSystemNumbers([64_500...64_510]),
            ]
        case 7: return []  // pathLen 0, below
        case 8: return [TestExtension(oid: "1.3.6.1.4.1.55555.9", critical: true, value: TestDER.null)]
        case 9: return [TestExtension(oid: "1.3.6.1.4.1.55555.9", critical: false, value: TestDER.null)]
        case 10: return [try .certificatePolicies([TestExtension.anyPolicyOID])]
        default: return []
        }
    }

    static let rootProfileCount = 11

    // MARK: Cases

    /// Which key a crafted leaf carries, and how.
    enum LeafKeyKind: Int, CaseIterable {
        case uncompressed, compressed, infinity, offCurve, p384, explicitParameters

        /// Whether a token with such a key may be accepted.
        var acceptable: Bool { self == .uncompressed || self == .compressed || self == .explicitParameters }
    }

    func makeCase(_ input: inout ChainInput) throws -> ChainCase {
        // Root.
        let rootProfile = input.choose(Self.rootProfileCount)
        let rootKeyIndex = input.choose(16) == 15 ? 2 : input.choose(2)
        let rootWindow = input.oneIn(4) ? input.choose(Self.windows.count) : 0
        let rootName = try CraftedName([.commonName("Chains Root \(rootProfile) - NOT APPLE"), .organization("Chains")])
        let rootKey = issuerKeys[rootKeyIndex]
        let root = try certificate("root|\(rootProfile)|\(rootKeyIndex)|\(rootWindow)") {
            let window = Self.windows[rootWindow]
            var extensions: [TestExtension] = [
                .basicConstraints(ca: true, pathLength: rootProfile == 7 ? 0 : nil),
                .keyUsage([.keyCertSign, .cRLSign]),
                .subjectKeyIdentifier(try CraftedPublicKey.keyIdentifier(ofSPKI: rootKey.publicKeyDER)),
            ]
            extensions += try Self.rootExtensions(rootProfile)
            return try CraftedCertificate(
                subject: rootName, issuer: rootName, notBefore: window.from, notAfter: window.until,
                notBeforeEncoding: window.encoding, notAfterEncoding: window.encoding, publicKey: .key(rootKey),
                extensions: extensions
            ).sign(with: rootKey)
        }

        // Intermediate.
        let intermediateKeyIndex = input.choose(16) == 15 ? 2 : input.choose(2)
        let intermediateOrg = input.choose(Self.organizations.count)
        let intermediateWindow = input.oneIn(4) ? input.choose(Self.windows.count) : 0
        let intermediateDigest = input.choose(3)
        let intermediateDrop = input.oneIn(3) ? input.byte() : 0
        let intermediateExtras = (0..<input.choose(3)).map { _ in (Int(input.byte()), input.byte()) }
        let intermediateKey = issuerKeys[intermediateKeyIndex]
        let intermediateName = try Self.name(
            organization: Self.organizations[intermediateOrg], commonName: "Chains Intermediate - NOT APPLE")
        let intermediateDescriptor =
            "int|\(rootProfile)|\(rootKeyIndex)|\(rootWindow)|\(intermediateKeyIndex)|\(intermediateOrg)|"
            + "\(intermediateWindow)|\(intermediateDigest)|\(intermediateDrop)|\(intermediateExtras)"
        let intermediate = try certificate(intermediateDescriptor) {
            let window = Self.windows[intermediateWindow]
            let baseline: [TestExtension] = [
                .basicConstraints(ca: true, pathLength: 0), .keyUsage([.keyCertSign, .cRLSign]),
                .subjectKeyIdentifier(try CraftedPublicKey.keyIdentifier(ofSPKI: intermediateKey.publicKeyDER)),
                .authorityKeyIdentifier(try CraftedPublicKey.keyIdentifier(ofSPKI: rootKey.publicKeyDER)),
                .ocspAccess(TestHierarchy.AppStoreEC.rootOCSPURL), .appleIntermediateMarker(),
            ]
            var extensions = baseline.enumerated().filter { intermediateDrop & (1 << UInt8($0.offset)) == 0 }.map(
                \.element)
            for (index, detail) in intermediateExtras {
                extensions.insert(try Self.extraExtension(index, detail), at: Int(detail) % (extensions.count + 1))
            }
            return try CraftedCertificate(
                subject: intermediateName, issuer: rootName, serialNumber: Data([0x02]), notBefore: window.from,
                notAfter: window.until, notBeforeEncoding: window.encoding, notAfterEncoding: window.encoding,
                signatureDigest: CraftedDigest.allCases[[1, 0, 2][intermediateDigest]],
                publicKey: .key(intermediateKey),
                extensions: extensions
            ).sign(with: rootKey)
        }

        // The good leaf: the .appStoreEC test hierarchy's profile, the intermediate's organization, valid whenever the
        // intermediate is.
        let window = Self.windows[intermediateWindow]
        let goodLeaf = try certificate("good|" + intermediateDescriptor) {
            try CraftedCertificate.leafProfile(
                name: try Self.name(organization: Self.organizations[intermediateOrg], commonName: "Chains Good Leaf"),
                issuer: intermediateName, publicKey: .key(leafKeys[0]), issuerKey: intermediateKey,
                notBefore: window.from, notAfter: window.until, serialNumber: Data([0x10])
            ).sign(with: intermediateKey)
        }

        // The crafted leaf.
        let leafKeyKind: LeafKeyKind =
            switch input.choose(10) {
            case 0...4: .uncompressed
            case 5: .compressed
            case 6: .infinity
            case 7: .offCurve
            case 8: .p384
            default: .explicitParameters
            }
        let leafKeyIndex = 1 + input.choose(3)
        let leafOrg = input.oneIn(3) ? input.choose(Self.organizations.count) : intermediateOrg
        let leafCommonName = input.choose(Self.commonNames.count)
        let leafWindow = input.oneIn(3) ? input.choose(Self.windows.count) : 0
        let leafDigest = input.choose(3)
        let leafDrop = input.oneIn(3) ? input.byte() : 0
        let leafExtras = (0..<input.choose(4)).map { _ in (Int(input.byte()), input.byte()) }
        let wrongIssuerName = input.oneIn(16)
        let leafDescriptor =
            "leaf|\(intermediateDescriptor)|\(leafKeyKind)|\(leafKeyIndex)|\(leafOrg)|\(leafCommonName)|"
            + "\(leafWindow)|\(leafDigest)|\(leafDrop)|\(leafExtras)|\(wrongIssuerName)"
        let leafKey = leafKeys[leafKeyIndex]
        let publicKey: CraftedPublicKey =
            switch leafKeyKind {
            case .uncompressed: .key(leafKey)
            case .compressed: .key(leafKey, form: .compressed)
            case .infinity: .p256PointAtInfinity
            case .offCurve: .offCurve(leafKey)
            case .p384: .key(p384LeafKey)
            case .explicitParameters: .key(leafKey, explicitParameters: true)
            }
        let leaf = try certificate(leafDescriptor) {
            let window = Self.windows[leafWindow]
            let spki = try publicKey.der()
            let baseline: [TestExtension] = [
                .basicConstraints(ca: false), .keyUsage([.digitalSignature]),
                .subjectKeyIdentifier(TestSHA1Bridge.identifier(spki)),
                .authorityKeyIdentifier(try CraftedPublicKey.keyIdentifier(ofSPKI: intermediateKey.publicKeyDER)),
                .ocspAccess(TestHierarchy.AppStoreEC.intermediateOCSPURL), .appleLeafMarker(),
            ]
            var extensions = baseline.enumerated().filter { leafDrop & (1 << UInt8($0.offset)) == 0 }.map(\.element)
            for (index, detail) in leafExtras {
                extensions.insert(try Self.extraExtension(index, detail), at: Int(detail) % (extensions.count + 1))
            }
            return try CraftedCertificate(
                subject: try Self.name(
                    organization: Self.organizations[leafOrg], commonName: Self.commonNames[leafCommonName]),
                issuer: wrongIssuerName ? rootName : intermediateName, serialNumber: Data([0x11]),
                notBefore: window.from, notAfter: window.until, notBeforeEncoding: window.encoding,
                notAfterEncoding: window.encoding, signatureDigest: CraftedDigest.allCases[[1, 0, 2][leafDigest]],
                publicKey: publicKey, extensions: extensions
            ).sign(with: intermediateKey)
        }

        // Times: the priming time inside the root's and intermediate's windows, and two test times
        // at a boundary of one of the three certificates or at the priming time.
        let rootSpan = Self.windows[rootWindow]
        let from = max(rootSpan.from, window.from)
        let until = min(rootSpan.until, window.until)
        let primeTime = from < until ? from + (until - from) / 2 : Self.wideFrom + 86_400
        let spans = [Self.windows[leafWindow], window, rootSpan]
        func testTime(_ input: inout ChainInput) -> Int64 {
            let choice = input.choose(18)
            guard choice < 15 else { return choice == 15 ? primeTime : primeTime + Int64(input.byte()) * 3_600 }
            let span = spans[choice % 3]
            return [span.from - 1, span.from, span.until - 1, span.until, span.until + 1][choice / 3]
        }
        let time = testTime(&input)
        let secondTime = testTime(&input)
        let signer: CraftedToken.Signer =
            switch leafKeyKind {
            case .infinity: .forgedForPointAtInfinity(k: Data([0x2A]))
            case .p384: .bytes(Data(repeating: 0x01, count: 64))
            default: .key(leafKey)
            }
        return ChainCase(
            root: root, intermediate: intermediate, goodLeaf: goodLeaf, leaf: leaf, goodLeafKey: leafKeys[0],
            signer: signer, leafKeyKind: leafKeyKind, primeTime: primeTime, time: time, secondTime: secondTime,
            hierarchy: intermediateDescriptor, description: leafDescriptor)
    }
}

/// Key identifiers of any SPKI (SHA-1 of the point, or of the whole SPKI when it has none).
enum TestSHA1Bridge {
    static func identifier(_ spki: Data) -> Data {
        (try? CraftedPublicKey.keyIdentifier(ofSPKI: spki)) ?? Data(spki.suffix(20))
    }
}

/// A settable clock shared by a case's verifiers.
final class ChainClock: @unchecked Sendable {
    private let lock = NSLock()
    private var seconds: Int64 = 0
    var now: Date { lock.withLock { Date(timeIntervalSince1970: TimeInterval(seconds)) } }
    func set(_ value: Int64) { lock.withLock { seconds = value } }
}

/// One generated case and its checks.
struct ChainCase {
    let root: Data
    let intermediate: Data
    let goodLeaf: Data
    let leaf: Data
    let goodLeafKey: TestPrivateKey
    let signer: CraftedToken.Signer
    let leafKeyKind: Generator.LeafKeyKind
    let primeTime: Int64
    let time: Int64
    let secondTime: Int64
    /// Root and intermediate, as the generator describes them (the key of their verifiers).
    let hierarchy: String
    let description: String

    static let chainCodes: Set<VerificationError.Code> = [
        .invalidCertificate, .untrustedChain, .certificateExpired, .missingAppleExtension, .unsupportedKey,
    ]

    func token(leaf: Data, signer: CraftedToken.Signer) throws -> String {
        let parameters = PayloadParameters(
            bundleId: Generator.bundleId, signedDate: Date(timeIntervalSince1970: TimeInterval(primeTime)), seed: 21)
        return try CraftedToken.transaction(x5c: [leaf, intermediate, root], parameters: parameters, signer: signer)
    }

    static func text(_ error: VerificationError?) -> String {
        error.map { "\($0.code.rawValue) (\($0.check.rawValue)): \($0.message)" } ?? "verified"
    }

    func check() throws -> [String] {
        var violations: [String] = []
        let verifiers = try Generator.shared.verifiers(hierarchy) {
            let clock = ChainClock()
            func verifier(capacity: Int) throws -> SignedDataVerifier {
                try SignedDataVerifier(
                    rootCertificates: [root], bundleId: Generator.bundleId, environment: .sandbox,
                    validationTime: .current, chainCacheCapacity: capacity, clock: { clock.now })
            }
            let warm = try verifier(capacity: 64)
            clock.set(primeTime)
            let primed = warm.verifyAndDecodeTransaction(try token(leaf: goodLeaf, signer: .key(goodLeafKey)))
                .isVerified
            return Generator.Verifiers(warm: warm, cold: try verifier(capacity: 0), clock: clock, primed: primed)
        }
        let (warm, cold, clock, primed) = (verifiers.warm, verifiers.cold, verifiers.clock, verifiers.primed)
        let crafted = try token(leaf: leaf, signer: signer)

        // The cold verifier and OpenSSL have no state: one answer per time.
        var coldAnswers: [Int64: (VerificationError?, OpenSSLChainVerdict)] = [:]
        func compare(_ label: String, at time: Int64) throws {
            clock.set(time)
            let warmResult = warm.verifyAndDecodeTransaction(crafted).error
            let (coldResult, openSSL) =
                try coldAnswers[time]
                ?? (
                    cold.verifyAndDecodeTransaction(crafted).error,
                    OpenSSLChainVerdict.evaluate(leaf: leaf, intermediate: intermediate, root: root, at: time)
                )
            coldAnswers[time] = (coldResult, openSSL)
            let context =
                "\(label) at \(time) (primed \(primed) at \(primeTime)): warm \(Self.text(warmResult)); cold"
                + " \(Self.text(coldResult)); OpenSSL \(openSSL); case \(description)"
            if warmResult?.code != coldResult?.code || warmResult?.check != coldResult?.check {
                violations.append("warm and cold disagree, \(context)")
            }
            for (name, result) in [("warm", warmResult), ("cold", coldResult)] where result == nil {
                if !openSSL.acceptsFullChain {
                    violations.append("\(name) accepts a chain OpenSSL rejects, \(context)")
                }
                if !leafKeyKind.acceptable {
                    violations.append("\(name) accepts a \(leafKeyKind) leaf key, \(context)")
                }
            }
            if let code = openSSL.code {
                if let coldResult, coldResult.check != .chain || !Self.chainCodes.contains(coldResult.code) {
                    violations.append("OpenSSL rejects the chain but cold fails elsewhere, \(context)")
                } else if let coldResult, coldResult.code != code, coldResult.code != .invalidCertificate {
                    violations.append("cold's chain code is not OpenSSL's, \(context)")
                }
            } else if let coldResult, coldResult.code == .untrustedChain || coldResult.code == .certificateExpired {
                violations.append("OpenSSL accepts the chain but cold says \(coldResult.code), \(context)")
            }
        }
        try compare("new leaf", at: time)
        try compare("again", at: time)
        try compare("second time", at: secondTime)
        return violations
    }
}

/// An input in certificate-chain form: the marker byte, the validation time (8 bytes, big-endian
/// seconds since 1970), then the leaf, the intermediate and one or more trusted roots, each as a
/// 2-byte big-endian length and that many bytes of DER. `Fuzz/make-corpus.sh` writes x509-limbo's
/// chain cases this way; libFuzzer's mutations then change their bytes.
public struct CertificateChainInput: Sendable {
    /// The validation time, seconds since 1970.
    public let time: Int64
    /// The leaf's DER.
    public let leaf: [UInt8]
    /// The intermediate's DER.
    public let intermediate: [UInt8]
    /// The trusted roots' DER (at least one).
    public let roots: [[UInt8]]

    /// An input from its parts.
    public init(time: Int64, leaf: [UInt8], intermediate: [UInt8], roots: [[UInt8]]) {
        self.time = time
        self.leaf = leaf
        self.intermediate = intermediate
        self.roots = roots
    }

    /// Reads the form; nil when the bytes are not in it.
    public init?(_ bytes: [UInt8]) {
        guard bytes.count >= 9, bytes[0] == ChainsDifferential.certificateChainMarker else { return nil }
        time = bytes[1..<9].reduce(Int64(0)) { $0 << 8 | Int64($1) }
        var blobs: [[UInt8]] = []
        var offset = 9
        while offset + 2 <= bytes.count, blobs.count < 8 {
            let length = Int(bytes[offset]) << 8 | Int(bytes[offset + 1])
            guard offset + 2 + length <= bytes.count else { break }
            blobs.append(Array(bytes[(offset + 2)..<(offset + 2 + length)]))
            offset += 2 + length
        }
        guard blobs.count >= 3 else { return nil }
        leaf = blobs[0]
        intermediate = blobs[1]
        roots = Array(blobs[2...])
    }

    /// The bytes of this input.
    public var bytes: [UInt8] {
        var output = [ChainsDifferential.certificateChainMarker]
        output += (0..<8).map { UInt8(truncatingIfNeeded: UInt64(bitPattern: time) >> (56 - 8 * UInt64($0))) }
        for blob in [leaf, intermediate] + roots {
            output += [UInt8(blob.count >> 8), UInt8(blob.count & 0xFF)] + blob
        }
        return output
    }
}

extension ChainsDifferential {
    /// How far a certificate chain went on the fast path.
    public enum FastPathOutcome: Equatable, Sendable {
        /// The certificates or roots do not parse, or a warm verifier could not hold this intermediate
        /// (the chain above the leaf fails, or the store offers more than one chain).
        case notPrimed
        /// Primed; the leaf check did not run (the intermediate or root may constrain leaves, or the
        /// leaf's key is not a P-256 key built from its fields).
        case fullPathUnderKnownIntermediate
        /// Primed, and the leaf check answered.
        case leafCheck(accepted: Bool)
    }

    /// What checks 5 to 7 concluded for a chain: passed, or the code. Check 8 (Apple's markers) and
    /// 9 (the key) are passes here: certificates of other origins lack the markers.
    static func chainVerdict(_ result: Result<ValidatedChain, VerificationError>) -> String {
        switch result {
        case .success: return "passed"
        case .failure(let error) where error.code == .missingAppleExtension || error.code == .unsupportedKey:
            return "passed"
        case .failure(let error): return "\(error.code.rawValue)/\(error.check.rawValue)"
        }
    }

    /// A chain of certificates through the full path (a validator with no cache) and, wherever a
    /// warm verifier could hold its intermediate, through the fast path (the intermediate cache entry
    /// the validator makes, and the leaf check). Properties: the full path passes checks 5 to 7 exactly
    /// when OpenSSL's `X509_verify_cert` accepts the chain; warm and cold give the same verdict; the
    /// leaf check accepts only leaves OpenSSL accepts.
    ///
    /// A warm verifier can hold the intermediate when OpenSSL built the chain through it to a root,
    /// the store offers that one chain, and every failure OpenSSL found is the leaf's own (depth 0):
    /// then some other leaf under it could have verified and put it in the cache.
    public static func compare(_ input: CertificateChainInput) -> (violations: [String], outcome: FastPathOutcome) {
        let roots = input.roots.compactMap { Certificate(der: $0) }
        guard roots.count == input.roots.count, let store = TrustStore(roots: roots),
            let intermediate = Certificate(der: input.intermediate)
        else { return ([], .notPrimed) }
        let x5c = [input.leaf, input.intermediate, input.roots[0]].map { Base64.encodeStandard($0) }
        let cold = TrustAnchor.appleRoots(trustStore: store, intermediates: IntermediateCache(capacity: 0))
        let coldVerdict = chainVerdict(cold.validate(x5c, at: input.time))
        guard let leaf = Certificate(der: input.leaf) else {
            let violations =
                coldVerdict == "invalidCertificate/chain" ? [] : ["a leaf that does not parse: \(coldVerdict)"]
            return (violations, .notPrimed)
        }
        guard case .success(let openSSL) = store.verify(leaf: leaf, intermediate: intermediate, at: input.time) else {
            let violations = coldVerdict == "untrustedChain/chain" ? [] : ["OpenSSL could not run, cold \(coldVerdict)"]
            return (violations, .notPrimed)
        }
        var violations: [String] = []
        let openSSLAccepts =
            openSSL.trustFailure == nil && openSSL.timeFailure == nil && openSSL.chainLength == 3
            && openSSL.passesThroughIntermediate
        if (coldVerdict == "passed") != openSSLAccepts {
            violations.append("cold \(coldVerdict), OpenSSL \(openSSLAccepts ? "accepts" : "rejects")")
        }
        let chainAboveLeafHolds =
            openSSL.chainLength == 3 && openSSL.passesThroughIntermediate
            && (openSSL.trustFailure.map { $0.depth == 0 } ?? true)
            && (openSSL.timeFailure.map { $0.depth == 0 } ?? true)
        guard chainAboveLeafHolds, store.hasOneChain(through: intermediate),
            let root = store.root(withFingerprint: openSSL.rootFingerprint),
            let entry = IntermediateCache.Entry(intermediate, under: root),
            entry.validity.contains(input.time)
        else { return (violations, .notPrimed) }

        let cache = IntermediateCache(capacity: 4)
        cache.insert(entry, for: x5c[1])
        let warm = TrustAnchor.appleRoots(trustStore: store, intermediates: cache)
        let warmVerdict = chainVerdict(warm.validate(x5c, at: input.time))
        if warmVerdict != coldVerdict { violations.append("warm \(warmVerdict), cold \(coldVerdict)") }
        if cache.statistics.hits != 1 { violations.append("the warm validator did not use the cached intermediate") }
        guard entry.checksNewLeaves, let quick = Certificate(p256LeafDER: input.leaf) else {
            return (violations, .fullPathUnderKnownIntermediate)
        }
        let accepted = quick.check(under: intermediate, key: entry.intermediateKey, at: input.time) == .accepted
        if accepted && !openSSLAccepts { violations.append("the leaf check accepts a leaf OpenSSL rejects") }
        return (violations, .leafCheck(accepted: accepted))
    }
}
