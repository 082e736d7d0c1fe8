/// Check 8, **Apple's marker extensions** (`missingAppleExtension`): the intermediate carries
/// 1.2.840.113635.100.6.2.1 and the leaf 1.2.840.113635.100.6.11.1. A known intermediate's marker was
/// checked when it was cached.
enum AppleExtensionsCheck {
    static let passed = "intermediate has \(AppleOID.intermediateMarker), leaf has \(AppleOID.leafMarker)"

    /// Checks both markers, recording step 8.
    static func check(_ chain: ParsedChain, recorder: inout ReportRecorder) throws(VerificationError) {
        guard chain.known != nil || chain.intermediate.hasExtension(AppleOID.intermediateMarker) else {
            throw VerificationError(
                .missingAppleExtension, step: .appleExtensions,
                "the intermediate certificate lacks Apple's marker extension \(AppleOID.intermediateMarker)")
        }
        guard chain.leaf.hasExtension(AppleOID.leafMarker) else {
            throw VerificationError(
                .missingAppleExtension, step: .appleExtensions,
                "the leaf certificate lacks Apple's marker extension \(AppleOID.leafMarker)")
        }
        recorder.passed(.appleExtensions, passed)
    }
}
