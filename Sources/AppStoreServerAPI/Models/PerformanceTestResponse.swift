import Foundation
import JWSVerify

/// The response of Initiate Performance Test.
public struct PerformanceTestResponse: Codable, Hashable, Sendable {
    /// The test's configuration.
    public var config: PerformanceTestConfig?

    /// The id to ask for the results.
    public var requestId: String?

    /// Creates a value from its fields; every field defaults to absent.
    public init(config: PerformanceTestConfig? = nil, requestId: String? = nil) {
        self.config = config
        self.requestId = requestId
    }
}
