import JWSVerify

/// One item of a subscription created in the app: its SKU, names, price and an optional offer.
///
/// [SubscriptionCreateItem](https://developer.apple.com/documentation/advancedcommerceapi/subscriptioncreateitem)
public struct AdvancedCommerceSubscriptionCreateItem: Codable, Hashable, Sendable, AdvancedCommercePricedItemCoding {
    /// The item's product identifier, which you define (JSON key `SKU`); at most 128 characters.
    ///
    /// [SKU](https://developer.apple.com/documentation/advancedcommerceapi/sku)
    public var sku: String

    /// A description of the item that customers don't see; at most 45 characters.
    ///
    /// [description](https://developer.apple.com/documentation/advancedcommerceapi/description)
    public var description: String

    /// The item's name, shown to customers; at most 30 characters.
    ///
    /// [displayName](https://developer.apple.com/documentation/advancedcommerceapi/displayname)
    public var displayName: String

    /// The price of one period in milliunits of the request's currency.
    ///
    /// [price](https://developer.apple.com/documentation/advancedcommerceapi/price)
    public var price: Int64

    /// A discount offer on the item; all four of its members are required, `periodCount` from 1 to 12.
    ///
    /// [Offer](https://developer.apple.com/documentation/advancedcommerceapi/offer)
    public var offer: AdvancedCommerceOffer?

    /// Creates an item, checking Apple's rules.
    ///
    /// - Throws: ``AdvancedCommerceValidationError``: `stringTooLong`, or for the offer `missingField` or
    ///   `outOfRange`.
    public init(
        sku: String, description: String, displayName: String, price: Int64, offer: AdvancedCommerceOffer? = nil
    )
        throws(AdvancedCommerceValidationError)
    {
        self.sku = sku
        self.description = description
        self.displayName = displayName
        self.price = price
        self.offer = offer
        try validate()
    }

    init(
        pricedItem item: AdvancedCommercePricedItem,
        decodingOthersFrom container: KeyedDecodingContainer<AdvancedCommerceItemKey>
    ) throws {
        try self.init(
            sku: item.sku, description: item.description, displayName: item.displayName, price: item.price,
            offer: item.offer)
    }
}
