import Foundation

/// Your preferred outcome of a refund request (v2).
///
/// A value this version doesn't know decodes and encodes unchanged; its ``name`` is `nil`.
public struct RefundPreference: APIEnumeration {
    /// The raw JSON value.
    public let rawValue: String
    /// Wraps a raw JSON value, documented or not.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// `DECLINE`: Decline the refund.
    public static let decline = RefundPreference(rawValue: "DECLINE")
    /// `GRANT_FULL`: Grant a full refund.
    public static let grantFull = RefundPreference(rawValue: "GRANT_FULL")
    /// `GRANT_PRORATED`: Grant a prorated refund.
    public static let grantProrated = RefundPreference(rawValue: "GRANT_PRORATED")

    static let constantNames: [String: String] = [
        "DECLINE": "decline",
        "GRANT_FULL": "grantFull",
        "GRANT_PRORATED": "grantProrated",
    ]
}
