import Foundation

/// What a certificate of an `x5c` chain says, for display and logging.
public struct CertificateInfo: Hashable, Sendable, Codable {
    /// Subject common name (CN).
    public let subjectCommonName: String?
    /// Subject organization (O).
    public let subjectOrganization: String?
    /// Issuer common name (CN).
    public let issuerCommonName: String?
    /// Issuer organization (O).
    public let issuerOrganization: String?
    /// Serial number, upper-case hexadecimal.
    public let serialNumber: String?
    /// Start of validity.
    public let notBefore: Date?
    /// End of validity.
    public let notAfter: Date?
    /// Public key type: `EC P-256`, `EC P-384`, `EC (other curve)`, `RSA <bits>` (app receipt
    /// signers: `RSA 2048`) or `not EC` (any other key).
    public let keyType: String
    /// Signature algorithm, such as `ecdsa-with-SHA384`.
    public let signatureAlgorithm: String?
    /// Apple's marker extension OIDs present: 1.2.840.113635.100.6.2.1 (intermediate) and
    /// 1.2.840.113635.100.6.11.1 (leaf).
    public let appleMarkerExtensions: [String]
    /// SHA-256 of the DER, upper-case hexadecimal.
    public let sha256Fingerprint: String
    /// The DER bytes.
    public let der: Data

    init(_ certificate: Certificate) {
        subjectCommonName = certificate.subjectCommonName
        subjectOrganization = certificate.subjectOrganization
        issuerCommonName = certificate.issuerCommonName
        issuerOrganization = certificate.issuerOrganization
        serialNumber = certificate.serialNumberHex
        let validity = certificate.validity
        notBefore = validity.map { Date(timeIntervalSince1970: TimeInterval($0.notBefore)) }
        notAfter = validity.map { Date(timeIntervalSince1970: TimeInterval($0.notAfter)) }
        switch certificate.publicKey?.curve {
        case .p256: keyType = "EC P-256"
        case .p384: keyType = "EC P-384"
        case .other: keyType = "EC (other curve)"
        case .notEC, nil:
            let rsaBits = certificate.publicKey?.rsaBits ?? 0
            keyType = rsaBits > 0 ? "RSA \(rsaBits)" : "not EC"
        }
        signatureAlgorithm = certificate.signatureAlgorithm
        appleMarkerExtensions = [AppleOID.intermediateMarker, AppleOID.leafMarker].filter(certificate.hasExtension)
        sha256Fingerprint = certificate.sha256Fingerprint.hexString
        der = Data(certificate.der)
    }

    /// Describes a certificate given as DER or PEM; nil when it does not parse.
    public init?(derOrPEM: Data) {
        guard let certificate = Certificate(derOrPEM: Array(derOrPEM)) else { return nil }
        self.init(certificate)
    }
}

/// Apple's marker extensions.
enum AppleOID {
    /// Marks the Apple Worldwide Developer Relations intermediate.
    static let intermediateMarker = "1.2.840.113635.100.6.2.1"
    /// Marks an App Store receipt-signing leaf.
    static let leafMarker = "1.2.840.113635.100.6.11.1"
}

extension Sequence where Element == UInt8 {
    /// Upper-case hexadecimal without separators.
    var hexString: String {
        let digits = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        for byte in self {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0xF)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}
