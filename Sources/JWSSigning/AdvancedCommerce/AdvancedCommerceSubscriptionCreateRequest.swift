import JWSVerify

/// An in-app request to sell an auto-renewable subscription of one or more items.
///
/// Its JSON carries `"operation": "CREATE_SUBSCRIPTION"` and `"version": "1"` besides the members below, as Apple's
/// libraries write it. Sign it with ``AdvancedCommerceInAppSignatureCreator``.
///
/// [SubscriptionCreateRequest](https://developer.apple.com/documentation/advancedcommerceapi/subscriptioncreaterequest)
public struct AdvancedCommerceSubscriptionCreateRequest: AdvancedCommerceInAppRequest, Codable, Hashable {
    /// The ISO 4217 code of the currency of the items' prices.
    ///
    /// [currency](https://developer.apple.com/documentation/advancedcommerceapi/currency)
    public var currency: String

    /// The subscription's display name and description, both required (at most 30 and 45 characters).
    ///
    /// [descriptors](https://developer.apple.com/documentation/advancedcommerceapi/descriptors)
    public var descriptors: AdvancedCommerceDescriptors

    /// The subscription's items; at least one.
    ///
    /// [SubscriptionCreateItem](https://developer.apple.com/documentation/advancedcommerceapi/subscriptioncreateitem)
    public var items: [AdvancedCommerceSubscriptionCreateItem]

    /// The duration of one billing period.
    ///
    /// [period](https://developer.apple.com/documentation/advancedcommerceapi/period)
    public var period: AdvancedCommercePeriod

    /// The transaction identifier of an earlier subscription this one replaces, if any.
    ///
    /// [transactionId](https://developer.apple.com/documentation/advancedcommerceapi/transactionid)
    public var previousTransactionId: String?

    /// The request's metadata.
    ///
    /// [RequestInfo](https://developer.apple.com/documentation/advancedcommerceapi/requestinfo)
    public var requestInfo: AdvancedCommerceRequestInfo

    /// The storefront of the purchase, such as `USA`.
    ///
    /// [storefront](https://developer.apple.com/documentation/advancedcommerceapi/storefront)
    public var storefront: String?

    /// The tax code of the subscription.
    ///
    /// [taxCode](https://developer.apple.com/documentation/advancedcommerceapi/taxcode)
    public var taxCode: String

    /// Creates the request, checking Apple's rules.
    ///
    /// - Throws: ``AdvancedCommerceValidationError``: `emptyList` when `items` is empty; `missingField` or
    ///   `stringTooLong` for the descriptors.
    public init(
        currency: String, descriptors: AdvancedCommerceDescriptors, items: [AdvancedCommerceSubscriptionCreateItem],
        period: AdvancedCommercePeriod, requestInfo: AdvancedCommerceRequestInfo, taxCode: String,
        previousTransactionId: String? = nil, storefront: String? = nil
    ) throws(AdvancedCommerceValidationError) {
        self.currency = currency
        self.descriptors = descriptors
        self.items = items
        self.period = period
        self.requestInfo = requestInfo
        self.taxCode = taxCode
        self.previousTransactionId = previousTransactionId
        self.storefront = storefront
        try validate()
    }

    static let operation = "CREATE_SUBSCRIPTION"

    enum CodingKeys: String, CodingKey {
        case currency, descriptors, items, operation, period, previousTransactionId, requestInfo, storefront, taxCode
        case version
    }

    /// Decodes the request and checks Apple's rules; `operation` and `version`, when present, must be this
    /// request's.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        try container.checkConstant(Self.operation, forKey: .operation)
        try container.checkConstant(advancedCommerceRequestVersion, forKey: .version)
        currency = try container.decode(String.self, forKey: .currency)
        descriptors = try container.decode(AdvancedCommerceDescriptors.self, forKey: .descriptors)
        items = try container.decode([AdvancedCommerceSubscriptionCreateItem].self, forKey: .items)
        period = try container.decode(AdvancedCommercePeriod.self, forKey: .period)
        previousTransactionId = try container.decodeIfPresent(String.self, forKey: .previousTransactionId)
        requestInfo = try container.decode(AdvancedCommerceRequestInfo.self, forKey: .requestInfo)
        storefront = try container.decodeIfPresent(String.self, forKey: .storefront)
        taxCode = try container.decode(String.self, forKey: .taxCode)
        try validate()
    }

    /// Checks Apple's rules, then encodes the present members with `operation` and `version`.
    public func encode(to encoder: any Encoder) throws {
        try validate()
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(currency, forKey: .currency)
        try container.encode(descriptors, forKey: .descriptors)
        try container.encode(items, forKey: .items)
        try container.encode(Self.operation, forKey: .operation)
        try container.encode(period, forKey: .period)
        try container.encodeIfPresent(previousTransactionId, forKey: .previousTransactionId)
        try container.encode(requestInfo, forKey: .requestInfo)
        try container.encodeIfPresent(storefront, forKey: .storefront)
        try container.encode(taxCode, forKey: .taxCode)
        try container.encode(advancedCommerceRequestVersion, forKey: .version)
    }

    private func validate() throws(AdvancedCommerceValidationError) {
        try AdvancedCommerceValidation.check(descriptors)
        try AdvancedCommerceValidation.checkNotEmpty(items, field: "items")
    }
}
