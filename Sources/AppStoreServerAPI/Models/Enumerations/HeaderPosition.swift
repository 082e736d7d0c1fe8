import Foundation

/// Where a Retention Messaging message shows its header.
///
/// A value this version doesn't know decodes and encodes unchanged; its ``name`` is `nil`.
public struct HeaderPosition: APIEnumeration {
    /// The raw JSON value.
    public let rawValue: String
    /// Wraps a raw JSON value, documented or not.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// `ABOVE_BODY`: Above the body.
    public static let aboveBody = HeaderPosition(rawValue: "ABOVE_BODY")
    /// `ABOVE_IMAGE`: Above the image.
    public static let aboveImage = HeaderPosition(rawValue: "ABOVE_IMAGE")

    static let constantNames: [String: String] = [
        "ABOVE_BODY": "aboveBody",
        "ABOVE_IMAGE": "aboveImage",
    ]
}
