import Foundation

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

    func map<T: Sendable>(_ transform: (Payload) -> T) -> VerificationResult<T> {
        switch self {
        case .verified(let verified):
            return .verified(
                Verified(
                    payload: transform(verified.payload), header: verified.header, chain: verified.chain,
                    validationTime: verified.validationTime))
        case .failed(let failure):
            return .failed(
                VerificationFailure(error: failure.error, unverifiedPayload: failure.unverifiedPayload.map(transform)))
        }
    }
}

/// A payload whose token passed every check. Only ``SignedDataVerifier`` creates one.
public struct Verified<Payload: Sendable>: Sendable {
    /// The decoded payload.
    public let payload: Payload
    /// The token's header.
    public let header: JWSHeader
    /// The certificates that signed the token, leaf first, ending with the trusted root that matched.
    public let chain: [CertificateInfo]
    /// The time at which the chain was validated.
    public let validationTime: Date

    init(payload: Payload, header: JWSHeader, chain: [CertificateInfo], validationTime: Date) {
        self.payload = payload
        self.header = header
        self.chain = chain
        self.validationTime = validationTime
    }
}

/// Why a token was not verified, with what could be decoded of it.
public struct VerificationFailure<Payload: Sendable>: Error, Sendable {
    /// The failed check and its code.
    public let error: VerificationError
    /// The payload as decoded, when decoding got that far.
    ///
    /// - Warning: Unverified data. Never grant anything on it.
    public let unverifiedPayload: Payload?

    init(error: VerificationError, unverifiedPayload: Payload?) {
        self.error = error
        self.unverifiedPayload = unverifiedPayload
    }
}
