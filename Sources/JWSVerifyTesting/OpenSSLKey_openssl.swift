import CJWSTesting
import Foundation

// The Swift side of CJWSTesting. Only files named `*_openssl.swift` import the C module; the
// rest of JWSVerifyTesting sees plain Swift types. OpenSSL-allocated output buffers are copied
// into `Data`/`String` and released with `cjwst_free` at once (`takeData`, `takeString`).

/// The message of the last CJWSTesting failure on this thread.
func openSSLErrorMessage() -> String {
    var buffer = [CChar](repeating: 0, count: 512)
    _ = cjwst_last_error(&buffer, buffer.count)
    let bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
    return String(decoding: bytes, as: UTF8.self)
}

/// Throws ``JWSTestingError/openSSL(operation:message:)`` unless a CJWSTesting call returned 1.
func checkOpenSSL(_ status: Int32, _ operation: String) throws {
    guard status == 1 else {
        throw JWSTestingError.openSSL(operation: operation, message: openSSLErrorMessage())
    }
}

/// Copies an OpenSSL-allocated byte buffer and frees it.
func takeData(_ pointer: UnsafeMutablePointer<UInt8>?, _ length: Int) -> Data {
    defer { cjwst_free(pointer) }
    guard let pointer, length > 0 else { return Data() }
    return Data(bytes: pointer, count: length)
}

/// Copies an OpenSSL-allocated UTF-8 text buffer and frees it.
func takeString(_ pointer: UnsafeMutablePointer<CChar>?, _ length: Int) -> String {
    defer { cjwst_free(pointer) }
    guard let pointer, length > 0 else { return "" }
    return pointer.withMemoryRebound(to: UInt8.self, capacity: length) {
        String(decoding: UnsafeBufferPointer(start: $0, count: length), as: UTF8.self)
    }
}

/// Runs `body` with a byte pointer and count for `data` (a valid pointer even when empty).
func withBytes<R>(_ data: Data, _ body: (UnsafeRawPointer, Int) throws -> R) rethrows -> R {
    if data.isEmpty {
        var zero: UInt8 = 0
        return try body(&zero, 0)
    }
    return try data.withUnsafeBytes { raw in
        var zero: UInt8 = 0
        guard let base = raw.baseAddress else { return try body(&zero, 0) }
        return try body(base, raw.count)
    }
}

extension TestCurve {
    var cValue: Int32 {
        switch self {
        case .p256: return CJWST_CURVE_P256
        case .p384: return CJWST_CURVE_P384
        }
    }
}

extension CraftedDigest {
    var cValue: Int32 {
        switch self {
        case .sha1: return CJWST_DIGEST_SHA1
        case .sha256: return CJWST_DIGEST_SHA256
        case .sha384: return CJWST_DIGEST_SHA384
        case .sha512: return CJWST_DIGEST_SHA512
        }
    }
}

extension TestDigest {
    var cValue: Int32 {
        switch self {
        case .sha256: return CJWST_DIGEST_SHA256
        case .sha384: return CJWST_DIGEST_SHA384
        }
    }
}

/// An owned OpenSSL EC private key (`cjwst_key`, wrapping an `EVP_PKEY`), freed in `deinit`.
///
/// `@unchecked Sendable`: the key is never modified after creation, and OpenSSL allows an
/// `EVP_PKEY` to be used by several threads at once for signing and encoding; every operation
/// creates its own context.
final class OpenSSLKey: @unchecked Sendable {
    private let handle: OpaquePointer

    private init(handle: OpaquePointer) {
        self.handle = handle
    }

    deinit {
        cjwst_key_free(handle)
    }

    /// A new random key, or the key whose scalar is `seed` mod n (32 bytes for P-256, 48 for P-384).
    static func generate(curve: TestCurve, seed: Data?) throws -> OpenSSLKey {
        var key: OpaquePointer?
        if let seed {
            try withBytes(seed) { pointer, count in
                try checkOpenSSL(cjwst_key_generate(curve.cValue, pointer, count, &key), "generate key")
            }
        } else {
            try checkOpenSSL(cjwst_key_generate(curve.cValue, nil, 0, &key), "generate key")
        }
        guard let key else { throw JWSTestingError.openSSL(operation: "generate key", message: "no key") }
        return OpenSSLKey(handle: key)
    }

