import Foundation
import Synchronization
import Testing

@testable import JWSVerify
@testable import JWSVerifyTesting

/// The test PKIs every receipt verification suite uses (``ReceiptContractTests``, ``ReceiptOneVerdictTests``,
/// ``ReceiptDifferentialTests``, ``ReceiptConcurrencyTests``), generated once per test process: RSA key
/// generation is slow. Everything is minted with JWSVerifyTesting (OpenSSL's CMS writer), nothing is mocked.
struct ReceiptFixture: Sendable {
    static let shared = Result { try ReceiptFixture() }
    static func get() throws -> ReceiptFixture { try shared.get() }

    static let bundleId = "com.example.receipts"
    /// Inside every default validity (2025–2035): the creation date of the good receipts.
    static let created = Date(timeIntervalSince1970: 1_780_000_000)  // 2026-05-28T20:26:40Z
    /// A second creation date, to sign other content under the same envelope.
    static let createdLater = Date(timeIntervalSince1970: 1_790_000_000)  // 2026-09-21
    /// The window of ``signerWindow``'s leaf and of ``intermediateWindow``'s intermediate.
    static let windowStart: Int64 = 1_800_000_000  // 2027-01-15T08:00:00Z
    static let windowEnd: Int64 = 1_810_000_000  // 2027-05-11T21:46:40Z
    /// A device identifier and the opaque value of ``content(…)`` receipts bound to it.
    static let deviceIdentifier: [UInt8] = Array(0x10...0x1F)
    static let opaqueValue: [UInt8] = [0xDE, 0xAD, 0xBE, 0xEF, 0x01, 0x02, 0x03, 0x04]

    /// Apple's shape: root ← intermediate (marker) ← receipt signing leaf (marker), RSA 2048.
    let pki: TestHierarchy
    /// Same names, other keys: a root no verifier here trusts.
    let unrelated: TestHierarchy
    /// A developer certificate issued by ``pki``'s intermediate, without the leaf marker.
    let developer: TestSigningCredential
    /// ``pki``'s root and intermediate, a leaf valid only from ``windowStart`` to ``windowEnd``.
    let signerWindow: TestHierarchy
    /// ``pki``'s root, an intermediate valid only from ``windowStart`` to ``windowEnd``, and a leaf under it
    /// valid for the whole default validity.
    let intermediateWindow: TestHierarchy
    /// ``pki``'s root, an intermediate without its marker, and a leaf (with its marker) under it.
    let unmarkedIntermediate: TestHierarchy
    /// A leaf with the marker issued by ``pki``'s root directly.
    let leafUnderRoot: TestSigningCredential
    /// Leaves with the marker under ``pki``'s intermediate, with a 1024-bit RSA key and an EC P-256 key.
    let rsa1024Leaf: TestSigningCredential
    let ecLeaf: TestSigningCredential
    /// ``pki``'s intermediate again (same subject, same key, same extensions), valid only from
    /// ``windowStart`` to ``windowEnd``: a duplicate issuer with another validity window.
    let intermediateDuplicate: TestCertificate
    /// A certificate issued by ``pki``'s intermediate with the leaf's issuer and serial number but another
    /// subject and key and no leaf marker: a SignerInfo naming the leaf names it too.
    let serialTwin: TestSigningCredential

