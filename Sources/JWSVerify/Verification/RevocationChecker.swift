import Foundation

/// Check 11 of the contract: OCSP revocation status of the leaf (issuer: intermediate) and the
/// intermediate (issuer: root), for verifiers with online checks.
final class RevocationChecker: Sendable {
    let timeout: Duration
    private let clock: @Sendable () -> Date

    init(timeout: Duration, clock: @escaping @Sendable () -> Date) {
        self.timeout = timeout
        self.clock = clock
    }

    /// Nil when both certificates are good; else `revokedCertificate` or `revocationUnavailable`.
    /// - Parameter chain: leaf, intermediate, root.
    func check(_ chain: [Certificate]) -> VerificationError? {
        VerificationError(.revocationUnavailable, check: .revocation, "OCSP is not implemented yet")
    }
}
