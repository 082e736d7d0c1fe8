import Foundation

/// The platform the customer consumed the purchase on (v1).
///
/// A value this version doesn't know decodes and encodes unchanged; its ``name`` is `nil`.
public struct Platform: APIEnumeration {
    /// The raw JSON value.
    public let rawValue: Int32
    /// Wraps a raw JSON value, documented or not.
    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// `0`: Not declared.
    public static let undeclared = Platform(rawValue: 0)
    /// `1`: An Apple platform.
    public static let apple = Platform(rawValue: 1)
    /// `2`: Another platform.
    public static let nonApple = Platform(rawValue: 2)

    static let constantNames: [Int32: String] = [
        0: "undeclared",
        1: "apple",
        2: "nonApple",
    ]
}
