import Foundation
import JWSVerify

/// The body of Initiate Performance Test.
public struct PerformanceTestRequest: Codable, Hashable, Sendable {
    /// The transaction to test with.
    public var originalTransactionId: String?

    /// Creates a value from its fields; every field defaults to absent.
    public init(originalTransactionId: String? = nil) {
        self.originalTransactionId = originalTransactionId
    }
}
