/// Check 11, **revocation** (`revokedCertificate`, `revocationUnavailable`), with online checks only:
/// OCSP for the leaf (issuer: intermediate) and the intermediate (issuer: root), concurrently; the
/// rules for an answer are ``RevocationChecker``'s (Docs/Online-checks.md).
///
/// The check has two halves so that waiting for the network is the caller's choice
/// (``VerificationStage``): ``begin(_:checker:recorder:)`` decides at once or starts the exchanges,
/// ``answered(_:recorder:)`` records the exchange's verdict.
enum RevocationCheck {
    /// The verdict now, or the exchanges to wait for.
    enum Start {
        /// Offline, or decided without the network (recorded when it passed); nil when good or skipped.
        case decided(VerificationError?)
        /// Wait for the exchange's answer, then ``RevocationCheck/answered(_:recorder:)``.
        case asking(RevocationExchange)
    }

    /// Starts the check of `chain` (leaf, intermediate, root) when `checker` is set; offline, records
    /// the step as skipped.
    static func begin(
        _ chain: ValidatedChain, checker: RevocationChecker?, recorder: inout ReportRecorder
    ) -> Start {
        guard let checker else {
            recorder.skipped(.revocation, "offline: revocation is checked only with online checks")
            return .decided(nil)
        }
        switch checker.begin(chain.chain) {
        case .decided(let error):
            if error == nil { recorder.passed(.revocation, passed) }
            return .decided(error)
        case .asking(let exchange):
            return .asking(exchange)
        }
    }

    /// Records the exchange's verdict when it passed; a failure is the caller's to record.
    static func answered(_ answer: VerificationError?, recorder: inout ReportRecorder) {
        if answer == nil { recorder.passed(.revocation, passed) }
    }

    private static let passed = "OCSP: leaf and intermediate good"
}
