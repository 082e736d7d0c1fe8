import Foundation

/// A test certificate hierarchy shaped like the one that signs App Store app receipts (StoreKit 1),
/// for integration tests only.
///
/// Like Apple's chain: a self-signed RSA root named like Apple Inc. Root ("C=US, O=Apple Inc.,
/// OU=Apple Certification Authority, CN=Apple Root CA", PrintableStrings in that order); an RSA
/// intermediate "CN=Apple Worldwide Developer Relations Certification Authority, OU=G5,
/// O=Apple Inc., C=US" carrying the marker extension 1.2.840.113635.100.6.2.1; an RSA leaf
/// "CN=Mac App Store and iTunes Store Receipt Signing, OU=Apple Worldwide Developer Relations,
/// O=Apple Inc., C=US" carrying 1.2.840.113635.100.6.11.1; basicConstraints and keyUsage
/// critical, key identifiers, certificate signatures sha256WithRSAEncryption (SHA-1 on request, as
/// before 2023). Every key is a fresh random test key, so no certificate here verifies under Apple's
/// real root: a verifier accepts them only where a test configures ``rootDER`` as a trusted root.
///
/// Besides the chain it makes the certificates that receipt forgeries use: another leaf (without
/// the marker, with an EC or a 1024-bit key), a developer certificate issued by the same
/// intermediate without the leaf marker (the classic forgery: it chains to the same root), and an
/// Xcode StoreKit Testing style self-signed `CN=StoreKit` certificate.
public struct ReceiptTestPKI: Sendable, Hashable {
    /// OID of Apple's marker extension on the intermediate (Apple Worldwide Developer Relations CA).
    public static let intermediateMarkerOID = TestPKI.intermediateMarkerOID
    /// OID of Apple's marker extension on the receipt signing leaf.
    public static let leafMarkerOID = TestPKI.leafMarkerOID
    /// OID of the marker Apple writes into development (code signing) certificates.
    public static let developerMarkerOID = "1.2.840.113635.100.6.1.2"
    /// id-kp-codeSigning, the extended key usage of developer and Xcode StoreKit certificates.
    public static let codeSigningOID = "1.3.6.1.5.5.7.3.3"

    /// The default validity of every certificate: 2025-01-01T00:00:00Z ... 2035-01-01T00:00:00Z.
    public static let defaultValidity = TestPKI.defaultValidity

    /// Subject of the root: "C=US, O=Apple Inc., OU=Apple Certification Authority, CN=Apple Root CA".
    public static let rootName = name([
        .country("US"), printable("2.5.4.10", "Apple Inc."), printable("2.5.4.11", "Apple Certification Authority"),
        printable("2.5.4.3", "Apple Root CA"),
    ])
    /// Subject of the intermediate: "CN=Apple Worldwide Developer Relations Certification Authority,
    /// OU=G5, O=Apple Inc., C=US".
    public static let intermediateName = name([
        .commonName("Apple Worldwide Developer Relations Certification Authority"), .organizationalUnit("G5"),
        .organization("Apple Inc."), .country("US"),
    ])
    /// Subject of the leaf: "CN=Mac App Store and iTunes Store Receipt Signing, OU=Apple Worldwide
    /// Developer Relations, O=Apple Inc., C=US".
    public static let leafName = name([
        .commonName("Mac App Store and iTunes Store Receipt Signing"),
        .organizationalUnit("Apple Worldwide Developer Relations"), .organization("Apple Inc."), .country("US"),
    ])
    /// Subject of ``makeDeveloperCertificate(keyBits:validity:)``: an "Apple Development" code
    /// signing identity of a made-up team.
    public static let developerName = name([
        .commonName("Apple Development: JWSVerify Test Developer (TESTTEAM01)"),
        .organizationalUnit("TESTTEAM01"), .organization("JWSVerify Test Developer"), .country("US"),
    ])
    /// Subject (and issuer) of ``makeXcodeStoreKitCertificate(validity:keyBits:)``, as Xcode writes
    /// it: "CN=StoreKit, O=StoreKit, OU=StoreKit, C=US, emailAddress=StoreKit".
    public static let xcodeStoreKitName = name([
        .commonName("StoreKit"), .organization("StoreKit"), .organizationalUnit("StoreKit"), .country("US"),
        CraftedName.Attribute(oid: "1.2.840.113549.1.9.1", value: "StoreKit", stringTag: 0x16),
    ])

