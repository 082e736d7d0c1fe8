import Foundation

/// The status of the customer's account (v1).
///
/// A value this version doesn't know decodes and encodes unchanged; its ``name`` is `nil`.
public struct UserStatus: APIEnumeration {
    /// The raw JSON value.
    public let rawValue: Int32
    /// Wraps a raw JSON value, documented or not.
    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// `0`: Not declared.
    public static let undeclared = UserStatus(rawValue: 0)
    /// `1`: Active.
    public static let active = UserStatus(rawValue: 1)
    /// `2`: Suspended.
    public static let suspended = UserStatus(rawValue: 2)
    /// `3`: Terminated.
    public static let terminated = UserStatus(rawValue: 3)
    /// `4`: Limited access.
    public static let limitedAccess = UserStatus(rawValue: 4)

    static let constantNames: [Int32: String] = [
        0: "undeclared",
        1: "active",
        2: "suspended",
        3: "terminated",
        4: "limitedAccess",
    ]
}
