internal import CJWSOpenSSL
internal import CJWSSigning
import CJWSTesting
import Foundation

// The Swift side of CJWSTesting, and of CJWSSigning's signer for test keys. Only files named `*_openssl.swift` import the C modules; the
// rest of JWSVerifyTesting sees plain Swift types. OpenSSL-allocated output buffers are copied
// into `Data`/`String` and released with `cjws_free` at once (`takeData`, `takeString`); keys are
// `EVP_PKEY`s released with `cjws_pkey_free` (the conventions of CJWSOpenSSL.h, which CJWSTesting
// shares).

/// Why the last CJWSTesting call of this thread failed: OpenSSL's error queue, drained by `cjws_error_text`
/// (OpenSSL's reasons, then the failed function and step).
func openSSLErrorMessage() -> String {
    var buffer = [CChar](repeating: 0, count: 2048)
    let length = buffer.withUnsafeMutableBufferPointer { cjws_error_text($0.baseAddress, $0.count) }
    return String(decoding: buffer.prefix(Int(length)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
}

/// Throws ``JWSTestingError/openSSL(operation:message:)`` unless a CJWSTesting call returned 1.
func checkOpenSSL(_ status: Int32, _ operation: String) throws {
    guard status == 1 else {
        throw JWSTestingError.openSSL(operation: operation, message: openSSLErrorMessage())
    }
}

/// Copies an OpenSSL-allocated byte buffer and frees it.
func takeData(_ pointer: UnsafeMutablePointer<UInt8>?, _ length: Int) -> Data {
    defer { cjws_free(pointer) }
    guard let pointer, length > 0 else { return Data() }
    return Data(bytes: pointer, count: length)
}

/// Copies an OpenSSL-allocated UTF-8 text buffer and frees it.
func takeString(_ pointer: UnsafeMutablePointer<CChar>?, _ length: Int) -> String {
    defer { cjws_free(pointer) }
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

/// An owned OpenSSL private key (an `EVP_PKEY`, EC or RSA), freed in `deinit` with `cjws_pkey_free`.
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
        cjws_pkey_free(handle)
    }

    /// A new random key, or the key whose scalar is `seed` mod n (32 bytes for P-256, 48 for P-384).
    static func generate(curve: TestCurve, seed: Data?) throws -> OpenSSLKey {
        let key =
            if let seed {
                withBytes(seed) { pointer, count in cjwst_key_generate(curve.cValue, pointer, count) }
            } else {
                cjwst_key_generate(curve.cValue, nil, 0)
            }
        return try OpenSSLKey(taking: key, "generate key")
    }

    /// Reads an unencrypted PKCS#8 or SEC1 PEM private key.
    static func load(pem: String) throws -> OpenSSLKey {
        let key = withBytes(Data(pem.utf8)) { pointer, count in cjwst_key_from_private_pem(pointer, count) }
        return try OpenSSLKey(taking: key, "read private key PEM")
    }

    /// A new random RSA key of `bits` bits (public exponent 65537).
    static func generateRSA(bits: Int) throws -> OpenSSLKey {
        try OpenSSLKey(taking: cjwst_rsa_key_generate(Int32(clamping: bits)), "generate RSA key")
    }

    /// Reads an unencrypted PKCS#8 or PKCS#1 PEM RSA private key.
    static func loadRSA(pem: String) throws -> OpenSSLKey {
        let key = withBytes(Data(pem.utf8)) { pointer, count in cjwst_rsa_key_from_private_pem(pointer, count) }
        return try OpenSSLKey(taking: key, "read RSA private key PEM")
    }

    /// Takes ownership of a key a CJWSTesting function made, or throws with OpenSSL's reason when it made none.
    private convenience init(taking key: OpaquePointer?, _ operation: String) throws {
        guard let key else {
            throw JWSTestingError.openSSL(operation: operation, message: openSSLErrorMessage())
        }
        self.init(handle: key)
    }

    /// The modulus size of an RSA key in bits (throws for an EC key).
    var rsaBits: Int {
        get throws {
            let bits = cjws_pkey_rsa_bits(handle)
            guard bits > 0 else { throw JWSTestingError.openSSL(operation: "RSA key size", message: "not an RSA key") }
            return Int(bits)
        }
    }

    var curve: TestCurve {
        get throws {
            let value = cjwst_key_curve(handle)
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

    /// Raw R‖S signature of `message` hashed with `digest` (CJWSSigning's signer).
    func signRaw(_ message: Data, digest: TestDigest) throws -> Data {
        try sign(message, digest: digest, raw: true, "sign")
    }

    /// ES256 (SHA-256, P-256 only) raw 64-byte R‖S signature (CJWSSigning's signer).
    func signES256(_ message: Data) throws -> Data {
        var signature: UnsafeMutablePointer<UInt8>?
        var length = 0
        try withBytes(message) { pointer, count in
            try checkOpenSSL(cjwss_sign_es256(handle, pointer, count, &signature, &length), "ES256 sign")
        }
        return takeData(signature, length)
    }

    /// DER ECDSA-Sig-Value of `message` hashed with `digest` (CJWSSigning's signer).
    func signDER(_ message: Data, digest: TestDigest) throws -> Data {
        try sign(message, digest: digest, raw: false, "sign (DER)")
    }

    private func sign(_ message: Data, digest: TestDigest, raw: Bool, _ operation: String) throws -> Data {
        var signature: UnsafeMutablePointer<UInt8>?
        var length = 0
        try withBytes(message) { pointer, count in
            try checkOpenSSL(
                cjwss_sign(handle, digest.cValue, raw ? 1 : 0, pointer, count, &signature, &length), operation)
        }
        return takeData(signature, length)
    }

    /// Runs `body` with the C handle; only for the other `_openssl` files.
    func withHandle<R>(_ body: (OpaquePointer) throws -> R) rethrows -> R {
        try withExtendedLifetime(self) { try body(handle) }
    }
}
