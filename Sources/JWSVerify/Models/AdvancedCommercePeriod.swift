/// The duration of one period of an Advanced Commerce subscription, as an ISO 8601 duration.
///
/// [advancedCommercePeriod](https://developer.apple.com/documentation/appstoreserverapi/advancedcommerceperiod)
///
/// A value this version doesn't know decodes and encodes unchanged; its ``name`` is `nil`.
public struct AdvancedCommercePeriod: AppStoreEnumeration {
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

    /// `P1W`: One week.
    public static let p1W = AdvancedCommercePeriod(rawValue: "P1W")
    /// `P1M`: One month.
    public static let p1M = AdvancedCommercePeriod(rawValue: "P1M")
    /// `P2M`: Two months.
    public static let p2M = AdvancedCommercePeriod(rawValue: "P2M")
    /// `P3M`: Three months.
    public static let p3M = AdvancedCommercePeriod(rawValue: "P3M")
    /// `P6M`: Six months.
    public static let p6M = AdvancedCommercePeriod(rawValue: "P6M")
    /// `P1Y`: One year.
    public static let p1Y = AdvancedCommercePeriod(rawValue: "P1Y")

    static let constantNames: [String: String] = [
        "P1W": "p1W",
        "P1M": "p1M",
        "P2M": "p2M",
        "P3M": "p3M",
        "P6M": "p6M",
        "P1Y": "p1Y",
    ]
}
