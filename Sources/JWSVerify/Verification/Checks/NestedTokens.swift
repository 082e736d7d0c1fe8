/// The **nested tokens** step (check `nestedTokens`), after check 13 of a notification whose own
/// checks all passed: each nested token (`signedTransactionInfo`, `signedRenewalInfo`,
/// `signedAppTransactionInfo`, as the kind's description lists them) is verified by the same
/// verifier as its own kind, through the same path as any token, and parsed once. Each must name
/// the environment the notification was accepted for (``ClaimsCheck/nested(in:)``). The
/// notification is verified only when every nested token is; the first nested failure is reported
/// with check ``VerificationError/Check/nestedTokens``, the nested code, the field
/// (``VerificationError/nestedField``) and the nested check (``VerificationError/nestedCheck``).
enum NestedTokensCheck {
    /// A nested token to verify: where it is, and its text.
    struct Present {
        let field: String
        let path: String
        let kind: PayloadKind
        let token: String
    }

    /// Every nested token verified, and the error to report when one failed.
    struct Outcome: Sendable {
        var nested: [NestedToken]
        var error: VerificationError?
        var recorder: ReportRecorder
    }

    /// The nested tokens of `payload` to verify; when there are none (another kind, none present,
    /// or not `verifying`), the step is recorded as skipped and the list is empty.
    static func tokens<P: AppStorePayload>(
        in payload: P, verifying: Bool, recorder: inout ReportRecorder
    ) -> [Present] {
        let fields = P.nestedTokenFields
        guard !fields.isEmpty else {
            recorder.skipped(.nestedTokens, "only notifications carry nested tokens")
            return []
        }
        let present = fields.compactMap { field in
            field.token(payload).map { Present(field: field.field, path: field.path, kind: field.kind, token: $0) }
        }
        guard !present.isEmpty else {
            recorder.skipped(.nestedTokens, "the notification carries no nested token")
            return []
        }
        guard verifying else {
            recorder.skipped(
                .nestedTokens, "not verified in this call (verifyingNestedTokens: false): \(names(present))")
            return []
        }
        return present
    }

    /// Verifies each of `present` in order with `verify`, every one even after a failure, and
    /// records the step.
    static func verify(
        _ present: [Present], recorder: ReportRecorder,
        with verify: @escaping (String, PayloadKind) -> VerificationStage<VerificationResult<DecodedPayload>>
    ) -> VerificationStage<Outcome> {
        func next(_ index: Int, _ outcome: Outcome) -> VerificationStage<Outcome> {
            guard index < present.count else {
                var outcome = outcome
                if outcome.error == nil {
                    outcome.recorder.passed(.nestedTokens, "verified and decoded: \(names(present))")
                }
                return .finished(outcome)
            }
            let item = present[index]
            return verify(item.token, item.kind).then { result in
                var outcome = outcome
                if let error = result.error, outcome.error == nil {
                    outcome.error = VerificationError(
                        error.code, check: .nestedTokens, "nested \(item.field): \(error.message)",
                        underlying: error.underlying, step: .nestedTokens, nestedField: item.field,
                        nestedCheck: error.check)
                }
                outcome.nested.append(NestedToken(field: item.field, path: item.path, kind: item.kind, result: result))
                return next(index + 1, outcome)
            }
        }
        return next(0, Outcome(nested: [], error: nil, recorder: recorder))
    }

    private static func names(_ present: [Present]) -> String {
        present.map(\.field).joined(separator: ", ")
    }
}
