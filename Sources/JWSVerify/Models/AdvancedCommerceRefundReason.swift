/// The reason for an Advanced Commerce refund.
///
/// <https://developer.apple.com/documentation/appstoreserverapi/advancedcommercerefundreason>
///
/// A value this version doesn't know decodes and encodes unchanged; its ``name`` is `nil`.
public struct AdvancedCommerceRefundReason: AppStoreEnumeration {
    /// The raw JSON value.
    public let rawValue: String

    /// Wraps a raw JSON value, documented or not.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// The name of the Swift constant for a documented value, `nil` for a value this version doesn't know.
    public var name: String? { constantName }

    /// The raw JSON value as a tree.
    package var jsonValue: JSONValue { rawValue.jsonValue }

    /// `UNINTENDED_PURCHASE`: The customer didn't intend to make the purchase.
    public static let unintendedPurchase = AdvancedCommerceRefundReason(rawValue: "UNINTENDED_PURCHASE")
    /// `FULFILLMENT_ISSUE`: The customer had issues receiving or using the product.
    public static let fulfillmentIssue = AdvancedCommerceRefundReason(rawValue: "FULFILLMENT_ISSUE")
    /// `UNSATISFIED_WITH_PURCHASE`: The customer wasn't satisfied with the product.
    public static let unsatisfiedWithPurchase = AdvancedCommerceRefundReason(rawValue: "UNSATISFIED_WITH_PURCHASE")
    /// `LEGAL`: A legal reason.
    public static let legal = AdvancedCommerceRefundReason(rawValue: "LEGAL")
    /// `OTHER`: Another reason.
    public static let other = AdvancedCommerceRefundReason(rawValue: "OTHER")
    /// `MODIFY_ITEMS_REFUND`: A refund for items removed or changed in a modification.
    public static let modifyItemsRefund = AdvancedCommerceRefundReason(rawValue: "MODIFY_ITEMS_REFUND")
    /// `SIMULATE_REFUND_DECLINE`: A sandbox request that simulates a declined refund.
    public static let simulateRefundDecline = AdvancedCommerceRefundReason(rawValue: "SIMULATE_REFUND_DECLINE")

    static let constantNames: [String: String] = [
        "UNINTENDED_PURCHASE": "unintendedPurchase",
        "FULFILLMENT_ISSUE": "fulfillmentIssue",
        "UNSATISFIED_WITH_PURCHASE": "unsatisfiedWithPurchase",
        "LEGAL": "legal",
        "OTHER": "other",
        "MODIFY_ITEMS_REFUND": "modifyItemsRefund",
        "SIMULATE_REFUND_DECLINE": "simulateRefundDecline",
    ]
}