    /// The self-signed root certificate (RSA).
    public var root: TestCertificate
    /// The root's private key.
    public var rootKey: TestRSAPrivateKey
    /// The intermediate certificate (RSA, issued by the root).
    public var intermediate: TestCertificate
    /// The intermediate's private key.
    public var intermediateKey: TestRSAPrivateKey
    /// The leaf certificate (RSA, issued by the intermediate) that signs receipts.
    public var leaf: TestCertificate
    /// The leaf's private key.
    public var leafKey: TestRSAPrivateKey

    /// Assembles a hierarchy from parts, without checking them (negative tests may want odd ones).
    public init(
        root: TestCertificate, rootKey: TestRSAPrivateKey, intermediate: TestCertificate,
        intermediateKey: TestRSAPrivateKey, leaf: TestCertificate, leafKey: TestRSAPrivateKey
    ) {
        self.root = root
        self.rootKey = rootKey
        self.intermediate = intermediate
        self.intermediateKey = intermediateKey
        self.leaf = leaf
        self.leafKey = leafKey
    }

    /// The root certificate's DER: configure a verifier (or ``ReceiptReference``) to trust it.
    public var rootDER: Data { root.der }

    /// The root with its key.
    public var rootCredential: TestSigningCredential {
        TestSigningCredential(certificate: root, privateKey: .rsa(rootKey))
    }
    /// The intermediate with its key.
    public var intermediateCredential: TestSigningCredential {
        TestSigningCredential(certificate: intermediate, privateKey: .rsa(intermediateKey))
    }
    /// The leaf with its key.
    public var leafCredential: TestSigningCredential {
        TestSigningCredential(certificate: leaf, privateKey: .rsa(leafKey))
    }

    /// `[leaf, intermediate, root]`, the order in which App Store receipts embed them.
    public var certificateChain: [TestCertificate] { [leaf, intermediate, root] }

    // MARK: Generating

    /// Generates a root, an intermediate and a leaf, each with a new random RSA key.
    ///
    /// - Parameters:
    ///   - validity: the root's validity; nil means ``defaultValidity``.
    ///   - intermediateValidity: nil means the root's.
    ///   - leafValidity: nil means the intermediate's.
    ///   - keyBits: the size of every key (2048 as Apple's).
    ///   - certificateDigest: the digest of the certificate signatures: `.sha256` (Apple's chains
    ///     since 2023) or `.sha1` (before).
    /// - Throws: ``JWSTestingError`` when a key or a certificate cannot be made.
    public static func generate(
        validity: ClosedRange<Date>? = nil, intermediateValidity: ClosedRange<Date>? = nil,
        leafValidity: ClosedRange<Date>? = nil, keyBits: Int = 2048, certificateDigest: CraftedDigest = .sha256
    ) throws -> ReceiptTestPKI {
        let validity = validity ?? defaultValidity
        let rootKey = try TestRSAPrivateKey.generate(bits: keyBits)
        let rootSPKI = rootKey.publicKeyDER
        let rootCertificate = CraftedCertificate(
            subject: rootName, issuer: rootName, serialNumber: Data([0x02]),
            notBefore: seconds(validity.lowerBound), notAfter: seconds(validity.upperBound),
            signatureDigest: certificateDigest, publicKey: .subjectPublicKeyInfo(rootSPKI),
            extensions: [
                .keyUsage([.keyCertSign, .cRLSign]), .basicConstraints(ca: true),
                .subjectKeyIdentifier(try keyIdentifier(rootSPKI)),
                .authorityKeyIdentifier(try keyIdentifier(rootSPKI)),
            ])
        let root = try TestCertificate(der: rootCertificate.sign(with: .rsa(rootKey)))
        let partial = ReceiptTestPKI(
            root: root, rootKey: rootKey, intermediate: root, intermediateKey: rootKey, leaf: root, leafKey: rootKey)
        let intermediate = try partial.makeIntermediate(
            keyBits: keyBits, validity: intermediateValidity, certificateDigest: certificateDigest)
        guard case .rsa(let intermediateKey) = intermediate.privateKey else {
            throw JWSTestingError.invalidArgument("the intermediate key is not RSA")
        }
        var pki = partial
        pki.intermediate = intermediate.certificate
        pki.intermediateKey = intermediateKey
        let leaf = try pki.makeLeaf(keyBits: keyBits, validity: leafValidity, certificateDigest: certificateDigest)
        guard case .rsa(let leafKey) = leaf.privateKey else {
            throw JWSTestingError.invalidArgument("the leaf key is not RSA")
        }
        pki.leaf = leaf.certificate
        pki.leafKey = leafKey
        return pki
    }

