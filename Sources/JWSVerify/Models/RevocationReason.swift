/// The reason the App Store refunded a transaction or revoked it from Family Sharing.
///
/// [revocationReason](https://developer.apple.com/documentation/appstoreserverapi/revocationreason)
///
/// A value this version doesn't know decodes and encodes unchanged; its ``name`` is `nil`.
public struct RevocationReason: AppStoreEnumeration {
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

    /// `0`: Refunded for another reason, such as an accidental purchase.
    public static let refundedForOtherReason = RevocationReason(rawValue: 0)
    /// `1`: Refunded because of an actual or perceived issue within the app.
    public static let refundedDueToIssue = RevocationReason(rawValue: 1)

    static let constantNames: [Int64: String] = [
        0: "refundedForOtherReason",
        1: "refundedDueToIssue",
    ]
}
