internal import CJWSOpenSSL
import Foundation

/// An OpenSSL public key (`EVP_PKEY`), owned: freed when the last reference goes.
///
/// `@unchecked Sendable`: the key is never mutated after creation, and OpenSSL 3 allows concurrent
/// verifications with one `EVP_PKEY` (each call makes its own `EVP_PKEY_CTX`). The ES256 verifier
/// (`cjws_ec_key`) counts its uses and publishes its table with C11 atomics.
final class PublicKey: @unchecked Sendable {
    private let key: OpaquePointer
    /// Verification with this key (`cjws_ec_key`): OpenSSL's path until it has verified
    /// ``fixedBaseThreshold`` (P-384: ``issuerTableThreshold``) valid signatures, then the key's own
    /// fixed-base table (see `fastpath/ec_key.c`). Nil only when the allocation failed; then OpenSSL's path is
    /// used throughout.
    let verifier: OpaquePointer?

    /// Valid signatures verified with one key after which it gets its fixed-base table. The table
    /// costs about 100 ms to build and saves about 45 µs a verification here, so it pays for itself
    /// after about 2,000: a server's current leaf key verifies millions of tokens, a key seen once
    /// never reaches the threshold. Invalid signatures do not count, so forged or altered tokens
    /// under a copied chain cannot make a key build one.
    static let fixedBaseThreshold: UInt64 = 1_000

    /// The same for a P-384 key, the kind that signs Apple's leaf certificates: its tables take a few
    /// milliseconds to build and save about two thirds of a 700–1,000 µs verification, so an
    /// intermediate gets them after a few new leaves. Only valid certificate signatures count.
    static let issuerTableThreshold: UInt64 = 16

    /// The elliptic curve of an EC key.
    enum Curve: Equatable, Sendable {
        case p256
        case p384
        case other
        case notEC
    }

    private init(takingOwnershipOf key: OpaquePointer) {
        self.key = key
        let threshold =
            cjws_pkey_ec_curve_nid(key) == cjws_nid_p384() ? Self.issuerTableThreshold : Self.fixedBaseThreshold
        self.verifier = cjws_ec_key_new(key, threshold)
    }

    deinit {
        cjws_ec_key_free(verifier)
        cjws_pkey_free(key)
    }

    /// Takes over one reference to an `EVP_PKEY` that the caller owned.
    convenience init(owning key: OpaquePointer) {
        self.init(takingOwnershipOf: key)
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

    /// Whether this is an EC P-256 key whose point is a point of the group other than the point at
    /// infinity (coordinates in range, on the curve): the validation check 9 requires of a leaf key.
    /// With the point at infinity as key, an ES256 "signature" verifies without any private key.
    var isValidP256Point: Bool { cjws_pkey_is_valid_p256(key) == 1 }

    /// Checks an ES256 signature: raw 64-byte R‖S over SHA-256 of `message`.
    ///
    /// - Returns: true only for a valid signature; a signature of another length, with R or S out of
    ///   range, or made by another key gives false.
    func isValidES256Signature<M: ContiguousBytes, S: ContiguousBytes>(_ signature: S, for message: M) -> Bool {
        message.withUnsafeBytes { message in
            signature.withUnsafeBytes { signature in
                guard signature.count == 64 else { return false }
                let result =
                    if let verifier {
                        cjws_ec_key_verify_es256(
                            verifier, message.baseAddress, message.count, signature.baseAddress, signature.count)
                    } else {
                        cjws_es256_verify(
                            key, message.baseAddress, message.count, signature.baseAddress, signature.count)
                    }
                if result < 0 { cjws_clear_errors() }
                return result == 1
            }
        }
    }

    /// Checks an ECDSA signature in DER (an X.509 certificate's signature value) over `digest`, the
    /// way a leaf's signature is checked under a known intermediate: OpenSSL's verification until the
    /// key is hot, then its fixed-base table.
    ///
    /// - Returns: true only for a valid, strictly DER-encoded signature.
    func isValidECDSASignature(_ signature: [UInt8], overDigest digest: [UInt8]) -> Bool {
        guard let verifier else { return false }
        let result = signature.withUnsafeBufferPointer { signature in
            digest.withUnsafeBufferPointer { digest in
                cjws_ec_key_verify_digest(
                    verifier, digest.baseAddress, digest.count, signature.baseAddress, signature.count)
            }
        }
        if result < 0 { cjws_clear_errors() }
        return result == 1
    }

    /// The size of an RSA key in bits; 0 for any other key (RSA-PSS keys included).
    var rsaBits: Int { Int(cjws_pkey_rsa_bits(key)) }

    /// Checks an app receipt's signature without signed attributes as `CMS_verify` checks it: PKCS #1
    /// v1.5 over `digest` of `content`, with this RSA key.
    ///
    /// - Returns: true only for a valid signature.
    func isValidRSASignature(_ signature: ArraySlice<UInt8>, over content: ArraySlice<UInt8>, digest: CMSDigest)
        -> Bool
    {
        let nid = digest == .sha256 ? cjws_nid_sha256() : cjws_nid_sha1()
        let result = content.withUnsafeBytes { content in
            signature.withUnsafeBytes { signature in
                cjws_rsa_verify_content(
                    key, nid, content.baseAddress, content.count, signature.baseAddress, signature.count)
            }
        }
        if result < 0 { cjws_clear_errors() }
        return result == 1
    }

    /// Builds the key's fixed-base table now instead of after ``fixedBaseThreshold`` valid signatures.
    ///
    /// - Returns: true when the key verifies with its table (a P-256 or P-384 key, OpenSSL 3 with its
    ///   3.0 API).
    @discardableResult
    func prepareFixedBaseTable() -> Bool {
        guard let verifier else { return false }
        return cjws_ec_key_prepare(verifier) == 1
    }

    /// Table verifications (all keys, whole process) whose s^-1 mod n came from `BN_mod_inverse`
    /// because the table path's own inversion (`fastpath/inverse.c`) failed its check; tests expect 0.
    static var inverseFallbacks: UInt64 { cjws_ec_inverse_fallbacks() }

    /// Whether verifications with this key use its fixed-base table.
    var hasFixedBaseTable: Bool {
        guard let verifier else { return false }
        return cjws_ec_key_has_table(verifier) == 1
    }
}