    init() throws {
        let pki = try TestHierarchy.generate(.receiptRSA)
        self.pki = pki
        unrelated = try pki.makeUnrelated()
        developer = try pki.makeDeveloperCertificate()
        let window =
            Date(
                timeIntervalSince1970: TimeInterval(Self.windowStart))...Date(
                timeIntervalSince1970: TimeInterval(Self.windowEnd))
        signerWindow = try Self.replacingLeaf(of: pki, with: pki.makeLeaf(validity: window))
        let shortIntermediate = try pki.makeIntermediate(validity: window)
        intermediateWindow = try Self.under(
            pki, intermediate: shortIntermediate, leafValidity: TestHierarchy.defaultValidity)
        unmarkedIntermediate = try Self.under(
            pki, intermediate: pki.makeIntermediate(includeAppleMarker: false), leafValidity: nil)
        leafUnderRoot = try pki.makeLeaf(issuer: pki.rootCredential)
        rsa1024Leaf = try pki.makeLeaf(keyBits: 1024)
        ecLeaf = try pki.makeLeaf(key: .ec(TestPrivateKey.generate(curve: .p256)))
        let spki = pki.intermediateKey.publicKeyDER
        let duplicate = CraftedCertificate(
            subject: TestHierarchy.ReceiptRSA.intermediateName, issuer: TestHierarchy.ReceiptRSA.rootName,
            serialNumber: Data([0x77]),
            notBefore: Self.windowStart, notAfter: Self.windowEnd, signatureDigest: .sha256,
            publicKey: .subjectPublicKeyInfo(spki),
            extensions: [
                .basicConstraints(ca: true, pathLength: 0),
                .authorityKeyIdentifier(try CraftedPublicKey.keyIdentifier(ofSPKI: pki.rootKey.publicKeyDER)),
                .subjectKeyIdentifier(try CraftedPublicKey.keyIdentifier(ofSPKI: spki)),
                .keyUsage([.keyCertSign, .cRLSign]), .appleIntermediateMarker(),
            ])
        intermediateDuplicate = try TestCertificate(der: duplicate.sign(with: pki.rootKey))
        let envelope = try #require(ReceiptEnvelope.scan(ReceiptSigner(hierarchy: pki).sign(content: Self.content())))
        let serial = envelope.bytes[envelope.signerSerialNumberRange].dropFirst(2)  // 02 len (short form) contents
        let twinKey = try TestRSAPrivateKey.generate()
        let twin = CraftedCertificate(
            subject: TestHierarchy.ReceiptRSA.developerName, issuer: TestHierarchy.ReceiptRSA.intermediateName,
            serialNumber: Data(serial), notBefore: pki.leaf.notBefore.seconds, notAfter: pki.leaf.notAfter.seconds,
            signatureDigest: .sha256, publicKey: .subjectPublicKeyInfo(twinKey.publicKeyDER),
            extensions: [
                .basicConstraints(ca: false),
                .authorityKeyIdentifier(try CraftedPublicKey.keyIdentifier(ofSPKI: spki)),
                .subjectKeyIdentifier(try CraftedPublicKey.keyIdentifier(ofSPKI: twinKey.publicKeyDER)),
                .keyUsage([.digitalSignature]),
            ])
        serialTwin = TestSigningCredential(
            certificate: try TestCertificate(der: twin.sign(with: pki.intermediateKey)), privateKey: .rsa(twinKey)
        )
    }

    private static func replacingLeaf(of pki: TestHierarchy, with leaf: TestSigningCredential) throws -> TestHierarchy
    {
        guard leaf.privateKey.rsa != nil else { throw JWSTestingError.invalidArgument("not RSA") }
        return pki.replacing(leaf: leaf)
    }

    private static func under(
        _ pki: TestHierarchy, intermediate: TestSigningCredential, leafValidity: ClosedRange<Date>?
    ) throws -> TestHierarchy {
        guard intermediate.privateKey.rsa != nil else { throw JWSTestingError.invalidArgument("not RSA") }
        let copy = pki.replacing(intermediate: intermediate)
        return try replacingLeaf(of: copy, with: copy.makeLeaf(validity: leafValidity))
    }

    /// A receipt as the App Store writes it: type, app item id, bundle id, version, the opaque value and the
    /// device hash of ``deviceIdentifier`` (of `hashedBundleId`'s value), the creation date, one purchase.
    static func receipt(
        created: Date = created, bundleId: String = bundleId, receiptType: String = "Production",
        appItemId: Int64 = 42, hashedBundleId: String? = nil
    ) -> AppReceipt {
        let bundleValue = ReceiptContentEncoder.utf8String(bundleId)
        let hashed = ReceiptContentEncoder.utf8String(hashedBundleId ?? bundleId)
        return AppReceipt(
            receiptType: receiptType, appItemId: appItemId, bundleId: bundleId, applicationVersion: "3.1",
            opaqueValue: opaqueValue, sha1Hash: ReceiptDeviceHash.expected(deviceIdentifier, opaqueValue, hashed),
            bundleIdRawValue: bundleValue, receiptCreationDate: created, originalApplicationVersion: "1.0",
            inApp: [
                InAppPurchaseReceipt(
                    quantity: 1, productId: "com.example.receipts.coins", transactionId: "1000000000000001",
                    originalTransactionId: "1000000000000001", purchaseDate: created)
            ])
    }

    /// The DER content (sorted, as the App Store writes it) of ``receipt(…)``.
    static func content(
        created: Date = created, bundleId: String = bundleId, receiptType: String = "Production",
        appItemId: Int64 = 42, hashedBundleId: String? = nil
    ) -> [UInt8] {
        ReceiptContentEncoder.content(
            receipt(
                created: created, bundleId: bundleId, receiptType: receiptType, appItemId: appItemId,
                hashedBundleId: hashedBundleId))
    }

