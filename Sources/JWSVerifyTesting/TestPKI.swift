import Foundation

/// The ``TestHierarchy/Profile/appStoreEC`` profile of ``TestHierarchy`` with typed EC keys: the App
/// Store's JWS chain (P-384 root, P-384 intermediate with 1.2.840.113635.100.6.2.1, P-256 leaf with
/// 1.2.840.113635.100.6.11.1), for integration tests only.
///
/// Deprecated in favour of ``TestHierarchy``, which makes this hierarchy (`TestHierarchy.generate(.appStoreEC,
/// seed:)`, the same certificates for the same seed) and the receipt one; kept for existing callers, and a
/// view of it: every method here calls ``TestHierarchy``'s. ``hierarchy`` and ``init(_:)`` convert.
///
/// Production verifiers trust only Apple's root, so these certificates are accepted only where a
/// test configures ``root`` as a trusted root.
@available(
    *, deprecated,
    message: "TestPKI is a view of TestHierarchy: use TestHierarchy.generate(.appStoreEC, seed:options:), the same certificates for the same seed"
)
public struct TestPKI: Sendable, Hashable {
    /// OID of Apple's marker extension on the intermediate (Apple Worldwide Developer Relations CA).
    @available(*, deprecated, message: "use TestHierarchy.intermediateMarkerOID")
    public static let intermediateMarkerOID = TestHierarchy.intermediateMarkerOID
    /// OID of Apple's marker extension on the App Store receipt signing leaf.
    @available(*, deprecated, message: "use TestHierarchy.leafMarkerOID")
    public static let leafMarkerOID = TestHierarchy.leafMarkerOID
    /// The default validity of every certificate: 2025-01-01T00:00:00Z ... 2035-01-01T00:00:00Z.
    @available(*, deprecated, message: "use TestHierarchy.defaultValidity")
    public static let defaultValidity = TestHierarchy.defaultValidity
    /// Subject of the root.
    @available(*, deprecated, message: "use TestHierarchy.AppStoreEC.rootName")
    public static let rootName = TestHierarchy.AppStoreEC.rootName
    /// Subject of the intermediate.
    @available(*, deprecated, message: "use TestHierarchy.AppStoreEC.intermediateName")
    public static let intermediateName = TestHierarchy.AppStoreEC.intermediateName
    /// Subject of the leaf.
    @available(*, deprecated, message: "use TestHierarchy.AppStoreEC.leafName")
    public static let leafName = TestHierarchy.AppStoreEC.leafName
    /// The default OCSP URL written into the intermediate (the root's responder; never resolves).
    @available(*, deprecated, message: "use TestHierarchy.AppStoreEC.rootOCSPURL")
    public static let rootOCSPURL = TestHierarchy.AppStoreEC.rootOCSPURL
    /// The default OCSP URL written into leaves (the intermediate's responder; never resolves).
    @available(*, deprecated, message: "use TestHierarchy.AppStoreEC.intermediateOCSPURL")
    public static let intermediateOCSPURL = TestHierarchy.AppStoreEC.intermediateOCSPURL

    /// The self-signed root certificate (P-384).
    public var root: TestCertificate
    /// The root's private key.
    public var rootKey: TestPrivateKey
    /// The intermediate certificate (P-384, issued by the root).
    public var intermediate: TestCertificate
    /// The intermediate's private key.
    public var intermediateKey: TestPrivateKey
    /// The leaf certificate (P-256, issued by the intermediate) that signs tokens.
    public var leaf: TestCertificate
    /// The leaf's private key.
    public var leafKey: TestPrivateKey

    /// Assembles a hierarchy from parts, without checking them (negative tests may want odd ones).
    @available(*, deprecated, message: "use TestHierarchy.init(profile: .appStoreEC, root:rootKey:intermediate:intermediateKey:leaf:leafKey:)")
    public init(
        root: TestCertificate, rootKey: TestPrivateKey, intermediate: TestCertificate,
        intermediateKey: TestPrivateKey, leaf: TestCertificate, leafKey: TestPrivateKey
    ) {
        self.root = root
        self.rootKey = rootKey
        self.intermediate = intermediate
        self.intermediateKey = intermediateKey
        self.leaf = leaf
        self.leafKey = leafKey
    }

    /// The typed view of `hierarchy`, whatever its profile, when its three keys are EC.
    ///
    /// - Throws: ``JWSTestingError/invalidArgument(_:)`` when a key is RSA.
    @available(*, deprecated, message: "use the TestHierarchy itself")
    public init(_ hierarchy: TestHierarchy) throws {
        self.init(
            root: hierarchy.root, rootKey: try TestHierarchy.ecKey(hierarchy.rootKey, "the root"),
            intermediate: hierarchy.intermediate,
            intermediateKey: try TestHierarchy.ecKey(hierarchy.intermediateKey, "the intermediate"),
            leaf: hierarchy.leaf, leafKey: try TestHierarchy.ecKey(hierarchy.leafKey, "the leaf"))
    }

