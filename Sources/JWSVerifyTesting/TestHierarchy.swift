import Foundation

/// A seeded test certificate hierarchy (root, intermediate, leaf) shaped like one of Apple's, for
/// integration tests only: the one type behind every test PKI of this library.
///
/// Two profiles:
/// - ``Profile/appStoreEC``: the App Store's JWS chain (the token profile). A self-signed P-384 root; a
///   P-384 intermediate carrying the marker extension 1.2.840.113635.100.6.2.1 (like Apple Worldwide
///   Developer Relations); a P-256 leaf carrying 1.2.840.113635.100.6.11.1 that signs ES256 tokens. Every
///   certificate signature ecdsa-with-SHA384; basicConstraints and keyUsage critical; key identifiers; an
///   OCSP URL in the intermediate and the leaf (under the reserved `.invalid` domain unless
///   ``Options/rootOCSPURL`` and ``Options/intermediateOCSPURL`` name real responders). Subject names say
///   they are test certificates and not Apple's (``AppStoreEC``).
/// - ``Profile/receiptRSA``: the chain that signs StoreKit 1 app receipts (the receipt profile). RSA
///   2048 throughout, names like Apple Inc. Root, the WWDR intermediate (marker 1.2.840.113635.100.6.2.1)
///   and "Mac App Store and iTunes Store Receipt Signing" (marker 1.2.840.113635.100.6.11.1),
///   sha256WithRSAEncryption (SHA-1 on request, as before 2023) (``ReceiptRSA``).
///
/// Determinism: with a seed, ``generate(_:seed:options:)`` makes the same EC keys and the same serial
/// numbers every time (certificate signatures still vary, as ECDSA signatures do). RSA keys are always
/// fresh: OpenSSL's RSA key generation takes no seed.
///
/// Production verifiers trust only Apple's roots, so these certificates are accepted only where a test
/// configures ``root`` (``rootDER``) as a trusted root.
///
/// ``TestPKI`` (the `.appStoreEC` profile with typed EC keys) and ``ReceiptTestPKI`` (the `.receiptRSA`
/// profile with typed RSA keys) are views of this type.
public struct TestHierarchy: Sendable, Hashable {
    /// The shape of a hierarchy: which of Apple's chains it imitates.
    public enum Profile: String, Sendable, Hashable, CaseIterable, Codable {
        /// The App Store's JWS chain: P-384 root and intermediate, P-256 leaf (``AppStoreEC``).
        case appStoreEC
        /// The app receipt (StoreKit 1) chain: RSA root, intermediate and leaf (``ReceiptRSA``).
        case receiptRSA
    }

    /// Choices for ``generate(_:seed:options:)``; every default gives the profile's standard shape.
    public struct Options: Sendable, Hashable {
        /// The root's validity; nil means ``TestHierarchy/defaultValidity``.
        public var validity: ClosedRange<Date>?
        /// The intermediate's validity; nil means the root's.
        public var intermediateValidity: ClosedRange<Date>?
        /// The leaf's validity; nil means the intermediate's.
        public var leafValidity: ClosedRange<Date>?
        /// `.appStoreEC`: the OCSP URL in the intermediate (where the root's responder answers). Pass a
        /// running responder's URL, such as `http://127.0.0.1:8801`, to check revocation for real.
        public var rootOCSPURL: String
        /// `.appStoreEC`: the OCSP URL in the leaf (where the intermediate's responder answers).
        public var intermediateOCSPURL: String
        /// `.receiptRSA`: the size of every RSA key (2048 as Apple's).
        public var rsaKeyBits: Int
        /// `.receiptRSA`: the digest of the certificate signatures, `.sha256` (Apple's chains since 2023)
        /// or `.sha1` (before).
        public var certificateDigest: CraftedDigest
        /// `.appStoreEC`: nil gives the profile's names (``AppStoreEC``); a label names the certificates
        /// "<label> Root NOT APPLE", "<label> Intermediate NOT APPLE" and "<label> Leaf NOT APPLE" (O=JWSVerify
        /// Tests) and derives their keys from the seed and the label, so that the hierarchies of one test are told
        /// apart (the crafted-chain tests' variant).
        public var label: String?