    /// A good receipt of `pki` (Apple's shape), signed over ``content(…)`` created at `created`.
    func good(_ pki: TestHierarchy? = nil, created: Date = created, digest: ReceiptDigest = .sha256) throws -> [UInt8]
    {
        try ReceiptSigner(hierarchy: pki ?? self.pki).sign(
            content: Self.content(created: created), options: .init(digest: digest))
    }
}

extension Date {
    /// Whole seconds since 1970.
    var seconds: Int64 { Int64(timeIntervalSince1970.rounded(.down)) }
}

/// The device hash of receipt check 10, computed in the test with JWSVerifyTesting's own SHA-1 (pure Swift,
/// independent of the library's OpenSSL call), itself pinned to FIPS 180-4's "abc" answer.
enum ReceiptDeviceHash {
    static func expected(_ identifier: [UInt8], _ opaque: [UInt8], _ bundleIdValue: [UInt8]) -> [UInt8] {
        sha1(identifier + opaque + bundleIdValue)
    }

    static func sha1(_ bytes: [UInt8]) -> [UInt8] { [UInt8](TestSHA1.hash(Data(bytes))) }

    /// SHA-1("abc"), FIPS 180-4 appendix A.1.
    static let abc: [UInt8] = [
        0xA9, 0x99, 0x3E, 0x36, 0x47, 0x06, 0x81, 0x6A, 0xBA, 0x3E, 0x25, 0x71, 0x78, 0x50, 0xC2, 0x6C, 0x9C, 0xD0,
        0xD8, 0x9D,
    ]
}

/// What a verification said, in the terms the one-verdict rule compares: code, check, every report step.
struct ReceiptOutcome: Equatable, Sendable, CustomStringConvertible {
    let code: VerificationError.Code?
    let check: VerificationError.Check?
    let report: VerificationReport
    let payload: AppReceipt?
    /// The chain that passed checks 4 to 7, when the verdict got past check 8 (signer first).
    let chain: [CertificateInfo]

    init(_ result: VerificationResult<AppReceipt>) {
        code = result.error?.code
        check = result.error?.check
        report = result.report
        payload = result.payload
        switch result {
        case .verified(let verified): chain = verified.chain
        case .failed(let failure): chain = failure.validatedChain ?? []
        }
    }

    /// The step that failed (nil when verified).
    var failedStep: VerificationReport.StepName? { report.failedStep?.name }

    /// Whether checks 1 to 8 of the receipt contract passed (the verdict is verified, or a claims step failed).
    var passedSignatureChecks: Bool {
        guard let failedStep else { return true }
        return Self.claimSteps.contains(failedStep)
    }

    static let claimSteps: Set<VerificationReport.StepName> = [.bundleId, .appAppleId, .environment, .deviceHash]

    var description: String {
        guard let code else { return "verified" }
        return "\(code)/\(check?.rawValue ?? "-")/\(failedStep?.rawValue ?? "-"): \(report.failedStep?.detail ?? "")"
    }
}

/// Receipt verifiers for the attack suites.
enum ReceiptVerifiers {
    /// A verifier trusting `roots` (default: the fixture's root), with a cache of `capacity` chains.
    static func make(
        roots: [Data]? = nil, capacity: Int = 64, bundleId: String? = ReceiptFixture.bundleId,
        appAppleId: Int64? = nil, environments: [AppStoreEnvironment] = [.production],
        validationTime: ValidationTime = .signedDate, clock: @escaping @Sendable () -> Date = { Date() }
    ) throws -> AppReceiptVerifier {
        try AppReceiptVerifier(
            rootCertificates: roots ?? [ReceiptFixture.get().pki.rootDER], bundleId: bundleId,
            appAppleId: appAppleId, environments: environments, validationTime: validationTime,
            chainCacheCapacity: capacity, clock: clock)
    }
}

extension AppReceiptVerifier {
    /// Verifies raw receipt bytes.
    func outcome(_ receipt: [UInt8], deviceIdentifier: [UInt8]? = nil) -> ReceiptOutcome {
        ReceiptOutcome(verifyAndDecodeAppReceipt(Data(receipt), deviceIdentifier: deviceIdentifier))
    }
}

