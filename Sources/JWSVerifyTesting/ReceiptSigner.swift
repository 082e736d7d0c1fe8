import Foundation

/// The digest of a receipt's SignerInfo.
public enum ReceiptDigest: String, Sendable, Hashable, CaseIterable, Codable {
    /// SHA-1: App Store receipts before 2023.
    case sha1 = "SHA-1"
    /// SHA-256: App Store receipts since 2023 (TN3138) and Xcode's.
    case sha256 = "SHA-256"
    /// SHA-384 (not used by Apple).
    case sha384 = "SHA-384"
    /// SHA-512 (not used by Apple; a verifier accepting only SHA-1 and SHA-256 rejects it).
    case sha512 = "SHA-512"
    /// MD5 (broken; a verifier must reject it).
    case md5 = "MD5"

    /// The digest algorithm's OID, dotted.
    public var oid: String {
        switch self {
        case .sha1: return "1.3.14.3.2.26"
        case .sha256: return "2.16.840.1.101.3.4.2.1"
        case .sha384: return "2.16.840.1.101.3.4.2.2"
        case .sha512: return "2.16.840.1.101.3.4.2.3"
        case .md5: return "1.2.840.113549.2.5"
        }
    }
}

/// How a receipt's CMS ContentInfo is encoded.
public enum ReceiptEncoding: String, Sendable, Hashable, CaseIterable, Codable {
    /// DER, definite lengths: the App Store's receipts.
    case der
    /// BER with indefinite lengths (OpenSSL's streaming writer; the content is a constructed OCTET
    /// STRING): Xcode StoreKit Testing's receipts.
    case berIndefiniteLength
}

/// Signs app receipt content (the DER `SET OF ReceiptAttribute` a `ReceiptContentEncoder` makes)
/// into a CMS/PKCS #7 SignedData shaped like Apple's: one SignerInfo naming its certificate by
/// issuer and serial number, no signed attributes, signatureAlgorithm rsaEncryption, eContentType
/// id-data, the content embedded, the certificates in the order given (Apple: leaf, intermediate,
/// root).
///
/// ``Options`` changes one thing at a time to make receipts that a verifier must reject. Made with
/// OpenSSL's CMS API (`CMS_sign`, `CMS_add1_signer` with `CMS_PARTIAL`, `CMS_BINARY`,
/// `CMS_NOATTR`). One difference from Apple's encoding: OpenSSL writes SHA-1 and SHA-2
/// digestAlgorithm identifiers without parameters, where Apple writes NULL parameters; both are
/// valid (RFC 5754 section 2).
public struct ReceiptSigner: Sendable, Hashable {
    /// The certificate the SignerInfo names, and the key that signs.
    public var signer: TestSigningCredential
    /// The certificates embedded, in order.
    public var certificates: [TestCertificate]
    /// The encoding used unless ``Options/encoding`` says otherwise.
    public var encoding: ReceiptEncoding

    /// A signer with its certificates and default encoding.
    public init(signer: TestSigningCredential, certificates: [TestCertificate], encoding: ReceiptEncoding = .der) {
        self.signer = signer
        self.certificates = certificates
        self.encoding = encoding
    }

    /// The App Store's shape: `hierarchy`'s leaf signs, `[leaf, intermediate, root]` are embedded, DER (a
    /// ``TestHierarchy/Profile/receiptRSA`` hierarchy is Apple's receipt chain).
    public init(hierarchy: TestHierarchy) {
        self.init(signer: hierarchy.leafCredential, certificates: hierarchy.certificateChain, encoding: .der)
    }

    /// The App Store's shape: `pki`'s leaf signs, `[leaf, intermediate, root]` are embedded, DER.
    @available(*, deprecated, message: "use init(hierarchy:) with a TestHierarchy of the .receiptRSA profile")
    public init(pki: ReceiptTestPKI) {
        self.init(hierarchy: pki.hierarchy)
    }

    /// Xcode StoreKit Testing's shape: a self-signed certificate (see
    /// ``TestHierarchy/makeXcodeStoreKitCertificate(validity:keyBits:)``) signs and is the only one
    /// embedded, BER with indefinite lengths.
    public static func xcode(_ credential: TestSigningCredential) -> ReceiptSigner {
        ReceiptSigner(signer: credential, certificates: [credential.certificate], encoding: .berIndefiniteLength)
    }

    /// A further SignerInfo (``Options/additionalSigners``).
    public struct Signer: Sendable, Hashable {
        /// The certificate the SignerInfo names by issuer and serial number.
        public var certificate: TestCertificate
        /// The key that signs (need not be the certificate's).
        public var key: TestSigningKey
        /// The digest.
        public var digest: ReceiptDigest
        /// Whether OpenSSL's signed attributes (contentType, signingTime, messageDigest) are added.
        public var signedAttributes: Bool

        /// A SignerInfo by `credential`'s certificate and key.
        public init(credential: TestSigningCredential, digest: ReceiptDigest = .sha256, signedAttributes: Bool = false)
        {
            self.init(
                certificate: credential.certificate, key: credential.privateKey, digest: digest,
                signedAttributes: signedAttributes)
        }

        /// A SignerInfo naming `certificate`, signed with `key`.
        public init(
            certificate: TestCertificate, key: TestSigningKey, digest: ReceiptDigest = .sha256,
            signedAttributes: Bool = false
        ) {
            self.certificate = certificate
            self.key = key
            self.digest = digest
            self.signedAttributes = signedAttributes
        }
    }

