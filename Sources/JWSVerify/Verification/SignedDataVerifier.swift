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
    public let environment: Environment?
    /// Whether OCSP revocation checks run (and validation happens at the current time).
    public let enableOnlineChecks: Bool
    /// The largest token accepted, in bytes.
    public let maximumTokenBytes: Int
    /// When certificates must be valid.
    public let validationTime: ValidationTime

    private let clock: @Sendable () -> Date
    private let chainValidator: ChainValidator?
    private let chainCache: ChainCache
    private let xcodeCertificate: Certificate?
    private let revocationChecker: RevocationChecker?
    let expectations: ClaimExpectations

    /// Creates a verifier.
    ///
    /// - Parameters:
    ///   - rootCertificates: DER (or PEM) trusted roots; the default is Apple Root CA - G3
    ///     (``AppleRootCertificate/rootCAG3``). `x5c[2]` of a token is never trusted by itself.
    ///   - bundleId: The app's bundle id. Pass nil only to inspect tokens of unknown origin: the
    ///     bundle id check is then skipped.
    ///   - appAppleId: The app's Apple id; required when `environment` is Production.
    ///   - environment: The environment tokens must come from, or nil to accept any (inspection only).
    ///     For ``Environment/xcode`` pass `xcodeCertificate`.
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
        environment: Environment?,
        xcodeCertificate: Data? = nil,
        enableOnlineChecks: Bool = false,
        revocationTimeout: Duration = .seconds(5),
        validationTime: ValidationTime = .signedDate,
        maximumTokenBytes: Int = CompactJWS.defaultMaximumBytes,
        chainCacheCapacity: Int = 64,
        clock: @escaping @Sendable () -> Date = { Date() }
    ) throws(VerificationError) {
        func configurationError(_ message: String) -> VerificationError {
            VerificationError(.invalidConfiguration, check: .configuration, message)
        }
        if environment == .production && appAppleId == nil {
            throw configurationError("appAppleId is required when the environment is Production")
        }
        if environment == .localTesting {
            throw configurationError(
                "LocalTesting tokens are not signed by Apple and cannot be verified; decode them with"
                    + " SignedDataVerifier.decodeUnverified(_:as:)")
        }
        if enableOnlineChecks && environment == .xcode {
            throw configurationError(
                "online checks do not apply to Xcode tokens: nobody revokes a StoreKit Testing certificate")
        }
        if environment == .xcode {
            guard let xcodeCertificate else {
                throw configurationError(
                    "environment Xcode needs the StoreKit Testing certificate: in Xcode, open the .storekit"
                        + " configuration, choose Editor > Save Public Certificate, and pass that file")
            }
            guard let certificate = Certificate(derOrPEM: Array(xcodeCertificate)), certificate.publicKey != nil else {
                throw configurationError("the Xcode certificate is not a DER or PEM X.509 certificate with a key")
            }
            self.xcodeCertificate = certificate
            self.chainValidator = nil
        } else {
            var roots: [Certificate] = []
            for (index, data) in rootCertificates.enumerated() {
                guard let root = Certificate(derOrPEM: Array(data)) else {
                    throw configurationError("root certificate \(index) is not a DER or PEM X.509 certificate")
                }
                roots.append(root)
            }
            guard !roots.isEmpty else { throw configurationError("no root certificate was given") }
            guard let store = TrustStore(roots: roots) else {
                throw configurationError(
                    "OpenSSL could not build a trust store (a root whose extensions OpenSSL finds invalid, or whose"
                        + " key it cannot read, cannot be one): \(drainOpenSSLErrors())")
            }
            self.xcodeCertificate = nil
            self.chainValidator = ChainValidator(
                trustStore: store, intermediates: IntermediateCache(capacity: chainCacheCapacity > 0 ? 16 : 0))
        }
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
        self.expectations = ClaimExpectations(bundleId: bundleId, appAppleId: appAppleId, environment: environment)
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
        verifyNestedTokens(of: verify(token, as: ResponseBodyV2DecodedPayload.self), if: verifyingNestedTokens)
    }

    /// The notification of `outer`, with its nested tokens verified when asked and the outer token verified.
    private func verifyNestedTokens(
        of outer: VerificationResult<ResponseBodyV2DecodedPayload>, if verifyingNestedTokens: Bool
    ) -> VerificationResult<DecodedNotification> {
        guard let notification = outer.unverifiedPayload else {
            return outer.map { DecodedNotification(notification: $0) }
        }
        guard verifyingNestedTokens, outer.isVerified else {
            return outer.map { DecodedNotification(notification: $0) }
        }
        var decoded = DecodedNotification(notification: notification)
        var firstError: VerificationError?
        func note<P>(_ result: VerificationResult<P>, field: String) -> P? {
            if let error = result.error, firstError == nil {
                firstError = VerificationError(
                    error.code, check: error.check, "nested \(field): \(error.message)", underlying: error.underlying,
                    step: .nestedTokens)
            }
            return result.unverifiedPayload
        }
        if let nested = notification.data?.signedTransactionInfo {
            decoded.transaction = note(verifyAndDecodeTransaction(nested), field: "signedTransactionInfo")
        }
        if let nested = notification.data?.signedRenewalInfo {
            decoded.renewalInfo = note(verifyAndDecodeRenewalInfo(nested), field: "signedRenewalInfo")
        }
        if let nested = notification.appData?.signedAppTransactionInfo {
            decoded.appTransaction = note(verifyAndDecodeAppTransaction(nested), field: "signedAppTransactionInfo")
        }
        if let firstError {
            return .failed(VerificationFailure(error: firstError, unverifiedPayload: decoded))
        }
        return outer.map { _ in decoded }
    }

    /// Verifies a token of any kind: the given one, or the one its payload's keys reveal.
    ///
    /// - Parameters:
    ///   - token: The token.
    ///   - kind: The expected kind, or nil to recognize it from the payload (see ``PayloadKind/recognize(token:)``).
    public func verifyAndDecode(_ token: String, as kind: PayloadKind?) -> VerificationResult<DecodedPayload> {
        var token = token
        return token.withUTF8 { bytes in
            // The token is parsed once: the kind is recognized from the same payload tree that is verified.
            let parsed: ParsedToken
            switch parse(bytes) {
            case .success(let value): parsed = value
            case .failure(let error): return .failed(VerificationFailure(error: error, unverifiedPayload: nil))
            }
            guard let kind = kind ?? PayloadKind.recognize(payload: parsed.payloadObject.keys) else {
                // Run the checks up to the payload so that the first real failure is reported.
                let probe = verify(parsed, as: JWSTransactionDecodedPayload.self)
                if let error = probe.error, error.check != .payload, error.check != .claims {
                    return .failed(VerificationFailure(error: error, unverifiedPayload: nil))
                }
                return .failed(
                    VerificationFailure(
                        error: VerificationError(
                            .payloadDecodingFailed, check: .payload,
                            "the payload is not recognizably any App Store kind; name the kind to verify it as"),
                        unverifiedPayload: nil))
            }
            switch kind {
            case .transaction:
                return verify(parsed, as: JWSTransactionDecodedPayload.self).map(DecodedPayload.transaction)
            case .renewalInfo:
                return verify(parsed, as: JWSRenewalInfoDecodedPayload.self).map(DecodedPayload.renewalInfo)
            case .appTransaction:
                return verify(parsed, as: AppTransaction.self).map(DecodedPayload.appTransaction)
            case .notification:
                return verifyNestedTokens(of: verify(parsed, as: ResponseBodyV2DecodedPayload.self), if: true)
                    .map(DecodedPayload.notification)
            case .realtimeRequest:
                return verify(parsed, as: DecodedRealtimeRequestBody.self).map(DecodedPayload.realtimeRequest)
            }
        }
    }

    /// Chain cache hits, misses and size, for tests and benchmarks.
    package var chainCacheStatistics: (hits: Int, misses: Int, count: Int) { chainCache.statistics }
    /// Cached chains whose leaf key has its fixed-base table: hot keys, after
    /// `PublicKey.fixedBaseThreshold` valid signatures (for tests and benchmarks).
    package var cachedLeafKeysWithFixedBaseTable: Int { chainCache.leafKeysWithFixedBaseTable }

    /// Intermediate cache hits and size, for tests and benchmarks.
    package var intermediateCacheStatistics: (hits: Int, count: Int) {
        chainValidator?.intermediates.statistics ?? (0, 0)
    }

    /// How many cached intermediates check new leaves with their key's fixed-base table (tests and
    /// benchmarks: proof that a hot intermediate gets one).
    package var cachedIntermediateKeysWithFixedBaseTable: Int {
        chainValidator?.intermediates.keysWithFixedBaseTable ?? 0
    }

    // MARK: - The contract

    func verify<P: AppStorePayload>(_ token: String, as type: P.Type) -> VerificationResult<P> {
        var token = token
        return token.withUTF8 { verify(utf8: $0, as: P.self) }
    }

    private func verify<P: AppStorePayload>(
        utf8 bytes: UnsafeBufferPointer<UInt8>, as type: P.Type
    ) -> VerificationResult<P> {
        switch parse(bytes) {
        case .success(let parsed): return verify(parsed, as: P.self)
        case .failure(let error): return .failed(VerificationFailure(error: error, unverifiedPayload: nil))
        }
    }

    /// A token taken apart by check 1, with its header, payload tree and signature decoded. Its
    /// segments point into the token's bytes: use it only while they are alive.
    private struct ParsedToken {
        let segments: CompactJWS.Segments
        let cacheKey: ChainCache.Key
        /// The chain cache's entry for this header's exact bytes, when it has one.
        let cached: ChainCache.Entry?
        let header: JWSHeader
        let payloadObject: [String: JSONValue]
        let signature: [UInt8]
    }

    /// Check 1 (format) and the decoding of the three segments. A header whose exact bytes carried a
    /// chain that verified before is known to be well-formed: its decoded form and its chain come from
    /// the cache, keyed by those bytes.
    private func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> Result<ParsedToken, VerificationError> {
        do throws(VerificationError) {
            let segments = try CompactJWS.Segments(bytes, maximumBytes: maximumTokenBytes)
            let cacheKey = ChainCache.Key(segments.header)
            let cached = chainCache.entry(for: cacheKey)
            let header: JWSHeader
            if let cached {
                header = cached.header
            } else {
                header = try CompactJWS.decodeHeader(segments.header).1
            }
            let payloadObject = try CompactJWS.decodePayload(segments.payload).1
            let signature = try CompactJWS.decodeSignature(segments.signature)
            return .success(
                ParsedToken(
                    segments: segments, cacheKey: cacheKey, cached: cached, header: header,
                    payloadObject: payloadObject, signature: signature))
        } catch {
            return .failure(error)
        }
    }

    /// Checks 2 to 13 on a parsed token, decoding its payload as `P`.
    private func verify<P: AppStorePayload>(_ parsed: ParsedToken, as type: P.Type) -> VerificationResult<P> {
        let segments = parsed.segments
        let cacheKey = parsed.cacheKey
        let cached = parsed.cached
        let header = parsed.header
        let payloadObject = parsed.payloadObject
        let signature = parsed.signature
        // 2–4. Header (a cached header passed these checks). Before the payload model is built: a
        // forged header costs no more than its own decoding.
        if cached == nil, let error = Self.checkHeader(header, expectingXcode: xcodeCertificate != nil) {
            return .failed(VerificationFailure(error: error, unverifiedPayload: nil))
        }

        // The payload is decoded once, here, because the validation time comes from it; a decoding
        // failure is reported at its place in the order (check 12), after the signature.
        let decoded = Self.decodePayload(payloadObject, as: P.self)
        let payload = try? decoded.get()
        func fail(_ error: VerificationError) -> VerificationResult<P> {
            .failed(VerificationFailure(error: error, unverifiedPayload: payload))
        }

        // 5–9. Chain.
        let timestamp = payload.map(\.validationTimestamp) ?? Self.probeTimestamp(payloadObject, kind: P.kind)
        let validationTime = validationSeconds(for: timestamp)
        let chain: ValidatedChain
        let fromCache: Bool
        if let cached, chainCache.isUsable(cached, at: validationTime) {
            chain = cached.chain
            fromCache = true
        } else {
            switch validateChain(header.x5c ?? [], at: validationTime) {
            case .success(let value): chain = value
            case .failure(let error): return fail(error)
            }
            fromCache = false
        }

        // 10. Signature, over the token's own bytes.
        guard signature.count == 64 else {
            return fail(
                VerificationError(
                    .invalidSignature, check: .signature,
                    "an ES256 signature is 64 bytes of R‖S (RFC 7518 §3.4), this one is \(signature.count) bytes"
                        + (signature.first == 0x30 ? " and looks like DER" : "")))
        }
        OperationCounters.countES256()
        guard chain.leafKey.isValidES256Signature(signature, for: segments.signingInput) else {
            return fail(
                VerificationError(
                    .invalidSignature, check: .signature, "the ES256 signature does not verify with the leaf key"))
        }
        // Only now, with the token signed by the chain's leaf key, may the chain be remembered: tokens
        // that copy a real chain but are not signed by its key never change what the caches hold.
        if !fromCache, chain.isRememberable {
            chainCache.insert(ChainCache.Entry(header: header, chain: chain), for: cacheKey)
            chainValidator?.remember(chain, for: header.x5c ?? [])
        }

        // 11. Revocation (online checks only).
        if let revocationChecker, let error = revocationChecker.check(chain.chain) {
            return fail(error)
        }

        // 12. Payload.
        let verifiedPayload: P
        switch decoded {
        case .success(let value): verifiedPayload = value
        case .failure(let error): return fail(error)
        }
        if let other = PayloadKind.recognize(keys: verifiedPayload.unmodeledKeys), other != P.kind {
            return fail(
                VerificationError(
                    .payloadDecodingFailed, check: .payload,
                    "this token is a \(other), not a \(P.kind): use \(other.methodName) instead of \(P.kind.methodName)"
                ))
        }

        // 13. Claims.
        if let error = expectations.check(verifiedPayload.claims) {
            return fail(error)
        }
        return .verified(
            Verified(
                payload: verifiedPayload, header: header, chain: chain.certificates,
                validationTime: Date(timeIntervalSince1970: TimeInterval(validationTime))))
    }

    private static func checkHeader(_ header: JWSHeader, expectingXcode: Bool) -> VerificationError? {
        guard header.alg == "ES256" else {
            let found = header.alg.map { "\"\($0)\"" } ?? header.additionalMembers["alg"].map { "\($0)" } ?? "absent"
            return VerificationError(
                .unsupportedAlgorithm, check: .header,
                "alg is \(found); App Store tokens are signed with exactly \"ES256\"")
        }
        if header.crit != nil {
            return VerificationError(
                .unsupportedAlgorithm, check: .header,
                "the header has a crit member (RFC 7515 §4.1.11); no extension is understood, so the token is rejected")
        }
        guard let x5c = header.x5c else {
            return VerificationError(
                .missingCertificateChain, check: .header,
                header.additionalMembers["x5c"] != nil
                    ? "x5c is not an array of strings" : "the header has no x5c certificate chain")
        }
        let expected = expectingXcode ? 1 : 3
        guard x5c.count == expected else {
            var message = "x5c holds \(x5c.count) certificate\(x5c.count == 1 ? "" : "s"), expected \(expected)"
            if expectingXcode {
                message += " (a StoreKit Testing token carries one self-signed certificate)"
            } else {
                message += " (leaf, intermediate, root)"
                if x5c.count == 1 && header.kid == "Apple_Xcode_Key" {
                    message +=
                        "; this is an Xcode StoreKit Testing token: configure environment Xcode with the"
                        + " certificate exported from Xcode"
                }
            }
            return VerificationError(.invalidChainLength, check: .header, message)
        }
        return nil
    }

    private func validateChain(_ x5c: [String], at time: Int64) -> Result<ValidatedChain, VerificationError> {
        if let xcodeCertificate {
            return Self.validateXcode(x5c[0], pinned: xcodeCertificate)
        }
        guard let chainValidator else {
            return .failure(VerificationError(.invalidConfiguration, check: .configuration, "no trust store"))
        }
        return chainValidator.validate(x5c, at: time)
    }

    /// An Xcode token's single certificate must be the pinned one, byte for byte. Its validity dates
    /// are not enforced, as Xcode does not enforce them either.
    private static func validateXcode(_ entry: String, pinned: Certificate) -> Result<ValidatedChain, VerificationError>
    {
        guard let der = Base64.decodeStandard(entry), Certificate(der: der) != nil else {
            return .failure(
                VerificationError(
                    .invalidCertificate, check: .chain, "x5c[0] is not standard base64 of one DER X.509 certificate",
                    underlying: drainOpenSSLErrors()))
        }
        guard der == pinned.der else {
            return .failure(
                VerificationError(
                    .untrustedChain, check: .chain,
                    "x5c[0] is not the pinned StoreKit Testing certificate (SHA-256 \(SHA256.hash(der).hexString),"
                        + " pinned \(pinned.sha256Fingerprint.hexString))"))
        }
        guard let key = pinned.publicKey, key.curve == .p256, key.isValidP256Point else {
            return .failure(
                VerificationError(
                    .unsupportedKey, check: .chain, "the StoreKit Testing certificate's key is not EC P-256"))
        }
        return .success(
            ValidatedChain(
                leafKey: key, validity: .always, certificates: [CertificateInfo(pinned)], chain: [],
                isRememberable: true, intermediateEntry: nil))
    }

    private func validationSeconds(for timestamp: Timestamp?) -> Int64 {
        func seconds(_ date: Date) -> Int64 {
            let value = date.timeIntervalSince1970
            return value.isFinite && abs(value) < 1e14 ? Int64(value.rounded(.down)) : 0
        }
        switch validationTime {
        case .fixed(let date): return seconds(date)
        case .current: return seconds(clock())
        case .signedDate:
            // Online checks validate at the current time, as Apple's library does.
            if !enableOnlineChecks, let milliseconds = timestamp?.millisecondsSince1970, milliseconds.isFinite,
                abs(milliseconds) < 1e17
            {
                return Int64((milliseconds / 1000).rounded(.down))
            }
            return seconds(clock())
        }
    }

    private static func decodePayload<P: AppStorePayload>(
        _ object: [String: JSONValue], as type: P.Type
    ) -> Result<P, VerificationError> {
        if let missing = P.requiredKeys.first(where: { object[$0] == nil || object[$0] == .null }) {
            return .failure(
                VerificationError(
                    .payloadDecodingFailed, check: .payload,
                    "the payload is not a valid \(P.kind): \(missing) is missing (every \(P.kind) carries it)"))
        }
        do {
            return .success(try P(json: JSONObjectReader(object: object)))
        } catch {
            return .failure(
                VerificationError(
                    .payloadDecodingFailed, check: .payload, "the payload is not a valid \(P.kind): \(describe(error))")
            )
        }
    }

    /// The date to validate at when the payload did not decode as the expected type.
    private static func probeTimestamp(_ object: [String: JSONValue], kind: PayloadKind) -> Timestamp? {
        let value = object[kind == .appTransaction ? "receiptCreationDate" : "signedDate"] ?? .null
        return try? Timestamp(jsonValue: value)
    }

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

