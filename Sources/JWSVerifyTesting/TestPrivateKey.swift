import Foundation

/// An elliptic curve that test keys can use.
public enum TestCurve: String, Sendable, CaseIterable, Codable {
    /// NIST P-256 (prime256v1, secp256r1): App Store signing leaves and ES256.
    case p256 = "P-256"
    /// NIST P-384 (secp384r1): Apple's root and intermediate certificate authorities.
    case p384 = "P-384"

    /// The size of a private scalar and of each half of a raw R‖S signature, in bytes.
    public var scalarByteCount: Int {
        switch self {
        case .p256: return 32
        case .p384: return 48
        }
    }
}

/// A message digest for signatures.
public enum TestDigest: String, Sendable, CaseIterable, Codable {
    /// SHA-256 (ES256).
    case sha256 = "SHA-256"
    /// SHA-384 (Apple's certificate signatures, ecdsa-with-SHA384).
    case sha384 = "SHA-384"
}

/// An EC private key (P-256 or P-384) for test certificates and test tokens.
///
/// Never use these keys for anything but tests: deterministic keys are derived from small seeds.
public struct TestPrivateKey: Sendable, Hashable {
    let handle: OpenSSLKey

    /// The key's curve.
    public let curve: TestCurve
    /// The public key as DER SubjectPublicKeyInfo.
    public let publicKeyDER: Data

    init(handle: OpenSSLKey) throws {
        self.handle = handle
        self.curve = try handle.curve
        self.publicKeyDER = try handle.publicKeyDER()
    }

    /// Generates a key on `curve`: random when `seed` is nil, otherwise the key whose private scalar
    /// is the big-endian `seed` reduced modulo the group order.
    ///
    /// - Parameter seed: exactly ``TestCurve/scalarByteCount`` bytes (32 for P-256, 48 for P-384);
    ///   a seed that reduces to zero is rejected.
    public static func generate(curve: TestCurve, seed: Data? = nil) throws -> TestPrivateKey {
        if let seed, seed.count != curve.scalarByteCount {
            throw JWSTestingError.invalidArgument(
                "a \(curve.rawValue) seed must be \(curve.scalarByteCount) bytes, not \(seed.count)")
        }
        return try TestPrivateKey(handle: OpenSSLKey.generate(curve: curve, seed: seed))
    }

    /// Generates a key on `curve` deterministically from a 64-bit seed and a label.
    public static func generate(curve: TestCurve, seed: UInt64, label: String) throws -> TestPrivateKey {
        var generator = SeededGenerator(seed: seed, label: "key|\(curve.rawValue)|\(label)")
        return try generate(curve: curve, seed: generator.bytes(curve.scalarByteCount))
    }

    /// Reads an unencrypted PKCS#8 (`BEGIN PRIVATE KEY`) or SEC1 (`BEGIN EC PRIVATE KEY`) PEM key.
    public init(pem: String) throws {
        try self.init(handle: OpenSSLKey.load(pem: pem))
    }

    /// The private key as PKCS#8 PEM (`-----BEGIN PRIVATE KEY-----`).
    public func pkcs8PEM() throws -> String {
        try handle.privateKeyPEM(sec1: false)
    }

    /// The private key as SEC1 PEM (`-----BEGIN EC PRIVATE KEY-----`).
    public func sec1PEM() throws -> String {
        try handle.privateKeyPEM(sec1: true)
    }

    /// An ES256 signature of `message` (SHA-256, ECDSA P-256) as raw 64-byte R‖S (IEEE P1363).
    /// Fails for a P-384 key.
    public func signES256(_ message: Data) throws -> Data {
        try handle.signES256(message)
    }

    /// An ECDSA signature of `message` hashed with `digest`, as raw R‖S with each half
    /// left-padded to ``TestCurve/scalarByteCount`` (64 bytes for P-256, 96 for P-384).
    public func signRaw(_ message: Data, digest: TestDigest) throws -> Data {
        try handle.signRaw(message, digest: digest)
    }

    /// An ECDSA signature of `message` hashed with `digest`, DER-encoded (ECDSA-Sig-Value). JWS does
    /// not use this form; it exists to make negative tests.
    public func signDER(_ message: Data, digest: TestDigest) throws -> Data {
        try handle.signDER(message, digest: digest)
    }

    /// Two keys are equal when their public keys are.
    public static func == (lhs: TestPrivateKey, rhs: TestPrivateKey) -> Bool {
        lhs.publicKeyDER == rhs.publicKeyDER
    }

    /// Hashes the public key.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(publicKeyDER)
    }
}
