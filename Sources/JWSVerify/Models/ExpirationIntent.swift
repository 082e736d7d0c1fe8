/// The reason an auto-renewable subscription expired.
///
/// [expirationIntent](https://developer.apple.com/documentation/appstoreserverapi/expirationintent)
///
/// A value this version doesn't know decodes and encodes unchanged; its ``name`` is `nil`.
public struct ExpirationIntent: AppStoreEnumeration {
    /// The raw JSON value.
    public let rawValue: Int64

    /// Wraps a raw JSON value, documented or not.
    public init(rawValue: Int64) {
        self.rawValue = rawValue
    }

    /// The name of the Swift constant for a documented value, `nil` for a value this version doesn't know.
    public var name: String? { constantName }

    /// The raw JSON value as a tree.
    package var jsonValue: JSONValue { rawValue.jsonValue }

    /// `1`: The customer canceled the subscription.
    public static let customerCancelled = ExpirationIntent(rawValue: 1)
    /// `2`: A billing error, such as an expired payment method.
    public static let billingError = ExpirationIntent(rawValue: 2)
    /// `3`: The customer didn't consent to a price increase.
    public static let customerDidNotConsentToPriceIncrease = ExpirationIntent(rawValue: 3)
    /// `4`: The product wasn't available for purchase at renewal time.
    public static let productNotAvailable = ExpirationIntent(rawValue: 4)
    /// `5`: Another reason.
    public static let other = ExpirationIntent(rawValue: 5)

    static let constantNames: [Int64: String] = [
        1: "customerCancelled",
        2: "billingError",
        3: "customerDidNotConsentToPriceIncrease",
        4: "productNotAvailable",
        5: "other",
    ]
}
