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

    enum CodingKeys: String, CodingKey {
        case description, displayName, price
        case sku = "SKU"
    }

    /// Decodes an item and checks Apple's rules.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        description = try container.decode(String.self, forKey: .description)
        displayName = try container.decode(String.self, forKey: .displayName)
        sku = try container.decode(String.self, forKey: .sku)
        price = try container.decode(Int64.self, forKey: .price)
        try validate()
    }

    /// Checks Apple's rules, then encodes every member.
    public func encode(to encoder: any Encoder) throws {
        try validate()
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(description, forKey: .description)
        try container.encode(displayName, forKey: .displayName)
        try container.encode(sku, forKey: .sku)
        try container.encode(price, forKey: .price)
    }

    private func validate() throws(AdvancedCommerceValidationError) {
        try AdvancedCommerceValidation.checkItem(sku: sku, description: description, displayName: displayName)
    }
}
