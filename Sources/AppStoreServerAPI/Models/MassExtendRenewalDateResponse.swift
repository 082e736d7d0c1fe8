import Foundation
import JWSVerify

/// The response of Extend Subscription Renewal Dates for All Active Subscribers.
public struct MassExtendRenewalDateResponse: Codable, Hashable, Sendable {
    /// Your UUID for the request.
    public var requestIdentifier: String?

    /// Creates a value from its fields; every field defaults to absent.
    public init(requestIdentifier: String? = nil) {
        self.requestIdentifier = requestIdentifier
    }
}