/// When the certificates of a token must be valid.
public enum ValidationTime: Sendable, Hashable {
    /// At the payload's `signedDate` (`receiptCreationDate` for an app transaction), as Apple's
    /// library does offline; at the clock's time when the payload has none, or with online checks.
    case signedDate
    /// At the clock's current time.
    case current
    /// At a fixed time (for reproducing a verdict).
    case fixed(Date)
}

/// A notification with its nested tokens decoded (and verified, when the result is verified).
public struct DecodedNotification: Sendable, Hashable {
    /// The notification itself.
    public var notification: ResponseBodyV2DecodedPayload
    /// `data.signedTransactionInfo`, decoded.
    public var transaction: JWSTransactionDecodedPayload?
    /// `data.signedRenewalInfo`, decoded.
    public var renewalInfo: JWSRenewalInfoDecodedPayload?
    /// `appData.signedAppTransactionInfo`, decoded.
    public var appTransaction: AppTransaction?

    /// Creates a value.
    public init(
        notification: ResponseBodyV2DecodedPayload, transaction: JWSTransactionDecodedPayload? = nil,
        renewalInfo: JWSRenewalInfoDecodedPayload? = nil, appTransaction: AppTransaction? = nil
    ) {
        self.notification = notification
        self.transaction = transaction
        self.renewalInfo = renewalInfo
        self.appTransaction = appTransaction
    }
}
