import JWSVerify

/// An item to add to a subscription in an in-app modification.
///
/// [SubscriptionModifyAddItem](https://developer.apple.com/documentation/advancedcommerceapi/subscriptionmodifyadditem)
public struct AdvancedCommerceSubscriptionModifyAddItem: Codable, Hashable, Sendable, AdvancedCommercePricedItemCoding {
    /// The item's product identifier (JSON key `SKU`); at most 128 characters.
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

    /// The prorated price for the rest of the current period, in milliunits.
    ///
    /// [proratedPrice](https://developer.apple.com/documentation/advancedcommerceapi/proratedprice)
    public var proratedPrice: Int64?

    /// Creates an item to add, checking Apple's rules.
    ///
    /// - Throws: ``AdvancedCommerceValidationError``: `stringTooLong`, or for the offer `missingField` or
    ///   `outOfRange`.
    public init(
        sku: String, description: String, displayName: String, price: Int64, offer: AdvancedCommerceOffer? = nil,
        proratedPrice: Int64? = nil
    ) throws(AdvancedCommerceValidationError) {
        self.sku = sku
        self.description = description
        self.displayName = displayName
        self.price = price
        self.offer = offer
        self.proratedPrice = proratedPrice
        try validate()
    }

    init(
        pricedItem item: AdvancedCommercePricedItem,
        decodingOthersFrom container: KeyedDecodingContainer<AdvancedCommerceItemKey>
    ) throws {
        try self.init(
            sku: item.sku, description: item.description, displayName: item.displayName, price: item.price,
            offer: item.offer, proratedPrice: container.decodeIfPresent(Int64.self, forKey: .proratedPrice))
    }

    func encodeOthers(to container: inout KeyedEncodingContainer<AdvancedCommerceItemKey>) throws {
        try container.encodeIfPresent(proratedPrice, forKey: .proratedPrice)
    }
}
