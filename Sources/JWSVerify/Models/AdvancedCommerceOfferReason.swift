/// The reason for an Advanced Commerce offer.
///
/// [Offer](https://developer.apple.com/documentation/advancedcommerceapi/offer)
///
/// A value this version doesn't know decodes and encodes unchanged; its ``name`` is `nil`.
public struct AdvancedCommerceOfferReason: AppStoreEnumeration {
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

    /// `ACQUISITION`: An offer to acquire new customers.
    public static let acquisition = AdvancedCommerceOfferReason(rawValue: "ACQUISITION")
    /// `WIN_BACK`: An offer to win back former customers.
    public static let winBack = AdvancedCommerceOfferReason(rawValue: "WIN_BACK")
    /// `RETENTION`: An offer to retain current customers.
    public static let retention = AdvancedCommerceOfferReason(rawValue: "RETENTION")

    static let constantNames: [String: String] = [
        "ACQUISITION": "acquisition",
        "WIN_BACK": "winBack",
        "RETENTION": "retention",
    ]
}
