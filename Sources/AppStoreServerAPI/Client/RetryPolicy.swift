import Foundation

/// Whether and how the client retries a call the API said to retry (HTTP 429 and 5xx, Apple's `…Retryable`
/// codes, timeouts and network failures): off by default.
///
/// A retry waits `Retry-After` when the response has one, else a jittered exponential backoff: a random time
/// between zero and `baseDelay × 2^attempt`, capped at ``maximumDelay`` ("full jitter"). Cancellation stops the
/// wait at once.
///
/// The rules, in order (``delay(beforeRetry:after:safeToRepeat:random:)``):
/// - An error that is not retryable (``APIError/isRetryable``), a cancelled call, or no retry left: no retry.
/// - A request that is not safe to repeat (``APIRequest/isSafeToRepeat``: Request a Test Notification, Extend for
///   All Active Subscribers, Finish Transaction, Initiate Performance Test, every POST but Get Notification
///   History) is retried only when the answer proves that Apple did not process it: a 4xx (429 "rate limited",
///   or one of Apple's `…Retryable` codes on a 4xx), or 503 with `Retry-After` (the server says it could not take
///   the request now). A timeout or a network failure may come after Apple processed the request, and so may any
///   other 5xx (a 500 may have done the work before failing): those are returned to the caller, who knows whether
///   doing it twice is harmless. GET, PUT, DELETE and Get Notification History (a query sent as POST) are safe to
///   repeat and retried on every retryable error.
/// - `Retry-After` longer than ``maximumDelay``: no retry. The server said that an earlier attempt is too early,
///   so a shortened wait would only spend an attempt; the error, with its ``APIError/retryAfter``, goes to the
///   caller, who can wait that long. A `Retry-After` that is not a number of seconds or an HTTP date (RFC 9110
///   §5.6.7, any of its three forms), or whose seconds do not fit in 64 bits, counts as absent.
/// - Otherwise the wait is `Retry-After` when present, else the backoff.
public struct RetryPolicy: Sendable, Hashable {
    /// The most retries after the first attempt (0: none).
    public var maximumRetries: Int
    /// The backoff of the first retry.
    public var baseDelay: Duration
    /// The longest wait before a retry. A `Retry-After` longer than this ends the retries.
    public var maximumDelay: Duration

    /// Creates a policy.
    public init(maximumRetries: Int, baseDelay: Duration = .milliseconds(500), maximumDelay: Duration = .seconds(30)) {
        self.maximumRetries = max(0, maximumRetries)
        self.baseDelay = baseDelay
        self.maximumDelay = maximumDelay
    }

    /// No retries: every error is returned to the caller (the default).
    public static let none = RetryPolicy(maximumRetries: 0)

    /// The wait before retry number `attempt` (0 for the first retry) after `error`.
    ///
    /// - Parameters:
    ///   - attempt: How many retries were made already.
    ///   - error: The error of the last attempt.
    ///   - safeToRepeat: Whether the request may be sent again when its outcome is unknown
    ///     (``APIRequest/isSafeToRepeat``).
    ///   - random: A number in 0..<1 (the jitter).
    /// - Returns: the wait, or `nil` when the call must not be retried (see the rules above).
    public func delay(
        beforeRetry attempt: Int, after error: APIError, safeToRepeat: Bool = true, random: Double
    ) -> Duration? {
        guard error.isRetryable, attempt < maximumRetries, error.kind != .cancelled else { return nil }
        guard safeToRepeat || Self.wasNotProcessed(error) else { return nil }
        if let retryAfter = error.retryAfter { return retryAfter <= maximumDelay ? max(retryAfter, .zero) : nil }
        let exponent = min(max(attempt, 0), 30)
        let factor = 1 << exponent
        // The ceiling saturates at maximumDelay instead of overflowing.
        let ceiling = baseDelay > maximumDelay / factor ? maximumDelay : baseDelay * factor
        return ceiling * min(max(random, 0), 1)
    }

    /// Whether the answer proves that the server did not act on the request: a 4xx, or 503 with `Retry-After`.
    static func wasNotProcessed(_ error: APIError) -> Bool {
        guard let status = error.statusCode else { return false }
        return (400...499).contains(status) || (status == 503 && error.retryAfter != nil)
    }
}
