/// An in-app request to sell one product once (a consumable, a non-consumable or a non-renewing subscription).
///
/// Its JSON carries `"operation": "CREATE_ONE_TIME_CHARGE"` and `"version": "1"` besides the members below, as
/// Apple's libraries write it. Sign it with ``AdvancedCommerceInAppSignatureCreator``.
///
/// [OneTimeChargeCreateRequest](https://developer.apple.com/documentation/advancedcommerceapi/onetimechargecreaterequest)
public struct AdvancedCommerceOneTimeChargeCreateRequest: AdvancedCommerceInAppRequest, Codable, Hashable {
    /// The ISO 4217 code of the currency of the item's price.
    ///
    /// [currency](https://developer.apple.com/documentation/advancedcommerceapi/currency)
    public var currency: String

    /// The product to sell.
    ///
    /// [OneTimeChargeItem](https://developer.apple.com/documentation/advancedcommerceapi/onetimechargeitem)
    public var item: AdvancedCommerceOneTimeChargeItem

    /// The request's metadata.
    ///
    /// [RequestInfo](https://developer.apple.com/documentation/advancedcommerceapi/requestinfo)
    public var requestInfo: AdvancedCommerceRequestInfo

    /// The storefront of the purchase, such as `USA`.
    ///
    /// [storefront](https://developer.apple.com/documentation/advancedcommerceapi/storefront)
    public var storefront: String?

    /// The tax code of the product.
    ///
    /// [taxCode](https://developer.apple.com/documentation/advancedcommerceapi/taxcode)
    public var taxCode: String

    /// Creates the request.
    public init(
        currency: String, item: AdvancedCommerceOneTimeChargeItem, requestInfo: AdvancedCommerceRequestInfo,
        taxCode: String, storefront: String? = nil
    ) {
        self.currency = currency
        self.item = item
        self.requestInfo = requestInfo
        self.taxCode = taxCode
        self.storefront = storefront
    }

    static let operation = "CREATE_ONE_TIME_CHARGE"

    enum CodingKeys: String, CodingKey {
        case currency, item, operation, requestInfo, storefront, taxCode, version
    }

    /// Decodes the request; `operation` and `version`, when present, must be this request's.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        try container.checkConstant(Self.operation, forKey: .operation)
        try container.checkConstant(advancedCommerceRequestVersion, forKey: .version)
        currency = try container.decode(String.self, forKey: .currency)
        item = try container.decode(AdvancedCommerceOneTimeChargeItem.self, forKey: .item)
        requestInfo = try container.decode(AdvancedCommerceRequestInfo.self, forKey: .requestInfo)
        storefront = try container.decodeIfPresent(String.self, forKey: .storefront)
        taxCode = try container.decode(String.self, forKey: .taxCode)
    }

    /// Encodes the present members with `operation` and `version`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(currency, forKey: .currency)
        try container.encode(item, forKey: .item)
        try container.encode(Self.operation, forKey: .operation)
        try container.encode(requestInfo, forKey: .requestInfo)
        try container.encodeIfPresent(storefront, forKey: .storefront)
        try container.encode(taxCode, forKey: .taxCode)
        try container.encode(advancedCommerceRequestVersion, forKey: .version)
    }
}
