import Foundation

/// OpenSSL's own verdict on an app receipt, and plain facts about its CMS structure: the reference
/// that differential tests compare JWSVerify's receipt verifier with.
///
/// ``verify(_:roots:at:purpose:)`` runs OpenSSL's `CMS_verify` exactly as `openssl cms -verify`
/// does: a trust store of the given roots, the validation time, the embedded certificates as the
/// only untrusted ones and the only place the signer is looked up, no CRLs, no
/// `X509_V_FLAG_X509_STRICT`, no `CMS_NOVERIFY`. It makes no check of its own. In particular it
/// does not look for Apple's marker extensions, so it accepts the classic forgery (a receipt signed
/// by a developer certificate issued by the same intermediate) when the purpose allows it: that
/// difference is what the project's verifier adds.
public enum ReceiptReference {
    /// The X.509 purpose OpenSSL checks on the signer's path.
    public enum Purpose: String, Sendable, Hashable, CaseIterable {
        /// `CMS_verify`'s own default, "smime_sign": keyUsage must allow signatures, an
        /// extendedKeyUsage must include emailProtection (Xcode's `CN=StoreKit` certificate, with
        /// codeSigning only, fails it).
        case openSSLDefault
        /// `X509_PURPOSE_ANY` (`openssl cms -verify -purpose any`): no purpose check.
        case any
    }

    /// The outcome of ``verify(_:roots:at:purpose:)``.
    public struct Verdict: Sendable, Hashable {
        /// What a failed verification is about, read from OpenSSL's queued errors.
        public enum Failure: String, Sendable, Hashable, CaseIterable {
            /// The bytes are not a CMS ContentInfo (`d2i_CMS_ContentInfo` failed).
            case parse
            /// A ContentInfo, but not SignedData.
            case notSignedData
            /// No content: a detached signature.
            case noContent
            /// No embedded certificate matches a SignerInfo's issuer and serial number.
            case signerNotFound
            /// The signer's chain did not verify (see ``Verdict/x509Error``).
            case certificate
            /// A signature, or the content digest, did not verify.
            case signature
            /// Anything else; see ``Verdict/reason``.
            case other
        }

        /// Whether `CMS_verify` returned 1.
        public var verified: Bool
        /// What failed; nil when verified.
        public var failure: Failure?
        /// OpenSSL's queued errors with their data, joined by "; " (empty when verified), e.g.
        /// "error:17000064:CMS routines::certificate verify error: Verify error:certificate has expired".
        public var reason: String
        /// OpenSSL's last queued error code (0 when verified).
        public var openSSLErrorCode: UInt
        /// The first `X509_V_ERR_*` of the signer's path, when it failed (for example 10 certificate
        /// has expired, 19 self-signed certificate in chain, 20 unable to get local issuer
        /// certificate, 26 unsupported certificate purpose), with its depth (0 is the signer).
        public var x509Error: OpenSSLChainVerdict.Failure?
        /// SignerInfos in the parsed SignedData.
        public var signerCount: Int
        /// Bytes after the ContentInfo, which OpenSSL ignores.
        public var trailingByteCount: Int
        /// DER of the first signer's certificate that OpenSSL chose among the embedded ones, when it
        /// got that far.
        public var signerCertificate: Data?
        /// The signed content, when verified.
        public var content: [UInt8]?
    }

    /// Verifies `receipt` with OpenSSL's `CMS_verify`.
    ///
    /// - Parameters:
    ///   - receipt: the receipt bytes, DER or BER (decode base64 first).
    ///   - roots: DER certificates, the only trusted ones (for example ``TestHierarchy/rootDER``,
    ///     or Apple Inc. Root CA).
    ///   - time: the validation time (whole seconds are used).
    ///   - purpose: the X.509 purpose; OpenSSL's default unless told otherwise.
    /// - Returns: the verdict; a failed verification is a verdict, not an error.
    /// - Throws: ``JWSTestingError/invalidArgument(_:)`` for an empty receipt,
    ///   ``JWSTestingError/openSSL(operation:message:)`` when a root is not a DER certificate or
    ///   OpenSSL runs out of memory.
    public static func verify(
        _ receipt: [UInt8], roots: [Data], at time: Date, purpose: Purpose = .openSSLDefault
    ) throws -> Verdict {
        try OpenSSLReceipts.verify(
            receipt, roots: roots, at: Int64(time.timeIntervalSince1970.rounded(.down)), purpose: purpose)
    }

    /// Facts about a CMS SignedData read with OpenSSL's CMS API.
    public struct Structure: Sendable, Hashable {
        /// One SignerInfo.
        public struct SignerInfo: Sendable, Hashable {
            /// digestAlgorithm, dotted (SHA-1 1.3.14.3.2.26, SHA-256 2.16.840.1.101.3.4.2.1).
            public var digestAlgorithmOID: String
            /// signatureAlgorithm, dotted (Apple: rsaEncryption 1.2.840.113549.1.1.1).
            public var signatureAlgorithmOID: String
            /// Signed attributes; 0 for none (Apple's receipts have none).
            public var signedAttributeCount: Int
            /// Whether the signer is named by issuer and serial number (not subjectKeyIdentifier).
            public var identifiesByIssuerAndSerialNumber: Bool
            /// The embedded certificate (index into the certificates field) that the SignerInfo names,
            /// or nil when none matches.
            public var certificateIndex: Int?
        }

        /// The outer ContentInfo has an indefinite length (BER, as Xcode writes).
        public var isIndefiniteLength: Bool
        /// The ContentInfo's contentType, dotted (SignedData 1.2.840.113549.1.7.2).
        public var contentTypeOID: String
        /// eContentType, dotted (id-data 1.2.840.113549.1.7.1).
        public var encapsulatedContentTypeOID: String
        /// Whether eContent is absent.
        public var isDetached: Bool
        /// eContent's length in bytes (0 when detached).
        public var contentLength: Int
        /// Certificates embedded.
        public var certificateCount: Int
        /// The SignerInfos, in order.
        public var signers: [SignerInfo]
    }

    /// Parses `receipt` with OpenSSL (trailing bytes ignored, as OpenSSL does) and describes it.
    ///
    /// - Throws: ``JWSTestingError/openSSL(operation:message:)`` when it is not a CMS SignedData,
    ///   ``JWSTestingError/invalidArgument(_:)`` for an empty receipt.
    public static func inspect(_ receipt: [UInt8]) throws -> Structure {
        try OpenSSLReceipts.inspect(receipt)
    }
}
