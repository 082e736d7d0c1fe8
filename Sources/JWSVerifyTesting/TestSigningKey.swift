import Foundation

/// A private key of either kind that can sign test certificates and test app receipts: EC
/// (``TestPrivateKey``) or RSA (``TestRSAPrivateKey``).
public enum TestSigningKey: Sendable, Hashable {
    /// An EC key (P-256 or P-384): ECDSA signatures.
    case ec(TestPrivateKey)
    /// An RSA key: PKCS #1 v1.5 signatures.
    case rsa(TestRSAPrivateKey)

    /// The public key as DER SubjectPublicKeyInfo.
    public var publicKeyDER: Data {
        switch self {
        case .ec(let key): return key.publicKeyDER
        case .rsa(let key): return key.publicKeyDER
        }
    }

    /// The private key as PKCS#8 PEM (`-----BEGIN PRIVATE KEY-----`).
    public func pkcs8PEM() throws -> String {
        switch self {
        case .ec(let key): return try key.pkcs8PEM()
        case .rsa(let key): return try key.pkcs8PEM()
        }
    }

    /// The EC key, or nil for an RSA key (the keys of a ``TestHierarchy/Profile/appStoreEC`` hierarchy are EC).
    public var ec: TestPrivateKey? {
        if case .ec(let key) = self { return key }
        return nil
    }

    /// The RSA key, or nil for an EC key (the keys of a ``TestHierarchy/Profile/receiptRSA`` hierarchy are RSA).
    public var rsa: TestRSAPrivateKey? {
        if case .rsa(let key) = self { return key }
        return nil
    }

    var handle: OpenSSLKey {
        switch self {
        case .ec(let key): return key.handle
        case .rsa(let key): return key.handle
        }
    }
}

/// A certificate with its private key, EC or RSA (the receipt counterpart of ``TestCredential``).
public struct TestSigningCredential: Sendable, Hashable {
    /// The certificate.
    public var certificate: TestCertificate
    /// The private key (normally the one the certificate certifies; a forgery may differ).
    public var privateKey: TestSigningKey

    /// Pairs a certificate and a key without checking that they belong together.
    public init(certificate: TestCertificate, privateKey: TestSigningKey) {
        self.certificate = certificate
        self.privateKey = privateKey
    }

    /// Whether the private key is the one the certificate certifies.
    public var keyMatchesCertificate: Bool { certificate.publicKeyDER == privateKey.publicKeyDER }
}
