internal import CJWSOpenSSL
import Foundation

/// An OpenSSL public key (`EVP_PKEY`), owned: freed when the last reference goes.
///
/// `@unchecked Sendable`: the key is never mutated after creation, and OpenSSL 3 allows concurrent
/// verifications with one `EVP_PKEY` (each call makes its own `EVP_PKEY_CTX`). The ES256 verifier
/// (`cjws_es256_key`) counts its uses and publishes its table with C11 atomics.
final class PublicKey: @unchecked Sendable {
    private let key: OpaquePointer
    /// ES256 verification of this key: OpenSSL's path until it has verified ``fixedBaseThreshold``
    /// valid signatures, then the key's own fixed-base table (see `es256_key.c`). Nil only when the
    /// allocation failed; then OpenSSL's path is used throughout.
    private let es256: OpaquePointer?

    /// Valid signatures verified with one key after which it gets its fixed-base table. The table
    /// costs about 100 ms to build and saves about 45 µs a verification here, so it pays for itself
    /// after about 2,000: a server's current leaf key verifies millions of tokens, a key seen once
    /// never reaches the threshold. Invalid signatures do not count, so forged or altered tokens
    /// under a copied chain cannot make a key build one.
    static let fixedBaseThreshold: UInt64 = 1_000

    /// The elliptic curve of an EC key.
    enum Curve: Equatable, Sendable {
        case p256
        case p384
        case other
        case notEC
    }

    private init(takingOwnershipOf key: OpaquePointer) {
        self.key = key
        self.es256 = cjws_es256_key_new(key, Self.fixedBaseThreshold)
    }

    deinit {
        cjws_es256_key_free(es256)
        cjws_pkey_free(key)
    }

    /// Parses a DER SubjectPublicKeyInfo; nil when it is not one (or bytes follow it).
    convenience init?(subjectPublicKeyInfo der: [UInt8]) {
        guard let key = der.withUnsafeBytes({ cjws_pkey_from_spki($0.baseAddress, $0.count) }) else {
            cjws_clear_errors()
            return nil
        }
        self.init(takingOwnershipOf: key)
    }

    /// Builds a P-256 key from an uncompressed point (0x04 ‖ X ‖ Y); nil when the point is not on the curve.
    convenience init?(p256UncompressedPoint point: [UInt8]) {
        guard point.count == 65,
            let key = point.withUnsafeBytes({ cjws_pkey_p256_from_point($0.baseAddress, $0.count) })
        else {
            cjws_clear_errors()
            return nil
        }
        self.init(takingOwnershipOf: key)
    }

    /// The public key of a certificate.
    convenience init?(certificateTakingReference certificate: OpaquePointer) {
        guard let key = cjws_x509_public_key(certificate) else {
            cjws_clear_errors()
            return nil
        }
        self.init(takingOwnershipOf: key)
    }

    var curve: Curve {
        let nid = cjws_pkey_ec_curve_nid(key)
        switch nid {
        case 0: return .notEC
        case cjws_nid_p256(): return .p256
        case cjws_nid_p384(): return .p384
        default: return .other
        }
    }

    /// Checks an ES256 signature: raw 64-byte R‖S over SHA-256 of `message`.
    ///
    /// - Returns: true only for a valid signature; a signature of another length, with R or S out of
    ///   range, or made by another key gives false.
    func isValidES256Signature<M: ContiguousBytes, S: ContiguousBytes>(_ signature: S, for message: M) -> Bool {
        message.withUnsafeBytes { message in
            signature.withUnsafeBytes { signature in
                guard signature.count == 64 else { return false }
                let result =
                    if let es256 {
                        cjws_es256_key_verify(
                            es256, message.baseAddress, message.count, signature.baseAddress, signature.count)
                    } else {
                        cjws_es256_verify(
                            key, message.baseAddress, message.count, signature.baseAddress, signature.count)
                    }
                if result < 0 { cjws_clear_errors() }
                return result == 1
            }
        }
    }

    /// Builds the key's fixed-base table now instead of after ``fixedBaseThreshold`` valid signatures.
    ///
    /// - Returns: true when the key verifies with its table (a P-256 key, OpenSSL 3 with its 3.0 API).
    @discardableResult
    func prepareFixedBaseTable() -> Bool {
        guard let es256 else { return false }
        return cjws_es256_key_prepare(es256) == 1
    }

    /// Whether ES256 verifications with this key use its fixed-base table.
    var hasFixedBaseTable: Bool {
        guard let es256 else { return false }
        return cjws_es256_key_has_table(es256) == 1
    }
}
