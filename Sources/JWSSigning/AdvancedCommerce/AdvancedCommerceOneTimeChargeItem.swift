import JWSVerify

/// The product of a one-time charge: its SKU, names and price.
///
/// [OneTimeChargeItem](https://developer.apple.com/documentation/advancedcommerceapi/onetimechargeitem)
public struct AdvancedCommerceOneTimeChargeItem: Codable, Hashable, Sendable, AdvancedCommercePricedItemCoding {
    /// A description of the product that customers don't see; at most 45 characters.
    ///
    /// [description](https://developer.apple.com/documentation/advancedcommerceapi/description)
    public var description: String

    /// The product's name, shown to customers; at most 30 characters.
    ///
    /// [displayName](https://developer.apple.com/documentation/advancedcommerceapi/displayname)
    public var displayName: String

    /// The product identifier, which you define (JSON key `SKU`); at most 128 characters.
    ///
    /// [SKU](https://developer.apple.com/documentation/advancedcommerceapi/sku)
    public var sku: String

    /// The price in milliunits of the request's currency.
    ///
    /// [price](https://developer.apple.com/documentation/advancedcommerceapi/price)
    public var price: Int64

    /// Creates an item, checking Apple's length rules.
    ///
    /// - Throws: ``AdvancedCommerceValidationError/Code-swift.struct/stringTooLong``.
    public init(
        description: String, displayName: String, sku: String, price: Int64
    )
        throws(AdvancedCommerceValidationError)
    {
        self.description = description
        self.displayName = displayName
        self.sku = sku
        self.price = price
        try validate()
    }

    /// A one-time charge item has no offer.
    var offer: AdvancedCommerceOffer? { nil }

    init(
        pricedItem item: AdvancedCommercePricedItem,
        decodingOthersFrom container: KeyedDecodingContainer<AdvancedCommerceItemKey>
    ) throws {
        try self.init(description: item.description, displayName: item.displayName, sku: item.sku, price: item.price)
    }
}
