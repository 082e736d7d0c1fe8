import Foundation
import Synchronization

/// The outcome of verifying one token: verified, with its typed payload, or not, with the reason.
///
/// Verification returns a value rather than throwing, so the reason is never lost. Pattern match:
/// ```swift
/// switch verifier.verifyAndDecodeTransaction(token) {
/// case .verified(let verified):
///     grant(verified.payload)
/// case .failed(let failure):
///     log(failure.error.code, failure.error.message)
/// }
/// ```
public enum VerificationResult<Payload: Sendable>: Sendable {
    /// Every check passed.
    case verified(Verified<Payload>)
    /// A check failed; ``VerificationFailure/error`` says which.
    case failed(VerificationFailure<Payload>)

    /// The verified payload, or nil when verification failed.
    public var payload: Payload? {
        if case .verified(let verified) = self { return verified.payload }
        return nil
    }

    /// The failure, or nil when verified.
    public var error: VerificationError? {
        if case .failed(let failure) = self { return failure.error }
        return nil
    }

    /// Whether every check passed.
    public var isVerified: Bool {
        if case .verified = self { return true }
        return false
    }

    /// The verified payload.
    ///
    /// - Throws: the ``VerificationError`` when verification failed.
    public func get() throws(VerificationError) -> Payload {
        switch self {
        case .verified(let verified): return verified.payload
        case .failed(let failure): throw failure.error
        }
    }

    /// The payload as decoded, whether or not the token verified.
    ///
    /// - Warning: Unverified data: anybody can make a token with any payload. Use it for logging and
    ///   debugging only, never to grant anything.
    public var unverifiedPayload: Payload? {
        switch self {
        case .verified(let verified): return verified.payload
        case .failed(let failure): return failure.unverifiedPayload
        }
    }

    /// Every check of this verification with its outcome, recorded while the checks ran.
    public var report: VerificationReport {
        switch self {
        case .verified(let verified): return verified.report
        case .failed(let failure): return failure.report
        }
    }

    /// The tokens nested in a notification, each with its own verification (empty for other kinds,
    /// and when the notification itself failed: its nested tokens are then not verified).
    public var nestedTokens: [NestedToken] {
        switch self {
        case .verified(let verified): return verified.nestedTokens
        case .failed(let failure): return failure.nestedTokens
        }
    }

    /// The result with its payload transformed; consumed, so that its parts move into the new result instead of
    /// being copied (`batch` maps every token's result to a ``DecodedPayload``).
    consuming func map<T: Sendable>(_ transform: @escaping @Sendable (Payload) -> T) -> VerificationResult<T> {
        switch consume self {
        case .verified(let verified):
            return .verified(
                Verified(
                    payload: transform(verified.payload), evidence: verified.evidence,
                    validationTime: verified.validationTime, environment: verified.environment,
                    recorded: verified.recorded, nestedTokens: verified.nestedTokens,
                    payloadObject: verified.payloadObject, payloadJSON: verified.payloadJSON))
        case .failed(let failure):
            return .failed(failure.map(transform))
        }
    }
}

/// A payload whose token or receipt passed every check. Only ``SignedDataVerifier`` and
/// ``AppReceiptVerifier`` create one.
public struct Verified<Payload: Sendable>: Sendable {
    /// The decoded payload.
    ///
    /// Set only inside this module, to move a payload out of a result it consumes without copying it.
    public internal(set) var payload: Payload
    /// What the signed data was verified with: the token's JWS header or the receipt's CMS signer, and
    /// the chain that signed it.
    public let evidence: SignatureEvidence
    /// The token's header.
    ///
    /// For an app receipt, which has no header, it is empty: read ``evidence`` (its CMS signer) instead.
    public var header: JWSHeader { evidence.header ?? JWSHeader() }
    /// The certificates that signed the token, leaf first, ending with the trusted root that matched
    /// (for an app receipt: its signer, the intermediate and the root), as in ``evidence``.
    public var chain: [CertificateInfo] { evidence.chain }
    /// The time at which the chain was validated.
    public let validationTime: Date
    /// The environment the payload comes from, as the claims check accepted it: for a verifier
    /// configured with `[.production, .sandbox]`, which of the two the token names. With no
    /// environment configured, what the payload says (unchecked).
    public let environment: AppStoreEnvironment?
    /// Every check with its outcome.
    public var report: VerificationReport { recorded.report }
    /// The steps as the checks recorded them (the report is made from them when asked for).
    let recorded: ReportRecorder
    /// Whether ``validationTime`` is the current time because the payload carries no signed date
    /// (``ValidationTime/signedDate`` without online checks): the CLI says so, and how to pick a time.
    package var validatedWithoutSignedDate: Bool { recorded.validatedWithoutSignedDate }
    /// A notification's nested tokens, each verified (empty for other kinds).
    public let nestedTokens: [NestedToken]
    /// The payload's JSON tree as check 1 parsed it, the same members ``payload`` decoded from: the CLI
    /// renders it without rebuilding a tree from the model.
    package let payloadObject: [String: JSONValue]
    /// The payload's JSON bytes exactly as in the token (check 1 parsed them strictly): the CLI copies
    /// them into its compact lines without building a tree.
    package let payloadJSON: [UInt8]

