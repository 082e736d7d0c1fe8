/// Check 11, **revocation** (`revokedCertificate`, `revocationUnavailable`), with online checks only:
/// OCSP for the leaf (issuer: intermediate) and the intermediate (issuer: root), concurrently; the
/// rules for an answer are ``RevocationChecker``'s (Docs/Online-checks.md).
enum RevocationCheck {
    /// Asks about `chain` (leaf, intermediate, root) when `checker` is set, recording step 11.
    static func check(
        _ chain: ValidatedChain, checker: RevocationChecker?, recorder: inout ReportRecorder
    ) throws(VerificationError) {
        guard let checker else {
            recorder.skipped(.revocation, "offline: revocation is checked only with online checks")
            return
        }
        if let error = checker.check(chain.chain) { throw error }
        recorder.passed(.revocation, "OCSP: leaf and intermediate good")
    }
}
