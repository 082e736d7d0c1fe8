/// The pinned StoreKit Testing certificate, for both envelopes (token checks 6–7 and receipt checks
/// 4–5 under ``TrustAnchor/pinnedXcodeCertificate(_:)``): the certificate that signed is byte-identical
/// to the one the verifier was configured with (`untrustedChain`). Its validity dates are not enforced,
/// as Xcode does not enforce them either. Nothing else is trusted for Xcode: no root, no chain.
enum PinnedCertificateCheck {
    /// Checks that `der`, the signer's certificate, is `pinned`, recording the trust step (passed) and
    /// the validity step (skipped).
    ///
    /// - Parameters:
    ///   - der: The signer's certificate as the signed data carries it.
    ///   - envelope: Which signed data: its messages name `x5c[0]` or the receipt's signer.
    ///   - pinned: The configured StoreKit Testing certificate.
    /// - Throws: ``VerificationError/Code/untrustedChain`` at step `trust`, with both SHA-256 fingerprints.
    static func check(
        _ der: [UInt8], in envelope: SignedEnvelope, pinned: Certificate, recorder: inout ReportRecorder
    ) throws(VerificationError) {
        let subject = envelope == .jws ? "x5c[0]" : "the receipt's signer"
        guard der == pinned.der else {
            throw VerificationError(
                .untrustedChain, step: .trust,
                "\(subject) is not the pinned StoreKit Testing certificate (SHA-256 \(SHA256.hash(der).hexString),"
                    + " pinned \(pinned.sha256Fingerprint.hexString))")
        }
        recorder.passed(.trust, "\(subject) is byte-identical to the pinned StoreKit Testing certificate")
        recorder.skipped(.validity, "not enforced for StoreKit Testing certificates, as in Xcode")
    }
}