    init(
        payload: Payload, evidence: SignatureEvidence, validationTime: Date,
        environment: AppStoreEnvironment?, recorded: ReportRecorder, nestedTokens: [NestedToken] = [],
        payloadObject: [String: JSONValue] = [:], payloadJSON: [UInt8] = []
    ) {
        self.payloadObject = payloadObject
        self.payloadJSON = payloadJSON
        self.payload = payload
        self.evidence = evidence
        self.validationTime = validationTime
        self.environment = environment
        self.recorded = recorded
        self.nestedTokens = nestedTokens
    }
}

extension VerificationFailure: LocalizedError {
    /// The message of ``error``: what `failure.localizedDescription` returns.
    public var errorDescription: String? { error.message }
}

extension Verified where Payload == AppReceipt {
    /// An empty header: an app receipt has none.
    @available(*, deprecated, message: "an app receipt has no JWS header: read evidence.signer, its CMS signer")
    public var header: JWSHeader { JWSHeader() }
}

/// Why a token was not verified, with what could be decoded of it.
public struct VerificationFailure<Payload: Sendable>: Error, Sendable {
    /// The failed check and its code.
    public let error: VerificationError
    /// Every check with its outcome: the failed one, and which did not run.
    public var report: VerificationReport { recorded.report }
    /// The steps as the checks recorded them (the report is made from them when asked for).
    let recorded: ReportRecorder
    /// A notification's nested tokens, each with its own verification, when they were verified: a
    /// notification whose own checks passed but one of whose nested tokens failed.
    public let nestedTokens: [NestedToken]

    /// The time the token's certificates were checked at (the ``Verified/validationTime`` a verified
    /// token would carry: its signed date, the current time or a fixed one), when the checks reached
    /// the certificates; nil for a token refused by checks 1 to 4, which never got there.
    package var validationTime: Date? {
        let order = recorded.order
        guard let seconds = recorded.validationTime, let step = error.step,
            let failed = order.firstIndex(of: step), let first = order.firstIndex(of: .certificates), failed >= first
        else { return nil }
        return Date(timeIntervalSince1970: TimeInterval(seconds))
    }

    /// The chain that passed checks 5 to 9 (leaf first, ending in the trusted root that matched, as
    /// ``Verified/chain``), when the failure came after them: a bad signature, a revoked certificate, a
    /// payload or claims failure, a nested token's failure. Nil when the chain itself was not validated.
    package var validatedChain: [CertificateInfo]? { recorded.validatedChain }

    /// Whether ``validationTime`` is the current time because the payload carries no signed date
    /// (``ValidationTime/signedDate`` without online checks).
    package var validatedWithoutSignedDate: Bool { validationTime != nil && recorded.validatedWithoutSignedDate }

    /// The kind the token was checked as (the one asked for, or the one its payload's keys show);
    /// nil when the token did not get past the format check or its kind was not recognized, and for
    /// an app receipt (``AppReceiptVerifier``), which is not a token.
    public let kind: PayloadKind?
    /// The header as the token states it, when the token got past the format check.
    ///
    /// - Warning: Unverified data.
    public let unverifiedHeader: JWSHeader?
    private let payloadSource: UnverifiedPayload<Payload>
    private let payloadBytes: [UInt8]?

    /// The payload as decoded, when the token got past the header checks (checks 2–4: a forged
    /// header carries none) and its payload decodes as the kind asked for (or recognized); decoded
    /// on first use when the failure came before the payload check.
    ///
    /// - Warning: Unverified data. Never grant anything on it.
    public var unverifiedPayload: Payload? { error.check == .header ? nil : payloadSource.value }

