import JWSVerify

/// The JSON keys of the items of Advanced Commerce requests, shared by the item types (Apple spells the SKUs
/// `SKU` and `currentSKU`).
enum AdvancedCommerceItemKey: String, CodingKey {
    case currentSku = "currentSKU"
    case description, displayName, effective, offer, price, proratedPrice, reason
    case sku = "SKU"
}

/// The members every item with a price has: the SKU, the two names, the price and an optional offer.
struct AdvancedCommercePricedItem {
    var sku: String
    var description: String
    var displayName: String
    var price: Int64
    var offer: AdvancedCommerceOffer?

    /// Reads the five members.
    init(from container: KeyedDecodingContainer<AdvancedCommerceItemKey>) throws {
        sku = try container.decode(String.self, forKey: .sku)
        description = try container.decode(String.self, forKey: .description)
        displayName = try container.decode(String.self, forKey: .displayName)
        price = try container.decode(Int64.self, forKey: .price)
        offer = try container.decodeIfPresent(AdvancedCommerceOffer.self, forKey: .offer)
    }

    init(sku: String, description: String, displayName: String, price: Int64, offer: AdvancedCommerceOffer?) {
        self.sku = sku
        self.description = description
        self.displayName = displayName
        self.price = price
        self.offer = offer
    }

    /// Checks Apple's rules on the five members.
    func validate() throws(AdvancedCommerceValidationError) {
        try AdvancedCommerceValidation.checkItem(sku: sku, description: description, displayName: displayName)
        try AdvancedCommerceValidation.check(offer)
    }

    /// Checks Apple's rules, then writes the present members.
    func encode(to container: inout KeyedEncodingContainer<AdvancedCommerceItemKey>) throws {
        try validate()
        try container.encode(sku, forKey: .sku)
        try container.encode(description, forKey: .description)
        try container.encode(displayName, forKey: .displayName)
        try container.encode(price, forKey: .price)
        try container.encodeIfPresent(offer, forKey: .offer)
    }
}

/// An item type that has the five members of ``AdvancedCommercePricedItem`` and may add others: its decoding,
/// encoding and checks come from here, so that each type states only the members it adds.
///
/// The extension below is the conforming types' `Codable` implementation (`init(from:)` and `encode(to:)`, in
/// place of the synthesized ones); a type's public initializer calls ``validate()``.
protocol AdvancedCommercePricedItemCoding: Codable {
    var sku: String { get }
    var description: String { get }
    var displayName: String { get }
    var price: Int64 { get }
    /// The offer, `nil` for a type that has none.
    var offer: AdvancedCommerceOffer? { get }

    /// Creates the item from the five members, reading the members the type adds from `container`.
    init(
        pricedItem: AdvancedCommercePricedItem,
        decodingOthersFrom container: KeyedDecodingContainer<AdvancedCommerceItemKey>
    ) throws

    /// Checks Apple's rules on the members the type adds; run before the five members' checks.
    func validateOthers() throws(AdvancedCommerceValidationError)

    /// Writes the members the type adds.
    func encodeOthers(to container: inout KeyedEncodingContainer<AdvancedCommerceItemKey>) throws
}

extension AdvancedCommercePricedItemCoding {
    func validateOthers() throws(AdvancedCommerceValidationError) {}

    func encodeOthers(to container: inout KeyedEncodingContainer<AdvancedCommerceItemKey>) throws {}

    /// The five members.
    var pricedItem: AdvancedCommercePricedItem {
        AdvancedCommercePricedItem(
            sku: sku, description: description, displayName: displayName, price: price, offer: offer)
    }

    /// Checks Apple's rules: the members the type adds, then the five.
    func validate() throws(AdvancedCommerceValidationError) {
        try validateOthers()
        try pricedItem.validate()
    }

    /// Decodes the item: the five members, then the type's others; then checks Apple's rules.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: AdvancedCommerceItemKey.self)
        self = try Self(pricedItem: AdvancedCommercePricedItem(from: container), decodingOthersFrom: container)
        try validate()
    }

    /// Checks Apple's rules, then encodes the five members and the type's others (the present ones).
    public func encode(to encoder: any Encoder) throws {
        try validate()
        var container = encoder.container(keyedBy: AdvancedCommerceItemKey.self)
        try pricedItem.encode(to: &container)
        try encodeOthers(to: &container)
    }
}

/// The one member of an item named by its SKU alone (an item to remove or to reactivate).
enum AdvancedCommerceSkuItem {
    /// Reads the SKU and checks its length.
    static func decodeSku(from decoder: any Decoder) throws -> String {
        let sku = try decoder.container(keyedBy: AdvancedCommerceItemKey.self).decode(String.self, forKey: .sku)
        try AdvancedCommerceValidation.checkSku(sku)
        return sku
    }

    /// Checks the SKU's length, then writes it.
    static func encode(sku: String, to encoder: any Encoder) throws {
        try AdvancedCommerceValidation.checkSku(sku)
        var container = encoder.container(keyedBy: AdvancedCommerceItemKey.self)
        try container.encode(sku, forKey: .sku)
    }
}
