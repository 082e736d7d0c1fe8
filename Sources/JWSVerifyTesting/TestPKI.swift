import Foundation

/// A test certificate hierarchy shaped like the App Store's, for integration tests only.
///
/// Like Apple's chain: a self-signed P-384 root; a P-384 intermediate carrying the marker
/// extension 1.2.840.113635.100.6.2.1; a P-256 leaf carrying 1.2.840.113635.100.6.11.1; every
/// certificate signature ecdsa-with-SHA384; basicConstraints and keyUsage critical; key
/// identifiers; an OCSP URL in the intermediate and the leaf. The subject names say they are test
/// certificates and not Apple's, and the default OCSP URLs are under the reserved `.invalid` domain
/// (``generate(seed:validity:rootOCSPURL:intermediateOCSPURL:)`` can name real responders instead).
///
/// Production verifiers trust only Apple's root, so these certificates are accepted only where a
/// test configures ``root`` as a trusted root.
public struct TestPKI: Sendable, Hashable {
    /// OID of Apple's marker extension on the intermediate (Apple Worldwide Developer Relations CA).
    public static let intermediateMarkerOID = "1.2.840.113635.100.6.2.1"
    /// OID of Apple's marker extension on the App Store receipt signing leaf.
    public static let leafMarkerOID = "1.2.840.113635.100.6.11.1"

    /// The default validity of every certificate: 2025-01-01T00:00:00Z ... 2035-01-01T00:00:00Z.
    public static let defaultValidity: ClosedRange<Date> =
        Date(timeIntervalSince1970: 1_735_689_600)...Date(timeIntervalSince1970: 2_051_222_400)

    /// Subject of the root.
    public static let rootName = TestDistinguishedName(
        commonName: "JWSVerify Test Root CA - NOT APPLE", organizationalUnit: "JWSVerify Testing",
        organization: "JWSVerify Tests (not Apple Inc.)", country: "US")
    /// Subject of the intermediate.
    public static let intermediateName = TestDistinguishedName(
        commonName: "JWSVerify Test Developer Relations CA - NOT APPLE",
        organizationalUnit: "JWSVerify Testing", organization: "JWSVerify Tests (not Apple Inc.)",
        country: "US")
    /// Subject of the leaf.
    public static let leafName = TestDistinguishedName(
        commonName: "JWSVerify Test App Store Signing - NOT APPLE",
        organizationalUnit: "JWSVerify Testing", organization: "JWSVerify Tests (not Apple Inc.)",
        country: "US")
    /// The default OCSP URL written into the intermediate (the root's responder; never resolves).
    public static let rootOCSPURL = "http://ocsp.jwsverify.invalid/test-root"
    /// The default OCSP URL written into leaves (the intermediate's responder; never resolves).
    public static let intermediateOCSPURL = "http://ocsp.jwsverify.invalid/test-intermediate"

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

    /// The root with its key.
    public var rootCredential: TestCredential { TestCredential(certificate: root, privateKey: rootKey) }
    /// The intermediate with its key.
    public var intermediateCredential: TestCredential {
        TestCredential(certificate: intermediate, privateKey: intermediateKey)
    }
    /// The leaf with its key.
    public var leafCredential: TestCredential { TestCredential(certificate: leaf, privateKey: leafKey) }

    /// `[leaf, intermediate, root]`, the order of a JWS `x5c` header.
    public var certificateChain: [TestCertificate] { [leaf, intermediate, root] }

    /// The `x5c` header value: leaf, intermediate, root as standard base64 DER.
    public var x5c: [String] { certificateChain.map(\.base64) }

    // MARK: Generating

