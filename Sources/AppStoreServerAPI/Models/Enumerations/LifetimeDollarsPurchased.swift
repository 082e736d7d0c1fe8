import Foundation

/// The customer's lifetime purchases in US dollars (v1).
///
/// A value this version doesn't know decodes and encodes unchanged; its ``name`` is `nil`.
public struct LifetimeDollarsPurchased: APIEnumeration {
    /// The raw JSON value.
    public let rawValue: Int32
    /// Wraps a raw JSON value, documented or not.
    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// `0`: Not declared.
    public static let undeclared = LifetimeDollarsPurchased(rawValue: 0)
    /// `1`: $0.
    public static let zeroDollars = LifetimeDollarsPurchased(rawValue: 1)
    /// `2`: $0.01–49.99.
    public static let oneCentToFortyNineDollarsAndNinetyNineCents = LifetimeDollarsPurchased(rawValue: 2)
    /// `3`: $50–99.99.
    public static let fiftyDollarsToNinetyNineDollarsAndNinetyNineCents = LifetimeDollarsPurchased(rawValue: 3)
    /// `4`: $100–499.99.
    public static let oneHundredDollarsToFourHundredNinetyNineDollarsAndNinetyNineCents =
        LifetimeDollarsPurchased(rawValue: 4)
    /// `5`: $500–999.99.
    public static let fiveHundredDollarsToNineHundredNinetyNineDollarsAndNinetyNineCents =
        LifetimeDollarsPurchased(rawValue: 5)
    /// `6`: $1000–1999.99.
    public static let oneThousandDollarsToOneThousandNineHundredNinetyNineDollarsAndNinetyNineCents =
        LifetimeDollarsPurchased(rawValue: 6)
    /// `7`: $2000 or more.
    public static let twoThousandDollarsOrGreater = LifetimeDollarsPurchased(rawValue: 7)

    static let constantNames: [Int32: String] = [
        0: "undeclared",
        1: "zeroDollars",
        2: "oneCentToFortyNineDollarsAndNinetyNineCents",
        3: "fiftyDollarsToNinetyNineDollarsAndNinetyNineCents",
        4: "oneHundredDollarsToFourHundredNinetyNineDollarsAndNinetyNineCents",
        5: "fiveHundredDollarsToNineHundredNinetyNineDollarsAndNinetyNineCents",
        6: "oneThousandDollarsToOneThousandNineHundredNinetyNineDollarsAndNinetyNineCents",
        7: "twoThousandDollarsOrGreater",
    ]
}
