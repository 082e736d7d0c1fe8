/// Check 8, **Apple's marker extensions** (`missingAppleExtension`): the intermediate carries
/// 1.2.840.113635.100.6.2.1 and the leaf 1.2.840.113635.100.6.11.1, by the rule both envelopes share
/// (``AppleMarkersCheck``). A known intermediate's marker was checked when it was cached.
enum AppleExtensionsCheck {
    /// Checks both markers, recording step 8.
    static func check(_ chain: ParsedChain, recorder: inout ReportRecorder) throws(VerificationError) {
        try AppleMarkersCheck.check(
            signer: chain.leaf, issuer: chain.known == nil ? chain.intermediate : nil, in: .jws, recorder: &recorder)
    }
}
