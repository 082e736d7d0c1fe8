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

    /// Decodes the item and checks its SKU's length.
    public init(from decoder: any Decoder) throws {
        sku = try AdvancedCommerceSkuItem.decodeSku(from: decoder)
    }

    /// Checks the SKU's length, then encodes it.
    public func encode(to encoder: any Encoder) throws {
        try AdvancedCommerceSkuItem.encode(sku: sku, to: encoder)
    }
}
