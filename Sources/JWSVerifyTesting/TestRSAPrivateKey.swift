import Foundation

/// An RSA private key for test certificates and test app receipts (StoreKit 1 receipts are signed
/// with RSA, 2048-bit in Apple's chains).
///
/// Never use these keys for anything but tests. Unlike ``TestPrivateKey`` there is no seeded form:
/// OpenSSL's RSA key generation draws from its own random generator, so every key is random.
public struct TestRSAPrivateKey: Sendable, Hashable {
    let handle: OpenSSLKey

    /// The modulus size in bits.
    public let bitCount: Int
    /// The public key as DER SubjectPublicKeyInfo (rsaEncryption).
    public let publicKeyDER: Data

    init(handle: OpenSSLKey) throws {
        self.handle = handle
        self.bitCount = try handle.rsaBits
        self.publicKeyDER = try handle.publicKeyDER()
    }

    /// Generates a random RSA key with public exponent 65537.
    ///
    /// - Parameter bits: the modulus size, 512...16384; 2048 by default (Apple's receipt chains).
    ///   1024 and 4096 serve tests of key-size rules.
    /// - Throws: ``JWSTestingError/invalidArgument(_:)`` for a size out of range,
    ///   ``JWSTestingError/openSSL(operation:message:)`` when OpenSSL fails.
    public static func generate(bits: Int = 2048) throws -> TestRSAPrivateKey {
        guard (512...16384).contains(bits) else {
            throw JWSTestingError.invalidArgument("an RSA key must have 512...16384 bits, not \(bits)")
        }
        return try TestRSAPrivateKey(handle: OpenSSLKey.generateRSA(bits: bits))
    }

    /// Reads an unencrypted PKCS#8 (`BEGIN PRIVATE KEY`) or PKCS#1 (`BEGIN RSA PRIVATE KEY`) PEM key.
    ///
    /// - Throws: ``JWSTestingError/openSSL(operation:message:)`` when the text is not such a key.
    public init(pem: String) throws {
        try self.init(handle: OpenSSLKey.loadRSA(pem: pem))
    }

    /// The private key as PKCS#8 PEM (`-----BEGIN PRIVATE KEY-----`).
    public func pkcs8PEM() throws -> String {
        try handle.privateKeyPEM(sec1: false)
    }

    /// Two keys are equal when their public keys are.
    public static func == (lhs: TestRSAPrivateKey, rhs: TestRSAPrivateKey) -> Bool {
        lhs.publicKeyDER == rhs.publicKeyDER
    }

    /// Hashes the public key.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(publicKeyDER)
    }
}
