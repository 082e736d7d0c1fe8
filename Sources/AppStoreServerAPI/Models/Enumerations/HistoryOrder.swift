import Foundation

/// The sort order of Get Transaction History (Apple: `TransactionHistoryRequest.Order`).
///
/// A value this version doesn't know decodes and encodes unchanged; its ``name`` is `nil`.
public struct HistoryOrder: APIEnumeration {
    /// The raw JSON value.
    public let rawValue: String
    /// Wraps a raw JSON value, documented or not.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// `ASCENDING`: Oldest first.
    public static let ascending = HistoryOrder(rawValue: "ASCENDING")
    /// `DESCENDING`: Newest first.
    public static let descending = HistoryOrder(rawValue: "DESCENDING")

    static let constantNames: [String: String] = [
        "ASCENDING": "ascending",
        "DESCENDING": "descending",
    ]
}
