import Foundation

/// Why a subscription renewal date is extended.
///
/// A value this version doesn't know decodes and encodes unchanged; its ``name`` is `nil`.
public struct ExtendReasonCode: APIEnumeration {
    /// The raw JSON value.
    public let rawValue: Int32
    /// Wraps a raw JSON value, documented or not.
    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// `0`: No reason given.
    public static let undeclared = ExtendReasonCode(rawValue: 0)
    /// `1`: For customer satisfaction.
    public static let customerSatisfaction = ExtendReasonCode(rawValue: 1)
    /// `2`: Another reason.
    public static let other = ExtendReasonCode(rawValue: 2)
    /// `3`: Because of a service issue or outage.
    public static let serviceIssueOrOutage = ExtendReasonCode(rawValue: 3)

    static let constantNames: [Int32: String] = [
        0: "undeclared",
        1: "customerSatisfaction",
        2: "other",
        3: "serviceIssueOrOutage",
    ]
}