    /// What to change from Apple's shape; each default is Apple's (SHA-256, the receipts since 2023).
    public struct Options: Sendable, Hashable {
        /// The SignerInfo's digest.
        public var digest: ReceiptDigest
        /// Adds OpenSSL's signed attributes (contentType, signingTime, messageDigest); Apple's have none.
        public var signedAttributes: Bool
        /// Leaves eContent out (a detached signature; DER only).
        public var detached: Bool
        /// eContentType, dotted; nil means id-data (1.2.840.113549.1.7.1).
        public var contentTypeOID: String?
        /// The certificates embedded, in order, verbatim (duplicates allowed; empty embeds none);
        /// nil means the signer's ``ReceiptSigner/certificates``.
        public var certificates: [TestCertificate]?
        /// The certificate the SignerInfo names; nil means the signer's. Naming another certificate
        /// than the one whose key signs makes "a receipt that names Apple's real leaf but is signed
        /// by another key".
        public var signerCertificate: TestCertificate?
        /// The key that signs; nil means the signer's.
        public var signingKey: TestSigningKey?
        /// False leaves out the main SignerInfo. With no ``additionalSigners`` the receipt has no
        /// SignerInfo at all and nothing is signed (DER only: OpenSSL's streaming writer needs a
        /// digest to compute).
        public var includesSigner: Bool
        /// More SignerInfos. `signerInfos` is a SET OF, which OpenSSL's writer sorts by encoding:
        /// the order in the receipt need not be the order given.
        public var additionalSigners: [Signer]
        /// The encoding; nil means the signer's ``ReceiptSigner/encoding``.
        public var encoding: ReceiptEncoding?
        /// The SignedData's `digestAlgorithms` SET, as dotted OIDs written in this order, each without
        /// parameters (at most 8; empty writes an empty SET); nil means OpenSSL's (the signers' digests). The
        /// signature does not cover the set, so a receipt with an unknown OID beside SHA-256 still carries a
        /// valid SignerInfo and signature, which `CMS_verify` refuses all the same.
        public var digestAlgorithmOIDs: [String]?

        /// Apple's shape unless told otherwise.
        public init(
            digest: ReceiptDigest = .sha256, signedAttributes: Bool = false, detached: Bool = false,
            contentTypeOID: String? = nil, certificates: [TestCertificate]? = nil,
            signerCertificate: TestCertificate? = nil, signingKey: TestSigningKey? = nil,
            includesSigner: Bool = true, additionalSigners: [Signer] = [], encoding: ReceiptEncoding? = nil,
            digestAlgorithmOIDs: [String]? = nil
        ) {
            self.digest = digest
            self.signedAttributes = signedAttributes
            self.detached = detached
            self.contentTypeOID = contentTypeOID
            self.certificates = certificates
            self.signerCertificate = signerCertificate
            self.signingKey = signingKey
            self.includesSigner = includesSigner
            self.additionalSigners = additionalSigners
            self.encoding = encoding
            self.digestAlgorithmOIDs = digestAlgorithmOIDs
        }
    }

    /// Signs `content` into a receipt.
    ///
    /// - Parameters:
    ///   - content: the receipt's content bytes (normally the DER attribute set), embedded as given.
    ///   - options: what to change from Apple's shape.
    /// - Returns: the encoded ContentInfo (DER unless the encoding is BER).
    /// - Throws: ``JWSTestingError/invalidArgument(_:)`` for a detached BER receipt,
    ///   ``JWSTestingError/openSSL(operation:message:)`` when OpenSSL refuses (for example an
    ///   unknown OID text).
    public func sign(content: [UInt8], options: Options = Options()) throws -> [UInt8] {
        let encoding = options.encoding ?? encoding
        if options.detached && encoding == .berIndefiniteLength {
            throw JWSTestingError.invalidArgument(
                "a BER receipt cannot be detached: OpenSSL's streaming writer embeds the content")
        }
        var signers: [OpenSSLReceiptSigner] = []
        if options.includesSigner {
            signers.append(
                OpenSSLReceiptSigner(
                    certificate: (options.signerCertificate ?? signer.certificate).der,
                    key: (options.signingKey ?? signer.privateKey).handle, digest: options.digest,
                    signedAttributes: options.signedAttributes))
        }
        for extra in options.additionalSigners {
            signers.append(
                OpenSSLReceiptSigner(
                    certificate: extra.certificate.der, key: extra.key.handle, digest: extra.digest,
                    signedAttributes: extra.signedAttributes))
        }
        return try OpenSSLReceipts.sign(
            content: content, contentTypeOID: options.contentTypeOID, signers: signers,
            certificates: (options.certificates ?? certificates).map(\.der), detached: options.detached,
            encoding: encoding, digestAlgorithmOIDs: options.digestAlgorithmOIDs)
    }

    /// Signs `content` into a receipt and returns it as standard base64 with padding, the form a
    /// device sends its server (`appStoreReceiptURL` contents, base64-encoded).
    ///
    /// - Throws: as ``sign(content:options:)``.
    public func signBase64(content: [UInt8], options: Options = Options()) throws -> String {
        Data(try sign(content: content, options: options)).base64EncodedString()
    }
}
