import Foundation

/// One in-app purchase of an app receipt (StoreKit 1): the value of one attribute 17, itself a set of attributes.
///
/// Each property is one attribute of Apple's archived Receipt Validation Programming Guide ("Receipt Fields",
/// In-App Purchase Receipt Fields), `nil` when the receipt doesn't carry it. A date attribute that is present but
/// empty (Apple writes an empty 1708 for a purchase that is not a subscription) is `nil` too. Attributes this
/// version doesn't know are kept in ``unknownAttributes``.
///
/// JSON (`Codable`): the shape of an element of the old `verifyReceipt` response's `receipt.in_app` array
/// (`responseBody.Receipt.In_app`), so that code written for that response reads it unchanged: `quantity`,
/// `product_id`, `transaction_id`, `original_transaction_id`, `purchase_date` (with `_ms` and `_pst`),
/// `original_purchase_date…`, `expires_date…`, `web_order_line_item_id`, `cancellation_date…`, `is_trial_period`,
/// `is_in_intro_offer_period`, `promotional_offer_id`, every value a string (`"1"`, `"1588789729000"`,
/// `"2020-05-06 18:28:49 Etc/GMT"`, `"2020-05-06 11:28:49 America/Los_Angeles"`, `"false"`). What
/// `verifyReceipt` never wrote comes under keys starting `asn1_`: `asn1_product_type` (attribute 1707, a decimal
/// string) and `asn1_unknown_attributes` (an array of ``ReceiptAttribute``). Absent values write no member;
/// decoding reads a date from its `_ms` member alone. Dates keep whole milliseconds through JSON.
public struct InAppPurchaseReceipt: Codable, Hashable, Sendable {
    /// Attribute 1701 (INTEGER): the number of items purchased.
    public var quantity: Int64?

    /// Attribute 1702 (UTF8String): the product identifier of the item that was purchased.
    public var productId: String?

    /// Attribute 1703 (UTF8String): the transaction identifier of the purchase (`0` in Xcode receipts).
    public var transactionId: String?

    /// Attribute 1705 (UTF8String): for a restored purchase or a renewal, the identifier of the original
    /// transaction; otherwise the same as ``transactionId``.
    public var originalTransactionId: String?

    /// Attribute 1704 (IA5String, RFC 3339): when the item was purchased (for a renewal, when it renewed).
    public var purchaseDate: Date?

    /// Attribute 1706 (IA5String, RFC 3339): for a restored purchase, the date of the original transaction.
    public var originalPurchaseDate: Date?

    /// Attribute 1707 (INTEGER): the kind of product, as Apple's receipts write it but the guide doesn't document.
    ///
    /// Receipts written by the App Store show 1 for consumable products and 3 for auto-renewable subscriptions;
    /// public parsers read 0 as non-consumable and 2 as non-renewing subscription. Kept as the raw number.
    public var productType: Int64?

    /// Attribute 1708 (IA5String, RFC 3339): when the subscription expires or renews (`expires_date`).
    public var expiresDate: Date?

    /// Attribute 1711 (INTEGER): the primary key for identifying subscription purchases (0 for other products).
    public var webOrderLineItemId: Int64?

    /// Attribute 1712 (IA5String, RFC 3339): when Apple customer support canceled the transaction, or the
    /// subscription was upgraded.
    public var cancellationDate: Date?

    /// Attribute 1713 (INTEGER 0 or 1): whether the subscription is in its free trial period.
    public var isTrialPeriod: Bool?

    /// Attribute 1719 (INTEGER 0 or 1): whether the subscription is in an introductory price period.
    public var isInIntroOfferPeriod: Bool?

    /// Attribute 1721 (UTF8String): the identifier of the subscription offer the customer redeemed.
    public var promotionalOfferId: String?

    /// Every attribute of the purchase this version doesn't know, in the receipt's order.
    public var unknownAttributes: [ReceiptAttribute]

