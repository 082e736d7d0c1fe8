import Foundation

/// The ``TestHierarchy/Profile/receiptRSA`` profile of ``TestHierarchy`` with typed RSA keys: a hierarchy
/// shaped like the one that signs App Store app receipts (StoreKit 1), for integration tests only.
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
/// Deprecated in favour of ``TestHierarchy`` (`TestHierarchy.generate(.receiptRSA)`), which makes this
/// hierarchy and the token one; kept for existing callers, and a view of it: every method here calls
/// ``TestHierarchy``'s. ``hierarchy`` and ``init(_:)`` convert.
@available(
    *, deprecated,
    message: "ReceiptTestPKI is a view of TestHierarchy: use TestHierarchy.generate(.receiptRSA, options:)"
)
public struct ReceiptTestPKI: Sendable, Hashable {
    /// OID of Apple's marker extension on the intermediate (Apple Worldwide Developer Relations CA).
    @available(*, deprecated, message: "use TestHierarchy.intermediateMarkerOID")
    public static let intermediateMarkerOID = TestHierarchy.intermediateMarkerOID
    /// OID of Apple's marker extension on the receipt signing leaf.
    @available(*, deprecated, message: "use TestHierarchy.leafMarkerOID")
    public static let leafMarkerOID = TestHierarchy.leafMarkerOID
    /// OID of the marker Apple writes into development (code signing) certificates.
    @available(*, deprecated, message: "use TestHierarchy.ReceiptRSA.developerMarkerOID")
    public static let developerMarkerOID = TestHierarchy.ReceiptRSA.developerMarkerOID
    /// id-kp-codeSigning, the extended key usage of developer and Xcode StoreKit certificates.
    @available(*, deprecated, message: "use TestHierarchy.ReceiptRSA.codeSigningOID")
    public static let codeSigningOID = TestHierarchy.ReceiptRSA.codeSigningOID
    /// The default validity of every certificate: 2025-01-01T00:00:00Z ... 2035-01-01T00:00:00Z.
    @available(*, deprecated, message: "use TestHierarchy.defaultValidity")
    public static let defaultValidity = TestHierarchy.defaultValidity
    /// Subject of the root: "C=US, O=Apple Inc., OU=Apple Certification Authority, CN=Apple Root CA".
    @available(*, deprecated, message: "use TestHierarchy.ReceiptRSA.rootName")
    public static let rootName = TestHierarchy.ReceiptRSA.rootName
    /// Subject of the intermediate: "CN=Apple Worldwide Developer Relations Certification Authority,
    /// OU=G5, O=Apple Inc., C=US".
    @available(*, deprecated, message: "use TestHierarchy.ReceiptRSA.intermediateName")
    public static let intermediateName = TestHierarchy.ReceiptRSA.intermediateName
    /// Subject of the leaf: "CN=Mac App Store and iTunes Store Receipt Signing, OU=Apple Worldwide
    /// Developer Relations, O=Apple Inc., C=US".
    @available(*, deprecated, message: "use TestHierarchy.ReceiptRSA.leafName")
    public static let leafName = TestHierarchy.ReceiptRSA.leafName
    /// Subject of ``makeDeveloperCertificate(keyBits:validity:)``.
    @available(*, deprecated, message: "use TestHierarchy.ReceiptRSA.developerName")
    public static let developerName = TestHierarchy.ReceiptRSA.developerName
    /// Subject (and issuer) of ``makeXcodeStoreKitCertificate(validity:keyBits:)``.
    @available(*, deprecated, message: "use TestHierarchy.ReceiptRSA.xcodeStoreKitName")
    public static let xcodeStoreKitName = TestHierarchy.ReceiptRSA.xcodeStoreKitName

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
    @available(*, deprecated, message: "use TestHierarchy.init(profile: .receiptRSA, root:rootKey:intermediate:intermediateKey:leaf:leafKey:)")
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

