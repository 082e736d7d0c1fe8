/// A decoded renewal information payload of an auto-renewable subscription.
///
/// <https://developer.apple.com/documentation/appstoreserverapi/jwsrenewalinfodecodedpayload>
public struct JWSRenewalInfoDecodedPayload: Codable, Hashable, Sendable, JSONObjectDecodable, JSONObjectEncodable {
    /// The reason the subscription expired.
    public var expirationIntent: ExpirationIntent?

    /// The transaction identifier of the original purchase.
    public var originalTransactionId: String?

    /// The product identifier of the product that renews at the next period.
    public var autoRenewProductId: String?

    /// The product identifier of the In-App Purchase.
    public var productId: String?

    /// Whether the subscription renews automatically.
    public var autoRenewStatus: AutoRenewStatus?

    /// Whether the App Store is trying to automatically renew the expired subscription.
    public var isInBillingRetryPeriod: Bool?

    /// Whether the customer responded to a subscription price increase.
    public var priceIncreaseStatus: PriceIncreaseStatus?

    /// When the billing grace period for renewals expires.
    public var gracePeriodExpiresDate: Timestamp?

    /// The type of offer applied to the renewal.
    public var offerType: OfferType?

    /// The offer code or the promotional offer identifier.
    public var offerIdentifier: String?

    /// When the App Store signed the JWS data.
    public var signedDate: Timestamp?

    /// The server environment that signed the renewal information.
    public var environment: Environment?

    /// The earliest start date of the subscription in a series that ignores lapses of 60 days or fewer.
    public var recentSubscriptionStartDate: Timestamp?

    /// When the most recent auto-renewable subscription purchase expires.
    public var renewalDate: Timestamp?

    /// The ISO 4217 three-letter code of the currency of `renewalPrice`.
    public var currency: String?

    /// The price at the next renewal, in milliunits (the price multiplied by 1000).
    public var renewalPrice: Int64?

    /// The payment mode of the discount offer.
    public var offerDiscountType: OfferDiscountType?

    /// The win-back offer identifiers the customer is eligible for, best offers first.
    public var eligibleWinBackOfferIds: [String]?

    /// The UUID that links the upcoming renewal to a customer of your service; kept as a string.
    public var appAccountToken: String?

    /// The unique identifier of the app download transaction.
    public var appTransactionId: String?

    /// The duration of the offer, as an ISO 8601 duration such as `P1Y`.
    public var offerPeriod: String?

    /// Renewal information present only for Advanced Commerce API SKUs.
    public var advancedCommerceInfo: AdvancedCommerceRenewalInfo?

    /// The renewal of a subscription with a commitment.
    public var commitmentInfo: RenewalCommitmentInfo?

    /// How a subscription with a commitment will be billed when it renews.
    public var renewalBillingPlanType: RenewalBillingPlanType?

    /// The Base64 device verification value (StoreKit renewal information only).
    public var deviceVerification: String?

    /// The UUID used to compute `deviceVerification` (StoreKit renewal information only).
    public var deviceVerificationNonce: String?

    /// The JSON members this type doesn't model (and known members whose value is `null`), written back
    /// by `encode(to:)` so that decoding and re-encoding loses nothing.
    public var additionalFields: [String: JSONValue]