    /// The payload as the token claims it, whatever check failed (a forged header's too), decoded on
    /// first use from the same parse: for display only (the CLI shows what a refused token claims).
    package var claimedPayload: Payload? { payloadSource.value }

    /// The payload's JSON exactly as in the token, when the token got past the format check.
    ///
    /// - Warning: Unverified data.
    public var unverifiedPayloadJSON: Data? { payloadBytes.map { Data($0) } }

    /// The payload's JSON bytes exactly as in the token, without a copy into `Data` (the CLI parses
    /// them only for a failure it shows).
    ///
    /// - Warning: Unverified data.
    package var unverifiedPayloadBytes: [UInt8]? { payloadBytes }

    init(
        error: VerificationError, recorded: ReportRecorder, kind: PayloadKind? = nil,
        unverifiedHeader: JWSHeader? = nil,
        payload: UnverifiedPayload<Payload> = .none, payloadBytes: [UInt8]? = nil, nestedTokens: [NestedToken] = []
    ) {
        self.error = error
        self.recorded = recorded
        self.kind = kind
        self.unverifiedHeader = unverifiedHeader
        self.payloadSource = payload
        self.payloadBytes = payloadBytes
        self.nestedTokens = nestedTokens
    }

    func map<T: Sendable>(_ transform: @escaping @Sendable (Payload) -> T) -> VerificationFailure<T> {
        VerificationFailure<T>(
            error: error, recorded: recorded, kind: kind, unverifiedHeader: unverifiedHeader,
            payload: payloadSource.map(transform),
            payloadBytes: payloadBytes, nestedTokens: nestedTokens)
    }
}

/// The unverified payload of a failure: decoded already, to be decoded when first asked for, or none.
struct UnverifiedPayload<Payload: Sendable>: Sendable {
    private let decoded: Payload?
    private let later: Later?

    /// A decoding run once, on first use, and remembered (a failure may be read many times).
    private final class Later: Sendable {
        private let decode: @Sendable () -> Payload?
        private let value = Mutex<Payload??>(nil)

        init(_ decode: @escaping @Sendable () -> Payload?) { self.decode = decode }

        var payload: Payload? {
            if let known = value.withLock({ $0 }) { return known }
            let payload = decode()
            value.withLock { $0 = .some(payload) }
            return payload
        }
    }

    private init(decoded: Payload?, later: Later?) {
        self.decoded = decoded
        self.later = later
    }

    /// No payload.
    static var none: UnverifiedPayload { UnverifiedPayload(decoded: nil, later: nil) }
    /// A payload decoded already.
    static func decoded(_ payload: Payload?) -> UnverifiedPayload { UnverifiedPayload(decoded: payload, later: nil) }
    /// Decoded from the parsed JSON tree on first use: a failure before check 12 costs no model decoding.
    static func later(_ decode: @escaping @Sendable () -> Payload?) -> UnverifiedPayload {
        UnverifiedPayload(decoded: nil, later: Later(decode))
    }

    var value: Payload? { decoded ?? later?.payload }

    func map<T: Sendable>(_ transform: @escaping @Sendable (Payload) -> T) -> UnverifiedPayload<T> {
        if let later { return .later { later.payload.map(transform) } }
        return .decoded(decoded.map(transform))
    }
}

extension UnverifiedPayload where Payload: AppStorePayload {
    /// The payload of a failure before check 12: decoded from the parsed `object` on first use
    /// (``VerificationFailure/unverifiedPayload`` shows none after a forged header: checks 2–4 refuse
    /// it before anything of the payload is decoded).
    static func decodingLater(_ object: [String: JSONValue]) -> Self {
        .later { try? PayloadCheck.decode(object, as: Payload.self).get() }
    }
}

/// A token nested in a notification (`data.signedTransactionInfo`, ...), with its own verification.
public struct NestedToken: Sendable {
    /// The member that holds it: `signedTransactionInfo`, `signedRenewalInfo`, `signedAppTransactionInfo`.
    public let field: String
    /// Its path in the notification's payload: `data.signedTransactionInfo`, ...
    public let path: String
    /// Its kind, from the notification's description of the member.
    public let kind: PayloadKind
    /// Its verification, by the same verifier, as if passed to ``SignedDataVerifier/verifyAndDecode(_:as:)``
    /// with ``kind``.
    public let result: VerificationResult<DecodedPayload>
}