    /// Issues a new intermediate under this hierarchy's root, by default with the same profile as
    /// ``intermediate`` (basicConstraints CA with path length 0, keyCertSign and cRLSign, the marker).
    ///
    /// - Parameters:
    ///   - keyBits: the RSA key size.
    ///   - validity: nil means the root's validity.
    ///   - includeIntermediateMarker: false leaves out 1.2.840.113635.100.6.2.1.
    ///   - commonName: nil means ``intermediateName``'s.
    ///   - certificateDigest: the digest of the root's signature.
    public func makeIntermediate(
        keyBits: Int = 2048, validity: ClosedRange<Date>? = nil, includeIntermediateMarker: Bool = true,
        commonName: String? = nil, certificateDigest: CraftedDigest = .sha256
    ) throws -> TestSigningCredential {
        let key = TestSigningKey.rsa(try TestRSAPrivateKey.generate(bits: keyBits))
        let validity = validity ?? root.notBefore...root.notAfter
        let subject =
            commonName.map {
                Self.name([.commonName($0), .organizationalUnit("G5"), .organization("Apple Inc."), .country("US")])
            } ?? Self.intermediateName
        var extensions: [TestExtension] = [
            .basicConstraints(ca: true, pathLength: 0),
            .authorityKeyIdentifier(try Self.keyIdentifier(rootKey.publicKeyDER)),
            .subjectKeyIdentifier(try Self.keyIdentifier(key.publicKeyDER)),
            .keyUsage([.keyCertSign, .cRLSign]),
        ]
        if includeIntermediateMarker { extensions.append(.appleIntermediateMarker()) }
        return try issue(
            subject: subject, key: key, validity: validity, extensions: extensions, digest: certificateDigest,
            issuer: rootCredential)
    }

    /// Issues a new receipt signing leaf, by default under this hierarchy's intermediate with the
    /// same profile as ``leaf`` (basicConstraints CA:FALSE, digitalSignature, the marker).
    ///
    /// - Parameters:
    ///   - key: the leaf's key; nil means a new RSA key of `keyBits` bits. Pass an EC key (or a
    ///     1024-bit RSA key) for a leaf whose key a verifier must refuse.
    ///   - keyBits: the size of the new RSA key when `key` is nil.
    ///   - validity: nil means the issuer's validity.
    ///   - includeLeafMarker: false leaves out 1.2.840.113635.100.6.11.1.
    ///   - commonName: nil means ``leafName``'s.
    ///   - issuer: nil means ``intermediateCredential``.
    ///   - certificateDigest: the digest of the issuer's signature.
    public func makeLeaf(
        key: TestSigningKey? = nil, keyBits: Int = 2048, validity: ClosedRange<Date>? = nil,
        includeLeafMarker: Bool = true, commonName: String? = nil, issuer: TestSigningCredential? = nil,
        certificateDigest: CraftedDigest = .sha256
    ) throws -> TestSigningCredential {
        let issuer = issuer ?? intermediateCredential
        let key = try key ?? .rsa(TestRSAPrivateKey.generate(bits: keyBits))
        let subject =
            commonName.map {
                Self.name([
                    .commonName($0), .organizationalUnit("Apple Worldwide Developer Relations"),
                    .organization("Apple Inc."), .country("US"),
                ])
            } ?? Self.leafName
        var extensions: [TestExtension] = [
            .basicConstraints(ca: false),
            .authorityKeyIdentifier(try Self.keyIdentifier(issuer.certificate.publicKeyDER)),
            .subjectKeyIdentifier(try Self.keyIdentifier(key.publicKeyDER)),
            .keyUsage([.digitalSignature]),
        ]
        if includeLeafMarker { extensions.append(.appleLeafMarker()) }
        return try issue(
            subject: subject, key: key,
            validity: validity ?? issuer.certificate.notBefore...issuer.certificate.notAfter,
            extensions: extensions, digest: certificateDigest, issuer: issuer)
    }