    /// Reads an unencrypted PKCS#8 or SEC1 PEM private key.
    static func load(pem: String) throws -> OpenSSLKey {
        var key: OpaquePointer?
        try withBytes(Data(pem.utf8)) { pointer, count in
            try checkOpenSSL(cjwst_key_from_private_pem(pointer, count, &key), "read private key PEM")
        }
        guard let key else { throw JWSTestingError.openSSL(operation: "read private key PEM", message: "no key") }
        return OpenSSLKey(handle: key)
    }

    /// A new random RSA key of `bits` bits (public exponent 65537).
    static func generateRSA(bits: Int) throws -> OpenSSLKey {
        var key: OpaquePointer?
        try checkOpenSSL(cjwst_rsa_key_generate(Int32(clamping: bits), &key), "generate RSA key")
        guard let key else { throw JWSTestingError.openSSL(operation: "generate RSA key", message: "no key") }
        return OpenSSLKey(handle: key)
    }

    /// Reads an unencrypted PKCS#8 or PKCS#1 PEM RSA private key.
    static func loadRSA(pem: String) throws -> OpenSSLKey {
        var key: OpaquePointer?
        try withBytes(Data(pem.utf8)) { pointer, count in
            try checkOpenSSL(cjwst_rsa_key_from_private_pem(pointer, count, &key), "read RSA private key PEM")
        }
        guard let key else {
            throw JWSTestingError.openSSL(operation: "read RSA private key PEM", message: "no key")
        }
        return OpenSSLKey(handle: key)
    }

    /// The modulus size of an RSA key in bits (throws for an EC key).
    var rsaBits: Int {
        get throws {
            var bits: Int32 = 0
            try checkOpenSSL(cjwst_key_rsa_bits(handle, &bits), "RSA key size")
            return Int(bits)
        }
    }

    var curve: TestCurve {
        get throws {
            var value: Int32 = 0
            try checkOpenSSL(cjwst_key_curve(handle, &value), "key curve")
            switch value {
            case CJWST_CURVE_P256: return .p256
            case CJWST_CURVE_P384: return .p384
            default: throw JWSTestingError.openSSL(operation: "key curve", message: "unknown curve \(value)")
            }
        }
    }

    func privateKeyPEM(sec1: Bool) throws -> String {
        var text: UnsafeMutablePointer<CChar>?
        var length = 0
        let encoding = sec1 ? CJWST_PEM_SEC1 : CJWST_PEM_PKCS8
        try checkOpenSSL(cjwst_key_private_pem(handle, encoding, &text, &length), "write private key PEM")
        return takeString(text, length)
    }

    func publicKeyDER() throws -> Data {
        var der: UnsafeMutablePointer<UInt8>?
        var length = 0
        try checkOpenSSL(cjwst_key_public_spki_der(handle, &der, &length), "write public key DER")
        return takeData(der, length)
    }

    /// Raw R‖S signature of `message` hashed with `digest`.
    func signRaw(_ message: Data, digest: TestDigest) throws -> Data {
        var signature: UnsafeMutablePointer<UInt8>?
        var length = 0
        try withBytes(message) { pointer, count in
            try checkOpenSSL(
                cjwst_sign_raw(handle, digest.cValue, pointer, count, &signature, &length), "sign")
        }
        return takeData(signature, length)
    }

    /// ES256 (SHA-256, P-256 only) raw 64-byte R‖S signature.
    func signES256(_ message: Data) throws -> Data {
        var signature: UnsafeMutablePointer<UInt8>?
        var length = 0
        try withBytes(message) { pointer, count in
            try checkOpenSSL(cjwst_sign_es256(handle, pointer, count, &signature, &length), "ES256 sign")
        }
        return takeData(signature, length)
    }

    /// DER ECDSA-Sig-Value of `message` hashed with `digest`.
    func signDER(_ message: Data, digest: TestDigest) throws -> Data {
        var signature: UnsafeMutablePointer<UInt8>?
        var length = 0
        try withBytes(message) { pointer, count in
            try checkOpenSSL(
                cjwst_sign_der(handle, digest.cValue, pointer, count, &signature, &length), "sign (DER)")
        }
        return takeData(signature, length)
    }

    /// Runs `body` with the C handle; only for the other `_openssl` files.
    func withHandle<R>(_ body: (OpaquePointer) throws -> R) rethrows -> R {
        try withExtendedLifetime(self) { try body(handle) }
    }
}
