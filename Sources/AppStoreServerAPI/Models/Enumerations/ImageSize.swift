import Foundation

/// The size of a Retention Messaging image.
///
/// A value this version doesn't know decodes and encodes unchanged; its ``name`` is `nil`.
public struct ImageSize: APIEnumeration {
    /// The raw JSON value.
    public let rawValue: String
    /// Wraps a raw JSON value, documented or not.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// `FULL_SIZE`: A full-size image.
    public static let fullSize = ImageSize(rawValue: "FULL_SIZE")
    /// `BULLET_POINT`: A bullet-point icon.
    public static let bulletPoint = ImageSize(rawValue: "BULLET_POINT")

    static let constantNames: [String: String] = [
        "FULL_SIZE": "fullSize",
        "BULLET_POINT": "bulletPoint",
    ]
}