        /// Options; every default gives the profile's standard shape.
        public init(
            validity: ClosedRange<Date>? = nil, intermediateValidity: ClosedRange<Date>? = nil,
            leafValidity: ClosedRange<Date>? = nil, rootOCSPURL: String = AppStoreEC.rootOCSPURL,
            intermediateOCSPURL: String = AppStoreEC.intermediateOCSPURL, rsaKeyBits: Int = 2048,
            certificateDigest: CraftedDigest = .sha256, label: String? = nil
        ) {
            self.validity = validity
            self.intermediateValidity = intermediateValidity
            self.leafValidity = leafValidity
            self.rootOCSPURL = rootOCSPURL
            self.intermediateOCSPURL = intermediateOCSPURL
            self.rsaKeyBits = rsaKeyBits
            self.certificateDigest = certificateDigest
            self.label = label
        }
    }

    /// OID of Apple's marker extension on the intermediate (Apple Worldwide Developer Relations CA).
    public static let intermediateMarkerOID = "1.2.840.113635.100.6.2.1"
    /// OID of Apple's marker extension on the leaf (App Store and receipt signing).
    public static let leafMarkerOID = "1.2.840.113635.100.6.11.1"
    /// The default validity of every certificate: 2025-01-01T00:00:00Z ... 2035-01-01T00:00:00Z.
    public static let defaultValidity: ClosedRange<Date> =
        Date(timeIntervalSince1970: 1_735_689_600)...Date(timeIntervalSince1970: 2_051_222_400)

    /// The profile this hierarchy was made with.
    public var profile: Profile
    /// The self-signed root certificate.
    public var root: TestCertificate
    /// The root's private key.
    public var rootKey: TestSigningKey
    /// The intermediate certificate (issued by the root).
    public var intermediate: TestCertificate
    /// The intermediate's private key.
    public var intermediateKey: TestSigningKey
    /// The leaf certificate (issued by the intermediate) that signs tokens or receipts.
    public var leaf: TestCertificate
    /// The leaf's private key.
    public var leafKey: TestSigningKey

    /// Assembles a hierarchy from parts, without checking them (negative tests may want odd ones).
    public init(
        profile: Profile, root: TestCertificate, rootKey: TestSigningKey, intermediate: TestCertificate,
        intermediateKey: TestSigningKey, leaf: TestCertificate, leafKey: TestSigningKey
    ) {
        self.profile = profile
        self.root = root
        self.rootKey = rootKey
        self.intermediate = intermediate
        self.intermediateKey = intermediateKey
        self.leaf = leaf
        self.leafKey = leafKey
    }

    /// The root certificate's DER: configure a verifier to trust it.
    public var rootDER: Data { root.der }
    /// The root with its key.
    public var rootCredential: TestSigningCredential { TestSigningCredential(certificate: root, privateKey: rootKey) }
    /// The intermediate with its key.
    public var intermediateCredential: TestSigningCredential {
        TestSigningCredential(certificate: intermediate, privateKey: intermediateKey)
    }
    /// The leaf with its key.
    public var leafCredential: TestSigningCredential { TestSigningCredential(certificate: leaf, privateKey: leafKey) }
    /// `[leaf, intermediate, root]`: the order of a JWS `x5c` header and of an App Store receipt's certificates.
    public var certificateChain: [TestCertificate] { [leaf, intermediate, root] }
    /// The `x5c` header value: leaf, intermediate, root as standard base64 DER.
    public var x5c: [String] { certificateChain.map(\.base64) }

    // MARK: Generating

