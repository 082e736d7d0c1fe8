import Foundation

/// Verifies and decodes App Store signed data: transactions, renewal infos, app transactions,
/// server notifications (V2) and Retention Messaging realtime requests.
///
/// Each method runs the checks of the verification contract in a fixed order (format, header,
/// chain, signature, payload, claims) and returns a ``VerificationResult``: the typed payload when
/// every check passed, else a ``VerificationError`` naming the first check that failed.
///
/// ```swift
/// let verifier = try SignedDataVerifier(
///     bundleId: "com.example.app", appAppleId: 1234567890, environment: .production)
/// switch verifier.verifyAndDecodeTransaction(signedTransaction) {
/// case .verified(let verified): grant(verified.payload)
/// case .failed(let failure): reject(failure.error)
/// }
/// ```
///
/// A verifier is immutable and `Sendable`: create one per configuration and share it between
/// threads. Its chain cache makes every token after the first with the same `x5c` cost one ES256
/// verification.
///
/// Validation time: the payload's `signedDate` (`receiptCreationDate` for an app transaction), as
/// Apple's library does offline, so that a stored token stays verifiable after its leaf expires;
/// the clock's time when the payload has no such date.
public struct SignedDataVerifier: Sendable {
    /// The bundle id every payload must carry, or nil to skip that check.
    public let bundleId: String?
    /// The app Apple id payloads must carry in Production, or nil.
    public let appAppleId: Int64?
    /// The environment every payload must name, or nil to accept whatever the payload says.
    public let environment: AppStoreEnvironment?
    /// Whether OCSP revocation checks run (and validation happens at the current time).
    public let enableOnlineChecks: Bool
    /// The largest token accepted, in bytes.
    public let maximumTokenBytes: Int
    /// When certificates must be valid.
    public let validationTime: ValidationTime

    private let clock: @Sendable () -> Date
    let anchor: TrustAnchor
    let chainCache: ChainCache
    private let revocationChecker: RevocationChecker?
    let claims: ClaimsCheck

    /// Creates a verifier.
    ///
    /// - Parameters:
    ///   - rootCertificates: DER (or PEM) trusted roots; the default is Apple Root CA - G3
    ///     (``AppleRootCertificate/rootCAG3``). `x5c[2]` of a token is never trusted by itself.
    ///   - bundleId: The app's bundle id. Pass nil only to inspect tokens of unknown origin: the
    ///     bundle id check is then skipped.
    ///   - appAppleId: The app's Apple id; required when `environment` is Production.
    ///   - environment: The environment tokens must come from, or nil to accept any (inspection only).
    ///     For ``AppStoreEnvironment/xcode`` pass `xcodeCertificate`.
    ///   - xcodeCertificate: The StoreKit Testing certificate exported from Xcode (DER or PEM). An
    ///     Xcode token verifies only when its single `x5c` certificate is byte-identical to it.
    ///   - enableOnlineChecks: Check the leaf and intermediate with OCSP, at the current time.
    ///   - revocationTimeout: How long each OCSP request may take (default 5 s).
    ///   - validationTime: When the certificates must be valid (default: the payload's signed date).
    ///   - maximumTokenBytes: The largest token accepted (default 64 KiB).
    ///   - chainCacheCapacity: How many chains to remember (default 64); 0 disables every cache, so
    ///     that each token's chain is parsed and verified in full.
    ///   - clock: The current time, read only when a payload carries no date.
    /// - Throws: ``VerificationError`` with code ``VerificationError/Code/invalidConfiguration``
    ///   when a root does not parse, Production has no app Apple id, or Xcode has no certificate.
    public init(
        rootCertificates: [Data] = AppleRootCertificate.defaultRoots,
        bundleId: String?,
        appAppleId: Int64? = nil,
        environment: AppStoreEnvironment?,
        xcodeCertificate: Data? = nil,
        enableOnlineChecks: Bool = false,
        revocationTimeout: Duration = .seconds(5),
        validationTime: ValidationTime = .signedDate,
        maximumTokenBytes: Int = CompactJWS.defaultMaximumBytes,
        chainCacheCapacity: Int = 64,
        clock: @escaping @Sendable () -> Date = { Date() }
    ) throws(VerificationError) {
        anchor = try Configuration.anchor(
            rootCertificates: rootCertificates, xcodeCertificate: xcodeCertificate, environment: environment,
            appAppleId: appAppleId, enableOnlineChecks: enableOnlineChecks, cachesIntermediates: chainCacheCapacity > 0)
        self.bundleId = bundleId
        self.appAppleId = appAppleId
        self.environment = environment
        self.enableOnlineChecks = enableOnlineChecks
        self.maximumTokenBytes = maximumTokenBytes
        self.validationTime = validationTime
        self.clock = clock
        self.chainCache = ChainCache(capacity: chainCacheCapacity)
        self.revocationChecker =
            enableOnlineChecks ? RevocationChecker(timeout: revocationTimeout, clock: clock) : nil
        self.claims = ClaimsCheck(bundleId: bundleId, appAppleId: appAppleId, environment: environment)
    }

