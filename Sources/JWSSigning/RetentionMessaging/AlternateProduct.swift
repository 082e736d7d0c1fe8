import Foundation
import JWSVerify

/// A switch-plan retention message: a message and the subscription the customer is invited to switch to.
///
/// [alternateProduct](https://developer.apple.com/documentation/retentionmessaging/alternateproduct)
public struct AlternateProduct: Codable, Hashable, Sendable {
    /// The identifier of the message of the switch-plan offer (written in lower case).
    ///
    /// [messageIdentifier](https://developer.apple.com/documentation/retentionmessaging/messageidentifier)
    public var messageIdentifier: UUID?

    /// The product identifier of the subscription to suggest.
    ///
    /// [productId](https://developer.apple.com/documentation/retentionmessaging/productid)
    public var productId: String?

    /// How the suggested subscription is billed, for a subscription with a commitment. A value this version
    /// doesn't know is written back unchanged.
    ///
    /// [billingPlanType](https://developer.apple.com/documentation/retentionmessaging/billingplantype)
    public var billingPlanType: BillingPlanType?

    /// Creates a switch-plan message.
    public init(messageIdentifier: UUID? = nil, productId: String? = nil, billingPlanType: BillingPlanType? = nil) {
        self.messageIdentifier = messageIdentifier
        self.productId = productId
        self.billingPlanType = billingPlanType
    }

    enum CodingKeys: String, CodingKey {
        case messageIdentifier, productId, billingPlanType
    }

    /// Decodes the message; the UUID may be in either case.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        messageIdentifier = try container.decodeUUIDIfPresent(forKey: .messageIdentifier)
        productId = try container.decodeIfPresent(String.self, forKey: .productId)
        billingPlanType = try container.decodeIfPresent(BillingPlanType.self, forKey: .billingPlanType)
    }

    /// Encodes the present members, the identifier in lower case.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeLowercased(messageIdentifier, forKey: .messageIdentifier)
        try container.encodeIfPresent(productId, forKey: .productId)
        try container.encodeIfPresent(billingPlanType, forKey: .billingPlanType)
    }
}