    /// Generates a root, an intermediate and a leaf of `profile`.
    ///
    /// - Parameters:
    ///   - profile: the shape (``Profile/appStoreEC``, the default, or ``Profile/receiptRSA``).
    ///   - seed: makes EC keys and every serial number deterministic; nil makes everything random. RSA keys
    ///     are random either way.
    ///   - options: validities, OCSP URLs, RSA key size and certificate digest.
    /// - Throws: ``JWSTestingError`` when a key or a certificate cannot be made.
    public static func generate(
        _ profile: Profile = .appStoreEC, seed: UInt64? = nil, options: Options = Options()
    ) throws -> TestHierarchy {
        switch profile {
        case .appStoreEC: return try generateAppStoreEC(seed: seed ?? randomSeed(), options: options)
        case .receiptRSA: return try generateReceiptRSA(seed: seed ?? randomSeed(), options: options)
        }
    }

    /// Another complete hierarchy of the same profile, names and validities but with new keys: an unrelated
    /// root that a verifier trusting only ``root`` must reject.
    public func makeUnrelated(seed: UInt64? = nil) throws -> TestHierarchy {
        var options = Options(
            validity: root.notBefore...root.notAfter,
            intermediateValidity: intermediate.notBefore...intermediate.notAfter,
            leafValidity: leaf.notBefore...leaf.notAfter)
        if case .rsa(let key) = rootKey { options.rsaKeyBits = key.bitCount }
        if profile == .appStoreEC {
            options.intermediateValidity = nil
            options.leafValidity = nil
        }
        return try TestHierarchy.generate(profile, seed: seed, options: options)
    }

    /// This hierarchy with another leaf (for example one from ``makeLeaf(key:validity:includeAppleMarker:commonName:issuer:keyBits:certificateDigest:seed:)``).
    public func replacing(leaf credential: TestSigningCredential) -> TestHierarchy {
        var copy = self
        copy.leaf = credential.certificate
        copy.leafKey = credential.privateKey
        return copy
    }

    /// This hierarchy with another intermediate (the leaf is kept; issue a new one under the new
    /// intermediate with `makeLeaf(issuer:)` when the chain should verify).
    public func replacing(intermediate credential: TestSigningCredential) -> TestHierarchy {
        var copy = self
        copy.intermediate = credential.certificate
        copy.intermediateKey = credential.privateKey
        return copy
    }

    // MARK: Issuing more certificates

    /// Issues a new leaf, by default under this hierarchy's intermediate with the same profile as ``leaf``.
    ///
    /// - Parameters:
    ///   - key: the leaf's key; nil means a new key of the profile (`.appStoreEC`: P-256 from `seed`;
    ///     `.receiptRSA`: RSA of `keyBits`). A P-384 key (EC) or a 1024-bit or EC key (RSA) makes a leaf whose
    ///     key a verifier must refuse.
    ///   - validity: nil means the issuer's validity.
    ///   - includeAppleMarker: false leaves out 1.2.840.113635.100.6.11.1.
    ///   - commonName: nil means the profile's leaf name.
    ///   - issuer: nil means ``intermediateCredential``. Pass a credential whose key does not match its
    ///     certificate to forge a leaf that names that issuer but fails signature checks.
    ///   - keyBits: `.receiptRSA`: the size of a new RSA key.
    ///   - certificateDigest: `.receiptRSA`: the digest of the issuer's signature.
    ///   - seed: makes the key (EC) and the serial number deterministic; nil makes them random.
    ///   - serialNumber: the serial number's contents; nil means one from `seed`.
    ///   - ocspURL: `.appStoreEC`: the OCSP URL of the leaf's Authority Information Access (the issuer's
    ///     responder); nil leaves the extension out (the OCSP tests' variant).
    /// - Throws: ``JWSTestingError`` when the key or the certificate cannot be made, or (`.appStoreEC`) when
    ///   the issuer's key is not EC.
    public func makeLeaf(
        key: TestSigningKey? = nil, validity: ClosedRange<Date>? = nil, includeAppleMarker: Bool = true,
        commonName: String? = nil, issuer: TestSigningCredential? = nil, keyBits: Int = 2048,
        certificateDigest: CraftedDigest = .sha256, seed: UInt64? = nil, serialNumber: Data? = nil,
        ocspURL: String? = AppStoreEC.intermediateOCSPURL
    ) throws -> TestSigningCredential {
        let seed = seed ?? randomSeed()
        let issuer = issuer ?? intermediateCredential
        switch profile {
        case .appStoreEC:
            let key = try key ?? .ec(TestPrivateKey.generate(curve: .p256, seed: seed, label: "extra-leaf"))
            return try makeAppStoreECLeaf(
                key: key, validity: validity, includeAppleMarker: includeAppleMarker, commonName: commonName,
                issuer: issuer, seed: seed, serialNumber: serialNumber, ocspURL: ocspURL)
        case .receiptRSA:
            let key = try key ?? .rsa(TestRSAPrivateKey.generate(bits: keyBits))
            return try makeReceiptRSALeaf(
                key: key, validity: validity, includeAppleMarker: includeAppleMarker, commonName: commonName,
                issuer: issuer, certificateDigest: certificateDigest, seed: seed, serialNumber: serialNumber)
        }
    }

