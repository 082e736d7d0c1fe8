/// The **nested tokens** step, after check 13 of a notification whose own checks all passed: each
/// nested token (`signedTransactionInfo`, `signedRenewalInfo`, `signedAppTransactionInfo`, as the
/// kind's description lists them) is verified by the same verifier as its own kind, through the same
/// path as any token, and parsed once. The notification is verified only when every nested token is;
/// the first nested failure keeps its code and check and names the field.
enum NestedTokensCheck {
    /// Verifies the nested tokens of `payload` when `verifying`, recording the step.
    ///
    /// - Returns: every nested token with its result, and the error to report when one failed.
    static func check<P: AppStorePayload>(
        _ payload: P, verifying: Bool, recorder: inout ReportRecorder,
        verify: (String, PayloadKind) -> VerificationResult<DecodedPayload>
    ) -> (nested: [NestedToken], error: VerificationError?) {
        let fields = P.nestedTokenFields
        guard !fields.isEmpty else {
            recorder.skipped(.nestedTokens, "only notifications carry nested tokens")
            return ([], nil)
        }
        let present = fields.compactMap { field in field.token(payload).map { (field, $0) } }
        guard !present.isEmpty else {
            recorder.skipped(.nestedTokens, "the notification carries no nested token")
            return ([], nil)
        }
        let names = present.map(\.0.field).joined(separator: ", ")
        guard verifying else {
            recorder.skipped(.nestedTokens, "not verified in this call (verifyingNestedTokens: false): \(names)")
            return ([], nil)
        }
        var firstError: VerificationError?
        let nested = present.map { field, token in
            let result = verify(token, field.kind)
            if let error = result.error, firstError == nil {
                firstError = VerificationError(
                    error.code, check: error.check, "nested \(field.field): \(error.message)",
                    underlying: error.underlying, step: .nestedTokens)
            }
            return NestedToken(field: field.field, path: field.path, kind: field.kind, result: result)
        }
        if firstError == nil { recorder.passed(.nestedTokens, "verified and decoded: \(names)") }
        return (nested, firstError)
    }
}
