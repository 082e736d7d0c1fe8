/// What a verified result was verified with: the envelope's signature parameters (a token's JWS
/// header, or a receipt's CMS signer) and the chain of certificates that signed it.
///
/// Both envelopes share everything after the signature parameters: the same trust store, chain checks
/// and caches, validity rule and marker extensions. A verified result carries its evidence
/// (``Verified/evidence``) so that a server can log or store why it trusted the data:
///
/// ```swift
/// switch verified.evidence {
/// case .jws(let header, let chain): log(header.x5c?.count, chain.first?.serialNumber)
/// case .cms(let signer, let chain): log(signer.digestAlgorithm, signer.serialNumber, chain.count)
/// }
/// ```
public enum SignatureEvidence: Sendable, Hashable {
    /// A JWS token (RFC 7515): its protected header (`alg`, `x5c`, `kid`) and the chain that signed it,
    /// leaf first, ending with the trusted root that matched (the pinned certificate alone for Xcode).
    case jws(JWSHeader, chain: [CertificateInfo])
    /// A CMS SignedData app receipt (RFC 5652): its signer and the chain that signed it, the signer
    /// first, then the intermediate and the trusted root (the pinned certificate alone for Xcode).
    case cms(CMSSigner, chain: [CertificateInfo])

    /// The certificates that signed, the signer's first, ending with the trusted root that matched.
    public var chain: [CertificateInfo] {
        switch self {
        case .jws(_, let chain), .cms(_, let chain): return chain
        }
    }

    /// The token's header, or nil for a receipt.
    public var header: JWSHeader? {
        if case .jws(let header, _) = self { return header }
        return nil
    }

    /// The receipt's signer, or nil for a token.
    public var signer: CMSSigner? {
        if case .cms(let signer, _) = self { return signer }
        return nil
    }
}

/// The signer of a CMS SignedData app receipt (RFC 5652 §5.3, SignerInfo) that verified: its algorithms,
/// and the certificate it names by issuer and serial number.
public struct CMSSigner: Sendable, Hashable, Codable {
    /// The SignerInfo's digest algorithm: `SHA-1` or `SHA-256` (the only ones receipt check 2 accepts).
    public let digestAlgorithm: String
    /// The SignerInfo's signature algorithm as OpenSSL names it: `rsaEncryption`, `sha1WithRSAEncryption`
    /// or `sha256WithRSAEncryption` (RSA PKCS #1 v1.5).
    public let signatureAlgorithm: String
    /// The serial number of the signer's certificate, upper-case hexadecimal: with the issuer, what the
    /// SignerInfo names it by.
    public let serialNumber: String?
    /// The common name (CN) of the signer's certificate's issuer.
    public let issuerCommonName: String?
    /// The organization (O) of the signer's certificate's issuer.
    public let issuerOrganization: String?

    init(digestAlgorithm: String, signatureAlgorithm: String, certificate: CertificateInfo) {
        self.digestAlgorithm = digestAlgorithm
        self.signatureAlgorithm = signatureAlgorithm
        serialNumber = certificate.serialNumber
        issuerCommonName = certificate.issuerCommonName
        issuerOrganization = certificate.issuerOrganization
    }
}
