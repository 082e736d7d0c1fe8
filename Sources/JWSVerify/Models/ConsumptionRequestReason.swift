/// The reason the customer gave when requesting a refund.
///
/// <https://developer.apple.com/documentation/appstoreservernotifications/consumptionrequestreason>
///
/// A value this version doesn't know decodes and encodes unchanged; its ``name`` is `nil`.
public struct ConsumptionRequestReason: AppStoreEnumeration {
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
    public static let unintendedPurchase = ConsumptionRequestReason(rawValue: "UNINTENDED_PURCHASE")
    /// `FULFILLMENT_ISSUE`: The customer had issues receiving or using the product.
    public static let fulfillmentIssue = ConsumptionRequestReason(rawValue: "FULFILLMENT_ISSUE")
    /// `UNSATISFIED_WITH_PURCHASE`: The customer wasn't satisfied with the product.
    public static let unsatisfiedWithPurchase = ConsumptionRequestReason(rawValue: "UNSATISFIED_WITH_PURCHASE")
    /// `LEGAL`: A legal reason.
    public static let legal = ConsumptionRequestReason(rawValue: "LEGAL")
    /// `OTHER`: Another reason.
    public static let other = ConsumptionRequestReason(rawValue: "OTHER")

    static let constantNames: [String: String] = [
        "UNINTENDED_PURCHASE": "unintendedPurchase",
        "FULFILLMENT_ISSUE": "fulfillmentIssue",
        "UNSATISFIED_WITH_PURCHASE": "unsatisfiedWithPurchase",
        "LEGAL": "legal",
        "OTHER": "other",
    ]
}