    /// Creates a value from its fields; every field defaults to absent.
    public init(
        expirationIntent: ExpirationIntent? = nil,
        originalTransactionId: String? = nil,
        autoRenewProductId: String? = nil,
        productId: String? = nil,
        autoRenewStatus: AutoRenewStatus? = nil,
        isInBillingRetryPeriod: Bool? = nil,
        priceIncreaseStatus: PriceIncreaseStatus? = nil,
        gracePeriodExpiresDate: Timestamp? = nil,
        offerType: OfferType? = nil,
        offerIdentifier: String? = nil,
        signedDate: Timestamp? = nil,
        environment: Environment? = nil,
        recentSubscriptionStartDate: Timestamp? = nil,
        renewalDate: Timestamp? = nil,
        currency: String? = nil,
        renewalPrice: Int64? = nil,
        offerDiscountType: OfferDiscountType? = nil,
        eligibleWinBackOfferIds: [String]? = nil,
        appAccountToken: String? = nil,
        appTransactionId: String? = nil,
        offerPeriod: String? = nil,
        advancedCommerceInfo: AdvancedCommerceRenewalInfo? = nil,
        commitmentInfo: RenewalCommitmentInfo? = nil,
        renewalBillingPlanType: RenewalBillingPlanType? = nil,
        deviceVerification: String? = nil,
        deviceVerificationNonce: String? = nil,
        additionalFields: [String: JSONValue] = [:]
    ) {
        self.expirationIntent = expirationIntent
        self.originalTransactionId = originalTransactionId
        self.autoRenewProductId = autoRenewProductId
        self.productId = productId
        self.autoRenewStatus = autoRenewStatus
        self.isInBillingRetryPeriod = isInBillingRetryPeriod
        self.priceIncreaseStatus = priceIncreaseStatus
        self.gracePeriodExpiresDate = gracePeriodExpiresDate
        self.offerType = offerType
        self.offerIdentifier = offerIdentifier
        self.signedDate = signedDate
        self.environment = environment
        self.recentSubscriptionStartDate = recentSubscriptionStartDate
        self.renewalDate = renewalDate
        self.currency = currency
        self.renewalPrice = renewalPrice
        self.offerDiscountType = offerDiscountType
        self.eligibleWinBackOfferIds = eligibleWinBackOfferIds
        self.appAccountToken = appAccountToken
        self.appTransactionId = appTransactionId
        self.offerPeriod = offerPeriod
        self.advancedCommerceInfo = advancedCommerceInfo
        self.commitmentInfo = commitmentInfo
        self.renewalBillingPlanType = renewalBillingPlanType
        self.deviceVerification = deviceVerification
        self.deviceVerificationNonce = deviceVerificationNonce
        self.additionalFields = additionalFields
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case expirationIntent, originalTransactionId, autoRenewProductId, productId, autoRenewStatus,
            isInBillingRetryPeriod, priceIncreaseStatus, gracePeriodExpiresDate, offerType, offerIdentifier,
            signedDate, environment, recentSubscriptionStartDate, renewalDate, currency, renewalPrice,
            offerDiscountType, eligibleWinBackOfferIds, appAccountToken, appTransactionId, offerPeriod,
            advancedCommerceInfo, commitmentInfo, renewalBillingPlanType, deviceVerification, deviceVerificationNonce
    }

    /// The JSON keys of the modelled fields.
    static let jsonKeys: Set<String> = Set(CodingKeys.allCases.map(\.stringValue))

    /// Decodes from any `Decoder` by reading the same JSON tree as the verifier does.
    public init(from decoder: any Decoder) throws {
        try self.init(json: JSONObjectReader(decoder: decoder))
    }

    /// Decodes the members of a parsed JSON object (the verifier's path: no second parse, no Codable boxes).
    init(json reader: JSONObjectReader) throws {
        expirationIntent = try reader.value("expirationIntent")
        originalTransactionId = try reader.value("originalTransactionId")
        autoRenewProductId = try reader.value("autoRenewProductId")
        productId = try reader.value("productId")
        autoRenewStatus = try reader.value("autoRenewStatus")
        isInBillingRetryPeriod = try reader.value("isInBillingRetryPeriod")
        priceIncreaseStatus = try reader.value("priceIncreaseStatus")
        gracePeriodExpiresDate = try reader.value("gracePeriodExpiresDate")
        offerType = try reader.value("offerType")
        offerIdentifier = try reader.value("offerIdentifier")
        signedDate = try reader.value("signedDate")
        environment = try reader.value("environment")
        recentSubscriptionStartDate = try reader.value("recentSubscriptionStartDate")
        renewalDate = try reader.value("renewalDate")
        currency = try reader.value("currency")
        renewalPrice = try reader.value("renewalPrice")
        offerDiscountType = try reader.value("offerDiscountType")
        eligibleWinBackOfferIds = try reader.value("eligibleWinBackOfferIds")
        appAccountToken = try reader.value("appAccountToken")
        appTransactionId = try reader.value("appTransactionId")
        offerPeriod = try reader.value("offerPeriod")
        advancedCommerceInfo = try reader.value("advancedCommerceInfo")
        commitmentInfo = try reader.value("commitmentInfo")
        renewalBillingPlanType = try reader.value("renewalBillingPlanType")
        deviceVerification = try reader.value("deviceVerification")
        deviceVerificationNonce = try reader.value("deviceVerificationNonce")
        additionalFields = reader.additionalFields(known: Self.jsonKeys)
    }

