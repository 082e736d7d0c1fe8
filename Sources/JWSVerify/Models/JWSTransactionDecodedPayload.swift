/// A decoded transaction payload: App Store Server API, App Store Server Notifications and StoreKit JSON.
///
/// <https://developer.apple.com/documentation/appstoreserverapi/jwstransactiondecodedpayload>
public struct JWSTransactionDecodedPayload: Codable, Hashable, Sendable, JSONObjectDecodable, JSONObjectEncodable {
    /// The transaction identifier of the original purchase.
    public var originalTransactionId: String?

    /// The unique identifier of the transaction.
    public var transactionId: String?

    /// The unique identifier of subscription purchase events across devices, including renewals.
    public var webOrderLineItemId: String?

    /// The bundle identifier of the app.
    public var bundleId: String?

    /// The product identifier of the In-App Purchase.
    public var productId: String?

    /// The identifier of the subscription group to which the subscription belongs.
    public var subscriptionGroupIdentifier: String?

    /// When the App Store charged the customer's account for the purchase, restore, renewal or resubscription.
    public var purchaseDate: Timestamp?

    /// The purchase date of the original transaction.
    public var originalPurchaseDate: Timestamp?

    /// When the subscription expires or renews.
    public var expiresDate: Timestamp?

    /// The number of consumable products purchased.
    public var quantity: Int32?

    /// The type of the In-App Purchase.
    public var type: ProductType?

    /// The UUID the app set at purchase time to link the transaction to a customer of your service; kept as a string so
    /// that a malformed value doesn't fail the whole payload.
    public var appAccountToken: String?

    /// Whether the customer purchased the product or has it through Family Sharing.
    public var inAppOwnershipType: InAppOwnershipType?

    /// When the App Store signed the JWS data.
    public var signedDate: Timestamp?

    /// Why the App Store refunded the transaction or revoked it from Family Sharing.
    public var revocationReason: RevocationReason?

    /// When the App Store refunded the transaction or revoked it from Family Sharing.
    public var revocationDate: Timestamp?

    /// Whether the customer upgraded to another subscription.
    public var isUpgraded: Bool?

    /// The type of offer applied to the purchase.
    public var offerType: OfferType?

    /// The offer code or the promotional offer identifier.
    public var offerIdentifier: String?

    /// The server environment that signed the transaction.
    public var environment: Environment?

    /// The three-letter code of the country or region of the App Store storefront of the purchase.
    public var storefront: String?

    /// The Apple-defined identifier of the App Store storefront of the purchase.
    public var storefrontId: String?

    /// Whether the transaction is a customer's purchase or a renewal the system initiated.
    public var transactionReason: TransactionReason?

    /// The ISO 4217 three-letter code of the currency of `price`.
    public var currency: String?

    /// The price of the purchase or offer, in milliunits (the price multiplied by 1000).
    public var price: Int64?

    /// The payment mode of the offer applied to the purchase.
    public var offerDiscountType: OfferDiscountType?

    /// The unique identifier of the app download transaction.
    public var appTransactionId: String?

    /// The duration of the offer, as an ISO 8601 duration such as `P1Y`.
    public var offerPeriod: String?

    /// The type of refund or revocation that applies to the transaction.
    public var revocationType: RevocationType?

    /// The refunded or revoked share of the transaction, in milliunits of a percent (0 to 100000).
    public var revocationPercentage: Int32?

    /// Transaction information present only for Advanced Commerce API SKUs.
    public var advancedCommerceInfo: AdvancedCommerceTransactionInfo?

    /// How a subscription with a commitment is billed.
    public var billingPlanType: BillingPlanType?

    /// The commitment of a subscription with a commitment.
    public var commitmentInfo: TransactionCommitmentInfo?

    /// The subscription's original transaction identifier before you migrated the subscription.
    public var previousOriginalTransactionId: String?

    /// The Base64 device verification value (StoreKit transactions only).
    public var deviceVerification: String?

    /// The UUID used to compute `deviceVerification` (StoreKit transactions only).
    public var deviceVerificationNonce: String?

