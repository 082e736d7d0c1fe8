import Foundation
import JWSVerify

/// The response of Get Status of Subscription Renewal Date Extensions.
public struct MassExtendRenewalDateStatusResponse: Codable, Hashable, Sendable {
    /// Your UUID for the request.
    public var requestIdentifier: String?

    /// Whether the extension is done.
    public var complete: Bool?

    /// When it was done.
    public var completeDate: Date?

    /// How many subscriptions were extended.
    public var succeededCount: Int64?

    /// How many could not be.
    public var failedCount: Int64?

    /// Creates a value from its fields; every field defaults to absent.
    public init(
        requestIdentifier: String? = nil,
        complete: Bool? = nil,
        completeDate: Date? = nil,
        succeededCount: Int64? = nil,
        failedCount: Int64? = nil
    ) {
        self.requestIdentifier = requestIdentifier
        self.complete = complete
        self.completeDate = completeDate
        self.succeededCount = succeededCount
        self.failedCount = failedCount
    }
}
