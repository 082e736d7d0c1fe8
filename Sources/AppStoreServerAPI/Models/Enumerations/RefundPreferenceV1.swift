import Foundation

/// Your preferred outcome of a refund request (v1).
///
/// A value this version doesn't know decodes and encodes unchanged; its ``name`` is `nil`.
public struct RefundPreferenceV1: APIEnumeration {
    /// The raw JSON value.
    public let rawValue: Int32
    /// Wraps a raw JSON value, documented or not.
    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// `0`: Not declared.
    public static let undeclared = RefundPreferenceV1(rawValue: 0)
    /// `1`: Grant.
    public static let preferGrant = RefundPreferenceV1(rawValue: 1)
    /// `2`: Decline.
    public static let preferDecline = RefundPreferenceV1(rawValue: 2)
    /// `3`: No preference.
    public static let noPreference = RefundPreferenceV1(rawValue: 3)

    static let constantNames: [Int32: String] = [
        0: "undeclared",
        1: "preferGrant",
        2: "preferDecline",
        3: "noPreference",
    ]
}
