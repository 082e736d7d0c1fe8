/// The type of refund or revocation that applies to a transaction.
///
/// [revocationType](https://developer.apple.com/documentation/appstoreservernotifications/revocationtype)
///
/// A value this version doesn't know decodes and encodes unchanged; its ``name`` is `nil`.
public struct RevocationType: AppStoreEnumeration {
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

    /// `REFUND_FULL`: The App Store refunded the full transaction.
    public static let refundFull = RevocationType(rawValue: "REFUND_FULL")
    /// `REFUND_PRORATED`: The App Store refunded part of the transaction (see `revocationPercentage`).
    public static let refundProrated = RevocationType(rawValue: "REFUND_PRORATED")
    /// `FAMILY_REVOKE`: The App Store revoked the transaction from Family Sharing.
    public static let familyRevoke = RevocationType(rawValue: "FAMILY_REVOKE")

    static let constantNames: [String: String] = [
        "REFUND_FULL": "refundFull",
        "REFUND_PRORATED": "refundProrated",
        "FAMILY_REVOKE": "familyRevoke",
    ]
}
