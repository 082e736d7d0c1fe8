/// Receipt check 2, **algorithms** (`unsupportedAlgorithm`): the SignerInfo's digest is SHA-1 (receipts
/// before 2023) or SHA-256, and its signature algorithm RSA PKCS #1 v1.5 (`rsaEncryption`, as Apple
/// writes it, or `sha1WithRSAEncryption` / `sha256WithRSAEncryption` naming the same digest); and the
/// SignedData's `digestAlgorithms` set gives `CMS_verify` that digest: every entry a digest OpenSSL knows and
/// one of them the SignerInfo's (else `CMS_verify` refuses the receipt whatever its signature: an unknown
/// entry beside SHA-256, an empty set, a set without the signer's digest), with OpenSSL's reason in
/// `underlying`.
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
        if let (problem, reason) = cms.digestSetProblem() {
            throw digestSetError(problem, digest: digest, reason: reason)
        }
        recorder.passed(.algorithm, passed(digest))
        return (digest, algorithms.signatureName)
    }

    /// The refusal of a `digestAlgorithms` set that `CMS_verify` cannot take the SignerInfo's digest from: it
    /// sets up one digest per entry of the set before it looks at the signature, and fails on an entry it does
    /// not know ("unknown digest algorithm"), on an empty set (without a reason) and on a set without the
    /// signer's digest ("no matching digest"), whatever the signature.
    private static func digestSetError(
        _ problem: CMSReceipt.DigestSetProblem, digest: CMSDigest, reason: String
    ) -> VerificationError {
        let set = "the SignedData's digestAlgorithms set"
        let message: String
        switch problem {
        case .unknownDigest:
            message =
                "\(set) holds a digest algorithm OpenSSL does not know, so CMS_verify cannot compute it; app"
                + " receipts list SHA-1 or SHA-256"
        case .empty:
            message =
                "\(set) is empty: it does not list the SignerInfo's digest \(digest.rawValue), so CMS_verify"
                + " has no digest to check the signature with"
        case .signerDigestMissing:
            message =
                "\(set) does not list the SignerInfo's digest \(digest.rawValue), so CMS_verify has no digest"
                + " to check the signature with"
        case .internalError:
            message = "OpenSSL could not set up the digests of \(set)"
        }
        let underlying =
            reason.isEmpty && problem == .empty
            ? "CMS_verify refuses it without a reason: CMS_dataInit sets up no digest for an empty set" : reason
        return VerificationError(.unsupportedAlgorithm, step: .algorithm, message, underlying: underlying)
    }

    static func passed(_ digest: CMSDigest) -> String { "RSA PKCS #1 v1.5 with \(digest.rawValue)" }
}
