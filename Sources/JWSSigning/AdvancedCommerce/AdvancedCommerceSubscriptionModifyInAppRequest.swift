/// An in-app request to change an auto-renewable subscription: add, change or remove items, and change its
/// descriptors, period, currency or tax code.
///
/// Its JSON carries `"operation": "MODIFY_SUBSCRIPTION"` and `"version": "1"` besides the members below, as Apple's
/// libraries write it. Sign it with ``AdvancedCommerceInAppSignatureCreator``.
///
/// [SubscriptionModifyInAppRequest](https://developer.apple.com/documentation/advancedcommerceapi/subscriptionmodifyinapprequest)
public struct AdvancedCommerceSubscriptionModifyInAppRequest: AdvancedCommerceInAppRequest, Codable, Hashable {
    /// Items to add; when present, at least one.
    ///
    /// [SubscriptionModifyAddItem](https://developer.apple.com/documentation/advancedcommerceapi/subscriptionmodifyadditem)
    public var addItems: [AdvancedCommerceSubscriptionModifyAddItem]?

    /// Items to replace; when present, at least one.
    ///
    /// [SubscriptionModifyChangeItem](https://developer.apple.com/documentation/advancedcommerceapi/subscriptionmodifychangeitem)
    public var changeItems: [AdvancedCommerceSubscriptionModifyChangeItem]?

    /// The ISO 4217 code of the currency of the new prices.
    ///
    /// [currency](https://developer.apple.com/documentation/advancedcommerceapi/currency)
    public var currency: String?

    /// New descriptors of the subscription.
    ///
    /// [SubscriptionModifyDescriptors](https://developer.apple.com/documentation/advancedcommerceapi/subscriptionmodifydescriptors)
    public var descriptors: AdvancedCommerceSubscriptionModifyDescriptors?

    /// A new billing period.
    ///
    /// [SubscriptionModifyPeriodChange](https://developer.apple.com/documentation/advancedcommerceapi/subscriptionmodifyperiodchange)
    public var periodChange: AdvancedCommerceSubscriptionModifyPeriodChange?

    /// Items to remove; when present, at least one.
    ///
    /// [SubscriptionModifyRemoveItem](https://developer.apple.com/documentation/advancedcommerceapi/subscriptionmodifyremoveitem)
    public var removeItems: [AdvancedCommerceSubscriptionModifyRemoveItem]?

    /// The request's metadata.
    ///
    /// [RequestInfo](https://developer.apple.com/documentation/advancedcommerceapi/requestinfo)
    public var requestInfo: AdvancedCommerceRequestInfo

    /// Whether the subscription keeps its billing cycle.
    ///
    /// [retainBillingCycle](https://developer.apple.com/documentation/advancedcommerceapi/retainbillingcycle)
    public var retainBillingCycle: Bool

    /// The storefront of the purchase, such as `USA`.
    ///
    /// [storefront](https://developer.apple.com/documentation/advancedcommerceapi/storefront)
    public var storefront: String?

    /// The new tax code of the subscription.
    ///
    /// [taxCode](https://developer.apple.com/documentation/advancedcommerceapi/taxcode)
    public var taxCode: String?

    /// The transaction identifier of the subscription to change.
    ///
    /// [transactionId](https://developer.apple.com/documentation/advancedcommerceapi/transactionid)
    public var transactionId: String