/// A clock a test moves (for ``ValidationTime/current``).
final class MovableClock: Sendable {
    private let seconds: Atomic<Int64>

    init(_ date: Date) { seconds = Atomic(Int64(date.timeIntervalSince1970)) }

    func set(_ date: Date) { seconds.store(Int64(date.timeIntervalSince1970), ordering: .relaxed) }
    func set(seconds value: Int64) { seconds.store(value, ordering: .relaxed) }

    var now: @Sendable () -> Date {
        { [self] in Date(timeIntervalSince1970: TimeInterval(seconds.load(ordering: .relaxed))) }
    }
}

/// Byte surgery on minted DER receipts (`ReceiptEnvelope` finds the parts).
enum ReceiptSurgery {
    /// rsaEncryption's OBJECT IDENTIFIER TLV, and PKCS #1 signature OIDs of the same length.
    static let rsaEncryption: [UInt8] = [0x06, 0x09, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x01, 0x01]
    static let sha1WithRSA: [UInt8] = [0x06, 0x09, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x01, 0x05]
    static let sha256WithRSA: [UInt8] = [0x06, 0x09, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x01, 0x0B]
    static let sha512WithRSA: [UInt8] = [0x06, 0x09, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x01, 0x0D]
    static let md5WithRSA: [UInt8] = [0x06, 0x09, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x01, 0x04]

    /// `receipt` with the SignerInfo's signatureAlgorithm OID (rsaEncryption, the last occurrence: the
    /// SignerInfo follows the certificates) replaced by `oid`, which must have the same length. The signature
    /// covers the content only, so it still verifies.
    static func signatureAlgorithm(_ receipt: [UInt8], _ oid: [UInt8]) throws -> [UInt8] {
        let envelope = try #require(ReceiptEnvelope.scan(receipt))
        let start = try #require(
            (0...(envelope.signatureRange.lowerBound - rsaEncryption.count)).reversed().first {
                receipt[$0..<($0 + rsaEncryption.count)].elementsEqual(rsaEncryption)
            })
        #expect(oid.count == rsaEncryption.count)
        var copy = receipt
        copy.replaceSubrange(start..<(start + oid.count), with: oid)
        #expect(ReceiptEnvelope.scan(copy)?.signatureAlgorithm.oid == Array(oid.dropFirst(2)))
        return copy
    }

    /// `receipt` with the SignerInfo's issuer Name's "Apple Inc." written "APPLE INC." (same length, same
    /// string type): another encoding of a name that X.509's comparison (RFC 5280 §7.1, OpenSSL's canonical
    /// form) finds equal to the leaf's issuer, outside what the signature covers.
    static func signerIssuerUppercased(_ receipt: [UInt8]) throws -> [UInt8] {
        let envelope = try #require(ReceiptEnvelope.scan(receipt))
        let needle = Array("Apple Inc.".utf8)
        let range = envelope.signerIssuerRange
        let at = try #require(
            range.dropLast(needle.count).first { receipt[$0..<($0 + needle.count)].elementsEqual(needle) })
        var copy = receipt
        copy.replaceSubrange(at..<(at + needle.count), with: Array("APPLE INC.".utf8))
        #expect(ReceiptEnvelope.scan(copy)?.cacheKey != envelope.cacheKey)
        return copy
    }

    /// `receipt` with one bit of the signature's last byte flipped.
    static func flipSignature(_ receipt: [UInt8]) throws -> [UInt8] {
        let envelope = try #require(ReceiptEnvelope.scan(receipt))
        var copy = receipt
        copy[envelope.signatureRange.upperBound - 1] ^= 0x01
        return copy
    }

    /// `receipt` with the first occurrence of `text` in its content changed (one letter's case flipped): the
    /// DER stays valid, the signature no longer matches.
    static func alterContent(_ receipt: [UInt8], at text: String = ReceiptFixture.bundleId) throws -> [UInt8] {
        let envelope = try #require(ReceiptEnvelope.scan(receipt))
        let needle = Array(text.utf8)
        let content = envelope.contentRange
        let at = try #require(
            content.dropLast(needle.count).first { receipt[$0..<($0 + needle.count)].elementsEqual(needle) })
        var copy = receipt
        copy[at] ^= 0x20
        return copy
    }
}

extension ReceiptEnvelope {
    /// The whole key the receipt chain cache compares: its head and the certificates field's bytes.
    var cacheKey: [UInt8] { cacheKeyHead + Array(bytes[certificatesFieldRange]) }
}
