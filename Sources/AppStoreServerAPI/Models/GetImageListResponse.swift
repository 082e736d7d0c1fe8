import Foundation
import JWSVerify

/// The response of Get Image List.
public struct GetImageListResponse: Codable, Hashable, Sendable {
    /// Each uploaded image.
    public var imageIdentifiers: [GetImageListResponseItem]?

    /// Creates a value from its fields; every field defaults to absent.
    public init(imageIdentifiers: [GetImageListResponseItem]? = nil) {
        self.imageIdentifiers = imageIdentifiers
    }
}