    /// Creates the request, checking Apple's rules.
    ///
    /// - Throws: ``AdvancedCommerceValidationError/Code-swift.struct/emptyList`` when a list of items is present
    ///   and empty.
    public init(
        requestInfo: AdvancedCommerceRequestInfo, transactionId: String, retainBillingCycle: Bool,
        addItems: [AdvancedCommerceSubscriptionModifyAddItem]? = nil,
        changeItems: [AdvancedCommerceSubscriptionModifyChangeItem]? = nil, currency: String? = nil,
        descriptors: AdvancedCommerceSubscriptionModifyDescriptors? = nil,
        periodChange: AdvancedCommerceSubscriptionModifyPeriodChange? = nil,
        removeItems: [AdvancedCommerceSubscriptionModifyRemoveItem]? = nil, storefront: String? = nil,
        taxCode: String? = nil
    ) throws(AdvancedCommerceValidationError) {
        self.requestInfo = requestInfo
        self.transactionId = transactionId
        self.retainBillingCycle = retainBillingCycle
        self.addItems = addItems
        self.changeItems = changeItems
        self.currency = currency
        self.descriptors = descriptors
        self.periodChange = periodChange
        self.removeItems = removeItems
        self.storefront = storefront
        self.taxCode = taxCode
        try validate()
    }

    static let operation = "MODIFY_SUBSCRIPTION"

    enum CodingKeys: String, CodingKey {
        case addItems, changeItems, currency, descriptors, operation, periodChange, removeItems, requestInfo
        case retainBillingCycle, storefront, taxCode, transactionId, version
    }

    /// Decodes the request and checks Apple's rules; `operation` and `version`, when present, must be this
    /// request's.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        try container.checkConstant(Self.operation, forKey: .operation)
        try container.checkConstant(advancedCommerceRequestVersion, forKey: .version)
        addItems = try container.decodeIfPresent([AdvancedCommerceSubscriptionModifyAddItem].self, forKey: .addItems)
        changeItems = try container.decodeIfPresent(
            [AdvancedCommerceSubscriptionModifyChangeItem].self, forKey: .changeItems)
        currency = try container.decodeIfPresent(String.self, forKey: .currency)
        descriptors = try container.decodeIfPresent(
            AdvancedCommerceSubscriptionModifyDescriptors.self, forKey: .descriptors)
        periodChange = try container.decodeIfPresent(
            AdvancedCommerceSubscriptionModifyPeriodChange.self, forKey: .periodChange)
        removeItems = try container.decodeIfPresent(
            [AdvancedCommerceSubscriptionModifyRemoveItem].self, forKey: .removeItems)
        requestInfo = try container.decode(AdvancedCommerceRequestInfo.self, forKey: .requestInfo)
        retainBillingCycle = try container.decode(Bool.self, forKey: .retainBillingCycle)
        storefront = try container.decodeIfPresent(String.self, forKey: .storefront)
        taxCode = try container.decodeIfPresent(String.self, forKey: .taxCode)
        transactionId = try container.decode(String.self, forKey: .transactionId)
        try validate()
    }

    /// Checks Apple's rules, then encodes the present members with `operation` and `version`.
    public func encode(to encoder: any Encoder) throws {
        try validate()
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(addItems, forKey: .addItems)
        try container.encodeIfPresent(changeItems, forKey: .changeItems)
        try container.encodeIfPresent(currency, forKey: .currency)
        try container.encodeIfPresent(descriptors, forKey: .descriptors)
        try container.encode(Self.operation, forKey: .operation)
        try container.encodeIfPresent(periodChange, forKey: .periodChange)
        try container.encodeIfPresent(removeItems, forKey: .removeItems)
        try container.encode(requestInfo, forKey: .requestInfo)
        try container.encode(retainBillingCycle, forKey: .retainBillingCycle)
        try container.encodeIfPresent(storefront, forKey: .storefront)
        try container.encodeIfPresent(taxCode, forKey: .taxCode)
        try container.encode(transactionId, forKey: .transactionId)
        try container.encode(advancedCommerceRequestVersion, forKey: .version)
    }

    private func validate() throws(AdvancedCommerceValidationError) {
        try AdvancedCommerceValidation.checkNotEmpty(addItems, field: "addItems")
        try AdvancedCommerceValidation.checkNotEmpty(changeItems, field: "changeItems")
        try AdvancedCommerceValidation.checkNotEmpty(removeItems, field: "removeItems")
    }
}
