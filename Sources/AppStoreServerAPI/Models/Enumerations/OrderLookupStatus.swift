import Foundation

/// The status of an order id look-up.
///
/// A value this version doesn't know decodes and encodes unchanged; its ``name`` is `nil`.
public struct OrderLookupStatus: APIEnumeration {
    /// The raw JSON value.
    public let rawValue: Int32
    /// Wraps a raw JSON value, documented or not.
    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// `0`: The order id is valid and has in-app purchases.
    public static let valid = OrderLookupStatus(rawValue: 0)
    /// `1`: The order id is not valid.
    public static let invalid = OrderLookupStatus(rawValue: 1)

    static let constantNames: [Int32: String] = [
        0: "valid",
        1: "invalid",
    ]
}
