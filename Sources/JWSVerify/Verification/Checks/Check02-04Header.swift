/// Checks 2 to 4, **header**, on the decoded header, before any certificate or payload model is
/// built (a forged header costs no more than its own decoding):
/// - 2 (`unsupportedAlgorithm`): `alg` is exactly `"ES256"` and there is no `crit` member;
/// - 3 (`missingCertificateChain`): `x5c` is present, an array of strings;
/// - 4 (`invalidChainLength`): exactly three entries, one for a pinned Xcode certificate.
enum HeaderCheck {
    private static let algorithmPassed = "alg is ES256, no crit"
    private static let chainPassed = "x5c is an array of certificates"

    /// Checks `header` for `anchor`, recording steps 2–4.
    ///
    /// - Returns: the `x5c` entries.
    static func check(
        _ header: JWSHeader, anchor: TrustAnchor, recorder: inout ReportRecorder
    ) throws(VerificationError) -> [String] {
        guard header.alg == "ES256" else {
            let found =
                header.alg.map { "\"\(EscapedText.escaped($0))\"" }
                ?? header.additionalMembers["alg"].map { EscapedText.escaped("\($0)") } ?? "absent"
            throw VerificationError(
                .unsupportedAlgorithm, step: .algorithm,
                "alg is \(found); App Store tokens are signed with exactly \"ES256\"")
        }
        if header.crit != nil {
            throw VerificationError(
                .unsupportedAlgorithm, step: .algorithm,
                "the header has a crit member (RFC 7515 §4.1.11); no extension is understood, so the token is rejected")
        }
        recorder.passed(.algorithm, algorithmPassed)
        guard let x5c = header.x5c else {
            throw VerificationError(
                .missingCertificateChain, step: .certificateChain,
                header.additionalMembers["x5c"] != nil
                    ? "x5c is not an array of strings" : "the header has no x5c certificate chain")
        }
        recorder.passed(.certificateChain, chainPassed)
        let expected = anchor.chainLength
        guard x5c.count == expected else {
            var message = "x5c holds \(x5c.count) certificate\(x5c.count == 1 ? "" : "s"), expected \(expected)"
            var remedy: VerificationError.Remedy?
            if case .pinnedXcodeCertificate = anchor {
                message += " (a StoreKit Testing token carries one self-signed certificate)"
                if x5c.count == 3 { remedy = .notAnXcodeToken }
            } else {
                message += " (leaf, intermediate, root)"
                if x5c.count == 1 && header.kid == "Apple_Xcode_Key" {
                    message +=
                        "; this is an Xcode StoreKit Testing token: configure environment Xcode with the"
                        + " certificate exported from Xcode"
                    remedy = .xcodeToken
                }
            }
            throw VerificationError(.invalidChainLength, step: .chainLength, message, remedy: remedy)
        }
        recorder.passed(.chainLength, anchor.chainLengthDetail)
        return x5c
    }
}