    /// The typed view of `hierarchy`, whatever its profile, when its three keys are RSA.
    ///
    /// - Throws: ``JWSTestingError/invalidArgument(_:)`` when a key is EC.
    @available(*, deprecated, message: "use the TestHierarchy itself")
    public init(_ hierarchy: TestHierarchy) throws {
        func rsa(_ key: TestSigningKey, _ role: String) throws -> TestRSAPrivateKey {
            guard case .rsa(let rsa) = key else { throw JWSTestingError.invalidArgument("\(role) key is not RSA") }
            return rsa
        }
        self.init(
            root: hierarchy.root, rootKey: try rsa(hierarchy.rootKey, "the root"),
            intermediate: hierarchy.intermediate,
            intermediateKey: try rsa(hierarchy.intermediateKey, "the intermediate"),
            leaf: hierarchy.leaf, leafKey: try rsa(hierarchy.leafKey, "the leaf"))
    }

    /// This hierarchy as a ``TestHierarchy`` of the `.receiptRSA` profile.
    @available(*, deprecated, message: "use TestHierarchy in place of ReceiptTestPKI")
    public var hierarchy: TestHierarchy {
        TestHierarchy(
            profile: .receiptRSA, root: root, rootKey: .rsa(rootKey), intermediate: intermediate,
            intermediateKey: .rsa(intermediateKey), leaf: leaf, leafKey: .rsa(leafKey))
    }

    /// The root certificate's DER: configure a verifier (or ``ReceiptReference``) to trust it.
    @available(*, deprecated, message: "use TestHierarchy.rootDER")
    public var rootDER: Data { hierarchy.rootDER }

    /// The root with its key.
    @available(*, deprecated, message: "use TestHierarchy.rootCredential")
    public var rootCredential: TestSigningCredential { hierarchy.rootCredential }
    /// The intermediate with its key.
    @available(*, deprecated, message: "use TestHierarchy.intermediateCredential")
    public var intermediateCredential: TestSigningCredential { hierarchy.intermediateCredential }
    /// The leaf with its key.
    @available(*, deprecated, message: "use TestHierarchy.leafCredential")
    public var leafCredential: TestSigningCredential { hierarchy.leafCredential }

    /// `[leaf, intermediate, root]`, the order in which App Store receipts embed them.
    @available(*, deprecated, message: "use TestHierarchy.certificateChain")
    public var certificateChain: [TestCertificate] { hierarchy.certificateChain }

    // MARK: Generating

