internal import CJWSOpenSSL
import Foundation

/// An OpenSSL X.509 certificate (`X509`), owned: freed when the last reference goes.
///
/// `@unchecked Sendable`: never mutated after parsing. OpenSSL caches some derived values inside
/// an `X509` on first use (extensions, hashes) under its own lock, so concurrent reads are safe.
final class Certificate: @unchecked Sendable {
    let pointer: OpaquePointer
    /// The DER bytes the certificate was parsed from.
    let der: [UInt8]
    /// The subject key, built apart when the certificate was parsed without decoding it
    /// (``init(p256LeafDER:)``); nil for certificates parsed the usual way.
    private let separateKey: PublicKey?

    private init(takingOwnershipOf pointer: OpaquePointer, der: [UInt8], separateKey: PublicKey? = nil) {
        self.pointer = pointer
        self.der = der
        self.separateKey = separateKey
    }

    deinit {
        cjws_x509_free(pointer)
    }

    /// Parses exactly one DER certificate; nil when the bytes are not one or have bytes after it.
    convenience init?(der: [UInt8]) {
        guard !der.isEmpty, let pointer = der.withUnsafeBytes({ cjws_x509_from_der($0.baseAddress, $0.count) })
        else {
            cjws_clear_errors()
            return nil
        }
        self.init(takingOwnershipOf: pointer, der: der)
    }

    /// A certificate that OpenSSL parsed as part of something else (an app receipt's embedded
    /// certificates), with a reference of its own; nil when it has no DER encoding.
    convenience init?(borrowing pointer: OpaquePointer) {
        var out: UnsafeMutablePointer<UInt8>?
        var length = 0
        guard cjws_x509_to_der(pointer, &out, &length) == 1, let out, let owned = cjws_x509_up_ref(pointer) else {
            cjws_free(out)
            cjws_clear_errors()
            return nil
        }
        let der = Array(UnsafeBufferPointer(start: out, count: length))
        cjws_free(out)
        self.init(takingOwnershipOf: owned, der: der)
    }

    /// Parses a leaf without OpenSSL's provider decoding of its subject key (140–350 µs in OpenSSL
    /// 3.0), building the key from its fields instead; nil when the bytes are not one certificate or
    /// the key is not an EC P-256 key (then parse with ``init(der:)``). Such a certificate has no key
    /// inside OpenSSL's `X509`: it serves ``check(under:key:at:)`` and the accessors, not
    /// ``TrustStore/verify(leaf:intermediate:at:)``.
    convenience init?(p256LeafDER der: [UInt8]) {
        var key: OpaquePointer?
        guard !der.isEmpty,
            let pointer = der.withUnsafeBytes({ cjws_x509_from_der_p256_leaf($0.baseAddress, $0.count, &key) })
        else {
            cjws_clear_errors()
            return nil
        }
        guard let key else {
            cjws_x509_free(pointer)
            return nil
        }
        self.init(takingOwnershipOf: pointer, der: der, separateKey: PublicKey(owning: key))
    }

    /// What ``check(under:key:at:)`` found.
    enum QuickCheck: Equatable {
        /// The leaf certainly passes OpenSSL's verification of the full chain.
        case accepted
        /// Not certainly, for this reason (the first rule of `leaf.c` the leaf did not meet).
        case setAside(SetAside)

        /// Whether the leaf's signature was checked (accepted, or set aside for its signature).
        var checkedSignature: Bool { self == .accepted || self == .setAside(.signature) }
    }

    /// The rules of the leaf check, in the order it checks them (`CJWS_LEAF_*`).
    enum SetAside: Equatable {
        /// OpenSSL's extension flags: an invalid or duplicate extension, an unhandled critical one,
        /// proxy, self-issued, CA, version 1.
        case flags
        /// Not X.509 v3, or a path length.
        case profile
        /// An extension of a kind Apple's leaves do not carry.
        case extensions
        /// `X509_check_issued` refuses it: names, authority key identifier, key usage, key type,
        /// invalid extensions.
        case notIssued
        /// Not valid at the time.
        case time
        /// The signature does not verify with the intermediate's key.
        case signature
        /// The self-test switched the check off.
        case unavailable

        init(_ reason: Int32) {
            switch reason {
            case CJWS_LEAF_FLAGS: self = .flags
            case CJWS_LEAF_PROFILE: self = .profile
            case CJWS_LEAF_EXTENSIONS: self = .extensions
            case CJWS_LEAF_NOT_ISSUED: self = .notIssued
            case CJWS_LEAF_TIME: self = .time
            case CJWS_LEAF_SIGNATURE: self = .signature
            default: self = .unavailable
            }
        }
    }

    /// Checks this leaf on its own under `intermediate`, one that already verified up to a configured
    /// root, is valid at `time` with that root, and whose own and root's extensions cannot constrain
    /// it (``cannotConstrainLeaves``); `intermediateKey` is its key (see `leaf.c`). Anything but
    /// `.accepted` means "not certainly": the full chain verification then decides.
    func check(under intermediate: Certificate, key intermediateKey: PublicKey, at time: Int64) -> QuickCheck {
        guard let verifier = intermediateKey.verifier else { return .setAside(.unavailable) }
        var reason: Int32 = CJWS_LEAF_UNAVAILABLE
        let verdict = der.withUnsafeBytes {
            cjws_leaf_accepted_under(pointer, $0.baseAddress, $0.count, intermediate.pointer, verifier, time, &reason)
        }
        return verdict == 1 ? .accepted : .setAside(SetAside(reason))
    }

