import Foundation

/// The encoding of a certificate time (RFC 5280 section 4.1.2.5).
public enum CraftedTimeEncoding: Sendable, Hashable, CaseIterable {
    /// UTCTime `YYMMDDHHMMSSZ`; years 1950...2049 only.
    case utcTime
    /// GeneralizedTime `YYYYMMDDHHMMSSZ`.
    case generalizedTime
}

/// The digest of a crafted certificate's signature: ECDSA with an EC issuer key, PKCS #1 v1.5 with an
/// RSA issuer key (`CraftedCertificate.sign(with:)` with a ``TestSigningKey``).
public enum CraftedDigest: Sendable, Hashable, CaseIterable {
    /// ecdsa-with-SHA1, or sha1WithRSAEncryption (Apple Inc. Root and the receipt chains before 2023).
    case sha1
    /// ecdsa-with-SHA256, or sha256WithRSAEncryption (receipt certificates since 2023).
    case sha256
    /// ecdsa-with-SHA384 (Apple's JWS chain), or sha384WithRSAEncryption.
    case sha384
    /// ecdsa-with-SHA512, or sha512WithRSAEncryption.
    case sha512
}

/// An X.509 v3 certificate whose every field a test chooses, DER-encoded as given (names,
/// serial, time encodings, SubjectPublicKeyInfo, extensions in order with duplicates and unknown
/// OIDs) and signed by an issuer key: ECDSA with an EC key, RSA PKCS #1 v1.5 with an RSA key. For
/// crafted chains in tests and fuzzing, and for the `.receiptRSA` profile of ``TestHierarchy``.
public struct CraftedCertificate: Sendable, Hashable {
    /// Subject name.
    public var subject: CraftedName
    /// Issuer name (not checked against the issuer).
    public var issuer: CraftedName
    /// The serialNumber INTEGER's content octets, verbatim (two's complement).
    public var serialNumber: Data
    /// Start of validity, Unix seconds.
    public var notBefore: Int64
    /// How notBefore is written.
    public var notBeforeEncoding: CraftedTimeEncoding
    /// End of validity, Unix seconds.
    public var notAfter: Int64
    /// How notAfter is written.
    public var notAfterEncoding: CraftedTimeEncoding
    /// The certificate signature's digest.
    public var signatureDigest: CraftedDigest
    /// The subject public key.
    public var publicKey: CraftedPublicKey
    /// The extensions, in order.
    public var extensions: [TestExtension]

    /// A certificate specification; times are written as UTCTime up to 2049, as RFC 5280 asks,
    /// unless an encoding is given.
    public init(
        subject: CraftedName, issuer: CraftedName, serialNumber: Data = Data([0x01]), notBefore: Int64,
        notAfter: Int64, notBeforeEncoding: CraftedTimeEncoding? = nil,
        notAfterEncoding: CraftedTimeEncoding? = nil, signatureDigest: CraftedDigest = .sha384,
        publicKey: CraftedPublicKey, extensions: [TestExtension] = []
    ) {
        func defaultEncoding(_ seconds: Int64) -> CraftedTimeEncoding {
            seconds < 2_524_608_000 && seconds >= -631_152_000 ? .utcTime : .generalizedTime
        }
        self.subject = subject
        self.issuer = issuer
        self.serialNumber = serialNumber
        self.notBefore = notBefore
        self.notBeforeEncoding = notBeforeEncoding ?? defaultEncoding(notBefore)
        self.notAfter = notAfter
        self.notAfterEncoding = notAfterEncoding ?? defaultEncoding(notAfter)
        self.signatureDigest = signatureDigest
        self.publicKey = publicKey
        self.extensions = extensions
    }

    /// Encodes and signs the certificate with `issuerKey` (the subject's own key for a self-signed
    /// one). Returns the DER.
    public func sign(with issuerKey: TestPrivateKey) throws -> Data {
        try OpenSSLCrafting.create(self, spki: publicKey.der(), issuerKey: issuerKey.handle)
    }

    /// Encodes and signs the certificate with an EC or RSA `issuerKey`: the signature algorithm is
    /// ecdsa-with-SHAx or shaxWithRSAEncryption (parameters NULL) by the key's type and
    /// ``signatureDigest``. Returns the DER.
    public func sign(with issuerKey: TestSigningKey) throws -> Data {
        try OpenSSLCrafting.create(self, spki: publicKey.der(), issuerKey: issuerKey.handle)
    }
}
