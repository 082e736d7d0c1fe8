/// Receipt check 6, **Apple's marker extensions** (`missingAppleExtension`): the certificate the
/// SignerInfo names carries the receipt-signing marker 1.2.840.113635.100.6.11.1 and its issuer the
/// WWDR intermediate marker 1.2.840.113635.100.6.2.1. Any developer's certificate chains to Apple's
/// root through the same intermediate: the signer's marker is what tells Apple's receipts apart.
/// StoreKit Testing certificates carry no marker.
enum ReceiptAppleExtensionsCheck {
    static let passed =
        "intermediate has \(AppleOID.intermediateMarker), receipt signer has \(AppleOID.leafMarker)"

    static func check(
        _ trusted: ReceiptTrustAndValidityCheck.Trusted, anchor: TrustAnchor, recorder: inout ReportRecorder
    ) throws(VerificationError) {
        if case .pinnedXcodeCertificate = anchor {
            recorder.skipped(.appleExtensions, "StoreKit Testing certificates carry no Apple marker")
            return
        }
        guard trusted.chain[1].hasExtension(AppleOID.intermediateMarker) else {
            throw VerificationError(
                .missingAppleExtension, step: .appleExtensions,
                "the intermediate certificate lacks Apple's marker extension \(AppleOID.intermediateMarker)")
        }
        guard trusted.chain[0].hasExtension(AppleOID.leafMarker) else {
            throw VerificationError(
                .missingAppleExtension, step: .appleExtensions,
                "the receipt's signer lacks Apple's receipt-signing marker extension \(AppleOID.leafMarker): it is"
                    + " not Apple's receipt-signing certificate (any developer certificate chains to Apple's root)")
        }
        recorder.passed(.appleExtensions, passed)
    }
}