    /// Parses a certificate given as DER or as PEM (the first certificate of a PEM file).
    convenience init?(derOrPEM bytes: [UInt8]) {
        if let pemStart = "-----BEGIN CERTIFICATE-----".data(using: .utf8),
            Data(bytes).range(of: pemStart) != nil
        {
            guard let pointer = bytes.withUnsafeBytes({ cjws_x509_from_pem($0.baseAddress, $0.count) }) else {
                cjws_clear_errors()
                return nil
            }
            var out: UnsafeMutablePointer<UInt8>?
            var length = 0
            guard cjws_x509_to_der(pointer, &out, &length) == 1, let out else {
                cjws_x509_free(pointer)
                cjws_clear_errors()
                return nil
            }
            let der = Array(UnsafeBufferPointer(start: out, count: length))
            cjws_free(out)
            self.init(takingOwnershipOf: pointer, der: der)
        } else {
            self.init(der: bytes)
        }
    }

    /// The subject public key.
    var publicKey: PublicKey? { separateKey ?? PublicKey(certificateTakingReference: pointer) }

    /// Whether every extension of this CA certificate is one that cannot constrain a certificate
    /// below it in the chain verification's configuration (see `cjws_ca_cannot_constrain_leaves`): the
    /// condition, for intermediate and root, under which new leaves may take the leaf check.
    var cannotConstrainLeaves: Bool { cjws_ca_cannot_constrain_leaves(pointer) == 1 }

    /// Whether this certificate's subject name is `other`'s issuer name (`issuer` true) or its subject
    /// name (`issuer` false), as OpenSSL's chain building compares names.
    func subjectIsName(of other: Certificate, issuer: Bool) -> Bool {
        cjws_x509_names_equal(pointer, 0, other.pointer, issuer ? 1 : 0) == 1
    }

    /// Whether an extension with this dotted OID is present (its value is not examined).
    func hasExtension(_ dottedOID: String) -> Bool {
        cjws_x509_has_extension(pointer, dottedOID) == 1
    }

    /// notBefore and notAfter, in seconds since 1970: the interval in which the certificate is valid.
    var validity: ValidityInterval? {
        var notBefore: Int64 = 0
        var notAfter: Int64 = 0
        guard cjws_x509_validity(pointer, &notBefore, &notAfter) == 1 else { return nil }
        return ValidityInterval(notBefore: notBefore, notAfter: notAfter)
    }

    var subjectCommonName: String? { nameEntry(issuer: false, nid: cjws_nid_common_name()) }
    var subjectOrganization: String? { nameEntry(issuer: false, nid: cjws_nid_organization()) }
    var issuerCommonName: String? { nameEntry(issuer: true, nid: cjws_nid_common_name()) }
    var issuerOrganization: String? { nameEntry(issuer: true, nid: cjws_nid_organization()) }

    private func nameEntry(issuer: Bool, nid: Int32) -> String? {
        readCString { cjws_x509_name_entry(pointer, issuer ? 1 : 0, nid, $0, $1) }
    }

    /// The serial number in upper-case hexadecimal.
    var serialNumberHex: String? { readCString { cjws_x509_serial_hex(pointer, $0, $1) } }

    /// The signature algorithm's name, such as `ecdsa-with-SHA384`.
    var signatureAlgorithm: String? { readCString { cjws_x509_signature_algorithm(pointer, $0, $1) } }

    /// SHA-256 of the DER bytes.
    var sha256Fingerprint: [UInt8] { SHA256.hash(der) }

    /// SHA-256 of the certificate as OpenSSL encodes it (DER): the fingerprint `cjws_verify_chain`
    /// gives the root it ended at. It differs from ``sha256Fingerprint`` for a certificate given in BER.
    var openSSLFingerprint: [UInt8] {
        var digest = [UInt8](repeating: 0, count: 32)
        guard digest.withUnsafeMutableBufferPointer({ cjws_x509_sha256(pointer, $0.baseAddress) }) == 1 else {
            return []
        }
        return digest
    }
}

/// SHA-256 through OpenSSL (also the ledger's key of a stored token).
package enum SHA256 {
    package static func hash<C: ContiguousBytes>(_ bytes: C) -> [UInt8] { openSSLDigest(bytes, length: 32, cjws_sha256) }
}

/// SHA-1 through OpenSSL (an app receipt's device hash).
enum SHA1 {
    static func hash<C: ContiguousBytes>(_ bytes: C) -> [UInt8] { openSSLDigest(bytes, length: 20, cjws_sha1) }
}

/// SHA-384 through OpenSSL (the digest of Apple's certificate signatures).
enum SHA384 {
    static func hash<C: ContiguousBytes>(_ bytes: C) -> [UInt8] { openSSLDigest(bytes, length: 48, cjws_sha384) }
}

/// `length` bytes of digest from one of the module's `cjws_sha*` functions.
private func openSSLDigest<C: ContiguousBytes>(
    _ bytes: C, length: Int, _ function: (UnsafeRawPointer?, Int, UnsafeMutablePointer<UInt8>?) -> Int32
) -> [UInt8] {
    var digest = [UInt8](repeating: 0, count: length)
    bytes.withUnsafeBytes { input in
        _ = digest.withUnsafeMutableBufferPointer { function(input.baseAddress, input.count, $0.baseAddress) }
    }
    return digest
}
