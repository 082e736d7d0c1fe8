import Foundation
import JWSVerify

/// The body of Extend Subscription Renewal Dates for All Active Subscribers.
public struct MassExtendRenewalDateRequest: Codable, Hashable, Sendable {
    /// The number of days to extend by (at most 90).
    public var extendByDays: Int32?

    /// Why.
    public var extendReasonCode: ExtendReasonCode?

    /// Your UUID for this request.
    public var requestIdentifier: String?

    /// Only these storefronts; all when absent.
    public var storefrontCountryCodes: [String]?

    /// The subscription's product id.
    public var productId: String?

    /// Creates a value from its fields; every field defaults to absent.
    public init(
        extendByDays: Int32? = nil,
        extendReasonCode: ExtendReasonCode? = nil,
        requestIdentifier: String? = nil,
        storefrontCountryCodes: [String]? = nil,
        productId: String? = nil
    ) {
        self.extendByDays = extendByDays
        self.extendReasonCode = extendReasonCode
        self.requestIdentifier = requestIdentifier
        self.storefrontCountryCodes = storefrontCountryCodes
        self.productId = productId
    }
}