    /// Issues a new intermediate under this hierarchy's root, by default with the same profile as
    /// ``intermediate`` (basicConstraints CA with path length 0, keyCertSign and cRLSign, the marker).
    ///
    /// - Parameters:
    ///   - key: the intermediate's key; nil means a new key of the profile (`.appStoreEC`: P-384 from `seed`;
    ///     `.receiptRSA`: RSA of `keyBits`).
    ///   - validity: nil means the root's validity.
    ///   - includeAppleMarker: false leaves out 1.2.840.113635.100.6.2.1.
    ///   - isCertificateAuthority: false makes basicConstraints CA:FALSE while keyUsage keeps keyCertSign, so
    ///     only the CA flag is wrong (a chain through it must not verify).
    ///   - commonName: nil means the profile's intermediate name.
    ///   - keyBits: `.receiptRSA`: the size of a new RSA key.
    ///   - certificateDigest: `.receiptRSA`: the digest of the root's signature.
    ///   - seed: makes the key (EC) and the serial number deterministic; nil makes them random.
    ///   - serialNumber: the serial number's contents; nil means one from `seed`.
    ///   - ocspURL: `.appStoreEC`: the OCSP URL of the intermediate's Authority Information Access (the root's
    ///     responder); nil leaves the extension out.
    public func makeIntermediate(
        key: TestSigningKey? = nil, validity: ClosedRange<Date>? = nil, includeAppleMarker: Bool = true,
        isCertificateAuthority: Bool = true, commonName: String? = nil, keyBits: Int = 2048,
        certificateDigest: CraftedDigest = .sha256, seed: UInt64? = nil, serialNumber: Data? = nil,
        ocspURL: String? = AppStoreEC.rootOCSPURL
    ) throws -> TestSigningCredential {
        let seed = seed ?? randomSeed()
        switch profile {
        case .appStoreEC:
            let key = try key ?? .ec(TestPrivateKey.generate(curve: .p384, seed: seed, label: "extra-intermediate"))
            return try makeAppStoreECIntermediate(
                key: key, validity: validity, includeAppleMarker: includeAppleMarker,
                isCertificateAuthority: isCertificateAuthority, commonName: commonName, seed: seed,
                serialNumber: serialNumber, ocspURL: ocspURL)
        case .receiptRSA:
            let key = try key ?? .rsa(TestRSAPrivateKey.generate(bits: keyBits))
            return try makeReceiptRSAIntermediate(
                key: key, validity: validity, includeAppleMarker: includeAppleMarker,
                isCertificateAuthority: isCertificateAuthority, commonName: commonName,
                certificateDigest: certificateDigest, seed: seed, serialNumber: serialNumber)
        }
    }
}

/// A fresh random 64-bit seed.
func randomSeed() -> UInt64 {
    UInt64.random(in: .min ... .max)
}
