/// The product of a one-time charge: its SKU, names and price.
///
/// [OneTimeChargeItem](https://developer.apple.com/documentation/advancedcommerceapi/onetimechargeitem)
public struct AdvancedCommerceOneTimeChargeItem: Codable, Hashable, Sendable {
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

    /// Decodes the item and checks Apple's rules.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: AdvancedCommerceItemKey.self)
        let core = try AdvancedCommercePricedItem(from: container)
        sku = core.sku
        description = core.description
        displayName = core.displayName
        price = core.price
        try validate()
    }

    /// Checks Apple's rules, then encodes the present members.
    public func encode(to encoder: any Encoder) throws {
        try validate()
        var container = encoder.container(keyedBy: AdvancedCommerceItemKey.self)
        try core.encode(to: &container)
    }

    private var core: AdvancedCommercePricedItem {
        AdvancedCommercePricedItem(
            sku: sku, description: description, displayName: displayName, price: price, offer: nil)
    }

    private func validate() throws(AdvancedCommerceValidationError) {
        try core.validate()
    }
}
