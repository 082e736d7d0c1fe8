import Foundation
import JWSVerify

/// The configuration of a performance test.
public struct PerformanceTestConfig: Codable, Hashable, Sendable {
    /// Concurrent requests.
    public var maxConcurrentRequests: Int64?

    /// Total requests.
    public var totalRequests: Int64?

    /// Duration in milliseconds.
    public var totalDuration: Int64?

    /// The response time to meet, in milliseconds.
    public var responseTimeThreshold: Int64?

    /// The success rate to meet, in percent.
    public var successRateThreshold: Int32?

    /// Creates a value from its fields; every field defaults to absent.
    public init(
        maxConcurrentRequests: Int64? = nil,
        totalRequests: Int64? = nil,
        totalDuration: Int64? = nil,
        responseTimeThreshold: Int64? = nil,
        successRateThreshold: Int32? = nil
    ) {
        self.maxConcurrentRequests = maxConcurrentRequests
        self.totalRequests = totalRequests
        self.totalDuration = totalDuration
        self.responseTimeThreshold = responseTimeThreshold
        self.successRateThreshold = successRateThreshold
    }
}