    // MARK: - One method per kind

    /// Verifies a signed transaction (`signedTransactionInfo`, StoreKit `Transaction.jwsRepresentation`).
    ///
    /// Claims: `bundleId`, then `environment`.
    public func verifyAndDecodeTransaction(_ token: String) -> VerificationResult<JWSTransactionDecodedPayload> {
        verify(token, as: JWSTransactionDecodedPayload.self)
    }

    /// Verifies signed renewal info (`signedRenewalInfo`). Claims: `environment`.
    public func verifyAndDecodeRenewalInfo(_ token: String) -> VerificationResult<JWSRenewalInfoDecodedPayload> {
        verify(token, as: JWSRenewalInfoDecodedPayload.self)
    }

    /// Verifies a signed app transaction (`AppTransaction.jwsRepresentation`,
    /// `signedAppTransactionInfo`). Claims: `bundleId`, `appAppleId` in Production, then `receiptType`.
    public func verifyAndDecodeAppTransaction(_ token: String) -> VerificationResult<AppTransaction> {
        verify(token, as: AppTransaction.self)
    }

    /// Verifies a Retention Messaging realtime request. Claims: `appAppleId` in Production, then `environment`.
    public func verifyAndDecodeRealtimeRequest(_ token: String) -> VerificationResult<DecodedRealtimeRequestBody> {
        verify(token, as: DecodedRealtimeRequestBody.self)
    }

    /// Verifies an App Store Server Notification V2 (`signedPayload`).
    ///
    /// Claims come from the first present of `data`, `summary`, `externalPurchaseToken` and `appData`:
    /// bundle id, app Apple id in Production, then environment. A notification with none of them fails
    /// with ``VerificationError/Code/invalidAppIdentifier``.
    ///
    /// - Parameters:
    ///   - token: The notification's `signedPayload`.
    ///   - verifyingNestedTokens: Also verify and decode `signedTransactionInfo`, `signedRenewalInfo`
    ///     and `signedAppTransactionInfo` (default true). The result is verified only when every nested
    ///     token verifies too; a nested failure keeps its code and names the nested field.
    public func verifyAndDecodeNotification(
        _ token: String, verifyingNestedTokens: Bool = true
    ) -> VerificationResult<DecodedNotification> {
        let result = verify(token, as: ResponseBodyV2DecodedPayload.self, verifyingNestedTokens: verifyingNestedTokens)
        let nested = result.nestedTokens
        return result.map { DecodedNotification(notification: $0, nested: nested) }
    }

    /// Verifies a token of any kind: the given one, or the one its payload's keys reveal.
    ///
    /// - Parameters:
    ///   - token: The token.
    ///   - kind: The expected kind, or nil to recognize it from the payload (see ``PayloadKind/recognize(token:)``).
    public func verifyAndDecode(_ token: String, as kind: PayloadKind?) -> VerificationResult<DecodedPayload> {
        // The token is parsed once: the kind is recognized from the same payload tree that is verified.
        parse(token) { parsed, recorder in
            guard let kind = kind ?? PayloadKind.recognize(payload: parsed.payloadObject.keys) else {
                return checkUnrecognized(parsed, recorder: &recorder)
            }
            func run<P: AppStorePayload>(_ type: P.Type) -> VerificationResult<DecodedPayload> {
                let result = check(parsed, as: P.self, verifyingNestedTokens: true, recorder: &recorder)
                let nested = result.nestedTokens
                return result.map { $0.decodedPayload(nested: nested) }
            }
            return run(kind.model)
        }
    }

    /// Explains a verification step by step.
    ///
    /// - Parameter result: A result this verifier returned from ``verifyAndDecode(_:as:)``.
    /// - Returns: the report of every step, recorded while the checks ran (``VerificationResult/report``).
    public func report(for result: VerificationResult<DecodedPayload>) -> VerificationReport { result.report }

    // MARK: - The contract, in order (Checks/, one file per check)

    func verify<P: AppStorePayload>(
        _ token: String, as type: P.Type, verifyingNestedTokens: Bool = true
    ) -> VerificationResult<P> {
        parse(token) { parsed, recorder in
            check(parsed, as: P.self, verifyingNestedTokens: verifyingNestedTokens, recorder: &recorder)
        }
    }

    /// The entry of every method: check 1, then `next` on the parsed token.
    private func parse<Output>(
        _ token: String, then next: (ParsedToken, inout ReportRecorder) -> VerificationResult<Output>
    ) -> VerificationResult<Output> {
        var recorder = ReportRecorder()
        let parsed: ParsedToken
        do {
            parsed = try FormatCheck.parse(Array(token.utf8), maximumBytes: maximumTokenBytes, chainCache: chainCache)
        } catch {
            recorder.failed(error)
            return .failed(VerificationFailure(error: error, recorded: recorder))
        }
        recorder.passed(.format, FormatCheck.passed)
        return next(parsed, &recorder)
    }

