/// Receipt check 6, **Apple's marker extensions** (`missingAppleExtension`): the certificate the
/// SignerInfo names carries the receipt-signing marker 1.2.840.113635.100.6.11.1 and its issuer the
/// WWDR intermediate marker 1.2.840.113635.100.6.2.1, by the rule both envelopes share
/// (``AppleMarkersCheck``). Any developer's certificate chains to Apple's root through the same
/// intermediate: the signer's marker is what tells Apple's receipts apart. StoreKit Testing
/// certificates carry no marker.
enum ReceiptAppleExtensionsCheck {
    static func check(
        _ trusted: ReceiptTrustAndValidityCheck.Trusted, anchor: TrustAnchor, recorder: inout ReportRecorder
    ) throws(VerificationError) {
        if case .pinnedXcodeCertificate = anchor {
            AppleMarkersCheck.skipPinned(recorder: &recorder)
            return
        }
        try AppleMarkersCheck.check(signer: trusted.chain[0], issuer: trusted.chain[1], in: .cms, recorder: &recorder)
    }
}
