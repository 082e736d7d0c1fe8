/// The status of a price increase for an Advanced Commerce subscription item.
///
/// <https://developer.apple.com/documentation/appstoreservernotifications/advancedcommercepriceincreaseinfostatus>
///
/// A value this version doesn't know decodes and encodes unchanged; its ``name`` is `nil`.
public struct AdvancedCommercePriceIncreaseInfoStatus: AppStoreEnumeration {
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

    /// `SCHEDULED`: The price increase is scheduled.
    public static let scheduled = AdvancedCommercePriceIncreaseInfoStatus(rawValue: "SCHEDULED")
    /// `PENDING`: The price increase awaits the customer's consent.
    public static let pending = AdvancedCommercePriceIncreaseInfoStatus(rawValue: "PENDING")
    /// `ACCEPTED`: The customer accepted the price increase.
    public static let accepted = AdvancedCommercePriceIncreaseInfoStatus(rawValue: "ACCEPTED")

    static let constantNames: [String: String] = [
        "SCHEDULED": "scheduled",
        "PENDING": "pending",
        "ACCEPTED": "accepted",
    ]
}