    /// Checks 2 to 13 and the nested tokens, the payload taken as `P`.
    private func check<P: AppStorePayload>(
        _ parsed: ParsedToken, as type: P.Type, verifyingNestedTokens: Bool, recorder: inout ReportRecorder
    ) -> VerificationResult<P> {
        func failed(_ error: VerificationError, payload: UnverifiedPayload<P>) -> VerificationResult<P> {
            recorder.failed(error)
            return .failed(
                VerificationFailure(
                    error: error, recorded: recorder, kind: P.kind, unverifiedHeader: parsed.header, payload: payload,
                    payloadBytes: parsed.payloadJSON))
        }
        let chain: ValidatedChain
        let time: Int64
        let payload: P
        do throws(VerificationError) {
            (chain, time) = try checkSignedToken(parsed, dateKey: P.validationDateKey, recorder: &recorder)
            payload = try PayloadCheck.check(PayloadCheck.decode(parsed.payloadObject, as: P.self), recorder: &recorder)
        } catch {
            return failed(error, payload: .decodingLater(parsed.payloadObject))
        }
        do throws(VerificationError) {
            try claims.check(payload.claims, recorder: &recorder)
        } catch {
            return failed(error, payload: .decoded(payload))
        }
        let (nested, nestedError) = NestedTokensCheck.check(
            payload, verifying: verifyingNestedTokens, recorder: &recorder,
            verify: { token, kind in verifyAndDecode(token, as: kind) })
        if let nestedError {
            recorder.failed(nestedError)
            return .failed(
                VerificationFailure(
                    error: nestedError, recorded: recorder, kind: P.kind, unverifiedHeader: parsed.header,
                    payload: .decoded(payload), payloadBytes: parsed.payloadJSON, nestedTokens: nested))
        }
        return .verified(
            Verified(
                payload: payload, header: parsed.header, chain: chain.certificates,
                validationTime: Date(timeIntervalSince1970: TimeInterval(time)), recorded: recorder,
                nestedTokens: nested))
    }

    /// A payload of no recognizable kind: checks 2 to 11 so that the first real failure is reported,
    /// then check 12 fails.
    private func checkUnrecognized(
        _ parsed: ParsedToken, recorder: inout ReportRecorder
    ) -> VerificationResult<DecodedPayload> {
        var error = PayloadCheck.unrecognized
        do throws(VerificationError) {
            _ = try checkSignedToken(parsed, dateKey: ValidationTime.signedDateKey, recorder: &recorder)
        } catch let failure {
            error = failure
        }
        recorder.failed(error)
        return .failed(
            VerificationFailure(
                error: error, recorded: recorder, unverifiedHeader: parsed.header, payloadBytes: parsed.payloadJSON
            ))
    }

    /// Checks 2 to 11: header, chain (from the chain cache when it holds this header's chain for the
    /// validation time), signature, revocation. A chain is remembered only once the token's signature
    /// verified with its leaf key, so tokens that copy a real chain never change what the caches hold.
    private func checkSignedToken(
        _ parsed: ParsedToken, dateKey: String, recorder: inout ReportRecorder
    ) throws(VerificationError) -> (ValidatedChain, Int64) {
        let time = validationTime.seconds(
            payload: parsed.payloadObject, dateKey: dateKey, online: enableOnlineChecks, clock: clock)
        recorder.validationTime = time
        let x5c: [String]
        if let cached = parsed.cached {
            recorder.replay(cached.headerSteps)
            x5c = cached.header.x5c ?? []
        } else {
            x5c = try HeaderCheck.check(parsed.header, anchor: anchor, recorder: &recorder)
        }
        let chain: ValidatedChain
        let remembered = parsed.cached.map { chainCache.isUsable($0, at: time) } ?? false
        if remembered, let cached = parsed.cached {
            chain = cached.chain
            recorder.replay(cached.chainSteps)
        } else {
            chain = try anchor.validate(x5c, at: time, recorder: &recorder)
        }
        try SignatureCheck.check(parsed, key: chain.leafKey, recorder: &recorder)
        if !remembered, chain.isRememberable, let key = parsed.cacheKey {
            let entry = ChainCache.Entry(
                header: parsed.header, chain: chain,
                headerSteps: recorder.recorded(from: .algorithm, through: .chainLength),
                chainSteps: recorder.recorded(from: .certificates, through: .leafKey))
            chainCache.insert(entry, for: key)
            anchor.remember(chain, for: x5c)
        }
        try RevocationCheck.check(chain, checker: revocationChecker, recorder: &recorder)
        return (chain, time)
    }
}
