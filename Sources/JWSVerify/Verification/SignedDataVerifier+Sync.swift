import Foundation

/// The synchronous methods, one per kind. They return at once offline; with online checks they
/// block the calling thread while OCSP runs (up to the revocation timeout), so servers running
/// Swift concurrency should call the asynchronous methods (SignedDataVerifier+Async.swift).
extension SignedDataVerifier {
    /// Verifies a signed transaction (`signedTransactionInfo`, StoreKit `Transaction.jwsRepresentation`).
    ///
    /// Claims: `bundleId`, then `environment`. With online checks this blocks the calling thread
    /// while OCSP runs (up to the revocation timeout); servers should call
    /// ``verifyAndDecodeTransaction(signedTransaction:)`` instead.
    public func verifyAndDecodeTransaction(_ token: String) -> VerificationResult<JWSTransactionDecodedPayload> {
        verification(of: token, as: JWSTransactionDecodedPayload.self).blockingResult()
    }

    /// Verifies signed renewal info (`signedRenewalInfo`). Claims: `environment`.
    ///
    /// With online checks this blocks the calling thread while OCSP runs; servers should call
    /// ``verifyAndDecodeRenewalInfo(signedRenewalInfo:)`` instead.
    public func verifyAndDecodeRenewalInfo(_ token: String) -> VerificationResult<JWSRenewalInfoDecodedPayload> {
        verification(of: token, as: JWSRenewalInfoDecodedPayload.self).blockingResult()
    }

    /// Verifies a signed app transaction (`AppTransaction.jwsRepresentation`,
    /// `signedAppTransactionInfo`). Claims: `bundleId`, `appAppleId` in Production, then `receiptType`.
    ///
    /// With online checks this blocks the calling thread while OCSP runs; servers should call
    /// ``verifyAndDecodeAppTransaction(signedAppTransaction:)`` instead.
    public func verifyAndDecodeAppTransaction(_ token: String) -> VerificationResult<AppTransaction> {
        verification(of: token, as: AppTransaction.self).blockingResult()
    }

    /// Verifies a Retention Messaging realtime request. Claims: `appAppleId` in Production, then `environment`.
    ///
    /// With online checks this blocks the calling thread while OCSP runs; servers should call
    /// ``verifyAndDecodeRealtimeRequest(signedPayload:)`` instead.
    public func verifyAndDecodeRealtimeRequest(_ token: String) -> VerificationResult<DecodedRealtimeRequestBody> {
        verification(of: token, as: DecodedRealtimeRequestBody.self).blockingResult()
    }

    /// Verifies an App Store Server Notification V2 (`signedPayload`).
    ///
    /// Claims come from the first present of `data`, `summary`, `externalPurchaseToken` and `appData`:
    /// bundle id, app Apple id in Production, then environment. A notification with none of them fails
    /// with ``VerificationError/Code/invalidAppIdentifier``.
    ///
    /// With online checks this blocks the calling thread while OCSP runs; servers should call
    /// ``verifyAndDecodeNotification(signedPayload:verifyingNestedTokens:)`` instead.
    ///
    /// - Parameters:
    ///   - token: The notification's `signedPayload`.
    ///   - verifyingNestedTokens: Also verify and decode `signedTransactionInfo`, `signedRenewalInfo`
    ///     and `signedAppTransactionInfo` (default true), each of which must name the notification's
    ///     environment. The result is verified only when every nested token verifies too; a nested
    ///     failure has check ``VerificationError/Check/nestedTokens``, the nested code, and the field
    ///     in ``VerificationError/nestedField``.
    public func verifyAndDecodeNotification(
        _ token: String, verifyingNestedTokens: Bool = true
    ) -> VerificationResult<DecodedNotification> {
        notificationVerification(of: token, verifyingNestedTokens: verifyingNestedTokens).blockingResult()
    }

    /// Verifies a token of any kind: the given one, or the one its payload's keys reveal.
    ///
    /// With online checks this blocks the calling thread while OCSP runs; servers should call
    /// ``verifyAndDecode(signedData:as:)`` instead.
    ///
    /// - Parameters:
    ///   - token: The token.
    ///   - kind: The expected kind, or nil to recognize it from the payload (see ``PayloadKind/recognize(token:)``).
    public func verifyAndDecode(_ token: String, as kind: PayloadKind?) -> VerificationResult<DecodedPayload> {
        verification(of: token, as: kind, claims: claims).blockingResult()
    }

    /// ``verifyAndDecode(_:as:)`` of a token given as its UTF-8 bytes: for a caller that holds them
    /// already (the CLI's `batch` reads them from a line), without a `String` made only to be turned
    /// back into bytes.
    package func verifyAndDecode(utf8 token: [UInt8], as kind: PayloadKind?) -> VerificationResult<DecodedPayload> {
        verification(ofUTF8: token, as: kind, claims: claims).blockingResult()
    }

    /// Explains a verification step by step.
    ///
    /// - Parameter result: A result this verifier returned from ``verifyAndDecode(_:as:)``.
    /// - Returns: the report of every step, recorded while the checks ran (``VerificationResult/report``).
    public func report(for result: VerificationResult<DecodedPayload>) -> VerificationReport { result.report }
}
