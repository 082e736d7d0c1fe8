import Foundation

/// The encoding of a certificate time (RFC 5280 section 4.1.2.5).
public enum CraftedTimeEncoding: Sendable, Hashable, CaseIterable {
    /// UTCTime `YYMMDDHHMMSSZ`; years 1950...2049 only.
    case utcTime
    /// GeneralizedTime `YYYYMMDDHHMMSSZ`.
    case generalizedTime
}

/// The digest of a crafted certificate's ECDSA signature.
public enum CraftedDigest: Sendable, Hashable, CaseIterable {
    /// ecdsa-with-SHA256.
    case sha256
    /// ecdsa-with-SHA384 (Apple's).
    case sha384
    /// ecdsa-with-SHA512.
    case sha512
}

/// An X.509 v3 certificate whose every field a test chooses, DER-encoded as given (names,
/// serial, time encodings, SubjectPublicKeyInfo, extensions in order with duplicates and unknown
/// OIDs) and signed with ECDSA by an issuer key. For crafted chains in tests and fuzzing.
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
        try OpenSSLCrafting.create(self, spki: publicKey.der(), issuerKey: issuerKey)
    }
}
