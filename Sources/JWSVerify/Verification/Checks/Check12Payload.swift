/// Check 12, **payload** (`payloadDecodingFailed`): the payload decodes as the expected kind's model,
/// with every member that kind requires; a payload that is clearly another kind (a transaction given
/// to `verifyAndDecodeAppTransaction`) says which method to use.
enum PayloadCheck {
    /// The payload object decoded as `P`, or the error check 12 reports (decoded before the chain
    /// checks, reported in its place after them).
    static func decode<P: AppStorePayload>(
        _ object: [String: JSONValue], as type: P.Type
    ) -> Result<
        P, VerificationError
    > {
        if let missing = P.requiredKeys.first(where: { object[$0] == nil || object[$0] == .null }) {
            return .failure(
                VerificationError(
                    .payloadDecodingFailed, step: .payload,
                    "the payload is not a valid \(P.kind): \(missing) is missing (every \(P.kind) carries it)"))
        }
        do {
            return .success(try P(json: JSONObjectReader(object: object)))
        } catch {
            return .failure(
                VerificationError(
                    .payloadDecodingFailed, step: .payload,
                    "the payload is not a valid \(P.kind): \(EscapedText.escaped(describe(error)))"))
        }
    }

    /// Check 12 on the decoding's outcome, recording step 12.
    static func check<P: AppStorePayload>(
        _ decoded: Result<P, VerificationError>, recorder: inout ReportRecorder
    ) throws(VerificationError) -> P {
        let payload = try decoded.get()
        if let other = PayloadKind.recognize(keys: payload.unmodeledKeys), other != P.kind {
            throw VerificationError(
                .payloadDecodingFailed, step: .payload,
                "this token is a \(other), not a \(P.kind): use \(other.methodName) instead of \(P.kind.methodName)",
                remedy: .otherKind(other))
        }
        recorder.passed(.payload, .decodesAs(P.kind))
        return payload
    }

    /// The error for a payload of no recognizable kind, when no kind was asked for.
    static let unrecognized = VerificationError(
        .payloadDecodingFailed, step: .payload,
        "the payload is not recognizably any App Store kind; name the kind to verify it as", remedy: .kindRequired)

    private static func describe(_ error: any Error) -> String {
        guard let error = error as? DecodingError else { return "\(error)" }
        func path(_ context: DecodingError.Context) -> String {
            context.codingPath.map(\.stringValue).joined(separator: ".")
        }
        switch error {
        case .typeMismatch(let type, let context): return "\(path(context)) is not of type \(type)"
        case .valueNotFound(let type, let context): return "\(path(context)) is null, expected \(type)"
        case .keyNotFound(let key, let context): return "missing \(path(context)).\(key.stringValue)"
        case .dataCorrupted(let context): return "\(path(context)): \(context.debugDescription)"
        @unknown default: return "\(error)"
        }
    }
}