    /// A developer's code signing certificate issued by this hierarchy's intermediate: keyUsage
    /// digitalSignature, extendedKeyUsage codeSigning (critical) and Apple's developer marker
    /// 1.2.840.113635.100.6.1.2 (non-critical here, so that OpenSSL's path check does not stop at
    /// it), but not the receipt leaf marker. It chains to ``root`` like the real leaf: a receipt it
    /// signs is the classic forgery, which only the marker check stops.
    ///
    /// - Parameters:
    ///   - keyBits: the RSA key size.
    ///   - validity: nil means the intermediate's validity.
    public func makeDeveloperCertificate(
        keyBits: Int = 2048, validity: ClosedRange<Date>? = nil
    ) throws
        -> TestSigningCredential
    {
        let key = TestSigningKey.rsa(try TestRSAPrivateKey.generate(bits: keyBits))
        let extensions: [TestExtension] = [
            .basicConstraints(ca: false),
            .authorityKeyIdentifier(try Self.keyIdentifier(intermediate.publicKeyDER)),
            .keyUsage([.digitalSignature]),
            try .extendedKeyUsage([Self.codeSigningOID], critical: true),
            .subjectKeyIdentifier(try Self.keyIdentifier(key.publicKeyDER)),
            TestExtension(oid: Self.developerMarkerOID, critical: false, value: TestDER.null),
        ]
        return try issue(
            subject: Self.developerName, key: key, validity: validity ?? intermediate.notBefore...intermediate.notAfter,
            extensions: extensions, digest: .sha256, issuer: intermediateCredential)
    }

    /// An Xcode StoreKit Testing style certificate: self-signed RSA, serial 1, named
    /// ``xcodeStoreKitName``, basicConstraints CA:TRUE, keyUsage digitalSignature and keyCertSign,
    /// extendedKeyUsage codeSigning (all critical, as Xcode writes them), sha256WithRSAEncryption.
    /// Sign with ``ReceiptSigner/xcode(_:)``, which embeds only this certificate and writes BER.
    ///
    /// - Parameters:
    ///   - validity: nil means ``defaultValidity`` (Xcode's own run for 20 years).
    ///   - keyBits: the RSA key size (Xcode's: 2048).
    public static func makeXcodeStoreKitCertificate(
        validity: ClosedRange<Date>? = nil, keyBits: Int = 2048
    ) throws
        -> TestSigningCredential
    {
        let validity = validity ?? defaultValidity
        let key = try TestRSAPrivateKey.generate(bits: keyBits)
        let certificate = CraftedCertificate(
            subject: xcodeStoreKitName, issuer: xcodeStoreKitName, serialNumber: Data([0x01]),
            notBefore: seconds(validity.lowerBound), notAfter: seconds(validity.upperBound),
            signatureDigest: .sha256, publicKey: .subjectPublicKeyInfo(key.publicKeyDER),
            extensions: [
                .basicConstraints(ca: true), .keyUsage([.digitalSignature, .keyCertSign]),
                try .extendedKeyUsage([codeSigningOID], critical: true),
            ])
        return TestSigningCredential(
            certificate: try TestCertificate(der: certificate.sign(with: .rsa(key))), privateKey: .rsa(key))
    }

    /// Another complete hierarchy with the same names and validity but new keys: an unrelated root
    /// that a verifier trusting only ``root`` must reject.
    public func makeUnrelatedPKI() throws -> ReceiptTestPKI {
        try ReceiptTestPKI.generate(
            validity: root.notBefore...root.notAfter,
            intermediateValidity: intermediate.notBefore...intermediate.notAfter,
            leafValidity: leaf.notBefore...leaf.notAfter, keyBits: rootKey.bitCount)
    }

    // MARK: Files

    /// The files ``write(to:)`` writes and ``load(from:)`` reads (the names ``TestPKI`` uses).
    public typealias FileName = TestPKI.FileName

