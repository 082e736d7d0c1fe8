/// Whether the customer responded to a subscription price increase.
///
/// [priceIncreaseStatus](https://developer.apple.com/documentation/appstoreserverapi/priceincreasestatus)
///
/// A value this version doesn't know decodes and encodes unchanged; its ``name`` is `nil`.
public struct PriceIncreaseStatus: AppStoreEnumeration {
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

    /// `0`: The customer hasn't responded to a price increase that requires consent.
    public static let customerHasNotResponded = PriceIncreaseStatus(rawValue: 0)
    /// `1`: The customer consented, or was notified of an increase that doesn't require consent.
    public static let customerConsentedOrWasNotifiedWithoutNeedingConsent = PriceIncreaseStatus(rawValue: 1)

    static let constantNames: [Int64: String] = [
        0: "customerHasNotResponded",
        1: "customerConsentedOrWasNotifiedWithoutNeedingConsent",
    ]
}
