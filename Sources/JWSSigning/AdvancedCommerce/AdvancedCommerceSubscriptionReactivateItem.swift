/// An item of a subscription to reactivate in the app.
///
/// [SubscriptionReactivateItem](https://developer.apple.com/documentation/advancedcommerceapi/subscriptionreactivateitem)
public struct AdvancedCommerceSubscriptionReactivateItem: Codable, Hashable, Sendable {
    /// The SKU of the item to reactivate (JSON key `SKU`); at most 128 characters.
    ///
    /// [SKU](https://developer.apple.com/documentation/advancedcommerceapi/sku)
    public var sku: String

    /// Names the item to reactivate.
    ///
    /// - Throws: ``AdvancedCommerceValidationError/Code-swift.struct/stringTooLong``.
    public init(sku: String) throws(AdvancedCommerceValidationError) {
        try AdvancedCommerceValidation.checkSku(sku)
        self.sku = sku
    }

    enum CodingKeys: String, CodingKey {
        case sku = "SKU"
    }

    /// Decodes the item and checks its SKU's length.
    public init(from decoder: any Decoder) throws {
        try self.init(sku: try decoder.container(keyedBy: CodingKeys.self).decode(String.self, forKey: .sku))
    }

    /// Checks the SKU's length, then encodes it.
    public func encode(to encoder: any Encoder) throws {
        try AdvancedCommerceValidation.checkSku(sku)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(sku, forKey: .sku)
    }
}
