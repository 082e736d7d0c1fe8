/// Apple's marker extensions, for both envelopes (token check 8, receipt check 6;
/// `missingAppleExtension`): the issuer of the signer's certificate (the WWDR intermediate) carries
/// 1.2.840.113635.100.6.2.1 and the signer's certificate (a token's leaf, a receipt's signer) carries
/// 1.2.840.113635.100.6.11.1. Presence only, as Apple's library checks them.
///
/// Any developer's certificate chains to Apple's root through the same intermediate: the signer's marker
/// is what tells Apple's signing certificates apart. StoreKit Testing certificates carry no marker, and
/// the check is skipped for them (``skipPinned(recorder:)``).
enum AppleMarkersCheck {
    /// Checks both markers, recording the `appleExtensions` step.
    ///
    /// - Parameters:
    ///   - signer: The certificate that signed.
    ///   - issuer: Its issuer, the intermediate; nil when the intermediate cache knows it (its marker was
    ///     checked when it was remembered).
    ///   - envelope: Which signed data, for the messages.
    static func check(
        signer: Certificate, issuer: Certificate?, in envelope: SignedEnvelope, recorder: inout ReportRecorder
    ) throws(VerificationError) {
        if let issuer, !issuer.hasExtension(AppleOID.intermediateMarker) {
            throw VerificationError(
                .missingAppleExtension, step: .appleExtensions,
                "the intermediate certificate lacks Apple's marker extension \(AppleOID.intermediateMarker)")
        }
        guard signer.hasExtension(AppleOID.leafMarker) else {
            throw VerificationError(.missingAppleExtension, step: .appleExtensions, signerMissing(envelope))
        }
        recorder.passed(
            .appleExtensions,
            "intermediate has \(AppleOID.intermediateMarker), \(envelope.signerName) has \(AppleOID.leafMarker)")
    }

    /// Records the step as skipped for a pinned StoreKit Testing certificate.
    static func skipPinned(recorder: inout ReportRecorder) {
        recorder.skipped(.appleExtensions, "StoreKit Testing certificates carry no Apple marker")
    }

    private static func signerMissing(_ envelope: SignedEnvelope) -> String {
        switch envelope {
        case .jws:
            return "the leaf certificate lacks Apple's marker extension \(AppleOID.leafMarker)"
        case .cms:
            return "the receipt's signer lacks Apple's receipt-signing marker extension \(AppleOID.leafMarker): it is"
                + " not Apple's receipt-signing certificate (any developer certificate chains to Apple's root)"
        }
    }
}
