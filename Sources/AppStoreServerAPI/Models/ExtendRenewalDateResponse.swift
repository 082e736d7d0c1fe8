import Foundation
import JWSVerify

/// The response of Extend a Subscription Renewal Date.
public struct ExtendRenewalDateResponse: Codable, Hashable, Sendable {
    /// The subscription's original transaction id.
    public var originalTransactionId: String?

    /// The subscription's web order line item id.
    public var webOrderLineItemId: String?

    /// Whether the renewal date was extended.
    public var success: Bool?

    /// The new renewal date.
    public var effectiveDate: Date?

    /// Creates a value from its fields; every field defaults to absent.
    public init(
        originalTransactionId: String? = nil,
        webOrderLineItemId: String? = nil,
        success: Bool? = nil,
        effectiveDate: Date? = nil
    ) {
        self.originalTransactionId = originalTransactionId
        self.webOrderLineItemId = webOrderLineItemId
        self.success = success
        self.effectiveDate = effectiveDate
    }
}
