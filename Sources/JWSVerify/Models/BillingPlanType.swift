/// How a subscription with a commitment is billed (transaction `billingPlanType`).
///
/// [billingPlanType](https://developer.apple.com/documentation/appstoreserverapi/billingplantype)
///
/// A value this version doesn't know decodes and encodes unchanged; its ``name`` is `nil`.
public struct BillingPlanType: AppStoreEnumeration {
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

    /// `BILLED_UPFRONT`: Billed once for the whole commitment.
    public static let billedUpfront = BillingPlanType(rawValue: "BILLED_UPFRONT")
    /// `MONTHLY`: Billed monthly during the commitment.
    public static let monthly = BillingPlanType(rawValue: "MONTHLY")

    static let constantNames: [String: String] = [
        "BILLED_UPFRONT": "billedUpfront",
        "MONTHLY": "monthly",
    ]
}
