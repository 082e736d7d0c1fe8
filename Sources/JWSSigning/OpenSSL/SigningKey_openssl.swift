internal import CJWSOpenSSL
internal import CJWSSigning
import Foundation
import JWSVerify

// The Swift side of CJWSSigning, the one signer: the only file of JWSSigning that imports the C modules.

/// An owned P-256 private key (an `EVP_PKEY` that CJWSSigning read), freed in `deinit` with `cjws_pkey_free`, which
/// clears the private scalar.
///
/// `@unchecked Sendable`: the key is never modified after it is read, and OpenSSL allows one `EVP_PKEY` to sign
/// from several threads at once (each signature makes its own context).
final class OwnedSigningKey: @unchecked Sendable {
    private let handle: OpaquePointer

    private init(takingOwnershipOf handle: OpaquePointer) {
        self.handle = handle
    }

    deinit {
        cjws_pkey_free(handle)
    }

    /// Reads PKCS #8 PEM or DER (`cjwss_key_from_pkcs8`); a wrong key throws its ``SigningError`` code, described by
    /// what it is and never by its bytes.
    static func read<Bytes: ContiguousBytes>(_ input: Bytes) throws(SigningError) -> OwnedSigningKey {
        let result = input.withUnsafeBytes { bytes in
            Result { () throws(SigningError) -> OwnedSigningKey in try read(bytes) }
        }
        return try result.get()
    }

    private static func read(_ bytes: UnsafeRawBufferPointer) throws(SigningError) -> OwnedSigningKey {
        var reason: Int32 = 0
        var found = [CChar](repeating: 0, count: 96)
        let key = found.withUnsafeMutableBufferPointer { buffer in
            cjwss_key_from_pkcs8(bytes.baseAddress, bytes.count, &reason, buffer.baseAddress, buffer.count)
        }
        _ = drainOpenSSLErrors()  // the reason says it all; OpenSSL's queue is left empty for the next call
        if let key { return OwnedSigningKey(takingOwnershipOf: key) }
        // What was found may quote the file (a PEM block's label): escaped, so that no byte of the file reaches a
        // terminal or a log line as a control character.
        let description = EscapedText.escaped(
            String(decoding: found.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        throw keyError(reason: reason, found: description)
    }

    /// The error for a CJWSS_KEY_* reason.
    private static func keyError(reason: Int32, found: String) -> SigningError {
        let expected = "an In-App Purchase key is an unencrypted PKCS #8 EC P-256 private key (a .p8 file)"
        switch reason {
        case CJWSS_KEY_EMPTY:
            return SigningError(code: .emptyKey, message: "the key is empty; \(expected)")
        case CJWSS_KEY_ENCRYPTED:
            return SigningError(
                code: .encryptedKey,
                message: "found an encrypted private key; \(expected) (decrypt it with `openssl pkcs8 -topk8 -nocrypt`)"
            )
        case CJWSS_KEY_CERTIFICATE:
            return SigningError(
                code: .certificateNotKey, message: "found a certificate, not a private key; \(expected)")
        case CJWSS_KEY_PUBLIC:
            return SigningError(
                code: .publicKeyNotPrivate, message: "found a public key, not a private key; \(expected)")
        case CJWSS_KEY_RSA:
            return SigningError(code: .rsaKey, message: "found an \(found) private key, not EC P-256; \(expected)")
        case CJWSS_KEY_WRONG_CURVE:
            return SigningError(code: .wrongCurve, message: "found an EC key on \(found), not P-256; \(expected)")
        case CJWSS_KEY_OTHER_TYPE:
            return SigningError(code: .unsupportedKeyType, message: "found an \(found) private key; \(expected)")
        case CJWSS_KEY_NOT_PKCS8:
            return SigningError(
                code: .notPKCS8,
                message: "found \(found), not PKCS #8; \(expected) (convert it with "
                    + "`openssl pkcs8 -topk8 -nocrypt`)")
        case CJWSS_KEY_INVALID:
            return SigningError(code: .invalidKey, message: "the P-256 key fails OpenSSL's key check; \(expected)")
        case CJWSS_KEY_TOO_LARGE:
            return SigningError(code: .keyTooLarge, message: "more than 64 KiB, too large for a key; \(expected)")
        default:
            let label = found.isEmpty ? "" : " (a PEM block labelled \(found))"
            return SigningError(code: .unreadableKey, message: "found no private key\(label); \(expected)")
        }
    }

    /// ES256: the raw 64-byte r‖s of SHA-256 and ECDSA (`cjwss_sign_es256`), or the DER ECDSA-Sig-Value
    /// (`cjwss_sign_es256_der`).
    func sign<Message: DataProtocol>(_ message: Message, der: Bool) throws(SigningError) -> [UInt8] {
        let result = message.withContiguousStorageIfAvailable { buffer in
            Result { () throws(SigningError) -> [UInt8] in try sign(UnsafeRawBufferPointer(buffer), der: der) }
        }
        if let result { return try result.get() }
        let contiguous = [UInt8](message).withUnsafeBytes { buffer in
            Result { () throws(SigningError) -> [UInt8] in try sign(buffer, der: der) }
        }
        return try contiguous.get()
    }

    private func sign(_ message: UnsafeRawBufferPointer, der: Bool) throws(SigningError) -> [UInt8] {
        var signature: UnsafeMutablePointer<UInt8>?
        var length = 0
        let status =
            der
            ? cjwss_sign_es256_der(handle, message.baseAddress, message.count, &signature, &length)
            : cjwss_sign_es256(handle, message.baseAddress, message.count, &signature, &length)
        defer { cjws_free(signature) }
        guard status == 1, let signature else {
            throw SigningError(code: .signingFailed, message: "OpenSSL could not sign: \(drainOpenSSLErrors())")
        }
        return Array(UnsafeBufferPointer(start: signature, count: length))
    }
}