    /// The JSON members this type doesn't model (and known members whose value is `null`), written back
    /// by `encode(to:)` so that decoding and re-encoding loses nothing.
    public var additionalFields: [String: JSONValue]

    /// Creates a value from its fields; every field defaults to absent.
    public init(
        originalTransactionId: String? = nil,
        transactionId: String? = nil,
        webOrderLineItemId: String? = nil,
        bundleId: String? = nil,
        productId: String? = nil,
        subscriptionGroupIdentifier: String? = nil,
        purchaseDate: Timestamp? = nil,
        originalPurchaseDate: Timestamp? = nil,
        expiresDate: Timestamp? = nil,
        quantity: Int32? = nil,
        type: ProductType? = nil,
        appAccountToken: String? = nil,
        inAppOwnershipType: InAppOwnershipType? = nil,
        signedDate: Timestamp? = nil,
        revocationReason: RevocationReason? = nil,
        revocationDate: Timestamp? = nil,
        isUpgraded: Bool? = nil,
        offerType: OfferType? = nil,
        offerIdentifier: String? = nil,
        environment: Environment? = nil,
        storefront: String? = nil,
        storefrontId: String? = nil,
        transactionReason: TransactionReason? = nil,
        currency: String? = nil,
        price: Int64? = nil,
        offerDiscountType: OfferDiscountType? = nil,
        appTransactionId: String? = nil,
        offerPeriod: String? = nil,
        revocationType: RevocationType? = nil,
        revocationPercentage: Int32? = nil,
        advancedCommerceInfo: AdvancedCommerceTransactionInfo? = nil,
        billingPlanType: BillingPlanType? = nil,
        commitmentInfo: TransactionCommitmentInfo? = nil,
        previousOriginalTransactionId: String? = nil,
        deviceVerification: String? = nil,
        deviceVerificationNonce: String? = nil,
        additionalFields: [String: JSONValue] = [:]
    ) {
        self.originalTransactionId = originalTransactionId
        self.transactionId = transactionId
        self.webOrderLineItemId = webOrderLineItemId
        self.bundleId = bundleId
        self.productId = productId
        self.subscriptionGroupIdentifier = subscriptionGroupIdentifier
        self.purchaseDate = purchaseDate
        self.originalPurchaseDate = originalPurchaseDate
        self.expiresDate = expiresDate
        self.quantity = quantity
        self.type = type
        self.appAccountToken = appAccountToken
        self.inAppOwnershipType = inAppOwnershipType
        self.signedDate = signedDate
        self.revocationReason = revocationReason
        self.revocationDate = revocationDate
        self.isUpgraded = isUpgraded
        self.offerType = offerType
        self.offerIdentifier = offerIdentifier
        self.environment = environment
        self.storefront = storefront
        self.storefrontId = storefrontId
        self.transactionReason = transactionReason
        self.currency = currency
        self.price = price
        self.offerDiscountType = offerDiscountType
        self.appTransactionId = appTransactionId
        self.offerPeriod = offerPeriod
        self.revocationType = revocationType
        self.revocationPercentage = revocationPercentage
        self.advancedCommerceInfo = advancedCommerceInfo
        self.billingPlanType = billingPlanType
        self.commitmentInfo = commitmentInfo
        self.previousOriginalTransactionId = previousOriginalTransactionId
        self.deviceVerification = deviceVerification
        self.deviceVerificationNonce = deviceVerificationNonce
        self.additionalFields = additionalFields
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case originalTransactionId, transactionId, webOrderLineItemId, bundleId, productId, subscriptionGroupIdentifier,
            purchaseDate, originalPurchaseDate, expiresDate, quantity, type, appAccountToken, inAppOwnershipType,
            signedDate, revocationReason, revocationDate, isUpgraded, offerType, offerIdentifier, environment,
            storefront, storefrontId, transactionReason, currency, price, offerDiscountType, appTransactionId,
            offerPeriod, revocationType, revocationPercentage, advancedCommerceInfo, billingPlanType, commitmentInfo,
            previousOriginalTransactionId, deviceVerification, deviceVerificationNonce
    }

