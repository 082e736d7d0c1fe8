import Foundation

/// Whether and how the client retries a call the API said to retry (HTTP 429 and 5xx, Apple's `…Retryable`
/// codes, timeouts and network failures): off by default.
///
/// A retry waits `Retry-After` when the response has one (capped at ``maximumDelay``), else a jittered exponential
/// backoff: a random time between zero and `baseDelay × 2^attempt`, capped at ``maximumDelay`` ("full jitter").
/// Cancellation stops the wait at once.
public struct RetryPolicy: Sendable, Hashable {
    /// The most retries after the first attempt (0: none).
    public var maximumRetries: Int
    /// The backoff of the first retry.
    public var baseDelay: Duration
    /// The longest wait before a retry, `Retry-After` included.
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
    ///   - random: A number in 0..<1 (the jitter).
    /// - Returns: the wait, or `nil` when the error is not retryable or no retry is left.
    public func delay(beforeRetry attempt: Int, after error: APIError, random: Double) -> Duration? {
        guard error.isRetryable, attempt < maximumRetries, error.kind != .cancelled else { return nil }
        if let retryAfter = error.retryAfter { return min(retryAfter, maximumDelay) }
        let exponent = min(attempt, 30)
        let ceiling = min(baseDelay * (1 << exponent), maximumDelay)
        return ceiling * min(max(random, 0), 1)
    }
}