    /// Writes root.der, root.pem, intermediate.der, intermediate.pem, leaf.der, leaf.pem and the
    /// PKCS#8 keys root.key.pem, intermediate.key.pem, leaf.key.pem (mode 0600) into `directory`,
    /// creating it when missing and replacing existing files.
    public func write(to directory: URL) throws {
        try FileOutput.writeHierarchy(
            (root, intermediate, leaf), keyPEMs: (rootKey.pkcs8PEM(), intermediateKey.pkcs8PEM(), leafKey.pkcs8PEM()),
            to: directory)
    }

    /// Reads a hierarchy written by ``write(to:)``: the DER certificates and the RSA keys; each key
    /// must belong to its certificate.
    ///
    /// - Throws: ``JWSTestingError/file(path:message:)`` for a missing file,
    ///   ``JWSTestingError/keyMismatch(_:)`` when a key is not its certificate's.
    public static func load(from directory: URL) throws -> ReceiptTestPKI {
        func certificate(_ name: String) throws -> TestCertificate {
            try TestCertificate(der: FileOutput.read(directory.appendingPathComponent(name)))
        }
        func key(_ name: String, for certificate: TestCertificate) throws -> TestRSAPrivateKey {
            let key = try TestRSAPrivateKey(pem: FileOutput.readText(directory.appendingPathComponent(name)))
            guard key.publicKeyDER == certificate.publicKeyDER else {
                throw JWSTestingError.keyMismatch("\(name) does not belong to \(certificate.subject.commonName)")
            }
            return key
        }
        let root = try certificate(FileName.rootDER)
        let intermediate = try certificate(FileName.intermediateDER)
        let leaf = try certificate(FileName.leafDER)
        return ReceiptTestPKI(
            root: root, rootKey: try key(FileName.rootKey, for: root), intermediate: intermediate,
            intermediateKey: try key(FileName.intermediateKey, for: intermediate), leaf: leaf,
            leafKey: try key(FileName.leafKey, for: leaf))
    }

    // MARK: Parts

    private func issue(
        subject: CraftedName, key: TestSigningKey, validity: ClosedRange<Date>, extensions: [TestExtension],
        digest: CraftedDigest, issuer: TestSigningCredential
    ) throws -> TestSigningCredential {
        let certificate = CraftedCertificate(
            subject: subject, issuer: CraftedName(der: try Self.subjectDER(of: issuer.certificate)),
            serialNumber: Self.randomSerialNumber(), notBefore: Self.seconds(validity.lowerBound),
            notAfter: Self.seconds(validity.upperBound), signatureDigest: digest,
            publicKey: .subjectPublicKeyInfo(key.publicKeyDER), extensions: extensions)
        return TestSigningCredential(
            certificate: try TestCertificate(der: certificate.sign(with: issuer.privateKey)), privateKey: key)
    }

    /// The subject Name DER of a certificate, so that an issued certificate's issuer is byte-identical.
    static func subjectDER(of certificate: TestCertificate) throws -> Data {
        // Certificate { TBSCertificate { [0] version, serial, signature, issuer, validity, subject, ... } }
        var outer = TestDERReader(certificate.der)
        var contents = try outer.read(tag: 0x30)
        var fields = try contents.read(tag: 0x30)
        for tag: UInt8 in [0xA0, 0x02, 0x30, 0x30, 0x30] { _ = try fields.read(tag: tag) }
        let before = fields.remaining
        _ = try fields.read(tag: 0x30)
        return Data(before.prefix(before.count - fields.remaining.count))
    }

    private static func name(_ attributes: [CraftedName.Attribute]) -> CraftedName {
        // Built-in OIDs only: cannot fail.
        (try? CraftedName(attributes)) ?? CraftedName(der: TestDER.sequence([]))
    }

    private static func printable(_ oid: String, _ value: String) -> CraftedName.Attribute {
        CraftedName.Attribute(oid: oid, value: value, stringTag: 0x13)
    }

    private static func keyIdentifier(_ spki: Data) throws -> Data {
        try CraftedPublicKey.keyIdentifier(ofSPKI: spki)
    }

    private static func seconds(_ date: Date) -> Int64 {
        Int64(date.timeIntervalSince1970.rounded(.down))
    }

    private static func randomSerialNumber() -> Data {
        var generator = SeededGenerator.random(label: "receipt-serial")
        return generator.serialNumber()
    }
}
