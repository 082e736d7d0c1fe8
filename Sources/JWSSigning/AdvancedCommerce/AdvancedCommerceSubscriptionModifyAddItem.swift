import JWSVerify

/// An item to add to a subscription in an in-app modification.
///
/// [SubscriptionModifyAddItem](https://developer.apple.com/documentation/advancedcommerceapi/subscriptionmodifyadditem)
public struct AdvancedCommerceSubscriptionModifyAddItem: Codable, Hashable, Sendable {
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

    /// Decodes the item and checks Apple's rules.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: AdvancedCommerceItemKey.self)
        let core = try AdvancedCommercePricedItem(from: container)
        sku = core.sku
        description = core.description
        displayName = core.displayName
        price = core.price
        offer = core.offer
        proratedPrice = try container.decodeIfPresent(Int64.self, forKey: .proratedPrice)
        try validate()
    }

    /// Checks Apple's rules, then encodes the present members.
    public func encode(to encoder: any Encoder) throws {
        try validate()
        var container = encoder.container(keyedBy: AdvancedCommerceItemKey.self)
        try core.encode(to: &container)
        try container.encodeIfPresent(proratedPrice, forKey: .proratedPrice)
    }

    private var core: AdvancedCommercePricedItem {
        AdvancedCommercePricedItem(
            sku: sku, description: description, displayName: displayName, price: price, offer: offer)
    }

    private func validate() throws(AdvancedCommerceValidationError) {
        try core.validate()
    }
}
