import Foundation

/// How long the customer used the app (v1).
///
/// A value this version doesn't know decodes and encodes unchanged; its ``name`` is `nil`.
public struct PlayTime: APIEnumeration {
    /// The raw JSON value.
    public let rawValue: Int32
    /// Wraps a raw JSON value, documented or not.
    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// `0`: Not declared.
    public static let undeclared = PlayTime(rawValue: 0)
    /// `1`: 0–5 minutes.
    public static let zeroToFiveMinutes = PlayTime(rawValue: 1)
    /// `2`: 5–60 minutes.
    public static let fiveToSixtyMinutes = PlayTime(rawValue: 2)
    /// `3`: 1–6 hours.
    public static let oneToSixHours = PlayTime(rawValue: 3)
    /// `4`: 6–24 hours.
    public static let sixHoursToTwentyFourHours = PlayTime(rawValue: 4)
    /// `5`: 1–4 days.
    public static let oneDayToFourDays = PlayTime(rawValue: 5)
    /// `6`: 4–16 days.
    public static let fourDaysToSixteenDays = PlayTime(rawValue: 6)
    /// `7`: Over 16 days.
    public static let overSixteenDays = PlayTime(rawValue: 7)

    static let constantNames: [Int32: String] = [
        0: "undeclared",
        1: "zeroToFiveMinutes",
        2: "fiveToSixtyMinutes",
        3: "oneToSixHours",
        4: "sixHoursToTwentyFourHours",
        5: "oneDayToFourDays",
        6: "fourDaysToSixteenDays",
        7: "overSixteenDays",
    ]
}