    /// Generates a root, an intermediate and a leaf.
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
    public static func generate(
        seed: UInt64? = nil, validity: ClosedRange<Date>? = nil, rootOCSPURL: String = TestPKI.rootOCSPURL,
        intermediateOCSPURL: String = TestPKI.intermediateOCSPURL
    ) throws -> TestPKI {
        let validity = validity ?? defaultValidity
        let seed = seed ?? randomSeed()
        let rootKey = try TestPrivateKey.generate(curve: .p384, seed: seed, label: "root")
        var serials = SeededGenerator(seed: seed, label: "serial-numbers")
        let root = try TestCertificate.issue(
            rootSpec(name: rootName, serial: serials.serialNumber(), validity: validity),
            subjectKey: rootKey, issuerKey: nil)
        let rootCredential = TestCredential(certificate: root, privateKey: rootKey)

        let intermediateKey = try TestPrivateKey.generate(curve: .p384, seed: seed, label: "intermediate")
        let intermediate = try TestCertificate.issue(
            intermediateSpec(
                name: intermediateName, issuer: root.subject, serial: serials.serialNumber(),
                validity: validity, includeAppleMarker: true, isCertificateAuthority: true,
                ocspURL: rootOCSPURL),
            subjectKey: intermediateKey, issuerKey: rootCredential.privateKey)

        let leafKey = try TestPrivateKey.generate(curve: .p256, seed: seed, label: "leaf")
        let leaf = try TestCertificate.issue(
            leafSpec(
                name: leafName, issuer: intermediate.subject, serial: serials.serialNumber(),
                validity: validity, includeAppleMarker: true, ocspURL: intermediateOCSPURL),
            subjectKey: leafKey, issuerKey: intermediateKey)

        return TestPKI(
            root: root, rootKey: rootKey, intermediate: intermediate,
            intermediateKey: intermediateKey, leaf: leaf, leafKey: leafKey)
    }

