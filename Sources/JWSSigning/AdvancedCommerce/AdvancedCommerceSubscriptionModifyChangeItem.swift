import JWSVerify

/// An item of a subscription to replace by another (an upgrade, a downgrade or an offer) in an in-app
/// modification.
///
/// [SubscriptionModifyChangeItem](https://developer.apple.com/documentation/advancedcommerceapi/subscriptionmodifychangeitem)
public struct AdvancedCommerceSubscriptionModifyChangeItem: Codable, Hashable, Sendable, AdvancedCommercePricedItemCoding {
    /// The SKU of the item the subscription has now (JSON key `currentSKU`); at most 128 characters.
    ///
    /// [SKU](https://developer.apple.com/documentation/advancedcommerceapi/sku)
    public var currentSku: String

    /// A description of the new item that customers don't see; at most 45 characters.
    ///
    /// [description](https://developer.apple.com/documentation/advancedcommerceapi/description)
    public var description: String

    /// The new item's name, shown to customers; at most 30 characters.
    ///
    /// [displayName](https://developer.apple.com/documentation/advancedcommerceapi/displayname)
    public var displayName: String

    /// When the change takes effect.
    ///
    /// [effective](https://developer.apple.com/documentation/advancedcommerceapi/effective)
    public var effective: AdvancedCommerceEffective

    /// A discount offer on the new item; all four of its members are required, `periodCount` from 1 to 12.
    ///
    /// [Offer](https://developer.apple.com/documentation/advancedcommerceapi/offer)
    public var offer: AdvancedCommerceOffer?

    /// The new item's price of one period in milliunits of the request's currency.
    ///
    /// [price](https://developer.apple.com/documentation/advancedcommerceapi/price)
    public var price: Int64

    /// The prorated price for the rest of the current period, in milliunits.
    ///
    /// [proratedPrice](https://developer.apple.com/documentation/advancedcommerceapi/proratedprice)
    public var proratedPrice: Int64?

    /// Why the item changes.
    ///
    /// [reason](https://developer.apple.com/documentation/advancedcommerceapi/reason)
    public var reason: AdvancedCommerceReason

    /// The SKU of the new item (JSON key `SKU`); at most 128 characters.
    ///
    /// [SKU](https://developer.apple.com/documentation/advancedcommerceapi/sku)
    public var sku: String

    /// Creates a change of item, checking Apple's rules.
    ///
    /// - Throws: ``AdvancedCommerceValidationError``: `stringTooLong`, or for the offer `missingField` or
    ///   `outOfRange`.
    public init(
        currentSku: String, description: String, displayName: String, effective: AdvancedCommerceEffective,
        price: Int64, reason: AdvancedCommerceReason, sku: String, offer: AdvancedCommerceOffer? = nil,
        proratedPrice: Int64? = nil
    ) throws(AdvancedCommerceValidationError) {
        self.currentSku = currentSku
        self.description = description
        self.displayName = displayName
        self.effective = effective
        self.price = price
        self.reason = reason
        self.sku = sku
        self.offer = offer
        self.proratedPrice = proratedPrice
        try validate()
    }

    init(
        pricedItem item: AdvancedCommercePricedItem,
        decodingOthersFrom container: KeyedDecodingContainer<AdvancedCommerceItemKey>
    ) throws {
        let currentSku = try container.decode(String.self, forKey: .currentSku)
        let effective = try container.decode(AdvancedCommerceEffective.self, forKey: .effective)
        let proratedPrice = try container.decodeIfPresent(Int64.self, forKey: .proratedPrice)
        try self.init(
            currentSku: currentSku, description: item.description, displayName: item.displayName,
            effective: effective, price: item.price,
            reason: container.decode(AdvancedCommerceReason.self, forKey: .reason), sku: item.sku,
            offer: item.offer, proratedPrice: proratedPrice)
    }

    func validateOthers() throws(AdvancedCommerceValidationError) {
        try AdvancedCommerceValidation.checkSku(currentSku, field: "currentSKU")
    }

    func encodeOthers(to container: inout KeyedEncodingContainer<AdvancedCommerceItemKey>) throws {
        try container.encode(currentSku, forKey: .currentSku)
        try container.encode(effective, forKey: .effective)
        try container.encodeIfPresent(proratedPrice, forKey: .proratedPrice)
        try container.encode(reason, forKey: .reason)
    }
}
