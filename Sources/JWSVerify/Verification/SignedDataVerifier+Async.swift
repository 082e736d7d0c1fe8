import Foundation

/// The asynchronous methods, under the names and argument labels of Apple's App Store Server
/// Library, for servers (Vapor, Hummingbird, any Swift concurrency code).
///
/// They run the same checks in the same order as the synchronous methods and return the same
/// ``VerificationResult``. They never block a thread of Swift's cooperative pool: the offline checks
/// run inline (they take microseconds), and with online checks the OCSP requests run on threads of
/// their own while the calling task is suspended. Cancelling the task ends that wait at once: the
/// token fails with ``VerificationError/Code/revocationUnavailable`` (retryable), as when the
/// responder does not answer in time.
extension SignedDataVerifier {
    /// Verifies a signed transaction (`signedTransactionInfo`, StoreKit `Transaction.jwsRepresentation`).
    ///
    /// Claims: `bundleId`, then `environment`.
    public func verifyAndDecodeTransaction(
        signedTransaction: String
    ) async -> VerificationResult<JWSTransactionDecodedPayload> {
        await verification(of: signedTransaction, as: JWSTransactionDecodedPayload.self).result()
    }

    /// Verifies signed renewal info (`signedRenewalInfo`). Claims: `environment`.
    public func verifyAndDecodeRenewalInfo(
        signedRenewalInfo: String
    ) async -> VerificationResult<JWSRenewalInfoDecodedPayload> {
        await verification(of: signedRenewalInfo, as: JWSRenewalInfoDecodedPayload.self).result()
    }

    /// Verifies a signed app transaction (`AppTransaction.jwsRepresentation`, `signedAppTransactionInfo`).
    ///
    /// Claims: `bundleId`, `appAppleId` in Production, then `receiptType`.
    public func verifyAndDecodeAppTransaction(signedAppTransaction: String) async -> VerificationResult<AppTransaction> {
        await verification(of: signedAppTransaction, as: AppTransaction.self).result()
    }

    /// Verifies a Retention Messaging realtime request's `signedPayload`.
    ///
    /// Claims: `appAppleId` in Production, then `environment`.
    public func verifyAndDecodeRealtimeRequest(
        signedPayload: String
    ) async -> VerificationResult<DecodedRealtimeRequestBody> {
        await verification(of: signedPayload, as: DecodedRealtimeRequestBody.self).result()
    }

    /// Verifies an App Store Server Notification V2 (`signedPayload`) and, by default, its nested
    /// tokens, as ``verifyAndDecodeNotification(_:verifyingNestedTokens:)`` does.
    ///
    /// - Parameters:
    ///   - signedPayload: The notification's `signedPayload`.
    ///   - verifyingNestedTokens: Also verify and decode the nested tokens (default true).
    public func verifyAndDecodeNotification(
        signedPayload: String, verifyingNestedTokens: Bool = true
    ) async -> VerificationResult<DecodedNotification> {
        await notificationVerification(of: signedPayload, verifyingNestedTokens: verifyingNestedTokens).result()
    }

    /// Verifies the body of the HTTP POST that the App Store sends to a notification endpoint:
    /// `{"signedPayload": "..."}` (``NotificationRequestBody``), then its token and nested tokens.
    ///
    /// A body that is not such a JSON object fails with ``VerificationError/Code/malformedToken``
    /// at check ``VerificationError/Check/format``, like a token that is not a JWS.
    ///
    /// - Parameter httpBody: The request body's bytes, as received.
    public func verifyAndDecodeNotification(httpBody: Data) async -> VerificationResult<DecodedNotification> {
        switch NotificationRequestBody.parse(httpBody, maximumTokenBytes: maximumTokenBytes) {
        case .success(let body): return await verifyAndDecodeNotification(signedPayload: body.signedPayload)
        case .failure(let error): return .failed(Self.bodyFailure(error))
        }
    }

    /// Verifies the body of the HTTP POST that the App Store sends to a Retention Messaging realtime
    /// URL: `{"signedPayload": "..."}` (``RealtimeRequestBody``), then its token.
    ///
    /// A body that is not such a JSON object fails with ``VerificationError/Code/malformedToken``
    /// at check ``VerificationError/Check/format``.
    ///
    /// - Parameter httpBody: The request body's bytes, as received.
    public func verifyAndDecodeRealtimeRequest(httpBody: Data) async -> VerificationResult<DecodedRealtimeRequestBody> {
        switch RealtimeRequestBody.parse(httpBody, maximumTokenBytes: maximumTokenBytes) {
        case .success(let body): return await verifyAndDecodeRealtimeRequest(signedPayload: body.signedPayload)
        case .failure(let error): return .failed(Self.bodyFailure(error))
        }
    }

    /// The failure of a body that did not parse: check 1, and nothing after it.
    private static func bodyFailure<P>(_ error: VerificationError) -> VerificationFailure<P> {
        var recorder = ReportRecorder()
        recorder.failed(error)
        return VerificationFailure(error: error, recorded: recorder)
    }

    /// Verifies a token of any kind: the given one, or the one its payload's keys reveal, as
    /// ``verifyAndDecode(_:as:)`` does.
    public func verifyAndDecode(signedData: String, as kind: PayloadKind?) async -> VerificationResult<DecodedPayload> {
        await verification(of: signedData, as: kind, claims: claims).result()
    }
}
