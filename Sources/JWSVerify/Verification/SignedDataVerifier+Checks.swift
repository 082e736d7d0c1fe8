import Foundation

/// The verification contract, in order: every public method, synchronous or not, goes through
/// ``parse(utf8:then:)`` (check 1) and ``check(_:as:verifyingNestedTokens:claims:recorder:)`` (checks
/// 2 to 13 and the nested tokens), each check in its own file under `Checks/`. Check 11 may wait
/// for the network: the checks after it run once its verdict is in (``VerificationStage``).
extension SignedDataVerifier {
    /// The verification of `token` as `P`, finished or waiting for OCSP (``VerificationStage``).
    func verification<P: AppStorePayload>(
        of token: String, as type: P.Type, verifyingNestedTokens: Bool = true
    ) -> VerificationStage<VerificationResult<P>> {
        parse(token) { parsed, recorder in
            check(parsed, as: P.self, verifyingNestedTokens: verifyingNestedTokens, claims: claims, recorder: recorder)
        }
    }

    /// A notification's verification, with its nested tokens' payloads.
    func notificationVerification(
        of token: String, verifyingNestedTokens: Bool
    ) -> VerificationStage<VerificationResult<DecodedNotification>> {
        verification(of: token, as: ResponseBodyV2DecodedPayload.self, verifyingNestedTokens: verifyingNestedTokens)
            .map { result in
                let nested = result.nestedTokens
                return result.map { DecodedNotification(notification: $0, nested: nested) }
            }
    }

    /// The verification of a token of `kind` (or of the kind its payload reveals), under `claims`.
    func verification(
        of token: String, as kind: PayloadKind?, claims: ClaimsCheck
    ) -> VerificationStage<VerificationResult<DecodedPayload>> {
        verification(ofUTF8: Array(token.utf8), as: kind, claims: claims)
    }

    /// ``verification(of:as:claims:)`` of a token given as its UTF-8 bytes.
    func verification(
        ofUTF8 token: [UInt8], as kind: PayloadKind?, claims: ClaimsCheck
    ) -> VerificationStage<VerificationResult<DecodedPayload>> {
        // The token is parsed once: the kind is recognized from the same payload tree that is verified.
        parse(utf8: token) { parsed, recorder in
            guard let kind = kind ?? PayloadKind.recognize(payload: parsed.payloadObject.keys) else {
                return checkUnrecognized(parsed, recorder: recorder)
            }
            return decodedCheck(parsed, as: kind.model, claims: claims, recorder: recorder)
        }
    }

    /// ``check(_:as:verifyingNestedTokens:claims:recorder:)`` for a kind known only at run time, the
    /// payload as a ``DecodedPayload``.
    ///
    /// Called with the kind's model type opened from an existential: the `@_specialize` list (every
    /// ``PayloadKind/model``) lets the generic entry jump to the code compiled for that type, as the
    /// typed methods run, instead of the unspecialized code that looks up generic metadata at each step.
    @_specialize(where P == JWSTransactionDecodedPayload)
    @_specialize(where P == JWSRenewalInfoDecodedPayload)
    @_specialize(where P == AppTransaction)
    @_specialize(where P == ResponseBodyV2DecodedPayload)
    @_specialize(where P == DecodedRealtimeRequestBody)
    private func decodedCheck<P: AppStorePayload>(
        _ parsed: ParsedToken, as type: P.Type, claims: ClaimsCheck, recorder: consuming ReportRecorder
    ) -> VerificationStage<VerificationResult<DecodedPayload>> {
        check(parsed, as: P.self, verifyingNestedTokens: true, claims: claims, recorder: recorder).map { result in
            let nested = result.nestedTokens
            return result.map { $0.decodedPayload(nested: nested) }
        }
    }

    /// ``parse(utf8:then:)`` of a token's text.
    private func parse<Output>(
        _ token: String,
        then next: (ParsedToken, consuming ReportRecorder) -> VerificationStage<VerificationResult<Output>>
    ) -> VerificationStage<VerificationResult<Output>> {
        parse(utf8: Array(token.utf8), then: next)
    }

