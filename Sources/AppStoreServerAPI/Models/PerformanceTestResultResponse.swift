import Foundation
import JWSVerify

/// The response of Get Performance Test Results.
public struct PerformanceTestResultResponse: Codable, Hashable, Sendable {
    /// The test's configuration.
    public var config: PerformanceTestConfig?

    /// The URL tested.
    public var target: String?

    /// The outcome.
    public var result: PerformanceTestStatus?

    /// The success rate, in percent.
    public var successRate: Int32?

    /// Requests still pending.
    public var numPending: Int32?

    /// Response time percentiles.
    public var responseTimes: PerformanceTestResponseTimes?

    /// Failures by ``SendAttemptResult`` raw value.
    public var failures: [String: Int32]?

    /// Creates a value from its fields; every field defaults to absent.
    public init(
        config: PerformanceTestConfig? = nil,
        target: String? = nil,
        result: PerformanceTestStatus? = nil,
        successRate: Int32? = nil,
        numPending: Int32? = nil,
        responseTimes: PerformanceTestResponseTimes? = nil,
        failures: [String: Int32]? = nil
    ) {
        self.config = config
        self.target = target
        self.result = result
        self.successRate = successRate
        self.numPending = numPending
        self.responseTimes = responseTimes
        self.failures = failures
    }
}
