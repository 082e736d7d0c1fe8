/// The period of an Advanced Commerce offer, as an ISO 8601 duration.
///
/// [Offer](https://developer.apple.com/documentation/advancedcommerceapi/offer)
///
/// A value this version doesn't know decodes and encodes unchanged; its ``name`` is `nil`.
public struct AdvancedCommerceOfferPeriod: AppStoreEnumeration {
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

    /// `P3D`: Three days.
    public static let p3D = AdvancedCommerceOfferPeriod(rawValue: "P3D")
    /// `P1W`: One week.
    public static let p1W = AdvancedCommerceOfferPeriod(rawValue: "P1W")
    /// `P2W`: Two weeks.
    public static let p2W = AdvancedCommerceOfferPeriod(rawValue: "P2W")
    /// `P1M`: One month.
    public static let p1M = AdvancedCommerceOfferPeriod(rawValue: "P1M")
    /// `P2M`: Two months.
    public static let p2M = AdvancedCommerceOfferPeriod(rawValue: "P2M")
    /// `P3M`: Three months.
    public static let p3M = AdvancedCommerceOfferPeriod(rawValue: "P3M")
    /// `P6M`: Six months.
    public static let p6M = AdvancedCommerceOfferPeriod(rawValue: "P6M")
    /// `P9M`: Nine months.
    public static let p9M = AdvancedCommerceOfferPeriod(rawValue: "P9M")
    /// `P1Y`: One year.
    public static let p1Y = AdvancedCommerceOfferPeriod(rawValue: "P1Y")

    static let constantNames: [String: String] = [
        "P3D": "p3D",
        "P1W": "p1W",
        "P2W": "p2W",
        "P1M": "p1M",
        "P2M": "p2M",
        "P3M": "p3M",
        "P6M": "p6M",
        "P9M": "p9M",
        "P1Y": "p1Y",
    ]
}