    /// The JSON keys of the modelled fields.
    static let jsonKeys: Set<String> = Set(CodingKeys.allCases.map(\.stringValue))

    /// Decodes from any `Decoder` by reading the same JSON tree as the verifier does.
    public init(from decoder: any Decoder) throws {
        try self.init(json: JSONObjectReader(decoder: decoder))
    }

    /// Decodes the members of a parsed JSON object (the verifier's path: no second parse, no Codable boxes).
    init(json reader: JSONObjectReader) throws {
        originalTransactionId = try reader.value("originalTransactionId")
        transactionId = try reader.value("transactionId")
        webOrderLineItemId = try reader.value("webOrderLineItemId")
        bundleId = try reader.value("bundleId")
        productId = try reader.value("productId")
        subscriptionGroupIdentifier = try reader.value("subscriptionGroupIdentifier")
        purchaseDate = try reader.value("purchaseDate")
        originalPurchaseDate = try reader.value("originalPurchaseDate")
        expiresDate = try reader.value("expiresDate")
        quantity = try reader.value("quantity")
        type = try reader.value("type")
        appAccountToken = try reader.value("appAccountToken")
        inAppOwnershipType = try reader.value("inAppOwnershipType")
        signedDate = try reader.value("signedDate")
        revocationReason = try reader.value("revocationReason")
        revocationDate = try reader.value("revocationDate")
        isUpgraded = try reader.value("isUpgraded")
        offerType = try reader.value("offerType")
        offerIdentifier = try reader.value("offerIdentifier")
        environment = try reader.value("environment")
        storefront = try reader.value("storefront")
        storefrontId = try reader.value("storefrontId")
        transactionReason = try reader.value("transactionReason")
        currency = try reader.value("currency")
        price = try reader.value("price")
        offerDiscountType = try reader.value("offerDiscountType")
        appTransactionId = try reader.value("appTransactionId")
        offerPeriod = try reader.value("offerPeriod")
        revocationType = try reader.value("revocationType")
        revocationPercentage = try reader.value("revocationPercentage")
        advancedCommerceInfo = try reader.value("advancedCommerceInfo")
        billingPlanType = try reader.value("billingPlanType")
        commitmentInfo = try reader.value("commitmentInfo")
        previousOriginalTransactionId = try reader.value("previousOriginalTransactionId")
        deviceVerification = try reader.value("deviceVerification")
        deviceVerificationNonce = try reader.value("deviceVerificationNonce")
        additionalFields = reader.additionalFields(known: Self.jsonKeys)
    }

    /// Encodes every present field, then ``additionalFields``.
    public func encode(to encoder: any Encoder) throws {
        var container = PayloadEncodingContainer<CodingKeys>(encoder)
        try container.encode(originalTransactionId, .originalTransactionId)
        try container.encode(transactionId, .transactionId)
        try container.encode(webOrderLineItemId, .webOrderLineItemId)
        try container.encode(bundleId, .bundleId)
        try container.encode(productId, .productId)
        try container.encode(subscriptionGroupIdentifier, .subscriptionGroupIdentifier)
        try container.encode(purchaseDate, .purchaseDate)
        try container.encode(originalPurchaseDate, .originalPurchaseDate)
        try container.encode(expiresDate, .expiresDate)
        try container.encode(quantity, .quantity)
        try container.encode(type, .type)
        try container.encode(appAccountToken, .appAccountToken)
        try container.encode(inAppOwnershipType, .inAppOwnershipType)
        try container.encode(signedDate, .signedDate)
        try container.encode(revocationReason, .revocationReason)
        try container.encode(revocationDate, .revocationDate)
        try container.encode(isUpgraded, .isUpgraded)
        try container.encode(offerType, .offerType)
        try container.encode(offerIdentifier, .offerIdentifier)
        try container.encode(environment, .environment)
        try container.encode(storefront, .storefront)
        try container.encode(storefrontId, .storefrontId)
        try container.encode(transactionReason, .transactionReason)
        try container.encode(currency, .currency)
        try container.encode(price, .price)
        try container.encode(offerDiscountType, .offerDiscountType)
        try container.encode(appTransactionId, .appTransactionId)
        try container.encode(offerPeriod, .offerPeriod)
        try container.encode(revocationType, .revocationType)
        try container.encode(revocationPercentage, .revocationPercentage)
        try container.encode(advancedCommerceInfo, .advancedCommerceInfo)
        try container.encode(billingPlanType, .billingPlanType)
        try container.encode(commitmentInfo, .commitmentInfo)
        try container.encode(previousOriginalTransactionId, .previousOriginalTransactionId)
        try container.encode(deviceVerification, .deviceVerification)
        try container.encode(deviceVerificationNonce, .deviceVerificationNonce)
        try container.encodeAdditionalFields(additionalFields)
    }

