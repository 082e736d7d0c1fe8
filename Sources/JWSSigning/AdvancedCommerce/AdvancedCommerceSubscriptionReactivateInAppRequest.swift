/// An in-app request to reactivate an auto-renewable subscription, or some of its items.
///
/// Its JSON carries `"operation": "REACTIVATE_SUBSCRIPTION"` and `"version": "1"` besides the members below, as
/// Apple's libraries write it. Sign it with ``AdvancedCommerceInAppSignatureCreator``.
///
/// [SubscriptionReactivateInAppRequest](https://developer.apple.com/documentation/advancedcommerceapi/subscriptionreactivateinapprequest)
public struct AdvancedCommerceSubscriptionReactivateInAppRequest: AdvancedCommerceInAppRequest, Codable, Hashable {
    /// The items to reactivate; all of them when absent.
    ///
    /// [SubscriptionReactivateItem](https://developer.apple.com/documentation/advancedcommerceapi/subscriptionreactivateitem)
    public var items: [AdvancedCommerceSubscriptionReactivateItem]?

    /// The request's metadata.
    ///
    /// [RequestInfo](https://developer.apple.com/documentation/advancedcommerceapi/requestinfo)
    public var requestInfo: AdvancedCommerceRequestInfo

    /// The storefront of the purchase, such as `USA`.
    ///
    /// [storefront](https://developer.apple.com/documentation/advancedcommerceapi/storefront)
    public var storefront: String?

    /// The transaction identifier of the subscription to reactivate.
    ///
    /// [transactionId](https://developer.apple.com/documentation/appstoreserverapi/transactionid)
    public var transactionId: String

    /// Creates the request.
    public init(
        requestInfo: AdvancedCommerceRequestInfo, transactionId: String,
        items: [AdvancedCommerceSubscriptionReactivateItem]? = nil, storefront: String? = nil
    ) {
        self.requestInfo = requestInfo
        self.transactionId = transactionId
        self.items = items
        self.storefront = storefront
    }

    static let operation = "REACTIVATE_SUBSCRIPTION"

    enum CodingKeys: String, CodingKey {
        case items, operation, requestInfo, storefront, transactionId, version
    }

    /// Decodes the request; `operation` and `version`, when present, must be this request's.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        try container.checkConstant(Self.operation, forKey: .operation)
        try container.checkConstant(advancedCommerceRequestVersion, forKey: .version)
        items = try container.decodeIfPresent([AdvancedCommerceSubscriptionReactivateItem].self, forKey: .items)
        requestInfo = try container.decode(AdvancedCommerceRequestInfo.self, forKey: .requestInfo)
        storefront = try container.decodeIfPresent(String.self, forKey: .storefront)
        transactionId = try container.decode(String.self, forKey: .transactionId)
    }

    /// Encodes the present members with `operation` and `version`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(items, forKey: .items)
        try container.encode(Self.operation, forKey: .operation)
        try container.encode(requestInfo, forKey: .requestInfo)
        try container.encodeIfPresent(storefront, forKey: .storefront)
        try container.encode(transactionId, forKey: .transactionId)
        try container.encode(advancedCommerceRequestVersion, forKey: .version)
    }
}