    /// The entry of every method: check 1 on the token's UTF-8 bytes, then `next` on the parsed token.
    private func parse<Output>(
        utf8 token: [UInt8],
        then next: (ParsedToken, consuming ReportRecorder) -> VerificationStage<VerificationResult<Output>>
    ) -> VerificationStage<VerificationResult<Output>> {
        var recorder = ReportRecorder()
        let parsed: ParsedToken
        do {
            parsed = try FormatCheck.parse(token, maximumBytes: maximumTokenBytes, chainCache: chainCache)
        } catch {
            recorder.failed(error)
            return .finished(.failed(VerificationFailure(error: error, recorded: recorder)))
        }
        recorder.passed(.format, FormatCheck.passed)
        return next(parsed, recorder)
    }

    /// Checks 2 to 13 and the nested tokens, the payload taken as `P`.
    private func check<P: AppStorePayload>(
        _ parsed: ParsedToken, as type: P.Type, verifyingNestedTokens: Bool, claims: ClaimsCheck,
        recorder: consuming ReportRecorder
    ) -> VerificationStage<VerificationResult<P>> {
        let signed: SignedToken
        do throws(VerificationError) {
            signed = try checkSignedToken(parsed, dateKey: P.validationDateKey, recorder: &recorder)
        } catch {
            return .finished(failure(parsed, error, payload: .decodingLater(parsed.payloadObject), recorder: recorder))
        }
        // Check 11 may wait for the network: the checks after it continue once its verdict is in.
        switch RevocationCheck.begin(signed.chain, checker: revocationChecker, recorder: &recorder) {
        case .decided(let answer):
            return checkPayload(
                parsed, as: P.self, signed, revocation: answer, verifyingNestedTokens: verifyingNestedTokens,
                claims: claims, recorder: recorder)
        case .asking(let exchange):
            return .waiting(exchange) { [recorder] answer in
                var recorder = recorder
                RevocationCheck.answered(answer, recorder: &recorder)
                return checkPayload(
                    parsed, as: P.self, signed, revocation: answer, verifyingNestedTokens: verifyingNestedTokens,
                    claims: claims, recorder: recorder)
            }
        }
    }

    /// Check 11's verdict (recorded when it passed), then checks 12 and 13 and the nested tokens.
    private func checkPayload<P: AppStorePayload>(
        _ parsed: ParsedToken, as type: P.Type, _ signed: SignedToken, revocation: VerificationError?,
        verifyingNestedTokens: Bool, claims: ClaimsCheck, recorder: consuming ReportRecorder
    ) -> VerificationStage<VerificationResult<P>> {
        let payload: P
        do throws(VerificationError) {
            if let revocation { throw revocation }
            payload = try PayloadCheck.check(PayloadCheck.decode(parsed.payloadObject, as: P.self), recorder: &recorder)
        } catch {
            return .finished(failure(parsed, error, payload: .decodingLater(parsed.payloadObject), recorder: recorder))
        }
        let environment: AppStoreEnvironment?
        do throws(VerificationError) {
            environment = try claims.check(payload.claims, recorder: &recorder)
            recorder.skipped(.deviceHash, "tokens are not bound to a device (app receipts are)")
        } catch {
            return .finished(failure(parsed, error, payload: .decoded(payload), recorder: recorder))
        }
        func verified(_ nested: [NestedToken], _ recorder: ReportRecorder) -> VerificationResult<P> {
            .verified(
                Verified(
                    payload: payload, evidence: .jws(parsed.header, chain: signed.chain.certificates),
                    validationTime: Date(timeIntervalSince1970: TimeInterval(signed.time)), environment: environment,
                    recorded: recorder, nestedTokens: nested, payloadObject: parsed.payloadObject,
                    payloadJSON: parsed.payloadJSON))
        }
        let present = NestedTokensCheck.tokens(in: payload, verifying: verifyingNestedTokens, recorder: &recorder)
        if present.isEmpty { return .finished(verified([], recorder)) }
        let nestedClaims = claims.nested(in: environment)
        return NestedTokensCheck.verify(present, recorder: recorder) { token, kind in
            verification(of: token, as: kind, claims: nestedClaims)
        }.map { outcome in
            guard let error = outcome.error else { return verified(outcome.nested, outcome.recorder) }
            return failure(
                parsed, error, payload: .decoded(payload), recorder: outcome.recorder, nestedTokens: outcome.nested)
        }
    }