    /// The members `encode(to:)` writes, as a tree (no `Encoder`): ``additionalFields``, then every present field.
    package var jsonObject: [String: JSONValue] {
        var object = additionalFields
        if let originalTransactionId { object["originalTransactionId"] = originalTransactionId.jsonValue }
        if let transactionId { object["transactionId"] = transactionId.jsonValue }
        if let webOrderLineItemId { object["webOrderLineItemId"] = webOrderLineItemId.jsonValue }
        if let bundleId { object["bundleId"] = bundleId.jsonValue }
        if let productId { object["productId"] = productId.jsonValue }
        if let value = subscriptionGroupIdentifier { object["subscriptionGroupIdentifier"] = value.jsonValue }
        if let purchaseDate { object["purchaseDate"] = purchaseDate.jsonValue }
        if let originalPurchaseDate { object["originalPurchaseDate"] = originalPurchaseDate.jsonValue }
        if let expiresDate { object["expiresDate"] = expiresDate.jsonValue }
        if let quantity { object["quantity"] = quantity.jsonValue }
        if let type { object["type"] = type.jsonValue }
        if let appAccountToken { object["appAccountToken"] = appAccountToken.jsonValue }
        if let inAppOwnershipType { object["inAppOwnershipType"] = inAppOwnershipType.jsonValue }
        if let signedDate { object["signedDate"] = signedDate.jsonValue }
        if let revocationReason { object["revocationReason"] = revocationReason.jsonValue }
        if let revocationDate { object["revocationDate"] = revocationDate.jsonValue }
        if let isUpgraded { object["isUpgraded"] = isUpgraded.jsonValue }
        if let offerType { object["offerType"] = offerType.jsonValue }
        if let offerIdentifier { object["offerIdentifier"] = offerIdentifier.jsonValue }
        if let environment { object["environment"] = environment.jsonValue }
        if let storefront { object["storefront"] = storefront.jsonValue }
        if let storefrontId { object["storefrontId"] = storefrontId.jsonValue }
        if let transactionReason { object["transactionReason"] = transactionReason.jsonValue }
        if let currency { object["currency"] = currency.jsonValue }
        if let price { object["price"] = price.jsonValue }
        if let offerDiscountType { object["offerDiscountType"] = offerDiscountType.jsonValue }
        if let appTransactionId { object["appTransactionId"] = appTransactionId.jsonValue }
        if let offerPeriod { object["offerPeriod"] = offerPeriod.jsonValue }
        if let revocationType { object["revocationType"] = revocationType.jsonValue }
        if let revocationPercentage { object["revocationPercentage"] = revocationPercentage.jsonValue }
        if let advancedCommerceInfo { object["advancedCommerceInfo"] = advancedCommerceInfo.jsonValue }
        if let billingPlanType { object["billingPlanType"] = billingPlanType.jsonValue }
        if let commitmentInfo { object["commitmentInfo"] = commitmentInfo.jsonValue }
        if let value = previousOriginalTransactionId { object["previousOriginalTransactionId"] = value.jsonValue }
        if let deviceVerification { object["deviceVerification"] = deviceVerification.jsonValue }
        if let deviceVerificationNonce { object["deviceVerificationNonce"] = deviceVerificationNonce.jsonValue }
        return object
    }
}