    /// This hierarchy as a ``TestHierarchy`` of the `.appStoreEC` profile.
    @available(*, deprecated, message: "use TestHierarchy in place of TestPKI")
    public var hierarchy: TestHierarchy {
        TestHierarchy(
            profile: .appStoreEC, root: root, rootKey: .ec(rootKey), intermediate: intermediate,
            intermediateKey: .ec(intermediateKey), leaf: leaf, leafKey: .ec(leafKey))
    }

    /// The root with its key.
    @available(*, deprecated, message: "use TestHierarchy.rootCredential")
    public var rootCredential: TestCredential { TestCredential(certificate: root, privateKey: rootKey) }
    /// The intermediate with its key.
    @available(*, deprecated, message: "use TestHierarchy.intermediateCredential")
    public var intermediateCredential: TestCredential {
        TestCredential(certificate: intermediate, privateKey: intermediateKey)
    }
    /// The leaf with its key.
    @available(*, deprecated, message: "use TestHierarchy.leafCredential")
    public var leafCredential: TestCredential { TestCredential(certificate: leaf, privateKey: leafKey) }

    /// `[leaf, intermediate, root]`, the order of a JWS `x5c` header.
    @available(*, deprecated, message: "use TestHierarchy.certificateChain")
    public var certificateChain: [TestCertificate] { hierarchy.certificateChain }

    /// The `x5c` header value: leaf, intermediate, root as standard base64 DER.
    @available(*, deprecated, message: "use TestHierarchy.x5c")
    public var x5c: [String] { hierarchy.x5c }

    // MARK: Generating

    /// Generates a root, an intermediate and a leaf: `TestHierarchy.generate(.appStoreEC, seed:options:)`.
    ///
    /// - Parameters:
    ///   - seed: makes keys and serial numbers deterministic (certificate signatures still vary,
    ///     as ECDSA signatures do); nil makes everything random.
    ///   - validity: validity of all three certificates; nil means ``defaultValidity``.
    ///   - rootOCSPURL: the OCSP URL in the intermediate's Authority Information Access, where the
    ///     root's responder answers for the intermediate (default ``rootOCSPURL``, which never
    ///     resolves). Pass a running responder's URL, such as `http://127.0.0.1:8801`, to check
    ///     revocation for real.
    ///   - intermediateOCSPURL: the OCSP URL in the leaf's Authority Information Access, where the
    ///     intermediate's responder answers for the leaf (default ``intermediateOCSPURL``).
    ///
    /// Leaves and intermediates issued later by ``makeLeaf(curve:validity:includeAppleMarker:commonName:issuer:seed:)``
    /// and ``makeIntermediate(curve:validity:includeAppleMarker:isCertificateAuthority:commonName:seed:)``
    /// carry the default URLs.
    @available(*, deprecated, message: "use TestHierarchy.generate(.appStoreEC, seed:options:)")
    public static func generate(
        seed: UInt64? = nil, validity: ClosedRange<Date>? = nil, rootOCSPURL: String = TestPKI.rootOCSPURL,
        intermediateOCSPURL: String = TestPKI.intermediateOCSPURL
    ) throws -> TestPKI {
        try TestPKI(
            TestHierarchy.generate(
                .appStoreEC, seed: seed,
                options: .init(validity: validity, rootOCSPURL: rootOCSPURL, intermediateOCSPURL: intermediateOCSPURL)))
    }

    /// Issues a new leaf, by default under this hierarchy's intermediate with the same profile as
    /// ``leaf`` (``TestHierarchy/makeLeaf(key:validity:includeAppleMarker:commonName:issuer:keyBits:certificateDigest:seed:)``).
    /// Benchmarks use it to sign each token with its own leaf; negative tests use the options.
    ///
    /// - Parameters:
    ///   - curve: `.p384` makes a leaf whose key ES256 cannot use.
    ///   - validity: nil means the issuer's validity.
    ///   - includeAppleMarker: false leaves out 1.2.840.113635.100.6.11.1.
    ///   - commonName: nil means ``leafName``'s.
    ///   - issuer: nil means ``intermediateCredential``. Pass a credential whose key does not match
    ///     its certificate to forge a leaf that names that issuer but fails signature checks.
    ///   - seed: makes the key and serial number deterministic; nil makes them random.
    @available(*, deprecated, message: "use TestHierarchy.makeLeaf(key:validity:includeAppleMarker:commonName:issuer:seed:)")
    public func makeLeaf(
        curve: TestCurve = .p256, validity: ClosedRange<Date>? = nil,
        includeAppleMarker: Bool = true, commonName: String? = nil,
        issuer: TestCredential? = nil, seed: UInt64? = nil
    ) throws -> TestCredential {
        let seed = seed ?? randomSeed()
        let key = try TestPrivateKey.generate(curve: curve, seed: seed, label: "extra-leaf")
        return try Self.typed(
            hierarchy.makeLeaf(
                key: .ec(key), validity: validity, includeAppleMarker: includeAppleMarker, commonName: commonName,
                issuer: issuer.map {
                    TestSigningCredential(certificate: $0.certificate, privateKey: .ec($0.privateKey))
                },
                seed: seed))
    }

