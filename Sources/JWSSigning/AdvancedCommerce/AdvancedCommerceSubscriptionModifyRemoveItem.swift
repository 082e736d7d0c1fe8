/// An item to remove from a subscription in an in-app modification.
///
/// [SubscriptionModifyRemoveItem](https://developer.apple.com/documentation/advancedcommerceapi/subscriptionmodifyremoveitem)
public struct AdvancedCommerceSubscriptionModifyRemoveItem: Codable, Hashable, Sendable {
    /// The SKU of the item to remove (JSON key `SKU`); at most 128 characters.
    ///
    /// [SKU](https://developer.apple.com/documentation/advancedcommerceapi/sku)
    public var sku: String

    /// Names the item to remove.
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
