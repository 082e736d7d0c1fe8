import Foundation

/// Checks 5 to 9 for an Xcode StoreKit Testing token (``TrustAnchor/pinnedXcodeCertificate(_:)``):
/// its single `x5c` certificate is one DER certificate (5) byte-identical to the pinned one (6,
/// `untrustedChain`, ``PinnedCertificateCheck``, shared with receipts) with an EC P-256 key (9).
/// Validity dates (7) are not enforced, as Xcode does not enforce them either, and StoreKit Testing
/// certificates carry no Apple marker (8).
enum XcodeCertificateCheck {
    /// Checks `entry`, recording steps 5 to 9.
    static func check(
        _ entry: String, pinned: Certificate, recorder: inout ReportRecorder
    ) throws(VerificationError) -> ValidatedChain {
        guard let der = Base64.decodeStandard(entry), Certificate(der: der) != nil else {
            throw VerificationError(
                .invalidCertificate, step: .certificates, "x5c[0] is not standard base64 of one DER X.509 certificate",
                underlying: drainOpenSSLErrors())
        }
        recorder.passed(.certificates, CertificatesCheck.passed)
        try PinnedCertificateCheck.check(der, in: .jws, pinned: pinned, recorder: &recorder)
        AppleMarkersCheck.skipPinned(recorder: &recorder)
        guard let key = pinned.publicKey, key.curve == .p256, key.isValidP256Point else {
            throw VerificationError(
                .unsupportedKey, step: .leafKey, "the StoreKit Testing certificate's key is not EC P-256")
        }
        recorder.passed(.leafKey, LeafKeyCheck.passed)
        return ValidatedChain(
            leafKey: key, validity: .always, certificates: [CertificateInfo(pinned)], chain: [],
            isRememberable: true, intermediateEntry: nil)
    }
}