    /// Creates an in-app purchase receipt; every field is optional.
    ///
    /// - Parameters: one per property, each described there.
    public init(
        quantity: Int64? = nil,
        productId: String? = nil,
        transactionId: String? = nil,
        originalTransactionId: String? = nil,
        purchaseDate: Date? = nil,
        originalPurchaseDate: Date? = nil,
        productType: Int64? = nil,
        expiresDate: Date? = nil,
        webOrderLineItemId: Int64? = nil,
        cancellationDate: Date? = nil,
        isTrialPeriod: Bool? = nil,
        isInIntroOfferPeriod: Bool? = nil,
        promotionalOfferId: String? = nil,
        unknownAttributes: [ReceiptAttribute] = []
    ) {
        self.quantity = quantity
        self.productId = productId
        self.transactionId = transactionId
        self.originalTransactionId = originalTransactionId
        self.purchaseDate = purchaseDate
        self.originalPurchaseDate = originalPurchaseDate
        self.productType = productType
        self.expiresDate = expiresDate
        self.webOrderLineItemId = webOrderLineItemId
        self.cancellationDate = cancellationDate
        self.isTrialPeriod = isTrialPeriod
        self.isInIntroOfferPeriod = isInIntroOfferPeriod
        self.promotionalOfferId = promotionalOfferId
        self.unknownAttributes = unknownAttributes
    }

    /// Decodes the `verifyReceipt` shape described in the type's discussion.
    ///
    /// - Throws: `DecodingError` when a member has the wrong JSON type, or its string is not a decimal integer,
    ///   `"true"`/`"false"`, milliseconds or base64 where one is due.
    public init(from decoder: any Decoder) throws {
        let json = try decoder.container(keyedBy: ReceiptJSONKey.self)
        quantity = try json.receiptInteger("quantity")
        productId = try json.receiptString("product_id")
        transactionId = try json.receiptString("transaction_id")
        originalTransactionId = try json.receiptString("original_transaction_id")
        purchaseDate = try json.receiptDate("purchase_date")
        originalPurchaseDate = try json.receiptDate("original_purchase_date")
        productType = try json.receiptInteger("asn1_product_type")
        expiresDate = try json.receiptDate("expires_date")
        webOrderLineItemId = try json.receiptInteger("web_order_line_item_id")
        cancellationDate = try json.receiptDate("cancellation_date")
        isTrialPeriod = try json.receiptFlag("is_trial_period")
        isInIntroOfferPeriod = try json.receiptFlag("is_in_intro_offer_period")
        promotionalOfferId = try json.receiptString("promotional_offer_id")
        unknownAttributes =
            try json.decodeIfPresent([ReceiptAttribute].self, forKey: ReceiptJSONKey("asn1_unknown_attributes")) ?? []
    }

    /// Encodes the `verifyReceipt` shape described in the type's discussion.
    ///
    /// - Throws: `EncodingError.invalidValue` for a date outside the years 0 to 9999.
    public func encode(to encoder: any Encoder) throws {
        var json = encoder.container(keyedBy: ReceiptJSONKey.self)
        try json.encodeReceipt(integer: quantity, "quantity")
        try json.encodeReceipt(string: productId, "product_id")
        try json.encodeReceipt(string: transactionId, "transaction_id")
        try json.encodeReceipt(string: originalTransactionId, "original_transaction_id")
        try json.encodeReceipt(date: purchaseDate, "purchase_date")
        try json.encodeReceipt(date: originalPurchaseDate, "original_purchase_date")
        try json.encodeReceipt(integer: productType, "asn1_product_type")
        try json.encodeReceipt(date: expiresDate, "expires_date")
        try json.encodeReceipt(integer: webOrderLineItemId, "web_order_line_item_id")
        try json.encodeReceipt(date: cancellationDate, "cancellation_date")
        try json.encodeReceipt(flag: isTrialPeriod, "is_trial_period")
        try json.encodeReceipt(flag: isInIntroOfferPeriod, "is_in_intro_offer_period")
        try json.encodeReceipt(string: promotionalOfferId, "promotional_offer_id")
        if !unknownAttributes.isEmpty {
            try json.encode(unknownAttributes, forKey: ReceiptJSONKey("asn1_unknown_attributes"))
        }
    }
}