    /// Generates a root, an intermediate and a leaf, each with a new random RSA key:
    /// `TestHierarchy.generate(.receiptRSA, options:)`.
    ///
    /// - Parameters:
    ///   - validity: the root's validity; nil means ``defaultValidity``.
    ///   - intermediateValidity: nil means the root's.
    ///   - leafValidity: nil means the intermediate's.
    ///   - keyBits: the size of every key (2048 as Apple's).
    ///   - certificateDigest: the digest of the certificate signatures: `.sha256` (Apple's chains
    ///     since 2023) or `.sha1` (before).
    /// - Throws: ``JWSTestingError`` when a key or a certificate cannot be made.
    @available(*, deprecated, message: "use TestHierarchy.generate(.receiptRSA, options:)")
    public static func generate(
        validity: ClosedRange<Date>? = nil, intermediateValidity: ClosedRange<Date>? = nil,
        leafValidity: ClosedRange<Date>? = nil, keyBits: Int = 2048, certificateDigest: CraftedDigest = .sha256
    ) throws -> ReceiptTestPKI {
        try ReceiptTestPKI(
            TestHierarchy.generate(
                .receiptRSA,
                options: .init(
                    validity: validity, intermediateValidity: intermediateValidity, leafValidity: leafValidity,
                    rsaKeyBits: keyBits, certificateDigest: certificateDigest)))
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
    @available(*, deprecated, message: "use TestHierarchy.makeIntermediate(validity:includeAppleMarker:commonName:keyBits:certificateDigest:)")
    public func makeIntermediate(
        keyBits: Int = 2048, validity: ClosedRange<Date>? = nil, includeIntermediateMarker: Bool = true,
        commonName: String? = nil, certificateDigest: CraftedDigest = .sha256
    ) throws -> TestSigningCredential {
        try hierarchy.makeIntermediate(
            validity: validity, includeAppleMarker: includeIntermediateMarker, commonName: commonName,
            keyBits: keyBits, certificateDigest: certificateDigest)
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
    @available(*, deprecated, message: "use TestHierarchy.makeLeaf(key:validity:includeAppleMarker:commonName:issuer:keyBits:certificateDigest:)")
    public func makeLeaf(
        key: TestSigningKey? = nil, keyBits: Int = 2048, validity: ClosedRange<Date>? = nil,
        includeLeafMarker: Bool = true, commonName: String? = nil, issuer: TestSigningCredential? = nil,
        certificateDigest: CraftedDigest = .sha256
    ) throws -> TestSigningCredential {
        try hierarchy.makeLeaf(
            key: key, validity: validity, includeAppleMarker: includeLeafMarker, commonName: commonName,
            issuer: issuer, keyBits: keyBits, certificateDigest: certificateDigest)
    }

    /// A developer's code signing certificate issued by this hierarchy's intermediate, without the receipt
    /// leaf marker: ``TestHierarchy/makeDeveloperCertificate(keyBits:validity:)``.
    @available(*, deprecated, message: "use TestHierarchy.makeDeveloperCertificate(keyBits:validity:)")
    public func makeDeveloperCertificate(
        keyBits: Int = 2048, validity: ClosedRange<Date>? = nil
    ) throws
        -> TestSigningCredential
    {
        try hierarchy.makeDeveloperCertificate(keyBits: keyBits, validity: validity)
    }

    /// An Xcode StoreKit Testing style certificate: ``TestHierarchy/makeXcodeStoreKitCertificate(validity:keyBits:)``.
    @available(*, deprecated, message: "use TestHierarchy.makeXcodeStoreKitCertificate(validity:keyBits:)")
    public static func makeXcodeStoreKitCertificate(
        validity: ClosedRange<Date>? = nil, keyBits: Int = 2048
    ) throws
        -> TestSigningCredential
    {
        try TestHierarchy.makeXcodeStoreKitCertificate(validity: validity, keyBits: keyBits)
    }

    /// Another complete hierarchy with the same names and validity but new keys: an unrelated root
    /// that a verifier trusting only ``root`` must reject.
    @available(*, deprecated, message: "use TestHierarchy.makeUnrelated(seed:)")
    public func makeUnrelatedPKI() throws -> ReceiptTestPKI {
        try ReceiptTestPKI(hierarchy.makeUnrelated())
    }

    // MARK: Files

    /// The files ``write(to:)`` writes and ``load(from:)`` reads (the names ``TestPKI`` uses).
    @available(*, deprecated, message: "use TestHierarchy.FileName")
    public typealias FileName = TestHierarchy.FileName
    /// The files of an Xcode StoreKit Testing credential.
    @available(*, deprecated, message: "use TestHierarchy.XcodeFileName")
    public typealias XcodeFileName = TestHierarchy.XcodeFileName

    /// Writes root.der, root.pem, intermediate.der, intermediate.pem, leaf.der, leaf.pem and the
    /// PKCS#8 keys root.key.pem, intermediate.key.pem, leaf.key.pem (mode 0600) into `directory`,
    /// creating it when missing and replacing existing files.
    @available(*, deprecated, message: "use TestHierarchy.write(to:)")
    public func write(to directory: URL) throws {
        try hierarchy.write(to: directory)
    }

    /// Reads a hierarchy written by ``write(to:)``: the certificates and the RSA keys; each key
    /// must belong to its certificate.
    ///
    /// - Throws: ``JWSTestingError/file(path:message:)`` for a missing file,
    ///   ``JWSTestingError/keyMismatch(_:)`` when a key is not its certificate's.
    @available(*, deprecated, message: "use TestHierarchy.load(from:)")
    public static func load(from directory: URL) throws -> ReceiptTestPKI {
        try ReceiptTestPKI(TestHierarchy.load(from: directory))
    }

    /// Writes an Xcode StoreKit Testing credential: ``TestHierarchy/writeXcodeStoreKitCredential(_:to:)``.
    @available(*, deprecated, message: "use TestHierarchy.writeXcodeStoreKitCredential(_:to:)")
    public static func writeXcodeStoreKitCredential(_ credential: TestSigningCredential, to directory: URL) throws {
        try TestHierarchy.writeXcodeStoreKitCredential(credential, to: directory)
    }

    /// Reads an Xcode StoreKit Testing credential: ``TestHierarchy/loadXcodeStoreKitCredential(from:)``.
    @available(*, deprecated, message: "use TestHierarchy.loadXcodeStoreKitCredential(from:)")
    public static func loadXcodeStoreKitCredential(from directory: URL) throws -> TestSigningCredential {
        try TestHierarchy.loadXcodeStoreKitCredential(from: directory)
    }
}
