/// Receipt check 2, **algorithms** (`unsupportedAlgorithm`): the SignerInfo's digest is SHA-1 (receipts
/// before 2023) or SHA-256, and its signature algorithm RSA PKCS #1 v1.5 (`rsaEncryption`, as Apple
/// writes it, or `sha1WithRSAEncryption` / `sha256WithRSAEncryption` naming the same digest).
enum ReceiptAlgorithmsCheck {
    /// Checks the algorithms, recording step 2 (`algorithm`); returns the digest and the signature
    /// algorithm's name (for ``CMSSigner``).
    static func check(
        _ cms: CMSReceipt, recorder: inout ReportRecorder
    ) throws(VerificationError) -> (digest: CMSDigest, signatureName: String) {
        let algorithms = cms.algorithms
        guard let digest = algorithms.digest else {
            throw VerificationError(
                .unsupportedAlgorithm, step: .algorithm,
                "the receipt's digest is \(algorithms.digestName); app receipts use SHA-1 or SHA-256")
        }
        guard algorithms.signatureIsRSA else {
            throw VerificationError(
                .unsupportedAlgorithm, step: .algorithm,
                "the receipt's signature algorithm is \(algorithms.signatureName) with \(digest.rawValue); app"
                    + " receipts are signed with RSA PKCS #1 v1.5")
        }
        recorder.passed(.algorithm, passed(digest))
        return (digest, algorithms.signatureName)
    }

    static func passed(_ digest: CMSDigest) -> String { "RSA PKCS #1 v1.5 with \(digest.rawValue)" }
}
