internal import CJWSOpenSSL
import Foundation

/// The digests an app receipt's SignerInfo may use: SHA-1 (receipts before 2023) and SHA-256.
enum CMSDigest: String, Sendable, Equatable {
    case sha1 = "SHA-1"
    case sha256 = "SHA-256"
}

/// An app receipt as OpenSSL's CMS code parsed it (`cjws_receipt`), owned: the full path of every
/// receipt check. Used by one verification at a time (not `Sendable`).
final class CMSReceipt {
    private let pointer: OpaquePointer

    /// Why the bytes are not a receipt's SignedData.
    enum Refusal: Error, Equatable {
        case notCMS, trailingBytes, notSignedData, notData, detached, signerCount, internalError
    }

    private init(pointer: OpaquePointer) {
        self.pointer = pointer
    }

    deinit {
        cjws_receipt_free(pointer)
    }

    /// Parses all of `bytes` (DER or BER) as a CMS SignedData over id-data content with one signer.
    static func parse(_ bytes: [UInt8]) -> Result<CMSReceipt, Refusal> {
        var reason: Int32 = CJWS_RECEIPT_NOT_CMS
        let pointer = bytes.withUnsafeBytes { cjws_receipt_parse($0.baseAddress, $0.count, &reason) }
        guard let pointer else {
            cjws_clear_errors()
            switch reason {
            case CJWS_RECEIPT_TRAILING_BYTES: return .failure(.trailingBytes)
            case CJWS_RECEIPT_NOT_SIGNED_DATA: return .failure(.notSignedData)
            case CJWS_RECEIPT_NOT_DATA: return .failure(.notData)
            case CJWS_RECEIPT_DETACHED: return .failure(.detached)
            case CJWS_RECEIPT_SIGNER_COUNT: return .failure(.signerCount)
            case CJWS_RECEIPT_INTERNAL: return .failure(.internalError)
            default: return .failure(.notCMS)
            }
        }
        return .success(CMSReceipt(pointer: pointer))
    }

    /// The signed content (the receipt's attributes, DER).
    var content: [UInt8] {
        var base: UnsafePointer<UInt8>?
        var length = 0
        guard cjws_receipt_content(pointer, &base, &length) == 1, let base else { return [] }
        return Array(UnsafeBufferPointer(start: base, count: length))
    }

    /// The embedded certificates, in order (nil for one OpenSSL cannot encode again).
    var certificates: [Certificate?] {
        (0..<Int(cjws_receipt_certificate_count(pointer))).map { index in
            cjws_receipt_certificate(pointer, Int32(index)).flatMap { Certificate(borrowing: $0) }
        }
    }

    /// The index of the embedded certificate the SignerInfo names, as `CMS_verify` picks it.
    var signerIndex: Int? {
        let index = cjws_receipt_signer_index(pointer)
        return index >= 0 ? Int(index) : nil
    }

    /// The SignerInfo's algorithms: its digest (nil for one other than SHA-1 and SHA-256, with the
    /// OpenSSL name of what it is) and whether its signature algorithm is RSA PKCS #1 v1.5
    /// (`rsaEncryption`, or `sha1WithRSAEncryption` / `sha256WithRSAEncryption` with the same digest).
    var algorithms: (digest: CMSDigest?, digestName: String, signatureIsRSA: Bool, signatureName: String) {
        var digestNID: Int32 = 0
        var signatureNID: Int32 = 0
        _ = cjws_receipt_algorithms(pointer, &digestNID, &signatureNID)
        let digest: CMSDigest? =
            digestNID == cjws_nid_sha256() ? .sha256 : digestNID == cjws_nid_sha1() ? .sha1 : nil
        let signatureIsRSA =
            signatureNID == cjws_nid_rsa_encryption()
            || (signatureNID == cjws_nid_sha256_with_rsa() && digest == .sha256)
            || (signatureNID == cjws_nid_sha1_with_rsa() && digest == .sha1)
        return (digest, Self.name(digestNID), signatureIsRSA, Self.name(signatureNID))
    }

    private static func name(_ nid: Int32) -> String {
        readCString { cjws_nid_name(nid, $0, $1) } ?? "an unknown algorithm"
    }

    /// Whether the SignerInfo has signed attributes.
    var hasSignedAttributes: Bool { cjws_receipt_has_signed_attributes(pointer) == 1 }

    /// Why the SignedData's `digestAlgorithms` set cannot give `CMS_verify` the SignerInfo's digest.
    enum DigestSetProblem: Equatable {
        /// An entry is a digest OpenSSL does not know.
        case unknownDigest
        /// The set is empty.
        case empty
        /// No entry is the SignerInfo's digest.
        case signerDigestMissing
        /// OpenSSL could not set the digests up (an allocation failed).
        case internalError
    }

    /// The first steps of `CMS_verify` over the content (`cjws_receipt_digest_set`): nil when the
    /// `digestAlgorithms` set gives it the SignerInfo's digest, else the problem and OpenSSL's reason (empty when
    /// it queues none: an empty set).
    func digestSetProblem() -> (problem: DigestSetProblem, reason: String)? {
        var problem: Int32 = CJWS_DIGEST_SET_USABLE
        let status = cjws_receipt_digest_set(pointer, &problem)
        let reason = drainOpenSSLErrors()
        if status == 1 { return nil }
        guard status == 0 else { return (.internalError, reason) }
        switch problem {
        case CJWS_DIGEST_SET_UNKNOWN: return (.unknownDigest, reason)
        case CJWS_DIGEST_SET_EMPTY: return (.empty, reason)
        default: return (.signerDigestMissing, reason)
        }
    }

    /// OpenSSL's `CMS_verify` of the signature and the content's digest (the chain checked apart): nil when it
    /// verifies, else OpenSSL's reason (drained from its error queue).
    func signatureRefusal() -> String? {
        let verdict = cjws_receipt_verify_signature(pointer)
        let reason = drainOpenSSLErrors()
        return verdict == 1 ? nil : reason
    }

    /// Builds and verifies the chain from the embedded certificate at `signerIndex` to a root of
    /// `store`, every embedded certificate offered as untrusted, at `time`.
    func verifyChain(
        from signerIndex: Int, store: OpaquePointer, at time: Int64
    ) -> (result: cjws_chain_result, issuerIndex: Int?)? {
        var result = cjws_chain_result()
        var issuer: Int32 = -1
        guard cjws_verify_receipt_chain(store, pointer, Int32(signerIndex), time, &result, &issuer) == 1 else {
            return nil
        }
        cjws_clear_errors()
        return (result, issuer >= 0 ? Int(issuer) : nil)
    }
}

extension TrustStore {
    /// What OpenSSL concluded about an app receipt's chain, and which embedded certificate it took as
    /// the signer's issuer (nil when none: the signer's issuer was a root, or nothing was built).
    struct ReceiptChainVerdict {
        let verdict: ChainVerdict
        let issuerIndex: Int?
    }

    /// Builds and verifies `receipt`'s chain from its signer at `time`.
    func verify(
        receipt: CMSReceipt, signerIndex: Int, at time: Int64
    ) -> Result<ReceiptChainVerdict, VerificationError> {
        guard let (result, issuerIndex) = withStore({ receipt.verifyChain(from: signerIndex, store: $0, at: time) })
        else {
            return .failure(
                VerificationError(
                    .untrustedChain, step: .trust, "OpenSSL could not run the chain verification",
                    underlying: drainOpenSSLErrors()))
        }
        return .success(ReceiptChainVerdict(verdict: Self.verdict(result), issuerIndex: issuerIndex))
    }
}
