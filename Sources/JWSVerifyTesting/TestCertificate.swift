import Foundation

/// An X.509 distinguished name as the test certificates use it: CN, OU, O and C.
public struct TestDistinguishedName: Sendable, Hashable, Codable {
    /// Common name (CN).
    public var commonName: String
    /// Organizational unit (OU), or nil.
    public var organizationalUnit: String?
    /// Organization (O).
    public var organization: String
    /// Country (C, two letters), or nil.
    public var country: String?

    /// A name from its attributes.
    public init(
        commonName: String, organizationalUnit: String? = nil, organization: String,
        country: String? = nil
    ) {
        self.commonName = commonName
        self.organizationalUnit = organizationalUnit
        self.organization = organization
        self.country = country
    }
}

/// keyUsage bits (RFC 5280 section 4.2.1.3).
public struct TestKeyUsage: OptionSet, Sendable, Hashable {
    /// The raw bit mask (bit 0 = digitalSignature).
    public let rawValue: UInt32
    /// Creates a set from its raw bit mask.
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// digitalSignature: App Store signing leaves.
    public static let digitalSignature = TestKeyUsage(rawValue: 1 << 0)
    /// nonRepudiation (contentCommitment).
    public static let nonRepudiation = TestKeyUsage(rawValue: 1 << 1)
    /// keyEncipherment.
    public static let keyEncipherment = TestKeyUsage(rawValue: 1 << 2)
    /// dataEncipherment.
    public static let dataEncipherment = TestKeyUsage(rawValue: 1 << 3)
    /// keyAgreement.
    public static let keyAgreement = TestKeyUsage(rawValue: 1 << 4)
    /// keyCertSign: certificate authorities.
    public static let keyCertSign = TestKeyUsage(rawValue: 1 << 5)
    /// cRLSign: certificate authorities.
    public static let cRLSign = TestKeyUsage(rawValue: 1 << 6)
}

/// Everything a test certificate carries; see ``TestCertificate/issue(_:subjectKey:issuerKey:)``.
public struct TestCertificateSpec: Sendable, Hashable {
    /// Subject name.
    public var subject: TestDistinguishedName
    /// Issuer name; ignored for a self-signed certificate, whose issuer is its subject.
    public var issuer: TestDistinguishedName
    /// Serial number, big-endian unsigned, 1...20 bytes, not zero.
    public var serialNumber: Data
    /// Start of validity (whole seconds are kept).
    public var notBefore: Date
    /// End of validity (whole seconds are kept).
    public var notAfter: Date
    /// Digest of the certificate signature: SHA-384 gives ecdsa-with-SHA384, as Apple's.
    public var signatureDigest: TestDigest
    /// basicConstraints CA flag (the extension is always present and critical).
    public var isCertificateAuthority: Bool
    /// basicConstraints pathLenConstraint for a CA, or nil for none.
    public var pathLengthConstraint: Int?
    /// keyUsage (critical); empty leaves the extension out.
    public var keyUsage: TestKeyUsage
    /// Adds subjectKeyIdentifier.
    public var includeSubjectKeyIdentifier: Bool
    /// Adds authorityKeyIdentifier (the issuer's key identifier).
    public var includeAuthorityKeyIdentifier: Bool
    /// Dotted OID of an Apple marker extension (value DER NULL, non-critical), or nil.
    public var appleMarkerOID: String?
    /// Authority Information Access OCSP URL, or nil.
    public var ocspURL: String?

    /// A specification; every option not named takes the value Apple's certificates have.
    public init(
        subject: TestDistinguishedName, issuer: TestDistinguishedName, serialNumber: Data,
        notBefore: Date, notAfter: Date, signatureDigest: TestDigest = .sha384,
        isCertificateAuthority: Bool, pathLengthConstraint: Int? = nil,
        keyUsage: TestKeyUsage, includeSubjectKeyIdentifier: Bool = true,
        includeAuthorityKeyIdentifier: Bool = true, appleMarkerOID: String? = nil,
        ocspURL: String? = nil
    ) {
        self.subject = subject
        self.issuer = issuer
        self.serialNumber = serialNumber
        self.notBefore = notBefore
        self.notAfter = notAfter
        self.signatureDigest = signatureDigest
        self.isCertificateAuthority = isCertificateAuthority
        self.pathLengthConstraint = pathLengthConstraint
        self.keyUsage = keyUsage
        self.includeSubjectKeyIdentifier = includeSubjectKeyIdentifier
        self.includeAuthorityKeyIdentifier = includeAuthorityKeyIdentifier
        self.appleMarkerOID = appleMarkerOID
        self.ocspURL = ocspURL
    }
}

/// A DER X.509 certificate with the facts tests need about it.
public struct TestCertificate: Sendable, Hashable {
    /// The certificate, DER.
    public let der: Data
    /// The certificate, PEM (`-----BEGIN CERTIFICATE-----`).
    public let pem: String
    /// The subject name.
    public let subject: TestDistinguishedName
    /// Start of validity.
    public let notBefore: Date
    /// End of validity.
    public let notAfter: Date
    /// The subject public key, DER SubjectPublicKeyInfo.
    public let publicKeyDER: Data

    /// The subject Name as this certificate encodes it, byte for byte: the issuer of the ``CraftedCertificate``s
    /// that this certificate signs.
    public var subjectName: CraftedName {
        get throws { CraftedName(der: try TestHierarchy.subjectDER(of: self)) }
    }

    /// The DER in standard base64 with padding, as JWS `x5c` entries carry it.
    public var base64: String { der.base64EncodedString() }

    /// Parses a DER certificate.
    public init(der: Data) throws {
        self.der = der
        self.pem = try OpenSSLCertificates.pem(certificate: der)
        self.subject = try OpenSSLCertificates.subject(certificate: der)
        let validity = try OpenSSLCertificates.validity(certificate: der)
        self.notBefore = validity.notBefore
        self.notAfter = validity.notAfter
        self.publicKeyDER = try OpenSSLCertificates.publicKeyDER(certificate: der)
    }

    /// Parses a PEM certificate (the first one in `pem`).
    public init(pem: String) throws {
        try self.init(der: OpenSSLCertificates.der(pem: pem))
    }

    /// Issues a certificate for `subjectKey`, signed by `issuerKey`, or self-signed when `issuerKey`
    /// is nil (then `spec.issuer` is ignored).
    public static func issue(
        _ spec: TestCertificateSpec, subjectKey: TestPrivateKey,
        issuerKey: TestPrivateKey?
    ) throws -> TestCertificate {
        try TestCertificate(der: OpenSSLCertificates.create(spec, subjectKey: subjectKey, issuerKey: issuerKey))
    }

    /// Two certificates are equal when their DER is.
    public static func == (lhs: TestCertificate, rhs: TestCertificate) -> Bool { lhs.der == rhs.der }

    /// Hashes the DER.
    public func hash(into hasher: inout Hasher) { hasher.combine(der) }
}

/// A certificate with its private key.
public struct TestCredential: Sendable, Hashable {
    /// The certificate.
    public var certificate: TestCertificate
    /// The private key (normally the one the certificate certifies; a forged issuer may differ).
    public var privateKey: TestPrivateKey

    /// Pairs a certificate and a key without checking that they belong together.
    public init(certificate: TestCertificate, privateKey: TestPrivateKey) {
        self.certificate = certificate
        self.privateKey = privateKey
    }

    /// Whether the private key is the one the certificate certifies.
    public var keyMatchesCertificate: Bool { certificate.publicKeyDER == privateKey.publicKeyDER }
}
