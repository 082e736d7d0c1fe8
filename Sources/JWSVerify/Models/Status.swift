/// The status of an auto-renewable subscription.
///
/// [status](https://developer.apple.com/documentation/appstoreservernotifications/status)
///
/// A value this version doesn't know decodes and encodes unchanged; its ``name`` is `nil`.
public struct Status: AppStoreEnumeration {
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

    /// `1`: The subscription is active.
    public static let active = Status(rawValue: 1)
    /// `2`: The subscription expired.
    public static let expired = Status(rawValue: 2)
    /// `3`: The subscription is in the billing retry period.
    public static let billingRetry = Status(rawValue: 3)
    /// `4`: The subscription is in the billing grace period.
    public static let billingGracePeriod = Status(rawValue: 4)
    /// `5`: The subscription was revoked.
    public static let revoked = Status(rawValue: 5)

    static let constantNames: [Int64: String] = [
        1: "active",
        2: "expired",
        3: "billingRetry",
        4: "billingGracePeriod",
        5: "revoked",
    ]
}
