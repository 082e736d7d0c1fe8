import Foundation

/// The age of the customer's account (v1).
///
/// A value this version doesn't know decodes and encodes unchanged; its ``name`` is `nil`.
public struct AccountTenure: APIEnumeration {
    /// The raw JSON value.
    public let rawValue: Int32
    /// Wraps a raw JSON value, documented or not.
    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// `0`: Not declared.
    public static let undeclared = AccountTenure(rawValue: 0)
    /// `1`: 0–3 days.
    public static let zeroToThreeDays = AccountTenure(rawValue: 1)
    /// `2`: 3–10 days.
    public static let threeDaysToTenDays = AccountTenure(rawValue: 2)
    /// `3`: 10–30 days.
    public static let tenDaysToThirtyDays = AccountTenure(rawValue: 3)
    /// `4`: 30–90 days.
    public static let thirtyDaysToNinetyDays = AccountTenure(rawValue: 4)
    /// `5`: 90–180 days.
    public static let ninetyDaysToOneHundredEightyDays = AccountTenure(rawValue: 5)
    /// `6`: 180–365 days.
    public static let oneHundredEightyDaysToThreeHundredSixtyFiveDays = AccountTenure(rawValue: 6)
    /// `7`: Over 365 days.
    public static let greaterThanThreeHundredSixtyFiveDays = AccountTenure(rawValue: 7)

    static let constantNames: [Int32: String] = [
        0: "undeclared",
        1: "zeroToThreeDays",
        2: "threeDaysToTenDays",
        3: "tenDaysToThirtyDays",
        4: "thirtyDaysToNinetyDays",
        5: "ninetyDaysToOneHundredEightyDays",
        6: "oneHundredEightyDaysToThreeHundredSixtyFiveDays",
        7: "greaterThanThreeHundredSixtyFiveDays",
    ]
}