    /// Issues a new intermediate under this hierarchy's root, by default with the same profile as
    /// ``intermediate``.
    ///
    /// - Parameters:
    ///   - curve: the intermediate's key curve.
    ///   - validity: nil means the root's validity.
    ///   - includeAppleMarker: false leaves out 1.2.840.113635.100.6.2.1.
    ///   - isCertificateAuthority: false makes basicConstraints CA:FALSE while keyUsage keeps
    ///     keyCertSign, so only the CA flag is wrong (a chain through it must not verify).
    ///   - commonName: nil means ``intermediateName``'s.
    ///   - seed: makes the key and serial number deterministic; nil makes them random.
    @available(*, deprecated, message: "use TestHierarchy.makeIntermediate(key:validity:includeAppleMarker:isCertificateAuthority:commonName:seed:)")
    public func makeIntermediate(
        curve: TestCurve = .p384, validity: ClosedRange<Date>? = nil,
        includeAppleMarker: Bool = true, isCertificateAuthority: Bool = true,
        commonName: String? = nil, seed: UInt64? = nil
    ) throws -> TestCredential {
        let seed = seed ?? randomSeed()
        let key = try TestPrivateKey.generate(curve: curve, seed: seed, label: "extra-intermediate")
        return try Self.typed(
            hierarchy.makeIntermediate(
                key: .ec(key), validity: validity, includeAppleMarker: includeAppleMarker,
                isCertificateAuthority: isCertificateAuthority, commonName: commonName, seed: seed))
    }

    /// A self-signed P-256 certificate with the leaf profile (marker included), issued by nobody in
    /// this hierarchy: a chain `[selfSigned, intermediate, root]` must not verify.
    @available(*, deprecated, message: "use TestHierarchy.makeSelfSignedLeaf(validity:seed:)")
    public func makeSelfSignedLeaf(validity: ClosedRange<Date>? = nil, seed: UInt64? = nil) throws -> TestCredential {
        try Self.typed(hierarchy.makeSelfSignedLeaf(validity: validity, seed: seed))
    }

    /// Another complete hierarchy with the same names but new keys: an unrelated root that a
    /// verifier trusting only ``root`` must reject.
    @available(*, deprecated, message: "use TestHierarchy.makeUnrelated(seed:)")
    public func makeUnrelatedPKI(seed: UInt64? = nil) throws -> TestPKI {
        try TestPKI(hierarchy.makeUnrelated(seed: seed))
    }

    /// This hierarchy with another leaf (for example one from ``makeLeaf(curve:validity:includeAppleMarker:commonName:issuer:seed:)``).
    @available(*, deprecated, message: "use TestHierarchy.replacing(leaf:)")
    public func replacing(leaf credential: TestCredential) -> TestPKI {
        var copy = self
        copy.leaf = credential.certificate
        copy.leafKey = credential.privateKey
        return copy
    }

    /// This hierarchy with another intermediate (the leaf is kept; issue a new one under the new
    /// intermediate with `makeLeaf(issuer:)` when the chain should verify).
    @available(*, deprecated, message: "use TestHierarchy.replacing(intermediate:)")
    public func replacing(intermediate credential: TestCredential) -> TestPKI {
        var copy = self
        copy.intermediate = credential.certificate
        copy.intermediateKey = credential.privateKey
        return copy
    }

    // MARK: Files

    /// The files ``write(to:)`` writes and ``load(from:)`` reads.
    @available(*, deprecated, message: "use TestHierarchy.FileName")
    public typealias FileName = TestHierarchy.FileName

    /// Writes root.der, root.pem, intermediate.der, intermediate.pem, leaf.der, leaf.pem and the
    /// PKCS#8 keys root.key.pem, intermediate.key.pem, leaf.key.pem (mode 0600) into `directory`,
    /// creating it when missing and replacing existing files.
    @available(*, deprecated, message: "use TestHierarchy.write(to:)")
    public func write(to directory: URL) throws {
        try hierarchy.write(to: directory)
    }

    /// Reads a hierarchy written by ``write(to:)``: certificates from the DER files (or the PEM
    /// files when a DER file is missing) and the keys from the PEM key files (PKCS#8 or SEC1).
    /// Each key must belong to its certificate.
    @available(*, deprecated, message: "use TestHierarchy.load(from:)")
    public static func load(from directory: URL) throws -> TestPKI {
        try TestPKI(TestHierarchy.load(from: directory))
    }

    /// An EC credential from a ``TestHierarchy`` one.
    static func typed(_ credential: TestSigningCredential) throws -> TestCredential {
        TestCredential(
            certificate: credential.certificate, privateKey: try TestHierarchy.ecKey(credential.privateKey, "the key"))
    }
}