    /// Issues a new leaf, by default under this hierarchy's intermediate with the same profile as
    /// ``leaf``. Benchmarks use it to sign each token with its own leaf; negative tests use the
    /// options.
    ///
    /// - Parameters:
    ///   - curve: `.p384` makes a leaf whose key ES256 cannot use.
    ///   - validity: nil means the issuer's validity.
    ///   - includeAppleMarker: false leaves out 1.2.840.113635.100.6.11.1.
    ///   - commonName: nil means ``leafName``'s.
    ///   - issuer: nil means ``intermediateCredential``. Pass a credential whose key does not match
    ///     its certificate to forge a leaf that names that issuer but fails signature checks.
    ///   - seed: makes the key and serial number deterministic; nil makes them random.
    public func makeLeaf(
        curve: TestCurve = .p256, validity: ClosedRange<Date>? = nil,
        includeAppleMarker: Bool = true, commonName: String? = nil,
        issuer: TestCredential? = nil, seed: UInt64? = nil
    ) throws -> TestCredential {
        let issuer = issuer ?? intermediateCredential
        let seed = seed ?? randomSeed()
        var serials = SeededGenerator(seed: seed, label: "extra-leaf-serial")
        let key = try TestPrivateKey.generate(curve: curve, seed: seed, label: "extra-leaf")
        var name = Self.leafName
        if let commonName { name.commonName = commonName }
        let spec = Self.leafSpec(
            name: name, issuer: issuer.certificate.subject, serial: serials.serialNumber(),
            validity: validity ?? issuer.certificate.notBefore...issuer.certificate.notAfter,
            includeAppleMarker: includeAppleMarker)
        let certificate = try TestCertificate.issue(spec, subjectKey: key, issuerKey: issuer.privateKey)
        return TestCredential(certificate: certificate, privateKey: key)
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
    public func makeIntermediate(
        curve: TestCurve = .p384, validity: ClosedRange<Date>? = nil,
        includeAppleMarker: Bool = true, isCertificateAuthority: Bool = true,
        commonName: String? = nil, seed: UInt64? = nil
    ) throws -> TestCredential {
        let seed = seed ?? randomSeed()
        var serials = SeededGenerator(seed: seed, label: "extra-intermediate-serial")
        let key = try TestPrivateKey.generate(curve: curve, seed: seed, label: "extra-intermediate")
        var name = Self.intermediateName
        if let commonName { name.commonName = commonName }
        let spec = Self.intermediateSpec(
            name: name, issuer: root.subject, serial: serials.serialNumber(),
            validity: validity ?? root.notBefore...root.notAfter,
            includeAppleMarker: includeAppleMarker, isCertificateAuthority: isCertificateAuthority)
        let certificate = try TestCertificate.issue(spec, subjectKey: key, issuerKey: rootKey)
        return TestCredential(certificate: certificate, privateKey: key)
    }

    /// A self-signed P-256 certificate with the leaf profile (marker included), issued by nobody in
    /// this hierarchy: a chain `[selfSigned, intermediate, root]` must not verify.
    public func makeSelfSignedLeaf(validity: ClosedRange<Date>? = nil, seed: UInt64? = nil) throws -> TestCredential {
        let seed = seed ?? randomSeed()
        var serials = SeededGenerator(seed: seed, label: "self-signed-leaf-serial")
        let key = try TestPrivateKey.generate(curve: .p256, seed: seed, label: "self-signed-leaf")
        var name = Self.leafName
        name.commonName = "JWSVerify Test Self-Signed Leaf - NOT APPLE"
        var spec = Self.leafSpec(
            name: name, issuer: name, serial: serials.serialNumber(),
            validity: validity ?? intermediate.notBefore...intermediate.notAfter, includeAppleMarker: true)
        spec.ocspURL = nil
        let certificate = try TestCertificate.issue(spec, subjectKey: key, issuerKey: nil)
        return TestCredential(certificate: certificate, privateKey: key)
    }

    /// Another complete hierarchy with the same names but new keys: an unrelated root that a
    /// verifier trusting only ``root`` must reject.
    public func makeUnrelatedPKI(seed: UInt64? = nil) throws -> TestPKI {
        try TestPKI.generate(seed: seed, validity: root.notBefore...root.notAfter)
    }

    /// This hierarchy with another leaf (for example one from ``makeLeaf(curve:validity:includeAppleMarker:commonName:issuer:seed:)``).
    public func replacing(leaf credential: TestCredential) -> TestPKI {
        var copy = self
        copy.leaf = credential.certificate
        copy.leafKey = credential.privateKey
        return copy
    }

    /// This hierarchy with another intermediate (the leaf is kept; issue a new one under the new
    /// intermediate with `makeLeaf(issuer:)` when the chain should verify).
    public func replacing(intermediate credential: TestCredential) -> TestPKI {
        var copy = self
        copy.intermediate = credential.certificate
        copy.intermediateKey = credential.privateKey
        return copy
    }

    // MARK: Files

    /// The files ``write(to:)`` writes and ``load(from:)`` reads.
    public enum FileName {
        /// Root certificate, DER.
        public static let rootDER = "root.der"
        /// Root certificate, PEM.
        public static let rootPEM = "root.pem"
        /// Intermediate certificate, DER.
        public static let intermediateDER = "intermediate.der"
        /// Intermediate certificate, PEM.
        public static let intermediatePEM = "intermediate.pem"
        /// Leaf certificate, DER.
        public static let leafDER = "leaf.der"
        /// Leaf certificate, PEM.
        public static let leafPEM = "leaf.pem"
        /// Root private key, PKCS#8 PEM, mode 0600.
        public static let rootKey = "root.key.pem"
        /// Intermediate private key, PKCS#8 PEM, mode 0600.
        public static let intermediateKey = "intermediate.key.pem"
        /// Leaf private key, PKCS#8 PEM, mode 0600.
        public static let leafKey = "leaf.key.pem"
    }

    /// Writes root.der, root.pem, intermediate.der, intermediate.pem, leaf.der, leaf.pem and the
    /// PKCS#8 keys root.key.pem, intermediate.key.pem, leaf.key.pem (mode 0600) into `directory`,
    /// creating it when missing and replacing existing files.
    public func write(to directory: URL) throws {
        try FileOutput.writeHierarchy(
            (root, intermediate, leaf), keyPEMs: (rootKey.pkcs8PEM(), intermediateKey.pkcs8PEM(), leafKey.pkcs8PEM()),
            to: directory)
    }

    /// Reads a hierarchy written by ``write(to:)``: certificates from the DER files (or the PEM
    /// files when a DER file is missing) and the keys from the PEM key files (PKCS#8 or SEC1).
    /// Each key must belong to its certificate.
    public static func load(from directory: URL) throws -> TestPKI {
        func certificate(_ der: String, _ pem: String) throws -> TestCertificate {
            let derURL = directory.appendingPathComponent(der)
            if FileManager.default.fileExists(atPath: derURL.path) {
                return try TestCertificate(der: FileOutput.read(derURL))
            }
            return try TestCertificate(pem: FileOutput.readText(directory.appendingPathComponent(pem)))
        }
        func key(_ name: String, for certificate: TestCertificate) throws -> TestPrivateKey {
            let key = try TestPrivateKey(pem: FileOutput.readText(directory.appendingPathComponent(name)))
            guard key.publicKeyDER == certificate.publicKeyDER else {
                throw JWSTestingError.keyMismatch("\(name) does not belong to \(certificate.subject.commonName)")
            }
            return key
        }
        let root = try certificate(FileName.rootDER, FileName.rootPEM)
        let intermediate = try certificate(FileName.intermediateDER, FileName.intermediatePEM)
        let leaf = try certificate(FileName.leafDER, FileName.leafPEM)
        return TestPKI(
            root: root, rootKey: try key(FileName.rootKey, for: root),
            intermediate: intermediate,
            intermediateKey: try key(FileName.intermediateKey, for: intermediate),
            leaf: leaf, leafKey: try key(FileName.leafKey, for: leaf))
    }

    // MARK: Profiles

    static func rootSpec(
        name: TestDistinguishedName, serial: Data,
        validity: ClosedRange<Date>
    ) -> TestCertificateSpec {
        TestCertificateSpec(
            subject: name, issuer: name, serialNumber: serial, notBefore: validity.lowerBound,
            notAfter: validity.upperBound, isCertificateAuthority: true,
            keyUsage: [.keyCertSign, .cRLSign], includeAuthorityKeyIdentifier: false)
    }

    static func intermediateSpec(
        name: TestDistinguishedName, issuer: TestDistinguishedName, serial: Data,
        validity: ClosedRange<Date>, includeAppleMarker: Bool,
        isCertificateAuthority: Bool, ocspURL: String? = rootOCSPURL
    ) -> TestCertificateSpec {
        TestCertificateSpec(
            subject: name, issuer: issuer, serialNumber: serial, notBefore: validity.lowerBound,
            notAfter: validity.upperBound, isCertificateAuthority: isCertificateAuthority,
            pathLengthConstraint: isCertificateAuthority ? 0 : nil,
            keyUsage: [.keyCertSign, .cRLSign],
            appleMarkerOID: includeAppleMarker ? intermediateMarkerOID : nil, ocspURL: ocspURL)
    }

    static func leafSpec(
        name: TestDistinguishedName, issuer: TestDistinguishedName, serial: Data,
        validity: ClosedRange<Date>, includeAppleMarker: Bool, ocspURL: String? = intermediateOCSPURL
    ) -> TestCertificateSpec {
        TestCertificateSpec(
            subject: name, issuer: issuer, serialNumber: serial, notBefore: validity.lowerBound,
            notAfter: validity.upperBound, isCertificateAuthority: false, keyUsage: [.digitalSignature],
            appleMarkerOID: includeAppleMarker ? leafMarkerOID : nil, ocspURL: ocspURL)
    }
}

/// A fresh random 64-bit seed.
func randomSeed() -> UInt64 {
    UInt64.random(in: .min ... .max)
}
