import Foundation

/// The review state of a Retention Messaging message.
///
/// A value this version doesn't know decodes and encodes unchanged; its ``name`` is `nil`.
public struct MessageState: APIEnumeration {
    /// The raw JSON value.
    public let rawValue: String
    /// Wraps a raw JSON value, documented or not.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// `PENDING`: Awaiting review.
    public static let pending = MessageState(rawValue: "PENDING")
    /// `APPROVED`: Approved.
    public static let approved = MessageState(rawValue: "APPROVED")
    /// `REJECTED`: Rejected.
    public static let rejected = MessageState(rawValue: "REJECTED")

    static let constantNames: [String: String] = [
        "PENDING": "pending",
        "APPROVED": "approved",
        "REJECTED": "rejected",
    ]
}
