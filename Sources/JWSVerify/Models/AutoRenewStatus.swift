/// Whether an auto-renewable subscription renews at the end of its period.
///
/// [autoRenewStatus](https://developer.apple.com/documentation/appstoreserverapi/autorenewstatus)
///
/// A value this version doesn't know decodes and encodes unchanged; its ``name`` is `nil`.
public struct AutoRenewStatus: AppStoreEnumeration {
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

    /// `0`: Automatic renewal is off.
    public static let off = AutoRenewStatus(rawValue: 0)
    /// `1`: Automatic renewal is on.
    public static let on = AutoRenewStatus(rawValue: 1)

    static let constantNames: [Int64: String] = [
        0: "off",
        1: "on",
    ]
}
