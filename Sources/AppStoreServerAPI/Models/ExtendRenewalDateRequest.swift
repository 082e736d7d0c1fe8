import Foundation
import JWSVerify

/// The body of Extend a Subscription Renewal Date.
public struct ExtendRenewalDateRequest: Codable, Hashable, Sendable {
    /// The number of days to extend by (at most 90).
    public var extendByDays: Int32?

    /// Why.
    public var extendReasonCode: ExtendReasonCode?

    /// Your UUID for this request.
    public var requestIdentifier: String?

    /// Creates a value from its fields; every field defaults to absent.
    public init(
        extendByDays: Int32? = nil,
        extendReasonCode: ExtendReasonCode? = nil,
        requestIdentifier: String? = nil
    ) {
        self.extendByDays = extendByDays
        self.extendReasonCode = extendReasonCode
        self.requestIdentifier = requestIdentifier
    }
}
