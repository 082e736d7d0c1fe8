import Foundation

/// How much of an in-app purchase the customer consumed (v1).
///
/// A value this version doesn't know decodes and encodes unchanged; its ``name`` is `nil`.
public struct ConsumptionStatus: APIEnumeration {
    /// The raw JSON value.
    public let rawValue: Int32
    /// Wraps a raw JSON value, documented or not.
    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// `0`: Not declared.
    public static let undeclared = ConsumptionStatus(rawValue: 0)
    /// `1`: Not consumed.
    public static let notConsumed = ConsumptionStatus(rawValue: 1)
    /// `2`: Partially consumed.
    public static let partiallyConsumed = ConsumptionStatus(rawValue: 2)
    /// `3`: Fully consumed.
    public static let fullyConsumed = ConsumptionStatus(rawValue: 3)

    static let constantNames: [Int32: String] = [
        0: "undeclared",
        1: "notConsumed",
        2: "partiallyConsumed",
        3: "fullyConsumed",
    ]
}
