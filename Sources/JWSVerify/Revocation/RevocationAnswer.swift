import Foundation

/// What a verified OCSP response says about one certificate (RFC 6960 §4.2.1, `SingleResponse`).
///
/// Only ``OCSPRequest/evaluate(_:issuer:at:)`` makes one, after the signature, the nonce and the
/// certificate id were checked; freshness is checked here, against the verifier's clock.
struct OCSPAnswer: Sendable, Hashable {
    /// `certStatus`.
    enum Status: Sendable, Hashable {
        case good
        /// Revoked at this time (seconds since 1970), with OpenSSL's name of the CRL reason if given.
        case revoked(at: Int64, reason: String?)
        /// The responder does not know the certificate.
        case unknown
    }

    var status: Status
    /// `thisUpdate`: when the status was known to be correct (seconds since 1970).
    var thisUpdate: Int64
    /// `nextUpdate`: when newer information will be available; nil when the responder always has it.
    var nextUpdate: Int64?
    /// The response carried the request's nonce (false: it carried none, which is allowed).
    var nonceEchoed: Bool

    /// Why this answer cannot be relied on at `time`, or nil when it is fresh.
    ///
    /// Fresh means: `thisUpdate` is not more than `clockSkew` ahead of `time`; `nextUpdate`, when
    /// present, has not passed; when absent, `thisUpdate` is at most `maximumAge` old (RFC 5019 §4
    /// lets a client reject an answer it deems too old).
    /// - Parameters: all in seconds (since 1970 for `time`).
    func staleness(at time: Int64, clockSkew: Int64, maximumAge: Int64) -> String? {
        if thisUpdate > Self.clampedSum(time, clockSkew) {
            return "its thisUpdate \(Self.iso8601(thisUpdate)) is in the future by more than \(clockSkew) s"
        }
        if let nextUpdate {
            if time > nextUpdate {
                return "it is stale: its nextUpdate \(Self.iso8601(nextUpdate)) has passed"
            }
        } else if time > Self.clampedSum(thisUpdate, maximumAge) {
            return
                "it is stale: it has no nextUpdate and its thisUpdate \(Self.iso8601(thisUpdate)) is more than \(maximumAge) s old"
        }
        return nil
    }

    /// Until when a good answer obtained at `time` may be reused: at most `lifetime` later, never
    /// past `nextUpdate` (or, without one, past `thisUpdate + maximumAge`).
    func cacheExpiry(from time: Int64, lifetime: Int64, maximumAge: Int64) -> Int64 {
        min(Self.clampedSum(time, lifetime), nextUpdate ?? Self.clampedSum(thisUpdate, maximumAge))
    }

    /// `a + b`, clamped to the range of `Int64` instead of trapping.
    private static func clampedSum(_ a: Int64, _ b: Int64) -> Int64 {
        let (sum, overflow) = a.addingReportingOverflow(b)
        return overflow ? (b > 0 ? .max : .min) : sum
    }

    static func iso8601(_ seconds: Int64) -> String {
        Date(timeIntervalSince1970: TimeInterval(seconds)).formatted(.iso8601)
    }
}

/// Why one OCSP exchange did not give a usable answer. Every kind makes the status unavailable
/// (retryable); none means revoked.
struct OCSPFailure: Error, Sendable, Hashable {
    enum Kind: Sendable, Hashable {
        case noResponderURL
        case unsupportedURL
        case transferFailed
        case timedOut
        case cancelled
        case malformedResponse
        case unsuccessfulResponse
        case badSignature
        case nonceMismatch
        case noMatchingStatus
        case unknownStatus
        case stale
        case internalError
    }

    var kind: Kind
    var message: String
    /// OpenSSL's error text, when it gave one.
    var underlying: String?

    init(_ kind: Kind, _ message: String, underlying: String? = nil) {
        self.kind = kind
        self.message = message
        self.underlying = underlying.flatMap { $0.isEmpty ? nil : $0 }
    }
}