    /// Encodes every present field, then ``additionalFields``.
    public func encode(to encoder: any Encoder) throws {
        var container = PayloadEncodingContainer<CodingKeys>(encoder)
        try container.encode(expirationIntent, .expirationIntent)
        try container.encode(originalTransactionId, .originalTransactionId)
        try container.encode(autoRenewProductId, .autoRenewProductId)
        try container.encode(productId, .productId)
        try container.encode(autoRenewStatus, .autoRenewStatus)
        try container.encode(isInBillingRetryPeriod, .isInBillingRetryPeriod)
        try container.encode(priceIncreaseStatus, .priceIncreaseStatus)
        try container.encode(gracePeriodExpiresDate, .gracePeriodExpiresDate)
        try container.encode(offerType, .offerType)
        try container.encode(offerIdentifier, .offerIdentifier)
        try container.encode(signedDate, .signedDate)
        try container.encode(environment, .environment)
        try container.encode(recentSubscriptionStartDate, .recentSubscriptionStartDate)
        try container.encode(renewalDate, .renewalDate)
        try container.encode(currency, .currency)
        try container.encode(renewalPrice, .renewalPrice)
        try container.encode(offerDiscountType, .offerDiscountType)
        try container.encode(eligibleWinBackOfferIds, .eligibleWinBackOfferIds)
        try container.encode(appAccountToken, .appAccountToken)
        try container.encode(appTransactionId, .appTransactionId)
        try container.encode(offerPeriod, .offerPeriod)
        try container.encode(advancedCommerceInfo, .advancedCommerceInfo)
        try container.encode(commitmentInfo, .commitmentInfo)
        try container.encode(renewalBillingPlanType, .renewalBillingPlanType)
        try container.encode(deviceVerification, .deviceVerification)
        try container.encode(deviceVerificationNonce, .deviceVerificationNonce)
        try container.encodeAdditionalFields(additionalFields)
    }

    /// The members `encode(to:)` writes, as a tree (no `Encoder`): ``additionalFields``, then every present field.
    package var jsonObject: [String: JSONValue] {
        var object = additionalFields
        if let expirationIntent { object["expirationIntent"] = expirationIntent.jsonValue }
        if let originalTransactionId { object["originalTransactionId"] = originalTransactionId.jsonValue }
        if let autoRenewProductId { object["autoRenewProductId"] = autoRenewProductId.jsonValue }
        if let productId { object["productId"] = productId.jsonValue }
        if let autoRenewStatus { object["autoRenewStatus"] = autoRenewStatus.jsonValue }
        if let isInBillingRetryPeriod { object["isInBillingRetryPeriod"] = isInBillingRetryPeriod.jsonValue }
        if let priceIncreaseStatus { object["priceIncreaseStatus"] = priceIncreaseStatus.jsonValue }
        if let gracePeriodExpiresDate { object["gracePeriodExpiresDate"] = gracePeriodExpiresDate.jsonValue }
        if let offerType { object["offerType"] = offerType.jsonValue }
        if let offerIdentifier { object["offerIdentifier"] = offerIdentifier.jsonValue }
        if let signedDate { object["signedDate"] = signedDate.jsonValue }
        if let environment { object["environment"] = environment.jsonValue }
        if let value = recentSubscriptionStartDate { object["recentSubscriptionStartDate"] = value.jsonValue }
        if let renewalDate { object["renewalDate"] = renewalDate.jsonValue }
        if let currency { object["currency"] = currency.jsonValue }
        if let renewalPrice { object["renewalPrice"] = renewalPrice.jsonValue }
        if let offerDiscountType { object["offerDiscountType"] = offerDiscountType.jsonValue }
        if let eligibleWinBackOfferIds { object["eligibleWinBackOfferIds"] = eligibleWinBackOfferIds.jsonValue }
        if let appAccountToken { object["appAccountToken"] = appAccountToken.jsonValue }
        if let appTransactionId { object["appTransactionId"] = appTransactionId.jsonValue }
        if let offerPeriod { object["offerPeriod"] = offerPeriod.jsonValue }
        if let advancedCommerceInfo { object["advancedCommerceInfo"] = advancedCommerceInfo.jsonValue }
        if let commitmentInfo { object["commitmentInfo"] = commitmentInfo.jsonValue }
        if let renewalBillingPlanType { object["renewalBillingPlanType"] = renewalBillingPlanType.jsonValue }
        if let deviceVerification { object["deviceVerification"] = deviceVerification.jsonValue }
        if let deviceVerificationNonce { object["deviceVerificationNonce"] = deviceVerificationNonce.jsonValue }
        return object
    }
}