    /// A failure of `error`, recorded, with what the parse and the checks so far learned.
    private func failure<P: AppStorePayload>(
        _ parsed: ParsedToken, _ error: VerificationError, payload: UnverifiedPayload<P>,
        recorder: consuming ReportRecorder, nestedTokens: [NestedToken] = []
    ) -> VerificationResult<P> {
        recorder.failed(error)
        return .failed(
            VerificationFailure(
                error: error, recorded: recorder, kind: P.kind, unverifiedHeader: parsed.header, payload: payload,
                payloadBytes: parsed.payloadJSON, nestedTokens: nestedTokens))
    }

    /// A payload of no recognizable kind: checks 2 to 11 so that the first real failure is reported,
    /// then check 12 fails.
    private func checkUnrecognized(
        _ parsed: ParsedToken, recorder: consuming ReportRecorder
    ) -> VerificationStage<VerificationResult<DecodedPayload>> {
        func failed(
            _ error: VerificationError?, _ recorder: consuming ReportRecorder
        ) -> VerificationResult<DecodedPayload> {
            let error = error ?? PayloadCheck.unrecognized
            recorder.failed(error)
            return .failed(
                VerificationFailure(
                    error: error, recorded: recorder, unverifiedHeader: parsed.header, payloadBytes: parsed.payloadJSON
                ))
        }
        let signed: SignedToken
        do throws(VerificationError) {
            signed = try checkSignedToken(parsed, dateKey: ValidationTime.signedDateKey, recorder: &recorder)
        } catch {
            return .finished(failed(error, recorder))
        }
        switch RevocationCheck.begin(signed.chain, checker: revocationChecker, recorder: &recorder) {
        case .decided(let answer):
            return .finished(failed(answer, recorder))
        case .asking(let exchange):
            return .waiting(exchange) { [recorder] answer in
                var recorder = recorder
                RevocationCheck.answered(answer, recorder: &recorder)
                return .finished(failed(answer, recorder))
            }
        }
    }

    /// A token whose checks 2 to 10 passed: its chain and validation time.
    private struct SignedToken {
        let chain: ValidatedChain
        let time: Int64
    }

    /// Checks 2 to 10: header, chain (from the chain cache when it holds this header's chain for the
    /// validation time), signature. A chain is remembered only once the token's signature verified
    /// with its leaf key, so tokens that copy a real chain never change what the caches hold.
    private func checkSignedToken(
        _ parsed: ParsedToken, dateKey: String, recorder: inout ReportRecorder
    ) throws(VerificationError) -> SignedToken {
        let (time, withoutSignedDate) = validationTime.seconds(
            payload: parsed.payloadObject, dateKey: dateKey, online: enableOnlineChecks, clock: clock)
        recorder.validationTime = time
        recorder.validatedWithoutSignedDate = withoutSignedDate
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
        recorder.validatedChain = chain.certificates
        try SignatureCheck.check(parsed, key: chain.leafKey, recorder: &recorder)
        if !remembered, chain.isRememberable, let key = parsed.cacheKey {
            let entry = ChainCache.Entry(
                header: parsed.header, chain: chain,
                headerSteps: recorder.recorded(from: .algorithm, through: .chainLength),
                chainSteps: recorder.recorded(from: .certificates, through: .leafKey))
            chainCache.insert(entry, for: key)
            anchor.remember(chain, for: x5c)
        }
        return SignedToken(chain: chain, time: time)
    }
}
