import Foundation

/// The review state of a Retention Messaging image.
///
/// A value this version doesn't know decodes and encodes unchanged; its ``name`` is `nil`.
public struct ImageState: APIEnumeration {
    /// The raw JSON value.
    public let rawValue: String
    /// Wraps a raw JSON value, documented or not.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// `PENDING`: Awaiting review.
    public static let pending = ImageState(rawValue: "PENDING")
    /// `APPROVED`: Approved.
    public static let approved = ImageState(rawValue: "APPROVED")
    /// `REJECTED`: Rejected.
    public static let rejected = ImageState(rawValue: "REJECTED")

    static let constantNames: [String: String] = [
        "PENDING": "pending",
        "APPROVED": "approved",
        "REJECTED": "rejected",
    ]
}
