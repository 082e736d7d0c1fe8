/// The type of an Advanced Commerce refund.
///
/// [advancedCommerceRefundType](https://developer.apple.com/documentation/appstoreserverapi/advancedcommercerefundtype)
///
/// A value this version doesn't know decodes and encodes unchanged; its ``name`` is `nil`.
public struct AdvancedCommerceRefundType: AppStoreEnumeration {
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

    /// `FULL`: A full refund.
    public static let full = AdvancedCommerceRefundType(rawValue: "FULL")
    /// `PRORATED`: A prorated refund.
    public static let prorated = AdvancedCommerceRefundType(rawValue: "PRORATED")
    /// `CUSTOM`: A refund of a custom amount.
    public static let custom = AdvancedCommerceRefundType(rawValue: "CUSTOM")

    static let constantNames: [String: String] = [
        "FULL": "full",
        "PRORATED": "prorated",
        "CUSTOM": "custom",
    ]
}
