/// How a subscription with a commitment will be billed when it renews.
///
/// [renewalBillingPlanType](https://developer.apple.com/documentation/appstoreserverapi/renewalbillingplantype)
///
/// A value this version doesn't know decodes and encodes unchanged; its ``name`` is `nil`.
public struct RenewalBillingPlanType: AppStoreEnumeration {
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
    public static let billedUpfront = RenewalBillingPlanType(rawValue: "BILLED_UPFRONT")
    /// `MONTHLY`: Billed monthly during the commitment.
    public static let monthly = RenewalBillingPlanType(rawValue: "MONTHLY")

    static let constantNames: [String: String] = [
        "BILLED_UPFRONT": "billedUpfront",
        "MONTHLY": "monthly",
    ]
}
