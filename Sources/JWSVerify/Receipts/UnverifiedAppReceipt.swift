import Foundation

/// An app receipt decoded without verifying its signature or its certificates: its content and the
/// certificates it embeds, as they claim to be.
///
/// - Warning: Nothing here is verified. Anybody can make a receipt that decodes to anything, and embed
///   Apple's real certificates in it. Use it to look at a receipt (the CLI's `inspect`); verify with
///   ``AppReceiptVerifier`` before granting anything.
public struct UnverifiedAppReceipt: Sendable {
    /// The content, decoded.
    public let receipt: AppReceipt
    /// The certificates the receipt embeds that parse, in the receipt's order (one that does not is left
    /// out and named in ``certificateProblems``).
    public let certificates: [CertificateInfo]
    /// What was wrong with embedded certificates that did not parse.
    public let certificateProblems: [String]
    /// The index in ``certificates`` of the certificate the SignerInfo names (issuer and serial number), as
    /// `CMS_verify` would pick it; nil when it names none of them.
    public let signerIndex: Int?
    /// The SignerInfo's digest algorithm, as OpenSSL names it (`sha1`, `sha256`, ...).
    public let digestAlgorithm: String
    /// The SignerInfo's signature algorithm, as OpenSSL names it (`rsaEncryption`, ...).
    public let signatureAlgorithm: String
    /// Whether the SignerInfo has signed attributes (Apple's receipts have none).
    public let hasSignedAttributes: Bool
}

extension AppReceiptVerifier {
    /// Decodes an app receipt without verifying anything but its format: check 1 of the receipt contract
    /// (a CMS SignedData over id-data content with one signer, and that content a receipt's attributes).
    ///
    /// - Parameters:
    ///   - receipt: The receipt file's bytes (DER, or BER from Xcode), or standard base64 of them.
    ///   - maximumReceiptBytes: The largest receipt accepted (default 4 MiB).
    /// - Returns: the content and the embedded certificates, unverified.
    /// - Throws: ``VerificationError`` with ``VerificationError/Code/malformedReceipt`` when check 1 refuses
    ///   the input, with the message the verifier gives.
    /// - Warning: The result is not verified. See ``UnverifiedAppReceipt``.
    public static func decodeUnverified(
        _ receipt: [UInt8], maximumReceiptBytes: Int = defaultMaximumReceiptBytes
    ) throws(VerificationError) -> UnverifiedAppReceipt {
        var recorder = ReportRecorder(for: .cms)
        let parsed = try ReceiptFormatCheck.parse(
            receipt, maximumBytes: maximumReceiptBytes, chainCache: ReceiptChainCache(capacity: 0), recorder: &recorder)
        let cms = try parsed.openSSL()
        var certificates: [CertificateInfo] = []
        var problems: [String] = []
        var signerIndex: Int?
        let named = cms.signerIndex
        for (index, certificate) in cms.certificates.enumerated() {
            guard let certificate else {
                problems.append("embedded certificate \(index) cannot be read")
                continue
            }
            if index == named { signerIndex = certificates.count }
            certificates.append(CertificateInfo(certificate))
        }
        let algorithms = cms.algorithms
        return UnverifiedAppReceipt(
            receipt: parsed.receipt, certificates: certificates, certificateProblems: problems,
            signerIndex: signerIndex, digestAlgorithm: algorithms.digestName,
            signatureAlgorithm: algorithms.signatureName, hasSignedAttributes: cms.hasSignedAttributes)
    }
}
